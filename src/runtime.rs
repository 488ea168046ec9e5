//! The review screen's event loop: one `tokio::select!` over the terminal's events, the
//! messages of the stream task and of finished effects, and a tick. Each message goes through
//! [`App::update`]; the effects it returns are carried out here (writes through
//! [`Workspace::write`] with the content the review expects, reads, the editor, streams); a
//! frame is drawn when one is due. The terminal is restored on every way out, a panic included.
//!
//! Not for: deciding anything (`app`), or drawing (`ui`).

use std::collections::{BTreeSet, HashSet};
use std::io::{self, Write};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use crossterm::event::{
    DisableMouseCapture, EnableMouseCapture, Event, EventStream, KeyEventKind, MouseEventKind,
};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use futures_util::StreamExt;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::app::{App, AppEffect, Msg, StreamDone};
use crate::core::execute::After;
use crate::core::plan::{FileWrite, Source};
use crate::core::review::Effect;
use crate::provider::{ChatMessage, ChatRequest, ProviderError, ProviderSettings, StreamMsg};
use crate::shell::watcher::{self, Watcher, git_busy};
use crate::shell::workspace::{Workspace, WriteFailure};
use crate::ui::diff::DiffModel;
use crate::ui::highlight::{Background, Highlighter};
use crate::ui::theme::Theme;

/// Where replies come from.
pub enum Replies {
    /// A model server.
    Provider { settings: ProviderSettings, max_tokens: Option<u32> },
    /// Bundled replies (the demo), one per round, streamed at a human pace scaled by `speed`.
    Canned { replies: Vec<&'static str>, speed: f64 },
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
}

/// Leave the alternate screen, show the cursor, end raw mode. Safe to call twice.
pub fn restore_terminal() {
    let _ = disable_raw_mode();
    let _ =
        execute!(io::stdout(), DisableMouseCapture, LeaveAlternateScreen, crossterm::cursor::Show);
}

fn enter_terminal() -> io::Result<()> {
    enable_raw_mode()?;
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture)
}

/// Restores the terminal when dropped: the way out for errors and early returns.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// Run the review screen until the user quits.
pub fn run(app: &mut App, session: Session) -> Result<()> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        previous(info);
    }));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    enter_terminal().context("cannot switch the terminal to full-screen mode")?;
    let _guard = Guard;
    let result = runtime.block_on(event_loop(app, session));
    restore_terminal();
    // The hook stays: restoring an already restored terminal is harmless.
    result
}

async fn event_loop(app: &mut App, session: Session) -> Result<()> {
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))
        .context("cannot draw on the terminal")?;
    let (tx, mut rx) = mpsc::unbounded_channel::<Msg>();
    let mut events = EventStream::new();
    let mut tick = tokio::time::interval(Duration::from_millis(80));
    let mut cancel = CancellationToken::new();
    let mut round = 0usize;
    // Syntax colour comes from a thread of its own; frames use what has arrived.
    let (hl_tx, mut hl_rx) = mpsc::unbounded_channel();
    let mut colors = Highlighter::off();
    let mut background = session.syntax_theme.clone().map(|name| {
        Background::spawn(name, move |key, c| {
            let _ = hl_tx.send((key, c));
        })
    });
    let size = terminal.size().context("cannot read the terminal's size")?;
    let now = Instant::now();
    app.update(Msg::Resize(size.width, size.height), now);
    let mut pending = app.start(now);
    let mut last_draw: Option<Instant> = None;
    let mut dirty = true;
    // Changes on disk: reported by the watcher's thread, held while a git operation runs.
    let (watch_tx, mut watch_rx) = mpsc::unbounded_channel();
    let mut watcher = start_watcher(&session, watch_tx, &tx);
    let mut followed: HashSet<String> = HashSet::new();
    let mut held: BTreeSet<String> = BTreeSet::new();
    let root = session.workspace.root().to_path_buf();
    loop {
        if let Some(w) = watcher.as_mut()
            && session.watch == Watch::Files
        {
            for h in app.review.hunks() {
                if followed.insert(h.path.clone())
                    && let Err(e) = w.follow(&h.path)
                {
                    let _ = tx.send(Msg::WatchError(format!("{e:#}")));
                }
            }
        }
        for effect in std::mem::take(&mut pending) {
            match effect {
                AppEffect::Quit => {
                    cancel.cancel();
                    return Ok(());
                }
                AppEffect::StartStream { messages } => {
                    cancel = CancellationToken::new();
                    start_stream(&session.replies, messages, round, tx.clone(), cancel.clone());
                    round += 1;
                }
                AppEffect::CancelStream => cancel.cancel(),
                AppEffect::Write { effect, undo } => {
                    let _ = tx.send(carry_out_write(&session.workspace, effect, undo));
                }
                AppEffect::Read { path } => {
                    let source = session.workspace.read_source(&path);
                    let _ = tx.send(Msg::FileRead { path, source });
                }
                AppEffect::OpenEditor { hunk, text } => {
                    restore_terminal();
                    let result = edit_in_editor(&text);
                    enter_terminal().context("cannot return to full-screen mode")?;
                    terminal.clear().context("cannot redraw the terminal")?;
                    events = EventStream::new();
                    let _ = tx.send(Msg::EditorDone { hunk, result });
                }
            }
        }
        let due = last_draw.is_none_or(|t| t.elapsed() >= Duration::from_millis(16));
        if dirty && due {
            if let (Some(h), Some(bg)) = (app.selected_hunk(), background.as_mut()) {
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
        let msg = tokio::select! {
            ev = events.next() => match ev {
                Some(Ok(Event::Key(k))) if k.kind != KeyEventKind::Release => Msg::Key(k),
                Some(Ok(Event::Mouse(m))) => match m.kind {
                    MouseEventKind::ScrollDown => Msg::Scroll { down: true },
                    MouseEventKind::ScrollUp => Msg::Scroll { down: false },
                    _ => continue,
                },
                Some(Ok(Event::Resize(w, h))) => Msg::Resize(w, h),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e).context("cannot read the terminal's input"),
                None => return Ok(()),
            },
            Some(m) = rx.recv() => m,
            Some((key, c)) = hl_rx.recv() => {
                colors.insert(key, c);
                dirty = true;
                continue;
            }
            Some(report) = watch_rx.recv() => match report {
                Ok(paths) => {
                    let busy = git_busy(&root);
                    if busy || !held.is_empty() {
                        let first = held.is_empty();
                        held.extend(paths);
                        if first && busy {
                            let _ = tx.send(Msg::GitBusy(true));
                        }
                        continue;
                    }
                    for path in paths.into_iter().filter(|p| app.follows(p)) {
                        let source = session.workspace.read_source(&path);
                        let _ = tx.send(Msg::FileChanged { path, source });
                    }
                    continue;
                }
                Err(why) => Msg::WatchError(why),
            },
            _ = tick.tick() => {
                if !held.is_empty() && !git_busy(&root) {
                    for path in std::mem::take(&mut held).into_iter().filter(|p| app.follows(p)) {
                        let source = session.workspace.read_source(&path);
                        let _ = tx.send(Msg::FileChanged { path, source });
                    }
                    let _ = tx.send(Msg::GitBusy(false));
                }
                Msg::Tick
            }
        };
        let is_key = matches!(msg, Msg::Key(_) | Msg::Resize(..));
        pending.extend(app.update(msg, Instant::now()));
        // Take what else has arrived before drawing, so a fast stream costs one frame per batch.
        let mut n = 0;
        while n < 512 {
            let Ok(m) = rx.try_recv() else { break };
            pending.extend(app.update(m, Instant::now()));
            n += 1;
        }
        dirty = true;
        if is_key {
            last_draw = None;
        }
    }
}

/// The watcher the session asks for; a failure to start one is reported, not fatal.
fn start_watcher(
    session: &Session,
    reports: mpsc::UnboundedSender<watcher::Report>,
    msgs: &mpsc::UnboundedSender<Msg>,
) -> Option<Watcher> {
    if session.watch == Watch::Off {
        return None;
    }
    let started = Watcher::start(session.workspace.root(), move |r| {
        let _ = reports.send(r);
    })
    .and_then(|mut w| {
        if session.watch == Watch::Project {
            w.follow_project()?;
        }
        Ok(w)
    });
    match started {
        Ok(w) => Some(w),
        Err(e) => {
            let _ = msgs.send(Msg::WatchError(format!("{e:#}")));
            None
        }
    }
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

/// `$VISUAL`, `$EDITOR` or `vi` on a temporary file holding `text`; the saved text.
fn edit_in_editor(text: &str) -> Result<String, String> {
    let mut file = tempfile::Builder::new()
        .prefix("redline-hunk-")
        .suffix(".txt")
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
    round: usize,
    tx: mpsc::UnboundedSender<Msg>,
    cancel: CancellationToken,
) {
    match replies {
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
                            Some(StreamMsg::Retrying { .. }) => {}
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
        Replies::Canned { replies, speed } => {
            let text = replies.get(round).copied().unwrap_or(
                "Nothing more to change: the remaining edits are already in your files.\n",
            );
            let speed = speed.max(0.01);
            tokio::spawn(async move {
                let mut rest = text;
                while !rest.is_empty() {
                    let mut n = fastrand::usize(20..=60).min(rest.len());
                    while !rest.is_char_boundary(n) {
                        n += 1;
                    }
                    let (chunk, more) = rest.split_at(n);
                    rest = more;
                    let wait = Duration::from_millis(fastrand::u64(15..=40)).div_f64(speed);
                    tokio::select! {
                        _ = cancel.cancelled() => {
                            let _ = tx.send(Msg::StreamError("cancelled".into()));
                            return;
                        }
                        _ = tokio::time::sleep(wait) => {}
                    }
                    let _ = tx.send(Msg::Chunk(chunk.to_string()));
                }
                let _ = tx.send(Msg::StreamEnd(StreamDone {
                    output_tokens: Some((text.len() / 4) as u64),
                    note: None,
                }));
            });
        }
    }
}
