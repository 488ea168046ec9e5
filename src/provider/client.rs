//! The HTTP side of [`stream_chat`]: sending the request, retrying refusals, reading the body
//! with a read timeout, decoding events through [`super::wire`], and sending text on.
//!
//! Retries: HTTP 429 and 5xx (529 included) and failed connections are retried, with
//! exponential backoff and jitter or the server's `Retry-After`, at most
//! [`ProviderSettings::max_retries`] times, and only before any body text arrived: a request
//! that already produced text is never sent again, since its text is already on its way.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime};

use eventsource_stream::{EventStreamError, Eventsource};
use futures_util::{Stream, StreamExt};
use reqwest::StatusCode;
use reqwest::header::{HeaderMap, RETRY_AFTER};
use tokio::sync::mpsc::Sender;
use tokio_util::sync::CancellationToken;

use super::settings::{ProviderKind, ProviderSettings};
use super::wire::{self, Piece};
use super::{ChatRequest, ProviderError, StreamEnd, StreamMsg, StreamSummary, Usage};

/// The longest wait between attempts, whatever `Retry-After` says.
const MAX_WAIT: Duration = Duration::from_secs(60);

/// Stream one reply: `Text` chunks go to `tx` as they arrive; the summary or the error is
/// returned. Cancelling `cancel` drops the connection at once and returns
/// [`ProviderError::Cancelled`], as does a closed `tx`.
pub async fn stream_chat(
    settings: &ProviderSettings,
    req: &ChatRequest,
    tx: Sender<StreamMsg>,
    cancel: CancellationToken,
) -> Result<StreamSummary, ProviderError> {
    attempts(settings, req, tx, cancel).await.map_err(|e| redact_error(e, settings))
}

/// Every message a server wrote, with the key (should the server quote it) replaced by `***`.
fn redact_error(err: ProviderError, settings: &ProviderSettings) -> ProviderError {
    let r = |m: String| redact(&m, settings);
    match err {
        ProviderError::Auth { status, message } => {
            ProviderError::Auth { status, message: r(message) }
        }
        ProviderError::Http { status, message } => {
            ProviderError::Http { status, message: r(message) }
        }
        ProviderError::RetriesExhausted { status, attempts, message } => {
            ProviderError::RetriesExhausted { status, attempts, message: r(message) }
        }
        ProviderError::Connect { url, message } => {
            ProviderError::Connect { url, message: r(message) }
        }
        ProviderError::Malformed { event, message } => {
            ProviderError::Malformed { event, message: r(message) }
        }
        ProviderError::Server { message } => ProviderError::Server { message: r(message) },
        ProviderError::Client(message) => ProviderError::Client(r(message)),
        e @ (ProviderError::Cut { .. }
        | ProviderError::Stalled { .. }
        | ProviderError::Cancelled) => e,
    }
}

async fn attempts(
    settings: &ProviderSettings,
    req: &ChatRequest,
    tx: Sender<StreamMsg>,
    cancel: CancellationToken,
) -> Result<StreamSummary, ProviderError> {
    let client = reqwest::Client::builder()
        .connect_timeout(settings.read_timeout)
        .build()
        .map_err(|e| ProviderError::Client(e.to_string()))?;
    let started = Instant::now();
    let url = endpoint(settings);
    let mut attempt = 0;
    loop {
        attempt += 1;
        let sent = Instant::now();
        let request = build_request(&client, settings, req, &url);
        let response = tokio::select! {
            _ = cancel.cancelled() => return Err(ProviderError::Cancelled),
            r = tokio::time::timeout(settings.read_timeout, request.send()) => r,
        };
        let retry = match response {
            Err(_) => {
                return Err(ProviderError::Stalled {
                    timeout: settings.read_timeout,
                    received_bytes: 0,
                });
            }
            Ok(Err(e)) => {
                let message = without_url(e);
                if attempt > settings.max_retries {
                    return Err(ProviderError::Connect { url: url.clone(), message });
                }
                Retry { wait: backoff(settings.backoff_base, attempt), reason: message }
            }
            Ok(Ok(resp)) => {
                let status = resp.status();
                if status.is_success() {
                    let mut summary = read_body(settings, resp, sent, &tx, &cancel).await?;
                    summary.total = started.elapsed();
                    summary.attempts = attempt;
                    return Ok(summary);
                }
                let after = retry_after(resp.headers(), SystemTime::now());
                let message = error_body(resp, settings.read_timeout).await;
                let code = status.as_u16();
                if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
                    return Err(ProviderError::Auth { status: code, message });
                }
                if !(status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error()) {
                    return Err(ProviderError::Http { status: code, message });
                }
                if attempt > settings.max_retries {
                    return Err(ProviderError::RetriesExhausted {
                        status: code,
                        attempts: attempt,
                        message,
                    });
                }
                let wait = after.unwrap_or_else(|| backoff(settings.backoff_base, attempt));
                Retry { wait: wait.min(MAX_WAIT), reason: format!("HTTP {code}: {message}") }
            }
        };
        let msg = StreamMsg::Retrying {
            attempt,
            wait: retry.wait,
            reason: redact(&retry.reason, settings),
        };
        if tx.send(msg).await.is_err() {
            return Err(ProviderError::Cancelled);
        }
        tokio::select! {
            _ = cancel.cancelled() => return Err(ProviderError::Cancelled),
            _ = tokio::time::sleep(retry.wait) => {}
        }
    }
}

struct Retry {
    wait: Duration,
    reason: String,
}

/// The URL a provider's chat endpoint is at, under the configured base URL.
pub fn endpoint(settings: &ProviderSettings) -> String {
    let base = settings.base_url.trim_end_matches('/');
    match settings.kind {
        ProviderKind::OpenAi => format!("{base}/chat/completions"),
        ProviderKind::Anthropic if base.ends_with("/v1") => format!("{base}/messages"),
        ProviderKind::Anthropic => format!("{base}/v1/messages"),
        ProviderKind::Ollama => format!("{base}/api/chat"),
    }
}

fn build_request(
    client: &reqwest::Client,
    settings: &ProviderSettings,
    req: &ChatRequest,
    url: &str,
) -> reqwest::RequestBuilder {
    let key = settings.api_key.as_ref().map(|k| k.expose());
    match settings.kind {
        ProviderKind::OpenAi => {
            let b = client.post(url).json(&wire::openai_body(req));
            match key {
                Some(k) => b.bearer_auth(k),
                None => b,
            }
        }
        ProviderKind::Anthropic => {
            let b = client
                .post(url)
                .header("anthropic-version", "2023-06-01")
                .json(&wire::anthropic_body(req));
            match key {
                Some(k) => b.header("x-api-key", k),
                None => b,
            }
        }
        ProviderKind::Ollama => {
            let b = client.post(url).json(&wire::ollama_body(req));
            match key {
                Some(k) => b.bearer_auth(k),
                None => b,
            }
        }
    }
}

/// `attempt` (1-based) failed: wait `base * 2^(attempt-1)`, halved and then topped up by a random
/// part of the other half (so that clients refused together do not come back together).
pub fn backoff(base: Duration, attempt: u32) -> Duration {
    let full = base.saturating_mul(1 << attempt.saturating_sub(1).min(16)).min(MAX_WAIT);
    let half = full / 2;
    half + half.mul_f64(fastrand::f64())
}

/// `Retry-After` as seconds or as an HTTP date (relative to `now`).
pub fn retry_after(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    if let Ok(secs) = value.parse::<f64>()
        && secs.is_finite()
        && secs >= 0.0
    {
        return Some(Duration::from_secs_f64(secs.min(MAX_WAIT.as_secs_f64())));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// The server's own words from an error response: its JSON `error.message`, or the body.
async fn error_body(resp: reqwest::Response, timeout: Duration) -> String {
    let status = resp.status();
    let body = match tokio::time::timeout(timeout, resp.text()).await {
        Ok(Ok(text)) => text,
        _ => String::new(),
    };
    let from_json = serde_json::from_str::<serde_json::Value>(&body).ok().and_then(|v| {
        wire::error_message(&v).or_else(|| v.get("message")?.as_str().map(Into::into))
    });
    match from_json {
        Some(m) => m,
        None if body.trim().is_empty() => {
            status.canonical_reason().unwrap_or("no message").to_string()
        }
        None => wire::excerpt(body.trim()),
    }
}

/// A transport error's text, with its causes, without the URL (it may carry credentials).
fn without_url(e: reqwest::Error) -> String {
    let e = e.without_url();
    let mut text = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// Servers sometimes quote the key they refused; it never leaves this module.
fn redact(message: &str, settings: &ProviderSettings) -> String {
    match &settings.api_key {
        Some(key) if !key.expose().is_empty() => message.replace(key.expose(), "***"),
        _ => message.to_string(),
    }
}

/// A failure of the raw body stream.
#[derive(Debug)]
enum RawError {
    Stalled,
    Body,
}

/// The response body, with a timeout on each read and a running byte count.
fn raw_body<S, B>(
    body: S,
    timeout: Duration,
    received: Arc<AtomicUsize>,
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
            match tokio::time::timeout(timeout, body.next()).await {
                Err(_) => Some((Err(RawError::Stalled), (body, true))),
                Ok(None) => None,
                Ok(Some(Ok(bytes))) => {
                    received.fetch_add(bytes.as_ref().len(), Ordering::Relaxed);
                    Some((Ok(bytes), (body, false)))
                }
                Ok(Some(Err(_))) => Some((Err(RawError::Body), (body, true))),
            }
        }
    })
}

/// What the body said so far.
struct Progress {
    sent: Instant,
    first_text: Option<Duration>,
    usage: Option<Usage>,
    stop: Option<String>,
    done: bool,
}

impl Progress {
    async fn take(
        &mut self,
        pieces: Vec<Piece>,
        tx: &Sender<StreamMsg>,
    ) -> Result<(), ProviderError> {
        for piece in pieces {
            match piece {
                Piece::Text(text) => {
                    self.first_text.get_or_insert_with(|| self.sent.elapsed());
                    tx.send(StreamMsg::Text(text)).await.map_err(|_| ProviderError::Cancelled)?;
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
}

async fn read_body(
    settings: &ProviderSettings,
    resp: reqwest::Response,
    sent: Instant,
    tx: &Sender<StreamMsg>,
    cancel: &CancellationToken,
) -> Result<StreamSummary, ProviderError> {
    let json_body = resp
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if json_body && settings.kind != ProviderKind::Ollama {
        return read_json_body(settings, resp, sent, tx).await;
    }
    let received = Arc::new(AtomicUsize::new(0));
    let raw = raw_body(Box::pin(resp.bytes_stream()), settings.read_timeout, received.clone());
    let mut p = Progress { sent, first_text: None, usage: None, stop: None, done: false };
    let bytes = || received.load(Ordering::Relaxed);
    let transport = |e: RawError| match e {
        RawError::Stalled => {
            ProviderError::Stalled { timeout: settings.read_timeout, received_bytes: bytes() }
        }
        RawError::Body => ProviderError::Cut { received_bytes: bytes() },
    };
    match settings.kind {
        ProviderKind::OpenAi | ProviderKind::Anthropic => {
            let mut events = Box::pin(raw.eventsource());
            while !p.done {
                let next = tokio::select! {
                    _ = cancel.cancelled() => return Err(ProviderError::Cancelled),
                    next = events.next() => next,
                };
                let event = match next {
                    None => break,
                    Some(Ok(event)) => event,
                    Some(Err(EventStreamError::Transport(e))) => return Err(transport(e)),
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
                let pieces = match settings.kind {
                    ProviderKind::Anthropic => wire::anthropic_event(&event.event, &event.data)?,
                    _ => wire::openai_event(&event.data)?,
                };
                p.take(pieces, tx).await?;
            }
        }
        ProviderKind::Ollama => {
            let mut raw = Box::pin(raw);
            let mut pending: Vec<u8> = Vec::new();
            while !p.done {
                let next = tokio::select! {
                    _ = cancel.cancelled() => return Err(ProviderError::Cancelled),
                    next = raw.next() => next,
                };
                let last = match next {
                    None => true,
                    Some(Ok(chunk)) => {
                        pending.extend_from_slice(chunk.as_ref());
                        false
                    }
                    Some(Err(e)) => return Err(transport(e)),
                };
                while let Some(nl) = pending.iter().position(|b| *b == b'\n') {
                    let line: Vec<u8> = pending.drain(..=nl).collect();
                    p.take(ollama_line(&line)?, tx).await?;
                    if p.done {
                        break;
                    }
                }
                if last {
                    if !pending.is_empty() && !p.done {
                        let line = std::mem::take(&mut pending);
                        p.take(ollama_line(&line)?, tx).await?;
                    }
                    break;
                }
            }
        }
    }
    // A server that closed cleanly after saying why it stopped has finished, marker or not.
    if !p.done && p.stop.is_none() {
        return Err(ProviderError::Cut { received_bytes: bytes() });
    }
    Ok(StreamSummary {
        usage: p.usage,
        time_to_first_token: p.first_text,
        total: Duration::ZERO,
        end: StreamEnd { reason: p.stop },
        attempts: 0,
        received_bytes: bytes(),
    })
}

/// A JSON body where a stream was asked for: an error object, or a server that ignored `stream`
/// and sent the whole answer at once.
async fn read_json_body(
    settings: &ProviderSettings,
    resp: reqwest::Response,
    sent: Instant,
    tx: &Sender<StreamMsg>,
) -> Result<StreamSummary, ProviderError> {
    let body = match tokio::time::timeout(settings.read_timeout, resp.text()).await {
        Ok(Ok(text)) => text,
        Ok(Err(_)) => return Err(ProviderError::Cut { received_bytes: 0 }),
        Err(_) => {
            return Err(ProviderError::Stalled {
                timeout: settings.read_timeout,
                received_bytes: 0,
            });
        }
    };
    let value = serde_json::from_str::<serde_json::Value>(&body).ok();
    if let Some(message) = value.as_ref().and_then(wire::error_message) {
        return Err(ProviderError::Server { message });
    }
    let Some(pieces) = value.as_ref().and_then(wire::whole_response) else {
        return Err(ProviderError::Malformed {
            event: "response".into(),
            message: format!(
                "expected an event stream, got application/json: {}",
                wire::excerpt(&body)
            ),
        });
    };
    let mut p = Progress { sent, first_text: None, usage: None, stop: None, done: false };
    p.take(pieces, tx).await?;
    Ok(StreamSummary {
        usage: p.usage,
        time_to_first_token: p.first_text,
        total: Duration::ZERO,
        end: StreamEnd { reason: p.stop },
        attempts: 0,
        received_bytes: body.len(),
    })
}

fn ollama_line(line: &[u8]) -> Result<Vec<Piece>, ProviderError> {
    let text = std::str::from_utf8(line).map_err(|e| ProviderError::Malformed {
        event: "chat".into(),
        message: format!("a line that is not UTF-8: {e}"),
    })?;
    wire::ollama_line(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn retry_after_seconds_and_dates() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let mut h = HeaderMap::new();
        assert_eq!(retry_after(&h, now), None);
        h.insert(RETRY_AFTER, HeaderValue::from_static("2"));
        assert_eq!(retry_after(&h, now), Some(Duration::from_secs(2)));
        let date = httpdate::fmt_http_date(now + Duration::from_secs(5));
        h.insert(RETRY_AFTER, HeaderValue::from_str(&date).unwrap_or(HeaderValue::from_static("")));
        assert_eq!(retry_after(&h, now), Some(Duration::from_secs(5)));
        h.insert(RETRY_AFTER, HeaderValue::from_static("soon"));
        assert_eq!(retry_after(&h, now), None);
    }

    #[test]
    fn backoff_grows_and_stays_bounded() {
        let base = Duration::from_millis(100);
        for attempt in 1..6 {
            let full = base * (1 << (attempt - 1));
            let d = backoff(base, attempt);
            assert!(d >= full / 2 && d <= full, "{attempt}: {d:?}");
        }
        assert!(backoff(base, 40) <= MAX_WAIT);
    }
}
