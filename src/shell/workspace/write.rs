//! Writing one file on Linux: a temporary file beside the target, given the target's owner,
//! group, mode and extended attributes, synced, re-checked, then swapped into place atomically
//! and checked once more; all of it relative to the folder's descriptor (`at`).
//!
//! The swap is `renameat2(RENAME_EXCHANGE)`: afterwards the temporary name holds the file that
//! was displaced, and that file must be the one that was re-checked (same device and inode) and
//! still hold what was read. A program that writes the file *in place* may have opened it just
//! before the swap and write into it just after, into the displaced file, which is about to be
//! removed. So the displaced file is watched for [`super::SETTLE_WINDOW`] (re-read whenever its
//! size or times change); if another program's text shows up, the swap is undone and the write
//! is reported as [`WriteFailure::Changed`], so the review places the edit again against the
//! new text. A write that comes later than the window through a descriptor opened before the
//! swap cannot be seen by anyone but that program: README's promises say so.
//!
//! A new file is created with `RENAME_NOREPLACE`, so a file that appeared meanwhile is never
//! replaced. Refused outright: a read-only file (no write bit: redline does not change
//! permissions) and a file with several hard links (a replacement would split them, and writing
//! in place would not be atomic). A file whose owner or group cannot be kept is refused too.
//!
//! Not for: deciding whether a path is allowed (`paths`), opening folders (`at`).

use std::fs::File;
use std::io::{self, Write};
use std::os::fd::BorrowedFd;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::{Duration, Instant};

use rustix::fs::{AtFlags, Gid, Mode, OFlags, RenameFlags, Uid, openat, renameat_with, unlinkat};
use rustix::io::Errno;

use super::at::{self, Folder, OpenFailure};
use super::lease::Lease;
use super::{Resolved, Workspace, WriteFailure, expectation, io_failure, tmp};

impl Workspace {
    /// Replace (or create) the file `resolved` names with `bytes`, provided it still holds what
    /// was `read`. Missing folders are created, and removed again if the write fails; the
    /// temporary file is removed on every path.
    pub(super) fn write_file(
        &self,
        resolved: &Resolved,
        bytes: &[u8],
        read: Option<&crate::core::file::Source>,
    ) -> Result<(), WriteFailure> {
        let expected = expectation(read)?;
        let (parts, name) = self.split(&resolved.real)?;
        let folder = Folder::open(&self.root, &parts, expected.is_none())
            .map_err(|e: OpenFailure| WriteFailure::from(e))?;
        if self.first_visit(resolved.real.parent().unwrap_or(Path::new(""))) {
            tmp::remove_leftovers(folder.fd());
        }
        let result = match expected {
            Some(expected) => replace(&folder, name, bytes, expected, self.settle),
            None => create(&folder, name, bytes),
        };
        if result.is_err() {
            folder.remove_created();
        }
        result
    }
}

/// A temporary file in the folder; removed when dropped, unless it was renamed away.
struct Temp<'f> {
    dir: BorrowedFd<'f>,
    name: String,
    file: File,
}

impl<'f> Temp<'f> {
    /// A new file, readable and writable by its owner only until its mode is set (`mode` for
    /// a new file, which the umask narrows, as for any new file).
    fn create(dir: BorrowedFd<'f>, mode: u32) -> Result<Temp<'f>, WriteFailure> {
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let mut attempts = 0;
        loop {
            let name = tmp::fresh_name();
            match openat(dir, name.as_str(), flags, Mode::from_raw_mode(mode)) {
                Ok(fd) => return Ok(Temp { dir, name, file: File::from(fd) }),
                Err(Errno::EXIST) if attempts < 8 => attempts += 1,
                Err(e) => {
                    return Err(WriteFailure::Io {
                        action: "creating a temporary file",
                        source: e.into(),
                    });
                }
            }
        }
    }

    /// Write `bytes` and make them durable.
    fn fill(&mut self, bytes: &[u8]) -> Result<(), WriteFailure> {
        self.file.write_all(bytes).map_err(io_failure("writing"))
    }

    fn sync(&self) -> Result<(), WriteFailure> {
        self.file.sync_all().map_err(io_failure("syncing"))
    }
}

impl Drop for Temp<'_> {
    fn drop(&mut self) {
        // After a successful swap this name holds the displaced file; after a plain rename it
        // names nothing and this fails harmlessly.
        let _ = unlinkat(self.dir, self.name.as_str(), AtFlags::empty());
    }
}

/// A new file: created only if nothing is there yet.
fn create(folder: &Folder, name: &str, bytes: &[u8]) -> Result<(), WriteFailure> {
    if at::exists(folder.fd(), name).map_err(io_failure("checking"))? {
        return Err(WriteFailure::Changed("it was created"));
    }
    let mut temp = Temp::create(folder.fd(), 0o666)?;
    temp.fill(bytes)?;
    temp.sync()?;
    let dir = folder.fd();
    match renameat_with(dir, temp.name.as_str(), dir, name, RenameFlags::NOREPLACE) {
        Ok(()) => {}
        Err(Errno::EXIST) => return Err(WriteFailure::Changed("it was created")),
        // A file system without the flag: the check just made is all there is.
        Err(Errno::INVAL | Errno::NOSYS) => plain_rename(dir, &temp.name, name)?,
        Err(e) => return Err(WriteFailure::Io { action: "creating", source: e.into() }),
    }
    folder.sync();
    Ok(())
}

/// An existing file, which must hold `expected` until it is swapped out.
fn replace(
    folder: &Folder,
    name: &str,
    bytes: &[u8],
    expected: &[u8],
    settle: Duration,
) -> Result<(), WriteFailure> {
    let dir = folder.fd();
    let original = checked_original(dir, name, expected)?;
    let meta = original.metadata().map_err(io_failure("reading the file's metadata"))?;
    refuse_by_policy(&meta)?;
    let mut temp = Temp::create(dir, 0o600)?;
    temp.fill(bytes)?;
    keep_metadata(&original, &meta, &temp.file)?;
    temp.sync()?;
    // Syncing takes time: look again, right before the file takes the target's place.
    let rechecked = checked_original(dir, name, expected)?;
    if identity(&rechecked)? != identity(&original)? {
        return Err(WriteFailure::Changed("it was replaced by another file"));
    }
    // The lease is granted only to the one descriptor this process has open on the file.
    drop(original);
    let mut lease = Lease::take(&rechecked);
    match renameat_with(dir, temp.name.as_str(), dir, name, RenameFlags::EXCHANGE) {
        Ok(()) => {}
        Err(Errno::INVAL | Errno::NOSYS) => {
            plain_rename(dir, &temp.name, name)?;
            folder.sync();
            return Ok(());
        }
        Err(Errno::NOENT) => return Err(WriteFailure::Changed("it was deleted")),
        Err(e) => return Err(WriteFailure::Io { action: "replacing", source: e.into() }),
    }
    // Nobody opened the file from before the swap to now (`lease`): it is checked once, with
    // no window to wait through.
    let settle =
        if lease.take().is_some_and(|lease| lease.unbroken()) { Duration::ZERO } else { settle };
    if displaced_is(dir, &temp.name, &rechecked, expected, settle)? {
        folder.sync();
        return Ok(());
    }
    put_back(dir, &temp.name, name, bytes)?;
    Err(WriteFailure::Changed("another program wrote it while redline replaced it"))
}

/// The file `name`, opened without following a symlink, holding exactly `expected`.
fn checked_original(
    dir: BorrowedFd<'_>,
    name: &str,
    expected: &[u8],
) -> Result<File, WriteFailure> {
    let file = match at::open_file(dir, name) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(WriteFailure::Changed("it was deleted"));
        }
        Err(e) if e.raw_os_error() == Some(Errno::LOOP.raw_os_error()) => {
            return Err(WriteFailure::Changed("a symlink took its place"));
        }
        Err(source) => return Err(WriteFailure::Io { action: "re-reading", source }),
    };
    let meta = file.metadata().map_err(io_failure("re-reading"))?;
    if !meta.is_file() {
        return Err(WriteFailure::Changed("it is no longer a regular file"));
    }
    if meta.len() != expected.len() as u64 {
        return Err(WriteFailure::Changed("its content differs"));
    }
    let now = at::read_all(&file).map_err(io_failure("re-reading"))?;
    if now != expected {
        return Err(WriteFailure::Changed("its content differs"));
    }
    Ok(file)
}

/// What redline declines to replace, whatever it holds.
fn refuse_by_policy(meta: &std::fs::Metadata) -> Result<(), WriteFailure> {
    if meta.mode() & 0o222 == 0 {
        return Err(WriteFailure::ReadOnly);
    }
    if meta.nlink() > 1 {
        return Err(WriteFailure::HardLinks(meta.nlink()));
    }
    Ok(())
}

/// Give the temporary file the original's owner and group (when they differ from what it got),
/// then its mode (after the owner: changing the owner clears set-id bits), then its extended
/// attributes (after the mode: an access ACL is kept as it was).
fn keep_metadata(
    original: &File,
    meta: &std::fs::Metadata,
    temp: &File,
) -> Result<(), WriteFailure> {
    let ours = temp.metadata().map_err(io_failure("reading the new file's metadata"))?;
    if (ours.uid(), ours.gid()) != (meta.uid(), meta.gid()) {
        let (uid, gid) = (Uid::from_raw(meta.uid()), Gid::from_raw(meta.gid()));
        rustix::fs::fchown(temp, Some(uid), Some(gid)).map_err(|e| WriteFailure::Owner {
            uid: meta.uid(),
            gid: meta.gid(),
            source: e.into(),
        })?;
    }
    rustix::fs::fchmod(temp, Mode::from_raw_mode(meta.mode() & 0o7777))
        .map_err(|e| WriteFailure::Io { action: "setting permissions", source: e.into() })?;
    super::xattrs::copy(original, temp)
}

/// Device and inode: which file this is.
fn identity(file: &File) -> Result<(u64, u64), WriteFailure> {
    let meta = file.metadata().map_err(io_failure("re-reading"))?;
    Ok((meta.dev(), meta.ino()))
}

/// After the swap: is the file now at `temp_name` the re-checked original, and does it go on
/// holding `expected` for the whole `settle` window? It is re-read whenever its size or times
/// change, so a write into it by a program that opened it before the swap is seen.
fn displaced_is(
    dir: BorrowedFd<'_>,
    temp_name: &str,
    original: &File,
    expected: &[u8],
    settle: Duration,
) -> Result<bool, WriteFailure> {
    let displaced = rustix::fs::statat(dir, temp_name, AtFlags::SYMLINK_NOFOLLOW).map_err(|e| {
        WriteFailure::Io { action: "re-reading the replaced file", source: e.into() }
    })?;
    if (displaced.st_dev, displaced.st_ino) != identity(original)? {
        return Ok(false);
    }
    let deadline = Instant::now() + settle;
    let mut seen = None;
    loop {
        let meta = original.metadata().map_err(io_failure("re-reading the replaced file"))?;
        let stamp = (meta.len(), meta.mtime(), meta.mtime_nsec(), meta.ctime(), meta.ctime_nsec());
        if seen != Some(stamp) {
            let now = at::read_all(original).map_err(io_failure("re-reading the replaced file"))?;
            if now != expected {
                return Ok(false);
            }
            seen = Some(stamp);
        }
        if Instant::now() >= deadline {
            return Ok(true);
        }
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// Undo the swap: another program's text goes back to `name`. What comes back to the temporary
/// name must be our own text; if that program wrote into it meanwhile (it was at `name` for a
/// moment), its newest text goes back in place instead, and its older one is dropped.
fn put_back(
    dir: BorrowedFd<'_>,
    temp_name: &str,
    name: &str,
    ours: &[u8],
) -> Result<(), WriteFailure> {
    let swap = || {
        renameat_with(dir, temp_name, dir, name, RenameFlags::EXCHANGE)
            .map_err(|e| WriteFailure::Io { action: "restoring the other write", source: e.into() })
    };
    swap()?;
    let returned = at::open_file(dir, temp_name)
        .and_then(|f| at::read_all(&f))
        .map_err(io_failure("re-reading the restored file"))?;
    if returned != ours {
        swap()?;
    }
    Ok(())
}

fn plain_rename(dir: BorrowedFd<'_>, from: &str, to: &str) -> Result<(), WriteFailure> {
    rustix::fs::renameat(dir, from, dir, to)
        .map_err(|e| WriteFailure::Io { action: "replacing", source: e.into() })
}
