//! Recognising the lines models write instead of code they did not want to repeat:
//! `...`, `# ...`, `// ... existing code ...`, `# rest of the code here`, `/* other methods
//! unchanged */`. Such a line stands for unchanged lines of the file.

const LEADERS: &[&str] =
    &["<!--", "{/*", "/*", "//", "#", "--", ";;", ";", "%", "'", "\"\"\"", "*"];
const CLOSERS: &[&str] = &["-->", "*/}", "*/", "\"\"\""];

const PHRASES: &[&str] = &[
    "rest of",
    "remainder of",
    "existing code",
    "existing implementation",
    "existing methods",
    "existing functions",
    "unchanged",
    "remains the same",
    "remain the same",
    "stays the same",
    "stay the same",
    "same as before",
    "as before",
    "for brevity",
    "omitted",
    "no changes",
    "previous code",
    "other code",
    "other methods",
    "other functions",
    "other imports",
    "other fields",
    "code here",
    "code continues",
    "and so on",
];

/// Whether this line is a placeholder for unchanged code.
pub fn is_placeholder(line: &str) -> bool {
    let t = line.trim();
    if t.is_empty() || t.len() > 160 {
        return false;
    }
    if only_dots(t) {
        return true;
    }
    // Most lines are code: a placeholder is a comment or has an ellipsis.
    let commented = LEADERS.iter().any(|l| t.starts_with(l));
    if !commented && !t.contains("...") && !t.contains('…') {
        return false;
    }
    let (body, had_leader) = strip_comment(t);
    let lower = body.to_lowercase();
    let lower = lower.trim();
    if lower.is_empty() {
        return false;
    }
    if only_dots(lower) {
        return had_leader;
    }
    let dotted = lower.starts_with("...")
        || lower.ends_with("...")
        || lower.starts_with('…')
        || lower.ends_with('…');
    let phrase = PHRASES.iter().any(|p| lower.contains(p));
    had_leader && (phrase || (dotted && lower.split_whitespace().count() <= 8))
}

/// Whether a placeholder line says it stands for code that stays ("# ... existing code ...",
/// "// rest of the function here", "# ..."): in a hunk's new text it asks to keep lines, never
/// to be written. A comment that merely trails off ("# retry a few times...") or says
/// "unchanged" is left as the comment it may be.
pub fn stands_for_kept_code(line: &str) -> bool {
    const STRONG: &[&str] = &[
        "rest of",
        "remainder of",
        "existing code",
        "existing implementation",
        "code here",
        "for brevity",
        "omitted",
        "same as before",
        "code continues",
        "previous code",
        "other code",
        "other methods",
        "other functions",
    ];
    let t = line.trim();
    if !is_placeholder(t) || only_dots(t) {
        return false;
    }
    let (body, _) = strip_comment(t);
    let lower = body.trim().to_lowercase();
    lower.starts_with("...") || lower.starts_with('…') || STRONG.iter().any(|p| lower.contains(p))
}

/// A line that is nothing but an ellipsis (`...`, `…`): a placeholder, or Python's literal `...`.
pub fn only_dots(t: &str) -> bool {
    let t = t.trim();
    (t.len() >= 3 && t.chars().all(|c| c == '.'))
        || t == "…"
        || (t.chars().all(|c| c == '…' || c == '.') && t.contains('…'))
}

/// Strip comment markers from both ends; report whether there were any.
fn strip_comment(t: &str) -> (&str, bool) {
    let mut s = t;
    let mut had = false;
    loop {
        let before = s;
        for l in LEADERS {
            if let Some(rest) = s.strip_prefix(l) {
                s = rest.trim_start();
                had = true;
                break;
            }
        }
        for l in CLOSERS {
            if let Some(rest) = s.strip_suffix(l) {
                s = rest.trim_end();
                had = true;
                break;
            }
        }
        if s == before {
            break;
        }
    }
    (s.trim(), had)
}

/// A SEARCH/REPLACE block whose new text has `placeholder` (a line of it, as
/// [`stands_for_kept_code`] reads it) where the old text has lines, between two lines both
/// keep (`switch (format) {` / `// ... cases unchanged ...` / `}`): the block with those lines
/// kept and the placeholder gone, which is what it asks for. Only where the placeholder is
/// the one line added between them: with new lines beside it, where they go among the kept
/// ones is unknown. `None` when the placeholder stands otherwise (or the hunk is a diff,
/// whose `-` marks say the lines go).
pub fn fill_kept(
    hunk: &crate::core::edit::Hunk,
    placeholder: &str,
) -> Option<crate::core::edit::Hunk> {
    use crate::core::edit::LineKind;
    if hunk.marked {
        return None;
    }
    let lines = &hunk.lines;
    let at = lines.iter().position(|l| l.kind == LineKind::Add && l.text == placeholder)?;
    let from = lines[..at].iter().rposition(|l| l.kind == LineKind::Context)? + 1;
    let to = at + lines[at..].iter().position(|l| l.kind == LineKind::Context)?;
    let run = &lines[from..to];
    let adds = run.iter().filter(|l| l.kind == LineKind::Add && !l.text.trim().is_empty()).count();
    if adds != 1 || !run.iter().any(|l| l.kind == LineKind::Remove) {
        return None;
    }
    // A placeholder that says the lines go (`# ... v1 endpoints removed ...`) is a deletion.
    let lower = placeholder.to_lowercase();
    if ["remov", "delet", "drop", "gone"].iter().any(|w| lower.contains(w)) {
        return None;
    }
    // A line the block moves (taken out on one side of the placeholder, written again on the
    // other, or kept while written again) leaves what the placeholder stands for unclear: the
    // diff may have paired the moved line as kept and the placeholder with too little.
    let text = |l: &&crate::core::edit::HunkLine| l.text.trim().to_string();
    let changed = |kind| -> Vec<String> {
        (lines.iter())
            .filter(|l| l.kind == kind && !l.text.trim().is_empty() && l.text != placeholder)
            .map(|l| text(&l))
            .collect()
    };
    let (removed, added) = (changed(LineKind::Remove), changed(LineKind::Add));
    let kept: Vec<String> =
        lines.iter().filter(|l| l.kind == LineKind::Context).map(|l| text(&l)).collect();
    let run_removed: Vec<String> =
        run.iter().filter(|l| l.kind == LineKind::Remove).map(|l| text(&l)).collect();
    let moved = removed.iter().any(|r| added.contains(r))
        || added.iter().any(|a| kept.contains(a) || run_removed.contains(a));
    // Lines taken out elsewhere with nothing in their place: the placeholder may stand for
    // them too (`setup_logging(...)` dropped while `config = ...` moves up past it).
    let dropped = lines.split(|l| l.kind == LineKind::Context).any(|changes| {
        let at_run = changes.iter().any(|l| l.text == placeholder && l.kind == LineKind::Add);
        !at_run
            && changes.iter().any(|l| l.kind == LineKind::Remove && !l.text.trim().is_empty())
            && !changes.iter().any(|l| l.kind == LineKind::Add && !l.text.trim().is_empty())
    });
    if moved || dropped {
        return None;
    }
    let mut filled = hunk.clone();
    filled.lines = lines[..from]
        .iter()
        .cloned()
        .chain(
            run.iter()
                .filter(|l| l.kind == LineKind::Remove)
                .map(|l| crate::core::edit::HunkLine::new(LineKind::Context, l.text.clone())),
        )
        .chain(lines[to..].iter().cloned())
        .collect();
    filled.other_split = None;
    Some(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_placeholders() {
        for l in [
            "...",
            "    ...",
            "# ...",
            "// ... existing code ...",
            "# ... rest of the code here (unchanged endpoints) ...",
            "    // ... other methods unchanged ...",
            "# Rest of code...",
            "/* ... */",
            "<!-- ... -->",
            "-- ...",
            "# rest of the file remains the same",
            "    # ... (unchanged) ...",
            "// …",
        ] {
            assert!(is_placeholder(l), "{l}");
        }
    }

    #[test]
    fn leaves_code_alone() {
        for l in [
            "x = 1",
            "print('rest of the code')",
            "# compute the total",
            "return ...;",
            "foo(...)",
            "# TODO: handle errors",
            "// see the docs for details",
        ] {
            assert!(!is_placeholder(l), "{l}");
        }
    }
}
