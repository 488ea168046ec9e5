//! The journal's work per message: counted (hunks the recorder looks at), never timed, so the
//! check holds on any machine. A key press must cost the same with 10 hunks as with 1,000, and
//! streaming n hunks must cost O(n) in all.

use std::collections::BTreeMap;
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::record::Recorder;
use super::{App, AppConfig, Msg, StreamDone};
use crate::core::plan::Source;
use crate::core::prompt::Prompts;
use crate::core::review::Review;
use crate::provider::{ChatMessage, Role};
use crate::ui::keymap::Keymap;

/// A file of `n` small functions, and a reply with one SEARCH/REPLACE hunk for each.
fn project_and_reply(n: usize) -> (String, String) {
    let mut file = String::new();
    let mut reply = String::from("Here are the changes.\n\n");
    for i in 0..n {
        file.push_str(&format!("def f{i}():\n    return {i}\n\n"));
        reply.push_str(&format!(
            "big.py\n```python\n<<<<<<< SEARCH\n    return {i}\n=======\n    return {i} + 1\n\
             >>>>>>> REPLACE\n```\n\n"
        ));
    }
    (file, reply)
}

/// An app with `n` pending hunks, streamed through a recorder in 20-byte chunks; the
/// recorder's work for the whole stream.
fn streamed(n: usize) -> (App, Recorder, u64, Instant) {
    let (file, reply) = project_and_reply(n);
    let files = vec!["big.py".to_string()];
    let sources = BTreeMap::from([("big.py".to_string(), Source::Text(file))]);
    let mut app = App::new(AppConfig {
        review: Review::new(files.clone(), sources),
        known_paths: files,
        label: "test".into(),
        keymap: Keymap::default(),
        prompts: Prompts::default(),
        conversation: vec![ChatMessage::new(Role::User, "change")],
        request: None,
    });
    let now = Instant::now();
    let mut rec = Recorder::new();
    let mut t = 0;
    rec.start(&mut app, now, t);
    for chunk in reply.as_bytes().chunks(20) {
        t += 1;
        rec.update(&mut app, Msg::Chunk(String::from_utf8_lossy(chunk).into_owned()), now, t);
    }
    rec.update(&mut app, Msg::StreamEnd(StreamDone::default()), now, t + 1);
    assert_eq!(app.review.hunks().len(), n);
    let work = rec.hunks_examined();
    (app, rec, work, now)
}

/// The recorder's work for each of these keys, in turn.
fn work_per_key(n: usize, keys: &[char]) -> Vec<u64> {
    let (mut app, mut rec, _, now) = streamed(n);
    let mut out = Vec::new();
    for (k, c) in keys.iter().enumerate() {
        let before = rec.hunks_examined();
        let key = Msg::Key(KeyEvent::new(KeyCode::Char(*c), KeyModifiers::NONE));
        rec.update(&mut app, key, now, 1_000_000 + k as u64);
        out.push(rec.hunks_examined() - before);
    }
    out
}

#[test]
fn a_key_costs_the_journal_the_same_with_10_or_1000_hunks() {
    // Move, move, reject, move, undo: each touches at most one hunk.
    let keys = ['j', 'j', 'n', 'j', 'u'];
    let small = work_per_key(10, &keys);
    let large = work_per_key(1000, &keys);
    assert_eq!(small, large, "work per key grew with the hunks");
    assert!(large.iter().all(|&w| w <= 1), "{large:?}");
}

#[test]
fn streaming_costs_the_journal_linear_work() {
    let (_, _, small, _) = streamed(10);
    let (_, _, large, _) = streamed(1000);
    // Each hunk is looked at once when it arrives; nothing is compared again per chunk.
    assert_eq!(small, 10);
    assert_eq!(large, 1000);
}
