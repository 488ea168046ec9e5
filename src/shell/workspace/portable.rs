//! Reading and writing by path, where there is no `openat`/`renameat2` to lean on (everything
//! but Linux): the same checks, with the gaps the module doc of `super` and README name (a
//! folder swapped for a symlink between the check and the write is followed; the swap itself
//! is a plain rename).
//!
//! Not for: Linux (`at`, `write`).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::{Resolved, Workspace, WriteFailure, check_unchanged, io_failure, tmp};
use crate::core::file::Source;

impl Workspace {
    pub(super) fn read_bytes(&self, resolved: &Resolved) -> io::Result<Vec<u8>> {
        let meta = fs::metadata(&resolved.real)?;
        if meta.is_dir() {
            return Err(io::ErrorKind::IsADirectory.into());
        }
        if !meta.is_file() {
            return Err(io::ErrorKind::InvalidInput.into());
        }
        fs::read(&resolved.real)
    }

    pub(super) fn delete_file(&self, resolved: &Resolved) -> Result<(), WriteFailure> {
        fs::remove_file(&resolved.lexical).map_err(io_failure("deleting"))
    }

    pub(super) fn write_file(
        &self,
        resolved: &Resolved,
        bytes: &[u8],
        read: Option<&Source>,
    ) -> Result<(), WriteFailure> {
        check_unchanged(resolved, read)?;
        let target = resolved.real.as_path();
        let dir = target.parent().unwrap_or(Path::new("."));
        let existing = fs::metadata(target).ok();
        if let Some(meta) = &existing {
            if meta.permissions().readonly() {
                return Err(WriteFailure::ReadOnly);
            }
        }
        let created = if existing.is_none() { create_folders(dir) } else { Vec::new() };
        if self.first_visit(dir) {
            remove_leftovers(dir);
        }
        let temp = dir.join(tmp::fresh_name());
        let result = write_temp(&temp, bytes, existing.as_ref())
            .and_then(|()| check_unchanged(resolved, read))
            .and_then(|()| fs::rename(&temp, target).map_err(io_failure("replacing")));
        if result.is_err() {
            let _ = fs::remove_file(&temp);
            for folder in created.iter().rev() {
                let _ = fs::remove_dir(folder);
            }
        }
        result
    }
}

fn write_temp(
    temp: &Path,
    bytes: &[u8],
    existing: Option<&fs::Metadata>,
) -> Result<(), WriteFailure> {
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(temp)
        .map_err(io_failure("creating a temporary file"))?;
    file.write_all(bytes).map_err(io_failure("writing"))?;
    if let Some(meta) = existing {
        file.set_permissions(meta.permissions()).map_err(io_failure("setting permissions"))?;
    }
    file.sync_all().map_err(io_failure("syncing"))
}

/// Create `dir` and its missing ancestors; returns the folders created, outermost first.
fn create_folders(dir: &Path) -> Vec<PathBuf> {
    let missing: Vec<PathBuf> =
        dir.ancestors().take_while(|a| !a.exists()).map(Path::to_path_buf).collect();
    let _ = fs::create_dir_all(dir);
    missing.into_iter().rev().collect()
}

fn remove_leftovers(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        if entry.file_name().to_str().is_some_and(tmp::is_leftover) {
            let _ = fs::remove_file(entry.path());
        }
    }
}
