//! Reading a journal: the records up to its last complete, readable line. A journal is written
//! a line at a time, so a crash (or `kill -9`) can leave at most a cut last line; that tail, or
//! anything unreadable from the first bad line on, is dropped and reported, never an error.

use super::Record;

/// A journal's records and what was left out of it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Journal {
    pub records: Vec<Record>,
    /// The unreadable tail, if any.
    pub dropped: Option<Dropped>,
}

/// Where the readable part of a journal ends and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    /// 1-based line number of the first line left out.
    pub line: usize,
    /// Byte offset where it starts.
    pub offset: usize,
    /// How many bytes were left out.
    pub bytes: usize,
    pub reason: String,
}

impl Journal {
    pub fn header(&self) -> Option<&super::Header> {
        match self.records.first() {
            Some(Record::Session(h)) => Some(h),
            _ => None,
        }
    }
}

/// The records of a journal's bytes, up to the first line that is cut off (no final newline),
/// not UTF-8, or not a record. Blank lines are skipped. Never panics.
pub fn read(bytes: &[u8]) -> Journal {
    let mut records = Vec::new();
    let mut offset = 0;
    let mut line_no = 0;
    while offset < bytes.len() {
        line_no += 1;
        let rest = &bytes[offset..];
        let Some(end) = memchr::memchr(b'\n', rest) else {
            return dropped(records, line_no, offset, rest.len(), "the last line is cut off");
        };
        let line = &rest[..end];
        let text = match std::str::from_utf8(line) {
            Ok(t) => t,
            Err(_) => return dropped(records, line_no, offset, rest.len(), "not UTF-8 text"),
        };
        if !text.trim().is_empty() {
            match serde_json::from_str::<Record>(text) {
                Ok(record) => records.push(record),
                Err(e) => {
                    let reason = format!("not a journal record: {e}");
                    return dropped(records, line_no, offset, rest.len(), &reason);
                }
            }
        }
        offset += end + 1;
    }
    Journal { records: super::blobs::resolve(records), dropped: None }
}

fn dropped(records: Vec<Record>, line: usize, offset: usize, bytes: usize, why: &str) -> Journal {
    Journal {
        records: super::blobs::resolve(records),
        dropped: Some(Dropped { line, offset, bytes, reason: why.to_string() }),
    }
}
