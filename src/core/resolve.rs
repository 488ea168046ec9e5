//! Resolving the paths a reply names against the project's files.
//!
//! A path is taken as written when the project has it (a Windows `a\\b` read as `a/b`, an
//! absolute path inside the project's root made relative); otherwise, in order: without a stray
//! `a/`/`b/` diff prefix; as the tail of exactly one project path (`models.py` for
//! `src/requests/models.py`); by its file name when its folders do not exist (`path/to/x.py`);
//! and by a close spelling (`file1_py`). The last two are guesses, allowed only for edits whose
//! old text must then be found in the file anyway: a delete names its file exactly, and a new
//! file or a whole-file listing is created where it is named, never over another file. Each
//! resolution records how it was made ([`PathMatch`]), so execution can ask more of a guess.
//!
//! Unsafe paths are refused before anything is read. A file named only in prose, in a reply that
//! also has diffs or SEARCH/REPLACE blocks, is an example, not an edit; so is a listing that
//! quotes a file before the reply's edit of it (it holds that edit's old text).
//!
//! Not here: reading files (the shell), or whether an edit's text is in its file (`locate`).

use crate::core::hash::HashMap;
use std::collections::BTreeSet;

use serde::Serialize;

use crate::core::edit::{Change, Edit, PathSource};
use crate::core::locate::lines::ratio;
use crate::core::parse::Event;
use crate::core::paths::{looks_like_path, normalize_relative, skeleton, unsafe_reason};

/// How a written path was matched to the project's path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PathMatch {
    /// As written (cleaned of `./`, `\\` read as `/`, made relative to the project's root).
    Exact,
    /// Without a stray `a/` or `b/` prefix of a diff header.
    DiffPrefix,
    /// As the tail of exactly one project path.
    Tail,
    /// By its file name, the folders it names not existing.
    BaseName,
    /// By a close spelling of an existing path.
    Spelling,
    /// As written but for letter case (`docs/readme.md` for `docs/README.md`): on a disk that
    /// ignores case, the same file.
    Case,
}

impl PathMatch {
    /// Whether the path was guessed: the edit's own text must then confirm the file.
    pub fn is_fallback(self) -> bool {
        matches!(
            self,
            PathMatch::Tail | PathMatch::BaseName | PathMatch::Spelling | PathMatch::Case
        )
    }
}

/// A project-relative path, and how it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub path: String,
    pub by: PathMatch,
}

impl Resolved {
    fn new(path: impl Into<String>, by: PathMatch) -> Resolved {
        Resolved { path: path.into(), by }
    }
}

/// Whether a whole-file listing only quotes the file as it is: a later edit of the same file
/// (or of a file with the same name; or any, when the listing names no existing file) finds
/// its old text in the listing. A new version of the
/// file would hold that edit's new text instead; a quote shown "to check its content" holds
/// the old one, and writing it (or creating it elsewhere) is never what the reply meant.
pub(crate) fn is_quote(edit: &Edit, path: &str, later: &[Event], project: &Project) -> bool {
    let Change::Replace { content } = &edit.change else { return false };
    let listing: Vec<&str> = content.lines().map(str::trim_end).collect();
    later.iter().any(|e| {
        let Event::Edit(next) = e else { return false };
        let Change::Modify { hunk } = &next.change else { return false };
        // A listing for a file that does not exist can only be a misnamed quote.
        let same_file = !project.files.contains(path)
            || project.resolve(next).is_ok_and(|r| r.path == path || base(&r.path) == base(path));
        let old: Vec<&str> =
            hunk.old_lines().map(str::trim_end).filter(|l| !l.is_empty()).collect();
        let changes = hunk.old_text() != hunk.new_text();
        same_file && changes && old.len() >= 2 && contains_in_order(&listing, &old)
    })
}

/// Whether `needle`'s lines appear in `hay` as one run (blank lines of `hay` skipped).
fn contains_in_order(hay: &[&str], needle: &[&str]) -> bool {
    let hay: Vec<&str> = hay.iter().copied().filter(|l| !l.is_empty()).collect();
    hay.windows(needle.len()).any(|w| w == needle)
}

/// The project's files, indexed for resolution: built once, then kept up to date file by file
/// ([`Project::insert`]), so resolving an exactly named path costs O(log n) and a new file
/// costs O(its depth), never a rebuild.
#[derive(Debug, Clone, Default)]
pub struct Project {
    files: BTreeSet<String>,
    dirs: BTreeSet<String>,
    by_name: HashMap<String, Vec<String>>,
    /// The root's absolute forms (`/`-separated, no trailing `/`): an absolute path under one
    /// of them names a project file.
    roots: Vec<String>,
}

impl Project {
    pub fn new(files: &[String]) -> Self {
        let mut project = Project::default();
        for f in files {
            project.insert(f);
        }
        project
    }

    /// Add a file (created since the index was built); a known one changes nothing.
    pub fn insert(&mut self, path: &str) {
        if !self.files.insert(path.to_string()) {
            return;
        }
        let mut d = path;
        while let Some(i) = d.rfind('/') {
            d = &d[..i];
            if !self.dirs.insert(d.to_string()) {
                break;
            }
        }
        self.by_name.entry(base(path).to_string()).or_default().push(path.to_string());
    }

    /// The project's files, in order.
    pub fn files(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(String::as_str)
    }

    /// The project's files with the same file name as `path`, in other folders.
    pub fn same_name_elsewhere(&self, path: &str) -> Vec<&str> {
        let found = self.by_name.get(base(path)).map_or(&[][..], |f| f.as_slice());
        found.iter().map(String::as_str).filter(|f| *f != path).collect()
    }

    /// The project's files whose path differs from `path` by a character or two (`loger.ts`
    /// for `logger.ts`, a Cyrillic `о` for the Latin one, a name in another Unicode
    /// normalisation) in the same place: same depth, same extension. A file the reply creates
    /// under such a path may be one of them, misspelt.
    pub fn lookalikes(&self, path: &str) -> Vec<&str> {
        let ext = |p: &str| base(p).rsplit_once('.').map(|(_, e)| e.to_string());
        let depth = |p: &str| p.matches('/').count();
        let chars: Vec<char> = path.chars().collect();
        if chars.len() < 6 {
            return Vec::new();
        }
        self.files
            .iter()
            .map(String::as_str)
            .filter(|f| *f != path && depth(f) == depth(path) && ext(f) == ext(path))
            .filter(|f| f.chars().count().abs_diff(chars.len()) <= 2)
            .filter(|f| {
                let d =
                    crate::core::locate::lines::levenshtein(&f.chars().collect::<Vec<_>>(), &chars);
                (1..=2).contains(&d)
            })
            .collect()
    }

    /// The project's file that an import of `path` without its extension would reach as well:
    /// the same folder and name, another extension of the JavaScript family (`format.js` for
    /// a new `format.ts`, `useAuth.tsx` for `useAuth.ts`). Both standing, `import "./format"`
    /// finds one of them by the bundler's order.
    pub fn module_twin(&self, path: &str) -> Option<&str> {
        const FAMILY: [&str; 8] = ["js", "jsx", "ts", "tsx", "mjs", "cjs", "mts", "cts"];
        let (stem, ext) = path.rsplit_once('.')?;
        if !FAMILY.contains(&ext) || stem.ends_with(".d") {
            return None;
        }
        FAMILY
            .iter()
            .filter(|e| **e != ext)
            .find_map(|e| self.files.get(&format!("{stem}.{e}")).map(String::as_str))
    }

    /// Whether the project has this file.
    pub fn contains(&self, path: &str) -> bool {
        self.files.contains(path)
    }

    /// The project's root as absolute paths (as given, canonical): absolute paths under it are
    /// taken as project paths; any other absolute path stays refused.
    pub fn with_roots(mut self, roots: &[String]) -> Self {
        self.roots = roots
            .iter()
            .map(|r| r.replace('\\', "/").trim_end_matches('/').to_string())
            .filter(|r| !r.is_empty())
            .collect();
        self
    }

    /// The path as written, made project-relative where it plainly is: `./` and doubled `/`
    /// dropped, a Windows `\\` read as `/` (unless the project has the name as it is), and an
    /// absolute path inside the root made relative.
    fn written(&self, path: &str) -> String {
        let mut written = normalize_relative(path);
        if written.contains('\\') && !self.files.contains(written.as_str()) {
            written = normalize_relative(&written.replace('\\', "/"));
        }
        for root in &self.roots {
            if let Some(rest) = written.strip_prefix(root.as_str())
                && let Some(rel) = rest.strip_prefix('/')
                && !rel.is_empty()
            {
                return normalize_relative(rel);
            }
        }
        written
    }

    pub fn resolve(&self, edit: &Edit) -> Result<Resolved, String> {
        let written = self.written(&edit.path);
        if self.files.contains(written.as_str()) {
            return Ok(Resolved::new(written, PathMatch::Exact));
        }
        if let Some(reason) = unsafe_reason(&written) {
            return Err(reason);
        }
        for prefix in ["a/", "b/"] {
            if let Some(rest) = written.strip_prefix(prefix)
                && self.files.contains(rest)
                && edit.path_source == PathSource::DiffHeader
            {
                return Ok(Resolved::new(rest, PathMatch::DiffPrefix));
            }
        }
        // `path/to/` is the placeholder folder of prompt examples, never a real one: a model
        // that copies it means the project path after it, exactly.
        if let Some(rest) = written.strip_prefix("path/to/")
            && !self.dirs.contains("path/to")
            && self.files.contains(rest)
        {
            return Ok(Resolved::new(rest, PathMatch::DiffPrefix));
        }
        if let Some(same) = self.other_case(&written) {
            return match edit.change {
                // An edit's old text, found there, confirms the file.
                Change::Modify { .. } => Ok(Resolved::new(same, PathMatch::Case)),
                // Creating it would clash with the file a disk that ignores case holds (a
                // listing may be a new file: `Logger.ts` beside `logger.ts`); a delete names its
                // file exactly.
                Change::Create { .. } | Change::Replace { .. } | Change::Delete { .. } => {
                    Err(format!(
                        "{written}: the project has {same}, the same name but for letter case or look-alike letters of another script (one file on a disk that ignores case, or two that read the same); write the path as it is"
                    ))
                }
            };
        }
        // A new file in a folder the project has under another letter case (`src/Components/`
        // beside `src/components/`) would make a second folder, one with it on a disk that
        // ignores case: imports of either spelling break somewhere.
        if matches!(edit.change, Change::Create { .. } | Change::Replace { .. })
            && let Some((theirs, ours)) = self.folder_in_other_case(&written)
        {
            return Err(format!(
                "{written}: the project has the folder {theirs}/, the same as {ours}/ but for letter case, look-alike letters of another script or a plural `s` (one folder on a disk that ignores case, or two that read the same); write the path as it is"
            ));
        }
        match edit.change {
            // A new file is created where it is named.
            // A listing presented as new ("### `util.py` (new)") named by a bare file name that
            // a file in a folder has: as for any listing, which one is meant is a guess.
            Change::Create { .. }
                if edit.format == crate::core::edit::Format::Whole
                    && !written.contains('/')
                    && !self.tails(&written).is_empty() =>
            {
                self.listing(edit, written)
            }
            Change::Create { .. } => Ok(Resolved::new(written, PathMatch::Exact)),
            // A delete names its file exactly: a guess could delete the wrong one.
            Change::Delete { .. } => {
                Err(format!("{written}: cannot delete, no such file in the project"))
            }
            Change::Replace { .. } => self.listing(edit, written),
            Change::Modify { .. } => self.guess(&written),
        }
    }

    /// A whole-file listing: an existing file named by its tail, or else a new file where it is
    /// named. Never by file name alone or by spelling: that would overwrite another file.
    fn listing(&self, edit: &Edit, written: String) -> Result<Resolved, String> {
        let tails = self.tails(&written);
        // A bare file name names a file at the root; the one file in a folder that it is the
        // tail of may be meant, or a new root file (`conftest.py` beside `tests/conftest.py`):
        // which one is a guess.
        if !written.contains('/') && !tails.is_empty() {
            return Err(format!(
                "{written}: no such file at the project's root, and {} has this name: write the full path (of a new file too)",
                tails.iter().take(3).copied().collect::<Vec<_>>().join(", ")
            ));
        }
        if tails.len() == 1 {
            return Ok(Resolved::new(tails[0], PathMatch::Tail));
        }
        if tails.len() > 1 {
            return Err(several(&written, &tails));
        }
        // A new folder, while a file of this name sits in a folder the path leaves out
        // (`app/login/page.tsx` for `app/(auth)/login/page.tsx`): the file that is meant, or a
        // new one beside it, is a guess.
        // (Named only in a sentence, "the updated `src/utils.py`", even in a folder it has.)
        let parent_exists = written.rfind('/').is_none_or(|i| self.dirs.contains(&written[..i]));
        let loose = !parent_exists || edit.path_source == PathSource::Prose;
        if loose && let Some(longer) = self.with_folders_between(&written) {
            return Err(format!(
                "{written}: no such file, and {longer} has this name in a folder the path leaves out: write the full path (of a new file too)"
            ));
        }
        if looks_like_path(&written) || edit.path_source != PathSource::Prose {
            Ok(Resolved::new(written, PathMatch::Exact))
        } else {
            Err(format!("{written}: not a file of the project"))
        }
    }

    /// An edit with old text to find: the file may be guessed, since that text must then be
    /// found in it.
    fn guess(&self, written: &str) -> Result<Resolved, String> {
        let tails = self.tails(written);
        if tails.len() == 1 {
            return Ok(Resolved::new(tails[0], PathMatch::Tail));
        }
        if tails.len() > 1 {
            return Err(several(written, &tails));
        }
        let parent_exists = written.rfind('/').is_none_or(|i| self.dirs.contains(&written[..i]));
        // With the same numbers: `api/v1/x.py` is not `api/v2/x.py` misplaced. And with a
        // folder in common: `tests/fixtures/settings.toml` is not `config/settings.toml` (the
        // production file, whose lines the fixture's may well share), nor is
        // `etc/nginx/shop.conf` under `deploy/`.
        if !parent_exists
            && let Some(found) = self.by_name.get(base(written))
            && found.len() == 1
            && digits(&found[0]) == digits(written)
            && shares_a_folder(&found[0], written)
        {
            return Ok(Resolved::new(found[0].as_str(), PathMatch::BaseName));
        }
        if let Some(close) = self.close_spelling(written) {
            return Ok(Resolved::new(close, PathMatch::Spelling));
        }
        Err(format!("{written}: no such file in the project"))
    }

    /// A project file named as `written` with more folders on its way: the folders `written`
    /// names all on it, in order, and the same file name (`app/(auth)/login/page.tsx` for
    /// `app/login/page.tsx`).
    fn with_folders_between(&self, written: &str) -> Option<&str> {
        let parts: Vec<&str> = written.split('/').collect();
        let (name, folders) = parts.split_last()?;
        self.by_name.get(*name)?.iter().map(String::as_str).find(|f| {
            let theirs: Vec<&str> = f.split('/').collect();
            let mut rest = theirs[..theirs.len() - 1].iter();
            theirs.len() > parts.len() && folders.iter().all(|d| rest.any(|t| t == d))
        })
    }

    /// The project paths that end with `/written`.
    fn tails(&self, written: &str) -> Vec<&str> {
        let suffix = format!("/{written}");
        self.files.iter().filter(|f| f.ends_with(&suffix)).map(String::as_str).collect()
    }

    /// The first folder on `written`'s way that the project does not have while it has one
    /// spelled the same but for letter case, look-alike letters or a plural `s`: (the
    /// project's, the path's).
    fn folder_in_other_case(&self, written: &str) -> Option<(String, String)> {
        let mut at = 0;
        while let Some(i) = written[at..].find('/') {
            let ours = &written[..at + i];
            at += i + 1;
            if self.dirs.contains(ours) {
                continue;
            }
            let key = skeleton(ours);
            let n = ours.chars().count();
            // (Or but for a plural `s`: `.github/workflow/` beside `.github/workflows/`, where
            // a file is never read.)
            let plural =
                |d: &str| d.strip_suffix('s') == Some(ours) || ours.strip_suffix('s') == Some(d);
            let theirs = self
                .dirs
                .iter()
                .find(|d| d.chars().count() == n && skeleton(d) == key || plural(d))?;
            return Some((theirs.to_string(), ours.to_string()));
        }
        None
    }

    /// The one project file whose path is `written` but for letter case or letters of another
    /// script that look the same (a Cyrillic `с` for `c`: [`skeleton`]).
    fn other_case(&self, written: &str) -> Option<&str> {
        let key = skeleton(written);
        let n = written.chars().count();
        let mut same = self.files.iter().filter(|f| f.chars().count() == n && skeleton(f) == key);
        let one = same.next()?;
        same.next().is_none().then_some(one.as_str())
    }

    /// The one project path spelled closely like `written` (at least 80% alike, clearly best),
    /// with the same numbers: `api/v1/` is not a misspelt `api/v2/`, and `2023/` not `2024/`.
    fn close_spelling(&self, written: &str) -> Option<String> {
        let numbers = digits(written);
        let mut scored: Vec<(f64, &str)> = self
            .files
            .iter()
            .filter(|f| digits(f) == numbers)
            .map(|f| {
                let full = ratio(f, written);
                let name = if written.contains('/') { 0.0 } else { ratio(base(f), written) };
                (full.max(name), f.as_str())
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        match scored.as_slice() {
            [(s, f), rest @ ..] if *s >= 0.8 && rest.first().is_none_or(|(t, _)| s - t >= 0.05) => {
                Some(f.to_string())
            }
            _ => None,
        }
    }
}

fn several(written: &str, tails: &[&str]) -> String {
    format!(
        "{written}: several project files end with this path ({}); write the full path",
        tails.iter().take(5).copied().collect::<Vec<_>>().join(", ")
    )
}

/// A path's numbers, in order: what tells versions and dates apart (`2024-1-12` is not
/// `2024-11-2`).
fn digits(path: &str) -> Vec<&str> {
    path.split(|c: char| !c.is_ascii_digit()).filter(|n| !n.is_empty()).collect()
}

/// Whether two paths name a folder in common (`lib/utils/a.ts` and `src/utils/a.ts`). A path
/// with no folder shares the root with any.
fn shares_a_folder(a: &str, b: &str) -> bool {
    let folders = |p: &str| -> Vec<String> {
        let mut parts: Vec<String> = p.split('/').map(str::to_lowercase).collect();
        parts.pop();
        parts
    };
    let (a, b) = (folders(a), folders(b));
    a.is_empty() || b.is_empty() || a.iter().any(|f| b.contains(f))
}

fn base(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::core::edit::{Format, Hunk};

    fn edit(path: &str, change: Change, source: PathSource) -> Edit {
        Edit {
            path: path.into(),
            path_source: source,
            format: Format::SearchReplace,
            change,
            reply_lines: (1, 1),
        }
    }

    fn modify() -> Change {
        Change::Modify {
            hunk: Hunk {
                lines: vec![],
                old_start_hint: None,
                marked: false,
                pick: None,
                section: None,
                other_split: None,
            },
        }
    }

    #[test]
    fn a_module_twin_is_the_same_name_in_another_extension_of_the_family() {
        let files: Vec<String> = ["src/format.js", "src/useAuth.tsx", "src/types.d.ts", "lib/a.py"]
            .map(String::from)
            .to_vec();
        let p = Project::new(&files);
        assert_eq!(p.module_twin("src/format.ts"), Some("src/format.js"));
        assert_eq!(p.module_twin("src/useAuth.ts"), Some("src/useAuth.tsx"));
        assert_eq!(p.module_twin("src/format.js"), None, "itself");
        assert_eq!(p.module_twin("lib/format.ts"), None, "another folder");
        assert_eq!(p.module_twin("lib/a.pyi"), None, "not the family");
        assert_eq!(p.module_twin("src/types.d.ts"), None);
    }

    #[test]
    fn a_listing_in_a_new_folder_that_leaves_out_a_folder_of_a_file_is_refused() {
        let files: Vec<String> = ["app/(auth)/login/page.tsx", "src/app/utils.py", "lib/x.py"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let p = Project::new(&files);
        let listing = |path: &str| {
            let change = Change::Replace { content: "x\n".into() };
            p.resolve(&edit(path, change, PathSource::PathLine)).map(|r| r.path)
        };
        let err = listing("app/login/page.tsx").unwrap_err();
        assert!(err.contains("app/(auth)/login/page.tsx"), "{err}");
        assert!(listing("src/utils.py").is_ok(), "its folder exists: a new file there");
        assert_eq!(listing("app/signup/page.tsx").unwrap(), "app/signup/page.tsx");
        assert_eq!(listing("lib/new/x.py").unwrap(), "lib/new/x.py", "a deeper new file");
    }

    #[test]
    fn a_new_file_in_a_folder_the_project_has_in_another_case_is_refused() {
        let files: Vec<String> = ["src/components/Button.tsx", "src/App.tsx", "docs/a.md"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let p = Project::new(&files);
        let create = |path: &str| {
            let change = Change::Create { content: "x\n".into() };
            p.resolve(&edit(path, change, PathSource::PathLine)).map(|r| r.path)
        };
        let err = create("src/Components/Modal.tsx").unwrap_err();
        assert!(err.contains("src/components/"), "{err}");
        assert!(create("SRC/components/Modal.tsx").unwrap_err().contains("src/"));
        assert_eq!(create("src/components/Modal.tsx").unwrap(), "src/components/Modal.tsx");
        assert_eq!(create("src/hooks/useModal.ts").unwrap(), "src/hooks/useModal.ts");
        assert_eq!(create("Docs2/b.md").unwrap(), "Docs2/b.md", "another name is another folder");
        // But for a plural `s`: `src/component/` beside `src/components/`.
        assert!(create("src/component/Modal.tsx").unwrap_err().contains("plural"));
        assert!(create("doc/b.md").unwrap_err().contains("docs/"));
        // Look-alike letters of another script: a second folder, or file, that reads the same.
        let err = create("src/\u{441}omponents/Modal.tsx").unwrap_err();
        assert!(err.contains("look-alike"), "{err}");
        assert!(create("src/\u{410}pp.tsx").unwrap_err().contains("src/App.tsx"));
        assert_eq!(
            create("docs/\u{441}\u{43f}\u{440}.md").unwrap(),
            "docs/\u{441}\u{43f}\u{440}.md"
        );
    }

    #[test]
    fn resolution_order() {
        let files: Vec<String> =
            ["src/app.py", "src/util.py", "tests/test_app.py", "README.md", "file1.py", "file2.py"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        let p = Project::new(&files);
        let r = |path: &str, change: Change| {
            p.resolve(&edit(path, change, PathSource::PathLine)).map(|r| r.path)
        };
        assert_eq!(r("./src/app.py", modify()).unwrap(), "src/app.py");
        assert_eq!(r("util.py", modify()).unwrap(), "src/util.py");
        assert_eq!(r("path/to/README.md", modify()).unwrap(), "README.md");
        assert_eq!(r("file1_py", modify()).unwrap(), "file1.py");
        assert!(r("../etc/passwd", modify()).is_err());
        assert!(r(".git/config", Change::Create { content: "x".into() }).is_err());
        assert!(r("src/nothing.py", modify()).is_err());
        assert_eq!(r("src/new.py", Change::Replace { content: "x".into() }).unwrap(), "src/new.py");
        assert_eq!(
            p.resolve(&edit("b/src/app.py", modify(), PathSource::DiffHeader)).unwrap().path,
            "src/app.py"
        );
    }

    fn files(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn only_edits_with_old_text_may_guess_a_file() {
        let files = files(&["src/util.py", "pkg/__init__.py"]);
        let p = Project::new(&files);
        let r = |path: &str, change: Change| p.resolve(&edit(path, change, PathSource::DiffHeader));
        let guessed = r("old/src/util.py", modify()).unwrap();
        assert_eq!((guessed.path.as_str(), guessed.by), ("src/util.py", PathMatch::BaseName));
        assert!(guessed.by.is_fallback());
        // Not into a folder the path has nothing in common with (a fixture's name, the
        // production file).
        assert!(r("legacy/util.py", modify()).is_err());
        assert!(r("tests/fixtures/util.py", modify()).is_err());
        assert!(r("legacy/util.py", Change::Delete { old: Some("x\n".into()) }).is_err());
        assert!(r("util.py", Change::Delete { old: None }).is_err(), "deletes are exact");
        let listing = Change::Replace { content: "x\n".into() };
        assert_eq!(r("plugins/__init__.py", listing.clone()).unwrap().path, "plugins/__init__.py");
        let create = Change::Create { content: "x\n".into() };
        assert_eq!(r("plugins/__init__.py", create).unwrap().path, "plugins/__init__.py");
        assert_eq!(r("src/util.py", listing).unwrap().by, PathMatch::Exact);
    }

    #[test]
    fn windows_and_absolute_paths() {
        let files = files(&["Repositories/IRepo.cs", "src/a.py"]);
        let roots = ["/home/me/proj/".to_string()];
        let p = Project::new(&files).with_roots(&roots);
        let r = |path: &str, change: Change| {
            p.resolve(&edit(path, change, PathSource::PathLine)).map(|r| r.path)
        };
        let listing = || Change::Replace { content: "x\n".into() };
        assert_eq!(r("Repositories\\IRepo.cs", modify()).unwrap(), "Repositories/IRepo.cs");
        assert_eq!(r("Repositories\\New.cs", listing()).unwrap(), "Repositories/New.cs");
        let create = Change::Create { content: "x\n".into() };
        assert_eq!(r(".\\Services\\New.cs", create).unwrap(), "Services/New.cs");
        assert_eq!(r("/home/me/proj/src/a.py", modify()).unwrap(), "src/a.py");
        assert_eq!(r("/home/me/proj/src/b.py", listing()).unwrap(), "src/b.py");
        assert!(r("/home/me/other/src/a.py", modify()).is_err());
        assert!(r("/home/me/proj/../x.py", listing()).is_err());
        assert!(r("/home/me/projx/a.py", listing()).is_err());
    }
}
