//! The three wire formats, as pure functions: the request body each server expects, and the
//! decoding of one event (an SSE event's data, or one NDJSON line) into [`Piece`]s.
//!
//! Not for: framing bytes into events (SSE is decoded by `eventsource-stream`, NDJSON is split on
//! newlines in `client`), HTTP, retries or timing. Unknown event types and fields are ignored, so
//! that servers adding to their protocols do not break redline; what is known but malformed is
//! an error naming the event.

use std::borrow::Cow;

use serde_json::{Value, json};

use crate::provider::{ChatRequest, DEFAULT_MAX_TOKENS, ProviderError, Role, Usage};

/// What one event carried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    Usage(Usage),
    /// Why the model stopped (`stop`, `end_turn`, `length`, ...).
    Stop(String),
    /// The protocol's end-of-stream marker.
    Done,
}

/// The body of an OpenAI-compatible `POST {base}/chat/completions`.
pub fn openai_body(req: &ChatRequest) -> Value {
    let mut body = json!({
        "model": req.model,
        "stream": true,
        "stream_options": { "include_usage": true },
        "messages": req.messages,
    });
    if let Some(n) = req.max_tokens {
        body["max_tokens"] = json!(n);
    }
    if let Some(t) = req.temperature {
        body["temperature"] = json!(t);
    }
    body
}

/// The body of Anthropic's `POST {base}/v1/messages`: system messages go to `system`.
pub fn anthropic_body(req: &ChatRequest) -> Value {
    let system: Vec<&str> = req
        .messages
        .iter()
        .filter(|m| m.role == Role::System)
        .map(|m| m.content.as_str())
        .collect();
    let messages: Vec<&crate::provider::ChatMessage> =
        req.messages.iter().filter(|m| m.role != Role::System).collect();
    let mut body = json!({
        "model": req.model,
        "stream": true,
        "max_tokens": req.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
        "messages": messages,
    });
    if !system.is_empty() {
        body["system"] = json!(system.join("\n\n"));
    }
    if let Some(t) = req.temperature {
        body["temperature"] = json!(t);
    }
    body
}

/// The body of Ollama's `POST {base}/api/chat`.
pub fn ollama_body(req: &ChatRequest) -> Value {
    let mut options = serde_json::Map::new();
    if let Some(n) = req.max_tokens {
        options.insert("num_predict".into(), json!(n));
    }
    if let Some(t) = req.temperature {
        options.insert("temperature".into(), json!(t));
    }
    let mut body = json!({ "model": req.model, "stream": true, "messages": req.messages });
    if !options.is_empty() {
        body["options"] = Value::Object(options);
    }
    body
}

/// Joins a UTF-16 surrogate pair that a server split across two events (`"\ud83c"` ending one
/// string, `"\uddf7"` starting the next), which JSON parsers refuse as lone surrogates: a lone
/// high surrogate ending a string is taken out and kept, and put together with the lone low
/// surrogate that comes next. Other lone surrogates become U+FFFD. Events without `\u` pass
/// through untouched.
#[derive(Debug, Default)]
pub struct Surrogates {
    high: Option<u16>,
}

impl Surrogates {
    pub fn join<'a>(&mut self, data: &'a str) -> Cow<'a, str> {
        if !data.contains("\\u") {
            return Cow::Borrowed(data);
        }
        let bytes = data.as_bytes();
        let mut out = String::with_capacity(data.len());
        let (mut i, mut copied) = (0, 0);
        while i < bytes.len() {
            if bytes[i] != b'\\' {
                i += 1;
                continue;
            }
            let Some(unit) = escape_at(data, i) else {
                i += 2;
                continue;
            };
            let replacement = match unit {
                0xD800..=0xDBFF => match escape_at(data, i + 6) {
                    Some(0xDC00..=0xDFFF) => {
                        i += 12;
                        continue;
                    }
                    // Its other half is in the next event.
                    _ if bytes.get(i + 6) == Some(&b'"') => {
                        self.high = Some(unit);
                        String::new()
                    }
                    _ => "\\ufffd".to_string(),
                },
                0xDC00..=0xDFFF => match self.high.take() {
                    Some(high) => {
                        let c = 0x10000
                            + ((u32::from(high) - 0xD800) << 10)
                            + (u32::from(unit) - 0xDC00);
                        char::from_u32(c).map_or_else(|| "\\ufffd".to_string(), String::from)
                    }
                    None => "\\ufffd".to_string(),
                },
                _ => {
                    i += 6;
                    continue;
                }
            };
            out.push_str(&data[copied..i]);
            out.push_str(&replacement);
            i += 6;
            copied = i;
        }
        if copied == 0 {
            return Cow::Borrowed(data);
        }
        out.push_str(&data[copied..]);
        Cow::Owned(out)
    }
}

/// The code unit of a `\uXXXX` escape starting at byte `at`, if there is one.
fn escape_at(data: &str, at: usize) -> Option<u16> {
    let hex = data.get(at..at + 6)?.strip_prefix("\\u")?;
    u16::from_str_radix(hex, 16).ok()
}

fn parse(event: &str, data: &str) -> Result<Value, ProviderError> {
    serde_json::from_str(data).map_err(|e| ProviderError::Malformed {
        event: event.to_string(),
        message: format!("{e} in {}", excerpt(data)),
    })
}

/// At most 120 characters of what the server sent, for an error message.
pub fn excerpt(text: &str) -> String {
    let mut s: String = text.chars().take(120).collect();
    if s.len() < text.len() {
        s.push('…');
    }
    format!("{s:?}")
}

/// The `message` of an `{"error": {"message": ...}}` or `{"error": "..."}` object, if any.
pub fn error_message(v: &Value) -> Option<String> {
    let err = v.get("error")?;
    if let Some(s) = err.as_str() {
        return Some(s.to_string());
    }
    Some(err.get("message").and_then(Value::as_str).map_or_else(|| err.to_string(), str::to_string))
}

fn count(v: &Value, key: &str) -> Option<u64> {
    v.get(key).and_then(Value::as_u64)
}

/// One OpenAI-compatible SSE event's data.
pub fn openai_event(data: &str) -> Result<Vec<Piece>, ProviderError> {
    let data = data.trim();
    if data == "[DONE]" {
        return Ok(vec![Piece::Done]);
    }
    if data.is_empty() {
        return Ok(Vec::new());
    }
    let v = parse("chat.completion.chunk", data)?;
    if let Some(message) = error_message(&v) {
        return Err(ProviderError::Server { message });
    }
    let mut pieces = Vec::new();
    match v.get("choices") {
        None | Some(Value::Null) => {}
        Some(Value::Array(choices)) => {
            for choice in choices.iter().filter(|c| count(c, "index").unwrap_or(0) == 0) {
                if let Some(text) = choice.pointer("/delta/content").and_then(Value::as_str)
                    && !text.is_empty()
                {
                    pieces.push(Piece::Text(text.to_string()));
                }
                if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
                    pieces.push(Piece::Stop(reason.to_string()));
                }
            }
        }
        Some(other) => {
            return Err(ProviderError::Malformed {
                event: "chat.completion.chunk".into(),
                message: format!("`choices` is not a list: {}", excerpt(&other.to_string())),
            });
        }
    }
    if let Some(u) = v.get("usage").filter(|u| u.is_object()) {
        pieces.push(Piece::Usage(Usage {
            input_tokens: count(u, "prompt_tokens"),
            output_tokens: count(u, "completion_tokens"),
        }));
    }
    Ok(pieces)
}

/// One Anthropic SSE event (`event:` name and data).
pub fn anthropic_event(event: &str, data: &str) -> Result<Vec<Piece>, ProviderError> {
    let name = if event.is_empty() { "message" } else { event };
    if data.trim().is_empty() {
        return Ok(Vec::new());
    }
    let v = parse(name, data)?;
    // The `type` field repeats the event name; trust it when the `event:` line is missing.
    let kind = v.get("type").and_then(Value::as_str).unwrap_or(name);
    let malformed = |what: &str| ProviderError::Malformed {
        event: kind.to_string(),
        message: format!("{what} in {}", excerpt(data)),
    };
    match kind {
        "error" => Err(ProviderError::Server {
            message: error_message(&v).unwrap_or_else(|| excerpt(data)),
        }),
        "message_start" => {
            let usage = v.pointer("/message/usage");
            Ok(usage
                .map(|u| {
                    vec![Piece::Usage(Usage {
                        input_tokens: count(u, "input_tokens"),
                        output_tokens: None,
                    })]
                })
                .unwrap_or_default())
        }
        "content_block_delta" => {
            let delta = v.get("delta").ok_or_else(|| malformed("no `delta`"))?;
            match delta.get("type").and_then(Value::as_str) {
                Some("text_delta") => {
                    let text = delta
                        .get("text")
                        .and_then(Value::as_str)
                        .ok_or_else(|| malformed("a text_delta without `text`"))?;
                    Ok(if text.is_empty() { Vec::new() } else { vec![Piece::Text(text.into())] })
                }
                // Thinking, tool input and signatures are not reply text.
                _ => Ok(Vec::new()),
            }
        }
        "message_delta" => {
            let mut pieces = Vec::new();
            if let Some(reason) = v.pointer("/delta/stop_reason").and_then(Value::as_str) {
                pieces.push(Piece::Stop(reason.to_string()));
            }
            if let Some(u) = v.get("usage") {
                pieces.push(Piece::Usage(Usage {
                    input_tokens: count(u, "input_tokens"),
                    output_tokens: count(u, "output_tokens"),
                }));
            }
            Ok(pieces)
        }
        "message_stop" => Ok(vec![Piece::Done]),
        _ => Ok(Vec::new()),
    }
}

/// A whole (non-streamed) JSON answer, from a server that ignored `stream: true`: an OpenAI
/// `chat.completion` or an Anthropic `message`. `None` when it is neither.
pub fn whole_response(v: &Value) -> Option<Vec<Piece>> {
    let mut pieces = Vec::new();
    if let Some(choice) = v.get("choices").and_then(Value::as_array).and_then(|c| c.first()) {
        let text = choice.pointer("/message/content").and_then(Value::as_str)?;
        pieces.push(Piece::Text(text.to_string()));
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            pieces.push(Piece::Stop(reason.to_string()));
        }
        if let Some(u) = v.get("usage").filter(|u| u.is_object()) {
            pieces.push(Piece::Usage(Usage {
                input_tokens: count(u, "prompt_tokens"),
                output_tokens: count(u, "completion_tokens"),
            }));
        }
    } else {
        let blocks = v.get("content").and_then(Value::as_array)?;
        let text: String = blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect();
        pieces.push(Piece::Text(text));
        if let Some(reason) = v.get("stop_reason").and_then(Value::as_str) {
            pieces.push(Piece::Stop(reason.to_string()));
        }
        if let Some(u) = v.get("usage").filter(|u| u.is_object()) {
            pieces.push(Piece::Usage(Usage {
                input_tokens: count(u, "input_tokens"),
                output_tokens: count(u, "output_tokens"),
            }));
        }
    }
    pieces.retain(|p| !matches!(p, Piece::Text(t) if t.is_empty()));
    pieces.push(Piece::Done);
    Some(pieces)
}

/// One Ollama NDJSON line.
pub fn ollama_line(line: &str) -> Result<Vec<Piece>, ProviderError> {
    if line.trim().is_empty() {
        return Ok(Vec::new());
    }
    let v = parse("chat", line)?;
    if let Some(message) = error_message(&v) {
        return Err(ProviderError::Server { message });
    }
    let mut pieces = Vec::new();
    if let Some(text) = v.pointer("/message/content").and_then(Value::as_str)
        && !text.is_empty()
    {
        pieces.push(Piece::Text(text.to_string()));
    }
    match v.get("done") {
        Some(Value::Bool(true)) => {
            if let Some(reason) = v.get("done_reason").and_then(Value::as_str) {
                pieces.push(Piece::Stop(reason.to_string()));
            }
            pieces.push(Piece::Usage(Usage {
                input_tokens: count(&v, "prompt_eval_count"),
                output_tokens: count(&v, "eval_count"),
            }));
            pieces.push(Piece::Done);
        }
        Some(Value::Bool(false)) | None => {}
        Some(other) => {
            return Err(ProviderError::Malformed {
                event: "chat".into(),
                message: format!("`done` is {other}, not true or false"),
            });
        }
    }
    Ok(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::ChatMessage;

    fn req() -> ChatRequest {
        ChatRequest {
            model: "m".into(),
            messages: vec![
                ChatMessage::new(Role::System, "sys"),
                ChatMessage::new(Role::User, "hi"),
            ],
            max_tokens: None,
            temperature: Some(0.0),
        }
    }

    #[test]
    fn bodies() {
        let o = openai_body(&req());
        assert_eq!(o["stream_options"]["include_usage"], true);
        assert_eq!(o["messages"][0]["role"], "system");
        let a = anthropic_body(&req());
        assert_eq!(a["system"], "sys");
        assert_eq!(a["messages"].as_array().map(Vec::len), Some(1));
        assert_eq!(a["max_tokens"], DEFAULT_MAX_TOKENS);
        let l = ollama_body(&req());
        assert_eq!(l["options"]["temperature"], 0.0);
    }

    #[test]
    fn openai_events() {
        let d = r#"{"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}"#;
        assert_eq!(openai_event(d).ok(), Some(vec![Piece::Text("Hi".into())]));
        let u = r#"{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":5}}"#;
        let usage = Usage { input_tokens: Some(3), output_tokens: Some(5) };
        assert_eq!(openai_event(u).ok(), Some(vec![Piece::Usage(usage)]));
        assert_eq!(openai_event("[DONE]").ok(), Some(vec![Piece::Done]));
        let e = openai_event(r#"{"choices":[{"delta":"#).err().map(|e| e.to_string());
        assert!(e.is_some_and(|m| m.contains("`chat.completion.chunk`")));
        let e = openai_event(r#"{"error":{"message":"boom"}}"#);
        assert!(matches!(e, Err(ProviderError::Server { message }) if message == "boom"));
    }

    #[test]
    fn anthropic_events() {
        let d =
            r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}"#;
        assert_eq!(
            anthropic_event("content_block_delta", d).ok(),
            Some(vec![Piece::Text("x".into())])
        );
        let m = r#"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":7}}"#;
        let got = anthropic_event("message_delta", m).ok().unwrap_or_default();
        assert_eq!(got[0], Piece::Stop("end_turn".into()));
        let e = anthropic_event(
            "error",
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
        );
        assert!(matches!(e, Err(ProviderError::Server { message }) if message == "Overloaded"));
        let bad = anthropic_event("content_block_delta", "{not json").err().map(|e| e.to_string());
        assert!(bad.is_some_and(|m| m.contains("`content_block_delta`")));
        assert_eq!(anthropic_event("ping", r#"{"type":"ping"}"#).ok(), Some(vec![]));
    }

    #[test]
    fn whole_answers() {
        let o =
            serde_json::json!({"choices":[{"message":{"content":"hi"},"finish_reason":"stop"}]});
        let got = whole_response(&o).unwrap_or_default();
        assert_eq!(got[0], Piece::Text("hi".into()));
        assert_eq!(got.last(), Some(&Piece::Done));
        let a = serde_json::json!({"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],"stop_reason":"end_turn"});
        assert_eq!(whole_response(&a).unwrap_or_default()[0], Piece::Text("ab".into()));
        assert_eq!(whole_response(&serde_json::json!({"x": 1})), None);
    }

    #[test]
    fn a_surrogate_pair_split_across_events_is_joined() {
        let mut s = Surrogates::default();
        let first = r#"{"choices":[{"index":0,"delta":{"content":"flag \ud83c"}}]}"#;
        let second = r#"{"choices":[{"index":0,"delta":{"content":"\uddf7 done"}}]}"#;
        assert!(openai_event(first).is_err(), "a lone surrogate alone is refused by serde_json");
        let a = openai_event(&s.join(first)).ok();
        let b = openai_event(&s.join(second)).ok();
        assert_eq!(a, Some(vec![Piece::Text("flag ".into())]));
        assert_eq!(b, Some(vec![Piece::Text("\u{1F1F7} done".into())]));
        // A whole pair, other escapes and escaped backslashes pass untouched.
        let whole = r#"{"choices":[{"delta":{"content":"\ud83c\uddf7 \u00e9 \\ud83c"}}]}"#;
        assert!(matches!(s.join(whole), Cow::Borrowed(_)));
        let got = openai_event(&s.join(whole)).ok();
        assert_eq!(got, Some(vec![Piece::Text("\u{1F1F7} é \\ud83c".into())]));
        // A lone surrogate in the middle of a string, or a low one with no high before it.
        let lone = r#"{"choices":[{"delta":{"content":"a\ud83cb \udc00"}}]}"#;
        let got = openai_event(&s.join(lone)).ok();
        assert_eq!(got, Some(vec![Piece::Text("a\u{FFFD}b \u{FFFD}".into())]));
    }

    #[test]
    fn ollama_lines() {
        let l = r#"{"message":{"role":"assistant","content":"a"},"done":false}"#;
        assert_eq!(ollama_line(l).ok(), Some(vec![Piece::Text("a".into())]));
        let end = r#"{"message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":4,"eval_count":9}"#;
        let got = ollama_line(end).ok().unwrap_or_default();
        assert_eq!(got.last(), Some(&Piece::Done));
        assert!(
            got.contains(&Piece::Usage(Usage { input_tokens: Some(4), output_tokens: Some(9) }))
        );
    }
}
