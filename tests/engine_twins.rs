//! Properties of the engine on files that invite wrong placements: near-twin functions, repeated
//! lines, CRLF, tabs and non-ASCII names, with replies carrying the defects models make (missing
//! context, a renamed local, a dedented block). An applied result must always be the intended
//! one; a refusal is allowed, but an engine that refuses everything fails the floor on how many
//! apply. And applying any reply a second time changes nothing.

mod common;

use std::collections::BTreeMap;

use proptest::prelude::*;
use redline::core::execute::run as execute;
use redline::core::file::{FileWrite, Source};
use redline::core::plan::{FormatChoice, plan};
use redline::core::report::Outcome;

use common::generate::{Lines, config, file_and_edit, joined, udiff_reply};

/// One function of a family of near-twins: the same shape, a different name and constant.
fn twin(name: &str, k: usize, tabs: bool, body_extra: bool) -> Vec<String> {
    let ind = if tabs { "\t" } else { "    " };
    let mut f = vec![
        format!("def {name}(items, limit={k}):"),
        format!("{ind}\"\"\"Return the items under {k}.\"\"\""),
        format!("{ind}result = []"),
        format!("{ind}for item in items:"),
        format!("{ind}{ind}if item < limit:"),
        format!("{ind}{ind}{ind}result.append(item)"),
    ];
    if body_extra {
        f.push(format!("{ind}log(\"{name}\")"));
    }
    f.push(format!("{ind}return result"));
    f.push(String::new());
    f
}

const NAMES: &[&str] =
    &["load_users", "load_groups", "löse_gruppen", "save_item", "save_thing", "zähle", "count"];

/// A file of near-twin functions, and the index of the one an edit targets.
fn twins_file() -> impl Strategy<Value = (Vec<String>, usize, bool)> {
    (2usize..5, any::<bool>(), any::<bool>(), any::<u8>()).prop_map(|(n, tabs, crlf, seed)| {
        let mut lines = Vec::new();
        for i in 0..n {
            let name = NAMES[(i + seed as usize) % NAMES.len()];
            lines.extend(twin(&format!("{name}_{i}"), 10 + i % 2, tabs, i % 2 == 0));
        }
        (lines, seed as usize % n, crlf)
    })
}

fn render(lines: &[String], crlf: bool) -> String {
    let eol = if crlf { "\r\n" } else { "\n" };
    lines.iter().map(|l| format!("{l}{eol}")).collect()
}

fn outcome(file: &str, reply: &str) -> Outcome {
    let project = vec!["f.py".to_string()];
    let p = plan(reply, FormatChoice::Auto, &project);
    let mut sources = BTreeMap::new();
    sources.insert("f.py".to_string(), Source::Text(file.to_string()));
    execute(&p, &sources)
}

/// The file after the outcome's write (or unchanged).
fn written(file: &str, out: &Outcome) -> String {
    match out.writes.first() {
        Some(FileWrite::Write { text, .. }) => text.clone(),
        Some(FileWrite::Delete { .. }) => String::new(),
        None => file.to_string(),
    }
}

/// How a reply quotes the target function: exactly, with a line left out, with the loop
/// variable renamed in one context line, or dedented.
#[derive(Debug, Clone, Copy)]
enum Defect {
    None,
    MissingLine,
    Renamed,
    Dedented,
}

fn defect() -> impl Strategy<Value = Defect> {
    prop_oneof![
        Just(Defect::None),
        Just(Defect::MissingLine),
        Just(Defect::Renamed),
        Just(Defect::Dedented)
    ]
}

/// A SEARCH/REPLACE reply that adds a line after the loop of function `target`, and the file it
/// should give.
fn twin_edit(lines: &[String], target: usize, d: Defect, crlf: bool) -> (String, String) {
    let starts: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with("def ")).collect();
    let s = starts[target];
    let e = starts.get(target + 1).copied().unwrap_or(lines.len());
    let func = &lines[s..e];
    let ret = func.iter().position(|l| l.trim() == "return result").expect("a return");
    let ind = if func[2].starts_with('\t') { "\t" } else { "    " };
    let new_line = format!("{ind}result.sort()");
    let mut search: Vec<String> = func[..=ret].to_vec();
    let mut replace = search.clone();
    replace.insert(ret, new_line.clone());
    match d {
        Defect::None => {}
        Defect::MissingLine => {
            // The docstring left out of both sides.
            search.remove(1);
            replace.remove(1);
        }
        Defect::Renamed => {
            for side in [&mut search, &mut replace] {
                side[3] = side[3].replace("item", "elem");
            }
        }
        Defect::Dedented => {
            for side in [&mut search, &mut replace] {
                for l in side.iter_mut() {
                    *l = l.strip_prefix(ind).unwrap_or(l).to_string();
                }
            }
        }
    }
    let block = |ls: &[String]| ls.iter().map(|l| format!("{l}\n")).collect::<String>();
    let reply = common::search_replace("f.py", &block(&search), &block(&replace));
    let mut want = lines.to_vec();
    want.insert(s + ret, new_line);
    (reply, render(&want, crlf))
}

proptest! {
    #![proptest_config(config(160))]

    #[test]
    fn near_twins_are_edited_right_or_refused(
        (lines, target, crlf) in twins_file(),
        d in defect(),
    ) {
        let file = render(&lines, crlf);
        let (reply, want) = twin_edit(&lines, target, d, crlf);
        let out = outcome(&file, &reply);
        if out.all_placed() {
            prop_assert_eq!(written(&file, &out), want, "reply:\n{}", reply);
        } else {
            prop_assert!(out.writes.is_empty());
        }
    }

    #[test]
    fn applying_a_reply_twice_changes_nothing_the_second_time(
        (lines, target, crlf) in twins_file(),
        d in defect(),
    ) {
        let file = render(&lines, crlf);
        let (reply, _) = twin_edit(&lines, target, d, crlf);
        let once = written(&file, &outcome(&file, &reply));
        let again = outcome(&once, &reply);
        prop_assert_eq!(written(&once, &again), once, "reply:\n{}", reply);
    }

    // Files of distinct lines: where the deleted lines recur elsewhere in the file (`pass`,
    // blank runs), a second application can find them there again; that case is open (see the
    // session note) and not asserted here.
    #[test]
    fn a_unified_diff_applied_twice_changes_nothing_the_second_time(
        (old, new) in file_and_edit(Lines::Unique),
        radius in 1usize..4,
    ) {
        let (old, new) = (joined(&old), joined(&new));
        let reply = udiff_reply(&old, &new, radius);
        let once = written(&old, &outcome(&old, &reply));
        let again = outcome(&once, &reply);
        prop_assert_eq!(written(&once, &again), once, "reply:\n{}", reply);
    }
}

/// The floor: an engine that refuses everything passes the properties above, so count how many
/// of a fixed sweep of twin edits apply (they are all placeable: the target's name and constant
/// tell it apart).
#[test]
fn most_near_twin_edits_apply() {
    let (mut applied, mut total) = (0, 0);
    for n in 2..5 {
        for tabs in [false, true] {
            for crlf in [false, true] {
                for seed in 0..7usize {
                    let mut lines = Vec::new();
                    for i in 0..n {
                        let name = NAMES[(i + seed) % NAMES.len()];
                        lines.extend(twin(&format!("{name}_{i}"), 10 + i % 2, tabs, i % 2 == 0));
                    }
                    for d in [Defect::None, Defect::MissingLine, Defect::Dedented] {
                        let target = seed % n;
                        let file = render(&lines, crlf);
                        let (reply, want) = twin_edit(&lines, target, d, crlf);
                        let out = outcome(&file, &reply);
                        total += 1;
                        if !out.all_placed() && std::env::var("TWIN_DEBUG").is_ok() {
                            eprintln!(
                                "{d:?} n={n} tabs={tabs} crlf={crlf}: {:?}",
                                out.reports[0].reason
                            );
                        }
                        if out.all_placed() {
                            assert_eq!(written(&file, &out), want, "reply:\n{reply}");
                            applied += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(applied * 10 >= total * 9, "only {applied} of {total} placeable twin edits applied");
}
