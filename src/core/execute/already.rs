//! Recognising an edit made before: the file already holds its new text where its context says
//! (or, when its old text is gone, at exactly one telling place), so applying it again would
//! change nothing or add a second copy. Such an edit is reported `already-applied` and writes
//! nothing.
//!
//! Not for: locating (`core::locate`), or refusing placements (`doubt`).

use super::reports::placed;
use crate::core::edit::{Edit, Hunk, HunkLine, LineKind};
use crate::core::indent::nesting;
use crate::core::locate::lines::Likeness;
use crate::core::locate::{HunkSlot, Located};
use crate::core::placement::{Placement, Strategy};
use crate::core::report::EditReport;

/// Where the file already reads, from the located place on, exactly what the hunk's new text
/// says (each line compared without surrounding whitespace, blank lines included): the edit was
/// applied before.
pub(super) fn in_place_already(
    parts: &[(Hunk, Located)],
    lines: &[String],
) -> Option<(usize, usize)> {
    in_place(parts, lines, false).map(|(place, _)| place)
}

/// Where the file reads the hunk's new text at the located place but for lines it adds that
/// stand there only alike (`%s` made `%r`): the edit was made before and a person edited its
/// lines since. Applied again it would add its lines a second time beside the edited ones. The
/// first such line (the file's, the hunk's); `None` when the place does not read so, or reads
/// the new text exactly ([`in_place_already`]).
pub(super) fn made_then_edited(parts: &[(Hunk, Located)], lines: &[String]) -> Option<Edited> {
    // Only a hunk that adds lines and removes none: where it removes, the old line standing
    // in the new one's place is alike by nature (the edit not made yet).
    let removes = parts.iter().any(|(h, _)| h.lines.iter().any(|l| l.kind == LineKind::Remove));
    if removes {
        return None;
    }
    in_place(parts, lines, true)?.1
}

/// [`in_place_already`] for a hunk with `...` in its old text (kept in its new text too): each
/// stretch of its new text between the `...` stands as written where its found lines are, in
/// order, with what the `...` stands for between them. The guard a reply adds after a
/// signature it also changes, sent again: the changed signature is found only roughly, and the
/// guard would be written a second time.
pub(super) fn in_place_across_elisions(
    parts: &[(Hunk, Located)],
    lines: &[String],
) -> Option<(usize, usize)> {
    let (mut first, mut last) = (usize::MAX, 0);
    for (h, loc) in parts {
        if !loc.slots.iter().any(|s| matches!(s, HunkSlot::Elided(..))) {
            return None;
        }
        // The stretches: each new-side line with the file line it was found at, if it was.
        let mut stretches: Vec<Vec<(&str, Option<usize>)>> = vec![Vec::new()];
        for (l, s) in h.lines.iter().zip(&loc.slots) {
            match s {
                HunkSlot::Elided(..) => stretches.push(Vec::new()),
                _ if l.kind == LineKind::Remove => {}
                HunkSlot::Ignored if !l.text.trim().is_empty() => {}
                HunkSlot::Kept(f, _) => stretches.last_mut()?.push((l.text.as_str(), Some(*f))),
                _ => stretches.last_mut()?.push((l.text.as_str(), None)),
            }
        }
        let mut after = 0;
        for stretch in stretches.iter().filter(|s| !s.is_empty()) {
            let (lead, f) = stretch.iter().enumerate().find_map(|(k, (_, f))| Some((k, (*f)?)))?;
            let start = f.checked_sub(lead)?;
            let end = start + stretch.len();
            let same = end <= lines.len()
                && start >= after
                && stretch.iter().zip(&lines[start..end]).all(|((t, _), l)| t.trim() == l.trim());
            if !same {
                return None;
            }
            first = first.min(start);
            last = last.max(end);
            after = end;
        }
    }
    (first < last).then_some((first, last))
}

/// A line the file has where a hunk adds one only like it: the file's, the hunk's.
type Edited = (String, String);

/// [`in_place_already`], with `alike_adds` the lines a hunk adds may stand there only alike
/// (the first that does is returned with the place).
fn in_place(
    parts: &[(Hunk, Located)],
    lines: &[String],
    alike_adds: bool,
) -> Option<((usize, usize), Option<Edited>)> {
    let (mut first, mut last) = (usize::MAX, 0);
    let mut edited = None;
    for (h, loc) in parts {
        let kept: Vec<(&str, Option<usize>, bool)> = h
            .lines
            .iter()
            .zip(&loc.slots)
            // A blank context line the locator passed over is still part of the new text: once
            // the edit is made, the file holds it.
            .filter(|(l, s)| {
                l.kind != LineKind::Remove
                    && !matches!(s, HunkSlot::Elided(..))
                    && (!matches!(s, HunkSlot::Ignored) || l.text.trim().is_empty())
            })
            .map(|(l, s)| {
                let at = if let HunkSlot::Kept(f, _) = s { Some(*f) } else { None };
                (l.text.as_str(), at, l.kind == LineKind::Add)
            })
            .collect();
        let new: Vec<&str> = kept.iter().map(|(t, ..)| t.trim()).collect();
        let old_is_new = h.lines.iter().all(|l| l.kind == LineKind::Context);
        if old_is_new || new.is_empty() {
            return None;
        }
        // New lines before the first context line found stand right above it (below the old
        // lines the hunk removes before it, when those are found). With no context found, the
        // new text may stand anywhere over the place (the old lines found inside the block the
        // edit wrapped them in).
        let (from, to) = match kept.iter().enumerate().find_map(|(k, (_, f, _))| Some((k, (*f)?))) {
            Some((lead, f)) => (f.checked_sub(lead)?, f.checked_sub(lead)?),
            None => (loc.end.saturating_sub(new.len()), loc.start),
        };
        // The new text must cover the whole place the old text was found in: a file that still
        // holds lines the hunk removes (after its context) has not had the edit.
        // A line the hunk adds, standing there only alike: same depth, most of it the same.
        let alike = |file: &str, k: usize| {
            let (text, _, add) = kept[k];
            alike_adds
                && add
                && file.len() - file.trim_start().len() == text.len() - text.trim_start().len()
                && crate::core::locate::lines::ratio(file, text) >= 0.8
        };
        let start = (from..=to).find(|&start| {
            let end = start + new.len();
            end <= lines.len()
                && start <= loc.start
                && end >= loc.end
                && (lines[start..end].iter().enumerate())
                    .all(|(k, l)| l.trim() == new[k] || alike(l, k))
        })?;
        if let Some(k) = (0..new.len()).find(|&k| lines[start + k].trim() != new[k]) {
            edited.get_or_insert((lines[start + k].clone(), kept[k].0.to_string()));
        }
        let end = start + new.len();
        // An edit of whitespace alone (a recipe's spaces made a tab, a line's trailing spaces
        // taken out) is made only when the file holds its lines to the byte.
        if whitespace_only(h)
            && !lines[start..end].iter().map(|l| l.as_str()).eq(kept.iter().map(|k| k.0))
            && !alike_adds
        {
            return None;
        }
        // The same text nested the same way: an edit that only re-indents lines, or adds a line
        // the file has next to it at another depth, has not been made.
        if nesting(lines[start..end].iter().map(|l| l.as_str()))
            != nesting(kept.iter().map(|k| k.0))
        {
            return None;
        }
        first = first.min(start);
        last = last.max(end);
    }
    Some(((first, last), edited))
}

/// [`in_place_already`] for the new text as the reply's other hunks leave it: a hunk that adds a
/// function, and a later one that changes lines of it ("on second thought it needs an hours
/// mode": its head and first lines), made before, left the file holding the function as the
/// second hunk wrote it, not as the first did. Each of `others` whose old lines stand together
/// among this hunk's added lines, once ([`edited_in_adds`]), is applied to them, round by round,
/// and the result looked for where the hunk was found.
pub(super) fn in_place_as_changed_later(
    parts: &[(Hunk, Located)],
    others: &Hunks,
    lines: &[String],
) -> Option<(usize, usize)> {
    let mut changed = false;
    let composed: Vec<(Hunk, Located)> = parts
        .iter()
        .map(|(written, loc)| {
            let mut h = written.clone();
            let mut slots = loc.slots.clone();
            // Round by round: a third hunk may change what the second wrote into the first's
            // lines. Each other hunk is applied once.
            let mut used: Vec<&Hunk> = Vec::new();
            for _ in 0..MAX_CHAINED {
                let next = (others.starting_at_adds_of(&h))
                    .filter(|o| *o != written && !used.contains(o))
                    .find_map(|o| {
                        Some((o, edited_in_adds(&h, o).or_else(|| edited_from_end(&h, o))?))
                    });
                let Some((o, (at, old_len))) = next else { break };
                let new: Vec<HunkLine> = (o.lines.iter())
                    .filter(|l| l.kind != LineKind::Remove)
                    .map(|l| HunkLine::new(LineKind::Add, l.text.clone()))
                    .collect();
                slots.splice(at..at + old_len, std::iter::repeat_n(HunkSlot::Add, new.len()));
                h.lines.splice(at..at + old_len, new);
                used.push(o);
                changed = true;
            }
            (h, Located { slots, ..loc.clone() })
        })
        .collect();
    if !changed {
        return None;
    }
    in_place_already(&composed, lines)
}

/// A hunk that removes lines found only at another depth, where the file holds them as another
/// hunk of the reply writes them (a method moved to the margin: one hunk removes it from its
/// class, another adds it dedented): on a second application the removal would take out the
/// moved copy. The removal was made before; its place is the lines found.
pub(super) fn removed_where_another_adds(
    parts: &[(Hunk, Located)],
    others: &Hunks,
    lines: &[String],
) -> Option<(usize, usize)> {
    let [(h, loc)] = parts else { return None };
    // The removed lines that say something, each found at another depth.
    let removed: Vec<(usize, Likeness)> = (h.lines.iter().zip(&loc.slots))
        .filter_map(|(l, s)| match *s {
            HunkSlot::Removed(f, like) if !l.text.trim().is_empty() => Some((f, like)),
            _ => None,
        })
        .collect();
    if removed.len() < 2 || removed.iter().any(|(_, like)| matches!(like, Likeness::Same)) {
        return None;
    }
    let (first, last) = (removed[0].0, removed[removed.len() - 1].0);
    added_around(h, (first, last + 1), others, lines).map(|_| (first, last + 1))
}

/// A hunk that only takes lines out, found exactly where another hunk of the reply writes
/// them (its whole new text standing around them): a move whose removal the model wrote as the
/// moved copy reads (`def _slugify(text):` at the margin, where the class has it indented), so
/// that the removal would take out the definition the other hunk adds. The lines of the other hunk's new
/// text, which the removal must be placed outside of, and the lines the removal was found on.
pub(super) fn removes_what_another_adds(
    parts: &[(Hunk, Located)],
    others: &Hunks,
    lines: &[String],
) -> Option<((usize, usize), (usize, usize))> {
    let [(h, loc)] = parts else { return None };
    if h.lines.iter().any(|l| l.kind == LineKind::Add && !l.text.trim().is_empty()) {
        return None;
    }
    let removed: Vec<usize> = (h.lines.iter().zip(&loc.slots))
        .filter_map(|(l, s)| match *s {
            HunkSlot::Removed(f, _) if !l.text.trim().is_empty() => Some(f),
            _ => None,
        })
        .collect();
    let (&first, &last) = (removed.first()?, removed.last()?);
    if removed.len() < 2 {
        return None;
    }
    let (region, other) = added_around(h, (first, last + 1), others, lines)?;
    // A definition, most of what the other hunk adds: a move's copy (its new version may have
    // gained a docstring). Lines inside what it adds (two debug lines of a method) are the reply
    // correcting itself: taken out there.
    let adds = other.lines.iter().filter(|l| l.kind == LineKind::Add && !l.text.trim().is_empty());
    let defines = super::listing::defines(lines[first].trim()).is_some();
    (defines && 2 * removed.len() >= adds.count()).then_some((region, (first, last + 1)))
}

/// The place of another hunk's whole new text (context and all, compared trimmed) standing in
/// the file around lines `first..end`, which are added lines of it: the lines are that hunk's.
/// (Its added lines alone could be the file's own where a whole reply is shifted a level.)
fn added_around<'a>(
    h: &Hunk,
    (first, end): (usize, usize),
    others: &'a Hunks,
    lines: &[String],
) -> Option<((usize, usize), &'a Hunk)> {
    let found: Vec<&str> = lines[first..end].iter().map(|l| l.trim_end()).collect();
    let in_place = |o: &'a Hunk| {
        let new: Vec<&HunkLine> = o.lines.iter().filter(|l| l.kind != LineKind::Remove).collect();
        let at = (0..new.len().saturating_sub(found.len() - 1)).find(|&p| {
            new[p..p + found.len()]
                .iter()
                .zip(&found)
                .all(|(l, f)| l.kind == LineKind::Add && l.text.trim() == f.trim())
        });
        let start = at.and_then(|p| first.checked_sub(p))?;
        let stands = start + new.len() <= lines.len()
            && lines[start..start + new.len()]
                .iter()
                .zip(&new)
                .all(|(f, l)| f.trim() == l.text.trim());
        stands.then_some(((start, start + new.len()), o))
    };
    others.adding(found[0]).filter(|o| *o != h).find_map(in_place)
}

/// A reply's hunks for one file, found by the first of their old lines and by their added lines
/// (trimmed: the keys only narrow the search), so that which hunk may edit what another adds, or
/// add what another removes, costs a look-up per line, not a pass over the reply.
#[derive(Default)]
pub(super) struct Hunks {
    hunks: Vec<Hunk>,
    by_first: crate::core::hash::HashMap<String, Vec<usize>>,
    by_added: crate::core::hash::HashMap<String, Vec<usize>>,
    /// The lines (trimmed) the hunks remove.
    removed: crate::core::hash::HashSet<String>,
}

impl Hunks {
    pub(super) fn new(hunks: Vec<Hunk>) -> Hunks {
        let mut by_first: crate::core::hash::HashMap<String, Vec<usize>> = Default::default();
        let mut by_added: crate::core::hash::HashMap<String, Vec<usize>> = Default::default();
        let mut removed = crate::core::hash::HashSet::default();
        for (i, h) in hunks.iter().enumerate() {
            let removes = h.lines.iter().filter(|l| l.kind == LineKind::Remove);
            removed.extend(removes.map(|l| l.text.trim().to_string()));
            if let Some(first) = h.lines.iter().find(|l| l.kind != LineKind::Add) {
                by_first.entry(first.text.trim().to_string()).or_default().push(i);
            }
            for l in h.lines.iter().filter(|l| l.kind == LineKind::Add) {
                let at = by_added.entry(l.text.trim().to_string()).or_default();
                if at.last() != Some(&i) {
                    at.push(i);
                }
            }
        }
        Hunks { hunks, by_first, by_added, removed }
    }

    /// The lines (trimmed) that some hunk removes from the file.
    pub(super) fn removed(&self) -> &crate::core::hash::HashSet<String> {
        &self.removed
    }

    /// The hunks that add `line` (compared trimmed).
    pub(super) fn adding<'a>(&'a self, line: &str) -> impl Iterator<Item = &'a Hunk> {
        self.by_added.get(line.trim()).into_iter().flatten().map(|&i| &self.hunks[i])
    }

    /// The other hunks whose first old line is one of `hunk`'s added lines.
    fn starting_at_adds_of<'a, 'b>(&'a self, hunk: &'b Hunk) -> impl Iterator<Item = &'a Hunk> + 'b
    where
        'a: 'b,
    {
        let mut seen = crate::core::hash::HashSet::default();
        (hunk.lines.iter())
            .filter(|l| l.kind == LineKind::Add)
            .filter_map(|l| self.by_first.get(l.text.trim()))
            .flatten()
            .filter(move |&&i| seen.insert(i))
            .map(|&i| &self.hunks[i])
            .filter(move |o| *o != hunk)
    }
}

/// How many of the reply's other hunks may be applied, one after another, to a hunk's new text.
const MAX_CHAINED: usize = 8;

/// Where `other`'s old lines (context and removed) stand, as written, as a run of `hunk`'s added
/// lines: (first hunk line, how many). Only a run that says something (a telling line) and
/// stands there once; `other` must change something.
fn edited_in_adds(hunk: &Hunk, other: &Hunk) -> Option<(usize, usize)> {
    let old = editing_old_lines(other)?;
    let says = old.iter().any(|t| super::doubt::telling(t.trim()));
    if !says || old.len() > hunk.lines.len() {
        return None;
    }
    // As written, indentation included: the lines another hunk removes from a class are not
    // the ones this hunk writes at the margin.
    let mut found = (0..=hunk.lines.len() - old.len()).filter(|&at| {
        hunk.lines[at..at + old.len()]
            .iter()
            .zip(&old)
            .all(|(l, t)| l.kind == LineKind::Add && l.text.trim_end() == *t)
    });
    let at = found.next()?;
    found.next().is_none().then_some((at, old.len()))
}

/// Where `other`'s old lines begin with this hunk's last added lines and go on past them (its
/// SEARCH spans the end of a function this hunk adds and the file's own lines after it): the
/// added lines from there are replaced by `other`'s new text, which covers the file's lines it
/// changed as well; [`in_place_already`] then looks for all of it where this hunk was found.
fn edited_from_end(hunk: &Hunk, other: &Hunk) -> Option<(usize, usize)> {
    let old = editing_old_lines(other)?;
    if old.len() < 2 {
        return None;
    }
    let n = hunk.lines.len();
    // The longest run of this hunk's trailing added lines that `other`'s old text opens with,
    // and that says something; `other` must reach past it.
    (n.saturating_sub(old.len() - 1)..n)
        .find(|&at| {
            let tail = &hunk.lines[at..];
            tail.iter().any(|l| super::doubt::telling(l.text.trim()))
                && tail
                    .iter()
                    .zip(&old)
                    .all(|(l, t)| l.kind == LineKind::Add && l.text.trim_end() == *t)
        })
        .map(|at| (at, n - at))
}

/// `other`'s old lines (context and removed, as written) when it changes something: not a hunk
/// that only takes out a definition (the old place of a function another hunk moves), which
/// changes nothing another hunk adds, it moves it. (One that only takes out lines inside what
/// another adds, two debug lines, is the reply correcting itself.)
fn editing_old_lines(other: &Hunk) -> Option<Vec<&str>> {
    let changes = other.lines.iter().any(|l| l.kind != LineKind::Context);
    let keeps = other.lines.iter().any(|l| l.kind != LineKind::Remove && !l.text.trim().is_empty());
    let first_removed = other.lines.iter().find(|l| !l.text.trim().is_empty());
    let moves = first_removed.is_some_and(|l| super::listing::defines(l.text.trim()).is_some());
    (changes && (keeps || !moves)).then(|| {
        (other.lines.iter())
            .filter(|l| l.kind != LineKind::Add)
            .map(|l| l.text.trim_end())
            .collect()
    })
}

/// Whether the hunk changes whitespace and nothing else: its removed lines and its added lines
/// are the same text, trimmed.
fn whitespace_only(h: &Hunk) -> bool {
    let of = |kind: LineKind| h.lines.iter().filter(move |l| l.kind == kind).map(|l| l.text.trim());
    of(LineKind::Remove).next().is_some() && of(LineKind::Remove).eq(of(LineKind::Add))
}

/// The report of an edit whose new text the file already holds at lines `start..end`.
pub(super) fn already_report(edit: &Edit, path: &str, (start, end): (usize, usize)) -> EditReport {
    let placement = Placement {
        strategy: Strategy::AlreadyApplied,
        lines: Some((start + 1, end)),
        similarity: Some(1.0),
    };
    let note = "the file already holds this hunk's new text there; nothing changed";
    placed(edit, path, placement, Some(note))
}

/// Where `after` is `before` with blocks of lines inserted, each right beside a copy of itself
/// (an edit made a second time), the lines they span; lines between them that other edits of
/// the reply add (`sibling`) do not part them. Blocks of blank lines and closers alone say
/// nothing.
pub(super) fn inserted_twice(
    before: &[String],
    after: &[String],
    sibling: impl Fn(&str) -> bool,
) -> Option<(usize, usize)> {
    // With their indentation: a second copy is written as the first was, and a line beside
    // its twin at another depth (`return` inside an `except` above the method's `return`) is
    // new.
    let old: Vec<&str> = before.iter().map(|l| l.trim_end()).collect();
    let new: Vec<&str> = after.iter().map(|l| l.trim_end()).collect();
    let (mut first, mut last, mut any) = (usize::MAX, 0, false);
    for op in similar::capture_diff_slices(similar::Algorithm::Myers, &old, &new) {
        match op {
            similar::DiffOp::Equal { .. } => {}
            similar::DiffOp::Insert { new_index: at, new_len: n, .. } => {
                let block = &new[at..at + n];
                // Past lines that other edits of the reply add there (`import json` and
                // `import time`, each after `import os`): the copy is still beside it.
                // (A blank line another edit adds is passed too, though the block has one: two
                // sections added under one heading, each after a blank line.)
                let other = |k: &usize| {
                    sibling(new[*k]) && (!block.contains(&new[*k]) || new[*k].trim().is_empty())
                };
                let down = at + n + (at + n..new.len()).take_while(other).count();
                let up = at - (0..at).rev().take_while(other).count();
                // The copy starts (ends) anywhere in or right past the other edits' lines: a
                // blank line passed may be its first (last).
                let beside = (up..=at).any(|q| q >= n && new[q - n..q] == *block)
                    || (at + n..=down).any(|p| new.get(p..p + n).is_some_and(|b| b == block));
                if !beside {
                    return None;
                }
                any |= block
                    .iter()
                    .any(|l| !crate::core::indent::is_closer(l) && !l.trim().is_empty());
                first = first.min(at);
                last = last.max(at + n);
            }
            _ => return None,
        }
    }
    any.then_some((first.min(before.len()), last.min(before.len())))
}

/// Whether a hunk whose old text is gone was already applied: its new text (with its context)
/// is in the file exactly as written, at exactly one place, and says enough to be sure.
pub(super) fn already_applied(hunk: &Hunk, lines: &[String]) -> Option<(usize, usize)> {
    let new: Vec<&str> = hunk.new_lines().collect();
    // Only added text proves the edit happened: a deletion whose line is missing may never have
    // been there.
    let changed = hunk
        .lines
        .iter()
        .any(|l| l.kind == crate::core::edit::LineKind::Add && !l.text.trim().is_empty());
    let telling = new.iter().filter(|l| l.trim().len() >= 4).count() >= 2;
    // Only context says where the new text belongs: without it, the same lines elsewhere (in
    // another function) prove nothing.
    let placed = hunk.lines.iter().any(|l| {
        l.kind == crate::core::edit::LineKind::Context
            && l.text.chars().filter(|c| c.is_alphanumeric()).count() >= 3
    });
    if !changed || !telling || new.is_empty() || new.len() > lines.len() {
        return None;
    }
    // Without context, the old text written into the new (a sentence the edit goes on, a call
    // given one more argument) says where: found inside the new text's lines, it was there.
    let old_inside = |region: &[String]| {
        let old_telling: Vec<&str> =
            hunk.old_lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        old_telling.iter().any(|o| o.chars().filter(|c| c.is_alphanumeric()).count() >= 10)
            && old_telling.iter().all(|o| region.iter().any(|l| l.contains(o)))
    };
    let same = |a: &str, b: &str| a.trim_end() == b.trim_end();
    let mut found = None;
    for start in 0..=lines.len() - new.len() {
        if new.iter().zip(&lines[start..]).all(|(n, l)| same(n, l)) {
            if found.is_some() {
                return None;
            }
            found = Some((start, start + new.len()));
        }
    }
    // The old text still standing as written outside the new text: the edit is still to be
    // made there (twice, in two twins: an ambiguity), and the new text elsewhere is another
    // function's (the one the model copied the change from).
    let old: Vec<&str> = hunk.old_lines().collect();
    let (from, to) = found?;
    if !placed && !old_inside(&lines[from..to]) {
        return None;
    }
    let old_elsewhere = !old.is_empty()
        && old.len() <= lines.len()
        && (0..=lines.len() - old.len()).any(|start| {
            (start + old.len() <= from || start >= to)
                && old.iter().zip(&lines[start..]).all(|(o, l)| same(o, l))
        });
    (!old_elsewhere).then_some((from, to))
}

/// A change within lines (as many old lines as new, no context: `== 2` made `== 3`) whose old
/// text is nowhere in the file, while its new text stands there once, exactly where the text
/// most like the old one is (`closest`, 1-based, from the locator's refusal): the edit was made
/// before. Its new text elsewhere, or the old text still standing, says nothing of the kind.
pub(super) fn changed_where_closest(
    hunk: &Hunk,
    lines: &[String],
    closest_line: usize,
) -> Option<(usize, usize)> {
    if hunk.lines.iter().any(|l| l.kind == LineKind::Context) {
        return None;
    }
    let telling = |l: &&str| !l.trim().is_empty();
    let old: Vec<&str> = hunk.old_lines().filter(telling).map(str::trim).collect();
    let new: Vec<&str> = hunk.new_lines().filter(telling).map(str::trim).collect();
    if old.is_empty() || old.len() != new.len() || old == new {
        return None;
    }
    let at = |block: &[&str], start: usize| {
        lines.len() >= start + block.len()
            && block.iter().zip(&lines[start..]).all(|(b, l)| *b == l.trim())
    };
    let count = |block: &[&str]| {
        (0..lines.len().saturating_sub(block.len() - 1)).filter(|&s| at(block, s)).count()
    };
    let start = closest_line.checked_sub(1)?;
    (at(&new, start) && count(&new) == 1 && count(&old) == 0).then_some((start, start + new.len()))
}

/// A hunk whose old text was found exactly on lines that another edit of the reply writes,
/// that edit made (its new text stands as written, its old text nowhere unless it only adds
/// lines: its context stands either way, and then it must have been made before this run, not
/// by it), while this hunk's own
/// new text stands as written elsewhere: the reply applied a second time, this hunk's old text
/// now the other's result (`timeout = 5` made 30 in one client, 60 made 5 in another). Made
/// before, at the place its new text stands. On a first application the other edit's old text
/// is still there.
pub(super) fn found_where_another_wrote(
    hunk: &Hunk,
    parts: &[(Hunk, Located)],
    others: &Hunks,
    applied_now: &[Hunk],
    lines: &[String],
) -> Option<(usize, usize)> {
    let [(_, loc)] = parts else { return None };
    if loc.strategy != crate::core::locate::MatchKind::Exact || loc.end <= loc.start {
        return None;
    }
    let found: Vec<&str> = lines[loc.start..loc.end].iter().map(|l| l.trim()).collect();
    let stands = |text: Vec<&str>| -> Option<usize> {
        let text: Vec<&str> = text.iter().map(|l| l.trim()).collect();
        if text.is_empty() || text.len() > lines.len() {
            return None;
        }
        lines.windows(text.len()).position(|w| w.iter().map(|l| l.trim()).eq(text.iter().copied()))
    };
    let writer = others.adding(found.first()?).find(|o| {
        *o != hunk
            && found.iter().all(|f| {
                f.is_empty()
                    || o.lines.iter().any(|l| l.kind == LineKind::Add && l.text.trim() == *f)
            })
            && stands(o.new_lines().collect()).is_some()
            && (stands(o.old_lines().collect()).is_none()
                || (inserts_only(o) && !applied_now.contains(o)))
    });
    writer?;
    let new: Vec<&str> = hunk.new_lines().collect();
    let at = stands(new.clone())?;
    (!(loc.start..loc.end).contains(&at)).then_some((at, at + new.len()))
}

/// Whether a hunk only adds lines (its old text is all context).
fn inserts_only(h: &Hunk) -> bool {
    h.lines.iter().all(|l| l.kind != LineKind::Remove)
}

/// A roughly placed hunk whose new text stands in order where it was found, with lines the
/// hunk left out between (a context line skipped: `in_place_already` wants the new text
/// together), while none of the lines it removes is there: the edit was made before. Applied
/// again, it would match its own result roughly and write its new lines a second time. Every
/// added line with text must stand there exactly, and at least two of them say something.
pub(super) fn made_with_gaps(
    hunk: &Hunk,
    parts: &[(Hunk, Located)],
    lines: &[String],
) -> Option<(usize, usize)> {
    let start = parts.iter().map(|(_, l)| l.start).min()?;
    let end = parts.iter().map(|(_, l)| l.end).max()?;
    let added: Vec<&str> = (hunk.lines.iter())
        .filter(|l| l.kind == LineKind::Add && !l.text.trim().is_empty())
        .map(|l| l.text.trim())
        .collect();
    let telling = added.iter().filter(|l| l.chars().filter(|c| c.is_alphanumeric()).count() >= 4);
    if telling.count() < 2 {
        return None;
    }
    // The place the new text takes once made: the old place and as many lines more.
    let window = start..(end + added.len() + 1).min(lines.len());
    let here: Vec<&str> = lines[window.clone()].iter().map(|l| l.trim()).collect();
    // Only a hunk that replaces lines has lines to miss (one that only adds, its added lines
    // already nearby, may mean a second copy: `inserted_twice` judges those).
    let removed: Vec<&str> = (hunk.lines.iter())
        .filter(|l| l.kind == LineKind::Remove && !l.text.trim().is_empty())
        .map(|l| l.text.trim())
        .collect();
    if removed.is_empty() || removed.iter().any(|r| here.contains(r)) {
        return None;
    }
    // Where the locator paired the removed lines, the file holds lines the edit adds (its
    // own result, found roughly): a removed line paired with some other line of the file (a
    // misquoted comment) means the edit is still to be made.
    let paired_with_new = parts.iter().all(|(h, l)| {
        h.lines.iter().zip(&l.slots).all(|(line, slot)| match *slot {
            HunkSlot::Removed(f, _) if line.kind == LineKind::Remove => {
                added.contains(&lines[f].trim())
            }
            _ => true,
        })
    });
    if !paired_with_new {
        return None;
    }
    // The new text in order, each line at most one line after the one before (the line the
    // hunk left out); its added lines exactly, its context as found.
    let mut at = 0;
    let (mut first, mut last) = (None, 0);
    for l in hunk.lines.iter().filter(|l| l.kind != LineKind::Remove && !l.text.trim().is_empty()) {
        let reach = if first.is_some() { (at + 2).min(here.len()) } else { here.len() };
        let found = (at..reach).find(|&k| here[k] == l.text.trim());
        match (found, l.kind) {
            (Some(k), _) => {
                first.get_or_insert(k);
                last = k + 1;
                at = k + 1;
            }
            (None, _) => return None,
        }
    }
    Some((window.start + first?, window.start + last))
}

/// A hunk that only removes lines, whose context the file holds exactly and together at one
/// place, with nothing between the lines around each removed run: where the locator matched
/// the removed lines to copies inside that stretch (a line the file repeats), the removal was
/// made before. Context on both sides of every removed run is what pins the place where the
/// removed lines would be; a hunk that removes lines at its edge says nothing of what follows
/// them. (When the locator finds no removed line at all, the hunk is refused, not taken for
/// applied: a removed line that is not there may never have been there.)
pub(super) fn removed_before(hunk: &Hunk, lines: &[String]) -> Option<(usize, usize)> {
    let kinds: Vec<LineKind> = hunk.lines.iter().map(|l| l.kind).collect();
    if kinds.contains(&LineKind::Add) || !kinds.contains(&LineKind::Remove) {
        return None;
    }
    let pinned = kinds.iter().enumerate().all(|(k, kind)| {
        *kind != LineKind::Remove
            || (kinds[..k].contains(&LineKind::Context) && kinds[k..].contains(&LineKind::Context))
    });
    let context: Vec<&str> =
        hunk.lines.iter().filter(|l| l.kind == LineKind::Context).map(|l| l.text.trim()).collect();
    let telling = context.iter().filter(|l| l.chars().filter(|c| c.is_alphanumeric()).count() >= 3);
    if !pinned || telling.count() < 2 || context.len() > lines.len() {
        return None;
    }
    let mut found = None;
    for start in 0..=lines.len() - context.len() {
        if context.iter().zip(&lines[start..]).all(|(c, l)| *c == l.trim()) {
            if found.is_some() {
                return None;
            }
            found = Some((start, start + context.len()));
        }
    }
    found
}

/// A definition at the margin (`export function formatDuration(ms: number): string {`,
/// `def load(path):`) that the edit writes while the file already has that very head line:
/// the result would define it twice. An edit made before whose text has changed since (a later
/// block of the same reply edited it), or a copy by mistake; not written either way. Only the
/// margin: methods of two classes share heads, and Rust's `impl` blocks may repeat.
pub(super) fn defined_again<'a>(
    hunk: &'a Hunk,
    before: &[String],
    after: &[String],
    removed: &crate::core::hash::HashSet<String>,
) -> Option<(&'a str, usize)> {
    let margin = |l: &str| !l.starts_with(char::is_whitespace);
    let count = |lines: &[String], head: &str| {
        lines.iter().filter(|l| margin(l) && l.trim_end() == head).count()
    };
    hunk.lines.iter().enumerate().filter(|(_, l)| l.kind == LineKind::Add).find_map(|(k, l)| {
        let head = l.text.trim();
        // Removed elsewhere in the reply: moved. Go's `init` and Python's `_` (singledispatch
        // overloads) are defined many times on purpose.
        if removed.contains(head) {
            return None;
        }
        let name = super::listing::defines(head)?;
        if name == "_" || head.starts_with("func init(") {
            return None;
        }
        let before_name = &head[..head.find(name)?];
        let mut words = before_name.split(|c: char| !(c.is_alphanumeric() || c == '_'));
        if words.any(|w| matches!(w, "impl" | "mod" | "module")) {
            return None;
        }
        // The same head, or another head at the margin that opens a definition of the same
        // name (`def parse_date(value: str, fmt: str = …) -> date:` for the new
        // `def parse_date(value: str) -> date:`): the new one would shadow it. Declarations
        // (`int f(int);`, a TypeScript overload signature) open nothing and do not count.
        let opens = |t: &str| t.trim_end().ends_with([':', '{']);
        let same_name = |b: &str| {
            margin(b)
                && opens(b)
                && opens(head)
                && !removed.contains(b.trim())
                && super::listing::defines(b.trim()) == Some(name)
        };
        let at = before
            .iter()
            .position(|b| margin(b) && b.trim_end() == head)
            .or_else(|| before.iter().position(|b| same_name(b)))?;
        let count_named = |lines: &[String]| {
            lines.iter().filter(|l| l.trim_end() == head || same_name(l)).count()
        };
        // A head under an attribute or decorator (`#[cfg(unix)]`, `@overload`) may be one of
        // several variants.
        let adorned = |l: &str| l.trim_start().starts_with(['@', '#']) && !l.contains("# ");
        let above_new = hunk.lines[..k].iter().rev().find(|l| l.kind != LineKind::Remove);
        if above_new.is_some_and(|l| adorned(&l.text)) || at > 0 && adorned(&before[at - 1]) {
            return None;
        }
        let grew =
            count(after, head) > count(before, head) && count_named(after) > count_named(before);
        grew.then_some((head, at + 1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(String::from).collect()
    }

    fn sr(old: &str, new: &str) -> Hunk {
        Hunk::from_old_new(&lines(old), &lines(new))
    }

    #[test]
    fn a_sentence_the_edit_went_on_with_is_made_without_context() {
        // The SEARCH line, extended and followed by a second line: no context line, but the
        // old line written into the new one says where.
        let hunk = sr(
            "Choose **File → Export** and pick a format.",
            "Choose **File → Export** and pick a format. CSV exports use the\ndelimiter set under **Settings → Regional**.",
        );
        let made = lines(
            "# Guide\n\nChoose **File → Export** and pick a format. CSV exports use the\ndelimiter set under **Settings → Regional**.\n\nMore.",
        );
        assert_eq!(already_applied(&hunk, &made), Some((2, 4)));
        // The same new lines standing where the old line is not inside them prove nothing.
        let other = sr(
            "Pick a printer from the list shown.",
            "Choose **File → Export** and pick a format. CSV exports use the\ndelimiter set under **Settings → Regional**.",
        );
        assert_eq!(already_applied(&other, &made), None);
    }

    #[test]
    fn a_changed_line_standing_where_the_old_one_is_closest_was_made() {
        let hunk = sr("    assert len(rows) == 2", "    assert len(rows) == 3");
        let made = lines("def test_rows():\n    rows = load()\n    assert len(rows) == 3\n");
        assert_eq!(changed_where_closest(&hunk, &made, 3), Some((2, 3)));
        // Not where the closest look-alike is: the new text elsewhere proves nothing.
        assert_eq!(changed_where_closest(&hunk, &made, 2), None);
        // The old line still there: the edit is still to be made.
        let both = lines("    assert len(rows) == 2\n    assert len(rows) == 3\n");
        assert_eq!(changed_where_closest(&hunk, &both, 2), None);
        // The new line twice: which one is the edit's is not known.
        let twice = lines("    assert len(rows) == 3\nx\n    assert len(rows) == 3\n");
        assert_eq!(changed_where_closest(&hunk, &twice, 1), None);
        // A hunk with context is [`already_applied`]'s.
        let with_context =
            sr("rows = load()\nassert len(rows) == 2", "rows = load()\nassert len(rows) == 3");
        assert_eq!(changed_where_closest(&with_context, &made, 3), None);
    }
}
