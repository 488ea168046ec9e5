//! The last resort for a one-line change: the model quoted only part of a line (`-a+b*c` for
//! `result = a+b*c`). The quoted text must occur exactly once in the whole file, and not as the
//! start of a line that goes on (that is the model's whole line, extended since).

use crate::core::edit::{Hunk, LineKind};

/// A change inside one line: replace bytes `start..end` of line `line` with `with`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartialLine {
    pub line: usize,
    pub start: usize,
    pub end: usize,
    pub with: String,
}

/// Shortest quoted text (without whitespace) worth trusting.
const MIN_CHARS: usize = 3;

pub fn within_line(hunk: &Hunk, file: &[String]) -> Option<PartialLine> {
    let mut old = None;
    let mut new = None;
    for l in &hunk.lines {
        match l.kind {
            LineKind::Remove if old.is_none() => old = Some(l.text.trim()),
            LineKind::Add if new.is_none() => new = Some(l.text.trim()),
            LineKind::Context if l.text.trim().is_empty() => {}
            _ => return None,
        }
    }
    let (old, new) = (old?, new?);
    if old.chars().filter(|c| !c.is_whitespace()).count() < MIN_CHARS {
        return None;
    }
    let mut found = None;
    for (i, line) in file.iter().enumerate() {
        let code_start = line.len() - line.trim_start().len();
        let code_end = line.trim_end().len();
        for (at, _) in line.match_indices(old) {
            if found.is_some() {
                return None;
            }
            // The quote is the start of the line's code and the line goes on: the model's
            // whole line, which the file has since extended (`local` now `local  # A`), not a
            // part of it; replacing within it would write a line neither holds.
            if at == code_start && at + old.len() < code_end {
                return None;
            }
            found = Some(PartialLine {
                line: i,
                start: at,
                end: at + old.len(),
                with: new.to_string(),
            });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::edit::HunkLine;

    fn hunk(old: &str, new: &str) -> Hunk {
        Hunk {
            lines: vec![HunkLine::new(LineKind::Remove, old), HunkLine::new(LineKind::Add, new)],
            old_start_hint: None,
            marked: true,
            pick: None,
            section: None,
            other_split: None,
        }
    }

    #[test]
    fn replaces_a_unique_fragment() {
        let file = vec!["x = 1".to_string(), "result = a+b*c".to_string()];
        let p = within_line(&hunk("a+b*c", "x+y*z"), &file).unwrap();
        assert_eq!((p.line, p.start, p.end), (1, 9, 14));
    }

    #[test]
    fn the_start_of_a_line_that_goes_on_is_not_a_part_of_it() {
        let file = vec!["from threading import local  # A".to_string()];
        assert!(within_line(&hunk("from threading import local", "x"), &file).is_none());
        let indented = vec!["    x = compute(a) or DEFAULT".to_string()];
        assert!(within_line(&hunk("x = compute(a)", "y"), &indented).is_none());
        assert!(within_line(&hunk("compute(a)", "f(a)"), &indented).is_some(), "inside it");
    }

    #[test]
    fn refuses_repeated_or_tiny_fragments() {
        let file = vec!["a+b*c; a+b*c".to_string()];
        assert!(within_line(&hunk("a+b*c", "x"), &file).is_none());
        assert!(within_line(&hunk("ab", "x"), &["ab".to_string()]).is_none());
    }
}
