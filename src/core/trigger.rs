//! Comment triggers for watch mode: a saved file whose comment ends (or starts) with `AI!` asks
//! for a change, `AI?` asks a question, and other comments marked `AI` add to the instruction.
//!
//! A comment is *AI-marked* when its text, without the comment syntax, starts or ends with `ai`,
//! `ai!` or `ai?` as a word (case-insensitive): `# AI! add a docstring`, `// fix this ai!`,
//! `/* make it faster AI! */`, `<!-- AI? why is this here -->`, `-- AI! use a join`. Not marked:
//! `MAIL!` (no word boundary), `x = "AI!"` (a string, not a comment), `# the AI! is here` (in the
//! middle). The comment's text with the marker stripped is its *instruction*.
//!
//! Which comment syntaxes count depends on the file's extension, so that code which merely looks
//! like a comment (`#include` in C, `i--`, `a // b` in Python, a Markdown heading) is not taken for
//! one:
//!
//! | files | comments |
//! | --- | --- |
//! | Python, Ruby, shell, Perl, R, Julia, Nim, Elixir, Crystal, Tcl, Nix, YAML, TOML, CMake, `Makefile`, `Dockerfile`, ... | `#` |
//! | C, C++, Objective-C, C#, Java, Kotlin, Swift, Go, Rust, JavaScript, TypeScript, Scala, Dart, Zig, Groovy, SCSS, Less, protobuf, GLSL, JSONC, ... | `//`, `/* */` |
//! | PHP | `//`, `#`, `/* */` |
//! | CSS | `/* */` |
//! | Vue, Svelte | `//`, `/* */`, `<!-- -->` |
//! | HTML, XML, SVG, Markdown | `<!-- -->` |
//! | SQL | `--`, `/* */` |
//! | Lua, Haskell, Elm, PureScript, Ada, VHDL, AppleScript | `--` |
//! | Lisp, Scheme, Clojure, Racket, Fennel, assembly, INI | `;` |
//! | TeX, BibTeX, Erlang | `%` |
//! | anything else, and files without an extension | `#`, `//`, `--`, `/* */`, `<!-- -->` |
//!
//! A line comment marker counts at the start of the line or after whitespace, never inside a
//! string literal closed on the same line; it runs to the end of the line. A block comment
//! (`/* */`, `<!-- -->`) counts when it opens and closes on the same line (a comment spanning
//! lines is not looked into: removing one of its lines could break it). When a line holds
//! several comment starts (`#include <x> // AI! fix`), the first whose text is AI-marked is the
//! one.
//!
//! A [`Trigger`] is an `AI!` or `AI?` comment; [`scan`] turns a file's new triggers into
//! [`Request`]s, each carrying the file's other `AI` comments as context. Identity is the path and
//! the line's text ([`TriggerId`]): the caller keeps the ids it handled, so saving a file again
//! does not start the same request twice, and editing a trigger's text makes it a new one.
//! [`saved`] does the same for watch mode in one scan, keeping the set of handled ids itself.
//! [`remove_trigger`] takes a trigger's comment out of the file once the edit answering it is
//! accepted.
//!
//! What this module does not do: read files, watch them, queue requests, or talk to a model (the
//! prompt text is `core::prompt`'s).

use std::collections::BTreeSet;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::core::text::TextFile;

/// What a trigger asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `AI!`: change the file as the comments say.
    Change,
    /// `AI?`: answer a question in prose, without edits.
    Question,
}

/// How a comment is marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mark {
    /// `AI!` or `AI?`: a trigger.
    Trigger(Kind),
    /// `AI` alone: an instruction that goes with the file's triggers.
    Note,
}

/// An AI-marked comment.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Comment {
    /// 0-based line number.
    pub line: usize,
    /// The whole line as in the file, without its line ending.
    pub text: String,
    pub mark: Mark,
    /// The comment's text without the comment syntax and the marker, trimmed.
    pub instruction: String,
    /// Byte range of the whole comment in `text`, its syntax included (`# AI! fix`).
    pub span: Range<usize>,
}

/// An `AI!` or `AI?` comment.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Trigger {
    /// 0-based line number.
    pub line: usize,
    /// The whole line as in the file, without its line ending.
    pub text: String,
    pub kind: Kind,
    /// The comment's text without the comment syntax and the marker, trimmed (may be empty:
    /// `# AI!` alone leaves the instruction to the file's other `AI` comments).
    pub instruction: String,
    /// Byte range of the whole comment in `text`, its syntax included.
    pub span: Range<usize>,
}

/// A trigger's identity across saves: the file and the line's text.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TriggerId {
    pub path: String,
    pub text: String,
}

impl Trigger {
    pub fn id(&self, path: &str) -> TriggerId {
        TriggerId { path: path.to_string(), text: self.text.clone() }
    }
}

/// A comment marked `AI` (no `!` or `?`) that goes with a request as context.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Note {
    /// 0-based line number.
    pub line: usize,
    pub instruction: String,
}

/// What one save of a file asks for: its new triggers of one kind, with the file's `AI` notes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub path: String,
    pub kind: Kind,
    /// The new triggers this request answers, in file order (at least one).
    pub triggers: Vec<Trigger>,
    /// The file's comments marked `AI` alone, in file order.
    pub notes: Vec<Note>,
}

impl Request {
    /// The ids to mark as handled once this request is started (or queued).
    pub fn ids(&self) -> Vec<TriggerId> {
        self.triggers.iter().map(|t| t.id(&self.path)).collect()
    }

    /// The instruction: every comment of the request (its triggers and notes) in file order, one
    /// a line, as `line N: text` with 1-based line numbers; a comment without text reads
    /// `(no text)`.
    pub fn instructions(&self) -> String {
        let mut all: Vec<(usize, &str)> = self
            .triggers
            .iter()
            .map(|t| (t.line, t.instruction.as_str()))
            .chain(self.notes.iter().map(|n| (n.line, n.instruction.as_str())))
            .collect();
        all.sort_by_key(|(line, _)| *line);
        let mut out = String::new();
        for (line, text) in all {
            let text = if text.is_empty() { "(no text)" } else { text };
            out.push_str(&format!("line {}: {text}\n", line + 1));
        }
        out
    }
}

/// Every AI-marked comment of a file, in file order. `path` picks the comment syntaxes (see the
/// module doc); line numbers are 0-based, as in [`TextFile::lines`].
pub fn find_comments(path: &str, text: &str) -> Vec<Comment> {
    let syntax = Syntax::for_path(path);
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    // In a programming language's file, a line inside a string spanning lines (a docstring, a
    // help text, a template literal) is the string's content, whatever it reads like: no
    // comment there asks for anything, and taking the "comment" out would change the string.
    let mut strings = syntax.has_code_strings().then(crate::core::strings::Strings::new);
    for (line, raw) in lines(body).enumerate() {
        if strings.as_mut().is_some_and(|s| s.line(raw).is_some()) {
            continue;
        }
        if let Some(found) = marked_comment(raw, syntax) {
            out.push(Comment {
                line,
                text: raw.to_string(),
                mark: found.mark,
                instruction: found.instruction,
                span: found.span,
            });
        }
    }
    out
}

/// Every `AI!` and `AI?` comment of a file, in file order.
pub fn find_triggers(path: &str, text: &str) -> Vec<Trigger> {
    find_comments(path, text)
        .into_iter()
        .filter_map(|c| match c.mark {
            Mark::Trigger(kind) => Some(Trigger {
                line: c.line,
                text: c.text,
                kind,
                instruction: c.instruction,
                span: c.span,
            }),
            Mark::Note => None,
        })
        .collect()
}

/// The ids of every `AI!` and `AI?` comment in a file. Watch mode takes those already in the
/// project when it starts as asked about: only a save that brings a new one asks.
pub fn present(path: &str, text: &str) -> Vec<TriggerId> {
    if !may_hold_trigger(text) {
        return Vec::new();
    }
    find_triggers(path, text).iter().map(|t| t.id(path)).collect()
}

/// Whether `ai!` or `ai?` (any case) occurs in `text`: every trigger holds one, and this byte
/// scan is much cheaper than looking for comments in each of a large project's files.
fn may_hold_trigger(text: &str) -> bool {
    text.as_bytes().windows(3).any(|w| {
        w[0].eq_ignore_ascii_case(&b'a')
            && w[1].eq_ignore_ascii_case(&b'i')
            && matches!(w[2], b'!' | b'?')
    })
}

/// The requests a saved file asks for: its triggers whose ids are not in `handled`, grouped by
/// kind (a change request first, then a question), each with every `AI` note of the file.
/// Empty when nothing is new.
pub fn scan(path: &str, text: &str, handled: &BTreeSet<TriggerId>) -> Vec<Request> {
    requests_from(path, &find_comments(path, text), handled)
}

/// A save of a file in watch mode: the requests its new triggers make, from one scan. `handled`
/// keeps the triggers already asked about: this file's ones that left it are dropped (put back,
/// they ask again), and the new ones are added.
pub fn saved(path: &str, text: &str, handled: &mut BTreeSet<TriggerId>) -> Vec<Request> {
    let comments = find_comments(path, text);
    handled.retain(|id| {
        id.path != path
            || comments.iter().any(|c| matches!(c.mark, Mark::Trigger(_)) && c.text == id.text)
    });
    let requests = requests_from(path, &comments, handled);
    for r in &requests {
        handled.extend(r.ids());
    }
    requests
}

fn requests_from(path: &str, comments: &[Comment], handled: &BTreeSet<TriggerId>) -> Vec<Request> {
    let notes: Vec<Note> = comments
        .iter()
        .filter(|c| c.mark == Mark::Note)
        .map(|c| Note { line: c.line, instruction: c.instruction.clone() })
        .collect();
    let mut requests = Vec::new();
    for kind in [Kind::Change, Kind::Question] {
        let triggers: Vec<Trigger> = comments
            .iter()
            .filter(|c| c.mark == Mark::Trigger(kind))
            .map(|c| Trigger {
                line: c.line,
                text: c.text.clone(),
                kind,
                instruction: c.instruction.clone(),
                span: c.span.clone(),
            })
            .filter(|t| !handled.contains(&t.id(path)))
            .collect();
        if !triggers.is_empty() {
            requests.push(Request { path: path.to_string(), kind, triggers, notes: notes.clone() });
        }
    }
    requests
}

/// The file without the trigger's comment: the line whose text is `trigger.text` nearest to
/// `trigger.line` (the earlier one on a tie) loses the comment, and the whitespace that separated
/// it from code; a line that held only the comment is removed with its line ending. Everything
/// else is kept byte for byte: other lines, their endings, the BOM, the final-newline state.
/// `None` when no line has that text any more (the accepted edit already took it out).
pub fn remove_trigger(text: &str, trigger: &Trigger) -> Option<String> {
    let mut file = TextFile::parse(text);
    let at = file
        .lines
        .iter()
        .enumerate()
        .filter(|(_, l)| **l == trigger.text)
        .map(|(i, _)| i)
        .min_by_key(|i| (i.abs_diff(trigger.line), *i))?;
    let line = &file.lines[at];
    let span = trigger.span.clone();
    if span.end > line.len()
        || !line.is_char_boundary(span.start)
        || !line.is_char_boundary(span.end)
    {
        return None;
    }
    let before = &line[..span.start];
    let after = &line[span.end..];
    if before.trim().is_empty() && after.trim().is_empty() {
        // The line goes with its ending. A file without a final newline stays without one,
        // but for a blank line that becomes the last: without its ending it would be no line
        // at all, and it is the user's.
        let kept_eol = at.checked_sub(1).map(|above| file.eols[above]);
        let was_last = at + 1 == file.lines.len();
        file.splice(at, at + 1, Vec::new());
        let blank_last = file.lines.last().is_some_and(|l| l.is_empty());
        if let (true, true, Some(eol), Some(last)) =
            (was_last, blank_last, kept_eol, file.eols.last_mut())
        {
            *last = eol;
        }
    } else if after.trim().is_empty() {
        file.lines[at] = before.trim_end().to_string();
    } else {
        file.lines[at] = format!("{before}{}", after.trim_start());
    }
    Some(file.render())
}

/// The lines of a text, split as [`TextFile::parse`] splits them (at `\n`, one `\r` dropped, no
/// empty last line after a final newline).
fn lines(body: &str) -> impl Iterator<Item = &str> {
    let trimmed = body.strip_suffix('\n').unwrap_or(body);
    let empty = body.is_empty();
    trimmed.split('\n').filter(move |_| !empty).map(|l| l.strip_suffix('\r').unwrap_or(l))
}

/// The comment syntaxes that count in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Syntax {
    hash: bool,
    slashes: bool,
    dashes: bool,
    semicolon: bool,
    percent: bool,
    c_block: bool,
    html_block: bool,
}

impl Syntax {
    const ANY: Syntax = Syntax {
        hash: true,
        slashes: true,
        dashes: true,
        semicolon: false,
        percent: false,
        c_block: true,
        html_block: true,
    };
    const NONE: Syntax = Syntax {
        hash: false,
        slashes: false,
        dashes: false,
        semicolon: false,
        percent: false,
        c_block: false,
        html_block: false,
    };

    /// Whether the file is a programming language's (its comments known, not the catch-all),
    /// whose strings may span lines.
    fn has_code_strings(self) -> bool {
        (self.hash || self.slashes) && !self.dashes
    }

    fn for_path(path: &str) -> Syntax {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path).to_ascii_lowercase();
        const HASH_NAMES: &[&str] = &[
            "makefile",
            "gnumakefile",
            "dockerfile",
            "containerfile",
            "rakefile",
            "gemfile",
            "vagrantfile",
            "justfile",
            "procfile",
            ".gitignore",
            ".dockerignore",
            ".env",
            ".bashrc",
            ".zshrc",
            ".profile",
        ];
        if HASH_NAMES.contains(&name.as_str()) {
            return Syntax { hash: true, ..Syntax::NONE };
        }
        let ext = match name.rsplit_once('.') {
            Some((stem, ext)) if !stem.is_empty() => ext,
            _ => return Syntax::ANY,
        };
        let n = Syntax::NONE;
        let c_like = Syntax { slashes: true, c_block: true, ..n };
        match ext {
            "py" | "pyi" | "pyw" | "rb" | "rake" | "gemspec" | "sh" | "bash" | "zsh" | "fish"
            | "ksh" | "ps1" | "psm1" | "r" | "jl" | "pl" | "pm" | "nim" | "ex" | "exs" | "cr"
            | "tcl" | "nix" | "yaml" | "yml" | "toml" | "cmake" | "mk" | "conf" | "awk"
            | "coffee" | "gd" | "hcl" | "tf" | "pyx" | "pxd" | "bzl" | "star" | "dockerfile" => {
                Syntax { hash: true, ..n }
            }
            "c" | "h" | "cc" | "cpp" | "cxx" | "c++" | "hpp" | "hh" | "hxx" | "ino" | "m"
            | "mm" | "cs" | "java" | "kt" | "kts" | "swift" | "go" | "rs" | "js" | "jsx"
            | "mjs" | "cjs" | "ts" | "tsx" | "mts" | "cts" | "scala" | "sc" | "dart" | "zig"
            | "groovy" | "gradle" | "scss" | "less" | "styl" | "proto" | "glsl" | "hlsl"
            | "wgsl" | "frag" | "vert" | "jsonc" | "json5" | "sol" | "v" | "sv" | "svh" | "d"
            | "fs" | "fsx" | "hx" | "cu" | "cuh" => c_like,
            "php" => Syntax { hash: true, ..c_like },
            "css" => Syntax { c_block: true, ..n },
            "vue" | "svelte" | "astro" => Syntax { html_block: true, ..c_like },
            "html" | "htm" | "xhtml" | "xml" | "svg" | "xsl" | "xslt" | "xaml" | "md"
            | "markdown" | "mdx" | "plist" | "csproj" | "vbproj" => {
                Syntax { html_block: true, ..n }
            }
            "sql" | "psql" | "pgsql" | "mysql" => Syntax { dashes: true, c_block: true, ..n },
            "lua" | "hs" | "lhs" | "elm" | "purs" | "idr" | "agda" | "ada" | "adb" | "ads"
            | "vhd" | "vhdl" | "applescript" => Syntax { dashes: true, ..n },
            "el" | "lisp" | "lsp" | "cl" | "scm" | "ss" | "rkt" | "clj" | "cljs" | "cljc"
            | "edn" | "fnl" | "asm" | "s" | "nasm" | "ini" => Syntax { semicolon: true, ..n },
            "tex" | "sty" | "cls" | "bib" | "erl" | "hrl" => Syntax { percent: true, ..n },
            _ => Syntax::ANY,
        }
    }
}

/// A marked comment found on one line.
struct Found {
    mark: Mark,
    instruction: String,
    span: Range<usize>,
}

/// The first comment on the line whose text is AI-marked.
fn marked_comment(line: &str, syntax: Syntax) -> Option<Found> {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !b.is_ascii() {
            // Every marker and quote is ASCII, and an ASCII byte is always a character's start.
            i += 1;
            continue;
        }
        let after_space = i == 0 || bytes[i - 1].is_ascii_whitespace();
        let rest = &line[i..];
        // A line comment: the marker at the line's start or after whitespace, to the line's end.
        let line_marker = match b {
            b'#' if syntax.hash => Some((1, b'#')),
            b'/' if syntax.slashes && rest.starts_with("//") => Some((2, b'/')),
            b'-' if syntax.dashes && rest.starts_with("--") => Some((2, b'-')),
            b';' if syntax.semicolon => Some((1, b';')),
            b'%' if syntax.percent => Some((1, b'%')),
            _ => None,
        };
        if let Some((len, repeat)) = line_marker
            && after_space
        {
            let mut inner = rest[len..].trim_start_matches(repeat as char);
            if repeat == b'/' {
                // `//!` (a Rust inner doc comment).
                inner = inner.strip_prefix('!').unwrap_or(inner);
            }
            if let Some((mark, instruction)) = marked(inner) {
                let span = i..i + rest.trim_end().len();
                return Some(Found { mark, instruction, span });
            }
            i += len;
            continue;
        }
        // A block comment opened and closed on this line.
        let block = match b {
            b'/' if syntax.c_block && rest.starts_with("/*") => Some(("/*", "*/", '*')),
            b'<' if syntax.html_block && rest.starts_with("<!--") => Some(("<!--", "-->", '-')),
            _ => None,
        };
        if let Some((open, close, pad)) = block {
            if let Some(end) = rest[open.len()..].find(close) {
                let inner = &rest[open.len()..open.len() + end];
                let inner = inner.trim_start_matches(pad).trim_end_matches(pad);
                if let Some((mark, instruction)) = marked(inner) {
                    let span = i..i + open.len() + end + close.len();
                    return Some(Found { mark, instruction, span });
                }
            }
            i += open.len();
            continue;
        }
        // A string literal closed on this line is skipped; an unclosed quote is a plain character
        // (an apostrophe, a Rust lifetime, a Lisp quote).
        if matches!(b, b'"' | b'\'' | b'`')
            && let Some(len) = string_len(&bytes[i..])
        {
            i += len;
            continue;
        }
        i += 1;
    }
    None
}

/// The length of the string literal opening at `s[0]` up to its closing quote, backslash escapes
/// honoured; `None` when it does not close.
fn string_len(s: &[u8]) -> Option<usize> {
    let quote = s[0];
    let mut k = 1;
    while k < s.len() {
        match s[k] {
            b'\\' => k += 2,
            c if c == quote => return Some(k + 1),
            _ => k += 1,
        }
    }
    None
}

/// Whether a comment's text is AI-marked: its mark and its instruction (the text without the
/// markers, trimmed).
fn marked(inner: &str) -> Option<(Mark, String)> {
    let text = inner.trim();
    let mut marks = Vec::new();
    let mut body = text;
    if let Some((mark, len)) = leading_marker(body) {
        marks.push(mark);
        body = body[len..].trim_start_matches([':', ',', '-', ' ', '\t']);
    }
    if let Some((mark, len)) = trailing_marker(body) {
        marks.push(mark);
        body = &body[..body.len() - len];
    }
    if marks.is_empty() {
        return None;
    }
    let mark = if marks.contains(&Mark::Trigger(Kind::Change)) {
        Mark::Trigger(Kind::Change)
    } else if marks.contains(&Mark::Trigger(Kind::Question)) {
        Mark::Trigger(Kind::Question)
    } else {
        Mark::Note
    };
    Some((mark, body.trim().to_string()))
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn mark_of(c: Option<char>) -> Mark {
    match c {
        Some('!') => Mark::Trigger(Kind::Change),
        Some('?') => Mark::Trigger(Kind::Question),
        _ => Mark::Note,
    }
}

/// `ai`, `ai!` or `ai?` as a word at the start of `s`: its mark and byte length.
fn leading_marker(s: &str) -> Option<(Mark, usize)> {
    let head = s.get(..2)?;
    if !head.eq_ignore_ascii_case("ai") {
        return None;
    }
    let mut rest = s[2..].chars();
    let next = rest.next();
    match next {
        // `AI!` and `AI?` are words too: `AI!s` is not a marker.
        Some('!' | '?') if !rest.next().is_some_and(is_word) => Some((mark_of(next), 3)),
        Some(c) if is_word(c) || c == '!' || c == '?' => None,
        _ => Some((Mark::Note, 2)),
    }
}

/// `ai`, `ai!` or `ai?` as a word at the end of `s`: its mark and byte length.
fn trailing_marker(s: &str) -> Option<(Mark, usize)> {
    let (stem, punct) = match s.strip_suffix(['!', '?']) {
        Some(stem) => (stem, s[stem.len()..].chars().next()),
        None => (s, None),
    };
    let cut = stem.len().checked_sub(2)?;
    let tail = stem.get(cut..)?;
    if !tail.eq_ignore_ascii_case("ai") || stem[..cut].chars().next_back().is_some_and(is_word) {
        return None;
    }
    Some((mark_of(punct), s.len() - cut))
}

#[cfg(test)]
mod tests;
