//! Shared by the session tests: a scripted session ([`Synth`]: files, replies streamed at a
//! human pace from a seeded generator, keys) recorded the way a live session is (the real
//! `App`, the real `Recorder`, writes carried out at once).
#![allow(dead_code)]

use redline::app::App;
use redline::app::replay::Script;
use redline::core::file::Source;
use redline::core::session::{
    FileRecord, Header, Journal, MessageRecord, Record, RequestRecord, VERSION, WatchHeader, Why,
    WriteRecord,
};
use redline::shell::runtime::Driver;

pub const INVENTORY: &str = include_str!("../../demo/project/inventory.py");
pub const REPORT: &str = include_str!("../../demo/project/report.py");
pub const DEMO_REPLY: &str = include_str!("../../demo/reply.md");
pub const DEMO_RETRY: &str = include_str!("../../demo/retry.md");
pub const DEMO_PROMPT: &str = "Simplify total_value, make restock refuse negative amounts, \
format prices with two decimals in the report, and add a save(items, path) helper.";

/// A session to record: what was sent, then what happened, at what time.
pub struct Synth {
    records: Vec<Record>,
    /// Carry out writes where their recorded outcomes stand (see [`Synth::outcome`]), not at
    /// once.
    hold: bool,
    t: u64,
    round: usize,
    rng: fastrand::Rng,
}

impl Synth {
    pub fn new(
        id: &str,
        label: (&str, &str),
        prompt: &str,
        format: &str,
        files: &[(&str, &str)],
        seed: u64,
    ) -> Synth {
        let (provider, model) = label;
        let header = Header {
            version: VERSION,
            id: id.into(),
            started_ms: 1_767_225_600_000,
            root: "project".into(),
            prompt: Some(prompt.into()),
            provider: provider.into(),
            model: model.into(),
            base_url: None,
            format: format.into(),
            label: format!("{provider} · {model}"),
            redline: env!("CARGO_PKG_VERSION").into(),
            width: 110,
            height: 32,
            project_files: files.iter().map(|(p, _)| p.to_string()).collect(),
            asks_prompt: false,
            keymap: None,
            replay_of: None,
            scratch: false,
            watch: None,
        };
        let mut records = vec![Record::Session(header)];
        for (path, text) in files {
            records.push(Record::File(FileRecord::new(
                None,
                path,
                &Source::Text(text.to_string()),
            )));
        }
        records.push(Record::Request(RequestRecord {
            t: 0,
            round: 0,
            why: Why::Initial,
            messages: vec![MessageRecord::new("user", prompt)],
        }));
        Synth { records, hold: false, t: 0, round: 0, rng: fastrand::Rng::with_seed(seed) }
    }

    /// The request is typed in the screen's input line (no `-m`): no request is sent at the
    /// start.
    pub fn asks_prompt(&mut self) {
        if let Some(Record::Session(h)) = self.records.first_mut() {
            h.asks_prompt = true;
            h.prompt = None;
        }
        self.records.retain(|r| !matches!(r, Record::Request(_)));
        self.round = usize::MAX;
    }

    /// A watch-mode session (`redline watch`): nothing is sent until a saved comment asks.
    pub fn watch(&mut self) {
        if let Some(Record::Session(h)) = self.records.first_mut() {
            h.watch = Some(WatchHeader { apply_all: false });
            h.prompt = None;
        }
        self.records.retain(|r| !matches!(r, Record::Request(_) | Record::File(_)));
        self.round = usize::MAX;
    }

    /// A reply as a model streams it: a first-token wait, then token-sized pieces every
    /// 10-60 ms, now and then a pause.
    pub fn stream(&mut self, reply: &str) {
        self.t += self.rng.u64(350..900);
        let mut rest = reply;
        while !rest.is_empty() {
            let mut n = self.rng.usize(3..=40).min(rest.len());
            while !rest.is_char_boundary(n) {
                n += 1;
            }
            let (chunk, more) = rest.split_at(n);
            rest = more;
            self.records.push(Record::Chunk { t: self.t, text: chunk.to_string() });
            self.t +=
                if self.rng.u8(..) < 8 { self.rng.u64(150..500) } else { self.rng.u64(10..60) };
        }
        let tokens = (reply.len() / 4) as u64;
        self.records.push(Record::StreamEnd { t: self.t, output_tokens: Some(tokens), note: None });
    }

    /// A key, `after` ms after the last thing.
    pub fn key(&mut self, key: &str, after: u64) {
        self.t += after;
        self.records.push(Record::Key { t: self.t, key: key.into() });
    }

    /// A file changed on disk, `after` ms after the last thing.
    pub fn file_changed(&mut self, path: &str, text: &str, after: u64) {
        self.t += after;
        let source = Source::Text(text.into());
        self.records.push(Record::FileChanged(FileRecord::new(Some(self.t), path, &source)));
    }

    /// A write's recorded outcome, `after` ms after the last thing (its `t` is set here). With
    /// outcomes, every write is carried out where its outcome stands.
    pub fn outcome(&mut self, mut write: WriteRecord, after: u64) {
        self.t += after;
        write.t = self.t;
        self.hold = true;
        self.records.push(Record::Write(write));
    }

    /// The last key asked for another request; its reply is streamed next.
    pub fn request(&mut self, why: Why) {
        self.round = self.round.wrapping_add(1);
        self.records.push(Record::Request(RequestRecord {
            t: self.t,
            round: self.round,
            why,
            messages: Vec::new(),
        }));
    }

    /// Record the session through the real app: the journal's text.
    pub fn record(self) -> String {
        self.record_with(|_, _| {})
    }

    /// [`Synth::record`], calling `after` with the app after each message.
    pub fn record_with(self, mut after: impl FnMut(u64, &App)) -> String {
        let journal = Journal { records: self.records, dropped: None };
        let script = Script::from_journal(&journal).expect("a script");
        let mut driver = Driver::new(&script, true);
        driver.hold = self.hold;
        driver.run_with(|fed, app| after(fed.t, app));
        driver.end();
        let mut out: Vec<Record> = journal
            .records
            .iter()
            .take_while(|r| matches!(r, Record::Session(_) | Record::File(_)))
            .cloned()
            .collect();
        out.extend(driver.produced);
        out.iter().map(Record::to_line).collect()
    }
}

/// The demo: the bundled reply, then (a few seconds after it ends) `r`, and the retry's reply.
pub fn demo_session() -> String {
    let files = [("inventory.py", INVENTORY), ("report.py", REPORT)];
    let mut s =
        Synth::new("demo", ("demo", "bundled reply"), DEMO_PROMPT, "search-replace", &files, 4);
    s.stream(DEMO_REPLY);
    s.key("r", 4200);
    s.request(Why::Retry);
    s.stream(DEMO_RETRY);
    s.record()
}
