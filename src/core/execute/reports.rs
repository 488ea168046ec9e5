//! The reports `execute` makes: an edit placed (with how), refused (with why, what was searched
//! and the closest text), or located in parts and applied.
//!
//! Not for: deciding an edit's fate (the rest of `execute`), or the report types themselves
//! (`core::report`, `core::placement`).

use crate::core::edit::{Change, Edit, Hunk};
use crate::core::locate::{Located, MatchKind, Refusal};
use crate::core::placement::{Placement, Strategy};
use crate::core::report::{EditReport, Status};

/// The report of an edit placed (not written yet), with a note on how when there is one.
pub(super) fn placed(
    edit: &Edit,
    path: &str,
    placement: Placement,
    note: Option<&str>,
) -> EditReport {
    EditReport {
        path: path.to_string(),
        format: edit.format,
        status: Status::Placed,
        strategy: Some(placement.strategy),
        similarity: placement.similarity,
        lines: placement.lines,
        reason: note.map(String::from),
        reply_lines: edit.reply_lines,
        searched: None,
        closest: None,
        candidates: Vec::new(),
    }
}

pub(super) fn refused(edit: &Edit, path: String, reason: String) -> EditReport {
    EditReport {
        path,
        format: edit.format,
        status: Status::Refused,
        strategy: None,
        similarity: None,
        lines: None,
        reason: Some(reason),
        reply_lines: edit.reply_lines,
        searched: match &edit.change {
            Change::Modify { hunk } => Some(hunk.old_text()),
            _ => None,
        },
        closest: None,
        candidates: Vec::new(),
    }
}

/// The report of a hunk located (in one or more parts) and applied.
pub(super) fn applied_report(edit: &Edit, path: &str, parts: &[(Hunk, Located)]) -> EditReport {
    let first = parts.iter().map(|(_, l)| l.start).min().unwrap_or(0);
    let last = parts.iter().map(|(_, l)| l.end).max().unwrap_or(0);
    let similarity = parts.iter().map(|(_, l)| l.similarity).fold(1.0, f64::min);
    let matched =
        parts.iter().map(|(_, l)| l.strategy).max_by_key(|s| s.rank()).unwrap_or(MatchKind::Exact);
    let by_hint = parts.iter().any(|(_, l)| l.by_hint);
    let count = parts.len();
    let placement = Placement {
        strategy: Strategy::Located(matched),
        lines: Some((first + 1, last)),
        similarity: Some(round(similarity)),
    };
    let mut r = placed(edit, path, placement, None);
    let mut notes = Vec::new();
    if count > 1 {
        notes.push(format!(
            "applied as {count} separate hunks (changes fused without a new @@ header)"
        ));
    }
    if by_hint {
        notes.push(
            "chosen among equal candidates by the `@@` header (its section heading or line number)"
                .to_string(),
        );
    }
    if !notes.is_empty() {
        r.reason = Some(notes.join("; "));
    }
    r
}

pub(super) fn refusal_report(edit: &Edit, path: &str, refusal: &Refusal) -> EditReport {
    let mut reason = format!("{path}: {}", refusal.message);
    let mut r = refused(edit, path.into(), String::new());
    if let Some(c) = &refusal.closest {
        let lines: Vec<&str> = c.text.lines().collect();
        let shown = lines.iter().take(12).copied().collect::<Vec<_>>().join("\n");
        let more = if lines.len() > 12 {
            format!("\n... ({} more lines)", lines.len() - 12)
        } else {
            String::new()
        };
        reason.push_str(&format!(
            "\nclosest text in the file, lines {}-{} ({:.0}% similar):\n{shown}{more}",
            c.first_line,
            c.first_line + lines.len().max(1) - 1,
            c.similarity * 100.0
        ));
        r.similarity = Some(round(c.similarity));
        r.lines = Some((c.first_line, c.first_line + lines.len().max(1) - 1));
    }
    r.reason = Some(reason);
    r.closest = refusal.closest.clone();
    r.candidates = refusal.candidates.clone();
    r
}

pub(super) fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}
