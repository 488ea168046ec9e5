//! When changes seen on disk are handed over, and whether they were git's.
//!
//! Git writes the work tree in a burst and moves `HEAD` at the end of it (checkout, reset,
//! rebase), often in another debounced batch than the files. So a batch waits a short grace
//! time before it is handed over; a git operation seen in that window (or under way when it is
//! due) makes the whole lot git's. While the index is locked, or an operation is in progress,
//! changes wait. Pure: the caller says what time it is and what git is doing.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use super::{Batch, GitState};

/// How long a batch waits for signs of git around it.
pub const GRACE: Duration = Duration::from_millis(300);

/// Changes waiting to be handed over.
#[derive(Debug, Default)]
pub struct Gate {
    /// Paths waiting, in order of arrival, without repeats.
    waiting: Vec<String>,
    /// The same paths, for telling a repeat in O(1): a checkout reports tens of thousands.
    seen: HashSet<String>,
    /// When the first of them arrived, and the last.
    first: Option<Instant>,
    last: Option<Instant>,
    /// The last sign of a git operation.
    git_seen: Option<Instant>,
}

/// Changes handed over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Release {
    pub paths: Vec<String>,
    /// They came with a git operation: re-read them, but start nothing from them.
    pub by_git: bool,
}

impl Gate {
    /// A batch arrived at `now`.
    pub fn batch(&mut self, batch: Batch, now: Instant) {
        if batch.git {
            self.git_seen = Some(now);
        }
        if batch.paths.is_empty() {
            return;
        }
        for p in batch.paths {
            if !self.seen.contains(&p) {
                self.seen.insert(p.clone());
                self.waiting.push(p);
            }
        }
        self.first.get_or_insert(now);
        self.last = Some(now);
    }

    /// Whether changes are waiting.
    pub fn holding(&self) -> bool {
        !self.waiting.is_empty()
    }

    /// What to hand over at `now`, with git in `state`: nothing while git is at work or a batch
    /// is still within its grace time.
    pub fn due(&mut self, now: Instant, state: GitState) -> Option<Release> {
        if state == GitState::Operation {
            self.git_seen = Some(now);
        }
        let (first, last) = (self.first?, self.last?);
        let quiet_since = self.git_seen.map_or(last, |g| g.max(last));
        if state != GitState::Idle || now.saturating_duration_since(quiet_since) < GRACE {
            return None;
        }
        let by_git = self.git_seen.is_some_and(|g| g + GRACE >= first);
        self.first = None;
        self.last = None;
        self.seen.clear();
        Some(Release { paths: std::mem::take(&mut self.waiting), by_git })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch(paths: &[&str], git: bool) -> Batch {
        Batch { paths: paths.iter().map(|p| p.to_string()).collect(), git }
    }

    #[test]
    fn a_save_is_handed_over_after_the_grace_time() {
        let t0 = Instant::now();
        let mut g = Gate::default();
        g.batch(batch(&["a.py"], false), t0);
        assert_eq!(g.due(t0 + GRACE / 2, GitState::Idle), None);
        let r = g.due(t0 + GRACE, GitState::Idle).expect("due");
        assert_eq!((r.paths, r.by_git), (vec!["a.py".to_string()], false));
        assert!(!g.holding());
    }

    #[test]
    fn files_written_before_head_moves_are_gits() {
        let t0 = Instant::now();
        let mut g = Gate::default();
        g.batch(batch(&["a.py", "b.py"], false), t0);
        g.batch(batch(&[], true), t0 + Duration::from_millis(120));
        assert_eq!(g.due(t0 + GRACE, GitState::Idle), None, "quiet since the HEAD move only");
        let r = g.due(t0 + Duration::from_millis(120) + GRACE, GitState::Idle).expect("due");
        assert!(r.by_git);
        assert_eq!(r.paths.len(), 2);
    }

    #[test]
    fn changes_wait_while_the_index_is_locked_or_an_operation_runs() {
        let t0 = Instant::now();
        let mut g = Gate::default();
        g.batch(batch(&["a.py"], false), t0);
        assert_eq!(g.due(t0 + GRACE * 4, GitState::Locked), None);
        let r = g.due(t0 + GRACE * 5, GitState::Idle).expect("due");
        assert!(!r.by_git, "a locked index alone is not an operation (editors poll git status)");
        g.batch(batch(&["b.py"], false), t0 + GRACE * 6);
        assert_eq!(g.due(t0 + GRACE * 8, GitState::Operation), None);
        assert_eq!(g.due(t0 + GRACE * 8 + GRACE / 2, GitState::Idle), None);
        let r = g.due(t0 + GRACE * 9, GitState::Idle).expect("due");
        assert!(r.by_git, "changed during a rebase");
    }

    #[test]
    fn an_old_git_operation_does_not_taint_a_later_save() {
        let t0 = Instant::now();
        let mut g = Gate::default();
        g.batch(batch(&[], true), t0);
        g.batch(batch(&["a.py"], false), t0 + GRACE * 3);
        let r = g.due(t0 + GRACE * 4, GitState::Idle).expect("due");
        assert!(!r.by_git);
    }
}
