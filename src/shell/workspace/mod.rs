//! The project on disk: listing its files, deciding which paths are safe to touch, reading files
//! into [`Source`]s and carrying out [`FileWrite`]s atomically.
//!
//! This is the only module of `redline apply` that touches the file system. Every read and every
//! write goes through [`Workspace::resolve`], which refuses paths that are absolute, contain
//! `..`, lie under `.git/`, or reach outside the project through a symlink (on any component,
//! including folders that a new file would be created in). Writes go to a temporary file in the
//! same folder, are synced, and take the target's place by a rename, so a reader sees either the
//! old file or the new one; before each write the file is compared with what was read, and a
//! file that changed in between is left alone.
//!
//! On Linux the check and the use cannot drift apart: after [`Workspace::resolve`] has said
//! where a path leads, the folder is opened from a file descriptor of the project root one
//! component at a time with `O_NOFOLLOW` (`at`), and the temporary file, the re-check, the swap
//! and a delete all happen relative to that folder's descriptor. A folder swapped for a symlink
//! after the check makes the open fail; it can never send a write elsewhere. How the swap is
//! checked, and what a replaced file keeps (owner, mode, extended attributes), is in `write`;
//! temporary files' names and the removal of leftovers in `tmp`.
//!
//! Not for: deciding what to write (that is `core::execute`), or watching files for
//! changes (`shell::watcher`).

mod excludes;
mod paths;
mod tmp;

#[cfg(target_os = "linux")]
mod at;
#[cfg(target_os = "linux")]
mod lease;
#[cfg(not(target_os = "linux"))]
mod portable;
#[cfg(target_os = "linux")]
mod write;
#[cfg(target_os = "linux")]
mod xattrs;

#[cfg(all(test, unix))]
mod tests;

use std::collections::HashSet;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use thiserror::Error;

use crate::core::file::{FileWrite, Source};

pub use paths::PathRefusal;
pub use tmp::is_temp_name;

/// How much of a file is searched for a NUL byte to call it binary (what git does).
const BINARY_SNIFF_LEN: usize = 8 * 1024;

/// How long a replaced file is watched after the swap for a write by another program that
/// opened it just before (see `write`). Long enough for a program between its `open` and its
/// `write`; short enough not to be felt per file.
pub const SETTLE_WINDOW: Duration = Duration::from_millis(5);

/// Why the project root cannot be used.
#[derive(Debug, Error)]
pub enum WorkspaceError {
    #[error("project root {}: {source}", path.display())]
    Root {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("project root {} is not a folder", path.display())]
    RootNotDir { path: PathBuf },
}

/// A write that was not carried out. The original file is untouched in every case.
#[derive(Debug, Error)]
#[error("{path}: {failure}")]
pub struct WriteError {
    /// The project-relative path of the write.
    pub path: String,
    pub failure: WriteFailure,
}

/// What went wrong with one write.
#[derive(Debug, Error)]
pub enum WriteFailure {
    /// The path is not safe to write (see [`PathRefusal`]).
    #[error("{0}")]
    Unsafe(PathRefusal),
    /// The file on disk is not what was read before the edits were computed.
    #[error("changed on disk since redline read it ({0}); not written")]
    Changed(&'static str),
    /// The shell never read this path, so it cannot tell whether the write is stale.
    #[error("was not read before the edits were computed; not written")]
    NotRead,
    /// The file was read as unusable (binary, not UTF-8, ...); writing it would lose data.
    #[error("cannot be edited ({0}); not written")]
    NotEditable(String),
    /// The file has no write permission for anyone.
    #[error("read-only: redline does not change permissions; not written")]
    ReadOnly,
    /// Replacing the file would split its hard links; writing in place would not be atomic.
    #[error("has {0} hard links: replacing it would split them; not written")]
    HardLinks(u64),
    /// The new file could not be given the old one's owner and group.
    #[error("owned by uid {uid}, gid {gid}, which redline cannot keep ({source}); not written")]
    Owner {
        uid: u32,
        gid: u32,
        #[source]
        source: io::Error,
    },
    /// The new file could not be given one of the old one's extended attributes.
    #[error("cannot keep its extended attribute {name} ({source}); not written")]
    Xattr {
        name: String,
        #[source]
        source: io::Error,
    },
    /// The file system refused: full disk, read-only folder, a folder in the way, ...
    #[error("{action}: {source}")]
    Io {
        action: &'static str,
        #[source]
        source: io::Error,
    },
}

impl WriteError {
    fn new(path: &str, failure: WriteFailure) -> Self {
        WriteError { path: path.to_string(), failure }
    }

    /// True when the file system failed (as opposed to redline declining to write).
    pub fn is_io(&self) -> bool {
        matches!(self.failure, WriteFailure::Io { .. })
    }
}

/// A safe path inside the project, in three spellings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The canonical root joined with the path as written: names a symlink itself when the last
    /// component is one (what a delete removes).
    pub lexical: PathBuf,
    /// Every existing component resolved through symlinks (what a read or write goes to, so that
    /// writing through an in-project symlink keeps the link).
    pub real: PathBuf,
    /// The real folder holding the last component as written (where a delete removes it).
    pub holder: PathBuf,
}

/// The project folder, canonicalized once.
#[derive(Debug, Clone)]
pub struct Workspace {
    root: PathBuf,
    /// See [`SETTLE_WINDOW`].
    settle: Duration,
    /// Folders whose leftover temporary files were already looked for in this run.
    swept: Arc<Mutex<HashSet<PathBuf>>>,
    /// The permissions of files this run deleted, by path: a file written there again (a
    /// delete undone) gets them back (an executable script stays executable).
    deleted_modes: Arc<Mutex<std::collections::HashMap<PathBuf, fs::Permissions>>>,
}

impl Workspace {
    /// Open the project at `root`, which must be an existing folder.
    pub fn open(root: &Path) -> Result<Workspace, WorkspaceError> {
        let canonical = fs::canonicalize(root)
            .map_err(|source| WorkspaceError::Root { path: root.to_path_buf(), source })?;
        if !canonical.is_dir() {
            return Err(WorkspaceError::RootNotDir { path: root.to_path_buf() });
        }
        Ok(Workspace {
            root: canonical,
            settle: SETTLE_WINDOW,
            swept: Arc::default(),
            deleted_modes: Arc::default(),
        })
    }

    /// The same project with another settle window (tests lengthen it so that a slow machine
    /// cannot outrun it).
    pub fn with_settle_window(mut self, window: Duration) -> Workspace {
        self.settle = window;
        self
    }

    /// The canonical project root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The project's files: see [`list_project_files`].
    pub fn list_files(&self) -> Vec<String> {
        list_project_files(&self.root)
    }

    /// Read a project file for the core. Never fails: what cannot be used becomes
    /// [`Source::Unusable`] with the reason.
    pub fn read_source(&self, rel: &str) -> Source {
        let resolved = match self.resolve(rel) {
            Ok(r) => r,
            Err(refusal) => return Source::Unusable(refusal.to_string()),
        };
        match self.read_bytes(&resolved) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Source::Missing,
            Err(e) if e.kind() == io::ErrorKind::IsADirectory => {
                Source::Unusable("is a folder".to_string())
            }
            Err(e) if e.kind() == io::ErrorKind::InvalidInput => {
                Source::Unusable("not a regular file".to_string())
            }
            Err(e) => Source::Unusable(format!("cannot read: {e}")),
            Ok(bytes) => classify(bytes),
        }
    }

    /// Carry out one write, provided the file still holds what was read (`read`, from the same
    /// run's [`Workspace::read_source`]). On any error the file is left as it was.
    pub fn write(&self, write: &FileWrite, read: Option<&Source>) -> Result<(), WriteError> {
        let path = write.path();
        let fail = |failure| WriteError::new(path, failure);
        let resolved = self.resolve(path).map_err(|r| fail(WriteFailure::Unsafe(r)))?;
        match write {
            FileWrite::Write { text, .. } => {
                self.write_file(&resolved, text.as_bytes(), read).map_err(fail)?;
                self.restore_mode(&resolved, read);
                Ok(())
            }
            FileWrite::Delete { .. } => {
                check_unchanged(&resolved, read).map_err(fail)?;
                let mode = fs::symlink_metadata(&resolved.lexical).map(|m| m.permissions());
                self.delete_file(&resolved).map_err(fail)?;
                if let Ok(mode) = mode {
                    self.modes().insert(resolved.lexical.clone(), mode);
                }
                Ok(())
            }
        }
    }

    fn modes(
        &self,
    ) -> std::sync::MutexGuard<'_, std::collections::HashMap<PathBuf, fs::Permissions>> {
        self.deleted_modes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A file just created (`read` said it did not exist) where this run deleted one: it gets
    /// the deleted file's permissions back. Best effort: the text is written either way.
    fn restore_mode(&self, resolved: &Resolved, read: Option<&crate::core::file::Source>) {
        if !matches!(read, None | Some(crate::core::file::Source::Missing)) {
            return;
        }
        let Some(mode) = self.modes().remove(&resolved.lexical) else { return };
        // Through the file opened without following a symlink: a link put in its place since
        // the write must not carry the mode to a file outside the project.
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            let opened = fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&resolved.lexical);
            if let Ok(file) = opened {
                let _ = file.set_permissions(mode);
            }
        }
        #[cfg(not(unix))]
        let _ = mode;
    }

    /// The first write into `dir` in this run removes the temporary files that earlier runs,
    /// since ended, left there.
    fn first_visit(&self, dir: &Path) -> bool {
        let mut swept = self.swept.lock().unwrap_or_else(|e| e.into_inner());
        swept.insert(dir.to_path_buf())
    }

    /// `real`, project-relative, as its folder's components and its own name.
    #[cfg(target_os = "linux")]
    fn split<'p>(&self, real: &'p Path) -> Result<(Vec<&'p str>, &'p str), WriteFailure> {
        let outside = || WriteFailure::Io {
            action: "finding the folder",
            source: io::Error::new(io::ErrorKind::InvalidInput, "not a file inside the project"),
        };
        let rel = real.strip_prefix(&self.root).map_err(|_| outside())?;
        let mut parts: Vec<&str> =
            rel.components().map(|c| c.as_os_str().to_str()).collect::<Option<_>>().ok_or_else(
                || WriteFailure::Io {
                    action: "finding the folder",
                    source: io::Error::new(io::ErrorKind::InvalidData, "the path is not UTF-8"),
                },
            )?;
        let name = parts.pop().ok_or_else(outside)?;
        Ok((parts, name))
    }
}

/// The project's files, project-relative and `/`-separated, sorted: `.gitignore` (and `.ignore`)
/// rules are honoured even outside a git repository, hidden files are included, `.git` and
/// redline's own temporary files are skipped. Symlinks are listed (unless they point to a folder)
/// so that an edit to one can be refused with a reason rather than reported as not found.
/// Entries that cannot be read, or whose names are not UTF-8, are left out.
pub fn list_project_files(root: &Path) -> Vec<String> {
    let mut walker = ignore::WalkBuilder::new(root);
    walker.hidden(false).require_git(false).follow_links(false).filter_entry(|e| {
        e.depth() == 0 || !paths::is_git_dir_name(&e.file_name().to_string_lossy())
    });
    // The user's global gitignore, found without `ignore`'s regular expression (`excludes`).
    walker.git_global(false);
    if let Some(global) = excludes::global_excludes_file() {
        walker.add_ignore(global);
    }
    let mut files = Vec::new();
    for entry in walker.build().flatten() {
        let Some(kind) = entry.file_type() else { continue };
        let listed = kind.is_file()
            || (kind.is_symlink() && !fs::metadata(entry.path()).is_ok_and(|m| m.is_dir()));
        if !listed || is_temp_name(&entry.file_name().to_string_lossy()) {
            continue;
        }
        let Ok(rel) = entry.path().strip_prefix(root) else { continue };
        let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
        if let Some(parts) = parts {
            files.push(parts.join("/"));
        }
    }
    files.sort();
    files
}

/// Read a project file into a [`Source`] (see [`Workspace::read_source`]).
pub fn read_source(root: &Path, rel: &str) -> Source {
    match Workspace::open(root) {
        Ok(ws) => ws.read_source(rel),
        Err(e) => Source::Unusable(e.to_string()),
    }
}

/// Text, or why not: a NUL byte near the start means binary; then it must be UTF-8.
fn classify(bytes: Vec<u8>) -> Source {
    let head = &bytes[..bytes.len().min(BINARY_SNIFF_LEN)];
    if head.contains(&0) {
        return Source::Unusable("binary file".to_string());
    }
    match String::from_utf8(bytes) {
        Ok(text) => Source::Text(text),
        Err(_) => Source::Unusable("not UTF-8 text".to_string()),
    }
}

/// Compare the file on disk with what was read before the edits were computed (by path: what
/// a delete checks, and every write where no folder descriptors are used).
fn check_unchanged(resolved: &Resolved, read: Option<&Source>) -> Result<(), WriteFailure> {
    match read {
        None => Err(WriteFailure::NotRead),
        Some(Source::Unusable(reason)) => Err(WriteFailure::NotEditable(reason.clone())),
        Some(Source::Missing) => match fs::symlink_metadata(&resolved.lexical) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(source) => Err(WriteFailure::Io { action: "checking", source }),
            Ok(_) => Err(WriteFailure::Changed("it was created")),
        },
        Some(Source::Text(expected)) => match read_exact_len(&resolved.real, expected.len()) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                Err(WriteFailure::Changed("it was deleted"))
            }
            Err(source) => Err(WriteFailure::Io { action: "re-reading", source }),
            Ok(Some(now)) if now == expected.as_bytes() => Ok(()),
            Ok(_) => Err(WriteFailure::Changed("its content differs")),
        },
    }
}

/// Read a file, giving up (`None`) as soon as it is known to be longer than `len` bytes.
fn read_exact_len(path: &Path, len: usize) -> io::Result<Option<Vec<u8>>> {
    let file = fs::File::open(path)?;
    let mut bytes = Vec::with_capacity(len);
    file.take(len as u64 + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() <= len).then_some(bytes))
}

/// `map_err` adapter: an I/O error while doing `action`.
fn io_failure(action: &'static str) -> impl FnOnce(io::Error) -> WriteFailure {
    move |source| WriteFailure::Io { action, source }
}

/// What a write expects to find: `None` for a new file, else the text read.
#[cfg(target_os = "linux")]
fn expectation(read: Option<&Source>) -> Result<Option<&[u8]>, WriteFailure> {
    match read {
        None => Err(WriteFailure::NotRead),
        Some(Source::Unusable(reason)) => Err(WriteFailure::NotEditable(reason.clone())),
        Some(Source::Missing) => Ok(None),
        Some(Source::Text(text)) => Ok(Some(text.as_bytes())),
    }
}
