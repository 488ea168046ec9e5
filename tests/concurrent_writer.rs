//! A concurrent writer: another process rewrites a file over and over (in place and by rename,
//! alternately) while the review accepts hunk after hunk in it, through the same write path as
//! the review screen (`shell::runtime::carry_out_write`: re-check, checked swap, re-place on a stale
//! write). Before each of its writes the other process checks that the file still holds what
//! it wrote last; over hundreds of rounds, not one of its bytes may be lost.

use std::collections::BTreeMap;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Instant;

use redline::app::key::{KeyCode, KeyEvent, KeyModifiers};
use redline::app::{App, AppConfig, AppEffect, Msg, StreamDone};
use redline::core::review::HunkState;
use redline::shell::runtime::carry_out_write;
use redline::shell::workspace::Workspace;

const SETTINGS: usize = 40;
/// The other process writes at least this many times, and on until every hunk is accepted.
const ROUNDS: usize = 300;

/// The other process: each round reads the file, checks its first and last lines are what it
/// wrote last, and writes them anew (odd rounds in place, even rounds by rename). Every sixth
/// round it pauses a quarter second.
const WRITER: &str = r##"
import json, os, random, sys, time
path, rounds, stop = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lost, last, k = [], None, 0
while k < rounds or not os.path.exists(stop):
    with open(path) as f:
        lines = f.read().split("\n")
    if last is not None and (lines[0], lines[-2]) != last:
        lost.append({"round": k, "expected": last, "found": [lines[0], lines[-2]]})
    lines[0] = "# written by the other process, round %d" % k
    lines[-2] = "OTHER_TAIL = %d  # %s" % (k, "x" * (k % 17))
    text = "\n".join(lines)
    if k % 2:
        with open(path, "w") as f:
            f.write(text)
    else:
        tmp = path + ".other.tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    last = (lines[0], lines[-2])
    k += 1
    # Mostly quick rounds, and now and then a quiet spell: a write that found the file changed
    # is placed again and retried, and on a slow machine (a debug build under load) that takes
    # longer than the quick rounds leave; without the spells it would never land.
    time.sleep(0.25 if k % 6 == 0 else random.uniform(0, 0.008))
with open(path) as f:
    lines = f.read().split("\n")
if (lines[0], lines[-2]) != last:
    lost.append({"round": k, "expected": last, "found": [lines[0], lines[-2]]})
print(json.dumps({"rounds": k, "lost": lost}))
"##;

fn settings_file() -> String {
    let mut out = String::from("# header\n");
    for i in 0..SETTINGS {
        out.push_str(&format!("setting_{i:03} = {}\n", i * 7));
    }
    out.push_str("OTHER_TAIL = 0\n");
    out
}

/// One SEARCH/REPLACE block per setting.
fn reply() -> String {
    (0..SETTINGS)
        .map(|i| {
            format!(
                "settings.py\n```\n<<<<<<< SEARCH\nsetting_{i:03} = {}\n=======\nsetting_{i:03} = {}  # tuned\n>>>>>>> REPLACE\n```\n\n",
                i * 7,
                i * 7 + 1
            )
        })
        .collect()
}

/// The round the other process last wrote, from the file's first line.
fn writer_round(path: &std::path::Path) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines().next()?.strip_prefix("# written by the other process, round ")?.parse().ok()
}

#[test]
fn not_one_byte_of_another_writer_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.py");
    let control = tempfile::tempdir().unwrap();
    let stop = control.path().join("stop");
    std::fs::write(&path, settings_file()).unwrap();
    let ws = Workspace::open(dir.path()).unwrap();
    let files = vec!["settings.py".to_string()];
    let sources = BTreeMap::from([("settings.py".to_string(), ws.read_source("settings.py"))]);
    let mut app =
        App::new(AppConfig { label: "test".into(), ..AppConfig::new(files, sources, "tune") });
    let now = Instant::now();
    app.start(now);
    app.update_placed(Msg::Chunk(reply()), now);
    app.update(Msg::StreamEnd(StreamDone::default()), now);
    assert_eq!(app.review.counts().pending, SETTINGS);

    let mut writer = Command::new("python3")
        .args(["-c", WRITER])
        .arg(&path)
        .arg(ROUNDS.to_string())
        .arg(&stop)
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let (mut writes, mut stale) = (0, 0);
    let mut seen_round = None;
    // No hunk written through this many of the other process's rounds is a failure, not a hang.
    let (mut applied, mut idle_rounds) = (0, 0);
    loop {
        // Each accept waits for a new write of the other process, so the two interleave.
        loop {
            assert!(writer.try_wait().unwrap().is_none(), "the other process stopped early");
            let round = writer_round(&path);
            if round.is_some() && round != seen_round {
                seen_round = round;
                break;
            }
            std::thread::yield_now();
        }
        let Some(id) = app.review.hunks().iter().find(|h| h.state.is_open()).map(|h| h.id) else {
            break;
        };
        let now_applied = app.review.counts().applied;
        idle_rounds = if now_applied > applied { 0 } else { idle_rounds + 1 };
        applied = now_applied;
        assert!(
            idle_rounds < 400,
            "no hunk written through 400 rounds of the other process; hunk {id} is {:?}: {:?}",
            app.review.hunk(id).map(|h| &h.state),
            app.notice
        );
        if app.review.hunk(id).is_some_and(|h| h.state != HunkState::Pending) {
            // What the watcher would report: the file as it is now.
            let source = ws.read_source("settings.py");
            app.update(Msg::FileChanged { path: "settings.py".into(), source }, now);
            if app.review.hunk(id).is_some_and(|h| h.state != HunkState::Pending) {
                continue;
            }
        }
        app.selected = Some(id);
        let mut effects =
            app.update(Msg::Key(KeyEvent::new(KeyCode::Char('y'), KeyModifiers::NONE)), now);
        while let Some(effect) = effects.pop() {
            if let AppEffect::Write { effect, undo } = effect {
                let msg = carry_out_write(&ws, effect, undo);
                match &msg {
                    Msg::WriteDone { .. } => writes += 1,
                    Msg::WriteStale { .. } => stale += 1,
                    other => panic!("a write failed outright: {other:?}"),
                }
                effects.extend(app.update(msg, now));
            }
        }
    }
    std::fs::write(&stop, "").unwrap();
    let status = writer.wait().unwrap();
    let mut out = String::new();
    writer.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    assert!(status.success(), "the other process failed: {out}");
    let report: serde_json::Value = serde_json::from_str(out.trim()).expect("its report");
    eprintln!("{writes} writes; {stale} found the file changed and were placed again; {report}");
    assert_eq!(report["lost"], serde_json::json!([]), "the other process lost bytes: {report}");
    assert_eq!(app.review.counts().applied, SETTINGS, "every hunk was written");
    assert!(report["rounds"].as_u64().unwrap() >= ROUNDS as u64);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "settings.py")
        .collect();
    assert!(leftovers.is_empty(), "no temporary file is left: {leftovers:?}");
}

/// A program that writes in place through a descriptor it opened *before* redline's swap: it
/// waits until the path names another file (the swap happened), then truncates and writes
/// through its old descriptor, into the file redline displaced. Bounded in time: it gives up
/// after 30 s.
const IN_PLACE_WRITER: &str = r##"
import os, sys, time
path, text = sys.argv[1], sys.argv[2]
f = open(path, "r+")
inode = os.fstat(f.fileno()).st_ino
print("ready", flush=True)
deadline = time.time() + 30
while os.stat(path).st_ino == inode and time.time() < deadline:
    pass
f.seek(0)
f.truncate()
f.write(text)
f.close()
"##;

#[cfg(target_os = "linux")]
#[test]
fn an_in_place_write_just_after_the_swap_is_not_lost() {
    use std::io::BufRead;
    use std::time::Duration;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    // A window no slow machine outruns: it ends as soon as the other program's text shows.
    let ws = Workspace::open(dir.path()).unwrap().with_settle_window(Duration::from_secs(30));
    for round in 0..8 {
        std::fs::write(&path, format!("round {round}\n")).unwrap();
        let read = ws.read_source("notes.txt");
        let theirs = format!("the other program, round {round}\n");
        let mut writer = Command::new("python3")
            .args(["-c", IN_PLACE_WRITER])
            .arg(&path)
            .arg(&theirs)
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs");
        let mut ready = String::new();
        std::io::BufReader::new(writer.stdout.take().unwrap()).read_line(&mut ready).unwrap();
        assert_eq!(ready.trim(), "ready");
        let ours = redline::core::file::FileWrite::Write {
            path: "notes.txt".into(),
            text: format!("redline, round {round}\n"),
        };
        let result = ws.write(&ours, Some(&read));
        assert!(writer.wait().unwrap().success());
        let err = result.expect_err("the other program's write is seen");
        assert!(err.to_string().contains("changed on disk"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs, "round {round}");
    }
    let names: Vec<_> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["notes.txt"], "no temporary file is left");
}
