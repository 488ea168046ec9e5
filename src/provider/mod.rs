//! Talking to language models over the network: one streaming interface, [`stream_chat`], over
//! three wire protocols (OpenAI-compatible chat completions, Anthropic Messages, Ollama's
//! `/api/chat`), with retries, a silence limit, a deadline, a size cap and cancellation.
//!
//! Text arrives on a channel as [`StreamMsg::Text`] chunks the moment they are decoded; the call
//! returns a [`StreamSummary`] (token usage, time to first token, total time, how the stream
//! ended) or a typed [`ProviderError`]. Which server, model and key to use is decided by
//! [`settings`], a pure function of flags, environment and config file.
//!
//! Not for: building prompts (`core::prompt`), parsing the reply into edits (`core::stream`), or
//! deciding what to do with a failed stream (the caller keeps the edits it already has). API keys
//! live only in [`ApiKey`], which never prints them; the key and a base URL's credentials are
//! redacted ([`secrets`]) from every message and from the reply text itself.

mod body;
mod client;
pub mod endpoint;
pub mod secrets;
pub mod settings;
mod utf8;
pub mod wire;

use std::fmt;
use std::time::Duration;

use serde::Serialize;
use thiserror::Error;

pub use client::{secrets_of, stream_chat};
pub use endpoint::BaseUrl;
pub use settings::{ProviderKind, ProviderSettings, SettingsError};

/// A secret API key. `Debug` and `Display` print `***`; only [`ApiKey::expose`] gives the key,
/// and only the request headers use it.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        ApiKey(key.into())
    }

    /// The key itself, for a request header. Never log or print the result.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// One message of a conversation: the same type the prompt builders produce.
pub use crate::core::prompt::{Message as ChatMessage, Role};

/// What to ask the model.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    pub model: String,
    pub messages: Vec<ChatMessage>,
    /// Required by Anthropic; [`DEFAULT_MAX_TOKENS`] is sent there when `None`.
    pub max_tokens: Option<u32>,
    pub temperature: Option<f32>,
}

/// Anthropic requires `max_tokens`; this is sent when the request leaves it open.
pub const DEFAULT_MAX_TOKENS: u32 = 8192;

/// What the stream task sends while it runs.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamMsg {
    /// Reply text, in order, as it arrived.
    Text(String),
    /// The server refused or failed before sending text; the request is sent again after `wait`.
    Retrying { attempt: u32, wait: Duration, reason: String },
    /// A malformed event was left out (why); the stream goes on.
    Skipped(String),
}

/// Token counts, as the server reported them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
}

/// How a stream that did not fail ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StreamEnd {
    /// The server's reason (`stop`, `end_turn`, `length`, `max_tokens`, ...), when it gave one.
    pub reason: Option<String>,
}

impl StreamEnd {
    /// True when the model stopped because it ran out of tokens: the reply is incomplete.
    pub fn hit_token_limit(&self) -> bool {
        matches!(self.reason.as_deref(), Some("length" | "max_tokens"))
    }
}

/// A finished stream.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StreamSummary {
    pub usage: Option<Usage>,
    /// From sending the (last) request to the first text.
    pub time_to_first_token: Option<Duration>,
    /// From the first request to the end of the stream, retries included.
    pub total: Duration,
    pub end: StreamEnd,
    /// Requests sent (1 when nothing was retried).
    pub attempts: u32,
    /// Bytes of the response body received.
    pub received_bytes: usize,
}

/// Why a stream failed. Messages name what a person can do about it and never hold an API key.
#[derive(Debug, Error)]
pub enum ProviderError {
    #[error(
        "the server refused the credentials (HTTP {status}): {message}; check the API key for this provider"
    )]
    Auth { status: u16, message: String },
    #[error("the server answered HTTP {status}: {message}")]
    Http { status: u16, message: String },
    #[error("the server answered HTTP {status} on all {attempts} attempts; last answer: {message}")]
    RetriesExhausted { status: u16, attempts: u32, message: String },
    #[error("cannot reach {url}: {message}")]
    Connect { url: String, message: String },
    #[error("the stream was cut after {received_bytes} bytes, before the server said it was done")]
    Cut { received_bytes: u64 },
    #[error(
        "no reply content from the server for {} s (after {received_bytes} bytes); raise --timeout for slow models",
        timeout.as_secs_f64()
    )]
    Stalled { timeout: Duration, received_bytes: u64 },
    #[error("the reply passed {limit} bytes and was stopped (--max-reply-bytes)")]
    TooLarge { limit: u64 },
    #[error(
        "the reply was not finished within {} s and was stopped (--deadline)",
        limit.as_secs_f64()
    )]
    Deadline { limit: Duration },
    #[error(
        "the server answered with {content_type}, not a reply stream (is the base URL right?): {start}"
    )]
    NotAStream { content_type: String, start: String },
    #[error("malformed `{event}` event from the server: {message}")]
    Malformed { event: String, message: String },
    #[error("the server reported an error mid-stream: {message}")]
    Server { message: String },
    #[error("cancelled")]
    Cancelled,
    #[error("cannot build the HTTP client: {0}")]
    Client(String),
}
