//! The layering of `src/`, checked by reading the `crate::…` paths of every source file (test
//! code excluded: `*tests.rs` files and everything after a `#[cfg(test)]` line).
//!
//! - A top-level part imports only the parts [`MAY_IMPORT`] lists for it (the module graph drawn
//!   in ARCHITECTURE.md): nothing imports upward.
//! - Inside a part, its modules import each other without circles.
//! - The CLI's subcommands never import each other: only `cli::common`.
//!
//! Known upward imports still to remove are listed, file by file, in [`KNOWN_UPWARD`]; the test
//! fails when a new one appears and when a listed one is gone (so the list only shrinks).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What each top-level part may import (besides itself). The event loop is `shell::runtime`.
const MAY_IMPORT: &[(&str, &[&str])] = &[
    ("core", &[]),
    ("provider", &["core"]),
    ("app", &["core", "provider"]),
    ("ui", &["core", "app"]),
    ("shell", &["core", "provider", "app", "ui"]),
    ("cli", &["core", "provider", "app", "ui", "shell"]),
];

/// Upward imports not yet removed: (file, the module it imports). None are left: the app
/// measures what the panes hold itself (`app::layout`, `app::measure`, `app::wrap`).
const KNOWN_UPWARD: &[(&str, &str)] = &[];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a source file: `src/core/execute/prepared.rs` is `core::execute::prepared`,
/// `src/cli/mod.rs` is `cli`.
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix("src").expect("under src/");
    let mut parts: Vec<String> =
        rel.iter().map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string()).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// Every `crate::a::b` path in the file's non-test code, as its first two names (`a`, `b`).
fn imports(text: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name = |n: &str| -> String {
                n.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect()
            };
            let first = name(rest);
            let after = rest[first.len()..].strip_prefix("::").unwrap_or("");
            if first.is_empty() {
                continue;
            }
            // `crate::ui::{diff_view, reply}`: each name in the braces.
            let seconds: Vec<String> = match after.strip_prefix('{') {
                Some(group) => group.split('}').next().unwrap_or("").split(',').map(name).collect(),
                None => vec![name(after)],
            };
            for second in seconds {
                out.push((first.clone(), Some(second).filter(|n| !n.is_empty())));
            }
        }
    }
    out
}

struct Source {
    file: String,
    module: Vec<String>,
    imports: Vec<(String, Option<String>)>,
}

fn sources() -> Vec<Source> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::env::set_current_dir(root).expect("the crate's folder");
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    files.sort();
    files
        .into_iter()
        .filter(|f| !f.to_string_lossy().ends_with("tests.rs"))
        .filter_map(|f| {
            let module = module_of(&f);
            // lib.rs and main.rs name every part.
            if module.len() == 1 && (module[0] == "lib" || module[0] == "main") {
                return None;
            }
            let text = std::fs::read_to_string(&f).expect("readable");
            Some(Source { file: f.to_string_lossy().into_owned(), module, imports: imports(&text) })
        })
        .collect()
}

#[test]
fn no_part_imports_upward() {
    let allowed: BTreeMap<&str, &[&str]> = MAY_IMPORT.iter().copied().collect();
    let mut upward = BTreeSet::new();
    for s in sources() {
        let part = s.module[0].as_str();
        let may = allowed.get(part).unwrap_or_else(|| panic!("{}: a part the table lacks", s.file));
        for (to, sub) in &s.imports {
            if to == part || may.contains(&to.as_str()) {
                continue;
            }
            let target = format!("{to}::{}", sub.as_deref().unwrap_or(""));
            upward.insert((s.file.clone(), target));
        }
    }
    let known: BTreeSet<(String, String)> =
        KNOWN_UPWARD.iter().map(|(f, m)| (f.to_string(), m.to_string())).collect();
    let new: Vec<_> = upward.difference(&known).collect();
    let gone: Vec<_> = known.difference(&upward).collect();
    assert!(new.is_empty(), "upward imports (see MAY_IMPORT): {new:?}");
    assert!(gone.is_empty(), "no longer imported: take these out of KNOWN_UPWARD: {gone:?}");
}

/// The modules of `part` (`core::plan`, ...) that each of its modules imports.
fn graph(part: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for s in sources().into_iter().filter(|s| s.module[0] == part && s.module.len() > 1) {
        let from = s.module[1].clone();
        let targets = edges.entry(from.clone()).or_default();
        for (to, sub) in s.imports {
            if let Some(sub) = sub.filter(|sub| to == part && *sub != from) {
                targets.insert(sub);
            }
        }
    }
    edges
}

/// A circle through the graph, if there is one.
fn circle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut found = path[at..].to_vec();
            found.push(node.to_string());
            return Some(found);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, edges, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges.keys().find_map(|n| visit(n, edges, &mut Vec::new(), &mut done))
}

#[test]
fn no_circles_inside_a_part() {
    for part in ["core", "app", "ui", "provider", "shell", "cli"] {
        if let Some(found) = circle(&graph(part)) {
            panic!("a circle in {part}: {}", found.join(" -> "));
        }
    }
}

#[test]
fn subcommands_never_import_each_other() {
    for (command, targets) in graph("cli") {
        let others: Vec<&String> = targets.iter().filter(|t| *t != "common").collect();
        assert!(others.is_empty(), "cli::{command} imports {others:?}: shared things go in common");
    }
}

#[test]
fn the_checker_sees_circles_and_paths() {
    let edges: BTreeMap<String, BTreeSet<String>> =
        [("a".to_string(), ["b".to_string()].into()), ("b".to_string(), ["a".to_string()].into())]
            .into();
    assert_eq!(circle(&edges).map(|c| c.len()), Some(3));
    let text = "use crate::core::plan::{Plan};\n// crate::ui::x\nuse crate::ui::{a, b::C};\nlet x = crate::app::App::new();\n#[cfg(test)]\nuse crate::cli::y;\n";
    let found: Vec<String> =
        imports(text).into_iter().map(|(a, b)| format!("{a}::{}", b.unwrap_or_default())).collect();
    assert_eq!(found, ["core::plan", "ui::a", "ui::b", "app::App"]);
}
