//! Whether a file's text still reads as its language where a reply's edits could break it
//! beyond what their placements show: JSON and TOML that parsed before, and Python's block
//! structure (indentation that opens no block, a block with no body, a dedent to no open
//! block). The edits of one file are judged together, on the text before and after: only an
//! error the edits bring is theirs (a file broken already stays the user's business).
//!
//! Not for: braces (`execute::whole_file`), placing or verifying one edit (`core::verify`).

use crate::core::strings::Strings;

/// Why the edits turned `before` into an `after` that no longer reads as the language of
/// `path` (by its extension), or `None`.
pub fn broken_by(path: &str, before: &str, after: &str) -> Option<String> {
    match crate::core::paths::extension(path).as_str() {
        "json" => {
            let parse = |t: &str| serde_json::from_str::<serde_json::Value>(t).err();
            let err = parse(after)?;
            parse(before).is_none().then(|| format!("the file no longer parses as JSON ({err})"))
        }
        "toml" => {
            let parse = |t: &str| t.parse::<toml::Table>().err();
            let err = parse(after)?;
            let first = err.to_string().lines().next().unwrap_or_default().to_string();
            parse(before).is_none().then(|| format!("the file no longer parses as TOML ({first})"))
        }
        // Lines left at a depth no block has: where a placement leaves a body it cut short.
        // (A block left with no body is what a reply deleting a class's one method writes:
        // plain to see, and the model's to answer for.)
        "py" | "pyi" => {
            let misplaced = |text: &str| {
                python_block_errors(text.lines()).into_iter().filter(|(_, e)| *e != NO_BODY)
            };
            if misplaced(before).next().is_some() {
                return None;
            }
            let (line, what) = misplaced(after).next()?;
            Some(format!("line {}: {what} (Python's blocks were sound before)", line + 1))
        }
        _ => None,
    }
}

const NO_BODY: &str = "a block opened by `:` has no indented body";

/// The lines where Python's block structure breaks, and how: a logical line indented past the
/// open blocks where no `:` opened one, a `:` whose next line is not deeper, a dedent to a
/// depth no open block has. Lines inside strings spanning lines, inside brackets, and after a
/// `\` continue the line before, and say nothing.
pub fn python_block_errors<'a>(
    lines: impl IntoIterator<Item = &'a str>,
) -> Vec<(usize, &'static str)> {
    let mut errors = Vec::new();
    let mut strings = Strings::new();
    let mut stack = vec![0usize];
    let mut depth: i64 = 0;
    let mut continued = false;
    let mut opens_block = false;
    for (i, line) in lines.into_iter().enumerate() {
        let mut last = None;
        let mut net = 0i64;
        let in_string = strings
            .scan(line, |c| {
                match c {
                    b'(' | b'[' | b'{' => net += 1,
                    b')' | b']' | b'}' => net -= 1,
                    _ => {}
                }
                if !c.is_ascii_whitespace() {
                    last = Some(c);
                }
            })
            .is_some();
        let body = line.trim_start();
        let starts = !in_string && depth <= 0 && !continued;
        // A `#` right before a word is code to the scanner (it is not Python's only language).
        let comment = body.starts_with('#');
        if starts && !body.is_empty() && !comment {
            let cols = columns(line);
            let top = *stack.last().expect("the module level is never popped");
            if opens_block {
                if cols > top {
                    stack.push(cols);
                } else {
                    errors.push((i, NO_BODY));
                }
            } else if cols > top {
                errors.push((i, "a line is indented though no block opens above it"));
            } else if cols < top {
                while stack.last().is_some_and(|&t| t > cols) {
                    stack.pop();
                }
                if stack.last() != Some(&cols) {
                    errors.push((i, "a line dedents to a depth no open block has"));
                    stack.push(cols);
                }
            }
            opens_block = false;
        }
        if !body.is_empty() && !comment || !starts {
            depth = (depth + net).max(0);
            continued = !in_string && line.trim_end().ends_with('\\');
            if depth == 0 && !continued && last.is_some() {
                opens_block = last == Some(b':');
            }
        }
    }
    errors
}

/// A line's indentation in columns, tabs to the next multiple of 8 as Python reads them.
pub(crate) fn columns(line: &str) -> usize {
    line.chars()
        .take_while(|c| c.is_whitespace())
        .fold(0, |n, c| if c == '\t' { n / 8 * 8 + 8 } else { n + 1 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(text: &str) -> Vec<usize> {
        python_block_errors(text.lines()).into_iter().map(|(l, _)| l + 1).collect()
    }

    #[test]
    fn sound_python_has_no_block_errors() {
        let text = "import os\n\n\nclass A:\n    \"\"\"Doc.\n\n  indented text\n    \"\"\"\n\n    def f(self, x,\n            y):\n        if x:  # note\n            return [\n        1,\n    ]\n        s = x + \\\n    y\n        d = {'a': 1}\n        return d\n# a comment\n  # another\n\n\ndef g():\n    pass\n";
        assert_eq!(errors(text), Vec::<usize>::new());
    }

    #[test]
    fn each_break_is_found_where_it_is() {
        assert_eq!(errors("def f():\n    return 1\n        x = 2\n"), [3], "unexpected indent");
        assert_eq!(errors("if x:\ny = 1\n"), [2], "no body");
        assert_eq!(errors("if x:\n        a\n    b\n"), [3], "dedent to no block");
        // A lambda's or a slice's colon inside brackets opens no block.
        assert_eq!(errors("f = (lambda x:\n     x)\ny = a[1:\n  2]\nz = 1\n"), Vec::<usize>::new());
    }

    #[test]
    fn only_errors_the_edits_bring_are_theirs() {
        let before = "def f(x):\n    if not x:\n        return 0\n    return x\n";
        // The function's head replaced, its old body left after the new one.
        let after = "def f(x, default=0):\n    if not x:\n        return default\n    return x\n        return 0\n    return x\n";
        let why = broken_by("m.py", before, after).unwrap();
        assert!(why.starts_with("line 5:"), "{why}");
        assert_eq!(broken_by("m.py", after, after), None, "already broken: not the edits'");
        assert_eq!(broken_by("m.txt", before, after), None);
    }

    #[test]
    fn json_and_toml_that_parsed_must_still_parse() {
        let before = "{\n  \"scripts\": {\n    \"test\": \"vitest run\"\n  }\n}\n";
        let after = "{\n  \"scripts\": {\n    \"test\": \"vitest run\",\n    \"watch\": \"vitest\",\n  }\n}\n";
        assert!(broken_by("package.json", before, after).unwrap().contains("JSON"));
        // JSON with comments (tsconfig.json) never parsed: nothing to keep.
        let commented = format!("// settings\n{before}");
        assert_eq!(broken_by("tsconfig.json", &commented, &format!("// x\n{after}")), None);
        let toml_before = "[tool.black]\nline-length = 100\n";
        let toml_after = "[tool.black]\nline-length = 100\n[tool.black]\n";
        assert!(broken_by("pyproject.toml", toml_before, toml_after).unwrap().contains("TOML"));
        assert_eq!(
            broken_by("pyproject.toml", toml_before, "[tool.black]\nline-length = 90\n"),
            None
        );
    }
}
