//! Resource limits of a reply, against scripted servers on loopback driving the real `redline
//! ask`: an endless stream is stopped at `--max-reply-bytes` (the edit finished before it is
//! written), keep-alive comments do not hold `--timeout` open, a reply still trickling in is
//! stopped at `--deadline`, and a 200 answer that is an HTML page is named as such.
//!
//! Before these limits, the endless stream grew without bound, comments kept a stream alive
//! forever, and the HTML page was reported as "the stream was cut after N bytes".

mod loopback_support;
mod provider_support;

use std::time::Duration;

use loopback_support::{Loopback, openai_end, openai_text, respond, send, sse_head};
use provider_support::{APP_PY, SECRET, ask, project, read};

const ENV: &[(&str, &str)] = &[("OPENAI_API_KEY", SECRET), ("REDLINE_MODEL", "mock")];

/// A finished SEARCH/REPLACE edit of `app.py`, then prose.
const FIRST_EDIT: &str = "Fixing it.\n\napp.py\n```python\n<<<<<<< SEARCH\n    return items[len(items)]\n=======\n    return items[-1]\n>>>>>>> REPLACE\n```\n\n";

const FIXED_ONCE: &str =
    "def greet(name):\n    return \"Hello \" + name\n\n\ndef last(items):\n    return items[-1]\n";

fn args<'a>(base: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec!["--provider", "openai", "--base-url", base, "--apply", "all"];
    a.extend_from_slice(extra);
    a.extend(["-m", "fix it", "app.py"]);
    a
}

#[test]
fn an_endless_stream_is_stopped_at_the_size_cap_and_keeps_the_finished_edit() {
    let server = Loopback::start(|_, mut stream| {
        if !(sse_head(&mut stream) && send(&mut stream, &openai_text(FIRST_EDIT))) {
            return;
        }
        let filler = openai_text(&"and so on ".repeat(50));
        while send(&mut stream, &filler) {}
    });
    let dir = project();
    let base = format!("{}/v1", server.url());
    let run = ask(dir.path(), &args(&base, &["--max-reply-bytes", "200000"]), ENV);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains("the reply passed 200000 bytes and was stopped (--max-reply-bytes)"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("the edits finished before it were written"), "{}", run.stderr);
    assert_eq!(read(dir.path(), "app.py"), FIXED_ONCE);
    run.assert_no_secret();
}

#[test]
fn keep_alive_comments_do_not_hold_the_silence_limit_open() {
    let server = Loopback::start(|_, mut stream| {
        if !(sse_head(&mut stream) && send(&mut stream, &openai_text(FIRST_EDIT))) {
            return;
        }
        while send(&mut stream, ": keep-alive\n\n") {
            std::thread::sleep(Duration::from_millis(500));
        }
    });
    let dir = project();
    let base = format!("{}/v1", server.url());
    let run = ask(dir.path(), &args(&base, &["--timeout", "2"]), ENV);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("no reply content from the server for 2 s"), "{}", run.stderr);
    assert!(run.elapsed < Duration::from_secs(10), "took {:?}", run.elapsed);
    assert_eq!(read(dir.path(), "app.py"), FIXED_ONCE);
}

#[test]
fn a_reply_still_trickling_in_is_stopped_at_the_deadline() {
    let server = Loopback::start(|_, mut stream| {
        if !(sse_head(&mut stream) && send(&mut stream, &openai_text(FIRST_EDIT))) {
            return;
        }
        // Content every half second (each one resets --timeout), with comments between.
        while send(&mut stream, &openai_text("more ")) && send(&mut stream, ": ping\n\n") {
            std::thread::sleep(Duration::from_millis(500));
        }
    });
    let dir = project();
    let base = format!("{}/v1", server.url());
    let run = ask(dir.path(), &args(&base, &["--timeout", "2", "--deadline", "3"]), ENV);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains("the reply was not finished within 3 s and was stopped (--deadline)"),
        "{}",
        run.stderr
    );
    assert!(run.elapsed < Duration::from_secs(10), "took {:?}", run.elapsed);
    assert_eq!(read(dir.path(), "app.py"), FIXED_ONCE);
}

#[test]
fn an_html_page_answered_with_200_is_named_as_such() {
    let server = Loopback::start(|_, stream| {
        let page = "<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>Please sign in to the proxy</body></html>\n";
        respond(stream, "200 OK", "text/html; charset=utf-8", page);
    });
    let dir = project();
    let base = format!("{}/v1", server.url());
    let run = ask(dir.path(), &args(&base, &[]), ENV);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("the server answered with text/html; charset=utf-8, not a reply stream"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("<title>Sign in</title>"), "{}", run.stderr);
    assert!(!run.stderr.contains("the stream was cut"), "{}", run.stderr);
    assert_eq!(read(dir.path(), "app.py"), APP_PY);
}

#[test]
fn a_split_surrogate_pair_is_joined_and_a_malformed_event_skipped() {
    let server = Loopback::start(|_, mut stream| {
        let events = [
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Flag \\ud83c\"}}]}\n\n"
                .to_string(),
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\\uddf7\\ud83c\\uddfa done.\\n\\n\"}}]}\n\n"
                .to_string(),
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":oops}}]}\n\n".to_string(),
            openai_text(FIRST_EDIT),
            openai_end(),
        ];
        if sse_head(&mut stream) {
            for e in events {
                send(&mut stream, &e);
            }
        }
    });
    let dir = project();
    let base = format!("{}/v1", server.url());
    let run = ask(dir.path(), &args(&base, &[]), ENV);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains("skipped a malformed `chat.completion.chunk` event"),
        "{}",
        run.stderr
    );
    assert_eq!(read(dir.path(), "app.py"), FIXED_ONCE);
}

#[test]
fn the_endpoint_path_goes_before_the_query_and_credentials_never_show() {
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let tx = std::sync::Mutex::new(tx);
    let server = Loopback::start(move |request, stream| {
        let _ = tx.lock().map(|t| t.send(request.line.clone()));
        respond(stream, "404 Not Found", "text/plain", "no such route");
    });
    let dir = project();
    let base =
        format!("http://user:URLPASSWORD1@127.0.0.1:{}/v1?api-key=QUERYSECRET2&v=3", server.port);
    let run = ask(dir.path(), &args(&base, &[]), ENV);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    let line = rx.recv_timeout(Duration::from_secs(5)).expect("the request reached the server");
    assert!(
        line.starts_with("POST /v1/chat/completions?api-key=QUERYSECRET2&v=3 HTTP/1.1"),
        "{line}"
    );
    // A server nobody listens on: the connection error names the URL, without its secrets.
    drop(server);
    let down = format!(
        "http://user:URLPASSWORD1@127.0.0.1:{}/v1?api-key=QUERYSECRET2&v=3",
        provider_support::free_port()
    );
    let run = ask(dir.path(), &args(&down, &["--http-retries", "0"]), ENV);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("cannot reach http://127.0.0.1:"), "{}", run.stderr);
    assert!(run.stderr.contains("/v1/chat/completions?api-key=***&v=3"), "{}", run.stderr);
    for secret in ["URLPASSWORD1", "QUERYSECRET2", "user"] {
        assert!(!run.stderr.contains(secret), "{secret} shown: {}", run.stderr);
    }
}
