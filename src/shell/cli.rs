//! The command line: parsing arguments, running a subcommand, printing its report, choosing the
//! exit status. This is the binary's edge, so errors here are `anyhow` with context.
//!
//! Each subcommand is one variant of [`Command`] with its own `Args` struct and its own function;
//! new ones (the review screen, `parse`, `ask`, `replay`, ...) slot in beside `apply`.
//!
//! Not for: deciding anything about replies or edits (`core`), or touching files directly
//! (`shell::workspace`).

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Read, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};
use serde::Serialize;

use crate::core::edit::Format;
use crate::core::plan::{self, EditReport, FormatChoice, Source, Status};
use crate::shell::ask::{self, AskArgs};
use crate::shell::parse_cmd::{self, ParseArgs};
use crate::shell::replay_cmd::{self, ReplayArgs};
use crate::shell::resume_cmd::{self, ResumeArgs};
use crate::shell::review_cmd::{self, DemoArgs, ReviewArgs};
use crate::shell::sessions_cmd::{self, SessionsArgs};
use crate::shell::watch_cmd::{self, WatchArgs};
use crate::shell::workspace::Workspace;

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

#[derive(Debug, Clone, Args)]
pub struct ApplyArgs {
    /// The project folder.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,
    /// Which reply formats to look for.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    pub format: FormatArg,
    /// Report what would happen; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the report as JSON on standard output.
    #[arg(long)]
    pub json: bool,
    /// The reply to apply; `-` or nothing reads standard input.
    #[arg(value_name = "REPLY_FILE")]
    pub reply: Option<PathBuf>,
}

/// `--format`'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    Auto,
    Udiff,
    SearchReplace,
    Whole,
}

impl From<FormatArg> for FormatChoice {
    fn from(arg: FormatArg) -> Self {
        match arg {
            FormatArg::Auto => FormatChoice::Auto,
            FormatArg::Udiff => FormatChoice::Only(Format::Udiff),
            FormatArg::SearchReplace => FormatChoice::Only(Format::SearchReplace),
            FormatArg::Whole => FormatChoice::Only(Format::Whole),
        }
    }
}

/// How a run ended; the process exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Every edit applied.
    Applied,
    /// At least one edit was refused (or there were none).
    Refused,
    /// A usage or I/O error, or an internal error.
    Error,
    /// The review screen was ended by this signal (exit status 128 + its number, as a shell
    /// reports a command a signal ended).
    Signal(i32),
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> Self {
        ExitCode::from(match exit {
            Exit::Applied => 0,
            Exit::Refused => 1,
            Exit::Error => 2,
            Exit::Signal(n) => u8::try_from(128 + n).unwrap_or(2),
        })
    }
}

/// `redline apply --json`'s output.
#[derive(Debug, Serialize)]
pub struct ApplyJson<'a> {
    pub edits: &'a [EditReport],
    pub applied: usize,
    pub refused: usize,
    pub dry_run: bool,
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
    match panic::catch_unwind(AssertUnwindSafe(|| run(cli))) {
        Ok(exit) => exit.into(),
        Err(_) => Exit::Error.into(),
    }
}

/// Run a parsed command line.
pub fn run(cli: Cli) -> Exit {
    match cli.command {
        Some(Command::Apply(args)) => apply(&args),
        Some(Command::Ask(args)) => ask::ask(&args),
        Some(Command::Parse(args)) => parse_cmd::parse(&args),
        Some(Command::Demo(args)) => review_cmd::demo(&args),
        Some(Command::Watch(args)) => watch_cmd::watch(&args),
        Some(Command::Sessions(args)) => sessions_cmd::sessions(&args),
        Some(Command::Replay(args)) if args.resume => resume_cmd::resume(&ResumeArgs {
            session: args.session,
            root: args.root,
            theme: args.theme,
            session_dir: args.session_dir,
        }),
        Some(Command::Replay(args)) => replay_cmd::replay(&args),
        Some(Command::Resume(args)) => resume_cmd::resume(&args),
        None if cli.review.is_empty() && !review_cmd::provider_configured(&cli.review) => {
            review_cmd::demo(&DemoArgs {
                theme: cli.review.theme.clone(),
                session_dir: cli.review.session_dir.clone(),
                ..DemoArgs::default()
            })
        }
        None => review_cmd::review(&cli.review),
    }
}

/// `redline apply`: errors are printed here and become [`Exit::Error`].
pub fn apply(args: &ApplyArgs) -> Exit {
    match try_apply(args) {
        Ok(exit) => exit,
        Err(err) => {
            eprintln!("redline: error: {err:#}");
            Exit::Error
        }
    }
}

fn try_apply(args: &ApplyArgs) -> Result<Exit> {
    let reply = read_reply(args.reply.as_deref())?;
    let workspace = Workspace::open(&args.root)?;
    let files = workspace.list_files();
    let plan =
        plan::plan_rooted(&reply, args.format.into(), &files, &root_forms(&args.root, &workspace));
    let sources: BTreeMap<String, Source> =
        plan.paths_to_read().into_iter().map(|p| (p.clone(), workspace.read_source(&p))).collect();
    let outcome = plan::execute(&plan, &sources);
    let mut reports = outcome.reports;
    if plan.is_empty() || reports.is_empty() {
        if args.json {
            print_json(&[], args.dry_run)?;
        }
        eprintln!("redline: no edits found in the reply");
        return Ok(Exit::Refused);
    }

    let mut io_failed = false;
    if !args.dry_run {
        for write in &outcome.writes {
            if let Err(err) = workspace.write(write, sources.get(write.path())) {
                io_failed |= err.is_io();
                eprintln!("redline: {}: {err}", if err.is_io() { "error" } else { "refused" });
                refuse_applied(&mut reports, write.path(), &err.failure.to_string());
            }
        }
    }

    if args.json {
        print_json(&reports, args.dry_run)?;
    } else {
        print_human(&reports, args.dry_run);
    }
    Ok(if io_failed {
        Exit::Error
    } else if reports.iter().any(|r| r.status == Status::Refused) {
        Exit::Refused
    } else {
        Exit::Applied
    })
}

/// The project root's absolute forms, as given and canonical, for replies that name files by
/// absolute paths.
fn root_forms(given: &std::path::Path, workspace: &Workspace) -> Vec<String> {
    let mut forms = vec![workspace.root().to_string_lossy().into_owned()];
    if let Ok(abs) = std::path::absolute(given) {
        let abs = abs.to_string_lossy().into_owned();
        if !forms.contains(&abs) {
            forms.push(abs);
        }
    }
    forms
}

/// The reply's text, from a file or standard input.
fn read_reply(path: Option<&std::path::Path>) -> Result<String> {
    let bytes = match path {
        Some(p) if p.as_os_str() != "-" => {
            std::fs::read(p).with_context(|| format!("cannot read the reply {}", p.display()))?
        }
        _ => {
            let mut stdin = io::stdin().lock();
            if stdin.is_terminal() {
                eprintln!("redline: reading the reply from standard input (end it with Ctrl-D)");
            }
            let mut bytes = Vec::new();
            stdin.read_to_end(&mut bytes).context("cannot read the reply from standard input")?;
            bytes
        }
    };
    let name = path.map_or("standard input".to_string(), |p| p.display().to_string());
    String::from_utf8(bytes).with_context(|| format!("the reply {name} is not UTF-8 text"))
}

/// The edits to a file that could not be written were not applied after all.
fn refuse_applied(reports: &mut [EditReport], path: &str, reason: &str) {
    for report in reports.iter_mut().filter(|r| r.path == path && r.status == Status::Applied) {
        report.status = Status::Refused;
        report.reason = Some(reason.to_string());
    }
}

fn counts(reports: &[EditReport]) -> (usize, usize) {
    let applied = reports.iter().filter(|r| r.status == Status::Applied).count();
    (applied, reports.len() - applied)
}

fn print_json(reports: &[EditReport], dry_run: bool) -> Result<()> {
    let (applied, refused) = counts(reports);
    let json = ApplyJson { edits: reports, applied, refused, dry_run };
    let mut out = io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &json).context("cannot write the JSON report")?;
    writeln!(out).context("cannot write the JSON report")?;
    Ok(())
}

fn print_human(reports: &[EditReport], dry_run: bool) {
    for report in reports {
        let line = human_line(report);
        // Nothing was written: say what would be.
        match line.strip_prefix("applied  ").filter(|_| dry_run) {
            Some(rest) => eprintln!("would apply  {rest}"),
            None => eprintln!("{line}"),
        }
    }
    let (applied, refused) = counts(reports);
    if dry_run {
        eprintln!("{applied} would apply, {refused} refused (dry run: nothing written)");
    } else {
        eprintln!("{applied} applied, {refused} refused");
    }
}

/// `applied  src/app.py  fuzzy 93%  lines 12-19` or `refused  src/app.py  <reason>`.
pub fn human_line(report: &EditReport) -> String {
    let mut fields = Vec::new();
    match report.status {
        Status::Applied => {
            fields.push("applied".to_string());
            fields.push(report.path.clone());
            if let Some(strategy) = &report.strategy {
                match report.similarity {
                    Some(s) if s < 1.0 => {
                        // Rounded down, so that a near miss never reads as 100%.
                        fields.push(format!("{strategy} {}%", (s * 100.0).floor() as u32));
                    }
                    _ => fields.push(strategy.clone()),
                }
            }
            match report.lines {
                Some((first, last)) if first == last => fields.push(format!("line {first}")),
                Some((first, last)) => fields.push(format!("lines {first}-{last}")),
                None => {}
            }
            fields.extend(report.reason.clone());
        }
        Status::Refused => {
            fields.push("refused".to_string());
            fields.push(report.path.clone());
            fields.push(report.reason.clone().unwrap_or_else(|| "refused".to_string()));
        }
    }
    fields.join("  ")
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
        eprintln!(
            "redline: internal error: {message}{}\nThis is a bug in redline; nothing more was written.",
            place.unwrap_or_default()
        );
    }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn report(status: Status) -> EditReport {
        EditReport {
            path: "src/app.py".into(),
            format: Format::SearchReplace,
            status,
            strategy: None,
            similarity: None,
            lines: None,
            reason: None,
            reply_lines: (1, 7),
            searched: None,
            closest: None,
            candidates: Vec::new(),
        }
    }

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn human_lines() {
        let mut r = report(Status::Applied);
        r.strategy = Some("fuzzy".into());
        r.similarity = Some(0.939);
        r.lines = Some((12, 19));
        assert_eq!(human_line(&r), "applied  src/app.py  fuzzy 93%  lines 12-19");
        r.strategy = Some("exact".into());
        r.similarity = Some(1.0);
        assert_eq!(human_line(&r), "applied  src/app.py  exact  lines 12-19");
        r.lines = Some((4, 4));
        r.strategy = None;
        r.reason = Some("created".into());
        assert_eq!(human_line(&r), "applied  src/app.py  line 4  created");
        let mut r = report(Status::Refused);
        r.reason = Some("SEARCH text not found".into());
        assert_eq!(human_line(&r), "refused  src/app.py  SEARCH text not found");
    }

    #[test]
    fn a_write_failure_turns_applied_into_refused() {
        let mut reports = vec![report(Status::Applied), report(Status::Refused)];
        reports[1].reason = Some("not found".into());
        refuse_applied(&mut reports, "src/app.py", "disk full");
        assert_eq!(reports[0].status, Status::Refused);
        assert_eq!(reports[0].reason.as_deref(), Some("disk full"));
        assert_eq!(reports[1].reason.as_deref(), Some("not found"));
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
        assert_eq!(w.apply, ask::ApplyMode::All);
        let Ok(Cli { command: Some(Command::Watch(w)), .. }) =
            Cli::try_parse_from(["redline", "watch"])
        else {
            panic!("bare watch")
        };
        assert_eq!((w.dir.to_str(), w.apply), (Some("."), ask::ApplyMode::None));
    }

    #[test]
    fn format_names() {
        let parsed = Cli::try_parse_from(["redline", "apply", "--format", "search-replace"]);
        let Ok(Cli { command: Some(Command::Apply(args)), .. }) = parsed else { panic!("parse") };
        assert_eq!(FormatChoice::from(args.format), FormatChoice::Only(Format::SearchReplace));
        assert!(args.reply.is_none());
    }
}
