//! Generators and helpers shared by the property tests (`engine_props.rs`,
//! `engine_regressions.rs`): replies made of marker soups, code files, random edits of them.

use std::collections::BTreeMap;

use proptest::collection::vec;
use proptest::prelude::*;
use redline::core::execute::run as execute;
use redline::core::file::{FileWrite, Source};
use redline::core::plan::{FormatChoice, plan};
use similar::TextDiff;

/// How often a generated file's lines repeat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lines {
    /// Every line distinct.
    Unique,
    /// Some shapes repeat (blank lines, `return None`, `pass`), anywhere.
    Repeating,
    /// Some shapes repeat, but never two equal non-blank lines (indentation aside) side by side.
    Spaced,
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

/// A line a reply might hold: a marker of some format, a path, or short random text.
pub fn marker_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec![
            "```", "````", "```python", "```diff", "```x.py", "~~~", "<<<<<<< SEARCH", "=======",
            ">>>>>>> REPLACE", "<<<<<<< ORIGINAL", ">>>>>>> UPDATED", "--- a/x.py", "+++ b/x.py",
            "--- /dev/null", "+++ /dev/null", "diff --git a/x.py b/x.py", "new file mode 100644",
            "deleted file mode 100644", "index 1234..5678", "@@ -1,2 +1,2 @@", "@@", "@@ -0,0 +1 @@",
            "+x = 1", "-y = 2", " z = 3", "+", "-", " ", "...", "# ...", "// ... existing code ...",
            "# rest of the code here", "x.py", "src/app.py", "**src/app.py**", "`x.py`",
            "# x.py:", "", "\\ No newline at end of file", "y = 2", "z = 3", "x = 1",
        ])
        .prop_map(str::to_string),
        1 => "[ -~\t\u{e9}\u{20ac}\u{feff}]{0,16}",
    ]
}

/// A reply made of marker lines with mixed line endings.
pub fn soup() -> impl Strategy<Value = String> {
    vec((marker_line(), prop::bool::weighted(0.2)), 0..48).prop_map(|lines| {
        let mut out = String::new();
        for (l, crlf) in lines {
            out.push_str(&l);
            out.push_str(if crlf { "\r\n" } else { "\n" });
        }
        out
    })
}

/// One code line. With `unique`, the line is made distinct by its index `i`; otherwise a few
/// shapes repeat (blank lines, `return None`, `pass`) as in real code.
pub fn render_line(i: usize, indent: u8, shape: u8, n: u16, unique: bool) -> String {
    let ind = "    ".repeat(indent as usize % 3);
    let id = if unique { format!("{i}_{n}") } else { n.to_string() };
    match shape % 9 {
        0 if !unique => String::new(),
        1 if !unique => format!("{ind}return None"),
        2 if !unique => "    pass".to_string(),
        0 | 3 => format!("{ind}value_{id} = compute({n}, step={})", n % 7),
        1 | 4 => format!("{ind}if flag_{id} and count > {n}:"),
        2 | 5 => format!("{ind}def handler_{id}(request):"),
        6 => format!("{ind}# adjust the total for case {id}"),
        7 => format!("{ind}results.append(item_{id})"),
        _ => format!("{ind}return total_{id} * {}", n % 13),
    }
}

pub fn code_lines(kind: Lines, len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<String>> {
    vec((any::<u8>(), any::<u8>(), 0u16..3000), len).prop_map(move |v| {
        let mut lines: Vec<String> = v
            .into_iter()
            .enumerate()
            .map(|(i, (ind, shape, n))| render_line(i, ind, shape, n, kind == Lines::Unique))
            .collect();
        if kind == Lines::Spaced {
            lines.dedup_by(|b, a| !a.trim().is_empty() && a.trim() == b.trim());
        }
        lines
    })
}

/// A file and an edit of it: `(old lines, new lines)`.
pub fn file_and_edit(kind: Lines) -> impl Strategy<Value = (Vec<String>, Vec<String>)> {
    (code_lines(kind, 5..60), any::<usize>(), 0usize..4, vec((any::<u8>(), 0u16..3000), 0..4))
        .prop_map(|(old, at, del, ins)| {
            let start = at % (old.len() + 1);
            let del = del.min(old.len() - start);
            let mut new = old.clone();
            let added: Vec<String> = ins
                .into_iter()
                .enumerate()
                .map(|(k, (ind, n))| {
                    format!("{}inserted_{k}_{n} = fresh({n})", "    ".repeat(ind as usize % 3))
                })
                .collect();
            new.splice(start..start + del, added);
            (old, new)
        })
        .prop_filter("the edit changes something", |(old, new)| old != new)
}

/// A reply holding the unified diff from `old` to `new` (`f.rb`), with `radius` lines of context.
/// (Named `.rb`, not `.py`: the generated lines sit at random depths, which is no Python, whose
/// block checks, `core::parses` and `execute::takeover`, rightly refuse edits that leave lines
/// at depths no block has.)
pub fn udiff_reply(old: &str, new: &str, radius: usize) -> String {
    let diff = similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(radius)
        .header("a/f.rb", "b/f.rb")
        .to_string();
    format!("```diff\n{diff}```\n")
}

pub fn joined(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// `cases` cases, or `PROPTEST_CASES` when set (for a longer hunt: `PROPTEST_CASES=5000`).
pub fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(cases);
    // `cargo test` runs the same cases on every machine, so that what passes here passes in
    // CI; hunting for new ones takes a seed of one's own (`PROPTEST_RNG_SEED=$RANDOM`), and
    // each case a hunt finds becomes a test in `engine_regressions.rs`.
    let rng_seed = match std::env::var("PROPTEST_RNG_SEED") {
        Ok(_) => ProptestConfig::default().rng_seed,
        Err(_) => proptest::test_runner::RngSeed::Fixed(0x005E_ED0F_4ED1),
    };
    ProptestConfig { cases, failure_persistence: None, rng_seed, ..ProptestConfig::default() }
}

/// Run a reply against one file `f.rb` and return the file's final text, or `None` when the edit
/// was refused (checking that a refusal writes nothing).
pub fn outcome_on(file: &str, reply: &str) -> Result<Option<String>, TestCaseError> {
    let project = vec!["f.rb".to_string()];
    let p = plan(reply, FormatChoice::Auto, &project);
    let mut sources = BTreeMap::new();
    sources.insert("f.rb".to_string(), Source::Text(file.to_string()));
    let out = execute(&p, &sources);
    prop_assert!(!out.reports.is_empty(), "no edit read from {reply:?}");
    if out.all_placed() {
        prop_assert_eq!(out.writes.len(), 1);
        match &out.writes[0] {
            FileWrite::Write { path, text } => {
                prop_assert_eq!(path, "f.rb");
                Ok(Some(text.clone()))
            }
            FileWrite::Delete { .. } => Err(TestCaseError::fail("an edit deleted the file")),
        }
    } else {
        prop_assert!(out.writes.is_empty(), "refused, yet wrote {:?}", out.writes);
        Ok(None)
    }
}

/// The single hunk similar finds between `old` and `new` with this much context:
/// `(old range, new range)`.
pub fn hunk_ranges(
    old: &str,
    new: &str,
    radius: usize,
) -> Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> {
    let diff = TextDiff::from_lines(old, new);
    diff.grouped_ops(radius)
        .iter()
        .map(|group| {
            let first = group.first().expect("non-empty group");
            let last = group.last().expect("non-empty group");
            (
                first.old_range().start..last.old_range().end,
                first.new_range().start..last.new_range().end,
            )
        })
        .collect()
}
