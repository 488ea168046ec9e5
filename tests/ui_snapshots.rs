//! Render snapshots: each view of the review screen drawn through ratatui's `TestBackend` with
//! the plain theme (no colours), compared as text with `insta`; the review, conflict, help and
//! follow-up views at 80x24 and 160x45; the help scrolled (80x24) and in two columns (150x24);
//! long lines wrapped and cut; flags never split into lone regional indicators; and colours,
//! through the debug theme that writes each cell's style names into the text
//! (`render_styles`). Update with `INSTA_UPDATE=always cargo test --test ui_snapshots` and
//! review the `.snap` diffs.

mod frame_support;

use std::collections::BTreeMap;
use std::time::Instant;

use frame_support::{render, render_styles};
use redline::app::key::{KeyCode, KeyEvent, KeyModifiers};
use redline::app::{App, AppConfig, Msg, StreamDone};
use redline::core::file::Source;

const INVENTORY: &str = include_str!("../demo/project/inventory.py");
const REPORT: &str = include_str!("../demo/project/report.py");
const REPLY: &str = include_str!("../demo/reply.md");

fn app() -> (App, Instant) {
    let files = vec!["inventory.py".to_string(), "report.py".to_string()];
    let mut sources = BTreeMap::new();
    sources.insert("inventory.py".to_string(), Source::Text(INVENTORY.into()));
    sources.insert("report.py".to_string(), Source::Text(REPORT.into()));
    let mut app = App::new(AppConfig {
        label: "demo · bundled reply".into(),
        ..AppConfig::new(files, sources, "change things")
    });
    let now = Instant::now();
    app.start(now);
    (app, now)
}

fn finished() -> (App, Instant) {
    let (mut app, now) = app();
    app.update_placed(Msg::Chunk(REPLY.into()), now);
    app.update_placed(
        Msg::StreamEnd(StreamDone { output_tokens: Some(402), ..StreamDone::default() }),
        now,
    );
    (app, now)
}

fn key(app: &mut App, c: char, now: Instant) {
    let m = if c.is_ascii_uppercase() { KeyModifiers::SHIFT } else { KeyModifiers::NONE };
    app.update_placed(Msg::Key(KeyEvent::new(KeyCode::Char(c), m)), now);
}

#[test]
fn stream_pane_while_the_model_writes() {
    let (mut app, now) = app();
    let cut = REPLY.find("def format_line(item):\n    return f").unwrap() + 30;
    app.update_placed(Msg::Chunk(REPLY[..cut].into()), now);
    insta::assert_snapshot!(render(&app, 100, 30));
}

#[test]
fn hunk_list_and_unified_diff() {
    let (app, _) = finished();
    insta::assert_snapshot!(render(&app, 100, 30));
}

#[test]
fn hunks_whose_placing_is_still_to_come() {
    // The worker has not answered yet: the hunks are listed as placing, the selected one shows
    // its own text, and nothing says refused.
    let (mut app, now) = app();
    let effects = app.update(Msg::Chunk(REPLY.into()), now);
    assert!(effects.iter().any(|e| matches!(e, redline::app::AppEffect::Place(_))));
    assert!(app.review.counts().placing > 0);
    insta::assert_snapshot!(render(&app, 100, 30));
}

#[test]
fn decisions_show_in_the_hunk_list() {
    let (mut app, now) = finished();
    key(&mut app, 'n', now);
    key(&mut app, 'n', now);
    key(&mut app, 'j', now);
    insta::assert_snapshot!(render(&app, 100, 24));
}

#[test]
fn side_by_side_diff() {
    let (mut app, now) = finished();
    key(&mut app, 'J', now);
    key(&mut app, 'v', now);
    insta::assert_snapshot!(render(&app, 120, 24));
}

#[test]
fn failed_hunk() {
    let (mut app, now) = finished();
    key(&mut app, 'J', now);
    key(&mut app, 'j', now);
    insta::assert_snapshot!(render(&app, 100, 24));
}

#[test]
fn help_overlay() {
    let (mut app, now) = finished();
    key(&mut app, '?', now);
    insta::assert_snapshot!(render(&app, 100, 30));
}

#[test]
fn quit_confirmation() {
    let (mut app, now) = finished();
    key(&mut app, 'q', now);
    insta::assert_snapshot!(render(&app, 80, 24));
}

#[test]
fn narrow_terminal() {
    let (app, _) = finished();
    insta::assert_snapshot!(render(&app, 40, 12));
}

#[test]
fn tiny_terminals_do_not_panic() {
    let (mut app, now) = finished();
    key(&mut app, '?', now);
    for (w, h) in [(1, 1), (10, 4), (20, 6), (40, 12), (41, 13), (79, 20), (80, 5)] {
        render(&app, w, h);
    }
    key(&mut app, 'v', now);
    render(&app, 40, 12);
}

/// The first hunk (`total_value`) after another program rewrote the lines it changes.
fn conflicted() -> (App, Instant) {
    let (mut app, now) = finished();
    let theirs =
        INVENTORY.replace("    total = 0\n", "    total = 0.0  # floats, edited by hand\n");
    assert_ne!(theirs, INVENTORY);
    app.update_placed(
        Msg::FileChanged { path: "inventory.py".into(), source: Source::Text(theirs) },
        now,
    );
    (app, now)
}

#[test]
fn conflict_three_ways() {
    let (app, _) = conflicted();
    insta::assert_snapshot!(render(&app, 110, 34));
}

#[test]
fn conflict_three_ways_side_by_side() {
    let (mut app, now) = conflicted();
    key(&mut app, 'v', now);
    insta::assert_snapshot!(render(&app, 140, 26));
}

/// The views every terminal size must hold.
const SIZES: [(u16, u16); 2] = [(80, 24), (160, 45)];

#[test]
fn review_view_at_both_sizes() {
    let (app, _) = finished();
    for (w, h) in SIZES {
        insta::assert_snapshot!(format!("review_{w}x{h}"), render(&app, w, h));
    }
}

#[test]
fn conflict_view_at_both_sizes() {
    let (app, _) = conflicted();
    for (w, h) in SIZES {
        insta::assert_snapshot!(format!("conflict_{w}x{h}"), render(&app, w, h));
    }
}

#[test]
fn help_view_at_both_sizes() {
    let (mut app, now) = finished();
    key(&mut app, '?', now);
    for (w, h) in SIZES {
        insta::assert_snapshot!(format!("help_{w}x{h}"), render(&app, w, h));
    }
}

#[test]
fn follow_up_view_at_both_sizes() {
    let (mut app, now) = finished();
    key(&mut app, 'm', now);
    for c in "also add a docstring".chars() {
        key(&mut app, c, now);
    }
    for (w, h) in SIZES {
        insta::assert_snapshot!(format!("follow_up_{w}x{h}"), render(&app, w, h));
    }
}

/// A review of one file, `path`, whose line `old` (its second) the reply changes to `new`.
fn one_change(path: &str, old: &str, new: &str) -> (App, Instant) {
    let file = format!("def greet():\n{old}\n    return message\n");
    let reply = format!(
        "Changed the animal.\n\n{path}\n```python\n<<<<<<< SEARCH\n{old}\n=======\n{new}\n>>>>>>> REPLACE\n```\n"
    );
    let files = vec![path.to_string()];
    let mut sources = BTreeMap::new();
    sources.insert(path.to_string(), Source::Text(file));
    let mut app = App::new(AppConfig {
        label: "test".into(),
        ..AppConfig::new(files, sources, "change the animal")
    });
    let now = Instant::now();
    app.start(now);
    app.update_placed(Msg::Chunk(reply), now);
    app.update_placed(
        Msg::StreamEnd(StreamDone { output_tokens: Some(40), ..StreamDone::default() }),
        now,
    );
    (app, now)
}

/// A file with a line 230 columns long, and a reply that changes it at column ~180.
fn long_line() -> (App, Instant) {
    let pad = "x".repeat(160);
    let old = format!(
        "    message = \"{pad} the quick brown fox jumps over the lazy dog 漢字 and then some\""
    );
    let new = old.replace("lazy dog", "sleepy cat");
    one_change("long.py", &old, &new)
}

#[test]
fn a_long_line_wraps_and_its_change_shows() {
    let (app, _) = long_line();
    let frame = render(&app, 160, 45);
    assert!(frame.contains("sleepy cat") && frame.contains("lazy dog"), "{frame}");
    insta::assert_snapshot!(frame);
}

#[test]
fn a_long_line_cut_and_scrolled_sideways() {
    let (mut app, now) = long_line();
    key(&mut app, 'w', now);
    let cut = render(&app, 80, 24);
    let added = cut.lines().find(|l| l.contains("2 +")).expect("the added line");
    assert!(added.ends_with("›│") && !added.contains("sleepy"), "cut, with a marker: {cut}");
    for _ in 0..10 {
        key(&mut app, '>', now);
    }
    insta::assert_snapshot!(render(&app, 80, 24));
}

#[test]
fn a_long_line_side_by_side() {
    let (mut app, now) = long_line();
    key(&mut app, 'v', now);
    insta::assert_snapshot!(render(&app, 160, 45));
}

#[test]
fn colours_by_style_name() {
    let (app, _) = long_line();
    insta::assert_snapshot!(render_styles(&app, 100, 20));
}

#[test]
fn help_scrolls_at_80x24_and_takes_two_columns_when_wide_and_short() {
    let (mut app, now) = finished();
    app.update(Msg::Resize(80, 24), now);
    key(&mut app, '?', now);
    key(&mut app, 'G', now);
    let end = render(&app, 80, 24);
    assert!(end.contains("keys 8-29/29") && end.contains("q C-c"), "{end}");
    insta::assert_snapshot!("help_80x24_scrolled_to_the_end", end);
    key(&mut app, 'x', now);
    app.update(Msg::Resize(150, 24), now);
    key(&mut app, '?', now);
    let wide = render(&app, 150, 24);
    assert!(wide.contains("j ↓") && wide.contains("q C-c") && !wide.contains("scroll,"), "{wide}");
    insta::assert_snapshot!("help_150x24_two_columns", wide);
}

/// Regional indicators (flags) whose pair the drawing split would leave cells the terminal
/// paints over with one wide glyph: every cell holds a whole flag or none.
fn assert_no_split_flags(app: &App, w: u16, h: u16) {
    use ratatui::{Terminal, backend::TestBackend};
    let indicator = |c: char| ('\u{1F1E6}'..='\u{1F1FF}').contains(&c);
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    let (theme, hl) =
        (redline::ui::theme::Theme::plain(), redline::ui::highlight::Highlighter::off());
    terminal.draw(|f| redline::ui::draw(f, app, &theme, &hl)).unwrap();
    let buf = terminal.backend().buffer();
    for y in 0..h {
        for x in 0..w {
            let n = buf[(x, y)].symbol().chars().filter(|&c| indicator(c)).count();
            assert!(n == 0 || n == 2, "a lone indicator at {x},{y}:\n{}", render(app, w, h));
        }
    }
}

#[test]
fn flags_are_drawn_whole() {
    let old =
        "    message = \"ships to 🇺🇸 and 🇫🇷 and 🇩🇪 and 🇯🇵 and 🇧🇷 from the warehouse in town\"";
    let new = old.replace("🇺🇸", "🇺🇦").replace("🇯🇵", "🇰🇷");
    let (mut app, now) = one_change("flags.py", old, &new);
    for (w, h) in [(80, 24), (83, 24), (100, 30), (160, 45)] {
        assert_no_split_flags(&app, w, h);
    }
    // The changed flags are marked whole; the diff's background runs under the numbers too.
    insta::assert_snapshot!(render_styles(&app, 120, 16));
    key(&mut app, 'v', now);
    assert_no_split_flags(&app, 120, 30);
    key(&mut app, 'w', now);
    for _ in 0..3 {
        key(&mut app, '>', now);
        assert_no_split_flags(&app, 80, 24);
    }
    // The message line and the follow-up box cut and wrap by cluster too.
    app.notice = Some(format!("a{}", "🇺🇸🇫🇷 ".repeat(30)));
    assert_no_split_flags(&app, 80, 24);
    key(&mut app, 'm', now);
    for flag in std::iter::once("x").chain(["🇺🇸", "🇫🇷"].repeat(30)) {
        for c in flag.chars() {
            app.update(Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)), now);
        }
        assert_no_split_flags(&app, 80, 24);
    }
}

/// A hunk whose old text is one line that three functions share: refused as ambiguous, with
/// its three places listed.
fn ambiguous() -> (App, Instant) {
    let file = "def small(items):\n    total = 0\n    return total + len(items)\n\n\ndef medium(items):\n    total = 0\n    return total + 2 * len(items)\n\n\ndef large(items):\n    total = 0\n    return total + 3 * len(items)\n";
    let reply = "Start the totals at one.\n\nsizes.py\n```python\n<<<<<<< SEARCH\n    total = 0\n=======\n    total = 1\n>>>>>>> REPLACE\n```\n";
    let files = vec!["sizes.py".to_string()];
    let sources = BTreeMap::from([("sizes.py".to_string(), Source::Text(file.into()))]);
    let mut app = App::new(AppConfig {
        label: "test".into(),
        ..AppConfig::new(files, sources, "start at one")
    });
    let now = Instant::now();
    app.start(now);
    app.update_placed(Msg::Chunk(reply.into()), now);
    app.update_placed(Msg::StreamEnd(StreamDone::default()), now);
    (app, now)
}

#[test]
fn an_ambiguous_hunk_lists_every_place_at_80x24_and_a_digit_picks_one() {
    let (mut app, now) = ambiguous();
    let frame = render(&app, 80, 24);
    // Every candidate and what the keys do fit at 80x24 (half the pane held only the first).
    // Each named by the function it is in: their own lines are alike.
    for place in [
        "  1     2 │ in def small(items)",
        "  2     7 │ in def medium(items)",
        "  3    12 │ in def large(items)",
    ] {
        assert!(frame.contains(place), "{place:?} is not shown:\n{frame}");
    }
    assert!(frame.contains("`1-9` places it"), "{frame}");
    insta::assert_snapshot!(frame);
    key(&mut app, '2', now);
    let picked = render(&app, 80, 24);
    // Placed at the second place, in `medium`, and only there.
    assert!(picked.contains("def medium(items) · pending"), "{picked}");
    assert!(picked.contains("   7      -     total = 0"), "{picked}");
    insta::assert_snapshot!("ambiguous_hunk_picked", picked);
}

/// A request longer than its line is cut as long lines are, with the mark that says so, never
/// mid-character and never past the pane (at 80 columns it was cut with nothing to say so).
#[test]
fn a_long_request_line_is_cut_with_a_mark() {
    let (mut app, _) = finished();
    app.request_line =
        Some("Simplify total_value, make restock refuse negative amounts, and document it".into());
    let screen = render(&app, 80, 24);
    let line = screen.lines().find(|l| l.contains(" request ")).expect("the request line");
    let cut = redline::app::wrap::CUT_RIGHT;
    assert!(line.trim_end().ends_with(cut), "{line}");
    assert!(line.contains("Simplify total_value"), "{line}");
}

/// A stream the user cancelled is not shown as a finished reply (✓): the rest never came.
#[test]
fn a_cancelled_stream_says_so_in_the_status_line() {
    let (mut app, now) = app();
    let cut = REPLY.find("def format_line(item):\n    return f").unwrap() + 30;
    app.update_placed(Msg::Chunk(REPLY[..cut].into()), now);
    app.update_placed(Msg::StreamCancelled, now);
    let screen = render(&app, 100, 30);
    let status = screen.lines().find(|l| l.contains("rejected")).expect("a status line");
    assert!(status.contains("⊘ cancelled") && !status.contains('✓'), "{status}");
}

/// In a terminal too small to show the hunk list, the screen says so and keys that act on
/// hunks do nothing (they would act on a hunk no one sees); made larger, they act again.
#[test]
fn a_terminal_too_small_to_review_says_so_and_keys_do_not_act() {
    let (mut app, now) = finished();
    let first = app.selected;
    app.update_placed(Msg::Resize(20, 6), now);
    let screen = render(&app, 20, 6);
    assert!(screen.contains("too small"), "{screen}");
    key(&mut app, 'y', now);
    key(&mut app, 'j', now);
    assert_eq!(app.selected, first);
    assert_eq!(app.state_counts().applied + app.state_counts().accepted, 0);
    assert!(app.notice.as_deref().unwrap_or("").contains("too small"));
    app.update_placed(Msg::Resize(80, 24), now);
    key(&mut app, 'j', now);
    assert_ne!(app.selected, first, "at 80x24 keys act");
}

/// A replay re-enacting keys recorded at 160x45, shown in an 80x24 terminal: the help is drawn
/// as its keys read it there (whole, any key closes it), cut to what the terminal shows, not as
/// a help that scrolls.
#[test]
fn a_replay_shows_the_help_as_its_keys_read_it_at_the_recorded_size() {
    let (mut app, now) = finished();
    app.update_placed(Msg::Resize(160, 45), now);
    let badge = Msg::ReplayBadge { badge: "REPLAY instant".into(), reenacting: true };
    app.update_placed(badge, now);
    key(&mut app, '?', now);
    let screen = render(&app, 80, 24);
    assert!(screen.contains("any key closes"), "{screen}");
    assert!(!screen.contains("↑↓ scroll"), "{screen}");
}
