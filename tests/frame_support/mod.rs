//! Shared by the tests that look at the review screen: a frame drawn into a `TestBackend` with
//! the plain theme (no colours), as text.

#![allow(dead_code)]
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use redline::app::App;
use redline::ui::highlight::Highlighter;
use redline::ui::theme::Theme;

/// The review screen drawn into a `TestBackend`, as text.
pub fn render(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("a test terminal");
    let theme = Theme::plain();
    let hl = Highlighter::off();
    terminal.draw(|f| redline::ui::draw(f, app, &theme, &hl)).expect("a frame");
    let buf = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        let mut covered = 0;
        for x in 0..buf.area.width {
            // The cells a wide character covers are not text of their own.
            if covered > 0 {
                covered -= 1;
                continue;
            }
            let symbol = buf[(x, y)].symbol();
            covered = unicode_width::UnicodeWidthStr::width(symbol).saturating_sub(1);
            line.push_str(symbol);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The review screen drawn with [`Theme::debug`], each run of cells of one style written as
/// `<fg bg modifiers>text</>` with the theme's names for the colours (`<added on
/// added_emph_bg>total</>`), as jj's `--color=debug` does; unstyled text is written as it is.
pub fn render_styles(app: &App, w: u16, h: u16) -> String {
    use ratatui::style::{Color, Modifier};
    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("a test terminal");
    let theme = Theme::debug();
    let hl = Highlighter::off();
    terminal.draw(|f| redline::ui::draw(f, app, &theme, &hl)).expect("a frame");
    let buf = terminal.backend().buffer();
    let name = |c: Color| match c {
        Color::Reset => None,
        c => Some(theme.color_name(c).map_or_else(|| format!("{c:?}"), str::to_string)),
    };
    let tag = |fg: Color, bg: Color, m: Modifier| {
        let mut parts: Vec<String> = Vec::new();
        if let Some(f) = name(fg) {
            parts.push(f);
        }
        if let Some(b) = name(bg) {
            parts.push(format!("on {b}"));
        }
        for (flag, word) in [
            (Modifier::BOLD, "bold"),
            (Modifier::ITALIC, "italic"),
            (Modifier::UNDERLINED, "underlined"),
            (Modifier::REVERSED, "reversed"),
        ] {
            if m.contains(flag) {
                parts.push(word.into());
            }
        }
        parts.join(" ")
    };
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        let mut open = String::new();
        let mut run = String::new();
        let flush = |line: &mut String, open: &str, run: &mut String| {
            if open.is_empty() {
                line.push_str(run);
            } else {
                line.push_str(&format!("<{open}>{run}</>"));
            }
            run.clear();
        };
        let mut covered = 0;
        for x in 0..buf.area.width {
            if covered > 0 {
                covered -= 1;
                continue;
            }
            let cell = &buf[(x, y)];
            covered = unicode_width::UnicodeWidthStr::width(cell.symbol()).saturating_sub(1);
            let t = tag(cell.fg, cell.bg, cell.modifier);
            if t != open {
                flush(&mut line, &open, &mut run);
                open = t;
            }
            run.push_str(cell.symbol());
        }
        flush(&mut line, &open, &mut run);
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
