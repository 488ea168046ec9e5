//! The HTTP side of [`stream_chat`]: sending the request, retrying refusals, the reply's
//! deadline, and keeping secrets out of every message; reading the body is [`super::body`]'s.
//!
//! Retries: HTTP 429 and 5xx (529 included) and failed connections are retried, with
//! exponential backoff and jitter or the server's `Retry-After`, at most
//! [`ProviderSettings::max_retries`] times, and only before any body text arrived: a request
//! that already produced text is never sent again, since its text is already on its way.

use std::time::{Duration, Instant, SystemTime};

use reqwest::StatusCode;
use reqwest::header::{HeaderMap, RETRY_AFTER};
use tokio::sync::mpsc::Sender;
use tokio_util::sync::CancellationToken;
use url::Url;

use super::body::{ERROR_BYTES, body_start, read_body};
use super::endpoint::shown;
use super::secrets::Secrets;
use super::settings::{ProviderKind, ProviderSettings};
use super::wire;
use super::{ChatRequest, ProviderError, StreamMsg, StreamSummary};

/// The longest wait between attempts, whatever `Retry-After` says.
const MAX_WAIT: Duration = Duration::from_secs(60);

/// Stream one reply: `Text` chunks go to `tx` as they arrive; the summary or the error is
/// returned. Cancelling `cancel` drops the connection at once and returns
/// [`ProviderError::Cancelled`], as does a closed `tx`. A reply not finished within
/// [`ProviderSettings::deadline`] ends in [`ProviderError::Deadline`].
pub async fn stream_chat(
    settings: &ProviderSettings,
    req: &ChatRequest,
    tx: Sender<StreamMsg>,
    cancel: CancellationToken,
) -> Result<StreamSummary, ProviderError> {
    let secrets = secrets_of(settings);
    let run = attempts(settings, req, tx, cancel, &secrets);
    let result = match tokio::time::timeout(settings.deadline, run).await {
        Ok(result) => result,
        Err(_) => Err(ProviderError::Deadline { limit: settings.deadline }),
    };
    result.map_err(|e| redact_error(e, &secrets))
}

/// The key and the base URL's credentials: what no message or reply text may show.
pub fn secrets_of(settings: &ProviderSettings) -> Secrets {
    let key = settings.api_key.as_ref().map(|k| k.expose().to_string());
    Secrets::new(key.into_iter().chain(settings.base_url.secrets()))
}

/// Every message a server wrote, with the secrets (should the server quote them) as `***`.
fn redact_error(err: ProviderError, secrets: &Secrets) -> ProviderError {
    let r = |m: String| secrets.redact(&m);
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
            ProviderError::Connect { url: r(url), message: r(message) }
        }
        ProviderError::Malformed { event, message } => {
            ProviderError::Malformed { event, message: r(message) }
        }
        ProviderError::NotAStream { content_type, start } => {
            ProviderError::NotAStream { content_type: r(content_type), start: r(start) }
        }
        ProviderError::Server { message } => ProviderError::Server { message: r(message) },
        ProviderError::Client(message) => ProviderError::Client(r(message)),
        e @ (ProviderError::Cut { .. }
        | ProviderError::Stalled { .. }
        | ProviderError::TooLarge { .. }
        | ProviderError::Deadline { .. }
        | ProviderError::Cancelled) => e,
    }
}

async fn attempts(
    settings: &ProviderSettings,
    req: &ChatRequest,
    tx: Sender<StreamMsg>,
    cancel: CancellationToken,
    secrets: &Secrets,
) -> Result<StreamSummary, ProviderError> {
    let client = reqwest::Client::builder()
        .connect_timeout(settings.read_timeout)
        .build()
        .map_err(|e| ProviderError::Client(e.to_string()))?;
    let started = Instant::now();
    let url = settings.base_url.endpoint(settings.kind);
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
                    return Err(ProviderError::Connect { url: shown(&url), message });
                }
                Retry { wait: backoff(settings.backoff_base, attempt), reason: message }
            }
            Ok(Ok(resp)) => {
                let status = resp.status();
                if status.is_success() {
                    let mut summary =
                        read_body(settings, resp, sent, &tx, &cancel, secrets).await?;
                    summary.total = started.elapsed();
                    summary.attempts = attempt;
                    return Ok(summary);
                }
                let after = retry_after(resp.headers(), SystemTime::now());
                let message = error_body(resp, settings.read_timeout, secrets).await;
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
            reason: secrets.redact(&retry.reason),
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

fn build_request(
    client: &reqwest::Client,
    settings: &ProviderSettings,
    req: &ChatRequest,
    url: &Url,
) -> reqwest::RequestBuilder {
    let key = settings.api_key.as_ref().map(|k| k.expose());
    match settings.kind {
        ProviderKind::OpenAi => {
            let b = client.post(url.clone()).json(&wire::openai_body(req));
            match key {
                Some(k) => b.bearer_auth(k),
                None => b,
            }
        }
        ProviderKind::Anthropic => {
            let b = client
                .post(url.clone())
                .header("anthropic-version", "2023-06-01")
                .json(&wire::anthropic_body(req));
            match key {
                Some(k) => b.header("x-api-key", k),
                None => b,
            }
        }
        ProviderKind::Ollama => {
            let b = client.post(url.clone()).json(&wire::ollama_body(req));
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

/// The server's own words from an error response: its JSON `error.message`, or the body;
/// redacted before anything is cut to a display length, so no part of a key can slip through.
async fn error_body(resp: reqwest::Response, timeout: Duration, secrets: &Secrets) -> String {
    let status = resp.status();
    let body = secrets.redact(&body_start(resp, timeout, ERROR_BYTES).await);
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
