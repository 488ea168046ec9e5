//! A scripted HTTP server on loopback for the tests that need answers no mock server gives (an
//! endless stream, keep-alive comments only, an HTML page, a key echoed back): each connection
//! gets its request read, then is handed to the test's script on a thread of its own. Stops
//! accepting when dropped.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// What the client sent: the request line and the body.
#[derive(Debug, Clone)]
pub struct Request {
    pub line: String,
    pub body: String,
}

pub struct Loopback {
    pub port: u16,
    stop: Arc<AtomicBool>,
}

impl Drop for Loopback {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Loopback {
    /// Serve every connection with `script`.
    pub fn start(script: impl Fn(Request, TcpStream) + Send + Sync + 'static) -> Loopback {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let port = listener.local_addr().expect("address").port();
        listener.set_nonblocking(true).expect("nonblocking");
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let script = Arc::new(script);
        std::thread::spawn(move || {
            while !flag.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((mut stream, _)) => {
                        let _ = stream.set_nonblocking(false);
                        let _ = stream.set_nodelay(true);
                        let script = Arc::clone(&script);
                        std::thread::spawn(move || {
                            if let Some(request) = read_request(&mut stream) {
                                script(request, stream);
                            }
                        });
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Loopback { port, stop }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

fn read_request(stream: &mut TcpStream) -> Option<Request> {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&buf).to_string();
        let Some(end) = text.find("\r\n\r\n") else { continue };
        let length = text[..end]
            .lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case("content-length").then(|| v.trim().parse().ok())?
            })
            .unwrap_or(0usize);
        if buf.len() >= end + 4 + length {
            let line = text.lines().next().unwrap_or("").to_string();
            return Some(Request { line, body: text[end + 4..].to_string() });
        }
    }
}

/// A whole response with `Connection: close`.
pub fn respond(mut stream: TcpStream, status: &str, content_type: &str, body: &str) {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body.as_bytes());
}

/// The head of an SSE response (the body runs until the connection closes).
pub fn sse_head(stream: &mut TcpStream) -> bool {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n";
    stream.write_all(head.as_bytes()).is_ok()
}

/// One OpenAI chat completion chunk carrying `text`.
pub fn openai_text(text: &str) -> String {
    let chunk = serde_json::json!({
        "id": "c", "object": "chat.completion.chunk", "model": "mock",
        "choices": [{ "index": 0, "delta": { "content": text }, "finish_reason": null }],
    });
    format!("data: {chunk}\n\n")
}

/// The end of an OpenAI stream: a stop reason and `[DONE]`.
pub fn openai_end() -> String {
    let chunk = serde_json::json!({
        "id": "c", "object": "chat.completion.chunk", "model": "mock",
        "choices": [{ "index": 0, "delta": {}, "finish_reason": "stop" }],
    });
    format!("data: {chunk}\n\ndata: [DONE]\n\n")
}

/// Write `text` and flush; false once the client is gone.
pub fn send(stream: &mut TcpStream, text: &str) -> bool {
    stream.write_all(text.as_bytes()).and_then(|_| stream.flush()).is_ok()
}
