//! Model tests of watch mode: comment triggers start requests, queue, and are taken out of the
//! file with the first accepted edit.

use std::collections::BTreeMap;

use super::*;

const SHAPES: &str =
    "import math\n\n\ndef area(r):  # AI! add a docstring\n    return math.pi * r * r\n";

const ANSWER: &str = "shapes.py\n```\n<<<<<<< SEARCH\ndef area(r):  # AI! add a docstring\n    return math.pi * r * r\n=======\ndef area(r):  # AI! add a docstring\n    \"\"\"The area of a circle of radius r.\"\"\"\n    return math.pi * r * r\n>>>>>>> REPLACE\n```\n";

fn watching(apply_all: bool) -> (App, Instant) {
    let files = vec!["shapes.py".to_string(), "notes.md".to_string()];
    let app = App::new(AppConfig {
        label: "test · watching".into(),
        ..AppConfig::new(files, BTreeMap::new(), "")
    })
    .with_watch(WatchMode::new(Format::SearchReplace, apply_all));
    let mut app = app;
    let now = Instant::now();
    assert!(app.start(now).is_empty(), "watch mode waits for a trigger");
    assert!(app.modal.is_none());
    (app, now)
}

fn saved(path: &str, text: &str) -> Msg {
    Msg::FileChanged { path: path.into(), source: Source::Text(text.into()) }
}

fn request_of(effects: &[AppEffect]) -> Vec<ChatMessage> {
    match effects {
        [AppEffect::StartStream { messages, .. }] => messages.clone(),
        other => panic!("expected a request, got {other:?}"),
    }
}

fn answer(app: &mut App, reply: &str, now: Instant) -> Vec<AppEffect> {
    let mut effects = app.update_placed(Msg::Chunk(reply.into()), now);
    effects.extend(app.update_placed(Msg::StreamEnd(StreamDone::default()), now));
    effects
}

#[test]
fn a_saved_trigger_asks_and_its_comment_goes_with_the_accepted_edit() {
    let (mut app, now) = watching(false);
    let messages = request_of(&app.update_placed(saved("shapes.py", SHAPES), now));
    let user = &messages.last().unwrap().content;
    assert!(user.contains("add a docstring") && user.contains("return math.pi * r * r"), "{user}");
    assert!(answer(&mut app, ANSWER, now).is_empty());
    let id = app.selected.expect("the edit is up for review");
    let effects =
        app.update_placed(Msg::Key(KeyEvent::new(KeyCode::Char('y'), KeyModifiers::NONE)), now);
    let [AppEffect::Write { effect: Effect::Write { text, expected, .. }, .. }] =
        effects.as_slice()
    else {
        panic!("expected a write, got {effects:?}");
    };
    assert_eq!(expected.as_deref(), Some(SHAPES));
    assert_eq!(
        text,
        "import math\n\n\ndef area(r):\n    \"\"\"The area of a circle of radius r.\"\"\"\n    return math.pi * r * r\n"
    );
    assert_eq!(app.review.hunk(id).unwrap().state, HunkState::Accepted);
}

#[test]
fn saving_again_asks_nothing_new_and_triggers_during_a_request_queue() {
    let (mut app, now) = watching(false);
    request_of(&app.update_placed(saved("shapes.py", SHAPES), now));
    assert!(
        app.update_placed(saved("shapes.py", SHAPES), now).is_empty(),
        "same trigger, same save"
    );
    let notes = "# Notes\n\n<!-- AI? what is missing from these notes -->\n";
    assert!(app.update_placed(saved("notes.md", notes), now).is_empty(), "queued while streaming");
    assert!(app.notice.as_deref().unwrap().contains("queued"), "{:?}", app.notice);
    // The first answer ends: the queued question goes out, under the answer prompt.
    let messages = request_of(&answer(&mut app, ANSWER, now));
    assert!(messages[0].content.contains("no edits") || messages[0].content.contains("prose"));
    assert!(messages.last().unwrap().content.contains("what is missing from these notes"));
}

/// A request waiting behind another goes out with its file as it is when it is sent, and a
/// comment edited while its request waits asks once, as it reads now (ux24 B4: the old comment
/// and the old file went out, then a second request for the new comment).
#[test]
fn a_queued_request_goes_out_with_the_file_as_it_is_then() {
    let (mut app, now) = watching(false);
    request_of(&app.update_placed(saved("shapes.py", SHAPES), now));
    let notes = "# Notes\n\n<!-- AI? what is missing -->\n";
    assert!(app.update_placed(saved("notes.md", notes), now).is_empty(), "queued");
    let edited = "# Notes\n\nA line written since.\n\n<!-- AI? what is missing, in short -->\n";
    assert!(app.update_placed(saved("notes.md", edited), now).is_empty(), "still queued");
    let messages = request_of(&answer(&mut app, ANSWER, now));
    let user = &messages.last().unwrap().content;
    assert!(user.contains("A line written since.") && user.contains("in short"), "{user}");
    assert!(!user.contains("what is missing -->"), "the old comment went out: {user}");
    // Nothing more waits: the edited comment was the one request.
    let after = answer(&mut app, "Nothing is missing.", now);
    assert!(after.is_empty(), "a second request went out: {after:?}");
}

#[test]
fn a_trigger_that_leaves_and_comes_back_asks_again() {
    let (mut app, now) = watching(false);
    request_of(&app.update_placed(saved("shapes.py", SHAPES), now));
    answer(&mut app, "Nothing to do.\n", now);
    app.update_placed(saved("shapes.py", &SHAPES.replace("  # AI! add a docstring", "")), now);
    request_of(&app.update_placed(saved("shapes.py", SHAPES), now));
}

#[test]
fn saves_during_a_git_operation_start_nothing() {
    let (mut app, now) = watching(false);
    app.update_placed(Msg::GitBusy(true), now);
    assert!(app.update_placed(saved("shapes.py", SHAPES), now).is_empty());
    app.update_placed(Msg::GitBusy(false), now);
    assert!(
        app.update_placed(saved("shapes.py", SHAPES), now).is_empty(),
        "git wrote it, nobody asked"
    );
}

#[test]
fn apply_all_accepts_answers_as_they_arrive() {
    let (mut app, now) = watching(true);
    request_of(&app.update_placed(saved("shapes.py", SHAPES), now));
    let effects = answer(&mut app, ANSWER, now);
    assert!(
        matches!(effects.as_slice(), [AppEffect::Write { undo: false, .. }]),
        "accepted without a key: {effects:?}"
    );
}

#[test]
fn a_trigger_already_in_the_project_when_watching_starts_asks_nothing_until_changed() {
    let (mut app, now) = watching(false);
    let present = crate::core::trigger::present("shapes.py", SHAPES);
    assert!(app.update_placed(Msg::WatchReady { files: 2, triggers: present }, now).is_empty());
    assert!(app.notice.as_deref().unwrap().contains("ask nothing"), "{:?}", app.notice);
    // Read, touched, saved unchanged or with another line changed: still the old comment.
    assert!(app.update_placed(saved("shapes.py", SHAPES), now).is_empty());
    let other = SHAPES.replace("import math", "import math  # the constants");
    assert!(app.update_placed(saved("shapes.py", &other), now).is_empty());
    // A save that changes the comment asks.
    let changed = SHAPES.replace("add a docstring", "add a docstring and type hints");
    request_of(&app.update_placed(saved("shapes.py", &changed), now));
}

#[test]
fn a_file_seen_changed_to_what_the_journal_holds_is_not_recorded_again() {
    let (mut app, now) = watching(false);
    let mut rec = crate::app::record::Recorder::new();
    let plain = "def area(r):\n    return 3.14 * r * r\n";
    let (_, records) = rec.update(&mut app, saved("notes.md", plain), now, 1);
    assert_eq!(records.len(), 1, "the first sight of it: {records:?}");
    for t in 2..50 {
        let (effects, records) = rec.update(&mut app, saved("notes.md", plain), now, t);
        assert!(effects.is_empty() && records.is_empty(), "t={t}: {records:?}");
    }
    let (_, records) = rec.update(&mut app, saved("notes.md", "x\n"), now, 60);
    assert_eq!(records.len(), 1);
    let (_, records) = rec.update(&mut app, saved("notes.md", plain), now, 61);
    assert_eq!(records.len(), 1, "back to the old text is a change");
    let gone = Msg::FileChanged { path: "notes.md".into(), source: Source::Missing };
    assert_eq!(rec.update(&mut app, gone.clone(), now, 62).1.len(), 1);
    assert!(rec.update(&mut app, gone, now, 63).1.is_empty());
}

#[test]
fn a_failed_trigger_asks_again_on_the_next_save_and_with_r() {
    let (mut app, now) = watching(false);
    request_of(&app.update_placed(saved("shapes.py", SHAPES), now));
    app.update_placed(Msg::StreamError("connection refused".into()), now);
    assert_eq!(app.request_failed.as_deref(), Some("connection refused"));
    // Saved again (a change elsewhere in the file): the failed trigger asks again.
    let again = format!("{SHAPES}\n");
    let messages = request_of(&app.update_placed(saved("shapes.py", &again), now));
    assert!(messages.last().unwrap().content.contains("add a docstring"));
    app.update_placed(Msg::StreamError("connection refused".into()), now);
    let r = Msg::Key(KeyEvent::new(KeyCode::Char('r'), KeyModifiers::NONE));
    assert_eq!(request_of(&app.update_placed(r, now)), messages, "`r` sends the same request");
    assert!(answer(&mut app, ANSWER, now).is_empty());
    let y = Msg::Key(KeyEvent::new(KeyCode::Char('y'), KeyModifiers::NONE));
    let Some(AppEffect::Write { effect: Effect::Write { text, .. }, .. }) =
        app.update_placed(y, now).pop()
    else {
        panic!("a write")
    };
    assert!(!text.contains("AI!"), "the retried round still answers the trigger: {text}");
}

/// One list of project files: a file created while watching is a path the next reply may name
/// as for the files there at the start (a name with no extension is taken for a path only when
/// the project has it).
#[test]
fn a_file_created_while_watching_is_known_to_the_next_reply_by_its_name() {
    let (mut app, now) = watching(false);
    let just = "test:\n    cargo test  # AI! run the tests quietly\n";
    request_of(&app.update_placed(saved("Justfile", just), now));
    let reply =
        "Quieter:\n\nJustfile\n```\ntest:\n    cargo test -q  # AI! run the tests quietly\n```\n";
    answer(&mut app, reply, now);
    let hunks = app.review.hunks();
    assert_eq!(hunks.len(), 1, "{:?}", app.review.problems);
    assert_eq!(hunks[0].path, "Justfile");
}
