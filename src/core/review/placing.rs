//! Placing hunks in their file's current version: each version is prepared once (parsed,
//! indexed, its indentation read; [`PreparedFile`]) and kept until the file's content changes,
//! so a new hunk costs O(its lines), not O(its file): a hunk located in one piece is applied to
//! a window of the file and its preview diffed in that window only.
//!
//! Not for: deciding what a placement means for a hunk's state (`review`, `writes`), locating
//! and applying (`core::execute`).

use std::rc::Rc;

use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::{HunkId, HunkState, Preview, Review, ReviewHunk};
use crate::core::edit::{Change, Edit, Format};
use crate::core::execute::{After, Placed, PreparedFile};
use crate::core::file::Source;
use crate::core::report::{EditReport, Status};

const MISSING: &Source = &Source::Missing;

impl Review {
    /// Store a file's content (what it held before): the prepared form of its previous version
    /// is dropped. Every change of `files` goes through here, so no hunk is ever placed in a
    /// stale version.
    pub(super) fn store_file(&mut self, path: &str, source: Source) -> Option<Source> {
        self.prepared.remove(path);
        self.files.insert(path.to_string(), source)
    }

    /// The file's current version, prepared (once per version).
    fn prepared(&mut self, path: &str) -> Rc<PreparedFile> {
        if let Some(p) = self.prepared.get(path) {
            return p.clone();
        }
        let p = Rc::new(PreparedFile::new(self.files.get(path).unwrap_or(MISSING)));
        self.prepared.insert(path.to_string(), p.clone());
        p
    }

    /// A hunk placed against its file: pending, or failed when it cannot be placed.
    pub(super) fn new_hunk(&mut self, id: HunkId, path: String, edit: Edit) -> ReviewHunk {
        let mut hunk = ReviewHunk {
            id,
            path,
            edit,
            state: HunkState::Pending,
            report: empty_report(),
            preview: Preview::default(),
            region: None,
            origin: id,
            disk: None,
            anchor: None,
        };
        self.place(&mut hunk);
        if hunk.report.status == Status::Refused {
            hunk.state = HunkState::Failed;
        }
        hunk
    }

    /// Place a hunk against its file's current text: its report, preview and anchor.
    pub(super) fn place(&mut self, hunk: &mut ReviewHunk) {
        let file = self.prepared(&hunk.path);
        let source = self.files.get(&hunk.path).unwrap_or(MISSING);
        let (report, placed) = file.place(&hunk.edit, &hunk.path);
        hunk.preview = preview_placed(&file, source, placed);
        hunk.anchor = match file.lines() {
            Some(lines) => anchor_of(&hunk.edit, &report, source, lines),
            None => anchor_of(&hunk.edit, &report, source, &source_lines(source)),
        };
        hunk.report = report;
    }

    /// Place the hunks at these indices, all of file `path`, against its current text: their
    /// reports and previews, as [`Review::place`] gives them.
    pub(super) fn place_all(
        &mut self,
        path: &str,
        indices: &[usize],
    ) -> Vec<(EditReport, Preview)> {
        let file = self.prepared(path);
        let source = self.files.get(path).unwrap_or(MISSING);
        indices
            .iter()
            .map(|&i| {
                let (report, placed) = file.place(&self.hunks[i].edit, path);
                (report, preview_placed(&file, source, placed))
            })
            .collect()
    }
}

/// What a placed hunk would change in `source` (prepared as `file`). A change to a window of
/// lines is diffed in the window only: the whole file's diff would strip the same unchanged
/// lines around it first, so the region is the same.
fn preview_placed(file: &PreparedFile, source: &Source, placed: Option<Placed>) -> Preview {
    match placed {
        Some(Placed::Lines { start, end, lines }) => {
            let old = file.lines().expect("a window is only given for a file without a BOM");
            let old: Vec<&str> = old[start..end].iter().map(String::as_str).collect();
            let new: Vec<&str> = lines.iter().map(String::as_str).collect();
            let mut p = preview(&old, &new);
            if !(p.old.is_empty() && p.new.is_empty()) {
                p.start += start;
            }
            p
        }
        Some(Placed::File(after)) => preview_of(source, &source_lines(source), Some(after)),
        None => Preview::default(),
    }
}

/// The lines of the file a placed edit matched (its located lines, or the whole file for edits
/// that replace or delete all of it): what must still be there, unchanged, after someone else
/// changes the file. `None` when it is not placed.
pub(super) fn anchor_of<S: AsRef<str>>(
    edit: &Edit,
    report: &EditReport,
    source: &Source,
    lines: &[S],
) -> Option<Vec<String>> {
    if report.status != Status::Placed {
        return None;
    }
    let owned = |l: &[S]| l.iter().map(|s| s.as_ref().to_string()).collect::<Vec<_>>();
    Some(match (source, &edit.change, report.lines) {
        (Source::Text(_), Change::Modify { .. }, Some((a, b))) => {
            let start = a.saturating_sub(1).min(lines.len());
            owned(&lines[start..b.min(lines.len()).max(start)])
        }
        (Source::Text(_), _, _) => owned(lines),
        _ => Vec::new(),
    })
}

pub(super) fn empty_report() -> EditReport {
    EditReport {
        path: String::new(),
        format: Format::Udiff,
        status: Status::Refused,
        strategy: None,
        similarity: None,
        lines: None,
        reason: None,
        reply_lines: (0, 0),
        searched: None,
        closest: None,
        candidates: Vec::new(),
    }
}

/// A file's lines as the preview counts them.
pub(super) fn source_lines(source: &Source) -> Vec<&str> {
    match source {
        Source::Text(t) => t.lines().collect(),
        Source::Missing | Source::Unusable(_) => Vec::new(),
    }
}

/// What a placed hunk would change in `source` (whose lines are `old`), given the file's state
/// after it.
pub(super) fn preview_of(source: &Source, old: &[&str], after: Option<After>) -> Preview {
    match (source, after) {
        (_, None) => Preview::default(),
        (Source::Text(_) | Source::Missing, Some(After::Text(after))) => {
            preview(old, &after.lines().collect::<Vec<_>>())
        }
        (Source::Text(_), Some(After::Deleted)) => Preview {
            start: 0,
            old: old.iter().map(|s| s.to_string()).collect(),
            new: Vec::new(),
            deletes: true,
        },
        _ => Preview::default(),
    }
}

/// The lines that differ between a text's lines and new lines, as one region.
pub(super) fn preview(old: &[&str], new: &[&str]) -> Preview {
    let ops = capture_diff_slices(Algorithm::Myers, old, new);
    let changed: Vec<&DiffOp> =
        ops.iter().filter(|op| !matches!(op, DiffOp::Equal { .. })).collect();
    let (Some(first), Some(last)) = (changed.first(), changed.last()) else {
        return Preview::default();
    };
    let (o1, n1) = (first.old_range().start, first.new_range().start);
    let (o2, n2) = (last.old_range().end, last.new_range().end);
    Preview {
        start: o1,
        old: old[o1..o2].iter().map(|s| s.to_string()).collect(),
        new: new[n1..n2].iter().map(|s| s.to_string()).collect(),
        deletes: false,
    }
}
