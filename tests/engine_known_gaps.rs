//! Engine cases that fail today, each with the behaviour it should have. Left out of the default
//! test run so CI stays green; run them with `cargo test --features known-gaps --test
//! engine_known_gaps`. When the engine is fixed, move the case to `engine_defects.rs`.
#![cfg(feature = "known-gaps")]

mod common;

use common::{edited, run};
use redline::core::plan::{FileWrite, Status};

const APP_PY: &str = "import json\nfrom pathlib import Path\n\n\ndef load(path):\n    return json.loads(Path(path).read_text())\n";

/// Real `git diff` output names a new or deleted file with a `diff --git` line, a
/// `new file mode` / `deleted file mode` line, then `--- /dev/null` / `+++ /dev/null`. The parser
/// finishes the `diff --git` file when the `---`/`+++` header arrives, so each such file yields
/// two edits: an extra empty create (harmless by luck) and an extra delete, refused as
/// "cannot delete, no such file" — the reply is reported as partly refused.
#[test]
fn git_new_file_and_deleted_file_sections_are_one_edit_each() {
    let files = [("src/app.py", APP_PY), ("src/old.py", "x = 1\ny = 2\n")];
    let reply = "```diff\ndiff --git a/src/app.py b/src/app.py\nindex 3b18e51..a1c2d3e 100644\n--- a/src/app.py\n+++ b/src/app.py\n@@ -1,2 +1,2 @@\n-import json\n+import json  # noqa\n from pathlib import Path\ndiff --git a/src/util.py b/src/util.py\nnew file mode 100644\nindex 0000000..e69de29\n--- /dev/null\n+++ b/src/util.py\n@@ -0,0 +1,2 @@\n+def clamp(x, lo, hi):\n+    return max(lo, min(x, hi))\ndiff --git a/src/old.py b/src/old.py\ndeleted file mode 100644\nindex e69de29..0000000\n--- a/src/old.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x = 1\n-y = 2\n```\n";
    let r = run(&files, reply);
    let summary: Vec<(String, Status)> =
        r.reports().iter().map(|x| (x.path.clone(), x.status)).collect();
    assert_eq!(
        summary,
        vec![
            ("src/app.py".to_string(), Status::Applied),
            ("src/util.py".to_string(), Status::Applied),
            ("src/old.py".to_string(), Status::Applied),
        ],
        "{:#?}",
        r.reports()
    );
    assert_eq!(r.text("src/app.py"), edited(APP_PY, "import json\n", "import json  # noqa\n"));
    assert_eq!(r.text("src/util.py"), "def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n");
    assert!(r.outcome.writes.contains(&FileWrite::Delete { path: "src/old.py".into() }));
}

/// A context-free hunk (`diff -U0`, which models also write) whose removed line occurs three
/// times. The header names the third place. The locator keeps only the best candidate of a window
/// and the best on each side of it, so the third `pass` is never a candidate; the header's line
/// number (trusted within 3 lines) then picks the second `pass`, 3 lines above the one the header
/// names, and the wrong line is silently rewritten. Expected: the named line changes, or a
/// refusal; never another line.
#[test]
fn a_context_free_hunk_never_rewrites_a_line_the_header_does_not_name() {
    let file = "def a():\n    pass\n\n\ndef b():\n    pass\n\n\n    pass\n";
    let reply = "```diff\n--- a/f.py\n+++ b/f.py\n@@ -9 +9 @@\n-    pass\n+    return 3\n```\n";
    let r = run(&[("f.py", file)], reply);
    if r.applied() == 1 {
        assert_eq!(
            r.text("f.py"),
            "def a():\n    pass\n\n\ndef b():\n    pass\n\n\n    return 3\n",
            "{:#?}",
            r.reports()
        );
    } else {
        assert!(r.outcome.writes.is_empty());
    }
}

mod context_free {
    //! The property behind the case above: a `diff -U0` of a random edit gives the edited file or
    //! a refusal. It fails within a few hundred cases today (repeated lines such as `pass`).

    use proptest::prelude::*;
    use redline::core::plan::FileWrite;
    use similar::TextDiff;

    fn line(n: u16, shape: u8) -> String {
        match shape % 4 {
            0 => "    pass".to_string(),
            1 => String::new(),
            2 => format!("    value_{n} = compute({n})"),
            _ => format!("def handler_{n}(request):"),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn a_context_free_diff_gives_the_edited_file_or_a_refusal(
            old in proptest::collection::vec((0u16..500, any::<u8>()), 5..40),
            at in any::<usize>(),
            n in 0u16..500,
        ) {
            let old: Vec<String> = old.into_iter().map(|(n, s)| line(n, s)).collect();
            let at = at % old.len();
            let mut new = old.clone();
            new[at] = format!("    inserted_{n} = fresh()");
            let old_text: String = old.iter().map(|l| format!("{l}\n")).collect();
            let new_text: String = new.iter().map(|l| format!("{l}\n")).collect();
            let diff = TextDiff::from_lines(&old_text, &new_text)
                .unified_diff()
                .context_radius(0)
                .header("a/f.py", "b/f.py")
                .to_string();
            let r = super::run(&[("f.py", &old_text)], &format!("```diff\n{diff}```\n"));
            match r.outcome.writes.as_slice() {
                [] => {}
                [FileWrite::Write { text, .. }] => prop_assert_eq!(text, &new_text, "{}", diff),
                other => prop_assert!(false, "unexpected writes {:?}", other),
            }
        }
    }
}
