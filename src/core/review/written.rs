//! What an applied hunk's decision wrote: its file before and after it, for undo, for checking
//! what a write found, and for the preview of what the hunk changed. A hunk accepted alone keeps
//! both texts. The hunks of one file accepted together, each in a window of lines apart from
//! the others' ([`Windows`]), share the file as it was before them and keep only their window:
//! a text is made when something asks for it (an undo), so accepting n hunks of a big file
//! neither builds it n times nor keeps n copies of it.
//!
//! Not for: deciding which hunks go together (`accepting`), placing (`placing`).

use std::sync::Arc;

use super::Preview;
use super::placing::{preview, preview_of, source_lines};
use crate::core::execute::After;
use crate::core::file::Source;
use crate::core::text::{Eol, TextFile};

/// The file before and after one applied hunk.
#[derive(Debug, Clone)]
pub(super) enum Wrote {
    /// Both texts.
    Whole(Source, After),
    /// Step `.1` of hunks accepted together: the file as the steps before it left it, and as
    /// it left it.
    Step(Arc<Windows>, usize),
}

/// Hunks of one file accepted together: the file before them, and each one's window, in the
/// order they were accepted. The windows are apart, so each step's text is the file with the
/// windows up to it put in, in any order.
#[derive(Debug)]
pub(super) struct Windows {
    pub(super) first: TextFile,
    pub(super) steps: Vec<Window>,
}

/// A hunk's lines `start..end` of the file become `lines`, ending `eols`.
#[derive(Debug, Clone)]
pub(super) struct Window {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) lines: Vec<String>,
    pub(super) eols: Vec<Eol>,
}

impl Windows {
    /// The file's text once the first `n` steps are made.
    pub(super) fn text_after(&self, n: usize) -> String {
        let mut made: Vec<&Window> = self.steps[..n].iter().collect();
        made.sort_unstable_by_key(|w| w.start);
        let first = &self.first;
        let mut out = String::with_capacity(first.lines.iter().map(|l| l.len() + 2).sum());
        let mut push = |lines: &[String], eols: &[Eol]| {
            for (line, eol) in lines.iter().zip(eols) {
                out.push_str(line);
                out.push_str(eol.as_str());
            }
        };
        let mut at = 0;
        for w in made {
            push(&first.lines[at..w.start], &first.eols[at..w.start]);
            push(&w.lines, &w.eols);
            at = w.end;
        }
        push(&first.lines[at..], &first.eols[at..]);
        out
    }

    /// How far step `i`'s window stands from where it stood in the first text, once the steps
    /// before it are made: the lines those above it added, less the ones they took out.
    pub(super) fn shift(&self, i: usize) -> isize {
        let start = self.steps[i].start;
        (self.steps[..i].iter())
            .filter(|w| w.end <= start)
            .map(|w| w.lines.len() as isize - (w.end - w.start) as isize)
            .sum()
    }
}

impl Wrote {
    /// The file before the hunk.
    pub(super) fn before(&self) -> Source {
        match self {
            Wrote::Whole(before, _) => before.clone(),
            Wrote::Step(w, i) => Source::Text(w.text_after(*i)),
        }
    }

    /// The file after the hunk.
    pub(super) fn after(&self) -> After {
        match self {
            Wrote::Whole(_, after) => after.clone(),
            Wrote::Step(w, i) => After::Text(w.text_after(i + 1)),
        }
    }

    /// Whether `next` found the file just as this left it.
    pub(super) fn followed_by(&self, next: &Wrote) -> bool {
        match (self, next) {
            (Wrote::Step(a, i), Wrote::Step(b, j)) if Arc::ptr_eq(a, b) => *j == i + 1,
            _ => self.after().is(&next.before()),
        }
    }

    /// Whether the hunk left the file holding `found`.
    pub(super) fn left(&self, found: &Source) -> bool {
        match self {
            Wrote::Whole(_, after) => after.is(found),
            Wrote::Step(..) => self.after().is(found),
        }
    }

    /// Whether the file held `found` before the hunk.
    pub(super) fn found(&self, found: &Source) -> bool {
        match (self, found) {
            (Wrote::Whole(Source::Text(b), _), Source::Text(f)) => b == f,
            (Wrote::Whole(Source::Missing, _), Source::Missing) => true,
            (Wrote::Whole(..), _) => false,
            (Wrote::Step(..), _) => match (self.before(), found) {
                (Source::Text(b), Source::Text(f)) => b == *f,
                _ => false,
            },
        }
    }

    /// What the hunk changed, in the file as it found it.
    pub(super) fn preview(&self) -> Preview {
        match self {
            Wrote::Whole(before, after) => {
                preview_of(before, &source_lines(before), Some(after.clone()))
            }
            Wrote::Step(w, i) => {
                let step = &w.steps[*i];
                let old: Vec<&str> =
                    w.first.lines[step.start..step.end].iter().map(String::as_str).collect();
                let new: Vec<&str> = step.lines.iter().map(String::as_str).collect();
                let mut p = preview(&old, &new);
                if !(p.old.is_empty() && p.new.is_empty()) {
                    p.start = (p.start + step.start).saturating_add_signed(w.shift(*i));
                }
                p
            }
        }
    }
}
