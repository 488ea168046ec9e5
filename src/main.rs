//! The `redline` binary: everything lives in `redline::cli`.

/// mimalloc instead of the system allocator: syntax colouring allocates for every line it parses
/// (README, "Syntax colour"). The benches that measure what the binary does use it too.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    redline::cli::main()
}
