//! The runtime's side of following changes on disk, on a thread of its own: the watcher, what
//! each file was last seen to hold, the grace time around git's bursts, and every read these
//! need. The loop only tells it which files the app follows ([`Follower::follow`], from the
//! app's `Follow` effect) and receives messages: `FileChanged` for files that hold something new,
//! `GitBusy` around git's changes, `WatchReady` once a whole project was read, `WatchError`.
//! Nothing here runs on the loop's task: a checkout of 25,000 files, or a `.git` folder on a
//! slow disk, never holds up a key or a frame.
//!
//! Not for: which events come (`shell::watcher`), what a change means (`app`: a change to what
//! the review already holds is no change there).

use std::collections::HashSet;
use std::path::Path;
use std::sync::mpsc::{self as std_mpsc, RecvTimeoutError};
use std::time::{Duration, Instant, SystemTime};

use tokio::sync::mpsc;

use super::Watch;
use crate::app::Msg;
use crate::core::file::Source;
use crate::shell::watcher::{Batch, Gate, Known, Stamp, Watcher, git_state};
use crate::shell::workspace::Workspace;

/// How often waiting changes are looked at while the gate holds some.
const TICK: Duration = Duration::from_millis(80);

/// What the follower's thread is told.
enum Note {
    /// A batch of changes the watcher saw.
    Batch(Batch),
    /// Watching failed.
    Failed(String),
    /// The app follows this file from now on.
    Follow(String),
    /// The loop is over.
    Stop,
}

/// The loop's handle on the thread that follows changes on disk; dropping it ends the thread
/// (and its watcher).
pub(super) struct Follower {
    notes: std_mpsc::Sender<Note>,
}

impl Follower {
    /// Follow `path` (project-relative) from now on; in a whole-project watch every file is.
    pub fn follow(&self, path: &str) {
        let _ = self.notes.send(Note::Follow(path.to_string()));
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        let _ = self.notes.send(Note::Stop);
    }
}

/// Start following `workspace` as `watch` says; messages for the app go to `msgs`. `None` when
/// nothing is to be watched.
pub(super) fn start(
    workspace: &Workspace,
    watch: Watch,
    msgs: mpsc::UnboundedSender<Msg>,
) -> Option<Follower> {
    if watch == Watch::Off {
        return None;
    }
    let (notes, inbox) = std_mpsc::channel();
    let reports = notes.clone();
    let workspace = workspace.clone();
    let failed = msgs.clone();
    let spawned = std::thread::Builder::new().name("redline-follow".into()).spawn(move || {
        let watcher = Watcher::start(workspace.root(), move |report| {
            let _ = reports.send(match report {
                Ok(batch) => Note::Batch(batch),
                Err(why) => Note::Failed(why),
            });
        })
        .and_then(|mut w| {
            if watch == Watch::Project {
                w.follow_project()?;
            }
            Ok(w)
        });
        match watcher {
            Ok(watcher) => Following::new(workspace, watch, watcher, msgs).run(inbox),
            Err(e) => {
                let _ = msgs.send(Msg::WatchError(format!("{e:#}")));
            }
        }
    });
    match spawned {
        Ok(_) => Some(Follower { notes }),
        Err(e) => {
            let _ = failed.send(Msg::WatchError(format!("cannot start following files: {e}")));
            None
        }
    }
}

/// The follower thread's state.
struct Following {
    workspace: Workspace,
    watch: Watch,
    watcher: Watcher,
    msgs: mpsc::UnboundedSender<Msg>,
    /// What each file was last seen to hold (an event is a hint, not a change).
    known: Known,
    /// The files the app follows (in a whole-project watch: all of them).
    followed: HashSet<String>,
    gate: Gate,
}

impl Following {
    fn new(
        workspace: Workspace,
        watch: Watch,
        watcher: Watcher,
        msgs: mpsc::UnboundedSender<Msg>,
    ) -> Following {
        Following {
            workspace,
            watch,
            watcher,
            msgs,
            known: Known::new(),
            followed: HashSet::new(),
            gate: Gate::default(),
        }
    }

    fn run(mut self, inbox: std_mpsc::Receiver<Note>) {
        if self.watch == Watch::Project {
            // The whole project as it is now, with the trigger comments already in it (they ask
            // nothing until changed); changes seen meanwhile wait in the inbox.
            let (known, triggers) = Known::baseline(&self.workspace, &self.workspace.list_files());
            let files = known.len();
            self.known = known;
            let _ = self.msgs.send(Msg::WatchReady { files, triggers });
        }
        loop {
            let note = if self.gate.holding() {
                match inbox.recv_timeout(TICK) {
                    Ok(note) => Some(note),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            } else {
                match inbox.recv() {
                    Ok(note) => Some(note),
                    Err(_) => return,
                }
            };
            match note {
                Some(Note::Stop) => return,
                Some(Note::Batch(batch)) => self.gate.batch(batch, Instant::now()),
                Some(Note::Failed(why)) => {
                    let _ = self.msgs.send(Msg::WatchError(why));
                }
                Some(Note::Follow(path)) => self.follow(path),
                None => {}
            }
            if self.msgs.is_closed() {
                return;
            }
            self.release();
        }
    }

    fn follow(&mut self, path: String) {
        if self.watch != Watch::Files || self.followed.contains(&path) {
            return;
        }
        if let Err(e) = self.watcher.follow(&path) {
            let _ = self.msgs.send(Msg::WatchError(format!("{e:#}")));
        }
        // Without this a followed file that was never changed before being removed would be
        // nothing new (unknown, and missing): its hunks would stay pending on a file that is
        // gone until a write found out.
        let stamp = Stamp::of(&self.workspace.root().join(&path));
        self.known.follow(&path, stamp, SystemTime::now());
        self.followed.insert(path);
    }

    /// Hand over the changes the gate lets through now. Git's are read again between two
    /// messages that keep them from starting anything; one git operation is one release.
    fn release(&mut self) {
        if !self.gate.holding() {
            return;
        }
        let root = self.workspace.root().to_path_buf();
        let Some(release) = self.gate.due(Instant::now(), git_state(&root)) else { return };
        let changed = self.changed_files(&root, release.paths);
        if changed.is_empty() {
            return;
        }
        if release.by_git {
            let _ = self.msgs.send(Msg::GitBusy(true));
        }
        for (path, source) in changed {
            let _ = self.msgs.send(Msg::FileChanged { path, source });
        }
        if release.by_git {
            let _ = self.msgs.send(Msg::GitBusy(false));
        }
    }

    /// Of the files the watcher reported, those the app follows whose content differs from
    /// what was last seen of them.
    fn changed_files(&mut self, root: &Path, paths: Vec<String>) -> Vec<(String, Source)> {
        let mut out = Vec::new();
        for path in paths {
            if self.watch == Watch::Files && !self.followed.contains(&path) {
                continue;
            }
            let stamp = Stamp::of(&root.join(&path));
            let read = || self.workspace.read_source(&path);
            if let Some(source) = self.known.changed(&path, stamp, read, SystemTime::now()) {
                out.push((path, source));
            }
        }
        out
    }
}
