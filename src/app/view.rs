//! How the diff pane lays out long lines: wrapped onto continuation rows (the default), or one
//! row each, scrolled sideways. Called from [`App::update`] through the keys.
//!
//! Not for: counting rows (`wrap`), drawing (the ui cuts and wraps the rows).

use super::App;
use crate::app::wrap::Overflow;

/// Columns one sideways step moves.
const STEP: usize = 16;
/// Past this the view is blank anyway; it keeps a held key from counting up forever.
const MAX_HSCROLL: usize = 100_000;

impl App {
    /// Wrap long lines, or give each one row.
    pub(super) fn toggle_wrap(&mut self) {
        self.wrap = !self.wrap;
        self.diff_scroll = 0;
        self.notice = Some(if self.wrap {
            "long lines wrap".into()
        } else {
            format!(
                "long lines are cut (‹ ›); {} {} scroll sideways",
                self.keymap.first_key(crate::app::keymap::Action::ScrollLeft),
                self.keymap.first_key(crate::app::keymap::Action::ScrollRight)
            )
        });
    }

    /// Scroll long lines sideways by a step (`-1` left, `1` right); wrapping goes off first.
    pub(super) fn scroll_sideways(&mut self, dir: isize) {
        if self.wrap {
            self.wrap = false;
            self.diff_scroll = 0;
        }
        self.diff_hscroll = if dir < 0 {
            self.diff_hscroll.saturating_sub(STEP)
        } else {
            (self.diff_hscroll + STEP).min(MAX_HSCROLL)
        };
    }

    /// What the panes do with a line longer than they are wide.
    pub fn overflow(&self) -> Overflow {
        if self.wrap { Overflow::Wrap } else { Overflow::Scroll(self.diff_hscroll) }
    }
}
