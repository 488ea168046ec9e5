//! The hunk list grouped by file, and `draw`, which puts every part of the screen where
//! `app::layout` says: the diff pane is `diff_view`'s, the reply pane `reply`'s, the bars around the
//! panes `status`'s and the dialogs `overlay`'s.
//!
//! Not for: state changes (`app`), colour choice (`theme`), or syntax colour (`highlight`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::diff_model::scope;
use crate::app::layout;
use crate::app::measure::ListRow;
use crate::app::{App, Focus};
use crate::core::review::{HunkState, ReviewHunk};
use crate::ui::diff_view::draw_diff;
use crate::ui::highlight::Highlighter;
use crate::ui::pane::{how_located, pane};
use crate::ui::reply::draw_stream;
use crate::ui::theme::Theme;
use crate::ui::{overlay, status};

/// Draw the whole screen.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, hl: &Highlighter) {
    // A replay re-enacting keys keeps the recorded size (`App::reenacting`): that much is shown,
    // as far as this terminal holds it.
    let area = match app.reenacting {
        true => frame.area().intersection(Rect::new(0, 0, app.size.0, app.size.1)),
        false => frame.area(),
    };
    let panes = layout::panes(area, app);
    if layout::cramped(&panes) {
        // Keys but quitting do nothing then (`App::on_key`): say why, as far as it fits.
        let text = format!(
            "redline: the terminal ({}x{}) is too small to review; make it larger, or q to quit",
            area.width, area.height
        );
        let lines: Vec<ratatui::text::Line> = layout::wrap(&text, area.width.max(1) as usize)
            .into_iter()
            .map(ratatui::text::Line::from)
            .collect();
        frame.render_widget(ratatui::widgets::Paragraph::new(lines), area);
        overlay::draw(frame, area, app, theme);
        return;
    }
    draw_hunks(frame, panes.hunks, app, theme);
    draw_diff(frame, panes.diff, app, theme, hl);
    draw_stream(frame, panes.stream, app, theme);
    status::draw_bars(frame, &panes, app, theme);
    overlay::draw(frame, area, app, theme);
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

/// A hunk's row: state, number, the lines its diff adds and removes, how it was placed, the
/// definition it is in, and in a replay taken over what the recording decided.
fn hunk_row<'a>(app: &App, h: &ReviewHunk, label: &str, theme: &Theme) -> Line<'a> {
    let (add, del) = app.hunk_counts(h);
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
    // A replay the user took over: what the recording decided on this hunk.
    if let Some(recorded) = app.recorded.get(&h.id) {
        spans.push(Span::styled(format!(" ⟲ {recorded}"), theme.fg(theme.dim)));
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
    let c = app.state_counts();
    let total = app.review.hunks().len();
    let mut title = format!(" hunks {}/{total} open ", c.undecided());
    if !app.filter.is_empty() {
        title = format!(" hunks matching /{} ", app.filter);
    }
    let block = pane(title, app.focus == Focus::Hunks, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    // The list's rows are kept by the app; only the rows that show are drawn.
    let list = app.hunk_list();
    let hunks = app.review.hunks();
    let height = inner.height as usize;
    if height == 0 {
        return;
    }
    let selected_row = app
        .selected
        .and_then(|id| app.review.index_of(id))
        .and_then(|i| list.row_of(i))
        .unwrap_or(0);
    let offset = (selected_row + 1).saturating_sub(height);
    let mut lines = Vec::with_capacity(height);
    // Numbers count every hunk of a file, whatever the search shows.
    for row in list.rows.iter().skip(offset).take(height) {
        let line = match *row {
            ListRow::File { first, hunks: n } => {
                let path = &hunks[first].path;
                Line::from(vec![
                    Span::styled(
                        format!("{path} "),
                        theme.fg(theme.accent).add_modifier(Modifier::BOLD),
                    ),
                    Span::styled(format!("({n})"), theme.fg(theme.dim)),
                ])
            }
            ListRow::Hunk(i) => hunk_row(app, &hunks[i], &list.labels[i], theme),
        };
        lines.push(line);
    }
    let rows = &list.rows;
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
