//! Plans and carries out a complete reply against a project snapshot: the pure heart of
//! `redline apply`.
//!
//! The shell calls [`plan`] with the reply and the project's file list, reads the files the plan
//! names ([`Plan::paths_to_read`]) into [`Source`]s, calls [`execute`], and writes what the
//! [`Outcome`] says. Nothing here touches the disk.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::core::edit::{Edit, Format, Problem};

/// Which parsers to run on a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FormatChoice {
    #[default]
    Auto,
    Only(Format),
}

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

/// Everything [`execute`] decided.
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

/// A parsed reply with every edit's path resolved (or refused) against the project.
#[derive(Debug, Clone)]
pub struct Plan {
    pub(crate) items: Vec<PlanItem>,
    /// Names the reply's prose mentions in backticks (`extra_indent`, `Error::msg`): what the
    /// model says it changes.
    pub(crate) mentions: Vec<String>,
}

#[derive(Debug, Clone)]
pub(crate) enum PlanItem {
    /// An edit whose path resolved to this project-relative path; `by` says how (a fallback
    /// guess must be confirmed by the edit's own text).
    Edit { edit: Edit, path: String, by: crate::core::resolve::PathMatch },
    /// An edit refused before reading anything (unsafe or unresolvable path).
    Refused { edit: Edit, reason: String },
    /// A block the parser could not read.
    Problem(Problem),
}

impl Plan {
    /// The project-relative paths the shell must read (each once, in first-use order).
    pub fn paths_to_read(&self) -> Vec<String> {
        let mut seen = Vec::<String>::new();
        for item in &self.items {
            if let PlanItem::Edit { path, .. } = item
                && !seen.contains(path)
            {
                seen.push(path.clone());
            }
        }
        seen
    }

    /// Each resolved edit's project path and how it was matched, in reply order: a fallback
    /// ([`crate::core::resolve::PathMatch::is_fallback`]) is a guess its own text must confirm.
    pub fn path_matches(&self) -> Vec<(&str, crate::core::resolve::PathMatch)> {
        self.items
            .iter()
            .filter_map(|item| match item {
                PlanItem::Edit { path, by, .. } => Some((path.as_str(), *by)),
                _ => None,
            })
            .collect()
    }

    /// How many edits and problems the reply held.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// Parse `reply` and resolve every edit's path against `project_files` (project-relative,
/// `/`-separated).
pub fn plan(reply: &str, choice: FormatChoice, project_files: &[String]) -> Plan {
    crate::core::resolve::plan_reply(reply, choice, project_files, &[])
}

/// [`plan`] for a project whose root has these absolute forms (as given, canonical): an absolute
/// path the reply names under the root is taken as that project path (any other stays refused).
pub fn plan_rooted(
    reply: &str,
    choice: FormatChoice,
    project_files: &[String],
    roots: &[String],
) -> Plan {
    crate::core::resolve::plan_reply(reply, choice, project_files, roots)
}

/// Apply the plan's edits, in reply order, to the given file contents.
pub fn execute(plan: &Plan, sources: &BTreeMap<String, Source>) -> Outcome {
    crate::core::execute::run(plan, sources)
}
