//! Re-indenting added lines the way the file indents: a hunk the model shifted left or right, or
//! wrote with spaces for the file's tabs (or the reverse), is applied in the file's own style.
//!
//! The mapping is learned from the lines the hunk and the file share. When every shared line has
//! the same indentation on both sides, added lines are left byte-for-byte as the model wrote them.

const TAB: usize = 4;

/// How to turn the model's indentation into the file's.
#[derive(Debug, Clone, PartialEq)]
pub enum IndentMap {
    Identity,
    /// file columns = scale × model columns + shift, written with tabs or spaces.
    Columns {
        scale_num: usize,
        scale_den: usize,
        shift: isize,
        tabs: bool,
    },
}

fn columns(ws: &str) -> usize {
    ws.chars().map(|c| if c == '\t' { TAB } else { 1 }).sum()
}

fn leading(s: &str) -> &str {
    &s[..s.len() - s.trim_start().len()]
}

impl IndentMap {
    /// Learn from `(model line, file line)` pairs; `file_uses_tabs` says how the file indents.
    pub fn learn<'a>(
        pairs: impl Iterator<Item = (&'a str, &'a str)>,
        file_uses_tabs: bool,
    ) -> IndentMap {
        let pairs: Vec<(&str, &str)> =
            pairs.filter(|(p, f)| !p.trim().is_empty() && !f.trim().is_empty()).collect();
        if pairs.iter().all(|(p, f)| leading(p) == leading(f)) {
            return IndentMap::Identity;
        }
        let cols: Vec<(isize, isize)> = pairs
            .iter()
            .map(|(p, f)| (columns(leading(p)) as isize, columns(leading(f)) as isize))
            .collect();
        let mut best: Option<(usize, (usize, usize, isize))> = None;
        for (num, den) in [(1, 1), (1, 2), (2, 1), (1, 4), (4, 1)] {
            // The most common shift under this scale, and how many pairs it explains.
            let mut shifts: Vec<isize> =
                cols.iter().map(|(p, f)| f - p * num as isize / den as isize).collect();
            shifts.sort_unstable();
            let mut k = 0;
            while k < shifts.len() {
                let v = shifts[k];
                let c = shifts.iter().filter(|s| **s == v).count();
                if best.is_none_or(|(bc, _)| c > bc) {
                    best = Some((c, (num, den, v)));
                }
                k += c;
            }
        }
        let Some((_, (scale_num, scale_den, shift))) = best else { return IndentMap::Identity };
        let uses_tabs_model = pairs.iter().any(|(p, _)| leading(p).contains('\t'));
        let tabs = file_uses_tabs
            || (uses_tabs_model && pairs.iter().any(|(_, f)| leading(f).contains('\t')));
        IndentMap::Columns { scale_num, scale_den, shift, tabs }
    }

    pub fn apply(&self, line: &str) -> String {
        match self {
            IndentMap::Identity => line.to_string(),
            _ if line.trim().is_empty() => String::new(),
            IndentMap::Columns { scale_num, scale_den, shift, tabs } => {
                let ws = leading(line);
                let body = &line[ws.len()..];
                let c = (columns(ws) * scale_num / scale_den) as isize + shift;
                let c = c.max(0) as usize;
                let mut out =
                    if *tabs { "\t".repeat(c / TAB) + &" ".repeat(c % TAB) } else { " ".repeat(c) };
                out.push_str(body);
                out
            }
        }
    }
}

/// Whether a file indents with tabs: most of its indented lines start with one.
pub fn uses_tabs<'a>(lines: impl Iterator<Item = &'a str>) -> bool {
    let (mut tabs, mut spaces) = (0, 0);
    for l in lines {
        match l.as_bytes().first() {
            Some(b'\t') => tabs += 1,
            Some(b' ') if !l.trim().is_empty() => spaces += 1,
            _ => {}
        }
    }
    tabs > spaces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_when_nothing_differs() {
        let m = IndentMap::learn([("  a", "  a"), ("b", "b")].into_iter(), false);
        assert_eq!(m, IndentMap::Identity);
        assert_eq!(m.apply("\t weird  "), "\t weird  ");
    }

    #[test]
    fn shifts_a_dedented_hunk() {
        let m = IndentMap::learn(
            [("def f():", "    def f():"), ("    x", "        x")].into_iter(),
            false,
        );
        assert_eq!(m.apply("    y = 1"), "        y = 1");
        assert_eq!(m.apply("        z"), "            z");
    }

    #[test]
    fn spaces_to_tabs() {
        let m = IndentMap::learn([("    a", "\ta"), ("        b", "\t\tb")].into_iter(), true);
        assert_eq!(m.apply("            c"), "\t\t\tc");
        assert_eq!(m.apply("    d"), "\td");
    }

    #[test]
    fn tabs_to_spaces() {
        let m = IndentMap::learn([("\ta", "    a"), ("\t\tb", "        b")].into_iter(), false);
        assert_eq!(m.apply("\t\t\tc"), "            c");
    }
}
