//! The refusals the locator gives when no single place fits: nothing like the old text (with
//! the closest line for the model to see), or several places alike (named, as candidates a
//! person may choose from).
//!
//! Not for: deciding that a placement is refused (the rest of `locate`).

use super::align::{Alignment, PatLine};
use super::grade::similarity;
use super::lines::{self, LineInfo};
use super::{Candidate, Closest, MAX_CANDIDATES, Refusal, RefusalKind};

/// Places a person may choose among, in file order (at most [`MAX_CANDIDATES`]).
pub(super) fn candidates_of(pat: &[PatLine], places: &[&Alignment]) -> Vec<Candidate> {
    let mut places = places.to_vec();
    places.sort_by_key(|c| c.span.0);
    places.dedup_by_key(|c| c.span.0);
    places
        .iter()
        .take(MAX_CANDIDATES)
        .map(|c| Candidate {
            first_line: c.span.0 + 1,
            last_line: c.span.1.max(c.span.0 + 1),
            similarity: similarity(pat, &c.slots, &[], 0.0),
        })
        .collect()
}

/// The refusal of a hunk that fits several places equally well (`all`, the best first): it
/// names them, and lists them as candidates a person can choose from.
pub(super) fn ambiguous(pat: &[PatLine], file: &[LineInfo], all: &[&Alignment]) -> Refusal {
    let mut places: Vec<&Alignment> = all.to_vec();
    places.sort_by_key(|c| c.span.0);
    places.dedup_by_key(|c| c.span.0);
    let lines: Vec<String> = places.iter().map(|c| (c.span.0 + 1).to_string()).collect();
    let best = all[0];
    let candidates = candidates_of(pat, &places);
    // Places that differ only in indentation are told apart by nothing a model writes reliably
    // (a single line's indentation as written is no evidence): said so, not "equally well".
    let span = |c: &&Alignment| (c.span.0..c.span.1.min(file.len())).map(|i| &file[i]);
    let indented = |c: &&Alignment| span(c).map(|l| l.trimmed).collect::<Vec<_>>();
    let trimmed = |c: &&Alignment| span(c).map(|l| l.trimmed.trim_start()).collect::<Vec<_>>();
    let by_indent = places.iter().all(|c| trimmed(c) == trimmed(&places[0]))
        && places.iter().any(|c| indented(c) != indented(&places[0]));
    let how = if by_indent { "the same lines at different depths" } else { "places equally well" };
    Refusal {
        kind: RefusalKind::Ambiguous,
        message: format!(
            "the old text matches {} {how} (lines {}): include more unchanged lines around the change so that exactly one place fits",
            places.len(),
            lines.join(", ")
        ),
        closest: Some(closest_of(file, best.span, similarity(pat, &best.slots, &[], 0.0))),
        candidates,
    }
}

pub(super) fn closest_of(file: &[LineInfo], span: (usize, usize), similarity: f64) -> Closest {
    let (s, e) = (span.0.min(file.len()), span.1.min(file.len()));
    let text = file[s..e].iter().map(|l| format!("{}\n", l.trimmed)).collect();
    Closest { first_line: s + 1, text, similarity }
}

/// Nothing anchored: find the single most similar file line to the most telling pattern line,
/// so the refusal can point at it.
pub(super) fn not_found(pat: &[PatLine], file: &[LineInfo], searched: &str) -> Refusal {
    let probe = pat.iter().filter(|p| !p.wildcard).max_by_key(|p| p.info.loose_len);
    let mut closest = None;
    if let Some(p) = probe {
        let mut best = (0.0, 0);
        for (j, f) in file.iter().enumerate().take(50_000) {
            if f.is_blank() {
                continue;
            }
            let s = lines::compare(&p.info, f).similarity();
            if s > best.0 {
                best = (s, j);
            }
        }
        if best.0 > 0.0 {
            let lo = best.1;
            let hi = (lo + pat.len()).min(file.len());
            closest = Some(closest_of(file, (lo, hi), best.0));
        }
    }
    let first = searched.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    Refusal {
        kind: RefusalKind::NotFound,
        message: format!(
            "the old text is not in the file (searched for {} lines starting with {:?})",
            pat.len(),
            first
        ),
        closest,
        candidates: Vec::new(),
    }
}
