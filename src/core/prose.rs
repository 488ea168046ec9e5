//! What a reply's prose says about code names: the names it mentions in backticks (what the
//! model says it changes) and those its sentences say go (which a listing may leave out).
//!
//! Not for: paths (`core::paths`, `core::resolve`), or what a listing may leave out
//! (`execute::listing` asks these).

/// The lines of a reply outside its fenced blocks.
fn prose_lines(reply: &str) -> impl Iterator<Item = &str> {
    use crate::core::parse::markers::{FenceLine, fence_line};
    // A fence closes only at a fence line that closes it (as the parser reads them): a `~~~~`
    // underline in a listing's docstring is the listing's.
    let mut open: Option<FenceLine> = None;
    reply.lines().filter(move |line| {
        let Some(f) = fence_line(line) else { return open.is_none() };
        match &open {
            Some(o) if f.closes(o) => open = None,
            Some(_) => {}
            None if f.opens() => open = Some(f),
            None => {}
        }
        false
    })
}

/// The code names the reply's prose mentions in backticks, outside fenced blocks: identifiers,
/// and of a qualified name (`A.b`, `A::b`) the last part, the one it names; its qualifiers only
/// say where that is (`TokenStream.current` talks about `current`, not all of `TokenStream`).
pub fn prose_names(reply: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in prose_lines(reply) {
        for (i, piece) in line.split('`').enumerate() {
            if i % 2 == 0 {
                continue;
            }
            let word = piece.trim().trim_end_matches("()");
            if word.is_empty() || word.contains(['/', ' ']) {
                continue;
            }
            if let Some(part) = word.split(['.', ':']).rfind(|p| !p.is_empty())
                && part.chars().all(|c| c.is_alphanumeric() || c == '_')
                && !names.iter().any(|n| n == part)
            {
                names.push(part.to_string());
            }
        }
    }
    names
}

/// The code names the reply's prose says go, by the form of its sentences, not their words
/// alone: a removal verb acting on the name ("Remove `legacy_report`", "deleted the unused
/// `old_api` and `tmp`", "Nothing calls `x` any more; remove it"), or the name said to be gone
/// ("`old_api` is unused", "`x` is no longer needed"). Not a name after a preposition ("the
/// print in `load`", "a drop-in replacement for `parse`"), not another verb ("`save` no longer
/// drops rows"), and nothing in a clause that keeps ("`a` and `b` stay as they are", "I didn't
/// delete `c`", "but I left it"). A listing may leave these out with nothing in their place;
/// any other name it leaves out may be an excerpt's omission.
pub fn removal_names(reply: &str) -> Vec<String> {
    let mut names = Vec::new();
    // (Headings name what a part is about, never what goes.)
    for line in prose_lines(reply).filter(|l| !l.trim_start().starts_with('#')) {
        for sentence in line.split(['!', '?']).flat_map(|s| s.split(". ")) {
            for name in removed_in(sentence) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
    }
    names
}

/// A sentence's words (lowercase) and backticked names, in order.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(String),
    Name(String),
}

fn tokens(clause: &str) -> Vec<Token> {
    let mut out = Vec::new();
    for (k, piece) in clause.split('`').enumerate() {
        if k % 2 == 1 {
            out.extend(prose_names(&format!("`{piece}`")).into_iter().map(Token::Name));
            continue;
        }
        out.extend(
            piece
                .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '_'))
                .filter(|w| !w.is_empty())
                .map(|w| Token::Word(w.to_lowercase())),
        );
    }
    out
}

/// The names one sentence says go (see [`removal_names`]).
fn removed_in(sentence: &str) -> Vec<String> {
    const VERBS: &[&str] = &[
        "remove",
        "removed",
        "removes",
        "removing",
        "delete",
        "deleted",
        "deletes",
        "deleting",
        "drop",
        "dropped",
        "drops",
        "dropping",
        "eliminate",
        "eliminated",
        "eliminates",
        "rename",
        "renamed",
        "renames",
        "renaming",
        "replace",
        "replaced",
        "replaces",
        "merge",
        "merged",
        "merges",
        "inline",
        "inlined",
        "inlines",
    ];
    const FILLER: &[&str] = &[
        "the",
        "a",
        "an",
        "unused",
        "dead",
        "old",
        "obsolete",
        "legacy",
        "now",
        "deprecated",
        "redundant",
        "stale",
        "leftover",
        "whole",
        "entire",
        "helper",
        "function",
        "method",
        "class",
        "local",
        "variable",
        "constant",
        "parameter",
        "argument",
        "field",
        "property",
        "attribute",
        "private",
        "internal",
        "and",
        "also",
    ];
    const GONE: &[&str] =
        &["unused", "dead", "obsolete", "removed", "deleted", "gone", "redundant", "unnecessary"];
    const LINKS: &[&str] = &["is", "was", "are", "were", "has", "have", "been", "now", "also"];
    const KEEP: &[&str] = &[
        "not",
        "never",
        "keep",
        "keeps",
        "kept",
        "left",
        "leave",
        "unchanged",
        "untouched",
        "stay",
        "stays",
        "remain",
        "remains",
        "same",
        "without",
        "instead",
        "still",
    ];
    const PREPOSITIONS: &[&str] =
        &["in", "from", "of", "inside", "within", "to", "for", "into", "at", "on", "by", "with"];
    let mut out = Vec::new();
    let mut before: Vec<String> = Vec::new();
    for clause in
        sentence.split(';').flat_map(|c| c.split(" but ")).flat_map(|c| c.split(", while"))
    {
        let toks = tokens(clause);
        let word = |k: usize| match toks.get(k) {
            Some(Token::Word(w)) => Some(w.as_str()),
            _ => None,
        };
        let keeps = toks.iter().any(
            |t| matches!(t, Token::Word(w) if KEEP.contains(&w.as_str()) || w.ends_with("n't")),
        );
        let names: Vec<String> = toks
            .iter()
            .filter_map(|t| match t {
                Token::Name(n) => Some(n.clone()),
                _ => None,
            })
            .collect();
        if keeps {
            before = names;
            continue;
        }
        for (i, t) in toks.iter().enumerate() {
            let Token::Name(name) = t else { continue };
            if i > 0 && word(i - 1).is_some_and(|w| PREPOSITIONS.contains(&w)) {
                continue;
            }
            // A verb before it, past determiners, adjectives and the names of a series.
            let acted_on = (0..i)
                .rev()
                .find(|&k| match &toks[k] {
                    Token::Name(_) => false,
                    Token::Word(w) => !FILLER.contains(&w.as_str()),
                })
                .and_then(word)
                .is_some_and(|w| VERBS.contains(&w));
            // Or said to be gone after it.
            let mut k = i + 1;
            while word(k).is_some_and(|w| LINKS.contains(&w)) {
                k += 1;
            }
            let gone = word(k).is_some_and(|w| GONE.contains(&w))
                || (word(k) == Some("no")
                    && word(k + 1) == Some("longer")
                    && word(k + 2).is_some_and(|w| {
                        ["needed", "used", "called", "necessary", "required"].contains(&w)
                    }));
            if acted_on || gone {
                out.push(name.clone());
            }
        }
        // "…; remove it": a removal verb on a pronoun takes the names just before.
        let on_pronoun = toks.windows(2).any(|w| {
            matches!((&w[0], &w[1]), (Token::Word(v), Token::Word(p))
                if VERBS.contains(&v.as_str()) && ["it", "them", "both"].contains(&p.as_str()))
        });
        if on_pronoun {
            out.extend(before.iter().cloned());
        }
        before = names;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removal_names_are_those_a_sentence_says_go() {
        let reply = "Nothing calls `legacy_report` any more; remove it. `cancel_order` and \
                     `refund_order` stay as they are.\nDon't delete `audit`. `old_api` is unused.\n\
                     ```python\n# remove `in_code`\n```\n";
        assert_eq!(removal_names(reply), ["legacy_report", "old_api"]);
        for (line, want) in [
            ("Removed `legacy_export` and rewrote `save` to stream.", &["legacy_export"][..]),
            ("I removed the debug print in `load` and fixed `save`.", &[]),
            ("Remove the `print()` call from `load()`.", &["print"]),
            ("Removed the unused `rows` accumulator, which makes `export_json` faster.", &["rows"]),
            ("The `indent` argument in `export_json` was unused by callers.", &[]),
            ("`save` no longer drops the first row.", &[]),
            ("`load_fast` is a drop-in replacement for `load`.", &[]),
            ("I didn't delete `load_all`.", &[]),
            ("`helper` there was unused too but I left it.", &[]),
            ("Removed `a`; the other helpers remain as they were.", &["a"]),
            ("Delete the old `a`, `b` and `c` helpers.", &["a", "b", "c"]),
            ("`parse_v1` is no longer needed.", &["parse_v1"]),
            ("Rename the local variable `listener` to `onceListener`.", &["listener"]),
            ("Rename the private field `count` to `total`.", &["count"]),
        ] {
            assert_eq!(removal_names(line), want, "{line}");
        }
    }
}
