//! The review screen's drawing: pure functions of `&App` (plus the theme and the highlight
//! cache) into a ratatui frame. Nothing here changes state or does I/O, so every view can be
//! rendered into a `TestBackend` and snapshotted.
//!
//! `theme` and `keymap` are data; `highlight` caches syntax colour per hunk; `diff` builds a
//! hunk's diff and paints its lines; `conflict` draws a conflict three ways; `render` draws the panes, `layout` says where each part goes, `status` draws
//! the bars around them and `overlay` the dialogs.

pub mod conflict;
pub mod diff;
pub mod highlight;
pub mod keymap;
pub mod layout;
pub mod overlay;
pub mod render;
pub mod status;
pub mod theme;

pub use render::draw;
