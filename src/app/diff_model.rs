//! The diff of one hunk, as a model the panes read: the old and new side's lines (with up to
//! three unchanged lines of the file around the change), grouped into unchanged and changed
//! blocks, with word-level emphasis of what changed inside a changed line (`similar`'s word
//! diff). Built once per hunk and version of it and its file (`measure` caches the selected
//! hunk's): a large rewrite's line diff is the costly part of a frame otherwise. Only the lines
//! around the hunk are read from the file, never the whole file split.
//!
//! Not for: painting it (`ui::diff`, with syntax colour from `ui::highlight`), or locating the
//! hunk (its `Preview` says where it goes).

use std::hash::{Hash, Hasher};
use std::ops::Range;

use similar::{Algorithm, ChangeTag, DiffOp, TextDiff, capture_diff_slices};

use crate::core::edit::{Change, LineKind};
use crate::core::file::Source;
use crate::core::review::{HunkState, ReviewHunk};

/// Unchanged lines of the file shown around a change.
pub const CONTEXT: usize = 3;

/// One side's line in a block: its index in the side, and the byte ranges that changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    pub index: usize,
    pub emph: Vec<Range<usize>>,
}

/// A run of unchanged lines, or a change (removed lines, then added lines).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    Same(Vec<(usize, usize)>),
    Change(Vec<Cell>, Vec<Cell>),
}

/// A hunk's diff.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DiffModel {
    pub old: Vec<String>,
    pub new: Vec<String>,
    pub blocks: Vec<Block>,
    /// The file line (1-based) of both sides' first line; `None` when the hunk is not placed.
    pub first_line: Option<usize>,
    /// A hash of both sides' lines, taken when the model is built: syntax colour is cached
    /// under it.
    pub key: u64,
    /// Whether each line of `old` and of `new` is plain ASCII (`wrap::is_plain`): its rows at
    /// any width follow from its length, so a new width reads no text again.
    pub old_plain: Vec<bool>,
    pub new_plain: Vec<bool>,
}

impl DiffModel {
    /// The diff of a hunk against the file as the review knows it.
    pub fn of(hunk: &ReviewHunk, source: Option<&Source>) -> DiffModel {
        let p = &hunk.preview;
        if p.old.is_empty() && p.new.is_empty() && !p.deletes {
            return unplaced(hunk);
        }
        let text = match source {
            Some(Source::Text(t)) => t.as_str(),
            _ => "",
        };
        let lines = line_count(text);
        let before_from = p.start.saturating_sub(CONTEXT).min(lines);
        let before: Vec<String> = lines_from(text, before_from)
            .take(p.start.min(lines) - before_from)
            .map(expand)
            .collect();
        // An applied hunk's file already holds its new lines.
        let mid_len = if hunk.state == HunkState::Applied { p.new.len() } else { p.old.len() };
        let after_from = (p.start + mid_len).min(lines);
        let after: Vec<String> = lines_from(text, after_from).take(CONTEXT).map(expand).collect();
        let old_mid: Vec<String> = p.old.iter().map(|s| expand(s)).collect();
        // An applied hunk whose lines were edited on disk since shows what stands there now,
        // not what it wrote.
        let edited = hunk.state == HunkState::Applied
            && hunk.disk == Some(crate::core::review::DiskNote::Edited);
        let new_mid: Vec<String> = match edited {
            true => lines_from(text, p.start.min(lines)).take(p.new.len()).map(expand).collect(),
            false => p.new.iter().map(|s| expand(s)).collect(),
        };
        let mut blocks = Vec::new();
        let n = before.len();
        if n > 0 {
            blocks.push(Block::Same((0..n).map(|i| (i, i)).collect()));
        }
        blocks.extend(diff_blocks(&old_mid, &new_mid, n, n));
        let (oa, na) = (n + old_mid.len(), n + new_mid.len());
        if !after.is_empty() {
            blocks.push(Block::Same((0..after.len()).map(|i| (oa + i, na + i)).collect()));
        }
        let old = [before.clone(), old_mid, after.clone()].concat();
        let new = [before, new_mid, after].concat();
        DiffModel::keyed(old, new, blocks, Some(before_from + 1))
    }

    /// The line diff of two whole sides, numbered from line 1 (benches and tests build hunks
    /// this way; the review builds them with [`DiffModel::of`]).
    pub fn between(old: Vec<String>, new: Vec<String>) -> DiffModel {
        let blocks = diff_blocks(&old, &new, 0, 0);
        DiffModel::keyed(old, new, blocks, Some(1))
    }

    fn keyed(
        old: Vec<String>,
        new: Vec<String>,
        blocks: Vec<Block>,
        first_line: Option<usize>,
    ) -> DiffModel {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        old.hash(&mut h);
        new.hash(&mut h);
        let plain =
            |lines: &[String]| lines.iter().map(|l| crate::app::wrap::is_plain(l)).collect();
        let (old_plain, new_plain) = (plain(&old), plain(&new));
        DiffModel { key: h.finish(), old, new, blocks, first_line, old_plain, new_plain }
    }

    /// Added and removed lines: what the pane draws as `+` and `-`.
    pub fn counts(&self) -> (usize, usize) {
        count_blocks(&self.blocks)
    }
}

/// A hunk's added and removed lines, as its [`DiffModel`] draws them, without reading the file
/// around it (the hunk list shows them for every hunk).
pub fn counts(hunk: &ReviewHunk) -> (usize, usize) {
    let p = &hunk.preview;
    if p.old.is_empty() && p.new.is_empty() && !p.deletes {
        return unplaced(hunk).counts();
    }
    let old: Vec<String> = p.old.iter().map(|s| expand(s)).collect();
    let new: Vec<String> = p.new.iter().map(|s| expand(s)).collect();
    count_blocks(&diff_blocks(&old, &new, 0, 0))
}

fn count_blocks(blocks: &[Block]) -> (usize, usize) {
    blocks.iter().fold((0, 0), |(a, d), b| match b {
        Block::Same(_) => (a, d),
        Block::Change(o, n) => (a + n.len(), d + o.len()),
    })
}

/// The definition a placed hunk's first changed line is in (`def handler_200(request)`), in the
/// file as it is now.
pub fn scope(hunk: &ReviewHunk, source: Option<&Source>) -> Option<String> {
    let p = &hunk.preview;
    let Some(Source::Text(text)) = source else { return None };
    if p.old.is_empty() && p.new.is_empty() {
        return None;
    }
    crate::core::scope::enclosing(text, p.start, crate::core::scope::Lang::of(&hunk.path))
}

/// A hunk that has no place in its file: its own text, unnumbered.
fn unplaced(hunk: &ReviewHunk) -> DiffModel {
    let (mut old, mut new, mut blocks) = (Vec::new(), Vec::new(), Vec::new());
    match &hunk.edit.change {
        Change::Modify { hunk } => {
            for l in &hunk.lines {
                let t = expand(&l.text);
                match l.kind {
                    LineKind::Context => {
                        blocks.push(Block::Same(vec![(old.len(), new.len())]));
                        old.push(t.clone());
                        new.push(t);
                    }
                    LineKind::Remove => {
                        blocks.push(Block::Change(
                            vec![Cell { index: old.len(), emph: vec![] }],
                            vec![],
                        ));
                        old.push(t);
                    }
                    LineKind::Add => {
                        blocks.push(Block::Change(
                            vec![],
                            vec![Cell { index: new.len(), emph: vec![] }],
                        ));
                        new.push(t);
                    }
                }
            }
        }
        Change::Create { content } | Change::Replace { content } => {
            new = content.lines().map(expand).collect();
            blocks.push(Block::Change(
                vec![],
                (0..new.len()).map(|index| Cell { index, emph: vec![] }).collect(),
            ));
        }
        Change::Delete { .. } => {}
    }
    DiffModel::keyed(old, new, blocks, None)
}

/// The lines of `text` as `str::lines` counts them.
fn line_count(text: &str) -> usize {
    memchr::memchr_iter(b'\n', text.as_bytes()).count()
        + usize::from(!text.ends_with('\n') && !text.is_empty())
}

/// The lines of `text` from line `from` (0-based) on, found without splitting the lines before.
fn lines_from(text: &str, from: usize) -> std::str::Lines<'_> {
    let at = if from == 0 {
        0
    } else {
        memchr::memchr_iter(b'\n', text.as_bytes()).nth(from - 1).map_or(text.len(), |i| i + 1)
    };
    text[at..].lines()
}

fn expand(s: &str) -> String {
    if s.contains('\t') { s.replace('\t', "    ") } else { s.to_string() }
}

/// The blocks of a line diff between `old` and `new`, indices offset into the sides.
fn diff_blocks(old: &[String], new: &[String], o_off: usize, n_off: usize) -> Vec<Block> {
    let mut blocks = Vec::new();
    for op in capture_diff_slices(Algorithm::Myers, old, new) {
        match op {
            DiffOp::Equal { old_index, new_index, len } => blocks.push(Block::Same(
                (0..len).map(|k| (o_off + old_index + k, n_off + new_index + k)).collect(),
            )),
            DiffOp::Delete { old_index, old_len, .. } => blocks.push(Block::Change(
                (0..old_len).map(|k| Cell { index: o_off + old_index + k, emph: vec![] }).collect(),
                vec![],
            )),
            DiffOp::Insert { new_index, new_len, .. } => blocks.push(Block::Change(
                vec![],
                (0..new_len).map(|k| Cell { index: n_off + new_index + k, emph: vec![] }).collect(),
            )),
            DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                let mut o: Vec<Cell> = (0..old_len)
                    .map(|k| Cell { index: o_off + old_index + k, emph: vec![] })
                    .collect();
                let mut n: Vec<Cell> = (0..new_len)
                    .map(|k| Cell { index: n_off + new_index + k, emph: vec![] })
                    .collect();
                for k in 0..old_len.min(new_len) {
                    let (a, b) = (&old[old_index + k], &new[new_index + k]);
                    if let Some((ea, eb)) = word_emphasis(a, b) {
                        o[k].emph = ea;
                        n[k].emph = eb;
                    }
                }
                blocks.push(Block::Change(o, n));
            }
        }
    }
    blocks
}

/// Byte ranges of a line.
pub type Ranges = Vec<Range<usize>>;

/// The byte ranges that differ between two versions of a line, word by word; `None` when the
/// lines share too little for emphasis to help (or are too long to compare cheaply).
pub fn word_emphasis(a: &str, b: &str) -> Option<(Ranges, Ranges)> {
    if a.len() > 1_000 || b.len() > 1_000 {
        return None;
    }
    let diff = TextDiff::configure().algorithm(Algorithm::Myers).diff_words(a, b);
    let (mut ea, mut eb) = (Vec::new(), Vec::new());
    let (mut pa, mut pb, mut same) = (0, 0, 0);
    for change in diff.iter_all_changes() {
        let len = change.value().len();
        match change.tag() {
            ChangeTag::Equal => {
                pa += len;
                pb += len;
                if !change.value().trim().is_empty() {
                    same += len;
                }
            }
            ChangeTag::Delete => {
                push_range(&mut ea, pa..pa + len);
                pa += len;
            }
            ChangeTag::Insert => {
                push_range(&mut eb, pb..pb + len);
                pb += len;
            }
        }
    }
    let longest = a.trim().len().max(b.trim().len()).max(1);
    (same * 10 >= longest * 3).then_some((ea, eb))
}

fn push_range(v: &mut Vec<Range<usize>>, r: Range<usize>) {
    match v.last_mut() {
        Some(last) if last.end == r.start => last.end = r.end,
        _ => v.push(r),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_the_lines_the_diff_draws() {
        use crate::core::review::Review;
        use std::collections::BTreeMap;
        // One region from the first change to the last, with unchanged lines between: the
        // region is 5 lines on each side, the diff 1 added and 1 removed line each time.
        let text = "a\nb\nc\nd\ne\n";
        let mut sources = BTreeMap::new();
        sources.insert("f.txt".to_string(), Source::Text(text.into()));
        let mut r = Review::new(vec!["f.txt".into()], sources);
        let reply = "f.txt\n```diff\n@@ -1,5 +1,5 @@\n-a\n+A\n b\n c\n d\n-e\n+E\n```\n";
        for e in crate::core::parse::parse_reply(reply, Default::default()) {
            r.add_event(e);
        }
        let h = &r.hunks()[0];
        assert_eq!(h.preview.old.len(), 5);
        let model = DiffModel::of(h, r.source("f.txt"));
        assert_eq!(model.counts(), (2, 2));
        assert_eq!(counts(h), model.counts());
    }

    #[test]
    fn changed_words_are_emphasised() {
        let (a, b) =
            word_emphasis("    return total * rate", "    return total * tax_rate").unwrap();
        assert_eq!(a, vec![19..23]);
        assert_eq!(b, vec![19..27]);
        assert!(word_emphasis("abc def", "xyz uvw").is_none(), "nothing in common");
    }

    #[test]
    fn lines_are_found_as_str_lines_finds_them() {
        for text in ["", "a", "a\n", "a\nb", "a\r\nb\n\nc\n", "\n\n"] {
            let all: Vec<&str> = text.lines().collect();
            assert_eq!(line_count(text), all.len(), "{text:?}");
            for from in 0..=all.len() + 1 {
                let got: Vec<&str> = lines_from(text, from).collect();
                assert_eq!(got, all[from.min(all.len())..], "{text:?} from {from}");
            }
        }
    }
}
