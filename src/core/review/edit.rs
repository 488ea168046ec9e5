//! The user's own changes to a pending hunk: splitting it into its groups of changes, and
//! replacing its new text (edited in `$EDITOR`).

use super::{HunkId, HunkState, Review, hunk_id};
use crate::core::edit::{Change, Edit, Hunk, HunkLine, LineKind};
use crate::core::report::Status;

impl Review {
    /// Split a pending diff, SEARCH/REPLACE hunk or placed listing of an existing file into one
    /// hunk per group of changes, each with up to three unchanged lines around it and its line
    /// number. Returns whether it was split.
    pub fn split(&mut self, id: HunkId) -> bool {
        let Some(idx) = self.hunks.position(id) else { return false };
        let h = &self.hunks[idx];
        if h.state != HunkState::Pending {
            return false;
        }
        let whole;
        let hunk = match &h.edit.change {
            Change::Modify { hunk } => hunk,
            // A listing of an existing file, placed: its changes as the file shows them, each
            // with the file's own lines around it and its line number.
            Change::Replace { .. }
                if h.report.status == Status::Placed
                    && !h.preview.deletes
                    && !h.preview.old.is_empty() =>
            {
                whole = Hunk {
                    old_start_hint: Some(h.preview.start),
                    ..Hunk::from_old_new(&h.preview.old, &h.preview.new)
                };
                &whole
            }
            _ => return false,
        };
        let parts = split_hunk(hunk, 3);
        if parts.len() < 2 {
            return false;
        }
        let (path, edit, origin) = (h.path.clone(), h.edit.clone(), h.origin);
        let parts = parts
            .into_iter()
            .map(|part| {
                let edit = Edit { change: Change::Modify { hunk: part }, ..edit.clone() };
                let id = hunk_id(&path, &edit);
                let mut hunk = self.new_hunk(id, path.clone(), edit);
                hunk.origin = origin;
                hunk
            })
            .collect();
        self.hunks.splice(idx, parts);
        true
    }

    /// Replace a pending hunk's new text (edited by the user before accepting).
    pub fn edit_new_text(&mut self, id: HunkId, new_text: &str) -> bool {
        let Some(idx) = self.hunks.position(id) else { return false };
        if !self.hunks[idx].state.is_open() {
            return false;
        }
        let mut edit = self.hunks[idx].edit.clone();
        let new_lines: Vec<String> = new_text.lines().map(String::from).collect();
        match &mut edit.change {
            Change::Modify { hunk } => {
                let old: Vec<String> = hunk.old_lines().map(String::from).collect();
                let mut h = Hunk::from_old_new(&old, &new_lines);
                h.old_start_hint = hunk.old_start_hint;
                *hunk = h;
            }
            Change::Create { content } | Change::Replace { content } => {
                *content = new_text.to_string()
            }
            Change::Delete { .. } => return false,
        }
        let mut h = self.hunks[idx].clone();
        h.edit = edit;
        self.place(&mut h);
        h.state =
            if h.report.status == Status::Placed { HunkState::Pending } else { HunkState::Failed };
        *self.hunks.get_mut(idx) = h;
        true
    }
}

/// Cut a hunk into one hunk per group of changes, keeping up to `context` unchanged lines on each
/// side of each group.
pub fn split_hunk(hunk: &Hunk, context: usize) -> Vec<Hunk> {
    let lines = &hunk.lines;
    let mut groups: Vec<(usize, usize)> = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        if lines[k].kind == LineKind::Context {
            k += 1;
            continue;
        }
        let start = k;
        while k < lines.len() && lines[k].kind != LineKind::Context {
            k += 1;
        }
        groups.push((start, k));
    }
    if groups.len() < 2 {
        return vec![hunk.clone()];
    }
    let mut parts = Vec::new();
    for (g, &(s, e)) in groups.iter().enumerate() {
        let prev_end = if g == 0 { 0 } else { groups[g - 1].1 };
        let next_start = groups.get(g + 1).map_or(lines.len(), |x| x.0);
        // Context between two groups is shared out, each side taking up to `context` lines.
        let lo =
            s.saturating_sub(context).max(if g == 0 { 0 } else { prev_end + (s - prev_end) / 2 });
        let mut hi = (e + context).min(if g + 1 == groups.len() {
            lines.len()
        } else {
            e + (next_start - e).div_ceil(2)
        });
        // A part needs an old line that says where it goes: blank lines alone place nothing.
        // Its context reaches further (into the lines the part beside it keeps too, which
        // stay where they are) until it has one; a part that cannot have one is no part.
        let telling = |l: &HunkLine| l.kind != LineKind::Add && !l.text.trim().is_empty();
        let mut lo = lo;
        while !lines[lo..hi].iter().any(telling) {
            match (lo > 0, hi < lines.len()) {
                (false, false) => return vec![hunk.clone()],
                (down, up) => {
                    lo -= usize::from(down);
                    hi += usize::from(up);
                }
            }
        }
        // A hunk that knows its first line's number gives each part its own.
        let before = lines[..lo].iter().filter(|l| l.kind != LineKind::Add).count();
        parts.push(Hunk {
            lines: lines[lo..hi].to_vec(),
            old_start_hint: hunk.old_start_hint.map(|h| h + before),
            marked: hunk.marked,
            pick: None,
            section: None,
            other_split: None,
        });
    }
    parts
}
