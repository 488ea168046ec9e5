use super::*;
use crate::core::edit::{Hunk, HunkLine, LineKind};

fn lines(s: &str) -> Vec<String> {
    s.lines().map(String::from).collect()
}

fn hunk(spec: &[(&str, &str)]) -> Hunk {
    let lines = spec
        .iter()
        .map(|(k, t)| {
            let kind = match *k {
                "+" => LineKind::Add,
                "-" => LineKind::Remove,
                _ => LineKind::Context,
            };
            HunkLine::new(kind, *t)
        })
        .collect();
    Hunk { lines, old_start_hint: None, marked: true, pick: None, section: None, other_split: None }
}

#[test]
fn an_explained_change_passes() {
    let before = lines("a = 1\nb = 2\nc = 3\n");
    let after = lines("a = 1\nb = 20\nextra_line()\nc = 3\n");
    let h = hunk(&[(" ", "a = 1"), ("-", "b = 2"), ("+", "b = 20"), ("+", "extra_line()")]);
    assert_eq!(check_hunk(&before, &after, &h), Ok(()));
}

#[test]
fn a_line_moved_out_of_order_is_refused() {
    // The file's own line moves above the changed one: the edit never asked for that.
    let before = lines("let child = x.child();\nself.stack.push((hir, x));\nhir = child;\n");
    let after = lines("self.stack.push((hir, x));\nlet kid = x.child();\nhir = kid;\n");
    let h = hunk(&[
        ("-", "let child = x.child();"),
        ("-", "hir = child;"),
        ("+", "let kid = x.child();"),
        ("+", "hir = kid;"),
    ]);
    let err = check_hunk(&before, &after, &h).unwrap_err();
    assert!(err.0.contains("let kid"), "{err}");
}

#[test]
fn removing_a_line_the_edit_does_not_name_is_refused() {
    let before = lines("def f():\n    keep_me_please()\n    old_call()\n");
    let after = lines("def f():\n    new_call()\n");
    let h = hunk(&[(" ", "def f():"), ("-", "old_call()"), ("+", "new_call()")]);
    assert!(check_hunk(&before, &after, &h).is_err());
}

#[test]
fn deleting_a_line_the_model_misspelt_passes_and_one_naming_another_thing_is_refused() {
    let before = lines("fn f() {\n    let charset = detect(buf);\n    let limit = items + 1;\n}\n");
    let after_one = |gone: &str| lines(&before.join("\n").replace(&format!("{gone}\n"), ""));
    // Two letters swapped, a letter dropped inside the word: the file's line is the one meant.
    for model in ["let chraset = detect(buf);", "let charst = detect(buf);"] {
        let h = hunk(&[(" ", "fn f() {"), ("-", model)]);
        assert_eq!(check_hunk(&before, &after_one("    let charset = detect(buf);"), &h), Ok(()));
    }
    // A letter changed, or one taken off the end, or a second word changed: another thing.
    for model in ["let limit = item + 1;", "let limit = itemz + 1;", "let limut = item + 1;"] {
        let h = hunk(&[(" ", "    let charset = detect(buf);"), ("-", model)]);
        let err = check_hunk(&before, &after_one("    let limit = items + 1;"), &h);
        assert!(err.is_err(), "{model}");
    }
    let h = hunk(&[(" ", "fn f() {"), ("-", "let charsets = detect(buf);")]);
    assert!(check_hunk(&before, &after_one("    let charset = detect(buf);"), &h).is_err());
    // Parts of a name: `item_sorted` is `items_sorted` with a part's end taken off, and
    // `Canceled` is `Cancelled` with a doubled letter made single: other names, both refused.
    // So is a misspelling that is a name the file has (`rows_sroted` beside `rows_sorted`).
    let names =
        lines("emit(items_sorted)\nstop(StatusCancelled)\nuse(rows_sroted)\nkeep(rows_sorted)\n");
    for (model, gone) in [
        ("emit(item_sorted)", "emit(items_sorted)"),
        ("stop(StatusCanceled)", "stop(StatusCancelled)"),
        ("keep(rows_sroted)", "keep(rows_sorted)"),
    ] {
        let after = lines(&(names.join("\n") + "\n").replace(&format!("{gone}\n"), ""));
        assert_eq!(after.len() + 1, names.len());
        let h = hunk(&[("-", model)]);
        assert!(check_hunk(&names, &after, &h).is_err(), "{model}");
    }
}

#[test]
fn a_quoted_context_line_is_not_a_forgotten_plus() {
    // `return (name, version)` is in the file elsewhere: a placement that adds it again took
    // the model's context for new code.
    let before =
        lines("def g():\n    if x:\n        pass\n\ndef h():\n    return (name, version)\n");
    let after = lines(
        "def g():\n    if x:\n    return (name, version)\n    helper_call()\n        pass\n\ndef h():\n    return (name, version)\n",
    );
    let h = hunk(&[(" ", "    return (name, version)"), ("+", "    helper_call()")]);
    assert!(check_hunk(&before, &after, &h).is_err());
}

#[test]
fn a_forgotten_plus_that_is_new_passes() {
    let before = lines("x = 1\ny = 2\n");
    let after = lines("x = 1\nbrand_new_line()\nanother_new()\ny = 2\n");
    let h =
        hunk(&[(" ", "x = 1"), ("+", "brand_new_line()"), (" ", "another_new()"), (" ", "y = 2")]);
    assert_eq!(check_hunk(&before, &after, &h), Ok(()));
}

#[test]
fn folding_two_indentation_depths_is_refused() {
    let before = lines("function a() {\n  return 1;\n}\n");
    let after = lines(
        "function a() {\n  return 1;\n}\n/**\n* Doc line.\n*/\nfunction b() {\n  return 2;\n}\n",
    );
    let h = hunk(&[
        (" ", "}"),
        ("+", "/**"),
        ("+", " * Doc line."),
        ("+", " */"),
        ("+", "function b() {"),
        ("+", "\treturn 2;"),
        ("+", "}"),
    ]);
    let err = check_hunk(&before, &after, &h).unwrap_err();
    assert!(err.0.contains("nesting"), "{err}");
    let good = lines(
        "function a() {\n  return 1;\n}\n/**\n * Doc line.\n */\nfunction b() {\n  return 2;\n}\n",
    );
    assert_eq!(check_hunk(&before, &good, &h), Ok(()));
}

#[test]
fn a_missing_added_line_is_refused() {
    let before = lines("a()\nb()\n");
    let after = lines("a()\nb()\n");
    let h = hunk(&[(" ", "a()"), ("+", "inserted_call()"), (" ", "b()")]);
    assert!(check_hunk(&before, &after, &h).is_err());
}

#[test]
fn a_placeholder_that_drops_code_beside_it_is_refused() {
    let before =
        lines("def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n");
    let listing = "def a():\n    return 10\n\n\n# ... unchanged ...\n\n\ndef c():\n    return 3\n";
    // A merge that restored only `return 2` and dropped `def b():`.
    let bad = lines("def a():\n    return 10\n\n\n    return 2\n\n\ndef c():\n    return 3\n");
    assert!(check_whole(&before, &bad, listing).is_err());
    let good =
        lines("def a():\n    return 10\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n");
    assert_eq!(check_whole(&before, &good, listing), Ok(()));
}

#[test]
fn a_merge_that_invents_or_loses_listing_lines_is_refused() {
    let before = lines("one_line()\ntwo_line()\nthree_line()\n");
    let listing = "one_line()\n# ...\nthree_line()\nfour_line()\n";
    let lost = lines("one_line()\ntwo_line()\nthree_line()\n");
    assert!(check_whole(&before, &lost, listing).is_err());
    let invented = lines("one_line()\nmade_up()\nthree_line()\nfour_line()\n");
    assert!(check_whole(&before, &invented, listing).is_err());
}

#[test]
fn a_comment_standing_alone_where_code_was_is_a_placeholder() {
    // `# snip` is no phrase redline knows: it stands where three lines of code were.
    let original =
        "import os\n\ndef a():\n    return 1\n\ndef b():\n    x = 2\n    y = 3\n    return x + y\n";
    let listing = "import os\n\ndef a():\n    return 10\n\n# snip\n";
    let t = crate::core::text::TextFile::parse(original);
    let m = crate::core::whole::merge(&t, listing).expect("merged");
    let got: Vec<&str> = m.lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        got,
        [
            "import os",
            "",
            "def a():",
            "    return 10",
            "",
            "def b():",
            "    x = 2",
            "    y = 3",
            "    return x + y"
        ]
    );
    let after: Vec<String> = got.iter().map(|s| s.to_string()).collect();
    assert_eq!(check_whole(&t.lines, &after, listing), Ok(()));
}
