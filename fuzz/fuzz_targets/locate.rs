//! Fuzzes planning and carrying out a reply: the input is split at its first NUL byte into a
//! file's text and a reply (both lossy UTF-8); `plan` + `execute` run with that file as the only
//! project file. Nothing may panic, and a refused reply must write nothing.
#![no_main]

use std::collections::BTreeMap;

use libfuzzer_sys::fuzz_target;
use redline::core::execute::run as execute;
use redline::core::file::Source;
use redline::core::plan::{plan, FormatChoice};
use redline::core::report::Status;

const PATH: &str = "src/app.py";

fuzz_target!(|data: &[u8]| {
    let (file, reply) = match data.iter().position(|b| *b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&data[..0], data),
    };
    let file = String::from_utf8_lossy(file).into_owned();
    let reply = String::from_utf8_lossy(reply);
    let project = vec![PATH.to_string()];
    let the_plan = plan(&reply, FormatChoice::Auto, &project);
    let sources: BTreeMap<String, Source> = the_plan
        .paths_to_read()
        .into_iter()
        .map(|p| {
            let s = if p == PATH { Source::Text(file.clone()) } else { Source::Missing };
            (p, s)
        })
        .collect();
    let outcome = execute(&the_plan, &sources);
    for w in &outcome.writes {
        assert!(
            outcome.reports.iter().any(|r| r.status == Status::Applied && r.path == w.path()),
            "wrote {} without an applied edit",
            w.path()
        );
    }
});
