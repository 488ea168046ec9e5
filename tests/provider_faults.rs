//! Faults between redline and the server, on loopback: rate limits and overloads retried,
//! retries running out, streams cut or stalled mid-reply (through faultproxy.py), malformed
//! bodies, refused keys, cancellation, and missing settings. The API key never shows.

mod provider_support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use provider_support::*;
use redline::provider::settings::{
    DEFAULT_BACKOFF, DEFAULT_DEADLINE, DEFAULT_MAX_REPLY_BYTES, ProviderKind, ProviderSettings,
};
use redline::provider::{
    ApiKey, BaseUrl, ChatMessage, ChatRequest, ProviderError, Role, StreamMsg, stream_chat,
};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

fn openai_args<'a>(base: &'a str, prompt: &'a str) -> Vec<&'a str> {
    vec!["--provider", "openai", "--base-url", base, "--apply", "all", "-m", prompt, "app.py"]
}

const ENV: &[(&str, &str)] = &[("OPENAI_API_KEY", SECRET), ("REDLINE_MODEL", "mock")];

fn error_fixture(needle: &str, status: u16, message: &str, sequence: Option<u64>) -> Value {
    let mut m = json!({ "userMessage": needle });
    if let Some(i) = sequence {
        m["sequenceIndex"] = json!(i);
    }
    json!({
        "match": m,
        "response": { "error": { "message": message, "type": "server_error" }, "status": status },
    })
}

#[test]
fn a_rate_limit_is_waited_out_and_retried() {
    let mut ok = reply_fixture("fix-429", REPLY, json!({}));
    ok["match"]["sequenceIndex"] = json!(1);
    let server =
        aimock(&fixtures(vec![error_fixture("fix-429", 429, "Rate limited", Some(0)), ok]), &[]);
    let dir = project();
    let base = format!("{}/v1", server.url());
    let run = ask(dir.path(), &openai_args(&base, "fix-429"), ENV);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(read(dir.path(), "app.py"), APP_PY_FIXED);
    assert!(run.stderr.contains("attempt 1 failed (HTTP 429: Rate limited)"), "{}", run.stderr);
    // aimock sends `Retry-After: 1`.
    assert!(run.stderr.contains("trying again in 1.0 s"), "{}", run.stderr);
    assert!(run.stderr.contains("2 attempts"), "{}", run.stderr);
    run.assert_no_secret();
}

#[test]
fn an_anthropic_overload_529_is_retried() {
    let mut ok = reply_fixture("fix-529", REPLY, json!({}));
    ok["match"]["sequenceIndex"] = json!(1);
    let server =
        aimock(&fixtures(vec![error_fixture("fix-529", 529, "Overloaded", Some(0)), ok]), &[]);
    let dir = project();
    let run = ask(
        dir.path(),
        &["--provider", "anthropic", "--base-url", &server.url(), "--apply", "all"]
            .into_iter()
            .chain(["-m", "fix-529", "app.py"])
            .collect::<Vec<_>>(),
        &[("ANTHROPIC_API_KEY", SECRET), ("REDLINE_MODEL", "mock")],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(read(dir.path(), "app.py"), APP_PY_FIXED);
    assert!(run.stderr.contains("HTTP 529: Overloaded"), "{}", run.stderr);
    run.assert_no_secret();
}

#[test]
fn server_errors_past_the_retries_exit_2_and_write_nothing() {
    let server =
        aimock(&fixtures(vec![error_fixture("fix-500", 500, "Internal failure", None)]), &[]);
    let dir = project();
    let base = format!("{}/v1", server.url());
    let mut args = openai_args(&base, "fix-500");
    args.extend(["--http-retries", "2"]);
    let run = ask(dir.path(), &args, ENV);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains("HTTP 500 on all 3 attempts; last answer: Internal failure"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(run.stderr.contains("nothing was written"), "{}", run.stderr);
    assert_eq!(read(dir.path(), "app.py"), APP_PY);
    run.assert_no_secret();
}

/// How many bytes of the raw HTTP response (headers included) reach the end of the event that
/// carries the first edit's `>>>>>>> REPLACE`, asking aimock directly for the same reply.
fn bytes_through_first_edit(server: &Server, needle: &str) -> usize {
    let body = json!({
        "model": "mock", "stream": true, "stream_options": { "include_usage": true },
        "messages": [{ "role": "user", "content": needle }],
    })
    .to_string();
    let request = format!(
        "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).expect("connect to aimock");
    stream.write_all(request.as_bytes()).expect("send probe");
    let mut raw = String::new();
    stream.read_to_string(&mut raw).expect("read probe");
    let marker = raw.find(">>>>>>> REPLACE").expect("the first edit in the probe");
    marker + raw[marker..].find("\n\n").expect("the end of its event") + 2
}

/// The reply in two chunks: everything up to the end of the first edit, then the rest.
fn two_part_fixture(needle: &str) -> Value {
    let first_part = REPLY.find("And the greeting").expect("second part");
    reply_fixture(needle, REPLY, json!({ "chunkSize": first_part }))
}

const ONE_EDIT: &str =
    "def greet(name):\n    return \"Hello \" + name\n\n\ndef last(items):\n    return items[-1]\n";

#[test]
fn a_cut_stream_keeps_the_finished_edits_and_exits_2() {
    let server = aimock(&fixtures(vec![two_part_fixture("fix-cut")]), &[]);
    let cut = bytes_through_first_edit(&server, "fix-cut");
    for rst in [false, true] {
        let mut flags = vec!["--cut-after".to_string(), cut.to_string()];
        if rst {
            flags.push("--rst".into());
        }
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        let proxy = faultproxy(&server, &flags);
        let dir = project();
        let base = format!("{}/v1", proxy.url());
        let run = ask(dir.path(), &openai_args(&base, "fix-cut"), ENV);
        assert_eq!(run.code, Some(2), "rst {rst}: {}", run.stderr);
        assert_eq!(read(dir.path(), "app.py"), ONE_EDIT, "rst {rst}: {}", run.stderr);
        assert_eq!(run.edit_lines().len(), 1, "{}", run.stdout);
        assert!(run.stderr.contains("the stream was cut after"), "{}", run.stderr);
        assert!(run.stderr.contains("the edits finished before it were written"), "{}", run.stderr);
        run.assert_no_secret();
    }
}

#[test]
fn a_stalled_stream_ends_within_the_timeout() {
    let server = aimock(&fixtures(vec![two_part_fixture("fix-stall")]), &[]);
    let stall = bytes_through_first_edit(&server, "fix-stall");
    let proxy = faultproxy(&server, &["--stall-after", &stall.to_string()]);
    let dir = project();
    let base = format!("{}/v1", proxy.url());
    let mut args = openai_args(&base, "fix-stall");
    args.extend(["--timeout", "2"]);
    let run = ask(dir.path(), &args, ENV);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("no reply content from the server for 2 s"), "{}", run.stderr);
    assert!(run.elapsed < Duration::from_secs(2 + 20), "took {:?}", run.elapsed);
    assert_eq!(read(dir.path(), "app.py"), ONE_EDIT);
    run.assert_no_secret();
}

#[test]
fn a_malformed_body_is_an_error_naming_what_was_malformed() {
    let mut bad = reply_fixture("fix-malformed", REPLY, json!({}));
    bad["chaos"] = json!({ "malformedRate": 1 });
    let server = aimock(&fixtures(vec![bad]), &[]);
    let dir = project();
    let base = format!("{}/v1", server.url());
    let run = ask(dir.path(), &openai_args(&base, "fix-malformed"), ENV);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("malformed `response` event"), "{}", run.stderr);
    assert_eq!(read(dir.path(), "app.py"), APP_PY);
    run.assert_no_secret();
}

#[test]
fn a_refused_key_is_an_auth_error_that_never_shows_the_key() {
    let server = aimock(
        &fixtures(vec![reply_fixture("fix-auth", REPLY, json!({}))]),
        &[("AIMOCK_API_KEYS", "the-right-key")],
    );
    let dir = project();
    let base = format!("{}/v1", server.url());
    let run = ask(dir.path(), &openai_args(&base, "fix-auth"), ENV);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains("refused the credentials (HTTP 401): Invalid API key"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "one line: {}", run.stderr);
    assert_eq!(read(dir.path(), "app.py"), APP_PY);
    run.assert_no_secret();
}

#[test]
fn with_nothing_configured_the_error_says_what_to_set() {
    let dir = project();
    let run = ask(dir.path(), &["-m", "anything", "app.py"], &[]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("no model provider is configured"), "{}", run.stderr);
    assert!(run.stderr.contains("OPENAI_API_KEY") && run.stderr.contains("redline demo"));
}

#[test]
fn files_outside_the_project_are_refused_before_anything_is_sent() {
    let dir = project();
    let outside = tempfile::NamedTempFile::new().expect("temporary file");
    let path = outside.path().to_string_lossy().to_string();
    let run = ask(
        dir.path(),
        &["-m", "x", &path],
        &[("OLLAMA_HOST", "127.0.0.1:9"), ("REDLINE_MODEL", "m")],
    );
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("outside the project"), "{}", run.stderr);
}

#[test]
fn cancelling_stops_the_stream_at_once() {
    let long = "word ".repeat(400);
    let slow = json!({ "chunkSize": 5, "latency": 100 });
    let server = aimock(&fixtures(vec![reply_fixture("cancel-me", &long, slow)]), &[]);
    let settings = ProviderSettings {
        kind: ProviderKind::OpenAi,
        base_url: BaseUrl::parse(&format!("{}/v1", server.url())).expect("a base URL"),
        api_key: Some(ApiKey::new(SECRET)),
        model: "mock".into(),
        max_retries: 0,
        backoff_base: DEFAULT_BACKOFF,
        read_timeout: Duration::from_secs(30),
        deadline: DEFAULT_DEADLINE,
        max_reply_bytes: DEFAULT_MAX_REPLY_BYTES,
    };
    assert!(!format!("{settings:?}").contains(SECRET));
    let req = ChatRequest {
        model: "mock".into(),
        messages: vec![ChatMessage::new(Role::User, "cancel-me")],
        max_tokens: None,
        temperature: None,
    };
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    runtime.block_on(async {
        let (tx, mut rx) = tokio::sync::mpsc::channel(16);
        let cancel = CancellationToken::new();
        let task = tokio::spawn({
            let cancel = cancel.clone();
            async move { stream_chat(&settings, &req, tx, cancel).await }
        });
        let first = tokio::time::timeout(Duration::from_secs(30), rx.recv()).await;
        assert!(matches!(first, Ok(Some(StreamMsg::Text(_)))), "{first:?}");
        let cancelled_at = Instant::now();
        cancel.cancel();
        let result = tokio::time::timeout(Duration::from_secs(5), task)
            .await
            .expect("stream_chat returns promptly")
            .expect("task");
        assert!(matches!(result, Err(ProviderError::Cancelled)), "{result:?}");
        assert!(cancelled_at.elapsed() < Duration::from_secs(2));
    });
}

#[test]
fn ctrl_c_stops_the_stream_at_once_and_writes_nothing() {
    // About four seconds of reply; the first edit comes early.
    let slow = json!({ "chunkSize": 4, "latency": 40 });
    let server = aimock(&fixtures(vec![reply_fixture("fix-interrupt", REPLY, slow)]), &[]);
    let dir = project();
    let base = format!("{}/v1", server.url());
    let mut interrupted_at = None;
    let run = ask_with(dir.path(), &openai_args(&base, "fix-interrupt"), ENV, |pid| {
        interrupted_at = Some(Instant::now());
        let sent = std::process::Command::new("kill")
            .args(["-s", "INT", &pid.to_string()])
            .status()
            .is_ok_and(|s| s.success());
        assert!(sent, "kill -s INT {pid}");
    });
    let interrupted_at = interrupted_at.expect("the first edit line arrived");
    assert!(interrupted_at.elapsed() < Duration::from_secs(3), "{run:?}");
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("interrupted; nothing was written"), "{}", run.stderr);
    assert_eq!(run.edit_lines().len(), 1, "{}", run.stdout);
    assert_eq!(read(dir.path(), "app.py"), APP_PY);
}

/// A server on loopback that answers one request with `body` as an event stream.
fn raw_sse_server(body: Vec<u8>) -> (String, std::thread::JoinHandle<()>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}/v1", listener.local_addr().unwrap());
    let handle = std::thread::spawn(move || {
        let (mut conn, _) = listener.accept().unwrap();
        let mut request = Vec::new();
        let mut buf = [0u8; 4096];
        // The headers, then the body its Content-Length gives.
        loop {
            let n = conn.read(&mut buf).unwrap();
            request.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&request).to_string();
            if let Some(end) = text.find("\r\n\r\n") {
                let length = text
                    .lines()
                    .find_map(|l| {
                        l.to_ascii_lowercase()
                            .strip_prefix("content-length:")
                            .map(|v| v.trim().parse::<usize>().unwrap())
                    })
                    .unwrap_or(0);
                if request.len() >= end + 4 + length {
                    break;
                }
            }
            if n == 0 {
                break;
            }
        }
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
            body.len()
        );
        conn.write_all(head.as_bytes()).unwrap();
        conn.write_all(&body).unwrap();
    });
    (base, handle)
}

#[test]
fn bytes_that_are_not_utf8_are_read_as_replacement_characters_and_the_stream_goes_on() {
    let delta = |text: &str| {
        format!(
            "data: {}\n\n",
            json!({ "choices": [{ "index": 0, "delta": { "content": text } }] })
        )
        .into_bytes()
    };
    let cut = REPLY.find("And the greeting").unwrap();
    let mut body = delta(&REPLY[..cut]);
    // Prose with a raw byte that is no UTF-8 (a broken proxy, a server's bug).
    body.extend_from_slice(
        b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"caf\xff \"}}]}\n\n",
    );
    body.extend(delta(&REPLY[cut..]));
    body.extend_from_slice(b"data: [DONE]\n\n");
    let (base, server) = raw_sse_server(body);
    let dir = project();
    let run = ask(dir.path(), &openai_args(&base, "fix"), ENV);
    server.join().unwrap();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        read(dir.path(), "app.py"),
        APP_PY_FIXED,
        "both edits, the one after the bad byte too"
    );
    assert!(run.stderr.contains("not UTF-8"), "said once: {}", run.stderr);
}
