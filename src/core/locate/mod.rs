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
pub mod lines;
pub mod partial;
mod split;

pub use split::{locate_parts, locate_parts_indexed};

use serde::Serialize;

use crate::core::edit::{Hunk, LineKind};
use crate::core::elision::is_placeholder;
use align::{Alignment, PatLine, Slot};
use candidates::{
    candidate_windows, collect_candidates, consistent_indent, exact_lines, hint_pick, same_place,
    same_reading,
};
use lines::{FileIndex, Likeness, LineInfo};

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
/// `+` the model forgot: invented context taken for them placed an edit at 50%, while the right
/// ones on five corpora were all above 61%.
const MIN_SIMILARITY_FORGOTTEN: f64 = 0.6;

/// Two candidates closer than this in score cannot be told apart.
const AMBIGUITY_MARGIN: f64 = 0.15;

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
    let searched = hunk.old_text();
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
        return Err(not_found(&pat, file, &searched));
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
        match picked.or_else(|| hint_pick(hunk.old_start_hint, hint_shift, &all)) {
            Some(pick) => {
                chosen = pick.clone();
                by_hint = picked.is_none();
            }
            None => return Err(ambiguous(&pat, file, &all)),
        }
    }
    if let Some(refusal) = twin_line(&pat, file, index, &chosen) {
        return Err(refusal);
    }
    drop_stray_closers(&pat, file, &mut chosen);
    finish(hunk, &pat, &origin, file, chosen, by_hint)
}

/// A closing line (`}`, `end`) paired with a file line at another indentation than every other
/// line of the place is a different closer: the model's `}` that ends the block around, paired
/// with the `}` of the function inside it that the model left out. Pairing them re-indents the
/// new lines into the wrong block; unpaired, the line is context to find after the place.
fn drop_stray_closers(pat: &[PatLine], file: &[LineInfo], a: &mut Alignment) {
    let closer = |p: &PatLine| crate::core::indent::is_closer(p.info.trimmed);
    let mut others = pat.iter().zip(&a.slots).filter_map(|(p, s)| match s {
        Slot::Line(f, _) if !p.info.is_blank() && !closer(p) => {
            Some(align::indent_delta(p, &file[*f]))
        }
        _ => None,
    });
    let Some(delta) = others.next() else { return };
    if !others.all(|d| d == delta) {
        return;
    }
    for (p, slot) in pat.iter().zip(a.slots.iter_mut()) {
        if let Slot::Line(f, _) = *slot
            && closer(p)
            && align::indent_delta(p, &file[f]) != delta
        {
            *slot = Slot::Unmatched;
        }
    }
}

/// The refusal of a hunk that fits several places equally well (`all`, the best first): it
/// names them, and lists them as candidates a person can choose from.
fn ambiguous(pat: &[PatLine], file: &[LineInfo], all: &[&Alignment]) -> Refusal {
    let mut places: Vec<&Alignment> = all.to_vec();
    places.sort_by_key(|c| c.span.0);
    places.dedup_by_key(|c| c.span.0);
    let lines: Vec<String> = places.iter().map(|c| (c.span.0 + 1).to_string()).collect();
    let best = all[0];
    let candidates = places
        .iter()
        .take(MAX_CANDIDATES)
        .map(|c| Candidate {
            first_line: c.span.0 + 1,
            last_line: c.span.1.max(c.span.0 + 1),
            similarity: similarity(pat, &c.slots, &[], 0.0),
        })
        .collect();
    Refusal {
        kind: RefusalKind::Ambiguous,
        message: format!(
            "the old text matches {} places equally well (lines {}): include more unchanged lines around the change so that exactly one place fits",
            places.len(),
            lines.join(", ")
        ),
        closest: Some(closest_of(file, best.span, similarity(pat, &best.slots, &[], 0.0))),
        candidates,
    }
}

/// A telling line of the old text matched only roughly, while the file holds it exactly
/// somewhere else: the place found is a look-alike (a twin function), not the one the model
/// copied from.
fn twin_line(
    pat: &[PatLine],
    file: &[LineInfo],
    index: &FileIndex,
    a: &Alignment,
) -> Option<Refusal> {
    for (p, slot) in a.slots.iter().enumerate() {
        let Slot::Line(f, Likeness::Fuzzy(_)) = *slot else { continue };
        let line = &pat[p].info;
        if pat[p].wildcard || line.loose_len < 8 {
            continue;
        }
        let exact = index.occurrences(line.key).iter().map(|&o| o as usize).find(|&o| o != f);
        if let Some(o) = exact {
            return Some(Refusal {
                kind: RefusalKind::Ambiguous,
                message: format!(
                    "the old text fits best around line {}, where {:?} is only similar to {:?}, but the file has that line exactly at line {}: include more unchanged lines so that one place fits",
                    f + 1,
                    file[f].body(),
                    line.body(),
                    o + 1
                ),
                closest: Some(closest_of(file, a.span, 0.0)),
                candidates: Vec::new(),
            });
        }
    }
    None
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
    let mut slots: Vec<HunkSlot> =
        forced.iter().map(|f| if *f { HunkSlot::ForgottenAdd } else { HunkSlot::Add }).collect();
    let forced_weight: f64 = hunk
        .lines
        .iter()
        .zip(&forced)
        .filter(|(_, f)| **f)
        .map(|(l, _)| LineInfo::new(&l.text).weight())
        .sum();
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
    mark_forgotten_adds(hunk, &mut slots);
    resolve_empty_elisions(&mut slots)?;
    check_elision_ends(hunk, &slots, file)?;
    let forgotten: Vec<usize> = origin
        .iter()
        .enumerate()
        .filter(|(_, k)| slots[**k] == HunkSlot::ForgottenAdd)
        .map(|(p, _)| p)
        .collect();
    let sim = similarity(pat, &a.slots, &forgotten, forced_weight);
    let needed = if forgotten.is_empty() { MIN_SIMILARITY } else { MIN_SIMILARITY_FORGOTTEN };
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
    let strategy = strategy_of(&slots, a.span, hunk);
    Ok(Located { slots, start: a.span.0, end: a.span.1, similarity: sim, strategy, by_hint })
}

/// In a diff, context lines not found in the file, in a run touching changed lines, are lines
/// whose `+` the model forgot: they are added, not searched for. (They count half against the
/// similarity, since invented context looks the same.)
fn mark_forgotten_adds(hunk: &Hunk, slots: &mut [HunkSlot]) {
    if !hunk.marked {
        return;
    }
    let n = slots.len();
    let mut k = 0;
    while k < n {
        if slots[k] != HunkSlot::Ignored {
            k += 1;
            continue;
        }
        let start = k;
        while k < n && slots[k] == HunkSlot::Ignored {
            k += 1;
        }
        let touches_add = (start > 0 && hunk.lines[start - 1].kind != LineKind::Context)
            || (k < n && hunk.lines[k].kind != LineKind::Context);
        // A line worth adding: not only blank lines, closers or comment markers.
        let has_text = hunk.lines[start..k]
            .iter()
            .any(|l| l.text.chars().filter(|c| c.is_alphanumeric()).count() >= 3);
        // A hunk opens with the context it is anchored by; lines at its very start that are not
        // in the file are miscopied context, not new code.
        let leading = start == 0;
        if touches_add && has_text && !leading {
            for s in &mut slots[start..k] {
                *s = HunkSlot::ForgottenAdd;
            }
        }
    }
}

/// In a diff, context lines that form the body of a block an added line opens (deeper than an
/// added `def f():` or `fn f() {` right above them) cannot be old lines: their `+` was
/// forgotten. So are a closing `}` at the opener's depth and blank lines inside the body.
fn forced_adds(hunk: &Hunk) -> Vec<bool> {
    let n = hunk.lines.len();
    let mut forced = vec![false; n];
    if !hunk.marked {
        return forced;
    }
    let depth = |t: &str| {
        t.chars()
            .take_while(|c| c.is_whitespace())
            .map(|c| if c == '\t' { 4 } else { 1 })
            .sum::<usize>()
    };
    let mut k = 0;
    while k < n {
        let line = &hunk.lines[k];
        // Only a pure insertion: an opener replacing removed lines (`-if a {` `+if b {`) keeps
        // the old body as context.
        let opens = line.kind == LineKind::Add
            && {
                let t = line.text.trim_end();
                t.ends_with(':') || t.ends_with('{') || t.ends_with('(') || t.ends_with('[')
            }
            && {
                let block_start = (0..k)
                    .rev()
                    .find(|&b| hunk.lines[b].kind == LineKind::Context)
                    .map_or(0, |b| b + 1);
                let block_end =
                    (k..n).find(|&b| hunk.lines[b].kind == LineKind::Context).unwrap_or(n);
                !hunk.lines[block_start..block_end].iter().any(|l| l.kind == LineKind::Remove)
            };
        if !opens {
            k += 1;
            continue;
        }
        let base = depth(&line.text);
        let mut last_body = None;
        let mut forced_body = false;
        let mut j = k + 1;
        while j < n {
            let m = &hunk.lines[j];
            if m.kind == LineKind::Remove {
                break;
            }
            if m.text.trim().is_empty() {
                j += 1;
                continue;
            }
            if depth(&m.text) <= base {
                let closer =
                    m.text.trim().chars().all(|c| matches!(c, '}' | ')' | ']' | ';' | ','));
                if m.kind == LineKind::Context && closer && depth(&m.text) == base && forced_body {
                    forced[j] = true;
                    last_body = Some(j);
                }
                break;
            }
            if m.kind == LineKind::Context {
                forced[j] = true;
                forced_body = true;
            }
            last_body = Some(j);
            j += 1;
        }
        if let Some(end) = last_body {
            for (f, l) in forced[k + 1..end].iter_mut().zip(&hunk.lines[k + 1..end]) {
                if l.kind == LineKind::Context && l.text.trim().is_empty() {
                    *f = true;
                }
            }
        }
        k = j.max(k + 1);
    }
    forced
}

/// A `...` that stands for some lines ends where the next line found is: that line must say
/// where it is (`}` alone could be the end of any block, unless it closes the block the `...`
/// is the body of), or how much the `...` covers is a guess.
fn check_elision_ends(hunk: &Hunk, slots: &[HunkSlot], file: &[LineInfo]) -> Result<(), Refusal> {
    for (k, slot) in slots.iter().enumerate() {
        let HunkSlot::Elided(s, e) = *slot else { continue };
        if e <= s || e == usize::MAX {
            continue;
        }
        let next: Vec<usize> = slots[k + 1..]
            .iter()
            .take_while(|s| matches!(s, HunkSlot::Kept(..) | HunkSlot::Removed(..)))
            .filter_map(|s| match s {
                HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => Some(*f),
                _ => None,
            })
            .filter(|f| !file[*f].is_blank())
            .take(3)
            .collect();
        if next.is_empty() || next.iter().any(|f| file[*f].loose_len >= 4) {
            continue;
        }
        // A closing `}` ends the `...` well when everything the `...` covers is deeper than it:
        // the body of the block it closes (`fn f() {` / `...` / `}`).
        let cols =
            |l: &LineInfo| l.indent.chars().map(|c| if c == '\t' { 4 } else { 1 }).sum::<usize>();
        let end = cols(&file[next[0]]);
        if file[s..e].iter().all(|l| l.is_blank() || cols(l) > end) {
            continue;
        }
        return Err(Refusal {
            kind: RefusalKind::UnanchoredElision,
            message: format!(
                "the `...` at hunk line {} is followed only by {:?}, too common a line to tell how much it stands for: include a distinctive line after it",
                k + 1,
                hunk.lines.get(k + 1).map_or("", |l| l.text.trim())
            ),
            closest: None,
            candidates: Vec::new(),
        });
    }
    Ok(())
}

/// A `...` that absorbed nothing: harmless unless new lines depend on where it ends.
fn resolve_empty_elisions(slots: &mut [HunkSlot]) -> Result<(), Refusal> {
    let n = slots.len();
    for k in 0..n {
        if slots[k] != HunkSlot::Elided(usize::MAX, usize::MAX) {
            continue;
        }
        // Between anchors the DP would have absorbed the gap; an unresolved one is at an edge.
        let before_anchor =
            slots[..k].iter().any(|s| matches!(s, HunkSlot::Kept(..) | HunkSlot::Removed(..)));
        let after_anchor =
            slots[k + 1..].iter().any(|s| matches!(s, HunkSlot::Kept(..) | HunkSlot::Removed(..)));
        let adds_after = slots[k + 1..]
            .iter()
            .take_while(|s| !matches!(s, HunkSlot::Kept(..) | HunkSlot::Removed(..)))
            .any(|s| matches!(s, HunkSlot::Add | HunkSlot::ForgottenAdd));
        let adds_before = slots[..k]
            .iter()
            .rev()
            .take_while(|s| !matches!(s, HunkSlot::Kept(..) | HunkSlot::Removed(..)))
            .any(|s| matches!(s, HunkSlot::Add | HunkSlot::ForgottenAdd));
        if (!after_anchor && adds_after) || (!before_anchor && adds_before) {
            return Err(Refusal {
                kind: RefusalKind::UnanchoredElision,
                message: "new lines sit next to a `...` at the edge of the hunk, so where they go is unknown: include the unchanged line they follow".into(),
                closest: None,
                candidates: Vec::new(),
            });
        }
        slots[k] = HunkSlot::Ignored;
    }
    Ok(())
}

fn strategy_of(slots: &[HunkSlot], span: (usize, usize), hunk: &Hunk) -> MatchKind {
    let mut strategy = MatchKind::Exact;
    let mut covered = 0;
    for (k, s) in slots.iter().enumerate() {
        let rank = match s {
            HunkSlot::Kept(_, l) | HunkSlot::Removed(_, l) => {
                covered += 1;
                match l {
                    Likeness::Same
                        if hunk.lines[k].text.len() == hunk.lines[k].text.trim_end().len() =>
                    {
                        0
                    }
                    Likeness::Same | Likeness::Spacing => 1,
                    Likeness::Indent => 2,
                    Likeness::Fuzzy(_) | Likeness::Different => 4,
                }
            }
            HunkSlot::Elided(s, e) => {
                covered += e.saturating_sub(*s);
                3
            }
            HunkSlot::Add => 0,
            HunkSlot::ForgottenAdd | HunkSlot::Ignored => 4,
        };
        let st = [
            MatchKind::Exact,
            MatchKind::Whitespace,
            MatchKind::Indentation,
            MatchKind::Elision,
            MatchKind::Fuzzy,
        ][rank];
        if rank > rank_of(strategy) {
            strategy = st;
        }
    }
    if covered < span.1 - span.0 {
        strategy = MatchKind::Fuzzy;
    }
    strategy
}

fn rank_of(s: MatchKind) -> usize {
    s.rank()
}

impl MatchKind {
    /// How forgiving the strategy is, from exact (0) to fuzzy.
    pub fn rank(self) -> usize {
        match self {
            MatchKind::Exact => 0,
            MatchKind::Whitespace => 1,
            MatchKind::Indentation => 2,
            MatchKind::Elision => 3,
            MatchKind::Fuzzy => 4,
        }
    }
}

/// Weighted share of the pattern found in the file (lines in `half`, and forgotten added lines
/// weighing `forgotten` in all, count half).
fn similarity(pat: &[PatLine], slots: &[Slot], half: &[usize], forgotten: f64) -> f64 {
    let mut total = forgotten / 2.0;
    let mut found = 0.0;
    for (p, line) in pat.iter().enumerate() {
        if line.wildcard {
            continue;
        }
        let w = line.info.weight();
        if half.contains(&p) {
            total += w / 2.0;
            continue;
        }
        total += w;
        if let Slot::Line(_, l) = slots[p] {
            found += w * l.similarity();
        }
    }
    if total == 0.0 { 0.0 } else { found / total }
}

fn closest_of(file: &[LineInfo], span: (usize, usize), similarity: f64) -> Closest {
    let (s, e) = (span.0.min(file.len()), span.1.min(file.len()));
    let text = file[s..e].iter().map(|l| format!("{}\n", l.trimmed)).collect();
    Closest { first_line: s + 1, text, similarity }
}

/// Nothing anchored: find the single most similar file line to the most telling pattern line,
/// so the refusal can point at it.
fn not_found(pat: &[PatLine], file: &[LineInfo], searched: &str) -> Refusal {
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

#[cfg(test)]
mod tests;
