//! The keymap: which keys do what, as data. Each [`Action`] has a name (its key in
//! `keymap.toml`), a description (shown in the help overlay, which is built from this table) and
//! its keys. A `keymap.toml` in the config folder replaces the keys of the actions it names and
//! leaves the others alone:
//!
//! ```toml
//! accept = ["y", "enter"]
//! quit = ["q", "ctrl-c"]
//! ```
//!
//! Not for: deciding what an action does (`keys`), the key grammar (`key`), or drawing the help
//! overlay (`ui::overlay`).

use std::collections::BTreeMap;

use crate::app::key::{KeyCode, KeyEvent, KeyModifiers};

/// Everything a key can ask for on the review screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    Next,
    Prev,
    NextFile,
    PrevFile,
    Accept,
    Reject,
    Undo,
    AcceptFile,
    RejectFile,
    AcceptAll,
    Split,
    /// Place an ambiguous hunk at one of its candidate places: the digit of the key pressed.
    Pick,
    Edit,
    ToggleView,
    ToggleWrap,
    ScrollLeft,
    ScrollRight,
    Focus,
    PageUp,
    PageDown,
    Top,
    Bottom,
    Search,
    Retry,
    FollowUp,
    Cancel,
    Log,
    Help,
    Quit,
}

/// Name, description and default keys of every action, in help order.
const TABLE: &[(Action, &str, &str, &[&str])] = &[
    (Action::Next, "next", "next hunk; in the diff or reply: scroll down a line", &["j", "down"]),
    (Action::Prev, "prev", "previous hunk; in the diff or reply: scroll up a line", &["k", "up"]),
    (Action::NextFile, "next_file", "next file", &["J"]),
    (Action::PrevFile, "prev_file", "previous file", &["K"]),
    (Action::Accept, "accept", "accept the hunk (writes it at once)", &["y"]),
    (Action::Reject, "reject", "reject the hunk", &["n"]),
    (Action::Undo, "undo", "undo the last decision (restores the file)", &["u"]),
    (Action::AcceptFile, "accept_file", "accept the rest of the file", &["a"]),
    (Action::RejectFile, "reject_file", "reject the rest of the file", &["d"]),
    (Action::AcceptAll, "accept_all", "accept every finished hunk", &["A"]),
    (Action::Split, "split", "split the hunk into its changes", &["s"]),
    (
        Action::Pick,
        "pick",
        "place a hunk that fits several places there",
        &["1", "2", "3", "4", "5", "6", "7", "8", "9"],
    ),
    (Action::Edit, "edit", "edit the new text in $EDITOR, then accept", &["e"]),
    (Action::ToggleView, "toggle_view", "unified / side-by-side diff", &["v"]),
    (
        Action::ToggleWrap,
        "toggle_wrap",
        "wrap long lines / one row each, scrolled sideways",
        &["w"],
    ),
    (Action::ScrollLeft, "scroll_left", "scroll long lines left (turns wrapping off)", &["<"]),
    (Action::ScrollRight, "scroll_right", "scroll long lines right (turns wrapping off)", &[">"]),
    (Action::Focus, "focus", "move the focus between panes", &["tab"]),
    (Action::PageUp, "page_up", "scroll up a page", &["pageup"]),
    (Action::PageDown, "page_down", "scroll down a page", &["pagedown"]),
    (Action::Top, "top", "first hunk; in the diff or reply: the top", &["g", "home"]),
    (Action::Bottom, "bottom", "last hunk; in the diff or reply: the end", &["G", "end"]),
    (Action::Search, "search", "show hunks whose path or text holds a query", &["/"]),
    (Action::Retry, "retry", "send failed edits and conflicts back to the model", &["r"]),
    (
        Action::FollowUp,
        "follow_up",
        "type a follow-up request (rejected hunks are reported)",
        &["m"],
    ),
    (Action::Cancel, "cancel", "clear the search / stop the stream", &["esc"]),
    (Action::Log, "log", "the messages so far", &["L"]),
    (Action::Help, "help", "this help", &["?"]),
    (Action::Quit, "quit", "quit (asks first if decisions are pending)", &["q", "ctrl-c"]),
];

/// The hint bar's short label of each action, and where it applies (hunk list, diff, reply),
/// in the order the bar shows them: what a pane is for first.
const HINTS: &[(Action, &str, [bool; 3])] = &[
    (Action::Next, "next", [true, false, false]),
    (Action::Prev, "prev", [true, false, false]),
    (Action::Next, "down", [false, true, true]),
    (Action::Prev, "up", [false, true, true]),
    (Action::Accept, "accept", [true, true, false]),
    (Action::Reject, "reject", [true, true, false]),
    (Action::Undo, "undo", [true, true, false]),
    (Action::AcceptFile, "accept file", [true, false, false]),
    (Action::AcceptAll, "accept all", [true, false, false]),
    (Action::Edit, "edit", [true, true, false]),
    (Action::Split, "split", [true, true, false]),
    (Action::ToggleView, "view", [false, true, false]),
    (Action::ToggleWrap, "wrap", [false, true, false]),
    (Action::Top, "top", [false, true, true]),
    (Action::Bottom, "end", [false, true, true]),
    (Action::FollowUp, "follow up", [true, false, true]),
    (Action::Retry, "retry", [true, false, true]),
    (Action::Search, "search", [true, false, false]),
    (Action::Focus, "pane", [true, true, true]),
    (Action::Log, "log", [true, true, true]),
    (Action::Help, "help", [true, true, true]),
    (Action::Quit, "quit", [true, true, true]),
];

/// The panes the hint bar knows, in [`HINTS`]' column order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HintPane {
    Hunks = 0,
    Diff = 1,
    Reply = 2,
}

impl Action {
    /// The action's name in `keymap.toml` (`accept`, `reject_file`, ...).
    pub fn name(self) -> &'static str {
        TABLE.iter().find(|t| t.0 == self).map_or("unknown", |t| t.1)
    }
}

/// Whether a key event is `bound`, a key of the keymap. Shift is not compared for characters
/// (`J` says it), nor are modifiers other than ctrl and alt.
fn binds(bound: &KeyEvent, key: &KeyEvent) -> bool {
    let fold = |k: &KeyEvent| match k.code {
        KeyCode::Char(c) if bound.modifiers.contains(KeyModifiers::CONTROL) => {
            KeyCode::Char(c.to_ascii_lowercase())
        }
        c => c,
    };
    let held = |k: &KeyEvent, m| k.modifiers.contains(m);
    fold(key) == fold(bound)
        && held(key, KeyModifiers::CONTROL) == held(bound, KeyModifiers::CONTROL)
        && held(key, KeyModifiers::ALT) == held(bound, KeyModifiers::ALT)
}

/// A key as `keymap.toml` may name it: [`KeyEvent`]'s grammar, with ctrl and alt as the only
/// modifiers (`shift-tab` is `backtab`; a shifted letter is the capital).
fn keymap_key(text: &str) -> Option<KeyEvent> {
    let key: KeyEvent = text.parse().ok()?;
    let shift_ok = key.code == KeyCode::BackTab;
    let stray = [KeyModifiers::SHIFT, KeyModifiers::SUPER, KeyModifiers::HYPER, KeyModifiers::META]
        .into_iter()
        .any(|m| key.modifiers.contains(m) && !(shift_ok && m == KeyModifiers::SHIFT));
    (!stray).then_some(key)
}

/// One action's entry.
#[derive(Debug, Clone)]
pub struct Binding {
    pub action: Action,
    pub name: &'static str,
    pub description: &'static str,
    pub keys: Vec<KeyEvent>,
}

/// The keymap in force.
#[derive(Debug, Clone)]
pub struct Keymap {
    pub bindings: Vec<Binding>,
}

impl Default for Keymap {
    fn default() -> Self {
        let bindings = TABLE
            .iter()
            .map(|(action, name, description, keys)| Binding {
                action: *action,
                name,
                description,
                keys: keys.iter().filter_map(|k| keymap_key(k)).collect(),
            })
            .collect();
        Keymap { bindings }
    }
}

impl Keymap {
    /// The default keymap with `keymap.toml`'s text applied. Errors name the action or key that
    /// is wrong.
    pub fn with_overrides(text: &str) -> Result<Keymap, String> {
        let table: BTreeMap<String, Vec<String>> =
            toml::from_str(text).map_err(|e| format!("keymap.toml: {e}"))?;
        let mut map = Keymap::default();
        for (name, keys) in table {
            let binding = map.bindings.iter_mut().find(|b| b.name == name).ok_or_else(|| {
                let names: Vec<&str> = TABLE.iter().map(|t| t.1).collect();
                format!("keymap.toml: no action named `{name}` (actions: {})", names.join(", "))
            })?;
            let mut specs = Vec::new();
            for key in keys {
                specs.push(keymap_key(&key).ok_or_else(|| {
                    format!("keymap.toml: `{key}` (for `{name}`) is not a key name")
                })?);
            }
            binding.keys = specs;
        }
        Ok(map)
    }

    /// The action a key asks for.
    pub fn action(&self, key: &KeyEvent) -> Option<Action> {
        self.bindings.iter().find(|b| b.keys.iter().any(|k| binds(k, key))).map(|b| b.action)
    }

    /// The first key of an action, for hints (`?` for help).
    pub fn first_key(&self, action: Action) -> String {
        self.bindings
            .iter()
            .find(|b| b.action == action)
            .and_then(|b| b.keys.first())
            .map_or_else(|| "-".to_string(), KeyEvent::label)
    }

    /// The hint bar of a pane: each action that applies there, as (its first key, a short
    /// label). An action with no key is left out.
    pub fn hints(&self, pane: HintPane) -> Vec<(String, &'static str)> {
        HINTS
            .iter()
            .filter(|(_, _, panes)| panes[pane as usize])
            .filter_map(|(action, label, _)| {
                let key = self.bindings.iter().find(|b| b.action == *action)?.keys.first()?;
                Some((key.label(), *label))
            })
            .collect()
    }

    /// The hint bar while a dialog is open: the dialog's own keys, not the review's (a `y`
    /// under the quit question quits; it accepts nothing).
    pub fn modal_hints(&self, modal: &crate::app::Modal) -> Vec<(String, &'static str)> {
        use crate::app::Modal;
        let scroll = format!("{}/{}", self.first_key(Action::Next), self.first_key(Action::Prev));
        let keys: Vec<(&str, &'static str)> = match modal {
            Modal::ConfirmQuit => vec![("y", "quit"), ("n", "back to the review")],
            Modal::Help(_) | Modal::Log(_) => {
                return vec![(scroll, "scroll"), ("any other key".into(), "close")];
            }
            Modal::Search(_) => vec![("enter", "show the hunks that match"), ("esc", "clear")],
            Modal::Prompt(_) => vec![("enter", "send the request"), ("esc", "quit")],
            Modal::FollowUp(_) => vec![("enter", "send"), ("esc", "back to the review")],
        };
        keys.into_iter().map(|(k, label)| (k.to_string(), label)).collect()
    }

    /// The hint for picking a candidate place (`1-9`: the pick keys' first and last), when any
    /// key picks.
    pub fn pick_hint(&self) -> Option<(String, &'static str)> {
        let keys = &self.bindings.iter().find(|b| b.action == Action::Pick)?.keys;
        let label = match (keys.first()?, keys.last()?) {
            (a, b) if a == b => a.label(),
            (a, b) => format!("{}-{}", a.label(), b.label()),
        };
        Some((label, "pick place"))
    }

    /// The help overlay's lines: keys, then what they do.
    pub fn help_lines(&self) -> Vec<(String, &'static str)> {
        self.bindings
            .iter()
            .map(|b| {
                let keys: Vec<String> = b.keys.iter().map(KeyEvent::label).collect();
                // Nine digit keys read better as a range.
                match self.pick_hint() {
                    Some((range, _)) if b.action == Action::Pick => (range, b.description),
                    _ => (keys.join(" "), b.description),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn defaults_and_shifted_letters() {
        let map = Keymap::default();
        assert_eq!(map.action(&key(KeyCode::Char('j'), KeyModifiers::NONE)), Some(Action::Next));
        assert_eq!(
            map.action(&key(KeyCode::Char('J'), KeyModifiers::SHIFT)),
            Some(Action::NextFile)
        );
        assert_eq!(map.action(&key(KeyCode::Char('c'), KeyModifiers::CONTROL)), Some(Action::Quit));
        assert_eq!(map.action(&key(KeyCode::Char('c'), KeyModifiers::NONE)), None);
    }

    #[test]
    fn overrides_replace_only_what_they_name() {
        let map = Keymap::with_overrides("accept = [\"enter\", \"Y\"]\n").unwrap();
        assert_eq!(map.action(&key(KeyCode::Enter, KeyModifiers::NONE)), Some(Action::Accept));
        assert_eq!(map.action(&key(KeyCode::Char('y'), KeyModifiers::NONE)), None);
        assert_eq!(map.action(&key(KeyCode::Char('n'), KeyModifiers::NONE)), Some(Action::Reject));
        let err = Keymap::with_overrides("acept = [\"y\"]\n").unwrap_err();
        assert!(err.contains("no action named `acept`"), "{err}");
        let err = Keymap::with_overrides("accept = [\"hyper-x\"]\n").unwrap_err();
        assert!(err.contains("not a key name"), "{err}");
    }

    #[test]
    fn help_is_built_from_the_table() {
        let lines = Keymap::default().help_lines();
        assert_eq!(lines.len(), TABLE.len());
        assert_eq!(lines[0].0, "j ↓");
    }

    #[test]
    fn hints_follow_the_keymap_and_the_pane() {
        let map = Keymap::with_overrides("accept = [\"enter\"]\n").unwrap();
        let hunks = map.hints(HintPane::Hunks);
        assert_eq!(hunks[0], ("j".to_string(), "next"));
        assert!(hunks.contains(&("Enter".to_string(), "accept")), "{hunks:?}");
        let reply = map.hints(HintPane::Reply);
        assert!(reply.contains(&("j".to_string(), "down")), "{reply:?}");
        assert!(!reply.iter().any(|(_, l)| *l == "accept"), "{reply:?}");
        let map = Keymap::with_overrides("split = []\n").unwrap();
        assert!(!map.hints(HintPane::Diff).iter().any(|(_, l)| *l == "split"));
    }
}
