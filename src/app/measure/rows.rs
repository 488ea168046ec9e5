//! The rows a pane's lines take at one width, kept per block of lines so that a new width costs
//! the blocks and not the lines: each line says, when it is taken in, the narrowest width at
//! which it takes one row ([`Rows::push`]), and a block whose lines all fit at the new width is
//! counted as its number of lines without looking at them. Only blocks with a line that wraps
//! (or whose rows need its text) count line by line. Finding the line at a row is a binary
//! search over the blocks and a walk inside one.
//!
//! Not for: how many rows a line takes (the caller's `rows` closure, `app::wrap`), drawing.

/// Lines per block: small enough that walking one to find a row is cheap, large enough that
/// the blocks of a 20 MB reply are few.
const BLOCK: usize = 128;

/// A line's rows need its text at every width (not plain, or wrapping at words).
pub(super) const ALWAYS_READ: usize = usize::MAX;

/// The rows of a list of lines (appended to), at the width counted last.
#[derive(Debug, Default)]
pub(super) struct Rows {
    /// Per block, the narrowest width at which every line of it takes one row.
    need: Vec<usize>,
    /// Lines taken in.
    len: usize,
    /// What the rows were counted at (a width, or a width and a mode), and the rows before
    /// each complete block counted so far (empty: nothing counted at `at`).
    at: Option<(usize, usize)>,
    before: Vec<usize>,
}

/// What a count did, for the work counters: lines whose rows were counted one by one.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Counted {
    pub lines: usize,
}

impl Rows {
    /// Take in the next line: at `need` columns or more it takes one row ([`ALWAYS_READ`]
    /// when that cannot be known without its text).
    pub(super) fn push(&mut self, need: usize) {
        if self.len.is_multiple_of(BLOCK) {
            self.need.push(need);
        } else if let Some(n) = self.need.last_mut() {
            *n = (*n).max(need);
        }
        self.len += 1;
    }

    /// The rows of every line at `width` (`key` names the width and anything else the rows
    /// depend on), with `rows(k)` line `k`'s rows where its block must be counted line by line.
    /// Complete blocks are counted once per key; the last, growing one on every call.
    pub(super) fn total(
        &mut self,
        key: (usize, usize),
        width: usize,
        rows: &mut impl FnMut(usize) -> usize,
        counted: &mut Counted,
    ) -> usize {
        if self.at != Some(key) {
            self.at = Some(key);
            self.before.clear();
        }
        if self.before.is_empty() {
            self.before.push(0);
        }
        let complete = self.len / BLOCK;
        while self.before.len() <= complete {
            let b = self.before.len() - 1;
            let r = self.block_rows(b, width, rows, counted);
            let last = *self.before.last().expect("starts with 0");
            self.before.push(last + r);
        }
        let last = *self.before.last().expect("starts with 0");
        if complete * BLOCK < self.len {
            last + self.block_rows(complete, width, rows, counted)
        } else {
            last
        }
    }

    fn block_rows(
        &self,
        b: usize,
        width: usize,
        rows: &mut impl FnMut(usize) -> usize,
        counted: &mut Counted,
    ) -> usize {
        let lines = b * BLOCK..((b + 1) * BLOCK).min(self.len);
        if self.need[b] <= width {
            return lines.len();
        }
        counted.lines += lines.len();
        lines.map(&mut *rows).sum()
    }

    /// The lines showing in `height` rows from row `top` (of the `total` rows [`Rows::total`]
    /// gave at `width`): the first, the rows of it above `top`, and the line after the last.
    pub(super) fn window(
        &self,
        width: usize,
        top: usize,
        height: usize,
        rows: &mut impl FnMut(usize) -> usize,
        counted: &mut Counted,
    ) -> (usize, usize, usize) {
        // The block holding row `top` (the last one starting at or before it).
        let b = self.before.partition_point(|&r| r <= top).saturating_sub(1);
        let fits = |b: usize| self.need.get(b).is_some_and(|&n| n <= width);
        let mut at = self.before.get(b).copied().unwrap_or(0);
        let mut k = b * BLOCK;
        let row_of = |k: usize, rows: &mut dyn FnMut(usize) -> usize, c: &mut Counted| {
            if fits(k / BLOCK) {
                1
            } else {
                c.lines += 1;
                rows(k)
            }
        };
        // Walk to the line holding `top`.
        let mut here = 0;
        while k < self.len {
            here = row_of(k, rows, counted);
            if at + here > top {
                break;
            }
            at += here;
            k += 1;
        }
        if k >= self.len {
            return (self.len, 0, self.len);
        }
        let (first, skip) = (k, top - at);
        // Then to the line after the last that shows.
        let end = top + height;
        at += here;
        k += 1;
        while k < self.len && at < end {
            at += row_of(k, rows, counted);
            k += 1;
        }
        (first, skip, k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines of the given lengths, one column a byte, cut (not wrapped) at the width.
    fn rows_at(lens: &[usize], width: usize) -> Vec<usize> {
        lens.iter().map(|&l| l.div_ceil(width).max(1)).collect()
    }

    /// The first line, skip and end a plain prefix sum gives.
    fn expected(rows: &[usize], top: usize, height: usize) -> (usize, usize, usize) {
        let total: usize = rows.iter().sum();
        if top >= total {
            return (rows.len(), 0, rows.len());
        }
        let mut at = 0;
        let mut k = 0;
        while at + rows[k] <= top {
            at += rows[k];
            k += 1;
        }
        let (first, skip) = (k, top - at);
        let end = top + height;
        at += rows[k];
        k += 1;
        while k < rows.len() && at < end {
            at += rows[k];
            k += 1;
        }
        (first, skip, k)
    }

    #[test]
    fn agrees_with_a_prefix_sum_at_every_width_and_row() {
        // Mostly short lines, some long ones in a few blocks, growing in steps.
        let lens: Vec<usize> =
            (0..1000).map(|i| if i % 97 == 5 { 300 + i % 50 } else { 10 + i % 70 }).collect();
        let mut r = Rows::default();
        let mut counted = Counted::default();
        for (n, &l) in lens.iter().enumerate() {
            r.push(l);
            if n % 173 != 0 && n + 1 != lens.len() {
                continue;
            }
            let seen = &lens[..=n];
            for width in [40, 80, 120, 400] {
                let want = rows_at(seen, width);
                let mut rows = |k: usize| want[k];
                let total = r.total((width, 0), width, &mut rows, &mut counted);
                assert_eq!(total, want.iter().sum::<usize>(), "{n} lines at {width}");
                for top in (0..total + 3).step_by(7) {
                    for height in [1, 5, 40] {
                        let got = r.window(width, top, height, &mut rows, &mut counted);
                        assert_eq!(got, expected(&want, top, height), "{top}+{height} at {width}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_width_at_which_every_line_fits_reads_no_line() {
        let mut r = Rows::default();
        for i in 0..10_000 {
            r.push(20 + i % 60);
        }
        let mut counted = Counted::default();
        let mut never = |_: usize| -> usize { panic!("no line is read") };
        assert_eq!(r.total((100, 0), 100, &mut never, &mut counted), 10_000);
        assert_eq!(r.window(100, 5_000, 40, &mut never, &mut counted), (5_000, 0, 5_040));
        assert_eq!(counted.lines, 0);
        // Narrower: the blocks with a line over 79 columns are counted line by line.
        let mut cut = |_: usize| 1;
        r.total((60, 0), 60, &mut cut, &mut counted);
        assert!(counted.lines > 0);
    }
}
