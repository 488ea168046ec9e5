//! Checking one hunk's change: the diff of the lines before and after must be what the hunk
//! removes and adds, in its order, with its nesting and its brackets (see `verify`'s own doc
//! for the rules).
//!
//! Not for: whole-file listings (`verify::whole`), or the diff machinery both share (`verify`).

use crate::core::hash::{HashMap, HashSet};
use std::cell::OnceCell;

use super::{Diffed, Unexplained, brackets, changed, cols, match_in_order, plain, same_text};
use crate::core::edit::{Hunk, LineKind};
use crate::core::indent::nesting;
use crate::core::locate::lines::ratio;

/// A removed line found only roughly still has to look like the line the edit removes.
const REMOVED_LIKENESS: f64 = 0.5;
/// An added line may carry a copy error over from the file (`core::apply::merge_line`).
const ADDED_LIKENESS: f64 = 0.6;

/// Check that turning `before` into `after` is what `hunk` asks for.
pub fn check_hunk(before: &[String], after: &[String], hunk: &Hunk) -> Result<(), Unexplained> {
    check_window(before, (0, before.len()), after, hunk, None)
}

/// [`check_hunk`] for a change confined to `file[lo..hi]`, which becomes `new`: the rest of
/// the file is only read to know which lines it holds, or not at all when `held` (how many
/// times the file holds each line, trimmed, counted once per file version) is given.
pub fn check_window(
    file: &[String],
    (lo, hi): (usize, usize),
    new: &[String],
    hunk: &Hunk,
    held: Option<&HashMap<&str, u32>>,
) -> Result<(), Unexplained> {
    let (before, after) = (&file[lo..hi], new);
    if literally(hunk, before, after) {
        return Ok(());
    }
    let openers = run_openers(hunk);
    let starts = |line: &str, add: bool| openers.contains(&(line.trim(), add));
    let (removed, added, _, _) = changed(before, after, &starts);
    let asked = Asked::of(hunk, file, held);
    let gone = match_in_order(
        &removed,
        &asked.remove_texts,
        &vec![false; asked.removes.len()],
        like_removed,
    )
    .map_err(|line| {
        Unexplained(format!(
            "the placement would remove {:?}, which the edit does not remove",
            line.trim()
        ))
    })?;
    let new =
        match_in_order(&added, &asked.add_texts, &asked.optional, like_added).map_err(|line| {
            Unexplained(format!(
                "the placement would add {:?}, which is not a line the edit adds",
                line.trim()
            ))
        })?;
    let context = context_pairs(hunk, after, &added);
    let in_strings = || string_content(&file[..lo], after);
    check_indentation(&added, &new, &asked.add_texts, &context, in_strings)?;
    check_deleted_exactly(hunk, &removed, &gone, &asked.removes, file)?;
    check_replaced_in_place(hunk, (&removed, &gone, &asked.removes), (&added, &new, &asked.adds))?;
    check_brackets(hunk, &asked, (&removed, &added), &new)?;
    let window = Window { file, lo, hi, held };
    check_adds_kept(hunk, &asked, window, after, &added)
}

/// Whether `after` is `before` with the hunk's old side, found line for line somewhere in it
/// (trailing whitespace aside), replaced by its new side: the change is the hunk's own and
/// needs no explaining. (A diff of a long run of look-alike lines, or of a block moved past a
/// line it shares, could pair lines otherwise and find it unexplained.) Where the old side was
/// found is not this check's business; it only sees that nothing else changed.
fn literally(hunk: &Hunk, before: &[String], after: &[String]) -> bool {
    literally_as(hunk, before, after, |a, b| a.trim_end() == b.trim_end())
        || literally_as(hunk, before, after, |a, b| a.trim() == b.trim())
}

/// [`literally`] with lines compared by `same`. Compared without their indentation (a hunk
/// written with spaces for a file of tabs, placed by the file's own indentation), the old and
/// the new side must also be nested where they stand as the hunk nests them.
fn literally_as(
    hunk: &Hunk,
    before: &[String],
    after: &[String],
    same: impl Fn(&str, &str) -> bool,
) -> bool {
    let old: Vec<&str> =
        hunk.lines.iter().filter(|l| l.kind != LineKind::Add).map(|l| l.text.as_str()).collect();
    let new: Vec<&str> =
        hunk.lines.iter().filter(|l| l.kind != LineKind::Remove).map(|l| l.text.as_str()).collect();
    if old.is_empty()
        || before.len() < old.len()
        || before.len() + new.len() != after.len() + old.len()
    {
        return false;
    }
    let shorter = before.len().min(after.len());
    let prefix = (0..shorter).take_while(|&i| same(&before[i], &after[i])).count();
    let suffix = (0..shorter - prefix)
        .take_while(|&i| same(&before[before.len() - 1 - i], &after[after.len() - 1 - i]))
        .count();
    // The old side must cover what changed: it starts at or before the first differing line
    // and ends at or after the last.
    let first = (before.len() - suffix).saturating_sub(old.len());
    let last = prefix.min(before.len() - old.len());
    let shaped = |file: &[String], side: &[&str]| {
        nesting(file.iter().map(|l| l.as_str())) == nesting(side.iter().copied())
    };
    (first..=last).take(256).any(|lo| {
        let (was, now) = (&before[lo..lo + old.len()], &after[lo..lo + new.len()]);
        was.iter().zip(&old).all(|(f, h)| same(f, h))
            && now.iter().zip(&new).all(|(f, h)| same(f, h))
            && shaped(was, &old)
            && shaped(now, &new)
    })
}

/// The first line of each run of added (`true`) and of removed lines in the hunk: where a block
/// the diff could draw a line higher or lower starts in the edit's own order.
fn run_openers(hunk: &Hunk) -> HashSet<(&str, bool)> {
    let mut openers = HashSet::default();
    for (k, l) in hunk.lines.iter().enumerate() {
        let prev = k.checked_sub(1).map(|p| hunk.lines[p].kind);
        if l.kind != LineKind::Context && prev != Some(l.kind) {
            openers.insert((l.text.trim(), l.kind == LineKind::Add));
        }
    }
    openers
}

/// What the edit asks: the hunk lines it removes, and those it adds: its `+` lines and, in a
/// diff, context lines the file does not hold (a forgotten `+`, which it may add but need not).
/// A context line the file holds was quoted from somewhere.
struct Asked<'h> {
    /// Hunk line indices of the removed lines, and their texts.
    removes: Vec<usize>,
    remove_texts: Vec<&'h str>,
    /// Hunk line indices of the added lines, and their texts.
    adds: Vec<usize>,
    add_texts: Vec<&'h str>,
    /// Per added line: only a context line taken for a forgotten `+`.
    optional: Vec<bool>,
}

impl<'h> Asked<'h> {
    fn of(hunk: &'h Hunk, file: &[String], held: Option<&HashMap<&str, u32>>) -> Asked<'h> {
        // The hunk's context lines that the file holds somewhere (one pass over the file).
        let quoted: HashSet<&str> = if hunk.marked {
            hunk.lines
                .iter()
                .filter(|l| l.kind == LineKind::Context && !plain(&l.text))
                .map(|l| l.text.trim())
                .collect()
        } else {
            HashSet::default()
        };
        let file_has: HashSet<&str> = match held {
            _ if quoted.is_empty() => HashSet::default(),
            Some(held) => quoted.iter().copied().filter(|q| held.contains_key(q)).collect(),
            None => file.iter().map(|l| l.trim()).filter(|l| quoted.contains(l)).collect(),
        };
        let removes: Vec<usize> =
            (0..hunk.lines.len()).filter(|&k| hunk.lines[k].kind == LineKind::Remove).collect();
        let adds: Vec<usize> = (0..hunk.lines.len())
            .filter(|&k| {
                let l = &hunk.lines[k];
                match l.kind {
                    LineKind::Add => true,
                    LineKind::Remove => false,
                    LineKind::Context => hunk.marked && !file_has.contains(l.text.trim()),
                }
            })
            .collect();
        let text = |k: &usize| hunk.lines[*k].text.as_str();
        Asked {
            remove_texts: removes.iter().map(text).collect(),
            add_texts: adds.iter().map(text).collect(),
            optional: adds.iter().map(|&k| hunk.lines[k].kind != LineKind::Add).collect(),
            removes,
            adds,
        }
    }
}

/// Whether a line the diff removes can be the line the edit removes: found roughly, it must
/// still look like it.
fn like_removed(file: &str, edit: &str) -> bool {
    same_text(file, edit)
        || ratio(file.trim(), edit.trim()) >= REMOVED_LIKENESS
        || (edit.trim().len() >= 4 && file.contains(edit.trim()))
}

/// Whether a line the diff adds can be the line the edit adds. It may also be the file's line
/// with a fragment of it replaced (the model quoted part of a line): it then holds the edit's
/// text.
fn like_added(file: &str, edit: &str) -> bool {
    let (f, e) = (file.trim(), edit.trim());
    f == e || (e.len() >= 8 && ratio(f, e) >= ADDED_LIKENESS) || (!e.is_empty() && f.contains(e))
}

/// What the change opens and closes is what the edit opens and closes (a closing brace taken
/// for one the file already had leaves a block open). `new` maps each added line to the
/// edit's line it matched.
fn check_brackets(
    hunk: &Hunk,
    asked: &Asked,
    (removed, added): (&[Diffed], &[Diffed]),
    new: &[usize],
) -> Result<(), Unexplained> {
    let sub = |a: [i64; 3], b: [i64; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let by_change =
        sub(brackets(added.iter().map(|d| d.text)), brackets(removed.iter().map(|d| d.text)));
    let real_adds = hunk.lines.iter().filter(|l| l.kind == LineKind::Add).map(|l| l.text.as_str());
    let taken = new.iter().filter(|&&k| asked.optional[k]).map(|&k| asked.add_texts[k]);
    let by_edit =
        sub(brackets(real_adds.chain(taken)), brackets(asked.remove_texts.iter().copied()));
    if by_change != by_edit {
        return Err(Unexplained(
            "the placement would open or close brackets differently from the edit".into(),
        ));
    }
    Ok(())
}

/// The file a change is confined to: `file[lo..hi]` changes; `held`, when given, counts the
/// lines of the whole file (trimmed) so that the rest need not be read.
#[derive(Clone, Copy)]
struct Window<'a, 'f> {
    file: &'a [String],
    lo: usize,
    hi: usize,
    held: Option<&'a HashMap<&'f str, u32>>,
}

impl Window<'_, '_> {
    /// The lines outside the window, unless `held` stands for them.
    fn outside(&self) -> HashSet<&str> {
        match self.held {
            Some(_) => HashSet::default(),
            None => {
                let (file, lo, hi) = (self.file, self.lo, self.hi);
                file[..lo].iter().chain(&file[hi..]).map(|l| l.trim()).collect()
            }
        }
    }

    /// Whether the file holds the line outside the window (`outside` from [`Window::outside`]):
    /// with `held`, more often than inside.
    fn kept_outside(&self, outside: &HashSet<&str>, t: &str) -> bool {
        match self.held {
            Some(held) => {
                let inside = self.file[self.lo..self.hi].iter().filter(|l| l.trim() == t).count();
                held.get(t).is_some_and(|&n| n as usize > inside)
            }
            None => outside.contains(t),
        }
    }
}

/// Every telling line the edit adds must be in the result (the changed part of it, or the
/// unchanged lines around, where an equal line may have been kept by the diff).
fn check_adds_kept(
    hunk: &Hunk,
    asked: &Asked,
    window: Window,
    after: &[String],
    added: &[Diffed],
) -> Result<(), Unexplained> {
    // Both sets are made only when a telling added line asks: most hunks' checks need one or
    // neither, and a hunk placed in a window should not pay for the whole file.
    let after_has: OnceCell<HashSet<&str>> = OnceCell::new();
    let outside = OnceCell::new();
    if let Some(missing) = asked.add_texts.iter().zip(&asked.adds).find_map(|(t, k)| {
        let real = hunk.lines[*k].kind == LineKind::Add;
        let t_in = t.trim();
        let in_after = || after_has.get_or_init(|| after.iter().map(|l| l.trim()).collect());
        (real
            && !plain(t)
            && !in_after().contains(t_in)
            && !window.kept_outside(outside.get_or_init(|| window.outside()), t_in))
        .then_some(*t)
    }) && !added.iter().any(|a| like_added(a.text, missing))
    {
        return Err(Unexplained(format!(
            "the placement leaves out {:?}, a line the edit adds",
            missing.trim()
        )));
    }
    Ok(())
}

/// A line the edit deletes outright (no new line in its place) must be the file's line but for
/// whitespace: deleting a line only like it (`count > 2685` for `count > 1738`) deletes
/// something the model never named. Lines it replaces may differ by a copy error, which the
/// new line carries over.
fn check_deleted_exactly(
    hunk: &Hunk,
    removed: &[Diffed],
    gone: &[usize],
    removes: &[usize],
    file: &[String],
) -> Result<(), Unexplained> {
    let n = hunk.lines.len();
    let replaced = |k: usize| {
        let mut j = k;
        while j < n && hunk.lines[j].kind == LineKind::Remove {
            j += 1;
        }
        j < n && hunk.lines[j].kind == LineKind::Add
    };
    let loose = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    for (d, &i) in removed.iter().zip(gone) {
        let edit = hunk.lines[removes[i]].text.as_str();
        if plain(d.text) || replaced(removes[i]) || loose(d.text) == loose(edit) {
            continue;
        }
        if let Some(word) = miswritten(&loose(edit), &loose(d.text))
            && !file.iter().any(|l| names(l, word))
        {
            continue;
        }
        return Err(Unexplained(format!(
            "the placement would delete {:?}, which is only like the line the edit deletes ({:?})",
            d.text.trim(),
            edit.trim()
        )));
    }
    Ok(())
}

/// The word the model misspelt when its line is the file's with one word misspelt: two
/// letters swapped (`chraset`), or one dropped inside a word (`backslsh`), in a part of a name
/// of six or more letters (`unsent_total` is two parts). Not a letter changed (`user1` for
/// `user2`), one taken off or put on the end of a part (`item_sorted` for `items_sorted`), or a
/// doubled letter made single (`Canceled` for `Cancelled`): those name other things. The
/// caller also wants the model's word to be no name the file has.
fn miswritten<'m>(model: &'m str, file: &str) -> Option<&'m str> {
    let split = |t: &str| -> Vec<(bool, std::ops::Range<usize>)> {
        let mut out: Vec<(bool, std::ops::Range<usize>)> = Vec::new();
        for (i, c) in t.char_indices() {
            let word = c.is_alphanumeric() || c == '_';
            match out.last_mut() {
                Some((w, r)) if *w == word => r.end = i + c.len_utf8(),
                _ => out.push((word, i..i + c.len_utf8())),
            }
        }
        out
    };
    let (m, f) = (split(model), split(file));
    if m.len() != f.len() || m.iter().zip(&f).any(|(a, b)| a.0 != b.0) {
        return None;
    }
    let mut differ = m.iter().zip(&f).filter(|(a, b)| model[a.1.clone()] != file[b.1.clone()]);
    let (Some((a, b)), None) = (differ.next(), differ.next()) else { return None };
    let (word, theirs) = (&model[a.1.clone()], &file[b.1.clone()]);
    let (mp, fp) = (parts(word), parts(theirs));
    if mp.len() != fp.len() {
        return None;
    }
    let mut differ = mp.iter().zip(&fp).filter(|(x, y)| x != y);
    let (Some((x, y)), None) = (differ.next(), differ.next()) else { return None };
    typo(x, y).then_some(word)
}

/// A name's parts: split at `_` and where a lower-case letter meets an upper-case one.
fn parts(name: &str) -> Vec<Vec<char>> {
    let mut out: Vec<Vec<char>> = vec![Vec::new()];
    let mut prev_lower = false;
    for c in name.chars() {
        if c == '_' || (c.is_uppercase() && prev_lower) {
            out.push(Vec::new());
        }
        if c != '_' {
            out.last_mut().expect("one part at least").push(c);
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
    }
    out.retain(|p| !p.is_empty());
    out
}

/// Whether `a` is `b` with two neighbouring letters swapped, or one letter dropped or put in
/// inside it (not at either end, not a doubled letter), both six letters or more.
fn typo(a: &[char], b: &[char]) -> bool {
    if a.len().min(b.len()) < 6 || a[0] != b[0] || !a[0].is_alphabetic() {
        return false;
    }
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    match a.len() as isize - b.len() as isize {
        0 => {
            head + 2 <= a.len()
                && a[head] == b[head + 1]
                && a[head + 1] == b[head]
                && a[head + 2..] == b[head + 2..]
        }
        1 | -1 => {
            let (long, short) = if a.len() > b.len() { (a, b) } else { (b, a) };
            let k = head;
            let doubled = (k > 0 && long[k - 1] == long[k]) || long.get(k + 1) == Some(&long[k]);
            k + 1 < long.len() && long[k + 1..] == short[k..] && !doubled
        }
        _ => false,
    }
}

/// Whether `line` has `word` as a whole word.
fn names(line: &str, word: &str) -> bool {
    line.split(|c: char| !c.is_alphanumeric() && c != '_').any(|w| w == word)
}

/// A line the edit replaces (`-old` then `+new` in one block, line for line) must be replaced
/// where it was: the new line has the same unchanged lines before it as the old one had.
fn check_replaced_in_place(
    hunk: &Hunk,
    (removed, gone, removes): (&[Diffed], &[usize], &[usize]),
    (added, new, adds): (&[Diffed], &[usize], &[usize]),
) -> Result<(), Unexplained> {
    // Indexed by hunk line (no hashing: this runs for every hunk placed).
    let n = hunk.lines.len();
    let mut partner: Vec<Option<usize>> = vec![None; n];
    let mut k = 0;
    while k < n {
        let r0 = k;
        while k < n && hunk.lines[k].kind == LineKind::Remove {
            k += 1;
        }
        let a0 = k;
        while k < n && hunk.lines[k].kind == LineKind::Add {
            k += 1;
        }
        if a0 - r0 == k - a0 && a0 > r0 {
            for i in 0..a0 - r0 {
                partner[r0 + i] = Some(a0 + i);
            }
        }
        if k == r0 {
            k += 1;
        }
    }
    // The last added line matched to each hunk line wins, as it did in a map.
    let mut where_added: Vec<Option<usize>> = vec![None; n];
    for (d, &i) in added.iter().zip(new) {
        if !plain(d.text) {
            where_added[adds[i]] = Some(d.kept_before);
        }
    }
    for (d, i) in removed.iter().zip(gone) {
        if plain(d.text) {
            continue;
        }
        let Some(to) = partner[removes[*i]] else { continue };
        if let Some(at) = where_added[to]
            && at != d.kept_before
        {
            return Err(Unexplained(format!(
                "the placement would move {:?} away from the place of the line it replaces",
                hunk.lines[to].text.trim()
            )));
        }
    }
    Ok(())
}

/// How far around the added lines the hunk's context is looked for.
const CONTEXT_REACH: usize = 12;

/// The hunk's telling context lines found once, as written but for indentation, near the added
/// lines: (the model's columns, the file's columns). They show how the file indents what the
/// model indented.
fn context_pairs(hunk: &Hunk, after: &[String], added: &[Diffed]) -> Vec<(usize, usize)> {
    let (Some(first), Some(last)) = (added.first(), added.last()) else { return Vec::new() };
    let lo = first.at.saturating_sub(CONTEXT_REACH);
    let hi = (last.at + CONTEXT_REACH + 1).min(after.len());
    let near = &after[lo..hi];
    // Only the context lines next to added ones: a model's context far from its change may be
    // indented inconsistently (a dedented body under an undedented `def`).
    let n = hunk.lines.len();
    let telling =
        |k: &usize| hunk.lines[*k].kind == LineKind::Context && !plain(&hunk.lines[*k].text);
    let mut next_to_adds: Vec<usize> = Vec::new();
    for k in (0..n).filter(|&k| hunk.lines[k].kind == LineKind::Add) {
        next_to_adds.extend((0..k).rev().find(telling));
        next_to_adds.extend((k + 1..n).find(telling));
    }
    next_to_adds.sort_unstable();
    next_to_adds.dedup();
    next_to_adds
        .into_iter()
        .map(|k| &hunk.lines[k])
        .filter_map(|l| {
            let mut found = near.iter().filter(|f| same_text(f, &l.text));
            let f = found.next()?;
            found.next().is_none().then(|| (cols(&l.text), cols(f)))
        })
        .collect()
}

/// Lines the model indented differently must stay indented differently, in the same order: a
/// re-indentation that folds two depths into one (a JSDoc ` * ` line pulled to the left edge), or
/// puts a new line deeper than the context line the model put it level with, changes what the
/// model wrote. Context lines only count against added ones (the model's own context may be
/// inconsistent, and the file keeps its text anyway).
fn check_indentation(
    added: &[Diffed],
    matched: &[usize],
    adds: &[&str],
    context: &[(usize, usize)],
    in_strings: impl FnOnce() -> HashSet<usize>,
) -> Result<(), Unexplained> {
    let mut map: Vec<Depths> = Vec::new();
    // New lines as the model wrote them, byte for byte: inside a string spanning lines, their
    // whitespace is the string's content, not nesting (`core::apply` keeps it so).
    let mut verbatim: Vec<usize> = Vec::new();
    for (d, k) in added.iter().zip(matched) {
        let line = d.text;
        if plain(line) || !same_text(line, adds[*k]) {
            continue;
        }
        if line == adds[*k] {
            verbatim.push(d.at);
        }
        map.push((cols(adds[*k]), cols(line), Some((line, d.at))));
    }
    if map.is_empty() {
        return Ok(());
    }
    map.extend(context.iter().map(|&(m, f)| (m, f, None)));
    let Some(line) = broken_nesting(&map) else { return Ok(()) };
    // Only the lines the placement re-indented count: string content kept as written is out.
    if !verbatim.is_empty() {
        let strings = in_strings();
        map.retain(|(_, _, l)| {
            l.is_none_or(|(_, at)| !(strings.contains(&at) && verbatim.contains(&at)))
        });
        if broken_nesting(&map).is_none() {
            return Ok(());
        }
    }
    Err(Unexplained(format!(
        "re-indenting the new lines would change their nesting (at {:?})",
        line.trim()
    )))
}

/// A line's depth in the model's columns and in the file's, and for a new line its text and
/// where it is in the file.
type Depths<'a> = (usize, usize, Option<(&'a str, usize)>);

/// The first new line whose depth against another line is not the model's (see
/// [`check_indentation`]): `(model columns, file columns, the new line and where it is)`.
fn broken_nesting<'a>(map: &[Depths<'a>]) -> Option<&'a str> {
    for (i, &(m1, f1, l1)) in map.iter().enumerate() {
        for &(m2, f2, l2) in &map[i + 1..] {
            let Some((line, _)) = l1.or(l2) else { continue };
            if (m1 == m2 && f1 != f2) || (m1 < m2 && f1 >= f2) || (m1 > m2 && f1 <= f2) {
                return Some(line);
            }
        }
    }
    None
}

/// The lines of `after` (below `prefix`, the file above it) that begin inside a string
/// spanning lines.
fn string_content(prefix: &[String], after: &[String]) -> HashSet<usize> {
    let mut s = crate::core::strings::Strings::new();
    for l in prefix {
        s.line(l);
    }
    (0..after.len()).filter(|&k| s.line(&after[k]).is_some()).collect()
}
