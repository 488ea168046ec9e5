//! Model tests: sequences of messages with a fixed `now`, checking state and effects.

use std::collections::BTreeMap;

use super::*;

pub(super) const INVENTORY: &str = include_str!("../../demo/project/inventory.py");
const REPORT: &str = include_str!("../../demo/project/report.py");
pub(super) const REPLY: &str = include_str!("../../demo/reply.md");

pub(super) fn app_with(conversation: Vec<ChatMessage>) -> App {
    let files = vec!["inventory.py".to_string(), "report.py".to_string()];
    let mut sources = BTreeMap::new();
    sources.insert("inventory.py".to_string(), Source::Text(INVENTORY.into()));
    sources.insert("report.py".to_string(), Source::Text(REPORT.into()));
    App::new(AppConfig {
        review: Review::new(files, sources),
        label: "test · model".into(),
        keymap: Keymap::default(),
        prompts: Prompts::default(),
        conversation,
        request: Some(RequestSpec {
            format: Format::SearchReplace,
            files: vec![("report.py".into(), REPORT.into())],
        }),
    })
}

pub(super) fn started() -> (App, Instant) {
    let now = Instant::now();
    let mut app = app_with(vec![ChatMessage::new(Role::User, "change things")]);
    let effects = app.start(now);
    assert!(matches!(effects.as_slice(), [AppEffect::StartStream { .. }]));
    (app, now)
}

/// The app with the whole demo reply streamed and finished.
pub(super) fn streamed() -> (App, Instant) {
    let (mut app, now) = started();
    for chunk in REPLY.as_bytes().chunks(37) {
        app.update_placed(Msg::Chunk(String::from_utf8_lossy(chunk).into_owned()), now);
    }
    app.update_placed(Msg::StreamEnd(StreamDone::default()), now);
    (app, now)
}

pub(super) fn key(c: char) -> Msg {
    let m = if c.is_ascii_uppercase() { KeyModifiers::SHIFT } else { KeyModifiers::NONE };
    Msg::Key(KeyEvent::new(KeyCode::Char(c), m))
}

pub(super) fn special(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// Carry out a write effect as the runtime would on success.
pub(super) fn done(effect: &AppEffect) -> Msg {
    match effect {
        AppEffect::Write { effect: Effect::Write { hunk, path, text, .. }, undo } => {
            Msg::WriteDone {
                hunk: *hunk,
                path: path.clone(),
                after: After::Text(text.clone()),
                undo: *undo,
            }
        }
        other => panic!("not a write: {other:?}"),
    }
}

/// Just after the line that starts the diff's second hunk (and so finishes the first).
fn second_hunk_line_end() -> usize {
    let at = REPLY.find("@@ -20,4").expect("second diff hunk");
    at + REPLY[at..].find('\n').unwrap() + 1
}

#[test]
fn hunks_appear_while_the_stream_is_open() {
    let (mut app, now) = started();
    let cut = second_hunk_line_end();
    app.update_placed(Msg::Chunk(REPLY[..cut].to_string()), now);
    assert!(app.streaming);
    assert_eq!(app.review.hunks().len(), 1, "the first hunk is finished by the next @@");
    assert_eq!(app.selected, Some(app.review.hunks()[0].id), "the first hunk is selected");
    let rest = &REPLY[cut..];
    let half = rest.len() / 2;
    app.update_placed(Msg::Chunk(rest[..half].to_string()), now);
    assert!(app.review.hunks().len() >= 2);
    assert!(!app.tail().is_empty() || app.stream_text.ends_with('\n'));
    app.update_placed(Msg::Chunk(rest[half..].to_string()), now);
    app.update_placed(
        Msg::StreamEnd(StreamDone { output_tokens: Some(300), ..StreamDone::default() }),
        now,
    );
    assert!(!app.streaming);
    assert_eq!(app.review.hunks().len(), 5);
    assert_eq!(app.review.counts().failed, 1);
    assert_eq!(app.stats.output_tokens, Some(300));
}

#[test]
fn accept_writes_and_write_done_applies() {
    let (mut app, now) = streamed();
    let first = app.selected.unwrap();
    let effects = app.update_placed(key('y'), now);
    assert_eq!(effects.len(), 1);
    let AppEffect::Write { effect: Effect::Write { path, expected, text, .. }, undo: false } =
        &effects[0]
    else {
        panic!("{effects:?}")
    };
    assert_eq!(path, "inventory.py");
    assert_eq!(expected.as_deref(), Some(INVENTORY), "the write names what it expects");
    assert!(text.contains("return sum(item.price * item.stock for item in items)"));
    assert_eq!(app.review.hunk(first).unwrap().state, HunkState::Accepted);
    assert_ne!(app.selected, Some(first), "the selection moves to the next open hunk");
    app.update_placed(done(&effects[0]), now);
    assert_eq!(app.review.hunk(first).unwrap().state, HunkState::Applied);
}

#[test]
fn undo_restores_the_file() {
    let (mut app, now) = streamed();
    let first = app.selected.unwrap();
    let effects = app.update_placed(key('y'), now);
    app.update_placed(done(&effects[0]), now);
    let effects = app.update_placed(key('u'), now);
    let AppEffect::Write { effect: Effect::Write { text, .. }, undo: true } = &effects[0] else {
        panic!("{effects:?}")
    };
    assert_eq!(text, INVENTORY);
    app.update_placed(done(&effects[0]), now);
    assert_eq!(app.review.hunk(first).unwrap().state, HunkState::Pending);
}

#[test]
fn reject_and_undo_need_no_write() {
    let (mut app, now) = streamed();
    let first = app.selected.unwrap();
    assert!(app.update_placed(key('n'), now).is_empty());
    assert_eq!(app.review.hunk(first).unwrap().state, HunkState::Rejected);
    assert!(app.update_placed(key('u'), now).is_empty());
    assert_eq!(app.review.hunk(first).unwrap().state, HunkState::Pending);
}

#[test]
fn quitting_asks_first_when_decisions_are_pending() {
    let (mut app, now) = streamed();
    assert!(app.update_placed(key('q'), now).is_empty());
    assert_eq!(app.modal, Some(Modal::ConfirmQuit));
    assert!(app.update_placed(key('n'), now).is_empty(), "n keeps the session");
    assert_eq!(app.modal, None);
    app.update_placed(key('q'), now);
    assert_eq!(app.update_placed(key('y'), now), vec![AppEffect::Quit]);

    let mut empty = app_with(vec![ChatMessage::new(Role::User, "x")]);
    assert_eq!(empty.update(key('q'), now), vec![AppEffect::Quit], "nothing pending");
}

/// `e` on a decided hunk opens nothing and says why (it said nothing).
#[test]
fn e_on_a_decided_hunk_says_why_nothing_opens() {
    let (mut app, now) = streamed();
    app.update_placed(key('n'), now);
    app.update_placed(key('k'), now);
    let first = app.review.hunks()[0].id;
    assert_eq!(app.review.hunk(first).unwrap().state, HunkState::Rejected);
    assert!(app.update_placed(key('e'), now).is_empty());
    let notice = app.notice.clone().unwrap_or_default();
    assert!(notice.contains("rejected") && notice.contains("`u`"), "{notice}");
}

/// Keys typed after `q` by someone who took it for done (a shell command line) answer nothing:
/// the question stays open, and none of them reaches the review (`a` would accept a file).
#[test]
fn keys_typed_under_the_quit_question_do_not_reach_the_review() {
    let (mut app, now) = streamed();
    let states = |app: &App| app.review.hunks().iter().map(|h| h.state.clone()).collect::<Vec<_>>();
    let before = states(&app);
    app.update_placed(key('q'), now);
    for c in "ls -la; git add .".chars() {
        assert!(app.update_placed(key(c), now).is_empty(), "{c:?} does nothing");
        assert_eq!(app.modal, Some(Modal::ConfirmQuit), "{c:?} leaves the question open");
    }
    assert_eq!(states(&app), before);
    assert_eq!(app.update_placed(key('n'), now), vec![]);
    assert_eq!(app.modal, None);
    assert!(!app.notice.as_deref().is_some_and(|n| n.starts_with("quit?")), "{:?}", app.notice);
}

#[test]
fn quitting_while_streaming_cancels_the_stream() {
    let (mut app, now) = started();
    app.update_placed(key('q'), now);
    assert_eq!(app.update_placed(key('y'), now), vec![AppEffect::CancelStream, AppEffect::Quit]);
}

/// Esc after a search, while the model writes, clears the search and leaves the stream alone;
/// a second Esc stops it.
#[test]
fn escape_clears_a_search_before_it_stops_the_stream() {
    let (mut app, now) = started();
    let cut = second_hunk_line_end();
    app.update_placed(Msg::Chunk(REPLY[..cut + 10].to_string()), now);
    app.update_placed(key('/'), now);
    app.update_placed(key('x'), now);
    app.update_placed(special(KeyCode::Enter), now);
    assert_eq!(app.filter, "x");
    assert!(app.update_placed(special(KeyCode::Esc), now).is_empty(), "the stream goes on");
    assert!(app.filter.is_empty() && app.streaming);
    assert_eq!(app.update_placed(special(KeyCode::Esc), now), vec![AppEffect::CancelStream]);
}

#[test]
fn escape_cancels_the_stream_and_keeps_finished_hunks() {
    let (mut app, now) = started();
    let cut = second_hunk_line_end();
    app.update_placed(Msg::Chunk(REPLY[..cut + 10].to_string()), now);
    assert_eq!(app.update_placed(special(KeyCode::Esc), now), vec![AppEffect::CancelStream]);
    app.update_placed(Msg::StreamCancelled, now);
    assert!(!app.streaming);
    assert_eq!(app.review.hunks().len(), 1);
    assert!(app.notice.as_deref().unwrap_or("").contains("cancelled"));
    assert!(app.update_placed(Msg::Chunk("late".into()), now).is_empty());
    assert!(!app.stream_text.ends_with("late"), "chunks after the end are dropped");
}

#[test]
fn accepting_a_file_writes_its_hunks_together_in_one_write() {
    let (mut app, now) = streamed();
    let effects = app.update_placed(key('a'), now);
    assert_eq!(effects.len(), 1, "one write for the file: {effects:?}");
    let AppEffect::Write { effect: Effect::Write { expected, text, .. }, .. } = &effects[0] else {
        panic!("{effects:?}")
    };
    assert_eq!(expected.as_deref(), Some(INVENTORY), "it expects the file as it was");
    assert!(text.contains("return sum(") && text.contains("raise ValueError"), "{text}");
    assert_eq!(app.review.counts().accepted, 2);
    assert!(app.update_placed(done(&effects[0]), now).is_empty());
    assert_eq!(app.review.counts().applied, 2);
}

#[test]
fn a_hunk_accepted_while_its_file_is_written_waits_and_is_placed_in_the_new_text() {
    let (mut app, now) = streamed();
    let order = app.order();
    let ids: Vec<HunkId> = order.iter().map(|&i| app.review.hunks()[i].id).collect();
    let first = app.update_placed(key('y'), now);
    assert_eq!(first.len(), 1, "{first:?}");
    app.selected = Some(ids[1]);
    assert!(app.update_placed(key('y'), now).is_empty(), "it waits for the write on its way");
    let next = app.update_placed(done(&first[0]), now);
    let AppEffect::Write { effect: Effect::Write { expected, text, .. }, .. } = &next[0] else {
        panic!("{next:?}")
    };
    assert!(expected.as_deref().unwrap().contains("return sum("), "placed in the new text");
    assert!(text.contains("raise ValueError"));
    app.update_placed(done(&next[0]), now);
    assert_eq!(app.review.counts().applied, 2);
}

#[test]
fn accept_all_takes_every_finished_pending_hunk_in_a_write_per_file() {
    let (mut app, now) = streamed();
    let mut queue = app.update_placed(key('A'), now);
    let mut writes = 0;
    while let Some(e) = queue.pop() {
        writes += 1;
        queue.extend(app.update_placed(done(&e), now));
    }
    assert_eq!(writes, 2, "inventory.py and report.py");
    let c = app.review.counts();
    assert_eq!((c.applied, c.failed, c.pending), (4, 1, 0));
}

#[test]
fn retry_asks_the_model_about_failed_edits() {
    let (mut app, now) = streamed();
    app.update_placed(key('J'), now);
    app.update_placed(key('j'), now);
    assert_eq!(app.selected_hunk().unwrap().state, HunkState::Failed);
    let effects = app.update_placed(key('r'), now);
    let [AppEffect::StartStream { messages, why, .. }] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!(*why, crate::core::session::Why::Retry);
    assert_eq!(messages.len(), 3, "request, the reply, the retry");
    assert_eq!(messages[1].role, Role::Assistant);
    assert!(messages[2].content.contains("def save(items, path):"), "{}", messages[2].content);
    assert!(app.streaming);
    assert_eq!(app.review.counts().failed, 0, "the failed edit is superseded");
    let fix = include_str!("../../demo/retry.md");
    app.update_placed(Msg::Chunk(fix.into()), now);
    app.update_placed(Msg::StreamEnd(StreamDone::default()), now);
    assert_eq!(app.review.hunks().len(), 6);
    assert_eq!(app.review.hunks()[5].state, HunkState::Pending);
    assert_eq!(app.selected, Some(app.review.hunks()[5].id), "the corrected edit is selected");
}

#[test]
fn search_filters_by_path_or_text() {
    let (mut app, now) = streamed();
    app.update_placed(key('/'), now);
    for c in "sum(".chars() {
        app.update_placed(key(c), now);
    }
    assert_eq!(app.modal, Some(Modal::Search("sum(".into())));
    app.update_placed(special(KeyCode::Enter), now);
    assert_eq!(app.order().len(), 1);
    app.update_placed(special(KeyCode::Esc), now);
    assert_eq!(app.order().len(), 5, "Esc clears the search");
}

#[test]
fn navigation_by_hunk_and_file() {
    let (mut app, now) = streamed();
    let ids: Vec<HunkId> = app.order().iter().map(|&i| app.review.hunks()[i].id).collect();
    app.update_placed(key('j'), now);
    assert_eq!(app.selected, Some(ids[1]));
    app.update_placed(key('J'), now);
    assert_eq!(app.selected, Some(ids[2]), "first hunk of report.py");
    app.update_placed(key('K'), now);
    assert_eq!(app.selected, Some(ids[0]));
    app.update_placed(special(KeyCode::Up), now);
    assert_eq!(app.selected, Some(ids[0]), "stays at the top");
    app.update_placed(key('v'), now);
    assert_eq!(app.view, ViewMode::SideBySide);
    app.update_placed(special(KeyCode::Tab), now);
    assert_eq!(app.focus, Focus::Diff);
    app.update_placed(Msg::Scroll { down: true, at: None }, now);
    let pos = app.diff_position().unwrap();
    assert_eq!(
        app.diff_scroll,
        3.min(pos.total.saturating_sub(pos.shown)),
        "no further than the end"
    );
}

#[test]
fn editing_then_accepting_writes_the_edited_text() {
    let (mut app, now) = streamed();
    let id = app.selected.unwrap();
    let effects = app.update_placed(key('e'), now);
    let [AppEffect::OpenEditor { hunk, text }] = effects.as_slice() else { panic!("{effects:?}") };
    assert_eq!(*hunk, id);
    assert!(text.contains("return sum("));
    let edited = text.replace("return sum(", "return 0 + sum(");
    let effects = app.update_placed(Msg::EditorDone { hunk: id, result: Ok(edited) }, now);
    let [AppEffect::Write { effect: Effect::Write { text, .. }, .. }] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert!(text.contains("return 0 + sum("));
}

/// Saving an empty buffer would delete the lines the hunk replaces (a whole function): taken
/// as a slip, nothing is written and the hunk stays pending.
#[test]
fn an_empty_edit_writes_nothing() {
    let (mut app, now) = streamed();
    let id = app.selected.unwrap();
    app.update_placed(key('e'), now);
    let effects = app.update_placed(Msg::EditorDone { hunk: id, result: Ok("\n".into()) }, now);
    assert!(effects.is_empty(), "{effects:?}");
    assert_eq!(app.review.hunk(id).unwrap().state, HunkState::Pending);
    assert!(app.notice.as_deref().unwrap_or("").contains("empty"));
}

#[test]
fn a_failed_write_puts_the_hunk_back_with_the_reason() {
    let (mut app, now) = streamed();
    let id = app.selected.unwrap();
    app.update_placed(key('y'), now);
    app.update_placed(
        Msg::WriteFailed {
            hunk: id,
            path: "inventory.py".into(),
            reason: "inventory.py changed on disk".into(),
            undo: false,
        },
        now,
    );
    assert_eq!(app.review.hunk(id).unwrap().state, HunkState::Pending);
    assert!(app.notice.as_deref().unwrap().contains("changed on disk"));
}

#[test]
fn the_input_line_sends_the_request() {
    let now = Instant::now();
    let mut app = app_with(Vec::new());
    assert!(app.start(now).is_empty());
    assert_eq!(app.modal, Some(Modal::Prompt(String::new())));
    for c in "fix it".chars() {
        app.update_placed(key(c), now);
    }
    let effects = app.update_placed(special(KeyCode::Enter), now);
    let [AppEffect::StartStream { messages, why, .. }] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!(*why, crate::core::session::Why::Initial);
    assert_eq!(messages.len(), 2);
    assert!(messages[1].content.contains("report.py") && messages[1].content.contains("fix it"));
    assert!(app.streaming);
}

#[test]
fn files_not_read_yet_are_asked_for_once() {
    let now = Instant::now();
    let files = vec!["report.py".to_string()];
    let mut app = App::new(AppConfig::new(files, BTreeMap::new(), "x"));
    app.start(now);
    let reply = REPLY.split("Then the report").nth(1).unwrap();
    let effects = app.update_placed(Msg::Chunk(reply.into()), now);
    assert_eq!(effects, vec![AppEffect::Read { path: "report.py".into() }]);
    app.update_placed(
        Msg::FileRead { path: "report.py".into(), source: Source::Text(REPORT.into()) },
        now,
    );
    assert!(!app.review.hunks().is_empty());
    assert!(app.selected.is_some());
}

#[test]
fn split_cuts_the_selected_hunk_and_keeps_the_selection_on_it() {
    let (mut app, now) = started();
    let reply = "```diff\n--- a/inventory.py\n+++ b/inventory.py\n@@\n def restock(item, amount):\n-    item.stock = item.stock + amount\n+    item.stock += amount\n     return item\n \n \n def find(items, name):\n-    for item in items:\n+    for item in list(items):\n```\n";
    app.update_placed(Msg::Chunk(reply.into()), now);
    app.update_placed(Msg::StreamEnd(StreamDone::default()), now);
    assert_eq!(app.review.hunks().len(), 1);
    app.update_placed(key('s'), now);
    assert_eq!(app.review.hunks().len(), 2);
    assert_eq!(app.selected, Some(app.review.hunks()[0].id));
    assert!(app.review.hunks().iter().all(|h| h.state == HunkState::Pending));
}

#[test]
fn reject_file_leaves_other_files_alone() {
    let (mut app, now) = streamed();
    assert!(app.update_placed(key('d'), now).is_empty());
    let c = app.review.counts();
    assert_eq!((c.rejected, c.pending, c.failed), (2, 2, 1));
}

#[test]
fn a_follow_up_request_reports_the_rejected_hunks() {
    let (mut app, now) = streamed();
    let first = app.selected.unwrap();
    app.update_placed(key('n'), now);
    assert_eq!(app.review.hunk(first).unwrap().state, HunkState::Rejected);
    app.update_placed(key('m'), now);
    assert_eq!(app.modal, Some(Modal::FollowUp(String::new())));
    for c in "add tests".chars() {
        app.update_placed(key(c), now);
    }
    let effects = app.update_placed(special(KeyCode::Enter), now);
    let [AppEffect::StartStream { messages, why, .. }] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!(*why, crate::core::session::Why::FollowUp);
    assert_eq!(messages.len(), 3, "request, the reply, the follow-up");
    assert_eq!(messages[1].role, Role::Assistant);
    let follow_up = &messages[2].content;
    assert!(follow_up.starts_with("add tests"), "{follow_up}");
    assert!(follow_up.contains("rejected") && follow_up.contains("inventory.py"), "{follow_up}");
    assert!(app.streaming);
}

#[test]
fn esc_ctrl_c_and_an_empty_enter_close_the_follow_up_box_and_send_nothing() {
    let ctrl_c = Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    for close in [special(KeyCode::Esc), ctrl_c, special(KeyCode::Enter)] {
        let (mut app, now) = streamed();
        let conversation = app.conversation.clone();
        app.update_placed(key('m'), now);
        assert_eq!(app.modal, Some(Modal::FollowUp(String::new())));
        // An empty Enter must close an empty box; Esc and Ctrl-C close one with text in it.
        if close != special(KeyCode::Enter) {
            for c in "export OPENAI_API_KEY=sk-secret".chars() {
                assert!(app.update_placed(key(c), now).is_empty());
            }
        }
        let effects = app.update_placed(close.clone(), now);
        assert!(effects.is_empty(), "{close:?} sent {effects:?}");
        assert_eq!(app.modal, None, "{close:?} left the box open");
        assert!(!app.streaming);
        assert_eq!(app.conversation, conversation, "nothing joins the conversation");
        // The next keys are the review's again, not text for the model.
        let effects = app.update_placed(key('j'), now);
        assert!(effects.is_empty());
        assert_eq!(app.modal, None);
    }
}

#[test]
fn w_toggles_wrapping_and_sideways_keys_cut_lines() {
    let (mut app, now) = streamed();
    assert!(app.wrap, "long lines wrap by default");
    app.update_placed(key('>'), now);
    assert!(!app.wrap, "scrolling sideways cuts lines");
    assert_eq!(app.diff_hscroll, 16);
    app.update_placed(key('<'), now);
    app.update_placed(key('<'), now);
    assert_eq!(app.diff_hscroll, 0);
    app.update_placed(key('w'), now);
    assert!(app.wrap);
    app.update_placed(key('w'), now);
    assert!(!app.wrap);
}

mod order_props {
    use super::*;
    use proptest::prelude::*;

    /// The hunk list's order as it was first written: files numbered by their first hunk,
    /// hunks of a file in order of arrival.
    fn reference(app: &App) -> Vec<usize> {
        let mut files: Vec<&str> = Vec::new();
        let mut out: Vec<(usize, usize)> = Vec::new();
        for (i, h) in app.review.hunks().iter().enumerate() {
            let f = match files.iter().position(|p| *p == h.path) {
                Some(f) => f,
                None => {
                    files.push(&h.path);
                    files.len() - 1
                }
            };
            out.push((f, i));
        }
        out.sort_by_key(|&(f, _)| f);
        out.into_iter().map(|(_, i)| i).collect()
    }

    proptest! {
        #[test]
        fn the_hunk_list_groups_by_file_in_order_of_arrival(
            picks in prop::collection::vec((0usize..3, 0usize..4, any::<bool>()), 1..25)
        ) {
            let names = ["a.py", "b.py", "c.py"];
            let text = "one = 1\ntwo = 2\n\nthree = 3\nfour = 4\n";
            let files: Vec<String> = names.iter().map(|n| n.to_string()).collect();
            let sources = names
                .iter()
                .map(|n| (n.to_string(), Source::Text(text.into())))
                .collect();
            let mut app =
                App::new(AppConfig { label: "t".into(), ..AppConfig::new(files, sources, "go") });
            let now = Instant::now();
            app.start(now);
            for (file, line, split) in picks {
                let old = ["one = 1\ntwo = 2", "two = 2", "three = 3\nfour = 4", "four = 4"][line];
                let new = old.replace(" = ", " == ");
                let block = format!(
                    "{}\n```\n<<<<<<< SEARCH\n{old}\n=======\n{new}\n>>>>>>> REPLACE\n```\n",
                    names[file]
                );
                app.update_placed(Msg::Chunk(block), now);
                if split {
                    app.update_placed(Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::NONE)), now);
                }
                prop_assert_eq!(app.order(), reference(&app));
            }
        }
    }
}

/// `q` with every hunk decided and a write still on its way asks nothing (there is nothing
/// undecided to ask about): it quits once the write lands, and not if the write fails.
#[test]
fn quitting_while_a_write_is_on_its_way_waits_for_it() {
    let decided = || {
        let (mut app, now) = streamed();
        let write = app.update_placed(key('y'), now);
        assert!(matches!(write.as_slice(), [AppEffect::Write { .. }]), "{write:?}");
        let ids: Vec<_> = app.review.hunks().iter().map(|h| h.id).collect();
        for id in ids {
            app.selected = Some(id);
            app.update_placed(key('n'), now);
        }
        assert_eq!(app.review.counts().undecided(), 0, "{:?}", app.review.counts());
        let effects = app.update_placed(key('q'), now);
        assert!(effects.is_empty() && app.modal.is_none(), "{effects:?} {:?}", app.modal);
        assert!(app.message().unwrap().contains("once the write"), "{:?}", app.message());
        (app, now, write)
    };
    let (mut app, now, write) = decided();
    assert_eq!(app.update_placed(Msg::Tick, now), Vec::new(), "nothing before the write lands");
    assert_eq!(app.update_placed(done(&write[0]), now), vec![AppEffect::Quit]);

    let (mut app, now, write) = decided();
    let AppEffect::Write { effect: Effect::Write { hunk, path, .. }, .. } = &write[0] else {
        unreachable!()
    };
    let failed = Msg::WriteFailed {
        hunk: *hunk,
        path: path.clone(),
        reason: "disk full".into(),
        undo: false,
    };
    assert!(
        !app.update_placed(failed, now).contains(&AppEffect::Quit),
        "a failed write keeps the session"
    );
    let said = app.message().unwrap();
    assert!(said.contains("disk full") && said.contains("not quitting"), "{said}");
    assert!(app.update_placed(done(&write[0]), now).is_empty(), "the wait was called off");
}

/// Accepting hunks the files already hold writes nothing, and `u` after it says that nothing on
/// disk changed (it said "undone: the batch", and a user believed the edits were taken out).
#[test]
fn undoing_a_batch_that_wrote_nothing_says_nothing_on_disk_changed() {
    // The files as the demo reply leaves them.
    let (mut app, now) = streamed();
    let mut effects = app.update_placed(key('A'), now);
    let mut after: BTreeMap<String, String> = BTreeMap::new();
    while let Some(e) = effects.pop() {
        if let AppEffect::Write { effect: Effect::Write { path, text, .. }, .. } = &e {
            after.insert(path.clone(), text.clone());
            effects.extend(app.update_placed(done(&e), now));
        }
    }
    assert!(!after.is_empty(), "the demo reply writes");
    // The same reply again, over those files.
    let files = vec!["inventory.py".to_string(), "report.py".to_string()];
    let sources = files
        .iter()
        .map(|p| {
            let text = after
                .get(p)
                .cloned()
                .unwrap_or_else(|| if p == "report.py" { REPORT.into() } else { INVENTORY.into() });
            (p.clone(), Source::Text(text))
        })
        .collect();
    let mut again = App::new(AppConfig::new(files, sources, "change things"));
    again.start(now);
    again.update_placed(Msg::Chunk(REPLY.into()), now);
    again.update_placed(Msg::StreamEnd(StreamDone::default()), now);
    let writes = again.update_placed(key('A'), now);
    assert!(!writes.iter().any(|e| matches!(e, AppEffect::Write { .. })), "{writes:?}");
    assert!(again.update_placed(key('u'), now).is_empty(), "nothing to write back");
    let notice = again.notice.clone().unwrap_or_default();
    assert!(notice.contains("nothing on disk changed"), "{notice}");
}

/// `A` under a search accepts what the list shows, and says how many the search hides.
#[test]
fn accept_all_under_a_search_says_what_it_left() {
    let (mut app, now) = streamed();
    let open = app.review.counts().pending;
    app.update_placed(key('/'), now);
    for c in "sum(".chars() {
        app.update_placed(key(c), now);
    }
    app.update_placed(special(KeyCode::Enter), now);
    let shown = app.order().len();
    assert!(shown >= 1 && shown < open, "{shown} of {open}");
    app.update_placed(key('A'), now);
    let notice = app.notice.clone().unwrap_or_default();
    assert!(notice.contains(&format!("{} more are hidden", open - shown)), "{notice}");
}

#[test]
fn edits_refused_before_review_are_counted_and_sent_back_once() {
    let (mut app, now) = started();
    let reply = "../outside.txt\n```\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\n";
    app.update_placed(Msg::Chunk(reply.into()), now);
    app.update_placed(Msg::StreamEnd(StreamDone::default()), now);
    assert_eq!(app.review.hunks().len(), 0);
    assert_eq!(app.review.problems.len(), 1, "{:?}", app.review.problems);
    let effects = app.update_placed(key('r'), now);
    let [AppEffect::StartStream { messages, .. }] = effects.as_slice() else {
        panic!("{effects:?}: {:?}", app.message())
    };
    assert!(messages.last().unwrap().content.contains("outside.txt"), "{:?}", messages.last());
    app.update_placed(Msg::StreamEnd(StreamDone::default()), now);
    // Sent back once: `r` again has nothing new to send.
    assert!(app.update_placed(key('r'), now).is_empty());
}
