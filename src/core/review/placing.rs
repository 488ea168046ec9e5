//! Placing hunks in their file's current text: each hunk's report, preview and anchor.
//!
//! The files last placed in are kept parsed and indexed ([`PreparedFiles`], one
//! [`PreparedFile`] per file version, dropped when the review takes in new content), so a
//! stream of hunks in one large file costs each hunk O(its lines), not O(the file): the hunk
//! is applied to a window of the file, and its preview is diffed in that window.
//!
//! Not for: deciding a hunk's state (`core::review`), locating (`core::locate`).

use std::cell::RefCell;
use std::collections::HashMap;

use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::{Preview, Review, ReviewHunk};
use crate::core::edit::{Change, Edit};
use crate::core::execute::{After, Placed, PreparedFile};
use crate::core::plan::{EditReport, Source, Status};

/// How many files are kept prepared: a reply's hunks come file by file, and a prepared file
/// takes a few times its size in memory.
const KEPT: usize = 8;

/// Unchanged lines diffed on each side of a hunk's window, so the preview's region comes out
/// as a diff of the whole file would give it (a diff may slide an insertion along identical
/// neighbouring lines).
const MARGIN: usize = 32;

/// The files last placed in, each as its current version, parsed and indexed.
#[derive(Default)]
pub(super) struct PreparedFiles(RefCell<HashMap<String, PreparedFile>>);

/// A cache: a copy of the review starts without it.
impl Clone for PreparedFiles {
    fn clone(&self) -> Self {
        PreparedFiles::default()
    }
}

impl std::fmt::Debug for PreparedFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PreparedFiles({} files)", self.0.borrow().len())
    }
}

impl Review {
    /// Take in a file's content: any prepared form of its previous version is dropped.
    pub(super) fn set_file(&mut self, path: &str, source: Source) -> Option<Source> {
        self.prepared.0.get_mut().remove(path);
        self.files.insert(path.to_string(), source)
    }

    /// Run `f` on the prepared current version of `path`, preparing it first if needed.
    fn with_prepared<T>(&self, path: &str, f: impl FnOnce(&PreparedFile, &Source) -> T) -> T {
        let missing = Source::Missing;
        let source = self.files.get(path).unwrap_or(&missing);
        let mut files = self.prepared.0.borrow_mut();
        if !files.contains_key(path) {
            if files.len() >= KEPT {
                files.clear();
            }
            files.insert(path.to_string(), PreparedFile::new(source));
        }
        f(&files[path], source)
    }

    /// Place a hunk against its file's current text: its report, preview and anchor.
    pub(super) fn place(&self, hunk: &mut ReviewHunk) {
        let (report, preview, anchor) = self.with_prepared(&hunk.path, |file, source| {
            let (report, placed) = file.place(&hunk.edit, &hunk.path);
            let (preview, anchor) = match (file.lines(), placed) {
                (Some(lines), Some(Placed::Lines { start, end, lines: new })) => (
                    window_preview(lines, start, end, &new),
                    anchor_of(&hunk.edit, &report, source, lines),
                ),
                (_, placed) => {
                    let old = source_lines(source);
                    (
                        whole_preview(source, &old, placed),
                        anchor_of(&hunk.edit, &report, source, &old),
                    )
                }
            };
            (report, preview, anchor)
        });
        hunk.report = report;
        hunk.preview = preview;
        hunk.anchor = anchor;
    }

    /// Place the hunks at these indices, all of file `path`, against its current text: their
    /// reports and previews, as [`Review::place`] gives them.
    pub(super) fn place_all(&self, path: &str, indices: &[usize]) -> Vec<(EditReport, Preview)> {
        self.with_prepared(path, |file, source| {
            let mut old: Option<Vec<&str>> = None;
            indices
                .iter()
                .map(|&i| {
                    let (report, placed) = file.place(&self.hunks[i].edit, path);
                    let preview = match (file.lines(), placed) {
                        (Some(lines), Some(Placed::Lines { start, end, lines: new })) => {
                            window_preview(lines, start, end, &new)
                        }
                        (_, placed) => whole_preview(
                            source,
                            old.get_or_insert_with(|| source_lines(source)),
                            placed,
                        ),
                    };
                    (report, preview)
                })
                .collect()
        })
    }
}

/// The preview of a hunk that turns the file's lines `start..end` into `new`, diffed in that
/// window and [`MARGIN`] lines around it.
fn window_preview(old: &[String], start: usize, end: usize, new: &[String]) -> Preview {
    let lo = start.saturating_sub(MARGIN);
    let hi = (end + MARGIN).min(old.len());
    let before: Vec<&str> = old[lo..hi].iter().map(String::as_str).collect();
    let after: Vec<&str> =
        old[lo..start].iter().chain(new).chain(&old[end..hi]).map(String::as_str).collect();
    let mut p = preview(&before, &after);
    if p != Preview::default() {
        p.start += lo;
    }
    p
}

/// The preview of a hunk placed as a whole file (or not placed).
fn whole_preview(source: &Source, old: &[&str], placed: Option<Placed>) -> Preview {
    match placed {
        Some(Placed::Lines { start, end, lines }) => {
            let new: Vec<&str> = old[..start]
                .iter()
                .copied()
                .chain(lines.iter().map(|l| l.as_str()))
                .chain(old[end..].iter().copied())
                .collect();
            preview(old, &new)
        }
        Some(Placed::File(after)) => preview_of(source, old, Some(after)),
        None => preview_of(source, old, None),
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
    if report.status != Status::Applied {
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

/// A file's lines as the preview counts them.
pub(super) fn source_lines(source: &Source) -> Vec<&str> {
    match source {
        Source::Text(t) => t.lines().collect(),
        Source::Missing | Source::Unusable(_) => Vec::new(),
    }
}

/// What a placed hunk would change in `source` (whose lines are `old`), given the file's state
/// after it.
fn preview_of(source: &Source, old: &[&str], after: Option<After>) -> Preview {
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
