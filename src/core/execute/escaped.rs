//! Replies copied from a web page, their code HTML-escaped (`if (a &amp;&amp; b)`,
//! `() =&gt; {}`): written as they stand, the entities land in the code, and the fuzzy locator
//! finds the escaped old text close enough to place it. [`unescaped`] is the hunk as the code
//! reads; `modify` takes it when the file holds that text and not the escaped one.
//!
//! Not for: markup files, whose entities are their text (the file then holds the old text as
//! written, and the hunk is taken as it stands).

use crate::core::edit::{Hunk, HunkLine};

/// The entities a page escapes code with, and what they stand for.
const ENTITIES: [(&str, char); 7] = [
    ("&amp;", '&'),
    ("&lt;", '<'),
    ("&gt;", '>'),
    ("&quot;", '"'),
    ("&#39;", '\''),
    ("&#x27;", '\''),
    ("&apos;", '\''),
];

/// The hunk with its entities decoded, `None` when it has none.
pub(super) fn unescaped(hunk: &Hunk) -> Option<Hunk> {
    if !hunk.lines.iter().any(|l| has_entity(&l.text)) {
        return None;
    }
    let lines = (hunk.lines.iter()).map(|l| HunkLine::new(l.kind, decode(&l.text))).collect();
    Some(Hunk { lines, other_split: None, ..hunk.clone() })
}

/// An entity the hunk's new lines write that the file holds nowhere, in a file whose language
/// has no entities (not markup): code copied escaped from a page, whose old text had nothing to
/// show it (`&&` is not in it, or it is a new line only).
pub(super) fn foreign_entity(path: &str, hunk: &Hunk, file: &[String]) -> Option<&'static str> {
    const MARKUP: [&str; 19] = [
        "html", "htm", "xhtml", "xml", "svg", "vue", "svelte", "jsx", "tsx", "md", "markdown",
        "mdx", "rst", "php", "erb", "hbs", "twig", "astro", "j2",
    ];
    let ext = crate::core::paths::extension(path);
    if MARKUP.contains(&ext.as_str()) {
        return None;
    }
    let added = hunk.lines.iter().filter(|l| l.kind == crate::core::edit::LineKind::Add);
    added
        .flat_map(|l| ENTITIES.iter().map(|(e, _)| *e).filter(|e| l.text.contains(e)))
        .find(|e| !file.iter().any(|f| f.contains(e)))
}

/// Whether a line holds one of the entities.
pub(super) fn has_entity(line: &str) -> bool {
    line.contains('&') && ENTITIES.iter().any(|(e, _)| line.contains(e))
}

fn decode(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match ENTITIES.iter().find(|(e, _)| rest.starts_with(e)) {
            Some((e, c)) => {
                out.push(*c);
                rest = &rest[e.len()..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entities_decode_once() {
        assert_eq!(decode("if (a &amp;&amp; b) =&gt; x"), "if (a && b) => x");
        assert_eq!(decode("&amp;lt; stays &lt;"), "&lt; stays <");
        assert_eq!(decode("a & b; &unknown;"), "a & b; &unknown;");
        assert!(!has_entity("a && b"));
    }
}
