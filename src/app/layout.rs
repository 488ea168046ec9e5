//! Where each part of the review screen is, as a pure function of the terminal's size and the
//! app's state: the panes, the message line's rows, the help dialog's rectangle and columns.
//! The ui draws in these places, and the app maps a mouse click or wheel turn to the pane under
//! the pointer and bounds its scrolling with them, so both always agree on what is where.
//!
//! Not for: drawing (`ui`), or what a click does (`navigation`).

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

/// Whether a terminal of `area` is too small to review in: the hunk list would have no row
/// (its frame takes two), so the hunk a key acts on could not be seen.
pub fn too_small(area: Rect, app: &App) -> bool {
    cramped(&panes(area, app))
}

/// [`too_small`], of panes laid out already.
pub fn cramped(p: &Panes) -> bool {
    p.hunks.height < 3 || p.hunks.width < 12 || p.diff.height < 3
}

/// Whether the app's last known terminal is [`too_small`] (an unknown size is not).
pub fn too_small_now(app: &App) -> bool {
    app.size != (0, 0) && too_small(Rect::new(0, 0, app.size.0, app.size.1), app)
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

/// A rectangle of at most `width` by `height` in the middle of `area`.
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// Where the help goes in `area` and how: its rectangle, its columns (one, or two when one is
/// too tall and two fit), and how far it scrolls when neither shows every entry.
pub struct HelpLayout {
    pub rect: Rect,
    pub columns: usize,
    /// Entry rows shown (per column).
    pub shown: usize,
    /// The furthest it scrolls: 0 when everything shows.
    pub max_top: usize,
}

/// A help entry's columns: ` keys  description `.
pub fn help_widths(entries: &[(String, &str)]) -> (usize, usize) {
    let keys = entries.iter().map(|(k, _)| k.width()).max().unwrap_or(4);
    let text = entries.iter().map(|(_, d)| d.width()).max().unwrap_or(0);
    (keys, 1 + keys + 2 + text + 1)
}

/// The help's layout in `area`.
pub fn help_layout(area: Rect, entries: &[(String, &str)]) -> HelpLayout {
    let n = entries.len();
    let (_, column) = help_widths(entries);
    let (width, height) = (area.width as usize, area.height as usize);
    // Two columns only when one is too tall and two fit whole; else one, scrolled if need be.
    let two = n + 2 > height && 2 * column + 3 <= width && n.div_ceil(2) + 2 <= height;
    let (columns, rows) = if two { (2, n.div_ceil(2)) } else { (1, n) };
    let shown = rows.min(height.saturating_sub(2));
    let rect_w = (columns * column + columns - 1 + 2) as u16;
    let rect = centered(area, rect_w, (shown + 2) as u16);
    HelpLayout { rect, columns, shown, max_top: rows - shown }
}

/// The furthest the help scrolls in a terminal of `area`: 0 when it shows whole.
pub fn help_max_top(area: Rect, app: &App) -> usize {
    help_layout(area, &app.keymap.help_lines()).max_top
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
