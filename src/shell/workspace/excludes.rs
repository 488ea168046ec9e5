//! Where the user's global gitignore lies (`core.excludesFile`, else `$XDG_CONFIG_HOME/git/ignore`),
//! read the way git reads it, for [`super::list_project_files`].
//!
//! Why not `ignore`'s own lookup: it finds `excludesFile` with a regular expression compiled on
//! every run, which was a tenth of a short `redline apply`'s time (half a millisecond; README,
//! "Benchmarks"). The lookup is a few lines of text scanning; the matching of the file's patterns
//! stays with `ignore`.
//!
//! Not for: the project's own `.gitignore` files (the walker reads those).

use std::path::PathBuf;

/// The global excludes file git would use, if one is named or the default exists. The order is
/// git's: `GIT_CONFIG_GLOBAL` replaces `~/.gitconfig` and the XDG config; `~/.gitconfig` comes
/// before the XDG config; the system config last; then the default location.
pub(super) fn global_excludes_file() -> Option<PathBuf> {
    let home = std::env::home_dir();
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| !p.as_os_str().is_empty())
        .or_else(|| home.as_ref().map(|h| h.join(".config")));
    let global: Vec<PathBuf> = match std::env::var_os("GIT_CONFIG_GLOBAL") {
        Some(p) => vec![PathBuf::from(p)],
        None => home
            .iter()
            .map(|h| h.join(".gitconfig"))
            .chain(xdg.iter().map(|x| x.join("git/config")))
            .collect(),
    };
    let system = std::env::var_os("GIT_CONFIG_SYSTEM")
        .map_or_else(|| "/etc/gitconfig".into(), PathBuf::from);
    let home_text = home.as_ref().map(|h| h.to_string_lossy().into_owned());
    global
        .iter()
        .chain(std::iter::once(&system))
        .filter_map(|p| std::fs::read(p).ok())
        .find_map(|data| excludes_file_in(&String::from_utf8_lossy(&data), home_text.as_deref()))
        .or_else(|| xdg.map(|x| x.join("git/ignore")))
        .filter(|p| p.is_file())
}

/// The value of the first `excludesFile = …` line of a git config (any section, as `ignore`
/// reads it), quotes taken off and `~` made the home folder.
fn excludes_file_in(config: &str, home: Option<&str>) -> Option<PathBuf> {
    config.lines().find_map(|line| {
        let line = line.trim();
        let key = line.get(..12)?;
        if !key.eq_ignore_ascii_case("excludesfile") {
            return None;
        }
        let value = line[12..].trim_start().strip_prefix('=')?.trim();
        let value = value.strip_prefix('"').unwrap_or(value);
        let value = value.strip_suffix('"').unwrap_or(value).trim();
        if value.is_empty() || value.contains(char::is_whitespace) {
            return None;
        }
        Some(PathBuf::from(match home {
            Some(h) => value.replace('~', h),
            None => value.to_string(),
        }))
    })
}

#[cfg(test)]
mod tests {
    use super::excludes_file_in;
    use std::path::PathBuf;

    #[test]
    fn the_excludes_file_is_read_as_git_writes_it() {
        let home = Some("/home/u");
        let got = |s: &str| excludes_file_in(s, home);
        assert_eq!(got("[core]\n\texcludesFile = /a/b\n"), Some(PathBuf::from("/a/b")));
        assert_eq!(got("[core]\nexcludesfile=~/x\n"), Some(PathBuf::from("/home/u/x")));
        assert_eq!(got("[core]\n  ExcludesFile = \"~/q y\"\n"), None);
        assert_eq!(got("[core]\n  excludesFile = \"~/q\"\n"), Some(PathBuf::from("/home/u/q")));
        assert_eq!(got("[core]\nexcludeFile = /a\n"), None);
        assert_eq!(got("[core]\nexcludesfiles = /a\n"), None);
        assert_eq!(got("[user]\nname = x\n"), None);
    }
}
