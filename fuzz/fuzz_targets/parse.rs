//! Fuzzes the reply parsers: arbitrary bytes, read as lossy UTF-8, through `parse_reply`, and the
//! same bytes through `StreamParser` in chunks whose sizes the input itself drives. Both must not
//! panic, and must agree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use redline::core::parse::{ParseOptions, parse_reply};
use redline::core::stream::StreamParser;

fuzz_target!(|data: &[u8]| {
    // The first byte seeds the chunk sizes; the rest is the reply.
    let Some((&seed, body)) = data.split_first() else { return };
    let reply = String::from_utf8_lossy(body);
    let whole = parse_reply(&reply, ParseOptions::default());

    let bytes = reply.as_bytes();
    let mut stream = StreamParser::new(ParseOptions::default());
    let mut events = Vec::new();
    let mut at = 0;
    let mut step = seed as usize;
    let mut finished = 0;
    while at < bytes.len() {
        let len = 1 + step % 17;
        let end = (at + len).min(bytes.len());
        events.extend(stream.push_bytes(&bytes[at..end]));
        assert!(stream.edits() >= finished, "finished edits went down");
        finished = stream.edits();
        at = end;
        // Next chunk size from the byte just consumed, so the input drives the chunking.
        step = step.wrapping_mul(31).wrapping_add(bytes[end - 1] as usize);
    }
    events.extend(stream.finish());
    assert_eq!(events, whole, "streamed events differ from the whole reply's");
});
