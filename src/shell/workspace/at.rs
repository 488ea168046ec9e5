//! Opening folders and files of the project through directory file descriptors (Linux): from a
//! descriptor of the root, one component at a time, never following a symlink (`O_NOFOLLOW`).
//!
//! A path is checked once by `paths` (where do its symlinks lead?) and used here. Between the
//! two, another program may swap a folder for a symlink to somewhere else; a path-based open
//! would follow it. Walking with `openat(…, O_NOFOLLOW | O_DIRECTORY)` makes that open fail
//! instead, and everything later (creating, re-reading, renaming, deleting) is done relative to
//! the descriptor of the folder that was actually opened, so no second lookup by path exists.
//!
//! Not for: deciding whether a path is allowed (`paths`), what to write (`write`).

use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;

use rustix::fs::{AtFlags, CWD, Mode, OFlags, mkdirat, openat, unlinkat};
use rustix::io::Errno;

use super::{PathRefusal, Resolved, Workspace, WriteFailure};

/// A project folder opened component by component, with the descriptors of the folders above
/// it (so that folders created on the way can be removed again).
pub(super) struct Folder {
    /// The root's descriptor first, the folder's last.
    chain: Vec<OwnedFd>,
    /// `names[i]` is the name of `chain[i + 1]` in `chain[i]`.
    names: Vec<String>,
    /// How many of the innermost folders this open created.
    created: usize,
}

/// Why a folder could not be opened.
pub(super) enum OpenFailure {
    /// A component is a symlink or a file now: `at` is the path up to it.
    NotAFolder {
        at: String,
    },
    Io(io::Error),
}

impl From<OpenFailure> for WriteFailure {
    fn from(failure: OpenFailure) -> WriteFailure {
        match failure {
            OpenFailure::NotAFolder { at } => WriteFailure::Unsafe(PathRefusal::NotAFolder { at }),
            OpenFailure::Io(source) => WriteFailure::Io { action: "opening the folder", source },
        }
    }
}

const DIR_FLAGS: OFlags =
    OFlags::RDONLY.union(OFlags::DIRECTORY).union(OFlags::NOFOLLOW).union(OFlags::CLOEXEC);

impl Folder {
    /// Open `root/parts…`; missing folders are created when `create` is set (and reported by
    /// [`Folder::remove_created`] if the write fails).
    pub fn open(root: &Path, parts: &[&str], create: bool) -> Result<Folder, OpenFailure> {
        let root_fd = openat(CWD, root, DIR_FLAGS.difference(OFlags::NOFOLLOW), Mode::empty())
            .map_err(|e| OpenFailure::Io(e.into()))?;
        let mut folder = Folder { chain: vec![root_fd], names: Vec::new(), created: 0 };
        for (i, part) in parts.iter().enumerate() {
            let parent = folder.fd();
            let mut made = false;
            let mut opened = openat(parent, *part, DIR_FLAGS, Mode::empty());
            if create && matches!(opened, Err(Errno::NOENT)) {
                match mkdirat(parent, *part, Mode::from_raw_mode(0o777)) {
                    Ok(()) => made = true,
                    // Another program made it meanwhile: it is opened like any other.
                    Err(Errno::EXIST) => {}
                    Err(e) => {
                        folder.remove_created();
                        return Err(OpenFailure::Io(e.into()));
                    }
                }
                opened = openat(parent, *part, DIR_FLAGS, Mode::empty());
            }
            let failure = match opened {
                Ok(fd) => {
                    folder.chain.push(fd);
                    folder.names.push(part.to_string());
                    folder.created = if made { folder.created + 1 } else { 0 };
                    continue;
                }
                Err(Errno::LOOP | Errno::NOTDIR) => {
                    OpenFailure::NotAFolder { at: parts[..=i].join("/") }
                }
                Err(e) => OpenFailure::Io(e.into()),
            };
            if made {
                let _ = unlinkat(folder.fd(), *part, AtFlags::REMOVEDIR);
            }
            folder.remove_created();
            return Err(failure);
        }
        Ok(folder)
    }

    /// The folder's descriptor.
    pub fn fd(&self) -> BorrowedFd<'_> {
        self.chain.last().map(AsFd::as_fd).unwrap_or_else(|| unreachable!("the root is first"))
    }

    /// Remove the folders this open created, innermost first; only empty ones go.
    pub fn remove_created(&self) {
        let n = self.names.len();
        for i in (n - self.created..n).rev() {
            let _ = unlinkat(&self.chain[i], self.names[i].as_str(), AtFlags::REMOVEDIR);
        }
    }

    /// Make a rename or delete in the folder durable. Best effort: the change has happened.
    pub fn sync(&self) {
        let _ = rustix::fs::fsync(self.fd());
    }
}

/// Open the file `name` in `dir` for reading, never through a symlink, never blocking (a FIFO).
pub(super) fn open_file(dir: BorrowedFd<'_>, name: &str) -> io::Result<File> {
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
    Ok(File::from(openat(dir, name, flags, Mode::empty())?))
}

/// Everything `file` holds, from its start, whatever was read from it before.
pub(super) fn read_all(file: &File) -> io::Result<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let n = file.read_at(&mut chunk, bytes.len() as u64)?;
        if n == 0 {
            return Ok(bytes);
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
}

impl Workspace {
    /// A project file's bytes, opened through the folder descriptors. Folders give
    /// `IsADirectory`, other non-files `InvalidInput`.
    pub(super) fn read_bytes(&self, resolved: &Resolved) -> io::Result<Vec<u8>> {
        let (parts, name) = self.split(&resolved.real).map_err(as_io)?;
        let folder = match Folder::open(&self.root, &parts, false) {
            Ok(f) => f,
            Err(OpenFailure::Io(e)) => return Err(e),
            Err(OpenFailure::NotAFolder { at }) => {
                return Err(io::Error::other(PathRefusal::NotAFolder { at }));
            }
        };
        let mut file = open_file(folder.fd(), name).map_err(symlink_is_refused)?;
        let meta = file.metadata()?;
        if meta.is_dir() {
            return Err(io::ErrorKind::IsADirectory.into());
        }
        if !meta.is_file() {
            return Err(io::ErrorKind::InvalidInput.into());
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        file.read_to_end(&mut bytes)?;
        Ok(bytes)
    }

    /// Remove the last component as written (a symlink itself, not what it points to) from its
    /// folder, opened through descriptors.
    pub(super) fn delete_file(&self, resolved: &Resolved) -> Result<(), WriteFailure> {
        let Some(name) = resolved.lexical.file_name().and_then(|n| n.to_str()) else {
            return Err(WriteFailure::Io {
                action: "deleting",
                source: io::Error::new(io::ErrorKind::InvalidInput, "no file name"),
            });
        };
        let rel = resolved.holder.strip_prefix(&self.root).unwrap_or(Path::new(""));
        let parts: Vec<&str> = rel.iter().filter_map(|c| c.to_str()).collect();
        let folder = Folder::open(&self.root, &parts, false)?;
        unlinkat(folder.fd(), name, AtFlags::empty())
            .map_err(|e| WriteFailure::Io { action: "deleting", source: e.into() })?;
        folder.sync();
        Ok(())
    }
}

/// A symlink where a file was checked to be: it is not followed, and says so.
fn symlink_is_refused(e: io::Error) -> io::Error {
    if e.raw_os_error() == Some(Errno::LOOP.raw_os_error()) {
        io::Error::other("a symlink took its place after it was checked")
    } else {
        e
    }
}

fn as_io(failure: WriteFailure) -> io::Error {
    match failure {
        WriteFailure::Io { source, .. } => source,
        other => io::Error::other(other.to_string()),
    }
}

/// Whether a file system entry exists at `name` in `dir` (a dangling symlink counts).
pub(super) fn exists(dir: BorrowedFd<'_>, name: &str) -> io::Result<bool> {
    match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(_) => Ok(true),
        Err(Errno::NOENT) => Ok(false),
        Err(e) => Err(e.into()),
    }
}
