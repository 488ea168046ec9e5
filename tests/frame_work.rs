//! A frame's work does not grow with the data: the same review drawn small (20 hunks, a short
//! reply, a 200-line rewrite selected) and large (500 hunks, a reply 500 times longer, a
//! 1,000-line rewrite selected) does the same work per frame, counted (not timed: a slow
//! machine never fails this) by what the app measures (`App::work`): reply bytes scanned,
//! reply and diff lines counted, diff models and hunk lists built, lines handed to the ui.
//!
//! After the first frame: a key that scrolls the diff costs no scanning, counting or building
//! at all; a chunk of the reply costs its own bytes and lines; a frame with nothing new costs
//! only the lines that show.

use std::collections::BTreeMap;
use std::time::Instant;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use redline::app::key::{KeyCode, KeyEvent};
use redline::app::measure::Work;
use redline::app::{App, AppConfig, Focus, Msg};
use redline::core::file::Source;
use redline::ui::highlight::Highlighter;
use redline::ui::theme::{ColorMode, Theme};

/// A review of `hunks` SEARCH/REPLACE blocks (with `prose` lines of text before each) and a
/// rewrite of every line of a `big`-line file, selected; the reply still streaming.
fn review(hunks: usize, prose: usize, big: usize) -> App {
    let mut files = Vec::new();
    let mut sources = BTreeMap::new();
    let mut reply = String::new();
    for f in 0..hunks.div_ceil(10) {
        let path = format!("pkg/module_{f:04}.py");
        let mut text = String::new();
        for g in 0..10 {
            text.push_str(&format!("def function_{g}(value):\n    total = value * {g}\n\n\n"));
            for _ in 0..prose {
                reply
                    .push_str("Some prose that wraps at a narrow width, one word after another.\n");
            }
            reply.push_str(&format!(
                "{path}\n```python\n<<<<<<< SEARCH\n    total = value * {g}\n=======\n    total = value * {g} + 1\n>>>>>>> REPLACE\n```\n"
            ));
        }
        files.push(path.clone());
        sources.insert(path, Source::Text(text));
    }
    let old: Vec<String> = (0..big).map(|i| format!("    value_{i} = compute({i})")).collect();
    let new: Vec<String> = (0..big).map(|i| format!("    value_{i} = compute({i}) + 1")).collect();
    reply.push_str(&format!(
        "big.py\n```python\n<<<<<<< SEARCH\n{}\n=======\n{}\n>>>>>>> REPLACE\n```\n",
        old.join("\n"),
        new.join("\n")
    ));
    files.push("big.py".into());
    sources.insert("big.py".into(), Source::Text(old.join("\n") + "\n"));
    let mut app = App::new(AppConfig::new(files, sources, "x"));
    let now = Instant::now();
    app.start(now);
    app.update(Msg::Resize(120, 40), now);
    app.update_placed(Msg::Chunk(reply), now);
    assert_eq!(app.review.hunks().len(), hunks + 1);
    let big = app.review.hunks().iter().find(|h| h.path == "big.py").expect("the rewrite");
    app.selected = Some(big.id);
    app.focus = Focus::Diff;
    app
}

struct Screen(Terminal<TestBackend>, Theme, Highlighter);

impl Screen {
    fn draw(&mut self, app: &App) -> Work {
        let before = app.work();
        let (theme, hl) = (&self.1, &self.2);
        self.0.draw(|f| redline::ui::draw(f, app, theme, hl)).expect("draw");
        let after = app.work();
        Work {
            reply_bytes_scanned: after.reply_bytes_scanned - before.reply_bytes_scanned,
            reply_lines_counted: after.reply_lines_counted - before.reply_lines_counted,
            reply_lines_read: after.reply_lines_read - before.reply_lines_read,
            models_built: after.models_built - before.models_built,
            diff_lines_counted: after.diff_lines_counted - before.diff_lines_counted,
            lines_drawn: after.lines_drawn - before.lines_drawn,
            lists_built: after.lists_built - before.lists_built,
        }
    }
}

/// The work of: a frame with nothing new, a diff scroll key and its frame, a chunk of one
/// line and its frame.
fn frames(mut app: App) -> [Work; 3] {
    let theme = Theme::load("dark", None, ColorMode::TrueColor).expect("bundled theme");
    let mut screen =
        Screen(Terminal::new(TestBackend::new(120, 40)).unwrap(), theme, Highlighter::off());
    let now = Instant::now();
    let first = screen.draw(&app);
    assert_eq!(first.models_built, 1, "the selected diff is built once");
    let still = screen.draw(&app);
    app.update(Msg::Key(KeyEvent::from(KeyCode::Down)), now);
    let key = screen.draw(&app);
    app.update_placed(Msg::Chunk("one more line of prose\n".into()), now);
    let chunk = screen.draw(&app);
    [still, key, chunk]
}

#[test]
fn a_frames_work_does_not_grow_with_the_data() {
    let small = frames(review(20, 1, 200));
    let large = frames(review(500, 20, 1_000));
    assert_eq!(small, large, "the same work per frame, small and large");
    let [still, key, chunk] = large;
    let nothing = Work { lines_drawn: still.lines_drawn, ..Work::default() };
    assert_eq!(still, nothing, "a frame with nothing new scans, counts and builds nothing");
    assert!(still.lines_drawn <= 2 * 40, "only the lines that show: {still:?}");
    assert_eq!(key, Work { lines_drawn: key.lines_drawn, ..Work::default() }, "a scroll key");
    assert_eq!(chunk.reply_bytes_scanned, "one more line of prose\n".len());
    // The new line fits: its block's rows follow from what was kept, no line counted alone.
    assert_eq!(chunk.reply_lines_counted, 0);
    assert_eq!((chunk.models_built, chunk.diff_lines_counted, chunk.lists_built), (0, 0, 0));
}

#[test]
fn a_new_width_counts_blocks_of_lines_not_lines_and_reads_no_text_that_fits() {
    let mut app = review(500, 20, 1_000);
    app.focus = Focus::Stream;
    let theme = Theme::load("dark", None, ColorMode::TrueColor).expect("bundled theme");
    let mut screen =
        Screen(Terminal::new(TestBackend::new(120, 40)).unwrap(), theme, Highlighter::off());
    screen.draw(&app);
    let lines = app.stream_text.lines().count();
    for width in [119, 120, 100] {
        screen.0.backend_mut().resize(width, 40);
        app.update(Msg::Resize(width, 40), Instant::now());
        let resized = screen.draw(&app);
        // Every line fits at these widths (the prose is 66 columns, the rewrite's lines under
        // 60): the rows follow from the widest line of each block, kept when the lines came;
        // no line is counted on its own, no text read, in the reply or the diff.
        assert_eq!(resized.reply_lines_counted, 0, "at {width}: {resized:?}");
        assert_eq!(resized.reply_lines_read, 0, "at {width}");
        assert_eq!(resized.diff_lines_counted, 0, "at {width}");
    }
    // Narrow enough that the prose wraps at words: the blocks holding prose are counted line
    // by line and the prose read; not every line.
    screen.0.backend_mut().resize(60, 40);
    app.update(Msg::Resize(60, 40), Instant::now());
    let narrow = screen.draw(&app);
    let prose = app.stream_text.lines().filter(|l| l.starts_with("Some prose")).count();
    assert!(narrow.reply_lines_read >= prose, "{narrow:?}");
    assert!(narrow.reply_lines_read < lines, "{narrow:?}");
    assert!(narrow.reply_lines_counted >= prose, "{narrow:?}");
}
