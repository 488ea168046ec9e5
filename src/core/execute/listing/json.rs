//! A whole-file listing of a JSON file merged with what its placeholders stand for must still be
//! JSON when the file was: the file's own parser is the check. The one slip a merge makes by
//! itself is mended: a restored entry that was the last of its object, followed now by an entry
//! the listing adds (`"react-dom": "^18"` then the new `"zod": "^3"`), lacks the comma between
//! them (the model wrote its entry after `// ... existing dependencies ...`, where the comma
//! would have gone on a line it did not show).
//!
//! JSON with comments (`tsconfig.json`) is judged the same way, read without its comments and
//! trailing commas.
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
    let strict = |text: &str| serde_json::from_str::<serde_json::Value>(text);
    let before = original.lines.join("\n");
    if !path.to_ascii_lowercase().ends_with(".json") {
        return Ok(merged);
    }
    // JSON with comments and trailing commas (`tsconfig.json`, VS Code's settings) is read as
    // its tools read it: the same check, on the text without them.
    let with_comments = strict(&before).is_err();
    if with_comments && strict(&as_plain_json(&before)).is_err() {
        return Ok(merged);
    }
    let is_json = |lines: &[&str]| {
        let text = lines.join("\n");
        if with_comments { strict(&as_plain_json(&text)) } else { strict(&text) }
    };
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

/// JSON with comments (`//`, `/* */`) and trailing commas as plain JSON: the comments blanked
/// (their line breaks kept), then the commas before a closing bracket dropped. Strings are left
/// as they are.
fn as_plain_json(text: &str) -> String {
    let uncommented = outside_strings(text.as_bytes(), |b, i, out| match (b[i], b.get(i + 1)) {
        (b'/', Some(b'/')) => (i..b.len()).find(|&j| b[j] == b'\n').unwrap_or(b.len()),
        (b'/', Some(b'*')) => {
            let end = (i + 2..b.len().saturating_sub(1))
                .find(|&j| b[j] == b'*' && b[j + 1] == b'/')
                .map_or(b.len(), |j| j + 2);
            out.extend(b[i..end].iter().filter(|c| **c == b'\n'));
            end
        }
        (c, _) => {
            out.push(c);
            i + 1
        }
    });
    let plain = outside_strings(&uncommented, |b, i, out| {
        let next = b[i + 1..].iter().find(|x| !x.is_ascii_whitespace());
        if b[i] != b',' || !matches!(next, Some(b'}' | b']')) {
            out.push(b[i]);
        }
        i + 1
    });
    String::from_utf8(plain).unwrap_or_default()
}

/// `b` copied, strings as they are, and each byte outside them handed to `step`, which pushes
/// what it makes of it and says where to go on.
fn outside_strings(b: &[u8], mut step: impl FnMut(&[u8], usize, &mut Vec<u8>) -> usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(b.len());
    let (mut i, mut in_string) = (0, false);
    while i < b.len() {
        if in_string && b[i] == b'\\' && i + 1 < b.len() {
            out.extend_from_slice(&b[i..i + 2]);
            i += 2;
            continue;
        }
        if in_string || b[i] == b'"' {
            in_string = !in_string || b[i] != b'"';
            out.push(b[i]);
            i += 1;
            continue;
        }
        i = step(b, i, &mut out);
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
        // Not JSON by name, or a file that does not parse even without comments: not judged.
        assert!(still_json("x.js", &TextFile::parse(FILE), broken.clone()).is_ok());
        let not_json = "{\n  a: 1\n}\n";
        assert!(still_json("tsconfig.json", &TextFile::parse(not_json), broken).is_ok());
    }

    #[test]
    fn json_with_comments_is_judged_and_mended_without_them() {
        let jsonc = "{\n  // settings\n  \"a\": 1, /* one */\n  \"b\": \"http://x\",\n}\n";
        assert_eq!(
            as_plain_json(jsonc),
            "{\n  \n  \"a\": 1, \n  \"b\": \"http://x\"\n}\n",
            "comments out, the string's // kept, the trailing comma dropped"
        );
        assert_eq!(as_plain_json("[1, // last\n]"), "[1 \n]");
        assert_eq!(as_plain_json("{\"a\\\"//\": 1}"), "{\"a\\\"//\": 1}");
        let m = merged(&[
            ("{", true),
            ("  // settings", true),
            ("  \"a\": 1", true),
            ("  \"c\": 2", false),
            ("}", true),
        ]);
        let file = TextFile::parse("{\n  // settings\n  \"a\": 1\n}\n");
        let out = still_json("tsconfig.json", &file, m).expect("mended");
        assert_eq!(out.lines[2].text, "  \"a\": 1,");
        let broken = merged(&[("{", true), ("  // settings", true), ("  \"a\": [", true)]);
        assert!(still_json("tsconfig.json", &file, broken).is_err());
    }
}
