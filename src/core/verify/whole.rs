//! Checking a whole-file listing merged with the lines its placeholders stand for: every line
//! of the result is the listing's or an original line a placeholder restored, and no original
//! line beside restored ones vanishes without the listing putting something in its place.
//!
//! Not for: the merge itself (`core::whole`), or hunks (`verify::hunk`).

use crate::core::hash::HashSet;

use similar::DiffOp;

use super::{Unexplained, brackets, changed, plain};
use crate::core::locate::lines::ratio;
use crate::core::whole::elides;

/// Check a whole-file listing merged into `before`: `after` must be the listing, with each
/// placeholder line standing for original lines, and nothing next to what a placeholder
/// restored may vanish without the listing putting something in its place.
pub fn check_whole(before: &[String], after: &[String], listing: &str) -> Result<(), Unexplained> {
    let listed: Vec<&str> = listing.lines().collect();
    let wild = crate::core::whole::placeholders(before, &listed);
    check_whole_marked(before, after, listing, &wild)
}

/// [`check_whole`], with the listing's placeholder lines marked already (`wild`, one per line of
/// `listing`, as [`crate::core::whole::placeholders`] marks them): a listing read three ways
/// is checked three times, its placeholders found once.
pub fn check_whole_marked(
    before: &[String],
    after: &[String],
    listing: &str,
    wild: &[bool],
) -> Result<(), Unexplained> {
    let listed: Vec<&str> = listing.lines().collect();
    let restoring = wild.contains(&true);
    // A file whose brackets balanced must still balance: a merge that took the new code's
    // closing braces for the file's own leaves a block open. Without placeholders the result
    // is the listing, whose own closers without openers (a shell `case` pattern's `)`) say
    // nothing; a block it leaves open says it was cut off.
    // Counted twice, as text and as code (strings and comments left out): an imbalance only
    // counts when both see it, so "[0.0, 1.0)" in a docstring is no open block. The code count
    // is taken against the file's own (the scanner may misread a Rust lifetime for a quote in
    // both), the text count needs a file that balanced.
    let broken = |was: [i64; 3], now: [i64; 3]| match restoring {
        true => now != was,
        false => now.iter().zip(&was).any(|(n, w)| n > w),
    };
    let text = |lines: &[String]| brackets(lines.iter().map(|l| l.as_str()));
    let code =
        |lines: &[String]| crate::core::strings::code_brackets(lines.iter().map(|l| l.as_str()));
    let was = text(before);
    if was == [0; 3] && broken(was, text(after)) && broken(code(before), code(after)) {
        return Err(Unexplained(
            "the merged file's brackets would no longer balance: list the file in full".into(),
        ));
    }
    // A listing that ends inside a string spanning lines (a docstring never closed) was cut
    // off in the middle, unless the file did too.
    let inside = |lines: &[String]| {
        crate::core::strings::ends_inside_a_string(lines.iter().map(|l| l.as_str()))
    };
    if inside(after) && !inside(before) {
        return Err(Unexplained(
            "the listing ends inside a string that it never closes (a docstring, a template): it looks cut off; send the whole file".into(),
        ));
    }
    if let Some(last) = listed.iter().rev().find(|l| !l.trim().is_empty())
        && opens_block(last)
    {
        return Err(Unexplained(format!(
            "the listing ends with {:?}, which opens a block that nothing follows: it looks cut off; send the whole file",
            last.trim()
        )));
    }
    if !restoring {
        return Ok(());
    }
    let real: Vec<&str> =
        listed.iter().zip(wild).filter(|(_, w)| !**w).map(|(l, _)| l.trim_end()).collect();
    let result: Vec<&str> = after.iter().map(|l| l.trim_end()).collect();
    let restored = restored_lines(&real, &result)?;
    let orig: HashSet<&str> = before.iter().map(|l| l.trim_end()).collect();
    if let Some(i) = (0..after.len()).find(|&i| restored[i] && !orig.contains(result[i])) {
        return Err(Unexplained(format!(
            "the merged file holds {:?}, which is neither in the listing nor in the file",
            result[i].trim()
        )));
    }
    check_nothing_dropped_beside(before, after, &restored)
}

/// Whether a line opens a block with a colon, as Python's compound statements do (`with open(p)
/// as f:`, `else:`): a listing that ends with one was cut off in the middle.
fn opens_block(line: &str) -> bool {
    const OPENERS: &[&str] = &[
        "def", "class", "if", "elif", "else", "for", "while", "with", "try", "except", "finally",
        "async", "match", "case",
    ];
    let t = line.trim();
    let Some(head) = t.strip_suffix(':') else { return false };
    let first = head.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("");
    OPENERS.contains(&first) && (head == first || head[first.len()..].starts_with([' ', '(']))
}

/// Which result lines do not come from the listing (`real`: its lines but the placeholders),
/// found by a diff of the listing against the result: those must be original lines restored
/// where a placeholder stands. A telling line of the listing missing from the result is refused.
fn restored_lines(real: &[&str], result: &[&str]) -> Result<Vec<bool>, Unexplained> {
    let left_out = |lines: &[&str]| match lines.iter().find(|l| !plain(l)) {
        Some(l) => Err(Unexplained(format!(
            "the merged file leaves out {:?}, a line of the listing",
            l.trim()
        ))),
        None => Ok(()),
    };
    let mut restored = vec![false; result.len()];
    for op in crate::core::linediff::patience(real, result) {
        match op {
            DiffOp::Insert { new_index, new_len, .. } => {
                restored[new_index..new_index + new_len].iter_mut().for_each(|r| *r = true)
            }
            DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                restored[new_index..new_index + new_len].iter_mut().for_each(|r| *r = true);
                // A line eliding a value (`PASS: ...`) stands for the file's line, there.
                let put = &result[new_index..new_index + new_len];
                let missing: Vec<&str> = real[old_index..old_index + old_len]
                    .iter()
                    .copied()
                    .filter(|l| !put.iter().any(|p| elides(l, p)))
                    .collect();
                left_out(&missing)?;
            }
            DiffOp::Delete { old_index, old_len, .. } => {
                left_out(&real[old_index..old_index + old_len])?
            }
            DiffOp::Equal { .. } => {}
        }
    }
    Ok(restored)
}

/// Original lines that vanished right beside restored ones: the placeholder may have stood for
/// them too, so dropping them is a guess. A line the listing modified has a look-alike among
/// the lines put in its place; one without is a line that went away, which only the listing's
/// own lines around it can say.
fn check_nothing_dropped_beside(
    before: &[String],
    after: &[String],
    restored: &[bool],
) -> Result<(), Unexplained> {
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
pub(crate) fn modified(old: &str, new: &str) -> bool {
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
