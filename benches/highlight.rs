//! Syntax colour, rows per second, on a large generated diff: a 20,000-line Python file with
//! two lines in every thirty changed, as a unified diff with three lines of context (written to
//! `target/highlight-big.diff`, so delta can be timed on the same diff:
//! `delta --no-gitconfig --paging=never < target/highlight-big.diff > /dev/null`). Each of the
//! diff's hunks is highlighted as the review highlights a hunk: its whole old side and whole
//! new side (context lines on both, coloured once where both sides reach them in the same parser
//! state), afresh (distinct ids defeat the cache). Throughput is counted in the diff's lines, as
//! delta's would be. Also printed: lines parsed per diff line, and what starting a highlighter
//! costs (loading the syntaxes and theme) the first time in a process and after.
//!
//! `cargo bench --bench highlight` (oniguruma, the default engine);
//! `cargo bench --bench highlight --no-default-features --features fancy` (fancy-regex).

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use redline::app::diff_model::DiffModel;
use redline::ui::highlight::Highlighter;
use similar::TextDiff;

mod support;

/// The binary's allocator (`src/main.rs`), so that the bench measures what the binary does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The two versions of the file, and the unified diff between them.
fn versions() -> (String, String) {
    let (old, _) = support::generate(20_000, &["import logging", "log = logging.getLogger()"]);
    // Two lines changed in every 30: separate hunks of about ten lines each.
    let new: Vec<String> = old
        .iter()
        .enumerate()
        .map(|(i, l)| match i % 30 {
            3 | 6 if l.trim().is_empty() => "    # spacer".to_string(),
            3 => format!("{l}  # reviewed"),
            6 => {
                let changed = l.replace("total", "subtotal").replace("items", "rows");
                if changed == *l { format!("{l}  # checked") } else { changed }
            }
            _ => l.clone(),
        })
        .collect();
    (old.join("\n") + "\n", new.join("\n") + "\n")
}

fn bench(c: &mut Criterion) {
    let (old, new) = versions();
    let diff = TextDiff::from_lines(&old, &new);
    let text =
        diff.unified_diff().context_radius(3).header("a/service.py", "b/service.py").to_string();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/highlight-big.diff");
    std::fs::write(&path, &text).expect("target/ is writable");
    let diff_lines = text.lines().count();
    let old_lines: Vec<&str> = old.lines().collect();
    let new_lines: Vec<&str> = new.lines().collect();
    let models: Vec<DiffModel> = diff
        .grouped_ops(3)
        .iter()
        .map(|group| {
            let (first, last) = (&group[0], &group[group.len() - 1]);
            let o = first.old_range().start..last.old_range().end;
            let n = first.new_range().start..last.new_range().end;
            let side = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
            DiffModel::between(side(&old_lines[o]), side(&new_lines[n]))
        })
        .collect();
    let rows: usize = models.iter().map(|m| m.old.len() + m.new.len()).sum();
    let engine = if cfg!(feature = "onig") { "onig" } else { "fancy_regex" };
    eprintln!(
        "highlight: {} hunks, {diff_lines} diff lines, {rows} rows highlighted (both sides), diff at {}",
        models.len(),
        path.display()
    );
    let t = Instant::now();
    let mut hl = Highlighter::new("Monokai Extended");
    let first = t.elapsed();
    let t = Instant::now();
    black_box(Highlighter::new("Monokai Extended"));
    eprintln!("highlight: starting a highlighter {first:?} first, {:?} after", t.elapsed());
    let mut id = 0u64;
    let mut g = c.benchmark_group("highlight");
    g.sample_size(10);
    g.throughput(Throughput::Elements(diff_lines as u64));
    g.bench_function(format!("big_diff_{engine}"), |b| {
        b.iter(|| {
            for m in &models {
                id += 1;
                hl.prepare(id, "service.py", black_box(m));
            }
        })
    });
    g.finish();
    let per_pass = hl.lines_parsed() as f64 / (id as f64 / models.len() as f64);
    eprintln!(
        "highlight: {per_pass:.0} lines parsed per pass, {:.2} per diff line",
        per_pass / diff_lines as f64
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
