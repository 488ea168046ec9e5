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
            let name = path.rsplit('/').next().unwrap_or(path);
            // Environment files (`.env`, `.env.example`, `prod.env`) and shell start-up files are
            // shell assignments: models tag them `bash`.
            let shell_file = name.starts_with(".env")
                || name.ends_with(".env")
                || matches!(name, ".bashrc" | ".zshrc" | ".profile" | ".bash_profile");
            (matches!(ext.as_str(), "txt" | "log" | "text")
                && matches!(language.as_str(), "text" | "txt" | "plaintext"))
                || (shell_file && matches!(language.as_str(), "bash" | "sh" | "shell" | "zsh"))
        }
        None => true,
    }
}

/// The file a prose line introduces as the listing that follows it, if its form says so (see
/// the module docs): the line ends with `:`, and its last mention of a path is followed by at
/// most one word before that colon.
/// `known`: whether the project has a file at a path (a mention with a space in it, `docs/User
/// Guide.md`, is a path only then).
pub(super) fn introduced_path(line: &str, known: &dyn Fn(&str) -> bool) -> Option<String> {
    let body = introduction(line)?;
    // "Create `tests/test_util.py` to test `app/util.py`:", "Create `Procfile` alongside
    // `Gemfile`:": the file the verb makes is the one introduced.
    if let Some(made) = created_first(body, known) {
        return Some(made);
    }
    let (path, before, after) = around_last_mention(body, known)?;
    if governed_by_a_preposition(before) {
        return None;
    }
    let after = after.trim_matches(|c: char| c.is_whitespace() || "*_)`'\"".contains(c));
    // A remark in parentheses says nothing of what the listing is ("after the change (with
    // the import)").
    let words = without_parentheses(after).split_whitespace().count();
    // A presenting sentence ("Here is a new version of `a.txt` for you to consider:"), one that
    // creates or rewrites the file ("Create `a.py` with this content:", "I've rewritten `a.ts`
    // as follows:") or names its whole new version ("The complete `app.py` after the
    // change:") presents the file however it goes on; any other sentence only when the file
    // ends it.
    let sentence = last_sentence(before);
    let whole = presents(sentence) || makes_whole(sentence) || names_whole(sentence);
    (words <= 1 || (whole && words <= 5) || presents_new_version(line, known)).then_some(path)
}

/// `text` without what stands in parentheses (an unclosed one runs to the end).
fn without_parentheses(text: &str) -> String {
    let mut depth = 0usize;
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Whether a line introducing a listing asks for a file that is not there yet: "Add a new
/// migration `m/0005.sql`:", "Create `tests/test_a.py`:", "a new file `b.py`:". A new version of
/// a file is not a new file ("Here is the new `app.py`:", "a new version of `a.py`:"). Such a
/// listing never replaces a file of that name that holds something else.
pub(super) fn announces_new(line: &str, known: &dyn Fn(&str) -> bool) -> bool {
    let Some((_, before, _)) = introduction(line).and_then(|b| around_last_mention(b, known))
    else {
        return false;
    };
    // "Add a new route to `app.py`": something new in the file.
    if governed_by_a_preposition(before) {
        return false;
    }
    let words = words_before_mention(last_sentence(before));
    let near: Vec<&str> = words.iter().rev().take(4).map(String::as_str).collect();
    // "a new migration", "an new file": the indefinite article makes it another file; "a new
    // version of" it is the file.
    let indefinite_new = near.first() != Some(&"of")
        && near.windows(2).any(|w| w[0] == "new" && matches!(w[1], "a" | "an"));
    let created = words
        .iter()
        .rev()
        .find(|w| !(SKIPPED.contains(&w.as_str()) || matches!(w.as_str(), "file" | "module")))
        .is_some_and(|verb| matches!(verb.as_str(), "create" | "created" | "creating"));
    indefinite_new || created
}

/// A line that introduces what follows (it ends with `:`, decoration aside): the line up to
/// that colon.
fn introduction(line: &str) -> Option<&str> {
    line.trim().trim_end_matches(['*', '_']).trim_end().strip_suffix(':')
}

/// The path `text` mentions last, with the text before and after that mention.
fn around_last_mention<'a>(
    text: &'a str,
    known: &dyn Fn(&str) -> bool,
) -> Option<(String, &'a str, &'a str)> {
    let (path, after) = last_mention(text, known)?;
    Some((path, &text[..text.len() - after.len()], after))
}

/// The first path a sentence mentions, when a verb that makes a file governs it directly
/// ("Create `a.py` …").
fn created_first(body: &str, known: &dyn Fn(&str) -> bool) -> Option<String> {
    let sentence = last_sentence(body);
    let offset = body.len() - sentence.len();
    let (_, path, end) = mentions(sentence, known).into_iter().next()?;
    let before = &body[..offset + end];
    makes_whole(last_sentence(before)).then_some(path)
}

/// The last sentence of `text`: what follows its last ". ", "! " or "? ".
fn last_sentence(text: &str) -> &str {
    ['.', '!', '?']
        .iter()
        .filter_map(|&p| text.rfind(&format!("{p} ")).map(|i| i + 2))
        .max()
        .map_or(text, |i| &text[i..])
}

/// The lowercased words of `before` (the sentence up to a mention) standing before the
/// mention itself: before its opening backtick or star, or, for a bare path, before its last
/// whitespace-separated token.
fn words_before_mention(before: &str) -> Vec<String> {
    let t = before.trim_end();
    // A mention in backticks or stars ends with them; a bare one is the last word (an earlier
    // backticked word in the sentence is not it: "add a `fmt` target to the Makefile").
    let cut = match t.ends_with(['`', '*']) {
        true => {
            let open = t.trim_end_matches(['`', '*']);
            open.rfind(['`', '*']).map_or(open, |j| &t[..j])
        }
        false => t.rsplit_once(char::is_whitespace).map_or("", |(head, _)| head),
    };
    cut.split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Determiners and adjectives between a verb or preposition and the file it governs.
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

/// Adjectives that say a version is all of the file.
const WHOLE_ADJECTIVES: &[&str] =
    &["updated", "new", "full", "complete", "entire", "whole", "revised", "final", "resulting"];

/// Whether the sentence before a mention makes the file anew: its verb (past the determiners,
/// adjectives and a "file" noun) creates or rewrites ("Create `a.py`", "I've rewritten the
/// `a.ts`", "Add a new file `b.py`").
fn makes_whole(sentence: &str) -> bool {
    const VERBS: &[&str] = &[
        "create",
        "created",
        "creating",
        "rewrite",
        "rewrote",
        "rewritten",
        "rewriting",
        "recreate",
        "recreated",
        "regenerated",
    ];
    let words = words_before_mention(sentence);
    let mut rest = words.iter().rev().skip_while(|w| {
        SKIPPED.contains(&w.as_str()) || matches!(w.as_str(), "file" | "module" | "script")
    });
    let skipped_new = words
        .iter()
        .rev()
        .take_while(|w| SKIPPED.contains(&w.as_str()) || w.as_str() == "file")
        .any(|w| w == "new");
    rest.next().is_some_and(|verb| {
        VERBS.contains(&verb.as_str())
            || (skipped_new && matches!(verb.as_str(), "add" | "added" | "make" | "write"))
    })
}

/// Whether the sentence before a mention is only a noun phrase naming a whole version of the
/// file: "The complete `app.py`", "Updated `config.yaml`" (and whatever follows the mention).
fn names_whole(sentence: &str) -> bool {
    let words = words_before_mention(sentence);
    !words.is_empty()
        && words.iter().all(|w| SKIPPED.contains(&w.as_str()))
        && words.iter().any(|w| WHOLE_ADJECTIVES.contains(&w.as_str()))
}

/// Whether the mention that ends `before` (the line up to and with it) is the object of a
/// preposition: "Add this **to** `x`", "the function **in** `x`", "a test **for** `x`", "the
/// output **of** `x`". The block is then something for, in or about the file, not the file;
/// "a new version **of** `x`" and "the contents **of** `x`" are the file.
fn governed_by_a_preposition(before: &str) -> bool {
    const PREPOSITIONS: &[&str] = &[
        "to",
        "into",
        "in",
        "inside",
        "within",
        "for",
        "of",
        "from",
        "with",
        "at",
        "on",
        "onto",
        "under",
        "after",
        "before",
        "near",
        "below",
        "above",
        "alongside",
        "beside",
        "next",
        "like",
        "than",
        "by",
        "via",
        "against",
        "about",
    ];
    const WHOLE: &[&str] = &["version", "copy", "contents", "content", "listing", "rewrite"];
    let words = words_before_mention(before);
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
pub(super) fn presents_new_version(line: &str, known: &dyn Fn(&str) -> bool) -> bool {
    let Some((_, before, _)) = introduction(line).and_then(|b| around_last_mention(b, known))
    else {
        return false;
    };
    let sentence = last_sentence(before);
    let lower = sentence.to_ascii_lowercase();
    (presents(sentence) && VERSION.iter().any(|w| lower.contains(w)))
        || makes_whole(sentence)
        || names_whole(sentence)
}

/// Words that make "Here is the … file" a new version of all of it.
const VERSION: &[&str] =
    &["modified", "updated", "new version", "full", "complete", "entire", "whole", "revised"];

/// Whether a line presents a whole file without naming it ("Here's the complete file:",
/// "Here is the updated code:"): the listing may name itself on its first line.
pub(super) fn presents_unnamed_file(line: &str, known: &dyn Fn(&str) -> bool) -> bool {
    let Some(body) = introduction(line) else { return false };
    let sentence = last_sentence(body);
    let lower = sentence.to_ascii_lowercase();
    last_mention(body, known).is_none()
        && presents(sentence)
        && VERSION.iter().any(|w| lower.contains(w))
        && ["file", "code", "version", "module"].iter().any(|w| lower.contains(w))
}

/// The path a listing's first line names in a comment and nothing else: `# app/util.py`,
/// `// src/api.ts`, `-- db/schema.sql`, `/* lib/x.c */`, `<!-- docs/a.html -->`.
pub(super) fn first_line_path(line: &str) -> Option<String> {
    let t = line.trim();
    let inner = [("<!--", "-->"), ("/*", "*/")]
        .iter()
        .find_map(|(open, close)| t.strip_prefix(open)?.strip_suffix(close))
        .or_else(|| ["//", "#", "--", ";"].iter().find_map(|p| t.strip_prefix(p)))?;
    let path = clean_path_line(inner.trim().trim_start_matches(['/', '#', '-', ';']));
    (path.contains('/') || path.contains('.')).then_some(path).filter(|p| looks_like_path(p))
}

/// Whether a sentence, or a clause of it after a comma, opens by presenting what follows: "Here
/// is …", "Here's …", "Below is …", "For reference, here's …".
fn presents(sentence: &str) -> bool {
    let lower = sentence.trim_start().to_ascii_lowercase();
    // The sentence, or a clause of it after a comma ("For reference, here's …").
    lower.split(", ").any(|clause| {
        let clause = clause.trim_start_matches(|c: char| !c.is_alphanumeric());
        ["here is ", "here's ", "here are ", "below is ", "this is ", "and here is ", "and here's "]
            .iter()
            .any(|p| clause.starts_with(p))
    })
}

/// The paths mentioned in `text` in backticks or bold, in order: where each opens, the path,
/// and where it ends.
fn mentions(text: &str, known: &dyn Fn(&str) -> bool) -> Vec<(usize, String, usize)> {
    let mut found = Vec::new();
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
            if looks_like_path(&word) || (word.contains(' ') && known(&word)) {
                found.push((open, word, end));
            }
            from = end;
        }
    }
    found.sort_by_key(|m| m.0);
    found
}

/// The last path mentioned in `text`, in backticks, in bold or bare, and the text after it.
fn last_mention<'a>(text: &'a str, known: &dyn Fn(&str) -> bool) -> Option<(String, &'a str)> {
    if let Some((_, path, end)) = mentions(text, known).pop() {
        return Some((path, &text[end..]));
    }
    // A bare path as the line's last word: "Updated src/app.py:".
    let words: Vec<&str> = text.split_whitespace().collect();
    let (last, head) = words.split_last()?;
    // Or its last words, when they name a file of the project: "Updated docs/User Guide.md:".
    for k in (1..=head.len().min(8)).rev() {
        let joined = clean_path_line(&words[words.len() - 1 - k..].join(" "));
        if known(&joined) {
            return Some((joined, ""));
        }
    }
    // A word glued to a folder (`docs/User Guide.md`, a file the project does not have) is
    // not the file named.
    if head.last().is_some_and(|w| w.contains('/') && w.ends_with(char::is_alphanumeric)) {
        return None;
    }
    let cand = clean_path_line(last);
    looks_like_path(&cand).then_some((cand, ""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_is_announced_by_a_new_thing_or_creating_it_not_by_a_new_version() {
        let new = |line: &str| announces_new(line, &|_| false);
        assert!(new("Add a new migration `db/0007_index.sql`:"));
        assert!(new("We need an new test module `tests/test_cli.py`:"));
        assert!(new("Create `scripts/release.sh`:"));
        assert!(new("Created the file `docs/usage.md`:"));
        assert!(!new("Here is a new version of `a.txt` for you to consider:"));
        assert!(!new("Here is the new `app.py`:"));
        assert!(!new("The updated `app.py`:"));
        assert!(!new("I've rewritten `app.py`:"));
        assert!(!new("Add a new route to `app.py`:"));
    }

    #[test]
    fn a_presenting_sentence_may_go_on_after_the_file() {
        assert_eq!(
            introduced_path("Here is a new version of `a.txt` for you to consider:", &|_| false)
                .as_deref(),
            Some("a.txt")
        );
        assert_eq!(introduced_path("When you run `main.py` you will see:", &|_| false), None);
        assert_eq!(introduced_path("Change `hello.py` like this:", &|_| false), None);
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
            ("Create `app/cache.py` with this content:", Some("app/cache.py")),
            ("I've rewritten `src/api.ts` as follows:", Some("src/api.ts")),
            ("The complete `app.py` after the change:", Some("app.py")),
            (
                "Give it room. This is what `config/app.yaml` should contain:",
                Some("config/app.yaml"),
            ),
            ("Add a new file `lib/b.py` with:", Some("lib/b.py")),
            ("Here's the updated `Dockerfile`:", Some("Dockerfile")),
            ("Create a test in `tests/test_a.py` like this:", None),
            ("Then change `a.py` so that it reads:", None),
            ("Add `b.py` to the list like this:", None),
            ("Change `hello.py` as follows:", None),
            ("Create `tests/test_util.py` to test `app/util.py`:", Some("tests/test_util.py")),
            ("Create `Procfile` alongside `Gemfile`:", Some("Procfile")),
            ("Then add a `fmt` target to the Makefile:", None),
            ("Add this line to your `Dockerfile`:", None),
            ("Make `run` call it like `app.py` does:", None),
            // A clause after a comma presents it; a remark in parentheses says nothing.
            (
                "For reference, here's the complete `app/main.py` after the change (with the import):",
                Some("app/main.py"),
            ),
            ("If it helps, here is `a.py` as it stands now:", Some("a.py")),
            ("Run `make test` (it calls `a.py`) and you will see:", None),
        ] {
            assert_eq!(introduced_path(line, &|_| false).as_deref(), want, "{line}");
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
        assert!(fits_language("bash", ".env.example"));
        assert!(fits_language("sh", "deploy/prod.env"));
        assert!(!fits_language("bash", "config.example"));
        assert!(fits_language("dockerfile", "Dockerfile"));
    }

    #[test]
    fn new_versions_and_unnamed_files() {
        assert!(presents_new_version("Create `scripts/seed.py`:", &|_| false));
        assert!(presents_new_version("The complete `app.py` after the change:", &|_| false));
        assert!(!presents_new_version("Change `hello.py` like this:", &|_| false));
        assert!(presents_unnamed_file("Make it lazy. Here's the complete file:", &|_| false));
        assert!(presents_unnamed_file("Here is the updated code:", &|_| false));
        assert!(!presents_unnamed_file("Here is the output:", &|_| false));
        assert!(!presents_unnamed_file("Here is the updated `a.py`:", &|_| false));
        assert_eq!(first_line_path("# app/util.py").as_deref(), Some("app/util.py"));
        assert_eq!(first_line_path("// src/api.ts").as_deref(), Some("src/api.ts"));
        assert_eq!(first_line_path("<!-- docs/a.html -->").as_deref(), Some("docs/a.html"));
        assert_eq!(first_line_path("# compute the total"), None);
        assert_eq!(first_line_path("x = 1  # a.py"), None);
    }
}
