//! Conflicts: hunks whose file changed on disk so that their old text is no longer there. A
//! conflict is never applied as it is; it is shown three ways (what the model saw, what the file
//! holds now in its place, what the model proposes) and the user sends it back to the model,
//! resolves it by hand, or drops it.
//!
//! "In its place" is found by following the hunk's lines through the change: the diff between
//! the file before and after maps the lines where the hunk stood to the lines that replaced them.

use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::{Effect, HunkId, HunkState, Review, ReviewHunk, Wrote};
use crate::core::edit::Change;
use crate::core::execute::After;
use crate::core::file::Source;
use crate::core::prompt::FailedEdit;
use crate::core::text::{NewLine, TextFile};

/// The marker lines of a conflict document (what git writes, so editors highlight them).
const OURS: &str = "<<<<<<<";
const SPLIT: &str = "=======";
const THEIRS: &str = ">>>>>>>";

/// Why a hunk became a conflict, in a sentence for the user.
pub(super) fn why(path: &str, now: &Source, h: &ReviewHunk) -> String {
    match now {
        Source::Missing => format!(
            "{path} was deleted or renamed on disk; nothing is recreated: send the hunk back \
             to the model or drop it"
        ),
        Source::Unusable(reason) => {
            format!("{path} changed on disk and cannot be edited now: {reason}")
        }
        Source::Text(_) => {
            let detail = h.report.reason.as_deref().unwrap_or_default();
            let detail = detail.lines().next().unwrap_or_default();
            let detail = detail.strip_prefix(&format!("{path}: ")).unwrap_or(detail);
            format!("{path} changed on disk where this hunk applies: {detail}")
        }
    }
}

/// Maps line positions of one version of a text to the next.
pub(super) struct LineMap {
    ops: Vec<DiffOp>,
}

impl LineMap {
    pub(super) fn between(old: &str, new: &str) -> LineMap {
        let a: Vec<&str> = old.lines().collect();
        let b: Vec<&str> = new.lines().collect();
        LineMap { ops: capture_diff_slices(Algorithm::Myers, &a, &b) }
    }

    /// The lines of the new text standing where old lines `range` (0-based, end exclusive)
    /// stood: unchanged lines follow themselves; changed ones widen to what replaced them.
    pub(super) fn range(&self, (start, end): (usize, usize)) -> (usize, usize) {
        let s = self.map(start, false);
        let e = if end > start { self.map(end - 1, true) } else { s };
        (s, e.max(s))
    }

    /// Where old line `i` went: its start (`end == false`) or just past it.
    fn map(&self, i: usize, end: bool) -> usize {
        let mut last_new_end = 0;
        for op in &self.ops {
            let (o, n) = (op.old_range(), op.new_range());
            if o.contains(&i) {
                return match op {
                    DiffOp::Equal { .. } => n.start + (i - o.start) + usize::from(end),
                    _ if end => n.end,
                    _ => n.start,
                };
            }
            if o.start > i {
                return n.start;
            }
            last_new_end = n.end;
        }
        last_new_end
    }
}

/// Undo a write after the file changed: `before` became `after` by the hunk, and the file now
/// holds `now`. The lines the hunk wrote are found where they went; if they are all still there
/// unchanged (and, for a pure deletion, the lines around its place too), they give way to the
/// lines from before. Everything else in `now` is kept byte for byte.
pub(super) fn take_out(before: &str, after: &str, now: &str) -> Result<String, String> {
    let b = TextFile::parse(before);
    let a = TextFile::parse(after);
    // The lines the write changed: the same span the review's preview shows.
    let (b_lines, a_lines): (Vec<&str>, Vec<&str>) = (
        b.lines.iter().map(String::as_str).collect(),
        a.lines.iter().map(String::as_str).collect(),
    );
    let changed = super::preview(&b_lines, &a_lines);
    let (written, restored) = (changed.new, changed.old);
    let (prefix, past) = (changed.start, changed.start + written.len());
    let (start, end) = LineMap::between(after, now).range((prefix, past));
    let mut file = TextFile::parse(now);
    let here = file.lines.get(start..end).ok_or("its place is gone")?;
    let gone = || {
        "the lines it wrote were edited since; taking it out would undo that edit too, so it stays"
            .to_string()
    };
    if here != written {
        return Err(gone());
    }
    if written.is_empty() {
        // A pure deletion: its neighbours in `after` must still be its neighbours now.
        let above = prefix.checked_sub(1).map(|i| &a.lines[i]);
        let below = a.lines.get(past);
        let now_above = start.checked_sub(1).map(|i| &file.lines[i]);
        if above != now_above || below != file.lines.get(start) {
            return Err(gone());
        }
    }
    file.splice(start, end, restored.into_iter().map(NewLine::added).collect());
    Ok(file.render())
}

/// A conflict shown three ways.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConflictView {
    /// What the model saw and meant to change.
    pub saw: Vec<String>,
    /// What the file holds in its place now: the first line (1-based) and the lines; `None`
    /// when the file is gone or unreadable.
    pub now: Option<(usize, Vec<String>)>,
    /// What the model proposes.
    pub proposed: Vec<String>,
}

impl Review {
    /// The three sides of a conflict (`None` unless the hunk is one).
    pub fn conflict_view(&self, id: HunkId) -> Option<ConflictView> {
        let h = self.hunk(id).filter(|h| h.state.is_conflict())?;
        let lines = |t: &str| t.lines().map(String::from).collect::<Vec<_>>();
        // Drawn every frame while selected: only the lines shown are copied out of the file.
        let current = match self.files.get(&h.path) {
            Some(Source::Text(t)) => Some(t.strip_prefix('\u{feff}').unwrap_or(t)),
            _ => None,
        };
        let (saw, proposed, whole) = match &h.edit.change {
            Change::Modify { hunk } => {
                (hunk.old_lines().map(String::from).collect(), lines(&hunk.new_text()), false)
            }
            Change::Create { content } => (Vec::new(), lines(content), true),
            Change::Replace { content } => (Vec::new(), lines(content), true),
            Change::Delete { .. } => (Vec::new(), Vec::new(), true),
        };
        let now = current.map(|file| match (whole, h.region) {
            (false, Some((s, e))) => {
                (s + 1, file.lines().skip(s).take(e.saturating_sub(s)).map(String::from).collect())
            }
            (false, None) => (1, Vec::new()),
            (true, _) => (1, lines(file)),
        });
        Some(ConflictView { saw, now, proposed })
    }

    /// [`Review::conflict_view`] for resolving by hand: a whole-file listing with placeholders
    /// (`# ... existing code ...`) proposes what it means, the listing merged with the file as
    /// it is now, when that merge is sound; the raw listing would have the user keep its
    /// placeholder as code and lose what it stood for.
    pub fn conflict_edit_view(&self, id: HunkId) -> Option<ConflictView> {
        let mut view = self.conflict_view(id)?;
        let h = self.hunk(id)?;
        if let (Change::Replace { content }, Some(now @ Source::Text(_))) =
            (&h.edit.change, self.files.get(&h.path))
            && content.lines().any(crate::core::elision::is_placeholder)
            && let (_, Some(After::Text(merged))) =
                crate::core::execute::apply_single(&h.edit, &h.path, now)
        {
            view.proposed = merged.lines().map(String::from).collect();
        }
        Some(view)
    }

    /// The failed-edit report that sends a conflict back to the model with the file's current
    /// text in the hunk's place.
    pub fn conflict_failed_edit(&self, id: HunkId) -> Option<FailedEdit> {
        let h = self.hunk(id)?;
        let HunkState::Conflict(why) = &h.state else { return None };
        let view = self.conflict_view(id)?;
        let (a, b) = h.edit.reply_lines;
        let searched = view.saw.iter().map(|l| format!("{l}\n")).collect::<String>();
        let closest = view.now.map(|(first, lines)| {
            let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
            let ratio = similar::TextDiff::from_lines(&searched, &text).ratio() as f64;
            (first, text, ratio)
        });
        let first = why.strip_prefix(&format!("{}: ", h.path)).unwrap_or(why);
        Some(FailedEdit {
            path: h.path.clone(),
            reason: format!(
                "the file changed on disk after you wrote this edit ({first}) (lines {a}-{b} of your reply)"
            ),
            searched,
            closest,
        })
    }

    /// Resolve a conflict by hand: `text` (from [`conflict_document`], edited, its markers
    /// gone) takes the place of the lines that stand where the hunk was. Returns the write;
    /// `Err` says why nothing is written.
    pub fn resolve_conflict(&mut self, id: HunkId, text: &str) -> Result<Effect, String> {
        let view = self.conflict_view(id).ok_or("the hunk is no longer a conflict")?;
        if text.lines().any(|l| [OURS, SPLIT, THEIRS].iter().any(|m| l.starts_with(m))) {
            return Err("the text still has conflict markers (<<<<<<<, =======, >>>>>>>); \
                        nothing was written"
                .into());
        }
        let idx = self.hunks.position(id).ok_or("the hunk is gone")?;
        let path = self.hunks[idx].path.clone();
        // A listing's placeholder kept as text would be written as code, and what it stood
        // for lost (the user kept the model's side of an unmerged listing).
        if let Change::Replace { content } = &self.hunks[idx].edit.change {
            let on_disk = match self.files.get(&path) {
                Some(Source::Text(t)) => t.as_str(),
                _ => "",
            };
            let kept = text.lines().find(|l| {
                crate::core::elision::is_placeholder(l)
                    && content.lines().any(|c| c == *l)
                    && !on_disk.lines().any(|f| f == *l)
            });
            if let Some(kept) = kept {
                return Err(format!(
                    "the text still holds the listing's placeholder {:?}, which stands for code the file has: write that code out or take the line away; nothing was written",
                    kept.trim()
                ));
            }
        }
        let (before, after) = match (self.files.get(&path).cloned(), view.now) {
            (Some(Source::Text(before)), Some((first, now))) => {
                let mut file = TextFile::parse(&before);
                let start = first - 1;
                let end = (start + now.len()).min(file.lines.len());
                file.splice(start, end, text.lines().map(NewLine::added).collect());
                let after = file.render();
                (Source::Text(before), after)
            }
            // The file is gone: what the user kept is the file, written where it was (only
            // while it is still missing).
            (Some(Source::Missing), _) => {
                (Source::Missing, text.lines().map(|l| format!("{l}\n")).collect())
            }
            (Some(Source::Text(_)), None) => {
                return Err(format!("{path} cannot be read; nothing was written"));
            }
            _ => {
                return Err(format!(
                    "{path} cannot be read; send the hunk back to the model or drop it"
                ));
            }
        };
        let h = self.hunks.get_mut(idx);
        let before_state = std::mem::replace(&mut h.state, HunkState::Accepted);
        let wrote = Wrote::Whole(before.clone(), After::Text(after.clone()));
        self.record(id, before_state, Some(wrote));
        let expected = match before {
            Source::Text(t) => Some(t),
            _ => None,
        };
        Ok(Effect::Write { hunk: id, path, expected, text: after })
    }
}

/// The text a conflict is resolved in: what the file holds in the hunk's place and what the
/// model proposes, between git's conflict markers.
pub fn conflict_document(view: &ConflictView, path: &str) -> String {
    let mut out = String::new();
    match view.now.clone() {
        Some((first, now)) => {
            let last = first + now.len().max(1) - 1;
            out.push_str(&format!("{OURS} on disk now: {path} lines {first}-{last}\n"));
            for l in &now {
                out.push_str(l);
                out.push('\n');
            }
        }
        None => out.push_str(&format!(
            "{OURS} on disk now: {path} is gone from disk (what you keep is written as the whole file)\n"
        )),
    }
    out.push_str(SPLIT);
    out.push('\n');
    for l in &view.proposed {
        out.push_str(l);
        out.push('\n');
    }
    out.push_str(&format!(
        "{THEIRS} proposed by the model (keep what you want, delete the marker lines, save)\n"
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_map_follows_unchanged_lines_and_widens_over_changed_ones() {
        let old = "a\nb\nc\nd\ne\n";
        let new = "new\na\nb\nC\nd\ne\n";
        let map = LineMap::between(old, new);
        assert_eq!(map.range((0, 2)), (1, 3), "a, b moved down one");
        assert_eq!(map.range((2, 3)), (3, 4), "c was replaced by C");
        assert_eq!(map.range((1, 4)), (2, 5));
        assert_eq!(map.range((3, 5)), (4, 6));
        let gone = LineMap::between(old, "a\ne\n");
        assert_eq!(gone.range((1, 4)), (1, 1), "deleted lines leave an empty place");
    }

    #[test]
    fn taking_a_hunk_out_keeps_what_others_wrote_since() {
        let before = "a\nb\nc\nd\n";
        let after = "a\nB1\nB2\nc\nd\n";
        // Lines added above and below: the hunk's lines come out, theirs stay.
        let now = "top\na\nB1\nB2\nc\nd\nend\n";
        assert_eq!(take_out(before, after, now).unwrap(), "top\na\nb\nc\nd\nend\n");
        // One of the lines it wrote was edited: it stays, with a reason.
        let edited = "a\nB1\nB2 changed\nc\nd\n";
        assert!(take_out(before, after, edited).unwrap_err().contains("edited since"));
        // A deletion comes back between its neighbours, unless they were changed.
        let deleted = "a\nc\nd\n";
        assert_eq!(take_out(before, deleted, "x\na\nc\nd\n").unwrap(), "x\na\nb\nc\nd\n");
        assert!(take_out(before, deleted, "a\nnew\nc\nd\n").is_err());
        // CRLF files keep their endings.
        let crlf = take_out("a\r\nb\r\n", "a\r\nB\r\n", "z\r\na\r\nB\r\n").unwrap();
        assert_eq!(crlf, "z\r\na\r\nb\r\n");
    }
}
