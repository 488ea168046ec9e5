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

#[cfg(test)]
mod tests {
    use super::belongs_to_next;

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
