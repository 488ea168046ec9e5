//! The bars around the panes: the request line above the reply, each scrolled pane's position
//! on its bottom border, the message line (the current message, wrapped whole), the key hint
//! bar (the keys of the focused pane, from the keymap) and the status line (replay badge,
//! provider, tokens, the counts, `? help`). At any width the counts and the help key stay; the
//! other parts give way, least useful first.
//!
//! Not for: the panes themselves (`render`), dialogs (`overlay`), where things are
//! (`app::layout`).

use std::time::Duration;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::keymap::{Action, HintPane};
use crate::app::layout::{Panes, wrap};
use crate::app::navigation::ScrollPosition;
use crate::app::{App, Focus, Modal};
use crate::ui::theme::Theme;
use unicode_width::UnicodeWidthStr;

const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// Every bar, in the places `panes` gives them.
pub fn draw_bars(frame: &mut Frame, panes: &Panes, app: &App, theme: &Theme) {
    draw_request(frame, panes.request, app, theme);
    if let Some(pos) = app.diff_position_in(panes.diff) {
        scroll_marker(frame, panes.diff, pos, theme);
    }
    scroll_marker(frame, panes.stream, app.stream_position_in(panes.stream), theme);
    draw_message(frame, panes.message, app, theme);
    draw_hints(frame, panes.hints, app, theme);
    draw_status(frame, panes.status, app, theme);
}

fn draw_request(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let Some(request) = app.request_line.as_deref().filter(|_| area.height > 0) else { return };
    let one_line = request.split_whitespace().collect::<Vec<_>>().join(" ");
    // Cut as long lines are cut, with the mark that says so, where it does not fit.
    let label = [Span::styled(" request ", theme.fg(theme.accent).add_modifier(Modifier::BOLD))];
    let body = [Span::styled(one_line, theme.fg(theme.text))];
    let row = crate::ui::wrap::rows(
        &label,
        &[],
        &body,
        area.width as usize,
        crate::app::wrap::Overflow::Scroll(0),
        Style::default(),
        false,
    );
    let line = Line::from(row.into_iter().next().unwrap_or_default());
    frame.render_widget(Paragraph::new(line), area);
}

/// ` 12-30/120 ` on a pane's bottom border, right-aligned, when it does not show everything.
fn scroll_marker(frame: &mut Frame, area: Rect, pos: ScrollPosition, theme: &Theme) {
    if pos.total <= pos.shown || area.height < 3 || area.width < 16 {
        return;
    }
    let last = (pos.top + pos.shown).min(pos.total);
    let text = format!(" {}-{last}/{} ", pos.top + 1, pos.total);
    let width = text.chars().count() as u16;
    let x = area.right().saturating_sub(width + 1).max(area.x + 1);
    frame.buffer_mut().set_string(x, area.bottom() - 1, text, theme.fg(theme.dim));
}

fn draw_message(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let Some(text) = app.message() else { return };
    if area.height == 0 {
        return;
    }
    let style = if app.notice.is_none() && app.request_failed.is_some() {
        theme.fg(theme.failed)
    } else {
        theme.fg(theme.text)
    };
    let rows = wrap(&text, area.width.saturating_sub(1) as usize);
    let cut = rows.len() > area.height as usize;
    let mut lines: Vec<Line> =
        rows.into_iter().take(area.height as usize).map(|r| Line::styled(r, style)).collect();
    if cut && let Some(last) = lines.last_mut() {
        let key = app.keymap.first_key(Action::Log);
        last.spans.push(Span::styled(format!(" … (`{key}` shows it all)"), theme.fg(theme.dim)));
    }
    frame.render_widget(Paragraph::new(lines), area);
}

fn draw_hints(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    if area.height == 0 {
        return;
    }
    let pane = match app.focus {
        Focus::Hunks => HintPane::Hunks,
        Focus::Diff => HintPane::Diff,
        Focus::Stream => HintPane::Reply,
    };
    let mut spans = Vec::new();
    let mut hints = match &app.modal {
        // Help that shows whole does not scroll: any key closes it (as its title says).
        Some(Modal::Help(_))
            if crate::app::layout::help_max_top(Rect::new(0, 0, app.size.0, app.size.1), app)
                == 0 =>
        {
            vec![("any key".to_string(), "close")]
        }
        Some(modal) => app.keymap.modal_hints(modal),
        None => app.keymap.hints(pane),
    };
    // Digits pick a place only for a hunk that asks for one: the hint shows only then, first.
    let ambiguous = app.selected.is_some_and(|id| !app.review.candidates(id).is_empty());
    if ambiguous && pane != HintPane::Reply && app.modal.is_none() {
        hints.splice(0..0, app.keymap.pick_hint());
    }
    for (key, label) in hints {
        spans.push(Span::styled(
            format!(" {key}"),
            theme.fg(theme.accent).add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::styled(format!(" {label} "), theme.fg(theme.dim)));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 60.0 { format!("{s:.1}s") } else { format!("{}m{:02}s", s as u64 / 60, s as u64 % 60) }
}

/// How much a status line part is worth keeping when the line is too narrow: the lowest goes
/// first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Keep {
    Tokens,
    Recorded,
    Label,
    Always,
}

fn draw_status(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let base = Style { fg: theme.status_fg, bg: theme.status_bg, ..Style::default() };
    if let Some(Modal::Search(q)) = &app.modal {
        let line = Line::from(vec![
            Span::styled(format!("/{q}▏"), base),
            Span::styled("  Enter: filter  Esc: clear", base.fg(theme.dim.unwrap_or_default())),
        ]);
        frame.render_widget(Paragraph::new(line).style(base), area);
        return;
    }
    let mut parts = status_parts(app);
    let width = |parts: &[(Keep, String)]| parts.iter().map(|(_, p)| p.width() + 3).sum::<usize>();
    while width(&parts) > area.width as usize {
        let Some(lowest) = parts.iter().map(|p| p.0).filter(|k| *k != Keep::Always).min() else {
            break;
        };
        let at = parts.iter().position(|p| p.0 == lowest).unwrap_or(0);
        parts.remove(at);
    }
    // Narrower still: the counts by the hunk list's marks.
    if width(&parts) > area.width as usize
        && let Some(counts) = parts.iter_mut().find(|p| p.1.contains(" pending "))
    {
        let c = app.state_counts();
        counts.1 = format!(
            "·{} ✓{} ✗{} !{} ≠{}",
            c.pending,
            c.applied + c.accepted,
            c.rejected,
            c.failed + app.review.problems.len(),
            c.conflict
        );
    }
    // The label goes with the mark before it (`✓ openai · mock`); the rest are separated.
    let mut text = String::new();
    for (i, (keep, part)) in parts.iter().enumerate() {
        if i > 0 {
            text.push_str(if *keep == Keep::Label { " " } else { " │ " });
        }
        text.push_str(part);
    }
    frame.render_widget(Paragraph::new(format!(" {text}")).style(base), area);
}

/// Edits refused before they became hunks (no such file, a path outside the project, a block
/// that could not be read): counted, or they would vanish from every count.
fn refused_part(n: usize) -> String {
    if n > 0 { format!(" {n} refused") } else { String::new() }
}

/// The status line's parts, in order, with how much each is worth keeping.
fn status_parts(app: &App) -> Vec<(Keep, String)> {
    let mark = if app.streaming {
        // From the clock, not from ticks, so a replay at the recorded times draws the same frames.
        let since = match (app.stats.started, app.now) {
            (Some(s), Some(n)) => n.saturating_duration_since(s).as_millis() / 80,
            _ => 0,
        };
        SPINNER[(since % SPINNER.len() as u128) as usize]
    } else if app.request_failed.is_some() {
        "✗ request failed"
    } else if app.stats.cancelled {
        // Not the ✓ of a reply that finished: the rest of it never came.
        "⊘ cancelled"
    } else if app.stats.ended.is_some() {
        "✓"
    } else {
        "·"
    };
    let mut parts = Vec::new();
    if let Some(badge) = &app.replay_badge {
        parts.push((Keep::Always, badge.clone()));
    }
    parts.push((Keep::Always, mark.to_string()));
    parts.push((Keep::Label, app.label.clone()));
    parts.push((Keep::Tokens, tokens(app)));
    let c = app.state_counts();
    parts.push((
        Keep::Always,
        format!(
            "{} pending {} applied {} rejected {} failed{}",
            c.pending,
            c.applied + c.accepted,
            c.rejected,
            c.failed,
            if c.conflict > 0 { format!(" {} conflict", c.conflict) } else { String::new() }
        ) + &refused_part(app.review.problems.len()),
    ));
    // A replay the user took over: what was decided on this hunk in the recording.
    if let Some(recorded) = app.selected.and_then(|id| app.recorded.get(&id)) {
        parts.push((Keep::Recorded, format!("recorded: {recorded}")));
    }
    parts.push((Keep::Always, format!("{} help", app.keymap.first_key(Action::Help))));
    parts
}

/// `~120 tok  35 tok/s  4.2s`; a rate too fast (or too early) to measure is `—`.
fn tokens(app: &App) -> String {
    let s = &app.stats;
    let (tokens, approx) = match s.output_tokens {
        Some(t) => (t, ""),
        None => ((s.bytes / 4) as u64, "~"),
    };
    let end = s.ended.or(app.now);
    let elapsed = match (s.started, end) {
        (Some(a), Some(b)) => b.saturating_duration_since(a),
        _ => Duration::ZERO,
    };
    let writing = match (s.first_text, end) {
        (Some(a), Some(b)) => b.saturating_duration_since(a).as_secs_f64(),
        _ => 0.0,
    };
    let rate = if writing > 0.05 && tokens > 0 {
        format!("{:.0}", tokens as f64 / writing)
    } else {
        "—".to_string()
    };
    format!("{approx}{tokens} tok  {rate} tok/s  {}", fmt_duration(elapsed))
}
