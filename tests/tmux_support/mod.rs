//! Shared by the end-to-end tests: a tmux server of the test's own (its own socket), a pane to
//! type into and read from, killed on drop.
#![allow(dead_code)]

use std::process::Command;
use std::time::{Duration, Instant};

pub struct Tmux {
    pub socket: String,
}

impl Tmux {
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
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux").args(["-L", &self.socket, "kill-server"]).output();
    }
}

pub fn have_tmux() -> bool {
    Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success())
}
