//! Where multi-line string literals are: which lines of a text begin inside one, and the line
//! that opened it. Inside such a string a line's leading whitespace is its content (the program
//! prints it), not the code's indentation, so re-indenting a hunk must leave it alone.
//!
//! One scanner for many languages, by their common forms: triple quotes (Python, Kotlin,
//! Swift, Java text blocks) and backticks (JavaScript template literals, Go raw strings) open a
//! string that may span lines; one-line strings (`'…'`, `"…"`) and comments (`#` before a
//! space, `//`, `/* … */`) are skipped so that the quotes in them do not count. It errs towards
//! missing a string (a line it does not understand is code to it), which leaves indentation as
//! the rest of the engine handles it.
//!
//! Not for: tokenising a language, deciding indentation (`core::indent`, `core::apply`).

/// What the scanner is inside at a line's end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum State {
    #[default]
    Code,
    /// A `/* … */` comment.
    Comment,
    /// A string closed by `close`, opened on line `opened`; `raw` when a backslash escapes
    /// nothing in it (Rust's `r#"…"#`).
    Str { close: &'static str, opened: usize, raw: bool },
}

/// Scans lines in order; [`Strings::line`] says, for each, where the string it begins inside
/// was opened.
#[derive(Debug, Clone, Default)]
pub struct Strings {
    state: State,
    line: usize,
}

/// The tokens that open a string spanning lines.
const OPENERS: [&str; 3] = ["\"\"\"", "'''", "`"];

/// Whether a line holds a token that can open a string spanning lines (a cheap first look).
pub fn may_open(line: &str) -> bool {
    // Most lines hold no quote at all: one pass over the bytes says so before any search.
    line.bytes().any(|b| matches!(b, b'"' | b'\'' | b'`'))
        && OPENERS.iter().any(|o| line.contains(o))
}

/// What the scanner says of every line of one text, worked out once, on first need: the
/// checks that ask it of a hunk's place would each scan the file from its start, and the review
/// places hundreds of hunks in one version of a file. Each answer is the one a fresh
/// [`Strings`] (or [`may_open`] over the lines) gives; the cache must only ever be asked about
/// the lines it was first asked about.
#[derive(Debug, Default)]
pub struct Starts {
    /// The first line that [`may_open`] (none: the text opens no string).
    first_opener: std::sync::OnceLock<Option<usize>>,
    /// [`Strings::line`] of every line, in order.
    opened: std::sync::OnceLock<Vec<Option<usize>>>,
}

impl Starts {
    /// Whether any of the first `k` lines may open a string spanning lines.
    pub fn may_open_before(&self, lines: &[String], k: usize) -> bool {
        let first = self.first_opener.get_or_init(|| lines.iter().position(|l| may_open(l)));
        first.is_some_and(|f| f < k)
    }

    /// For each line, where the string it begins inside was opened ([`Strings::line`] over the
    /// whole text).
    pub fn opened(&self, lines: &[String]) -> &[Option<usize>] {
        self.opened.get_or_init(|| {
            let mut strings = Strings::new();
            lines.iter().map(|l| strings.line(l)).collect()
        })
    }
}

impl Strings {
    pub fn new() -> Strings {
        Strings::default()
    }

    /// Take the next line: `Some(k)` when it begins inside a string opened on line `k` (counted
    /// from 0 over the lines taken), `None` when it begins in code or a comment.
    pub fn line(&mut self, text: &str) -> Option<usize> {
        self.scan(text, |_| {})
    }

    /// [`Strings::line`], handing each byte of code (outside strings and comments) to `code`.
    pub fn scan(&mut self, text: &str, mut code: impl FnMut(u8)) -> Option<usize> {
        let inside = match self.state {
            State::Str { opened, .. } => Some(opened),
            _ => None,
        };
        let b = text.as_bytes();
        let mut i = 0;
        // The last byte of code before `i` on this line that is not a space: whether a `/`
        // opens a regular expression (`= /[`]/`) or divides (`total / 2`).
        let mut before: Option<u8> = None;
        while i < b.len() {
            match self.state {
                State::Str { close, raw, .. } => match find_close(b, i, close, raw) {
                    Some(end) => {
                        self.state = State::Code;
                        i = end;
                    }
                    None => break,
                },
                State::Comment => match b[i..].windows(2).position(|w| w == b"*/") {
                    Some(at) => {
                        self.state = State::Code;
                        i += at + 2;
                    }
                    None => break,
                },
                // Most bytes open nothing: only these start a token looked for below (a raw
                // string's `r`/`b`, quotes, backticks, `/`, `#`). Skipping the rest at once is
                // most of the scan's speed.
                State::Code if !matches!(b[i], b'r' | b'b' | b'"' | b'\'' | b'`' | b'/' | b'#') => {
                    if !b[i].is_ascii_whitespace() {
                        before = Some(b[i]);
                    }
                    code(b[i]);
                    i += 1;
                }
                State::Code => {
                    // Bytes, not `str` slices: `i` may stand inside a character (`ö` in a
                    // name), and every token looked for is ASCII.
                    let rest = &b[i..];
                    if let Some((len, close)) = raw_open(b, i) {
                        self.state = State::Str { close, opened: self.line, raw: true };
                        i += len;
                    } else if let Some(open) =
                        OPENERS.iter().find(|o| rest.starts_with(o.as_bytes()))
                    {
                        self.state = State::Str { close: open, opened: self.line, raw: false };
                        i += open.len();
                    } else if rest.starts_with(b"/*") {
                        self.state = State::Comment;
                        i += 2;
                    } else if rest.starts_with(b"//")
                        || (b[i] == b'#' && b.get(i + 1).is_none_or(|c| *c == b' '))
                    {
                        break;
                    } else if b[i] == b'"' || b[i] == b'\'' {
                        // A one-line string: to its closing quote, or the line's end.
                        before = Some(b[i]);
                        i = find_close(b, i + 1, if b[i] == b'"' { "\"" } else { "'" }, false)
                            .unwrap_or(b.len());
                    } else if let Some(end) = regex_end(b, i, before) {
                        // A regular expression literal: a quote or backtick in it is a
                        // character it matches, not a string.
                        before = Some(b'/');
                        i = end;
                    } else {
                        if !b[i].is_ascii_whitespace() {
                            before = Some(b[i]);
                        }
                        code(b[i]);
                        i += 1;
                    }
                }
            }
        }
        self.line += 1;
        inside
    }
}

/// Where a regular expression literal that opens at `b[i]` ends (just past its closing `/`),
/// when a `/` stands where a value is expected (at the line's start or after an operator or an
/// opening bracket: `= /x/`, `(/x/`, `return /x/`) and closes on the same line, outside a
/// character class (`/[/]/`). A `/` after a value (`a / b`) divides.
fn regex_end(b: &[u8], i: usize, before: Option<u8>) -> Option<usize> {
    if b[i] != b'/' || matches!(b.get(i + 1), Some(b'/' | b'*')) {
        return None;
    }
    let value_expected = match before {
        None => true,
        Some(c) => b"(,=:[!&|?{};+-*%<>~^".contains(&c) || ends_with_word(&b[..i], b"return"),
    };
    if !value_expected {
        return None;
    }
    let mut class = false;
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 1,
            b'[' => class = true,
            b']' => class = false,
            b'/' if !class => return (j > i + 1).then_some(j + 1),
            _ => {}
        }
        j += 1;
    }
    None
}

/// Whether `b`, spaces trimmed at its end, ends with the word `word`.
fn ends_with_word(b: &[u8], word: &[u8]) -> bool {
    let t = b.trim_ascii_end();
    t.ends_with(word)
        && t.len()
            .checked_sub(word.len() + 1)
            .is_none_or(|k| !t[k].is_ascii_alphanumeric() && t[k] != b'_')
}

/// Whether `lines` end inside a string that spans lines (a docstring never closed): a text
/// cut off in the middle of one.
pub fn ends_inside_a_string<'a>(lines: impl IntoIterator<Item = &'a str>) -> bool {
    let mut strings = Strings::new();
    for line in lines {
        strings.line(line);
    }
    matches!(strings.state, State::Str { .. })
}

/// The net count of `{}`, `()` and `[]` in the code of `lines`, strings and comments left
/// out: a docstring's "[0.0, 1.0)" says nothing about the code's blocks. It errs as the scanner
/// does (a Rust lifetime reads as a quote), so it is a second opinion beside the raw count.
pub fn code_brackets<'a>(lines: impl IntoIterator<Item = &'a str>) -> [i64; 3] {
    let mut net = [0i64; 3];
    let mut strings = Strings::new();
    for line in lines {
        strings.scan(line, |c| match c {
            b'{' => net[0] += 1,
            b'}' => net[0] -= 1,
            b'(' => net[1] += 1,
            b')' => net[1] -= 1,
            b'[' => net[2] += 1,
            b']' => net[2] -= 1,
            _ => {}
        });
    }
    net
}

/// A Rust raw string opening at `b[i]` (`r#"`, `br##"`: one to three `#`), which may span
/// lines and hold quotes and backticks: its length and its closer.
fn raw_open(b: &[u8], i: usize) -> Option<(usize, &'static str)> {
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let start = if b[i] == b'b' && b.get(i + 1) == Some(&b'r') { i + 1 } else { i };
    if b[start] != b'r' || (i > 0 && word(b[i - 1])) {
        return None;
    }
    let hashes = b[start + 1..].iter().take_while(|c| **c == b'#').count();
    let close = match hashes {
        1 => "\"#",
        2 => "\"##",
        3 => "\"###",
        _ => return None,
    };
    (b.get(start + 1 + hashes) == Some(&b'"')).then_some((start + 2 + hashes - i, close))
}

/// The index after the first `close` at or after `from` that no backslash escapes (any, when
/// `raw`).
fn find_close(b: &[u8], from: usize, close: &str, raw: bool) -> Option<usize> {
    let c = close.as_bytes();
    let mut i = from;
    while i < b.len() {
        if b[i] == b'\\' && !raw {
            i += 2;
            continue;
        }
        if b[i..].starts_with(c) {
            return Some(i + c.len());
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(text: &str) -> Vec<Option<usize>> {
        let mut s = Strings::new();
        text.lines().map(|l| s.line(l)).collect()
    }

    #[test]
    fn names_with_letters_beyond_ascii_are_code() {
        let text = "def löse(x):\n    s = \"\"\"ö\\ü\n  ä\n\"\"\"\n    return x # ö\n";
        assert_eq!(scan(text), [None, None, Some(1), Some(1), None]);
    }

    #[test]
    fn python_triple_quotes_span_lines() {
        let text = "def f():\n    return \"\"\"\\\nStore at %s\n  keys\n\"\"\" % x\n    y = 1\n";
        assert_eq!(scan(text), [None, None, Some(1), Some(1), Some(1), None]);
    }

    #[test]
    fn a_docstring_opened_and_closed_on_one_line_opens_nothing() {
        let text = "def f():\n    \"\"\"One line.\"\"\"\n    return '''x'''\n    y\n";
        assert_eq!(scan(text), [None; 4]);
    }

    #[test]
    fn template_literals_span_lines_and_quotes_in_comments_and_strings_do_not_count() {
        let text = "// don't `start`\nconst a = \"`\";\nconsole.log(`config:\n  dir: ${d}`);\n/* ``` \n*/ x\n# it's\n";
        assert_eq!(scan(text), [None, None, None, Some(2), None, None, None]);
    }

    #[test]
    fn an_escaped_closer_does_not_close() {
        let text = "s = '''a\\'''\nb'''\nc\n";
        assert_eq!(scan(text), [None, Some(0), None]);
    }

    #[test]
    fn a_rust_lifetime_or_a_hash_attribute_opens_nothing_that_spans() {
        let mut s = Strings::new();
        for l in ["#[derive(Debug)]", "fn f<'a>(x: &'a str) -> &'a str {", "    x", "}", "y"] {
            assert_eq!(s.line(l), None, "{l}");
        }
    }

    #[test]
    fn rust_raw_strings_span_lines_and_hold_quotes_and_backticks() {
        let lines = [
            "let doc = r#\"usage: `tool` \"x\"",
            "  more \\",
            "\"#;",
            "let s = br##\"a\"#b\"##; let t = 1;",
            "let var#x = 2;",
            "code",
        ];
        assert_eq!(scan(&lines.join("\n")), [None, Some(0), Some(0), None, None, None]);
    }

    #[test]
    fn a_backtick_or_quote_in_a_regular_expression_opens_nothing() {
        let text = "var TOKEN = /^[a-z`]+$/\nif (/'/.test(s)) x = `a\nb`\nreturn /[/`]/g\ny\n";
        assert_eq!(scan(text), [None, None, Some(1), None, None]);
    }

    #[test]
    fn a_division_is_no_regular_expression() {
        // Read as a regular expression, `/ 2; s = \`` would hide the backtick that opens.
        let text = "n = total / 2; s = `a\nb` / 3\nc\n";
        assert_eq!(scan(text), [None, Some(0), None]);
        assert_eq!(scan("p = root / \"sub\" / '`'\nq\n"), [None, None]);
    }

    #[test]
    fn brackets_in_code_only() {
        let doc = ["def f():", "    \"\"\"In [0.0, 1.0).", "    \"\"\"", "    return g(x)  # (see"];
        assert_eq!(code_brackets(doc), [0, 0, 0]);
        assert_eq!(code_brackets(["if (a) {", "  s = \"}\";"]), [1, 0, 0]);
        assert_eq!(code_brackets(["x = [1, 2", "/* ] */"]), [0, 0, 1]);
        assert!(ends_inside_a_string(["def f():", "    \"\"\"Cut off", "    here"]));
        assert!(!ends_inside_a_string(["def f():", "    \"\"\"Doc.\"\"\"", "    return 1"]));
    }
}
