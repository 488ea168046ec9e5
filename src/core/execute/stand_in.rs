//! A comment a hunk's new text puts where its old text has code it removes, and nothing of that
//! code written again: `-- existing columns unchanged` where a table's columns were, `// other
//! cases unchanged` in place of a `switch`'s cases. Read as a placeholder, the code must stay;
//! read as written, the code goes and the comment is written in. Which one the model meant is
//! not for redline to guess when a wrong guess loses the code: the hunk is refused, saying so.
//! Told by where the comment stands and what it replaces, in any wording (placeholders in words
//! redline knows are `elision`'s, and kept where they stand alone between kept lines).
//!
//! Not for: whole-file listings (`whole::placeholders`), known placeholder phrases
//! (`core::elision`).

use crate::core::edit::{Hunk, LineKind};
use crate::core::whole::is_comment;

/// So many removed lines of code, at least, make a stretch a comment can stand for.
const CODE_MIN: usize = 2;

/// The first comment line the hunk adds (the file does not have it) where its old text has at
/// least [`CODE_MIN`] lines of code it removes, which its new lines there do not write again
/// (not even changed): the comment and how many lines of code it stands where.
pub(super) fn comment_for_removed_code<'h>(
    path: &str,
    hunk: &'h Hunk,
    file: &[String],
) -> Option<(&'h str, usize)> {
    // In a document a `#` line is a heading and `--` a rule: only `<!-- -->` is a comment.
    let document = matches!(
        crate::core::paths::extension(path).as_str(),
        "md" | "markdown" | "rst" | "txt" | "adoc"
    );
    let is_comment = |l: &str| match document {
        true => l.trim_start().starts_with("<!--"),
        false => is_comment(l),
    };
    let lines = &hunk.lines;
    let mut from = 0;
    while from < lines.len() {
        // One change: the lines between two kept ones.
        let to = from + lines[from..].iter().take_while(|l| l.kind != LineKind::Context).count();
        let group = &lines[from..to];
        from = to + 1;
        let said = |t: &str| !t.trim().is_empty();
        let removed: Vec<&str> = (group.iter())
            .filter(|l| l.kind == LineKind::Remove && said(&l.text) && !is_comment(&l.text))
            .map(|l| l.text.as_str())
            .collect();
        if removed.len() < CODE_MIN {
            continue;
        }
        let added: Vec<&str> = (group.iter())
            .filter(|l| l.kind == LineKind::Add && said(&l.text))
            .map(|l| l.text.as_str())
            .collect();
        // The comment stands first or last among the new lines: where the stretch was.
        let ends = [added.first(), added.last()];
        let Some(comment) = ends.into_iter().flatten().find(|l| {
            is_comment(l)
                && !file.iter().any(|f| f.trim() == l.trim())
                && !hunk.old_lines().any(|o| o.trim() == l.trim())
        }) else {
            continue;
        };
        // Most of the removed code written again, changed, beside the comment: a comment above
        // rewritten lines, not a stand-in for them.
        let rewritten = (removed.iter())
            .filter(|r| added.iter().any(|a| !is_comment(a) && alike(r, a)))
            .count();
        if rewritten * 2 < removed.len() {
            return Some((comment, removed.len()));
        }
    }
    None
}

/// Whether two lines share most of their words (two at least): one written again, changed.
fn alike(a: &str, b: &str) -> bool {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric() && c != '_')
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let (a, b) = (words(a), words(b));
    if a.is_empty() || b.is_empty() {
        return a.is_empty() && b.is_empty();
    }
    // (Two words at least: `case a:` and `case c:` share only the keyword.)
    let shared = a.iter().filter(|w| b.contains(w)).count();
    shared * 2 >= a.len().max(b.len()) && (shared >= 2 || a == b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hunk(old: &str, new: &str) -> Hunk {
        let lines = |t: &str| t.lines().map(str::to_string).collect::<Vec<_>>();
        Hunk::from_old_new(&lines(old), &lines(new))
    }

    #[test]
    fn a_comment_where_removed_code_was_is_found_in_any_wording() {
        let old = "CREATE TABLE t (\n  id BIGSERIAL PRIMARY KEY,\n  name TEXT NOT NULL,\n  at TIMESTAMPTZ\n);";
        let new =
            "CREATE TABLE t (\n  -- columns as they are\n  currency CHAR(3),\n  at TIMESTAMPTZ\n);";
        assert_eq!(
            comment_for_removed_code("x.sql", &hunk(old, new), &[]),
            Some(("  -- columns as they are", 2))
        );
        let old = "switch x {\ncase a:\n  f()\ncase b:\n  g()\n}";
        let new = "switch x {\n// same as now\ncase c:\n  h()\n}";
        assert!(comment_for_removed_code("x.sql", &hunk(old, new), &[]).is_some());
    }

    #[test]
    fn a_comment_above_rewritten_code_or_one_the_file_has_is_no_stand_in() {
        let old = "def f(x):\n    y = load(x)\n    return y + 1\n";
        // The removed lines written again, changed, under a new comment.
        let new = "def f(x):\n    # load once, cached\n    y = load_cached(x)\n    return y + 2\n";
        assert_eq!(comment_for_removed_code("x.sql", &hunk(old, new), &[]), None);
        // One removed line of code is no stretch.
        let h = hunk("a = 1\nb = 2\nc = 3\n", "a = 1\n# b is gone\nc = 3\n");
        assert_eq!(comment_for_removed_code("x.py", &h, &[]), None);
        // A comment the file has already is the file's.
        let h = hunk("a = 1\nb = 2\nb2 = 3\nc = 3\n", "a = 1\n# note\nc = 3\n");
        assert_eq!(comment_for_removed_code("x.py", &h, &["# note".to_string()]), None);
        assert!(comment_for_removed_code("x.py", &h, &[]).is_some());
        // In a document `#` is a heading: a setext title made an ATX one.
        let h = hunk("Notes\n=====\n\n- one\n", "# Notes\n\n- one\n");
        assert_eq!(comment_for_removed_code("NOTES.md", &h, &[]), None);
    }
}
