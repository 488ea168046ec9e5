//! Carrying out a plan on file contents: every edit in reply order, each file's edits seeing the
//! ones before them, a refusal of one edit never stopping the others.
//!
//! This module runs the edits and locates and applies hunks; its parts: `doubt` (placements
//! refused before applying), `already` (edits made before), `listing` (whole-file listings),
//! `reports` (what is said of each edit), `prepared` (many hunks against one file version).
//!
//! Not for: parsing or resolving (`plan`), finding places (`core::locate`), changing lines
//! (`core::apply`), checking a result (`core::verify`), or touching the disk (the shell).

use std::collections::BTreeMap;

use crate::core::apply::apply_hunk_styled;
use crate::core::edit::{Change, Edit, Hunk, HunkLine, LineKind};
use crate::core::file::{FileWrite, Source};
use crate::core::indent::{FileStyle, file_style};
use crate::core::locate::lines::{FileIndex, LineInfo};
use crate::core::locate::partial::within_line;
use crate::core::locate::{
    HunkSlot, Located, MatchKind, Refusal, RefusalKind, enclosed_by, locate_parts_indexed,
};
use crate::core::placement::{Placement, Strategy};
use crate::core::plan::{Plan, PlanItem};
use crate::core::report::{EditReport, Outcome, Status};
use crate::core::strings::Starts;
use crate::core::text::TextFile;
use crate::core::verify;

mod already;
mod annotations;
mod doubt;
mod earlier;
mod elsewhere;
mod escaped;
mod listing;
mod outside;
mod prepared;
mod reports;
mod stand_in;
mod standing;
mod takeover;
mod whole_file;
use already::{
    already_applied, already_report, changed_where_closest, defined_again,
    found_where_another_wrote, in_place_across_elisions, in_place_already,
    in_place_as_changed_later, inserted_twice, made_then_edited, made_with_gaps, removed_before,
    removed_where_another_adds, removes_what_another_adds,
};
use doubt::placement_doubt;
use listing::replace;
use outside::{also_outside_a_string, also_shifted_elsewhere, locate_outside};
use prepared::Prepared;
pub use prepared::{Placed, PreparedFile, apply_each};
use reports::{applied_report, placed, refusal_report, refused, round};
use whole_file::{lookalike_of, unbalances};

/// A file as the edits so far left it.
#[derive(Clone)]
struct Working {
    existed: bool,
    text: Option<TextFile>,
    unusable: Option<String>,
    dirty: bool,
    /// (line, growth) of each hunk applied, to shift later hunks' line-number hints.
    moves: Vec<(usize, isize)>,
    /// The reply's hunks for this file: one made before may have been changed since by another
    /// ([`already::in_place_as_changed_later`]), and a definition the reply writes while another
    /// of its hunks removes the old one is a move, not a second copy ([`already::Hunks::removed`]).
    hunks: std::sync::Arc<already::Hunks>,
    /// The hunks this run applied to the file (not those found made before): a hunk that only
    /// adds lines, applied now, says nothing of an earlier application.
    applied_now: Vec<Hunk>,
    /// The reply's hunks placed so far, applied now or found made before.
    placed: Vec<Hunk>,
}

pub fn run(plan: &Plan, sources: &BTreeMap<String, Source>) -> Outcome {
    let mut files: BTreeMap<String, Working> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut reports = Vec::new();
    // The edits made so far, by file and change: a block the reply sends again ("the full
    // edit again:") is the same edit, made once, not placed a second time at a near-twin.
    let mut made: Vec<(&str, &Change)> = Vec::new();
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
            PlanItem::Quote { edit, path } => {
                let w = working_at(&mut files, &mut order, plan, sources, path);
                let original = match sources.get(path) {
                    Some(Source::Text(t)) => Some(TextFile::parse(t)),
                    _ => None,
                };
                if !quotes(edit, w.text.as_ref()) && !quotes(edit, original.as_ref()) {
                    reports.push(refused(
                        edit,
                        path.clone(),
                        format!(
                            "{path}: the block after the sentence naming this file holds lines the file does not: named only in prose among diffs or SEARCH/REPLACE blocks, it is not taken for the file's new version; put the path alone on the line before it"
                        ),
                    ));
                }
            }
            PlanItem::Edit { edit, path, .. } => {
                if made.contains(&(path.as_str(), &edit.change)) {
                    reports.push(placed(
                        edit,
                        path,
                        Placement::of(Strategy::AlreadyApplied),
                        Some("the reply repeats an edit it made above: made once"),
                    ));
                    continue;
                }
                let w = working_at(&mut files, &mut order, plan, sources, path);
                if w.text.is_none()
                    && let Some(why) = lookalike_of(plan, edit, path, sources)
                {
                    reports.push(refused(edit, path.clone(), why));
                    continue;
                }
                let report =
                    guarded(edit, path, w, |w| apply_edit(edit, path, w, plan.prose(), None));
                if report.status.is_placed() {
                    made.push((path.as_str(), &edit.change));
                    if let Change::Modify { hunk } = &edit.change {
                        w.placed.push(hunk.clone());
                    }
                }
                reports.push(report);
            }
        }
    }
    let mut writes = Vec::new();
    for path in order {
        let w = &files[&path];
        if !w.dirty {
            continue;
        }
        // Rendered once: checked as it would be written, then written.
        let rendered = w.text.as_ref().map(TextFile::render);
        if let (Some(Source::Text(before)), Some(after), Some(text)) =
            (sources.get(&path), &w.text, &rendered)
            && let Some(why) = unbalances(before, after).or_else(|| {
                let why = crate::core::parses::broken_by(&path, before, text)?;
                Some(format!("the reply's edits of this file break it: {why}; nothing was written to this file"))
            })
        {
            for r in reports.iter_mut().filter(|r| r.path == path && r.status.is_placed()) {
                r.status = Status::Refused;
                r.strategy = None;
                r.lines = None;
                r.reason = Some(format!("{path}: {why}"));
            }
            continue;
        }
        match rendered {
            Some(text) => writes.push(FileWrite::Write { path, text }),
            None if w.existed => writes.push(FileWrite::Delete { path }),
            None => {}
        }
    }
    Outcome { reports, writes }
}

/// The file `path` as the edits so far left it, read from `sources` (and put in `order`) the
/// first time an item of the plan names it.
fn working_at<'f>(
    files: &'f mut BTreeMap<String, Working>,
    order: &mut Vec<String>,
    plan: &Plan,
    sources: &BTreeMap<String, Source>,
    path: &str,
) -> &'f mut Working {
    files.entry(path.to_string()).or_insert_with(|| {
        order.push(path.to_string());
        Working { hunks: hunks_for(plan, path), ..working(sources.get(path)) }
    })
}

/// Whether a listing named only in prose among other edits ([`PlanItem::Quote`]) quotes the
/// file `text`: its lines (blank lines and placeholders aside) are the file's, in order.
fn quotes(edit: &Edit, text: Option<&TextFile>) -> bool {
    let (Change::Replace { content }, Some(text)) = (&edit.change, text) else { return false };
    let mut file = text.lines.iter().map(|l| l.trim()).filter(|l| !l.is_empty());
    content
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !crate::core::elision::is_placeholder(l))
        .all(|l| file.any(|f| f == l))
}

/// A file's state after one edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum After {
    Text(String),
    Deleted,
}

impl After {
    /// What the file holds once this is written.
    pub fn source(&self) -> Source {
        match self {
            After::Text(t) => Source::Text(t.clone()),
            After::Deleted => Source::Missing,
        }
    }

    /// Whether a file that holds `found` holds just this.
    pub fn is(&self, found: &Source) -> bool {
        match (self, found) {
            (After::Text(a), Source::Text(f)) => a == f,
            (After::Deleted, Source::Missing) => true,
            _ => false,
        }
    }
}

/// Apply one edit to one file as it is now: the report, and the file's new state if it changed.
/// The review screen uses this for every decision, so a hunk is located again in the file's
/// current text at the moment it is accepted.
pub fn apply_single(edit: &Edit, path: &str, before: &Source) -> (EditReport, Option<After>) {
    let mut w = working(Some(before));
    let report =
        guarded(edit, path, &mut w, |w| apply_edit(edit, path, w, Default::default(), None));
    (report, after_of(w))
}

fn after_of(w: Working) -> Option<After> {
    match (w.dirty, w.text) {
        (false, _) => None,
        (true, Some(t)) => Some(After::Text(t.render())),
        (true, None) => Some(After::Deleted),
    }
}

/// Whether the file holds `text` (a hunk's old or new lines) together, as written (trailing
/// whitespace aside).
fn holds_as_written<'a>(lines: &[String], text: impl Iterator<Item = &'a str>) -> bool {
    let old: Vec<&str> = text.map(str::trim_end).collect();
    !old.is_empty()
        && lines.windows(old.len()).any(|w| w.iter().map(|l| l.trim_end()).eq(old.iter().copied()))
}

/// The plan's hunks for `path`.
fn hunks_for(plan: &Plan, path: &str) -> std::sync::Arc<already::Hunks> {
    let hunks = plan.items.iter().filter_map(|item| match item {
        PlanItem::Edit { edit, path: p, .. } if p == path => match &edit.change {
            Change::Modify { hunk } => Some(hunk.clone()),
            _ => None,
        },
        _ => None,
    });
    std::sync::Arc::new(already::Hunks::new(hunks.collect()))
}

fn working(source: Option<&Source>) -> Working {
    let (existed, text, unusable) = match source {
        Some(Source::Text(t)) => {
            let text = TextFile::parse(t);
            let generated = generated(&text.lines);
            (true, Some(text), generated)
        }
        Some(Source::Unusable(why)) => (true, None, Some(why.clone())),
        Some(Source::Missing) | None => (false, None, None),
    };
    Working {
        existed,
        text,
        unusable,
        dirty: false,
        moves: Vec::new(),
        hunks: Default::default(),
        applied_now: Vec::new(),
        placed: Vec::new(),
    }
}

/// Why a file is not to be edited by hand, when its first lines say it is generated (`// Code
/// generated by protoc-gen-go. DO NOT EDIT.`, `@generated`): an edit written there is lost the
/// next time it is generated, and a model that shows what the generator will write ("it will
/// then contain, roughly: …") is not asking for one.
fn generated(lines: &[String]) -> Option<String> {
    let (n, line) = lines.iter().take(10).enumerate().find(|(_, l)| {
        let commented =
            ["//", "#", "/*", "*", "--", "<!--", ";"].iter().any(|c| l.trim_start().starts_with(c));
        // Said by a generator: "generated" with "do not edit", or `@generated` (a person's
        // "# DO NOT EDIT the port below without telling ops" is not one).
        let lower = l.to_lowercase();
        commented
            && (l.contains("@generated")
                || lower.contains("generated") && lower.contains("do not edit"))
    })?;
    Some(format!(
        "the file says it is generated (line {}: {:?}): an edit would be lost when it is generated again; change what it is generated from",
        n + 1,
        line.trim()
    ))
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
    mentions: crate::core::plan::Mentions<'_>,
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
                if edit.format == crate::core::edit::Format::Whole {
                    return refused(
                        edit,
                        path.into(),
                        format!(
                            "{path} already exists, but the reply presents its listing as a new file: the same name for another file, or the file rewritten? send a diff, or the whole file under its path without \"new\""
                        ),
                    );
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

/// A new line of the hunk that stands for code that stays (`elision::stands_for_kept_code`),
/// unless the file holds that very line (a comment of its own).
pub(super) fn placeholder_in_new_text<'h>(hunk: &'h Hunk, lines: &[String]) -> Option<&'h str> {
    use crate::core::elision::{only_dots, stands_for_kept_code};
    let depth = crate::core::indent::depth;
    // The new text's lines that say something, in order.
    let new: Vec<&HunkLine> = (hunk.lines.iter())
        .filter(|l| l.kind != LineKind::Remove && !l.text.trim().is_empty())
        .collect();
    // A bare `...` with a deeper line right after it in the new text is no Python `...`
    // statement (nothing nests under one): it stands for lines, as a comment would. So does
    // one added by a hunk whose old text elides with `...` (one more in the new text than in
    // the old: where the new lines go inside the one elided stretch is not said).
    let elides = hunk.lines.iter().any(|l| l.kind != LineKind::Add && only_dots(l.text.trim()));
    let (_, l) = new.iter().enumerate().find(|&(i, l)| {
        l.kind == LineKind::Add
            && (stands_for_kept_code(&l.text)
                || (only_dots(l.text.trim())
                    && (elides || new.get(i + 1).is_some_and(|n| depth(&n.text) > depth(&l.text)))))
    })?;
    (!lines.iter().any(|f| f.trim() == l.text.trim())).then_some(l.text.as_str())
}

/// Locate a hunk in the file and apply it, or say why not.
fn modify(
    edit: &Edit,
    path: &str,
    hunk: &Hunk,
    w: &mut Working,
    prepared: Option<&Prepared>,
) -> EditReport {
    // A hunk with no old lines for an existing empty file (`@@ -0,0 +1,3 @@`, what git writes
    // for one): its new text is the file.
    let no_old = hunk.old_lines().all(|l| l.trim().is_empty());
    if no_old && let Some(text) = w.text.as_mut() {
        let new = TextFile::parse(&hunk.new_text());
        if text.lines.iter().all(|l| l.trim().is_empty()) && !new.lines.is_empty() {
            *text = TextFile { bom: text.bom, ..new };
            w.dirty = true;
            return placed(edit, path, Placement::of(Strategy::Create), None);
        }
        if text.lines == new.lines {
            return placed(edit, path, Placement::of(Strategy::AlreadyApplied), None);
        }
    }
    let Some(text) = w.text.as_mut() else {
        return refused(
            edit,
            path.into(),
            format!("{path}: no such file (the hunk changes existing lines)"),
        );
    };
    // A block with more `=======` lines is read at each later one too. A reading made before
    // (the file holds its new text as written, not its old) is the block as it was read then;
    // else a later reading whose old text the file holds as written (the `=======` lines before
    // its divider are the file's own, a title's underline), the longest of several.
    let readings = || std::iter::successors(Some(hunk), |h| h.other_split.as_deref());
    let made = |h: &Hunk| {
        h.new_lines().filter(|l| !l.trim().is_empty()).count() >= 2
            && holds_as_written(&text.lines, h.new_lines())
            && !holds_as_written(&text.lines, h.old_lines())
    };
    let held = (readings().find(|h| made(h))).or_else(|| {
        (readings().skip(1))
            .filter(|other| holds_as_written(&text.lines, other.old_lines()))
            .max_by_key(|other| other.old_lines().count())
    });
    let hunk = held.unwrap_or(hunk);
    // Code copied from a web page, HTML-escaped (`&amp;&amp;`): read as the code is when the
    // file holds it so (its old text, or its new text once made), and not as written.
    let unescaped = escaped::unescaped(hunk).filter(|u| {
        (holds_as_written(&text.lines, u.old_lines())
            || holds_as_written(&text.lines, u.new_lines()))
            && !holds_as_written(&text.lines, hunk.old_lines())
    });
    if unescaped.is_none()
        && let Some(entity) = escaped::foreign_entity(path, hunk, &text.lines)
    {
        return refused(
            edit,
            path.into(),
            format!(
                "{path}: the new text writes `{entity}`, an HTML entity the file holds nowhere: code copied escaped from a web page? send it as the code reads"
            ),
        );
    }
    let hunk = unescaped.as_ref().unwrap_or(hunk);
    // New text that holds a placeholder for code that stays ("# ... existing code ..."), which
    // the old text spells out: written as it is, it would replace that code with the comment.
    // Standing alone for old lines between two kept ones, it keeps them.
    let placeholder = placeholder_in_new_text(hunk, &text.lines);
    let filled = placeholder.and_then(|l| crate::core::elision::fill_kept(hunk, l));
    let placeholder = match &filled {
        Some(f) => placeholder_in_new_text(f, &text.lines),
        None => placeholder,
    };
    let hunk = filled.as_ref().unwrap_or(hunk);
    if let Some(l) = placeholder {
        return refused(
            edit,
            path.into(),
            format!(
                "{path}: the new text has a placeholder ({:?}) for code that stays: the edit would write it in place of that code; write the kept lines out, or leave them out of both sides",
                l.trim()
            ),
        );
    }
    if let Some((comment, n)) = stand_in::comment_for_removed_code(path, hunk, &text.lines) {
        return refused(
            edit,
            path.into(),
            format!(
                "{path}: the new text puts a comment ({:?}) where the old text has {n} lines of code it removes, none written again: read as a placeholder the code stays, read as written it is lost; write the lines that stay out, or remove the lines without the comment",
                comment.trim()
            ),
        );
    }
    // Hunks applied above this one moved the lines its header's number points at.
    let shift = hunk
        .old_start_hint
        .map_or(0, |h| w.moves.iter().filter(|(at, _)| *at < h).map(|(_, d)| d).sum());
    let locate = |hunk: &Hunk, lines: &[String]| match prepared {
        Some(p) => locate_parts_indexed(hunk, &p.infos, &p.index, shift),
        None => {
            let infos: Vec<LineInfo> = lines.iter().map(|l| LineInfo::new(l)).collect();
            locate_parts_indexed(hunk, &infos, &FileIndex::new(&infos), shift)
        }
    };
    let style = prepared.map(|p| p.style);
    let parts = match locate(hunk, &text.lines) {
        Ok(parts) => parts,
        Err(refusal) => return not_located(edit, path, hunk, &refusal, w),
    };
    // Decorators, attributes and next-line directives above the item the hunk starts at stay
    // with it: the hunk takes them in, and is placed and judged as such from here on.
    let reattached = match parts.as_slice() {
        [(_, loc)] => annotations::reattach(path, hunk, loc, &text.lines),
        _ => None,
    };
    let (hunk, parts) = match &reattached {
        None => (hunk, parts),
        Some(with) => {
            let taken = with.lines.len() - hunk.lines.len();
            match locate(with, &text.lines) {
                Ok(again) if matches!(again.as_slice(), [(_, l)] if l.start + taken == parts[0].1.start) => {
                    (with, again)
                }
                _ => {
                    return refused(
                        edit,
                        path.into(),
                        format!(
                            "{path}: line {} ({:?}) belongs to the line below it, which the edit starts at; written as it is, the edit would part them: include the line in the old text",
                            parts[0].1.start,
                            text.lines[parts[0].1.start - 1].trim()
                        ),
                    );
                }
            }
        }
    };
    // The new text stands, whole and as written, where the hunk was found: the edit was made
    // before. This comes before the doubts about a place: new lines among lines the hunk left
    // out are no guess when they are the very lines already there.
    if let Some(place) = in_place_already(&parts, &text.lines)
        .or_else(|| in_place_across_elisions(&parts, &text.lines))
        .or_else(|| in_place_as_changed_later(&parts, &w.hunks, &text.lines))
        .or_else(|| removed_where_another_adds(&parts, &w.hunks, &text.lines))
        .or_else(|| found_where_another_wrote(hunk, &parts, &w.hunks, &w.applied_now, &text.lines))
    {
        return made_before(edit, path, hunk, place, &mut w.moves);
    }
    let parts = standing::beside_elisions(parts, &text.lines);
    if let Some((file, new)) = made_then_edited(&parts, &text.lines) {
        return refused(
            edit,
            path.into(),
            format!(
                "{path}: where this edit adds {:?} the file has {:?}: made before and edited since? it is not added a second time",
                new.trim(),
                file.trim()
            ),
        );
    }
    // A removal found on the lines another hunk of the reply writes would undo that hunk: the
    // model wrote the removal as the moved copy reads. It is looked for outside those lines;
    // found nowhere else, it was made before (the copy it meant is gone).
    let parts = match removes_what_another_adds(&parts, &w.hunks, &text.lines) {
        None => parts,
        Some((region, found)) => match locate_outside(hunk, &text.lines, region, shift) {
            Ok(parts) => parts,
            Err(None) => return made_before(edit, path, hunk, found, &mut w.moves),
            Err(Some(why)) => {
                return refused(
                    edit,
                    path.into(),
                    format!(
                        "{path}: the lines this edit removes are the ones another edit of the reply writes (lines {}-{}), and {why}",
                        region.0 + 1,
                        region.1
                    ),
                );
            }
        },
    };
    // What the prepared form knows of strings is of the text it was made from: this one.
    let fresh = Starts::default();
    let starts = prepared.map_or(&fresh, |p| &p.starts);
    if let Some(why) = also_outside_a_string(hunk, &parts, &text.lines, starts, shift) {
        return refused(edit, path.into(), format!("{path}: {why}"));
    }
    let parts = match also_shifted_elsewhere(hunk, &parts, &text.lines, shift) {
        None => parts,
        Some(twin) => {
            let (why, candidates) = (twin.why(), twin.candidates());
            match twin.picked(hunk.pick, parts) {
                Some(parts) => parts,
                None => {
                    let mut r = refused(edit, path.into(), format!("{path}: {why}"));
                    r.candidates = candidates;
                    return r;
                }
            }
        }
    };
    if let Some(place) = made_where_the_header_says(hunk, &parts, &text.lines, shift) {
        return made_before(edit, path, hunk, place, &mut w.moves);
    }
    if let Some(why) = earlier::changed_by_an_earlier_edit(hunk, &w.placed) {
        return refused(edit, path.into(), format!("{path}: {why}"));
    }
    if let Some(why) = placement_doubt(&parts, &text.lines, starts) {
        return refused(edit, path.into(), format!("{path}: {why}"));
    }
    // Found only roughly, while the new text (with its context) stands in the file as written:
    // the edit was made before, and the rough place is a look-alike.
    let rough = parts.iter().any(|(_, l)| l.strategy == MatchKind::Fuzzy);
    let already = None.or_else(|| {
        rough
            .then(|| {
                already_applied(hunk, &text.lines)
                    .filter(|r| !removals_still_there(&parts, &text.lines, *r))
                    .or_else(|| removed_before(hunk, &text.lines).filter(|r| within(&parts, *r)))
                    .or_else(|| made_with_gaps(hunk, &parts, &text.lines))
            })
            .flatten()
    });
    if let Some(place) = already {
        return made_before(edit, path, hunk, place, &mut w.moves);
    }
    // A refusal below leaves the file as it was: `guarded` drops this copy of it.
    let before = text.clone();
    let moves = w.moves.len();
    apply_parts(text, path, &parts, style, &mut w.moves);
    // New lines that landed right beside a copy of themselves (placed past lines the hunk left
    // out, which `in_place_already` does not follow): the edit was made before.
    // (A hunk whose new text repeats its own lines, `tick()` made `tick()` twice, means the
    // copy.)
    // (A hunk that removes lines too, found only roughly, may have removed lines the file has as
    // it writes them, `port 25` found as the `port 587` it writes: the diff then shows only its
    // added lines, beside their copy.)
    let only_adds =
        (rough || hunk.lines.iter().all(|l| l.kind != LineKind::Remove)) && !repeats_itself(hunk);
    let sibling = |l: &str| w.hunks.adding(l).any(|h| h != hunk);
    if let Some(place) =
        only_adds.then(|| inserted_twice(&before.lines, &text.lines, sibling)).flatten()
    {
        *text = before;
        w.moves.truncate(moves);
        return made_before(edit, path, hunk, place, &mut w.moves);
    }
    if let Some((head, line)) = defined_again(hunk, &before.lines, &text.lines, w.hunks.removed()) {
        return refused(
            edit,
            path.into(),
            format!(
                "{path}: the edit writes {head:?} while the file defines that name already (line {line}): it would be defined twice (the new one shadowing the old); made before and changed since, or another function of that name? send the change to it, or name it otherwise"
            ),
        );
    }
    if let Err(why) = verify::check_hunk(&before.lines, &text.lines, hunk) {
        return refused(edit, path.into(), format!("{path}: {why}"));
    }
    if let [_] = parts.as_slice()
        && let Some(why) = takeover::takes_over(path, &before.lines, &text.lines)
    {
        *text = before;
        w.moves.truncate(moves);
        return refused(edit, path.into(), format!("{path}: {why}"));
    }
    w.dirty = true;
    w.applied_now.push(hunk.clone());
    applied_report(edit, path, &parts)
}

/// The report of an edit made before, its new text at `place`: the lines it added are in the
/// file, so later hunks' line numbers (counted in the file before it) are shifted as if it had
/// been applied now.
fn made_before(
    edit: &Edit,
    path: &str,
    hunk: &Hunk,
    place: (usize, usize),
    moves: &mut Vec<(usize, isize)>,
) -> EditReport {
    let count = |kind: LineKind| hunk.lines.iter().filter(|l| l.kind == kind).count() as isize;
    moves.push((place.0 + 1, count(LineKind::Add) - count(LineKind::Remove)));
    already_report(edit, path, place)
}

/// The place the `@@` header points at, where the hunk's new text stands whole, when its old
/// text was found at a twin the header does not point at: the header chose between the twins
/// when the edit was made, and the old text left is the other twin's (a reply applied twice).
/// The heading points at a place it encloses and the found one it does not; the line number at
/// one within three lines, the found one three lines further (the locator's margins).
fn made_where_the_header_says(
    hunk: &Hunk,
    parts: &[(Hunk, Located)],
    lines: &[String],
    shift: isize,
) -> Option<(usize, usize)> {
    let new: Vec<&str> = hunk.new_lines().map(str::trim_end).collect();
    let adds = hunk.lines.iter().any(|l| l.kind == LineKind::Add && doubt::telling(&l.text));
    if !adds || new.is_empty() {
        return None;
    }
    let holds = |at: isize| {
        at >= 0
            && (lines.get(at as usize..at as usize + new.len()))
                .is_some_and(|ls| ls.iter().map(|l| l.trim_end()).eq(new.iter().copied()))
    };
    let found = parts.iter().map(|(_, l)| l.start).min()?;
    let overlaps = |at: usize| parts.iter().any(|(_, l)| l.start < at + new.len() && at < l.end);
    // The heading names the block the edit was made in: the new text stands in it, and the
    // old text only outside it.
    if let Some(heading) = hunk.section.as_deref() {
        let encloses = |at: usize| enclosed_by(heading, |k| lines[k].as_str(), at);
        if !encloses(found)
            && let Some(at) =
                (0..lines.len()).find(|&at| holds(at as isize) && encloses(at) && !overlaps(at))
        {
            return Some((at, at + new.len()));
        }
    }
    let hint = hunk.old_start_hint? as isize + shift - 1;
    let at = [0, -1, 1, -2, 2, -3, 3].into_iter().map(|d| hint + d).find(|&at| holds(at))?;
    let (near, far) = ((at - hint).abs(), (found as isize - hint).abs());
    (!overlaps(at as usize) && far >= near + 3).then_some((at as usize, at as usize + new.len()))
}

/// Whether the hunk's new text holds a run of added lines right beside the same lines: the
/// edit writes the copy on purpose.
fn repeats_itself(hunk: &Hunk) -> bool {
    let new: Vec<(&str, bool)> = (hunk.lines.iter())
        .filter(|l| l.kind != LineKind::Remove)
        .map(|l| (l.text.trim_end(), l.kind == LineKind::Add))
        .collect();
    let mut i = 0;
    while i < new.len() {
        if !new[i].1 {
            i += 1;
            continue;
        }
        let run = (i..new.len()).take_while(|&k| new[k].1).count();
        let block: Vec<&str> = new[i..i + run].iter().map(|x| x.0).collect();
        let same = |from: usize| {
            new.get(from..from + run)
                .is_some_and(|b| b.iter().map(|x| x.0).eq(block.iter().copied()))
        };
        if (i >= run && same(i - run)) || same(i + run) {
            return true;
        }
        i += run;
    }
    false
}

/// Whether every file line the located parts matched lies in `start..end`: the place found is
/// the one the context stands at, with no removed line matched elsewhere.
/// Whether the place found for the hunk's old text overlaps lines `start..end`, where its new
/// text stands, and holds lines the hunk removes beyond them, as the hunk writes them: the new
/// text is there, but what the edit deletes next to it is too (a function the edit removes,
/// after the line it also rewrites), so the edit was not made. A look-alike of a removed line
/// (`handler_6` for the `handler_3` the edit removed before) is not the line.
fn removals_still_there(
    parts: &[(Hunk, Located)],
    lines: &[String],
    (start, end): (usize, usize),
) -> bool {
    parts.iter().any(|(h, l)| {
        let mut removed = h.lines.iter().zip(&l.slots).filter_map(|(line, s)| match *s {
            HunkSlot::Removed(f, _) if line.text.trim() == lines[f].trim() => Some(f),
            _ => None,
        });
        l.start < end && start < l.end && removed.any(|f| f < start || f >= end)
    })
}

fn within(parts: &[(Hunk, Located)], (start, end): (usize, usize)) -> bool {
    parts.iter().flat_map(|(_, l)| &l.slots).all(|s| match *s {
        HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => (start..end).contains(&f),
        _ => true,
    })
}

/// Apply a hunk's located parts to the text, recording each one's (line, growth) in `moves`.
/// `style`, when given, is the file's indentation read from the text as it is now.
fn apply_parts(
    text: &mut TextFile,
    path: &str,
    parts: &[(Hunk, Located)],
    mut style: Option<FileStyle>,
    moves: &mut Vec<(usize, isize)>,
) {
    // Bottom-up, so that earlier parts' line numbers stay valid.
    let mut ordered: Vec<&(Hunk, Located)> = parts.iter().collect();
    ordered.sort_by_key(|(_, l)| std::cmp::Reverse(l.start));
    for (h, loc) in ordered {
        // The style read before any part changed the text serves the first part only.
        let s = style.take().unwrap_or_else(|| file_style(text.lines.iter().map(|s| s.as_str())));
        let grew = apply_hunk_styled(text, h, loc, s.for_path(path, &text.lines));
        moves.push((loc.start + 1, grew));
    }
}

/// A hunk the locator could not place: it may be an edit made before (its old text gone, its
/// new text there), looked for first (a line extended by the edit holds its old text too, and
/// replacing within it would extend it again), or a change inside one line; otherwise the
/// locator's refusal.
fn not_located(
    edit: &Edit,
    path: &str,
    hunk: &Hunk,
    refusal: &Refusal,
    w: &mut Working,
) -> EditReport {
    let Some(text) = w.text.as_mut() else { return refusal_report(edit, path, refusal) };
    let closest = refusal.closest.as_ref().map(|c| c.first_line);
    let changed = || closest.and_then(|c| changed_where_closest(hunk, &text.lines, c));
    if let Some(place) = already_applied(hunk, &text.lines).or_else(changed) {
        // The same edit sent again (a retry round, a repeated block): nothing to do.
        return made_before(edit, path, hunk, place, &mut w.moves);
    }
    if matches!(refusal.kind, RefusalKind::NotFound | RefusalKind::TooWeak)
        && let Some(p) = within_line(hunk, &text.lines)
    {
        let similarity = (p.end - p.start) as f64 / text.lines[p.line].len().max(1) as f64;
        // The new fragment holds the old one and stands around it already (`cache:!0` made
        // `cache:!0,bail:!0` before): made before, not to be extended again.
        let line = &text.lines[p.line];
        let old = &line[p.start..p.end];
        // All of a line is no part of one: the hunk's lines were found whole and refused
        // there (far from their header, among twins); another copy is not taken this way.
        if old.trim() == line.trim() {
            return refusal_report(edit, path, refusal);
        }
        let made = p.with.match_indices(old).any(|(k, _)| {
            p.start >= k && line.get(p.start - k..p.start - k + p.with.len()) == Some(&p.with)
        });
        if made {
            return made_before(edit, path, hunk, (p.line, p.line + 1), &mut w.moves);
        }
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
    refusal_report(edit, path, refusal)
}
