//! Fuzzes watch mode's comment triggers: the input is split at its first NUL byte into a file
//! name and a file's text (both lossy UTF-8). Finding comments and triggers never panics, and
//! taking a trigger out changes only its own line.
#![no_main]

use std::collections::BTreeSet;

use libfuzzer_sys::fuzz_target;
use redline::core::trigger::{find_triggers, remove_trigger, scan};

fuzz_target!(|data: &[u8]| {
    let (name, text) = match data.iter().position(|b| *b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&b"x.py"[..], data),
    };
    let name = String::from_utf8_lossy(name);
    let text = String::from_utf8_lossy(text);
    let _ = scan(&name, &text, &BTreeSet::new());
    for t in find_triggers(&name, &text) {
        if let Some(out) = remove_trigger(&text, &t) {
            // Counted by `\n`: a last line without one is a line too.
            let before = text.split('\n').count();
            let after = out.split('\n').count();
            assert!(after == before || after + 1 == before, "one line at most is removed");
        }
    }
});
