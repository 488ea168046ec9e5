//! The loop with a disk that holds a write: input and drawing go on while the disk works.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use tokio::sync::mpsc;

use super::core::{Core, Log};
use super::disk::{Disk, MemoryDisk};
use super::screen::{Headless, Screen};
use super::{Io, Replies, event_loop};
use crate::app::{App, AppConfig, Msg, StreamDone};
use crate::core::file::{FileWrite, Source};
use crate::core::review::HunkId;
use crate::shell::workspace::WriteError;
use crate::ui::highlight::Highlighter;
use crate::ui::theme::Theme;

const FILE: &str = "a = 1\nb = 2\nc = 3\n";
const REPLY: &str = "f.py\n```\n<<<<<<< SEARCH\na = 1\n=======\na = 10\n>>>>>>> REPLACE\n```\n\nf.py\n```\n<<<<<<< SEARCH\nc = 3\n=======\nc = 30\n>>>>>>> REPLACE\n```\n";

/// Files in memory whose writes wait until the test lets each one through.
struct HeldDisk {
    files: MemoryDisk,
    started: mpsc::UnboundedSender<()>,
    release: Mutex<std::sync::mpsc::Receiver<()>>,
}

impl Disk for HeldDisk {
    fn read(&self, path: &str) -> Source {
        self.files.read(path)
    }

    fn write(&self, write: &FileWrite, expected: &Source) -> Result<(), WriteError> {
        let _ = self.started.send(());
        let _ = self.release.lock().unwrap().recv();
        self.files.write(write, expected)
    }

    fn put(&self, path: &str, source: &Source) -> Result<(), String> {
        self.files.put(path, source)
    }
}

/// A headless screen that counts its frames where the test can see them.
struct Counted(Headless, Arc<AtomicUsize>);

impl Screen for Counted {
    fn size(&self) -> anyhow::Result<(u16, u16)> {
        self.0.size()
    }
    fn draw(&mut self, app: &App, theme: &Theme, colors: &Highlighter) -> anyhow::Result<()> {
        self.1.fetch_add(1, Ordering::SeqCst);
        self.0.draw(app, theme, colors)
    }
    fn lend<T>(&mut self, f: impl FnOnce() -> T) -> anyhow::Result<Option<T>> {
        self.0.lend(f)
    }
}

/// The app with the reply's two hunks streamed in, nothing decided.
fn reviewed(now: Instant) -> App {
    let files = vec!["f.py".to_string()];
    let sources = BTreeMap::from([("f.py".to_string(), Source::Text(FILE.into()))]);
    let mut app =
        App::new(AppConfig { label: "test".into(), ..AppConfig::new(files, sources, "change") });
    app.start(now);
    app.update(Msg::Resize(100, 30), now);
    app.update_placed(Msg::Chunk(REPLY.into()), now);
    app.update_placed(Msg::StreamEnd(StreamDone::default()), now);
    assert_eq!(app.review.counts().pending, 2);
    app
}

fn key(c: char) -> std::io::Result<Event> {
    Ok(Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)))
}

/// What the test saw fed: each message, and the hunk selected after it.
type Seen = RefCell<Vec<(Msg, Option<HunkId>)>>;

async fn until(what: impl Fn() -> bool) {
    for _ in 0..500 {
        if what() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("timed out");
}

#[test]
fn keys_are_handled_and_frames_drawn_while_a_write_is_held() {
    let now = Instant::now();
    let mut app = reviewed(now);
    let (started_tx, mut started_rx) = mpsc::unbounded_channel();
    let (release_tx, release_rx) = std::sync::mpsc::channel();
    let disk = Arc::new(HeldDisk {
        files: MemoryDisk::new([("f.py".to_string(), Source::Text(FILE.into()))]),
        started: started_tx,
        release: Mutex::new(release_rx),
    });
    let frames = Arc::new(AtomicUsize::new(0));
    let (keys, mut keys_rx) = mpsc::unbounded_channel();
    let seen: Seen = RefCell::new(Vec::new());
    let mut observe = |fed: &super::core::Fed, app: &App| {
        seen.borrow_mut().push((fed.msg.clone(), app.selected));
    };
    let mut core = Core::new(&mut app, now, 0, Log::Off);
    core.observer = Some(&mut observe);
    let replies = Replies::Unavailable("no model in this test".into());
    let theme = Theme::plain();
    let io = Io {
        input: futures_util::stream::poll_fn(move |cx| keys_rx.poll_recv(cx)),
        reopen_input: None,
        screen: Counted(Headless::new(100, 30, true), frames.clone()),
        disk: disk.clone(),
        replies: &replies,
        theme: &theme,
        syntax_theme: None,
        watch: None,
        signals: None,
        ticks: true,
        end_when_idle: false,
        finish_held: true,
        show_recorded: None,
    };
    let script = async {
        let first = seen.borrow().len();
        keys.send(key('y')).unwrap();
        started_rx.recv().await.expect("the write starts");
        let drawn = frames.load(Ordering::SeqCst);
        let before = seen.borrow().last().and_then(|s| s.1);
        // The write is held: a key still moves the selection (accepting moved it on to the
        // second hunk; `k` goes back), and a frame shows it.
        keys.send(key('k')).unwrap();
        until(|| {
            let s = seen.borrow();
            s.len() > first + 1 && s.last().and_then(|x| x.1) != before
        })
        .await;
        until(|| frames.load(Ordering::SeqCst) > drawn).await;
        assert!(
            !seen.borrow().iter().any(|(m, _)| matches!(m, Msg::WriteDone { .. })),
            "the write is still held"
        );
        release_tx.send(()).unwrap();
        until(|| seen.borrow().iter().any(|(m, _)| matches!(m, Msg::WriteDone { .. }))).await;
        // The input ends: the loop returns.
        drop(keys);
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let (ending, ()) =
        runtime.block_on(async { tokio::join!(event_loop(&mut core, io, Vec::new()), script) });
    assert!(matches!(ending, Ok(super::Ending::Quit)));
    drop(core);
    assert_eq!(disk.files.read("f.py"), Source::Text("a = 10\nb = 2\nc = 3\n".into()));
    let order: Vec<&'static str> = seen
        .borrow()
        .iter()
        .filter_map(|(m, _)| match m {
            Msg::Key(_) => Some("key"),
            Msg::WriteDone { .. } => Some("written"),
            _ => None,
        })
        .collect();
    assert_eq!(order, ["key", "key", "written"]);
}
