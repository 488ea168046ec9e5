//! The hunk list as the panes show it, kept: its order (grouped by file, filtered by the
//! search), each hunk's number and row, and the counts by state, built again only when the
//! hunks' ids or the search change (checked once per message, one pass over the ids); a large
//! hunk's added and removed line counts, kept.
//!
//! Not for: drawing the list (`ui::render`), the order itself (`core::review`, which keeps
//! its hunks grouped by file).

use std::sync::Arc;

use super::{COUNT_CACHE_LINES, Print, print};
use crate::app::App;
use crate::core::review::{Counts, Preview, ReviewHunk};

/// The kept hunk list: the message count and length it was last checked at, and the print of
/// the ids it was built from.
pub(super) struct ListEntry {
    checked: (u64, usize),
    filter: String,
    print: u64,
    list: Arc<HunkList>,
}

/// A row of the hunk list: a file's name before its hunks (its first hunk's index in
/// `review.hunks()`, and how many of its hunks are listed), or a hunk (its index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListRow {
    File { first: usize, hunks: usize },
    Hunk(usize),
}

/// The hunk list as drawn: grouped by file in order of first arrival and filtered by the
/// search, each hunk's number, the rows, and each hunk's row. Built once per change to the
/// list (hunks added, split or removed, another search).
#[derive(Debug, Clone, Default)]
pub struct HunkList {
    /// Indices into `review.hunks()`, in list order.
    pub order: Vec<usize>,
    /// Each hunk's number, by index in `review.hunks()` (`Review::labels`).
    pub labels: Vec<String>,
    pub rows: Vec<ListRow>,
    /// Each hunk's row, by index in `review.hunks()` (`usize::MAX` when the search hides it).
    row_of: Vec<usize>,
}

impl HunkList {
    /// The row of the hunk at this index, if listed.
    pub fn row_of(&self, index: usize) -> Option<usize> {
        self.row_of.get(index).copied().filter(|&r| r != usize::MAX)
    }
}

/// A large hunk's kept counts, with what they were taken from.
pub(super) struct CountEntry {
    checked: u64,
    print: Print,
    preview: Preview,
    counts: (usize, usize),
}

impl App {
    /// A hunk's added and removed lines, as its diff draws them: large hunks' counts are
    /// kept.
    pub fn hunk_counts(&self, h: &ReviewHunk) -> (usize, usize) {
        if h.preview.old.len() + h.preview.new.len() <= COUNT_CACHE_LINES {
            return crate::app::diff_model::counts(h);
        }
        let print = print(h, None);
        let mut cache = self.measure.counts.borrow_mut();
        if let Some(e) = cache.get_mut(&h.id).filter(|e| e.print == print)
            && (e.checked == self.messages || e.preview == h.preview)
        {
            e.checked = self.messages;
            return e.counts;
        }
        let counts = crate::app::diff_model::counts(h);
        if cache.len() > 256 {
            cache.clear();
        }
        let preview = h.preview.clone();
        cache.insert(h.id, CountEntry { checked: self.messages, print, preview, counts });
        counts
    }

    /// The hunk list, kept while the hunks' ids and the search stay the same (checked on each
    /// call: one pass over the ids, nothing built).
    pub fn hunk_list(&self) -> Arc<HunkList> {
        let hunks = self.review.hunks();
        let checked = (self.messages, hunks.len());
        let mut cache = self.measure.list.borrow_mut();
        // Nothing came since the last look: the same list, without a pass over the ids.
        if let Some(e) = cache.as_ref()
            && e.checked == checked
            && e.filter == self.filter
        {
            return e.list.clone();
        }
        // FNV-1a over what the order and the numbers depend on: each hunk's id (its path and
        // text) and origin (the hunk it was split from), and the search; while searching, a
        // hunk's text may change under its id (an edit), so each message builds it again.
        let mut print: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |x: u64| print = (print ^ x).wrapping_mul(0x0100_0000_01b3);
        mix(hunks.len() as u64);
        for h in hunks.iter() {
            mix(h.id);
            mix(h.origin);
        }
        for b in self.filter.bytes() {
            mix(u64::from(b));
        }
        if !self.filter.is_empty() {
            mix(self.messages);
        }
        if let Some(e) = cache.as_mut()
            && e.print == print
        {
            e.checked = checked;
            return e.list.clone();
        }
        let list = Arc::new(self.build_list());
        self.measure.note(|w| w.lists_built += 1);
        let filter = self.filter.clone();
        *cache = Some(ListEntry { checked, filter, print, list: list.clone() });
        list
    }

    /// The hunks by state (`Review::counts`), counted again only after a message.
    pub fn state_counts(&self) -> Counts {
        let key = (self.messages, self.review.hunks().len());
        let mut cache = self.measure.states.borrow_mut();
        match cache.as_ref() {
            Some((k, c)) if *k == key => *c,
            _ => {
                let c = self.review.counts();
                *cache = Some((key, c));
                c
            }
        }
    }

    fn build_list(&self) -> HunkList {
        let hunks = self.review.hunks();
        // The review keeps its hunks grouped by file in order of arrival: no hashing or sorting.
        let order: Vec<usize> =
            self.review.grouped().into_iter().filter(|&i| self.matches_filter(&hunks[i])).collect();
        let mut rows = Vec::with_capacity(order.len() * 2);
        let mut row_of = vec![usize::MAX; hunks.len()];
        let mut header = 0;
        for (n, &i) in order.iter().enumerate() {
            if n == 0 || hunks[order[n - 1]].path != hunks[i].path {
                header = rows.len();
                rows.push(ListRow::File { first: i, hunks: 0 });
            }
            if let ListRow::File { hunks: count, .. } = &mut rows[header] {
                *count += 1;
            }
            row_of[i] = rows.len();
            rows.push(ListRow::Hunk(i));
        }
        HunkList { order, labels: self.review.labels(), rows, row_of }
    }
}
