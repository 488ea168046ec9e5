//! Watching project files for changes made by others (the user's editor, a formatter, git).
//!
//! A [`Watcher`] wraps a debounced `notify` watcher: a burst of events on one path (an editor's
//! save is often several) becomes one report of that path, project-relative, on a channel. Files
//! are followed through their folder, not their inode, so an editor that saves by writing a new
//! file and renaming it over the old one is still seen. In a whole-project watch, `.gitignore`d
//! paths and everything under `.git/` are dropped; redline's own temporary files are always.
//!
//! Git operations (checkout, rebase, merge, cherry-pick) rewrite many files in a burst. Each
//! batch says whether git moved `HEAD` or a branch in it; [`git_state`] tells whether the index
//! is locked or an operation is in progress; [`Gate`] holds changes for a short grace time and
//! decides whether they were git's, so that they are re-read but start nothing.
//!
//! Only events that can mean new content are taken: writes, creations, removals and renames.
//! Opening, reading and closing a file unwritten (`cat`, `grep -r`, `git status`, and redline's
//! own re-read of a changed file) are events too on some platforms (inotify's `IN_OPEN`), and
//! acting on them made every read start a read of ours, forever. [`is_content_change`] drops
//! them before they are debounced. Even then an event is only a hint: [`Known`] compares what
//! the file holds with what was last seen before anything happens.
//!
//! Not for: deciding what a change means (`runtime`, `app`).

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use notify::event::{EventKind, ModifyKind};
use notify::{EventHandler, RecommendedWatcher, RecursiveMode, WatcherKind};
use notify_debouncer_mini::{Config, DebounceEventResult, Debouncer, new_debouncer_opt};

/// Quiet time after the last event on a path before it is reported.
pub const DEBOUNCE: Duration = Duration::from_millis(60);

/// One debounced burst of changes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Batch {
    /// Changed project files, project-relative.
    pub paths: Vec<String>,
    /// Git moved `HEAD` or a branch, or began a rebase, merge, cherry-pick or revert in it: the
    /// work-tree changes around it are git's.
    pub git: bool,
}

/// What the watcher reports: a batch of changes, or why watching failed.
pub type Report = Result<Batch, String>;

/// A debounced watcher over a project.
pub struct Watcher {
    debouncer: Debouncer<ContentWatcher>,
    root: PathBuf,
    folders: BTreeSet<PathBuf>,
    /// The files followed so far (through `folders`): following one again costs a lookup.
    files: HashSet<String>,
    whole: bool,
}

impl Watcher {
    /// Start watching nothing yet under `root` (canonical); each report goes to `send`.
    pub fn start(root: &Path, send: impl Fn(Report) + Send + 'static) -> Result<Watcher> {
        let root = root.to_path_buf();
        let filter = Filter::new(&root);
        let config = Config::default().with_timeout(DEBOUNCE);
        let debouncer =
            new_debouncer_opt(config, move |result: DebounceEventResult| match result {
                Ok(events) => {
                    let mut paths: Vec<String> =
                        events.iter().filter_map(|e| filter.relative(&e.path)).collect();
                    paths.sort();
                    paths.dedup();
                    let git = events.iter().any(|e| filter.is_git_operation(&e.path));
                    if !paths.is_empty() || git {
                        send(Ok(Batch { paths, git }));
                    }
                }
                Err(e) => send(Err(format!("watching files failed: {e}"))),
            })
            .context("cannot start watching files")?;
        Ok(Watcher {
            debouncer,
            root,
            folders: BTreeSet::new(),
            files: HashSet::new(),
            whole: false,
        })
    }

    /// Follow one project file (through its folder). Following twice is harmless.
    pub fn follow(&mut self, rel: &str) -> Result<()> {
        if self.whole || self.files.contains(rel) {
            return Ok(());
        }
        self.files.insert(rel.to_string());
        let folder = match Path::new(rel).parent() {
            Some(p) if !p.as_os_str().is_empty() => self.root.join(p),
            _ => self.root.clone(),
        };
        if self.folders.contains(&folder) || !folder.is_dir() {
            return Ok(());
        }
        self.debouncer
            .watcher()
            .watch(&folder, RecursiveMode::NonRecursive)
            .with_context(|| format!("cannot watch {}", folder.display()))?;
        self.folders.insert(folder);
        Ok(())
    }

    /// Follow the whole project, recursively.
    pub fn follow_project(&mut self) -> Result<()> {
        for folder in std::mem::take(&mut self.folders) {
            let _ = self.debouncer.watcher().unwatch(&folder);
        }
        self.debouncer
            .watcher()
            .watch(&self.root, RecursiveMode::Recursive)
            .with_context(|| format!("cannot watch {}", self.root.display()))?;
        self.whole = true;
        Ok(())
    }
}

/// Whether an event of this kind can mean a file holds something new: a write, a creation, a
/// removal, a rename. Not an access (open, read, close without writing: `cat`, `grep`, our own
/// re-read) and not a change of metadata alone (`touch`, `chmod`, `git status` refreshing the
/// index's view). `Any` is a backend that cannot tell: the content check decides.
pub fn is_content_change(kind: &EventKind) -> bool {
    match kind {
        EventKind::Create(_) | EventKind::Remove(_) | EventKind::Any => true,
        EventKind::Modify(ModifyKind::Metadata(_)) => false,
        EventKind::Modify(_) => true,
        EventKind::Access(_) | EventKind::Other => false,
    }
}

/// The platform's watcher with every event that cannot mean new content dropped at the source,
/// so that the debouncer never sees them (it keeps paths, not kinds).
pub struct ContentWatcher {
    inner: RecommendedWatcher,
}

impl notify::Watcher for ContentWatcher {
    fn new<F: EventHandler>(mut handler: F, config: notify::Config) -> notify::Result<Self> {
        let filtered = move |event: notify::Result<notify::Event>| match event {
            Ok(e) if !is_content_change(&e.kind) => {}
            other => handler.handle_event(other),
        };
        Ok(ContentWatcher { inner: RecommendedWatcher::new(filtered, config)? })
    }

    fn watch(&mut self, path: &Path, mode: RecursiveMode) -> notify::Result<()> {
        self.inner.watch(path, mode)
    }

    fn unwatch(&mut self, path: &Path) -> notify::Result<()> {
        self.inner.unwatch(path)
    }

    fn kind() -> WatcherKind {
        RecommendedWatcher::kind()
    }
}

/// Which event paths are reported, and how they are named.
struct Filter {
    root: PathBuf,
    ignore: Gitignore,
}

impl Filter {
    fn new(root: &Path) -> Filter {
        let mut builder = GitignoreBuilder::new(root);
        // The root's own ignore files; nested ones are rare enough that the project listing
        // (which honours them all) is where they matter.
        for name in [".gitignore", ".ignore", ".git/info/exclude"] {
            let _ = builder.add(root.join(name));
        }
        let ignore = builder.build().unwrap_or_else(|_| Gitignore::empty());
        Filter { root: root.to_path_buf(), ignore }
    }

    /// Whether an event under `.git/` is git moving `HEAD` or a branch, or starting an
    /// operation (not the index alone: editors' `git status` polls touch it all the time).
    fn is_git_operation(&self, path: &Path) -> bool {
        let Ok(rel) = path.strip_prefix(self.root.join(".git")) else { return false };
        let parts: Vec<&str> = rel.components().filter_map(|c| c.as_os_str().to_str()).collect();
        match parts.as_slice() {
            [name] | [name, ..] if OPERATION_MARKERS.contains(name) => true,
            // A branch moved (a file under refs/heads, not the folder), or the stash.
            ["refs", "heads", _, ..] | ["refs", "stash"] | ["logs", "HEAD"] => true,
            _ => false,
        }
    }

    /// The project-relative, `/`-separated path of an event, or `None` when it is not reported.
    fn relative(&self, path: &Path) -> Option<String> {
        let rel = path.strip_prefix(&self.root).ok()?;
        let parts: Vec<&str> =
            rel.components().map(|c| c.as_os_str().to_str()).collect::<Option<_>>()?;
        let name = *parts.last()?;
        if parts.iter().any(|p| p.eq_ignore_ascii_case(".git")) {
            return None;
        }
        if crate::shell::workspace::is_temp_name(name) {
            return None;
        }
        let is_dir = path.is_dir();
        if is_dir || self.ignore.matched_path_or_any_parents(rel, is_dir).is_ignore() {
            return None;
        }
        Some(parts.join("/"))
    }
}

/// What `HEAD`-moving operations leave in `.git/` while they run (or write when they end).
const OPERATION_MARKERS: &[&str] = &[
    "HEAD",
    "ORIG_HEAD",
    "MERGE_HEAD",
    "CHERRY_PICK_HEAD",
    "REVERT_HEAD",
    "rebase-merge",
    "rebase-apply",
    "sequencer",
];

/// What git is doing in a project, as its folder shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GitState {
    Idle,
    /// The index is locked: some git command is writing (changes wait for it).
    Locked,
    /// A rebase, merge, cherry-pick or revert is in progress (its changes are git's).
    Operation,
}

/// What git is doing in the project at `root`.
pub fn git_state(root: &Path) -> GitState {
    let Some(git) = git_dir(root) else { return GitState::Idle };
    let operation = OPERATION_MARKERS.iter().skip(2).any(|name| git.join(name).exists());
    if operation {
        GitState::Operation
    } else if git.join("index.lock").exists() {
        GitState::Locked
    } else {
        GitState::Idle
    }
}

/// The project's git folder: `.git` itself, or where a `.git` file (a worktree, a submodule)
/// points.
fn git_dir(root: &Path) -> Option<PathBuf> {
    let dot = root.join(".git");
    if dot.is_dir() {
        return Some(dot);
    }
    let text = std::fs::read_to_string(&dot).ok()?;
    let target = text.lines().find_map(|l| l.strip_prefix("gitdir:"))?.trim();
    Some(root.join(target))
}

mod gate;
mod known;
pub use gate::{Gate, Release};
pub use known::{Known, Stamp};

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Instant;

    fn watch(root: &Path, whole: bool) -> (Watcher, mpsc::Receiver<Report>) {
        let (tx, rx) = mpsc::channel();
        let mut w = Watcher::start(root, move |r| {
            let _ = tx.send(r);
        })
        .expect("watcher");
        if whole {
            w.follow_project().expect("watch the project");
        }
        (w, rx)
    }

    /// The paths reported until `want` shows up (or a generous limit passes).
    fn until(rx: &mpsc::Receiver<Report>, want: &str) -> Vec<String> {
        let start = Instant::now();
        let mut seen = Vec::new();
        while start.elapsed() < Duration::from_secs(20) {
            if let Ok(Ok(batch)) = rx.recv_timeout(Duration::from_millis(100)) {
                seen.extend(batch.paths);
                if seen.iter().any(|p| p == want) {
                    break;
                }
            }
        }
        seen
    }

    #[test]
    fn a_followed_file_is_reported_when_saved_in_place_or_by_rename_or_removed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("src")).unwrap();
        std::fs::write(root.join("src/a.py"), "a\n").unwrap();
        let (mut w, rx) = watch(&root, false);
        w.follow("src/a.py").unwrap();
        std::fs::write(root.join("src/a.py"), "b\n").unwrap();
        assert!(until(&rx, "src/a.py").contains(&"src/a.py".to_string()));
        std::fs::write(root.join("src/.a.py.swp"), "x").unwrap();
        std::fs::rename(root.join("src/.a.py.swp"), root.join("src/a.py")).unwrap();
        assert!(until(&rx, "src/a.py").contains(&"src/a.py".to_string()));
        std::fs::remove_file(root.join("src/a.py")).unwrap();
        assert!(until(&rx, "src/a.py").contains(&"src/a.py".to_string()));
    }

    #[test]
    fn a_project_watch_skips_ignored_files_git_and_redlines_own_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::write(root.join(".gitignore"), "build/\n*.log\n").unwrap();
        std::fs::create_dir(root.join("build")).unwrap();
        let (_w, rx) = watch(&root, true);
        std::fs::write(root.join("build/out.txt"), "x").unwrap();
        std::fs::write(root.join("debug.log"), "x").unwrap();
        std::fs::write(root.join(".git/index"), "x").unwrap();
        std::fs::write(root.join(".redline-abc.tmp"), "x").unwrap();
        std::fs::write(root.join("main.rs"), "fn main() {}\n").unwrap();
        let seen = until(&rx, "main.rs");
        assert_eq!(seen, ["main.rs"]);
    }

    #[test]
    fn head_moving_is_reported_as_git_and_the_index_alone_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join(".git/refs/heads")).unwrap();
        let (_w, rx) = watch(&root, true);
        let first = std::cell::Cell::new(true);
        // The next batch that is not a late part of `a.py`'s save (a loaded machine may
        // report its events in two batches).
        let next_git = |rx: &mpsc::Receiver<Report>| {
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(20) {
                if let Ok(Ok(batch)) = rx.recv_timeout(Duration::from_millis(100)) {
                    if !batch.git && batch.paths == ["a.py"] && !first.replace(false) {
                        continue;
                    }
                    return Some(batch.git);
                }
            }
            None
        };
        std::fs::write(root.join(".git/index.lock"), "x").unwrap();
        std::fs::write(root.join("a.py"), "x\n").unwrap();
        assert_eq!(next_git(&rx), Some(false), "git status polls lock the index too");
        std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/other\n").unwrap();
        assert_eq!(next_git(&rx), Some(true));
        std::fs::write(root.join(".git/refs/heads/other"), "0123\n").unwrap();
        assert_eq!(next_git(&rx), Some(true));
    }

    #[test]
    fn only_kinds_that_can_mean_new_content_are_taken() {
        use notify::event::{
            AccessKind, AccessMode, CreateKind, DataChange, MetadataKind, ModifyKind, RemoveKind,
            RenameMode,
        };
        let taken = [
            EventKind::Create(CreateKind::File),
            EventKind::Remove(RemoveKind::File),
            EventKind::Modify(ModifyKind::Data(DataChange::Any)),
            EventKind::Modify(ModifyKind::Data(DataChange::Content)),
            EventKind::Modify(ModifyKind::Name(RenameMode::To)),
            EventKind::Modify(ModifyKind::Any),
            EventKind::Any,
        ];
        let dropped = [
            EventKind::Access(AccessKind::Open(AccessMode::Any)),
            EventKind::Access(AccessKind::Read),
            EventKind::Access(AccessKind::Close(AccessMode::Read)),
            EventKind::Access(AccessKind::Close(AccessMode::Write)),
            EventKind::Modify(ModifyKind::Metadata(MetadataKind::Any)),
            EventKind::Modify(ModifyKind::Metadata(MetadataKind::WriteTime)),
            EventKind::Other,
        ];
        for kind in taken {
            assert!(is_content_change(&kind), "{kind:?}");
        }
        for kind in dropped {
            assert!(!is_content_change(&kind), "{kind:?}");
        }
    }

    #[test]
    fn reading_listing_and_touching_files_reports_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("todo")).unwrap();
        let store = "def remove(self, task_id):  # do not crash on unknown ids AI!\n";
        std::fs::write(root.join("todo/store.py"), store).unwrap();
        let (_w, rx) = watch(&root, true);
        for _ in 0..3 {
            assert_eq!(std::fs::read_to_string(root.join("todo/store.py")).unwrap(), store);
            let _ = std::fs::read_dir(root.join("todo")).unwrap().count();
            // `touch` (both times; setting the modification time alone is a write to inotify,
            // and is left to the content check).
            let f = std::fs::File::open(root.join("todo/store.py")).unwrap();
            let now = std::time::SystemTime::now();
            f.set_times(std::fs::FileTimes::new().set_accessed(now).set_modified(now)).unwrap();
        }
        // Something that is a change, to know the reads were seen and dropped, not late.
        std::fs::write(root.join("sentinel.py"), "x\n").unwrap();
        assert_eq!(until(&rx, "sentinel.py"), ["sentinel.py"]);
    }

    #[test]
    fn git_operations_in_progress_are_seen() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        assert_eq!(git_state(root), GitState::Idle, "no repository");
        std::fs::create_dir(root.join(".git")).unwrap();
        assert_eq!(git_state(root), GitState::Idle);
        std::fs::write(root.join(".git/index.lock"), "").unwrap();
        assert_eq!(git_state(root), GitState::Locked);
        std::fs::remove_file(root.join(".git/index.lock")).unwrap();
        std::fs::create_dir(root.join(".git/rebase-merge")).unwrap();
        assert_eq!(git_state(root), GitState::Operation);
        // A worktree's `.git` file points elsewhere.
        let other = tempfile::tempdir().unwrap();
        std::fs::write(
            other.path().join(".git"),
            format!("gitdir: {}\n", root.join(".git").display()),
        )
        .unwrap();
        assert_eq!(git_state(other.path()), GitState::Operation);
    }
}
