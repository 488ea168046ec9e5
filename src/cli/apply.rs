//! `redline apply [REPLY_FILE]`: every edit of a model reply applied to the project, without
//! review; a report of what was applied and refused (human lines, or `--json`).
//!
//! Not for: deciding where an edit goes (`core::plan`), or writing files (`shell::workspace`).

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use serde::Serialize;

use crate::cli::common::{Exit, human_line_as};
use crate::core::edit::Format;
use crate::core::execute;
use crate::core::file::Source;
use crate::core::plan::{self, FormatChoice};
use crate::core::report::{EditReport, Status};
use crate::shell::workspace::Workspace;

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

/// `redline apply --json`'s output.
#[derive(Debug, Serialize)]
pub struct ApplyJson<'a> {
    pub edits: &'a [EditReport],
    pub applied: usize,
    pub refused: usize,
    pub dry_run: bool,
}

/// `redline apply`: errors are printed here and become [`Exit::Error`].
pub fn apply(args: &ApplyArgs) -> Exit {
    match try_apply(args) {
        Ok(exit) => exit,
        Err(err) => {
            say!("redline: error: {err:#}");
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
    let outcome = execute::run(&plan, &sources);
    let mut reports = outcome.reports;
    if plan.is_empty() || reports.is_empty() {
        if args.json {
            print_json(&[], args.dry_run)?;
        }
        say!("redline: no edits found in the reply");
        return Ok(Exit::Refused);
    }

    let mut io_failed = false;
    if !args.dry_run {
        for write in &outcome.writes {
            if let Err(err) = workspace.write(write, sources.get(write.path())) {
                io_failed |= err.is_io();
                say!("redline: {}: {err}", if err.is_io() { "error" } else { "refused" });
                refuse_placed(&mut reports, write.path(), &err.failure.to_string());
            }
        }
        // Every write that was needed is done: what is still placed is on disk now.
        for report in reports.iter_mut().filter(|r| r.status == Status::Placed) {
            report.status = Status::Applied;
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
fn root_forms(given: &Path, workspace: &Workspace) -> Vec<String> {
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
fn read_reply(path: Option<&Path>) -> Result<String> {
    let bytes = match path {
        Some(p) if p.as_os_str() != "-" => {
            std::fs::read(p).with_context(|| format!("cannot read the reply {}", p.display()))?
        }
        _ => {
            let mut stdin = io::stdin().lock();
            if stdin.is_terminal() {
                say!("redline: reading the reply from standard input (end it with Ctrl-D)");
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
fn refuse_placed(reports: &mut [EditReport], path: &str, reason: &str) {
    for report in reports.iter_mut().filter(|r| r.path == path && r.status == Status::Placed) {
        report.status = Status::Refused;
        report.reason = Some(reason.to_string());
    }
}

fn counts(reports: &[EditReport]) -> (usize, usize) {
    let applied = reports.iter().filter(|r| r.status.is_placed()).count();
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
    // Nothing is written in a dry run: say what would be.
    let placed = if dry_run { "would apply" } else { "applied" };
    for report in reports {
        say!("{}", human_line_as(report, placed));
    }
    let (applied, refused) = counts(reports);
    if dry_run {
        say!("{applied} would apply, {refused} refused (dry run: nothing written)");
    } else {
        say!("{applied} applied, {refused} refused");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::common::tests::report;

    #[test]
    fn a_write_failure_turns_placed_into_refused() {
        let mut reports = vec![report(Status::Placed), report(Status::Refused)];
        reports[1].reason = Some("not found".into());
        refuse_placed(&mut reports, "src/app.py", "disk full");
        assert_eq!(reports[0].status, Status::Refused);
        assert_eq!(reports[0].reason.as_deref(), Some("disk full"));
        assert_eq!(reports[1].reason.as_deref(), Some("not found"));
    }
}
