//! Pure text edits: applying a located hunk to a file's lines.
//!
//! Lines the hunk shares with the file keep the file's own text (so a copy error or a
//! whitespace slip in the model's context never reaches the file); lines the model left out
//! stay where they are; added lines go right after the line they follow in the hunk, in the
//! file's indentation. What this module does not do: decide where a hunk goes (`core::locate`).

use crate::core::edit::{Hunk, HunkLine};
use crate::core::fields;
use crate::core::indent::{FileStyle, IndentMap, file_style, is_closer};
use crate::core::strings;
use similar::{Algorithm, DiffOp, capture_diff_slices};

use crate::core::locate::lines::Likeness;
use crate::core::locate::{HunkSlot, Located};
use crate::core::text::{NewLine, TextFile};

/// Apply a located hunk; returns how many lines the file grew (negative: shrank).
pub fn apply_hunk(file: &mut TextFile, hunk: &Hunk, loc: &Located) -> isize {
    let style = file_style(file.lines.iter().map(|s| s.as_str()));
    apply_hunk_styled(file, hunk, loc, style)
}

/// [`apply_hunk`] with the file's indentation style read by the caller (`style` must be
/// `file_style` of `file`'s lines), once for many hunks applied to copies of the same text.
pub fn apply_hunk_styled(
    file: &mut TextFile,
    hunk: &Hunk,
    loc: &Located,
    style: FileStyle,
) -> isize {
    let indent = learn_indent(&file.lines, hunk, &loc.slots, style);
    let mut b = Rebuilt {
        file,
        hunk,
        indent: &indent,
        out: Vec::new(),
        origin: Vec::new(),
        recipes: style.recipes,
        tabbed_fields: fields::spaces_stand_for_tabs(matched_pairs(&file.lines, hunk, &loc.slots)),
        start: loc.start,
        pos: loc.start,
        end: loc.end,
    };
    let slots = &loc.slots;
    // File lines the model left out between removed lines that new lines replace: placed among
    // the new lines by [`Rebuilt::replace_removed`]. (hunk line of the removed line after
    // them, first file line, end)
    let mut deferred: Vec<(usize, usize, usize)> = Vec::new();
    let mut k = 0;
    while k < slots.len() {
        match slots[k] {
            HunkSlot::Kept(f, _) => {
                b.keep(b.pos, f + 1);
                b.pos = f + 1;
            }
            HunkSlot::Removed(f, _) => {
                if b.pos < f && k > 0 && is_removed(slots[k - 1]) && replaced_run(slots, k) {
                    deferred.push((k, b.pos, f));
                } else {
                    b.keep(b.pos, f);
                }
                b.pos = f + 1;
            }
            HunkSlot::Elided(_, e) => {
                b.keep(b.pos, e.max(b.pos));
                b.pos = e.max(b.pos);
            }
            HunkSlot::Ignored => {}
            HunkSlot::Add | HunkSlot::ForgottenAdd => {
                let added = added_from(hunk, slots, k);
                let after_removal =
                    k > 0 && slots[k - 1..k].iter().any(|s| matches!(s, HunkSlot::Removed(..)));
                if after_removal {
                    b.replace_removed(slots, k, &added, &std::mem::take(&mut deferred));
                } else {
                    b.insert(slots, k, &added);
                }
                k += added.len();
                continue;
            }
        }
        k += 1;
    }
    b.keep(b.pos, b.end);
    let Rebuilt { end, mut out, origin, .. } = b;
    if indent != IndentMap::Identity && origin.iter().flatten().any(|l| strings::may_open(l)) {
        keep_string_content(&file.lines[..loc.start], &mut out, &origin);
    }
    let grew = out.len() as isize - (end - loc.start) as isize;
    file.splice(loc.start, end, out);
    grew
}

/// New lines inside a string spanning lines that the hunk's own new lines open, written less
/// deep than the line that opens it (`"""\` then text at the margin): their leading whitespace
/// is the string's content, kept as the model wrote it; re-indenting it with the code would
/// change what the program holds. Lines as deep as their opener or deeper (a docstring's) move
/// with the code. `before` is the file above the hunk's place, `origin` each new line's model
/// text (`None` for the file's own lines).
fn keep_string_content(before: &[String], out: &mut [NewLine], origin: &[Option<&str>]) {
    let lines: Vec<(&str, Option<&str>)> =
        out.iter().zip(origin).map(|(l, o)| (l.text.as_str(), *o)).collect();
    let kept = string_content(before, &lines);
    for (k, keep) in kept.into_iter().enumerate() {
        if keep && let Some(model) = origin[k] {
            out[k].text = model.to_string();
        }
    }
}

/// Which of `lines` (`(text, the model's text of a new line)`, in order, below `before`)
/// are new lines inside a string a new line opens, less deep than that line (see
/// [`keep_string_content`]). `before` is scanned too: the hunk may start inside the file's
/// own docstring, whose closing quotes then close it and open nothing.
fn string_content(before: &[String], lines: &[(&str, Option<&str>)]) -> Vec<bool> {
    let mut s = strings::Strings::new();
    for l in before {
        s.line(l);
    }
    let depth = crate::core::indent::depth;
    lines
        .iter()
        .map(|(text, model)| {
            let Some(opened) = s.line(text) else { return false };
            let opener = opened.checked_sub(before.len()).and_then(|j| lines.get(j));
            match (model, opener.and_then(|o| o.1)) {
                (Some(model), Some(opener)) => depth(model) < depth(opener),
                _ => false,
            }
        })
        .collect()
}

/// Push the file's lines `from..to` unchanged.
fn keep_lines(out: &mut Vec<NewLine>, file: &TextFile, from: usize, to: usize) {
    for f in from..to {
        out.push(NewLine::kept(file.lines[f].clone(), file.eols[f]));
    }
}

/// The lines that replace a located span, built front to back: `pos` is the next file line not
/// yet taken, `end` where the span ends (new lines ending the hunk may push it past closers).
struct Rebuilt<'a> {
    file: &'a TextFile,
    hunk: &'a Hunk,
    indent: &'a IndentMap,
    out: Vec<NewLine>,
    /// Each line of `out`: the model's text of a new line, `None` for the file's own.
    origin: Vec<Option<&'a str>>,
    /// A makefile's: new recipe lines start with a tab ([`FileStyle::recipes`]).
    recipes: bool,
    /// The model retyped the file's tab-separated fields with spaces ([`fields`]).
    tabbed_fields: bool,
    /// The file line `out` starts at.
    start: usize,
    pos: usize,
    end: usize,
}

impl<'a> Rebuilt<'a> {
    fn keep(&mut self, from: usize, to: usize) {
        keep_lines(&mut self.out, self.file, from, to);
        self.origin.resize(self.out.len(), None);
    }

    /// Push a new line: the model's `text` as written in the file.
    fn add(&mut self, model: &'a str, written: String) {
        // A makefile's recipe line indented with spaces: make wants the tab.
        let written = if self.recipes && written.starts_with(' ') && self.in_recipe() {
            format!("\t{}", written.trim_start())
        } else if self.tabbed_fields {
            fields::with_tabs(&written)
        } else {
            written
        };
        self.out.push(NewLine::added(written));
        self.origin.push(Some(model));
    }

    /// Whether a line pushed now is in a rule's recipe: the last non-blank line before it is
    /// the rule's line or a recipe line (tab-led).
    fn in_recipe(&self) -> bool {
        let before = self.out.iter().rev().map(|l| l.text.as_str());
        let above = self.file.lines[..self.start].iter().rev().map(String::as_str);
        before
            .chain(above)
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| l.starts_with('\t') || crate::core::indent::is_rule(l))
    }

    /// New lines (starting at hunk line `k`) that follow a line the hunk shares with the file.
    fn insert(&mut self, slots: &[HunkSlot], k: usize, mut added: &[&'a str]) {
        let (file, pos) = (self.file, self.pos);
        let run_end = k + added.len();
        // Lines the model left out between the line these follow and the next one (a
        // docstring's closing quotes, a comment, an attribute) stay before them: the model
        // wrote the new lines right before that next line. Blank lines it left out stay after
        // them, as separators.
        let mut found_after = false;
        let next = match next_anchor(&slots[run_end..]) {
            Some(n) => n.max(pos),
            // New lines ending the hunk: lines that close the construct they follow (`}` of the
            // function the hunk's last line is in) come first when the new lines are no deeper
            // than them, or the new code would land inside it.
            None => {
                let tail = tail_place(&file.lines, self.hunk, slots, k, pos, self.indent);
                found_after = tail.found;
                self.end = self.end.max(tail.at);
                if tail.closer_given {
                    added = &added[1..];
                }
                tail.at
            }
        };
        // Left-out lines that belong to the next line (its comment, its attribute, the `if`
        // it is the body of) stay after the new lines.
        let heads_next = !found_after
            && next < file.lines.len()
            && added.first().is_some_and(|a| {
                crate::core::gap::belongs_to_next(&file.lines[pos..next], a, &file.lines[next])
            });
        // Doc comments, attributes or decorators the model wrote where it left out only blank
        // lines go after those, right above the item they annotate.
        let notes_next = !found_after
            && !heads_next
            && next < file.lines.len()
            && crate::core::gap::notes_for_next(&file.lines[pos..next], added, &file.lines[next]);
        let split = if found_after || notes_next {
            next
        } else if heads_next {
            pos
        } else {
            (pos..next).rev().find(|&f| !file.lines[f].trim().is_empty()).map_or(pos, |f| f + 1)
        };
        self.keep(pos, split);
        for l in added {
            self.add(l, self.indent.apply(l));
        }
        self.keep(split, next);
        self.pos = next;
    }

    /// New lines (starting at hunk line `k`) that replace the removed lines right before them.
    /// Where a removed line was found only roughly (a copy error, a fragment of the line), the
    /// model's change is carried onto the file's own line instead of overwriting it.
    ///
    /// File lines the model left out between the removed lines (`gaps`: the hunk line of the
    /// removed line after them, and their file lines) go among the new lines where
    /// [`gap_splits`] puts them.
    fn replace_removed(
        &mut self,
        slots: &[HunkSlot],
        k: usize,
        added: &[&'a str],
        gaps: &[(usize, usize, usize)],
    ) {
        let removed: Vec<usize> = (0..k)
            .rev()
            .take_while(|&j| is_removed(slots[j]))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let splits = gap_splits(self, &removed, added, gaps);
        let mut gaps = gaps.iter().zip(splits).peekable();
        let pairs = removed.len() == added.len();
        for (i, l) in added.iter().enumerate() {
            while let Some((&(_, from, to), _)) = gaps.next_if(|(_, s)| *s <= i) {
                self.keep(from, to);
            }
            let merged = match pairs.then(|| slots[removed[i]]) {
                Some(HunkSlot::Removed(f, Likeness::Fuzzy(_))) => {
                    merge_line(&self.hunk.lines[removed[i]].text, l, &self.file.lines[f])
                }
                _ => None,
            };
            self.add(l, merged.unwrap_or_else(|| self.indent.apply(l)));
        }
        for (&(_, from, to), _) in gaps {
            self.keep(from, to);
        }
    }
}

/// Whether the run of removed lines hunk line `k` is in ends in new lines (they replace it).
fn replaced_run(slots: &[HunkSlot], k: usize) -> bool {
    (k..slots.len()).find(|&j| !is_removed(slots[j])).is_some_and(|j| is_added(slots[j]))
}

/// Where left-out file lines between removed lines (`gaps`, each before removed hunk line
/// `gaps[i].0`) go among the new lines that replace the run (`added`): the index of the new line
/// they go before. Each goes right after the new line that is the rewrite of the removed line
/// before it (each the other's most alike, [`crate::core::verify::modified`]): `subject = ..`,
/// a line the user added since, `send(subject)`, rewritten as `subject = ..` and a `send(` over
/// several lines, keeps the user's line between the two. With no such line, blank lines go
/// after new lines deeper than the removed line after them (a loop's body line rewritten, the
/// method below it removed: the blank stays a separator), the rest before the new lines.
/// In file order either way.
fn gap_splits(
    b: &Rebuilt<'_>,
    removed: &[usize],
    added: &[&str],
    gaps: &[(usize, usize, usize)],
) -> Vec<usize> {
    let depth = crate::core::indent::depth;
    let mut last = 0;
    gaps.iter()
        .map(|&(k, from, to)| {
            let blank = b.file.lines[from..to].iter().all(|l| l.trim().is_empty());
            let split = match rewrite_before(b.hunk, removed, added, k) {
                Some(a) => a + 1,
                None if blank
                    && depth_of(b.indent, added).is_some_and(|d| d > depth(&b.file.lines[to])) =>
                {
                    added.len()
                }
                None => 0,
            };
            last = split.max(last);
            last
        })
        .collect()
}

/// The new line (index into `added`) that is the rewrite of the removed line right before hunk
/// line `k` (`removed`: the run's hunk lines): each the other's most alike
/// ([`crate::core::verify::modified`]). Not a rewrite that opens a block the next new lines
/// are inside (`conn = acquire()` made `with acquire() as conn:`): a left-out line after it
/// would land in the block at the wrong depth.
fn rewrite_before(hunk: &Hunk, removed: &[usize], added: &[&str], k: usize) -> Option<usize> {
    use crate::core::verify::modified;
    let text = |j: usize| hunk.lines[j].text.as_str();
    let likeness = |old: &str, new: &str| {
        modified(old, new).then(|| crate::core::locate::lines::ratio(old, new))
    };
    let best = |scores: &mut dyn Iterator<Item = (usize, f64)>| {
        scores
            .fold(None, |best: Option<(usize, f64)>, (i, s)| match best {
                Some((_, t)) if t >= s => best,
                _ => Some((i, s)),
            })
            .map(|(i, _)| i)
    };
    let best_old = |a: usize| {
        best(
            &mut removed
                .iter()
                .enumerate()
                .filter_map(|(i, &r)| likeness(text(r), added[a]).map(|s| (i, s))),
        )
    };
    let best_new = |i: usize| {
        best(
            &mut (0..added.len())
                .filter_map(|a| likeness(text(removed[i]), added[a]).map(|s| (a, s))),
        )
    };
    let i = removed.iter().position(|&r| r + 1 == k)?;
    best_new(i).filter(|&a| best_old(a) == Some(i) && !opens_at(added, a))
}

/// A line with text that the model left out between two lines a hunk removes, when the new lines
/// replacing them open a block and hold no rewrite of the line before it to put it after
/// ([`rewrite_before`]): where it goes among them is a guess (before them all, it may use what
/// their opener now defines; after the opener, it lands in the block at its old depth). Without
/// a block it goes before the new lines, as one line among others. The file line, if any.
pub(crate) fn left_out_among_rewritten(
    file: &[String],
    hunk: &Hunk,
    loc: &Located,
) -> Option<usize> {
    let slots = &loc.slots;
    let mut k = 0;
    while k < slots.len() {
        if !is_removed(slots[k]) {
            k += 1;
            continue;
        }
        let start = k;
        while k < slots.len() && is_removed(slots[k]) {
            k += 1;
        }
        if k >= slots.len() || !is_added(slots[k]) {
            continue;
        }
        let added = added_from(hunk, slots, k);
        let removed: Vec<usize> = (start..k).collect();
        for j in start + 1..k {
            let (HunkSlot::Removed(prev, _), HunkSlot::Removed(f, _)) = (slots[j - 1], slots[j])
            else {
                continue;
            };
            let text = (prev + 1..f).find(|&g| !file[g].trim().is_empty());
            if let Some(g) = text
                && opens_a_block(&added)
                && rewrite_before(hunk, &removed, &added, j).is_none()
            {
                return Some(g);
            }
        }
    }
    None
}

/// Where new lines that end a hunk go, after the hunk's last found line (`pos`).
struct Tail {
    /// The file line they go before (the closers of the construct they follow skipped).
    at: usize,
    /// Whether the context the locator passed over right before them was found, ending at
    /// `at`: they go right after it, as the hunk has them.
    found: bool,
    /// A non-blank line of that context not found: where they go is a guess.
    lost: Option<usize>,
    /// The new lines' first line is the file's closer right before `at` (`}`), which the old
    /// text stopped short of: it stands there already, and is not written a second time.
    closer_given: bool,
}

/// Place new lines ending a hunk (they start at hunk line `k`; the hunk's last found line ends
/// at file line `pos`). Lines that close the construct the last found line is in (`}` of its
/// function) come first when the new lines are no deeper than them, or the new code would land
/// inside it. Context the locator passed over right before the new lines (a blank line, the
/// `}` of a function whose body the model left out) is looked for after those closers, or after
/// the body of the block the last found line opens.
fn tail_place(
    lines: &[String],
    hunk: &Hunk,
    slots: &[HunkSlot],
    k: usize,
    pos: usize,
    indent: &IndentMap,
) -> Tail {
    let added = added_from(hunk, slots, k);
    let depth = depth_of(indent, &added);
    // New lines that begin by closing the construct themselves (`} else {`, `} catch (e) {`,
    // `})`) continue it: the file's closer at their depth then closes what they open, and
    // they go before it.
    let continues = added
        .iter()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.trim_start().starts_with(['}', ')', ']']));
    let mut n = pos;
    while let (Some(d), Some(line)) = (depth, lines.get(n))
        && is_closer(line)
        && crate::core::indent::depth(line) >= d
        && !(continues && crate::core::indent::depth(line) == d)
    {
        n += 1;
    }
    // They begin with the very closer the file has there and close one block more than they
    // open (`}`, a blank line, a whole new function): that `}` is the file's, which the old
    // text stopped short of; the rest go after it. (Written again, it would close one block
    // too many.)
    let first = added.first().filter(|l| !l.trim().is_empty());
    if continues
        && let (Some(first), Some(line)) = (first, lines.get(n))
        && first.trim() == line.trim()
        && is_closer(line)
        && crate::core::strings::code_brackets(added.iter().copied()).iter().sum::<i64>() < 0
    {
        return Tail { at: n + 1, found: true, lost: None, closer_given: true };
    }
    let mut passed: Vec<usize> =
        (0..k).rev().take_while(|&j| slots[j] == HunkSlot::Ignored).collect();
    passed.reverse();
    let text = |j: usize| hunk.lines[j].text.trim();
    let found_at = |at: usize| {
        passed
            .iter()
            .enumerate()
            .all(|(i, &j)| lines.get(at + i).is_some_and(|l| l.trim() == text(j)))
    };
    let at = |a: usize| Tail { at: a, found: true, lost: None, closer_given: false };
    if passed.is_empty()
        && n == pos
        && let Some(end) = depth.and_then(|d| construct_end(lines, pos, d))
    {
        return at(end);
    }
    if passed.is_empty() {
        return Tail { at: n, found: false, lost: None, closer_given: false };
    }
    // Among the closers or right after them, the first place the context stands as the hunk has
    // it in the file's indentation: the model's `}` of the outer block is not the inner one's.
    let as_written = |m: usize| {
        passed.iter().enumerate().all(|(i, &j)| {
            lines.get(m + i).is_some_and(|l| {
                l.trim_end() == indent.apply(&hunk.lines[j].text).trim_end()
                    || (l.trim().is_empty() && text(j).is_empty())
            })
        })
    };
    if n > pos {
        if let Some(m) = (pos..=n).find(|&m| as_written(m)) {
            return at(m + passed.len());
        }
        if found_at(n) {
            return at(n + passed.len());
        }
    }
    let Some(lost) = passed.iter().copied().find(|&j| !text(j).is_empty()) else {
        return Tail { at: n, found: false, lost: None, closer_given: false };
    };
    // The block the last found line opens, its body left out of the hunk (`fn f() {` … `}`).
    if pos > 0 {
        let opener = crate::core::indent::depth(&lines[pos - 1]);
        let body_end = (pos..lines.len())
            .find(|&f| {
                !lines[f].trim().is_empty() && crate::core::indent::depth(&lines[f]) <= opener
            })
            .unwrap_or(lines.len());
        if body_end > pos && found_at(body_end) {
            return at(body_end + passed.len());
        }
    }
    Tail { at: n, found: false, lost: Some(lost), closer_given: false }
}

/// Where new lines ending a hunk go when they are less deep than the lines after the hunk's
/// last line (`pos` the line after it, `d` their depth), which go on with the construct that
/// line is in (the rest of a loop's body, a list item's keys): written right there they would
/// cut it in two (`count += 1` left under a line at the loop's depth), so they go after it, as
/// their depth says, and after the closer that ends it at their depth (`}`). `None` when the
/// lines after are not deeper, or the last line goes on in the next (`(`, `,`, `\`), or the
/// construct goes on at their depth (`else:`), or a blank line comes first: no place to tell.
fn construct_end(lines: &[String], pos: usize, d: usize) -> Option<usize> {
    use crate::core::indent::depth;
    let last = lines.get(pos.checked_sub(1)?).filter(|l| !l.trim().is_empty())?;
    let next = (pos..lines.len()).find(|&f| !lines[f].trim().is_empty())?;
    let continued = last.trim_end().ends_with(['(', '[', '{', ',', '\\', '+', '=', '|', '&']);
    // Only a construct that goes on right below (a blank line between may end it: what
    // follows it is no proof the new lines belong after that).
    if continued || next != pos || depth(last) < d || depth(&lines[next]) <= d {
        return None;
    }
    let stop = (next..lines.len())
        .find(|&f| !lines[f].trim().is_empty() && depth(&lines[f]) <= d)
        .unwrap_or(lines.len());
    let end = (pos..stop).rev().find(|&f| !lines[f].trim().is_empty()).map_or(pos, |f| f + 1);
    match lines.get(stop) {
        Some(l) if depth(l) == d && is_closer(l) => Some(stop + 1),
        Some(l) if depth(l) == d && goes_on(l) => None,
        _ => Some(end),
    }
}

/// A line that goes on with the construct before it at its own depth (`else:`, `except E:`).
fn goes_on(line: &str) -> bool {
    let t = line.trim_start();
    ["else", "elif", "except", "finally", "catch", "case"]
        .iter()
        .any(|k| t.strip_prefix(k).is_some_and(|r| r.starts_with([':', ' ', '(', '{'])))
}

/// Whether new lines ending the hunk may go past the lines after its place ([`construct_end`]):
/// the next line is deeper than the first of them. Placing such a hunk in a window of the file
/// would not see where the construct ends.
pub(crate) fn may_go_past_its_lines(
    lines: &[String],
    hunk: &Hunk,
    loc: &Located,
    style: FileStyle,
) -> bool {
    let slots = &loc.slots;
    let Some(k) = (0..slots.len()).rev().take_while(|&j| is_added(slots[j])).last() else {
        return false;
    };
    let Some(next) = lines[loc.end.min(lines.len())..].iter().find(|l| !l.trim().is_empty()) else {
        return false;
    };
    // As deep as they are written in the file (a re-indented hunk's lines move).
    let indent = learn_indent(lines, hunk, slots, style);
    depth_of(&indent, &added_from(hunk, slots, k))
        .is_some_and(|d| crate::core::indent::depth(next) > d)
}

/// Whether the hunk ends with new lines after context the locator passed over: where they go
/// depends on lines beyond the hunk's place (see [`tail_place`]).
pub(crate) fn places_past_its_lines(loc: &Located) -> bool {
    let slots = &loc.slots;
    let Some(run) = slots.iter().rposition(|s| is_added(*s)) else { return false };
    let run = (0..=run).rev().take_while(|&j| is_added(slots[j])).last().unwrap_or(run);
    run > 0 && slots[run - 1] == HunkSlot::Ignored
}

/// The first line of context right before new lines that end a hunk which is in neither place
/// [`tail_place`] looks for it: the new lines' place would be a guess. `style` (the file's
/// indentation style) is read only for such a hunk.
pub(crate) fn lost_tail_context<'h>(
    lines: &[String],
    hunk: &'h Hunk,
    loc: &Located,
    style: impl FnOnce() -> FileStyle,
) -> Option<&'h str> {
    let slots = &loc.slots;
    let k = slots.iter().rposition(|s| !is_added(*s) && *s != HunkSlot::Ignored)?;
    let run = (k + 1..slots.len()).find(|&j| is_added(slots[j]))?;
    if run == k + 1 || slots[k + 1..run].iter().any(|s| *s != HunkSlot::Ignored) {
        return None;
    }
    let pos = match slots[k] {
        HunkSlot::Kept(f, _) => f + 1,
        _ => return None,
    };
    let indent = learn_indent(lines, hunk, slots, style());
    tail_place(lines, hunk, slots, run, pos, &indent).lost.map(|j| hunk.lines[j].text.trim())
}

/// How the model's indentation maps onto the file's, learned from the lines the hunk shares
/// with the file.
fn learn_indent(lines: &[String], hunk: &Hunk, slots: &[HunkSlot], style: FileStyle) -> IndentMap {
    use crate::core::edit::LineKind;
    // The hunk's new side: each line's text, and the model's text of a new line.
    let new: Vec<(&str, Option<&str>)> = (hunk.lines.iter())
        .filter(|l| l.kind != LineKind::Remove)
        .map(|l| (l.text.as_str(), (l.kind == LineKind::Add).then_some(l.text.as_str())))
        .collect();
    // A string's content written at the margin is no line of code (it is kept as written): it
    // says nothing of the model's step or the file's.
    let first = slots.iter().find_map(|s| match s {
        HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => Some(*f),
        _ => None,
    });
    let content = match first {
        Some(first) if new.iter().any(|(_, m)| m.is_some_and(strings::may_open)) => {
            string_content(&lines[..first], &new)
        }
        _ => vec![false; new.len()],
    };
    // The hunk's lines in order, but for that content.
    let mut inside = content.into_iter();
    let code: Vec<&HunkLine> = (hunk.lines.iter())
        .filter(|l| l.kind == LineKind::Remove || !inside.next().unwrap_or(false))
        .collect();
    let own = crate::core::indent::step_of(code.iter().map(|l| l.text.as_str()));
    let added: Vec<&str> =
        code.iter().filter(|l| l.kind == LineKind::Add).map(|l| l.text.as_str()).collect();
    let pairs: Vec<(&str, &str)> = matched_pairs(lines, hunk, slots).collect();
    let depth = crate::core::indent::depth;
    if replaced_at_the_files_depth(hunk, &pairs) {
        return IndentMap::Identity;
    }
    // Found only at the margin, its new lines right after a margin line that opens a block
    // whose body the file indents one step: the margin says nothing of the model's step.
    let at_margin = pairs.iter().any(|(p, _)| !p.trim().is_empty())
        && pairs.iter().all(|(p, f)| p.trim().is_empty() || (depth(p) == 0 && depth(f) == 0));
    let first_add = slots.iter().position(|s| is_added(*s));
    let opener = first_add.and_then(|k| match k.checked_sub(1).map(|j| slots[j]) {
        Some(HunkSlot::Kept(f, _)) => Some(f),
        _ => None,
    });
    let into_block = opener.is_some_and(|f| {
        let opens = lines[f].trim_end().ends_with([':', '{']);
        let body = lines[f + 1..].iter().find(|l| !l.trim().is_empty());
        opens && body.is_some_and(|b| Some(depth(b)) == style.unit)
    });
    if at_margin
        && into_block
        && let Some(scaled) = IndentMap::margin_scale(style, own, &added)
    {
        return scaled;
    }
    IndentMap::learn_with(pairs.into_iter(), style, own, &added)
}

/// A pure replacement (old lines for new ones, no context) whose old lines the model wrote at
/// another depth than the file's, while it wrote its new lines at the file's depth (a SEARCH
/// dedented by a slip, its REPLACE copied at the right depth): the new lines are written as
/// they are. Shifted by the old lines' offset, they would go one step too deep (or too shallow)
/// for the block they replace a line of.
fn replaced_at_the_files_depth(hunk: &Hunk, pairs: &[(&str, &str)]) -> bool {
    use crate::core::edit::LineKind;
    use crate::core::indent::depth;
    let pure = hunk.lines.iter().all(|l| l.kind != LineKind::Context);
    let first_new =
        hunk.lines.iter().find(|l| l.kind == LineKind::Add && !l.text.trim().is_empty());
    let Some(&(model, file)) = pairs.iter().find(|(m, _)| !m.trim().is_empty()) else {
        return false;
    };
    pure && first_new.is_some_and(|n| depth(&n.text) == depth(file))
        && depth(model) != depth(file)
        && pairs
            .iter()
            .all(|(m, f)| m.trim().is_empty() || depth(m) + depth(file) == depth(f) + depth(model))
}

/// Each hunk line found in the file, with the file line it was found at: `(model, file)`.
pub(crate) fn matched_pairs<'a>(
    lines: &'a [String],
    hunk: &'a Hunk,
    slots: &'a [HunkSlot],
) -> impl Iterator<Item = (&'a str, &'a str)> {
    hunk.lines.iter().zip(slots).filter_map(|(l, s)| match s {
        HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => {
            Some((l.text.as_str(), lines[*f].as_str()))
        }
        _ => None,
    })
}

/// The run of new lines that starts at hunk line `k`.
///
/// A forgotten `+` is a line written as context, and a context line's trailing whitespace is
/// copying noise (context is compared without it and never written): it is not added. Lines the
/// model marked `+` keep their text byte for byte.
fn added_from<'h>(hunk: &'h Hunk, slots: &[HunkSlot], k: usize) -> Vec<&'h str> {
    let end = (k..slots.len()).find(|&j| !is_added(slots[j])).unwrap_or(slots.len());
    hunk.lines[k..end]
        .iter()
        .zip(&slots[k..end])
        .map(|(l, s)| match s {
            HunkSlot::ForgottenAdd if !l.text.trim().is_empty() => l.text.trim_end(),
            _ => l.text.as_str(),
        })
        .collect()
}

/// The depth, in the file's indentation, of the first non-blank of some new lines.
fn depth_of(indent: &IndentMap, added: &[&str]) -> Option<usize> {
    added
        .iter()
        .find(|l| !l.trim().is_empty())
        .map(|l| crate::core::indent::depth(&indent.apply(l)))
}

/// Carry the model's change of one line (`model_old` → `model_new`) onto the file's own version
/// of it (`file_line`), which differs from `model_old` by a copy error or by being longer (the
/// model quoted a fragment). `None` when the two differences overlap.
pub fn merge_line(model_old: &str, model_new: &str, file_line: &str) -> Option<String> {
    let base = model_old.trim();
    let theirs = model_new.trim();
    let body = file_line.trim_start();
    let indent = &file_line[..file_line.len() - body.len()];
    if !base.is_empty() && body.trim_end() != base && body.matches(base).count() == 1 {
        // A fragment counts only when it does not cut a word: `= val` is not a quote of
        // `= value` but a copy error in it.
        if let Some(at) = body.find(base)
            && whole_words(body, at, at + base.len())
        {
            return Some(file_line.replacen(base, theirs, 1));
        }
    }
    let b: Vec<char> = base.chars().collect();
    let o: Vec<char> = body.trim_end().chars().collect();
    let t: Vec<char> = theirs.chars().collect();
    let ours = char_edits(&b, &o);
    let mine = char_edits(&b, &t);
    for (r1, _) in &ours {
        for (r2, _) in &mine {
            // Touching counts: an insertion right at the edge of the other side's change
            // (`val` → `raw_value` on a file's `value`) has no one right order.
            let touch = r1.start <= r2.end && r2.start <= r1.end;
            if touch {
                return None;
            }
        }
    }
    let mut all: Vec<&(std::ops::Range<usize>, Vec<char>)> = ours.iter().chain(&mine).collect();
    all.sort_by_key(|(r, _)| (r.start, r.end));
    let mut out = String::from(indent);
    let mut at = 0;
    for (r, with) in all {
        // Two edits touching one point in an order the overlap test above lets through (an
        // insertion inside a replaced stretch): not guessed at.
        if r.start < at {
            return None;
        }
        out.extend(&b[at..r.start]);
        out.extend(with);
        at = r.end;
    }
    out.extend(&b[at..]);
    Some(out)
}

/// Whether `text[from..to]` starts and ends at word edges: no identifier character of the
/// slice runs on into one just outside it.
fn whole_words(text: &str, from: usize, to: usize) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let inside = &text[from..to];
    let cut_before = text[..from].chars().next_back().is_some_and(word)
        && inside.chars().next().is_some_and(word);
    let cut_after =
        text[to..].chars().next().is_some_and(word) && inside.chars().next_back().is_some_and(word);
    !cut_before && !cut_after
}

/// The edits that turn `from` into `to`: ranges of `from` and what replaces them.
fn char_edits(from: &[char], to: &[char]) -> Vec<(std::ops::Range<usize>, Vec<char>)> {
    capture_diff_slices(Algorithm::Myers, from, to)
        .into_iter()
        .filter(|op| !matches!(op, DiffOp::Equal { .. }))
        .map(|op| (op.old_range(), to[op.new_range()].to_vec()))
        .collect()
}

/// The first file line the following slots are anchored at.
fn next_anchor(slots: &[HunkSlot]) -> Option<usize> {
    slots.iter().find_map(|s| match s {
        HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => Some(*f),
        HunkSlot::Elided(s, _) if *s != usize::MAX => Some(*s),
        _ => None,
    })
}

/// Whether some new line opens a block the next one is inside (`with x as y:`, `if (a) {`).
fn opens_a_block(added: &[&str]) -> bool {
    (0..added.len()).any(|a| opens_at(added, a))
}

/// Whether new line `a` opens a block the next new line is inside.
fn opens_at(added: &[&str], a: usize) -> bool {
    let depth = crate::core::indent::depth;
    added.get(a + 1).is_some_and(|next| {
        depth(next) > depth(added[a]) && added[a].trim_end().ends_with([':', '{', '(', '['])
    })
}

fn is_removed(s: HunkSlot) -> bool {
    matches!(s, HunkSlot::Removed(..))
}

fn is_added(s: HunkSlot) -> bool {
    matches!(s, HunkSlot::Add | HunkSlot::ForgottenAdd)
}

#[cfg(test)]
mod tests {
    use super::merge_line;

    #[test]
    fn carries_a_change_onto_the_files_line() {
        // A copy error elsewhere in the line survives.
        assert_eq!(
            merge_line("def start_task(x):", "def start_task(x, y):", "def create_task(x):")
                .as_deref(),
            Some("def create_task(x, y):")
        );
        // A fragment of the line.
        assert_eq!(merge_line("x + 1", "x + 2", "    w = x + 1").as_deref(), Some("    w = x + 2"));
        // Overlapping differences are not guessed at.
        assert_eq!(merge_line("a = 1", "a = 2", "a = 3"), None);
        // A quote that ends inside a word of the file's line is a copy error, not a fragment.
        assert_eq!(merge_line("m[k] = val", "m[k] = raw_value", "m[k] = value"), None);
        assert_eq!(merge_line("= val", "= raw", "x = value").as_deref(), None);
    }

    #[test]
    fn numbers_differing_by_a_digit_never_panic() {
        for (old, new, file) in [
            ("return 103", "return 100", "    return 100"),
            ("return 103", "return 104", "return 100"),
            ("x = 19", "x = 10", "x = 10"),
            ("a1b", "a2b", "a12b"),
            ("ab", "abc", "b"),
        ] {
            let _ = merge_line(old, new, file);
        }
    }

    proptest::proptest! {
        #[test]
        fn merging_any_short_lines_never_panics(
            old in "(return )?[01 3]{0,5}",
            new in "(return )?[01 3]{0,5}",
            file in " {0,4}(return )?[01 3]{0,5}",
        ) {
            let _ = merge_line(&old, &new, &file);
        }
    }
}
