//! The texts redline sends a model: the system prompt for each edit format, the user's request
//! with the files it concerns, and the follow-up that reports edits which could not be placed.
//!
//! Pure: plain strings in, plain messages out. Not for: sending them (`provider`), or parsing
//! the reply (`core::parse`).

use crate::core::edit::Format;
use crate::core::plan::{EditReport, Status};

/// Who a message is from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    System,
    User,
    Assistant,
}

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub role: Role,
    pub content: String,
}

const COMMON: &str = "You are an expert programmer editing files in the user's project. \
Make only the changes the request needs. Explain briefly, then give the edits. \
Copy every line you quote from a file exactly as it is, indentation included. \
Never edit a file that was not shown to you unless you create it.";

fn format_rules(format: Format) -> &'static str {
    match format {
        Format::SearchReplace => {
            "Write each edit as a SEARCH/REPLACE block: the file's path alone on a line, then a \
fenced code block holding\n<<<<<<< SEARCH\n(the exact lines to replace, with a few lines around \
them so they occur once in the file)\n=======\n(the new lines)\n>>>>>>> REPLACE\nTo create a file, \
leave the SEARCH part empty. Use one block per change; several blocks may name the same file."
        }
        Format::Udiff => {
            "Write the edits as a unified diff in a ```diff fenced block: `--- a/PATH` and \
`+++ b/PATH` headers, then `@@` hunks whose lines start with a space (unchanged), `-` (removed) \
or `+` (added). Include two or three unchanged lines around each change. To create a file, use \
`--- /dev/null`."
        }
        Format::Whole => {
            "Write each changed file in full: its path alone on a line, then a fenced code block \
with the file's complete new content. Never abbreviate with comments such as \
`... rest unchanged`."
        }
    }
}

/// The fence for a file's text: longer than any run of backticks inside it.
fn fence_for(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    "`".repeat((longest + 1).max(3))
}

/// The messages for a request: the system prompt for `format`, then one user message with the
/// request and each file (path, then its text in a fenced block).
pub fn build_request(
    format: Format,
    user_prompt: &str,
    files: &[(String, String)],
) -> Vec<Message> {
    let system = format!("{COMMON}\n\n{}", format_rules(format));
    let mut user = String::new();
    if !files.is_empty() {
        user.push_str("The files:\n\n");
        for (path, text) in files {
            let fence = fence_for(text);
            user.push_str(&format!("{path}\n{fence}\n{text}"));
            if !text.ends_with('\n') {
                user.push('\n');
            }
            user.push_str(&format!("{fence}\n\n"));
        }
    }
    user.push_str("Request: ");
    user.push_str(user_prompt.trim());
    user.push('\n');
    vec![
        Message { role: Role::System, content: system },
        Message { role: Role::User, content: user },
    ]
}

/// The follow-up after some edits of the last reply could not be placed: each failed edit with
/// why (the reason holds the closest text in the file, when there is one), and which edits
/// applied, so the model re-sends only the failed ones.
pub fn build_retry(failed: &[EditReport], applied: &[EditReport]) -> String {
    let mut text = String::from("Some of your edits could not be applied.\n\n");
    for r in failed.iter().filter(|r| r.status == Status::Refused) {
        let path = if r.path.is_empty() { "(no path)" } else { r.path.as_str() };
        let (a, b) = r.reply_lines;
        let why = r.reason.as_deref().unwrap_or("it could not be placed");
        text.push_str(&format!(
            "- The edit to {path} (lines {a}-{b} of your reply) failed: {why}\n"
        ));
    }
    if applied.is_empty() {
        text.push_str("\nNo edit was applied.\n");
    } else {
        text.push_str("\nThese edits were applied; do not send them again:\n");
        for r in applied {
            let (a, b) = r.reply_lines;
            text.push_str(&format!("- {} (lines {a}-{b} of your reply)\n", r.path));
        }
    }
    text.push_str(
        "\nSend corrected edits for the failed ones only, in the same format, quoting the \
file's current lines exactly.\n",
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(path: &str, status: Status, reason: Option<&str>) -> EditReport {
        EditReport {
            path: path.into(),
            format: Format::SearchReplace,
            status,
            strategy: None,
            similarity: None,
            lines: None,
            reason: reason.map(Into::into),
            reply_lines: (3, 9),
        }
    }

    #[test]
    fn request_holds_rules_files_and_prompt() {
        let files = vec![("src/a.py".to_string(), "x = '```'\n".to_string())];
        let m = build_request(Format::Udiff, "  fix it ", &files);
        assert_eq!(m.len(), 2);
        assert!(m[0].content.contains("unified diff"));
        assert!(m[1].content.contains("src/a.py\n````\nx = '```'\n````\n"));
        assert!(m[1].content.ends_with("Request: fix it\n"));
    }

    #[test]
    fn retry_names_failures_and_applied_edits() {
        let failed = [report("a.py", Status::Refused, Some("not found\nclosest text: y = 1"))];
        let applied = [report("b.py", Status::Applied, None)];
        let t = build_retry(&failed, &applied);
        assert!(t.contains("a.py (lines 3-9 of your reply) failed: not found"));
        assert!(t.contains("closest text: y = 1"));
        assert!(t.contains("do not send them again:\n- b.py"));
    }
}
