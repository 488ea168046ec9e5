//! The `redline` binary: everything lives in `redline::cli`.

fn main() -> std::process::ExitCode {
    redline::cli::main()
}
