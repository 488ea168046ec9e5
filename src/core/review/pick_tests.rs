//! Picking among the places an ambiguous hunk fits.

use std::collections::BTreeMap;

use super::*;
use crate::core::parse::{ParseOptions, parse_reply};

const TWINS: &str = "def a():\n    x = 1\n    return x\n\ndef b():\n    x = 1\n    return x\n\ndef c():\n    x = 1\n    return x\n";

const REPLY: &str =
    "app.py\n```\n<<<<<<< SEARCH\n    x = 1\n=======\n    x = 2\n>>>>>>> REPLACE\n```\n";

fn review(text: &str) -> Review {
    review_of("app.py", text, REPLY)
}

fn review_of(path: &str, text: &str, reply: &str) -> Review {
    let mut sources = BTreeMap::new();
    sources.insert(path.to_string(), Source::Text(text.to_string()));
    let mut r = Review::new(vec![path.to_string()], sources);
    for e in parse_reply(reply, ParseOptions::default()) {
        assert!(r.add_event(e).is_empty());
    }
    r
}

fn written(e: Effect) -> String {
    match e {
        Effect::Write { text, .. } => text,
        other => panic!("not a write: {other:?}"),
    }
}

#[test]
fn an_ambiguous_hunk_is_failed_with_its_candidates_in_order() {
    let r = review(TWINS);
    let h = &r.hunks()[0];
    assert_eq!(h.state, HunkState::Failed);
    let firsts: Vec<usize> = r.candidates(h.id).iter().map(|c| c.first_line).collect();
    assert_eq!(firsts, vec![2, 6, 10]);
}

#[test]
fn picking_places_the_hunk_at_that_candidate_only() {
    let mut r = review(TWINS);
    let id = r.hunks()[0].id;
    assert!(r.pick(id, 2));
    let h = r.hunk(id).unwrap();
    assert_eq!(h.state, HunkState::Pending);
    assert_eq!(h.report.lines, Some((6, 6)));
    assert_eq!(h.preview.start, 5);
    assert!(r.candidates(id).is_empty(), "a placed hunk asks nothing");
    let text = written(r.accept(id).expect("a write"));
    assert_eq!(text, TWINS.replacen("def b():\n    x = 1", "def b():\n    x = 2", 1));
}

#[test]
fn a_number_without_a_candidate_changes_nothing() {
    let mut r = review(TWINS);
    let id = r.hunks()[0].id;
    let before = r.hunk(id).unwrap().report.clone();
    assert!(!r.pick(id, 0));
    assert!(!r.pick(id, 4));
    assert_eq!(r.hunk(id).unwrap().state, HunkState::Failed);
    assert_eq!(r.hunk(id).unwrap().report, before);
    // Nor does a pick on a hunk that is not ambiguous.
    let mut plain = review("def a():\n    x = 1\n");
    let id = plain.hunks()[0].id;
    assert_eq!(plain.hunk(id).unwrap().state, HunkState::Pending);
    assert!(!plain.pick(id, 1));
}

#[test]
fn a_refused_placement_at_the_chosen_place_leaves_the_hunk_failed_asking_again() {
    let mut r = review(TWINS);
    let id = r.hunks()[0].id;
    // A candidate list gone stale (as the screen may hold it): line 4 is no place the hunk
    // fits, so the placement there is refused and nothing is placed.
    let idx = r.hunks.iter().position(|h| h.id == id).unwrap();
    r.hunks.get_mut(idx).report.candidates[0].first_line = 4;
    assert!(r.pick(id, 1));
    let h = r.hunk(id).unwrap();
    assert_eq!(h.state, HunkState::Failed);
    assert!(h.report.reason.as_deref().unwrap_or("").contains("equally well"));
    assert!(h.preview.new.is_empty());
    assert_eq!(r.candidates(id).len(), 3, "it still asks");
    assert!(r.accept(id).is_none());
}

#[test]
fn a_picked_hunk_follows_its_place_when_the_file_changes_and_asks_again_when_it_is_gone() {
    let mut r = review(TWINS);
    let id = r.hunks()[0].id;
    assert!(r.pick(id, 2));
    // Lines above move it: it stays pending at the same place, moved.
    let moved = format!("import os\nimport sys\n\n{TWINS}");
    r.file_changed("app.py", Source::Text(moved.clone()));
    let h = r.hunk(id).unwrap();
    assert_eq!(h.state, HunkState::Pending);
    assert_eq!(h.report.lines, Some((9, 9)));
    // Its place rewritten, the other two still fit equally well: it asks again.
    let gone = moved.replacen("def b():\n    x = 1\n    return x\n", "def b():\n    pass\n", 1);
    r.file_changed("app.py", Source::Text(gone));
    assert!(r.hunk(id).unwrap().state.is_open());
    assert_eq!(r.candidates(id).iter().map(|c| c.first_line).collect::<Vec<_>>(), vec![5, 12]);
}

/// A hunk refused because it fits a look-alike (a telling line found exactly in the twin) is
/// picked like an ambiguous one: both places listed, the chosen one written.
#[test]
fn a_twin_refused_hunk_is_picked_like_an_ambiguous_one() {
    let text = "def load_users(path):\n    with open(path) as f:\n        rows = json.load(f)\n    return [User(r) for r in rows]\n\n\ndef load_groups(path):\n    with open(path) as f:\n        data = json.load(f)\n    return [Group(r) for r in data]\n";
    let reply = "app.py\n```\n<<<<<<< SEARCH\ndef load_users(path):\n    with open(path) as f:\n        data = json.load(f)\n=======\ndef load_users(path):\n    with open(path, encoding=\"utf-8\") as f:\n        data = json.load(f)\n>>>>>>> REPLACE\n```\n";
    let mut sources = BTreeMap::new();
    sources.insert("app.py".to_string(), Source::Text(text.to_string()));
    let mut r = Review::new(vec!["app.py".to_string()], sources);
    for e in parse_reply(reply, ParseOptions::default()) {
        r.add_event(e);
    }
    let id = r.hunks()[0].id;
    assert_eq!(r.hunk(id).unwrap().state, HunkState::Failed);
    let firsts: Vec<usize> = r.candidates(id).iter().map(|c| c.first_line).collect();
    assert_eq!(firsts, vec![1, 7]);
    assert!(r.pick(id, 1));
    let written = written(r.accept(id).expect("a write"));
    assert_eq!(
        written,
        text.replacen("with open(path) as f:", "with open(path, encoding=\"utf-8\") as f:", 1)
    );
}

/// The same two lines as written in a YAML anchor and, deeper, in a service: the block's lines
/// as written are no evidence, so the hunk asks, and a pick of the deeper place puts the change
/// there, indented as the file has it.
#[test]
fn lines_as_written_at_one_depth_and_shifted_at_another_ask_and_the_pick_places() {
    const COMPOSE: &str = "x-env: &env\n  LOG_LEVEL: info\n  QUEUE: jobs\n\nservices:\n  api:\n    environment:\n      LOG_LEVEL: info\n      QUEUE: jobs\n  cron:\n    environment:\n      <<: *env\n";
    let reply = "compose.yml\n```yaml\n<<<<<<< SEARCH\n  LOG_LEVEL: info\n  QUEUE: jobs\n=======\n  LOG_LEVEL: debug\n  QUEUE: jobs\n>>>>>>> REPLACE\n```\n";
    let mut r = review_of("compose.yml", COMPOSE, reply);
    let id = r.hunks()[0].id;
    assert_eq!(r.hunk(id).unwrap().state, HunkState::Failed);
    let firsts: Vec<usize> = r.candidates(id).iter().map(|c| c.first_line).collect();
    assert_eq!(firsts, vec![2, 8]);
    assert!(r.pick(id, 2));
    assert_eq!(r.hunk(id).unwrap().state, HunkState::Pending);
    let text = written(r.accept(id).expect("a write"));
    assert_eq!(text, COMPOSE.replacen("      LOG_LEVEL: info", "      LOG_LEVEL: debug", 1));
}

#[test]
fn a_wrong_pick_is_redone_with_another_digit_until_a_file_changes() {
    let mut r = review(TWINS);
    let id = r.hunks()[0].id;
    assert!(r.pick(id, 1));
    assert_eq!(r.hunk(id).unwrap().report.lines, Some((2, 2)));
    assert_eq!(r.pickable(id).len(), 3, "the places it was picked among");
    // Another digit moves it.
    assert!(r.pick(id, 3));
    let h = r.hunk(id).unwrap();
    assert_eq!((h.state.clone(), h.report.lines), (HunkState::Pending, Some((10, 10))));
    let text = written(r.accept(id).expect("a write"));
    assert_eq!(text, TWINS.replacen("def c():\n    x = 1", "def c():\n    x = 2", 1));
    // Once a file changed, the old numbers name nothing: no more moving.
    let mut r = review(TWINS);
    let id = r.hunks()[0].id;
    assert!(r.pick(id, 2));
    r.file_changed("app.py", Source::Text(format!("# top\n{TWINS}")));
    assert!(r.pickable(id).is_empty());
    assert!(!r.pick(id, 1));
}
