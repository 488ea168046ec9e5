//! The shell: everything that touches the outside world but the network (`crate::provider`) and
//! the command line (`crate::cli`): the project's files (`workspace`), the file watcher
//! (`watcher`), the session journal's files (`journal`), prompt overrides in the config folder
//! (`prompts`), and the terminal (`terminal`).
//!
//! Thin by design: decisions about replies and edits live in `core`; the shell reads what the
//! core asks for, hands it over, and carries out what the core decided.
//!
//! Not for: subcommands (`crate::cli`), or the screen's behaviour (`crate::app`).

pub mod journal;
pub mod prompts;
pub mod runtime;
pub mod terminal;
pub mod watcher;
pub mod workspace;
