//! Shared helpers for the engine tests: run a reply through the pure API (`plan` + `execute`)
//! against an in-memory project and give back the project as the writes left it.

#![allow(dead_code)]

pub mod generate;

use std::collections::BTreeMap;

use redline::core::execute::run as execute;

use redline::core::file::{FileWrite, Source};

use redline::core::plan::{FormatChoice, plan};

use redline::core::report::{EditReport, Outcome, Status};

/// A project after a reply: every file's final text (deleted files are gone), and the reports.
pub struct Run {
    pub files: BTreeMap<String, String>,
    pub outcome: Outcome,
}

impl Run {
    /// The text of a file after the run.
    pub fn text(&self, path: &str) -> &str {
        self.files.get(path).map(String::as_str).unwrap_or_else(|| panic!("{path} is missing"))
    }

    pub fn reports(&self) -> &[EditReport] {
        &self.outcome.reports
    }

    pub fn applied(&self) -> usize {
        self.reports().iter().filter(|r| r.status == Status::Placed).count()
    }

    pub fn refused(&self) -> Vec<&EditReport> {
        self.reports().iter().filter(|r| r.status == Status::Refused).collect()
    }

    /// The single refusal's reason, failing if there is not exactly one refusal.
    pub fn refusal_reason(&self) -> String {
        let refused = self.refused();
        assert_eq!(refused.len(), 1, "expected one refusal, got {:#?}", self.reports());
        refused[0].reason.clone().unwrap_or_default()
    }
}

/// Run `reply` (auto-detected format) against a project of `(path, text)` files.
pub fn run(files: &[(&str, &str)], reply: &str) -> Run {
    run_with(files, reply, FormatChoice::Auto)
}

pub fn run_with(files: &[(&str, &str)], reply: &str, choice: FormatChoice) -> Run {
    let project: Vec<String> = files.iter().map(|(p, _)| p.to_string()).collect();
    let mut contents: BTreeMap<String, String> =
        files.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect();
    let the_plan = plan(reply, choice, &project);
    let sources: BTreeMap<String, Source> = the_plan
        .paths_to_read()
        .into_iter()
        .map(|p| {
            let s = contents.get(&p).map_or(Source::Missing, |t| Source::Text(t.clone()));
            (p, s)
        })
        .collect();
    let outcome = execute(&the_plan, &sources);
    for w in &outcome.writes {
        match w {
            FileWrite::Write { path, text } => {
                contents.insert(path.clone(), text.clone());
            }
            FileWrite::Delete { path } => {
                contents.remove(path);
            }
        }
    }
    Run { files: contents, outcome }
}

/// `text` with the first occurrence of `from` replaced by `to`, failing if `from` is absent.
pub fn edited(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "test setup: {from:?} is not in the file");
    text.replacen(from, to, 1)
}

/// A SEARCH/REPLACE block for `path`, fenced.
pub fn search_replace(path: &str, search: &str, replace: &str) -> String {
    format!("{path}\n```\n<<<<<<< SEARCH\n{search}=======\n{replace}>>>>>>> REPLACE\n```\n")
}

/// A fenced unified diff for `path` with the given hunk body (starting at its `@@` line).
pub fn udiff(path: &str, hunks: &str) -> String {
    format!("```diff\n--- a/{path}\n+++ b/{path}\n{hunks}```\n")
}
