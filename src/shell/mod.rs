//! The shell: everything that touches the outside world (the command line, the file system;
//! the network is in `crate::provider`).
//!
//! Thin by design: decisions about replies and edits live in `core`; the shell reads what the
//! core asks for, hands it over, and carries out what the core decided.

pub mod ask;
pub mod cli;
pub mod journal;
pub mod parse_cmd;
pub mod prompts;
pub mod replay_cmd;
pub mod resume_cmd;
pub mod review_cmd;
pub mod runtime;
pub mod sessions_cmd;
pub mod terminal;
pub mod watch_cmd;
pub mod watcher;
pub mod workspace;
