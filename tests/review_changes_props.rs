//! Property tests of files that change under review: a model's edit of a generated file is
//! under review when another program edits the same file (inserting, deleting, or changing
//! lines in place as a person does). Whatever the two edits are:
//! - a hunk that stays pending, once accepted, keeps every line the other program wrote and
//!   brings back none it removed or changed (unless the model's own new text holds it);
//! - a hunk whose lines the other program did not come near stays pending (no needless
//!   conflicts);
//! - a conflict is never written.

mod common;

use std::collections::BTreeMap;

use common::generate::{Lines, code_lines, config, joined, udiff_reply};
use proptest::collection::vec;
use proptest::prelude::*;
use redline::core::execute::After;
use redline::core::file::Source;
use redline::core::parse::{ParseOptions, parse_reply};
use redline::core::review::{Effect, HunkState, Review};

/// An edit of `lines`: `del` lines from `at` replaced by `ins` new lines named `prefix`.
fn splice(
    lines: &[String],
    at: usize,
    del: usize,
    ins: &[u16],
    prefix: &str,
) -> (Vec<String>, (usize, usize)) {
    let start = at % (lines.len() + 1);
    let del = del.min(lines.len() - start);
    let mut out = lines.to_vec();
    let added: Vec<String> =
        ins.iter().enumerate().map(|(k, n)| format!("{prefix}_{k}_{n} = {prefix}({n})")).collect();
    out.splice(start..start + del, added);
    (out, (start, start + del))
}

/// Another program's edit of `lines`: a splice as above, or (`touch`) `del` lines from `at`
/// changed in place, as a person edits (a comment appended).
fn their_edit(
    lines: &[String],
    at: usize,
    del: usize,
    ins: &[u16],
    touch: bool,
) -> (Vec<String>, (usize, usize)) {
    if !touch {
        return splice(lines, at, del, ins, "theirs");
    }
    let start = at % lines.len();
    let end = (start + del.max(1)).min(lines.len());
    let mut out = lines.to_vec();
    for (k, l) in out[start..end].iter_mut().enumerate() {
        l.push_str(&format!("  # theirs {k}"));
    }
    (out, (start, end))
}

type Edits = (Vec<String>, (usize, usize, Vec<u16>), (usize, usize, Vec<u16>, bool));

fn edits() -> impl Strategy<Value = Edits> {
    (
        code_lines(Lines::Spaced, 8..50),
        (any::<usize>(), 0usize..3, vec(0u16..3000, 1..3)),
        (any::<usize>(), 0usize..4, vec(0u16..3000, 0..4), any::<bool>()),
    )
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn another_programs_edit_is_kept_or_the_hunk_is_a_conflict(
        (file, (m_at, m_del, m_ins), (o_at, o_del, o_ins, touch)) in edits()
    ) {
        let (model, _) = splice(&file, m_at, m_del, &m_ins, "proposed");
        let (other, (o_start, o_end)) = their_edit(&file, o_at, o_del, &o_ins, touch);
        prop_assume!(model != file && other != file);
        let (original, theirs) = (joined(&file), joined(&other));
        let reply = udiff_reply(&original, &joined(&model), 2);
        let mut review = Review::new(
            vec!["f.rb".into()],
            BTreeMap::from([("f.rb".to_string(), Source::Text(original.clone()))]),
        );
        for event in parse_reply(&reply, ParseOptions::default()) {
            review.add_event(event);
        }
        let placed: Vec<_> = review
            .hunks()
            .iter()
            .filter(|h| h.state == HunkState::Pending)
            .map(|h| (h.id, h.report.lines.unwrap()))
            .collect();
        review.file_changed("f.rb", Source::Text(theirs.clone()));
        for (id, (a, b)) in placed {
            let state = review.hunk(id).unwrap().state.clone();
            // Lines a..=b (1-based) were the hunk's; the other edit touched o_start..o_end
            // (0-based), or inserted at o_start. A line apart, they cannot meet.
            let apart = o_end + 1 < a || o_start > b + 1;
            if apart {
                prop_assert_eq!(&state, &HunkState::Pending, "needless conflict");
            }
            let mut r = review.clone();
            match r.accept(id) {
                None => prop_assert!(!matches!(state, HunkState::Pending), "a pending hunk is accepted"),
                Some(Effect::Write { expected, text, .. }) => {
                    prop_assert!(!state.is_conflict(), "a conflict was written");
                    prop_assert_eq!(expected.as_deref(), Some(theirs.as_str()));
                    for line in other.iter().filter(|l| l.contains("theirs")) {
                        prop_assert!(text.lines().any(|t| t == line), "their line {line:?} was lost:\n{text}");
                    }
                    let removed = &file[o_start..o_end];
                    for line in removed {
                        let in_model = model.iter().any(|m| m == line);
                        let in_theirs = other.iter().any(|m| m == line);
                        if !in_model && !in_theirs {
                            prop_assert!(!text.lines().any(|t| t == line), "a line they removed came back: {line:?}");
                        }
                    }
                    r.write_done("f.rb", After::Text(text));
                }
                Some(other) => prop_assert!(false, "unexpected effect {other:?}"),
            }
        }
    }
}
