//! The review screen's state and its one transition function, [`App::update`]: every key, chunk,
//! tick and effect completion arrives as a [`Msg`], and the only changes to the state happen
//! there. What the outside world must do comes back as [`AppEffect`]s: plain data (start or
//! cancel a stream, write a file, read a file, open the editor, quit), never closures, so tests
//! can drive the model with a fixed `now` and check what it asks for.
//!
//! `record` turns messages and hunk changes into session journal records; `replay` plays a
//! recording back into a fresh `App` (the runtime's player, the headless check).
//!
//! Not for: drawing (`ui`), carrying out effects (`runtime`), or deciding where a hunk goes
//! (`core::review`).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::core::edit::{Change, Format};
use crate::core::execute::After;
use crate::core::parse::{Event, ParseOptions};
use crate::core::plan::Source;
use crate::core::prompt::{self, FailedEdit, Prompts};
use crate::core::review::{Effect, HunkId, HunkState, Review, ReviewHunk};
use crate::core::session::Why;
use crate::core::stream::StreamParser;
use crate::core::trigger::TriggerId;
use crate::provider::{ChatMessage, Role};
use crate::ui::keymap::{Action, Keymap};

/// Which pane the scroll keys and the mouse wheel move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    Hunks,
    Diff,
    Stream,
}

/// How the selected hunk's diff is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewMode {
    Unified,
    SideBySide,
}

/// A dialog over the screen that takes the keys while it is open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Modal {
    Help,
    ConfirmQuit,
    /// Typing a search query.
    Search(String),
    /// Typing the request (no `-m` was given).
    Prompt(String),
    /// Typing a follow-up request in the same session.
    FollowUp(String),
}

/// How a stream ended without error.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StreamDone {
    pub output_tokens: Option<u64>,
    /// A note for the status line (the reply hit the token limit, ...).
    pub note: Option<String>,
}

/// Everything that can happen to the review screen.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    Key(KeyEvent),
    /// The mouse wheel turned.
    Scroll {
        down: bool,
    },
    Resize(u16, u16),
    Chunk(String),
    StreamEnd(StreamDone),
    StreamError(String),
    Tick,
    WriteDone {
        hunk: HunkId,
        path: String,
        after: After,
        undo: bool,
    },
    WriteFailed {
        hunk: HunkId,
        path: String,
        reason: String,
        undo: bool,
    },
    /// A write was not carried out because the file changed since the review last saw it:
    /// what it holds now, so the hunk can be placed again before another try.
    WriteStale {
        hunk: HunkId,
        path: String,
        source: Source,
        undo: bool,
    },
    FileRead {
        path: String,
        source: Source,
    },
    /// A file under review changed on disk (another program, the user's editor): what it holds
    /// now.
    FileChanged {
        path: String,
        source: Source,
    },
    /// A git operation started (`true`) or ended in the project: changes seen meanwhile are
    /// held, and none of them starts a request.
    GitBusy(bool),
    /// Watch mode has read the project as it is: how many files it follows, and the trigger
    /// comments already in them (not new: they ask nothing until changed).
    WatchReady {
        files: usize,
        triggers: Vec<TriggerId>,
    },
    /// Watching the files failed (the reason); the review goes on without it.
    WatchError(String),
    /// The editor closed: the text the user saved, or why there is none.
    EditorDone {
        hunk: HunkId,
        result: Result<String, String>,
    },
}

/// What the runtime must do.
#[derive(Debug, Clone, PartialEq)]
pub enum AppEffect {
    StartStream {
        messages: Vec<ChatMessage>,
        /// Why the request is made (the session journal records it).
        why: Why,
    },
    CancelStream,
    /// A review write (`undo` when it takes a hunk back out); answer with WriteDone/WriteFailed.
    Write {
        effect: Effect,
        undo: bool,
    },
    Read {
        path: String,
    },
    OpenEditor {
        hunk: HunkId,
        text: String,
    },
    Quit,
}

/// The request the input line completes (when no `-m` was given).
#[derive(Debug, Clone)]
pub struct RequestSpec {
    pub format: Format,
    pub files: Vec<(String, String)>,
}

/// Stream timing and size, for the status line.
#[derive(Debug, Clone, Default)]
pub struct StreamStats {
    pub started: Option<Instant>,
    pub first_text: Option<Instant>,
    pub ended: Option<Instant>,
    pub bytes: usize,
    pub output_tokens: Option<u64>,
}

/// What the app starts from.
pub struct AppConfig {
    pub review: Review,
    pub known_paths: Vec<String>,
    /// `provider · model`, for the status line.
    pub label: String,
    pub keymap: Keymap,
    pub prompts: Prompts,
    /// The request to send at once; empty when the input line asks for it.
    pub conversation: Vec<ChatMessage>,
    pub request: Option<RequestSpec>,
}

/// The review screen's state.
pub struct App {
    pub review: Review,
    parser: StreamParser,
    known_paths: Vec<String>,
    /// Every round's reply text, as it arrived, with its lines indexed for the reply pane.
    stream_text: ReplyText,
    round_start: usize,
    pub streaming: bool,
    pub stats: StreamStats,
    pub focus: Focus,
    pub view: ViewMode,
    pub modal: Option<Modal>,
    pub selected: Option<HunkId>,
    pub diff_scroll: usize,
    /// Lines scrolled back from the end of the stream.
    pub stream_scroll: usize,
    pub filter: String,
    pub notice: Option<String>,
    pub label: String,
    pub keymap: Keymap,
    pub ticks: u64,
    pub now: Option<Instant>,
    pub size: (u16, u16),
    conversation: Vec<ChatMessage>,
    prompts: Prompts,
    request: Option<RequestSpec>,
    /// Paths with a write on its way: a second accept in the same file waits for it.
    in_flight: BTreeSet<String>,
    queued: Vec<HunkId>,
    reading: BTreeSet<String>,
    /// A git operation is in progress in the project.
    pub git_busy: bool,
    /// Watch mode's triggers and queue (`redline watch`).
    pub watch: Option<WatchMode>,
    /// How many streams have begun; the round each hunk came in.
    round: usize,
    hunk_round: std::collections::HashMap<HunkId, usize>,
    /// How many writes of a hunk found its file changed, in a row.
    stale_tries: std::collections::HashMap<HunkId, u32>,
    /// While replaying a session after the user took over: the recorded decision on each hunk
    /// (`accepted`, `rejected`, ...), shown beside the selected hunk's own.
    pub recorded: BTreeMap<HunkId, String>,
}

/// Tries of one write against a file that keeps changing before the user is asked again.
const MAX_STALE_TRIES: u32 = 20;

impl App {
    pub fn new(config: AppConfig) -> App {
        let options = ParseOptions { only: None, known_paths: config.known_paths.clone() };
        App {
            review: config.review,
            parser: StreamParser::new(options),
            known_paths: config.known_paths,
            stream_text: ReplyText::default(),
            round_start: 0,
            streaming: false,
            stats: StreamStats::default(),
            focus: Focus::Hunks,
            view: ViewMode::Unified,
            modal: None,
            selected: None,
            diff_scroll: 0,
            stream_scroll: 0,
            filter: String::new(),
            notice: None,
            label: config.label,
            keymap: config.keymap,
            ticks: 0,
            now: None,
            size: (80, 24),
            conversation: config.conversation,
            prompts: config.prompts,
            request: config.request,
            in_flight: BTreeSet::new(),
            queued: Vec::new(),
            reading: BTreeSet::new(),
            stale_tries: std::collections::HashMap::new(),
            git_busy: false,
            watch: None,
            round: 0,
            hunk_round: std::collections::HashMap::new(),
            recorded: BTreeMap::new(),
        }
    }

    /// Watch mode: requests come from comments saved in the project's files.
    pub fn with_watch(mut self, mode: WatchMode) -> App {
        self.watch = Some(mode);
        self
    }

    /// The first effects: the stream, or the input line for the request.
    pub fn start(&mut self, now: Instant) -> Vec<AppEffect> {
        self.now = Some(now);
        if self.watch.is_some() {
            self.notice.get_or_insert_with(|| {
                "watching: save a comment ending in AI! to ask for a change, AI? for an answer"
                    .into()
            });
            return Vec::new();
        }
        if self.conversation.is_empty() {
            self.modal = Some(Modal::Prompt(String::new()));
            return Vec::new();
        }
        self.begin_stream(now);
        vec![AppEffect::StartStream { messages: self.conversation.clone(), why: Why::Initial }]
    }

    fn begin_stream(&mut self, now: Instant) {
        self.round += 1;
        self.streaming = true;
        self.stats = StreamStats { started: Some(now), ..StreamStats::default() };
        self.parser =
            StreamParser::new(ParseOptions { only: None, known_paths: self.known_paths.clone() });
        self.round_start = self.stream_text.len();
    }

    /// Whether the status line shows a running clock (a stream started and not ended): the
    /// only thing a tick changes on screen, so the runtime redraws on a tick only then.
    pub fn clock_running(&self) -> bool {
        self.stats.started.is_some() && self.stats.ended.is_none()
    }

    /// Every round's reply text, as it arrived.
    pub fn stream_text(&self) -> &str {
        self.stream_text.as_str()
    }

    /// The reply pane's lines: each line of the reply and whether it is shown as code.
    pub fn reply_lines(&self) -> &ReplyText {
        &self.stream_text
    }

    /// The unfinished last line of the stream (shown, never applied).
    pub fn tail(&self) -> &str {
        if self.streaming { self.parser.tail() } else { "" }
    }

    /// Indices into `review.hunks()`, grouped by file in order of first arrival, filtered by
    /// the search.
    pub fn order(&self) -> Vec<usize> {
        let hunks = self.review.hunks();
        let mut files: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        let mut out: Vec<(usize, usize)> = Vec::with_capacity(hunks.len());
        for (i, h) in hunks.iter().enumerate() {
            let next = files.len();
            let file = *files.entry(h.path.as_str()).or_insert(next);
            if self.matches_filter(h) {
                out.push((file, i));
            }
        }
        // Stable: within a file, hunks keep their order of arrival.
        out.sort_by_key(|&(file, _)| file);
        out.into_iter().map(|(_, i)| i).collect()
    }

    fn matches_filter(&self, h: &ReviewHunk) -> bool {
        if self.filter.is_empty() {
            return true;
        }
        let q = self.filter.to_lowercase();
        if h.path.to_lowercase().contains(&q) {
            return true;
        }
        match &h.edit.change {
            Change::Modify { hunk } => {
                hunk.lines.iter().any(|l| l.text.to_lowercase().contains(&q))
            }
            Change::Create { content } | Change::Replace { content } => {
                content.to_lowercase().contains(&q)
            }
            Change::Delete => false,
        }
    }

    pub fn selected_hunk(&self) -> Option<&ReviewHunk> {
        self.selected.and_then(|id| self.review.hunk(id))
    }

    /// The hunks added, changed or removed since the last call: what the journal records after
    /// a message (`record::Recorder`), so that it never compares every hunk.
    pub fn take_changed(&mut self) -> Vec<HunkId> {
        self.review.take_changed()
    }

    /// Whether a write is on its way for this hunk's file and the hunk waits for it.
    pub fn is_queued(&self, id: HunkId) -> bool {
        self.queued.contains(&id)
    }

    /// The one place state changes.
    pub fn update(&mut self, msg: Msg, now: Instant) -> Vec<AppEffect> {
        self.now = Some(now);
        match msg {
            Msg::Key(key) => self.on_key(key, now),
            Msg::Scroll { down } => {
                self.scroll(if down { 3 } else { -3 });
                Vec::new()
            }
            Msg::Resize(w, h) => {
                self.size = (w, h);
                Vec::new()
            }
            Msg::Chunk(text) => {
                if !self.streaming {
                    return Vec::new();
                }
                self.stats.first_text.get_or_insert(now);
                self.stats.bytes += text.len();
                self.stream_text.push_str(&text);
                let events = self.parser.push_str(&text);
                self.add_events(events)
            }
            Msg::StreamEnd(done) => {
                let events = self.parser.finish();
                let effects = self.add_events(events);
                self.streaming = false;
                self.stats.ended = Some(now);
                self.stats.output_tokens = done.output_tokens;
                self.notice = done.note;
                let mut effects = effects;
                effects.extend(self.next_trigger(now));
                effects
            }
            Msg::StreamError(reason) => {
                self.streaming = false;
                self.stats.ended = Some(now);
                self.notice = Some(if reason == "cancelled" {
                    "stream cancelled; the edits finished before it stay under review".into()
                } else {
                    format!(
                        "stream failed: {reason}; the edits finished before it stay under review"
                    )
                });
                self.next_trigger(now)
            }
            Msg::Tick => {
                self.ticks += 1;
                Vec::new()
            }
            Msg::WriteDone { hunk, path, after, undo } => {
                self.stale_tries.remove(&hunk);
                if undo {
                    self.review.undo_done(&path, after);
                    self.notice = Some(format!("undone: {path} restored"));
                } else {
                    self.review.write_done(hunk, &path, after);
                }
                self.in_flight.remove(&path);
                self.next_queued(&path)
            }
            Msg::WriteFailed { hunk, path, reason, undo } => {
                if !undo {
                    self.review.write_failed(hunk, &reason);
                }
                self.in_flight.remove(&path);
                self.notice = Some(format!("could not write {path}: {reason}"));
                self.next_queued(&path)
            }
            Msg::WriteStale { hunk, path, source, undo } => {
                self.write_stale(hunk, &path, source, undo)
            }
            Msg::FileRead { path, source } => {
                self.reading.remove(&path);
                let before = self.review.hunks().len();
                self.review.file_loaded(&path, source);
                self.hunks_added(before)
            }
            Msg::FileChanged { path, source } => {
                let effects = self.triggers_saved(&path, &source, now);
                self.file_changed(&path, source);
                effects
            }
            Msg::GitBusy(busy) => {
                self.git_busy = busy;
                self.notice = Some(if busy {
                    "a git operation is in progress; changes are taken in when it ends".into()
                } else {
                    "the git operation ended; changed files were read again".into()
                });
                Vec::new()
            }
            Msg::WatchReady { files, triggers } => {
                self.watch_ready(files, triggers);
                Vec::new()
            }
            Msg::WatchError(why) => {
                self.notice = Some(format!("{why}; changes on disk are no longer followed"));
                Vec::new()
            }
            Msg::EditorDone { hunk, result } => match result {
                Err(reason) => {
                    self.notice = Some(format!("editor: {reason}"));
                    Vec::new()
                }
                Ok(text) if self.review.hunk(hunk).is_some_and(|h| h.state.is_conflict()) => {
                    self.resolve_conflict(hunk, &text)
                }
                Ok(text) => {
                    if self.review.edit_new_text(hunk, &text) {
                        self.accept_id(hunk)
                    } else {
                        self.notice = Some("the hunk can no longer be edited".into());
                        Vec::new()
                    }
                }
            },
        }
    }

    fn add_events(&mut self, events: Vec<Event>) -> Vec<AppEffect> {
        let before = self.review.hunks().len();
        let mut effects = Vec::new();
        for event in events {
            for effect in self.review.add_event(event) {
                if let Effect::Read { path } = effect
                    && self.reading.insert(path.clone())
                {
                    effects.push(AppEffect::Read { path });
                }
            }
        }
        effects.extend(self.hunks_added(before));
        effects
    }

    /// Hunks from index `before` on are new: note their round, select, and (watch mode with
    /// `--apply all`) accept them.
    fn hunks_added(&mut self, before: usize) -> Vec<AppEffect> {
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
    fn select_new_if_decided(&mut self, before: usize) {
        let decided = self.selected_hunk().is_none_or(|h| !h.state.is_open());
        if decided && self.filter.is_empty() && self.review.hunks().len() > before {
            self.selected = Some(self.review.hunks()[before].id);
            self.diff_scroll = 0;
        }
    }

    fn select_first_if_none(&mut self) {
        if self.selected.is_none() {
            self.selected = self.order().first().map(|&i| self.review.hunks()[i].id);
        }
    }

    fn open_ids(&self, pred: impl Fn(&ReviewHunk) -> bool) -> Vec<HunkId> {
        self.order()
            .into_iter()
            .map(|i| &self.review.hunks()[i])
            .filter(|h| h.state == HunkState::Pending && pred(h))
            .map(|h| h.id)
            .collect()
    }

    /// Accept one hunk, or queue it behind a write to the same file.
    fn accept_id(&mut self, id: HunkId) -> Vec<AppEffect> {
        let Some(h) = self.review.hunk(id) else { return Vec::new() };
        let path = h.path.clone();
        if h.state.is_conflict() {
            let key = |a| self.keymap.first_key(a);
            self.notice = Some(format!(
                "not applied: {path} changed where this hunk applies; `{}` resolves it by hand, \
                 `{}` sends it back to the model, `{}` drops it",
                key(Action::Edit),
                key(Action::Retry),
                key(Action::Reject)
            ));
            return Vec::new();
        }
        if !matches!(h.state, HunkState::Pending | HunkState::Failed) {
            self.notice =
                Some(format!("the hunk is {}; only an open hunk is accepted", h.state.name()));
            return Vec::new();
        }
        if self.in_flight.contains(&path) {
            if !self.queued.contains(&id) {
                self.queued.push(id);
            }
            return Vec::new();
        }
        let triggers = self.triggers_answered_by(id);
        let tidy = |text: &str| watch::without_triggers(text, &triggers);
        match self.review.accept_and(id, tidy) {
            Some(effect) => {
                self.in_flight.insert(path);
                vec![AppEffect::Write { effect, undo: false }]
            }
            None => {
                let why = self.review.hunk(id).and_then(|h| h.report.reason.clone());
                self.notice = Some(format!(
                    "cannot place the hunk in {path}: {}",
                    why.unwrap_or_else(|| "no change".into())
                ));
                Vec::new()
            }
        }
    }

    fn next_queued(&mut self, path: &str) -> Vec<AppEffect> {
        let pos =
            self.queued.iter().position(|id| self.review.hunk(*id).is_some_and(|h| h.path == path));
        match pos {
            Some(p) => {
                let id = self.queued.remove(p);
                self.accept_id(id)
            }
            None => Vec::new(),
        }
    }

    fn undo(&mut self) -> Vec<AppEffect> {
        if !self.in_flight.is_empty() {
            self.notice = Some("a write is on its way; undo after it".into());
            return Vec::new();
        }
        match self.review.undo() {
            Ok(Some(effect)) => {
                let path = match &effect {
                    Effect::Write { path, .. } | Effect::Delete { path, .. } => path.clone(),
                    Effect::Read { path } => path.clone(),
                };
                self.in_flight.insert(path);
                vec![AppEffect::Write { effect, undo: true }]
            }
            Ok(None) => {
                self.notice = Some("undone".into());
                Vec::new()
            }
            Err(why) => {
                self.notice = Some(format!("cannot undo: {why}"));
                Vec::new()
            }
        }
    }

    fn split(&mut self) {
        let Some(id) = self.selected else { return };
        let Some(idx) = self.review.hunks().iter().position(|h| h.id == id) else { return };
        if self.review.split(id) {
            self.selected = Some(self.review.hunks()[idx].id);
        } else {
            self.notice = Some("only a pending hunk with several changes can be split".into());
        }
    }

    fn retry(&mut self, now: Instant) -> Vec<AppEffect> {
        if self.streaming {
            self.notice = Some("the model is still writing; retry when it is done".into());
            return Vec::new();
        }
        // Failed hunks and conflicts go back to the model, conflicts with the file's text now.
        let failed: Vec<&ReviewHunk> = self
            .review
            .hunks()
            .iter()
            .filter(|h| h.state == HunkState::Failed || h.state.is_conflict())
            .collect();
        if failed.is_empty() {
            self.notice = Some("no failed or conflicting edits to send back".into());
            return Vec::new();
        }
        let failed_edits: Vec<FailedEdit> = failed
            .iter()
            .map(|h| {
                self.review
                    .conflict_failed_edit(h.id)
                    .unwrap_or_else(|| FailedEdit::from_report(&h.report))
            })
            .collect();
        let ids: Vec<HunkId> = failed.iter().map(|h| h.id).collect();
        let applied: Vec<String> = self
            .review
            .hunks()
            .iter()
            .filter(|h| h.state == HunkState::Applied)
            .map(|h| match h.report.lines {
                Some((a, b)) => format!("{} (lines {a}-{b})", h.path),
                None => h.path.clone(),
            })
            .collect();
        let reply = self.stream_text.as_str()[self.round_start..].to_string();
        self.conversation.push(ChatMessage::new(Role::Assistant, reply));
        self.conversation
            .push(ChatMessage::new(Role::User, self.prompts.build_retry(&failed_edits, &applied)));
        for id in &ids {
            self.review.reject(*id);
        }
        self.stream_text
            .push_str(&format!("\n\n── asking again about {} failed edit(s) ──\n\n", ids.len()));
        self.begin_stream(now);
        vec![AppEffect::StartStream { messages: self.conversation.clone(), why: Why::Retry }]
    }

    /// Send a follow-up request in the same conversation, telling the model which of its hunks
    /// were rejected so it does not send them again unasked.
    fn follow_up(&mut self, request: &str, now: Instant) -> Vec<AppEffect> {
        let rejected: Vec<String> = self
            .review
            .hunks()
            .iter()
            .filter(|h| h.state == HunkState::Rejected)
            .map(|h| {
                format!(
                    "{} (lines {}-{} of your reply)",
                    h.path, h.edit.reply_lines.0, h.edit.reply_lines.1
                )
            })
            .collect();
        let reply = self.stream_text.as_str()[self.round_start..].to_string();
        self.conversation.push(ChatMessage::new(Role::Assistant, reply));
        self.conversation
            .push(ChatMessage::new(Role::User, prompt::build_follow_up(request, &rejected)));
        self.stream_text.push_str(&format!("\n\n── follow-up: {} ──\n\n", request.trim()));
        self.begin_stream(now);
        vec![AppEffect::StartStream { messages: self.conversation.clone(), why: Why::FollowUp }]
    }
}

fn role(r: prompt::Role) -> Role {
    match r {
        prompt::Role::System => Role::System,
        prompt::Role::User => Role::User,
        prompt::Role::Assistant => Role::Assistant,
    }
}

mod changes;
mod keys;
mod reply_lines;
pub use reply_lines::ReplyText;
mod watch;
pub use watch::WatchMode;

#[cfg(test)]
mod change_tests;
pub mod record;
#[cfg(test)]
mod record_tests;
pub mod replay;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod watch_tests;
