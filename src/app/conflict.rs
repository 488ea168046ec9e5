//! How many rows a conflict's three views take (what the model saw, what the file holds there
//! now, what the model proposes), stacked or in three columns, as `ui::conflict` draws them:
//! the diff pane's scrolling stops where its drawing ends.
//!
//! Not for: drawing them (`ui::conflict`), or finding the sides (`core::review::conflict`).

use crate::app::wrap::{self, CONTINUED, Overflow};
use crate::core::review::ConflictView;

/// The sides' lines and first line numbers, in the order they are drawn.
pub fn sides(view: &ConflictView) -> [(Option<usize>, &[String]); 3] {
    let now: (Option<usize>, &[String]) = match &view.now {
        Some((first, lines)) if !lines.is_empty() => (Some(*first), lines),
        _ => (None, &[]),
    };
    [(None, &view.saw), now, (None, &view.proposed)]
}

/// The columns before a side's line: its number (`{n:>5} `), or as many spaces.
pub fn number(first: Option<usize>, k: usize) -> String {
    match first {
        Some(f) => format!("{:>5} ", f + k),
        None => "      ".to_string(),
    }
}

/// The mark before a side's continuation rows.
pub fn continued() -> String {
    format!("    {CONTINUED}")
}

/// Whether the three sides go in columns at `width` (else they are stacked).
pub fn in_columns(side_by_side: bool, width: usize) -> bool {
    side_by_side && width >= 30
}

fn line_rows(
    first: Option<usize>,
    k: usize,
    text: &str,
    width: usize,
    overflow: Overflow,
) -> usize {
    match overflow {
        Overflow::Scroll(_) => 1,
        Overflow::Wrap => {
            let cont = wrap::width(&continued());
            wrap::count(number(first, k).chars().count(), cont, text, width, false)
        }
    }
}

/// Rows of the whole view `width` columns wide.
pub fn rows(view: &ConflictView, side_by_side: bool, overflow: Overflow, width: usize) -> usize {
    let sides = sides(view);
    if in_columns(side_by_side, width) {
        let col = width.saturating_sub(2) / 3;
        let n = sides.iter().map(|s| s.1.len()).max().unwrap_or(0);
        let body: usize = (0..n)
            .map(|k| {
                sides
                    .iter()
                    .filter(|s| k < s.1.len())
                    .map(|s| line_rows(s.0, k, &s.1[k], col, overflow))
                    .max()
                    .unwrap_or(0)
            })
            .sum();
        1 + body
    } else {
        // Each side under its heading, a blank row between sides.
        let body: usize = sides
            .iter()
            .map(|s| {
                s.1.iter()
                    .enumerate()
                    .map(|(k, l)| line_rows(s.0, k, l, width, overflow))
                    .sum::<usize>()
            })
            .sum();
        2 + 3 + body
    }
}
