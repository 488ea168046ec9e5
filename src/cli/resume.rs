//! `redline resume [SESSION]` (and `redline replay --resume SESSION`): take up a session whose
//! hunks were left undecided. The journal is replayed headless with the current engine
//! (`shell::runtime::Driver`) to rebuild the review as it ended; the files that changed on disk
//! since are read into it (their hunks are placed again, or become conflicts); then the review
//! screen opens on the project with those hunks pending, and what happens is appended to the
//! same journal, so replaying it plays the session and its resumption as one.
//!
//! Not for: replaying (`replay`), the loop (`runtime`).

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;

use crate::app::Msg;
use crate::app::replay::Script;
use crate::cli::common::{
    Exit, ModelArgs, ProviderArg, look, recorded_where, report, resume_hint, settings_for, summary,
    syntax_theme,
};
use crate::shell::journal::{self, Journal};
use crate::shell::runtime::{self, Driver, Replies, Resume, Resumed, Session, Watch};
use crate::shell::workspace::Workspace;

/// `redline resume`'s options.
#[derive(Debug, Clone, Args, Default)]
pub struct ResumeArgs {
    /// The session: a journal file, a session id (or a unique prefix of one), or `last`.
    #[arg(value_name = "SESSION", default_value = "last")]
    pub session: String,
    /// The project folder (default: the one the session was recorded in).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// `dark` or `light`.
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,
    /// Where sessions are journaled (and looked for).
    #[arg(long, value_name = "DIR")]
    pub session_dir: Option<PathBuf>,
}

/// `redline resume`.
pub fn resume(args: &ResumeArgs) -> Exit {
    report(try_resume(args))
}

fn try_resume(args: &ResumeArgs) -> Result<()> {
    let dir = journal::sessions_dir(args.session_dir.as_deref())?;
    let path = match args.session.as_str() {
        "last" => last_resumable(&dir)?,
        named => journal::resolve(&dir, named)?,
    };
    let loaded = journal::load(&path)?;
    // A replay's session plays in a scratch copy of the files: continued there, every
    // decision would be written into that copy while the user thinks it reached the project.
    if let Some(header) = loaded.header()
        && header.scratch
        && args.root.is_none()
    {
        let of = header.replay_of.as_deref().unwrap_or("another");
        bail!(
            "session {} is a replay of session {of}, played in the scratch folder {}: resume session {of} itself, or give --root to continue the replay's copy on purpose",
            header.id,
            header.root
        );
    }
    if let Some(d) = &loaded.dropped {
        bail!(
            "{} is cut at line {} ({}); it cannot be continued (`redline replay` shows it)",
            path.display(),
            d.line,
            d.reason
        );
    }
    let script = Script::from_journal(&loaded)
        .map_err(|e| anyhow::anyhow!("{} cannot be resumed: {e}", path.display()))?;
    let mut driver = Driver::new(&script, true);
    // What the session had under way when it ended (a kill: hunks placing, writes and reads
    // whose outcome the journal lacks) is carried out by the resumed session, which journals
    // the outcome: the replay alone would settle it where the journal cannot see. A write that
    // did land finds its text on disk and is taken as applied; one that did not is made.
    driver.finish_held = false;
    driver.run();
    let Resumed { app, recorder, files, t, held } = driver.into_resume();
    let c = app.review.counts();
    let open = c.undecided();
    // A reply the session did not see to its end (killed, or quit while the model wrote):
    // resumed even with every hunk so far decided, so the rest of it can be asked for.
    let cut = app.streaming || app.stats.cancelled;
    if open == 0 && !cut {
        say!("redline: session {} has no undecided hunks", script.header.id);
        return Ok(());
    }
    let root = args.root.clone().unwrap_or_else(|| PathBuf::from(&script.header.root));
    let workspace = Workspace::open(&root)
        .with_context(|| format!("cannot open the session's project {}", root.display()))?;
    let mut since: Vec<Msg> = files
        .iter()
        .filter_map(|(path, was)| {
            let now = workspace.read_source(path);
            (now != *was).then(|| Msg::FileChanged { path: path.clone(), source: now })
        })
        .collect();
    if cut {
        since.push(Msg::StreamError("the session ended before the reply did".into()));
    }
    let (theme, _, _) = look(args.theme.as_deref())?;
    let mut app = app.with_notice(Some(match open {
        0 => format!(
            "resumed session {}: its reply was cut short; `r` asks for it again, and decisions are added to its journal",
            script.header.id
        ),
        _ => format!(
            "resumed session {}: {open} hunk(s) undecided; decisions are added to its journal",
            script.header.id
        ),
    }));
    let journal = Journal::reopen(&path, script.header.clone())?;
    let session = Session {
        workspace,
        watch: if script.header.watch.is_some() { Watch::Project } else { Watch::Files },
        replies: replies(&script),
        syntax_theme: syntax_theme(&theme),
        theme,
        journal: Some(journal),
        replay: None,
        resume: Some(Resume { recorder, t, since, held }),
    };
    let ending = runtime::run(&mut app, session)?;
    summary(&app);
    // A replay's scratch copy is resumed only with `--root` (above): the hint names it.
    let resumable = match script.header.scratch {
        true => format!("{} --root {}", script.header.id, root.display()),
        false => script.header.id.clone(),
    };
    resume_hint(&app, Some(&resumable));
    recorded_where(Some((script.header.id.clone(), path)), None);
    ending.into_result()
}

/// The model the session used, as configured now (its key from the environment or the config
/// file); without one, requests fail and say why.
fn replies(script: &Script) -> Replies {
    let provider = match script.header.provider.as_str() {
        "openai" => ProviderArg::Openai,
        "anthropic" => ProviderArg::Anthropic,
        "ollama" => ProviderArg::Ollama,
        other => {
            return Replies::Unavailable(format!(
                "the session's replies were {other}; there is no model to ask"
            ));
        }
    };
    let model = ModelArgs {
        provider: Some(provider),
        base_url: script.header.base_url.clone(),
        model: Some(script.header.model.clone()),
        ..ModelArgs::default()
    };
    match settings_for(&model, None) {
        Ok(settings) => Replies::Provider { settings: Box::new(settings), max_tokens: None },
        Err(e) => Replies::Unavailable(format!("no model to ask: {e:#}")),
    }
}

/// The newest session not played in a scratch copy (`redline resume` with no session named): a
/// replay played just before is not the work the user means to continue.
fn last_resumable(dir: &std::path::Path) -> Result<PathBuf> {
    for listed in journal::list(dir)? {
        let replay = journal::load(&listed.path)
            .ok()
            .and_then(|j| j.header().map(|h| h.scratch))
            .unwrap_or(false);
        if !replay {
            return Ok(listed.path);
        }
    }
    bail!("no sessions to resume in {} (replays aside)", dir.display())
}
