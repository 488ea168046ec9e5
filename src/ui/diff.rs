//! Painting a hunk's diff lines: the syntax layer's colour runs (what `ui::highlight` finds)
//! merged with the diff layer's background and the changed words' emphasis when a line is
//! drawn, as delta does.
//!
//! Not for: the diff itself (`app::diff_model`), or layout (`ui::diff_view`).

use std::ops::Range;

use ratatui::style::{Color, Style};
use ratatui::text::Span;

/// One line's colour runs: an RGB foreground over a byte range (what `highlight` finds).
pub type LineColors = Vec<((u8, u8, u8), Range<usize>)>;

/// Paint one line: the syntax layer's foregrounds, the diff layer's background (`base`), and
/// the emphasis background over the changed words. At most `max` bytes are painted.
pub fn paint<'a>(
    text: &'a str,
    colors: Option<&LineColors>,
    emph: &[Range<usize>],
    base: Style,
    emph_bg: Option<Color>,
    syntax: impl Fn((u8, u8, u8)) -> Option<Color>,
    max: usize,
) -> Vec<Span<'a>> {
    let end = floor_char(text, text.len().min(max));
    let mut cuts = vec![0, end];
    if let Some(c) = colors {
        for (_, r) in c {
            cuts.extend([r.start, r.end]);
        }
    }
    for r in emph {
        cuts.extend([r.start, r.end]);
    }
    cuts.retain(|&c| c <= end && text.is_char_boundary(c));
    cuts.sort_unstable();
    cuts.dedup();
    let mut spans = Vec::with_capacity(cuts.len());
    for w in cuts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let mut style = base;
        if let Some(fg) = colors
            .and_then(|c| c.iter().find(|(_, r)| r.start <= a && a < r.end))
            .and_then(|(rgb, _)| syntax(*rgb))
        {
            style = style.fg(fg);
        }
        if emph.iter().any(|r| r.start <= a && a < r.end) {
            style = match emph_bg {
                Some(bg) => style.bg(bg),
                None => style.add_modifier(ratatui::style::Modifier::UNDERLINED),
            };
        }
        spans.push(Span::styled(&text[a..b], style));
    }
    spans
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::single_range_in_vec_init)]
    fn painting_merges_syntax_and_emphasis() {
        let colors: LineColors = vec![((1, 1, 1), 0..3), ((2, 2, 2), 3..7)];
        let spans = paint(
            "abcdefg",
            Some(&colors),
            &[2..5],
            Style::default(),
            Some(Color::Red),
            |(r, g, b)| Some(Color::Rgb(r, g, b)),
            100,
        );
        let texts: Vec<&str> = spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(texts, ["ab", "c", "de", "fg"]);
        assert_eq!(spans[1].style.bg, Some(Color::Red));
        assert_eq!(spans[1].style.fg, Some(Color::Rgb(1, 1, 1)));
        assert_eq!(spans[3].style.bg, None);
    }
}
