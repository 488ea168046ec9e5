//! `redline apply` under attack from another program on the same machine: a folder swapped for a
//! symlink to outside the project while files are created in it, temporary files left behind by
//! a killed run, and files whose metadata a write must not change (read-only, hard links).
//!
//! The real binary on scratch projects; Linux only (the swap uses `renameat2`).
#![cfg(target_os = "linux")]

use std::ffi::CString;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use tempfile::TempDir;

/// How many `redline apply` runs race the folder swapper.
const SWAP_RUNS: usize = 150;

fn search_replace(path: &str, search: &str, replace: &str) -> String {
    format!("{path}\n```\n<<<<<<< SEARCH\n{search}=======\n{replace}>>>>>>> REPLACE\n```\n")
}

/// `redline apply --root <root> <reply>`, the reply written beside the project.
fn apply(scratch: &Path, root: &Path, reply: &str) -> Output {
    let reply_path = scratch.join("reply.md");
    fs::write(&reply_path, reply).expect("write reply");
    Command::new(env!("CARGO_BIN_EXE_redline"))
        .arg("apply")
        .arg("--root")
        .arg(root)
        .arg(&reply_path)
        .stdin(Stdio::null())
        .output()
        .expect("run redline")
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("read_dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Swap two names atomically (`renameat2(RENAME_EXCHANGE)`), so that `sub` always exists: a
/// folder one moment, a symlink out of the project the next.
fn exchange(a: &Path, b: &Path) -> bool {
    let a = CString::new(a.as_os_str().as_bytes()).expect("no NUL");
    let b = CString::new(b.as_os_str().as_bytes()).expect("no NUL");
    // SAFETY: two valid NUL-terminated paths.
    unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        ) == 0
    }
}

#[test]
fn a_folder_swapped_for_a_symlink_never_sends_a_new_file_outside() {
    let scratch = TempDir::new().expect("scratch");
    let (root, outside) = (scratch.path().join("project"), scratch.path().join("outside"));
    fs::create_dir_all(root.join("sub")).expect("mkdir");
    fs::create_dir_all(&outside).expect("mkdir");
    fs::write(root.join("sub/keep.py"), "k = 1\n").expect("write");
    let link: PathBuf = root.join(".elsewhere");
    symlink(&outside, &link).expect("symlink");

    let stop = Arc::new(AtomicBool::new(false));
    let swaps = Arc::new(AtomicUsize::new(0));
    let swapper = {
        let (stop, swaps, sub, link) = (stop.clone(), swaps.clone(), root.join("sub"), link);
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                if exchange(&sub, &link) {
                    swaps.fetch_add(1, Ordering::Relaxed);
                }
            }
            // Leave `sub` a folder again.
            if fs::symlink_metadata(&sub).is_ok_and(|m| m.file_type().is_symlink()) {
                exchange(&sub, &link);
            }
        })
    };
    let mut written = 0;
    for i in 0..SWAP_RUNS {
        let out = apply(
            scratch.path(),
            &root,
            &search_replace(&format!("sub/new_{i}.py"), "", "n = 1\n"),
        );
        written += usize::from(out.status.success());
        let escaped = names_in(&outside);
        if !escaped.is_empty() {
            stop.store(true, Ordering::Relaxed);
            panic!("run {i} wrote outside the project: {escaped:?}");
        }
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().expect("swapper");
    eprintln!("{written} of {SWAP_RUNS} runs wrote; {} swaps", swaps.load(Ordering::Relaxed));
    assert!(names_in(&outside).is_empty());
    assert!(swaps.load(Ordering::Relaxed) > 0, "the folder was swapped");
    let stray: Vec<String> =
        names_in(&root.join("sub")).into_iter().filter(|n| n.ends_with(".tmp")).collect();
    assert!(stray.is_empty(), "no temporary file is left: {stray:?}");
}

#[test]
fn a_dead_runs_temporary_file_is_removed_and_a_live_ones_is_kept() {
    let scratch = TempDir::new().expect("scratch");
    let root = scratch.path().join("project");
    fs::create_dir_all(&root).expect("mkdir");
    fs::write(root.join("app.py"), "x = 1\n").expect("write");
    let mut child = Command::new("true").spawn().expect("true runs");
    let dead = child.id();
    child.wait().expect("waited");
    let dead_name = format!(".redline-{dead}-12345678.tmp");
    let live_name = format!(".redline-{}-87654321.tmp", std::process::id());
    fs::write(root.join(&dead_name), "x = 1\n# half a write\n").expect("write");
    fs::write(root.join(&live_name), "busy\n").expect("write");

    let out = apply(scratch.path(), &root, &search_replace("app.py", "x = 1\n", "x = 2\n"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(fs::read_to_string(root.join("app.py")).expect("read"), "x = 2\n");
    assert_eq!(names_in(&root), [live_name.as_str(), "app.py"]);
}

#[test]
fn a_read_only_file_is_refused_with_the_reason() {
    let scratch = TempDir::new().expect("scratch");
    let root = scratch.path().join("project");
    fs::create_dir_all(&root).expect("mkdir");
    let path = root.join("ro.py");
    fs::write(&path, "x = 1\n").expect("write");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).expect("chmod");
    let out = apply(scratch.path(), &root, &search_replace("ro.py", "x = 1\n", "x = 2\n"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("read-only: redline does not change permissions"), "{err}");
    assert_eq!(fs::read_to_string(&path).expect("read"), "x = 1\n");
}

#[test]
fn a_hard_linked_file_is_refused_and_its_links_stay_one_file() {
    let scratch = TempDir::new().expect("scratch");
    let root = scratch.path().join("project");
    fs::create_dir_all(&root).expect("mkdir");
    fs::write(root.join("a.py"), "x = 1\n").expect("write");
    fs::hard_link(root.join("a.py"), root.join("b.py")).expect("link");
    let out = apply(scratch.path(), &root, &search_replace("a.py", "x = 1\n", "x = 2\n"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("2 hard links"), "{err}");
    assert_eq!(fs::metadata(root.join("b.py")).expect("meta").nlink(), 2);
    assert_eq!(fs::read_to_string(root.join("b.py")).expect("read"), "x = 1\n");
}
