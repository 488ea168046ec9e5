use std::time::Duration;

use crate::app::key::{KeyCode, KeyEvent, KeyModifiers};

use super::*;
use crate::core::session::{FileRecord, MessageRecord, Why, hunk_hex};

fn header() -> Header {
    Header {
        version: VERSION,
        id: "t".into(),
        started_ms: 0,
        root: "p".into(),
        prompt: Some("p".into()),
        provider: "openai".into(),
        model: "m".into(),
        base_url: None,
        format: "search-replace".into(),
        label: "openai · m".into(),
        redline: "0".into(),
        width: 80,
        height: 24,
        project_files: vec!["a.py".into()],
        asks_prompt: false,
        keymap: None,
        replay_of: None,
        scratch: false,
        watch: None,
    }
}

fn request(t: u64, round: usize) -> Record {
    Record::Request(RequestRecord {
        t,
        round,
        why: if round == 0 { Why::Initial } else { Why::Retry },
        messages: vec![MessageRecord::new("user", "p")],
    })
}

fn chunk(t: u64, text: &str) -> Record {
    Record::Chunk { t, text: text.into() }
}

fn key(t: u64, k: char) -> Record {
    Record::Key { t, key: k.to_string() }
}

/// Two rounds: a reply, a key that asks again, another reply; a key in between.
fn script() -> Script {
    let records = vec![
        Record::Session(header()),
        Record::File(FileRecord::new(None, "a.py", &Source::Text("x = 1\n".into()))),
        request(0, 0),
        chunk(100, "one\n"),
        key(150, 'j'),
        chunk(200, "two\n"),
        Record::StreamEnd { t: 300, output_tokens: None, note: None },
        key(1000, 'r'),
        request(1000, 1),
        chunk(1400, "three\n"),
        Record::StreamEnd { t: 1500, output_tokens: None, note: None },
    ];
    Script::from_journal(&Journal { records, dropped: None }).expect("a script")
}

fn text_of(cue: &Cue) -> String {
    match cue {
        Cue::Msg(Msg::Chunk(t)) => t.trim().to_string(),
        Cue::Msg(Msg::Key(k)) => format!("key {:?}", k.code),
        Cue::Msg(Msg::StreamEnd(_)) => "end".into(),
        Cue::Msg(Msg::StreamError(e)) => format!("error {e}"),
        Cue::Msg(Msg::StreamCancelled) => "error cancelled".into(),
        other => format!("{other:?}"),
    }
}

/// Everything the player gives when the app asks for its rounds at `starts`.
fn drain(player: &mut Player, starts: &[(u64, usize)]) -> Vec<(u64, String)> {
    let mut out = Vec::new();
    let mut asked = 0;
    for _ in 0..100 {
        while asked < starts.len() && player.started.len() < starts[asked].1 + 1 {
            let due = player.next_due();
            if due.is_some_and(|d| d < starts[asked].0) {
                break;
            }
            player.round_started(starts[asked].0);
            asked += 1;
        }
        let Some(due) = player.next_due() else { break };
        let (t, cue) = player.pop_due(due).expect("due");
        out.push((t, text_of(&cue)));
    }
    out
}

#[test]
fn the_script_sorts_the_records_into_cues() {
    let s = script();
    assert_eq!(s.files.len(), 1);
    assert_eq!(s.requests.len(), 2);
    let rounds: Vec<Option<usize>> = s
        .events
        .iter()
        .map(|e| match e.kind {
            EventKind::Stream { round, .. } => Some(round),
            _ => None,
        })
        .collect();
    assert_eq!(rounds, [Some(0), None, Some(0), Some(0), None, Some(1), Some(1)]);
    let EventKind::Stream { offset, .. } = &s.events[5].kind else { panic!() };
    assert_eq!(*offset, 400, "offsets count from the round's request");
    let config = s.app_config();
    assert_eq!(config.conversation.len(), 1, "the recorded request is the app's");
    assert_eq!(config.label, "openai · m");
}

#[test]
fn a_newer_journal_and_a_headless_one_are_refused() {
    let mut h = header();
    h.version = VERSION + 1;
    let journal = Journal { records: vec![Record::Session(h)], dropped: None };
    assert!(Script::from_journal(&journal).unwrap_err().contains("newer redline"));
    let journal = Journal { records: vec![chunk(1, "x")], dropped: None };
    assert!(Script::from_journal(&journal).is_err());
}

#[test]
fn while_reenacting_everything_comes_in_recorded_order_and_time() {
    let mut player = Player::new(&script(), true);
    assert_eq!(player.next_due(), None, "the reply waits until the app asks for it");
    player.round_started(0);
    let got = drain(&mut player, &[(1000, 1)]);
    let want = [
        (100, "one"),
        (150, "key Char('j')"),
        (200, "two"),
        (300, "end"),
        (1000, "key Char('r')"),
        (1400, "three"),
        (1500, "end"),
    ];
    let want: Vec<(u64, String)> = want.iter().map(|(t, s)| (*t, s.to_string())).collect();
    assert_eq!(got, want);
    assert!(player.finished());
}

#[test]
fn a_cue_is_not_given_before_its_time() {
    let mut player = Player::new(&script(), true);
    player.round_started(0);
    assert_eq!(player.pop_due(99), None);
    assert!(player.pop_due(100).is_some());
}

#[test]
fn after_the_user_takes_over_only_the_replies_go_on_at_their_offsets() {
    let mut player = Player::new(&script(), true);
    player.round_started(0);
    player.pop_due(100).expect("one");
    player.take_over();
    assert!(!player.reenacting() && !player.holds_effects());
    // The recorded `j` and `r` are gone; the rest of round 0 comes; round 1 when asked (late).
    let got = drain(&mut player, &[(5000, 1)]);
    let texts: Vec<&str> = got.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(texts, ["two", "end", "three", "end"]);
    assert_eq!(got[2].0, 5400, "round 1 keeps its offset from when it was asked for");
}

#[test]
fn the_demo_user_decides_from_the_start() {
    let mut player = Player::new(&script(), false);
    player.round_started(10);
    let got = drain(&mut player, &[]);
    let texts: Vec<&str> = got.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(texts, ["one", "two", "end"], "no recorded keys");
    assert_eq!(got[0].0, 110);
    assert_eq!(player.next_due(), None, "round 1 waits for the user's retry");
}

#[test]
fn a_request_beyond_the_recording_gets_an_error_and_a_cancel_stops_the_reply() {
    let mut player = Player::new(&script(), false);
    player.round_started(0);
    player.pop_due(100).expect("one");
    player.cancel(120);
    let got = drain(&mut player, &[]);
    assert_eq!(got, vec![(120, "error cancelled".to_string())]);
    player.round_started(2000);
    player.round_started(3000);
    let got = drain(&mut player, &[]);
    let texts: Vec<&str> = got.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(texts[..2], ["three", "end"], "round 1 is recorded");
    assert_eq!(got[2], (3000, format!("error {NO_REPLY}")), "round 2 is not");
}

#[test]
fn a_reply_never_asked_for_is_skipped_and_said() {
    let mut player = Player::new(&script(), true);
    let note = player.skip_blocked().expect("stuck on round 0");
    assert!(note.contains("request 0"), "{note}");
    assert_eq!(player.next_due(), Some(150), "the key after it comes");
}

#[test]
fn held_effects_are_matched_by_hunk_and_path() {
    let write = |hunk, path: &str| AppEffect::Write {
        effect: Effect::Write { hunk, path: path.into(), expected: None, text: String::new() },
        undo: false,
    };
    let mut held =
        vec![write(1, "a.py"), write(2, "b.py"), AppEffect::Read { path: "c.py".into() }];
    let key = ResultKey::Write { hunk: 2, path: "b.py".into(), undo: false, found: None };
    assert_eq!(take_held(&mut held, &key), Some(write(2, "b.py")));
    let other = ResultKey::Write { hunk: 9, path: "a.py".into(), undo: false, found: None };
    assert_eq!(take_held(&mut held, &other), Some(write(1, "a.py")), "same path");
    let read = ResultKey::Read { path: "c.py".into(), source: Source::Missing };
    assert!(take_held(&mut held, &read).is_some());
    assert!(held.is_empty());
    let _ = hunk_hex(1);
}

#[test]
fn the_clock_scales_wall_time() {
    let ten = Clock { speed: Some(10.0) };
    assert_eq!(ten.wall_at(5000), Duration::from_millis(500));
    assert_eq!(ten.recorded_at(Duration::from_millis(500)), Some(5000));
    let instant = Clock { speed: None };
    assert_eq!(instant.wall_at(5000), Duration::ZERO);
    assert_eq!(instant.recorded_at(Duration::from_secs(1)), None);
}

#[test]
fn recorded_keys_reach_the_app_as_keys() {
    let s = script();
    let EventKind::Input(Msg::Key(k)) = &s.events[1].kind else { panic!("{:?}", s.events[1]) };
    assert_eq!(*k, KeyEvent::new(KeyCode::Char('j'), KeyModifiers::NONE));
}

#[test]
fn a_write_the_recording_never_made_nor_decided_on_is_a_stray_one_it_decided_on_is_not() {
    let decided: HunkId = 0x2a;
    let mut records = script().records;
    records.push(Record::Decision(crate::core::session::DecisionRecord {
        t: 1200,
        hunk: hunk_hex(decided),
        path: "a.py".into(),
        action: "accept".into(),
        state: "applied".into(),
    }));
    // A hunk the recording rejected: a replayed key that accepts it went another way.
    records.push(Record::Decision(crate::core::session::DecisionRecord {
        t: 1300,
        hunk: hunk_hex(8),
        path: "a.py".into(),
        action: "reject".into(),
        state: "rejected".into(),
    }));
    let script = Script::from_journal(&Journal { records, dropped: None }).unwrap();
    let player = Player::new(&script, true);
    let write = |hunk: HunkId, undo: bool| AppEffect::Write {
        effect: Effect::Write { hunk, path: "a.py".into(), expected: None, text: "x = 2\n".into() },
        undo,
    };
    assert_eq!(player.stray(&write(decided, false)), None);
    match player.stray(&write(7, false)) {
        Some(Msg::WriteFailed { hunk, path, reason, undo: false }) => {
            assert_eq!((hunk, path.as_str()), (7, "a.py"));
            assert!(reason.contains("never made this write"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    assert!(player.stray(&write(8, false)).is_some(), "the recording rejected it");
    assert!(player.stray(&write(decided, true)).is_some(), "the recording never undid it");
    // A read is no write.
    assert_eq!(player.stray(&AppEffect::Read { path: "a.py".into() }), None);
}
