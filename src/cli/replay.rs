//! `redline replay SESSION`: a recorded session in the review screen, at its recorded pace (or
//! `--speed X` times it, or `--instant`), on a scratch copy of the files as they were sent (or
//! `--root DIR` when it holds exactly those). The recorded keys and the other inputs are
//! re-enacted until the user presses a key; from then on the user decides and the recorded
//! decision of the selected hunk is shown beside it. A replay is journaled as a session of its
//! own.
//!
//! `redline replay SESSION --headless --check`: no terminal; the recording is replayed with the
//! current engine (`shell::runtime::check`) and a JSON report printed. Exit status 0 when every
//! recorded outcome is reproduced, 1 when one is not, 2 on a usage or I/O error.
//!
//! Not for: what is replayed and when (`app::replay`), the loop (`runtime`).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;

use crate::app::replay::{Clock, Script};
use crate::cli::common::{Exit, Play, play, stopped, summary};
use crate::core::file::{FileWrite, Source};
use crate::core::session;
use crate::shell::journal;
use crate::shell::runtime;
use crate::shell::workspace::Workspace;

/// `redline replay`'s options.
#[derive(Debug, Clone, Args)]
pub struct ReplayArgs {
    /// The session: a journal file, a session id (or a unique prefix of one), or `last`.
    #[arg(value_name = "SESSION")]
    pub session: String,
    /// Play at X times the recorded pace.
    #[arg(long, value_name = "X", default_value_t = 1.0)]
    pub speed: f64,
    /// Play everything at once.
    #[arg(long, conflicts_with = "speed")]
    pub instant: bool,
    /// Replay on the files in DIR (they must hold what was sent) instead of a scratch copy.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// No terminal: replay with the current engine and print a JSON report.
    #[arg(long)]
    pub headless: bool,
    /// With --headless: exit 1 when a recorded outcome is not reproduced.
    #[arg(long, requires = "headless")]
    pub check: bool,
    /// `dark` or `light`.
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,
    /// Where sessions are journaled (and looked for).
    #[arg(long, value_name = "DIR")]
    pub session_dir: Option<PathBuf>,
    /// Reopen the session on its project with its undecided hunks pending, as `redline resume`.
    #[arg(long, conflicts_with_all = ["headless", "instant"])]
    pub resume: bool,
}

/// `redline replay`.
pub fn replay(args: &ReplayArgs) -> Exit {
    match try_replay(args) {
        Ok(exit) => exit,
        Err(err) if err.is::<crate::shell::runtime::Stopped>() => stopped(&err),
        Err(err) => {
            say!("redline: error: {err:#}");
            Exit::Error
        }
    }
}

fn try_replay(args: &ReplayArgs) -> Result<Exit> {
    if !(args.speed.is_finite() && args.speed > 0.0) {
        bail!("--speed must be a positive number, not {}", args.speed);
    }
    let dir = journal::sessions_dir(args.session_dir.as_deref())?;
    let path = journal::resolve(&dir, &args.session)?;
    let journal = journal::load(&path)?;
    if let Some(d) = &journal.dropped {
        say!(
            "redline: {} is cut at line {} ({}); replaying what comes before",
            path.display(),
            d.line,
            d.reason
        );
    }
    for lack in journal.lacking() {
        say!("redline: {}: {lack}", path.display());
    }
    if args.headless {
        let report = runtime::check(&journal)
            .map_err(|e| anyhow::anyhow!("{} cannot be replayed: {e}", path.display()))?;
        let mut out = std::io::stdout().lock();
        serde_json::to_writer_pretty(&mut out, &report).context("cannot write the report")?;
        writeln!(out).context("cannot write the report")?;
        return Ok(if args.check && !report.reproduced { Exit::Refused } else { Exit::Applied });
    }
    let script = Script::from_journal(&journal)
        .map_err(|e| anyhow::anyhow!("{} cannot be replayed: {e}", path.display()))?;
    let (root, scratch) = match &args.root {
        Some(root) => {
            check_root(root, &script)?;
            (root.clone(), false)
        }
        None => {
            let dir = tempfile::Builder::new()
                .prefix("redline-replay-")
                .tempdir()
                .context("cannot create a scratch folder for the replay")?
                .keep();
            write_files(&dir, &script)?;
            (dir, true)
        }
    };
    let play_args = Play {
        scratch,
        clock: Clock { speed: (!args.instant).then_some(args.speed) },
        reenact: true,
        show_recorded: true,
        theme: args.theme.clone(),
        session_dir: args.session_dir.clone(),
    };
    let (app, ending) = play(&script, &root, &play_args)?;
    summary(&app);
    if scratch {
        say!("redline: the replay's files are in {}", root.display());
    }
    ending.into_result()?;
    Ok(Exit::Applied)
}

/// `--root DIR` must hold every file as it was sent.
fn check_root(root: &Path, script: &Script) -> Result<()> {
    let workspace = Workspace::open(root)?;
    let mut wrong = Vec::new();
    for (path, sent) in &script.files {
        let now = workspace.read_source(path);
        let same = match (sent, &now) {
            (Source::Text(a), Source::Text(b)) => session::hash(a) == session::hash(b),
            (Source::Missing, Source::Missing) => true,
            (Source::Unusable(_), Source::Unusable(_)) => true,
            _ => false,
        };
        if !same {
            wrong.push(path.as_str());
        }
    }
    if !wrong.is_empty() {
        bail!(
            "{} does not hold the files as they were sent ({} differ{}); replay without --root to use a scratch copy",
            root.display(),
            wrong.join(", "),
            if wrong.len() == 1 { "s" } else { "" }
        );
    }
    Ok(())
}

/// Write the recorded files (as sent, then those read later) into a scratch folder, through the
/// workspace's path checks: a journal is outside input.
fn write_files(dir: &Path, script: &Script) -> Result<()> {
    let workspace = Workspace::open(dir)?;
    let mut done: Vec<&str> = Vec::new();
    for (path, source) in script.files.iter().chain(&script.later_files) {
        if done.contains(&path.as_str()) {
            continue;
        }
        done.push(path);
        let Source::Text(text) = source else { continue };
        let write = FileWrite::Write { path: path.clone(), text: text.clone() };
        workspace
            .write(&write, Some(&Source::Missing))
            .with_context(|| format!("cannot copy the recorded {path} into {}", dir.display()))?;
    }
    Ok(())
}
