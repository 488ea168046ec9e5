//! Shared by the tests that look at the review screen: a frame drawn into a `TestBackend` with
//! the plain theme (no colours), as text.

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
        for x in 0..buf.area.width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
