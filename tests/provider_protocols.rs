//! `redline ask` against a real mock server (aimock) on loopback, once per wire protocol, plus
//! streaming order, tiny network pieces, `--apply none` and reflection rounds.

mod provider_support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use provider_support::*;
use serde_json::{Value, json};

fn assert_fixed(run: &Run, root: &std::path::Path) {
    assert_eq!(run.code, Some(0), "stderr:\n{}", run.stderr);
    assert_eq!(read(root, "app.py"), APP_PY_FIXED);
    assert_eq!(read(root, "README.md"), "# demo\n");
    let lines = run.edit_lines();
    assert_eq!(lines.len(), 2, "stdout:\n{}", run.stdout);
    for line in &lines {
        assert_eq!(line["path"], "app.py");
        assert_eq!(line["format"], "search-replace");
        assert_eq!(line["kind"], "modify");
    }
    assert_eq!(lines[0]["new"], "def last(items):\n    return items[-1]\n");
    run.assert_no_secret();
}

#[test]
fn openai_compatible_stream_applies_every_edit() {
    let server = aimock(&fixtures(vec![reply_fixture("fix-openai", REPLY, json!({}))]), &[]);
    let dir = project();
    let base = format!("{}/v1", server.url());
    // --model beats REDLINE_MODEL.
    let run = ask(
        dir.path(),
        &["--provider", "openai", "--base-url", &base, "--model", "mock", "--apply", "all"]
            .into_iter()
            .chain(["-m", "please fix-openai", "app.py"])
            .collect::<Vec<_>>(),
        &[("OPENAI_API_KEY", SECRET), ("REDLINE_MODEL", "not-this-one")],
    );
    assert_fixed(&run, dir.path());
    assert!(run.stderr.contains("openai mock;"), "{}", run.stderr);
    assert!(run.stderr.contains("tokens in"), "usage is reported: {}", run.stderr);
}

#[test]
fn anthropic_stream_applies_every_edit() {
    let server = aimock(&fixtures(vec![reply_fixture("fix-anthropic", REPLY, json!({}))]), &[]);
    let dir = project();
    let run = ask(
        dir.path(),
        &["--base-url", &server.url(), "--model", "claude-mock", "--apply", "all"]
            .into_iter()
            .chain(["-m", "fix-anthropic please", "app.py"])
            .collect::<Vec<_>>(),
        &[("ANTHROPIC_API_KEY", SECRET)],
    );
    assert_fixed(&run, dir.path());
    assert!(run.stderr.contains("anthropic claude-mock"), "{}", run.stderr);
}

#[test]
fn ollama_stream_applies_every_edit() {
    let server = aimock(&fixtures(vec![reply_fixture("fix-ollama", REPLY, json!({}))]), &[]);
    let dir = project();
    // No --provider and no --base-url: OLLAMA_HOST (host:port, no scheme) decides both.
    let host = format!("127.0.0.1:{}", server.port);
    let run = ask(
        dir.path(),
        &["--apply", "all", "-m", "fix-ollama", "app.py"],
        &[("OLLAMA_HOST", &host), ("REDLINE_MODEL", "llama-mock")],
    );
    assert_fixed(&run, dir.path());
    assert!(run.stderr.contains("ollama llama-mock"), "{}", run.stderr);
}

#[test]
fn a_reply_in_tiny_pieces_gives_the_same_edits() {
    let server = aimock(&fixtures(vec![reply_fixture("fix-split", REPLY, json!({}))]), &[]);
    let proxy = faultproxy(&server, &["--split", "3"]);
    let dir = project();
    let base = format!("{}/v1", proxy.url());
    let run = ask_openai_apply_all(dir.path(), &base, "fix-split");
    assert_fixed(&run, dir.path());
}

#[test]
fn the_first_edit_is_printed_while_the_reply_is_still_streaming() {
    // 8 characters per chunk, 40 ms apart: the reply takes about two seconds.
    let slow = json!({ "chunkSize": 8, "latency": 40 });
    let server = aimock(&fixtures(vec![reply_fixture("fix-slowly", REPLY, slow)]), &[]);
    let dir = project();
    let base = format!("{}/v1", server.url());
    let run = ask_openai_apply_all(dir.path(), &base, "fix-slowly");
    assert_fixed(&run, dir.path());
    assert!(run.elapsed >= Duration::from_secs(1), "the reply was meant to be slow: {run:?}");
    let first = run.line_times[0];
    assert!(
        first + Duration::from_millis(500) < run.elapsed,
        "the first edit came at {first:?}, the run ended at {:?}",
        run.elapsed
    );
}

#[test]
fn apply_none_reports_and_writes_nothing() {
    let server = aimock(&fixtures(vec![reply_fixture("fix-dry", REPLY, json!({}))]), &[]);
    let dir = project();
    let base = format!("{}/v1", server.url());
    let run = ask(
        dir.path(),
        &[
            "--provider",
            "openai",
            "--base-url",
            &base,
            "--apply",
            "none",
            "-m",
            "fix-dry",
            "app.py",
        ],
        &[("OPENAI_API_KEY", SECRET), ("REDLINE_MODEL", "mock")],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.edit_lines().len(), 2);
    assert_eq!(read(dir.path(), "app.py"), APP_PY);
    assert!(run.stderr.contains("nothing written"), "{}", run.stderr);
    // Each placed edit is said to be one that would apply, never "applied".
    assert!(run.stderr.contains("would apply  app.py"), "{}", run.stderr);
    assert!(!run.stderr.contains("applied  app.py"), "{}", run.stderr);
}

/// The bodies of the requests the server received, oldest first.
fn journal(server: &Server) -> Vec<Value> {
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).expect("connect to aimock");
    let request =
        format!("GET /__aimock/journal HTTP/1.0\r\nHost: 127.0.0.1:{}\r\n\r\n", server.port);
    stream.write_all(request.as_bytes()).expect("send journal request");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read journal");
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    let entries: Vec<Value> = serde_json::from_str(body).expect("journal JSON");
    let mut bodies: Vec<(i64, Value)> = entries
        .into_iter()
        .map(|e| (e["timestamp"].as_i64().unwrap_or(0), e["body"].clone()))
        .collect();
    bodies.sort_by_key(|(t, _)| *t);
    bodies.into_iter().map(|(_, b)| b).collect()
}

#[test]
fn edits_that_fail_are_asked_about_again_and_applied_ones_are_not_repeated() {
    let first = "Two changes.\n\napp.py\n```python\n<<<<<<< SEARCH\ndef last(things):\n    return things[len(things)]\n=======\ndef last(things):\n    return things[-1]\n>>>>>>> REPLACE\n```\n\napp.py\n```python\n<<<<<<< SEARCH\n    return \"Hello \" + name\n=======\n    return f\"Hello {name}\"\n>>>>>>> REPLACE\n```\n";
    let second = "Sorry, here it is against the current text.\n\napp.py\n```python\n<<<<<<< SEARCH\ndef last(items):\n    return items[len(items)]\n=======\ndef last(items):\n    return items[-1]\n>>>>>>> REPLACE\n```\n";
    let server = aimock(
        &fixtures(vec![
            reply_fixture("fix-reflect", first, json!({})),
            reply_fixture("could not be applied", second, json!({})),
        ]),
        &[],
    );
    let dir = project();
    let base = format!("{}/v1", server.url());
    let run = ask_openai_apply_all(dir.path(), &base, "fix-reflect");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(read(dir.path(), "app.py"), APP_PY_FIXED);
    assert_eq!(run.edit_lines().len(), 3, "two edits, then one: {}", run.stdout);
    assert!(run.stderr.contains("asking again about 1 edit"), "{}", run.stderr);
    let bodies = journal(&server);
    assert_eq!(bodies.len(), 2, "{bodies:?}");
    let messages = bodies[1]["messages"].as_array().cloned().unwrap_or_default();
    let follow_up = messages.last().and_then(|m| m["content"].as_str()).unwrap_or("");
    assert!(follow_up.contains("lines 5-11 of your reply"), "{follow_up}");
    assert!(follow_up.contains("closest text actually in"), "{follow_up}");
    assert!(follow_up.contains("do not send them again"), "{follow_up}");
    assert_eq!(messages[messages.len() - 2]["role"], "assistant");
}

/// `redline ask --provider openai --base-url BASE --apply all -m PROMPT app.py`, with a key set.
fn ask_openai_apply_all(root: &std::path::Path, base: &str, prompt: &str) -> Run {
    ask(
        root,
        &["--provider", "openai", "--base-url", base, "--apply", "all", "-m", prompt, "app.py"],
        &[("OPENAI_API_KEY", SECRET), ("REDLINE_MODEL", "mock")],
    )
}
