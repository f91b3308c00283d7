//! Links GCC's unwinder statically on GNU/Linux.
//!
//! Rust's standard library links the unwinder as `libgcc_s.so.1`, a shared
//! library whose constructor (`__cpu_indicator_init`) runs a dozen `cpuid`
//! instructions at every start; in a virtual machine each one traps to the
//! hypervisor, and loading the library and its constructor came to about a
//! tenth of a millisecond of every run: as much as a small search. The same
//! unwinder from `libgcc_eh.a` (GCC's static copy, what `crt-static`
//! builds use) resolves the symbols first, and `--as-needed` (rustc's
//! default) then leaves `libgcc_s` out. Nothing else changes: the program
//! aborts on panic in release builds, and unwinds as before in tests.

use std::env;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let var = |name: &str| env::var(name).unwrap_or_default();
    let static_crt = var("CARGO_CFG_TARGET_FEATURE")
        .split(',')
        .any(|f| f == "crt-static");
    if var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu" && !static_crt
    {
        println!("cargo:rustc-link-lib=static:-bundle=gcc_eh");
    }
}
