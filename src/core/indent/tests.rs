use super::*;

const SPACES4: FileStyle = FileStyle { tabs: false, unit: Some(4), recipes: false };

#[test]
fn same_depth_in_the_files_style() {
    let m = IndentMap::learn(
        [("x", "x")].into_iter(),
        FileStyle { tabs: false, unit: Some(2), recipes: false },
    );
    assert_eq!(m.apply("\t\ty"), "    y");
    assert_eq!(m.apply("  z"), "  z");
    let m = IndentMap::learn(
        [("x", "x")].into_iter(),
        FileStyle { tabs: true, unit: Some(1), recipes: false },
    );
    assert_eq!(m.apply("        y"), "\t\ty");
    assert_eq!(m.apply("\ty"), "\ty");
}

#[test]
fn reads_a_files_style() {
    let s = file_style("a\n  b\n    c\n  d\n".lines());
    assert_eq!(s, FileStyle { tabs: false, unit: Some(2), recipes: false });
    let s = file_style("a\n\tb\n\t\tc\n".lines());
    assert_eq!(s, FileStyle { tabs: true, unit: Some(1), recipes: false });
    assert_eq!(file_style("a\n\tb\n    c\n".lines()).unit, None);
}

#[test]
fn identity_when_nothing_differs() {
    let m = IndentMap::learn(
        [("  a", "  a"), ("b", "b")].into_iter(),
        FileStyle { tabs: false, unit: None, recipes: false },
    );
    assert_eq!(m, IndentMap::Identity);
    assert_eq!(m.apply("\t weird  "), "\t weird  ");
}

#[test]
fn shifts_a_dedented_hunk() {
    let m = IndentMap::learn(
        [("def f():", "    def f():"), ("    x", "        x")].into_iter(),
        SPACES4,
    );
    assert_eq!(m.apply("    y = 1"), "        y = 1");
    assert_eq!(m.apply("        z"), "            z");
}

#[test]
fn spaces_to_tabs() {
    let m = IndentMap::learn(
        [("    a", "\ta"), ("        b", "\t\tb")].into_iter(),
        FileStyle { tabs: true, unit: Some(1), recipes: false },
    );
    assert_eq!(m.apply("            c"), "\t\t\tc");
    assert_eq!(m.apply("    d"), "\td");
}

#[test]
fn tabs_with_alignment_spaces_keep_the_spaces() {
    // A JSDoc block under a tab: the space before `*` is alignment, not depth.
    let m = IndentMap::learn(
        [("\tname() {", "  name() {"), ("\t\treturn x;", "    return x;"), ("\t */", "   */")]
            .into_iter(),
        FileStyle { tabs: false, unit: Some(2), recipes: false },
    );
    assert_eq!(m.apply("\t\tlog();"), "    log();");
    assert_eq!(m.apply("\t * doc"), "   * doc");
    assert_eq!(m.apply("\t/**"), "  /**");
}

#[test]
fn a_tab_is_the_files_step_when_one_line_says_so() {
    // One tabbed line found two spaces deep (the other matched line is at the margin): a tab
    // is two spaces, for every depth, and ` * ` alignment keeps its space.
    let two = FileStyle { tabs: false, unit: Some(2), recipes: false };
    for pairs in
        [&[("\treturn x;", "  return x;"), ("}", "}")][..], &[("\treturn x;", "  return x;")]]
    {
        let m = IndentMap::learn(pairs.iter().copied(), two);
        assert_eq!(m.apply("\t\treturn a();"), "    return a();", "{pairs:?}");
        assert_eq!(m.apply("\ttry {"), "  try {");
        assert_eq!(m.apply(" * C."), " * C.");
        assert_eq!(m.apply("\t\t\tdeep();"), "      deep();");
    }
}

#[test]
fn a_tabbed_hunk_one_tab_too_deep_in_a_tabbed_file_stays_in_tabs() {
    // The one shared line is one tab deeper than the file's: the new lines lose one tab each,
    // whatever the file's unit reads as (all tabs, or tabs with a few space-indented lines).
    for unit in [Some(1), None] {
        let tabs = FileStyle { tabs: true, unit, recipes: false };
        let m = IndentMap::learn([("\tfunction f(a) {", "function f(a) {")].into_iter(), tabs);
        assert_eq!(m.apply("\t\tlog(a);"), "\tlog(a);", "{unit:?}");
        assert_eq!(m.apply("\t\t\tdeep();"), "\t\tdeep();");
        assert_eq!(m.apply("\t}"), "}");
    }
}

#[test]
fn a_shift_keeps_the_files_own_whitespace() {
    // The body of a UMD wrapper: two spaces and a tab before every line.
    let pairs = [("function f1(a) {", "  \tfunction f1(a) {"), ("  var x;", "  \t  var x;")];
    let m = IndentMap::learn(pairs.iter().copied(), file_style(["  \tx", "  \t  y"].into_iter()));
    assert_eq!(m.apply("  console.log(a);"), "  \t  console.log(a);");
    assert_eq!(m.apply("}"), "  \t}");
    assert!(consistent(pairs.iter().copied()));
}

#[test]
fn a_file_that_mixes_spaces_then_tabs_has_no_unit_to_convert_to() {
    let s = file_style("(function () {\n  'use strict';\n  \tfunction f() {\n  \t  x;\n".lines());
    assert_eq!(s.unit, None);
    let m = IndentMap::learn([("  \tfunction f() {", "  \tfunction f() {")].into_iter(), s);
    assert_eq!(m.apply("  \t  y = 2;"), "  \t  y = 2;", "written as the model wrote it");
}

#[test]
fn one_shared_line_scales_the_models_step_to_the_files() {
    // `  def save` found as `    def save`: the model indents by 2, the file by 4.
    let m = IndentMap::learn_with(
        [("  def save(self):", "    def save(self):")].into_iter(),
        SPACES4,
        Some(2),
        &[],
    );
    assert_eq!(m.apply("    if not self.data:"), "        if not self.data:");
    assert_eq!(m.apply("      return"), "            return");
    // The model by 4, the file by 2.
    let m = IndentMap::learn_with(
        [("    if (ok) {", "  if (ok) {")].into_iter(),
        FileStyle { tabs: false, unit: Some(2), recipes: false },
        Some(4),
        &[],
    );
    assert_eq!(m.apply("        const st = 1;"), "    const st = 1;");
    assert_eq!(m.apply("            throw e;"), "      throw e;");
    // The model by 4, the file by 3.
    let m = IndentMap::learn_with(
        [("    a", "   a"), ("        b", "      b")].into_iter(),
        FileStyle { tabs: false, unit: Some(3), recipes: false },
        Some(4),
        &[],
    );
    assert_eq!(m.apply("            c"), "         c");
    // Two pairs that say "shift" are not overruled by the steps.
    let m = IndentMap::learn_with(
        [("def f():", "    def f():"), ("    x", "        x")].into_iter(),
        SPACES4,
        Some(4),
        &[],
    );
    assert_eq!(m.apply("    y"), "        y");
    // Lines one column apart are no step: a shift by three.
    let m = IndentMap::learn_with(
        [(" line1", "    line1"), (" line2", "    line2")].into_iter(),
        SPACES4,
        Some(1),
        &[],
    );
    assert_eq!(m.apply("     new_line2"), "        new_line2");
}

#[test]
fn one_shared_line_a_level_short_keeps_the_models_steps_in_the_files() {
    // A hunk in 4s, one level short of a file in 2s: `        self.start()` found as
    // `      self.start()`. Its `else:` is one step out of that body, at the `if`'s depth (4),
    // not shifted with it to the def's (2).
    let two = FileStyle { tabs: false, unit: Some(2), recipes: false };
    let m = IndentMap::learn_with(
        [("        self.start()", "      self.start()")].into_iter(),
        two,
        Some(4),
        &["    else:", "        self.defer()"],
    );
    assert_eq!(m.apply("    else:"), "    else:");
    assert_eq!(m.apply("        self.defer()"), "      self.defer()");
    // A shift that is no whole step of the file's says the model's step was misread (lines 8
    // apart in a file in 4s): the shift stands.
    let m = IndentMap::learn_with(
        [("    a = 1", "a = 1")].into_iter(),
        SPACES4,
        Some(8),
        &["            b = 2"],
    );
    assert_eq!(m.apply("            b = 2"), "        b = 2");
}

#[test]
fn new_lines_are_written_as_the_file_writes_their_depth() {
    // Bodies under two spaces and a tab; the model wrote four spaces a step.
    let pairs = [("    if x:", "  \tif x:"), ("        return 1", "  \t\treturn 1")];
    let m = IndentMap::learn(pairs.into_iter(), file_style(["  \ta", "  \t\tb"].into_iter()));
    assert_eq!(m.apply("    if x is None:"), "  \tif x is None:");
    assert_eq!(m.apply("        return -1"), "  \t\treturn -1");
}

#[test]
fn context_that_lost_its_diff_marker_leaves_new_lines_as_written() {
    let pairs = [("   def get(self):", "    def get(self):"), ("       v = 1", "        v = 1")];
    let added = ["        if v is None:", "            v = 0"];
    let m = IndentMap::learn_with(pairs.into_iter(), SPACES4, Some(4), &added);
    assert_eq!(m.apply(added[0]), added[0]);
    assert_eq!(m.apply(added[1]), added[1]);
}

#[test]
fn a_hunks_step_is_read_from_its_rises_not_from_the_margin() {
    assert_eq!(step_of(["  def save(self):", "    if x:", "      return"].into_iter()), Some(2));
    assert_eq!(step_of(["        pass", "    x = 1"].into_iter()), None);
    assert_eq!(step_of(["    if a:", "        b", "    c", "        d"].into_iter()), Some(4));
    assert_eq!(step_of(["    a", "            b"].into_iter()), Some(8), "one rise");
    assert_eq!(step_of(["a", "  b", "a", "      c"].into_iter()), None, "two sizes");
}

#[test]
fn tabs_to_spaces() {
    let m = IndentMap::learn([("\ta", "    a"), ("\t\tb", "        b")].into_iter(), SPACES4);
    assert_eq!(m.apply("\t\t\tc"), "            c");
}

#[test]
fn indentation_is_consistent_when_one_plausible_mapping_explains_every_line() {
    let ok = |pairs: &[(&str, &str)]| consistent(pairs.iter().copied());
    assert!(ok(&[("a", "a"), ("    b", "    b")]), "the same");
    assert!(ok(&[("a", "    a"), ("    b", "        b")]), "shifted");
    assert!(ok(&[("a", "a"), ("  b", "    b"), ("    c", "        c")]), "2 for 4");
    assert!(ok(&[("\ta", "  a"), ("\t\tb", "    b")]), "tabs for the file's unit");
    assert!(ok(&[("\ta", "    a"), ("", "        "), ("x", "y")][..2]), "blank lines aside");
    let dedented = [("def f():", "def f():"), ("x = 1", "    x = 1"), ("  y", "      y")];
    assert!(ok(&dedented), "dedented, the margin line staying at the margin");
    // `},` kept its depth and `}` moved by four: not the lines the model meant.
    assert!(!ok(&[("        },", "        },"), ("}", "    }")]));
    assert!(!ok(&[("a", "a"), ("    b", "    b"), ("c", "  c")]));
}

#[test]
fn a_rule_line_is_a_target_and_a_colon_not_an_assignment() {
    for rule in ["tool: $(OBJS)", "%.o: %.c", "clean:", ".PHONY: all", "a b: c"] {
        assert!(is_rule(rule), "{rule}");
    }
    for not in
        ["CC := cc", "X ::= y", "CFLAGS = -O2 -DX=a:b", "\techo a: b", "  x: y", "# a: b", ""]
    {
        assert!(!is_rule(not), "{not}");
    }
}

#[test]
fn only_a_makefile_takes_tabs_for_its_recipes() {
    let style = FileStyle { tabs: false, unit: Some(4), recipes: false };
    for (path, want) in [
        ("Makefile", true),
        ("src/makefile", true),
        ("build/rules.mk", true),
        ("GNUmakefile", true),
        ("Makefile.py", false),
        ("tests/test_make.py", false),
    ] {
        assert_eq!(style.for_path(path, &[]).recipes, want, "{path}");
    }
    let prefix = vec![".RECIPEPREFIX = >".to_string()];
    assert!(!style.for_path("Makefile", &prefix).recipes, "another recipe prefix");
}

#[test]
fn spaces_after_a_tab_are_kept_in_a_file_of_tabs() {
    // A bundle that puts one tab before space-indented code, and aligned continuation lines
    // in a file of tabs: exact context, so new lines are written as the model wrote them.
    let s = file_style("\tfunction f(a) {\n\t    var x = a;\n\t    return x;\n\t}\n".lines());
    assert!(s.tabs);
    let m = IndentMap::learn([("\t    var x = a;", "\t    var x = a;")].into_iter(), s);
    assert_eq!(m.apply("\t        if (x) log(x);"), "\t        if (x) log(x);");
    assert_eq!(m.apply("\t\tcall(a,\n"), "\t\tcall(a,\n");
    assert_eq!(m.apply("\t\t     b);"), "\t\t     b);");
    // Spaces before any tab are still the model's spelling of the file's tabs.
    assert_eq!(m.apply("        y"), "\t\ty");
    assert_eq!(m.apply("    \ty"), "\t\ty");
}

#[test]
fn a_listing_of_a_tab_indented_file_retyped_with_spaces_gets_the_files_tabs() {
    let file: Vec<String> =
        ["build:", "\tgo build ./...", "", "test:", "\tgo test ./..."].map(String::from).to_vec();
    let listing = "build:\n    go build ./...\n\ntest:\n    go test -race ./...\n";
    assert_eq!(
        retabbed(&file, listing).as_deref(),
        Some("build:\n\tgo build ./...\n\ntest:\n\tgo test -race ./...\n")
    );
    // Nothing retyped of the file's: left as it is.
    assert_eq!(retabbed(&file, "x:\n    echo hi\n"), None);
    // A file indented with spaces: left as it is.
    let spaced: Vec<String> = ["a:", "    b"].map(String::from).to_vec();
    assert_eq!(retabbed(&spaced, "a:\n    b\n"), None);
}

#[test]
fn a_hunk_at_the_margin_is_scaled_when_its_new_lines_show_its_step() {
    // The model's new lines step by 4 (a level at 4 and one at 8), the file's by 2.
    let spaces2 = FileStyle { tabs: false, unit: Some(2), recipes: false };
    let m = IndentMap::margin_scale(spaces2, Some(4), &["    if old:", "        sys.exit(1)"])
        .expect("scaled");
    assert_eq!(m.apply("    if old:"), "  if old:");
    assert_eq!(m.apply("        sys.exit(1)"), "    sys.exit(1)");
    // One level only: a line at 4 may be two steps of 2.
    assert_eq!(IndentMap::margin_scale(spaces2, Some(4), &["    x = 1"]), None);
    // The file's own step: nothing to scale.
    assert_eq!(IndentMap::margin_scale(spaces2, Some(2), &["  if old:", "    y()"]), None);
}
