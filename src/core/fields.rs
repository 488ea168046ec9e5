//! Tab-separated fields: a line whose fields the file separates with tabs (a TSV row, a
//! `#define NAME\tvalue`, a tab-aligned table) that the model retyped with runs of spaces.
//!
//! Matching forgives the difference (whitespace inside a line is copying noise), but new lines
//! written the model's way would break the file's format (a TSV reader sees one column). When
//! the lines the hunk shares with the file show the model's runs of spaces stand for the file's
//! tabs, the new lines get tabs there too.
//!
//! Not for: indentation (`core::indent`), or lines the file does not separate with tabs.

/// Whether the model's runs of spaces stand for the file's tabs, learned from the hunk's lines
/// found in the file (`(model, file)`): at least one file line separates fields with tabs, each
/// such line has exactly the model line's fields, and no found line separates fields with runs
/// of spaces in the file too (a file that mixes both says nothing).
pub fn spaces_stand_for_tabs<'a>(pairs: impl Iterator<Item = (&'a str, &'a str)>) -> bool {
    let mut learned = false;
    for (model, file) in pairs {
        let (model, file) = (body(model), body(file));
        if has_space_run(file) {
            return false;
        }
        if !file.contains('\t') || model == file {
            continue;
        }
        if !file.split('\t').eq(model_fields(model)) {
            return false;
        }
        learned = true;
    }
    learned
}

/// A new line written with tabs where the model put runs of two or more spaces between fields
/// (its indentation and any tabs it wrote itself kept as they are).
pub fn with_tabs(line: &str) -> String {
    let content = body(line);
    let indent = &line[..line.len() - content.len()];
    if content.contains('\t') || !has_space_run(content) {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len());
    out.push_str(indent);
    let fields: Vec<&str> = model_fields(content).collect();
    out.push_str(&fields.join("\t"));
    out
}

/// A line without its indentation and trailing whitespace.
fn body(line: &str) -> &str {
    line.trim_end().trim_start_matches([' ', '\t'])
}

/// Whether a line (without its indentation) has two spaces in a row.
fn has_space_run(content: &str) -> bool {
    content.contains("  ")
}

/// The model's fields: the text between runs of two or more spaces or tabs (a single space is
/// part of a field: "Bob Smith").
fn model_fields(content: &str) -> impl Iterator<Item = &str> {
    let mut fields = Vec::new();
    let bytes = content.as_bytes();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        let run = bytes[i..].iter().take_while(|&&b| b == b' ' || b == b'\t').count();
        let separates = run >= 2 || (run == 1 && bytes[i] == b'\t');
        if separates {
            fields.push(&content[start..i]);
            start = i + run;
        }
        i += run.max(1);
    }
    fields.push(&content[start..]);
    fields.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_tabs_from_a_retyped_row_and_writes_new_rows_with_them() {
        let pairs = [("2    bob    bob@example.com    viewer", "2\tbob\tbob@example.com\tviewer")];
        assert!(spaces_stand_for_tabs(pairs.into_iter()));
        assert_eq!(with_tabs("3    carol    c@x.org    editor"), "3\tcarol\tc@x.org\teditor");
        assert_eq!(with_tabs("4  Bob Smith  b@x.org"), "4\tBob Smith\tb@x.org");
        assert_eq!(with_tabs("    x  =  1"), "    x\t=\t1", "indentation kept");
        assert_eq!(with_tabs("a b c"), "a b c", "single spaces are inside fields");
    }

    #[test]
    fn learns_nothing_where_the_file_says_nothing_or_disagrees() {
        // The file has no tabs between fields: nothing to carry.
        assert!(!spaces_stand_for_tabs([("a    b", "a  b")].into_iter()));
        // The model wrote the tabs itself.
        assert!(!spaces_stand_for_tabs([("a\tb", "a\tb")].into_iter()));
        // The fields differ: the match was fuzzy, not a retyped row.
        assert!(!spaces_stand_for_tabs([("a    c", "a\tb")].into_iter()));
        // The file mixes tabs and runs of spaces between fields.
        let mixed = [("a    b", "a\tb"), ("x = 1   # note", "x = 1   # note")];
        assert!(!spaces_stand_for_tabs(mixed.into_iter()));
        // Indentation with tabs is not a field separator.
        assert!(!spaces_stand_for_tabs([("    return x", "\treturn x")].into_iter()));
    }
}
