//! The unified-diff half of the parser: `diff --git`, `---`/`+++` headers, `@@` hunks, and
//! where a diff ends (its fence closing, or prose after an unfenced one). A `--- x` line is held
//! until the next line shows whether it is a header or a removed `-- x` line.

use super::markers::{fence_line, header_path, hunk_header_hint, is_hunk_header};
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
    /// Opened by `diff --git`, still waiting for its `---`/`+++` headers.
    pub(super) awaiting_headers: bool,
}

#[derive(Debug)]
pub(super) struct HunkAcc {
    pub(super) lines: Vec<HunkLine>,
    pub(super) hint: Option<usize>,
    pub(super) start: usize,
    /// Trailing lines that were empty in the reply (not even a space): dropped if the hunk ends.
    pub(super) trailing_empty: usize,
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
        self.mode = Mode::Diff(DiffBlock {
            fenced,
            file: None,
            hunk: None,
            pending_minus: None,
            held_empty: 0,
        });
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
        if b.fenced
            && let Some(f) = fence_line(line)
            && self.fence.as_ref().is_some_and(|open| f.closes(&open.open))
        {
            self.finish_diff(b);
            b.end();
            self.fence = None;
            self.remember(line, Some(f));
            return false;
        }
        if let Some(minus) = b.pending_minus.take() {
            if line.starts_with("+++ ") {
                // The headers of a `diff --git` section belong to it; any other ends the file.
                if !(b.file.as_ref().is_some_and(|f| f.awaiting_headers) && b.hunk.is_none()) {
                    self.finish_file(b);
                }
                self.diff_header_in(b, &minus, line);
                return false;
            }
            self.hunk_line(b, &minus);
        }
        if let Some(rest) = line.strip_prefix("diff --git ") {
            self.finish_file(b);
            let path =
                rest.split(" b/").last().map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
            b.file = Some(DiffFile {
                path: path.map(|p| (p, PathSource::DiffHeader)),
                is_new: false,
                is_delete: false,
                start: self.line_no,
                created: Vec::new(),
                awaiting_headers: true,
            });
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
            }
            return false;
        }
        if is_hunk_header(line) {
            self.flush_held(b);
            self.finish_hunk(b);
            b.hunk = Some(HunkAcc {
                lines: Vec::new(),
                hint: hunk_header_hint(line),
                start: self.line_no,
                trailing_empty: 0,
            });
            return false;
        }
        if line.starts_with('\\') {
            return false;
        }
        if line.is_empty() {
            if b.fenced {
                if let Some(h) = b.hunk.as_mut() {
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
            self.finish_diff(b);
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
                start: self.line_no,
                trailing_empty: 0,
            });
        }
        let h = b.hunk.as_mut().expect("just set");
        let (kind, text) = match line.as_bytes().first() {
            Some(b' ') => (LineKind::Context, &line[1..]),
            Some(b'-') => (LineKind::Remove, &line[1..]),
            Some(b'+') => (LineKind::Add, &line[1..]),
            // A line that lost its prefix inside a fenced diff: unchanged text.
            _ => (LineKind::Context, line),
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
        let (was_new, was_delete) =
            b.file.as_ref().map_or((false, false), |f| (f.is_new, f.is_delete));
        b.file = Some(DiffFile {
            path: path.map(|p| (p, PathSource::DiffHeader)),
            is_new: is_new || was_new,
            is_delete: is_delete || was_delete,
            start,
            created: Vec::new(),
            awaiting_headers: false,
        });
    }

    pub(super) fn finish_hunk(&mut self, b: &mut DiffBlock) {
        let Some(mut h) = b.hunk.take() else { return };
        for _ in 0..h.trailing_empty {
            h.lines.pop();
        }
        if !h.lines.iter().any(|l| l.kind != LineKind::Context) {
            return;
        }
        if let Some(file) = b.file.as_mut() {
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
        let hunk = Hunk { lines: h.lines, old_start_hint: h.hint, marked: true };
        self.emit(path, source, Format::Udiff, Change::Modify { hunk }, h.start, end);
    }

    pub(super) fn finish_file(&mut self, b: &mut DiffBlock) {
        self.finish_hunk(b);
        let Some(file) = b.file.take() else { return };
        let Some((path, source)) = file.path else { return };
        let end = self.line_no.saturating_sub(1).max(file.start);
        if file.is_delete {
            self.emit(path, source, Format::Udiff, Change::Delete, file.start, end);
        } else if file.is_new {
            let content = file.created.iter().map(|l| format!("{l}\n")).collect();
            self.emit(path, source, Format::Udiff, Change::Create { content }, file.start, end);
        }
    }

    pub(super) fn finish_diff(&mut self, b: &mut DiffBlock) {
        if let Some(minus) = b.pending_minus.take() {
            self.hunk_line(b, &minus);
        }
        b.held_empty = 0;
        self.finish_file(b);
    }
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

fn is_metadata(line: &str) -> bool {
    [
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
