//! What the panes hold, measured once and kept, so that a frame costs the rows it shows and not
//! the size of the data: the reply's line starts (kept up to date as chunks append, scanning
//! only the new bytes) and their rows at the pane's width (counted once per line and width);
//! the selected hunk's [`DiffModel`] (built once per hunk and version of it and its file) and
//! its rows at the pane's width; each large hunk's added and removed line counts. The app
//! bounds its scrolling with these, and the ui asks them which lines to draw.
//!
//! The caches sit behind `RefCell`s so a frame, which sees `&App`, can fill them. A cached
//! diff is checked cheaply on every use (the hunk's state, where its preview is and how long,
//! its file's length), and compared in full with what it was built from once after each
//! change to the review ([`Review::generation`]: a key, a tick or a resize changes nothing
//! there and costs no comparison), so nothing stale is ever drawn.
//!
//! [`Review::generation`]: crate::core::review::Review::generation
//!
//! Not for: drawing (`ui`), where the panes are (`layout`).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;

use crate::app::diff_model::DiffModel;
use crate::app::wrap::{self, CONTINUED_WIDTH, Overflow};
use crate::app::{App, ViewMode};
use crate::core::edit::Change;
use crate::core::file::Source;
use crate::core::review::{HunkId, HunkState, Preview, ReviewHunk};

mod diff_rows;
mod list;
mod rows;
pub use diff_rows::half;
use diff_rows::{diff_lines, need_of, rows_of, same_pair_rows};
use list::{CountEntry, ListEntry};
pub use list::{HunkList, ListRow};
use rows::{ALWAYS_READ, Counted, Rows};

/// After the reply's last line while the model is still writing it.
pub const UNFINISHED: &str = "▍ (unfinished)";

/// Hunks with more preview lines than this keep their counts cached (smaller ones are diffed
/// when shown: cheaper than keeping them).
const COUNT_CACHE_LINES: usize = 200;

/// Work done by the measuring since the app was made, for tests that check a frame's work
/// does not grow with the data.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Work {
    /// Reply bytes scanned for line ends.
    pub reply_bytes_scanned: usize,
    /// Reply lines whose rows were counted.
    pub reply_lines_counted: usize,
    /// Of those, the lines whose text had to be read again to count them (not plain, or
    /// wrapping at words): the rest follow from what was kept when they arrived.
    pub reply_lines_read: usize,
    /// Diff models built.
    pub models_built: usize,
    /// Diff lines whose rows were counted.
    pub diff_lines_counted: usize,
    /// Lines handed to the ui to draw (reply and diff).
    pub lines_drawn: usize,
    /// Times the hunk list's order, numbers and rows were built.
    pub lists_built: usize,
}

/// The caches (one per app).
#[derive(Default)]
pub struct Measure {
    reply: RefCell<ReplyLines>,
    model: RefCell<Option<ModelEntry>>,
    rows: RefCell<Option<DiffRows>>,
    counts: RefCell<HashMap<HunkId, CountEntry>>,
    list: RefCell<Option<ListEntry>>,
    serial: Cell<u64>,
    work: Cell<Work>,
}

impl Measure {
    fn note(&self, f: impl FnOnce(&mut Work)) {
        let mut w = self.work.get();
        f(&mut w);
        self.work.set(w);
    }
}

/// The reply's lines: where each finished line starts and whether it is code, and their rows
/// at one width.
#[derive(Default)]
struct ReplyLines {
    /// Each finished line's start in the text, whether it is code (in a fence, or one), and
    /// whether it is plain ([`wrap::is_plain`]: its rows at any width then follow from its
    /// length, so a new width does not read the reply's text again).
    lines: Vec<(usize, bool, bool)>,
    /// Bytes scanned: up to and including the last line end.
    scanned: usize,
    /// Inside a fence after the scanned lines.
    in_code: bool,
    /// The finished lines' rows, kept per block (a new width counts the blocks).
    rows: Rows,
}

/// Whether a line opens or closes a fence.
fn is_fence(line: &str) -> bool {
    line.trim_start().starts_with("```")
}

impl ReplyLines {
    /// Take in what was appended to `text` since the last call.
    fn sync(&mut self, text: &str, work: &Measure) {
        if text.len() < self.scanned
            || (self.scanned > 0 && text.as_bytes()[self.scanned - 1] != b'\n')
        {
            *self = ReplyLines::default();
        }
        let from = self.scanned;
        for end in memchr::memchr_iter(b'\n', &text.as_bytes()[from..]) {
            let end = from + end;
            let line = &text[self.scanned..end];
            let fence = is_fence(line);
            let plain = wrap::is_plain(line);
            // A plain line takes one row from its length on (code's `↪ ` is only on the rows
            // after the first); another needs its text.
            self.rows.push(if plain { line.len() } else { ALWAYS_READ });
            self.lines.push((self.scanned, self.in_code || fence, plain));
            if fence {
                self.in_code = !self.in_code;
            }
            self.scanned = end + 1;
        }
        work.note(|w| w.reply_bytes_scanned += text.len() - from);
    }

    /// Finished line `k`'s text.
    fn line<'t>(&self, text: &'t str, k: usize) -> &'t str {
        let start = self.lines[k].0;
        let end = self.lines.get(k + 1).map_or(self.scanned, |l| l.0) - 1;
        &text[start..end]
    }

    /// A finished line's rows at `width`, from its length when that tells (else its text).
    fn line_rows_at(&self, text: &str, k: usize, width: usize, read: &mut usize) -> usize {
        let (start, code, plain) = self.lines[k];
        let len = self.lines.get(k + 1).map_or(self.scanned, |l| l.0) - 1 - start;
        let known = plain.then(|| count_plain(len, code, width)).flatten();
        known.unwrap_or_else(|| {
            *read += 1;
            line_rows(self.line(text, k), code, width)
        })
    }

    /// The rows of every finished line at `width`: blocks of lines that all fit are counted
    /// without looking at their lines, and each block once per width.
    fn count(&mut self, text: &str, width: usize, work: &Measure) -> usize {
        let mut rows = std::mem::take(&mut self.rows);
        let (mut read, mut counted) = (0, Counted::default());
        let total = {
            let mut one = |k: usize| self.line_rows_at(text, k, width, &mut read);
            rows.total((width, 0), width, &mut one, &mut counted)
        };
        self.rows = rows;
        work.note(|w| {
            w.reply_lines_counted += counted.lines;
            w.reply_lines_read += read;
        });
        total
    }

    /// The finished lines showing in `height` rows from row `top` at `width` ([`Rows::window`];
    /// [`ReplyLines::count`] at that width first).
    fn window(
        &mut self,
        text: &str,
        width: usize,
        top: usize,
        height: usize,
        work: &Measure,
    ) -> (usize, usize, usize) {
        let rows = std::mem::take(&mut self.rows);
        let (mut read, mut counted) = (0, Counted::default());
        let window = {
            let mut one = |k: usize| self.line_rows_at(text, k, width, &mut read);
            rows.window(width, top, height, &mut one, &mut counted)
        };
        self.rows = rows;
        work.note(|w| {
            w.reply_lines_counted += counted.lines;
            w.reply_lines_read += read;
        });
        window
    }
}

/// Rows of a reply line at `width`: code keeps its columns and marks continuations, prose
/// wraps at spaces.
fn line_rows(text: &str, code: bool, width: usize) -> usize {
    wrap::count(0, continued(code), text, width, !code)
}

/// [`line_rows`] of a plain line from its length, when that tells.
fn count_plain(len: usize, code: bool, width: usize) -> Option<usize> {
    wrap::count_plain(0, continued(code), len, width, !code)
}

fn continued(code: bool) -> usize {
    if code { CONTINUED_WIDTH } else { 0 }
}

/// A reply line to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplyLine<'a> {
    pub text: &'a str,
    /// Inside a fence, or one.
    pub code: bool,
    /// The last line while the model is still writing it (drawn with [`UNFINISHED`] after it).
    pub unfinished: bool,
}

/// What a pane shows of its lines: the lines from the first that shows to the last, the rows of
/// the first line scrolled out above, and the rows that show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window<L> {
    pub lines: Vec<L>,
    pub skip: usize,
    pub take: usize,
}

/// The inputs a diff model is built from, to check a cached one against.
#[derive(PartialEq)]
struct Inputs {
    state: HunkState,
    preview: Preview,
    change: Option<Change>,
    source: Option<Source>,
}

/// A cheap look at the inputs, checked on every use.
#[derive(PartialEq, Clone, Copy)]
struct Print {
    state: &'static str,
    start: usize,
    old: (usize, usize),
    new: (usize, usize),
    deletes: bool,
    source: (usize, usize),
}

fn print(h: &ReviewHunk, source: Option<&Source>) -> Print {
    let p = &h.preview;
    let source = match source {
        Some(Source::Text(t)) => (t.as_ptr() as usize, t.len()),
        Some(_) => (1, 0),
        None => (0, 0),
    };
    Print {
        state: h.state.name(),
        start: p.start,
        old: (p.old.as_ptr() as usize, p.old.len()),
        new: (p.new.as_ptr() as usize, p.new.len()),
        deletes: p.deletes,
        source,
    }
}

/// Whether the hunk shows its place in the file (else its own text).
fn placed(h: &ReviewHunk) -> bool {
    !(h.preview.old.is_empty() && h.preview.new.is_empty() && !h.preview.deletes)
}

impl Inputs {
    /// Whether these are the hunk's inputs now (compared in place, nothing copied).
    fn same(&self, h: &ReviewHunk, source: Option<&Source>) -> bool {
        let placed = placed(h);
        self.state == h.state
            && self.preview == h.preview
            && match &self.change {
                Some(c) => !placed && *c == h.edit.change,
                None => placed,
            }
            && (!placed || self.source.as_ref() == source)
    }
}

fn inputs(h: &ReviewHunk, source: Option<&Source>) -> Inputs {
    let placed = placed(h);
    Inputs {
        state: h.state.clone(),
        preview: h.preview.clone(),
        // An unplaced hunk shows its own text; a placed one its place in the file.
        change: (!placed).then(|| h.edit.change.clone()),
        source: placed.then(|| source.cloned()).flatten(),
    }
}

struct ModelEntry {
    id: HunkId,
    /// The review's generation the inputs were last checked at.
    checked: u64,
    print: Print,
    inputs: Inputs,
    serial: u64,
    model: Arc<DiffModel>,
}

/// One line of the diff as the pane draws it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffLine {
    /// An unchanged line: its index on the old side and on the new.
    Same(usize, usize),
    /// Cell `k` of block `block`'s removed lines (unified).
    Old { block: usize, k: usize },
    /// Cell `k` of block `block`'s added lines (unified).
    New { block: usize, k: usize },
    /// Row `k` of a changed block side by side: its `k`th removed and added lines, where
    /// there are.
    Pair { block: usize, k: usize },
}

/// The diff's lines in a view, and their rows at a width (kept per block of lines).
struct DiffRows {
    serial: u64,
    view: ViewMode,
    lines: Vec<DiffLine>,
    rows: Rows,
}

impl App {
    /// What the measuring has done so far (tests check a frame's share).
    pub fn work(&self) -> Work {
        self.measure.work.get()
    }

    /// The reply's rows `width` columns wide: its finished lines (each block of them counted
    /// once per width) and its last line.
    pub fn reply_rows(&self, width: usize) -> usize {
        let mut r = self.measure.reply.borrow_mut();
        r.sync(&self.stream_text, &self.measure);
        let finished = r.count(&self.stream_text, width, &self.measure);
        finished + self.reply_tail(&r).map_or(0, |t| tail_rows(t, width))
    }

    /// The reply's last line when it has no line end yet.
    fn reply_tail<'a>(&'a self, r: &ReplyLines) -> Option<ReplyLine<'a>> {
        let text = &self.stream_text[r.scanned..];
        (!text.is_empty()).then(|| ReplyLine {
            text,
            code: r.in_code || is_fence(text),
            unfinished: self.streaming,
        })
    }

    /// What the reply pane shows `width` by `height`, scrolled back `stream_scroll` rows from
    /// the end.
    pub fn reply_window(&self, width: usize, height: usize) -> Window<ReplyLine<'_>> {
        let total = self.reply_rows(width);
        let end = total.saturating_sub(self.stream_scroll);
        let top = end.saturating_sub(height);
        let mut r = self.measure.reply.borrow_mut();
        let finished_rows = r.count(&self.stream_text, width, &self.measure);
        let finished = r.lines.len();
        let tail = self.reply_tail(&r);
        let (first, skip, last) = if top >= finished_rows {
            // Only the tail (one more line after the finished ones) shows.
            (finished, top - finished_rows, finished + usize::from(tail.is_some()))
        } else {
            let (f, s, l) = r.window(&self.stream_text, width, top, end - top, &self.measure);
            // The window runs into the tail.
            let l = if end > finished_rows && tail.is_some() { finished + 1 } else { l };
            (f, s, l)
        };
        let mut lines = Vec::with_capacity(last.saturating_sub(first));
        for k in first..last {
            if k < finished {
                let (_, code, _) = r.lines[k];
                lines.push(ReplyLine {
                    text: r.line(&self.stream_text, k),
                    code,
                    unfinished: false,
                });
            } else if let Some(t) = tail {
                lines.push(t);
            }
        }
        self.measure.note(|w| w.lines_drawn += lines.len());
        Window { lines, skip, take: end - top }
    }

    /// The selected hunk's diff model, built once per hunk and version (a conflict has none:
    /// it is drawn three ways).
    pub fn diff_model(&self) -> Option<Arc<DiffModel>> {
        let h = self.selected_hunk()?;
        Some(self.model_of(h).1)
    }

    /// A hunk's model and its serial number (a new one each time a model is built).
    fn model_of(&self, h: &ReviewHunk) -> (u64, Arc<DiffModel>) {
        let source = self.review.source(&h.path);
        let print = print(h, source);
        let mut entry = self.measure.model.borrow_mut();
        let generation = self.review.generation();
        if let Some(e) = entry.as_mut().filter(|e| e.id == h.id && e.print == print) {
            if e.checked == generation {
                return (e.serial, e.model.clone());
            }
            // The review changed since: the inputs may have changed in place.
            if e.inputs.same(h, source) {
                e.checked = generation;
                return (e.serial, e.model.clone());
            }
        }
        let model = Arc::new(DiffModel::of(h, source));
        let serial = self.measure.serial.get() + 1;
        self.measure.serial.set(serial);
        self.measure.note(|w| w.models_built += 1);
        *entry = Some(ModelEntry {
            id: h.id,
            checked: generation,
            print,
            inputs: inputs(h, source),
            serial,
            model: model.clone(),
        });
        (serial, model)
    }

    /// The selected hunk's diff lines in the current view and their rows at `width` (the
    /// pane's inner width, counted per block): `f` is given the model, the lines, the rows
    /// and a line's rows at that width.
    fn with_diff_rows<T>(
        &self,
        width: usize,
        f: impl FnOnce(&DiffModel, &[DiffLine], &mut Rows, &mut dyn FnMut(usize) -> usize) -> T,
    ) -> Option<T> {
        let h = self.selected_hunk()?;
        let (serial, model) = self.model_of(h);
        let wraps = self.overflow() == Overflow::Wrap;
        let mut kept = self.measure.rows.borrow_mut();
        let fresh = kept.as_ref().is_some_and(|r| r.serial == serial && r.view == self.view);
        if !fresh {
            let lines = diff_lines(&model, self.view);
            let mut rows = Rows::default();
            for &line in &lines {
                rows.push(need_of(&model, line, self.view));
            }
            *kept = Some(DiffRows { serial, view: self.view, lines, rows });
        }
        let r = kept.as_mut().expect("set above");
        let (lines, view) = (&r.lines, self.view);
        let mut one = |k: usize| match (wraps, lines[k]) {
            (false, _) => 1,
            (true, DiffLine::Same(o, n)) if view == ViewMode::SideBySide => {
                same_pair_rows(&model, o, n, width)
            }
            (true, line) => rows_of(&model, line, width),
        };
        // Unwrapped, every line is one row: every block fits.
        let at = if wraps { width } else { ALWAYS_READ };
        let mut counted = Counted::default();
        r.rows.total((width, usize::from(wraps)), at, &mut one, &mut counted);
        let out = f(&model, lines, &mut r.rows, &mut one);
        self.measure.note(|w| w.diff_lines_counted += counted.lines);
        Some(out)
    }

    /// The rows of the selected hunk's diff `width` columns wide (a conflict's three views
    /// too).
    pub fn diff_rows(&self, width: usize) -> Option<usize> {
        let h = self.selected_hunk()?;
        if let Some(view) = self.review.conflict_view(h.id) {
            let side_by_side = self.view == ViewMode::SideBySide;
            return Some(crate::app::conflict::rows(&view, side_by_side, self.overflow(), width));
        }
        let wraps = self.overflow() == Overflow::Wrap;
        let at = if wraps { width } else { ALWAYS_READ };
        let key = (width, usize::from(wraps));
        self.with_diff_rows(width, |_, _, rows, one| {
            rows.total(key, at, &mut |k| one(k), &mut Counted::default())
        })
    }

    /// What the diff pane shows of the selected hunk's diff, `width` by `height` from row
    /// `top`: its model and the lines that show.
    pub fn diff_window(
        &self,
        width: usize,
        top: usize,
        height: usize,
    ) -> Option<(Arc<DiffModel>, Window<DiffLine>)> {
        let h = self.selected_hunk()?;
        let model = self.model_of(h).1;
        let wraps = self.overflow() == Overflow::Wrap;
        let at = if wraps { width } else { ALWAYS_READ };
        let key = (width, usize::from(wraps));
        let work = &self.measure;
        let window = self.with_diff_rows(width, |_, lines, rows, one| {
            let mut counted = Counted::default();
            let total = rows.total(key, at, &mut |k| one(k), &mut counted);
            let (first, skip, last) = rows.window(at, top, height, &mut |k| one(k), &mut counted);
            work.note(|w| w.diff_lines_counted += counted.lines);
            let take = (top.min(total) + height).min(total) - top.min(total);
            Window { lines: lines[first..last.max(first)].to_vec(), skip, take }
        })?;
        self.measure.note(|w| w.lines_drawn += window.lines.len());
        Some((model, window))
    }
}

/// Rows of the reply's last line, marked while unfinished.
fn tail_rows(t: ReplyLine, width: usize) -> usize {
    if t.unfinished {
        line_rows(&format!("{}{UNFINISHED}", t.text), t.code, width)
    } else {
        line_rows(t.text, t.code, width)
    }
}
