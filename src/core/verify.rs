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
//! What this module does not do: find places or change text (`core::locate`, `core::apply`).

use std::collections::{HashMap, HashSet};

use similar::{Algorithm, DiffOp, capture_diff_slices};

use crate::core::edit::{Hunk, LineKind};
use crate::core::locate::lines::ratio;

/// Why a change is not explained by its edit: the refusal's reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unexplained(pub String);

impl std::fmt::Display for Unexplained {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A removed line found only roughly still has to look like the line the edit removes.
const REMOVED_LIKENESS: f64 = 0.5;
/// An added line may carry a copy error over from the file (`core::apply::merge_line`).
const ADDED_LIKENESS: f64 = 0.6;

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
    let head = before.iter().zip(after).take_while(|(a, b)| a == b).count();
    let tail = before[head..]
        .iter()
        .rev()
        .zip(after[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
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
    line.chars().filter(|c| c.is_alphanumeric()).count() < 3
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
    let mut plain_left: HashMap<&str, Vec<usize>> = HashMap::new();
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

/// Check that turning `before` into `after` is what `hunk` asks for.
pub fn check_hunk(before: &[String], after: &[String], hunk: &Hunk) -> Result<(), Unexplained> {
    check_window(before, (0, before.len()), after, hunk, None)
}

/// [`check_hunk`] for a change confined to `file[lo..hi]`, which becomes `new`: the rest of
/// the file is only read to know which lines it holds, or not at all when `held` (how many
/// times the file holds each line, trimmed, counted once per file version) is given.
pub fn check_window(
    file: &[String],
    (lo, hi): (usize, usize),
    new: &[String],
    hunk: &Hunk,
    held: Option<&HashMap<&str, u32>>,
) -> Result<(), Unexplained> {
    let (before, after) = (&file[lo..hi], new);
    // The first line of each run of added and of removed lines in the hunk.
    let mut openers: HashSet<(&str, bool)> = HashSet::new();
    for (k, l) in hunk.lines.iter().enumerate() {
        let prev = k.checked_sub(1).map(|p| hunk.lines[p].kind);
        if l.kind != LineKind::Context && prev != Some(l.kind) {
            openers.insert((l.text.trim(), l.kind == LineKind::Add));
        }
    }
    let starts = |line: &str, add: bool| openers.contains(&(line.trim(), add));
    let (removed, added, _, _) = changed(before, after, &starts);
    // The hunk's context lines that the file holds somewhere (one pass over the file).
    let quoted: HashSet<&str> = if hunk.marked {
        hunk.lines
            .iter()
            .filter(|l| l.kind == LineKind::Context && !plain(&l.text))
            .map(|l| l.text.trim())
            .collect()
    } else {
        HashSet::new()
    };
    let file_has: HashSet<&str> = match held {
        _ if quoted.is_empty() => HashSet::new(),
        Some(held) => quoted.iter().copied().filter(|q| held.contains_key(q)).collect(),
        None => file.iter().map(|l| l.trim()).filter(|l| quoted.contains(l)).collect(),
    };
    // Lines the edit removes, and lines it adds: its `+` lines and, in a diff, context lines the
    // file does not hold (a forgotten `+`). A context line the file holds was quoted from
    // somewhere. Each as (hunk line index, text).
    let removes: Vec<usize> =
        (0..hunk.lines.len()).filter(|&k| hunk.lines[k].kind == LineKind::Remove).collect();
    let adds: Vec<usize> = (0..hunk.lines.len())
        .filter(|&k| {
            let l = &hunk.lines[k];
            match l.kind {
                LineKind::Add => true,
                LineKind::Remove => false,
                LineKind::Context => hunk.marked && !file_has.contains(l.text.trim()),
            }
        })
        .collect();
    let text = |k: &usize| hunk.lines[*k].text.as_str();
    let remove_texts: Vec<&str> = removes.iter().map(text).collect();
    let add_texts: Vec<&str> = adds.iter().map(text).collect();
    let like_removed = |file: &str, edit: &str| {
        same_text(file, edit)
            || ratio(file.trim(), edit.trim()) >= REMOVED_LIKENESS
            || (edit.trim().len() >= 4 && file.contains(edit.trim()))
    };
    let gone = match_in_order(&removed, &remove_texts, &vec![false; removes.len()], like_removed)
        .map_err(|line| {
        Unexplained(format!(
            "the placement would remove {:?}, which the edit does not remove",
            line.trim()
        ))
    })?;
    // An added line may also be the file's line with a fragment of it replaced (the model
    // quoted part of a line): it then holds the edit's text.
    let like_added = |file: &str, edit: &str| {
        let (f, e) = (file.trim(), edit.trim());
        f == e
            || (e.len() >= 8 && ratio(f, e) >= ADDED_LIKENESS)
            || (!e.is_empty() && f.contains(e))
    };
    let optional: Vec<bool> = adds.iter().map(|&k| hunk.lines[k].kind != LineKind::Add).collect();
    let new = match_in_order(&added, &add_texts, &optional, like_added).map_err(|line| {
        Unexplained(format!(
            "the placement would add {:?}, which is not a line the edit adds",
            line.trim()
        ))
    })?;
    let context = context_pairs(hunk, after, &added);
    check_indentation(&added, &new, &add_texts, &context)?;
    check_deleted_exactly(hunk, &removed, &gone, &removes)?;
    check_replaced_in_place(hunk, (&removed, &gone, &removes), (&added, &new, &adds))?;
    // Brackets: what the change opens and closes is what the edit opens and closes (a closing
    // brace taken for one the file already had leaves a block open).
    let sub = |a: [i64; 3], b: [i64; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let by_change =
        sub(brackets(added.iter().map(|d| d.text)), brackets(removed.iter().map(|d| d.text)));
    let real_adds = hunk.lines.iter().filter(|l| l.kind == LineKind::Add).map(|l| l.text.as_str());
    let taken = new.iter().filter(|&&k| optional[k]).map(|&k| add_texts[k]);
    let by_edit = sub(brackets(real_adds.chain(taken)), brackets(remove_texts.iter().copied()));
    if by_change != by_edit {
        return Err(Unexplained(
            "the placement would open or close brackets differently from the edit".into(),
        ));
    }
    // Every telling line the edit adds must be in the result (the changed part of it, or the
    // unchanged lines around, where an equal line may have been kept by the diff).
    let after_has: HashSet<&str> = after.iter().map(|l| l.trim()).collect();
    let outside: HashSet<&str> = match held {
        Some(_) => HashSet::new(),
        None => file[..lo].iter().chain(&file[hi..]).map(|l| l.trim()).collect(),
    };
    // Whether the file holds the line outside the window: with `held`, more often than inside.
    let kept_outside = |t: &str| match held {
        Some(held) => {
            let inside = file[lo..hi].iter().filter(|l| l.trim() == t).count();
            held.get(t).is_some_and(|&n| n as usize > inside)
        }
        None => outside.contains(t),
    };
    if let Some(missing) = add_texts.iter().zip(&adds).find_map(|(t, k)| {
        let real = hunk.lines[*k].kind == LineKind::Add;
        let t_in = t.trim();
        (real && !plain(t) && !after_has.contains(t_in) && !kept_outside(t_in)).then_some(*t)
    }) && !added.iter().any(|a| like_added(a.text, missing))
    {
        return Err(Unexplained(format!(
            "the placement leaves out {:?}, a line the edit adds",
            missing.trim()
        )));
    }
    Ok(())
}

/// A line the edit deletes outright (no new line in its place) must be the file's line but for
/// whitespace: deleting a line only like it (`count > 2685` for `count > 1738`) deletes
/// something the model never named. Lines it replaces may differ by a copy error, which the
/// new line carries over.
fn check_deleted_exactly(
    hunk: &Hunk,
    removed: &[Diffed],
    gone: &[usize],
    removes: &[usize],
) -> Result<(), Unexplained> {
    let n = hunk.lines.len();
    let replaced = |k: usize| {
        let mut j = k;
        while j < n && hunk.lines[j].kind == LineKind::Remove {
            j += 1;
        }
        j < n && hunk.lines[j].kind == LineKind::Add
    };
    let loose = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    for (d, &i) in removed.iter().zip(gone) {
        let edit = hunk.lines[removes[i]].text.as_str();
        if plain(d.text) || replaced(removes[i]) || loose(d.text) == loose(edit) {
            continue;
        }
        return Err(Unexplained(format!(
            "the placement would delete {:?}, which is only like the line the edit deletes ({:?})",
            d.text.trim(),
            edit.trim()
        )));
    }
    Ok(())
}

/// A line the edit replaces (`-old` then `+new` in one block, line for line) must be replaced
/// where it was: the new line has the same unchanged lines before it as the old one had.
fn check_replaced_in_place(
    hunk: &Hunk,
    (removed, gone, removes): (&[Diffed], &[usize], &[usize]),
    (added, new, adds): (&[Diffed], &[usize], &[usize]),
) -> Result<(), Unexplained> {
    let mut partner: HashMap<usize, usize> = HashMap::new();
    let n = hunk.lines.len();
    let mut k = 0;
    while k < n {
        let r0 = k;
        while k < n && hunk.lines[k].kind == LineKind::Remove {
            k += 1;
        }
        let a0 = k;
        while k < n && hunk.lines[k].kind == LineKind::Add {
            k += 1;
        }
        if a0 - r0 == k - a0 && a0 > r0 {
            partner.extend((0..a0 - r0).map(|i| (r0 + i, a0 + i)));
        }
        if k == r0 {
            k += 1;
        }
    }
    let where_added: HashMap<usize, usize> = added
        .iter()
        .zip(new)
        .filter(|(d, _)| !plain(d.text))
        .map(|(d, &i)| (adds[i], d.kept_before))
        .collect();
    for (d, i) in removed.iter().zip(gone) {
        if plain(d.text) {
            continue;
        }
        let Some(to) = partner.get(&removes[*i]) else { continue };
        if let Some(&at) = where_added.get(to)
            && at != d.kept_before
        {
            return Err(Unexplained(format!(
                "the placement would move {:?} away from the place of the line it replaces",
                hunk.lines[*to].text.trim()
            )));
        }
    }
    Ok(())
}

/// How far around the added lines the hunk's context is looked for.
const CONTEXT_REACH: usize = 12;

/// The hunk's telling context lines found once, as written but for indentation, near the added
/// lines: (the model's columns, the file's columns). They show how the file indents what the
/// model indented.
fn context_pairs(hunk: &Hunk, after: &[String], added: &[Diffed]) -> Vec<(usize, usize)> {
    let (Some(first), Some(last)) = (added.first(), added.last()) else { return Vec::new() };
    let lo = first.at.saturating_sub(CONTEXT_REACH);
    let hi = (last.at + CONTEXT_REACH + 1).min(after.len());
    let near = &after[lo..hi];
    // Only the context lines next to added ones: a model's context far from its change may be
    // indented inconsistently (a dedented body under an undedented `def`).
    let n = hunk.lines.len();
    let telling =
        |k: &usize| hunk.lines[*k].kind == LineKind::Context && !plain(&hunk.lines[*k].text);
    let mut next_to_adds: Vec<usize> = Vec::new();
    for k in (0..n).filter(|&k| hunk.lines[k].kind == LineKind::Add) {
        next_to_adds.extend((0..k).rev().find(telling));
        next_to_adds.extend((k + 1..n).find(telling));
    }
    next_to_adds.sort_unstable();
    next_to_adds.dedup();
    next_to_adds
        .into_iter()
        .map(|k| &hunk.lines[k])
        .filter_map(|l| {
            let mut found = near.iter().filter(|f| same_text(f, &l.text));
            let f = found.next()?;
            found.next().is_none().then(|| (cols(&l.text), cols(f)))
        })
        .collect()
}

/// Lines the model indented differently must stay indented differently, in the same order: a
/// re-indentation that folds two depths into one (a JSDoc ` * ` line pulled to the left edge), or
/// puts a new line deeper than the context line the model put it level with, changes what the
/// model wrote. Context lines only count against added ones (the model's own context may be
/// inconsistent, and the file keeps its text anyway).
fn check_indentation(
    added: &[Diffed],
    matched: &[usize],
    adds: &[&str],
    context: &[(usize, usize)],
) -> Result<(), Unexplained> {
    let mut map: Vec<(usize, usize, Option<&str>)> = Vec::new();
    for (d, k) in added.iter().zip(matched) {
        let line = d.text;
        if plain(line) || !same_text(line, adds[*k]) {
            continue;
        }
        map.push((cols(adds[*k]), cols(line), Some(line)));
    }
    if map.is_empty() {
        return Ok(());
    }
    map.extend(context.iter().map(|&(m, f)| (m, f, None)));
    for (i, &(m1, f1, l1)) in map.iter().enumerate() {
        for &(m2, f2, l2) in &map[i + 1..] {
            let Some(line) = l1.or(l2) else { continue };
            let broken = (m1 == m2 && f1 != f2) || (m1 < m2 && f1 >= f2) || (m1 > m2 && f1 <= f2);
            if broken {
                return Err(Unexplained(format!(
                    "re-indenting the new lines would change their nesting (at {:?})",
                    line.trim()
                )));
            }
        }
    }
    Ok(())
}

/// Check a whole-file listing merged into `before`: `after` must be the listing, with each
/// placeholder line standing for original lines, and nothing next to what a placeholder
/// restored may vanish without the listing putting something in its place.
pub fn check_whole(before: &[String], after: &[String], listing: &str) -> Result<(), Unexplained> {
    // A file whose brackets balanced must still balance: a merge that took the new code's
    // closing braces for the file's own leaves a block open.
    let balanced = |lines: &[String]| brackets(lines.iter().map(|l| l.as_str())) == [0; 3];
    if balanced(before) && !balanced(after) {
        return Err(Unexplained(
            "the merged file's brackets would no longer balance: list the file in full".into(),
        ));
    }
    let listed: Vec<&str> = listing.lines().collect();
    let wild = crate::core::whole::placeholders(before, &listed);
    if !wild.contains(&true) {
        return Ok(());
    }
    // Which result lines come from the listing: a diff of the listing's own lines against the
    // result; the rest must be original lines restored where a placeholder stands.
    let real: Vec<&str> =
        listed.iter().zip(&wild).filter(|(_, w)| !**w).map(|(l, _)| l.trim_end()).collect();
    let result: Vec<&str> = after.iter().map(|l| l.trim_end()).collect();
    let mut restored = vec![false; after.len()];
    for op in capture_diff_slices(Algorithm::Patience, &real, &result) {
        match op {
            DiffOp::Insert { new_index, new_len, .. } => {
                restored[new_index..new_index + new_len].iter_mut().for_each(|r| *r = true)
            }
            DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                restored[new_index..new_index + new_len].iter_mut().for_each(|r| *r = true);
                if let Some(l) = real[old_index..old_index + old_len].iter().find(|l| !plain(l)) {
                    return Err(Unexplained(format!(
                        "the merged file leaves out {:?}, a line of the listing",
                        l.trim()
                    )));
                }
            }
            DiffOp::Delete { old_index, old_len, .. } => {
                if let Some(l) = real[old_index..old_index + old_len].iter().find(|l| !plain(l)) {
                    return Err(Unexplained(format!(
                        "the merged file leaves out {:?}, a line of the listing",
                        l.trim()
                    )));
                }
            }
            DiffOp::Equal { .. } => {}
        }
    }
    let orig: HashSet<&str> = before.iter().map(|l| l.trim_end()).collect();
    if let Some(i) = (0..after.len()).find(|&i| restored[i] && !orig.contains(result[i])) {
        return Err(Unexplained(format!(
            "the merged file holds {:?}, which is neither in the listing nor in the file",
            result[i].trim()
        )));
    }
    // Original lines that vanished right beside restored ones: the placeholder may have stood
    // for them too, so dropping them is a guess.
    // A line the listing modified has a look-alike among the lines put in its place; one without
    // is a line that went away, which only the listing's own lines around it can say.
    let (_, _, ops, head) = changed(before, after, &|_, _| false);
    for op in ops {
        let (old, new) = (op.old_range(), op.new_range());
        if matches!(op, DiffOp::Equal { .. }) || old.is_empty() {
            continue;
        }
        let (start, end) = (head + new.start, head + new.end);
        // Blank lines and the listing's bare punctuation (`/**`, `}`) between say nothing: a
        // placeholder's lines may start after them.
        let restored_at = |i: usize| restored[i] && !after[i].trim().is_empty();
        let blank = |i: &usize| plain(&after[*i]) && !restored_at(*i);
        let before_op = (0..start).rev().find(|i| !blank(i)).is_some_and(restored_at);
        let after_op = (end..after.len()).find(|i| !blank(i)).is_some_and(restored_at);
        let beside = before_op || after_op;
        if !beside {
            continue;
        }
        let put = &after[start..end];
        let dropped = before[head + old.start..head + old.end]
            .iter()
            .find(|l| !plain(l) && !put.iter().any(|p| modified(l, p)));
        if let Some(l) = dropped {
            return Err(Unexplained(format!(
                "the listing's placeholder may stand for {:?}, which the merge would drop: list the file in full around it",
                l.trim()
            )));
        }
    }
    Ok(())
}

/// A listing's line counts as a modified original line at this likeness.
const MODIFIED_LIKENESS: f64 = 0.6;

/// Whether `new` can be `old` modified: alike as text, or one's words all in the other
/// (`return total` → `return round(total, 2)`).
fn modified(old: &str, new: &str) -> bool {
    let words = |s: &str| -> HashSet<String> {
        s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let (a, b) = (words(old), words(new));
    ratio(old.trim(), new.trim()) >= MODIFIED_LIKENESS
        || (!a.is_empty() && !b.is_empty() && (a.is_subset(&b) || b.is_subset(&a)))
}

#[cfg(test)]
mod tests;
