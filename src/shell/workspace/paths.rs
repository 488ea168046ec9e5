//! Which project-relative paths are safe, and where on disk they lead: the lexical rules (no
//! absolute paths, no `..`, nothing under `.git/`) and the walk through existing symlinks, which
//! must stay inside the project.
//!
//! Not for: opening anything. What is said here may be out of date by the time it is used; the
//! writer re-walks the path with `O_NOFOLLOW` (`at`) so that a change in between is refused.

use std::fs;
use std::io;
use std::path::Path;

use thiserror::Error;

use super::{Resolved, Workspace};

/// Why a project-relative path may not be read or written. The message does not repeat the path.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PathRefusal {
    #[error("empty path")]
    Empty,
    #[error("absolute paths are not allowed")]
    Absolute,
    #[error("`..` is not allowed in a path")]
    ParentDir,
    #[error("the path contains a NUL character")]
    Nul,
    #[error("files under .git/ are never edited")]
    Git,
    #[error("escapes the project through the symlink {link}")]
    Escapes { link: String },
    #[error("the symlink {link} points to nothing")]
    Dangling { link: String },
    #[error("cannot resolve {at}: {message}")]
    Unresolvable { at: String, message: String },
    /// A folder on the way became a symlink (or a file) after the path was checked.
    #[error("{at} is no longer a folder (a symlink or file took its place while writing)")]
    NotAFolder { at: String },
}

impl Workspace {
    /// Check a project-relative, `/`-separated path and resolve it on disk. Components that do
    /// not exist yet (a new file, new folders) are allowed; every existing symlink on the way must
    /// point inside the project and not into `.git/`.
    pub fn resolve(&self, rel: &str) -> Result<Resolved, PathRefusal> {
        let parts = lexical_parts(rel)?;
        let mut lexical = self.root.clone();
        let mut real = self.root.clone();
        let mut holder = self.root.clone();
        let mut missing = false;
        for (i, part) in parts.iter().enumerate() {
            if i + 1 == parts.len() {
                holder = real.clone();
            }
            lexical.push(part);
            real.push(part);
            if missing {
                continue;
            }
            let here = || parts[..=i].join("/");
            match fs::symlink_metadata(&real) {
                Err(e) if e.kind() == io::ErrorKind::NotFound => missing = true,
                Err(e) => {
                    return Err(PathRefusal::Unresolvable { at: here(), message: e.to_string() });
                }
                Ok(meta) if meta.file_type().is_symlink() => {
                    real = self.follow(&real, &here)?;
                }
                Ok(_) => {}
            }
        }
        Ok(Resolved { lexical, real, holder })
    }

    /// Where the symlink at `link` leads, which must be inside the project and not under `.git`.
    fn follow(
        &self,
        link: &Path,
        here: &dyn Fn() -> String,
    ) -> Result<std::path::PathBuf, PathRefusal> {
        let real = fs::canonicalize(link).map_err(|e| {
            if e.kind() == io::ErrorKind::NotFound {
                PathRefusal::Dangling { link: here() }
            } else {
                PathRefusal::Unresolvable { at: here(), message: e.to_string() }
            }
        })?;
        let inside =
            real.strip_prefix(&self.root).map_err(|_| PathRefusal::Escapes { link: here() })?;
        if inside.components().any(|c| is_git_dir_name(&c.as_os_str().to_string_lossy())) {
            return Err(PathRefusal::Git);
        }
        Ok(real)
    }
}

/// The lexical rules: relative, no `..`, nothing under `.git`. Empty and `.` components are
/// dropped. Backslashes count as separators for these checks, so `..\x` is refused everywhere.
pub(super) fn lexical_parts(rel: &str) -> Result<Vec<&str>, PathRefusal> {
    if rel.contains('\0') {
        return Err(PathRefusal::Nul);
    }
    let bytes = rel.as_bytes();
    let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    // On Unix a single leading backslash is part of a file name; `\\\\host` is a network path.
    let backslash_root =
        if cfg!(windows) { rel.starts_with('\\') } else { rel.starts_with("\\\\") };
    if rel.starts_with('/') || backslash_root || drive || Path::new(rel).is_absolute() {
        return Err(PathRefusal::Absolute);
    }
    for piece in rel.split(['/', '\\']) {
        if piece == ".." {
            return Err(PathRefusal::ParentDir);
        }
        if is_git_dir_name(piece) {
            return Err(PathRefusal::Git);
        }
    }
    let parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
    if parts.is_empty() {
        return Err(PathRefusal::Empty);
    }
    Ok(parts)
}

/// `.git` in any case: case-insensitive file systems (macOS, Windows) treat `.GIT` as `.git`.
pub(super) fn is_git_dir_name(name: &str) -> bool {
    name.eq_ignore_ascii_case(".git")
}
