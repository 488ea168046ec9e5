//! Property tests of the incremental parser: a reply split at arbitrary byte positions gives
//! exactly the events of the whole reply, and the count of finished edits never goes down.
//!
//! Replies are assembled from fragments of every format (with CRLF, multi-byte characters,
//! unterminated blocks), so that cuts fall inside markers, inside characters and between `\r`
//! and `\n`.

use proptest::prelude::*;
use redline::core::parse::{Event, ParseOptions, Parser, parse_reply};
use redline::core::stream::StreamParser;

const FRAGMENTS: &[&str] = &[
    "Here is the change to `src/app.py`:\n\n",
    "Some prose with ünïcödé — and € signs.\n",
    "src/app.py\n```python\n<<<<<<< SEARCH\ndef f():\n    return 1\n=======\ndef f():\n    return 2\n>>>>>>> REPLACE\n```\n",
    "lib/ç.rs\r\n```rust\r\n<<<<<<< SEARCH\r\nlet x = 'é';\r\n=======\r\nlet x = '€';\r\n>>>>>>> REPLACE\r\n```\r\n",
    "```diff\n--- a/b.py\n+++ b/b.py\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n\n d\n@@ -10 +10 @@\n-e\n+f\n```\n",
    "--- a/c.py\n+++ b/c.py\n@@\n x\n-y\n+z\nThat was unfenced.\n",
    "```diff\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n```\n",
    "docs/guide.md\n````markdown\n# Guide\n```sh\nmake\n```\n````\n",
    "```bash\ncargo test\n```\n",
    "<<<<<<< SEARCH\nno path here\n=======\nstill none\n>>>>>>> REPLACE\n",
    "```\n<<<<<<< SEARCH\nunfinished",
    "```diff\n--- a/d.py\n+++ b/d.py\n@@\n-cut\n+off",
    "src/app.py\n<source python>\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n=======\n>>>>>>> REPLACE\n</source>\n",
    "```diff\n--- a/old.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n```\n",
    "--- a/e.py\n+++ b/e.py\n@@ -1,4 +1,4 @@\n a\n-b\n+c\n",
    "When you run `main.py` you will see:\n\n```\nHello\n```\n",
    "\r\n",
    "trailing text without a newline",
];

fn reply() -> impl Strategy<Value = String> {
    prop::collection::vec(0..FRAGMENTS.len(), 1..12)
        .prop_map(|picks| picks.into_iter().map(|i| FRAGMENTS[i]).collect::<String>())
}

/// A reply and sorted cut positions in it (any byte offset, even inside a character).
fn reply_and_cuts() -> impl Strategy<Value = (String, Vec<usize>)> {
    reply().prop_flat_map(|r| {
        let len = r.len();
        (Just(r), prop::collection::vec(0..=len, 0..40))
    })
}

/// A reply with invalid UTF-8 in it: fragments and stray bytes (a lone continuation byte, a cut
/// two-byte character, a byte never valid in UTF-8).
fn byte_reply() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        (0..FRAGMENTS.len()).prop_map(|i| FRAGMENTS[i].as_bytes().to_vec()),
        Just(b"x = '\x80'\n".to_vec()),
        Just(b"\xc3".to_vec()),
        Just(b"\xff\xfe\n".to_vec()),
    ];
    prop::collection::vec(piece, 1..12).prop_map(|v| v.concat())
}

/// What the parser makes of `bytes` read line by line, each line decoded on its own with
/// U+FFFD for bad bytes.
fn reference(bytes: &[u8]) -> Vec<Event> {
    let mut parser = Parser::new(ParseOptions::default());
    let mut events = Vec::new();
    let mut lines: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    for line in lines {
        events.extend(parser.push_line(&String::from_utf8_lossy(line)));
    }
    events.extend(parser.finish());
    events
}

fn edits_in(events: &[Event]) -> usize {
    events.iter().filter(|e| matches!(e, Event::Edit(_))).count()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn any_split_gives_the_events_of_the_whole((reply, mut cuts) in reply_and_cuts()) {
        let whole = parse_reply(&reply, ParseOptions::default());
        cuts.sort_unstable();
        let bytes = reply.as_bytes();
        let mut parser = StreamParser::new(ParseOptions::default());
        let mut got = Vec::new();
        let mut last = 0;
        let mut edits_seen = 0;
        for cut in cuts.into_iter().chain(std::iter::once(bytes.len())) {
            got.extend(parser.push_bytes(&bytes[last..cut]));
            last = cut;
            prop_assert!(parser.edits() >= edits_seen, "the edit count went down");
            edits_seen = parser.edits();
            prop_assert_eq!(parser.edits(), edits_in(&got));
            prop_assert_eq!(parser.bytes(), cut);
        }
        got.extend(parser.finish());
        prop_assert!(parser.edits() >= edits_seen);
        prop_assert_eq!(parser.edits(), edits_in(&whole));
        prop_assert_eq!(got, whole);
    }

    #[test]
    fn fixed_size_chunks_give_the_events_of_the_whole(reply in reply(), size in 1usize..16) {
        let whole = parse_reply(&reply, ParseOptions::default());
        let mut parser = StreamParser::new(ParseOptions::default());
        let mut got = Vec::new();
        for chunk in reply.as_bytes().chunks(size) {
            got.extend(parser.push_bytes(chunk));
        }
        got.extend(parser.finish());
        prop_assert_eq!(got, whole);
    }

    #[test]
    fn invalid_utf8_is_replaced_line_by_line_wherever_the_cuts(
        bytes in byte_reply(),
        mut cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..20),
    ) {
        let want = reference(&bytes);
        let mut cuts: Vec<usize> = cuts.drain(..).map(|i| i.index(bytes.len() + 1)).collect();
        cuts.sort_unstable();
        let mut parser = StreamParser::new(ParseOptions::default());
        let mut got = Vec::new();
        let mut last = 0;
        for cut in cuts.into_iter().chain(std::iter::once(bytes.len())) {
            got.extend(parser.push_bytes(&bytes[last..cut]));
            last = cut;
        }
        got.extend(parser.finish());
        prop_assert_eq!(got, want);
    }
}

/// A large multi-file diff as `git diff` writes it between two tags: modified, new, deleted,
/// renamed and binary files; CRLF files; `\ No newline at end of file`; multi-byte characters;
/// context lines that quote fences, SEARCH markers and diff headers; several hunks per file.
fn git_diff(files: usize, seed: u64) -> String {
    let mut rng = seed;
    let mut next = move |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let bodies = [
        "let x = 1;",
        "```rust",
        "<<<<<<< SEARCH",
        "=======",
        "--- a/elsewhere.rs",
        "+++ b/elsewhere.rs",
        "@@ not a header",
        "ünïcödé — € ✓",
        "",
        "    indented()",
        "diff --git a/x b/x",
        "} else {",
    ];
    let mut out = String::new();
    for f in 0..files {
        let path = format!("src/dir_{}/file_{f}.rs", f % 7);
        let eol = if next(5) == 0 { "\r\n" } else { "\n" };
        let line = |k: u64| bodies[k as usize % bodies.len()];
        match next(10) {
            0 => {
                out.push_str(&format!(
                    "diff --git a/{path} b/{path}\nnew file mode 100644\nindex 0000000..1111111\n\
                     --- /dev/null\n+++ b/{path}\n@@ -0,0 +1,3 @@\n"
                ));
                for k in 0..3 {
                    out.push_str(&format!("+{}{eol}", line(next(12) + k)));
                }
            }
            1 => {
                out.push_str(&format!(
                    "diff --git a/{path} b/{path}\ndeleted file mode 100644\nindex 1111111..0000000\n\
                     --- a/{path}\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-{}{eol}-{}{eol}",
                    line(next(12)),
                    line(next(12))
                ));
            }
            2 => out.push_str(&format!(
                "diff --git a/{path}.png b/{path}.png\nindex 1111111..2222222 100644\n\
                 Binary files a/{path}.png and b/{path}.png differ\n"
            )),
            3 => out.push_str(&format!(
                "diff --git a/{path} b/{path}.old\nsimilarity index 100%\nrename from {path}\n\
                 rename to {path}.old\n"
            )),
            _ => {
                out.push_str(&format!(
                    "diff --git a/{path} b/{path}\nindex 1111111..2222222 100644\n--- a/{path}\n\
                     +++ b/{path}\n"
                ));
                for h in 0..=next(3) {
                    let at = 10 + h * 40;
                    out.push_str(&format!("@@ -{at},4 +{at},4 @@ fn context_{h}()\n"));
                    out.push_str(&format!(" {}{eol}", line(next(12))));
                    out.push_str(&format!("-{}{eol}", line(next(12))));
                    out.push_str(&format!("+{}{eol}", line(next(12))));
                    out.push_str(&format!(" {}{eol} {}{eol}", line(next(12)), line(next(12))));
                    if next(6) == 0 {
                        out.push_str("\\ No newline at end of file\n");
                    }
                }
            }
        }
    }
    out
}

/// Issue 14: a large diff streamed in 20-character chunks (as the review screen receives a
/// reply) must give the same edits as parsing it whole, fenced or not.
#[test]
fn a_large_git_diff_parses_the_same_in_20_character_chunks() {
    for seed in [1, 7, 1414] {
        let diff = git_diff(1_500, seed);
        for reply in [diff.clone(), format!("Here it is:\n\n```diff\n{diff}```\nDone.\n")] {
            let whole = parse_reply(&reply, ParseOptions::default());
            assert!(edits_in(&whole) > 1_000, "{}", edits_in(&whole));
            let chars: Vec<char> = reply.chars().collect();
            for size in [20, 7, 4096] {
                let mut parser = StreamParser::new(ParseOptions::default());
                let mut got = Vec::new();
                for piece in chars.chunks(size) {
                    got.extend(parser.push_str(&piece.iter().collect::<String>()));
                }
                got.extend(parser.finish());
                assert_eq!(edits_in(&got), edits_in(&whole), "seed {seed}, chunks of {size}");
                assert!(got == whole, "seed {seed}, chunks of {size}: the events differ");
            }
        }
    }
}
