//! Carrying a file's extended attributes (`user.*` tags, POSIX ACLs, SELinux labels, ...) over
//! to the file that replaces it, so that a write changes the text and nothing else.
//!
//! Not for: owner, group and mode (`write::keep_metadata`).

use std::fs::File;

use rustix::fs::{XattrFlags, fgetxattr, flistxattr, fsetxattr};
use rustix::io::Errno;

use super::WriteFailure;

/// Give `to` every extended attribute of `from` (with its value). A file system without
/// extended attributes has none to keep. An attribute that `to` already holds with the same
/// value (a label the folder gave it) is left alone; one that cannot be set refuses the write.
pub(super) fn copy(from: &File, to: &File) -> Result<(), WriteFailure> {
    let names = match list(from) {
        Ok(names) => names,
        Err(Errno::OPNOTSUPP) => return Ok(()),
        Err(e) => {
            return Err(WriteFailure::Io {
                action: "listing extended attributes",
                source: e.into(),
            });
        }
    };
    for name in names {
        let failure = |e: Errno| WriteFailure::Xattr { name: name.clone(), source: e.into() };
        let value = match get(from, &name) {
            Ok(v) => v,
            // Removed meanwhile: nothing to keep.
            Err(Errno::NODATA) => continue,
            Err(e) => return Err(failure(e)),
        };
        if get(to, &name).is_ok_and(|v| v == value) {
            continue;
        }
        fsetxattr(to, name.as_str(), &value, XattrFlags::empty()).map_err(failure)?;
    }
    Ok(())
}

/// The names of a file's extended attributes.
fn list(file: &File) -> Result<Vec<String>, Errno> {
    let mut buf = vec![0u8; 1024];
    loop {
        match flistxattr(file, &mut buf[..]) {
            Ok(n) => {
                return Ok(buf[..n]
                    .split(|b| *b == 0)
                    .filter(|n| !n.is_empty())
                    .map(|n| String::from_utf8_lossy(n).into_owned())
                    .collect());
            }
            Err(Errno::RANGE) if buf.len() < 1 << 20 => buf.resize(buf.len() * 4, 0),
            Err(e) => return Err(e),
        }
    }
}

/// One attribute's value.
fn get(file: &File, name: &str) -> Result<Vec<u8>, Errno> {
    let mut buf = vec![0u8; 256];
    loop {
        match fgetxattr(file, name, &mut buf[..]) {
            Ok(n) => {
                buf.truncate(n);
                return Ok(buf);
            }
            Err(Errno::RANGE) if buf.len() < 1 << 20 => buf.resize(buf.len() * 4, 0),
            Err(e) => return Err(e),
        }
    }
}
