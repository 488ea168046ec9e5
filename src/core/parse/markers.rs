//! Recognising the marker lines of each format: fences, SEARCH/REPLACE markers, diff headers.

/// A fence line: ```` ``` ```` or `~~~` (3 or more), at most 3 spaces of indentation, and its
/// info string; or aider's `<source lang>` / `</source>` pair, which works the same way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenceLine {
    pub ch: char,
    pub len: usize,
    pub info: String,
    /// Only closes a fence (`</source>`): never opens one.
    pub closer: bool,
    /// The spaces before it (at most 3): as much is taken off the start of each line of the
    /// fence's body (CommonMark), so a listing in a list item ("1. Here is `a.py`:" and the
    /// fence indented under it) is the file's text, not the file three columns deeper.
    pub indent: usize,
}

/// The character standing for `<source>` fences in [`FenceLine::ch`].
const SOURCE_TAG: char = '<';

pub fn fence_line(line: &str) -> Option<FenceLine> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    if rest.starts_with('<') {
        return source_tag(rest.trim_end()).map(|f| FenceLine { indent, ..f });
    }
    let ch = rest.chars().next()?;
    if ch != '`' && ch != '~' {
        return None;
    }
    let len = rest.chars().take_while(|c| *c == ch).count();
    if len < 3 {
        return None;
    }
    let info = rest[len..].trim();
    if ch == '`' && info.contains('`') {
        return None;
    }
    Some(FenceLine { ch, len, info: info.to_string(), closer: false, indent })
}

/// `<source>`, `<source python>`, `<source>python` (aider's own fence with its language after
/// it, as aider's prompt writes it) or `</source>` alone on a line.
fn source_tag(tag: &str) -> Option<FenceLine> {
    let fence = |info: &str, closer| FenceLine {
        ch: SOURCE_TAG,
        len: 1,
        info: info.to_string(),
        closer,
        indent: 0,
    };
    if tag == "</source>" {
        return Some(fence("", true));
    }
    if let Some(language) = tag.strip_prefix("<source>")
        && !language.is_empty()
    {
        let word = |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '#' | '-' | '_' | '.');
        return language.chars().all(word).then(|| fence(language, false));
    }
    let inner = tag.strip_prefix("<source")?.strip_suffix('>')?;
    if !(inner.is_empty() || inner.starts_with(' ')) || inner.contains(['<', '>']) {
        return None;
    }
    Some(fence(inner.trim(), false))
}

impl FenceLine {
    /// Whether this line closes a fence opened by `open`.
    pub fn closes(&self, open: &FenceLine) -> bool {
        self.ch == open.ch
            && self.len >= open.len
            && self.info.is_empty()
            && (self.ch != SOURCE_TAG || self.closer)
    }

    /// Whether this line can open a fence.
    pub fn opens(&self) -> bool {
        !self.closer
    }

    /// A path named in the info string: ```` ```src/app.py ````, ```` ```python src/app.py ````,
    /// ```` ```python title="src/app.py" ````, ```` ```rust:src/lib.rs ````.
    pub fn info_path(&self) -> Option<String> {
        let info = self.info.trim();
        if info.is_empty() {
            return None;
        }
        for key in ["title=", "file=", "filename=", "path="] {
            if let Some(pos) = info.find(key) {
                let v = info[pos + key.len()..].trim_start_matches(['"', '\'']);
                let end = v.find(['"', '\'', ' ']).unwrap_or(v.len());
                let cand = super::super::paths::normalize_relative(&v[..end]);
                if super::super::paths::looks_like_path(&cand) {
                    return Some(cand);
                }
            }
        }
        for word in info.split([' ', ':', ',']) {
            let cand =
                super::super::paths::normalize_relative(word.trim_matches(['"', '\'', '{', '}']));
            // A bare `Dockerfile` or `Makefile` tag is the block's language.
            if super::super::paths::looks_like_path(&cand)
                && !super::super::paths::bare_conventional_name(&cand)
            {
                return Some(cand);
            }
        }
        None
    }

    /// The language word of the info string (`python` in ```` ```python title=x ````).
    pub fn language(&self) -> &str {
        self.info.split([' ', ':', ',', '{']).next().unwrap_or("")
    }
}

/// Which SEARCH/REPLACE marker a line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SrMarker {
    Head,
    Divider,
    Tail,
}

pub fn sr_marker(line: &str) -> Option<SrMarker> {
    let t = line.trim();
    let run = |c: char| t.chars().take_while(|x| *x == c).count();
    let (c, n) = match t.chars().next()? {
        '<' => ('<', run('<')),
        '=' => ('=', run('=')),
        '>' => ('>', run('>')),
        _ => return None,
    };
    if !(5..=9).contains(&n) {
        return None;
    }
    let word = t[n..].trim();
    match c {
        '<' if matches!(word, "SEARCH" | "SEARCH>" | "ORIGINAL" | "ORIGINAL>") => {
            Some(SrMarker::Head)
        }
        '=' if word.is_empty() => Some(SrMarker::Divider),
        '>' if matches!(word, "REPLACE" | "UPDATED") => Some(SrMarker::Tail),
        _ => None,
    }
}

/// The path of a `--- X` or `+++ X` header line, without a trailing timestamp.
pub fn header_path(line: &str, prefix: &str) -> Option<String> {
    let rest = line.strip_prefix(prefix)?;
    let rest = rest.split('\t').next().unwrap_or(rest).trim_end();
    let rest = unquoted(rest);
    if rest.is_empty() {
        return None;
    }
    Some(rest)
}

/// A path as git writes it: in double quotes with C escapes when it has bytes beyond ASCII or
/// odd characters (`"docs/\303\234bersicht.md"` is `docs/Übersicht.md`), else as it is. A
/// quoted path whose escapes are not UTF-8 is kept with its quotes trimmed.
pub fn unquoted(path: &str) -> String {
    let Some(inner) = path.strip_prefix('"').and_then(|p| p.strip_suffix('"')) else {
        return path.trim_matches('"').to_string();
    };
    let b = inner.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 == b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let octal = &b[i + 1..(i + 4).min(b.len())];
        if octal.len() == 3 && octal.iter().all(|c| (b'0'..=b'7').contains(c)) {
            out.push(octal.iter().fold(0u8, |n, c| n.wrapping_mul(8) + (c - b'0')));
            i += 4;
            continue;
        }
        out.push(match b[i + 1] {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            c => c,
        });
        i += 2;
    }
    String::from_utf8(out).unwrap_or_else(|_| inner.to_string())
}

/// The old-start hint of an `@@ -l,n +l,n @@` header, if it has numbers.
pub fn hunk_header_hint(line: &str) -> Option<usize> {
    let rest = line.strip_prefix("@@")?.trim_start();
    let rest = rest.strip_prefix('-')?;
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

/// The section heading an `@@ -a,b +c,d @@ heading` header ends with, if any.
pub fn hunk_header_section(line: &str) -> Option<String> {
    let rest = line.strip_prefix("@@")?;
    let (_, heading) = rest.split_once("@@")?;
    let heading = heading.trim();
    (heading.chars().filter(|c| c.is_alphanumeric()).count() >= 3).then(|| heading.to_string())
}

/// The old and new line counts of an `@@ -a,b +c,d @@` header (a count left out is 1), when
/// the header has both ranges.
pub fn hunk_header_counts(line: &str) -> Option<(usize, usize)> {
    let rest = line.strip_prefix("@@")?.trim_start();
    let (old, rest) = rest.strip_prefix('-')?.split_once(' ')?;
    let new = rest.trim_start().strip_prefix('+')?.split(' ').next()?;
    let count = |range: &str| -> Option<usize> {
        let mut parts = range.splitn(2, ',');
        parts.next()?.parse::<usize>().ok()?;
        parts.next().map_or(Some(1), |n| n.parse().ok())
    };
    Some((count(old)?, count(new)?))
}

pub fn is_hunk_header(line: &str) -> bool {
    line.starts_with("@@")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences() {
        let f = fence_line("```python title=\"src/a.py\"").unwrap();
        assert_eq!(f.info_path().as_deref(), Some("src/a.py"));
        assert_eq!(f.language(), "python");
        assert_eq!(fence_line("````").unwrap().len, 4);
        assert!(fence_line("    ```").is_none());
        assert_eq!(fence_line("```src/x.rs").unwrap().info_path().as_deref(), Some("src/x.rs"));
        assert_eq!(fence_line("```python").unwrap().info_path(), None);
        let open = fence_line("````").unwrap();
        assert!(!fence_line("```").unwrap().closes(&open));
        assert!(fence_line("`````").unwrap().closes(&open));
        let source = fence_line("<source python>").unwrap();
        assert_eq!(source.language(), "python");
        assert!(fence_line("</source>").unwrap().closes(&source));
        assert!(!fence_line("<source>").unwrap().closes(&source));
        assert!(!fence_line("</source>").unwrap().opens());
        assert!(fence_line("<sourced>").is_none());
        let aider = fence_line("<source>python").unwrap();
        assert_eq!(aider.language(), "python");
        assert!(aider.opens() && fence_line("</source>").unwrap().closes(&aider));
        assert_eq!(fence_line("<source>c++").unwrap().language(), "c++");
        assert!(fence_line("<source>see below").is_none());
        assert!(fence_line("<source lang='x'> more").is_none());
    }

    #[test]
    fn sr_markers() {
        assert_eq!(sr_marker("<<<<<<< SEARCH"), Some(SrMarker::Head));
        assert_eq!(sr_marker("<<<<< ORIGINAL"), Some(SrMarker::Head));
        assert_eq!(sr_marker("========="), Some(SrMarker::Divider));
        assert_eq!(sr_marker(">>>>>>>>> REPLACE"), Some(SrMarker::Tail));
        assert_eq!(sr_marker(">>>>>>> UPDATED "), Some(SrMarker::Tail));
        assert_eq!(sr_marker("===="), None);
        assert_eq!(sr_marker("=========== x"), None);
        assert_eq!(sr_marker("<<<<<<< HEAD"), None);
    }

    #[test]
    fn headers() {
        assert_eq!(header_path("--- a/x.py\t2020-01-01", "--- ").as_deref(), Some("a/x.py"));
        assert_eq!(hunk_header_hint("@@ -12,7 +12,8 @@ def f():"), Some(12));
        assert_eq!(hunk_header_hint("@@ ... @@"), None);
        assert_eq!(hunk_header_counts("@@ -12,7 +12,8 @@ def f():"), Some((7, 8)));
        assert_eq!(hunk_header_counts("@@ -3 +3,0 @@"), Some((1, 0)));
        assert_eq!(hunk_header_counts("@@ -3,x +3 @@"), None);
        assert_eq!(hunk_header_counts("@@ ... @@"), None);
    }
}
