//! The theme: the interface palette and the syntax theme's name, as data. The bundled themes are
//! `themes/dark.toml` and `themes/light.toml` (embedded); a `theme.toml` in the config folder
//! overrides only the keys it names. Colours are mapped to what the terminal can show: 24-bit,
//! the 256-colour palette, the 16 basic colours, or none at all under `NO_COLOR`.
//!
//! Not for: highlighting code (`ui::highlight`), or reading files (the caller passes the text).

use std::collections::BTreeMap;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

const DARK: &str = include_str!("../../themes/dark.toml");
const LIGHT: &str = include_str!("../../themes/light.toml");

/// What colours the terminal shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorMode {
    TrueColor,
    Ansi256,
    Ansi16,
    /// `NO_COLOR`: only bold, reverse and the like.
    None,
}

impl ColorMode {
    /// From the environment: `NO_COLOR`, `COLORTERM`, `TERM`.
    pub fn detect(env: &BTreeMap<String, String>) -> ColorMode {
        let get = |k: &str| env.get(k).map(String::as_str).unwrap_or("");
        if !get("NO_COLOR").is_empty() {
            ColorMode::None
        } else if matches!(get("COLORTERM"), "truecolor" | "24bit") {
            ColorMode::TrueColor
        } else if get("TERM").contains("256") {
            ColorMode::Ansi256
        } else {
            ColorMode::Ansi16
        }
    }
}

/// Which bundled theme suits the terminal: `COLORFGBG` (`fg;bg`) names a light background with
/// 7 or 9-15; anything else, or nothing, is dark.
pub fn default_theme_name(env: &BTreeMap<String, String>) -> &'static str {
    let bg = env.get("COLORFGBG").and_then(|v| v.rsplit(';').next()?.trim().parse::<u8>().ok());
    match bg {
        Some(7) | Some(9..=15) => "light",
        _ => "dark",
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ThemeFile {
    syntax_theme: String,
    text: String,
    dim: String,
    accent: String,
    border: String,
    border_focus: String,
    selection_bg: String,
    added: String,
    removed: String,
    added_bg: String,
    removed_bg: String,
    added_emph_bg: String,
    removed_emph_bg: String,
    line_number: String,
    pending: String,
    accepted: String,
    applied: String,
    rejected: String,
    failed: String,
    conflict: String,
    tail: String,
    code: String,
    status_fg: String,
    status_bg: String,
}

/// The palette in force; `None` means "the terminal's default".
#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    pub mode: ColorMode,
    pub syntax_theme: String,
    pub text: Option<Color>,
    pub dim: Option<Color>,
    pub accent: Option<Color>,
    pub border: Option<Color>,
    pub border_focus: Option<Color>,
    pub selection_bg: Option<Color>,
    pub added: Option<Color>,
    pub removed: Option<Color>,
    pub added_bg: Option<Color>,
    pub removed_bg: Option<Color>,
    pub added_emph_bg: Option<Color>,
    pub removed_emph_bg: Option<Color>,
    pub line_number: Option<Color>,
    pub pending: Option<Color>,
    pub accepted: Option<Color>,
    pub applied: Option<Color>,
    pub rejected: Option<Color>,
    pub failed: Option<Color>,
    pub conflict: Option<Color>,
    pub tail: Option<Color>,
    pub code: Option<Color>,
    pub status_fg: Option<Color>,
    pub status_bg: Option<Color>,
}

impl Theme {
    /// A bundled theme (`dark` or `light`) with `overrides` (a theme.toml's text) on top, its
    /// colours mapped for `mode`. Errors name the file's problem.
    pub fn load(name: &str, overrides: Option<&str>, mode: ColorMode) -> Result<Theme, String> {
        Theme::load_with(name, false, overrides, mode)
    }

    /// [`Theme::load`]; with `explicit` (the command line named the theme) a `base` in the
    /// overrides is ignored: the command line wins over the config folder.
    pub fn load_with(
        name: &str,
        explicit: bool,
        overrides: Option<&str>,
        mode: ColorMode,
    ) -> Result<Theme, String> {
        let mut table: toml::Table = toml::from_str(DARK).map_err(|e| e.to_string())?;
        let mut name = name.to_string();
        let user: Option<toml::Table> = match overrides {
            Some(text) => Some(toml::from_str(text).map_err(|e| format!("theme.toml: {e}"))?),
            None => None,
        };
        if let Some(base) = user.as_ref().and_then(|u| u.get("base")).and_then(|b| b.as_str())
            && !explicit
        {
            name = base.to_string();
        }
        let base = match name.as_str() {
            "dark" => DARK,
            "light" => LIGHT,
            other => return Err(format!("no theme named `{other}` (dark, light)")),
        };
        table.extend(toml::from_str::<toml::Table>(base).map_err(|e| e.to_string())?);
        if let Some(mut user) = user {
            user.remove("base");
            table.extend(user);
        }
        let file: ThemeFile =
            table.try_into().map_err(|e: toml::de::Error| format!("theme.toml: {e}"))?;
        Theme::from_file(file, mode)
    }

    /// No colours at all (`NO_COLOR`, and the snapshot tests).
    pub fn plain() -> Theme {
        let mut t = Theme::load("dark", None, ColorMode::None).expect("the bundled theme parses");
        t.syntax_theme.clear();
        t
    }

    /// No colours and no syntax theme, built without reading a theme file: what the panes
    /// measure their rows with (the rows' widths do not depend on colour).
    pub fn bare() -> Theme {
        Theme {
            mode: ColorMode::None,
            syntax_theme: String::new(),
            text: None,
            dim: None,
            accent: None,
            border: None,
            border_focus: None,
            selection_bg: None,
            added: None,
            removed: None,
            added_bg: None,
            removed_bg: None,
            added_emph_bg: None,
            removed_emph_bg: None,
            line_number: None,
            pending: None,
            accepted: None,
            applied: None,
            rejected: None,
            failed: None,
            conflict: None,
            tail: None,
            code: None,
            status_fg: None,
            status_bg: None,
        }
    }

    /// Every palette entry by its name in the theme file.
    pub fn palette(&self) -> [(&'static str, Option<Color>); 23] {
        [
            ("text", self.text),
            ("dim", self.dim),
            ("accent", self.accent),
            ("border", self.border),
            ("border_focus", self.border_focus),
            ("selection_bg", self.selection_bg),
            ("added", self.added),
            ("removed", self.removed),
            ("added_bg", self.added_bg),
            ("removed_bg", self.removed_bg),
            ("added_emph_bg", self.added_emph_bg),
            ("removed_emph_bg", self.removed_emph_bg),
            ("line_number", self.line_number),
            ("pending", self.pending),
            ("accepted", self.accepted),
            ("applied", self.applied),
            ("rejected", self.rejected),
            ("failed", self.failed),
            ("conflict", self.conflict),
            ("tail", self.tail),
            ("code", self.code),
            ("status_fg", self.status_fg),
            ("status_bg", self.status_bg),
        ]
    }

    /// A theme whose every palette entry is a colour of its own (indexed 1, 2, ...), so that
    /// [`Theme::color_name`] names the entry a drawn cell used: the snapshot tests write style
    /// names into their text with it, as jj's `--color=debug` does.
    pub fn debug() -> Theme {
        let mut t = Theme::plain();
        t.mode = ColorMode::Ansi256;
        let names: Vec<&str> = t.palette().iter().map(|(n, _)| *n).collect();
        for (i, name) in names.into_iter().enumerate() {
            let c = Some(Color::Indexed(i as u8 + 1));
            match name {
                "text" => t.text = c,
                "dim" => t.dim = c,
                "accent" => t.accent = c,
                "border" => t.border = c,
                "border_focus" => t.border_focus = c,
                "selection_bg" => t.selection_bg = c,
                "added" => t.added = c,
                "removed" => t.removed = c,
                "added_bg" => t.added_bg = c,
                "removed_bg" => t.removed_bg = c,
                "added_emph_bg" => t.added_emph_bg = c,
                "removed_emph_bg" => t.removed_emph_bg = c,
                "line_number" => t.line_number = c,
                "pending" => t.pending = c,
                "accepted" => t.accepted = c,
                "applied" => t.applied = c,
                "rejected" => t.rejected = c,
                "failed" => t.failed = c,
                "conflict" => t.conflict = c,
                "tail" => t.tail = c,
                "code" => t.code = c,
                "status_fg" => t.status_fg = c,
                _ => t.status_bg = c,
            }
        }
        t
    }

    /// The name of the palette entry that is this colour (the first, when two share it).
    pub fn color_name(&self, c: Color) -> Option<&'static str> {
        self.palette().into_iter().find(|(_, v)| *v == Some(c)).map(|(n, _)| n)
    }

    fn from_file(f: ThemeFile, mode: ColorMode) -> Result<Theme, String> {
        let c = |key: &str, v: &str| -> Result<Option<Color>, String> {
            let rgb = parse_hex(v)
                .ok_or_else(|| format!("theme: `{key} = \"{v}\"` is not a #rrggbb colour"))?;
            Ok(map_color(rgb, mode))
        };
        Ok(Theme {
            mode,
            text: c("text", &f.text)?,
            dim: c("dim", &f.dim)?,
            accent: c("accent", &f.accent)?,
            border: c("border", &f.border)?,
            border_focus: c("border_focus", &f.border_focus)?,
            selection_bg: c("selection_bg", &f.selection_bg)?,
            added: c("added", &f.added)?,
            removed: c("removed", &f.removed)?,
            added_bg: c("added_bg", &f.added_bg)?,
            removed_bg: c("removed_bg", &f.removed_bg)?,
            added_emph_bg: c("added_emph_bg", &f.added_emph_bg)?,
            removed_emph_bg: c("removed_emph_bg", &f.removed_emph_bg)?,
            line_number: c("line_number", &f.line_number)?,
            pending: c("pending", &f.pending)?,
            accepted: c("accepted", &f.accepted)?,
            applied: c("applied", &f.applied)?,
            rejected: c("rejected", &f.rejected)?,
            failed: c("failed", &f.failed)?,
            conflict: c("conflict", &f.conflict)?,
            tail: c("tail", &f.tail)?,
            code: c("code", &f.code)?,
            status_fg: c("status_fg", &f.status_fg)?,
            status_bg: c("status_bg", &f.status_bg)?,
            syntax_theme: f.syntax_theme,
        })
    }

    /// A foreground style.
    pub fn fg(&self, c: Option<Color>) -> Style {
        c.map_or_else(Style::default, |c| Style::default().fg(c))
    }

    /// The selected row: a background, or reverse video without colours.
    pub fn selected(&self) -> Style {
        match self.selection_bg {
            Some(bg) => Style::default().bg(bg).add_modifier(Modifier::BOLD),
            None => Style::default().add_modifier(Modifier::REVERSED),
        }
    }

    /// Map a syntax colour for this terminal.
    pub fn syntax(&self, rgb: (u8, u8, u8)) -> Option<Color> {
        map_color(rgb, self.mode)
    }
}

fn parse_hex(v: &str) -> Option<(u8, u8, u8)> {
    let h = v.strip_prefix('#')?;
    if h.len() != 6 {
        return None;
    }
    let n = u32::from_str_radix(h, 16).ok()?;
    Some(((n >> 16) as u8, (n >> 8) as u8, n as u8))
}

/// An RGB colour as the terminal can show it.
pub fn map_color((r, g, b): (u8, u8, u8), mode: ColorMode) -> Option<Color> {
    match mode {
        ColorMode::TrueColor => Some(Color::Rgb(r, g, b)),
        ColorMode::Ansi256 => Some(Color::Indexed(nearest_256(r, g, b))),
        ColorMode::Ansi16 => Some(nearest_16(r, g, b)),
        ColorMode::None => None,
    }
}

fn dist(a: (i32, i32, i32), b: (i32, i32, i32)) -> i32 {
    (a.0 - b.0).pow(2) + (a.1 - b.1).pow(2) + (a.2 - b.2).pow(2)
}

/// The nearest of the 6x6x6 cube and the 24 greys (indices 16-255).
pub fn nearest_256(r: u8, g: u8, b: u8) -> u8 {
    const LEVELS: [i32; 6] = [0, 95, 135, 175, 215, 255];
    let level =
        |v: u8| -> usize { (0..6).min_by_key(|&i| (LEVELS[i] - i32::from(v)).abs()).unwrap_or(0) };
    let (ri, gi, bi) = (level(r), level(g), level(b));
    let cube = (LEVELS[ri], LEVELS[gi], LEVELS[bi]);
    let want = (i32::from(r), i32::from(g), i32::from(b));
    let avg = (i32::from(r) + i32::from(g) + i32::from(b)) / 3;
    let gi_ = ((avg - 8).max(0) / 10).min(23);
    let grey = 8 + gi_ * 10;
    if dist((grey, grey, grey), want) < dist(cube, want) {
        (232 + gi_) as u8
    } else {
        (16 + ri * 36 + gi * 6 + bi) as u8
    }
}

/// The nearest of the 16 basic colours (xterm's values).
pub fn nearest_16(r: u8, g: u8, b: u8) -> Color {
    const BASIC: [(Color, (i32, i32, i32)); 16] = [
        (Color::Black, (0, 0, 0)),
        (Color::Red, (205, 0, 0)),
        (Color::Green, (0, 205, 0)),
        (Color::Yellow, (205, 205, 0)),
        (Color::Blue, (0, 0, 238)),
        (Color::Magenta, (205, 0, 205)),
        (Color::Cyan, (0, 205, 205)),
        (Color::Gray, (229, 229, 229)),
        (Color::DarkGray, (127, 127, 127)),
        (Color::LightRed, (255, 0, 0)),
        (Color::LightGreen, (0, 255, 0)),
        (Color::LightYellow, (255, 255, 0)),
        (Color::LightBlue, (92, 92, 255)),
        (Color::LightMagenta, (255, 0, 255)),
        (Color::LightCyan, (0, 255, 255)),
        (Color::White, (255, 255, 255)),
    ];
    let want = (i32::from(r), i32::from(g), i32::from(b));
    BASIC.iter().min_by_key(|(_, rgb)| dist(*rgb, want)).map_or(Color::Reset, |(c, _)| *c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn bundled_themes_load_and_overrides_touch_only_their_keys() {
        let dark = Theme::load("dark", None, ColorMode::TrueColor).unwrap();
        let light = Theme::load("light", None, ColorMode::TrueColor).unwrap();
        assert_ne!(dark.text, light.text);
        let t = Theme::load("dark", Some("added = \"#010203\"\n"), ColorMode::TrueColor).unwrap();
        assert_eq!(t.added, Some(Color::Rgb(1, 2, 3)));
        assert_eq!(t.removed, dark.removed);
        let t = Theme::load("dark", Some("base = \"light\"\n"), ColorMode::TrueColor).unwrap();
        assert_eq!(t.text, light.text);
        let t = Theme::load_with("dark", true, Some("base = \"light\"\n"), ColorMode::TrueColor);
        assert_eq!(t.unwrap().text, dark.text, "--theme wins over the config's base");
        let err = Theme::load("dark", Some("added = \"green\"\n"), ColorMode::TrueColor);
        assert!(err.unwrap_err().contains("not a #rrggbb"));
    }

    #[test]
    fn environment_picks_mode_and_theme() {
        assert_eq!(ColorMode::detect(&env(&[("NO_COLOR", "1")])), ColorMode::None);
        assert_eq!(ColorMode::detect(&env(&[("COLORTERM", "truecolor")])), ColorMode::TrueColor);
        assert_eq!(ColorMode::detect(&env(&[("TERM", "xterm-256color")])), ColorMode::Ansi256);
        assert_eq!(ColorMode::detect(&env(&[("TERM", "xterm")])), ColorMode::Ansi16);
        assert_eq!(default_theme_name(&env(&[("COLORFGBG", "0;15")])), "light");
        assert_eq!(default_theme_name(&env(&[("COLORFGBG", "15;0")])), "dark");
        assert_eq!(default_theme_name(&env(&[])), "dark");
    }

    #[test]
    fn the_debug_theme_names_every_entry() {
        let t = Theme::debug();
        for (name, c) in t.palette() {
            assert_eq!(t.color_name(c.unwrap()), Some(name));
        }
    }

    #[test]
    fn colours_degrade_to_the_nearest_indexed_one() {
        assert_eq!(nearest_256(255, 0, 0), 196);
        assert_eq!(nearest_256(0, 0, 0), 16);
        assert_eq!(nearest_256(128, 128, 128), 244);
        assert_eq!(nearest_16(250, 10, 10), Color::LightRed);
        assert_eq!(map_color((1, 2, 3), ColorMode::None), None);
    }
}
