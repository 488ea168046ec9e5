//! The review: every hunk a reply proposes, its state, and the decisions taken on it, with undo.
//!
//! Plain data and pure transitions. A decision that changes a file returns an [`Effect`] (a write
//! the shell must carry out, with the text it expects to find); the shell answers with
//! [`Review::write_done`] or [`Review::write_failed`]. Each hunk is placed again in its file's
//! current text when it is previewed and when it is accepted, so hunks applied before it, or a
//! change on disk, never make it land on stale line numbers.
//!
//! What this module does not do: read or write files, parse replies (it takes parser events),
//! draw anything.

use crate::core::hash::HashMap;
use std::collections::BTreeMap;
use std::sync::Arc;

use crate::core::edit::{Change, Edit, PathSource};
use crate::core::file::Source;
use crate::core::parse::Event;
use crate::core::report::{EditReport, Status};
use crate::core::resolve::Project;

/// A hunk's identity: a hash of its path and its old and new text, stable across sessions.
pub type HunkId = u64;

/// Where a hunk stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HunkState {
    /// Waiting for a decision.
    Pending,
    /// Accepted; its write is on its way.
    Accepted,
    /// Written to disk.
    Applied,
    Rejected,
    /// It cannot be placed (the reason is in its report); it can be retried with the model.
    Failed,
    /// Its file changed under it so that it no longer fits where it did; never applied silently.
    Conflict(String),
}

impl HunkState {
    pub fn name(&self) -> &'static str {
        match self {
            HunkState::Pending => "pending",
            HunkState::Accepted => "accepted",
            HunkState::Applied => "applied",
            HunkState::Rejected => "rejected",
            HunkState::Failed => "failed",
            HunkState::Conflict(_) => "conflict",
        }
    }

    /// Whether a decision is still to be taken.
    pub fn is_open(&self) -> bool {
        matches!(self, HunkState::Pending | HunkState::Failed | HunkState::Conflict(_))
    }

    pub fn is_conflict(&self) -> bool {
        matches!(self, HunkState::Conflict(_))
    }
}

/// What became of an applied hunk's lines on disk, when they are gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiskNote {
    /// They were taken out (`git checkout`) and what they replaced is back: the hunk is pending
    /// again.
    Reverted,
    /// They were edited into something else since; the hunk stays applied.
    Edited,
}

impl DiskNote {
    /// For the diff's title.
    pub fn describe(self) -> &'static str {
        match self {
            DiskNote::Reverted => "reverted on disk",
            DiskNote::Edited => "edited on disk since",
        }
    }
}

/// What accepting a hunk would change: lines `start..start + old.len()` (0-based) of the file
/// as it is now become `new`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Preview {
    pub start: usize,
    pub old: Vec<String>,
    pub new: Vec<String>,
    /// The file would be deleted.
    pub deletes: bool,
}

/// One hunk under review.
#[derive(Debug, Clone)]
pub struct ReviewHunk {
    pub id: HunkId,
    /// Project-relative path.
    pub path: String,
    pub edit: Edit,
    pub state: HunkState,
    /// How it was placed the last time (strategy, similarity, lines) or why it could not be.
    pub report: EditReport,
    /// What accepting it would change, against the file as it is now (empty when it cannot be
    /// placed).
    pub preview: Preview,
    /// For a conflict: the lines of the file as it is now (0-based, end exclusive) that stand
    /// where the hunk's old text was before the file changed; `None` when the file is gone.
    pub region: Option<(usize, usize)>,
    /// The hunk the reply gave, that this one is a part of after a split (its own id
    /// otherwise): parts share their number in the hunk list (`3a`, `3b`).
    pub origin: HunkId,
    /// What happened on disk to the lines it wrote, when they are no longer there.
    pub disk: Option<DiskNote>,
    /// The file's lines the hunk matched the last time it was placed: what must still be there,
    /// unchanged, after someone else changes the file.
    anchor: Option<Vec<String>>,
    /// Pending, and its placing is still to come (a job is out for it): its report and preview
    /// are empty until then.
    pub placing: bool,
    /// Placed at a candidate a person picked: the candidates it was picked among, while no file
    /// changed since (the count of files stored then), so another digit moves it.
    picked_among: Option<(u64, Vec<crate::core::locate::Candidate>)>,
}

/// A write the shell must carry out, refusing if the file no longer holds `expected`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    Write {
        hunk: HunkId,
        path: String,
        expected: Option<String>,
        text: String,
    },
    Delete {
        hunk: HunkId,
        path: String,
        expected: String,
    },
    /// The review needs this file's content ([`Review::file_loaded`]).
    Read {
        path: String,
    },
}

/// A decision, kept for undo.
#[derive(Debug, Clone)]
struct Decision {
    /// Its place in the order decisions were made (a decision taken out and given back keeps it).
    seq: u64,
    hunk: HunkId,
    before_state: HunkState,
    /// For an applied hunk: the file before and after it.
    written: Option<Wrote>,
}

/// Counts of hunks by state, for the status line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    pub pending: usize,
    pub accepted: usize,
    pub applied: usize,
    pub rejected: usize,
    pub failed: usize,
    pub conflict: usize,
    /// Of the pending hunks, those whose placing is still to come.
    pub placing: usize,
}

impl Counts {
    /// Hunks still waiting for a decision: pending, failed or in conflict.
    pub fn undecided(&self) -> usize {
        self.pending + self.failed + self.conflict
    }
}

/// The review of one or more replies.
#[derive(Debug, Clone, Default)]
pub struct Review {
    /// Each known file's current version, prepared for placing hunks (made once per version;
    /// dropped when the file's content changes, by [`Review::store_file`]).
    prepared: HashMap<String, Arc<FileVersion>>,
    /// The last file version's number.
    versions: u64,
    /// File contents stored ([`Review::generation`]).
    files_stored: u64,
    /// New hunks are placed by jobs ([`Review::defer_placing`]).
    defer: bool,
    /// Placing jobs not handed out yet.
    jobs: Vec<PlaceJob>,
    /// The project's path index, built once and updated per new file.
    project: Project,
    files: BTreeMap<String, Source>,
    hunks: track::Hunks,
    decisions: Vec<Decision>,
    /// How many decisions were made: the next one's `seq`.
    decided: u64,
    /// Decisions of applied hunks whose lines were taken out on disk (`git stash`): given back,
    /// in their place in the order, when the lines come back (`git stash pop`).
    taken_out: Vec<Decision>,
    /// The decisions an undo's write is taking back, each with its hunk's state before: given
    /// back if the write is not made ([`Review::undo_not_written`]).
    undoing: Vec<(Decision, HunkState)>,
    /// Events waiting for their file to be read.
    waiting: Vec<(Edit, String)>,
    /// Parser problems (blocks that could not be read), for display.
    pub problems: Vec<String>,
    /// How many of `problems` were sent back to the model already (`r`).
    pub problems_asked: usize,
    /// How many edits were left out because a hunk for them was pending or written already.
    pub repeated: usize,
}

impl Review {
    /// A review of a project with these files; `sources` holds what is already read.
    pub fn new(project_files: Vec<String>, sources: BTreeMap<String, Source>) -> Review {
        Review { project: Project::new(&project_files), files: sources, ..Review::default() }
    }

    pub fn hunks(&self) -> &[ReviewHunk] {
        &self.hunks
    }

    pub fn hunk(&self, id: HunkId) -> Option<&ReviewHunk> {
        self.hunks.position(id).map(|i| &self.hunks[i])
    }

    /// The files the review knows the content of (those sent, and those its hunks are in).
    pub fn known_files(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    /// The file's content as the review knows it.
    pub fn source(&self, path: &str) -> Option<&Source> {
        self.files.get(path)
    }

    /// The counts by state, in O(1) (kept by the hunk list, `track`).
    pub fn counts(&self) -> Counts {
        self.hunks.counts()
    }

    /// Changes whenever a hunk is added or split: the same number, the same hunks in the same
    /// order.
    pub fn hunks_version(&self) -> u64 {
        self.hunks.version()
    }

    /// Changes whenever a hunk or a file's content may have changed: the same number, every
    /// hunk and file as it was (what a hunk shows can be kept while it stays).
    pub fn generation(&self) -> u64 {
        self.hunks.touched() + self.files_stored
    }

    /// Take a parser event: a finished edit becomes a pending hunk (or asks for its file first).
    pub fn add_event(&mut self, event: Event) -> Vec<Effect> {
        match event {
            Event::Problem(p) => {
                let path = p.path.unwrap_or_default();
                self.problems.push(format!(
                    "{path}: {} (reply lines {}-{})",
                    p.reason, p.reply_lines.0, p.reply_lines.1
                ));
                Vec::new()
            }
            Event::Edit(edit) => {
                let path = match self.project.resolve(&edit) {
                    // A file the reply creates is a file of the project for the edits after it.
                    Ok(r) => {
                        self.project.insert(&r.path);
                        r.path
                    }
                    Err(_) if edit.path_source == PathSource::Prose => return Vec::new(),
                    Err(reason) => {
                        self.problems.push(reason);
                        return Vec::new();
                    }
                };
                if self.files.contains_key(&path) {
                    self.push_hunk(edit, path);
                    Vec::new()
                } else {
                    self.waiting.push((edit, path.clone()));
                    vec![Effect::Read { path }]
                }
            }
        }
    }

    /// The project's files as the review knows them now (those created since it started
    /// included): the paths a reply may name.
    pub fn project_files(&self) -> Vec<String> {
        self.project.files().map(str::to_string).collect()
    }

    /// A project file the review did not know of (created since it started).
    pub fn note_project_file(&mut self, path: &str) {
        self.project.insert(path);
    }

    /// The shell read a file the review asked for.
    pub fn file_loaded(&mut self, path: &str, source: Source) {
        self.store_file(path, source);
        let (ready, rest): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.waiting).into_iter().partition(|(_, p)| p == path);
        self.waiting = rest;
        for (edit, p) in ready {
            self.push_hunk(edit, p);
        }
    }

    /// Add a hunk for an edit. The same edit again (a retry or follow-up round re-sending it,
    /// or a reply repeating itself) is not added twice while its hunk is pending, failed or
    /// written; after it was rejected or turned a conflict it comes back as a new hunk (the user
    /// asked again), under an id derived from the first one and how many came before, so a
    /// replay of the same messages gives the same ids.
    fn push_hunk(&mut self, edit: Edit, path: String) {
        let first = hunk_id(&path, &edit);
        let (mut id, mut again) = (first, 0u64);
        while let Some(idx) = self.hunks.position(id) {
            let state = &self.hunks[idx].state;
            // (A failed one would fail the same way again; a conflict's may fit the file now.)
            if matches!(
                state,
                HunkState::Pending | HunkState::Accepted | HunkState::Applied | HunkState::Failed
            ) {
                // Counted, for the message at the stream's end (not a problem row per edit).
                self.repeated += 1;
                return;
            }
            again += 1;
            id = numbers::again(first, again);
        }
        let hunk = self.new_hunk(id, path, edit);
        self.hunks.push(hunk);
    }

    /// Reject a hunk.
    pub fn reject(&mut self, id: HunkId) -> bool {
        let Some(hunk) = self.hunks.find_mut(id) else { return false };
        if !hunk.state.is_open() {
            return false;
        }
        let before_state = std::mem::replace(&mut hunk.state, HunkState::Rejected);
        self.record(id, before_state, None);
        true
    }

    /// A file changed on disk (another program, the user's editor): its open hunks are placed
    /// again in the new text. One whose old text is still there, moved or not, stays pending at
    /// its new place; one whose lines were changed becomes a conflict, never applied silently.
    ///
    /// "Still there" is strict here, unlike when a reply is first placed: the lines the hunk
    /// matched before the change must be found again unchanged. The forgiving locator is for the
    /// model's copying errors; a difference now is someone's edit, and applying over it would
    /// lose it.
    pub fn file_changed(&mut self, path: &str, source: Source) {
        self.place_waiting(path);
        let before = self.store_file(path, source.clone());
        self.follow_applied(path, before.as_ref().unwrap_or(&Source::Missing), &[]);
        self.follow_picks(path, before.as_ref().unwrap_or(&Source::Missing));
        self.refresh_rejected(path);
        let old = match &before {
            Some(Source::Text(t)) => t.as_str(),
            _ => "",
        };
        let indices = self.open_hunks_of(path);
        let mut lines_map: Option<conflict::LineMap> = None;
        // Where each hunk stood in the text before this change, and what it matched there.
        let mut prior = Vec::with_capacity(indices.len());
        for &idx in &indices {
            let h = self.hunks.get_mut(idx);
            let was = match &h.state {
                HunkState::Conflict(_) => h.region,
                _ if h.report.status == Status::Placed => {
                    h.report.lines.map(|(a, b)| (a.saturating_sub(1), b))
                }
                _ => None,
            };
            let mapped = match (&source, was) {
                (Source::Text(now), Some(r)) => Some(
                    lines_map.get_or_insert_with(|| conflict::LineMap::between(old, now)).range(r),
                ),
                _ => None,
            };
            // Where the lines went is the best hint among equal candidates.
            if let (Change::Modify { hunk }, Some((start, _))) = (&mut h.edit.change, mapped) {
                hunk.old_start_hint = Some(start + 1);
            }
            // The lines of an edit found made already are its new text, not what it changes:
            // the file going back to what the model saw is no edit of them.
            let anchor = if h.report.already_applied() { None } else { h.anchor.clone() };
            prior.push((anchor, mapped));
        }
        let placed = self.place_all(path, &indices);
        let now_lines: Vec<&str> = source_lines(&source);
        let anchors: Vec<Option<Vec<String>>> = indices
            .iter()
            .zip(&placed)
            .map(|(&idx, (report, _))| {
                anchor_of(&self.hunks[idx].edit, report, &source, &now_lines)
            })
            .collect();
        let mut back = Vec::new();
        for (((idx, (report, preview)), (anchor, mapped)), new_anchor) in
            indices.into_iter().zip(placed).zip(prior).zip(anchors)
        {
            let h = self.hunks.get_mut(idx);
            // Found exactly as the model wrote its old lines: the file holds what the model saw.
            let exact = report.strategy
                == Some(crate::core::placement::Strategy::Located(
                    crate::core::locate::MatchKind::Exact,
                ));
            let fits = report.status == Status::Placed
                && (anchor.is_none() || new_anchor == anchor || report.already_applied() || exact);
            let was_conflict = h.state.is_conflict();
            let reverted = (h.state == HunkState::Pending && h.disk == Some(DiskNote::Reverted))
                .then(|| h.preview.clone());
            h.report = report;
            h.placing = false;
            h.preview = preview;
            h.anchor = new_anchor;
            h.state = if fits {
                HunkState::Pending
            } else if h.asks_again() {
                // Placed by a person's choice, and now that place is gone: ask again.
                HunkState::Failed
            } else if anchor.is_some() || was_conflict {
                // Keep what it matched, so that undoing the change on disk makes it fit again.
                h.anchor = anchor;
                h.preview = Preview::default();
                if h.report.status == Status::Placed {
                    h.report.status = Status::Refused;
                    h.report.reason = Some(format!("{path}: the lines it changes were edited"));
                }
                HunkState::Conflict(conflict::why(path, &source, h))
            } else {
                HunkState::Failed
            };
            h.region = if h.state.is_conflict() { mapped } else { None };
            // Accepted, taken out on disk (`git stash`), and now back (`git stash pop`): the
            // decision stands again. Back is where the change moved the lines it would have
            // replaced, holding its new lines (the locator may not see a one-line change made
            // before: `return 2` in `return 20`), or where the locator found it made.
            let Some(was) = reverted else { continue };
            let there = |s: usize| {
                !was.new.is_empty()
                    && now_lines.get(s..s + was.new.len()).is_some_and(|l| l == was.new)
            };
            // The preview holds the lines that change, the range a hunk's lines (context too).
            let within = |(a, b): (usize, usize)| (a..=b).find(|&s| there(s));
            let made = h.report.lines.filter(|_| h.report.already_applied());
            let at = match (mapped.and_then(within), made) {
                (Some(s), _) => Some(s),
                (None, Some((first, last))) => {
                    within((first - 1, last)).or(was.new.is_empty().then_some(first - 1))
                }
                _ => None,
            };
            if let Some(start) = at {
                let written = was.new.len();
                // Shown as applied hunks are: what it replaced, and its lines where they stand.
                h.preview = Preview { start, ..was };
                h.state = HunkState::Applied;
                h.disk = None;
                h.region = None;
                h.anchor = None;
                if !h.report.already_applied() {
                    h.report.status = Status::Placed;
                    h.report.strategy = Some(crate::core::placement::Strategy::AlreadyApplied);
                    h.report.reason = Some("its lines are back in the file".into());
                    h.report.lines = Some((start + 1, start + written));
                }
                back.push(h.id);
            }
        }
        for hunk in back {
            self.given_back(hunk);
        }
    }

    /// Keep a decision for undo.
    fn record(&mut self, hunk: HunkId, before_state: HunkState, written: Option<Wrote>) {
        self.decided += 1;
        self.decisions.push(Decision { seq: self.decided, hunk, before_state, written });
        // Decided anew: what was taken out on disk before is no longer its decision.
        self.taken_out.retain(|d| d.hunk != hunk);
    }

    /// An applied hunk's lines, taken out on disk, are back: its decision stands again where it
    /// was in the order, with what it wrote (so `u` takes back the last decision made, and
    /// takes its lines out of the file), or, when nothing of it was kept, as the last one.
    fn given_back(&mut self, hunk: HunkId) {
        match self.taken_out.iter().position(|d| d.hunk == hunk) {
            Some(k) => {
                let d = self.taken_out.remove(k);
                let at = self.decisions.partition_point(|x| x.seq < d.seq);
                self.decisions.insert(at, d);
            }
            None => self.record(hunk, HunkState::Pending, None),
        }
    }

    /// Place a file's hunks whose placing is still to come in the version their job holds,
    /// before a change on disk is taken in: they then have an anchor, and the change is judged
    /// strictly against it (a hunk whose lines were edited becomes a conflict). Placing one in
    /// the changed text with the forgiving locator would write over the edit.
    fn place_waiting(&mut self, path: &str) {
        let waiting: Vec<usize> =
            self.open_hunks_of(path).into_iter().filter(|&i| self.hunks[i].placing).collect();
        for idx in waiting {
            let mut h = self.hunks[idx].clone();
            self.place(&mut h);
            if h.state == HunkState::Pending && h.report.status == Status::Refused {
                h.state = HunkState::Failed;
            }
            *self.hunks.get_mut(idx) = h;
        }
    }

    /// The indices of a file's hunks still waiting for a decision.
    fn open_hunks_of(&self, path: &str) -> Vec<usize> {
        let hunks = &self.hunks;
        hunks.indices_of(path).iter().copied().filter(|&i| hunks[i].state.is_open()).collect()
    }

    /// Place the rejected hunks of a file again after it changed: their state stays, but what
    /// the diff pane shows of them is against the file as it is now.
    fn refresh_rejected(&mut self, path: &str) {
        let hunks = &self.hunks;
        let indices: Vec<usize> = hunks
            .indices_of(path)
            .iter()
            .copied()
            .filter(|&i| hunks[i].state == HunkState::Rejected)
            .collect();
        let placed = self.place_all(path, &indices);
        // The report stays: it says how the hunk was placed when it was decided (the journal
        // records it); only what the pane shows follows the file.
        for (idx, (_, preview)) in indices.into_iter().zip(placed) {
            self.hunks.get_mut(idx).preview = preview;
        }
    }

    /// Place the open hunks of a file again after it changed.
    fn replace_pending(&mut self, path: &str) {
        self.refresh_rejected(path);
        let indices = self.open_hunks_of(path);
        let placed = self.place_all(path, &indices);
        let missing = Source::Missing;
        let source = self.files.get(path).unwrap_or(&missing).clone();
        let lines: Vec<&str> = source_lines(&source);
        for (idx, (report, preview)) in indices.into_iter().zip(placed) {
            let h = self.hunks.get_mut(idx);
            // Our own write moved the hunk: what it matches now is what must stay.
            if report.status == Status::Placed {
                h.anchor = anchor_of(&h.edit, &report, &source, &lines);
            }
            h.report = report;
            h.preview = preview;
            h.placing = false;
            if h.state == HunkState::Pending && h.report.status == Status::Refused {
                h.state = HunkState::Failed;
            } else if h.state == HunkState::Failed && h.report.status == Status::Placed {
                h.state = HunkState::Pending;
            }
        }
    }
}

mod accepting;
pub use accepting::Tidy;
mod conflict;
mod edit;
mod numbers;
mod pick;
#[cfg(test)]
mod pick_tests;
mod placing;
#[cfg(test)]
mod placing_tests;
use placing::{FileVersion, anchor_of, preview, source_lines};
pub use placing::{PlaceJob, PlaceResult, Placement};
mod track;
mod writes;
mod written;
pub use conflict::{ConflictView, conflict_document};
pub use edit::split_hunk;
pub use numbers::hunk_id;
use written::Wrote;

#[cfg(test)]
mod tests;
