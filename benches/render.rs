//! Rendering one frame of the review screen for a session of 1,000 hunks (50 files of 20
//! functions, one SEARCH/REPLACE block per function), with the selected hunk's highlighting
//! cached, into a 200x50 `TestBackend`. The budget is 5 ms a frame.
//!
//! `cargo bench --bench render`

use std::collections::BTreeMap;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use redline::app::diff_model::DiffModel;
use redline::app::{App, AppConfig, Msg, StreamDone, ViewMode};
use redline::core::file::Source;
use redline::ui::highlight::Highlighter;
use redline::ui::theme::{ColorMode, Theme};

fn session() -> App {
    let mut files = Vec::new();
    let mut sources = BTreeMap::new();
    let mut reply = String::from("Here are the changes.\n\n");
    for f in 0..50 {
        let path = format!("src/module_{f:02}.py");
        let mut text = String::new();
        for g in 0..20 {
            text.push_str(&format!(
                "def function_{g}(value):\n    total = value * {g}\n    return total + {f}\n\n\n"
            ));
            reply.push_str(&format!(
                "{path}\n```python\n<<<<<<< SEARCH\ndef function_{g}(value):\n    total = value * {g}\n=======\ndef function_{g}(value):\n    total = value * {g} + 1\n>>>>>>> REPLACE\n```\n\n"
            ));
        }
        files.push(path.clone());
        sources.insert(path, Source::Text(text));
    }
    let mut app = App::new(AppConfig {
        label: "bench · model".into(),
        ..AppConfig::new(files, sources, "x")
    });
    let now = Instant::now();
    app.start(now);
    app.update_placed(Msg::Chunk(reply), now);
    app.update_placed(Msg::StreamEnd(StreamDone::default()), now);
    assert_eq!(app.review.hunks().len(), 1_000);
    // Select a hunk in the middle of the list.
    for _ in 0..500 {
        app.update(
            Msg::Key(redline::app::key::KeyEvent::from(redline::app::key::KeyCode::Down)),
            now,
        );
    }
    app
}

fn bench(c: &mut Criterion) {
    let mut app = session();
    let theme = Theme::load("dark", None, ColorMode::TrueColor).expect("bundled theme");
    let mut hl = Highlighter::new(&theme.syntax_theme);
    let h = app.selected_hunk().expect("a selected hunk");
    hl.prepare(h.id, &h.path, &DiffModel::of(h, app.review.source(&h.path)));
    let mut terminal = Terminal::new(TestBackend::new(200, 50)).expect("test backend");
    c.bench_function("frame_1000_hunks_unified", |b| {
        b.iter(|| {
            terminal.draw(|f| redline::ui::draw(f, &app, &theme, &hl)).expect("draw");
        })
    });
    app.view = ViewMode::SideBySide;
    c.bench_function("frame_1000_hunks_side_by_side", |b| {
        b.iter(|| {
            terminal.draw(|f| redline::ui::draw(f, &app, &theme, &hl)).expect("draw");
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(50);
    targets = bench
}
criterion_main!(benches);
