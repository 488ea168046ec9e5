//! Re-locating the pending hunks of a 10,000-line file after it changed on disk
//! (`Review::file_changed`, what a watcher event triggers). The budget is 100 ms.
//!
//! The file is generated Python: classes of 10-line methods that look alike (many `total = 0`,
//! `for item in items:` and `return total` lines). The review holds 20 or 100 pending
//! SEARCH/REPLACE hunks spread evenly through it, each a whole method with one line changed.
//! Two changes are measured:
//!
//! - `shift`: five lines inserted near the top, so every hunk moves and each stays pending at its
//!   new place;
//! - `conflict`: the same insertion, and one hunk's method rewritten so its old text is gone (it
//!   becomes a conflict; the others stay pending).
//!
//! Only `file_changed` is timed (cloning the review before each call is not).
//! Run: `cargo bench --bench relocate`.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use redline::core::edit::{Change, Edit, Format, Hunk, PathSource};
use redline::core::file::Source;
use redline::core::parse::Event;
use redline::core::review::{HunkState, Review};

const PATH: &str = "src/service.py";
const FILE_LINES: usize = 10_000;

mod support;

/// `lines` lines of Python: a module header, then classes of 10-line methods; the index of each
/// method's `def` line is returned too.
fn generate(lines: usize) -> (Vec<String>, Vec<usize>) {
    let header = [
        "\"\"\"Order handling.\"\"\"",
        "",
        "import logging",
        "",
        "log = logging.getLogger(__name__)",
        "",
    ];
    support::generate(lines, &header)
}

fn join(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// A review of the file with `hunks` pending edits, one per method chosen evenly through it, and
/// the methods those edits target.
fn review(file: &[String], defs: &[usize], hunks: usize) -> (Review, Vec<usize>) {
    let mut sources = BTreeMap::new();
    sources.insert(PATH.to_string(), Source::Text(join(file)));
    let mut review = Review::new(vec![PATH.to_string()], sources);
    let step = defs.len() / hunks;
    let targets: Vec<usize> = (0..hunks).map(|h| defs[h * step + step / 2]).collect();
    for (n, &at) in targets.iter().enumerate() {
        let old: Vec<String> = file[at..at + 9].to_vec();
        let mut new = old.clone();
        new[6] = format!("{} + 1", new[6]);
        let edit = Edit {
            path: PATH.to_string(),
            path_source: PathSource::PathLine,
            format: Format::SearchReplace,
            change: Change::Modify { hunk: Hunk::from_old_new(&old, &new) },
            reply_lines: (n * 14 + 1, n * 14 + 13),
        };
        assert!(review.add_event(Event::Edit(edit)).is_empty(), "the file is known");
    }
    assert_eq!(review.counts().pending, hunks, "every hunk placed");
    (review, targets)
}

/// The file with five lines inserted after the module docstring.
fn shifted(file: &[String]) -> Vec<String> {
    let mut out = file.to_vec();
    let added = ["import os", "import sys", "", "DEBUG = os.environ.get(\"DEBUG\")", ""];
    out.splice(1..1, added.iter().map(|s| s.to_string()));
    out
}

/// The shifted file with the method at `at` (an index into the original file) rewritten.
fn conflicting(file: &[String], at: usize) -> Vec<String> {
    let mut out = shifted(file);
    let at = at + 5;
    let body = [
        "    def replaced_handler(self, request):",
        "        \"\"\"Rewritten by hand while the review was open.\"\"\"",
        "        return sum(x.amount for x in self.fetch_all(request.user_id))",
        "",
    ];
    out.splice(at..at + 10, body.iter().map(|s| s.to_string()));
    out
}

fn bench(c: &mut Criterion) {
    let (file, defs) = generate(FILE_LINES);
    assert_eq!(file.len(), FILE_LINES);
    let mut group = c.benchmark_group("file_changed, 10,000 lines");
    group.sample_size(20).warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));
    for hunks in [20, 100] {
        let (review, targets) = review(&file, &defs, hunks);
        let shift = join(&shifted(&file));
        let conflict_at = targets[hunks / 2];
        let conflict = join(&conflicting(&file, conflict_at));

        // Measure only correct outcomes: every hunk moved by five lines, and in the second case
        // exactly one conflict.
        let mut r = review.clone();
        r.file_changed(PATH, Source::Text(shift.clone()));
        assert_eq!(r.counts().pending, hunks);
        for (h, at) in r.hunks().iter().zip(&targets) {
            assert_eq!(h.preview.start, at + 5 + 6, "{:?}", h.report);
        }
        let mut r = review.clone();
        r.file_changed(PATH, Source::Text(conflict.clone()));
        assert_eq!(r.counts().pending, hunks - 1);
        assert!(matches!(r.hunks()[hunks / 2].state, HunkState::Conflict(_)));

        for (name, text) in [("shift", &shift), ("conflict", &conflict)] {
            group.bench_with_input(BenchmarkId::new(name, hunks), text, |b, text| {
                b.iter_batched(
                    || (review.clone(), Source::Text(text.clone())),
                    |(mut r, source)| {
                        r.file_changed(PATH, source);
                        black_box(r)
                    },
                    BatchSize::LargeInput,
                )
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
