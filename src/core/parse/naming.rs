//! Which file a block names: a path line right before its fence, the prose line before it,
//! and, for a SEARCH/REPLACE block, the lines above it, its fence's path or the block before.
//! The parser's own state is read, nothing is changed.
//!
//! Not for: whether a prose line introduces a listing (`listing`), or cleaning a path
//! (`core::paths`).

use super::{Parser, sr_marker};
use crate::core::edit::PathSource;
use crate::core::paths::{clean_path_line, looks_like_path};

impl Parser {
    /// A path written alone on the line just before a fence (one blank line allowed between).
    pub(super) fn path_line_before_fence(&self) -> Option<(String, PathSource)> {
        let cand = clean_path_line(self.line_before_fence()?);
        self.is_path_candidate(&cand, false).then_some((cand, PathSource::PathLine))
    }

    /// The prose line just before a fence being opened (one blank line allowed between).
    pub(super) fn line_before_fence(&self) -> Option<&str> {
        let mut blanks = 0;
        for r in self.recent.iter().rev() {
            if r.fence.is_some() {
                return None;
            }
            if r.text.trim().is_empty() {
                blanks += 1;
                if blanks > 1 {
                    return None;
                }
                continue;
            }
            return Some(&r.text);
        }
        None
    }

    pub(super) fn is_path_candidate(&self, cand: &str, lenient: bool) -> bool {
        if looks_like_path(cand) || self.known.contains(cand) {
            return true;
        }
        // Right before a SEARCH marker, any single word may be a (mangled) file name.
        lenient
            && !cand.is_empty()
            && cand.len() <= 250
            && cand
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '\\'))
            && cand.chars().any(|c| c.is_alphanumeric())
    }

    /// The path of a SEARCH/REPLACE block: up to 3 lines back, through fence lines; then the
    /// enclosing fence's path; then the previous block's.
    pub(super) fn sr_path(&self) -> Option<(String, PathSource)> {
        for r in self.recent.iter().rev().take(3) {
            if let Some(f) = &r.fence {
                if let Some(p) = f.info_path() {
                    return Some((p, PathSource::FenceInfo));
                }
                continue;
            }
            let cand = clean_path_line(&r.text);
            if self.is_path_candidate(&cand, true) && sr_marker(&r.text).is_none() {
                return Some((cand, PathSource::PathLine));
            }
            break;
        }
        if let Some(p) = self.fence.as_ref().and_then(|f| f.path.clone()) {
            return Some(p);
        }
        self.last_path.clone().map(|p| (p, PathSource::Previous))
    }
}
