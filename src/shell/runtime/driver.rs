//! Replaying without a terminal: the real loop ([`event_loop`]) fed from a recording, with no
//! input of its own, files in memory ([`MemoryDisk`]: the same check a real write makes), a
//! headless screen and a virtual clock, and everything that happens recorded again by a
//! [`Recorder`](crate::app::record::Recorder) so it can be compared with the recording.
//!
//! Not for: what is due when (`app::replay::Player`), comparing (`check`).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::app::record::Recorder;
use crate::app::replay::{Clock, Player, Script};
use crate::app::{App, AppEffect, Msg};
use crate::core::file::Source;
use crate::core::session::Record;
use crate::ui::theme::Theme;

use super::core::{Core, Fed, Log, Pace, Playing};
use super::disk::MemoryDisk;
use super::screen::Headless;
use super::{Io, Replies, event_loop};

/// Where a replayed recording left off, for a session to go on from ([`Driver::into_resume`]).
pub struct Resumed {
    pub app: App,
    /// What the journal records of the app.
    pub recorder: Recorder,
    /// The files as the recording left them.
    pub files: BTreeMap<String, Source>,
    /// The recorded time reached, ms.
    pub t: u64,
    /// The effects the recording ends before the outcome of, left held (`finish_held` off),
    /// for the session going on to carry out.
    pub held: Vec<AppEffect>,
}

/// A headless replay.
pub struct Driver {
    pub app: App,
    player: Option<Player>,
    recorder: Recorder,
    disk: Arc<MemoryDisk>,
    /// What the replay recorded: the same kinds of records as the journal.
    pub produced: Vec<Record>,
    /// Where the replay could not follow the recording.
    pub notes: Vec<String>,
    base: Instant,
    /// Recorded time of the last message fed.
    pub t: u64,
    /// Requests the app made.
    pub requests: usize,
    /// Carry out the effects still held when the recording is played out (a complete recording
    /// has none; a cut one may end before their outcome).
    pub finish_held: bool,
    /// The effects still held when the replay ended (`finish_held` off).
    held: Vec<AppEffect>,
    /// Hold writes and reads for their recorded outcome's place (`false`: carry them out at
    /// once, as a live session does; for recording a scripted session).
    pub hold: bool,
    /// The pace: cues are due at recorded time / speed of wall time.
    pub clock: Clock,
    /// Wall time the replay would have taken so far at that pace.
    pub wall: Duration,
    /// The app's start is still to be fed.
    started: bool,
}

impl Driver {
    /// A fresh app as the recording's started: its terminal size (its first request is made
    /// when the replay runs).
    pub fn new(script: &Script, reenact: bool) -> Driver {
        let mut app = script.new_app(script.app_config());
        let base = Instant::now();
        app.update(Msg::Resize(script.header.width, script.header.height), base);
        Driver {
            app,
            player: Some(Player::new(script, reenact)),
            recorder: Recorder::new(),
            disk: Arc::new(MemoryDisk::new(script.files.iter().cloned())),
            produced: Vec::new(),
            notes: Vec::new(),
            base,
            t: 0,
            requests: 0,
            finish_held: true,
            held: Vec::new(),
            hold: true,
            clock: Clock { speed: None },
            wall: Duration::ZERO,
            started: false,
        }
    }

    /// The files as the replay's disk holds them.
    pub fn files(&self) -> BTreeMap<String, Source> {
        self.disk.files()
    }

    /// Play the whole recording.
    pub fn run(&mut self) {
        self.run_with(|_, _| {});
    }

    /// Play the whole recording, calling `observe` with each message fed and the app after it.
    pub fn run_with(&mut self, mut observe: impl FnMut(&Fed, &App)) {
        let Some(player) = self.player.take() else { return };
        let mut core = Core::new(&mut self.app, self.base, self.t, Log::Memory(Vec::new()));
        core.recorder = std::mem::take(&mut self.recorder);
        core.pace = Pace::Virtual(self.wall);
        core.playing =
            Some(Playing { player, clock: self.clock, held: Vec::new(), hold: self.hold });
        core.observer = Some(&mut observe);
        let started = if self.started { Vec::new() } else { core.start() };
        self.started = true;
        let replies = Replies::Recorded;
        let theme = Theme::plain();
        let io = Io {
            input: futures_util::stream::pending(),
            reopen_input: None,
            screen: Headless::new(80, 24, false),
            disk: self.disk.clone(),
            replies: &replies,
            theme: &theme,
            syntax_theme: None,
            watch: None,
            signals: None,
            ticks: false,
            end_when_idle: true,
            finish_held: self.finish_held,
            show_recorded: None,
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a current-thread runtime");
        // The headless loop only ends by playing out: nothing in it can fail.
        let _ = runtime.block_on(event_loop(&mut core, io, started));
        let Core { recorder, log, t, notes, requests, pace, playing, .. } = core;
        self.recorder = recorder;
        self.held.extend(playing.into_iter().flat_map(|p| p.held));
        if let Log::Memory(records) = log {
            self.produced.extend(records);
        }
        self.t = t;
        self.notes.extend(notes);
        self.requests += requests;
        if let Pace::Virtual(wall) = pace {
            self.wall = wall;
        }
    }

    /// The app as the recording left it, the recorder that knows what was recorded of it, the
    /// files as the recording left them, and the recorded time reached: what resuming a
    /// session goes on from.
    pub fn into_resume(self) -> Resumed {
        let files = self.disk.files();
        Resumed { app: self.app, recorder: self.recorder, files, t: self.t, held: self.held }
    }

    /// The session's end, recorded as a live session records it.
    pub fn end(&mut self) {
        let end = self.recorder.end(&self.app, self.t);
        self.produced.push(end);
    }
}
