//! The review screen's drawing: pure functions of `&App` (plus the theme and the highlight
//! cache) into a ratatui frame. Nothing here changes state or does I/O, so every view can be
//! rendered into a `TestBackend` and snapshotted.
//!
//! `theme` and `keymap` are data; `highlight` caches syntax colour per hunk; `diff` builds a
//! hunk's diff and paints its lines; `diff_view` draws the diff pane, `reply` the reply pane,
//! `conflict` a conflict three ways; `wrap` fits long lines (wrapped, or cut and scrolled
//! sideways); `render` draws the panes in the places `layout` gives them, `status` the bars
//! around them and `overlay` the dialogs.

pub mod conflict;
pub mod diff;
pub mod diff_view;
pub mod highlight;
pub mod layout;
pub mod overlay;
pub mod pane;
pub mod render;
pub mod reply;
pub mod status;
pub mod theme;
pub mod wrap;

pub use render::draw;
