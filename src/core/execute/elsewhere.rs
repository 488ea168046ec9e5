//! Doubts that a placement is the place the model meant because the hunk's own lines point
//! elsewhere: its exact lines stand at a near-twin too, a word it has where the file differs
//! is a name the file uses for something else, or a context line the file no longer holds
//! stands, like it, between the same lines at a twin. Each is refused before anything is
//! applied, naming the other place.
//!
//! Not for: doubts about where new lines go among lines the hunk left out (`doubt`), or checking
//! the text a placement gives (`core::verify`).

use super::doubt::{telling, words};
use crate::core::edit::{Hunk, LineKind};
use crate::core::locate::lines::Likeness;
use crate::core::locate::{HunkSlot, Located, MatchKind};

/// The first doubt that the hunk's lines mean another place than the one found.
pub(super) fn pointing_elsewhere(h: &Hunk, loc: &Located, lines: &[String]) -> Option<String> {
    if h.pick.is_some() {
        // A person chose this place among the ones the hunk fits: that settles it.
        return None;
    }
    decided_by_look_alikes(h, loc, lines)
        .or_else(|| made_elsewhere(h, loc, lines))
        .or_else(|| named_elsewhere(h, loc, lines))
        .or_else(|| writes_its_own_word(h, loc, lines))
        .or_else(|| deleted_at_twin(h, loc, lines))
}

/// A place found only roughly whose lines found exactly stand, in the same order and as close
/// together, at another place too: only lines *like* the edit's (`loading groups` for the
/// `loading users` the user has since deleted) choose this place over the other, a near-twin.
/// Which one the model meant is a guess.
fn decided_by_look_alikes(h: &Hunk, loc: &Located, lines: &[String]) -> Option<String> {
    if loc.strategy != MatchKind::Fuzzy {
        return None;
    }
    let mut exact: Vec<&str> = Vec::new();
    let mut rough = false;
    for s in loc.slots.iter().take(h.lines.len()) {
        if let HunkSlot::Kept(f, like) | HunkSlot::Removed(f, like) = *s {
            let t = lines[f].trim();
            match like {
                Likeness::Fuzzy(_) | Likeness::Different => rough |= telling(t),
                _ if !t.is_empty() => exact.push(t),
                _ => {}
            }
        }
    }
    if !rough || !exact.iter().any(|t| telling(t)) {
        return None;
    }
    // Within the place's length and two lines more (the line the user took out, one more).
    let reach = loc.end - loc.start + 2;
    let twin = (0..lines.len()).find(|&start| {
        if lines[start].trim() != exact[0] {
            return false;
        }
        let mut rest = exact[1..].iter().peekable();
        let mut last = start;
        for (f, l) in
            lines.iter().enumerate().take((start + reach).min(lines.len())).skip(start + 1)
        {
            if rest.peek().is_some_and(|t| **t == l.trim()) {
                rest.next();
                last = f;
            }
        }
        // Another place: not the lines of this one.
        rest.peek().is_none() && (last < loc.start || start >= loc.end)
    })?;
    Some(format!(
        "the lines found exactly stand at line {} too, and only lines like the edit's (not the same) choose line {}: which of the two the edit means is a guess; include a line that tells them apart",
        twin + 1,
        loc.start + 1
    ))
}

/// A place found other than as written (roughly, or with other spacing or indentation) while
/// the hunk's whole new text stands, line for line as written, somewhere else: the edit was
/// most likely made there already (the reply applied a second time, or the same block sent
/// twice in one reply), and this place is a near-twin that still holds old lines like it.
/// Making it here would change a second place.
fn made_elsewhere(h: &Hunk, loc: &Located, lines: &[String]) -> Option<String> {
    if loc.strategy == MatchKind::Exact || h.lines.iter().all(|l| l.kind == LineKind::Context) {
        return None;
    }
    let new: Vec<&str> =
        h.lines.iter().filter(|l| l.kind != LineKind::Remove).map(|l| l.text.trim()).collect();
    if new.len() > lines.len() || new.iter().filter(|t| telling(t)).count() < 2 {
        return None;
    }
    let at = (0..=lines.len().saturating_sub(new.len())).find(|&g| {
        (g + new.len() <= loc.start || g >= loc.end)
            && new.iter().enumerate().all(|(k, t)| lines[g + k].trim() == *t)
    })?;
    Some(format!(
        "the hunk's new text stands as written at lines {}-{} already, while its old text is found only roughly at lines {}-{}: made there already (the reply applied a second time?), or meant for here? send it against the lines as they are now",
        at + 1,
        at + new.len(),
        loc.start + 1,
        loc.end
    ))
}

/// A line found only roughly where the word the hunk has and the file's line lacks is a name
/// the file uses elsewhere (`"workers"` where the file's line has `"port"`, and a `workers`
/// field a few lines up): not a word the model miscopied, which the file would not know, but
/// another thing, the line of a function the user may have deleted, or of a twin's. Numbers
/// aside: a miscopied number is as likely to stand elsewhere as not.
fn named_elsewhere(h: &Hunk, loc: &Located, lines: &[String]) -> Option<String> {
    if loc.strategy != MatchKind::Fuzzy {
        return None;
    }
    let rough = h.lines.iter().zip(&loc.slots).filter_map(|(l, s)| match *s {
        HunkSlot::Kept(f, Likeness::Fuzzy(_)) | HunkSlot::Removed(f, Likeness::Fuzzy(_))
            if telling(&l.text) =>
        {
            Some((l.text.as_str(), f))
        }
        _ => None,
    });
    let written: crate::core::hash::HashSet<&str> =
        h.lines.iter().flat_map(|l| words(&l.text)).collect();
    for (text, f) in rough {
        let file_words: Vec<&str> = words(&lines[f]).collect();
        let hunk_words: Vec<&str> = words(text).collect();
        // A substitution: the file's line has a word the hunk has nowhere (a model that writes
        // it in another line knows the name and miscopied it here), and that word is what the
        // lines around the file's line are about (`port` in `parse_port`), not a word of this
        // line alone (one the user has since changed).
        let near = f.saturating_sub(8)..(f + 9).min(lines.len());
        let about = |w: &str| near.clone().any(|g| g != f && words(&lines[g]).any(|x| x == w));
        if !file_words.iter().any(|w| !written.contains(w) && about(w)) {
            continue;
        }
        let named = hunk_words.iter().filter(|w| {
            w.chars().count() >= 3
                && !w.chars().all(|c| c.is_ascii_digit())
                && !file_words.contains(w)
        });
        for w in named {
            let outside = (0..lines.len()).filter(|&g| g < loc.start || g >= loc.end);
            if let Some(g) = outside.into_iter().find(|&g| words(&lines[g]).any(|x| x == *w)) {
                return Some(format!(
                    "the file's line {} {:?} is only like the hunk's {:?}, whose `{w}` the file uses for something else (line {}): the edit may be meant for another place, or for lines the file no longer has; send it against the lines as they are now",
                    f + 1,
                    lines[f].trim(),
                    text.trim(),
                    g + 1
                ));
            }
        }
    }
    None
}

/// A line found only roughly where the hunk has a word the file's line lacks, and the hunk's
/// new lines write that word and never the file's (the hunk's old line says `"retries must be
/// positive"`, the file's `"timeout must be positive"`, and the new line `"retries must be
/// between 1 and 10"`): the model means lines about its word, maybe of a function the user has
/// since deleted; carried onto the file's line, the edit would write a name the file's code
/// does not use there (`self.log(thing)` in a `save(self, item)`). A miscopied word in an old
/// line is one the new lines do not repeat: they keep the file's. Numbers aside.
fn writes_its_own_word(h: &Hunk, loc: &Located, lines: &[String]) -> Option<String> {
    if loc.strategy != MatchKind::Fuzzy {
        return None;
    }
    let added: crate::core::hash::HashSet<&str> =
        h.lines.iter().filter(|l| l.kind == LineKind::Add).flat_map(|l| words(&l.text)).collect();
    if added.is_empty() {
        return None;
    }
    for (l, s) in h.lines.iter().zip(&loc.slots) {
        let (HunkSlot::Kept(f, Likeness::Fuzzy(_)) | HunkSlot::Removed(f, Likeness::Fuzzy(_))) = *s
        else {
            continue;
        };
        let file_words: Vec<&str> = words(&lines[f]).collect();
        let hunk_words: Vec<&str> = words(&l.text).collect();
        let replaced = file_words.iter().any(|w| !hunk_words.contains(w) && !added.contains(w));
        if !replaced {
            continue;
        }
        let own = hunk_words.iter().find(|w| {
            w.chars().count() >= 3
                && !w.chars().all(|c| c.is_ascii_digit())
                && !file_words.contains(w)
                && added.contains(*w)
        });
        if let Some(w) = own {
            return Some(format!(
                "the file's line {} {:?} is only like the hunk's {:?}, and the hunk's new lines write its `{w}`, which the file's line does not have: the edit may be meant for other lines (ones the file no longer has); send it against the lines as they are now",
                f + 1,
                lines[f].trim(),
                l.text.trim()
            ));
        }
    }
    None
}

/// A context line the file does not hold, taken for a new line whose `+` the model forgot (or
/// passed over as made up), while a line like it (one word apart) stands elsewhere between the
/// same two lines as in the hunk (`log.debug("loading groups")` in `load_groups`, for the
/// `log.debug("loading users")` the user deleted from `load_users`): the line may be context
/// deleted since, and adding it would write back what the user took out, or a new line, and
/// passing over it would lose it.
fn deleted_at_twin(h: &Hunk, loc: &Located, lines: &[String]) -> Option<String> {
    if !h.marked {
        // A SEARCH/REPLACE block's context is in both halves: nothing new was left unmarked.
        return None;
    }
    let slots = &loc.slots;
    // The hunk's nearest line before or after `i` that was found in the file: new lines
    // between are passed over; a `...` or a line passed over as made up ends the search.
    let neighbour = |i: usize, dir: isize| -> Option<Option<usize>> {
        let mut j = i as isize + dir;
        while j >= 0 && (j as usize) < slots.len() {
            match slots[j as usize] {
                HunkSlot::Kept(..) | HunkSlot::Removed(..) => return Some(Some(j as usize)),
                HunkSlot::Add | HunkSlot::ForgottenAdd => j += dir,
                HunkSlot::Elided(..) | HunkSlot::Ignored => return None,
            }
        }
        Some(None)
    };
    for (i, (l, s)) in h.lines.iter().zip(slots).enumerate() {
        let unfound = matches!(s, HunkSlot::ForgottenAdd | HunkSlot::Ignored);
        if !unfound || l.kind != LineKind::Context || !telling(&l.text) {
            continue;
        }
        let (Some(before), Some(after)) = (neighbour(i, -1), neighbour(i, 1)) else { continue };
        if before.is_none() && after.is_none() {
            continue;
        }
        let same = |hunk_line: Option<usize>, file_line: Option<usize>| match (hunk_line, file_line)
        {
            (None, _) => true,
            (Some(k), Some(g)) => g < lines.len() && lines[g].trim() == h.lines[k].text.trim(),
            (Some(_), None) => false,
        };
        let twin = (0..lines.len()).filter(|&g| g < loc.start || g >= loc.end).find(|&g| {
            one_word_apart(&lines[g], &l.text)
                && same(before, g.checked_sub(1))
                && same(after, Some(g + 1))
        });
        if let Some(g) = twin {
            return Some(format!(
                "the hunk's context line {:?} is not in the file, and line {} has one like it between the same lines ({:?}): the line may have been deleted here since, or be new with its `+` forgotten; mark it `+` if it is new, or leave it out",
                l.text.trim(),
                g + 1,
                lines[g].trim()
            ));
        }
    }
    None
}

/// Two lines with the same words but one, in the same order.
fn one_word_apart(a: &str, b: &str) -> bool {
    let (a, b): (Vec<&str>, Vec<&str>) = (words(a).collect(), words(b).collect());
    a.len() == b.len() && a.iter().zip(&b).filter(|(x, y)| x != y).count() == 1
}
