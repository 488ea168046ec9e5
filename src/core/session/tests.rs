use proptest::prelude::*;

use super::*;
use crate::core::locate::MatchKind;
use crate::core::placement::Strategy;

fn header() -> Header {
    Header {
        version: VERSION,
        id: "a1b2c3d4".into(),
        started_ms: 1_700_000_000_000,
        root: "/tmp/project".into(),
        prompt: Some("fix the greeting".into()),
        provider: "openai".into(),
        model: "gpt-test".into(),
        base_url: Some("http://127.0.0.1:1234/v1".into()),
        format: "search-replace".into(),
        label: "openai · gpt-test".into(),
        redline: "0.1.0".into(),
        width: 100,
        height: 30,
        project_files: vec!["app.py".into()],
        asks_prompt: false,
        keymap: None,
        replay_of: None,
        scratch: false,
        watch: None,
    }
}

fn hunk(t: u64, id: &str, state: &str) -> Record {
    Record::Hunk(HunkRecord {
        t,
        id: id.into(),
        path: "app.py".into(),
        format: "search-replace".into(),
        reply_lines: (3, 9),
        state: state.into(),
        strategy: Some(Strategy::Located(MatchKind::Exact)),
        lines: Some((5, 6)),
        similarity: Some(1.0),
        reason: None,
    })
}

/// A journal with one of every kind of record, with text that needs escaping.
fn sample() -> Vec<Record> {
    vec![
        Record::Session(header()),
        Record::File(FileRecord::new(None, "app.py", &Source::Text("x = \"é\"\n\tok\n".into()))),
        Record::Request(RequestRecord {
            t: 0,
            round: 0,
            why: Why::Initial,
            messages: vec![MessageRecord::new("user", "fix\nit")],
        }),
        Record::Chunk { t: 120, text: "Here\n```py\n<<<<<<< SEA".into() },
        Record::Chunk { t: 160, text: "RCH\n".into() },
        hunk(170, "00000000000000ff", "pending"),
        Record::StreamEnd { t: 400, output_tokens: Some(12), note: None },
        Record::Resize { t: 410, width: 90, height: 20 },
        Record::Scroll { t: 420, down: true, at: None },
        Record::Scroll { t: 421, down: false, at: Some([3, 4]) },
        Record::Click { t: 422, at: [10, 2] },
        Record::Key { t: 500, key: "y".into() },
        hunk(500, "00000000000000ff", "accepted"),
        Record::Decision(DecisionRecord {
            t: 500,
            hunk: "00000000000000ff".into(),
            path: "app.py".into(),
            action: "accept".into(),
            state: "accepted".into(),
        }),
        Record::Write(WriteRecord {
            t: 510,
            hunk: "00000000000000ff".into(),
            path: "app.py".into(),
            ok: true,
            undo: false,
            deleted: false,
            reason: None,
            hash: Some(hash("x = 2\n")),
            found: None,
        }),
        Record::Editor {
            t: 520,
            hunk: "00000000000000ff".into(),
            text: None,
            error: Some("no".into()),
        },
        Record::FileChanged(FileRecord::new(Some(530), "app.py", &Source::Missing)),
        Record::File(FileRecord::new(Some(540), "lib.py", &Source::Unusable("binary".into()))),
        Record::StreamError { t: 550, reason: "cancelled".into() },
        Record::End(EndRecord {
            t: 600,
            pending: 0,
            applied: 1,
            rejected: 0,
            failed: 0,
            conflict: 0,
        }),
    ]
}

fn text_of(records: &[Record]) -> String {
    records.iter().map(Record::to_line).collect()
}

#[test]
fn every_record_reads_back_as_written() {
    let records = sample();
    let journal = read(text_of(&records).as_bytes());
    assert_eq!(journal.dropped, None);
    assert_eq!(journal.records, records);
    assert_eq!(journal.header().map(|h| h.id.as_str()), Some("a1b2c3d4"));
}

#[test]
fn a_cut_last_line_is_dropped_and_reported() {
    let records = sample();
    let text = text_of(&records);
    let cut = text.len() - 5;
    let journal = read(&text.as_bytes()[..cut]);
    assert_eq!(journal.records, records[..records.len() - 1]);
    let dropped = journal.dropped.expect("reported");
    assert_eq!(dropped.line, records.len());
    assert_eq!(dropped.reason, "the last line is cut off");
}

#[test]
fn garbage_stops_the_reading_at_that_line() {
    let records = sample();
    let mut text = text_of(&records[..3]);
    text.push_str("{\"kind\":\"no-such-kind\"}\n");
    text.push_str(&text_of(&records[3..]));
    let journal = read(text.as_bytes());
    assert_eq!(journal.records, records[..3]);
    assert_eq!(journal.dropped.map(|d| d.line), Some(4));
    let journal = read(b"\xff\xfe\n");
    assert!(journal.records.is_empty() && journal.dropped.is_some());
}

#[test]
fn blank_lines_are_skipped() {
    let records = sample();
    let text = format!("{}\n\n{}", text_of(&records[..2]), text_of(&records[2..]));
    assert_eq!(read(text.as_bytes()).records, records);
}

#[test]
fn unknown_reasons_for_a_request_still_read() {
    let line = r#"{"kind":"request","t":5,"round":1,"why":"watch-trigger","messages":[]}"#;
    let journal = read(format!("{line}\n").as_bytes());
    let [Record::Request(r)] = journal.records.as_slice() else { panic!("{journal:?}") };
    assert_eq!(r.why, Why::Other);
}

#[test]
fn summary_counts_each_hunk_by_its_last_state() {
    let mut records = sample();
    records.push(hunk(700, "0000000000000001", "rejected"));
    records.push(hunk(700, "0000000000000002", "failed"));
    records.push(hunk(700, "0000000000000003", "pending"));
    let s = summarize(&Journal { records, dropped: None }).expect("header");
    assert_eq!((s.accepted, s.rejected, s.failed, s.pending), (1, 1, 1, 1));
    assert_eq!((s.requests, s.ended, s.duration_ms), (1, true, 700));
    assert_eq!(s.model, "gpt-test");
    assert!(summarize(&Journal::default()).is_none());
}

#[test]
fn urls_lose_credentials_and_queries() {
    assert_eq!(
        sanitize_url("https://user:pw@api.example.com/v1?key=s#x"),
        "https://api.example.com/v1"
    );
    assert_eq!(sanitize_url("http://127.0.0.1:8000/v1"), "http://127.0.0.1:8000/v1");
    assert_eq!(sanitize_url("http://a@b@host:1"), "http://host:1");
    assert_eq!(sanitize_url("tok@localhost:11434"), "localhost:11434");
}

#[test]
fn urls_in_messages_lose_credentials_too() {
    assert_eq!(
        sanitize_urls("cannot reach https://me:pw@host/v1/chat?key=k (refused), then http://a@b"),
        "cannot reach https://host/v1/chat (refused), then http://b"
    );
    assert_eq!(sanitize_urls("no url here"), "no url here");
}

#[test]
fn hashes_ids_and_timestamps() {
    assert_eq!(hash(""), "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert_eq!(parse_hunk_hex(&hunk_hex(u64::MAX)), Some(u64::MAX));
    for id in [0, 1, 0xabc, 0x0123_4567_89ab_cdef, u64::MAX - 1] {
        assert_eq!(hunk_hex(id), format!("{id:016x}"), "ids in journals keep their spelling");
    }
    assert_eq!(utc_timestamp(0), "1970-01-01T00:00:00Z");
    assert_eq!(utc_timestamp(1_709_210_096_000), "2024-02-29T12:34:56Z");
}

#[test]
fn a_journal_cut_at_every_byte_reads_a_prefix() {
    let records = sample();
    let text = text_of(&records);
    let bytes = text.as_bytes();
    let mut ends = vec![0];
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'\n' {
            ends.push(i + 1);
        }
    }
    for cut in 0..=bytes.len() {
        let journal = read(&bytes[..cut]);
        let whole = ends.iter().filter(|&&e| e <= cut).count() - 1;
        assert_eq!(journal.records, records[..whole], "cut at byte {cut}");
        assert_eq!(journal.dropped.is_some(), !ends.contains(&cut), "cut at byte {cut}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let journal = read(&bytes);
        if let Some(d) = &journal.dropped {
            prop_assert!(d.offset + d.bytes == bytes.len());
        }
    }

    #[test]
    fn damage_anywhere_yields_a_prefix(cut in 0usize..2000, junk in proptest::collection::vec(any::<u8>(), 0..40)) {
        let records = sample();
        let text = text_of(&records);
        let cut = cut.min(text.len());
        let mut bytes = text.as_bytes()[..cut].to_vec();
        bytes.extend_from_slice(&junk);
        let journal = read(&bytes);
        prop_assert!(journal.records.len() <= records.len());
        prop_assert_eq!(&journal.records[..], &records[..journal.records.len()]);
    }
}
