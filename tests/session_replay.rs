//! Recorded sessions as regression tests of the engine, and replay itself.
//!
//! `demo/session.jsonl` (the demo) and `tests/sessions/*.jsonl` are replayed headless with the
//! current engine by the real binary (`redline replay FILE --headless --check`): every edit must
//! be found again, located the same way, and end the same. The recordings are made by the
//! ignored `write_recorded_sessions` test (`cargo test --test session_replay -- --ignored`),
//! which runs scripted sessions (replies at a human pace from a seeded generator, keys, a file
//! changed on disk) through the real app and recorder. Rewriting them accepts the engine's
//! current behaviour as the new reference: do it only on purpose. `aimock-udiff-split.jsonl`
//! was recorded by the real binary's review screen against aimock on loopback (a unified-diff
//! reply at a model's pace; split, accept, reject, undo, accept, quit).
//!
//! Also here: an altered recording fails the check with a useful difference; a journal cut at
//! any byte replays to its last complete line; a replay at speed 10 shows the recording's
//! screens, in order.

mod frame_support;
mod session_support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use frame_support::render;
use redline::app::replay::{Clock, Script};
use redline::core::file::Source;
use redline::core::session::{FileRecord, Record, Why, WriteRecord, hash, read};
use redline::shell::runtime::{Driver, check};
use session_support::{Synth, demo_session};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const SHAPES: &str = "import math\n\n\nclass Circle:\n    def __init__(self, r):\n        self.r = r\n\n    def area(self):\n        return 3.14 * self.r * self.r\n\n    def perimeter(self):\n        return 2 * 3.14 * self.r\n\n\nclass Square:\n    def __init__(self, side):\n        self.side = side\n\n    def area(self):\n        return self.side * self.side\n";

const UDIFF_REPLY: &str = "Use `math.pi` instead of the 3.14 approximation, and give `Square` a perimeter too.\n\n```diff\n--- a/shapes.py\n+++ b/shapes.py\n@@ -7,8 +7,8 @@\n \n     def area(self):\n-        return 3.14 * self.r * self.r\n+        return math.pi * self.r ** 2\n \n     def perimeter(self):\n-        return 2 * 3.14 * self.r\n+        return 2 * math.pi * self.r\n \n \n@@ -18,3 +18,6 @@\n \n     def area(self):\n         return self.side * self.side\n+\n+    def perimeter(self):\n+        return 4 * self.side\n```\n\nBoth classes now have the same two methods.\n";

const CART: &str = "export function total(items) {\n  let sum = 0;\n  for (const item of items) {\n    sum += item.price * item.qty;\n  }\n  return sum;\n}\n";

const WHOLE_REPLY: &str = "Here is `cart.js` with a discount parameter, and a small test for it.\n\ncart.js\n```js\nexport function total(items, discount = 0) {\n  const sum = items.reduce((acc, item) => acc + item.price * item.qty, 0);\n  return sum * (1 - discount);\n}\n```\n\ncart.test.js\n```js\nimport { total } from \"./cart.js\";\n\ntest(\"discount\", () => {\n  expect(total([{ price: 10, qty: 2 }], 0.5)).toBe(10);\n});\n```\n";

const CONFIG_PY: &str = "DEFAULTS = {\n    \"host\": \"localhost\",\n    \"port\": 8080,\n    \"debug\": False,\n}\n\n\ndef load(path):\n    with open(path) as f:\n        return f.read()\n\n\ndef merge(base, extra):\n    out = dict(base)\n    out.update(extra)\n    return out\n";

const SR_REPLY: &str = "Three small changes to `config.py`.\n\nconfig.py\n```python\n<<<<<<< SEARCH\n    \"port\": 8080,\n    \"debug\": false,\n=======\n    \"port\": 8000,\n    \"debug\": False,\n>>>>>>> REPLACE\n```\n\nconfig.py\n```python\n<<<<<<< SEARCH\ndef load(path):\n    with open(path) as f:\n        return f.read()\n=======\ndef load(path):\n    with open(path, encoding=\"utf-8\") as f:\n        return f.read()\n>>>>>>> REPLACE\n```\n\nconfig.py\n```python\n<<<<<<< SEARCH\ndef save(config, path):\n    with open(path, \"w\") as f:\n        f.write(repr(config))\n=======\ndef save(config, path):\n    with open(path, \"w\", encoding=\"utf-8\") as f:\n        f.write(repr(config))\n>>>>>>> REPLACE\n```\n";

const SR_RETRY: &str = "You are right, there is no `save` yet. Here it is, added after `merge`:\n\nconfig.py\n```python\n<<<<<<< SEARCH\n    out.update(extra)\n    return out\n=======\n    out.update(extra)\n    return out\n\n\ndef save(config, path):\n    with open(path, \"w\", encoding=\"utf-8\") as f:\n        f.write(repr(config))\n>>>>>>> REPLACE\n```\n";

/// Every scripted session kept under `tests/sessions/`, by file name.
fn scripted_sessions() -> Vec<(&'static str, Synth)> {
    // A unified diff of two hunks: reject the first, undo, split it, accept one part, reject
    // the other, accept the second hunk in the side-by-side view.
    let mut udiff = Synth::new(
        "udiff-split-undo",
        ("openai", "gpt-4.1-mini"),
        "use math.pi; add Square.perimeter",
        "udiff",
        &[("shapes.py", SHAPES)],
        11,
    );
    udiff.stream(UDIFF_REPLY);
    for (key, after) in [
        ("n", 2600),
        ("u", 1800),
        ("k", 900),
        ("s", 1200),
        ("y", 1500),
        ("n", 1100),
        ("j", 700),
        ("v", 800),
        ("y", 1300),
        ("tab", 600),
    ] {
        udiff.key(key, after);
    }
    // Whole files: one replaced, one created; the user accepts all, then quits.
    let mut whole = Synth::new(
        "whole-files",
        ("anthropic", "claude-sonnet-4-5"),
        "add a discount to total, with a test",
        "whole",
        &[("cart.js", CART)],
        22,
    );
    whole.stream(WHOLE_REPLY);
    for (key, after) in [("j", 1500), ("k", 500), ("A", 2000), ("q", 1200)] {
        whole.key(key, after);
    }
    // SEARCH/REPLACE: one placed despite a miscopied line, one exact, one that cannot be placed;
    // the file changes on disk (the user's editor) so that the pending one no longer fits (a
    // conflict); retry the failed one and accept the answer.
    let mut sr = Synth::new(
        "search-replace-retry",
        ("ollama", "qwen2.5-coder:7b"),
        "tidy config.py",
        "search-replace",
        &[("config.py", CONFIG_PY)],
        33,
    );
    sr.stream(SR_REPLY);
    sr.key("y", 3000);
    let applied = CONFIG_PY.replace("8080", "8000");
    let edited = applied.replace(
        "    with open(path) as f:\n        return f.read()\n",
        "    return pathlib.Path(path).read_text()\n",
    );
    sr.file_changed("config.py", &edited, 2500);
    sr.key("j", 800);
    sr.key("r", 1500);
    sr.request(Why::Retry);
    sr.stream(SR_RETRY);
    sr.key("y", 2100);
    vec![
        ("udiff-split-undo.jsonl", udiff),
        ("whole-files.jsonl", whole),
        ("search-replace-retry.jsonl", sr),
    ]
}

#[test]
#[ignore = "rewrites the recorded sessions: run on purpose"]
fn write_recorded_sessions() {
    std::fs::write(repo().join("demo/session.jsonl"), demo_session()).unwrap();
    let dir = repo().join("tests/sessions");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, synth) in scripted_sessions() {
        std::fs::write(dir.join(name), synth.record()).unwrap();
    }
}

fn recorded_sessions() -> Vec<PathBuf> {
    let mut paths = vec![repo().join("demo/session.jsonl")];
    let mut tests: Vec<PathBuf> = std::fs::read_dir(repo().join("tests/sessions"))
        .expect("tests/sessions")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    tests.sort();
    paths.extend(tests);
    paths
}

fn replay_check(path: &Path) -> (Option<i32>, serde_json::Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_redline"))
        .args(["replay", "--headless", "--check"])
        .arg(path)
        .env("REDLINE_SESSION_DIR", std::env::temp_dir().join("redline-no-sessions-here"))
        .output()
        .expect("run redline replay");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let json = serde_json::from_str(&stdout).unwrap_or(serde_json::Value::Null);
    (out.status.code(), json, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn every_recorded_session_is_reproduced_by_the_current_engine() {
    let paths = recorded_sessions();
    assert!(paths.len() >= 5, "the demo and the sessions in tests/sessions: {paths:?}");
    for path in paths {
        let (code, report, stderr) = replay_check(&path);
        assert_eq!(code, Some(0), "{}: {report:#}\n{stderr}", path.display());
        assert_eq!(report["reproduced"], true, "{}", path.display());
        assert_eq!(report["complete"], true, "{}", path.display());
        assert!(report["hunks"]["recorded"].as_u64() > Some(0), "{}", path.display());
    }
}

#[test]
fn the_recordings_hold_what_their_scripts_did() {
    let load = |name: &str| read(&std::fs::read(repo().join(name)).unwrap());
    let udiff = load("tests/sessions/udiff-split-undo.jsonl");
    let actions: Vec<String> = udiff
        .records
        .iter()
        .filter_map(|r| match r {
            Record::Decision(d) => Some(format!("{} {}", d.action, d.state)),
            _ => None,
        })
        .collect();
    assert!(actions.iter().any(|a| a == "undo pending"), "{actions:?}");
    assert!(actions.iter().any(|a| a == "split gone"), "{actions:?}");
    let sr = load("tests/sessions/search-replace-retry.jsonl");
    let states: Vec<&str> = sr
        .records
        .iter()
        .filter_map(|r| match r {
            Record::Hunk(h) => Some(h.state.as_str()),
            _ => None,
        })
        .collect();
    assert!(states.contains(&"failed") && states.contains(&"applied"), "{states:?}");
    assert!(sr.records.iter().any(|r| matches!(r, Record::FileChanged(_))));
    let requests = sr.records.iter().filter(|r| matches!(r, Record::Request(_))).count();
    assert_eq!(requests, 2, "the retry is a second request");
    let demo = load("demo/session.jsonl");
    let Some(Record::Session(h)) = demo.records.first() else { panic!("a header") };
    assert_eq!(h.label, "demo · bundled reply");
}

#[test]
fn an_altered_location_fails_the_check_and_says_where() {
    let text =
        std::fs::read_to_string(repo().join("tests/sessions/udiff-split-undo.jsonl")).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let at = lines
        .iter()
        .position(|l| l.contains("\"kind\":\"hunk\"") && l.contains("\"lines\":["))
        .expect("a located hunk");
    let mut record: serde_json::Value = serde_json::from_str(&lines[at]).unwrap();
    let recorded_lines = record["lines"].clone();
    record["lines"] = serde_json::json!([90, 99]);
    lines[at] = record.to_string();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("altered.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let (code, report, stderr) = replay_check(&path);
    assert_eq!(code, Some(1), "{report:#}\n{stderr}");
    assert_eq!(report["reproduced"], false);
    let diffs = report["differences"].as_array().expect("differences");
    let d = diffs.iter().find(|d| d["what"] == "lines").unwrap_or_else(|| panic!("{report:#}"));
    assert_eq!(d["hunk"], record["id"]);
    assert_eq!(d["path"], "shapes.py");
    assert_eq!(d["recorded"], serde_json::json!([90, 99]));
    assert_eq!(d["now"], recorded_lines);

    // A changed state and a lost edit are differences too.
    let altered = text.replacen("\"state\":\"rejected\"", "\"state\":\"applied\"", 1);
    let report = check(&read(altered.as_bytes())).unwrap();
    assert!(
        !report.reproduced && report.differences.iter().any(|d| d.what == "state"),
        "{report:?}"
    );
    // Not a session at all: a usage error (2).
    std::fs::write(&path, "{\"kind\":\"chunk\",\"t\":1,\"text\":\"x\"}\n").unwrap();
    assert_eq!(replay_check(&path).0, Some(2));
}

#[test]
fn a_journal_cut_at_any_byte_replays_to_its_last_complete_line() {
    let text = std::fs::read(repo().join("tests/sessions/search-replace-retry.jsonl")).unwrap();
    let whole = read(&text);
    let mut cuts: Vec<usize> = (0..text.len()).step_by(211).collect();
    for (i, b) in text.iter().enumerate() {
        if *b == b'\n' {
            cuts.extend([i, i + 1]);
        }
    }
    for cut in cuts {
        let journal = read(&text[..cut]);
        assert_eq!(journal.records[..], whole.records[..journal.records.len()], "cut at {cut}");
        if journal.records.is_empty() {
            continue;
        }
        let report = check(&journal).unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
        assert!(report.reproduced, "cut at {cut}: {report:?}");
    }
    // The binary too, at a byte inside a line.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.jsonl");
    std::fs::write(&path, &text[..text.len() * 2 / 3]).unwrap();
    let (code, report, stderr) = replay_check(&path);
    assert_eq!(code, Some(0), "{report:#}\n{stderr}");
    assert_eq!(report["complete"], false);
    assert!(stderr.contains("is cut at line"), "{stderr}");
}

/// The frames of a session as it is recorded (a frame after each message, writes carried out
/// at once as the runtime does), and as a replay at speed 10 of its journal shows them.
#[test]
fn replay_at_speed_ten_shows_the_same_screens_in_order() {
    for (name, synth) in scripted_sessions() {
        let mut recorded_frames = Vec::new();
        let text = synth.record_with(|t, app| recorded_frames.push((t, render(app, 110, 32))));
        let script = Script::from_journal(&read(text.as_bytes())).unwrap();
        let mut replay = Driver::new(&script, true);
        replay.clock = Clock { speed: Some(10.0) };
        let mut replayed_frames = Vec::new();
        replay.run_with(|fed, app| replayed_frames.push((fed.t, render(app, 110, 32))));
        assert_eq!(recorded_frames.len(), replayed_frames.len(), "{name}");
        for (i, (a, b)) in recorded_frames.iter().zip(&replayed_frames).enumerate() {
            assert_eq!(a, b, "{name}: frame {i} differs");
        }
        assert!(recorded_frames.len() > 20, "{name}: {} frames", recorded_frames.len());
        let duration = Duration::from_millis(script.duration_ms());
        let expected = duration / 10;
        assert!(
            replay.wall <= expected && replay.wall + Duration::from_millis(100) >= expected,
            "{name}: {:?} of wall time for {duration:?} recorded",
            replay.wall
        );
    }
}

#[test]
fn after_the_user_takes_over_the_recorded_decision_is_shown() {
    let path = repo().join("tests/sessions/udiff-split-undo.jsonl");
    let script = Script::from_journal(&read(&std::fs::read(path).unwrap())).unwrap();
    let mut driver = Driver::new(&script, true);
    driver.run();
    let selected = driver.app.selected.expect("a selected hunk");
    let recorded = script.decisions.get(&selected).expect("a recorded decision").clone();
    assert!(!render(&driver.app, 160, 32).contains("recorded:"), "not while re-enacting");
    driver.app.recorded = script.decisions.clone();
    let frame = render(&driver.app, 160, 32);
    assert!(frame.contains(&format!("recorded: {recorded}")), "{frame}");
}

#[test]
fn a_root_that_does_not_hold_the_files_as_sent_is_refused() {
    let path = repo().join("tests/sessions/udiff-split-undo.jsonl");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("shapes.py"), SHAPES.replace("3.14", "3.1416")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_redline"))
        .args(["replay", "--root"])
        .arg(dir.path())
        .arg(&path)
        .env("REDLINE_SESSION_DIR", dir.path().join("sessions"))
        .output()
        .expect("run redline replay");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("does not hold the files as they were sent (shapes.py differs)"),
        "{stderr}"
    );
    assert!(!dir.path().join("sessions").exists(), "nothing is recorded");
}

#[test]
fn a_request_typed_in_the_input_line_replays() {
    let mut s = Synth::new("typed", ("openai", "m"), "", "udiff", &[("shapes.py", SHAPES)], 5);
    s.asks_prompt();
    for (i, c) in "use pi".chars().enumerate() {
        s.key(&c.to_string(), 150 + i as u64);
    }
    s.key("enter", 300);
    s.request(Why::Initial);
    s.stream(UDIFF_REPLY);
    s.key("A", 2000);
    let mut frames = Vec::new();
    let text = s.record_with(|_, app| frames.push(render(app, 100, 30)));
    let journal = read(text.as_bytes());
    let requests: Vec<&Record> =
        journal.records.iter().filter(|r| matches!(r, Record::Request(_))).collect();
    assert_eq!(requests.len(), 1);
    let Record::Request(r) = requests[0] else { unreachable!() };
    assert!(r.messages.iter().any(|m| m.content.contains("use pi")), "{r:?}");
    let report = check(&journal).unwrap();
    assert!(report.reproduced && report.now.accepted == 2, "{report:?}");
    let script = Script::from_journal(&journal).unwrap();
    let mut replay = Driver::new(&script, true);
    let mut replayed = Vec::new();
    replay.run_with(|_, app| replayed.push(render(app, 100, 30)));
    assert_eq!(frames, replayed);
}

const LOADER: &str =
    "import json\n\n\ndef load(path):\n    with open(path) as f:\n        return json.load(f)\n";

const LOADER_REPLY: &str = "loader.py\n```python\n<<<<<<< SEARCH\n    with open(path) as f:\n=======\n    with open(path, encoding=\"utf-8\") as f:\n>>>>>>> REPLACE\n```\n";

/// A write that found the file changed just before it (another program wrote in between) is
/// journaled with the text it met; a replay puts that text there first, so the write meets it
/// again, the hunk is placed again in it and written on top: the same outcome, the same file.
#[test]
fn a_write_that_met_another_programs_text_replays_identically() {
    let mut s = Synth::new(
        "stale",
        ("openai", "m"),
        "utf-8",
        "search-replace",
        &[("loader.py", LOADER)],
        8,
    );
    s.stream(LOADER_REPLY);
    s.key("y", 900);
    let theirs = format!("# edited in another window\n{LOADER}");
    let write = |ok: bool, found: Option<&str>, after: Option<String>| WriteRecord {
        t: 0,
        hunk: "0000000000000000".into(),
        path: "loader.py".into(),
        ok,
        undo: false,
        deleted: false,
        reason: None,
        hash: after.as_deref().map(hash),
        found: found.map(|t| FileRecord::new(None, "loader.py", &Source::Text(t.into()))),
    };
    let expected = theirs.replace("open(path)", "open(path, encoding=\"utf-8\")");
    s.outcome(write(false, Some(&theirs), None), 15);
    s.outcome(write(true, None, Some(expected.clone())), 20);
    let journal = read(s.record().as_bytes());
    let writes: Vec<&WriteRecord> = journal
        .records
        .iter()
        .filter_map(|r| match r {
            Record::Write(w) => Some(w),
            _ => None,
        })
        .collect();
    assert_eq!(writes.len(), 2, "{writes:?}");
    assert!(
        !writes[0].ok
            && writes[0]
                .found
                .as_ref()
                .is_some_and(|f| f.content.as_deref() == Some(theirs.as_str()))
    );
    assert!(
        writes[1].ok && writes[1].hash == Some(hash(&expected)),
        "written on top of their text"
    );
    let report = check(&journal).unwrap();
    assert!(report.reproduced, "{report:?}");
}

/// A watch-mode session: a comment saved in a file asks, the answer is accepted and the comment
/// goes with it; the recording replays identically.
#[test]
fn a_watch_mode_session_replays_identically() {
    let mut s =
        Synth::new("watch", ("openai", "m"), "", "search-replace", &[("loader.py", LOADER)], 9);
    s.watch();
    let saved = LOADER.replace("def load(path):", "def load(path):  # AI! read it as utf-8");
    s.file_changed("loader.py", &saved, 700);
    s.request(Why::Watch);
    s.stream(LOADER_REPLY);
    s.key("y", 1200);
    let journal = read(s.record().as_bytes());
    let whys: Vec<Why> = journal
        .records
        .iter()
        .filter_map(|r| match r {
            Record::Request(r) => Some(r.why),
            _ => None,
        })
        .collect();
    assert_eq!(whys, [Why::Watch]);
    let written = journal.records.iter().rev().find_map(|r| match r {
        Record::Write(w) if w.ok => w.hash.clone(),
        _ => None,
    });
    let expected = LOADER.replace("open(path)", "open(path, encoding=\"utf-8\")");
    assert_eq!(written, Some(hash(&expected)), "the edit, and the comment gone");
    let report = check(&journal).unwrap();
    assert!(report.reproduced, "{report:?}");
}

/// The demo session written as this version writes journals (each text once, as a blob) replays
/// exactly as the inline one; written with a tiny limit per text, the replay names each file it
/// lacks, on standard error and in the report's notes.
#[test]
fn a_journal_of_blobs_replays_and_one_over_the_limit_says_what_it_lacks() {
    use redline::core::session::Blobs;
    let demo = read(&std::fs::read(repo().join("demo/session.jsonl")).unwrap());
    let dir = tempfile::tempdir().unwrap();
    for (limit, name) in [(1u64 << 20, "blobs.jsonl"), (64, "capped.jsonl")] {
        let mut blobs = Blobs::new(limit);
        let text: String =
            demo.records.iter().flat_map(|r| blobs.externalize(r)).map(|r| r.to_line()).collect();
        let path = dir.path().join(name);
        std::fs::write(&path, &text).unwrap();
        let blob_lines = text.lines().filter(|l| l.contains(r#""kind":"blob""#)).count();
        let (code, report, stderr) = replay_check(&path);
        if limit > 64 {
            assert!(blob_lines > 0);
            assert_eq!(code, Some(0), "{report:#}\n{stderr}");
            assert_eq!(report["reproduced"], true);
            assert_eq!(read(text.as_bytes()).records, demo.records, "reads back inline");
        } else {
            let sent: Vec<&str> = demo
                .records
                .iter()
                .filter_map(|r| match r {
                    Record::File(f) if f.t.is_none() => Some(f.path.as_str()),
                    _ => None,
                })
                .collect();
            assert!(!sent.is_empty());
            for path in sent {
                let lack = format!("{path}: the journal holds no copy of it");
                assert!(stderr.contains(&lack), "{path}: {stderr}");
                let notes = report["notes"].to_string();
                assert!(notes.contains(&lack), "{path}: {notes}");
            }
        }
    }
}

/// A file over the journal's limit per text is left out while it is only sent, and journaled
/// when the session first writes it: the journal then replays the accepted hunk (a resume
/// rebuilds the decision, and undo can take it back), where before the file read as unusable
/// and the decision was lost.
#[test]
fn a_file_over_the_limit_is_journaled_once_the_session_writes_it() {
    use redline::core::session::Blobs;
    for accept in [false, true] {
        let mut s = Synth::new(
            "big",
            ("openai", "m"),
            "start at one",
            "search-replace",
            &[("totals.py", TOTALS)],
            12,
        );
        s.stream(TOTALS_REPLY);
        if accept {
            s.key("2", 900);
            s.key("y", 700);
        }
        let recorded = read(s.record().as_bytes());
        let mut blobs = Blobs::new(64);
        let text: String = recorded
            .records
            .iter()
            .flat_map(|r| blobs.externalize(r))
            .map(|r| r.to_line())
            .collect();
        let journal = read(text.as_bytes());
        let lacking = journal.lacking();
        let wrote = recorded.records.iter().any(|r| matches!(r, Record::Write(w) if w.ok));
        assert_eq!(wrote, accept);
        if !accept {
            assert_eq!(lacking.len(), 1, "only sent, it stays out: {lacking:?}");
            continue;
        }
        assert!(lacking.is_empty(), "{lacking:?}");
        assert_eq!(text.matches(TOTALS.lines().next().unwrap()).count(), 1, "journaled once");
        let report = check(&journal).unwrap();
        assert!(report.reproduced && report.now.accepted == 1, "{report:?}");
    }
}

const TOTALS: &str = "def small(items):\n    total = 0\n    return total + len(items)\n\n\ndef large(items):\n    total = 0\n    return total + 9 * len(items)\n";

const TOTALS_REPLY: &str = "totals.py\n```python\n<<<<<<< SEARCH\n    total = 0\n=======\n    total = 1\n>>>>>>> REPLACE\n```\n";

/// A hunk that fits two places, placed by the user's `2` and accepted: the journal replays to
/// the same file, the second function changed and the first not.
#[test]
fn a_place_picked_among_candidates_replays_identically() {
    let mut s = Synth::new(
        "pick",
        ("openai", "m"),
        "start at one",
        "search-replace",
        &[("totals.py", TOTALS)],
        11,
    );
    s.stream(TOTALS_REPLY);
    s.key("2", 900);
    s.key("y", 700);
    let text = s.record();
    let journal = read(text.as_bytes());
    let report = check(&journal).unwrap();
    assert!(report.reproduced && report.now.accepted == 1, "{report:?}");
    let script = Script::from_journal(&journal).unwrap();
    let mut replay = Driver::new(&script, true);
    replay.run();
    let want = TOTALS.replacen(
        "    total = 0\n    return total + 9",
        "    total = 1\n    return total + 9",
        1,
    );
    assert_eq!(replay.files().get("totals.py"), Some(&Source::Text(want)));
}

/// A replay plays in a scratch copy of the files: `redline resume` (the last session) passes
/// over it to the newest session that is not a replay, and a replay named is not continued
/// without `--root` (its decisions would be written into the scratch copy).
#[test]
fn resume_passes_over_a_replay_and_refuses_to_continue_one_unasked() {
    let dir = tempfile::tempdir().unwrap();
    let sessions = dir.path().join("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    let recorded =
        std::fs::read_to_string(repo().join("tests/sessions/udiff-split-undo.jsonl")).unwrap();
    std::fs::write(sessions.join("20260101T000000Z-udiff-split-undo.jsonl"), &recorded).unwrap();
    let (header, rest) = recorded.split_once('\n').unwrap();
    let mut h: serde_json::Value = serde_json::from_str(header).unwrap();
    h["id"] = "replay0001".into();
    h["started_ms"] = (h["started_ms"].as_u64().unwrap() + 60_000).into();
    h["replay_of"] = "udiff-split-undo".into();
    h["scratch"] = true.into();
    h["root"] = dir.path().join("scratch").display().to_string().into();
    std::fs::write(sessions.join("20260101T000100Z-replay0001.jsonl"), format!("{h}\n{rest}"))
        .unwrap();
    let resume = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_redline"))
            .arg("resume")
            .args(args)
            .env("REDLINE_SESSION_DIR", &sessions)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("run redline resume");
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.code(), text)
    };
    let (code, text) = resume(&["replay0001"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("is a replay of session udiff-split-undo"), "{text}");
    let (_, text) = resume(&[]);
    assert!(!text.contains("replay0001"), "the last session that is no replay: {text}");
    assert!(text.contains("udiff-split-undo"), "{text}");
}
