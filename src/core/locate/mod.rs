//! Locating a hunk in a file by content.
//!
//! Candidates come from anchor lines: pattern lines that occur rarely in the file, compared
//! without whitespace. Each anchor occurrence votes for where the pattern starts; nearby votes
//! form a window, and [`align::align`] finds the best alignment inside each window, tolerating
//! missing and invented lines, copy errors, indentation and whitespace changes, and `...`
//! elisions. The best candidate wins only if it is clearly better than every other disjoint
//! candidate: ambiguity is a refusal, never a guess (a header's line number may break a tie).
//!
//! What this module does not do: change text (see `core::apply`).

pub mod align;
mod candidates;
mod elided;
mod forgotten;
mod grade;
mod heading;
pub mod lines;
pub mod partial;
mod refusals;
mod split;
mod twin;

pub use heading::{enclosed_by, stale_heading};
pub use split::{locate_parts, locate_parts_indexed};

use serde::Serialize;

use crate::core::edit::{Hunk, LineKind};
use crate::core::elision::is_placeholder;
use align::{Alignment, PatLine, Slot};
use candidates::{
    candidate_windows, collect_candidates, consistent_indent, exact_lines, hint_pick, same_place,
    same_reading, section_pick,
};
use elided::{check_elision_ends, resolve_empty_elisions};
use forgotten::{forced_adds, mark_forgotten_adds};
use grade::{similarity, strategy_of};
use heading::heading_elsewhere;
use lines::{FileIndex, Likeness, LineInfo};
use refusals::{ambiguous, closest_of, not_found};
use twin::settle_twin;

/// How closely a hunk's old text matched where it was located. The report names it through
/// [`crate::core::placement::Strategy::Located`], which owns the names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchKind {
    /// Every old line found as written.
    Exact,
    /// Found but for trailing whitespace or spacing inside lines.
    Whitespace,
    /// Found but for leading whitespace (a shifted hunk, tabs for spaces).
    Indentation,
    /// Found with `...` standing for unchanged lines.
    Elision,
    /// Found with missing, extra or mistyped lines.
    Fuzzy,
}

/// What one hunk line became once located.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum HunkSlot {
    /// A context line found at this file line: the file's own text is kept.
    Kept(usize, Likeness),
    /// A removed line found at this file line.
    Removed(usize, Likeness),
    /// A `...` standing for file lines `start..end`, kept.
    Elided(usize, usize),
    /// An added line.
    Add,
    /// A context line not in the file, next to added lines: a forgotten `+`; added.
    ForgottenAdd,
    /// A context line not in the file (invented or mistyped beyond recognition): ignored.
    Ignored,
}

/// A located hunk.
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    /// One slot per hunk line.
    pub slots: Vec<HunkSlot>,
    /// File lines `start..end` are rewritten (0-based, end exclusive).
    pub start: usize,
    pub end: usize,
    pub similarity: f64,
    pub strategy: MatchKind,
    /// Set when a header's line number chose between equal candidates.
    pub by_hint: bool,
}

/// Why a hunk could not be located.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RefusalKind {
    /// Nothing in the file resembles the old text.
    NotFound,
    /// The best match is too weak to trust.
    TooWeak,
    /// Two or more places match equally well.
    Ambiguous,
    /// Lines the hunk removes are not in the file.
    RemovedNotFound,
    /// A `...` whose extent cannot be known, with new lines beside it.
    UnanchoredElision,
    /// The old text has nothing to search for.
    EmptyOldText,
}

/// A refusal, with what a model needs to fix its edit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Refusal {
    pub kind: RefusalKind,
    pub message: String,
    /// The closest text found: 1-based first line, the lines, and their similarity.
    pub closest: Option<Closest>,
    /// For an ambiguous hunk: the places that fit equally well, in file order (at most
    /// [`MAX_CANDIDATES`]), so that a person can choose one ([`Hunk::pick`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<Candidate>,
}

/// One of the places an ambiguous hunk fits: 1-based inclusive lines of the file and how
/// similar they are to the hunk's old text.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Candidate {
    pub first_line: usize,
    pub last_line: usize,
    pub similarity: f64,
}

/// Most candidates a refusal lists: one digit key each on the review screen.
pub const MAX_CANDIDATES: usize = 9;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Closest {
    pub first_line: usize,
    pub text: String,
    pub similarity: f64,
}

/// Below this similarity a match is refused. (70% was tried: it refused a watch-mode edit whose
/// context left out the line's `# AI!` comment, found at 50%.)
pub const MIN_SIMILARITY: f64 = 0.5;

/// The least similarity for a placement that takes some of the hunk's context for lines whose
/// `+` the model forgot (invented context taken for them placed an edit at 50%, while the right
/// ones on five corpora were all above 61%), or passes over a context line of code the file
/// does not have (one passed over, another matched to a look-alike, placed an edit at 55%).
const MIN_SIMILARITY_FORGOTTEN: f64 = 0.6;

/// Two candidates closer than this in score cannot be told apart.
pub(super) const AMBIGUITY_MARGIN: f64 = 0.15;

/// Locate `hunk` in `file` (line texts). `hint_shift` is how far earlier hunks moved lines,
/// applied to the header's line number.
pub fn locate(hunk: &Hunk, file: &[String], hint_shift: isize) -> Result<Located, Refusal> {
    let infos: Vec<LineInfo> = file.iter().map(|l| LineInfo::new(l)).collect();
    locate_in(hunk, &infos, hint_shift)
}

pub fn locate_in(hunk: &Hunk, file: &[LineInfo], hint_shift: isize) -> Result<Located, Refusal> {
    locate_indexed(hunk, file, &FileIndex::new(file), hint_shift)
}

/// [`locate_in`] with the file's index built by the caller, once for every hunk located in the
/// same text (`index` must be `FileIndex::new(file)`).
pub fn locate_indexed(
    hunk: &Hunk,
    file: &[LineInfo],
    index: &FileIndex,
    hint_shift: isize,
) -> Result<Located, Refusal> {
    // The pattern: old lines, with the hunk line each came from.
    let mut pat = Vec::new();
    let mut origin = Vec::new();
    let forced = forced_adds(hunk);
    for (k, l) in hunk.lines.iter().enumerate() {
        if l.kind == LineKind::Add || forced[k] {
            continue;
        }
        pat.push(PatLine {
            info: LineInfo::new(&l.text),
            wildcard: l.kind == LineKind::Context && is_placeholder(&l.text),
        });
        origin.push(k);
    }
    if pat.iter().all(|p| p.info.is_blank() || p.wildcard) {
        return Err(Refusal {
            kind: RefusalKind::EmptyOldText,
            message: "the hunk's old text has no lines to search for (only blank lines or `...`): include the unchanged lines around the change".into(),
            closest: None,
            candidates: Vec::new(),
        });
    }
    let windows = candidate_windows(&pat, file, index);
    let mut candidates: Vec<Alignment> = Vec::new();
    for (lo, hi) in windows {
        collect_candidates(&pat, file, index, lo, hi, &mut candidates);
    }
    candidates.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.span.0.cmp(&b.span.0)));
    let Some(best) = candidates.first().cloned() else {
        return Err(not_found(&pat, file, &hunk.old_text()));
    };
    let mut by_hint = false;
    // The places about as good as the best: of these, one whose lines all moved by the same
    // indentation beats one that matches some lines as written and others shifted, and then one
    // matching more lines as written beats one that matches them re-indented. What is left tied
    // is ambiguous.
    let near: Vec<&Alignment> = candidates
        .iter()
        .filter(|c| c.score >= best.score - AMBIGUITY_MARGIN && same_reading(&pat, c, &best))
        .collect();
    // (A single line matching as written is no evidence against a shifted reading.)
    let quality = |c: &Alignment| {
        let exact = exact_lines(&pat, c);
        (consistent_indent(&pat, file, c), if exact >= 2 { exact } else { 0 })
    };
    let top = near.iter().map(|c| quality(c)).max().expect("the best is near itself");
    let best = (*near.iter().find(|c| quality(c) == top).expect("one has the top quality")).clone();
    let rivals: Vec<&Alignment> =
        near.iter().copied().filter(|c| quality(c) == top && !same_place(&pat, c, &best)).collect();
    let mut chosen = best.clone();
    if !rivals.is_empty() {
        let mut all = vec![&best];
        all.extend(rivals.iter().copied());
        // A place the user chose among the candidates wins over the header's line number.
        let picked = hunk.pick.and_then(|p| all.iter().copied().find(|c| c.span.0 + 1 == p));
        // The header's section heading names the line that encloses the place, as the model
        // saw the file: where it encloses only one of the places, it beats a line number that
        // may be stale (lines added above since).
        let by_section = || section_pick(hunk.section.as_deref(), file, &all);
        // A heading the file no longer has anywhere (the function renamed since) says the
        // header is stale: its line number, from the same file, decides nothing.
        let stale = stale_heading(hunk.section.as_deref(), file.iter().map(|l| l.trimmed));
        let by_number = || hint_pick(hunk.old_start_hint, hint_shift, &all).filter(|_| !stale);
        match picked.or_else(by_section).or_else(by_number) {
            Some(pick) => {
                chosen = pick.clone();
                by_hint = picked.is_none();
            }
            None => {
                let mut refusal = ambiguous(&pat, file, &all);
                if let Some(h) = hunk.section.as_deref().filter(|_| stale) {
                    refusal.message += &format!(
                        " (the header names `{}`, which the file does not have: its line number is not trusted either)",
                        h.trim()
                    );
                }
                return Err(refusal);
            }
        }
    }
    if hunk.pick.is_none()
        && let Some(message) = far_from_its_number(hunk, hint_shift, &chosen, file)
    {
        return Err(Refusal {
            kind: RefusalKind::TooWeak,
            message,
            closest: None,
            candidates: Vec::new(),
        });
    }
    if hunk.pick.is_none()
        && let Some(mut refusal) = heading_elsewhere(hunk, &pat, file, &chosen, hint_shift)
    {
        refusal.kind = RefusalKind::Ambiguous;
        return Err(refusal);
    }
    let mut chosen = settle_twin(hunk, &pat, file, index, chosen)?;
    drop_stray_closers(&pat, file, &mut chosen);
    finish(hunk, &pat, &origin, file, chosen, by_hint)
}

/// A hunk with no context (`diff -U0`) has only its line number to say where it goes: short
/// lines that tell little (`set -x`, `}`), found well away from it, may be another copy of them
/// (the one left once the edit was made at the copy it meant). Why it is not taken, or `None`.
///
/// Lines that say more are not taken either when the header's section heading names a line
/// the file has that does not enclose the place: number and heading both point elsewhere
/// (the copy the edit meant is gone, made by an earlier run, and this one is its twin's).
fn far_from_its_number(
    hunk: &Hunk,
    shift: isize,
    chosen: &Alignment,
    file: &[LineInfo],
) -> Option<String> {
    // Only a diff's own number: a SEARCH/REPLACE block's hint is the review's guess of where
    // its lines went after the file changed (another program may have moved them anywhere).
    if !hunk.marked {
        return None;
    }
    let hint = hunk.old_start_hint? as isize + shift - 1;
    if hunk.lines.iter().any(|l| l.kind == LineKind::Context && !l.text.trim().is_empty()) {
        return None;
    }
    let removed: Vec<&str> = (hunk.lines.iter())
        .filter(|l| l.kind == LineKind::Remove && !l.text.trim().is_empty())
        .map(|l| l.text.trim())
        .collect();
    let short = !removed.is_empty() && removed.iter().all(|l| l.chars().count() < 16);
    let off = (candidates::implied_start(chosen) - hint).abs();
    if off < 3 || removed.is_empty() {
        return None;
    }
    let heading = hunk.section.as_deref().map(str::trim).filter(|h| h.len() >= 4);
    let line = |k: usize| file[k].trimmed;
    let elsewhere = heading.filter(|h| {
        !stale_heading(Some(h), file.iter().map(|l| l.trimmed))
            && !enclosed_by(h, line, chosen.span.0)
    });
    if let Some(h) = elsewhere {
        return Some(format!(
            "the hunk has no context, and its lines ({:?}) stand {off} lines from where its header puts them (line {}), outside `{h}`, which the header names: another copy of them? send the lines around it",
            removed[0],
            hint + 1
        ));
    }
    short.then(|| {
        format!(
            "the hunk has no context, and its lines ({:?}) stand {off} lines from where its header puts them (line {}): too little to tell it is the place; send the lines around it",
            removed[0],
            hint + 1
        )
    })
}

/// A closing line (`}`, `end`) paired with a file line at another indentation than every other
/// line of the place is a different closer: the model's `}` that ends the block around, paired
/// with the `}` of the function inside it that the model left out. Pairing them re-indents the
/// new lines into the wrong block; unpaired, the line is context to find after the place.
fn drop_stray_closers(pat: &[PatLine], file: &[LineInfo], a: &mut Alignment) {
    let closer = |p: &PatLine| crate::core::indent::is_closer(p.info.trimmed);
    let matched = || {
        pat.iter().zip(&a.slots).filter_map(|(p, s)| match *s {
            Slot::Line(f, _) if !p.info.is_blank() && !closer(p) => Some((p, &file[f])),
            _ => None,
        })
    };
    let mut deltas = matched().map(|(p, f)| align::indent_delta(p, f));
    let Some(delta) = deltas.next() else { return };
    if !deltas.all(|d| d == delta) {
        return;
    }
    // Each line as its indentation alone (what `indent::consistent` reads), with a mark so
    // that it is not blank; made only for a closer shifted unlike the rest.
    let shape = |l: &LineInfo| format!("{}x", l.indent);
    let mut others: Option<Vec<(String, String)>> = None;
    let mut stray = Vec::new();
    for (k, (p, slot)) in pat.iter().zip(&a.slots).enumerate() {
        let Slot::Line(f, _) = *slot else { continue };
        if !closer(p) || align::indent_delta(p, &file[f]) == delta {
            continue;
        }
        // Another shift than the other lines', unless one mapping (a scale of the model's step
        // to the file's, tabs for the file's unit) explains the closer with them.
        let others = others
            .get_or_insert_with(|| matched().map(|(p, f)| (shape(&p.info), shape(f))).collect());
        let with = (shape(&p.info), shape(&file[f]));
        let pairs = others.iter().chain(std::iter::once(&with));
        if !crate::core::indent::consistent(pairs.map(|(p, f)| (p.as_str(), f.as_str()))) {
            stray.push(k);
        }
    }
    for k in stray {
        a.slots[k] = Slot::Unmatched;
    }
}

/// Turn the chosen alignment into per-hunk-line slots, judge it, and name the strategy.
fn finish(
    hunk: &Hunk,
    pat: &[PatLine],
    origin: &[usize],
    file: &[LineInfo],
    a: Alignment,
    by_hint: bool,
) -> Result<Located, Refusal> {
    let forced = forced_adds(hunk);
    let forced_weight: f64 = hunk
        .lines
        .iter()
        .zip(&forced)
        .filter(|(_, f)| **f)
        .map(|(l, _)| LineInfo::new(&l.text).weight())
        .sum();
    let mut slots = slots_of(hunk, pat, origin, file, &a, &forced)?;
    mark_forgotten_adds(hunk, &mut slots, file).map_err(|message| Refusal {
        kind: RefusalKind::TooWeak,
        message,
        closest: None,
        candidates: Vec::new(),
    })?;
    resolve_empty_elisions(hunk, &mut slots)?;
    check_elision_ends(hunk, &slots, file)?;
    let mut span = a.span;
    keep_blank_edges(hunk, &mut slots, file, &mut span);
    let forgotten: Vec<usize> = origin
        .iter()
        .enumerate()
        .filter(|(_, k)| slots[**k] == HunkSlot::ForgottenAdd)
        .map(|(p, _)| p)
        .collect();
    let sim = similarity(pat, &a.slots, &forgotten, forced_weight);
    // Context the file does not have, taken for a forgotten `+` or passed over as invented
    // code: either way the place rests on fewer of the model's lines, and needs more of them.
    // Not invented: a dropped `}` or blank line (a common slip), or a line the file holds with
    // more on it (`def load(path):` for `def load(path):  # AI! read it as utf-8`).
    let invented = hunk.lines.iter().zip(&slots).any(|(l, s)| {
        let text = l.text.trim();
        *s == HunkSlot::Ignored
            && text.chars().filter(|c| c.is_alphanumeric()).count() >= 3
            && !file.iter().any(|f| f.trimmed.contains(text))
    });
    let needed =
        if forgotten.is_empty() && !invented { MIN_SIMILARITY } else { MIN_SIMILARITY_FORGOTTEN };
    if sim < needed {
        return Err(Refusal {
            kind: RefusalKind::TooWeak,
            message: format!(
                "the old text is only {:.0}% similar to the closest lines in the file (at least {:.0}% needed): copy the lines to change exactly as they are",
                sim * 100.0,
                needed * 100.0
            ),
            closest: Some(closest_of(file, a.span, sim)),
            candidates: Vec::new(),
        });
    }
    let strategy = strategy_of(&slots, span, hunk);
    Ok(Located { slots, start: span.0, end: span.1, similarity: sim, strategy, by_hint })
}

/// Each hunk line's slot in the chosen alignment (added lines, those `forced` taken for new
/// lines whose `+` was forgotten); a refusal for a removed `...` or a removed line not found.
fn slots_of(
    hunk: &Hunk,
    pat: &[PatLine],
    origin: &[usize],
    file: &[LineInfo],
    a: &Alignment,
    forced: &[bool],
) -> Result<Vec<HunkSlot>, Refusal> {
    let mut slots: Vec<HunkSlot> =
        forced.iter().map(|f| if *f { HunkSlot::ForgottenAdd } else { HunkSlot::Add }).collect();
    for (p, slot) in a.slots.iter().enumerate() {
        let k = origin[p];
        let remove = hunk.lines[k].kind == LineKind::Remove;
        slots[k] = match (*slot, remove) {
            (Slot::Line(f, l), false) => HunkSlot::Kept(f, l),
            (Slot::Line(f, l), true) => HunkSlot::Removed(f, l),
            (Slot::Wild(s, e), false) => HunkSlot::Elided(s, e),
            (Slot::Wild(..), true) => {
                return Err(Refusal {
                    kind: RefusalKind::UnanchoredElision,
                    message: "the hunk removes a `...` line: say exactly which lines to remove instead of eliding them".into(),
                    closest: None,
                    candidates: Vec::new(),
                });
            }
            (Slot::Unmatched, _) if pat[p].wildcard => HunkSlot::Elided(usize::MAX, usize::MAX),
            (Slot::Unmatched, false) => HunkSlot::Ignored,
            (Slot::Unmatched, true) => {
                if pat[p].info.is_blank() {
                    HunkSlot::Ignored
                } else {
                    let sim = similarity(pat, &a.slots, &[], 0.0);
                    return Err(Refusal {
                        kind: RefusalKind::RemovedNotFound,
                        message: format!(
                            "a line the hunk removes is not in the file near its other lines: {:?}",
                            hunk.lines[k].text.trim()
                        ),
                        closest: Some(closest_of(file, a.span, sim)),
                        candidates: Vec::new(),
                    });
                }
            }
        };
    }
    Ok(slots)
}

/// Blank context lines at a hunk's edges that the alignment left unmatched while the file has
/// blank lines right there: they are those lines. A blank line weighs nothing, so on a tie the
/// match ends before it; new lines the model put after it (a function added after `}` and a
/// blank line) then went before it, and the file got its blank lines on the wrong side.
fn keep_blank_edges(
    hunk: &Hunk,
    slots: &mut [HunkSlot],
    file: &[LineInfo],
    span: &mut (usize, usize),
) {
    let place = |s: &HunkSlot| match *s {
        HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => Some((f, f + 1)),
        HunkSlot::Elided(a, b) if a != usize::MAX => Some((a, b)),
        _ => None,
    };
    let blank_ignored = |k: usize, slots: &[HunkSlot]| {
        hunk.lines[k].kind == LineKind::Context
            && hunk.lines[k].text.trim().is_empty()
            && slots[k] == HunkSlot::Ignored
    };
    let Some(last) = (0..slots.len()).rev().find(|&k| place(&slots[k]).is_some()) else { return };
    let Some(first) = (0..slots.len()).find(|&k| place(&slots[k]).is_some()) else { return };
    let mut next = place(&slots[last]).map_or(0, |(_, e)| e);
    for k in last + 1..slots.len() {
        match hunk.lines[k].kind {
            LineKind::Add => continue,
            _ if blank_ignored(k, slots) && file.get(next).is_some_and(LineInfo::is_blank) => {
                slots[k] = HunkSlot::Kept(next, Likeness::Same);
                next += 1;
                span.1 = span.1.max(next);
            }
            _ => break,
        }
    }
    let mut before = place(&slots[first]).map_or(0, |(s, _)| s);
    for k in (0..first).rev() {
        match hunk.lines[k].kind {
            LineKind::Add => continue,
            _ if blank_ignored(k, slots)
                && before > 0
                && file.get(before - 1).is_some_and(LineInfo::is_blank) =>
            {
                before -= 1;
                slots[k] = HunkSlot::Kept(before, Likeness::Same);
                span.0 = span.0.min(before);
            }
            _ => break,
        }
    }
}

#[cfg(test)]
mod tests;
