//! The loop's state that is not I/O: the app with its clock and its journal ([`Core::update`]:
//! every message reaches the app through here), a replay's player with the effects it holds,
//! and the one interpretation of the app's effects into the [`Action`]s the loop carries out.
//!
//! Time: the app is handed `now` as the session's start plus whole milliseconds, the same
//! milliseconds the journal records, so a replay hands it the very same instants. A replay runs
//! on a clock of its own (recorded time = wall time × speed, see [`Clock`]); a headless one on a
//! virtual wall clock ([`Pace::Virtual`]) that jumps to each cue.
//!
//! Not for: waiting on anything, touching the disk or the terminal (`event_loop`, `disk`).

use std::time::{Duration, Instant};

use crate::app::record::Recorder;
use crate::app::replay::{Clock, Cue, Player, ResultKey, take_held};
use crate::app::{App, AppEffect, Msg};
use crate::core::file::Source;
use crate::core::parse::ParseOptions;
use crate::core::review::HunkId;
use crate::core::session::Record;
use crate::provider::ChatMessage;
use crate::shell::journal::Writer;

use super::disk::{Job, Work};

/// Where what happens is recorded.
pub enum Log {
    Off,
    /// A session journal on disk, written by a thread of its own.
    Journal(Writer),
    /// Records kept in memory (a headless replay compares them with the recording).
    Memory(Vec<Record>),
}

/// One message fed to the app, at recorded time `t`.
#[derive(Debug, Clone, PartialEq)]
pub struct Fed {
    pub t: u64,
    pub msg: Msg,
}

/// What the loop is to do for the app.
pub enum Action {
    Disk(Job),
    /// Send the request; its reply is parsed with these options on the stream's side.
    Stream(Vec<ChatMessage>, ParseOptions),
    CancelStream,
    Editor {
        hunk: HunkId,
        text: String,
    },
    /// Follow a file's changes on disk.
    Follow(String),
    Quit,
}

/// How wall time passes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pace {
    /// The real clock.
    Real,
    /// A clock that stands still until the loop moves it to the next cue (headless replays:
    /// no waiting, the same recorded times).
    Virtual(Duration),
}

/// A recording being played.
pub struct Playing {
    pub player: Player,
    pub clock: Clock,
    /// Effects waiting for their recorded outcome's place.
    pub held: Vec<AppEffect>,
    /// Hold writes and reads while re-enacting (`false`: carry them out at once, as a live
    /// session does; for recording a scripted session).
    pub hold: bool,
}

/// Watches every message fed (tests, frame-by-frame replays).
pub type Observer<'a> = &'a mut dyn FnMut(&Fed, &App);

pub struct Core<'a> {
    pub app: &'a mut App,
    pub base: Instant,
    pub recorder: Recorder,
    pub log: Log,
    /// Recorded time of the last message, ms since the start.
    pub t: u64,
    pub pace: Pace,
    pub playing: Option<Playing>,
    /// Where a replay could not follow its recording.
    pub notes: Vec<String>,
    /// Requests the app made.
    pub requests: usize,
    pub observer: Option<Observer<'a>>,
}

impl<'a> Core<'a> {
    pub fn new(app: &'a mut App, base: Instant, t: u64, log: Log) -> Core<'a> {
        Core {
            app,
            base,
            recorder: Recorder::new(),
            log,
            t,
            pace: Pace::Real,
            playing: None,
            notes: Vec::new(),
            requests: 0,
            observer: None,
        }
    }

    fn now(&self, t: u64) -> Instant {
        self.base + Duration::from_millis(t)
    }

    /// The app's start, recorded.
    pub fn start(&mut self) -> Vec<AppEffect> {
        let now = self.now(self.t);
        let (effects, records) = self.recorder.start(self.app, now, self.t);
        self.append(records);
        effects
    }

    /// Feed a message at recorded time `t` (never before the last one's). A message that changes
    /// only what is shown (a tick, a notice) is not recorded and does not move the recorded
    /// time on.
    pub fn update(&mut self, msg: Msg, t: u64) -> Vec<AppEffect> {
        if msg.is_view_only() {
            return self.app.update(msg, self.now(t.max(self.t)));
        }
        self.t = self.t.max(t);
        let now = self.now(self.t);
        let fed = self.observer.is_some().then(|| Fed { t: self.t, msg: msg.clone() });
        let effects = if matches!(self.log, Log::Off) {
            self.app.update(msg, now)
        } else {
            let (effects, records) = self.recorder.update(self.app, msg, now, self.t);
            self.append(records);
            effects
        };
        if let (Some(observe), Some(fed)) = (self.observer.as_mut(), fed) {
            observe(&fed, self.app);
        }
        effects
    }

    fn append(&mut self, records: Vec<Record>) {
        match &mut self.log {
            Log::Off => {}
            Log::Memory(all) => all.extend(records),
            Log::Journal(writer) => {
                writer.append(records);
                if let Some(warning) = writer.failure() {
                    self.app.update(Msg::Notice(warning), self.now(self.t));
                }
            }
        }
    }

    /// The session's end, recorded.
    pub fn end(&mut self) {
        let end = self.recorder.end(self.app, self.t);
        self.append(vec![end]);
    }

    /// Wall time since the start.
    pub fn wall(&self) -> Duration {
        match self.pace {
            Pace::Real => self.base.elapsed(),
            Pace::Virtual(wall) => wall,
        }
    }

    /// Recorded time now: wall time since the start, times a replay's speed.
    pub fn clock_t(&self) -> u64 {
        let wall = self.wall();
        let t = match &self.playing {
            None => Some(wall.as_millis() as u64),
            Some(p) => p.clock.recorded_at(wall),
        };
        t.unwrap_or(self.t).max(self.t)
    }

    fn reenacting(&self) -> bool {
        self.playing.as_ref().is_some_and(|p| p.player.reenacting())
    }

    /// The one interpretation of the app's effects: what the loop must do for each, the
    /// replay's part in it (recorded replies, effects held for their recorded place) included.
    pub fn interpret(&mut self, effects: Vec<AppEffect>) -> Vec<Action> {
        let mut actions = Vec::new();
        for effect in effects {
            let t = self.t;
            let reenacting = self.reenacting();
            let playing = self.playing.as_mut();
            match effect {
                // A recorded quit ends nothing: the replay stays on its last screen.
                AppEffect::Quit if reenacting => {}
                AppEffect::Quit => actions.push(Action::Quit),
                AppEffect::StartStream { messages, parse, .. } => {
                    self.requests += 1;
                    match playing {
                        Some(p) => p.player.round_started(t),
                        None => actions.push(Action::Stream(messages, parse)),
                    }
                }
                AppEffect::CancelStream => match playing {
                    Some(p) => p.player.cancel(t),
                    None => actions.push(Action::CancelStream),
                },
                AppEffect::Write { .. } | AppEffect::Read { .. }
                    if playing.as_ref().is_some_and(|p| p.hold && p.player.holds_effects()) =>
                {
                    if let Some(p) = playing {
                        p.held.push(effect);
                    }
                }
                AppEffect::Write { .. } | AppEffect::Read { .. } => {
                    actions.extend(disk_job(effect, None).map(Action::Disk));
                }
                AppEffect::Place(_)
                    if playing.as_ref().is_some_and(|p| p.hold && p.player.holds_placing()) =>
                {
                    if let Some(p) = playing {
                        p.held.push(effect);
                    }
                }
                AppEffect::Place(job) => actions.push(Action::Disk(Job::new(Work::Place(job)))),
                // While re-enacting, the recorded editor's result comes in its time.
                AppEffect::OpenEditor { .. } if reenacting => {}
                AppEffect::OpenEditor { hunk, text } => actions.push(Action::Editor { hunk, text }),
                AppEffect::Follow { path } => actions.push(Action::Follow(path)),
            }
        }
        actions
    }

    /// When the next recorded cue is due (recorded time); replies to requests the app never
    /// made are dropped on the way, and noted.
    pub fn next_cue(&mut self) -> Option<u64> {
        let p = self.playing.as_mut()?;
        loop {
            if let Some(due) = p.player.next_due() {
                return Some(due);
            }
            let note = p.player.skip_blocked()?;
            if !self.notes.contains(&note) {
                self.notes.push(note);
            }
        }
    }

    /// Play the next cue if it is due by the clock: a message for the app (its effects), or a
    /// disk job (another program's change re-enacted first, a held effect carried out).
    pub fn play_due(&mut self) -> (Vec<AppEffect>, Option<Job>) {
        let Some(due) = self.next_cue() else { return (Vec::new(), None) };
        let Some(p) = &self.playing else { return (Vec::new(), None) };
        // Its time has come (`--instant`: at once), whatever rounding the clock does.
        let now = match p.clock.speed {
            Some(_) => self.clock_t().max(due),
            None => u64::MAX,
        };
        let Some(p) = self.playing.as_mut() else { return (Vec::new(), None) };
        let Some((t, cue)) = p.player.pop_due(now) else { return (Vec::new(), None) };
        // What the cue brings is fed at its time, even when it comes back from the disk later.
        self.t = self.t.max(t);
        match cue {
            Cue::Msg(Msg::FileChanged { path, source }) => {
                let put = Some((path.clone(), source.clone()));
                (Vec::new(), Some(Job { put, work: Work::Feed(Msg::FileChanged { path, source }) }))
            }
            Cue::Msg(msg) => (self.update(msg, t), None),
            Cue::Carry(key) => (Vec::new(), self.carry(key)),
        }
    }

    /// The held effect a recorded outcome belongs to, as a job; the file first made to hold
    /// what the recording says it met.
    fn carry(&mut self, key: ResultKey) -> Option<Job> {
        let p = self.playing.as_mut()?;
        let Some(effect) = take_held(&mut p.held, &key) else {
            self.notes
                .push(format!("the recording has an outcome the app did not ask for: {key:?}"));
            return None;
        };
        let put = match key {
            ResultKey::Read { path, source }
            | ResultKey::Write { path, found: Some(source), .. } => Some((path, source)),
            ResultKey::Write { .. } | ResultKey::Placed { .. } => None,
        };
        disk_job(effect, put)
    }

    /// The effects still held when the recording is played out (a cut recording ends before
    /// their outcome), as jobs.
    pub fn release_held(&mut self) -> Vec<Job> {
        let Some(p) = self.playing.as_mut() else { return Vec::new() };
        if !p.player.finished() {
            return Vec::new();
        }
        self.carry_held()
    }

    /// The user takes over a replay: recorded inputs stop; the held effects, as jobs.
    pub fn take_over(&mut self) -> Vec<Job> {
        let Some(p) = self.playing.as_mut() else { return Vec::new() };
        p.player.take_over();
        let jobs = self.carry_held();
        self.update(
            Msg::ReplayBadge { badge: "REPLAY · you decide".into(), reenacting: false },
            self.t,
        );
        jobs
    }

    /// The held effects, as jobs, but writes the recording never made: the app hears those
    /// were not carried out ([`Player::stray`]).
    fn carry_held(&mut self) -> Vec<Job> {
        let Some(p) = self.playing.as_mut() else { return Vec::new() };
        let (mut told, mut jobs) = (Vec::new(), Vec::new());
        for effect in std::mem::take(&mut p.held) {
            match p.player.stray(&effect) {
                Some(msg) => told.push(msg),
                None => jobs.extend(disk_job(effect, None)),
            }
        }
        for msg in told {
            // A failed write asks for nothing more.
            let _ = self.update(msg, self.t);
        }
        jobs
    }
}

fn disk_job(effect: AppEffect, put: Option<(String, Source)>) -> Option<Job> {
    let work = match effect {
        AppEffect::Write { effect, undo } => Work::Write { effect, undo },
        AppEffect::Read { path } => Work::Read { path },
        AppEffect::Place(job) => Work::Place(job),
        _ => return None,
    };
    Some(Job { put, work })
}
