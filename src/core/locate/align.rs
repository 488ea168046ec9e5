//! Aligning a pattern (a hunk's old lines) to a window of a file: a dynamic program over
//! pattern × file lines, local in the file and global in the pattern.
//!
//! Moves, and why they cost what they cost:
//! - match a pattern line with a file line: gains the line's weight, less for a fuzzy match, so
//!   exact evidence always beats near misses;
//! - skip a pattern line (it is not in the file: a copy error too far gone, a forgotten `+`, an
//!   invented line): gains nothing;
//! - skip a file line between matched lines (the model left out context): costs a little, so a
//!   compact match beats one stitched together from far-apart lines;
//! - a wildcard pattern line (`...`) absorbs any number of file lines for free.
//!
//! The alignment starts and ends anywhere in the window; file lines outside it are free.

use super::lines::{Likeness, LineInfo, compare};

/// A line of the pattern.
#[derive(Debug, Clone)]
pub struct PatLine<'a> {
    pub info: LineInfo<'a>,
    pub wildcard: bool,
}

/// What one pattern line aligned to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Slot {
    Unmatched,
    /// A file line (absolute index) and how alike they are.
    Line(usize, Likeness),
    /// A wildcard absorbing file lines `start..end` (absolute).
    Wild(usize, usize),
}

/// The best alignment in a window.
#[derive(Debug, Clone)]
pub struct Alignment {
    pub score: f64,
    pub slots: Vec<Slot>,
    /// Absolute file range from the first to past the last line the pattern touched.
    pub span: (usize, usize),
}

const BLANK_GAIN: f64 = 0.02;

fn gain(p: &PatLine, f: &LineInfo, l: Likeness, delta: Option<isize>) -> Option<f64> {
    let w = p.info.weight();
    if p.info.is_blank() {
        return matches!(l, Likeness::Same | Likeness::Indent | Likeness::Spacing)
            .then_some(BLANK_GAIN);
    }
    // A hunk shifted as a whole keeps one indentation change: a line matching at the change the
    // rest of the hunk shows is the better evidence. Without one, an exact line is a little
    // better evidence than a re-indented one, so that of two overlapping places the one matching
    // as written wins.
    let shifted_as_expected = delta.is_some_and(|d| indent_delta(p, f) == d);
    match l {
        Likeness::Same | Likeness::Indent if shifted_as_expected => Some(w),
        Likeness::Same if delta.is_some() => Some(0.97 * w),
        Likeness::Same => Some(w),
        Likeness::Indent if delta.is_some() => Some(0.95 * w),
        Likeness::Indent => Some(0.98 * w),
        Likeness::Spacing => Some(0.96 * w),
        Likeness::Fuzzy(s) => {
            Some(w * (0.2 + 0.6 * (s - super::lines::FUZZY_MIN) / (1.0 - super::lines::FUZZY_MIN)))
        }
        Likeness::Different => None,
    }
}

/// How much deeper a file line is indented than the pattern line (a tab counting 4).
pub fn indent_delta(p: &PatLine, f: &LineInfo) -> isize {
    f.columns() as isize - p.info.columns() as isize
}

fn gap_cost(f: &LineInfo) -> f64 {
    if f.is_blank() { 0.05 } else { 0.45 * f.weight().max(0.4) }
}

const START: u8 = 0;
const SKIP_PAT: u8 = 1;
const MATCH: u8 = 2;
const SKIP_FILE: u8 = 3;
const ABSORB: u8 = 4;

/// How forgiving fuzzy pairing is.
#[derive(Debug, Clone, Copy)]
pub struct Params {
    /// Lowest similarity for pairing two different lines.
    pub fuzzy_min: f64,
    /// Shortest line (without whitespace) that may be paired fuzzily.
    pub fuzzy_min_len: usize,
    /// The indentation change the hunk shows where it is anchored, if it shows one.
    pub delta: Option<isize>,
    /// Whether the alignment starts at the window's first line: file lines before its first
    /// match cost what skipped lines cost, instead of nothing (a listing's gap, which starts
    /// right after an anchored line).
    pub anchored_start: bool,
    /// Whether, of alignments that score the same, the one ending at the window's last line is
    /// taken (a listing's gap that ends right before an anchored line: of two equal places for
    /// the lines after a placeholder, the one next to the anchor, so that the placeholder
    /// stands for the lines before them).
    pub anchored_end: bool,
}

impl Params {
    /// For hunks, whose paired lines keep the file's text: a wrong pairing costs little.
    pub const HUNK: Params = Params {
        fuzzy_min: super::lines::FUZZY_MIN,
        fuzzy_min_len: 0,
        delta: None,
        anchored_start: false,
        anchored_end: false,
    };
    /// For whole-file listings, whose paired lines replace the original: pair only near-copies.
    pub const LISTING: Params = Params {
        fuzzy_min: 0.7,
        fuzzy_min_len: 8,
        delta: None,
        anchored_start: false,
        anchored_end: false,
    };
    /// [`Params::LISTING`], starting at the gap's first line.
    pub const LISTING_FROM_START: Params = Params { anchored_start: true, ..Params::LISTING };
}

/// Align `pat` within `file[lo..hi]`. Returns `None` when nothing matched at all.
pub fn align(pat: &[PatLine], file: &[LineInfo], lo: usize, hi: usize) -> Option<Alignment> {
    align_with(pat, file, lo, hi, Params::HUNK)
}

/// [`align`] with the given forgiveness.
pub fn align_with(
    pat: &[PatLine],
    file: &[LineInfo],
    lo: usize,
    hi: usize,
    params: Params,
) -> Option<Alignment> {
    align_in(&Grid::new(pat, file, lo, hi, params), pat, file, lo, hi, params)
}

/// How alike every pattern line is to every line of a window, as the alignment pairs them
/// (`params`' fuzzy floor applied). Made once for all the alignments run inside the window:
/// comparing lines is most of an alignment's cost, and finding every place in a window aligns
/// its parts again and again.
pub struct Grid {
    lo: usize,
    n: usize,
    cells: Vec<Likeness>,
    /// For each pattern line, the file lines (absolute, ascending) it pairs with at all.
    pairs: Vec<Vec<u32>>,
}

impl Grid {
    pub fn new(pat: &[PatLine], file: &[LineInfo], lo: usize, hi: usize, params: Params) -> Grid {
        let n = hi.saturating_sub(lo);
        let mut cells = Vec::with_capacity(pat.len() * n);
        let mut pairs = Vec::with_capacity(pat.len());
        for p in pat {
            let mut row = Vec::new();
            for (j, f) in (lo..).zip(&file[lo..lo + n]) {
                let l = pairing(p, f, params);
                if l != Likeness::Different {
                    row.push(j as u32);
                }
                cells.push(l);
            }
            pairs.push(row);
        }
        Grid { lo, n, cells, pairs }
    }

    /// The most an alignment within `lo..hi` can score: each pattern line gains at most its
    /// weight, and only where it pairs with a line there (a blank one, what a blank gains).
    /// Cheap next to aligning, so that stretches that cannot hold a place as good as one found
    /// are not aligned at all.
    pub fn bound(&self, pat: &[PatLine], lo: usize, hi: usize) -> f64 {
        pat.iter()
            .zip(&self.pairs)
            .filter(|(_, row)| {
                let first = row.partition_point(|&j| (j as usize) < lo);
                row.get(first).is_some_and(|&j| (j as usize) < hi)
            })
            .map(|(p, _)| if p.info.is_blank() { BLANK_GAIN } else { p.info.weight() })
            .sum()
    }

    /// Pattern line `i` against file line `j` (absolute), which the grid's window holds.
    fn get(&self, i: usize, j: usize) -> Likeness {
        self.cells[i * self.n + j - self.lo]
    }
}

/// How a pattern line and a file line pair: a wildcard only with a literal `...` (as written,
/// re-indented or re-spaced), any other line as [`compare`] finds it, as long as it is a near
/// enough copy for `params`.
fn pairing(p: &PatLine, f: &LineInfo, params: Params) -> Likeness {
    match compare(&p.info, f) {
        Likeness::Fuzzy(_) if p.wildcard => Likeness::Different,
        Likeness::Fuzzy(s)
            if s < params.fuzzy_min || p.info.loose_len.min(f.loose_len) < params.fuzzy_min_len =>
        {
            Likeness::Different
        }
        l => l,
    }
}

/// [`align_with`] reading how lines pair from `grid`, whose window holds `lo..hi`.
pub fn align_in(
    grid: &Grid,
    pat: &[PatLine],
    file: &[LineInfo],
    lo: usize,
    hi: usize,
    params: Params,
) -> Option<Alignment> {
    let m = pat.len();
    let n = hi.saturating_sub(lo);
    if m == 0 || n == 0 {
        return None;
    }
    debug_assert!(grid.lo <= lo && hi <= grid.lo + grid.n);
    let mut table = Table::new(m, n, lo);
    table.fill(grid, pat, file, params);
    let (mut end_j, top) = table.best_end(m)?;
    if params.anchored_end && table.score[m * table.w + n] >= top - 1e-12 {
        end_j = n;
    }
    let slots = table.trace(grid, m, end_j);
    let span = span_of(&slots)?;
    Some(Alignment { score: top, slots, span })
}

/// The dynamic program over pattern × window: for pattern line `i` (1-based; 0 is before the
/// first) and window position `j` (0 is before the window's first line), the best score of
/// aligning the first `i` pattern lines within the first `j` window lines, and the move that
/// got there.
struct Table {
    lo: usize,
    n: usize,
    /// Row width: `n + 1`.
    w: usize,
    score: Vec<f64>,
    back: Vec<u8>,
}

/// The best move into a cell so far: its score and which move.
type Best = (f64, u8);

impl Table {
    fn new(m: usize, n: usize, lo: usize) -> Table {
        let w = n + 1;
        Table { lo, n, w, score: vec![0f64; (m + 1) * w], back: vec![START; (m + 1) * w] }
    }

    fn fill(&mut self, grid: &Grid, pat: &[PatLine], file: &[LineInfo], params: Params) {
        let w = self.w;
        // What skipping each window line costs, worked out once, not once per pattern line.
        let gaps: Vec<f64> = file[self.lo..self.lo + self.n].iter().map(gap_cost).collect();
        if params.anchored_start {
            for j in 1..=self.n {
                self.score[j] = self.score[j - 1] - gaps[j - 1];
            }
        }
        for (i, p) in (1..).zip(pat) {
            for j in 0..=self.n {
                // Skip the pattern line.
                let mut best: Best = (self.score[(i - 1) * w + j], SKIP_PAT);
                if j > 0 {
                    let f = &file[self.lo + j - 1];
                    let l = grid.get(i - 1, self.lo + j - 1);
                    if p.wildcard {
                        self.absorb(i, j, p, l, &mut best);
                    } else {
                        self.pair(i, j, p, f, l, params, &mut best);
                    }
                    let s = self.score[i * w + j - 1] - gaps[j - 1];
                    if s > best.0 {
                        best = (s, SKIP_FILE);
                    }
                }
                self.score[i * w + j] = best.0;
                self.back[i * w + j] = best.1;
            }
        }
    }

    /// A wildcard pattern line `i` at window line `j`: absorb the line, or match a literal `...`.
    fn absorb(&mut self, i: usize, j: usize, p: &PatLine, l: Likeness, best: &mut Best) {
        let w = self.w;
        // On a tie the `...` starts here rather than further up: it stands for as few lines as
        // it can (of two `def dump_value` with the same last line, the nearer one, not the one
        // a class away).
        let s = self.score[i * w + j - 1];
        if s > best.0 {
            *best = (s, ABSORB);
        }
        // The file may hold the same `...` literally (a stub body, a docstring).
        if matches!(l, Likeness::Same | Likeness::Indent | Likeness::Spacing) {
            let s = self.score[(i - 1) * w + j - 1] + p.info.weight();
            if s > best.0 {
                *best = (s, MATCH);
            }
        }
    }

    /// Pattern line `i` paired with window line `j` (alike as `l` says), if they are alike
    /// enough.
    #[allow(clippy::too_many_arguments)]
    fn pair(
        &mut self,
        i: usize,
        j: usize,
        p: &PatLine,
        f: &LineInfo,
        l: Likeness,
        params: Params,
        best: &mut Best,
    ) {
        if let Some(g) = gain(p, f, l, params.delta) {
            let s = self.score[(i - 1) * self.w + j - 1] + g;
            if s >= best.0 {
                *best = (s, MATCH);
            }
        }
    }

    /// Where the whole pattern ends best: the smallest window position reaching the top score,
    /// and that score; `None` when nothing matched.
    fn best_end(&self, m: usize) -> Option<(usize, f64)> {
        let mut end_j = 0;
        let mut top = f64::MIN;
        for j in 0..=self.n {
            let s = self.score[m * self.w + j];
            if s > top + 1e-12 {
                top = s;
                end_j = j;
            }
        }
        (top > 0.0).then_some((end_j, top))
    }

    /// Follow the moves back from the end: what each pattern line aligned to.
    fn trace(&self, grid: &Grid, m: usize, end_j: usize) -> Vec<Slot> {
        let (w, lo) = (self.w, self.lo);
        let mut slots = vec![Slot::Unmatched; m];
        let (mut i, mut j) = (m, end_j);
        while i > 0 {
            match self.back[i * w + j] {
                MATCH => {
                    slots[i - 1] = Slot::Line(lo + j - 1, grid.get(i - 1, lo + j - 1));
                    i -= 1;
                    j -= 1;
                }
                ABSORB => {
                    let end = lo + j;
                    while j > 0 && self.back[i * w + j] == ABSORB {
                        j -= 1;
                    }
                    slots[i - 1] = Slot::Wild(lo + j, end);
                    i -= 1;
                }
                SKIP_FILE => j -= 1,
                _ => i -= 1,
            }
        }
        slots
    }
}

/// The file lines the slots touch, first to last. Wildcards that absorbed nothing sit between
/// their neighbours and add nothing.
fn span_of(slots: &[Slot]) -> Option<(usize, usize)> {
    let mut span: Option<(usize, usize)> = None;
    for s in slots {
        let (a, b) = match *s {
            Slot::Line(f, _) => (f, f + 1),
            Slot::Wild(a, b) if b > a => (a, b),
            _ => continue,
        };
        span = Some(span.map_or((a, b), |(x, y)| (x.min(a), y.max(b))));
    }
    span
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pat<'a>(lines: &[&'a str]) -> Vec<PatLine<'a>> {
        lines
            .iter()
            .map(|l| PatLine { info: LineInfo::new(l), wildcard: l.trim() == "..." })
            .collect()
    }

    fn file<'a>(lines: &[&'a str]) -> Vec<LineInfo<'a>> {
        lines.iter().map(|l| LineInfo::new(l)).collect()
    }

    #[test]
    fn skips_missing_context_in_the_file() {
        let f = file(&["def f():", "    \"\"\"Doc.\"\"\"", "    return 1", "", "x = 2"]);
        let p = pat(&["def f():", "    return 1"]);
        let a = align(&p, &f, 0, f.len()).unwrap();
        assert!(matches!(a.slots[0], Slot::Line(0, _)));
        assert!(matches!(a.slots[1], Slot::Line(2, _)));
    }

    #[test]
    fn wildcard_absorbs_a_body() {
        let f = file(&["def f():", "    a = 1", "    b = 2", "    return a + b"]);
        let p = pat(&["def f():", "...", "    return a + b"]);
        let a = align(&p, &f, 0, f.len()).unwrap();
        assert_eq!(a.slots[1], Slot::Wild(1, 3));
        assert_eq!(a.span, (0, 4));
    }

    #[test]
    fn prefers_the_compact_match() {
        let f = file(&["alpha()", "x", "y", "z", "beta()", "alpha()", "beta()"]);
        let p = pat(&["alpha()", "beta()"]);
        let a = align(&p, &f, 0, f.len()).unwrap();
        assert_eq!(a.span, (5, 7));
    }

    #[test]
    fn a_listing_gap_pairs_the_lines_after_a_placeholder_next_to_its_end() {
        // `#[inline]` and a blank line stand before every function: the ones the listing
        // writes after `...` are those right before the anchor the gap ends at.
        let f =
            file(&["", "#[inline]", "fn a() {}", "", "#[inline]", "fn b() {}", "", "#[inline]"]);
        let p = pat(&["...", "", "#[inline]", "#[must_use]"]);
        let params = Params { anchored_end: true, ..Params::LISTING };
        let a = align_with(&p, &f, 0, f.len(), params).unwrap();
        // (Before the first line paired, the `...` is free either way: it absorbs nothing.)
        assert!(matches!(a.slots[0], Slot::Unmatched | Slot::Wild(_, 6)));
        assert!(matches!(a.slots[1], Slot::Line(6, _)));
        assert!(matches!(a.slots[2], Slot::Line(7, _)));
        assert_eq!(a.slots[3], Slot::Unmatched);
        // A hunk's alignment ends where its last line matches best, the first such place.
        let a = align(&p, &f, 0, f.len()).unwrap();
        assert!(matches!(a.slots[2], Slot::Line(1, _)));
    }
}
