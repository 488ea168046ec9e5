//! Finding the user's prompt overrides: `<config dir>/prompts/<name>.md` (on Linux
//! `~/.config/redline/prompts/udiff.md` and so on) replaces the bundled prompt of that name.
//!
//! Only reading happens here; what the texts say and how they are assembled is `core::prompt`.
//! Not for: writing or creating the folder, or validating what a user wrote.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use directories::ProjectDirs;

use crate::core::prompt::{Overrides, PromptName, Prompts};

/// `<config dir>/prompts`, where overrides are looked for; `None` when the platform has no home
/// folder to put a config folder in.
pub fn prompts_dir() -> Option<PathBuf> {
    ProjectDirs::from("", "", "redline").map(|dirs| dirs.config_dir().join("prompts"))
}

/// The override texts found in `dir`, by name. A missing folder or file is no override; a file
/// that exists but cannot be read, or is not UTF-8, is an error naming it.
pub fn read_overrides(dir: &Path) -> Result<BTreeMap<PromptName, String>> {
    let mut found = BTreeMap::new();
    for name in PromptName::ALL {
        let path = dir.join(format!("{}.md", name.name()));
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => {
                return Err(e).with_context(|| {
                    format!("cannot read the prompt override {}", path.display())
                });
            }
        };
        let Ok(text) = String::from_utf8(bytes) else {
            bail!("the prompt override {} is not UTF-8 text", path.display());
        };
        found.insert(name, text);
    }
    Ok(found)
}

/// The prompts in use: the bundled ones, with the overrides found in `dir`.
pub fn load_from(dir: &Path) -> Result<Prompts> {
    let texts = read_overrides(dir)?;
    let mut overrides = Overrides::default();
    for (name, text) in &texts {
        overrides.set(*name, Some(text.as_str()));
    }
    Ok(Prompts::new(overrides))
}

/// The prompts in use: the bundled ones, with the overrides in the user's config folder.
pub fn load() -> Result<Prompts> {
    match prompts_dir() {
        Some(dir) => load_from(&dir),
        None => Ok(Prompts::default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::edit::Format;

    #[test]
    fn a_file_overrides_its_prompt_only() {
        let dir = tempfile::TempDir::new().expect("temp dir");
        std::fs::write(dir.path().join("search-replace.md"), "Mine.").expect("write");
        let prompts = load_from(dir.path()).expect("load");
        assert_eq!(prompts.system(Format::SearchReplace), "Mine.");
        assert_eq!(prompts.system(Format::Udiff), PromptName::Udiff.bundled());
    }

    #[test]
    fn a_missing_folder_means_the_bundled_prompts() {
        let dir = tempfile::TempDir::new().expect("temp dir");
        let prompts = load_from(&dir.path().join("nope")).expect("load");
        assert_eq!(prompts, Prompts::default());
    }

    #[test]
    fn an_unreadable_override_is_an_error_naming_it() {
        let dir = tempfile::TempDir::new().expect("temp dir");
        std::fs::write(dir.path().join("retry.md"), [0xff, 0xfe]).expect("write");
        let err = load_from(dir.path()).expect_err("not UTF-8");
        assert!(err.to_string().contains("retry.md is not UTF-8"), "{err}");
        std::fs::remove_file(dir.path().join("retry.md")).expect("rm");
        std::fs::create_dir(dir.path().join("whole.md")).expect("mkdir");
        let err = load_from(dir.path()).expect_err("a folder");
        assert!(format!("{err:#}").contains("whole.md"), "{err:#}");
    }

    #[test]
    fn the_folder_is_under_the_config_dir() {
        if let Some(dir) = prompts_dir() {
            assert!(dir.ends_with("prompts"));
        }
    }
}
