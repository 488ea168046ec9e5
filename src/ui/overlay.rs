//! The dialogs over the review screen: the help (built from the keymap; in two columns, or
//! scrolled, when the terminal is too short for one), the quit question,
//! the input lines (the request, a follow-up) and the log of messages (`L`).
//!
//! Not for: what their keys do (`app::keys`), the panes (`render`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use crate::app::layout::{centered, help_layout, help_widths, wrap};
use crate::app::{App, Modal};
use crate::ui::pane::pane;
use crate::ui::theme::Theme;
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// The open dialog, if any.
pub fn draw(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    match &app.modal {
        Some(Modal::Help(top)) => draw_help(frame, area, app, *top, theme),
        Some(Modal::ConfirmQuit) => draw_confirm(frame, area, app, theme),
        Some(Modal::Prompt(text)) => draw_prompt(
            frame,
            area,
            text,
            " what should the model change? (Enter sends, Esc quits) ",
            theme,
        ),
        Some(Modal::FollowUp(text)) => {
            draw_prompt(frame, area, text, " follow-up request (Enter sends, Esc closes) ", theme)
        }
        Some(Modal::Log(back)) => draw_log(frame, area, app, *back, theme),
        Some(Modal::Search(_)) | None => {}
    }
}

/// Every message so far, newest at the bottom, each whole; `back` messages from the newest
/// are scrolled out below.
fn draw_log(frame: &mut Frame, area: Rect, app: &App, back: usize, theme: &Theme) {
    let rect = centered(area, area.width.saturating_sub(4).max(20), area.height.saturating_sub(2));
    frame.render_widget(Clear, rect);
    let title = format!(" messages ({}; ↑↓ scroll, any other key closes) ", app.log.len());
    let block = pane(title, true, theme);
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    let width = inner.width.saturating_sub(2) as usize;
    let end = app.log.len().saturating_sub(back);
    let mut lines: Vec<Line> = Vec::new();
    for (n, message) in app.log[..end].iter().enumerate() {
        for (k, row) in wrap(message, width).into_iter().enumerate() {
            let mark = if k == 0 { format!("{:>3} ", n + 1) } else { "    ".into() };
            lines.push(Line::from(vec![
                Span::styled(mark, theme.fg(theme.dim)),
                Span::styled(row, theme.fg(theme.text)),
            ]));
        }
    }
    if lines.is_empty() {
        lines.push(Line::styled("no messages yet", theme.fg(theme.dim)));
    }
    let skip = lines.len().saturating_sub(inner.height as usize);
    frame.render_widget(Paragraph::new(lines.split_off(skip)), inner);
}

/// The keys, from the keymap; `top` entries scrolled out above when they do not all fit.
fn draw_help(frame: &mut Frame, area: Rect, app: &App, top: usize, theme: &Theme) {
    let entries = app.keymap.help_lines();
    let (keys_w, column) = help_widths(&entries);
    // Laid out as the keys read it (`App::help_key`): at the app's size, which while a replay
    // re-enacts is the recorded one, then cut to what this terminal shows (else the help would
    // say it scrolls where the re-enacted keys find it whole).
    let mut layout = match app.reenacting {
        true => help_layout(Rect::new(0, 0, app.size.0, app.size.1), &entries),
        false => help_layout(area, &entries),
    };
    layout.rect = layout.rect.intersection(area);
    let top = top.min(layout.max_top);
    let title = if layout.max_top > 0 {
        let last = (top + layout.shown).min(entries.len());
        format!(" keys {}-{last}/{} (↑↓ scroll, any other key closes) ", top + 1, entries.len())
    } else {
        " keys (any key closes) ".to_string()
    };
    frame.render_widget(Clear, layout.rect);
    let block = pane(title, true, theme);
    let inner = block.inner(layout.rect);
    frame.render_widget(block, layout.rect);
    let entry = |(k, d): &(String, &'static str)| {
        vec![
            Span::styled(
                format!(" {k:<keys_w$}  "),
                theme.fg(theme.accent).add_modifier(Modifier::BOLD),
            ),
            Span::styled(format!("{d:<w$}", w = column - keys_w - 3), theme.fg(theme.text)),
        ]
    };
    let lines: Vec<Line> = (top..top + layout.shown)
        .map(|row| {
            let mut spans = entries.get(row).map(entry).unwrap_or_default();
            if layout.columns == 2
                && let Some(right) = entries.get(row + layout.shown)
            {
                spans.push(Span::styled("│", theme.fg(theme.border)));
                spans.extend(entry(right));
            }
            Line::from(spans)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

fn draw_confirm(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let c = app.state_counts();
    let open = c.undecided();
    // (Asked mid-stream with every hunk so far decided: the stream is the only thing to say.)
    let mut text = Vec::new();
    if open > 0 || !app.streaming {
        text.push(Line::raw(format!(" {open} hunk(s) still undecided.")));
    }
    // Failed hunks and conflicts cannot be accepted as they are: said apart from the pending.
    if c.failed + c.conflict > 0 {
        let kinds: Vec<String> =
            [(c.pending, "pending"), (c.failed, "failed"), (c.conflict, "conflict(s)")]
                .iter()
                .filter(|(n, _)| *n > 0)
                .map(|(n, what)| format!("{n} {what}"))
                .collect();
        text.push(Line::styled(format!(" ({})", kinds.join(", ")), theme.fg(theme.dim)));
    }
    if app.streaming {
        text.push(Line::raw(" The model is still writing."));
    }
    if open > 0 {
        // Nothing is lost: the journal holds them, and resuming reopens them pending.
        text.push(Line::styled(" They are kept: `redline resume`", theme.fg(theme.dim)));
        text.push(Line::styled(" reopens them pending.", theme.fg(theme.dim)));
    }
    text.push(Line::styled(
        " Quit anyway? y (or Enter) / n",
        theme.fg(theme.accent).add_modifier(Modifier::BOLD),
    ));
    let rect = centered(area, 40, text.len() as u16 + 2);
    frame.render_widget(Clear, rect);
    let block = pane(" quit ".into(), true, theme);
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    frame.render_widget(Paragraph::new(text), inner);
}

fn draw_prompt(frame: &mut Frame, area: Rect, text: &str, title: &str, theme: &Theme) {
    let rect = centered(area, area.width.saturating_sub(4).max(20), 4);
    frame.render_widget(Clear, rect);
    let block = pane(title.into(), true, theme);
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    // A pasted text's line breaks, shown (the box is one row).
    let text = text.replace('\n', "↵");
    let text = text.as_str();
    // The end of the text, as many whole clusters as fit before the cursor.
    let room = (inner.width as usize).saturating_sub(2);
    let mut used = 0;
    let start = text
        .grapheme_indices(true)
        .rev()
        .take_while(|(_, g)| {
            used += g.width();
            used <= room
        })
        .last()
        .map_or(text.len(), |(at, _)| at);
    frame.render_widget(Paragraph::new(Line::raw(format!("{}▏", &text[start..]))), inner);
}
