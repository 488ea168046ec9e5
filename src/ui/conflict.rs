//! A conflict drawn three ways: what the model saw, what the file holds in that place now, and
//! what the model proposes. Stacked in the unified view, three columns side by side; long lines
//! wrap (or are cut and scrolled sideways) as in the diff.
//!
//! Not for: finding the sides (`core::review::conflict`).

use ratatui::style::Style;
use ratatui::text::Span;

use crate::app::conflict;
use crate::app::wrap::Overflow;
use crate::core::review::ConflictView;
use crate::ui::theme::Theme;
use crate::ui::wrap;

/// One of the three sides: its title, its first line number (if it has one), its lines, colour.
struct Side<'a> {
    title: String,
    first: Option<usize>,
    lines: &'a [String],
    style: Style,
}

fn sides<'a>(view: &'a ConflictView, theme: &Theme) -> [Side<'a>; 3] {
    let (now_title, first, now_lines): (String, Option<usize>, &[String]) = match &view.now {
        Some((first, lines)) if lines.is_empty() => {
            (format!("on disk now: nothing (the lines are gone, at line {first})"), None, &[])
        }
        Some((first, lines)) => {
            let last = first + lines.len() - 1;
            (format!("on disk now, lines {first}-{last}"), Some(*first), lines)
        }
        None => ("on disk now: the file is gone".to_string(), None, &[]),
    };
    [
        Side {
            title: "what the model saw".into(),
            first: None,
            lines: &view.saw,
            style: theme.fg(theme.removed),
        },
        Side { title: now_title, first, lines: now_lines, style: theme.fg(theme.conflict) },
        Side {
            title: "what the model proposes".into(),
            first: None,
            lines: &view.proposed,
            style: theme.fg(theme.added),
        },
    ]
}

/// Line `k` of a side as rows `width` wide: its number (if the side has them) before the first
/// row, `↪` before continuations, wrapped or cut as `overflow` says.
fn side_rows(side: &Side, k: usize, width: usize, overflow: Overflow) -> Vec<Vec<Span<'static>>> {
    // The gutters `app::conflict` counts the rows with.
    let first = [Span::styled(conflict::number(side.first, k), side.style)];
    let cont = [Span::styled(conflict::continued(), side.style)];
    let body = [Span::styled(side.lines[k].as_str(), side.style)];
    wrap::rows(&first, &cont, &body, width, overflow, Style::default(), false)
}

/// Every row of the view, `width` columns wide, long lines wrapped or cut as `overflow` says
/// (the caller shows the rows its pane is scrolled to).
pub fn three_way(
    view: &ConflictView,
    theme: &Theme,
    side_by_side: bool,
    overflow: Overflow,
    width: usize,
) -> Vec<Vec<Span<'static>>> {
    let sides = sides(view, theme);
    if conflict::in_columns(side_by_side, width) {
        columns(&sides, theme, overflow, width)
    } else {
        stacked(&sides, theme, overflow, width)
    }
}

/// The three sides one above the other, each under its heading.
fn stacked(
    sides: &[Side],
    theme: &Theme,
    overflow: Overflow,
    width: usize,
) -> Vec<Vec<Span<'static>>> {
    let mut rows = Vec::new();
    for (i, s) in sides.iter().enumerate() {
        if i > 0 {
            rows.push(Vec::new());
        }
        let heading = Span::styled(format!("── {} ──", s.title), theme.fg(theme.accent));
        rows.push(wrap::fit(&[heading], width));
        for k in 0..s.lines.len() {
            rows.extend(side_rows(s, k, width, overflow));
        }
    }
    rows
}

/// The three sides in columns, line by line; a wrapped line's neighbours wait for it.
fn columns(
    sides: &[Side],
    theme: &Theme,
    overflow: Overflow,
    width: usize,
) -> Vec<Vec<Span<'static>>> {
    let col = width.saturating_sub(2) / 3;
    let bar = || Span::styled("│", theme.fg(theme.border));
    let mut rows = Vec::new();
    let mut head = Vec::new();
    for (i, s) in sides.iter().enumerate() {
        if i > 0 {
            head.push(bar());
        }
        head.extend(wrap::fit(
            &[Span::styled(format!("── {} ", s.title), theme.fg(theme.accent))],
            col,
        ));
    }
    rows.push(head);
    let n = sides.iter().map(|s| s.lines.len()).max().unwrap_or(0);
    for k in 0..n {
        let cells: Vec<Vec<Vec<Span<'static>>>> = sides
            .iter()
            .map(|s| if k < s.lines.len() { side_rows(s, k, col, overflow) } else { Vec::new() })
            .collect();
        let tall = cells.iter().map(Vec::len).max().unwrap_or(0);
        for r in 0..tall {
            let mut row = Vec::new();
            for (i, c) in cells.iter().enumerate() {
                if i > 0 {
                    row.push(bar());
                }
                row.extend(c.get(r).cloned().unwrap_or_else(|| vec![Span::raw(" ".repeat(col))]));
            }
            rows.push(row);
        }
    }
    rows
}
