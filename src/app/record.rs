//! Recording a session: each [`Msg`] that enters [`App::update`] becomes a journal record (and
//! back, for replaying), and after each update the hunks the review says changed
//! ([`Review::take_changed`](crate::core::review::Review::take_changed)) are compared with what
//! was last recorded, so every new edit and every change of state or placement is a record too.
//! Only those hunks are looked at: a message costs the journal what it changed, never a pass over
//! every hunk (a 10,000-hunk reply streams without the journal turning quadratic). Requests come
//! from the app's `StartStream` effects.
//!
//! [`Recorder`] is pure: it turns what happens into [`Record`]s and leaves writing them to the
//! caller (`shell::journal` for a live session, `app::replay` when checking a recording). A new
//! `Msg` variant needs one arm in [`input_record`] and one in [`record_msg`]; the compiler
//! points at both.
//!
//! Not for: the journal's file (`shell::journal`), the record types (`core::session`).

use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

use crate::app::{App, AppEffect, Msg, StreamDone};
use crate::core::execute::After;
use crate::core::file::Source;
use crate::core::review::{Effect, HunkId, ReviewHunk};
use crate::core::session::{
    DecisionRecord, EndRecord, FileRecord, HunkRecord, MessageRecord, Record, RequestRecord,
    WriteRecord, hash, hunk_hex, parse_hunk_hex, sanitize_urls,
};
use crate::provider::{ChatMessage, Role};

/// How the journal words a cancelled stream's end.
const CANCELLED: &str = "cancelled";

/// The record of a message, or `None` for one that is not recorded (`Tick`).
pub fn input_record(msg: &Msg, t: u64) -> Option<Record> {
    Some(match msg {
        Msg::Key(key) => Record::Key { t, key: key.to_string() },
        Msg::Paste(text) => Record::Paste { t, text: text.clone() },
        Msg::Scroll { down, at } => Record::Scroll { t, down: *down, at: at.map(|(c, r)| [c, r]) },
        Msg::Click { column, row } => Record::Click { t, at: [*column, *row] },
        Msg::Resize(width, height) => Record::Resize { t, width: *width, height: *height },
        Msg::Chunk(text) | Msg::Parsed { text, .. } => Record::Chunk { t, text: text.clone() },
        // A server's message may quote its URL: never with credentials in a journal.
        Msg::StreamEnd(done) => Record::StreamEnd {
            t,
            output_tokens: done.output_tokens,
            note: done.note.as_deref().map(sanitize_urls),
        },
        Msg::StreamError(reason) => Record::StreamError { t, reason: sanitize_urls(reason) },
        // The journal's format keeps a cancel as the reason "cancelled".
        Msg::StreamCancelled => Record::StreamError { t, reason: CANCELLED.into() },
        Msg::Tick | Msg::Notice(_) | Msg::ReplayBadge { .. } | Msg::ShowRecorded(_) => return None,
        Msg::WriteDone { hunk, path, after, undo } => Record::Write(WriteRecord {
            t,
            hunk: hunk_hex(*hunk),
            path: path.clone(),
            ok: true,
            undo: *undo,
            deleted: *after == After::Deleted,
            reason: None,
            hash: match after {
                After::Text(text) => Some(hash(text)),
                After::Deleted => None,
            },
            found: None,
        }),
        Msg::WriteFailed { hunk, path, reason, undo } => Record::Write(WriteRecord {
            t,
            hunk: hunk_hex(*hunk),
            path: path.clone(),
            ok: false,
            undo: *undo,
            deleted: false,
            reason: Some(reason.clone()),
            hash: None,
            found: None,
        }),
        Msg::WriteStale { hunk, path, source, undo } => Record::Write(WriteRecord {
            t,
            hunk: hunk_hex(*hunk),
            path: path.clone(),
            ok: false,
            undo: *undo,
            deleted: false,
            reason: Some("changed on disk just before the write".into()),
            hash: None,
            found: Some(FileRecord::new(None, path, source)),
        }),
        Msg::GitBusy(busy) => Record::GitBusy { t, busy: *busy },
        Msg::WatchReady { files, triggers } => {
            Record::WatchReady { t, files: *files, triggers: triggers.clone() }
        }
        Msg::WatchError(reason) => Record::WatchError { t, reason: reason.clone() },
        Msg::FileRead { path, source } => Record::File(FileRecord::new(Some(t), path, source)),
        Msg::FileChanged { path, source } => {
            Record::FileChanged(FileRecord::new(Some(t), path, source))
        }
        // Every outcome, taken or stale: a replay carries out the held jobs in the order their
        // outcomes came (a stale one gives the hunk its next job, as it did live).
        Msg::Placed(result) => Record::Placed { t, hunk: hunk_hex(result.hunk) },
        Msg::EditorDone { hunk, result } => Record::Editor {
            t,
            hunk: hunk_hex(*hunk),
            text: result.as_ref().ok().cloned(),
            error: result.as_ref().err().cloned(),
        },
    })
}

/// The message a recorded input (or effect result) stands for; `None` for set-up records and
/// observations, and for a write's outcome, which only carrying out the write can tell.
pub fn record_msg(record: &Record) -> Option<Msg> {
    Some(match record {
        Record::Key { key, .. } => Msg::Key(key.parse().ok()?),
        Record::Paste { text, .. } => Msg::Paste(text.clone()),
        Record::Scroll { down, at, .. } => Msg::Scroll { down: *down, at: at.map(|[c, r]| (c, r)) },
        Record::Click { at: [column, row], .. } => Msg::Click { column: *column, row: *row },
        Record::Resize { width, height, .. } => Msg::Resize(*width, *height),
        Record::Chunk { text, .. } => Msg::Chunk(text.clone()),
        Record::StreamEnd { output_tokens, note, .. } => Msg::StreamEnd(StreamDone {
            output_tokens: *output_tokens,
            note: note.clone(),
            last: Vec::new(),
        }),
        Record::StreamError { reason, .. } if reason == CANCELLED => Msg::StreamCancelled,
        Record::StreamError { reason, .. } => Msg::StreamError(reason.clone()),
        Record::File(f) if f.t.is_some() => {
            Msg::FileRead { path: f.path.clone(), source: f.source() }
        }
        Record::FileChanged(f) => Msg::FileChanged { path: f.path.clone(), source: f.source() },
        Record::GitBusy { busy, .. } => Msg::GitBusy(*busy),
        Record::WatchReady { files, triggers, .. } => {
            Msg::WatchReady { files: *files, triggers: triggers.clone() }
        }
        Record::WatchError { reason, .. } => Msg::WatchError(reason.clone()),
        Record::Editor { hunk, text, error, .. } => Msg::EditorDone {
            hunk: parse_hunk_hex(hunk)?,
            result: match (text, error) {
                (Some(text), _) => Ok(text.clone()),
                (None, error) => Err(error.clone().unwrap_or_default()),
            },
        },
        Record::Session(_)
        | Record::File(_)
        | Record::Request(_)
        | Record::Hunk(_)
        | Record::Decision(_)
        | Record::Write(_)
        | Record::Placed { .. }
        | Record::End(_)
        | Record::Blob { .. } => return None,
    })
}

/// Turns what happens to an [`App`] into journal records: the inputs, the requests, and every
/// change the review's hunks go through.
///
/// A file seen changed to what the journal already says it holds, or to what the write on its
/// way to it writes, is neither recorded nor handed to the app: it tells nothing new (the
/// write's outcome will), and a watcher that reports the same content again and again must not
/// grow the journal.
#[derive(Debug, Default)]
pub struct Recorder {
    /// The last recorded form of each hunk.
    seen: BTreeMap<HunkId, HunkRecord>,
    /// Whether every hunk of the app was looked at once; after that, only changed ones are.
    primed: bool,
    /// Look at every hunk after every message, as the journal once did: the reference the
    /// incremental journal is checked against (`record_tests`).
    #[cfg(test)]
    rebuild: bool,
    /// Hunks looked at so far: the journal's work, which tests check does not grow with the
    /// number of hunks.
    examined: u64,
    rounds: usize,
    /// What the journal last says each file holds on disk: its content's [`hash`], `None` for
    /// no file.
    disk: HashMap<String, Option<String>>,
    /// What the write on its way to each file writes (its [`hash`]; `None`: a delete): the
    /// watcher may see it land before the write's outcome comes back.
    writing: HashMap<String, Option<String>>,
}

impl Recorder {
    pub fn new() -> Recorder {
        Recorder::default()
    }

    /// A recorder that compares every hunk after every message (the full rebuild the
    /// incremental journal must always agree with).
    #[cfg(test)]
    pub fn rebuilding() -> Recorder {
        Recorder { rebuild: true, ..Recorder::default() }
    }

    /// How many hunks the recorder has looked at so far (its work; see `examined`).
    pub fn hunks_examined(&self) -> u64 {
        self.examined
    }

    /// [`App::start`], recorded.
    pub fn start(&mut self, app: &mut App, now: Instant, t: u64) -> (Vec<AppEffect>, Vec<Record>) {
        let effects = app.start(now);
        let mut records = self.requests(&effects, t);
        records.extend(self.observe(app, t, None));
        (effects, records)
    }

    /// [`App::update`], recorded: the message, then what changed.
    pub fn update(
        &mut self,
        app: &mut App,
        msg: Msg,
        now: Instant,
        t: u64,
    ) -> (Vec<AppEffect>, Vec<Record>) {
        if let Msg::FileChanged { path, source } = &msg
            && self.disk_holds(path, source)
        {
            return (Vec::new(), Vec::new());
        }
        let mut records: Vec<Record> = input_record(&msg, t).into_iter().collect();
        let edited = matches!(msg, Msg::EditorDone { .. });
        let effects = app.update(msg, now);
        let action = if edited { Some("edit") } else { app.last_action.map(|a| a.name()) };
        self.note_writes(&effects);
        records.extend(self.requests(&effects, t));
        records.extend(self.observe(app, t, action));
        for r in &records {
            self.note_disk(r);
        }
        (effects, records)
    }

    /// [`Recorder::update`], with every placing job run at once and its outcome fed back and
    /// recorded in turn ([`App::update_placed`] recorded).
    pub fn update_placed(
        &mut self,
        app: &mut App,
        msg: Msg,
        now: Instant,
        t: u64,
    ) -> (Vec<AppEffect>, Vec<Record>) {
        let mut work: std::collections::VecDeque<Msg> = [msg].into();
        let (mut rest, mut records) = (Vec::new(), Vec::new());
        while let Some(msg) = work.pop_front() {
            let (effects, r) = self.update(app, msg, now, t);
            records.extend(r);
            for effect in effects {
                match effect {
                    AppEffect::Place(job) => work.push_back(Msg::Placed(job.run())),
                    other => rest.push(other),
                }
            }
        }
        (rest, records)
    }

    /// Whether the journal already says `path` holds `source`, or the write on its way to it
    /// writes just that (the watcher saw it land before its outcome came back: the outcome
    /// tells the app, and a replay, where the write's outcome is all there is, agrees).
    fn disk_holds(&self, path: &str, source: &Source) -> bool {
        let holds = |recorded: &Option<String>| match source {
            Source::Text(text) => recorded.as_deref() == Some(hash(text).as_str()),
            Source::Missing => recorded.is_none(),
            Source::Unusable(_) => false,
        };
        self.disk.get(path).is_some_and(holds) || self.writing.get(path).is_some_and(holds)
    }

    /// Take in the writes the app starts.
    fn note_writes(&mut self, effects: &[AppEffect]) {
        for effect in effects {
            if let AppEffect::Write { effect, .. } = effect {
                match effect {
                    Effect::Write { path, text, .. } => {
                        self.writing.insert(path.clone(), Some(hash(text)));
                    }
                    Effect::Delete { path, .. } => {
                        self.writing.insert(path.clone(), None);
                    }
                    Effect::Read { .. } => {}
                }
            }
        }
    }

    /// Take in what a record says a file holds on disk.
    fn note_disk(&mut self, record: &Record) {
        if let Record::Write(w) = record {
            self.writing.remove(&w.path);
        }
        let file = match record {
            Record::File(f) | Record::FileChanged(f) => f,
            Record::Write(w) if w.ok => {
                let after = if w.deleted { None } else { w.hash.clone() };
                self.disk.insert(w.path.clone(), after);
                return;
            }
            Record::Write(w) => match &w.found {
                Some(f) => f,
                None => return,
            },
            _ => return,
        };
        if file.unusable.is_some() {
            self.disk.remove(&file.path);
        } else {
            self.disk.insert(file.path.clone(), file.hash.clone());
        }
    }

    /// The session's last record: counts by state.
    pub fn end(&self, app: &App, t: u64) -> Record {
        let c = app.review.counts();
        Record::End(EndRecord {
            t,
            pending: c.pending,
            applied: c.applied + c.accepted,
            rejected: c.rejected,
            failed: c.failed,
            conflict: c.conflict,
        })
    }

    fn requests(&mut self, effects: &[AppEffect], t: u64) -> Vec<Record> {
        let mut out = Vec::new();
        for effect in effects {
            if let AppEffect::StartStream { messages, why, .. } = effect {
                out.push(Record::Request(RequestRecord {
                    t,
                    round: self.rounds,
                    why: *why,
                    messages: messages.iter().map(message_record).collect(),
                }));
                self.rounds += 1;
            }
        }
        out
    }

    /// A record for each hunk that is new or changed since the last call, and for each that is
    /// gone; with `action` (a key's or the editor's), a decision record for each changed one.
    /// Present hunks come in the review's order, gone ones by id, as a comparison of every hunk
    /// would give them.
    fn observe(&mut self, app: &mut App, t: u64, action: Option<&str>) -> Vec<Record> {
        let mut ids = app.review.take_changed();
        #[cfg(test)]
        if self.rebuild {
            self.primed = false;
        }
        if !self.primed {
            // A recorder may start on an app that already has hunks: look at all of them once.
            self.primed = true;
            let hunks = app.review.hunks().iter().map(|h| h.id);
            ids = hunks.chain(self.seen.keys().copied()).collect();
        }
        self.examined += ids.len() as u64;
        let mut present: Vec<usize> = Vec::with_capacity(ids.len());
        let mut gone: Vec<HunkId> = Vec::new();
        for id in ids {
            match app.review.index_of(id) {
                Some(i) => present.push(i),
                None => gone.push(id),
            }
        }
        present.sort_unstable();
        present.dedup();
        gone.sort_unstable();
        gone.dedup();
        let mut out = Vec::new();
        for i in present {
            let h = &app.review.hunks()[i];
            // A hunk is recorded once placed: its placing changes it again, and it is looked at
            // then.
            if h.placing {
                continue;
            }
            let now = hunk_record(h, t);
            let before = self.seen.get(&h.id);
            if before.is_some_and(|b| b.same_as(&now)) {
                continue;
            }
            let changed_state = before.is_some_and(|b| b.state != now.state);
            out.push(Record::Hunk(now.clone()));
            if let (true, Some(action)) = (changed_state, action) {
                out.push(decision(&now, action, t));
            }
            self.seen.insert(h.id, now);
        }
        for id in gone {
            if let Some(h) = self.seen.get_mut(&id)
                && h.state != "gone"
            {
                h.t = t;
                h.state = "gone".into();
                out.push(Record::Hunk(h.clone()));
                if let Some(action) = action {
                    out.push(decision(h, action, t));
                }
            }
        }
        out
    }
}

fn decision(h: &HunkRecord, action: &str, t: u64) -> Record {
    Record::Decision(DecisionRecord {
        t,
        hunk: h.id.clone(),
        path: h.path.clone(),
        action: action.to_string(),
        state: h.state.clone(),
    })
}

/// A hunk as the journal records it.
pub fn hunk_record(h: &ReviewHunk, t: u64) -> HunkRecord {
    HunkRecord {
        t,
        id: hunk_hex(h.id),
        path: h.path.clone(),
        format: h.edit.format.name().to_string(),
        reply_lines: h.edit.reply_lines,
        state: h.state.name().to_string(),
        strategy: h.report.strategy,
        lines: h.report.lines,
        similarity: h.report.similarity,
        reason: h.report.reason.clone(),
    }
}

pub fn message_record(m: &ChatMessage) -> MessageRecord {
    let role = match m.role {
        Role::System => "system",
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    MessageRecord::new(role, &m.content)
}

/// The message a [`MessageRecord`] holds (an unknown role reads as the user's).
pub fn chat_message(m: &MessageRecord) -> ChatMessage {
    let role = match m.role.as_str() {
        "system" => Role::System,
        "assistant" => Role::Assistant,
        _ => Role::User,
    };
    ChatMessage::new(role, m.content.clone())
}

/// A file's content as a record of the files sent.
pub fn sent_file(path: &str, source: &Source) -> Record {
    Record::File(FileRecord::new(None, path, source))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::key::{KeyCode, KeyEvent, KeyModifiers};

    #[test]
    fn keys_of_older_journals_read_back() {
        let ctrl_c = Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
        for spelling in ["ctrl+c", "ctrl-c"] {
            let record = Record::Key { t: 0, key: spelling.into() };
            assert_eq!(record_msg(&record), Some(ctrl_c.clone()), "{spelling}");
        }
        assert_eq!(input_record(&ctrl_c, 0), Some(Record::Key { t: 0, key: "ctrl-c".into() }));
    }

    #[test]
    fn every_recorded_message_reads_back() {
        let msgs = [
            Msg::Key(KeyEvent::new(KeyCode::Char('n'), KeyModifiers::NONE)),
            Msg::Scroll { down: false, at: None },
            Msg::Scroll { down: true, at: Some((4, 7)) },
            Msg::Click { column: 3, row: 9 },
            Msg::Resize(120, 40),
            Msg::Chunk("text\n".into()),
            Msg::StreamEnd(StreamDone {
                output_tokens: Some(3),
                note: Some("cut".into()),
                ..StreamDone::default()
            }),
            Msg::StreamCancelled,
            Msg::FileRead { path: "a.py".into(), source: Source::Text("x\n".into()) },
            Msg::FileChanged { path: "a.py".into(), source: Source::Missing },
            Msg::EditorDone { hunk: 7, result: Ok("new\n".into()) },
            Msg::EditorDone { hunk: 7, result: Err("vi failed".into()) },
        ];
        for msg in msgs {
            let record = input_record(&msg, 5).expect("recorded");
            assert_eq!(record_msg(&record), Some(msg));
        }
        assert_eq!(input_record(&Msg::Tick, 5), None);
    }
}
