//! Code a listing's reading would lose: a definition dropped, a stretch of code left out with
//! nothing in its place, a block's first line taken for the rewrite of another. Each guard reads
//! the file before and after the merge, whatever reading made it.
//!
//! Not for: reading the listing (`core::whole`), or the verifier's check of the result
//! (`verify::whole`).

use super::{defined_name, defines};

/// A stretch of the file (two lines or more that say something) that the listing leaves out
/// with nothing in its place: a listing that stops early, or an excerpt, drops it as surely as
/// a deletion would, and nothing in the listing tells the two apart. Taken as a deletion only
/// when its first line of code names what the reply's prose talks about (`remove
/// \`old_helper\``).
pub(super) fn dropped_with_nothing_in_its_place(
    before: &[String],
    after: &[String],
    mentions: &[String],
) -> Option<String> {
    // Trimmed: lines the listing moved into a new block (wrapped in a `try`) are kept.
    let old: Vec<&str> = before.iter().map(|l| l.trim()).collect();
    let new: Vec<&str> = after.iter().map(|l| l.trim()).collect();
    let listed: crate::core::hash::HashSet<&str> = new.iter().copied().collect();
    let says = |t: &&str| super::super::doubt::telling(t);
    let depth = |l: &String| l.len() - l.trim_start().len();
    let outermost = (before.iter().filter(|l| says(&l.trim())).map(depth).min()).unwrap_or(0);
    // A listing that keeps nothing else of the file is a rewrite, not part of the file.
    if !old.iter().filter(|t| says(t)).any(|t| listed.contains(t)) {
        return None;
    }
    for op in crate::core::linediff::patience(&old, &new) {
        // Lines deleted outright, or replaced by lines none of which is like them (a changed
        // line next to a stretch left out is one replacement to the diff).
        let (old_index, old_len, put) = match op {
            similar::DiffOp::Delete { old_index, old_len, .. } => (old_index, old_len, &new[..0]),
            // A rewrite replaces lines with about as many; a stretch left out shrinks them.
            similar::DiffOp::Replace { old_index, old_len, new_index, new_len }
                if old_len >= new_len + 2 =>
            {
                (old_index, old_len, &new[new_index..new_index + new_len])
            }
            _ => continue,
        };
        let gone: Vec<usize> = (old_index..old_index + old_len)
            .filter(|&i| !put.iter().any(|p| crate::core::verify::modified(old[i], p)))
            .collect();
        // A whole construct of the file (a line at its outermost depth, or one that defines
        // something at any depth: a method left out of the middle of a class), or its end: what
        // an excerpt or a listing that stops early leaves out. Lines inside a block whose first
        // and last lines the listing keeps are the block rewritten.
        let at_end = before[old_index + old_len..].iter().all(|l| l.trim().is_empty());
        let construct = |i: usize| {
            says(&old[i]) && (depth(&before[i]) == outermost || defined_name(old[i]).is_some())
        };
        if !at_end && !gone.iter().any(|&i| construct(i)) {
            continue;
        }
        let gone: Vec<&str> = gone.into_iter().map(|i| old[i]).collect();
        let telling: Vec<&str> = gone.iter().copied().filter(says).collect();
        if telling.len() < 2 {
            continue;
        }
        // Moved, not dropped: most of its lines stand elsewhere in the listing (a method made
        // a top-level function).
        if telling.iter().filter(|t| listed.contains(*t)).count() * 2 >= telling.len() {
            continue;
        }
        if names_a_mention(&telling, mentions) {
            continue;
        }
        return Some(format!(
            "the listing leaves out lines of the file around line {} ({:?} …) with nothing in their place: left out for brevity, or deleted? send a diff, or the file in full (a placeholder comment where lines are left out)",
            old_index + 1,
            telling[0]
        ));
    }
    None
}

/// A block that defines no name (`router.get('/:id', async (req, res) => {`, `describe('parse',
/// () => {`, `mux.HandleFunc("/ready", func(w http.ResponseWriter, r *http.Request) {` inside a
/// function) whose first line the merge replaced with one like it (the same call at the same
/// depth, other arguments), the file's line gone. Behind placeholders, the listing's block may
/// be new beside the file's (a route after `// ... existing routes ...` sharing lines of its
/// body) as well as its rewrite, and the reading that pairs them loses the file's block.
/// (Control statements, `if (a) {` made `if (b) {`, are no such blocks.)
pub(super) fn head_rewritten(before: &[String], after: &[String]) -> Option<String> {
    const CONTROL: &[&str] =
        &["if", "for", "while", "switch", "catch", "with", "elif", "else", "return", "match"];
    fn callee(t: &str) -> Option<&str> {
        let c = t.split_once('(').map(|(c, _)| c.trim())?;
        let word = c.split(|ch: char| !(ch.is_alphanumeric() || ch == '_')).next().unwrap_or("");
        (!c.is_empty() && !c.contains(' ') && !CONTROL.contains(&word)).then_some(c)
    }
    // A call that opens a block: a method's (`router.get(`) or one handed a function (`it('x',
    // () => {`); `list(page = 1) {` is a method's head, defined, not called.
    let head = |l: &str| {
        let t = l.trim();
        let called = callee(t).is_some_and(|c| c.contains('.'))
            || t.contains("=>")
            || t.contains("function")
            || t.contains("func(");
        t.ends_with(['{', '(', '[', ':']) && defines(t).is_none() && called
    };
    let depth = |l: &str| l.len() - l.trim_start().len();
    let now: crate::core::hash::HashSet<&str> = after.iter().map(|l| l.trim()).collect();
    let was: crate::core::hash::HashSet<&str> = before.iter().map(|l| l.trim()).collect();
    let (old, new) = before.iter().find_map(|l| {
        if !head(l) || now.contains(l.trim()) {
            return None;
        }
        let c = callee(l.trim())?;
        let new = after.iter().find(|a| {
            head(a)
                && depth(a) == depth(l)
                && !was.contains(a.trim())
                && callee(a.trim()) == Some(c)
        })?;
        Some((l.trim(), new.trim()))
    })?;
    Some(format!(
        "the listing's {new:?} takes the place of the file's {old:?}: a new block beside it, or that block rewritten? the placeholders leave it open; send a diff, or the whole file"
    ))
}

/// A name the file defines (`def load(path):`, `class Sink`, `fn parse`) that the listing
/// never defines again (its callers may still call it), and that no sentence of the reply says
/// goes: whatever takes its place (a `load_fast` in its slot, another file's text under this
/// file's name), the file's other users lose it. Refused, naming it. (Even a listing that keeps
/// nothing else of the file: a rewrite that drops names is said so, or it is the wrong file.)
pub(super) fn vanished(before: &[String], after: &[String], removed: &[String]) -> Option<String> {
    let listed: crate::core::hash::HashSet<&str> = after.iter().map(|l| l.trim()).collect();
    // A line the listing keeps defines what it did: only the others can hold a name that went
    // (and most of a long listing is kept, so the names it writes are read only if one may have).
    if before.iter().all(|l| listed.contains(l.trim()) || defines(l.trim()).is_none()) {
        return None;
    }
    let written: crate::core::hash::HashSet<&str> =
        after.iter().filter_map(|l| defines(l.trim())).collect();
    let depth = |l: &str| l.len() - l.trim_start().len();
    // A definition nested in something the listing dropped as a whole (a helper inside a
    // removed function) goes with it: what encloses it decides. One whose enclosing line the
    // listing keeps (a method of a class it keeps) counts on its own.
    let enclosing_kept = |i: usize| {
        let d = depth(&before[i]);
        d == 0
            || before[..i]
                .iter()
                .rev()
                .find(|l| {
                    !l.trim().is_empty()
                        && depth(l) < d
                        && (defines(l.trim()).is_some()
                            || (depth(l) == 0 && !l.trim_start().starts_with([')', ']', '}'])))
                })
                .is_none_or(|l| listed.contains(l.trim()))
    };
    let (at, name) = before.iter().enumerate().find_map(|(i, l)| {
        let name = defines(l.trim())?;
        (name.chars().count() >= 3
            && !written.contains(name)
            && !removed.iter().any(|r| r == name)
            && enclosing_kept(i))
        .then_some((i, name))
    })?;
    Some(format!(
        "the listing drops `{name}` (defined at line {} of the file) and defines nothing of that name: left out, renamed, or another file's text? say in the reply that it goes, or send a diff",
        at + 1
    ))
}

/// Whether a stretch of lines (trimmed, those that say something) is what the reply's prose
/// talks about: a name on its first line of code (`def title_case(s):`,
/// `exports.compileQueryParser = function …`, `clear() {`) is one the prose mentions.
pub(super) fn names_a_mention(telling: &[&str], mentions: &[String]) -> bool {
    let comment =
        |t: &&str| ["//", "#", "/*", "*", "\"\"\"", "'''", "<!--"].iter().any(|c| t.starts_with(c));
    // (Decorators and attributes, `@property`, `#[inline]`, come before what they adorn.)
    let attribute = |t: &&str| t.starts_with('@') || t.starts_with("#[");
    let Some(head) = telling.iter().find(|t| !comment(t) && !attribute(t)).or(telling.first())
    else {
        return false;
    };
    let mut named =
        head.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| w.len() >= 2);
    named.any(|n| mentions.iter().any(|m| m == n))
}
