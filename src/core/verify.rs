//! The last word before any write: is the change from a file's old lines to its new ones
//! *explained* by the edit?
//!
//! The check is independent of how a hunk was located and applied. It diffs the text before and
//! after, and accepts only when every removed line is one the edit removes, every added line one
//! the edit adds (or, in a diff, a context line whose `+` the model forgot, and which the file did
//! not already hold), both in the edit's order, and every other line of the file keeps its text
//! and its order (which the diff gives by construction). Added lines may be re-indented, but
//! lines the model indented differently stay indented differently, in the same order.
//!
//! For a whole-file listing, every line of the result is a line of the listing or an original
//! line a placeholder stands for, and no original line next to a placeholder's lines disappears
//! without something of the listing in its place: a placeholder may have stood for it.
//!
//! This module holds what both checks share (the diff of before and after, matching its lines
//! to the edit's in order); `hunk` checks a hunk's change, `whole` a merged listing.
//!
//! What this module does not do: find places or change text (`core::locate`, `core::apply`).

use crate::core::hash::HashMap;

use similar::{Algorithm, DiffOp, capture_diff_slices};

mod hunk;
mod whole;
pub use hunk::{check_hunk, check_window};
pub(crate) use whole::modified;
pub use whole::{check_whole, check_whole_marked};

/// Why a change is not explained by its edit: the refusal's reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unexplained(pub String);

impl std::fmt::Display for Unexplained {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A line that differs between the text before and after: its index, its text, and how many
/// unchanged lines come before it (its place among the lines both texts share).
#[derive(Debug, Clone, Copy)]
struct Diffed<'a> {
    text: &'a str,
    kept_before: usize,
    /// Index in its own text (before for a removed line, after for an added one).
    at: usize,
}

/// The lines that differ between `before` and `after`: (removed, added), the diff's operations
/// and where they start. Common leading and trailing lines are cut first, so the diff costs what
/// changed.
///
/// A block of added (or removed) lines next to an equal line it also ends with can be drawn one
/// line higher or lower: the same change. `starts` says which lines open a run of the edit's own
/// added (`true`) or removed lines; a block is slid to where it starts with one, so that it reads
/// in the edit's order.
fn changed<'a>(
    before: &'a [String],
    after: &'a [String],
    starts: &dyn Fn(&str, bool) -> bool,
) -> (Vec<Diffed<'a>>, Vec<Diffed<'a>>, Vec<DiffOp>, usize) {
    let (head, tail) = crate::core::linediff::common_ends(before, after);
    let old = &before[head..before.len() - tail];
    let new = &after[head..after.len() - tail];
    let mut ops = capture_diff_slices(Algorithm::Myers, old, new);
    // One pure insertion or deletion with the common prefix: slide it up into that prefix.
    let mut head = head;
    if let [DiffOp::Insert { new_len, .. }] = ops.as_slice() {
        let n = *new_len;
        let up = slide_up(after, head, n, |i| starts(&after[i], true));
        head -= up;
        ops = vec![DiffOp::Insert { old_index: 0, new_index: 0, new_len: n }];
        return collect(before, after, head, ops);
    }
    if let [DiffOp::Delete { old_len, .. }] = ops.as_slice() {
        let n = *old_len;
        let up = slide_up(before, head, n, |i| starts(&before[i], false));
        head -= up;
        ops = vec![DiffOp::Delete { old_index: 0, old_len: n, new_index: 0 }];
        return collect(before, after, head, ops);
    }
    collect(before, after, head, ops)
}

/// How far a block of `n` lines at `at..at + n` of `text`, preceded by equal lines, may move up
/// to start with a line `good` accepts (0 when no such place).
fn slide_up(text: &[String], at: usize, n: usize, good: impl Fn(usize) -> bool) -> usize {
    if n == 0 || good(at) {
        return 0;
    }
    let mut k = 0;
    while k < at && text[at - 1 - k] == text[at + n - 1 - k] {
        k += 1;
        if good(at - k) {
            return k;
        }
    }
    0
}

fn collect<'a>(
    before: &'a [String],
    after: &'a [String],
    head: usize,
    ops: Vec<DiffOp>,
) -> (Vec<Diffed<'a>>, Vec<Diffed<'a>>, Vec<DiffOp>, usize) {
    let (mut removed, mut added) = (Vec::new(), Vec::new());
    let mut kept_before = head;
    for op in &ops {
        if let DiffOp::Equal { len, .. } = op {
            kept_before += len;
            continue;
        }
        for i in op.old_range() {
            removed.push(Diffed { text: before[head + i].as_str(), kept_before, at: head + i });
        }
        for i in op.new_range() {
            added.push(Diffed { text: after[head + i].as_str(), kept_before, at: head + i });
        }
    }
    (removed, added, ops, head)
}

/// A line too plain to say where it belongs (blank, a lone brace, `else:`): such lines are
/// matched as a multiset, since a diff may pick any of several equal ones.
fn plain(line: &str) -> bool {
    // Stops at the third: asked for every line a hunk's check looks at, long lines included.
    line.chars().filter(|c| c.is_alphanumeric()).nth(2).is_none()
}

/// Opened minus closed `{}`, `()` and `[]` over some lines.
fn brackets<'a>(lines: impl IntoIterator<Item = &'a str>) -> [i64; 3] {
    let mut net = [0i64; 3];
    for c in lines.into_iter().flat_map(str::chars) {
        match c {
            '{' => net[0] += 1,
            '}' => net[0] -= 1,
            '(' => net[1] += 1,
            ')' => net[1] -= 1,
            '[' => net[2] += 1,
            ']' => net[2] -= 1,
            _ => {}
        }
    }
    net
}

fn cols(line: &str) -> usize {
    line.chars().take_while(|c| c.is_whitespace()).map(|c| if c == '\t' { 4 } else { 1 }).sum()
}

/// Match `lines` (from the diff) to `wanted` (from the edit) in order: telling lines as an
/// ordered subsequence, plain ones as a multiset (lines the edit must have before those it only
/// may have: `optional`). Returns, per line, the index in `wanted` it matched, or the first line
/// that matches nothing.
fn match_in_order<'a>(
    lines: &[Diffed<'a>],
    wanted: &[&str],
    optional: &[bool],
    like: impl Fn(&str, &str) -> bool,
) -> Result<Vec<usize>, &'a str> {
    let mut plain_left: HashMap<&str, Vec<usize>> = HashMap::default();
    for k in (0..wanted.len()).filter(|&k| plain(wanted[k])) {
        plain_left.entry(wanted[k].trim()).or_default().push(k);
    }
    for v in plain_left.values_mut() {
        // Popped from the end: required ones last in the list, so taken first.
        v.sort_by_key(|&k| (!optional[k], std::cmp::Reverse(k)));
    }
    let mut next = 0;
    let mut out = Vec::with_capacity(lines.len());
    for d in lines {
        let line = d.text;
        if plain(line) {
            match plain_left.get_mut(line.trim()).and_then(|v| v.pop()) {
                Some(k) => {
                    out.push(k);
                    continue;
                }
                None => return Err(line),
            }
        }
        match (next..wanted.len()).find(|&k| !plain(wanted[k]) && like(line, wanted[k])) {
            Some(k) => {
                out.push(k);
                next = k + 1;
            }
            None => return Err(line),
        }
    }
    Ok(out)
}

fn same_text(a: &str, b: &str) -> bool {
    a.trim() == b.trim()
}

#[cfg(test)]
mod tests;
