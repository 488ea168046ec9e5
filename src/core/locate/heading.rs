//! What an `@@` header's section heading (`@@ -12,7 +12,8 @@ def load(path):`) says about a
//! place: whether a line encloses it, whether the file still has the heading, and whether the
//! heading (with the header's number) points at another place than the one the hunk's text
//! fits.
//!
//! Not for: choosing among places that fit equally well (`candidates::section_pick` uses
//! [`enclosed_by`] for that), or line numbers alone (`candidates::hint_pick`).

use super::align::{self, Alignment, PatLine};
use super::lines::LineInfo;
use super::refusals::ambiguous;
use super::{Refusal, candidates};
use crate::core::edit::Hunk;

/// The place found is not under the function the header's section heading names, while a
/// weaker place is (`@@ … @@ def refund_order`, its lines found exactly in the twin
/// `cancel_order`, where the user reworded a line of `refund_order` since): the text says one
/// place and the header (its heading and its line number) another. Refused with both as
/// candidates. (A heading need not enclose its hunk: git names the function above, which may
/// have ended; only a rival under it, where the number points, counts.)
pub(super) fn heading_elsewhere(
    hunk: &Hunk,
    pat: &[PatLine],
    file: &[LineInfo],
    chosen: &Alignment,
    hint_shift: isize,
) -> Option<Refusal> {
    let heading = hunk.section.as_deref().map(str::trim).filter(|h| h.len() >= 4)?;
    // Only where the header's line number says the same as its heading: a heading alone may be
    // the nearest one git found above, not the function the lines are in.
    let hint = hunk.old_start_hint? as isize + hint_shift - 1;
    let near = |c: &Alignment| (candidates::implied_start(c) - hint).abs() <= 3;
    if near(chosen) {
        return None;
    }
    let line = |k: usize| file[k].trimmed;
    if enclosed_by(heading, line, chosen.span.0) {
        return None;
    }
    // The best place in each block the heading opens (the enumeration of places keeps only
    // those as exact as the best, and a function edited since is not).
    let depth = |k: usize| file[k].indent.len();
    let under =
        (0..file.len()).filter(|&k| line(k).trim_start().starts_with(heading)).filter_map(|k| {
            let end = (k + 1..file.len())
                .find(|&j| !file[j].is_blank() && depth(j) <= depth(k))
                .unwrap_or(file.len());
            align::align(pat, file, k, end)
        });
    let rival = under.into_iter().find(|c| {
        near(c)
            && c.span.0 != chosen.span.0
            && c.score >= 0.5 * chosen.score
            && enclosed_by(heading, line, c.span.0)
    })?;
    let mut refusal = ambiguous(pat, file, &[chosen, &rival]);
    refusal.message = format!(
        "the hunk's header names `{heading}`, but its lines fit best at line {}, outside it; under it they fit only in part (line {}): the function changed since, or the header is wrong? send the change with the lines as the file has them now",
        chosen.span.0 + 1,
        rival.span.0 + 1
    );
    Some(refusal)
}

/// Whether an `@@` header's section heading names a line the file (`lines`) no longer has
/// anywhere (the function renamed since): the header is stale, and so is its line number.
pub fn stale_heading<'a>(heading: Option<&str>, mut lines: impl Iterator<Item = &'a str>) -> bool {
    heading
        .map(str::trim)
        .is_some_and(|h| !h.is_empty() && !lines.any(|l| l.trim_start().starts_with(h)))
}

/// Whether the line `heading` (an `@@` header's section heading) encloses line `at` of a file
/// whose line `k` is `line(k)`: it stands above, and every line between them is deeper than it
/// or blank (its block has not closed). Git cuts long headings: the file's line may go on
/// past it.
pub fn enclosed_by<'a>(heading: &str, line: impl Fn(usize) -> &'a str, at: usize) -> bool {
    let heading = heading.trim();
    let depth = |t: &str| t.len() - t.trim_start().len();
    let is_heading = |t: &str| {
        let t = t.trim();
        !t.is_empty() && t.starts_with(heading)
    };
    let Some(k) = (0..at).rev().find(|&k| is_heading(line(k))) else { return false };
    let d = depth(line(k));
    (k + 1..at).all(|j| {
        let t = line(j);
        t.trim().is_empty() || depth(t) > d
    })
}
