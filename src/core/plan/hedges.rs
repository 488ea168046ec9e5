//! Blocks the reply's prose does not offer to be applied as they stand: ones it takes back
//! after them ("On second thought, leave `void` as it is", "Please ignore the `OrderMapper`
//! change above"), ones it offers as alternatives to each other ("Option A … Option B … pick
//! one", "Alternatively, …", "either works; don't do both"), and ones it shows as what not to
//! do or not yet ("A common mistake is to …", "Once you've upgraded …"). Applying such a block
//! writes what the model said not to write; each is refused, saying why (the reason can go back
//! to the model), and the reply's other blocks stand.
//!
//! Prose is read by sentence, lower-cased; what a sentence names (in backticks) must be what
//! the block before it edits where the words alone would say too much ("leave … as it is" is
//! also what a reply says of the rest of a file).
//!
//! Not for: blocks a later block replaces (`plan::supersede`), corrections of a block's path or
//! text (`plan::corrections`).

use crate::core::edit::{Change, Edit};

/// Why the prose after a block (`after`, as written) takes the block back, if it does.
pub(super) fn taken_back_after(after: &str, edit: &Edit) -> Option<String> {
    // Words that take back whatever came right before them, wherever they stand.
    const ANY: &[&str] = &[
        "don't apply",
        "do not apply",
        "don't use that",
        "do not use that",
        "scratch that",
        "disregard th",
        "ignore that",
        "ignore the above",
        "ignore the previous",
        "ignore the first",
    ];
    let lower = after.to_lowercase().replace('’', "'");
    if let Some(w) = ANY.iter().find(|w| lower.contains(*w)) {
        return Some(w.to_string());
    }
    // (A fence line's backticks would pair with a name's.)
    let after = after.replace("```", " ");
    for sentence in sentences(&after) {
        let s = sentence.to_lowercase();
        let names_the_block = || backticked(&sentence).iter().any(|n| edits_name(edit, n));
        // ("On second thought, cap it too" refines the block; it is taken back only with a
        // word that undoes it.)
        let undoes =
            ["leave", "keep", "don't", "do not", "skip", "ignore", "drop", "revert", "no need"];
        // "Actually, keep the timeout at 30": a word the block changes, said to stay.
        let changed_word = || {
            s.split(|c: char| !c.is_alphanumeric() && c != '_')
                .filter(|w| w.len() >= 4)
                .any(|w| changes_word(edit, w))
        };
        let actually = s.trim_start().starts_with("actually,") || s.contains(". actually,");
        let retracts = s.contains("on second thought") && undoes.iter().any(|w| s.contains(w))
            || actually
                && ["leave", "keep", "don't change", "do not change"].iter().any(|w| s.contains(w))
                && (names_the_block() || changed_word())
            || (s.contains("ignore the") || s.contains("ignore my"))
                && ["above", "change", "block", "edit", "previous"].iter().any(|w| s.contains(w))
            || (s.contains("keep the original") || s.contains("leave ") && s.contains(" as it is"))
                && names_the_block();
        if retracts {
            return Some(sentence.trim().to_string());
        }
    }
    None
}

/// Why the prose right before a block offers it as what not to do, or not now.
pub(super) fn not_meant_before(before: &str) -> Option<String> {
    const CUES: &[&str] = &[
        "tempted to",
        "temptation is to",
        "common mistake",
        "wouldn't do it",
        "would not do it",
        "don't do this",
        "do not do this",
        "anti-pattern",
        "not needed for the fix",
        "once you've upgraded",
        "once you have upgraded",
        "a separate deploy",
        "in a later release",
        "not recommended",
        "wouldn't recommend",
        "would not recommend",
        "don't recommend",
        "do not recommend",
    ];
    let s = before.to_lowercase();
    CUES.iter().find(|c| s.contains(*c)).map(|c| c.to_string())
}

/// The blocks (indexes into `spans`, each a block's reply lines or `None` for an item that is no
/// block) that the prose offers as alternatives to each other, with the words that say so.
/// `prose(after, before)` is the reply's text strictly between two 1-based lines.
pub(super) fn alternatives(
    spans: &[Option<(usize, usize)>],
    lines: usize,
    prose: impl Fn(usize, usize) -> String,
) -> Vec<(usize, String)> {
    let blocks: Vec<(usize, (usize, usize))> =
        spans.iter().enumerate().filter_map(|(i, s)| Some((i, (*s)?))).collect();
    if blocks.len() < 2 {
        return Vec::new();
    }
    // The prose between the blocks, not the blocks' text (code may say anything).
    let mut gaps = vec![0];
    gaps.extend(blocks.iter().flat_map(|(_, (start, end))| [*start, *end]));
    gaps.push(lines + 1);
    let whole =
        (gaps.chunks(2).map(|g| prose(g[0], g[1])).collect::<Vec<_>>().join(" ")).to_lowercase();
    const ONE_OF: &[&str] =
        &["pick one", "choose one", "don't do both", "do not do both", "one or the other"];
    if let Some(w) = ONE_OF.iter().find(|w| whole.contains(*w)) {
        return blocks.iter().map(|(i, _)| (*i, w.to_string())).collect();
    }
    let mut out = Vec::new();
    // "Option A:" … "Option B:": blocks under two or more such headings.
    let mut option_of = Vec::new();
    let mut prev_end = 0;
    let mut option = None;
    for (i, (start, end)) in &blocks {
        let before = prose(prev_end, *start).to_lowercase();
        if let Some(at) = before.rfind("option ") {
            option = Some(before[at..].chars().take(8).collect::<String>());
        }
        if before.trim_start().starts_with("alternatively")
            || before.contains(". alternatively")
            || before.contains("\nalternatively")
            || before.starts_with("alternatively")
            || before.contains(" alternatively,")
        {
            let prev = blocks.iter().rev().find(|(_, (_, e))| *e <= *start);
            if let Some((p, _)) = prev.filter(|(p, _)| p != i) {
                out.push((*p, "alternatively".to_string()));
            }
            out.push((*i, "alternatively".to_string()));
        }
        option_of.push((*i, option.clone()));
        prev_end = *end;
    }
    let options: std::collections::BTreeSet<&String> =
        option_of.iter().filter_map(|(_, o)| o.as_ref()).collect();
    if options.len() >= 2 {
        out.extend(
            option_of
                .iter()
                .filter(|(_, o)| o.is_some())
                .map(|(i, o)| (*i, o.clone().unwrap_or_default())),
        );
    }
    out.sort_by_key(|(i, _)| *i);
    out.dedup_by_key(|(i, _)| *i);
    out
}

/// The text's sentences: split after `.`, `!`, `?` or `:` followed by a space or the end.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        cur.push(c);
        if matches!(c, '.' | '!' | '?' | ':' | '—')
            && chars.peek().is_none_or(|n| n.is_whitespace())
        {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

/// The names a sentence quotes in backticks.
fn backticked(sentence: &str) -> Vec<String> {
    sentence
        .split('`')
        .skip(1)
        .step_by(2)
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .collect()
}

/// Whether `word` (lower case) is a word of a line the block removes or adds.
fn changes_word(edit: &Edit, word: &str) -> bool {
    let Change::Modify { hunk } = &edit.change else { return false };
    (hunk.lines.iter())
        .filter(|l| l.kind != crate::core::edit::LineKind::Context)
        .flat_map(|l| l.text.split(|c: char| !c.is_alphanumeric() && c != '_'))
        .any(|w| w.eq_ignore_ascii_case(word))
}

/// Whether the block's text (old or new) holds `name` as a word.
fn edits_name(edit: &Edit, name: &str) -> bool {
    let text = match &edit.change {
        Change::Modify { hunk } => {
            hunk.lines.iter().map(|l| l.text.as_str()).collect::<Vec<_>>().join("\n")
        }
        Change::Replace { content } | Change::Create { content } => content.clone(),
        _ => return false,
    };
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(word)
            && !text[at + name.len()..].chars().next().is_some_and(word)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::edit::{Format, Hunk, PathSource};

    fn edit(old: &str, new: &str) -> Edit {
        let lines = |t: &str| t.lines().map(str::to_string).collect::<Vec<_>>();
        Edit {
            path: "a.rb".into(),
            path_source: PathSource::PathLine,
            format: Format::SearchReplace,
            change: Change::Modify { hunk: Hunk::from_old_new(&lines(old), &lines(new)) },
            reply_lines: (1, 5),
        }
    }

    #[test]
    fn a_block_taken_back_after_it_is_told_by_what_the_sentence_names() {
        let e = edit("def void\n  mail\nend", "def void\n  return if voided?\n  mail\nend");
        assert!(taken_back_after("On second thought, skip that one.", &e).is_some());
        assert_eq!(taken_back_after("On second thought, cap it like `backoff` does:", &e), None);
        assert!(
            taken_back_after("Please ignore the change above: it would not compile.", &e).is_some()
        );
        assert!(
            taken_back_after("Hmm. Leave `void` as it is: finance needs the mail.", &e).is_some()
        );
        // The rest of a file left as it is, or a name the block does not edit: no retraction.
        assert_eq!(taken_back_after("Leave the rest of the file as it is.", &e), None);
        let t = edit("    timeout=30,\n    retries=3,\n", "    timeout=60,\n    retries=5,\n");
        assert!(
            taken_back_after("Actually, keep the timeout at 30: only retries change.", &t)
                .is_some()
        );
        assert_eq!(taken_back_after("Actually, keep in mind the gateway is slow.", &t), None);
        assert_eq!(taken_back_after("Leave `issue` as it is.", &e), None);
        assert_eq!(taken_back_after("This makes `void` idempotent.", &e), None);
    }

    #[test]
    fn alternatives_are_told_by_options_or_by_alternatively() {
        let spans = [Some((3, 8)), Some((11, 16)), Some((19, 24))];
        let text = |after: usize, before: usize, parts: &[(usize, &str)]| {
            parts
                .iter()
                .filter(|(l, _)| *l > after && *l < before)
                .map(|(_, t)| *t)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let parts = [(1, "Option A: on write."), (10, "Option B: on read."), (18, "And a test:")];
        let found = alternatives(&spans, 25, |a, b| text(a, b, &parts));
        assert_eq!(found.iter().map(|(i, _)| *i).collect::<Vec<_>>(), [0, 1, 2]);
        let parts =
            [(1, "Fix it in nginx:"), (10, "Alternatively, in the app:"), (18, "And a test:")];
        let found = alternatives(&spans, 25, |a, b| text(a, b, &parts));
        assert_eq!(found.iter().map(|(i, _)| *i).collect::<Vec<_>>(), [0, 1]);
        let parts = [(1, "First:"), (10, "Then:"), (18, "And a test:")];
        assert!(alternatives(&spans, 25, |a, b| text(a, b, &parts)).is_empty());
    }
}
