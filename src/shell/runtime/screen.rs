//! Where the loop draws: the real terminal, or a headless screen (a replay without a terminal,
//! the tests). The loop draws through [`Screen`] so that the same loop runs in both.
//!
//! Not for: what is drawn (`ui`), entering and leaving full-screen mode (`shell::terminal`).

use std::io;

use anyhow::{Context, Result};
use ratatui::Terminal;
use ratatui::backend::{Backend, CrosstermBackend, TestBackend};

use crate::app::App;
use crate::shell::terminal;
use crate::ui::highlight::Highlighter;
use crate::ui::theme::Theme;

/// A surface the review is drawn on.
pub trait Screen {
    /// Its size (columns, rows).
    fn size(&self) -> Result<(u16, u16)>;
    /// Draw the app.
    fn draw(&mut self, app: &App, theme: &Theme, colors: &Highlighter) -> Result<()>;
    /// Hand the terminal to another program (the editor) and take it back after `f`; `None`
    /// when there is no terminal to hand over.
    fn lend<T>(&mut self, f: impl FnOnce() -> T) -> Result<Option<T>>;
}

/// The real terminal, in full-screen mode.
///
/// Its ratatui `Terminal` is never dropped: that drop reports a cursor it cannot show with
/// `eprintln!`, which panics when the terminal is gone (a closed window or ssh link: SIGHUP,
/// stderr answering EIO), and the session then aborted before its journal was closed.
pub struct TerminalScreen(std::mem::ManuallyDrop<Terminal<CrosstermBackend<io::Stdout>>>);

impl TerminalScreen {
    pub fn new() -> Result<TerminalScreen> {
        let t = Terminal::new(CrosstermBackend::new(io::stdout()))
            .context("cannot draw on the terminal")?;
        Ok(TerminalScreen(std::mem::ManuallyDrop::new(t)))
    }
}

impl Drop for TerminalScreen {
    fn drop(&mut self) {
        // What ratatui's drop would do, quietly; the rest of the terminal is the guard's
        // (`terminal::restore`). The terminal's buffers are left to the process's end.
        let _ = self.0.show_cursor();
    }
}

impl Screen for TerminalScreen {
    fn size(&self) -> Result<(u16, u16)> {
        let s = self.0.size().context("cannot read the terminal's size")?;
        Ok((s.width, s.height))
    }

    fn draw(&mut self, app: &App, theme: &Theme, colors: &Highlighter) -> Result<()> {
        self.0
            .draw(|f| crate::ui::draw(f, app, theme, colors))
            .context("cannot draw on the terminal")?;
        Ok(())
    }

    fn lend<T>(&mut self, f: impl FnOnce() -> T) -> Result<Option<T>> {
        terminal::restore();
        let out = f();
        // Keys typed while the editor ran, or before it took the terminal (a burst meant for a
        // shell), are not commands for the review: dropped, not replayed once it is back.
        #[cfg(unix)]
        // SAFETY: tcflush on the process's standard input only discards pending input bytes.
        unsafe {
            libc::tcflush(libc::STDIN_FILENO, libc::TCIFLUSH);
        }
        // Keys read together with the one that opened the editor (`e` and `A` in one burst)
        // are already parsed and queued in crossterm, past the tty's reach: dropped too.
        // (A terminal closed meanwhile reads as always ready and always failing: stop there,
        // or this spins for ever.)
        while crossterm::event::poll(std::time::Duration::ZERO).unwrap_or(false) {
            if crossterm::event::read().is_err() {
                break;
            }
        }
        terminal::enter().context("cannot return to full-screen mode")?;
        // Cleared without `Terminal::clear`, which asks the terminal where its cursor is: with
        // keys typed ahead the answer is read late or not at all, and the review ended with
        // "the cursor position could not be read" (the answer then typed into the shell).
        // The full-screen view needs no cursor: the screen is cleared and, both buffers reset,
        // the next frame draws everything.
        ratatui::backend::Backend::clear_region(
            self.0.backend_mut(),
            ratatui::backend::ClearType::All,
        )
        .context("cannot redraw the terminal")?;
        self.0.swap_buffers();
        self.0.swap_buffers();
        Ok(Some(out))
    }
}

/// A screen with no terminal: draws into memory (`draw: true`, for tests that look at frames)
/// or not at all, and counts the frames.
pub struct Headless {
    backend: Option<Terminal<TestBackend>>,
    size: (u16, u16),
    /// Frames drawn so far.
    pub frames: usize,
}

impl Headless {
    pub fn new(width: u16, height: u16, draw: bool) -> Headless {
        let backend = draw.then(|| Terminal::new(TestBackend::new(width, height)).ok()).flatten();
        Headless { backend, size: (width, height), frames: 0 }
    }

    /// The last frame drawn, as text (empty when not drawing).
    pub fn text(&self) -> String {
        let Some(t) = &self.backend else { return String::new() };
        let buffer = t.backend().buffer();
        let width = buffer.area.width.max(1) as usize;
        let cells: Vec<&str> = buffer.content.iter().map(|c| c.symbol()).collect();
        cells.chunks(width).map(|row| row.concat() + "\n").collect()
    }
}

impl Screen for Headless {
    fn size(&self) -> Result<(u16, u16)> {
        Ok(self.size)
    }

    fn draw(&mut self, app: &App, theme: &Theme, colors: &Highlighter) -> Result<()> {
        self.frames += 1;
        if let Some(t) = &mut self.backend {
            t.draw(|f| crate::ui::draw(f, app, theme, colors))?;
            let _ = t.backend_mut().flush();
        }
        Ok(())
    }

    /// No terminal to lend: the editor is not run.
    fn lend<T>(&mut self, _f: impl FnOnce() -> T) -> Result<Option<T>> {
        Ok(None)
    }
}
