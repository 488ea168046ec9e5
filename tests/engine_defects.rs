//! The engine against the mistakes models make, through the pure API (`plan` + `execute`) on small
//! Python, Rust and JavaScript projects: every forgiven defect yields exactly the intended file
//! text, every refusal says why, and unsafe paths are never planned for reading.
//!
//! Scenarios are written for this file; each test asserts whole file texts, not fragments.

mod common;

use common::{edited, run, search_replace, udiff};
use redline::core::edit::{Hunk, HunkLine, LineKind};
use redline::core::execute::run as execute;
use redline::core::file::{FileWrite, Source};
use redline::core::locate::{RefusalKind, locate};
use redline::core::plan::{FormatChoice, plan};
use redline::core::report::Status;
use std::collections::BTreeMap;

const APP_PY: &str = r#""""Inventory service."""
import json
from pathlib import Path


def load_items(path):
    # Read the inventory file.
    with open(path) as fh:
        data = json.load(fh)
    return data["items"]


def total_price(items):
    total = 0
    for item in items:
        total += item["price"] * item["qty"]
    return total


def save_report(items, out):
    lines = [f"{i['name']}: {i['qty']}" for i in items]
    Path(out).write_text("\n".join(lines))
    return len(lines)
"#;

const CACHE_RS: &str = r#"use std::collections::HashMap;

pub struct Cache {
    entries: HashMap<String, u64>,
    hits: u64,
}

impl Cache {
    pub fn new() -> Self {
        Cache { entries: HashMap::new(), hits: 0 }
    }

    pub fn get(&mut self, key: &str) -> Option<u64> {
        let value = self.entries.get(key).copied();
        if value.is_some() {
            self.hits += 1;
        }
        value
    }

    pub fn insert(&mut self, key: &str, value: u64) {
        self.entries.insert(key.to_string(), value);
    }
}
"#;

/// Tab-indented, as much JavaScript is.
const CART_JS: &str = "const TAX_RATE = 0.2;\n\nfunction subtotal(cart) {\n\tlet sum = 0;\n\tfor (const line of cart.lines) {\n\t\tsum += line.price * line.qty;\n\t}\n\treturn sum;\n}\n\nfunction withTax(amount) {\n\treturn amount * (1 + TAX_RATE);\n}\n\nmodule.exports = { subtotal, withTax };\n";

fn py() -> Vec<(&'static str, &'static str)> {
    vec![("src/app.py", APP_PY), ("src/cache.rs", CACHE_RS), ("web/cart.js", CART_JS)]
}

fn assert_all_applied(r: &common::Run) {
    assert!(r.outcome.all_placed(), "not all applied: {:#?}", r.reports());
    assert!(!r.reports().is_empty(), "no edits found");
}

// ---------------------------------------------------------------------------------------------
// Forgiven defects
// ---------------------------------------------------------------------------------------------

#[test]
fn a_diff_missing_a_comment_context_line_keeps_the_comment() {
    let reply = udiff(
        "src/app.py",
        "@@ -6,5 +6,5 @@\n def load_items(path):\n     with open(path) as fh:\n-        data = json.load(fh)\n+        data = json.load(fh) or {}\n     return data[\"items\"]\n",
    );
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    let want =
        edited(APP_PY, "        data = json.load(fh)\n", "        data = json.load(fh) or {}\n");
    assert_eq!(r.text("src/app.py"), want);
}

#[test]
fn a_search_missing_the_blank_lines_between_functions_keeps_them() {
    let reply = search_replace(
        "src/app.py",
        "    return data[\"items\"]\ndef total_price(items):\n    total = 0\n",
        "    return data[\"items\"]\ndef total_price(items, discount=0):\n    total = 0\n",
    );
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    let want = edited(APP_PY, "def total_price(items):\n", "def total_price(items, discount=0):\n");
    assert_eq!(r.text("src/app.py"), want);
}

#[test]
fn a_search_with_an_invented_blank_line_adds_no_blank_line() {
    let reply = search_replace(
        "src/app.py",
        "    total = 0\n\n    for item in items:\n",
        "    total = 0\n\n    for item in items or []:\n",
    );
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    let want = edited(APP_PY, "    for item in items:\n", "    for item in items or []:\n");
    assert_eq!(r.text("src/app.py"), want);
}

#[test]
fn a_diff_line_whose_plus_was_forgotten_is_added() {
    let reply = udiff(
        "src/app.py",
        "@@ -13,5 +13,7 @@\n def total_price(items):\n     total = 0\n     for item in items:\n+        if item.get(\"skip\"):\n             continue\n         total += item[\"price\"] * item[\"qty\"]\n     return total\n",
    );
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    let want = edited(
        APP_PY,
        "    for item in items:\n",
        "    for item in items:\n        if item.get(\"skip\"):\n            continue\n",
    );
    assert_eq!(r.text("src/app.py"), want);
}

#[test]
fn a_uniformly_dedented_rust_hunk_lands_at_the_files_indentation() {
    let reply = udiff(
        "src/cache.rs",
        "@@ -21,3 +21,3 @@\n pub fn insert(&mut self, key: &str, value: u64) {\n-    self.entries.insert(key.to_string(), value);\n+    self.entries.insert(key.to_lowercase(), value);\n }\n",
    );
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    let want = edited(
        CACHE_RS,
        "        self.entries.insert(key.to_string(), value);\n",
        "        self.entries.insert(key.to_lowercase(), value);\n",
    );
    assert_eq!(r.text("src/cache.rs"), want);
}

#[test]
fn a_uniformly_over_indented_python_block_lands_at_the_files_indentation() {
    let reply = search_replace(
        "src/app.py",
        "        def save_report(items, out):\n            lines = [f\"{i['name']}: {i['qty']}\" for i in items]\n",
        "        def save_report(items, out):\n            items = sorted(items, key=lambda i: i['name'])\n            lines = [f\"{i['name']}: {i['qty']}\" for i in items]\n",
    );
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    let want = edited(
        APP_PY,
        "def save_report(items, out):\n",
        "def save_report(items, out):\n    items = sorted(items, key=lambda i: i['name'])\n",
    );
    assert_eq!(r.text("src/app.py"), want);
}

#[test]
fn spaces_written_for_a_tab_indented_file_become_tabs() {
    let reply = search_replace(
        "web/cart.js",
        "function withTax(amount) {\n    return amount * (1 + TAX_RATE);\n}\n",
        "function withTax(amount) {\n    if (amount < 0) {\n        throw new Error(\"negative\");\n    }\n    return amount * (1 + TAX_RATE);\n}\n",
    );
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    let want = edited(
        CART_JS,
        "function withTax(amount) {\n",
        "function withTax(amount) {\n\tif (amount < 0) {\n\t\tthrow new Error(\"negative\");\n\t}\n",
    );
    assert_eq!(r.text("web/cart.js"), want);
}

#[test]
fn tabs_written_for_a_space_indented_file_become_spaces() {
    let reply = search_replace(
        "src/app.py",
        "def total_price(items):\n\ttotal = 0\n\tfor item in items:\n\t\ttotal += item[\"price\"] * item[\"qty\"]\n",
        "def total_price(items):\n\ttotal = 0\n\tfor item in items:\n\t\tif item[\"qty\"] > 0:\n\t\t\ttotal += item[\"price\"] * item[\"qty\"]\n",
    );
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    let want = edited(
        APP_PY,
        "        total += item[\"price\"] * item[\"qty\"]\n",
        "        if item[\"qty\"] > 0:\n            total += item[\"price\"] * item[\"qty\"]\n",
    );
    assert_eq!(r.text("src/app.py"), want);
}

#[test]
fn trailing_whitespace_in_the_old_text_is_forgiven_and_not_written() {
    let reply = search_replace(
        "src/app.py",
        "def save_report(items, out):   \n    lines = [f\"{i['name']}: {i['qty']}\" for i in items]\t\n    Path(out).write_text(\"\\n\".join(lines))  \n",
        "def save_report(items, out):   \n    lines = [f\"{i['name']}: {i['qty']}\" for i in items]\t\n    Path(out).write_text(\"\\n\".join(lines) + \"\\n\")\n",
    );
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    let want = edited(
        APP_PY,
        "    Path(out).write_text(\"\\n\".join(lines))\n",
        "    Path(out).write_text(\"\\n\".join(lines) + \"\\n\")\n",
    );
    assert_eq!(r.text("src/app.py"), want);
}

#[test]
fn trailing_whitespace_in_the_file_is_kept_on_context_lines() {
    let file = APP_PY.replace("    total = 0\n", "    total = 0    \n");
    let reply = search_replace(
        "src/app.py",
        "    total = 0\n    for item in items:\n",
        "    total = 0\n    for item in list(items):\n",
    );
    let r = run(&[("src/app.py", &file)], &reply);
    assert_all_applied(&r);
    let want = edited(&file, "    for item in items:\n", "    for item in list(items):\n");
    assert_eq!(r.text("src/app.py"), want);
}

#[test]
fn a_crlf_file_answered_in_lf_stays_crlf() {
    let file = APP_PY.replace('\n', "\r\n");
    let reply = udiff(
        "src/app.py",
        "@@ -13,5 +13,6 @@\n def total_price(items):\n     total = 0\n+    items = items or []\n     for item in items:\n         total += item[\"price\"] * item[\"qty\"]\n",
    );
    let r = run(&[("src/app.py", &file)], &reply);
    assert_all_applied(&r);
    let want = edited(&file, "    total = 0\r\n", "    total = 0\r\n    items = items or []\r\n");
    assert_eq!(r.text("src/app.py"), want);
}

#[test]
fn a_copy_error_in_a_context_line_keeps_the_files_own_line() {
    let reply = udiff(
        "src/app.py",
        "@@ -6,5 +6,5 @@\n def load_items(path):\n     # Read the inventroy file\n     with open(path) as fh:\n-        data = json.load(fh)\n+        data = json.loads(fh.read())\n     return data[\"items\"]\n",
    );
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    let want =
        edited(APP_PY, "        data = json.load(fh)\n", "        data = json.loads(fh.read())\n");
    assert_eq!(r.text("src/app.py"), want);
    assert!(r.text("src/app.py").contains("    # Read the inventory file.\n"));
}

#[test]
fn dots_in_the_old_text_stand_for_unchanged_lines() {
    let reply = search_replace(
        "src/app.py",
        "def save_report(items, out):\n    ...\n    return len(lines)\n",
        "def save_report(items, out):\n    ...\n    return len(lines) if lines else 0\n",
    );
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    let want = edited(APP_PY, "    return len(lines)\n", "    return len(lines) if lines else 0\n");
    assert_eq!(r.text("src/app.py"), want);
}

#[test]
fn a_hash_dots_comment_in_a_diff_stands_for_unchanged_lines() {
    let reply = udiff(
        "src/app.py",
        "@@\n def load_items(path):\n     # ...\n-    return data[\"items\"]\n+    return data.get(\"items\", [])\n",
    );
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    let want =
        edited(APP_PY, "    return data[\"items\"]\n", "    return data.get(\"items\", [])\n");
    assert_eq!(r.text("src/app.py"), want);
}

#[test]
fn a_lazy_python_listing_has_its_placeholders_restored() {
    let reply = "src/app.py\n```python\n\"\"\"Inventory service.\"\"\"\nimport json\nfrom pathlib import Path\n\n\n# ... existing code ...\n\n\ndef total_price(items):\n    total = 0\n    for item in items:\n        total += item[\"price\"] * item[\"qty\"]\n    return round(total, 2)\n\n\n# rest of the code here\n```\n";
    let r = run(&py(), reply);
    assert_all_applied(&r);
    let want = edited(APP_PY, "    return total\n", "    return round(total, 2)\n");
    assert_eq!(r.text("src/app.py"), want);
}

#[test]
fn a_lazy_javascript_listing_has_its_placeholders_restored() {
    let reply = "web/cart.js\n```js\nconst TAX_RATE = 0.25;\n\n// ... existing code ...\n\nmodule.exports = { subtotal, withTax };\n```\n";
    let r = run(&py(), reply);
    assert_all_applied(&r);
    let want = edited(CART_JS, "const TAX_RATE = 0.2;\n", "const TAX_RATE = 0.25;\n");
    assert_eq!(r.text("web/cart.js"), want);
}

#[test]
fn two_changes_fused_into_one_hunk_without_a_new_header_both_apply() {
    let reply = udiff(
        "src/app.py",
        "@@ -6,12 +6,12 @@\n def load_items(path):\n     # Read the inventory file.\n-    with open(path) as fh:\n+    with open(path, encoding=\"utf-8\") as fh:\n         data = json.load(fh)\n def total_price(items):\n     total = 0\n-    for item in items:\n+    for item in items or []:\n         total += item[\"price\"] * item[\"qty\"]\n",
    );
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    let want = edited(
        &edited(
            APP_PY,
            "    with open(path) as fh:\n",
            "    with open(path, encoding=\"utf-8\") as fh:\n",
        ),
        "    for item in items:\n",
        "    for item in items or []:\n",
    );
    assert_eq!(r.text("src/app.py"), want);
}

#[test]
fn hunks_out_of_file_order_all_apply() {
    let reply = udiff(
        "src/cache.rs",
        "@@ -21,3 +21,4 @@\n     pub fn insert(&mut self, key: &str, value: u64) {\n+        self.hits = 0;\n         self.entries.insert(key.to_string(), value);\n     }\n@@ -3,4 +3,4 @@\n pub struct Cache {\n     entries: HashMap<String, u64>,\n-    hits: u64,\n+    pub hits: u64,\n }\n",
    );
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    let want = edited(
        &edited(CACHE_RS, "    hits: u64,\n", "    pub hits: u64,\n"),
        "        self.entries.insert(key.to_string(), value);\n",
        "        self.hits = 0;\n        self.entries.insert(key.to_string(), value);\n",
    );
    assert_eq!(r.text("src/cache.rs"), want);
}

#[test]
fn a_reply_cut_off_mid_block_applies_the_complete_edits_and_refuses_the_cut_one() {
    let reply = "src/app.py\n```python\n<<<<<<< SEARCH\n    total = 0\n=======\n    total = 0.0\n>>>>>>> REPLACE\n```\n\nsrc/app.py\n```python\n<<<<<<< SEARCH\n    return len(lines)\n=======\n    return len(li";
    let r = run(&py(), reply);
    assert_eq!(r.applied(), 1, "{:#?}", r.reports());
    let reason = r.refusal_reason();
    assert!(reason.contains("ended inside"), "{reason}");
    assert_eq!(r.text("src/app.py"), edited(APP_PY, "    total = 0\n", "    total = 0.0\n"));
}

#[test]
fn wrong_line_numbers_in_the_header_do_not_matter() {
    let reply = udiff(
        "src/app.py",
        "@@ -97,4 +97,4 @@\n def save_report(items, out):\n-    lines = [f\"{i['name']}: {i['qty']}\" for i in items]\n+    lines = [f\"{i['name']} x{i['qty']}\" for i in items]\n     Path(out).write_text(\"\\n\".join(lines))\n",
    );
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    let want = edited(APP_PY, "f\"{i['name']}: {i['qty']}\"", "f\"{i['name']} x{i['qty']}\"");
    assert_eq!(r.text("src/app.py"), want);
}

#[test]
fn a_git_diff_with_prefixes_and_dev_null_headers_modifies_creates_and_deletes() {
    let files = [("src/app.py", APP_PY), ("src/old.py", "x = 1\ny = 2\n")];
    let reply = "```diff\ndiff --git a/src/app.py b/src/app.py\nindex 3b18e51..a1c2d3e 100644\n--- a/src/app.py\n+++ b/src/app.py\n@@ -1,3 +1,3 @@\n \"\"\"Inventory service.\"\"\"\n-import json\n+import json  # noqa\n from pathlib import Path\n--- /dev/null\n+++ b/src/util.py\n@@ -0,0 +1,2 @@\n+def clamp(x, lo, hi):\n+    return max(lo, min(x, hi))\n--- a/src/old.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x = 1\n-y = 2\n```\n";
    let r = run(&files, reply);
    assert_all_applied(&r);
    assert_eq!(r.reports().len(), 3);
    assert_eq!(r.text("src/app.py"), edited(APP_PY, "import json\n", "import json  # noqa\n"));
    assert_eq!(r.text("src/util.py"), "def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n");
    assert!(!r.files.contains_key("src/old.py"), "src/old.py should be deleted");
    assert!(
        r.outcome.writes.contains(&FileWrite::Delete { path: "src/old.py".into() }),
        "{:?}",
        r.outcome.writes
    );
}

#[test]
fn decorated_path_lines_are_cleaned() {
    let want = edited(APP_PY, "    total = 0\n", "    total = 0.0\n");
    for decorated in ["**src/app.py**", "`src/app.py`", "./src/app.py", "# src/app.py:"] {
        let reply = format!(
            "Here is the change.\n\n{decorated}\n```python\n<<<<<<< SEARCH\n    total = 0\n=======\n    total = 0.0\n>>>>>>> REPLACE\n```\n"
        );
        let r = run(&py(), &reply);
        assert_all_applied(&r);
        assert_eq!(r.reports()[0].path, "src/app.py", "{decorated}");
        assert_eq!(r.text("src/app.py"), want, "{decorated}");
    }
}

#[test]
fn a_path_in_the_fence_info_string_is_used() {
    let want = edited(APP_PY, "    total = 0\n", "    total = 0.0\n");
    for info in ["python src/app.py", "src/app.py", "python title=\"src/app.py\""] {
        let reply = format!(
            "```{info}\n<<<<<<< SEARCH\n    total = 0\n=======\n    total = 0.0\n>>>>>>> REPLACE\n```\n"
        );
        let r = run(&py(), &reply);
        assert_all_applied(&r);
        assert_eq!(r.text("src/app.py"), want, "{info}");
    }
}

#[test]
fn a_bare_basename_resolves_when_unique_and_is_refused_when_not() {
    let reply = search_replace("app.py", "    total = 0\n", "    total = 0.0\n");
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    assert_eq!(r.reports()[0].path, "src/app.py");
    assert_eq!(r.text("src/app.py"), edited(APP_PY, "    total = 0\n", "    total = 0.0\n"));

    let two = [("src/app.py", APP_PY), ("tools/app.py", APP_PY)];
    let r = run(&two, &reply);
    let reason = r.refusal_reason();
    assert!(reason.contains("several project files"), "{reason}");
    assert!(r.outcome.writes.is_empty());
}

#[test]
fn a_four_backtick_fence_holds_a_markdown_file_with_its_own_fences() {
    let guide = "# Guide\n\nBuild it:\n\n```sh\nmake build\n```\n\nThen run it.\n";
    let reply = "docs/guide.md\n````markdown\n<<<<<<< SEARCH\n```sh\nmake build\n```\n=======\n```sh\ncargo build --release\n```\n>>>>>>> REPLACE\n````\n";
    let r = run(&[("docs/guide.md", guide)], reply);
    assert_all_applied(&r);
    assert_eq!(r.text("docs/guide.md"), edited(guide, "make build", "cargo build --release"));
}

#[test]
fn a_whole_markdown_file_with_inner_fences_in_a_four_backtick_fence() {
    let guide = "# Guide\n\nBuild it:\n\n```sh\nmake build\n```\n\nThen run it.\n";
    let new = "# Guide\n\nBuild it:\n\n```sh\ncargo build\n```\n\nThen run it:\n\n```sh\ncargo run\n```\n";
    let reply = format!("docs/guide.md\n````markdown\n{new}````\n");
    let r = run(&[("docs/guide.md", guide)], &reply);
    assert_all_applied(&r);
    assert_eq!(r.text("docs/guide.md"), new);
}

#[test]
fn original_updated_blocks_apply() {
    let reply = "src/cache.rs\n```rust\n<<<<<<< ORIGINAL\n        Cache { entries: HashMap::new(), hits: 0 }\n=======\n        Cache { entries: HashMap::with_capacity(64), hits: 0 }\n>>>>>>> UPDATED\n```\n";
    let r = run(&py(), reply);
    assert_all_applied(&r);
    let want = edited(CACHE_RS, "HashMap::new()", "HashMap::with_capacity(64)");
    assert_eq!(r.text("src/cache.rs"), want);
}

#[test]
fn a_divider_line_inside_the_new_text_is_kept() {
    let doc = "Intro\n\nUsage\n-----\n\nRun it.\n";
    let reply = search_replace("docs/index.rst", "Intro\n", "Inventory\n=======\n\nIntro\n");
    let r = run(&[("docs/index.rst", doc)], &reply);
    assert_all_applied(&r);
    assert_eq!(
        r.text("docs/index.rst"),
        "Inventory\n=======\n\nIntro\n\nUsage\n-----\n\nRun it.\n"
    );
}

#[test]
fn an_empty_search_creates_a_new_file() {
    let reply = search_replace("src/units.py", "", "GRAM = 1\nKILO = 1000 * GRAM\n");
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    assert_eq!(r.text("src/units.py"), "GRAM = 1\nKILO = 1000 * GRAM\n");
    assert_eq!(r.text("src/app.py"), APP_PY);
}

#[test]
fn a_bom_and_a_missing_final_newline_are_preserved() {
    let file = format!("\u{feff}{}", CART_JS.trim_end_matches('\n'));
    let reply = search_replace(
        "web/cart.js",
        "module.exports = { subtotal, withTax };\n",
        "module.exports = { subtotal, withTax, TAX_RATE };\n",
    );
    let r = run(&[("web/cart.js", &file)], &reply);
    assert_all_applied(&r);
    let want = edited(&file, "withTax };", "withTax, TAX_RATE };");
    assert_eq!(r.text("web/cart.js"), want);
    assert!(r.text("web/cart.js").starts_with('\u{feff}'));
    assert!(!r.text("web/cart.js").ends_with('\n'));
}

#[test]
fn a_second_block_on_the_same_file_sees_the_first_ones_result() {
    let reply = format!(
        "{}{}",
        search_replace("src/app.py", "    total = 0\n", "    total = 0.0\n"),
        search_replace(
            "src/app.py",
            "    total = 0.0\n    for item in items:\n",
            "    total = 0.0\n    for item in sorted(items, key=str):\n",
        ),
    );
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    let want = edited(
        APP_PY,
        "    total = 0\n    for item in items:\n",
        "    total = 0.0\n    for item in sorted(items, key=str):\n",
    );
    assert_eq!(r.text("src/app.py"), want);
}

#[test]
fn an_unfenced_diff_between_prose_lines_applies() {
    let reply = "Here is the fix:\n\n--- a/src/cache.rs\n+++ b/src/cache.rs\n@@ -13,3 +13,3 @@\n     pub fn get(&mut self, key: &str) -> Option<u64> {\n-        let value = self.entries.get(key).copied();\n+        let value = self.entries.get(key).cloned();\n         if value.is_some() {\n\nThat is all.\n";
    let r = run(&py(), reply);
    assert_all_applied(&r);
    assert_eq!(r.text("src/cache.rs"), edited(CACHE_RS, ".copied()", ".cloned()"));
}

#[test]
fn a_no_newline_marker_keeps_the_file_without_a_final_newline() {
    let file = CART_JS.trim_end_matches('\n');
    let reply = udiff(
        "web/cart.js",
        "@@ -14,2 +14,2 @@\n \n-module.exports = { subtotal, withTax };\n\\ No newline at end of file\n+module.exports = { subtotal, withTax, TAX_RATE };\n\\ No newline at end of file\n",
    );
    let r = run(&[("web/cart.js", file)], &reply);
    assert_all_applied(&r);
    assert_eq!(r.text("web/cart.js"), edited(file, "withTax };", "withTax, TAX_RATE };"));
}

#[test]
fn a_whole_file_listing_for_a_crlf_file_stays_crlf() {
    let file = CART_JS.replace('\n', "\r\n");
    let listing = CART_JS.replace("0.2;", "0.21;");
    let reply = format!("web/cart.js\n```js\n{listing}```\n");
    let r = run(&[("web/cart.js", &file)], &reply);
    assert_all_applied(&r);
    assert_eq!(r.text("web/cart.js"), listing.replace('\n', "\r\n"));
}

#[test]
fn a_later_hunks_header_counts_the_lines_an_earlier_hunk_added() {
    let reply = udiff(
        "src/app.py",
        "@@ -6,3 +6,5 @@\n def load_items(path):\n+    if not path:\n+        return []\n     # Read the inventory file.\n     with open(path) as fh:\n@@ -20,3 +22,3 @@\n def save_report(items, out):\n     lines = [f\"{i['name']}: {i['qty']}\" for i in items]\n-    Path(out).write_text(\"\\n\".join(lines))\n+    Path(out).write_text(\"\\n\".join(lines), encoding=\"utf-8\")\n",
    );
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    let want = edited(
        &edited(
            APP_PY,
            "def load_items(path):\n",
            "def load_items(path):\n    if not path:\n        return []\n",
        ),
        "    Path(out).write_text(\"\\n\".join(lines))\n",
        "    Path(out).write_text(\"\\n\".join(lines), encoding=\"utf-8\")\n",
    );
    assert_eq!(r.text("src/app.py"), want);
}

#[test]
fn an_empty_replace_deletes_a_whole_function() {
    let reply = search_replace(
        "src/app.py",
        "\n\ndef save_report(items, out):\n    lines = [f\"{i['name']}: {i['qty']}\" for i in items]\n    Path(out).write_text(\"\\n\".join(lines))\n    return len(lines)\n",
        "",
    );
    let r = run(&py(), &reply);
    assert_all_applied(&r);
    let cut = APP_PY.find("\n\ndef save_report").expect("in the file");
    assert_eq!(r.text("src/app.py"), &APP_PY[..cut]);
}

// ---------------------------------------------------------------------------------------------
// Refusals
// ---------------------------------------------------------------------------------------------

fn hunk(lines: &[(LineKind, &str)], marked: bool) -> Hunk {
    Hunk {
        lines: lines.iter().map(|(k, t)| HunkLine::new(*k, *t)).collect(),
        old_start_hint: None,
        marked,
        pick: None,
        section: None,
        other_split: None,
    }
}

fn file_lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

use LineKind::{Add, Context, Remove};

fn assert_untouched(r: &common::Run) {
    assert!(r.outcome.writes.is_empty(), "unexpected writes: {:?}", r.outcome.writes);
}

#[test]
fn hallucinated_old_text_is_refused_as_not_found() {
    let reply = search_replace(
        "src/app.py",
        "def apply_discount(order, code):\n    rate = DISCOUNTS.get(code, 0)\n    return order.total * (1 - rate)\n",
        "def apply_discount(order, code):\n    rate = DISCOUNTS.get(code.upper(), 0)\n    return order.total * (1 - rate)\n",
    );
    let r = run(&py(), &reply);
    let reason = r.refusal_reason();
    assert!(reason.contains("not in the file"), "{reason}");
    assert_untouched(&r);
    let h = hunk(
        &[
            (Context, "def apply_discount(order, code):"),
            (Remove, "    rate = DISCOUNTS.get(code, 0)"),
            (Add, "    rate = DISCOUNTS.get(code.upper(), 0)"),
        ],
        false,
    );
    let err = locate(&h, &file_lines(APP_PY), 0).expect_err("must refuse");
    assert_eq!(err.kind, RefusalKind::NotFound);
}

#[test]
fn old_text_under_half_similar_is_refused_as_too_weak() {
    // One real line among five invented ones.
    let h = hunk(
        &[
            (Context, "def total_price(items):"),
            (Context, "    validate_inventory_schema(items, strict=True)"),
            (Context, "    currency_converter = CurrencyConverter(base='EUR')"),
            (Remove, "    accumulated_value_in_cents = Decimal(0)"),
            (Add, "    accumulated_value_in_cents = 0"),
            (Context, "    warehouse_lookup_table = build_lookup(items)"),
            (Context, "    logger.debug('computing totals for %d items', len(items))"),
        ],
        false,
    );
    let err = locate(&h, &file_lines(APP_PY), 0).expect_err("must refuse");
    assert!(
        matches!(err.kind, RefusalKind::TooWeak | RefusalKind::RemovedNotFound),
        "{:?}: {}",
        err.kind,
        err.message
    );
    // Without a removed line the only possible verdict is weakness.
    let h = hunk(
        &[
            (Context, "def total_price(items):"),
            (Context, "    validate_inventory_schema(items, strict=True)"),
            (Context, "    currency_converter = CurrencyConverter(base='EUR')"),
            (Add, "    accumulated_value_in_cents = 0"),
            (Context, "    warehouse_lookup_table = build_lookup(items)"),
            (Context, "    logger.debug('computing totals for %d items', len(items))"),
        ],
        false,
    );
    let err = locate(&h, &file_lines(APP_PY), 0).expect_err("must refuse");
    assert_eq!(err.kind, RefusalKind::TooWeak, "{}", err.message);
    let search = "def total_price(items):\n    validate_inventory_schema(items, strict=True)\n    currency_converter = CurrencyConverter(base='EUR')\n    warehouse_lookup_table = build_lookup(items)\n    logger.debug('computing totals for %d items', len(items))\n";
    let replace = "def total_price(items):\n    validate_inventory_schema(items, strict=True)\n    currency_converter = CurrencyConverter(base='EUR')\n    accumulated_value_in_cents = 0\n    warehouse_lookup_table = build_lookup(items)\n    logger.debug('computing totals for %d items', len(items))\n";
    let r = run(&py(), &search_replace("src/app.py", search, replace));
    let reason = r.refusal_reason();
    assert!(reason.contains("similar"), "{reason}");
    assert_untouched(&r);
}

const TWINS_JS: &str = "function findUser(db, id) {\n\tconst user = db.users.get(id);\n\tif (!user) {\n\t\treturn null;\n\t}\n\treturn user;\n}\n\nfunction findOrder(db, id) {\n\tconst order = db.orders.get(id);\n\tif (!order) {\n\t\treturn null;\n\t}\n\treturn order;\n}\n\nfunction audit(db) {\n\tif (!db) {\n\t\treturn null;\n\t}\n\tif (!db) {\n\t\treturn null;\n\t}\n\treturn db.log;\n}\n";

#[test]
fn two_equal_places_with_nothing_to_tell_them_apart_are_refused_as_ambiguous() {
    let reply = search_replace(
        "web/find.js",
        "\tif (!db) {\n\t\treturn null;\n\t}\n",
        "\tif (!db) {\n\t\tthrow new Error(\"no db\");\n\t}\n",
    );
    let r = run(&[("web/find.js", TWINS_JS)], &reply);
    let reason = r.refusal_reason();
    assert!(reason.contains("places"), "{reason}");
    assert_untouched(&r);
    let h = hunk(
        &[
            (Context, "\tif (!db) {"),
            (Remove, "\t\treturn null;"),
            (Add, "\t\tthrow new Error(\"no db\");"),
            (Context, "\t}"),
        ],
        false,
    );
    let err = locate(&h, &file_lines(TWINS_JS), 0).expect_err("must refuse");
    assert_eq!(err.kind, RefusalKind::Ambiguous);
}

#[test]
fn the_same_lines_with_a_telling_context_line_are_not_ambiguous() {
    let reply = search_replace(
        "web/find.js",
        "\tconst order = db.orders.get(id);\n\tif (!order) {\n\t\treturn null;\n",
        "\tconst order = db.orders.get(id);\n\tif (!order) {\n\t\treturn undefined;\n",
    );
    let r = run(&[("web/find.js", TWINS_JS)], &reply);
    assert_all_applied(&r);
    let want = edited(
        TWINS_JS,
        "\tif (!order) {\n\t\treturn null;\n",
        "\tif (!order) {\n\t\treturn undefined;\n",
    );
    assert_eq!(r.text("web/find.js"), want);
}

#[test]
fn a_removed_line_that_is_not_in_the_file_is_refused() {
    let reply = udiff(
        "src/app.py",
        "@@ -13,5 +13,4 @@\n def total_price(items):\n     total = 0\n-    print(\"computing total for\", len(items), \"items\")\n     for item in items:\n         total += item[\"price\"] * item[\"qty\"]\n",
    );
    let r = run(&py(), &reply);
    let reason = r.refusal_reason();
    assert!(reason.contains("removes is not in the file"), "{reason}");
    assert_untouched(&r);
    let h = hunk(
        &[
            (Context, "def total_price(items):"),
            (Context, "    total = 0"),
            (Remove, "    print(\"computing total for\", len(items), \"items\")"),
            (Context, "    for item in items:"),
            (Context, "        total += item[\"price\"] * item[\"qty\"]"),
        ],
        true,
    );
    let err = locate(&h, &file_lines(APP_PY), 0).expect_err("must refuse");
    assert_eq!(err.kind, RefusalKind::RemovedNotFound);
}

#[test]
fn new_lines_beside_an_unanchored_elision_are_refused() {
    let h = hunk(
        &[
            (Add, "import logging"),
            (Context, "..."),
            (Context, "def total_price(items):"),
            (Context, "    total = 0"),
        ],
        true,
    );
    let err = locate(&h, &file_lines(APP_PY), 0).expect_err("must refuse");
    assert_eq!(err.kind, RefusalKind::UnanchoredElision, "{}", err.message);
    let reply = udiff(
        "src/app.py",
        "@@\n+import logging\n ...\n def total_price(items):\n     total = 0\n",
    );
    let r = run(&py(), &reply);
    let reason = r.refusal_reason();
    assert!(reason.contains("..."), "{reason}");
    assert_untouched(&r);
}

#[test]
fn old_text_of_only_dots_is_refused_as_empty() {
    let h = hunk(&[(Context, "..."), (Add, "LIMIT = 10")], true);
    let err = locate(&h, &file_lines(APP_PY), 0).expect_err("must refuse");
    assert_eq!(err.kind, RefusalKind::EmptyOldText);
    let reply = search_replace("src/app.py", "...\n", "...\nLIMIT = 10\n");
    let r = run(&py(), &reply);
    let reason = r.refusal_reason();
    assert!(reason.contains("no lines to search for"), "{reason}");
    assert_untouched(&r);
}

#[test]
fn a_lazy_listing_with_new_code_between_two_placeholders_is_refused() {
    let reply = "src/app.py\n```python\n# ... existing code ...\n\ndef tax(amount):\n    return amount * 0.2\n\n# ... existing code ...\n```\n";
    let r = run(&py(), reply);
    let reason = r.refusal_reason();
    assert_eq!(r.refused()[0].path, "src/app.py");
    assert!(reason.contains("between two placeholders"), "{reason}");
    assert_untouched(&r);
}

#[test]
fn a_whole_file_excerpt_that_would_delete_most_of_the_file_is_refused() {
    let mut big = String::from(APP_PY);
    for k in 0..6 {
        big.push_str(&format!("\n\ndef helper_{k}(x):\n    y = x + {k}\n    return y * {k}\n"));
    }
    let reply = "src/app.py\n```python\ndef total_price(items):\n    total = 0\n    for item in items:\n        total += item[\"price\"] * item[\"qty\"]\n    return round(total, 2)\n```\n";
    let r = run(&[("src/app.py", &big)], reply);
    let reason = r.refusal_reason();
    assert!(reason.contains("excerpt"), "{reason}");
    assert_untouched(&r);
}

#[test]
fn an_empty_search_on_an_existing_file_is_refused() {
    let reply = search_replace("src/app.py", "", "print('hello')\n");
    let r = run(&py(), &reply);
    let reason = r.refusal_reason();
    assert!(reason.contains("already exists"), "{reason}");
    assert_untouched(&r);
}

#[test]
fn a_block_without_a_path_is_refused() {
    let reply = "Change this:\n\n```\n<<<<<<< SEARCH\n    total = 0\n=======\n    total = 0.0\n>>>>>>> REPLACE\n```\n";
    let r = run(&py(), reply);
    let reason = r.refusal_reason();
    assert!(reason.contains("path"), "{reason}");
    assert_untouched(&r);
}

#[test]
fn an_unclosed_block_is_refused() {
    let reply =
        "src/app.py\n```python\n<<<<<<< SEARCH\n    total = 0\n=======\n    total = 0.0\n```\n";
    let r = run(&py(), reply);
    assert_eq!(r.applied(), 0, "{:#?}", r.reports());
    let reason = r.refusal_reason();
    assert!(reason.contains("ended inside"), "{reason}");
    assert_untouched(&r);
}

#[test]
fn a_refusal_does_not_stop_the_other_edits() {
    let reply = format!(
        "{}\n{}\n{}",
        search_replace("src/app.py", "    total = 0\n", "    total = 0.0\n"),
        search_replace("src/app.py", "    raise NotImplementedError\n", "    pass\n"),
        search_replace("src/cache.rs", "    hits: u64,\n", "    misses: u64,\n    hits: u64,\n"),
    );
    let r = run(&py(), &reply);
    let statuses: Vec<Status> = r.reports().iter().map(|x| x.status).collect();
    assert_eq!(statuses, vec![Status::Placed, Status::Refused, Status::Placed]);
    assert_eq!(r.text("src/app.py"), edited(APP_PY, "    total = 0\n", "    total = 0.0\n"));
    assert_eq!(
        r.text("src/cache.rs"),
        edited(CACHE_RS, "    hits: u64,\n", "    misses: u64,\n    hits: u64,\n")
    );
}

#[test]
fn an_unusable_source_is_refused_without_a_write() {
    let reply = search_replace("src/app.py", "    total = 0\n", "    total = 0.0\n");
    let project = vec!["src/app.py".to_string()];
    let p = plan(&reply, FormatChoice::Auto, &project);
    let mut sources = BTreeMap::new();
    sources.insert("src/app.py".to_string(), Source::Unusable("binary file".into()));
    let out = execute(&p, &sources);
    assert_eq!(out.reports.len(), 1);
    assert_eq!(out.reports[0].status, Status::Refused);
    assert!(out.reports[0].reason.as_deref().unwrap_or("").contains("binary"));
    assert!(out.writes.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Path safety at the core level
// ---------------------------------------------------------------------------------------------

fn assert_path_refused(path: &str, why: &str) {
    for reply in [
        search_replace(path, "x = 1\n", "x = 2\n"),
        search_replace(path, "", "x = 2\n"),
        format!("```diff\n--- a/{path}\n+++ b/{path}\n@@\n-x = 1\n+x = 2\n```\n"),
    ] {
        let project = vec!["src/app.py".to_string()];
        let p = plan(&reply, FormatChoice::Auto, &project);
        assert!(
            p.paths_to_read().iter().all(|r| r == "src/app.py"),
            "{path}: planned to read {:?}",
            p.paths_to_read()
        );
        let out = execute(&p, &BTreeMap::new());
        assert!(out.writes.is_empty(), "{path}: {:?}", out.writes);
        assert_eq!(out.reports.len(), 1, "{path}: {:#?}", out.reports);
        assert_eq!(out.reports[0].status, Status::Refused);
        let reason = out.reports[0].reason.clone().unwrap_or_default();
        assert!(reason.contains(why), "{path}: {reason}");
    }
}

#[test]
fn absolute_paths_are_refused_before_reading() {
    assert_path_refused("/etc/passwd", "absolute");
    assert_path_refused("/work/src/app.py", "absolute");
}

#[test]
fn dot_dot_paths_are_refused_before_reading() {
    assert_path_refused("../outside.py", "..");
    assert_path_refused("src/../../outside.py", "..");
}

#[test]
fn git_folder_paths_are_refused_before_reading_whatever_their_case() {
    assert_path_refused(".git/config", ".git");
    assert_path_refused(".GIT/hooks/pre-commit", ".git");
    assert_path_refused("sub/.Git/HEAD", ".git");
}
