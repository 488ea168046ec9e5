//! The reply pane: the model's text as it streams, wrapped to the pane (prose at spaces, code
//! in fences by column with `↪` on continuation rows), its unfinished last line marked, kept at
//! the end unless scrolled back.
//!
//! Not for: parsing the reply (`core::stream`), or the other panes (`ui::render`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::measure::{ReplyLine, UNFINISHED};
use crate::app::{App, Focus};
use crate::ui::pane::pane;
use crate::ui::theme::Theme;
use crate::ui::wrap::{self, CONTINUED, Overflow};

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
    // Only the lines that show are wrapped: the app keeps where each line starts and the rows
    // each takes.
    let window = app.reply_window(width, height);
    let mut lines: Vec<Line> = window
        .lines
        .iter()
        .flat_map(|l| rows(l, theme, width))
        .skip(window.skip)
        .take(window.take)
        .map(Line::from)
        .collect();
    if lines.is_empty() {
        let msg = if app.streaming { "waiting for the model…" } else { "" };
        lines.push(Line::styled(msg, theme.fg(theme.dim)));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// A line's rows, `width` columns wide: code keeps its columns and marks its continuations,
/// prose wraps at spaces, the unfinished last line is marked.
fn rows(line: &ReplyLine, theme: &Theme, width: usize) -> Vec<Vec<Span<'static>>> {
    let style = if line.code { theme.fg(theme.code) } else { theme.fg(theme.text) };
    let body = if line.unfinished {
        vec![
            Span::styled(line.text, theme.fg(theme.tail)),
            Span::styled(UNFINISHED, theme.fg(theme.tail).add_modifier(Modifier::ITALIC)),
        ]
    } else {
        vec![Span::styled(line.text, style)]
    };
    let cont = if line.code { vec![Span::styled(CONTINUED, theme.fg(theme.dim))] } else { vec![] };
    wrap::rows(&[], &cont, &body, width, Overflow::Wrap, Style::default(), !line.code)
}
