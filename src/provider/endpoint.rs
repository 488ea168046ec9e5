//! A server's base URL as a parsed URL ([`BaseUrl`]): where each protocol's chat endpoint is
//! under it, and how it may be shown.
//!
//! A base URL can carry credentials (`http://user:SECRET@host/v1`, `?api-key=SECRET`): the
//! endpoint keeps them (the server needs them), but [`BaseUrl`]'s `Display` and
//! [`shown`] never print user info or the value of a query parameter whose name looks secret,
//! and [`BaseUrl::secrets`] hands those values to the redaction of messages.
//!
//! Not for: choosing which base URL applies (`settings`), or sending requests (`client`).

use std::fmt;

use url::Url;

use super::settings::ProviderKind;

/// A base URL that parsed as an `http` or `https` URL.
#[derive(Clone, PartialEq, Eq)]
pub struct BaseUrl(Url);

/// Why a base URL was refused; never holds the URL's credentials.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    #[error("the base URL is not a URL ({0})")]
    NotAUrl(String),
    #[error("the base URL {0} is not an http:// or https:// URL")]
    NotHttp(String),
}

impl BaseUrl {
    pub fn parse(text: &str) -> Result<BaseUrl, UrlError> {
        let url = Url::parse(text.trim()).map_err(|e| UrlError::NotAUrl(e.to_string()))?;
        if !matches!(url.scheme(), "http" | "https") || url.cannot_be_a_base() {
            return Err(UrlError::NotHttp(shown(&url)));
        }
        Ok(BaseUrl(url))
    }

    /// The chat endpoint of `kind` under this URL: the path joined as paths are (one `/`
    /// between), the query and credentials kept.
    pub fn endpoint(&self, kind: ProviderKind) -> Url {
        let mut url = self.0.clone();
        let base = url.path().trim_end_matches('/').to_string();
        let tail = match kind {
            ProviderKind::OpenAi => "chat/completions",
            ProviderKind::Anthropic if base.ends_with("/v1") => "messages",
            ProviderKind::Anthropic => "v1/messages",
            ProviderKind::Ollama => "api/chat",
        };
        url.set_path(&format!("{base}/{tail}"));
        url
    }

    /// The password and the secret-looking query values, as written and percent-decoded: the
    /// texts no message may show.
    pub fn secrets(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(p) = self.0.password() {
            out.push(p.to_string());
            out.extend(percent_decoded(p));
        }
        for (name, value) in self.0.query_pairs() {
            if secret_name(&name) && !value.is_empty() {
                out.push(value.into_owned());
            }
        }
        if let Some(query) = self.0.query() {
            for pair in query.split('&') {
                if let Some((name, raw)) = pair.split_once('=')
                    && secret_name(name)
                    && !raw.is_empty()
                {
                    out.push(raw.to_string());
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

fn percent_decoded(text: &str) -> Option<String> {
    let pair = format!("x={text}");
    let decoded = url::form_urlencoded::parse(pair.as_bytes()).next()?.1.into_owned();
    (decoded != text).then_some(decoded)
}

/// Whether a query parameter's name says its value is a credential.
pub fn secret_name(name: &str) -> bool {
    const WORDS: [&str; 10] = [
        "key",
        "token",
        "secret",
        "password",
        "passwd",
        "pwd",
        "sig",
        "auth",
        "credential",
        "code",
    ];
    let name = name.to_ascii_lowercase();
    WORDS.iter().any(|w| name.contains(w))
}

/// `url` as it may be shown: no user info, no fragment, secret-looking query values as `***`,
/// and no lone trailing `/`.
pub fn shown(url: &Url) -> String {
    let mut u = url.clone();
    let _ = u.set_username("");
    let _ = u.set_password(None);
    u.set_fragment(None);
    if u.query().is_some() {
        let pairs: Vec<(String, String)> = u
            .query_pairs()
            .map(|(k, v)| {
                let v = if secret_name(&k) { "***".to_string() } else { v.into_owned() };
                (k.into_owned(), v)
            })
            .collect();
        if pairs.is_empty() {
            u.set_query(None);
        } else {
            u.query_pairs_mut().clear().extend_pairs(pairs);
        }
    }
    let text = u.to_string();
    match text.strip_suffix('/') {
        Some(cut) if u.path() == "/" && u.query().is_none() => cut.to_string(),
        _ => text,
    }
}

impl fmt::Display for BaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&shown(&self.0))
    }
}

/// As `Display`: a settings dump must not show credentials either.
impl fmt::Debug for BaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BaseUrl({})", shown(&self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base(text: &str) -> BaseUrl {
        BaseUrl::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn endpoint_paths_are_joined_before_the_query() {
        let b = base("http://host/v1?key=x");
        assert_eq!(
            b.endpoint(ProviderKind::OpenAi).as_str(),
            "http://host/v1/chat/completions?key=x"
        );
        let b = base("http://user:pw@host:8000/v1/?api-version=2&key=x");
        assert_eq!(
            b.endpoint(ProviderKind::OpenAi).as_str(),
            "http://user:pw@host:8000/v1/chat/completions?api-version=2&key=x"
        );
        assert_eq!(
            base("https://api.anthropic.com").endpoint(ProviderKind::Anthropic).as_str(),
            "https://api.anthropic.com/v1/messages"
        );
        assert_eq!(
            base("http://proxy/anthropic/v1/").endpoint(ProviderKind::Anthropic).as_str(),
            "http://proxy/anthropic/v1/messages"
        );
        assert_eq!(
            base("http://127.0.0.1:11434").endpoint(ProviderKind::Ollama).as_str(),
            "http://127.0.0.1:11434/api/chat"
        );
    }

    #[test]
    fn credentials_and_secret_query_values_are_never_shown() {
        let b = base("http://user:SECRET@host/v1?api-key=SECRET2&api-version=2024&sig=S3#frag");
        let shown = b.to_string();
        assert_eq!(shown, "http://host/v1?api-key=***&api-version=2024&sig=***");
        assert!(!format!("{b:?}").contains("SECRET"));
        let endpoint = super::shown(&b.endpoint(ProviderKind::OpenAi));
        assert_eq!(
            endpoint,
            "http://host/v1/chat/completions?api-key=***&api-version=2024&sig=***"
        );
        assert_eq!(b.secrets(), vec!["S3".to_string(), "SECRET".into(), "SECRET2".into()]);
        let encoded = base("http://u:p%40ss@host/?token=a%2Bb");
        assert_eq!(
            encoded.secrets(),
            vec!["a%2Bb".to_string(), "a+b".into(), "p%40ss".into(), "p@ss".into()]
        );
        assert_eq!(base("http://127.0.0.1:9/").to_string(), "http://127.0.0.1:9");
        assert_eq!(base("http://127.0.0.1:9/v1").to_string(), "http://127.0.0.1:9/v1");
    }

    #[test]
    fn bad_urls_are_refused_without_their_credentials() {
        assert!(matches!(BaseUrl::parse("localhost:8000"), Err(UrlError::NotHttp(_))));
        assert!(matches!(BaseUrl::parse("not a url"), Err(UrlError::NotAUrl(_))));
        let e = BaseUrl::parse("ftp://me:SECRET@host/").err().map(|e| e.to_string());
        assert!(e.as_deref().is_some_and(|m| !m.contains("SECRET") && m.contains("ftp://host")));
    }
}
