//! Finding the places a pattern may fit: windows around the votes of its rarer lines, every
//! alignment in each window (disjoint and overlapping ones), and how places compare when their
//! scores are close (same reading, same place, consistent indentation, lines as written, a
//! header's line number).

use super::AMBIGUITY_MARGIN;
use super::align::{self, Alignment, PatLine, Slot};
use super::lines::{FileIndex, Likeness, LineInfo};

/// An anchor line occurring more often than this says little about where the hunk is.
const RARE: usize = 8;
/// Window slack around anchor votes.
const SLACK: usize = 6;

/// Whether two alignments place mostly the same pattern lines (by weight): only then are they
/// rival places for the same text, rather than different readings of which lines are context.
pub(super) fn same_reading(pat: &[PatLine], a: &Alignment, b: &Alignment) -> bool {
    let (mut both, mut either) = (0.0, 0.0);
    for (p, line) in pat.iter().enumerate() {
        let w = line.info.weight();
        let (x, y) = (matches!(a.slots[p], Slot::Line(..)), matches!(b.slots[p], Slot::Line(..)));
        if x && y {
            both += w;
        }
        if x || y {
            either += w;
        }
    }
    either == 0.0 || both / either >= 0.5
}

/// How far a pattern with a `...` may reach past its voted place, and how far apart votes may
/// be and still make one window.
const WILD_REACH: isize = 400;

/// Windows of the file worth aligning in: around the votes of rare anchor lines.
pub(super) fn candidate_windows(
    pat: &[PatLine],
    file: &[LineInfo],
    index: &FileIndex,
) -> Vec<(usize, usize)> {
    let m = pat.len();
    let has_wild = pat.iter().any(|p| p.wildcard);
    let anchors: Vec<(usize, &[u32])> = pat
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.wildcard && !p.info.is_blank())
        .map(|(i, p)| (i, index.occurrences(p.info.key)))
        .filter(|(_, occ)| !occ.is_empty())
        .collect();
    let rare: Vec<&(usize, &[u32])> = anchors.iter().filter(|(_, occ)| occ.len() <= RARE).collect();
    let chosen: Vec<&(usize, &[u32])> = if rare.is_empty() {
        let fewest = anchors.iter().map(|(_, o)| o.len()).min().unwrap_or(0);
        anchors.iter().filter(|(_, o)| o.len() == fewest).take(1).collect()
    } else {
        rare
    };
    let mut votes: Vec<isize> = Vec::new();
    for (i, occ) in &chosen {
        for &j in occ.iter().take(4096) {
            votes.push(j as isize - *i as isize);
        }
    }
    if votes.is_empty() {
        // No line found even loosely: look around the best fuzzy line, so a refusal can say what is closest.
        return Vec::new();
    }
    votes.sort_unstable();
    votes.dedup();
    // A `...` stands for any number of lines: the place reaches as far as the body it elides.
    // Where lines on both sides of the `...`s voted, the votes span the place already; a side
    // without a voting line may stand up to the reach beyond them.
    let wild = |i: &usize| pat[*i].wildcard;
    let first_wild = (0..m).find(wild);
    let last_wild = (0..m).rev().find(wild);
    let voted_before = first_wild.is_some_and(|w| chosen.iter().any(|(i, _)| *i < w));
    let voted_after = last_wild.is_some_and(|w| chosen.iter().any(|(i, _)| *i > w));
    let reach_lo = if has_wild && !voted_before { WILD_REACH } else { 0 };
    let reach_hi = if has_wild && !voted_after { WILD_REACH } else { 0 };
    // Votes from before and after a `...` that stand apart belong to one place as long as the
    // windows reaching from each toward the other would meet.
    let merge = if has_wild {
        2 * (WILD_REACH + m as isize + SLACK as isize)
    } else {
        m as isize + SLACK as isize
    };
    let mut windows: Vec<(usize, usize)> = Vec::new();
    let mut lo = votes[0];
    let mut hi = votes[0];
    let push = |lo: isize, hi: isize, windows: &mut Vec<(usize, usize)>| {
        let a = (lo - SLACK as isize - m as isize / 2 - reach_lo).max(0) as usize;
        let b = ((hi + m as isize + SLACK as isize + m as isize / 2 + reach_hi).max(0) as usize)
            .min(file.len());
        if let Some(last) = windows.last_mut()
            && a <= last.1
        {
            last.1 = last.1.max(b);
            return;
        }
        if a < b {
            windows.push((a, b));
        }
    };
    for &d in &votes[1..] {
        if d - hi <= merge {
            hi = d;
        } else {
            push(lo, hi, &mut windows);
            lo = d;
            hi = d;
        }
    }
    push(lo, hi, &mut windows);
    windows
}

/// Every place in a window worth comparing: the best alignment, then recursively the best ones
/// left and right of it, so that every disjoint place equally good is seen; and, for a pattern
/// whose own lines repeat (`pass`, `pass`), the best ones starting one line later or ending one
/// line earlier, so that overlapping places are seen too.
pub(super) fn collect_candidates(
    pat: &[PatLine],
    file: &[LineInfo],
    index: &FileIndex,
    lo: usize,
    hi: usize,
    out: &mut Vec<Alignment>,
) {
    let params =
        align::Params { delta: window_delta(pat, file, index, lo, hi), ..align::Params::HUNK };
    let grid = align::Grid::new(pat, file, lo, hi, params);
    let Some(best) = align::align_in(&grid, pat, file, lo, hi, params) else { return };
    let (s, e) = best.span;
    // A rival must place at least as many lines exactly as the best does (see `locate_in`):
    // stretches of the file holding fewer of the pattern's lines are not worth aligning.
    let mut search = Enumeration {
        grid: &grid,
        floor: best.score - AMBIGUITY_MARGIN,
        pat,
        file,
        index,
        params,
        need: exact_lines(pat, &best),
        budget: MAX_CANDIDATE_RUNS,
    };
    out.push(best);
    search.run(lo, s, out);
    search.run(e, hi, out);
    if self_similar(pat) {
        for (a, b) in [(s + 1, hi), (lo, e.saturating_sub(1))] {
            if b > a
                && grid.bound(pat, a, b) >= search.floor
                && let Some(other) = align::align_in(&grid, pat, file, a, b, params)
            {
                out.push(other);
            }
        }
    }
}

/// Most alignments run when enumerating the places of one window.
const MAX_CANDIDATE_RUNS: usize = 48;

/// The indentation change a window shows: the most common one between the pattern's telling
/// lines and their single occurrence in the window (ties going to the smaller change). Lines
/// occurring several times in the window say nothing about it.
pub(super) fn window_delta(
    pat: &[PatLine],
    file: &[LineInfo],
    index: &FileIndex,
    lo: usize,
    hi: usize,
) -> Option<isize> {
    let mut seen: Vec<(isize, usize)> = Vec::new();
    for p in pat.iter().filter(|p| !p.wildcard && p.info.loose_len >= 4) {
        let occ = index.occurrences(p.info.key);
        let first = occ.partition_point(|&j| (j as usize) < lo);
        let inside: Vec<u32> =
            occ[first..].iter().take_while(|&&j| (j as usize) < hi).copied().take(2).collect();
        let [j] = inside[..] else { continue };
        let d = align::indent_delta(p, &file[j as usize]);
        match seen.iter_mut().find(|(x, _)| *x == d) {
            Some(e) => e.1 += 1,
            None => seen.push((d, 1)),
        }
    }
    seen.into_iter().max_by_key(|&(d, n)| (n, std::cmp::Reverse(d.abs()))).map(|(d, _)| d)
}

/// The recursive search for every place in a window.
pub(super) struct Enumeration<'p, 'f, 'l> {
    /// How the pattern's lines pair with the window's, compared once.
    grid: &'p align::Grid,
    /// The lowest score worth finding: places scoring less than the window's best by more than
    /// the ambiguity margin are no rivals to it (nor to a better place in another window).
    floor: f64,
    pat: &'p [PatLine<'p>],
    file: &'f [LineInfo<'l>],
    index: &'f FileIndex,
    params: align::Params,
    /// Exactly placed lines a rival needs.
    need: usize,
    budget: usize,
}

impl Enumeration<'_, '_, '_> {
    fn run(&mut self, lo: usize, hi: usize, out: &mut Vec<Alignment>) {
        if hi <= lo
            || self.budget == 0
            || self.lines_present(lo, hi) < self.need.max(1)
            || self.grid.bound(self.pat, lo, hi) < self.floor
        {
            return;
        }
        self.budget -= 1;
        let Some(a) = align::align_in(self.grid, self.pat, self.file, lo, hi, self.params) else {
            return;
        };
        let (s, e) = a.span;
        out.push(a);
        self.run(lo, s, out);
        self.run(e, hi, out);
    }

    /// How many non-blank pattern lines occur (whitespace aside) within `lo..hi`.
    fn lines_present(&self, lo: usize, hi: usize) -> usize {
        self.pat
            .iter()
            .filter(|p| !p.wildcard && !p.info.is_blank())
            .filter(|p| {
                let occ = self.index.occurrences(p.info.key);
                let first = occ.partition_point(|&j| (j as usize) < lo);
                occ.get(first).is_some_and(|&j| (j as usize) < hi)
            })
            .count()
    }
}

/// How many non-blank pattern lines an alignment places exactly as written: a place matching as
/// written is told apart from one that only matches re-indented.
pub(super) fn exact_lines(pat: &[PatLine], a: &Alignment) -> usize {
    pat.iter()
        .zip(&a.slots)
        .filter(|(p, s)| !p.info.is_blank() && matches!(s, Slot::Line(_, Likeness::Same)))
        .count()
}

/// Whether every non-blank line an alignment places moved by the same indentation.
pub(super) fn consistent_indent(pat: &[PatLine], file: &[LineInfo], a: &Alignment) -> bool {
    let mut deltas = pat.iter().zip(&a.slots).filter_map(|(p, s)| match s {
        Slot::Line(f, _) if !p.info.is_blank() => Some(align::indent_delta(p, &file[*f])),
        _ => None,
    });
    let first = deltas.next();
    deltas.all(|d| Some(d) == first)
}

/// Whether some non-blank line occurs twice in the pattern.
pub(super) fn self_similar(pat: &[PatLine]) -> bool {
    let mut keys: Vec<u64> =
        pat.iter().filter(|p| !p.info.is_blank() && !p.wildcard).map(|p| p.info.key).collect();
    let n = keys.len();
    keys.sort_unstable();
    keys.dedup();
    keys.len() < n
}

/// Whether two alignments put every non-blank pattern line they both place at the same file line.
pub(super) fn same_place(pat: &[PatLine], a: &Alignment, b: &Alignment) -> bool {
    pat.iter().enumerate().all(|(p, line)| match (a.slots[p], b.slots[p]) {
        (Slot::Line(x, _), Slot::Line(y, _)) => line.info.is_blank() || x == y,
        _ => true,
    }) && a.span.0.max(b.span.0) < a.span.1.min(b.span.1)
}

/// Where an alignment says the hunk's old text starts: its first placed line, less the lines
/// before it in the pattern.
pub(super) fn implied_start(a: &Alignment) -> isize {
    a.slots
        .iter()
        .enumerate()
        .find_map(|(p, s)| match s {
            Slot::Line(f, _) => Some(*f as isize - p as isize),
            _ => None,
        })
        .unwrap_or(a.span.0 as isize)
}

/// A header's line number chooses between equal places only when it points at one of them and
/// clearly not at another.
/// The one place among `cands` that the line `section` (an `@@` header's heading) encloses: it
/// stands above the place, and every line between them is deeper than it or blank (its block
/// has not closed). `None` when it encloses none or several.
pub(super) fn section_pick<'a>(
    section: Option<&str>,
    file: &[LineInfo],
    cands: &[&'a Alignment],
) -> Option<&'a Alignment> {
    let heading = section?;
    let encloses = |c: &Alignment| super::enclosed_by(heading, |k| file[k].trimmed, c.span.0);
    // (Two readings of one place are one place.)
    let mut inside = cands.iter().copied().filter(|c| encloses(c));
    let one = inside.next()?;
    inside.all(|c| c.span == one.span).then_some(one)
}

pub(super) fn hint_pick<'a>(
    hint: Option<usize>,
    shift: isize,
    cands: &[&'a Alignment],
) -> Option<&'a Alignment> {
    let hint = hint? as isize + shift - 1;
    let mut by_distance: Vec<(isize, &&Alignment)> =
        cands.iter().map(|c| ((implied_start(c) - hint).abs(), c)).collect();
    by_distance.sort_by_key(|(d, _)| *d);
    match by_distance.as_slice() {
        [(d1, c), rest @ ..] if *d1 <= 3 && rest.first().is_none_or(|(d2, _)| *d2 >= d1 + 3) => {
            Some(c)
        }
        _ => None,
    }
}
