//! Where a `...` in a hunk ends: a placeholder that stands for some lines must be followed by
//! a line that says where it is, and one that stands for none is dropped unless new lines
//! depend on it.
//!
//! Not for: recognising placeholder lines (`core::elision`), or aligning them (`align`).

use super::{HunkSlot, Refusal, RefusalKind};
use crate::core::edit::{Hunk, LineKind};
use crate::core::locate::lines::{Likeness, LineInfo, ratio};

/// A `...` that stands for some lines ends where the next line found is: that line must say
/// where it is (`}` alone could be the end of any block, unless it closes the block the `...`
/// is the body of), or how much the `...` covers is a guess, unless nothing after it changes.
pub(super) fn check_elision_ends(
    hunk: &Hunk,
    slots: &[HunkSlot],
    file: &[LineInfo],
) -> Result<(), Refusal> {
    for (k, slot) in slots.iter().enumerate() {
        let HunkSlot::Elided(s, e) = *slot else { continue };
        if e <= s || e == usize::MAX {
            continue;
        }
        body_overrun(hunk, slots, k, (s, e), file)?;
        rough_end_passed_over(hunk, slots, k, (s, e), file)?;
        // The line the model wrote to end the `...` was not found after it (a `}` taken for an
        // inner block's and let go): where the `...` ends, and so where the changes after it
        // go, is a guess.
        let changes_after = changes_after(slots, k);
        if let Some(j) = unfound_ender(hunk, slots, k) {
            return Err(Refusal {
                kind: RefusalKind::UnanchoredElision,
                message: format!(
                    "the `...` at hunk line {} ends at {:?}, which is not in the file where the `...` would end: include the lines the file has there",
                    k + 1,
                    hunk.lines[j].text.trim()
                ),
                closest: None,
                candidates: Vec::new(),
            });
        }
        // The lines found right after it (up to the first new line), and past new lines the
        // lines the file has right below them: those say where a short line is too.
        let (run, direct) = found_run_after(slots, k, file);
        let telling_lines = |found: &[usize]| -> Vec<usize> {
            found.iter().copied().filter(|f| !file[*f].is_blank()).take(3).collect()
        };
        let next = telling_lines(&run[..direct]);
        let telling = |f: &usize| file[*f].loose_len >= 4;
        if next.is_empty() || telling_lines(&run).iter().any(telling) {
            continue;
        }
        // A short line the file has once (its one bare `{`) ends the `...` in one place only.
        let once = |f: usize| {
            let body = file[f].trimmed.trim_start();
            file.iter().filter(|l| l.trimmed.trim_start() == body).count() == 1
        };
        if next.iter().any(|&f| once(f)) {
            continue;
        }
        // Nothing changes after it: the lines it covers and those after it are kept as they
        // are wherever it ends, and the changes before it are placed by the lines before them.
        if !changes_after {
            continue;
        }
        // A closing `}` ends the `...` well when everything the `...` covers is deeper than it:
        // the body of the block it closes (`fn f() {` / `...` / `}`).
        let end = file[next[0]].columns();
        if file[s..e].iter().all(|l| l.is_blank() || l.columns() > end) {
            continue;
        }
        return Err(Refusal {
            kind: RefusalKind::UnanchoredElision,
            message: format!(
                "the `...` at hunk line {} is followed only by {:?}, too common a line to tell how much it stands for: include a distinctive line after it",
                k + 1,
                hunk.lines.get(k + 1).map_or("", |l| l.text.trim())
            ),
            closest: None,
            candidates: Vec::new(),
        });
    }
    Ok(())
}

/// The file lines found right after the `...` at slot `k`, in a run the file has together: new
/// lines between two of them do not break the run when the file has the two side by side
/// (blank lines aside): `{` then a new line then `for (...)`, where the `{` is the one right
/// above that `for`. With how many of them come before the first new line.
fn found_run_after(slots: &[HunkSlot], k: usize, file: &[LineInfo]) -> (Vec<usize>, usize) {
    let mut run: Vec<usize> = Vec::new();
    let mut direct = None;
    let mut after_adds = false;
    for s in &slots[k + 1..] {
        match s {
            HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => {
                if after_adds {
                    let Some(&last) = run.last() else { break };
                    if *f <= last || !file[last + 1..*f].iter().all(LineInfo::is_blank) {
                        break;
                    }
                    after_adds = false;
                }
                run.push(*f);
            }
            HunkSlot::Add | HunkSlot::ForgottenAdd if !run.is_empty() => {
                direct.get_or_insert(run.len());
                after_adds = true;
            }
            _ => break,
        }
    }
    let direct = direct.unwrap_or(run.len());
    (run, direct)
}

/// A `...` right after a block's opener (`def load_users(self):`, `fn f() {`) and followed by a
/// line deeper than it stands for the block's body. When the line after it is found only past
/// that body, in another block, the place found is another block's: refused when the body has
/// a line like the one after the `...` (`return len(self.users)` for the model's
/// `return len(self.groups)`: it miscopied its own block's line), or when that line heads a
/// definition the changes after it go into (the model put it in this block).
fn body_overrun(
    hunk: &Hunk,
    slots: &[HunkSlot],
    k: usize,
    (s, e): (usize, usize),
    file: &[LineInfo],
) -> Result<(), Refusal> {
    let found = |slot: &HunkSlot| match slot {
        HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => Some(*f),
        _ => None,
    };
    // (A blank line after the `...` says nothing of where it ends.)
    let next = (k + 1..slots.len())
        .find(|&j| found(&slots[j]).is_some() && !hunk.lines[j].text.trim().is_empty());
    let (Some(before), Some(j)) = (slots[..k].iter().rev().find_map(found), next) else {
        return Ok(());
    };
    let after = found(&slots[j]).expect("found above");
    let opener = &file[before];
    let opens = opener.trimmed.ends_with([':', '{', '(', '[']);
    if !opens || file[after].columns() <= opener.columns() {
        return Ok(());
    }
    let outside: Vec<&LineInfo> =
        file[s..e].iter().filter(|l| !l.is_blank() && l.columns() <= opener.columns()).collect();
    // Name the other block by its first line, not by the closer that ends this one.
    let closer = |l: &&LineInfo| crate::core::indent::is_closer(l.trimmed);
    let Some(other) = outside.iter().find(|l| !closer(l)).or(outside.first()) else {
        return Ok(());
    };
    // The opener's own body: up to the first line at its depth or shallower.
    let body_end =
        (before + 1..e).find(|&f| !file[f].is_blank() && file[f].columns() <= opener.columns());
    let model = hunk.lines[j].text.trim();
    let twin = file[before + 1..body_end.unwrap_or(e)].iter().any(|l| {
        !l.is_blank() && crate::core::locate::lines::ratio(l.trimmed.trim(), model) >= 0.6
    });
    // Without a twin, the `...` may reach past the block (a fused hunk's `# ... rest of the
    // function ...` before lines of the next one), unless the line after it is a definition's
    // head with changes after it: the model put that definition in this block, and the one
    // found is another block's (`impl Counter {` / `...` / `pub fn reset`, where only `impl
    // Histogram` has `reset`): where the changes go is a guess.
    // Decorators and attributes (`@property`, `#[inline]`) belong to the head after them.
    let claims_member = changes_after(slots, k) && member_head(head_after(hunk, j));
    // The `...` passes the line that closes the opener's block (`);` of `CREATE TABLE orders (`,
    // the `}` of `fn f() {`) to reach a line the model wrote in that block, and lines change
    // after it: they would go into the next block (a column added to another table).
    let closes = |l: &&LineInfo| {
        crate::core::indent::is_closer(l.trimmed) && l.columns() == opener.columns()
    };
    // (Lines changed in place after it, as many new as old, are found where they are, whatever
    // block the model thought them in: a rename. New lines go where the model's block is.)
    let count = |f: fn(&HunkSlot) -> bool| slots[k + 1..].iter().filter(|s| f(s)).count();
    let inserts = count(|s| matches!(s, HunkSlot::Add | HunkSlot::ForgottenAdd))
        > count(|s| matches!(s, HunkSlot::Removed(..)));
    let crosses_close = inserts && outside.iter().any(closes);
    if !(twin || claims_member || crosses_close) {
        return Ok(());
    }
    let why = if twin {
        ", while that body has a line like it"
    } else if crosses_close && !claims_member {
        ", past the line that closes it"
    } else {
        ""
    };
    Err(Refusal {
        kind: RefusalKind::UnanchoredElision,
        message: format!(
            "the `...` at hunk line {} stands for the body of {:?}, but the line after it is found only past {:?}, in another block{why}: include the lines the file has there",
            k + 1,
            opener.trimmed.trim(),
            other.trimmed.trim()
        ),
        closest: None,
        candidates: Vec::new(),
    })
}

/// The line that heads what hunk line `j` begins: past blank lines, comments and doc comments,
/// and decorators or attributes (`@property`, `#[inline]`, a `@pytest.mark.parametrize(` over
/// several lines), which belong to the head after them.
fn head_after(hunk: &Hunk, j: usize) -> &str {
    let balance = |t: &str| {
        t.chars()
            .map(|c| match c {
                '(' | '[' | '{' => 1,
                ')' | ']' | '}' => -1,
                _ => 0,
            })
            .sum::<i32>()
    };
    let mut open = 0;
    for l in &hunk.lines[j..] {
        let t = l.text.trim();
        if open > 0 {
            open += balance(t);
        } else if t.starts_with('@') || t.starts_with("#[") {
            open = balance(t).max(0);
        } else if !(t.is_empty() || ["//", "/*", "*", "#"].iter().any(|c| t.starts_with(c))) {
            return t;
        }
    }
    ""
}

/// Whether a line heads a definition (`pub fn reset(&mut self) {`, `def apply(` over several
/// lines, `class Meta:`, `reset(): void {`, `reset = (): void => {`): a definition keyword
/// after modifiers, or a block opened by a name with parameters that is no control statement
/// (`if (a) {`, `} else {`) nor a call handed a function (`it('x', () => {`).
fn member_head(line: &str) -> bool {
    const DEFINES: &[&str] = &[
        "def",
        "fn",
        "function",
        "func",
        "fun",
        "class",
        "struct",
        "impl",
        "trait",
        "interface",
        "enum",
        "sub",
    ];
    const MODIFIERS: &[&str] = &[
        "pub",
        "crate",
        "super",
        "in",
        "self",
        "async",
        "export",
        "default",
        "static",
        "public",
        "private",
        "protected",
        "override",
        "abstract",
        "final",
        "unsafe",
        "extern",
        "const",
        "inline",
        "virtual",
        "internal",
        "open",
        "suspend",
        "readonly",
    ];
    const CONTROL: &[&str] = &[
        "if", "else", "elif", "for", "while", "loop", "match", "switch", "try", "catch", "finally",
        "do", "with", "except", "case", "return", "unless", "until", "foreach",
    ];
    let t = line.trim();
    let mut words = t.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty());
    if words.find(|w| !MODIFIERS.contains(w)).is_some_and(|w| DEFINES.contains(&w)) {
        return true;
    }
    // A class field holding an arrow function: `reset = (): void => {`.
    let arrow_field = t.split_once('=').is_some_and(|(name, value)| {
        let value = value.trim_start();
        !name.contains(['(', '.', '['])
            && (value.starts_with('(') || value.starts_with("async"))
            && t.contains("=>")
    });
    // The code before a trailing comment (`def purge(self):  # pragma: no cover`).
    let code = t.split(" #").next().unwrap_or(t).split(" //").next().unwrap_or(t).trim_end();
    let word = code.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("");
    arrow_field
        || (code.ends_with(['{', ':'])
            && code.contains('(')
            && !code.starts_with(['}', '.'])
            && !CONTROL.contains(&word)
            && !code.contains("=>")
            && !code.contains("function("))
}

/// The line after a `...` found only roughly (a copy error: `> 1` for the file's `> 0`), while
/// a line the `...` passes over is about as like it: the `...` may end at either, and the new
/// lines around its end would go into one block or the other (a log line meant for `gt` put
/// into `gte`, the whole of `gt` taken for the `...`). Refused naming both.
fn rough_end_passed_over(
    hunk: &Hunk,
    slots: &[HunkSlot],
    k: usize,
    (s, e): (usize, usize),
    file: &[LineInfo],
) -> Result<(), Refusal> {
    let Some((j, f, likeness)) = (k + 1..slots.len()).find_map(|j| match slots[j] {
        HunkSlot::Kept(f, l) | HunkSlot::Removed(f, l) if !file[f].is_blank() => Some((j, f, l)),
        _ => None,
    }) else {
        return Ok(());
    };
    let Likeness::Fuzzy(found) = likeness else { return Ok(()) };
    let model = hunk.lines[j].text.trim();
    let Some(rival) = (s..e).find(|&g| {
        !file[g].is_blank() && ratio(file[g].trimmed.trim(), model) >= found - ROUGH_END_MARGIN
    }) else {
        return Ok(());
    };
    Err(Refusal {
        kind: RefusalKind::UnanchoredElision,
        message: format!(
            "the `...` at hunk line {} ends at {:?}, found only roughly at line {} ({:?}), while line {} that the `...` would pass over is as like it ({:?}): include the lines the file has where the `...` ends",
            k + 1,
            model,
            f + 1,
            file[f].trimmed.trim(),
            rival + 1,
            file[rival].trimmed.trim()
        ),
        closest: None,
        candidates: Vec::new(),
    })
}

/// How much less like the model's line a line the `...` passes over may be and still rival the
/// one found (a copy error of one character weighs ~5% on a 20-character line).
const ROUGH_END_MARGIN: f64 = 0.1;

/// Whether the hunk changes lines after slot `k` (adds or removes).
fn changes_after(slots: &[HunkSlot], k: usize) -> bool {
    (slots[k + 1..].iter())
        .any(|s| matches!(s, HunkSlot::Add | HunkSlot::ForgottenAdd | HunkSlot::Removed(..)))
}

/// The hunk line the model wrote to end the `...` at slot `k` (its next line of old text that
/// says something), when it was let go as made up while lines after the `...` change: where
/// the `...` ends, and so where those changes go, is then a guess.
fn unfound_ender(hunk: &Hunk, slots: &[HunkSlot], k: usize) -> Option<usize> {
    let j = (k + 1..slots.len())
        .find(|&j| hunk.lines[j].kind != LineKind::Add && !hunk.lines[j].text.trim().is_empty())?;
    (changes_after(slots, k) && slots[j] == HunkSlot::Ignored).then_some(j)
}

/// A `...` that absorbed nothing: harmless unless new lines depend on where it ends.
pub(super) fn resolve_empty_elisions(hunk: &Hunk, slots: &mut [HunkSlot]) -> Result<(), Refusal> {
    let n = slots.len();
    for k in 0..n {
        if slots[k] != HunkSlot::Elided(usize::MAX, usize::MAX) {
            continue;
        }
        // Between anchors the DP would have absorbed the gap; an unresolved one is at an edge.
        let before_anchor =
            slots[..k].iter().any(|s| matches!(s, HunkSlot::Kept(..) | HunkSlot::Removed(..)));
        let after_anchor =
            slots[k + 1..].iter().any(|s| matches!(s, HunkSlot::Kept(..) | HunkSlot::Removed(..)));
        let adds_after = slots[k + 1..]
            .iter()
            .take_while(|s| !matches!(s, HunkSlot::Kept(..) | HunkSlot::Removed(..)))
            .any(|s| matches!(s, HunkSlot::Add | HunkSlot::ForgottenAdd));
        let adds_before = slots[..k]
            .iter()
            .rev()
            .take_while(|s| !matches!(s, HunkSlot::Kept(..) | HunkSlot::Removed(..)))
            .any(|s| matches!(s, HunkSlot::Add | HunkSlot::ForgottenAdd));
        if (!after_anchor && adds_after) || (!before_anchor && adds_before) {
            return Err(Refusal {
                kind: RefusalKind::UnanchoredElision,
                message: "new lines sit next to a `...` at the edge of the hunk, so where they go is unknown: include the unchanged line they follow".into(),
                closest: None,
                candidates: Vec::new(),
            });
        }
        // The model wrote a line to end what the `...` stands for, and that line was let go as
        // made up: the `...` does stand for lines (the body it elides), only not where they
        // were looked for, so new lines after it would land before that body, not after it.
        if let Some(j) = unfound_ender(hunk, slots, k) {
            return Err(Refusal {
                kind: RefusalKind::UnanchoredElision,
                message: format!(
                    "the `...` at hunk line {} stands for nothing where the hunk is found, and the line after it, {:?}, is not in the file there: include the lines the file has where the `...` ends",
                    k + 1,
                    hunk.lines[j].text.trim()
                ),
                closest: None,
                candidates: Vec::new(),
            });
        }
        slots[k] = HunkSlot::Ignored;
    }
    Ok(())
}
