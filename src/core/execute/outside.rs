//! Placing a hunk with some of the file's lines out of reach: the lines another hunk of the
//! reply writes (a removal written as the moved copy reads is meant for the original), or a
//! place found inside a string literal (is the code outside it a second place?).
//!
//! Not for: locating itself (`core::locate`), or the doubts about a place found (`doubt`).

use crate::core::edit::Hunk;
use crate::core::locate::lines::{FileIndex, LineInfo};
use crate::core::locate::{HunkSlot, Located, RefusalKind, locate_parts_indexed};

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
    shift: isize,
) -> Option<String> {
    let [(_, loc)] = parts else { return None };
    if loc.end <= loc.start || !lines[..loc.start].iter().any(|l| crate::core::strings::may_open(l))
    {
        return None;
    }
    let mut strings = crate::core::strings::Strings::new();
    let mut opened: Vec<Option<usize>> = lines[..loc.end].iter().map(|l| strings.line(l)).collect();
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
    opened.extend(lines[opened.len()..end.max(opened.len())].iter().map(|l| strings.line(l)));
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
