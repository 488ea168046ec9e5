//! Properties of any sequence of messages, run through the one interpreter of effects
//! ([`Core::interpret`]) and the disk jobs the worker runs, against files in memory: the reply
//! streams in split anywhere, keys come in any order between its chunks, and each effect's disk
//! work is carried out before the next message (the order a user at human speed sees); the
//! placing of new hunks comes back late, any number of messages later, as a slow worker's would.
//! The reply is parsed by the app (as in a replay) or by the live stream's reader thread.
//!
//! - the number of hunks never goes down;
//! - accepting a hunk and undoing it at once leaves every file byte for byte as it was;
//! - a session that only rejects, moves and undoes writes nothing;
//! - every file on disk is, at every step, what its accepted hunks make of it: a file is
//!   never left half-written or written with a rejected hunk.

use std::collections::BTreeMap;
use std::time::Instant;

use proptest::prelude::*;

use super::check::check;
use super::core::{Action, Core, Log};
use super::disk::{Disk, Job, MemoryDisk, Work};
use super::stream::{Piece, reader};
use crate::app::key::{KeyCode, KeyEvent, KeyModifiers};
use crate::app::{App, AppConfig, AppEffect, Msg, StreamDone};
use crate::core::file::Source;
use crate::core::review::HunkState;
use crate::core::session::{FileRecord, Header, Journal, Record, VERSION};

const APP: &str = "import os\n\n\ndef load(path):\n    with open(path) as f:\n        return f.read()\n\n\ndef save(path, text):\n    with open(path, 'w') as f:\n        f.write(text)\n\n\ndef size(path):\n    return os.path.getsize(path)\n";
const UTIL: &str = "def clamp(x, lo, hi):\n    if x < lo:\n        return lo\n    if x > hi:\n        return hi\n    return x\n\n\ndef mean(xs):\n    return sum(xs) / len(xs)\n";

/// Five hunks over two files, one of which fits nowhere.
const REPLY: &str = "Here are the changes.\n\napp.py\n```python\n<<<<<<< SEARCH\n    with open(path) as f:\n        return f.read()\n=======\n    with open(path, encoding='utf-8') as f:\n        return f.read()\n>>>>>>> REPLACE\n```\n\napp.py\n```python\n<<<<<<< SEARCH\ndef size(path):\n    return os.path.getsize(path)\n=======\ndef size(path):\n    \"\"\"Bytes in the file.\"\"\"\n    return os.path.getsize(path)\n>>>>>>> REPLACE\n```\n\nutil.py\n```python\n<<<<<<< SEARCH\ndef mean(xs):\n    return sum(xs) / len(xs)\n=======\ndef mean(xs):\n    if not xs:\n        return 0.0\n    return sum(xs) / len(xs)\n>>>>>>> REPLACE\n```\n\nutil.py\n```python\n<<<<<<< SEARCH\n    if x > hi:\n        return hi\n=======\n    if x >= hi:\n        return hi\n>>>>>>> REPLACE\n```\n\nutil.py\n```python\n<<<<<<< SEARCH\ndef median(xs):\n    return sorted(xs)[len(xs) // 2]\n=======\ndef median(xs):\n    xs = sorted(xs)\n    return xs[len(xs) // 2]\n>>>>>>> REPLACE\n```\n\nThat is all.\n";

#[derive(Debug, Clone)]
enum Step {
    /// The next `n` bytes of the reply arrive.
    Chunk(usize),
    Key(char),
    /// `y` then at once `u`.
    AcceptUndo,
    /// The oldest placing job still out comes back.
    Placed,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (1usize..120).prop_map(Step::Chunk),
        4 => prop::sample::select(vec!['y', 'n', 'u', 'j', 'k', 'J', 'K', 'a', 'd', 'A', 's', 'g', 'G'])
            .prop_map(Step::Key),
        2 => Just(Step::AcceptUndo),
        3 => Just(Step::Placed),
    ]
}

/// The app, its disk and the core that feeds it, for one run.
struct Run {
    disk: MemoryDisk,
    writes: usize,
    /// Placing jobs held back until a [`Step::Placed`] (`None`: carried out at once).
    placing: Option<std::collections::VecDeque<Job>>,
    /// The live stream's reader thread, parsing the reply off the loop (`None`: the app parses
    /// the chunks, as in a replay).
    reader: Option<Reader>,
}

/// The stream side of a live session: the reader thread the runtime starts, and what it sends.
struct Reader {
    pieces: std::sync::mpsc::Sender<Piece>,
    out: tokio::sync::mpsc::UnboundedReceiver<Msg>,
}

impl Reader {
    /// A reader for the stream `started` asks for.
    fn of(started: &[AppEffect]) -> Reader {
        let [AppEffect::StartStream { parse, .. }] = started else {
            panic!("the review starts its stream: {started:?}")
        };
        let (tx, out) = tokio::sync::mpsc::unbounded_channel();
        Reader { pieces: reader(parse.clone(), tx), out }
    }

    /// What the loop gets for `piece`.
    fn pass(&mut self, piece: Piece) -> Msg {
        self.pieces.send(piece).expect("the reader runs");
        self.out.blocking_recv().expect("the reader answers each piece")
    }
}

impl Run {
    /// Feed `msg`, then carry out what it asks for (disk work at once, its outcome fed back).
    fn feed(&mut self, core: &mut Core<'_>, msg: Msg) {
        let mut effects = core.update(msg, core.t + 1);
        while !effects.is_empty() {
            let mut next = Vec::new();
            for action in core.interpret(effects) {
                if let Action::Disk(job) = action {
                    if matches!(job.work, Work::Write { .. }) {
                        self.writes += 1;
                    }
                    if let (Work::Place(_), Some(held)) = (&job.work, self.placing.as_mut()) {
                        held.push_back(job);
                        continue;
                    }
                    let done = Job::run(job, &self.disk);
                    next.extend(core.update(done.msg, core.t + 1));
                }
            }
            effects = next;
        }
    }

    /// The next `n` bytes of the reply from `sent` on, and its end once all is sent.
    fn chunk(&mut self, core: &mut Core<'_>, sent: &mut usize, n: usize) {
        let end = (*sent + n).min(REPLY.len());
        if end > *sent {
            let text = REPLY[*sent..end].to_string();
            let msg = match self.reader.as_mut() {
                Some(r) => r.pass(Piece::Text(text)),
                None => Msg::Chunk(text),
            };
            self.feed(core, msg);
            *sent = end;
        }
        if *sent == REPLY.len() && core.app.streaming {
            let msg = match self.reader.as_mut() {
                Some(r) => r.pass(Piece::Done(StreamDone::default())),
                None => Msg::StreamEnd(StreamDone::default()),
            };
            self.feed(core, msg);
        }
    }

    /// The oldest held placing job comes back.
    fn placed(&mut self, core: &mut Core<'_>) {
        if let Some(job) = self.placing.as_mut().and_then(|h| h.pop_front()) {
            let done = Job::run(job, &self.disk);
            self.feed(core, done.msg);
        }
    }
}

fn key(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

fn start() -> (App, MemoryDisk) {
    let files = vec!["app.py".to_string(), "util.py".to_string()];
    let sources = BTreeMap::from([
        ("app.py".to_string(), Source::Text(APP.into())),
        ("util.py".to_string(), Source::Text(UTIL.into())),
    ]);
    let disk = MemoryDisk::new(sources.clone());
    let app = App::new(AppConfig { label: "test".into(), ..AppConfig::new(files, sources, "go") });
    (app, disk)
}

/// What each file holds when exactly the hunks the review says were written are applied to the
/// original: the review's own record, checked against the disk.
fn consistent(app: &App, disk: &MemoryDisk) -> Result<(), String> {
    // The counts the review keeps as hunks change are those a pass over every hunk gives.
    let mut all = crate::core::review::Counts::default();
    for h in app.review.hunks() {
        match h.state {
            HunkState::Pending => {
                all.pending += 1;
                all.placing += usize::from(h.placing);
            }
            HunkState::Accepted => all.accepted += 1,
            HunkState::Applied => all.applied += 1,
            HunkState::Rejected => all.rejected += 1,
            HunkState::Failed => all.failed += 1,
            HunkState::Conflict(_) => all.conflict += 1,
        }
    }
    if all != app.review.counts() {
        return Err(format!("kept counts {:?}, counted {all:?}", app.review.counts()));
    }
    for (path, on_disk) in disk.files() {
        let held = app.review.source(&path).cloned();
        if held.as_ref() != Some(&on_disk) {
            return Err(format!("{path}: the review holds {held:?}, the disk {on_disk:?}"));
        }
    }
    Ok(())
}

fn run(steps: &[Step], live: bool) -> Result<(), TestCaseError> {
    let (mut app, disk) = start();
    let now = Instant::now();
    let mut core = Core::new(&mut app, now, 0, Log::Off);
    let mut run = Run { disk, writes: 0, placing: Some(Default::default()), reader: None };
    let started = core.start();
    let streams = matches!(started.as_slice(), [AppEffect::StartStream { .. }]);
    prop_assert!(streams, "the review starts its stream");
    run.reader = live.then(|| Reader::of(&started));
    run.feed(&mut core, Msg::Resize(100, 30));
    let mut sent = 0;
    let mut most = 0;
    let only_no = steps.iter().all(|s| match s {
        Step::Key(c) => !matches!(c, 'y' | 'a' | 'A'),
        Step::AcceptUndo => false,
        Step::Chunk(_) | Step::Placed => true,
    });
    let original = run.disk.files();
    let all = steps.iter().cloned().chain(std::iter::once(Step::Chunk(REPLY.len())));
    for s in all {
        match s {
            Step::Chunk(n) => run.chunk(&mut core, &mut sent, n),
            Step::Key(c) => run.feed(&mut core, key(c)),
            Step::Placed => run.placed(&mut core),
            Step::AcceptUndo => {
                let before = run.disk.files();
                let writes = run.writes;
                run.feed(&mut core, key('y'));
                if run.writes > writes && run.disk.files() != before {
                    run.feed(&mut core, key('u'));
                    prop_assert_eq!(
                        run.disk.files(),
                        before,
                        "accept then undo restores every byte"
                    );
                }
            }
        }
        let n = core.app.review.hunks().len();
        prop_assert!(n >= most, "the hunk count went down: {} after {}", n, most);
        most = n;
        if let Err(e) = consistent(core.app, &run.disk) {
            return Err(TestCaseError::fail(e));
        }
    }
    prop_assert_eq!(most, 5, "every hunk of the reply arrives");
    while run.placing.as_ref().is_some_and(|h| !h.is_empty()) {
        run.placed(&mut core);
    }
    prop_assert_eq!(core.app.review.counts().placing, 0, "every hunk is placed in the end");
    if let Err(e) = consistent(core.app, &run.disk) {
        return Err(TestCaseError::fail(e));
    }
    if only_no {
        prop_assert_eq!(&run.disk.files(), &original, "rejecting and moving writes nothing");
    }
    let written = core.app.review.hunks().iter().filter(|h| h.state == HunkState::Applied).count();
    if written == 0 {
        prop_assert_eq!(run.disk.files(), original, "nothing accepted stands, nothing changed");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn any_sequence_of_messages_keeps_the_review_and_the_disk_in_step(
        steps in prop::collection::vec(step(), 0..40),
        live in any::<bool>(),
    ) {
        run(&steps, live)?;
    }
}

/// The properties can fail: accepting everything does write (an engine or loop that wrote
/// nothing would pass the rest).
#[test]
fn accepting_everything_writes_four_hunks_and_undoing_all_restores_the_files() {
    let (mut app, disk) = start();
    let mut core = Core::new(&mut app, Instant::now(), 0, Log::Off);
    let mut run = Run { disk, writes: 0, placing: None, reader: None };
    core.start();
    run.feed(&mut core, Msg::Chunk(REPLY.into()));
    run.feed(&mut core, Msg::StreamEnd(StreamDone::default()));
    let original = run.disk.files();
    run.feed(&mut core, key('A'));
    let counts = core.app.review.counts();
    assert_eq!((counts.applied, counts.failed), (4, 1), "four fit, one fits nowhere");
    assert_ne!(run.disk.files(), original);
    assert!(matches!(run.disk.read("util.py"), Source::Text(t) if t.contains("if x >= hi:")));
    run.feed(&mut core, key('u'));
    assert_eq!(run.disk.files(), original, "u takes the whole batch back");
}

/// A session recorded as a live one is (`live`: its reply parsed on the stream's side, as the
/// runtime does; a replay parses the recorded chunks itself), its placings coming back late among keys and chunks,
/// replayed headless: the check finds everything the same (hunks, their placing and states,
/// writes, files). The replay carries out each held placing job where its outcome was recorded.
fn recorded_and_checked(steps: &[Step], live: bool) -> Result<(), TestCaseError> {
    let (mut app, disk) = start();
    let files = disk.files();
    app.update(Msg::Resize(100, 30), Instant::now());
    let mut core = Core::new(&mut app, Instant::now(), 0, Log::Memory(Vec::new()));
    let mut run = Run { disk, writes: 0, placing: Some(Default::default()), reader: None };
    let started = core.start();
    run.reader = live.then(|| Reader::of(&started));
    let mut sent = 0;
    let all = steps.iter().cloned().chain([Step::Chunk(REPLY.len())]);
    for s in all {
        match s {
            Step::Chunk(n) => run.chunk(&mut core, &mut sent, n),
            Step::Key(c) => run.feed(&mut core, key(c)),
            Step::Placed => run.placed(&mut core),
            Step::AcceptUndo => {
                run.feed(&mut core, key('y'));
                run.feed(&mut core, key('u'));
            }
        }
    }
    while run.placing.as_ref().is_some_and(|h| !h.is_empty()) {
        run.placed(&mut core);
    }
    core.end();
    let Log::Memory(recorded) = std::mem::replace(&mut core.log, Log::Off) else {
        unreachable!("recorded in memory")
    };
    let placings = recorded.iter().filter(|r| matches!(r, Record::Placed { .. })).count();
    prop_assert!(placings >= 5, "every placing is recorded: {}", placings);
    let mut records = vec![Record::Session(header())];
    records.extend(files.iter().map(|(p, s)| Record::File(FileRecord::new(None, p, s))));
    records.extend(recorded);
    let report = check(&Journal { records, dropped: None }).map_err(TestCaseError::fail)?;
    prop_assert!(report.reproduced, "{:#?}", report.differences);
    prop_assert_eq!(report.hunks.now, 5);
    Ok(())
}

fn header() -> Header {
    Header {
        version: VERSION,
        id: "late-placings".into(),
        started_ms: 0,
        root: "p".into(),
        prompt: Some("go".into()),
        provider: "openai".into(),
        model: "m".into(),
        base_url: None,
        format: "search-replace".into(),
        label: "test".into(),
        redline: "0".into(),
        width: 100,
        height: 30,
        project_files: vec!["app.py".into(), "util.py".into()],
        asks_prompt: false,
        keymap: None,
        replay_of: None,
        scratch: false,
        watch: None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn a_session_with_late_placings_replays_identically(
        steps in prop::collection::vec(step(), 0..30),
        live in any::<bool>(),
    ) {
        recorded_and_checked(&steps, live)?;
    }
}
