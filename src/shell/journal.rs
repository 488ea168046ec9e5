//! The session journal on disk: where journals live, writing one as a session goes, finding and
//! reading them again.
//!
//! A journal is `<sessions dir>/<UTC time>-<id>.jsonl`, opened for appending; each batch of
//! records is written with one `write` (whole lines only), and the file is synced whenever a
//! record that must survive a crash is in the batch (a decision, a write's outcome, a stream's
//! end: [`Record::needs_sync`]). The sessions dir is `--session-dir`, else
//! `$REDLINE_SESSION_DIR`, else `sessions/` in the platform's data folder
//! (`~/.local/share/redline/sessions` on Linux).
//!
//! A live session's journal is written by [`Writer`]'s thread, never on the loop's task.
//!
//! Journals are readable by their owner only (they hold the project's code). A journal that
//! cannot be written never stops the review: the failure becomes one warning.
//!
//! Not for: what the records are (`core::session`), what to record (`app::record`).

use crate::provider::secrets::Secrets;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};

use crate::core::session::{self, Blobs, Header, Record, Summary};

mod writer;
pub use writer::Writer;

/// The folder sessions are journaled in.
pub fn sessions_dir(flag: Option<&Path>) -> Result<PathBuf> {
    if let Some(dir) = flag {
        return Ok(dir.to_path_buf());
    }
    if let Some(dir) = std::env::var_os("REDLINE_SESSION_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "redline")
        .map(|d| d.data_dir().join("sessions"))
        .context("cannot find the platform's data folder for sessions; name one with --session-dir")
}

/// Unix time now, in milliseconds.
pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// A new session id: eight hex digits.
pub fn new_id() -> String {
    format!("{:08x}", fastrand::u32(..))
}

/// A journal being written.
pub struct Journal {
    file: File,
    path: PathBuf,
    /// The header and files, written by [`Journal::begin`] once the terminal's size is known.
    opening: Vec<Record>,
    header: Header,
    failed: bool,
    /// The header is written: a session took place.
    begun: bool,
    /// Each text once, and none over the limit (`core::session::Blobs`).
    blobs: Blobs,
    /// What no line may hold (the API key, should a project file hold it): written as `***`.
    secrets: Option<Secrets>,
}

impl Drop for Journal {
    /// A journal whose session never began (the terminal could not be set up) is removed.
    fn drop(&mut self) {
        if !self.begun {
            let _ = fs::remove_file(&self.path);
        }
    }
}

impl Journal {
    /// Create the journal file of a session in `dir` (created if needed); texts longer than
    /// `max_text_bytes` are not journaled (see `core::session::Blobs`).
    pub fn create(
        dir: &Path,
        header: Header,
        files: Vec<Record>,
        max_text_bytes: u64,
    ) -> Result<Journal> {
        fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the sessions folder {}", dir.display()))?;
        let stamp: String = session::utc_timestamp(header.started_ms)
            .chars()
            .filter(|c| *c != '-' && *c != ':')
            .collect();
        let path = dir.join(format!("{stamp}-{}.jsonl", header.id));
        let mut options = OpenOptions::new();
        options.append(true).create_new(true);
        // A journal holds the project's code: readable by its owner only.
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let file = options
            .open(&path)
            .with_context(|| format!("cannot create the journal {}", path.display()))?;
        // Held while the session runs (released by the system when the process ends, however
        // it ends): `redline resume` does not reopen a session that another redline is still
        // writing.
        let _ = file.try_lock();
        // The new name must survive a crash too.
        #[cfg(unix)]
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        let blobs = Blobs::new(max_text_bytes);
        Ok(Journal {
            file,
            path,
            opening: files,
            header,
            failed: false,
            begun: false,
            blobs,
            secrets: None,
        })
    }

    /// Keep `secrets` out of every line written (a project file holding the API key is
    /// journaled with `***` in its place, as the reply text is).
    pub fn keep_out(&mut self, secrets: Secrets) {
        self.secrets = Some(secrets);
    }

    /// An existing journal, reopened to append what a resumed session does (`redline resume`):
    /// its header and files are there already.
    pub fn reopen(path: &Path, header: Header) -> Result<Journal> {
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("cannot reopen the journal {}", path.display()))?;
        if let Err(std::fs::TryLockError::WouldBlock) = file.try_lock() {
            anyhow::bail!(
                "this session is still open in another redline (its journal {} is in use): quit that one first, or review there",
                path.display()
            );
        }
        Ok(Journal {
            file,
            path: path.to_path_buf(),
            opening: Vec::new(),
            header,
            failed: false,
            begun: true,
            // Texts journaled before the reopening are written again once if needed: a reader
            // takes either copy.
            blobs: Blobs::new(session::DEFAULT_MAX_TEXT_BYTES),
            secrets: None,
        })
    }

    /// [`Journal::create`] in the sessions folder `flag` names (or the default one); the
    /// warning to show when it cannot be created.
    pub fn create_in(
        flag: Option<&Path>,
        header: Header,
        files: Vec<Record>,
        max_text_bytes: u64,
    ) -> (Option<Journal>, Option<String>) {
        let created =
            sessions_dir(flag).and_then(|dir| Journal::create(&dir, header, files, max_text_bytes));
        match created {
            Ok(j) => (Some(j), None),
            Err(e) => (None, Some(format!("this session is not recorded: {e:#}"))),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn id(&self) -> &str {
        &self.header.id
    }

    /// Write the header (with the terminal's size) and the files as sent.
    pub fn begin(&mut self, width: u16, height: u16) -> Option<String> {
        if self.begun {
            // Reopened: the header is written already.
            return None;
        }
        self.begun = true;
        self.header.width = width;
        self.header.height = height;
        let mut records = vec![Record::Session(self.header.clone())];
        records.append(&mut self.opening);
        self.append(&records)
    }

    /// Append records, each line whole, syncing when one of them must survive a crash. The
    /// first failure is returned as a warning; after it nothing more is written.
    pub fn append(&mut self, records: &[Record]) -> Option<String> {
        if self.failed || records.is_empty() {
            return None;
        }
        let text: String =
            records.iter().flat_map(|r| self.blobs.externalize(r)).map(|r| r.to_line()).collect();
        let text = match &self.secrets {
            Some(s) => s.redact(&text),
            None => text,
        };
        let mut result = self.file.write_all(text.as_bytes());
        if result.is_ok() && records.iter().any(Record::needs_sync) {
            result = self.file.sync_data();
        }
        match result {
            Ok(()) => None,
            Err(e) => {
                self.failed = true;
                Some(format!("the session journal {} cannot be written: {e}", self.path.display()))
            }
        }
    }
}

/// Read a journal file: its records up to the last complete line.
pub fn load(path: &Path) -> Result<session::Journal> {
    let bytes =
        fs::read(path).with_context(|| format!("cannot read the journal {}", path.display()))?;
    Ok(session::read(&bytes))
}

/// A journal in the sessions folder.
#[derive(Debug, Clone)]
pub struct Listed {
    pub path: PathBuf,
    pub summary: Summary,
    /// Another redline has the session open now (its journal is locked): not cut, running.
    pub running: bool,
}

/// Whether a journal is locked by a session that runs now ([`Journal::create`] locks it).
fn in_use(path: &Path) -> bool {
    File::open(path).is_ok_and(|f| matches!(f.try_lock_shared(), Err(fs::TryLockError::WouldBlock)))
}

/// Every readable journal in `dir`, newest first.
pub fn list(dir: &Path) -> Result<Vec<Listed>> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot list {}", dir.display())),
    };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        let Ok(journal) = load(&path) else { continue };
        if let Some(summary) = session::summarize(&journal) {
            let running = !summary.ended && in_use(&path);
            out.push(Listed { path, summary, running });
        }
    }
    out.sort_by(|a, b| (b.summary.started_ms, &b.path).cmp(&(a.summary.started_ms, &a.path)));
    Ok(out)
}

/// The journal `arg` names: a file path, `last` (the newest), a session id or a unique prefix
/// of one.
pub fn resolve(dir: &Path, arg: &str) -> Result<PathBuf> {
    let as_path = Path::new(arg);
    if as_path.is_file() {
        return Ok(as_path.to_path_buf());
    }
    let listed = list(dir)?;
    if arg == "last" {
        return match listed.first() {
            Some(l) => Ok(l.path.clone()),
            None => bail!("no sessions in {}", dir.display()),
        };
    }
    let matches: Vec<&Listed> = listed
        .iter()
        .filter(|l| {
            let stem =
                l.path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            l.summary.id.starts_with(arg) || stem.starts_with(arg)
        })
        .collect();
    match matches.as_slice() {
        [one] => Ok(one.path.clone()),
        [] => bail!(
            "no session {arg:?}: not a file, and no session in {} has that id (see `redline sessions`)",
            dir.display()
        ),
        many => bail!(
            "{arg:?} names {} sessions ({}); give more of the id",
            many.len(),
            many.iter().map(|l| l.summary.id.as_str()).collect::<Vec<_>>().join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::session::VERSION;

    pub(super) fn header(id: &str, started_ms: u64) -> Header {
        Header {
            version: VERSION,
            id: id.into(),
            started_ms,
            root: "/p".into(),
            prompt: Some("fix".into()),
            provider: "openai".into(),
            model: "m".into(),
            base_url: None,
            format: "udiff".into(),
            label: "openai · m".into(),
            redline: "0".into(),
            width: 0,
            height: 0,
            project_files: Vec::new(),
            asks_prompt: false,
            keymap: None,
            replay_of: None,
            scratch: false,
            watch: None,
        }
    }

    fn journal(dir: &Path, id: &str, started_ms: u64) -> PathBuf {
        let mut j = Journal::create(
            dir,
            header(id, started_ms),
            Vec::new(),
            session::DEFAULT_MAX_TEXT_BYTES,
        )
        .expect("created");
        assert_eq!(j.begin(100, 30), None);
        assert_eq!(j.append(&[Record::Chunk { t: 5, text: "x".into() }]), None);
        j.path().to_path_buf()
    }

    #[test]
    fn a_journal_is_written_whole_and_found_again() {
        let dir = tempfile::tempdir().unwrap();
        let a = journal(dir.path(), "aaaa1111", 1_000);
        let b = journal(dir.path(), "aaab2222", 2_000);
        let c = journal(dir.path(), "cccc3333", 3_000);
        assert!(a.file_name().unwrap().to_string_lossy().ends_with("-aaaa1111.jsonl"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&a).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let read = load(&a).unwrap();
        assert_eq!(read.dropped, None);
        assert_eq!(read.header().map(|h| (h.width, h.height)), Some((100, 30)));
        let ids: Vec<String> =
            list(dir.path()).unwrap().into_iter().map(|l| l.summary.id).collect();
        assert_eq!(ids, ["cccc3333", "aaab2222", "aaaa1111"], "newest first");
        assert_eq!(resolve(dir.path(), "last").unwrap(), c);
        assert_eq!(resolve(dir.path(), "aaab").unwrap(), b);
        assert_eq!(resolve(dir.path(), a.to_str().unwrap()).unwrap(), a);
        let ambiguous = resolve(dir.path(), "aaa").unwrap_err().to_string();
        assert!(ambiguous.contains("names 2 sessions"), "{ambiguous}");
        assert!(resolve(dir.path(), "zzz").unwrap_err().to_string().contains("no session"));
        assert!(list(&dir.path().join("none")).unwrap().is_empty());
    }

    #[test]
    fn a_journal_whose_session_never_began_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let j = Journal::create(dir.path(), header("gone", 0), Vec::new(), 1).unwrap();
        let path = j.path().to_path_buf();
        assert!(path.exists());
        drop(j);
        assert!(!path.exists());
    }

    #[test]
    fn a_journal_that_cannot_be_created_is_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        let blocked = dir.path().join("a-file");
        std::fs::write(&blocked, "not a folder").unwrap();
        let (journal, warning) = Journal::create_in(Some(&blocked), header("x", 0), Vec::new(), 1);
        assert!(journal.is_none());
        let warning = warning.expect("a warning");
        assert!(
            warning.starts_with("this session is not recorded: cannot create the sessions folder"),
            "{warning}"
        );
    }
}

#[cfg(test)]
mod size_tests {
    use super::*;
    use crate::core::file::Source;
    use crate::core::session::{FileRecord, MessageRecord, RequestRecord, Why};

    /// A big file sent, sent again inside every request and found changed back to the same
    /// text: the journal holds it once; over the limit, not at all.
    #[test]
    fn a_big_file_is_journaled_once_or_not_at_all() {
        let big = "let value = 12345; // padding padding padding\n".repeat(40_000);
        let sent = |t| FileRecord::new(t, "big.rs", &Source::Text(big.clone()));
        let prompt = format!("big.rs\n```\n{big}```\nfix it");
        let records = |round: usize| {
            let messages =
                vec![MessageRecord::new("system", "be brief"), MessageRecord::new("user", &prompt)];
            vec![
                Record::Request(RequestRecord { t: 1, round, why: Why::Initial, messages }),
                Record::FileChanged(sent(Some(2))),
            ]
        };
        for (limit, most) in [(8 << 20, 2 * big.len() + 256 * 1024), (1 << 20, 64 * 1024)] {
            let dir = tempfile::tempdir().unwrap();
            let header = tests::header("big", 0);
            let mut j =
                Journal::create(dir.path(), header, vec![Record::File(sent(None))], limit).unwrap();
            assert_eq!(j.begin(80, 24), None);
            assert_eq!(j.append(&records(0)), None);
            assert_eq!(j.append(&records(1)), None);
            let size = fs::metadata(j.path()).unwrap().len() as usize;
            assert!(size <= most, "limit {limit}: {size} bytes for a {} byte file", big.len());
            let read = load(j.path()).unwrap();
            let lacks = read.lacking();
            assert_eq!(lacks.is_empty(), limit > 2 * big.len() as u64, "{lacks:?}");
        }
    }
}

#[cfg(test)]
mod lock_tests {
    use super::*;

    #[test]
    fn a_session_still_open_is_not_reopened_and_one_closed_is() {
        let dir = tempfile::tempdir().unwrap();
        let mut live = Journal::create(
            dir.path(),
            tests::header("live", 0),
            Vec::new(),
            session::DEFAULT_MAX_TEXT_BYTES,
        )
        .unwrap();
        assert_eq!(live.begin(80, 24), None);
        let path = live.path().to_path_buf();
        let err = Journal::reopen(&path, tests::header("live", 0)).err().expect("refused");
        assert!(format!("{err:#}").contains("still open in another redline"), "{err:#}");
        let listed = list(dir.path()).unwrap();
        assert!(listed[0].running, "listed as running while open");
        drop(live);
        assert!(!list(dir.path()).unwrap()[0].running);
        assert!(Journal::reopen(&path, tests::header("live", 0)).is_ok());
    }
}
