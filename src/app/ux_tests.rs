//! Model tests of the review screen's use: failed requests, messages and their log,
//! navigation and the mouse, batch undo, the editor's advance.

use super::tests::{REPLY, done, key, special, started, streamed};
use super::*;
use crate::app::layout;

const REFUSED: &str = "error sending request for url (http://127.0.0.1:9/v1/chat/completions): \
    client error (Connect): tcp connect error: Connection refused (os error 111)";

#[test]
fn a_failed_request_is_shown_failed_and_r_sends_it_again() {
    let (mut app, now) = started();
    let AppEffect::StartStream { messages, parse, .. } = app.start(now).remove(0) else { panic!() };
    app.update_placed(Msg::StreamError(REFUSED.into()), now);
    assert_eq!(app.request_failed.as_deref(), Some(REFUSED));
    assert!(app.message().unwrap().contains(REFUSED), "the whole error");
    app.update_placed(key('j'), now);
    assert!(app.message().unwrap().contains(REFUSED), "it stays shown after a key");
    let effects = app.update_placed(key('r'), now);
    assert_eq!(
        effects,
        vec![AppEffect::StartStream { messages, why: Why::Retry, parse }],
        "`r` sends the same request again"
    );
    assert!(app.streaming && app.request_failed.is_none());
    assert!(app.log.iter().any(|m| m.contains(REFUSED)), "the log keeps it");
}

#[test]
fn a_cancel_is_not_a_failure() {
    let (mut app, now) = started();
    app.update_placed(Msg::StreamCancelled, now);
    assert!(app.request_failed.is_none());
    assert!(app.update_placed(key('r'), now).is_empty());
    assert!(app.notice.as_deref().unwrap().contains("no failed"));
}

#[test]
fn messages_are_logged_and_l_shows_them() {
    let (mut app, now) = streamed();
    app.update_placed(key('s'), now);
    app.update_placed(key('s'), now);
    app.update_placed(key('L'), now);
    assert_eq!(app.modal, Some(Modal::Log(0)));
    assert!(app.log.len() >= 2, "{:?}", app.log);
    app.update_placed(key('k'), now);
    assert_eq!(app.modal, Some(Modal::Log(1)));
    app.update_placed(special(KeyCode::Esc), now);
    assert_eq!(app.modal, None);
}

#[test]
fn j_and_k_scroll_the_focused_pane_and_stop_at_the_end() {
    let (mut app, now) = streamed();
    app.update_placed(Msg::Resize(80, 24), now);
    let first = app.selected;
    app.update_placed(key('j'), now);
    assert_ne!(app.selected, first, "in the hunk list j moves to the next hunk");
    app.update_placed(key('g'), now);
    assert_eq!(app.selected, first, "g: the first hunk");
    app.update_placed(special(KeyCode::Tab), now);
    app.update_placed(special(KeyCode::Tab), now);
    assert_eq!(app.focus, Focus::Stream);
    app.update_placed(key('g'), now);
    let top = app.stream_position();
    assert_eq!(top.top, 0, "g: the reply's top");
    app.update_placed(key('j'), now);
    assert_eq!(app.stream_position().top, 1);
    assert_eq!(app.selected, first, "scrolling the reply leaves the selection alone");
    for _ in 0..50 {
        app.update_placed(special(KeyCode::PageDown), now);
    }
    let end = app.stream_position();
    assert_eq!(end.top + end.shown, end.total, "PgDn stops at the end");
    app.update_placed(key('G'), now);
    assert_eq!(app.stream_position(), end);
}

/// A page of the reply pane is the rows it shows less one kept in sight, not the diff pane's
/// (PgDn skipped 12 rows of a 5-row reply pane at 80x24).
#[test]
fn a_page_is_the_focused_panes_own() {
    let (mut app, now) = streamed();
    for size in [(80, 24), (160, 45)] {
        app.update_placed(Msg::Resize(size.0, size.1), now);
        app.focus = Focus::Stream;
        app.update_placed(key('g'), now);
        let top = app.stream_position();
        app.update_placed(special(KeyCode::PageDown), now);
        let next = app.stream_position();
        assert_eq!(next.top - top.top, top.shown - 1, "{size:?}: {top:?} then {next:?}");
        app.update_placed(special(KeyCode::PageUp), now);
        assert_eq!(app.stream_position().top, 0, "{size:?}");
    }
}

#[test]
fn the_diff_scrolls_no_further_than_its_last_line() {
    let (mut app, now) = streamed();
    app.update_placed(Msg::Resize(80, 12), now);
    app.update_placed(special(KeyCode::Tab), now);
    for _ in 0..40 {
        app.update_placed(key('j'), now);
    }
    let pos = app.diff_position().unwrap();
    assert!(pos.top + pos.shown <= pos.total.max(pos.shown), "{pos:?}");
    app.update_placed(key('g'), now);
    assert_eq!(app.diff_scroll, 0);
}

#[test]
fn a_click_selects_a_hunk_and_the_wheel_scrolls_the_pane_under_it() {
    let (mut app, now) = streamed();
    app.update_placed(Msg::Resize(120, 40), now);
    let panes = layout::current(&app);
    // Row 1 inside the list is the first file's name, row 2 its first hunk, row 3 its second.
    let third_row = panes.hunks.y + 3;
    app.update_placed(Msg::Click { column: panes.hunks.x + 2, row: third_row }, now);
    let order = app.order();
    assert_eq!(app.selected, Some(app.review.hunks()[order[1]].id));
    app.update_placed(Msg::Click { column: panes.stream.x + 2, row: panes.stream.y + 2 }, now);
    assert_eq!(app.focus, Focus::Stream, "a click focuses the pane");
    app.update_placed(key('g'), now);
    let selected = app.selected;
    let at = Some((panes.stream.x + 2, panes.stream.y + 2));
    app.update_placed(Msg::Scroll { down: true, at }, now);
    assert_eq!(app.stream_position().top, 3, "the wheel scrolls the reply under the pointer");
    let on_list = Some((panes.hunks.x + 2, panes.hunks.y + 2));
    app.update_placed(Msg::Scroll { down: true, at: on_list }, now);
    assert_ne!(app.selected, selected, "over the list the wheel moves the selection");
}

/// Carry out every write in `effects` and the ones they lead to.
fn settle(app: &mut App, mut effects: Vec<AppEffect>, now: Instant) {
    while let Some(e) = effects.pop() {
        effects.extend(app.update_placed(done(&e), now));
    }
}

#[test]
fn u_after_a_batch_undoes_the_whole_batch() {
    let (mut app, now) = streamed();
    let before = app.review.counts();
    let effects = app.update_placed(key('A'), now);
    settle(&mut app, effects, now);
    let after = app.review.counts();
    assert!(after.applied >= 3, "{after:?}");
    let effects = app.update_placed(key('u'), now);
    assert_eq!(effects.len(), 1, "one undo write at a time: {effects:?}");
    settle(&mut app, effects, now);
    let undone = app.review.counts();
    assert_eq!((undone.applied, undone.pending), (0, before.pending), "{undone:?}");
    assert!(app.notice.as_deref().unwrap().contains("batch"), "{:?}", app.notice);
}

#[test]
fn u_after_a_single_decision_undoes_only_it() {
    let (mut app, now) = streamed();
    let effects = app.update_placed(key('a'), now);
    settle(&mut app, effects, now);
    let applied = app.review.counts().applied;
    app.update_placed(key('J'), now);
    app.update_placed(key('n'), now);
    assert_eq!(app.review.counts().rejected, 1);
    app.update_placed(key('u'), now);
    assert_eq!(app.review.counts().applied, applied, "only the reject is undone");
}

#[test]
fn the_editor_accepts_and_moves_on_like_y() {
    let (mut app, now) = streamed();
    let first = app.selected.unwrap();
    let Some(AppEffect::OpenEditor { hunk, text }) = app.update_placed(key('e'), now).pop() else {
        panic!("the editor")
    };
    let effects = app.update_placed(Msg::EditorDone { hunk, result: Ok(text) }, now);
    assert_eq!(effects.len(), 1);
    assert_eq!(hunk, first);
    assert_ne!(app.selected, Some(first), "on to the next open hunk");
}

#[test]
fn the_request_is_shown_and_follows_follow_ups() {
    let (app, _) = streamed();
    let app = app.with_request_line(Some("tidy the inventory".into()));
    assert_eq!(app.request_line.as_deref(), Some("tidy the inventory"));
    assert!(REPLY.len() > 100);
}

#[test]
fn scrolling_stops_at_the_last_wrapped_row() {
    let (mut app, now) = streamed();
    // Narrow: the diff's long lines and the reply's prose wrap.
    app.update_placed(Msg::Resize(50, 30), now);
    app.update_placed(special(KeyCode::Tab), now);
    app.update_placed(key('G'), now);
    let h = app.selected_hunk().unwrap();
    let model = crate::app::diff_model::DiffModel::of(h, app.review.source(&h.path));
    let lines: usize = model
        .blocks
        .iter()
        .map(|b| match b {
            crate::app::diff_model::Block::Same(v) => v.len(),
            crate::app::diff_model::Block::Change(o, n) => o.len() + n.len(),
        })
        .sum();
    let pos = app.diff_position().unwrap();
    assert!(pos.total > lines, "wrapped rows count: {pos:?}, {lines} lines");
    assert_eq!(pos.top + pos.shown, pos.total, "G: the last wrapped row at the bottom");
    assert_eq!(app.diff_scroll, pos.top);
    app.update_placed(special(KeyCode::Tab), now);
    app.update_placed(key('g'), now);
    let top = app.stream_position();
    assert!(top.total > app.stream_text.lines().count(), "{top:?}");
    assert_eq!(top.top, 0, "g: the reply's first row, wrapped rows counted");
    for _ in 0..200 {
        app.update_placed(special(KeyCode::PageDown), now);
    }
    let end = app.stream_position();
    assert_eq!((end.top + end.shown, app.stream_scroll), (end.total, 0));
}

#[test]
fn another_hunk_starts_at_its_first_column() {
    let (mut app, now) = streamed();
    app.update_placed(key('>'), now);
    assert_eq!(app.diff_hscroll, 16);
    app.update_placed(key('j'), now);
    assert_eq!(app.diff_hscroll, 0, "sideways scroll is the hunk's, not the pane's");
    assert!(!app.wrap, "wrapping stays off as chosen");
    app.update_placed(key('>'), now);
    app.update_placed(key('J'), now);
    assert_eq!(app.diff_hscroll, 0);
}

#[test]
fn the_help_scrolls_when_the_terminal_is_short() {
    let (mut app, now) = streamed();
    app.update_placed(Msg::Resize(80, 24), now);
    app.update_placed(key('?'), now);
    assert_eq!(app.modal, Some(Modal::Help(0)));
    app.update_placed(key('j'), now);
    assert_eq!(app.modal, Some(Modal::Help(1)));
    app.update_placed(key('G'), now);
    let Some(Modal::Help(end)) = app.modal else { panic!("{:?}", app.modal) };
    assert_eq!(end, app.keymap.help_lines().len() - 22, "the last entry on the last row");
    app.update_placed(key('x'), now);
    assert_eq!(app.modal, None, "any other key closes it");
    app.update_placed(Msg::Resize(160, 45), now);
    app.update_placed(key('?'), now);
    app.update_placed(key('j'), now);
    assert_eq!(app.modal, None, "when it shows whole, any key closes it");
}

#[test]
fn a_batch_undo_that_could_not_write_goes_on_with_the_next_u() {
    let (mut app, now) = streamed();
    let effects = app.update_placed(key('A'), now);
    settle(&mut app, effects, now);
    let applied = app.review.counts().applied;
    assert!(applied >= 3);
    let effects = app.update_placed(key('u'), now);
    let [AppEffect::Write { effect: Effect::Write { hunk, path, .. }, undo: true }] = &effects[..]
    else {
        panic!("an undo write: {effects:?}")
    };
    let failed = Msg::WriteFailed {
        hunk: *hunk,
        path: path.clone(),
        reason: "No space left on device".into(),
        undo: true,
    };
    app.update_placed(failed, now);
    assert_eq!(app.review.counts().applied, applied, "nothing taken back");
    // The disk has room again: `u` takes back the rest of the batch, not one hunk.
    let effects = app.update_placed(key('u'), now);
    settle(&mut app, effects, now);
    assert_eq!(app.review.counts().applied, 0, "{:?}", app.notice);
    assert!(app.notice.as_deref().unwrap().contains("batch"), "{:?}", app.notice);
}

#[test]
fn a_follow_up_that_sends_a_rejected_edit_again_brings_it_back_and_says_what_it_left_out() {
    let (mut app, now) = streamed();
    let first = app.review.hunks()[0].id;
    app.selected = Some(first);
    app.update_placed(key('n'), now);
    assert_eq!(app.review.hunk(first).unwrap().state, HunkState::Rejected);
    let before = app.review.hunks().len();
    app.update_placed(key('m'), now);
    for c in "again".chars() {
        app.update_placed(key(c), now);
    }
    let effects = app.update_placed(special(KeyCode::Enter), now);
    assert!(matches!(effects.as_slice(), [AppEffect::StartStream { .. }]), "{effects:?}");
    // The model sends the same reply again: the rejected edit comes back, the others (pending
    // or failed-but-open) are not doubled, and the message says so.
    app.update_placed(Msg::Chunk(REPLY.into()), now);
    app.update_placed(Msg::StreamEnd(StreamDone::default()), now);
    let back: Vec<&ReviewHunk> = app.review.hunks()[before..]
        .iter()
        .filter(|h| h.path == app.review.hunks()[0].path)
        .collect();
    assert_eq!(back.len(), 1, "{:?}", app.review.problems);
    assert_eq!(back[0].state, HunkState::Pending);
    assert_eq!(back[0].edit.change, app.review.hunk(first).unwrap().edit.change);
    let msg = app.message().unwrap_or_default().to_string();
    assert!(msg.contains("not added again"), "{msg}");
}

#[test]
fn a_key_that_does_nothing_says_where_the_keys_are() {
    let (mut app, now) = streamed();
    let before = app.review.counts();
    app.update_placed(key('x'), now);
    assert_eq!(app.review.counts(), before, "nothing changed");
    let msg = app.message().unwrap_or_default().to_string();
    assert!(msg.contains("does nothing") && msg.contains('?'), "{msg}");
}
