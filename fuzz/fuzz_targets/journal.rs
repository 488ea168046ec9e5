//! Fuzzes the session journal's reader: any bytes (a cut, damaged or foreign file) give the
//! records of a prefix of the lines and never panic; a replay script and a check built from them
//! never panic either.
#![no_main]

use libfuzzer_sys::fuzz_target;
use redline::app::replay::{Script, check};
use redline::core::session::read;

fuzz_target!(|data: &[u8]| {
    let journal = read(data);
    if let Ok(script) = Script::from_journal(&journal) {
        let _ = script.format();
    }
    let _ = check(&journal);
});
