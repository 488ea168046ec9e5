//! Line normalisation and similarity: the vocabulary the locator compares lines with.

use crate::core::hash::HashMap;

/// What the locator knows about one line.
#[derive(Debug, Clone)]
pub struct LineInfo<'a> {
    /// The text without trailing whitespace.
    pub trimmed: &'a str,
    /// Leading whitespace.
    pub indent: &'a str,
    /// Hash of the text with all whitespace removed.
    pub key: u64,
    /// Length of the text with all whitespace removed.
    pub loose_len: usize,
    /// How wide the indentation is, a tab counting four columns (worked out once: the
    /// locator weighs indentation on every line pair it matches).
    cols: usize,
    /// What fuzzy comparison needs, made on first use: most lines are only ever compared by key.
    fuzzy: std::sync::OnceLock<Fuzzy>,
}

/// A line's fuzzy-comparison form.
#[derive(Debug, Clone)]
pub struct Fuzzy {
    /// The first [`CAP`] characters of the text with all whitespace removed.
    pub loose: Box<[char]>,
    /// How many of those characters fall in each of [`HIST`] buckets: a cheap bound on how alike
    /// two lines can be, checked before the edit distance.
    pub hist: [u8; HIST],
}

pub const HIST: usize = 32;

/// Fuzzy comparison looks at this many characters of a line at most.
pub const CAP: usize = 256;

impl<'a> LineInfo<'a> {
    pub fn new(text: &'a str) -> Self {
        let trimmed = text.trim_end();
        let body = trimmed.trim_start();
        let indent = &trimmed[..trimmed.len() - body.len()];
        // A fast multiplicative hash: keys only need to tell lines apart within one file.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut loose_len = 0;
        if body.is_ascii() {
            // Most lines: bytes are characters, and whitespace is `char::is_whitespace`'s
            // ASCII set (vertical tab included), so the key is the same as below, sooner.
            for b in
                body.bytes().filter(|b| !matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'))
            {
                h = (h.rotate_left(5) ^ b as u64).wrapping_mul(0x0100_0000_01b3);
                loose_len += 1;
            }
        } else {
            for c in body.chars().filter(|c| !c.is_whitespace()) {
                h = (h.rotate_left(5) ^ c as u64).wrapping_mul(0x0100_0000_01b3);
                loose_len += 1;
            }
        }
        let cols = indent.chars().map(|c| if c == '\t' { 4 } else { 1 }).sum();
        LineInfo { trimmed, indent, key: h, loose_len, cols, fuzzy: std::sync::OnceLock::new() }
    }

    /// The line's fuzzy-comparison form.
    pub fn fuzzy(&self) -> &Fuzzy {
        self.fuzzy.get_or_init(|| {
            let mut hist = [0u8; HIST];
            // Sized at once (`loose_len` counts the same characters): collecting an iterator
            // of unknown length grew and shrank the buffer, the locator's main allocation cost.
            let mut loose = Vec::with_capacity(self.loose_len.min(CAP));
            loose.extend(self.body().chars().filter(|c| !c.is_whitespace()).take(CAP));
            let loose = loose.into_boxed_slice();
            for c in loose.iter() {
                let slot = &mut hist[*c as usize % HIST];
                *slot = slot.saturating_add(1);
            }
            Fuzzy { loose, hist }
        })
    }

    /// How wide the indentation is, a tab counting four columns.
    pub fn columns(&self) -> usize {
        self.cols
    }

    pub fn is_blank(&self) -> bool {
        self.loose_len == 0
    }

    pub fn body(&self) -> &'a str {
        &self.trimmed[self.indent.len()..]
    }

    /// How much this line says about where it is: short lines (`}`, `)`) say little.
    pub fn weight(&self) -> f64 {
        if self.is_blank() { 0.0 } else { (0.25 + self.loose_len as f64 / 12.0).min(1.0) }
    }
}

/// How two lines compare.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Likeness {
    /// Identical but for trailing whitespace / line endings.
    Same,
    /// Identical but for leading whitespace.
    Indent,
    /// Identical but for whitespace inside the line.
    Spacing,
    /// Similar: a copy error, a renamed word. 0..1.
    Fuzzy(f64),
    Different,
}

impl Likeness {
    pub fn similarity(self) -> f64 {
        match self {
            Likeness::Same | Likeness::Indent => 1.0,
            Likeness::Spacing => 0.97,
            Likeness::Fuzzy(s) => s,
            Likeness::Different => 0.0,
        }
    }
}

/// Lowest similarity at which two different lines may be paired as a copy error.
pub const FUZZY_MIN: f64 = 0.6;

pub fn compare(a: &LineInfo, b: &LineInfo) -> Likeness {
    if a.key == b.key && a.loose_len == b.loose_len {
        if a.trimmed == b.trimmed {
            return Likeness::Same;
        }
        if a.body() == b.body() {
            return Likeness::Indent;
        }
        return Likeness::Spacing;
    }
    if a.is_blank() || b.is_blank() {
        return Likeness::Different;
    }
    if commented(a.body(), b.body()) || commented(b.body(), a.body()) {
        return Likeness::Fuzzy(COMMENTED);
    }
    let (la, lb) = (a.loose_len as f64, b.loose_len as f64);
    if la.min(lb) / la.max(lb) < FUZZY_MIN {
        return Likeness::Different;
    }
    // Characters two lines can share at most; an edit distance is at least what is left over.
    let (a, b) = (a.fuzzy(), b.fuzzy());
    let common: usize = a.hist.iter().zip(&b.hist).map(|(x, y)| *x.min(y) as usize).sum();
    let longer = a.loose.len().max(b.loose.len());
    if 1.0 - ((longer - common.min(longer)) as f64 / longer as f64) < FUZZY_MIN {
        return Likeness::Different;
    }
    let s = ratio_chars(&a.loose, &b.loose);
    if s >= FUZZY_MIN { Likeness::Fuzzy(s) } else { Likeness::Different }
}

/// How alike a line and the same line with a comment at its end are: the code is the same, but
/// the texts are not (a kept line keeps the file's comment).
const COMMENTED: f64 = 0.9;

/// Whether `long` is `short` with a comment added at its end (`remove(e)  # TODO: …`, a
/// watch-mode `# AI!` the model is told not to copy): however long the comment, the code is the
/// same line. Told by a space, then a comment's opener, right after the whole of `short`.
fn commented(short: &str, long: &str) -> bool {
    let Some(rest) = long.strip_prefix(short) else { return false };
    let comment = rest.trim_start();
    short.chars().filter(|c| c.is_alphanumeric()).count() >= 3
        && comment.len() < rest.len()
        && ["#", "//", "/*", "--", "<!--"].iter().any(|o| comment.starts_with(o))
}

/// Similarity of two strings ignoring whitespace: 1 - edit distance / longer length, on chars.
/// Long strings are compared on their first [`CAP`] characters.
pub fn ratio(a: &str, b: &str) -> f64 {
    let a: Vec<char> = a.chars().filter(|c| !c.is_whitespace()).take(CAP).collect();
    let b: Vec<char> = b.chars().filter(|c| !c.is_whitespace()).take(CAP).collect();
    ratio_chars(&a, &b)
}

pub fn ratio_chars(a: &[char], b: &[char]) -> f64 {
    let longer = a.len().max(b.len());
    if longer == 0 {
        return 1.0;
    }
    1.0 - levenshtein(a, b) as f64 / longer as f64
}

/// Edit distance, bit-parallel (Myers): one machine word per 64 characters of the shorter
/// string. (The table it replaced for lines longer than a word was most of a long listing's
/// merge time.)
pub fn levenshtein(a: &[char], b: &[char]) -> usize {
    let (a, b) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if a.is_empty() {
        return b.len();
    }
    if a.len() <= 64 { myers(a, b) } else { myers_blocks(a, b) }
}

/// [`myers`] for a column longer than a word, cut into 64-row blocks (Hyyrö's blocked form):
/// each block passes the horizontal difference at its bottom row to the block below, as the
/// top row's +1 is passed into the first.
fn myers_blocks(a: &[char], b: &[char]) -> usize {
    let m = a.len();
    let blocks = m.div_ceil(64);
    // The distinct characters of `a`, and for each the rows (bits, block by block) it stands in.
    let mut alphabet: Vec<char> = Vec::new();
    let mut ascii = [usize::MAX; 128];
    let mut peq: Vec<u64> = Vec::new();
    let row_of = |alphabet: &[char], ascii: &[usize; 128], c: char| {
        if (c as u32) < 128 {
            (ascii[c as usize] != usize::MAX).then(|| ascii[c as usize])
        } else {
            alphabet.iter().position(|&x| x == c)
        }
    };
    for (i, &c) in a.iter().enumerate() {
        let r = match row_of(&alphabet, &ascii, c) {
            Some(r) => r,
            None => {
                alphabet.push(c);
                if (c as u32) < 128 {
                    ascii[c as usize] = alphabet.len() - 1;
                }
                peq.extend(std::iter::repeat_n(0, blocks));
                alphabet.len() - 1
            }
        };
        peq[r * blocks + i / 64] |= 1 << (i % 64);
    }
    // Rows below `a`'s last in the last block hold whatever: a row only depends on those above.
    let mut pv = vec![!0u64; blocks];
    let mut mv = vec![0u64; blocks];
    let last = 1u64 << ((m - 1) % 64);
    let mut score = m as isize;
    for &c in b {
        let row = row_of(&alphabet, &ascii, c);
        let mut hin: isize = 1;
        for k in 0..blocks {
            let mut eq = row.map_or(0, |r| peq[r * blocks + k]);
            let (p, n) = (pv[k], mv[k]);
            let xv = eq | n;
            if hin < 0 {
                eq |= 1;
            }
            let xh = ((eq & p).wrapping_add(p) ^ p) | eq;
            let mut ph = n | !(xh | p);
            let mut mh = p & xh;
            let bottom = if k + 1 == blocks { last } else { 1 << 63 };
            let hout = if ph & bottom != 0 {
                1
            } else if mh & bottom != 0 {
                -1
            } else {
                0
            };
            ph <<= 1;
            mh <<= 1;
            if hin < 0 {
                mh |= 1;
            } else if hin > 0 {
                ph |= 1;
            }
            pv[k] = mh | !(xv | ph);
            mv[k] = ph & xv;
            hin = hout;
        }
        score += hin;
    }
    score as usize
}

/// Myers' bit-vector edit distance, `a` at most 64 characters.
fn myers(a: &[char], b: &[char]) -> usize {
    let m = a.len();
    let mut ascii = [0u64; 128];
    let mut other: Vec<(char, u64)> = Vec::new();
    for (i, &c) in a.iter().enumerate() {
        if (c as u32) < 128 {
            ascii[c as usize] |= 1 << i;
        } else if let Some(e) = other.iter_mut().find(|e| e.0 == c) {
            e.1 |= 1 << i;
        } else {
            other.push((c, 1 << i));
        }
    }
    let last = 1u64 << (m - 1);
    let mut pv = if m == 64 { !0u64 } else { (1u64 << m) - 1 };
    let mut mv = 0u64;
    let mut score = m;
    for &c in b {
        let eq = if (c as u32) < 128 {
            ascii[c as usize]
        } else {
            other.iter().find(|e| e.0 == c).map_or(0, |e| e.1)
        };
        let xv = eq | mv;
        let xh = ((eq & pv).wrapping_add(pv) ^ pv) | eq;
        let mut ph = mv | !(xh | pv);
        let mut mh = pv & xh;
        if ph & last != 0 {
            score += 1;
        }
        if mh & last != 0 {
            score -= 1;
        }
        ph = (ph << 1) | 1;
        mh <<= 1;
        pv = mh | !(xv | ph);
        mv = ph & xv;
    }
    score
}

/// The plain table, what the bit-parallel forms are checked against.
#[cfg(test)]
fn levenshtein_dp(a: &[char], b: &[char]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == cb { prev } else { 1 + prev.min(cur).min(row[j]) };
            prev = cur;
        }
    }
    row[b.len()]
}

/// Where each whitespace-insensitive line of a file occurs.
pub struct FileIndex {
    pub by_key: HashMap<u64, Vec<u32>>,
}

impl FileIndex {
    pub fn new(lines: &[LineInfo]) -> Self {
        let mut by_key: HashMap<u64, Vec<u32>> =
            HashMap::with_capacity_and_hasher(lines.len(), Default::default());
        for (i, l) in lines.iter().enumerate() {
            if !l.is_blank() {
                by_key.entry(l.key).or_default().push(i as u32);
            }
        }
        FileIndex { by_key }
    }

    pub fn occurrences(&self, key: u64) -> &[u32] {
        self.by_key.get(&key).map_or(&[], |v| v.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lines_key_is_the_same_read_as_bytes_or_as_characters() {
        // The ASCII fast path must give the key the character path gives: one line with a
        // character beyond ASCII takes the other path, and must still equal its ASCII twin's
        // key when that character is whitespace (U+00A0 and U+2003 are, to `char`).
        for (a, b) in [
            ("  let x =\u{0b}y;\t", "  let x =\u{a0}y;\t"),
            ("fn f( a ,b )", "fn f(\u{2003}a ,b )"),
        ] {
            let (a, b) = (LineInfo::new(a), LineInfo::new(b));
            assert_eq!((a.key, a.loose_len), (b.key, b.loose_len));
        }
        assert_ne!(LineInfo::new("ab").key, LineInfo::new("ba").key);
    }

    #[test]
    fn likeness_levels() {
        let c = |a: &str, b: &str| compare(&LineInfo::new(a), &LineInfo::new(b));
        assert_eq!(c("  x = 1", "  x = 1  "), Likeness::Same);
        assert_eq!(c("x = 1", "\tx = 1"), Likeness::Indent);
        assert_eq!(c("x=1", "x = 1"), Likeness::Spacing);
        assert!(matches!(c("def start_task():", "def create_task():"), Likeness::Fuzzy(_)));
        assert_eq!(c("return None", "import os, sys, re"), Likeness::Different);
        let long =
            "    queue.remove(event)  # TODO: check the event is scheduled first, it may be gone";
        assert_eq!(c("    queue.remove(event)", long), Likeness::Fuzzy(COMMENTED));
        assert_eq!(c(long, "  queue.remove(event)"), Likeness::Fuzzy(COMMENTED));
        assert_eq!(
            c("x = a", "x = a # a note that is long, much longer than the code"),
            Likeness::Different
        );
        assert_eq!(c("remove(event)", "remove(event)#no space, no comment"), Likeness::Different);
    }

    #[test]
    fn bit_parallel_distance_agrees_with_the_table() {
        let words = [
            "",
            "a",
            "kitten",
            "sitting",
            "café au lait",
            "flaw",
            "lawn",
            "x".repeat(64).as_str().to_owned().leak(),
            "abcdefghij",
        ];
        for a in words {
            for b in words {
                let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
                let (s, l) = if a.len() <= b.len() { (&a, &b) } else { (&b, &a) };
                let want = if s.is_empty() { l.len() } else { levenshtein_dp(s, l) };
                assert_eq!(levenshtein(&a, &b), want, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn blocked_distance_agrees_with_the_table() {
        // Strings past one word (and past two), alike and unlike, ASCII and not.
        let mut seed = 7u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let alphabet: Vec<char> = "abcdeé_(){}".chars().collect();
        for _ in 0..400 {
            let len = 60 + (next() % 150) as usize;
            let a: Vec<char> =
                (0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect();
            let mut b = a.clone();
            for _ in 0..(next() % 40) {
                let i = (next() % (b.len() as u64 + 1)) as usize;
                match next() % 3 {
                    0 if i < b.len() => {
                        b.remove(i);
                    }
                    1 if i < b.len() => b[i] = alphabet[(next() % alphabet.len() as u64) as usize],
                    _ => b.insert(i, alphabet[(next() % alphabet.len() as u64) as usize]),
                }
            }
            let (s, l) = if a.len() <= b.len() { (&a, &b) } else { (&b, &a) };
            assert_eq!(levenshtein(&a, &b), levenshtein_dp(s, l), "{a:?} {b:?}");
            let c: Vec<char> =
                (0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect();
            let (s, l) = if a.len() <= c.len() { (&a, &c) } else { (&c, &a) };
            assert_eq!(levenshtein(&a, &c), levenshtein_dp(s, l), "{a:?} {c:?}");
        }
    }

    #[test]
    fn ratio_bounds() {
        assert_eq!(ratio("abc", "abc"), 1.0);
        assert_eq!(ratio("abc", "xyz"), 0.0);
        assert!((ratio("kitten", "sitting") - (1.0 - 3.0 / 7.0)).abs() < 1e-9);
    }
}
