//! Each text once per journal: file contents and message contents are written as `blob` records
//! (hash and text) the first time they occur, and the records that hold them refer to the hash.
//! A file sent, read again, found changed and sent inside every request of a conversation used
//! to be journaled in full each time; now it is journaled once.
//!
//! A text longer than the journal's limit ([`DEFAULT_MAX_TEXT_BYTES`] unless configured) is not
//! journaled at all: its record keeps the hash and says how long it was (`omitted`), and a
//! replay says what it lacks ([`Journal::lacking`]) and reads such a file as unusable.
//!
//! [`Blobs::externalize`] is the writing half (used by `shell::journal`); [`resolve`] the reading
//! half (used by [`super::read`]): after it, records hold their texts inline as they did before
//! blobs existed, so nothing else needs to know. Journals written before blobs have no `blob`
//! records and inline texts, and read as they always did.
//!
//! Not for: the file (`shell::journal`).

use crate::core::hash::{HashMap, HashSet};

use super::{FileRecord, Journal, MessageRecord, Record, hash};

/// The default limit per journaled text: 1 MiB.
pub const DEFAULT_MAX_TEXT_BYTES: u64 = 1 << 20;

/// What a journal has written so far, and its limit per text.
#[derive(Debug, Clone)]
pub struct Blobs {
    written: HashSet<String>,
    max_bytes: u64,
    /// Each file's last text that was over the limit and left out, by path, until the session
    /// writes that file: then it is journaled after all. A replay (and `resume`) rebuilds what
    /// a write left from the text before it; without it the session's decisions on the file
    /// are lost (nothing to undo, hunks applied on disk shown as pending).
    left_out: HashMap<String, String>,
}

impl Blobs {
    pub fn new(max_bytes: u64) -> Blobs {
        Blobs { written: HashSet::default(), max_bytes, left_out: HashMap::default() }
    }

    /// The records to write for `record`: a `blob` for each of its texts not written yet, then
    /// the record itself, referring to them.
    pub fn externalize(&mut self, record: &Record) -> Vec<Record> {
        let mut out = Vec::new();
        let mut record = record.clone();
        match &mut record {
            Record::File(f) | Record::FileChanged(f) => self.file(f, &mut out),
            Record::Write(w) => {
                if let Some(found) = &mut w.found {
                    self.file(found, &mut out);
                }
                // The file's text before its first write, left out for its size: the write
                // makes it part of the session's work.
                if w.ok
                    && let Some(text) = self.left_out.remove(&w.path)
                {
                    let h = hash(&text);
                    if self.written.insert(h.clone()) {
                        out.push(Record::Blob { hash: h, text });
                    }
                }
            }
            Record::Request(r) => {
                for m in &mut r.messages {
                    self.message(m, &mut out);
                }
            }
            _ => {}
        }
        out.push(record);
        out
    }

    /// Take `text` out of its record: its hash, and whether it was kept (else its length).
    fn take(&mut self, text: String, out: &mut Vec<Record>) -> (String, Option<u64>) {
        let h = hash(&text);
        let len = text.len() as u64;
        if len > self.max_bytes {
            return (h, Some(len));
        }
        if self.written.insert(h.clone()) {
            out.push(Record::Blob { hash: h.clone(), text });
        }
        (h, None)
    }

    fn file(&mut self, f: &mut FileRecord, out: &mut Vec<Record>) {
        let Some(text) = f.content.take() else {
            self.left_out.remove(&f.path);
            return;
        };
        let kept = (text.len() as u64 > self.max_bytes).then(|| text.clone());
        let (h, omitted) = self.take(text, out);
        f.hash = Some(h);
        f.omitted = omitted;
        match kept {
            Some(text) => self.left_out.insert(f.path.clone(), text),
            None => self.left_out.remove(&f.path),
        };
    }

    fn message(&mut self, m: &mut MessageRecord, out: &mut Vec<Record>) {
        let text = std::mem::take(&mut m.content);
        let (h, omitted) = self.take(text, out);
        m.blob = Some(h);
        m.omitted = omitted;
    }
}

/// Put every blob's text back where it is referred to, and drop the `blob` records. A file's
/// text left out for its size is filled in too when the journal holds it further on (it was
/// journaled when the session first wrote the file). A text the journal lacks (over its limit,
/// or its blob cut off) stays out: a file's `content` stays `None` with its `hash` (see
/// [`FileRecord::lacks`]); a message gets a placeholder.
pub fn resolve(records: Vec<Record>) -> Vec<Record> {
    if !records.iter().any(|r| matches!(r, Record::Blob { .. }) || refers(r)) {
        return records;
    }
    let mut texts: HashMap<String, String> = HashMap::default();
    let mut out = Vec::with_capacity(records.len());
    for record in records {
        match record {
            Record::Blob { hash, text } => {
                texts.insert(hash, text);
            }
            other => out.push(other),
        }
    }
    for record in &mut out {
        match record {
            Record::File(f) | Record::FileChanged(f) => fill_file(f, &texts),
            Record::Write(w) => {
                if let Some(found) = &mut w.found {
                    fill_file(found, &texts);
                }
            }
            Record::Request(r) => r.messages.iter_mut().for_each(|m| fill_message(m, &texts)),
            _ => {}
        }
    }
    out
}

/// Whether a record refers to a blob (a message's text is only ever out of line by reference).
fn refers(record: &Record) -> bool {
    matches!(record, Record::Request(r) if r.messages.iter().any(|m| m.blob.is_some()))
}

fn fill_file(f: &mut FileRecord, texts: &HashMap<String, String>) {
    let referred = f.content.is_none() && f.unusable.is_none();
    if let Some(text) = f.hash.as_ref().and_then(|h| texts.get(h)).filter(|_| referred) {
        f.content = Some(text.clone());
        f.omitted = None;
    }
}

fn fill_message(m: &mut MessageRecord, texts: &HashMap<String, String>) {
    let Some(h) = &m.blob else { return };
    match (texts.get(h), m.omitted) {
        (Some(text), _) => {
            m.content = text.clone();
            m.blob = None;
        }
        (None, Some(len)) => m.content = format!("[not journaled: {len} bytes, over the limit]"),
        (None, None) => m.content = "[not journaled: its text is missing]".to_string(),
    }
}

impl FileRecord {
    /// Why the journal holds no copy of this file's content although the file had one.
    pub fn lacks(&self) -> Option<String> {
        if self.content.is_some() || self.unusable.is_some() || self.hash.is_none() {
            return None;
        }
        Some(match self.omitted {
            Some(len) => format!(
                "the journal holds no copy of it ({len} bytes, over its limit per file; \
                 see --journal-max-file-bytes)"
            ),
            None => "the journal holds no copy of it (its text is missing)".to_string(),
        })
    }
}

impl Journal {
    /// Every text the journal lacks, one line each (`path: why`), in order, without repeats.
    pub fn lacking(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut note = |line: String| {
            if !out.contains(&line) {
                out.push(line);
            }
        };
        for record in &self.records {
            match record {
                Record::File(f) | Record::FileChanged(f) => {
                    if let Some(why) = f.lacks() {
                        note(format!("{}: {why}", f.path));
                    }
                }
                Record::Write(w) => {
                    if let Some(why) = w.found.as_ref().and_then(FileRecord::lacks) {
                        note(format!("{}: {why}", w.path));
                    }
                }
                Record::Request(r) => {
                    for m in r.messages.iter().filter(|m| m.omitted.is_some()) {
                        let len = m.omitted.unwrap_or_default();
                        note(format!(
                            "a {} message of request {}: not journaled ({len} bytes, over the limit)",
                            m.role, r.round
                        ));
                    }
                }
                _ => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::file::Source;
    use crate::core::session::{RequestRecord, Why, WriteRecord, read};

    fn request(round: usize, texts: &[&str]) -> Record {
        Record::Request(RequestRecord {
            t: 0,
            round,
            why: Why::Initial,
            messages: texts.iter().map(|t| MessageRecord::new("user", t)).collect(),
        })
    }

    fn journal_bytes(blobs: &mut Blobs, records: &[Record]) -> Vec<u8> {
        records
            .iter()
            .flat_map(|r| blobs.externalize(r))
            .map(|r| r.to_line())
            .collect::<String>()
            .into()
    }

    #[test]
    fn each_text_is_written_once_and_reads_back_inline() {
        let big = "line of code\n".repeat(1000);
        let records = vec![
            Record::File(FileRecord::new(None, "a.py", &Source::Text(big.clone()))),
            Record::FileChanged(FileRecord::new(Some(5), "a.py", &Source::Text(big.clone()))),
            request(0, &["system", &big]),
            request(1, &["system", &big, "more"]),
            Record::Write(WriteRecord {
                t: 9,
                hunk: "01".into(),
                path: "a.py".into(),
                ok: false,
                undo: false,
                deleted: false,
                reason: None,
                hash: None,
                found: Some(FileRecord::new(None, "a.py", &Source::Text(big.clone()))),
            }),
            Record::File(FileRecord::new(Some(7), "gone.py", &Source::Missing)),
        ];
        let bytes = journal_bytes(&mut Blobs::new(DEFAULT_MAX_TEXT_BYTES), &records);
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert_eq!(text.matches("line of code").count(), 1000, "the big text once");
        assert_eq!(text.matches("\"kind\":\"blob\"").count(), 3, "big, system, more");
        let journal = read(&bytes);
        assert_eq!(journal.records, records, "reads back as if written inline");
        assert!(journal.lacking().is_empty());
    }

    #[test]
    fn a_text_over_the_limit_is_named_not_stored_and_a_replay_says_so() {
        let big = "x".repeat(100);
        let records = vec![
            Record::File(FileRecord::new(None, "big.py", &Source::Text(big.clone()))),
            Record::File(FileRecord::new(None, "small.py", &Source::Text("s\n".into()))),
            request(0, &[&big]),
        ];
        let bytes = journal_bytes(&mut Blobs::new(50), &records);
        assert!(!String::from_utf8_lossy(&bytes).contains(&big));
        let journal = read(&bytes);
        let Record::File(f) = &journal.records[0] else { panic!("a file") };
        assert_eq!(f.hash.as_deref(), Some(hash(&big).as_str()));
        let Source::Unusable(why) = f.source() else { panic!("unusable: {f:?}") };
        assert!(why.contains("no copy") && why.contains("100 bytes"), "{why}");
        let Record::File(small) = &journal.records[1] else { panic!("a file") };
        assert_eq!(small.source(), Source::Text("s\n".into()));
        let Record::Request(r) = &journal.records[2] else { panic!("a request") };
        assert_eq!(r.messages[0].content, "[not journaled: 100 bytes, over the limit]");
        let lacking = journal.lacking();
        assert_eq!(lacking.len(), 2, "{lacking:?}");
        assert!(lacking[0].starts_with("big.py: the journal holds no copy"), "{lacking:?}");
    }

    #[test]
    fn journals_without_blobs_read_as_before() {
        let line = r#"{"kind":"file","path":"a.py","content":"x\n","hash":"sha256:00"}"#;
        let journal = read(format!("{line}\n").as_bytes());
        let Record::File(f) = &journal.records[0] else { panic!("a file") };
        assert_eq!(f.source(), Source::Text("x\n".into()));
        assert!(journal.lacking().is_empty());
    }
}
