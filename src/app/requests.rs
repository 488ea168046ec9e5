//! Requests to the model: starting a stream, its end, its failure, sending a failed request
//! again, sending the failed edits back (`r`), and follow-ups (`m`).
//!
//! Not for: the network (`provider`, `runtime`), watch mode's triggers (`watch`).

use super::*;

impl App {
    pub(super) fn begin_stream(&mut self, now: Instant) {
        self.request_failed = None;
        self.round += 1;
        self.streaming = true;
        self.stats = StreamStats {
            started: Some(now),
            repeated_before: self.review.repeated,
            ..StreamStats::default()
        };
        // The project as it is now: files created since the last round are paths too.
        let known_paths = self.review.project_files();
        self.parse = ParseOptions { only: None, known_paths };
        self.parser = StreamParser::new(self.parse.clone());
        self.round_start = self.stream_text.len();
    }

    /// The request for the conversation as it is, with how its reply is to be parsed.
    pub(super) fn stream_effect(&self, why: Why) -> AppEffect {
        AppEffect::StartStream {
            messages: self.conversation.clone(),
            why,
            parse: self.parse.clone(),
        }
    }

    /// A piece of the reply with the edits it finished (parsed by the app or the stream side).
    pub(super) fn take_text(
        &mut self,
        text: &str,
        events: Vec<Event>,
        now: Instant,
    ) -> Vec<AppEffect> {
        self.stats.first_text.get_or_insert(now);
        self.stats.bytes += text.len();
        self.stream_text.push_str(text);
        self.add_events(events)
    }

    pub(super) fn stream_end(&mut self, done: StreamDone, now: Instant) -> Vec<AppEffect> {
        // One of the two is empty: the app parsed the chunks, or the stream side did.
        let mut events = self.parser.finish();
        events.extend(done.last);
        let mut effects = self.add_events(events);
        self.streaming = false;
        self.stats.ended = Some(now);
        self.stats.output_tokens = done.output_tokens;
        let repeated = self.review.repeated - self.stats.repeated_before;
        self.notice = done.note.or_else(|| {
            (repeated > 0).then(|| {
                format!(
                    "{repeated} edit(s) of this reply repeat hunks still pending, failed or written: not added again (a rejected one comes back as a new hunk)"
                )
            })
        });
        // A follow-up queued while the model wrote goes first: the user asked it of this reply.
        if let Some(text) = self.follow_up_queued.take() {
            effects.extend(self.follow_up(&text, now));
        }
        effects.extend(self.next_trigger(now));
        effects
    }

    /// A stream ended in error (`None`: cancelled). A cancel is the user's; anything else is a
    /// failed request, shown as failed with its whole reason, which `r` sends again (in watch
    /// mode, saving the file again asks again too).
    pub(super) fn stream_error(&mut self, reason: Option<String>, now: Instant) -> Vec<AppEffect> {
        self.streaming = false;
        self.stats.ended = Some(now);
        if let Some(reason) = reason {
            let key = self.keymap.first_key(Action::Retry);
            self.notice = Some(format!(
                "request failed: {reason} — `{key}` sends it again; the edits finished before \
                 it stay under review"
            ));
            self.request_failed = Some(reason);
            self.forget_failed_trigger();
            self.keep_follow_up_draft();
        } else {
            self.stats.cancelled = true;
            self.notice =
                Some("stream cancelled; the edits finished before it stay under review".into());
            self.keep_follow_up_draft();
        }
        self.next_trigger(now)
    }

    /// Send the failed request again, as it was.
    fn retry_request(&mut self, now: Instant) -> Vec<AppEffect> {
        let answering = self.watch.as_ref().and_then(|w| w.answering(self.round)).cloned();
        self.stream_text.push_str("\n\n── the request failed; sending it again ──\n\n");
        self.begin_stream(now);
        if let Some(request) = answering {
            self.answer_again(request);
        }
        vec![self.stream_effect(Why::Retry)]
    }

    pub(super) fn retry(&mut self, now: Instant) -> Vec<AppEffect> {
        if self.streaming {
            self.notice = Some("the model is still writing; retry when it is done".into());
            return Vec::new();
        }
        if self.request_failed.is_some() && !self.conversation.is_empty() {
            return self.retry_request(now);
        }
        // Failed hunks and conflicts go back to the model, conflicts with the file's text now.
        let failed: Vec<&ReviewHunk> = self
            .review
            .hunks()
            .iter()
            .filter(|h| h.state == HunkState::Failed || h.state.is_conflict())
            .collect();
        // Edits refused before they became hunks (`path: why`), not sent back yet.
        let refused: Vec<FailedEdit> = self.review.problems[self.review.problems_asked..]
            .iter()
            .map(|p| {
                let (path, reason) = p.split_once(": ").unwrap_or(("", p.as_str()));
                FailedEdit {
                    path: path.to_string(),
                    reason: reason.to_string(),
                    searched: String::new(),
                    closest: None,
                }
            })
            .collect();
        if failed.is_empty() && refused.is_empty() {
            self.notice = Some("no failed or conflicting edits to send back".into());
            return Vec::new();
        }
        let mut failed_edits: Vec<FailedEdit> = failed
            .iter()
            .map(|h| {
                self.review
                    .conflict_failed_edit(h.id)
                    .unwrap_or_else(|| FailedEdit::from_report(&h.report))
            })
            .collect();
        let sent_back = failed.len() + refused.len();
        failed_edits.extend(refused);
        let ids: Vec<HunkId> = failed.iter().map(|h| h.id).collect();
        self.review.problems_asked = self.review.problems.len();
        let applied: Vec<String> = self
            .review
            .hunks()
            .iter()
            .filter(|h| h.state == HunkState::Applied)
            .map(|h| match h.report.lines {
                Some((a, b)) => format!("{} (lines {a}-{b})", h.path),
                None => h.path.clone(),
            })
            .collect();
        let reply = self.stream_text[self.round_start..].to_string();
        self.conversation.push(ChatMessage::new(Role::Assistant, reply));
        self.conversation
            .push(ChatMessage::new(Role::User, self.prompts.build_retry(&failed_edits, &applied)));
        for id in &ids {
            self.review.reject(*id);
        }
        let asking = format!("asking again about {sent_back} failed edit(s)");
        self.stream_text.push_str(&format!("\n\n── {asking} ──\n\n"));
        self.request_line = Some(asking);
        self.begin_stream(now);
        vec![self.stream_effect(Why::Retry)]
    }

    /// The reply a queued follow-up waited for failed or was cancelled: it is not sent (the
    /// conversation would continue from a broken reply) but kept, for `m` to open.
    fn keep_follow_up_draft(&mut self) {
        if self.follow_up_queued.is_some() {
            let key = self.keymap.first_key(Action::FollowUp);
            if let Some(n) = self.notice.as_mut() {
                n.push_str(&format!(
                    "; the queued follow-up was not sent: `{key}` opens it to send"
                ));
            }
        }
    }

    /// Send a follow-up request in the same conversation, telling the model which of its hunks
    /// were rejected so it does not send them again unasked.
    pub(super) fn follow_up(&mut self, request: &str, now: Instant) -> Vec<AppEffect> {
        let rejected: Vec<String> = self
            .review
            .hunks()
            .iter()
            .filter(|h| h.state == HunkState::Rejected)
            .map(|h| {
                format!(
                    "{} (lines {}-{} of your reply)",
                    h.path, h.edit.reply_lines.0, h.edit.reply_lines.1
                )
            })
            .collect();
        let reply = self.stream_text[self.round_start..].to_string();
        self.conversation.push(ChatMessage::new(Role::Assistant, reply));
        self.conversation
            .push(ChatMessage::new(Role::User, prompt::build_follow_up(request, &rejected)));
        self.stream_text.push_str(&format!("\n\n── follow-up: {} ──\n\n", request.trim()));
        self.request_line = Some(request.trim().to_string());
        self.begin_stream(now);
        vec![self.stream_effect(Why::FollowUp)]
    }
}
