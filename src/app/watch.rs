//! Watch mode (`redline watch`): saved files are scanned for `AI!` / `AI?` comments
//! (`core::trigger`); each new one starts a request with that file, or waits in a queue while
//! another request runs. The edits that come back enter the same review; the trigger comment is
//! taken out of the file in the same write as the first accepted edit that answers it. With
//! `--apply all` every answering edit is accepted as it arrives.
//!
//! Triggers saved while a git operation runs (checkout, rebase, merge) start nothing: those
//! files were written by git, not by someone asking.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::time::Instant;

use super::{App, AppEffect};
use crate::core::edit::Format;
use crate::core::file::Source;
use crate::core::review::HunkId;
use crate::core::session::Why;
use crate::core::trigger::{self, Kind, Request, TriggerId};
use crate::provider::ChatMessage;

/// Watch mode's state inside the app.
#[derive(Debug, Clone)]
pub struct WatchMode {
    /// The edit format requests ask for.
    pub format: Format,
    /// Accept every edit that answers a trigger as it arrives.
    pub apply_all: bool,
    /// Requests waiting for the running one to end, with the file's text when saved.
    queue: VecDeque<(Request, String)>,
    /// Triggers already asked about, while they stay in their file.
    handled: BTreeSet<TriggerId>,
    /// The request each stream round answers.
    answering: HashMap<usize, Request>,
}

impl WatchMode {
    pub fn new(format: Format, apply_all: bool) -> WatchMode {
        WatchMode {
            format,
            apply_all,
            queue: VecDeque::new(),
            handled: BTreeSet::new(),
            answering: HashMap::new(),
        }
    }

    /// Requests waiting their turn.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// The request stream round `round` answers.
    pub(super) fn answering(&self, round: usize) -> Option<&Request> {
        self.answering.get(&round)
    }
}

impl App {
    /// A file was saved: queue the requests its new trigger comments make, and start one if
    /// nothing is running.
    pub(super) fn triggers_saved(
        &mut self,
        path: &str,
        source: &Source,
        now: Instant,
    ) -> Vec<AppEffect> {
        let busy = self.git_busy;
        let Some(watch) = self.watch.as_mut() else { return Vec::new() };
        let Source::Text(text) = source else { return Vec::new() };
        let requests = trigger::saved(path, text, &mut watch.handled);
        // Requests of this file still waiting go out with the file as it is now; one whose
        // comment left it (edited into a new one, or deleted) asks nothing any more.
        let present: std::collections::BTreeSet<_> =
            trigger::present(path, text).into_iter().collect();
        watch
            .queue
            .retain(|(r, _)| r.path != path || r.ids().iter().all(|id| present.contains(id)));
        for (_, queued) in watch.queue.iter_mut().filter(|(r, _)| r.path == path) {
            queued.clone_from(text);
        }
        if busy {
            return Vec::new();
        }
        let n = requests.len();
        watch.queue.extend(requests.into_iter().map(|r| (r, text.clone())));
        if n > 0 && self.streaming {
            self.notice = Some(format!(
                "{path}: {n} request(s) queued until the model is done ({} waiting)",
                watch.queue.len()
            ));
        }
        self.next_trigger(now)
    }

    /// The project as it was when watching started: its trigger comments are not new.
    pub(super) fn watch_ready(&mut self, files: usize, triggers: Vec<TriggerId>) {
        let Some(watch) = self.watch.as_mut() else { return };
        let n = triggers.len();
        watch.handled.extend(triggers);
        self.notice = Some(match n {
            0 => format!("watching {files} files: save an `AI!` or `AI?` comment to ask"),
            n => format!(
                "watching {files} files; the {n} AI comment(s) already in them ask nothing \
                 until changed"
            ),
        });
    }

    /// Start the next queued request if no stream is running.
    pub(super) fn next_trigger(&mut self, now: Instant) -> Vec<AppEffect> {
        if self.streaming {
            return Vec::new();
        }
        let Some(watch) = self.watch.as_mut() else { return Vec::new() };
        let Some((request, text)) = watch.queue.pop_front() else { return Vec::new() };
        let format = watch.format;
        let path = request.path.clone();
        if self.review.source(&path).is_none() {
            self.review.note_project_file(&path);
            self.review.file_loaded(&path, Source::Text(text.clone()));
        }
        let messages: Vec<ChatMessage> = self
            .prompts
            .build_trigger(format, &request, &[(path.as_str(), text.as_str())])
            .into_iter()
            .map(|m| ChatMessage::new(super::role(m.role), m.content))
            .collect();
        let mark = match request.kind {
            Kind::Change => "AI!",
            Kind::Question => "AI?",
        };
        let first = request.triggers[0].instruction.trim();
        self.stream_text.push_str(&format!("\n\n── {mark} {path}: {first} ──\n\n"));
        self.request_line = Some(format!("{mark} {path}: {first}"));
        self.conversation = messages;
        self.begin_stream(now);
        if let Some(watch) = self.watch.as_mut() {
            watch.answering.insert(self.round, request);
        }
        vec![self.stream_effect(Why::Watch)]
    }

    /// The request of the round that just failed is not handled after all: the next save of
    /// its file asks again.
    pub(super) fn forget_failed_trigger(&mut self) {
        let round = self.round;
        let Some(watch) = self.watch.as_mut() else { return };
        if let Some(request) = watch.answering.get(&round) {
            for id in request.ids() {
                watch.handled.remove(&id);
            }
        }
    }

    /// A failed request sent again (`r`): the new round answers it, and its triggers are
    /// handled again.
    pub(super) fn answer_again(&mut self, request: Request) {
        let round = self.round;
        let Some(watch) = self.watch.as_mut() else { return };
        watch.handled.extend(request.ids());
        watch.answering.insert(round, request);
    }

    /// The trigger comments to take out when this hunk is accepted: those of the request its
    /// round answers, in the hunk's own file.
    pub(super) fn triggers_answered_by(&self, id: HunkId) -> Vec<trigger::Trigger> {
        let (Some(watch), Some(h)) = (self.watch.as_ref(), self.review.hunk(id)) else {
            return Vec::new();
        };
        let Some(round) = self.hunk_round.get(&id) else { return Vec::new() };
        match watch.answering.get(round) {
            Some(r) if r.path == h.path && r.kind == Kind::Change => r.triggers.clone(),
            _ => Vec::new(),
        }
    }

    /// In watch mode with `--apply all`: accept the new hunks as they arrive.
    pub(super) fn auto_accept(&mut self, new: &[HunkId]) -> Vec<AppEffect> {
        if !self.watch.as_ref().is_some_and(|w| w.apply_all) {
            return Vec::new();
        }
        let pending: Vec<HunkId> = new
            .iter()
            .copied()
            .filter(|id| {
                self.review
                    .hunk(*id)
                    .is_some_and(|h| h.state == crate::core::review::HunkState::Pending)
            })
            .collect();
        pending.into_iter().flat_map(|id| self.accept_id(id)).collect()
    }
}

/// Take every one of `triggers` out of `text`; `None` when none is there any more.
pub(super) fn without_triggers(text: &str, triggers: &[trigger::Trigger]) -> Option<String> {
    let mut out: Option<String> = None;
    for t in triggers {
        let current = out.as_deref().unwrap_or(text);
        if let Some(next) = trigger::remove_trigger(current, t) {
            out = Some(next);
        }
    }
    out
}
