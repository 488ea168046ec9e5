//! A session in one line, for `redline sessions`: computed from the records alone, so a journal
//! cut by a crash summarizes as far as it goes.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Journal, Record};

/// What `redline sessions` shows of a session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub id: String,
    /// Unix time, milliseconds.
    pub started_ms: u64,
    pub project: String,
    pub prompt: Option<String>,
    pub provider: String,
    pub model: String,
    /// Hunks whose last state is applied or accepted.
    pub accepted: usize,
    pub rejected: usize,
    /// Hunks that could not be placed, or conflict with a change on disk.
    pub failed: usize,
    /// Hunks still waiting for a decision.
    pub pending: usize,
    /// Requests sent (retries and follow-ups included).
    pub requests: usize,
    /// The session ended with the user quitting (not a crash or a kill).
    pub ended: bool,
    /// The last record's time, milliseconds since the start.
    pub duration_ms: u64,
    /// Whether an unreadable tail was left out.
    pub truncated: bool,
    /// A watch-mode session (`redline watch`): its requests came from comments.
    pub watch: bool,
}

/// The summary of a journal; `None` when it has no header.
pub fn summarize(journal: &Journal) -> Option<Summary> {
    let header = journal.header()?;
    let mut last_state: BTreeMap<&str, &str> = BTreeMap::new();
    let mut requests = 0;
    let mut ended = false;
    let mut duration_ms = 0;
    for record in &journal.records {
        duration_ms = duration_ms.max(record.t().unwrap_or(0));
        match record {
            Record::Hunk(h) => {
                last_state.insert(&h.id, &h.state);
            }
            Record::Request(_) => requests += 1,
            Record::End(_) => ended = true,
            _ => {}
        }
    }
    let count = |names: &[&str]| last_state.values().filter(|s| names.contains(s)).count();
    Some(Summary {
        id: header.id.clone(),
        started_ms: header.started_ms,
        project: header.root.clone(),
        prompt: header.prompt.clone(),
        provider: header.provider.clone(),
        model: header.model.clone(),
        accepted: count(&["applied", "accepted"]),
        rejected: count(&["rejected"]),
        failed: count(&["failed", "conflict"]),
        pending: count(&["pending"]),
        requests,
        ended,
        duration_ms,
        truncated: journal.dropped.is_some(),
        watch: header.watch.is_some(),
    })
}
