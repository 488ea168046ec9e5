//! The journal's cost and honesty.
//!
//! Cost is counted (hunks the recorder looks at), never timed, so the checks hold on any
//! machine: a message costs the journal what it changes, the same with 10, 1,000 or 10,000
//! hunks. Honesty: over random sequences of messages, the journal the recorder appends from the
//! review's changed hunks is record for record the one a comparison of every hunk after every
//! message gives ([`Recorder::rebuilding`]); a place that changed a hunk without marking it
//! would show here as a missing record.

use std::collections::BTreeMap;
use std::time::Instant;

use crate::app::key::{KeyCode, KeyEvent, KeyModifiers};
use proptest::prelude::*;

use super::record::Recorder;
use super::tests::{INVENTORY, REPLY, app_with};
use super::{App, AppConfig, AppEffect, Msg, StreamDone};
use crate::core::execute::After;
use crate::core::file::Source;
use crate::core::review::Effect;
use crate::provider::{ChatMessage, Role};

/// Functions per file: hunks are spread over files of this many, so placing one costs the same
/// whatever the count.
const PER_FILE: usize = 50;

/// Files of small functions, and a reply with one SEARCH/REPLACE hunk for each function.
fn project_and_reply(n: usize) -> (BTreeMap<String, Source>, String) {
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    let mut reply = String::from("Here are the changes.\n\n");
    for i in 0..n {
        let path = format!("m{}.py", i / PER_FILE);
        files
            .entry(path.clone())
            .or_default()
            .push_str(&format!("def f{i}():\n    return {i}\n\n"));
        reply.push_str(&format!(
            "{path}\n```python\n<<<<<<< SEARCH\n    return {i}\n=======\n    return {i} + 1\n\
             >>>>>>> REPLACE\n```\n\n"
        ));
    }
    (files.into_iter().map(|(p, t)| (p, Source::Text(t))).collect(), reply)
}

/// An app with `n` pending hunks, streamed through a recorder in chunks of `chunk` bytes; the
/// most work any one message cost the recorder, and the work in all.
fn streamed(n: usize, chunk: usize) -> (App, Recorder, u64, u64) {
    let (sources, reply) = project_and_reply(n);
    let files: Vec<String> = sources.keys().cloned().collect();
    let mut app =
        App::new(AppConfig { label: "test".into(), ..AppConfig::new(files, sources, "change") });
    let now = Instant::now();
    let mut rec = Recorder::new();
    rec.start(&mut app, now, 0);
    let mut most = 0;
    let mut msgs: Vec<Msg> = (reply.as_bytes().chunks(chunk))
        .map(|c| Msg::Chunk(String::from_utf8_lossy(c).into_owned()))
        .collect();
    msgs.push(Msg::StreamEnd(StreamDone::default()));
    for (t, msg) in msgs.into_iter().enumerate() {
        let before = rec.hunks_examined();
        rec.update_placed(&mut app, msg, now, t as u64 + 1);
        most = most.max(rec.hunks_examined() - before);
    }
    assert_eq!(app.review.counts().placing, 0, "every hunk is placed");
    assert_eq!(app.review.hunks().len(), n);
    let all = rec.hunks_examined();
    (app, rec, most, all)
}

/// The recorder's work for each of these keys, in turn, after streaming `n` hunks.
fn work_per_key(n: usize, keys: &[char]) -> Vec<u64> {
    let (mut app, mut rec, _, _) = streamed(n, 4096);
    let now = Instant::now();
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
fn a_key_costs_the_journal_the_same_with_10_1000_or_10000_hunks() {
    // Move, move, reject, move, undo, accept: each touches at most one hunk.
    let keys = ['j', 'j', 'n', 'j', 'u', 'y'];
    let small = work_per_key(10, &keys);
    assert_eq!(small, [0, 0, 1, 0, 1, 1]);
    assert_eq!(work_per_key(1_000, &keys), small, "work per key grew with the hunks");
    assert_eq!(work_per_key(10_000, &keys), small, "work per key grew with the hunks");
}

#[test]
fn streaming_costs_the_journal_each_hunk_once() {
    for n in [10, 1_000, 10_000] {
        let (_, _, most, all) = streamed(n, 20);
        // Each hunk is looked at twice, when it arrives and when its placing comes back;
        // nothing is compared again per chunk. A chunk here comes with its placings.
        assert_eq!(all, 2 * n as u64, "{n} hunks");
        assert!(most <= 2, "{n} hunks: one message cost {most}");
    }
}

/// One step of a random session.
#[derive(Debug, Clone)]
enum Step {
    /// The next this many bytes of the reply.
    Chunk(usize),
    End,
    Key(char),
    /// The oldest write asked for is done (or fails).
    Answer {
        ok: bool,
    },
    /// Someone edits `inventory.py`: a line is put in at this line, or this line taken out, or
    /// the file is set back to how it was, or it is deleted.
    Disk(u8, usize),
    /// The editor gives back this text for the hunk it was opened on.
    Editor(&'static str),
    /// The oldest placing job asked for comes back (stale or not).
    Placed,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (1usize..300).prop_map(Step::Chunk),
        1 => Just(Step::End),
        4 => prop::sample::select(vec!['j', 'k', 'J', 'K', 'y', 'n', 'u', 'a', 'd', 'A', 's', 'e'])
            .prop_map(Step::Key),
        3 => any::<bool>().prop_map(|ok| Step::Answer { ok }),
        2 => (0u8..4, 0usize..60).prop_map(|(k, at)| Step::Disk(k, at)),
        1 => prop::sample::select(vec!["x = 1", "", "def f():\n    pass"]).prop_map(Step::Editor),
        4 => Just(Step::Placed),
    ]
}

/// What each recorder wrote, step by step, for the same messages to two equal apps.
struct Twin {
    apps: [App; 2],
    recs: [Recorder; 2],
    now: Instant,
    t: u64,
    sent: usize,
    disk: String,
    writes: Vec<(Effect, bool)>,
    editor: Option<u64>,
    /// Placing jobs asked for, oldest first (both apps ask for the same).
    placing: std::collections::VecDeque<crate::core::review::PlaceJob>,
}

impl Twin {
    fn new() -> Twin {
        let now = Instant::now();
        let conversation = || vec![ChatMessage::new(Role::User, "change things")];
        let mut apps = [app_with(conversation()), app_with(conversation())];
        let mut recs = [Recorder::new(), Recorder::rebuilding()];
        let (e0, r0) = recs[0].start(&mut apps[0], now, 0);
        let (e1, r1) = recs[1].start(&mut apps[1], now, 0);
        assert_eq!((format!("{e0:?}"), r0), (format!("{e1:?}"), r1));
        let disk = INVENTORY.to_string();
        let (writes, editor, placing) = (Vec::new(), None, Default::default());
        Twin { apps, recs, now, t: 0, sent: 0, disk, writes, editor, placing }
    }

    /// Send a message to both; their records must be the same.
    fn send(&mut self, msg: Msg) {
        self.t += 1;
        let [a, b] = &mut self.apps;
        let (effects, incremental) = self.recs[0].update(a, msg.clone(), self.now, self.t);
        let (_, rebuilt) = self.recs[1].update(b, msg.clone(), self.now, self.t);
        assert_eq!(incremental, rebuilt, "after {msg:?}");
        for effect in effects {
            match effect {
                AppEffect::Write { effect, undo } => self.writes.push((effect, undo)),
                AppEffect::OpenEditor { hunk, .. } => self.editor = Some(hunk),
                AppEffect::Place(job) => self.placing.push_back(job),
                _ => {}
            }
        }
    }

    fn run(&mut self, step: Step) {
        let msg = match step {
            Step::Chunk(n) => {
                let end = (self.sent + n).min(REPLY.len());
                let end = (end..=REPLY.len()).find(|&e| REPLY.is_char_boundary(e)).unwrap();
                let text = REPLY[self.sent..end].to_string();
                self.sent = end;
                Msg::Chunk(text)
            }
            Step::End => Msg::StreamEnd(StreamDone::default()),
            Step::Key(c) => Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
            Step::Answer { ok } if !self.writes.is_empty() => answer(self.writes.remove(0), ok),
            Step::Answer { .. } => return,
            Step::Disk(kind, at) => self.disk_change(kind, at),
            Step::Editor(text) => match self.editor.take() {
                Some(hunk) => Msg::EditorDone { hunk, result: Ok(text.to_string()) },
                None => return,
            },
            Step::Placed => match self.placing.pop_front() {
                Some(job) => Msg::Placed(job.run()),
                None => return,
            },
        };
        self.send(msg);
    }

    fn disk_change(&mut self, kind: u8, at: usize) -> Msg {
        let path = "inventory.py".to_string();
        let mut lines: Vec<&str> = self.disk.lines().collect();
        let at = at.min(lines.len());
        let source = match kind {
            0 => {
                lines.insert(at, "# a note");
                Source::Text(lines.join("\n") + "\n")
            }
            1 if at < lines.len() => {
                lines.remove(at);
                Source::Text(lines.join("\n") + "\n")
            }
            3 => Source::Missing,
            _ => Source::Text(INVENTORY.to_string()),
        };
        if let Source::Text(t) = &source {
            self.disk = t.clone();
        }
        Msg::FileChanged { path, source }
    }
}

/// The shell's answer to a write.
fn answer((effect, undo): (Effect, bool), ok: bool) -> Msg {
    let (hunk, path, after) = match effect {
        Effect::Write { hunk, path, text, .. } => (hunk, path, After::Text(text)),
        Effect::Delete { hunk, path, .. } => (hunk, path, After::Deleted),
        Effect::Read { path } => return Msg::FileRead { path, source: Source::Missing },
    };
    if ok {
        Msg::WriteDone { hunk, path, after, undo }
    } else {
        Msg::WriteFailed { hunk, path, reason: "disk full".into(), undo }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn the_journal_appended_is_the_journal_rebuilt(steps in prop::collection::vec(step(), 1..60)) {
        let mut twin = Twin::new();
        // The whole reply first half of the time, so that most sequences work on every hunk.
        if steps.len() % 2 == 0 {
            twin.run(Step::Chunk(REPLY.len()));
        }
        for s in steps {
            twin.run(s);
        }
        twin.run(Step::Chunk(REPLY.len()));
        twin.run(Step::End);
        while !twin.placing.is_empty() {
            twin.run(Step::Placed);
        }
        for k in ['s', 'j', 'y', 'u', 'A', 'u', 'd'] {
            twin.run(Step::Key(k));
            twin.run(Step::Answer { ok: true });
        }
    }
}

#[test]
fn the_watcher_seeing_our_own_write_before_its_outcome_is_neither_journaled_nor_fed() {
    let (mut app, mut rec, _, _) = streamed(3, 64);
    let now = Instant::now();
    let key = Msg::Key(KeyEvent::new(KeyCode::Char('y'), KeyModifiers::NONE));
    let (effects, _) = rec.update_placed(&mut app, key, now, 100);
    let [AppEffect::Write { effect: Effect::Write { hunk, path, text, .. }, undo }] = &effects[..]
    else {
        panic!("one write: {effects:?}")
    };
    // The write landed; the watcher's report of it comes before the worker's answer.
    let echo = Msg::FileChanged { path: path.clone(), source: Source::Text(text.clone()) };
    let (effects, records) = rec.update_placed(&mut app, echo, now, 101);
    assert!(effects.is_empty() && records.is_empty(), "{effects:?} {records:?}");
    assert_eq!(app.review.counts().accepted, 1, "the app saw nothing");
    let done = Msg::WriteDone {
        hunk: *hunk,
        path: path.clone(),
        after: After::Text(text.clone()),
        undo: *undo,
    };
    rec.update_placed(&mut app, done, now, 102);
    assert_eq!(app.review.counts().applied, 1);
    // Someone else's change to the same file is a change again.
    let theirs =
        Msg::FileChanged { path: path.clone(), source: Source::Text(format!("# x\n{text}")) };
    let (_, records) = rec.update_placed(&mut app, theirs, now, 103);
    assert!(!records.is_empty());
}
