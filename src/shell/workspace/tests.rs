//! The workspace's unit tests: path rules, reads, and writes through the library API.

#[cfg(target_os = "linux")]
use super::at;
use super::*;
use std::os::unix::fs::{PermissionsExt, symlink};
use tempfile::TempDir;

fn project(files: &[(&str, &[u8])]) -> (TempDir, Workspace) {
    let dir = TempDir::new().expect("temp dir");
    for (rel, bytes) in files {
        let path = dir.path().join(rel);
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(&path, bytes).expect("write");
    }
    let ws = Workspace::open(dir.path()).expect("open");
    (dir, ws)
}

fn write(path: &str, text: &str) -> FileWrite {
    FileWrite::Write { path: path.to_string(), text: text.to_string() }
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("read_dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn open_refuses_a_missing_root_and_a_file() {
    let (dir, _) = project(&[("a.txt", b"a")]);
    let missing = Workspace::open(&dir.path().join("nope")).expect_err("missing");
    assert!(missing.to_string().contains("nope"), "{missing}");
    let file = Workspace::open(&dir.path().join("a.txt")).expect_err("a file");
    assert!(matches!(file, WorkspaceError::RootNotDir { .. }));
}

#[test]
fn lists_files_sorted_with_hidden_honouring_gitignore_without_git() {
    let (dir, ws) = project(&[
        (".gitignore", b"build/\n*.log\n"),
        (".env", b"X=1"),
        ("src/app.py", b"x = 1\n"),
        ("src/deep/mod.py", b""),
        ("build/out.py", b""),
        ("debug.log", b""),
        (".git/config", b""),
        ("a.py", b""),
    ]);
    symlink("/etc/hostname", dir.path().join("outside.txt")).expect("symlink");
    symlink("src", dir.path().join("srclink")).expect("symlink");
    assert_eq!(
        ws.list_files(),
        [".env", ".gitignore", "a.py", "outside.txt", "src/app.py", "src/deep/mod.py"]
    );
}

#[test]
fn a_git_file_is_skipped_too() {
    // A worktree's `.git` is a file pointing at the real repository.
    let (_dir, ws) = project(&[(".git", b"gitdir: /elsewhere"), ("a.py", b"")]);
    assert_eq!(ws.list_files(), ["a.py"]);
}

#[test]
fn lexical_refusals() {
    let (_dir, ws) = project(&[("a.py", b"")]);
    let refused = |p: &str| ws.resolve(p).expect_err(p);
    assert_eq!(refused("/etc/passwd"), PathRefusal::Absolute);
    assert_eq!(refused("\\\\host\\share"), PathRefusal::Absolute);
    assert_eq!(refused("C:/x.py"), PathRefusal::Absolute);
    assert_eq!(refused("../x.py"), PathRefusal::ParentDir);
    assert_eq!(refused("src/../../x.py"), PathRefusal::ParentDir);
    assert_eq!(refused("src\\..\\x.py"), PathRefusal::ParentDir);
    assert_eq!(refused(".git/config"), PathRefusal::Git);
    assert_eq!(refused("sub/.GIT/hooks/pre-commit"), PathRefusal::Git);
    assert_eq!(refused(""), PathRefusal::Empty);
    assert_eq!(refused("./"), PathRefusal::Empty);
    assert_eq!(refused("a\0b"), PathRefusal::Nul);
}

#[test]
fn plain_and_new_paths_resolve_inside_the_root() {
    let (_dir, ws) = project(&[("src/a.py", b"")]);
    let r = ws.resolve("./src/a.py").expect("plain");
    assert_eq!(r.real, ws.root().join("src/a.py"));
    let r = ws.resolve("new/dir/b.py").expect("new");
    assert_eq!(r.real, ws.root().join("new/dir/b.py"));
    assert_eq!(r.lexical, r.real);
}

#[test]
fn symlinks_out_of_the_project_are_refused_on_any_component() {
    let outside = TempDir::new().expect("outside");
    fs::write(outside.path().join("secret.py"), "s = 1\n").expect("write");
    let (dir, ws) = project(&[("a.py", b"")]);
    symlink(outside.path().join("secret.py"), dir.path().join("link.py")).expect("symlink");
    symlink(outside.path(), dir.path().join("lib")).expect("symlink");
    symlink("../..", dir.path().join("up")).expect("symlink");
    for path in ["link.py", "lib/secret.py", "lib/new.py", "lib/new/deeper.py", "up/x"] {
        let refusal = ws.resolve(path).expect_err(path);
        assert!(matches!(refusal, PathRefusal::Escapes { .. }), "{path}: {refusal}");
    }
    assert_eq!(
        ws.resolve("lib/new.py").expect_err("dir").to_string(),
        "escapes the project through the symlink lib"
    );
}

#[test]
fn symlinks_inside_the_project_resolve_but_not_into_git() {
    let (dir, ws) = project(&[("src/real.py", b"r\n"), (".git/config", b"")]);
    symlink("src/real.py", dir.path().join("alias.py")).expect("symlink");
    symlink(".git", dir.path().join("g")).expect("symlink");
    symlink("nowhere.py", dir.path().join("dangling.py")).expect("symlink");
    let r = ws.resolve("alias.py").expect("alias");
    assert_eq!(r.real, ws.root().join("src/real.py"));
    assert_eq!(r.lexical, ws.root().join("alias.py"));
    assert_eq!(ws.resolve("g/config"), Err(PathRefusal::Git));
    assert!(matches!(ws.resolve("dangling.py"), Err(PathRefusal::Dangling { .. })));
}

#[test]
fn read_source_classifies_files() {
    let mut big_text = "a".repeat(BINARY_SNIFF_LEN);
    big_text.push('\0');
    let (dir, ws) = project(&[
        ("bom.txt", "\u{feff}one\r\ntwo\r\n".as_bytes()),
        ("bin.dat", b"PK\x03\x04\0\0"),
        ("latin1.txt", b"caf\xe9\n"),
        ("late_nul.txt", big_text.as_bytes()),
        ("sub/x.py", b""),
    ]);
    symlink("/etc/hostname", dir.path().join("out.txt")).expect("symlink");
    assert_eq!(ws.read_source("bom.txt"), Source::Text("\u{feff}one\r\ntwo\r\n".into()));
    assert_eq!(ws.read_source("bin.dat"), Source::Unusable("binary file".into()));
    assert_eq!(ws.read_source("latin1.txt"), Source::Unusable("not UTF-8 text".into()));
    assert_eq!(ws.read_source("late_nul.txt"), Source::Text(big_text));
    assert_eq!(ws.read_source("missing.py"), Source::Missing);
    assert_eq!(ws.read_source("sub"), Source::Unusable("is a folder".into()));
    assert!(matches!(ws.read_source("out.txt"), Source::Unusable(r) if r.contains("escapes")));
    assert!(matches!(ws.read_source("../x"), Source::Unusable(r) if r.contains("..")));
}

#[test]
fn writes_replace_create_and_delete() {
    let (dir, ws) = project(&[("a.py", b"old\n"), ("gone.py", b"bye\n")]);
    let a = ws.read_source("a.py");
    ws.write(&write("a.py", "new\n"), Some(&a)).expect("replace");
    assert_eq!(fs::read_to_string(dir.path().join("a.py")).expect("read"), "new\n");

    let fresh = ws.read_source("pkg/sub/new.py");
    assert_eq!(fresh, Source::Missing);
    ws.write(&write("pkg/sub/new.py", "n\n"), Some(&fresh)).expect("create");
    assert_eq!(fs::read_to_string(dir.path().join("pkg/sub/new.py")).expect("read"), "n\n");

    let gone = ws.read_source("gone.py");
    ws.write(&FileWrite::Delete { path: "gone.py".into() }, Some(&gone)).expect("delete");
    assert!(!dir.path().join("gone.py").exists());
    assert_eq!(names_in(dir.path()), ["a.py", "pkg"]);
}

#[test]
fn replacing_keeps_permissions_and_new_files_are_not_private() {
    let (dir, ws) = project(&[("run.sh", b"echo 1\n")]);
    let run = dir.path().join("run.sh");
    fs::set_permissions(&run, fs::Permissions::from_mode(0o754)).expect("chmod");
    let src = ws.read_source("run.sh");
    ws.write(&write("run.sh", "echo 2\n"), Some(&src)).expect("write");
    assert_eq!(fs::metadata(&run).expect("meta").permissions().mode() & 0o7777, 0o754);

    ws.write(&write("new.txt", "n\n"), Some(&Source::Missing)).expect("create");
    let mode = fs::metadata(dir.path().join("new.txt")).expect("meta").permissions().mode();
    assert_ne!(mode & 0o044, 0, "a new file is readable by others unless umask says not");
}

#[test]
fn a_deleted_file_written_again_gets_its_permissions_back() {
    let (dir, ws) = project(&[("tool.py", b"print(1)\n"), ("other.py", b"x\n")]);
    let tool = dir.path().join("tool.py");
    fs::set_permissions(&tool, fs::Permissions::from_mode(0o750)).expect("chmod");
    let src = ws.read_source("tool.py");
    ws.write(&FileWrite::Delete { path: "tool.py".into() }, Some(&src)).expect("delete");
    // (An undo of the delete: the file is created again.)
    ws.write(&write("tool.py", "print(1)\n"), Some(&Source::Missing)).expect("create");
    assert_eq!(fs::metadata(&tool).expect("meta").permissions().mode() & 0o7777, 0o750);
    // Another new file is not given them.
    ws.write(&write("fresh.py", "y\n"), Some(&Source::Missing)).expect("create");
    let mode = fs::metadata(dir.path().join("fresh.py")).expect("meta").permissions().mode();
    assert_eq!(mode & 0o111, 0, "a new file is not executable");
}

#[test]
fn writing_through_an_inside_symlink_keeps_the_link() {
    let (dir, ws) = project(&[("real.py", b"a\n")]);
    symlink("real.py", dir.path().join("alias.py")).expect("symlink");
    let src = ws.read_source("alias.py");
    ws.write(&write("alias.py", "b\n"), Some(&src)).expect("write");
    assert!(fs::symlink_metadata(dir.path().join("alias.py")).expect("meta").is_symlink());
    assert_eq!(fs::read_to_string(dir.path().join("real.py")).expect("read"), "b\n");
}

#[test]
fn a_file_changed_since_it_was_read_is_not_written() {
    let (dir, ws) = project(&[("a.py", b"one\n")]);
    let src = ws.read_source("a.py");
    fs::write(dir.path().join("a.py"), "someone else\n").expect("write");
    let err = ws.write(&write("a.py", "two\n"), Some(&src)).expect_err("stale");
    assert!(matches!(err.failure, WriteFailure::Changed(_)), "{err}");
    assert!(!err.is_io());
    assert!(err.to_string().starts_with("a.py: changed on disk"), "{err}");
    assert_eq!(fs::read_to_string(dir.path().join("a.py")).expect("read"), "someone else\n");

    // Longer than what was read, with the same beginning.
    fs::write(dir.path().join("a.py"), "one\n").expect("write");
    let src = ws.read_source("a.py");
    fs::write(dir.path().join("a.py"), "one\nmore\n").expect("write");
    assert!(ws.write(&write("a.py", "two\n"), Some(&src)).is_err());

    let err = ws.write(&write("b.py", "x\n"), Some(&Source::Missing));
    assert!(err.is_ok());
    let err = ws.write(&write("b.py", "y\n"), Some(&Source::Missing)).expect_err("created");
    assert!(matches!(err.failure, WriteFailure::Changed(_)), "{err}");
    let err = ws.write(&write("c.py", "y\n"), None).expect_err("unread");
    assert!(matches!(err.failure, WriteFailure::NotRead), "{err}");
    let binary = Source::Unusable("binary file".into());
    let err = ws.write(&write("d.py", "y\n"), Some(&binary)).expect_err("unusable");
    assert!(matches!(err.failure, WriteFailure::NotEditable(_)), "{err}");
    assert_eq!(names_in(dir.path()), ["a.py", "b.py"]);
}

#[test]
fn unsafe_paths_are_never_written() {
    let outside = TempDir::new().expect("outside");
    let (dir, ws) = project(&[("a.py", b"")]);
    symlink(outside.path(), dir.path().join("lib")).expect("symlink");
    for path in ["lib/new.py", "../x.py", "/tmp/x.py", ".git/config"] {
        let err = ws.write(&write(path, "x\n"), Some(&Source::Missing)).expect_err(path);
        assert!(matches!(err.failure, WriteFailure::Unsafe(_)), "{err}");
    }
    assert!(names_in(outside.path()).is_empty());
    assert!(!dir.path().join(".git").exists());
}

#[test]
fn a_failed_write_leaves_the_target_and_no_temporary_file() {
    let (dir, ws) = project(&[("taken/inner.txt", b"keep\n")]);
    for read in [Source::Missing, Source::Text("keep\n".into())] {
        let err = ws.write(&write("taken", "data"), Some(&read)).expect_err("a folder is there");
        assert!(matches!(err.failure, WriteFailure::Changed(_)), "{err}");
    }
    assert_eq!(names_in(dir.path()), ["taken"]);
    assert_eq!(fs::read_to_string(dir.path().join("taken/inner.txt")).expect("read"), "keep\n");
}

#[cfg(target_os = "linux")]
#[test]
fn folders_made_for_a_write_are_removed_again_outermost_last() {
    let (dir, _ws) = project(&[("a/keep.txt", b"")]);
    let root = fs::canonicalize(dir.path()).expect("root");
    let folder = at::Folder::open(&root, &["a", "b", "c"], true).ok().expect("opened");
    assert!(dir.path().join("a/b/c").is_dir());
    folder.remove_created();
    assert_eq!(names_in(&dir.path().join("a")), ["keep.txt"]);
}

#[cfg(target_os = "linux")]
#[test]
fn a_folder_swapped_for_a_symlink_after_the_check_is_not_followed() {
    // The check says `sub/` is a plain folder; then another program swaps it for a symlink to
    // a folder outside. The write must not land outside.
    let outside = TempDir::new().expect("outside");
    let (dir, ws) = project(&[("sub/old.py", b"x\n")]);
    let checked = ws.resolve("sub/new.py").expect("resolves");
    let checked_old = ws.resolve("sub/old.py").expect("resolves");
    fs::rename(dir.path().join("sub"), dir.path().join("moved")).expect("move");
    fs::write(outside.path().join("old.py"), "x\n").expect("write");
    symlink(outside.path(), dir.path().join("sub")).expect("symlink");
    let err = ws.write_file(&checked, b"n\n", Some(&Source::Missing)).expect_err("refused");
    assert!(
        matches!(&err, WriteFailure::Unsafe(PathRefusal::NotAFolder { at }) if at == "sub"),
        "{err}"
    );
    let text = Source::Text("x\n".into());
    let err = ws.write_file(&checked_old, b"n\n", Some(&text)).expect_err("refused");
    assert!(matches!(err, WriteFailure::Unsafe(_)), "{err}");
    assert_eq!(names_in(outside.path()), ["old.py"]);
    assert_eq!(fs::read_to_string(outside.path().join("old.py")).expect("read"), "x\n");
    assert!(matches!(ws.read_bytes(&checked_old), Err(e) if e.to_string().contains("no longer")));
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_swapped_for_a_symlink_after_the_check_is_not_written_through() {
    let outside = TempDir::new().expect("outside");
    fs::write(outside.path().join("t.py"), "x\n").expect("write");
    let (dir, ws) = project(&[("t.py", b"x\n")]);
    let checked = ws.resolve("t.py").expect("resolves");
    fs::remove_file(dir.path().join("t.py")).expect("rm");
    symlink(outside.path().join("t.py"), dir.path().join("t.py")).expect("symlink");
    let err = ws.write_file(&checked, b"n\n", Some(&Source::Text("x\n".into())));
    assert!(matches!(err, Err(WriteFailure::Changed(_))), "{err:?}");
    assert_eq!(fs::read_to_string(outside.path().join("t.py")).expect("read"), "x\n");
    assert!(fs::symlink_metadata(dir.path().join("t.py")).expect("meta").is_symlink());
}

#[cfg(target_os = "linux")]
#[test]
fn a_write_into_the_displaced_file_after_the_swap_is_given_its_place_back() {
    // Another program opened the file before redline swapped it, and writes through that
    // descriptor just after: into the file redline displaced. It is watched for a window.
    use std::io::{Seek, Write as _};
    use std::os::unix::fs::MetadataExt;
    let (dir, ws) = project(&[("a.txt", b"old\n")]);
    let ws = ws.with_settle_window(std::time::Duration::from_secs(20));
    let path = dir.path().join("a.txt");
    let mut theirs = fs::OpenOptions::new().write(true).open(&path).expect("open");
    let inode = theirs.metadata().expect("meta").ino();
    let writer = std::thread::spawn(move || {
        while fs::metadata(&path).is_ok_and(|m| m.ino() == inode) {
            std::thread::yield_now();
        }
        theirs.set_len(0).expect("truncate");
        theirs.rewind().expect("rewind");
        theirs.write_all(b"theirs\n").expect("write");
    });
    let read = ws.read_source("a.txt");
    let err = ws.write(&write("a.txt", "ours\n"), Some(&read)).expect_err("refused");
    writer.join().expect("writer");
    assert!(matches!(err.failure, WriteFailure::Changed(_)), "{err}");
    assert_eq!(fs::read_to_string(dir.path().join("a.txt")).expect("read"), "theirs\n");
    assert_eq!(names_in(dir.path()), ["a.txt"]);
}

/// Whether this file system grants a write lease to a lone descriptor (tmpfs and ext4 do; some
/// network and overlay file systems do not, and then every write waits its window).
#[cfg(target_os = "linux")]
fn leases_granted(dir: &Path) -> bool {
    use std::os::fd::AsRawFd;
    let probe = dir.join(".lease-probe");
    fs::write(&probe, b"x").expect("probe");
    let file = fs::File::open(&probe).expect("open probe");
    // SAFETY: fcntl with integer arguments on a descriptor we own.
    let granted = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETLEASE, libc::F_WRLCK) } == 0;
    drop(file);
    fs::remove_file(&probe).expect("remove probe");
    granted
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_nobody_has_open_is_replaced_without_waiting_its_window() {
    // The write lease proves no descriptor from before the swap exists: no window to wait.
    let (dir, ws) = project(&[("a.txt", b"old\n")]);
    if !leases_granted(dir.path()) {
        eprintln!("no write leases on this file system: every write waits its window");
        return;
    }
    let ws = ws.with_settle_window(std::time::Duration::from_secs(30));
    let read = ws.read_source("a.txt");
    let started = std::time::Instant::now();
    ws.write(&write("a.txt", "ours\n"), Some(&read)).expect("written");
    assert!(started.elapsed() < std::time::Duration::from_secs(20), "{:?}", started.elapsed());
    assert_eq!(fs::read_to_string(dir.path().join("a.txt")).expect("read"), "ours\n");
    assert_eq!(names_in(dir.path()), ["a.txt"]);
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_another_descriptor_holds_open_waits_its_whole_window() {
    // A reader that could reopen for writing, or a descriptor whose mode we cannot see from
    // here: no lease, so the displaced file is watched for the whole window.
    let (dir, ws) = project(&[("a.txt", b"old\n")]);
    let window = std::time::Duration::from_millis(300);
    let ws = ws.with_settle_window(window);
    let held = fs::File::open(dir.path().join("a.txt")).expect("open");
    let read = ws.read_source("a.txt");
    let started = std::time::Instant::now();
    ws.write(&write("a.txt", "ours\n"), Some(&read)).expect("written");
    assert!(started.elapsed() >= window, "{:?}", started.elapsed());
    drop(held);
    assert_eq!(fs::read_to_string(dir.path().join("a.txt")).expect("read"), "ours\n");
}

#[test]
fn read_only_files_are_refused() {
    let (dir, ws) = project(&[("ro.txt", b"r\n")]);
    let path = dir.path().join("ro.txt");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).expect("chmod");
    let src = ws.read_source("ro.txt");
    let err = ws.write(&write("ro.txt", "w\n"), Some(&src)).expect_err("read-only");
    assert!(matches!(err.failure, WriteFailure::ReadOnly), "{err}");
    assert!(err.to_string().contains("read-only: redline does not change permissions"), "{err}");
    assert_eq!(fs::read_to_string(&path).expect("read"), "r\n");
    assert_eq!(fs::metadata(&path).expect("meta").permissions().mode() & 0o7777, 0o444);
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_with_several_hard_links_is_refused_and_every_link_keeps_it() {
    let (dir, ws) = project(&[("a.txt", b"one\n")]);
    fs::hard_link(dir.path().join("a.txt"), dir.path().join("b.txt")).expect("link");
    let src = ws.read_source("a.txt");
    let err = ws.write(&write("a.txt", "two\n"), Some(&src)).expect_err("hard links");
    assert!(matches!(err.failure, WriteFailure::HardLinks(2)), "{err}");
    for name in ["a.txt", "b.txt"] {
        assert_eq!(fs::read_to_string(dir.path().join(name)).expect("read"), "one\n");
    }
    use std::os::unix::fs::MetadataExt;
    assert_eq!(fs::metadata(dir.path().join("a.txt")).expect("meta").nlink(), 2);
}

#[cfg(target_os = "linux")]
#[test]
fn extended_attributes_are_kept() {
    let (dir, ws) = project(&[("a.txt", b"one\n")]);
    let path = dir.path().join("a.txt");
    let file = fs::File::open(&path).expect("open");
    let set =
        rustix::fs::fsetxattr(&file, "user.redline.test", b"kept", rustix::fs::XattrFlags::empty());
    drop(file);
    if let Err(e) = set {
        eprintln!("skipped: this file system does not take user extended attributes ({e})");
        return;
    }
    let src = ws.read_source("a.txt");
    ws.write(&write("a.txt", "two\n"), Some(&src)).expect("written");
    assert_eq!(fs::read_to_string(&path).expect("read"), "two\n");
    let file = fs::File::open(&path).expect("open");
    let mut buf = [0u8; 16];
    let n = rustix::fs::fgetxattr(&file, "user.redline.test", &mut buf[..]).expect("kept");
    assert_eq!(&buf[..n], b"kept");
}

#[cfg(target_os = "linux")]
#[test]
fn owner_and_group_are_kept() {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: giving a file to another owner needs root");
        return;
    }
    let (dir, ws) = project(&[("a.sh", b"one\n")]);
    let path = dir.path().join("a.sh");
    std::os::unix::fs::chown(&path, Some(12345), Some(23456)).expect("chown");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o6754)).expect("chmod");
    let src = ws.read_source("a.sh");
    ws.write(&write("a.sh", "two\n"), Some(&src)).expect("written");
    let meta = fs::metadata(&path).expect("meta");
    assert_eq!((meta.uid(), meta.gid()), (12345, 23456));
    assert_eq!(meta.mode() & 0o7777, 0o6754, "set-id bits survive the change of owner");
    assert_eq!(fs::read_to_string(&path).expect("read"), "two\n");
}

#[cfg(target_os = "linux")]
#[test]
fn leftover_temporary_files_of_ended_runs_are_removed_and_never_listed() {
    let mut child = std::process::Command::new("true").spawn().expect("true runs");
    let dead = child.id();
    child.wait().expect("waited");
    let dead_name = format!(".redline-{dead}-0badf00d.tmp");
    let live_name = format!(".redline-{}-0000beef.tmp", std::process::id());
    let (dir, ws) = project(&[
        ("src/a.py", b"one\n"),
        (&format!("src/{dead_name}"), b"half"),
        (&format!("src/{live_name}"), b"busy"),
        (".redline-old.tmp", b"x"),
    ]);
    assert_eq!(ws.list_files(), ["src/a.py"]);
    let src = ws.read_source("src/a.py");
    ws.write(&write("src/a.py", "two\n"), Some(&src)).expect("written");
    assert_eq!(names_in(&dir.path().join("src")), [live_name.as_str(), "a.py"]);
}

#[test]
fn a_read_only_folder_fails_cleanly() {
    let (dir, ws) = project(&[("ro/a.py", b"old\n")]);
    let folder = dir.path().join("ro");
    fs::set_permissions(&folder, fs::Permissions::from_mode(0o555)).expect("chmod");
    let src = ws.read_source("ro/a.py");
    let result = ws.write(&write("ro/a.py", "new\n"), Some(&src));
    fs::set_permissions(&folder, fs::Permissions::from_mode(0o755)).expect("chmod");
    // Root ignores folder permissions; then the write simply succeeds.
    if let Err(err) = result {
        assert!(err.is_io(), "{err}");
        assert_eq!(fs::read_to_string(folder.join("a.py")).expect("read"), "old\n");
        assert_eq!(names_in(&folder), ["a.py"]);
    }
}
