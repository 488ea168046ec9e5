//! The review screen's runtime: the one event loop (`event_loop`), generic over its input and
//! its disk, and everything it drives: the app through [`core::Core`], disk work on a worker
//! (`disk`), the reply stream and the editor (`stream`), changes on disk (`watching`), the
//! terminal or a headless screen (`screen`). A live session, `redline replay` and the headless
//! replay ([`Driver`], [`check`]) all run the same loop; only its input, disk and screen differ.
//! The terminal is restored on every way out, a panic included.
//!
//! Not for: deciding anything (`app`), or drawing (`ui`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use crossterm::event::EventStream;

use crate::app::record::Recorder;
use crate::app::replay::{Clock, Player, Script};
use crate::app::{App, AppEffect, Msg};
use crate::provider::ProviderSettings;
use crate::shell::journal::{self, Journal};
use crate::shell::terminal::{self, StopSignals};
pub use crate::shell::terminal::{Ending, Stopped};
use crate::shell::workspace::Workspace;
use crate::ui::theme::Theme;

mod check;
pub mod core;
pub mod disk;
mod driver;
mod event_loop;
pub mod screen;
pub mod stream;
mod watching;

pub use check::{Counts, Difference, Report, check};
pub use disk::{Disk, MemoryDisk, carry_out_write};
pub use driver::{Driver, Resumed};
pub use event_loop::{Io, event_loop};

use self::core::{Core, Log, Playing};
use screen::TerminalScreen;

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
    /// Effects the journal ends before the outcome of (a session killed while hunks were
    /// placing or files were being written), carried out once `since` is fed: their outcome is
    /// journaled now, so the journal plays them as they happen here.
    pub held: Vec<AppEffect>,
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
    let result = runtime.block_on(live(app, session, signals));
    terminal::restore();
    // The hook stays: restoring an already restored terminal is harmless.
    result
}

/// The live session on the real terminal: its start (or its resumption), the loop, its end.
async fn live(app: &mut App, mut session: Session, signals: StopSignals) -> Result<Ending> {
    let screen = TerminalScreen::new()?;
    let (width, height) = screen::Screen::size(&screen)?;
    // A replay re-enacts keys at the recorded size (what a key does can depend on it: help that
    // scrolls at 80x24 closes at 160x45), so the app is given that size until the user takes
    // over, whatever this terminal's; the replay's own journal starts at it too, or replaying
    // that journal would re-enact the keys at another size.
    let (width, height) = match &session.replay {
        Some(r) if r.reenact && session.resume.is_none() => {
            (r.script.header.width, r.script.header.height)
        }
        _ => (width, height),
    };
    let journal = session.journal.take();
    // The journal is begun and written by a thread of its own; a failure comes back as a notice.
    let log = match journal {
        Some(journal) => Log::Journal(journal::Writer::spawn(journal, (width, height))),
        None => Log::Off,
    };
    let resume = session.resume.take();
    let t = resume.as_ref().map_or(0, |r| r.t);
    // A resumed session's time goes on from where its journal ended.
    let now = Instant::now();
    let base = now.checked_sub(Duration::from_millis(t)).unwrap_or(now);
    let mut core = Core::new(app, base, t, log);
    let started = match resume {
        Some(resume) => {
            core.recorder = resume.recorder;
            let mut effects = core.update(Msg::Resize(width, height), t);
            for msg in resume.since {
                effects.extend(core.update(msg, t));
            }
            effects.extend(resume.held);
            effects
        }
        None => {
            core.app.update(Msg::Resize(width, height), base);
            core.start()
        }
    };
    if let Some(r) = &session.replay {
        core.playing = Some(Playing {
            player: Player::new(&r.script, r.reenact),
            clock: r.clock,
            held: Vec::new(),
            hold: true,
        });
        if r.reenact {
            let badge = match r.clock.speed {
                Some(speed) => format!("REPLAY ×{speed}"),
                None => "REPLAY instant".into(),
            };
            core.update(Msg::ReplayBadge { badge, reenacting: true }, t);
        } else if r.show_recorded {
            core.update(Msg::ShowRecorded(r.script.decisions.clone()), t);
        }
    }
    let show =
        session.replay.as_ref().filter(|r| r.show_recorded).map(|r| r.script.decisions.clone());
    let disk: Arc<dyn disk::Disk> = Arc::new(session.workspace.clone());
    let io = Io {
        input: EventStream::new(),
        reopen_input: Some(EventStream::new),
        screen,
        disk,
        replies: &session.replies,
        theme: &session.theme,
        syntax_theme: session.syntax_theme.clone(),
        watch: Some((&session.workspace, session.watch)),
        signals: Some(signals),
        ticks: true,
        end_when_idle: false,
        finish_held: true,
        show_recorded: show,
    };
    let result = event_loop(&mut core, io, started).await;
    core.end();
    result
}

#[cfg(test)]
mod sequence_tests;
#[cfg(test)]
mod tests;
