//! The diff pane: the selected hunk's title (number, path, scope, state, where it goes), why it
//! failed or conflicts, and its diff, unified or side by side, each line wrapped onto
//! continuation rows (`↪`, numbers on the first row only) or cut to a window that scrolls
//! sideways (`‹ ›` where text is hidden).
//!
//! Not for: building the diff (`app::diff_model`) or measuring it (`app::measure`), the
//! conflict's three sides (`ui::conflict`), or the other panes (`ui::render`).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::app::diff_model::{Block, Cell, DiffModel, scope};
use crate::app::diff_pane::{self, HeaderLine, Tone, header_height, picking};
use crate::app::measure::{DiffLine as ShownLine, half};
use crate::app::{App, Focus, ViewMode};
use crate::core::review::{HunkState, ReviewHunk};
use crate::ui::conflict::three_way;
use crate::ui::diff::{LineColors, paint};
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

/// Why a hunk failed or conflicts (or that it deletes its file), above its diff: the app's
/// text in the theme's colours.
fn header<'a>(lines: &[HeaderLine], theme: &Theme) -> Vec<Line<'a>> {
    let key_style = theme.fg(theme.accent).add_modifier(ratatui::style::Modifier::BOLD);
    lines
        .iter()
        .map(|l| {
            let style = match l.tone {
                Tone::Failed => theme.fg(theme.failed),
                Tone::Dim => theme.fg(theme.dim),
                Tone::Removed => theme.fg(theme.removed),
            };
            match &l.key {
                Some(key) => Line::from(vec![
                    Span::styled(key.clone(), key_style),
                    Span::styled(l.text.clone(), style),
                ]),
                None => Line::styled(l.text.clone(), style),
            }
        })
        .collect()
}

/// Draw the diff pane.
pub fn draw_diff(frame: &mut Frame, area: Rect, app: &App, theme: &Theme, hl: &Highlighter) {
    let focused = app.focus == Focus::Diff;
    let Some(h) = app.selected_hunk() else {
        frame.render_widget(pane(" diff ".into(), focused, theme), area);
        return;
    };
    let list = app.hunk_list();
    let index = app.review.index_of(h.id).unwrap_or(0);
    let block = pane(title(app, h, &list.labels[index]), focused, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let text = diff_pane::fitted_header(app, h, inner);
    let header_rows = header_height(&text, inner, picking(app, h));
    let [head, body] =
        Layout::vertical([Constraint::Length(header_rows as u16), Constraint::Min(0)]).areas(inner);
    // The header (why a hunk failed) always wraps.
    frame.render_widget(Paragraph::new(header(&text, theme)).wrap(Wrap { trim: false }), head);
    let (width, height) = (inner.width as usize, body.height as usize);
    let lines: Vec<Line> = if let Some(view) = app.review.conflict_view(h.id) {
        let side_by_side = app.view == ViewMode::SideBySide;
        three_way(&view, theme, side_by_side, app.overflow(), width)
            .into_iter()
            .skip(app.diff_scroll)
            .take(height)
            .map(Line::from)
            .collect()
    } else {
        // Only the lines that show are painted: the app keeps the rows each line takes.
        let Some((model, window)) = app.diff_window(width, app.diff_scroll, height) else {
            return;
        };
        let colors = hl.get(h.id, &model);
        let ctx = Ctx { model: &model, colors, theme, overflow: app.overflow() };
        window
            .lines
            .iter()
            .flat_map(|&line| match app.view {
                ViewMode::Unified => unified(&ctx, line, width),
                ViewMode::SideBySide => side_by_side(&ctx, line, width),
            })
            .skip(window.skip)
            .take(window.take)
            .map(Line::from)
            .collect()
    };
    frame.render_widget(Paragraph::new(lines), body);
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

/// A diff line's rows in the unified view.
fn unified(ctx: &Ctx, line: ShownLine, width: usize) -> Vec<Row> {
    let first = ctx.model.first_line.unwrap_or(1);
    let cell = |block: usize, new: bool, k: usize| match &ctx.model.blocks[block] {
        Block::Change(olds, news) => {
            if new {
                &news[k]
            } else {
                &olds[k]
            }
        }
        Block::Same(_) => unreachable!("a changed line is in a changed block"),
    };
    let line = match line {
        ShownLine::Same(o, n) => {
            let numbers = Gutter::Both(Some(first + o), Some(first + n));
            DiffLine { kind: Kind::Same, index: n, emph: &[], numbers }
        }
        ShownLine::Old { block, k } => {
            let c = cell(block, false, k);
            let numbers = Gutter::Both(Some(first + c.index), None);
            DiffLine { kind: Kind::Old, index: c.index, emph: &c.emph, numbers }
        }
        ShownLine::New { block, k } => {
            let c = cell(block, true, k);
            let numbers = Gutter::Both(None, Some(first + c.index));
            DiffLine { kind: Kind::New, index: c.index, emph: &c.emph, numbers }
        }
        ShownLine::Pair { .. } => unreachable!("pairs are side by side"),
    };
    diff_rows(ctx, line, width)
}

/// A diff line's rows side by side: the two sides' rows next to each other.
fn side_by_side(ctx: &Ctx, line: ShownLine, width: usize) -> Vec<Row> {
    let first = ctx.model.first_line.unwrap_or(1);
    let half = half(width);
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
    match line {
        ShownLine::Same(o, n) => {
            let side = |number| DiffLine {
                kind: Kind::Same,
                index: n,
                emph: &[],
                numbers: Gutter::One(first + number),
            };
            pair(diff_rows(ctx, side(o), half), diff_rows(ctx, side(n), half));
        }
        ShownLine::Pair { block, k } => {
            let Block::Change(olds, news) = &ctx.model.blocks[block] else {
                unreachable!("a changed line is in a changed block")
            };
            // One side of a changed pair: its rows, or none where that side is shorter.
            let side = |kind, c: Option<&Cell>| {
                c.map_or_else(Vec::new, |c| {
                    let numbers = Gutter::One(first + c.index);
                    diff_rows(ctx, DiffLine { kind, index: c.index, emph: &c.emph, numbers }, half)
                })
            };
            pair(side(Kind::Old, olds.get(k)), side(Kind::New, news.get(k)));
        }
        ShownLine::Old { .. } | ShownLine::New { .. } => unreachable!("unified lines"),
    }
    out
}
