//! The unified-diff half of the parser: `diff --git`, `---`/`+++` headers, `@@` hunks, and
//! where a diff ends (its fence closing, or prose after an unfenced one). A `--- x` line is held
//! until the next line shows whether it is a header or a removed `-- x` line.
//!
//! A hunk is complete only when it is: the line counts of an `@@ -a,b +c,d @@` header are
//! checked against the hunk's lines where the reply simply stopped (its end, or prose after an
//! unfenced diff): any shortfall there means the hunk was cut off, and it is reported, never
//! applied. Where the hunk clearly ended (another header, a new file, its fence closing), the
//! model finished it: counts off by a line or two, or the counts of two hunks fused under one
//! header, are miscounts, and the locator places the hunk by its content.

use super::markers::{
    fence_line, header_path, hunk_header_counts, hunk_header_hint, hunk_header_section,
    is_hunk_header,
};
use super::{Mode, Parser};
use crate::core::edit::{Change, Format, Hunk, HunkLine, LineKind, PathSource};
use crate::core::paths::normalize_relative;

#[derive(Debug)]
pub(super) struct DiffFile {
    pub(super) path: Option<(String, PathSource)>,
    pub(super) is_new: bool,
    pub(super) is_delete: bool,
    pub(super) start: usize,
    pub(super) created: Vec<String>,
    /// The old lines a diff to `/dev/null` shows, and whether it had a hunk at all.
    pub(super) removed: Vec<String>,
    pub(super) had_hunk: bool,
    /// One of its hunks was incomplete (and reported): the file is neither created nor deleted.
    pub(super) broken: bool,
    /// Opened by `diff --git`, still waiting for its `---`/`+++` headers.
    pub(super) awaiting_headers: bool,
    /// Its `rename from` / `rename to` (or `copy from` / `copy to`) lines: files are not moved
    /// or copied here, so such a section is reported, never silently dropped.
    pub(super) moved: (Option<String>, Option<String>),
    /// What its git mode lines make of it when that is not a regular file (`a symbolic link`,
    /// `a submodule`): its hunk is then a link's target or a commit, not lines to write.
    pub(super) not_regular: Option<&'static str>,
}

impl DiffFile {
    fn new(path: Option<(String, PathSource)>, start: usize) -> DiffFile {
        DiffFile {
            path,
            is_new: false,
            is_delete: false,
            start,
            created: Vec::new(),
            removed: Vec::new(),
            had_hunk: false,
            broken: false,
            moved: (None, None),
            not_regular: None,
            awaiting_headers: false,
        }
    }
}

/// How a hunk came to an end, which decides how strictly its header's counts are held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum HunkEnd {
    /// Another `@@` header, a new file's headers, or the diff's fence closing: the model
    /// finished it, so a count that does not fit is only a miscount.
    Clear,
    /// Prose after an unfenced diff: the hunk may have lost lines (a marker dropped).
    Prose,
    /// The reply ended after an unfenced diff.
    Eof,
    /// The reply ended inside the diff's fence: its last hunk may be cut off whatever it says.
    FencedEof,
}

#[derive(Debug)]
pub(super) struct HunkAcc {
    pub(super) lines: Vec<HunkLine>,
    pub(super) hint: Option<usize>,
    /// The section heading after the header's second `@@`.
    pub(super) section: Option<String>,
    /// The old and new line counts its `@@` header gives, when it gives both.
    pub(super) counts: Option<(usize, usize)>,
    pub(super) start: usize,
    /// Trailing lines that were empty in the reply (not even a space): dropped if the hunk ends.
    pub(super) trailing_empty: usize,
    /// Where the lines that were empty in the reply (not even a space) stand in `lines`.
    pub(super) bare: Vec<usize>,
    /// The lines (indexes into `lines`) with text but no ` `, `-` or `+` (taken as context).
    pub(super) unmarked: Vec<usize>,
}

#[derive(Debug)]
pub(super) struct DiffBlock {
    pub(super) fenced: bool,
    pub(super) file: Option<DiffFile>,
    pub(super) hunk: Option<HunkAcc>,
    pub(super) pending_minus: Option<String>,
    /// Empty lines held in an unfenced diff: context if the diff goes on, its end if not.
    pub(super) held_empty: usize,
}

impl Parser {
    pub(super) fn start_diff(&mut self, fenced: bool) {
        if let Some(f) = self.fence.as_mut() {
            f.had_edits = true;
        }
        self.mode = Mode::Diff(Box::new(DiffBlock {
            fenced,
            file: None,
            hunk: None,
            pending_minus: None,
            held_empty: 0,
        }));
    }

    pub(super) fn with_diff<R>(&mut self, f: impl FnOnce(&mut Self, &mut DiffBlock) -> R) -> R {
        let Mode::Diff(mut block) = std::mem::replace(&mut self.mode, Mode::Text) else {
            unreachable!("with_diff runs in diff mode")
        };
        let r = f(self, &mut block);
        if matches!(self.mode, Mode::Text) && !block.ended() {
            self.mode = Mode::Diff(block);
        }
        r
    }

    pub(super) fn diff_line(&mut self, line: &str) {
        let reprocess = self.with_diff(|p, b| p.diff_line_in(b, line));
        if reprocess {
            self.text_line(line);
        }
    }

    /// Returns true when the line is not part of the diff and must be read as prose.
    pub(super) fn diff_line_in(&mut self, b: &mut DiffBlock, line: &str) -> bool {
        // A fence line after a space, while the hunk's `@@` counts want more lines, is a context
        // line of a Markdown file's own code block (` ```` in a diff of `README.md`), not the
        // end of the reply's fence: cut there, the hunk would lose its second half.
        if b.fenced
            && let Some(f) = fence_line(line)
            && self.fence.as_ref().is_some_and(|open| f.closes(&open.open))
            && !(line.starts_with(' ') && b.hunk.as_ref().is_some_and(wants_more))
        {
            self.finish_diff(b, HunkEnd::Clear);
            b.end();
            self.fence = None;
            self.remember(line, Some(f));
            return false;
        }
        if let Some(minus) = b.pending_minus.take() {
            if line.starts_with("+++ ") {
                // The headers of a `diff --git` section belong to it; any other ends the file.
                if !(b.file.as_ref().is_some_and(|f| f.awaiting_headers) && b.hunk.is_none()) {
                    self.finish_file(b, HunkEnd::Clear);
                }
                self.diff_header_in(b, &minus, line);
                return false;
            }
            self.hunk_line(b, &minus);
        }
        if let Some(rest) = line.strip_prefix("diff --git ") {
            self.finish_file(b, HunkEnd::Clear);
            // (Quoted by git when it holds bytes beyond ASCII: `"a/x" "b/x"`.)
            let quoted = rest.rsplit_once(" \"b/").map(|(_, p)| format!("\"{p}"));
            let path = match quoted {
                Some(p) => Some(super::markers::unquoted(&p)),
                None => rest.split(" b/").last().map(|s| s.trim().to_string()),
            };
            let path = path.filter(|s| !s.is_empty());
            let mut file = DiffFile::new(path.map(|p| (p, PathSource::DiffHeader)), self.line_no);
            file.awaiting_headers = true;
            b.file = Some(file);
            return false;
        }
        if line.starts_with("--- ") {
            b.pending_minus = Some(line.to_string());
            return false;
        }
        if b.hunk.is_none() && is_metadata(line) {
            if let Some(file) = b.file.as_mut() {
                file.is_new |= line.starts_with("new file mode");
                file.is_delete |= line.starts_with("deleted file mode");
                file.not_regular = file.not_regular.or(not_regular(line));
                if line.starts_with("GIT binary patch") || line.starts_with("Binary files") {
                    file.not_regular = Some(BINARY);
                }
                let named = |p: &str| Some(line[p.len()..].trim().trim_matches('"').to_string());
                for from in ["rename from ", "copy from "] {
                    if line.starts_with(from) {
                        file.moved.0 = named(from);
                    }
                }
                for to in ["rename to ", "copy to "] {
                    if line.starts_with(to) {
                        file.moved.1 = named(to);
                    }
                }
            }
            return false;
        }
        if is_hunk_header(line) {
            self.flush_held(b);
            self.finish_hunk(b, HunkEnd::Clear, 0);
            // A combined diff (a merge's `diff --cc`): each line marked against two parents.
            if line.starts_with("@@@")
                && let Some(file) = b.file.as_mut()
            {
                file.not_regular = Some(COMBINED);
            }
            b.hunk = Some(HunkAcc {
                lines: Vec::new(),
                hint: hunk_header_hint(line),
                section: hunk_header_section(line),
                counts: hunk_header_counts(line),
                start: self.line_no,
                trailing_empty: 0,
                bare: Vec::new(),
                unmarked: Vec::new(),
            });
            return false;
        }
        if line.starts_with('\\') {
            return false;
        }
        if line.is_empty() {
            if b.fenced {
                if let Some(h) = b.hunk.as_mut() {
                    h.bare.push(h.lines.len());
                    h.lines.push(HunkLine::new(LineKind::Context, ""));
                    h.trailing_empty += 1;
                }
            } else {
                b.held_empty += 1;
            }
            return false;
        }
        let hunkish = matches!(line.as_bytes()[0], b' ' | b'-' | b'+');
        if !hunkish && !b.fenced {
            self.finish_diff(b, HunkEnd::Prose);
            b.end();
            return true;
        }
        self.hunk_line(b, line);
        false
    }

    pub(super) fn flush_held(&mut self, b: &mut DiffBlock) {
        if b.held_empty > 0 {
            if let Some(h) = b.hunk.as_mut() {
                for _ in 0..b.held_empty {
                    h.bare.push(h.lines.len());
                    h.lines.push(HunkLine::new(LineKind::Context, ""));
                }
                h.trailing_empty += b.held_empty;
            }
            b.held_empty = 0;
        }
    }

    pub(super) fn hunk_line(&mut self, b: &mut DiffBlock, line: &str) {
        self.flush_held(b);
        if b.hunk.is_none() {
            b.hunk = Some(HunkAcc {
                lines: Vec::new(),
                hint: None,
                section: None,
                counts: None,
                start: self.line_no,
                trailing_empty: 0,
                bare: Vec::new(),
                unmarked: Vec::new(),
            });
        }
        let h = b.hunk.as_mut().expect("just set");
        let (kind, text) = match line.as_bytes().first() {
            Some(b' ') => (LineKind::Context, &line[1..]),
            Some(b'-') => (LineKind::Remove, &line[1..]),
            Some(b'+') => (LineKind::Add, &line[1..]),
            // A line that lost its prefix inside a fenced diff: unchanged text.
            _ => {
                h.unmarked.push(h.lines.len());
                (LineKind::Context, line)
            }
        };
        h.lines.push(HunkLine::new(kind, text));
        h.trailing_empty = 0;
    }

    pub(super) fn diff_header(&mut self, minus: &str, plus: &str) {
        self.with_diff(|p, b| p.diff_header_in(b, minus, plus));
    }

    pub(super) fn diff_header_in(&mut self, b: &mut DiffBlock, minus: &str, plus: &str) {
        let old = header_path(minus, "--- ");
        let new = header_path(plus, "+++ ");
        let is_new = old.as_deref() == Some("/dev/null");
        let is_delete = new.as_deref() == Some("/dev/null");
        let git_prefixed = b.file.as_ref().is_some_and(|f| f.path.is_some());
        let strip = |p: &str, prefix: &str| -> String {
            match p.strip_prefix(prefix) {
                Some(rest) if !rest.is_empty() => rest.to_string(),
                _ => p.to_string(),
            }
        };
        let old_a = old.as_deref().is_some_and(|o| o.starts_with("a/"));
        let new_b = new.as_deref().is_some_and(|n| n.starts_with("b/"));
        let prefixed = git_prefixed || (old_a && (new_b || is_delete)) || (is_new && new_b);
        let chosen = if is_delete { old } else { new.or(old) };
        let path = chosen.map(|p| {
            let p = if prefixed { strip(&strip(&p, "a/"), "b/") } else { p };
            normalize_relative(&p)
        });
        let start = b.file.as_ref().map_or(self.line_no - 1, |f| f.start);
        let mut file = DiffFile::new(path.map(|p| (p, PathSource::DiffHeader)), start);
        // What the section's git lines said before these headers stays said.
        if let Some(git) = b.file.take() {
            file.is_new = git.is_new;
            file.is_delete = git.is_delete;
            file.moved = git.moved;
            file.not_regular = git.not_regular;
        }
        file.is_new |= is_new;
        file.is_delete |= is_delete;
        b.file = Some(file);
    }

    /// End the open hunk: check it is complete, then emit it (or add it to the file being
    /// created or deleted). `held` empty lines were read after it and not yet given to it.
    pub(super) fn finish_hunk(&mut self, b: &mut DiffBlock, end: HunkEnd, held: usize) {
        let Some(mut h) = b.hunk.take() else { return };
        bare_blanks_between_additions(&mut h, held);
        let changes = h.lines.iter().any(|l| l.kind != LineKind::Context);
        // A link's or submodule's hunk is no text, and a moved file's hunks are for a file
        // that is not moved here (at its new name they could reach another file of that
        // name): reported once, with the file (`finish_file`).
        if let Some(file) = b.file.as_mut()
            && (file.not_regular.is_some()
                || file.moved.0.is_some() && file.moved.0 != file.moved.1)
        {
            file.had_hunk = true;
            return;
        }
        if changes && let Some(reason) = incomplete(&h, end, held).or_else(|| wrapped(&h, held)) {
            let path = b.file.as_ref().and_then(|f| f.path.clone()).map(|p| p.0);
            if let Some(file) = b.file.as_mut() {
                file.broken = true;
            }
            self.problem(path, Format::Udiff, &reason, h.start);
            return;
        }
        for _ in 0..h.trailing_empty {
            h.lines.pop();
        }
        if !changes {
            // Only context, while the header's counts say lines come or go: a `+` or `-` was
            // lost (dropped without a word, the reply's other files were written, exit 0).
            if let Some((old, new)) = h.counts.filter(|(o, n)| o != n) {
                let path = b.file.as_ref().and_then(|f| f.path.clone()).map(|p| p.0);
                if let Some(file) = b.file.as_mut() {
                    file.broken = true;
                }
                let why = format!(
                    "a diff hunk with no `+` or `-` line, while its header counts {old} old and {new} new lines: a line lost its `+` or `-`; mark the lines that change"
                );
                self.problem(path, Format::Udiff, &why, h.start);
            }
            return;
        }
        if let Some(file) = b.file.as_mut() {
            file.had_hunk = true;
            // A "new file" whose hunk has old lines is a mislabelled change to an existing file.
            if file.is_new
                && h.lines.iter().any(|l| {
                    l.kind == LineKind::Remove
                        || (l.kind == LineKind::Context && !l.text.trim().is_empty())
                })
            {
                file.is_new = false;
            }
            if file.is_new {
                file.created.extend(
                    h.lines.iter().filter(|l| l.kind != LineKind::Remove).map(|l| l.text.clone()),
                );
                return;
            }
            if file.is_delete {
                // What the diff says the file holds: checked against the file before deleting.
                file.removed.extend(
                    h.lines.iter().filter(|l| l.kind != LineKind::Add).map(|l| l.text.clone()),
                );
                if h.lines.iter().any(|l| l.kind == LineKind::Add && !l.text.trim().is_empty()) {
                    file.broken = true;
                    let path = file.path.clone().map(|p| p.0);
                    self.problem(
                        path,
                        Format::Udiff,
                        "a diff to /dev/null that adds lines: neither a deletion nor an edit",
                        h.start,
                    );
                }
                return;
            }
        }
        let path = b
            .file
            .as_ref()
            .and_then(|f| f.path.clone())
            .or_else(|| self.fence.as_ref().and_then(|f| f.path.clone()))
            .or_else(|| {
                self.fence
                    .as_ref()
                    .and_then(|f| f.prose_path.clone())
                    .map(|p| (p, PathSource::Prose))
            });
        let Some((path, source)) = path else {
            self.problem(
                None,
                Format::Udiff,
                "diff hunk without a file: add `--- a/path` and `+++ b/path` headers",
                h.start,
            );
            return;
        };
        let end = self.line_no.saturating_sub(1).max(h.start);
        strip_first_boms(&mut h.lines);
        let hunk = Hunk {
            lines: h.lines,
            old_start_hint: h.hint,
            marked: true,
            pick: None,
            section: h.section,
            other_split: None,
        };
        self.emit(path, source, Format::Udiff, Change::Modify { hunk }, h.start, end);
    }

    pub(super) fn finish_file(&mut self, b: &mut DiffBlock, end: HunkEnd) {
        let held = if end == HunkEnd::Clear { 0 } else { b.held_empty };
        self.finish_hunk(b, end, held);
        let Some(file) = b.file.take() else { return };
        if let (Some(from), Some(to)) = &file.moved
            && from != to
        {
            let why = format!(
                "the diff moves {from} to {to} (`rename`/`copy`): redline does not move or copy files; do it yourself (`git mv {from} {to}`) and send the reply again"
            );
            self.problem(Some(to.clone()), Format::Udiff, &why, file.start);
        }
        if let Some(what) = file.not_regular {
            let path = file.path.as_ref().map(|p| p.0.clone());
            let name = path.as_deref().unwrap_or("a file");
            let why = match what {
                COMBINED => format!(
                    "the diff of {name} is a combined diff (`diff --cc`, `@@@` hunks: a merge's lines against two parents): it shows what a merge did, and cannot be applied; nothing of it was written; send a plain diff against the file as it is"
                ),
                BINARY => format!(
                    "the diff changes {name} as a binary file (a git binary patch, or \"Binary files … differ\"): redline applies text only, and nothing of it was written; apply that part with `git apply` yourself"
                ),
                _ => format!(
                    "the diff's git mode makes {name} {what}: redline writes only regular files (its hunk would write the link's target or the commit as the file's text); make it yourself"
                ),
            };
            self.problem(path, Format::Udiff, &why, file.start);
            return;
        }
        let Some((path, source)) = file.path else { return };
        if file.broken {
            return;
        }
        let end = self.line_no.saturating_sub(1).max(file.start);
        if file.is_delete {
            let old =
                file.had_hunk.then(|| file.removed.iter().map(|l| format!("{l}\n")).collect());
            self.emit(path, source, Format::Udiff, Change::Delete { old }, file.start, end);
        } else if file.is_new {
            let content = file.created.iter().map(|l| format!("{l}\n")).collect();
            self.emit(path, source, Format::Udiff, Change::Create { content }, file.start, end);
        }
    }

    pub(super) fn finish_diff(&mut self, b: &mut DiffBlock, end: HunkEnd) {
        if let Some(minus) = b.pending_minus.take() {
            self.hunk_line(b, &minus);
        }
        self.finish_file(b, end);
        b.held_empty = 0;
    }
}

/// A BOM at the start of a hunk's first old or first new line is the file's, which the file
/// keeps on its own: written into the new text it would be doubled.
fn strip_first_boms(lines: &mut [HunkLine]) {
    for side in [LineKind::Add, LineKind::Remove] {
        if let Some(first) = lines.iter_mut().find(|l| l.kind != side)
            && let Some(rest) = first.text.strip_prefix('\u{feff}')
        {
            first.text = rest.to_string();
        }
    }
}

/// How many old and new lines a hunk has so far.
fn counted(h: &HunkAcc) -> (usize, usize) {
    let old = h.lines.iter().filter(|l| l.kind != LineKind::Add).count();
    let new = h.lines.iter().filter(|l| l.kind != LineKind::Remove).count();
    (old, new)
}

/// Empty lines that lost their `+` between added lines (the model left the blank lines between
/// two new functions bare) are added lines when the header's counts say so: the old count is
/// already filled without them and the new count needs them. Read as context, they would be
/// dropped as missing context and the new functions written without the blank lines between
/// them.
fn bare_blanks_between_additions(h: &mut HunkAcc, held: usize) {
    let Some((want_old, want_new)) = h.counts else { return };
    let is_bare = |i: usize| h.bare.binary_search(&i).is_ok();
    let neighbour = |mut i: usize, forward: bool| loop {
        if forward {
            i += 1;
            if i >= h.lines.len() {
                return None;
            }
        } else {
            i = i.checked_sub(1)?;
        }
        if !is_bare(i) {
            return Some(h.lines[i].kind);
        }
    };
    let between: Vec<usize> = h
        .bare
        .iter()
        .copied()
        .filter(|&i| i < h.lines.len())
        .filter(|&i| {
            neighbour(i, false) == Some(LineKind::Add) && neighbour(i, true) == Some(LineKind::Add)
        })
        .collect();
    if between.is_empty() {
        return;
    }
    // Empty lines at the hunk's end may be its context or the gap before the fence or prose:
    // the counts may fit with them or without them.
    let (old, new) = counted(h);
    let fits = [0, h.trailing_empty + held].into_iter().any(|extra| {
        let (old, new) = (old + held - extra, new + held - extra);
        old.checked_sub(between.len()) == Some(want_old) && new == want_new
    });
    if !fits {
        return;
    }
    for i in between {
        h.lines[i].kind = LineKind::Add;
    }
}

/// Why lines without a marker are not the hunk's own, when the header's counts say so: right
/// after a changed line, they fit neither count (the hunk has just as many lines as the header
/// says without them, old and new), which is what a long `+` or `-` line wrapped onto the next
/// line leaves (`+X = "… for 30 days after` / `delivery."`). Read as context or as a line that
/// lost its `+`, the hunk would write half a line.
fn wrapped(h: &HunkAcc, held: usize) -> Option<String> {
    let (want_old, want_new) = h.counts?;
    let after_change = |i: usize| i > 0 && h.lines[i - 1].kind != LineKind::Context;
    let first = *h.unmarked.iter().find(|&&i| after_change(i))?;
    let (old, new) = counted(h);
    let n = h.unmarked.len();
    let fits = [0, h.trailing_empty + held].into_iter().any(|extra| {
        (old + held).checked_sub(extra + n) == Some(want_old)
            && (new + held).checked_sub(extra + n) == Some(want_new)
    });
    fits.then(|| {
        format!(
            "the hunk's line {:?} has no ` `, `-` or `+`, and its `@@` header counts {want_old} old and {want_new} new lines without it: the end of the long line before it, wrapped? nothing of this hunk is applied; send the line whole",
            h.lines[first].text.trim()
        )
    })
}

/// Whether a hunk's `@@` header counts more old or new lines than it has yet.
fn wants_more(h: &HunkAcc) -> bool {
    let Some((want_old, want_new)) = h.counts else { return false };
    let (old, new) = counted(h);
    old < want_old || new < want_new
}

/// Why a hunk that ended this way is not complete, if it is not.
fn incomplete(h: &HunkAcc, end: HunkEnd, held: usize) -> Option<String> {
    if end == HunkEnd::FencedEof {
        return Some("the reply ended inside a fenced diff: its last hunk may be cut off".into());
    }
    if end == HunkEnd::Clear {
        return None;
    }
    let (want_old, want_new) = h.counts?;
    let (old, new) = counted(h);
    let (old, new) = (old + held, new + held);
    if want_old <= old && want_new <= new {
        return None;
    }
    let counted = format!(
        "its `@@` header counts {want_old} old and {want_new} new lines, the hunk has {old} and {new}"
    );
    Some(if end == HunkEnd::Eof {
        format!("cut off: the reply ends inside this hunk ({counted})")
    } else {
        format!(
            "cut off: the diff stops before this hunk is complete ({counted}; a line may have lost its ` `, `-` or `+`)"
        )
    })
}

impl DiffBlock {
    pub(super) fn end(&mut self) {
        self.fenced = false;
        self.file = None;
        self.hunk = None;
        self.pending_minus = None;
        self.held_empty = usize::MAX;
    }
    pub(super) fn ended(&self) -> bool {
        self.held_empty == usize::MAX
    }
}

/// What a git mode line says the file is, when not a regular file: mode 120000 is a symbolic
/// link, 160000 a submodule (in `new file mode`, `deleted file mode`, `old mode`, `new mode`
/// and `index` lines, the mode is the last word).
fn not_regular(line: &str) -> Option<&'static str> {
    let moded = ["new file mode", "deleted file mode", "old mode", "new mode", "index "];
    if !moded.iter().any(|p| line.starts_with(p)) {
        return None;
    }
    match line.split_whitespace().last()? {
        "120000" => Some("a symbolic link"),
        "160000" => Some("a submodule"),
        _ => None,
    }
}

/// What [`DiffFile::not_regular`] says of a file whose diff is binary.
const BINARY: &str = "a binary file";

/// What [`DiffFile::not_regular`] says of a file whose diff is a combined one.
const COMBINED: &str = "a combined diff";

fn is_metadata(line: &str) -> bool {
    [
        "GIT binary patch",
        "index ",
        "new file mode",
        "deleted file mode",
        "old mode",
        "new mode",
        "similarity index",
        "dissimilarity index",
        "rename from",
        "rename to",
        "copy from",
        "copy to",
        "Binary files",
    ]
    .iter()
    .any(|p| line.starts_with(p))
}
