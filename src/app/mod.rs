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
use crate::core::trigger::TriggerId;
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
    /// The mouse wheel turned, with the pointer at (column, row) when known: the pane under it
    /// scrolls.
    Scroll {
        down: bool,
        at: Option<(u16, u16)>,
    },
    /// A left click at (column, row): focuses the pane there, selects the hunk clicked.
    Click {
        column: u16,
        row: u16,
    },
    Resize(u16, u16),
    Chunk(String),
    StreamEnd(StreamDone),
    StreamError(String),
    /// The stream was cancelled (by the user, or a replay's player): not a failed request.
    StreamCancelled,
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
            review: Review::new(files.clone(), sources),
            known_paths: files,
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
    known_paths: Vec<String>,
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
    /// Every message shown so far, oldest first (`L` shows them); bounded by [`LOG_LIMIT`].
    pub log: Vec<String>,
    /// The request the current reply answers, in the user's words, for the line above it.
    pub request_line: Option<String>,
    /// Why the last request failed (not a cancel), while it has not been sent again: the status
    /// line says so and `r` sends it again.
    pub request_failed: Option<String>,
    /// The hunks the last batch decision (`a`, `d`, `A`) took: `u` right after it undoes them
    /// all.
    last_batch: Option<Vec<HunkId>>,
    /// A batch being undone: each undo's write, when done, starts the next.
    undoing: Option<Vec<HunkId>>,
    /// For a replay: `REPLAY` and its pace, shown first on the status line.
    pub replay_badge: Option<String>,
    /// Messages taken so far; what [`measure`] caches is checked again after each.
    messages: u64,
    /// The reply's lines and the selected diff, measured once and kept (`measure`).
    measure: measure::Measure,
}

/// Messages kept for the log pane.
pub const LOG_LIMIT: usize = 500;

/// Tries of one write against a file that keeps changing before the user is asked again.
const MAX_STALE_TRIES: u32 = 20;

impl App {
    pub fn new(config: AppConfig) -> App {
        let options = ParseOptions { only: None, known_paths: config.known_paths.clone() };
        App {
            review: config.review,
            parser: StreamParser::new(options),
            known_paths: config.known_paths,
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
            in_flight: BTreeSet::new(),
            queued: Vec::new(),
            reading: BTreeSet::new(),
            stale_tries: std::collections::HashMap::new(),
            git_busy: false,
            watch: None,
            round: 0,
            hunk_round: std::collections::HashMap::new(),
            recorded: BTreeMap::new(),
            log: Vec::new(),
            request_line: None,
            request_failed: None,
            last_batch: None,
            undoing: None,
            replay_badge: None,
            messages: 0,
            measure: measure::Measure::default(),
        }
    }

    /// The request in the user's words, shown above the reply (the command line's `-m`).
    pub fn with_request_line(mut self, request: Option<String>) -> App {
        self.request_line = request.filter(|r| !r.trim().is_empty());
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
        vec![AppEffect::StartStream { messages: self.conversation.clone(), why: Why::Initial }]
    }

    /// Whether the status line shows a running clock (a stream started and not ended): the
    /// only thing a tick changes on screen, so the runtime redraws on a tick only then.
    pub fn clock_running(&self) -> bool {
        self.stats.started.is_some() && self.stats.ended.is_none()
    }

    /// The unfinished last line of the stream (shown, never applied).
    pub fn tail(&self) -> &str {
        if self.streaming { self.parser.tail() } else { "" }
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
        self.queued.contains(&id)
    }

    /// The one place state changes.
    pub fn update(&mut self, msg: Msg, now: Instant) -> Vec<AppEffect> {
        self.now = Some(now);
        self.last_action = None;
        self.messages += u64::from(!matches!(msg, Msg::Tick));
        let before = self.notice.clone();
        // A key clears the message first: one it shows was set anew, even if it says the same.
        let fresh = matches!(msg, Msg::Key(_)) && self.modal.is_none();
        let effects = self.dispatch(msg, now);
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
            Msg::Scroll { down, at } => {
                self.wheel(down, at);
                Vec::new()
            }
            Msg::Click { column, row } => {
                self.click(column, row);
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
            Msg::StreamEnd(done) => self.stream_end(done, now),
            Msg::StreamError(reason) => self.stream_error(Some(reason), now),
            Msg::StreamCancelled => self.stream_error(None, now),
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
                let mut effects = self.next_queued(&path);
                if undo && self.undoing.is_some() {
                    effects.extend(self.undo_batch_step());
                }
                effects
            }
            Msg::WriteFailed { hunk, path, reason, undo } => {
                // A batch undo stops at the first write it cannot make.
                self.undoing = None;
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
                // As `y` does: accepted, then on to the next open hunk.
                Ok(text) => {
                    if self.review.edit_new_text(hunk, &text) {
                        let effects = self.accept_id(hunk);
                        self.advance_from(hunk);
                        effects
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
