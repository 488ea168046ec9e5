//! The review's writes in order: one write per file at a time, the hunks accepted meanwhile
//! waiting behind it in the order they were accepted, and the count of tries of a write to a
//! file that keeps changing. Plain data: it decides nothing about hunks (the app asks it
//! what is next, and places and writes them).
//!
//! Every operation costs O(log n) in the hunks waiting: accepting 10,000 hunks of one file
//! (`A`) queues them in linear time.
//!
//! Not for: what a write holds (`core::review`), carrying it out (`shell::runtime::disk`).

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use crate::core::review::HunkId;

/// Tries of one write against a file that keeps changing before the user is asked again.
pub const MAX_STALE_TRIES: u32 = 20;

/// What to do after a write found its file changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stale {
    /// Place the hunk again and write once more.
    TryAgain,
    /// The file keeps changing: stop trying (the count is forgotten).
    GiveUp,
}

#[derive(Debug, Default)]
pub struct WriteQueue {
    /// Files with a write on its way.
    in_flight: HashSet<String>,
    /// Per file, the hunks accepted while it was being written, first accepted first.
    waiting: BTreeMap<String, VecDeque<HunkId>>,
    queued: HashSet<HunkId>,
    /// How many writes to a file found it changed, in a row.
    stale: HashMap<String, u32>,
}

impl WriteQueue {
    /// Whether a write to `path` is on its way (a write to it now would have to wait).
    pub fn busy(&self, path: &str) -> bool {
        self.in_flight.contains(path)
    }

    /// Whether any write is on its way.
    pub fn any_busy(&self) -> bool {
        !self.in_flight.is_empty()
    }

    /// A write to `path` starts.
    pub fn start(&mut self, path: &str) {
        self.in_flight.insert(path.to_string());
    }

    /// The write to `path` ended (done, failed or stale).
    pub fn end(&mut self, path: &str) {
        self.in_flight.remove(path);
    }

    /// `hunk` waits for the write to `path` (once, however often it is accepted).
    pub fn wait(&mut self, path: &str, hunk: HunkId) {
        if self.queued.insert(hunk) {
            self.waiting.entry(path.to_string()).or_default().push_back(hunk);
        }
    }

    /// The next hunk waiting for `path`, taken off the queue.
    pub fn next(&mut self, path: &str) -> Option<HunkId> {
        let waiting = self.waiting.get_mut(path)?;
        let hunk = waiting.pop_front();
        if waiting.is_empty() {
            self.waiting.remove(path);
        }
        if let Some(h) = hunk {
            self.queued.remove(&h);
        }
        hunk
    }

    /// Whether `hunk` waits for a write to its file.
    pub fn is_queued(&self, hunk: HunkId) -> bool {
        self.queued.contains(&hunk)
    }

    /// A write to `path` found the file changed: try again, or give up after
    /// [`MAX_STALE_TRIES`] in a row.
    pub fn stale(&mut self, path: &str) -> Stale {
        let tries = self.stale.entry(path.to_string()).or_insert(0);
        *tries += 1;
        if *tries > MAX_STALE_TRIES {
            self.stale.remove(path);
            return Stale::GiveUp;
        }
        Stale::TryAgain
    }

    /// The writes to `path` are over (written, or nothing left to write): its tries are
    /// forgotten.
    pub fn settled(&mut self, path: &str) {
        self.stale.remove(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u64) -> HunkId {
        n
    }

    #[test]
    fn hunks_wait_per_file_in_the_order_they_were_accepted_and_once() {
        let mut q = WriteQueue::default();
        q.start("a.py");
        assert!(q.busy("a.py") && !q.busy("b.py") && q.any_busy());
        q.wait("a.py", id(3));
        q.wait("b.py", id(1));
        q.wait("a.py", id(2));
        q.wait("a.py", id(3));
        assert!(q.is_queued(id(3)) && q.is_queued(id(1)));
        q.end("a.py");
        assert!(!q.any_busy());
        assert_eq!(q.next("a.py"), Some(id(3)));
        assert!(!q.is_queued(id(3)));
        assert_eq!(q.next("a.py"), Some(id(2)));
        assert_eq!(q.next("a.py"), None);
        assert_eq!(q.next("b.py"), Some(id(1)));
        assert_eq!(q.next("b.py"), None);
    }

    #[test]
    fn a_write_that_keeps_meeting_a_changed_file_gives_up_after_the_limit_then_starts_over() {
        let mut q = WriteQueue::default();
        for _ in 0..MAX_STALE_TRIES {
            assert_eq!(q.stale("a.py"), Stale::TryAgain);
        }
        assert_eq!(q.stale("a.py"), Stale::GiveUp);
        assert_eq!(q.stale("a.py"), Stale::TryAgain, "the count starts over");
        q.settled("a.py");
        for _ in 0..MAX_STALE_TRIES {
            assert_eq!(q.stale("a.py"), Stale::TryAgain);
        }
    }

    #[test]
    fn ten_thousand_hunks_of_one_file_queue_and_leave_in_order() {
        let mut q = WriteQueue::default();
        q.start("big.rs");
        for n in 0..10_000 {
            q.wait("big.rs", id(n));
        }
        q.end("big.rs");
        let order: Vec<u64> = std::iter::from_fn(|| q.next("big.rs")).collect();
        assert_eq!(order, (0..10_000).collect::<Vec<_>>());
    }
}
