//! Hunks fused without a new `@@`: when a hunk fits its file only imperfectly, try it as two or
//! more hunks cut inside the unchanged lines between its changes, and take the cut whose parts
//! each fit cleanly.

use super::{HunkSlot, Located, Refusal, locate_indexed};
use crate::core::edit::{Hunk, LineKind};
use crate::core::locate::lines::{FileIndex, LineInfo};

/// Most parts a hunk is cut into.
const MAX_PARTS: usize = 4;
/// Most locate calls spent looking for a cut.
const BUDGET: usize = 64;

/// Locate a hunk, cutting it into parts where that fits better. Parts come in hunk order, each
/// located against the same, unchanged text.
pub fn locate_parts(
    hunk: &Hunk,
    file: &[LineInfo],
    hint_shift: isize,
) -> Result<Vec<(Hunk, Located)>, Refusal> {
    locate_parts_indexed(hunk, file, &FileIndex::new(file), hint_shift)
}

/// [`locate_parts`] with the file's index built by the caller, once for every hunk located in
/// the same text (`index` must be `FileIndex::new(file)`).
pub fn locate_parts_indexed(
    hunk: &Hunk,
    file: &[LineInfo],
    index: &FileIndex,
    hint_shift: isize,
) -> Result<Vec<(Hunk, Located)>, Refusal> {
    let whole = locate_indexed(hunk, file, index, hint_shift);
    // Only a diff fuses hunks (two changes under one `@@` header): a SEARCH block's old text is
    // one stretch, and cut into parts it would be placed piecemeal, a line of it at a twin.
    if !hunk.marked || whole.as_ref().is_ok_and(clean) {
        return whole.map(|l| vec![(hunk.clone(), l)]);
    }
    // The whole hunk, located above, counts against the budget as `cut` would count it.
    let mut budget = BUDGET - 1;
    match cut_unclean(hunk, file, index, hint_shift, MAX_PARTS, &mut budget) {
        Some(parts) if parts.len() > 1 => Ok(parts),
        _ => whole.map(|l| vec![(hunk.clone(), l)]),
    }
}

/// A located hunk whose every old line was found, without invented or forgotten lines.
fn clean(l: &Located) -> bool {
    l.slots.iter().all(|s| !matches!(s, HunkSlot::Ignored | HunkSlot::ForgottenAdd))
}

fn cut(
    hunk: &Hunk,
    file: &[LineInfo],
    index: &FileIndex,
    shift: isize,
    parts_left: usize,
    budget: &mut usize,
) -> Option<Vec<(Hunk, Located)>> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    if let Ok(l) = locate_indexed(hunk, file, index, shift)
        && clean(&l)
    {
        return Some(vec![(hunk.clone(), l)]);
    }
    cut_unclean(hunk, file, index, shift, parts_left, budget)
}

/// [`cut`] for a hunk known not to fit cleanly in one piece.
fn cut_unclean(
    hunk: &Hunk,
    file: &[LineInfo],
    index: &FileIndex,
    shift: isize,
    parts_left: usize,
    budget: &mut usize,
) -> Option<Vec<(Hunk, Located)>> {
    if parts_left < 2 {
        return None;
    }
    let lines = &hunk.lines;
    let first_change = lines.iter().position(|l| l.kind != LineKind::Context)?;
    // Cut points: inside a run of context lines that has changes on both sides.
    let mut best: Option<Vec<(Hunk, Located)>> = None;
    let mut k = first_change + 1;
    while k < lines.len() {
        if lines[k].kind != LineKind::Context {
            k += 1;
            continue;
        }
        let run_end =
            (k..lines.len()).find(|&j| lines[j].kind != LineKind::Context).unwrap_or(lines.len());
        if run_end == lines.len() {
            break;
        }
        for at in k..=run_end {
            let head = Hunk {
                lines: lines[..at].to_vec(),
                old_start_hint: hunk.old_start_hint,
                marked: hunk.marked,
                pick: hunk.pick,
                section: hunk.section.clone(),
                other_split: None,
            };
            let tail = Hunk {
                lines: lines[at..].to_vec(),
                old_start_hint: None,
                marked: hunk.marked,
                pick: None,
                section: None,
                other_split: None,
            };
            if *budget == 0 {
                return best;
            }
            *budget -= 1;
            let Ok(head_loc) = locate_indexed(&head, file, index, shift) else { continue };
            if !clean(&head_loc) {
                continue;
            }
            let Some(rest) = cut(&tail, file, index, shift, parts_left - 1, budget) else {
                continue;
            };
            let overlaps =
                rest.iter().any(|(_, l)| l.start < head_loc.end && head_loc.start < l.end);
            if overlaps {
                continue;
            }
            let mut parts = vec![(head, head_loc)];
            parts.extend(rest);
            // The hunk does not fit in one piece: two is the fewest parts there can be, and of
            // cuts into as many parts the first one found is taken anyway.
            if parts.len() == 2 {
                return Some(parts);
            }
            if best.as_ref().is_none_or(|b| parts.len() < b.len()) {
                best = Some(parts);
            }
        }
        k = run_end + 1;
    }
    best
}
