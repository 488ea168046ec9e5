//! How many rows a line takes in a pane: wrapped by grapheme cluster (or at spaces, for prose)
//! after a gutter, or one row when long lines are cut and scrolled sideways. The ui breaks the
//! rows it draws with the same [`breaks`], so what the app counts (to bound scrolling) is what
//! the ui draws. Widths are display columns as ratatui counts them (`unicode-width`).
//!
//! Not for: painting or cutting the rows (`ui::wrap`).

use std::ops::Range;

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// The mark before a continuation row of a wrapped line.
pub const CONTINUED: &str = "↪ ";
/// [`CONTINUED`]'s columns (counting rows asks for it once a line).
pub const CONTINUED_WIDTH: usize = 2;

/// Where a line is cut in the no-wrap view: text hidden to the left, to the right.
pub const CUT_LEFT: &str = "‹";
pub const CUT_RIGHT: &str = "›";

/// Rows longer than this many per line are not drawn (a minified file's one line): 4,000 rows
/// show a line of some 300,000 characters at 80 columns whole. (At 400, a 31 KB line hid its
/// middle, where a reply could put a command that `y` then wrote unseen.)
pub const MAX_ROWS: usize = 4_000;

/// What a line longer than its pane does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Overflow {
    /// Wrap onto continuation rows.
    Wrap,
    /// Stay on one row, showing the columns from this one on.
    Scroll(usize),
}

/// One grapheme cluster as [`breaks`] sees it.
pub trait Fit {
    fn width(&self) -> usize;
    fn is_space(&self) -> bool;
}

/// A cluster's width, and whether it is a space.
#[derive(Debug, Clone, Copy)]
pub struct Measured {
    pub width: usize,
    pub space: bool,
}

impl Fit for Measured {
    fn width(&self) -> usize {
        self.width
    }
    fn is_space(&self) -> bool {
        self.space
    }
}

/// Rows of `cells`, the first at most `first` columns and the others `rest`: greedy by
/// cluster, or (with `words`) broken after the last space that fits when there is one. At most
/// [`MAX_ROWS`] rows.
pub fn breaks<C: Fit>(cells: &[C], first: usize, rest: usize, words: bool) -> Vec<Range<usize>> {
    let mut rows = Vec::new();
    let (mut start, mut used, mut space) = (0, 0, None);
    let mut i = 0;
    while i < cells.len() {
        let w = cells[i].width();
        let room = if rows.is_empty() { first } else { rest };
        if used + w > room && i > start {
            let end = match space {
                Some(s) if words && s > start => s + 1,
                _ => i,
            };
            rows.push(start..end);
            if rows.len() == MAX_ROWS {
                return rows;
            }
            start = end;
            used = cells[start..i].iter().map(|c| c.width()).sum();
            space = None;
            continue;
        }
        if cells[i].is_space() {
            space = Some(i);
        }
        used += w;
        i += 1;
    }
    if start < cells.len() || rows.is_empty() {
        rows.push(start..cells.len());
    }
    rows
}

/// The clusters of `text` as [`breaks`] measures them: an invisible character as its name
/// ([`invisible`]); other control characters (a tab) are dropped (they would move the cursor;
/// ratatui drops them too).
pub fn measure(text: &str) -> Vec<Measured> {
    if is_plain(text) {
        return text.bytes().map(|b| Measured { width: 1, space: b == b' ' }).collect();
    }
    text.graphemes(true)
        .filter_map(|g| match invisible(g) {
            Some(name) => Some(Measured { width: name.len(), space: false }),
            None if g.chars().any(char::is_control) => None,
            None => Some(Measured { width: g.width(), space: g == " " }),
        })
        .collect()
}

/// The name drawn for a cluster that would otherwise show nothing while the file holds it: a
/// carriage return inside a line, a zero-width space, a bidirectional override that reorders
/// what is drawn after it ("trojan source"), a BOM, other format and control characters (a
/// tab aside: the callers lay those out). `None` for anything else, a joiner inside an emoji
/// included.
pub fn invisible(g: &str) -> Option<&'static str> {
    let mut chars = g.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        // A cluster of several: only a direction control in it says anything.
        return g
            .chars()
            .any(|c| matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'))
            .then_some("<BIDI>");
    }
    Some(match c {
        '\t' => return None,
        '\r' => "<CR>",
        '\u{7f}' => "<DEL>",
        '\u{ad}' => "<SHY>",
        '\u{61c}' => "<ALM>",
        '\u{180e}' => "<MVS>",
        '\u{200b}' => "<ZWSP>",
        '\u{200c}' => "<ZWNJ>",
        '\u{200d}' => "<ZWJ>",
        '\u{200e}' => "<LRM>",
        '\u{200f}' => "<RLM>",
        '\u{202a}' => "<LRE>",
        '\u{202b}' => "<RLE>",
        '\u{202c}' => "<PDF>",
        '\u{202d}' => "<LRO>",
        '\u{202e}' => "<RLO>",
        '\u{2060}' => "<WJ>",
        '\u{2066}' => "<LRI>",
        '\u{2067}' => "<RLI>",
        '\u{2068}' => "<FSI>",
        '\u{2069}' => "<PDI>",
        '\u{feff}' => "<BOM>",
        '\u{2061}'..='\u{2064}' | '\u{206a}'..='\u{206f}' | '\u{fff9}'..='\u{fffb}' => "<INV>",
        c if c.is_control() => "<CTL>",
        _ => return None,
    })
}

/// ASCII without control characters: one column a byte.
pub fn is_plain(text: &str) -> bool {
    text.bytes().all(|b| (0x20..0x7f).contains(&b))
}

/// How many rows a line of `text` takes `width` columns wide after gutters `gutter` (first row)
/// and `cont_gutter` (continuations) columns wide, as the ui wraps it.
pub fn count(gutter: usize, cont_gutter: usize, text: &str, width: usize, words: bool) -> usize {
    count_known(gutter, cont_gutter, text, is_plain(text), width, words)
}

/// [`count`] with whether `text` is plain ([`is_plain`]) already known (kept when the line was
/// taken in, so a new width does not scan it again).
pub fn count_known(
    gutter: usize,
    cont_gutter: usize,
    text: &str,
    plain: bool,
    width: usize,
    words: bool,
) -> usize {
    if gutter.max(cont_gutter) >= width {
        return 1;
    }
    if plain && let Some(rows) = count_plain(gutter, cont_gutter, text.len(), width, words) {
        return rows;
    }
    breaks(&measure(text), width - gutter, width - cont_gutter, words).len()
}

/// [`count`] for a plain line ([`is_plain`]) of `len` bytes, when its length alone tells: it
/// fits on its first row, or it is cut anywhere (`None`: it wraps at words, see [`count`]).
pub fn count_plain(
    gutter: usize,
    cont_gutter: usize,
    len: usize,
    width: usize,
    words: bool,
) -> Option<usize> {
    if gutter.max(cont_gutter) >= width {
        return Some(1);
    }
    let (first, rest) = (width - gutter, width - cont_gutter);
    // One column a byte: most lines fit on their first row.
    if len <= first {
        return Some(1);
    }
    (!words).then(|| (1 + (len - first).div_ceil(rest)).min(MAX_ROWS))
}

/// The display width of a text, as the rows count it.
pub fn width(text: &str) -> usize {
    if is_plain(text) { text.len() } else { text.width() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continued_width_is_the_marks() {
        assert_eq!(CONTINUED_WIDTH, CONTINUED.width());
    }

    #[test]
    fn counting_agrees_with_breaking() {
        let texts = [
            "",
            "short",
            "the quick brown fox jumps over the lazy dog again and again",
            "abcdefghijklmnopqrstuvwxyz0123456789",
            "ab漢字😀c and 🇺🇸🇫🇷 flags",
            "tab\there",
            "is_admin\u{200b} = True\r\u{202e}x",
            "    a line of code that is long enough to wrap twice at twenty columns",
        ];
        for text in texts {
            for width in [4, 7, 10, 20, 80] {
                for words in [false, true] {
                    for (g, c) in [(0, 0), (3, 2), (10, 10)] {
                        let want = if g.max(c) >= width {
                            1
                        } else {
                            breaks(&measure(text), width - g, width - c, words).len()
                        };
                        let slow: Vec<Measured> = text
                            .graphemes(true)
                            .filter(|g| invisible(g).is_some() || !g.chars().any(char::is_control))
                            .map(|g| match invisible(g) {
                                Some(name) => Measured { width: name.len(), space: false },
                                None => Measured { width: g.width(), space: g == " " },
                            })
                            .collect();
                        if g.max(c) < width {
                            assert_eq!(
                                breaks(&slow, width - g, width - c, words).len(),
                                want,
                                "{text:?}"
                            );
                        }
                        assert_eq!(count(g, c, text, width, words), want, "{text:?} {width}");
                    }
                }
            }
        }
        let long = "x".repeat(100_000);
        assert_eq!(count(0, 2, &long, 10, false), MAX_ROWS, "capped as drawn");
    }
}
