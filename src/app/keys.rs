//! The review screen's keys: the action a key stands for (through the keymap), the dialogs
//! that take the keys while they are open, and moving through the hunks and panes.

use super::*;

impl App {
    pub(super) fn on_key(&mut self, key: KeyEvent, now: Instant) -> Vec<AppEffect> {
        if let Some(modal) = self.modal.clone() {
            return self.on_modal_key(modal, key, now);
        }
        let Some(action) = self.keymap.action(&key) else {
            // A key that does nothing says so once (unless a message is up), and where the
            // keys are listed.
            if matches!(key.code, KeyCode::Char(_) | KeyCode::F(_)) && self.notice.is_none() {
                let help = self.keymap.first_key(Action::Help);
                self.notice = Some(format!("that key does nothing here: `{help}` lists the keys"));
            }
            return Vec::new();
        };
        // In a terminal too small to show the hunk list, a key would act on a hunk no one sees.
        if !matches!(action, Action::Quit | Action::Cancel | Action::Help)
            && super::layout::too_small_now(self)
        {
            self.notice = Some("the terminal is too small to review: make it larger".into());
            return Vec::new();
        }
        self.last_action = Some(action);
        self.notice = None;
        // A single decision ends the batch `u` would take back whole.
        if matches!(action, Action::Accept | Action::Reject | Action::Edit | Action::Split) {
            self.last_batch = None;
        }
        match action {
            Action::Next => self.line(1),
            Action::Prev => self.line(-1),
            Action::Top => self.jump(false),
            Action::Bottom => self.jump(true),
            Action::Log => self.modal = Some(Modal::Log(0)),
            Action::NextFile => self.step_file(true),
            Action::PrevFile => self.step_file(false),
            Action::Accept => {
                if let Some(id) = self.selected {
                    // A hunk that cannot be accepted (a conflict, one decided already) keeps
                    // the selection: the notice's advice (`n` drops it) is about this hunk,
                    // and would otherwise fall on the next one.
                    let open = self.review.hunk(id).is_some_and(|h| {
                        !h.state.is_conflict()
                            && matches!(h.state, HunkState::Pending | HunkState::Failed)
                    });
                    let effects = self.accept_id(id);
                    if open {
                        self.advance_from(id);
                    }
                    return effects;
                }
            }
            Action::Reject => {
                if let Some(id) = self.selected {
                    if self.review.reject(id) {
                        self.advance_from(id);
                    } else {
                        self.notice = Some("only an open hunk can be rejected".into());
                    }
                }
            }
            Action::Undo => return self.undo(),
            Action::AcceptFile | Action::RejectFile => {
                let Some(path) = self.selected_hunk().map(|h| h.path.clone()) else {
                    return Vec::new();
                };
                let ids: Vec<HunkId> = self.open_ids(|h| h.path == path);
                return self.batch(ids, action == Action::AcceptFile);
            }
            Action::AcceptAll => {
                let ids = self.open_ids(|h| h.state == HunkState::Pending);
                // Under a search, "all" is what the list shows: say so, and what it leaves.
                let shown = ids.len();
                let hidden = self.review.counts().pending.saturating_sub(shown);
                let effects = self.batch(ids, true);
                if !self.filter.is_empty() {
                    self.notice = Some(format!(
                        "accepted the {shown} open hunk(s) the search shows; {hidden} more are hidden by it (Esc clears it)"
                    ));
                }
                return effects;
            }
            Action::Split => self.split(),
            Action::Pick => self.pick(&key),
            Action::Edit => return self.edit_selected(),
            Action::ToggleView => {
                self.view = match self.view {
                    ViewMode::Unified => ViewMode::SideBySide,
                    ViewMode::SideBySide => ViewMode::Unified,
                }
            }
            Action::ToggleWrap => self.toggle_wrap(),
            Action::ScrollLeft => self.scroll_sideways(-1),
            Action::ScrollRight => self.scroll_sideways(1),
            Action::Focus => {
                self.focus = match self.focus {
                    Focus::Hunks => Focus::Diff,
                    Focus::Diff => Focus::Stream,
                    Focus::Stream => Focus::Hunks,
                }
            }
            Action::PageUp => self.scroll_page(false),
            Action::PageDown => self.scroll_page(true),
            Action::Search => self.modal = Some(Modal::Search(self.filter.clone())),
            Action::Retry => return self.retry(now),
            Action::FollowUp => self.open_follow_up(),
            Action::Cancel => return self.cancel(),
            Action::Help => self.modal = Some(Modal::Help(0)),
            Action::Quit => return self.quit(),
        }
        Vec::new()
    }

    /// `e`: the selected hunk's new text (or a conflict's document) in the editor.
    fn edit_selected(&mut self) -> Vec<AppEffect> {
        if let Some(h) = self.selected_hunk()
            && let Some(view) = self.review.conflict_edit_view(h.id)
        {
            let text = crate::core::review::conflict_document(&view, &h.path);
            return vec![AppEffect::OpenEditor { hunk: h.id, text }];
        }
        if let Some(h) = self.selected_hunk()
            && h.state.is_open()
        {
            let text = match &h.edit.change {
                Change::Modify { hunk } => hunk.new_text(),
                Change::Create { content } | Change::Replace { content } => content.clone(),
                Change::Delete { .. } => {
                    self.notice = Some("a deletion has no text to edit".into());
                    return Vec::new();
                }
            };
            return vec![AppEffect::OpenEditor { hunk: h.id, text }];
        }
        // A decided hunk: say why nothing opens, and how to get there.
        if let Some(h) = self.selected_hunk() {
            self.notice = Some(format!(
                "this hunk is {}: `u` takes the decision back, then `e` edits it",
                h.state.name()
            ));
        }
        Vec::new()
    }

    /// `m`: the follow-up input, when there is a conversation. While the model is still
    /// writing it opens too, and what is sent waits for the reply's end: refused, the text typed
    /// next without looking ("also add tests") ran as review keys (`a` accepted a file).
    fn open_follow_up(&mut self) {
        if self.conversation.is_empty() && !self.streaming {
            self.notice = Some("there is no conversation to follow up (the demo)".into());
        } else {
            let draft = self.follow_up_queued.take().unwrap_or_default();
            if self.streaming {
                self.notice = Some(
                    "the model is still writing: the follow-up is sent when it is done".into(),
                );
            }
            self.modal = Some(Modal::FollowUp(draft));
        }
    }

    /// Text pasted into the terminal: into the open input box, as typed (a pasted traceback
    /// keeps its lines); with no box open, nothing: a paste is never a run of review keys.
    pub(super) fn paste(&mut self, text: &str) {
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        match self.modal.take() {
            Some(Modal::FollowUp(mut typed)) => {
                typed.push_str(&text);
                self.modal = Some(Modal::FollowUp(typed));
            }
            Some(Modal::Prompt(mut typed)) => {
                typed.push_str(&text);
                self.modal = Some(Modal::Prompt(typed));
            }
            // A search is one line.
            Some(Modal::Search(mut query)) => {
                query.push_str(&text.replace('\n', " "));
                self.modal = Some(Modal::Search(query));
            }
            other => {
                self.modal = other;
                let key = self.keymap.first_key(Action::FollowUp);
                self.notice = Some(format!(
                    "a paste is not taken as keys ({} characters ignored): `{key}` opens the follow-up box to paste into",
                    text.chars().count()
                ));
            }
        }
    }

    /// `esc`: stop the stream, or clear the search.
    fn cancel(&mut self) -> Vec<AppEffect> {
        // The innermost thing first: a search the user just typed, then the stream (Esc after
        // a search stopped the reply mid-word and left the filter on).
        if !self.filter.is_empty() {
            self.filter.clear();
            self.notice = Some("search cleared".into());
            return Vec::new();
        }
        if self.streaming {
            self.notice = Some("cancelling the stream".into());
            return vec![AppEffect::CancelStream];
        }
        Vec::new()
    }

    /// `q`: quit, asking first while anything is undecided or streaming. With every hunk
    /// decided and a write still on its way, there is nothing to ask: quit once it lands.
    fn quit(&mut self) -> Vec<AppEffect> {
        let c = self.review.counts();
        if self.streaming || c.undecided() > 0 {
            self.modal = Some(Modal::ConfirmQuit);
            return Vec::new();
        }
        if self.writes.any_busy() {
            self.quit_when_written = true;
            self.notice = Some("quitting once the write on its way lands".into());
            return Vec::new();
        }
        vec![AppEffect::Quit]
    }

    /// After each message: quit if `q` waits for writes and they have landed. A write that
    /// failed (its hunk back undecided) or a new stream calls the quit off.
    pub(super) fn quit_if_written(&mut self) -> Option<AppEffect> {
        if !self.quit_when_written || self.writes.any_busy() {
            return None;
        }
        self.quit_when_written = false;
        let c = self.review.counts();
        if self.streaming || c.undecided() > 0 {
            let why = format!("{} hunk(s) undecided", c.undecided());
            self.notice = Some(match self.notice.take() {
                Some(said) => format!("{said}; not quitting: {why}"),
                None => format!("not quitting: {why}"),
            });
            return None;
        }
        Some(AppEffect::Quit)
    }

    pub(super) fn on_modal_key(
        &mut self,
        modal: Modal,
        key: KeyEvent,
        now: Instant,
    ) -> Vec<AppEffect> {
        let ctrl_c =
            key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL);
        match modal {
            Modal::Help(top) => self.help_key(top, key),
            Modal::Log(back) => self.log_key(back, key),
            Modal::ConfirmQuit => match key.code {
                KeyCode::Char('y' | 'Y' | 'q') | KeyCode::Enter => {
                    self.modal = None;
                    let mut effects = Vec::new();
                    if self.streaming {
                        effects.push(AppEffect::CancelStream);
                    }
                    effects.push(AppEffect::Quit);
                    return effects;
                }
                _ if ctrl_c => return vec![AppEffect::Quit],
                KeyCode::Char('n' | 'N') | KeyCode::Esc => {
                    self.modal = None;
                    // (The reminder a stray key brought up answers a question no longer asked.)
                    if self.notice.as_deref().is_some_and(|n| n.starts_with("quit?")) {
                        self.notice = None;
                    }
                }
                // Any other key leaves the question open: typed by someone who took the `q` for
                // done (a shell command), closing it would run the rest as review keys (`a`
                // accepts a file).
                _ => {
                    self.modal = Some(Modal::ConfirmQuit);
                    self.notice = Some("quit? y quits, n goes back to the review".into());
                }
            },
            Modal::Search(query) => self.search_key(query, key, ctrl_c),
            // Closing sends nothing: what was typed may be anything (a pasted command line with
            // a key in it), and only an Enter on some text is a request.
            Modal::FollowUp(mut text) => match key.code {
                KeyCode::Enter if !text.trim().is_empty() && self.streaming => {
                    self.modal = None;
                    self.follow_up_queued = Some(text);
                    self.notice = Some(
                        "follow-up queued: sent when the model is done (`m` opens it again)".into(),
                    );
                }
                KeyCode::Enter if !text.trim().is_empty() => {
                    self.modal = None;
                    return self.follow_up(&text, now);
                }
                KeyCode::Enter | KeyCode::Esc => self.modal = None,
                _ if ctrl_c => self.modal = None,
                _ => {
                    edit_line(&mut text, key);
                    self.modal = Some(Modal::FollowUp(text));
                }
            },
            Modal::Prompt(mut text) => match key.code {
                KeyCode::Enter if !text.trim().is_empty() => return self.send_prompt(&text, now),
                KeyCode::Esc => return vec![AppEffect::Quit],
                _ if ctrl_c => return vec![AppEffect::Quit],
                _ => {
                    edit_line(&mut text, key);
                    self.modal = Some(Modal::Prompt(text));
                }
            },
        }
        Vec::new()
    }

    /// A key in the search box: Enter filters the hunk list, Esc clears it.
    fn search_key(&mut self, mut query: String, key: KeyEvent, ctrl_c: bool) {
        match key.code {
            KeyCode::Enter => {
                self.filter = query;
                self.modal = None;
                self.select(self.order().first().map(|&i| self.review.hunks()[i].id));
                if self.selected.is_none() {
                    self.notice = Some(format!("no hunk holds `{}`", self.filter));
                }
            }
            KeyCode::Esc => {
                self.filter.clear();
                self.modal = None;
            }
            _ if ctrl_c => {}
            _ => {
                edit_line(&mut query, key);
                self.modal = Some(Modal::Search(query));
            }
        }
    }

    /// Enter in the request line: build the request from the prompts and send it.
    fn send_prompt(&mut self, text: &str, now: Instant) -> Vec<AppEffect> {
        self.modal = None;
        self.request_line = Some(text.trim().to_string());
        let Some(req) = &self.request else { return Vec::new() };
        let files: Vec<(&str, &str)> =
            req.files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        self.conversation = self
            .prompts
            .build_request(req.format, text, &files)
            .into_iter()
            .map(|m| ChatMessage::new(role(m.role), m.content))
            .collect();
        self.begin_stream(now);
        vec![self.stream_effect(Why::Initial)]
    }
}

/// A key in a one-line input box: a character is typed; Backspace takes the last one back;
/// Ctrl-U clears the line and Ctrl-W takes the last word back, as in a shell. Other keys with
/// Ctrl or Alt type nothing (Ctrl-A, Ctrl-E, Ctrl-K typed their letters into the request).
pub(super) fn edit_line(text: &mut String, key: KeyEvent) {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    match key.code {
        KeyCode::Backspace => {
            text.pop();
        }
        KeyCode::Char('u') if ctrl => text.clear(),
        KeyCode::Char('w') if ctrl => {
            let kept = text.trim_end().len();
            let word = text[..kept].rfind(char::is_whitespace).map_or(0, |i| i + 1);
            text.truncate(word);
        }
        KeyCode::Char(c) if !ctrl && !alt => text.push(c),
        _ => {}
    }
}
