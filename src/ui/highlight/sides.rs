//! Colouring a hunk's two sides with syntect, the lines they share coloured once. Each side is
//! run through the parser from the hunk's first line, so the parser's state carries from line to
//! line; a context line sits on both sides, and when the new side reaches it in the very state
//! (parser and highlighter, both compared whole) the old side had there, its colours and the
//! state after it are the old side's, so the line is not parsed again. A change that opens a
//! string or a comment leaves the states apart, and those lines are parsed on each side; the
//! result is always what colouring each side afresh gives ([`Colourer::side`], which the tests
//! compare against).
//!
//! Not for: choosing the syntax or the theme, caching, caps on hunk size (`ui::highlight`).

use syntect::highlighting::{
    HighlightState, Highlighter as Styler, RangedHighlightIterator, Theme as SyntectTheme,
};
use syntect::parsing::{ParseState, ScopeStack, SyntaxReference, SyntaxSet};

use super::{HunkColors, MAX_LINE};
use crate::app::diff_model::{Block, DiffModel};
use crate::ui::diff::LineColors;

/// The parser's and the highlighter's state at a line's start.
type State = (ParseState, HighlightState);

/// The syntaxes and one theme's styler, built once per theme (the styler's selectors are
/// compiled from the theme's rules).
pub(super) struct Colourer {
    pub syntaxes: &'static SyntaxSet,
    styler: Styler<'static>,
}

/// Where the new side's state is: its own, or the old side's at the start of a line.
enum Cur {
    Own(State),
    Old(usize),
}

impl Colourer {
    pub fn new(syntaxes: &'static SyntaxSet, theme: &'static SyntectTheme) -> Colourer {
        Colourer { syntaxes, styler: Styler::new(theme) }
    }

    fn start(&self, syntax: &SyntaxReference) -> State {
        (ParseState::new(syntax), HighlightState::new(&self.styler, ScopeStack::new()))
    }

    /// One line's colours, the state moved past it. A line over [`MAX_LINE`] is left
    /// uncoloured and unparsed; a line the parser fails on is left uncoloured.
    fn line(&self, state: &mut State, line: &str) -> LineColors {
        if line.len() > MAX_LINE {
            return Vec::new();
        }
        let Ok(ops) = state.0.parse_line(line, self.syntaxes) else { return Vec::new() };
        RangedHighlightIterator::new(&mut state.1, &ops, line, &self.styler)
            .map(|(style, _, range)| {
                let f = style.foreground;
                ((f.r, f.g, f.b), range)
            })
            .collect()
    }

    /// One side coloured afresh from its first line: what [`Colourer::hunk`] must match.
    #[cfg(test)]
    pub fn side(&self, syntax: &SyntaxReference, lines: &[String]) -> Vec<LineColors> {
        let mut state = self.start(syntax);
        lines.iter().map(|l| self.line(&mut state, l)).collect()
    }

    /// Both sides' colours, and how many lines went through the parser (for the tests and the
    /// bench: without sharing it is both sides' lengths, less lines over [`MAX_LINE`]).
    pub fn hunk(&self, syntax: &SyntaxReference, model: &DiffModel) -> (HunkColors, usize) {
        let (old_lines, new_lines) = (&model.old, &model.new);
        // The old line each new line repeats, from the model's unchanged runs (text checked, so
        // a model whose blocks disagree with its lines is coloured correctly all the same).
        let mut twin: Vec<Option<usize>> = vec![None; new_lines.len()];
        let mut shared = vec![false; old_lines.len()];
        for block in &model.blocks {
            let Block::Same(pairs) = block else { continue };
            for &(o, n) in pairs {
                if o < old_lines.len() && n < new_lines.len() && old_lines[o] == new_lines[n] {
                    twin[n] = Some(o);
                    shared[o] = true;
                }
            }
        }
        // The old side, keeping the state at the start of each shared line and just after it.
        let mut at: Vec<Option<State>> = vec![None; old_lines.len() + 1];
        let mut state = self.start(syntax);
        let mut parsed = 0;
        let mut old = Vec::with_capacity(old_lines.len());
        for (i, line) in old_lines.iter().enumerate() {
            if shared[i] && at[i].is_none() {
                at[i] = Some(state.clone());
            }
            old.push(self.line(&mut state, line));
            parsed += usize::from(line.len() <= MAX_LINE);
            if shared[i] {
                at[i + 1] = Some(state.clone());
            }
        }
        // The new side, taking a shared line's colours from the old side when the states meet.
        let mut new = Vec::with_capacity(new_lines.len());
        let mut cur = Cur::Own(self.start(syntax));
        for (n, line) in new_lines.iter().enumerate() {
            if let Some(o) = twin[n] {
                let meets = match &cur {
                    Cur::Old(k) => *k == o || at[*k] == at[o],
                    Cur::Own(s) => at[o].as_ref() == Some(s),
                };
                if meets {
                    new.push(old[o].clone());
                    cur = Cur::Old(o + 1);
                    continue;
                }
            }
            if let Cur::Old(k) = cur {
                cur = Cur::Own(at[k].clone().expect("kept after each shared line"));
            }
            let Cur::Own(s) = &mut cur else { unreachable!("made own above") };
            new.push(self.line(s, line));
            parsed += usize::from(line.len() <= MAX_LINE);
        }
        (HunkColors { old, new }, parsed)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn colourer() -> Colourer {
        let theme = super::super::theme("Monokai Extended").expect("bundled theme");
        Colourer::new(super::super::syntaxes(), theme)
    }

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    /// The shared path against each side coloured afresh; the lines parsed.
    fn check(c: &Colourer, ext: &str, old: Vec<String>, new: Vec<String>) -> usize {
        let syntax = c.syntaxes.find_syntax_by_extension(ext).expect("syntax");
        let model = DiffModel::between(old, new);
        let (shared, parsed) = c.hunk(syntax, &model);
        assert_eq!(shared.old, c.side(syntax, &model.old), "old side");
        assert_eq!(shared.new, c.side(syntax, &model.new), "new side");
        parsed
    }

    #[test]
    fn context_lines_in_the_same_state_are_parsed_once() {
        let c = colourer();
        let old = lines(&["def a():", "    x = 1", "    y = 2", "    return x", "", "z = 3"]);
        let mut new = old.clone();
        new[2] = "    y = 20".into();
        // Six old lines, and of the new side only the changed line.
        assert_eq!(check(&c, "py", old, new), 7);
    }

    #[test]
    fn a_change_that_opens_a_string_colours_the_context_apart() {
        let c = colourer();
        let old = lines(&["a = 1", "b = 2", "c = f(a)", "d = 4"]);
        let mut new = old.clone();
        new[1] = "b = \"\"\"".into();
        let syntax = c.syntaxes.find_syntax_by_extension("py").unwrap();
        let model = DiffModel::between(old, new);
        let (colors, _) = c.hunk(syntax, &model);
        assert_ne!(colors.old[2], colors.new[2], "inside the string on the new side only");
        // Every line after the change is parsed again on the new side.
        assert_eq!(check(&c, "py", model.old.clone(), model.new.clone()), 4 + 3);
    }

    #[test]
    fn states_that_meet_again_share_again() {
        let c = colourer();
        let old = lines(&["let a = 1;", "let b = 2;", "let c = 3;", "let d = 4;", "let e = 5;"]);
        let mut new = old.clone();
        new[1] = "/* a comment".into();
        new.insert(2, "   closed */".into());
        // Five old lines; the new side parses the two new lines and then meets the old state.
        assert_eq!(check(&c, "js", old, new), 5 + 2);
    }

    /// Lines that open and close strings and comments in Python and JavaScript.
    const PIECES: &[&str] = &[
        "x = 1",
        "def f(a, b):",
        "    return a + b",
        "s = \"\"\"",
        "\"\"\"",
        "t = 'open",
        "# comment",
        "/* start",
        "end */",
        "let y = `tmpl",
        "`;",
        "if (a) { b(); }",
        "",
        "    \"text\"",
    ];

    fn side_strategy() -> impl Strategy<Value = Vec<String>> {
        prop::collection::vec(prop::sample::select(PIECES), 0..14)
            .prop_map(|v| v.into_iter().map(String::from).collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn sharing_colours_as_each_side_afresh(
            old in side_strategy(),
            edits in prop::collection::vec((0usize..16, prop::sample::select(PIECES), 0u8..3), 0..4),
            ext in prop::sample::select(&["py", "js"][..]),
        ) {
            let mut new = old.clone();
            for (at, piece, kind) in edits {
                let at = at.min(new.len());
                match kind {
                    0 => new.insert(at, piece.to_string()),
                    1 if at < new.len() => { new.remove(at); }
                    _ if at < new.len() => new[at] = piece.to_string(),
                    _ => new.push(piece.to_string()),
                }
            }
            check(&colourer(), ext, old, new);
        }
    }
}
