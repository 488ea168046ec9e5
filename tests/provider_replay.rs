//! `stream_chat` against the raw responses recorded from aimock and LiteLLM
//! (`tests/sse/*.txt`, copied from the project's reference recordings), replayed byte for byte
//! by a loopback server in small pieces: every protocol's stream decodes to the same reply, cut
//! recordings end in `ProviderError::Cut`, error recordings in the right typed error, and a
//! corrupted event is
//! reported (naming it) and skipped while the rest of the reply still arrives.

mod provider_support;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use redline::provider::settings::{
    DEFAULT_DEADLINE, DEFAULT_MAX_REPLY_BYTES, ProviderKind, ProviderSettings,
};
use redline::provider::{
    ApiKey, BaseUrl, ChatMessage, ChatRequest, ProviderError, Role, StreamMsg, StreamSummary,
    stream_chat,
};
use tokio_util::sync::CancellationToken;

/// A loopback server answering every connection with the same raw bytes, then closing it.
struct Replay {
    port: u16,
    stop: Arc<AtomicBool>,
}

impl Drop for Replay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn read_request(stream: &mut TcpStream) {
    // Read the headers and the Content-Length body, so the client has sent everything.
    let mut buf = Vec::new();
    let mut byte = [0u8; 1024];
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    loop {
        let Ok(n) = stream.read(&mut byte) else { return };
        if n == 0 {
            return;
        }
        buf.extend_from_slice(&byte[..n]);
        let text = String::from_utf8_lossy(&buf).to_string();
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end]
                .lines()
                .find_map(|l| {
                    let (k, v) = l.split_once(':')?;
                    k.eq_ignore_ascii_case("content-length").then(|| v.trim().parse().ok())?
                })
                .unwrap_or(0usize);
            if buf.len() >= end + 4 + length {
                return;
            }
        }
    }
}

fn replay(response: Vec<u8>) -> Replay {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let port = listener.local_addr().expect("address").port();
    listener.set_nonblocking(true).expect("nonblocking");
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    std::thread::spawn(move || {
        while !flag.load(Ordering::Relaxed) {
            match listener.accept() {
                Ok((mut stream, _)) => {
                    let _ = stream.set_nonblocking(false);
                    let _ = stream.set_nodelay(true);
                    read_request(&mut stream);
                    // Small pieces, so events, JSON and UTF-8 are split across reads.
                    for piece in response.chunks(7) {
                        if stream.write_all(piece).and_then(|_| stream.flush()).is_err() {
                            break;
                        }
                    }
                }
                Err(_) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
    });
    Replay { port, stop }
}

/// A recording as the bytes a server would send: its status line and headers (without the
/// chunked framing curl removed), `Connection: close`, and the body; the recorder's `#` lines
/// are dropped.
fn recorded(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/sse").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let start = text.find("HTTP/").unwrap_or_else(|| panic!("{name}: no HTTP response"));
    let mut rest = &text[start..];
    if let Some(end) = rest.rfind("\n# curl exit code") {
        rest = &rest[..end + 1];
    }
    // The recorder kept the server's CRLF header lines.
    let (head, body) =
        rest.split_once("\r\n\r\n").or_else(|| rest.split_once("\n\n")).unwrap_or((rest, ""));
    let mut out = String::new();
    for line in head.lines() {
        let name = line.split(':').next().unwrap_or("").trim().to_ascii_lowercase();
        if ["transfer-encoding", "content-length", "connection", "keep-alive"]
            .contains(&name.as_str())
        {
            continue;
        }
        out.push_str(line);
        out.push_str("\r\n");
    }
    out.push_str("Connection: close\r\n\r\n");
    out.push_str(body);
    out.into_bytes()
}

fn settings(kind: ProviderKind, port: u16) -> ProviderSettings {
    let base = match kind {
        ProviderKind::OpenAi => format!("http://127.0.0.1:{port}/v1"),
        _ => format!("http://127.0.0.1:{port}"),
    };
    ProviderSettings {
        kind,
        base_url: BaseUrl::parse(&base).expect("a base URL"),
        api_key: Some(ApiKey::new(provider_support::SECRET)),
        model: "mock".into(),
        max_retries: 0,
        backoff_base: Duration::from_millis(50),
        read_timeout: Duration::from_secs(20),
        deadline: DEFAULT_DEADLINE,
        max_reply_bytes: DEFAULT_MAX_REPLY_BYTES,
    }
}

/// Stream one recording: the text received, and how it ended.
fn run(kind: ProviderKind, response: Vec<u8>) -> (String, Result<StreamSummary, ProviderError>) {
    let (text, _, result) = run_all(kind, response);
    (text, result)
}

/// [`run`], with the events that were skipped as malformed.
fn run_all(
    kind: ProviderKind,
    response: Vec<u8>,
) -> (String, Vec<String>, Result<StreamSummary, ProviderError>) {
    let server = replay(response);
    let settings = settings(kind, server.port);
    let req = ChatRequest {
        model: "mock".into(),
        messages: vec![
            ChatMessage::new(Role::System, "be brief"),
            ChatMessage::new(Role::User, "Fix the off-by-one in last()"),
        ],
        max_tokens: Some(1024),
        temperature: None,
    };
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    runtime.block_on(async {
        let (tx, mut rx) = tokio::sync::mpsc::channel(1024);
        let result = stream_chat(&settings, &req, tx, CancellationToken::new()).await;
        let mut text = String::new();
        let mut skipped = Vec::new();
        while let Some(msg) = rx.recv().await {
            match msg {
                StreamMsg::Text(t) => text.push_str(&t),
                StreamMsg::Skipped(why) => skipped.push(why),
                StreamMsg::Retrying { .. } => {}
            }
        }
        (text, skipped, result)
    })
}

const FIX: &str = "+    v[v.len() - 1]\n";

#[test]
fn every_recorded_stream_decodes_to_the_whole_reply() {
    let cases = [
        (ProviderKind::OpenAi, "aimock-openai-stream.txt"),
        (ProviderKind::OpenAi, "aimock-openai-slow.txt"),
        (ProviderKind::OpenAi, "aimock-openai-chaos-header-latency.txt"),
        (ProviderKind::OpenAi, "litellm-openai-stream.txt"),
        (ProviderKind::OpenAi, "litellm-openai-slow.txt"),
        (ProviderKind::Anthropic, "aimock-anthropic-stream.txt"),
        (ProviderKind::Anthropic, "litellm-anthropic-relay-stream.txt"),
        (ProviderKind::Anthropic, "litellm-anthropic-mock-nonstream.txt"),
        (ProviderKind::Ollama, "aimock-ollama-chat.txt"),
    ];
    let mut replies = Vec::new();
    for (kind, name) in cases {
        let (text, result) = run(kind, recorded(name));
        let summary = result.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(text.starts_with("Here is the fix"), "{name}: {text:?}");
        assert!(text.contains(FIX), "{name}: {text:?}");
        assert!(summary.end.reason.is_some(), "{name}: {summary:?}");
        assert!(summary.time_to_first_token.is_some(), "{name}");
        assert!(summary.usage.is_some_and(|u| u.output_tokens.is_some()), "{name}: {summary:?}");
        replies.push((name, text));
    }
    // aimock speaks the three protocols from one fixture: the same reply each time.
    let aimock: Vec<&String> =
        replies.iter().filter(|(n, _)| n.starts_with("aimock")).map(|(_, t)| t).collect();
    assert!(aimock.windows(2).all(|w| w[0] == w[1]), "{aimock:?}");
}

#[test]
fn recorded_cuts_end_in_cut_with_the_text_so_far() {
    for (kind, name) in [
        (ProviderKind::OpenAi, "aimock-openai-truncate.txt"),
        (ProviderKind::OpenAi, "aimock-openai-disconnect.txt"),
        (ProviderKind::Anthropic, "aimock-anthropic-disconnect.txt"),
    ] {
        let (text, result) = run(kind, recorded(name));
        assert!(
            matches!(result, Err(ProviderError::Cut { received_bytes }) if received_bytes > 0),
            "{name}: {result:?}"
        );
        assert!(text.starts_with("Here is the fix"), "{name}: {text:?}");
    }
}

#[test]
fn recorded_refusals_become_typed_errors() {
    let cases = [
        (ProviderKind::OpenAi, "aimock-openai-429.txt", 429),
        (ProviderKind::OpenAi, "aimock-openai-500.txt", 500),
        (ProviderKind::OpenAi, "litellm-openai-529.txt", 529),
        (ProviderKind::OpenAi, "litellm-openai-429.txt", 429),
        (ProviderKind::Anthropic, "aimock-anthropic-529.txt", 529),
        (ProviderKind::Anthropic, "litellm-anthropic-429.txt", 429),
    ];
    for (kind, name, code) in cases {
        let (text, result) = run(kind, recorded(name));
        assert!(text.is_empty(), "{name}");
        match result {
            Err(ProviderError::RetriesExhausted { status, attempts: 1, message }) => {
                assert_eq!(status, code, "{name}");
                assert!(!message.is_empty() && !message.contains('{'), "{name}: {message}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }
    let (_, result) = run(ProviderKind::OpenAi, recorded("litellm-openai-badkey.txt"));
    assert!(
        matches!(&result, Err(ProviderError::Http { status: 400, message }) if message == "No connected db."),
        "{result:?}"
    );
}

#[test]
fn a_corrupted_event_is_reported_and_skipped_and_the_stream_goes_on() {
    let openai = String::from_utf8(recorded("aimock-openai-stream.txt")).expect("UTF-8");
    let broken =
        openai.replacen("\"delta\":{\"content\":\"the off", "\"delta\":{\"content\":the off", 1);
    assert_ne!(broken, openai);
    let (text, skipped, result) = run_all(ProviderKind::OpenAi, broken.into_bytes());
    assert!(result.is_ok(), "{result:?}");
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert!(skipped[0].contains("malformed `chat.completion.chunk` event"), "{skipped:?}");
    assert!(text.starts_with("Here is the fix for ") && text.contains(FIX), "{text:?}");

    let anthropic = String::from_utf8(recorded("aimock-anthropic-stream.txt")).expect("UTF-8");
    let broken =
        anthropic.replacen("\"text_delta\",\"text\":\"the off", "\"text_delta\",\"text\"", 1);
    assert_ne!(broken, anthropic);
    let (text, skipped, result) = run_all(ProviderKind::Anthropic, broken.into_bytes());
    assert!(result.is_ok(), "{result:?}");
    assert!(skipped.iter().any(|m| m.contains("malformed `content_block_delta` event")));
    assert!(text.contains(FIX), "{text:?}");

    let ollama = String::from_utf8(recorded("aimock-ollama-chat.txt")).expect("UTF-8");
    let broken = ollama.replacen("\"done\":false}", "\"done\":false", 1);
    let (_, skipped, result) = run_all(ProviderKind::Ollama, broken.into_bytes());
    assert!(result.is_ok(), "{result:?}");
    assert!(skipped.iter().any(|m| m.contains("malformed `chat` event")), "{skipped:?}");
}

#[test]
fn an_anthropic_error_event_mid_stream_is_a_server_error() {
    let anthropic = String::from_utf8(recorded("aimock-anthropic-stream.txt")).expect("UTF-8");
    let at = anthropic.find("event: content_block_stop").expect("a content_block_stop event");
    let mut cut = anthropic[..at].to_string();
    cut.push_str("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n");
    let (text, result) = run(ProviderKind::Anthropic, cut.into_bytes());
    assert!(text.contains(FIX), "{text:?}");
    assert!(
        matches!(&result, Err(ProviderError::Server { message }) if message == "Overloaded"),
        "{result:?}"
    );
}
