//! The app's vocabulary with the loop: the messages that reach [`App::update`](super::App::update)
//! (input, the stream, the outcomes of disk work, what the shell says) and the effects it asks
//! the loop to carry out. Every state change of the review screen arrives as one of these.
//!
//! Not for: what a message does (`App::update` and its modules), how an effect is carried out
//! (`shell::runtime`).

use std::collections::BTreeMap;

use crate::app::key::KeyEvent;
use crate::core::execute::After;
use crate::core::file::Source;
use crate::core::parse::{Event, ParseOptions};
use crate::core::review::{Effect, HunkId, PlaceJob, PlaceResult};
use crate::core::session::Why;
use crate::core::trigger::TriggerId;
use crate::provider::ChatMessage;

/// How a stream ended without error.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StreamDone {
    pub output_tokens: Option<u64>,
    /// A note for the status line (the reply hit the token limit, ...).
    pub note: Option<String>,
    /// What the stream side's parser gave at the end (an edit the reply's last, unterminated
    /// line finished), when the reply was parsed there ([`Msg::Parsed`]); empty when the app
    /// parses the chunks itself. Not journaled: a replay parses the recorded chunks again.
    pub last: Vec<Event>,
}

/// Everything that can happen to the review screen.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    Key(KeyEvent),
    /// Text pasted into the terminal (bracketed paste): text for an open input box, never a
    /// run of keys (a pasted traceback's letters would be decisions).
    Paste(String),
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
    /// A piece of the reply, as the server sent it: the app parses it (a replay, a test).
    Chunk(String),
    /// A piece of the reply and what the stream side's parser made of it: the live stream
    /// parses off the UI task ([`crate::core::stream::StreamParser`], started with the options
    /// of [`AppEffect::StartStream`]), and the app only takes the text and the finished edits.
    /// Journaled as the chunk it is: a replay parses it again, to the same events.
    Parsed {
        text: String,
        events: Vec<Event>,
    },
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
    /// A placing job's outcome: where a new hunk goes in its file (the review takes it only if
    /// the file is still at the version it was placed in).
    Placed(PlaceResult),
    /// The editor closed: the text the user saved, or why there is none.
    EditorDone {
        hunk: HunkId,
        result: Result<String, String>,
    },
    /// Something the shell has to say on the status line (the journal cannot be written, a
    /// replay cannot re-enact a change as recorded).
    Notice(String),
    /// A replay is shown: the badge on the status line, and whether recorded keys are still
    /// re-enacted (then the app keeps the recorded size and the screen shows that much).
    ReplayBadge {
        badge: String,
        reenacting: bool,
    },
    /// A replay's recorded decisions, shown beside the user's own.
    ShowRecorded(BTreeMap<HunkId, String>),
}

impl Msg {
    /// Whether the message changes only what is shown, nothing a session records: it is neither
    /// journaled nor replayed (the clock's tick, the shell's notices, a replay's own badge).
    pub fn is_view_only(&self) -> bool {
        matches!(self, Msg::Tick | Msg::Notice(_) | Msg::ReplayBadge { .. } | Msg::ShowRecorded(_))
    }
}

/// What the runtime must do.
#[derive(Debug, Clone, PartialEq)]
pub enum AppEffect {
    StartStream {
        messages: Vec<ChatMessage>,
        /// Why the request is made (the session journal records it).
        why: Why,
        /// How to parse the reply (the project's paths as the request starts), for a stream
        /// side that parses it ([`Msg::Parsed`]).
        parse: ParseOptions,
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
    /// Place a new hunk off the UI task ([`PlaceJob::run`]); answer with `Msg::Placed`.
    Place(PlaceJob),
    OpenEditor {
        hunk: HunkId,
        text: String,
    },
    /// Follow this file's changes on disk (it is now under review).
    Follow {
        path: String,
    },
    Quit,
}
