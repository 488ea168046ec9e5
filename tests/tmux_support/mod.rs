//! Shared by the end-to-end tests: a tmux server of the test's own (its own socket), a pane to
//! type into and read from, killed on drop.
#![allow(dead_code)]

use std::process::Command;
use std::time::{Duration, Instant};

pub struct Tmux {
    socket: String,
}

impl Tmux {
    /// A tmux server of the test's own (named after it) with one `width`x`height` pane running
    /// `sh`.
    pub fn start(name: &str, width: u16, height: u16) -> Tmux {
        let tmux = Tmux { socket: format!("redline-{name}-{}", std::process::id()) };
        let (w, h) = (width.to_string(), height.to_string());
        tmux.cmd(&["new-session", "-d", "-s", "e2e", "-x", &w, "-y", &h, "sh"]);
        tmux
    }

    pub fn cmd(&self, args: &[&str]) -> String {
        let out =
            Command::new("tmux").args(["-L", &self.socket]).args(args).output().expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn screen(&self) -> String {
        self.cmd(&["capture-pane", "-p", "-t", "e2e"])
    }

    pub fn wait_for(&self, what: &str, needle: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(needle) {
                return screen;
            }
            if start.elapsed() > Duration::from_secs(30) {
                panic!("timed out waiting for {what} ({needle:?}); the screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn keys(&self, keys: &str) {
        self.cmd(&["send-keys", "-t", "e2e", keys]);
    }

    /// Type a command line into the pane and run it.
    pub fn run(&self, command: &str) {
        self.cmd(&["send-keys", "-t", "e2e", command, "Enter"]);
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux").args(["-L", &self.socket, "kill-server"]).output();
    }
}

/// Whether tmux is here. Without it the test checks nothing and says so (`what` names it),
/// except under CI, where that is a failure.
pub fn have_tmux(what: &str) -> bool {
    let ok = Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success());
    if !ok {
        assert!(std::env::var_os("CI").is_none(), "tmux is needed for this test in CI");
        eprintln!("tmux is not installed: {what} checked nothing");
    }
    ok
}
