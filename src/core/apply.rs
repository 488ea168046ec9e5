//! Pure text edits: applying a located hunk to a file's lines.
//!
//! Lines the hunk shares with the file keep the file's own text (so a copy error or a
//! whitespace slip in the model's context never reaches the file); lines the model left out
//! stay where they are; added lines go right after the line they follow in the hunk, in the
//! file's indentation. What this module does not do: decide where a hunk goes (`core::locate`).

use crate::core::edit::Hunk;
use crate::core::indent::{FileStyle, IndentMap, file_style};
use similar::{Algorithm, DiffOp, capture_diff_slices};

use crate::core::locate::lines::Likeness;
use crate::core::locate::{HunkSlot, Located};
use crate::core::text::{NewLine, TextFile};

/// Apply a located hunk; returns how many lines the file grew (negative: shrank).
pub fn apply_hunk(file: &mut TextFile, hunk: &Hunk, loc: &Located) -> isize {
    let style = file_style(file.lines.iter().map(|s| s.as_str()));
    apply_hunk_styled(file, hunk, loc, style)
}

/// [`apply_hunk`] with the file's indentation style read by the caller (`style` must be
/// `file_style` of `file`'s lines), once for many hunks applied to copies of the same text.
pub fn apply_hunk_styled(
    file: &mut TextFile,
    hunk: &Hunk,
    loc: &Located,
    style: FileStyle,
) -> isize {
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
    let mut end = loc.end;
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
                    let next = match next_anchor(&slots[run_end..]) {
                        Some(n) => n.max(pos),
                        // New lines ending the hunk: lines that close the construct they follow
                        // (`}` of the function the hunk's last line is in) come first when the new
                        // lines are no deeper than them, or the new code would land inside it.
                        None => {
                            let depth = added
                                .iter()
                                .find(|l| !l.trim().is_empty())
                                .map(|l| columns(&indent.apply(l)));
                            let mut n = pos;
                            while let (Some(d), Some(line)) = (depth, file.lines.get(n))
                                && is_closer(line)
                                && columns(line) >= d
                            {
                                n += 1;
                            }
                            end = end.max(n);
                            n
                        }
                    };
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
                    // Replacing removed lines: where a removed line was found only roughly (a
                    // copy error, a fragment of the line), the model's change is carried onto
                    // the file's own line instead of overwriting it.
                    let removed: Vec<usize> = (0..k)
                        .rev()
                        .take_while(|&j| matches!(slots[j], HunkSlot::Removed(..)))
                        .collect::<Vec<_>>()
                        .into_iter()
                        .rev()
                        .collect();
                    let pairs = removed.len() == added.len();
                    for (i, l) in added.iter().enumerate() {
                        let merged = match pairs.then(|| slots[removed[i]]) {
                            Some(HunkSlot::Removed(f, Likeness::Fuzzy(_))) => {
                                merge_line(&hunk.lines[removed[i]].text, l, &file.lines[f])
                            }
                            _ => None,
                        };
                        out.push(NewLine::added(merged.unwrap_or_else(|| indent.apply(l))));
                    }
                }
                k = run_end;
                continue;
            }
        }
        k += 1;
    }
    keep(&mut out, pos, end, file);
    let grew = out.len() as isize - (end - loc.start) as isize;
    file.splice(loc.start, end, out);
    grew
}

/// A line that only closes a construct: `}`, `});`, `end`, `)`.
pub(crate) fn is_closer(line: &str) -> bool {
    let t = line.trim();
    matches!(t, "end" | "fi" | "done" | "esac" | "*/" | "-->")
        || (!t.is_empty() && t.chars().all(|c| matches!(c, ')' | ']' | '}' | ';' | ',')))
}

/// Indentation width, a tab counting 4.
fn columns(line: &str) -> usize {
    line.chars().take_while(|c| c.is_whitespace()).map(|c| if c == '\t' { 4 } else { 1 }).sum()
}

/// Carry the model's change of one line (`model_old` → `model_new`) onto the file's own version
/// of it (`file_line`), which differs from `model_old` by a copy error or by being longer (the
/// model quoted a fragment). `None` when the two differences overlap.
pub fn merge_line(model_old: &str, model_new: &str, file_line: &str) -> Option<String> {
    let base = model_old.trim();
    let theirs = model_new.trim();
    let body = file_line.trim_start();
    let indent = &file_line[..file_line.len() - body.len()];
    if !base.is_empty() && body.trim_end() != base && body.matches(base).count() == 1 {
        return Some(file_line.replacen(base, theirs, 1));
    }
    let b: Vec<char> = base.chars().collect();
    let o: Vec<char> = body.trim_end().chars().collect();
    let t: Vec<char> = theirs.chars().collect();
    let ours = char_edits(&b, &o);
    let mine = char_edits(&b, &t);
    for (r1, _) in &ours {
        for (r2, _) in &mine {
            let overlap = r1.start < r2.end && r2.start < r1.end;
            let same_point = r1.start == r2.start && (r1.is_empty() || r2.is_empty());
            if overlap || same_point {
                return None;
            }
        }
    }
    let mut all: Vec<&(std::ops::Range<usize>, Vec<char>)> = ours.iter().chain(&mine).collect();
    all.sort_by_key(|(r, _)| (r.start, r.end));
    let mut out = String::from(indent);
    let mut at = 0;
    for (r, with) in all {
        // Two edits touching one point in an order the overlap test above lets through (an
        // insertion inside a replaced stretch): not guessed at.
        if r.start < at {
            return None;
        }
        out.extend(&b[at..r.start]);
        out.extend(with);
        at = r.end;
    }
    out.extend(&b[at..]);
    Some(out)
}

/// The edits that turn `from` into `to`: ranges of `from` and what replaces them.
fn char_edits(from: &[char], to: &[char]) -> Vec<(std::ops::Range<usize>, Vec<char>)> {
    capture_diff_slices(Algorithm::Myers, from, to)
        .into_iter()
        .filter(|op| !matches!(op, DiffOp::Equal { .. }))
        .map(|op| (op.old_range(), to[op.new_range()].to_vec()))
        .collect()
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

#[cfg(test)]
mod tests {
    use super::merge_line;

    #[test]
    fn carries_a_change_onto_the_files_line() {
        // A copy error elsewhere in the line survives.
        assert_eq!(
            merge_line("def start_task(x):", "def start_task(x, y):", "def create_task(x):")
                .as_deref(),
            Some("def create_task(x, y):")
        );
        // A fragment of the line.
        assert_eq!(merge_line("x + 1", "x + 2", "    w = x + 1").as_deref(), Some("    w = x + 2"));
        // Overlapping differences are not guessed at.
        assert_eq!(merge_line("a = 1", "a = 2", "a = 3"), None);
    }

    #[test]
    fn numbers_differing_by_a_digit_never_panic() {
        for (old, new, file) in [
            ("return 103", "return 100", "    return 100"),
            ("return 103", "return 104", "return 100"),
            ("x = 19", "x = 10", "x = 10"),
            ("a1b", "a2b", "a12b"),
            ("ab", "abc", "b"),
        ] {
            let _ = merge_line(old, new, file);
        }
    }

    proptest::proptest! {
        #[test]
        fn merging_any_short_lines_never_panics(
            old in "(return )?[01 3]{0,5}",
            new in "(return )?[01 3]{0,5}",
            file in " {0,4}(return )?[01 3]{0,5}",
        ) {
            let _ = merge_line(&old, &new, &file);
        }
    }
}
