//! Placing a hunk with some of the file's lines out of reach: the lines another hunk of the
//! reply writes (a removal written as the moved copy reads is meant for the original), a place
//! found inside a string literal (is the code outside it a second place?), or a place found as
//! written (is the same text, indented otherwise, a second place?).
//!
//! Not for: locating itself (`core::locate`), or the doubts about a place found (`doubt`).

use crate::core::edit::Hunk;
use crate::core::locate::lines::{FileIndex, LineInfo};
use crate::core::locate::{HunkSlot, Located, MatchKind, RefusalKind, locate_parts_indexed};
use crate::core::strings::Starts;

/// Locate `hunk` with file lines `start..end` out of reach (each stands for no text the hunk
/// has): line numbers stay the file's, and the parts must touch nothing in that range. `None`
/// when the hunk's old text is nowhere else, else why it cannot be placed there.
pub(super) fn locate_outside(
    hunk: &Hunk,
    lines: &[String],
    (start, end): (usize, usize),
    shift: isize,
) -> Result<Vec<(Hunk, Located)>, Option<String>> {
    const MASK: &str = "\u{0}";
    let infos: Vec<LineInfo> = (lines.iter().enumerate())
        .map(|(i, l)| LineInfo::new(if (start..end).contains(&i) { MASK } else { l }))
        .collect();
    let parts = match locate_parts_indexed(hunk, &infos, &FileIndex::new(&infos), shift) {
        Ok(parts) => parts,
        Err(r) if matches!(r.kind, RefusalKind::NotFound | RefusalKind::RemovedNotFound) => {
            return Err(None);
        }
        Err(r) => return Err(Some(format!("elsewhere: {}", r.message))),
    };
    let reaches = (parts.iter().flat_map(|(_, loc)| &loc.slots)).any(
        |s| matches!(s, HunkSlot::Removed(f, _) | HunkSlot::Kept(f, _) if (start..end).contains(f)),
    );
    if reaches {
        return Err(Some("found elsewhere only together with them".into()));
    }
    Ok(parts)
}

/// A place found whole inside a multi-line string literal (a template holding an example of the
/// code) while the hunk is found in the code too, once those lines are out of reach (the model
/// left out the code's `export`): which of the two the model meant is a guess.
pub(super) fn also_outside_a_string(
    hunk: &Hunk,
    parts: &[(Hunk, Located)],
    lines: &[String],
    starts: &Starts,
    shift: isize,
) -> Option<String> {
    let [(_, loc)] = parts else { return None };
    if loc.end <= loc.start || !starts.may_open_before(lines, loc.start) {
        return None;
    }
    let opened = starts.opened(lines);
    let first = opened[loc.start]?;
    let in_one_string = |opened: &[Option<usize>]| {
        opened.first().copied().flatten().is_some_and(|o| opened.iter().all(|x| *x == Some(o)))
    };
    if !in_one_string(&opened[loc.start..loc.end]) {
        return None;
    }
    let other = locate_outside(hunk, lines, (loc.start, loc.end), shift).ok()?;
    let (start, end) = (other.first()?.1.start, other.last()?.1.end);
    // The other place inside a string too (two templates alike): the strings are the code
    // here, and the exact one is the place.
    if in_one_string(&opened[start..end]) {
        return None;
    }
    Some(format!(
        "the old text stands inside the string that opens at line {} (lines {}-{}), and like it in the code at lines {}-{}: which one the edit changes is a guess; include a line that tells them apart",
        first + 1,
        loc.start + 1,
        loc.end,
        start + 1,
        end
    ))
}

/// The same lines found as written at one place (`here`) and, all indented otherwise by one
/// step, at another place apart from it (`there`, placed): see [`also_shifted_elsewhere`].
pub(super) struct ShiftedTwin {
    pub here: (usize, usize),
    pub there: Vec<(Hunk, Located)>,
}

impl ShiftedTwin {
    /// The placement a person chose among the two (`Hunk::pick`, a first line), if they did.
    pub fn picked(
        self,
        pick: Option<usize>,
        here: Vec<(Hunk, Located)>,
    ) -> Option<Vec<(Hunk, Located)>> {
        let p = pick?.checked_sub(1)?;
        let there = self.there.first().map(|(_, l)| l.start);
        if p == self.here.0 {
            Some(here)
        } else if Some(p) == there {
            Some(self.there)
        } else {
            None
        }
    }

    pub fn why(&self) -> String {
        let (start, end) = self.span_there();
        format!(
            "the old text stands as written at lines {}-{}, and indented otherwise at lines {}-{}: which one the edit changes is a guess; include a line that tells them apart",
            self.here.0 + 1,
            self.here.1,
            start + 1,
            end
        )
    }

    /// The two places, for a person to choose from.
    pub fn candidates(&self) -> Vec<crate::core::locate::Candidate> {
        let (start, end) = self.span_there();
        let mut c = vec![(self.here, 1.0), ((start, end), 1.0)];
        c.sort_by_key(|((s, _), _)| *s);
        c.into_iter()
            .map(|((s, e), similarity)| crate::core::locate::Candidate {
                first_line: s + 1,
                last_line: e.max(s + 1),
                similarity,
            })
            .collect()
    }

    fn span_there(&self) -> (usize, usize) {
        let start = self.there.first().map_or(0, |(_, l)| l.start);
        let end = self.there.last().map_or(0, |(_, l)| l.end);
        (start, end)
    }
}

/// A place where every line stands as written, while the same lines stand, all indented
/// otherwise by one step, at a place apart from it: a model's block is dedented or indented as
/// often as not, so being as written there is no evidence (two `KEY: value` lines in a YAML
/// anchor and, deeper, in the service the reply talks about). Lines that say nothing (closers,
/// blank lines) settle nothing, and a header's line number pointing at the place settles it.
pub(super) fn also_shifted_elsewhere(
    hunk: &Hunk,
    parts: &[(Hunk, Located)],
    lines: &[String],
    shift: isize,
) -> Option<ShiftedTwin> {
    let [(_, loc)] = parts else { return None };
    if loc.strategy != MatchKind::Exact || loc.end <= loc.start {
        return None;
    }
    // (A header whose section heading the file no longer has is stale: its number too.)
    let stale = crate::core::locate::stale_heading(
        hunk.section.as_deref(),
        lines.iter().map(String::as_str),
    );
    if !stale
        && hunk
            .old_start_hint
            .is_some_and(|h| (h as isize + shift - 1 - loc.start as isize).abs() <= 3)
    {
        return None;
    }
    let old: Vec<&str> = (hunk.lines.iter())
        .filter(|l| l.kind != crate::core::edit::LineKind::Add)
        .map(|l| l.text.trim())
        .filter(|t| !t.is_empty())
        .collect();
    let says = |t: &str| {
        !crate::core::indent::is_closer(t) && t.chars().filter(|c| c.is_alphanumeric()).count() >= 3
    };
    // (A cheap look first: the most telling old line, indented otherwise outside the place.)
    let telling = old.iter().copied().filter(|t| says(t)).max_by_key(|t| t.len())?;
    let indent = |l: &str| l.len() - l.trim_start().len();
    let at = (loc.start..loc.end).find(|&f| lines[f].trim() == telling)?;
    let elsewhere = (lines.iter().enumerate()).any(|(f, l)| {
        !(loc.start..loc.end).contains(&f) && l.trim() == telling && indent(l) != indent(&lines[at])
    });
    if !elsewhere {
        return None;
    }
    let there = locate_outside(hunk, lines, (loc.start, loc.end), shift).ok()?;
    let [(_, o)] = there.as_slice() else { return None };
    if o.strategy != MatchKind::Indentation || o.end <= o.start {
        return None;
    }
    Some(ShiftedTwin { here: (loc.start, loc.end), there })
}
