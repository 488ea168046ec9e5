//! End to end: in watch mode, reading files starts nothing. The real binary runs
//! `redline watch --apply all` in tmux against aimock on loopback, on a git project made by the
//! test (subfolders, 150+ files, a committed file that already holds an `AI!` comment), while
//! this process does what a user does in another shell: `cat`, `grep -rn`, `git status`,
//! `git diff`. No request may reach the server, the file stays as it is, and the session journal
//! does not grow. Then a real save that brings a new `AI!` comment starts exactly one request;
//! and the follow-up box closes with Esc, Ctrl-C and an empty Enter, sending nothing.
//!
//! A second test greps a tree of 20,000 generated files: the journal does not grow and
//! redline's CPU time afterwards stays small (a bound generous enough for a slow machine, far
//! below the endless re-reading this guards against).
//!
//! Needs tmux (`.ci/run` installs it); without it the tests check nothing, except under CI.

mod provider_support;
mod tmux_support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use provider_support::{SECRET, Server, aimock, fixtures, reply_fixture};
use tmux_support::{Tmux, have_tmux};

/// The committed file whose `AI!` comment was there before watching started.
const STORE_PY: &str = "class Store:\n    def __init__(self):\n        self.tasks = {}\n\n    def remove(self, task_id):  # do not crash on unknown ids AI!\n        del self.tasks[task_id]\n";

const CLI_PY: &str = "import sys\n\n\ndef add(title):\n    return title.strip()\n";

/// The new comment a real save brings, and the model's answer to it.
const NEW_TRIGGER: &str = "def add(title):  # reject empty titles AI!\n";
const ANSWER: &str = "todo/cli.py\n```python\n<<<<<<< SEARCH\ndef add(title):\n    return title.strip()\n=======\ndef add(title):\n    if not title.strip():\n        raise ValueError(\"empty title\")\n    return title.strip()\n>>>>>>> REPLACE\n```\n";

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A shell command run as the user would in another terminal; its output.
fn shell(dir: &Path, command: &str) -> String {
    let out = Command::new("sh").args(["-c", command]).current_dir(dir).output().expect("sh runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A git project of 160+ files in subfolders, `todo/store.py` committed with its `AI!` comment,
/// and one uncommitted change (so that `git diff` has something to read).
fn todo_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary project");
    let root = dir.path();
    for sub in ["todo", "todo/models", "todo/views", "tests", "docs", "scripts"] {
        std::fs::create_dir_all(root.join(sub)).unwrap();
    }
    std::fs::write(root.join("todo/store.py"), STORE_PY).unwrap();
    std::fs::write(root.join("todo/cli.py"), CLI_PY).unwrap();
    std::fs::write(root.join("todo/__init__.py"), "").unwrap();
    std::fs::write(root.join(".gitignore"), "__pycache__/\n*.pyc\n").unwrap();
    for i in 0..40 {
        let model = format!("class Model{i}:\n    def remove(self, key):\n        return key\n");
        std::fs::write(root.join(format!("todo/models/m{i}.py")), model).unwrap();
        let view = format!("def render_{i}(items):\n    return [str(x) for x in items]\n");
        std::fs::write(root.join(format!("todo/views/v{i}.py")), view).unwrap();
        let test = format!("def test_{i}():\n    assert {i} == {i}\n");
        std::fs::write(root.join(format!("tests/test_{i}.py")), test).unwrap();
        std::fs::write(root.join(format!("docs/page{i}.md")), format!("# Page {i}\n\ntext\n"))
            .unwrap();
    }
    for i in 0..5 {
        std::fs::write(root.join(format!("scripts/s{i}.sh")), "#!/bin/sh\necho hi\n").unwrap();
    }
    git(root, &["init", "-q"]);
    git(root, &["add", "."]);
    git(root, &["commit", "-qm", "a todo app"]);
    std::fs::write(root.join("docs/page0.md"), "# Page 0\n\nchanged text\n").unwrap();
    dir
}

/// Run `redline ARGS` in the pane from `cwd`, against the mock server at `server`, with a config
/// and a sessions folder of its own under `config`; the shell prints `EXIT=` when it ends.
fn run_redline(tmux: &Tmux, cwd: &Path, config: &Path, server: &str, args: &str) {
    tmux.run(&format!(
        "cd {} && XDG_CONFIG_HOME={} REDLINE_SESSION_DIR={} OPENAI_API_KEY={SECRET} TERM=xterm-256color exec {} {args} --provider openai --base-url {server}/v1 --model mock",
        cwd.display(),
        config.display(),
        config.join("sessions").display(),
        env!("CARGO_BIN_EXE_redline"),
    ));
}

/// How many chat requests reached aimock (its request journal).
fn requests(server: &Server) -> usize {
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).expect("connect to aimock");
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    // HTTP/1.0: a plain body, closed at its end.
    stream
        .write_all(b"GET /__aimock/journal HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        .expect("ask aimock");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("aimock answers");
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    let entries: Vec<serde_json::Value> =
        serde_json::from_str(body).unwrap_or_else(|e| panic!("aimock's journal: {e}: {body}"));
    entries.iter().filter(|e| e["path"].as_str().is_some_and(|p| p.contains("chat"))).count()
}

/// The session's journal file, once there is one.
fn journal_file(config: &Path) -> PathBuf {
    let dir = config.join("sessions");
    let start = Instant::now();
    loop {
        let found = std::fs::read_dir(&dir).ok().and_then(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
        });
        if let Some(path) = found {
            return path;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "no journal in {}", dir.display());
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn journal_kinds(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|v| v["kind"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// Wait until the journal holds a record of `kind` (watch mode has read the project, ...).
fn wait_record(path: &Path, kind: &str, limit: Duration) {
    let start = Instant::now();
    while !journal_kinds(path).iter().any(|k| k == kind) {
        assert!(start.elapsed() < limit, "no {kind} record: {:?}", journal_kinds(path));
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn wait_until(what: &str, limit: Duration, ok: impl Fn() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// redline's process: the pane's shell `exec`s it.
fn redline_pid(tmux: &Tmux) -> u32 {
    let pid: u32 =
        tmux.cmd(&["list-panes", "-t", "e2e", "-F", "#{pane_pid}"]).trim().parse().expect("pid");
    wait_until("redline to run in the pane", Duration::from_secs(30), || {
        std::fs::read_link(format!("/proc/{pid}/exe"))
            .is_ok_and(|exe| exe.file_name().is_some_and(|n| n.to_string_lossy() == "redline"))
    });
    pid
}

/// CPU time (user + system) the process has used so far.
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc/PID/stat");
    // The fields after the command's name (in parentheses, which may hold spaces).
    let rest = &stat[stat.rfind(')').expect("comm") + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    // SAFETY: sysconf only reads a configuration value.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Duration::from_millis(ticks * 1000 / per_second)
}

fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

#[test]
fn reading_files_in_watch_mode_sends_nothing_and_a_new_comment_sends_once() {
    if !have_tmux("the end-to-end watch-mode reading test") {
        return;
    }
    let server = aimock(
        &fixtures(vec![reply_fixture("reject empty titles", ANSWER, serde_json::json!({}))]),
        &[],
    );
    let dir = todo_project();
    let root = dir.path();
    let config = tempfile::tempdir().unwrap();
    let tmux = Tmux::start("e2e-watch-reads", 160, 45);
    run_redline(&tmux, root, config.path(), &server.url(), "watch --apply all .");
    let journal = journal_file(config.path());
    wait_record(&journal, "watch_ready", Duration::from_secs(60));
    tmux.wait_for("the review screen", "watching");

    let before = size(&journal);
    for _ in 0..3 {
        assert_eq!(shell(root, "cat todo/store.py"), STORE_PY);
        assert!(shell(root, "grep -rn 'def remove' todo/").contains("todo/store.py"));
        assert!(shell(root, "grep -rn AI . --exclude-dir=.git").contains("unknown ids AI!"));
        assert!(shell(root, "git status").contains("docs/page0.md"));
        assert!(shell(root, "git diff").contains("changed text"));
        shell(root, "git diff HEAD --stat; git log --oneline; ls -R > /dev/null");
        std::thread::sleep(Duration::from_millis(500));
    }
    // Well past the watcher's debounce and git's grace time.
    std::thread::sleep(Duration::from_secs(2));
    let after_reads = size(&journal);
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(requests(&server), 0, "reading files sent a request");
    assert_eq!(std::fs::read_to_string(root.join("todo/store.py")).unwrap(), STORE_PY);
    assert_eq!(size(&journal), after_reads, "the journal grows after the reads");
    let kinds = journal_kinds(&journal);
    assert!(
        !kinds.iter().any(|k| k == "file_changed" || k == "request"),
        "reads were journaled as changes: {kinds:?}"
    );
    assert_eq!(before, after_reads, "the reads were journaled: {kinds:?}");

    // A real save that brings a new comment asks once, and the answer is applied.
    let saved = CLI_PY.replace("def add(title):\n", NEW_TRIGGER);
    std::fs::write(root.join("todo/cli.py"), &saved).unwrap();
    wait_until("the request", Duration::from_secs(30), || requests(&server) >= 1);
    let cli = root.join("todo/cli.py");
    wait_until("the answer to be applied", Duration::from_secs(30), || {
        std::fs::read_to_string(&cli).is_ok_and(|t| t.contains("empty title"))
    });
    tmux.wait_for("the edit to be applied", "1 applied");
    // Reading the files redline just wrote asks nothing either.
    shell(root, "cat todo/cli.py todo/store.py; git status; git diff; grep -rn title todo");
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(requests(&server), 1, "one save, one request");
    assert_eq!(std::fs::read_to_string(root.join("todo/store.py")).unwrap(), STORE_PY);

    // The follow-up box: Esc, Ctrl-C and an empty Enter close it, and send nothing.
    for (typed, close) in
        [("export OPENAI_API_KEY=sk-oops", "Escape"), ("more", "C-c"), ("", "Enter")]
    {
        tmux.keys("m");
        tmux.wait_for("the follow-up box", "follow-up request");
        if !typed.is_empty() {
            tmux.cmd(&["send-keys", "-t", "e2e", "-l", typed]);
        }
        tmux.keys(close);
        wait_until("the follow-up box to close", Duration::from_secs(10), || {
            !tmux.screen().contains("follow-up request")
        });
    }
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(requests(&server), 1, "closing the follow-up box sent a request");
    let journal_text = std::fs::read_to_string(&journal).unwrap();
    assert!(!journal_text.contains("sk-oops"), "the typed text reached the conversation");

    tmux.keys("q");
    wait_until("redline to exit", Duration::from_secs(30), || !tmux.screen().contains("watching"));
}

#[test]
fn grep_over_twenty_thousand_files_costs_nothing_afterwards() {
    if !have_tmux("the end-to-end watch-mode large tree test") {
        return;
    }
    let server = aimock(&fixtures(vec![]), &[]);
    let dir = tempfile::tempdir().expect("temporary project");
    let root = dir.path();
    for d in 0..200 {
        let folder = root.join(format!("pkg{d:03}"));
        std::fs::create_dir(&folder).unwrap();
        for f in 0..101 {
            let text =
                format!("// module {d}/{f}\nexport function f{f}(x) {{\n  return x + {f};\n}}\n");
            std::fs::write(folder.join(format!("m{f:03}.js")), text).unwrap();
        }
    }
    let config = tempfile::tempdir().unwrap();
    let tmux = Tmux::start("e2e-watch-tree", 160, 45);
    run_redline(&tmux, root, config.path(), &server.url(), "watch --apply all .");
    let journal = journal_file(config.path());
    let started = Instant::now();
    wait_record(&journal, "watch_ready", Duration::from_secs(120));
    eprintln!("watch mode read the tree in {:?}", started.elapsed());
    let pid = redline_pid(&tmux);
    // Let the start settle: what is measured is what the reads cost.
    std::thread::sleep(Duration::from_secs(1));

    let journal_before = size(&journal);
    let cpu_before = cpu_time(pid);
    let out = shell(root, "grep -rn 'return x' . | wc -l");
    assert_eq!(out.trim(), "20200", "grep read every file");
    shell(root, "cat pkg000/m000.js pkg199/m100.js > /dev/null");
    std::thread::sleep(Duration::from_secs(8));
    let cpu = cpu_time(pid).saturating_sub(cpu_before);
    eprintln!("redline used {cpu:?} of CPU during and after the grep (8 s)");
    assert_eq!(size(&journal), journal_before, "the journal grew after a grep");
    assert_eq!(requests(&server), 0);
    // Re-reading each file on its own opens made this 100% of a core, for ever.
    assert!(cpu < Duration::from_millis(1500), "redline used {cpu:?} of CPU after a grep");
    tmux.keys("q");
    wait_until("redline to exit", Duration::from_secs(30), || {
        !Path::new(&format!("/proc/{pid}")).exists()
    });
}
