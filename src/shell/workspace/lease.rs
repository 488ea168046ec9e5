//! A write lease on the file about to be swapped out: proof that no other descriptor is open on
//! it, so that nobody can write into it once it is displaced.
//!
//! Why: after the swap, a program that opened the file before it (an in-place writer) writes
//! into the displaced file, which redline removes. Without a lease, `write` watches the displaced
//! file for a settle window to catch such a write. Linux grants a write lease (`F_SETLEASE`,
//! `F_WRLCK`) only when no other descriptor has the file open, reading or writing, and breaks it
//! as soon as anyone opens the file. A lease still unbroken right after the swap therefore says
//! that no descriptor from before the swap exists and none was opened meanwhile, so nothing
//! can write into the displaced file and the window can be skipped.
//!
//! Anyone opening the file while the lease is held waits in `open` until it is released (a few
//! microseconds: the swap and one `fcntl`); its open then reaches the displaced file, and the
//! broken lease sends `write` to the settle window, as without a lease.
//!
//! A lease is only a shortcut: not granted (another descriptor open, a file owned by another
//! user, a file system without leases, leases disabled), `write` keeps the settle window.
//!
//! Not for: anything but the swap in `write`.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::sync::Once;

/// A write lease held on a file; released when dropped.
pub(super) struct Lease<'f> {
    file: &'f File,
}

impl<'f> Lease<'f> {
    /// Take a write lease on `file` (the only descriptor this process may have open on it), or
    /// nothing when the system does not grant one.
    pub(super) fn take(file: &'f File) -> Option<Lease<'f>> {
        ignore_lease_breaks();
        // SAFETY: fcntl on a descriptor `file` owns, with integer arguments only.
        let taken = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETLEASE, libc::F_WRLCK) };
        (taken == 0).then_some(Lease { file })
    }

    /// No one has opened the file since the lease was taken: the kernel reports the lease as
    /// still a write lease, not one being broken (to a read lease or none).
    pub(super) fn unbroken(&self) -> bool {
        // SAFETY: as in `take`.
        let now = unsafe { libc::fcntl(self.file.as_raw_fd(), libc::F_GETLEASE) };
        now == libc::F_WRLCK
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        // SAFETY: as in `take`. Releasing also lets an opener waiting on a break go on.
        unsafe {
            libc::fcntl(self.file.as_raw_fd(), libc::F_SETLEASE, libc::F_UNLCK);
        }
    }
}

/// A broken lease is announced with SIGIO, whose default action ends the process. The break
/// itself is what `unbroken` reads, so the signal needs no handling, only not to kill: a handler
/// that does nothing is installed once, unless the signal already has a disposition of its own.
/// (A handler, not SIG_IGN: a program redline starts does not inherit a handler, it would
/// inherit an ignored signal.)
fn ignore_lease_breaks() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        extern "C" fn nothing(_: libc::c_int) {}
        // SAFETY: the handler does nothing (async-signal-safe); SA_RESTART keeps interrupted
        // system calls going; the old disposition is read first and only SIG_DFL is replaced.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGIO, std::ptr::null(), &mut old) != 0
                || old.sa_sigaction != libc::SIG_DFL
            {
                return;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = nothing as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGIO, &action, std::ptr::null_mut());
        }
    });
}
