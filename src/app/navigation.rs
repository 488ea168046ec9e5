//! Moving through the review: hunks and files, scrolling the diff and the reply (bounded by
//! what there is to show, with the screen's layout from `ui::layout`), the log's scrolling, and
//! the mouse: a click selects the pane and the hunk under it, the wheel scrolls the pane under
//! the pointer.
//!
//! Not for: decisions (`decisions`), what a key stands for (`keys`, the keymap).

use super::*;
use crate::ui::diff::{Block, DiffModel};
use crate::ui::layout::{self, inner_height};

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
        self.selected = Some(hunks[order[next]].id);
        self.diff_scroll = 0;
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
            self.selected = Some(hunks[t].id);
            self.diff_scroll = 0;
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
            self.selected = Some(hunks[next].id);
            self.diff_scroll = 0;
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
                    self.selected = Some(self.review.hunks()[i].id);
                    self.diff_scroll = 0;
                }
            }
            Focus::Diff => self.diff_scroll = if end { self.max_diff_scroll() } else { 0 },
            Focus::Stream => self.stream_scroll = if end { 0 } else { self.max_stream_scroll() },
        }
    }

    pub(super) fn scroll_page(&mut self, delta: isize) {
        match self.focus {
            Focus::Stream => self.scroll_stream(delta),
            _ => self.scroll_diff(delta),
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
            self.selected = Some(id);
            self.diff_scroll = 0;
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

    /// Where the diff pane is scrolled to; `None` when no hunk is selected.
    pub fn diff_position(&self) -> Option<ScrollPosition> {
        let total = self.diff_rows()?;
        let shown = self.diff_visible();
        Some(ScrollPosition { top: self.diff_scroll.min(total.saturating_sub(1)), shown, total })
    }

    /// Where the reply pane is scrolled to.
    pub fn stream_position(&self) -> ScrollPosition {
        let total = self.stream_rows();
        let shown = inner_height(layout::current(self).stream);
        let back = self.stream_scroll.min(self.max_stream_scroll());
        ScrollPosition { top: total.saturating_sub(shown + back), shown, total }
    }

    fn max_diff_scroll(&self) -> usize {
        match self.diff_rows() {
            Some(rows) => rows.saturating_sub(self.diff_visible()),
            None => 0,
        }
    }

    fn max_stream_scroll(&self) -> usize {
        self.stream_rows().saturating_sub(inner_height(layout::current(self).stream))
    }

    /// The rows of the selected hunk's diff as drawn (a conflict's three views: unbounded).
    fn diff_rows(&self) -> Option<usize> {
        let h = self.selected_hunk()?;
        if h.state.is_conflict() {
            return Some(usize::MAX / 2);
        }
        let model = DiffModel::of(h, self.review.source(&h.path));
        Some(match self.view {
            ViewMode::Unified => model.unified_len(),
            ViewMode::SideBySide => model
                .blocks
                .iter()
                .map(|b| match b {
                    Block::Same(pairs) => pairs.len(),
                    Block::Change(olds, news) => olds.len().max(news.len()),
                })
                .sum(),
        })
    }

    /// Rows of the diff pane below the lines that say why a hunk failed (at most half).
    fn diff_visible(&self) -> usize {
        let inner = inner_height(layout::current(self).diff);
        let header = match self.selected_hunk() {
            Some(h) if h.state == HunkState::Failed => {
                h.report.reason.as_deref().map_or(1, |r| r.lines().count()) + 1
            }
            Some(h) if h.state.is_conflict() => 2,
            Some(h) if h.preview.deletes => 1,
            _ => 0,
        };
        inner - header.min(inner / 2)
    }

    /// The reply's lines as drawn (an unfinished last line counts).
    fn stream_rows(&self) -> usize {
        let text = &self.stream_text;
        text.matches('\n').count() + usize::from(!text.is_empty() && !text.ends_with('\n'))
    }
}
