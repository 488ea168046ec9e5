//! `redline replay --headless --check`: replay a recording with the current engine and compare
//! what it finds with what was recorded. The edits found (hunk ids and paths), how each was
//! placed (strategy, lines, similarity), every state it went through, every write's outcome and
//! the files' final content must all be the same; a failure's wording may change.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::core::session::{HunkRecord, Journal, Record, Role, WriteRecord, hash};

use super::Driver;
use crate::app::replay::Script;

/// What `--check` prints.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub session: String,
    pub reproduced: bool,
    /// The journal ends with the session's end; when not, it is compared up to its last input.
    pub complete: bool,
    /// Edits found in the recording and now.
    pub hunks: Pair<usize>,
    pub requests: Pair<usize>,
    pub writes: Pair<usize>,
    /// Final states, as `redline sessions` counts them.
    pub recorded: Counts,
    pub now: Counts,
    pub differences: Vec<Difference>,
    /// Where the replay could not follow the recording (a reply never asked for, ...).
    pub notes: Vec<String>,
    /// The journal's unreadable tail, if any (the replay stops before it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dropped: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Pair<T> {
    pub recorded: T,
    pub now: T,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub accepted: usize,
    pub rejected: usize,
    pub failed: usize,
    pub pending: usize,
}

/// One thing the current engine does differently.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Difference {
    /// The hunk's id, when it is about a hunk.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hunk: Option<String>,
    pub path: String,
    /// What differs: `edit`, `state`, `strategy`, `lines`, `similarity`, `reply_lines`,
    /// `history`, `write`, `file`, `requests`.
    pub what: String,
    pub recorded: serde_json::Value,
    pub now: serde_json::Value,
}

/// Replay `journal` headless and compare; `Err` when it cannot be replayed at all.
///
/// A journal that does not end with the session's end (a crash, a kill, a cut) is compared up
/// to its last input: what that input caused may be cut off.
pub fn check(journal: &Journal) -> Result<Report, String> {
    let complete =
        journal.dropped.is_none() && matches!(journal.records.last(), Some(Record::End(_)));
    let trimmed;
    let journal = if complete {
        journal
    } else {
        let last_input = journal
            .records
            .iter()
            .rposition(|r| matches!(r.role(), Role::Input | Role::EffectResult))
            .unwrap_or(journal.records.len());
        trimmed = Journal {
            records: journal.records[..last_input].to_vec(),
            dropped: journal.dropped.clone(),
        };
        &trimmed
    };
    let script = Script::from_journal(journal)?;
    let mut driver = Driver::new(&script, true);
    driver.finish_held = complete;
    driver.run();
    let recorded = &script.records;
    let now = &driver.produced;
    let mut differences = Vec::new();
    compare_hunks(recorded, now, &mut differences);
    let (rec_writes, now_writes) = (writes(recorded), writes(now));
    compare_writes(&rec_writes, &now_writes, &mut differences);
    compare_files(recorded, &driver.files(), &mut differences);
    let requests = Pair {
        recorded: recorded.iter().filter(|r| matches!(r, Record::Request(_))).count(),
        now: driver.requests,
    };
    if requests.recorded != requests.now {
        differences.push(Difference {
            hunk: None,
            path: String::new(),
            what: "requests".into(),
            recorded: requests.recorded.into(),
            now: requests.now.into(),
        });
    }
    let (rec_hunks, now_hunks) = (histories(recorded), histories(now));
    Ok(Report {
        session: script.header.id.clone(),
        reproduced: differences.is_empty(),
        complete,
        hunks: Pair { recorded: rec_hunks.len(), now: now_hunks.len() },
        requests,
        writes: Pair { recorded: rec_writes.len(), now: now_writes.len() },
        recorded: counts(&rec_hunks),
        now: counts(&now_hunks),
        differences,
        notes: driver.notes.into_iter().chain(journal.lacking()).collect(),
        dropped: journal.dropped.as_ref().map(|d| format!("line {}: {}", d.line, d.reason)),
    })
}

/// What is compared of a hunk record: everything but the time and the reason's wording.
fn key(h: &HunkRecord) -> HunkRecord {
    HunkRecord { t: 0, reason: None, similarity: h.similarity.map(round), ..h.clone() }
}

fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// Each hunk's successive forms, in order of first appearance, with repeats that differ only in
/// what is not compared folded.
fn histories(records: &[Record]) -> Vec<(String, Vec<HunkRecord>)> {
    let mut order: Vec<String> = Vec::new();
    let mut by_id: BTreeMap<String, Vec<HunkRecord>> = BTreeMap::new();
    for r in records {
        let Record::Hunk(h) = r else { continue };
        let k = key(h);
        let list = by_id.entry(h.id.clone()).or_insert_with(|| {
            order.push(h.id.clone());
            Vec::new()
        });
        if list.last() != Some(&k) {
            list.push(k);
        }
    }
    order.into_iter().map(|id| (id.clone(), by_id.remove(&id).unwrap_or_default())).collect()
}

fn counts(histories: &[(String, Vec<HunkRecord>)]) -> Counts {
    let mut c = Counts::default();
    for (_, h) in histories {
        match h.last().map(|h| h.state.as_str()) {
            Some("applied" | "accepted") => c.accepted += 1,
            Some("rejected") => c.rejected += 1,
            Some("failed" | "conflict") => c.failed += 1,
            Some("pending") => c.pending += 1,
            _ => {}
        }
    }
    c
}

fn compare_hunks(recorded: &[Record], now: &[Record], out: &mut Vec<Difference>) {
    let rec = histories(recorded);
    let mut now: BTreeMap<String, Vec<HunkRecord>> = histories(now).into_iter().collect();
    for (id, r) in &rec {
        let path = r.first().map(|h| h.path.clone()).unwrap_or_default();
        let Some(n) = now.remove(id) else {
            out.push(diff(id, &path, "edit", "found".into(), "not found".into()));
            continue;
        };
        if let Some((a, b)) = r.iter().zip(&n).find(|(a, b)| a != b) {
            out.push(first_field(id, a, b));
        } else if r.len() != n.len() {
            let states = |l: &[HunkRecord]| -> serde_json::Value {
                l.iter().map(|h| h.state.clone()).collect::<Vec<_>>().into()
            };
            out.push(diff(id, &path, "history", states(r), states(&n)));
        }
    }
    for (id, n) in now {
        let path = n.first().map(|h| h.path.clone()).unwrap_or_default();
        out.push(diff(&id, &path, "edit", "not found".into(), "found".into()));
    }
}

/// The first field in which two forms of a hunk differ.
fn first_field(id: &str, a: &HunkRecord, b: &HunkRecord) -> Difference {
    let fields = [
        ("path", json(&a.path), json(&b.path)),
        ("state", json(&a.state), json(&b.state)),
        ("strategy", json(&a.strategy), json(&b.strategy)),
        ("lines", json(&a.lines), json(&b.lines)),
        ("similarity", json(&a.similarity), json(&b.similarity)),
        ("reply_lines", json(&a.reply_lines), json(&b.reply_lines)),
    ];
    let (what, recorded, now) = fields.into_iter().find(|(_, x, y)| x != y).unwrap_or((
        "format",
        json(&a.format),
        json(&b.format),
    ));
    diff(id, &a.path, what, recorded, now)
}

fn json<T: Serialize>(x: &T) -> serde_json::Value {
    serde_json::to_value(x).unwrap_or(serde_json::Value::Null)
}

fn diff(
    id: &str,
    path: &str,
    what: &str,
    recorded: serde_json::Value,
    now: serde_json::Value,
) -> Difference {
    Difference { hunk: Some(id.to_string()), path: path.into(), what: what.into(), recorded, now }
}

fn writes(records: &[Record]) -> Vec<WriteRecord> {
    records
        .iter()
        .filter_map(|r| match r {
            Record::Write(w) => Some(WriteRecord { t: 0, reason: None, ..w.clone() }),
            _ => None,
        })
        .collect()
}

fn compare_writes(rec: &[WriteRecord], now: &[WriteRecord], out: &mut Vec<Difference>) {
    let show = |w: Option<&WriteRecord>| json(&w);
    for i in 0..rec.len().max(now.len()) {
        let (a, b) = (rec.get(i), now.get(i));
        if a != b {
            let w = a.or(b);
            out.push(Difference {
                hunk: w.map(|w| w.hunk.clone()),
                path: w.map(|w| w.path.clone()).unwrap_or_default(),
                what: "write".into(),
                recorded: show(a),
                now: show(b),
            });
            // One is enough: after a different write, the rest follow from it.
            return;
        }
    }
}

/// Each written file's final content: what the recording last wrote to it or saw it change to,
/// against the replay's.
fn compare_files(
    recorded: &[Record],
    files: &BTreeMap<String, crate::core::file::Source>,
    out: &mut Vec<Difference>,
) {
    let mut last: BTreeMap<&str, Option<String>> = BTreeMap::new();
    for r in recorded {
        match r {
            Record::Write(w) if w.ok => {
                last.insert(&w.path, w.hash.clone());
            }
            // A write that found another program's text there and was not made: the file then
            // held that text (what the replay puts there, too).
            Record::Write(w) if w.found.is_some() && last.contains_key(w.path.as_str()) => {
                last.insert(&w.path, w.found.as_ref().and_then(|f| f.hash.clone()));
            }
            Record::FileChanged(f) if last.contains_key(f.path.as_str()) => {
                last.insert(&f.path, f.hash.clone());
            }
            _ => {}
        }
    }
    for (path, recorded) in last {
        let now = match files.get(path) {
            Some(crate::core::file::Source::Text(t)) => Some(hash(t)),
            _ => None,
        };
        if now != recorded {
            out.push(Difference {
                hunk: None,
                path: path.to_string(),
                what: "file".into(),
                recorded: recorded.into(),
                now: now.into(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::file::Source;
    use crate::core::session::{FileRecord, WriteRecord};

    fn write(ok: bool, text: &str, found: Option<&str>) -> Record {
        Record::Write(WriteRecord {
            t: 1,
            hunk: "1".into(),
            path: "a.py".into(),
            ok,
            undo: false,
            deleted: false,
            reason: None,
            hash: ok.then(|| hash(text)),
            found: found.map(|f| FileRecord::new(Some(1), "a.py", &Source::Text(f.into()))),
        })
    }

    #[test]
    fn a_file_ends_as_the_text_a_refused_write_found_there() {
        let recorded = [write(true, "x = 1\n", None), write(false, "", Some("x = 9\n"))];
        let files = |text: &str| BTreeMap::from([("a.py".to_string(), Source::Text(text.into()))]);
        let mut out = Vec::new();
        compare_files(&recorded, &files("x = 9\n"), &mut out);
        assert!(out.is_empty(), "{out:?}");
        compare_files(&recorded, &files("x = 1\n"), &mut out);
        assert_eq!(out.len(), 1, "the write that found another text was not made: {out:?}");
    }
}
