//! A conflict drawn three ways: what the model saw, what the file holds in that place now, and
//! what the model proposes. Stacked in the unified view, three columns side by side.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::core::review::ConflictView;
use crate::ui::theme::Theme;

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

fn numbered(side: &Side, k: usize) -> String {
    match side.first {
        Some(f) => format!("{:>5} {}", f + k, side.lines[k]),
        None => format!("      {}", side.lines[k]),
    }
}

/// The lines of the view, `scroll` rows down, at most `height`, `width` columns wide.
pub fn three_way<'a>(
    view: &ConflictView,
    theme: &Theme,
    side_by_side: bool,
    scroll: usize,
    height: usize,
    width: usize,
) -> Vec<Line<'a>> {
    let sides = sides(view, theme);
    let heading = |s: &Side| Span::styled(format!("── {} ──", s.title), theme.fg(theme.accent));
    let mut rows: Vec<Line<'a>> = Vec::new();
    if side_by_side && width >= 30 {
        let col = width.saturating_sub(2) / 3;
        let cell = |text: String, style: Style| {
            let mut t: String = text.chars().take(col).collect();
            let pad = col - t.chars().count();
            t.push_str(&" ".repeat(pad));
            Span::styled(t, style)
        };
        let bar = || Span::styled("│", theme.fg(theme.border));
        let mut head = Vec::new();
        for (i, s) in sides.iter().enumerate() {
            if i > 0 {
                head.push(bar());
            }
            head.push(cell(format!("── {} ", s.title), theme.fg(theme.accent)));
        }
        rows.push(Line::from(head));
        let n = sides.iter().map(|s| s.lines.len()).max().unwrap_or(0);
        for k in 0..n {
            let mut spans = Vec::new();
            for (i, s) in sides.iter().enumerate() {
                if i > 0 {
                    spans.push(bar());
                }
                let text = if k < s.lines.len() { numbered(s, k) } else { String::new() };
                spans.push(cell(text, s.style));
            }
            rows.push(Line::from(spans));
        }
    } else {
        for (i, s) in sides.iter().enumerate() {
            if i > 0 {
                rows.push(Line::raw(""));
            }
            rows.push(Line::from(heading(s)));
            for k in 0..s.lines.len() {
                let text: String = numbered(s, k).chars().take(width).collect();
                rows.push(Line::styled(text, s.style));
            }
        }
    }
    rows.into_iter().skip(scroll).take(height).collect()
}
