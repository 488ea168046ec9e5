//! New lines that take over the lines after them. In a file whose blocks are its indentation
//! (Python, YAML) or its section headers (TOML, INI), the lines right after a hunk belong to
//! the block that encloses them; new lines that open another block in between (an `elif`
//! written between two lines of an `if` body, a `[tool.isort]` table right under
//! `[tool.black]`'s header), or a block opener the hunk moves deeper while its body goes on
//! after the hunk (a `for` wrapped in a `with` up to where the SEARCH stopped), put them under
//! another block: valid text, other meaning. Refused, naming the line and both blocks.
//!
//! Not for: brace languages, where the braces say which block a line is in (and
//! `whole_file::unbalances` counts them).

use crate::core::parses::columns;
use crate::core::strings::Strings;

/// How a file's lines are grouped into blocks.
#[derive(Clone, Copy, PartialEq)]
enum Blocks {
    /// By indentation: a line belongs to the nearest line above it indented less.
    Indent,
    /// By `[section]` headers: a line belongs to the nearest header above it.
    Sections,
}

fn blocks_of(path: &str) -> Option<Blocks> {
    match crate::core::paths::extension(path).as_str() {
        "py" | "pyi" | "yaml" | "yml" => Some(Blocks::Indent),
        "toml" | "ini" | "cfg" => Some(Blocks::Sections),
        _ => None,
    }
}

/// Why a hunk (one part, applied: `before` became `after`) puts the first line after what it
/// changed under another block than the one it was in, or `None`.
pub(super) fn takes_over(path: &str, before: &[String], after: &[String]) -> Option<String> {
    let blocks = blocks_of(path)?;
    // Looked at first as if no line were inside a string (most hunks change no block, and
    // finding strings reads the whole file); a takeover found is then judged with them.
    judged(blocks, before, after, None)?;
    judged(blocks, before, after, Some((&in_strings(before), &in_strings(after))))
}

/// [`takes_over`], the lines inside strings spanning lines (before, after) known or not.
fn judged(
    blocks: Blocks,
    before: &[String],
    after: &[String],
    strings: Option<(&[bool], &[bool])>,
) -> Option<String> {
    let (in_before, in_after) = strings.unwrap_or((&[], &[]));
    let says = |lines: &[String], strings: &[bool], i: usize| {
        let t = lines[i].trim();
        !t.is_empty()
            && !t.starts_with('#')
            && !t.starts_with(';')
            && !strings.get(i).is_some_and(|s| *s)
    };
    // What the hunk changed, as the two texts show it (the applier may have put new lines
    // past a block the hunk's last line opens): the lines from `first` to the common end.
    let (first, common_end) = crate::core::linediff::common_ends(before, after);
    let (end_old, end_new) = (before.len() - common_end, after.len() - common_end);
    let n_old = (end_old..before.len()).find(|&i| says(before, in_before, i))?;
    let n_new = n_old - end_old + end_new;
    let parent = |lines: &[String], strings: &[bool], i: usize| -> Option<usize> {
        match blocks {
            Blocks::Indent => {
                let cols = columns(&lines[i]);
                (0..i).rev().find(|&k| says(lines, strings, k) && columns(&lines[k]) < cols)
            }
            Blocks::Sections if header(&lines[i]) => None,
            Blocks::Sections => (0..i).rev().find(|&k| header(&lines[k])),
        }
    };
    let was = parent(before, in_before, n_old)?;
    let now = parent(after, in_after, n_new)?;
    // The block it is under now is one of the hunk's lines, and not the one it was under.
    if now < first || after[now].trim() == before[was].trim() {
        return None;
    }
    // A block opener the hunk rewrote (`for user in users:` to `for user in active:`) is the
    // same block; one it kept, or wrote again at another depth, still stands apart from it.
    let output = &after[first..end_new];
    let written_again = output.iter().any(|l| l.trim() == before[was].trim());
    if was >= first && !written_again {
        return None;
    }
    Some(format!(
        "line {} ({:?}) is under {:?} in the file, and the edit's new lines would put it under {:?}: the hunk stops inside that block, and what follows it would change meaning; include the rest of the block in the old text",
        n_old + 1,
        before[n_old].trim(),
        before[was].trim(),
        after[now].trim()
    ))
}

fn header(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('[') && t.ends_with(']')
}

/// Which lines begin inside a string spanning lines (a docstring's text is not code).
fn in_strings(lines: &[String]) -> Vec<bool> {
    let mut s = Strings::new();
    lines.iter().map(|l| s.line(l).is_some()).collect()
}
