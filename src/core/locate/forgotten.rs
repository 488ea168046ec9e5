//! Context lines whose `+` the model forgot, in a diff: lines that open or fill the body of a
//! block an added line opens (taken out of the pattern before searching), and context lines not
//! found in the file next to changed lines (added, not ignored, once a place is found).
//!
//! Not for: deciding whether such a placement is good enough (`finish`, the similarity floors).

use super::HunkSlot;
use super::lines::LineInfo;
use crate::core::edit::{Hunk, LineKind};
use crate::core::indent::bracket_closer;

/// Most lines with text a run at a hunk's end may hold to be taken for forgotten `+` markers.
const FORGOTTEN_AT_END: usize = 3;

/// In a diff, context lines not found in the file, in a run touching changed lines, are lines
/// whose `+` the model forgot: they are added, not searched for. (They count half against the
/// similarity, since invented context looks the same.)
///
/// A run of only punctuation there (`/**`, `*/`, `"""`) reads both ways with nothing to tell
/// them apart: a forgotten opener left out leaves the new lines without it, and an invented one
/// added breaks the code. Refused, with the line named. Passed over: blank lines; a bracket
/// closer (`}`, `);`), which ends the block whose body the model left out (`fn f() {`, a new
/// line, `}`); and lines the file holds right beside the place (a `};` weighs too little to be
/// aligned).
pub(super) fn mark_forgotten_adds(
    hunk: &Hunk,
    slots: &mut [HunkSlot],
    file: &[LineInfo],
) -> Result<(), String> {
    if !hunk.marked {
        return Ok(());
    }
    closer_taken_for_a_later_copy(hunk, slots);
    let n = slots.len();
    let mut k = 0;
    while k < n {
        if slots[k] != HunkSlot::Ignored {
            k += 1;
            continue;
        }
        let start = k;
        while k < n && slots[k] == HunkSlot::Ignored {
            k += 1;
        }
        let touches_add = (start > 0 && hunk.lines[start - 1].kind != LineKind::Context)
            || (k < n && hunk.lines[k].kind != LineKind::Context);
        // A line worth adding: not only blank lines, closers or comment markers.
        let has_text = hunk.lines[start..k]
            .iter()
            .any(|l| l.text.chars().filter(|c| c.is_alphanumeric()).count() >= 3);
        // A hunk opens with the context it is anchored by; lines at its very start that are not
        // in the file are miscopied context, not new code.
        let leading = start == 0;
        // At its very end, with nothing found after it, a long run is the context the model
        // thought followed (code from elsewhere), not a slip of a few `+` markers: nothing
        // confirms where it would end, and written in, it would be foreign code.
        let said = hunk.lines[start..k].iter().filter(|l| !l.text.trim().is_empty()).count();
        if touches_add && has_text && k == n && said > FORGOTTEN_AT_END {
            return Err(format!(
                "the hunk ends with {said} lines after its new lines that are not in the file (from `{}`): context from elsewhere, or new lines without their `+`? copy the context as the file has it, or mark new lines `+`",
                hunk.lines[start..k]
                    .iter()
                    .find(|l| !l.text.trim().is_empty())
                    .map_or("", |l| l.text.trim())
            ));
        }
        // Context lines not in the file standing between found lines, in place of as many
        // lines of the file that are nothing like them: new lines without their `+` (the file's
        // lines left out of the context) or miscopied context, nothing tells which.
        if has_text
            && !leading
            && let Some((mark, theirs)) = unlike_in_place(hunk, slots, start..k, file)
        {
            return Err(unlike_message(&mark, &theirs));
        }
        if touches_add && has_text && !leading {
            match miscopied_in_place(hunk, slots, start..k, file) {
                InPlace::Miscopied => continue,
                InPlace::No => {}
            }
        }
        if touches_add && has_text && !leading {
            for s in &mut slots[start..k] {
                *s = HunkSlot::ForgottenAdd;
            }
        } else if !leading && closes_new_lines(hunk, start..k) {
            // Closers the file does not have here, right after new lines that open more than
            // they close: they end what the new lines began (passed over, they would leave the
            // new code unclosed).
            for s in &mut slots[start..k] {
                *s = HunkSlot::ForgottenAdd;
            }
        } else if touches_add
            && !leading
            && let Some(mark) = hunk.lines[start..k].iter().find(|l| {
                !l.text.trim().is_empty()
                    && !bracket_closer(&l.text)
                    && !beside(slots, start..k, &l.text, file)
            })
        {
            return Err(format!(
                "the context line `{}` is not in the file, beside new lines: mark it `+` if it is new, or copy it as the file has it",
                mark.text.trim()
            ));
        }
    }
    Ok(())
}

/// Whether a run of context lines not in the file stands in place of the file's lines.
enum InPlace {
    /// Not in that shape: the run may be new lines.
    No,
    /// A copy error of the lines in its place, which stay.
    Miscopied,
}

/// Least likeness (whitespace aside) of a miscopied line to the file's line it stands for, unless
/// the two differ only in their words: `msg = \` for `message = \` is a copy error; a line with
/// nothing of the file's is not a copy of it.
const MISCOPY_LIKENESS: f64 = 0.4;

/// The file lines a run of context lines not in the file stands in place of: as many as the
/// run, between the lines found right around it.
fn in_place(slots: &[HunkSlot], run: &std::ops::Range<usize>) -> Option<(usize, usize)> {
    let at = |s: &HunkSlot| match *s {
        HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => Some(f),
        _ => None,
    };
    let next = slots.get(run.end).and_then(at)?;
    let prev = slots[..run.start].iter().rev().find_map(at)?;
    (prev < next && next - prev - 1 == run.len()).then_some((prev + 1, next))
}

/// Whether a line of the reply could be a copy of a line of the file: alike as text, or the
/// same but for its words (`text = \` for `body = \`, a local renamed).
fn resembles(h: &str, f: &str) -> bool {
    // The line with each word one `w`, without whitespace: `--network host \` is `--ww\`.
    let skeleton = |t: &str| -> String {
        let mut out = String::new();
        let mut in_word = false;
        for c in t.chars() {
            let word = c.is_alphanumeric() || c == '_';
            if word && !in_word {
                out.push('w');
            } else if !word && !c.is_whitespace() {
                out.push(c);
            }
            in_word = word;
        }
        out
    };
    h.trim().is_empty()
        || super::lines::ratio(h, f) >= MISCOPY_LIKENESS
        || skeleton(h) == skeleton(f)
}

/// A run in place of as many lines of the file (code, not blank), one of which it is nothing
/// like: that line and the file's. (`--restart unless-stopped \` where the file has `--network
/// host \`, the prose saying the restart policy is new: placed as invented context, only the
/// hunk's other new line was written.)
fn unlike_in_place(
    hunk: &Hunk,
    slots: &[HunkSlot],
    run: std::ops::Range<usize>,
    file: &[LineInfo],
) -> Option<(String, String)> {
    let (from, to) = in_place(slots, &run)?;
    hunk.lines[run].iter().zip(&file[from..to]).find_map(|(h, f)| {
        (!h.text.trim().is_empty() && !f.is_blank() && !resembles(&h.text, f.trimmed))
            .then(|| (h.text.clone(), f.trimmed.to_string()))
    })
}

fn unlike_message(mark: &str, theirs: &str) -> String {
    format!(
        "the context line `{}` is not in the file, which has `{}` in its place: a new line (mark it `+`, and keep the file's line as context) or miscopied context (copy it as the file has it)?",
        mark.trim(),
        theirs.trim()
    )
}

/// A run of context lines not in the file (`run`) that stands where the file holds as many other
/// lines, between the lines found around it, each continued on the next line as the run's line
/// is (`msg = \` where the file has `message = \`, before the string both continue into):
/// a copy error of those lines, which stay (slots set to them). Read as new lines, each would
/// take the file's next line for its own continuation (`msg = message = "..."`).
fn miscopied_in_place(
    hunk: &Hunk,
    slots: &mut [HunkSlot],
    run: std::ops::Range<usize>,
    file: &[LineInfo],
) -> InPlace {
    let Some((from, next)) = in_place(slots, &run) else { return InPlace::No };
    let continues = |t: &str| {
        let t = t.trim_end();
        t.ends_with('\\') || bracket_balance(t) > 0
    };
    let depth = crate::core::indent::depth;
    let pairs = hunk.lines[run.clone()].iter().zip(&file[from..next]);
    let alike = pairs.clone().all(|(h, f)| {
        let (h, f) = (h.text.trim_end(), f.trimmed);
        h.trim().is_empty() == f.trim().is_empty()
            && depth(h) == depth(f)
            && continues(h) == continues(f)
    });
    let last = run.end - 1;
    if !alike || !continues(&hunk.lines[last].text) {
        return InPlace::No;
    }
    for (j, f) in run.zip(from..) {
        let likeness = super::lines::compare(&LineInfo::new(&hunk.lines[j].text), &file[f]);
        slots[j] = HunkSlot::Kept(f, likeness);
    }
    InPlace::Miscopied
}

/// `}` (context), new lines, `}` (context, its `+` forgotten), on a file with one `}` there:
/// the alignment may take the file's `}` for the second copy and leave the first one out, and
/// the new lines land before the closer the hunk puts them after. When the first copy is the
/// file line right after the line found before it, and the new lines leave a bracket open that
/// the second closes, the first copy is that file line and the second is new.
fn closer_taken_for_a_later_copy(hunk: &Hunk, slots: &mut [HunkSlot]) {
    let n = slots.len();
    for c in 1..n {
        let HunkSlot::Kept(g, likeness) = slots[c] else { continue };
        if !bracket_closer(&hunk.lines[c].text) {
            continue;
        }
        let Some(first_add) = (0..c).rev().take_while(|&j| slots[j] == HunkSlot::Add).last() else {
            continue;
        };
        let a = first_add.checked_sub(1);
        let Some(a) = a.filter(|&a| slots[a] == HunkSlot::Ignored) else { continue };
        let same = hunk.lines[a].text.trim() == hunk.lines[c].text.trim();
        let before = (0..a).rev().find(|&j| slots[j] != HunkSlot::Ignored);
        let right_after = before.is_some_and(|b| match slots[b] {
            HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => f + 1 == g,
            _ => false,
        });
        if same && right_after && closes_new_lines(hunk, c..c + 1) {
            slots[a] = HunkSlot::Kept(g, likeness);
            slots[c] = HunkSlot::ForgottenAdd;
        }
    }
}

/// Whether a run of blank lines and bracket closers (`run`) comes right after new lines whose
/// brackets open more than they close, and closes no more than that: the closers are theirs.
fn closes_new_lines(hunk: &Hunk, run: std::ops::Range<usize>) -> bool {
    let lines = &hunk.lines;
    let added = (0..run.start).rev().take_while(|&j| lines[j].kind == LineKind::Add);
    let open: isize = added.map(|j| bracket_balance(&lines[j].text)).sum();
    let closed: isize = lines[run.clone()].iter().map(|l| -bracket_balance(&l.text)).sum();
    let only_closers =
        lines[run].iter().all(|l| l.text.trim().is_empty() || bracket_closer(&l.text));
    only_closers && open > 0 && closed > 0 && closed <= open
}

/// Opening brackets less closing ones on a line, outside string literals.
fn bracket_balance(line: &str) -> isize {
    let mut n = 0;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '"' | '\'' | '`' => quote = Some(c),
                '{' | '(' | '[' => n += 1,
                '}' | ')' | ']' => n -= 1,
                _ => {}
            },
        }
    }
    n
}

/// Whether the file holds `text` within a run's length of the file lines the slots around the
/// run (`run`) were found at.
fn beside(slots: &[HunkSlot], run: std::ops::Range<usize>, text: &str, file: &[LineInfo]) -> bool {
    let at = |s: &HunkSlot| match *s {
        HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => Some(f),
        _ => None,
    };
    let len = run.len();
    let before = slots[..run.start].iter().rev().find_map(at).map(|f| f + 1..f + 1 + len);
    let after = slots[run.end..].iter().find_map(at).map(|f| f.saturating_sub(len)..f);
    let text = text.trim();
    before
        .into_iter()
        .chain(after)
        .flatten()
        .any(|f| file.get(f).is_some_and(|l| l.trimmed.trim() == text))
}

/// In a diff, context lines that form the body of a block an added line opens (deeper than an
/// added `def f():` or `fn f() {` right above them) cannot be old lines: their `+` was
/// forgotten. So are a closing `}` at the opener's depth and blank lines inside the body.
pub(super) fn forced_adds(hunk: &Hunk) -> Vec<bool> {
    let n = hunk.lines.len();
    let mut forced = vec![false; n];
    if !hunk.marked {
        return forced;
    }
    let depth = crate::core::indent::depth;
    let mut k = 0;
    while k < n {
        let line = &hunk.lines[k];
        // Only a pure insertion: an opener replacing removed lines (`-if a {` `+if b {`) keeps
        // the old body as context.
        let opens = line.kind == LineKind::Add
            && {
                let t = line.text.trim_end();
                t.ends_with(':') || t.ends_with('{') || t.ends_with('(') || t.ends_with('[')
            }
            && {
                let block_start = (0..k)
                    .rev()
                    .find(|&b| hunk.lines[b].kind == LineKind::Context)
                    .map_or(0, |b| b + 1);
                let block_end =
                    (k..n).find(|&b| hunk.lines[b].kind == LineKind::Context).unwrap_or(n);
                !hunk.lines[block_start..block_end].iter().any(|l| l.kind == LineKind::Remove)
            };
        if !opens {
            k += 1;
            continue;
        }
        let base = depth(&line.text);
        let mut last_body = None;
        let mut forced_body = false;
        let mut j = k + 1;
        while j < n {
            let m = &hunk.lines[j];
            if m.kind == LineKind::Remove {
                break;
            }
            if m.text.trim().is_empty() {
                j += 1;
                continue;
            }
            if depth(&m.text) <= base {
                let closer = bracket_closer(&m.text);
                if m.kind == LineKind::Context && closer && depth(&m.text) == base && forced_body {
                    forced[j] = true;
                    last_body = Some(j);
                }
                break;
            }
            if m.kind == LineKind::Context {
                forced[j] = true;
                forced_body = true;
            }
            last_body = Some(j);
            j += 1;
        }
        if let Some(end) = last_body {
            for (f, l) in forced[k + 1..end].iter_mut().zip(&hunk.lines[k + 1..end]) {
                if l.kind == LineKind::Context && l.text.trim().is_empty() {
                    *f = true;
                }
            }
        }
        k = j.max(k + 1);
    }
    forced
}
