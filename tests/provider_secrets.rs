//! A long API key (158 characters, like OpenAI's `sk-proj-…`) echoed back by a server never
//! shows, whole or in part (any run of 16 of its characters): not when an error body quotes it
//! (plain text longer than the display length, or JSON), not when the model or a proxy writes
//! it into the streamed reply (split across events), and not in what `redline ask` prints or
//! writes, nor in the review screen or the session journal (tmux), also when a project file
//! sent with the request holds it (the journal keeps the file with `***` for the key).
//!
//! Before the fix the plain-text body was cut to 120 characters and then redacted, so 100-odd
//! characters of the key reached stderr, and a key in the reply text was printed, written and
//! journaled verbatim.

mod loopback_support;
mod provider_support;
mod tmux_support;

use std::path::Path;

use loopback_support::{Loopback, openai_end, openai_text, respond, send, sse_head};
use provider_support::{Run, ask, project, read};
use tmux_support::{Tmux, have_tmux};

const KEY: &str = "sk-proj-Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8L9z0X1c2V3b4N5m6Q7w8E9r0T1y2U3i4O5p6A7s8D9f0G1h2J3k4L5z6X7c8V9b0N1m2Q3w4E5r6T7y8U9i0O1p2A3s4D5f6G7h8J9k0L1z2X3c4V5";

/// Whether `text` holds the key or any 16-character run of it.
fn leaks(text: &[u8]) -> bool {
    let key = KEY.as_bytes();
    key.windows(16).any(|w| text.windows(16).any(|t| t == w))
}

fn env() -> Vec<(&'static str, &'static str)> {
    vec![("OPENAI_API_KEY", KEY), ("REDLINE_MODEL", "mock")]
}

fn assert_clean(run: &Run) {
    assert!(!leaks(run.stdout.as_bytes()), "a piece of the key on stdout:\n{}", run.stdout);
    assert!(!leaks(run.stderr.as_bytes()), "a piece of the key on stderr:\n{}", run.stderr);
}

fn ask_args(base: &str) -> Vec<&str> {
    vec!["--provider", "openai", "--base-url", base, "--apply", "all", "-m", "fix it", "app.py"]
}

#[test]
fn a_key_quoted_in_an_error_body_never_shows() {
    assert_eq!(KEY.len(), 158);
    let bodies = [
        (
            "401 Unauthorized",
            "text/plain",
            format!(
                "Incorrect API key provided: {KEY}. You can find your API key at https://example.com/account/api-keys."
            ),
        ),
        (
            "400 Bad Request",
            "application/json",
            serde_json::json!({"error": {"message": format!("Bad key {KEY}")}}).to_string(),
        ),
        (
            "500 Internal Server Error",
            "text/html",
            format!("<html>upstream said: key={KEY}</html>"),
        ),
    ];
    for (status, content_type, body) in bodies {
        let server = Loopback::start(move |_, stream| respond(stream, status, content_type, &body));
        let dir = project();
        let base = format!("{}/v1", server.url());
        let mut args = ask_args(&base);
        args.extend(["--http-retries", "1"]);
        let run = ask(dir.path(), &args, &env());
        assert_eq!(run.code, Some(2), "{status}: {}", run.stderr);
        assert!(run.stderr.contains("***"), "{status}: the key's place is marked: {}", run.stderr);
        assert_clean(&run);
    }
}

/// A reply whose text carries the key, split across two events, in prose and in an edit.
fn echoing_server() -> Loopback {
    Loopback::start(|_, mut stream| {
        let (a, b) = KEY.split_at(70);
        let reply = format!("You sent the key {a}");
        let rest = format!(
            "{b} with the request.\n\napp.py\n```python\n<<<<<<< SEARCH\n    return items[len(items)]\n=======\n    return items[-1]  # key: {KEY}\n>>>>>>> REPLACE\n```\n"
        );
        if sse_head(&mut stream) {
            for piece in [openai_text(&reply), openai_text(&rest), openai_end()] {
                send(&mut stream, &piece);
            }
        }
    })
}

#[test]
fn a_key_echoed_in_the_reply_is_neither_printed_nor_written() {
    let server = echoing_server();
    let dir = project();
    let base = format!("{}/v1", server.url());
    let run = ask(dir.path(), &ask_args(&base), &env());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_clean(&run);
    let app = read(dir.path(), "app.py");
    assert!(app.contains("return items[-1]  # key: ***"), "{app}");
    assert!(!leaks(app.as_bytes()), "{app}");
}

fn assert_no_piece_in(dir: &Path) {
    let mut stack = vec![dir.to_path_buf()];
    let mut files = 0;
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("list").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            files += 1;
            let bytes = std::fs::read(&path).expect("read");
            assert!(!leaks(&bytes), "{} holds a piece of the key", path.display());
        }
    }
    assert!(files > 0, "nothing in {}", dir.display());
}

#[test]
fn a_key_echoed_in_the_reply_is_neither_drawn_nor_journaled() {
    if !have_tmux("the review screen's secrets test") {
        return;
    }
    let server = echoing_server();
    let dir = project();
    // A project file holding the key, sent with the request: it is journaled with `***` for
    // the key, and stays as it is on disk.
    let settings = format!("API_KEY = \"{KEY}\"\n");
    std::fs::write(dir.path().join("settings.py"), &settings).expect("write settings.py");
    let scratch = tempfile::tempdir().expect("scratch");
    let sessions = scratch.path().join("sessions");
    let tmux = Tmux::start("secrets", 200, 50);
    let command = format!(
        "cd {} && OPENAI_API_KEY={KEY} REDLINE_MODEL=mock REDLINE_CONFIG=/nonexistent XDG_CONFIG_HOME={} REDLINE_SESSION_DIR={} TERM=xterm-256color {} --provider openai --base-url {}/v1 -m 'fix it' app.py settings.py; echo EXIT=$?",
        dir.path().display(),
        scratch.path().join("config").display(),
        sessions.display(),
        env!("CARGO_BIN_EXE_redline"),
        server.url(),
    );
    tmux.run(&command);
    // The command line itself holds the key: clear it off the screen before looking.
    tmux.wait_for("the review screen", "┌ hunks");
    let screen = tmux.wait_for("the stream to finish", "✓ openai · mock");
    assert!(screen.contains("You sent the key ***"), "{screen}");
    assert!(!leaks(screen.as_bytes()), "a piece of the key is drawn:\n{screen}");
    tmux.keys("y");
    tmux.wait_for("the hunk to be written", "1 applied");
    tmux.keys("q");
    tmux.wait_for("redline to exit", "EXIT=0");
    assert_no_piece_in(&sessions);
    assert!(!leaks(read(dir.path(), "app.py").as_bytes()));
    assert_eq!(read(dir.path(), "settings.py"), settings, "the user's file keeps its key");
}
