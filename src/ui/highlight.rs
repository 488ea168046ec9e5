//! Syntax colour for the diff view. A hunk's whole old side and whole new side are highlighted
//! at once (so the parser's state carries from line to line, as in codex's diff renderer; the
//! lines both sides share are parsed once where the states agree, `sides`), once per hunk and
//! file state, and cached; only the selected hunk is highlighted, just before a
//! frame is drawn, so the work per frame is bounded by one hunk. Caps keep a pathological hunk
//! from stalling input: lines over [`MAX_LINE`] characters get no colour, and hunks over
//! [`MAX_LINES`] lines get none at all.
//!
//! The review screen highlights on a thread of its own ([`Background`]), so even the largest hunk
//! never holds up a key: the screen draws without syntax colour until the colours arrive.
//!
//! Not for: diff colour (that is `ui::diff`, a separate layer merged at paint time), or deciding
//! when to highlight (the runtime asks for the selected hunk).

use std::collections::HashMap;
use std::sync::OnceLock;

use syntect::highlighting::Theme as SyntectTheme;
use syntect::parsing::SyntaxSet;

use crate::app::diff_model::DiffModel;
use crate::core::review::HunkId;
use crate::ui::diff::LineColors;

mod sides;

#[cfg(not(any(feature = "onig", feature = "fancy")))]
compile_error!("syntax colour needs a regex engine: the `onig` feature (default) or `fancy`");

use sides::Colourer;

/// Lines longer than this are left uncoloured.
pub const MAX_LINE: usize = 1_000;
/// Hunks with more lines than this (both sides together) are left uncoloured.
pub const MAX_LINES: usize = 2_000;

/// A hunk's colour, side by side with its [`DiffModel`].
#[derive(Debug, Clone, Default)]
pub struct HunkColors {
    pub old: Vec<LineColors>,
    pub new: Vec<LineColors>,
}

/// bat's syntaxes, loaded once per process (deserialising them is the costly part of starting a
/// highlighter, and their regexes compile lazily into the set, so every highlighter after the
/// first finds them compiled).
fn syntaxes() -> &'static SyntaxSet {
    static SYNTAXES: OnceLock<SyntaxSet> = OnceLock::new();
    SYNTAXES.get_or_init(two_face::syntax::extra_no_newlines)
}

/// bat's theme of this name (any letter case), each loaded once per process.
fn theme(name: &str) -> Option<&'static SyntectTheme> {
    static THEMES: OnceLock<two_face::theme::EmbeddedLazyThemeSet> = OnceLock::new();
    let themes = THEMES.get_or_init(two_face::theme::extra);
    two_face::theme::EmbeddedLazyThemeSet::theme_names()
        .iter()
        .find(|n| n.as_name().eq_ignore_ascii_case(name))
        .map(|n| themes.get(*n))
}

/// The syntaxes and theme (`None`: no syntax colour) and the per-hunk cache.
pub struct Highlighter {
    colour: Option<Colourer>,
    cache: HashMap<(HunkId, u64), HunkColors>,
    parsed: u64,
}

impl Highlighter {
    /// A highlighter with bat's syntaxes and the named theme (no syntax colour when the name is
    /// empty or not a theme).
    pub fn new(theme_name: &str) -> Highlighter {
        if theme_name.is_empty() {
            return Highlighter::off();
        }
        let colour = theme(theme_name).map(|t| Colourer::new(syntaxes(), t));
        Highlighter { colour, cache: HashMap::new(), parsed: 0 }
    }

    /// Whether bat's themes hold one of this name (any letter case).
    pub fn knows_theme(name: &str) -> bool {
        two_face::theme::EmbeddedLazyThemeSet::theme_names()
            .iter()
            .any(|n| n.as_name().eq_ignore_ascii_case(name))
    }

    /// The names of bat's themes, for error messages.
    pub fn theme_names() -> Vec<&'static str> {
        two_face::theme::EmbeddedLazyThemeSet::theme_names().iter().map(|n| n.as_name()).collect()
    }

    /// No syntax colour (plain themes, tests).
    pub fn off() -> Highlighter {
        Highlighter { colour: None, cache: HashMap::new(), parsed: 0 }
    }

    /// The cache key of a hunk's model.
    pub fn key(id: HunkId, model: &DiffModel) -> (HunkId, u64) {
        (id, model_key(model))
    }

    /// Store colours computed elsewhere (by the [`Background`] worker).
    pub fn insert(&mut self, key: (HunkId, u64), colors: HunkColors) {
        if self.cache.len() > 4_096 {
            self.cache.clear();
        }
        self.cache.insert(key, colors);
    }

    /// The cached colour of a hunk's model, if it was prepared.
    pub fn get(&self, id: HunkId, model: &DiffModel) -> Option<&HunkColors> {
        self.cache.get(&(id, model_key(model)))
    }

    /// Lines run through the parser so far (the bench reports it per diff line: lines both
    /// sides share in the same state are parsed once).
    pub fn lines_parsed(&self) -> u64 {
        self.parsed
    }

    /// Highlight a hunk's model now unless it is cached (or over the caps).
    pub fn prepare(&mut self, id: HunkId, path: &str, model: &DiffModel) {
        let Some(colour) = &self.colour else { return };
        let key = (id, model_key(model));
        if self.cache.contains_key(&key) {
            return;
        }
        let colors = if model.old.len() + model.new.len() > MAX_LINES {
            HunkColors::default()
        } else {
            let ss = colour.syntaxes;
            let ext = path.rsplit('.').next().unwrap_or("");
            let name = path.rsplit('/').next().unwrap_or(path);
            let syntax = ss
                .find_syntax_by_extension(ext)
                .or_else(|| ss.find_syntax_by_extension(name))
                .unwrap_or_else(|| ss.find_syntax_plain_text());
            let (colors, parsed) = colour.hunk(syntax, model);
            self.parsed += parsed as u64;
            colors
        };
        self.insert(key, colors);
    }
}

/// A hunk to colour: its id, its file's path, its model.
type Job = (HunkId, String, DiffModel);

/// The next hunk to colour: the one asked for last. Scrolling fast asks for every hunk passed
/// over; the one the user stopped on comes first, the others after it. `None` once the asking
/// side is gone and nothing waits.
fn newest(waiting: &mut Vec<Job>, rx: &std::sync::mpsc::Receiver<Job>) -> Option<Job> {
    if waiting.is_empty() {
        waiting.push(rx.recv().ok()?);
    }
    waiting.extend(rx.try_iter());
    waiting.pop()
}

/// A highlighter on its own thread: asked for a hunk's colours, it hands them to `done` when
/// ready, the last asked for first. Each hunk model is asked for once.
pub struct Background {
    jobs: std::sync::mpsc::Sender<Job>,
    asked: std::collections::HashSet<(HunkId, u64)>,
}

impl Background {
    /// Start the worker with the named syntax theme (loading the syntaxes there, too).
    pub fn spawn(
        theme_name: String,
        done: impl Fn((HunkId, u64), HunkColors) + Send + 'static,
    ) -> Background {
        let (jobs, rx) = std::sync::mpsc::channel::<Job>();
        std::thread::spawn(move || {
            let mut h = Highlighter::new(&theme_name);
            let mut waiting = Vec::new();
            while let Some((id, path, model)) = newest(&mut waiting, &rx) {
                h.prepare(id, &path, &model);
                if let Some(colors) = h.get(id, &model) {
                    done(Highlighter::key(id, &model), colors.clone());
                }
            }
        });
        Background { jobs, asked: std::collections::HashSet::new() }
    }

    /// Ask for a hunk's colours unless they were asked for already.
    pub fn request(&mut self, id: HunkId, path: &str, model: &DiffModel) {
        if self.asked.insert(Highlighter::key(id, model)) {
            let _ = self.jobs.send((id, path.to_string(), model.clone()));
        }
    }
}

/// The hash of the model's lines, taken once when it was built.
fn model_key(model: &DiffModel) -> u64 {
    model.key
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(old: Vec<String>, new: Vec<String>) -> DiffModel {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (&old, &new).hash(&mut h);
        let (old_plain, new_plain) = (vec![false; old.len()], vec![false; new.len()]);
        let key = h.finish();
        DiffModel { old, new, blocks: Vec::new(), first_line: Some(1), key, old_plain, new_plain }
    }

    #[test]
    fn highlights_whole_sides_and_caches_them() {
        let mut h = Highlighter::new("Monokai Extended");
        let m = model(vec!["def a():".into(), "    return 1".into()], vec!["x = 2".into()]);
        h.prepare(7, "app.py", &m);
        let c = h.get(7, &m).expect("cached");
        assert_eq!(c.old.len(), 2);
        assert!(c.old[0].len() > 1, "keywords and names get their own colours");
    }

    #[test]
    fn the_bundled_themes_name_known_syntax_themes() {
        for name in ["dark", "light"] {
            let theme =
                crate::ui::theme::Theme::load(name, None, crate::ui::theme::ColorMode::TrueColor)
                    .unwrap();
            assert!(Highlighter::knows_theme(&theme.syntax_theme), "{}", theme.syntax_theme);
        }
        assert!(!Highlighter::knows_theme("No Such Theme"));
    }

    #[test]
    fn the_background_worker_hands_colours_back() {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut bg = Background::spawn("Monokai Extended".into(), move |k, c| {
            let _ = tx.send((k, c));
        });
        let m = model(vec!["def a():".into()], vec!["x = 2".into()]);
        bg.request(9, "app.py", &m);
        bg.request(9, "app.py", &m);
        let (key, colors) = rx.recv_timeout(std::time::Duration::from_secs(30)).expect("colours");
        assert_eq!(key, Highlighter::key(9, &m));
        assert_eq!(colors.new.len(), 1);
        assert!(rx.recv_timeout(std::time::Duration::from_millis(200)).is_err(), "asked once");
    }

    /// The worker colours the hunk asked for last first (the one scrolled to), then the others.
    #[test]
    fn the_hunk_asked_for_last_is_coloured_first() {
        let (tx, rx) = std::sync::mpsc::channel();
        let job = |id: HunkId| (id, "a.py".to_string(), model(vec![], vec![format!("x = {id}")]));
        for id in [1, 2, 3] {
            tx.send(job(id)).unwrap();
        }
        let mut waiting = Vec::new();
        let first = newest(&mut waiting, &rx).unwrap().0;
        tx.send(job(4)).unwrap();
        let rest: Vec<HunkId> = std::iter::from_fn(|| {
            (!waiting.is_empty()).then(|| newest(&mut waiting, &rx).unwrap().0)
        })
        .collect();
        assert_eq!((first, rest), (3, vec![4, 2, 1]));
        drop(tx);
        assert!(newest(&mut waiting, &rx).is_none(), "the worker ends with its asker");
    }

    #[test]
    fn a_five_kilobyte_line_is_skipped_unparsed() {
        let mut h = Highlighter::new("Monokai Extended");
        let m = model(vec!["x".repeat(5_000)], vec!["y".repeat(5_000)]);
        h.prepare(1, "big.js", &m);
        assert_eq!(h.lines_parsed(), 0, "counted, not timed");
        assert!(h.get(1, &m).unwrap().old[0].is_empty());
    }
}
