//! Lines of a whole-file listing that elide part of a line the file has: `SECRET_KEY=...`,
//! `DATABASE_URL=postgres://...`, `POSTGRES_PASSWORD: ...`. A model that hides a value (a
//! secret, a long string) writes `...` where it stands; written as it is, the listing would put
//! `...` over the user's value. Such a line stands for the file's line it elides, which is kept.
//!
//! Not for: lines that stand for whole stretches of the file (`# ... rest ...`, which
//! `placeholders` reads), or `...` in code (`f(...args)`, `[...items]`: a spread is followed by
//! what it spreads).

/// The elision marks a model writes inside a line.
const MARKS: [&str; 2] = ["...", "\u{2026}"];

/// Whether `listing` is `file` with part of it elided: the listing line is the file line with
/// one stretch or more written as `...`, each standing for at least one character, and the text
/// before the first mark says what the line is (a key, a name: not only whitespace or
/// punctuation).
pub fn elides(listing: &str, file: &str) -> bool {
    if listing == file {
        return false;
    }
    if masks(listing, file) {
        return true;
    }
    if let Some(parts) = split(listing) {
        return stands_for(&parts, file);
    }
    // Part of a value masked (`postgres://app:********@db/app`, `sk_live_****`): the stretch
    // masked is a secret's, after the key.
    // (Inside a value: no space on either side of a mask, which `a *** b` in code has.)
    masked_parts(listing).is_some_and(|parts| {
        let inside = parts.iter().enumerate().all(|(k, p)| {
            (k == parts.len() - 1 || !p.ends_with(char::is_whitespace))
                && (k == 0 || !p.starts_with(char::is_whitespace))
        });
        inside && parts[0].contains(['=', ':']) && stands_for(&parts, file) && !file.contains(MASK)
    })
}

/// Whether `file` is the line `parts` were cut from, each cut standing for one character or
/// more: the parts follow in order, the first saying what the line is (a key, a name: not only
/// whitespace or punctuation).
fn stands_for(parts: &[&str], file: &str) -> bool {
    let head = parts[0];
    if !head.chars().any(char::is_alphanumeric) || !file.starts_with(head) {
        return false;
    }
    let mut rest = &file[head.len()..];
    for (k, part) in parts.iter().enumerate().skip(1) {
        let last = k == parts.len() - 1;
        if last {
            return rest.len() > part.len() && rest.ends_with(part);
        }
        match rest.get(1..).and_then(|r| r.find(part)) {
            Some(at) => rest = &rest[1 + at + part.len()..],
            None => return false,
        }
    }
    false
}

/// The masking a model writes over a secret: this, three times or more.
const MASK: &str = "***";

/// The line cut at its runs of three `*` or more, `None` when it has none.
fn masked_parts(line: &str) -> Option<Vec<&str>> {
    let mut parts = Vec::new();
    let mut from = 0;
    while let Some(at) = line[from..].find(MASK) {
        let start = from + at;
        parts.push(&line[from..start]);
        from = start + line[start..].bytes().take_while(|b| *b == b'*').count();
    }
    if parts.is_empty() {
        return None;
    }
    parts.push(&line[from..]);
    Some(parts)
}

/// Whether `listing` is `file` with its value masked: the same key (`PASSWORD=`, `token:`),
/// and where the file has a value, a stand-in a model writes for a secret (`***`,
/// `<redacted>`, `REDACTED`, `<your-api-key>`), quoted or not.
fn masks(listing: &str, file: &str) -> bool {
    let common = listing.bytes().zip(file.bytes()).take_while(|(a, b)| a == b).count();
    let Some(cut) = listing[..common].rfind(['=', ':', ' ', '"', '\'']).map(|i| i + 1) else {
        return false;
    };
    let (head, value, real) = (&listing[..cut], listing[cut..].trim(), file[cut..].trim());
    let value = value.trim_matches(['"', '\'']);
    let real = real.trim_matches(['"', '\'']);
    let stand_in = |v: &str| {
        let lower = v.to_ascii_lowercase();
        (v.len() >= 3 && v.chars().all(|c| c == '*'))
            || ["redacted", "[redacted]", "<redacted>", "<hidden>", "[hidden]"]
                .contains(&lower.as_str())
            || (v.starts_with('<') && v.ends_with('>') && v.len() > 2 && !v.contains(' '))
    };
    head.chars().any(char::is_alphanumeric)
        && stand_in(value)
        && !real.is_empty()
        && !stand_in(real)
}

/// Whether a line may elide or mask a value at all (a cheap test before comparing it with the
/// file's lines).
fn may_elide(line: &str) -> bool {
    split(line).is_some() || line.contains("***") || line.contains('<') || {
        let lower = line.to_ascii_lowercase();
        lower.contains("redacted") || lower.contains("hidden")
    }
}

/// The line cut at its elision marks, `None` when it has none, or one that spreads a value
/// (`...args`, `...[`, `...{`, `...(`).
fn split(line: &str) -> Option<Vec<&str>> {
    let mut parts = Vec::new();
    let mut from = 0;
    let mut i = 0;
    while i < line.len() {
        let Some(mark) = MARKS.iter().find(|m| line[i..].starts_with(**m)) else {
            i += line[i..].chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let after = line[i + mark.len()..].chars().next();
        if after
            .is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '[' | '{' | '(' | '.'))
        {
            return None;
        }
        parts.push(&line[from..i]);
        i += mark.len();
        from = i;
    }
    if parts.is_empty() {
        return None;
    }
    parts.push(&line[from..]);
    Some(parts)
}

/// For the listing's lines that the file's lines do not pair with: in each stretch between lines
/// kept as they were (`pairs`, in order), a listing line that elides exactly one of the
/// stretch's unpaired file lines stands for it. `(file line, listing line)` of each found.
pub fn elided_pairs(
    file: &[String],
    listing: &[&str],
    pairs: &[(usize, usize)],
) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let ends = pairs.iter().copied().chain(std::iter::once((file.len(), listing.len())));
    let (mut o_pos, mut r_pos) = (0usize, 0usize);
    for (o_end, r_end) in ends {
        let taken = found.len();
        let stretch = listing.iter().enumerate().take(r_end).skip(r_pos);
        for (r, line) in stretch.filter(|(_, l)| may_elide(l)) {
            let after = found[taken..].last().map_or(o_pos, |&(o, _): &(usize, usize)| o + 1);
            let mut matches = (after..o_end.min(file.len())).filter(|&o| elides(line, &file[o]));
            if let (Some(o), None) = (matches.next(), matches.next()) {
                found.push((o, r));
            }
        }
        o_pos = o_end + 1;
        r_pos = r_end + 1;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_written_as_dots_elides_the_files_value() {
        assert!(elides("SECRET_KEY=...", "SECRET_KEY=6f1c0e2b"));
        assert!(elides("DATABASE_URL=postgres://...", "DATABASE_URL=postgres://u:p@db:5432/x"));
        assert!(elides("      POSTGRES_PASSWORD: ...", "      POSTGRES_PASSWORD: 9vK2mQ7x"));
        assert!(elides("TOKEN = \"...\"", "TOKEN = \"abc\""));
        assert!(elides("KEY=\u{2026}", "KEY=abc"));
        assert!(elides("url = \"https://...@host/...\"", "url = \"https://me:pw@host/db\""));
    }

    #[test]
    fn a_masked_value_stands_for_the_files_value() {
        assert!(elides("DB_PASSWORD=********", "DB_PASSWORD=hunter2"));
        assert!(elides("api_key: \"<your-api-key>\"", "api_key: \"sk-live-123\""));
        assert!(elides("SECRET=REDACTED", "SECRET=abc"));
        assert!(elides("  token: <redacted>", "  token: ghp_x1"));
        assert!(!elides("DB_PASSWORD=********", "DB_USER=admin"), "another key");
        assert!(!elides("LIMIT=<10>", "LIMIT="), "nothing to keep");
        assert!(!elides("x = a * b", "x = a + b"), "code");
        // Part of the value masked.
        let url = "DATABASE_URL=postgres://app:Zq8v!k2L@db.internal:5432/app";
        assert!(elides("DATABASE_URL=postgres://app:********@db.internal:5432/app", url));
        assert!(elides("STRIPE_KEY=sk_live_********", "STRIPE_KEY=sk_live_51Hx9aQ2"));
        assert!(!elides("STRIPE_KEY=sk_test_********", "STRIPE_KEY=sk_live_51Hx9aQ2"));
        assert!(!elides(
            "DATABASE_URL=postgres://app:***@db/x",
            "DATABASE_URL=postgres://app:***@db/x"
        ));
        assert!(!elides("y = a *** b", "y = a + b"), "no key before the mask");
    }

    #[test]
    fn what_is_not_an_elision_of_the_line() {
        assert!(!elides("SECRET_KEY=...", "SECRET_KEY="), "a mark stands for something");
        assert!(!elides("SECRET_KEY=...", "API_KEY=abc"), "another key");
        assert!(!elides("SECRET_KEY=...", "SECRET_KEY=..."), "the same line");
        assert!(!elides("    ...", "    return 1"), "nothing says what the line is");
        assert!(!elides("f(...args)", "f(*args)"), "a spread");
        assert!(!elides("x = [...items, 1]", "x = [a, 1]"), "a spread");
        assert!(!elides("TOKEN = \"...\"", "TOKEN = 'abc'"), "another quote");
    }

    #[test]
    fn an_elided_line_stands_for_the_one_file_line_it_elides_between_kept_lines() {
        let file: Vec<String> =
            ["# db", "URL=postgres://a:b@h/x", "KEY=s3cr3t", "DEBUG=0"].map(String::from).to_vec();
        let listing = ["# db", "URL=postgres://...", "KEY=...", "DEBUG=1", "NEW=..."];
        assert_eq!(elided_pairs(&file, &listing, &[(0, 0)]), vec![(1, 1), (2, 2)]);
        // Two file lines it could elide: neither.
        let file: Vec<String> = ["A=1", "A=2"].map(String::from).to_vec();
        assert_eq!(elided_pairs(&file, &["A=..."], &[]), vec![]);
    }
}
