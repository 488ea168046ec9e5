//! Checks on what a reply does to a file as a whole, past each edit's own placement: a whole
//! new file that is an existing one misspelt, and edits that together leave the file's braces
//! unbalanced. Each says why, or nothing.
//!
//! Not for: placing or verifying one edit (`core::locate`, `core::verify`).

use std::collections::BTreeMap;

use crate::core::edit::{Change, Edit};
use crate::core::file::Source;
use crate::core::plan::Plan;
use crate::core::text::TextFile;

/// Why a whole new file is refused: its path is a character or two from a project file's
/// (`src/loger.ts`, a lookalike letter, another Unicode normalisation of `docs/guía.md`) and it
/// holds most of that file's lines. It is that file, misspelt: created, it would stand beside
/// the real one, which keeps its old text. A new file like no project file is made.
pub(super) fn lookalike_of(
    plan: &Plan,
    edit: &Edit,
    path: &str,
    sources: &BTreeMap<String, Source>,
) -> Option<String> {
    let content = match &edit.change {
        Change::Replace { content } | Change::Create { content } => content,
        _ => return None,
    };
    let (_, like) = plan.lookalikes.iter().find(|(p, _)| p == path)?;
    let Some(Source::Text(text)) = sources.get(like) else { return None };
    // Lines that say something: a `}` or a blank line is every file's.
    let telling = |l: &&str| l.chars().filter(|c| c.is_alphanumeric()).count() >= 3;
    let theirs: crate::core::hash::HashSet<&str> =
        text.lines().map(str::trim).filter(telling).collect();
    let ours: Vec<&str> = content.lines().map(str::trim).filter(telling).collect();
    let shared = ours.iter().filter(|l| theirs.contains(*l)).count();
    (!theirs.is_empty() && shared * 2 >= theirs.len().min(ours.len().max(1))).then(|| {
        format!(
            "{path}: no such file, and the listing holds most of {like}'s lines: is the path a misspelling of {like}? name the file exactly (nothing was created)"
        )
    })
}

/// Why the reply's edits of one file, together, are not written: the file's braces balanced
/// before (strings and comments aside) and not after. A hunk took out the line that opens a
/// block and left its body and its `}` (`-fn area(…) -> f64 {` replaced by a whole new
/// function), or added a block it never closed: the file no longer parses, whatever each
/// placement's own check said. Judged on all of a file's edits at once, since one hunk may
/// open a block that another closes.
pub(super) fn unbalances(before: &str, after: &TextFile) -> Option<String> {
    if !before.contains('{') {
        return None;
    }
    let [was, ..] = crate::core::strings::code_brackets(before.lines());
    let [now, ..] = crate::core::strings::code_brackets(after.lines.iter().map(String::as_str));
    (was == 0 && now != 0).then(|| {
        let (n, what) = if now > 0 { (now, "`{` without its `}`") } else { (-now, "`}` without its `{`") };
        format!(
            "the reply's edits of this file leave {n} {what} (its braces balanced before): a hunk removes a line that opens a block while its body stays, or adds a block it does not close; nothing was written to this file"
        )
    })
}
