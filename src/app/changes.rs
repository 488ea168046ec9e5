//! Files that change under the review: the outcome of its own writes, what the watcher reports,
//! writes that find the file changed just before them, and conflicts resolved by hand.

use super::*;

impl App {
    /// A write (or its undo) was made.
    pub(super) fn write_done(&mut self, path: &str, after: After, undo: bool) -> Vec<AppEffect> {
        self.writes.settled(path);
        if undo {
            self.review.undo_done(path, after);
            self.notice = Some(format!("undone: {path} restored"));
        } else {
            self.review.write_done(path, after);
        }
        self.writes.end(path);
        let mut effects = self.next_queued(path);
        if undo && self.undoing.is_some() {
            effects.extend(self.undo_batch_step());
        }
        effects
    }

    /// A write could not be made: the hunk is back with the reason.
    pub(super) fn write_failed(
        &mut self,
        hunk: HunkId,
        path: &str,
        reason: &str,
        undo: bool,
    ) -> Vec<AppEffect> {
        // A batch undo stops at the first write it cannot make; the next `u` goes on with it.
        if let Some(batch) = self.undoing.take() {
            self.last_batch = Some(batch);
        }
        if undo {
            self.review.undo_not_written();
        } else {
            self.review.write_failed(hunk, reason);
        }
        self.writes.end(path);
        self.notice = Some(format!("could not write {path}: {reason}"));
        self.next_queued(path)
    }

    /// A write found the file changed: place its hunks again in what the file holds now and
    /// try once more (the user's decision stands), or stop at a conflict. A file that keeps
    /// changing under every try is left to settle.
    pub(super) fn write_stale(
        &mut self,
        hunk: HunkId,
        path: &str,
        source: Source,
        undo: bool,
    ) -> Vec<AppEffect> {
        if self.review.writes_just(path, &source, undo) {
            // The file holds just what this write writes: it was made already (it landed
            // before a kill and the resumed session carried it out again). Taken as done, so
            // the decisions keep what they wrote and undo can take them back.
            let after = match source {
                Source::Text(text) => After::Text(text),
                _ => After::Deleted,
            };
            return self.write_done(path, after, undo);
        }
        self.writes.end(path);
        let mut again = Vec::new();
        if undo {
            // Tried again below on what the file holds now: the same decision, not the one
            // before it.
            self.review.undo_not_written();
        } else {
            again =
                self.review.write_failed(hunk, "the file changed on disk just before the write");
        }
        self.file_changed(path, source);
        if self.writes.stale(path) == Stale::GiveUp {
            if let Some(batch) = self.undoing.take().filter(|_| undo) {
                self.last_batch = Some(batch);
            }
            self.notice = Some(format!(
                "{path} keeps changing on disk; nothing was written, decide again when it settles"
            ));
            return self.next_queued(path);
        }
        if undo {
            // The same decisions again, on what the file holds now (a batch's as a batch).
            return match self.undoing.is_some() {
                true => self.undo_batch_step(),
                false => self.undo(),
            };
        }
        let state = |app: &App, id: HunkId| app.review.hunk(id).map(|h| h.state.clone());
        let conflicts =
            again.iter().filter(|&&id| state(self, id).is_some_and(|s| s.is_conflict())).count();
        // Those that still fit go with the hunks waiting behind them (one with nothing left to
        // write, its text on disk already, is accepted without a write).
        let mut ids: Vec<HunkId> =
            again.into_iter().filter(|&id| state(self, id) == Some(HunkState::Pending)).collect();
        ids.extend(std::iter::from_fn(|| self.writes.next(path)));
        let effects = self.accept_ids(ids);
        if effects.is_empty() {
            self.writes.settled(path);
        }
        if conflicts > 0 {
            self.notice = Some(format!(
                "{path} changed on disk just before the write and {conflicts} hunk(s) no longer \
                 fit: nothing was written of them; they are conflicts now"
            ));
        }
        effects
    }

    /// Whether a change on disk to this file matters to the review.
    pub fn follows(&self, path: &str) -> bool {
        self.watch.is_some() || self.review.source(path).is_some()
    }

    /// Whether the review holds just this for `path` (a file it does not hold: that it is
    /// missing).
    pub(super) fn holds(&self, path: &str, source: &Source) -> bool {
        match self.review.source(path) {
            Some(held) => held == source,
            None => *source == Source::Missing,
        }
    }

    /// Place the file's open hunks again in what it holds now; say how many no longer fit.
    pub(super) fn file_changed(&mut self, path: &str, source: Source) {
        if self.review.source(path).is_none_or(|known| *known == source) {
            // Our own write coming back through the watcher, or a save that changed nothing.
            return;
        }
        let conflicts = |app: &App| app.review.counts().conflict;
        let before = conflicts(self);
        let what =
            if source == Source::Missing { "was deleted or moved" } else { "changed on disk" };
        self.review.file_changed(path, source);
        let new = conflicts(self).saturating_sub(before);
        self.notice = Some(if new > 0 {
            format!("{path} {what}: {new} hunk(s) no longer fit and are conflicts")
        } else {
            format!("{path} changed on disk; its pending hunks were placed again")
        });
    }

    /// Write the user's resolution of a conflict (the text saved in the editor).
    pub(super) fn resolve_conflict(&mut self, id: HunkId, text: &str) -> Vec<AppEffect> {
        let Some(path) = self.review.hunk(id).map(|h| h.path.clone()) else { return Vec::new() };
        if self.writes.busy(&path) {
            self.notice = Some(format!("a write to {path} is on its way; resolve again after it"));
            return Vec::new();
        }
        match self.review.resolve_conflict(id, text) {
            Ok(effect) => {
                self.writes.start(&path);
                vec![AppEffect::Write { effect, undo: false }]
            }
            Err(why) => {
                self.notice = Some(format!("conflict not resolved: {why}"));
                Vec::new()
            }
        }
    }
}
