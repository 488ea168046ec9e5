//! Placing many hunks, one at a time, in the same version of a file: the file is parsed,
//! indexed and its indentation read once ([`PreparedFile`]), and each hunk located in one piece
//! is applied to a copy of only the lines it touches, so a hunk's cost does not grow with its
//! file's size. The review keeps one [`PreparedFile`] per file version.
//!
//! Not for: applying a reply's edits in sequence (`execute::run`), or locating (`core::locate`).

use crate::core::hash::HashMap;
use std::sync::Arc;

use super::already::in_place_already;
use super::doubt::placement_doubt;
use super::reports::applied_report;
use super::{After, Working, after_of, apply_edit, guarded, working};
use crate::core::apply::apply_hunk_styled;
use crate::core::edit::{Change, Edit, LineKind};
use crate::core::file::Source;
use crate::core::indent::is_closer;
use crate::core::indent::{FileStyle, file_style};
use crate::core::locate::lines::{FileIndex, LineInfo};
use crate::core::locate::{HunkSlot, Located, locate_parts_indexed};
use crate::core::report::EditReport;
use crate::core::strings::Starts;
use crate::core::text::{Eol, TextFile};
use crate::core::verify;

/// A file's state after one edit, as [`apply_each`] gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placed {
    /// The file's lines `start..end` become `lines`, ending `eols`; every other line, and its
    /// ending, is unchanged. Only given for a file without a BOM, whose lines are then exactly
    /// `str::lines` of its text.
    Lines { start: usize, end: usize, lines: Vec<String>, eols: Vec<Eol> },
    /// The whole file.
    File(After),
}

/// Apply each edit alone to the same file as it is now: for each, the report
/// [`super::apply_single`] gives and the same resulting file, with the file prepared once for
/// all of them (the pending hunks of a file that changed on disk are placed again this way).
pub fn apply_each(
    edits: &[&Edit],
    path: &str,
    before: &Source,
) -> Vec<(EditReport, Option<Placed>)> {
    let file = PreparedFile::new(before);
    edits.iter().map(|edit| file.place(edit, path)).collect()
}

/// One version of a file, parsed and indexed for placing hunks in it one at a time.
pub struct PreparedFile {
    // `prepared` borrows from the text `text` points to, so it is declared (and dropped) first.
    prepared: Option<Prepared<'static>>,
    /// Shared, never mutated: moving the `Arc` moves no text, so `prepared`'s borrows stay valid.
    text: Option<Arc<TextFile>>,
    existed: bool,
    unusable: Option<String>,
}

impl std::fmt::Debug for PreparedFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let lines = self.text.as_ref().map(|t| t.lines.len());
        f.debug_struct("PreparedFile").field("lines", &lines).finish_non_exhaustive()
    }
}

impl PreparedFile {
    pub fn new(before: &Source) -> PreparedFile {
        let Working { existed, text, unusable, .. } = working(Some(before));
        let text = text.map(Arc::new);
        let prepared = text.as_ref().map(|t| {
            // SAFETY: the `TextFile` lives in an `Arc` owned by `self.text`, is never mutated
            // and outlives `prepared` (dropped first, by field order); `prepared` is only handed
            // out borrowed from `self`, with `self`'s lifetime (`Prepared` is covariant).
            let text: &'static TextFile = unsafe { &*Arc::as_ptr(t) };
            Prepared::new(text)
        });
        PreparedFile { prepared, text, existed, unusable }
    }

    /// The file's lines, when they are exactly `str::lines` of its text (no BOM).
    pub fn lines(&self) -> Option<&[String]> {
        self.text.as_deref().filter(|t| !t.bom).map(|t| t.lines.as_slice())
    }

    /// Apply one edit alone to this version of the file: what [`super::apply_single`] gives.
    /// A hunk located in one piece costs O(its lines and their index hits); anything else
    /// (a refusal, a hunk in parts, a whole-file edit) copies the file.
    pub fn place(&self, edit: &Edit, path: &str) -> (EditReport, Option<Placed>) {
        let prepared: Option<&Prepared<'_>> = self.prepared.as_ref();
        if let (Some(text), Some(p), None) = (self.text.as_deref(), prepared, &self.unusable)
            && let Some(placed) = modify_lines(edit, path, text, p)
        {
            return placed;
        }
        let mut w = Working {
            existed: self.existed,
            text: self.text.as_deref().cloned(),
            unusable: self.unusable.clone(),
            dirty: false,
            moves: Vec::new(),
            hunks: Default::default(),
            applied_now: Vec::new(),
            placed: Vec::new(),
        };
        let report = guarded(edit, path, &mut w, |w| {
            apply_edit(edit, path, w, Default::default(), prepared)
        });
        (report, after_of(w).map(Placed::File))
    }
}

/// A modify edit located in one piece, applied to a copy of only the lines it can touch: from
/// its first line to the first line after it that is not a closer (`}`, `end`: `apply_hunk`
/// may move new lines past those), or the file's end. `None` for anything else (a refusal, a
/// hunk in parts, a file with a BOM), which takes the whole-file path.
fn modify_lines(
    edit: &Edit,
    path: &str,
    text: &TextFile,
    p: &Prepared,
) -> Option<(EditReport, Option<Placed>)> {
    let Change::Modify { hunk } = &edit.change else { return None };
    if text.bom
        || hunk.lines.iter().any(|l| super::escaped::has_entity(&l.text))
        || super::placeholder_in_new_text(hunk, &text.lines).is_some()
        || super::stand_in::comment_for_removed_code(path, hunk, &text.lines).is_some()
    {
        return None;
    }
    // A fresh file has no earlier hunks to shift the header's line number.
    let parts = locate_parts_indexed(hunk, &p.infos, &p.index, 0).ok()?;
    let [(h, loc)] = parts.as_slice() else { return None };
    let n = text.lines.len();
    let lo = loc.start;
    let hi = (loc.end..n).find(|&i| !is_closer(&text.lines[i])).map_or(n, |i| i + 1);
    // A place found only roughly takes the whole-file path: its checks look at the whole file
    // (the new text may stand elsewhere already, re-indenting may change the nesting around
    // the window), and the review must place a hunk exactly as `apply` does.
    let rough = loc.strategy == crate::core::locate::MatchKind::Fuzzy;
    // New lines that may open a string spanning lines: whether they do depends on the file
    // above the window (`apply_hunk` reads it from the file's start).
    let strings = (h.lines.iter())
        .any(|l| l.kind == LineKind::Add && crate::core::strings::may_open(&l.text));
    // A makefile's new recipe lines look above the window for their rule.
    let recipes = p.style.for_path(path, &[]).recipes;
    if rough
        || strings
        || recipes
        || super::annotations::reattach(path, h, loc, &text.lines).is_some()
        || placement_doubt(&parts, &text.lines, &p.starts).is_some()
        || super::also_outside_a_string(hunk, &parts, &text.lines, &p.starts, 0).is_some()
        || super::also_shifted_elsewhere(hunk, &parts, &text.lines, 0).is_some()
        || in_place_already(&parts, &text.lines).is_some()
        || crate::core::apply::places_past_its_lines(loc)
        || crate::core::apply::may_go_past_its_lines(&text.lines, h, loc, p.style)
    {
        return None;
    }
    let local = shifted(loc, lo, hi)?;
    let mut window = TextFile {
        bom: false,
        lines: text.lines[lo..hi].to_vec(),
        eols: text.eols[lo..hi].to_vec(),
        dominant: text.dominant,
    };
    apply_hunk_styled(&mut window, h, &local, p.style);
    if verify::check_window(&text.lines, (lo, hi), &window.lines, hunk, Some(&p.held)).is_err()
        || lands_beside_a_copy(hunk, &text.lines, (lo, hi), &window.lines)
    {
        return None;
    }
    let report = applied_report(edit, path, &parts);
    let (lines, eols) = (window.lines, window.eols);
    Some((report, Some(Placed::Lines { start: lo, end: hi, lines, eols })))
}

/// Whether a pure insertion placed in the window `lo..hi` (now `window`) lands right beside a
/// copy of itself (an edit made a second time): the whole-file path reports that as already
/// applied, so the window defers to it. The lines around the window as far as the insertion is
/// long are looked at too: the copy may stand just outside it.
fn lands_beside_a_copy(
    hunk: &crate::core::edit::Hunk,
    lines: &[String],
    (lo, hi): (usize, usize),
    window: &[String],
) -> bool {
    use crate::core::edit::LineKind;
    if hunk.lines.iter().any(|l| l.kind == LineKind::Remove) {
        return false;
    }
    let added = hunk.lines.iter().filter(|l| l.kind == LineKind::Add).count();
    let (from, to) = (lo.saturating_sub(added), (hi + added).min(lines.len()));
    let mut after: Vec<String> = lines[from..lo].to_vec();
    after.extend(window.iter().cloned());
    after.extend(lines[hi..to].iter().cloned());
    super::already::inserted_twice(&lines[from..to], &after, |_| false).is_some()
}

/// A located hunk's lines counted from `lo`, if they all fall in `lo..hi` (and `lo < hi`: an
/// empty window cannot keep the file's final-newline state).
fn shifted(loc: &Located, lo: usize, hi: usize) -> Option<Located> {
    if lo >= hi || loc.end > hi {
        return None;
    }
    let at = |f: usize| (lo..hi).contains(&f).then(|| f - lo);
    let slots = loc
        .slots
        .iter()
        .map(|s| {
            Some(match *s {
                HunkSlot::Kept(f, l) => HunkSlot::Kept(at(f)?, l),
                HunkSlot::Removed(f, l) => HunkSlot::Removed(at(f)?, l),
                HunkSlot::Elided(s, e) if s >= lo && s <= e && e <= hi => {
                    HunkSlot::Elided(s - lo, e - lo)
                }
                HunkSlot::Elided(..) => return None,
                HunkSlot::Add => HunkSlot::Add,
                HunkSlot::ForgottenAdd => HunkSlot::ForgottenAdd,
                HunkSlot::Ignored => HunkSlot::Ignored,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Located { slots, start: 0, end: loc.end - lo, ..loc.clone() })
}

/// What locating and applying hunks in one text needs, built once for many hunks: each line's
/// locator form, where each line occurs, and how the file indents.
pub(super) struct Prepared<'a> {
    pub(super) infos: Vec<LineInfo<'a>>,
    pub(super) index: FileIndex,
    pub(super) style: FileStyle,
    /// How many times the file holds each line, trimmed. (Made at once: a lazy cell would make
    /// `Prepared` invariant in `'a`, and `PreparedFile` relies on it being covariant.)
    held: HashMap<&'a str, u32>,
    /// Where strings spanning lines begin and end, worked out on first need.
    pub(super) starts: Starts,
}

impl<'a> Prepared<'a> {
    pub(super) fn new(text: &'a TextFile) -> Prepared<'a> {
        let infos: Vec<LineInfo> = text.lines.iter().map(|l| LineInfo::new(l)).collect();
        let index = FileIndex::new(&infos);
        let style = file_style(text.lines.iter().map(|s| s.as_str()));
        let mut held: HashMap<&str, u32> =
            HashMap::with_capacity_and_hasher(text.lines.len(), Default::default());
        for l in &text.lines {
            *held.entry(l.trim()).or_default() += 1;
        }
        Prepared { infos, index, style, held, starts: Starts::default() }
    }
}
