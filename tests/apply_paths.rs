//! End-to-end tests of `redline apply` on replies whose form decides which file an edit touches,
//! whether it is an edit at all, and whether it is complete: deletes and creates that must name
//! their file exactly, prose that introduces output rather than a file, diffs cut off mid-hunk,
//! aider's `<source>` fences, route-group, Windows and absolute paths, SEARCH/REPLACE slips.
//!
//! Each test checks the files on disk after the run (what was written, what was left alone)
//! and the exit status: 0 applied, 1 refused.
#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use tempfile::TempDir;

/// A scratch project in a temporary folder, and the reply file beside it.
struct Project {
    dir: TempDir,
}

impl Project {
    fn new(files: &[(&str, &str)]) -> Project {
        let dir = TempDir::new().expect("temp dir");
        let p = Project { dir };
        for (rel, text) in files {
            let path = p.root().join(rel);
            fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            fs::write(path, text).expect("write");
        }
        p
    }

    fn root(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    /// Run `redline apply --root <project> <reply>`: the exit status.
    fn apply(&self, reply: &str) -> i32 {
        fs::create_dir_all(self.root()).expect("root");
        let reply_path = self.dir.path().join("reply.md");
        fs::write(&reply_path, reply).expect("write reply");
        let out = Command::new(env!("CARGO_BIN_EXE_redline"))
            .arg("apply")
            .arg("--root")
            .arg(self.root())
            .arg(&reply_path)
            .output()
            .expect("run redline");
        out.status.code().expect("exit code")
    }

    /// [`Project::apply`] with `HOME` set to `home` and no other git configuration in reach.
    fn apply_at_home(&self, reply: &str, home: &Path) -> i32 {
        fs::create_dir_all(self.root()).expect("root");
        let reply_path = self.dir.path().join("reply.md");
        fs::write(&reply_path, reply).expect("write reply");
        let out = Command::new(env!("CARGO_BIN_EXE_redline"))
            .args(["apply", "--root"])
            .arg(self.root())
            .arg(&reply_path)
            .env("HOME", home)
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("GIT_CONFIG_GLOBAL")
            .env("GIT_CONFIG_SYSTEM", home.join("no-system-config"))
            .output()
            .expect("run redline");
        out.status.code().expect("exit code")
    }

    fn text(&self, rel: &str) -> Option<String> {
        fs::read_to_string(self.root().join(rel)).ok()
    }

    /// Every file of the project, relative, sorted.
    fn files(&self) -> Vec<String> {
        fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
            for entry in fs::read_dir(dir).expect("read_dir").flatten() {
                let path = entry.path();
                if path.is_dir() {
                    walk(&path, base, out);
                } else {
                    let rel = path.strip_prefix(base).expect("under base");
                    out.push(rel.to_string_lossy().into_owned());
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.root(), &self.root(), &mut out);
        out.sort();
        out
    }
}

const UTIL: &str = "def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n";

#[test]
fn a_delete_of_a_missing_file_never_deletes_its_namesake() {
    let p = Project::new(&[("src/util.py", UTIL)]);
    let reply = format!(
        "The legacy helper is unused:\n\n```diff\n--- a/legacy/util.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n{}```\n",
        UTIL.lines().map(|l| format!("-{l}\n")).collect::<String>()
    );
    assert_eq!(p.apply(&reply), 1);
    assert_eq!(p.text("src/util.py").as_deref(), Some(UTIL));
}

#[test]
fn a_delete_must_show_the_files_content() {
    let p = Project::new(&[("old.py", UTIL)]);
    let wrong =
        "```diff\n--- a/old.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-def other():\n-    pass\n```\n";
    assert_eq!(p.apply(wrong), 1);
    assert_eq!(p.text("old.py").as_deref(), Some(UTIL));
    let bare = "Remove it:\n\n```diff\n--- a/old.py\n+++ /dev/null\n```\n";
    assert_eq!(p.apply(bare), 1);
    assert_eq!(p.text("old.py").as_deref(), Some(UTIL));
    // Trailing spaces and CRLF aside, the right lines delete it.
    let right = "```diff\n--- a/old.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-def clamp(x, lo, hi):  \r\n-    return max(lo, min(x, hi))\n```\n";
    assert_eq!(p.apply(right), 0);
    assert_eq!(p.text("old.py"), None);
}

#[test]
fn a_new_init_file_is_created_where_it_is_named() {
    let p = Project::new(&[("pkg/__init__.py", "from .core import run\n")]);
    let reply = "plugins/__init__.py\n```python\n\"\"\"Plugins.\"\"\"\n```\n";
    assert_eq!(p.apply(reply), 0);
    assert_eq!(p.text("pkg/__init__.py").as_deref(), Some("from .core import run\n"));
    assert_eq!(p.text("plugins/__init__.py").as_deref(), Some("\"\"\"Plugins.\"\"\"\n"));
}

#[test]
fn program_output_after_a_mention_is_not_a_file() {
    let main = "def main():\n    print('Hello')\n\n\nif __name__ == '__main__':\n    main()\n";
    let p = Project::new(&[("main.py", main)]);
    let reply =
        "Nothing needs to change. When you run `main.py` you will see:\n\n```\nHello\n```\n";
    assert_eq!(p.apply(reply), 1, "no edit in the reply");
    assert_eq!(p.text("main.py").as_deref(), Some(main));
    let snippet = "Change `main.py` like this:\n\n```python\n    print('Hi')\n```\n";
    assert_eq!(p.apply(snippet), 1);
    assert_eq!(p.text("main.py").as_deref(), Some(main));
}

#[test]
fn a_quote_of_the_file_before_the_edit_is_not_written() {
    let p = Project::new(&[("app/views.py", UTIL)]);
    let reply = format!(
        "Let me check its content first:\n\napp/view.py\n```python\n{UTIL}```\n\nNow the fix:\n\napp/views.py\n```python\n<<<<<<< SEARCH\n{UTIL}=======\ndef clamp(x, lo, hi):\n    return min(max(x, lo), hi)\n>>>>>>> REPLACE\n```\n"
    );
    assert_eq!(p.apply(&reply), 0);
    assert_eq!(p.files(), ["app/views.py"]);
    assert!(p.text("app/views.py").expect("kept").contains("min(max(x, lo), hi)"));
}

#[test]
fn an_unfenced_diff_cut_off_mid_hunk_is_refused() {
    let text = "a = 1\nb = 2\nc = 3\nd = 4\n";
    let p = Project::new(&[("x.py", text)]);
    let reply = "Here is the diff:\n\n--- a/x.py\n+++ b/x.py\n@@ -1,4 +1,4 @@\n a = 1\n-b = 2\n";
    assert_eq!(p.apply(reply), 1);
    assert_eq!(p.text("x.py").as_deref(), Some(text));
    let complete =
        "--- a/x.py\n+++ b/x.py\n@@ -1,4 +1,4 @@\n a = 1\n-b = 2\n+b = 20\n c = 3\n d = 4\n";
    assert_eq!(p.apply(complete), 0);
    assert_eq!(p.text("x.py").as_deref(), Some("a = 1\nb = 20\nc = 3\nd = 4\n"));
}

#[test]
fn aider_source_fences_apply() {
    let p = Project::new(&[("src/app.py", "x = 1\n")]);
    let reply = "src/app.py\n<source python>\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n</source>\n";
    assert_eq!(p.apply(reply), 0);
    assert_eq!(p.text("src/app.py").as_deref(), Some("x = 2\n"));
    // As aider's prompt writes its fence: the language right after the tag.
    let reply = "src/app.py\n<source>python\n<<<<<<< SEARCH\nx = 2\n=======\nx = 3\n>>>>>>> REPLACE\n</source>\n";
    assert_eq!(p.apply(reply), 0);
    assert_eq!(p.text("src/app.py").as_deref(), Some("x = 3\n"));
}

#[test]
fn route_group_paths_are_edited() {
    let page = "export default function Page() {\n  return null;\n}\n";
    let p = Project::new(&[
        ("app/[locale]/page.tsx", page),
        ("src/routes/(auth)/login.svelte", "<p>in</p>\n"),
    ]);
    let reply = "app/[locale]/page.tsx\n```tsx\n<<<<<<< SEARCH\n  return null;\n=======\n  return <main />;\n>>>>>>> REPLACE\n```\n\nsrc/routes/(auth)/login.svelte\n```svelte\n<<<<<<< SEARCH\n<p>in</p>\n=======\n<p>Log in</p>\n>>>>>>> REPLACE\n```\n";
    assert_eq!(p.apply(reply), 0);
    assert!(p.text("app/[locale]/page.tsx").expect("page").contains("<main />"));
    assert_eq!(p.text("src/routes/(auth)/login.svelte").as_deref(), Some("<p>Log in</p>\n"));
    // A new file in a route group is named by a path line the project cannot know yet.
    let layout = "app/[locale]/layout.tsx\n```tsx\nexport default function Layout() {}\n```\n";
    assert_eq!(p.apply(layout), 0);
    assert!(p.text("app/[locale]/layout.tsx").is_some());
}

#[test]
fn windows_paths_never_make_backslash_names() {
    let p = Project::new(&[(
        "Repositories/IProductRepository.cs",
        "interface IProductRepository {}\n",
    )]);
    let reply = "Repositories\\ProductRepository.cs\n```csharp\nclass ProductRepository : IProductRepository {}\n```\n\nServices\\Cart.cs\n```csharp\n<<<<<<< SEARCH\n=======\nclass Cart {}\n>>>>>>> REPLACE\n```\n";
    assert_eq!(p.apply(reply), 0);
    assert_eq!(
        p.files(),
        [
            "Repositories/IProductRepository.cs",
            "Repositories/ProductRepository.cs",
            "Services/Cart.cs"
        ]
    );
}

#[test]
fn absolute_paths_inside_the_root_are_project_paths() {
    let p = Project::new(&[("src/a.py", "x = 1\n")]);
    let root = fs::canonicalize(p.root()).expect("canonical root");
    let reply = format!(
        "{}/src/a.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n",
        root.display()
    );
    assert_eq!(p.apply(&reply), 0);
    assert_eq!(p.text("src/a.py").as_deref(), Some("x = 2\n"));
}

#[test]
fn a_doubled_divider_and_a_bom_are_not_written() {
    let p = Project::new(&[("a.py", "\u{feff}x = 1\ny = 2\n")]);
    let reply = "a.py\n```python\n<<<<<<< SEARCH\n\u{feff}x = 1\n=======\n\u{feff}x = 3\n=======\n>>>>>>> REPLACE\n```\n";
    assert_eq!(p.apply(reply), 0);
    assert_eq!(p.text("a.py").as_deref(), Some("\u{feff}x = 3\ny = 2\n"));
}

/// The user's global gitignore (`core.excludesFile`, or `~/.config/git/ignore`) hides files from
/// the project's listing as git would: a path written by its base name alone is not led to a
/// file it ignores. Checked through that fallback, the one place the listing decides.
#[test]
fn the_global_gitignore_is_honoured() {
    let reply = "helpers.py\n```python\n<<<<<<< SEARCH\n    return max(lo, min(x, hi))\n=======\n    return min(hi, max(x, lo))\n>>>>>>> REPLACE\n```\n";
    let homes = TempDir::new().expect("homes");
    let named = homes.path().join("named");
    fs::create_dir_all(&named).expect("mkdir");
    fs::write(
        named.join(".gitconfig"),
        "[user]\n\tname = x\n[core]\n\texcludesFile = ~/global-ignore\n",
    )
    .expect("config");
    fs::write(named.join("global-ignore"), "vendor/\n").expect("ignore");
    let default = homes.path().join("default");
    fs::create_dir_all(default.join(".config/git")).expect("mkdir");
    fs::write(default.join(".config/git/ignore"), "vendor/\n").expect("ignore");
    for home in [&named, &default] {
        let p = Project::new(&[("vendor/helpers.py", UTIL)]);
        assert_eq!(p.apply_at_home(reply, home), 1, "{}", home.display());
        assert_eq!(p.text("vendor/helpers.py").as_deref(), Some(UTIL));
    }
    let bare = homes.path().join("bare");
    fs::create_dir_all(&bare).expect("mkdir");
    let p = Project::new(&[("vendor/helpers.py", UTIL)]);
    assert_eq!(p.apply_at_home(reply, &bare), 0);
    assert!(p.text("vendor/helpers.py").expect("file").contains("min(hi, max(x, lo))"));
}

/// "Here is the corrected edit, use this one instead": a later SEARCH/REPLACE block that looks
/// for the same text with other new text is the model's correction. It alone is written; the
/// first is refused with the reason (exit 1), never applied under it (its lines twice).
#[test]
fn a_corrected_block_replaces_the_first_one() {
    let load = "import json\n\n\ndef load(path):\n    with open(path) as f:\n        return json.load(f)\n";
    let p = Project::new(&[("cfg.py", load)]);
    let block = |new: &str| {
        format!(
            "cfg.py\n```python\n<<<<<<< SEARCH\ndef load(path):\n    with open(path) as f:\n=======\ndef load(path):\n{new}>>>>>>> REPLACE\n```\n"
        )
    };
    let first = block("    if not path:\n        return {}\n    with open(path) as f:\n");
    let second = block(
        "    if not path:\n        return {}\n    with open(path, encoding=\"utf-8\") as f:\n",
    );
    let reply = format!(
        "Skip a missing path:\n\n{first}\nAlso read it as UTF-8; use this one instead:\n\n{second}"
    );
    assert_eq!(p.apply(&reply), 1);
    let want = "import json\n\n\ndef load(path):\n    if not path:\n        return {}\n    with open(path, encoding=\"utf-8\") as f:\n        return json.load(f)\n";
    assert_eq!(p.text("cfg.py").as_deref(), Some(want));
    // The same block sent twice is one edit, made once.
    let p = Project::new(&[("cfg.py", load)]);
    assert_eq!(p.apply(&format!("{first}\n{first}")), 0);
    assert_eq!(p.text("cfg.py").expect("file").matches("if not path").count(), 1);
    // Two blocks at one short anchor adding other lines each are two edits, not a correction.
    let p = Project::new(&[("cfg.py", load)]);
    let at_import = |new: &str| {
        format!(
            "cfg.py\n```python\n<<<<<<< SEARCH\nimport json\n=======\nimport json\n{new}\n>>>>>>> REPLACE\n```\n"
        )
    };
    let reply = format!("{}\n{}", at_import("import os"), at_import("import sys"));
    assert_eq!(p.apply(&reply), 0);
    let text = p.text("cfg.py").expect("file");
    assert!(text.contains("import os\n") && text.contains("import sys\n"), "{text}");
    // A later block adding other lines, which the prose says replaces the first ("scratch
    // that ... instead"): the correction alone is written.
    let p = Project::new(&[("cfg.py", load)]);
    let logged = block("    log.info(\"loading %s\", path)\n    with open(path) as f:\n");
    let reply = format!(
        "Guard it:\n\n{first}\nScratch that: a missing path is an error upstream. Log the load instead:\n\n{logged}"
    );
    assert_eq!(p.apply(&reply), 1);
    let text = p.text("cfg.py").expect("file");
    assert!(text.contains("log.info") && !text.contains("if not path"), "{text}");
}

/// A listing named only in prose among SEARCH/REPLACE blocks is a quote, an example or output,
/// not an edit: one that quotes the file (as it was, or as it stands after the blocks) writes
/// nothing; one with lines the file lacks ("Here is the updated `app/log.py`:", a test to add)
/// is refused with the reason, never dropped without a word and never written over the file;
/// one for a file the project lacks ("Sample output (`out.csv`):") is refused, not created.
#[test]
fn a_prose_listing_among_blocks_is_a_quote_or_refused() {
    let app = "from .routes import register\n\n\ndef create():\n    register()\n";
    let log = "import logging\n\n\ndef setup():\n    logging.basicConfig()\n";
    let block = "app/__init__.py\n```python\n<<<<<<< SEARCH\n    register()\n=======\n    setup()\n    register()\n>>>>>>> REPLACE\n```\n";
    let updated = "import logging\nimport sys\n\n\ndef setup():\n    logging.basicConfig(stream=sys.stdout)\n";
    let after = "from .routes import register\n\n\ndef create():\n    setup()\n    register()\n";
    let p = Project::new(&[("app/__init__.py", app), ("app/log.py", log)]);
    let reply = format!("{block}\nHere is the updated `app/log.py`:\n\n```python\n{updated}```\n");
    assert_eq!(p.apply(&reply), 1);
    assert_eq!(p.text("app/log.py").as_deref(), Some(log));
    assert_eq!(p.text("app/__init__.py").as_deref(), Some(after));
    for quoted in [app, after] {
        let p = Project::new(&[("app/__init__.py", app), ("app/log.py", log)]);
        let reply =
            format!("{block}\nFor reference, `app/__init__.py`:\n\n```python\n{quoted}```\n");
        assert_eq!(p.apply(&reply), 0, "{quoted}");
        assert_eq!(p.text("app/__init__.py").as_deref(), Some(after));
    }
    // A snippet (a test to add, an example) is refused too: passed over, a test meant to be
    // added would be lost without a word.
    let p = Project::new(&[("app/__init__.py", app), ("app/log.py", log)]);
    let reply = format!(
        "{block}\nAnd a check for it, `app/log.py`:\n\n```python\ndef check():\n    assert setup() is None\n```\n"
    );
    assert_eq!(p.apply(&reply), 1);
    assert_eq!(p.text("app/log.py").as_deref(), Some(log));
    let p = Project::new(&[("app/__init__.py", app)]);
    let reply = format!("{block}\nSample output (`out.csv`):\n\n```csv\nname,count\nx,1\n```\n");
    assert_eq!(p.apply(&reply), 1);
    assert_eq!(p.files(), ["app/__init__.py"]);
}

/// A path from a home folder (`~/.bashrc`) names a file outside the project: refused, never
/// created as a folder named `~` inside it.
#[test]
fn home_folder_paths_are_outside_the_project() {
    let p = Project::new(&[("a.py", "x = 1\n")]);
    let reply = "Add this to your shell:\n\n~/.bashrc\n```bash\nexport PATH=$HOME/bin:$PATH\n```\n";
    assert_eq!(p.apply(reply), 1);
    assert_eq!(p.files(), ["a.py"]);
}

#[test]
fn a_listing_for_a_misspelt_path_never_forks_the_file() {
    const LOGGER: &str = "export function log(msg: string): void {\n  console.log(`[app] ${msg}`);\n}\n\nexport function warn(msg: string): void {\n  console.warn(`[app] ${msg}`);\n}\n";
    let listing = |path: &str| {
        format!(
            "Here is the updated `{path}`:\n\n```ts\nexport function log(msg: string): void {{\n  console.log(`[app] ${{new Date().toISOString()}} ${{msg}}`);\n}}\n\nexport function warn(msg: string): void {{\n  console.warn(`[app] ${{msg}}`);\n}}\n```\n"
        )
    };
    // A letter dropped, a Cyrillic `о` for the Latin one, another Unicode normalisation.
    for path in ["src/loger.ts", "src/l\u{43e}gger.ts", "src/logge\u{301}r.ts"] {
        let p = Project::new(&[("src/logger.ts", LOGGER)]);
        assert_eq!(p.apply(&listing(path)), 1, "{path}");
        assert_eq!(p.text(path), None, "{path} created");
        assert_eq!(p.text("src/logger.ts").as_deref(), Some(LOGGER));
    }
    // A new file named like another but holding other lines is made.
    let p = Project::new(&[("src/logger.ts", LOGGER)]);
    let new = "Add `src/loggers.ts`:\n\n```ts\nexport const LOGGERS = [\"console\", \"file\"] as const;\n```\n";
    assert_eq!(p.apply(new), 0);
    assert!(p.text("src/loggers.ts").is_some());
}
