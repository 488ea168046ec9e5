//! A file's text as lines, keeping exactly what makes it byte-identical on the way back: each
//! line's own ending, the BOM, and whether the last line ends with a newline.
//!
//! Edits work on line texts without endings; [`TextFile::render`] puts the file's own endings
//! back, giving new lines the file's dominant ending, so a CRLF file stays CRLF whatever the
//! model wrote.

/// A line ending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eol {
    Lf,
    CrLf,
    /// The last line of a file without a final newline.
    None,
}

impl Eol {
    pub fn as_str(self) -> &'static str {
        match self {
            Eol::Lf => "\n",
            Eol::CrLf => "\r\n",
            Eol::None => "",
        }
    }
}

/// A text file split into lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextFile {
    pub bom: bool,
    /// Line texts, without their endings.
    pub lines: Vec<String>,
    /// Each line's ending; the last is `Eol::None` when the file has no final newline.
    pub eols: Vec<Eol>,
    /// The ending given to new lines: the file's most common one.
    pub dominant: Eol,
}

const BOM: char = '\u{feff}';

impl TextFile {
    pub fn parse(text: &str) -> TextFile {
        let (bom, body) = match text.strip_prefix(BOM) {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let mut lines = Vec::new();
        let mut eols = Vec::new();
        let mut rest = body;
        while !rest.is_empty() {
            match rest.find('\n') {
                Some(i) => {
                    let (line, eol) = match rest[..i].strip_suffix('\r') {
                        Some(l) => (l, Eol::CrLf),
                        None => (&rest[..i], Eol::Lf),
                    };
                    lines.push(line.to_string());
                    eols.push(eol);
                    rest = &rest[i + 1..];
                }
                None => {
                    lines.push(rest.to_string());
                    eols.push(Eol::None);
                    rest = "";
                }
            }
        }
        let crlf = eols.iter().filter(|e| **e == Eol::CrLf).count();
        let lf = eols.iter().filter(|e| **e == Eol::Lf).count();
        let dominant = if crlf > lf { Eol::CrLf } else { Eol::Lf };
        TextFile { bom, lines, eols, dominant }
    }

    /// Whether the last line ends with a newline (an empty file counts as ending with one).
    pub fn final_newline(&self) -> bool {
        self.eols.last().is_none_or(|e| *e != Eol::None)
    }

    pub fn render(&self) -> String {
        let mut out = String::with_capacity(self.lines.iter().map(|l| l.len() + 2).sum());
        if self.bom {
            out.push(BOM);
        }
        for (line, eol) in self.lines.iter().zip(&self.eols) {
            out.push_str(line);
            out.push_str(eol.as_str());
        }
        out
    }

    /// Replace lines `start..end` with `new` lines. Replaced lines that survive unchanged keep
    /// their own ending; new lines get the dominant one; the final-newline state is kept.
    pub fn splice(&mut self, start: usize, end: usize, new: Vec<NewLine>) {
        let had_final_newline = self.final_newline();
        let at_end = end == self.lines.len();
        let mut lines = Vec::with_capacity(new.len());
        let mut eols = Vec::with_capacity(new.len());
        for nl in new {
            let eol = match nl.kept_eol {
                Some(Eol::None) | None => self.dominant,
                Some(e) => e,
            };
            lines.push(nl.text);
            eols.push(eol);
        }
        self.lines.splice(start..end, lines);
        self.eols.splice(start..end, eols);
        if at_end || !had_final_newline {
            self.fix_final_newline(had_final_newline);
        }
    }

    fn fix_final_newline(&mut self, want: bool) {
        let n = self.eols.len();
        for e in self.eols.iter_mut() {
            if *e == Eol::None {
                *e = self.dominant;
            }
        }
        if !want && n > 0 {
            self.eols[n - 1] = Eol::None;
        }
    }

    /// Replace the whole content with these lines (a whole-file edit), keeping BOM, dominant
    /// ending and final-newline state.
    pub fn replace_all(&mut self, new: Vec<String>) {
        let want_final = self.final_newline();
        let n = new.len();
        self.eols = vec![self.dominant; n];
        self.lines = new;
        self.fix_final_newline(want_final);
    }
}

/// A line to splice in: its text, and the ending it had if it is an original line kept as is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewLine {
    pub text: String,
    pub kept_eol: Option<Eol>,
}

impl NewLine {
    pub fn added(text: impl Into<String>) -> Self {
        NewLine { text: text.into(), kept_eol: None }
    }
    pub fn kept(text: impl Into<String>, eol: Eol) -> Self {
        NewLine { text: text.into(), kept_eol: Some(eol) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_ending_style() {
        for text in ["", "a", "a\n", "a\r\nb\r\n", "a\nb\r\nc", "\u{feff}x\ny", "\n\n", "\r\n"] {
            assert_eq!(TextFile::parse(text).render(), text, "{text:?}");
        }
    }

    #[test]
    fn splice_keeps_crlf_and_missing_final_newline() {
        let mut f = TextFile::parse("a\r\nb\r\nc");
        f.splice(2, 3, vec![NewLine::added("c"), NewLine::added("d")]);
        assert_eq!(f.render(), "a\r\nb\r\nc\r\nd");
        let mut f = TextFile::parse("a\nb\n");
        f.splice(1, 1, vec![NewLine::added("x")]);
        assert_eq!(f.render(), "a\nx\nb\n");
    }

    #[test]
    fn replace_all_keeps_bom_and_endings() {
        let mut f = TextFile::parse("\u{feff}a\r\nb");
        f.replace_all(vec!["x".into(), "y".into(), "z".into()]);
        assert_eq!(f.render(), "\u{feff}x\r\ny\r\nz");
    }
}
