//! Resolving the paths a reply names against the project's files.
//!
//! A path is taken as written when the project has it; otherwise, in order: without a stray
//! `a/`/`b/` diff prefix; as the tail of exactly one project path (`models.py` for
//! `src/requests/models.py`); by its file name when its folders do not exist (`path/to/x.py`);
//! and, for edits whose old text must then be found in the file anyway, by a close spelling
//! (`file1_py`). Unsafe paths are refused before anything is read. A file named only in prose,
//! in a reply that also has diffs or SEARCH/REPLACE blocks, is an example, not an edit.

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::core::edit::{Change, Edit, Format, PathSource};
use crate::core::locate::lines::ratio;
use crate::core::parse::{Event, ParseOptions, parse_reply};
use crate::core::paths::{looks_like_path, normalize_relative, unsafe_reason};
use crate::core::plan::{FormatChoice, Plan, PlanItem};

pub(crate) fn plan_reply(reply: &str, choice: FormatChoice, project_files: &[String]) -> Plan {
    let only = match choice {
        FormatChoice::Auto => None,
        FormatChoice::Only(f) => Some(f),
    };
    let events = parse_reply(reply, ParseOptions { only, known_paths: project_files.to_vec() });
    let has_hunks =
        events.iter().any(|e| matches!(e, Event::Edit(ed) if ed.format != Format::Whole));
    let project = Project::new(project_files);
    let mut items = Vec::new();
    for event in events {
        match event {
            Event::Problem(p) => items.push(PlanItem::Problem(p)),
            Event::Edit(edit) => {
                let weak = edit.path_source == PathSource::Prose;
                if weak && edit.format == Format::Whole && has_hunks {
                    continue;
                }
                match project.resolve(&edit) {
                    Ok(path) => items.push(PlanItem::Edit { edit, path }),
                    Err(_) if weak => {}
                    Err(reason) => items.push(PlanItem::Refused { edit, reason }),
                }
            }
        }
    }
    Plan { items, mentions: prose_names(reply) }
}

/// The code names (identifiers, `a.b`, `A::b` and their parts) the reply's prose mentions in
/// backticks, outside fenced blocks.
pub fn prose_names(reply: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut fenced = false;
    for line in reply.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for (i, piece) in line.split('`').enumerate() {
            if i % 2 == 0 {
                continue;
            }
            let word = piece.trim().trim_end_matches("()");
            if word.is_empty() || word.contains(['/', ' ']) {
                continue;
            }
            for part in word.split(['.', ':']).filter(|p| !p.is_empty()) {
                if part.chars().all(|c| c.is_alphanumeric() || c == '_')
                    && !names.iter().any(|n| n == part)
                {
                    names.push(part.to_string());
                }
            }
        }
    }
    names
}

/// The project's files, indexed for resolution: built once (for a review, for a reply), then
/// kept up to date one file at a time ([`Project::insert`]), so resolving a path costs
/// O(path + log files), never a pass over the project.
#[derive(Debug, Clone, Default)]
pub struct Project {
    /// Sorted, so a list of candidates and the close-spelling ranking come out the same on every
    /// run.
    files: BTreeSet<String>,
    dirs: HashSet<String>,
    /// For each tail of a path after one of its `/` (`b/c.py` and `c.py` for `a/b/c.py`), the
    /// files that end with `/` and that tail, sorted.
    tails: HashMap<String, Vec<String>>,
    by_name: HashMap<String, Vec<String>>,
}

impl Project {
    pub fn new(files: &[String]) -> Self {
        let mut project = Project::default();
        for f in files {
            project.insert(f);
        }
        project
    }

    /// Take in one more project file (created since the index was built); a known one is left
    /// as it is. Costs O(length of the path × its depth).
    pub fn insert(&mut self, file: &str) {
        if !self.files.insert(file.to_string()) {
            return;
        }
        let mut d = file;
        while let Some(i) = d.rfind('/') {
            d = &d[..i];
            self.dirs.insert(d.to_string());
        }
        for (i, _) in file.match_indices('/') {
            let list = self.tails.entry(file[i + 1..].to_string()).or_default();
            let at = list.binary_search_by(|f| f.as_str().cmp(file)).unwrap_or_else(|e| e);
            list.insert(at, file.to_string());
        }
        self.by_name.entry(base(file).to_string()).or_default().push(file.to_string());
    }

    /// Whether the project has this file.
    pub fn contains(&self, file: &str) -> bool {
        self.files.contains(file)
    }

    pub fn resolve(&self, edit: &Edit) -> Result<String, String> {
        let written = normalize_relative(&edit.path);
        if self.files.contains(&written) {
            return Ok(written);
        }
        if let Some(reason) = unsafe_reason(&written) {
            return Err(reason);
        }
        let existing_only = matches!(edit.change, Change::Modify { .. } | Change::Delete);
        for prefix in ["a/", "b/"] {
            if let Some(rest) = written.strip_prefix(prefix)
                && self.files.contains(rest)
                && edit.path_source == PathSource::DiffHeader
            {
                return Ok(rest.to_string());
            }
        }
        // Creating a file the project does not have: take the path as written.
        if matches!(edit.change, Change::Create { .. }) {
            return Ok(written);
        }
        let tails: &[String] = self.tails.get(written.as_str()).map_or(&[], Vec::as_slice);
        if tails.len() == 1 {
            return Ok(tails[0].to_string());
        }
        let parent_exists = written.rfind('/').is_none_or(|i| self.dirs.contains(&written[..i]));
        if tails.is_empty()
            && !parent_exists
            && let Some(found) = self.by_name.get(base(&written))
            && found.len() == 1
        {
            return Ok(found[0].to_string());
        }
        if tails.len() > 1 {
            return Err(format!(
                "{written}: several project files end with this path ({}); write the full path",
                tails.iter().take(5).map(|s| s.to_string()).collect::<Vec<_>>().join(", ")
            ));
        }
        if !existing_only {
            return if looks_like_path(&written) || edit.path_source != PathSource::Prose {
                Ok(written)
            } else {
                Err(format!("{written}: not a file of the project"))
            };
        }
        if matches!(edit.change, Change::Modify { .. })
            && let Some(close) = self.close_spelling(&written)
        {
            return Ok(close);
        }
        Err(format!("{written}: no such file in the project"))
    }

    /// The one project path spelled closely like `written` (at least 80% alike, clearly best).
    fn close_spelling(&self, written: &str) -> Option<String> {
        let mut scored: Vec<(f64, &str)> = self
            .files
            .iter()
            .map(|f| {
                let full = ratio(f, written);
                let name = if written.contains('/') { 0.0 } else { ratio(base(f), written) };
                (full.max(name), f.as_str())
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        match scored.as_slice() {
            [(s, f), rest @ ..] if *s >= 0.8 && rest.first().is_none_or(|(t, _)| s - t >= 0.05) => {
                Some(f.to_string())
            }
            _ => None,
        }
    }
}

fn base(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::edit::Hunk;

    fn edit(path: &str, change: Change, source: PathSource) -> Edit {
        Edit {
            path: path.into(),
            path_source: source,
            format: Format::SearchReplace,
            change,
            reply_lines: (1, 1),
        }
    }

    fn modify() -> Change {
        Change::Modify { hunk: Hunk { lines: vec![], old_start_hint: None, marked: false } }
    }

    #[test]
    fn resolution_order() {
        let files: Vec<String> =
            ["src/app.py", "src/util.py", "tests/test_app.py", "README.md", "file1.py", "file2.py"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        let p = Project::new(&files);
        let r = |path: &str, change: Change| p.resolve(&edit(path, change, PathSource::PathLine));
        assert_eq!(r("./src/app.py", modify()).unwrap(), "src/app.py");
        assert_eq!(r("util.py", modify()).unwrap(), "src/util.py");
        assert_eq!(r("path/to/README.md", modify()).unwrap(), "README.md");
        assert_eq!(r("file1_py", modify()).unwrap(), "file1.py");
        assert!(r("../etc/passwd", modify()).is_err());
        assert!(r(".git/config", Change::Create { content: "x".into() }).is_err());
        assert!(r("src/nothing.py", modify()).is_err());
        assert_eq!(r("src/new.py", Change::Replace { content: "x".into() }).unwrap(), "src/new.py");
        assert_eq!(
            p.resolve(&edit("b/src/app.py", modify(), PathSource::DiffHeader)).unwrap(),
            "src/app.py"
        );
    }
}
