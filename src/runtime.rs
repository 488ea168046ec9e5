//! The review screen's event loop: one `tokio::select!` over the terminal's events, the
//! messages of the stream task and of finished effects, a tick, and the cues of a recording being
//! replayed. Each message goes through [`App::update`] (by way of a [`Recorder`] when the session
//! is journaled); the effects it returns are carried out here (writes through
//! [`Workspace::write`] with the content the review expects, reads, the editor, streams); a
//! frame is drawn when one is due. The terminal is restored on every way out, a panic included.
//!
//! Time: the app is handed `now` as the session's start plus whole milliseconds, the same
//! milliseconds the journal records, so a replay hands it the very same instants. A replay runs
//! on a virtual clock (recorded time = wall time × speed, see [`Clock`]); its cues are fed at
//! their recorded times.
//!
//! Not for: deciding anything (`app`), or drawing (`ui`).

use std::io::{self, Write};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use crossterm::event::{Event, EventStream, KeyEventKind, MouseButton, MouseEventKind};
use futures_util::StreamExt;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::app::record::Recorder;
use crate::app::replay::{Clock, Cue, Player, ResultKey, Script, take_held};
use crate::app::{App, AppEffect, Msg, StreamDone};
use crate::core::execute::After;
use crate::core::file::{FileWrite, Source};
use crate::core::review::Effect;
use crate::core::session::Record;
use crate::provider::{ChatMessage, ChatRequest, ProviderError, ProviderSettings, StreamMsg};
use crate::shell::journal::Journal;
use crate::shell::terminal::{self, StopSignals};
pub use crate::shell::terminal::{Ending, Stopped};
use crate::shell::watcher::Gate;
use crate::shell::workspace::{Workspace, WriteFailure};
use crate::ui::diff::DiffModel;
use crate::ui::highlight::{Background, Highlighter};
use crate::ui::theme::Theme;

mod watching;
use watching::{release_changes, start_known, start_watcher};

/// Where replies come from.
pub enum Replies {
    /// A model server.
    Provider { settings: Box<ProviderSettings>, max_tokens: Option<u32> },
    /// A recorded session's replies ([`Session::replay`]), each played when the app asks for it.
    Recorded,
    /// No model to ask (a resumed session whose provider is not configured): each request
    /// fails at once with this reason.
    Unavailable(String),
}

/// A recorded session taken up again where it ended (`redline resume`).
pub struct Resume {
    /// What the journal records of the app so far.
    pub recorder: Recorder,
    /// The recorded time the session reached, ms.
    pub t: u64,
    /// What happened since it ended, fed (and journaled) before anything else: the files that
    /// changed on disk, a stream the end cut off.
    pub since: Vec<Msg>,
}

/// Which changes on disk the loop follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Watch {
    /// None (the demo's scratch project, tests).
    Off,
    /// The files under review, through their folders.
    Files,
    /// The whole project (watch mode), honouring `.gitignore`.
    Project,
}

/// What the loop needs besides the app.
pub struct Session {
    pub workspace: Workspace,
    pub watch: Watch,
    pub replies: Replies,
    pub theme: Theme,
    /// The syntax theme to colour code with (`None`: no syntax colour).
    pub syntax_theme: Option<String>,
    /// Where the session is journaled; `None`: it is not.
    pub journal: Option<Journal>,
    /// A recording to play (`redline replay`, the demo).
    pub replay: Option<Replay>,
    /// A session resumed: its journal goes on, no request is sent at the start.
    pub resume: Option<Resume>,
}

/// A recording played in the review screen.
pub struct Replay {
    pub script: Script,
    pub clock: Clock,
    /// Re-enact the recorded inputs until the user presses a key; `false`: the user decides from
    /// the start (the demo).
    pub reenact: bool,
    /// Once the user takes over, show the recorded decision of the selected hunk.
    pub show_recorded: bool,
}

/// Run the review screen until the user quits or a stop signal arrives. The terminal is
/// restored on every way out: a return, an error, a panic (the hook) and a signal.
pub fn run(app: &mut App, session: Session) -> Result<Ending> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        terminal::restore();
        previous(info);
    }));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    // Listening before the terminal changes: a signal from then on cannot leave it raw.
    let signals =
        runtime.block_on(async { StopSignals::listen() }).context("cannot listen for signals")?;
    terminal::enter().context("cannot switch the terminal to full-screen mode")?;
    let _guard = terminal::Guard;
    let result = runtime.block_on(event_loop(app, session, signals));
    terminal::restore();
    // The hook stays: restoring an already restored terminal is harmless.
    result
}

/// The app, the clock and the journal: every message reaches the app through here.
struct Stepper<'a> {
    app: &'a mut App,
    base: Instant,
    recorder: Recorder,
    journal: Option<Journal>,
    /// Recorded time of the last message, ms since the start.
    t: u64,
}

impl Stepper<'_> {
    fn now(&self, t: u64) -> Instant {
        self.base + Duration::from_millis(t)
    }

    fn start(&mut self) -> Vec<AppEffect> {
        let now = self.now(self.t);
        let (effects, records) = self.recorder.start(self.app, now, self.t);
        self.journal_append(&records);
        effects
    }

    /// Feed a message at recorded time `t` (never before the last one's). A tick moves the
    /// spinner only: it is not recorded and does not move the recorded time on.
    fn update(&mut self, msg: Msg, t: u64) -> Vec<AppEffect> {
        if matches!(msg, Msg::Tick) {
            return self.app.update(msg, self.now(t.max(self.t)));
        }
        self.t = self.t.max(t);
        let now = self.now(self.t);
        if self.journal.is_none() {
            return self.app.update(msg, now);
        }
        let (effects, records) = self.recorder.update(self.app, msg, now, self.t);
        self.journal_append(&records);
        effects
    }

    fn journal_append(&mut self, records: &[Record]) {
        if let Some(journal) = &mut self.journal
            && let Some(warning) = journal.append(records)
        {
            self.app.notice = Some(warning);
        }
    }

    fn end(&mut self) {
        let end = self.recorder.end(self.app, self.t);
        self.journal_append(&[end]);
    }
}

async fn event_loop(
    app: &mut App,
    mut session: Session,
    mut signals: StopSignals,
) -> Result<Ending> {
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))
        .context("cannot draw on the terminal")?;
    let size = terminal.size().context("cannot read the terminal's size")?;
    if let Some(warning) = session.journal.as_mut().and_then(|j| j.begin(size.width, size.height)) {
        app.notice = Some(warning);
    }
    let resume = session.resume.take();
    let t = resume.as_ref().map_or(0, |r| r.t);
    // A resumed session's time goes on from where its journal ended.
    let now = Instant::now();
    let base = now.checked_sub(Duration::from_millis(t)).unwrap_or(now);
    let mut stepper =
        Stepper { app, base, recorder: Recorder::new(), journal: session.journal.take(), t };
    let started = match resume {
        Some(resume) => {
            stepper.recorder = resume.recorder;
            let mut effects = stepper.update(Msg::Resize(size.width, size.height), t);
            for msg in resume.since {
                effects.extend(stepper.update(msg, t));
            }
            effects
        }
        None => {
            stepper.app.update(Msg::Resize(size.width, size.height), base);
            stepper.start()
        }
    };
    let result = run_loop(&mut stepper, &session, &mut terminal, &mut signals, started).await;
    stepper.end();
    result
}

/// Recorded time now: wall time since the start, times the replay's speed.
fn clock_t(stepper: &Stepper<'_>, replay: Option<&Replay>) -> u64 {
    let wall = stepper.base.elapsed();
    let t = match replay {
        None => Some(wall.as_millis() as u64),
        Some(r) => r.clock.recorded_at(wall),
    };
    t.unwrap_or(stepper.t).max(stepper.t)
}

async fn run_loop(
    stepper: &mut Stepper<'_>,
    session: &Session,
    terminal: &mut Terminal<CrosstermBackend<io::Stdout>>,
    signals: &mut StopSignals,
    started: Vec<AppEffect>,
) -> Result<Ending> {
    let (tx, mut rx) = mpsc::unbounded_channel::<Msg>();
    let mut events = EventStream::new();
    let mut tick = tokio::time::interval(Duration::from_millis(80));
    let mut cancel = CancellationToken::new();
    let replay = session.replay.as_ref();
    let mut player = replay.map(|r| Player::new(&r.script, r.reenact));
    let mut held: Vec<AppEffect> = Vec::new();
    // Syntax colour comes from a thread of its own; frames use what has arrived.
    let (hl_tx, mut hl_rx) = mpsc::unbounded_channel();
    let mut colors = Highlighter::off();
    let mut background = session.syntax_theme.clone().map(|name| {
        Background::spawn(name, move |key, c| {
            let _ = hl_tx.send((key, c));
        })
    });
    if replay.is_some_and(|r| !r.reenact && r.show_recorded) {
        show_recorded(stepper.app, replay);
    }
    if let Some(r) = replay.filter(|r| r.reenact) {
        stepper.app.replay_badge = Some(match r.clock.speed {
            Some(speed) => format!("REPLAY ×{speed}"),
            None => "REPLAY instant".into(),
        });
    }
    let mut pending = started;
    let mut last_draw: Option<Instant> = None;
    let mut dirty = true;
    // Changes on disk: reported by the watcher's thread, held while a git operation runs.
    let (watch_tx, mut watch_rx) = mpsc::unbounded_channel();
    let mut watcher = start_watcher(session, watch_tx, &tx);
    let mut gate = Gate::default();
    // What each file was last seen to hold; in watch mode read from the whole project in a
    // thread of its own, and changes wait for it.
    let (known_tx, mut known_rx) = mpsc::unbounded_channel();
    let mut known = start_known(session, watcher.is_some(), known_tx);
    loop {
        if let Some(w) = watcher.as_mut()
            && session.watch == Watch::Files
        {
            for path in stepper.app.review.known_files() {
                if let Err(e) = w.follow(path) {
                    let _ = tx.send(Msg::WatchError(format!("{e:#}")));
                }
            }
        }
        for effect in std::mem::take(&mut pending) {
            let t = stepper.t;
            let reenacting = player.as_ref().is_some_and(Player::reenacting);
            match effect {
                // A recorded quit ends nothing: the replay stays on its last screen.
                AppEffect::Quit if reenacting => {}
                AppEffect::Quit => {
                    cancel.cancel();
                    return Ok(Ending::Quit);
                }
                AppEffect::StartStream { messages, .. } => match &mut player {
                    Some(p) => p.round_started(t),
                    None => {
                        cancel = CancellationToken::new();
                        start_stream(&session.replies, messages, tx.clone(), cancel.clone());
                    }
                },
                AppEffect::CancelStream => match &mut player {
                    Some(p) => p.cancel(t),
                    None => cancel.cancel(),
                },
                AppEffect::Write { .. } | AppEffect::Read { .. }
                    if player.as_ref().is_some_and(Player::holds_effects) =>
                {
                    held.push(effect)
                }
                AppEffect::Write { effect, undo } => {
                    let _ = tx.send(carry_out_write(&session.workspace, effect, undo));
                }
                AppEffect::Read { path } => {
                    let source = session.workspace.read_source(&path);
                    let _ = tx.send(Msg::FileRead { path, source });
                }
                // While re-enacting, the recorded editor's result comes in its time.
                AppEffect::OpenEditor { .. } if reenacting => {}
                AppEffect::OpenEditor { hunk, text } => {
                    let path = stepper.app.review.hunk(hunk).map(|h| h.path.clone());
                    terminal::restore();
                    let result = edit_in_editor(&text, path.as_deref());
                    terminal::enter().context("cannot return to full-screen mode")?;
                    terminal.clear().context("cannot redraw the terminal")?;
                    events = EventStream::new();
                    let _ = tx.send(Msg::EditorDone { hunk, result });
                }
            }
        }
        let due = last_draw.is_none_or(|t| t.elapsed() >= Duration::from_millis(16));
        if dirty && due {
            let app = &*stepper.app;
            // A conflict is drawn three ways, without the diff's syntax colour.
            if let (Some(h), Some(bg)) = (app.selected_hunk(), background.as_mut())
                && !h.state.is_conflict()
            {
                let model = DiffModel::of(h, app.review.source(&h.path));
                if colors.get(h.id, &model).is_none() {
                    bg.request(h.id, &h.path, &model);
                }
            }
            terminal
                .draw(|f| crate::ui::draw(f, app, &session.theme, &colors))
                .context("cannot draw on the terminal")?;
            last_draw = Some(Instant::now());
            dirty = false;
        }
        // The next recorded cue, as a wall-clock instant.
        let cue_at = match (&mut player, replay) {
            (Some(p), Some(r)) => {
                while p.next_due().is_none() && p.skip_blocked().is_some() {}
                p.next_due().map(|t| stepper.base + r.clock.wall_at(t))
            }
            _ => None,
        };
        let msg = tokio::select! {
            ev = events.next() => match ev {
                Some(Ok(Event::Key(k))) if k.kind != KeyEventKind::Release => Msg::Key(k.into()),
                Some(Ok(Event::Mouse(m))) => match m.kind {
                    MouseEventKind::ScrollDown => {
                        Msg::Scroll { down: true, at: Some((m.column, m.row)) }
                    }
                    MouseEventKind::ScrollUp => {
                        Msg::Scroll { down: false, at: Some((m.column, m.row)) }
                    }
                    MouseEventKind::Down(MouseButton::Left) => {
                        Msg::Click { column: m.column, row: m.row }
                    }
                    _ => continue,
                },
                Some(Ok(Event::Resize(w, h))) => Msg::Resize(w, h),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e).context("cannot read the terminal's input"),
                None => return Ok(Ending::Quit),
            },
            // Effects are carried out whole at the top of the loop, so no write is under way
            // here: stopping now leaves every file wholly old or wholly new.
            signal = signals.recv() => {
                cancel.cancel();
                return Ok(Ending::Signal(signal));
            }
            Some(m) = rx.recv() => m,
            Some((key, c)) = hl_rx.recv() => {
                colors.insert(key, c);
                dirty = true;
                continue;
            }
            _ = sleep_until(cue_at), if cue_at.is_some() => {
                if let Some(p) = &mut player {
                    // One cue at a time: the effects it causes are held (or carried out) at the
                    // top of the loop before the next cue, which may be their outcome. Its time
                    // has come (`--instant`: at once), whatever rounding the clock does.
                    let now = match replay.and_then(|r| r.clock.speed) {
                        Some(_) => clock_t(stepper, replay).max(p.next_due().unwrap_or(0)),
                        None => u64::MAX,
                    };
                    if let Some((t, cue)) = p.pop_due(now) {
                        pending.extend(play(stepper, session, &mut held, cue, t));
                    }
                    if p.finished() {
                        // A cut recording: what it ends before the outcome of is done now.
                        pending.append(&mut held);
                    }
                }
                dirty = true;
                continue;
            }
            Some((k, triggers)) = known_rx.recv() => {
                let files = k.len();
                known = Some(k);
                Msg::WatchReady { files, triggers }
            }
            Some(report) = watch_rx.recv() => match report {
                Ok(batch) => {
                    gate.batch(batch, Instant::now());
                    continue;
                }
                Err(why) => Msg::WatchError(why),
            },
            _ = tick.tick() => {
                if let Some(known) = known.as_mut() {
                    release_changes(stepper.app, &session.workspace, &mut gate, known, &tx);
                }
                Msg::Tick
            }
        };
        let is_key = matches!(msg, Msg::Key(_) | Msg::Resize(..));
        // A tick changes what is shown only while the status line's clock runs: an idle screen
        // is not drawn again (idle CPU ~0).
        let mut changed = !matches!(msg, Msg::Tick) || stepper.app.clock_running();
        if let Some(p) = &mut player
            && p.reenacting()
            && matches!(msg, Msg::Key(_) | Msg::Scroll { .. } | Msg::Click { .. })
        {
            // The user takes over: recorded inputs stop, held effects are carried out, and the
            // app learns the real terminal's size (it was given the recorded ones).
            p.take_over();
            stepper.app.replay_badge = Some("REPLAY · you decide".into());
            pending.append(&mut held);
            let size = terminal.size().context("cannot read the terminal's size")?;
            let t = clock_t(stepper, replay);
            pending.extend(stepper.update(Msg::Resize(size.width, size.height), t));
            if replay.is_some_and(|r| r.show_recorded) {
                show_recorded(stepper.app, replay);
            }
        }
        let t = clock_t(stepper, replay);
        pending.extend(stepper.update(msg, t));
        // Take what else has arrived before drawing, so a fast stream costs one frame per batch.
        let mut n = 0;
        while n < 512 {
            let Ok(m) = rx.try_recv() else { break };
            let t = clock_t(stepper, replay);
            pending.extend(stepper.update(m, t));
            n += 1;
            changed = true;
        }
        dirty |= changed || !pending.is_empty();
        if is_key {
            last_draw = None;
        }
    }
}

async fn sleep_until(at: Option<Instant>) {
    if let Some(at) = at {
        tokio::time::sleep_until(at.into()).await;
    }
}

/// The recorded decisions, for the hunk list and status line.
fn show_recorded(app: &mut App, replay: Option<&Replay>) {
    if let Some(r) = replay {
        app.recorded = r.script.decisions.clone();
    }
}

/// Make the replay's copy of a file hold what another program had put there when recorded.
fn replay_change(stepper: &mut Stepper<'_>, session: &Session, path: &str, source: &Source) {
    let write = match source {
        Source::Text(text) => Some(FileWrite::Write { path: path.to_string(), text: text.clone() }),
        Source::Missing => Some(FileWrite::Delete { path: path.to_string() }),
        Source::Unusable(_) => None,
    };
    let before = session.workspace.read_source(path);
    if before == *source {
        return;
    }
    if let Some(w) = write
        && let Err(e) = session.workspace.write(&w, Some(&before))
    {
        stepper.app.notice = Some(format!("replay: cannot change {path} as recorded: {e}"));
    }
}

/// Play one recorded cue at recorded time `t`: an input (a file changed on disk is written to
/// the replay's copy first), or the held effect a recorded outcome belongs to.
fn play(
    stepper: &mut Stepper<'_>,
    session: &Session,
    held: &mut Vec<AppEffect>,
    cue: Cue,
    t: u64,
) -> Vec<AppEffect> {
    let msg = match cue {
        Cue::Msg(msg) => {
            if let Msg::FileChanged { path, source } = &msg {
                replay_change(stepper, session, path, source);
            }
            msg
        }
        Cue::Carry(key) => {
            let Some(effect) = take_held(held, &key) else { return Vec::new() };
            // A write that met another program's text: that text goes to the copy first.
            if let ResultKey::Write { path, found: Some(source), .. } = &key {
                replay_change(stepper, session, path, source);
            }
            match effect {
                AppEffect::Write { effect, undo } => {
                    carry_out_write(&session.workspace, effect, undo)
                }
                AppEffect::Read { path } => {
                    let source = session.workspace.read_source(&path);
                    Msg::FileRead { path, source }
                }
                other => {
                    held.push(other);
                    return Vec::new();
                }
            }
        }
    };
    stepper.update(msg, t)
}

/// Carry out a review write, refusing if the file no longer holds what the review expects: the
/// message that reports it (done, stale with what the file holds now, or failed).
pub fn carry_out_write(workspace: &Workspace, effect: Effect, undo: bool) -> Msg {
    let (hunk, path, expected, write, after) = match effect {
        Effect::Write { hunk, path, expected, text } => {
            let w = FileWrite::Write { path: path.clone(), text: text.clone() };
            (hunk, path, expected, w, After::Text(text))
        }
        Effect::Delete { hunk, path, expected } => {
            let w = FileWrite::Delete { path: path.clone() };
            (hunk, path, Some(expected), w, After::Deleted)
        }
        Effect::Read { path } => {
            let source = workspace.read_source(&path);
            return Msg::FileRead { path, source };
        }
    };
    let read = expected.map_or(Source::Missing, Source::Text);
    match workspace.write(&write, Some(&read)) {
        Ok(()) => Msg::WriteDone { hunk, path, after, undo },
        Err(e) if matches!(e.failure, WriteFailure::Changed(_)) => {
            let source = workspace.read_source(&path);
            Msg::WriteStale { hunk, path, source, undo }
        }
        Err(e) => Msg::WriteFailed { hunk, path, reason: e.to_string(), undo },
    }
}

/// `$VISUAL`, `$EDITOR` or `vi` on a temporary file holding `text`, named with the hunk's
/// file's extension (so the editor colours and indents it as that language); the saved text.
fn edit_in_editor(text: &str, path: Option<&str>) -> Result<String, String> {
    let suffix = path
        .and_then(|p| std::path::Path::new(p).extension())
        .map_or_else(|| ".txt".to_string(), |e| format!(".{}", e.to_string_lossy()));
    let mut file = tempfile::Builder::new()
        .prefix("redline-hunk-")
        .suffix(&suffix)
        .tempfile()
        .map_err(|e| format!("cannot create a temporary file: {e}"))?;
    file.write_all(text.as_bytes()).map_err(|e| format!("cannot write the temporary file: {e}"))?;
    let editor = std::env::var("VISUAL")
        .or_else(|_| std::env::var("EDITOR"))
        .unwrap_or_else(|_| "vi".to_string());
    let mut parts = editor.split_whitespace();
    let program = parts.next().unwrap_or("vi");
    let status = std::process::Command::new(program)
        .args(parts)
        .arg(file.path())
        .status()
        .map_err(|e| format!("cannot run `{editor}`: {e} (set $EDITOR)"))?;
    if !status.success() {
        return Err(format!("`{editor}` exited with {status}; the hunk is unchanged"));
    }
    std::fs::read_to_string(file.path()).map_err(|e| format!("cannot read the edited text: {e}"))
}

fn start_stream(
    replies: &Replies,
    messages: Vec<ChatMessage>,
    tx: mpsc::UnboundedSender<Msg>,
    cancel: CancellationToken,
) {
    match replies {
        // The replay's player streams recorded replies.
        Replies::Recorded => {}
        Replies::Unavailable(why) => {
            let _ = tx.send(Msg::StreamError(why.clone()));
        }
        Replies::Provider { settings, max_tokens } => {
            let settings = settings.clone();
            let req = ChatRequest {
                model: settings.model.clone(),
                messages,
                max_tokens: *max_tokens,
                temperature: None,
            };
            tokio::spawn(async move {
                let (stx, mut srx) = mpsc::channel(256);
                let task = crate::provider::stream_chat(&settings, &req, stx, cancel);
                tokio::pin!(task);
                let mut result = None;
                loop {
                    tokio::select! {
                        r = &mut task, if result.is_none() => result = Some(r),
                        m = srx.recv() => match m {
                            Some(StreamMsg::Text(t)) => { let _ = tx.send(Msg::Chunk(t)); }
                            // The review shows the outcome; retries and skipped events
                            // leave the reply as it is.
                            Some(StreamMsg::Retrying { .. } | StreamMsg::Skipped(_)) => {}
                            None => break,
                        },
                    }
                }
                let msg = match result.unwrap_or(Err(ProviderError::Cancelled)) {
                    Ok(summary) => Msg::StreamEnd(StreamDone {
                        output_tokens: summary.usage.and_then(|u| u.output_tokens),
                        note: summary.end.hit_token_limit().then(|| {
                            "the reply hit the token limit and may be incomplete".to_string()
                        }),
                    }),
                    Err(ProviderError::Cancelled) => Msg::StreamError("cancelled".into()),
                    Err(e) => Msg::StreamError(e.to_string()),
                };
                let _ = tx.send(msg);
            });
        }
    }
}
