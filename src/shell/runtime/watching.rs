//! The runtime's side of following changes on disk: starting the watcher the session asks for,
//! knowing what each file held, and handing the app only the changes that bring new content.
//!
//! Not for: which events come (`shell::watcher`), what a change means (`app`).

use std::path::Path;
use std::time::{Instant, SystemTime};

use tokio::sync::mpsc;

use super::Watch;
use crate::app::{App, Msg};
use crate::core::file::Source;
use crate::core::trigger::TriggerId;
use crate::shell::watcher::{self, Gate, Known, Stamp, Watcher, git_state};
use crate::shell::workspace::Workspace;

/// Hand over the changes the gate lets through now. Git's are read again between two messages
/// that keep them from starting anything; one git operation is one release.
pub(super) fn release_changes(
    app: &App,
    workspace: &Workspace,
    gate: &mut Gate,
    known: &mut Known,
    tx: &mpsc::UnboundedSender<Msg>,
) {
    if !gate.holding() {
        return;
    }
    let Some(release) = gate.due(Instant::now(), git_state(workspace.root())) else { return };
    let changed = changed_files(app, workspace, known, release.paths);
    if changed.is_empty() {
        return;
    }
    if release.by_git {
        let _ = tx.send(Msg::GitBusy(true));
    }
    for (path, source) in changed {
        let _ = tx.send(Msg::FileChanged { path, source });
    }
    if release.by_git {
        let _ = tx.send(Msg::GitBusy(false));
    }
}

/// Of the files the watcher reported, those the app follows whose content is new: not what was
/// last seen of them (an event is a hint, not a change), and not what the app holds (redline's
/// own writes come back through the watcher too).
fn changed_files(
    app: &App,
    workspace: &Workspace,
    known: &mut Known,
    paths: Vec<String>,
) -> Vec<(String, Source)> {
    let mut out = Vec::new();
    for path in paths.into_iter().filter(|p| app.follows(p)) {
        let stamp = Stamp::of(&workspace.root().join(&path));
        let read = || workspace.read_source(&path);
        let Some(source) = known.changed(&path, stamp, read, SystemTime::now()) else { continue };
        let new = match app.review.source(&path) {
            Some(held) => *held != source,
            None => source != Source::Missing,
        };
        if new {
            out.push((path, source));
        }
    }
    out
}

/// What each file was last seen to hold, for a session that watches: empty at once for the
/// files under review; for a whole project, read in a thread (it may be many files) and sent
/// on `ready` with the trigger comments already there.
pub(super) fn start_known(
    workspace: &Workspace,
    watch: Watch,
    watching: bool,
    ready: mpsc::UnboundedSender<(Known, Vec<TriggerId>)>,
) -> Option<Known> {
    match watch {
        _ if !watching => None,
        Watch::Off => None,
        Watch::Files => Some(Known::new()),
        Watch::Project => {
            let root = workspace.root().to_path_buf();
            std::thread::spawn(move || {
                let _ = ready.send(read_project(&root));
            });
            None
        }
    }
}

fn read_project(root: &Path) -> (Known, Vec<TriggerId>) {
    match Workspace::open(root) {
        Ok(ws) => Known::baseline(&ws, &ws.list_files()),
        Err(_) => (Known::new(), Vec::new()),
    }
}

/// The watcher the session asks for; a failure to start one is reported, not fatal.
pub(super) fn start_watcher(
    workspace: &Workspace,
    watch: Watch,
    reports: mpsc::UnboundedSender<watcher::Report>,
    msgs: &mpsc::UnboundedSender<Msg>,
) -> Option<Watcher> {
    if watch == Watch::Off {
        return None;
    }
    let started = Watcher::start(workspace.root(), move |r| {
        let _ = reports.send(r);
    })
    .and_then(|mut w| {
        if watch == Watch::Project {
            w.follow_project()?;
        }
        Ok(w)
    });
    match started {
        Ok(w) => Some(w),
        Err(e) => {
            let _ = msgs.send(Msg::WatchError(format!("{e:#}")));
            None
        }
    }
}
