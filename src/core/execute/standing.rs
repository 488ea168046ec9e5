//! New lines an edit writes right beside a `...` that the file already has there: the stretch
//! the `...` stands for starts (or ends) with them, as the user or an earlier run wrote them.
//! Written again they would stand twice (`job.started_at = now()` added as the body's first
//! line, which it already is); they are taken out of the hunk, and the rest of it is made.
//!
//! Not for: an edit whose whole new text stands (`already`), or new lines beside lines the hunk
//! shows (those are found by `already` too, or are the hunk's to write).

use crate::core::edit::{Hunk, LineKind};
use crate::core::locate::{HunkSlot, Located};

use super::doubt::telling;

/// `parts` with the new lines that already stand at the edge of a stretch a `...` stands for
/// taken out.
pub(super) fn beside_elisions(
    parts: Vec<(Hunk, Located)>,
    lines: &[String],
) -> Vec<(Hunk, Located)> {
    parts.into_iter().map(|(h, l)| without_standing(h, l, lines)).collect()
}

fn without_standing(mut hunk: Hunk, mut loc: Located, lines: &[String]) -> (Hunk, Located) {
    let slots = &loc.slots;
    let added = |k: usize| slots[k] == HunkSlot::Add && hunk.lines[k].kind == LineKind::Add;
    let same = |k: usize, f: usize| hunk.lines[k].text.trim_end() == lines[f].trim_end();
    let mut standing = vec![false; slots.len()];
    for (k, slot) in slots.iter().enumerate() {
        let HunkSlot::Elided(s, e) = *slot else { continue };
        // The new lines right before the `...`, and right after it.
        let before: Vec<usize> = (0..k).rev().take_while(|&j| added(j)).collect();
        let after: Vec<usize> = (k + 1..slots.len()).take_while(|&j| added(j)).collect();
        let n = before.len();
        if n > 0 && n <= e - s && before.iter().rev().zip(s..).all(|(&j, f)| same(j, f)) {
            before.iter().for_each(|&j| standing[j] = true);
        }
        let n = after.len();
        if n > 0 && n <= e - s && after.iter().zip(e - n..).all(|(&j, f)| same(j, f)) {
            after.iter().for_each(|&j| standing[j] = true);
        }
    }
    // Only lines that say something: a blank line or a `}` stands everywhere.
    let says = (0..slots.len()).any(|k| standing[k] && telling(&hunk.lines[k].text));
    if !says {
        return (hunk, loc);
    }
    let keep = |k: &usize| !standing[*k];
    hunk.lines = (0..standing.len()).filter(keep).map(|k| hunk.lines[k].clone()).collect();
    loc.slots = (0..standing.len()).filter(keep).map(|k| loc.slots[k]).collect();
    (hunk, loc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::locate::locate;

    fn sr(old: &[&str], new: &[&str]) -> Hunk {
        let t = |v: &[&str]| v.iter().map(|l| l.to_string()).collect::<Vec<_>>();
        Hunk::from_old_new(&t(old), &t(new))
    }

    #[test]
    fn a_new_first_line_the_elided_body_starts_with_is_not_written_again() {
        let file: Vec<String> = [
            "def run(job):",
            "    job.started_at = now()",
            "    rows = job.query.all()",
            "    job.finished_at = now()",
            "    return job.url",
        ]
        .map(String::from)
        .to_vec();
        let hunk = sr(
            &["def run(job):", "    ...", "    job.finished_at = now()", "    return job.url"],
            &[
                "def run(job):",
                "    job.started_at = now()",
                "    ...",
                "    job.finished_at = now()",
                "    log.info(job.id)",
                "    return job.url",
            ],
        );
        let loc = locate(&hunk, &file, 0).unwrap();
        let [(h, l)]: [(Hunk, Located); 1] =
            beside_elisions(vec![(hunk.clone(), loc)], &file).try_into().unwrap();
        assert!(!h.lines.iter().any(|x| x.kind == LineKind::Add && x.text.contains("started_at")));
        assert!(h.lines.iter().any(|x| x.kind == LineKind::Add && x.text.contains("log.info")));
        assert_eq!(h.lines.len(), l.slots.len());
        // A new line the stretch does not start with is the edit's to write.
        let other = file.iter().map(|l| l.replace("started_at", "queued_at")).collect::<Vec<_>>();
        let loc = locate(&hunk, &other, 0).unwrap();
        let [(h, _)]: [(Hunk, Located); 1] =
            beside_elisions(vec![(hunk, loc)], &other).try_into().unwrap();
        assert!(h.lines.iter().any(|x| x.kind == LineKind::Add && x.text.contains("started_at")));
    }
}
