//! The selected hunk's diff lines as a pane draws them, and their rows: each line's rows at a
//! width (gutter, sign, text; side by side, the half each side takes), and the narrowest width
//! at which it takes one row (what `rows` keeps per block, so a new width counts blocks).
//!
//! Not for: keeping the rows (`measure`, `rows`), drawing (`ui::diff_view`).

use super::DiffLine;
use super::rows::ALWAYS_READ;
use crate::app::ViewMode;
use crate::app::diff_model::{Block, DiffModel};
use crate::app::wrap;

/// The lines of `model` as `view` draws them.
pub(super) fn diff_lines(model: &DiffModel, view: ViewMode) -> Vec<DiffLine> {
    let mut out = Vec::new();
    for (b, block) in model.blocks.iter().enumerate() {
        match block {
            Block::Same(pairs) => out.extend(pairs.iter().map(|&(o, n)| DiffLine::Same(o, n))),
            Block::Change(olds, news) => match view {
                ViewMode::Unified => {
                    out.extend((0..olds.len()).map(|k| DiffLine::Old { block: b, k }));
                    out.extend((0..news.len()).map(|k| DiffLine::New { block: b, k }));
                }
                ViewMode::SideBySide => out.extend(
                    (0..olds.len().max(news.len())).map(|k| DiffLine::Pair { block: b, k }),
                ),
            },
        }
    }
    out
}

/// A line number's columns: `{n:>4}`.
fn number_width(n: usize) -> usize {
    (n.checked_ilog10().unwrap_or(0) as usize + 1).max(4)
}

/// The half of the pane each side of the side-by-side view takes.
pub fn half(width: usize) -> usize {
    width.saturating_sub(1) / 2
}

/// Rows of one side's line: `numbers` the gutter's columns before the sign.
fn diff_line_rows(text: &str, plain: bool, numbers: usize, width: usize) -> usize {
    // The sign (`- `) on the first row, `↪ ` on the others: both two columns.
    wrap::count_known(numbers + 2, numbers + 2, text, plain, width, false)
}

/// Rows of a diff line at `width`.
pub(super) fn rows_of(model: &DiffModel, line: DiffLine, width: usize) -> usize {
    let first = model.first_line.unwrap_or(1);
    let numbered = model.first_line.is_some();
    // Unified: `{o:>4} {n:>4} `; side by side: `{n:>4} `.
    let both = |o: Option<usize>, n: Option<usize>| {
        if !numbered {
            return 0;
        }
        let w = |x: Option<usize>| x.map_or(4, number_width);
        w(o) + 1 + w(n) + 1
    };
    let one = |n: usize| if numbered { number_width(n) + 1 } else { 0 };
    let cells = |b: usize| match &model.blocks[b] {
        Block::Change(olds, news) => (olds, news),
        Block::Same(_) => unreachable!("a changed line is in a changed block"),
    };
    match line {
        DiffLine::Same(o, n) => {
            let numbers = both(Some(first + o), Some(first + n));
            diff_line_rows(&model.new[n], model.new_plain[n], numbers, width)
        }
        DiffLine::Old { block, k } => {
            let c = &cells(block).0[k];
            let numbers = both(Some(first + c.index), None);
            diff_line_rows(&model.old[c.index], model.old_plain[c.index], numbers, width)
        }
        DiffLine::New { block, k } => {
            let c = &cells(block).1[k];
            let numbers = both(None, Some(first + c.index));
            diff_line_rows(&model.new[c.index], model.new_plain[c.index], numbers, width)
        }
        DiffLine::Pair { block, k } => {
            let (olds, news) = cells(block);
            let l = olds.get(k).map_or(0, |c| {
                let plain = model.old_plain[c.index];
                diff_line_rows(&model.old[c.index], plain, one(first + c.index), half(width))
            });
            let r = news.get(k).map_or(0, |c| {
                let plain = model.new_plain[c.index];
                diff_line_rows(&model.new[c.index], plain, one(first + c.index), half(width))
            });
            l.max(r)
        }
    }
}

/// Rows of an unchanged line side by side: the two sides' numbers differ.
pub(super) fn same_pair_rows(model: &DiffModel, o: usize, n: usize, width: usize) -> usize {
    let first = model.first_line.unwrap_or(1);
    let one = |x: usize| if model.first_line.is_some() { number_width(first + x) + 1 } else { 0 };
    let (text, plain) = (&model.new[n], model.new_plain[n]);
    let h = half(width);
    diff_line_rows(text, plain, one(o), h).max(diff_line_rows(text, plain, one(n), h))
}

/// The narrowest width at which a diff line takes one row ([`ALWAYS_READ`] when only its text
/// tells): its gutter, its sign and its text, side by side twice over and the middle column.
pub(super) fn need_of(model: &DiffModel, line: DiffLine, view: ViewMode) -> usize {
    let first = model.first_line.unwrap_or(1);
    let numbered = model.first_line.is_some();
    let w = |x: Option<usize>| x.map_or(4, number_width);
    let both = |o: Option<usize>, n: Option<usize>| if numbered { w(o) + 1 + w(n) + 1 } else { 0 };
    let one = |n: usize| if numbered { number_width(first + n) + 1 } else { 0 };
    let side = |text: &str, plain: bool, numbers: usize| {
        if plain { numbers + 2 + text.len() } else { ALWAYS_READ }
    };
    // `half(width) >= n` from `width >= 2n + 1` on.
    let halves = |n: usize| if n == ALWAYS_READ { n } else { 2 * n + 1 };
    let cells = |b: usize| match &model.blocks[b] {
        Block::Change(olds, news) => (olds, news),
        Block::Same(_) => unreachable!("a changed line is in a changed block"),
    };
    match line {
        DiffLine::Same(o, n) => {
            let (text, plain) = (&model.new[n], model.new_plain[n]);
            match view {
                ViewMode::Unified => side(text, plain, both(Some(first + o), Some(first + n))),
                ViewMode::SideBySide => {
                    halves(side(text, plain, one(o)).max(side(text, plain, one(n))))
                }
            }
        }
        DiffLine::Old { block, k } => {
            let i = cells(block).0[k].index;
            side(&model.old[i], model.old_plain[i], both(Some(first + i), None))
        }
        DiffLine::New { block, k } => {
            let i = cells(block).1[k].index;
            side(&model.new[i], model.new_plain[i], both(None, Some(first + i)))
        }
        DiffLine::Pair { block, k } => {
            let (olds, news) = cells(block);
            let l = olds
                .get(k)
                .map_or(0, |c| side(&model.old[c.index], model.old_plain[c.index], one(c.index)));
            let r = news
                .get(k)
                .map_or(0, |c| side(&model.new[c.index], model.new_plain[c.index], one(c.index)));
            halves(l.max(r))
        }
    }
}
