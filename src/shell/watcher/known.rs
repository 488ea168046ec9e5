//! What each watched file was last seen to hold, so that an event on a file whose content is
//! what was seen already does nothing at all: no message, no journal record, no request.
//!
//! A file's [`Stamp`] (size and modification time) settles most events without opening the
//! file; when the stamp moved, the content's digest decides (a `touch`, a checkout that writes
//! the same bytes, an editor saving unchanged text). A stamp taken within [`RACY`] of its own
//! modification time is not trusted on its own: a second write in the same clock tick can keep
//! both size and time (git's "racily clean" entries), so such a file is read once more.
//!
//! [`Known::baseline`] reads a whole project when watching starts and names the trigger comments
//! already there: they are not new, and a later save that keeps them asks nothing.
//!
//! Not for: deciding what a change means (`app`), or which events come at all (`watcher`).

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, SystemTime};

use sha2::{Digest as _, Sha256};

use crate::core::file::Source;
use crate::core::trigger::{self, TriggerId};
use crate::shell::workspace::Workspace;

/// How close to the moment it was seen a file's modification time must be for its stamp to be
/// checked by content next time (coarse file-system clocks tick in up to 2 s).
pub const RACY: Duration = Duration::from_secs(2);

/// Files larger than this are not read when watching starts: their stamp alone is kept, and
/// their first change is taken as new content.
pub const BASELINE_MAX_LEN: u64 = 4 * 1024 * 1024;

/// A file's size and modification time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    pub len: u64,
    pub modified: Option<SystemTime>,
}

impl Stamp {
    /// The stamp of the file at `path`; `None` when there is no regular file there.
    pub fn of(path: &Path) -> Option<Stamp> {
        let meta = std::fs::metadata(path).ok().filter(|m| m.is_file())?;
        Some(Stamp { len: meta.len(), modified: meta.modified().ok() })
    }
}

type Digest = [u8; 32];

fn digest(source: &Source) -> Digest {
    let mut h = Sha256::new();
    match source {
        Source::Text(text) => {
            h.update(b"text\0");
            h.update(text.as_bytes());
        }
        Source::Missing => h.update(b"missing\0"),
        Source::Unusable(why) => {
            h.update(b"unusable\0");
            h.update(why.as_bytes());
        }
    }
    h.finalize().into()
}

#[derive(Debug, Clone)]
struct Entry {
    stamp: Option<Stamp>,
    /// `None`: the content was never read (a file too large for the baseline).
    digest: Option<Digest>,
    /// The stamp was taken too close to the modification time to be trusted alone.
    racy: bool,
}

/// What each file was last seen to hold.
#[derive(Debug, Default)]
pub struct Known {
    files: HashMap<String, Entry>,
}

impl Known {
    pub fn new() -> Known {
        Known::default()
    }

    /// How many files are known.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Take in what a file holds, seen at `now` (`source: None`: its stamp alone).
    pub fn remember(
        &mut self,
        path: &str,
        stamp: Option<Stamp>,
        source: Option<&Source>,
        now: SystemTime,
    ) {
        let entry = Entry { stamp, digest: source.map(digest), racy: is_racy(stamp, now) };
        self.files.insert(path.to_string(), entry);
    }

    /// A file is followed from now on: that it is there (or not), as far as its stamp says, is
    /// remembered unless something of it is already, so that its removal is a change; what
    /// it holds is not (the first change read is reported whatever it holds).
    pub fn follow(&mut self, path: &str, stamp: Option<Stamp>, now: SystemTime) {
        if !self.files.contains_key(path) {
            self.remember(path, stamp, None, now);
        }
    }

    /// What the file holds now, if that differs from what was last seen of it (and is then
    /// remembered); `None` when it is the same. `stamp` is the file's stamp now; `read` reads
    /// it, and is called only when the stamp does not settle the question. A file never seen
    /// before is new, unless it does not exist either.
    pub fn changed(
        &mut self,
        path: &str,
        stamp: Option<Stamp>,
        read: impl FnOnce() -> Source,
        now: SystemTime,
    ) -> Option<Source> {
        let before = self.files.get(path);
        match before {
            Some(e) if e.stamp == stamp && (stamp.is_none() || !e.racy) => return None,
            None if stamp.is_none() => return None,
            _ => {}
        }
        let source = read();
        let d = digest(&source);
        let same = before.is_some_and(|e| e.digest == Some(d));
        self.files
            .insert(path.to_string(), Entry { stamp, digest: Some(d), racy: is_racy(stamp, now) });
        (!same).then_some(source)
    }

    /// Every file of `paths` in `workspace` as it is now, and the trigger comments already in
    /// them (which are not new).
    pub fn baseline(workspace: &Workspace, paths: &[String]) -> (Known, Vec<TriggerId>) {
        let mut known = Known::new();
        let mut present = Vec::new();
        for path in paths {
            let stamp = Stamp::of(&workspace.root().join(path));
            let now = SystemTime::now();
            if stamp.is_none_or(|s| s.len > BASELINE_MAX_LEN) {
                known.remember(path, stamp, None, now);
                continue;
            }
            let source = workspace.read_source(path);
            if let Source::Text(text) = &source {
                present.extend(trigger::present(path, text));
            }
            known.remember(path, stamp, Some(&source), now);
        }
        (known, present)
    }
}

fn is_racy(stamp: Option<Stamp>, now: SystemTime) -> bool {
    match stamp.and_then(|s| s.modified) {
        Some(modified) => {
            now.duration_since(modified).is_ok_and(|age| age < RACY) || modified > now
        }
        None => stamp.is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn stamp(len: u64, secs: u64) -> Option<Stamp> {
        Some(Stamp { len, modified: Some(SystemTime::UNIX_EPOCH + Duration::from_secs(secs)) })
    }

    fn text(s: &str) -> Source {
        Source::Text(s.to_string())
    }

    /// A clock long after the stamps above: none of them is racy.
    fn later() -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000)
    }

    #[test]
    fn a_followed_file_removed_before_any_change_is_a_change() {
        let mut k = Known::new();
        assert_eq!(k.changed("a.py", None, || panic!("read"), later()), None, "never there");
        k.follow("a.py", stamp(3, 100), later());
        assert_eq!(k.changed("a.py", None, || Source::Missing, later()), Some(Source::Missing));
        // Its first change is reported whatever it holds (what it held when followed is not
        // known here), and following it again forgets nothing.
        k.follow("b.py", stamp(3, 100), later());
        assert_eq!(k.changed("b.py", stamp(4, 200), || text("b\n"), later()), Some(text("b\n")));
        k.follow("b.py", stamp(3, 100), later());
        assert_eq!(k.changed("b.py", stamp(4, 200), || text("b\n"), later()), None);
        // A file followed before it exists: its creation is a change.
        k.follow("c.py", None, later());
        assert_eq!(k.changed("c.py", stamp(2, 300), || text("c\n"), later()), Some(text("c\n")));
    }

    #[test]
    fn an_unchanged_stamp_settles_it_without_reading() {
        let mut k = Known::new();
        k.remember("a.py", stamp(3, 100), Some(&text("ab\n")), later());
        let reads = Cell::new(0);
        let read = || {
            reads.set(reads.get() + 1);
            text("ab\n")
        };
        assert_eq!(k.changed("a.py", stamp(3, 100), read, later()), None);
        assert_eq!(reads.get(), 0, "a read of ours is an event on some platforms: never read");
    }

    #[test]
    fn a_moved_stamp_with_the_same_content_is_no_change() {
        let mut k = Known::new();
        k.remember("a.py", stamp(3, 100), Some(&text("ab\n")), later());
        assert_eq!(k.changed("a.py", stamp(3, 200), || text("ab\n"), later()), None, "touch");
        // The new stamp is remembered: the next event with it reads nothing.
        assert_eq!(k.changed("a.py", stamp(3, 200), || panic!("read"), later()), None);
    }

    #[test]
    fn new_content_is_reported_once() {
        let mut k = Known::new();
        k.remember("a.py", stamp(3, 100), Some(&text("ab\n")), later());
        let new = text("ab  # AI! fix\n");
        assert_eq!(k.changed("a.py", stamp(14, 300), || new.clone(), later()), Some(new.clone()));
        assert_eq!(k.changed("a.py", stamp(14, 300), || new.clone(), later()), None);
        assert_eq!(k.changed("a.py", stamp(14, 400), || new.clone(), later()), None);
    }

    #[test]
    fn a_recent_stamp_is_checked_by_content_once_more() {
        let mut k = Known::new();
        let seen_at = SystemTime::UNIX_EPOCH + Duration::from_secs(100);
        k.remember("a.py", stamp(3, 100), Some(&text("ab\n")), seen_at);
        // Same size, same second, other bytes: only the content tells.
        assert_eq!(k.changed("a.py", stamp(3, 100), || text("cd\n"), later()), Some(text("cd\n")));
        assert_eq!(k.changed("a.py", stamp(3, 100), || panic!("read"), later()), None);
    }

    #[test]
    fn files_that_appear_and_disappear() {
        let mut k = Known::new();
        assert_eq!(k.changed("new.py", None, || panic!("read"), later()), None, "never there");
        assert_eq!(k.changed("new.py", stamp(2, 100), || text("x\n"), later()), Some(text("x\n")));
        assert_eq!(k.changed("new.py", None, || Source::Missing, later()), Some(Source::Missing));
        assert_eq!(k.changed("new.py", None, || panic!("read"), later()), None, "still gone");
    }

    #[test]
    fn a_file_whose_content_was_never_read_is_new_when_its_stamp_moves() {
        let mut k = Known::new();
        k.remember("big.bin", stamp(9, 100), None, later());
        assert_eq!(k.changed("big.bin", stamp(9, 100), || panic!("read"), later()), None);
        assert_eq!(k.changed("big.bin", stamp(9, 200), || text("x"), later()), Some(text("x")));
    }

    #[test]
    fn the_baseline_knows_every_file_and_the_triggers_already_there() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("todo")).unwrap();
        let store = "def remove(self, task_id):  # do not crash on unknown ids AI!\n    pass\n";
        std::fs::write(dir.path().join("todo/store.py"), store).unwrap();
        std::fs::write(dir.path().join("README.md"), "# todo\n").unwrap();
        let ws = Workspace::open(dir.path()).unwrap();
        let (mut known, present) = Known::baseline(&ws, &ws.list_files());
        assert_eq!(known.len(), 2);
        assert_eq!(present.len(), 1);
        assert_eq!(present[0].path, "todo/store.py");
        let path = ws.root().join("todo/store.py");
        let read = || ws.read_source("todo/store.py");
        assert_eq!(known.changed("todo/store.py", Stamp::of(&path), read, SystemTime::now()), None);
    }
}
