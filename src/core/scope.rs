//! A hunk's scope: the nearest definition (function, method, class, impl, ...) that encloses a
//! line, as git's `@@ … def handler_200` hunk header names it. Found by a plain indentation
//! rule, not a parser: walking up from the line, a definition line indented less than every
//! line seen so far encloses it; any other line indented less narrows the search, and a
//! top-level line that is no definition ends it (the line is at the top level).
//!
//! Not for: syntax colour (`ui::highlight`), or anything that needs a real parse (a definition
//! written across several lines is named by its first line).

/// The languages whose definition lines are told apart; anything else gets all their keywords.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Python,
    Rust,
    JavaScript,
    Go,
    /// C, C++, Java, C#, Kotlin, Swift: keywords, and method heads ending in `{`.
    CLike,
    Ruby,
    Other,
}

impl Lang {
    /// The language of a path, by its extension.
    pub fn of(path: &str) -> Lang {
        match crate::core::paths::extension(path).as_str() {
            "py" | "pyi" => Lang::Python,
            "rs" => Lang::Rust,
            "js" | "jsx" | "mjs" | "cjs" | "ts" | "tsx" | "mts" | "cts" => Lang::JavaScript,
            "go" => Lang::Go,
            "c" | "h" | "cc" | "cpp" | "hpp" | "cxx" | "java" | "cs" | "kt" | "kts" | "swift" => {
                Lang::CLike
            }
            "rb" => Lang::Ruby,
            _ => Lang::Other,
        }
    }
}

/// The definition line (trimmed, without a trailing `{` or `:`) that encloses line `line`
/// (0-based) of `text`; `None` at the top level or past the end.
pub fn enclosing(text: &str, line: usize, lang: Lang) -> Option<String> {
    let start = line_offset(text, line)?;
    let here = text[start..].lines().next().unwrap_or("");
    // A blank first line says nothing about depth: every line above may enclose it.
    let mut depth = if here.trim().is_empty() { usize::MAX } else { indent(here) };
    if depth == 0 {
        return None;
    }
    for above in text[..start].lines().rev() {
        let trimmed = above.trim();
        if trimmed.is_empty() || is_comment(trimmed) || starts_closed(trimmed) {
            continue;
        }
        let d = indent(above);
        if d >= depth {
            continue;
        }
        if is_definition(trimmed, lang) {
            return Some(label(trimmed));
        }
        if d == 0 {
            return None;
        }
        depth = d;
    }
    None
}

/// The byte offset where line `line` starts; `None` past the end.
fn line_offset(text: &str, line: usize) -> Option<usize> {
    if line == 0 {
        return (!text.is_empty()).then_some(0);
    }
    let mut seen = 0;
    for (i, _) in text.match_indices('\n') {
        seen += 1;
        if seen == line {
            return (i + 1 < text.len()).then_some(i + 1);
        }
    }
    None
}

/// Leading whitespace in columns, a tab counting four.
fn indent(line: &str) -> usize {
    line.chars().take_while(|c| c.is_whitespace()).map(|c| if c == '\t' { 4 } else { 1 }).sum()
}

/// Comments (and Rust attributes, C preprocessor lines) can sit at any depth.
fn is_comment(t: &str) -> bool {
    ["#", "//", "/*", "*", "--"].iter().any(|p| t.starts_with(p))
}

/// A line that closes a bracket (`):` ending a Python signature, `}` ending a block) belongs
/// to what it closes, not to the depth it is written at.
fn starts_closed(t: &str) -> bool {
    t.starts_with([')', ']', '}'])
}

fn label(t: &str) -> String {
    let t = t.trim_end_matches(['{', ' ', '\t']);
    let t = t.strip_suffix(':').unwrap_or(t);
    t.trim_end().to_string()
}

/// Words that begin a definition, after modifiers such as `pub`, `export`, `async`.
fn keywords(lang: Lang) -> &'static [&'static str] {
    match lang {
        Lang::Python => &["def", "class"],
        Lang::Rust => &["fn", "impl", "struct", "enum", "mod", "trait", "union", "macro_rules!"],
        Lang::JavaScript => &["function", "function*", "class", "interface", "namespace"],
        Lang::Go => &["func", "type"],
        Lang::CLike => &[
            "class",
            "struct",
            "interface",
            "enum",
            "namespace",
            "fun",
            "func",
            "record",
            "object",
        ],
        Lang::Ruby => &["def", "class", "module"],
        Lang::Other => {
            &["def", "class", "fn", "func", "function", "impl", "struct", "trait", "module", "sub"]
        }
    }
}

/// Modifiers that may come before a definition's keyword.
const MODIFIERS: &[&str] = &[
    "pub",
    "pub(crate)",
    "pub(super)",
    "async",
    "unsafe",
    "const",
    "extern",
    "\"C\"",
    "export",
    "default",
    "declare",
    "abstract",
    "public",
    "private",
    "protected",
    "internal",
    "static",
    "final",
    "override",
    "open",
    "sealed",
    "data",
    "inline",
    "virtual",
];

fn is_definition(t: &str, lang: Lang) -> bool {
    let mut words = t.split_whitespace().peekable();
    while words.peek().is_some_and(|w| MODIFIERS.contains(w)) {
        words.next();
    }
    let Some(first) = words.next() else { return false };
    // `fn name(`, `impl<T> X`, `struct Name<T>`: the keyword ends at a bracket too.
    let head = first.split(['(', '<', '{']).next().unwrap_or(first);
    if keywords(lang).contains(&head) && (head != first || words.peek().is_some()) {
        return true;
    }
    matches!(lang, Lang::JavaScript | Lang::CLike) && is_method_head(t)
}

/// `name(args) {`, `const f = (a) => {`, `int main(void) {`: a call-shaped head opening a
/// block, not a control statement.
fn is_method_head(t: &str) -> bool {
    const CONTROL: &[&str] =
        &["if", "for", "while", "switch", "catch", "return", "else", "do", "try", "with", "new"];
    if !t.ends_with('{') {
        return false;
    }
    let first = t.split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap_or("");
    if first.is_empty() || CONTROL.contains(&first) {
        return false;
    }
    let arrow = t.contains("=>") && t.starts_with(['c', 'l', 'v']);
    arrow || (t.contains('(') && !t.contains('=') && !t.contains(';'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, needle: &str, lang: Lang) -> Option<String> {
        let line = text.lines().position(|l| l.contains(needle)).expect("the needle is there");
        enclosing(text, line, lang)
    }

    #[test]
    fn python_methods_classes_and_multi_line_signatures() {
        let src = "import os\n\nclass Handler:\n    limit = 3\n\n    @route('/a')\n    def handler_200(self, request):\n        if request:\n            return ok()\n\n    def handler_404(\n        self,\n        request,\n    ):\n        return missing()\n\nx = 1\n";
        assert_eq!(
            at(src, "return ok()", Lang::Python).as_deref(),
            Some("def handler_200(self, request)")
        );
        assert_eq!(at(src, "return missing()", Lang::Python).as_deref(), Some("def handler_404("));
        assert_eq!(at(src, "limit = 3", Lang::Python).as_deref(), Some("class Handler"));
        assert_eq!(at(src, "def handler_200", Lang::Python).as_deref(), Some("class Handler"));
        assert_eq!(at(src, "x = 1", Lang::Python), None, "top level");
        assert_eq!(at(src, "import os", Lang::Python), None);
        assert_eq!(enclosing(src, 400, Lang::Python), None, "past the end");
    }

    #[test]
    fn rust_items_and_closed_blocks_before() {
        let src = "mod store {\n    impl<T: Clone> Store<T> {\n        pub fn new() -> Self {\n            Self {}\n        }\n\n        #[inline]\n        pub(crate) async fn get(&self) {\n            let x = 1;\n        }\n    }\n}\n\nstruct Point {\n    x: i32,\n}\n";
        assert_eq!(
            at(src, "let x = 1", Lang::Rust).as_deref(),
            Some("pub(crate) async fn get(&self)")
        );
        assert_eq!(at(src, "#[inline]", Lang::Rust).as_deref(), Some("impl<T: Clone> Store<T>"));
        assert_eq!(at(src, "pub fn new", Lang::Rust).as_deref(), Some("impl<T: Clone> Store<T>"));
        assert_eq!(at(src, "x: i32", Lang::Rust).as_deref(), Some("struct Point"));
    }

    #[test]
    fn javascript_go_and_c_like() {
        let js = "export class Cart {\n  total(items) {\n    return items.length;\n  }\n}\nconst add = (a, b) => {\n  return a + b;\n};\nfunction main() {\n  if (x) {\n    run();\n  }\n}\n";
        assert_eq!(at(js, "return items", Lang::JavaScript).as_deref(), Some("total(items)"));
        assert_eq!(
            at(js, "return a + b", Lang::JavaScript).as_deref(),
            Some("const add = (a, b) =>")
        );
        assert_eq!(at(js, "run()", Lang::JavaScript).as_deref(), Some("function main()"));
        let go = "package main\n\nfunc (s *Server) Handle(w http.ResponseWriter) {\n\tif ok {\n\t\tw.Write(nil)\n\t}\n}\n";
        assert_eq!(
            at(go, "w.Write", Lang::Go).as_deref(),
            Some("func (s *Server) Handle(w http.ResponseWriter)")
        );
        let c = "static int count(const char *s) {\n    int n = 0;\n    return n;\n}\n";
        assert_eq!(
            at(c, "int n = 0", Lang::CLike).as_deref(),
            Some("static int count(const char *s)")
        );
    }

    #[test]
    fn languages_by_extension() {
        assert_eq!(Lang::of("src/app.py"), Lang::Python);
        assert_eq!(Lang::of("web/App.TSX"), Lang::JavaScript);
        assert_eq!(Lang::of("main.go"), Lang::Go);
        assert_eq!(Lang::of("Makefile"), Lang::Other);
    }
}
