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
        let mut per_file: crate::core::hash::HashMap<&str, usize> = Default::default();
        let mut number: crate::core::hash::HashMap<HunkId, usize> = Default::default();
        let mut parts: crate::core::hash::HashMap<HunkId, (usize, usize)> = Default::default();
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
        // The bytes `hunk.old_text().hash(..)` and `new_text()`'s would write, without making
        // the strings: FNV takes bytes one by one, so the ids are the ones recorded before.
        Change::Modify { hunk } => {
            hash_joined(hunk.old_lines(), &mut h);
            hash_joined(hunk.new_lines(), &mut h);
        }
        Change::Create { content } | Change::Replace { content } => content.hash(&mut h),
        Change::Delete { .. } => "delete".hash(&mut h),
    }
    h.finish()
}

/// The id of the `n`th hunk for an edit whose first hunk has id `first` (the same edit sent
/// again after its hunk was rejected): the same in every build, like `first`.
pub fn again(first: HunkId, n: u64) -> HunkId {
    let mut h = Fnv::default();
    h.write_u64(first);
    h.write(b"again");
    h.write_u64(n);
    h.finish()
}

/// Hash lines as `str::hash` hashes them joined, each ended by `\n`.
fn hash_joined<'a>(lines: impl Iterator<Item = &'a str>, h: &mut Fnv) {
    for l in lines {
        h.write(l.as_bytes());
        h.write(b"\n");
    }
    // `str`'s `Hash` ends with this byte (so that "ab","c" and "a","bc" differ).
    h.write_u8(0xff);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::parse::{Event, ParseOptions, parse_reply};

    /// Ids are recorded in journals: hashing the lines must give what hashing the joined texts
    /// gave.
    #[test]
    fn a_hunks_id_is_the_hash_of_its_joined_texts() {
        let reply = "a.py\n```\n<<<<<<< SEARCH\ndef f():\n    return 1\n\n=======\ndef f():\n    return 2\n>>>>>>> REPLACE\n```\n";
        let edits: Vec<Edit> = parse_reply(reply, ParseOptions::default())
            .into_iter()
            .filter_map(|e| if let Event::Edit(e) = e { Some(e) } else { None })
            .collect();
        let Change::Modify { hunk } = &edits[0].change else { panic!("a modify edit") };
        let mut h = Fnv::default();
        "a.py".hash(&mut h);
        hunk.old_text().hash(&mut h);
        hunk.new_text().hash(&mut h);
        assert_eq!(hunk_id("a.py", &edits[0]), h.finish());
    }
}
