//! Where new lines go among file lines the model left out: a hunk that shows `A`, then new
//! lines, then `C`, for a file that has `B` between `A` and `C`. Some left-out lines belong to
//! the line after them, so the new lines can only go before them.
//!
//! Not for: the doubts about a gap that nothing settles (`execute::doubt` refuses those), or
//! placing lines (`apply`).

use crate::core::indent::depth;

/// Whether the file lines the model left out (`gap`, between the line the new lines follow and
/// the one they precede, `next`) belong to `next`, so the new lines (`new` the first) go
/// before them, right after the line they follow: attributes above it (`#[cfg(..)]`,
/// `@cached`), or a line that `next` is part of (`if (x)` then its indented body, `push({`
/// then the object's lines), where the new lines are code written at the left-out line's
/// depth, not inside it. A comment left out may be about the next line or head a part that
/// the new lines open, and blank lines are separators either side: those leave it open.
pub fn belongs_to_next(gap: &[String], new: &str, next: &str) -> bool {
    let Some(last) = gap.last() else { return false };
    if new.trim().is_empty() || gap.iter().any(|l| l.trim().is_empty()) {
        return false;
    }
    let heads = |l: &str| {
        let t = l.trim();
        t.starts_with("#[") || t.starts_with('@')
    };
    // A new attribute or comment goes with the others, right above the item.
    let note = |l: &str| heads(l) || crate::core::whole::is_comment(l.trim());
    if note(new) || !gap[..gap.len() - 1].iter().all(|l| heads(l)) || depth(new) != depth(last) {
        return false;
    }
    heads(last) && depth(next) == depth(last) || depth(next) > depth(last)
}

/// Whether new lines written where the model left out only blank lines are notes on the line
/// after the blanks: every one a doc comment (`///`, `/** … */`), an attribute (`#[…]`) or a
/// decorator (`@name`) at that line's depth. They go right above it, after the blank lines (a
/// doc comment parted from its item by a blank line documents nothing).
pub fn notes_for_next(gap: &[String], added: &[&str], next: &str) -> bool {
    let note = |l: &str| {
        let t = l.trim();
        t.starts_with("///")
            || t.starts_with("#[")
            || t.strip_prefix('@').is_some_and(|r| r.starts_with(|c: char| c.is_alphabetic()))
    };
    // A `/** … */` block: its `*` lines only after its opener (a `*` line alone is a Markdown
    // bullet or a C dereference).
    let block = added.first().is_some_and(|l| l.trim().starts_with("/**"))
        && added.last().is_some_and(|l| l.trim().ends_with("*/"))
        && added[1..].iter().all(|l| l.trim().starts_with('*'));
    !gap.is_empty()
        && gap.iter().all(|l| l.trim().is_empty())
        && !next.trim().is_empty()
        && !added.is_empty()
        && (block || added.iter().all(|l| note(l)))
        && added.iter().all(|l| depth(l) == depth(next) || (block && l.trim().starts_with('*')))
}

/// Whether new lines that begin with an import (`first`) continue the imports that the file line
/// before a gap of blank lines ends (`lines[..end]`): an import statement, or the bracket
/// closing one written over several lines. New imports join the block, the blank lines stay
/// after it.
pub fn joins_imports(lines: &[String], end: usize, first: &str) -> bool {
    if !imports(first) || end == 0 {
        return false;
    }
    let last = &lines[end - 1];
    if imports(last) {
        return true;
    }
    // `)` or `};` closing `from x import (` / `import {`: the statement opened at its depth.
    let t = last.trim();
    if !t.starts_with([')', '}', ']']) {
        return false;
    }
    lines[..end - 1]
        .iter()
        .rev()
        .take(200)
        .find(|l| !l.trim().is_empty() && depth(l) <= depth(last))
        .is_some_and(|l| imports(l))
}

/// A line that imports: `import x`, `from x import y`, `use a::b;`, `#include <x>`,
/// `const x = require("x")`, `extern crate x;`.
fn imports(line: &str) -> bool {
    let t = line.trim_start();
    ["import ", "from ", "use ", "pub use ", "#include", "extern crate ", "require "]
        .iter()
        .any(|p| t.starts_with(p))
        || (t.contains("= require(") && t.ends_with([';', ')']))
}

#[cfg(test)]
mod tests {
    use super::{belongs_to_next, joins_imports, notes_for_next};

    #[test]
    fn notes_after_blank_lines_go_with_the_next_item() {
        let blank = gap(&[""]);
        assert!(notes_for_next(&blank, &["/// Arbitrary with."], "fn arbitrary_with() {"));
        assert!(notes_for_next(&blank, &["    @cached"], "    def load(self):"));
        assert!(!notes_for_next(&blank, &["#[test]", "fn t() {}"], "fn next() {"));
        assert!(!notes_for_next(&blank, &["// why"], "fn next() {"));
        assert!(!notes_for_next(&gap(&["// x"]), &["/// doc"], "fn next() {"));
        assert!(!notes_for_next(&blank, &["* Offline mode"], "## Install"));
        assert!(!notes_for_next(&blank, &["    *last = n;"], "    return 0;"));
        let doc = ["  /**", "   * Adds one.", "   */"];
        assert!(notes_for_next(&blank, &doc, "  add(n) {"));
    }

    #[test]
    fn new_imports_join_the_import_block() {
        let file = gap(&["import os", "from x import (", "    a,", "    b,", ")", "", "", "@deco"]);
        assert!(joins_imports(&file, 5, "import logging"));
        assert!(joins_imports(&file, 1, "import logging"));
        assert!(!joins_imports(&file, 5, "logger = make()"));
        let code = gap(&["def f(", "    a,", ")", ""]);
        assert!(!joins_imports(&code, 3, "import logging"));
    }

    fn gap(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn heads_and_openers_of_the_next_line_take_new_lines_before_them() {
        let cases = [
            (&["    #[cfg(feature = \"std\")]"][..], "    {"),
            (&["    if (path instanceof RegExp)"][..], "        return re(path);"),
            (&["    result.push({"][..], "        name: name,"),
            (&["    @cached", "    @property"][..], "    def load(self):"),
        ];
        for (g, next) in cases {
            assert!(belongs_to_next(&gap(g), "    log(x);", next), "{g:?}");
        }
    }

    #[test]
    fn a_statement_a_blank_line_or_new_lines_inside_the_opener_leave_it_open() {
        let g = gap(&["    let bytes = self.inner.chunk();"]);
        assert!(!belongs_to_next(&g, "    log(x);", "    &bytes[..n]"));
        assert!(!belongs_to_next(&gap(&["", "    // why"]), "    log(x);", "    run();"));
        // New lines as deep as the opener's body go inside it.
        let opener = gap(&["    if (ready) {"]);
        assert!(!belongs_to_next(&opener, "        log(x);", "        go();"));
        // A comment left out; an attribute left out above an attribute the model adds.
        assert!(!belongs_to_next(&gap(&["    // why"]), "    log(x);", "    run();"));
        let attr = gap(&["    #[inline]"]);
        assert!(!belongs_to_next(&attr, "    #[must_use]", "    pub fn f() {"));
    }
}
