//! Resolving a parsed reply's paths against the project (placeholder until the parser lands).
use crate::core::plan::{FormatChoice, Plan};

pub(crate) fn plan_reply(_reply: &str, _choice: FormatChoice, _project_files: &[String]) -> Plan {
    Plan { items: Vec::new() }
}
