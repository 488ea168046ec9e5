//! How cost follows the data (issue 14): a reply of 100 / 1,000 / 10,000 hunks streamed into the
//! review in 20-byte chunks with the journal on and off (the UI task's time, parsing on the
//! stream side's reader thread and placing on a worker thread as the loop does; and the time
//! until every hunk is placed), and only parsed (`redline
//! parse`'s work); one key press at each size; 1,000 hunks
//! in one 20,000-line file; `apply --dry-run`'s work (plan and execute) on a 1 MB and a 20 MB
//! reply against 1,200 project files; and highlighted rows per second on a generated diff.
//!
//! `cargo bench --bench scale` (add a filter: `cargo bench --bench scale -- stream`).

use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use redline::app::diff_model::DiffModel;
use redline::app::key::{KeyCode, KeyEvent};
use redline::app::record::Recorder;
use redline::app::{App, AppConfig, AppEffect, Msg, StreamDone};
use redline::core::file::Source;
use redline::core::parse::ParseOptions;
use redline::core::plan::{self, FormatChoice};
use redline::core::review::{PlaceJob, PlaceResult};
use redline::core::stream::StreamParser;
use redline::shell::runtime::stream::{Piece, reader};
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

/// Stream the reply in 20-byte chunks (cut at character boundaries) into the review, with a
/// recorder or not, as the loop does: the chunks go to the stream side's reader thread, which
/// parses them and passes each on with its edits; each placing job goes to a worker thread, and
/// the outcomes are fed back as they come (between the reader's messages, then the rest after
/// the stream's end). Gives the app, the recorder, the UI task's time (every update and the
/// handing out of jobs, not the waits) and the wall time until every hunk was placed.
fn stream(p: &Project, journal: bool) -> (App, Option<Recorder>, Duration, Duration) {
    let wall = Instant::now();
    let mut ui = Ui { app: app_of(p), rec: journal.then(Recorder::new), busy: Duration::ZERO };
    let (jobs, results, worker) = placing_worker();
    let now = Instant::now();
    let started = ui.send(None, now);
    let Some(AppEffect::StartStream { parse, .. }) =
        started.iter().find(|e| matches!(e, AppEffect::StartStream { .. }))
    else {
        panic!("the review starts its stream")
    };
    let (tx, mut from_reader) = tokio::sync::mpsc::unbounded_channel();
    let pieces = reader(parse.clone(), tx);
    let mut out = hand_out(started, &jobs);
    // The server's side: the reply as it arrives, all at once here (the network is not
    // measured), so the UI task takes the reader's messages as fast as it can.
    let text = p.reply.as_str();
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + 20).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        pieces.send(Piece::Text(text[at..end].to_string())).expect("the reader runs");
        at = end;
    }
    pieces.send(Piece::Done(StreamDone::default())).expect("the reader runs");
    loop {
        let msg = from_reader.blocking_recv().expect("the reader ends the stream");
        let end = matches!(msg, Msg::StreamEnd(_));
        out += hand_out(ui.send(Some(msg), now), &jobs);
        while let Ok(r) = results.try_recv() {
            out -= 1;
            out += hand_out(ui.send(Some(Msg::Placed(r)), now), &jobs);
        }
        if end {
            break;
        }
    }
    while out > 0 {
        let r = results.recv().expect("the worker answers every job");
        out -= 1;
        out += hand_out(ui.send(Some(Msg::Placed(r)), now), &jobs);
    }
    drop(jobs);
    worker.join().expect("the worker ends");
    let wall = wall.elapsed();
    (ui.app, ui.rec, ui.busy, wall)
}

/// The UI task's side: the app, its recorder, and the time spent in it.
struct Ui {
    app: App,
    rec: Option<Recorder>,
    busy: Duration,
}

impl Ui {
    /// Feed a message (`None`: the app's start), timed.
    fn send(&mut self, msg: Option<Msg>, now: Instant) -> Vec<AppEffect> {
        let t0 = Instant::now();
        let effects = match (self.rec.as_mut(), msg) {
            (Some(r), Some(msg)) => r.update(&mut self.app, msg, now, 0).0,
            (Some(r), None) => r.start(&mut self.app, now, 0).0,
            (None, Some(msg)) => self.app.update(msg, now),
            (None, None) => self.app.start(now),
        };
        self.busy += t0.elapsed();
        effects
    }
}

/// A thread that places hunks: jobs in, outcomes out.
fn placing_worker() -> (mpsc::Sender<PlaceJob>, mpsc::Receiver<PlaceResult>, JoinHandle<()>) {
    let (jobs, job_rx) = mpsc::channel::<PlaceJob>();
    let (result_tx, results) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        for job in job_rx {
            if result_tx.send(job.run()).is_err() {
                break;
            }
        }
    });
    (jobs, results, worker)
}

/// Hand the placing jobs among `effects` to the worker; how many.
fn hand_out(effects: Vec<AppEffect>, jobs: &mpsc::Sender<PlaceJob>) -> usize {
    let mut n = 0;
    for e in effects {
        if let AppEffect::Place(job) = e {
            jobs.send(job).expect("the worker takes jobs");
            n += 1;
        }
    }
    n
}

fn streaming(c: &mut Criterion) {
    let mut g = c.benchmark_group("stream_into_review");
    g.sample_size(10);
    for (n, files) in [(100, 5), (1_000, 50), (10_000, 500)] {
        let p = project(files, 20, 0);
        g.throughput(Throughput::Elements(n));
        for journal in [true, false] {
            // The UI task's time: what holds up keys and frames.
            let id = BenchmarkId::new(if journal { "journal_on" } else { "journal_off" }, n);
            g.bench_function(id, |b| b.iter_custom(|iters| repeat(iters, &p, journal).0));
        }
        // Until the last hunk is placed, the worker's share included (2 cores here).
        let id = BenchmarkId::new("journal_on_all_placed", n);
        g.bench_function(id, |b| b.iter_custom(|iters| repeat(iters, &p, true).1));
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

/// `iters` streams: the UI task's time and the wall time, summed (the review's drop aside).
fn repeat(iters: u64, p: &Project, journal: bool) -> (Duration, Duration) {
    let (mut busy, mut wall) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..iters {
        let (app, rec, b, w) = stream(p, journal);
        assert_eq!(app.review.counts().placing, 0);
        busy += b;
        wall += w;
        drop(black_box((app, rec)));
    }
    (busy, wall)
}

fn keys(c: &mut Criterion) {
    let mut g = c.benchmark_group("key_with_journal");
    for (n, files) in [(100, 5), (1_000, 50), (10_000, 500)] {
        let p = project(files, 20, 0);
        let (mut app, rec, _, _) = stream(&p, true);
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
    g.bench_function("stream_1000_hunks_journal_on", |b| {
        b.iter_custom(|iters| repeat(iters, &p, true).0)
    });
    // `A` with every hunk placed: the update that accepts them all, journal on (the write
    // itself is the shell's, not timed).
    g.bench_function("accept_all_1000_hunks_journal_on", |b| {
        b.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for _ in 0..iters {
                let (mut app, rec, _, _) = stream(&p, true);
                let mut rec = rec.expect("a recorder");
                let key = Msg::Key(KeyEvent::from(KeyCode::Char('A')));
                let t0 = Instant::now();
                let effects = rec.update(&mut app, key, Instant::now(), 1);
                spent += t0.elapsed();
                assert!(!effects.0.is_empty(), "accepting all writes the file");
            }
            spent
        })
    });
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
    let (app, _, _, _) = stream(&p, false);
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
