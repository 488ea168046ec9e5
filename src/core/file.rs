//! A file as the core sees it: its content as the shell found it ([`Source`]) and a write the
//! shell must carry out ([`FileWrite`]). Shared by every step from executing a plan to the
//! review and the journal.
//!
//! Not for: reading or writing files (`shell::workspace`), or deciding what to write
//! (`execute`, `review`).

/// A file's content as the shell found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The file exists and is UTF-8 text (a BOM, if any, included).
    Text(String),
    /// No such file.
    Missing,
    /// The file cannot be edited: binary, not UTF-8, unreadable, outside the project through a
    /// symlink. The string says why, for the report.
    Unusable(String),
}

/// A write the shell must carry out, atomically.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileWrite {
    /// Create or replace the file with this text.
    Write { path: String, text: String },
    /// Delete the file.
    Delete { path: String },
}

impl FileWrite {
    pub fn path(&self) -> &str {
        match self {
            FileWrite::Write { path, .. } | FileWrite::Delete { path } => path,
        }
    }
}
