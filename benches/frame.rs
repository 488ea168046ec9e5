//! One frame of the review screen as the data grows (the scale issue): 100 / 1,000 / 10,000
//! hunks; a 1 MB and a 20 MB reply; a 20,000-line rewrite selected; and all three at once. Each
//! frame is drawn into a 160x45 `TestBackend` with the dark theme in 24-bit colour. `still` is
//! a frame drawn again with nothing changed; `after_key` is a key that scrolls the diff (or the
//! reply) and the frame after it, what the screen does on each key.
//!
//! `cargo bench --bench frame` (filter: `cargo bench --bench frame -- all`).

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Instant;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use redline::app::key::{KeyCode, KeyEvent};
use redline::app::{App, AppConfig, Focus, Msg, StreamDone};
use redline::core::file::Source;
use redline::ui::highlight::Highlighter;
use redline::ui::theme::{ColorMode, Theme};

mod support;

/// A review: `hunks` SEARCH/REPLACE blocks over files of 20 functions, prose between them up
/// to `reply_bytes`, and with `big` a 20,000-line file rewritten whole (every method changed),
/// selected.
fn session(hunks: usize, reply_bytes: usize, big: bool) -> App {
    let mut files = Vec::new();
    let mut sources = BTreeMap::new();
    let mut reply = String::from("Here are the changes.\n\n");
    let prose = "This keeps the behaviour and makes the total one larger, as the tests expect.\n";
    let per_hunk = reply_bytes.saturating_sub(hunks * 200) / hunks.max(1) / prose.len();
    for f in 0..hunks.div_ceil(20) {
        let path = format!("pkg_{}/module_{f:04}.py", f % 17);
        let mut text = String::new();
        for g in 0..20.min(hunks - f * 20) {
            text.push_str(&format!(
                "def function_{g}(value):\n    total = value * {g}\n    return total + {f}\n\n\n"
            ));
            for _ in 0..per_hunk {
                reply.push_str(prose);
            }
            reply.push_str(&format!(
                "{path}\n```python\n<<<<<<< SEARCH\ndef function_{g}(value):\n    total = value * {g}\n=======\ndef function_{g}(value):\n    total = value * {g} + 1\n>>>>>>> REPLACE\n```\n\n"
            ));
        }
        files.push(path.clone());
        sources.insert(path, Source::Text(text));
    }
    while reply.len() < reply_bytes {
        reply.push_str(prose);
    }
    if big {
        let (old, _) = support::generate(20_000, &["import logging", "log = logging.getLogger()"]);
        let new: Vec<String> = old
            .iter()
            .map(|l| l.replace("total = 0", "total = 1").replace("def handle_", "def process_"))
            .collect();
        let path = "big/service.py".to_string();
        reply.push_str(&format!(
            "{path}\n```python\n<<<<<<< SEARCH\n{}\n=======\n{}\n>>>>>>> REPLACE\n```\n",
            old.join("\n"),
            new.join("\n")
        ));
        files.push(path.clone());
        sources.insert(path, Source::Text(old.join("\n") + "\n"));
    }
    let mut app = App::new(AppConfig {
        label: "bench · model".into(),
        ..AppConfig::new(files, sources, "x")
    });
    let now = Instant::now();
    app.start(now);
    app.update(Msg::Resize(160, 45), now);
    let mut at = 0;
    while at < reply.len() {
        let mut end = (at + 65_536).min(reply.len());
        while !reply.is_char_boundary(end) {
            end += 1;
        }
        app.update_placed(Msg::Chunk(reply[at..end].to_string()), now);
        at = end;
    }
    app.update_placed(Msg::StreamEnd(StreamDone::default()), now);
    assert_eq!(app.review.hunks().len(), hunks + usize::from(big), "every hunk placed");
    let hunks_list = app.review.hunks();
    // The big rewrite, or a hunk in the middle of the list.
    let pick = if big { hunks_list.len() - 1 } else { hunks_list.len() / 2 };
    app.selected = Some(hunks_list[pick].id);
    app
}

struct Screen {
    terminal: Terminal<TestBackend>,
    theme: Theme,
    hl: Highlighter,
}

impl Screen {
    fn new() -> Screen {
        let theme = Theme::load("dark", None, ColorMode::TrueColor).expect("bundled theme");
        Screen {
            terminal: Terminal::new(TestBackend::new(160, 45)).expect("test backend"),
            hl: Highlighter::new(&theme.syntax_theme),
            theme,
        }
    }

    fn draw(&mut self, app: &App) {
        let (theme, hl) = (&self.theme, &self.hl);
        self.terminal.draw(|f| redline::ui::draw(f, app, theme, hl)).expect("draw");
    }
}

/// `still`: the frame again; `after_key`: a scroll key (down, then up) in the `focus` pane and
/// the frame after it; `after_resize`: the terminal a column narrower (then wider) and the
/// frame after it.
fn frames(c: &mut Criterion, group: &str, id: &str, mut app: App, focus: Focus) {
    let mut screen = Screen::new();
    screen.draw(&app);
    let mut g = c.benchmark_group(group);
    g.sample_size(20);
    g.bench_function(BenchmarkId::new("still", id), |b| b.iter(|| screen.draw(black_box(&app))));
    app.focus = focus;
    let (down, up) = (KeyEvent::from(KeyCode::Down), KeyEvent::from(KeyCode::Up));
    let mut flip = false;
    let now = Instant::now();
    g.bench_function(BenchmarkId::new("after_key", id), |b| {
        b.iter(|| {
            flip = !flip;
            app.update(Msg::Key(if flip { down } else { up }), now);
            screen.draw(black_box(&app));
        })
    });
    // The terminal one column narrower, then wider again: every pane's width changes, so the
    // rows of what it holds are counted again at the new width.
    g.bench_function(BenchmarkId::new("after_resize", id), |b| {
        b.iter(|| {
            flip = !flip;
            let width = if flip { 159 } else { 160 };
            screen.terminal.backend_mut().resize(width, 45);
            app.update(Msg::Resize(width, 45), now);
            screen.draw(black_box(&app));
        })
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    // Criterion's filter: the argument that is neither an option nor an option's number.
    let only = std::env::args().skip(1).find(|a| !a.starts_with('-') && a.parse::<f64>().is_err());
    // A filter naming a group and a frame (`frame_all/after_resize`) wants that group's session.
    let group = |name: &str| name.split('/').next().unwrap_or(name).to_string();
    let wanted = |name: &str| {
        only.as_deref().is_none_or(|f| name.contains(f) || f.starts_with(&(group(name) + "/")))
    };
    for n in [100, 1_000, 10_000] {
        let id = n.to_string();
        if wanted(&format!("frame_hunks/{id}")) {
            frames(c, "frame_hunks", &id, session(n, 0, false), Focus::Diff);
        }
    }
    for (label, bytes) in [("1MB", 1_000_000), ("20MB", 20_000_000)] {
        if wanted(&format!("frame_reply/{label}")) {
            frames(c, "frame_reply", label, session(100, bytes, false), Focus::Stream);
        }
    }
    if wanted("frame_file/20000_lines") {
        frames(c, "frame_file", "20000_lines", session(100, 0, true), Focus::Diff);
    }
    if wanted("frame_all/10000_hunks_20MB_20000_lines") {
        let app = session(10_000, 20_000_000, true);
        frames(c, "frame_all", "10000_hunks_20MB_20000_lines", app, Focus::Diff);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
