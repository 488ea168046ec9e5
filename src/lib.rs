//! redline: review the code edits a language model proposes, hunk by hunk, while it writes them.
//!
//! `core` is pure (no I/O, no async): parsing replies, locating and applying hunks. `shell` holds
//! everything that touches the outside world: the file system, the command line.
//! `provider` is the shell's network half: streaming replies from language-model servers.

pub mod app;
pub mod cli;
pub mod core;
pub mod provider;
pub mod shell;
pub mod ui;
