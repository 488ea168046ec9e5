//! Placing hunks in their file's current version: each version is prepared once (parsed,
//! indexed, its indentation read; [`PreparedFile`]) and kept until the file's content changes,
//! so a new hunk costs O(its lines), not O(its file): a hunk located in one piece is applied to
//! a window of the file and its preview diffed in that window only.
//!
//! A review that defers placing ([`Review::defer_placing`], the review screen's) adds each new
//! hunk as *placing* and hands out a [`PlaceJob`]: the hunk, its edit and the file version it
//! was parsed against, shared, so the job runs on any thread. Its [`PlaceResult`] comes back
//! through [`Review::placed`] and is taken only if the file is still at that version and the
//! hunk still waits for it; otherwise the hunk is placed by whatever changed it (a change on
//! disk, an accept) or its job is given again against the file as it is now.
//!
//! Not for: deciding what a placement means for a hunk's state (`review`, `writes`), locating
//! and applying (`core::execute`), running jobs (`shell::runtime`).

use std::sync::Arc;

use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::{HunkId, HunkState, Preview, Review, ReviewHunk};
use crate::core::edit::{Change, Edit, Format};
use crate::core::execute::{After, Placed, PreparedFile};
use crate::core::file::Source;
use crate::core::report::{EditReport, Status};

const MISSING: &Source = &Source::Missing;

/// One version of a file, prepared for placing hunks in it: shared by the review and the jobs
/// it hands out, never changed (a new version is a new one).
#[derive(Debug)]
pub struct FileVersion {
    /// Unique within the review: a result placed against another version is stale.
    number: u64,
    /// Prepared on first use, by whichever thread places a hunk in it first: preparing costs
    /// O(file), and a review that defers placing leaves that to its jobs too.
    file: std::sync::OnceLock<PreparedFile>,
    source: Source,
}

/// What placing a hunk in a file version gives: its report, preview and anchor.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    pub report: EditReport,
    pub preview: Preview,
    anchor: Option<Vec<String>>,
}

impl FileVersion {
    fn new(number: u64, source: &Source) -> FileVersion {
        FileVersion { number, file: std::sync::OnceLock::new(), source: source.clone() }
    }

    pub(super) fn file(&self) -> &PreparedFile {
        self.file.get_or_init(|| PreparedFile::new(&self.source))
    }

    /// Place one edit in this version.
    fn place(&self, edit: &Edit, path: &str) -> Placement {
        let file = self.file();
        let (report, placed) = file.place(edit, path);
        let preview = preview_placed(file, &self.source, placed);
        let anchor = match file.lines() {
            Some(lines) => anchor_of(edit, &report, &self.source, lines),
            None => anchor_of(edit, &report, &self.source, &source_lines(&self.source)),
        };
        Placement { report, preview, anchor }
    }
}

/// A hunk to place off the review's thread: pure work, [`PlaceJob::run`] anywhere.
#[derive(Clone)]
pub struct PlaceJob {
    pub hunk: HunkId,
    path: String,
    edit: Edit,
    version: Arc<FileVersion>,
}

impl PlaceJob {
    pub fn run(&self) -> PlaceResult {
        let placement = self.version.place(&self.edit, &self.path);
        PlaceResult {
            hunk: self.hunk,
            version: self.version.number,
            placement: Box::new(placement),
        }
    }
}

impl std::fmt::Debug for PlaceJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlaceJob")
            .field("hunk", &self.hunk)
            .field("path", &self.path)
            .field("version", &self.version.number)
            .finish_non_exhaustive()
    }
}

/// Two jobs are the same when they place the same hunk in the same version.
impl PartialEq for PlaceJob {
    fn eq(&self, other: &PlaceJob) -> bool {
        self.hunk == other.hunk && self.version.number == other.version.number
    }
}

/// A placing job's outcome, for [`Review::placed`].
#[derive(Debug, Clone, PartialEq)]
pub struct PlaceResult {
    pub hunk: HunkId,
    /// The file version it was placed in.
    pub version: u64,
    pub placement: Box<Placement>,
}

impl Review {
    /// Store a file's content (what it held before): the prepared form of its previous version
    /// is dropped. Every change of `files` goes through here, so no hunk is ever placed in a
    /// stale version.
    pub(super) fn store_file(&mut self, path: &str, source: Source) -> Option<Source> {
        self.prepared.remove(path);
        self.files_stored += 1;
        self.files.insert(path.to_string(), source)
    }

    /// The file's current version, prepared (once per version).
    pub(super) fn prepared(&mut self, path: &str) -> Arc<FileVersion> {
        if let Some(p) = self.prepared.get(path) {
            return p.clone();
        }
        self.versions += 1;
        let p = Arc::new(FileVersion::new(self.versions, self.files.get(path).unwrap_or(MISSING)));
        self.prepared.insert(path.to_string(), p.clone());
        p
    }

    /// From now on a new hunk is added as placing, and its placing is a job handed out by
    /// [`Review::take_jobs`] (the review screen: placing leaves the UI task).
    pub fn defer_placing(&mut self) {
        self.defer = true;
    }

    /// The placing jobs handed out since the last call, in order.
    pub fn take_jobs(&mut self) -> Vec<PlaceJob> {
        std::mem::take(&mut self.jobs)
    }

    /// A placing job's outcome. Taken when the hunk still waits for it and its file is still at
    /// the version it was placed in (`true`): a hunk rejected meanwhile takes it too, for what
    /// the pane shows of it and for an undo that makes it pending again. A hunk still waiting
    /// after its file changed gets a job against the file as it is now instead (no change of a
    /// file leaves one waiting today: each places its file's open hunks at once).
    pub fn placed(&mut self, result: PlaceResult) -> bool {
        let Some(idx) = self.hunks.position(result.hunk) else { return false };
        let h = &self.hunks[idx];
        if !h.placing {
            return false;
        }
        let path = h.path.clone();
        let current = self.prepared.get(&path).map(|v| v.number);
        if current != Some(result.version) {
            let job = self.job_for(idx);
            self.jobs.push(job);
            return false;
        }
        let Placement { report, preview, anchor } = *result.placement;
        let h = self.hunks.get_mut(idx);
        h.placing = false;
        if report.status == Status::Refused {
            if h.state == HunkState::Pending {
                h.state = HunkState::Failed;
            } else if let Some(d) = self.decisions.iter_mut().rev().find(|d| d.hunk == result.hunk)
                && d.before_state == HunkState::Pending
            {
                // Decided before its place came: an undo gives it back as it would have been.
                d.before_state = HunkState::Failed;
            }
        }
        h.report = report;
        h.preview = preview;
        h.anchor = anchor;
        true
    }

    fn job_for(&mut self, idx: usize) -> PlaceJob {
        let h = &self.hunks[idx];
        let (hunk, path, edit) = (h.id, h.path.clone(), h.edit.clone());
        self.job(hunk, path, edit)
    }

    /// A job placing `edit` in the current version of `path`.
    fn job(&mut self, hunk: HunkId, path: String, edit: Edit) -> PlaceJob {
        let version = self.prepared(&path);
        PlaceJob { hunk, path, edit, version }
    }

    /// A hunk placed against its file: pending, or failed when it cannot be placed. A review
    /// that defers placing gives it placing and a job instead.
    pub(super) fn new_hunk(&mut self, id: HunkId, path: String, edit: Edit) -> ReviewHunk {
        let mut hunk = ReviewHunk {
            id,
            path,
            edit,
            state: HunkState::Pending,
            report: empty_report(),
            preview: Preview::default(),
            region: None,
            origin: id,
            disk: None,
            anchor: None,
            placing: self.defer,
            picked_among: None,
        };
        if self.defer {
            let job = self.job(id, hunk.path.clone(), hunk.edit.clone());
            self.jobs.push(job);
            return hunk;
        }
        self.place(&mut hunk);
        if hunk.report.status == Status::Refused {
            hunk.state = HunkState::Failed;
        }
        hunk
    }

    /// Place a hunk against its file's current text: its report, preview and anchor.
    pub(super) fn place(&mut self, hunk: &mut ReviewHunk) {
        let Placement { report, preview, anchor } =
            self.prepared(&hunk.path).place(&hunk.edit, &hunk.path);
        hunk.preview = preview;
        hunk.anchor = anchor;
        hunk.report = report;
        hunk.placing = false;
    }

    /// Place the hunks at these indices, all of file `path`, against its current text: their
    /// reports and previews, as [`Review::place`] gives them.
    pub(super) fn place_all(
        &mut self,
        path: &str,
        indices: &[usize],
    ) -> Vec<(EditReport, Preview)> {
        let version = self.prepared(path);
        indices
            .iter()
            .map(|&i| {
                let (report, placed) = version.file().place(&self.hunks[i].edit, path);
                (report, preview_placed(version.file(), &version.source, placed))
            })
            .collect()
    }
}

/// What a placed hunk would change in `source` (prepared as `file`). A change to a window of
/// lines is diffed in the window only: the whole file's diff would strip the same unchanged
/// lines around it first, so the region is the same.
fn preview_placed(file: &PreparedFile, source: &Source, placed: Option<Placed>) -> Preview {
    match placed {
        Some(Placed::Lines { start, end, lines, .. }) => {
            let old = file.lines().expect("a window is only given for a file without a BOM");
            let old: Vec<&str> = old[start..end].iter().map(String::as_str).collect();
            let new: Vec<&str> = lines.iter().map(String::as_str).collect();
            let mut p = preview(&old, &new);
            if !(p.old.is_empty() && p.new.is_empty()) {
                p.start += start;
            }
            p
        }
        Some(Placed::File(after)) => preview_of(source, &source_lines(source), Some(after)),
        None => Preview::default(),
    }
}

/// The lines of the file a placed edit matched (its located lines, or the whole file for edits
/// that replace or delete all of it): what must still be there, unchanged, after someone else
/// changes the file. `None` when it is not placed.
pub(super) fn anchor_of<S: AsRef<str>>(
    edit: &Edit,
    report: &EditReport,
    source: &Source,
    lines: &[S],
) -> Option<Vec<String>> {
    if report.status != Status::Placed {
        return None;
    }
    let owned = |l: &[S]| l.iter().map(|s| s.as_ref().to_string()).collect::<Vec<_>>();
    Some(match (source, &edit.change, report.lines) {
        (Source::Text(_), Change::Modify { .. }, Some((a, b))) => {
            let start = a.saturating_sub(1).min(lines.len());
            owned(&lines[start..b.min(lines.len()).max(start)])
        }
        (Source::Text(_), _, _) => owned(lines),
        _ => Vec::new(),
    })
}

pub(super) fn empty_report() -> EditReport {
    EditReport {
        path: String::new(),
        format: Format::Udiff,
        status: Status::Refused,
        strategy: None,
        similarity: None,
        lines: None,
        reason: None,
        reply_lines: (0, 0),
        searched: None,
        closest: None,
        candidates: Vec::new(),
    }
}

/// A file's lines as the preview counts them.
pub(super) fn source_lines(source: &Source) -> Vec<&str> {
    match source {
        Source::Text(t) => t.lines().collect(),
        Source::Missing | Source::Unusable(_) => Vec::new(),
    }
}

/// What a placed hunk would change in `source` (whose lines are `old`), given the file's state
/// after it.
pub(super) fn preview_of(source: &Source, old: &[&str], after: Option<After>) -> Preview {
    match (source, after) {
        (_, None) => Preview::default(),
        (Source::Text(_) | Source::Missing, Some(After::Text(after))) => {
            preview(old, &after.lines().collect::<Vec<_>>())
        }
        (Source::Text(_), Some(After::Deleted)) => Preview {
            start: 0,
            old: old.iter().map(|s| s.to_string()).collect(),
            new: Vec::new(),
            deletes: true,
        },
        _ => Preview::default(),
    }
}

/// The lines that differ between a text's lines and new lines, as one region.
pub(super) fn preview(old: &[&str], new: &[&str]) -> Preview {
    let ops = capture_diff_slices(Algorithm::Myers, old, new);
    let changed: Vec<&DiffOp> =
        ops.iter().filter(|op| !matches!(op, DiffOp::Equal { .. })).collect();
    let (Some(first), Some(last)) = (changed.first(), changed.last()) else {
        return Preview::default();
    };
    let (o1, n1) = (first.old_range().start, first.new_range().start);
    let (o2, n2) = (last.old_range().end, last.new_range().end);
    Preview {
        start: o1,
        old: old[o1..o2].iter().map(|s| s.to_string()).collect(),
        new: new[n1..n2].iter().map(|s| s.to_string()).collect(),
        deletes: false,
    }
}
