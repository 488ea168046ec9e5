//! A hunk's identity (a hash that is the same in every build, so ids can be recorded and
//! replayed) and its number in the hunk list (stable under a search filter and a split).
//!
//! Not for: where a hunk goes, or its state (`review`).

use std::hash::{Hash, Hasher};

use super::{HunkId, Review};
use crate::core::edit::{Change, Edit};

impl Review {
    /// Each hunk's number in the hunk list, in the order of `hunks()`: per file, in order of
    /// arrival; the parts of a split hunk share its number with a letter (`3a`, `3b`). The
    /// numbers never depend on a search filter, and a split renumbers nothing else.
    pub fn labels(&self) -> Vec<String> {
        let mut per_file: std::collections::HashMap<&str, usize> = Default::default();
        let mut number: std::collections::HashMap<HunkId, usize> = Default::default();
        let mut parts: std::collections::HashMap<HunkId, (usize, usize)> = Default::default();
        for h in self.hunks.iter() {
            parts.entry(h.origin).or_default().1 += 1;
        }
        self.hunks
            .iter()
            .map(|h| {
                let n = *number.entry(h.origin).or_insert_with(|| {
                    let n = per_file.entry(h.path.as_str()).or_default();
                    *n += 1;
                    *n
                });
                let (seen, total) = parts.get_mut(&h.origin).expect("counted above");
                *seen += 1;
                match (*total, *seen) {
                    (1, _) => n.to_string(),
                    (_, k @ 1..=26) => format!("{n}{}", char::from(b'a' + (k - 1) as u8)),
                    (_, k) => format!("{n}.{k}"),
                }
            })
            .collect()
    }
}

/// A stable identity for a hunk: its path and its old and new text.
pub fn hunk_id(path: &str, edit: &Edit) -> HunkId {
    let mut h = Fnv::default();
    path.hash(&mut h);
    match &edit.change {
        Change::Modify { hunk } => {
            hunk.old_text().hash(&mut h);
            hunk.new_text().hash(&mut h);
        }
        Change::Create { content } | Change::Replace { content } => content.hash(&mut h),
        Change::Delete { .. } => "delete".hash(&mut h),
    }
    h.finish()
}

/// FNV-1a: a hash that is the same in every build, so ids can be recorded and replayed.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}
