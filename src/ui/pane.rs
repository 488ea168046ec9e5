//! What the panes share: the bordered block each is drawn in, and the label that says how a
//! hunk was placed (the hunk list and the diff pane's title both show it).
//!
//! Not for: where the panes are (`layout`), or what is drawn in them (`render`, `diff_view`,
//! `reply`, `overlay`).

use ratatui::style::Modifier;
use ratatui::text::Span;
use ratatui::widgets::{Block as BlockWidget, Borders};

use crate::core::report::Status;
use crate::core::review::ReviewHunk;
use crate::ui::theme::Theme;

/// A bordered pane, its title bold when it has the focus.
pub fn pane<'a>(title: String, focused: bool, theme: &Theme) -> BlockWidget<'a> {
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

/// How the hunk was located (`exact`, `fuzzy 93%`, ...), or why it was not (`ambiguous`, `refused`).
pub fn how_located(h: &ReviewHunk) -> String {
    // A refusal is not always "not found": a hunk can fit two places, or a listing read two ways.
    // A conflict says it already: the file changed under the hunk.
    if matches!(h.state, crate::core::review::HunkState::Conflict { .. }) {
        return String::new();
    }
    // Its place is on its way from the worker: nothing is refused yet.
    if h.placing {
        return "placing…".into();
    }
    if h.report.status == Status::Refused {
        let ambiguous = !h.report.candidates.is_empty();
        return if ambiguous { "ambiguous" } else { "refused" }.into();
    }
    match (&h.report.strategy, h.report.similarity) {
        (Some(s), Some(sim)) if sim < 1.0 => format!("{s} {}%", (sim * 100.0).floor() as u32),
        (Some(s), _) => s.to_string(),
        (None, _) => String::new(),
    }
}
