//! Replaying a recorded session: what it holds, in the order it happened ([`Script`]), and a
//! [`Player`] that says what is due when, so that the same messages reach a fresh [`App`] at the
//! same recorded times. `App` is deterministic given its messages and `now`, so this reproduces
//! the recorded states and frames.
//!
//! The mental model: the recording is one sequence of cues. Inputs (keys, scroll, resize, the
//! editor's result, external file changes) are re-enacted at their recorded times until the user
//! takes over; the stream of each request is played when the app asks for that request, at its
//! recorded offsets; the outcome of a write or a read marks where in the sequence the app's held
//! effect is carried out (so that a write lands between the same chunks as it did). After the
//! user takes over, only the streams go on, each at its offsets from when the app asked for it.
//!
//! Pure: no clock is read here ([`Clock`] converts between wall time and recorded time), no file
//! is touched. The runtime's one loop (`shell::runtime`) drives a `Player`, live and headless.
//!
//! Not for: reading journals (`core::session`), carrying out effects on disk (`shell::runtime`).

use std::collections::{BTreeMap, VecDeque};
use std::time::Duration;

use crate::app::keymap::Keymap;
use crate::app::record::{chat_message, record_msg};
use crate::app::{App, AppConfig, AppEffect, Msg, RequestSpec};
use crate::core::edit::Format;
use crate::core::file::Source;
use crate::core::prompt::Prompts;
use crate::core::review::{Effect, HunkId, Review};
use crate::core::session::{
    FileRecord, Header, Journal, Record, RequestRecord, VERSION, parse_hunk_hex,
};

/// A recorded session, ready to replay.
#[derive(Debug, Clone)]
pub struct Script {
    pub header: Header,
    /// Every file as sent, in order.
    pub files: Vec<(String, Source)>,
    /// Files read later in the session, with what they held.
    pub later_files: Vec<(String, Source)>,
    pub requests: Vec<RequestRecord>,
    /// The replayable cues, in recorded order.
    pub events: Vec<Event>,
    /// The last recorded decision on each hunk: the state it left the hunk in.
    pub decisions: BTreeMap<HunkId, String>,
    /// Every record, for comparing observations.
    pub records: Vec<Record>,
}

/// One cue of a recording.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Recorded time, ms since the start.
    pub t: u64,
    pub kind: EventKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum EventKind {
    /// A key, the wheel, a resize, the editor's result, a file changed on disk.
    Input(Msg),
    /// Part of the reply to request `round`, `offset` ms after it was sent.
    Stream { round: usize, offset: u64, msg: Msg },
    /// Where a held effect was carried out.
    Result(ResultKey),
}

/// Which held effect a recorded outcome belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultKey {
    Write {
        hunk: HunkId,
        path: String,
        undo: bool,
        /// For a write that found the file changed: what another program had put there.
        found: Option<Source>,
    },
    /// A file read later in the session, and what it held.
    Read { path: String, source: Source },
    /// A new hunk's placing came back (taken or stale).
    Placed { hunk: HunkId },
}

impl Script {
    /// The script of a journal; `Err` says why it cannot be replayed.
    pub fn from_journal(journal: &Journal) -> Result<Script, String> {
        let Some(header) = journal.header().cloned() else {
            return Err("it does not start with a session header".into());
        };
        if header.version > VERSION {
            return Err(format!(
                "it was written by a newer redline (journal version {}, this one reads up to {VERSION})",
                header.version
            ));
        }
        let mut script = Script {
            header,
            files: Vec::new(),
            later_files: Vec::new(),
            requests: Vec::new(),
            events: Vec::new(),
            decisions: BTreeMap::new(),
            records: journal.records.clone(),
        };
        for record in &journal.records {
            let t = record.t().unwrap_or(0);
            let kind = match record {
                Record::File(f) if f.t.is_none() => {
                    script.files.push((f.path.clone(), f.source()));
                    continue;
                }
                Record::File(f) => {
                    script.later_files.push((f.path.clone(), f.source()));
                    EventKind::Result(ResultKey::Read { path: f.path.clone(), source: f.source() })
                }
                Record::Request(r) => {
                    script.requests.push(r.clone());
                    continue;
                }
                Record::Write(w) => match parse_hunk_hex(&w.hunk) {
                    Some(hunk) => EventKind::Result(ResultKey::Write {
                        hunk,
                        path: w.path.clone(),
                        undo: w.undo,
                        found: w.found.as_ref().map(FileRecord::source),
                    }),
                    None => continue,
                },
                Record::Placed { hunk, .. } => match parse_hunk_hex(hunk) {
                    Some(hunk) => EventKind::Result(ResultKey::Placed { hunk }),
                    None => continue,
                },
                Record::Decision(d) => {
                    if let Some(id) = parse_hunk_hex(&d.hunk) {
                        script.decisions.insert(id, d.state.clone());
                    }
                    continue;
                }
                Record::Chunk { .. } | Record::StreamEnd { .. } | Record::StreamError { .. } => {
                    let Some(msg) = record_msg(record) else { continue };
                    let (round, sent) = script.requests.last().map_or((0, 0), |r| (r.round, r.t));
                    EventKind::Stream { round, offset: t.saturating_sub(sent), msg }
                }
                Record::Key { .. }
                | Record::Paste { .. }
                | Record::Resize { .. }
                | Record::Scroll { .. }
                | Record::Click { .. }
                | Record::Editor { .. }
                | Record::FileChanged(_)
                | Record::GitBusy { .. }
                | Record::WatchReady { .. }
                | Record::WatchError { .. } => match record_msg(record) {
                    Some(msg) => EventKind::Input(msg),
                    None => continue,
                },
                Record::Session(_) | Record::Hunk(_) | Record::End(_) | Record::Blob { .. } => {
                    continue;
                }
            };
            script.events.push(Event { t, kind });
        }
        Ok(script)
    }

    /// Watch mode, for a session recorded by `redline watch`.
    pub fn watch_mode(&self) -> Option<crate::app::WatchMode> {
        let w = self.header.watch.as_ref()?;
        Some(crate::app::WatchMode::new(self.format(), w.apply_all))
    }

    /// A fresh app as the recording's started (before its terminal size and first request).
    pub fn new_app(&self, config: AppConfig) -> App {
        let app = App::new(config).with_request_line(self.header.prompt.clone());
        match self.watch_mode() {
            Some(mode) => app.with_watch(mode),
            None => app,
        }
    }

    /// The edit format the session asked for.
    pub fn format(&self) -> Format {
        match self.header.format.as_str() {
            "udiff" => Format::Udiff,
            "whole" => Format::Whole,
            _ => Format::SearchReplace,
        }
    }

    /// Everything a fresh app needs to start as the recorded one did. The request is the
    /// recorded one (whatever the prompts say now); the keymap is the recording's.
    pub fn app_config(&self) -> AppConfig {
        let sources: BTreeMap<String, Source> = self.files.iter().cloned().collect();
        let conversation = match (self.header.asks_prompt, self.requests.first()) {
            (false, Some(first)) => first.messages.iter().map(chat_message).collect(),
            _ => Vec::new(),
        };
        let files: Vec<(String, String)> = self
            .files
            .iter()
            .filter_map(|(p, s)| match s {
                Source::Text(t) => Some((p.clone(), t.clone())),
                _ => None,
            })
            .collect();
        let keymap = self
            .header
            .keymap
            .as_deref()
            .and_then(|text| Keymap::with_overrides(text).ok())
            .unwrap_or_default();
        AppConfig {
            review: Review::new(self.header.project_files.clone(), sources),
            label: self.header.label.clone(),
            keymap,
            prompts: Prompts::default(),
            conversation,
            request: Some(RequestSpec { format: self.format(), files }),
        }
    }

    /// The recorded time of the last cue.
    pub fn duration_ms(&self) -> u64 {
        self.records.iter().filter_map(Record::t).max().unwrap_or(0)
    }
}

/// The writes a recording made or decided on: (hunk, undo). See [`Player::stray`].
fn recorded_writes(records: &[Record]) -> std::collections::BTreeSet<(HunkId, bool)> {
    let mut wrote = std::collections::BTreeSet::new();
    for record in records {
        let (hunk, undo) = match record {
            Record::Write(w) => (&w.hunk, w.undo),
            Record::Decision(d) if matches!(d.state.as_str(), "accepted" | "applied") => {
                (&d.hunk, false)
            }
            Record::Decision(d) if d.action == "undo" => (&d.hunk, true),
            _ => continue,
        };
        if let Some(id) = parse_hunk_hex(hunk) {
            wrote.insert((id, undo));
        }
    }
    wrote
}

/// What the player says to do next.
#[derive(Debug, Clone, PartialEq)]
pub enum Cue {
    /// Hand this message to the app.
    Msg(Msg),
    /// Carry out the held effect this outcome belongs to, and hand its result to the app.
    Carry(ResultKey),
}

/// The journal version from which placings are recorded ([`Record::Placed`]).
const PLACED_SINCE: u32 = 2;

/// What a request beyond the recording gets.
pub const NO_REPLY: &str = "the recording holds no reply to this request";

/// Says which recorded cue is due when.
#[derive(Debug, Clone)]
pub struct Player {
    events: VecDeque<Event>,
    /// When (recorded time) the app asked for each request so far.
    started: Vec<u64>,
    recorded_rounds: usize,
    /// Inputs are re-enacted (until the user takes over).
    reenact: bool,
    /// The recording says when each placing came back (journal version 2 on); older ones
    /// placed each hunk as it arrived.
    places_recorded: bool,
    /// Messages of the player's own (a cancelled stream's end, a reply the recording lacks).
    extra: VecDeque<(u64, Msg)>,
    /// The writes the recording made or decided on (hunk, undo): an accept (or an undo) the
    /// recording wrote, or a decision that asked for it (a journal cut before the write's
    /// outcome). Any other write came from a replay that went another way than the recording,
    /// and is not carried out ([`Player::stray`]).
    wrote: std::collections::BTreeSet<(HunkId, bool)>,
}

impl Player {
    /// A player of `script`; with `reenact` false the user decides from the start (the demo).
    pub fn new(script: &Script, reenact: bool) -> Player {
        let mut player = Player {
            events: script.events.iter().cloned().collect(),
            started: Vec::new(),
            recorded_rounds: script.requests.len(),
            reenact: true,
            places_recorded: script.header.version >= PLACED_SINCE,
            extra: VecDeque::new(),
            wrote: recorded_writes(&script.records),
        };
        if !reenact {
            player.take_over();
        }
        player
    }

    /// Whether recorded inputs are still re-enacted.
    pub fn reenacting(&self) -> bool {
        self.reenact
    }

    /// Whether effects wait for their recorded place (writes and reads, while re-enacting).
    /// Those still held when the recording is played out had no recorded outcome (a cut
    /// journal): the caller decides what to do with them.
    pub fn holds_effects(&self) -> bool {
        self.reenact
    }

    /// Whether placing jobs wait for their recorded outcome too (a recording that has them,
    /// while re-enacting); otherwise they are carried out at once.
    pub fn holds_placing(&self) -> bool {
        self.reenact && self.places_recorded
    }

    /// For a held write the recording never made nor decided on, what the app is told instead
    /// of the write: a replayed key did something the recorded one did not, and the replay
    /// writes nothing the recording did not write. `None`: the write is the recording's.
    pub fn stray(&self, effect: &AppEffect) -> Option<Msg> {
        let AppEffect::Write { effect, undo } = effect else { return None };
        let (hunk, path) = match effect {
            Effect::Write { hunk, path, .. } | Effect::Delete { hunk, path, .. } => (*hunk, path),
            Effect::Read { .. } => return None,
        };
        (!self.wrote.contains(&(hunk, *undo))).then(|| Msg::WriteFailed {
            hunk,
            path: path.clone(),
            reason: "not written: the recording never made this write (the replay went another \
                     way than the recording)"
                .into(),
            undo: *undo,
        })
    }

    /// Nothing is left to play.
    pub fn finished(&self) -> bool {
        self.events.is_empty() && self.extra.is_empty()
    }

    /// The user pressed a key: from now on, the user decides; only the streams go on.
    pub fn take_over(&mut self) {
        self.reenact = false;
        self.events.retain(|e| matches!(e.kind, EventKind::Stream { .. }));
    }

    /// The app asked for its next request at recorded time `t`.
    pub fn round_started(&mut self, t: u64) {
        self.started.push(t);
        if self.started.len() > self.recorded_rounds {
            self.extra.push_back((t, Msg::StreamError(NO_REPLY.into())));
        }
    }

    /// The app cancelled the stream at `t`. While re-enacting, the recording goes on as it did
    /// (its own end of the stream follows); after, the rest of the latest reply is dropped.
    pub fn cancel(&mut self, t: u64) {
        if self.reenact {
            return;
        }
        let Some(round) = self.started.len().checked_sub(1) else { return };
        let before = self.events.len();
        self.events.retain(|e| !matches!(e.kind, EventKind::Stream { round: r, .. } if r == round));
        if self.events.len() < before || round >= self.recorded_rounds {
            self.extra.retain(|(_, m)| !matches!(m, Msg::StreamError(r) if r == NO_REPLY));
            self.extra.push_back((t, Msg::StreamCancelled));
        }
    }

    fn due_of(&self, e: &Event) -> Option<u64> {
        match &e.kind {
            EventKind::Stream { round, offset, .. } => {
                let start = *self.started.get(*round)?;
                Some(if self.reenact { e.t.max(start + offset) } else { start + offset })
            }
            EventKind::Input(_) | EventKind::Result(_) => Some(e.t),
        }
    }

    /// While re-enacting, the next cue can be a reply to a request the app has not made (the
    /// engine now behaves differently): drop it and say so. `None` when nothing is stuck.
    pub fn skip_blocked(&mut self) -> Option<String> {
        if !self.reenact || self.next().is_some() {
            return None;
        }
        let e = self.events.pop_front()?;
        match e.kind {
            EventKind::Stream { round, .. } => {
                Some(format!("the app never made request {round}; its reply is not played"))
            }
            EventKind::Input(_) | EventKind::Result(_) => None,
        }
    }

    /// Which queued event is next, and when: while re-enacting, strictly the recorded order; after,
    /// the earliest of each started reply's next part.
    fn next(&self) -> Option<(usize, u64)> {
        if self.reenact {
            let e = self.events.front()?;
            return self.due_of(e).map(|due| (0, due));
        }
        let mut best: Option<(usize, u64)> = None;
        let mut seen_rounds = Vec::new();
        for (i, e) in self.events.iter().enumerate() {
            let EventKind::Stream { round, .. } = e.kind else { continue };
            if seen_rounds.contains(&round) {
                continue;
            }
            seen_rounds.push(round);
            if let Some(due) = self.due_of(e)
                && best.is_none_or(|(_, b)| due < b)
            {
                best = Some((i, due));
            }
            if seen_rounds.len() >= self.started.len() {
                break;
            }
        }
        best
    }

    /// When the next cue is due (recorded time); `None` while nothing can come until the app
    /// asks for a request, or when all is played.
    pub fn next_due(&self) -> Option<u64> {
        let extra = self.extra.front().map(|(t, _)| *t);
        match (extra, self.next().map(|(_, due)| due)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The next cue if it is due at or before `now` (recorded time), with its due time.
    pub fn pop_due(&mut self, now: u64) -> Option<(u64, Cue)> {
        if let Some(&(t, _)) = self.extra.front()
            && t <= now
            && self.next().is_none_or(|(_, due)| t <= due)
        {
            return self.extra.pop_front().map(|(t, m)| (t, Cue::Msg(m)));
        }
        let (i, due) = self.next()?;
        if due > now {
            return None;
        }
        let event = self.events.remove(i)?;
        let cue = match event.kind {
            EventKind::Input(msg) | EventKind::Stream { msg, .. } => Cue::Msg(msg),
            EventKind::Result(key) => Cue::Carry(key),
        };
        Some((due, cue))
    }
}

/// Take the held effect a recorded outcome belongs to: the same hunk and path, else the first
/// one for the same path.
pub fn take_held(held: &mut Vec<AppEffect>, key: &ResultKey) -> Option<AppEffect> {
    let exact = held.iter().position(|e| match (e, key) {
        (AppEffect::Write { effect, undo }, ResultKey::Write { hunk, path, undo: u, .. }) => {
            undo == u && effect_target(effect) == (Some(*hunk), path.as_str())
        }
        (AppEffect::Read { path }, ResultKey::Read { path: p, .. }) => path == p,
        // The oldest job for the hunk: outcomes were recorded in the order they came.
        (AppEffect::Place(job), ResultKey::Placed { hunk }) => job.hunk == *hunk,
        (
            AppEffect::Write { effect: Effect::Read { path }, .. },
            ResultKey::Read { path: p, .. },
        ) => path == p,
        _ => false,
    });
    let by_path = || {
        held.iter().position(|e| match (e, key) {
            (AppEffect::Write { effect, .. }, ResultKey::Write { path, .. }) => {
                effect_target(effect).1 == path
            }
            _ => false,
        })
    };
    exact.or_else(by_path).map(|i| held.remove(i))
}

fn effect_target(effect: &Effect) -> (Option<HunkId>, &str) {
    match effect {
        Effect::Write { hunk, path, .. } | Effect::Delete { hunk, path, .. } => {
            (Some(*hunk), path.as_str())
        }
        Effect::Read { path } => (None, path.as_str()),
    }
}

/// Converts between wall time since a replay began and recorded time: recorded = wall × speed.
/// `speed: None` is `--instant`: every cue is due at once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Clock {
    pub speed: Option<f64>,
}

impl Clock {
    /// Recorded time (ms) reached after `wall`; `None` for instant replays (no pace).
    pub fn recorded_at(&self, wall: Duration) -> Option<u64> {
        self.speed.map(|s| (wall.as_secs_f64() * s.max(1e-3) * 1000.0) as u64)
    }

    /// Wall time at which recorded time `t` (ms) is reached.
    pub fn wall_at(&self, t: u64) -> Duration {
        match self.speed {
            Some(s) => Duration::from_secs_f64(t as f64 / 1000.0 / s.max(1e-3)),
            None => Duration::ZERO,
        }
    }
}

#[cfg(test)]
mod tests;
