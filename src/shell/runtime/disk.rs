//! The one place the app's file effects are carried out: the [`Disk`] interface (the real
//! [`Workspace`], or [`MemoryDisk`] for replays and tests), the [`Job`]s the loop hands to the
//! disk worker, and the worker itself, a thread of its own so that no read, fsync or rename runs
//! on the UI task. Jobs run one at a time in the order given (two writes to one file must land
//! in order); each one's result comes back to the loop as a [`Msg`]. Placing a new hunk is
//! the other work kept off the UI task: the same worker runs it, so a replay waits for it as it
//! waits for a write.
//!
//! Not for: deciding what to write (`app`, `core::review`), the write's safety (`workspace`).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::mpsc;

use crate::app::Msg;
use crate::core::execute::After;
use crate::core::file::{FileWrite, Source};
use crate::core::review::{Effect, PlaceJob};
use crate::shell::workspace::{Workspace, WriteError, WriteFailure};

/// Files as the loop reads and writes them.
pub trait Disk: Send + Sync + 'static {
    /// What `path` holds now.
    fn read(&self, path: &str) -> Source;
    /// Carry out `write` only if the file still holds `expected` (a review never writes over
    /// what it has not seen).
    fn write(&self, write: &FileWrite, expected: &Source) -> Result<(), WriteError>;
    /// Make `path` hold `source` whatever it holds now: a replay re-enacting what another
    /// program did to the file. `Err` says why it could not.
    fn put(&self, path: &str, source: &Source) -> Result<(), String>;
}

impl Disk for Workspace {
    fn read(&self, path: &str) -> Source {
        self.read_source(path)
    }

    fn write(&self, write: &FileWrite, expected: &Source) -> Result<(), WriteError> {
        Workspace::write(self, write, Some(expected))
    }

    fn put(&self, path: &str, source: &Source) -> Result<(), String> {
        let write = match source {
            Source::Text(text) => FileWrite::Write { path: path.to_string(), text: text.clone() },
            Source::Missing => FileWrite::Delete { path: path.to_string() },
            // What made it unusable cannot be made again; the file stays as it is.
            Source::Unusable(_) => return Ok(()),
        };
        let before = self.read_source(path);
        if before == *source {
            return Ok(());
        }
        Workspace::write(self, &write, Some(&before)).map_err(|e| e.to_string())
    }
}

/// Files held in memory: a headless replay's disk, and the tests'.
#[derive(Debug, Default)]
pub struct MemoryDisk {
    files: Mutex<BTreeMap<String, Source>>,
}

impl MemoryDisk {
    pub fn new(files: impl IntoIterator<Item = (String, Source)>) -> MemoryDisk {
        MemoryDisk { files: Mutex::new(files.into_iter().collect()) }
    }

    /// Every file as it is now.
    pub fn files(&self) -> BTreeMap<String, Source> {
        self.lock().clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Source>> {
        // A panic elsewhere leaves the map whole: each change is one insert.
        self.files.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Disk for MemoryDisk {
    fn read(&self, path: &str) -> Source {
        self.lock().get(path).cloned().unwrap_or(Source::Missing)
    }

    fn write(&self, write: &FileWrite, expected: &Source) -> Result<(), WriteError> {
        let path = write.path();
        let mut files = self.lock();
        let now = files.get(path).cloned().unwrap_or(Source::Missing);
        // The same refusals, worded the same, as the workspace's check.
        let failure = match (expected, &now) {
            (a, b) if a == b => None,
            (_, Source::Unusable(why)) => Some(WriteFailure::NotEditable(why.clone())),
            (Source::Missing, _) => Some(WriteFailure::Changed("it was created")),
            (_, Source::Missing) => Some(WriteFailure::Changed("it was deleted")),
            _ => Some(WriteFailure::Changed("its content differs")),
        };
        if let Some(failure) = failure {
            return Err(WriteError { path: path.to_string(), failure });
        }
        let after = match write {
            FileWrite::Write { text, .. } => Source::Text(text.clone()),
            FileWrite::Delete { .. } => Source::Missing,
        };
        files.insert(path.to_string(), after);
        Ok(())
    }

    fn put(&self, path: &str, source: &Source) -> Result<(), String> {
        self.lock().insert(path.to_string(), source.clone());
        Ok(())
    }
}

/// One piece of disk work the loop hands to the worker.
#[derive(Debug)]
pub struct Job {
    /// First make this file hold this (a replay re-enacting another program's change).
    pub put: Option<(String, Source)>,
    pub work: Work,
}

#[derive(Debug)]
pub enum Work {
    /// A review write (or, for `Effect::Read`, a read).
    Write {
        effect: Effect,
        undo: bool,
    },
    Read {
        path: String,
    },
    /// Nothing to do on disk: hand this message over once the `put` is done.
    Feed(Msg),
    /// Place a new hunk (pure work, off the UI task like the disk's).
    Place(PlaceJob),
}

/// What came back from the disk: the message for the app, and what the replay could not do.
#[derive(Debug)]
pub struct Done {
    pub msg: Msg,
    pub notice: Option<String>,
}

impl Job {
    pub fn new(work: Work) -> Job {
        Job { put: None, work }
    }

    /// Carry the job out against `disk`.
    pub fn run(self, disk: &dyn Disk) -> Done {
        let notice = self.put.and_then(|(path, source)| {
            disk.put(&path, &source)
                .err()
                .map(|e| format!("replay: cannot change {path} as recorded: {e}"))
        });
        let msg = match self.work {
            Work::Write { effect, undo } => carry_out_write(disk, effect, undo),
            Work::Read { path } => {
                let source = disk.read(&path);
                Msg::FileRead { path, source }
            }
            Work::Feed(msg) => msg,
            Work::Place(job) => Msg::Placed(job.run()),
        };
        Done { msg, notice }
    }
}

/// Carry out a review write, refusing if the file no longer holds what the review expects: the
/// message that reports it (done, stale with what the file holds now, or failed).
pub fn carry_out_write(disk: &dyn Disk, effect: Effect, undo: bool) -> Msg {
    let (hunk, path, expected, write, after) = match effect {
        Effect::Write { hunk, path, expected, text } => {
            let w = FileWrite::Write { path: path.clone(), text: text.clone() };
            (hunk, path, expected, w, After::Text(text))
        }
        Effect::Delete { hunk, path, expected } => {
            let w = FileWrite::Delete { path: path.clone() };
            (hunk, path, Some(expected), w, After::Deleted)
        }
        Effect::Read { path } => {
            let source = disk.read(&path);
            return Msg::FileRead { path, source };
        }
    };
    let read = expected.map_or(Source::Missing, Source::Text);
    match disk.write(&write, &read) {
        Ok(()) => Msg::WriteDone { hunk, path, after, undo },
        Err(e) if matches!(e.failure, WriteFailure::Changed(_)) => {
            let source = disk.read(&path);
            Msg::WriteStale { hunk, path, source, undo }
        }
        Err(e) => Msg::WriteFailed { hunk, path, reason: e.to_string(), undo },
    }
}

/// The disk worker: a thread that carries out jobs in order and sends each result to `done`.
/// It ends when the loop drops its sender.
pub struct Worker {
    jobs: std::sync::mpsc::Sender<Job>,
    /// Jobs handed over whose result has not been taken yet.
    in_flight: usize,
}

impl Worker {
    pub fn start(disk: Arc<dyn Disk>, done: mpsc::UnboundedSender<Done>) -> Worker {
        let (jobs, rx) = std::sync::mpsc::channel::<Job>();
        std::thread::spawn(move || {
            for job in rx {
                if done.send(job.run(&*disk)).is_err() {
                    break;
                }
            }
        });
        Worker { jobs, in_flight: 0 }
    }

    pub fn send(&mut self, job: Job) {
        if self.jobs.send(job).is_ok() {
            self.in_flight += 1;
        }
    }

    /// A result was taken.
    pub fn finished_one(&mut self) {
        self.in_flight = self.in_flight.saturating_sub(1);
    }

    /// Whether a job's result is still to come.
    pub fn busy(&self) -> bool {
        self.in_flight > 0
    }
}
