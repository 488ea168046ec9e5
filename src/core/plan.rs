//! Plans a complete reply against a project snapshot: parses it and resolves every edit's path
//! (the first half of `redline apply`'s pure heart; `core::execute` is the second).
//!
//! The shell calls [`plan`] with the reply and the project's file list, reads the files the plan
//! names ([`Plan::paths_to_read`]) into [`Source`](crate::core::file::Source)s, calls
//! [`crate::core::execute::run`], and writes what the
//! [`Outcome`](crate::core::report::Outcome) says. Nothing here touches the disk.
//!
//! Not for: locating or applying edits (`execute`), or the types the later steps share
//! (`file`, `report`).

mod corrections;
mod hedges;

use crate::core::edit::{Change, Edit, Format, Hunk, PathSource, Problem};
use crate::core::parse::{Event, ParseOptions, parse_reply};
use crate::core::prose::{prose_names, removal_names};
use crate::core::resolve::{PathMatch, Project, is_quote};

/// Which parsers to run on a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FormatChoice {
    #[default]
    Auto,
    Only(Format),
}

/// A parsed reply with every edit's path resolved (or refused) against the project.
#[derive(Debug, Clone)]
pub struct Plan {
    pub(crate) items: Vec<PlanItem>,
    /// Names the reply's prose mentions in backticks (`extra_indent`, `Error::msg`): what the
    /// model says it changes.
    pub(crate) mentions: Vec<String>,
    /// Those of them it says it removes (`prose::removal_names`).
    pub(crate) removed: Vec<String>,
    /// Files the reply creates whole under a path a character or two from a project file's
    /// (`Project::lookalikes`): the new path, and the project file. The listing is checked
    /// against that file's text before the new file is made.
    pub(crate) lookalikes: Vec<(String, String)>,
}

/// What a reply's prose says about names, for the checks of a listing: the names it mentions,
/// and those it says go.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Mentions<'a> {
    pub(crate) names: &'a [String],
    pub(crate) removed: &'a [String],
}

#[derive(Debug, Clone)]
pub(crate) enum PlanItem {
    /// An edit whose path resolved to this project-relative path; `by` says how (a fallback
    /// guess must be confirmed by the edit's own text).
    Edit { edit: Edit, path: String, by: PathMatch },
    /// An edit refused before reading anything (unsafe or unresolvable path).
    Refused { edit: Edit, reason: String },
    /// A block the parser could not read.
    Problem(Problem),
    /// A listing of an existing file named only in prose, among diffs or SEARCH/REPLACE blocks:
    /// a quote, not an edit. Checked when reached: a quote of the file as it was or as it
    /// stands writes nothing; one that holds lines the file does not (a new version, "here is
    /// the updated `x.py`", or an example) is refused, never dropped without a word.
    Quote { edit: Edit, path: String },
}

impl Plan {
    /// What the reply's prose says about names.
    pub(crate) fn prose(&self) -> Mentions<'_> {
        Mentions { names: &self.mentions, removed: &self.removed }
    }

    /// The project-relative paths the shell must read (each once, in first-use order).
    pub fn paths_to_read(&self) -> Vec<String> {
        let mut seen = Vec::<String>::new();
        for item in &self.items {
            if let PlanItem::Edit { path, .. } | PlanItem::Quote { path, .. } = item
                && !seen.contains(path)
            {
                seen.push(path.clone());
            }
        }
        for (_, like) in &self.lookalikes {
            if !seen.contains(like) {
                seen.push(like.clone());
            }
        }
        seen
    }

    /// Each resolved edit's project path and how it was matched, in reply order: a fallback
    /// ([`PathMatch::is_fallback`]) is a guess its own text must confirm.
    pub fn path_matches(&self) -> Vec<(&str, PathMatch)> {
        self.items
            .iter()
            .filter_map(|item| match item {
                PlanItem::Edit { path, by, .. } => Some((path.as_str(), *by)),
                _ => None,
            })
            .collect()
    }

    /// How many edits and problems the reply held.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// Parse `reply` and resolve every edit's path against `project_files` (project-relative,
/// `/`-separated).
pub fn plan(reply: &str, choice: FormatChoice, project_files: &[String]) -> Plan {
    plan_reply(reply, choice, project_files, &[])
}

/// [`plan`] for a project whose root has these absolute forms (as given, canonical): an absolute
/// path the reply names under the root is taken as that project path (any other stays refused).
pub fn plan_rooted(
    reply: &str,
    choice: FormatChoice,
    project_files: &[String],
    roots: &[String],
) -> Plan {
    plan_reply(reply, choice, project_files, roots)
}

/// Parse `reply` and resolve every edit's path: the plan [`plan`] and [`plan_rooted`] return.
fn plan_reply(
    reply: &str,
    choice: FormatChoice,
    project_files: &[String],
    roots: &[String],
) -> Plan {
    let only = match choice {
        FormatChoice::Auto => None,
        FormatChoice::Only(f) => Some(f),
    };
    let events = parse_reply(reply, ParseOptions { only, known_paths: project_files.to_vec() });
    let has_hunks =
        events.iter().any(|e| matches!(e, Event::Edit(ed) if ed.format != Format::Whole));
    let mut project = Project::new(project_files).with_roots(roots);
    let mut items = Vec::new();
    let mut lookalikes = Vec::new();
    for (i, event) in events.iter().enumerate() {
        match event {
            Event::Problem(p) => items.push(PlanItem::Problem(p.clone())),
            Event::Edit(edit) => {
                let weak = edit.path_source == PathSource::Prose;
                if weak && edit.format == Format::Whole && has_hunks {
                    // A block named only in prose among diffs or SEARCH/REPLACE blocks is a
                    // quote, an example or output ("Sample output (`report.csv`):", "your
                    // `.env`:", the original file for reference), not an edit: one for a file
                    // the project lacks is refused with that reason, one of an existing file
                    // is checked when reached (nothing to do for a quote of the file, else
                    // refused), never dropped without a word.
                    match project.resolve(edit) {
                        // (Unless the sentence right before it says to create it: "Create
                        // `src/cache.rs`:".)
                        Ok(r)
                            if !project.contains(&r.path)
                                && announces_new_file(reply, edit.reply_lines.0, &r.path) =>
                        {
                            if let [like] = project.lookalikes(&r.path)[..] {
                                lookalikes.push((r.path.clone(), like.to_string()));
                            }
                            project.insert(&r.path);
                            items.push(PlanItem::Edit {
                                edit: edit.clone(),
                                path: r.path,
                                by: r.by,
                            });
                        }
                        Ok(r) if !project.contains(&r.path) => {
                            let reason = format!(
                                "{}: a block named only in prose, in a reply with diffs or SEARCH/REPLACE blocks, is not taken for a new file: put the path alone on the line before it",
                                r.path
                            );
                            items.push(PlanItem::Refused { edit: edit.clone(), reason });
                        }
                        Ok(r) if !r.by.is_fallback() => {
                            items.push(PlanItem::Quote { edit: edit.clone(), path: r.path })
                        }
                        _ => {}
                    }
                    continue;
                }
                match project.resolve(edit) {
                    Ok(r) if is_quote(edit, &r.path, &events[i + 1..], &project) => {}
                    // Named only in a sentence ("Here's the updated `src/utils/date.ts`"), a
                    // listing for a file the project does not have, while it has one of that
                    // name elsewhere (`src/lib/date.ts`): that file, moved since the model saw
                    // it, or a new one beside it? A sentence is too loose a name to create a
                    // second one on.
                    Ok(r)
                        if weak
                            && matches!(edit.change, Change::Replace { .. })
                            && !project.contains(&r.path)
                            && !project.same_name_elsewhere(&r.path).is_empty() =>
                    {
                        let reason = format!(
                            "{}: no such file, and {} has this name: is the listing for that file, or a new one? put the path of the file it is for alone on the line before the block",
                            r.path,
                            project.same_name_elsewhere(&r.path)[..]
                                .iter()
                                .take(3)
                                .copied()
                                .collect::<Vec<_>>()
                                .join(", ")
                        );
                        items.push(PlanItem::Refused { edit: edit.clone(), reason });
                    }
                    Ok(r)
                        if matches!(
                            edit.change,
                            Change::Replace { .. } | Change::Create { .. }
                        ) && !project.contains(&r.path)
                            && project.module_twin(&r.path).is_some() =>
                    {
                        let twin = project.module_twin(&r.path).unwrap_or_default();
                        let reason = format!(
                            "{}: no such file, and {twin} stands beside it under the same name: an import without the extension would reach either; is the listing for {twin}? name that file, or give the new one another name (nothing was created)",
                            r.path
                        );
                        items.push(PlanItem::Refused { edit: edit.clone(), reason });
                    }
                    Ok(r) => {
                        let whole =
                            matches!(edit.change, Change::Replace { .. } | Change::Create { .. });
                        if whole && !project.contains(&r.path) {
                            let like = project.lookalikes(&r.path);
                            if let [like] = like[..] {
                                lookalikes.push((r.path.clone(), like.to_string()));
                            }
                        }
                        // A file the reply creates is a file of the project for the edits
                        // after it (a new module, then a change to it).
                        project.insert(&r.path);
                        items.push(PlanItem::Edit { edit: edit.clone(), path: r.path, by: r.by })
                    }
                    Err(_) if weak => {}
                    Err(reason) => items.push(PlanItem::Refused { edit: edit.clone(), reason }),
                }
            }
        }
    }
    // Read into lines once: the checks below look at the prose between blocks many times, and
    // walking the reply to a line each time made a long listing's reply quadratic.
    let lines: Vec<&str> = reply.lines().collect();
    // Blocks the prose takes back first: a block shown as what not to do is no rival of the
    // one that follows it with the same old text ("Don't do this: … Do this: …").
    withdrawn(&mut items, &lines);
    supersede(&mut items, &lines);
    listed_twice(&mut items, &lines);
    corrections::corrected_after(&mut items, &lines);
    heading_conflicts(&mut items, &lines, &project);
    Plan { items, mentions: prose_names(reply), removed: removal_names(reply), lookalikes }
}

/// A block under a heading that names one project file (`### src/server/config.ts`) while
/// the block's own path names another (`src/client/config.ts`): which file the model meant,
/// nothing tells (two alike files take the same edit). Refused, naming both. Only the nearest
/// heading since the previous block counts, and only one that is a path and nothing else.
fn heading_conflicts(items: &mut [PlanItem], lines: &[&str], project: &Project) {
    let mut prev_end = 0;
    for item in items.iter_mut() {
        let PlanItem::Edit { edit, path, .. } = item else {
            prev_end = match item {
                PlanItem::Refused { edit, .. } | PlanItem::Quote { edit, .. } => edit.reply_lines.1,
                PlanItem::Problem(p) => p.reply_lines.1,
                PlanItem::Edit { .. } => prev_end,
            };
            continue;
        };
        let (start, end) = edit.reply_lines;
        let explicit = matches!(
            edit.path_source,
            PathSource::PathLine | PathSource::FenceInfo | PathSource::DiffHeader
        );
        let first = start.saturating_sub(1).min(lines.len());
        let heading = lines[prev_end.min(first)..first]
            .iter()
            .rev()
            .find(|l| l.trim_start().starts_with('#'))
            .map(|l| l.trim().trim_start_matches('#').trim());
        let named = heading.map(|h| h.trim_end_matches(':').trim_matches(['`', '*', ' ']));
        if explicit
            && let Some(named) = named
            && named != path.as_str()
            && project.contains(named)
        {
            let reason = format!(
                "{path}: the block's path names this file, but the heading above it names {named}: which file is the edit for? name one file"
            );
            *item = PlanItem::Refused { edit: edit.clone(), reason };
        }
        prev_end = end;
    }
}

/// A SEARCH/REPLACE block whose old text a later block of the reply, for the same file, looks
/// for again with other new text ("here is the corrected edit, use this one instead"): the
/// later block is the model's correction, and the earlier is refused, not applied under it.
/// Applied in turn, the first would change the text the second then finds only roughly, and
/// the second would write its lines beside the first's (a guard written twice).
///
/// A later block that adds other lines is a correction when the prose between the two takes
/// the first back ("scratch that, use this block instead", "the corrected version:"); without
/// such words neither is applied: both cannot stand at one place, and which is meant is not
/// known (a reply quoting the user's version before its own).
fn supersede(items: &mut [PlanItem], reply: &[&str]) {
    fn block(item: &PlanItem) -> Option<(&str, &Hunk, (usize, usize))> {
        match item {
            PlanItem::Edit { edit, path, .. } => match &edit.change {
                Change::Modify { hunk } => Some((path, hunk, edit.reply_lines)),
                _ => None,
            },
            _ => None,
        }
    }
    let trimmed = |lines: Vec<&str>| -> Vec<String> {
        lines.iter().map(|l| l.trim_end().to_string()).collect()
    };
    // What a block adds that says something: a correction keeps at least half of it (a
    // second block adding other lines at the same anchor, `import json` then `import time`, is
    // an edit of its own).
    let adds = |h: &Hunk| -> Vec<String> {
        (h.lines.iter())
            .filter(|l| l.kind == crate::core::edit::LineKind::Add)
            .map(|l| l.text.trim().to_string())
            .filter(|t| t.chars().filter(|c| c.is_alphanumeric()).count() >= 3)
            .collect()
    };
    // Each block's file, old text, new text and what it adds, read once.
    struct Read<'p> {
        path: &'p str,
        old: Vec<String>,
        new: Vec<String>,
        adds: Vec<String>,
        reply_lines: (usize, usize),
    }
    let read: Vec<Option<Read>> = (items.iter())
        .map(|item| {
            let (path, h, reply_lines) = block(item)?;
            let (old, new) = (trimmed(h.old_lines().collect()), trimmed(h.new_lines().collect()));
            Some(Read { path, old, new, adds: adds(h), reply_lines })
        })
        .collect();
    let mut superseded = Vec::new();
    for (i, first) in read.iter().enumerate() {
        let Some(first) = first else { continue };
        // A short old text (`return None`, `import os`) may stand for two places, one per
        // block: only two lines or more say the blocks are after the same place.
        if first.old.iter().filter(|l| !l.trim().is_empty()).count() < 2 {
            continue;
        }
        let Some((j, other)) = (read.iter().enumerate().skip(i + 1))
            .filter_map(|(j, r)| Some((j, r.as_ref()?)))
            .find(|(_, r)| r.path == first.path && r.old == first.old && r.new != first.new)
        else {
            continue;
        };
        let (from, to) = other.reply_lines;
        let corrects = first.adds.iter().filter(|a| other.adds.contains(a)).count() * 2
            >= first.adds.len()
            || takes_back(reply, first.reply_lines.1, from);
        if corrects {
            let reason = format!(
                "{}: the block at reply lines {from}-{to} replaces the same text otherwise: it is taken as this one's correction, and this one is not applied",
                first.path
            );
            superseded.push((i, reason));
            continue;
        }
        // Not said to be a correction: both cannot stand at that place (once one is made,
        // the other's old text is gone), and which one the model means is not known (a
        // version it quotes, "you proposed:", then its own). Neither is applied.
        let (a, b) = first.reply_lines;
        let reason = |(x, y): (usize, usize)| {
            format!(
                "{}: the blocks at reply lines {a}-{b} and {from}-{to} replace the same text with different new text, and the reply does not say which one stands ({x}-{y} is not applied): send the one that is meant",
                first.path
            )
        };
        superseded.push((i, reason((a, b))));
        superseded.push((j, reason((from, to))));
    }
    for (i, reason) in superseded {
        if let PlanItem::Edit { edit, .. } = &items[i] {
            items[i] = PlanItem::Refused { edit: edit.clone(), reason };
        }
    }
}

/// Whether the reply's prose between two blocks (after reply line `after`, before line
/// `before`, 1-based) takes the first back: "scratch that", "use this instead", "ignore the
/// block above".
/// Blocks the reply's own prose takes back: the block right before a sentence that says not to
/// apply it ("Wait, don't apply that block", "scratch that", "disregard the above"), and a block
/// offered as the tempting wrong fix ("you might be tempted to just raise the timeout:"). Each
/// is refused, saying so; what the reply offers instead stands on its own.
fn withdrawn(items: &mut [PlanItem], reply: &[&str]) {
    let lines = reply.len();
    let prose = |after: usize, before: usize| prose_between(reply, after, before).replace('’', "'");
    let spans = edit_spans(items);
    // The prose around a block ends at the blocks next to it, refused ones too: a block taken
    // as corrected is still text between this one and the prose before it ("Don't do this:"
    // is about it, not about the block that follows it).
    let blocks = block_spans(items);
    let mut taken_back: Vec<(usize, String)> = Vec::new();
    for (i, span) in spans.iter().enumerate() {
        let Some((start, end)) = *span else { continue };
        let PlanItem::Edit { edit, .. } = &items[i] else { continue };
        let prev_end = blocks[..i].iter().rev().find_map(|s| s.map(|s| s.1)).unwrap_or(0);
        let next_start = blocks[i + 1..].iter().find_map(|s| s.map(|s| s.0)).unwrap_or(lines + 1);
        // (Lines are 1-based: the prose after a block is lines end+1..next_start-1.)
        let why = hedges::taken_back_after(&prose_as_written(reply, end, next_start), edit)
            .or_else(|| hedges::not_meant_before(&prose(prev_end, start)));
        if let Some(words) = why {
            taken_back.push((i, words));
        }
    }
    for (i, words) in taken_back {
        if let PlanItem::Edit { edit, path, .. } = &items[i] {
            let reason = format!(
                "{path}: the reply takes this block back or offers it as not to be done now (\"{words}\"): not applied; what it offers instead is applied on its own"
            );
            items[i] = PlanItem::Refused { edit: edit.clone(), reason };
        }
    }
    let spans = edit_spans(items);
    for (i, words) in hedges::alternatives(&spans, lines, |a, b| prose_as_written(reply, a, b)) {
        if let PlanItem::Edit { edit, path, .. } = &items[i] {
            let reason = format!(
                "{path}: the reply offers this block as one of alternatives (\"{words}\"): which one stands is yours to say; none of them is applied"
            );
            items[i] = PlanItem::Refused { edit: edit.clone(), reason };
        }
    }
}

/// One file given whole twice with different text (two "new" versions of `logging.yaml`):
/// written in turn, the second would silently replace the first. A later one the prose between
/// them calls a correction is written over the first, as meant; otherwise neither is written,
/// as with two SEARCH/REPLACE blocks that replace one text otherwise.
fn listed_twice(items: &mut [PlanItem], reply: &[&str]) {
    let whole = |item: &PlanItem| match item {
        PlanItem::Edit { edit, path, .. } => match &edit.change {
            Change::Create { content } | Change::Replace { content } => {
                Some((path.clone(), content.clone(), edit.reply_lines))
            }
            _ => None,
        },
        _ => None,
    };
    // (Item, (path, text, reply lines)) of each whole-file block.
    type Listed = (usize, (String, String, (usize, usize)));
    let listed: Vec<Listed> =
        (items.iter().enumerate()).filter_map(|(i, it)| Some((i, whole(it)?))).collect();
    let mut refused: Vec<(usize, String)> = Vec::new();
    for (k, (i, (path, text, (a, b)))) in listed.iter().enumerate() {
        for (j, (other, later, (c, d))) in &listed[k + 1..] {
            if other != path || later == text {
                continue;
            }
            // Said to be a correction: the later one is written over the earlier, as meant.
            if takes_back(reply, *b, *c) {
                continue;
            }
            let why = format!(
                "{path}: the reply gives this file whole twice, otherwise (reply lines {a}-{b} and {c}-{d}), and does not say which stands: neither is written; send the one that is meant"
            );
            refused.push((*i, why.clone()));
            refused.push((*j, why));
        }
    }
    for (i, reason) in refused {
        if let PlanItem::Edit { edit, .. } = &items[i] {
            items[i] = PlanItem::Refused { edit: edit.clone(), reason };
        }
    }
}

fn takes_back(reply: &[&str], after: usize, before: usize) -> bool {
    const WORDS: &[&str] = &[
        "instead",
        "corrected",
        "correct version",
        "scratch that",
        "disregard",
        "ignore the",
        "ignore that",
        "forget the",
        "replaces the",
        "rather than the",
    ];
    let prose = prose_between(reply, after, before);
    WORDS.iter().any(|w| prose.contains(w))
}

/// The reply's lines strictly between 1-based lines `after` and `before`, joined, lowercased:
/// what the prose between two blocks says.
fn prose_between(reply: &[&str], after: usize, before: usize) -> String {
    prose_as_written(reply, after, before).to_lowercase()
}

/// [`prose_between`] as the reply writes it (its case kept: a value or a path it names).
fn prose_as_written(reply: &[&str], after: usize, before: usize) -> String {
    let from = after.min(reply.len());
    let to = before.saturating_sub(1).clamp(from, reply.len());
    reply[from..to].join(" ")
}

/// Each item's reply lines (1-based, inclusive) when it is an edit still to be made.
/// Whether the last line of prose before the block starting at reply line `start` (1-based)
/// tells to create `path` as a new file ("Create `src/cache.rs`:", "Add a new file
/// `lib/x.py`:"), naming it in backticks.
fn announces_new_file(reply: &str, start: usize, path: &str) -> bool {
    let lines: Vec<&str> = reply.lines().collect();
    let before = (0..start.saturating_sub(1).min(lines.len())).rev().map(|i| lines[i].trim());
    let Some(line) = before.filter(|l| !l.is_empty()).find(|l| !l.starts_with("```")) else {
        return false;
    };
    let lower = line.to_lowercase();
    let says = ["create ", "add a new file", "new file", "create a new file", "add the new file"]
        .iter()
        .any(|w| lower.starts_with(w));
    let name = path.rsplit('/').next().unwrap_or(path);
    // One file named: "Create `a/__init__.py` (empty) and `a/b.py`:" leaves which one the
    // block is open.
    let named = line.split('`').skip(1).step_by(2).filter(|t| t.contains(['/', '.'])).count();
    says && named == 1
        && (line.contains(&format!("`{path}`")) || line.contains(&format!("`{name}`")))
}

/// The reply lines of every block, refused or not (`None`: a parser's problem).
fn block_spans(items: &[PlanItem]) -> Vec<Option<(usize, usize)>> {
    (items.iter())
        .map(|item| match item {
            PlanItem::Edit { edit, .. }
            | PlanItem::Refused { edit, .. }
            | PlanItem::Quote { edit, .. } => Some(edit.reply_lines),
            PlanItem::Problem(_) => None,
        })
        .collect()
}

fn edit_spans(items: &[PlanItem]) -> Vec<Option<(usize, usize)>> {
    (items.iter())
        .map(|item| match item {
            PlanItem::Edit { edit, .. } => Some(edit.reply_lines),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_block_the_reply_takes_back_is_refused_and_the_other_stands() {
        let files = files(&["app/a.py"]);
        let block = |old: &str, new: &str| {
            format!(
                "app/a.py\n```python\n<<<<<<< SEARCH\n{old}\n=======\n{new}\n>>>>>>> REPLACE\n```\n"
            )
        };
        let refused = |reply: &str| -> Vec<bool> {
            let plan = plan_reply(reply, FormatChoice::Auto, &files, &[]);
            (plan.items.iter()).map(|i| matches!(i, PlanItem::Refused { .. })).collect()
        };
        let (one, two) = (block("x = 1", "x = 2"), block("y = 1", "y = 2"));
        let reply =
            format!("First:\n\n{one}\nWait, don't apply that block. Use this one:\n\n{two}");
        assert_eq!(refused(&reply), [true, false]);
        let reply =
            format!("You might be tempted to change x:\n\n{one}\nbut the real fix is:\n\n{two}");
        assert_eq!(refused(&reply), [true, false]);
        // Two edits, prose that takes nothing back.
        let reply = format!("First:\n\n{one}\nThen apply this one too:\n\n{two}");
        assert_eq!(refused(&reply), [false, false]);
        // Taken back by what the sentence after it names; shown as what not to do.
        let reply = format!(
            "Set x:\n\n{one}\nand y:\n\n{two}\nHmm, leave `y` as it is: the tests pin it.\n"
        );
        assert_eq!(refused(&reply), [false, true]);
        let reply =
            format!("Set x:\n\n{one}\nand y:\n\n{two}\nPlease ignore the y change above.\n");
        assert_eq!(refused(&reply), [false, true]);
        let reply = format!("A common mistake is to bump x:\n\n{one}\nInstead:\n\n{two}");
        assert_eq!(refused(&reply), [true, false]);
        // The same old text in both: the second is the first's correction, and the words
        // before the first are not about the second (ux24 B1).
        let bad = block("x = 1", "x = 3");
        let good = block("x = 1", "x = 2");
        let reply = format!(
            "You might be tempted to round. Don't do this:\n\n{bad}\nInstead, use:\n\n{good}"
        );
        assert_eq!(refused(&reply), [true, false]);
        let reply = format!(
            "Set y:\n\n{two}\n<details>\n<summary>Or bump x instead (not recommended)</summary>\n\n{one}\n</details>\n"
        );
        assert_eq!(refused(&reply), [false, true]);
        // Offered as alternatives: neither is the reply's to choose.
        let reply = format!("**Option A**, on write:\n\n{one}\n**Option B**, on read:\n\n{two}");
        assert_eq!(refused(&reply), [true, true]);
        let reply = format!("In the proxy:\n\n{one}\nAlternatively, in the app:\n\n{two}");
        assert_eq!(refused(&reply), [true, true]);
        let reply = format!(
            "At write:\n\n{one}\nor at read:\n\n{two}\nEither works; just don't do both.\n"
        );
        assert_eq!(refused(&reply), [true, true]);
    }

    /// "Create `src/cache.rs`:" right before a block, among SEARCH/REPLACE blocks: a new file
    /// (it was refused as a block named only in prose, and the edits importing it written);
    /// a sentence naming two files leaves it refused.
    #[test]
    fn a_block_the_sentence_before_it_says_to_create_is_a_new_file() {
        let files = files(&["src/main.rs"]);
        let edit = "src/main.rs\n```rust\n<<<<<<< SEARCH\nfn main() {}\n=======\nmod cache;\nfn main() {}\n>>>>>>> REPLACE\n```\n";
        let reply = format!("Create `src/cache.rs`:\n\n```rust\npub struct Cache;\n```\n\n{edit}");
        let plan = plan_reply(&reply, FormatChoice::Auto, &files, &[]);
        let paths: Vec<&str> = plan.path_matches().into_iter().map(|(p, _)| p).collect();
        assert_eq!(paths, ["src/cache.rs", "src/main.rs"], "{:?}", plan.items);
        let two = reply.replace("Create `src/cache.rs`:", "Create `src/a.rs` and `src/cache.rs`:");
        let told = reply.replace("Create `src/cache.rs`:", "Your `src/cache.rs` could look like:");
        for other in [two, told] {
            let plan = plan_reply(&other, FormatChoice::Auto, &files, &[]);
            let paths: Vec<&str> = plan.path_matches().into_iter().map(|(p, _)| p).collect();
            assert_eq!(paths, ["src/main.rs"], "{other}\n{:?}", plan.items);
        }
    }

    /// A new file given twice, otherwise, with nothing saying which stands: neither; with a
    /// correction between them, the later one.
    #[test]
    fn a_file_listed_twice_otherwise_is_written_only_when_the_reply_says_which() {
        let files = files(&["app.py"]);
        let listing = |text: &str| format!("conf/log.yaml\n```yaml\n{text}\n```\n");
        let reply = format!(
            "Add the config:\n\n{}\nAnd the levels:\n\n{}",
            listing("level: info"),
            listing("level: debug")
        );
        let plan = plan_reply(&reply, FormatChoice::Auto, &files, &[]);
        assert!(
            plan.items.iter().all(|i| matches!(i, PlanItem::Refused { .. })),
            "{:?}",
            plan.items
        );
        let reply = format!(
            "Add the config:\n\n{}\nSorry, use this corrected version instead:\n\n{}",
            listing("level: info"),
            listing("level: debug")
        );
        let plan = plan_reply(&reply, FormatChoice::Auto, &files, &[]);
        assert!(plan.items.iter().all(|i| matches!(i, PlanItem::Edit { .. })), "{:?}", plan.items);
    }

    #[test]
    fn a_listing_that_quotes_the_file_before_editing_it_is_not_an_edit() {
        let files = files(&["app/views.py"]);
        let reply = "Let me check its content:\n\napp/view.py\n```python\ndef a():\n    return 1\n\ndef b():\n    return 2\n```\n\nNow the change:\n\napp/views.py\n```python\n<<<<<<< SEARCH\ndef b():\n    return 2\n=======\ndef b():\n    return 3\n>>>>>>> REPLACE\n```\n";
        let plan = plan_reply(reply, FormatChoice::Auto, &files, &[]);
        let kinds: Vec<&str> = plan.path_matches().into_iter().map(|(p, _)| p).collect();
        assert_eq!(kinds, ["app/views.py"], "only the real edit: {:?}", plan.items);
        // A new version of the file followed by a further edit keeps both.
        let reply = reply.replace("    return 2\n```", "    return 5\n```");
        let plan = plan_reply(&reply, FormatChoice::Auto, &files, &[]);
        assert_eq!(plan.path_matches().len(), 2);
    }

    /// A new module named only in prose, in a reply whose other edit imports it: not taken
    /// for a file among SEARCH/REPLACE blocks (it may be sample output, or a file outside the
    /// project), and not dropped without a word either. (A sentence that says to create it is
    /// another matter: `a_block_the_sentence_before_it_says_to_create_is_a_new_file`.)
    #[test]
    fn a_new_file_named_only_in_prose_among_hunks_is_refused_not_dropped() {
        let files = files(&["app/main.py"]);
        let reply = "Add `app/limits.py`:\n\n```python\nMAX = 5\n```\n\napp/main.py\n```python\n<<<<<<< SEARCH\nimport os\n=======\nimport os\nfrom app.limits import MAX\n>>>>>>> REPLACE\n```\n";
        let plan = plan_reply(reply, FormatChoice::Auto, &files, &[]);
        assert_eq!(plan.path_matches(), [("app/main.py", PathMatch::Exact)]);
        let refused: Vec<&str> = (plan.items.iter())
            .filter_map(|i| match i {
                PlanItem::Refused { reason, .. } => Some(reason.as_str()),
                _ => None,
            })
            .collect();
        assert!(
            matches!(refused.as_slice(), [r] if r.starts_with("app/limits.py: a block named only in prose")),
            "{refused:?}"
        );
    }
}
