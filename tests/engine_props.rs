//! Property tests of the engine: the parsers never panic; streaming in arbitrary chunks equals
//! parsing the whole; an edit rendered as a unified diff or a SEARCH/REPLACE block (clean, or with
//! the usual slips: re-indented, trailing whitespace, a miscopied line) yields exactly the edited
//! file or a refusal, never other text; twin blocks are refused as ambiguous; an exact hunk
//! applies to exactly its target; refused edits write nothing.
//!
//! The "never silently wrong" properties run on files whose repeated lines never sit side by side
//! (`Lines::Spaced`); `engine_regressions.rs` runs them on files with runs of equal lines too.
//! `cargo test` runs fixed cases (the seed in `common::generate::config`);
//! `PROPTEST_CASES=5000 PROPTEST_RNG_SEED=$RANDOM cargo test --test engine_props` hunts new ones.

mod common;

use common::generate::{
    Lines, code_lines, config, file_and_edit, hunk_ranges, joined, outcome_on, soup, udiff_reply,
};

use std::collections::BTreeMap;

use proptest::collection::vec;
use proptest::prelude::*;
use redline::core::apply::apply_hunk;
use redline::core::edit::{Change, Edit, Format, Hunk, PathSource};
use redline::core::execute::run as execute;
use redline::core::execute::{After, Placed, apply_each, apply_single};
use redline::core::file::Source;
use redline::core::locate::{RefusalKind, locate};
use redline::core::parse::{Event, ParseOptions, parse_reply};
use redline::core::plan::{FormatChoice, plan};
use redline::core::report::Status;
use redline::core::stream::StreamParser;
use redline::core::text::TextFile;

// ---------------------------------------------------------------------------------------------
// (a) + (b): the parsers
// ---------------------------------------------------------------------------------------------

fn stream_events(reply: &str, cuts: &[usize]) -> (Vec<Event>, bool) {
    let bytes = reply.as_bytes();
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    points.push(0);
    points.push(bytes.len());
    points.sort_unstable();
    points.dedup();
    let mut p = StreamParser::new(ParseOptions::default());
    let mut events = Vec::new();
    let mut monotone = true;
    let mut last = 0;
    for w in points.windows(2) {
        events.extend(p.push_bytes(&bytes[w[0]..w[1]]));
        monotone &= p.edits() >= last;
        last = p.edits();
    }
    events.extend(p.finish());
    monotone &= p.edits() >= last;
    let counted = events.iter().filter(|e| matches!(e, Event::Edit(_))).count();
    (events, monotone && counted == p.edits())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn parsing_arbitrary_text_never_panics(reply in any::<String>()) {
        let whole = parse_reply(&reply, ParseOptions::default());
        let (streamed, _) = stream_events(&reply, &[reply.len() / 2]);
        prop_assert_eq!(streamed.len(), whole.len());
    }

    #[test]
    fn parsing_marker_soups_never_panics_in_any_format(reply in soup()) {
        for only in [None, Some(Format::Udiff), Some(Format::SearchReplace), Some(Format::Whole)] {
            let options = ParseOptions { only, known_paths: vec!["x.py".into()] };
            let _ = parse_reply(&reply, options);
        }
    }

    #[test]
    fn streaming_in_any_chunks_gives_the_events_of_the_whole_reply(
        reply in prop_oneof![soup(), any::<String>()],
        cuts in vec(any::<usize>(), 0..24),
    ) {
        let whole = parse_reply(&reply, ParseOptions::default());
        let (streamed, monotone) = stream_events(&reply, &cuts);
        prop_assert!(monotone, "the count of finished edits went down or miscounted");
        prop_assert_eq!(streamed, whole);
    }

    #[test]
    fn streaming_byte_by_byte_gives_the_events_of_the_whole_reply(reply in soup()) {
        let whole = parse_reply(&reply, ParseOptions::default());
        let cuts: Vec<usize> = (0..reply.len()).collect();
        let (streamed, monotone) = stream_events(&reply, &cuts);
        prop_assert!(monotone);
        prop_assert_eq!(streamed, whole);
    }
}

// ---------------------------------------------------------------------------------------------
// (c) never silently wrong, (d) ambiguity, (e) exact hunks, (f) refusals write nothing
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn a_unified_diff_with_context_gives_the_edited_file_or_a_refusal(
        (old, new) in file_and_edit(Lines::Spaced),
        radius in 1usize..4,
    ) {
        let (old, new) = (joined(&old), joined(&new));
        let reply = udiff_reply(&old, &new, radius);
        if let Some(got) = outcome_on(&old, &reply)? {
            prop_assert_eq!(got, new, "reply:\n{}", reply);
        }
    }

    #[test]
    fn a_search_replace_block_gives_the_edited_file_or_a_refusal(
        (old, new) in file_and_edit(Lines::Spaced),
        radius in 1usize..4,
    ) {
        let (old_text, new_text) = (joined(&old), joined(&new));
        let new_lines: Vec<&str> = new_text.lines().collect();
        let old_lines: Vec<&str> = old_text.lines().collect();
        let ranges = hunk_ranges(&old_text, &new_text, radius);
        prop_assume!(ranges.len() == 1);
        for (o, n) in ranges {
            let search: String = old_lines[o].iter().map(|l| format!("{l}\n")).collect();
            let replace: String = new_lines[n].iter().map(|l| format!("{l}\n")).collect();
            let reply = common::search_replace("f.rb", &search, &replace);
            if let Some(got) = outcome_on(&old_text, &reply)? {
                prop_assert_eq!(got, new_text.clone(), "reply:\n{}", reply);
            }
        }
    }

    #[test]
    fn a_flawed_search_replace_block_gives_the_edited_file_or_a_refusal(
        (old, new) in file_and_edit(Lines::Spaced),
        radius in 2usize..4,
        indent in prop::bool::ANY,
        trailing in vec(prop::bool::weighted(0.3), 16),
        typo in any::<usize>(),
    ) {
        // The model's usual slips, all at once: every line indented 4 more, trailing whitespace
        // on some old lines, one unchanged line miscopied (in SEARCH and REPLACE alike).
        let (old_text, new_text) = (joined(&old), joined(&new));
        let ranges = hunk_ranges(&old_text, &new_text, radius);
        prop_assume!(ranges.len() == 1);
        let (o, n) = ranges[0].clone();
        let shift = |l: &String| if indent && !l.is_empty() { format!("    {l}") } else { l.clone() };
        let mut search: Vec<String> = old[o.clone()].iter().map(shift).collect();
        let mut replace: Vec<String> = new[n].iter().map(shift).collect();
        // Miscopy the first line if SEARCH and REPLACE share it and it is long enough to stay
        // recognisable.
        let miscopy = search.len() > 2
            && replace.first() == search.first()
            && search[0].trim().len() > 12
            && typo % 2 == 0;
        if miscopy {
            let bad = search[0].replacen("e", "3", 1);
            search[0] = bad.clone();
            replace[0] = bad;
        }
        // (Not on a miscopied line: SEARCH and REPLACE would then differ, and the miscopy would
        // be an intended change.)
        for (k, line) in search.iter_mut().enumerate() {
            if trailing[k % trailing.len()] && !(miscopy && k == 0) {
                line.push_str("  ");
            }
        }
        let reply = common::search_replace("f.rb", &joined(&search), &joined(&replace));
        if let Some(got) = outcome_on(&old_text, &reply)? {
            prop_assert_eq!(got, new_text, "reply:\n{}", reply);
        }
    }

    #[test]
    fn an_edit_of_a_file_of_distinct_lines_is_applied_exactly(
        (old, new) in file_and_edit(Lines::Unique),
        radius in 1usize..4,
    ) {
        let (old_text, new_text) = (joined(&old), joined(&new));
        let reply = udiff_reply(&old_text, &new_text, radius);
        let got = outcome_on(&old_text, &reply)?;
        prop_assert_eq!(got, Some(new_text), "reply:\n{}", reply);
    }

    #[test]
    fn an_exact_hunk_located_and_applied_gives_the_target(
        (old, new) in file_and_edit(Lines::Unique),
        radius in 1usize..4,
    ) {
        let (old_text, new_text) = (joined(&old), joined(&new));
        let mut file = TextFile::parse(&old_text);
        // Apply hunks bottom-up so that earlier ranges stay valid.
        let mut ranges = hunk_ranges(&old_text, &new_text, radius);
        ranges.reverse();
        for (o, n) in ranges {
            let hunk = Hunk::from_old_new(&old[o], &new[n]);
            let located = locate(&hunk, &file.lines, 0);
            prop_assert!(located.is_ok(), "refused: {:?}", located.err());
            let loc = located.expect("checked");
            apply_hunk(&mut file, &hunk, &loc);
        }
        prop_assert_eq!(file.render(), new_text);
    }

    #[test]
    fn old_text_inside_one_of_two_identical_blocks_is_refused_as_ambiguous(
        lines in code_lines(Lines::Unique, 12..40),
        block_len in 3usize..7,
        from in any::<usize>(),
        len in 1usize..4,
        changed in any::<usize>(),
    ) {
        // prefix, block, middle, block, suffix: all lines but the twins distinct.
        let block: Vec<String> =
            lines[..block_len].iter().map(|l| format!("{l}  # twin")).collect();
        let rest = &lines[block_len..];
        let third = rest.len() / 3;
        let mut file = rest[..third].to_vec();
        file.extend(block.iter().cloned());
        file.extend(rest[third..2 * third].iter().cloned());
        file.extend(block.iter().cloned());
        file.extend(rest[2 * third..].iter().cloned());
        let start = from % block_len;
        let end = (start + len).min(block_len);
        let search = &block[start..end];
        let mut replace = search.to_vec();
        let k = changed % replace.len();
        replace[k] = format!("{}  # changed", replace[k]);
        let hunk = Hunk::from_old_new(search, &replace);
        let err = locate(&hunk, &file, 0);
        prop_assert!(err.is_err(), "located {:?}", err);
        prop_assert_eq!(err.expect_err("checked").kind, RefusalKind::Ambiguous);
        let reply = common::search_replace("f.rb", &joined(search), &joined(&replace));
        prop_assert_eq!(outcome_on(&joined(&file), &reply)?, None);
    }

    #[test]
    fn hallucinated_edits_are_all_refused_and_write_nothing(
        file in code_lines(Lines::Spaced, 5..40),
        search in vec("zq[a-z]{3,10}_(x|y)\\(\\) == [0-9]{1,4}", 1..5),
        blocks in 1usize..4,
    ) {
        let mut reply = String::new();
        for b in 0..blocks {
            let s = joined(&search[b % search.len()..]);
            reply.push_str(&common::search_replace("f.rb", &s, "replaced = True\n"));
        }
        prop_assert_eq!(outcome_on(&joined(&file), &reply)?, None);
    }

    #[test]
    fn any_reply_writes_only_files_it_applied_an_edit_to(
        file in code_lines(Lines::Spaced, 0..30),
        reply in soup(),
    ) {
        let project = vec!["x.py".to_string(), "src/app.py".to_string()];
        let p = plan(&reply, FormatChoice::Auto, &project);
        let text = joined(&file);
        let sources: BTreeMap<String, Source> = p
            .paths_to_read()
            .into_iter()
            .map(|path| {
                let s = if project.contains(&path) {
                    Source::Text(text.clone())
                } else {
                    Source::Missing
                };
                (path, s)
            })
            .collect();
        let out = execute(&p, &sources);
        for w in &out.writes {
            prop_assert!(
                out.reports.iter().any(|r| r.status == Status::Placed && r.path == w.path()),
                "wrote {} without an applied edit: {:#?}",
                w.path(),
                out.reports
            );
        }
        if !out.reports.iter().any(|r| r.status == Status::Placed) {
            prop_assert!(out.writes.is_empty());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Placing many hunks of one file at once (a file changed under review) gives what placing each
// alone gives
// ---------------------------------------------------------------------------------------------

/// Code lines with closers (`}`, `end`, `)`) among them, which new lines at a hunk's end may move
/// past.
fn code_with_closers() -> impl Strategy<Value = Vec<String>> {
    (code_lines(Lines::Spaced, 5..50), vec((any::<usize>(), 0u8..4), 0..8)).prop_map(
        |(mut lines, closers)| {
            for (at, kind) in closers {
                let closer = ["}", "    }", "end", "  )"][kind as usize];
                let at = at % (lines.len() + 1);
                lines.insert(at, closer.to_string());
            }
            lines
        },
    )
}

/// An edit of `lines[at..at + len]`: one line replaced, or lines added at its end, maybe
/// re-indented or with trailing whitespace (the model's slips).
fn edit_of(lines: &[String], at: usize, len: usize, how: u8, marked: bool) -> Edit {
    let at = at % lines.len();
    let len = len.clamp(1, lines.len() - at);
    let slip = |l: &String| match how % 3 {
        1 if !l.is_empty() => format!("    {l}"),
        2 => format!("{l}  "),
        _ => l.clone(),
    };
    let old: Vec<String> = lines[at..at + len].iter().map(slip).collect();
    let mut new = old.clone();
    if how.is_multiple_of(2) {
        new[len / 2] = format!("{} # changed", new[len / 2].trim_end());
    } else {
        new.push("    added_line = fresh(1)".to_string());
    }
    let mut hunk = Hunk::from_old_new(&old, &new);
    hunk.marked = marked;
    Edit {
        path: "f.rb".into(),
        path_source: PathSource::PathLine,
        format: Format::SearchReplace,
        change: Change::Modify { hunk },
        reply_lines: (1, 1),
    }
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn placing_many_hunks_at_once_gives_what_placing_each_alone_gives(
        lines in code_with_closers(),
        edits in vec((any::<usize>(), 1usize..8, any::<u8>(), any::<bool>()), 1..6),
        inserted in 0usize..4,
        crlf in any::<bool>(),
        final_newline in any::<bool>(),
        bom in any::<bool>(),
        made_before in any::<bool>(),
    ) {
        let edits: Vec<Edit> =
            edits.into_iter().map(|(at, len, how, m)| edit_of(&lines, at, len, how, m)).collect();
        // One of the edits may have been made before (a retry round, a change taken out and put
        // back by git): both ways of placing must see that alike.
        let mut lines = lines;
        if made_before {
            let plain = Source::Text(lines.iter().map(|l| format!("{l}\n")).collect());
            if let (_, Some(After::Text(t))) = apply_single(&edits[0], "f.rb", &plain) {
                lines = t.lines().map(str::to_string).collect();
            }
        }
        // The file changed since the edits were written: lines inserted at the top, maybe CRLF,
        // maybe without a final newline or with a BOM.
        let mut now: Vec<String> = (0..inserted).map(|k| format!("import mod_{k}")).collect();
        now.extend(lines.iter().cloned());
        let eol = if crlf { "\r\n" } else { "\n" };
        let mut text: String = now.iter().map(|l| format!("{l}{eol}")).collect();
        if !final_newline {
            text.truncate(text.len() - eol.len());
        }
        if bom {
            text.insert(0, '\u{feff}');
        }
        let source = Source::Text(text);
        let before = match &source {
            Source::Text(t) => TextFile::parse(t),
            _ => unreachable!(),
        };
        let refs: Vec<&Edit> = edits.iter().collect();
        let all = apply_each(&refs, "f.rb", &source);
        prop_assert_eq!(all.len(), edits.len());
        for (edit, (report, placed)) in edits.iter().zip(all) {
            let (want_report, want_after) = apply_single(edit, "f.rb", &source);
            prop_assert_eq!(&report, &want_report);
            match (placed, want_after) {
                (None, None) => {}
                (Some(Placed::File(got)), Some(want)) => prop_assert_eq!(got, want),
                (Some(Placed::Lines { start, end, lines, eols }), Some(After::Text(want))) => {
                    let mut got = before.clone();
                    got.lines.splice(start..end, lines);
                    got.eols.splice(start..end, eols);
                    prop_assert_eq!(got.render(), want);
                }
                (got, want) => prop_assert!(false, "{got:?} != {want:?}"),
            }
        }
    }
}

/// The review places a hunk in a window of the lines it touches when it can; the refusals that
/// look at the whole file (the same text as written and shifted elsewhere, a place inside a
/// string while the code has it too) must send it the whole-file way, as `apply` goes.
#[test]
fn doubts_about_the_whole_file_are_the_same_in_the_review_window() {
    let cases: [(&str, &str, &str, &str); 2] = [
        (
            "compose.yml",
            "x-env: &env\n  LOG_LEVEL: info\n  QUEUE: jobs\n\nservices:\n  api:\n    environment:\n      LOG_LEVEL: info\n      QUEUE: jobs\n",
            "  LOG_LEVEL: info\n  QUEUE: jobs\n",
            "  LOG_LEVEL: debug\n  QUEUE: jobs\n",
        ),
        (
            "gen.py",
            "TEMPLATE = \"\"\"\ndef handler(event):\n    return process(event)\n\"\"\"\n\n\nasync def handler(event):\n    return process(event)\n",
            "def handler(event):\n    return process(event)\n",
            "def handler(event):\n    return await process(event)\n",
        ),
    ];
    for (path, text, search, replace) in cases {
        let (old, new): (Vec<String>, Vec<String>) = (
            search.lines().map(str::to_string).collect(),
            replace.lines().map(str::to_string).collect(),
        );
        let edit = Edit {
            path: path.into(),
            path_source: PathSource::PathLine,
            format: Format::SearchReplace,
            change: Change::Modify { hunk: Hunk::from_old_new(&old, &new) },
            reply_lines: (1, 1),
        };
        let source = Source::Text(text.to_string());
        let (want, _) = apply_single(&edit, path, &source);
        let (got, _) = apply_each(&[&edit], path, &source).remove(0);
        assert_eq!(want.status, Status::Refused, "{path}: {want:?}");
        assert_eq!(got, want, "{path}");
    }
}

/// The same lines as written in one function and shifted in a method: a header's line number
/// pointing at the exact copy settles it, unless its section heading names a function the file
/// no longer has (a stale header: its number is stale too).
#[test]
fn a_stale_header_does_not_settle_a_shifted_twin() {
    let text = "def load(path):\n    data = read(path)\n    return parse(data)\n\n\nclass Store:\n    def load(self, path):\n        data = read(path)\n        return parse(data)\n";
    let diff = |heading: &str| {
        let old = ["    data = read(path)", "    return parse(data)"];
        let new = ["    data = read(path)", "    return parse(data, strict=True)"];
        let mut hunk = Hunk::from_old_new(
            &old.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            &new.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        );
        hunk.old_start_hint = Some(2);
        hunk.section = Some(heading.to_string());
        Edit {
            path: "store.py".into(),
            path_source: PathSource::PathLine,
            format: Format::Udiff,
            change: Change::Modify { hunk },
            reply_lines: (1, 1),
        }
    };
    let source = Source::Text(text.to_string());
    let (fresh, _) = apply_single(&diff("def load(path):"), "store.py", &source);
    assert!(fresh.status.is_placed(), "{fresh:?}");
    let (stale, _) = apply_single(&diff("def fetch(path):"), "store.py", &source);
    assert_eq!(stale.status, Status::Refused, "{stale:?}");
}
