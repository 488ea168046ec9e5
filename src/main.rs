//! The `redline` binary: everything lives in `redline::shell::cli`.

fn main() -> std::process::ExitCode {
    redline::shell::cli::main()
}
