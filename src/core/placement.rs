//! How an edit was placed: its [`Strategy`] (how the locator matched it, or what kind of edit
//! it was when nothing had to be located), and a [`Placement`] (the strategy, the lines, the
//! similarity) that `execute` builds reports from.
//!
//! The names (`exact`, `fuzzy`, `already-applied`, `whole-merge`, ...) are printed by
//! `redline apply`, written into `--json` and into session journals, and read back from
//! journals: [`Strategy`]'s `Display` and `FromStr` are the one place that spells them, so code
//! compares strategies as values, never as text.
//!
//! Not for: deciding a placement (`locate`, `execute`), or an edit's fate (`report::Status`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::core::locate::MatchKind;

/// How an edit was placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// The locator found the hunk's old text (`exact`, `whitespace`, `indentation`, `elision`,
    /// `fuzzy`).
    Located(MatchKind),
    /// The old text is part of one line, replaced within it.
    PartialLine,
    /// The file already holds the edit's new text: nothing to write.
    AlreadyApplied,
    /// A whole-file listing replaced the file.
    WholeFile,
    /// A whole-file listing with placeholders, merged with the file's lines they stand for.
    WholeMerge,
    /// A new file.
    Create,
    /// The file is deleted.
    Delete,
}

/// Every strategy with its name: the one table `Display` and `FromStr` share.
const NAMES: [(Strategy, &str); 11] = [
    (Strategy::Located(MatchKind::Exact), "exact"),
    (Strategy::Located(MatchKind::Whitespace), "whitespace"),
    (Strategy::Located(MatchKind::Indentation), "indentation"),
    (Strategy::Located(MatchKind::Elision), "elision"),
    (Strategy::Located(MatchKind::Fuzzy), "fuzzy"),
    (Strategy::PartialLine, "partial-line"),
    (Strategy::AlreadyApplied, "already-applied"),
    (Strategy::WholeFile, "whole"),
    (Strategy::WholeMerge, "whole-merge"),
    (Strategy::Create, "create"),
    (Strategy::Delete, "delete"),
];

impl Strategy {
    pub fn name(self) -> &'static str {
        NAMES.iter().find(|(s, _)| *s == self).map(|(_, n)| *n).expect("every strategy is named")
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = String;

    fn from_str(s: &str) -> Result<Strategy, String> {
        NAMES
            .iter()
            .find(|(_, n)| *n == s)
            .map(|(st, _)| *st)
            .ok_or_else(|| format!("unknown placement strategy {s:?}"))
    }
}

/// Serialised by name, as `redline apply --json` and the journal have always written it.
impl Serialize for Strategy {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Strategy {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Strategy, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// Where and how an edit was placed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    pub strategy: Strategy,
    /// 1-based inclusive line range of the old text in the file as it was when placed.
    pub lines: Option<(usize, usize)>,
    /// 0..1: how closely the old text matched the file.
    pub similarity: Option<f64>,
}

impl Placement {
    /// A placement that names no lines and no similarity (a new or deleted file).
    pub fn of(strategy: Strategy) -> Placement {
        Placement { strategy, lines: None, similarity: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back_as_its_strategy() {
        for (strategy, name) in NAMES {
            assert_eq!(strategy.to_string(), name);
            assert_eq!(name.parse::<Strategy>(), Ok(strategy));
            let json = serde_json::to_string(&strategy).unwrap();
            assert_eq!(json, format!("\"{name}\""));
            assert_eq!(serde_json::from_str::<Strategy>(&json).unwrap(), strategy);
        }
        assert!("fuzzy 93%".parse::<Strategy>().is_err());
    }
}
