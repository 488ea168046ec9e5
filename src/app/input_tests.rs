//! Model tests of text input reaching the review: a paste is text for an open box and never
//! keys, and a follow-up written while the model is still writing waits for its reply's end.

use super::tests::{REPLY, key, special, started, streamed};
use super::*;

fn decided(app: &App) -> usize {
    let c = app.review.counts();
    c.applied + c.rejected
}

#[test]
fn a_paste_in_the_review_decides_nothing_and_says_why() {
    let (mut app, now) = streamed();
    let pending = app.review.counts().pending;
    // Every letter of it is a review key: `a`, `A`, `y`, `n`, `d`, `q`...
    let paste = "Traceback (most recent call last):\n  File \"x.py\", line 3\nAttributeError: yes, accept All of it\n";
    let effects = app.update_placed(Msg::Paste(paste.into()), now);
    assert!(effects.is_empty(), "{effects:?}");
    assert_eq!(app.review.counts().pending, pending);
    assert_eq!(decided(&app), 0);
    assert_eq!(app.modal, None);
    let notice = app.notice.clone().unwrap();
    assert!(notice.contains("not taken as keys") && notice.contains("`m`"), "{notice}");
}

#[test]
fn a_paste_into_the_follow_up_box_is_its_text_with_its_lines() {
    let (mut app, now) = streamed();
    app.update_placed(key('m'), now);
    for c in "fix:".chars() {
        app.update_placed(key(c), now);
    }
    app.update_placed(Msg::Paste(" this error\r\nAttributeError: A\r\n".into()), now);
    assert_eq!(app.modal, Some(Modal::FollowUp("fix: this error\nAttributeError: A\n".into())));
    assert_eq!(decided(&app), 0);
    let effects = app.update_placed(special(KeyCode::Enter), now);
    let [AppEffect::StartStream { messages, .. }] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    let sent = &messages.last().unwrap().content;
    assert!(sent.starts_with("fix: this error\nAttributeError: A"), "{sent}");
}

#[test]
fn a_paste_into_the_request_and_search_boxes() {
    let now = std::time::Instant::now();
    let mut app = super::tests::app_with(Vec::new());
    app.modal = Some(Modal::Prompt(String::new()));
    app.update_placed(Msg::Paste("add\ntype hints".into()), now);
    assert_eq!(app.modal, Some(Modal::Prompt("add\ntype hints".into())));
    let (mut app, now) = streamed();
    app.update_placed(key('/'), now);
    app.update_placed(Msg::Paste("inventory\n.py".into()), now);
    assert_eq!(app.modal, Some(Modal::Search("inventory .py".into())), "a search is one line");
}

#[test]
fn m_while_the_model_writes_opens_the_box_and_sends_when_the_reply_ends() {
    let (mut app, now) = started();
    let half = REPLY.len() / 2;
    let half = (0..=half).rev().find(|&i| REPLY.is_char_boundary(i)).unwrap();
    app.update_placed(Msg::Chunk(REPLY[..half].into()), now);
    assert!(app.streaming);
    app.update_placed(key('m'), now);
    assert_eq!(app.modal, Some(Modal::FollowUp(String::new())), "the box opens mid-stream");
    // Typed without looking: every letter is text, none a decision (`a` accepted a file).
    for c in "also add tests".chars() {
        assert!(app.update_placed(key(c), now).is_empty());
    }
    let effects = app.update_placed(special(KeyCode::Enter), now);
    assert!(effects.is_empty(), "nothing is sent while the model writes: {effects:?}");
    assert_eq!(app.follow_up_queued.as_deref(), Some("also add tests"));
    assert_eq!(decided(&app), 0);
    app.update_placed(Msg::Chunk(REPLY[half..].into()), now);
    let effects = app.update_placed(Msg::StreamEnd(StreamDone::default()), now);
    let sent: Vec<_> = effects
        .iter()
        .filter_map(|e| match e {
            AppEffect::StartStream { messages, why, .. } => Some((messages, why)),
            _ => None,
        })
        .collect();
    let [(messages, why)] = sent.as_slice() else { panic!("{effects:?}") };
    assert_eq!(**why, Why::FollowUp);
    assert_eq!(messages[1].role, Role::Assistant);
    assert!(messages[1].content.contains("inventory.py"), "the whole reply answered");
    assert!(messages[2].content.starts_with("also add tests"));
    assert!(app.streaming && app.follow_up_queued.is_none());
}

#[test]
fn a_queued_follow_up_is_kept_when_its_reply_fails_and_m_opens_it() {
    for end in [Msg::StreamError("connection reset".into()), Msg::StreamCancelled] {
        let (mut app, now) = started();
        app.update_placed(Msg::Chunk(REPLY[..40].into()), now);
        app.update_placed(key('m'), now);
        for c in "more".chars() {
            app.update_placed(key(c), now);
        }
        app.update_placed(special(KeyCode::Enter), now);
        let effects = app.update_placed(end.clone(), now);
        assert!(
            !effects.iter().any(|e| matches!(e, AppEffect::StartStream { .. })),
            "{end:?}: not sent after a broken reply"
        );
        assert!(app.notice.as_deref().unwrap().contains("not sent"), "{end:?}: {:?}", app.notice);
        app.update_placed(key('m'), now);
        assert_eq!(app.modal, Some(Modal::FollowUp("more".into())), "{end:?}: the draft");
    }
}

#[test]
fn the_input_boxes_take_ctrl_u_and_ctrl_w_and_type_no_other_ctrl_letters() {
    let ctrl = |c: char| Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
    let (mut app, now) = streamed();
    app.update_placed(key('m'), now);
    for c in "add tests please".chars() {
        app.update_placed(key(c), now);
    }
    for c in ['a', 'e', 'k'] {
        app.update_placed(ctrl(c), now);
    }
    assert_eq!(app.modal, Some(Modal::FollowUp("add tests please".into())), "no letters typed");
    app.update_placed(ctrl('w'), now);
    assert_eq!(app.modal, Some(Modal::FollowUp("add tests ".into())));
    app.update_placed(ctrl('u'), now);
    assert_eq!(app.modal, Some(Modal::FollowUp(String::new())));
    let mut app = super::tests::app_with(Vec::new());
    app.modal = Some(Modal::Prompt("fix it".into()));
    app.update_placed(ctrl('e'), now);
    app.update_placed(ctrl('w'), now);
    assert_eq!(app.modal, Some(Modal::Prompt("fix ".into())));
}
