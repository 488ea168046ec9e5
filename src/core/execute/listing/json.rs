//! A whole-file listing of a JSON file merged with what its placeholders stand for must still be
//! JSON when the file was: the file's own parser is the check. The one slip a merge makes by
//! itself is mended: a restored entry that was the last of its object, followed now by an entry
//! the listing adds (`"react-dom": "^18"` then the new `"zod": "^3"`), lacks the comma between
//! them (the model wrote its entry after `// ... existing dependencies ...`, where the comma
//! would have gone on a line it did not show).
//!
//! Not for: the merge itself (`core::whole`), or other formats.

use crate::core::text::{NewLine, TextFile};
use crate::core::whole::WholeMerge;

/// `merged`, for a `.json` file whose text parsed: as it is when it parses, with commas put
/// between a line the merge kept and a line the listing adds where that makes it parse, else
/// refused with the parser's word.
pub(super) fn still_json(
    path: &str,
    original: &TextFile,
    mut merged: WholeMerge,
) -> Result<WholeMerge, String> {
    let is_json = |lines: &[&str]| serde_json::from_str::<serde_json::Value>(&lines.join("\n"));
    let before: Vec<&str> = original.lines.iter().map(String::as_str).collect();
    if !path.to_ascii_lowercase().ends_with(".json") || is_json(&before).is_err() {
        return Ok(merged);
    }
    let now: Vec<String> = merged.lines.iter().map(|l| l.text.clone()).collect();
    let check = |v: &[String]| is_json(&v.iter().map(String::as_str).collect::<Vec<_>>());
    let Err(why) = check(&now) else { return Ok(merged) };
    let seams = missing_commas(&merged.lines);
    if !seams.is_empty() {
        let mut mended = now.clone();
        for &i in &seams {
            mended[i] = with_comma(&mended[i]);
        }
        if check(&mended).is_ok() {
            for i in seams {
                merged.lines[i].text = with_comma(&merged.lines[i].text);
            }
            return Ok(merged);
        }
    }
    Err(format!("the merged file is no longer valid JSON ({why}): send the whole file, or a diff"))
}

/// Lines (indexes into `lines`) that end a value with no comma after them, followed (blank
/// lines aside) by a line that starts another entry, one of the two kept from the file and the
/// other the listing's own.
fn missing_commas(lines: &[NewLine]) -> Vec<usize> {
    let ends_value = |t: &str| {
        let t = t.trim_end();
        t.ends_with(['"', '}', ']'])
            || t.ends_with(|c: char| c.is_ascii_digit())
            || ["true", "false", "null"].iter().any(|w| t.ends_with(w))
    };
    let starts_entry = |t: &str| t.trim_start().starts_with(['"', '{', '[']);
    let mut out = Vec::new();
    for i in 0..lines.len() {
        if lines[i].text.trim().is_empty() || !ends_value(&lines[i].text) {
            continue;
        }
        let Some(j) = (i + 1..lines.len()).find(|&j| !lines[j].text.trim().is_empty()) else {
            continue;
        };
        let seam = lines[i].kept_eol.is_some() != lines[j].kept_eol.is_some();
        if seam && starts_entry(&lines[j].text) {
            out.push(i);
        }
    }
    out
}

fn with_comma(line: &str) -> String {
    let body = line.trim_end();
    format!("{body},{}", &line[body.len()..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn merged(lines: &[(&str, bool)]) -> WholeMerge {
        WholeMerge {
            lines: (lines.iter())
                .map(|(t, kept)| match kept {
                    true => NewLine::kept(*t, crate::core::text::Eol::Lf),
                    false => NewLine::added(*t),
                })
                .collect(),
            restored: true,
            kept_share: 1.0,
            restored_lines: Vec::new(),
        }
    }

    const FILE: &str = "{\n  \"deps\": {\n    \"a\": \"1\",\n    \"b\": \"2\"\n  }\n}\n";

    #[test]
    fn a_new_entry_after_a_restored_last_one_gets_its_comma() {
        let m = merged(&[
            ("{", true),
            ("  \"deps\": {", true),
            ("    \"a\": \"1\",", true),
            ("    \"b\": \"2\"", true),
            ("    \"c\": \"3\"", false),
            ("  }", true),
            ("}", true),
        ]);
        let out = still_json("package.json", &TextFile::parse(FILE), m).expect("mended");
        let texts: Vec<&str> = out.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts[3], "    \"b\": \"2\",");
        assert_eq!(texts[4], "    \"c\": \"3\"");
    }

    #[test]
    fn a_merge_that_no_comma_mends_is_refused_and_other_files_pass() {
        let broken = merged(&[("{", true), ("  \"deps\": {", true), ("    \"a\": \"1\",", true)]);
        let why = still_json("x.json", &TextFile::parse(FILE), broken.clone()).unwrap_err();
        assert!(why.contains("no longer valid JSON"), "{why}");
        // Not JSON by name, or a file that did not parse (comments): not judged.
        assert!(still_json("x.js", &TextFile::parse(FILE), broken.clone()).is_ok());
        let jsonc = "{\n  // settings\n  \"a\": 1\n}\n";
        assert!(still_json("tsconfig.json", &TextFile::parse(jsonc), broken).is_ok());
    }
}
