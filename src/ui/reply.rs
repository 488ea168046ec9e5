//! The reply pane: the model's text as it streams, wrapped to the pane (prose at spaces, code
//! in fences by column with `↪` on continuation rows), its unfinished last line marked, kept at
//! the end unless scrolled back.
//!
//! Not for: parsing the reply (`core::stream`), or the other panes (`ui::render`).

use std::collections::VecDeque;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::{App, Focus};
use crate::ui::pane::pane;
use crate::ui::theme::Theme;
use crate::ui::wrap::CONTINUED;
use crate::ui::wrap::{self, Overflow};

/// Draw the reply pane.
pub fn draw_stream(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let title = if app.streaming { " reply · streaming " } else { " reply " };
    let block = pane(title.into(), app.focus == Focus::Stream, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let (height, width) = (inner.height as usize, inner.width as usize);
    if height == 0 || width == 0 {
        return;
    }
    // Only the last lines are wrapped: each takes one row or more, so this many fill the rows
    // wanted.
    let mut rows = rows(app, theme, width, height + app.stream_scroll);
    let shown = rows.len().saturating_sub(app.stream_scroll);
    let start = shown.saturating_sub(height);
    let mut lines: Vec<Line> = rows.drain(start..shown).map(Line::from).collect();
    if lines.is_empty() {
        let msg = if app.streaming { "waiting for the model…" } else { "" };
        lines.push(Line::styled(msg, theme.fg(theme.dim)));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The reply pane at `area` (its border included): the rows that show, and the rows the whole
/// reply takes wrapped to it (counted as [`rows`] makes them), so scrolling back stops at its
/// first line.
pub fn extent(app: &App, area: Rect) -> (usize, usize) {
    let inner = area.inner(ratatui::layout::Margin::new(1, 1));
    let width = inner.width as usize;
    if width == 0 {
        return (inner.height as usize, 0);
    }
    let lines = lines(app, usize::MAX);
    let count = lines.len();
    let total = lines
        .iter()
        .enumerate()
        .map(|(k, (line, code))| {
            let cont = if *code { wrap::width(&[Span::raw(CONTINUED)]) } else { 0 };
            let text = if unfinished(app) && k + 1 == count {
                format!("{line}{UNFINISHED}").into()
            } else {
                std::borrow::Cow::Borrowed(*line)
            };
            wrap::count(0, cont, &text, width, !code)
        })
        .sum();
    (inner.height as usize, total)
}

/// After the last line while the model is still writing it.
const UNFINISHED: &str = "▍ (unfinished)";

/// Whether the last line is still being written.
fn unfinished(app: &App) -> bool {
    let text = &app.stream_text;
    app.streaming && !text.is_empty() && !text.ends_with('\n')
}

/// The reply's last `keep` lines, each with whether it is code (inside a fence, or one).
fn lines(app: &App, keep: usize) -> VecDeque<(&str, bool)> {
    let mut ring: VecDeque<(&str, bool)> = VecDeque::new();
    let mut in_code = false;
    let mut parts = app.stream_text.split('\n').peekable();
    while let Some(line) = parts.next() {
        let is_last = parts.peek().is_none();
        if is_last && line.is_empty() {
            break;
        }
        let fence = line.trim_start().starts_with("```");
        ring.push_back((line, in_code || fence));
        if fence {
            in_code = !in_code;
        }
        if ring.len() > keep {
            ring.pop_front();
        }
    }
    ring
}

/// The rows of the reply's last `keep` lines, `width` columns wide: code keeps its columns and
/// marks its continuations, prose wraps at spaces, the unfinished last line is marked.
fn rows(app: &App, theme: &Theme, width: usize, keep: usize) -> Vec<Vec<Span<'static>>> {
    let lines = lines(app, keep);
    let count = lines.len();
    let mut rows = Vec::new();
    for (k, (line, code)) in lines.iter().enumerate() {
        let style = if *code { theme.fg(theme.code) } else { theme.fg(theme.text) };
        let body = if unfinished(app) && k + 1 == count {
            vec![
                Span::styled(*line, theme.fg(theme.tail)),
                Span::styled(UNFINISHED, theme.fg(theme.tail).add_modifier(Modifier::ITALIC)),
            ]
        } else {
            vec![Span::styled(*line, style)]
        };
        let cont = if *code { vec![Span::styled(CONTINUED, theme.fg(theme.dim))] } else { vec![] };
        rows.extend(wrap::rows(&[], &cont, &body, width, Overflow::Wrap, Style::default(), !code));
    }
    rows
}
