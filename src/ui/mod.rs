//! The review screen's drawing: pure functions of `&App` (plus the theme and the highlight
//! cache) into a ratatui frame. Nothing here changes the review's state or does I/O (a frame
//! only fills the app's measuring caches), so every view can be rendered into a `TestBackend`
//! and snapshotted.
//!
//! `theme` and `keymap` are data; `highlight` caches syntax colour per hunk; `diff` paints a
//! hunk's diff lines (the model is `app::diff_model`); `diff_view` draws the diff pane, `reply` the reply pane,
//! `conflict` a conflict three ways; `wrap` fits long lines (wrapped, or cut and scrolled
//! sideways); `render` draws the panes in the places `app::layout` gives them, `status` the
//! bars around them and `overlay` the dialogs. What the panes hold is measured on the app's
//! side (`app::measure`): the ui asks it which lines show and draws only those.

pub mod conflict;
pub mod diff;
pub mod diff_view;
pub mod highlight;
pub mod overlay;
pub mod pane;
pub mod render;
pub mod reply;
pub mod status;
pub mod theme;
pub mod wrap;

pub use render::draw;
