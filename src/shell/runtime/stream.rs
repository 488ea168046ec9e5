//! What the loop starts outside itself: a reply streamed from the model server (a task of its
//! own, its parts sent to the loop as messages) and the user's editor.
//!
//! Not for: the protocol (`provider`), what the reply means (`app`, `core`).

use std::io::Write;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::app::{Msg, StreamDone};
use crate::core::parse::ParseOptions;
use crate::core::stream::StreamParser;
use crate::provider::{ChatMessage, ChatRequest, ProviderError, StreamMsg};

use super::Replies;

/// `$VISUAL`, `$EDITOR` or `vi` on a temporary file holding `text`, named with the hunk's
/// file's extension (so the editor colours and indents it as that language); the saved text.
pub fn edit_in_editor(text: &str, path: Option<&str>) -> Result<String, String> {
    let suffix = path
        .and_then(|p| std::path::Path::new(p).extension())
        .map_or_else(|| ".txt".to_string(), |e| format!(".{}", e.to_string_lossy()));
    let mut file = tempfile::Builder::new()
        .prefix("redline-hunk-")
        .suffix(&suffix)
        .tempfile()
        .map_err(|e| format!("cannot create a temporary file: {e}"))?;
    file.write_all(text.as_bytes()).map_err(|e| format!("cannot write the temporary file: {e}"))?;
    file.flush().map_err(|e| format!("cannot write the temporary file: {e}"))?;
    let editor = std::env::var("VISUAL")
        .or_else(|_| std::env::var("EDITOR"))
        .unwrap_or_else(|_| "vi".to_string());
    edit_with(&editor, file, text)
}

/// [`edit_in_editor`] with `editor` (a command line) on the temporary file holding `text`.
fn edit_with(editor: &str, file: tempfile::NamedTempFile, text: &str) -> Result<String, String> {
    let written =
        |f: &tempfile::NamedTempFile| f.as_file().metadata().and_then(|m| m.modified()).ok();
    let before = written(&file);
    let mut parts = editor.split_whitespace();
    let program = parts.next().unwrap_or("vi");
    let child = std::process::Command::new(program)
        .args(parts)
        .arg(file.path())
        .spawn()
        .map_err(|e| format!("cannot run `{editor}`: {e} (set $EDITOR)"))?;
    let status = wait_for_editor(child).map_err(|e| format!("lost `{editor}`: {e}"))?;
    if !status.success() {
        return Err(format!("`{editor}` exited with {status}; the hunk is unchanged"));
    }
    let edited = std::fs::read_to_string(file.path())
        .map_err(|e| format!("cannot read the edited text: {e}"))?;
    // Quit without saving (`:q!`): the editor succeeds, and the file is as it was given. That
    // is a cancel, not "accept as it is" (saving unchanged, `:wq`, is that).
    let saved = std::fs::metadata(file.path()).and_then(|m| m.modified()).ok();
    drop(file);
    if before.is_some() && saved == before && edited == text {
        return Err("closed without saving; the hunk is unchanged".into());
    }
    Ok(edited)
}

/// Whether the editor was stopped (Ctrl-Z) since the loop last asked: the terminal sent the same
/// SIGTSTP to the review, which must not suspend it a second time once the editor is done.
static EDITOR_STOPPED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether the editor was stopped since the last call (and forget it).
pub(super) fn take_editor_stop() -> bool {
    EDITOR_STOPPED.swap(false, std::sync::atomic::Ordering::SeqCst)
}

/// Wait for the editor to end. Stopped by Ctrl-Z (the terminal's SIGTSTP reaches it and us
/// alike, and ours only notes it), the editor would wait for a `fg` that the shell never
/// offers, for we would not be stopped: we stop too, so the shell has its prompt back, and its
/// `fg` continues us both (the editor continued again, should the shell not reach it).
fn wait_for_editor(child: std::process::Child) -> std::io::Result<std::process::ExitStatus> {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        let pid = child.id() as libc::pid_t;
        loop {
            let mut status = 0;
            // SAFETY: waits for our own child, writing its status into a local.
            let r = unsafe { libc::waitpid(pid, &mut status, libc::WUNTRACED) };
            if r < 0 {
                let e = std::io::Error::last_os_error();
                if e.kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(e);
            }
            if libc::WIFSTOPPED(status) {
                EDITOR_STOPPED.store(true, std::sync::atomic::Ordering::SeqCst);
                crate::shell::terminal::stop_now();
                // SAFETY: a signal to our own child, which we have not reaped.
                unsafe {
                    libc::kill(pid, libc::SIGCONT);
                }
                continue;
            }
            return Ok(std::process::ExitStatus::from_raw(status));
        }
    }
    #[cfg(not(unix))]
    {
        let mut child = child;
        child.wait()
    }
}

/// Send `messages` to the model (or not, for a recorded reply) and stream the reply to the
/// loop through `to` (its sender and the stream's cancel): each piece parsed with `parse` on a
/// thread of its own ([`reader`]), so that the UI task only takes text and finished edits.
pub fn start_stream(
    replies: &Replies,
    messages: Vec<ChatMessage>,
    parse: ParseOptions,
    to: (mpsc::UnboundedSender<Msg>, CancellationToken),
) {
    let (tx, cancel) = to;
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
            let reader = reader(parse, tx);
            tokio::spawn(async move {
                let (stx, mut srx) = mpsc::channel(256);
                let task = crate::provider::stream_chat(&settings, &req, stx, cancel);
                tokio::pin!(task);
                let mut result = None;
                loop {
                    tokio::select! {
                        r = &mut task, if result.is_none() => result = Some(r),
                        m = srx.recv() => match m {
                            Some(StreamMsg::Text(t)) => { let _ = reader.send(Piece::Text(t)); }
                            // The review shows the outcome; retries and skipped events
                            // leave the reply as it is.
                            Some(StreamMsg::Retrying { .. } | StreamMsg::Skipped(_)) => {}
                            None => break,
                        },
                    }
                }
                let end = match result.unwrap_or(Err(ProviderError::Cancelled)) {
                    Ok(summary) => Piece::Done(StreamDone {
                        output_tokens: summary.usage.and_then(|u| u.output_tokens),
                        note: summary.end.hit_token_limit().then(|| {
                            "the reply hit the token limit and may be incomplete".to_string()
                        }),
                        last: Vec::new(),
                    }),
                    Err(ProviderError::Cancelled) => Piece::Failed(Msg::StreamCancelled),
                    Err(e) => Piece::Failed(Msg::StreamError(e.to_string())),
                };
                let _ = reader.send(end);
            });
        }
    }
}

/// What the stream task hands the reader.
#[derive(Debug)]
pub enum Piece {
    /// Text as the server sent it.
    Text(String),
    /// The reply ended: the reader adds what its parser finishes with.
    Done(StreamDone),
    /// The stream failed or was cancelled: passed on as it is (an unfinished edit is dropped).
    Failed(Msg),
}

/// A thread that parses a reply as it streams and passes each piece on to the loop with its
/// events ([`Msg::Parsed`]), then the stream's end, in the order it got them. It ends with its
/// sender (or when the loop is gone). Pure parsing: what it sends is what the app would get by
/// parsing the same chunks itself, as a replay does.
///
/// Text that piles up while it parses (a server sending faster than it parses) goes on as one
/// piece, up to [`GATHER`] bytes: the loop takes fewer, larger messages, each still small enough
/// for a frame to follow it soon. The journal records the pieces as the loop got them; chunking
/// never changes what is parsed.
pub fn reader(
    parse: ParseOptions,
    to: mpsc::UnboundedSender<Msg>,
) -> std::sync::mpsc::Sender<Piece> {
    let (tx, rx) = std::sync::mpsc::channel::<Piece>();
    std::thread::spawn(move || read(&rx, parse, &to));
    tx
}

/// The reader's work, until its sender or the loop is gone.
fn read(
    rx: &std::sync::mpsc::Receiver<Piece>,
    parse: ParseOptions,
    to: &mpsc::UnboundedSender<Msg>,
) {
    let mut parser = StreamParser::new(parse);
    let mut next = None;
    while let Some(piece) = next.take().or_else(|| rx.recv().ok()) {
        let msg = match piece {
            Piece::Text(mut text) => {
                while text.len() < GATHER {
                    match rx.try_recv() {
                        Ok(Piece::Text(more)) => text.push_str(&more),
                        Ok(other) => {
                            next = Some(other);
                            break;
                        }
                        Err(_) => break,
                    }
                }
                let events = parser.push_str(&text);
                Msg::Parsed { text, events }
            }
            Piece::Done(mut done) => {
                done.last = parser.finish();
                Msg::StreamEnd(done)
            }
            Piece::Failed(msg) => msg,
        };
        if to.send(msg).is_err() {
            break;
        }
    }
}

/// How much piled-up text the reader passes on as one piece.
pub const GATHER: usize = 64 * 1024;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::parse::Event;

    /// The reader passes each piece on with the events a parser of the whole reply gives, and
    /// the stream's end with the edit its unterminated last line finishes.
    #[test]
    fn the_reader_gives_the_events_of_the_whole_reply_and_finishes_the_last_line() {
        let reply = "Here.\n\napp.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n\
                     >>>>>>> REPLACE\n```\n\nutil.py\n```python\n<<<<<<< SEARCH\ny = 1\n\
                     =======\ny = 3\n>>>>>>> REPLACE";
        let whole = crate::core::parse::parse_reply(reply, ParseOptions::default());
        assert_eq!(whole.iter().filter(|e| matches!(e, Event::Edit(_))).count(), 2);
        let (tx, mut out) = mpsc::unbounded_channel();
        let pieces = reader(ParseOptions::default(), tx);
        let mut events = Vec::new();
        let mut text = String::new();
        for part in reply.as_bytes().chunks(7) {
            pieces.send(Piece::Text(String::from_utf8(part.to_vec()).unwrap())).unwrap();
            let Some(Msg::Parsed { text: t, events: e }) = out.blocking_recv() else { panic!() };
            text.push_str(&t);
            events.extend(e);
        }
        assert_eq!(events.len(), 1, "the second edit waits for its last line's end");
        pieces.send(Piece::Done(StreamDone::default())).unwrap();
        let Some(Msg::StreamEnd(done)) = out.blocking_recv() else { panic!() };
        events.extend(done.last);
        assert_eq!((text.as_str(), events), (reply, whole));
        pieces.send(Piece::Failed(Msg::StreamCancelled)).unwrap();
        assert_eq!(out.blocking_recv(), Some(Msg::StreamCancelled), "a failure passes as it is");
    }

    /// Pieces sent faster than they are parsed may go on gathered, never past the end and never
    /// changing the text or the events.
    #[test]
    fn pieces_that_pile_up_go_on_gathered_with_the_same_text_and_events() {
        let edit =
            "app.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n";
        let reply = edit.repeat(3000);
        let whole = crate::core::parse::parse_reply(&reply, ParseOptions::default());
        let (tx, mut out) = mpsc::unbounded_channel();
        let (pieces, rx) = std::sync::mpsc::channel();
        let sent: Vec<&[u8]> = reply.as_bytes().chunks(5).collect();
        for part in &sent {
            pieces.send(Piece::Text(String::from_utf8(part.to_vec()).unwrap())).unwrap();
        }
        pieces.send(Piece::Done(StreamDone::default())).unwrap();
        drop(pieces);
        // All of it piled up before the reader starts.
        read(&rx, ParseOptions::default(), &tx);
        let (mut text, mut events, mut messages) = (String::new(), Vec::new(), 0);
        loop {
            match out.blocking_recv() {
                Some(Msg::Parsed { text: t, events: e }) => {
                    assert!(t.len() < GATHER + 5, "a gathered piece stays bounded");
                    text.push_str(&t);
                    events.extend(e);
                    messages += 1;
                }
                Some(Msg::StreamEnd(done)) => {
                    events.extend(done.last);
                    break;
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(text, reply);
        assert_eq!(events, whole);
        assert_eq!(
            messages,
            reply.len().div_ceil(GATHER),
            "{} bytes in 5-byte pieces",
            reply.len()
        );
    }
}

#[cfg(test)]
mod editor_tests {
    use super::*;

    fn given(text: &str) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().expect("temp");
        f.write_all(text.as_bytes()).expect("write");
        f.flush().expect("flush");
        // (An mtime the editor's save is sure to move past.)
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(5);
        f.as_file().set_modified(old).expect("mtime");
        f
    }

    #[test]
    fn an_editor_closed_without_saving_cancels_and_a_save_accepts() {
        let why = edit_with("true", given("x = 1\n"), "x = 1\n").unwrap_err();
        assert!(why.contains("without saving"), "{why}");
        // Saved unchanged (`:wq`): accepted as it is.
        assert_eq!(edit_with("touch", given("x = 1\n"), "x = 1\n").unwrap(), "x = 1\n");
        // Failing: unchanged, with the status.
        assert!(edit_with("false", given("x\n"), "x\n").unwrap_err().contains("exited"));
    }
}
