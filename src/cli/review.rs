//! `redline [OPTIONS] -m PROMPT FILE...`: the review screen on a request to a model. Sets up the
//! project, the request, the theme and keymap and the session's journal, then hands over to the
//! runtime (`common::run_live`).
//!
//! Not for: the screen's behaviour (`app`), drawing (`ui`), or the event loop (`runtime`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;

use crate::app::record::sent_file;
use crate::app::{App, AppConfig, RequestSpec};
use crate::cli::common::{
    EditFormatArg, Exit, Live, ModelArgs, live_header, look, read_files, report, run_live,
    settings_for,
};
use crate::core::file::Source;
use crate::core::review::Review;
use crate::core::session::Header;
use crate::provider::{ChatMessage, Role};
use crate::shell::journal::Journal;
use crate::shell::runtime::Watch;
use crate::shell::workspace::Workspace;

/// The review screen's options (the command line with no subcommand).
#[derive(Debug, Clone, Args, Default)]
pub struct ReviewArgs {
    #[command(flatten)]
    pub model: ModelArgs,
    /// The edit format to ask for (default: search-replace).
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
    /// Where to journal the session (default: `$REDLINE_SESSION_DIR`, else the data folder's
    /// `sessions/`).
    #[arg(long, value_name = "DIR")]
    pub session_dir: Option<PathBuf>,
    /// Journal at most this many bytes of each file or message text (larger ones are named,
    /// not stored; a replay says what it lacks).
    #[arg(long, value_name = "BYTES", default_value_t = crate::core::session::DEFAULT_MAX_TEXT_BYTES)]
    pub journal_max_file_bytes: u64,
    /// The project files the request is about.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

impl ReviewArgs {
    /// Nothing given: `redline` alone.
    pub fn is_empty(&self) -> bool {
        self.prompt.is_none() && self.files.is_empty()
    }

    fn root(&self) -> PathBuf {
        self.root.clone().unwrap_or_else(|| PathBuf::from("."))
    }
}

/// Whether a provider is configured (flags, environment or config.toml).
pub fn provider_configured(args: &ReviewArgs) -> bool {
    settings_for(&args.model, None).is_ok()
}

/// `redline` with review options.
pub fn review(args: &ReviewArgs) -> Exit {
    report(try_review(args))
}

fn try_review(args: &ReviewArgs) -> Result<()> {
    if args.files.is_empty() {
        bail!("name the project files the request is about: redline -m PROMPT FILE...");
    }
    let settings = settings_for(&args.model, None)?;
    let root = args.root();
    let workspace = Workspace::open(&root)?;
    let project = workspace.list_files();
    let files = read_files(&root, &args.files, &workspace, &project)?;
    let prompts = crate::shell::prompts::load()?;
    let sources: BTreeMap<String, Source> =
        files.iter().map(|(p, t)| (p.clone(), Source::Text(t.clone()))).collect();
    let format = args.format.unwrap_or(EditFormatArg::SearchReplace).into();
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
    let (theme, keymap, keymap_text) = look(args.theme.as_deref())?;
    let label = format!("{} · {}", settings.kind.name(), settings.model);
    let header = Header {
        prompt: args.prompt.clone(),
        asks_prompt: args.prompt.is_none(),
        ..live_header(&settings, &workspace, &project, format, &label, keymap_text)
    };
    let sent = files.iter().map(|(p, t)| sent_file(p, &Source::Text(t.clone()))).collect();
    let (journal, warning) =
        Journal::create_in(args.session_dir.as_deref(), header, sent, args.journal_max_file_bytes);
    let mut app = App::new(AppConfig {
        review: Review::new(project, sources),
        label,
        keymap,
        prompts,
        conversation,
        request: Some(RequestSpec { format, files }),
    })
    .with_request_line(args.prompt.clone())
    .with_notice(warning.clone());
    let live = Live { workspace, watch: Watch::Files, settings, max_tokens: args.model.max_tokens };
    let journal = journal.map(|mut j| {
        j.keep_out(crate::provider::secrets_of(&live.settings));
        j
    });
    run_live(&mut app, live, theme, journal, warning)
}

fn role(r: crate::core::prompt::Role) -> Role {
    match r {
        crate::core::prompt::Role::System => Role::System,
        crate::core::prompt::Role::User => Role::User,
        crate::core::prompt::Role::Assistant => Role::Assistant,
    }
}
