//! End to end: the real binary's review screen in tmux. `redline demo DIR --speed 20` streams
//! the bundled reply; the test accepts the first hunk, rejects the second, quits (confirming),
//! then checks the files on disk and that the terminal was given back (alternate screen off,
//! the shell's prompt and redline's summary in the pane, no frame left).
//!
//! A second run takes its keymap from the config folder (`keymap.toml`) under `NO_COLOR`, and
//! checks that the key works and that no colour reaches the terminal.
//!
//! A third reviews a real stream: `redline --provider openai ... -m PROMPT app.py` against aimock
//! on loopback (as the `provider_*` tests start it), accepts one hunk, rejects the other, and
//! quits without being asked (nothing is left undecided).
//!
//! Needs tmux (`.ci/run` installs it). Without it the test says so and checks nothing, except
//! under CI, where it fails.

use std::path::Path;
use std::time::Duration;

mod tmux_support;
use tmux_support::{Tmux, have_tmux};

#[test]
fn demo_accept_reject_quit_in_tmux() {
    if !have_tmux("the end-to-end review screen test") {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("project");
    let tmux = Tmux::start("e2e", 110, 32);
    // An empty config folder: the user's keymap.toml must not change the keys. The session is
    // journaled in the scratch folder, not the user's.
    let command = format!(
        "XDG_CONFIG_HOME={} REDLINE_SESSION_DIR={} TERM=xterm-256color {} demo {} --speed 20; echo EXIT=$?",
        scratch.path().join("config").display(),
        scratch.path().join("sessions").display(),
        env!("CARGO_BIN_EXE_redline"),
        dir.display()
    );
    tmux.run(&command);
    tmux.wait_for("the stream to finish", "4 pending 0 applied 0 rejected 1 failed");
    tmux.keys("y");
    tmux.wait_for("the first hunk to be written", "1 applied");
    tmux.keys("n");
    tmux.wait_for("the second hunk to be rejected", "1 rejected");
    tmux.keys("q");
    tmux.wait_for("the quit question", "Quit anyway?");
    tmux.keys("y");
    let screen = tmux.wait_for("redline to exit", "EXIT=0");
    assert!(screen.contains("1 applied, 1 rejected, 3 left undecided"), "{screen}");
    assert!(screen.contains("the demo project is in"), "{screen}");
    assert!(!screen.contains("┌ hunks"), "no frame is left on the shell's screen:\n{screen}");
    let alternate = tmux.cmd(&["display-message", "-p", "-t", "e2e", "#{alternate_on}"]);
    assert_eq!(alternate.trim(), "0", "the alternate screen is off");

    let read = |name: &str| std::fs::read_to_string(Path::new(&dir).join(name)).unwrap();
    let inventory = read("inventory.py");
    assert!(inventory.contains("    return sum(item.price * item.stock for item in items)\n"));
    assert!(!inventory.contains("total = 0"), "the first hunk is applied");
    assert!(!inventory.contains("ValueError"), "the second hunk is not");
    assert_eq!(read("report.py"), include_str!("../demo/project/report.py"));
}

#[test]
fn config_keymap_and_no_color() {
    if !have_tmux("the end-to-end keymap test") {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let config = scratch.path().join("config");
    std::fs::create_dir_all(config.join("redline")).unwrap();
    std::fs::write(config.join("redline/keymap.toml"), "accept = [\"enter\"]\n").unwrap();
    let dir = scratch.path().join("project");
    let tmux = Tmux::start("e2e-keys", 100, 30);
    let command = format!(
        "XDG_CONFIG_HOME={} REDLINE_SESSION_DIR={} NO_COLOR=1 COLORTERM=truecolor TERM=xterm-256color {} demo {} --speed 20; echo EXIT=$?",
        config.display(),
        scratch.path().join("sessions").display(),
        env!("CARGO_BIN_EXE_redline"),
        dir.display()
    );
    tmux.run(&command);
    tmux.wait_for("the stream to finish", "4 pending 0 applied 0 rejected 1 failed");
    tmux.keys("y");
    std::thread::sleep(Duration::from_millis(300));
    assert!(tmux.screen().contains("0 applied"), "y no longer accepts");
    tmux.cmd(&["send-keys", "-t", "e2e", "Enter"]);
    tmux.wait_for("Enter to accept", "1 applied");
    let colored = tmux.cmd(&["capture-pane", "-p", "-e", "-t", "e2e"]);
    assert!(!colored.contains("[38;") && !colored.contains("[48;"), "NO_COLOR: {colored}");
    tmux.keys("q");
    tmux.wait_for("the quit question", "Quit anyway?");
    tmux.keys("y");
    tmux.wait_for("redline to exit", "EXIT=0");
}

mod provider_support;

#[test]
fn review_a_real_stream_from_a_mock_server() {
    if !have_tmux("the end-to-end provider test") {
        return;
    }
    use provider_support::{APP_PY, REPLY, SECRET, aimock, fixtures, project, reply_fixture};
    let server =
        aimock(&fixtures(vec![reply_fixture("fix-tui", REPLY, serde_json::json!({}))]), &[]);
    let dir = project();
    let config = tempfile::tempdir().unwrap();
    let tmux = Tmux::start("e2e-provider", 110, 30);
    let command = format!(
        "cd {} && XDG_CONFIG_HOME={} REDLINE_SESSION_DIR={} OPENAI_API_KEY={SECRET} TERM=xterm-256color {} --provider openai --base-url {}/v1 --model mock -m 'please fix-tui' app.py; echo EXIT=$?",
        dir.path().display(),
        config.path().display(),
        config.path().join("sessions").display(),
        env!("CARGO_BIN_EXE_redline"),
        server.url(),
    );
    tmux.run(&command);
    let screen = tmux.wait_for("the stream to finish", "✓ openai · mock");
    assert!(screen.contains("2 pending 0 applied"), "{screen}");
    assert!(!screen.contains(SECRET), "the key never shows");
    tmux.keys("y");
    tmux.wait_for("the first hunk to be written", "1 applied");
    tmux.keys("n");
    tmux.wait_for("the second hunk to be rejected", "1 rejected");
    tmux.keys("q");
    let screen = tmux.wait_for("redline to exit without asking", "EXIT=0");
    assert!(screen.contains("1 applied, 1 rejected, 0 left undecided"), "{screen}");
    let app = std::fs::read_to_string(dir.path().join("app.py")).unwrap();
    assert_eq!(app, APP_PY.replace("items[len(items)]", "items[-1]"));
}

/// A reply that changes a 230-column line at column ~180: at 160 columns the change shows on a
/// continuation row of the wrapped line, with no key pressed.
#[test]
fn a_change_at_column_180_shows_at_160_columns() {
    if !have_tmux("the end-to-end long line test") {
        return;
    }
    use provider_support::{SECRET, aimock, fixtures, reply_fixture};
    let pad = "x".repeat(160);
    let old = format!("    message = \"{pad} the quick brown fox jumps over the lazy dog\"");
    let new = old.replace("lazy dog", "sleepy cat");
    assert!(old.find("lazy").unwrap() > 175, "the change is past column 175");
    let reply = format!(
        "Changed it.\n\nlong.py\n```python\n<<<<<<< SEARCH\n{old}\n=======\n{new}\n>>>>>>> REPLACE\n```\n"
    );
    let server =
        aimock(&fixtures(vec![reply_fixture("long-line", &reply, serde_json::json!({}))]), &[]);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("long.py"),
        format!("def greet():\n{old}\n    return message\n"),
    )
    .unwrap();
    let config = tempfile::tempdir().unwrap();
    let tmux = Tmux::start("e2e-long", 160, 45);
    let command = format!(
        "cd {} && XDG_CONFIG_HOME={} REDLINE_SESSION_DIR={} OPENAI_API_KEY={SECRET} TERM=xterm-256color {} --provider openai --base-url {}/v1 --model mock -m 'please long-line' long.py; echo EXIT=$?",
        dir.path().display(),
        config.path().display(),
        config.path().join("sessions").display(),
        env!("CARGO_BIN_EXE_redline"),
        server.url(),
    );
    tmux.run(&command);
    tmux.wait_for("the stream to finish", "✓ openai · mock");
    // The diff pane's rows: from its title to its bottom border (the reply pane is below).
    let diff_of = |screen: &str| -> String {
        let rows: Vec<&str> = screen
            .lines()
            .skip_while(|l| !l.contains("long.py ·"))
            .take_while(|l| !l.contains('┘'))
            .collect();
        rows.join("\n")
    };
    // The hunk is placed off the UI task: its diff may come a frame after the stream's end.
    let start = std::time::Instant::now();
    let (screen, diff) = loop {
        let screen = tmux.screen();
        let diff = diff_of(&screen);
        if diff.contains("sleepy cat") || start.elapsed() > std::time::Duration::from_secs(30) {
            break (screen, diff);
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert!(diff.contains("sleepy cat"), "the change shows without a key:\n{screen}");
    assert!(diff.contains("lazy dog"), "and what it replaces:\n{screen}");
    assert!(diff.contains("↪"), "on a continuation row:\n{screen}");
    tmux.keys("q");
    tmux.wait_for("the quit question", "Quit anyway?");
    tmux.keys("y");
    tmux.wait_for("redline to exit", "EXIT=0");
}

/// A terminal resized while the review runs (tmux's `resize-window`, larger then smaller):
/// leaving the alternate screen, tmux shows the review's last frame on the main screen, and the
/// summary printed after it ran into that frame's text (`5 left undecided(s) still
/// undecided.`). Below the cursor is cleared on the way out.
#[test]
fn a_terminal_resized_during_the_review_is_left_without_its_frame() {
    if !have_tmux("the end-to-end review screen test") {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("project");
    let tmux = Tmux::start("e2e-resize", 80, 24);
    let command = format!(
        "XDG_CONFIG_HOME={} REDLINE_SESSION_DIR={} TERM=xterm-256color {} demo {} --speed 20; echo EXIT=$?",
        scratch.path().join("config").display(),
        scratch.path().join("sessions").display(),
        env!("CARGO_BIN_EXE_redline"),
        dir.display()
    );
    tmux.run(&command);
    tmux.wait_for("the stream to finish", "4 pending 0 applied 0 rejected 1 failed");
    for (w, h) in [("160", "45"), ("100", "30")] {
        tmux.cmd(&["resize-window", "-t", "e2e", "-x", w, "-y", h]);
        std::thread::sleep(Duration::from_millis(400));
        tmux.wait_for("the frame at the new size", "4 pending 0 applied 0 rejected 1 failed");
    }
    tmux.keys("q");
    tmux.wait_for("the quit question", "Quit anyway?");
    tmux.keys("y");
    let screen = tmux.wait_for("redline to exit", "EXIT=0");
    assert!(screen.contains("0 applied, 0 rejected, 5 left undecided"), "{screen}");
    // What tmux leaves above the cursor is the main screen's (the shell's lines, not ours to
    // clear); from the cursor down it is cleared, so the summary's lines are whole.
    let summary: Vec<&str> = screen.lines().filter(|l| l.starts_with("redline:")).collect();
    assert_eq!(summary.len(), 4, "{screen}");
    for line in summary {
        assert!(
            !line.contains(['┌', '│', '└', '─']),
            "a summary line runs into a frame:\n{screen}"
        );
    }
}
