//! Pure text edits: applying a located hunk to a file's lines.
//!
//! Lines the hunk shares with the file keep the file's own text (so a copy error or a
//! whitespace slip in the model's context never reaches the file); lines the model left out
//! stay where they are; added lines go right after the line they follow in the hunk, in the
//! file's indentation. What this module does not do: decide where a hunk goes (`core::locate`).

use crate::core::edit::Hunk;
use crate::core::indent::{IndentMap, file_style};
use crate::core::locate::{HunkSlot, Located};
use crate::core::text::{NewLine, TextFile};

/// Apply a located hunk; returns how many lines the file grew (negative: shrank).
pub fn apply_hunk(file: &mut TextFile, hunk: &Hunk, loc: &Located) -> isize {
    let style = file_style(file.lines.iter().map(|s| s.as_str()));
    let pairs = hunk.lines.iter().zip(&loc.slots).filter_map(|(l, s)| match s {
        HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => {
            Some((l.text.as_str(), file.lines[*f].as_str()))
        }
        _ => None,
    });
    let indent = IndentMap::learn(pairs, style);
    let keep = |out: &mut Vec<NewLine>, from: usize, to: usize, file: &TextFile| {
        for f in from..to {
            out.push(NewLine::kept(file.lines[f].clone(), file.eols[f]));
        }
    };
    let mut out = Vec::new();
    let mut pos = loc.start;
    let slots = &loc.slots;
    let mut k = 0;
    while k < slots.len() {
        match slots[k] {
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
            HunkSlot::Ignored => {}
            HunkSlot::Add | HunkSlot::ForgottenAdd => {
                let run_end =
                    (k..slots.len()).find(|&j| !is_added(slots[j])).unwrap_or(slots.len());
                let added: Vec<&str> = (k..run_end).map(|j| hunk.lines[j].text.as_str()).collect();
                let after_removal =
                    k > 0 && slots[k - 1..k].iter().any(|s| matches!(s, HunkSlot::Removed(..)));
                if !after_removal {
                    // Lines the model left out between the line these follow and the next one
                    // (a docstring's closing quotes, a comment, an attribute) stay before them:
                    // the model wrote the new lines right before that next line. Blank lines it
                    // left out stay after them, as separators.
                    let next = next_anchor(&slots[run_end..]).unwrap_or(pos).max(pos);
                    let split = (pos..next)
                        .rev()
                        .find(|&f| !file.lines[f].trim().is_empty())
                        .map_or(pos, |f| f + 1);
                    keep(&mut out, pos, split, file);
                    for l in &added {
                        out.push(NewLine::added(indent.apply(l)));
                    }
                    keep(&mut out, split, next, file);
                    pos = next;
                } else {
                    for l in &added {
                        out.push(NewLine::added(indent.apply(l)));
                    }
                }
                k = run_end;
                continue;
            }
        }
        k += 1;
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

fn is_added(s: HunkSlot) -> bool {
    matches!(s, HunkSlot::Add | HunkSlot::ForgottenAdd)
}
