//! Lines that belong to the line below them: decorators and attributes (`@property`,
//! `#[derive(Debug)]`, `[HttpGet("{id}")]`, `@Scheduled(…)`), compiler directives
//! (`//go:embed`) and comments that speak of the next line (`// eslint-disable-next-line`,
//! `// @ts-expect-error`). A model's edit often starts at the item itself and leaves them
//! unseen above its old text; applied as written, new lines inserted before the item land
//! between it and its annotations, and an item removed leaves them over whatever follows — the
//! file still parses, and a route, a test attribute or a schedule now belongs to other code.
//!
//! [`reattach`] gives the hunk the annotations as they must go: lines inserted before the item
//! go above them, and an item removed takes them along. Either way the hunk then shows them, as
//! context or removed lines, so every later check (already applied, the verifier) judges what
//! is written.
//!
//! Not for: locating (`core::locate`), applying (`core::apply`).

use crate::core::edit::{Hunk, HunkLine, LineKind};
use crate::core::locate::{HunkSlot, Located};

/// The hunk with the annotations above its first old line taken in (see the module), when the
/// edit would part them from their item; `None` when it does not.
pub(super) fn reattach(path: &str, hunk: &Hunk, loc: &Located, lines: &[String]) -> Option<Hunk> {
    let first = hunk.lines.iter().position(|l| l.kind != LineKind::Add)?;
    let item = match loc.slots.get(first)? {
        HunkSlot::Kept(f, _) | HunkSlot::Removed(f, _) => *f,
        _ => return None,
    };
    let above = annotations_above(path, lines, item);
    if above == 0 || is_annotation(path, &hunk.lines[first].text) {
        return None;
    }
    let annotations = &lines[item - above..item];
    let kind = hunk.lines[first].kind;
    let inserted = &hunk.lines[..first];
    let taken = match kind {
        // New lines before the item: a new item of their own, unless they end in an annotation
        // (a decorator added to the item: it goes right above it, under the others).
        LineKind::Context => {
            let last = inserted.iter().rev().find(|l| !l.text.trim().is_empty())?;
            if is_annotation(path, &last.text) {
                return None;
            }
            LineKind::Context
        }
        // The item removed and nothing written in its place: its annotations go with it. (Lines
        // written where it was are its rewrite, and keep them.)
        LineKind::Remove => {
            let removed = hunk.lines[first..].iter().take_while(|l| l.kind == LineKind::Remove);
            let next = hunk.lines[first..].get(removed.count());
            if !inserted.is_empty() || next.is_some_and(|l| l.kind == LineKind::Add) {
                return None;
            }
            LineKind::Remove
        }
        LineKind::Add => return None,
    };
    let mut lines: Vec<HunkLine> = inserted.to_vec();
    lines.extend(annotations.iter().map(|a| HunkLine::new(taken, a.clone())));
    lines.extend(hunk.lines[first..].iter().cloned());
    Some(Hunk {
        lines,
        old_start_hint: hunk.old_start_hint.map(|h| h.saturating_sub(above).max(1)),
        other_split: None,
        ..hunk.clone()
    })
}

/// How many lines right above file line `item` are its annotations: each one line
/// (`@property`), or one that spans lines (`@app.route(\n    "/x",\n)`, `@Component({ … })`):
/// a line that closes a bracket is taken with the lines up to where it opened, when that one
/// starts an annotation.
fn annotations_above(path: &str, lines: &[String], item: usize) -> usize {
    let mut top = item;
    while top > 0 {
        let line = lines[top - 1].trim();
        if is_annotation(path, line) {
            top -= 1;
            continue;
        }
        if !line.ends_with([')', ']', '}']) {
            break;
        }
        // Up to where the brackets closed on this line were opened.
        let mut depth = 0i64;
        let mut start = None;
        for f in (0..top).rev().take(200) {
            for c in lines[f].chars().rev() {
                match c {
                    ')' | ']' | '}' => depth += 1,
                    '(' | '[' | '{' => depth -= 1,
                    _ => {}
                }
            }
            if depth <= 0 {
                start = Some(f);
                break;
            }
        }
        match start {
            Some(f) if f + 1 < top && opens_annotation(path, &lines[f]) => top = f,
            _ => break,
        }
    }
    item - top
}

/// Whether a line starts an annotation whose arguments go on below it (`@app.route(`,
/// `@Component({`, `#[derive(`, `[Route(`).
fn opens_annotation(path: &str, line: &str) -> bool {
    let t = line.trim();
    let head = t.split(['(', '[', '{']).next().unwrap_or(t);
    let ext = crate::core::paths::extension(path);
    match ext.as_str() {
        "rs" | "php" => t.starts_with("#["),
        "cs" | "fs" => t.starts_with('[') && !t.contains('='),
        _ => is_annotation(path, &format!("{head}()")) && t.len() > head.len(),
    }
}

/// Comments that speak of the line after them, in the tools' own words.
const NEXT_LINE: [&str; 14] = [
    "eslint-disable-next-line",
    "@ts-ignore",
    "@ts-expect-error",
    "prettier-ignore",
    "biome-ignore",
    "deno-lint-ignore",
    "NOLINTNEXTLINE",
    "pylint: disable-next",
    "shellcheck disable",
    "istanbul ignore next",
    "c8 ignore next",
    "@phpstan-ignore-next-line",
    "noinspection",
    "rubocop:disable-next-line",
];

/// Whether a line belongs to the line below it (see the module). By the file's language where
/// the same text means something else elsewhere (`@x = 1` is code in Ruby, `[1, 2]` in most).
pub(super) fn is_annotation(path: &str, line: &str) -> bool {
    let t = line.trim();
    let ext = crate::core::paths::extension(path);
    let comment = ["//", "#", "/*", "--"].iter().any(|c| t.starts_with(c));
    if comment && NEXT_LINE.iter().any(|d| t.contains(d)) {
        return true;
    }
    match ext.as_str() {
        "go" => t.starts_with("//go:") || t.starts_with("//export "),
        "rs" | "php" => t.starts_with("#[") && t.ends_with(']'),
        "cs" | "fs" => t.starts_with('[') && t.ends_with(']') && !t.contains('='),
        "py" | "pyi" | "java" | "kt" | "kts" | "scala" | "groovy" | "dart" | "swift" | "ts"
        | "tsx" | "mts" | "js" | "jsx" | "mjs" => {
            let name = t.strip_prefix('@').and_then(|r| r.chars().next());
            name.is_some_and(|c| c.is_alphabetic() || c == '_')
                && !t.ends_with('{')
                && !t.ends_with(';')
                && !t.ends_with(',')
                && !t.split('(').next().unwrap_or(t).contains('=')
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_over_several_lines() {
        let lines = |t: &str| t.lines().map(String::from).collect::<Vec<_>>();
        let py = lines(
            "x = 1\n@app.route(\n    \"/export\",\n    methods=[\"GET\"],\n)\n@login_required\ndef export():\n    pass\n",
        );
        assert_eq!(annotations_above("a.py", &py, 6), 5);
        let ts = lines("import x;\n@Component({\n  selector: 'app-x',\n})\nexport class X {}\n");
        assert_eq!(annotations_above("x.ts", &ts, 4), 3);
        // A call's closing line above a function is no annotation.
        let call = lines("setup(\n    debug=True,\n)\ndef main():\n    pass\n");
        assert_eq!(annotations_above("a.py", &call, 3), 0);
    }

    #[test]
    fn annotations_by_language() {
        let yes = [
            ("a.py", "    @property"),
            ("a.py", "@app.route(\"/x\", methods=[\"POST\"])"),
            ("A.java", "    @Scheduled(cron = \"0 0 3 * * *\")"),
            ("a.rs", "#[derive(Debug, Clone)]"),
            ("a.rs", "    #[test]"),
            ("C.cs", "    [HttpGet(\"{id}\")]"),
            ("m.go", "//go:embed templates/*"),
            ("a.js", "  // eslint-disable-next-line no-new-func"),
            ("a.ts", "// @ts-expect-error: the types lag"),
            ("a.sh", "# shellcheck disable=SC2086"),
        ];
        for (path, line) in yes {
            assert!(is_annotation(path, line), "{path}: {line}");
        }
        let no = [
            ("a.rb", "@count = 0"),
            ("a.ts", "@count = 0"),
            ("a.py", "x = compute()"),
            ("a.py", "# a plain comment"),
            ("a.rs", "#![allow(dead_code)]"),
            ("a.py", "[1, 2, 3]"),
            ("a.cs", "var x = items[0];"),
            ("a.ts", "  @Input() name: string;"),
            ("a.swift", "@objc func tap() {"),
            ("a.css", "@media (max-width: 600px) {"),
            ("a.m", "@interface Foo : NSObject"),
        ];
        for (path, line) in no {
            assert!(!is_annotation(path, line), "{path}: {line}");
        }
    }
}
