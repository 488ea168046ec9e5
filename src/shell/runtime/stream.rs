//! What the loop starts outside itself: a reply streamed from the model server (a task of its
//! own, its parts sent to the loop as messages) and the user's editor.
//!
//! Not for: the protocol (`provider`), what the reply means (`app`, `core`).

use std::io::Write;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::app::{Msg, StreamDone};
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

pub fn start_stream(
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
                    Err(ProviderError::Cancelled) => Msg::StreamCancelled,
                    Err(e) => Msg::StreamError(e.to_string()),
                };
                let _ = tx.send(msg);
            });
        }
    }
}
