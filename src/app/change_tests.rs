//! Model tests of files that change under review: re-placing, conflicts, stale writes.

use std::collections::BTreeMap;

use super::*;

const APP_PY: &str = "import os\n\n\ndef load(path):\n    with open(path) as f:\n        return f.read()\n\n\ndef save(path, text):\n    with open(path, 'w') as f:\n        f.write(text)\n";

const REPLY: &str = "app.py\n```\n<<<<<<< SEARCH\ndef load(path):\n    with open(path) as f:\n        return f.read()\n=======\ndef load(path):\n    with open(path, encoding='utf-8') as f:\n        return f.read()\n>>>>>>> REPLACE\n```\n";

fn reviewing() -> (App, Instant, HunkId) {
    let files = vec!["app.py".to_string()];
    let sources = BTreeMap::from([("app.py".to_string(), Source::Text(APP_PY.into()))]);
    let mut app = App::new(AppConfig {
        label: "test · model".into(),
        ..AppConfig::new(files, sources, "use utf-8")
    });
    let now = Instant::now();
    app.start(now);
    app.update_placed(Msg::Chunk(REPLY.into()), now);
    app.update_placed(Msg::StreamEnd(StreamDone::default()), now);
    let id = app.selected.expect("the hunk is selected");
    (app, now, id)
}

fn key(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

fn written(effects: &[AppEffect]) -> (HunkId, String, Option<String>, String) {
    match effects {
        [
            AppEffect::Write { effect: Effect::Write { hunk, path, expected, text }, undo: false },
        ] => (*hunk, path.clone(), expected.clone(), text.clone()),
        other => panic!("expected one write, got {other:?}"),
    }
}

fn changed(text: &str) -> Msg {
    Msg::FileChanged { path: "app.py".into(), source: Source::Text(text.into()) }
}

#[test]
fn lines_inserted_above_move_the_hunk_and_accepting_keeps_them() {
    let (mut app, now, id) = reviewing();
    let theirs = format!("# added by someone else\nimport sys\n{APP_PY}");
    app.update_placed(changed(&theirs), now);
    assert_eq!(app.review.hunk(id).unwrap().state, HunkState::Pending);
    assert_eq!(app.review.hunk(id).unwrap().report.lines, Some((6, 8)));
    let (_, _, expected, text) = written(&app.update_placed(key('y'), now));
    assert_eq!(expected.as_deref(), Some(theirs.as_str()), "the write expects their text");
    assert!(text.starts_with("# added by someone else\nimport sys\nimport os\n"));
    assert!(text.contains("open(path, encoding='utf-8')"));
}

#[test]
fn a_change_to_the_old_text_makes_a_conflict_that_is_never_accepted() {
    let (mut app, now, id) = reviewing();
    let theirs = APP_PY.replace(
        "        return f.read()\n",
        "        data = f.read()\n        return data.strip()\n",
    );
    app.update_placed(changed(&theirs), now);
    let h = app.review.hunk(id).unwrap();
    assert!(h.state.is_conflict(), "{:?}", h.state);
    assert!(app.update_placed(key('y'), now).is_empty(), "accepting a conflict writes nothing");
    assert!(app.notice.as_deref().unwrap().contains("not applied"), "{:?}", app.notice);
    let view = app.review.conflict_view(id).expect("three ways");
    assert_eq!(view.saw[2], "        return f.read()");
    assert_eq!(view.proposed[1], "    with open(path, encoding='utf-8') as f:");
    let (first, now_lines) = view.now.expect("the file is there");
    assert_eq!(first, 4);
    assert_eq!(
        now_lines,
        [
            "def load(path):",
            "    with open(path) as f:",
            "        data = f.read()",
            "        return data.strip()"
        ]
    );
    // Their edit undone by them: the hunk fits again.
    app.update_placed(changed(APP_PY), now);
    assert_eq!(app.review.hunk(id).unwrap().state, HunkState::Pending);
}

#[test]
fn accepting_a_conflict_keeps_it_selected_so_that_its_advice_is_about_it() {
    let files = vec!["app.py".to_string()];
    let sources = BTreeMap::from([("app.py".to_string(), Source::Text(APP_PY.into()))]);
    let mut app = App::new(AppConfig::new(files, sources, "use utf-8"));
    let now = Instant::now();
    app.start(now);
    let second = "app.py\n```\n<<<<<<< SEARCH\n        f.write(text)\n=======\n        f.write(text.rstrip())\n>>>>>>> REPLACE\n```\n";
    app.update_placed(Msg::Chunk(format!("{REPLY}{second}")), now);
    app.update_placed(Msg::StreamEnd(StreamDone::default()), now);
    let first = app.selected.expect("the first hunk is selected");
    let theirs = APP_PY.replace("        return f.read()\n", "        return f.read().strip()\n");
    app.update_placed(changed(&theirs), now);
    assert!(app.review.hunk(first).unwrap().state.is_conflict());
    assert!(app.update_placed(key('y'), now).is_empty());
    assert_eq!(app.selected, Some(first), "the conflict stays selected");
    // Its advice followed: `n` drops the conflict, not the next hunk.
    app.update_placed(key('n'), now);
    assert_eq!(app.review.hunk(first).unwrap().state, HunkState::Rejected);
    let other = app.review.hunks().iter().find(|h| h.id != first).unwrap();
    assert_eq!(other.state, HunkState::Pending);
}

#[test]
fn a_conflict_is_resolved_in_the_editor_against_the_text_now() {
    let (mut app, now, id) = reviewing();
    let theirs = APP_PY.replace(
        "    with open(path) as f:\n        return f.read()\n",
        "    with open(path, 'rb') as f:\n        return f.read().decode()\n",
    );
    app.update_placed(changed(&theirs), now);
    let doc = match app.update_placed(key('e'), now).as_slice() {
        [AppEffect::OpenEditor { hunk, text }] if *hunk == id => text.clone(),
        other => panic!("expected the editor, got {other:?}"),
    };
    assert!(doc.starts_with("<<<<<<< on disk now: app.py lines 4-6\n"), "{doc}");
    assert!(doc.contains("=======\n") && doc.contains(">>>>>>> proposed"));
    // Saving with markers left in writes nothing.
    let msg = Msg::EditorDone { hunk: id, result: Ok(doc.clone()) };
    assert!(app.update_placed(msg, now).is_empty());
    assert!(app.notice.as_deref().unwrap().contains("conflict markers"));
    let resolved = "def load(path):\n    with open(path, 'rb') as f:\n        return f.read().decode('utf-8')\n";
    let msg = Msg::EditorDone { hunk: id, result: Ok(resolved.into()) };
    let (_, _, expected, text) = written(&app.update_placed(msg, now));
    assert_eq!(expected.as_deref(), Some(theirs.as_str()));
    assert_eq!(text, theirs.replace("f.read().decode()", "f.read().decode('utf-8')"));
}

#[test]
fn a_deleted_file_turns_its_hunks_into_conflicts() {
    let (mut app, now, id) = reviewing();
    app.update_placed(Msg::FileChanged { path: "app.py".into(), source: Source::Missing }, now);
    let HunkState::Conflict(why) = &app.review.hunk(id).unwrap().state else { panic!() };
    assert!(why.contains("deleted or renamed"), "{why}");
    assert!(app.update_placed(key('y'), now).is_empty(), "nothing is recreated");
    assert_eq!(app.review.conflict_view(id).unwrap().now, None);
}

#[test]
fn a_stale_write_places_the_hunk_again_and_writes_over_their_text() {
    let (mut app, now, id) = reviewing();
    let (hunk, path, _, _) = written(&app.update_placed(key('y'), now));
    let theirs = format!("{APP_PY}\n\ndef extra():\n    pass\n");
    let effects = app.update_placed(
        Msg::WriteStale { hunk, path, source: Source::Text(theirs.clone()), undo: false },
        now,
    );
    let (again, _, expected, text) = written(&effects);
    assert_eq!(again, id);
    assert_eq!(expected.as_deref(), Some(theirs.as_str()));
    assert!(text.ends_with("def extra():\n    pass\n") && text.contains("encoding='utf-8'"));
}

#[test]
fn a_stale_write_that_no_longer_fits_stops_at_a_conflict() {
    let (mut app, now, id) = reviewing();
    let (hunk, path, _, _) = written(&app.update_placed(key('y'), now));
    let theirs =
        APP_PY.replace("def load(path):\n    with open(path) as f:\n        return f.read()\n", "");
    let msg = Msg::WriteStale { hunk, path, source: Source::Text(theirs), undo: false };
    assert!(app.update_placed(msg, now).is_empty());
    assert!(app.review.hunk(id).unwrap().state.is_conflict());
}

#[test]
fn a_file_that_never_settles_is_left_alone_after_some_tries() {
    let (mut app, now, _) = reviewing();
    let mut effects = app.update_placed(key('y'), now);
    let mut tries = 0;
    while let [AppEffect::Write { effect: Effect::Write { hunk, path, .. }, .. }] =
        effects.as_slice()
    {
        tries += 1;
        let theirs = format!("# round {tries}\n{APP_PY}");
        let msg = Msg::WriteStale {
            hunk: *hunk,
            path: path.clone(),
            source: Source::Text(theirs),
            undo: false,
        };
        effects = app.update_placed(msg, now);
        assert!(tries < 100, "the retries are bounded");
    }
    assert!(app.notice.as_deref().unwrap().contains("keeps changing"), "{:?}", app.notice);
}

#[test]
fn conflicts_go_back_to_the_model_with_the_text_now() {
    let (mut app, now, id) = reviewing();
    let theirs = APP_PY.replace("        return f.read()\n", "        return f.read().upper()\n");
    app.update_placed(changed(&theirs), now);
    let messages = match app.update_placed(key('r'), now).as_slice() {
        [AppEffect::StartStream { messages, .. }] => messages.clone(),
        other => panic!("expected a new request, got {other:?}"),
    };
    let last = &messages.last().unwrap().content;
    assert!(last.contains("changed on disk"), "{last}");
    assert!(last.contains("return f.read().upper()"), "the text now is sent: {last}");
    assert_eq!(app.review.hunk(id).unwrap().state, HunkState::Rejected);
}

#[test]
fn undo_after_another_edit_takes_out_only_the_hunk() {
    let (mut app, now, id) = reviewing();
    let effects = app.update_placed(key('y'), now);
    let (_, path, _, text) = written(&effects);
    app.update_placed(
        Msg::WriteDone { hunk: id, path, after: After::Text(text.clone()), undo: false },
        now,
    );
    let theirs = format!("{text}\n\ndef extra():\n    pass\n");
    app.update_placed(changed(&theirs), now);
    let effects = app.update_placed(key('u'), now);
    let [AppEffect::Write { effect: Effect::Write { text, expected, .. }, undo: true }] =
        effects.as_slice()
    else {
        panic!("expected an undo write, got {effects:?}");
    };
    assert_eq!(expected.as_deref(), Some(theirs.as_str()));
    assert_eq!(text, &format!("{APP_PY}\n\ndef extra():\n    pass\n"));
}

#[test]
fn undo_is_refused_when_the_hunks_own_lines_were_edited() {
    let (mut app, now, id) = reviewing();
    let (_, path, _, text) = written(&app.update_placed(key('y'), now));
    app.update_placed(
        Msg::WriteDone { hunk: id, path, after: After::Text(text.clone()), undo: false },
        now,
    );
    let theirs = text.replace("encoding='utf-8'", "encoding='latin-1'");
    app.update_placed(changed(&theirs), now);
    assert!(app.update_placed(key('u'), now).is_empty());
    let notice = app.notice.clone().unwrap();
    assert!(notice.contains("cannot undo") && notice.contains("edited since"), "{notice}");
    assert_eq!(app.review.hunk(id).unwrap().state, HunkState::Applied);
}

#[test]
fn a_file_the_review_reads_is_followed_from_then_on() {
    let (mut app, now, _) = reviewing();
    let other = "util.py\n```\n<<<<<<< SEARCH\nX = 1\n=======\nX = 2\n>>>>>>> REPLACE\n```\n";
    app.update_placed(Msg::Chunk(other.into()), now);
    let effects = app.update_placed(
        Msg::FileRead { path: "util.py".into(), source: Source::Text("X = 1\n".into()) },
        now,
    );
    assert!(
        effects.contains(&AppEffect::Follow { path: "util.py".into() }),
        "the runtime is asked to follow the file it read: {effects:?}"
    );
}

#[test]
fn a_change_to_what_the_review_already_holds_is_no_change() {
    let (mut app, now, id) = reviewing();
    app.notice = None;
    let effects = app.update_placed(changed(APP_PY), now);
    assert!(effects.is_empty());
    assert_eq!(app.notice, None, "nothing is said about a change that changed nothing");
    assert_eq!(app.review.hunk(id).unwrap().state, HunkState::Pending);
    // A file the review does not hold that is still missing is no change either.
    let gone = Msg::FileChanged { path: "nowhere.py".into(), source: Source::Missing };
    assert!(app.update_placed(gone, now).is_empty());
}

/// Found in tmux: an accepted hunk taken out by `git stash` (pending again, reverted) and put
/// back by `git stash pop` was shown as a conflict ("the lines it changes were edited"): the
/// review's windowed placement found the edited line roughly and did not see that the file
/// holds the hunk's new text. It is already applied, as `redline apply` says.
#[test]
fn a_hunk_taken_out_and_put_back_by_someone_else_is_applied_again() {
    let file = "def ask(value):\n    value = value.lower()\n    if value in (\"y\", \"yes\"):\n        rv = True\n    elif value in (\"n\", \"no\"):\n        rv = False\n    return rv\n";
    let reply = "ask.py\n```\n<<<<<<< SEARCH\n    if value in (\"y\", \"yes\"):\n        rv = True\n=======\n    if value in (\"y\", \"yes\", \"ok\"):\n        rv = True\n>>>>>>> REPLACE\n```\n";
    let files = vec!["ask.py".to_string()];
    let sources = BTreeMap::from([("ask.py".to_string(), Source::Text(file.into()))]);
    let mut app = App::new(AppConfig { label: "t".into(), ..AppConfig::new(files, sources, "ok") });
    let now = Instant::now();
    app.start(now);
    app.update_placed(Msg::Chunk(reply.into()), now);
    app.update_placed(Msg::StreamEnd(StreamDone::default()), now);
    let id = app.selected.expect("selected");
    let (hunk, path, _, text) = written(&app.update_placed(key('y'), now));
    app.update_placed(
        Msg::WriteDone { hunk, path: path.clone(), after: After::Text(text.clone()), undo: false },
        now,
    );
    let taken_out = Msg::FileChanged { path: path.clone(), source: Source::Text(file.into()) };
    app.update_placed(taken_out, now);
    assert_eq!(app.review.hunk(id).unwrap().state, HunkState::Pending);
    let above = format!("# put back\n{text}");
    app.update_placed(Msg::FileChanged { path, source: Source::Text(above) }, now);
    // Its accept stands again: applied, nothing to write.
    let h = app.review.hunk(id).unwrap();
    assert_eq!(h.state, HunkState::Applied, "{:?}", h.report);
    assert!(h.report.already_applied(), "{:?}", h.report);
    assert_eq!(app.review.counts().applied, 1);
    // Undo takes the decision back, and its lines out of the file (the pending hunk must not
    // stand beside its own text on disk), keeping the line put above it.
    match &app.update_placed(key('u'), now)[..] {
        [AppEffect::Write { effect: Effect::Write { text, .. }, undo: true }] => {
            assert_eq!(*text, format!("# put back\n{file}"));
        }
        other => panic!("expected the undo's write, got {other:?}"),
    }
}

/// `app.py`'s review with three edits: the first removes `load`, the second changes `load`
/// (it no longer fits once the first is written), the third changes `save`.
fn three_edits() -> (App, Instant) {
    let files = vec!["app.py".to_string()];
    let sources = BTreeMap::from([("app.py".to_string(), Source::Text(APP_PY.into()))]);
    let mut app = App::new(AppConfig {
        label: "test · model".into(),
        ..AppConfig::new(files, sources, "tidy")
    });
    let now = Instant::now();
    app.start(now);
    let edit = |old: &str, new: &str| {
        format!("app.py\n```\n<<<<<<< SEARCH\n{old}=======\n{new}>>>>>>> REPLACE\n```\n")
    };
    let load = "def load(path):\n    with open(path) as f:\n        return f.read()\n";
    let reply = [
        edit(&format!("import os\n\n\n{load}"), "import os\n"),
        edit(load, &load.replace("open(path)", "open(path, encoding='utf-8')")),
        edit("        f.write(text)\n", "        f.write(text)\n        f.flush()\n"),
    ]
    .concat();
    app.update_placed(Msg::Chunk(reply), now);
    app.update_placed(Msg::StreamEnd(StreamDone::default()), now);
    assert_eq!(app.review.counts().pending, 3);
    (app, now)
}

fn accept_all() -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char('A'), KeyModifiers::SHIFT))
}

#[test]
fn hunks_accepted_together_are_each_placed_in_what_the_ones_before_left() {
    let (mut app, now) = three_edits();
    let ids: Vec<HunkId> = app.review.hunks().iter().map(|h| h.id).collect();
    let (carrier, _, expected, text) = written(&app.update_placed(accept_all(), now));
    assert_eq!(expected.as_deref(), Some(APP_PY));
    assert!(!text.contains("def load") && text.contains("f.flush()"), "{text}");
    assert_eq!(app.review.hunk(ids[1]).unwrap().state, HunkState::Failed, "no longer fits");
    let done = Msg::WriteDone {
        hunk: carrier,
        path: "app.py".into(),
        after: After::Text(text.clone()),
        undo: false,
    };
    assert!(app.update_placed(done, now).is_empty());
    let applied = |i: usize| app.review.hunk(ids[i]).unwrap().clone();
    assert_eq!((applied(0).state, applied(2).state), (HunkState::Applied, HunkState::Applied));
    // Each preview shows where its lines are in the file as written.
    let lines: Vec<&str> = text.lines().collect();
    let p = &applied(2).preview;
    assert_eq!(
        lines[p.start..p.start + p.new.len()],
        p.new.iter().map(String::as_str).collect::<Vec<_>>()[..]
    );
    assert_eq!(p.new.last().map(String::as_str), Some("        f.flush()"));
}

#[test]
fn a_queued_hunk_that_no_longer_fits_does_not_hold_up_the_ones_behind_it() {
    let (mut app, now) = three_edits();
    let ids: Vec<HunkId> = app.review.hunks().iter().map(|h| h.id).collect();
    app.selected = Some(ids[0]);
    let (_, _, _, first) = written(&app.update_placed(key('y'), now));
    assert!(!first.contains("def load"), "{first}");
    assert!(app.update_placed(accept_all(), now).is_empty(), "the others wait");
    let done = Msg::WriteDone {
        hunk: ids[0],
        path: "app.py".into(),
        after: After::Text(first.clone()),
        undo: false,
    };
    let next = app.update_placed(done, now);
    let (_, _, expected, text) = written(&next);
    assert_eq!(expected.as_deref(), Some(first.as_str()));
    assert!(text.contains("f.flush()"), "the third hunk is written: {text}");
    assert_eq!(
        app.review.hunk(ids[1]).unwrap().state,
        HunkState::Failed,
        "the second no longer fits"
    );
}

#[test]
fn a_stale_write_whose_text_is_already_on_disk_lets_the_queue_go_on() {
    let (mut app, now) = three_edits();
    let ids: Vec<HunkId> = app.review.hunks().iter().map(|h| h.id).collect();
    app.update_placed(key('n'), now);
    app.selected = Some(ids[1]);
    let (first_id, _, _, first) = written(&app.update_placed(key('y'), now));
    assert_eq!(first_id, ids[1]);
    assert!(first.contains("encoding='utf-8'"), "{first}");
    assert!(app.update_placed(accept_all(), now).is_empty(), "the third waits");
    // The file already holds the second hunk's text (the write landed before a crash, or the
    // user made the same change): the write meets a changed file.
    let stale = Msg::WriteStale {
        hunk: first_id,
        path: "app.py".into(),
        source: Source::Text(first.clone()),
        undo: false,
    };
    let next = app.update_placed(stale, now);
    assert_eq!(app.review.hunk(first_id).unwrap().state, HunkState::Applied, "{:?}", app.notice);
    let (_, _, expected, text) = written(&next);
    assert_eq!(expected.as_deref(), Some(first.as_str()));
    assert!(text.contains("f.flush()"), "the third hunk is written: {text}");
}

/// Accept `id` and carry out its write.
fn accept_written(app: &mut App, now: Instant, id: HunkId) -> String {
    app.selected = Some(id);
    let (hunk, path, _, text) = written(&app.update_placed(key('y'), now));
    let done = Msg::WriteDone { hunk, path, after: After::Text(text.clone()), undo: false };
    assert!(app.update_placed(done, now).is_empty());
    text
}

#[test]
fn an_undo_whose_write_meets_a_changed_file_takes_back_that_hunk_alone() {
    let (mut app, now) = three_edits();
    let ids: Vec<HunkId> = app.review.hunks().iter().map(|h| h.id).collect();
    accept_written(&mut app, now, ids[1]);
    let both = accept_written(&mut app, now, ids[2]);
    let effects = app.update_placed(key('u'), now);
    let [AppEffect::Write { effect: Effect::Write { hunk, path, .. }, undo: true }] = &effects[..]
    else {
        panic!("an undo write: {effects:?}")
    };
    assert_eq!(*hunk, ids[2]);
    // Someone adds a line before the undo's write lands: it finds the file changed.
    let theirs = format!("{both}# theirs\n");
    let stale = Msg::WriteStale {
        hunk: *hunk,
        path: path.clone(),
        source: Source::Text(theirs.clone()),
        undo: true,
    };
    let effects = app.update_placed(stale, now);
    let [AppEffect::Write { effect: Effect::Write { hunk, expected, text, .. }, undo: true }] =
        &effects[..]
    else {
        panic!("the undo is tried again: {effects:?}")
    };
    assert_eq!(*hunk, ids[2]);
    assert_eq!(expected.as_deref(), Some(theirs.as_str()));
    assert!(!text.contains("f.flush()") && text.contains("encoding='utf-8'"), "{text}");
    assert!(text.ends_with("# theirs\n"), "their line stays: {text}");
    assert_eq!(app.review.hunk(ids[1]).unwrap().state, HunkState::Applied, "the other stays");
    let done = Msg::WriteDone {
        hunk: ids[2],
        path: "app.py".into(),
        after: After::Text(text.clone()),
        undo: true,
    };
    app.update_placed(done, now);
    assert_eq!(app.review.hunk(ids[2]).unwrap().state, HunkState::Pending);
    assert_eq!(app.review.hunk(ids[1]).unwrap().state, HunkState::Applied);
}

#[test]
fn an_undo_whose_write_fails_leaves_the_hunk_applied() {
    let (mut app, now) = three_edits();
    let ids: Vec<HunkId> = app.review.hunks().iter().map(|h| h.id).collect();
    accept_written(&mut app, now, ids[2]);
    let effects = app.update_placed(key('u'), now);
    assert_eq!(effects.len(), 1, "{effects:?}");
    let failed = Msg::WriteFailed {
        hunk: ids[2],
        path: "app.py".into(),
        reason: "No space left on device".into(),
        undo: true,
    };
    app.update_placed(failed, now);
    assert_eq!(app.review.hunk(ids[2]).unwrap().state, HunkState::Applied, "its text is on disk");
    let again = app.update_placed(key('u'), now);
    assert_eq!(again.len(), 1, "it can be undone once the disk has room: {again:?}");
}

#[test]
fn a_write_that_finds_its_own_text_on_disk_is_done_and_can_be_undone() {
    let (mut app, now) = three_edits();
    let ids: Vec<HunkId> = app.review.hunks().iter().map(|h| h.id).collect();
    app.update_placed(key('n'), now);
    let (carrier, path, _, text) = written(&app.update_placed(accept_all(), now));
    // The write landed before a kill; the resumed session makes it again and meets its text.
    let stale = Msg::WriteStale {
        hunk: carrier,
        path: path.clone(),
        source: Source::Text(text.clone()),
        undo: false,
    };
    assert!(app.update_placed(stale, now).is_empty(), "nothing left to write");
    assert_eq!(app.review.counts().applied, 2, "{:?}", app.notice);
    // `u` takes the batch back out of the file: the decisions kept what they wrote.
    let effects = app.update_placed(key('u'), now);
    let [AppEffect::Write { effect: Effect::Write { text: restored, .. }, undo: true }] =
        &effects[..]
    else {
        panic!("one undo write: {effects:?}")
    };
    assert_eq!(restored, APP_PY);
    assert_eq!(app.review.hunk(ids[2]).unwrap().state, HunkState::Pending);
}
