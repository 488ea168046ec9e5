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
use crate::ui::diff_view::CONTINUED;
use crate::ui::render::pane;
use crate::ui::theme::Theme;
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
    let text = &app.stream_text;
    // The lines and whether each is inside a fence; only the last ones are kept (each line
    // takes one row or more, so this many lines fill the rows wanted).
    let keep = height + app.stream_scroll;
    let mut ring: VecDeque<(&str, bool)> = VecDeque::with_capacity(keep + 1);
    let mut in_code = false;
    let mut parts = text.split('\n').peekable();
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
    let tail_unfinished = app.streaming && !text.is_empty() && !text.ends_with('\n');
    let count = ring.len();
    let mut rows: Vec<Vec<Span<'static>>> = Vec::new();
    for (k, (line, code)) in ring.iter().enumerate() {
        let style = if *code { theme.fg(theme.code) } else { theme.fg(theme.text) };
        let body = if tail_unfinished && k + 1 == count {
            vec![
                Span::styled(*line, theme.fg(theme.tail)),
                Span::styled("▍ (unfinished)", theme.fg(theme.tail).add_modifier(Modifier::ITALIC)),
            ]
        } else {
            vec![Span::styled(*line, style)]
        };
        // Code keeps its columns and marks its continuations; prose wraps at spaces.
        let cont = if *code { vec![Span::styled(CONTINUED, theme.fg(theme.dim))] } else { vec![] };
        let rows_of = wrap::rows(&[], &cont, &body, width, Overflow::Wrap, Style::default(), !code);
        rows.extend(rows_of);
    }
    let shown = rows.len().saturating_sub(app.stream_scroll);
    let start = shown.saturating_sub(height);
    let mut lines: Vec<Line> = rows.drain(start..shown).map(Line::from).collect();
    if lines.is_empty() {
        let msg = if app.streaming { "waiting for the model…" } else { "" };
        lines.push(Line::styled(msg, theme.fg(theme.dim)));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
