//! The diff pane: the selected hunk's title (number, path, scope, state, where it goes), why it
//! failed or conflicts, and its diff, unified or side by side, each line wrapped onto
//! continuation rows (`↪`, numbers on the first row only) or cut to a window that scrolls
//! sideways (`‹ ›` where text is hidden).
//!
//! Not for: building the diff (`ui::diff`), the conflict's three sides (`ui::conflict`), or
//! the other panes (`ui::render`).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::app::keymap::Action;
use crate::app::{App, Focus, ViewMode};
use crate::core::review::{HunkState, ReviewHunk};
use crate::ui::conflict::three_way;
use crate::ui::diff::{Block, Cell, DiffModel, LineColors, paint, scope};
use crate::ui::highlight::{Highlighter, HunkColors};
use crate::ui::pane::{how_located, pane};
use crate::ui::theme::Theme;
use crate::ui::wrap::{self, CONTINUED, Overflow};

/// Rows of a line drawn at most (a minified file's one line is not painted whole).
const PAINT_ROWS: usize = 400;

/// The diff pane's title: ` #3 app.py · def handler_200 · pending · exact · lines 5-9 · unified `.
fn title(app: &App, h: &ReviewHunk, label: &str) -> String {
    let mut title = format!(" #{label} {}", h.path);
    if let Some(s) = scope(h, app.review.source(&h.path)) {
        title.push_str(&format!(" · {s}"));
    }
    title.push_str(&format!(" · {}", h.state.name()));
    if let Some(note) = h.disk {
        title.push_str(&format!(" ({})", note.describe()));
    }
    let how = how_located(h);
    if !how.is_empty() {
        title.push_str(&format!(" · {how}"));
    }
    let p = &h.preview;
    let lines = if h.state == HunkState::Applied && !p.new.is_empty() {
        Some((p.start + 1, p.start + p.new.len()))
    } else {
        h.report.lines.filter(|_| h.report.status.is_placed())
    };
    if let Some((a, b)) = lines {
        title.push_str(&format!(" · lines {a}-{b}"));
    }
    let view = match app.view {
        ViewMode::Unified => "unified",
        ViewMode::SideBySide => "side by side",
    };
    let cut = if app.wrap { "" } else { ", no wrap" };
    title.push_str(&format!(" · {view}{cut} "));
    title
}

/// Why a hunk failed or conflicts (or that it deletes its file), above its diff.
fn header<'a>(app: &App, h: &ReviewHunk, theme: &Theme) -> Vec<Line<'a>> {
    let mut header: Vec<Line> = Vec::new();
    let key = |a| app.keymap.first_key(a);
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
            let candidates = app.review.candidates(h.id);
            if !candidates.is_empty() {
                // The candidates say more than the closest text: one of them is it.
                header.extend(candidate_lines(app, h, theme));
                return header;
            }
            for rest in why_lines {
                header.push(Line::styled(format!("  {rest}"), theme.fg(theme.dim)));
            }
            let hint = if h.state == HunkState::Failed {
                format!(
                    "  the hunk's own text is shown; `{}` asks the model again",
                    key(Action::Retry)
                )
            } else {
                format!(
                    "  never applied as it is: `{}` resolve by hand · `{}` send back to the model with the text now · `{}` drop",
                    key(Action::Edit),
                    key(Action::Retry),
                    key(Action::Reject)
                )
            };
            header.push(Line::styled(hint, theme.fg(theme.dim)));
        }
        _ if h.preview.deletes => {
            header.push(Line::styled("deletes the file", theme.fg(theme.removed)));
        }
        _ => {}
    }
    header
}

/// File lines shown of each candidate place, enough to tell them apart.
const CANDIDATE_LINES: usize = 2;

/// The places an ambiguous hunk fits, numbered by their keys: where each is, and what tells
/// them apart, the definition it is in (the places' own lines are alike, or they would not
/// tie) or else its first lines as they are in the file; then what the keys do.
fn candidate_lines<'a>(app: &App, h: &ReviewHunk, theme: &Theme) -> Vec<Line<'a>> {
    let text = match app.review.source(&h.path) {
        Some(crate::core::file::Source::Text(t)) => t.as_str(),
        _ => "",
    };
    let file: Vec<&str> = text.lines().collect();
    let lang = crate::core::scope::Lang::of(&h.path);
    let key_style = theme.fg(theme.accent).add_modifier(ratatui::style::Modifier::BOLD);
    let mut lines = Vec::new();
    for (i, c) in app.review.candidates(h.id).iter().enumerate() {
        let rough = if c.similarity < 0.995 {
            format!("  ({:.0}% similar)", c.similarity * 100.0)
        } else {
            String::new()
        };
        let row = |key: String, at: usize, what: String| {
            Line::from(vec![
                Span::styled(key, key_style),
                Span::styled(format!("{at:>5} │ {what}"), theme.fg(theme.dim)),
            ])
        };
        let key = format!("  {} ", i + 1);
        if let Some(scope) = crate::core::scope::enclosing(text, c.first_line - 1, lang) {
            lines.push(row(key, c.first_line, format!("in {scope}{rough}")));
            continue;
        }
        let rows = CANDIDATE_LINES.min(c.last_line + 1 - c.first_line);
        for (k, l) in file.iter().skip(c.first_line - 1).take(rows).enumerate() {
            let key = if k == 0 { key.clone() } else { "    ".to_string() };
            let what = l.replace('\t', "    ") + if k == 0 { rough.as_str() } else { "" };
            lines.push(row(key, c.first_line + k, what));
        }
    }
    let hint = match app.keymap.pick_hint() {
        Some((keys, _)) => format!(
            "  `{keys}` places it at that candidate (the diff then shows it there) · `{}` asks the model again",
            app.keymap.first_key(Action::Retry)
        ),
        None => format!("  `{}` asks the model again", app.keymap.first_key(Action::Retry)),
    };
    lines.push(Line::styled(hint, theme.fg(theme.dim)));
    lines
}

/// Draw the diff pane.
pub fn draw_diff(frame: &mut Frame, area: Rect, app: &App, theme: &Theme, hl: &Highlighter) {
    let focused = app.focus == Focus::Diff;
    let Some(h) = app.selected_hunk() else {
        frame.render_widget(pane(" diff ".into(), focused, theme), area);
        return;
    };
    let labels = app.review.labels();
    let index = app.review.hunks().iter().position(|x| x.id == h.id).unwrap_or(0);
    let block = pane(title(app, h, &labels[index]), focused, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let header = header(app, h, theme);
    let header_rows = header_height(&header, inner, picking(app, h));
    let [head, body] =
        Layout::vertical([Constraint::Length(header_rows as u16), Constraint::Min(0)]).areas(inner);
    // The header (why a hunk failed) always wraps.
    frame.render_widget(Paragraph::new(header).wrap(Wrap { trim: false }), head);
    let rows = body_rows(app, h, theme, hl, inner.width as usize);
    let (scroll, height) = (app.diff_scroll, body.height as usize);
    let lines: Vec<Line> = rows.into_iter().skip(scroll).take(height).map(Line::from).collect();
    frame.render_widget(Paragraph::new(lines), body);
}

/// The selected hunk's diff in the pane at `area` (its border included): the rows that show
/// below the header, and the rows there are. Measured on the rows the pane draws, wrapped or
/// not, so scrolling stops where the drawing ends.
pub fn extent(app: &App, area: Rect) -> Option<(usize, usize)> {
    let h = app.selected_hunk()?;
    let theme = Theme::bare();
    let inner = pane(String::new(), false, &theme).inner(area);
    let shown = (inner.height as usize).saturating_sub(header_height(
        &header(app, h, &theme),
        inner,
        picking(app, h),
    ));
    let total = body_rows(app, h, &theme, &Highlighter::off(), inner.width as usize).len();
    Some((shown, total))
}

/// Whether the hunk waits for a person to pick its place: its candidates are then what the
/// pane is for, more than its own text.
fn picking(app: &App, h: &ReviewHunk) -> bool {
    !app.review.candidates(h.id).is_empty()
}

/// Rows the header takes, wrapped: at most half the pane, or all but two rows of it while the
/// hunk's candidates are listed (at 80x24 half the pane cut the list after the first).
fn header_height(header: &[Line], inner: Rect, picking: bool) -> usize {
    let width = (inner.width as usize).max(1);
    let height = inner.height as usize;
    let cap = if picking { height.saturating_sub(2) } else { height / 2 };
    header.iter().map(|l| l.width().div_ceil(width).max(1)).sum::<usize>().min(cap)
}

/// Every row of the hunk's diff, or of its conflict's three views, `width` columns wide.
fn body_rows(app: &App, h: &ReviewHunk, theme: &Theme, hl: &Highlighter, width: usize) -> Vec<Row> {
    let overflow = app.overflow();
    if let Some(view) = app.review.conflict_view(h.id) {
        return three_way(&view, theme, app.view == ViewMode::SideBySide, overflow, width);
    }
    let model = DiffModel::of(h, app.review.source(&h.path));
    let colors = hl.get(h.id, &model);
    let ctx = Ctx { model: &model, colors, theme, overflow };
    match app.view {
        ViewMode::Unified => unified(&ctx, width),
        ViewMode::SideBySide => side_by_side(&ctx, width),
    }
}

/// What every line of one diff is drawn with.
struct Ctx<'m> {
    model: &'m DiffModel,
    colors: Option<&'m HunkColors>,
    theme: &'m Theme,
    overflow: Overflow,
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

/// One diff line: which side's line, its changed ranges, its numbers.
struct DiffLine<'e> {
    kind: Kind,
    index: usize,
    emph: &'e [std::ops::Range<usize>],
    numbers: Gutter,
}

type Row = Vec<Span<'static>>;

/// A diff line as rows `width` wide: number gutter(s) and sign on the first, a blank gutter
/// and `↪` on continuations, the text painted (syntax, diff background, changed words).
fn diff_rows(ctx: &Ctx, line: DiffLine, width: usize) -> Vec<Row> {
    let (model, theme) = (ctx.model, ctx.theme);
    let text: &str = match line.kind {
        Kind::Old => &model.old[line.index],
        Kind::New | Kind::Same => &model.new[line.index],
    };
    let colors: Option<&LineColors> = ctx.colors.and_then(|c| match line.kind {
        Kind::Old => c.old.get(line.index),
        Kind::New | Kind::Same => c.new.get(line.index),
    });
    let (sign, base, emph_bg) = match line.kind {
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
    let (mut first, mut cont) = (Vec::new(), Vec::new());
    if model.first_line.is_some() {
        let gutter = match line.numbers {
            Gutter::Both(o, n) => format!("{} {} ", num(o), num(n)),
            Gutter::One(n) => format!("{} ", num(Some(n))),
        };
        let blank = " ".repeat(gutter.chars().count());
        // The diff background runs under the numbers too: the whole row is the line's colour.
        let numbers = Style { bg: base.bg, ..theme.fg(theme.line_number) };
        first.push(Span::styled(gutter, numbers));
        cont.push(Span::styled(blank, numbers));
    }
    first.push(Span::styled(format!("{sign} "), base));
    cont.push(Span::styled(CONTINUED, base.fg(theme.dim.unwrap_or_default())));
    // Added and removed lines lean on the diff colour; unchanged ones carry syntax colour alone.
    let base = if line.kind == Kind::Same { base } else { base.fg(theme.text.unwrap_or_default()) };
    let base = if theme.text.is_none() && line.kind != Kind::Same {
        Style { fg: None, ..base }
    } else {
        base
    };
    let max = width.max(1) * PAINT_ROWS * 4;
    let body = paint(text, colors, line.emph, base, emph_bg, |rgb| theme.syntax(rgb), max);
    // The diff background fills the rest of the row.
    let fill = base.bg.map_or_else(Style::default, |bg| Style::default().bg(bg));
    wrap::rows(&first, &cont, &body, width, ctx.overflow, fill, false)
}

fn unified(ctx: &Ctx, width: usize) -> Vec<Row> {
    let first = ctx.model.first_line.unwrap_or(1);
    let mut out = Vec::new();
    for b in &ctx.model.blocks {
        match b {
            Block::Same(pairs) => {
                for &(o, n) in pairs {
                    let numbers = Gutter::Both(Some(first + o), Some(first + n));
                    let line = DiffLine { kind: Kind::Same, index: n, emph: &[], numbers };
                    out.extend(diff_rows(ctx, line, width));
                }
            }
            Block::Change(olds, news) => {
                for c in olds {
                    let numbers = Gutter::Both(Some(first + c.index), None);
                    let line = DiffLine { kind: Kind::Old, index: c.index, emph: &c.emph, numbers };
                    out.extend(diff_rows(ctx, line, width));
                }
                for c in news {
                    let numbers = Gutter::Both(None, Some(first + c.index));
                    let line = DiffLine { kind: Kind::New, index: c.index, emph: &c.emph, numbers };
                    out.extend(diff_rows(ctx, line, width));
                }
            }
        }
    }
    out
}

fn side_by_side(ctx: &Ctx, width: usize) -> Vec<Row> {
    let first = ctx.model.first_line.unwrap_or(1);
    let half = width.saturating_sub(1) / 2;
    let mut out = Vec::new();
    let mut pair = |l: Vec<Row>, r: Vec<Row>| {
        // The shorter side's rows are blank while the longer one wraps on.
        for k in 0..l.len().max(r.len()) {
            let blank = || vec![Span::raw(" ".repeat(half))];
            let mut row = l.get(k).cloned().unwrap_or_else(blank);
            row.push(Span::styled("│", ctx.theme.fg(ctx.theme.border)));
            row.extend(r.get(k).cloned().unwrap_or_else(blank));
            out.push(row);
        }
    };
    for b in &ctx.model.blocks {
        match b {
            Block::Same(pairs) => {
                for &(o, n) in pairs {
                    let left = DiffLine {
                        kind: Kind::Same,
                        index: n,
                        emph: &[],
                        numbers: Gutter::One(first + o),
                    };
                    let right = DiffLine {
                        kind: Kind::Same,
                        index: n,
                        emph: &[],
                        numbers: Gutter::One(first + n),
                    };
                    pair(diff_rows(ctx, left, half), diff_rows(ctx, right, half));
                }
            }
            Block::Change(olds, news) => {
                // One side of a changed pair: its rows, or none where that side is shorter.
                let side = |kind, c: Option<&Cell>| {
                    c.map_or_else(Vec::new, |c| {
                        let numbers = Gutter::One(first + c.index);
                        diff_rows(
                            ctx,
                            DiffLine { kind, index: c.index, emph: &c.emph, numbers },
                            half,
                        )
                    })
                };
                for k in 0..olds.len().max(news.len()) {
                    pair(side(Kind::Old, olds.get(k)), side(Kind::New, news.get(k)));
                }
            }
        }
    }
    out
}
