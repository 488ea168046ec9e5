//! New lines the model wrote between two lines it shows, where the file has lines between those
//! that the model left out (or blank lines longer than it shows): whether the place among them
//! is settled (a left-out opener, docstring or bracket closer, imports joining their block,
//! notes above their item) or a guess, which is refused.
//!
//! Not for: the other doubts about a placement (`execute::doubt`), or where the insertion puts
//! the lines (`core::apply`, `core::gap`).

use crate::core::edit::Hunk;
use crate::core::locate::{HunkSlot, Located};

/// New lines written between two lines the hunk shares with the file, where the file has other
/// lines in between that the model left out: before or after those lines is a guess.
pub(super) fn insertion_gap(hunk: &Hunk, loc: &Located, lines: &[String]) -> Option<String> {
    let slots = &loc.slots;
    let anchor_end = |s: &HunkSlot| match *s {
        HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => Some(f + 1),
        HunkSlot::Elided(s, e) if s != usize::MAX => Some(e),
        _ => None,
    };
    let anchor_start = |s: &HunkSlot| match *s {
        HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => Some(f),
        HunkSlot::Elided(s, _) if s != usize::MAX => Some(s),
        _ => None,
    };
    let mut k = 0;
    while k < slots.len() {
        if !matches!(slots[k], HunkSlot::Add | HunkSlot::ForgottenAdd) {
            k += 1;
            continue;
        }
        let run = k;
        while k < slots.len()
            && !matches!(
                slots[k],
                HunkSlot::Kept(..) | HunkSlot::Removed(..) | HunkSlot::Elided(..)
            )
        {
            k += 1;
        }
        let prev = slots[..run].iter().rev().find_map(|s| {
            if matches!(s, HunkSlot::Removed(..)) { Some(None) } else { anchor_end(s).map(Some) }
        });
        let next = slots[k..].iter().find_map(anchor_start);
        // New lines that replace removed ones stand where those were.
        let replacing = prev == Some(None) || matches!(slots.get(k), Some(HunkSlot::Removed(..)));
        if !replacing && let Some(why) = inside_blank_run(hunk, slots, run, k, lines) {
            return Some(why);
        }
        let mut next_line = (k..slots.len()).find(|&j| anchor_start(&slots[j]).is_some());
        // No line found after the new ones, but a context line the model wrote after them
        // stands a little further down (the locator passed over it): the model left out what
        // lies between, as much as when it was found.
        let next = match (prev, next) {
            (Some(Some(from)), None) => {
                further_down(hunk, slots, (run, k), lines, from).map(|(g, j)| {
                    next_line = Some(j);
                    g
                })
            }
            _ => next,
        };
        let (Some(Some(from)), Some(to)) = (prev, next) else { continue };
        // After a left-out opener only when the line before the gap is shallower than the new
        // lines: one as deep (the last line of an `if` body, the gap an `else:`) could as well
        // be what they follow.
        let depth = crate::core::indent::depth;
        let first_new = &hunk.lines[run].text;
        let before_gap = (0..run)
            .rev()
            .find(|&j| matches!(slots[j], HunkSlot::Kept(..) | HunkSlot::Removed(..)));
        let opener = lines
            .get(from..to)
            .is_some_and(|g| g.iter().any(|l| l.trim_end().ends_with([':', '{'])));
        // A left-out line that closes a parenthesis or bracket first (`) -> None:` ending a
        // signature) closes the one the line before the gap stands in: nothing goes before it.
        // (Not a brace: `} else {` and `} catch (e) {` part two blocks, either may be meant.)
        let closes_first = lines
            .get(from..to)
            .and_then(|g| g.iter().find(|l| !l.trim().is_empty()))
            .is_some_and(|l| l.trim_start().starts_with([')', ']']));
        // New lines that go on the open bracket's contents (a parameter ending in `,`, a
        // condition's `and …`) belong before the closer, not after it.
        let continues = |l: &str| {
            let t = l.trim();
            t.ends_with(',')
                || ["and ", "or ", "&&", "||", ".", "+ ", "- ", "* "]
                    .iter()
                    .any(|p| t.starts_with(p))
        };
        let closes_first = closes_first && !continues(first_new);
        let sibling = opener
            && !closes_first
            && before_gap.is_some_and(|j| depth(&hunk.lines[j].text) >= depth(first_new));
        let forced = !sibling
            && next_line.is_some_and(|j| {
                settled_after(
                    lines.get(from..to).unwrap_or(&[]),
                    first_new,
                    &hunk.lines[j].text,
                    &lines[to],
                )
            });
        if forced || crate::core::gap::belongs_to_next(&lines[from..to], first_new, &lines[to]) {
            continue;
        }
        if let Some(left_out) =
            lines.get(from..to).and_then(|g| g.iter().find(|l| !l.trim().is_empty()))
        {
            let new = hunk.lines[run].text.trim();
            return Some(format!(
                "the new line {new:?} goes between lines the file has apart ({:?} lies between them and is not in the hunk): include it as context so that the place is clear",
                left_out.trim()
            ));
        }
        let added: Vec<&str> = (run..k)
            .filter(|&j| matches!(slots[j], HunkSlot::Add | HunkSlot::ForgottenAdd))
            .map(|j| hunk.lines[j].text.as_str())
            .collect();
        let gap = crate::core::gap::notes_for_next(&lines[from..to], &added, &lines[to])
            || crate::core::gap::joins_imports(lines, from, first_new);
        if to > from && (gap || spaced_before_gap(hunk, slots, run, k, &lines[from - 1])) {
            // Only blank lines left out, and new lines that open with their own blank line and
            // end on code: right after the line before the gap, the file's blank lines then
            // part them from the line after it (after the gap there would be two blank lines
            // above them and none below).
            continue;
        }
        // Only blank lines left out, and new lines deeper than the line after them: they go
        // on the block the line before the blank lines ends, and the blank lines part that
        // block from the shallower line after it (a check added at the end of a method, its
        // docstring the line before, the next `def` after).
        if to > from && depth(first_new) > depth(&lines[to]) {
            continue;
        }
        if to > from {
            // Only blank lines left out: above or below them is as much a guess.
            let new = hunk.lines[run].text.trim();
            return Some(format!(
                "the new line {new:?} goes between lines the file has apart (blank lines lie between them and are not in the hunk): include them as context so that the place is clear"
            ));
        }
    }
    None
}

/// The first context line after the new lines of the run `run..end` that the locator passed
/// over and that says something (a lone `}` stands everywhere), found within a few lines below
/// file line `from`: its file line and hunk line.
fn further_down(
    hunk: &Hunk,
    slots: &[HunkSlot],
    (run, end): (usize, usize),
    lines: &[String],
    from: usize,
) -> Option<(usize, usize)> {
    const NEAR: usize = 64;
    let first_add =
        (run..end).find(|&j| matches!(slots[j], HunkSlot::Add | HunkSlot::ForgottenAdd))?;
    let j = (first_add..end).find(|&j| {
        slots[j] == HunkSlot::Ignored
            && hunk.lines[j].kind == crate::core::edit::LineKind::Context
            && super::telling(hunk.lines[j].text.trim())
    })?;
    let want = hunk.lines[j].text.trim();
    let window = lines.get(from..(from + NEAR).min(lines.len()))?;
    window.iter().position(|l| l.trim() == want).map(|p| (from + p, j))
}

/// Whether new lines (hunk lines `run..end`) start with a blank line and end on a line that is
/// not blank, after a file line (`before`) that is not blank either.
fn spaced_before_gap(
    hunk: &Hunk,
    slots: &[HunkSlot],
    run: usize,
    end: usize,
    before: &str,
) -> bool {
    let new: Vec<&str> = (run..end)
        .filter(|&j| matches!(slots[j], HunkSlot::Add | HunkSlot::ForgottenAdd))
        .map(|j| hunk.lines[j].text.as_str())
        .collect();
    let blank = |l: &str| l.trim().is_empty();
    match (new.first(), new.last()) {
        (Some(first), Some(last)) => {
            new.len() > 1 && blank(first) && !blank(last) && !blank(before)
        }
        _ => false,
    }
}

/// Whether new lines the model wrote between two lines the file has apart can only go after the
/// one line it left out between them (where the insertion puts them): that line opens the block
/// the new lines are in (`fn f() {`, `def f():`, a lone `{`: before it they would be outside
/// the body), or it closes the docstring before them (`"""`: before it they would be text) and
/// they are code. `new` is the first new line and `next` the hunk's line after the new lines,
/// `next_in_file` the file's line it was found at.
fn settled_after(gap: &[String], new: &str, next: &str, next_in_file: &str) -> bool {
    let [left_out] = gap.iter().filter(|l| !l.trim().is_empty()).collect::<Vec<_>>()[..] else {
        return false;
    };
    let depth = crate::core::indent::depth;
    // The new lines are at the depth of the line after them, as the model wrote both.
    if new.trim().is_empty() || depth(new) != depth(next) {
        return false;
    }
    let t = left_out.trim();
    let opens = (t.ends_with('{') || t.ends_with(':')) && !crate::core::whole::is_comment(t);
    if opens {
        return depth(next_in_file) > depth(left_out);
    }
    // The closing quotes of a docstring, or a whole one-line docstring: before it the new code
    // would make it no docstring.
    let quotes = |q: &str| t == q || (t.len() >= 6 && t.starts_with(q) && t.ends_with(q));
    let closes_docstring =
        (quotes("\"\"\"") || quotes("'''")) && depth(next_in_file) == depth(left_out);
    closes_docstring && looks_like_code(new)
}

/// A line that reads as a statement, not prose: a call, an assignment or an attribute first, or
/// a statement keyword with code after it (a block's ends in `:`); never a sentence (`.` at its
/// end or inside it).
fn looks_like_code(line: &str) -> bool {
    let t = line.trim();
    if t.ends_with('.') || t.ends_with(',') || t.contains(". ") {
        return false;
    }
    let word: String = t.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    if word.is_empty() {
        return false;
    }
    let after = &t[word.len()..];
    let rest = after.trim_start();
    let code_in = |s: &str| s.contains(['(', '=', '[', '.']);
    match word.as_str() {
        "if" | "for" | "while" | "with" | "try" | "elif" | "else" => t.ends_with(':'),
        "return" | "raise" | "assert" | "import" | "from" | "del" | "yield" => {
            let one_word = !rest.is_empty() && !rest.contains(' ');
            after.is_empty()
                || (after.starts_with(' ') && (code_in(after) || one_word || word == "import"))
        }
        _ => {
            // A call or attribute touches its name: `x (int): ...` is a parameter's text.
            after.starts_with('(')
                || after.starts_with('.')
                || (rest.starts_with('=') && !rest.starts_with("=="))
                || rest.starts_with("+=")
                || rest.starts_with("-=")
        }
    }
}

/// New lines (hunk lines `run..end`) next to blank lines the hunk shares with the file, where the
/// file's run of blank lines there is longer than the hunk's on the far side: which of the
/// file's blank lines the hunk's are is a guess, and so is the new lines' place among them.
fn inside_blank_run(
    hunk: &Hunk,
    slots: &[HunkSlot],
    run: usize,
    end: usize,
    lines: &[String],
) -> Option<String> {
    let blank_at = |j: usize| match slots.get(j) {
        Some(HunkSlot::Kept(f, _)) if hunk.lines[j].text.trim().is_empty() => Some(*f),
        _ => None,
    };
    let blank_line = |f: usize| lines.get(f).is_some_and(|l| l.trim().is_empty());
    // The hunk's blank lines right before the new lines: the first of them must start the file's run.
    let before = (0..run).rev().map_while(blank_at).last();
    // The hunk's blank lines right after them: the last of them must end the file's run.
    let after = (end..slots.len()).map_while(blank_at).last();
    // New lines go right after the line found before them, the file's lines up to the next
    // line found after them: after a line that is not blank, which of the file's blank lines
    // the hunk's are after them changes nothing.
    let right_after_text = run > 0
        && matches!(slots[run - 1], HunkSlot::Kept(f, _) if !blank_line(f))
        && !hunk.lines[run - 1].text.trim().is_empty();
    let left_out = before.is_some_and(|f| f > 0 && blank_line(f - 1))
        || (!right_after_text && after.is_some_and(|f| blank_line(f + 1)));
    left_out.then(|| {
        format!(
            "the new line {:?} goes among blank lines the file has more of than the hunk: include the lines around them as context so that the place is clear",
            hunk.lines[run].text.trim()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gap(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn code_is_told_from_docstring_prose() {
        for code in [
            "print(f\"x={x!r}\")",
            "logger.debug(\"called\")",
            "total = 0",
            "n += 1",
            "if value is None:",
            "return None",
            "raise ValueError(\"no\")",
            "import logging",
            "return",
        ] {
            assert!(looks_like_code(code), "{code}");
        }
        for prose in [
            "Returns the total.",
            "for example, a list of names",
            "if any, the first one",
            "return value of the call",
            "See Also:",
            "x (int): the value",
            "from the start of the file",
            "Note that x == y",
        ] {
            assert!(!looks_like_code(prose), "{prose}");
        }
    }

    #[test]
    fn a_left_out_opener_or_docstring_end_settles_where_new_lines_go() {
        // `fn f() {` left out between an attribute and the body: the new line is in the body.
        let opener = gap(&["    fn width(&self) -> usize {"]);
        assert!(settled_after(
            &opener,
            "        log!(\"w\");",
            "        self.len()",
            "        self.len()"
        ));
        // Not deeper than the opener: it could as well go before it.
        assert!(!settled_after(&opener, "    log!(\"w\");", "    self.len()", "    self.len()"));
        // A docstring's closing quotes left out, code after them.
        let quotes = gap(&["    \"\"\""]);
        assert!(settled_after(&quotes, "    print(\"called\")", "    return x", "    return x"));
        // A line of text might be the docstring's own.
        assert!(!settled_after(&quotes, "    Returns the total.", "    return x", "    return x"));
        // A comment or plain code left out: before or after it is a guess.
        assert!(!settled_after(
            &gap(&["    // Fast path"]),
            "    log();",
            "    if x {",
            "    if x {"
        ));
        assert!(!settled_after(&gap(&["    a = 1"]), "    log()", "    b = 2", "    b = 2"));
        // More than one line left out: which of them the new lines follow is a guess.
        let two = gap(&["    # note", "    def g(self):"]);
        assert!(!settled_after(&two, "        log()", "        pass", "        pass"));
    }
}
