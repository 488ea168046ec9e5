//! The hunk list as the panes show it, kept: its order (grouped by file, filtered by the
//! search), each hunk's number and row, and the counts by state, built again only when hunks
//! are added or split or the search changes (the review's hunks version: O(1) to check); a
//! large hunk's added and removed line counts, kept.
//!
//! Not for: drawing the list (`ui::render`), the order itself (`core::review`, which keeps
//! its hunks grouped by file).

use std::sync::Arc;

use super::{COUNT_CACHE_LINES, Print, print};
use crate::app::App;
use crate::core::review::{Counts, Preview, ReviewHunk};

/// The kept hunk list: the hunks' version it was built at (and the message, while searching),
/// and the search.
pub(super) struct ListEntry {
    key: (u64, u64),
    filter: String,
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
        let generation = self.review.generation();
        if let Some(e) = cache.get_mut(&h.id).filter(|e| e.print == print)
            && (e.checked == generation || e.preview == h.preview)
        {
            e.checked = generation;
            return e.counts;
        }
        let counts = crate::app::diff_model::counts(h);
        if cache.len() > 256 {
            cache.clear();
        }
        let preview = h.preview.clone();
        cache.insert(h.id, CountEntry { checked: generation, print, preview, counts });
        counts
    }

    /// The hunk list, kept while the hunks (`Review::hunks_version`: none added or split) and
    /// the search stay the same: O(1) to check.
    pub fn hunk_list(&self) -> Arc<HunkList> {
        // While searching, a hunk's text may change under its id (an edit): each change to
        // the review builds the list again then.
        let searching = !self.filter.is_empty();
        let key =
            (self.review.hunks_version(), if searching { self.review.generation() } else { 0 });
        let mut cache = self.measure.list.borrow_mut();
        if let Some(e) = cache.as_ref()
            && e.key == key
            && e.filter == self.filter
        {
            return e.list.clone();
        }
        let list = Arc::new(self.build_list());
        self.measure.note(|w| w.lists_built += 1);
        let filter = self.filter.clone();
        *cache = Some(ListEntry { key, filter, list: list.clone() });
        list
    }

    /// The hunks by state (`Review::counts`, kept by the review: O(1)).
    pub fn state_counts(&self) -> Counts {
        self.review.counts()
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
