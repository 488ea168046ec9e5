//! Whole-file replies: replacing a file's text, and restoring the code a lazy listing left out
//! (`# ... rest of the code here ...`).
//!
//! A placeholder stands for the original lines between the anchored lines around it. Anchors are
//! runs of lines the listing shares with the original, found by a patience diff; inside each gap
//! between anchors, the aligner pairs modified lines with their originals and lets placeholders
//! absorb the rest. New lines between two placeholders with nothing anchored between them could go
//! anywhere: that is refused, as is a listing that would silently drop most of the file.

use crate::core::hash::HashMap;

use crate::core::locate::align::{self, PatLine, Slot};
use crate::core::locate::lines::{Likeness, LineInfo};
use crate::core::text::{NewLine, TextFile};

mod elided;
mod placeholders;
pub use elided::elides;
use placeholders::{exact_key, placeholders_of};
pub use placeholders::{is_comment, placeholders};

/// A whole-file merge's result.
#[derive(Debug, Clone, PartialEq)]
pub struct WholeMerge {
    pub lines: Vec<NewLine>,
    /// Whether placeholders were restored from the original.
    pub restored: bool,
    /// Share of the original's non-blank lines that the listing kept verbatim.
    pub kept_share: f64,
    /// Original lines (0-based) brought back for placeholders.
    pub restored_lines: Vec<usize>,
}

/// Merge a whole-file listing into the original text.
pub fn merge(original: &TextFile, listing: &str) -> Result<WholeMerge, String> {
    Listing::new(original, listing).merge()
}

/// A listing read against the original once: what its readings share (its lines compared, its
/// placeholders, the lines it keeps as they were), so that a second or third reading costs only
/// its own alignment.
pub struct Listing<'a> {
    original: &'a TextFile,
    resp: Vec<&'a str>,
    orig_info: Vec<LineInfo<'a>>,
    resp_info: Vec<LineInfo<'a>>,
    wild: Vec<bool>,
    /// (original line, listing line) of the lines kept as they were.
    pairs: Vec<(usize, usize)>,
    /// How often each line (by its key) occurs in the original.
    counts: HashMap<u64, usize>,
    kept_share: f64,
}

impl<'a> Listing<'a> {
    pub fn new(original: &'a TextFile, listing: &'a str) -> Listing<'a> {
        let resp: Vec<&str> = listing.lines().collect();
        let orig_info: Vec<LineInfo> = original.lines.iter().map(|l| LineInfo::new(l)).collect();
        let resp_info: Vec<LineInfo> = resp.iter().map(|l| LineInfo::new(l)).collect();
        // Anchors are unchanged lines: compared with their indentation, without trailing
        // whitespace.
        let orig_keys: Vec<u64> = orig_info.iter().map(exact_key).collect();
        let (wild, pairs) =
            placeholders_of(&original.lines, &orig_info, &orig_keys, &resp, &resp_info);
        let kept_nonblank = pairs.iter().filter(|(o, _)| !orig_info[*o].is_blank()).count();
        let orig_nonblank = orig_info.iter().filter(|l| !l.is_blank()).count().max(1);
        let kept_share = kept_nonblank as f64 / orig_nonblank as f64;
        let mut counts = HashMap::default();
        for l in &orig_info {
            *counts.entry(l.key).or_insert(0usize) += 1;
        }
        Listing { original, resp, orig_info, resp_info, wild, pairs, counts, kept_share }
    }

    /// Which of the listing's lines are placeholders (one per line), as [`placeholders`] says.
    pub fn placeholders(&self) -> &[bool] {
        &self.wild
    }

    /// The first reading: each gap's lines paired with the original's where they are alike.
    pub fn merge(&self) -> Result<WholeMerge, String> {
        self.read(Some(align::Params::LISTING))
    }

    /// Each gap's lines aligned from the gap's first original line on: new lines written right
    /// after an anchored line are not paired with a blank or `}` further down (which would drop
    /// the lines between). The second reading of a listing whose first merge the check refused.
    pub fn merge_from_start(&self) -> Result<WholeMerge, String> {
        self.read(Some(align::Params::LISTING_FROM_START))
    }

    /// Pairing no line that differs from the original's: a placeholder stands for the whole
    /// stretch between the lines kept as they were around it, and the listing's new lines come
    /// after it (`# ... existing tests ...` and a new test that looks like the last one, which
    /// the aligner took for its rewrite). The third reading, when the others were refused.
    pub fn merge_appending(&self) -> Result<WholeMerge, String> {
        self.read(None)
    }

    /// One reading. `params`: how a gap's lines are paired with the original's; `None` pairs
    /// none.
    fn read(&self, params: Option<align::Params>) -> Result<WholeMerge, String> {
        let Listing { original, resp, orig_info, resp_info, wild, pairs, counts, kept_share } =
            self;
        let (original, kept_share) = (*original, *kept_share);
        if !wild.contains(&true) {
            // Lines the listing keeps as they were (but for trailing whitespace, which models
            // drop when they copy) keep the file's own text: a listing that changes two lines
            // rewrites two lines.
            // A line that elides the value of the file's line it stands for (`SECRET_KEY=...`)
            // keeps the file's line too: the model hid the value, it did not mean `...`.
            let mut lines: Vec<NewLine> = resp.iter().map(|l| NewLine::added(*l)).collect();
            let elided = elided::elided_pairs(&original.lines, resp, pairs);
            for &(o, r) in pairs.iter().chain(&elided) {
                lines[r] = NewLine::kept(original.lines[o].clone(), original.eols[o]);
            }
            return Ok(WholeMerge {
                lines,
                restored: false,
                kept_share,
                restored_lines: Vec::new(),
            });
        }
        let mut anchors = trusted_anchors(pairs, orig_info, counts);
        if params.is_none() {
            // New lines after a placeholder may repeat a line or two of the code they follow
            // (a new test's `cart = Cart()` and `cart.add(...)`): with nothing paired, only a
            // run of three lines or more that say something pins them to the original.
            // The listing's last lines, when the file ends with them too (`module.exports =
            // app;`), close it where the file closes.
            let says = |i: usize| !orig_info[i].is_blank() && orig_info[i].loose_len >= 4;
            let first_wild = wild.iter().position(|w| *w).unwrap_or(resp.len());
            let mut tail_from = resp.len();
            for &(o, r, len) in anchors.iter().rev() {
                let blank_after = (r + len..tail_from).all(|i| resp_info[i].is_blank());
                let file_ends = (o + len..orig_info.len()).all(|i| orig_info[i].is_blank());
                // (A closer alone, `};`, stands at the end of anything, and a line inside a
                // body, `assert res.status_code == 404`, at the end of the new code as well:
                // only a statement at the margin closes the file.)
                let margin = !original.lines[o].starts_with(char::is_whitespace);
                let tells = margin && (o..o + len).any(&says);
                if !(tells && blank_after && (file_ends || tail_from < resp.len())) {
                    break;
                }
                tail_from = r;
            }
            anchors.retain(|&(o, r, len)| {
                r < first_wild || r >= tail_from || (o..o + len).filter(|&i| says(i)).count() >= 3
            });
        }
        let sides = Sides { original, orig_info, counts, resp, resp_info, wild, params };
        let mut out = Vec::new();
        let mut restored_lines = Vec::new();
        let (mut o_pos, mut r_pos) = (0usize, 0usize);
        for run in anchors.iter().chain(std::iter::once(&(original.lines.len(), resp.len(), 0))) {
            let (o_start, r_start, len) = *run;
            let gap = Gap { orig: (o_pos, o_start), listing: (r_pos, r_start) };
            merge_gap(&sides, gap, (&mut out, &mut restored_lines))?;
            for k in 0..len {
                out.push(NewLine::kept(
                    original.lines[o_start + k].clone(),
                    original.eols[o_start + k],
                ));
            }
            o_pos = o_start + len;
            r_pos = r_start + len;
        }
        Ok(WholeMerge { lines: out, restored: true, kept_share, restored_lines })
    }
}

/// Runs of equal lines worth trusting as anchors: a line unique in the original, or three or
/// more non-blank lines together. `(orig start, listing start, len)`.
fn trusted_anchors(
    pairs: &[(usize, usize)],
    orig: &[LineInfo],
    counts: &HashMap<u64, usize>,
) -> Vec<(usize, usize, usize)> {
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    for &(o, r) in pairs {
        match runs.last_mut() {
            Some((lo, lr, len)) if *lo + *len == o && *lr + *len == r => *len += 1,
            _ => runs.push((o, r, 1)),
        }
    }
    runs.retain(|&(o, _, len)| telling(&(o..o + len).collect::<Vec<_>>(), orig, counts));
    runs
}

/// Whether a run of original lines pins down a place: it holds a line that is not trivially
/// short, and the run occurs only once in the original.
fn telling(run: &[usize], orig: &[LineInfo], counts: &HashMap<u64, usize>) -> bool {
    let Some(&first) = run.first() else { return false };
    if !run.iter().any(|&i| !orig[i].is_blank() && orig[i].loose_len >= 4) {
        return false;
    }
    if run.iter().any(|&i| counts.get(&orig[i].key) == Some(&1) && orig[i].loose_len >= 4) {
        return true;
    }
    // Count where the whole run occurs, by its lines' keys.
    let keys: Vec<u64> = run.iter().map(|&i| orig[i].key).collect();
    let len = keys.len();
    let mut seen = 0;
    for start in 0..orig.len().saturating_sub(len - 1) {
        if orig[start].key == orig[first].key && (0..len).all(|k| orig[start + k].key == keys[k]) {
            seen += 1;
            if seen > 1 {
                return false;
            }
        }
    }
    seen == 1
}

/// The stretch between two anchors: original lines `orig.0..orig.1`, listing lines
/// `listing.0..listing.1`.
struct Gap {
    orig: (usize, usize),
    listing: (usize, usize),
}

/// The two texts a merge works on: the original (its lines read for comparing, and how often
/// each occurs) and the listing (which of its lines are placeholders).
struct Sides<'a> {
    original: &'a TextFile,
    orig_info: &'a [LineInfo<'a>],
    counts: &'a HashMap<u64, usize>,
    resp: &'a [&'a str],
    resp_info: &'a [LineInfo<'a>],
    wild: &'a [bool],
    params: Option<align::Params>,
}

/// The most pattern × file cells a gap between anchors may be aligned over: a 2,000-line gap
/// against 2,000 lines (a fraction of a second in a release build). Anchors make gaps short in
/// real code; a gap this long has nothing unique in it, and is refused rather than aligned in
/// quadratic time.
const MAX_GAP_CELLS: usize = 4_000_000;

/// Merge one gap between anchors: the listing's lines, with each placeholder replaced by the
/// original lines it stands for.
fn merge_gap(
    sides: &Sides,
    gap: Gap,
    (out, restored): (&mut Vec<NewLine>, &mut Vec<usize>),
) -> Result<(), String> {
    let (o, r) = (gap.orig, gap.listing);
    let listing = r.0..r.1;
    if !sides.wild[listing.clone()].contains(&true) {
        // A line eliding the value of one of the gap's lines (`PASSWORD: ...`) keeps it.
        let file = &sides.original.lines[o.0..o.1];
        let elided: HashMap<usize, usize> =
            elided::elided_pairs(file, &sides.resp[listing.clone()], &[])
                .into_iter()
                .map(|(f, l)| (r.0 + l, o.0 + f))
                .collect();
        for i in listing {
            out.push(match elided.get(&i) {
                Some(&f) => NewLine::kept(sides.original.lines[f].clone(), sides.original.eols[f]),
                None => NewLine::added(sides.resp[i]),
            });
        }
        return Ok(());
    }
    let pat: Vec<PatLine> = listing
        .clone()
        .map(|i| PatLine { info: sides.resp_info[i].clone(), wildcard: sides.wild[i] })
        .collect();
    // Aligning costs the gap's listing lines times its original lines: a long gap with nothing
    // telling in it (a file of repeated lines, no line unique) would take quadratic time.
    let cells = pat.len().saturating_mul(o.1 - o.0);
    if cells > MAX_GAP_CELLS {
        return Err(format!(
            "the listing's placeholders stand in a stretch of {} lines with no line the file has only once to tell where they are (reply lines {}-{}): send a diff, or the whole file",
            o.1 - o.0,
            r.0 + 1,
            r.1
        ));
    }
    // With nothing paired, a placeholder stands for the whole gap: lines before it in the gap
    // would be written above all the code it brings back, which they may have been meant to
    // change (a method's new body, then `# remaining methods unchanged`).
    let first_wild = listing.clone().find(|&i| sides.wild[i]);
    if sides.params.is_none()
        && let Some(w) = first_wild
        && (r.0..w).any(|i| !sides.resp_info[i].is_blank())
    {
        return Err(format!(
            "new lines before the placeholder on line {} of the listing could change what it stands for",
            w + 1
        ));
    }
    let slots = match sides.params {
        Some(params) if o.1 > o.0 => {
            // A gap that ends right before an anchored line (not at the file's end, where the
            // lines after a placeholder may well be new: a test appended after the others).
            let anchored_end = o.1 < sides.orig_info.len();
            let params = align::Params { anchored_end, ..params };
            align::align_with(&pat, sides.orig_info, o.0, o.1, params).map(|a| a.slots)
        }
        _ => None,
    };
    let slots = slots.unwrap_or_else(|| vec![Slot::Unmatched; pat.len()]);
    let anchored = anchored_slots(&slots, sides.orig_info, sides.counts);
    check_new_between_placeholders(&pat, &anchored, r.0)?;
    emit_gap(sides, gap, &slots, &pat, (out, restored))
}

/// Emit a gap's merged lines: matched lines as the listing wrote them, placeholders as the
/// original's lines between their neighbours.
fn emit_gap(
    sides: &Sides,
    gap: Gap,
    slots: &[Slot],
    pat: &[PatLine],
    (out, restored): (&mut Vec<NewLine>, &mut Vec<usize>),
) -> Result<(), String> {
    let (o, r) = (gap.orig, gap.listing);
    let mut o_pos = o.0;
    let mut dropped = Vec::new();
    let mut idle_placeholder = None;
    for (k, s) in slots.iter().enumerate() {
        let i = r.0 + k;
        let end = match *s {
            Slot::Line(f, _) => {
                dropped.extend((o_pos..f).filter(|&d| !sides.orig_info[d].is_blank()));
                o_pos = f + 1;
                // Paired with the file's line it elides (`PASSWORD: ...`): the file's line.
                let file_line = &sides.original.lines[f];
                out.push(if elided::elides(sides.resp[i], file_line) {
                    NewLine::kept(file_line.clone(), sides.original.eols[f])
                } else {
                    NewLine::added(sides.resp[i])
                });
                continue;
            }
            Slot::Wild(_, e) => next_original(&slots[k + 1..]).unwrap_or(o.1).max(e).max(o_pos),
            // A placeholder that absorbed nothing: everything up to its next neighbour.
            Slot::Unmatched if pat[k].wildcard => {
                let end = next_original(&slots[k + 1..]).unwrap_or(o.1).max(o_pos);
                // With nothing paired (the third reading), blank lines the listing writes
                // after the placeholder are the spacing before its new lines: the stretch's
                // own blank lines at its end are not brought back as well.
                let spaced = pat.get(k + 1).is_some_and(|p| p.info.is_blank());
                match sides.params {
                    None if spaced => (o_pos..end)
                        .rev()
                        .find(|&f| !sides.orig_info[f].is_blank())
                        .map_or(o_pos, |f| f + 1),
                    _ => end,
                }
            }
            Slot::Unmatched => {
                out.push(NewLine::added(sides.resp[i]));
                continue;
            }
        };
        if (o_pos..end).all(|f| sides.orig_info[f].is_blank()) {
            idle_placeholder.get_or_insert(i);
        }
        if let Some(why) = leaves_its_block(sides, (slots, pat), k, o_pos..end) {
            return Err(format!("the placeholder on line {} of the listing {why}", i + 1));
        }
        for f in o_pos..end {
            out.push(NewLine::kept(sides.original.lines[f].clone(), sides.original.eols[f]));
            restored.push(f);
        }
        o_pos = end;
    }
    dropped.extend((o_pos..o.1).filter(|&d| !sides.orig_info[d].is_blank()));
    // A placeholder that stands for nothing beside original lines the listing leaves out reads
    // two ways: the new lines replace those lines, or the placeholder stands for them (a new
    // function written before `// ... other tests unchanged ...`). Guessing either could drop
    // code or write it twice.
    if let (Some(p), Some(&first)) = (idle_placeholder, dropped.first()) {
        return Err(format!(
            "the placeholder on line {} of the listing stands for no line of the file, while the listing leaves out the file's lines {}-{} beside it: it is unclear whether they were meant to go",
            p + 1,
            first + 1,
            dropped.last().map_or(first, |l| *l) + 1
        ));
    }
    Ok(())
}

/// A placeholder inside a block (indented) that stands for lines past the block's end (a
/// shallower line: the next class), followed in its gap by new lines as deep as itself (a new
/// method after `# ... existing methods ...`): those were meant inside the block, and would be
/// written after the other block's code, into it. Placeholder `k` of the gap, `stretch` the
/// original lines it stands for.
fn leaves_its_block(
    sides: &Sides,
    (slots, pat): (&[Slot], &[PatLine]),
    k: usize,
    stretch: std::ops::Range<usize>,
) -> Option<String> {
    let own = pat[k].info.columns();
    if own == 0 {
        return None;
    }
    let out = stretch
        .clone()
        .find(|&f| !sides.orig_info[f].is_blank() && sides.orig_info[f].columns() < own)?;
    let next = (k + 1..pat.len()).find(|&j| !pat[j].info.is_blank())?;
    let new_line = slots[next] == Slot::Unmatched && !pat[next].wildcard;
    (new_line && pat[next].info.columns() >= own).then(|| {
        format!(
            "stands inside a block, for lines past its end ({:?}, line {} of the file), and new lines as deep as it follow it: whether they go at the end of the block or after {:?} is unclear; list the file on to where they go",
            sides.orig_info[out].trimmed.trim(),
            out + 1,
            sides.orig_info[out].trimmed.trim()
        )
    })
}

/// Which slots of a gap's alignment are anchored: runs of exactly matched lines that pin down a
/// place. Placeholders take the original lines between what is anchored around them.
fn anchored_slots(slots: &[Slot], orig: &[LineInfo], counts: &HashMap<u64, usize>) -> Vec<bool> {
    let exact = |s: &Slot| matches!(s, Slot::Line(_, Likeness::Same));
    let mut anchored = vec![false; slots.len()];
    let mut k = 0;
    while k < slots.len() {
        if !exact(&slots[k]) {
            k += 1;
            continue;
        }
        let start = k;
        while k < slots.len() && exact(&slots[k]) {
            k += 1;
        }
        let run: Vec<usize> = slots[start..k]
            .iter()
            .filter_map(|s| if let Slot::Line(f, _) = s { Some(*f) } else { None })
            .collect();
        let contiguous = run.windows(2).all(|w| w[1] == w[0] + 1);
        if contiguous && telling(&run, orig, counts) {
            anchored[start..k].iter_mut().for_each(|a| *a = true);
        }
    }
    anchored
}

/// New lines between two placeholders with nothing anchored between them could go anywhere
/// among the lines those stand for: refused. `first` is the gap's first listing line.
fn check_new_between_placeholders(
    pat: &[PatLine],
    anchored: &[bool],
    first: usize,
) -> Result<(), String> {
    let mut last_wild: Option<usize> = None;
    let mut new_since_wild = false;
    for (k, p) in pat.iter().enumerate() {
        if p.wildcard {
            if let Some(w) = last_wild
                && new_since_wild
            {
                return Err(format!(
                    "new lines sit between two placeholders (reply lines {} and {}) with no unchanged line between them, so where they go is unknown",
                    w + 1,
                    first + k + 1
                ));
            }
            last_wild = Some(first + k);
            new_since_wild = false;
        } else if anchored[k] && !p.info.is_blank() {
            last_wild = None;
            new_since_wild = false;
        } else if !p.info.is_blank() {
            new_since_wild = true;
        }
    }
    Ok(())
}

/// The first original line the slots after a placeholder touch: where what it stands for ends.
fn next_original(after: &[Slot]) -> Option<usize> {
    after.iter().find_map(|s| match s {
        Slot::Line(f, _) => Some(*f),
        Slot::Wild(a, _) => Some(*a),
        Slot::Unmatched => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(orig: &str, listing: &str) -> Result<String, String> {
        let mut f = TextFile::parse(orig);
        let m = merge(&f, listing)?;
        let n = f.lines.len();
        f.splice(0, n, m.lines);
        Ok(f.render())
    }

    const ORIG: &str =
        "import os\n\ndef a():\n    return 1\n\ndef b():\n    return 2\n\ndef c():\n    return 3\n";

    #[test]
    fn restores_a_middle_placeholder() {
        let l = "import os\n\ndef a():\n    return 10\n\n# ... rest of the code unchanged ...\n\ndef c():\n    return 3\n";
        assert_eq!(
            render(ORIG, l).unwrap(),
            "import os\n\ndef a():\n    return 10\n\ndef b():\n    return 2\n\ndef c():\n    return 3\n"
        );
    }

    #[test]
    fn restores_a_trailing_placeholder() {
        let l = "import os\nimport sys\n\ndef a():\n    return 1\n\n# ... rest of the file ...\n";
        let out = render(ORIG, l).unwrap();
        assert_eq!(
            out,
            "import os\nimport sys\n\ndef a():\n    return 1\n\ndef b():\n    return 2\n\ndef c():\n    return 3\n"
        );
    }

    #[test]
    fn refuses_new_code_between_placeholders() {
        let l = "# ... previous code ...\n\ndef d():\n    return 4\n\n# ... existing code ...\n";
        assert!(render(ORIG, l).is_err());
    }

    /// The merge's work does not grow with the square of a file without anchors: a long
    /// listing of repeated lines (nothing unique to anchor on) with a placeholder is refused
    /// before the alignment, whose cells are counted, not timed.
    #[test]
    fn a_long_gap_without_anchors_is_refused_not_aligned() {
        let listing = |n: usize| -> (String, String) {
            let lines: Vec<String> = (0..n)
                .map(|i| format!("    value_{} = compute({}, key)", i % 50, i % 50))
                .collect();
            let mut l = lines.clone();
            l[n / 2] = "    changed = compute(1, key)".into();
            l.truncate(n - 10);
            l.push("# ... rest of the file unchanged ...".into());
            (lines.join("\n") + "\n", l.join("\n") + "\n")
        };
        let (small, small_listing) = listing(400);
        assert!(render(&small, &small_listing).is_ok(), "a short gap is aligned");
        let (long, long_listing) = listing(5_000);
        const { assert!(5_000 * 4_990 > MAX_GAP_CELLS) };
        let err = render(&long, &long_listing).expect_err("refused, not aligned");
        assert!(err.contains("no line the file has only once"), "{err}");
    }

    const TESTS_MOD: &str = "mod tests {\n    use super::*;\n\n    #[test]\n    fn parses_numbers() {\n        assert_eq!(parse(\"1\"), 1);\n    }\n\n    #[test]\n    fn rejects_letters() {\n        let r = std::panic::catch_unwind(|| {\n            parse(\"x\")\n        });\n        assert!(r.is_err());\n    }\n\n    struct Helper;\n}\n";

    /// A new function written before `// ... other tests unchanged ...` could replace the test
    /// the listing leaves out, or the placeholder could stand for it: never dropped silently.
    #[test]
    fn new_lines_before_an_idle_placeholder_never_drop_what_it_may_stand_for() {
        let l = "mod tests {\n    use super::*;\n\n    #[test]\n    fn parses_numbers() {\n        assert_eq!(parse(\"1\"), 1);\n    }\n\n    #[inline]\n    fn count_digits(s: &str) -> usize {\n        s.chars()\n            .filter(|c| c.is_ascii_digit())\n            .count()\n    }\n\n    // ... other tests unchanged ...\n\n    struct Helper;\n}\n";
        let err = render(TESTS_MOD, l).expect_err("refused, not merged");
        assert!(err.contains("line 16 of the listing") && err.contains("lines 9-14"), "{err}");
    }

    /// A function's body replaced, then a placeholder for the rest: the old body goes.
    #[test]
    fn a_replaced_body_before_a_placeholder_goes() {
        let l = "mod tests {\n    use super::*;\n\n    #[test]\n    fn parses_numbers() {\n        assert_eq!(parse(\"1\"), 1);\n    }\n\n    #[test]\n    fn rejects_letters() {\n        assert!(try_parse(\"x\").is_none());\n    }\n\n    // ... rest unchanged ...\n";
        let out = render(TESTS_MOD, l).unwrap();
        assert!(out.contains("try_parse") && !out.contains("catch_unwind"), "{out}");
        assert!(out.ends_with("    }\n\n    struct Helper;\n}\n"), "{out}");
    }

    #[test]
    fn plain_listing_replaces() {
        assert_eq!(render("a\nb\n", "x\ny\n").unwrap(), "x\ny\n");
    }
}
