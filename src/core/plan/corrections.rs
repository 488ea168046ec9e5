//! Blocks the reply corrects after them without sending a corrected block: "Correction: that
//! block belongs in `worker/settings.py`, not `web/settings.py`", "Sorry, typo in the first
//! block: the limit should be **50**, not 500". What the block would write is what the model
//! says is wrong, so it is refused (the reason can go back to the model); the reply's other
//! blocks stand.
//!
//! A correction is told by what it rejects, not by its wording alone: a "not X" whose X is the
//! path a block edits, or text a block writes that its old text did not have. A sentence that
//! describes the edit ("`recieve` should be `receive`, not `recieve`") rejects the old text,
//! which the edit removes: no correction.
//!
//! Not for: blocks the reply replaces with another (`supersede`) or takes back in words
//! (`withdrawn`).

use super::{PlanItem, edit_spans, prose_as_written};
use crate::core::edit::Change;

/// The words that say the prose corrects something the reply said (lower case).
const CUES: &[&str] =
    &["correction", "typo", "mistake", "sorry", "should be", "should have been", "belongs in"];

/// Refuse each block rejected by a correction in the prose after it (up to the next block).
pub(super) fn corrected_after(items: &mut [PlanItem], reply: &[&str]) {
    let lines = reply.len();
    let spans = edit_spans(items);
    let mut rejected: Vec<(usize, String)> = Vec::new();
    for (i, span) in spans.iter().enumerate() {
        let Some((_, end)) = *span else { continue };
        let next_start = spans[i + 1..].iter().find_map(|s| s.map(|s| s.0)).unwrap_or(lines + 1);
        // (1-based lines: the prose after the block is lines end+1..next_start-1.)
        let prose = prose_as_written(reply, end, next_start).replace('’', "'");
        let lower = prose.to_lowercase();
        if !CUES.iter().any(|c| lower.contains(c)) {
            continue;
        }
        for wrong in rejected_texts(&prose) {
            for (j, item) in items[..=i].iter().enumerate() {
                if rejects(item, &wrong) && !rejected.iter().any(|(k, _)| *k == j) {
                    rejected.push((j, wrong.clone()));
                }
            }
        }
    }
    for (j, wrong) in rejected {
        if let PlanItem::Edit { edit, path, .. } = &items[j] {
            let reason = format!(
                "{path}: the reply corrects this block after it (\"not {wrong}\"): not applied; send the corrected block"
            );
            items[j] = PlanItem::Refused { edit: edit.clone(), reason };
        }
    }
}

/// The texts a sentence rejects: the word or quoted name after each "not " (`not 500`,
/// ``not `web/settings.py` ``, `not **500**`), without the marks around it.
fn rejected_texts(prose: &str) -> Vec<String> {
    let mut out = Vec::new();
    // Found in the prose itself, not in its lower case: lowering may change a character's
    // length in bytes (`İ`), and an offset into one is no offset into the other.
    let nots = prose
        .char_indices()
        .map(|(at, _)| at)
        .filter(|&at| prose.get(at..at + 4).is_some_and(|w| w.eq_ignore_ascii_case("not ")));
    for at in nots {
        let starts_word = at == 0 || !prose[..at].ends_with(|c: char| c.is_alphanumeric());
        if !starts_word {
            continue;
        }
        let rest = &prose[at + 4..];
        let token = rest.split_whitespace().next().unwrap_or("");
        let token = token
            .trim_end_matches(['.', ',', ';', ':', '!', '?', ')'])
            .trim_matches(['`', '*', '"', '\'', '_']);
        if token.chars().any(|c| c.is_alphanumeric()) {
            out.push(token.to_string());
        }
    }
    out
}

/// Whether a block is what `wrong` rejects: the path it edits, or a word its new text writes
/// that its old text does not have.
fn rejects(item: &PlanItem, wrong: &str) -> bool {
    let PlanItem::Edit { edit, path, .. } = item else { return false };
    if path == wrong || edit.path == wrong {
        return true;
    }
    let (old, new) = match &edit.change {
        Change::Modify { hunk } => (hunk.old_text(), hunk.new_text()),
        _ => return false,
    };
    let has = |text: &str| {
        text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .any(|w| w.trim_matches('.') == wrong)
    };
    has(&new) && !has(&old)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_a_not_rejects() {
        assert_eq!(
            rejected_texts(
                "Correction: it belongs in `worker/settings.py`, not `web/settings.py`."
            ),
            ["web/settings.py"]
        );
        assert_eq!(rejected_texts("the limit should be **50**, not 500. Nothing"), ["500"]);
        assert!(rejected_texts("this is nothing new").is_empty(), "inside a word");
        // Letters whose lower case is longer in bytes before it: no offset mixed up, no panic.
        assert_eq!(rejected_texts("İİİİ Not 500, İ"), ["500"]);
    }
}
