//! Executing a plan (placeholder until the locator lands).
use std::collections::BTreeMap;

use crate::core::plan::{Outcome, Plan, Source};

pub(crate) fn run(_plan: &Plan, _sources: &BTreeMap<String, Source>) -> Outcome {
    Outcome { reports: Vec::new(), writes: Vec::new() }
}
