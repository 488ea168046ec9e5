//! The shell: command line, file system. Thin by design: decisions live in `core`.
