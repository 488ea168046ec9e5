use super::*;

#[test]
fn a_follow_up_names_the_rejected_edits() {
    let m = build_follow_up("Now add tests.", &["app.py (lines 3-9 of your reply)".into()]);
    assert!(m.starts_with("Now add tests.\n"));
    assert!(m.contains("rejected"));
    assert!(m.contains("- app.py (lines 3-9 of your reply)"));
    assert_eq!(build_follow_up("Again.", &[]), "Again.\n");
}
use crate::core::locate::{Closest, RefusalKind};

fn failed() -> FailedEdit {
    FailedEdit {
        path: "src/app.py".into(),
        reason: "SEARCH text not found".into(),
        searched: "def main():\n    x = 1\n".into(),
        closest: Some((12, "def main():\n    x = 10\n".into(), 0.934)),
    }
}

#[test]
fn bundled_prompts_teach_the_lessons() {
    let p = Prompts::default();
    for format in [Format::Udiff, Format::SearchReplace, Format::Whole] {
        let text = p.system(format).to_lowercase();
        assert!(text.contains("never elide"), "{format:?}");
        assert!(text.contains("exactly as it was given"), "{format:?}");
        assert!(text.contains("one fenced block per file") || text.contains("one block per file"));
    }
    assert!(p.system(Format::Udiff).contains("Do not write line numbers"));
    assert!(p.system(Format::Udiff).contains("Rewrite whole blocks"));
    assert!(p.system(Format::SearchReplace).contains("copied exactly from the file"));
    assert!(p.text(PromptName::Retry).contains(FAILED_SLOT));
    assert!(p.text(PromptName::Retry).contains(APPLIED_SLOT));
}

#[test]
fn overrides_replace_only_what_they_name() {
    let mut o = Overrides::default();
    o.set(PromptName::Whole, Some("Send whole files."));
    assert_eq!(o.get(PromptName::Whole), Some("Send whole files."));
    let p = Prompts::new(o);
    assert_eq!(p.system(Format::Whole), "Send whole files.");
    assert_eq!(p.system(Format::Udiff), UDIFF);
    assert_eq!(p.text(PromptName::Retry), RETRY);
    for name in PromptName::ALL {
        assert_eq!(Prompts::default().text(name), name.bundled(), "{}", name.name());
    }
}

#[test]
fn a_request_carries_each_file_under_its_path() {
    let p = Prompts::default();
    let files = [("src/app.py", "x = 1\n"), ("README.md", "Run:\n````sh\nmake\n````\nok")];
    let msgs = p.build_request(Format::SearchReplace, "Make x two.", &files);
    assert_eq!(msgs.len(), 2);
    assert_eq!(msgs[0].role, Role::System);
    assert_eq!(msgs[0].content, SEARCH_REPLACE);
    assert_eq!(msgs[1].role, Role::User);
    let user = &msgs[1].content;
    assert!(user.contains("src/app.py\n```\nx = 1\n```\n"), "{user}");
    // Longer than the file's own four-backtick fence, and the missing newline is added.
    assert!(user.contains("README.md\n`````\nRun:\n````sh\nmake\n````\nok\n`````\n"), "{user}");
    assert!(user.ends_with("Make x two.\n"));
    let json = serde_json::to_value(&msgs[0]).expect("json");
    assert_eq!(json["role"], "system");
}

#[test]
fn a_request_without_files_is_just_the_prompt() {
    let msgs = Prompts::default().build_request(Format::Udiff, "Hello\n\n", &[]);
    assert_eq!(msgs[1].content, "Hello\n");
}

#[test]
fn the_retry_names_failures_closest_text_and_what_applied() {
    let p = Prompts::default();
    let applied = vec!["src/db.py lines 10-16".to_string(), "src/new.py (created)".to_string()];
    let msg = p.build_retry(&[failed()], &applied);
    assert!(msg.contains("1 edit failed"), "{msg}");
    assert!(msg.contains("`src/app.py`: SEARCH text not found"), "{msg}");
    assert!(msg.contains("```\ndef main():\n    x = 1\n```"), "{msg}");
    assert!(msg.contains("(lines 12-13, 93% similar)"), "{msg}");
    assert!(msg.contains("```\ndef main():\n    x = 10\n```"), "{msg}");
    assert!(msg.contains("do not send them again"), "{msg}");
    assert!(msg.contains("- src/db.py lines 10-16\n- src/new.py (created)"), "{msg}");
    assert!(!msg.contains(FAILED_SLOT) && !msg.contains(APPLIED_SLOT));
}

#[test]
fn a_retry_without_closest_text_or_applied_edits_says_so() {
    let mut f = failed();
    f.closest = None;
    let msg = Prompts::default().build_retry(&[f.clone(), f], &[]);
    assert!(msg.contains("2 edits failed"), "{msg}");
    assert!(msg.contains("Nothing similar was found in `src/app.py`"), "{msg}");
    assert!(msg.contains("None of your edits were applied"), "{msg}");
}

#[test]
fn a_retry_template_without_slots_still_gets_the_facts() {
    let mut o = Overrides::default();
    o.set(PromptName::Retry, Some("Fix these."));
    let msg = Prompts::new(o).build_retry(&[failed()], &["a.py".to_string()]);
    assert!(msg.starts_with("Fix these.\n\n1 edit failed"), "{msg}");
    assert!(msg.contains("    x = 10"));
    assert!(msg.ends_with("- a.py\n"), "{msg}");
}

#[test]
fn closest_text_with_backticks_gets_a_longer_fence() {
    let mut f = failed();
    f.closest = Some((3, "s = \"```\"\n".into(), 0.6));
    let msg = Prompts::default().build_retry(&[f], &[]);
    assert!(msg.contains("(line 3, 60% similar)"), "{msg}");
    assert!(msg.contains("````\ns = \"```\"\n````"), "{msg}");
}

fn trigger_request(kind: trigger::Kind) -> trigger::Request {
    let text = "# AI: tests use pytest\ndef f():\n    pass  # AI! add a docstring\n# why AI?\n";
    let reqs = trigger::scan("src/a.py", text, &Default::default());
    reqs.into_iter().find(|r| r.kind == kind).expect("a request of that kind")
}

#[test]
fn a_change_trigger_asks_for_edits_in_the_format() {
    let p = Prompts::default();
    let req = trigger_request(trigger::Kind::Change);
    let msgs = p.build_trigger(Format::SearchReplace, &req, &[("src/a.py", "x\n")]);
    assert_eq!(msgs[0].content, SEARCH_REPLACE);
    let user = &msgs[1].content;
    assert!(user.starts_with("Here are the files"), "{user}");
    assert!(user.contains("src/a.py\n```\nx\n```\n"), "{user}");
    assert!(user.contains("- line 1: tests use pytest\n- line 3: add a docstring\n\n"), "{user}");
    assert!(user.contains("`src/a.py`"), "{user}");
    assert!(user.contains("Do not copy the `AI!` comments into your new text"), "{user}");
    assert!(!user.contains(PATH_SLOT) && !user.contains(COMMENTS_SLOT), "{user}");
    assert!(!user.contains("why"), "the question is not part of the change: {user}");
}

#[test]
fn a_question_trigger_asks_for_prose_under_its_own_system_prompt() {
    let p = Prompts::default();
    let req = trigger_request(trigger::Kind::Question);
    let msgs = p.build_trigger(Format::Udiff, &req, &[("src/a.py", "x\n")]);
    assert_eq!(msgs[0].content, ANSWER);
    assert!(msgs[0].content.contains("Do not propose edits"));
    let user = &msgs[1].content;
    assert!(user.contains("- line 1: tests use pytest\n- line 4: why\n"), "{user}");
    assert!(user.contains("Answer in prose"), "{user}");
}

#[test]
fn trigger_templates_can_be_overridden_and_still_get_the_comments() {
    let mut o = Overrides::default();
    o.set(PromptName::TriggerChange, Some("Do what {path} says."));
    o.set(PromptName::Answer, Some("Just talk."));
    let p = Prompts::new(o);
    let msgs = p.build_trigger(Format::Whole, &trigger_request(trigger::Kind::Change), &[]);
    assert_eq!(
        msgs[1].content,
        "Do what src/a.py says.\n\n- line 1: tests use pytest\n- line 3: add a docstring\n"
    );
    let msgs = p.build_trigger(Format::Whole, &trigger_request(trigger::Kind::Question), &[]);
    assert_eq!(msgs[0].content, "Just talk.");
}

#[test]
fn from_a_refusal() {
    let refusal = Refusal {
        kind: RefusalKind::NotFound,
        message: "not found".into(),
        closest: Some(Closest { first_line: 4, text: "y\n".into(), similarity: 0.7 }),
        candidates: Vec::new(),
    };
    let f = FailedEdit::from_refusal("a.py", "x\n", &refusal);
    assert_eq!(f.closest, Some((4, "y\n".to_string(), 0.7)));
    assert_eq!(f.reason, "not found");
}
