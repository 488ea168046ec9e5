//! Carrying out a plan on file contents: every edit in reply order, each file's edits seeing the
//! ones before them, a refusal of one edit never stopping the others.

use std::collections::BTreeMap;

use crate::core::apply::apply_hunk_styled;
use crate::core::edit::{Change, Edit, Hunk, LineKind};
use crate::core::file::{FileWrite, Source};
use crate::core::indent::file_style;
use crate::core::locate::lines::{FileIndex, LineInfo};
use crate::core::locate::partial::within_line;
use crate::core::locate::{
    HunkSlot, Located, MatchKind, Refusal, RefusalKind, locate_parts_indexed,
};
use crate::core::placement::{Placement, Strategy};
use crate::core::plan::{Plan, PlanItem};
use crate::core::report::{EditReport, Outcome, Status};
use crate::core::text::TextFile;
use crate::core::{verify, whole};

/// A file as the edits so far left it.
#[derive(Clone)]
struct Working {
    existed: bool,
    text: Option<TextFile>,
    unusable: Option<String>,
    dirty: bool,
    /// (line, growth) of each hunk applied, to shift later hunks' line-number hints.
    moves: Vec<(usize, isize)>,
}

pub fn run(plan: &Plan, sources: &BTreeMap<String, Source>) -> Outcome {
    let mut files: BTreeMap<String, Working> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut reports = Vec::new();
    for item in &plan.items {
        match item {
            PlanItem::Problem(p) => reports.push(EditReport {
                path: p.path.clone().unwrap_or_default(),
                format: p.format,
                status: Status::Refused,
                strategy: None,
                similarity: None,
                lines: None,
                reason: Some(p.reason.clone()),
                reply_lines: p.reply_lines,
                searched: None,
                closest: None,
                candidates: Vec::new(),
            }),
            PlanItem::Refused { edit, reason } => {
                reports.push(refused(edit, edit.path.clone(), reason.clone()))
            }
            PlanItem::Edit { edit, path, .. } => {
                let w = files.entry(path.clone()).or_insert_with(|| {
                    order.push(path.clone());
                    working(sources.get(path))
                });
                reports.push(guarded(edit, path, w, |w| {
                    apply_edit(edit, path, w, &plan.mentions, None)
                }));
            }
        }
    }
    let mut writes = Vec::new();
    for path in order {
        let w = &files[&path];
        if !w.dirty {
            continue;
        }
        match &w.text {
            Some(t) => writes.push(FileWrite::Write { path, text: t.render() }),
            None if w.existed => writes.push(FileWrite::Delete { path }),
            None => {}
        }
    }
    Outcome { reports, writes }
}

/// A file's state after one edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum After {
    Text(String),
    Deleted,
}

/// Apply one edit to one file as it is now: the report, and the file's new state if it changed.
/// The review screen uses this for every decision, so a hunk is located again in the file's
/// current text at the moment it is accepted.
pub fn apply_single(edit: &Edit, path: &str, before: &Source) -> (EditReport, Option<After>) {
    let mut w = working(Some(before));
    let report = guarded(edit, path, &mut w, |w| apply_edit(edit, path, w, &[], None));
    (report, after_of(w))
}

mod prepared;
use prepared::Prepared;
pub use prepared::{Placed, PreparedFile, apply_each};

fn after_of(w: Working) -> Option<After> {
    match (w.dirty, w.text) {
        (false, _) => None,
        (true, Some(t)) => Some(After::Text(t.render())),
        (true, None) => Some(After::Deleted),
    }
}

fn working(source: Option<&Source>) -> Working {
    let (existed, text, unusable) = match source {
        Some(Source::Text(t)) => (true, Some(TextFile::parse(t)), None),
        Some(Source::Unusable(why)) => (true, None, Some(why.clone())),
        Some(Source::Missing) | None => (false, None, None),
    };
    Working { existed, text, unusable, dirty: false, moves: Vec::new() }
}

/// The report of an edit placed (not written yet), with a note on how when there is one.
fn placed(edit: &Edit, path: &str, placement: Placement, note: Option<&str>) -> EditReport {
    EditReport {
        path: path.to_string(),
        format: edit.format,
        status: Status::Placed,
        strategy: Some(placement.strategy),
        similarity: placement.similarity,
        lines: placement.lines,
        reason: note.map(String::from),
        reply_lines: edit.reply_lines,
        searched: None,
        closest: None,
        candidates: Vec::new(),
    }
}

fn refused(edit: &Edit, path: String, reason: String) -> EditReport {
    EditReport {
        path,
        format: edit.format,
        status: Status::Refused,
        strategy: None,
        similarity: None,
        lines: None,
        reason: Some(reason),
        reply_lines: edit.reply_lines,
        searched: match &edit.change {
            Change::Modify { hunk } => Some(hunk.old_text()),
            _ => None,
        },
        closest: None,
        candidates: Vec::new(),
    }
}

/// Run one edit on a copy of the file's state, keeping the copy only if the edit applied: a
/// refused edit changes nothing (the edit's code need not undo its own work), and a bug that
/// panics on one edit refuses that edit alone, so the others of the reply still apply.
fn guarded(
    edit: &Edit,
    path: &str,
    w: &mut Working,
    run: impl FnOnce(&mut Working) -> EditReport,
) -> EditReport {
    let mut trial = w.clone();
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&mut trial))) {
        Ok(report) => {
            if report.status.is_placed() {
                *w = trial;
            }
            report
        }
        Err(_) => refused(
            edit,
            path.into(),
            format!("{path}: an internal error stopped this edit; nothing of it was applied"),
        ),
    }
}

/// Apply one edit to a file's working state. `prepared`, when given, was built from the text `w`
/// holds now (unchanged since), and saves rebuilding it.
fn apply_edit(
    edit: &Edit,
    path: &str,
    w: &mut Working,
    mentions: &[String],
    prepared: Option<&Prepared>,
) -> EditReport {
    if let Some(why) = &w.unusable {
        return refused(edit, path.into(), format!("{path}: {why}"));
    }
    match &edit.change {
        Change::Modify { hunk } => modify(edit, path, hunk, w, prepared),
        Change::Create { content } => match &w.text {
            Some(t) if !t.lines.is_empty() || t.bom => {
                if t.render() == *content {
                    return placed(edit, path, Placement::of(Strategy::AlreadyApplied), None);
                }
                refused(
                    edit,
                    path.into(),
                    format!(
                        "{path} already exists: an empty SEARCH (or a diff from /dev/null) would replace all of it; give the lines to change in SEARCH instead"
                    ),
                )
            }
            _ => {
                w.text = Some(TextFile::parse(content));
                w.dirty = true;
                placed(edit, path, Placement::of(Strategy::Create), None)
            }
        },
        Change::Replace { content } => replace(edit, path, content, w, mentions),
        Change::Delete { old } => {
            let Some(text) = &w.text else {
                return refused(edit, path.into(), format!("{path}: cannot delete, no such file"));
            };
            if let Some(why) = crate::core::edit::delete_mismatch(old.as_deref(), &text.lines) {
                return refused(edit, path.into(), format!("{path}: not deleted: {why}"));
            }
            w.text = None;
            w.dirty = true;
            placed(edit, path, Placement::of(Strategy::Delete), None)
        }
    }
}

fn modify(
    edit: &Edit,
    path: &str,
    hunk: &Hunk,
    w: &mut Working,
    prepared: Option<&Prepared>,
) -> EditReport {
    let Some(text) = w.text.as_mut() else {
        return refused(
            edit,
            path.into(),
            format!("{path}: no such file (the hunk changes existing lines)"),
        );
    };
    let shift = hunk
        .old_start_hint
        .map_or(0, |h| w.moves.iter().filter(|(at, _)| *at < h).map(|(_, d)| d).sum());
    let located = match prepared {
        Some(p) => (locate_parts_indexed(hunk, &p.infos, &p.index, shift), Some(p.style)),
        None => {
            let infos: Vec<LineInfo> = text.lines.iter().map(|l| LineInfo::new(l)).collect();
            (locate_parts_indexed(hunk, &infos, &FileIndex::new(&infos), shift), None)
        }
    };
    let (parts, mut style) = match located {
        (Ok(parts), style) => (parts, style),
        (Err(refusal), _) => {
            if matches!(refusal.kind, RefusalKind::NotFound | RefusalKind::TooWeak)
                && let Some(p) = within_line(hunk, &text.lines)
            {
                let similarity = (p.end - p.start) as f64 / text.lines[p.line].len().max(1) as f64;
                let mut after = text.lines.clone();
                after[p.line].replace_range(p.start..p.end, &p.with);
                if let Err(why) = verify::check_hunk(&text.lines, &after, hunk) {
                    return refused(edit, path.into(), format!("{path}: {why}"));
                }
                text.lines = after;
                w.dirty = true;
                let placement = Placement {
                    strategy: Strategy::PartialLine,
                    lines: Some((p.line + 1, p.line + 1)),
                    similarity: Some(round(similarity)),
                };
                let note = "the old text is part of one line; replaced within it";
                return placed(edit, path, placement, Some(note));
            }
            if let Some((start, end)) = already_applied(hunk, &text.lines) {
                // The same edit sent again (a retry round, a repeated block): nothing to do.
                let placement = Placement {
                    strategy: Strategy::AlreadyApplied,
                    lines: Some((start + 1, end)),
                    similarity: Some(1.0),
                };
                let note = "the file already holds this hunk's new text; nothing changed";
                return placed(edit, path, placement, Some(note));
            }
            return refusal_report(edit, path, &refusal);
        }
    };
    if let Some(why) = placement_doubt(&parts, &text.lines) {
        return refused(edit, path.into(), format!("{path}: {why}"));
    }
    // Found only roughly, while the new text (with its context) stands in the file as written:
    // the edit was made before, and the rough place is a look-alike.
    let rough = parts.iter().any(|(_, l)| l.strategy == MatchKind::Fuzzy);
    let already = in_place_already(&parts, &text.lines)
        .or_else(|| rough.then(|| already_applied(hunk, &text.lines)).flatten());
    if let Some(place) = already {
        return already_report(edit, path, place);
    }
    // A refusal below leaves the file as it was: `guarded` drops this copy of it.
    let before = text.clone();
    let moves = w.moves.len();
    // Apply bottom-up so that earlier parts' line numbers stay valid.
    let mut ordered: Vec<&(Hunk, Located)> = parts.iter().collect();
    ordered.sort_by_key(|(_, l)| std::cmp::Reverse(l.start));
    for (h, loc) in ordered {
        // The style read before any part changed the text serves the first part only.
        let s = style.take().unwrap_or_else(|| file_style(text.lines.iter().map(|s| s.as_str())));
        let grew = apply_hunk_styled(text, h, loc, s);
        w.moves.push((loc.start + 1, grew));
    }
    // New lines that landed right beside a copy of themselves (placed past lines the hunk left
    // out, which `in_place_already` does not follow): the edit was made before.
    let only_adds = hunk.lines.iter().all(|l| l.kind != LineKind::Remove);
    if let Some(place) = only_adds.then(|| inserted_twice(&before.lines, &text.lines)).flatten() {
        *text = before;
        w.moves.truncate(moves);
        return already_report(edit, path, place);
    }
    if let Err(why) = verify::check_hunk(&before.lines, &text.lines, hunk) {
        return refused(edit, path.into(), format!("{path}: {why}"));
    }
    w.dirty = true;
    applied_report(edit, path, &parts)
}

/// Doubts about a placement that no check of the result can settle: parts of a fused hunk out
/// of the order the model wrote them in, or new lines whose place among lines the model left
/// out is unknown.
fn placement_doubt(parts: &[(Hunk, Located)], lines: &[String]) -> Option<String> {
    if parts.windows(2).any(|w| w[1].1.start < w[0].1.end) {
        return Some(
            "the hunk's changes fit the file only in another order than the reply gives them: send them as separate hunks, each with its own context".into(),
        );
    }
    let style = || crate::core::indent::file_style(lines.iter().map(|l| l.as_str()));
    parts.iter().find_map(|(h, loc)| {
        insertion_gap(h, loc, lines).or_else(|| {
            let lost = crate::core::apply::lost_tail_context(lines, h, loc, style)?;
            Some(format!(
                "the new lines follow {lost:?} in the hunk, which is not in the file after the lines found before it: include the lines the file has there as context so that the place is clear"
            ))
        })
    })
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
        let (Some(Some(from)), Some(to)) = (prev, next) else { continue };
        if let Some(left_out) =
            lines.get(from..to).and_then(|g| g.iter().find(|l| !l.trim().is_empty()))
        {
            let new = hunk.lines[run].text.trim();
            return Some(format!(
                "the new line {new:?} goes between lines the file has apart ({:?} lies between them and is not in the hunk): include it as context so that the place is clear",
                left_out.trim()
            ));
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
    let left_out = before.is_some_and(|f| f > 0 && blank_line(f - 1))
        || after.is_some_and(|f| blank_line(f + 1));
    left_out.then(|| {
        format!(
            "the new line {:?} goes among blank lines the file has more of than the hunk: include the lines around them as context so that the place is clear",
            hunk.lines[run].text.trim()
        )
    })
}

/// Where the file already reads, from the located place on, exactly what the hunk's new text
/// says (each line compared without surrounding whitespace, blank lines included): the edit was
/// applied before.
fn in_place_already(parts: &[(Hunk, Located)], lines: &[String]) -> Option<(usize, usize)> {
    let (mut first, mut last) = (usize::MAX, 0);
    for (h, loc) in parts {
        let kept: Vec<(&str, bool)> = h
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
            .map(|(l, s)| (l.text.trim(), matches!(s, HunkSlot::Kept(..))))
            .collect();
        let new: Vec<&str> = kept.iter().map(|(t, _)| *t).collect();
        let old_is_new = h.lines.iter().all(|l| l.kind == LineKind::Context);
        // New lines before the first line found stand right above the place found.
        let lead = kept.iter().position(|(_, anchored)| *anchored).unwrap_or(0);
        let start = loc.start.checked_sub(lead)?;
        let end = start + new.len();
        // The new text must cover the whole place the old text was found in: a file that still
        // holds lines the hunk removes (after its context) has not had the edit.
        if old_is_new || new.is_empty() || end > lines.len() || end < loc.end {
            return None;
        }
        if !lines[start..end].iter().map(|l| l.trim()).eq(new.iter().copied()) {
            return None;
        }
        first = first.min(start);
        last = last.max(end);
    }
    Some((first, last))
}

/// The report of an edit whose new text the file already holds at lines `start..end`.
fn already_report(edit: &Edit, path: &str, (start, end): (usize, usize)) -> EditReport {
    let placement = Placement {
        strategy: Strategy::AlreadyApplied,
        lines: Some((start + 1, end)),
        similarity: Some(1.0),
    };
    let note = "the file already holds this hunk's new text there; nothing changed";
    placed(edit, path, placement, Some(note))
}

/// Where `after` is `before` with blocks of lines inserted, each right beside a copy of itself
/// (an edit made a second time), the lines they span. Blocks of blank lines and closers alone
/// say nothing.
fn inserted_twice(before: &[String], after: &[String]) -> Option<(usize, usize)> {
    let old: Vec<&str> = before.iter().map(|l| l.trim()).collect();
    let new: Vec<&str> = after.iter().map(|l| l.trim()).collect();
    let (mut first, mut last, mut any) = (usize::MAX, 0, false);
    for op in similar::capture_diff_slices(similar::Algorithm::Myers, &old, &new) {
        match op {
            similar::DiffOp::Equal { .. } => {}
            similar::DiffOp::Insert { new_index: at, new_len: n, .. } => {
                let block = &new[at..at + n];
                let beside = (at >= n && new[at - n..at] == *block)
                    || new.get(at + n..at + 2 * n).is_some_and(|b| b == block);
                if !beside {
                    return None;
                }
                any |= block.iter().any(|l| !crate::core::indent::is_closer(l) && !l.is_empty());
                first = first.min(at);
                last = last.max(at + n);
            }
            _ => return None,
        }
    }
    any.then_some((first.min(before.len()), last.min(before.len())))
}

/// The report of a hunk located (in one or more parts) and applied.
fn applied_report(edit: &Edit, path: &str, parts: &[(Hunk, Located)]) -> EditReport {
    let first = parts.iter().map(|(_, l)| l.start).min().unwrap_or(0);
    let last = parts.iter().map(|(_, l)| l.end).max().unwrap_or(0);
    let similarity = parts.iter().map(|(_, l)| l.similarity).fold(1.0, f64::min);
    let matched =
        parts.iter().map(|(_, l)| l.strategy).max_by_key(|s| s.rank()).unwrap_or(MatchKind::Exact);
    let by_hint = parts.iter().any(|(_, l)| l.by_hint);
    let count = parts.len();
    let placement = Placement {
        strategy: Strategy::Located(matched),
        lines: Some((first + 1, last)),
        similarity: Some(round(similarity)),
    };
    let mut r = placed(edit, path, placement, None);
    let mut notes = Vec::new();
    if count > 1 {
        notes.push(format!(
            "applied as {count} separate hunks (changes fused without a new @@ header)"
        ));
    }
    if by_hint {
        notes.push("chosen among equal candidates by the header's line number".to_string());
    }
    if !notes.is_empty() {
        r.reason = Some(notes.join("; "));
    }
    r
}

/// Whether a hunk whose old text is gone was already applied: its new text (with its context)
/// is in the file exactly as written, at exactly one place, and says enough to be sure.
fn already_applied(hunk: &Hunk, lines: &[String]) -> Option<(usize, usize)> {
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
    if !placed {
        return None;
    }
    if !changed || !telling || new.is_empty() || new.len() > lines.len() {
        return None;
    }
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
    found
}

fn refusal_report(edit: &Edit, path: &str, refusal: &Refusal) -> EditReport {
    let mut reason = format!("{path}: {}", refusal.message);
    let mut r = refused(edit, path.into(), String::new());
    if let Some(c) = &refusal.closest {
        let lines: Vec<&str> = c.text.lines().collect();
        let shown = lines.iter().take(12).copied().collect::<Vec<_>>().join("\n");
        let more = if lines.len() > 12 {
            format!("\n... ({} more lines)", lines.len() - 12)
        } else {
            String::new()
        };
        reason.push_str(&format!(
            "\nclosest text in the file, lines {}-{} ({:.0}% similar):\n{shown}{more}",
            c.first_line,
            c.first_line + lines.len().max(1) - 1,
            c.similarity * 100.0
        ));
        r.similarity = Some(round(c.similarity));
        r.lines = Some((c.first_line, c.first_line + lines.len().max(1) - 1));
    }
    r.reason = Some(reason);
    r.closest = refusal.closest.clone();
    r.candidates = refusal.candidates.clone();
    r
}

/// A listing that keeps less than this share of a file, without placeholders, and is much shorter
/// than the file, is taken for an excerpt rather than the new whole file.
const EXCERPT_SHARE: f64 = 0.5;

fn replace(
    edit: &Edit,
    path: &str,
    content: &str,
    w: &mut Working,
    mentions: &[String],
) -> EditReport {
    let Some(text) = w.text.as_mut() else {
        if content.lines().any(|l| {
            crate::core::elision::is_placeholder(l) && l.trim().trim_matches('.').trim() != ""
        }) {
            return refused(
                edit,
                path.into(),
                format!(
                    "{path}: a new file cannot have `... unchanged code` placeholders: write it out whole"
                ),
            );
        }
        w.text = Some(TextFile::parse(content));
        w.dirty = true;
        return placed(edit, path, Placement::of(Strategy::Create), None);
    };
    let merged = match whole::merge(text, content) {
        Ok(m) => m,
        Err(why) => return refused(edit, path.into(), format!("{path}: {why}")),
    };
    // The reply says it changes something that the listing leaves behind a placeholder: restoring
    // it unchanged could undo what the model meant, so this is not guessed at.
    if let Some(name) = merged
        .restored_lines
        .iter()
        .filter_map(|&f| defined_name(&text.lines[f]))
        .find(|name| mentions.iter().any(|m| m == name))
    {
        return refused(
            edit,
            path.into(),
            format!(
                "{path}: the reply talks about `{name}`, but the listing leaves it behind a placeholder, so whether it stays unchanged is unclear: list it in full (or leave it out on purpose with a diff)"
            ),
        );
    }
    let orig_nonblank = text.lines.iter().filter(|l| !l.trim().is_empty()).count();
    let new_len = merged.lines.len();
    if !merged.restored
        && orig_nonblank >= 20
        && merged.kept_share < EXCERPT_SHARE
        && new_len * 2 < text.lines.len()
    {
        return refused(
            edit,
            path.into(),
            format!(
                "{path}: the listing has {new_len} lines and keeps {:.0}% of the file's {} lines: it looks like an excerpt, not the whole file; send the whole file or a diff",
                merged.kept_share * 100.0,
                text.lines.len()
            ),
        );
    }
    let merged_lines: Vec<String> = merged.lines.iter().map(|l| l.text.clone()).collect();
    if let Err(why) = verify::check_whole(&text.lines, &merged_lines, content) {
        return refused(edit, path.into(), format!("{path}: {why}"));
    }
    let n = text.lines.len();
    text.splice(0, n, merged.lines);
    w.dirty = true;
    let strategy = if merged.restored { Strategy::WholeMerge } else { Strategy::WholeFile };
    placed(edit, path, Placement { strategy, lines: Some((1, n)), similarity: None }, None)
}

/// The name a line defines, if it opens a definition: `def f`, `fn f`, `function f`, `class C`.
fn defined_name(line: &str) -> Option<&str> {
    const KEYWORDS: &[&str] = &[
        "def",
        "fn",
        "function",
        "class",
        "struct",
        "enum",
        "trait",
        "interface",
        "func",
        "impl",
        "module",
    ];
    let mut words =
        line.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty());
    while let Some(w) = words.next() {
        if KEYWORDS.contains(&w) {
            return words.next();
        }
    }
    None
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}
