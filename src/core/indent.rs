//! Re-indenting added lines the way the file indents: a hunk the model shifted left or right, or
//! wrote with spaces for the file's tabs (or the reverse), is applied in the file's own style.
//!
//! The mapping is learned from the lines the hunk and the file share. When every shared line has
//! the same indentation on both sides, added lines are left byte-for-byte as the model wrote them.
//! When the shared lines fit several mappings (one line: a shift or a scale?), the new lines
//! decide (the one that puts them on the file's steps, then the one that scales the hunk's own
//! step to the file's), and new lines are written as the file writes the depth they land at.

const TAB: usize = 4;

/// A candidate mapping: model columns × `.0 / .1` + `.2`.
type Mapping = (usize, usize, isize);
/// How well a mapping fits: pairs it explains, new lines it puts on the file's steps, whether it
/// scales the hunk's own step to the file's.
type Rank = (usize, bool, usize, bool);

/// How to turn the model's indentation into the file's.
#[derive(Debug, Clone, PartialEq)]
pub enum IndentMap {
    Identity,
    /// Same depth, but written in the file's style: tabs (a model tab or 4 spaces become one),
    /// or spaces (a model tab becomes one indent unit of the file).
    Style {
        tabs: bool,
        unit: usize,
    },
    /// file columns = `unit` × the model's leading tabs + the spaces after them + shift: a model
    /// that indents with tabs but aligns with spaces (` * ` in a JSDoc block under a tab).
    TabUnit {
        unit: usize,
        shift: isize,
        tabs: bool,
        spell: Spelling,
    },
    /// The file's lines hold the model's indentation after this same whitespace: the hunk was
    /// shifted, and the file's own whitespace for the shift is kept as it is (`"  \t"` in a
    /// file whose body sits under a wrapper's two spaces and a tab).
    Prefix(String),
    /// file columns = scale × model columns + shift, written with tabs or spaces.
    Columns {
        scale_num: usize,
        scale_den: usize,
        shift: isize,
        tabs: bool,
        spell: Spelling,
    },
}

/// How the file writes the depths the hunk's lines were found at: a new line at one of them is
/// written the same way (`"  \t"` in a file that puts its bodies under two spaces and a tab),
/// not spelled afresh in tabs or spaces.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Spelling(Vec<(usize, String)>);

impl Spelling {
    fn of(pairs: &[(&str, &str)]) -> Spelling {
        let mut seen: Vec<(usize, String)> = Vec::new();
        for (_, f) in pairs {
            let ws = leading(f);
            let c = columns(ws);
            if !seen.iter().any(|(k, _)| *k == c) {
                seen.push((c, ws.to_string()));
            }
        }
        Spelling(seen)
    }

    /// Leading whitespace `c` columns deep: as the file writes it, or in tabs or spaces.
    fn write(&self, c: usize, tabs: bool) -> String {
        match self.0.iter().find(|(k, _)| *k == c) {
            Some((_, ws)) => ws.clone(),
            None if tabs => "\t".repeat(c / TAB) + &" ".repeat(c % TAB),
            None => " ".repeat(c),
        }
    }
}

/// How deep a line is indented, in columns (a tab counting 4).
pub(crate) fn depth(line: &str) -> usize {
    columns(leading(line))
}

/// How each line with text is nested against the one with text before it (deeper, as deep,
/// shallower): the shape of a block, whatever its unit of indentation.
pub(crate) fn nesting<'a>(lines: impl Iterator<Item = &'a str>) -> Vec<std::cmp::Ordering> {
    let depths: Vec<usize> = lines.filter(|l| !l.trim().is_empty()).map(depth).collect();
    depths.windows(2).map(|w| w[1].cmp(&w[0])).collect()
}

fn columns(ws: &str) -> usize {
    ws.chars().map(|c| if c == '\t' { TAB } else { 1 }).sum()
}

/// A line's leading whitespace.
pub(crate) fn leading(s: &str) -> &str {
    &s[..s.len() - s.trim_start().len()]
}

impl IndentMap {
    /// Learn from `(model line, file line)` pairs; `style` says how the file indents.
    pub fn learn<'a>(
        pairs: impl Iterator<Item = (&'a str, &'a str)>,
        style: FileStyle,
    ) -> IndentMap {
        IndentMap::learn_with(pairs, style, None, &[])
    }

    /// A hunk found only at the margin (`def main():`), written in its own step for a file in
    /// another (4 for 2), whose new lines go into the block that line opens: scaled to the
    /// file's step, or they would sit a step too deep over the block's body (`if` at 4 over a
    /// body at 2). The caller knows the place; `own` is the hunk's step, `added` its new lines.
    /// `None` when the new lines do not show the step themselves (one level at it and one a
    /// step further: a single line at 8 may be two steps of 4).
    pub fn margin_scale(style: FileStyle, own: Option<usize>, added: &[&str]) -> Option<IndentMap> {
        let is_step = |u: &usize| matches!(u, 2 | 4 | 8);
        let (f, m) = (style.unit.filter(is_step)?, own.filter(is_step)?);
        let levels: std::collections::BTreeSet<usize> = (added.iter())
            .filter(|l| !l.trim().is_empty())
            .map(|l| leading(l).len())
            .filter(|d| *d > 0)
            .collect();
        let plain = added.iter().all(|l| {
            let ws = leading(l);
            !ws.contains('\t') && ws.len().is_multiple_of(m)
        });
        let shows = levels.first() == Some(&m) && levels.contains(&(2 * m));
        (!style.tabs && f != m && shows && plain).then(|| IndentMap::Columns {
            scale_num: f,
            scale_den: m,
            shift: 0,
            tabs: false,
            spell: Spelling::default(),
        })
    }

    /// [`IndentMap::learn`], knowing the step the model's own lines indent by (`own`) and the
    /// lines it adds: when the pairs leave a shift and a scale equally likely (one shared line,
    /// `  def save` found as `    def save`), the scale from the model's step to the file's is
    /// the one.
    pub fn learn_with<'a>(
        pairs: impl Iterator<Item = (&'a str, &'a str)>,
        style: FileStyle,
        own: Option<usize>,
        added: &[&str],
    ) -> IndentMap {
        let added: Vec<&str> = added.iter().copied().filter(|l| !l.trim().is_empty()).collect();
        let file_uses_tabs = style.tabs;
        let pairs: Vec<(&str, &str)> =
            pairs.filter(|(p, f)| !p.trim().is_empty() && !f.trim().is_empty()).collect();
        if pairs.iter().all(|(p, f)| leading(p) == leading(f)) {
            return match style.unit {
                Some(unit) => IndentMap::Style { tabs: style.tabs, unit },
                None => IndentMap::Identity,
            };
        }
        let cols: Vec<(isize, isize)> = pairs
            .iter()
            .map(|(p, f)| (columns(leading(p)) as isize, columns(leading(f)) as isize))
            .collect();
        // A scale that takes the model's step to the file's: the model's depth, in its units.
        // Only steps people indent by count: a hunk whose lines sit one column apart says
        // nothing about its step.
        let step = |u: &usize| matches!(u, 2 | 3 | 4 | 8);
        // A file read as indented by 8 is rarely so (a line two steps of 4 deeper than the one
        // before it reads as one rise of 8): no scale is taken to it.
        let file_step = |u: &usize| step(u) && *u != 8;
        let steps = |num: usize, den: usize| match (style.unit.filter(file_step), own.filter(step))
        {
            (Some(f), Some(m)) if !style.tabs => m * num == f * den,
            _ => false,
        };
        // How many new lines a mapping puts on the file's steps (a file indented by 4 has no
        // line at 6): with pairs that fit several mappings, the new lines tell them apart.
        let grid = style.unit.filter(|u| *u >= 2 && !style.tabs);
        // Only a plain shift or a plain scale is weighed so: a scale and a shift together can
        // put anything anywhere.
        let on_grid = |num: usize, den: usize, v: isize| {
            let plain = (num, den) == (1, 1) || v == 0;
            grid.filter(|_| plain).map_or(0, |u| {
                added
                    .iter()
                    .filter(|l| {
                        let c = (columns(leading(l)) * num / den) as isize + v;
                        c >= 0 && (c as usize).is_multiple_of(u)
                    })
                    .count()
            })
        };
        let all_on_grid = |num: usize, den: usize, v: isize| {
            grid.is_some_and(|u| {
                added.iter().all(|l| {
                    let c = (columns(leading(l)) * num / den) as isize + v;
                    c >= 0 && (c as usize).is_multiple_of(u)
                })
            })
        };
        let mut best: Option<(Rank, Mapping)> = None;
        for (num, den) in [(1, 1), (1, 2), (2, 1), (1, 4), (4, 1), (2, 3), (3, 2), (3, 4), (4, 3)] {
            // The most common shift under this scale, and how many pairs it explains.
            let mut shifts: Vec<isize> =
                cols.iter().map(|(p, f)| f - p * num as isize / den as isize).collect();
            shifts.sort_unstable();
            let mut k = 0;
            while k < shifts.len() {
                let v = shifts[k];
                let c = shifts.iter().filter(|s| **s == v).count();
                // A scale from a model's step to the file's that differs from it (a hunk in 4s
                // for a file in 2s) beats the grid with a shift too: a model that writes its own
                // step re-indented the hunk, and the steps it takes stay steps (its `else:` one
                // step out of its `if` body, not two), where what it shifts by is whole steps
                // of the file's.
                // A scale that puts a new line off the file's steps misread the model's step
                // (one rise of 8 from a line to one two steps in, read as a step of 8).
                let whole_steps = style.unit.is_some_and(|u| v % u as isize == 0);
                let rescaled = (num, den) != (1, 1)
                    && steps(num, den)
                    && whole_steps
                    && all_on_grid(num, den, v);
                let rank = (c, rescaled, on_grid(num, den, v), steps(num, den) && v == 0);
                if best.is_none_or(|(b, _)| rank > b) {
                    best = Some((rank, (num, den, v)));
                }
                k += c;
            }
        }
        let Some(((explained, _, _, by_steps), (scale_num, scale_den, shift))) = best else {
            return IndentMap::Identity;
        };
        // Context a column shallower or deeper than the file's, new lines on the file's steps
        // as written: a diff whose context lines lost their leading space marker, not a hunk
        // shifted by one column. The new lines stay as the model wrote them.
        let lost_marker = |shift: isize| {
            shift.abs() == 1
                && !added.is_empty()
                && grid.is_some_and(|u| added.iter().all(|l| columns(leading(l)).is_multiple_of(u)))
        };
        // A shift by the file's own whitespace, unless the steps say the depth is scaled.
        if let Some(prefix) = common_prefix(&pairs)
            && !(by_steps && explained == pairs.len())
        {
            if lost_marker(columns(prefix) as isize) {
                return IndentMap::Identity;
            }
            return IndentMap::Prefix(prefix.to_string());
        }
        let uses_tabs_model = pairs.iter().any(|(p, _)| leading(p).contains('\t'));
        let tabs = file_uses_tabs
            || (uses_tabs_model && pairs.iter().any(|(_, f)| leading(f).contains('\t')));
        // A model that indents with tabs: a tab is one of the file's steps when that explains
        // as many lines as a scale of columns (a tab counted as 4 columns is only a guess).
        // In a file indented with tabs, a tab is a tab: its width is the one `columns` counts,
        // or the model's `\t\t` one tab deeper than the file's would be written a column deep.
        let file_unit = if file_uses_tabs { Some(TAB) } else { style.unit };
        if uses_tabs_model
            && let Some((n, unit, shift)) = tab_unit(&pairs, file_unit)
            && n >= explained
        {
            return IndentMap::TabUnit { unit, shift, tabs, spell: Spelling::of(&pairs) };
        }
        if (scale_num, scale_den) == (1, 1) && lost_marker(shift) {
            return IndentMap::Identity;
        }
        IndentMap::Columns { scale_num, scale_den, shift, tabs, spell: Spelling::of(&pairs) }
    }

    pub fn apply(&self, line: &str) -> String {
        match self {
            IndentMap::Identity => line.to_string(),
            // A line of only whitespace is kept as the model wrote it: its bytes are its content.
            _ if line.trim().is_empty() => line.to_string(),
            IndentMap::Style { tabs, unit } => {
                let ws = leading(line);
                let body = &line[ws.len()..];
                // In a file of tabs, spaces *before* any tab are the model's spelling of the
                // file's tabs; spaces after a tab align (`\t    arg,`, `\t * ` in JSDoc) or are
                // the file's own way (a bundle that puts a tab before space-indented code), and
                // are kept as written.
                let foreign = if *tabs {
                    ws.starts_with(' ') && columns(ws) >= TAB
                } else {
                    ws.contains('\t')
                };
                if !foreign {
                    return line.to_string();
                }
                let mut out = if *tabs {
                    let c = columns(ws);
                    "\t".repeat(c / TAB) + &" ".repeat(c % TAB)
                } else {
                    ws.chars()
                        .map(|c| if c == '\t' { " ".repeat(*unit) } else { c.to_string() })
                        .collect()
                };
                out.push_str(body);
                out
            }
            IndentMap::Prefix(prefix) => format!("{prefix}{line}"),
            IndentMap::TabUnit { unit, shift, tabs, spell } => {
                let ws = leading(line);
                let body = &line[ws.len()..];
                let c = (tab_columns(ws, *unit) as isize + shift).max(0) as usize;
                spell.write(c, *tabs) + body
            }
            IndentMap::Columns { scale_num, scale_den, shift, tabs, spell } => {
                let ws = leading(line);
                let body = &line[ws.len()..];
                let c = (columns(ws) * scale_num / scale_den) as isize + shift;
                spell.write(c.max(0) as usize, *tabs) + body
            }
        }
    }
}

/// Whether one mapping a model plausibly makes explains the indentation of every
/// `(model line, file line)` pair of a placement: the same on both sides, the whole hunk
/// shifted, its depth scaled from the left margin (2 spaces for 4), or its tabs for the
/// file's unit (then shifted). Lines that need two different shifts were not matched where the
/// model meant them: `}` at the margin taken for an indented `    }` while the line above it
/// kept its depth.
pub fn consistent<'a>(pairs: impl Iterator<Item = (&'a str, &'a str)>) -> bool {
    let pairs: Vec<(&str, &str)> =
        pairs.filter(|(p, f)| !p.trim().is_empty() && !f.trim().is_empty()).collect();
    if pairs.len() < 2 || pairs.iter().all(|(p, f)| leading(p) == leading(f)) {
        return true;
    }
    let cols: Vec<(isize, isize)> = pairs
        .iter()
        .map(|(p, f)| (columns(leading(p)) as isize, columns(leading(f)) as isize))
        .collect();
    let shift = cols[0].1 - cols[0].0;
    if cols.iter().all(|(p, f)| f - p == shift) {
        return true;
    }
    // Dedented by `s`, lines less deep than `s` stopping at the margin: the lines off the
    // margin share the shift, those at it were at most `s` deep.
    let off: Vec<&(isize, isize)> = cols.iter().filter(|(p, _)| *p > 0).collect();
    if let Some((p0, f0)) = off.first()
        && f0 - p0 > 0
        && off.iter().all(|(p, f)| f - p == f0 - p0)
        && cols.iter().all(|(p, f)| *p > 0 || *f <= f0 - p0)
    {
        return true;
    }
    let scaled = [(1, 2), (2, 1), (1, 4), (4, 1)]
        .iter()
        .any(|&(num, den)| cols.iter().all(|(p, f)| p * num % den == 0 && *f == p * num / den));
    scaled
        || common_prefix(&pairs).is_some()
        || tab_unit(&pairs, None).is_some_and(|(n, _, _)| n == pairs.len())
}

/// Columns of leading whitespace when each tab is `unit` columns wide.
fn tab_columns(ws: &str, unit: usize) -> usize {
    ws.chars().map(|c| if c == '\t' { unit } else { 1 }).sum()
}

/// The whitespace every file line holds before its model line's own indentation (`None` when
/// there is no one such, or it is empty): the hunk was shifted by exactly that text.
fn common_prefix<'a>(pairs: &[(&str, &'a str)]) -> Option<&'a str> {
    let mut prefix: Option<&str> = None;
    for (p, f) in pairs {
        let (pw, fw) = (leading(p), leading(f));
        let here = fw.strip_suffix(pw)?;
        if prefix.is_some_and(|q| q != here) {
            return None;
        }
        prefix = Some(here);
    }
    prefix.filter(|q| !q.is_empty())
}

/// The tab width and shift that explain the most `(model, file)` pairs, and how many. Among
/// as many, no shift before a shift, and the file's own step before another width: one line
/// `\treturn` found as `  return` says a tab is the file's two spaces, not 1 column plus 1.
fn tab_unit(pairs: &[(&str, &str)], file_unit: Option<usize>) -> Option<(usize, usize, isize)> {
    let mut best: Option<((usize, bool, bool), Mapping)> = None;
    for unit in [1, 2, 3, 4, 8] {
        let mut shifts: Vec<isize> = pairs
            .iter()
            .map(|(p, f)| columns(leading(f)) as isize - tab_columns(leading(p), unit) as isize)
            .collect();
        shifts.sort_unstable();
        for v in shifts.iter().copied() {
            let c = shifts.iter().filter(|s| **s == v).count();
            let rank = (c, v == 0, file_unit == Some(unit));
            if best.is_none_or(|(b, _)| rank > b) {
                best = Some((rank, (c, unit, v)));
            }
        }
    }
    best.map(|(_, found)| found)
}

/// How a file indents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileStyle {
    /// Most indented lines start with a tab.
    pub tabs: bool,
    /// The file indents one way only (all tabs, or all spaces with this step), so lines written
    /// the other way can be converted; `None` when mixed or unknown.
    pub unit: Option<usize>,
    /// A makefile: a rule's recipe lines start with a tab, whatever the model wrote
    /// ([`FileStyle::for_path`]; make rejects a recipe indented with spaces).
    pub recipes: bool,
}

impl FileStyle {
    /// This style for the file at `path`: a makefile's recipes take tabs, unless the file
    /// names another recipe prefix.
    pub fn for_path(self, path: &str, lines: &[String]) -> FileStyle {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let makefile = matches!(name, "Makefile" | "makefile" | "GNUmakefile")
            || name.ends_with(".mk")
            || name.ends_with(".make");
        let prefix = || lines.iter().any(|l| l.contains(".RECIPEPREFIX"));
        FileStyle { recipes: makefile && !prefix(), ..self }
    }
}

/// Whether a makefile line is a rule's first line (`tool: $(OBJS)`, `%.o: %.c`): a target at
/// the margin and a colon that is not an assignment's (`:=`, `::=`), no `=` before it.
pub fn is_rule(line: &str) -> bool {
    if line.starts_with([' ', '\t', '#']) || line.trim().is_empty() {
        return false;
    }
    let Some(colon) = line.find(':') else { return false };
    let after = &line[colon..];
    !line[..colon].contains('=') && !after.starts_with(":=") && !after.starts_with("::=")
}

/// The step a run of lines (a hunk's) indents by: the most common rise in spaces from one
/// non-blank line to the next (the first line's own depth is no step: a hunk starts anywhere).
/// `None` unless the rises are all of one size, and no tabs.
pub fn step_of<'a>(lines: impl Iterator<Item = &'a str>) -> Option<usize> {
    let mut steps = [0usize; 9];
    let mut prev: Option<usize> = None;
    for l in lines.filter(|l| !l.trim().is_empty()) {
        let ws = leading(l);
        if ws.contains('\t') {
            return None;
        }
        if let Some(p) = prev
            && ws.len() > p
            && ws.len() - p <= 8
        {
            steps[ws.len() - p] += 1;
        }
        prev = Some(ws.len());
    }
    // Rises all of one size: rises of several sizes may be any structure at all.
    let rises: usize = steps.iter().sum();
    (1..=8).find(|&u| steps[u] > 0 && steps[u] == rises)
}

/// Read a file's indentation style.
pub fn file_style<'a>(lines: impl Iterator<Item = &'a str>) -> FileStyle {
    let (mut tabs, mut spaces, mut mixed) = (0usize, 0usize, 0usize);
    let mut steps = [0usize; 9];
    let mut prev = 0usize;
    for l in lines {
        if l.trim().is_empty() {
            continue;
        }
        let ws = leading(l);
        match ws.as_bytes().first() {
            Some(b'\t') => tabs += 1,
            Some(b' ') => spaces += 1,
            _ => {}
        }
        // Spaces then a tab (`"  \t"`): the file mixes, and lines cannot be converted.
        mixed += usize::from(ws.starts_with(' ') && ws.contains('\t'));
        if !ws.contains('\t') {
            let c = ws.len();
            if c > prev && c - prev <= 8 {
                steps[c - prev] += 1;
            }
            prev = c;
        }
    }
    let is_tabs = tabs > spaces;
    let unit = if is_tabs {
        (spaces == 0).then_some(1)
    } else if tabs == 0 && mixed == 0 && spaces > 0 {
        (1..=8).max_by_key(|&u| (steps[u], std::cmp::Reverse(u))).filter(|&u| steps[u] > 0)
    } else {
        None
    };
    FileStyle { tabs: is_tabs, unit, recipes: false }
}

/// A line that only closes a construct: `}`, `});`, `end`, `)`.
pub(crate) fn is_closer(line: &str) -> bool {
    let t = line.trim();
    matches!(t, "end" | "fi" | "done" | "esac" | "*/" | "-->") || bracket_closer(t)
}

/// A line of bracket closers alone: `}`, `})`, `];`.
pub(crate) fn bracket_closer(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && t.chars().all(|c| matches!(c, ')' | ']' | '}' | ';' | ','))
}

/// A listing of a file indented with tabs, retyped with spaces (a Makefile's recipes, Go code
/// shown in four spaces): its leading spaces in the file's tabs, one per step of the listing's
/// own, so that the lines it keeps are the file's and the ones it changes are indented as the
/// file indents (make wants its tab). `None` when the file does not indent with tabs, the
/// listing has a tab-led line or no step of its own, or none of its lines is a tab-led line of
/// the file retyped (nothing says it retyped the file).
pub fn retabbed(file: &[String], listing: &str) -> Option<String> {
    let style = file_style(file.iter().map(String::as_str));
    if !style.tabs || listing.lines().any(|l| l.starts_with('\t')) {
        return None;
    }
    let own = file_style(listing.lines());
    let unit = own.unit.filter(|u| matches!(u, 2 | 4 | 8) && !own.tabs)?;
    let tab_led: crate::core::hash::HashSet<&str> =
        file.iter().filter(|l| l.starts_with('\t')).map(|l| l.trim()).collect();
    let retyped = listing.lines().any(|l| l.starts_with(' ') && tab_led.contains(l.trim()));
    if !retyped {
        return None;
    }
    let mut out = String::with_capacity(listing.len());
    for line in listing.split_inclusive('\n') {
        let spaces = line.len() - line.trim_start_matches(' ').len();
        if spaces == 0 || line.trim().is_empty() {
            out.push_str(line);
            continue;
        }
        out.push_str(&"\t".repeat(spaces / unit));
        out.push_str(&" ".repeat(spaces % unit));
        out.push_str(&line[spaces..]);
    }
    Some(out)
}

#[cfg(test)]
mod tests;
