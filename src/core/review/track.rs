//! The review's hunk list, kept so that a message costs what it changes: hunks found by id,
//! a file's hunks found by path, and the set of hunks changed since the journal last asked
//! ([`Review::take_changed`]).
//!
//! [`Hunks`] hands out `&mut` to a hunk only through [`Hunks::get_mut`], which marks it
//! changed; adding and splicing mark too. There is no other way to change a hunk (no
//! `DerefMut`, no `iter_mut`), so the set of changed ids cannot miss one: the recorder
//! (`app::record`) appends records for those and never compares every hunk after every
//! message. Marking a hunk that ends up unchanged only costs the recorder one comparison.
//!
//! The counts by state are kept the same way: the hunk handed out last is the only one whose
//! state may have changed since, so it is counted apart until the next change, and a count
//! costs O(1) whatever the number of hunks. A version number changes whenever a hunk is added
//! or split, so the hunk list can tell that its order is the same without a pass over the ids.
//!
//! Not for: deciding anything about a hunk (`core::review`), the journal's records
//! (`app::record`).

use crate::core::hash::{HashMap, HashSet};
use std::ops::Deref;

use super::{Counts, HunkId, HunkState, Review, ReviewHunk};

/// The review's hunks in list order, with indexes over them kept in step.
#[derive(Debug, Clone, Default)]
pub(super) struct Hunks {
    list: Vec<ReviewHunk>,
    index: Index,
    /// Hunks added, changed or removed since [`Hunks::take_changed`].
    changed: HashSet<HunkId>,
    /// The counts by state of every hunk but `open`.
    counts: Counts,
    /// The hunk last handed out to change, counted when asked (its state may change after).
    open: Option<usize>,
    /// Changes whenever a hunk is added or the list is spliced.
    version: u64,
    /// Changes whenever a hunk is handed out to change, added or spliced: the same number,
    /// no hunk changed (caches of what a hunk shows check it in O(1)).
    touched: u64,
}

/// Count `h` in `c` (`add`), or take it out.
fn count(c: &mut Counts, h: &ReviewHunk, add: bool) {
    let n = |x: &mut usize| *x = if add { *x + 1 } else { *x - 1 };
    match h.state {
        HunkState::Pending => {
            n(&mut c.pending);
            if h.placing {
                n(&mut c.placing);
            }
        }
        HunkState::Accepted => n(&mut c.accepted),
        HunkState::Applied => n(&mut c.applied),
        HunkState::Rejected => n(&mut c.rejected),
        HunkState::Failed => n(&mut c.failed),
        HunkState::Conflict(_) => n(&mut c.conflict),
    }
}

/// Where the hunks are in the list, by id and by file.
#[derive(Debug, Clone, Default)]
struct Index {
    /// Each hunk's index in the list (the first, should two share an id).
    positions: HashMap<HunkId, usize>,
    /// Each file's hunks, in list order.
    by_path: HashMap<String, Vec<usize>>,
    /// The files, in the order their first hunk is in the list.
    paths: Vec<String>,
}

impl Index {
    /// Take in the hunk at list index `idx` (after every one before it).
    fn add(&mut self, idx: usize, hunk: &ReviewHunk) {
        self.positions.entry(hunk.id).or_insert(idx);
        // Looked up before inserting: `entry` would copy the path for every hunk of a file.
        match self.by_path.get_mut(&hunk.path) {
            Some(of_file) => of_file.push(idx),
            None => {
                self.by_path.insert(hunk.path.clone(), vec![idx]);
                self.paths.push(hunk.path.clone());
            }
        }
    }
}

impl Deref for Hunks {
    type Target = [ReviewHunk];

    fn deref(&self) -> &[ReviewHunk] {
        &self.list
    }
}

impl Hunks {
    /// Where the hunk with this id is.
    pub(super) fn position(&self, id: HunkId) -> Option<usize> {
        self.index.positions.get(&id).copied()
    }

    /// The hunk at `idx`, to change: it is marked changed.
    pub(super) fn get_mut(&mut self, idx: usize) -> &mut ReviewHunk {
        self.changed.insert(self.list[idx].id);
        self.touched += 1;
        if self.open != Some(idx) {
            self.close();
            count(&mut self.counts, &self.list[idx], false);
            self.open = Some(idx);
        }
        &mut self.list[idx]
    }

    /// Count the hunk handed out last in its state now.
    fn close(&mut self) {
        if let Some(i) = self.open.take() {
            count(&mut self.counts, &self.list[i], true);
        }
    }

    /// The counts by state, in O(1).
    pub(super) fn counts(&self) -> Counts {
        let mut c = self.counts;
        if let Some(i) = self.open {
            count(&mut c, &self.list[i], true);
        }
        c
    }

    /// Changes whenever a hunk is added or split.
    pub(super) fn version(&self) -> u64 {
        self.version
    }

    /// Changes whenever any hunk may have changed.
    pub(super) fn touched(&self) -> u64 {
        self.touched
    }

    /// The hunk with this id, to change (marked changed).
    pub(super) fn find_mut(&mut self, id: HunkId) -> Option<&mut ReviewHunk> {
        let idx = self.position(id)?;
        Some(self.get_mut(idx))
    }

    /// Add a hunk at the end.
    pub(super) fn push(&mut self, hunk: ReviewHunk) {
        self.index.add(self.list.len(), &hunk);
        self.changed.insert(hunk.id);
        count(&mut self.counts, &hunk, true);
        self.version += 1;
        self.touched += 1;
        self.list.push(hunk);
    }

    /// Replace the hunk at `idx` by `parts` (a split). The indexes are built again: one pass
    /// over the hunks, taken only on the user's explicit split.
    pub(super) fn splice(&mut self, idx: usize, parts: Vec<ReviewHunk>) {
        self.changed.insert(self.list[idx].id);
        self.changed.extend(parts.iter().map(|h| h.id));
        self.list.splice(idx..=idx, parts);
        self.index = Index::default();
        self.counts = Counts::default();
        self.open = None;
        self.version += 1;
        self.touched += 1;
        for (i, h) in self.list.iter().enumerate() {
            self.index.add(i, h);
            count(&mut self.counts, h, true);
        }
    }

    /// The indices of a file's hunks, in list order.
    pub(super) fn indices_of(&self, path: &str) -> &[usize] {
        self.index.by_path.get(path).map_or(&[], Vec::as_slice)
    }

    fn take_changed(&mut self) -> Vec<HunkId> {
        self.changed.drain().collect()
    }

    /// Every index, grouped by file in the order of each file's first hunk, in list order
    /// within a file: no hashing or sorting, a copy of what is kept.
    fn grouped(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.list.len());
        for p in &self.index.paths {
            out.extend_from_slice(self.indices_of(p));
        }
        out
    }
}

impl Review {
    /// The hunks added, changed or removed since the last call, in no particular order: what
    /// the journal must look at after a message. A removed hunk's id is among them, and
    /// [`Review::hunk`] no longer finds it.
    pub fn take_changed(&mut self) -> Vec<HunkId> {
        self.hunks.take_changed()
    }

    /// Indices into [`Review::hunks`] grouped by file, files in the order their first hunk
    /// arrived, hunks in order of arrival within a file (the hunk list's order).
    pub fn grouped(&self) -> Vec<usize> {
        self.hunks.grouped()
    }

    /// Where a hunk is in [`Review::hunks`].
    pub fn index_of(&self, id: HunkId) -> Option<usize> {
        self.hunks.position(id)
    }
}
