//! Which server, model and key a request uses: [`resolve`], a pure function of the command-line
//! flags, the environment (as a map) and the parsed `config.toml`, highest first.
//!
//! | setting  | flag         | environment                                        | config.toml                  |
//! |----------|--------------|----------------------------------------------------|------------------------------|
//! | provider | `--provider` | `REDLINE_PROVIDER`                                 | `provider`                   |
//! | base URL | `--base-url` | `OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`, `OLLAMA_HOST` | `[openai]` ... `base_url` |
//! | model    | `--model`    | `REDLINE_MODEL`                                    | `[openai]` ... `model`, then `model` |
//! | API key  | (none: keys on command lines leak into `ps`) | `OPENAI_API_KEY`, `ANTHROPIC_API_KEY` | `[openai]` ... `api_key` |
//! | silence  | `--timeout`  |                                                    | `timeout_secs`               |
//! | deadline | `--deadline` |                                                    | `deadline_secs`              |
//! | reply cap | `--max-reply-bytes` |                                             | `max_reply_bytes`            |
//!
//! With no provider named anywhere, the one whose environment variables are set is used
//! (Anthropic, then OpenAI, then Ollama). Not for: reading the environment or the disk
//! ([`load_config`] and the caller do that), or talking to servers.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use thiserror::Error;

use super::ApiKey;
use super::endpoint::{BaseUrl, UrlError};

/// The three wire protocols.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProviderKind {
    /// OpenAI-compatible chat completions (OpenAI, vLLM, llama.cpp, LM Studio, LiteLLM,
    /// OpenRouter, ...).
    OpenAi,
    Anthropic,
    Ollama,
}

impl ProviderKind {
    pub fn name(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "openai",
            ProviderKind::Anthropic => "anthropic",
            ProviderKind::Ollama => "ollama",
        }
    }

    pub fn parse(name: &str) -> Option<ProviderKind> {
        match name.trim().to_ascii_lowercase().as_str() {
            "openai" => Some(ProviderKind::OpenAi),
            "anthropic" => Some(ProviderKind::Anthropic),
            "ollama" => Some(ProviderKind::Ollama),
            _ => None,
        }
    }

    fn default_base_url(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "https://api.openai.com/v1",
            ProviderKind::Anthropic => "https://api.anthropic.com",
            ProviderKind::Ollama => "http://localhost:11434",
        }
    }

    fn key_var(self) -> Option<&'static str> {
        match self {
            ProviderKind::OpenAi => Some("OPENAI_API_KEY"),
            ProviderKind::Anthropic => Some("ANTHROPIC_API_KEY"),
            ProviderKind::Ollama => None,
        }
    }

    fn base_url_var(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "OPENAI_BASE_URL",
            ProviderKind::Anthropic => "ANTHROPIC_BASE_URL",
            ProviderKind::Ollama => "OLLAMA_HOST",
        }
    }
}

/// Everything a request needs. `Debug` shows the key as `***`.
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderSettings {
    pub kind: ProviderKind,
    pub base_url: BaseUrl,
    pub api_key: Option<ApiKey>,
    pub model: String,
    /// How many times a refused (429, 5xx) or unreachable request is sent again.
    pub max_retries: u32,
    /// The first wait between attempts; it doubles on each retry.
    pub backoff_base: Duration,
    /// The longest wait for a connection, the response's headers, and the next reply content
    /// (keep-alive comments and pings do not count).
    pub read_timeout: Duration,
    /// The longest a whole reply may take, retries included.
    pub deadline: Duration,
    /// The most response body bytes one reply may have.
    pub max_reply_bytes: u64,
}

pub const DEFAULT_RETRIES: u32 = 3;
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
pub const DEFAULT_BACKOFF: Duration = Duration::from_millis(500);
/// Generous: a long reply from a slow local model still fits.
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(30 * 60);
/// Far beyond any real reply (a million tokens is a few MiB), well below what hurts memory.
pub const DEFAULT_MAX_REPLY_BYTES: u64 = 32 * 1024 * 1024;

/// What the command line said (all optional).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Flags {
    pub provider: Option<ProviderKind>,
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub http_retries: Option<u32>,
    pub timeout_secs: Option<f64>,
    pub deadline_secs: Option<f64>,
    pub max_reply_bytes: Option<u64>,
}

/// `config.toml`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    pub provider: Option<String>,
    pub model: Option<String>,
    pub http_retries: Option<u32>,
    pub timeout_secs: Option<f64>,
    pub deadline_secs: Option<f64>,
    pub max_reply_bytes: Option<u64>,
    pub openai: Option<ProviderSection>,
    pub anthropic: Option<ProviderSection>,
    pub ollama: Option<ProviderSection>,
}

/// One provider's table in `config.toml`.
#[derive(Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderSection {
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub api_key: Option<String>,
}

impl std::fmt::Debug for ProviderSection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProviderSection")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "***"))
            .finish()
    }
}

impl ConfigFile {
    fn section(&self, kind: ProviderKind) -> Option<&ProviderSection> {
        match kind {
            ProviderKind::OpenAi => self.openai.as_ref(),
            ProviderKind::Anthropic => self.anthropic.as_ref(),
            ProviderKind::Ollama => self.ollama.as_ref(),
        }
    }
}

/// What is missing or wrong, and what to set.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SettingsError {
    #[error(
        "no model provider is configured: set ANTHROPIC_API_KEY, OPENAI_API_KEY (with OPENAI_BASE_URL for a compatible server) or OLLAMA_HOST, pass --provider, or write {config}; `redline demo` works without a key"
    )]
    NothingSet { config: String },
    #[error("unknown provider {0:?} in {1}: use openai, anthropic or ollama")]
    UnknownProvider(String, &'static str),
    #[error(
        "no API key for {provider}: set {var}, or api_key under [{provider}] in {config}; `redline demo` works without a key"
    )]
    NoKey { provider: &'static str, var: &'static str, config: String },
    #[error(
        "no model named for {provider}: pass --model, set REDLINE_MODEL, or set model in {config}"
    )]
    NoModel { provider: &'static str, config: String },
    #[error(transparent)]
    BadUrl(#[from] UrlError),
    #[error(
        "the base URL {url} ends with /chat/completions, which redline adds itself: use {base}"
    )]
    EndpointInUrl { url: String, base: String },
    #[error("--max-reply-bytes must be at least 1, not {0}")]
    BadReplyCap(u64),
    #[error("{what} must be a positive number of seconds, not {value}")]
    BadTimeout { what: &'static str, value: String },
    #[error("cannot read {path}: {message}")]
    Config { path: String, message: String },
}

/// The platform's place for `config.toml` (`REDLINE_CONFIG` overrides it), or `None` when the
/// platform has no home folder.
pub fn config_path(env: &BTreeMap<String, String>) -> Option<PathBuf> {
    if let Some(p) = env.get("REDLINE_CONFIG").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    directories::ProjectDirs::from("", "", "redline").map(|d| d.config_dir().join("config.toml"))
}

/// Read and parse the config file; a missing file is an empty config.
pub fn load_config(path: &Path) -> Result<ConfigFile, SettingsError> {
    let err = |message: String| SettingsError::Config { path: path.display().to_string(), message };
    match std::fs::read_to_string(path) {
        Ok(text) => toml::from_str(&text).map_err(|e| err(e.to_string())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(ConfigFile::default()),
        Err(e) => Err(err(e.to_string())),
    }
}

/// Decide the settings: flags, then environment, then config file. `config_name` is how the
/// config file is named in messages.
pub fn resolve(
    flags: &Flags,
    env: &BTreeMap<String, String>,
    config: &ConfigFile,
    config_name: &str,
) -> Result<ProviderSettings, SettingsError> {
    let env = Env(env);
    let kind = provider_kind(flags, env, config, config_name)?;
    let section = config.section(kind);
    let (base_url, official) = base_url_of(kind, flags, env, section)?;
    let api_key = kind
        .key_var()
        .and_then(|v| env.var(v))
        .map(str::to_string)
        .or_else(|| section.and_then(|s| s.api_key.clone()).filter(|k| !k.is_empty()))
        .map(ApiKey::new);
    // Official endpoints need a key; local and compatible servers often do not.
    if let Some(var) = kind.key_var()
        && api_key.is_none()
        && official
    {
        return Err(SettingsError::NoKey {
            provider: kind.name(),
            var,
            config: config_name.to_string(),
        });
    }
    let model = flags
        .model
        .clone()
        .or_else(|| env.var("REDLINE_MODEL").map(str::to_string))
        .or_else(|| section.and_then(|s| s.model.clone()))
        .or_else(|| config.model.clone())
        .filter(|m| !m.trim().is_empty())
        .ok_or_else(|| SettingsError::NoModel {
            provider: kind.name(),
            config: config_name.to_string(),
        })?;
    let timeout =
        seconds(flags.timeout_secs.or(config.timeout_secs), DEFAULT_TIMEOUT, "the timeout")?;
    let deadline =
        seconds(flags.deadline_secs.or(config.deadline_secs), DEFAULT_DEADLINE, "the deadline")?;
    let max_reply_bytes = match flags.max_reply_bytes.or(config.max_reply_bytes) {
        None => DEFAULT_MAX_REPLY_BYTES,
        Some(0) => return Err(SettingsError::BadReplyCap(0)),
        Some(n) => n,
    };
    Ok(ProviderSettings {
        kind,
        base_url,
        api_key,
        model,
        max_retries: flags.http_retries.or(config.http_retries).unwrap_or(DEFAULT_RETRIES),
        backoff_base: DEFAULT_BACKOFF,
        read_timeout: timeout,
        deadline,
        max_reply_bytes,
    })
}

/// The environment as settings read it: a variable set to blanks is not set.
#[derive(Clone, Copy)]
struct Env<'a>(&'a BTreeMap<String, String>);

impl<'a> Env<'a> {
    fn var(self, name: &str) -> Option<&'a str> {
        self.0.get(name).map(|v| v.trim()).filter(|v| !v.is_empty())
    }
}

/// Which provider: named by a flag, `REDLINE_PROVIDER` or the config file, or else the first
/// whose key or host the environment sets, or else the first section the config file has.
fn provider_kind(
    flags: &Flags,
    env: Env,
    config: &ConfigFile,
    config_name: &str,
) -> Result<ProviderKind, SettingsError> {
    let kind = match (flags.provider, env.var("REDLINE_PROVIDER"), config.provider.as_deref()) {
        (Some(kind), _, _) => kind,
        (None, Some(name), _) => ProviderKind::parse(name)
            .ok_or_else(|| SettingsError::UnknownProvider(name.into(), "REDLINE_PROVIDER"))?,
        (None, None, Some(name)) => ProviderKind::parse(name)
            .ok_or_else(|| SettingsError::UnknownProvider(name.into(), "config.toml"))?,
        (None, None, None) => {
            if env.var("ANTHROPIC_API_KEY").is_some() {
                ProviderKind::Anthropic
            } else if env.var("OPENAI_API_KEY").is_some() || env.var("OPENAI_BASE_URL").is_some() {
                ProviderKind::OpenAi
            } else if env.var("OLLAMA_HOST").is_some() {
                ProviderKind::Ollama
            } else if let Some(kind) =
                [ProviderKind::Anthropic, ProviderKind::OpenAi, ProviderKind::Ollama]
                    .into_iter()
                    .find(|k| config.section(*k).is_some())
            {
                kind
            } else {
                return Err(SettingsError::NothingSet { config: config_name.to_string() });
            }
        }
    };
    Ok(kind)
}

/// The provider's base URL (flag, environment, config, or its default), and whether it is the
/// provider's official one.
fn base_url_of(
    kind: ProviderKind,
    flags: &Flags,
    env: Env,
    section: Option<&ProviderSection>,
) -> Result<(BaseUrl, bool), SettingsError> {
    let base_url = flags
        .base_url
        .clone()
        .or_else(|| env.var(kind.base_url_var()).map(str::to_string))
        .or_else(|| section.and_then(|s| s.base_url.clone()))
        .map(|u| normalize_url(kind, &u))
        .unwrap_or_else(|| kind.default_base_url().to_string());
    let official = base_url == kind.default_base_url();
    // A URL copied from a server's docs often names the endpoint; joined, it would be doubled.
    if let Some(base) = base_url.trim_end_matches('/').strip_suffix("/chat/completions") {
        return Err(SettingsError::EndpointInUrl {
            url: crate::core::session::sanitize_url(&base_url),
            base: crate::core::session::sanitize_url(base),
        });
    }
    Ok((BaseUrl::parse(&base_url)?, official))
}

/// A positive number of seconds (below a million), or `default` when none is given.
fn seconds(
    given: Option<f64>,
    default: Duration,
    what: &'static str,
) -> Result<Duration, SettingsError> {
    match given {
        None => Ok(default),
        Some(s) if s.is_finite() && s > 0.0 && s < 1e6 => Ok(Duration::from_secs_f64(s)),
        Some(s) => Err(SettingsError::BadTimeout { what, value: s.to_string() }),
    }
}

/// `OLLAMA_HOST` is often `host:port` without a scheme; trailing slashes are dropped.
fn normalize_url(kind: ProviderKind, url: &str) -> String {
    let url = url.trim().trim_end_matches('/');
    if kind == ProviderKind::Ollama && !url.contains("://") {
        format!("http://{url}")
    } else {
        url.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    fn go(
        flags: &Flags,
        e: &[(&str, &str)],
        c: &ConfigFile,
    ) -> Result<ProviderSettings, SettingsError> {
        resolve(flags, &env(e), c, "config.toml")
    }

    #[test]
    fn a_base_url_naming_the_endpoint_gets_a_hint() {
        let flags = Flags {
            provider: Some(ProviderKind::OpenAi),
            base_url: Some("http://127.0.0.1:9/v1/chat/completions".into()),
            model: Some("m".into()),
            ..Flags::default()
        };
        let env: BTreeMap<String, String> =
            [("OPENAI_API_KEY".to_string(), "k".to_string())].into_iter().collect();
        let err = resolve(&flags, &env, &ConfigFile::default(), "config.toml").unwrap_err();
        assert!(err.to_string().contains("use http://127.0.0.1:9/v1"), "{err}");
    }

    #[test]
    fn nothing_set_says_so() {
        let e = go(&Flags::default(), &[], &ConfigFile::default()).err();
        let m = e.map(|e| e.to_string()).unwrap_or_default();
        assert!(m.contains("no model provider is configured") && m.contains("redline demo"), "{m}");
    }

    #[test]
    fn flags_beat_environment_beat_config() {
        let config: ConfigFile = toml::from_str(
            "provider = \"ollama\"\nmodel = \"top\"\n[ollama]\nbase_url = \"http://cfg:1\"\nmodel = \"cfg-model\"\n[openai]\napi_key = \"k-cfg\"\n",
        )
        .unwrap_or_default();
        let s = go(&Flags::default(), &[], &config).ok();
        assert_eq!(s.as_ref().map(|s| s.kind), Some(ProviderKind::Ollama));
        assert_eq!(s.as_ref().map(|s| s.model.as_str()), Some("cfg-model"));
        assert_eq!(s.as_ref().map(|s| s.base_url.to_string()).as_deref(), Some("http://cfg:1"));
        let e = [("REDLINE_PROVIDER", "openai"), ("REDLINE_MODEL", "env-model")];
        let s = go(&Flags::default(), &e, &config).ok();
        assert_eq!(s.as_ref().map(|s| s.kind), Some(ProviderKind::OpenAi));
        assert_eq!(s.as_ref().map(|s| s.model.as_str()), Some("env-model"));
        assert_eq!(s.as_ref().and_then(|s| s.api_key.clone()), Some(ApiKey::new("k-cfg")));
        let flags = Flags {
            provider: Some(ProviderKind::Anthropic),
            base_url: Some("http://127.0.0.1:9/".into()),
            model: Some("flag-model".into()),
            ..Flags::default()
        };
        let s = go(&flags, &e, &config).ok();
        assert_eq!(s.as_ref().map(|s| s.kind), Some(ProviderKind::Anthropic));
        assert_eq!(s.as_ref().map(|s| s.model.as_str()), Some("flag-model"));
        assert_eq!(
            s.as_ref().map(|s| s.base_url.to_string()).as_deref(),
            Some("http://127.0.0.1:9")
        );
    }

    #[test]
    fn provider_inferred_from_keys_and_key_required_for_official_endpoints() {
        let s = go(
            &Flags::default(),
            &[("ANTHROPIC_API_KEY", "a"), ("REDLINE_MODEL", "m")],
            &ConfigFile::default(),
        );
        assert_eq!(s.map(|s| s.kind).ok(), Some(ProviderKind::Anthropic));
        let s = go(
            &Flags::default(),
            &[("OLLAMA_HOST", "127.0.0.1:11434"), ("REDLINE_MODEL", "m")],
            &ConfigFile::default(),
        );
        assert_eq!(
            s.map(|s| s.base_url.to_string()).ok().as_deref(),
            Some("http://127.0.0.1:11434")
        );
        let flags = Flags { provider: Some(ProviderKind::OpenAi), ..Flags::default() };
        let e = go(&flags, &[("REDLINE_MODEL", "m")], &ConfigFile::default()).err();
        assert!(matches!(e, Some(SettingsError::NoKey { var: "OPENAI_API_KEY", .. })));
        let local = go(
            &flags,
            &[("OPENAI_BASE_URL", "http://127.0.0.1:8000/v1"), ("REDLINE_MODEL", "m")],
            &ConfigFile::default(),
        );
        assert!(local.is_ok_and(|s| s.api_key.is_none()));
        let e = go(&flags, &[("OPENAI_API_KEY", "k")], &ConfigFile::default()).err();
        assert!(matches!(e, Some(SettingsError::NoModel { .. })));
    }

    #[test]
    fn keys_never_print() {
        let s = go(
            &Flags::default(),
            &[("OPENAI_API_KEY", "sk-secret-123"), ("REDLINE_MODEL", "m")],
            &ConfigFile::default(),
        );
        let text = format!("{s:?}");
        assert!(!text.contains("sk-secret-123") && text.contains("***"), "{text}");
        let section =
            ProviderSection { api_key: Some("sk-secret-123".into()), ..ProviderSection::default() };
        assert!(!format!("{section:?}").contains("sk-secret"));
    }

    #[test]
    fn bad_values_are_named() {
        let e =
            go(&Flags::default(), &[("REDLINE_PROVIDER", "gemini")], &ConfigFile::default()).err();
        assert!(e.is_some_and(|e| e.to_string().contains("\"gemini\"")));
        let flags = Flags { timeout_secs: Some(0.0), ..Flags::default() };
        let e =
            go(&flags, &[("OLLAMA_HOST", "h:1"), ("REDLINE_MODEL", "m")], &ConfigFile::default())
                .err();
        assert!(matches!(e, Some(SettingsError::BadTimeout { .. })));
        let flags = Flags { deadline_secs: Some(-1.0), ..Flags::default() };
        let e =
            go(&flags, &[("OLLAMA_HOST", "h:1"), ("REDLINE_MODEL", "m")], &ConfigFile::default())
                .err();
        assert!(matches!(e, Some(SettingsError::BadTimeout { what: "the deadline", .. })));
        let flags = Flags { max_reply_bytes: Some(0), ..Flags::default() };
        let e =
            go(&flags, &[("OLLAMA_HOST", "h:1"), ("REDLINE_MODEL", "m")], &ConfigFile::default())
                .err();
        assert!(matches!(e, Some(SettingsError::BadReplyCap(0))));
        let flags = Flags {
            provider: Some(ProviderKind::OpenAi),
            base_url: Some("http://u:SECRET@h/v1?key=SECRET2".into()),
            ..Flags::default()
        };
        let s = go(&flags, &[("REDLINE_MODEL", "m")], &ConfigFile::default());
        let shown = format!("{s:?}");
        assert!(!shown.contains("SECRET") && shown.contains("http://h/v1?key=***"), "{shown}");
        let bad: Result<ConfigFile, _> = toml::from_str("modle = \"x\"");
        assert!(bad.is_err());
    }
}
