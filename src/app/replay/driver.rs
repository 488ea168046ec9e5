//! Replaying without a terminal: a fresh [`App`] fed the recorded cues at their recorded times,
//! its effects carried out against an in-memory copy of the files (with the same check a real
//! write makes: the file must still hold what the review expects), and everything that happens
//! recorded again by a [`Recorder`], so it can be compared with the recording.

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

use crate::app::record::Recorder;
use crate::app::{App, AppEffect, Msg};
use crate::core::execute::After;
use crate::core::file::Source;
use crate::core::review::Effect;
use crate::core::session::Record;

use super::{Clock, Cue, Player, Script, take_held};

/// A headless replay in progress.
pub struct Driver {
    pub app: App,
    pub player: Player,
    recorder: Recorder,
    /// Effects waiting for their recorded place.
    held: Vec<AppEffect>,
    /// Results of effects carried out at once, to be fed next.
    ready: VecDeque<Msg>,
    /// The files as the replay's disk holds them.
    pub files: BTreeMap<String, Source>,
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
    /// Hold writes and reads for their recorded outcome's place (`false`: carry them out at
    /// once, as a live session does; for recording a scripted session).
    pub hold: bool,
    /// The pace: cues are due at recorded time / speed of wall time.
    pub clock: Clock,
    /// Wall time the replay would have taken so far at that pace.
    pub wall: Duration,
}

/// What one step fed to the app.
#[derive(Debug, Clone, PartialEq)]
pub struct Fed {
    pub t: u64,
    pub msg: Msg,
}

impl Driver {
    /// A fresh app as the recording's started: its terminal size, then its first request.
    pub fn new(script: &Script, reenact: bool) -> Driver {
        let mut app = script.new_app(script.app_config());
        let base = Instant::now();
        app.update(Msg::Resize(script.header.width, script.header.height), base);
        let mut driver = Driver {
            app,
            player: Player::new(script, reenact),
            recorder: Recorder::new(),
            held: Vec::new(),
            ready: VecDeque::new(),
            files: script.files.iter().cloned().collect(),
            produced: Vec::new(),
            notes: Vec::new(),
            base,
            t: 0,
            requests: 0,
            finish_held: true,
            hold: true,
            clock: Clock { speed: None },
            wall: Duration::ZERO,
        };
        let (effects, records) = driver.recorder.start(&mut driver.app, base, 0);
        driver.produced.extend(records);
        driver.effects(effects);
        driver
    }

    /// The instant the app sees at recorded time `t`.
    pub fn instant(&self, t: u64) -> Instant {
        self.base + Duration::from_millis(t)
    }

    /// Feed the next cue (or effect result); `None` when the recording is played out and every
    /// effect carried out.
    pub fn step(&mut self) -> Option<Fed> {
        loop {
            if let Some(msg) = self.ready.pop_front() {
                return Some(self.feed(msg, self.t));
            }
            match self.player.next_due() {
                Some(due) => {
                    // Waiting for the cue: the wall clock moves on to when it is due.
                    self.wall = self.wall.max(self.clock.wall_at(due));
                    let now = self.clock.recorded_at(self.wall).unwrap_or(due).max(due);
                    let Some((due, cue)) = self.player.pop_due(now) else { continue };
                    let t = due.max(self.t);
                    match cue {
                        Cue::Msg(msg) => {
                            if let Msg::FileChanged { path, source } = &msg {
                                self.files.insert(path.clone(), source.clone());
                            }
                            return Some(self.feed(msg, t));
                        }
                        Cue::Carry(key) => match take_held(&mut self.held, &key) {
                            Some(effect) => {
                                match &key {
                                    super::ResultKey::Read { path, source }
                                    | super::ResultKey::Write {
                                        path, found: Some(source), ..
                                    } => {
                                        self.files.insert(path.clone(), source.clone());
                                    }
                                    super::ResultKey::Write { .. } => {}
                                }
                                let msg = self.carry_out(effect)?;
                                return Some(self.feed(msg, t));
                            }
                            None => self.notes.push(format!(
                                "the recording has an outcome the app did not ask for: {key:?}"
                            )),
                        },
                    }
                }
                None if self.player.reenacting() && !self.player.finished() => {
                    if let Some(note) = self.player.skip_blocked()
                        && !self.notes.contains(&note)
                    {
                        self.notes.push(note);
                    }
                }
                None => {
                    // Played out: effects still held were never recorded; carry them out now.
                    if self.held.is_empty() || !self.finish_held {
                        return None;
                    }
                    let effect = self.held.remove(0);
                    if let Some(msg) = self.carry_out(effect) {
                        self.ready.push_back(msg);
                    }
                }
            }
        }
    }

    /// Play the whole recording.
    pub fn run(&mut self) {
        while self.step().is_some() {}
    }

    /// The app as the recording left it, the recorder that knows what was recorded of it, the
    /// files as the recording left them, and the recorded time reached: what resuming a
    /// session goes on from.
    pub fn into_resume(self) -> (App, Recorder, BTreeMap<String, Source>, u64) {
        (self.app, self.recorder, self.files, self.t)
    }

    /// The session's end, recorded as a live session records it.
    pub fn end(&mut self) {
        let end = self.recorder.end(&self.app, self.t);
        self.produced.push(end);
    }

    fn feed(&mut self, msg: Msg, t: u64) -> Fed {
        self.t = t;
        let now = self.instant(t);
        let (effects, records) = self.recorder.update(&mut self.app, msg.clone(), now, t);
        self.produced.extend(records);
        self.effects(effects);
        Fed { t, msg }
    }

    fn effects(&mut self, effects: Vec<AppEffect>) {
        for effect in effects {
            match effect {
                AppEffect::StartStream { .. } => {
                    self.requests += 1;
                    self.player.round_started(self.t);
                }
                AppEffect::CancelStream => self.player.cancel(self.t),
                AppEffect::Write { .. } | AppEffect::Read { .. } => {
                    if self.hold && self.player.holds_effects() {
                        self.held.push(effect);
                    } else if let Some(msg) = self.carry_out(effect) {
                        self.ready.push_back(msg);
                    }
                }
                // No editor without a terminal: while re-enacting, the recorded result comes.
                AppEffect::OpenEditor { .. } | AppEffect::Quit => {}
            }
        }
    }

    /// Carry out a write or read against the in-memory files; the message that reports it.
    fn carry_out(&mut self, effect: AppEffect) -> Option<Msg> {
        let (effect, undo) = match effect {
            AppEffect::Write { effect, undo } => (effect, undo),
            AppEffect::Read { path } => (Effect::Read { path }, false),
            _ => return None,
        };
        let (hunk, path, expected, after) = match effect {
            Effect::Read { path } => {
                let source = self.files.get(&path).cloned().unwrap_or(Source::Missing);
                return Some(Msg::FileRead { path, source });
            }
            Effect::Write { hunk, path, expected, text } => {
                (hunk, path, expected.map_or(Source::Missing, Source::Text), After::Text(text))
            }
            Effect::Delete { hunk, path, expected } => {
                (hunk, path, Source::Text(expected), After::Deleted)
            }
        };
        let now = self.files.get(&path).cloned().unwrap_or(Source::Missing);
        let refusal = match (&expected, &now) {
            (a, b) if a == b => None,
            (_, Source::Unusable(why)) => Some(format!("cannot be edited ({why}); not written")),
            (Source::Missing, _) => Some(changed("it was created")),
            (_, Source::Missing) => Some(changed("it was deleted")),
            _ => Some(changed("its content differs")),
        };
        Some(match refusal {
            // As the runtime does: a file changed under the write is read again.
            Some(_) if !matches!(now, Source::Unusable(_)) => {
                Msg::WriteStale { hunk, path, source: now, undo }
            }
            Some(why) => Msg::WriteFailed { hunk, reason: format!("{path}: {why}"), path, undo },
            None => {
                let source = match &after {
                    After::Text(t) => Source::Text(t.clone()),
                    After::Deleted => Source::Missing,
                };
                self.files.insert(path.clone(), source);
                Msg::WriteDone { hunk, path, after, undo }
            }
        })
    }
}

fn changed(what: &str) -> String {
    format!("changed on disk since redline read it ({what}); not written")
}
