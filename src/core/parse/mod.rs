//! Parsing model replies into edits, one line at a time.
//!
//! A reply is markdown prose with fenced blocks that may mix formats. The parser is a state
//! machine fed whole lines ([`Parser::push_line`]); a finished edit is emitted as soon as the line
//! that ends it arrives, so the same code serves complete replies and live streams (the stream
//! module only frames chunks into lines). Nothing is re-read: cost is linear in the reply.
//!
//! States and their transitions:
//!
//! | state            | line                                  | goes to                          |
//! |------------------|---------------------------------------|----------------------------------|
//! | prose            | fence opener (or `<source lang>`)     | fence body                       |
//! | prose, body      | `<<<<<<< SEARCH` / `ORIGINAL`         | search/replace block             |
//! | prose, body      | `diff --git`, `--- x` + `+++ y`       | unified diff                     |
//! | body             | `@@` (first thing in the fence)       | unified diff (headerless)        |
//! | body             | its closing fence (or `</source>`)    | prose; whole-file edit if named  |
//! | search/replace   | `>>>>>>> REPLACE` / `UPDATED`         | where it started (prose or body) |
//! | unified diff     | closing fence / prose line (unfenced) | prose                            |
//!
//! A fence is a whole file only when the reply names it so: a path line before it, a path in its
//! info string, or a prose line introducing it (`listing` says when prose does). A diff's hunks
//! are checked against their `@@` counts where the reply stopped (`udiff`).
//!
//! What this module does not do: decide whether a path exists (that is `core::resolve`), or
//! where an edit goes in its file (`core::locate`).

mod listing;
pub mod markers;
mod naming;
mod sr_block;
mod udiff;

use crate::core::hash::HashSet;
use std::collections::VecDeque;

use crate::core::edit::{Change, Edit, Format, Hunk, PathSource, Problem};
use crate::core::paths::prose_mentions;
use markers::{FenceLine, SrMarker, fence_line, is_hunk_header, sr_marker};
use sr_block::{
    cleaned, divider_written_twice, quotes_markers, split_at_the_middle_divider,
    splits_at_later_dividers,
};
use udiff::{DiffBlock, HunkEnd};

/// What the parser reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Edit(Edit),
    Problem(Problem),
}

/// Parser settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// Parse only this format (others are left as prose).
    pub only: Option<Format>,
    /// Project paths the reply may name; lets a path line without `.` or `/` (`Makefile`) count.
    pub known_paths: Vec<String>,
}

/// Parse a complete reply.
///
/// Lines are framed exactly as [`crate::core::stream::StreamParser`] frames a stream (split at
/// `\n`, one trailing `\r` dropped), so a reply parses the same whole or in pieces.
pub fn parse_reply(reply: &str, options: ParseOptions) -> Vec<Event> {
    let mut parser = Parser::new(options);
    let mut events = Vec::new();
    let body = reply.strip_suffix('\n').unwrap_or(reply);
    if !reply.is_empty() {
        for line in body.split('\n') {
            events.extend(parser.push_line(line));
        }
    }
    events.extend(parser.finish());
    events
}

#[derive(Debug, Clone)]
struct Recent {
    text: String,
    fence: Option<FenceLine>,
}

#[derive(Debug)]
struct OpenFence {
    open: FenceLine,
    start: usize,
    path: Option<(String, PathSource)>,
    /// The last path mentioned in prose since the previous block (a headerless diff's file).
    prose_path: Option<String>,
    /// The file the line before the fence introduces it as ([`listing::introduced_path`]).
    listing_path: Option<String>,
    /// The line before presents a new version of that file (`listing::presents_new_version`).
    presented: bool,
    /// The line before presents a whole file without naming it (`listing::presents_unnamed_file`):
    /// the listing's first line may name it in a comment.
    unnamed: bool,
    /// The path line says the file is new (`paths::notes_new`).
    new_file: bool,
    body: Vec<String>,
    nested: Vec<FenceLine>,
    had_edits: bool,
}

#[derive(Debug)]
struct SrBlock {
    path: Option<(String, PathSource)>,
    start: usize,
    search: Vec<String>,
    replace: Vec<String>,
    in_replace: bool,
    /// The divider line as written (it may be a title's underline: see
    /// [`split_at_the_middle_divider`]).
    divider: String,
    /// The spaces before its `<<<<<<< SEARCH`: a marker indented deeper is the text's (a
    /// document showing the format in an indented example), not the block's.
    margin: usize,
}

#[derive(Debug)]
enum Mode {
    Text,
    Sr(SrBlock),
    Diff(Box<DiffBlock>),
}

/// The line-at-a-time reply parser.
#[derive(Debug)]
pub struct Parser {
    only: Option<Format>,
    known: HashSet<String>,
    line_no: usize,
    /// The last [`RECENT`] lines read, oldest first (their buffers are reused).
    recent: VecDeque<Recent>,
    prose_paths: Vec<String>,
    last_path: Option<String>,
    pending_header: Option<String>,
    fence: Option<OpenFence>,
    mode: Mode,
    out: Vec<Event>,
}

const RECENT: usize = 4;
impl Parser {
    pub fn new(options: ParseOptions) -> Parser {
        let mut known = HashSet::default();
        for p in &options.known_paths {
            known.insert(p.clone());
            if let Some(base) = p.rsplit('/').next() {
                known.insert(base.to_string());
            }
        }
        Parser {
            only: options.only,
            known,
            line_no: 0,
            recent: VecDeque::with_capacity(RECENT),
            prose_paths: Vec::new(),
            last_path: None,
            pending_header: None,
            fence: None,
            mode: Mode::Text,
            out: Vec::new(),
        }
    }

    fn allows(&self, f: Format) -> bool {
        self.only.is_none_or(|o| o == f)
    }

    /// Feed one line (without its `\n`; a trailing `\r` is ignored).
    pub fn push_line(&mut self, line: &str) -> Vec<Event> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        // A reply saved from an editor may start with a byte order mark: not part of a path.
        let line = if self.line_no == 0 { line.trim_start_matches('\u{feff}') } else { line };
        self.line_no += 1;
        self.dispatch(line);
        std::mem::take(&mut self.out)
    }

    /// The reply ended: report what was left unfinished.
    pub fn finish(&mut self) -> Vec<Event> {
        if let Some(header) = self.pending_header.take() {
            self.prose_line(&header);
        }
        match std::mem::replace(&mut self.mode, Mode::Text) {
            Mode::Text => {}
            Mode::Sr(block) => {
                let reason = if block.in_replace {
                    "the reply ended inside a SEARCH/REPLACE block: expected `>>>>>>> REPLACE`"
                } else {
                    "the reply ended inside a SEARCH/REPLACE block: expected `=======` and `>>>>>>> REPLACE`"
                };
                self.problem(block.path.map(|p| p.0), Format::SearchReplace, reason, block.start);
            }
            Mode::Diff(mut block) => {
                let end = if block.fenced { HunkEnd::FencedEof } else { HunkEnd::Eof };
                self.finish_diff(&mut block, end);
            }
        }
        if let Some(fence) = self.fence.take()
            && !fence.had_edits
            && let Some((path, _)) = fence.path
            && self.allows(Format::Whole)
        {
            self.problem(
                Some(path),
                Format::Whole,
                "the reply ended inside a whole-file block: it may be cut off",
                fence.start,
            );
        }
        std::mem::take(&mut self.out)
    }

    fn dispatch(&mut self, line: &str) {
        match &mut self.mode {
            Mode::Sr(_) => self.sr_line(line),
            Mode::Diff(_) => self.diff_line(line),
            Mode::Text => self.text_line(line),
        }
    }

    fn remember(&mut self, line: &str, fence: Option<FenceLine>) {
        if self.recent.len() == RECENT
            && let Some(mut oldest) = self.recent.pop_front()
        {
            oldest.text.clear();
            oldest.text.push_str(line);
            oldest.fence = fence;
            self.recent.push_back(oldest);
            return;
        }
        self.recent.push_back(Recent { text: line.to_string(), fence });
    }

    fn problem(&mut self, path: Option<String>, format: Format, reason: &str, start: usize) {
        self.out.push(Event::Problem(Problem {
            path,
            format,
            reason: reason.to_string(),
            reply_lines: (start, self.line_no),
        }));
    }

    fn emit(
        &mut self,
        path: String,
        source: PathSource,
        format: Format,
        change: Change,
        start: usize,
        end: usize,
    ) {
        self.last_path = Some(path.clone());
        self.out.push(Event::Edit(Edit {
            path,
            path_source: source,
            format,
            change,
            reply_lines: (start, end),
        }));
    }

    // ---- prose and fence bodies ----

    fn text_line(&mut self, line: &str) {
        if let Some(header) = self.pending_header.take() {
            if line.starts_with("+++ ") && self.allows(Format::Udiff) {
                self.start_diff(false);
                self.diff_header(&header, line);
                return;
            }
            self.prose_line(&header);
        }
        if self.fence.is_some() {
            self.body_line(line);
        } else {
            self.prose_or_open(line);
        }
    }

    fn prose_or_open(&mut self, line: &str) {
        if let Some(f) = fence_line(line)
            && f.opens()
        {
            let path = match f.info_path() {
                Some(p) => Some((p, PathSource::FenceInfo)),
                None => self.path_line_before_fence(),
            };
            let before = self.line_before_fence();
            let known = |p: &str| self.known.contains(p);
            let listing_path = before.and_then(|b| listing::introduced_path(b, &known));
            // "### `tests/test_x.py` (new)", "Add a new migration `m/0005.sql`:": a new file,
            // never a listing of an existing one.
            let new_file = match &path {
                Some((_, PathSource::PathLine)) => {
                    before.is_some_and(crate::core::paths::notes_new)
                }
                Some(_) => false,
                None => {
                    listing_path.is_some()
                        && before.is_some_and(|b| listing::announces_new(b, &known))
                }
            };
            let presented = before.is_some_and(|b| listing::presents_new_version(b, &known));
            let unnamed = before.is_some_and(|b| listing::presents_unnamed_file(b, &known));
            let prose_path = self.prose_paths.last().cloned();
            self.prose_paths.clear();
            self.fence = Some(OpenFence {
                open: f.clone(),
                start: self.line_no,
                path,
                prose_path,
                listing_path,
                presented,
                unnamed,
                new_file,
                body: Vec::new(),
                nested: Vec::new(),
                had_edits: false,
            });
            self.remember(line, Some(f));
            return;
        }
        if self.starts_block(line, false) {
            return;
        }
        if line.starts_with("--- ") && self.allows(Format::Udiff) {
            self.pending_header = Some(line.to_string());
            return;
        }
        self.prose_line(line);
    }

    fn prose_line(&mut self, line: &str) {
        for p in prose_mentions(line) {
            self.prose_paths.retain(|q| *q != p);
            self.prose_paths.push(p);
        }
        self.remember(line, None);
    }

    /// Start a SEARCH/REPLACE block or a `diff --git` diff on this line, if it opens one.
    fn starts_block(&mut self, line: &str, fenced: bool) -> bool {
        if sr_marker(line) == Some(SrMarker::Head) && self.allows(Format::SearchReplace) {
            let path = self.sr_path();
            if let Some(f) = self.fence.as_mut() {
                f.had_edits = true;
            }
            self.mode = Mode::Sr(SrBlock {
                path,
                start: self.line_no,
                search: Vec::new(),
                replace: Vec::new(),
                in_replace: false,
                divider: String::new(),
                margin: line.len() - line.trim_start().len(),
            });
            return true;
        }
        if line.starts_with("diff --git ") && self.allows(Format::Udiff) {
            self.start_diff(fenced);
            self.diff_line(line);
            return true;
        }
        false
    }

    fn body_line(&mut self, line: &str) {
        let fence = self.fence.as_mut().expect("body_line runs inside a fence");
        // The fence's own indentation is not the text's (`FenceLine::indent`).
        let margin = line.len() - line.trim_start_matches(' ').len();
        let line = &line[margin.min(fence.open.indent)..];
        if let Some(f) = fence_line(line) {
            if let Some(inner) = fence.nested.last() {
                if f.closes(inner) {
                    fence.nested.pop();
                    fence.body.push(line.to_string());
                    self.remember(line, Some(f));
                    return;
                }
            } else if f.closes(&fence.open) {
                self.close_fence();
                self.remember(line, Some(f));
                return;
            }
            // An opener inside a listing: a nested fence, closed by a bare fence line later. A
            // bare fence line shorter than the listing's cannot close it (```` ```` ```` holds
            // ```` ``` ````): it opens an inner one too.
            let shorter = f.ch == fence.open.ch && f.len < fence.open.len && f.opens();
            if shorter || !f.info.is_empty() && !fence.body.is_empty() {
                fence.nested.push(f.clone());
                fence.body.push(line.to_string());
                self.remember(line, Some(f));
                return;
            }
        }
        // Inside a fence nested in a listing, markers are the listing's text (a document that
        // shows the edit format in an example).
        let nested = self.fence.as_ref().is_some_and(|f| !f.nested.is_empty());
        if !nested && self.starts_block(line, true) {
            return;
        }
        let udiff_allowed = self.allows(Format::Udiff);
        let fence = self.fence.as_mut().expect("inside a fence");
        let body_empty = fence.body.iter().all(|l| l.trim().is_empty());
        let diffish = matches!(fence.open.language(), "diff" | "patch" | "udiff");
        if udiff_allowed
            && (line.starts_with("--- ") || is_hunk_header(line))
            && (body_empty || diffish)
        {
            self.start_diff(true);
            self.diff_line(line);
            return;
        }
        fence.body.push(line.to_string());
        self.remember(line, None);
    }

    fn close_fence(&mut self) {
        let Some(fence) = self.fence.take() else { return };
        if fence.had_edits || !self.allows(Format::Whole) {
            return;
        }
        let language = fence.open.language();
        let path = match fence.path {
            Some(p) => Some(p),
            None => fence
                .listing_path
                .filter(|p| {
                    listing::fits_language(language, p) || (language.is_empty() && fence.presented)
                })
                .map(|p| (p, PathSource::Prose))
                .or_else(|| {
                    let first = fence.body.iter().find(|l| !l.trim().is_empty())?;
                    let p = listing::first_line_path(first).filter(|_| fence.unnamed)?;
                    (language.is_empty() || listing::fits_language(language, &p))
                        .then_some((p, PathSource::FirstLineComment))
                }),
        };
        let Some((path, source)) = path else { return };
        // Several files in one fence, each opened by a comment naming it (`// src/a.ts`, a blank
        // line, `// src/b.ts`): each its own listing, never all of them one file's text.
        let parts = self.listings_in(&fence.body);
        let first_end = parts.first().map_or(fence.body.len(), |(at, _)| *at);
        let mut pieces = vec![(path, source, 0, first_end)];
        for (k, (at, named)) in parts.iter().enumerate() {
            let end = parts.get(k + 1).map_or(fence.body.len(), |(next, _)| *next);
            pieces.push((named.clone(), PathSource::FirstLineComment, *at, end));
        }
        for (path, source, from, to) in pieces {
            let mut content = String::new();
            // A listing copied from a file with a BOM may carry it on its first line: the file
            // keeps its own (`TextFile`), written into the text it would be doubled.
            for (i, l) in fence.body[from..to].iter().enumerate() {
                let l = if i == 0 { l.trim_start_matches('\u{feff}') } else { l };
                content.push_str(l);
                content.push('\n');
            }
            if from > 0 {
                // The blank lines between two files are the reply's spacing.
                content = format!("{}\n", content.trim_end_matches('\n'));
            }
            let change = match fence.new_file {
                true => Change::Create { content },
                false => Change::Replace { content },
            };
            let (start, end) = match to == fence.body.len() {
                true => (fence.start + from, self.line_no),
                false => (fence.start + from, fence.start + to),
            };
            self.emit(path, source, Format::Whole, change, start, end);
        }
    }

    /// Where a listing whose first line is a comment naming a file holds the next files: lines
    /// after a blank line that are only a comment naming another file of the project, with the
    /// path each names.
    fn listings_in(&self, body: &[String]) -> Vec<(usize, String)> {
        let Some(first) = body.iter().position(|l| !l.trim().is_empty()) else { return Vec::new() };
        let Some(own) = listing::first_line_path(&body[first]) else { return Vec::new() };
        let mut named = vec![own];
        let mut parts = Vec::new();
        for i in first + 1..body.len() {
            if !body[i - 1].trim().is_empty() {
                continue;
            }
            let Some(p) = listing::first_line_path(&body[i]) else { continue };
            if self.known.contains(&p) && !named.contains(&p) {
                named.push(p.clone());
                parts.push((i, p));
            }
        }
        parts
    }

    // ---- SEARCH/REPLACE ----

    fn sr_line(&mut self, line: &str) {
        let Mode::Sr(block) = &mut self.mode else { return };
        let deeper = line.len() - line.trim_start().len() > block.margin;
        // A marker inside a fence or a string that the block's own text opened is that text's
        // (a document's example of the format, a test's sample reply), not the block's end.
        let marker = sr_marker(line).filter(|_| {
            let section = if block.in_replace { &block.replace } else { &block.search };
            !deeper && !quotes_markers(block.path.as_ref().map(|p| p.0.as_str()), section)
        });
        match marker {
            Some(SrMarker::Divider) if !block.in_replace => {
                block.in_replace = true;
                block.divider = line.to_string();
            }
            Some(SrMarker::Tail) => {
                let Mode::Sr(block) = std::mem::replace(&mut self.mode, Mode::Text) else { return };
                self.finish_sr(block);
                self.remember(line, None);
            }
            _ if block.in_replace => block.replace.push(line.to_string()),
            _ => block.search.push(line.to_string()),
        }
    }

    fn finish_sr(&mut self, block: SrBlock) {
        if !block.in_replace {
            self.problem(
                block.path.map(|p| p.0),
                Format::SearchReplace,
                "SEARCH/REPLACE block without `=======` between the old and new text",
                block.start,
            );
            return;
        }
        let Some((path, source)) = block.path else {
            self.problem(None, Format::SearchReplace, "SEARCH/REPLACE block without a file path: put the path alone on the line before the block", block.start);
            return;
        };
        let first = block.divider.clone();
        let others = splits_at_later_dividers(&path, &block.search, &block.replace, &block.divider);
        let (search, replace) =
            split_at_the_middle_divider(&path, block.search, block.replace, block.divider);
        let (search, replace) = divider_written_twice(&path, search, replace, first);
        let (search, replace) = cleaned(&path, search, replace);
        if search.iter().all(|l| l.trim().is_empty()) {
            if replace.iter().all(|l| l.trim().is_empty()) {
                self.problem(
                    Some(path),
                    Format::SearchReplace,
                    "empty SEARCH and REPLACE: nothing to do",
                    block.start,
                );
                return;
            }
            let content = replace.iter().map(|l| format!("{l}\n")).collect();
            self.emit(
                path,
                source,
                Format::SearchReplace,
                Change::Create { content },
                block.start,
                self.line_no,
            );
            return;
        }
        let mut hunk = Hunk::from_old_new(&search, &replace);
        // Each other reading holds the next one: the executor takes the one whose old text the
        // file holds as written.
        for (old, new) in others.into_iter().rev() {
            let (old, new) = cleaned(&path, old, new);
            let mut other = Hunk::from_old_new(&old, &new);
            other.other_split = hunk.other_split.take();
            hunk.other_split = Some(Box::new(other));
        }
        self.emit(
            path,
            source,
            Format::SearchReplace,
            Change::Modify { hunk },
            block.start,
            self.line_no,
        );
    }
}

#[cfg(test)]
mod tests;
