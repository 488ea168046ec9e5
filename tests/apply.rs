//! End-to-end tests of `redline apply`: the real binary on scratch projects in temporary folders.
//!
//! What is checked here is the shell's contract: exit statuses, path safety on disk (symlinks,
//! `..`, absolute paths, `.git/`), files that must stay untouched (binary, not UTF-8), permissions,
//! `--dry-run`, `--json`'s shape. How well edits are located is the core's business and is tested
//! there; the replies here are the plainest possible.
#![cfg(unix)]

use std::fs;
use std::io::Write;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use tempfile::TempDir;

const APP: &str = "def main():\n    x = 1\n    return x\n";
const APP_AFTER: &str = "def main():\n    x = 2\n    return x\n";

/// A scratch folder holding `project/`, a sibling `outside/` and the reply file.
struct Scratch {
    dir: TempDir,
}

impl Scratch {
    fn new(files: &[(&str, &[u8])]) -> Scratch {
        let dir = TempDir::new().expect("temp dir");
        fs::create_dir_all(dir.path().join("project")).expect("mkdir project");
        fs::create_dir_all(dir.path().join("outside")).expect("mkdir outside");
        let scratch = Scratch { dir };
        for (rel, bytes) in files {
            scratch.put(rel, bytes);
        }
        scratch
    }

    fn root(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    fn outside(&self) -> PathBuf {
        self.dir.path().join("outside")
    }

    fn put(&self, rel: &str, bytes: &[u8]) {
        let path = self.root().join(rel);
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(path, bytes).expect("write");
    }

    fn read(&self, rel: &str) -> Vec<u8> {
        fs::read(self.root().join(rel)).expect("read")
    }

    fn text(&self, rel: &str) -> String {
        String::from_utf8(self.read(rel)).expect("utf-8")
    }

    /// Run `redline apply --root <project> <extra args> <reply file>`.
    fn apply(&self, reply: &str, extra: &[&str]) -> Output {
        let reply_path = self.dir.path().join("reply.md");
        fs::write(&reply_path, reply).expect("write reply");
        let mut args: Vec<String> = vec!["apply".into(), "--root".into(), path_arg(&self.root())];
        args.extend(extra.iter().map(|s| s.to_string()));
        args.push(path_arg(&reply_path));
        redline(&args, None)
    }

    fn apply_json(&self, reply: &str, extra: &[&str]) -> (i32, Value) {
        let mut args = vec!["--json"];
        args.extend_from_slice(extra);
        let out = self.apply(reply, &args);
        (status(&out), json(&out))
    }

    /// Every file under the project, so a test can say "nothing else changed".
    fn tree(&self) -> Vec<(String, Vec<u8>)> {
        fn walk(dir: &Path, base: &Path, out: &mut Vec<(String, Vec<u8>)>) {
            for entry in fs::read_dir(dir).expect("read_dir") {
                let path = entry.expect("entry").path();
                let meta = fs::symlink_metadata(&path).expect("meta");
                let rel = path.strip_prefix(base).expect("prefix").to_string_lossy().into_owned();
                if meta.is_dir() {
                    walk(&path, base, out);
                } else if meta.is_symlink() {
                    out.push((rel, Vec::new()));
                } else {
                    out.push((rel, fs::read(&path).expect("read")));
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.root(), &self.root(), &mut out);
        out.sort();
        out
    }
}

fn path_arg(path: &Path) -> String {
    path.to_str().expect("utf-8 temp path").to_string()
}

fn redline(args: &[String], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_redline"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn redline");
    let mut pipe = child.stdin.take().expect("stdin");
    pipe.write_all(stdin.unwrap_or("").as_bytes()).expect("feed stdin");
    drop(pipe);
    child.wait_with_output().expect("wait for redline")
}

fn status(out: &Output) -> i32 {
    out.status.code().expect("exit code, not a signal")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            stderr(out)
        )
    })
}

/// A reply holding one SEARCH/REPLACE block, with a little prose around it as models write.
fn search_replace(path: &str, search: &str, replace: &str) -> String {
    format!(
        "Here is the change:\n\n{path}\n```python\n<<<<<<< SEARCH\n{search}=======\n{replace}>>>>>>> REPLACE\n```\n\nThat should do it.\n"
    )
}

fn udiff(path: &str) -> String {
    format!(
        "I changed the constant:\n\n```diff\n--- a/{path}\n+++ b/{path}\n@@ -1,3 +1,3 @@\n def main():\n-    x = 1\n+    x = 2\n     return x\n```\n"
    )
}

fn refused_paths(report: &Value) -> Vec<String> {
    report["edits"]
        .as_array()
        .expect("edits array")
        .iter()
        .filter(|e| e["status"] == "refused")
        .map(|e| e["path"].as_str().expect("path").to_string())
        .collect()
}

// ---- usage and I/O errors: exit 2 -------------------------------------------------------------

#[test]
fn help_is_status_0_and_usage_errors_are_status_2() {
    let help = redline(&["apply".into(), "--help".into()], None);
    assert_eq!(status(&help), 0);
    assert!(String::from_utf8_lossy(&help.stdout).contains("--dry-run"));
    assert_eq!(status(&redline(&[], None)), 2, "no subcommand");
    assert_eq!(status(&redline(&["apply".into(), "--bogus".into()], None)), 2);
    let bad_format = redline(&["apply".into(), "--format".into(), "xml".into()], None);
    assert_eq!(status(&bad_format), 2);
}

#[test]
fn a_missing_root_is_status_2() {
    let scratch = Scratch::new(&[]);
    let reply = scratch.dir.path().join("reply.md");
    fs::write(&reply, search_replace("app.py", "x = 1\n", "x = 2\n")).expect("write");
    let missing = scratch.dir.path().join("no-such-project");
    let out =
        redline(&["apply".into(), "--root".into(), path_arg(&missing), path_arg(&reply)], None);
    assert_eq!(status(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("no-such-project"), "{}", stderr(&out));
}

#[test]
fn an_unreadable_reply_is_status_2() {
    let scratch = Scratch::new(&[("app.py", APP.as_bytes())]);
    let missing = scratch.dir.path().join("missing-reply.md");
    let args = ["apply".into(), "--root".into(), path_arg(&scratch.root()), path_arg(&missing)];
    let out = redline(&args, None);
    assert_eq!(status(&out), 2);
    assert!(stderr(&out).contains("missing-reply.md"), "{}", stderr(&out));

    let latin1 = scratch.dir.path().join("latin1.md");
    fs::write(&latin1, b"caf\xe9\n").expect("write");
    let args = ["apply".into(), "--root".into(), path_arg(&scratch.root()), path_arg(&latin1)];
    let out = redline(&args, None);
    assert_eq!(status(&out), 2);
    assert!(stderr(&out).contains("not UTF-8"), "{}", stderr(&out));
    assert_eq!(scratch.text("app.py"), APP);
}

// ---- replies without edits: exit 1 -------------------------------------------------------------

#[test]
fn a_reply_without_edits_is_status_1() {
    let scratch = Scratch::new(&[("app.py", APP.as_bytes())]);
    let out = scratch.apply("Sure! I think the code looks fine as it is.\n", &[]);
    assert_eq!(status(&out), 1);
    assert!(stderr(&out).contains("no edits found in the reply"), "{}", stderr(&out));

    let (code, report) = scratch.apply_json("Nothing to change.\n", &["--dry-run"]);
    assert_eq!(code, 1);
    assert_eq!(
        report,
        serde_json::json!({"edits": [], "applied": 0, "refused": 0, "dry_run": true})
    );
    assert_eq!(scratch.text("app.py"), APP);
}

// ---- edits that apply (need the real core) -----------------------------------------------------

#[test]
fn a_search_replace_block_is_applied() {
    let scratch = Scratch::new(&[("app.py", APP.as_bytes()), ("other.py", b"y = 0\n")]);
    let out = scratch.apply(&search_replace("app.py", "    x = 1\n", "    x = 2\n"), &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    assert_eq!(scratch.text("app.py"), APP_AFTER);
    assert_eq!(scratch.text("other.py"), "y = 0\n");
    assert!(stderr(&out).contains("applied  app.py"), "{}", stderr(&out));
}

#[test]
fn a_unified_diff_is_applied() {
    let scratch = Scratch::new(&[("src/app.py", APP.as_bytes())]);
    let out = scratch.apply(&udiff("src/app.py"), &["--format", "udiff"]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    assert_eq!(scratch.text("src/app.py"), APP_AFTER);
    assert_eq!(scratch.tree().len(), 1, "no stray files: {:?}", scratch.tree());
}

#[test]
fn the_reply_can_come_from_standard_input() {
    let scratch = Scratch::new(&[("app.py", APP.as_bytes())]);
    let reply = search_replace("app.py", "    x = 1\n", "    x = 2\n");
    let root = path_arg(&scratch.root());
    let out = redline(&["apply".into(), "--root".into(), root.clone(), "-".into()], Some(&reply));
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    assert_eq!(scratch.text("app.py"), APP_AFTER);

    let back = search_replace("app.py", "    x = 2\n", "    x = 1\n");
    let out = redline(&["apply".into(), "--root".into(), root], Some(&back));
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    assert_eq!(scratch.text("app.py"), APP);
}

#[test]
fn json_has_the_documented_shape() {
    let scratch = Scratch::new(&[("app.py", APP.as_bytes())]);
    let (code, report) =
        scratch.apply_json(&search_replace("app.py", "    x = 1\n", "    x = 2\n"), &[]);
    assert_eq!(code, 0, "{report}");
    let mut keys: Vec<&str> =
        report.as_object().expect("object").keys().map(|k| k.as_str()).collect();
    keys.sort();
    assert_eq!(keys, ["applied", "dry_run", "edits", "refused"]);
    assert_eq!(report["applied"], 1);
    assert_eq!(report["refused"], 0);
    assert_eq!(report["dry_run"], false);
    let edit = &report["edits"][0];
    assert_eq!(edit["path"], "app.py");
    assert_eq!(edit["format"], "search-replace");
    assert_eq!(edit["status"], "applied");
    assert!(edit["strategy"].is_string(), "{edit}");
    assert_eq!(edit["lines"], serde_json::json!([2, 2]));
    assert!(edit["reply_lines"].is_array(), "{edit}");
}

#[test]
fn dry_run_reports_but_writes_nothing() {
    let scratch = Scratch::new(&[("app.py", APP.as_bytes())]);
    let before = scratch.tree();
    let mut reply = search_replace("app.py", "    x = 1\n", "    x = 2\n");
    reply.push_str(&search_replace("new/module.py", "", "VALUE = 1\n"));
    let (code, report) = scratch.apply_json(&reply, &["--dry-run"]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["applied"], 2);
    assert_eq!(report["dry_run"], true);
    assert_eq!(scratch.tree(), before);

    let out = scratch.apply(&reply, &["--dry-run"]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    assert!(stderr(&out).contains("dry run"), "{}", stderr(&out));
    assert!(stderr(&out).contains("would apply  new/module.py"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("\napplied"), "nothing says applied: {}", stderr(&out));
    assert_eq!(scratch.tree(), before);
}

#[test]
fn permissions_survive_an_edit() {
    let scratch = Scratch::new(&[("run.py", APP.as_bytes())]);
    let path = scratch.root().join("run.py");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o751)).expect("chmod");
    let out = scratch.apply(&search_replace("run.py", "    x = 1\n", "    x = 2\n"), &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    assert_eq!(scratch.text("run.py"), APP_AFTER);
    assert_eq!(fs::metadata(&path).expect("meta").permissions().mode() & 0o7777, 0o751);
}

#[test]
fn a_refused_edit_does_not_stop_the_others() {
    let scratch = Scratch::new(&[("app.py", APP.as_bytes()), ("b.py", b"y = 0\n")]);
    let mut reply = search_replace("b.py", "this line is not in the file\n", "z = 1\n");
    reply.push_str(&search_replace("app.py", "    x = 1\n", "    x = 2\n"));
    let (code, report) = scratch.apply_json(&reply, &[]);
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["applied"], 1);
    assert_eq!(report["refused"], 1);
    assert_eq!(refused_paths(&report), ["b.py"]);
    assert_eq!(scratch.text("app.py"), APP_AFTER);
    assert_eq!(scratch.text("b.py"), "y = 0\n");
}

// ---- path safety -------------------------------------------------------------------------------

/// The reply must be refused (status 1, reported as refused) and nothing may change anywhere.
fn assert_refused_untouched(scratch: &Scratch, reply: &str) -> Value {
    let before = scratch.tree();
    let outside_before = fs::read_dir(scratch.outside()).expect("outside").count();
    let (code, report) = scratch.apply_json(reply, &[]);
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["applied"], 0, "{report}");
    assert!(!refused_paths(&report).is_empty(), "the edit must be reported refused: {report}");
    assert_eq!(scratch.tree(), before);
    assert_eq!(fs::read_dir(scratch.outside()).expect("outside").count(), outside_before);
    report
}

#[test]
fn a_symlink_to_a_file_outside_is_refused() {
    let scratch = Scratch::new(&[("app.py", APP.as_bytes())]);
    let secret = scratch.outside().join("secret.py");
    fs::write(&secret, APP).expect("write");
    symlink(&secret, scratch.root().join("link.py")).expect("symlink");
    let report = assert_refused_untouched(
        &scratch,
        &search_replace("link.py", "    x = 1\n", "    x = 2\n"),
    );
    assert_eq!(refused_paths(&report), ["link.py"]);
    assert!(report["edits"][0]["reason"].as_str().is_some_and(|r| r.contains("symlink")));
    assert_eq!(fs::read_to_string(&secret).expect("read"), APP);
}

#[test]
fn a_symlinked_folder_to_outside_is_refused_even_for_new_files() {
    let scratch = Scratch::new(&[("app.py", APP.as_bytes())]);
    fs::write(scratch.outside().join("mod.py"), APP).expect("write");
    symlink(scratch.outside(), scratch.root().join("lib")).expect("symlink");
    assert_refused_untouched(&scratch, &search_replace("lib/mod.py", "    x = 1\n", "    x = 2\n"));
    assert_refused_untouched(&scratch, &search_replace("lib/new.py", "", "x = 1\n"));
    assert!(!scratch.outside().join("new.py").exists());
    assert_eq!(fs::read_to_string(scratch.outside().join("mod.py")).expect("read"), APP);
}

#[test]
fn dot_dot_paths_are_refused() {
    let scratch = Scratch::new(&[("app.py", APP.as_bytes())]);
    fs::write(scratch.outside().join("app.py"), APP).expect("write");
    assert_refused_untouched(
        &scratch,
        &search_replace("../outside/app.py", "    x = 1\n", "    x = 2\n"),
    );
    assert_refused_untouched(&scratch, &udiff("../outside/app.py"));
    assert_eq!(fs::read_to_string(scratch.outside().join("app.py")).expect("read"), APP);
}

#[test]
fn absolute_paths_are_refused() {
    let scratch = Scratch::new(&[("app.py", APP.as_bytes())]);
    let target = scratch.outside().join("app.py");
    fs::write(&target, APP).expect("write");
    assert_refused_untouched(
        &scratch,
        &search_replace(&path_arg(&target), "    x = 1\n", "    x = 2\n"),
    );
    assert_eq!(fs::read_to_string(&target).expect("read"), APP);
}

#[test]
fn files_under_git_are_refused() {
    let config = b"[core]\n\tbare = false\n";
    let scratch = Scratch::new(&[("app.py", APP.as_bytes()), (".git/config", config)]);
    assert_refused_untouched(
        &scratch,
        &search_replace(".git/config", "\tbare = false\n", "\tbare = true\n"),
    );
    assert_refused_untouched(&scratch, &search_replace(".git/hooks/pre-commit", "", "rm -rf ~\n"));
    assert_eq!(scratch.read(".git/config"), config);
    assert!(!scratch.root().join(".git/hooks").exists());
}

#[test]
fn files_under_git_are_refused_whatever_the_case_of_its_name() {
    let scratch = Scratch::new(&[
        ("app.py", APP.as_bytes()),
        (".GIT/config", APP.as_bytes()),
        ("sub/.Git/HEAD", APP.as_bytes()),
    ]);
    assert_refused_untouched(&scratch, &udiff(".GIT/config"));
    assert_refused_untouched(&scratch, &udiff("sub/.Git/HEAD"));
    assert_refused_untouched(&scratch, &search_replace(".gIt/new.py", "", "x = 1\n"));
    assert!(!scratch.root().join(".gIt").exists());
}

// ---- files that cannot be edited ----------------------------------------------------------------

#[test]
fn binary_and_non_utf8_files_are_left_untouched() {
    let binary: &[u8] = b"\x00\x01\x02x = 1\n";
    let latin1: &[u8] = b"name = 'caf\xe9'\nx = 1\n";
    let scratch = Scratch::new(&[("data.bin", binary), ("legacy.py", latin1)]);
    let report =
        assert_refused_untouched(&scratch, &search_replace("data.bin", "x = 1\n", "x = 2\n"));
    assert!(
        report["edits"][0]["reason"].as_str().is_some_and(|r| r.contains("binary")),
        "{report}"
    );
    let report =
        assert_refused_untouched(&scratch, &search_replace("legacy.py", "x = 1\n", "x = 2\n"));
    assert!(report["edits"][0]["reason"].as_str().is_some_and(|r| r.contains("UTF-8")), "{report}");
    assert_eq!(scratch.read("data.bin"), binary);
    assert_eq!(scratch.read("legacy.py"), latin1);
}

// ---- resource limits ------------------------------------------------------------------------

/// Under `ulimit -f`, a write past the limit used to kill redline with SIGXFSZ (no message, no
/// exit status, a temporary file left behind); the signal is ignored now, so the write fails
/// with EFBIG and is reported like any other write error.
#[test]
fn a_write_past_ulimit_f_is_an_error_not_a_signal_death() {
    let s = Scratch::new(&[("app.py", APP.as_bytes())]);
    let big: String = (0..4000).map(|i| format!("    big_{i} = {i}  # padding\n")).collect();
    let reply = search_replace("app.py", "    x = 1\n", &big);
    let reply_path = s.dir.path().join("reply.md");
    fs::write(&reply_path, reply).expect("write reply");
    // 16 blocks: 8 KiB (dash counts 512-byte blocks) or 16 KiB; the new file is about 130 KB.
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 16; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_redline"))
        .args(["apply", "--root", &path_arg(&s.root()), &path_arg(&reply_path)])
        .stdin(Stdio::null())
        .output()
        .expect("run redline under ulimit -f");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(out.status.signal(), None, "killed by a signal: {:?}", out.status);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("redline: error") && err.contains("app.py"), "{err}");
    assert!(err.to_lowercase().contains("file too large"), "{err}");
    assert_eq!(s.text("app.py"), APP, "the file is wholly old");
    let names: Vec<String> = s.tree().into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, vec!["app.py".to_string()], "no temporary file is left");
}

#[test]
fn the_demo_reply_leaves_the_report_at_its_blocks_depth() {
    // The demo's last block has its SEARCH dedented by a slip and its REPLACE at the file's
    // depth: the new line goes where the old one was, not one step deeper.
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("demo");
    let report = fs::read(demo.join("project/report.py")).expect("demo report.py");
    let inventory = fs::read(demo.join("project/inventory.py")).expect("demo inventory.py");
    let scratch = Scratch::new(&[("report.py", &report), ("inventory.py", &inventory)]);
    let reply = fs::read_to_string(demo.join("reply.md")).expect("demo reply");
    scratch.apply(&reply, &[]);
    let text = scratch.text("report.py");
    assert!(text.contains("\n    lines.append(f\"total: {total_value(items):.2f}\")\n"), "{text}");
    // Every line of a block body stands at a depth its block allows: no line deeper than
    // the line before it without a `:` opening it.
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let depth = |l: &str| l.len() - l.trim_start().len();
    for w in lines.windows(2) {
        if depth(w[1]) > depth(w[0]) {
            assert!(w[0].trim_end().ends_with([':', '(', '[', '{']), "{} after {}", w[1], w[0]);
        }
    }
}

#[test]
fn a_diff_from_nothing_fills_an_existing_empty_file_once() {
    let scratch = Scratch::new(&[("pkg/__init__.py", b"")]);
    let reply = "```diff\n--- a/pkg/__init__.py\n+++ b/pkg/__init__.py\n@@ -0,0 +1,2 @@\n+from pkg.core import run\n+__all__ = [\"run\"]\n```\n";
    let out = scratch.apply(reply, &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let want = "from pkg.core import run\n__all__ = [\"run\"]\n";
    assert_eq!(scratch.text("pkg/__init__.py"), want);
    // Sent again: made, nothing changes.
    let again = scratch.apply(reply, &[]);
    assert_eq!(status(&again), 0, "{}", stderr(&again));
    assert_eq!(scratch.text("pkg/__init__.py"), want);
    // A file with lines is not replaced by a hunk that shows none of them.
    let full = Scratch::new(&[("pkg/__init__.py", b"VERSION = 1\n")]);
    assert_eq!(status(&full.apply(reply, &[])), 1);
    assert_eq!(full.text("pkg/__init__.py"), "VERSION = 1\n");
}
