//! End to end: stop signals sent to the review screen give the terminal back. For each of
//! SIGTERM, SIGHUP, SIGINT and SIGQUIT, a run of `redline demo` (slowed down, so the stream is
//! still going) in tmux gets `kill -SIG pid`; then, in the same pane, `stty -a` must show the
//! terminal cooked again (`icanon`, `echo`, `isig` on), tmux must say the alternate screen is
//! off, the exit status must be 128 + the signal's number, and the session's journal must end
//! with its `end` record (the review wound down instead of dying).
//!
//! Before the fix each signal killed the process where it stood: `-icanon -echo -isig`, the
//! alternate screen still on, no `end` record.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

mod tmux_support;
use tmux_support::{Tmux, have_tmux};

/// Wait until `path` holds a process id.
fn read_pid(path: &Path) -> u32 {
    let start = Instant::now();
    loop {
        if let Some(pid) =
            std::fs::read_to_string(path).ok().and_then(|s| s.trim().parse::<u32>().ok())
        {
            return pid;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "no pid in {}", path.display());
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The last record of the one journal in `dir`.
fn last_record(dir: &Path) -> serde_json::Value {
    let entries: Vec<_> = std::fs::read_dir(dir).expect("the sessions folder").flatten().collect();
    assert_eq!(entries.len(), 1, "one journal in {}", dir.display());
    let text = std::fs::read_to_string(entries[0].path()).expect("read the journal");
    let last = text.lines().last().expect("a record");
    serde_json::from_str(last).expect("a JSON record")
}

fn stop_with(signal: &str, number: i32) {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("project");
    let sessions = scratch.path().join("sessions");
    let pid_file = scratch.path().join("pid");
    let tmux = Tmux::start(&format!("sig-{signal}"), 200, 40);
    // `exec` keeps the pid the shell wrote; a slow speed keeps the stream going.
    let command = format!(
        "sh -c 'echo $$ > {pid}; exec env XDG_CONFIG_HOME={config} REDLINE_SESSION_DIR={sessions} TERM=xterm-256color {bin} demo {dir} --speed 0.05'; echo EXIT\"\"=$?",
        pid = pid_file.display(),
        config = scratch.path().join("config").display(),
        sessions = sessions.display(),
        bin = env!("CARGO_BIN_EXE_redline"),
        dir = dir.display(),
    );
    tmux.run(&command);
    let pid = read_pid(&pid_file);
    tmux.wait_for("the review screen", "┌ hunks");
    let alternate = tmux.cmd(&["display-message", "-p", "-t", "e2e", "#{alternate_on}"]);
    assert_eq!(alternate.trim(), "1", "{signal}: the review runs in the alternate screen");

    let killed = Command::new("kill").arg(format!("-{signal}")).arg(pid.to_string()).status();
    assert!(killed.is_ok_and(|s| s.success()), "kill -{signal} {pid}");
    let screen = tmux.wait_for("redline to exit", "EXIT=");
    assert!(screen.contains(&format!("EXIT={}", 128 + number)), "{signal}:\n{screen}");
    assert!(screen.contains(&format!("stopped by SIG{signal}")), "{signal}:\n{screen}");

    let alternate = tmux.cmd(&["display-message", "-p", "-t", "e2e", "#{alternate_on}"]);
    assert_eq!(alternate.trim(), "0", "{signal}: the alternate screen is left");
    tmux.run("clear");
    // The quotes keep the command line itself from showing `MODES:`.
    tmux.run(
        "echo MODES\"\": $(stty -a | tr ' ;' '\\n\\n' | grep -x -e -icanon -e icanon -e -echo -e echo -e -isig -e isig)",
    );
    let screen = tmux.wait_for("stty's answer", "MODES: ");
    let line = screen.lines().find(|l| l.contains("MODES: ") && !l.contains("stty"));
    let modes = line.and_then(|l| l.split_once("MODES: ")).map_or("", |(_, m)| m);
    let modes: Vec<&str> = modes.split_whitespace().collect();
    for mode in ["icanon", "echo", "isig"] {
        assert!(modes.contains(&mode), "{signal}: `{mode}` is back on: {modes:?}\n{screen}");
    }
    let end = last_record(&sessions);
    assert_eq!(end["kind"], "end", "{signal}: the journal ends with its end record: {end}");
}

#[test]
fn sigterm_restores_the_terminal() {
    if have_tmux("the SIGTERM test") {
        stop_with("TERM", 15);
    }
}

#[test]
fn sighup_restores_the_terminal() {
    if have_tmux("the SIGHUP test") {
        stop_with("HUP", 1);
    }
}

#[test]
fn sigint_restores_the_terminal() {
    if have_tmux("the SIGINT test") {
        stop_with("INT", 2);
    }
}

#[test]
fn sigquit_restores_the_terminal() {
    if have_tmux("the SIGQUIT test") {
        stop_with("QUIT", 3);
    }
}

/// Wait until `path` holds a number (an exit status written by the wrapper shell).
fn read_status(path: &Path) -> i32 {
    let start = Instant::now();
    loop {
        if let Some(n) = std::fs::read_to_string(path).ok().and_then(|s| s.trim().parse().ok()) {
            return n;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "no status in {}", path.display());
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The terminal itself goes away (its window closed, the ssh link dropped: `tmux kill-session`
/// closes the pane's terminal), which is how SIGHUP usually comes. Writing to the closed
/// terminal fails then, and before the fix the cursor ratatui could not show was reported with
/// `eprintln!`, which panicked, and the panic in the panic hook aborted: no `end` record, exit
/// by SIGABRT. Now: the journal's `end` record and 128 + 1.
#[test]
fn closing_the_terminal_closes_the_journal_and_exits_129() {
    if !have_tmux("the closed-terminal test") {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("project");
    let sessions = scratch.path().join("sessions");
    let status = scratch.path().join("status");
    let tmux = Tmux::start("hup-close", 80, 24);
    // The wrapper ignores SIGHUP so that it outlives the terminal and writes redline's status.
    let command = format!(
        "sh -c 'trap \"\" HUP; env XDG_CONFIG_HOME={config} REDLINE_SESSION_DIR={sessions} TERM=xterm-256color {bin} demo {dir} --speed 0.05; echo $? > {status}'",
        config = scratch.path().join("config").display(),
        sessions = sessions.display(),
        bin = env!("CARGO_BIN_EXE_redline"),
        dir = dir.display(),
        status = status.display(),
    );
    tmux.run(&command);
    tmux.wait_for("the review screen", "┌ hunks");
    tmux.cmd(&["kill-session", "-t", "e2e"]);
    assert_eq!(read_status(&status), 129, "redline's exit status after its terminal closed");
    let end = last_record(&sessions);
    assert_eq!(end["kind"], "end", "the journal ends with its end record: {end}");
}
