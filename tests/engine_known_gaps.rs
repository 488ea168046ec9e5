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
