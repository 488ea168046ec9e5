//! What became of each edit: [`EditReport`] (also `redline apply --json`'s schema), its
//! [`Status`], and the [`Outcome`] of executing a plan (the reports and the writes).
//!
//! Not for: deciding an edit's fate (`execute`), naming how it was placed (`placement`), or
//! printing reports (`cli`).

use serde::Serialize;

use crate::core::edit::Format;
use crate::core::file::FileWrite;
use crate::core::placement::{Placement, Strategy};

/// The outcome of one edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Located and verified against the file's text: what to write is known, nothing is
    /// written yet. Every report the core makes says this or `Refused`; only the one who
    /// carries out the writes (`redline apply`) may say `Applied`. `apply --json` has always
    /// named it `applied` (under `--dry-run` too, where `dry_run` says nothing was written).
    #[serde(rename = "applied")]
    Placed,
    /// Placed and written to disk (or nothing needed writing: already applied).
    Applied,
    Refused,
}

impl Status {
    /// Placed, whether written yet or not: not refused.
    pub fn is_placed(self) -> bool {
        matches!(self, Status::Placed | Status::Applied)
    }
}

/// One edit's report line (also `redline apply --json`'s schema).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EditReport {
    /// The resolved project-relative path, or the path as written when it could not be resolved.
    pub path: String,
    pub format: Format,
    pub status: Status,
    /// How the edit was placed (`None` when refused).
    pub strategy: Option<Strategy>,
    /// 0..1: how closely the old text matched the file.
    pub similarity: Option<f64>,
    /// 1-based inclusive line range of the old text in the file as it was when located (for a
    /// refused hunk: of the closest text).
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

impl EditReport {
    /// How the edit was placed, when it was.
    pub fn placement(&self) -> Option<Placement> {
        self.strategy.filter(|_| self.status.is_placed()).map(|strategy| Placement {
            strategy,
            lines: self.lines,
            similarity: self.similarity,
        })
    }

    /// Placed because the file already holds the edit: nothing to write.
    pub fn already_applied(&self) -> bool {
        self.status.is_placed() && self.strategy == Some(Strategy::AlreadyApplied)
    }
}

/// Everything [`crate::core::execute::run`] decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub reports: Vec<EditReport>,
    /// At most one write per path, in the order the paths were first edited.
    pub writes: Vec<FileWrite>,
}

impl Outcome {
    /// Every edit could be placed (nothing is written yet: the writes are for the shell).
    pub fn all_placed(&self) -> bool {
        self.reports.iter().all(|r| r.status == Status::Placed)
    }
}
