//! End to end: files that change under an open review, on the real binary in tmux, against a
//! mock model server on loopback.
//!
//! Another process (this test) inserts lines above a pending hunk: accepting it writes it at
//! the shifted place and keeps the inserted lines. Then it changes the next hunk's own old
//! text: the hunk becomes a conflict, accepting it is refused, and that text stays intact.
//! Then the file is deleted: nothing is recreated.
//!
//! Watch mode: `redline watch DIR`; saving `# AI! add a docstring` in a file starts a request,
//! its edit comes up for review (a trigger in a `.gitignore`d file asks nothing), and accepting
//! it writes the edit and takes the comment out.
//!
//! Needs tmux (`.ci/run` installs it); without it the test checks nothing, except under CI.

mod provider_support;
mod tmux_support;

use std::path::Path;
use std::time::{Duration, Instant};

use provider_support::{APP_PY, REPLY, SECRET, aimock, fixtures, project, reply_fixture};
use tmux_support::{Tmux, have_tmux};

/// Wait until the file holds what `ok` accepts (the write happens after the screen says so).
fn wait_file(path: &Path, what: &str, ok: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if ok(&text) {
            return text;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "timed out waiting for {what}: {text}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Run `redline ARGS` in the pane from `cwd`, against the mock server at `server`, with a config
/// and a sessions folder of its own under `config`; the shell prints `EXIT=` when it ends.
fn run_redline(tmux: &Tmux, cwd: &Path, config: &Path, server: &str, args: &str) {
    tmux.run(&format!(
        "cd {} && XDG_CONFIG_HOME={} REDLINE_SESSION_DIR={} OPENAI_API_KEY={SECRET} TERM=xterm-256color {} {args} --provider openai --base-url {server}/v1 --model mock; echo EXIT=$?",
        cwd.display(),
        config.display(),
        config.join("sessions").display(),
        env!("CARGO_BIN_EXE_redline"),
    ));
}

#[test]
fn edits_made_by_others_during_a_review_are_kept() {
    if !have_tmux("the end-to-end watch test") {
        return;
    }
    let server =
        aimock(&fixtures(vec![reply_fixture("watch-e2e", REPLY, serde_json::json!({}))]), &[]);
    let dir = project();
    let app_py = dir.path().join("app.py");
    let config = tempfile::tempdir().unwrap();
    let tmux = Tmux::start("e2e-watch", 120, 34);
    run_redline(&tmux, dir.path(), config.path(), &server.url(), "-m 'please watch-e2e' app.py");
    tmux.wait_for("the stream to finish", "2 pending 0 applied");
    // The first hunk (`last`) is selected, at lines 5-6.
    tmux.wait_for("the first hunk at its place", "lines 5-6");

    let inserted = "import sys\n\n# Added by another program while the review is open.\n\n";
    std::fs::write(&app_py, format!("{inserted}{APP_PY}")).unwrap();
    tmux.wait_for("the hunk to move with the inserted lines", "lines 9-10");
    tmux.keys("y");
    tmux.wait_for("the hunk to be written", "1 applied");
    let text = wait_file(&app_py, "the accepted hunk", |t| t.contains("items[-1]"));
    assert_eq!(text, format!("{inserted}{}", APP_PY.replace("items[len(items)]", "items[-1]")));

    // Now the greeting hunk is selected; another program rewrites the line it changes.
    let theirs = text.replace("return \"Hello \" + name", "return \"Hi there, \" + name + \"!\"");
    std::fs::write(&app_py, &theirs).unwrap();
    let screen = tmux.wait_for("the hunk to become a conflict", "1 conflict");
    assert!(screen.contains("what the model saw"), "the conflict is shown three ways:\n{screen}");
    assert!(screen.contains("on disk now"), "{screen}");
    tmux.keys("y");
    tmux.wait_for("accepting to be refused", "not applied");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(std::fs::read_to_string(&app_py).unwrap(), theirs, "their text stays intact");

    // The file is deleted: the conflict stays, nothing is recreated.
    std::fs::remove_file(&app_py).unwrap();
    tmux.wait_for("the deletion to be seen", "deleted or renamed");
    tmux.keys("y");
    std::thread::sleep(Duration::from_millis(300));
    assert!(!app_py.exists(), "a deleted file is never recreated");

    tmux.keys("q");
    tmux.wait_for("the quit question", "Quit anyway?");
    tmux.keys("y");
    let screen = tmux.wait_for("redline to exit", "EXIT=0");
    assert!(screen.contains("1 applied, 0 rejected, 1 left undecided"), "{screen}");
}

#[test]
fn watch_mode_answers_an_ai_comment_with_an_edit_for_review() {
    if !have_tmux("the end-to-end watch mode test") {
        return;
    }
    let reply = "Here is the docstring.\n\ngeometry.py\n```python\n<<<<<<< SEARCH\ndef area(r):\n    return 3.14159 * r * r\n=======\ndef area(r):\n    \"\"\"The area of a circle of radius r.\"\"\"\n    return 3.14159 * r * r\n>>>>>>> REPLACE\n```\n";
    let server = aimock(
        &fixtures(vec![reply_fixture("add a docstring", reply, serde_json::json!({}))]),
        &[],
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("geometry.py");
    let plain = "def area(r):\n    return 3.14159 * r * r\n";
    std::fs::write(&file, plain).unwrap();
    std::fs::write(dir.path().join(".gitignore"), "build/\n").unwrap();
    let config = tempfile::tempdir().unwrap();
    let tmux = Tmux::start("e2e-watchmode", 120, 34);
    run_redline(&tmux, dir.path(), config.path(), &server.url(), "watch .");
    tmux.wait_for("watch mode to start", "watching");
    // An ignored file with a trigger asks nothing.
    std::fs::create_dir(dir.path().join("build")).unwrap();
    std::fs::write(dir.path().join("build/gen.py"), "# AI! add a docstring\n").unwrap();
    std::thread::sleep(Duration::from_millis(400));
    assert!(tmux.screen().contains("0 pending"), "nothing asked for an ignored file");
    let saved = format!("# AI! add a docstring\n{plain}");
    std::fs::write(&file, &saved).unwrap();
    let screen = tmux.wait_for("the edit to come up for review", "1 pending");
    assert!(screen.contains("The area of a circle"), "the diff shows the edit:\n{screen}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), saved, "nothing written before a decision");
    tmux.keys("y");
    tmux.wait_for("the edit to be written", "1 applied");
    let text = wait_file(&file, "the edit", |t| t.contains("The area of a circle"));
    assert_eq!(
        text,
        "def area(r):\n    \"\"\"The area of a circle of radius r.\"\"\"\n    return 3.14159 * r * r\n",
        "the edit is in and the AI! comment is gone"
    );
    tmux.keys("q");
    tmux.wait_for("redline to exit", "EXIT=0");
}

fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn watch_mode_starts_nothing_from_a_git_checkout() {
    if !have_tmux("the end-to-end git checkout test") {
        return;
    }
    let reply = "geometry.py\n```python\n<<<<<<< SEARCH\ndef area(r):\n=======\ndef area(r: float) -> float:\n>>>>>>> REPLACE\n```\n";
    let server =
        aimock(&fixtures(vec![reply_fixture("type hints", reply, serde_json::json!({}))]), &[]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("geometry.py");
    let plain = "def area(r):\n    return 3.14159 * r * r\n";
    std::fs::write(&file, plain).unwrap();
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-qm", "plain"]);
    git(dir.path(), &["checkout", "-qb", "other"]);
    std::fs::write(&file, format!("# AI! add type hints\n{plain}")).unwrap();
    git(dir.path(), &["commit", "-qam", "a trigger on another branch"]);
    git(dir.path(), &["checkout", "-q", "main"]);
    let config = tempfile::tempdir().unwrap();
    let tmux = Tmux::start("e2e-gitwatch", 120, 34);
    run_redline(&tmux, dir.path(), config.path(), &server.url(), "watch .");
    tmux.wait_for("watch mode to start", "watching");
    git(dir.path(), &["checkout", "-q", "other"]);
    tmux.wait_for("the checkout to be seen as git's", "the git operation");
    std::thread::sleep(Duration::from_millis(800));
    let screen = tmux.screen();
    assert!(!screen.contains("AI! geometry.py"), "a checkout asked the model:\n{screen}");
    assert!(screen.contains("0 pending"), "{screen}");
    // A save by hand (the trigger edited) asks.
    std::fs::write(&file, format!("# AI! add type hints, please\n{plain}")).unwrap();
    tmux.wait_for("the saved trigger's edit", "1 pending");
    tmux.keys("q");
    tmux.wait_for("the quit question", "Quit anyway?");
    tmux.keys("y");
    tmux.wait_for("redline to exit", "EXIT=0");
}

/// A file the reply edits but the command line did not name is read mid-review and followed
/// from then on (the app's `Follow` effect; nothing polls); an accepted hunk taken out by
/// `git stash` is pending again, and put back by `git stash pop` is applied again (found by
/// hand in tmux: it was shown as a conflict).
#[test]
fn a_file_read_mid_review_is_followed_through_a_stash_and_its_pop() {
    if !have_tmux("the end-to-end stash test") {
        return;
    }
    let reply = "In the helper:\n\nutil.py\n```python\n<<<<<<< SEARCH\ndef clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n=======\ndef clamp(x, lo, hi):\n    \"\"\"x, kept between lo and hi.\"\"\"\n    return max(lo, min(x, hi))\n>>>>>>> REPLACE\n```\n";
    let server =
        aimock(&fixtures(vec![reply_fixture("clamp doc", reply, serde_json::json!({}))]), &[]);
    let dir = tempfile::tempdir().unwrap();
    let util = dir.path().join("util.py");
    let plain = "import math\n\n\ndef clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n";
    std::fs::write(dir.path().join("main.py"), "from util import clamp\n").unwrap();
    std::fs::write(&util, plain).unwrap();
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-qm", "start"]);
    let config = tempfile::tempdir().unwrap();
    let tmux = Tmux::start("e2e-stash", 120, 34);
    run_redline(&tmux, dir.path(), config.path(), &server.url(), "-m 'clamp doc' main.py");
    tmux.wait_for("the hunk in the file read mid-review", "1 pending 0 applied");
    // Another program inserts lines above it: followed, though the command line named main.py.
    let inserted = format!("# a header\n# another\n{plain}");
    std::fs::write(&util, &inserted).unwrap();
    tmux.wait_for("the hunk to move with the inserted lines", "lines 6-7");
    tmux.keys("y");
    tmux.wait_for("the hunk to be written", "1 applied");
    let written = wait_file(&util, "the accepted hunk", |t| t.contains("kept between"));
    git(dir.path(), &["stash", "-q"]);
    tmux.wait_for("the stash to take the hunk out", "1 pending 0 applied");
    git(dir.path(), &["stash", "pop", "-q"]);
    // Its accept stands again: applied, with nothing written.
    let screen = tmux.wait_for("the pop to bring it back applied", "0 pending 1 applied");
    assert!(!screen.contains("conflict ") || screen.contains("0 conflict"), "{screen}");
    assert_eq!(std::fs::read_to_string(&util).unwrap(), written);
    tmux.keys("q");
    let screen = tmux.wait_for("redline to exit", "EXIT=0");
    assert!(screen.contains("1 applied, 0 rejected"), "{screen}");
}
