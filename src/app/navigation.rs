//! Moving through the review: hunks and files (another hunk's diff starts at its top and first
//! column), scrolling the diff and the reply (bounded by the rows the panes draw, wrapped or
//! not, as `measure` and `diff_pane` count them in the places `layout` gives them), the
//! log's and the help's scrolling, and the mouse: a click selects the pane and the hunk under
//! it, the wheel scrolls the pane under the pointer.
//!
//! Not for: decisions (`decisions`), what a key stands for (`keys`, the keymap).

use super::*;
use ratatui::layout::Rect;

use crate::app::layout::{self, inner_height};

/// Lines the wheel moves.
const WHEEL_LINES: isize = 3;

/// Where a scrolled pane is: its first row shown, the rows shown, and the rows there are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScrollPosition {
    pub top: usize,
    pub shown: usize,
    pub total: usize,
}

impl App {
    /// Select a hunk. Another hunk's diff starts at its top and its first column.
    pub(super) fn select(&mut self, id: Option<HunkId>) {
        if id != self.selected {
            self.diff_scroll = 0;
            self.diff_hscroll = 0;
        }
        self.selected = id;
    }

    pub(super) fn step(&mut self, delta: isize) {
        let order = self.order();
        if order.is_empty() {
            return;
        }
        let hunks = self.review.hunks();
        let cur = self.selected.and_then(|id| order.iter().position(|&i| hunks[i].id == id));
        let next = match cur {
            Some(c) => (c as isize + delta).clamp(0, order.len() as isize - 1) as usize,
            None => 0,
        };
        self.select(Some(hunks[order[next]].id));
    }

    pub(super) fn step_file(&mut self, forward: bool) {
        let order = self.order();
        let hunks = self.review.hunks();
        let Some(cur) = self.selected.and_then(|id| order.iter().position(|&i| hunks[i].id == id))
        else {
            return self.step(0);
        };
        let path = &hunks[order[cur]].path;
        let target = if forward {
            order[cur..].iter().find(|&&i| &hunks[i].path != path).copied()
        } else {
            // The first hunk of the previous file.
            let prev = order[..cur].iter().rev().find(|&&i| &hunks[i].path != path).copied();
            prev.and_then(|p| order.iter().find(|&&i| hunks[i].path == hunks[p].path).copied())
        };
        if let Some(t) = target {
            self.select(Some(hunks[t].id));
        }
    }

    /// After a decision: the next open hunk, if there is one after this one.
    pub(super) fn advance_from(&mut self, id: HunkId) {
        let order = self.order();
        let hunks = self.review.hunks();
        let Some(cur) = order.iter().position(|&i| hunks[i].id == id) else { return };
        if let Some(&next) =
            order[cur + 1..].iter().find(|&&i| hunks[i].state == HunkState::Pending)
        {
            self.select(Some(hunks[next].id));
        }
    }

    /// `j`/`k`: the next or previous hunk in the hunk list; a line in the diff or the reply.
    pub(super) fn line(&mut self, delta: isize) {
        match self.focus {
            Focus::Hunks => self.step(delta),
            Focus::Diff => self.scroll_diff(delta),
            Focus::Stream => self.scroll_stream(delta),
        }
    }

    /// `g`/`G`: the first or last hunk; the top or end of the diff or reply.
    pub(super) fn jump(&mut self, end: bool) {
        match self.focus {
            Focus::Hunks => {
                let order = self.order();
                let pick = if end { order.last() } else { order.first() };
                if let Some(&i) = pick {
                    self.select(Some(self.review.hunks()[i].id));
                }
            }
            Focus::Diff => self.diff_scroll = if end { self.max_diff_scroll() } else { 0 },
            Focus::Stream => self.stream_scroll = if end { 0 } else { self.max_stream_scroll() },
        }
    }

    /// A page of the pane with the focus (`down` or up): the rows it shows, less one kept in
    /// sight. The hunk list pages the diff.
    pub(super) fn scroll_page(&mut self, down: bool) {
        let sign = if down { 1 } else { -1 };
        match self.focus {
            Focus::Stream => {
                let (shown, _) = self.reply_extent(layout::current(self).stream);
                self.scroll_stream(sign * (shown.saturating_sub(1).max(1) as isize))
            }
            _ => {
                let shown = self.diff_position().map_or(1, |p| p.shown);
                self.scroll_diff(sign * (shown.saturating_sub(1).max(1) as isize))
            }
        }
    }

    /// Down (positive) or up, never past the end: the last row stays at the pane's bottom.
    fn scroll_diff(&mut self, delta: isize) {
        let max = self.max_diff_scroll();
        self.diff_scroll =
            (self.diff_scroll.min(max) as isize + delta).clamp(0, max as isize) as usize;
    }

    /// The reply is scrolled back from its end: down (positive) comes nearer the end.
    fn scroll_stream(&mut self, delta: isize) {
        let max = self.max_stream_scroll();
        self.stream_scroll =
            (self.stream_scroll.min(max) as isize - delta).clamp(0, max as isize) as usize;
    }

    pub(super) fn wheel(&mut self, down: bool, at: Option<(u16, u16)>) {
        let pane = at.and_then(|(c, r)| layout::pane_at(&layout::current(self), c, r));
        let delta = if down { WHEEL_LINES } else { -WHEEL_LINES };
        match pane.unwrap_or(self.focus) {
            Focus::Hunks => self.step(delta.signum()),
            Focus::Diff => self.scroll_diff(delta),
            Focus::Stream => self.scroll_stream(delta),
        }
    }

    /// A click focuses the pane under it; in the hunk list it selects the hunk (or a file's
    /// first hunk, on its name).
    pub(super) fn click(&mut self, column: u16, row: u16) {
        let panes = layout::current(self);
        let Some(pane) = layout::pane_at(&panes, column, row) else { return };
        self.focus = pane;
        if pane != Focus::Hunks || row <= panes.hunks.y {
            return;
        }
        let rows = self.list_rows();
        let height = inner_height(panes.hunks);
        let selected = rows.iter().position(|r| r.1 && self.selected == Some(r.0)).unwrap_or(0);
        // As the list is drawn: scrolled just enough to show the selected row.
        let offset = (selected + 1).saturating_sub(height);
        let at = offset + (row - panes.hunks.y - 1) as usize;
        if let Some(&(id, _)) = rows.get(at) {
            self.select(Some(id));
        }
    }

    /// The hunk list's rows as drawn: a file's name (its first hunk, `false`) before its hunks
    /// (`true`).
    fn list_rows(&self) -> Vec<(HunkId, bool)> {
        let hunks = self.review.hunks();
        let mut rows = Vec::new();
        let mut last: Option<&str> = None;
        for i in self.order() {
            let h = &hunks[i];
            if last != Some(h.path.as_str()) {
                rows.push((h.id, false));
                last = Some(&h.path);
            }
            rows.push((h.id, true));
        }
        rows
    }

    /// The log's keys: scroll it, or close it.
    pub(super) fn log_key(&mut self, back: usize, key: KeyEvent) {
        let most = self.log.len().saturating_sub(1);
        self.modal = match self.keymap.action(&key) {
            Some(Action::Prev | Action::PageUp) => Some(Modal::Log((back + 1).min(most))),
            Some(Action::Next | Action::PageDown) => Some(Modal::Log(back.saturating_sub(1))),
            Some(Action::Top) => Some(Modal::Log(most)),
            Some(Action::Bottom) => Some(Modal::Log(0)),
            _ => None,
        };
    }

    /// The help's keys when it does not show whole: scroll it; any other key closes it.
    pub(super) fn help_key(&mut self, top: usize, key: KeyEvent) {
        let area = Rect::new(0, 0, self.size.0, self.size.1);
        let most = layout::help_max_top(area, self);
        let page = (self.size.1 as usize / 2).max(1);
        let top = match self.keymap.action(&key) {
            _ if most == 0 => None,
            Some(Action::Next) => Some((top + 1).min(most)),
            Some(Action::Prev) => Some(top.saturating_sub(1)),
            Some(Action::PageDown) => Some((top + page).min(most)),
            Some(Action::PageUp) => Some(top.saturating_sub(page)),
            Some(Action::Top) => Some(0),
            Some(Action::Bottom) => Some(most),
            _ => None,
        };
        self.modal = top.map(Modal::Help);
    }

    /// Where the diff pane is scrolled to; `None` when no hunk is selected.
    pub fn diff_position(&self) -> Option<ScrollPosition> {
        self.diff_position_in(layout::current(self).diff)
    }

    /// Where the diff pane at `area` (its border included) is scrolled to.
    pub fn diff_position_in(&self, area: Rect) -> Option<ScrollPosition> {
        let (shown, total) = self.diff_extent(area)?;
        Some(ScrollPosition { top: self.diff_scroll.min(total.saturating_sub(1)), shown, total })
    }

    /// Where the reply pane is scrolled to.
    pub fn stream_position(&self) -> ScrollPosition {
        self.stream_position_in(layout::current(self).stream)
    }

    /// Where the reply pane at `area` (its border included) is scrolled to.
    pub fn stream_position_in(&self, area: Rect) -> ScrollPosition {
        let (shown, total) = self.reply_extent(area);
        let back = self.stream_scroll.min(total.saturating_sub(shown));
        ScrollPosition { top: total.saturating_sub(shown + back), shown, total }
    }

    /// The reply pane at `area` (its border included): the rows that show, and the rows the
    /// whole reply takes wrapped to it, so scrolling back stops at its first line.
    fn reply_extent(&self, area: Rect) -> (usize, usize) {
        let inner = area.inner(ratatui::layout::Margin::new(1, 1));
        let width = inner.width as usize;
        let total = if width == 0 { 0 } else { self.reply_rows(width) };
        (inner.height as usize, total)
    }

    /// The diff's rows as drawn (wrapped or not, a conflict's three views too) less the rows
    /// that show: the last row stays at the pane's bottom.
    fn max_diff_scroll(&self) -> usize {
        self.diff_position().map_or(0, |p| p.total.saturating_sub(p.shown))
    }

    /// The reply's rows as drawn (wrapped) less the rows that show.
    fn max_stream_scroll(&self) -> usize {
        let (shown, total) = self.reply_extent(layout::current(self).stream);
        total.saturating_sub(shown)
    }
}
