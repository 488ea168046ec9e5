//! redline's temporary files: `.redline-<pid>-<random>.tmp`, in the folder of the file they
//! replace (an atomic rename needs the same file system).
//!
//! A write that is killed (`kill -9`, a power cut) leaves its temporary file behind. The process
//! id in the name says whose it was: the first write of a later run into a folder removes the
//! temporary files there whose process is gone ([`process_is_gone`]). A live process's files are
//! never touched, so two redlines writing in one folder leave each other alone; a process id
//! reused by an unrelated process keeps a leftover until that process ends (harmless: the file
//! is never listed, see [`is_temp_name`]).
//!
//! Not for: writing the files (`write`), listing the project (`super::list_project_files`, which
//! skips these names, as does the watcher).

const PREFIX: &str = ".redline-";
const SUFFIX: &str = ".tmp";

/// A redline temporary file's name (this version's, or an older one's without a process id):
/// never a project file.
pub fn is_temp_name(name: &str) -> bool {
    name.len() > PREFIX.len() + SUFFIX.len() && name.starts_with(PREFIX) && name.ends_with(SUFFIX)
}

/// A new temporary file name for this process.
pub(super) fn fresh_name() -> String {
    format!("{PREFIX}{}-{:08x}{SUFFIX}", std::process::id(), fastrand::u32(..))
}

/// The process that made a temporary file, from its name; `None` for names without one.
pub(super) fn owner_pid(name: &str) -> Option<u32> {
    let middle = name.strip_prefix(PREFIX)?.strip_suffix(SUFFIX)?;
    let (pid, rand) = middle.split_once('-')?;
    if rand.is_empty() || !rand.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    pid.parse().ok().filter(|p| *p > 0)
}

/// True when no process `pid` exists (`kill(pid, 0)` says `ESRCH`). A process of another user
/// (`EPERM`) exists.
#[cfg(unix)]
pub(super) fn process_is_gone(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else { return false };
    // SAFETY: signal 0 only checks that the process exists; nothing is sent.
    let alive = unsafe { libc::kill(pid, 0) } == 0;
    !alive && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
}

#[cfg(not(unix))]
pub(super) fn process_is_gone(_pid: u32) -> bool {
    false
}

/// Whether the entry `name` is a leftover to remove: a temporary file of a process that is gone.
pub(super) fn is_leftover(name: &str) -> bool {
    owner_pid(name).is_some_and(|pid| pid != std::process::id() && process_is_gone(pid))
}

/// Remove the leftovers in the folder `dir` (through its descriptor); how many went.
#[cfg(target_os = "linux")]
pub(super) fn remove_leftovers(dir: std::os::fd::BorrowedFd<'_>) -> usize {
    use rustix::fs::{AtFlags, Dir, FileType};
    let Ok(mut entries) = Dir::read_from(dir) else { return 0 };
    let mut removed = 0;
    while let Some(Ok(entry)) = entries.read() {
        let Ok(name) = entry.file_name().to_str() else { continue };
        if entry.file_type() == FileType::Directory || !is_leftover(name) {
            continue;
        }
        if rustix::fs::unlinkat(dir, name, AtFlags::empty()).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_the_process_id() {
        let name = fresh_name();
        assert!(is_temp_name(&name), "{name}");
        assert_eq!(owner_pid(&name), Some(std::process::id()));
        assert!(!is_leftover(&name), "our own file is never a leftover");
        assert_eq!(owner_pid(".redline-abc123.tmp"), None, "an older name has no process id");
        assert!(is_temp_name(".redline-abc123.tmp"));
        assert!(!is_temp_name(".redline-.tmp"));
        assert!(!is_temp_name("redline-1-2.tmp"));
        assert!(!is_temp_name(".redline-1-2.tmp.py"));
    }

    #[cfg(unix)]
    #[test]
    fn a_process_that_ended_is_gone_and_a_live_one_is_not() {
        let mut child = std::process::Command::new("true").spawn().expect("true runs");
        let pid = child.id();
        child.wait().expect("waited");
        assert!(process_is_gone(pid));
        assert!(!process_is_gone(std::process::id()));
        assert!(!process_is_gone(1), "init is someone else's, and alive");
    }
}
