//! Doubts about a placement that no check of the result can settle: parts of a fused hunk out
//! of order, new lines whose place among lines the model left out is a guess, and a removal
//! from a run of identical lines the hunk does not show whole. A placement with a doubt is
//! refused before anything is applied.
//!
//! Not for: checking the text a placement gives (`core::verify` does that after applying).

use crate::core::edit::{Hunk, LineKind};
use crate::core::locate::lines::{Likeness, ratio};
use crate::core::locate::{HunkSlot, Located};
use crate::core::strings::Starts;

mod insertion;
use insertion::insertion_gap;

/// Doubts about a placement that no check of the result can settle: parts of a fused hunk out
/// of the order the model wrote them in, or new lines whose place among lines the model left
/// out is unknown.
pub(super) fn placement_doubt(
    parts: &[(Hunk, Located)],
    lines: &[String],
    starts: &Starts,
) -> Option<String> {
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
            .or_else(|| shifted_into_a_string(loc, lines, starts))
            .or_else(|| lost_head_context(h, loc, lines))
            .or_else(|| unpinned_removal(loc, lines))
            .or_else(|| kept_inside_removal(loc, lines))
            .or_else(|| uneven_indentation(h, loc, lines))
            .or_else(|| {
                let g = crate::core::apply::left_out_among_rewritten(lines, h, loc)?;
                Some(format!(
                    "line {} ({:?}), which the edit does not show, stands between lines it replaces, and none of its new lines is the rewrite of the line before it: where it goes among them is a guess; include it in the old text",
                    g + 1,
                    lines[g].trim()
                ))
            })
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
    let written: crate::core::hash::HashSet<String> =
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
        if removed.is_empty() {
            continue;
        }
        // Runs of unequal length are written as the model wrote them, the file's line never
        // merged into one of them: a line the model writes again as it is (`resp = get(url,
        // timeout=30)` moved into a new `try:`, where the file has `timeout=90`) is judged
        // against that copy. (One it rewrites into other lines, a `# TODO` replaced by the
        // code it asks for, goes as the edit says.)
        let run = |r: usize| match removed.len() == added.len() {
            true => {
                let a = added[removed.iter().position(|&x| x == r).unwrap_or(0)];
                Some((h.lines[a].text.clone(), true))
            }
            false => (added.iter())
                .map(|&a| &h.lines[a].text)
                .find(|a| a.trim() == h.lines[r].text.trim())
                .map(|a| (a.clone(), false)),
        };
        for &r in &removed {
            let HunkSlot::Removed(f, Likeness::Fuzzy(_)) = slots[r] else { continue };
            let Some((new, paired)) = run(r) else { continue };
            let (old, new, file) = (&h.lines[r].text, &new, &lines[f]);
            if paired && crate::core::apply::merge_line(old, new, file).is_some() {
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
            // Quotes and brackets the file has and neither of the model's lines: its
            // `["3.9", "3.10"]` for the model's `[3.9, 3.10]` (in YAML, `3.10` unquoted is 3.1).
            if let Some(lost) = marks_lost(old, new, file).filter(|_| paired) {
                return Some(format!(
                    "the file's line {:?} is not the line the edit replaces ({:?}): it has `{lost}` where the edit's lines have none, so writing the edit's line would drop it; send the edit against the line as it is now",
                    file.trim(),
                    old.trim()
                ));
            }
        }
    }
    None
}

/// A quote or bracket the file's line has more of than both the model's old and new lines.
fn marks_lost(old: &str, new: &str, file: &str) -> Option<char> {
    let count = |t: &str, c: char| t.chars().filter(|x| *x == c).count();
    ['"', '\'', '`', '(', ')', '[', ']', '{', '}']
        .into_iter()
        .find(|&c| count(file, c) > count(old, c).max(count(new, c)))
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
    let pair = passed.windows(2).find_map(|w| {
        (0..lines.len().saturating_sub(1)).find(|&g| {
            outside(g) && outside(g + 1) && lines[g].trim() == w[0] && lines[g + 1].trim() == w[1]
        })
    });
    // Or one that says much (ten letters or digits) and stands once in the file, on the other
    // side of the place: the rest of the hunk fits here only because the code it names has
    // moved (a function's removal, sent again after the function was moved up).
    let Some(at) = pair else {
        // On the other side of the place than the hunk puts it (lines left out between it and
        // the place are the model's shortcut, not a sign of another place).
        let found: Vec<usize> = (h.lines.iter().zip(&loc.slots).enumerate())
            .filter(|(_, (_, s))| matches!(s, HunkSlot::Kept(..) | HunkSlot::Removed(..)))
            .map(|(k, _)| k)
            .collect();
        let (first, last) = (*found.first()?, *found.last()?);
        let alone = (h.lines.iter().zip(&loc.slots).enumerate()).find_map(|(k, (l, s))| {
            let t = l.text.trim();
            if *s != HunkSlot::Ignored || l.kind != LineKind::Context {
                return None;
            }
            let long = t.chars().filter(|c| c.is_alphanumeric()).count() >= 10;
            let mut at = (0..lines.len()).filter(|&g| lines[g].trim() == t);
            let g = at.next().filter(|_| long)?;
            let crossed = (k < first && g >= loc.end) || (k > last && g < loc.start);
            (at.next().is_none() && crossed).then_some(g)
        })?;
        return Some(format!(
            "the hunk's context line {:?} stands at line {}, away from the place found for the rest of it (lines {}-{}): send the change with the lines the file has around it",
            lines[alone].trim(),
            alone + 1,
            loc.start + 1,
            loc.end
        ));
    };
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
fn shifted_into_a_string(loc: &Located, lines: &[String], starts: &Starts) -> Option<String> {
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
        || !starts.may_open_before(lines, loc.start.min(lines.len()))
    {
        return None;
    }
    // (Each line's state where it starts, and the line after the last matched one's: whether
    // the string is still open after them.)
    let opened = starts.opened(lines);
    let first = opened.get(matched.first()?.0).copied().flatten()?;
    let last = matched.iter().map(|(f, _)| *f).max()?;
    // Matched lines that end with the string's closing line (a docstring's last lines and its
    // `"""`) are the end of the text, and what the hunk adds after them is code.
    let still_open = opened.get(last + 1).copied().flatten() == Some(first);
    let all_inside =
        still_open && matched.iter().all(|(f, _)| opened.get(*f).copied().flatten() == Some(first));
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

/// A line with text that the edit does not show, between two lines it removes with nothing
/// written in their place (`if s.debug {` / `log(request)` / `}` taken out, the user's
/// `log(headers)` since added inside them): kept, it is left out of the block it was in (the
/// headers logged unconditionally); removed, the user's line is lost. Neither is the edit's.
fn kept_inside_removal(loc: &Located, lines: &[String]) -> Option<String> {
    let slots = &loc.slots;
    let added = |k: Option<&HunkSlot>| matches!(k, Some(HunkSlot::Add | HunkSlot::ForgottenAdd));
    let mut k = 0;
    while k < slots.len() {
        if !matches!(slots[k], HunkSlot::Removed(..)) {
            k += 1;
            continue;
        }
        let start = k;
        while matches!(slots.get(k), Some(HunkSlot::Removed(..))) {
            k += 1;
        }
        // Lines rewritten (new lines beside the run) are `left_out_among_rewritten`'s.
        if added(slots.get(k)) || start > 0 && added(slots.get(start - 1)) {
            continue;
        }
        // Only a line inside a block the removal takes out (deeper than a removed line above
        // it: the `if` gone, its body line left): a line beside the removed ones, at their
        // depth (an entry of a list or a map between two removed entries), simply stays.
        let depth = |f: usize| crate::core::indent::depth(&lines[f]);
        let removed_at = |j: usize| match slots[j] {
            HunkSlot::Removed(f, _) => Some(f),
            _ => None,
        };
        let gap = (start + 1..k).find_map(|j| {
            let (prev, f) = (removed_at(j - 1)?, removed_at(j)?);
            let opener = (start..j).filter_map(removed_at).map(depth).min()?;
            (prev + 1..f).find(|&g| !lines[g].trim().is_empty() && depth(g) > opener)
        });
        if let Some(g) = gap {
            return Some(format!(
                "line {} ({:?}), which the edit does not show, stands between lines it removes: removing around it would leave it outside what held it, and removing it would lose it; include it in the old text",
                g + 1,
                lines[g].trim()
            ));
        }
    }
    None
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
