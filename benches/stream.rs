//! Throughput of the incremental parser on a ~20 MB realistic reply (prose, SEARCH/REPLACE
//! blocks, fenced and unfenced diffs, whole files, shell listings), fed at once and in 4-byte
//! chunks. The goal: 4-byte chunks cost at most 1.5x the whole feed, and both reach 100 MB/s.
//!
//! Each feed is measured twice: wall-clock time (`stream/...`), and the thread's CPU time
//! (`stream_cpu/...`), which stays meaningful on a machine shared with other builds.
//!
//! `cargo bench --bench stream` runs it. With `REDLINE_BENCH_REPLY=path` set, it only writes the
//! reply to `path` (for timing `redline parse --chunk-bytes 4 --stats` on the same text).

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group};
use redline::core::parse::{Event, ParseOptions};
use redline::core::stream::StreamParser;

const TARGET_BYTES: usize = 20 * 1024 * 1024;

/// A small deterministic generator (no dependency, same reply on every run).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const WORDS: &[&str] = &[
    "the",
    "function",
    "returns",
    "value",
    "instead",
    "of",
    "cache",
    "handler",
    "request",
    "we",
    "should",
    "update",
    "so",
    "that",
    "error",
    "is",
    "reported",
    "when",
    "config",
    "missing",
    "this",
    "keeps",
    "behaviour",
    "tests",
    "pass",
    "and",
    "user",
    "sees",
    "message",
];
const NAMES: &[&str] =
    &["load", "save", "parse", "render", "fetch", "apply", "merge", "update", "check", "build"];
const DIRS: &[&str] = &["src", "src/core", "lib", "app/models", "pkg/util", "tests"];
const EXTS: &[&str] = &["py", "rs", "ts", "go"];

fn path(rng: &mut Rng) -> String {
    format!("{}/{}_{}.{}", rng.pick(DIRS), rng.pick(NAMES), rng.below(500), rng.pick(EXTS))
}

fn prose(rng: &mut Rng, out: &mut String, path: &str) {
    for _ in 0..1 + rng.below(4) {
        let n = 8 + rng.below(20);
        for i in 0..n {
            if i == n / 2 && rng.below(3) == 0 {
                out.push_str(&format!("`{path}` "));
            } else if i == n / 3 && rng.below(4) == 0 {
                out.push_str("**important** ");
            }
            out.push_str(rng.pick(WORDS));
            out.push(if i + 1 == n { '.' } else { ' ' });
        }
        out.push('\n');
    }
    out.push('\n');
}

fn code_lines(rng: &mut Rng, n: usize) -> Vec<String> {
    let mut lines = Vec::with_capacity(n);
    let name = rng.pick(NAMES);
    lines.push(format!("def {name}_{}(self, value, options=None):", rng.below(1000)));
    for i in 1..n {
        let indent = "    ".repeat(1 + rng.below(3));
        let line = match rng.below(6) {
            0 => String::new(),
            1 => format!("{indent}# {} {} {}", rng.pick(WORDS), rng.pick(WORDS), rng.pick(WORDS)),
            2 => format!("{indent}if value is None or len(value) > {i}:"),
            3 => format!("{indent}return self.{}(value, key=\"é{i}\")", rng.pick(NAMES)),
            _ => format!("{indent}result_{i} = {}(value[{i}], options)", rng.pick(NAMES)),
        };
        lines.push(line);
    }
    lines
}

fn search_replace(rng: &mut Rng, out: &mut String, path: &str) {
    let n = 8 + rng.below(24);
    let old = code_lines(rng, n);
    let mut new = old.clone();
    for _ in 0..1 + rng.below(4) {
        let i = rng.below(new.len());
        new[i] = format!("    changed = {}(value)  # {}", rng.pick(NAMES), rng.pick(WORDS));
    }
    out.push_str(&format!("{path}\n```python\n<<<<<<< SEARCH\n"));
    for l in &old {
        out.push_str(l);
        out.push('\n');
    }
    out.push_str("=======\n");
    for l in &new {
        out.push_str(l);
        out.push('\n');
    }
    out.push_str(">>>>>>> REPLACE\n```\n\n");
}

fn udiff(rng: &mut Rng, out: &mut String, path: &str, fenced: bool) {
    if fenced {
        out.push_str("```diff\n");
    }
    out.push_str(&format!("--- a/{path}\n+++ b/{path}\n"));
    for h in 0..1 + rng.below(3) {
        out.push_str(&format!("@@ -{0},12 +{0},13 @@\n", 10 + h * 40));
        let n = 6 + rng.below(20);
        for l in code_lines(rng, n) {
            let mark = match rng.below(5) {
                0 => '-',
                1 => '+',
                _ => ' ',
            };
            out.push(mark);
            out.push_str(&l);
            out.push('\n');
        }
    }
    if fenced {
        out.push_str("```\n");
    }
    out.push('\n');
}

fn whole(rng: &mut Rng, out: &mut String, path: &str) {
    out.push_str(&format!("{path}\n```python\n"));
    let n = 20 + rng.below(60);
    for l in code_lines(rng, n) {
        out.push_str(&l);
        out.push('\n');
    }
    out.push_str("```\n\n");
}

/// The benchmark's reply: about `target` bytes.
fn reply(target: usize) -> String {
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let mut out = String::with_capacity(target + 4096);
    while out.len() < target {
        let p = path(&mut rng);
        prose(&mut rng, &mut out, &p);
        match rng.below(10) {
            0..=3 => search_replace(&mut rng, &mut out, &p),
            4..=6 => udiff(&mut rng, &mut out, &p, true),
            7 => udiff(&mut rng, &mut out, &p, false),
            8 => whole(&mut rng, &mut out, &p),
            _ => out.push_str("```bash\ncargo test --release\n```\n\n"),
        }
    }
    out
}

/// Every event of the reply fed in `chunk`-byte pieces, kept as a consumer would keep them.
fn feed(bytes: &[u8], chunk: usize) -> Vec<Event> {
    let mut parser = StreamParser::new(ParseOptions::default());
    let mut events = Vec::new();
    for piece in bytes.chunks(chunk) {
        let new = parser.push_bytes(piece);
        if !new.is_empty() {
            events.extend(new);
        }
    }
    events.extend(parser.finish());
    events
}

/// The calling thread's CPU time, in nanoseconds.
fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant Linux supports.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Criterion's clock replaced by the thread's CPU time (same units and formatting).
struct CpuTime(WallTime);

impl Measurement for CpuTime {
    type Intermediate = u64;
    type Value = Duration;
    fn start(&self) -> u64 {
        thread_cpu_ns()
    }
    fn end(&self, start: u64) -> Duration {
        Duration::from_nanos(thread_cpu_ns().saturating_sub(start))
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        self.0.formatter()
    }
}

fn feeds<M: Measurement>(group: &mut BenchmarkGroup<'_, M>, bytes: &[u8]) {
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(6));
    // Freeing the events (every line of every hunk) is the consumer's cost, not timed.
    group.bench_function("whole", |b| {
        b.iter_with_large_drop(|| feed(black_box(bytes), bytes.len()))
    });
    group.bench_function("chunks_4", |b| b.iter_with_large_drop(|| feed(black_box(bytes), 4)));
}

fn bench_stream(c: &mut Criterion) {
    let text = reply(TARGET_BYTES);
    let mut group = c.benchmark_group("stream");
    feeds(&mut group, text.as_bytes());
    group.finish();
}

fn bench_stream_cpu(c: &mut Criterion<CpuTime>) {
    let text = reply(TARGET_BYTES);
    let mut group = c.benchmark_group("stream_cpu");
    feeds(&mut group, text.as_bytes());
    group.finish();
}

criterion_group!(benches, bench_stream);
criterion_group! {
    name = benches_cpu;
    config = Criterion::default().with_measurement(CpuTime(WallTime));
    targets = bench_stream_cpu
}

fn main() {
    if let Some(path) = std::env::var_os("REDLINE_BENCH_REPLY") {
        let text = reply(TARGET_BYTES);
        if let Err(e) = std::fs::write(&path, &text) {
            eprintln!("cannot write the reply to {}: {e}", path.to_string_lossy());
            std::process::exit(2);
        }
        eprintln!("wrote {} bytes to {}", text.len(), path.to_string_lossy());
        return;
    }
    benches();
    benches_cpu();
    Criterion::default().configure_from_args().final_summary();
}
