//! The edit model: what a model reply proposes, independent of the format it was written in.
//!
//! Parsers (`core::parse`) produce [`Edit`]s; the locator and applier consume them. Paths here are
//! exactly as the reply wrote them (cleaned of markdown decoration, not yet resolved against the
//! project): resolution is `core::paths`' job.

use serde::Serialize;

/// The reply format an edit was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// `--- a/x` / `+++ b/x` / `@@` hunks.
    Udiff,
    /// `<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE` blocks (or ORIGINAL/UPDATED).
    SearchReplace,
    /// A whole file in a fenced block.
    Whole,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Udiff => "udiff",
            Format::SearchReplace => "search-replace",
            Format::Whole => "whole",
        }
    }
}

/// The role of one line of a hunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LineKind {
    /// Present before and after.
    Context,
    /// Present before only.
    Remove,
    /// Present after only.
    Add,
}

/// One line of a hunk, without its line ending.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct HunkLine {
    pub kind: LineKind,
    pub text: String,
}

impl HunkLine {
    pub fn new(kind: LineKind, text: impl Into<String>) -> Self {
        HunkLine { kind, text: text.into() }
    }
}

/// A change to part of a file, located by its old lines (context and removed).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Hunk {
    pub lines: Vec<HunkLine>,
    /// The 1-based old start line from an `@@ -l,n` header: a hint for choosing between equally
    /// good candidates, never trusted alone.
    pub old_start_hint: Option<usize>,
    /// Whether the model marked each line itself (`+`, `-`, space), as in a diff. Only then can a
    /// context line be a new line whose `+` was forgotten; a SEARCH/REPLACE block's context is
    /// derived, not written.
    pub marked: bool,
    /// The 1-based first line of the place a person chose among the places an ambiguous hunk
    /// fits equally well ([`crate::core::locate::Candidate`]): it decides between them, and
    /// nothing else.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pick: Option<usize>,
    /// The section heading an `@@ … @@` header ends with (`impl Display for Fahrenheit {`,
    /// `def load(path):`): the line above the hunk that encloses it, as the model saw the file.
    /// It decides between equally good places that only one of it encloses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// A SEARCH/REPLACE block with two `=======` lines is split at the first; this is the same
    /// block split at the second (the first then a setext title's underline in the old text).
    /// Taken instead when the file holds its old text as written: the underline is the file's.
    #[serde(skip)]
    pub other_split: Option<Box<Hunk>>,
}

impl Hunk {
    /// The old text's lines (context and removed), in order.
    pub fn old_lines(&self) -> impl Iterator<Item = &str> {
        self.lines.iter().filter(|l| l.kind != LineKind::Add).map(|l| l.text.as_str())
    }

    /// The new text's lines (context and added), in order.
    pub fn new_lines(&self) -> impl Iterator<Item = &str> {
        self.lines.iter().filter(|l| l.kind != LineKind::Remove).map(|l| l.text.as_str())
    }

    pub fn old_text(&self) -> String {
        join_lines(self.old_lines())
    }

    pub fn new_text(&self) -> String {
        join_lines(self.new_lines())
    }

    /// Build a hunk from an old and a new text (a SEARCH/REPLACE block) by diffing them, so that
    /// lines the model did not mean to change become context.
    ///
    /// Lines that differ only in trailing whitespace count as unchanged: the model did not mean
    /// to change them, and the file's own text is kept. Lines equal to the byte come first: only
    /// what the exact comparison leaves changed is compared without trailing whitespace, so a
    /// SEARCH line `/**␠␠` that the REPLACE keeps as it is stays the context it is, and a new
    /// `/**` written before it stays new.
    pub fn from_old_new(old: &[String], new: &[String]) -> Hunk {
        let hunk = Hunk::from_old_new_by(old, new, true);
        // Nothing but trailing whitespace differs: that is the edit (a Markdown hard break
        // taken out), not a slip to ignore.
        if old != new && hunk.lines.iter().all(|l| l.kind == LineKind::Context) {
            return Hunk::from_old_new_by(old, new, false);
        }
        hunk
    }

    /// [`Hunk::from_old_new`]; `loose`: what the exact comparison leaves changed is compared
    /// again without trailing whitespace.
    fn from_old_new_by(old: &[String], new: &[String], loose: bool) -> Hunk {
        let mut lines = Vec::with_capacity(old.len() + new.len());
        diff_into(&mut lines, old, new, String::as_str, &mut |lines, o, n| {
            if loose {
                diff_into(lines, o, n, |l| l.trim_end(), &mut replaced);
            } else {
                replaced(lines, o, n);
            }
        });
        Hunk {
            lines,
            old_start_hint: None,
            marked: false,
            pick: None,
            section: None,
            other_split: None,
        }
    }
}

/// A changed stretch as the hunk holds it: the old lines removed, then the new ones added.
fn replaced(lines: &mut Vec<HunkLine>, old: &[String], new: &[String]) {
    lines.extend(old.iter().map(|l| HunkLine::new(LineKind::Remove, l.clone())));
    lines.extend(new.iter().map(|l| HunkLine::new(LineKind::Add, l.clone())));
}

/// What [`diff_into`] does with a changed stretch: its old and new lines, appended to the hunk.
type Changed<'a> = dyn FnMut(&mut Vec<HunkLine>, &'a [String], &'a [String]) + 'a;

/// The diff of `old` and `new` compared by `key`, appended to `lines`: equal lines as context
/// (with the old side's text), each changed stretch handed to `changed`.
fn diff_into<'a>(
    lines: &mut Vec<HunkLine>,
    old: &'a [String],
    new: &'a [String],
    key: fn(&String) -> &str,
    changed: &mut Changed<'a>,
) {
    use similar::{Algorithm, DiffOp, capture_diff_slices};
    let old_cmp: Vec<&str> = old.iter().map(key).collect();
    let new_cmp: Vec<&str> = new.iter().map(key).collect();
    for op in capture_diff_slices(Algorithm::Myers, &old_cmp, &new_cmp) {
        match op {
            DiffOp::Equal { old_index, len, .. } => {
                let kept = &old[old_index..old_index + len];
                lines.extend(kept.iter().map(|l| HunkLine::new(LineKind::Context, l.clone())));
            }
            DiffOp::Delete { old_index, old_len, new_index } => {
                changed(lines, &old[old_index..old_index + old_len], &new[new_index..new_index]);
            }
            DiffOp::Insert { old_index, new_index, new_len } => {
                changed(lines, &old[old_index..old_index], &new[new_index..new_index + new_len]);
            }
            DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                let (o, n) =
                    (&old[old_index..old_index + old_len], &new[new_index..new_index + new_len]);
                changed(lines, o, n);
            }
        }
    }
}

fn join_lines<'a>(lines: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for l in lines {
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// What an edit does to its file.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Change {
    /// Replace the hunk's old lines with its new lines, wherever they are found.
    Modify { hunk: Hunk },
    /// Create a file that does not exist yet (a diff from `/dev/null`, an empty SEARCH).
    Create { content: String },
    /// Replace the file's whole text; may contain lazy placeholders for unchanged code.
    Replace { content: String },
    /// Delete the file (a diff to `/dev/null`). `old` is the text the diff's `-` lines show
    /// (`None` when it had no hunk): a delete is carried out only when that is the file's content,
    /// so a misnamed or misremembered file is never deleted.
    Delete { old: Option<String> },
}

/// Why a delete that showed `old` (its `-` lines, `None` for no hunk) must not delete a file
/// whose lines are `lines`, if it must not: the lines must be the file's, ignoring trailing
/// whitespace, line endings and blank lines at the end.
pub fn delete_mismatch(old: Option<&str>, lines: &[String]) -> Option<String> {
    let file = significant(lines.iter().map(|l| l.trim_end()).collect());
    let Some(old) = old else {
        return (!file.is_empty()).then(|| {
            "the diff to /dev/null shows none of the file's lines: a delete must show the content it removes".to_string()
        });
    };
    let old = old.strip_prefix('\u{feff}').unwrap_or(old);
    let shown = significant(old.lines().map(|l| l.trim_end()).collect());
    if shown == file {
        return None;
    }
    let first_diff = shown.iter().zip(&file).position(|(a, b)| a != b);
    Some(match first_diff {
        Some(i) => format!(
            "the diff's line {} (`{}`) is not the file's (`{}`): the `-` lines must be the file's content",
            i + 1,
            shown[i],
            file[i]
        ),
        None => format!(
            "the diff shows {} lines, the file has {}: the `-` lines must be the whole file",
            shown.len(),
            file.len()
        ),
    })
}

/// Lines without the blank ones at the end.
fn significant(mut lines: Vec<&str>) -> Vec<&str> {
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// Where a path came from; decides how freely it may be resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PathSource {
    /// A `---`/`+++` header.
    DiffHeader,
    /// A line holding only the path (possibly decorated) just before the block.
    PathLine,
    /// The fence's info string.
    FenceInfo,
    /// Inherited from the previous block (a SEARCH/REPLACE block without a path line).
    Previous,
    /// Mentioned in prose (`` `app.py` ``) since the previous block.
    Prose,
    /// A comment on a listing's first line that holds only the path (`# app/util.py`), after a
    /// line presenting a whole file without naming it ("Here's the complete file:"). The comment
    /// is part of the content and is written only if the file already starts with it.
    FirstLineComment,
}

/// One proposed edit to one file.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Edit {
    /// The path as written, cleaned of decoration, not yet resolved.
    pub path: String,
    pub path_source: PathSource,
    pub format: Format,
    pub change: Change,
    /// 1-based line range of the reply this edit was read from (first, last).
    pub reply_lines: (usize, usize),
}

/// A block the parser could not turn into an edit (a reply cut off mid-block, a block without
/// a path): reported, so the user and the model can see it, and never applied.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Problem {
    pub path: Option<String>,
    pub format: Format,
    pub reason: String,
    pub reply_lines: (usize, usize),
}
