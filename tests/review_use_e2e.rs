//! End to end, as a user works: the real binary's review screen in tmux.
//!
//! - the server is down: the request is shown failed with its whole error, and once the server
//!   is up `r` sends it again and the edits arrive (aimock on loopback, started by the test);
//! - at 80x24 the status line keeps the counts and `? help`;
//! - `u` after `A` takes the whole batch back out of the files;
//! - keys read together with `e` are dropped when the editor is back, and a paste decides
//!   nothing;
//! - Ctrl-Z suspends to the shell and `fg` draws the review whole again;
//! - quitting with undecided hunks, then `redline resume`, shows them pending again;
//! - a session killed while hunks were placing, or while a write was under way, resumes, and
//!   its journal replays to the same end; one whose reply was cut resumes to ask for the rest
//!   even with every hunk so far decided.
//!
//! Needs tmux (and Node.js for aimock); without tmux it checks nothing and says so, except
//! under CI.

use std::path::Path;

mod tmux_support;
use tmux_support::{Tmux, have_tmux};

mod provider_support;

const DEMO_DONE: &str = "4 pending 0 applied 0 rejected 1 failed";

/// `redline demo DIR --speed 20` in a `width`x`height` pane, journaled in `scratch`.
fn demo(name: &str, scratch: &Path, width: u16, height: u16) -> Tmux {
    demo_with(name, scratch, width, height, "")
}

/// [`demo`] with more of the environment (`env`: `NAME=value ` words).
fn demo_with(name: &str, scratch: &Path, width: u16, height: u16, env: &str) -> Tmux {
    let tmux = Tmux::start(name, width, height);
    tmux.run(&format!(
        "{env}XDG_CONFIG_HOME={} REDLINE_SESSION_DIR={} TERM=xterm-256color {} demo {} --speed 20; echo EXIT=$?",
        scratch.join("config").display(),
        scratch.join("sessions").display(),
        env!("CARGO_BIN_EXE_redline"),
        scratch.join("project").display()
    ));
    tmux.wait_for("the stream to finish", DEMO_DONE);
    tmux
}

#[test]
fn a_failed_request_is_shown_failed_and_r_retries_it_once_the_server_is_up() {
    if !have_tmux("the failed request test") {
        return;
    }
    use provider_support::{APP_PY, REPLY, SECRET, aimock_on, fixtures, free_port, project};
    let port = free_port();
    let dir = project();
    let config = tempfile::tempdir().unwrap();
    let tmux = Tmux::start("e2e-down", 100, 30);
    tmux.run(&format!(
        "cd {} && XDG_CONFIG_HOME={} REDLINE_SESSION_DIR={} OPENAI_API_KEY={SECRET} TERM=xterm-256color {} --provider openai --base-url http://127.0.0.1:{port}/v1 --model mock --timeout 5 -m 'please fix-tui' app.py; echo EXIT=$?",
        dir.path().display(),
        config.path().display(),
        config.path().join("sessions").display(),
        env!("CARGO_BIN_EXE_redline"),
    ));
    let screen = tmux.wait_for("the request to fail", "✗ request failed");
    assert!(!screen.contains('✓'), "a failed request is not shown as done:\n{screen}");
    assert!(screen.contains("request failed:"), "the message says why:\n{screen}");
    let fixture = provider_support::reply_fixture("fix-tui", REPLY, serde_json::json!({}));
    let _server = aimock_on(&fixtures(vec![fixture]), &[], port);
    tmux.keys("r");
    let screen = tmux.wait_for("the request sent again", "2 pending 0 applied");
    assert!(screen.contains("✓ openai · mock"), "{screen}");
    tmux.keys("A");
    tmux.wait_for("both hunks written", "0 pending 2 applied");
    tmux.keys("q");
    tmux.wait_for("redline to exit", "EXIT=0");
    let app = std::fs::read_to_string(dir.path().join("app.py")).unwrap();
    assert_ne!(app, APP_PY, "the retried request's edits were written");
}

#[test]
fn at_80x24_the_counts_and_help_stay_on_the_status_line() {
    if !have_tmux("the 80x24 status line test") {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let tmux = demo("e2e-narrow", scratch.path(), 80, 24);
    tmux.keys("s");
    let screen = tmux.screen();
    let status = screen.lines().rfind(|l| !l.trim().is_empty()).unwrap_or_default();
    assert!(status.contains(DEMO_DONE), "the counts on the status line: {status:?}\n{screen}");
    assert!(status.contains("? help"), "`? help` on the status line: {status:?}\n{screen}");
    assert!(screen.contains(" j next "), "the hint bar:\n{screen}");
    quit_anyway(&tmux);
}

#[test]
fn u_after_accept_all_takes_the_whole_batch_back() {
    if !have_tmux("the batch undo test") {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let tmux = demo("e2e-batch", scratch.path(), 110, 32);
    let read = |name: &str| std::fs::read_to_string(scratch.path().join("project").join(name));
    let before = (read("inventory.py").unwrap(), read("report.py").unwrap());
    tmux.keys("A");
    tmux.wait_for("every hunk written", "0 pending 4 applied");
    assert_ne!(read("inventory.py").unwrap(), before.0);
    tmux.keys("u");
    tmux.wait_for("the batch undone", DEMO_DONE);
    assert_eq!((read("inventory.py").unwrap(), read("report.py").unwrap()), before);
    quit_anyway(&tmux);
}

/// Keys that reach the review together with `e` (typed fast, or coalesced over ssh: `e` then
/// vi's `A`) are not commands once the editor is back; a paste is never keys, in the review or
/// before it.
#[test]
fn keys_read_with_e_and_a_paste_decide_nothing() {
    if !have_tmux("the keys-with-e test") {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let tmux = demo_with("e2e-burst", scratch.path(), 110, 32, "EDITOR=true ");
    let read = |name: &str| std::fs::read_to_string(scratch.path().join("project").join(name));
    let before = (read("inventory.py").unwrap(), read("report.py").unwrap());
    // One write to the terminal: both keys arrive in one read.
    tmux.cmd(&["send-keys", "-t", "e2e", "e", "A"]);
    tmux.wait_for("the editor's return", "editor");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let screen = tmux.screen();
    assert!(screen.contains(DEMO_DONE), "`A` read with `e` accepted nothing:\n{screen}");
    // A pasted text whose letters are review keys: `A` accepts all, `q` and `y` quit.
    tmux.cmd(&["set-buffer", "Traceback: yes, Accept All\nq\ny\n"]);
    tmux.cmd(&["paste-buffer", "-p", "-t", "e2e"]);
    let screen = tmux.wait_for("the paste's notice", "not taken as keys");
    assert!(screen.contains(DEMO_DONE), "the paste decided nothing:\n{screen}");
    assert_eq!((read("inventory.py").unwrap(), read("report.py").unwrap()), before);
    quit_anyway(&tmux);
}

/// Ctrl-Z gives the terminal back to the shell and stops (job control); `fg` takes the screen
/// again and draws it whole, and the review goes on.
#[test]
fn ctrl_z_suspends_and_fg_draws_the_review_again() {
    if !have_tmux("the ctrl-z test") {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let tmux = demo("e2e-suspend", scratch.path(), 110, 32);
    tmux.keys("C-z");
    let screen = tmux.wait_for("the shell's prompt", "Stopped");
    assert!(!screen.contains(DEMO_DONE), "the review's screen is left:\n{screen}");
    tmux.run("clear; fg");
    let screen = tmux.wait_for("the review drawn again", DEMO_DONE);
    assert!(screen.contains("? help"), "the whole screen:\n{screen}");
    // (A stopped job's `; echo EXIT=$?` is dropped by the shell: its end is the summary.)
    tmux.keys("q");
    tmux.wait_for("the quit question", "Quit anyway?");
    tmux.keys("y");
    tmux.wait_for("redline to end", "left undecided");
}

/// Ctrl-Z inside the editor stops the editor and the review with it (the shell's prompt comes
/// back, not a terminal that waits for ever); `fg` continues both, and the edit is taken.
#[test]
fn an_editor_stopped_with_ctrl_z_stops_the_review_and_fg_goes_on() {
    if !have_tmux("the stopped-editor test") {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    // An "editor" that takes its time, then edits: the Ctrl-Z typed meanwhile reaches it and
    // the review alike (one foreground process group), as it does with vi.
    let editor = scratch.path().join("slow-editor");
    std::fs::write(&editor, "#!/bin/sh\nsleep 3\nprintf '# edited after fg\\n' >> \"$1\"\n")
        .unwrap();
    std::fs::set_permissions(&editor, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let env = format!("EDITOR={} ", editor.display());
    let tmux = demo_with("e2e-stopped-editor", scratch.path(), 110, 32, &env);
    tmux.keys("e");
    std::thread::sleep(std::time::Duration::from_millis(800));
    tmux.keys("C-z");
    tmux.wait_for("the shell's prompt", "Stopped");
    tmux.run("clear; fg");
    // Once the editor is done the review goes on: not stopped a second time by the same Ctrl-Z.
    let screen = tmux.wait_for("the edit accepted", "1 applied");
    assert!(!screen.contains("Stopped"), "{screen}");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let screen = tmux.screen();
    assert!(screen.contains("1 applied") && !screen.contains("Stopped"), "{screen}");
    let read = |name: &str| std::fs::read_to_string(scratch.path().join("project").join(name));
    let edited = [read("inventory.py").unwrap(), read("report.py").unwrap()];
    assert!(edited.iter().any(|t| t.contains("# edited after fg")), "{edited:?}");
    // (A job stopped once loses its `; echo EXIT=$?`: its end is the summary.)
    tmux.keys("q");
    tmux.wait_for("the quit question", "Quit anyway?");
    tmux.keys("y");
    tmux.wait_for("redline to end", "left undecided");
}

#[test]
fn undecided_hunks_come_back_pending_with_redline_resume() {
    if !have_tmux("the resume test") {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let tmux = demo("e2e-resume", scratch.path(), 110, 32);
    tmux.keys("y");
    tmux.wait_for("the first hunk written", "3 pending 1 applied");
    tmux.keys("q");
    let screen = tmux.wait_for("the quit question", "Quit anyway?");
    assert!(screen.contains("redline resume"), "the question offers to keep them:\n{screen}");
    tmux.keys("y");
    let screen = tmux.wait_for("redline to exit", "EXIT=0");
    assert!(screen.contains("`redline resume "), "the way back is printed:\n{screen}");
    tmux.run("clear");
    tmux.run(&format!(
        "XDG_CONFIG_HOME={} REDLINE_SESSION_DIR={} TERM=xterm-256color {} resume; echo EXIT=$?",
        scratch.path().join("config").display(),
        scratch.path().join("sessions").display(),
        env!("CARGO_BIN_EXE_redline"),
    ));
    let screen = tmux.wait_for("the resumed review", "3 pending 1 applied");
    assert!(screen.contains("resumed session"), "{screen}");
    tmux.keys("y");
    tmux.wait_for("a decision after resuming", "2 pending 2 applied");
    quit_anyway(&tmux);
    let inventory = std::fs::read_to_string(scratch.path().join("project/inventory.py")).unwrap();
    assert!(inventory.contains("raise ValueError"), "the resumed decision was written");
}

/// `q`, `y` to the quit question, and redline's exit.
fn quit_anyway(tmux: &Tmux) {
    tmux.keys("q");
    tmux.wait_for("the quit question", "Quit anyway?");
    tmux.keys("y");
    tmux.wait_for("redline to exit", "EXIT=0");
}

/// What a kill leaves of the demo's journal in `scratch`: its text up to where `cut` says.
fn cut_journal(scratch: &Path, cut: impl FnOnce(&str) -> usize) {
    let sessions = scratch.join("sessions");
    let journal = std::fs::read_dir(&sessions).unwrap().next().unwrap().unwrap().path();
    let text = std::fs::read_to_string(&journal).unwrap();
    let at = cut(&text);
    std::fs::write(&journal, &text[..at]).unwrap();
}

/// The environment and binary the demo in `scratch` ran with, to run another command.
fn redline_in(scratch: &Path) -> String {
    format!(
        "XDG_CONFIG_HOME={} REDLINE_SESSION_DIR={} TERM=xterm-256color {}",
        scratch.join("config").display(),
        scratch.join("sessions").display(),
        env!("CARGO_BIN_EXE_redline"),
    )
}

/// `redline replay --headless --check last` on the sessions in `scratch`: its exit status and
/// its report.
fn check_last(tmux: &Tmux, scratch: &Path) -> (String, String) {
    let out = scratch.display();
    tmux.run("clear");
    // (The marker is quoted apart so that the command line itself does not show it.)
    tmux.run(&format!(
        "{} replay --headless --check last > {out}/check.json; echo $? > {out}/status; echo CHECK''ED",
        redline_in(scratch)
    ));
    tmux.wait_for("the check", "CHECKED");
    let report = std::fs::read_to_string(scratch.join("check.json")).unwrap();
    let status = std::fs::read_to_string(scratch.join("status")).unwrap();
    (status.trim().to_string(), report)
}

/// A session killed while hunks were still placing (its journal ends before their placing came
/// back) is resumed: the resumed session places them, journals it, and the whole journal then
/// replays to the same end.
#[test]
fn a_session_killed_while_hunks_were_placing_resumes_and_replays() {
    if !have_tmux("the resume-while-placing test") {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let tmux = demo("e2e-resume-placing", scratch.path(), 110, 32);
    quit_anyway(&tmux);
    // Up to the third placing's outcome: the two hunks in inventory.py are journaled, the
    // first in report.py is not.
    cut_journal(scratch.path(), |text| {
        let placed: Vec<usize> =
            text.match_indices("{\"kind\":\"placed\"").map(|(i, _)| i).collect();
        assert!(placed.len() > 2, "the demo journals its placings:\n{text}");
        placed[2]
    });
    tmux.run("clear");
    tmux.run(&format!("{} resume; echo EXIT=$?", redline_in(scratch.path())));
    let screen = tmux.wait_for("the resumed review", "3 pending 0 applied");
    assert!(screen.contains("the session ended before the reply did"), "{screen}");
    // The first hunk accepted (its file is not report.py); the others are left undecided.
    tmux.keys("y");
    tmux.wait_for("the first hunk accepted", "2 pending 1 applied");
    quit_anyway(&tmux);
    let (status, report) = check_last(&tmux, scratch.path());
    assert_eq!(status, "0", "the resumed journal replays:\n{report}");
    assert!(report.contains("\"reproduced\": true"), "{report}");
    assert!(report.contains("\"accepted\": 1"), "the decision is in the journal:\n{report}");
    assert!(report.contains("\"pending\": 2"), "the hunk placed on resuming is:\n{report}");
}

/// A session killed while an accepted hunk was being written (its journal ends before the
/// write's outcome) is resumed, whether the write landed before the kill or not: the hunk is
/// applied once, its text is in the file once, and the whole journal replays to the same end.
#[test]
fn a_session_killed_while_a_write_was_under_way_resumes_and_replays() {
    if !have_tmux("the resume-while-writing test") {
        return;
    }
    for landed in [true, false] {
        let scratch = tempfile::tempdir().unwrap();
        let name = format!("e2e-resume-writing-{landed}");
        let tmux = demo(&name, scratch.path(), 110, 32);
        let file = scratch.path().join("project/inventory.py");
        let before = std::fs::read_to_string(&file).unwrap();
        tmux.keys("y");
        tmux.wait_for("the first hunk written", "3 pending 1 applied");
        quit_anyway(&tmux);
        let written = std::fs::read_to_string(&file).unwrap();
        assert_ne!(written, before);
        // Up to the write's outcome; the file as written, or as it was when the write had not
        // landed yet.
        // (On a loaded machine the write may be journaled after the `q` that followed it: the
        // cut also drops that key, which a resume would replay.)
        cut_journal(scratch.path(), |text| {
            let write = text.find("{\"kind\":\"write\"").expect("journaled");
            let decision = text.find("{\"kind\":\"decision\"").expect("journaled");
            let quit = text[decision..].find("{\"kind\":\"key\"").map(|k| decision + k);
            quit.map_or(write, |q| q.min(write))
        });
        if !landed {
            std::fs::write(&file, &before).unwrap();
        }
        tmux.run("clear");
        tmux.run(&format!("{} resume; echo EXIT=$?", redline_in(scratch.path())));
        tmux.wait_for("the resumed review", "3 pending 1 applied");
        quit_anyway(&tmux);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), written, "landed: {landed}");
        let (status, report) = check_last(&tmux, scratch.path());
        assert_eq!(status, "0", "landed: {landed}; the resumed journal replays:\n{report}");
        assert!(report.contains("\"accepted\": 1"), "{report}");
    }
}

/// A session whose reply never ended (killed, or quit while the model wrote) is resumed even
/// when every hunk that came was decided: the rest of the reply is not lost without a word, `r`
/// asks for it (ux24 B3: "has no undecided hunks", and nothing more).
#[test]
fn a_session_cut_mid_reply_resumes_though_every_hunk_is_decided() {
    if !have_tmux("the resume-a-cut-reply test") {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let tmux = demo("e2e-resume-cut", scratch.path(), 110, 32);
    tmux.keys("A");
    tmux.wait_for("every hunk written", "0 pending 4 applied");
    // (The failed hunk is the fourth of five.)
    for key in ["g", "j", "j", "j", "n"] {
        tmux.keys(key);
    }
    tmux.wait_for("the failed hunk rejected", "1 rejected 0 failed");
    tmux.keys("q");
    tmux.wait_for("redline to exit", "EXIT=0");
    // The journal as a kill during the stream leaves it: the reply's end never came.
    let sessions = scratch.path().join("sessions");
    let journal = std::fs::read_dir(&sessions).unwrap().next().unwrap().unwrap().path();
    let text = std::fs::read_to_string(&journal).unwrap();
    let kept: String = text
        .lines()
        .filter(|l| {
            !l.starts_with("{\"kind\":\"stream_end\"") && !l.starts_with("{\"kind\":\"end\"")
        })
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(kept, text, "the demo's reply ended:\n{text}");
    std::fs::write(&journal, kept).unwrap();
    tmux.run("clear");
    tmux.run(&format!("{} resume; echo EXIT=$?", redline_in(scratch.path())));
    let screen = tmux.wait_for("the resumed review", "the session ended before the reply did");
    assert!(screen.contains("0 pending 4 applied"), "{screen}");
    tmux.keys("q");
    tmux.wait_for("redline to exit", "EXIT=0");
}
