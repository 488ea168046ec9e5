//! Shared by the `provider_*` tests: real servers on loopback, started by the tests and killed on
//! drop (aimock from `tests/aimock/node_modules`, and `tests/tools/faultproxy.py`), a scratch
//! project, and a runner for `redline ask` that records when each stdout line arrived.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The API key the tests hand redline; it must never show up in any output.
pub const SECRET: &str = "sk-test-SECRET-d41d8cd98f00b204";

/// How long any single `redline ask` run may take before the test calls it hung.
const RUN_LIMIT: Duration = Duration::from_secs(90);

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A loopback port nobody listens on, never the same twice in this process (the kernel may hand
/// a just-released port out again).
pub fn free_port() -> u16 {
    static GIVEN: std::sync::Mutex<Vec<u16>> = std::sync::Mutex::new(Vec::new());
    let mut given = GIVEN.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free loopback port");
        let port = listener.local_addr().expect("local address").port();
        if !given.contains(&port) {
            given.push(port);
            return port;
        }
    }
}

fn wait_for_port(port: u16, child: &mut Child, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    while Instant::now() < deadline {
        if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
            return;
        }
        if let Ok(Some(status)) = child.try_wait() {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            panic!("{what} exited before listening on port {port} ({status}): {err}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{what} did not listen on port {port} within 30 s");
}

/// A process killed (and reaped) on drop.
pub struct Server {
    child: Child,
    pub port: u16,
    _dir: Option<tempfile::TempDir>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

fn node() -> &'static str {
    let ok = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "these tests need Node.js (`node` on PATH) to run the aimock server; install it (CI's .ci/run does)"
    );
    "node"
}

/// The aimock CLI, installed from the pinned `tests/aimock/package-lock.json` on first use when
/// `.ci/run` has not installed it already (so a plain `cargo test` works too).
fn installed_aimock() -> PathBuf {
    static INSTALL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let folder = repo().join("tests/aimock");
    let cli = folder.join("node_modules/@copilotkit/aimock/dist/cli.js");
    let _guard = INSTALL.lock().unwrap_or_else(|e| e.into_inner());
    if !cli.exists() {
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(&folder)
            .stdin(Stdio::null())
            .status();
        assert!(
            status.is_ok_and(|s| s.success()) && cli.exists(),
            "aimock is not installed and `npm ci` in tests/aimock failed; install Node.js 20.15+ with npm and run it there (CI's .ci/run does)"
        );
    }
    cli
}

/// aimock serving `fixtures` (the `{"fixtures": [...]}` document), with extra environment.
pub fn aimock(fixtures: &Value, env: &[(&str, &str)]) -> Server {
    aimock_on(fixtures, env, 0)
}

/// aimock on a given loopback port (0: one of its own choosing), for a test that starts the
/// server after the client has already tried it.
pub fn aimock_on(fixtures: &Value, env: &[(&str, &str)], port: u16) -> Server {
    let node = node();
    let cli = installed_aimock();
    let dir = tempfile::tempdir().expect("temporary folder");
    let file = dir.path().join("fixtures.json");
    std::fs::write(&file, serde_json::to_vec(fixtures).expect("fixtures as JSON"))
        .expect("write fixtures");
    // Port 0: aimock binds a port of its own and says which, so no other server can take it.
    let mut cmd = Command::new(node);
    cmd.arg(&cli)
        .args(["-h", "127.0.0.1", "-p", &port.to_string(), "-f"])
        .arg(&file)
        .args(["--log-level", "info"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("start aimock");
    let stdout = child.stdout.take().expect("aimock's stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        const SAYS: &str = "listening on http://127.0.0.1:";
        let mut tx = Some(tx);
        // Read to the end, so that aimock never blocks on a full pipe.
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(at) = line.find(SAYS) {
                let port: Option<u16> = line[at + SAYS.len()..].trim().parse().ok();
                if let (Some(tx), Some(port)) = (tx.take(), port) {
                    let _ = tx.send(port);
                }
            }
        }
    });
    let Ok(port) = rx.recv_timeout(Duration::from_secs(30)) else {
        let _ = child.kill();
        let mut err = String::new();
        if let Some(mut e) = child.stderr.take() {
            let _ = e.read_to_string(&mut err);
        }
        panic!("aimock did not say which port it listens on within 30 s: {err}");
    };
    wait_for_port(port, &mut child, "aimock");
    Server { child, port, _dir: Some(dir) }
}

/// `faultproxy.py` in front of `upstream`, with its fault flags.
pub fn faultproxy(upstream: &Server, flags: &[&str]) -> Server {
    let script = repo().join("tests/tools/faultproxy.py");
    assert!(script.exists(), "{} is missing", script.display());
    let port = free_port();
    let mut child = Command::new("python3")
        .arg(&script)
        .args(["--listen", &port.to_string(), "--upstream", &upstream.port.to_string()])
        .args(flags)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start python3 faultproxy.py");
    wait_for_port(port, &mut child, "faultproxy.py");
    Server { child, port, _dir: None }
}

/// A streamed text fixture for the last user message containing `needle`.
pub fn reply_fixture(needle: &str, content: &str, extra: Value) -> Value {
    let mut f = serde_json::json!({
        "match": { "userMessage": needle },
        "response": { "content": content },
    });
    if let (Some(obj), Value::Object(more)) = (f.as_object_mut(), extra) {
        obj.extend(more);
    }
    f
}

pub fn fixtures(list: Vec<Value>) -> Value {
    serde_json::json!({ "fixtures": list })
}

pub const APP_PY: &str = "def greet(name):\n    return \"Hello \" + name\n\n\ndef last(items):\n    return items[len(items)]\n";

pub const APP_PY_FIXED: &str =
    "def greet(name):\n    return f\"Hello {name}\"\n\n\ndef last(items):\n    return items[-1]\n";

/// A reply with two SEARCH/REPLACE edits to `app.py`, the first ending early in the reply.
pub const REPLY: &str = "Here is the fix.\n\napp.py\n```python\n<<<<<<< SEARCH\ndef last(items):\n    return items[len(items)]\n=======\ndef last(items):\n    return items[-1]\n>>>>>>> REPLACE\n```\n\nAnd the greeting, while we are here; f-strings read better than concatenation and this one is simple enough to change without any risk at all.\n\napp.py\n```python\n<<<<<<< SEARCH\n    return \"Hello \" + name\n=======\n    return f\"Hello {name}\"\n>>>>>>> REPLACE\n```\n";

/// A scratch project holding `app.py` and `README.md`.
pub fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary project");
    std::fs::write(dir.path().join("app.py"), APP_PY).expect("write app.py");
    std::fs::write(dir.path().join("README.md"), "# demo\n").expect("write README.md");
    dir
}

pub fn read(dir: &Path, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
}

/// What a run printed, and when.
#[derive(Debug)]
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// When each stdout line arrived, from the start.
    pub line_times: Vec<Duration>,
    pub elapsed: Duration,
}

impl Run {
    pub fn edit_lines(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("stdout line {l:?}: {e}")))
            .collect()
    }

    pub fn assert_no_secret(&self) {
        assert!(!self.stdout.contains(SECRET), "the API key is on stdout:\n{}", self.stdout);
        assert!(!self.stderr.contains(SECRET), "the API key is on stderr:\n{}", self.stderr);
    }
}

/// Run `redline ask` in `root` with `args`, a clean provider environment plus `env`, and the
/// user's config file out of the way.
pub fn ask(root: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    ask_with(root, args, env, |_| {})
}

/// [`ask`], calling `on_first_line` with the process id when the first stdout line arrives.
pub fn ask_with(
    root: &Path,
    args: &[&str],
    env: &[(&str, &str)],
    on_first_line: impl FnOnce(u32),
) -> Run {
    let mut on_first_line = Some(on_first_line);
    let (first_tx, first_rx) = std::sync::mpsc::channel::<()>();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_redline"));
    cmd.arg("ask").arg("--root").arg(root).args(args).current_dir(root);
    for var in [
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "OLLAMA_HOST",
        "REDLINE_MODEL",
        "REDLINE_PROVIDER",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("REDLINE_CONFIG", root.join("no-such-config.toml"));
    // The servers are on loopback: never through a proxy the machine may name.
    cmd.env("NO_PROXY", "127.0.0.1,localhost").env("no_proxy", "127.0.0.1,localhost");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd.spawn().expect("run redline");
    let stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out_thread = std::thread::spawn(move || {
        let mut lines = Vec::new();
        let mut reader = BufReader::new(stdout);
        let mut line = String::new();
        while reader.read_line(&mut line).is_ok_and(|n| n > 0) {
            lines.push((start.elapsed(), std::mem::take(&mut line)));
            let _ = first_tx.send(());
        }
        lines
    });
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for redline") {
            break status;
        }
        if first_rx.try_recv().is_ok()
            && let Some(hook) = on_first_line.take()
        {
            hook(child.id());
        }
        if start.elapsed() > RUN_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("redline ask {args:?} still running after {RUN_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let elapsed = start.elapsed();
    let lines = out_thread.join().expect("stdout reader");
    let stderr = err_thread.join().expect("stderr reader");
    Run {
        code: status.code(),
        stdout: lines.iter().map(|(_, l)| l.as_str()).collect(),
        line_times: lines.iter().map(|(t, _)| *t).collect(),
        stderr,
        elapsed,
    }
}
