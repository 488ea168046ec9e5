//! Look-alikes: a place whose old text fits best while a telling line of it is only like the
//! file's line there (or missing there) and stands exactly elsewhere, in another block. The
//! place found is then a twin of the one the model copied from (a second function alike, the
//! other job of a CI file), and is refused with both places as candidates.
//!
//! Not for: places that fit equally well (`candidates`), or what a header's heading says
//! (`heading`).

use super::align::{self, Alignment, PatLine, Slot};
use super::lines::{FileIndex, Likeness, LineInfo};
use super::refusals::{candidates_of, closest_of};
use super::{Refusal, RefusalKind};
use crate::core::edit::Hunk;

/// A telling line of the old text matched only roughly, while the file holds it exactly
/// somewhere else: the place found is a look-alike (a twin function), not the one the model
/// copied from.
/// The place found, unless it is a look-alike ([`twin_line`]): then refused, with the place
/// found and the place around the exact line as candidates. A person's pick of either settles
/// it; nothing else does.
pub(super) fn settle_twin(
    hunk: &Hunk,
    pat: &[PatLine],
    file: &[LineInfo],
    index: &FileIndex,
    chosen: Alignment,
) -> Result<Alignment, Refusal> {
    let Some((exact_at, mut refusal)) = twin_line(pat, file, index, &chosen) else {
        return Ok(chosen);
    };
    let mut places = vec![chosen.clone()];
    places.extend(twin_place(pat, file, exact_at, &chosen));
    if let Some(picked) = hunk.pick.and_then(|p| places.iter().find(|c| c.span.0 + 1 == p)) {
        return Ok(picked.clone());
    }
    if places.len() > 1 {
        refusal.candidates = candidates_of(pat, &places.iter().collect::<Vec<_>>());
    }
    Err(refusal)
}

/// Whether file line `o`, outside the place `span`, is in the same block as the place: every
/// line between them is blank or no shallower than the shallower of the two (a docstring the
/// model left out between `def __eq__` and its body), so the place is `o`'s with lines left
/// out, not a twin of it in another block (another job, another function).
fn same_block(file: &[LineInfo], o: usize, span: (usize, usize)) -> bool {
    let (from, to, edge) =
        if o < span.0 { (o + 1, span.0, span.0) } else { (span.1, o, span.1 - 1) };
    let floor = file[o].columns().min(file[edge].columns());
    file[from..to].iter().all(|l| l.is_blank() || l.columns() >= floor)
}

/// The file line of the pattern line nearest `p` that was found.
fn nearest_found(slots: &[Slot], p: usize) -> Option<usize> {
    let at = |k: usize| match slots[k] {
        Slot::Line(f, _) => Some(f),
        _ => None,
    };
    (1..slots.len()).find_map(|d| {
        p.checked_sub(d).and_then(at).or_else(|| slots.get(p + d).and_then(|_| at(p + d)))
    })
}

/// With the refusal, the file line that holds the telling line exactly.
fn twin_line(
    pat: &[PatLine],
    file: &[LineInfo],
    index: &FileIndex,
    a: &Alignment,
) -> Option<(usize, Refusal)> {
    for (p, slot) in a.slots.iter().enumerate() {
        let line = &pat[p].info;
        if pat[p].wildcard || line.loose_len < 8 {
            continue;
        }
        let f = match *slot {
            Slot::Line(f, Likeness::Fuzzy(_)) => f,
            // A line of the old text found nowhere here, which the file has exactly once
            // elsewhere, outside the place: the model copied it from there (a second run of a
            // removal, whose twin still has the lines it removed).
            Slot::Unmatched => match index.occurrences(line.key) {
                [o] if !(a.span.0..a.span.1).contains(&(*o as usize))
                    && !same_block(file, *o as usize, a.span) =>
                {
                    nearest_found(&a.slots, p).unwrap_or(a.span.0)
                }
                _ => continue,
            },
            _ => continue,
        };
        let exact = index.occurrences(line.key).iter().map(|&o| o as usize).find(|&o| o != f);
        if let Some(o) = exact {
            return Some((
                o,
                Refusal {
                    kind: RefusalKind::Ambiguous,
                    message: if matches!(slot, Slot::Unmatched) {
                        format!(
                            "the old text fits best around line {}, which lacks its line {:?}, but the file has that line exactly at line {}: include more unchanged lines so that one place fits",
                            f + 1,
                            line.body(),
                            o + 1
                        )
                    } else {
                        format!(
                            "the old text fits best around line {}, where {:?} is only similar to {:?}, but the file has that line exactly at line {}: include more unchanged lines so that one place fits",
                            f + 1,
                            file[f].body(),
                            line.body(),
                            o + 1
                        )
                    },
                    closest: Some(closest_of(file, a.span, 0.0)),
                    candidates: Vec::new(),
                },
            ));
        }
    }
    None
}

/// The old text aligned around file line `at` (which holds one of its lines exactly), when
/// that is another place than `found`: the twin's counterpart a person may choose instead.
fn twin_place(
    pat: &[PatLine],
    file: &[LineInfo],
    at: usize,
    found: &Alignment,
) -> Option<Alignment> {
    let reach = 2 * pat.len() + 4;
    let (lo, hi) = (at.saturating_sub(reach), (at + reach).min(file.len()));
    let a = align::align(pat, file, lo, hi)?;
    let holds = a.slots.iter().any(|s| matches!(*s, Slot::Line(f, _) if f == at));
    (holds && a.span.0 != found.span.0).then_some(a)
}
