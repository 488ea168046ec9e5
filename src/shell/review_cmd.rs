//! `redline [OPTIONS] -m PROMPT FILE...` (the review screen) and `redline demo [DIR]`: set up
//! the project, the theme, the keymap and the reply source, then hand over to the runtime.
//! With no subcommand and no provider configured, `redline` runs the demo.
//!
//! Not for: the screen's behaviour (`app`), drawing (`ui`), or the event loop (`runtime`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;

use crate::app::{App, AppConfig, RequestSpec};
use crate::core::plan::Source;
use crate::core::review::Review;
use crate::provider::{ChatMessage, Role};
use crate::runtime::{self, Replies, Session, Watch};
use crate::shell::ask::{self, AskArgs, EditFormatArg, ModelArgs};
use crate::shell::cli::Exit;
use crate::shell::workspace::Workspace;
use crate::ui::highlight::Highlighter;
use crate::ui::keymap::Keymap;
use crate::ui::theme::{ColorMode, Theme, default_theme_name};

/// The review screen's options (the command line with no subcommand).
#[derive(Debug, Clone, Args, Default)]
pub struct ReviewArgs {
    #[command(flatten)]
    pub model: ModelArgs,
    /// The edit format to ask for.
    #[arg(long, value_enum)]
    pub format: Option<EditFormatArg>,
    /// The project folder.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// `dark` or `light` (default: what the terminal says, else dark).
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,
    /// The request (without it, an input line asks for it).
    #[arg(short = 'm', long = "message", value_name = "PROMPT")]
    pub prompt: Option<String>,
    /// The project files the request is about.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

impl ReviewArgs {
    /// Nothing given: `redline` alone.
    pub fn is_empty(&self) -> bool {
        self.prompt.is_none() && self.files.is_empty()
    }

    fn ask_args(&self) -> AskArgs {
        AskArgs {
            model: self.model.clone(),
            format: self.format.unwrap_or(EditFormatArg::SearchReplace),
            root: self.root.clone().unwrap_or_else(|| PathBuf::from(".")),
            apply: ask::ApplyMode::None,
            retries: 0,
            http_retries: None,
            prompt: self.prompt.clone().unwrap_or_default(),
            files: self.files.clone(),
        }
    }
}

/// `redline demo`'s options.
#[derive(Debug, Clone, Args)]
pub struct DemoArgs {
    /// Where to create the sample project (default: a new temporary folder, printed on exit).
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Stream the bundled reply this many times faster (or slower, below 1).
    #[arg(long, value_name = "X", default_value_t = 1.0)]
    pub speed: f64,
    /// `dark` or `light`.
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,
}

impl Default for DemoArgs {
    fn default() -> Self {
        DemoArgs { dir: None, speed: 1.0, theme: None }
    }
}

const DEMO_FILES: &[(&str, &str)] = &[
    ("inventory.py", include_str!("../../demo/project/inventory.py")),
    ("report.py", include_str!("../../demo/project/report.py")),
];
const DEMO_REPLY: &str = include_str!("../../demo/reply.md");
const DEMO_RETRY: &str = include_str!("../../demo/retry.md");
const DEMO_PROMPT: &str = "Simplify total_value, make restock refuse negative amounts, format \
prices with two decimals in the report, and add a save(items, path) helper.";

/// Whether a provider is configured (flags, environment or config.toml).
pub fn provider_configured(args: &ReviewArgs) -> bool {
    ask::settings_for(&args.ask_args()).is_ok()
}

/// `redline` with review options.
pub fn review(args: &ReviewArgs) -> Exit {
    report(try_review(args))
}

/// `redline demo`.
pub fn demo(args: &DemoArgs) -> Exit {
    report(try_demo(args))
}

pub(crate) fn report(result: Result<()>) -> Exit {
    match result {
        Ok(()) => Exit::Applied,
        Err(err) => {
            eprintln!("redline: error: {err:#}");
            Exit::Error
        }
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

/// The theme and keymap: bundled, with the config folder's files on top.
pub(crate) fn look(theme_flag: Option<&str>) -> Result<(Theme, Keymap)> {
    let env = ask::environment();
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
    let keymap = match read_config_file("keymap.toml")? {
        Some(text) => Keymap::with_overrides(&text).map_err(anyhow::Error::msg)?,
        None => Keymap::default(),
    };
    Ok((theme, keymap))
}

/// The syntax theme to colour with, if the terminal shows colour at all.
fn syntax_theme(theme: &Theme) -> Option<String> {
    (theme.mode != ColorMode::None).then(|| theme.syntax_theme.clone())
}

fn try_review(args: &ReviewArgs) -> Result<()> {
    if args.files.is_empty() {
        bail!("name the project files the request is about: redline -m PROMPT FILE...");
    }
    let ask_args = args.ask_args();
    let settings = ask::settings_for(&ask_args)?;
    let workspace = Workspace::open(&ask_args.root)?;
    let project = workspace.list_files();
    let files = ask::read_files(&ask_args, &workspace, &project)?;
    let prompts = crate::shell::prompts::load()?;
    let sources: BTreeMap<String, Source> =
        files.iter().map(|(p, t)| (p.clone(), Source::Text(t.clone()))).collect();
    let format = ask_args.format.into();
    let conversation: Vec<ChatMessage> = match &args.prompt {
        Some(prompt) => {
            let refs: Vec<(&str, &str)> =
                files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
            prompts
                .build_request(format, prompt, &refs)
                .into_iter()
                .map(|m| ChatMessage::new(role(m.role), m.content))
                .collect()
        }
        None => Vec::new(),
    };
    let (theme, keymap) = look(args.theme.as_deref())?;
    let label = format!("{} · {}", settings.kind.name(), settings.model);
    let mut app = App::new(AppConfig {
        review: Review::new(project.clone(), sources),
        known_paths: project,
        label,
        keymap,
        prompts,
        conversation,
        request: Some(RequestSpec { format, files }),
    });
    let replies = Replies::Provider { settings, max_tokens: args.model.max_tokens };
    run_screen(&mut app, workspace, Watch::Files, replies, theme)
}

/// Run the review screen until the user quits, then print the summary.
pub(crate) fn run_screen(
    app: &mut App,
    workspace: Workspace,
    watch: Watch,
    replies: Replies,
    theme: Theme,
) -> Result<()> {
    let session = Session { workspace, watch, replies, syntax_theme: syntax_theme(&theme), theme };
    runtime::run(app, session)?;
    summary(app);
    Ok(())
}

fn try_demo(args: &DemoArgs) -> Result<()> {
    let dir = match &args.dir {
        Some(d) => d.clone(),
        None => tempfile::Builder::new()
            .prefix("redline-demo-")
            .tempdir()
            .context("cannot create a temporary folder for the demo")?
            .keep(),
    };
    write_demo_project(&dir)?;
    let workspace = Workspace::open(&dir)?;
    let project = workspace.list_files();
    let sources: BTreeMap<String, Source> =
        project.iter().map(|p| (p.clone(), workspace.read_source(p))).collect();
    let (theme, keymap) = look(args.theme.as_deref())?;
    let mut app = App::new(AppConfig {
        review: Review::new(project.clone(), sources),
        known_paths: project,
        label: "demo · bundled reply".into(),
        keymap,
        prompts: crate::core::prompt::Prompts::default(),
        conversation: vec![ChatMessage::new(Role::User, DEMO_PROMPT)],
        request: None,
    });
    let replies = Replies::Canned { replies: vec![DEMO_REPLY, DEMO_RETRY], speed: args.speed };
    run_screen(&mut app, workspace, Watch::Files, replies, theme)?;
    eprintln!("redline: the demo project is in {}", dir.display());
    Ok(())
}

/// Create the demo's files in `dir`; refuse to overwrite different files of the same name.
pub fn write_demo_project(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (name, text) in DEMO_FILES {
        let path = dir.join(name);
        match std::fs::read_to_string(&path) {
            Ok(existing) if existing == *text => continue,
            Ok(_) => bail!(
                "{} already holds a different {name}; name an empty or new folder for the demo",
                dir.display()
            ),
            Err(_) => std::fs::write(&path, text)
                .with_context(|| format!("cannot write {}", path.display()))?,
        }
    }
    Ok(())
}

pub(crate) fn summary(app: &App) {
    let c = app.review.counts();
    eprintln!(
        "redline: {} applied, {} rejected, {} left undecided",
        c.applied,
        c.rejected,
        c.pending + c.failed + c.conflict
    );
}

fn role(r: crate::core::prompt::Role) -> Role {
    match r {
        crate::core::prompt::Role::System => Role::System,
        crate::core::prompt::Role::User => Role::User,
        crate::core::prompt::Role::Assistant => Role::Assistant,
    }
}
