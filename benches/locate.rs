//! Benchmarks of locating and applying one flawed hunk in a large file.
//!
//! The file is generated Python: classes of methods that look alike but differ in names, literals
//! and constants (as real code does: many `total = 0` and `for item in items:` lines). The hunk is
//! 40 lines from the file's middle changing one line, carrying the usual defects at once: dedented
//! by 4 spaces, one context line missing, one copy error in a context line, trailing whitespace.
//! Each size (2,000, 20,000 and 200,000 lines) is measured two ways: the locator and applier alone
//! (`locate_parts` + `apply_hunk`, building the per-line index as `execute` does), and the whole
//! pure pipeline (`plan` + `execute` on the reply text). Run: `cargo bench --bench locate`.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use redline::core::apply::apply_hunk;
use redline::core::edit::{Hunk, HunkLine, LineKind};
use redline::core::execute::run as execute;
use redline::core::file::{FileWrite, Source};
use redline::core::locate::lines::LineInfo;
use redline::core::locate::locate_parts;
use redline::core::plan::{FormatChoice, plan};
use redline::core::text::TextFile;

mod support;

/// Roughly `lines` lines of Python: classes of 10-line methods.
fn generate(lines: usize) -> Vec<String> {
    support::generate(lines, &[]).0
}

/// A scenario: the file, the flawed hunk, the reply holding it, and the expected result.
struct Case {
    text: String,
    hunk: Hunk,
    reply: String,
    want: String,
}

fn case(lines: usize) -> Case {
    let file = generate(lines);
    // 40 lines of method bodies from the middle, starting at a `def` line.
    let mut start = file.len() / 2;
    while !file[start].starts_with("    def ") {
        start += 1;
    }
    let old = &file[start..start + 40];
    let target = 16; // the second method's `total += ...` line
    assert!(old[target].contains("total += item.amount"), "{}", old[target]);
    let changed = format!("{} + 1", old[target]);

    let mut hunk_lines = Vec::new();
    for (k, line) in old.iter().enumerate() {
        let dedented = line.strip_prefix("    ").unwrap_or(line).to_string();
        match k {
            // One context line missing: the third method's docstring.
            21 => continue,
            // A copy error in a context line.
            7 => {
                hunk_lines.push(HunkLine::new(LineKind::Context, dedented.replace("done", "dnoe")))
            }
            _ if k == target => {
                hunk_lines.push(HunkLine::new(LineKind::Remove, dedented));
                let added = changed.strip_prefix("    ").unwrap_or(&changed).to_string();
                hunk_lines.push(HunkLine::new(LineKind::Add, added));
            }
            // Trailing whitespace on some context lines.
            _ if k % 5 == 3 => hunk_lines.push(HunkLine::new(LineKind::Context, dedented + "  ")),
            _ => hunk_lines.push(HunkLine::new(LineKind::Context, dedented)),
        }
    }
    let hunk = Hunk {
        lines: hunk_lines,
        old_start_hint: None,
        marked: true,
        pick: None,
        section: None,
        other_split: None,
    };

    let mut reply = String::from("```diff\n--- a/src/service.py\n+++ b/src/service.py\n@@\n");
    for l in &hunk.lines {
        let mark = match l.kind {
            LineKind::Context => ' ',
            LineKind::Remove => '-',
            LineKind::Add => '+',
        };
        reply.push(mark);
        reply.push_str(&l.text);
        reply.push('\n');
    }
    reply.push_str("```\n");

    let text: String = file.iter().map(|l| format!("{l}\n")).collect();
    let mut want_lines = file.clone();
    want_lines[start + target] = changed;
    let want = want_lines.iter().map(|l| format!("{l}\n")).collect();
    Case { text, hunk, reply, want }
}

fn locate_and_apply(case: &Case, mut file: TextFile) -> TextFile {
    let infos: Vec<LineInfo> = file.lines.iter().map(|l| LineInfo::new(l)).collect();
    let mut parts = locate_parts(&case.hunk, &infos, 0).expect("the hunk is located");
    drop(infos);
    parts.sort_by_key(|(_, l)| std::cmp::Reverse(l.start));
    for (h, loc) in &parts {
        apply_hunk(&mut file, h, loc);
    }
    file
}

fn plan_and_execute(case: &Case, sources: &BTreeMap<String, Source>) -> String {
    let project = vec!["src/service.py".to_string()];
    let p = plan(&case.reply, FormatChoice::Auto, &project);
    let out = execute(&p, sources);
    match out.writes.as_slice() {
        [FileWrite::Write { text, .. }] => text.clone(),
        other => panic!("expected one write, got {other:?}: {:?}", out.reports),
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("flawed 40-line hunk");
    group.sample_size(10).warm_up_time(Duration::from_secs(1));
    for lines in [2_000, 20_000, 200_000] {
        let case = case(lines);
        let parsed = TextFile::parse(&case.text);
        // Measure only a correct application.
        assert_eq!(locate_and_apply(&case, parsed.clone()).render(), case.want);
        let mut sources = BTreeMap::new();
        sources.insert("src/service.py".to_string(), Source::Text(case.text.clone()));
        assert_eq!(plan_and_execute(&case, &sources), case.want);

        group.measurement_time(Duration::from_secs(if lines >= 200_000 { 8 } else { 3 }));
        group.bench_with_input(
            BenchmarkId::new("locate_parts + apply_hunk", lines),
            &case,
            |b, case| {
                b.iter_batched(
                    || parsed.clone(),
                    |file| black_box(locate_and_apply(case, file)),
                    BatchSize::LargeInput,
                )
            },
        );
        group.bench_with_input(BenchmarkId::new("plan + execute", lines), &case, |b, case| {
            b.iter(|| black_box(plan_and_execute(case, &sources)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
