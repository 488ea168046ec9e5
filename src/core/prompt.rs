//! The prompts redline sends a model: one system prompt per edit format, the request that
//! carries the user's files, the retry message that reports edits which failed, and the request
//! a watch-mode comment trigger starts (`AI!`: a change; `AI?`: a question answered in prose,
//! under its own system prompt).
//!
//! The texts live in `prompts/*.md` and are bundled into the binary; a caller may override any
//! of them with text it found elsewhere ([`Overrides`]). Building a request or a retry is pure
//! string work.
//!
//! Not for: finding override files on disk (`shell::prompts`), talking to a model, or deciding
//! why an edit failed (`core::locate` says that; this module only words it).

use serde::Serialize;

use crate::core::edit::Format;
use crate::core::locate::Refusal;
use crate::core::trigger;

/// The bundled texts.
const UDIFF: &str = include_str!("../../prompts/udiff.md");
const SEARCH_REPLACE: &str = include_str!("../../prompts/search-replace.md");
const WHOLE: &str = include_str!("../../prompts/whole.md");
const RETRY: &str = include_str!("../../prompts/retry.md");
const TRIGGER_CHANGE: &str = include_str!("../../prompts/trigger-change.md");
const TRIGGER_QUESTION: &str = include_str!("../../prompts/trigger-question.md");
const ANSWER: &str = include_str!("../../prompts/answer.md");

/// Where the retry template puts the failed edits and the applied ones.
const FAILED_SLOT: &str = "{failed}";
const APPLIED_SLOT: &str = "{applied}";
/// Where a trigger template puts the file's path and its AI comments.
const PATH_SLOT: &str = "{path}";
const COMMENTS_SLOT: &str = "{comments}";

/// One of the prompt texts; its file is `prompts/<name>.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PromptName {
    Udiff,
    SearchReplace,
    Whole,
    Retry,
    /// The user message of an `AI!` comment trigger.
    TriggerChange,
    /// The user message of an `AI?` comment trigger.
    TriggerQuestion,
    /// The system prompt for questions, answered in prose without edits.
    Answer,
}

impl PromptName {
    pub const ALL: [PromptName; 7] = [
        PromptName::Udiff,
        PromptName::SearchReplace,
        PromptName::Whole,
        PromptName::Retry,
        PromptName::TriggerChange,
        PromptName::TriggerQuestion,
        PromptName::Answer,
    ];

    /// The file name, without `.md`.
    pub fn name(self) -> &'static str {
        match self {
            PromptName::Udiff => "udiff",
            PromptName::SearchReplace => "search-replace",
            PromptName::Whole => "whole",
            PromptName::Retry => "retry",
            PromptName::TriggerChange => "trigger-change",
            PromptName::TriggerQuestion => "trigger-question",
            PromptName::Answer => "answer",
        }
    }

    /// The system prompt for a reply format.
    pub fn for_format(format: Format) -> PromptName {
        match format {
            Format::Udiff => PromptName::Udiff,
            Format::SearchReplace => PromptName::SearchReplace,
            Format::Whole => PromptName::Whole,
        }
    }

    /// The text bundled into the binary.
    pub fn bundled(self) -> &'static str {
        match self {
            PromptName::Udiff => UDIFF,
            PromptName::SearchReplace => SEARCH_REPLACE,
            PromptName::Whole => WHOLE,
            PromptName::Retry => RETRY,
            PromptName::TriggerChange => TRIGGER_CHANGE,
            PromptName::TriggerQuestion => TRIGGER_QUESTION,
            PromptName::Answer => ANSWER,
        }
    }
}

/// Texts that replace the bundled ones; `None` keeps the bundled text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Overrides<'a> {
    pub udiff: Option<&'a str>,
    pub search_replace: Option<&'a str>,
    pub whole: Option<&'a str>,
    pub retry: Option<&'a str>,
    pub trigger_change: Option<&'a str>,
    pub trigger_question: Option<&'a str>,
    pub answer: Option<&'a str>,
}

impl<'a> Overrides<'a> {
    pub fn get(&self, name: PromptName) -> Option<&'a str> {
        match name {
            PromptName::Udiff => self.udiff,
            PromptName::SearchReplace => self.search_replace,
            PromptName::Whole => self.whole,
            PromptName::Retry => self.retry,
            PromptName::TriggerChange => self.trigger_change,
            PromptName::TriggerQuestion => self.trigger_question,
            PromptName::Answer => self.answer,
        }
    }

    pub fn set(&mut self, name: PromptName, text: Option<&'a str>) {
        let slot = match name {
            PromptName::Udiff => &mut self.udiff,
            PromptName::SearchReplace => &mut self.search_replace,
            PromptName::Whole => &mut self.whole,
            PromptName::Retry => &mut self.retry,
            PromptName::TriggerChange => &mut self.trigger_change,
            PromptName::TriggerQuestion => &mut self.trigger_question,
            PromptName::Answer => &mut self.answer,
        };
        *slot = text;
    }
}

/// A follow-up request in the same conversation, naming the hunks the user rejected so the
/// model does not send them again unasked.
pub fn build_follow_up(request: &str, rejected: &[String]) -> String {
    let mut out = request.trim_end().to_string();
    out.push('\n');
    if !rejected.is_empty() {
        out.push_str("\nThese edits from your earlier replies were rejected; do not send them again unless this request asks for them:\n\n");
        for r in rejected {
            out.push_str(&format!("- {r}\n"));
        }
    }
    out
}

/// Who a message is from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
}

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Message {
    pub role: Role,
    pub content: String,
}

impl Message {
    pub fn new(role: Role, content: impl Into<String>) -> Self {
        Message { role, content: content.into() }
    }
}

/// An edit that could not be applied, as the retry message reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct FailedEdit {
    /// The path as the model wrote it.
    pub path: String,
    /// Why it failed, in a sentence.
    pub reason: String,
    /// The old text the edit looked for.
    pub searched: String,
    /// The closest text actually in the file: its 1-based first line, the text, and its
    /// similarity (0..1) to `searched`.
    pub closest: Option<(usize, String, f64)>,
}

impl FailedEdit {
    /// From a refused edit's report.
    pub fn from_report(report: &crate::core::report::EditReport) -> FailedEdit {
        let reason = report.reason.as_deref().unwrap_or("it could not be applied");
        // The report's reason starts with the path and ends with the closest text for people;
        // both are given apart here.
        let first = reason.lines().next().unwrap_or(reason);
        let first = first.strip_prefix(&format!("{}: ", report.path)).unwrap_or(first);
        let (a, b) = report.reply_lines;
        FailedEdit {
            path: report.path.clone(),
            reason: format!("{first} (lines {a}-{b} of your reply)"),
            searched: report.searched.clone().unwrap_or_default(),
            closest: report.closest.as_ref().map(|c| (c.first_line, c.text.clone(), c.similarity)),
        }
    }

    /// From the locator's refusal.
    pub fn from_refusal(path: &str, searched: &str, refusal: &Refusal) -> FailedEdit {
        FailedEdit {
            path: path.to_string(),
            reason: refusal.message.clone(),
            searched: searched.to_string(),
            closest: refusal.closest.as_ref().map(|c| (c.first_line, c.text.clone(), c.similarity)),
        }
    }
}

/// The prompt texts in use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompts {
    udiff: String,
    search_replace: String,
    whole: String,
    retry: String,
    trigger_change: String,
    trigger_question: String,
    answer: String,
}

impl Default for Prompts {
    fn default() -> Self {
        Prompts::new(Overrides::default())
    }
}

impl Prompts {
    /// The bundled texts, each replaced by its override when there is one.
    pub fn new(overrides: Overrides<'_>) -> Prompts {
        let pick = |name: PromptName| overrides.get(name).unwrap_or(name.bundled()).to_string();
        Prompts {
            udiff: pick(PromptName::Udiff),
            search_replace: pick(PromptName::SearchReplace),
            whole: pick(PromptName::Whole),
            retry: pick(PromptName::Retry),
            trigger_change: pick(PromptName::TriggerChange),
            trigger_question: pick(PromptName::TriggerQuestion),
            answer: pick(PromptName::Answer),
        }
    }

    pub fn text(&self, name: PromptName) -> &str {
        match name {
            PromptName::Udiff => &self.udiff,
            PromptName::SearchReplace => &self.search_replace,
            PromptName::Whole => &self.whole,
            PromptName::Retry => &self.retry,
            PromptName::TriggerChange => &self.trigger_change,
            PromptName::TriggerQuestion => &self.trigger_question,
            PromptName::Answer => &self.answer,
        }
    }

    /// The system prompt for a reply format.
    pub fn system(&self, format: Format) -> &str {
        self.text(PromptName::for_format(format))
    }

    /// The messages that ask for an edit: the format's system prompt, then one user message
    /// holding each file under its path in a fenced block, and the user's request last.
    pub fn build_request(
        &self,
        format: Format,
        user_prompt: &str,
        files: &[(&str, &str)],
    ) -> Vec<Message> {
        vec![
            Message { role: Role::System, content: self.system(format).to_string() },
            Message { role: Role::User, content: user_message(user_prompt, files) },
        ]
    }

    /// The messages a watch-mode comment trigger sends: each file under its path (the
    /// triggered file among them, as it is now), then the trigger template with the file's path
    /// and its AI comments (`- line N: text`, in file order). A change request goes under the
    /// format's system prompt, so its edits come back in that format; a question goes under the
    /// `answer` system prompt, which asks for prose and no edits.
    pub fn build_trigger(
        &self,
        format: Format,
        request: &trigger::Request,
        files: &[(&str, &str)],
    ) -> Vec<Message> {
        let (system, template) = match request.kind {
            trigger::Kind::Change => (self.system(format), &self.trigger_change),
            trigger::Kind::Question => (self.answer.as_str(), &self.trigger_question),
        };
        let comments: String = request.instructions().lines().map(|l| format!("- {l}\n")).collect();
        let mut message = template.replace(PATH_SLOT, &request.path);
        // A template without the slot still gets the comments, at the end.
        if message.contains(COMMENTS_SLOT) {
            message = message.replace(COMMENTS_SLOT, comments.trim_end());
        } else {
            message = format!("{}\n\n{}", message.trim_end(), comments.trim_end());
        }
        vec![
            Message { role: Role::System, content: system.to_string() },
            Message { role: Role::User, content: user_message(&message, files) },
        ]
    }

    /// The message that reports failed edits (why, and the closest text actually in the file)
    /// and the edits that did apply, so the model resends only what failed.
    pub fn build_retry(&self, failed: &[FailedEdit], applied: &[String]) -> String {
        let failed_text = failed_section(failed);
        let applied_text = applied_section(applied);
        let mut message = self.retry.clone();
        // A template without a slot still gets the section, at the end: the facts matter more
        // than the wording.
        for (slot, text) in [(FAILED_SLOT, &failed_text), (APPLIED_SLOT, &applied_text)] {
            if message.contains(slot) {
                message = message.replace(slot, text.trim_end());
            } else {
                message = format!("{}\n\n{}", message.trim_end(), text.trim_end());
            }
        }
        let mut out = message.trim_end().to_string();
        out.push('\n');
        out
    }
}

/// A user message: each file under its path in a fenced block, then the request.
fn user_message(request: &str, files: &[(&str, &str)]) -> String {
    let mut content = String::new();
    if !files.is_empty() {
        content.push_str("Here are the files, each under its path:\n\n");
        for (path, text) in files {
            push_fenced(&mut content, Some(path), text);
            content.push('\n');
        }
    }
    content.push_str(request.trim_end());
    content.push('\n');
    content
}

fn failed_section(failed: &[FailedEdit]) -> String {
    let mut out = String::new();
    if failed.is_empty() {
        out.push_str("No edit failed.\n");
        return out;
    }
    let n = failed.len();
    out.push_str(&format!("{n} edit{} failed:\n", if n == 1 { "" } else { "s" }));
    for (i, edit) in failed.iter().enumerate() {
        out.push_str(&format!("\n### {}. `{}`: {}\n\n", i + 1, edit.path, edit.reason.trim()));
        if !edit.searched.trim().is_empty() {
            out.push_str("You looked for:\n\n");
            push_fenced(&mut out, None, &edit.searched);
        }
        match &edit.closest {
            Some((first, text, similarity)) => {
                let last = first + text.lines().count().max(1) - 1;
                let percent = (similarity * 100.0).floor().clamp(0.0, 100.0) as u32;
                let lines = if last == *first {
                    format!("line {first}")
                } else {
                    format!("lines {first}-{last}")
                };
                out.push_str(&format!(
                    "\nThe closest text actually in `{}` ({lines}, {percent}% similar) is:\n\n",
                    edit.path
                ));
                push_fenced(&mut out, None, text);
            }
            None => out.push_str(&format!("\nNothing similar was found in `{}`.\n", edit.path)),
        }
    }
    out
}

fn applied_section(applied: &[String]) -> String {
    if applied.is_empty() {
        return "None of your edits were applied.\n".to_string();
    }
    let mut out = String::from("These edits were applied; do not send them again:\n\n");
    for a in applied {
        out.push_str(&format!("- {}\n", a.trim()));
    }
    out
}

/// Append `text` in a fenced block, under `path` when given. The fence is longer than any run
/// of backticks in the text, so nothing inside can close it.
fn push_fenced(out: &mut String, path: Option<&str>, text: &str) {
    let fence = "`".repeat(longest_backtick_run(text).max(2) + 1);
    if let Some(path) = path {
        out.push_str(path);
        out.push('\n');
    }
    out.push_str(&fence);
    out.push('\n');
    out.push_str(text);
    if !text.is_empty() && !text.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&fence);
    out.push('\n');
}

fn longest_backtick_run(text: &str) -> usize {
    let mut longest = 0;
    let mut run = 0;
    for b in text.bytes() {
        if b == b'`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
}

#[cfg(test)]
mod tests;
