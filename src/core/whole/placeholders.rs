//! Which lines of a whole-file listing stand for lines of the original: the placeholders
//! redline knows (`# ... rest unchanged ...`), and comments that stand alone where a stretch of
//! code was (`# snip`), recognised by where they are and what they replace.
//!
//! Not for: merging a listing (`core::whole`), or recognising placeholder phrases
//! (`core::elision`).

use similar::DiffOp;

use crate::core::elision::{is_placeholder, only_dots};
use crate::core::locate::lines::LineInfo;

/// Comment lines of the listing that stand where a stretch of the original's code was, alone (but
/// for blank lines): a placeholder in words redline does not know (`# snip`, `// [...]`, `# keep
/// the rest as is`), recognised by where it is and what it replaces.
///
/// Also the lines the listing keeps as they were, `(original line, listing line)`: the diff that
/// finds stand-ins pairs them. (A stand-in is a line the original does not have, so it pairs with
/// nothing whether it counts as a placeholder or not: the pairs hold for the placeholders found.)
fn stand_ins(
    orig: &[LineInfo],
    orig_keys: &[u64],
    resp: &[&str],
    resp_info: &[LineInfo],
    wild: &[bool],
) -> (Vec<bool>, Vec<(usize, usize)>) {
    let keys: Vec<u64> = resp_info
        .iter()
        .enumerate()
        .map(|(i, l)| if wild[i] { u64::MAX - i as u64 } else { exact_key(l) })
        .collect();
    let mut out = vec![false; resp.len()];
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let known: crate::core::hash::HashSet<u64> = orig_keys.iter().copied().collect();
    for op in crate::core::linediff::patience(orig_keys, &keys) {
        if let DiffOp::Equal { old_index, new_index, len } = op {
            pairs.extend((0..len).map(|k| (old_index + k, new_index + k)));
        }
        let DiffOp::Replace { old_index, old_len, new_index, new_len } = op else { continue };
        let replaced =
            orig[old_index..old_index + old_len].iter().filter(|l| !l.is_blank()).count();
        let new: Vec<usize> =
            (new_index..new_index + new_len).filter(|&i| !resp_info[i].is_blank()).collect();
        if let [only] = new.as_slice()
            && replaced >= STAND_IN_MIN
            && is_comment(resp[*only])
            && !known.contains(&keys[*only])
        {
            out[*only] = true;
        }
    }
    (out, pairs)
}

/// A stand-in replaces at least this many non-blank lines of code.
const STAND_IN_MIN: usize = 3;

/// A line that is only a comment, in any of the usual syntaxes.
pub fn is_comment(line: &str) -> bool {
    let t = line.trim();
    let hash = t.starts_with('#')
        && !["#!", "#[", "#include", "#define", "#if", "#end", "#pragma"]
            .iter()
            .any(|p| t.starts_with(p));
    hash || ["//", "/*", "--", "<!--", ";", "%"].iter().any(|p| t.starts_with(p))
}

/// Which lines of a listing stand for original lines: known placeholders, and comments that
/// stand alone where code was ([`stand_ins`]).
pub fn placeholders(original: &[String], listing: &[&str]) -> Vec<bool> {
    let orig_info: Vec<LineInfo> = original.iter().map(|l| LineInfo::new(l)).collect();
    let resp_info: Vec<LineInfo> = listing.iter().map(|l| LineInfo::new(l)).collect();
    let orig_keys: Vec<u64> = orig_info.iter().map(exact_key).collect();
    placeholders_of(original, &orig_info, &orig_keys, listing, &resp_info).0
}

/// [`placeholders`], with both sides' lines read already; and the lines kept as they were
/// ([`stand_ins`]).
pub(super) fn placeholders_of(
    original: &[String],
    orig_info: &[LineInfo],
    orig_keys: &[u64],
    listing: &[&str],
    resp_info: &[LineInfo],
) -> (Vec<bool>, Vec<(usize, usize)>) {
    // A bare `...` is literal code (a Python stub body) when the original has it too.
    let literal_dots: crate::core::hash::HashSet<&str> =
        original.iter().map(|l| l.trim()).filter(|l| only_dots(l)).collect();
    // Nor is one that is the whole body of a block the listing opens anew (`def exists(self):`
    // then `...`, a Protocol's stub): the file has no lines inside that block to stand for.
    let known: crate::core::hash::HashSet<&str> = original.iter().map(|l| l.trim()).collect();
    let new_body = |i: usize| {
        let depth = crate::core::indent::depth;
        let head = listing[..i].iter().rev().find(|l| !l.trim().is_empty());
        head.is_some_and(|h| {
            let t = h.trim_end();
            t.ends_with([':', '{']) && !known.contains(t.trim()) && depth(listing[i]) > depth(h)
        })
    };
    let mut wild: Vec<bool> = (listing.iter().enumerate())
        .map(|(i, l)| {
            is_placeholder(l) && !(only_dots(l) && (literal_dots.contains(l.trim()) || new_body(i)))
        })
        .collect();
    // A construct of the original written on one line with its body elided (`fun f(x) { /*
    // unchanged */ }`, `APPS = [...]  # unchanged`, `def load(self): ...`): the whole line
    // stands for the construct, its head included.
    let listed: crate::core::hash::HashSet<&str> = listing.iter().map(|l| l.trim()).collect();
    for (i, l) in listing.iter().enumerate() {
        wild[i] |= !known.contains(l.trim()) && collapses_a_construct(original, &listed, l);
    }
    let (extra, pairs) = stand_ins(orig_info, orig_keys, listing, resp_info, &wild);
    for (w, s) in wild.iter_mut().zip(extra) {
        *w |= s;
    }
    (wild, pairs)
}

pub(super) fn exact_key(l: &LineInfo) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    l.trimmed.hash(&mut h);
    h.finish()
}

/// Whether `line` is a construct of the original (a line that opens a block with deeper lines
/// under it, not in the listing as written) written on one line with an elided body: its head,
/// then `{ /* ... */ }`, `[...]`, `{...}`, `(...)` or, after a `:`, `...`, a comment after it
/// aside.
fn collapses_a_construct(
    original: &[String],
    listed: &crate::core::hash::HashSet<&str>,
    line: &str,
) -> bool {
    let Some(head) = collapsed_head(line) else { return false };
    let depth = crate::core::indent::depth;
    original.iter().enumerate().any(|(k, o)| {
        let t = o.trim();
        let opens = t.strip_prefix(head).is_some_and(|rest| {
            matches!(rest.trim(), "" | "{" | "[" | "(" | "= {" | "= [" | "=> {")
                && (!rest.trim().is_empty() || head.ends_with(':'))
        });
        opens
            && !listed.contains(t)
            && (original[k + 1..].iter().find(|n| !n.trim().is_empty()))
                .is_some_and(|n| depth(n) > depth(o))
    })
}

/// The head of a line whose body is elided in place (see [`collapses_a_construct`]), trimmed.
fn collapsed_head(line: &str) -> Option<&str> {
    let t = line.trim();
    let elided = |inside: &str| {
        let i = inside.trim();
        let comment = (i.starts_with("/*") && i.ends_with("*/")) || i.starts_with("<!--");
        !i.is_empty() && (comment || i.chars().all(|c| c == '.' || c == '…'))
    };
    // A comment after it (`# unchanged`, `// same`) is part of the elision.
    let code =
        ["  #", " //", " --"].iter().filter_map(|c| t.find(c)).min().map_or(t, |at| &t[..at]);
    let code = code.trim_end().trim_end_matches([';', ',']);
    // `def load(self): ...`: a Python block whose body is `...`.
    if let Some(head) = code.strip_suffix("...").or_else(|| code.strip_suffix('…')) {
        let head = head.trim_end();
        if head.ends_with(':') && head.len() > 1 {
            return Some(head);
        }
    }
    let close = code.chars().last()?;
    let open = match close {
        '}' => '{',
        ']' => '[',
        ')' => '(',
        _ => return None,
    };
    let at = code.rfind(open)?;
    let head = code[..at].trim_end();
    (elided(&code[at + 1..code.len() - 1]) && !head.is_empty()).then_some(head)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_construct_collapsed_on_one_line_is_told_by_its_head() {
        assert_eq!(
            collapsed_head("    fun check(o: Order) { /* same */ }"),
            Some("fun check(o: Order)")
        );
        assert_eq!(collapsed_head("APPS = [...]  # unchanged"), Some("APPS ="));
        assert_eq!(collapsed_head("web: {...}  # as before"), Some("web:"));
        assert_eq!(collapsed_head("    def load(self): ...  # as is"), Some("def load(self):"));
        // Code, not an elision: a spread, a call, a stub with no head.
        assert_eq!(collapsed_head("const all = [...a, ...b];"), None);
        assert_eq!(collapsed_head("f(x)"), None);
        assert_eq!(collapsed_head("..."), None);
        let original: Vec<String> =
            ["class A:", "    def load(self):", "        return 1", "    def other(self): ..."]
                .iter()
                .map(|s| s.to_string())
                .collect();
        let listed = Default::default();
        assert!(collapses_a_construct(&original, &listed, "    def load(self): ..."));
        // A one-line stub the file has no body for is the listing's own.
        assert!(!collapses_a_construct(&original, &listed, "    def other(self): ...  # new"));
        assert!(!collapses_a_construct(&original, &listed, "    def fresh(self): ..."));
    }
}
