//! Pure text edits: applying a located hunk to a file's lines.
//!
//! Lines the hunk shares with the file keep the file's own text (so a copy error or a
//! whitespace slip in the model's context never reaches the file); lines the model left out
//! stay where they are; added lines go right after the line they follow in the hunk, in the
//! file's indentation. What this module does not do: decide where a hunk goes (`core::locate`).

use crate::core::edit::Hunk;
use crate::core::indent::{IndentMap, uses_tabs};
use crate::core::locate::{HunkSlot, Located};
use crate::core::text::{NewLine, TextFile};

/// Apply a located hunk; returns how many lines the file grew (negative: shrank).
pub fn apply_hunk(file: &mut TextFile, hunk: &Hunk, loc: &Located) -> isize {
    let tabs = uses_tabs(file.lines.iter().map(|s| s.as_str()));
    let pairs = hunk.lines.iter().zip(&loc.slots).filter_map(|(l, s)| match s {
        HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => Some((l.text.as_str(), file.lines[*f].as_str())),
        _ => None,
    });
    let indent = IndentMap::learn(pairs, tabs);
    let keep = |out: &mut Vec<NewLine>, from: usize, to: usize, file: &TextFile| {
        for f in from..to {
            out.push(NewLine::kept(file.lines[f].clone(), file.eols[f]));
        }
    };
    let mut out = Vec::new();
    let mut pos = loc.start;
    for (k, (line, slot)) in hunk.lines.iter().zip(&loc.slots).enumerate() {
        match *slot {
            HunkSlot::Kept(f, _) => {
                keep(&mut out, pos, f + 1, file);
                pos = f + 1;
            }
            HunkSlot::Removed(f, _) => {
                keep(&mut out, pos, f, file);
                pos = f + 1;
            }
            HunkSlot::Elided(_, e) => {
                keep(&mut out, pos, e.max(pos), file);
                pos = e.max(pos);
            }
            HunkSlot::Add | HunkSlot::ForgottenAdd => {
                // Lines the model left out that close the construct before (a docstring's `"""`,
                // a `}`) stay with it: new lines go after them.
                let next = next_anchor(&loc.slots[k..]).unwrap_or(loc.end);
                while pos < next && is_closer(&file.lines[pos]) {
                    keep(&mut out, pos, pos + 1, file);
                    pos += 1;
                }
                out.push(NewLine::added(indent.apply(&line.text)));
            }
            HunkSlot::Ignored => {}
        }
    }
    keep(&mut out, pos, loc.end, file);
    let grew = out.len() as isize - (loc.end - loc.start) as isize;
    file.splice(loc.start, loc.end, out);
    grew
}

/// The first file line the following slots are anchored at.
fn next_anchor(slots: &[HunkSlot]) -> Option<usize> {
    slots.iter().find_map(|s| match s {
        HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => Some(*f),
        HunkSlot::Elided(s, _) if *s != usize::MAX => Some(*s),
        _ => None,
    })
}

/// A line that only closes a construct: `}`, `)`, `"""`, `end`, `*/`.
fn is_closer(line: &str) -> bool {
    let t = line.trim();
    matches!(t, "\"\"\"" | "'''" | "end" | "fi" | "done" | "esac" | "*/" | "-->")
        || (!t.is_empty() && t.chars().all(|c| matches!(c, ')' | ']' | '}' | ';' | ',')))
}
