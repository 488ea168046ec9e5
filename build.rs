//! Link the `redline` binary as a position-dependent executable on Linux.
//!
//! `redline apply` runs once per reply, so its start-up is part of every apply's time. A PIE
//! binary of this size carries some fifty thousand relative relocations that the loader
//! processes (and whose pages it copies) at every start; without PIE the linker resolves them
//! once. Measured on the public corpus's empty apply: about 0.7 ms of a 4.5 ms start (README,
//! "Benchmarks"). Only the binary: the library and its tests are unaffected.

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
