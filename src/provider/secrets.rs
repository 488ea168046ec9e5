//! Keeping credentials out of everything redline shows or keeps: [`Secrets`] replaces an API key
//! (and a base URL's password and secret query values) by `***` in a message, and
//! [`StreamRedactor`] does the same to reply text arriving in pieces.
//!
//! Why pieces of a key are redacted too: a server's message is often cut to a display length,
//! and a reply may be cut anywhere, so what reaches a person can be a key's first (or any) part.
//! Every run of [`PIECE`] or more characters that also occurs in a secret is replaced, not only
//! the whole secret. Secrets shorter than [`PIECE`] are replaced when whole; shorter than
//! [`SHORTEST`] they are too common a text to be replaced at all.
//!
//! Not for: deciding what is secret (the settings and [`super::endpoint::BaseUrl::secrets`] do),
//! or anything about the wire.

use std::collections::HashMap;

/// The shortest run of a secret's characters that is replaced wherever it appears.
pub const PIECE: usize = 16;
/// Secrets shorter than this are not looked for.
pub const SHORTEST: usize = 6;

const MASK: &str = "***";

/// The texts no message may show.
#[derive(Clone, Default)]
pub struct Secrets {
    items: Vec<Vec<u8>>,
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secrets({})", self.items.len())
    }
}

impl Secrets {
    pub fn new(items: impl IntoIterator<Item = String>) -> Secrets {
        let mut items: Vec<Vec<u8>> =
            items.into_iter().filter(|s| s.len() >= SHORTEST).map(String::into_bytes).collect();
        items.sort_by_key(|s| std::cmp::Reverse(s.len()));
        items.dedup();
        Secrets { items }
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// `text` with every secret, and every run of [`PIECE`]+ bytes of one, as `***`.
    pub fn redact(&self, text: &str) -> String {
        if self.items.is_empty() {
            return text.to_string();
        }
        let mut bytes = text.as_bytes().to_vec();
        for secret in &self.items {
            bytes = if secret.len() >= PIECE {
                replace_pieces(&bytes, secret)
            } else {
                replace_whole(&bytes, secret)
            };
        }
        // A piece may begin or end inside a multi-byte character of `text`.
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// How many bytes at the end of `text` could be the start of a secret continued in the next
    /// piece of a stream: the longest suffix that occurs in a secret.
    fn held_back(&self, text: &str) -> usize {
        let bytes = text.as_bytes();
        let longest = self.items.first().map_or(0, Vec::len).min(bytes.len());
        let mut held = 0;
        for k in 1..=longest {
            let suffix = &bytes[bytes.len() - k..];
            // A suffix that occurs nowhere cannot grow into one that does.
            if !self.items.iter().any(|s| memchr::memmem::find(s, suffix).is_some()) {
                break;
            }
            held = k;
        }
        let mut split = bytes.len() - held;
        while !text.is_char_boundary(split) {
            split -= 1;
        }
        bytes.len() - split
    }
}

/// Replace every run of `PIECE`+ bytes that also occurs in `secret`, leftmost first, each as
/// long as it goes on matching.
fn replace_pieces(text: &[u8], secret: &[u8]) -> Vec<u8> {
    if text.len() < PIECE {
        return text.to_vec();
    }
    let mut windows: HashMap<&[u8], Vec<usize>> = HashMap::new();
    for at in 0..=secret.len() - PIECE {
        windows.entry(&secret[at..at + PIECE]).or_default().push(at);
    }
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let found = (i + PIECE <= text.len())
            .then(|| windows.get(&text[i..i + PIECE]))
            .flatten()
            .and_then(|starts| {
                starts
                    .iter()
                    .map(|&at| {
                        text[i..].iter().zip(&secret[at..]).take_while(|(a, b)| a == b).count()
                    })
                    .max()
            });
        match found {
            Some(len) => {
                out.extend_from_slice(MASK.as_bytes());
                i += len;
            }
            None => {
                out.push(text[i]);
                i += 1;
            }
        }
    }
    out
}

fn replace_whole(text: &[u8], secret: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = memchr::memmem::find(rest, secret) {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(MASK.as_bytes());
        rest = &rest[at + secret.len()..];
    }
    out.extend_from_slice(rest);
    out
}

/// Redacts text that arrives in pieces: what could be the start of a secret completed by the
/// next piece is held back until it is known not to be (at most a secret's length).
#[derive(Debug, Default)]
pub struct StreamRedactor {
    secrets: Secrets,
    held: String,
}

impl StreamRedactor {
    pub fn new(secrets: Secrets) -> StreamRedactor {
        StreamRedactor { secrets, held: String::new() }
    }

    /// The text that can go out now (possibly empty).
    pub fn push(&mut self, text: &str) -> String {
        if self.secrets.is_empty() {
            return text.to_string();
        }
        self.held.push_str(text);
        let keep = self.secrets.held_back(&self.held);
        let rest = self.held.split_off(self.held.len() - keep);
        let ready = std::mem::replace(&mut self.held, rest);
        self.secrets.redact(&ready)
    }

    /// Whatever was held back, redacted: the stream has ended.
    pub fn finish(&mut self) -> String {
        let held = std::mem::take(&mut self.held);
        self.secrets.redact(&held)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "sk-proj-Abc123Def456Ghi789Jkl012Mno345Pqr678Stu901Vwx234Yz567Abc890Def123Ghi456Jkl789Mno012Pqr345Stu678Vwx901Yz234Abc567Def890Ghi123Jkl456Mno789Pqr012Stu678Vw";

    fn leaks(text: &str) -> bool {
        (0..=KEY.len() - PIECE).any(|at| text.contains(&KEY[at..at + PIECE]))
    }

    #[test]
    fn whole_keys_prefixes_and_middles_are_redacted() {
        assert_eq!(KEY.len(), 158);
        let s = Secrets::new([KEY.to_string()]);
        let body = format!("{{\"error\":\"Incorrect API key provided: {KEY}.\"}}");
        let r = s.redact(&body);
        assert_eq!(r, "{\"error\":\"Incorrect API key provided: ***.\"}");
        let cut: String = body.chars().take(120).collect();
        assert!(leaks(&cut) && !leaks(&s.redact(&cut)), "{}", s.redact(&cut));
        let middle = format!("x {} y", &KEY[40..90]);
        assert_eq!(s.redact(&middle), "x *** y");
        // Fewer than PIECE characters of a key are ordinary text.
        assert_eq!(s.redact("sk-proj-Abc"), "sk-proj-Abc");
    }

    #[test]
    fn short_secrets_only_whole() {
        let s = Secrets::new(["hunter22".to_string(), "abc".to_string()]);
        assert_eq!(s.redact("pw=hunter22, hunter2, abc"), "pw=***, hunter2, abc");
    }

    #[test]
    fn a_key_split_across_stream_pieces_never_goes_out() {
        let text = format!("Use this key: {KEY} in the header.\nDone. ✓ ünïcode\n");
        for step in [1, 3, 7, 16, 50, 200] {
            let mut r = StreamRedactor::new(Secrets::new([KEY.to_string()]));
            let mut out = String::new();
            let chars: Vec<char> = text.chars().collect();
            for piece in chars.chunks(step) {
                out.push_str(&r.push(&piece.iter().collect::<String>()));
            }
            out.push_str(&r.finish());
            assert!(!leaks(&out), "step {step}: {out}");
            assert_eq!(out, "Use this key: *** in the header.\nDone. ✓ ünïcode\n", "step {step}");
        }
        let mut plain = StreamRedactor::new(Secrets::default());
        assert_eq!(plain.push("sk-proj-"), "sk-proj-");
    }
}
