//! Decisions on hunks: accepting (the hunks of a file accepted together in one write, those
//! accepted while it is on its way queued behind it),
//! selecting what arrives, and undo, of one decision or of a whole batch (`a`, `d`, `A`).
//!
//! Not for: where a hunk goes or what undo writes (`core::review`), keys (`keys`).

use std::collections::{HashMap, HashSet};

use super::*;
use crate::core::trigger::Trigger;

impl App {
    /// The editor closed on a hunk: a conflict resolved by hand, or a hunk's new text edited
    /// (accepted, as `y` does, then on to the next open hunk).
    pub(super) fn editor_done(
        &mut self,
        hunk: HunkId,
        result: Result<String, String>,
    ) -> Vec<AppEffect> {
        match result {
            Err(reason) => {
                self.notice = Some(format!("editor: {reason}"));
                Vec::new()
            }
            Ok(text) if self.review.hunk(hunk).is_some_and(|h| h.state.is_conflict()) => {
                self.resolve_conflict(hunk, &text)
            }
            // An empty save of a hunk with new lines would delete the lines it replaces (a whole
            // function): taken as a slip, not a decision.
            Ok(text)
                if text.trim().is_empty()
                    && self.review.hunk(hunk).is_some_and(|h| {
                        !h.state.is_conflict() && h.preview.new.iter().any(|l| !l.trim().is_empty())
                    }) =>
            {
                self.notice = Some(
                    "the edited text is empty: nothing is written (to remove those lines, edit the file itself; `n` rejects the hunk)".into(),
                );
                Vec::new()
            }
            Ok(text) if self.review.edit_new_text(hunk, &text) => {
                let effects = self.accept_id(hunk);
                self.advance_from(hunk);
                effects
            }
            Ok(_) => {
                self.notice = Some("the hunk can no longer be edited".into());
                Vec::new()
            }
        }
    }

    /// Hunks from index `before` on are new: note their round, select, and (watch mode with
    /// `--apply all`) accept them.
    pub(super) fn hunks_added(&mut self, before: usize) -> Vec<AppEffect> {
        let new: Vec<HunkId> = self.review.hunks()[before..].iter().map(|h| h.id).collect();
        for id in &new {
            self.hunk_round.insert(*id, self.round);
        }
        self.select_first_if_none();
        self.select_new_if_decided(before);
        self.auto_accept(&new)
    }

    /// When the selected hunk is decided and new hunks arrived, the first new one is the next
    /// thing to look at.
    pub(super) fn select_new_if_decided(&mut self, before: usize) {
        let decided = self.selected_hunk().is_none_or(|h| !h.state.is_open());
        if decided && self.filter.is_empty() && self.review.hunks().len() > before {
            self.select(Some(self.review.hunks()[before].id));
        }
    }

    pub(super) fn select_first_if_none(&mut self) {
        if self.selected.is_none() {
            self.select(self.order().first().map(|&i| self.review.hunks()[i].id));
        }
    }

    pub(super) fn open_ids(&self, pred: impl Fn(&ReviewHunk) -> bool) -> Vec<HunkId> {
        self.order()
            .into_iter()
            .map(|i| &self.review.hunks()[i])
            .filter(|h| h.state == HunkState::Pending && pred(h))
            .map(|h| h.id)
            .collect()
    }

    /// Accept one hunk, or queue it behind a write to the same file.
    pub(super) fn accept_id(&mut self, id: HunkId) -> Vec<AppEffect> {
        self.accept_ids(vec![id])
    }

    /// Accept hunks: those of a file with no write on its way are written together, one
    /// write per file; those of a file being written wait behind it.
    pub(super) fn accept_ids(&mut self, ids: Vec<HunkId>) -> Vec<AppEffect> {
        let mut files: Vec<(String, Vec<HunkId>)> = Vec::new();
        let mut file_of: HashMap<String, usize> = HashMap::new();
        for id in ids {
            let Some(h) = self.review.hunk(id) else { continue };
            if h.state.is_conflict() {
                let key = |a| self.keymap.first_key(a);
                self.notice = Some(format!(
                    "not applied: {} changed where this hunk applies; `{}` resolves it by hand, \
                     `{}` sends it back to the model, `{}` drops it",
                    h.path,
                    key(Action::Edit),
                    key(Action::Retry),
                    key(Action::Reject)
                ));
                continue;
            }
            if !matches!(h.state, HunkState::Pending | HunkState::Failed) {
                self.notice =
                    Some(format!("the hunk is {}; only an open hunk is accepted", h.state.name()));
                continue;
            }
            let at = *file_of.entry(h.path.clone()).or_insert_with(|| {
                files.push((h.path.clone(), Vec::new()));
                files.len() - 1
            });
            files[at].1.push(id);
        }
        let mut effects = Vec::new();
        for (path, ids) in files {
            if self.writes.busy(&path) {
                ids.into_iter().for_each(|id| self.writes.wait(&path, id));
                continue;
            }
            let triggers: HashMap<HunkId, Vec<Trigger>> =
                ids.iter().map(|&id| (id, self.triggers_answered_by(id))).collect();
            let tidy = |id: HunkId, text: &str| {
                triggers.get(&id).and_then(|t| watch::without_triggers(text, t))
            };
            // Only hunks that answer a watch trigger have text to tidy.
            let tidies = triggers.values().any(|t| !t.is_empty());
            let tidy: Option<&crate::core::review::Tidy<'_>> =
                if tidies { Some(&tidy) } else { None };
            match self.review.accept_together(&ids, tidy) {
                Some(effect) => {
                    self.writes.start(&path);
                    effects.push(AppEffect::Write { effect, undo: false });
                }
                None => self.say_not_written(&path, &ids),
            }
        }
        effects
    }

    /// Why accepting these hunks of `path` wrote nothing.
    fn say_not_written(&mut self, path: &str, ids: &[HunkId]) {
        let hunks: Vec<&ReviewHunk> = ids.iter().filter_map(|&id| self.review.hunk(id)).collect();
        if let Some(failed) = hunks.iter().rev().find(|h| h.state == HunkState::Failed) {
            let why = failed.report.reason.clone().unwrap_or_else(|| "no change".into());
            self.notice = Some(format!("cannot place the hunk in {path}: {why}"));
        } else if hunks.iter().any(|h| h.state == HunkState::Applied) {
            self.notice = Some(format!(
                "{path} already holds this hunk's new text: accepted, nothing written"
            ));
        }
    }

    /// Accept the hunks waiting for a write to `path`, together.
    pub(super) fn next_queued(&mut self, path: &str) -> Vec<AppEffect> {
        let waiting: Vec<HunkId> = std::iter::from_fn(|| self.writes.next(path)).collect();
        if waiting.is_empty() {
            return Vec::new();
        }
        self.accept_ids(waiting)
    }

    /// Undo the last decision, or, right after a batch (`a`, `d`, `A`), the whole batch.
    pub(super) fn undo(&mut self) -> Vec<AppEffect> {
        if self.writes.any_busy() {
            self.notice = Some("a write is on its way; undo after it".into());
            return Vec::new();
        }
        let batch = self.last_batch.take();
        if let Some(batch) = batch
            && self.review.last_decision().is_some_and(|id| batch.contains(&id))
        {
            self.undoing = Some(batch);
            self.undo_writes = 0;
            return self.undo_batch_step();
        }
        match self.review.undo() {
            Ok(Some(effect)) => self.undo_write(effect),
            Ok(None) => {
                // An accept that wrote nothing (the file held the hunk already): nothing to
                // take out of the file either, which the user must not believe happened.
                self.notice =
                    Some("undone; nothing was written for it, so nothing on disk changed".into());
                Vec::new()
            }
            Err(why) => {
                self.notice = Some(format!("cannot undo: {why}"));
                Vec::new()
            }
        }
    }

    /// Take back the batch's decisions from the last one on, until one needs a write (its
    /// `WriteDone` comes back here; the batch's hunks of a file written one after the other
    /// are taken back in one write) or none of the batch is left.
    pub(super) fn undo_batch_step(&mut self) -> Vec<AppEffect> {
        let Some(batch) = self.undoing.clone() else { return Vec::new() };
        let within: HashSet<HunkId> = batch.iter().copied().collect();
        while self.review.last_decision().is_some_and(|id| within.contains(&id)) {
            match self.review.undo_together(|id| within.contains(&id)) {
                Ok(Some(effect)) => return self.undo_write(effect),
                Ok(None) => {}
                Err(why) => {
                    // What is left of the batch is what the next `u` takes back.
                    self.last_batch = self.undoing.take();
                    self.notice = Some(format!("cannot undo the rest of the batch: {why}"));
                    return Vec::new();
                }
            }
        }
        self.undoing = None;
        self.notice = Some(if self.undo_writes == 0 {
            format!(
                "undone: the batch of {} hunk(s); nothing was written for them, so nothing on disk changed",
                batch.len()
            )
        } else {
            format!("undone: the batch of {} hunk(s)", batch.len())
        });
        Vec::new()
    }

    fn undo_write(&mut self, effect: Effect) -> Vec<AppEffect> {
        let path = match &effect {
            Effect::Write { path, .. } | Effect::Delete { path, .. } => path.clone(),
            Effect::Read { path } => path.clone(),
        };
        self.writes.start(&path);
        self.undo_writes += 1;
        vec![AppEffect::Write { effect, undo: true }]
    }

    /// A decision on several hunks at once (`a`, `d`, `A`): `u` right after it takes them all
    /// back.
    pub(super) fn batch(&mut self, ids: Vec<HunkId>, accept: bool) -> Vec<AppEffect> {
        self.last_batch = (!ids.is_empty()).then(|| ids.clone());
        if accept {
            return self.accept_ids(ids);
        }
        for id in ids {
            self.review.reject(id);
        }
        Vec::new()
    }

    /// Place the selected ambiguous hunk at the candidate the key's digit numbers. On any
    /// other hunk the key does nothing: digits mean nothing there.
    pub(super) fn pick(&mut self, key: &KeyEvent) {
        let Some(id) = self.selected else { return };
        let count = self.review.pickable(id).len();
        if count == 0 {
            return;
        }
        let n = match key.code {
            KeyCode::Char(c) => c.to_digit(10).map_or(0, |d| d as usize),
            _ => 0,
        };
        if !self.review.pick(id, n) {
            self.notice = Some(format!("pick a place from 1 to {count}"));
            return;
        }
        self.notice = Some(match self.review.hunk(id).map(|h| &h.state) {
            Some(HunkState::Pending) => format!(
                "placed at candidate {n} of {count}: review it, then accept (another digit moves it)"
            ),
            _ => format!("candidate {n} was refused; see why above"),
        });
    }

    pub(super) fn split(&mut self) {
        let Some(id) = self.selected else { return };
        let Some(idx) = self.review.hunks().iter().position(|h| h.id == id) else { return };
        if self.review.split(id) {
            self.select(Some(self.review.hunks()[idx].id));
        } else {
            self.notice = Some("only a pending hunk with several changes can be split".into());
        }
    }
}
