//! How cost follows the data (issue 14): a reply of 100 / 1,000 / 10,000 hunks streamed into the
//! review in 20-byte chunks with the journal on and off, and only parsed (`redline parse`'s work); one key press at each size; 1,000 hunks
//! in one 20,000-line file; `apply --dry-run`'s work (plan and execute) on a 1 MB and a 20 MB
//! reply against 1,200 project files; and highlighted rows per second on a generated diff.
//!
//! `cargo bench --bench scale` (add a filter: `cargo bench --bench scale -- stream`).

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Instant;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use redline::app::diff_model::DiffModel;
use redline::app::key::{KeyCode, KeyEvent};
use redline::app::record::Recorder;
use redline::app::{App, AppConfig, Msg, StreamDone};
use redline::core::file::Source;
use redline::core::parse::ParseOptions;
use redline::core::plan::{self, FormatChoice};
use redline::core::stream::StreamParser;
use redline::ui::highlight::Highlighter;

/// The binary's allocator (`src/main.rs`), so that the bench measures what the binary does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A project of `files` Python files of `funcs` functions each, and a reply with one
/// SEARCH/REPLACE block per function (with `prose` lines of text before each).
struct Project {
    paths: Vec<String>,
    sources: BTreeMap<String, Source>,
    reply: String,
}

fn project(files: usize, funcs: usize, prose: usize) -> Project {
    let mut paths = Vec::new();
    let mut sources = BTreeMap::new();
    let mut reply = String::from("Here are the changes.\n\n");
    for f in 0..files {
        let path = format!("pkg_{}/module_{f:04}.py", f % 17);
        let mut text = String::new();
        for g in 0..funcs {
            text.push_str(&format!(
                "def function_{g}(value):\n    total = value * {g}\n    return total + {f}\n\n\n"
            ));
            for _ in 0..prose {
                reply.push_str("This keeps the behaviour and makes the total one larger.\n");
            }
            reply.push_str(&format!(
                "{path}\n```python\n<<<<<<< SEARCH\ndef function_{g}(value):\n    total = value * {g}\n=======\ndef function_{g}(value):\n    total = value * {g} + 1\n>>>>>>> REPLACE\n```\n\n"
            ));
        }
        paths.push(path.clone());
        sources.insert(path, Source::Text(text));
    }
    Project { paths, sources, reply }
}

fn app_of(p: &Project) -> App {
    App::new(AppConfig {
        label: "bench".into(),
        ..AppConfig::new(p.paths.clone(), p.sources.clone(), "x")
    })
}

/// Stream the reply in 20-byte chunks (cut at character boundaries), with a recorder or not.
fn stream(p: &Project, journal: bool) -> (App, Option<Recorder>) {
    let mut app = app_of(p);
    let now = Instant::now();
    let mut rec = journal.then(Recorder::new);
    match rec.as_mut() {
        Some(r) => drop(r.start(&mut app, now, 0)),
        None => drop(app.start(now)),
    }
    let mut send = |app: &mut App, msg: Msg| match rec.as_mut() {
        Some(r) => drop(black_box(r.update(app, msg, now, 0))),
        None => drop(black_box(app.update(msg, now))),
    };
    let text = p.reply.as_str();
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + 20).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        send(&mut app, Msg::Chunk(text[at..end].to_string()));
        at = end;
    }
    send(&mut app, Msg::StreamEnd(StreamDone::default()));
    (app, rec)
}

fn streaming(c: &mut Criterion) {
    let mut g = c.benchmark_group("stream_into_review");
    g.sample_size(10);
    for (n, files) in [(100, 5), (1_000, 50), (10_000, 500)] {
        let p = project(files, 20, 0);
        g.throughput(Throughput::Elements(n));
        for journal in [true, false] {
            let id = BenchmarkId::new(if journal { "journal_on" } else { "journal_off" }, n);
            g.bench_function(id, |b| b.iter(|| stream(&p, journal)));
        }
        // What `redline parse` does with the same reply in the same chunks (its JSON printing
        // aside): the floor the review's streaming is measured against.
        g.bench_function(BenchmarkId::new("parse_only", n), |b| {
            b.iter(|| {
                let mut parser = StreamParser::new(ParseOptions::default());
                for chunk in p.reply.as_bytes().chunks(20) {
                    black_box(parser.push_bytes(chunk));
                }
                black_box(parser.finish())
            })
        });
    }
    g.finish();
}

fn keys(c: &mut Criterion) {
    let mut g = c.benchmark_group("key_with_journal");
    for (n, files) in [(100, 5), (1_000, 50), (10_000, 500)] {
        let p = project(files, 20, 0);
        let (mut app, rec) = stream(&p, true);
        let mut rec = rec.expect("a recorder");
        let now = Instant::now();
        let (down, up) = (KeyEvent::from(KeyCode::Down), KeyEvent::from(KeyCode::Up));
        let mut flip = false;
        g.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                flip = !flip;
                let key = if flip { down } else { up };
                black_box(rec.update(&mut app, Msg::Key(key), now, 1));
            })
        });
    }
    g.finish();
}

fn large_file(c: &mut Criterion) {
    // One file of 4,000 functions (20,000 lines), a hunk for each of 1,000 of them.
    let mut p = project(1, 4_000, 0);
    let path = p.paths[0].clone();
    let cut = p.reply.match_indices(&format!("{path}\n```")).nth(1_000).map(|(i, _)| i);
    p.reply.truncate(cut.unwrap_or(p.reply.len()));
    let mut g = c.benchmark_group("file_20000_lines");
    g.sample_size(10);
    g.throughput(Throughput::Elements(1_000));
    g.bench_function("stream_1000_hunks_journal_on", |b| b.iter(|| stream(&p, true)));
    g.finish();
}

fn apply_dry_run(c: &mut Criterion) {
    let mut g = c.benchmark_group("apply_dry_run_1200_files");
    g.sample_size(10);
    // ~1 MB: 1,200 hunks; ~20 MB: 12,000 hunks, with prose between them.
    for (label, funcs, prose) in [("1MB", 1, 12), ("20MB", 10, 30)] {
        let p = project(1_200, funcs.max(1), prose);
        let mb = p.reply.len() as f64 / 1e6;
        eprintln!("apply_dry_run {label}: reply {mb:.1} MB");
        g.throughput(Throughput::Bytes(p.reply.len() as u64));
        g.bench_function(label, |b| {
            b.iter(|| {
                let plan = plan::plan(&p.reply, FormatChoice::Auto, &p.paths);
                let sources: BTreeMap<String, Source> = plan
                    .paths_to_read()
                    .into_iter()
                    .map(|path| (path.clone(), p.sources[&path].clone()))
                    .collect();
                black_box(redline::core::execute::run(&plan, &sources))
            })
        });
    }
    g.finish();
}

fn highlight(c: &mut Criterion) {
    // The 1,000-hunk review's diff models, highlighted afresh (distinct ids defeat the cache).
    let p = project(50, 20, 0);
    let (app, _) = stream(&p, false);
    let models: Vec<(String, DiffModel)> = app
        .review
        .hunks()
        .iter()
        .map(|h| (h.path.clone(), DiffModel::of(h, app.review.source(&h.path))))
        .collect();
    let rows: usize = models.iter().map(|(_, m)| m.old.len() + m.new.len()).sum();
    let mut hl = Highlighter::new("Monokai Extended");
    let mut id = 0u64;
    let mut g = c.benchmark_group("highlight");
    g.sample_size(10);
    g.throughput(Throughput::Elements(rows as u64));
    g.bench_function("rows_python", |b| {
        b.iter(|| {
            for (path, model) in &models {
                id += 1;
                hl.prepare(id, path, model);
            }
        })
    });
    g.finish();
}

criterion_group!(benches, streaming, keys, large_file, apply_dry_run, highlight);
criterion_main!(benches);
