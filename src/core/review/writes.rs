//! Writes and what is on disk: the shell's answers to a hunk's write or an undo, undo itself,
//! and following applied hunks through later changes of their file, so what the diff pane
//! shows of an applied hunk is always where its lines are now.
//!
//! An applied hunk whose written lines are no longer in the file while the lines they replaced
//! are back (`git checkout` took it out, an undo in the editor) is pending again, marked
//! [`DiskNote::Reverted`], placed against the file as it is now; its decision leaves the undo
//! history (there is nothing of it left to undo) until its lines come back (`git stash pop`),
//! when it stands again in its place in the order. One whose lines were edited into something
//! else stays applied, marked [`DiskNote::Edited`] (undo refuses to take someone's edit out).
//!
//! Not for: placing open hunks (`review`), conflicts (`conflict`).

use crate::core::hash::HashSet;

use super::conflict::{self, LineMap};
use super::{DiskNote, Effect, HunkId, HunkState, Preview, Review};
use crate::core::execute::After;
use crate::core::file::Source;

impl Review {
    /// The shell wrote what [`Review::accept_together`] asked for. Each hunk of the write is
    /// applied; its preview becomes what was written (a conflict resolved by hand, a tidied
    /// trigger comment: not the model's text), where the hunks written after it in the same
    /// write moved it; the other applied hunks of the file follow their lines to where they
    /// are now.
    pub fn write_done(&mut self, path: &str, after: After) {
        let together = self.being_written(path);
        let before = self.set_file(path, &after);
        let mut previews: Vec<(HunkId, Preview)> = together
            .iter()
            .filter_map(|&i| {
                let d = &self.decisions[i];
                Some((d.hunk, d.written.as_ref()?.preview()))
            })
            .collect();
        let lines: Vec<&str> = match self.files.get(path) {
            Some(Source::Text(t)) => t.lines().collect(),
            _ => Vec::new(),
        };
        for i in 0..previews.len() {
            let (head, tail) = previews.split_at_mut(i + 1);
            let p = &mut head[i].1;
            // Where the steps after this one moved its lines: a step wholly above them shifts
            // them by what it added or removed.
            let mut at = p.start;
            for (_, later) in tail.iter() {
                if later.start + later.old.len() <= at {
                    at = (at + later.new.len()).saturating_sub(later.old.len());
                }
            }
            if let Written::At(found) = written_at(&lines, at, &p.old, &p.new) {
                at = found;
            }
            p.start = at;
        }
        for (id, preview) in previews {
            if let Some(idx) = self.hunks.position(id)
                && self.hunks[idx].state == HunkState::Accepted
            {
                let h = self.hunks.get_mut(idx);
                h.state = HunkState::Applied;
                h.disk = None;
                h.preview = preview;
            }
        }
        let written: Vec<HunkId> = together.iter().map(|&i| self.decisions[i].hunk).collect();
        self.follow_applied(path, &before, &written);
        self.follow_picks(path, &before);
        self.replace_pending(path);
    }

    /// The write failed (the file changed on disk, the disk is full): the hunks it was writing
    /// go back to where they were, with the reason; which they were, in the order accepted.
    pub fn write_failed(&mut self, id: HunkId, reason: &str) -> Vec<HunkId> {
        let Some(path) = self.hunk(id).map(|h| h.path.clone()) else { return Vec::new() };
        let together = self.being_written(&path);
        let mut ids = Vec::with_capacity(together.len());
        // From the last on, so the indices of the ones before stay valid.
        for &i in together.iter().rev() {
            let d = self.decisions.remove(i);
            if let Some(h) = self.hunks.find_mut(d.hunk) {
                h.state = d.before_state;
                h.report.reason = Some(reason.to_string());
            }
            ids.push(d.hunk);
        }
        ids.reverse();
        ids
    }

    /// The hunk the last decision was on: the one [`Review::undo`] takes back next.
    pub fn last_decision(&self) -> Option<HunkId> {
        self.decisions.last().map(|d| d.hunk)
    }

    /// Undo the last decision. A rejected hunk is pending again; an applied one is taken out of
    /// its file: by restoring the text from before it when the file is unchanged since, else by
    /// reversing the hunk by content. `Err` says why it cannot be undone.
    pub fn undo(&mut self) -> Result<Option<Effect>, String> {
        self.undo_together(|_| false)
    }

    /// [`Review::undo`], taking back with an applied hunk the decisions before it that `with`
    /// names and that wrote its file one after the other, nothing else changing it between
    /// them: one write restores the file from before the first of them (`u` after `A` writes
    /// each file once).
    pub fn undo_together(
        &mut self,
        with: impl Fn(HunkId) -> bool,
    ) -> Result<Option<Effect>, String> {
        let Some(d) = self.decisions.last().cloned() else {
            return Err(if self.taken_out.is_empty() {
                "there is no decision to undo".into()
            } else {
                // Something on disk took the lines out (`git stash`, `git checkout`, an editor):
                // their decisions come back with them.
                "the lines of the hunks decided last are no longer in their files on disk (changed since by hand or by another program); nothing is left to undo until they are back".into()
            });
        };
        let idx = self.hunks.position(d.hunk).ok_or("the hunk is gone")?;
        let Some(written) = d.written.as_ref() else {
            self.decisions.pop();
            self.hunks.get_mut(idx).state = d.before_state;
            return Ok(None);
        };
        if self.hunks[idx].state == HunkState::Accepted {
            return Err("its write has not finished yet".into());
        }
        let path = self.hunks[idx].path.clone();
        let now = self.files.get(&path).cloned().unwrap_or(Source::Missing);
        let after = written.after();
        let unchanged = after.is(&now);
        let mut first = self.decisions.len() - 1;
        if unchanged {
            while first > 0 && self.written_just_before(first, &path, &with) {
                first -= 1;
            }
        }
        let before = match self.decisions[first].written.as_ref() {
            Some(w) if first < self.decisions.len() - 1 => w.before(),
            _ => written.before(),
        };
        let restore = if unchanged {
            match before {
                Source::Text(t) => After::Text(t),
                Source::Missing => After::Deleted,
                Source::Unusable(why) => return Err(why),
            }
        } else {
            // Someone changed the file since: take out exactly the lines this hunk wrote,
            // where they are now, or refuse.
            match (&before, &after, &now) {
                (Source::Text(b), After::Text(a), Source::Text(n)) => {
                    After::Text(conflict::take_out(b, a, n)?)
                }
                (Source::Missing, _, Source::Text(_)) => {
                    return Err(
                        "the file it created was edited since; nothing is deleted (remove \
                                it yourself if you want it gone)"
                            .into(),
                    );
                }
                (_, After::Deleted, _) => {
                    return Err(
                        "the file it deleted was created again since; it is left as it is".into()
                    );
                }
                (_, _, Source::Missing) => {
                    return Err(
                        "the file was deleted or renamed since; nothing is recreated".into()
                    );
                }
                _ => return Err("the file cannot be read now".into()),
            }
        };
        for d in self.decisions.split_off(first) {
            let was = match self.hunks.find_mut(d.hunk) {
                Some(h) => std::mem::replace(&mut h.state, d.before_state.clone()),
                None => d.before_state.clone(),
            };
            self.undoing.push((d, was));
        }
        let expected = match &now {
            Source::Text(t) => Some(t.clone()),
            _ => None,
        };
        let id = d.hunk;
        Ok(Some(match restore {
            After::Text(text) => Effect::Write { hunk: id, path, expected, text },
            After::Deleted => {
                Effect::Delete { hunk: id, path, expected: expected.unwrap_or_default() }
            }
        }))
    }

    /// Whether the decision before `at` is one `with` names that applied a hunk of `path`,
    /// and the file went straight from what it wrote to what the decision at `at` found.
    fn written_just_before(&self, at: usize, path: &str, with: &impl Fn(HunkId) -> bool) -> bool {
        let (prev, cur) = (&self.decisions[at - 1], &self.decisions[at]);
        let (Some(wrote), Some(found)) = (&prev.written, &cur.written) else {
            return false;
        };
        let applied =
            self.hunk(prev.hunk).is_some_and(|h| h.path == path && h.state == HunkState::Applied);
        let straight = wrote.followed_by(found);
        with(prev.hunk) && applied && straight
    }

    /// The shell carried out an undo's write.
    pub fn undo_done(&mut self, path: &str, after: After) {
        self.undoing.clear();
        let before = self.set_file(path, &after);
        self.follow_applied(path, &before, &[]);
        self.follow_picks(path, &before);
        self.replace_pending(path);
    }

    /// An undo's write was not made (the disk refused it, or the file changed just before):
    /// its hunks are as they were, their text still in the file, and their decisions are the
    /// last again, so the next undo takes back these and not the one before them.
    pub fn undo_not_written(&mut self) {
        for (d, was) in std::mem::take(&mut self.undoing) {
            if let Some(h) = self.hunks.find_mut(d.hunk) {
                h.state = was;
            }
            self.decisions.push(d);
        }
    }

    /// Store a file's text after a write; what it held before.
    fn set_file(&mut self, path: &str, after: &After) -> Source {
        self.store_file(path, after.source()).unwrap_or(Source::Missing)
    }

    /// The file changed from `before` to what the review holds now: each applied hunk of it
    /// (but those in `except`) finds its written lines again, where the change moved them or,
    /// failing that, the nearest place that holds them; one whose lines are gone is pending
    /// again.
    pub(super) fn follow_applied(&mut self, path: &str, before: &Source, except: &[HunkId]) {
        let except: HashSet<HunkId> = except.iter().copied().collect();
        let text = |s: Option<&Source>| match s {
            Some(Source::Text(t)) => Some(t.clone()),
            _ => None,
        };
        let now = text(self.files.get(path));
        let old = text(Some(before)).unwrap_or_default();
        let lines: Vec<&str> = now.as_deref().map_or_else(Vec::new, |t| t.lines().collect());
        let mut map: Option<LineMap> = None;
        let mut reverted = Vec::new();
        let applied: Vec<usize> = (self.hunks.indices_of(path).iter().copied())
            .filter(|&i| {
                self.hunks[i].state == HunkState::Applied && !except.contains(&self.hunks[i].id)
            })
            .collect();
        for idx in applied {
            let h = self.hunks.get_mut(idx);
            let p = &h.preview;
            if p.deletes {
                if now.is_some() {
                    reverted.push(h.id);
                }
                continue;
            }
            if p.old.is_empty() && p.new.is_empty() {
                continue;
            }
            let map = map
                .get_or_insert_with(|| LineMap::between(&old, now.as_deref().unwrap_or_default()));
            let (moved, _) = map.range((p.start, p.start + p.new.len()));
            match written_at(&lines, moved, &p.old, &p.new) {
                Written::At(start) => {
                    h.preview.start = start;
                    h.disk = None;
                }
                Written::Reverted => reverted.push(h.id),
                Written::Edited => {
                    // Where its lines went, for showing what stands there now.
                    h.preview.start = moved;
                    h.disk = Some(DiskNote::Edited);
                }
            }
        }
        for id in reverted {
            self.reverted(id);
        }
    }

    /// An applied hunk's lines are gone from its file: it is pending again.
    fn reverted(&mut self, id: HunkId) {
        if let Some(pos) = self.decisions.iter().rposition(|d| d.hunk == id && d.written.is_some())
        {
            let d = self.decisions.remove(pos);
            self.taken_out.push(d);
        }
        if let Some(h) = self.hunks.find_mut(id) {
            h.state = HunkState::Pending;
            h.disk = Some(DiskNote::Reverted);
            h.anchor = None;
        }
    }
}

/// Where an applied hunk's lines are in its file now.
#[derive(Debug, PartialEq, Eq)]
enum Written {
    /// They start at this line.
    At(usize),
    /// They are gone and the lines they replaced are back: the hunk was taken out.
    Reverted,
    /// They are gone and what they replaced is not back: someone edited them.
    Edited,
}

/// Where the lines `new` (written in place of `old`) stand in `lines`: at `hint` if they are
/// there, else at the nearest place that holds them. A pure deletion is taken out when its old
/// lines are back at its place.
fn written_at(lines: &[&str], hint: usize, old: &[String], new: &[String]) -> Written {
    let at = |s: usize, want: &[String]| {
        lines.get(s..s + want.len()).is_some_and(|here| here.iter().zip(want).all(|(a, b)| a == b))
    };
    let nearest = |want: &[String]| {
        (0..(lines.len() + 1).saturating_sub(want.len()))
            .filter(|&s| at(s, want))
            .min_by_key(|&s| s.abs_diff(hint))
    };
    if new.is_empty() {
        return if !old.is_empty() && at(hint, old) {
            Written::Reverted
        } else {
            Written::At(hint.min(lines.len()))
        };
    }
    if at(hint, new) {
        return Written::At(hint);
    }
    match nearest(new) {
        Some(s) => Written::At(s),
        // An insertion replaced nothing that could be back: it was taken out only when none of
        // its telling lines is left where it went (one line of it edited is an edit: were it
        // pending again, accepting it would write the block a second time).
        None if old.is_empty() => {
            let near = &lines[hint.saturating_sub(new.len()).min(lines.len())
                ..(hint + 2 * new.len()).min(lines.len())];
            let telling =
                |l: &&String| l.trim().len() >= 4 && !crate::core::indent::is_closer(l.trim());
            if new.iter().filter(telling).any(|l| near.contains(&l.as_str())) {
                Written::Edited
            } else {
                Written::Reverted
            }
        }
        None if nearest(old).is_some() => Written::Reverted,
        None => Written::Edited,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn written_lines_are_found_where_they_went() {
        let file = ["a", "X", "Y", "b", "X", "Y"];
        let at = |hint, old: &[&str], new: &[&str]| written_at(&file, hint, &v(old), &v(new));
        assert_eq!(at(1, &["x"], &["X", "Y"]), Written::At(1));
        assert_eq!(at(3, &["x"], &["X", "Y"]), Written::At(4), "the nearest");
        assert_eq!(at(1, &["b"], &["Z"]), Written::Reverted, "gone, and what it replaced is back");
        assert_eq!(at(1, &["q"], &["Z"]), Written::Edited, "gone, and nothing is back");
        // A deletion: taken out when its old lines are back.
        assert_eq!(at(1, &["X"], &[]), Written::Reverted);
        assert_eq!(at(1, &["q"], &[]), Written::At(1));
    }

    #[test]
    fn an_insertion_with_one_line_edited_is_edited_not_taken_out() {
        let inserted = ["    if not rows:", "        return 0"];
        let file = ["def total(rows):", "    if not rows:", "        return None", "    return 1"];
        let at = |file: &[&str]| written_at(file, 1, &[], &v(&inserted));
        assert_eq!(at(&file), Written::Edited, "its guard is still there");
        let file = ["def total(rows):", "    return 1"];
        assert_eq!(at(&file), Written::Reverted, "none of it is left");
        let file = ["def total(rows):", "    }", "    return 1"];
        let closer = written_at(&file, 1, &[], &v(&["    }", "    x = 1"]));
        assert_eq!(closer, Written::Reverted, "a closer left tells nothing");
    }
}
