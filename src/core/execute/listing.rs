//! Carrying out a whole-file listing on a file's working state: a new file is created, an
//! existing one merged with the lines the listing's placeholders stand for (`core::whole`),
//! refused when the listing looks like an excerpt or hides behind a placeholder something the
//! reply says it changed, and verified before it replaces the file's lines.
//!
//! Not for: the merge itself (`core::whole`) or its check (`core::verify`).

mod json;
mod list_end;
mod lost;
use super::Working;
use super::reports::{placed, refused};
use crate::core::edit::{Edit, PathSource};
use crate::core::placement::{Placement, Strategy};
use crate::core::plan::Mentions;
use crate::core::report::EditReport;
use crate::core::text::TextFile;
use crate::core::{verify, whole};
use lost::{dropped_with_nothing_in_its_place, head_rewritten, names_a_mention, vanished};

/// A listing that keeps less than this share of a file, without placeholders, and is much shorter
/// than the file, is taken for an excerpt rather than the new whole file.
const EXCERPT_SHARE: f64 = 0.5;

/// A listing named only in prose that keeps less than this share of a file and is shorter than
/// it is not taken for the file.
const PROSE_KEPT_SHARE: f64 = 0.2;

pub(super) fn replace(
    edit: &Edit,
    path: &str,
    content: &str,
    w: &mut Working,
    mentions: Mentions<'_>,
) -> EditReport {
    let content = &*without_naming_comment(edit, content, w.text.as_ref());
    let Some(text) = w.text.as_mut() else {
        if content.lines().any(|l| {
            crate::core::elision::is_placeholder(l) && l.trim().trim_matches('.').trim() != ""
        }) {
            return refused(
                edit,
                path.into(),
                format!(
                    "{path}: a new file cannot have `... unchanged code` placeholders: write it out whole"
                ),
            );
        }
        w.text = Some(TextFile::parse(content));
        w.dirty = true;
        return placed(edit, path, Placement::of(Strategy::Create), None);
    };
    // An empty listing of a file that holds text ("make sure `__init__.py` exists, it can be
    // empty"): emptying it would lose every line, and nothing in the reply shows them going.
    let held = text.lines.iter().filter(|l| !l.trim().is_empty()).count();
    if content.trim().is_empty() && held > 0 {
        return refused(
            edit,
            path.into(),
            format!(
                "{path}: the listing is empty and the file holds {held} line(s) of text: written, it would lose them all; if emptying it is meant, remove the lines in a diff"
            ),
        );
    }
    // Blank lines before the closing fence are the reply's spacing, not the file's: it keeps
    // as many at its end as it has.
    let kept = text.lines.iter().rev().take_while(|l| l.trim().is_empty()).count();
    let content = &*blank_end_as(content, kept);
    let retabbed = crate::core::indent::retabbed(&text.lines, content);
    let content = retabbed.as_deref().unwrap_or(content);
    let unnumbered = without_line_numbers(&text.lines, content);
    let content = unnumbered.as_deref().unwrap_or(content);
    // A listing is read a second way only when the first reading is refused: its gaps aligned
    // from their first line ("new function, then `# ... rest unchanged ...`", where the first
    // reading paired the new lines' blank line with one further down). Either reading must pass
    // every check.
    // A listing for a file named otherwise (`conftest.py` for `tests/conftest.py`, the one
    // file that name ends) must be a version of it.
    let guessed = edit.path.trim_start_matches("./") != path;
    let prose = edit.path_source == PathSource::Prose;
    let how = (prose, guessed);
    let listing = whole::Listing::new(text, content);
    let wild = listing.placeholders();
    // Whether the listing is indented unlike the file does not depend on how it is read.
    let unlike = wild.contains(&true).then(|| indented_unlike(&text.lines, content)).flatten();
    let read = Read { content, wild, unlike: unlike.as_deref() };
    let checked = |merged| checked_merge(text, &read, mentions, how, merged);
    let mut merged = match checked(listing.merge()) {
        Ok(m) => m,
        Err(why) => match checked(listing.merge_from_start())
            .or_else(|_| checked(merge_appending(text, listing.merge_appending())))
        {
            Ok(m) => m,
            Err(_) => return refused(edit, path.into(), format!("{path}: {why}")),
        },
    };
    if merged.restored {
        list_end::mend_restored_list_ends(&mut merged.lines);
    }
    let merged = match json::still_json(path, text, merged) {
        Ok(m) => m,
        Err(why) => return refused(edit, path.into(), format!("{path}: {why}")),
    };
    let n = text.lines.len();
    text.splice(0, n, merged.lines);
    w.dirty = true;
    let strategy = if merged.restored { Strategy::WholeMerge } else { Strategy::WholeFile };
    placed(edit, path, Placement { strategy, lines: Some((1, n)), similarity: None }, None)
}

/// A listing shown with its line numbers (`cat -n`'s `     3\t`, `3: `, `3 | `): every line
/// starts with the next number and the same separator, which the file's lines do not. The
/// listing without them; `None` when it is not numbered so.
fn without_line_numbers(original: &[String], listing: &str) -> Option<String> {
    const SEPARATORS: [&str; 4] = ["\t", ": ", " | ", "| "];
    let lines: Vec<&str> = listing.lines().collect();
    let numbered = |line: &str, sep: &str| -> Option<(u64, usize)> {
        let t = line.trim_start_matches(' ');
        let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let n = t[..digits].parse().ok()?;
        let rest = &t[digits..];
        // A numbered blank line may have lost its separator to trailing-space trimming.
        let cut = match rest.strip_prefix(sep) {
            Some(_) => line.len() - rest.len() + sep.len(),
            None if rest.trim().is_empty() || rest.trim_end() == sep.trim_end() => line.len(),
            None => return None,
        };
        Some((n, cut))
    };
    if lines.len() < 3 {
        return None;
    }
    let sep = SEPARATORS.into_iter().find(|sep| {
        let first = numbered(lines[0], sep).map(|(n, _)| n);
        first.is_some_and(|first| {
            lines
                .iter()
                .enumerate()
                .all(|(i, l)| numbered(l, sep).is_some_and(|(n, _)| n == first + i as u64))
        })
    })?;
    // A file whose own lines are numbered so (a data file) keeps its numbers.
    let own = original.iter().filter(|l| numbered(l, sep).is_some()).count();
    if own * 2 > original.len() {
        return None;
    }
    let mut out = String::with_capacity(listing.len());
    for line in lines {
        let (_, cut) = numbered(line, sep)?;
        out.push_str(&line[cut..]);
        out.push('\n');
    }
    Some(out)
}

/// A listing that names its file in a comment on its first line (`# app/util.py`) without the
/// comment, unless the file already starts with that line: it labels the listing.
fn without_naming_comment<'a>(
    edit: &Edit,
    content: &'a str,
    file: Option<&TextFile>,
) -> std::borrow::Cow<'a, str> {
    if edit.path_source != PathSource::FirstLineComment {
        return content.into();
    }
    let lead = content.split_inclusive('\n').take_while(|l| l.trim().is_empty()).count();
    let rest: Vec<&str> = content.split_inclusive('\n').skip(lead).collect();
    let Some(first) = rest.first() else { return content.into() };
    let held = file
        .and_then(|f| f.lines.iter().find(|l| !l.trim().is_empty()))
        .is_some_and(|l| l.trim() == first.trim());
    if held {
        return content.into();
    }
    let body = &rest[1..];
    let blank = body.iter().take_while(|l| l.trim().is_empty()).count();
    body[blank..].concat().into()
}

/// The third reading of a listing ([`whole::Listing::merge_appending`]): its placeholders stand
/// for everything between the lines it keeps as they were, and its new lines are added. It only
/// adds, so it is refused when a line of the file is gone, and when the new lines read as a
/// rewrite of what a placeholder brought back: a name defined there that they define again,
/// a last line that changes the file's last line, or a restored definition most of whose lines
/// they repeat (the old and the new version side by side).
fn merge_appending(
    text: &TextFile,
    merged: Result<whole::WholeMerge, String>,
) -> Result<whole::WholeMerge, String> {
    let merged = merged?;
    // A reading that only adds: every line of the file is still there, as often (a run of new
    // lines like the last test's took its place, and its body, to the new test).
    let mut left: crate::core::hash::HashMap<&str, isize> = Default::default();
    for l in text.lines.iter().map(|l| l.trim()).filter(|l| !l.is_empty()) {
        *left.entry(l).or_default() += 1;
    }
    for l in merged.lines.iter().map(|l| l.text.trim()) {
        left.entry(l).and_modify(|n| *n -= 1);
    }
    if let Some((line, _)) = left.iter().find(|(_, n)| **n > 0) {
        return Err(format!("the listing would drop {line:?} of the file"));
    }
    let restored: crate::core::hash::HashSet<usize> =
        merged.restored_lines.iter().copied().collect();
    let was: crate::core::hash::HashSet<&str> =
        merged.restored_lines.iter().filter_map(|&f| defines(text.lines[f].trim())).collect();
    let added: Vec<&str> =
        merged.lines.iter().filter(|l| l.kept_eol.is_none()).map(|l| l.text.trim()).collect();
    if let Some(name) = added.iter().filter_map(|l| defines(l)).find(|n| was.contains(n)) {
        return Err(format!("`{name}` would be defined twice"));
    }
    // The listing ends on a new line that reads as a change of the file's last line, which
    // the placeholder brings back (`module.exports = { a, b, c }` after the old
    // `module.exports = { a, b }`): both would stay.
    let margin = |l: &str| !l.starts_with(char::is_whitespace);
    let ends_new = merged.lines.iter().rev().find(|l| !l.text.trim().is_empty());
    if let Some(new) =
        ends_new.filter(|l| l.kept_eol.is_none() && margin(&l.text)).map(|l| l.text.trim())
        && let Some(at) = (0..text.lines.len()).rev().find(|&f| !text.lines[f].trim().is_empty())
        && restored.contains(&at)
        && margin(&text.lines[at])
        && let old = text.lines[at].trim()
        && old != new
        && super::doubt::telling(new)
        && crate::core::verify::modified(old, new)
    {
        return Err(format!(
            "the listing's last line {new:?} reads as a change of the file's {old:?}"
        ));
    }
    // The restored lines by the definition they belong to (the last head above them).
    let mut owners: crate::core::hash::HashMap<usize, crate::core::hash::HashSet<&str>> =
        Default::default();
    let mut owner = 0;
    for f in 0..text.lines.len() {
        let t = text.lines[f].trim();
        if defines(t).is_some() {
            owner = f;
        }
        if restored.contains(&f) {
            owners.entry(owner).or_default().insert(t);
        }
    }
    let telling: Vec<&str> = (added.iter().copied())
        .filter(|t| super::doubt::telling(t) && defines(t).is_none())
        .collect();
    let most = owners.values().map(|lines| telling.iter().filter(|t| lines.contains(*t)).count());
    if most.max().is_some_and(|n| n * 2 > telling.len()) {
        return Err("the new lines repeat most of a definition a placeholder stands for".into());
    }
    Ok(merged)
}

/// `content` with at most `keep` blank lines at its end (line endings as they are).
fn blank_end_as(content: &str, keep: usize) -> std::borrow::Cow<'_, str> {
    let lines: Vec<&str> = content.split_inclusive('\n').collect();
    let blank = lines.iter().rev().take_while(|l| l.trim().is_empty()).count();
    if blank <= keep {
        return content.into();
    }
    lines[..lines.len() - blank + keep].concat().into()
}

/// What every reading of one listing shares, for [`checked_merge`].
struct Read<'a> {
    content: &'a str,
    /// Which of its lines are placeholders.
    wild: &'a [bool],
    /// Why it is indented unlike the file, if it is ([`indented_unlike`]).
    unlike: Option<&'a str>,
}

/// One reading of a listing (`merged`), refused when it hides behind a placeholder something the
/// reply says it changed, looks like an excerpt, or fails the check of the result. A listing
/// named only in prose (`prose`) that keeps next to none of the file and is shorter than it
/// is what the sentence adds or shows ("Add this to `requirements.txt`:"), not the file; one
/// whose path was `guessed` (written otherwise) that keeps next to none of it is another file.
fn checked_merge(
    text: &TextFile,
    &Read { content, wild, unlike }: &Read<'_>,
    mentions: Mentions<'_>,
    (prose, guessed): (bool, bool),
    merged: Result<whole::WholeMerge, String>,
) -> Result<whole::WholeMerge, String> {
    let merged = merged?;
    // A name the reply says goes counts where the file defines it once, or where the listing
    // drops just one of its definitions (`zero` the function, not the trait's `zero`s): "removed
    // `close` from `StdoutSink`" says nothing of the other class's `close`, dropped too.
    let was = |n: &str| text.lines.iter().filter(|l| defines(l.trim()) == Some(n)).count();
    let now = |n: &str| merged.lines.iter().filter(|l| defines(l.text.trim()) == Some(n)).count();
    let removed: Vec<String> = (mentions.removed.iter())
        .filter(|n| was(n) <= 1 || now(n) + 1 == was(n))
        .cloned()
        .collect();
    // The reply says it changes something that the listing leaves behind a placeholder: restoring
    // it unchanged could undo what the model meant, so this is not guessed at.
    // A name the listing also defines in full (one of two `read_eof` methods) is what the
    // reply talks about as far as anyone can tell.
    let listed: crate::core::hash::HashSet<&str> =
        content.lines().filter_map(defined_name).collect();
    if let Some(name) = merged
        .restored_lines
        .iter()
        .filter_map(|&f| defined_name(&text.lines[f]))
        .find(|name| mentions.names.iter().any(|m| m == name) && !listed.contains(name))
    {
        return Err(format!(
            "the reply talks about `{name}`, but the listing leaves it behind a placeholder, so whether it stays unchanged is unclear: list it in full (or leave it out on purpose with a diff)"
        ));
    }
    if merged.restored
        && let Some(why) = unlike
    {
        return Err(why.to_string());
    }
    let orig_nonblank = text.lines.iter().filter(|l| !l.trim().is_empty()).count();
    let new_len = merged.lines.len();
    if !merged.restored
        && orig_nonblank >= 20
        && merged.kept_share < EXCERPT_SHARE
        && new_len * 2 < text.lines.len()
        && !only_named_deletions(&text.lines, content, &removed)
    {
        return Err(format!(
            "the listing has {new_len} lines and keeps {:.0}% of the file's {} lines: it looks like an excerpt, not the whole file; send the whole file or a diff",
            merged.kept_share * 100.0,
            text.lines.len()
        ));
    }
    if guessed && !merged.restored && orig_nonblank >= 2 && merged.kept_share < PROSE_KEPT_SHARE {
        return Err(format!(
            "the listing keeps {:.0}% of the file's {} lines: it is not a version of this file, which the reply names otherwise; a new file? write its full path",
            merged.kept_share * 100.0,
            text.lines.len()
        ));
    }
    let listed_nonblank = content.lines().filter(|l| !l.trim().is_empty()).count();
    if prose
        && !merged.restored
        && orig_nonblank >= 2
        && merged.kept_share < PROSE_KEPT_SHARE
        && listed_nonblank < orig_nonblank
    {
        return Err(format!(
            "the block after the sentence naming the file keeps {:.0}% of its {} lines and is shorter: it reads as something to add or an example, not the whole file; send a diff or a SEARCH/REPLACE block, or the whole file under a line naming it",
            merged.kept_share * 100.0,
            text.lines.len()
        ));
    }
    let merged_lines: Vec<String> = merged.lines.iter().map(|l| l.text.clone()).collect();
    // Placeholders or not: a merge that reads a new definition as an old one's rewrite (a new
    // test after `# ... existing tests ...`, much like the last one) loses the old one.
    if let Some(why) = vanished(&text.lines, &merged_lines, &removed) {
        return Err(why);
    }
    if merged.restored
        && let Some(why) = head_rewritten(&text.lines, &merged_lines)
    {
        return Err(why);
    }
    // Placeholders or not: a stretch of code gone with nothing in its place (routes after
    // `// ... existing routes ...`, taken for the rewrite of a new route like them).
    if let Some(why) = dropped_with_nothing_in_its_place(&text.lines, &merged_lines, &removed) {
        return Err(why);
    }
    verify::check_whole_marked(&text.lines, &merged_lines, content, wild)
        .map_err(|why| why.to_string())?;
    Ok(merged)
}

/// Whether the listing is the file with stretches deleted and nothing else changed, each
/// stretch one the reply's prose names ("remove `generate`"): a deletion, however much of the
/// file it takes, not an excerpt.
fn only_named_deletions(before: &[String], listing: &str, mentions: &[String]) -> bool {
    let old: Vec<&str> = before.iter().map(|l| l.trim_end()).collect();
    let new: Vec<&str> = listing.lines().map(|l| l.trim_end()).collect();
    let mut deleted = 0;
    for op in crate::core::linediff::patience(&old, &new) {
        match op {
            similar::DiffOp::Equal { .. } => {}
            similar::DiffOp::Delete { old_index, old_len, .. } => {
                let telling: Vec<&str> = old[old_index..old_index + old_len]
                    .iter()
                    .map(|l| l.trim())
                    .filter(|t| super::doubt::telling(t))
                    .collect();
                if !telling.is_empty() && !names_a_mention(&telling, mentions) {
                    return false;
                }
                deleted += telling.len();
            }
            // Blank lines around a deletion may go too.
            similar::DiffOp::Insert { new_index, new_len, .. }
                if new[new_index..new_index + new_len].iter().all(|l| l.trim().is_empty()) => {}
            _ => return false,
        }
    }
    deleted > 0
}

/// [`defined_name`], when the line is a definition's head: the name right after its keyword
/// and not assigned to (`func = getattr(…)` names no Go function).
pub(super) fn defines(line: &str) -> Option<&str> {
    if let Some(name) = method_of(line) {
        return Some(name);
    }
    let name = function_valued(line).or_else(|| keyword_name(line))?;
    let at = line.find(name)?;
    // `func = getattr(…)`: the word before the name is no keyword but an assignment.
    line[..at].trim_end().ends_with(char::is_alphabetic).then_some(name)
}

/// The name a line defines, if it opens a definition: `def f`, `fn f`, `function f`, `class C`
/// (after modifiers such as `pub` or `async`; `return self.function(x)` defines nothing), a
/// function bound to a name, or a method.
fn defined_name(line: &str) -> Option<&str> {
    function_valued(line).or_else(|| method_of(line)).or_else(|| keyword_name(line))
}

/// The name right after a definition keyword, past modifiers (`pub async fn f`).
fn keyword_name(line: &str) -> Option<&str> {
    const MODIFIERS: &[&str] = &[
        "pub",
        "crate",
        "super",
        "in",
        "self",
        "async",
        "export",
        "default",
        "static",
        "public",
        "private",
        "protected",
        "abstract",
        "final",
        "unsafe",
        "extern",
        "const",
        "override",
        "open",
        "internal",
        "declare",
    ];
    const KEYWORDS: &[&str] = &[
        "def",
        "fn",
        "function",
        "class",
        "struct",
        "enum",
        "trait",
        "interface",
        "func",
        "impl",
        "module",
    ];
    let mut words =
        line.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty());
    while let Some(w) = words.next() {
        if KEYWORDS.contains(&w) {
            return words.next();
        }
        if !MODIFIERS.contains(&w) {
            return None;
        }
    }
    None
}

/// The name a method defines where no keyword stands right before it: a JavaScript or
/// TypeScript class method ([`method_head`]) or a Go method after its receiver (`func (s
/// *Server) handleOrder(w http.ResponseWriter, r *http.Request) {`).
fn method_of(line: &str) -> Option<&str> {
    if let Some(rest) = line.trim_start().strip_prefix("func (") {
        let after = rest.split_once(')')?.1.trim_start();
        let end = after.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
        return (end > 0 && after[end..].starts_with('(')).then(|| &after[..end]);
    }
    method_head(line)
}

/// The name a JavaScript or TypeScript class method defines (`findOne(@Param('id') id: string)
/// {`, `async remove(id: string): Promise<void> {`, `get size() {`): a name right before its
/// parameters, whose closing `)` (and return type) the line's `{` follows. Not a call handed a
/// function or an object (`describe('x', () => {`, `render(h, {`), nor a control statement.
fn method_head(line: &str) -> Option<&str> {
    const MODIFIERS: &[&str] = &[
        "async",
        "static",
        "public",
        "private",
        "protected",
        "override",
        "readonly",
        "get",
        "set",
    ];
    const CONTROL: &[&str] =
        &["if", "for", "while", "switch", "catch", "function", "return", "with", "elif", "match"];
    let t = line.trim();
    if !t.ends_with('{') || t.contains("=>") {
        return None;
    }
    let mut rest = t;
    let name = loop {
        let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))?;
        let (word, after) = rest.split_at(end);
        if MODIFIERS.contains(&word) && after.starts_with(' ') {
            rest = after.trim_start();
            continue;
        }
        break word;
    };
    let after = rest[name.len()..].strip_prefix('(')?;
    if name.is_empty() || CONTROL.contains(&name) || name.starts_with(|c: char| c.is_ascii_digit())
    {
        return None;
    }
    // The `)` that closes the parameters, then nothing but a return type before the `{`.
    let mut depth = 1;
    let close = after.char_indices().find_map(|(i, c)| {
        depth += match c {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        (depth == 0).then_some(i)
    })?;
    let tail = after[close + 1..].trim();
    (tail == "{" || (tail.starts_with(':') && !tail.contains("function"))).then_some(name)
}

/// The name a JavaScript or TypeScript binding gives a function (`export const fetchUser =
/// async (id: string) => {`, `let f = function (x) {`): a definition as much as `function f`.
fn function_valued(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let t = t.strip_prefix("export ").unwrap_or(t);
    let rest = ["const ", "let ", "var "].iter().find_map(|k| t.strip_prefix(k))?;
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))?;
    let (name, after) = rest.split_at(end);
    // A type annotation may stand between the name and `=` (`: Handler`).
    let value = after.split_once('=')?.1.trim_start();
    let value = value.strip_prefix("async").map_or(value, str::trim_start);
    let function = value.starts_with("function") || value.starts_with('(') && value.contains("=>");
    (!name.is_empty() && function).then_some(name)
}

/// A listing with placeholders whose lines stand in the file at another depth (the class body at
/// two spaces where the file has four): the merge would put the listing's lines beside the
/// file's restored ones, two indentations in one block. Read on the lines the file holds once
/// (closers, short lines and lines at the margin aside), by majority: a listing may move a few lines on purpose (code
/// wrapped in a new block, a new function named like a method).
fn indented_unlike(original: &[String], listing: &str) -> Option<String> {
    let mut once: crate::core::hash::HashMap<&str, Option<&str>> = Default::default();
    for l in original {
        let t = l.trim();
        if t.len() >= 4 && !crate::core::indent::is_closer(t) {
            once.entry(t).and_modify(|v| *v = None).or_insert(Some(l.as_str()));
        }
    }
    let leading = crate::core::indent::leading;
    let (mut same, mut unlike) = (0usize, None::<(usize, &str, &str, &str)>);
    for l in listing.lines() {
        let Some(Some(file)) = once.get(l.trim()) else { continue };
        let (lw, fw) = (leading(l), leading(file));
        if lw.is_empty() && fw.is_empty() {
            // At the margin on both sides: says nothing about how the rest is indented.
            continue;
        }
        if lw == fw {
            same += 1;
        } else {
            let (n, ..) = unlike.get_or_insert((0, l.trim(), lw, fw));
            *n += 1;
        }
    }
    let (n, line, lw, fw) = unlike?;
    (n >= 2 && n > same).then(|| {
        format!(
            "the listing indents its lines unlike the file ({line:?} with {lw:?} where the file has {fw:?}, and {} more) and leaves parts of the file behind placeholders: the merge would mix the two indentations; send the listing indented as the file is",
            n - 1
        )
    })
}

#[cfg(test)]
mod tests {
    use super::{defined_name, defines, vanished};

    #[test]
    fn a_binding_to_a_function_defines_it() {
        for (line, want) in [
            ("export const fetchUser = async (id: string) => {", Some("fetchUser")),
            ("const handler: Handler = (req, res) => {", Some("handler")),
            ("let f = function (x) {", Some("f")),
            ("var $el = async function() {", Some("$el")),
            ("const LIMIT = 10;", None),
            ("const total = (a + b) * 2;", None),
            ("const users = await db.users.list();", None),
        ] {
            assert_eq!(defines(line), want, "{line}");
        }
    }

    #[test]
    fn a_definition_is_read_from_the_start_of_its_line() {
        assert_eq!(defined_name("def load(path):"), Some("load"));
        assert_eq!(defined_name("    async def load(path):"), Some("load"));
        assert_eq!(defined_name("pub(crate) fn next(&mut self) {"), Some("next"));
        assert_eq!(defined_name("export default function main() {"), Some("main"));
        assert_eq!(defined_name("class Reader:"), Some("Reader"));
        assert_eq!(defined_name("        return self.function(x)"), None);
        assert_eq!(defined_name("# the class that reads"), None);
        assert_eq!(defines("func = getattr(value, 'fget', value)"), None);
        assert_eq!(defines("func (s *Server) Run() error {"), Some("Run"));
        assert_eq!(defines("func Run() error {"), Some("Run"));
    }

    #[test]
    fn a_method_is_read_without_a_keyword_before_its_name() {
        for (line, want) in [
            ("  findOne(@Param('id') id: string) {", Some("findOne")),
            ("  async remove(id: string): Promise<void> {", Some("remove")),
            ("  get size() {", Some("size")),
            ("  private list(page = 1) {", Some("list")),
            ("describe('cart', () => {", None),
            ("  render(h, {", None),
            ("  if (ready) {", None),
            ("  while (i < n) {", None),
            ("  this.load(path);", None),
            (
                "func (s *Server) handleOrder(w http.ResponseWriter, r *http.Request) {",
                Some("handleOrder"),
            ),
        ] {
            assert_eq!(defines(line), want, "{line}");
        }
    }

    #[test]
    fn a_definition_the_listing_drops_is_named_unless_what_encloses_it_goes_too() {
        let lines = |t: &str| t.lines().map(String::from).collect::<Vec<_>>();
        let file = lines(
            "def load():\n    def inner():\n        pass\n\n\nclass Sink:\n    def flush(self):\n        pass\n\n    def close(self):\n        pass\n",
        );
        let kept = lines("class Sink:\n    def close(self):\n        pass\n");
        let why = vanished(&file, &kept, &["load".to_string()]).unwrap();
        assert!(why.contains("`flush`"), "{why}");
        let all = lines(
            "class Sink:\n    def flush(self):\n        pass\n\n    def close(self):\n        pass\n",
        );
        assert_eq!(vanished(&file, &all, &["load".to_string()]), None, "inner goes with load");
    }
}
