//! Reading a successful response's body for [`super::stream_chat`]: what kind of body it is (an
//! event stream, NDJSON, a whole JSON answer, or something else, such as a login page), the
//! events or lines decoded through [`super::wire`], the reply's text sent on redacted, and the
//! limits that end a body: no reply content for `read_timeout` (keep-alive comments and pings
//! do not count), more than `max_reply_bytes` of body, a cancel.
//!
//! A malformed event is reported ([`StreamMsg::Skipped`]) and skipped; the stream goes on. An
//! error the server reports in the stream ends it.
//!
//! Not for: sending requests, retries or the overall deadline (`client`), or what an event
//! means (`wire`).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use eventsource_stream::{EventStreamError, Eventsource};
use futures_util::{Stream, StreamExt};
use tokio::sync::mpsc::Sender;
use tokio_util::sync::CancellationToken;

use super::secrets::{Secrets, StreamRedactor};
use super::settings::{ProviderKind, ProviderSettings};
use super::wire::{self, Piece, Surrogates};
use super::{ProviderError, StreamEnd, StreamMsg, StreamSummary, Usage};

/// How much of a body that is not a reply is quoted in the error.
const QUOTED_BYTES: usize = 1024;
/// How much of an error response is read: error objects are small, a page need not be whole.
pub(super) const ERROR_BYTES: usize = 64 * 1024;

/// What a 200 response's `Content-Type` says the body is.
#[derive(Debug, PartialEq, Eq)]
enum BodyKind {
    /// Events (SSE) or lines (NDJSON), or unlabelled: decoded as the protocol's stream.
    Stream,
    /// One JSON document: an error object, or the whole answer at once.
    Whole,
    /// Anything else (an HTML page from a proxy or a login wall): named, never decoded.
    Foreign(String),
}

fn body_kind(content_type: Option<&str>, kind: ProviderKind) -> BodyKind {
    let Some(full) = content_type else { return BodyKind::Stream };
    let essence = full.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let json = essence == "application/json" || essence.ends_with("+json");
    match essence.as_str() {
        "text/event-stream" | "application/x-ndjson" | "application/ndjson" => BodyKind::Stream,
        // Ollama labels its NDJSON stream `application/json` at times.
        _ if json && kind == ProviderKind::Ollama => BodyKind::Stream,
        _ if json => BodyKind::Whole,
        _ => BodyKind::Foreign(full.trim().to_string()),
    }
}

pub(super) async fn read_body(
    settings: &ProviderSettings,
    resp: reqwest::Response,
    sent: Instant,
    tx: &Sender<StreamMsg>,
    cancel: &CancellationToken,
    secrets: &Secrets,
) -> Result<StreamSummary, ProviderError> {
    let content_type = resp
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    match body_kind(content_type.as_deref(), settings.kind) {
        BodyKind::Stream => {}
        BodyKind::Whole => return read_json_body(settings, resp, sent, tx, secrets).await,
        BodyKind::Foreign(content_type) => {
            let start = body_start(resp, settings.read_timeout, QUOTED_BYTES).await;
            let start = wire::excerpt(&secrets.redact(&start));
            return Err(ProviderError::NotAStream { content_type, start });
        }
    }
    let received = Arc::new(AtomicU64::new(0));
    let raw = raw_body(Box::pin(resp.bytes_stream()), settings.max_reply_bytes, received.clone());
    let mut p = Progress::new(sent, secrets.clone());
    let mut reader =
        Reader { settings, tx, cancel, received: &received, quiet_since: Instant::now() };
    let result = match settings.kind {
        ProviderKind::OpenAi | ProviderKind::Anthropic => reader.events(raw, &mut p).await,
        ProviderKind::Ollama => reader.lines(raw, &mut p).await,
    };
    // What the redactor held back goes out whatever happened; a closed channel is no matter.
    let _ = p.flush(tx).await;
    result?;
    let bytes = received.load(Ordering::Relaxed);
    // A server that closed cleanly after saying why it stopped has finished, marker or not.
    if !p.done && p.stop.is_none() {
        return Err(ProviderError::Cut { received_bytes: bytes });
    }
    Ok(p.summary(bytes))
}

/// The first `limit` bytes of a body (or all of a shorter one), as text, for an error message.
pub(super) async fn body_start(
    mut resp: reqwest::Response,
    timeout: Duration,
    limit: usize,
) -> String {
    let mut start = Vec::new();
    while start.len() < limit {
        match tokio::time::timeout(timeout, resp.chunk()).await {
            Ok(Ok(Some(bytes))) => start.extend_from_slice(&bytes),
            _ => break,
        }
    }
    start.truncate(limit);
    String::from_utf8_lossy(&start).trim().to_string()
}

/// A whole body as text: more than `cap` bytes is [`ProviderError::TooLarge`], so a body that
/// never ends cannot fill the memory.
async fn capped_text(
    mut resp: reqwest::Response,
    cap: u64,
    timeout: Duration,
) -> Result<String, ProviderError> {
    let mut bytes = Vec::new();
    loop {
        let received_bytes = bytes.len() as u64;
        match tokio::time::timeout(timeout, resp.chunk()).await {
            Err(_) => return Err(ProviderError::Stalled { timeout, received_bytes }),
            Ok(Err(_)) => return Err(ProviderError::Cut { received_bytes }),
            Ok(Ok(None)) => break,
            Ok(Ok(Some(chunk))) => bytes.extend_from_slice(&chunk),
        }
        if bytes.len() as u64 > cap {
            return Err(ProviderError::TooLarge { limit: cap });
        }
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// A failure of the raw body stream.
#[derive(Debug)]
enum RawError {
    Body,
    TooLarge,
}

/// The response body, with a running byte count that ends it past `cap`.
fn raw_body<S, B>(
    body: S,
    cap: u64,
    received: Arc<AtomicU64>,
) -> impl Stream<Item = Result<B, RawError>>
where
    S: Stream<Item = Result<B, reqwest::Error>> + Unpin,
    B: AsRef<[u8]>,
{
    futures_util::stream::unfold((body, false), move |(mut body, ended)| {
        let received = Arc::clone(&received);
        async move {
            if ended {
                return None;
            }
            match body.next().await {
                None => None,
                Some(Ok(bytes)) => {
                    let n = bytes.as_ref().len() as u64;
                    if received.fetch_add(n, Ordering::Relaxed) + n > cap {
                        return Some((Err(RawError::TooLarge), (body, true)));
                    }
                    Some((Ok(bytes), (body, false)))
                }
                Some(Err(_)) => Some((Err(RawError::Body), (body, true))),
            }
        }
    })
}

/// The loop's side of reading: where messages go, the limits, and when content last came.
struct Reader<'a> {
    settings: &'a ProviderSettings,
    tx: &'a Sender<StreamMsg>,
    cancel: &'a CancellationToken,
    received: &'a AtomicU64,
    quiet_since: Instant,
}

impl Reader<'_> {
    fn bytes(&self) -> u64 {
        self.received.load(Ordering::Relaxed)
    }

    fn transport(&self, e: RawError) -> ProviderError {
        match e {
            RawError::Body => ProviderError::Cut { received_bytes: self.bytes() },
            RawError::TooLarge => ProviderError::TooLarge { limit: self.settings.max_reply_bytes },
        }
    }

    /// The next item of `stream`, unless the reply is cancelled or has been silent too long.
    async fn next<S: Stream + Unpin>(
        &self,
        stream: &mut S,
    ) -> Result<Option<S::Item>, ProviderError> {
        let silent_until =
            tokio::time::Instant::from_std(self.quiet_since + self.settings.read_timeout);
        tokio::select! {
            _ = self.cancel.cancelled() => Err(ProviderError::Cancelled),
            _ = tokio::time::sleep_until(silent_until) => Err(ProviderError::Stalled {
                timeout: self.settings.read_timeout,
                received_bytes: self.bytes(),
            }),
            next = stream.next() => Ok(next),
        }
    }

    /// Hand an event's pieces on (a malformed event is reported and skipped); content resets
    /// the silence limit.
    async fn take(
        &mut self,
        decoded: Result<Vec<Piece>, ProviderError>,
        p: &mut Progress,
    ) -> Result<(), ProviderError> {
        let pieces = match decoded {
            Ok(pieces) => pieces,
            Err(ProviderError::Malformed { event, message }) => {
                let why = format!("skipped a malformed `{event}` event from the server: {message}");
                let why = p.secrets.redact(&why);
                return self
                    .tx
                    .send(StreamMsg::Skipped(why))
                    .await
                    .map_err(|_| ProviderError::Cancelled);
            }
            Err(e) => return Err(e),
        };
        if !pieces.is_empty() {
            self.quiet_since = Instant::now();
        }
        p.take(pieces, self.tx).await
    }

    async fn events<S, B>(&mut self, raw: S, p: &mut Progress) -> Result<(), ProviderError>
    where
        S: Stream<Item = Result<B, RawError>>,
        B: AsRef<[u8]>,
    {
        // Bytes that are not UTF-8 are read as U+FFFD, said once, and the stream goes on.
        let replaced = Arc::new(AtomicU64::new(0));
        let counted = replaced.clone();
        let mut utf8 = super::utf8::LossyUtf8::default();
        let valid = raw.map(move |chunk| {
            chunk.map(|b| {
                let out = utf8.push(b.as_ref());
                counted.store(utf8.replaced as u64, Ordering::Relaxed);
                out
            })
        });
        let mut events = Box::pin(valid.eventsource());
        let mut surrogates = Surrogates::default();
        let mut said = false;
        while !p.done {
            let event = match self.next(&mut events).await? {
                None => break,
                Some(Ok(event)) => event,
                Some(Err(EventStreamError::Transport(e))) => return Err(self.transport(e)),
                Some(Err(EventStreamError::Utf8(e))) => {
                    return Err(ProviderError::Malformed {
                        event: "(stream)".into(),
                        message: format!("the event stream is not UTF-8: {e}"),
                    });
                }
                Some(Err(EventStreamError::Parser(e))) => {
                    return Err(ProviderError::Malformed {
                        event: "(stream)".into(),
                        message: format!("not a server-sent event: {e:?}"),
                    });
                }
            };
            if !said && replaced.load(Ordering::Relaxed) > 0 {
                said = true;
                let why = "the server sent bytes that are not UTF-8: they are read as \u{fffd} (U+FFFD), and the stream goes on".to_string();
                self.tx
                    .send(StreamMsg::Skipped(why))
                    .await
                    .map_err(|_| ProviderError::Cancelled)?;
            }
            let data = surrogates.join(&event.data);
            let decoded = match self.settings.kind {
                ProviderKind::Anthropic => wire::anthropic_event(&event.event, &data),
                _ => wire::openai_event(&data),
            };
            self.take(decoded, p).await?;
        }
        Ok(())
    }

    async fn lines<S, B>(&mut self, raw: S, p: &mut Progress) -> Result<(), ProviderError>
    where
        S: Stream<Item = Result<B, RawError>>,
        B: AsRef<[u8]>,
    {
        let mut raw = Box::pin(raw);
        let mut pending: Vec<u8> = Vec::new();
        let mut surrogates = Surrogates::default();
        while !p.done {
            let last = match self.next(&mut raw).await? {
                None => true,
                Some(Ok(chunk)) => {
                    pending.extend_from_slice(chunk.as_ref());
                    false
                }
                Some(Err(e)) => return Err(self.transport(e)),
            };
            while let Some(nl) = pending.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = pending.drain(..=nl).collect();
                self.take(ollama_line(&line, &mut surrogates), p).await?;
                if p.done {
                    break;
                }
            }
            if last {
                if !pending.is_empty() && !p.done {
                    let line = std::mem::take(&mut pending);
                    self.take(ollama_line(&line, &mut surrogates), p).await?;
                }
                break;
            }
        }
        Ok(())
    }
}

fn ollama_line(line: &[u8], surrogates: &mut Surrogates) -> Result<Vec<Piece>, ProviderError> {
    let text = std::str::from_utf8(line).map_err(|e| ProviderError::Malformed {
        event: "chat".into(),
        message: format!("a line that is not UTF-8: {e}"),
    })?;
    wire::ollama_line(&surrogates.join(text))
}

/// What the body said so far.
struct Progress {
    sent: Instant,
    first_text: Option<Duration>,
    usage: Option<Usage>,
    stop: Option<String>,
    done: bool,
    redactor: StreamRedactor,
    secrets: Secrets,
}

impl Progress {
    fn new(sent: Instant, secrets: Secrets) -> Progress {
        Progress {
            sent,
            first_text: None,
            usage: None,
            stop: None,
            done: false,
            redactor: StreamRedactor::new(secrets.clone()),
            secrets,
        }
    }

    async fn take(
        &mut self,
        pieces: Vec<Piece>,
        tx: &Sender<StreamMsg>,
    ) -> Result<(), ProviderError> {
        for piece in pieces {
            match piece {
                Piece::Text(text) => {
                    self.first_text.get_or_insert_with(|| self.sent.elapsed());
                    let ready = self.redactor.push(&text);
                    if !ready.is_empty() {
                        tx.send(StreamMsg::Text(ready))
                            .await
                            .map_err(|_| ProviderError::Cancelled)?;
                    }
                }
                Piece::Usage(u) => {
                    let old = self.usage.unwrap_or_default();
                    self.usage = Some(Usage {
                        input_tokens: u.input_tokens.or(old.input_tokens),
                        output_tokens: u.output_tokens.or(old.output_tokens),
                    });
                }
                Piece::Stop(reason) => self.stop = Some(reason),
                Piece::Done => self.done = true,
            }
        }
        Ok(())
    }

    /// Send what the redactor held back: the text has ended.
    async fn flush(&mut self, tx: &Sender<StreamMsg>) -> Result<(), ProviderError> {
        let rest = self.redactor.finish();
        if rest.is_empty() {
            return Ok(());
        }
        tx.send(StreamMsg::Text(rest)).await.map_err(|_| ProviderError::Cancelled)
    }

    fn summary(&self, received_bytes: u64) -> StreamSummary {
        StreamSummary {
            usage: self.usage,
            time_to_first_token: self.first_text,
            total: Duration::ZERO,
            end: StreamEnd { reason: self.stop.clone() },
            attempts: 0,
            received_bytes: usize::try_from(received_bytes).unwrap_or(usize::MAX),
        }
    }
}

/// A JSON body where a stream was asked for: an error object, or a server that ignored `stream`
/// and sent the whole answer at once.
async fn read_json_body(
    settings: &ProviderSettings,
    resp: reqwest::Response,
    sent: Instant,
    tx: &Sender<StreamMsg>,
    secrets: &Secrets,
) -> Result<StreamSummary, ProviderError> {
    let body = capped_text(resp, settings.max_reply_bytes, settings.read_timeout).await?;
    let value = serde_json::from_str::<serde_json::Value>(&body).ok();
    if let Some(message) = value.as_ref().and_then(wire::error_message) {
        return Err(ProviderError::Server { message: secrets.redact(&message) });
    }
    let Some(pieces) = value.as_ref().and_then(wire::whole_response) else {
        return Err(ProviderError::Malformed {
            event: "response".into(),
            message: format!(
                "expected an event stream, got application/json: {}",
                wire::excerpt(&secrets.redact(&body))
            ),
        });
    };
    let mut p = Progress::new(sent, secrets.clone());
    p.take(pieces, tx).await?;
    p.flush(tx).await?;
    Ok(p.summary(body.len() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types() {
        let openai = ProviderKind::OpenAi;
        assert_eq!(body_kind(Some("text/event-stream; charset=utf-8"), openai), BodyKind::Stream);
        assert_eq!(body_kind(None, openai), BodyKind::Stream);
        assert_eq!(body_kind(Some("application/json"), openai), BodyKind::Whole);
        assert_eq!(body_kind(Some("application/json"), ProviderKind::Ollama), BodyKind::Stream);
        assert_eq!(
            body_kind(Some("text/html; charset=UTF-8"), openai),
            BodyKind::Foreign("text/html; charset=UTF-8".into())
        );
    }
}
