//! An edit whose old text an earlier edit of the same reply changed at one of its places: "on
//! second thought, make it 60" re-quoting the original line, which stood in two functions. The
//! earlier edit changed the copy it meant; found now only at the other copy, the later edit
//! would land there, a twin the reply never meant. It is refused unless it makes there the very
//! change the earlier edit made (the same change at both places).
//!
//! Not for: an edit sent again (`already`), twins in the file as it is (`locate`).

use crate::core::edit::Hunk;
use crate::core::locate::lines::ratio;

/// Why `hunk`, found in the file as the reply's edits so far left it, may mean a place one of
/// them (`applied`) already changed: that edit's old text holds this one's, and its new text
/// holds a changed version of it and not this one's new lines. `None` when nothing says so.
pub(super) fn changed_by_an_earlier_edit(hunk: &Hunk, applied: &[Hunk]) -> Option<String> {
    let telling = |l: &&str| !l.trim().is_empty();
    let old: Vec<&str> = hunk.old_lines().filter(telling).map(str::trim).collect();
    let new: Vec<&str> = hunk.new_lines().filter(telling).map(str::trim).collect();
    if old.is_empty() || old == new {
        return None;
    }
    // Two hunks of a diff whose headers put their old lines at different places: a diff's
    // hunks are at distinct places by its form, neither re-quotes the other's.
    let span = |h: &Hunk| h.old_start_hint.map(|s| (s, s + h.old_lines().count().max(1)));
    let apart = |p: &Hunk| match (span(hunk), span(p)) {
        (Some((a, b)), Some((c, d))) => b <= c || d <= a,
        _ => false,
    };
    applied.iter().filter(|p| !apart(p)).find_map(|p| {
        let p_old: Vec<&str> = p.old_lines().filter(telling).map(str::trim).collect();
        let p_new: Vec<&str> = p.new_lines().filter(telling).map(str::trim).collect();
        if !holds(&p_old, &old) || holds(&p_new, &old) || holds(&p_new, &new) {
            return None;
        }
        // The earlier edit rewrote one of these lines (not only dropped it): what it wrote.
        let rewritten = old.iter().find_map(|o| {
            p_new.iter().find(|n| !p_old.contains(n) && alike(o, n)).map(|n| (o, n))
        })?;
        Some(format!(
            "its old text stood also where an edit above changed it ({:?} became {:?}): a correction of that edit, or the same change at another place? Send it with lines around it that tell",
            rewritten.0, rewritten.1
        ))
    })
}

/// Whether a line reads as another's rewrite: alike, or the first half of it kept (`get(url)`
/// given an argument more).
fn alike(old: &str, new: &str) -> bool {
    let kept = old.chars().zip(new.chars()).take_while(|(a, b)| a == b).count();
    ratio(old, new) >= 0.6 || 2 * kept >= old.chars().count()
}

/// Whether `lines` hold `run` as a run of consecutive lines.
fn holds(lines: &[&str], run: &[&str]) -> bool {
    !run.is_empty() && lines.windows(run.len()).any(|w| w == run)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hunk(old: &[&str], new: &[&str]) -> Hunk {
        let v = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
        Hunk::from_old_new(&v(old), &v(new))
    }

    #[test]
    fn a_later_edit_of_a_line_an_earlier_one_rewrote_is_doubted() {
        let first = hunk(
            &["def sync_orders(s):", "    r = get(url)"],
            &["def sync_orders(s):", "    r = get(url, timeout=10)"],
        );
        let later = hunk(&["    r = get(url)"], &["    r = get(url, timeout=60)"]);
        assert!(changed_by_an_earlier_edit(&later, std::slice::from_ref(&first)).is_some());
        // The same change at the other place: what the earlier edit made there.
        let same = hunk(&["    r = get(url)"], &["    r = get(url, timeout=10)"]);
        assert_eq!(changed_by_an_earlier_edit(&same, std::slice::from_ref(&first)), None);
        // An earlier edit of other lines says nothing.
        let other = hunk(&["x = 1"], &["x = 2"]);
        assert_eq!(changed_by_an_earlier_edit(&later, &[other]), None);
        // Hunks of a diff whose headers put them at different lines are different places.
        let (mut first, mut later) = (first, later);
        first.old_start_hint = Some(7);
        later.old_start_hint = Some(3);
        assert_eq!(changed_by_an_earlier_edit(&later, std::slice::from_ref(&first)), None);
        later.old_start_hint = Some(8);
        assert!(changed_by_an_earlier_edit(&later, std::slice::from_ref(&first)).is_some());
    }
}
