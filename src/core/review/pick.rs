//! Choosing where an ambiguous hunk goes: a hunk whose old text fits several places equally
//! well is refused with those places as candidates; a person picks one, and the hunk is placed
//! there through the same apply and verifier as any other placement.
//!
//! The pick is kept on the hunk ([`crate::core::edit::Hunk::pick`]) and follows its lines when
//! the file changes; when it no longer names one of the candidates the hunk asks again.
//!
//! Not for: finding the candidates (`core::locate`), keys or drawing (`app`, `ui`).

use super::conflict::LineMap;
use super::{HunkId, HunkState, Review};
use crate::core::edit::Change;
use crate::core::file::Source;
use crate::core::locate::Candidate;
use crate::core::report::Status;

impl super::ReviewHunk {
    /// A hunk placed where a person chose, now ambiguous again: its pick is dropped, and it
    /// asks among the new candidates rather than becoming a conflict.
    pub(super) fn asks_again(&mut self) -> bool {
        let Change::Modify { hunk } = &mut self.edit.change else { return false };
        if hunk.pick.is_none() || self.report.candidates.is_empty() {
            return false;
        }
        hunk.pick = None;
        true
    }
}

impl Review {
    /// The places an ambiguous hunk fits, in file order: empty unless it is failed as
    /// ambiguous.
    pub fn candidates(&self, id: HunkId) -> &[Candidate] {
        match self.hunk(id) {
            Some(h) if h.state == HunkState::Failed => &h.report.candidates,
            _ => &[],
        }
    }

    /// The places a hunk can be put at by a digit: an ambiguous hunk's candidates, or those a
    /// pending hunk was picked among, while no file changed since (a wrong pick is redone).
    pub fn pickable(&self, id: HunkId) -> &[Candidate] {
        match self.hunk(id) {
            Some(h) if h.state == HunkState::Pending => match &h.picked_among {
                Some((stored, among)) if *stored == self.files_stored => among,
                _ => &[],
            },
            _ => self.candidates(id),
        }
    }

    /// Place an ambiguous hunk at its `n`th candidate (1-based): pending there when it fits,
    /// failed with the reason (and the same candidates) when the placement is refused. Whether
    /// anything changed: a hunk that is not ambiguous, or a number with no candidate, changes
    /// nothing.
    pub fn pick(&mut self, id: HunkId, n: usize) -> bool {
        let Some(idx) = self.hunks.position(id) else { return false };
        let Some(chosen) = n.checked_sub(1).and_then(|i| self.pickable(id).get(i).copied()) else {
            return false;
        };
        let candidates = self.pickable(id).to_vec();
        let mut hunk = self.hunks[idx].clone();
        let Change::Modify { hunk: h } = &mut hunk.edit.change else { return false };
        h.pick = Some(chosen.first_line);
        self.place(&mut hunk);
        if hunk.report.status == Status::Refused {
            // The choice did not hold: the hunk asks again, among the same places.
            if let Change::Modify { hunk: h } = &mut hunk.edit.change {
                h.pick = None;
            }
            if hunk.report.candidates.is_empty() {
                hunk.report.candidates = candidates;
            }
            hunk.state = HunkState::Failed;
            hunk.picked_among = None;
        } else {
            hunk.state = HunkState::Pending;
            hunk.picked_among = Some((self.files_stored, candidates));
        }
        *self.hunks.get_mut(idx) = hunk;
        true
    }

    /// The file changed from `before` to what the review holds now: each pick of its hunks
    /// follows its line to where the change moved it (lines edited at the place leave a pick
    /// that names no candidate, and the hunk asks again).
    pub(super) fn follow_picks(&mut self, path: &str, before: &Source) {
        let text = |s: Option<&Source>| match s {
            Some(Source::Text(t)) => t.clone(),
            _ => String::new(),
        };
        let (old, now) = (text(Some(before)), text(self.files.get(path)));
        let mut map: Option<LineMap> = None;
        for idx in self.hunks.indices_of(path).to_vec() {
            let picked = match &self.hunks[idx].edit.change {
                Change::Modify { hunk } => hunk.pick,
                _ => None,
            };
            let Some(line) = picked else { continue };
            let h = self.hunks.get_mut(idx);
            let Change::Modify { hunk } = &mut h.edit.change else { continue };
            let map = map.get_or_insert_with(|| LineMap::between(&old, &now));
            hunk.pick = Some(map.range((line - 1, line)).0 + 1);
        }
    }
}
