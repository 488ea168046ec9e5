//! The command line: the clap definitions of every subcommand and the dispatch to its file.
//! One file per subcommand (`apply`, `ask`, `parse`, `demo`, `watch`, `sessions`, `replay`,
//! `resume`, and `review`, the screen with no subcommand); what they share is in [`common`].
//! Commands never import each other: a thing two of them need moves to `common`.
//!
//! This is the binary's edge, so errors here are `anyhow` with context, printed once, and
//! turned into an exit status ([`Exit`]).
//!
//! Not for: deciding anything about replies or edits (`core`), the screen's behaviour (`app`),
//! the event loop (`runtime`), or touching files directly (`shell::workspace`).

/// A message on standard error. Not `eprintln!`, which panics when stderr is gone (the terminal
/// closed: SIGHUP), turning a clean stop into an internal error.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod apply;
pub mod ask;
pub mod common;
pub mod demo;
pub mod parse;
pub mod replay;
pub mod resume;
pub mod review;
pub mod sessions;
pub mod watch;

use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use apply::ApplyArgs;
use ask::AskArgs;
pub use common::Exit;
use demo::DemoArgs;
use parse::ParseArgs;
use replay::ReplayArgs;
use resume::ResumeArgs;
use review::ReviewArgs;
use sessions::SessionsArgs;
use watch::WatchArgs;

/// Review the code edits a language model proposes, hunk by hunk.
#[derive(Debug, Parser)]
///
/// With no subcommand: the review screen (`redline -m PROMPT FILE...`); with nothing at all and
/// no provider configured, the demo.
#[command(
    name = "redline",
    version,
    propagate_version = true,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub review: ReviewArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Apply every edit in a model reply to the project, without review.
    ///
    /// Exit status: 0 when every edit applied, 1 when at least one was refused (the others are
    /// still applied), 2 on a usage or I/O error.
    Apply(ApplyArgs),
    /// Ask a model to edit some project files; print each edit as a JSON line as it streams in,
    /// then place the edits (asking again about those that fail) and write them with
    /// `--apply all`.
    ///
    /// Exit status: 0 when every edit applied, 1 when some were refused, 2 on a network, auth,
    /// usage or I/O error.
    Ask(AskArgs),
    /// Parse a model reply as it arrives and print one JSON line per finished edit or problem.
    ///
    /// Exit status: 0 when the reply was read to its end, 2 on a usage or I/O error.
    Parse(ParseArgs),
    /// Create a small sample project and review a bundled model reply streamed into it (no
    /// network, no key).
    Demo(DemoArgs),
    /// Watch a project: saving a file with a comment ending in `AI!` asks the model for that
    /// change (its edits come up for review), `AI?` asks a question (answered in the reply pane).
    ///
    /// Honours .gitignore and skips .git/; changes made by a git operation start nothing.
    Watch(WatchArgs),
    /// List the recorded sessions, newest first.
    Sessions(SessionsArgs),
    /// Replay a recorded session in the review screen, or check it headless with the current
    /// engine.
    ///
    /// Exit status with --headless --check: 0 when every recorded outcome is reproduced, 1 when
    /// one is not, 2 on a usage or I/O error.
    Replay(ReplayArgs),
    /// Reopen a session whose hunks were left undecided (the last one by default): they come
    /// back pending, the files changed since are read again, and the session's journal goes on.
    Resume(ResumeArgs),
}

/// The whole program: parse the arguments, run, turn the result (or a panic) into an exit status.
pub fn main() -> ExitCode {
    install_panic_hook();
    crate::shell::terminal::ignore_file_size_signal();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // Help and version go to stdout with status 0; usage errors to stderr with 2.
            let _ = err.print();
            return ExitCode::from(u8::try_from(err.exit_code()).unwrap_or(2));
        }
    };
    let one_shot = matches!(cli.command, Some(Command::Apply(_) | Command::Parse(_)));
    let exit = panic::catch_unwind(AssertUnwindSafe(|| run(cli))).unwrap_or(Exit::Error);
    if one_shot {
        end_now(exit);
    }
    exit.into()
}

/// End a one-shot command (`apply`, `parse`) at once, its output flushed: its work is on disk
/// and on the terminal, and what `exit` would still run (the allocator handing its memory back
/// to the system page by page, destructors of statics) was a twentieth of a short `apply`.
#[cfg(unix)]
fn end_now(exit: Exit) {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` ends the process; nothing after it runs, and every file this command
    // wrote was closed (and synced) before its report was printed.
    unsafe { libc::_exit(i32::from(exit.code())) }
}

#[cfg(not(unix))]
fn end_now(_: Exit) {}

/// Run a parsed command line.
pub fn run(cli: Cli) -> Exit {
    match cli.command {
        Some(Command::Apply(args)) => apply::apply(&args),
        Some(Command::Ask(args)) => ask::ask(&args),
        Some(Command::Parse(args)) => parse::parse(&args),
        Some(Command::Demo(args)) => demo::demo(&args),
        Some(Command::Watch(args)) => watch::watch(&args),
        Some(Command::Sessions(args)) => sessions::sessions(&args),
        Some(Command::Replay(args)) if args.resume => resume::resume(&ResumeArgs {
            session: args.session,
            root: args.root,
            theme: args.theme,
            session_dir: args.session_dir,
        }),
        Some(Command::Replay(args)) => replay::replay(&args),
        Some(Command::Resume(args)) => resume::resume(&args),
        None if cli.review.is_empty() && !review::provider_configured(&cli.review) => {
            demo::demo(&DemoArgs {
                theme: cli.review.theme.clone(),
                session_dir: cli.review.session_dir.clone(),
                ..DemoArgs::default()
            })
        }
        None => review::review(&cli.review),
    }
}

/// A panic prints one clean message (not a backtrace dump); `main` turns it into status 2.
fn install_panic_hook() {
    panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        let place = info.location().map(|l| format!(" at {}:{}", l.file(), l.line()));
        // Not `eprintln!`: it panics when stderr is gone (the terminal closed), and a panic in
        // the hook aborts.
        let _ = writeln!(
            std::io::stderr(),
            "redline: internal error: {message}{}\nThis is a bug in redline; nothing more was written.",
            place.unwrap_or_default()
        );
    }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn review_and_demo_command_lines() {
        let Ok(Cli { command: Some(Command::Demo(d)), .. }) =
            Cli::try_parse_from(["redline", "demo", "/tmp/x", "--speed", "20"])
        else {
            panic!("demo")
        };
        assert_eq!((d.dir.as_deref(), d.speed), (Some(std::path::Path::new("/tmp/x")), 20.0));
        let Ok(cli) = Cli::try_parse_from(["redline", "-m", "fix it", "a.py", "b.py"]) else {
            panic!("review")
        };
        assert!(cli.command.is_none());
        assert_eq!(cli.review.prompt.as_deref(), Some("fix it"));
        assert_eq!(cli.review.files.len(), 2);
        let Ok(bare) = Cli::try_parse_from(["redline"]) else { panic!("bare") };
        assert!(bare.command.is_none() && bare.review.is_empty());
    }

    #[test]
    fn watch_command_lines() {
        let parsed = Cli::try_parse_from(["redline", "watch", "proj", "--apply", "all"]);
        let Ok(Cli { command: Some(Command::Watch(w)), .. }) = parsed else { panic!("watch") };
        assert_eq!(w.dir, std::path::PathBuf::from("proj"));
        assert_eq!(w.apply, common::ApplyMode::All);
        let Ok(Cli { command: Some(Command::Watch(w)), .. }) =
            Cli::try_parse_from(["redline", "watch"])
        else {
            panic!("bare watch")
        };
        assert_eq!((w.dir.to_str(), w.apply), (Some("."), common::ApplyMode::None));
    }

    #[test]
    fn format_names() {
        let parsed = Cli::try_parse_from(["redline", "apply", "--format", "search-replace"]);
        let Ok(Cli { command: Some(Command::Apply(args)), .. }) = parsed else { panic!("parse") };
        assert_eq!(
            crate::core::plan::FormatChoice::from(args.format),
            crate::core::plan::FormatChoice::Only(crate::core::edit::Format::SearchReplace)
        );
        assert!(args.reply.is_none());
    }

    fn parse(args: &[&str]) -> Result<Command, clap::Error> {
        let cli = Cli::try_parse_from(args)?;
        Ok(cli.command.expect("a subcommand"))
    }

    #[test]
    fn replay_and_sessions_command_lines() {
        let Ok(Command::Replay(r)) = parse(&["redline", "replay", "last", "--instant"]) else {
            panic!("replay --instant")
        };
        assert!(r.instant && !r.headless && r.session == "last");
        let Ok(Command::Replay(r)) =
            parse(&["redline", "replay", "ab12", "--speed", "10", "--root", "/p"])
        else {
            panic!("replay --speed")
        };
        assert_eq!((r.speed, r.root.as_deref()), (10.0, Some(std::path::Path::new("/p"))));
        let Ok(Command::Replay(r)) =
            parse(&["redline", "replay", "x.jsonl", "--headless", "--check"])
        else {
            panic!("replay --headless --check")
        };
        assert!(r.headless && r.check);
        assert!(parse(&["redline", "replay", "x", "--check"]).is_err(), "--check needs --headless");
        assert!(parse(&["redline", "replay", "x", "--instant", "--speed", "2"]).is_err());
        let Ok(Command::Sessions(s)) =
            parse(&["redline", "sessions", "--json", "--session-dir", "/s"])
        else {
            panic!("sessions")
        };
        assert!(s.json && s.session_dir.is_some());
    }
}
