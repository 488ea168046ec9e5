//! The reply pane's lines, indexed as the reply grows: where each line starts and whether it is
//! inside a fenced block. Each byte is scanned once when it arrives, so a frame reads only the
//! lines it shows, however long the reply (a 20 MB reply used to be rescanned every frame).
//!
//! Not for: parsing the reply into edits (`core::stream`), or drawing (`ui::render`).

/// A reply's text with its line index.
#[derive(Debug, Clone, Default)]
pub struct ReplyText {
    text: String,
    /// Where each finished line starts (a line ends at the next `\n`).
    starts: Vec<usize>,
    /// Whether each finished line is shown as code (inside a fence, or a fence line).
    code: Vec<bool>,
    /// Whether the text after the last `\n` starts inside a fence.
    in_code: bool,
}

impl ReplyText {
    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub fn len(&self) -> usize {
        self.text.len()
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Append text; only the new bytes are scanned.
    pub fn push_str(&mut self, more: &str) {
        let mut start = self.unfinished_start();
        self.text.push_str(more);
        let from = self.text.len() - more.len();
        for nl in memchr::memchr_iter(b'\n', &self.text.as_bytes()[from..]) {
            let end = from + nl;
            let fence = is_fence(&self.text[start..end]);
            self.starts.push(start);
            self.code.push(self.in_code || fence);
            if fence {
                self.in_code = !self.in_code;
            }
            start = end + 1;
        }
    }

    /// Where the line after the last `\n` starts.
    fn unfinished_start(&self) -> usize {
        match self.starts.last() {
            Some(&s) => s + memchr::memchr(b'\n', &self.text.as_bytes()[s..]).map_or(0, |n| n + 1),
            None => 0,
        }
    }

    /// How many lines the pane has: the finished ones, and the unfinished last one if any.
    pub fn line_count(&self) -> usize {
        self.starts.len() + usize::from(self.unfinished_start() < self.text.len())
    }

    /// Line `k` (0-based) and whether it is shown as code.
    pub fn line(&self, k: usize) -> Option<(&str, bool)> {
        if let Some(&start) = self.starts.get(k) {
            let end = start + memchr::memchr(b'\n', &self.text.as_bytes()[start..]).unwrap_or(0);
            return Some((&self.text[start..end], self.code[k]));
        }
        let start = self.unfinished_start();
        if k != self.starts.len() || start >= self.text.len() {
            return None;
        }
        let tail = &self.text[start..];
        Some((tail, self.in_code || is_fence(tail)))
    }
}

fn is_fence(line: &str) -> bool {
    line.trim_start().starts_with("```")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines as a whole scan gives them (the pane's former way).
    fn scanned(text: &str) -> Vec<(String, bool)> {
        let mut out = Vec::new();
        let mut in_code = false;
        let mut parts = text.split('\n').peekable();
        while let Some(line) = parts.next() {
            if parts.peek().is_none() && line.is_empty() {
                break;
            }
            let fence = is_fence(line);
            out.push((line.to_string(), in_code || fence));
            if fence {
                in_code = !in_code;
            }
        }
        out
    }

    #[test]
    fn any_split_indexes_the_lines_of_a_whole_scan() {
        let text = "Intro\n\n```python\nx = 1\n```\nprose é\n  ```\ncode\nunfinished ```";
        for size in 1..12 {
            let mut r = ReplyText::default();
            let chars: Vec<char> = text.chars().collect();
            for (n, piece) in chars.chunks(size).enumerate() {
                r.push_str(&piece.iter().collect::<String>());
                let so_far: String = chars[..(n * size + piece.len())].iter().collect();
                let want = scanned(&so_far);
                assert_eq!(r.line_count(), want.len(), "size {size}: {so_far:?}");
                let got: Vec<(String, bool)> = (0..r.line_count())
                    .map(|k| r.line(k).map(|(l, c)| (l.to_string(), c)).unwrap())
                    .collect();
                assert_eq!(got, want, "size {size}: {so_far:?}");
            }
        }
    }
}
