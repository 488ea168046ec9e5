//! Where each part of the review screen is, as a pure function of the terminal's size and the
//! app's state. The drawing code lays the panes out with it, and the app maps a mouse click or
//! wheel turn to the pane under the pointer and bounds its scrolling with it, so both always
//! agree on what is where.
//!
//! Not for: drawing (`render`, `status`), or what a click does (`app`).

use ratatui::layout::{Constraint, Layout, Rect};
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

use crate::app::{App, Focus};

/// The screen's parts. `message` and `request` have no height when there is nothing to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Panes {
    pub hunks: Rect,
    pub diff: Rect,
    /// The request the reply answers: one line above the reply pane.
    pub request: Rect,
    pub stream: Rect,
    /// The current message, wrapped whole.
    pub message: Rect,
    /// The key hint bar.
    pub hints: Rect,
    pub status: Rect,
}

/// At most this share of the screen goes to a long message; the log (`L`) holds all of it.
const MESSAGE_SHARE: u16 = 3;

/// Lay the screen out.
pub fn panes(area: Rect, app: &App) -> Panes {
    let width = area.width as usize;
    let message_rows = app
        .message()
        .map_or(0, |n| wrap(&n, width.saturating_sub(1)).len() as u16)
        .min((area.height / MESSAGE_SHARE).max(1));
    // The hint bar is the first thing a short terminal gives up.
    let hint_rows = u16::from(area.height >= 12);
    let [main, message, hints, status] = Layout::vertical([
        Constraint::Min(1),
        Constraint::Length(message_rows),
        Constraint::Length(hint_rows),
        Constraint::Length(1),
    ])
    .areas(area);
    let (hunks, diff, reply) = if main.width >= 80 {
        let [left, right] =
            Layout::horizontal([Constraint::Percentage(32), Constraint::Min(20)]).areas(main);
        let [d, s] =
            Layout::vertical([Constraint::Percentage(62), Constraint::Min(3)]).areas(right);
        (left, d, s)
    } else {
        let [h, d, s] = Layout::vertical([
            Constraint::Percentage(30),
            Constraint::Percentage(45),
            Constraint::Min(3),
        ])
        .areas(main);
        (h, d, s)
    };
    let request_rows = u16::from(app.request_line.is_some() && reply.height >= 5);
    let [request, stream] =
        Layout::vertical([Constraint::Length(request_rows), Constraint::Min(1)]).areas(reply);
    Panes { hunks, diff, request, stream, message, hints, status }
}

/// The panes of the app's last known terminal size.
pub fn current(app: &App) -> Panes {
    panes(Rect::new(0, 0, app.size.0, app.size.1), app)
}

/// The pane at a screen position, if any.
pub fn pane_at(panes: &Panes, column: u16, row: u16) -> Option<Focus> {
    let inside = |r: Rect| r.contains(ratatui::layout::Position { x: column, y: row });
    if inside(panes.hunks) {
        Some(Focus::Hunks)
    } else if inside(panes.diff) {
        Some(Focus::Diff)
    } else if inside(panes.stream) {
        Some(Focus::Stream)
    } else {
        None
    }
}

/// Rows inside a bordered pane.
pub fn inner_height(r: Rect) -> usize {
    r.height.saturating_sub(2) as usize
}

/// `text` cut into rows of at most `width` columns, at spaces where it can be and mid-word where
/// a word is longer than a row; its own line breaks are kept. Nothing is dropped, and a
/// grapheme cluster (a flag, an emoji sequence, a letter and its accents) is never split.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut rows = Vec::new();
    for line in text.split('\n') {
        let mut row = String::new();
        let mut used = 0;
        for word in line.split_inclusive(' ') {
            let w = word.width();
            if used + w.saturating_sub(usize::from(word.ends_with(' '))) > width && used > 0 {
                rows.push(std::mem::take(&mut row).trim_end().to_string());
                used = 0;
            }
            for g in word.graphemes(true) {
                let gw = g.width();
                if used + gw > width && used > 0 {
                    rows.push(std::mem::take(&mut row));
                    used = 0;
                }
                row.push_str(g);
                used += gw;
            }
        }
        rows.push(row.trim_end().to_string());
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_every_character() {
        let text = "stream failed: error sending request for url (http://127.0.0.1:9/v1/chat/completions): connection refused";
        let rows = wrap(text, 30);
        assert!(rows.iter().all(|r| r.chars().count() <= 30), "{rows:?}");
        let joined: String = rows.join(" ");
        let squeeze = |s: &str| s.split_whitespace().collect::<String>();
        assert_eq!(squeeze(&joined), squeeze(text));
        assert_eq!(wrap("a\nb", 10), vec!["a", "b"]);
        assert_eq!(wrap("🇺🇸🇫🇷🇩🇪", 5), vec!["🇺🇸🇫🇷", "🇩🇪"], "flags are never split");
    }
}
