//! What the diff pane says above a hunk's diff (why it failed or conflicts, the places it
//! could go, that it deletes its file), as text with a tone the ui colours, and how many of
//! the pane's rows that header and the diff take: the app bounds the pane's scrolling with
//! them, the ui draws them.
//!
//! Not for: drawing (`ui::diff_view`), the diff itself (`diff_model`, `measure`).

use ratatui::layout::{Margin, Rect};
use unicode_width::UnicodeWidthStr;

use crate::app::App;
use crate::app::keymap::Action;
use crate::core::review::{HunkState, ReviewHunk};

/// How a header line is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Failed,
    Dim,
    Removed,
}

/// A header line: a key to press before it (a candidate's number), its text, its tone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderLine {
    pub key: Option<String>,
    pub text: String,
    pub tone: Tone,
}

impl HeaderLine {
    fn new(text: String, tone: Tone) -> HeaderLine {
        HeaderLine { key: None, text, tone }
    }

    /// Display columns.
    pub fn width(&self) -> usize {
        self.key.as_deref().map_or(0, UnicodeWidthStr::width) + self.text.width()
    }
}

/// File lines shown of each candidate place, enough to tell them apart.
const CANDIDATE_LINES: usize = 2;

/// Why a hunk failed or conflicts (or that it deletes its file), above its diff.
pub fn header(app: &App, h: &ReviewHunk) -> Vec<HeaderLine> {
    let mut header = Vec::new();
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
            header.push(HeaderLine::new(format!("✗ {first}"), Tone::Failed));
            if picking(app, h) {
                // The candidates say more than the closest text: one of them is it.
                header.extend(candidate_lines(app, h));
                return header;
            }
            for rest in why_lines {
                header.push(HeaderLine::new(format!("  {rest}"), Tone::Dim));
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
            header.push(HeaderLine::new(hint, Tone::Dim));
        }
        _ if h.placing => {
            header.push(HeaderLine::new(
                "placing it in the file… the hunk's own text is shown until then".into(),
                Tone::Dim,
            ));
        }
        _ if h.preview.deletes => {
            header.push(HeaderLine::new("deletes the file".into(), Tone::Removed));
        }
        _ => {}
    }
    header
}

/// The places an ambiguous hunk fits, numbered by their keys: where each is, and what tells
/// them apart, the definition it is in (the places' own lines are alike, or they would not
/// tie) or else its first lines as they are in the file; then what the keys do.
fn candidate_lines(app: &App, h: &ReviewHunk) -> Vec<HeaderLine> {
    let text = match app.review.source(&h.path) {
        Some(crate::core::file::Source::Text(t)) => t.as_str(),
        _ => "",
    };
    let lang = crate::core::scope::Lang::of(&h.path);
    let mut lines = Vec::new();
    for (i, c) in app.review.candidates(h.id).iter().enumerate() {
        let rough = if c.similarity < 0.995 {
            format!("  ({:.0}% similar)", c.similarity * 100.0)
        } else {
            String::new()
        };
        let row = |key: String, at: usize, what: String| HeaderLine {
            key: Some(key),
            text: format!("{at:>5} │ {what}"),
            tone: Tone::Dim,
        };
        let key = format!("  {} ", i + 1);
        if let Some(scope) = crate::core::scope::enclosing(text, c.first_line - 1, lang) {
            lines.push(row(key, c.first_line, format!("in {scope}{rough}")));
            continue;
        }
        let rows = CANDIDATE_LINES.min(c.last_line + 1 - c.first_line);
        for (k, l) in text.lines().skip(c.first_line - 1).take(rows).enumerate() {
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
    lines.push(HeaderLine::new(hint, Tone::Dim));
    lines
}

/// Whether the hunk waits for a person to pick its place: its candidates are then what the
/// pane is for, more than its own text.
pub fn picking(app: &App, h: &ReviewHunk) -> bool {
    !app.review.candidates(h.id).is_empty()
}

/// Rows the header takes in a pane `inner` (inside its border), wrapped: at most half the
/// pane, or all but two rows of it while the hunk's candidates are listed (at 80x24 half the
/// pane cut the list after the first).
pub fn header_height(header: &[HeaderLine], inner: Rect, picking: bool) -> usize {
    let width = (inner.width as usize).max(1);
    header.iter().map(|l| l.width().div_ceil(width).max(1)).sum::<usize>().min(cap(inner, picking))
}

/// The rows the header may take: half the pane, or all but two rows while picking a place.
fn cap(inner: Rect, picking: bool) -> usize {
    let height = inner.height as usize;
    if picking { height.saturating_sub(2) } else { height / 2 }
}

/// The header as it fits the pane at `inner`: when its lines take more rows than it may, the
/// middle ones give way to a `…` line, and its first line (why) and last (what to do, which
/// also parts it from the hunk's text below) stay whole.
pub fn fitted_header(app: &App, h: &ReviewHunk, inner: Rect) -> Vec<HeaderLine> {
    let lines = header(app, h);
    let width = (inner.width as usize).max(1);
    let rows = |l: &HeaderLine| l.width().div_ceil(width).max(1);
    let cap = cap(inner, picking(app, h));
    if lines.len() < 3 || lines.iter().map(rows).sum::<usize>() <= cap {
        return lines;
    }
    let (first, last) = (&lines[0], &lines[lines.len() - 1]);
    let mut room = cap.saturating_sub(rows(first) + rows(last) + 1);
    let mut out = vec![first.clone()];
    for l in &lines[1..lines.len() - 1] {
        if rows(l) > room {
            break;
        }
        room -= rows(l);
        out.push(l.clone());
    }
    out.push(HeaderLine::new("  …".into(), Tone::Dim));
    out.push(last.clone());
    out
}

impl App {
    /// The selected hunk's diff in the pane at `area` (its border included): the rows that
    /// show below the header, and the rows there are. Measured on the rows the pane draws,
    /// wrapped or not, so scrolling stops where the drawing ends.
    pub fn diff_extent(&self, area: Rect) -> Option<(usize, usize)> {
        let h = self.selected_hunk()?;
        let inner = area.inner(Margin::new(1, 1));
        let head = header_height(&fitted_header(self, h, inner), inner, picking(self, h));
        let shown = (inner.height as usize).saturating_sub(head);
        let total = self.diff_rows(inner.width as usize)?;
        Some((shown, total))
    }
}
