//! The project on disk: listing its files, deciding which paths are safe to touch, reading files
//! into [`Source`]s and carrying out [`FileWrite`]s atomically.
//!
//! This is the only module of `redline apply` that touches the file system. Every read and every
//! write goes through [`Workspace::resolve`], which refuses paths that are absolute, contain
//! `..`, lie under `.git/`, or reach outside the project through a symlink (on any component,
//! including folders that a new file would be created in). Writes go to a temporary file in the
//! same folder, are synced, and are renamed over the target, so a reader sees either the old file
//! or the new one; before each write the file is compared with what was read, and a file that
//! changed in between is left alone.
//!
//! The re-check happens twice: before anything is written, and again after the temporary file is
//! synced, immediately before it takes the target's place. On Linux the swap itself is checked
//! too: the new file is exchanged with the old one atomically (`renameat2(RENAME_EXCHANGE)`) and
//! the file that was displaced is compared with what was read; if another program wrote in the
//! instant between the re-check and the swap, the swap is undone and its text stays. A new file
//! is created with `RENAME_NOREPLACE`, so a file that appeared meanwhile is never replaced.
//!
//! Not for: deciding what to write (that is `core::plan::execute`), or watching files for
//! changes (`shell::watcher`).

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::core::plan::{FileWrite, Source};

/// How much of a file is searched for a NUL byte to call it binary (what git does).
const BINARY_SNIFF_LEN: usize = 8 * 1024;

/// Why the project root cannot be used.
#[derive(Debug, Error)]
pub enum WorkspaceError {
    // The reason is in the message and not a `source` as well, or a chain printed whole
    // (`{:#}`) says it twice.
    #[error("project root {}: {error}", path.display())]
    Root { path: PathBuf, error: io::Error },
    #[error("project root {} is not a folder", path.display())]
    RootNotDir { path: PathBuf },
}

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
    /// The file system refused: full disk, read-only folder, a folder in the way, ...
    // As for `WorkspaceError::Root`: the reason once, in the message.
    #[error("{action}: {error}")]
    Io { action: &'static str, error: io::Error },
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

/// A safe path inside the project, in two spellings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The canonical root joined with the path as written: names a symlink itself when the last
    /// component is one (what a delete removes).
    pub lexical: PathBuf,
    /// Every existing component resolved through symlinks (what a read or write goes to, so that
    /// writing through an in-project symlink keeps the link).
    pub real: PathBuf,
}

/// The project folder, canonicalized once.
#[derive(Debug, Clone)]
pub struct Workspace {
    root: PathBuf,
}

impl Workspace {
    /// Open the project at `root`, which must be an existing folder.
    pub fn open(root: &Path) -> Result<Workspace, WorkspaceError> {
        let canonical = fs::canonicalize(root)
            .map_err(|source| WorkspaceError::Root { path: root.to_path_buf(), error: source })?;
        if !canonical.is_dir() {
            return Err(WorkspaceError::RootNotDir { path: root.to_path_buf() });
        }
        Ok(Workspace { root: canonical })
    }

    /// The canonical project root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The project's files: see [`list_project_files`].
    pub fn list_files(&self) -> Vec<String> {
        list_project_files(&self.root)
    }

    /// Check a project-relative, `/`-separated path and resolve it on disk. Components that do
    /// not exist yet (a new file, new folders) are allowed; every existing symlink on the way must
    /// point inside the project and not into `.git/`.
    pub fn resolve(&self, rel: &str) -> Result<Resolved, PathRefusal> {
        let parts = lexical_parts(rel)?;
        let mut lexical = self.root.clone();
        let mut real = self.root.clone();
        let mut missing = false;
        for (i, part) in parts.iter().enumerate() {
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
                    real = fs::canonicalize(&real).map_err(|e| {
                        if e.kind() == io::ErrorKind::NotFound {
                            PathRefusal::Dangling { link: here() }
                        } else {
                            PathRefusal::Unresolvable { at: here(), message: e.to_string() }
                        }
                    })?;
                    let inside = real
                        .strip_prefix(&self.root)
                        .map_err(|_| PathRefusal::Escapes { link: here() })?;
                    if inside
                        .components()
                        .any(|c| is_git_dir_name(&c.as_os_str().to_string_lossy()))
                    {
                        return Err(PathRefusal::Git);
                    }
                }
                Ok(_) => {}
            }
        }
        Ok(Resolved { lexical, real })
    }

    /// Read a project file for the core. Never fails: what cannot be used becomes
    /// [`Source::Unusable`] with the reason.
    pub fn read_source(&self, rel: &str) -> Source {
        let resolved = match self.resolve(rel) {
            Ok(r) => r,
            Err(refusal) => return Source::Unusable(refusal.to_string()),
        };
        match fs::metadata(&resolved.real) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Source::Missing,
            Err(e) => return Source::Unusable(format!("cannot read: {e}")),
            Ok(meta) if meta.is_dir() => return Source::Unusable("is a folder".to_string()),
            Ok(meta) if !meta.is_file() => {
                return Source::Unusable("not a regular file".to_string());
            }
            Ok(_) => {}
        }
        match fs::read(&resolved.real) {
            Ok(bytes) => classify(bytes),
            Err(e) => Source::Unusable(format!("cannot read: {e}")),
        }
    }

    /// Carry out one write, provided the file still holds what was read (`read`, from the same
    /// run's [`Workspace::read_source`]). On any error the file is left as it was.
    pub fn write(&self, write: &FileWrite, read: Option<&Source>) -> Result<(), WriteError> {
        let path = write.path();
        let fail = |failure| WriteError::new(path, failure);
        let resolved = self.resolve(path).map_err(|r| fail(WriteFailure::Unsafe(r)))?;
        check_unchanged(&resolved, read).map_err(fail)?;
        match write {
            FileWrite::Write { text, .. } => {
                atomic_write(&resolved, text.as_bytes(), read).map_err(fail)
            }
            FileWrite::Delete { .. } => {
                fs::remove_file(&resolved.lexical).map_err(|source| {
                    fail(WriteFailure::Io { action: "deleting", error: source })
                })?;
                if let Some(dir) = resolved.lexical.parent() {
                    sync_dir(dir);
                }
                Ok(())
            }
        }
    }
}

/// The project's files, project-relative and `/`-separated, sorted: `.gitignore` (and `.ignore`)
/// rules are honoured even outside a git repository, hidden files are included, `.git` is
/// skipped. Symlinks are listed (unless they point to a folder) so that an edit to one can be
/// refused with a reason rather than reported as not found. Entries that cannot be read, or whose
/// names are not UTF-8, are left out.
pub fn list_project_files(root: &Path) -> Vec<String> {
    let mut walker = ignore::WalkBuilder::new(root);
    walker
        .hidden(false)
        .require_git(false)
        .follow_links(false)
        .filter_entry(|e| e.depth() == 0 || !is_git_dir_name(&e.file_name().to_string_lossy()));
    let mut files = Vec::new();
    for entry in walker.build().flatten() {
        let Some(kind) = entry.file_type() else { continue };
        let listed = kind.is_file()
            || (kind.is_symlink() && !fs::metadata(entry.path()).is_ok_and(|m| m.is_dir()));
        if !listed {
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

/// Check a path against the project at `root` and resolve it (see [`Workspace::resolve`]).
pub fn check_path(root: &Path, rel: &str) -> Result<Resolved, PathRefusal> {
    let ws = Workspace::open(root).map_err(|e| PathRefusal::Unresolvable {
        at: root.display().to_string(),
        message: e.to_string(),
    })?;
    ws.resolve(rel)
}

/// Read a project file into a [`Source`] (see [`Workspace::read_source`]).
pub fn read_source(root: &Path, rel: &str) -> Source {
    match Workspace::open(root) {
        Ok(ws) => ws.read_source(rel),
        Err(e) => Source::Unusable(e.to_string()),
    }
}

/// The lexical rules: relative, no `..`, nothing under `.git`. Empty and `.` components are
/// dropped. Backslashes count as separators for these checks, so `..\x` is refused everywhere.
fn lexical_parts(rel: &str) -> Result<Vec<&str>, PathRefusal> {
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
fn is_git_dir_name(name: &str) -> bool {
    name.eq_ignore_ascii_case(".git")
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

/// Compare the file on disk with what was read before the edits were computed.
fn check_unchanged(resolved: &Resolved, read: Option<&Source>) -> Result<(), WriteFailure> {
    match read {
        None => Err(WriteFailure::NotRead),
        Some(Source::Unusable(reason)) => Err(WriteFailure::NotEditable(reason.clone())),
        Some(Source::Missing) => match fs::symlink_metadata(&resolved.lexical) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(source) => Err(WriteFailure::Io { action: "checking", error: source }),
            Ok(_) => Err(WriteFailure::Changed("it was created")),
        },
        Some(Source::Text(expected)) => match read_exact_len(&resolved.real, expected.len()) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                Err(WriteFailure::Changed("it was deleted"))
            }
            Err(source) => Err(WriteFailure::Io { action: "re-reading", error: source }),
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

/// Replace (or create) `target` with `bytes`: a temporary file in the same folder, synced, then
/// renamed over the target. An existing file's permissions carry over; a new file gets the
/// permissions a new file normally gets (umask applies); missing folders are created (and removed
/// again if the write fails). The temporary file is removed on every failure.
fn atomic_write(
    resolved: &Resolved,
    bytes: &[u8],
    read: Option<&Source>,
) -> Result<(), WriteFailure> {
    let target = resolved.real.as_path();
    let Some(dir) = target.parent() else {
        return Err(WriteFailure::Io {
            action: "finding the folder",
            error: io::Error::new(io::ErrorKind::InvalidInput, "the path has no parent folder"),
        });
    };
    let existing = match fs::metadata(target) {
        Ok(meta) => Some(meta.permissions()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(source) => {
            return Err(WriteFailure::Io { action: "reading permissions", error: source });
        }
    };
    let created = if existing.is_none() {
        create_folders(dir).map_err(io_failure("creating the folder"))?
    } else {
        Vec::new()
    };
    let result = write_and_rename(resolved, dir, bytes, existing, read);
    if result.is_err() {
        // Leave no empty folders behind either; `remove_dir` only removes empty ones.
        for folder in created.iter().rev() {
            let _ = fs::remove_dir(folder);
        }
    }
    result
}

/// Create `dir` and its missing ancestors; returns the folders created, outermost first.
fn create_folders(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let missing: Vec<PathBuf> =
        dir.ancestors().take_while(|a| !a.exists()).map(Path::to_path_buf).collect();
    fs::create_dir_all(dir)?;
    Ok(missing.into_iter().rev().collect())
}

fn write_and_rename(
    resolved: &Resolved,
    dir: &Path,
    bytes: &[u8],
    existing: Option<fs::Permissions>,
    read: Option<&Source>,
) -> Result<(), WriteFailure> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".redline-").suffix(".tmp");
    #[cfg(unix)]
    if existing.is_none() {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut temp = builder.tempfile_in(dir).map_err(io_failure("creating a temporary file"))?;
    temp.write_all(bytes).map_err(io_failure("writing"))?;
    if let Some(permissions) = existing {
        temp.as_file().set_permissions(permissions).map_err(io_failure("setting permissions"))?;
    }
    temp.as_file().sync_all().map_err(io_failure("syncing"))?;
    // Syncing takes time: look again, right before the file takes the target's place.
    check_unchanged(resolved, read)?;
    // From here the temporary path is deleted when `temp` drops, whatever it holds by then.
    let temp = temp.into_temp_path();
    replace_checked(&temp, &resolved.real, bytes, read)?;
    sync_dir(dir);
    Ok(())
}

/// Put the synced temporary file in the target's place, provided the target still holds what
/// was read. See the module doc for why this is a checked swap on Linux.
#[cfg(target_os = "linux")]
fn replace_checked(
    temp: &Path,
    target: &Path,
    ours: &[u8],
    read: Option<&Source>,
) -> Result<(), WriteFailure> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    use rustix::io::Errno;
    let swap = |flags| renameat_with(CWD, temp, CWD, target, flags);
    let expected = match read {
        Some(Source::Text(t)) => t.as_bytes(),
        // A new file: created only if nothing is there yet.
        _ => {
            return match swap(RenameFlags::NOREPLACE) {
                Ok(()) => Ok(()),
                Err(Errno::EXIST) => Err(WriteFailure::Changed("it was created")),
                // A file system without the flag: the re-check just made is all there is.
                Err(Errno::INVAL | Errno::NOSYS) => plain_rename(temp, target),
                Err(e) => Err(WriteFailure::Io { action: "creating", error: e.into() }),
            };
        }
    };
    match swap(RenameFlags::EXCHANGE) {
        Ok(()) => {}
        Err(Errno::INVAL | Errno::NOSYS) => return plain_rename(temp, target),
        Err(Errno::NOENT) => return Err(WriteFailure::Changed("it was deleted")),
        Err(e) => return Err(WriteFailure::Io { action: "replacing", error: e.into() }),
    }
    // `temp` now names the file we displaced: it must be exactly what was read.
    let displaced = fs::read(temp).map_err(io_failure("re-reading the replaced file"))?;
    if displaced == expected {
        return Ok(());
    }
    // Another program wrote in the instant between the re-check and the swap: give its text
    // back its place.
    swap(RenameFlags::EXCHANGE)
        .map_err(|e| WriteFailure::Io { action: "restoring the other write", error: e.into() })?;
    // What we take back must be our own text; if that program wrote into it meanwhile, its
    // newest text goes back in place (and its older one, superseded by itself, is dropped).
    let returned = fs::read(temp).map_err(io_failure("re-reading the restored file"))?;
    if returned != ours {
        swap(RenameFlags::EXCHANGE).map_err(|e| WriteFailure::Io {
            action: "restoring the other write",
            error: e.into(),
        })?;
    }
    Err(WriteFailure::Changed("it changed while being written"))
}

#[cfg(not(target_os = "linux"))]
fn replace_checked(
    temp: &Path,
    target: &Path,
    _ours: &[u8],
    _read: Option<&Source>,
) -> Result<(), WriteFailure> {
    plain_rename(temp, target)
}

fn plain_rename(temp: &Path, target: &Path) -> Result<(), WriteFailure> {
    fs::rename(temp, target).map_err(io_failure("replacing"))
}

/// `map_err` adapter: an I/O error while doing `action`.
fn io_failure(action: &'static str) -> impl FnOnce(io::Error) -> WriteFailure {
    move |source| WriteFailure::Io { action, error: source }
}

/// Make a rename or delete durable. Best effort: not every platform can sync a folder, and the
/// change itself has already happened.
fn sync_dir(dir: &Path) {
    if let Ok(handle) = fs::File::open(dir) {
        let _ = handle.sync_all();
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::{PermissionsExt, symlink};
    use tempfile::TempDir;

    fn project(files: &[(&str, &[u8])]) -> (TempDir, Workspace) {
        let dir = TempDir::new().expect("temp dir");
        for (rel, bytes) in files {
            let path = dir.path().join(rel);
            fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            fs::write(&path, bytes).expect("write");
        }
        let ws = Workspace::open(dir.path()).expect("open");
        (dir, ws)
    }

    fn write(path: &str, text: &str) -> FileWrite {
        FileWrite::Write { path: path.to_string(), text: text.to_string() }
    }

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("read_dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn open_refuses_a_missing_root_and_a_file() {
        let (dir, _) = project(&[("a.txt", b"a")]);
        let missing = Workspace::open(&dir.path().join("nope")).expect_err("missing");
        assert!(missing.to_string().contains("nope"), "{missing}");
        let file = Workspace::open(&dir.path().join("a.txt")).expect_err("a file");
        assert!(matches!(file, WorkspaceError::RootNotDir { .. }));
    }

    #[test]
    fn lists_files_sorted_with_hidden_honouring_gitignore_without_git() {
        let (dir, ws) = project(&[
            (".gitignore", b"build/\n*.log\n"),
            (".env", b"X=1"),
            ("src/app.py", b"x = 1\n"),
            ("src/deep/mod.py", b""),
            ("build/out.py", b""),
            ("debug.log", b""),
            (".git/config", b""),
            ("a.py", b""),
        ]);
        symlink("/etc/hostname", dir.path().join("outside.txt")).expect("symlink");
        symlink("src", dir.path().join("srclink")).expect("symlink");
        assert_eq!(
            ws.list_files(),
            [".env", ".gitignore", "a.py", "outside.txt", "src/app.py", "src/deep/mod.py"]
        );
    }

    #[test]
    fn a_git_file_is_skipped_too() {
        // A worktree's `.git` is a file pointing at the real repository.
        let (_dir, ws) = project(&[(".git", b"gitdir: /elsewhere"), ("a.py", b"")]);
        assert_eq!(ws.list_files(), ["a.py"]);
    }

    #[test]
    fn lexical_refusals() {
        let (_dir, ws) = project(&[("a.py", b"")]);
        let refused = |p: &str| ws.resolve(p).expect_err(p);
        assert_eq!(refused("/etc/passwd"), PathRefusal::Absolute);
        assert_eq!(refused("\\\\host\\share"), PathRefusal::Absolute);
        assert_eq!(refused("C:/x.py"), PathRefusal::Absolute);
        assert_eq!(refused("../x.py"), PathRefusal::ParentDir);
        assert_eq!(refused("src/../../x.py"), PathRefusal::ParentDir);
        assert_eq!(refused("src\\..\\x.py"), PathRefusal::ParentDir);
        assert_eq!(refused(".git/config"), PathRefusal::Git);
        assert_eq!(refused("sub/.GIT/hooks/pre-commit"), PathRefusal::Git);
        assert_eq!(refused(""), PathRefusal::Empty);
        assert_eq!(refused("./"), PathRefusal::Empty);
        assert_eq!(refused("a\0b"), PathRefusal::Nul);
    }

    #[test]
    fn plain_and_new_paths_resolve_inside_the_root() {
        let (_dir, ws) = project(&[("src/a.py", b"")]);
        let r = ws.resolve("./src/a.py").expect("plain");
        assert_eq!(r.real, ws.root().join("src/a.py"));
        let r = ws.resolve("new/dir/b.py").expect("new");
        assert_eq!(r.real, ws.root().join("new/dir/b.py"));
        assert_eq!(r.lexical, r.real);
    }

    #[test]
    fn symlinks_out_of_the_project_are_refused_on_any_component() {
        let outside = TempDir::new().expect("outside");
        fs::write(outside.path().join("secret.py"), "s = 1\n").expect("write");
        let (dir, ws) = project(&[("a.py", b"")]);
        symlink(outside.path().join("secret.py"), dir.path().join("link.py")).expect("symlink");
        symlink(outside.path(), dir.path().join("lib")).expect("symlink");
        symlink("../..", dir.path().join("up")).expect("symlink");
        for path in ["link.py", "lib/secret.py", "lib/new.py", "lib/new/deeper.py", "up/x"] {
            let refusal = ws.resolve(path).expect_err(path);
            assert!(matches!(refusal, PathRefusal::Escapes { .. }), "{path}: {refusal}");
        }
        assert_eq!(
            ws.resolve("lib/new.py").expect_err("dir").to_string(),
            "escapes the project through the symlink lib"
        );
    }

    #[test]
    fn symlinks_inside_the_project_resolve_but_not_into_git() {
        let (dir, ws) = project(&[("src/real.py", b"r\n"), (".git/config", b"")]);
        symlink("src/real.py", dir.path().join("alias.py")).expect("symlink");
        symlink(".git", dir.path().join("g")).expect("symlink");
        symlink("nowhere.py", dir.path().join("dangling.py")).expect("symlink");
        let r = ws.resolve("alias.py").expect("alias");
        assert_eq!(r.real, ws.root().join("src/real.py"));
        assert_eq!(r.lexical, ws.root().join("alias.py"));
        assert_eq!(ws.resolve("g/config"), Err(PathRefusal::Git));
        assert!(matches!(ws.resolve("dangling.py"), Err(PathRefusal::Dangling { .. })));
    }

    #[test]
    fn read_source_classifies_files() {
        let mut big_text = "a".repeat(BINARY_SNIFF_LEN);
        big_text.push('\0');
        let (dir, ws) = project(&[
            ("bom.txt", "\u{feff}one\r\ntwo\r\n".as_bytes()),
            ("bin.dat", b"PK\x03\x04\0\0"),
            ("latin1.txt", b"caf\xe9\n"),
            ("late_nul.txt", big_text.as_bytes()),
            ("sub/x.py", b""),
        ]);
        symlink("/etc/hostname", dir.path().join("out.txt")).expect("symlink");
        assert_eq!(ws.read_source("bom.txt"), Source::Text("\u{feff}one\r\ntwo\r\n".into()));
        assert_eq!(ws.read_source("bin.dat"), Source::Unusable("binary file".into()));
        assert_eq!(ws.read_source("latin1.txt"), Source::Unusable("not UTF-8 text".into()));
        assert_eq!(ws.read_source("late_nul.txt"), Source::Text(big_text));
        assert_eq!(ws.read_source("missing.py"), Source::Missing);
        assert_eq!(ws.read_source("sub"), Source::Unusable("is a folder".into()));
        assert!(matches!(ws.read_source("out.txt"), Source::Unusable(r) if r.contains("escapes")));
        assert!(matches!(ws.read_source("../x"), Source::Unusable(r) if r.contains("..")));
    }

    #[test]
    fn writes_replace_create_and_delete() {
        let (dir, ws) = project(&[("a.py", b"old\n"), ("gone.py", b"bye\n")]);
        let a = ws.read_source("a.py");
        ws.write(&write("a.py", "new\n"), Some(&a)).expect("replace");
        assert_eq!(fs::read_to_string(dir.path().join("a.py")).expect("read"), "new\n");

        let fresh = ws.read_source("pkg/sub/new.py");
        assert_eq!(fresh, Source::Missing);
        ws.write(&write("pkg/sub/new.py", "n\n"), Some(&fresh)).expect("create");
        assert_eq!(fs::read_to_string(dir.path().join("pkg/sub/new.py")).expect("read"), "n\n");

        let gone = ws.read_source("gone.py");
        ws.write(&FileWrite::Delete { path: "gone.py".into() }, Some(&gone)).expect("delete");
        assert!(!dir.path().join("gone.py").exists());
        assert_eq!(names_in(dir.path()), ["a.py", "pkg"]);
    }

    #[test]
    fn replacing_keeps_permissions_and_new_files_are_not_private() {
        let (dir, ws) = project(&[("run.sh", b"echo 1\n"), ("ro.txt", b"r\n")]);
        let run = dir.path().join("run.sh");
        fs::set_permissions(&run, fs::Permissions::from_mode(0o754)).expect("chmod");
        fs::set_permissions(dir.path().join("ro.txt"), fs::Permissions::from_mode(0o444))
            .expect("chmod");
        let src = ws.read_source("run.sh");
        ws.write(&write("run.sh", "echo 2\n"), Some(&src)).expect("write");
        assert_eq!(fs::metadata(&run).expect("meta").permissions().mode() & 0o7777, 0o754);
        let src = ws.read_source("ro.txt");
        ws.write(&write("ro.txt", "w\n"), Some(&src)).expect("write");
        let mode = fs::metadata(dir.path().join("ro.txt")).expect("meta").permissions().mode();
        assert_eq!(mode & 0o7777, 0o444);

        ws.write(&write("new.txt", "n\n"), Some(&Source::Missing)).expect("create");
        let mode = fs::metadata(dir.path().join("new.txt")).expect("meta").permissions().mode();
        assert_ne!(mode & 0o044, 0, "a new file is readable by others unless umask says not");
    }

    #[test]
    fn writing_through_an_inside_symlink_keeps_the_link() {
        let (dir, ws) = project(&[("real.py", b"a\n")]);
        symlink("real.py", dir.path().join("alias.py")).expect("symlink");
        let src = ws.read_source("alias.py");
        ws.write(&write("alias.py", "b\n"), Some(&src)).expect("write");
        assert!(fs::symlink_metadata(dir.path().join("alias.py")).expect("meta").is_symlink());
        assert_eq!(fs::read_to_string(dir.path().join("real.py")).expect("read"), "b\n");
    }

    #[test]
    fn a_file_changed_since_it_was_read_is_not_written() {
        let (dir, ws) = project(&[("a.py", b"one\n")]);
        let src = ws.read_source("a.py");
        fs::write(dir.path().join("a.py"), "someone else\n").expect("write");
        let err = ws.write(&write("a.py", "two\n"), Some(&src)).expect_err("stale");
        assert!(matches!(err.failure, WriteFailure::Changed(_)), "{err}");
        assert!(!err.is_io());
        assert!(err.to_string().starts_with("a.py: changed on disk"), "{err}");
        assert_eq!(fs::read_to_string(dir.path().join("a.py")).expect("read"), "someone else\n");

        // Longer than what was read, with the same beginning.
        fs::write(dir.path().join("a.py"), "one\n").expect("write");
        let src = ws.read_source("a.py");
        fs::write(dir.path().join("a.py"), "one\nmore\n").expect("write");
        assert!(ws.write(&write("a.py", "two\n"), Some(&src)).is_err());

        let err = ws.write(&write("b.py", "x\n"), Some(&Source::Missing));
        assert!(err.is_ok());
        let err = ws.write(&write("b.py", "y\n"), Some(&Source::Missing)).expect_err("created");
        assert!(matches!(err.failure, WriteFailure::Changed(_)), "{err}");
        let err = ws.write(&write("c.py", "y\n"), None).expect_err("unread");
        assert!(matches!(err.failure, WriteFailure::NotRead), "{err}");
        let binary = Source::Unusable("binary file".into());
        let err = ws.write(&write("d.py", "y\n"), Some(&binary)).expect_err("unusable");
        assert!(matches!(err.failure, WriteFailure::NotEditable(_)), "{err}");
        assert_eq!(names_in(dir.path()), ["a.py", "b.py"]);
    }

    #[test]
    fn unsafe_paths_are_never_written() {
        let outside = TempDir::new().expect("outside");
        let (dir, ws) = project(&[("a.py", b"")]);
        symlink(outside.path(), dir.path().join("lib")).expect("symlink");
        for path in ["lib/new.py", "../x.py", "/tmp/x.py", ".git/config"] {
            let err = ws.write(&write(path, "x\n"), Some(&Source::Missing)).expect_err(path);
            assert!(matches!(err.failure, WriteFailure::Unsafe(_)), "{err}");
        }
        assert!(names_in(outside.path()).is_empty());
        assert!(!dir.path().join(".git").exists());
    }

    #[test]
    fn a_failed_rename_leaves_the_target_and_no_temporary_file() {
        let (dir, _ws) = project(&[("taken/inner.txt", b"keep\n")]);
        let target = dir.path().join("taken");
        let resolved = Resolved { lexical: target.clone(), real: target.clone() };
        for read in [Source::Missing, Source::Text("keep\n".into())] {
            let err = atomic_write(&resolved, b"data", Some(&read)).expect_err("a folder is there");
            assert!(matches!(err, WriteFailure::Io { .. } | WriteFailure::Changed(_)), "{err}");
        }
        assert_eq!(names_in(dir.path()), ["taken"]);
        assert_eq!(fs::read_to_string(target.join("inner.txt")).expect("read"), "keep\n");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_write_landing_between_the_recheck_and_the_swap_is_given_its_place_back() {
        // As if another program wrote `theirs` just after the last re-check.
        let (dir, _ws) = project(&[("a.txt", b"theirs\n"), ("new.tmp", b"ours\n")]);
        let (temp, target) = (dir.path().join("new.tmp"), dir.path().join("a.txt"));
        let read = Source::Text("what redline read\n".into());
        let err = replace_checked(&temp, &target, b"ours\n", Some(&read)).expect_err("refused");
        assert!(matches!(err, WriteFailure::Changed(_)), "{err}");
        assert_eq!(fs::read_to_string(&target).expect("read"), "theirs\n");
        assert_eq!(fs::read_to_string(&temp).expect("read"), "ours\n");
        // And a file created meanwhile is never replaced by a new one.
        let err = replace_checked(&temp, &target, b"ours\n", Some(&Source::Missing))
            .expect_err("refused");
        assert!(matches!(err, WriteFailure::Changed("it was created")), "{err}");
        assert_eq!(fs::read_to_string(&target).expect("read"), "theirs\n");
        // When nothing came in between, the swap is the write.
        let read = Source::Text("theirs\n".into());
        replace_checked(&temp, &target, b"ours\n", Some(&read)).expect("written");
        assert_eq!(fs::read_to_string(&target).expect("read"), "ours\n");
    }

    #[test]
    fn create_folders_reports_what_it_made_outermost_first() {
        // What a failed write removes again.
        let (dir, _ws) = project(&[("a/keep.txt", b"")]);
        let made = create_folders(&dir.path().join("a/b/c")).expect("create");
        assert_eq!(made, [dir.path().join("a/b"), dir.path().join("a/b/c")]);
        assert!(create_folders(&dir.path().join("a/b/c")).expect("again").is_empty());
    }

    #[test]
    fn a_read_only_folder_fails_cleanly() {
        let (dir, ws) = project(&[("ro/a.py", b"old\n")]);
        let folder = dir.path().join("ro");
        fs::set_permissions(&folder, fs::Permissions::from_mode(0o555)).expect("chmod");
        let src = ws.read_source("ro/a.py");
        let result = ws.write(&write("ro/a.py", "new\n"), Some(&src));
        fs::set_permissions(&folder, fs::Permissions::from_mode(0o755)).expect("chmod");
        // Root ignores folder permissions; then the write simply succeeds.
        if let Err(err) = result {
            assert!(err.is_io(), "{err}");
            assert_eq!(fs::read_to_string(folder.join("a.py")).expect("read"), "old\n");
            assert_eq!(names_in(&folder), ["a.py"]);
        }
    }
}
