//! End-to-end tests of `redline parse`: the real binary, fed through a live pipe, a file, and
//! in-process chunks.
//!
//! What is checked here is the command's contract: an edit's JSON line comes out while the reply
//! is still being written, chunking changes nothing in the output, `--stats`' shape, exit
//! statuses. What the parser makes of a reply is tested in `core`.
#![cfg(unix)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

const FIRST: &str = "I'll change `app.py`:\n\napp.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n";
const REST: &str = "\nAnd the other file:\n\n```diff\n--- a/lib.py\n+++ b/lib.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n```\n\nsrc/new.rs\n```rust\nfn main() {}\n```\nDone.\n";

/// How long the test waits for a line before it calls the binary stuck.
const PATIENCE: Duration = Duration::from_secs(20);

fn redline() -> Command {
    Command::new(env!("CARGO_BIN_EXE_redline"))
}

fn json_lines(stdout: &[u8]) -> Vec<Value> {
    let text = std::str::from_utf8(stdout).expect("stdout is UTF-8");
    text.lines().map(|l| serde_json::from_str(l).expect("one JSON object per line")).collect()
}

#[test]
fn an_edit_is_printed_before_the_rest_of_the_reply_is_written() {
    let mut child = redline()
        .arg("parse")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn redline");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");

    // Lines are read on a thread, so that the wait for each one can time out.
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });

    stdin.write_all(FIRST.as_bytes()).expect("write the first edit");
    stdin.flush().expect("flush");
    let first = match rx.recv_timeout(PATIENCE) {
        Ok(line) => line,
        Err(e) => {
            let _ = child.kill();
            panic!("no line within {PATIENCE:?} of the first edit being written: {e}");
        }
    };
    let first: Value = serde_json::from_str(&first).expect("JSON");
    assert_eq!(first["path"], "app.py");
    assert_eq!(first["kind"], "modify");
    assert_eq!(first["old"], "x = 1\n");
    assert_eq!(first["new"], "x = 2\n");
    // Nothing else is known yet.
    assert!(rx.recv_timeout(Duration::from_millis(200)).is_err());

    stdin.write_all(REST.as_bytes()).expect("write the rest");
    drop(stdin);
    let mut rest = Vec::new();
    while let Ok(line) = rx.recv_timeout(PATIENCE) {
        rest.push(serde_json::from_str::<Value>(&line).expect("JSON"));
    }
    let status = wait_or_kill(&mut child);
    reader.join().expect("reader thread");
    assert!(status.success(), "{status}");
    assert_eq!(rest.len(), 2, "{rest:?}");
    assert_eq!(rest[0]["path"], "lib.py");
    assert_eq!(rest[0]["format"], "udiff");
    assert_eq!(rest[1]["path"], "src/new.rs");
    assert_eq!(rest[1]["kind"], "replace");
}

/// The child's exit status; a child still running after [`PATIENCE`] is killed and fails the test.
fn wait_or_kill(child: &mut Child) -> ExitStatus {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("redline parse did not exit within {PATIENCE:?} of its input ending");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn run_on_file(args: &[&str], reply: &str) -> (Vec<Value>, String) {
    let dir = tempfile::TempDir::new().expect("temp dir");
    let path = dir.path().join("reply.md");
    std::fs::write(&path, reply).expect("write reply");
    let out = redline().arg("parse").args(args).arg(&path).output().expect("run redline");
    assert!(out.status.success(), "{:?}", out);
    (json_lines(&out.stdout), String::from_utf8(out.stderr).expect("stderr is UTF-8"))
}

#[test]
fn chunked_mode_prints_the_same_lines_as_a_whole_read() {
    let reply = format!("{FIRST}{REST}lib.py\n```\n<<<<<<< SEARCH\ncut off");
    let (whole, _) = run_on_file(&[], &reply);
    assert_eq!(whole.len(), 4, "{whole:?}");
    assert!(whole[3]["problem"].as_str().is_some_and(|p| p.contains("ended inside")));
    for n in ["1", "4", "13", "100000"] {
        let (chunked, _) = run_on_file(&["--chunk-bytes", n], &reply);
        assert_eq!(chunked, whole, "--chunk-bytes {n}");
    }
}

#[test]
fn stats_go_to_stderr() {
    let reply = format!("{FIRST}{REST}");
    let (lines, stderr) = run_on_file(&["--chunk-bytes", "4", "--stats"], &reply);
    assert_eq!(lines.len(), 3);
    let stats = stderr.trim();
    let fields: Vec<(&str, u128)> = stats
        .split(' ')
        .map(|f| {
            let (k, v) = f.split_once('=').expect("key=value");
            (k, v.parse().expect("a number"))
        })
        .collect();
    let keys: Vec<&str> = fields.iter().map(|f| f.0).collect();
    assert_eq!(keys, ["bytes", "chunks", "edits", "elapsed_ms"], "{stats}");
    assert_eq!(fields[0].1, reply.len() as u128);
    assert_eq!(fields[1].1, reply.len().div_ceil(4) as u128);
    assert_eq!(fields[2].1, 3);
}

#[test]
fn stdin_dash_and_exit_statuses() {
    let mut child = redline()
        .args(["parse", "--stats", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child.stdin.take().expect("stdin").write_all(FIRST.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success());
    assert_eq!(json_lines(&out.stdout).len(), 1);
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("bytes="));

    let out = redline().args(["parse", "/no/such/reply.md"]).output().expect("run");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot read the reply /no/such/reply.md"), "{err}");

    let out = redline().args(["parse", "--chunk-bytes", "0", "x"]).output().expect("run");
    assert_eq!(out.status.code(), Some(2));
}
