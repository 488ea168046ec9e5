//! Paths as models write them: cleaning decoration off a candidate line, and judging whether
//! what is left looks like a path. Resolution against the project lives in `core::resolve`.

/// Strip the decoration models put around a path on a line of its own:
/// `**src/app.py**`, `` `src/app.py` ``, `./src/app.py`, `# src/app.py:`, `File: src/app.py`,
/// `"src/app.py"`. Returns the bare candidate (possibly empty).
pub fn clean_path_line(line: &str) -> String {
    let mut s = line.trim();
    // Leading markdown heading / list markers.
    s = s.trim_start_matches('#').trim_start();
    if let Some(rest) = s.strip_prefix("- ").or_else(|| s.strip_prefix("* ")) {
        s = rest.trim_start();
    }
    // Slices of the line only: one allocation, at the end (this runs on every prose line).
    loop {
        let before = s;
        let t = s.trim().trim_end_matches(':').trim();
        let t = t.trim_matches(|c| c == '*' || c == '`' || c == '"' || c == '\'' || c == '_');
        let mut t = t.trim_end_matches(':').trim();
        for prefix in ["file:", "filename:", "path:", "file path:", "in file", "file"] {
            // Case-insensitive `starts_with`, without lowercasing the whole line.
            let bytes = t.as_bytes();
            if bytes.len() >= prefix.len()
                && bytes[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
                && (prefix.ends_with(':') || bytes.get(prefix.len()) == Some(&b' '))
            {
                t = t[prefix.len()..].trim();
                break;
            }
        }
        s = without_annotation(t);
        if s == before {
            break;
        }
    }
    normalize_relative(s)
}

/// A path line's trailing note about the file cut off: "`tests/test_x.py` (new)",
/// "**app.py** (new file)", "`a.rs` (updated)". Only a note of one to three words after a space;
/// a route group in a path (`src/(auth)/x.ts`) has no space before it.
fn without_annotation(s: &str) -> &str {
    let Some((head, note)) = trailing_note(s) else { return s };
    let words = note.split_whitespace().count();
    let plain = note.chars().all(|c| c.is_alphabetic() || c == ' ' || c == '-');
    if (1..=3).contains(&words) && plain { head.trim_end() } else { s }
}

/// What stands before a trailing `" (note)"`, and the note.
fn trailing_note(s: &str) -> Option<(&str, &str)> {
    s.strip_suffix(')')?.rsplit_once(" (")
}

/// Whether a path line's note says the file is new: "`tests/test_x.py` (new)", "(new file)",
/// "(created)".
pub fn notes_new(line: &str) -> bool {
    let t = line.trim().trim_end_matches([':', '*', '_']).trim_end();
    let Some((_, note)) = trailing_note(t) else { return false };
    let note = note.trim().to_ascii_lowercase();
    matches!(note.as_str(), "new" | "new file" | "created" | "create" | "added" | "new module")
}

/// A conventional extensionless name standing alone (`Dockerfile`, `Makefile`): in a fence's
/// info string it is the language (```` ```Dockerfile ````), not a path.
pub fn bare_conventional_name(candidate: &str) -> bool {
    EXTENSIONLESS.contains(&candidate)
}

/// Files that conventionally have no extension: a model names them bare ("the updated
/// `Dockerfile`:"). Capitalised only: `makefile` and `dockerfile` are fence languages.
const EXTENSIONLESS: &[&str] = &[
    "Dockerfile",
    "Containerfile",
    "Makefile",
    "GNUmakefile",
    "Justfile",
    "Procfile",
    "Gemfile",
    "Rakefile",
    "Jenkinsfile",
    "Vagrantfile",
    "Brewfile",
    "Podfile",
    "Pipfile",
    "Caddyfile",
    "CODEOWNERS",
];

/// `./a/b` → `a/b`, `a//b` → `a/b`, backslashes kept (they may be part of a real name).
/// A path's file extension, in lower case (`""` for none): what the checks that depend on a
/// file's language go by.
pub fn extension(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.').map_or("", |(_, e)| e).to_ascii_lowercase()
}

pub fn normalize_relative(path: &str) -> String {
    let mut p = path.trim();
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    let mut out = String::with_capacity(p.len());
    let mut prev_slash = false;
    for c in p.chars() {
        if c == '/' {
            if prev_slash {
                continue;
            }
            prev_slash = true;
        } else {
            prev_slash = false;
        }
        out.push(c);
    }
    out
}

/// Whether a cleaned candidate looks like a path a model would name a file by (without knowing
/// the project): no whitespace, no prose punctuation, and a `.` or `/` in it.
pub fn looks_like_path(candidate: &str) -> bool {
    if candidate.is_empty() || candidate.len() > 250 || candidate == "..." {
        return false;
    }
    if candidate.contains(['(', ')', '[', ']']) {
        // Route folders (`app/[locale]/page.tsx`, `src/routes/(auth)/login.svelte`,
        // `pages/[id].tsx`) are paths; a call or an index (`foo()`, `a[0]`) is not.
        return without_route_groups(candidate).is_some_and(|plain| looks_like_path(&plain));
    }
    if candidate.chars().any(|c| {
        c.is_whitespace()
            || matches!(
                c,
                '(' | ')'
                    | '['
                    | ']'
                    | '{'
                    | '}'
                    | '<'
                    | '>'
                    | ','
                    | ';'
                    | '|'
                    | '='
                    | '!'
                    | '?'
                    | '$'
            )
    }) {
        return false;
    }
    if candidate.starts_with('-') || candidate.ends_with('.') || candidate.ends_with('/') {
        return false;
    }
    let name = candidate.rsplit('/').next().unwrap_or(candidate);
    if EXTENSIONLESS.contains(&name) {
        return true;
    }
    let has_letter = candidate.chars().any(|c| c.is_alphanumeric());
    // A name without a folder needs an extension with a letter: `v2.3.0` and `3.14` are a
    // version and a number.
    if !candidate.contains('/')
        && candidate.rsplit_once('.').is_some_and(|(_, ext)| !ext.chars().any(char::is_alphabetic))
    {
        return false;
    }
    has_letter && (candidate.contains('.') || candidate.contains('/'))
}

/// `candidate` with each path segment's leading route group (`(auth)`, `[id]`, `[[...slug]]`,
/// `[id=integer]`) replaced by a plain name, or `None` when a bracket stands anywhere else (or
/// a group holds no letter). A group never holds `/`, so it cannot hide `..` or a root.
fn without_route_groups(candidate: &str) -> Option<String> {
    let mut out = Vec::new();
    for segment in candidate.split('/') {
        let (open, close) = match segment.chars().next() {
            Some('(') => ("(", ")"),
            Some('[') if segment.starts_with("[[") => ("[[", "]]"),
            Some('[') => ("[", "]"),
            _ => ("", ""),
        };
        let rest = if open.is_empty() {
            segment
        } else {
            let inner_end = segment.find(close)?;
            let inner = &segment[open.len()..inner_end];
            let fine = inner.chars().all(|c| c.is_alphanumeric() || "_-.=".contains(c));
            if !fine || !inner.chars().any(char::is_alphabetic) {
                return None;
            }
            out.push(format!("x{}", &segment[inner_end + close.len()..]));
            continue;
        };
        if rest.contains(['(', ')', '[', ']']) {
            return None;
        }
        out.push(rest.to_string());
    }
    Some(out.join("/"))
}

/// The backticked or bolded path-like words of a prose line (`` `app.py` ``, `**app.py**`).
pub fn prose_mentions(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    // Most prose lines have neither delimiter: skip them at memchr speed.
    if memchr::memchr2(b'`', b'*', line.as_bytes()).is_none() {
        return out;
    }
    for delim in ["`", "**"] {
        let mut rest = line;
        while let Some(start) = rest.find(delim) {
            let after = &rest[start + delim.len()..];
            let Some(end) = after.find(delim) else { break };
            let word =
                normalize_relative(after[..end].trim().trim_end_matches([':', ',', ';', '.']));
            if looks_like_path(&word) && !out.contains(&word) {
                out.push(word);
            }
            rest = &after[end + delim.len()..];
        }
    }
    out
}

/// Why a project-relative path must never be touched, if it must not.
pub fn unsafe_reason(path: &str) -> Option<String> {
    if path.is_empty() {
        return Some("empty path".into());
    }
    // A single leading backslash is part of a (strange) file name here; `\\\\host` and `C:` are not.
    if path.starts_with('/')
        || path.starts_with("\\\\")
        || path.get(1..3) == Some(":\\")
        || path.get(1..3) == Some(":/")
    {
        return Some(format!("{path}: absolute paths are outside the project"));
    }
    let parts: Vec<&str> = path.split(['/', '\\']).collect();
    // `~/.bashrc`, `~alice/notes`: a home folder, as every shell reads it (a folder named `~`
    // in the project is never what a reply means).
    if parts.len() > 1 && parts[0].starts_with('~') {
        return Some(format!("{path}: a path from a home folder (`~`) is outside the project"));
    }
    if parts.contains(&"..") {
        return Some(format!("{path}: `..` leads outside the project"));
    }
    if parts.iter().any(|p| p.eq_ignore_ascii_case(".git")) {
        return Some(format!("{path}: files under .git/ are never edited"));
    }
    if path.chars().any(|c| c == '\0' || c.is_control()) {
        return Some(format!("{path:?}: control characters in the path"));
    }
    None
}

/// A path as it reads: lower case, with the letters of other scripts that look like Latin ones
/// (Cyrillic `а е о р с у х і ј ѕ`, Greek `α ο ρ ι κ ν τ χ`) read as those. Two paths with one
/// skeleton are one on a disk that ignores case, or two that a reader cannot tell apart.
pub fn skeleton(path: &str) -> String {
    path.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'а' | 'α' => 'a',
            'в' | 'β' => 'b',
            'с' | 'ϲ' => 'c',
            'ԁ' => 'd',
            'е' | 'ε' => 'e',
            'һ' | 'н' => 'h',
            'і' | 'ι' | 'ї' => 'i',
            'ј' => 'j',
            'к' | 'κ' => 'k',
            'м' | 'μ' => 'm',
            'п' | 'η' => 'n',
            'о' | 'ο' | 'σ' => 'o',
            'р' | 'ρ' => 'p',
            'ԛ' => 'q',
            'ѕ' => 's',
            'т' | 'τ' => 't',
            'υ' => 'u',
            'ν' => 'v',
            'ԝ' | 'ω' => 'w',
            'х' | 'χ' => 'x',
            'у' | 'γ' => 'y',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleans_decorated_paths() {
        for (line, want) in [
            ("**src/app.py**", "src/app.py"),
            ("`src/app.py`", "src/app.py"),
            ("./src/app.py", "src/app.py"),
            ("# src/app.py:", "src/app.py"),
            ("### `src/app.py`", "src/app.py"),
            ("File: src/kind.rs", "src/kind.rs"),
            ("src/kv/value.rs:", "src/kv/value.rs"),
            ("**File: `lib/x.js`**", "lib/x.js"),
            ("### `tests/test_cache.py` (new)", "tests/test_cache.py"),
            ("**app.py** (new file):", "app.py"),
            ("`src/routes/(auth)/login.svelte`", "src/routes/(auth)/login.svelte"),
        ] {
            assert_eq!(clean_path_line(line), want, "{line}");
        }
    }

    #[test]
    fn judges_path_likeness() {
        assert!(looks_like_path("src/app.py"));
        assert!(looks_like_path("Makefile.am"));
        assert!(!looks_like_path("Here is the code"));
        assert!(!looks_like_path("foo()"));
        assert!(!looks_like_path("..."));
        assert!(!looks_like_path("python"));
        assert!(looks_like_path("Dockerfile"));
        assert!(looks_like_path("deploy/Makefile"));
        assert!(!looks_like_path("Dockerfiles"));
        assert!(!looks_like_path("makefile"));
        assert!(notes_new("### `tests/test_x.py` (new)"));
        assert!(notes_new("**app.py** (new file):"));
        assert!(!notes_new("### `app.py` (updated)"));
        assert!(!looks_like_path(&clean_path_line("`a.py` (see https://x.y/z)")));
        for routed in [
            "app/[locale]/page.tsx",
            "src/routes/(auth)/login.svelte",
            "pages/[id].tsx",
            "app/[[...slug]]/page.js",
            "src/routes/[id=integer]/+page.ts",
        ] {
            assert!(looks_like_path(routed), "{routed}");
        }
        for not_path in ["foo(x.y)", "a[0].b", "[0].x", "print(x)", "(a/b)", "f().x"] {
            assert!(!looks_like_path(not_path), "{not_path}");
        }
    }

    #[test]
    fn finds_prose_mentions() {
        assert_eq!(
            prose_mentions("Here is the new `a.txt` and **b/c.rs**:"),
            vec!["a.txt", "b/c.rs"]
        );
        assert!(prose_mentions("Call `foo()` then `bar`").is_empty());
    }

    #[test]
    fn refuses_unsafe_paths() {
        assert!(unsafe_reason("~/.bashrc").is_some());
        assert!(unsafe_reason("~alice/notes.txt").is_some());
        assert!(unsafe_reason("docs/~draft.md").is_none());
        assert!(unsafe_reason("/etc/passwd").is_some());
        assert!(unsafe_reason("../x").is_some());
        assert!(unsafe_reason("a/../../x").is_some());
        assert!(unsafe_reason(".git/config").is_some());
        assert!(unsafe_reason("sub/.git/HEAD").is_some());
        assert!(unsafe_reason("C:\\x").is_some());
        assert!(unsafe_reason("src/app.py").is_none());
        assert!(unsafe_reason(".github/workflows/ci.yml").is_none());
    }
}
