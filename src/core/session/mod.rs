//! The session journal's records: what a review session was asked, what the model streamed and
//! when, every edit found and how it was placed, every input and decision and what came of it.
//! A journal is one JSON object per line (`"kind"` names the record), appended as things happen;
//! the first line is the [`Header`] (with the format's [`VERSION`]).
//!
//! The records are of four sorts (see [`Record::role`]):
//! - **set-up**: `session` (the header) and `file` without `t` (each file as sent);
//! - **inputs**, which replaying feeds back to the review: `key`, `resize`, `scroll`, `editor`,
//!   `file_changed`, and the stream (`chunk`, `stream_end`, `stream_error`) of each `request`;
//! - **effect results**, which a replay produces itself by carrying out the review's effects and
//!   which mark where in the sequence they happened: `write`, `file` with `t` (a file read later);
//! - **observations**, which a replay compares with what the current engine does: `hunk` (each
//!   edit found, and again whenever its state or placement changes), `decision`, `end`.
//!
//! Times (`t`) are milliseconds since the session started. Nothing secret is ever a field: the
//! provider is named by kind, model and a base URL stripped of credentials and query
//! ([`sanitize_url`]); requests hold message contents only.
//!
//! Not for: reading or writing files (`shell::journal`), turning messages into records and back
//! (`app::record`), replaying (`app::replay`). This module is plain data and pure functions.

mod blobs;
mod reader;
mod summary;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::core::file::Source;
use crate::core::trigger::TriggerId;

pub use blobs::{Blobs, DEFAULT_MAX_TEXT_BYTES};
pub use reader::{Dropped, Journal, read};
pub use summary::{Summary, summarize};

/// The journal format's version, in every header. A reader refuses a journal of a newer one.
/// 2: new hunks are placed off the UI task, and when each placing came back is recorded.
pub const VERSION: u32 = 2;

/// One line of a journal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Record {
    Session(Header),
    /// A file as sent (no `t`) or as read later in the session (`t`).
    File(FileRecord),
    Request(RequestRecord),
    Chunk {
        t: u64,
        text: String,
    },
    StreamEnd {
        t: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        output_tokens: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    StreamError {
        t: u64,
        reason: String,
    },
    Hunk(HunkRecord),
    /// A key, as the app names it (`y`, `ctrl-c`, `shift-J`, `enter`; older journals wrote
    /// `ctrl+c`, which reads the same).
    Key {
        t: u64,
        key: String,
    },
    /// Text pasted into the terminal, whole.
    Paste {
        t: u64,
        text: String,
    },
    Resize {
        t: u64,
        width: u16,
        height: u16,
    },
    /// The wheel turned; where the pointer was (older journals have none).
    Scroll {
        t: u64,
        down: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<[u16; 2]>,
    },
    /// A mouse click (left button) at a column and row.
    Click {
        t: u64,
        at: [u16; 2],
    },
    /// The editor closed: the text saved for the hunk, or why there is none.
    Editor {
        t: u64,
        hunk: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    Decision(DecisionRecord),
    Write(WriteRecord),
    /// A new hunk's placing came back from the worker and was taken (journal version 2 on):
    /// a replay places it at this point.
    Placed {
        t: u64,
        hunk: String,
    },
    /// A file under review changed on disk (another program): what it holds now.
    FileChanged(FileRecord),
    /// A git operation started (`true`) or ended in the project.
    GitBusy {
        t: u64,
        busy: bool,
    },
    /// Watch mode read the project: how many files, and the trigger comments already there.
    WatchReady {
        t: u64,
        files: usize,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        triggers: Vec<TriggerId>,
    },
    /// Watching the files failed.
    WatchError {
        t: u64,
        reason: String,
    },
    End(EndRecord),
    /// A text (a file's content, a message's) that other records refer to by its hash: written
    /// once per journal, before the first record that refers to it (see `blobs`).
    Blob {
        hash: String,
        text: String,
    },
}

/// What a record is for, when replaying.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Setup,
    Input,
    /// A request: the stream records after it belong to it.
    Request,
    EffectResult,
    Observation,
}

impl Record {
    pub fn role(&self) -> Role {
        match self {
            Record::Session(_) | Record::Blob { .. } => Role::Setup,
            Record::File(f) if f.t.is_none() => Role::Setup,
            Record::File(_) | Record::Write(_) | Record::Placed { .. } => Role::EffectResult,
            Record::Request(_) => Role::Request,
            Record::Chunk { .. }
            | Record::StreamEnd { .. }
            | Record::StreamError { .. }
            | Record::Key { .. }
            | Record::Paste { .. }
            | Record::Resize { .. }
            | Record::Scroll { .. }
            | Record::Click { .. }
            | Record::Editor { .. }
            | Record::FileChanged(_)
            | Record::GitBusy { .. }
            | Record::WatchReady { .. }
            | Record::WatchError { .. } => Role::Input,
            Record::Hunk(_) | Record::Decision(_) | Record::End(_) => Role::Observation,
        }
    }

    /// When it happened (ms since the start); set-up records have none.
    pub fn t(&self) -> Option<u64> {
        match self {
            Record::Session(_) | Record::Blob { .. } => None,
            Record::File(f) | Record::FileChanged(f) => f.t,
            Record::Request(r) => Some(r.t),
            Record::Chunk { t, .. }
            | Record::StreamEnd { t, .. }
            | Record::StreamError { t, .. }
            | Record::Key { t, .. }
            | Record::Paste { t, .. }
            | Record::Resize { t, .. }
            | Record::Scroll { t, .. }
            | Record::Click { t, .. }
            | Record::Editor { t, .. }
            | Record::Placed { t, .. }
            | Record::GitBusy { t, .. }
            | Record::WatchReady { t, .. }
            | Record::WatchError { t, .. } => Some(*t),
            Record::Hunk(h) => Some(h.t),
            Record::Decision(d) => Some(d.t),
            Record::Write(w) => Some(w.t),
            Record::End(e) => Some(e.t),
        }
    }

    /// Whether the journal must be on disk once this record is written (a decision, a write's
    /// outcome, a stream's end): what a crash must never lose.
    pub fn needs_sync(&self) -> bool {
        matches!(
            self,
            Record::Session(_)
                | Record::Decision(_)
                | Record::Write(_)
                | Record::StreamEnd { .. }
                | Record::StreamError { .. }
                | Record::Request(_)
                | Record::End(_)
        )
    }

    /// One journal line, newline included.
    pub fn to_line(&self) -> String {
        // A record is plain data with string keys: serializing cannot fail.
        let mut line = serde_json::to_string(self).unwrap_or_default();
        line.push('\n');
        line
    }
}

/// The first record: what the session is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub version: u32,
    /// Unique among sessions; the journal's file name ends with it.
    pub id: String,
    /// Unix time, milliseconds.
    pub started_ms: u64,
    /// The project folder, for display.
    pub root: String,
    #[serde(default)]
    pub prompt: Option<String>,
    /// `openai`, `anthropic`, `ollama`, or `recorded` for a replay's reply source.
    pub provider: String,
    pub model: String,
    /// The server's base URL without credentials, query or fragment.
    #[serde(default)]
    pub base_url: Option<String>,
    /// The edit format asked for (`udiff`, `search-replace`, `whole`).
    pub format: String,
    /// The status line's label (`openai · gpt-4.1`).
    pub label: String,
    /// The redline version that wrote the journal.
    pub redline: String,
    /// The terminal's size when the session started.
    pub width: u16,
    pub height: u16,
    /// Every file of the project (paths only), against which reply paths are resolved.
    pub project_files: Vec<String>,
    /// The input line asked for the request (no `-m`): the first request follows keys.
    #[serde(default)]
    pub asks_prompt: bool,
    /// The user's `keymap.toml`, if any: replayed keys mean what they meant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keymap: Option<String>,
    /// The session this one replays, if it is a replay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay_of: Option<String>,
    /// Played in a scratch copy of the files (a replay without `--root`): not the project, so
    /// `redline resume` does not continue it unasked.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub scratch: bool,
    /// A watch-mode session (`redline watch`): requests come from comment triggers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watch: Option<WatchHeader>,
}

/// How a watch-mode session ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WatchHeader {
    /// `--apply all`: answers were accepted as they arrived.
    pub apply_all: bool,
}

/// A file's content at a moment (`content: None` with no `unusable`: the file does not exist).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileRecord {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t: Option<u64>,
    pub path: String,
    #[serde(default)]
    pub content: Option<String>,
    /// Why the file cannot be edited (binary, unreadable, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unusable: Option<String>,
    /// [`hash`] of the content; `None` when there is none. With no `content` and no
    /// `unusable`, the content is the `blob` of this hash, or not journaled (`omitted`).
    #[serde(default)]
    pub hash: Option<String>,
    /// The content's length in bytes, when it was over the journal's limit and not journaled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub omitted: Option<u64>,
}

impl FileRecord {
    pub fn new(t: Option<u64>, path: &str, source: &Source) -> FileRecord {
        let (content, unusable) = match source {
            Source::Text(text) => (Some(text.clone()), None),
            Source::Missing => (None, None),
            Source::Unusable(why) => (None, Some(why.clone())),
        };
        let hash = content.as_deref().map(hash);
        FileRecord { t, path: path.to_string(), content, unusable, hash, omitted: None }
    }

    /// What the file held; a content the journal lacks reads as unusable, saying so.
    pub fn source(&self) -> Source {
        if let Some(why) = self.lacks() {
            return Source::Unusable(why);
        }
        match (&self.content, &self.unusable) {
            (Some(text), _) => Source::Text(text.clone()),
            (None, Some(why)) => Source::Unusable(why.clone()),
            (None, None) => Source::Missing,
        }
    }
}

/// Why a request was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Why {
    /// The session's request.
    Initial,
    /// Asking again about the edits that failed.
    Retry,
    /// A follow-up request in the same conversation.
    FollowUp,
    /// A comment trigger (`AI!`, `AI?`) saved in a watched file.
    Watch,
    /// A reason this version of redline does not know.
    #[serde(other)]
    Other,
}

impl Why {
    pub fn name(self) -> &'static str {
        match self {
            Why::Initial => "initial",
            Why::Retry => "retry",
            Why::FollowUp => "follow-up",
            Why::Watch => "watch",
            Why::Other => "other",
        }
    }
}

/// A request sent to the model: message contents only, never a header or key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RequestRecord {
    pub t: u64,
    /// 0 for the first request of the session, then 1, 2, ...
    pub round: usize,
    pub why: Why,
    pub messages: Vec<MessageRecord>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageRecord {
    /// `system`, `user` or `assistant`.
    pub role: String,
    /// The text; in the journal, empty when `blob` names it.
    #[serde(default)]
    pub content: String,
    /// [`hash`] of the text, which is the `blob` of that hash (or not journaled: `omitted`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
    /// The text's length in bytes, when it was over the journal's limit and not journaled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub omitted: Option<u64>,
}

impl MessageRecord {
    pub fn new(role: &str, content: &str) -> MessageRecord {
        MessageRecord { role: role.into(), content: content.into(), blob: None, omitted: None }
    }
}

/// An edit as the review holds it: where it is, how it was placed, its state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HunkRecord {
    pub t: u64,
    /// [`hunk_hex`] of the hunk's id.
    pub id: String,
    pub path: String,
    pub format: String,
    /// 1-based line range of the reply the edit came from.
    pub reply_lines: (usize, usize),
    /// `pending`, `accepted`, `applied`, `rejected`, `failed`, `conflict`, or `gone` (split
    /// into parts).
    pub state: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy: Option<crate::core::placement::Strategy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<(usize, usize)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub similarity: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl HunkRecord {
    /// The same hunk in the same state and place (the time aside).
    pub fn same_as(&self, other: &HunkRecord) -> bool {
        // Field by field, not by copies with `t` zeroed: the recorder asks for every hunk that
        // changed. Naming every field keeps a new one from being left out.
        let HunkRecord {
            t: _,
            id,
            path,
            format,
            reply_lines,
            state,
            strategy,
            lines,
            similarity,
            reason,
        } = self;
        *id == other.id
            && *path == other.path
            && *format == other.format
            && *reply_lines == other.reply_lines
            && *state == other.state
            && *strategy == other.strategy
            && *lines == other.lines
            && *similarity == other.similarity
            && *reason == other.reason
    }
}

/// A decision taken on a hunk by a key (or the editor) and the state it left the hunk in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisionRecord {
    pub t: u64,
    pub hunk: String,
    pub path: String,
    /// `accept`, `reject`, `undo`, `split`, `retry` (a failed hunk handed back to the model).
    pub action: String,
    pub state: String,
}

/// A write's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WriteRecord {
    pub t: u64,
    pub hunk: String,
    pub path: String,
    pub ok: bool,
    /// An undo's write (taking the hunk back out).
    #[serde(default)]
    pub undo: bool,
    /// The file was deleted.
    #[serde(default)]
    pub deleted: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// [`hash`] of the file after the write (`None` when deleted or not written).
    #[serde(default)]
    pub hash: Option<String>,
    /// A write that found the file changed just before it (another program wrote): what the
    /// file held instead. A replay puts it there first, so the write meets it again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found: Option<FileRecord>,
}

/// The session ended (the user quit); counts by state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndRecord {
    pub t: u64,
    pub pending: usize,
    pub applied: usize,
    pub rejected: usize,
    pub failed: usize,
    pub conflict: usize,
}

/// `sha256:` and the hex digest of the text's bytes.
pub fn hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// A hunk id as 16 hex digits (JSON numbers lose precision above 2^53).
pub fn hunk_hex(id: u64) -> String {
    // By hand, not `format!`: the recorder writes one for every hunk placed.
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut hex = String::with_capacity(16);
    for shift in (0..16).rev() {
        hex.push(DIGITS[((id >> (shift * 4)) & 0xf) as usize] as char);
    }
    hex
}

pub fn parse_hunk_hex(text: &str) -> Option<u64> {
    u64::from_str_radix(text, 16).ok()
}

/// A base URL fit for a journal: no user name or password, no query, no fragment.
pub fn sanitize_url(url: &str) -> String {
    let cut = url.find(['?', '#']).map_or(url, |i| &url[..i]);
    match cut.find("://") {
        Some(scheme_end) => {
            let rest = &cut[scheme_end + 3..];
            let host_end = rest.find('/').unwrap_or(rest.len());
            let authority = &rest[..host_end];
            let host = authority.rfind('@').map_or(authority, |at| &authority[at + 1..]);
            format!("{}://{host}{}", &cut[..scheme_end], &rest[host_end..])
        }
        None => cut.rfind('@').map_or(cut, |at| &cut[at + 1..]).to_string(),
    }
}

/// Free text (an error message) with every URL in it passed through [`sanitize_url`].
pub fn sanitize_urls(text: &str) -> String {
    if !text.contains("://") {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let start = rest[..at]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || "+-.".contains(c)))
            .map_or(0, |i| i + 1);
        let end = rest[at..]
            .find(|c: char| c.is_whitespace() || "\"'<>()[]{}`,;".contains(c))
            .map_or(rest.len(), |i| at + i);
        out.push_str(&rest[..start]);
        out.push_str(&sanitize_url(&rest[start..end]));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The UTC date and time of a unix time in milliseconds: `2025-01-31T14:05:09Z`.
pub fn utc_timestamp(unix_ms: u64) -> String {
    let secs = unix_ms / 1000;
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// Howard Hinnant's `civil_from_days`: days since 1970-01-01 to (year, month, day).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}
