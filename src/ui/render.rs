//! Layout and the panes: the hunk list grouped by file, the status line, and the overlays (help
//! built from the keymap, quit confirmation, search and request input lines). The diff pane is
//! `diff_view`'s, the reply pane `reply`'s.
//!
//! Not for: state changes (`app`), colour choice (`theme`), or syntax colour (`highlight`).

use std::time::Duration;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block as BlockWidget, Borders, Clear, Paragraph};

use crate::app::{App, Focus, Modal};
use crate::core::plan::Status;
use crate::core::review::{HunkState, ReviewHunk};
use crate::ui::diff::{counts, scope};
use crate::ui::diff_view::draw_diff;
use crate::ui::highlight::Highlighter;
use crate::ui::keymap::Action;
use crate::ui::reply::draw_stream;
use crate::ui::theme::Theme;

const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// Draw the whole screen.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, hl: &Highlighter) {
    let area = frame.area();
    if area.width < 10 || area.height < 4 {
        return;
    }
    let [main, status] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
    let (hunks, diff, stream) = if main.width >= 80 {
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
    draw_hunks(frame, hunks, app, theme);
    draw_diff(frame, diff, app, theme, hl);
    draw_stream(frame, stream, app, theme);
    draw_status(frame, status, app, theme);
    match &app.modal {
        Some(Modal::Help) => draw_help(frame, area, app, theme),
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
        Some(Modal::Search(_)) | None => {}
    }
}

/// A bordered pane, its title bold when it has the focus.
pub(crate) fn pane<'a>(title: String, focused: bool, theme: &Theme) -> BlockWidget<'a> {
    let border = if focused { theme.border_focus } else { theme.border };
    let mut title_style = theme.fg(theme.accent);
    if focused {
        title_style = title_style.add_modifier(Modifier::BOLD);
    }
    BlockWidget::default()
        .borders(Borders::ALL)
        .border_style(theme.fg(border))
        .title(Span::styled(title, title_style))
}

/// The colour of a state.
fn state_color(state: &HunkState, theme: &Theme) -> Style {
    theme.fg(match state {
        HunkState::Pending => theme.pending,
        HunkState::Accepted => theme.accepted,
        HunkState::Applied => theme.applied,
        HunkState::Rejected => theme.rejected,
        HunkState::Failed => theme.failed,
        HunkState::Conflict(_) => theme.conflict,
    })
}

fn state_mark(state: &HunkState) -> &'static str {
    match state {
        HunkState::Pending => "·",
        HunkState::Accepted => "…",
        HunkState::Applied => "✓",
        HunkState::Rejected => "✗",
        HunkState::Failed => "!",
        HunkState::Conflict(_) => "≠",
    }
}

/// How the hunk was located: `exact`, `fuzzy 93%`, ...
pub fn how_located(h: &ReviewHunk) -> String {
    if h.report.status == Status::Refused {
        return "not found".into();
    }
    match (&h.report.strategy, h.report.similarity) {
        (Some(s), Some(sim)) if sim < 1.0 => format!("{s} {}%", (sim * 100.0).floor() as u32),
        (Some(s), _) => s.clone(),
        (None, _) => String::new(),
    }
}

/// A hunk's row: state, number, the lines its diff adds and removes, how it was placed, and
/// the definition it is in.
fn hunk_row<'a>(app: &App, h: &ReviewHunk, label: &str, theme: &Theme) -> Line<'a> {
    let (add, del) = counts(h);
    let state = if app.is_queued(h.id) { "queued" } else { h.state.name() };
    let mut spans = vec![
        Span::raw(" "),
        Span::styled(format!("{} {state:<8}", state_mark(&h.state)), state_color(&h.state, theme)),
        Span::styled(format!(" #{label:<2}"), theme.fg(theme.dim)),
        Span::styled(format!(" +{add}"), theme.fg(theme.added)),
        Span::styled(format!(" -{del} "), theme.fg(theme.removed)),
        Span::styled(how_located(h), theme.fg(theme.dim)),
    ];
    if let Some(s) = scope(h, app.review.source(&h.path)) {
        spans.push(Span::styled(format!(" · {s}"), theme.fg(theme.dim)));
    }
    if Some(h.id) == app.selected {
        let sel = theme.selected();
        for s in &mut spans {
            s.style = s.style.patch(sel);
        }
        spans[0] = Span::styled("▶", sel);
    }
    Line::from(spans)
}

fn draw_hunks(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let c = app.review.counts();
    let total = app.review.hunks().len();
    let mut title = format!(" hunks {}/{total} open ", c.pending + c.failed + c.conflict);
    if !app.filter.is_empty() {
        title = format!(" hunks matching /{} ", app.filter);
    }
    let block = pane(title, app.focus == Focus::Hunks, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let order = app.order();
    let hunks = app.review.hunks();
    // Rows: a file header before each file's first hunk, then its hunks.
    let mut rows: Vec<(Option<usize>, &str)> = Vec::with_capacity(order.len() + 8);
    let mut selected_row = 0;
    let mut last: Option<&str> = None;
    for &i in &order {
        let h = &hunks[i];
        if last != Some(h.path.as_str()) {
            rows.push((None, &h.path));
            last = Some(&h.path);
        }
        if Some(h.id) == app.selected {
            selected_row = rows.len();
        }
        rows.push((Some(i), &h.path));
    }
    let height = inner.height as usize;
    if height == 0 {
        return;
    }
    let offset = (selected_row + 1).saturating_sub(height);
    let mut lines = Vec::with_capacity(height);
    // Numbers count every hunk of a file, whatever the search shows.
    let labels = app.review.labels();
    for (row, (idx, path)) in rows.iter().enumerate() {
        if row < offset {
            continue;
        }
        if lines.len() == height {
            break;
        }
        let line = match idx {
            None => {
                let n = order.iter().filter(|&&i| hunks[i].path == *path).count();
                Line::from(vec![
                    Span::styled(
                        format!("{path} "),
                        theme.fg(theme.accent).add_modifier(Modifier::BOLD),
                    ),
                    Span::styled(format!("({n})"), theme.fg(theme.dim)),
                ])
            }
            Some(i) => hunk_row(app, &hunks[*i], &labels[*i], theme),
        };
        lines.push(line);
    }
    if rows.is_empty() {
        let msg = if app.streaming { "waiting for the first edit…" } else { "no edits" };
        lines.push(Line::styled(msg, theme.fg(theme.dim)));
    }
    // Blocks the parser could not read, under the hunks while there is room.
    for p in &app.review.problems {
        if lines.len() >= height {
            break;
        }
        lines.push(Line::styled(format!("⚠ {p}"), theme.fg(theme.conflict)));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 60.0 { format!("{s:.1}s") } else { format!("{}m{:02}s", s as u64 / 60, s as u64 % 60) }
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
    let mark = if app.streaming {
        // From the clock, not from ticks, so a replay at the recorded times draws the same frames.
        let since = match (app.stats.started, app.now) {
            (Some(s), Some(n)) => n.saturating_duration_since(s).as_millis() / 80,
            _ => 0,
        };
        SPINNER[(since % SPINNER.len() as u128) as usize]
    } else if app.stats.ended.is_some() {
        "✓"
    } else {
        "·"
    };
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
    let rate = if writing > 0.05 { tokens as f64 / writing } else { 0.0 };
    let c = app.review.counts();
    let mut parts = vec![
        format!(" {mark} {}", app.label),
        format!("{approx}{tokens} tok  {rate:.0} tok/s  {}", fmt_duration(elapsed)),
        format!(
            "{} pending {} applied {} rejected {} failed{}",
            c.pending,
            c.applied + c.accepted,
            c.rejected,
            c.failed,
            if c.conflict > 0 { format!(" {} conflict", c.conflict) } else { String::new() }
        ),
    ];
    // A replay the user took over: what was decided on this hunk in the recording.
    if let Some(recorded) = app.selected.and_then(|id| app.recorded.get(&id)) {
        parts.push(format!("recorded: {recorded}"));
    }
    match &app.notice {
        Some(n) => parts.push(n.clone()),
        None => parts.push(format!("{} help", app.keymap.first_key(Action::Help))),
    }
    frame.render_widget(Paragraph::new(parts.join(" │ ")).style(base), area);
}

fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

fn draw_help(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let entries = app.keymap.help_lines();
    let keys_w = entries.iter().map(|(k, _)| k.chars().count()).max().unwrap_or(4);
    let rect = centered(area, 64, entries.len() as u16 + 2);
    frame.render_widget(Clear, rect);
    let block = pane(" keys (any key closes) ".into(), true, theme);
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    let lines: Vec<Line> = entries
        .iter()
        .map(|(k, d)| {
            Line::from(vec![
                Span::styled(
                    format!(" {k:<keys_w$}  "),
                    theme.fg(theme.accent).add_modifier(Modifier::BOLD),
                ),
                Span::styled(*d, theme.fg(theme.text)),
            ])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

fn draw_confirm(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let c = app.review.counts();
    let open = c.pending + c.failed + c.conflict;
    let mut text = vec![Line::raw(format!(" {open} hunk(s) still undecided."))];
    if app.streaming {
        text.push(Line::raw(" The model is still writing."));
    }
    text.push(Line::styled(
        " Quit anyway? y / n",
        theme.fg(theme.accent).add_modifier(Modifier::BOLD),
    ));
    let rect = centered(area, 36, text.len() as u16 + 2);
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
    let w = inner.width as usize;
    let shown: String = {
        let n = text.chars().count();
        text.chars().skip(n.saturating_sub(w.saturating_sub(2))).collect()
    };
    frame.render_widget(Paragraph::new(Line::raw(format!("{shown}▏"))), inner);
}
