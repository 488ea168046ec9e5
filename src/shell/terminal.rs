//! The terminal's full-screen mode and the signals that end a session: entering and leaving raw
//! mode and the alternate screen, a guard that leaves them on every way out, the stop signals
//! (SIGTERM, SIGHUP, SIGINT, SIGQUIT) turned into an ordinary message for the event loop, and
//! SIGXFSZ ignored so that a write past `ulimit -f` fails with an error instead of killing us.
//!
//! Why signals are handled rather than left to their default: the default action kills the
//! process wherever it is, leaving the terminal raw and in the alternate screen, and possibly in
//! the middle of a write. With tokio's handlers a signal only sets a flag; the event loop sees it
//! between two messages (every write is carried out to its end before the loop waits again),
//! then returns, and the guard restores the terminal.
//!
//! It also turns crossterm's key events into the app's own ([`crate::app::key::KeyEvent`]).
//!
//! Not for: drawing (`ui`), the event loop itself (`runtime`), or `redline ask`'s Ctrl-C (it
//! cancels a stream and has no screen to restore).

use std::fmt;
use std::io;

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::execute;
use crossterm::terminal::{
    Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

/// Leave the alternate screen, show the cursor, end raw mode. Safe to call twice, and when the
/// terminal is gone (SIGHUP): each step's failure is ignored so the next one still runs.
///
/// Below the cursor, back on the main screen, is cleared: a terminal resized while the review
/// ran (tmux does this) may show the review's last frame there, and the summary printed after
/// it would run into that frame's text ("170 left undecided(s) still undecided."), or start
/// after a piece of it on the cursor's row.
pub fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(
        io::stdout(),
        DisableMouseCapture,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        // From the row's start: after a resize the cursor may stand inside that frame's text.
        crossterm::cursor::MoveToColumn(0),
        Clear(ClearType::FromCursorDown),
        crossterm::cursor::Show
    );
}

/// Raw mode, the alternate screen, mouse reports and bracketed paste (a paste arrives as one
/// text, not as keys that would be review commands).
pub fn enter() -> io::Result<()> {
    enable_raw_mode()?;
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture, EnableBracketedPaste)
}

/// Restores the terminal when dropped: the way out for errors, early returns and unwinding.
pub struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// How the review ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The user quit (or the terminal's input ended).
    Quit,
    /// A stop signal arrived; the write under way, if any, was finished first.
    Signal(StopSignal),
}

/// A review ended by a signal, as an error for the command's exit status (128 + the signal).
#[derive(Debug, thiserror::Error)]
#[error("stopped by {0}")]
pub struct Stopped(pub StopSignal);

impl Ending {
    /// `Ok` when the user quit; [`Stopped`] when a signal ended the review.
    pub fn into_result(self) -> anyhow::Result<()> {
        match self {
            Ending::Quit => Ok(()),
            Ending::Signal(s) => Err(Stopped(s).into()),
        }
    }
}

/// A signal that asks the review to end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopSignal {
    Term,
    Hup,
    Int,
    Quit,
}

impl StopSignal {
    /// The signal's number, for the conventional exit status 128 + n.
    pub fn number(self) -> i32 {
        match self {
            StopSignal::Hup => 1,
            StopSignal::Int => 2,
            StopSignal::Quit => 3,
            StopSignal::Term => 15,
        }
    }
}

impl fmt::Display for StopSignal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopSignal::Term => "SIGTERM",
            StopSignal::Hup => "SIGHUP",
            StopSignal::Int => "SIGINT",
            StopSignal::Quit => "SIGQUIT",
        })
    }
}

/// The stop signals, listened to from the moment this is made (inside a tokio runtime) until it
/// is dropped; afterwards they are delivered to tokio's handler, which no longer kills us.
#[cfg(unix)]
pub struct StopSignals {
    streams: Vec<(StopSignal, tokio::signal::unix::Signal)>,
    /// SIGTSTP (`kill -TSTP`, a shell suspending its job): the review leaves the screen, stops,
    /// and draws itself whole again when continued. (Its default action stopped the process
    /// with the terminal still raw and in the alternate screen.)
    suspend: tokio::signal::unix::Signal,
}

/// A signal the review acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    Stop(StopSignal),
    Suspend,
}

#[cfg(unix)]
impl StopSignals {
    pub fn listen() -> io::Result<StopSignals> {
        use tokio::signal::unix::{SignalKind, signal};
        let kinds = [
            (StopSignal::Term, SignalKind::terminate()),
            (StopSignal::Hup, SignalKind::hangup()),
            (StopSignal::Int, SignalKind::interrupt()),
            (StopSignal::Quit, SignalKind::quit()),
        ];
        let streams =
            kinds.into_iter().map(|(s, k)| Ok((s, signal(k)?))).collect::<io::Result<_>>()?;
        let suspend = signal(SignalKind::from_raw(libc::SIGTSTP))?;
        Ok(StopSignals { streams, suspend })
    }

    /// The next stop signal to arrive (a suspension asked meanwhile waits).
    pub async fn recv(&mut self) -> StopSignal {
        let waits = self.streams.iter_mut().map(|(which, stream)| {
            Box::pin(async move {
                stream.recv().await;
                *which
            })
        });
        futures_util::future::select_all(waits).await.0
    }

    /// The next stop signal or suspension to arrive.
    pub async fn next(&mut self) -> Signal {
        let StopSignals { streams, suspend } = self;
        let waits = streams.iter_mut().map(|(which, stream)| {
            Box::pin(async move {
                stream.recv().await;
                *which
            })
        });
        tokio::select! {
            (stop, _, _) = futures_util::future::select_all(waits) => Signal::Stop(stop),
            _ = suspend.recv() => Signal::Suspend,
        }
    }
}

/// Stop the process as SIGTSTP's default action would (the terminal already given back), until
/// a SIGCONT. SIGSTOP cannot be caught, so this handler is not called again.
pub fn stop_now() {
    #[cfg(unix)]
    // SAFETY: raising a signal at our own process; SIGSTOP has no handler code to run.
    unsafe {
        libc::raise(libc::SIGSTOP);
    }
}

#[cfg(not(unix))]
pub struct StopSignals;

#[cfg(not(unix))]
impl StopSignals {
    pub fn listen() -> io::Result<StopSignals> {
        Ok(StopSignals)
    }

    /// Ctrl-C (the only stop signal there is) arrives as a key in raw mode.
    pub async fn recv(&mut self) -> StopSignal {
        std::future::pending().await
    }

    pub async fn next(&mut self) -> Signal {
        std::future::pending().await
    }
}

/// A signal the review acts on.
#[cfg(not(unix))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    Stop(StopSignal),
    Suspend,
}

/// SIGXFSZ's default action kills the process when a write passes `ulimit -f`; ignored, the
/// write fails with `EFBIG` and is reported like any other write error. Called once at start.
pub fn ignore_file_size_signal() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to SIG_IGN installs no handler code; it is done
    // at start, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// A terminal key as the app's own key.
impl From<crossterm::event::KeyEvent> for crate::app::key::KeyEvent {
    fn from(key: crossterm::event::KeyEvent) -> Self {
        use crate::app::key::{KeyCode, KeyModifiers};
        use crossterm::event::{KeyCode as Code, KeyModifiers as Mods};
        let code = match key.code {
            Code::Char(c) => KeyCode::Char(c),
            Code::F(n) => KeyCode::F(n),
            Code::Enter => KeyCode::Enter,
            Code::Esc => KeyCode::Esc,
            Code::Backspace => KeyCode::Backspace,
            Code::Tab => KeyCode::Tab,
            Code::BackTab => KeyCode::BackTab,
            Code::Up => KeyCode::Up,
            Code::Down => KeyCode::Down,
            Code::Left => KeyCode::Left,
            Code::Right => KeyCode::Right,
            Code::PageUp => KeyCode::PageUp,
            Code::PageDown => KeyCode::PageDown,
            Code::Home => KeyCode::Home,
            Code::End => KeyCode::End,
            Code::Delete => KeyCode::Delete,
            Code::Insert => KeyCode::Insert,
            _ => KeyCode::Null,
        };
        let mut modifiers = KeyModifiers::NONE;
        for (theirs, ours) in [
            (Mods::SHIFT, KeyModifiers::SHIFT),
            (Mods::CONTROL, KeyModifiers::CONTROL),
            (Mods::ALT, KeyModifiers::ALT),
            (Mods::SUPER, KeyModifiers::SUPER),
            (Mods::HYPER, KeyModifiers::HYPER),
            (Mods::META, KeyModifiers::META),
        ] {
            if key.modifiers.contains(theirs) {
                modifiers |= ours;
            }
        }
        crate::app::key::KeyEvent::new(code, modifiers)
    }
}
