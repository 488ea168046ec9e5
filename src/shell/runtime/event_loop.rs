//! The review screen's one event loop, generic over its input (a [`Stream`] of terminal
//! events: the real terminal's, or keys a test sends) and its disk (the real workspace, or
//! files in memory). One `tokio::select!` over the input, the results of disk work, the
//! stream task's messages, a tick, the cues of a recording being replayed, and changes on disk.
//! Each message goes through [`Core::update`]; the effects it returns are interpreted by
//! [`Core::interpret`] and carried out here; disk work goes to the worker (`disk`) and comes back
//! as a message; a frame is drawn when one is due.
//!
//! A replay plays one cue at a time: the next waits until the disk work the last one caused
//! has come back, so a replay feeds the app the same messages in the same order every time.
//!
//! Not for: deciding anything (`app`), drawing (`ui`), carrying out a write (`disk`).

use std::collections::BTreeMap;
use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use crossterm::event::{Event, KeyEventKind, MouseButton, MouseEventKind};
use futures_util::{Stream, StreamExt};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::app::{AppEffect, Msg};
use crate::core::review::HunkId;
use crate::shell::terminal::{Ending, Signal, StopSignals};
use crate::shell::workspace::Workspace;
use crate::ui::highlight::{Background, Highlighter, HunkColors};
use crate::ui::theme::Theme;

use super::core::{Action, Core, Pace};
use super::disk::{Disk, Done, Worker};
use super::screen::Screen;
use super::stream::{edit_in_editor, start_stream};
use super::watching::{self, Follower};
use super::{Replies, Watch};

/// What the loop works with besides the app.
pub struct Io<'s, S, Sc> {
    pub input: S,
    /// A fresh input after the terminal was lent to the editor (its reader must not keep
    /// what the editor was typed).
    pub reopen_input: Option<fn() -> S>,
    pub screen: Sc,
    pub disk: Arc<dyn Disk>,
    pub replies: &'s Replies,
    pub theme: &'s Theme,
    /// The syntax theme to colour code with (`None`: no syntax colour).
    pub syntax_theme: Option<String>,
    /// The project whose changes are followed, and which of them.
    pub watch: Option<(&'s Workspace, Watch)>,
    pub signals: Option<StopSignals>,
    /// Tick every 80 ms (the spinner, the status line's clock, releasing changes on disk).
    pub ticks: bool,
    /// End once nothing is left to play or carry out (a headless replay); otherwise the loop
    /// runs until a quit, the input's end or a signal.
    pub end_when_idle: bool,
    /// Carry out the effects still held when a recording is played out (`false`: they stay
    /// held).
    pub finish_held: bool,
    /// A replay's recorded decisions, shown once the user takes over.
    pub show_recorded: Option<BTreeMap<HunkId, String>>,
}

struct Loop<'s, S, Sc> {
    io: Io<'s, S, Sc>,
    tx: mpsc::UnboundedSender<Msg>,
    rx: mpsc::UnboundedReceiver<Msg>,
    done_rx: mpsc::UnboundedReceiver<Done>,
    worker: Worker,
    cancel: CancellationToken,
    colors: Highlighter,
    background: Option<Background>,
    hl_rx: mpsc::UnboundedReceiver<((HunkId, u64), HunkColors)>,
    last_draw: Option<Instant>,
    dirty: bool,
    /// Changes on disk, followed on a thread of its own.
    follower: Option<Follower>,
}

/// Run the loop until it ends; `started`: the effects of the app's start.
pub async fn event_loop<S, Sc>(
    core: &mut Core<'_>,
    io: Io<'_, S, Sc>,
    started: Vec<AppEffect>,
) -> Result<Ending>
where
    S: Stream<Item = io::Result<Event>> + Unpin,
    Sc: Screen,
{
    let mut l = Loop::new(io);
    let result = match l.run(core, started).await {
        // A terminal that fails or ends is usually one that hung up, its SIGHUP on the way:
        // the session ends as the signal says, not as an error.
        Err(e) => l.hangup().await.map(Ending::Signal).ok_or(e),
        ending => ending,
    };
    l.cancel.cancel();
    // A write under way finishes before the loop returns: a file is wholly old or wholly new,
    // and no temporary file is left behind.
    l.settle(core).await;
    result
}

impl<'s, S, Sc> Loop<'s, S, Sc>
where
    S: Stream<Item = io::Result<Event>> + Unpin,
    Sc: Screen,
{
    /// A stop signal that arrives within a moment of the terminal failing or ending.
    async fn hangup(&mut self) -> Option<crate::shell::terminal::StopSignal> {
        let wait = Duration::from_millis(250);
        tokio::time::timeout(wait, recv_signal(&mut self.io.signals)).await.ok()
    }

    fn new(io: Io<'s, S, Sc>) -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        let (done_tx, done_rx) = mpsc::unbounded_channel();
        let worker = Worker::start(io.disk.clone(), done_tx);
        // Syntax colour comes from a thread of its own; frames use what has arrived.
        let (hl_tx, hl_rx) = mpsc::unbounded_channel();
        let background = io.syntax_theme.clone().map(|name| {
            Background::spawn(name, move |key, c| {
                let _ = hl_tx.send((key, c));
            })
        });
        let follower = io.watch.and_then(|(ws, watch)| watching::start(ws, watch, tx.clone()));
        Loop {
            io,
            tx,
            rx,
            done_rx,
            worker,
            cancel: CancellationToken::new(),
            colors: Highlighter::off(),
            background,
            hl_rx,
            last_draw: None,
            dirty: true,
            follower,
        }
    }

    async fn run(&mut self, core: &mut Core<'_>, started: Vec<AppEffect>) -> Result<Ending> {
        let mut tick = tokio::time::interval(Duration::from_millis(80));
        let mut pending = started;
        // The files under review when the loop starts are followed; those the app takes up
        // later come with their own `Follow` effect.
        if let Some(f) = &self.follower {
            core.app.review.known_files().for_each(|path| f.follow(path));
        }
        loop {
            if let Some(ending) = self.carry_out(core, std::mem::take(&mut pending))? {
                return Ok(ending);
            }
            let cue = self.cue_at(core);
            // An instant replay shows where it ends, not the way there: no frame while its cues
            // (or the disk work they cause) are still under way.
            let instant = core.playing.as_ref().is_some_and(|p| p.clock.speed.is_none());
            if !(instant && (cue.is_some() || self.worker.busy())) {
                self.draw_if_due(core)?;
            }
            if cue.is_none() && !self.worker.busy() {
                let held = if self.io.finish_held { core.release_held() } else { Vec::new() };
                if !held.is_empty() {
                    held.into_iter().for_each(|j| self.worker.send(j));
                    continue;
                }
                if self.io.end_when_idle && self.rx.is_empty() {
                    return Ok(Ending::Quit);
                }
            }
            if let (Some(due), Pace::Virtual(wall)) = (cue, core.pace) {
                // Nothing to wait for on a virtual clock: it moves on to the cue.
                let at = core.playing.as_ref().map_or(Duration::ZERO, |p| p.clock.wall_at(due));
                core.pace = Pace::Virtual(wall.max(at));
                pending = self.play(core);
                continue;
            }
            let cue_at = cue.map(|due| {
                let at = core.playing.as_ref().map_or(Duration::ZERO, |p| p.clock.wall_at(due));
                core.base + at
            });
            // Disk results first: a key never overtakes the outcome of a write already made
            // (a quit right after an accept must not find it still under way).
            let msg = tokio::select! {
                biased;
                Some(done) = self.done_rx.recv() => {
                    self.worker.finished_one();
                    if let Some(notice) = done.notice {
                        core.update(Msg::Notice(notice), core.t);
                    }
                    done.msg
                }
                signal = next_signal(&mut self.io.signals) => match signal {
                    Signal::Stop(s) => return Ok(Ending::Signal(s)),
                    // The Ctrl-Z that stopped the editor reached us too, noted by the signal
                    // driver only once the loop runs again: it is the editor's, already obeyed.
                    Signal::Suspend if super::stream::take_editor_stop() => continue,
                    Signal::Suspend => {
                        self.suspend()?;
                        continue;
                    }
                },
                ev = self.io.input.next() => match input_msg(ev)? {
                    Input::Suspend => {
                        self.suspend()?;
                        continue;
                    }
                    Input::Msg(m) => m,
                    Input::Nothing => continue,
                    Input::End => {
                        return Ok(self.hangup().await.map_or(Ending::Quit, Ending::Signal));
                    }
                },
                Some(m) = self.rx.recv() => m,
                Some((key, c)) = self.hl_rx.recv() => {
                    self.colors.insert(key, c);
                    self.dirty = true;
                    continue;
                }
                _ = sleep_until(cue_at), if cue_at.is_some() => {
                    pending = self.play(core);
                    continue;
                }
                _ = tick.tick(), if self.io.ticks => Msg::Tick,
            };
            pending = self.feed(core, msg)?;
        }
    }

    /// Feed one message (and what else has arrived), after a user's input in a replay hands
    /// the decisions to the user.
    fn feed(&mut self, core: &mut Core<'_>, msg: Msg) -> Result<Vec<AppEffect>> {
        let is_key = matches!(msg, Msg::Key(_) | Msg::Resize(..));
        if matches!(msg, Msg::Resize(..))
            && core.playing.as_ref().is_some_and(|p| p.player.reenacting())
        {
            // While a replay re-enacts, the app keeps the recorded size (what a key does may
            // depend on it); this terminal's new size only redraws. It learns it on taking over.
            self.dirty = true;
            self.last_draw = None;
            return Ok(Vec::new());
        }
        // A tick changes what is shown only while the status line's clock runs: an idle screen
        // is not drawn again (idle CPU ~0).
        let mut changed = !matches!(msg, Msg::Tick) || core.app.clock_running();
        let mut pending = Vec::new();
        if core.playing.as_ref().is_some_and(|p| p.player.reenacting())
            && matches!(msg, Msg::Key(_) | Msg::Scroll { .. } | Msg::Click { .. })
        {
            // The user takes over: recorded inputs stop, held effects are carried out, and the
            // app learns the real terminal's size (it was given the recorded ones).
            core.take_over().into_iter().for_each(|j| self.worker.send(j));
            let (width, height) = self.io.screen.size()?;
            let t = core.clock_t();
            pending.extend(core.update(Msg::Resize(width, height), t));
            if let Some(decisions) = &self.io.show_recorded {
                core.update(Msg::ShowRecorded(decisions.clone()), t);
            }
        }
        let t = core.clock_t();
        pending.extend(core.update(msg, t));
        // Take what else has arrived before drawing, so a fast stream costs one frame per batch.
        for _ in 0..512 {
            let Ok(m) = self.rx.try_recv() else { break };
            let t = core.clock_t();
            pending.extend(core.update(m, t));
            changed = true;
        }
        self.dirty |= changed || !pending.is_empty();
        if is_key {
            self.last_draw = None;
        }
        Ok(pending)
    }

    /// Play the cue that is due; its effects.
    fn play(&mut self, core: &mut Core<'_>) -> Vec<AppEffect> {
        let (effects, job) = core.play_due();
        if let Some(job) = job {
            self.worker.send(job);
        }
        self.dirty = true;
        effects
    }

    /// When the next recorded cue is due, as a wall-clock offset; none while disk work of the
    /// last one is under way or its messages wait.
    fn cue_at(&mut self, core: &mut Core<'_>) -> Option<u64> {
        if self.worker.busy() || !self.rx.is_empty() {
            return None;
        }
        core.next_cue()
    }

    /// Carry out what the app asked for; `Some` when the loop ends.
    fn carry_out(
        &mut self,
        core: &mut Core<'_>,
        effects: Vec<AppEffect>,
    ) -> Result<Option<Ending>> {
        for action in core.interpret(effects) {
            match action {
                Action::Quit => return Ok(Some(Ending::Quit)),
                Action::Disk(job) => self.worker.send(job),
                Action::Stream(messages, parse) => {
                    self.cancel = CancellationToken::new();
                    let to = (self.tx.clone(), self.cancel.clone());
                    start_stream(self.io.replies, messages, parse, to);
                }
                Action::CancelStream => self.cancel.cancel(),
                Action::Editor { hunk, text } => self.edit(core, hunk, text)?,
                Action::Follow(path) => {
                    if let Some(f) = &self.follower {
                        f.follow(&path);
                    }
                }
            }
        }
        Ok(None)
    }

    fn edit(&mut self, core: &mut Core<'_>, hunk: HunkId, text: String) -> Result<()> {
        let path = core.app.review.hunk(hunk).map(|h| h.path.clone());
        let Some(result) = self.io.screen.lend(|| edit_in_editor(&text, path.as_deref()))? else {
            return Ok(());
        };
        if let Some(reopen) = self.io.reopen_input {
            self.io.input = reopen();
        }
        let _ = self.tx.send(Msg::EditorDone { hunk, result });
        Ok(())
    }

    /// Ctrl-Z or SIGTSTP: the terminal given back and the process stopped, as a shell's job
    /// control expects; continued (`fg`), the screen is taken again and drawn whole. Nothing of
    /// the review changes meanwhile (a write under way finishes on its own thread).
    fn suspend(&mut self) -> Result<()> {
        self.io.screen.lend(crate::shell::terminal::stop_now)?;
        self.dirty = true;
        self.last_draw = None;
        Ok(())
    }

    fn draw_if_due(&mut self, core: &Core<'_>) -> Result<()> {
        let due = self.last_draw.is_none_or(|t| t.elapsed() >= Duration::from_millis(16));
        if !(self.dirty && due) {
            return Ok(());
        }
        let app = &*core.app;
        // A conflict is drawn three ways, without the diff's syntax colour.
        if let (Some(h), Some(bg)) = (app.selected_hunk(), self.background.as_mut())
            && !h.state.is_conflict()
        {
            let model = app.diff_model().expect("a selected hunk");
            if self.colors.get(h.id, &model).is_none() {
                bg.request(h.id, &h.path, &model);
            }
        }
        self.io.screen.draw(app, self.io.theme, &self.colors)?;
        self.last_draw = Some(Instant::now());
        self.dirty = false;
        Ok(())
    }

    /// Wait for the disk work under way; its results are fed (and journaled) but carry out
    /// nothing more.
    async fn settle(&mut self, core: &mut Core<'_>) {
        while self.worker.busy() {
            let Some(done) = self.done_rx.recv().await else { break };
            self.worker.finished_one();
            let t = core.clock_t();
            core.update(done.msg, t);
        }
    }
}

enum Input {
    Msg(Msg),
    /// Ctrl-Z: in raw mode the terminal sends the key, not SIGTSTP.
    Suspend,
    Nothing,
    End,
}

/// A terminal event as a message.
fn input_msg(ev: Option<io::Result<Event>>) -> Result<Input> {
    let msg = match ev {
        Some(Ok(Event::Key(k)))
            if k.kind != KeyEventKind::Release
                && k.code == crossterm::event::KeyCode::Char('z')
                && k.modifiers.contains(crossterm::event::KeyModifiers::CONTROL) =>
        {
            return Ok(Input::Suspend);
        }
        Some(Ok(Event::Key(k))) if k.kind != KeyEventKind::Release => Msg::Key(k.into()),
        Some(Ok(Event::Mouse(m))) => match m.kind {
            MouseEventKind::ScrollDown => Msg::Scroll { down: true, at: Some((m.column, m.row)) },
            MouseEventKind::ScrollUp => Msg::Scroll { down: false, at: Some((m.column, m.row)) },
            MouseEventKind::Down(MouseButton::Left) => Msg::Click { column: m.column, row: m.row },
            _ => return Ok(Input::Nothing),
        },
        Some(Ok(Event::Resize(w, h))) => Msg::Resize(w, h),
        Some(Ok(Event::Paste(text))) => Msg::Paste(text),
        Some(Ok(_)) => return Ok(Input::Nothing),
        Some(Err(e)) => return Err(e).context("cannot read the terminal's input"),
        None => return Ok(Input::End),
    };
    Ok(Input::Msg(msg))
}

async fn next_signal(signals: &mut Option<StopSignals>) -> Signal {
    match signals {
        Some(s) => s.next().await,
        None => std::future::pending().await,
    }
}

async fn recv_signal(signals: &mut Option<StopSignals>) -> crate::shell::terminal::StopSignal {
    match signals {
        Some(s) => s.recv().await,
        None => std::future::pending().await,
    }
}

async fn sleep_until(at: Option<Instant>) {
    if let Some(at) = at {
        tokio::time::sleep_until(at.into()).await;
    }
}
