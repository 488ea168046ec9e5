//! What the subcommands share: the exit status ([`Exit`]), the model arguments and the settings
//! they resolve to, the project files a request names, the one-line reports, and running the
//! review screen (theme and keymap, the journal header, the runtime, what is said at the end).
//!
//! Not for: anything only one subcommand does (that lives in its own file), deciding about
//! replies or edits (`core`), or the event loop itself (`runtime`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, ValueEnum};
use serde::Serialize;

use crate::app::App;
use crate::app::keymap::Keymap;
use crate::app::record::sent_file;
use crate::app::replay::{Clock, Script};
use crate::core::edit::{Change, Edit, Format};
use crate::core::file::Source;
use crate::core::report::{EditReport, Status};
use crate::core::session::{self, Header, VERSION};
use crate::provider::settings::{self, Flags};
use crate::provider::{ProviderKind, ProviderSettings};
use crate::shell::journal::{self, Journal};
use crate::shell::runtime::{self, Ending, Replay, Replies, Session, Stopped, Watch};
use crate::shell::workspace::Workspace;
use crate::ui::highlight::Highlighter;
use crate::ui::theme::{ColorMode, Theme, default_theme_name};

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

impl Exit {
    /// The process exit status.
    pub fn code(self) -> u8 {
        match self {
            Exit::Applied => 0,
            Exit::Refused => 1,
            Exit::Error => 2,
            Exit::Signal(n) => u8::try_from(128 + n).unwrap_or(2),
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> Self {
        ExitCode::from(exit.code())
    }
}

/// Which model to ask, and how patiently: shared by `redline ask` and the review screen.
#[derive(Debug, Clone, Args, Default)]
pub struct ModelArgs {
    /// Which server protocol to speak (default: from the environment or config.toml).
    #[arg(long, value_enum)]
    pub provider: Option<ProviderArg>,
    /// The server's base URL (OpenAI-compatible servers: up to `/v1`).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// The model to ask.
    #[arg(long, value_name = "M")]
    pub model: Option<String>,
    /// Give up when the server sends no reply content for this many seconds (keep-alive
    /// comments do not count; default 60).
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Give up when a reply is not finished after this many seconds (default 1800).
    #[arg(long, value_name = "SECS")]
    pub deadline: Option<f64>,
    /// Stop a reply whose body passes this many bytes (default 32 MiB).
    #[arg(long, value_name = "N")]
    pub max_reply_bytes: Option<u64>,
    /// The most tokens the model may write.
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProviderArg {
    Openai,
    Anthropic,
    Ollama,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EditFormatArg {
    Udiff,
    SearchReplace,
    Whole,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ApplyMode {
    None,
    All,
}

impl From<ProviderArg> for ProviderKind {
    fn from(p: ProviderArg) -> Self {
        match p {
            ProviderArg::Openai => ProviderKind::OpenAi,
            ProviderArg::Anthropic => ProviderKind::Anthropic,
            ProviderArg::Ollama => ProviderKind::Ollama,
        }
    }
}

impl From<EditFormatArg> for Format {
    fn from(f: EditFormatArg) -> Self {
        match f {
            EditFormatArg::Udiff => Format::Udiff,
            EditFormatArg::SearchReplace => Format::SearchReplace,
            EditFormatArg::Whole => Format::Whole,
        }
    }
}

/// The process environment, as UTF-8 pairs (others are skipped).
pub fn environment() -> BTreeMap<String, String> {
    std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .collect()
}

/// The settings from the flags, the environment and config.toml.
pub fn settings_for(model: &ModelArgs, http_retries: Option<u32>) -> Result<ProviderSettings> {
    let env = environment();
    let path = settings::config_path(&env);
    let config = match &path {
        Some(p) => settings::load_config(p)?,
        None => settings::ConfigFile::default(),
    };
    let name = path.map_or("config.toml".to_string(), |p| p.display().to_string());
    let flags = Flags {
        provider: model.provider.map(Into::into),
        base_url: model.base_url.clone(),
        model: model.model.clone(),
        http_retries,
        timeout_secs: model.timeout,
        deadline_secs: model.deadline,
        max_reply_bytes: model.max_reply_bytes,
    };
    Ok(settings::resolve(&flags, &env, &config, &name)?)
}

/// The FILE arguments' paths and texts; each must be a readable text file of the project.
pub fn read_files(
    root: &Path,
    paths: &[PathBuf],
    workspace: &Workspace,
    project: &[String],
) -> Result<Vec<(String, String)>> {
    let mut files = Vec::new();
    for arg in paths {
        let rel = project_path(workspace, root, arg)?;
        if !project.contains(&rel) {
            bail!(
                "{} is not a file of the project at {} (missing, ignored, or outside it)",
                arg.display(),
                root.display()
            );
        }
        match workspace.read_source(&rel) {
            Source::Text(text) => files.push((rel, text)),
            Source::Missing => bail!("{}: no such file", arg.display()),
            Source::Unusable(why) => bail!("{}: {why}", arg.display()),
        }
    }
    Ok(files)
}

/// A FILE argument as a project-relative path: relative to the root if it is there, otherwise
/// relative to the current folder (or absolute) and inside the root.
fn project_path(workspace: &Workspace, root: &Path, arg: &Path) -> Result<String> {
    let join = |p: &Path| -> Option<String> {
        let parts: Option<Vec<&str>> = p.components().map(|c| c.as_os_str().to_str()).collect();
        parts.map(|v| v.join("/"))
    };
    if arg.is_relative() && root.join(arg).exists() {
        return join(arg).ok_or_else(|| anyhow!("{}: the path is not UTF-8", arg.display()));
    }
    let name = arg.file_name().ok_or_else(|| anyhow!("{}: not a file", arg.display()))?;
    let parent = match arg.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let dir = std::fs::canonicalize(parent)
        .with_context(|| format!("{}: no such file", arg.display()))?;
    let inside = dir.join(name);
    let rel = inside
        .strip_prefix(workspace.root())
        .map_err(|_| anyhow!("{} is outside the project at {}", arg.display(), root.display()))?;
    join(rel).ok_or_else(|| anyhow!("{}: the path is not UTF-8", arg.display()))
}

/// `applied  src/app.py  fuzzy 93%  lines 12-19` or `refused  src/app.py  <reason>`.
pub fn human_line(report: &EditReport) -> String {
    human_line_as(report, "applied")
}

/// [`human_line`], a placed edit named `placed` (`would apply` in a dry run: nothing written).
pub fn human_line_as(report: &EditReport, placed: &str) -> String {
    let mut fields = Vec::new();
    match report.status {
        Status::Placed | Status::Applied => {
            fields.push(placed.to_string());
            fields.push(report.path.clone());
            if let Some(strategy) = &report.strategy {
                match report.similarity {
                    Some(s) if s < 1.0 => {
                        // Rounded down, so that a near miss never reads as 100%.
                        fields.push(format!("{strategy} {}%", (s * 100.0).floor() as u32));
                    }
                    _ => fields.push(strategy.to_string()),
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
            // Reasons name the file first (they are shown alone elsewhere): not twice here.
            let reason = report.reason.as_deref().unwrap_or("refused");
            let prefix = format!("{}: ", report.path);
            fields.push(reason.strip_prefix(&prefix).unwrap_or(reason).to_string());
        }
    }
    fields.join("  ")
}

/// One line of output: a finished edit.
#[derive(Debug, Serialize)]
pub struct EditLine<'a> {
    pub path: &'a str,
    pub format: Format,
    /// `modify`, `create`, `replace` or `delete`.
    pub kind: &'static str,
    /// The text the edit looks for; `null` when it looks for nothing (create, replace, delete).
    pub old: Option<String>,
    /// The text it writes in its place; `null` for a delete.
    pub new: Option<String>,
    pub reply_lines: (usize, usize),
}

impl<'a> EditLine<'a> {
    /// The line for a finished edit (`redline parse`'s, and what `redline ask` prints while
    /// streaming).
    pub fn of(edit: &'a Edit) -> Self {
        let (kind, old, new) = match &edit.change {
            Change::Modify { hunk } => ("modify", Some(hunk.old_text()), Some(hunk.new_text())),
            Change::Create { content } => ("create", None, Some(content.clone())),
            Change::Replace { content } => ("replace", None, Some(content.clone())),
            Change::Delete { old } => ("delete", old.clone(), None),
        };
        EditLine {
            path: &edit.path,
            format: edit.format,
            kind,
            old,
            new,
            reply_lines: edit.reply_lines,
        }
    }
}

/// A screen command's result as an exit status: errors printed here (one line), a signal as 128 + its
/// number.
pub fn report(result: Result<()>) -> Exit {
    match result {
        Ok(()) => Exit::Applied,
        Err(err) if err.is::<Stopped>() => stopped(&err),
        Err(err) => {
            say!("redline: error: {err:#}");
            Exit::Error
        }
    }
}

/// A review a signal ended: said on standard error, exit status 128 + the signal's number.
pub fn stopped(err: &anyhow::Error) -> Exit {
    say!("redline: {err}");
    match err.downcast_ref::<Stopped>() {
        Some(Stopped(signal)) => Exit::Signal(signal.number()),
        None => Exit::Error,
    }
}

fn config_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "redline").map(|d| d.config_dir().to_path_buf())
}

fn read_config_file(name: &str) -> Result<Option<String>> {
    let Some(path) = config_dir().map(|d| d.join(name)) else { return Ok(None) };
    match std::fs::read_to_string(&path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// The theme and keymap: bundled, with the config folder's files on top (and `keymap.toml`'s
/// text, for the journal).
pub fn look(theme_flag: Option<&str>) -> Result<(Theme, Keymap, Option<String>)> {
    let env = environment();
    let mode = ColorMode::detect(&env);
    let name = theme_flag.map_or_else(|| default_theme_name(&env).to_string(), str::to_string);
    let overrides = read_config_file("theme.toml")?;
    let theme = Theme::load_with(&name, theme_flag.is_some(), overrides.as_deref(), mode)
        .map_err(anyhow::Error::msg)?;
    if theme.mode != ColorMode::None && !Highlighter::knows_theme(&theme.syntax_theme) {
        bail!(
            "theme.toml: syntax_theme = \"{}\" is not one of bat's themes ({})",
            theme.syntax_theme,
            Highlighter::theme_names().join(", ")
        );
    }
    let keymap_text = read_config_file("keymap.toml")?;
    let keymap = match &keymap_text {
        Some(text) => Keymap::with_overrides(text).map_err(anyhow::Error::msg)?,
        None => Keymap::default(),
    };
    Ok((theme, keymap, keymap_text))
}

/// The syntax theme to colour with, if the terminal shows colour at all.
pub fn syntax_theme(theme: &Theme) -> Option<String> {
    (theme.mode != ColorMode::None).then(|| theme.syntax_theme.clone())
}

/// The journal header of a session with a model: everything but the request.
pub fn live_header(
    settings: &ProviderSettings,
    workspace: &Workspace,
    project: &[String],
    format: Format,
    label: &str,
    keymap: Option<String>,
) -> Header {
    Header {
        version: VERSION,
        id: journal::new_id(),
        started_ms: journal::now_ms(),
        root: display_root(workspace.root()),
        prompt: None,
        provider: settings.kind.name().to_string(),
        model: settings.model.clone(),
        base_url: Some(session::sanitize_url(&settings.base_url.to_string())),
        format: format.name().to_string(),
        label: label.to_string(),
        redline: env!("CARGO_PKG_VERSION").to_string(),
        width: 0,
        height: 0,
        project_files: project.to_vec(),
        asks_prompt: false,
        keymap,
        replay_of: None,
        scratch: false,
        watch: None,
    }
}

/// Where a session with a model runs.
pub struct Live {
    pub workspace: Workspace,
    pub watch: Watch,
    pub settings: ProviderSettings,
    pub max_tokens: Option<u32>,
}

/// Run the review screen against a model until the user quits, journaled; then say what was
/// decided and where the journal is.
pub fn run_live(
    app: &mut App,
    live: Live,
    theme: Theme,
    journal: Option<Journal>,
    warning: Option<String>,
) -> Result<()> {
    let recorded = journal.as_ref().map(|j| (j.id().to_string(), j.path().to_path_buf()));
    let session = Session {
        workspace: live.workspace,
        watch: live.watch,
        replies: Replies::Provider {
            settings: Box::new(live.settings),
            max_tokens: live.max_tokens,
        },
        syntax_theme: syntax_theme(&theme),
        theme,
        journal,
        replay: None,
        resume: None,
    };
    let ending = runtime::run(app, session)?;
    summary(app);
    resume_hint(app, recorded.as_ref().map(|r| r.0.as_str()));
    recorded_where(recorded, warning);
    ending.into_result()
}

/// The project folder as the journal shows it.
pub fn display_root(root: &Path) -> String {
    std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf()).display().to_string()
}

/// Say where the session was journaled, or why it was not.
pub fn recorded_where(recorded: Option<(String, PathBuf)>, warning: Option<String>) {
    match (recorded, warning) {
        (Some((id, path)), _) if path.exists() => {
            say!("redline: session {id} recorded in {}", path.display())
        }
        (Some(_), _) => {}
        (None, Some(w)) => say!("redline: warning: {w}"),
        (None, None) => {}
    }
}

/// What the review ended with, on standard error.
pub fn summary(app: &App) {
    let c = app.review.counts();
    let refused = match app.review.problems.len() {
        0 => String::new(),
        n => format!(", {n} refused before review (see the list)"),
    };
    say!(
        "redline: {} applied, {} rejected, {} left undecided{refused}",
        c.applied,
        c.rejected,
        c.undecided()
    );
}

/// Undecided hunks are kept in the journal: say how to take them up again.
pub fn resume_hint(app: &App, id: Option<&str>) {
    let c = app.review.counts();
    let open = c.undecided();
    if let (true, Some(id)) = (open > 0, id) {
        say!("redline: `redline resume {id}` reopens the {open} undecided hunk(s)");
    }
}

/// How to play a script in the review screen.
#[derive(Debug, Clone)]
pub struct Play {
    /// `root` is a scratch copy of the files, not the project (journaled: see
    /// [`Header::scratch`]).
    pub scratch: bool,
    pub clock: Clock,
    pub reenact: bool,
    pub show_recorded: bool,
    pub theme: Option<String>,
    pub session_dir: Option<PathBuf>,
}

/// Play `script` in the review screen on the files in `root`; the app as the user left it.
pub fn play(script: &Script, root: &Path, play: &Play) -> Result<(App, Ending)> {
    let workspace = Workspace::open(root)?;
    let (theme, keymap, keymap_text) = look(play.theme.as_deref())?;
    let mut config = script.app_config();
    // Recorded keys mean what they meant; the user's own keys after taking over use their keymap
    // unless the recording names one.
    if script.header.keymap.is_none() {
        config.keymap = keymap;
    }
    let app = script.new_app(config);
    let header = Header {
        id: journal::new_id(),
        started_ms: journal::now_ms(),
        root: display_root(root),
        keymap: script.header.keymap.clone().or(keymap_text),
        replay_of: Some(script.header.id.clone()),
        scratch: play.scratch,
        // The new journal is written in this redline's format, whatever the recording's was.
        version: VERSION,
        ..script.header.clone()
    };
    let sent = script.files.iter().map(|(p, s)| sent_file(p, s)).collect();
    let (journal, warning) = Journal::create_in(
        play.session_dir.as_deref(),
        header,
        sent,
        crate::core::session::DEFAULT_MAX_TEXT_BYTES,
    );
    let mut app = app.with_notice(warning.clone());
    let recorded = journal.as_ref().map(|j| (j.id().to_string(), j.path().to_path_buf()));
    let session = Session {
        workspace,
        // A replay feeds the recorded changes on disk itself; live ones would not be recorded.
        watch: Watch::Off,
        replies: Replies::Recorded,
        syntax_theme: syntax_theme(&theme),
        theme,
        journal,
        replay: Some(Replay {
            script: script.clone(),
            clock: play.clock,
            reenact: play.reenact,
            show_recorded: play.show_recorded,
        }),
        resume: None,
    };
    let ending = runtime::run(&mut app, session)?;
    // A replay played in a scratch copy is resumed there only on purpose (`redline resume`
    // refuses it otherwise): the hint names the copy.
    let resumable = recorded.as_ref().map(|(id, _)| match play.scratch {
        true => format!("{id} --root {}", root.display()),
        false => id.clone(),
    });
    resume_hint(&app, resumable.as_deref());
    recorded_where(recorded, warning);
    Ok((app, ending))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::core::locate::MatchKind;
    use crate::core::placement::Strategy;

    /// A report to test report lines with.
    pub(crate) fn report(status: Status) -> EditReport {
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
    fn human_lines() {
        let mut r = report(Status::Applied);
        r.strategy = Some(Strategy::Located(MatchKind::Fuzzy));
        r.similarity = Some(0.939);
        r.lines = Some((12, 19));
        assert_eq!(human_line(&r), "applied  src/app.py  fuzzy 93%  lines 12-19");
        r.strategy = Some(Strategy::Located(MatchKind::Exact));
        r.similarity = Some(1.0);
        assert_eq!(human_line(&r), "applied  src/app.py  exact  lines 12-19");
        r.lines = Some((4, 4));
        r.strategy = None;
        r.reason = Some("created".into());
        assert_eq!(human_line(&r), "applied  src/app.py  line 4  created");
        let mut r = report(Status::Refused);
        r.reason = Some("SEARCH text not found".into());
        assert_eq!(human_line(&r), "refused  src/app.py  SEARCH text not found");
        r.reason = Some("src/app.py: the old text is not in the file".into());
        assert_eq!(human_line(&r), "refused  src/app.py  the old text is not in the file");
    }
}
