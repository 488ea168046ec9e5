//! When a fenced block named only in prose is a whole file: by the reply's form, not its words.
//!
//! A path line right before the fence or a path in its info string names a listing outright
//! (the parser's main rules). Prose is weaker: "When you run `main.py` you will see:" followed by
//! the program's output, or "Change `hello.py` like this:" followed by a snippet, mention a file
//! without presenting it. A prose mention names the listing only when
//! - it is on the line just before the fence (at most one blank line between), a line that ends
//!   with `:` introducing the block;
//! - it is the object being introduced: at most one word stands between it and that colon
//!   ("Here is the updated `app.py`:", "`app.py` now:"), not a clause ("you will see:");
//! - the fence's language fits the file: a tag naming another language or a terminal/output
//!   (`text`, `console`, `sh` for a `.py` file) is an example, and so is a plain fence for a
//!   file in a programming language (models tag real listings).
//!
//! Not here: whether the listing is all of the file or an excerpt (execution compares it with
//! the file).

use crate::core::paths::{clean_path_line, looks_like_path, normalize_relative};

/// Fence languages for a terminal, a program's output or plain text: never a source file's
/// listing unless the file is of that kind.
pub(super) const SHELL_LANGUAGES: &[&str] = &[
    "bash",
    "sh",
    "shell",
    "console",
    "cmd",
    "batch",
    "powershell",
    "ps1",
    "zsh",
    "fish",
    "terminal",
    "text",
    "txt",
    "plaintext",
    "output",
    "stdout",
    "log",
];

/// File extensions of programming languages and the fence tags that fit each.
const LANGUAGES: &[(&[&str], &[&str])] = &[
    (&["py", "pyi", "pyw"], &["python", "py", "python3", "py3"]),
    (&["rs"], &["rust", "rs"]),
    (&["js", "mjs", "cjs"], &["javascript", "js", "node", "jsx", "mjs", "cjs"]),
    (&["jsx"], &["jsx", "javascript", "js"]),
    (&["ts", "mts", "cts"], &["typescript", "ts"]),
    (&["tsx"], &["tsx", "typescript", "ts", "jsx"]),
    (&["go"], &["go", "golang"]),
    (&["java"], &["java"]),
    (&["kt", "kts"], &["kotlin", "kt", "kts"]),
    (&["c", "h"], &["c", "h", "cpp", "c++"]),
    (&["cc", "cpp", "cxx", "hpp", "hh", "hxx"], &["cpp", "c++", "cc", "cxx", "hpp"]),
    (&["cs"], &["csharp", "cs", "c#"]),
    (&["rb"], &["ruby", "rb"]),
    (&["php"], &["php"]),
    (&["swift"], &["swift"]),
    (&["scala"], &["scala"]),
    (&["dart"], &["dart"]),
    (&["lua"], &["lua"]),
    (&["sh", "bash", "zsh"], &["bash", "sh", "shell", "zsh"]),
    (&["ps1"], &["powershell", "ps1", "pwsh"]),
    (&["css"], &["css"]),
    (&["scss"], &["scss", "css"]),
    (&["sql"], &["sql", "postgresql", "postgres", "pgsql", "mysql", "sqlite", "plsql", "tsql"]),
    (&["vue"], &["vue", "html"]),
    (&["svelte"], &["svelte", "html"]),
    (&["json"], &["json", "jsonc", "json5"]),
    (&["yaml", "yml"], &["yaml", "yml"]),
    (&["toml"], &["toml"]),
];

/// Whether a fence tagged `language` (possibly empty) can hold a listing of `path`.
pub(super) fn fits_language(language: &str, path: &str) -> bool {
    let language = language.to_ascii_lowercase();
    let ext = path.rsplit('/').next().and_then(|name| name.rsplit_once('.')).map(|(_, e)| e);
    let ext = ext.unwrap_or("").to_ascii_lowercase();
    let known = LANGUAGES.iter().find(|(exts, _)| exts.contains(&ext.as_str()));
    match known {
        Some((_, tags)) => tags.contains(&language.as_str()),
        None if SHELL_LANGUAGES.contains(&language.as_str()) => {
            matches!(ext.as_str(), "txt" | "log" | "text")
                && matches!(language.as_str(), "text" | "txt" | "plaintext")
        }
        None => true,
    }
}

/// The file a prose line introduces as the listing that follows it, if its form says so (see
/// the module docs): the line ends with `:`, and its last mention of a path is followed by at
/// most one word before that colon.
pub(super) fn introduced_path(line: &str) -> Option<String> {
    let t = line.trim().trim_end_matches(['*', '_']).trim_end();
    let body = t.strip_suffix(':')?;
    let (path, after) = last_mention(body)?;
    let before = &body[..body.len() - after.len()];
    if governed_by_a_preposition(before) {
        return None;
    }
    let after = after.trim_matches(|c: char| c.is_whitespace() || "*_)`'\"".contains(c));
    let words = after.split_whitespace().count();
    // A presenting sentence ("Here is a new version of `a.txt` for you to consider:") presents
    // the file however it goes on; any other sentence only when the file ends it.
    (words <= 1 || (presents(before) && words <= 5) || presents_new_version(line)).then_some(path)
}

/// Whether the mention that ends `before` (the line up to and with it) is the object of a
/// preposition: "Add this **to** `x`", "the function **in** `x`", "a test **for** `x`", "the
/// output **of** `x`". The block is then something for, in or about the file, not the file;
/// "a new version **of** `x`" and "the contents **of** `x`" are the file.
fn governed_by_a_preposition(before: &str) -> bool {
    const PREPOSITIONS: &[&str] = &[
        "to", "into", "in", "inside", "within", "for", "of", "from", "with", "at", "on", "onto",
        "under", "after", "before", "near", "below", "above",
    ];
    const WHOLE: &[&str] = &["version", "copy", "contents", "content", "listing", "rewrite"];
    const SKIPPED: &[&str] = &[
        "the",
        "a",
        "an",
        "your",
        "my",
        "our",
        "this",
        "that",
        "its",
        "updated",
        "new",
        "full",
        "complete",
        "entire",
        "whole",
        "modified",
        "revised",
        "final",
        "current",
        "fixed",
        "corrected",
        "resulting",
        "changed",
    ];
    // The words before the mention: before its opening backtick or star, or, for a bare path,
    // before its last whitespace-separated token.
    let cut = match before.trim_end().rfind(['`', '*']) {
        Some(i) => {
            let open = before[..i].trim_end_matches(['`', '*']);
            open.rfind(['`', '*']).map_or(open, |j| &before[..j])
        }
        None => before.trim_end().rsplit_once(char::is_whitespace).map_or("", |(head, _)| head),
    };
    let words: Vec<String> = cut
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let mut rest = words.iter().rev().skip_while(|w| SKIPPED.contains(&w.as_str()));
    let Some(w) = rest.next() else { return false };
    if !PREPOSITIONS.contains(&w.as_str()) {
        return false;
    }
    let noun = rest.find(|w| !SKIPPED.contains(&w.as_str()));
    !(w == "of" && noun.is_some_and(|n| WHOLE.contains(&n.as_str())))
}

/// Whether a line presents a new version of a file: "Here's the modified `app.py` file that
/// …:". Such a sentence names a listing even in a plain fence and however it goes on.
pub(super) fn presents_new_version(line: &str) -> bool {
    let t = line.trim().trim_end_matches(['*', '_']).trim_end();
    let Some(body) = t.strip_suffix(':') else { return false };
    let Some((_, after)) = last_mention(body) else { return false };
    let before = body[..body.len() - after.len()].to_ascii_lowercase();
    const VERSION: &[&str] =
        &["modified", "updated", "new version", "full", "complete", "entire", "whole", "revised"];
    presents(&before) && VERSION.iter().any(|w| before.contains(w))
}

/// Whether a sentence opens by presenting what follows: "Here is …", "Here's …", "Below is …".
fn presents(before: &str) -> bool {
    let lower = before.trim_start().to_ascii_lowercase();
    let lower = lower.trim_start_matches(|c: char| !c.is_alphanumeric());
    ["here is ", "here's ", "here are ", "below is ", "this is "]
        .iter()
        .any(|p| lower.starts_with(p))
}

/// The last path mentioned in `text`, in backticks, in bold or bare, and the text after it.
fn last_mention(text: &str) -> Option<(String, &str)> {
    let mut best: Option<(usize, String, usize)> = None;
    for delim in ["`", "**"] {
        let mut from = 0;
        while let Some(open) = text[from..].find(delim).map(|i| from + i) {
            let inner_start = open + delim.len();
            let Some(close) = text[inner_start..].find(delim).map(|i| inner_start + i) else {
                break;
            };
            let word = normalize_relative(
                text[inner_start..close].trim().trim_end_matches([':', ',', ';', '.']),
            );
            let end = close + delim.len();
            if looks_like_path(&word) && best.as_ref().is_none_or(|b| b.0 < open) {
                best = Some((open, word, end));
            }
            from = end;
        }
    }
    if let Some((_, path, end)) = best {
        return Some((path, &text[end..]));
    }
    // A bare path as the line's last word: "Updated src/app.py:".
    let last = text.split_whitespace().last()?;
    let cand = clean_path_line(last);
    looks_like_path(&cand).then_some((cand, ""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_presenting_sentence_may_go_on_after_the_file() {
        assert_eq!(
            introduced_path("Here is a new version of `a.txt` for you to consider:").as_deref(),
            Some("a.txt")
        );
        assert_eq!(introduced_path("When you run `main.py` you will see:"), None);
        assert_eq!(introduced_path("Change `hello.py` like this:"), None);
    }

    #[test]
    fn introducing_lines() {
        for (line, want) in [
            ("Here is the new `a.txt`:", Some("a.txt")),
            ("Here is the complete updated `src/app.py` file:", Some("src/app.py")),
            ("**`lib/x.js`** now:", Some("lib/x.js")),
            ("Updated src/app.py:", Some("src/app.py")),
            ("When you run `main.py` you will see:", None),
            ("Change `hello.py` like this:", None),
            ("In `app.py`, the function is fine.", None),
            ("I changed `app.py`:", Some("app.py")),
            ("Add this to `requirements.txt`:", None),
            ("The `mean` function in `stats.py` becomes:", None),
            ("And here's a test for `src/slug.py`:", None),
            ("Here's the full output of `app.py`:", None),
            ("Insert the following into src/server.js:", None),
            ("Here is the full new version of `a.txt`:", Some("a.txt")),
            ("Here are the contents of **`conf/app.toml`**:", Some("conf/app.toml")),
            ("Run it:", None),
        ] {
            assert_eq!(introduced_path(line).as_deref(), want, "{line}");
        }
    }

    #[test]
    fn languages_fit_files() {
        assert!(fits_language("python", "src/app.py"));
        assert!(fits_language("Python", "app.py"));
        assert!(!fits_language("", "main.py"));
        assert!(!fits_language("text", "main.py"));
        assert!(!fits_language("console", "main.py"));
        assert!(!fits_language("sh", "main.py"));
        assert!(!fits_language("javascript", "main.py"));
        assert!(fits_language("", "a.txt"));
        assert!(fits_language("text", "notes.txt"));
        assert!(!fits_language("console", "notes.txt"));
        assert!(fits_language("markdown", "README.md"));
        assert!(fits_language("", "README.md"));
        assert!(fits_language("bash", "run.sh"));
        assert!(!fits_language("output", "Makefile"));
        assert!(fits_language("postgresql", "db/schema.sql"));
        assert!(fits_language("jsx", "src/App.tsx"));
        assert!(!fits_language("sql", "src/App.tsx"));
    }
}
