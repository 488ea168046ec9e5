//! How good a placement is: its similarity (the weighted share of the old text found) and its
//! [`MatchKind`] (the most forgiving reading any of its lines needed).
//!
//! Not for: the floors a placement must reach (`finish`), or choosing among places.

use super::align::{PatLine, Slot};
use super::lines::Likeness;
use super::{HunkSlot, MatchKind};
use crate::core::edit::Hunk;

/// The most forgiving reading any line of the placement needed (lines of the span that no hunk
/// line covers make it fuzzy).
pub(super) fn strategy_of(slots: &[HunkSlot], span: (usize, usize), hunk: &Hunk) -> MatchKind {
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
        if rank > strategy.rank() {
            strategy = st;
        }
    }
    if covered < span.1 - span.0 {
        strategy = MatchKind::Fuzzy;
    }
    strategy
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
pub(super) fn similarity(pat: &[PatLine], slots: &[Slot], half: &[usize], forgotten: f64) -> f64 {
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
