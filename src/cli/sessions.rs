//! `redline sessions`: the journaled sessions, newest first: when, project, prompt, model, and
//! how many hunks were accepted, rejected and failed. `--json` prints the same as a JSON array.
//!
//! Not for: reading a journal (`shell::journal`), summarizing one (`core::session`).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

use crate::cli::common::Exit;
use crate::core::session::{Summary, utc_timestamp};
use crate::shell::journal;

/// `redline sessions`' options.
#[derive(Debug, Clone, Args)]
pub struct SessionsArgs {
    /// Print a JSON array (one object per session, with its journal's path).
    #[arg(long)]
    pub json: bool,
    /// Where sessions are journaled.
    #[arg(long, value_name = "DIR")]
    pub session_dir: Option<PathBuf>,
}

/// `redline sessions`.
pub fn sessions(args: &SessionsArgs) -> Exit {
    match try_sessions(args) {
        Ok(()) => Exit::Applied,
        Err(err) => {
            say!("redline: error: {err:#}");
            Exit::Error
        }
    }
}

#[derive(serde::Serialize)]
struct Row<'a> {
    #[serde(flatten)]
    summary: &'a Summary,
    started: String,
    path: String,
    running: bool,
}

fn try_sessions(args: &SessionsArgs) -> Result<()> {
    let dir = journal::sessions_dir(args.session_dir.as_deref())?;
    let listed = journal::list(&dir)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let rows: Vec<Row> = listed
            .iter()
            .map(|l| Row {
                summary: &l.summary,
                started: utc_timestamp(l.summary.started_ms),
                path: l.path.display().to_string(),
                running: l.running,
            })
            .collect();
        serde_json::to_writer_pretty(&mut out, &rows).context("cannot write the list")?;
        writeln!(out).context("cannot write the list")?;
        return Ok(());
    }
    if listed.is_empty() {
        say!("redline: no sessions in {}", dir.display());
        return Ok(());
    }
    let summaries: Vec<(&Summary, bool)> = listed.iter().map(|l| (&l.summary, l.running)).collect();
    write!(out, "{}", table(&summaries)).context("cannot write the list")?;
    Ok(())
}

/// The table `redline sessions` prints: each session, and whether it runs now.
pub fn table(sessions: &[(&Summary, bool)]) -> String {
    let mut rows = vec![[
        "WHEN (UTC)".to_string(),
        "ID".into(),
        "PROJECT".into(),
        "MODEL".into(),
        "ACC".into(),
        "REJ".into(),
        "FAIL".into(),
        "PROMPT".into(),
    ]];
    for &(s, running) in sessions {
        let when = utc_timestamp(s.started_ms).replace('T', " ");
        let mark = match (s.ended, running) {
            (true, _) => "",
            (false, true) => " (open)",
            (false, false) => " (cut)",
        };
        rows.push([
            format!("{}{mark}", &when[..16.min(when.len())]),
            s.id.clone(),
            shorten_left(&s.project, 28),
            shorten(&s.model, 24),
            s.accepted.to_string(),
            s.rejected.to_string(),
            s.failed.to_string(),
            shorten(&what_asked(s), 48),
        ]);
    }
    let mut widths = [0usize; 8];
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in &rows {
        let cells: Vec<String> =
            row.iter()
                .zip(widths)
                .enumerate()
                .map(|(i, (cell, w))| {
                    if (4..7).contains(&i) { format!("{cell:>w$}") } else { format!("{cell:<w$}") }
                })
                .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// The PROMPT column: the request, or what kind of session asked.
fn what_asked(s: &Summary) -> String {
    match (&s.prompt, s.watch) {
        (_, true) => format!("(watch mode: {} request(s) from AI comments)", s.requests),
        (Some(prompt), false) => prompt.clone(),
        (None, false) => "(typed in the screen)".into(),
    }
}

/// At most `max` characters, on one line, cut with `…`.
fn shorten(text: &str, max: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= max {
        return one_line;
    }
    let cut: String = one_line.chars().take(max.saturating_sub(1)).collect();
    format!("{cut}…")
}

/// At most `max` characters, keeping the end (for paths).
fn shorten_left(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_string();
    }
    let tail: String = text.chars().skip(n - max.saturating_sub(1)).collect();
    format!("…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lines_up_and_shortens() {
        let s = Summary {
            id: "0badf00d".into(),
            started_ms: 1_709_210_096_000,
            project: "/home/someone/projects/a-very-long-project-name".into(),
            prompt: Some(
                "Fix the\nbug in the parser and add tests for every case we know of".into(),
            ),
            provider: "openai".into(),
            model: "gpt-4.1-mini".into(),
            accepted: 3,
            rejected: 1,
            failed: 0,
            pending: 0,
            requests: 1,
            ended: true,
            duration_ms: 5000,
            truncated: false,
            watch: false,
        };
        let text = table(&[(&s, false)]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[1].starts_with("2024-02-29 12:34  0badf00d  …"), "{text}");
        assert!(
            lines[1].contains("gpt-4.1-mini    3    1     0  Fix the bug in the parser"),
            "{text}"
        );
        assert!(lines[1].ends_with('…'), "{text}");
        let watch = Summary { prompt: None, watch: true, requests: 2, ..s };
        let text = table(&[(&watch, false)]);
        assert!(text.contains("(watch mode: 2 request(s) from AI comments)"), "{text}");
        let open = Summary { ended: false, ..watch.clone() };
        assert!(table(&[(&open, true)]).contains(" (open)"), "a session running now");
        assert!(table(&[(&open, false)]).contains(" (cut)"), "one that was killed");
    }
}
