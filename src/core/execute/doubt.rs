//! Doubts about a placement that no check of the result can settle: parts of a fused hunk out
//! of order, new lines whose place among lines the model left out is a guess, and a removal
//! from a run of identical lines the hunk does not show whole. A placement with a doubt is
//! refused before anything is applied.
//!
//! Not for: checking the text a placement gives (`core::verify` does that after applying).

use crate::core::edit::{Hunk, LineKind};
use crate::core::locate::lines::{Likeness, ratio};
use crate::core::locate::{HunkSlot, Located};

/// Doubts about a placement that no check of the result can settle: parts of a fused hunk out
/// of the order the model wrote them in, or new lines whose place among lines the model left
/// out is unknown.
pub(super) fn placement_doubt(parts: &[(Hunk, Located)], lines: &[String]) -> Option<String> {
    if parts.windows(2).any(|w| w[1].1.start < w[0].1.end) {
        return Some(
            "the hunk's changes fit the file only in another order than the reply gives them: send them as separate hunks, each with its own context".into(),
        );
    }
    let style = || crate::core::indent::file_style(lines.iter().map(|l| l.as_str()));
    parts.iter().find_map(|(h, loc)| {
        insertion_gap(h, loc, lines)
            .or_else(|| super::elsewhere::pointing_elsewhere(h, loc, lines))
            .or_else(|| changed_where_it_changes(h, loc, lines))
            .or_else(|| context_taken_for_new(h, loc, lines))
            .or_else(|| context_standing_for_nothing(h, loc))
            .or_else(|| context_held_elsewhere(h, loc, lines))
            .or_else(|| shifted_into_a_string(loc, lines))
            .or_else(|| lost_head_context(h, loc, lines))
            .or_else(|| unpinned_removal(loc, lines))
            .or_else(|| uneven_indentation(h, loc, lines))
            .or_else(|| {
            let lost = crate::core::apply::lost_tail_context(lines, h, loc, style)?;
            Some(format!(
                "the new lines follow {lost:?} in the hunk, which is not in the file after the lines found before it: include the lines the file has there as context so that the place is clear"
            ))
        })
    })
}

/// Whether a line says something: three letters or digits (a closer or a blank line stands
/// everywhere).
pub(super) fn telling(t: &str) -> bool {
    t.chars().filter(|c| c.is_alphanumeric()).count() >= 3
}

/// A line's words: runs of letters, digits and `_`.
pub(super) fn words(t: &str) -> impl Iterator<Item = &str> {
    t.split(|c: char| !c.is_alphanumeric() && c != '_').filter(|w| !w.is_empty())
}

/// A line the edit replaces that the file holds only roughly, changed where the edit changes it
/// (the edit: `"no such user"` to `"unknown user"`; the file: `"user not found"`): the model's
/// change cannot be carried onto the file's line, and writing the model's line would throw away
/// words the file has and the model's hunk never writes: someone's since (a copy error in the
/// model's old line is a word it writes right elsewhere, or a near-miss of the file's).
fn changed_where_it_changes(h: &Hunk, loc: &Located, lines: &[String]) -> Option<String> {
    let slots = &loc.slots;
    let words = |t: &str| -> Vec<String> { words(t).map(str::to_string).collect() };
    // Every word the hunk writes, taken once.
    let written: std::collections::HashSet<String> =
        h.lines.iter().flat_map(|l| words(&l.text)).collect();
    let mut k = 0;
    while k < slots.len() {
        let removed: Vec<usize> =
            (k..slots.len()).take_while(|&j| matches!(slots[j], HunkSlot::Removed(..))).collect();
        let from = k + removed.len();
        let added: Vec<usize> = (from..slots.len())
            .take_while(|&j| matches!(slots[j], HunkSlot::Add | HunkSlot::ForgottenAdd))
            .collect();
        k = from + added.len().max(usize::from(removed.is_empty()));
        if removed.is_empty() || removed.len() != added.len() {
            continue;
        }
        for (&r, &a) in removed.iter().zip(&added) {
            let HunkSlot::Removed(f, Likeness::Fuzzy(_)) = slots[r] else { continue };
            let (old, new, file) = (&h.lines[r].text, &h.lines[a].text, &lines[f]);
            if crate::core::apply::merge_line(old, new, file).is_some() {
                continue;
            }
            let (old_words, new_words) = (words(old), words(new));
            // A word of the file's the model miscopied (`ent` for `entry`) is the old line's
            // word; one its new line has, in full or within a word, stays.
            let miscopied = |w: &str| {
                old_words.iter().any(|o| {
                    o == w || w.starts_with(o.as_str()) || o.starts_with(w) || ratio(o, w) >= 0.6
                })
            };
            // A word the model writes anywhere in the hunk (`key` in the next line, where the
            // model's `for (var name` miscopied the file's `for (var key`) is one it knows.
            let known = |w: &str| new_words.iter().any(|n| n.contains(w)) || written.contains(w);
            if let Some(lost) = words(file).into_iter().find(|w| !miscopied(w) && !known(w)) {
                return Some(format!(
                    "the file's line {:?} is not the line the edit replaces ({:?}): it differs where the edit changes it (`{lost}`), so writing the edit's line would lose that; send the edit against the line as it is now",
                    file.trim(),
                    old.trim()
                ));
            }
        }
    }
    None
}

/// A context line taken for a new line whose `+` the model forgot (or passed over as made up),
/// while the place found holds that very line among the lines the hunk keeps or removes there:
/// the context stands in the file where the hunk's old lines were matched (to look-alikes:
/// `value_5` for the `value_2` the edit removes), so the place is not where the hunk's lines
/// are.
fn context_taken_for_new(h: &Hunk, loc: &Located, lines: &[String]) -> Option<String> {
    let matched: Vec<&str> = (loc.slots.iter())
        .filter_map(|s| match *s {
            HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => Some(lines[f].trim()),
            _ => None,
        })
        .collect();
    let (line, _) = h.lines.iter().zip(&loc.slots).find(|(l, s)| {
        // Taken for a new line, or passed over as one the model made up.
        let unmatched = matches!(s, HunkSlot::ForgottenAdd | HunkSlot::Ignored);
        unmatched
            && l.kind == LineKind::Context
            && telling(&l.text)
            && matched.contains(&l.text.trim())
    })?;
    Some(format!(
        "the hunk's context line {:?} is in the file among the lines matched for the hunk, not after them: the old lines were matched to look-alikes; include the lines the file has there as context so that the place is clear",
        line.text.trim()
    ))
}

/// A context line the file does not hold, passed over as made up, between two lines found
/// next to each other in the file: no file line stands where it is, so it is not a line the
/// model miscopied (that would leave the file's line between them) but a new line whose `+`
/// the model forgot, or one it made up; passing over it would lose the one, and adding it
/// would write the other. (A placeholder such as `// ...` stands for nothing there.)
fn context_standing_for_nothing(h: &Hunk, loc: &Located) -> Option<String> {
    let slots = &loc.slots;
    let found = |k: usize| match slots[k] {
        HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => Some(Some(f)),
        HunkSlot::Elided(..) => Some(None),
        _ => None,
    };
    if !h.marked {
        // A SEARCH/REPLACE block's context is in both halves: nothing new was left unmarked.
        return None;
    }
    h.lines.iter().enumerate().find_map(|(i, l)| {
        let passed_over = slots[i] == HunkSlot::Ignored && l.kind == LineKind::Context;
        if !passed_over || !telling(&l.text) || crate::core::elision::is_placeholder(&l.text) {
            return None;
        }
        let before = (0..i).rev().find_map(found)??;
        let after = (i + 1..slots.len()).find_map(found)??;
        (after == before + 1).then(|| {
            format!(
                "the hunk's context line {:?} is not in the file, where lines {} and {} stand next to each other: mark it `+` if it is new, or leave it out",
                l.text.trim(),
                before + 1,
                after + 1
            )
        })
    })
}

/// Context lines passed over as made up that the file holds, together, away from the place
/// found: the hunk spans two places (hunks fused into one, a jump the model did not mark), and
/// placing it at one of them drops what it says about the other (a forgotten `+` there).
fn context_held_elsewhere(h: &Hunk, loc: &Located, lines: &[String]) -> Option<String> {
    let passed: Vec<&str> = (h.lines.iter().zip(&loc.slots))
        .filter(|(l, s)| **s == HunkSlot::Ignored && l.kind == LineKind::Context)
        .map(|(l, _)| l.text.trim())
        .filter(|t| telling(t))
        .collect();
    let outside = |g: usize| g < loc.start || g >= loc.end;
    // Two of them on neighbouring lines of the file, in the hunk's order: a piece of the file,
    // not a line made up that happens to stand somewhere.
    let at = passed.windows(2).find_map(|w| {
        (0..lines.len().saturating_sub(1)).find(|&g| {
            outside(g) && outside(g + 1) && lines[g].trim() == w[0] && lines[g + 1].trim() == w[1]
        })
    })?;
    Some(format!(
        "the hunk's context lines {:?} and {:?} stand at lines {} and {}, away from the place found for the rest of it (lines {}-{}): the hunk spans two places; send each change as a hunk of its own",
        lines[at].trim(),
        lines[at + 1].trim(),
        at + 1,
        at + 2,
        loc.start + 1,
        loc.end
    ))
}

/// Old lines found only at another depth, every one of them inside a string literal that
/// opens above them (a docstring's example of the code the user has since rewritten): the
/// model's code is not text in a string, and the lines it matched there are an example.
fn shifted_into_a_string(loc: &Located, lines: &[String]) -> Option<String> {
    use crate::core::locate::MatchKind;
    if matches!(loc.strategy, MatchKind::Exact | MatchKind::Whitespace) {
        return None;
    }
    let matched: Vec<(usize, bool)> = (loc.slots.iter())
        .filter_map(|s| match *s {
            HunkSlot::Kept(f, l) | HunkSlot::Removed(f, l) => {
                Some((f, matches!(l, Likeness::Indent | Likeness::Fuzzy(_))))
            }
            _ => None,
        })
        .collect();
    if !matched.iter().any(|(_, shifted)| *shifted)
        || !lines[..loc.start.min(lines.len())].iter().any(|l| crate::core::strings::may_open(l))
    {
        return None;
    }
    let mut strings = crate::core::strings::Strings::new();
    let opened: Vec<Option<usize>> = lines[..loc.end].iter().map(|l| strings.line(l)).collect();
    let first = opened.get(matched.first()?.0).copied().flatten()?;
    let all_inside = matched.iter().all(|(f, _)| opened.get(*f).copied().flatten() == Some(first));
    (all_inside && first < loc.start).then(|| {
        format!(
            "the old lines stand, at another depth, only inside the string that opens at line {} (lines {}-{}): an example in text, not the code the edit changes; send it against the code as it is now",
            first + 1,
            loc.start + 1,
            loc.end
        )
    })
}

/// New lines the hunk puts before context it shows (or after context it shows first), where
/// that context was not found right before (after) the lines found for the hunk although the
/// file holds it (a function's first line, its body left out without a `...`): the new lines
/// would go before the wrong line, into the body. Blank context and lines the file does not hold (context the model made up) aside.
fn lost_head_context(h: &Hunk, loc: &Located, lines: &[String]) -> Option<String> {
    let slots = &loc.slots;
    let first = slots.iter().position(|s| {
        matches!(s, HunkSlot::Kept(..) | HunkSlot::Removed(..))
            || matches!(s, HunkSlot::Elided(a, _) if *a != usize::MAX)
    })?;
    let is_add = |k: &usize| matches!(slots[*k], HunkSlot::Add | HunkSlot::ForgottenAdd);
    let first_add = (0..first).find(is_add)?;
    // Context the new lines follow, passed over although the file holds it (above the place:
    // the function's first line, its body up to the next line shown left out): the new lines
    // belong after it, not right before the lines found.
    let held = |t: &&str| telling(t) && lines.iter().any(|l| l.trim() == *t);
    let passed = (0..first_add).filter(|&k| slots[k] == HunkSlot::Ignored);
    if let Some(lost) = passed.map(|k| h.lines[k].text.trim()).find(held) {
        return Some(format!(
            "the new lines follow {lost:?} in the hunk, which is in the file but not right before the lines found for the hunk: include the lines the file has between them as context so that the place is clear"
        ));
    }
    let last_add = (0..first).rev().find(is_add)?;
    let lost = (last_add + 1..first)
        .map(|k| h.lines[k].text.trim())
        .find(|text| !text.is_empty() && lines.iter().any(|l| l.trim() == *text))?;
    Some(format!(
        "the new lines come before {lost:?} in the hunk, which is in the file but not right before the lines found for the hunk: include the lines the file has between them as context so that the place is clear"
    ))
}

/// The lines the hunk matched are indented relative to each other unlike the model's lines
/// (one kept its depth, the next moved): one of them is not the line the model meant, and the
/// new lines' indentation would be learned from the wrong one.
fn uneven_indentation(h: &Hunk, loc: &Located, lines: &[String]) -> Option<String> {
    let pairs = crate::core::apply::matched_pairs(lines, h, &loc.slots);
    (!crate::core::indent::consistent(pairs)).then(|| {
        "the lines found for the hunk are indented unlike its own lines relative to each other (a line the hunk shows at one depth is at another in the file): include the lines the file has there, as they are".to_string()
    })
}

/// A removed line in a run of identical lines (`log("x")` three times, a doubled import) where
/// the file holds more copies next to the hunk's than the hunk shows: the hunk says "one copy
/// fewer" of a run whose length it does not know, so it cannot tell whether the removal was
/// made already, and a second application would take another copy.
fn unpinned_removal(loc: &Located, lines: &[String]) -> Option<String> {
    let slots = &loc.slots;
    let file_line = |s: &HunkSlot| match *s {
        HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => Some(f),
        _ => None,
    };
    for (k, slot) in slots.iter().enumerate() {
        let HunkSlot::Removed(f, _) = *slot else { continue };
        let copy = lines[f].trim();
        // Only a removal of copies alone: a removed block with other lines in it (a function
        // and its closing `}` next to the enclosing one) is pinned by those lines.
        let removed_run = |j: usize| match slots.get(j) {
            Some(HunkSlot::Removed(g, _)) => Some(lines[*g].trim()),
            _ => None,
        };
        let before = (0..k).rev().map_while(removed_run);
        let after = (k + 1..slots.len()).map_while(removed_run);
        if copy.is_empty() || before.chain(after).any(|t| t != copy) {
            continue;
        }
        // The copies the hunk shows: neighbouring hunk lines on neighbouring file lines (new
        // lines between them take no file line: `-_,` `+item,` `-_,` shows two copies).
        let same = |g: usize| lines[g].trim() == copy;
        let added = |j: usize| matches!(slots[j], HunkSlot::Add | HunkSlot::ForgottenAdd);
        let prev = |j: usize| (0..j).rev().find(|&p| !added(p));
        let next = |j: usize| (j + 1..slots.len()).find(|&n| !added(n));
        let (mut a, mut first) = (k, f);
        while let Some(p) = prev(a)
            && let Some(g) = file_line(&slots[p])
            && g + 1 == first
            && same(g)
        {
            a = p;
            first = g;
        }
        let (mut b, mut last) = (k, f);
        while let Some(n) = next(b)
            && let Some(g) = file_line(&slots[n])
            && g == last + 1
            && same(g)
        {
            b = n;
            last = g;
        }
        let more = (first > 0 && same(first - 1)) || (last + 1 < lines.len() && same(last + 1));
        if more {
            return Some(format!(
                "the hunk removes {copy:?} from a run of identical lines that the file has more of than the hunk shows, so whether it was removed already is unknown: include the lines around the run as context"
            ));
        }
    }
    None
}

/// New lines written between two lines the hunk shares with the file, where the file has other
/// lines in between that the model left out: before or after those lines is a guess.
fn insertion_gap(hunk: &Hunk, loc: &Located, lines: &[String]) -> Option<String> {
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
        // A left-out line that closes a bracket first (`) -> None:` ending a signature) closes
        // the one the line before the gap stands in: nothing goes before it.
        let closes_first = lines
            .get(from..to)
            .and_then(|g| g.iter().find(|l| !l.trim().is_empty()))
            .is_some_and(|l| l.trim_start().starts_with([')', ']', '}']));
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
/// over (not blank), found within a few lines below file line `from`: its file line and hunk line.
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
            && !hunk.lines[j].text.trim().is_empty()
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
