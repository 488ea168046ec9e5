//! The pure core: parsing replies, locating hunks, applying them, and the session journal's
//! records (`session`). No I/O, no async.

pub mod apply;
pub mod edit;
pub mod elision;
pub mod execute;
pub mod fields;
pub mod file;
pub mod gap;
pub mod hash;
pub mod review;

pub mod indent;
pub mod linediff;
pub mod locate;
pub mod parse;
pub mod parses;
pub mod paths;
pub mod placement;
pub mod plan;
pub mod prompt;
pub mod prose;
pub mod report;
pub mod resolve;
pub mod scope;
pub mod session;
pub mod stream;
pub mod strings;
pub mod text;
pub mod trigger;
pub mod verify;
pub mod whole;
