use super::*;
use proptest::prelude::*;

/// The one marked comment of a one-line file: its mark and instruction.
fn one(path: &str, line: &str) -> Option<(Mark, String)> {
    let found = find_comments(path, line);
    assert!(found.len() <= 1);
    found.into_iter().next().map(|c| (c.mark, c.instruction))
}

fn change(s: &str) -> Option<(Mark, String)> {
    Some((Mark::Trigger(Kind::Change), s.to_string()))
}

fn question(s: &str) -> Option<(Mark, String)> {
    Some((Mark::Trigger(Kind::Question), s.to_string()))
}

fn note(s: &str) -> Option<(Mark, String)> {
    Some((Mark::Note, s.to_string()))
}

#[test]
fn each_comment_syntax_with_the_marker_first_or_last() {
    assert_eq!(one("a.py", "# AI! add a docstring"), change("add a docstring"));
    assert_eq!(one("a.py", "# fix this ai!"), change("fix this"));
    assert_eq!(one("a.rs", "// AI! fix"), change("fix"));
    assert_eq!(one("a.rs", "    /// make it generic AI!"), change("make it generic"));
    assert_eq!(one("a.rs", "//! AI? what is this crate for"), question("what is this crate for"));
    assert_eq!(one("a.c", "/* make it faster AI! */"), change("make it faster"));
    assert_eq!(one("a.c", "/** AI! document */"), change("document"));
    assert_eq!(one("a.html", "<!-- AI? why is this here -->"), question("why is this here"));
    assert_eq!(one("q.sql", "-- AI! use a join"), change("use a join"));
    assert_eq!(one("init.lua", "--- AI! cache it"), change("cache it"));
    assert_eq!(one("a.el", ";; AI! bind it to C-c"), change("bind it to C-c"));
    assert_eq!(one("conf.ini", "; rename the key AI!"), change("rename the key"));
    assert_eq!(
        one("paper.tex", "% AI? is this citation right"),
        question("is this citation right")
    );
    assert_eq!(one("Makefile", "\t# AI! add a clean target"), change("add a clean target"));
    assert_eq!(one("a.php", "# AI! escape it"), change("escape it"));
    assert_eq!(one("a.php", "// AI! escape it"), change("escape it"));
}

#[test]
fn the_marker_is_case_insensitive_and_may_be_plain() {
    assert_eq!(one("a.py", "# ai! lower"), change("lower"));
    assert_eq!(one("a.py", "# Ai? mixed"), question("mixed"));
    assert_eq!(one("a.py", "#ai! tight"), change("tight"));
    assert_eq!(one("a.py", "# AI: keep it short"), note("keep it short"));
    assert_eq!(one("a.py", "# keep it short, ai"), note("keep it short,"));
    assert_eq!(one("a.py", "# AI!"), change(""));
    assert_eq!(one("a.py", "#   AI?   "), question(""));
    // A plain marker at the start and a trigger at the end: a trigger.
    assert_eq!(one("a.py", "# AI refactor this AI!"), change("refactor this"));
}

#[test]
fn a_comment_after_code_counts() {
    assert_eq!(one("a.py", "x = 1  # AI! rename"), change("rename"));
    assert_eq!(one("a.js", "let x = 1; // AI! const"), change("const"));
    assert_eq!(one("a.c", "int x; /* AI! unsigned */ int y;"), change("unsigned"));
    assert_eq!(one("a.sql", "SELECT * FROM t -- AI! name the columns"), change("name the columns"));
    // The first comment start whose text is marked.
    assert_eq!(one("a.txt", "#include <x> // AI! fix"), change("fix"));
    assert_eq!(one("notes", "a // b # AI! rename"), change("rename"));
}

#[test]
fn what_is_not_a_trigger() {
    for (path, line) in [
        ("a.py", "# MAIL!"),
        ("a.py", "# send the MAIL!"),
        ("a.py", "x = \"AI!\""),
        ("a.py", "x = \"# AI!\""),
        ("a.py", "x = '# AI! nope'  # a normal comment"),
        ("a.py", "# the AI! is here"),
        ("a.py", "# AI!s"),
        ("a.py", "#AI!fix"),
        ("a.py", "# FAIR?"),
        ("a.py", "# said_ai!"),
        ("a.py", "print('AI!')"),
        ("a.py", "x = a // b  AI!"),
        ("a.py", "AI! fix this"),
        ("a.c", "#define AI 1 // nothing"),
        ("a.c", "#pragma AI!"),
        ("a.c", "i--; AI!"),
        ("a.c", "/* AI! opened but not closed"),
        ("a.rs", "#[derive(AI)] struct X; // AIR"),
        ("a.md", "# AI! a heading"),
        ("a.sh", "ls --all AI!"),
        ("a.css", "#main { color: red } // AI!"),
        ("a.tex", "50\\% AI!"),
        ("a.js", "let url = \"http://ai.example/AI!\";"),
        ("a.txt", "x=1# AI!"),
    ] {
        assert_eq!(one(path, line), None, "{path}: {line}");
    }
}

#[test]
fn non_ascii_text_is_scanned_whole() {
    assert_eq!(one("a.py", "\u{1bc90}"), None);
    assert_eq!(
        one("a.py", "naïve = \"é\"  # AI! ne touche pas à ça"),
        change("ne touche pas à ça")
    );
    assert_eq!(one("a.py", "# 日本語 AI?"), question("日本語"));
    assert_eq!(one("a.py", "# éAI!"), None);
}

#[test]
fn the_extension_narrows_the_syntax() {
    assert_eq!(one("a.c", "# AI! fix"), None);
    assert_eq!(one("a.py", "// AI! fix"), None);
    assert_eq!(one("a.py", "-- AI! fix"), None);
    assert_eq!(one("a.rs", "-- AI! fix"), None);
    assert_eq!(one("a.lua", "# AI! fix"), None);
    assert_eq!(one("a.py", "; AI! fix"), None);
    assert_eq!(one("a.txt", "; AI! fix"), None);
    assert_eq!(one("a.html", "// AI! fix"), None);
    // Without a known extension, the common syntaxes all count.
    for line in ["# AI! fix", "// AI! fix", "-- AI! fix", "/* AI! fix */", "<!-- AI! fix -->"] {
        assert_eq!(one("NOTES", line), change("fix"), "{line}");
        assert_eq!(one("x.unknown", line), change("fix"), "{line}");
    }
    assert_eq!(one("src/Dockerfile", "# AI! pin the version"), change("pin the version"));
    assert_eq!(one("src/Dockerfile", "// AI! pin the version"), None);
    assert_eq!(one("App.vue", "<!-- AI! a slot -->"), change("a slot"));
    assert_eq!(one("App.vue", "// AI! a prop"), change("a prop"));
}

#[test]
fn triggers_carry_line_text_and_span() {
    let text = "\u{feff}import os\r\n\r\nx = 1  # AI! rename it\r\n# AI: use snake_case\r\ny = 2";
    let t = find_triggers("a.py", text);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].line, 2);
    assert_eq!(t[0].text, "x = 1  # AI! rename it");
    assert_eq!(t[0].kind, Kind::Change);
    assert_eq!(t[0].instruction, "rename it");
    assert_eq!(&t[0].text[t[0].span.clone()], "# AI! rename it");
    let all = find_comments("a.py", text);
    assert_eq!(all.len(), 2);
    assert_eq!((all[1].line, all[1].mark), (3, Mark::Note));
}

#[test]
fn scan_groups_new_triggers_by_kind_with_the_notes() {
    let text = "# AI: tests use pytest\ndef f():\n    pass  # AI! add a docstring\n\n# why a list here AI?\nx = []\n# also type hints, ai!\n";
    let reqs = scan("a.py", text, &BTreeSet::new());
    assert_eq!(reqs.len(), 2);
    assert_eq!(reqs[0].kind, Kind::Change);
    assert_eq!(reqs[0].triggers.iter().map(|t| t.line).collect::<Vec<_>>(), [2, 6]);
    assert_eq!(reqs[0].notes, [Note { line: 0, instruction: "tests use pytest".into() }]);
    assert_eq!(
        reqs[0].instructions(),
        "line 1: tests use pytest\nline 3: add a docstring\nline 7: also type hints,\n"
    );
    assert_eq!(reqs[1].kind, Kind::Question);
    assert_eq!(reqs[1].instructions(), "line 1: tests use pytest\nline 5: why a list here\n");

    // Handled triggers are not asked for again; an edited one is new.
    let handled: BTreeSet<TriggerId> = reqs.iter().flat_map(|r| r.ids()).collect();
    assert!(scan("a.py", text, &handled).is_empty());
    let moved = format!("\n\n{text}");
    assert!(scan("a.py", &moved, &handled).is_empty(), "a moved trigger is the same trigger");
    let edited = text.replace("add a docstring", "add a short docstring");
    let again = scan("a.py", &edited, &handled);
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].triggers.len(), 1);
    assert_eq!(again[0].triggers[0].instruction, "add a short docstring");
    assert!(scan("b.py", text, &handled).len() == 2, "ids belong to their file");
    assert!(scan("a.py", "x = 1  # AI: only a note\n", &BTreeSet::new()).is_empty());
}

#[test]
fn an_empty_trigger_reads_no_text() {
    let reqs = scan("a.py", "# AI!\n", &BTreeSet::new());
    assert_eq!(reqs[0].instructions(), "line 1: (no text)\n");
}

fn trigger(path: &str, text: &str) -> Trigger {
    let t = find_triggers(path, text);
    assert_eq!(t.len(), 1, "{text:?}");
    t.into_iter().next().expect("one trigger")
}

#[test]
fn removal_takes_a_whole_comment_line_out() {
    let text = "def f():\n    # AI! add a docstring\n    return 1\n";
    let t = trigger("a.py", text);
    assert_eq!(remove_trigger(text, &t).as_deref(), Some("def f():\n    return 1\n"));
}

#[test]
fn removal_keeps_code_before_or_after_the_comment() {
    let text = "x = 1  # AI! rename\ny = 2\n";
    let t = trigger("a.py", text);
    assert_eq!(remove_trigger(text, &t).as_deref(), Some("x = 1\ny = 2\n"));
    let text = "  /* AI! unsigned */ int x;\n";
    let t = trigger("a.c", text);
    assert_eq!(remove_trigger(text, &t).as_deref(), Some("  int x;\n"));
    let text = "int x; /* AI! unsigned */ int y;\n";
    let t = trigger("a.c", text);
    assert_eq!(remove_trigger(text, &t).as_deref(), Some("int x; int y;\n"));
    let text = "<p>hi</p> <!-- AI? why -->\n";
    let t = trigger("a.html", text);
    assert_eq!(remove_trigger(text, &t).as_deref(), Some("<p>hi</p>\n"));
}

#[test]
fn removal_keeps_crlf_bom_and_the_final_newline_state() {
    let text = "\u{feff}a\r\n// AI! fix\r\nb\r\n";
    let t = trigger("a.rs", text);
    assert_eq!(remove_trigger(text, &t).as_deref(), Some("\u{feff}a\r\nb\r\n"));
    let text = "a\r\nb // AI! fix";
    let t = trigger("a.rs", text);
    assert_eq!(remove_trigger(text, &t).as_deref(), Some("a\r\nb"));
    let text = "a\n// AI! fix";
    let t = trigger("a.rs", text);
    assert_eq!(remove_trigger(text, &t).as_deref(), Some("a"));
    let text = "// AI! fix\n";
    let t = trigger("a.rs", text);
    assert_eq!(remove_trigger(text, &t).as_deref(), Some(""));
    let text = "a\n// AI! fix\n";
    let t = trigger("a.rs", text);
    assert_eq!(remove_trigger(text, &t).as_deref(), Some("a\n"));
}

#[test]
fn removal_picks_the_occurrence_nearest_the_trigger_or_none() {
    let text = "# AI! x\na\nb\nc\n# AI! x\nd\n";
    let mut t = find_triggers("a.py", text).remove(1);
    assert_eq!(remove_trigger(text, &t).as_deref(), Some("# AI! x\na\nb\nc\nd\n"));
    // After an accepted edit moved the line, the nearest occurrence still goes.
    t.line = 1;
    assert_eq!(remove_trigger(text, &t).as_deref(), Some("a\nb\nc\n# AI! x\nd\n"));
    assert_eq!(remove_trigger("a\nb\n", &t), None);
    // A line that changed is no longer the trigger.
    assert_eq!(remove_trigger("# AI! x y\n", &t), None);
}

// ---- properties ----

fn any_line() -> impl Strategy<Value = String> {
    prop_oneof![
        "[ -~]{0,30}",
        "[ \t]*(#|//|--|;|%|/\\*|<!--)[ a-zA-Z!?\"']{0,12}(AI|ai|Ai)[!?]?[ a-z]{0,8}(\\*/|-->)?",
        "[ a-z=0-9\"]{0,10}(#|//) *(AI|ai)[!?] [a-z ]{0,10}",
        "\\PC{0,12}",
    ]
}

fn any_file() -> impl Strategy<Value = (&'static str, String)> {
    (
        prop_oneof![
            Just("a.py"),
            Just("a.rs"),
            Just("a.sql"),
            Just("a.html"),
            Just("a.el"),
            Just("a.tex"),
            Just("NOTES"),
        ],
        proptest::collection::vec((any_line(), prop_oneof![Just("\n"), Just("\r\n")]), 0..12),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(path, lines, bom, final_nl)| {
            let mut text = String::new();
            if bom {
                text.push('\u{feff}');
            }
            let n = lines.len();
            for (k, (line, eol)) in lines.iter().enumerate() {
                text.push_str(line);
                if k + 1 < n || final_nl {
                    text.push_str(eol);
                }
            }
            (path, text)
        })
}

proptest! {
    #[test]
    fn finding_never_panics(text in "\\PC{0,200}", path in "[a-z]{0,3}(\\.(py|rs|c|sql|html|lua|el|tex|x))?") {
        let comments = find_comments(&path, &text);
        for c in &comments {
            prop_assert!(c.span.end <= c.text.len());
            prop_assert!(c.text.is_char_boundary(c.span.start));
            prop_assert!(c.text.is_char_boundary(c.span.end));
        }
        let _ = scan(&path, &text, &BTreeSet::new());
    }

    #[test]
    fn removal_changes_one_line_only((path, text) in any_file()) {
        let text = text.as_str();
        let file = TextFile::parse(text);
        for t in find_triggers(path, text) {
            let out = remove_trigger(text, &t).expect("the trigger is there");
            let after = TextFile::parse(&out);
            prop_assert_eq!(after.bom, file.bom);
            let line = &file.lines[t.line];
            let cut = format!("{}{}", &line[..t.span.start], &line[t.span.end..]);
            if cut.trim().is_empty() {
                // The line went, with its ending; every other line and ending stays.
                let mut lines = file.lines.clone();
                lines.remove(t.line);
                prop_assert_eq!(&after.lines, &lines);
                let mut eols = file.eols.clone();
                eols.remove(t.line);
                // A file without a final newline stays so, but for a blank last line (which
                // would be no line at all without its ending).
                let blank_last = lines.last().is_some_and(|l| l.is_empty());
                if t.line + 1 == file.lines.len()
                    && !file.final_newline()
                    && !blank_last
                    && let Some(last) = eols.last_mut()
                {
                    *last = crate::core::text::Eol::None;
                }
                prop_assert_eq!(&after.eols, &eols);
            } else {
                // Only that line changed, and only by losing the comment and the blanks beside it.
                prop_assert_eq!(after.lines.len(), file.lines.len());
                prop_assert_eq!(&after.eols, &file.eols);
                for (k, (a, b)) in after.lines.iter().zip(&file.lines).enumerate() {
                    if k != t.line {
                        prop_assert_eq!(a, b);
                    }
                }
                let new = &after.lines[t.line];
                prop_assert!(new.starts_with(line[..t.span.start].trim_end()));
                prop_assert!(new.ends_with(line[t.span.end..].trim_start()));
                let squeeze = |s: &str| s.split_whitespace().collect::<String>();
                prop_assert_eq!(squeeze(new), squeeze(&cut));
            }
        }
    }
}

#[test]
fn a_save_asks_once_and_a_trigger_put_back_asks_again() {
    let mut handled = BTreeSet::new();
    let text = "x = 1  # AI! rename x\n";
    assert_eq!(saved("a.py", text, &mut handled).len(), 1);
    assert!(saved("a.py", text, &mut handled).is_empty(), "the same save asks nothing new");
    assert!(saved("b.py", "y = 2\n", &mut handled).is_empty());
    assert_eq!(handled.len(), 1, "another file's save keeps a.py's trigger");
    assert!(saved("a.py", "x = 1\n", &mut handled).is_empty());
    assert!(handled.is_empty(), "a trigger that left its file is forgotten");
    assert_eq!(saved("a.py", text, &mut handled).len(), 1, "put back, it asks again");
}

#[test]
fn present_names_the_triggers_a_file_already_holds() {
    let text =
        "def remove(self, task_id):  # do not crash on unknown ids AI!\n# AI? why\n# AI note\n";
    let ids = present("todo/store.py", text);
    let texts: Vec<&str> = ids.iter().map(|id| id.text.as_str()).collect();
    assert_eq!(
        texts,
        ["def remove(self, task_id):  # do not crash on unknown ids AI!", "# AI? why"]
    );
    assert!(ids.iter().all(|id| id.path == "todo/store.py"));
    assert!(present("a.py", "x = 1  # ai\nMAIL = 2\n").is_empty());
    assert!(present("a.py", "x = 1  # Fix It aI!\n").len() == 1, "any case");
}

/// Found by the removal property: a trigger alone on the last line, without a final newline,
/// after a blank line, took the blank line with it (the file became empty).
#[test]
fn a_blank_line_above_a_last_trigger_line_stays() {
    for (text, want) in
        [("\n# AI! go", "\n"), ("x = 1\n\n# AI! go", "x = 1\n\n"), ("x = 1\n# AI! go", "x = 1")]
    {
        let t = find_triggers("a.py", text).remove(0);
        assert_eq!(remove_trigger(text, &t).as_deref(), Some(want), "{text:?}");
    }
}

#[test]
fn a_line_inside_a_string_spanning_lines_is_never_a_trigger() {
    let help = "HELP = \"\"\"\nHow to ask: mark the line, e.g. # AI! rename this variable\nthen save.\"\"\"\n# AI! add a docstring\n";
    let found = find_triggers("tool.py", help);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].line, 3, "the real comment after the string");
    let js = "const usage = `\n  // AI! this is text the program prints\n`;\n";
    assert!(find_triggers("cli.js", js).is_empty());
    // A file whose language is not known is read line by line, as before.
    assert_eq!(find_triggers("notes", "`\n# AI! fix\n").len(), 1);
}
