//! The review screen's state and its one transition function, [`App::update`]: every key, chunk,
//! tick and effect completion arrives as a [`Msg`], and the only changes to the state happen
//! there. What the outside world must do comes back as [`AppEffect`]s: plain data (start or
//! cancel a stream, write a file, read a file, open the editor, quit), never closures, so tests
//! can drive the model with a fixed `now` and check what it asks for.
//!
//! The transitions are split by concern: `keys` (what a key does), `navigation` (moving and
//! scrolling, the mouse), `decisions` (accept, reject, undo, batches), `requests` (streams:
//! starting, failing, retrying, following up), `watch` and `changes` (watch mode, files changed
//! on disk).
//!
//! `record` turns messages and hunk changes into session journal records; `replay` plays a
//! recording back into a fresh `App` (the runtime's player, the headless check).
//!
//! Not for: drawing (`ui`), carrying out effects (`runtime`), or deciding where a hunk goes
//! (`core::review`).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use crate::app::key::{KeyCode, KeyEvent, KeyModifiers};

use crate::app::keymap::{Action, Keymap};
use crate::core::edit::{Change, Format};
use crate::core::execute::After;
use crate::core::file::Source;
use crate::core::parse::{Event, ParseOptions};
use crate::core::prompt::{self, FailedEdit, Prompts};
use crate::core::review::{Effect, HunkId, HunkState, Review, ReviewHunk};
use crate::core::session::Why;
use crate::core::stream::StreamParser;
use crate::provider::{ChatMessage, Role};

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
    /// The keys, scrolled this many entries down when they do not all fit.
    Help(usize),
    ConfirmQuit,
    /// Typing a search query.
    Search(String),
    /// Typing the request (no `-m` was given).
    Prompt(String),
    /// Typing a follow-up request in the same session.
    FollowUp(String),
    /// The messages so far (`L`), scrolled this many back from the newest.
    Log(usize),
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
    /// How many repeated edits the review had left out when the stream began.
    pub repeated_before: usize,
    /// The user (or a replay's player) cancelled it: it did not finish.
    pub cancelled: bool,
}

/// What the app starts from.
pub struct AppConfig {
    /// The review, holding the project's one list of files.
    pub review: Review,
    /// `provider · model`, for the status line.
    pub label: String,
    pub keymap: Keymap,
    pub prompts: Prompts,
    /// The request to send at once; empty when the input line asks for it.
    pub conversation: Vec<ChatMessage>,
    pub request: Option<RequestSpec>,
}

impl AppConfig {
    /// A review of `files` (their contents so far in `sources`) answering the user's `request`
    /// (none: the input line asks for it), with the default keys and prompts, no label and no
    /// request to rebuild. Set the other fields with `..AppConfig::new(..)`.
    pub fn new(files: Vec<String>, sources: BTreeMap<String, Source>, request: &str) -> Self {
        let conversation = if request.is_empty() {
            Vec::new()
        } else {
            vec![ChatMessage::new(Role::User, request)]
        };
        AppConfig {
            review: Review::new(files, sources),
            label: String::new(),
            keymap: Keymap::default(),
            prompts: Prompts::default(),
            conversation,
            request: None,
        }
    }
}

/// The review screen's state.
pub struct App {
    pub review: Review,
    parser: StreamParser,
    /// How this round's reply is parsed (given to a stream side that parses it).
    parse: ParseOptions,
    /// Every round's reply text, as it arrived.
    pub stream_text: String,
    round_start: usize,
    pub streaming: bool,
    pub stats: StreamStats,
    pub focus: Focus,
    pub view: ViewMode,
    pub modal: Option<Modal>,
    pub selected: Option<HunkId>,
    pub diff_scroll: usize,
    /// Long lines in the diff and conflict panes wrap (the default), or stay on one row each,
    /// shown from column `diff_hscroll` on.
    pub wrap: bool,
    pub diff_hscroll: usize,
    /// Lines scrolled back from the end of the stream.
    pub stream_scroll: usize,
    pub filter: String,
    pub notice: Option<String>,
    pub label: String,
    pub keymap: Keymap,
    /// The action the last message's key stood for (none for other messages, or a key a
    /// dialog took): the journal names it beside the decision it made.
    pub last_action: Option<Action>,
    pub ticks: u64,
    pub now: Option<Instant>,
    pub size: (u16, u16),
    conversation: Vec<ChatMessage>,
    prompts: Prompts,
    request: Option<RequestSpec>,
    /// One write per file at a time: a second accept in the same file waits for the first.
    writes: WriteQueue,
    reading: BTreeSet<String>,
    /// A git operation is in progress in the project.
    pub git_busy: bool,
    /// Watch mode's triggers and queue (`redline watch`).
    pub watch: Option<WatchMode>,
    /// How many streams have begun; the round each hunk came in.
    round: usize,
    hunk_round: std::collections::HashMap<HunkId, usize>,
    /// While replaying a session after the user took over: the recorded decision on each hunk
    /// (`accepted`, `rejected`, ...), shown beside the selected hunk's own.
    pub recorded: BTreeMap<HunkId, String>,
    /// Every message shown so far, oldest first (`L` shows them); bounded by [`LOG_LIMIT`].
    pub log: Vec<String>,
    /// The request the current reply answers, in the user's words, for the line above it.
    pub request_line: Option<String>,
    /// Why the last request failed (not a cancel), while it has not been sent again: the status
    /// line says so and `r` sends it again.
    pub request_failed: Option<String>,
    /// A follow-up written while the model was still writing: sent when its reply ends (and, if
    /// that reply fails or is cancelled, the draft `m` opens with).
    pub follow_up_queued: Option<String>,
    /// The hunks the last batch decision (`a`, `d`, `A`) took: `u` right after it undoes them
    /// all.
    last_batch: Option<Vec<HunkId>>,
    /// A batch being undone: each undo's write, when done, starts the next.
    undoing: Option<Vec<HunkId>>,
    /// Writes the batch being undone has asked for so far (none: it changed nothing on disk).
    undo_writes: usize,
    /// For a replay: `REPLAY` and its pace, shown first on the status line.
    pub replay_badge: Option<String>,
    /// A replay re-enacts recorded keys: `size` is the recorded terminal's (what a key does may
    /// depend on it), and the screen shows that much of itself.
    pub reenacting: bool,
    /// `q` with every hunk decided while a write was still on its way: quit once it lands.
    quit_when_written: bool,
    /// Messages taken so far; what [`measure`] caches is checked again after each.
    messages: u64,
    /// The reply's lines and the selected diff, measured once and kept (`measure`).
    measure: measure::Measure,
}

/// Messages kept for the log pane.
pub const LOG_LIMIT: usize = 500;

impl App {
    pub fn new(config: AppConfig) -> App {
        let options = ParseOptions { only: None, known_paths: config.review.project_files() };
        let mut review = config.review;
        // Placing a hunk is the costly part of taking a reply in: it leaves the UI task.
        review.defer_placing();
        App {
            review,
            parser: StreamParser::new(options.clone()),
            parse: options,
            stream_text: String::new(),
            round_start: 0,
            streaming: false,
            stats: StreamStats::default(),
            focus: Focus::Hunks,
            view: ViewMode::Unified,
            modal: None,
            selected: None,
            diff_scroll: 0,
            wrap: true,
            diff_hscroll: 0,
            stream_scroll: 0,
            filter: String::new(),
            notice: None,
            label: config.label,
            keymap: config.keymap,
            last_action: None,
            ticks: 0,
            now: None,
            size: (80, 24),
            conversation: config.conversation,
            prompts: config.prompts,
            request: config.request,
            writes: WriteQueue::default(),
            reading: BTreeSet::new(),
            git_busy: false,
            watch: None,
            round: 0,
            hunk_round: std::collections::HashMap::new(),
            recorded: BTreeMap::new(),
            log: Vec::new(),
            request_line: None,
            request_failed: None,
            follow_up_queued: None,
            last_batch: None,
            undoing: None,
            undo_writes: 0,
            replay_badge: None,
            reenacting: false,
            quit_when_written: false,
            messages: 0,
            measure: measure::Measure::default(),
        }
    }

    /// The request in the user's words, shown above the reply (the command line's `-m`).
    pub fn with_request_line(mut self, request: Option<String>) -> App {
        self.request_line = request.filter(|r| !r.trim().is_empty());
        self
    }

    /// A message for the status line when the screen opens.
    pub fn with_notice(mut self, notice: Option<String>) -> App {
        if notice.is_some() {
            self.notice = notice;
        }
        self
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
        vec![self.stream_effect(Why::Initial)]
    }

    /// Whether the status line shows a running clock (a stream started and not ended): the
    /// only thing a tick changes on screen, so the runtime redraws on a tick only then.
    pub fn clock_running(&self) -> bool {
        self.stats.started.is_some() && self.stats.ended.is_none()
    }

    /// The unfinished last line of the stream (shown, never applied).
    pub fn tail(&self) -> &str {
        if !self.streaming {
            return "";
        }
        // The text after the round's last line end: what the parser (here or on the stream
        // side) holds as unfinished.
        let round = &self.stream_text[self.round_start..];
        let start = memchr::memrchr(b'\n', round.as_bytes()).map_or(0, |i| i + 1);
        &round[start..]
    }

    /// Indices into `review.hunks()`, grouped by file in order of first arrival, filtered by
    /// the search.
    pub fn order(&self) -> Vec<usize> {
        self.hunk_list().order.clone()
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
            Change::Delete { .. } => false,
        }
    }

    pub fn selected_hunk(&self) -> Option<&ReviewHunk> {
        self.selected.and_then(|id| self.review.hunk(id))
    }

    /// The message line's text: the last message, else why the last request failed.
    pub fn message(&self) -> Option<String> {
        self.notice.clone().or_else(|| {
            let reason = self.request_failed.as_ref()?;
            let key = self.keymap.first_key(Action::Retry);
            Some(format!("request failed: {reason} — `{key}` sends it again"))
        })
    }

    /// Whether a write is on its way for this hunk's file and the hunk waits for it.
    pub fn is_queued(&self, id: HunkId) -> bool {
        self.writes.is_queued(id)
    }

    /// [`App::update`], with every placing job it hands out run at once and its outcome fed
    /// back in turn: what the loop does when its worker answers before anything else arrives.
    /// For tests, benches and tools that have no worker; the effects left are the others.
    pub fn update_placed(&mut self, msg: Msg, now: Instant) -> Vec<AppEffect> {
        let effects = self.update(msg, now);
        self.place_at_once(effects, now)
    }

    /// Carry out the placing jobs among `effects` at once (see [`App::update_placed`]).
    pub fn place_at_once(&mut self, effects: Vec<AppEffect>, now: Instant) -> Vec<AppEffect> {
        let mut work: std::collections::VecDeque<AppEffect> = effects.into();
        let mut rest = Vec::new();
        while let Some(effect) = work.pop_front() {
            match effect {
                AppEffect::Place(job) => work.extend(self.update(Msg::Placed(job.run()), now)),
                other => rest.push(other),
            }
        }
        rest
    }

    /// The one place state changes.
    pub fn update(&mut self, msg: Msg, now: Instant) -> Vec<AppEffect> {
        self.now = Some(now);
        self.last_action = None;
        self.messages += u64::from(!matches!(msg, Msg::Tick));
        let before = self.notice.clone();
        // A key clears the message first: one it shows was set anew, even if it says the same.
        let fresh = matches!(msg, Msg::Key(_)) && self.modal.is_none();
        let mut effects = self.dispatch(msg, now);
        effects.extend(self.review.take_jobs().into_iter().map(AppEffect::Place));
        effects.extend(self.quit_if_written());
        if (fresh || self.notice != before)
            && let Some(notice) = &self.notice
        {
            self.log.push(notice.clone());
            if self.log.len() > LOG_LIMIT {
                self.log.remove(0);
            }
        }
        effects
    }

    fn dispatch(&mut self, msg: Msg, now: Instant) -> Vec<AppEffect> {
        match msg {
            Msg::Key(key) => self.on_key(key, now),
            Msg::Paste(text) => {
                self.paste(&text);
                Vec::new()
            }
            Msg::Chunk(text) => self.chunk(&text, now),
            Msg::Parsed { text, events } => self.parsed(&text, events, now),
            Msg::StreamEnd(done) => self.stream_end(done, now),
            Msg::StreamError(reason) => self.stream_error(Some(reason), now),
            Msg::StreamCancelled => self.stream_error(None, now),
            Msg::WriteDone { path, after, undo, .. } => self.write_done(&path, after, undo),
            Msg::WriteFailed { hunk, path, reason, undo } => {
                self.write_failed(hunk, &path, &reason, undo)
            }
            Msg::WriteStale { hunk, path, source, undo } => {
                self.write_stale(hunk, &path, source, undo)
            }
            Msg::FileRead { path, source } => self.file_read(path, source),
            // An event on disk is a hint: what the review already holds is no change (our own
            // write coming back through the watcher, a save that changed nothing).
            Msg::FileChanged { path, source } if self.holds(&path, &source) => Vec::new(),
            Msg::FileChanged { path, source } => {
                let effects = self.triggers_saved(&path, &source, now);
                self.file_changed(&path, source);
                effects
            }
            Msg::EditorDone { hunk, result } => self.editor_done(hunk, result),
            Msg::Placed(result) => {
                self.review.placed(result);
                Vec::new()
            }
            msg => {
                self.on_view(msg);
                Vec::new()
            }
        }
    }

    /// Messages that ask for nothing: the pointer, the size, the clock, what the shell says,
    /// what the watcher is up to.
    fn on_view(&mut self, msg: Msg) {
        match msg {
            Msg::Scroll { down, at } => self.wheel(down, at),
            Msg::Click { column, row } => self.click(column, row),
            Msg::Resize(w, h) => self.size = (w, h),
            Msg::Tick => self.ticks += 1,
            Msg::GitBusy(busy) => {
                self.git_busy = busy;
                self.notice = Some(if busy {
                    "a git operation is in progress; changes are taken in when it ends".into()
                } else {
                    "the git operation ended; changed files were read again".into()
                });
            }
            Msg::WatchReady { files, triggers } => self.watch_ready(files, triggers),
            Msg::WatchError(why) => {
                self.notice = Some(format!("{why}; changes on disk are no longer followed"));
            }
            Msg::Notice(text) => self.notice = Some(text),
            Msg::ReplayBadge { badge, reenacting } => {
                self.replay_badge = Some(badge);
                self.reenacting = reenacting;
            }
            Msg::ShowRecorded(decisions) => self.recorded = decisions,
            _ => {}
        }
    }

    fn chunk(&mut self, text: &str, now: Instant) -> Vec<AppEffect> {
        if !self.streaming {
            return Vec::new();
        }
        let events = self.parser.push_str(text);
        self.take_text(text, events, now)
    }

    /// A piece of the reply parsed on the stream side.
    fn parsed(&mut self, text: &str, events: Vec<Event>, now: Instant) -> Vec<AppEffect> {
        if !self.streaming {
            return Vec::new();
        }
        self.take_text(text, events, now)
    }

    /// A file the review asked for: its hunks can be placed, and it is followed from now on.
    fn file_read(&mut self, path: String, source: Source) -> Vec<AppEffect> {
        self.reading.remove(&path);
        let before = self.review.hunks().len();
        self.review.file_loaded(&path, source);
        let mut effects = vec![AppEffect::Follow { path }];
        effects.extend(self.hunks_added(before));
        effects
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
}

fn role(r: prompt::Role) -> Role {
    match r {
        prompt::Role::System => Role::System,
        prompt::Role::User => Role::User,
        prompt::Role::Assistant => Role::Assistant,
    }
}

mod changes;
pub mod conflict;
mod decisions;
pub mod diff_model;
pub mod diff_pane;
pub mod key;
pub mod keymap;
mod keys;
mod msg;
mod queue;
pub use msg::{AppEffect, Msg, StreamDone};
use queue::{Stale, WriteQueue};
pub mod layout;
pub mod measure;
pub mod navigation;
mod requests;
mod view;
mod watch;
pub mod wrap;
pub use watch::WatchMode;

#[cfg(test)]
mod change_tests;
#[cfg(test)]
mod input_tests;
pub mod record;
#[cfg(test)]
mod record_tests;
pub mod replay;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod ux_tests;
#[cfg(test)]
mod watch_tests;
