//! A SEARCH/REPLACE block's two halves as the model meant them: where the block divides (a
//! divider that may be a title's underline, a conflict the block quotes, a divider written
//! twice) and what of each half is decoration rather than text (quoted wrapping, a BOM, a
//! doubled divider at the end, a REPLACE written as a diff of its SEARCH).
//!
//! Not for: finding blocks in a reply (`parse`), recognising marker lines (`markers`).

use super::markers::{FenceLine, SrMarker, fence_line, sr_marker};
use crate::core::paths::clean_path_line;

/// The old and new text of a block whose text holds more `=======` lines than its divider (a
/// title's underline in both halves): the divider is the middle one, the old and new text each
/// holding as many as the other. The parser split at the first; `search` has none. A last line
/// of the new text that is one is the doubled divider (`strip_doubled_divider`) and not
/// counted. With an even number there is no middle one: the first stays the divider (an edit
/// that adds an underline: `Title` becomes `Title` / `=======`).
pub(super) fn split_at_the_middle_divider(
    path: &str,
    search: Vec<String>,
    replace: Vec<String>,
    divider: String,
) -> (Vec<String>, Vec<String>) {
    if let Some(split) = split_after_a_conflict(&search, &replace, &divider) {
        return split;
    }
    let more = inner_dividers(path, &replace);
    if more.is_empty() || more.len() % 2 == 1 {
        return (search, replace);
    }
    // Dividers in all: the first (`divider`) and `more`; the middle is `more[len / 2 - 1]`.
    split_at(&search, &replace, &divider, more[more.len() / 2 - 1])
}

/// A split block's old and new text without the wrapping, byte order marks and doubled
/// divider models add around them.
pub(super) fn cleaned(
    path: &str,
    search: Vec<String>,
    replace: Vec<String>,
) -> (Vec<String>, Vec<String>) {
    let (search, replace) = strip_quoted_wrapping(search, replace, path);
    let replace = replace_written_as_a_diff(&search, replace);
    (strip_bom(search), strip_doubled_divider(path, strip_bom(replace)))
}

/// A REPLACE written as a diff of the SEARCH (`-` the old line, `+` the new one): its `-` and
/// context lines, markers off, are the SEARCH's lines in order, so its `+` and context lines
/// are the new text. Any other REPLACE is kept as written.
pub(super) fn replace_written_as_a_diff(search: &[String], replace: Vec<String>) -> Vec<String> {
    let marked = |l: &String, m: char| l.strip_prefix(m).map(str::to_string);
    let all_marked = replace.iter().all(|l| l.starts_with(['-', '+', ' ']));
    let has = |m: char| replace.iter().any(|l| l.starts_with(m));
    if search.is_empty() || !all_marked || !has('-') || !has('+') {
        return replace;
    }
    let old: Vec<String> =
        replace.iter().filter_map(|l| marked(l, '-').or_else(|| marked(l, ' '))).collect();
    let same = old.len() == search.len()
        && old.iter().zip(search).all(|(a, b)| a.trim_end() == b.trim_end());
    match same {
        true => replace.iter().filter_map(|l| marked(l, '+').or_else(|| marked(l, ' '))).collect(),
        false => replace,
    }
}

/// The `=======` lines of the new text as first split, a last line that is one aside (the
/// doubled divider, `strip_doubled_divider`), and those inside a fence or string the text
/// opened (an example of the format it holds: [`quotes_markers`]).
pub(super) fn inner_dividers(path: &str, replace: &[String]) -> Vec<usize> {
    let body = replace.len() - usize::from(replace.last().is_some_and(|l| is_divider(l)));
    (0..body)
        .filter(|&i| is_divider(&replace[i]) && !quotes_markers(Some(path), &replace[..i]))
        .collect()
}

/// The block split at `replace[at]` instead of at `divider`: the first divider and the lines
/// before `at` go with the old text.
pub(super) fn split_at(
    search: &[String],
    replace: &[String],
    divider: &str,
    at: usize,
) -> (Vec<String>, Vec<String>) {
    let mut old = search.to_vec();
    old.push(divider.to_string());
    old.extend(replace[..at].iter().cloned());
    (old, replace[at + 1..].to_vec())
}

/// The other readings of a block with more than one `=======` line where no conflict settles
/// which divides: split at each later one, the lines before it going with the old text (a
/// setext title's underline: `Install` / `=======` renamed; an RST title's overline and
/// underline). The file decides among them (it holds one reading's old text as written).
pub(super) fn splits_at_later_dividers(
    path: &str,
    search: &[String],
    replace: &[String],
    divider: &str,
) -> Vec<(Vec<String>, Vec<String>)> {
    if split_after_a_conflict(search, replace, divider).is_some() {
        return Vec::new();
    }
    (inner_dividers(path, replace).into_iter())
        // Written twice in a row: `divider_written_twice` reads it.
        .filter(|&at| !replace[..at].iter().all(|l| l.trim().is_empty()))
        .map(|at| split_at(search, replace, divider, at))
        .collect()
}

/// A block whose old text quotes a git conflict (`<<<<<<< HEAD`, `=======`, `>>>>>>> branch`):
/// the first `=======` is the conflict's own, and the block's divider is the first after the
/// conflict's end. `None` when the old text opens no conflict that ends before a later divider.
pub(super) fn split_after_a_conflict(
    search: &[String],
    replace: &[String],
    divider: &str,
) -> Option<(Vec<String>, Vec<String>)> {
    let conflict = |l: &String, c: &str| {
        let t = l.trim_start();
        t.starts_with(c) && t.chars().take_while(|x| x.to_string() == c[..1]).count() == 7
    };
    if !search.iter().any(|l| conflict(l, "<<<<<<<")) {
        return None;
    }
    let end = replace.iter().position(|l| conflict(l, ">>>>>>>"))?;
    let at = (end + 1..replace.len()).find(|&i| is_divider(&replace[i]))?;
    Some(split_at(search, replace, divider, at))
}

/// A divider written twice in a row (`=======`, maybe a blank line, `=======`): the new text
/// starts after the second. In a document the first (`first`, as written) may instead underline
/// the old text's last line (`Changes` / `=======`, the title an edit turns into `# Changes`):
/// it goes with the old text, which the file then has to hold so. Elsewhere `=======` alone on
/// a line is no code.
pub(super) fn divider_written_twice(
    path: &str,
    mut search: Vec<String>,
    mut replace: Vec<String>,
    first: String,
) -> (Vec<String>, Vec<String>) {
    let blanks = replace.iter().take_while(|l| l.trim().is_empty()).count();
    if !replace.get(blanks).is_some_and(|l| is_divider(l)) || replace.len() == blanks + 1 {
        return (search, replace);
    }
    replace.remove(blanks);
    if blanks == 0 && is_document(path) && search.last().is_some_and(|l| underlines(l, &first)) {
        search.push(first);
    }
    replace.drain(..blanks);
    (search, replace)
}

pub(super) fn is_document(path: &str) -> bool {
    [".rst", ".md", ".markdown", ".txt", ".adoc"].iter().any(|e| path.ends_with(e))
}

/// `underline` can be the underline of the heading `text`: text, no longer than the line.
pub(super) fn underlines(text: &str, underline: &str) -> bool {
    let t = text.trim();
    !t.is_empty() && !is_divider(t) && t.chars().count() <= underline.trim().len()
}

pub(super) fn is_divider(line: &str) -> bool {
    sr_marker(line) == Some(SrMarker::Divider)
}

/// A BOM at the start of a block's text is the file's, which the file keeps on its own:
/// written into the text it would be doubled.
pub(super) fn strip_bom(mut lines: Vec<String>) -> Vec<String> {
    if let Some(first) = lines.first_mut()
        && let Some(rest) = first.strip_prefix('\u{feff}')
    {
        *first = rest.to_string();
    }
    lines
}

/// Models sometimes write the divider again after the new text, right before `>>>>>>> REPLACE`:
/// that line is a marker, not code. Only in a document (`.rst`, `.md`, ...) can it be a
/// heading's underline: there it is kept when it underlines the line above it.
pub(super) fn strip_doubled_divider(path: &str, mut replace: Vec<String>) -> Vec<String> {
    let Some(last) = replace.last() else { return replace };
    if sr_marker(last) != Some(SrMarker::Divider) {
        return replace;
    }
    let above = replace.len().checked_sub(2).map(|i| replace[i].as_str());
    if !(is_document(path) && above.is_some_and(|t| underlines(t, last))) {
        replace.pop();
    }
    replace
}

/// Models sometimes wrap SEARCH and REPLACE each in their own fence, or repeat the file name as
/// their first line: drop that wrapping when both sides have it.
pub(super) fn strip_quoted_wrapping(
    mut search: Vec<String>,
    mut replace: Vec<String>,
    path: &str,
) -> (Vec<String>, Vec<String>) {
    let base = path.rsplit('/').next().unwrap_or(path);
    let names_file = |l: &String| {
        let c = clean_path_line(l);
        !c.is_empty() && (c == path || c == base)
    };
    if search.first().is_some_and(names_file) && replace.first().is_some_and(names_file) {
        search.remove(0);
        replace.remove(0);
    }
    let fenced = |v: &Vec<String>| {
        v.len() >= 2 && fence_line(&v[0]).is_some() && fence_line(&v[v.len() - 1]).is_some()
    };
    if fenced(&search) && fenced(&replace) {
        search.remove(0);
        search.pop();
        replace.remove(0);
        replace.pop();
    }
    (search, replace)
}

/// Whether one half of a block, as read so far, leaves open a fence it opened (a document's
/// example) or, in a code file, a string spanning lines (a test's sample reply), with a
/// `<<<<<<< SEARCH` line inside it: a marker line next is that text's own, not the block's.
/// (Without a SEARCH line quoted there, the fence or string may only seem open: a block's old
/// text may start inside a docstring or a fenced example, and end past its close.)
pub(super) fn quotes_markers(path: Option<&str>, section: &[String]) -> bool {
    let heads_from = |from: usize| {
        section[from.min(section.len())..].iter().any(|l| sr_marker(l) == Some(SrMarker::Head))
    };
    let mut open: Option<(usize, FenceLine)> = None;
    for (i, f) in section.iter().enumerate().filter_map(|(i, l)| Some((i, fence_line(l)?))) {
        match &open {
            Some((_, o)) if f.closes(o) => open = None,
            Some(_) => {}
            None if f.opens() => open = Some((i, f)),
            None => {}
        }
    }
    if open.is_some_and(|(at, _)| heads_from(at + 1)) {
        return true;
    }
    // (Not in a document: its backticks are inline code, not strings.)
    if path.is_none_or(is_document) {
        return false;
    }
    let mut strings = crate::core::strings::Strings::new();
    section.iter().for_each(|l| {
        strings.line(l);
    });
    strings.line("").is_some_and(heads_from)
}
