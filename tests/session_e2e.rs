//! End to end: sessions recorded by the real binary's review screen (in tmux) against aimock on
//! loopback, then replayed.
//!
//! - `redline replay --headless --check` on the journal reproduces the same edits, locations
//!   and outcomes (exit 0), and `redline sessions` lists the session with its counts;
//! - no byte of the sessions folder holds the API key, whether it came from the environment
//!   or from the config file (`REDLINE_CONFIG`);
//! - `redline replay --speed 10` in tmux re-enacts the recorded keys and reaches the recorded
//!   final state; the user's key then takes over.
//!
//! Needs tmux and Node.js (`.ci/run` installs both); without tmux the tests say so and check
//! nothing, except under CI, where they fail.

mod provider_support;
mod tmux_support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use provider_support::{APP_PY, REPLY, SECRET, aimock, fixtures, project, reply_fixture};
use redline::core::session::{Record, read};
use tmux_support::{Tmux, have_tmux};

/// A hunk's state and where it was located, as a journal's `hunk` record says.
type Placed = (String, Option<String>, Option<(usize, usize)>);

/// The key the config file holds (the environment holds [`SECRET`]).
const CONFIG_SECRET: &str = "sk-config-SECRET-0f9e8d7c6b5a4930";

fn journals(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> =
        std::fs::read_dir(dir).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    out.sort();
    out
}

fn redline(args: &[&str], sessions: &Path) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_redline"))
        .args(args)
        .env("REDLINE_SESSION_DIR", sessions)
        .output()
        .expect("run redline");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// Every byte of every file under `dir`, searched for each secret.
fn assert_no_secret_in(dir: &Path) {
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
            for secret in [SECRET, CONFIG_SECRET] {
                let found = bytes.windows(secret.len()).any(|w| w == secret.as_bytes());
                assert!(!found, "{} holds the key {secret}", path.display());
            }
        }
    }
    assert!(files > 0, "no journal in {}", dir.display());
}

/// Review the aimock stream in tmux (accept, reject, quit); the journal's path.
fn record_session(tmux: &Tmux, dir: &Path, sessions: &Path, env: &str, flags: &str) -> PathBuf {
    let config_home = dir.join("xdg");
    let command = format!(
        "cd {} && XDG_CONFIG_HOME={} REDLINE_SESSION_DIR={} {env} TERM=xterm-256color {} {flags} -m 'please fix-tui' app.py; echo EXIT=$?",
        dir.join("project").display(),
        config_home.display(),
        sessions.display(),
        env!("CARGO_BIN_EXE_redline"),
    );
    let before = journals(sessions).len();
    tmux.run(&command);
    tmux.wait_for("the stream to finish", "✓ openai · mock");
    tmux.keys("y");
    tmux.wait_for("the first hunk to be written", "1 applied");
    tmux.keys("n");
    tmux.wait_for("the second hunk to be rejected", "1 rejected");
    tmux.keys("q");
    let screen = tmux.wait_for("redline to exit", "EXIT=0");
    assert!(screen.contains("1 applied, 1 rejected, 0 left undecided"), "{screen}");
    let after = journals(sessions);
    assert_eq!(after.len(), before + 1, "one journal per session: {after:?}");
    tmux.run("clear");
    let newest = after.iter().max_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
    newest.expect("a journal").clone()
}

fn scratch_project(root: &Path) {
    let project = project();
    std::fs::create_dir_all(root.join("project")).unwrap();
    for name in ["app.py", "README.md"] {
        std::fs::copy(project.path().join(name), root.join("project").join(name)).unwrap();
    }
}

#[test]
fn a_session_recorded_against_a_loopback_server_replays_identically_and_holds_no_key() {
    if !have_tmux("the recorded-session end-to-end test") {
        return;
    }
    let server =
        aimock(&fixtures(vec![reply_fixture("fix-tui", REPLY, serde_json::json!({}))]), &[]);
    let scratch = tempfile::tempdir().unwrap();
    let sessions = scratch.path().join("sessions");
    let tmux = Tmux::start("session-e2e", 110, 30);

    // The key in the environment; no config file.
    let one = scratch.path().join("one");
    scratch_project(&one);
    let env = format!(
        "REDLINE_CONFIG={} OPENAI_API_KEY={SECRET} NO_PROXY=127.0.0.1",
        one.join("none.toml").display()
    );
    let flags = format!("--provider openai --base-url {}/v1 --model mock", server.url());
    let journal_one = record_session(&tmux, &one, &sessions, &env, &flags);

    // The key in the config file only, with the provider and base URL.
    let two = scratch.path().join("two");
    scratch_project(&two);
    let config = two.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "provider = \"openai\"\n[openai]\nbase_url = \"{}/v1\"\nmodel = \"mock\"\napi_key = \"{CONFIG_SECRET}\"\n",
            server.url()
        ),
    )
    .unwrap();
    let env = format!("REDLINE_CONFIG={} NO_PROXY=127.0.0.1", config.display());
    let journal_two = record_session(&tmux, &two, &sessions, &env, "");

    for journal in [&journal_one, &journal_two] {
        let (code, out, err) = redline(
            &["replay", "--headless", "--check", &journal.display().to_string()],
            &sessions,
        );
        assert_eq!(code, Some(0), "{out}\n{err}");
        let report: serde_json::Value = serde_json::from_str(&out).expect("a JSON report");
        assert_eq!(report["reproduced"], true, "{report:#}");
        assert_eq!(report["complete"], true, "{report:#}");
        assert_eq!(report["hunks"], serde_json::json!({"recorded": 2, "now": 2}));
        assert_eq!(report["writes"], serde_json::json!({"recorded": 1, "now": 1}));
        assert_eq!(report["now"]["accepted"], 1);
        assert_eq!(report["now"]["rejected"], 1);
        // What was recorded: both edits, located exactly, one applied and one rejected.
        let records = read(&std::fs::read(journal).unwrap()).records;
        let mut finals: Vec<Placed> = records
            .iter()
            .filter_map(|r| match r {
                Record::Hunk(h) if h.state == "applied" || h.state == "rejected" => {
                    Some((h.state.clone(), h.strategy.map(|s| s.to_string()), h.lines))
                }
                _ => None,
            })
            .collect();
        // The write's answer comes back from the disk worker: under load the rejection typed
        // after the accept may be recorded first. Which records, not their order, is checked.
        finals.sort();
        assert_eq!(
            finals,
            vec![
                ("applied".into(), Some("exact".into()), Some((5, 6))),
                ("rejected".into(), Some("exact".into()), Some((2, 2))),
            ]
        );
        let Some(Record::Session(h)) = records.first() else { panic!("a header") };
        assert_eq!(h.base_url.as_deref(), Some(format!("{}/v1", server.url()).as_str()));
        assert!(records.iter().any(|r| matches!(r, Record::Chunk { .. })));
        assert!(matches!(records.last(), Some(Record::End(_))));
    }
    assert_no_secret_in(&sessions);

    // `redline sessions` lists both, newest first, with their counts.
    let (code, out, err) = redline(&["sessions", "--json"], &sessions);
    assert_eq!(code, Some(0), "{err}");
    let list: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let list = list.as_array().expect("an array");
    assert_eq!(list.len(), 2);
    for s in list {
        assert_eq!((s["accepted"].as_u64(), s["rejected"].as_u64()), (Some(1), Some(1)));
        assert_eq!(s["model"], "mock");
        assert_eq!(s["prompt"], "please fix-tui");
    }
    let (_, table, _) = redline(&["sessions"], &sessions);
    assert!(table.lines().next().is_some_and(|l| l.starts_with("WHEN (UTC)")), "{table}");
    assert!(table.contains("please fix-tui"), "{table}");

    // Replay the first at ten times its pace, in the review screen: the recorded keys are
    // re-enacted on a scratch copy, and the recorded final state is reached.
    let id = list[1]["id"].as_str().expect("an id").to_string();
    let command = format!(
        "cd {} && XDG_CONFIG_HOME={} TERM=xterm-256color {} replay {} --speed 10 --session-dir {}; echo EXIT=$?",
        scratch.path().display(),
        scratch.path().join("xdg").display(),
        env!("CARGO_BIN_EXE_redline"),
        &id[..5],
        sessions.display(),
    );
    tmux.run(&command);
    let screen = tmux.wait_for("the recorded decisions", "1 applied 1 rejected");
    assert!(screen.contains("openai · mock"), "{screen}");
    // The user's key takes over; q quits without asking (nothing is undecided).
    std::thread::sleep(Duration::from_millis(300));
    tmux.keys("q");
    let screen = tmux.wait_for("the replay to exit", "EXIT=0");
    assert!(screen.contains("1 applied, 1 rejected, 0 left undecided"), "{screen}");
    assert!(screen.contains("the replay's files are in"), "{screen}");
    let all = journals(&sessions);
    assert_eq!(all.len(), 3, "the replay is journaled too: {all:?}");
    let replay_of: Vec<Option<String>> = all
        .iter()
        .map(|p| match read(&std::fs::read(p).unwrap()).records.first() {
            Some(Record::Session(h)) => h.replay_of.clone(),
            _ => None,
        })
        .collect();
    assert!(replay_of.contains(&Some(id.clone())), "{replay_of:?}");
    // The replay went through the same states as the recording.
    let states = |p: &Path| -> Vec<Placed> {
        read(&std::fs::read(p).unwrap())
            .records
            .iter()
            .filter_map(|r| match r {
                Record::Hunk(h) => Some((h.id.clone(), Some(h.state.clone()), h.lines)),
                _ => None,
            })
            .collect()
    };
    let replay_path = &all[replay_of.iter().position(|r| r.as_deref() == Some(&id)).unwrap()];
    assert_eq!(states(replay_path), states(&journal_one));
    let scratch_line = screen.lines().find(|l| l.contains("the replay's files are in")).unwrap();
    let folder = scratch_line.rsplit(' ').next().unwrap().trim();
    let app = std::fs::read_to_string(Path::new(folder).join("app.py")).unwrap();
    assert_eq!(app, APP_PY.replace("items[len(items)]", "items[-1]"));
    let _ = std::fs::remove_dir_all(folder);
}

#[test]
fn a_session_killed_mid_review_replays_to_its_last_complete_line() {
    if !have_tmux("the recorded-session end-to-end test") {
        return;
    }
    let server =
        aimock(&fixtures(vec![reply_fixture("fix-tui", REPLY, serde_json::json!({}))]), &[]);
    let scratch = tempfile::tempdir().unwrap();
    let sessions = scratch.path().join("sessions");
    scratch_project(scratch.path());
    let tmux = Tmux::start("session-kill", 110, 30);
    let command = format!(
        "cd {} && XDG_CONFIG_HOME={} REDLINE_CONFIG={} REDLINE_SESSION_DIR={} NO_PROXY=127.0.0.1 OPENAI_API_KEY={SECRET} TERM=xterm-256color {} --provider openai --base-url {}/v1 --model mock -m 'please fix-tui' app.py",
        scratch.path().join("project").display(),
        scratch.path().join("xdg").display(),
        scratch.path().join("none.toml").display(),
        sessions.display(),
        env!("CARGO_BIN_EXE_redline"),
        server.url(),
    );
    tmux.run(&command);
    tmux.wait_for("the stream to finish", "✓ openai · mock");
    tmux.keys("y");
    tmux.wait_for("the first hunk to be written", "1 applied");
    // kill -9 the redline process (the pane's shell's child): no chance to end the journal.
    let shell = tmux.cmd(&["display-message", "-p", "-t", "e2e", "#{pane_pid}"]);
    let children = Command::new("pgrep").args(["-P", shell.trim()]).output().expect("pgrep");
    let pid = String::from_utf8_lossy(&children.stdout).trim().to_string();
    assert!(!pid.is_empty() && !pid.contains('\n'), "one child of the pane's shell: {pid:?}");
    let killed = Command::new("kill").args(["-9", &pid]).status().expect("kill");
    assert!(killed.success());
    std::thread::sleep(Duration::from_millis(200));

    let all = journals(&sessions);
    let [journal] = all.as_slice() else {
        panic!("one journal in {}: {all:?}", sessions.display())
    };
    let records = read(&std::fs::read(journal).unwrap());
    assert!(!matches!(records.records.last(), Some(Record::End(_))), "no end: it was killed");
    assert!(
        records.records.iter().any(|r| matches!(r, Record::Write(w) if w.ok)),
        "the write is synced"
    );
    let (code, out, err) =
        redline(&["replay", "--headless", "--check", &journal.display().to_string()], &sessions);
    assert_eq!(code, Some(0), "{out}\n{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("a JSON report");
    assert_eq!(report["reproduced"], true, "{report:#}");
    assert_eq!(report["complete"], false, "{report:#}");
    assert_eq!(report["now"]["accepted"], 1, "{report:#}");
    assert_no_secret_in(&sessions);
}

#[test]
fn an_instant_replay_of_the_demo_reaches_its_recorded_end_at_once() {
    if !have_tmux("the recorded-session end-to-end test") {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let tmux = Tmux::start("session-instant", 110, 30);
    let command = format!(
        "XDG_CONFIG_HOME={} REDLINE_SESSION_DIR={} TERM=xterm-256color {} replay {} --instant; echo EXIT=$?",
        scratch.path().join("xdg").display(),
        scratch.path().join("sessions").display(),
        env!("CARGO_BIN_EXE_redline"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("demo/session.jsonl").display(),
    );
    tmux.run(&command);
    // Both rounds: the recorded `r` asked again about the failed edit, and its answer came.
    let screen = tmux.wait_for("both rounds", "5 pending 0 applied 1 rejected 0 failed");
    assert!(screen.contains("✓ demo · bundled reply"), "{screen}");
    tmux.keys("q");
    tmux.wait_for("the quit question", "Quit anyway?");
    tmux.keys("y");
    let screen = tmux.wait_for("the replay to exit", "EXIT=0");
    let line = screen.lines().find(|l| l.contains("the replay's files are in")).expect("folder");
    let _ = std::fs::remove_dir_all(line.rsplit(' ').next().unwrap_or_default().trim());
}

#[test]
fn a_replay_in_a_larger_terminal_re_enacts_the_keys_as_recorded_and_writes_nothing_else() {
    if !have_tmux("the replay-at-another-size end-to-end test") {
        return;
    }
    let server =
        aimock(&fixtures(vec![reply_fixture("fix-tui", REPLY, serde_json::json!({}))]), &[]);
    let scratch = tempfile::tempdir().unwrap();
    let sessions = scratch.path().join("sessions");
    let dir = scratch.path().join("one");
    scratch_project(&dir);
    let tmux = Tmux::start("session-resized", 80, 24);
    let command = format!(
        "cd {} && XDG_CONFIG_HOME={} REDLINE_SESSION_DIR={} REDLINE_CONFIG={} OPENAI_API_KEY={SECRET} NO_PROXY=127.0.0.1 TERM=xterm-256color {} --provider openai --base-url {}/v1 --model mock -m 'please fix-tui' app.py; echo EXIT=$?",
        dir.join("project").display(),
        dir.join("xdg").display(),
        sessions.display(),
        dir.join("none.toml").display(),
        env!("CARGO_BIN_EXE_redline"),
        server.url(),
    );
    tmux.run(&command);
    tmux.wait_for("the stream to finish", "✓ openai · mock");
    // At 80x24 the help does not fit: `j` scrolls it and `y` only closes it. At 160x45 it
    // fits, `j` would close it and `y` accept a hunk.
    tmux.keys("?");
    tmux.wait_for("the help, scrolling", "↑↓ scroll, any other key closes");
    tmux.keys("j");
    tmux.wait_for("the help scrolled", " keys 2-");
    tmux.keys("y");
    tmux.keys("q");
    tmux.wait_for("the quit question", "Quit anyway?");
    tmux.keys("y");
    let screen = tmux.wait_for("redline to exit", "EXIT=0");
    assert!(screen.contains("0 applied, 0 rejected, 2 left undecided"), "{screen}");
    tmux.run("clear");

    tmux.cmd(&["resize-window", "-t", "e2e", "-x", "160", "-y", "45"]);
    let command = format!(
        "cd {} && XDG_CONFIG_HOME={} REDLINE_SESSION_DIR={} TERM=xterm-256color {} replay last --instant --root {}; echo EXIT=$?",
        dir.display(),
        dir.join("xdg").display(),
        sessions.display(),
        env!("CARGO_BIN_EXE_redline"),
        dir.join("project").display(),
    );
    tmux.run(&command);
    let screen = tmux.wait_for("the replay's end", "REPLAY instant");
    std::thread::sleep(Duration::from_millis(500));
    let screen = [screen, tmux.screen()].concat();
    assert!(!screen.contains("applied  #"), "the replay accepted a hunk: {screen}");
    tmux.keys("q");
    tmux.wait_for("the quit question", "Quit anyway?");
    tmux.keys("y");
    let screen = tmux.wait_for("the replay to exit", "EXIT=0");
    assert!(screen.contains("2 left undecided"), "{screen}");
    let app = std::fs::read_to_string(dir.join("project/app.py")).unwrap();
    assert_eq!(app, APP_PY, "the replay wrote what the recording never did");

    // The replay's own journal re-enacts the keys at the size they were re-enacted at.
    tmux.run("clear");
    let newest = journals(&sessions)
        .into_iter()
        .max_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
        .expect("the replay's journal");
    let command = format!(
        "cd {} && XDG_CONFIG_HOME={} REDLINE_SESSION_DIR={} TERM=xterm-256color {} replay {} --instant --root {}; echo EXIT=$?",
        dir.display(),
        dir.join("xdg").display(),
        sessions.display(),
        env!("CARGO_BIN_EXE_redline"),
        newest.display(),
        dir.join("project").display(),
    );
    tmux.run(&command);
    tmux.wait_for("the replay's end", "REPLAY instant");
    std::thread::sleep(Duration::from_millis(500));
    tmux.keys("q");
    tmux.wait_for("the quit question", "Quit anyway?");
    tmux.keys("y");
    tmux.wait_for("the replay to exit", "EXIT=0");
    let app = std::fs::read_to_string(dir.join("project/app.py")).unwrap();
    assert_eq!(app, APP_PY, "the replay of a replay wrote what no recording did");
}
