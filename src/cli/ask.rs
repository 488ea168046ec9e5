//! `redline ask`: send a request about some project files to a model, print each edit of the
//! reply as a JSON line the moment it is finished, then place the edits (and ask the model again
//! about the ones that could not be placed), writing them only with `--apply all`.
//!
//! Edits are carried out on an in-memory copy of the files, round after round, so an applied
//! edit is never applied twice and a later round sees the earlier rounds' changes; with
//! `--apply all` each changed file is written once at the end, atomically, and only if it still
//! holds what was read. Ctrl-C stops the stream at once and writes nothing.
//!
//! Not for: deciding where an edit goes (`core::plan`), or speaking HTTP (`provider`).

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::cli::common::{
    ApplyMode, EditFormatArg, EditLine, Exit, ModelArgs, human_line_as, read_files, settings_for,
};
use crate::core::edit::Edit;
use crate::core::execute;
use crate::core::file::{FileWrite, Source};
use crate::core::parse::{Event, ParseOptions};
use crate::core::plan::{self, FormatChoice};
use crate::core::prompt::{FailedEdit, Prompts};
use crate::core::report::{EditReport, Status};
use crate::core::stream::StreamParser;
use crate::provider::{
    ChatMessage, ChatRequest, ProviderError, ProviderSettings, Role, StreamMsg, StreamSummary,
    stream_chat,
};
use crate::shell::workspace::Workspace;

#[derive(Debug, Clone, Args)]
pub struct AskArgs {
    #[command(flatten)]
    pub model: ModelArgs,
    /// The edit format to ask for.
    #[arg(long, value_enum, default_value_t = EditFormatArg::SearchReplace)]
    pub format: EditFormatArg,
    /// The project folder.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,
    /// `all` writes the edits that could be placed; `none` only reports them.
    #[arg(long, value_enum, default_value_t = ApplyMode::None)]
    pub apply: ApplyMode,
    /// How many times to ask again about edits that could not be placed.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub retries: u32,
    /// How many times to resend a request the server refused (429, 5xx) or could not take.
    #[arg(long, value_name = "N")]
    pub http_retries: Option<u32>,
    /// The request.
    #[arg(short = 'm', long = "message", value_name = "PROMPT")]
    pub prompt: String,
    /// The project files the request is about.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
}

/// `redline ask`: errors are printed here (one line) and become [`Exit::Error`].
pub fn ask(args: &AskArgs) -> Exit {
    match try_ask(args) {
        Ok(exit) => exit,
        Err(err) => {
            say!("redline: error: {err:#}");
            Exit::Error
        }
    }
}

fn try_ask(args: &AskArgs) -> Result<Exit> {
    let settings = settings_for(&args.model, args.http_retries)?;
    let workspace = Workspace::open(&args.root)?;
    let project = workspace.list_files();
    let files = read_files(&args.root, &args.files, &workspace, &project)?;
    let prompts = crate::shell::prompts::load()?;
    let file_refs: Vec<(&str, &str)> =
        files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let messages: Vec<ChatMessage> =
        prompts.build_request(args.format.into(), &args.prompt, &file_refs).into_iter().collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let mut state = State::new(&workspace, project);
    let rounds = run_rounds(args, &settings, &runtime, &mut state, &prompts, messages)?;

    let cancelled = matches!(rounds.failure, Some(ProviderError::Cancelled));
    let write_failed = match args.apply {
        ApplyMode::All if cancelled => false,
        ApplyMode::All => !state.write_all(&workspace),
        ApplyMode::None => {
            if !state.touched.is_empty() {
                say!("redline: --apply none: nothing written");
            }
            false
        }
    };
    if let Some(ProviderError::Cancelled) = rounds.failure {
        say!("redline: interrupted; nothing was written");
        return Ok(Exit::Error);
    }
    if let Some(err) = rounds.failure {
        let note = match (state.touched.is_empty(), args.apply) {
            (true, _) => "nothing was written",
            (false, ApplyMode::All) if !write_failed => "the edits finished before it were written",
            (false, ApplyMode::All) => "some of the edits finished before it could not be written",
            (false, ApplyMode::None) => {
                "the edits finished before it were not written (--apply none)"
            }
        };
        say!("redline: error: {err}; {note}");
        return Ok(Exit::Error);
    }
    if write_failed {
        return Ok(Exit::Error);
    }
    if !rounds.any_edits {
        say!("redline: no edits found in the reply");
        return Ok(Exit::Refused);
    }
    Ok(if rounds.last_reports.iter().any(|r| r.status == Status::Refused) {
        Exit::Refused
    } else {
        Exit::Applied
    })
}

/// How the request and its follow-ups went.
struct Rounds {
    /// The last round's reports: what decides the exit status.
    last_reports: Vec<EditReport>,
    any_edits: bool,
    /// The stream error that ended the last round, if any.
    failure: Option<ProviderError>,
}

/// Ask, place the reply's edits, and ask again about the ones that failed, up to `--retries`
/// times. Each round's edits are placed on the texts the earlier rounds left.
fn run_rounds(
    args: &AskArgs,
    settings: &ProviderSettings,
    runtime: &tokio::runtime::Runtime,
    state: &mut State,
    prompts: &Prompts,
    mut messages: Vec<ChatMessage>,
) -> Result<Rounds> {
    let mut rounds = Rounds { last_reports: Vec::new(), any_edits: false, failure: None };
    for round in 0..=args.retries {
        let req = ChatRequest {
            model: settings.model.clone(),
            messages: messages.clone(),
            max_tokens: args.model.max_tokens,
            temperature: None,
        };
        let streamed = runtime.block_on(stream_round(settings, &req, &state.project))?;
        let reply_to_plan = match &streamed.result {
            Ok(_) => streamed.reply.as_str(),
            // Only edits finished before the cut count; a half-written one is never applied.
            Err(_) => lines_prefix(&streamed.reply, streamed.last_finished_line),
        };
        let reports = state.run(reply_to_plan);
        rounds.any_edits |= !reports.is_empty();
        let label = if round == 0 { String::new() } else { format!("retry {round}: ") };
        // Nothing is written under `--apply none`: a placed edit would apply, not applied.
        let placed = match args.apply {
            ApplyMode::All => "applied",
            ApplyMode::None => "would apply",
        };
        for r in &reports {
            say!("{label}{}", human_line_as(r, placed));
        }
        let (failed, applied): (Vec<EditReport>, Vec<EditReport>) =
            reports.iter().cloned().partition(|r| r.status == Status::Refused);
        rounds.last_reports = reports;
        match streamed.result {
            Ok(summary) => say!("redline: {}", describe(settings, &summary)),
            Err(err) => {
                rounds.failure = Some(err);
                break;
            }
        }
        if failed.is_empty() || round == args.retries {
            break;
        }
        say!("redline: asking again about {} edit(s) that could not be placed", failed.len());
        messages.push(ChatMessage::new(Role::Assistant, streamed.reply));
        let failed: Vec<FailedEdit> = failed.iter().map(FailedEdit::from_report).collect();
        let applied: Vec<String> = applied.iter().map(describe_applied).collect();
        messages.push(ChatMessage::new(Role::User, prompts.build_retry(&failed, &applied)));
    }
    Ok(rounds)
}

/// An applied edit, as the retry message names it.
fn describe_applied(r: &EditReport) -> String {
    match r.lines {
        Some((a, b)) => format!(
            "{} (lines {a}-{b}, reply lines {}-{})",
            r.path, r.reply_lines.0, r.reply_lines.1
        ),
        None => format!("{} (reply lines {}-{})", r.path, r.reply_lines.0, r.reply_lines.1),
    }
}

/// The first `n` lines of `text`.
fn lines_prefix(text: &str, n: usize) -> &str {
    let end = text.split_inclusive('\n').take(n).map(str::len).sum();
    &text[..end]
}

/// One streamed reply.
struct Streamed {
    reply: String,
    /// The last reply line of the last edit finished while streaming (0: none).
    last_finished_line: usize,
    result: Result<StreamSummary, ProviderError>,
}

async fn stream_round(
    settings: &ProviderSettings,
    req: &ChatRequest,
    project: &[String],
) -> Result<Streamed> {
    let (tx, mut rx) = mpsc::channel(256);
    let cancel = CancellationToken::new();
    let task = stream_chat(settings, req, tx, cancel.clone());
    tokio::pin!(task);
    let mut parser = StreamParser::new(ParseOptions { only: None, known_paths: project.to_vec() });
    let mut reply = String::new();
    let mut last_finished_line = 0;
    let mut result = None;
    let mut out = io::stdout().lock();
    let interrupt = tokio::signal::ctrl_c();
    tokio::pin!(interrupt);
    let mut interrupted = false;
    loop {
        tokio::select! {
            r = &mut task, if result.is_none() => result = Some(r),
            _ = &mut interrupt, if !interrupted => {
                interrupted = true;
                cancel.cancel();
            }
            msg = rx.recv() => match msg {
                Some(StreamMsg::Text(text)) => {
                    reply.push_str(&text);
                    for event in parser.push_str(&text) {
                        if let Event::Edit(edit) = event {
                            last_finished_line = last_finished_line.max(edit.reply_lines.1);
                            print_edit(&mut out, &edit)?;
                        }
                    }
                }
                Some(StreamMsg::Retrying { attempt, wait, reason }) => say!(
                    "redline: attempt {attempt} failed ({reason}); trying again in {:.1} s",
                    wait.as_secs_f64()
                ),
                Some(StreamMsg::Skipped(why)) => say!("redline: warning: {why}"),
                None => break,
            },
        }
    }
    let result = result.unwrap_or(Err(ProviderError::Cancelled));
    if result.is_ok() {
        for event in parser.finish() {
            if let Event::Edit(edit) = event {
                print_edit(&mut out, &edit)?;
            }
        }
    }
    Ok(Streamed { reply, last_finished_line, result })
}

fn print_edit(out: &mut impl Write, edit: &Edit) -> Result<()> {
    serde_json::to_writer(&mut *out, &EditLine::of(edit))
        .context("cannot write to standard output")?;
    writeln!(out).and_then(|_| out.flush()).context("cannot write to standard output")
}

fn describe(settings: &ProviderSettings, s: &StreamSummary) -> String {
    let mut parts = vec![format!("{} {}", settings.kind.name(), settings.model)];
    if let Some(u) = s.usage {
        let n = |v: Option<u64>| v.map_or("?".to_string(), |v| v.to_string());
        parts.push(format!("{} tokens in, {} out", n(u.input_tokens), n(u.output_tokens)));
    }
    if let Some(t) = s.time_to_first_token {
        parts.push(format!("first text after {:.1} s", t.as_secs_f64()));
    }
    parts.push(format!("{:.1} s in all", s.total.as_secs_f64()));
    if s.attempts > 1 {
        parts.push(format!("{} attempts", s.attempts));
    }
    if s.end.hit_token_limit() {
        parts.push("the reply hit the token limit and may be incomplete".to_string());
    }
    parts.join("; ")
}

/// The project's files as the rounds so far left them, in memory.
struct State<'w> {
    workspace: &'w Workspace,
    project: Vec<String>,
    /// What was read from disk, for the write-time check.
    originals: BTreeMap<String, Source>,
    current: BTreeMap<String, Source>,
    /// Paths changed in memory, in first-change order.
    touched: Vec<String>,
}

impl<'w> State<'w> {
    fn new(workspace: &'w Workspace, project: Vec<String>) -> Self {
        State {
            workspace,
            project,
            originals: BTreeMap::new(),
            current: BTreeMap::new(),
            touched: Vec::new(),
        }
    }

    /// Place one reply's edits on the current texts.
    fn run(&mut self, reply: &str) -> Vec<EditReport> {
        let root = self.workspace.root().to_string_lossy().into_owned();
        let plan = plan::plan_rooted(reply, FormatChoice::Auto, &self.project, &[root]);
        for path in plan.paths_to_read() {
            if !self.current.contains_key(&path) {
                let source = self.workspace.read_source(&path);
                self.originals.insert(path.clone(), source.clone());
                self.current.insert(path, source);
            }
        }
        let outcome = execute::run(&plan, &self.current);
        for write in outcome.writes {
            let path = write.path().to_string();
            let now = match write {
                FileWrite::Write { text, .. } => Source::Text(text),
                FileWrite::Delete { .. } => Source::Missing,
            };
            if matches!(now, Source::Text(_)) && !self.project.contains(&path) {
                self.project.push(path.clone());
                self.project.sort();
            }
            self.current.insert(path.clone(), now);
            if !self.touched.contains(&path) {
                self.touched.push(path);
            }
        }
        outcome.reports
    }

    /// Write every changed file; false when a write failed (each failure is printed).
    fn write_all(&self, workspace: &Workspace) -> bool {
        let mut ok = true;
        for path in &self.touched {
            let write = match (self.current.get(path), self.originals.get(path)) {
                (Some(Source::Text(text)), _) => {
                    FileWrite::Write { path: path.clone(), text: text.clone() }
                }
                (Some(Source::Missing), Some(Source::Missing)) => continue,
                (Some(Source::Missing), _) => FileWrite::Delete { path: path.clone() },
                _ => continue,
            };
            if let Err(err) = workspace.write(&write, self.originals.get(path)) {
                let kind = if err.is_io() { "error" } else { "refused" };
                say!("redline: {kind}: {err}");
                ok = false;
            }
        }
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_lines_have_the_parse_schema() {
        let reply = "app.py\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n";
        let events = crate::core::parse::parse_reply(reply, ParseOptions::default());
        let Some(Event::Edit(edit)) = events.first() else { panic!("no edit: {events:?}") };
        let json = serde_json::to_value(EditLine::of(edit)).unwrap_or_default();
        assert_eq!(
            json,
            serde_json::json!({
                "path": "app.py", "format": "search-replace", "kind": "modify",
                "old": "a\n", "new": "b\n", "reply_lines": [3, 7],
            })
        );
    }

    #[test]
    fn prefix_of_lines() {
        assert_eq!(lines_prefix("a\nb\nc", 2), "a\nb\n");
        assert_eq!(lines_prefix("a\nb\nc", 0), "");
        assert_eq!(lines_prefix("a\nb\nc", 9), "a\nb\nc");
    }
}
