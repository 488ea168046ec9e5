use super::*;
use crate::core::apply::apply_hunk;
use crate::core::edit::{Hunk, HunkLine, LineKind};
use crate::core::text::TextFile;

fn sr(old: &str, new: &str) -> Hunk {
    let o: Vec<String> = old.lines().map(String::from).collect();
    let n: Vec<String> = new.lines().map(String::from).collect();
    Hunk::from_old_new(&o, &n)
}

fn udiff(body: &str) -> Hunk {
    let lines = body
        .lines()
        .map(|l| match l.as_bytes().first() {
            Some(b'+') => HunkLine::new(LineKind::Add, &l[1..]),
            Some(b'-') => HunkLine::new(LineKind::Remove, &l[1..]),
            Some(b' ') => HunkLine::new(LineKind::Context, &l[1..]),
            _ => HunkLine::new(LineKind::Context, l),
        })
        .collect();
    Hunk { lines, old_start_hint: None, marked: true, pick: None, section: None, other_split: None }
}

fn apply(text: &str, hunk: &Hunk) -> Result<(String, Located), Refusal> {
    let mut f = TextFile::parse(text);
    let loc = locate(hunk, &f.lines, 0)?;
    apply_hunk(&mut f, hunk, &loc);
    Ok((f.render(), loc))
}

const PY: &str = "import os\n\n\ndef create_task(title):\n    \"\"\"Make a task.\"\"\"\n    task = {\"title\": title}\n    tasks.append(task)\n    return task\n\n\ndef delete_task(task_id):\n    task = find(task_id)\n    tasks.remove(task)\n    return task\n";

#[test]
fn exact() {
    let (out, loc) = apply(
        PY,
        &sr(
            "    tasks.append(task)\n    return task\n",
            "    tasks.append(task)\n    log(task)\n    return task\n",
        ),
    )
    .unwrap();
    assert!(out.contains("tasks.append(task)\n    log(task)\n    return task\n\n\ndef delete"));
    assert_eq!(loc.strategy, MatchKind::Exact);
}

#[test]
fn copy_error_keeps_the_files_line() {
    let h = sr(
        "def start_task(title):\n    \"\"\"Make a task.\"\"\"\n    task = {\"title\": title}\n",
        "def start_task(title):\n    \"\"\"Make a task.\"\"\"\n    task = {\"title\": title, \"done\": False}\n",
    );
    let (out, loc) = apply(PY, &h).unwrap();
    assert!(out.contains("def create_task(title):\n"));
    assert!(out.contains("\"done\": False}"));
    assert_eq!(loc.strategy, MatchKind::Fuzzy);
}

#[test]
fn dedented_hunk_is_reindented() {
    let h = sr(
        "task = {\"title\": title}\ntasks.append(task)\n",
        "task = {\"title\": title}\nif ok:\n    tasks.append(task)\n",
    );
    let (out, loc) = apply(PY, &h).unwrap();
    assert!(
        out.contains("    task = {\"title\": title}\n    if ok:\n        tasks.append(task)\n"),
        "{out}"
    );
    assert_eq!(loc.strategy, MatchKind::Indentation);
}

#[test]
fn missing_docstring_context() {
    let h = udiff(
        "def create_task(title):\n-    task = {\"title\": title}\n+    task = {\"title\": title.strip()}\n",
    );
    let (out, _) = apply(PY, &h).unwrap();
    assert!(out.contains("def create_task(title):\n    \"\"\"Make a task.\"\"\"\n    task = {\"title\": title.strip()}\n"), "{out}");
}

#[test]
fn forgotten_plus() {
    let h = udiff(
        " def delete_task(task_id):\n     task = find(task_id)\n+    if task is None:\n     return None\n     tasks.remove(task)\n",
    );
    let (out, loc) = apply(PY, &h).unwrap();
    assert!(out.contains("    task = find(task_id)\n    if task is None:\n    return None\n    tasks.remove(task)\n"), "{out}");
    assert!(loc.slots.contains(&HunkSlot::ForgottenAdd));
}

#[test]
fn elision_in_old_text() {
    let h = sr(
        "def create_task(title):\n    ...\n    return task\n",
        "def create_task(title):\n    ...\n    print(task)\n    return task\n",
    );
    let (out, loc) = apply(PY, &h).unwrap();
    assert!(
        out.contains("    tasks.append(task)\n    print(task)\n    return task\n\n\ndef delete"),
        "{out}"
    );
    assert_eq!(loc.strategy, MatchKind::Elision);
}

#[test]
fn ambiguous_is_refused() {
    let text = "def a():\n    x = 1\n    return x\n\ndef b():\n    x = 1\n    return x\n";
    let e = apply(text, &sr("    x = 1\n    return x\n", "    x = 2\n    return x\n")).unwrap_err();
    assert_eq!(e.kind, RefusalKind::Ambiguous);
    // Context that tells them apart resolves it.
    let (out, _) = apply(text, &sr("def b():\n    x = 1\n", "def b():\n    x = 2\n")).unwrap();
    assert!(out.ends_with("def b():\n    x = 2\n    return x\n"));
}

#[test]
fn places_apart_only_by_depth_are_said_to_be() {
    let text = "def f(b):\n    if b:\n        if b:\n            if b:\n                go()\n";
    let e = apply(text, &sr("            if b:\n", "            if b and ready:\n")).unwrap_err();
    assert_eq!(e.kind, RefusalKind::Ambiguous);
    assert!(e.message.contains("the same lines at different depths"), "{}", e.message);
    let text = "def a():\n    x = 1\n    return x\n\ndef b():\n    x = 1\n    return x\n";
    let e = apply(text, &sr("    x = 1\n    return x\n", "    x = 2\n    return x\n")).unwrap_err();
    assert!(e.message.contains("equally well"), "{}", e.message);
}

#[test]
fn line_hint_breaks_a_tie() {
    let text = "def a():\n    x = 1\n    return x\n\ndef b():\n    x = 1\n    return x\n";
    let mut h = udiff("     x = 1\n-    return x\n+    return -x\n");
    h.old_start_hint = Some(6);
    let (out, loc) = apply(text, &h).unwrap();
    assert!(loc.by_hint);
    assert!(out.ends_with("def b():\n    x = 1\n    return -x\n"));
}

#[test]
fn hallucinated_is_refused() {
    let e = apply(
        PY,
        &sr(
            "def update_task(task_id, **fields):\n    task.update(fields)\n    save_all()\n",
            "x\n",
        ),
    )
    .unwrap_err();
    assert!(matches!(e.kind, RefusalKind::NotFound | RefusalKind::TooWeak), "{e:?}");
}

#[test]
fn weak_match_is_refused() {
    let h = sr(
        "def delete_task(task_id):\n    conn = db.connect()\n    conn.execute(\"DELETE FROM tasks\")\n    conn.commit()\n    conn.close()\n    notify_all()\n",
        "def delete_task(task_id):\n    pass\n",
    );
    let e = apply(PY, &h).unwrap_err();
    assert!(matches!(e.kind, RefusalKind::TooWeak | RefusalKind::RemovedNotFound), "{e:?}");
    assert!(e.closest.is_some());
}

#[test]
fn crlf_file_answered_in_lf() {
    let text = PY.replace('\n', "\r\n");
    let (out, _) =
        apply(&text, &sr("    tasks.append(task)\n", "    tasks.append(task)\n    log(task)\n"))
            .unwrap();
    assert!(out.contains("tasks.append(task)\r\n    log(task)\r\n"));
    assert!(!out.replace("\r\n", "").contains('\n'));
}

#[test]
fn tabs_file_answered_with_spaces() {
    let text = "func f() {\n\tx := 1\n\treturn x\n}\n";
    let (out, _) = apply(
        text,
        &sr(
            "    x := 1\n    return x\n",
            "    x := 1\n    if x > 0 {\n        x++\n    }\n    return x\n",
        ),
    )
    .unwrap();
    assert_eq!(out, "func f() {\n\tx := 1\n\tif x > 0 {\n\t\tx++\n\t}\n\treturn x\n}\n");
}

#[test]
fn removed_line_not_in_file_is_refused() {
    let h = udiff(
        " def delete_task(task_id):\n     task = find(task_id)\n-    audit(task)\n-    notify(task)\n+    log(task)\n     tasks.remove(task)\n",
    );
    let e = apply(PY, &h).unwrap_err();
    assert_eq!(e.kind, RefusalKind::RemovedNotFound);
}

#[test]
fn trailing_elision_with_new_lines_after_is_refused() {
    let h = sr(
        "def create_task(title):\n    ...\n",
        "def create_task(title):\n    ...\n    print(1)\n",
    );
    assert_eq!(apply(PY, &h).unwrap_err().kind, RefusalKind::UnanchoredElision);
}

#[test]
fn an_ambiguous_refusal_lists_its_candidates_in_file_order() {
    let text = "def a():\n    x = 1\n    return x\n\ndef b():\n    x = 1\n    return x\n\ndef c():\n    x = 1\n    return x\n";
    let e = apply(text, &sr("    x = 1\n    return x\n", "    x = 2\n    return x\n")).unwrap_err();
    assert_eq!(e.kind, RefusalKind::Ambiguous);
    let places: Vec<(usize, usize)> =
        e.candidates.iter().map(|c| (c.first_line, c.last_line)).collect();
    assert_eq!(places, vec![(2, 3), (6, 7), (10, 11)]);
    assert!(e.candidates.iter().all(|c| c.similarity == 1.0));
    // The headless message still names the places.
    assert!(e.message.contains("lines 2, 6, 10"), "{}", e.message);
}

#[test]
fn a_picked_candidate_places_the_hunk_there_and_only_there() {
    let text = "def a():\n    x = 1\n    return x\n\ndef b():\n    x = 1\n    return x\n\ndef c():\n    x = 1\n    return x\n";
    let mut h = sr("    x = 1\n    return x\n", "    x = 2\n    return x\n");
    h.pick = Some(6);
    let (out, loc) = apply(text, &h).unwrap();
    assert_eq!((loc.start, loc.end), (5, 7));
    assert!(!loc.by_hint);
    assert_eq!(out, text.replacen("def b():\n    x = 1", "def b():\n    x = 2", 1));
    // A pick that is none of the candidates decides nothing.
    h.pick = Some(4);
    assert_eq!(apply(text, &h).unwrap_err().kind, RefusalKind::Ambiguous);
}

#[test]
fn an_ambiguous_refusal_lists_at_most_nine_candidates() {
    let text = "    x = 1\n    return x\n\n".repeat(12);
    let e =
        apply(&text, &sr("    x = 1\n    return x\n", "    x = 2\n    return x\n")).unwrap_err();
    assert_eq!(e.candidates.len(), MAX_CANDIDATES);
    assert_eq!(e.candidates[8].first_line, 25);
    assert!(e.message.contains("12 places"), "{}", e.message);
}

const JS: &str = "'use strict';\nexports.render = render;\nfunction render(tpl, data) {\n  return tpl.replace(/{(\\w+)}/g, (_, k) => data[k]);\n};\n\nexports.count = count;\n";

/// A comment opener whose `+` was forgotten is not in the file: passing it over would write the
/// comment's body and closer without it. Refused, naming the line.
#[test]
fn a_punctuation_context_line_not_in_the_file_beside_new_lines_is_refused() {
    let h = udiff(
        " exports.render = render;\n /**\n+ * Fills a template.\n+ */\n function render(tpl, data) {\n",
    );
    let err = apply(JS, &h).expect_err("refused, not written without its opener");
    assert!(err.message.contains("`/**`"), "{}", err.message);
    // Written with its `+`, it applies.
    let h = udiff(
        " exports.render = render;\n+/**\n+ * Fills a template.\n+ */\n function render(tpl, data) {\n",
    );
    let (out, _) = apply(JS, &h).unwrap();
    assert!(out.contains("render;\n/**\n * Fills a template.\n */\nfunction render"), "{out}");
}

/// A closer the file has right there, after a changed line, is the file's own (it weighs too
/// little to be aligned): the change applies.
#[test]
fn a_closer_the_file_has_beside_the_change_is_not_refused() {
    let h = udiff(
        "-  return tpl.replace(/{(\\w+)}/g, (_, k) => data[k]);\n+  return tpl.replace(/{(\\w+)}/g, (_, k) => data[k] ?? '');\n };\n",
    );
    let (out, _) = apply(JS, &h).unwrap();
    assert!(out.contains("?? '');\n};\n\nexports.count"), "{out}");
    // The `}` of a body left out is passed over: the new line goes after the opener.
    let h = udiff(" function render(tpl, data) {\n+  if (!tpl) return '';\n }\n");
    let (out, _) = apply(JS, &h).unwrap();
    assert!(out.contains("data) {\n  if (!tpl) return '';\n  return tpl"), "{out}");
    // A comment closer the file does not have there is refused, not written or passed over.
    let h = udiff(" exports.count = count;\n+/* Counts. */\n+exports.total = total;\n */\n");
    assert!(apply(JS, &h).is_err());
}

/// A context line whose `+` was forgotten is added without the trailing whitespace it was
/// copied with (context's trailing whitespace is noise); lines marked `+` keep theirs.
#[test]
fn a_forgotten_plus_is_added_without_trailing_whitespace() {
    let h = udiff(
        " def delete_task(task_id):\n-    task = find(task_id)\n     try:\t \n+        task = find(task_id)\n+    except KeyError:  \n+        return None\n",
    );
    let (out, _) = apply(PY, &h).unwrap();
    assert!(
        out.contains("def delete_task(task_id):\n    try:\n        task = find(task_id)\n    except KeyError:  \n        return None\n    tasks.remove(task)"),
        "{out}"
    );
}

/// A twin refusal (a telling line matched only roughly, found exactly in the twin) lists both
/// places as candidates, and a person's pick of either places the hunk there.
#[test]
fn a_twin_refusal_offers_both_places_and_a_pick_settles_it() {
    let file = "def load_users(path):\n    with open(path) as f:\n        rows = json.load(f)\n    return [User(r) for r in rows]\n\n\ndef load_groups(path):\n    with open(path) as f:\n        data = json.load(f)\n    return [Group(r) for r in data]\n";
    let mut h = sr(
        "def load_users(path):\n    with open(path) as f:\n        data = json.load(f)\n    return [User(r) for r in data]\n",
        "def load_users(path):\n    with open(path, encoding=\"utf-8\") as f:\n        data = json.load(f)\n    return [User(r) for r in data]\n",
    );
    let err = apply(file, &h).expect_err("a look-alike is never chosen alone");
    assert_eq!(err.kind, RefusalKind::Ambiguous, "{}", err.message);
    let firsts: Vec<usize> = err.candidates.iter().map(|c| c.first_line).collect();
    assert_eq!(firsts, vec![1, 7], "{:?}", err.candidates);
    h.pick = Some(1);
    let (out, _) = apply(file, &h).expect("the pick places it");
    assert!(
        out.starts_with(
            "def load_users(path):\n    with open(path, encoding=\"utf-8\") as f:\n        rows"
        ),
        "{out}"
    );
    assert!(
        out.contains("def load_groups(path):\n    with open(path) as f:"),
        "the twin is untouched:\n{out}"
    );
    h.pick = Some(7);
    let (out, _) = apply(file, &h).expect("the other pick places it there");
    assert!(
        out.contains("def load_groups(path):\n    with open(path, encoding=\"utf-8\") as f:"),
        "{out}"
    );
    h.pick = Some(3);
    assert!(apply(file, &h).is_err(), "a pick of no candidate settles nothing");
}

/// A context-free diff hunk of short lines found well away from its `@@` number may be another
/// copy of them: refused. A SEARCH/REPLACE block's hint is no number the model wrote (the
/// review's guess of where its lines went after the file changed): never refused for it.
#[test]
fn only_a_diffs_own_number_refuses_a_context_free_hunk_found_far_from_it() {
    let file: Vec<String> = (0..12).map(|i| format!("x{i} = {i}")).collect();
    let mut block = sr("x1 = 1\n", "x1 = 2\n");
    block.old_start_hint = Some(9);
    assert!(locate(&block, &file, 0).is_ok());
    let mut diff = block.clone();
    diff.marked = true;
    assert!(locate(&diff, &file, 0).is_err());
}
