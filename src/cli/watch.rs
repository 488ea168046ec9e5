//! `redline watch [DIR]`: watch mode on a project. The review screen opens with no request;
//! every saved file is scanned for `AI!` / `AI?` comments (see `core::trigger`), which start
//! requests whose edits enter the review (or are applied as they arrive with `--apply all`).
//!
//! Not for: the trigger rules (`core::trigger`), the queue (`app::watch`), or the watcher
//! itself (`shell::watcher`, driven by the runtime).

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::app::{App, AppConfig, WatchMode};
use crate::cli::common::{
    ApplyMode, EditFormatArg, Exit, Live, ModelArgs, live_header, look, report, run_live,
    settings_for,
};
use crate::core::edit::Format;
use crate::core::review::Review;
use crate::core::session::{Header, WatchHeader};
use crate::shell::journal::Journal;
use crate::shell::runtime::Watch;
use crate::shell::workspace::Workspace;

/// `redline watch`'s options.
#[derive(Debug, Clone, Args)]
pub struct WatchArgs {
    #[command(flatten)]
    pub model: ModelArgs,
    /// The edit format to ask for.
    #[arg(long, value_enum, default_value_t = EditFormatArg::SearchReplace)]
    pub format: EditFormatArg,
    /// `all` applies every edit that answers a comment as it arrives, without asking.
    #[arg(long, value_enum, default_value_t = ApplyMode::None)]
    pub apply: ApplyMode,
    /// `dark` or `light` (default: what the terminal says, else dark).
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,
    /// Where to journal the session (default: `$REDLINE_SESSION_DIR`, else the data folder's
    /// `sessions/`).
    #[arg(long, value_name = "DIR")]
    pub session_dir: Option<PathBuf>,
    /// Journal at most this many bytes of each file or message text (larger ones are named,
    /// not stored; a replay says what it lacks).
    #[arg(long, value_name = "BYTES", default_value_t = crate::core::session::DEFAULT_MAX_TEXT_BYTES)]
    pub journal_max_file_bytes: u64,
    /// The project folder to watch.
    #[arg(value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,
}

/// `redline watch`.
pub fn watch(args: &WatchArgs) -> Exit {
    report(try_watch(args))
}

fn try_watch(args: &WatchArgs) -> Result<()> {
    let settings = settings_for(&args.model, None)?;
    let workspace = Workspace::open(&args.dir)?;
    let project = workspace.list_files();
    let prompts = crate::shell::prompts::load()?;
    let (theme, keymap, keymap_text) = look(args.theme.as_deref())?;
    // Short: the status line has notices to show (a queued request, a git operation).
    let label = format!("{} · {} · watching", settings.kind.name(), settings.model);
    let format: Format = args.format.into();
    let apply_all = args.apply == ApplyMode::All;
    let header = Header {
        watch: Some(WatchHeader { apply_all }),
        ..live_header(&settings, &workspace, &project, format, &label, keymap_text)
    };
    // Files are journaled as they are saved and read, not up front.
    let (journal, warning) = Journal::create_in(
        args.session_dir.as_deref(),
        header,
        Vec::new(),
        args.journal_max_file_bytes,
    );
    let mut app = App::new(AppConfig {
        review: Review::new(project, BTreeMap::new()),
        label,
        keymap,
        prompts,
        conversation: Vec::new(),
        request: None,
    })
    .with_watch(WatchMode::new(format, apply_all))
    .with_notice(warning.clone());
    let live =
        Live { workspace, watch: Watch::Project, settings, max_tokens: args.model.max_tokens };
    let journal = journal.map(|mut j| {
        j.keep_out(crate::provider::secrets_of(&live.settings));
        j
    });
    run_live(&mut app, live, theme, journal, warning)
}
