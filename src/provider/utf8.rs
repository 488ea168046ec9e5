//! A body's bytes as UTF-8, whatever the server sent: invalid bytes become U+FFFD (`�`), one
//! per bad sequence, and a character cut between two chunks waits for its end. One bad byte
//! ended the whole event stream (and every edit after it) before.
//!
//! Not for: events or lines (`body`), what they mean (`wire`).

/// The decoder's state between chunks.
#[derive(Debug, Default)]
pub(super) struct LossyUtf8 {
    /// The start of a character the last chunk ended inside.
    pending: Vec<u8>,
    /// How many bad sequences were replaced so far.
    pub replaced: usize,
}

impl LossyUtf8 {
    /// The next chunk, as valid UTF-8 bytes (a character it ends inside is held back).
    pub fn push(&mut self, chunk: &[u8]) -> Vec<u8> {
        let mut buf = std::mem::take(&mut self.pending);
        buf.extend_from_slice(chunk);
        let mut out = Vec::with_capacity(buf.len());
        let mut rest = &buf[..];
        loop {
            match std::str::from_utf8(rest) {
                Ok(s) => {
                    out.extend_from_slice(s.as_bytes());
                    break;
                }
                Err(e) => {
                    let (good, after) = rest.split_at(e.valid_up_to());
                    out.extend_from_slice(good);
                    match e.error_len() {
                        Some(n) => {
                            out.extend_from_slice("\u{fffd}".as_bytes());
                            self.replaced += 1;
                            rest = &after[n..];
                        }
                        // Cut inside a character: the next chunk may finish it.
                        None => {
                            self.pending = after.to_vec();
                            break;
                        }
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_bytes_are_replaced_and_split_characters_joined() {
        let mut d = LossyUtf8::default();
        let text = "data: é€😀\n";
        let bytes = text.as_bytes();
        // Every cut, even inside a character, gives the text back whole.
        for cut in 0..bytes.len() {
            let mut d = LossyUtf8::default();
            let mut out = d.push(&bytes[..cut]);
            out.extend(d.push(&bytes[cut..]));
            assert_eq!(String::from_utf8(out).unwrap(), text);
            assert_eq!(d.replaced, 0);
        }
        let out = d.push(b"ok \xff then \xc3\x28 end");
        assert_eq!(String::from_utf8(out).unwrap(), "ok \u{fffd} then \u{fffd}( end");
        assert_eq!(d.replaced, 2);
    }
}
