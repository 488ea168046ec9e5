//! `redline parse`: run the incremental parser on a reply and print each event as one JSON line
//! the moment it is known. It is the headless view of what the review screen will see, and a
//! way to measure the parser from the outside.
//!
//! From standard input it reads whatever bytes the pipe has (`read`, never `read_to_end`), so a
//! reply piped in from a model while it is still being written shows its edits as they finish.
//! With `--chunk-bytes N` the reply is read whole first and fed in N-byte pieces, in-process.
//!
//! Not for: locating or applying edits (`redline apply`), or deciding anything about the reply
//! (that is `core::stream` and `core::parse`).

use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;

use crate::cli::common::{EditLine, Exit};
use crate::core::edit::{Format, Problem};
use crate::core::parse::{Event, ParseOptions};
use crate::core::stream::StreamParser;

/// How much one `read` asks for from a live pipe.
const READ_BUF: usize = 64 * 1024;

#[derive(Debug, Clone, Args)]
pub struct ParseArgs {
    /// Read the reply whole, then feed it to the parser in pieces of this many bytes.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub chunk_bytes: Option<u64>,
    /// Print `bytes=B chunks=C edits=E elapsed_ms=T` on standard error at the end.
    #[arg(long)]
    pub stats: bool,
    /// The reply to parse; `-` or nothing reads standard input as it arrives.
    #[arg(value_name = "REPLY_FILE")]
    pub reply: Option<PathBuf>,
}

/// One line of output: a block that could not become an edit.
#[derive(Debug, Serialize)]
pub struct ProblemLine<'a> {
    pub problem: &'a str,
    pub path: Option<&'a str>,
    pub format: Format,
    pub reply_lines: (usize, usize),
}

/// What `--stats` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    pub bytes: usize,
    pub chunks: usize,
    pub edits: usize,
    pub elapsed: Duration,
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "bytes={} chunks={} edits={} elapsed_ms={}",
            self.bytes,
            self.chunks,
            self.edits,
            self.elapsed.as_millis()
        )
    }
}

/// `redline parse`: errors are printed here and become [`Exit::Error`].
pub fn parse(args: &ParseArgs) -> Exit {
    match try_parse(args) {
        Ok(stats) => {
            if args.stats {
                say!("{stats}");
            }
            // Status 0: the reply was read to its end, whatever it held.
            Exit::Applied
        }
        Err(err) => {
            say!("redline: error: {err:#}");
            Exit::Error
        }
    }
}

fn try_parse(args: &ParseArgs) -> Result<Stats> {
    // `-` or nothing: standard input.
    let file = args.reply.as_deref().filter(|p| p.as_os_str() != "-");
    let out = io::stdout().lock();
    match (args.chunk_bytes, file) {
        (Some(n), file) => {
            let bytes = read_whole(file)?;
            parse_chunked(&bytes, usize::try_from(n).unwrap_or(usize::MAX), out)
        }
        (None, None) => {
            let stdin = io::stdin().lock();
            if stdin.is_terminal() {
                say!("redline: reading the reply from standard input (end it with Ctrl-D)");
            }
            parse_stream(stdin, "standard input", out)
        }
        (None, Some(path)) => {
            let input = std::fs::File::open(path)
                .with_context(|| format!("cannot read the reply {}", path.display()))?;
            parse_stream(input, &path.display().to_string(), out)
        }
    }
}

fn read_whole(path: Option<&Path>) -> Result<Vec<u8>> {
    match path {
        Some(p) => {
            std::fs::read(p).with_context(|| format!("cannot read the reply {}", p.display()))
        }
        None => {
            let mut bytes = Vec::new();
            io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .context("cannot read the reply from standard input")?;
            Ok(bytes)
        }
    }
}

/// Feed whatever each `read` returns to the parser and print its events at once. `name` says
/// where the input comes from, for errors.
pub fn parse_stream(mut input: impl Read, name: &str, mut out: impl Write) -> Result<Stats> {
    let start = Instant::now();
    let mut parser = StreamParser::new(ParseOptions::default());
    let mut buf = vec![0u8; READ_BUF];
    let mut chunks = 0;
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot read the reply from {name}")),
        };
        chunks += 1;
        write_events(&mut out, &parser.push_bytes(&buf[..n]))?;
    }
    write_events(&mut out, &parser.finish())?;
    Ok(Stats { bytes: parser.bytes(), chunks, edits: parser.edits(), elapsed: start.elapsed() })
}

/// Feed `reply` in pieces of `size` bytes (the last may be shorter) and print the events. The
/// time measured is the parsing and printing, not the reading of the file.
pub fn parse_chunked(reply: &[u8], size: usize, mut out: impl Write) -> Result<Stats> {
    let start = Instant::now();
    let mut parser = StreamParser::new(ParseOptions::default());
    let mut chunks = 0;
    for chunk in reply.chunks(size.max(1)) {
        chunks += 1;
        write_events(&mut out, &parser.push_bytes(chunk))?;
    }
    write_events(&mut out, &parser.finish())?;
    Ok(Stats { bytes: parser.bytes(), chunks, edits: parser.edits(), elapsed: start.elapsed() })
}

/// Print each event as a JSON line, each flushed at once, so a reader on a pipe sees it now.
fn write_events(out: &mut impl Write, events: &[Event]) -> Result<()> {
    let mut line = Vec::new();
    for event in events {
        line.clear();
        write_event_json(&mut line, event);
        line.push(b'\n');
        out.write_all(&line).context("cannot write to standard output")?;
        out.flush().context("cannot write to standard output")?;
    }
    Ok(())
}

/// Append the JSON for one event (without a line end) to `line`.
fn write_event_json(line: &mut Vec<u8>, event: &Event) {
    let result = match event {
        Event::Edit(edit) => serde_json::to_writer(&mut *line, &EditLine::of(edit)),
        Event::Problem(problem) => serde_json::to_writer(&mut *line, &problem_line(problem)),
    };
    // Writing plain strings, numbers and enums into memory cannot fail; say so if it ever does.
    if let Err(e) = result {
        line.clear();
        line.extend_from_slice(
            format!("{{\"problem\":\"cannot serialise the event: {e}\"}}").as_bytes(),
        );
    }
}

fn problem_line(problem: &Problem) -> ProblemLine<'_> {
    ProblemLine {
        problem: &problem.reason,
        path: problem.path.as_deref(),
        format: problem.format,
        reply_lines: problem.reply_lines,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    const REPLY: &str = "Change it:\n\napp.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n\n```diff\n--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+print(1)\n```\n\n```diff\n--- a/gone.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n```\n\nlib.py\n```\n<<<<<<< SEARCH\nunfinished";

    fn lines(out: &[u8]) -> Vec<Value> {
        let text = std::str::from_utf8(out).expect("utf-8");
        text.lines().map(|l| serde_json::from_str(l).expect("json line")).collect()
    }

    #[test]
    fn every_kind_of_event_has_its_line() {
        let mut out = Vec::new();
        let stats = parse_stream(REPLY.as_bytes(), "test", &mut out).expect("parse");
        let got = lines(&out);
        assert_eq!(got.len(), 4, "{got:?}");
        assert_eq!(got[0]["path"], "app.py");
        assert_eq!(got[0]["format"], "search-replace");
        assert_eq!(got[0]["kind"], "modify");
        assert_eq!(got[0]["old"], "x = 1\n");
        assert_eq!(got[0]["new"], "x = 2\n");
        assert_eq!(got[0]["reply_lines"], serde_json::json!([5, 9]));
        assert_eq!(got[1]["kind"], "create");
        assert_eq!(got[1]["path"], "new.py");
        assert_eq!(got[1]["old"], Value::Null);
        assert_eq!(got[1]["new"], "print(1)\n");
        assert_eq!(got[2]["kind"], "delete");
        assert_eq!(got[2]["new"], Value::Null);
        assert_eq!(got[3]["path"], "lib.py");
        assert!(got[3]["problem"].as_str().is_some_and(|p| p.contains("ended inside")));
        assert_eq!(stats.edits, 3);
        assert_eq!(stats.bytes, REPLY.len());
    }

    #[test]
    fn chunked_output_equals_streamed_output() {
        let mut whole = Vec::new();
        parse_stream(REPLY.as_bytes(), "test", &mut whole).expect("parse");
        for size in [1, 2, 3, 7, 64, 10_000] {
            let mut out = Vec::new();
            let stats = parse_chunked(REPLY.as_bytes(), size, &mut out).expect("parse");
            assert_eq!(out, whole, "chunks of {size}");
            assert_eq!(stats.chunks, REPLY.len().div_ceil(size));
        }
    }

    #[test]
    fn a_replace_has_no_old_text() {
        let mut out = Vec::new();
        parse_stream("src/a.rs\n```rust\nfn a() {}\n```\n".as_bytes(), "test", &mut out)
            .expect("parse");
        let got = lines(&out);
        assert_eq!(got[0]["kind"], "replace");
        assert_eq!(got[0]["format"], "whole");
        assert_eq!(got[0]["old"], Value::Null);
        assert_eq!(got[0]["new"], "fn a() {}\n");
    }

    #[test]
    fn stats_format() {
        let stats = Stats { bytes: 10, chunks: 3, edits: 1, elapsed: Duration::from_micros(2_500) };
        assert_eq!(stats.to_string(), "bytes=10 chunks=3 edits=1 elapsed_ms=2");
    }

    struct Failing;
    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("boom"))
        }
    }

    #[test]
    fn a_read_error_names_the_input() {
        let err = parse_stream(Failing, "reply.md", Vec::new()).expect_err("must fail");
        assert!(format!("{err:#}").contains("cannot read the reply from reply.md"), "{err:#}");
    }
}
