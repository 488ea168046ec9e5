//! Layout and the panes: the hunk list grouped by file, the selected hunk's diff (unified or
//! side by side), the stream with its unfinished tail marked, the status line, and the overlays
//! (help built from the keymap, quit confirmation, search and request input lines).
//!
//! Not for: state changes (`app`), colour choice (`theme`), or syntax colour (`highlight`).

use std::time::Duration;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block as BlockWidget, Borders, Clear, Paragraph, Wrap};

use crate::app::{App, Focus, Modal, ViewMode};
use crate::core::plan::Status;
use crate::core::review::{HunkState, ReviewHunk};
use crate::ui::conflict::three_way;
use crate::ui::diff::{Block, DiffModel, paint};
use crate::ui::highlight::{Highlighter, LineColors};
use crate::ui::keymap::Action;
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

fn pane<'a>(title: String, focused: bool, theme: &Theme) -> BlockWidget<'a> {
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

fn line_counts(h: &ReviewHunk) -> (usize, usize) {
    if h.preview.old.is_empty() && h.preview.new.is_empty() {
        match &h.edit.change {
            crate::core::edit::Change::Modify { hunk } => (
                hunk.lines.iter().filter(|l| l.kind == crate::core::edit::LineKind::Add).count(),
                hunk.lines.iter().filter(|l| l.kind == crate::core::edit::LineKind::Remove).count(),
            ),
            crate::core::edit::Change::Create { content }
            | crate::core::edit::Change::Replace { content } => (content.lines().count(), 0),
            crate::core::edit::Change::Delete => (0, 0),
        }
    } else {
        (h.preview.new.len(), h.preview.old.len())
    }
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
    let mut number = 0;
    for (row, (idx, path)) in rows.iter().enumerate() {
        match idx {
            None => number = 0,
            Some(_) => number += 1,
        }
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
            Some(i) => {
                let h = &hunks[*i];
                let (add, del) = line_counts(h);
                let state = if app.is_queued(h.id) { "queued" } else { h.state.name() };
                let mut spans = vec![
                    Span::raw(" "),
                    Span::styled(
                        format!("{} {state:<8}", state_mark(&h.state)),
                        state_color(&h.state, theme),
                    ),
                    Span::styled(format!(" #{number:<2}"), theme.fg(theme.dim)),
                    Span::styled(format!(" +{add}"), theme.fg(theme.added)),
                    Span::styled(format!(" -{del} "), theme.fg(theme.removed)),
                    Span::styled(how_located(h), theme.fg(theme.dim)),
                ];
                if Some(h.id) == app.selected {
                    let sel = theme.selected();
                    for s in &mut spans {
                        s.style = s.style.patch(sel);
                    }
                    spans[0] = Span::styled("▶", sel);
                }
                Line::from(spans)
            }
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

fn draw_diff(frame: &mut Frame, area: Rect, app: &App, theme: &Theme, hl: &Highlighter) {
    let Some(h) = app.selected_hunk() else {
        frame.render_widget(pane(" diff ".into(), app.focus == Focus::Diff, theme), area);
        return;
    };
    let mut title = format!(" {} · {}", h.path, h.state.name());
    let how = how_located(h);
    if !how.is_empty() {
        title.push_str(&format!(" · {how}"));
    }
    if let Some((a, b)) = h.report.lines.filter(|_| h.report.status == Status::Applied) {
        title.push_str(&format!(" · lines {a}-{b}"));
    }
    let view = match app.view {
        ViewMode::Unified => "unified",
        ViewMode::SideBySide => "side by side",
    };
    title.push_str(&format!(" · {view} "));
    let block = pane(title, app.focus == Focus::Diff, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut header: Vec<Line> = Vec::new();
    match &h.state {
        HunkState::Failed | HunkState::Conflict(_) => {
            let why = match &h.state {
                HunkState::Conflict(w) => w.clone(),
                _ => h.report.reason.clone().unwrap_or_else(|| "cannot be placed".into()),
            };
            // The first line says why; the rest (the closest text in the file) is dimmed.
            let mut why_lines = why.lines();
            let first = why_lines.next().unwrap_or("cannot be placed");
            header.push(Line::styled(format!("✗ {first}"), theme.fg(theme.failed)));
            for rest in why_lines {
                header.push(Line::styled(format!("  {rest}"), theme.fg(theme.dim)));
            }
            if h.state == HunkState::Failed {
                let key = app.keymap.first_key(Action::Retry);
                header.push(Line::styled(
                    format!("  the hunk's own text is shown; `{key}` asks the model again"),
                    theme.fg(theme.dim),
                ));
            } else {
                let key = |a| app.keymap.first_key(a);
                header.push(Line::styled(
                    format!(
                        "  never applied as it is: `{}` resolve by hand · `{}` send back to the model with the text now · `{}` drop",
                        key(Action::Edit),
                        key(Action::Retry),
                        key(Action::Reject)
                    ),
                    theme.fg(theme.dim),
                ));
            }
        }
        _ if h.preview.deletes => {
            header.push(Line::styled("deletes the file", theme.fg(theme.removed)));
        }
        _ => {}
    }
    let width = inner.width as usize;
    // The header (why a hunk failed) wraps; the diff below it never does.
    let header_rows: usize = header
        .iter()
        .map(|l| l.width().div_ceil(width.max(1)).max(1))
        .sum::<usize>()
        .min(inner.height as usize / 2);
    let [head, body] =
        Layout::vertical([Constraint::Length(header_rows as u16), Constraint::Min(0)]).areas(inner);
    frame.render_widget(Paragraph::new(header).wrap(Wrap { trim: false }), head);
    let body_height = body.height as usize;
    if let Some(view) = app.review.conflict_view(h.id) {
        let side = app.view == ViewMode::SideBySide;
        let lines = three_way(&view, theme, side, app.diff_scroll, body_height, width);
        frame.render_widget(Paragraph::new(lines), body);
        return;
    }
    let model = DiffModel::of(h, app.review.source(&h.path));
    let colors = hl.get(h.id, &model);
    let mut lines = Vec::with_capacity(body_height);
    match app.view {
        ViewMode::Unified => {
            unified(&model, colors, theme, app.diff_scroll, body_height, width, &mut lines)
        }
        ViewMode::SideBySide => {
            side_by_side(&model, colors, theme, app.diff_scroll, body_height, width, &mut lines)
        }
    }
    frame.render_widget(Paragraph::new(lines), body);
}

/// Line numbers before a diff line: old and new columns (unified), or the side's own.
#[derive(Clone, Copy)]
enum Gutter {
    Both(Option<usize>, Option<usize>),
    One(usize),
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Same,
    Old,
    New,
}

/// A painted diff line: number gutter(s), sign, text.
#[allow(clippy::too_many_arguments)]
fn diff_line<'a>(
    model: &'a DiffModel,
    colors: Option<&LineColors>,
    kind: Kind,
    index: usize,
    emph: &[std::ops::Range<usize>],
    numbers: Gutter,
    theme: &Theme,
    width: usize,
) -> Vec<Span<'a>> {
    let text: &str = match kind {
        Kind::Old => &model.old[index],
        Kind::New | Kind::Same => &model.new[index],
    };
    let (sign, base, emph_bg) = match kind {
        Kind::Same => (" ", theme.fg(theme.text), None),
        Kind::Old => (
            "-",
            Style { fg: theme.removed, bg: theme.removed_bg, ..Style::default() },
            theme.removed_emph_bg,
        ),
        Kind::New => (
            "+",
            Style { fg: theme.added, bg: theme.added_bg, ..Style::default() },
            theme.added_emph_bg,
        ),
    };
    let num = |n: Option<usize>| n.map_or("    ".to_string(), |n| format!("{n:>4}"));
    let mut spans = Vec::new();
    let mut used = 0;
    if model.first_line.is_some() {
        let gutter = match numbers {
            Gutter::Both(o, n) => format!("{} {} ", num(o), num(n)),
            Gutter::One(n) => format!("{} ", num(Some(n))),
        };
        used += gutter.chars().count();
        spans.push(Span::styled(gutter, theme.fg(theme.line_number)));
    }
    spans.push(Span::styled(format!("{sign} "), base));
    used += 2;
    let room = width.saturating_sub(used);
    // Added and removed lines lean on the diff colour; unchanged ones carry syntax colour alone.
    let base = if kind == Kind::Same { base } else { base.fg(theme.text.unwrap_or_default()) };
    let base =
        if theme.text.is_none() && kind != Kind::Same { Style { fg: None, ..base } } else { base };
    spans.extend(paint(text, colors, emph, base, emph_bg, |rgb| theme.syntax(rgb), room * 4));
    // Fill the rest of the row with the diff background.
    let shown: usize = text.chars().count().min(room);
    if let Some(bg) = base.bg
        && room > shown
    {
        spans.push(Span::styled(" ".repeat(room - shown), Style::default().bg(bg)));
    }
    spans
}

fn unified<'a>(
    model: &'a DiffModel,
    colors: Option<&crate::ui::highlight::HunkColors>,
    theme: &Theme,
    scroll: usize,
    height: usize,
    width: usize,
    out: &mut Vec<Line<'a>>,
) {
    let first = model.first_line.unwrap_or(1);
    let old_c = |i: usize| colors.and_then(|c| c.old.get(i));
    let new_c = |i: usize| colors.and_then(|c| c.new.get(i));
    let mut row = 0;
    let mut push = |spans: Vec<Span<'a>>, out: &mut Vec<Line<'a>>| {
        if row >= scroll && row < scroll + height {
            out.push(Line::from(spans));
        }
        row += 1;
    };
    for b in &model.blocks {
        match b {
            Block::Same(pairs) => {
                for &(o, n) in pairs {
                    let spans = diff_line(
                        model,
                        new_c(n),
                        Kind::Same,
                        n,
                        &[],
                        Gutter::Both(Some(first + o), Some(first + n)),
                        theme,
                        width,
                    );
                    push(spans, out);
                }
            }
            Block::Change(olds, news) => {
                for c in olds {
                    let spans = diff_line(
                        model,
                        old_c(c.index),
                        Kind::Old,
                        c.index,
                        &c.emph,
                        Gutter::Both(Some(first + c.index), None),
                        theme,
                        width,
                    );
                    push(spans, out);
                }
                for c in news {
                    let spans = diff_line(
                        model,
                        new_c(c.index),
                        Kind::New,
                        c.index,
                        &c.emph,
                        Gutter::Both(None, Some(first + c.index)),
                        theme,
                        width,
                    );
                    push(spans, out);
                }
            }
        }
    }
}

/// A side-by-side row: the old side's spans and the new side's, either absent.
type SideRow<'a> = (Option<Vec<Span<'a>>>, Option<Vec<Span<'a>>>);

fn side_by_side<'a>(
    model: &'a DiffModel,
    colors: Option<&crate::ui::highlight::HunkColors>,
    theme: &Theme,
    scroll: usize,
    height: usize,
    width: usize,
    out: &mut Vec<Line<'a>>,
) {
    let first = model.first_line.unwrap_or(1);
    let half = width.saturating_sub(1) / 2;
    let old_c = |i: usize| colors.and_then(|c| c.old.get(i));
    let new_c = |i: usize| colors.and_then(|c| c.new.get(i));
    let mut rows: Vec<SideRow<'a>> = Vec::new();
    for b in &model.blocks {
        match b {
            Block::Same(pairs) => {
                for &(o, n) in pairs {
                    rows.push((
                        Some(diff_line(
                            model,
                            old_c(o),
                            Kind::Same,
                            n,
                            &[],
                            Gutter::One(first + o),
                            theme,
                            half,
                        )),
                        Some(diff_line(
                            model,
                            new_c(n),
                            Kind::Same,
                            n,
                            &[],
                            Gutter::One(first + n),
                            theme,
                            half,
                        )),
                    ));
                }
            }
            Block::Change(olds, news) => {
                for k in 0..olds.len().max(news.len()) {
                    let l = olds.get(k).map(|c| {
                        diff_line(
                            model,
                            old_c(c.index),
                            Kind::Old,
                            c.index,
                            &c.emph,
                            Gutter::One(first + c.index),
                            theme,
                            half,
                        )
                    });
                    let r = news.get(k).map(|c| {
                        diff_line(
                            model,
                            new_c(c.index),
                            Kind::New,
                            c.index,
                            &c.emph,
                            Gutter::One(first + c.index),
                            theme,
                            half,
                        )
                    });
                    rows.push((l, r));
                }
            }
        }
    }
    for (l, r) in rows.into_iter().skip(scroll).take(height) {
        let mut spans = fit(l.unwrap_or_default(), half);
        spans.push(Span::styled("│", theme.fg(theme.border)));
        spans.extend(fit(r.unwrap_or_default(), half));
        out.push(Line::from(spans));
    }
}

/// Cut or pad spans to exactly `width` columns.
fn fit(spans: Vec<Span<'_>>, width: usize) -> Vec<Span<'_>> {
    let mut out = Vec::new();
    let mut used = 0;
    for s in spans {
        if used >= width {
            break;
        }
        let n = s.content.chars().count();
        if used + n <= width {
            used += n;
            out.push(s);
        } else {
            let cut: String = s.content.chars().take(width - used).collect();
            used = width;
            out.push(Span::styled(cut, s.style));
        }
    }
    if used < width {
        out.push(Span::raw(" ".repeat(width - used)));
    }
    out
}

fn draw_stream(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let title = if app.streaming { " reply · streaming " } else { " reply " };
    let block = pane(title.into(), app.focus == Focus::Stream, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let height = inner.height as usize;
    if height == 0 {
        return;
    }
    // Only the lines shown are read: the reply's lines are indexed as it arrives.
    let reply = app.reply_lines();
    let tail_unfinished = app.streaming && !reply.is_empty() && !reply.as_str().ends_with('\n');
    let count = reply.line_count();
    let shown = count.saturating_sub(app.stream_scroll);
    let start = shown.saturating_sub(height);
    let mut lines: Vec<Line> = Vec::with_capacity(height);
    for (k, (line, code)) in (start..shown).filter_map(|k| Some((k, reply.line(k)?))) {
        let style = if code { theme.fg(theme.code) } else { theme.fg(theme.text) };
        if tail_unfinished && k + 1 == count {
            lines.push(Line::from(vec![
                Span::styled(line, theme.fg(theme.tail)),
                Span::styled("▍ (unfinished)", theme.fg(theme.tail).add_modifier(Modifier::ITALIC)),
            ]));
        } else {
            lines.push(Line::styled(line, style));
        }
    }
    if lines.is_empty() {
        let msg = if app.streaming { "waiting for the model…" } else { "" };
        lines.push(Line::styled(msg, theme.fg(theme.dim)));
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
