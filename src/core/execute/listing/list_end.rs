//! A list whose last item a merge restored, now followed by an item the listing adds: the
//! restored item still ends the list (`(3, 'viewer');` in an SQL `VALUES` list), and the new
//! item after it (`(4, 'auditor');`, written after `-- ... existing roles ...`) makes a second,
//! broken statement. The model's list goes on where the placeholder ends, so the restored item
//! takes the separator the items above it have (`,`), and the new item keeps the terminator.
//!
//! Not for: JSON (`json`: its parser is the check there), or lines the listing wrote itself.

use crate::core::text::NewLine;

/// Mend each seam where a line kept from the file ends a list with `;` and the listing's next
/// line is another item like it: the kept line gets the `,` the items above it end with.
pub(super) fn mend_restored_list_ends(lines: &mut [NewLine]) {
    for i in 0..lines.len() {
        // (Most lines end otherwise: looked at first, before the lines around are sought.)
        if lines[i].kept_eol.is_none() || !lines[i].text.trim_end().ends_with(';') {
            continue;
        }
        let Some(next) = (i + 1..lines.len()).find(|&j| !lines[j].text.trim().is_empty()) else {
            continue;
        };
        let Some(above) = (0..i).rev().find(|&j| !lines[j].text.trim().is_empty()) else {
            continue;
        };
        let (item, after, before) =
            (lines[i].text.trim(), lines[next].text.trim(), lines[above].text.trim());
        let Some(body) = item.strip_suffix(';') else { continue };
        let Some(sibling) = before.strip_suffix(',') else { continue };
        let shaped_alike = |a: &str, b: &str| {
            let (Some(first), Some(last)) = (a.chars().next(), a.chars().last()) else {
                return false;
            };
            "([{'\"".contains(first) && b.starts_with(first) && b.ends_with(last)
        };
        let goes_on = after.ends_with([';', ',']) && shaped_alike(body, &after[..after.len() - 1]);
        if lines[next].kept_eol.is_none()
            && lines[above].kept_eol.is_some()
            && goes_on
            && shaped_alike(body, sibling)
        {
            let text = &mut lines[i].text;
            let at = text.rfind(';').expect("ends with ';' once trimmed");
            text.replace_range(at..at + 1, ",");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::text::Eol;

    fn kept(t: &str) -> NewLine {
        NewLine::kept(t, Eol::Lf)
    }

    #[test]
    fn a_restored_last_row_followed_by_a_new_row_takes_the_comma() {
        let mut lines = vec![
            kept("INSERT INTO roles (id, name) VALUES"),
            kept("  (1, 'admin'),"),
            kept("  (3, 'viewer');"),
            NewLine::added("  (4, 'auditor');"),
        ];
        mend_restored_list_ends(&mut lines);
        assert_eq!(lines[2].text, "  (3, 'viewer'),");
        assert_eq!(lines[3].text, "  (4, 'auditor');");
    }

    #[test]
    fn statements_and_lines_unlike_the_items_are_left_alone() {
        // Statements after statements: nothing above ends with a comma.
        let mut calls = vec![kept("  run(1);"), kept("  run(2);"), NewLine::added("  run(3);")];
        mend_restored_list_ends(&mut calls);
        assert_eq!(calls[1].text, "  run(2);");
        // The list's closer on the last item (`(3, 4)];`): not the items' shape.
        let mut nested = vec![kept("  (1, 2),"), kept("  (3, 4)];"), NewLine::added("  (5, 6)];")];
        mend_restored_list_ends(&mut nested);
        assert_eq!(nested[1].text, "  (3, 4)];");
        // A new statement after the list: not another item.
        let mut next_statement = vec![
            kept("  (1, 'admin'),"),
            kept("  (3, 'viewer');"),
            NewLine::added("INSERT INTO settings VALUES ('a', 'b');"),
        ];
        mend_restored_list_ends(&mut next_statement);
        assert_eq!(next_statement[1].text, "  (3, 'viewer');");
    }
}
