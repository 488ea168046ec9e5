//! Accepting hunks. Each is placed in its file as the hunks accepted with it leave it, and the
//! hunks of one file accepted together are written in one write: `A` over 5,000 hunks of a
//! file writes it once, where a write per hunk placed every other hunk again after each.
//! Every hunk keeps its own decision (what the file held before it and after it), so undo
//! still takes them back one by one.
//!
//! Hunks placed exactly in windows of lines apart from each other are put in at once, each
//! where the review shows it (placed in the file as it is, windows put in from the prepared
//! version): accepting n of them costs O(their lines) and one pass over the file, not n
//! placings in n texts of it. Any other set is placed one after the other.
//!
//! Not for: the outcome of a write (`writes`), placing open hunks (`review`).

use crate::core::hash::{HashMap, HashSet};

use std::sync::Arc;

use super::written::{Window, Windows};
use super::{Effect, HunkId, HunkState, Review, Wrote};
use crate::core::execute::{After, Placed, apply_single};
use crate::core::file::Source;
use crate::core::report::{EditReport, Status};
use crate::core::text::TextFile;

/// What watch mode writes instead of a hunk's result (the file without the comment that asked
/// for the edit), given the hunk and that result; `None` keeps the result.
pub type Tidy<'a> = dyn Fn(HunkId, &str) -> Option<String> + 'a;

impl Review {
    /// Accept a hunk: the write to carry out, or `None` when it cannot be placed now (its state
    /// then says why).
    pub fn accept(&mut self, id: HunkId) -> Option<Effect> {
        self.accept_together(&[id], None)
    }

    /// Accept open hunks of one file together, in this order, each placed in what the ones
    /// before it made of the file: one write for all of them (`None`: nothing to write, each
    /// hunk's state says why). Hunks of another file than the first's, or not open, are left
    /// alone. `tidy` may return the text to write instead of a hunk's result (watch mode takes
    /// the comment that asked for the edit out); undo restores the file from before both.
    pub fn accept_together(&mut self, ids: &[HunkId], tidy: Option<&Tidy>) -> Option<Effect> {
        if tidy.is_none()
            && let Some(effect) = self.accept_apart(ids)
        {
            return Some(effect);
        }
        let tidy = |id: HunkId, text: &str| tidy.and_then(|t| t(id, text));
        let mut path: Option<String> = None;
        let mut first: Option<Source> = None;
        let mut now = Source::Missing;
        let mut carrier = None;
        for &id in ids {
            let Some(idx) = self.hunks.position(id) else { continue };
            let h = &self.hunks[idx];
            if !matches!(h.state, HunkState::Pending | HunkState::Failed)
                || path.as_ref().is_some_and(|p| *p != h.path)
            {
                continue;
            }
            if first.is_none() {
                path = Some(h.path.clone());
                now = self.files.get(&h.path).cloned().unwrap_or(Source::Missing);
                first = Some(now.clone());
            }
            let (report, after) = apply_single(&h.edit, &h.path, &now);
            let hunk = self.hunks.get_mut(idx);
            hunk.report = report;
            hunk.placing = false;
            let Some(mut after) = after else {
                if hunk.report.already_applied() {
                    // The file holds the hunk's new text already: accepted, with nothing to
                    // write (undo takes the decision back, and writes nothing either).
                    let before_state = std::mem::replace(&mut hunk.state, HunkState::Applied);
                    hunk.disk = None;
                    self.record(id, before_state, None);
                } else {
                    hunk.state = HunkState::Failed;
                }
                continue;
            };
            if let After::Text(text) = &after
                && let Some(tidied) = tidy(id, text)
            {
                after = After::Text(tidied);
            }
            let before_state = std::mem::replace(&mut hunk.state, HunkState::Accepted);
            let before = std::mem::replace(&mut now, after.source());
            self.record(id, before_state, Some(Wrote::Whole(before, after)));
            carrier = Some(id);
        }
        let (carrier, path) = (carrier?, path?);
        let expected = match first {
            Some(Source::Text(t)) => Some(t),
            _ => None,
        };
        Some(match now {
            Source::Text(text) => Effect::Write { hunk: carrier, path, expected, text },
            _ => Effect::Delete { hunk: carrier, path, expected: expected.unwrap_or_default() },
        })
    }

    /// [`Review::accept_together`] for hunks that are all pending in one file without a BOM,
    /// each placed exactly in a window of its lines (no whole-file placing, nothing already
    /// there), the windows apart (a line between any two): each is put in where it stands
    /// now, in one pass. `None` (nothing changed) for any other set.
    fn accept_apart(&mut self, ids: &[HunkId]) -> Option<Effect> {
        if ids.len() < 2 {
            return None;
        }
        let first = self.hunk(ids[0])?;
        let path = first.path.clone();
        let Some(Source::Text(text)) = self.files.get(&path) else { return None };
        let text = text.clone();
        let version = self.prepared(&path);
        let file = version.file();
        file.lines()?;
        let mut steps: Vec<(usize, EditReport, Window)> = Vec::with_capacity(ids.len());
        for &id in ids {
            let idx = self.hunks.position(id)?;
            let h = &self.hunks[idx];
            if h.path != path || h.state != HunkState::Pending {
                return None;
            }
            let (report, placed) = file.place(&h.edit, &path);
            let Some(Placed::Lines { start, end, lines, eols }) = placed else { return None };
            if report.status != Status::Placed || report.already_applied() {
                return None;
            }
            steps.push((idx, report, Window { start, end, lines, eols }));
        }
        let mut spans: Vec<(usize, usize)> =
            steps.iter().map(|(_, _, w)| (w.start, w.end)).collect();
        spans.sort_unstable();
        if spans.windows(2).any(|p| p[0].1 >= p[1].0) {
            return None;
        }
        let windows = Windows {
            first: TextFile::parse(&text),
            steps: steps.iter().map(|(_, _, w)| w.clone()).collect(),
        };
        let windows = Arc::new(windows);
        for (i, (idx, mut report, _)) in steps.into_iter().enumerate() {
            // Line numbers as the file reads once the hunks before it are in, as one after the
            // other would give them.
            let shift = windows.shift(i);
            report.lines = report
                .lines
                .map(|(a, b)| (a.saturating_add_signed(shift), b.saturating_add_signed(shift)));
            let hunk = self.hunks.get_mut(idx);
            hunk.report = report;
            hunk.placing = false;
            let before_state = std::mem::replace(&mut hunk.state, HunkState::Accepted);
            let id = hunk.id;
            self.record(id, before_state, Some(Wrote::Step(windows.clone(), i)));
        }
        let after = windows.text_after(windows.steps.len());
        let carrier = *ids.last()?;
        Some(Effect::Write { hunk: carrier, path, expected: Some(text), text: after })
    }

    /// How many decisions put their hunk in with others, in its window.
    #[cfg(test)]
    pub(super) fn decided_in_windows(&self) -> usize {
        self.decisions.iter().filter(|d| matches!(d.written, Some(Wrote::Step(..)))).count()
    }

    /// Whether `found` on disk is just what the write on its way to `path` writes (an accept's,
    /// or with `undo` an undo's): a write that meets it has been made already (it landed
    /// before a kill, and the resumed session made it again).
    pub fn writes_just(&self, path: &str, found: &Source, undo: bool) -> bool {
        if undo {
            return (self.undoing.first().and_then(|(d, _)| d.written.as_ref()))
                .is_some_and(|w| w.found(found));
        }
        let together = self.being_written(path);
        together
            .last()
            .and_then(|&i| self.decisions[i].written.as_ref())
            .is_some_and(|w| w.left(found))
    }

    /// The decisions of the hunks of `path` whose write is on its way (each the hunk's last
    /// decision with a write), in the order they were taken.
    pub(super) fn being_written(&self, path: &str) -> Vec<usize> {
        let accepted: HashSet<HunkId> = (self.hunks.indices_of(path).iter())
            .map(|&i| &self.hunks[i])
            .filter(|h| h.state == HunkState::Accepted)
            .map(|h| h.id)
            .collect();
        if accepted.is_empty() {
            return Vec::new();
        }
        let mut last: HashMap<HunkId, usize> = HashMap::default();
        for (i, d) in self.decisions.iter().enumerate() {
            if d.written.is_some() && accepted.contains(&d.hunk) {
                last.insert(d.hunk, i);
            }
        }
        let mut at: Vec<usize> = last.into_values().collect();
        at.sort_unstable();
        at
    }
}
