use super::*;
use crate::core::execute::After;
use crate::core::locate::MatchKind;
use crate::core::parse::{ParseOptions, parse_reply};
use crate::core::placement::Strategy;

const APP: &str = "def a():\n    return 1\n\n\ndef b():\n    return 2\n";

fn review_with(reply: &str) -> Review {
    let files = vec!["app.py".to_string()];
    let mut sources = BTreeMap::new();
    sources.insert("app.py".to_string(), Source::Text(APP.to_string()));
    let mut r = Review::new(files, sources);
    for e in parse_reply(reply, ParseOptions::default()) {
        assert!(r.add_event(e).is_empty());
    }
    r
}

const TWO: &str = "app.py\n```\n<<<<<<< SEARCH\n    return 1\n=======\n    return 10\n>>>>>>> REPLACE\n```\n\napp.py\n```\n<<<<<<< SEARCH\n    return 2\n=======\n    return 20\n>>>>>>> REPLACE\n```\n";

fn write_of(e: Effect) -> (HunkId, String, String) {
    match e {
        Effect::Write { hunk, path, text, .. } => (hunk, path, text),
        other => panic!("not a write: {other:?}"),
    }
}

#[test]
fn hunks_arrive_pending_with_a_preview() {
    let r = review_with(TWO);
    assert_eq!(r.hunks().len(), 2);
    assert_eq!(r.counts().pending, 2);
    let p = &r.hunks()[0].preview;
    assert_eq!(
        (p.start, p.old.clone(), p.new.clone()),
        (1, vec!["    return 1".into()], vec!["    return 10".into()])
    );
    assert_eq!(r.hunks()[0].report.strategy, Some(Strategy::Located(MatchKind::Exact)));
}

#[test]
fn accept_writes_and_later_hunks_are_placed_in_the_new_text() {
    let mut r = review_with(TWO);
    let (a, b) = (r.hunks()[0].id, r.hunks()[1].id);
    let (_, path, text) = write_of(r.accept(b).unwrap());
    assert_eq!(r.hunk(b).unwrap().state, HunkState::Accepted);
    r.write_done(&path, After::Text(text.clone()));
    assert_eq!(r.hunk(b).unwrap().state, HunkState::Applied);
    let (_, _, text2) = write_of(r.accept(a).unwrap());
    assert_eq!(text2, "def a():\n    return 10\n\n\ndef b():\n    return 20\n");
}

#[test]
fn reject_and_undo() {
    let mut r = review_with(TWO);
    let a = r.hunks()[0].id;
    assert!(r.reject(a));
    assert_eq!(r.counts().rejected, 1);
    assert_eq!(r.undo(), Ok(None));
    assert_eq!(r.hunk(a).unwrap().state, HunkState::Pending);
}

#[test]
fn undoing_an_applied_hunk_restores_the_file() {
    let mut r = review_with(TWO);
    let a = r.hunks()[0].id;
    let (_, path, text) = write_of(r.accept(a).unwrap());
    r.write_done(&path, After::Text(text));
    let (_, _, restored) = write_of(r.undo().unwrap().unwrap());
    assert_eq!(restored, APP);
    r.undo_done("app.py", After::Text(restored));
    assert_eq!(r.hunk(a).unwrap().state, HunkState::Pending);
}

#[test]
fn undo_after_the_file_changed_reverses_by_content() {
    let mut r = review_with(TWO);
    let a = r.hunks()[0].id;
    let (_, path, text) = write_of(r.accept(a).unwrap());
    r.write_done(&path, After::Text(text.clone()));
    let edited = format!("# header\n{text}");
    r.file_changed("app.py", Source::Text(edited));
    let (_, _, back) = write_of(r.undo().unwrap().unwrap());
    assert_eq!(back, format!("# header\n{APP}"));
}

#[test]
fn undo_is_refused_when_the_new_text_is_gone() {
    let mut r = review_with(TWO);
    let a = r.hunks()[0].id;
    let (_, path, text) = write_of(r.accept(a).unwrap());
    r.write_done(&path, After::Text(text));
    r.file_changed("app.py", Source::Text("something else entirely\n".into()));
    assert!(r.undo().is_err());
    assert_eq!(r.hunk(a).unwrap().state, HunkState::Applied);
    assert_eq!(r.hunk(a).unwrap().disk, Some(DiskNote::Edited), "it says so");
}

/// An inserted guard whose one line the user then edits stays applied, "edited on disk": were it
/// pending again, accepting it would write the guard a second time.
#[test]
fn an_insertion_the_user_edited_stays_applied_and_accepting_writes_nothing() {
    let reply = "app.py\n```\n<<<<<<< SEARCH\ndef a():\n    return 1\n=======\ndef a():\n    if DEBUG:\n        log('a called')\n    return 1\n>>>>>>> REPLACE\n```\n";
    let mut r = review_with(reply);
    let a = r.hunks()[0].id;
    let (_, path, text) = write_of(r.accept(a).unwrap());
    r.write_done(&path, After::Text(text.clone()));
    let edited = text.replace("log('a called')", "log('a() called')");
    r.file_changed("app.py", Source::Text(edited));
    let h = r.hunk(a).unwrap();
    assert_eq!((h.state.clone(), h.disk), (HunkState::Applied, Some(DiskNote::Edited)));
    // It shows what stands on disk now, not what it wrote.
    let model = crate::app::diff_model::DiffModel::of(h, r.source("app.py"));
    assert!(model.new.iter().any(|l| l.contains("log('a() called')")), "{:?}", model.new);
    assert!(!model.new.iter().any(|l| l.contains("log('a called')")), "{:?}", model.new);
    assert!(r.accept(a).is_none(), "not open: nothing to write");
}

#[test]
fn a_change_on_disk_moves_pending_hunks_or_makes_conflicts() {
    let mut r = review_with(TWO);
    let (a, b) = (r.hunks()[0].id, r.hunks()[1].id);
    r.file_changed(
        "app.py",
        Source::Text(format!("import os\n\n{}", APP.replace("return 2", "return 3"))),
    );
    assert_eq!(r.hunk(a).unwrap().state, HunkState::Pending);
    assert_eq!(r.hunk(a).unwrap().preview.start, 3, "moved down two lines");
    assert!(matches!(r.hunk(b).unwrap().state, HunkState::Conflict(_)));
    assert!(r.accept(b).is_none(), "a conflict is never applied");
}

#[test]
fn a_failed_write_puts_the_hunk_back() {
    let mut r = review_with(TWO);
    let a = r.hunks()[0].id;
    let _ = r.accept(a).unwrap();
    r.write_failed(a, "disk full");
    assert_eq!(r.hunk(a).unwrap().state, HunkState::Pending);
    assert_eq!(r.undo(), Err("there is no decision to undo".into()), "nothing to undo");
}

#[test]
fn split_cuts_a_hunk_into_its_change_groups() {
    let reply = "```diff\n--- a/app.py\n+++ b/app.py\n@@\n def a():\n-    return 1\n+    return 10\n \n \n def b():\n-    return 2\n+    return 20\n```\n";
    let mut r = review_with(reply);
    assert_eq!(r.hunks().len(), 1);
    let id = r.hunks()[0].id;
    assert!(r.split(id));
    assert_eq!(r.hunks().len(), 2);
    assert!(r.hunks().iter().all(|h| h.state == HunkState::Pending), "{:?}", r.hunks());
}

/// Groups of changes one blank line apart (a constant added under an import, a function
/// changed below): each part reaches past the blank line for a line that places it, and both
/// are pending (ux24 B2: the first part had only a blank line and could never be placed).
#[test]
fn each_split_part_keeps_a_line_that_places_it() {
    use crate::core::edit::{Hunk, HunkLine, LineKind::*};
    let hunk = Hunk {
        lines: vec![
            HunkLine::new(Context, "import math"),
            HunkLine::new(Add, "TAU = 2 * math.pi"),
            HunkLine::new(Context, ""),
            HunkLine::new(Context, "def area(r):"),
            HunkLine::new(Remove, "    return 3.14 * r * r"),
            HunkLine::new(Add, "    return math.pi * r * r"),
        ],
        old_start_hint: None,
        marked: false,
        pick: None,
        section: None,
        other_split: None,
    };
    let parts = split_hunk(&hunk, 0);
    assert_eq!(parts.len(), 2);
    for p in &parts {
        assert!(p.old_lines().any(|l| !l.trim().is_empty()), "{p:?}");
    }
    // Nothing but blank lines to reach: not split.
    let bare = Hunk {
        lines: vec![
            HunkLine::new(Add, "a = 1"),
            HunkLine::new(Context, ""),
            HunkLine::new(Add, "b = 2"),
        ],
        ..hunk.clone()
    };
    assert_eq!(split_hunk(&bare, 3).len(), 1);
}

#[test]
fn unplaceable_hunks_fail_with_a_reason() {
    let reply =
        "app.py\n```\n<<<<<<< SEARCH\ndef nowhere():\n    pass\n=======\nx\n>>>>>>> REPLACE\n```\n";
    let r = review_with(reply);
    assert_eq!(r.hunks()[0].state, HunkState::Failed);
    assert!(r.hunks()[0].report.reason.is_some());
}

#[test]
fn files_not_read_yet_are_asked_for() {
    let mut r = Review::new(vec!["app.py".into()], BTreeMap::new());
    let mut asked = Vec::new();
    for e in parse_reply(TWO, ParseOptions::default()) {
        asked.extend(r.add_event(e));
    }
    assert_eq!(asked[0], Effect::Read { path: "app.py".into() });
    r.file_loaded("app.py", Source::Text(APP.into()));
    assert_eq!(r.hunks().len(), 2);
}

#[test]
fn ids_are_stable() {
    let a = review_with(TWO);
    let b = review_with(TWO);
    assert_eq!(a.hunks()[0].id, b.hunks()[0].id);
    assert_ne!(a.hunks()[0].id, a.hunks()[1].id);
}

/// A hunk that adds lines above another: accepting it moves the other's lines down.
const GROW: &str = "app.py\n```\n<<<<<<< SEARCH\ndef a():\n    return 1\n=======\ndef a():\n    x = 1\n    y = 2\n    return 1\n>>>>>>> REPLACE\n```\n\napp.py\n```\n<<<<<<< SEARCH\n    return 2\n=======\n    return 20\n>>>>>>> REPLACE\n```\n";

fn accept_done(r: &mut Review, id: HunkId) {
    let (_, path, text) = write_of(r.accept(id).unwrap());
    r.write_done(&path, After::Text(text));
}

fn text_of(r: &Review) -> String {
    match r.source("app.py") {
        Some(Source::Text(t)) => t.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_applied_hunk_follows_its_lines_when_a_hunk_above_is_applied() {
    let mut r = review_with(GROW);
    let (a, b) = (r.hunks()[0].id, r.hunks()[1].id);
    accept_done(&mut r, b);
    assert_eq!(r.hunk(b).unwrap().preview.start, 5);
    accept_done(&mut r, a);
    let text = text_of(&r);
    let lines: Vec<&str> = text.lines().collect();
    let p = &r.hunk(b).unwrap().preview;
    assert_eq!(p.start, 7, "moved down by the two lines written above it");
    assert_eq!(lines[p.start..p.start + p.new.len()], ["    return 20"]);
}

#[test]
fn an_applied_hunk_taken_out_and_put_back_on_disk_is_applied_again() {
    let reply = "app.py\n```\n<<<<<<< SEARCH\ndef a():\n    return 1\n=======\ndef a():\n    return 10\n>>>>>>> REPLACE\n```\n";
    let mut r = review_with(reply);
    let a = r.hunks()[0].id;
    accept_done(&mut r, a);
    let written = text_of(&r);
    r.file_changed("app.py", Source::Text(APP.to_string()));
    assert_eq!(r.hunk(a).unwrap().state, HunkState::Pending);
    // `git stash pop`: the file holds the hunk's text again.
    r.file_changed("app.py", Source::Text(written.clone()));
    let h = r.hunk(a).unwrap();
    assert_eq!((h.state.clone(), h.disk), (HunkState::Applied, None));
    assert_eq!(r.counts().applied, 1);
    // `git checkout` once more: pending again, as the first time.
    r.file_changed("app.py", Source::Text(APP.to_string()));
    assert_eq!(r.hunk(a).unwrap().state, HunkState::Pending);
    assert_eq!(r.hunk(a).unwrap().disk, Some(DiskNote::Reverted));
    // Put back and undone: its decision is the one it was, so undo takes its lines out.
    r.file_changed("app.py", Source::Text(written));
    assert_eq!(r.hunk(a).unwrap().state, HunkState::Applied);
    let (id, _, text) = write_of(r.undo().unwrap().unwrap());
    assert_eq!((id, text), (a, APP.to_string()));
    r.undo_done("app.py", After::Text(APP.to_string()));
    assert_eq!(r.hunk(a).unwrap().state, HunkState::Pending);
}

/// `git stash` then `git stash pop` of two files with accepted hunks: the pop brings the files
/// back in any order, and undo still takes back the last decision made, writing its lines out;
/// the applied hunks' previews stand where their lines are.
#[test]
fn after_a_stash_and_pop_undo_takes_back_the_last_decision() {
    let lib = "def c():\n    return 3\n\n\ndef d():\n    return 4\n";
    let files = vec!["app.py".to_string(), "lib.py".to_string()];
    let mut sources = BTreeMap::new();
    sources.insert("app.py".to_string(), Source::Text(APP.to_string()));
    sources.insert("lib.py".to_string(), Source::Text(lib.to_string()));
    let mut r = Review::new(files, sources);
    let reply = format!(
        "{GROW}\nlib.py\n```\n<<<<<<< SEARCH\n    return 4\n=======\n    return 40\n>>>>>>> REPLACE\n```\n"
    );
    for e in parse_reply(&reply, ParseOptions::default()) {
        assert!(r.add_event(e).is_empty());
    }
    let ids: Vec<HunkId> = r.hunks().iter().map(|h| h.id).collect();
    let (a1, a2, l) = (ids[0], ids[1], ids[2]);
    // Decided in this order: app.py's second hunk, lib.py's, then app.py's first.
    accept_done(&mut r, a2);
    let lib_after = {
        let (_, path, text) = write_of(r.accept(l).unwrap());
        r.write_done(&path, After::Text(text.clone()));
        text
    };
    accept_done(&mut r, a1);
    let app_after = text_of(&r);
    // The stash takes both files back; the pop brings app.py back first, then lib.py.
    r.file_changed("app.py", Source::Text(APP.to_string()));
    r.file_changed("lib.py", Source::Text(lib.to_string()));
    assert_eq!(r.counts().applied, 0);
    r.file_changed("app.py", Source::Text(app_after.clone()));
    r.file_changed("lib.py", Source::Text(lib_after.clone()));
    assert_eq!(r.counts().applied, 3);
    let lines: Vec<&str> = app_after.lines().collect();
    for id in [a1, a2] {
        let p = &r.hunk(id).unwrap().preview;
        assert_eq!(lines[p.start..p.start + p.new.len()], p.new[..], "{p:?}");
    }
    // The last decision was app.py's first hunk: undo takes it out of app.py.
    let (id, path, text) = write_of(r.undo().unwrap().unwrap());
    assert_eq!((id, path.as_str()), (a1, "app.py"));
    assert!(!text.contains("x = 1") && text.contains("return 20"), "{text}");
    r.undo_done("app.py", After::Text(text));
    // Then lib.py's.
    let (id, path, _) = write_of(r.undo().unwrap().unwrap());
    assert_eq!((id, path.as_str()), (l, "lib.py"));
}

#[test]
fn an_applied_hunk_taken_out_on_disk_is_pending_again() {
    let mut r = review_with(TWO);
    let a = r.hunks()[0].id;
    accept_done(&mut r, a);
    assert_eq!(r.hunk(a).unwrap().state, HunkState::Applied);
    // `git checkout app.py`: the file is as it was.
    r.file_changed("app.py", Source::Text(APP.to_string()));
    let h = r.hunk(a).unwrap();
    assert_eq!(h.state, HunkState::Pending);
    assert_eq!(h.disk, Some(DiskNote::Reverted));
    assert_eq!(h.preview.old, ["    return 1"], "placed against the file as it is now");
    assert!(
        r.undo().unwrap_err().contains("no longer in their files"),
        "nothing of it is left to undo"
    );
    // It can be accepted again.
    accept_done(&mut r, a);
    assert_eq!(r.hunk(a).unwrap().disk, None);
    // An unrelated change elsewhere leaves an applied hunk applied.
    let edited = text_of(&r).replace("def b():", "def b():  # hi");
    r.file_changed("app.py", Source::Text(edited));
    assert_eq!(r.hunk(a).unwrap().state, HunkState::Applied);
}

#[test]
fn a_conflict_resolved_by_hand_shows_what_was_written() {
    let mut r = review_with(TWO);
    let a = r.hunks()[0].id;
    r.file_changed("app.py", Source::Text(APP.replace("return 1", "return 1.0")));
    assert!(r.hunk(a).unwrap().state.is_conflict());
    let (_, path, text) = write_of(r.resolve_conflict(a, "    return 11\n").unwrap());
    r.write_done(&path, After::Text(text));
    let p = &r.hunk(a).unwrap().preview;
    assert_eq!(p.new, ["    return 11"], "what was written, not the model's `return 10`");
    assert_eq!(p.old, ["    return 1.0"]);
}

#[test]
fn a_conflict_on_a_deleted_file_resolved_by_hand_writes_the_file_anew() {
    let mut r = review_with(TWO);
    let a = r.hunks()[0].id;
    r.file_changed("app.py", Source::Missing);
    assert!(r.hunk(a).unwrap().state.is_conflict());
    let doc = conflict_document(&r.conflict_view(a).unwrap(), "app.py");
    assert!(doc.contains("gone from disk"), "{doc}");
    let effect = r.resolve_conflict(a, "def a():\n    return 10\n").unwrap();
    let Effect::Write { path, expected, text, .. } = effect else { panic!("{effect:?}") };
    assert_eq!(
        (path.as_str(), expected, text.as_str()),
        ("app.py", None, "def a():\n    return 10\n")
    );
    assert_eq!(r.hunk(a).unwrap().state, HunkState::Accepted);
}

#[test]
fn rejected_hunks_are_placed_against_the_file_now() {
    let mut r = review_with(GROW);
    let (a, b) = (r.hunks()[0].id, r.hunks()[1].id);
    assert!(r.reject(b));
    accept_done(&mut r, a);
    assert_eq!(r.hunk(b).unwrap().preview.start, 7);
}

#[test]
fn numbers_are_per_file_and_parts_share_theirs() {
    let three = "app.py\n```diff\n@@ -1,6 +1,6 @@\n def a():\n-    return 1\n+    return 10\n \n \n def b():\n-    return 2\n+    return 20\n```\n";
    let mut r = review_with(&format!("{TWO}\n{three}"));
    assert_eq!(r.labels(), ["1", "2", "3"]);
    assert!(r.split(r.hunks()[2].id));
    assert_eq!(r.labels(), ["1", "2", "3a", "3b"]);
}

/// A file of `n` functions and a reply that changes `k` of them in turn, some adding lines,
/// some removing them.
fn many(n: usize, k: usize) -> (String, String) {
    let file: String =
        (0..n).map(|i| format!("def f{i}():\n    x = {i}\n    return x\n\n\n")).collect();
    let reply: String = (0..k)
        .map(|j| {
            let i = j * n / k;
            let new = match j % 3 {
                // The same new lines in several places: each hunk's must be told apart by
                // where the hunks after it moved them.
                0 => "    x = 0\n    x += 1\n    x *= 2\n".to_string(),
                1 => String::new(),
                _ => "    x = -1\n".to_string(),
            };
            format!("a.py\n```\n<<<<<<< SEARCH\ndef f{i}():\n    x = {i}\n=======\ndef f{i}():\n{new}>>>>>>> REPLACE\n```\n\n")
        })
        .collect();
    (file, reply)
}

#[test]
fn hunks_accepted_together_write_what_accepting_them_one_by_one_writes_and_undo_one_by_one() {
    let (file, reply) = many(40, 12);
    let fresh = || {
        let sources = BTreeMap::from([("a.py".to_string(), Source::Text(file.clone()))]);
        let mut r = Review::new(vec!["a.py".into()], sources);
        for e in parse_reply(&reply, ParseOptions::default()) {
            assert!(r.add_event(e).is_empty());
        }
        assert_eq!(r.counts().pending, 12);
        r
    };
    let mut one_by_one = fresh();
    // Last in the file first: each write moves the lines of the ones accepted before it.
    let ids: Vec<HunkId> = one_by_one.hunks().iter().rev().map(|h| h.id).collect();
    let mut last = file.clone();
    for &id in &ids {
        let (_, path, text) = write_of(one_by_one.accept(id).unwrap());
        one_by_one.write_done(&path, After::Text(text.clone()));
        last = text;
    }
    let mut together = fresh();
    let (_, path, text) = write_of(together.accept_together(&ids, None).unwrap());
    assert_eq!(text, last, "the same file");
    assert_eq!(together.counts().accepted, 12);
    assert_eq!(together.decided_in_windows(), 12, "put in at once, each in its window");
    together.write_done(&path, After::Text(text.clone()));
    assert_eq!(together.counts().applied, 12);
    for (a, b) in one_by_one.hunks().iter().zip(together.hunks()) {
        assert_eq!(a.preview, b.preview, "each hunk shows where its lines are now");
        assert_eq!(a.report.lines, b.report.lines, "and the lines it was placed at");
    }
    // Undo takes them back one at a time, last first, each restoring the file before it.
    let mut now = text;
    for _ in 0..12 {
        let (hunk, path, text) = write_of(together.undo().unwrap().unwrap());
        assert_ne!(text, now);
        together.undo_done(&path, After::Text(text.clone()));
        assert_eq!(together.hunk(hunk).unwrap().state, HunkState::Pending);
        now = text;
    }
    assert_eq!(now, file);
}

#[test]
fn a_failed_write_of_hunks_accepted_together_puts_them_all_back() {
    let mut r = review_with(TWO);
    let ids: Vec<HunkId> = r.hunks().iter().map(|h| h.id).collect();
    let (carrier, _, _) = write_of(r.accept_together(&ids, None).unwrap());
    assert_eq!(r.write_failed(carrier, "disk full"), ids);
    assert_eq!(r.counts().pending, 2);
    assert_eq!(r.undo(), Err("there is no decision to undo".into()), "no decision is left to undo");
}

#[test]
fn undoing_hunks_written_together_takes_them_back_in_one_write_unless_the_file_changed() {
    let (file, reply) = many(30, 9);
    let sources = BTreeMap::from([("a.py".to_string(), Source::Text(file.clone()))]);
    let mut r = Review::new(vec!["a.py".into()], sources);
    for e in parse_reply(&reply, ParseOptions::default()) {
        assert!(r.add_event(e).is_empty());
    }
    let ids: Vec<HunkId> = r.hunks().iter().map(|h| h.id).collect();
    let (a, b) = ids.split_at(4);
    // Two writes: the first four hunks, then the other five.
    for part in [a, b] {
        let (_, path, text) = write_of(r.accept_together(part, None).unwrap());
        r.write_done(&path, After::Text(text));
    }
    assert_eq!(r.counts().applied, 9);
    assert_eq!(r.decided_in_windows(), 9);
    let all = |_: HunkId| true;
    let (_, path, text) = write_of(r.undo_together(all).unwrap().unwrap());
    assert_eq!(text, file, "one write takes all nine back");
    assert_eq!(r.counts().pending, 9);
    // Not written: all nine are applied again, their decisions the last again.
    r.undo_not_written();
    assert_eq!(r.counts().applied, 9);
    // Someone edits the file: each hunk is taken out by content, one at a time.
    let Some(Source::Text(now)) = r.source(&path) else { panic!("the file is there") };
    let theirs = format!("# theirs\n{now}");
    r.file_changed(&path, Source::Text(theirs));
    let (_, _, text) = write_of(r.undo_together(all).unwrap().unwrap());
    assert!(text.starts_with("# theirs\n"), "their line stays");
    assert_eq!(r.counts().pending, 1);
}

#[test]
fn a_file_the_reply_creates_then_edits_is_written_once_with_both() {
    let reply = "new.py\n```python\n<<<<<<< SEARCH\n=======\ndef f():\n    return 1\n>>>>>>> REPLACE\n```\n\nnew.py\n```python\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n```\n";
    let mut r = Review::new(vec!["app.py".into()], BTreeMap::new());
    let mut reads = Vec::new();
    for e in parse_reply(reply, ParseOptions::default()) {
        reads.extend(r.add_event(e));
    }
    assert!(r.problems.is_empty(), "the edit finds the file the reply creates: {:?}", r.problems);
    for read in reads {
        if let Effect::Read { path } = read {
            r.file_loaded(&path, Source::Missing);
        }
    }
    let ids: Vec<HunkId> = r.hunks().iter().map(|h| h.id).collect();
    assert_eq!(ids.len(), 2);
    let (_, path, text) = write_of(r.accept_together(&ids, None).unwrap());
    assert_eq!((path.as_str(), text.as_str()), ("new.py", "def f():\n    return 2\n"));
}

/// Another program (a second review, a teammate's `git pull`) writes exactly what a pending
/// replacement proposes: the hunk is already applied there, not a conflict to resolve by hand.
#[test]
fn a_pending_replacement_another_program_made_is_already_applied_not_a_conflict() {
    for reply in [
        "app.py\n```\n<<<<<<< SEARCH\ndef a():\n    return 1\n=======\ndef a():\n    return 10\n>>>>>>> REPLACE\n```\n",
        "app.py\n```\n<<<<<<< SEARCH\n    return 1\n=======\n    return 10\n>>>>>>> REPLACE\n```\n",
    ] {
        let mut r = review_with(reply);
        let id = r.hunks()[0].id;
        r.file_changed("app.py", Source::Text(APP.replace("return 1\n", "return 10\n")));
        let h = r.hunk(id).unwrap();
        assert!(!h.state.is_conflict(), "{reply}: {:?} {:?}", h.state, h.report.reason);
        assert!(h.report.already_applied(), "{reply}: {:?}", h.report);
    }
}

/// A hunk the file came to hold (the user made the change, or `git stash pop` put an accepted
/// one back) and then lost again (`git checkout`): the file is what the model saw, and the hunk
/// is pending there, not a conflict; accepting it writes it.
#[test]
fn a_file_back_to_what_the_model_saw_is_no_conflict() {
    let reply = "app.py\n```\n<<<<<<< SEARCH\ndef a():\n    return 1\n=======\ndef a():\n    return 10\n>>>>>>> REPLACE\n```\n";
    let mut r = review_with(reply);
    let id = r.hunks()[0].id;
    let (_, path, text) = write_of(r.accept(id).unwrap());
    r.write_done(&path, After::Text(text.clone()));
    // `git stash`: the file as the model saw it; the hunk is pending again.
    r.file_changed(&path, Source::Text(APP.into()));
    assert_eq!(r.hunk(id).unwrap().state, HunkState::Pending);
    // `git stash pop`: its new text is back, already applied.
    r.file_changed(&path, Source::Text(text));
    assert!(r.hunk(id).unwrap().report.already_applied());
    // `git checkout`: what the model saw, once more.
    r.file_changed(&path, Source::Text(APP.into()));
    let h = r.hunk(id).unwrap();
    assert_eq!(h.state, HunkState::Pending, "{:?}", h.report.reason);
    let (_, _, text) = write_of(r.accept(id).unwrap());
    assert_eq!(text, APP.replace("return 1\n", "return 10\n"));
}

#[test]
fn an_edit_sent_again_after_its_rejection_comes_back_and_a_pending_one_is_not_doubled() {
    let mut r = review_with(TWO);
    let (a, b) = (r.hunks()[0].id, r.hunks()[1].id);
    assert!(r.reject(a));
    // A retry round re-sends both edits: the rejected one comes back as a new pending hunk,
    // the pending one stays single, and the review says it left the repeat out.
    for e in parse_reply(TWO, ParseOptions::default()) {
        assert!(r.add_event(e).is_empty());
    }
    assert_eq!(r.hunks().len(), 3);
    let again = r.hunks()[2].id;
    assert!(![a, b].contains(&again));
    assert_eq!(r.hunk(again).unwrap().state, HunkState::Pending);
    assert_eq!(r.hunk(a).unwrap().state, HunkState::Rejected);
    assert_eq!(r.repeated, 1, "the pending one's repeat is counted");
    // The same messages give the same ids (a replay, a resume).
    let mut r2 = review_with(TWO);
    assert!(r2.reject(a));
    for e in parse_reply(TWO, ParseOptions::default()) {
        r2.add_event(e);
    }
    assert_eq!(r2.hunks()[2].id, again);
    // Rejected once more and sent a third time: a third id.
    assert!(r.reject(again));
    for e in parse_reply(TWO, ParseOptions::default()) {
        r.add_event(e);
    }
    assert_eq!(r.hunks().len(), 4);
    assert!(![a, b, again].contains(&r.hunks()[3].id));
}

#[test]
fn a_whole_file_listing_splits_into_its_changes() {
    let file: String = (1..=30).map(|i| format!("x{i} = {i}\n")).collect();
    let listing = file.replace("x3 = 3\n", "x3 = 33\n").replace("x20 = 20\n", "x20 = 200\n");
    let files = vec!["n.py".to_string()];
    let mut sources = BTreeMap::new();
    sources.insert("n.py".to_string(), Source::Text(file.clone()));
    let mut r = Review::new(files, sources);
    for e in parse_reply(&format!("n.py\n```python\n{listing}```\n"), ParseOptions::default()) {
        r.add_event(e);
    }
    let id = r.hunks()[0].id;
    assert!(r.split(id));
    assert_eq!(r.hunks().len(), 2);
    let starts: Vec<usize> = r.hunks().iter().map(|h| h.preview.start).collect();
    assert!(r.hunks().iter().all(|h| h.state == HunkState::Pending), "{starts:?}");
    // Each part alone changes its own line; both together give the listing.
    let (a, b) = (r.hunks()[0].id, r.hunks()[1].id);
    let (_, path, text) = write_of(r.accept(b).unwrap());
    assert_eq!(text, file.replace("x20 = 20\n", "x20 = 200\n"));
    r.write_done(&path, After::Text(text));
    let (_, _, text) = write_of(r.accept(a).unwrap());
    assert_eq!(text, listing);
}

#[test]
fn a_listings_conflict_is_resolved_with_its_placeholders_merged_never_kept() {
    let listing = "app.py\n```python\ndef a():\n    return 10\n\n\n# ... rest of the code unchanged ...\n```\n";
    let mut r = review_with(listing);
    let a = r.hunks()[0].id;
    r.file_changed("app.py", Source::Text(APP.replace("return 2", "return 3")));
    assert!(r.hunk(a).unwrap().state.is_conflict(), "{:?}", r.hunk(a).unwrap().state);
    let view = r.conflict_edit_view(a).unwrap();
    assert!(view.proposed.iter().any(|l| l == "    return 10"), "{view:?}");
    assert!(view.proposed.iter().any(|l| l == "    return 3"), "the user's line: {view:?}");
    assert!(!view.proposed.iter().any(|l| l.contains("rest of the code")), "{view:?}");
    // Keeping the raw listing's side writes nothing.
    let raw = "def a():\n    return 10\n\n\n# ... rest of the code unchanged ...\n";
    let why = r.resolve_conflict(a, raw).unwrap_err();
    assert!(why.contains("placeholder"), "{why}");
}
