//! Placing off the review's thread: a deferred review hands out jobs, takes their outcomes only
//! for the file version they were placed in, and ends where placing at once ends.

use super::*;
use crate::core::execute::After;
use crate::core::parse::{ParseOptions, parse_reply};

const APP: &str = "def a():\n    return 1\n\n\ndef b():\n    return 2\n";

/// `return 1` changed, `return 2` changed, and one that fits nowhere.
const THREE: &str = "app.py\n```\n<<<<<<< SEARCH\n    return 1\n=======\n    return 10\n>>>>>>> REPLACE\n```\n\napp.py\n```\n<<<<<<< SEARCH\n    return 2\n=======\n    return 20\n>>>>>>> REPLACE\n```\n\napp.py\n```\n<<<<<<< SEARCH\n    return 7\n    return 8\n=======\n    return 9\n>>>>>>> REPLACE\n```\n";

fn review(defer: bool) -> Review {
    let mut sources = BTreeMap::new();
    sources.insert("app.py".to_string(), Source::Text(APP.to_string()));
    let mut r = Review::new(vec!["app.py".to_string()], sources);
    if defer {
        r.defer_placing();
    }
    for e in parse_reply(THREE, ParseOptions::default()) {
        assert!(r.add_event(e).is_empty());
    }
    r
}

/// What a hunk shows of its placing.
fn shown(h: &ReviewHunk) -> (HunkState, Status, Option<(usize, usize)>, Preview, bool) {
    (h.state.clone(), h.report.status, h.report.lines, h.preview.clone(), h.placing)
}

#[test]
fn a_deferred_hunk_is_placing_until_its_job_comes_back_then_as_if_placed_at_once() {
    let at_once = review(false);
    assert!(at_once.hunks().iter().all(|h| !h.placing));
    let mut r = review(true);
    assert_eq!(r.counts().placing, 3);
    assert_eq!(r.counts().pending, 3, "placing hunks wait for a decision too");
    assert!(r.hunks().iter().all(|h| h.placing && h.preview == Preview::default()));
    let jobs = r.take_jobs();
    assert_eq!(jobs.len(), 3);
    assert!(r.take_jobs().is_empty(), "each job is handed out once");
    for job in jobs {
        // Jobs run anywhere: here on another thread.
        let result = std::thread::spawn(move || job.run()).join().unwrap();
        assert!(r.placed(result));
    }
    assert_eq!(r.counts().placing, 0);
    assert_eq!(r.counts().failed, 1, "the one that fits nowhere fails when its outcome comes");
    let now: Vec<_> = r.hunks().iter().map(shown).collect();
    let then: Vec<_> = at_once.hunks().iter().map(shown).collect();
    assert_eq!(now, then);
}

#[test]
fn an_outcome_for_a_version_the_file_has_left_is_not_taken() {
    let mut r = review(true);
    let jobs = r.take_jobs();
    // Someone puts a line at the top: the hunks are placed in the new text at once.
    let changed = format!("import os\n{APP}");
    r.file_changed("app.py", Source::Text(changed.clone()));
    assert_eq!(r.counts().placing, 0);
    let first = r.hunks()[0].clone();
    assert_eq!(first.report.lines, Some((3, 3)), "placed in the text as it is now");
    for job in jobs {
        assert!(!r.placed(job.run()), "placed in the old text: not taken");
    }
    assert_eq!(shown(&r.hunks()[0]), shown(&first));
    assert!(r.take_jobs().is_empty());
}

#[test]
fn an_accepted_hunk_is_placed_by_its_accept_and_a_rejected_one_still_takes_its_place() {
    let mut r = review(true);
    let jobs = r.take_jobs();
    let (a, b) = (r.hunks()[0].id, r.hunks()[1].id);
    // Accepting places the hunk there and then.
    let Some(Effect::Write { text, .. }) = r.accept(a) else { panic!("a write") };
    assert!(!r.hunk(a).unwrap().placing);
    assert!(!r.placed(jobs[0].run()), "placed by its accept");
    assert_eq!(r.hunk(a).unwrap().state, HunkState::Accepted);
    // A hunk rejected before its place came takes it (the pane shows it), still rejected;
    // undoing the rejection leaves it pending at that place, not waiting for ever.
    assert!(r.reject(b));
    assert!(r.placed(jobs[1].run()));
    assert_eq!(r.hunk(b).unwrap().state, HunkState::Rejected);
    assert_eq!(r.undo(), Ok(None));
    let h = r.hunk(b).unwrap();
    assert_eq!(
        (h.state.clone(), h.placing, h.report.lines),
        (HunkState::Pending, false, Some((6, 6)))
    );
    // The accepted hunk's write moves the file on: the third, still placing, is placed in the
    // new text then, and its job's outcome, for the old text, is not taken.
    r.write_done("app.py", After::Text(text));
    assert!(!r.hunks()[2].placing);
    assert!(!r.placed(jobs[2].run()));
    assert_eq!(r.hunks()[2].state, HunkState::Failed);
    assert_eq!(r.counts().placing, 0);
}

#[test]
fn a_hunk_rejected_before_its_refusal_came_is_failed_again_after_an_undo() {
    let mut r = review(true);
    let jobs = r.take_jobs();
    let c = r.hunks()[2].id;
    assert!(r.reject(c));
    assert!(r.placed(jobs[2].run()));
    assert_eq!(r.hunk(c).unwrap().state, HunkState::Rejected);
    assert_eq!(r.undo(), Ok(None));
    assert_eq!(r.hunk(c).unwrap().state, HunkState::Failed, "as if placed before the decision");
}

#[test]
fn lines_edited_on_disk_while_their_hunk_is_placing_make_a_conflict() {
    let mut r = review(true);
    let jobs = r.take_jobs();
    // Someone edits `return 1`, the line the first hunk changes, before its place came.
    r.file_changed("app.py", Source::Text(APP.replace("return 1", "return 1  # mine")));
    let h = &r.hunks()[0];
    assert!(h.state.is_conflict(), "{:?}", h.state);
    assert!(r.accept(h.id).is_none(), "a conflict is never written");
    // The one whose lines were left alone is pending in the new text.
    assert_eq!(r.hunks()[1].state, HunkState::Pending);
    for job in jobs {
        assert!(!r.placed(job.run()));
    }
}

#[test]
fn jobs_compare_by_hunk_and_version() {
    let mut r = review(true);
    let jobs = r.take_jobs();
    assert_eq!(jobs[0], jobs[0].clone());
    assert_ne!(jobs[0], jobs[1]);
    let shown = format!("{:?}", jobs[0]);
    assert!(shown.contains("app.py") && shown.contains("version"), "{shown}");
}
