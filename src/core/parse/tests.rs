use super::*;

fn edits(reply: &str) -> Vec<Edit> {
    parse_reply(reply, ParseOptions::default())
        .into_iter()
        .filter_map(|e| match e {
            Event::Edit(e) => Some(e),
            Event::Problem(_) => None,
        })
        .collect()
}

fn problems(reply: &str) -> Vec<Problem> {
    parse_reply(reply, ParseOptions::default())
        .into_iter()
        .filter_map(|e| match e {
            Event::Problem(p) => Some(p),
            Event::Edit(_) => None,
        })
        .collect()
}

fn hunk(e: &Edit) -> &Hunk {
    match &e.change {
        Change::Modify { hunk } => hunk,
        other => panic!("not a hunk: {other:?}"),
    }
}

#[test]
fn search_replace_with_path_line_and_fence() {
    let r = "Change it:\n\nsrc/app.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n";
    let e = edits(r);
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].path, "src/app.py");
    assert_eq!(hunk(&e[0]).old_text(), "x = 1\n");
    assert_eq!(hunk(&e[0]).new_text(), "x = 2\n");
}

#[test]
fn divider_inside_replacement_does_not_cut_it() {
    let r = "doc.rst\n```\n<<<<<<< SEARCH\nTitle\n=======\nTitle\n=======\n\nmore\n>>>>>>> REPLACE\n```\n";
    let e = edits(r);
    assert_eq!(hunk(&e[0]).new_text(), "Title\n=======\n\nmore\n");
}

#[test]
fn block_without_path_inherits_the_previous_one() {
    let r = "a.py\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE\n```\n";
    let e = edits(r);
    assert_eq!(e.len(), 2);
    assert_eq!(e[1].path, "a.py");
    assert_eq!(e[1].path_source, PathSource::PathLine, "the fence's own path line");
}

#[test]
fn original_updated_and_long_markers() {
    let r = "x.py\n<<<<<<<<< ORIGINAL\na\n=========\nb\n>>>>>>>>> UPDATED\n";
    assert_eq!(edits(r).len(), 1);
}

#[test]
fn empty_search_creates() {
    let r = "new.py\n```\n<<<<<<< SEARCH\n=======\nprint(1)\n>>>>>>> REPLACE\n```\n";
    assert!(matches!(&edits(r)[0].change, Change::Create { content } if content == "print(1)\n"));
}

#[test]
fn unclosed_block_is_a_problem_not_an_edit() {
    let r = "x.py\n```\n<<<<<<< SEARCH\na\n=======\nb\n";
    assert!(edits(r).is_empty());
    assert_eq!(problems(r).len(), 1);
}

#[test]
fn missing_path_is_a_problem() {
    let r = "Here:\n\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n";
    assert!(edits(r).is_empty());
    assert!(problems(r)[0].reason.contains("path"));
}

#[test]
fn fenced_udiff_with_prefixes_and_hints() {
    let r = "```diff\n--- a/src/x.py\n+++ b/src/x.py\n@@ -3,2 +3,2 @@\n a\n-b\n+c\n@@ -10,1 +10,2 @@\n d\n+e\n```\n";
    let e = edits(r);
    assert_eq!(e.len(), 2);
    assert_eq!(e[0].path, "src/x.py");
    assert_eq!(hunk(&e[0]).old_start_hint, Some(3));
    assert_eq!(hunk(&e[1]).new_text(), "d\ne\n");
}

#[test]
fn unfenced_udiff_ends_at_prose() {
    let r = "Here:\n--- x.py\n+++ x.py\n@@\n a\n-b\n+c\n\nThat is all.\n";
    let e = edits(r);
    assert_eq!(e.len(), 1);
    assert_eq!(hunk(&e[0]).lines.len(), 3);
}

#[test]
fn removal_of_a_line_starting_with_dashes_is_not_a_header() {
    let r =
        "```diff\n--- q.sql\n+++ q.sql\n@@\n--- old comment\n+-- new comment\n select 1;\n```\n";
    let e = edits(r);
    assert_eq!(e.len(), 1);
    assert_eq!(hunk(&e[0]).old_text(), "-- old comment\nselect 1;\n");
}

#[test]
fn dev_null_creates_and_deletes() {
    let r = "```diff\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n```\n";
    let e = edits(r);
    assert_eq!(e.len(), 2);
    assert!(matches!(&e[0].change, Change::Create { content } if content == "one\ntwo\n"));
    assert_eq!(e[0].path, "new.txt");
    assert_eq!(e[1].change, Change::Delete { old: Some("gone\n".into()) });
    assert_eq!(e[1].path, "old.txt");
}

#[test]
fn git_diff_headers() {
    let r = "diff --git a/x.rs b/x.rs\nindex 123..456 100644\n--- a/x.rs\n+++ b/x.rs\n@@ -1 +1 @@\n-a\n+b\n";
    let e = edits(r);
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].path, "x.rs");
}

#[test]
fn whole_file_with_path_line_and_extra_example_block() {
    let r = "src/a.py\n```python\nprint(1)\n```\n\nRun it:\n\n```bash\npython src/a.py\n```\n";
    let e = edits(r);
    assert_eq!(e.len(), 1);
    assert!(matches!(&e[0].change, Change::Replace { content } if content == "print(1)\n"));
}

#[test]
fn whole_file_named_in_prose() {
    let r = "Here is the new `a.txt`:\n\n```\nafter\n```\n";
    let e = edits(r);
    assert_eq!(e[0].path, "a.txt");
    assert_eq!(e[0].path_source, PathSource::Prose);
}

#[test]
fn nested_fences_inside_a_listing() {
    let r = "README.md\n```markdown\n# T\n```bash\nls\n```\nend\n```\n";
    let e = edits(r);
    assert!(
        matches!(&e[0].change, Change::Replace { content } if content == "# T\n```bash\nls\n```\nend\n")
    );
    let r = "README.md\n````\n```\nx\n```\n````\n";
    assert!(
        matches!(&edits(r)[0].change, Change::Replace { content } if content == "```\nx\n```\n")
    );
}

#[test]
fn path_in_fence_info() {
    let r = "```python title=\"src/b.py\"\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n";
    assert_eq!(edits(r)[0].path, "src/b.py");
}

#[test]
fn cut_off_fenced_diff_does_not_apply_its_last_hunk() {
    let r = "```diff\n--- a/x\n+++ b/x\n@@\n a\n-b\n+c\n@@\n d\n-e\n";
    let e = edits(r);
    assert_eq!(e.len(), 1);
    assert_eq!(problems(r).len(), 1);
}

#[test]
fn splitting_lines_anywhere_gives_the_same_events() {
    let r = "a.py\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n```diff\n--- a/b.py\n+++ b/b.py\n@@\n x\n-y\n+z\n```\n";
    let whole = parse_reply(r, ParseOptions::default());
    let mut p = Parser::new(ParseOptions::default());
    let mut got = Vec::new();
    for l in r.lines() {
        got.extend(p.push_line(l));
    }
    got.extend(p.finish());
    assert_eq!(whole, got);
    assert_eq!(whole.len(), 2);
}

#[test]
fn a_delete_carries_the_lines_it_shows() {
    let r = "```diff\n--- a/old.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a = 1\n-b = 2\n```\n";
    assert_eq!(edits(r)[0].change, Change::Delete { old: Some("a = 1\nb = 2\n".into()) });
    let r = "```diff\n--- a/old.py\n+++ /dev/null\n```\n";
    assert_eq!(edits(r)[0].change, Change::Delete { old: None });
}

#[test]
fn prose_before_output_or_a_snippet_does_not_make_a_file() {
    for r in [
        "When you run `main.py` you will see:\n\n```\nHello\n```\n",
        "When you run `main.py` you will see:\n\n```console\n$ python main.py\nHello\n```\n",
        "Running `main.py` gives:\n```text\nHello\n```\n",
        "Change `hello.py` like this:\n\n```python\ndef hello():\n    pass\n```\n",
        "In `app.py` the loop is slow. Replace it:\n\n```python\nfor x in y:\n    pass\n```\n",
    ] {
        assert!(edits(r).is_empty(), "{r}");
    }
    // A sentence presenting a new version of the file names it even in a plain fence (aider's
    // whole-file replies come so).
    let plain = "Here is the updated `main.py`:\n\n```\nprint(1)\n```\n";
    assert_eq!(edits(plain)[0].path, "main.py");
    let r = "Here is the complete updated `src/main.py` file:\n\n```python\nprint(1)\n```\n";
    assert_eq!(edits(r)[0].path, "src/main.py");
}

#[test]
fn hunk_counts_say_when_an_unfenced_diff_was_cut_off() {
    let cut = "--- a/x.py\n+++ b/x.py\n@@ -1,4 +1,4 @@\n a\n-b\n+c\n";
    assert!(edits(cut).is_empty());
    assert!(problems(cut)[0].reason.contains("cut off"), "{:?}", problems(cut));
    let whole = "--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n";
    assert_eq!(edits(whole).len(), 1);
    // Prose after an unfenced hunk that is short of its counts: lines were lost.
    let lost = "--- a/x.py\n+++ b/x.py\n@@ -1,5 +1,5 @@\n a\n-b\n+c\nd\n e\n";
    assert!(edits(lost).is_empty());
    assert_eq!(problems(lost).len(), 1);
    // A hunk the model finished (its fence closed, another header follows) is miscounted, not
    // cut: the locator places it by its content.
    let miscounted = "```diff\n--- a/x.py\n+++ b/x.py\n@@ -1,9 +1,9 @@\n a\n-b\n+c\n```\n";
    assert_eq!(edits(miscounted).len(), 1);
    let then_header =
        "--- a/x.py\n+++ b/x.py\n@@ -1,9 +1,9 @@\n a\n-b\n+c\n@@ -20 +20 @@\n-d\n+e\n";
    assert_eq!(edits(then_header).len(), 2);
    // A new file cut off is not created with half its lines.
    let new = "--- /dev/null\n+++ b/n.py\n@@ -0,0 +1,3 @@\n+one\n+two\n";
    assert!(edits(new).is_empty());
    assert_eq!(problems(new).len(), 1);
}

#[test]
fn aider_source_fences_parse_like_backticks() {
    let r = "src/app.py\n<source python>\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n</source>\n";
    let e = edits(r);
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].path, "src/app.py");
    assert_eq!(hunk(&e[0]).new_text(), "x = 2\n");
    let r = "notes/a.txt\n<source>\nhello\n</source>\n\nDone.\n";
    assert!(matches!(&edits(r)[0].change, Change::Replace { content } if content == "hello\n"));
    assert!(edits("</source>\nsrc/a.py\n").is_empty());
}

#[test]
fn route_group_paths_are_paths() {
    let r = "app/[locale]/page.tsx\n```tsx\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n";
    assert_eq!(edits(r)[0].path, "app/[locale]/page.tsx");
    let r = "src/routes/(auth)/login.svelte\n```svelte\n<p>x</p>\n```\n";
    assert_eq!(edits(r)[0].path, "src/routes/(auth)/login.svelte");
}

#[test]
fn a_doubled_divider_and_a_bom_are_not_written() {
    let r = "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n=======\n>>>>>>> REPLACE\n";
    assert_eq!(hunk(&edits(r)[0]).new_text(), "x = 2\n");
    let r = "a.rst\n<<<<<<< SEARCH\nTitle\n=======\nTitle\n\nNew\n=======\n>>>>>>> REPLACE\n";
    assert_eq!(hunk(&edits(r)[0]).new_text(), "Title\n\nNew\n=======\n", "an underline");
    let r = "a.py\n<<<<<<< SEARCH\n\u{feff}x = 1\n=======\n\u{feff}x = 2\n>>>>>>> REPLACE\n";
    assert_eq!(hunk(&edits(r)[0]).old_text(), "x = 1\n");
    assert_eq!(hunk(&edits(r)[0]).new_text(), "x = 2\n");
    let r = "```diff\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-\u{feff}x = 1\n+\u{feff}x = 2\n```\n";
    assert_eq!(hunk(&edits(r)[0]).new_text(), "x = 2\n");
}

#[test]
fn a_block_whose_text_holds_underlines_divides_at_its_middle_divider() {
    let block =
        |inner: &str| format!("doc.py\n```python\n<<<<<<< SEARCH\n{inner}>>>>>>> REPLACE\n```\n");
    // Three `=======` lines: the old and new text each hold one underline.
    let e = edits(&block("Title\n=======\nold\n=======\nTitle\n=======\nnew\n"));
    assert_eq!(e.len(), 1);
    let h = hunk(&e[0]);
    let old: Vec<&str> = h.old_lines().collect();
    let new: Vec<&str> = h.new_lines().collect();
    assert_eq!(old, ["Title", "=======", "old"]);
    assert_eq!(new, ["Title", "=======", "new"]);
    // A doubled divider at the end is not counted.
    let doubled = edits(&block("old\n=======\nnew\n=======\n"));
    assert_eq!(hunk(&doubled[0]).new_lines().collect::<Vec<_>>(), ["new"]);
}

#[test]
fn a_divider_written_twice_is_one_divider() {
    for between in ["", "\n"] {
        let reply = format!(
            "a.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\n{between}=======\nx = 2\n>>>>>>> REPLACE\n```\n"
        );
        let e = edits(&reply);
        let h = hunk(&e[0]);
        assert_eq!(h.old_lines().collect::<Vec<_>>(), ["x = 1"], "{between:?}");
        assert_eq!(h.new_lines().collect::<Vec<_>>(), ["x = 2"], "{between:?}");
    }
}

#[test]
fn in_a_document_the_second_divider_may_underline_the_old_title() {
    let reply =
        "N.md\n```markdown\n<<<<<<< SEARCH\nNotes\n=====\n=======\n# Notes\n>>>>>>> REPLACE\n```\n";
    let e = edits(reply);
    let h = hunk(&e[0]);
    assert_eq!(h.old_lines().collect::<Vec<_>>(), ["Notes", "====="]);
    assert_eq!(h.new_lines().collect::<Vec<_>>(), ["# Notes"]);
}

#[test]
fn a_byte_order_mark_before_the_reply_is_no_part_of_its_first_path() {
    let e = edits(
        "\u{feff}docs/a.md\n```markdown\n<<<<<<< SEARCH\n=======\nhi\n>>>>>>> REPLACE\n```\n",
    );
    assert_eq!(e[0].path, "docs/a.md");
}

#[test]
fn a_listing_keeps_no_byte_order_mark_of_its_own() {
    let e = edits("a.cs\n```csharp\n\u{feff}using System;\n```\n");
    assert!(matches!(&e[0].change, Change::Replace { content } if content == "using System;\n"));
}

#[test]
fn a_prose_path_with_a_space_is_the_projects_file() {
    let known = |paths: &[&str]| ParseOptions {
        known_paths: paths.iter().map(|p| p.to_string()).collect(),
        ..ParseOptions::default()
    };
    let listing = "```markdown\n# Guide\n```\n";
    for line in ["Here is the updated `docs/User Guide.md`:", "Updated docs/User Guide.md:"] {
        let reply = format!("{line}\n\n{listing}");
        let with = parse_reply(&reply, known(&["docs/User Guide.md", "Guide.md"]));
        let paths: Vec<&str> = (with.iter())
            .filter_map(|e| if let Event::Edit(e) = e { Some(e.path.as_str()) } else { None })
            .collect();
        assert_eq!(paths, ["docs/User Guide.md"], "{line}");
        // Without that file, the last word is never taken for the file named.
        let without = parse_reply(&reply, known(&["Guide.md"]));
        assert!(
            !without.iter().any(|e| matches!(e, Event::Edit(e) if e.path == "Guide.md")),
            "{line}"
        );
    }
}

#[test]
fn a_replace_written_as_a_diff_of_the_search_is_its_plus_and_context_lines() {
    let r = "w.py\n```python\n<<<<<<< SEARCH\n    a = 1\n    b = 2\n=======\n     a = 1\n-    b = 2\n+    b = 3\n>>>>>>> REPLACE\n```\n";
    let e = edits(r);
    assert_eq!(hunk(&e[0]).old_text(), "    a = 1\n    b = 2\n");
    assert_eq!(hunk(&e[0]).new_text(), "    a = 1\n    b = 3\n");
    // `-` lines that are not the SEARCH's: the REPLACE is the text as written (a Markdown
    // list, say).
    let r = "n.md\n```\n<<<<<<< SEARCH\n- one\n=======\n- two\n+ three\n>>>>>>> REPLACE\n```\n";
    assert_eq!(hunk(&edits(r)[0]).new_text(), "- two\n+ three\n");
}

#[test]
fn a_fence_indented_in_a_list_item_gives_its_lines_without_that_indentation() {
    let r =
        "1. Here is the complete `a.py`:\n\n   ```python\n   def f():\n       return 1\n   ```\n";
    let e = edits(r);
    assert_eq!(e.len(), 1);
    match &e[0].change {
        Change::Replace { content } => assert_eq!(content, "def f():\n    return 1\n"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_rename_in_a_git_diff_is_reported_by_name_never_dropped() {
    let r = "```diff\ndiff --git a/lib/old.py b/lib/new.py\nsimilarity index 100%\nrename from lib/old.py\nrename to lib/new.py\n```\n";
    let p = problems(r);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].reason.contains("lib/old.py to lib/new.py"), "{}", p[0].reason);
    assert!(edits(r).is_empty());
    // With changes too: its hunks are not edits of the new name (another file could have it).
    let changed = "```diff\ndiff --git a/lib/old.py b/lib/new.py\nsimilarity index 90%\nrename from lib/old.py\nrename to lib/new.py\nindex 1111111..2222222 100644\n--- a/lib/old.py\n+++ b/lib/new.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 10\n```\n";
    let p = problems(changed);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].reason.contains("lib/old.py to lib/new.py"), "{}", p[0].reason);
    assert!(edits(changed).is_empty(), "{:?}", edits(changed));
}

#[test]
fn a_hunk_of_context_alone_whose_counts_say_lines_change_is_reported() {
    let r = "```diff\n--- a/n.py\n+++ b/n.py\n@@ -1,3 +1,4 @@\n def c():\n     print(\"c\")\n     z = 3\n```\n";
    let p = problems(r);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].reason.contains("lost its `+` or `-`"), "{}", p[0].reason);
    assert_eq!(p[0].path.as_deref(), Some("n.py"));
    // Counts that agree with a hunk of context: nothing to do, nothing to say.
    assert!(problems(&r.replace("+1,4", "+1,3")).is_empty());
}

#[test]
fn a_symbolic_link_or_submodule_in_a_git_diff_is_reported_never_written_as_text() {
    let link = "diff --git a/lib/evil.py b/lib/evil.py\nnew file mode 120000\nindex 0000000..0ca6e2c\n--- /dev/null\n+++ b/lib/evil.py\n@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n";
    let retarget = "diff --git a/l b/l\nindex 1111111..2222222 120000\n--- a/l\n+++ b/l\n@@ -1 +1 @@\n-a.py\n+b.py\n";
    let module = "diff --git a/vendor/x b/vendor/x\nnew file mode 160000\nindex 0000000..abcdef0\n--- /dev/null\n+++ b/vendor/x\n@@ -0,0 +1 @@\n+Subproject commit abcdef0\n";
    let regular = "diff --git a/a.py b/a.py\nindex 1111111..2222222 100644\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n";
    // A binary file's change, as git writes it with and without `--binary`: never dropped
    // without a word (the run said every edit applied).
    let patch = "diff --git a/logo.png b/logo.png\nindex 3b18e51..0000000\nGIT binary patch\nliteral 0\nHcmV?d00001\n\nliteral 12\nzcmeAS@N?(olHy`uVBq!ia0vp\n\n";
    let differ = "diff --git a/logo.png b/logo.png\nindex 3b18e51..4c2d9a0 100644\nBinary files a/logo.png and b/logo.png differ\n";
    // A merge's combined diff: its lines are marked against two parents.
    let combined = "diff --cc cfg.go\nindex 3b1c2d4,9af01e2..7c55e10\n--- a/cfg.go\n+++ b/cfg.go\n@@@ -3,3 -3,3 +3,3 @@@ func F() T\n  \tA: 1,\n- \tB: 2,\n -\tB: 3,\n++\tB: 4,\n";
    for (bad, what) in [
        (combined, "combined diff"),
        (link, "a symbolic link"),
        (retarget, "a symbolic link"),
        (module, "a submodule"),
        (patch, "binary"),
        (differ, "binary"),
    ] {
        let r = format!("```diff\n{bad}{regular}```\n");
        let p = problems(&r);
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].reason.contains(what), "{}", p[0].reason);
        let e = edits(&r);
        assert_eq!(e.len(), 1, "only the regular file's edit: {e:?}");
        assert_eq!(e[0].path, "a.py");
    }
}

#[test]
fn bare_blank_lines_between_additions_are_added_when_the_counts_say_so() {
    // Counts fit only if the two bare lines below are additions (old 2, new 7).
    let bare = "```diff\n--- a/s.py\n+++ b/s.py\n@@ -1,2 +1,7 @@\n def a():\n     return 1\n+def b():\n+    return 2\n\n\n+def c():\n```\n";
    let e = edits(bare);
    assert_eq!(hunk(&e[0]).old_text(), "def a():\n    return 1\n");
    assert_eq!(
        hunk(&e[0]).new_text(),
        "def a():\n    return 1\ndef b():\n    return 2\n\n\ndef c():\n"
    );
    // Where the counts leave room for them as context, they stay context.
    let context = bare.replace("@@ -1,2 +1,7 @@", "@@ -1,4 +1,7 @@");
    assert_eq!(hunk(&edits(&context)[0]).old_text(), "def a():\n    return 1\n\n\n");
    // Without counts nothing says what they are: context, as before.
    let no_counts = bare.replace("@@ -1,2 +1,7 @@", "@@ @@");
    assert_eq!(hunk(&edits(&no_counts)[0]).old_text(), "def a():\n    return 1\n\n\n");
}

#[test]
fn git_quoted_paths_are_read_as_the_names_they_quote() {
    // git quotes a path with bytes beyond ASCII, escaping them in octal.
    let r = "```diff\ndiff --git \"a/docs/\\303\\234bersicht.md\" \"b/docs/\\303\\234bersicht.md\"\nindex 4be1c2a..8d0e7f1 100644\n--- \"a/docs/\\303\\234bersicht.md\"\n+++ \"b/docs/\\303\\234bersicht.md\"\n@@ -1,2 +1,3 @@\n a\n b\n+c\n```\n";
    let e = edits(r);
    assert_eq!(e.len(), 1, "{:?}", problems(r));
    assert_eq!(e[0].path, "docs/Übersicht.md");
    assert_eq!(super::markers::unquoted("\"tab\\there \\\"q\\\"\""), "tab\there \"q\"");
    assert_eq!(super::markers::unquoted("plain.md"), "plain.md");
}

#[test]
fn a_long_line_wrapped_onto_an_unmarked_line_is_reported_when_the_counts_leave_it_out() {
    // The counts fit without the unmarked line: the end of the `+` line before it.
    let wrapped = "```diff\n--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n-HELLO = \"hi\"\n+HELLO = \"hi there, and welcome to the shop; your first order\nships free.\"\n BYE = \"bye\"\n```\n";
    let p = problems(wrapped);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].reason.contains("wrapped"), "{}", p[0].reason);
    assert!(edits(wrapped).is_empty());
    // Counted in: a context line that lost its space, not a wrapped one.
    let lost_space = "```diff\n--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n-HELLO = \"hi\"\n+HELLO = \"hello\"\nBYE = \"bye\"\n LATER = 1\n```\n";
    assert!(problems(lost_space).is_empty());
    assert_eq!(edits(lost_space).len(), 1);
}
