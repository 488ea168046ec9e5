//! What became of each edit: [`EditReport`] (also `redline apply --json`'s schema), its
//! [`Status`], and the [`Outcome`] of executing a plan (the reports and the writes).
//!
//! Not for: deciding an edit's fate (`execute`), or printing reports (`cli`).

use serde::Serialize;

use crate::core::edit::Format;
use crate::core::file::FileWrite;

/// The outcome of one edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Applied,
    Refused,
}

/// One edit's report line (also `redline apply --json`'s schema).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EditReport {
    /// The resolved project-relative path, or the path as written when it could not be resolved.
    pub path: String,
    pub format: Format,
    pub status: Status,
    /// How the edit was located (`exact`, `whitespace`, `indentation`, `fuzzy`, `elision`,
    /// `create`, `delete`, `whole`, `whole-merge`, ...).
    pub strategy: Option<String>,
    /// 0..1: how closely the old text matched the file.
    pub similarity: Option<f64>,
    /// 1-based inclusive line range of the old text in the file as it was when located.
    pub lines: Option<(usize, usize)>,
    /// Why it was refused (or a note on how it was applied).
    pub reason: Option<String>,
    /// 1-based line range of the reply the edit came from.
    pub reply_lines: (usize, usize),
    /// For a refused hunk: the old text it looked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub searched: Option<String>,
    /// For a refused hunk: the closest text found in the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closest: Option<crate::core::locate::Closest>,
    /// For a hunk refused as ambiguous: the places it fits equally well, in file order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<crate::core::locate::Candidate>,
}

/// Everything [`crate::core::execute::run`] decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub reports: Vec<EditReport>,
    /// At most one write per path, in the order the paths were first edited.
    pub writes: Vec<FileWrite>,
}

impl Outcome {
    pub fn all_applied(&self) -> bool {
        self.reports.iter().all(|r| r.status == Status::Applied)
    }
}
