//! The app's own key type: what `keymap.toml`, the journal and the help screen name, and what
//! [`Msg::Key`](super::Msg::Key) carries. One grammar, written `ctrl-c`, `alt-x`, `shift-J`,
//! `enter`, `pagedown`, `space`, `f5` ([`Display`](fmt::Display)); read case-insensitively for
//! modifiers and named keys, with `-` or `+` between them ([`FromStr`]), so journals written
//! with `ctrl+c` still replay.
//!
//! Not for: what a key does (`keymap`, `keys`), or reading keys from the terminal (the shell
//! turns crossterm's events into these).

use std::fmt;
use std::ops::{BitOr, BitOrAssign};
use std::str::FromStr;

/// The modifier keys held with a key.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct KeyModifiers(u8);

impl KeyModifiers {
    pub const NONE: KeyModifiers = KeyModifiers(0);
    pub const SHIFT: KeyModifiers = KeyModifiers(1);
    pub const CONTROL: KeyModifiers = KeyModifiers(1 << 1);
    pub const ALT: KeyModifiers = KeyModifiers(1 << 2);
    pub const SUPER: KeyModifiers = KeyModifiers(1 << 3);
    pub const HYPER: KeyModifiers = KeyModifiers(1 << 4);
    pub const META: KeyModifiers = KeyModifiers(1 << 5);

    /// Whether every modifier of `other` is held.
    pub fn contains(self, other: KeyModifiers) -> bool {
        self.0 & other.0 == other.0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl BitOr for KeyModifiers {
    type Output = KeyModifiers;
    fn bitor(self, rhs: KeyModifiers) -> KeyModifiers {
        KeyModifiers(self.0 | rhs.0)
    }
}

impl BitOrAssign for KeyModifiers {
    fn bitor_assign(&mut self, rhs: KeyModifiers) {
        self.0 |= rhs.0;
    }
}

impl fmt::Debug for KeyModifiers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> =
            MODIFIERS.iter().filter(|(m, _)| self.contains(*m)).map(|(_, n)| *n).collect();
        write!(f, "KeyModifiers({})", names.join("|"))
    }
}

/// A key, without its modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyCode {
    Char(char),
    F(u8),
    Enter,
    Esc,
    Backspace,
    Tab,
    BackTab,
    Up,
    Down,
    Left,
    Right,
    PageUp,
    PageDown,
    Home,
    End,
    Delete,
    Insert,
    /// A key with no name here (media keys, ...): it stands for no command.
    Null,
}

/// A key with its modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyEvent {
    pub code: KeyCode,
    pub modifiers: KeyModifiers,
}

impl KeyEvent {
    pub const fn new(code: KeyCode, modifiers: KeyModifiers) -> Self {
        KeyEvent { code, modifiers }
    }

    /// How the help screen and the hint bar show the key (`C-c`, `↓`, `PgDn`).
    pub fn label(&self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "space".to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::F(n) => format!("F{n}"),
            KeyCode::Up => "↑".into(),
            KeyCode::Down => "↓".into(),
            KeyCode::Left => "←".into(),
            KeyCode::Right => "→".into(),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::PageDown => "PgDn".into(),
            KeyCode::Home => "Home".into(),
            KeyCode::End => "End".into(),
            KeyCode::Tab => "Tab".into(),
            KeyCode::BackTab => "S-Tab".into(),
            KeyCode::Enter => "Enter".into(),
            KeyCode::Esc => "Esc".into(),
            KeyCode::Backspace => "Bksp".into(),
            other => format!("{other:?}"),
        };
        let mut out = String::new();
        if self.modifiers.contains(KeyModifiers::CONTROL) {
            out.push_str("C-");
        }
        if self.modifiers.contains(KeyModifiers::ALT) {
            out.push_str("M-");
        }
        out.push_str(&base);
        out
    }
}

impl From<KeyCode> for KeyEvent {
    fn from(code: KeyCode) -> Self {
        KeyEvent::new(code, KeyModifiers::NONE)
    }
}

const MODIFIERS: &[(KeyModifiers, &str)] = &[
    (KeyModifiers::CONTROL, "ctrl"),
    (KeyModifiers::ALT, "alt"),
    (KeyModifiers::SHIFT, "shift"),
    (KeyModifiers::SUPER, "super"),
    (KeyModifiers::HYPER, "hyper"),
    (KeyModifiers::META, "meta"),
];

const NAMED: &[(KeyCode, &str)] = &[
    (KeyCode::Enter, "enter"),
    (KeyCode::Esc, "esc"),
    (KeyCode::Backspace, "backspace"),
    (KeyCode::Tab, "tab"),
    (KeyCode::BackTab, "backtab"),
    (KeyCode::Up, "up"),
    (KeyCode::Down, "down"),
    (KeyCode::Left, "left"),
    (KeyCode::Right, "right"),
    (KeyCode::PageUp, "pageup"),
    (KeyCode::PageDown, "pagedown"),
    (KeyCode::Home, "home"),
    (KeyCode::End, "end"),
    (KeyCode::Delete, "delete"),
    (KeyCode::Insert, "insert"),
    (KeyCode::Null, "null"),
    (KeyCode::Char(' '), "space"),
];

impl fmt::Display for KeyEvent {
    /// Modifiers joined with `-`, then the character or the key's name: `y`, `shift-J`,
    /// `ctrl-c`, `enter`, `f5`, `ctrl-+`, `space`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (m, name) in MODIFIERS {
            if self.modifiers.contains(*m) {
                write!(f, "{name}-")?;
            }
        }
        match self.code {
            KeyCode::F(n) => write!(f, "f{n}"),
            code => match NAMED.iter().find(|(c, _)| *c == code) {
                Some((_, name)) => f.write_str(name),
                None => match code {
                    KeyCode::Char(c) => write!(f, "{c}"),
                    _ => f.write_str("null"),
                },
            },
        }
    }
}

/// A text that names no key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAKey(pub String);

impl fmt::Display for NotAKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a key name", self.0)
    }
}

impl std::error::Error for NotAKey {}

impl FromStr for KeyEvent {
    type Err = NotAKey;

    /// A key in [`Display`](fmt::Display)'s form; `+` between the parts is read as `-` (the
    /// journal's old spelling), modifiers and named keys in any case, and `shift-tab` as
    /// `backtab`.
    fn from_str(text: &str) -> Result<Self, NotAKey> {
        let mut modifiers = KeyModifiers::NONE;
        let mut rest = text;
        'strip: loop {
            for (m, name) in MODIFIERS {
                let Some(head) = rest.get(..name.len()) else { continue };
                let after = &rest[name.len()..];
                if head.eq_ignore_ascii_case(name)
                    && let Some(after) = after.strip_prefix(['-', '+'])
                    && !after.is_empty()
                {
                    modifiers |= *m;
                    rest = after;
                    continue 'strip;
                }
            }
            break;
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) => KeyCode::Char(c),
            _ => {
                let lower = rest.to_ascii_lowercase();
                match NAMED.iter().find(|(_, n)| *n == lower) {
                    Some((code, _)) => *code,
                    None => match lower.strip_prefix('f').and_then(|n| n.parse().ok()) {
                        Some(n) => KeyCode::F(n),
                        None => return Err(NotAKey(text.to_string())),
                    },
                }
            }
        };
        // What terminals send for shift-tab.
        let code = match code {
            KeyCode::Tab if modifiers.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
            code => code,
        };
        Ok(KeyEvent::new(code, modifiers))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Option<KeyEvent> {
        text.parse().ok()
    }

    #[test]
    fn names_round_trip() {
        let keys = [
            KeyEvent::new(KeyCode::Char('y'), KeyModifiers::NONE),
            KeyEvent::new(KeyCode::Char('J'), KeyModifiers::SHIFT),
            KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
            KeyEvent::new(KeyCode::Char('+'), KeyModifiers::CONTROL | KeyModifiers::ALT),
            KeyEvent::new(KeyCode::Char('-'), KeyModifiers::CONTROL),
            KeyEvent::new(KeyCode::Char(' '), KeyModifiers::NONE),
            KeyEvent::new(KeyCode::Char('é'), KeyModifiers::NONE),
            KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE),
            KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT),
            KeyEvent::new(KeyCode::F(12), KeyModifiers::NONE),
            KeyEvent::new(KeyCode::PageDown, KeyModifiers::NONE),
        ];
        for key in keys {
            let name = key.to_string();
            assert_eq!(parse(&name), Some(key), "{name}");
        }
        assert_eq!(keys[2].to_string(), "ctrl-c");
        assert_eq!(keys[3].to_string(), "ctrl-alt-+");
        assert_eq!(keys[5].to_string(), "space");
        assert_eq!(parse("nonsense"), None);
        assert_eq!(parse(""), None);
    }

    #[test]
    fn the_journals_old_spelling_and_the_keymaps_are_one_grammar() {
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(parse("ctrl+c"), Some(ctrl_c));
        assert_eq!(parse("ctrl-c"), Some(ctrl_c));
        assert_eq!(parse("Ctrl-c"), Some(ctrl_c));
        assert_eq!(parse("ctrl+alt++").map(|k| k.to_string()).as_deref(), Some("ctrl-alt-+"));
        assert_eq!(parse("shift+J"), Some(KeyEvent::new(KeyCode::Char('J'), KeyModifiers::SHIFT)));
        assert_eq!(parse(" "), Some(KeyEvent::from(KeyCode::Char(' '))));
        assert_eq!(parse("PageDown"), Some(KeyEvent::from(KeyCode::PageDown)));
        assert_eq!(parse("shift-tab").map(|k| k.code), Some(KeyCode::BackTab));
        assert_eq!(parse("-"), Some(KeyEvent::from(KeyCode::Char('-'))));
    }

    #[test]
    fn labels() {
        assert_eq!(parse("ctrl-c").map(|k| k.label()).as_deref(), Some("C-c"));
        assert_eq!(parse("down").map(|k| k.label()).as_deref(), Some("↓"));
        assert_eq!(parse("space").map(|k| k.label()).as_deref(), Some("space"));
    }
}
