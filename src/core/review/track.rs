//! Bookkeeping that keeps the review's per-message cost proportional to what a message changes:
//! where each hunk is (by id), which hunks each file has, and which hunks changed since the
//! journal last asked ([`Review::take_changed`]).
//!
//! Every change to a hunk goes through [`Review::mark`] (or [`Review::push_tracked`] for a new
//! one), so the set of changed ids is complete: the recorder appends records for those and
//! never has to compare every hunk after every message.
//!
//! Not for: deciding anything about a hunk (that is `core::review`), or the journal's records
//! (`app::record`).

use std::collections::{HashMap, HashSet};

use super::{HunkId, Review, ReviewHunk};

/// Indexes over [`Review`]'s hunks, kept in step with them.
#[derive(Debug, Clone, Default)]
pub(super) struct Tracker {
    /// Each hunk's index in `Review::hunks` (the first, should two share an id).
    positions: HashMap<HunkId, usize>,
    /// Each file's hunks, in order of arrival.
    by_path: HashMap<String, Vec<HunkId>>,
    /// Hunks added, changed or removed since [`Review::take_changed`].
    changed: HashSet<HunkId>,
}

impl Review {
    /// Where the hunk with this id is in [`Review::hunks`].
    pub(super) fn position(&self, id: HunkId) -> Option<usize> {
        self.tracker.positions.get(&id).copied()
    }

    /// Add a hunk at the end.
    pub(super) fn push_tracked(&mut self, hunk: ReviewHunk) {
        let t = &mut self.tracker;
        t.positions.entry(hunk.id).or_insert(self.hunks.len());
        t.by_path.entry(hunk.path.clone()).or_default().push(hunk.id);
        t.changed.insert(hunk.id);
        self.hunks.push(hunk);
    }

    /// Note that the hunk at `idx` is about to change.
    pub(super) fn mark(&mut self, idx: usize) {
        self.tracker.changed.insert(self.hunks[idx].id);
    }

    /// The hunk at `idx`, to change.
    pub(super) fn hunk_at_mut(&mut self, idx: usize) -> &mut ReviewHunk {
        self.mark(idx);
        &mut self.hunks[idx]
    }

    /// Replace the hunk at `idx` by `parts` (a split): the indexes are built again, which costs
    /// one pass over the hunks, taken only on the user's explicit split.
    pub(super) fn splice_tracked(&mut self, idx: usize, parts: Vec<ReviewHunk>) {
        let gone = self.hunks[idx].id;
        self.tracker.changed.insert(gone);
        self.tracker.changed.extend(parts.iter().map(|h| h.id));
        self.hunks.splice(idx..=idx, parts);
        let t = &mut self.tracker;
        t.positions.clear();
        t.by_path.clear();
        for (i, h) in self.hunks.iter().enumerate() {
            t.positions.entry(h.id).or_insert(i);
            t.by_path.entry(h.path.clone()).or_default().push(h.id);
        }
    }

    /// The indices of a file's hunks, in order.
    pub(super) fn indices_of(&self, path: &str) -> Vec<usize> {
        let Some(ids) = self.tracker.by_path.get(path) else { return Vec::new() };
        let mut out: Vec<usize> = ids.iter().filter_map(|id| self.position(*id)).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The hunks added, changed or removed since the last call, in no particular order: what
    /// the journal must look at after a message. A removed hunk's id is among them, and
    /// [`Review::hunk`] no longer finds it.
    pub fn take_changed(&mut self) -> Vec<HunkId> {
        self.tracker.changed.drain().collect()
    }

    /// Where a hunk is in [`Review::hunks`], for ordering what changed.
    pub fn index_of(&self, id: HunkId) -> Option<usize> {
        self.position(id)
    }
}
