//! The incremental parser: a reply fed chunk by chunk, split anywhere (inside a line, inside a
//! UTF-8 character, between `\r` and `\n`), gives exactly the events of the whole reply, each as
//! soon as the line that finishes it arrives.
//!
//! This module only frames chunks into lines; [`crate::core::parse::Parser`] does the rest. Each
//! byte is looked at once when framed and once when parsed: cost is linear in the reply. The
//! unfinished tail ([`StreamParser::tail`]) may be shown, never applied.
//!
//! Framing is kept cheap enough that feeding 4 bytes at a time costs well under 1.5x feeding the
//! reply whole (`benches/stream.rs`): valid lines are borrowed, never copied; a chunk's complete
//! lines are checked as UTF-8 in one call (a line with bad bytes is decoded alone, with U+FFFD);
//! a short chunk inside a line is an inlined append.

use crate::core::parse::{Event, ParseOptions, Parser};

/// A reply parser fed in chunks.
#[derive(Debug)]
pub struct StreamParser {
    parser: Parser,
    /// Bytes after the last `\n`: an unfinished line, possibly ending inside a UTF-8 character.
    pending: Vec<u8>,
    edits: usize,
    bytes: usize,
}

impl StreamParser {
    pub fn new(options: ParseOptions) -> Self {
        StreamParser { parser: Parser::new(options), pending: Vec::new(), edits: 0, bytes: 0 }
    }

    /// Feed a chunk of text.
    pub fn push_str(&mut self, chunk: &str) -> Vec<Event> {
        self.push_bytes(chunk.as_bytes())
    }

    /// Feed a chunk of bytes, split anywhere.
    #[inline]
    pub fn push_bytes(&mut self, chunk: &[u8]) -> Vec<Event> {
        self.bytes += chunk.len();
        // The common case of a live stream, a few bytes inside a line, is kept small enough to
        // inline into the caller's loop.
        if chunk.len() < SHORT && !chunk.contains(&b'\n') {
            // Byte by byte: for a handful of bytes, cheaper than a call to `memcpy`.
            self.pending.reserve(chunk.len());
            for &b in chunk {
                self.pending.push(b);
            }
            return Vec::new();
        }
        self.push_lines(chunk)
    }

    /// [`Self::push_bytes`] for a chunk that may hold line ends.
    fn push_lines(&mut self, chunk: &[u8]) -> Vec<Event> {
        let mut events = Vec::new();
        // Only the part up to the chunk's last `\n` holds finished lines.
        let Some(last_nl) = last_newline(chunk) else {
            self.pending.extend_from_slice(chunk);
            return events;
        };
        let (mut lines, rest) = chunk.split_at(last_nl + 1);
        if !self.pending.is_empty()
            && let Some(nl) = first_newline(lines)
        {
            self.pending.extend_from_slice(&lines[..nl]);
            push_line(&mut self.parser, &self.pending, &mut events);
            self.pending.clear();
            lines = &lines[nl + 1..];
        }
        if lines.is_empty() {
            // A live stream's usual case: the chunk finished the pending line and no other.
            self.pending.extend_from_slice(rest);
            self.count(&events);
            return events;
        }
        // The chunk's whole lines are checked as UTF-8 at once (cutting valid text at `\n`
        // leaves valid lines); only when that fails is each line checked on its own.
        match std::str::from_utf8(lines) {
            Ok(text) => {
                let mut start = 0;
                for nl in memchr::memchr_iter(b'\n', lines) {
                    events_extend(&mut events, self.parser.push_line(&text[start..nl]));
                    start = nl + 1;
                }
            }
            Err(_) => {
                let mut start = 0;
                for nl in memchr::memchr_iter(b'\n', lines) {
                    push_line(&mut self.parser, &lines[start..nl], &mut events);
                    start = nl + 1;
                }
            }
        }
        self.pending.extend_from_slice(rest);
        self.count(&events);
        events
    }

    /// The reply ended: its last line (if unterminated) is read, and what was left unfinished is
    /// reported.
    pub fn finish(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        if !self.pending.is_empty() {
            push_line(&mut self.parser, &self.pending, &mut events);
            self.pending.clear();
        }
        events.extend(self.parser.finish());
        self.count(&events);
        events
    }

    /// The text after the last complete line, as far as it is valid UTF-8.
    pub fn tail(&self) -> &str {
        match std::str::from_utf8(&self.pending) {
            Ok(s) => s,
            Err(e) => std::str::from_utf8(&self.pending[..e.valid_up_to()]).unwrap_or(""),
        }
    }

    /// Finished edits so far.
    pub fn edits(&self) -> usize {
        self.edits
    }

    /// Bytes fed so far.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    fn count(&mut self, events: &[Event]) {
        self.edits += events.iter().filter(|e| matches!(e, Event::Edit(_))).count();
    }
}

/// Parse one framed line. Valid UTF-8 (nearly always) is borrowed as it is; only a line with
/// invalid bytes is copied, with each bad sequence replaced by U+FFFD.
fn push_line(parser: &mut Parser, line: &[u8], events: &mut Vec<Event>) {
    let parsed = match std::str::from_utf8(line) {
        Ok(line) => parser.push_line(line),
        Err(_) => parser.push_line(&String::from_utf8_lossy(line)),
    };
    events_extend(events, parsed);
}

/// Below this many bytes a plain loop finds a byte faster than a call into `memchr`: a live
/// stream's chunks are often a few bytes long.
const SHORT: usize = 32;

fn first_newline(bytes: &[u8]) -> Option<usize> {
    if bytes.len() < SHORT {
        bytes.iter().position(|b| *b == b'\n')
    } else {
        memchr::memchr(b'\n', bytes)
    }
}

fn last_newline(bytes: &[u8]) -> Option<usize> {
    if bytes.len() < SHORT {
        bytes.iter().rposition(|b| *b == b'\n')
    } else {
        memchr::memrchr(b'\n', bytes)
    }
}

/// Append `more` to `events`, without copying when `events` is still empty.
fn events_extend(events: &mut Vec<Event>, more: Vec<Event>) {
    if events.is_empty() {
        *events = more;
    } else {
        events.extend(more);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::parse::parse_reply;

    const REPLY: &str = "Intro é\r\n\r\napp.py\r\n```python\r\n<<<<<<< SEARCH\r\nx = 'é'\r\n=======\r\nx = '€'\r\n>>>>>>> REPLACE\r\n```\r\n```diff\n--- a/b.py\n+++ b/b.py\n@@\n a\n-b\n+c\n```\ntrailing";

    #[test]
    fn any_split_gives_the_whole_replys_events() {
        let whole = parse_reply(REPLY, ParseOptions::default());
        assert_eq!(whole.len(), 2);
        let bytes = REPLY.as_bytes();
        for size in 1..8 {
            let mut p = StreamParser::new(ParseOptions::default());
            let mut got = Vec::new();
            for chunk in bytes.chunks(size) {
                got.extend(p.push_bytes(chunk));
            }
            got.extend(p.finish());
            assert_eq!(got, whole, "chunks of {size}");
        }
    }

    #[test]
    fn an_edit_arrives_with_its_closing_line() {
        let mut p = StreamParser::new(ParseOptions::default());
        let cut = REPLY.find(">>>>>>> REPLACE").unwrap();
        assert!(p.push_str(&REPLY[..cut]).is_empty());
        assert_eq!(p.push_str(">>>>>>> REPLACE\r\n").len(), 1);
        assert_eq!(p.edits(), 1);
        p.push_str("part");
        assert_eq!(p.tail(), "part");
    }
}
