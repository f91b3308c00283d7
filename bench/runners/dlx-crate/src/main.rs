//! Benchmark runner for the `dlx` crate (Knuth's DLX algorithms ported to
//! Rust; its module `x` is Algorithm X as in DLX1).
//!
//! The crate has secondary items of its own (`make_problem(np, ns, ...)`
//! numbers items `0..np` primary, then `np..np + ns` secondary), so nothing
//! is emulated. Its `Solver` returns one solution per `next_solution` call
//! without allocating, which is the cheapest way to count; the chooser is
//! the plain minimum-remaining-values rule (first item of least length),
//! the one its examples use.
//!
//! By default the runner turns on the crate's features `unsafe-fast-index`
//! and `32-bit` (see Cargo.toml); with the latter its indices are 32-bit, and
//! problems too large for them are refused as unsupported.

use dlx::choose::{mrv_chooser, no_tiebreak, prefer_any};
use dlx::x::make_problem;
use dlx::{Int, OptOrder, Solver, Uint};
use runner_common::{Measurement, Problem};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The problem in the crate's input form.
struct Input {
    np: Uint,
    ns: Uint,
    options: Vec<Vec<Uint>>,
}

fn prepare(p: &Problem) -> Result<Input, String> {
    // The crate keeps one node per item, one per option entry and one spacer
    // per option, plus a few, and indexes them with `Uint`; item numbers and
    // lengths are signed (`Int`).
    let entries: usize = p.options.iter().map(Vec::len).sum();
    let fits = (p.n_items() + p.options.len() + 3)
        .checked_add(entries)
        .and_then(|n| u64::try_from(n).ok())
        .is_some_and(|n| n < Int::MAX as u64);
    if !fits {
        return Err("the problem is too large for the crate's index type".into());
    }
    Ok(Input {
        np: p.n_primary() as Uint,
        ns: p.n_secondary() as Uint,
        options: p
            .options
            .iter()
            .map(|o| o.iter().map(|&i| i as Uint).collect())
            .collect(),
    })
}

fn search(input: &Input) -> Measurement {
    if input.options.is_empty() {
        // The crate asserts that there is at least one option; with none,
        // the primary items cannot be covered.
        return Measurement {
            solutions: 0,
            build: Duration::ZERO,
            search: Duration::ZERO,
            nodes: None,
            updates: None,
        };
    }
    let start = Instant::now();
    let mut problem = make_problem(input.np, input.ns, &input.options, OptOrder::Seq);
    let build = start.elapsed();

    let start = Instant::now();
    let mut solver = Solver::new(&mut problem);
    let mut chooser = mrv_chooser(prefer_any(), no_tiebreak());
    let mut solutions = 0u64;
    while solver.next_solution(&mut chooser) {
        solutions += 1;
    }
    let search = start.elapsed();

    Measurement {
        solutions,
        build,
        search,
        nodes: Some(solver.get_profile().iter().map(|&n| n as u64).sum()),
        updates: Some(solver.get_updates() as u64),
    }
}

fn main() -> ExitCode {
    runner_common::main("dlx-crate", false, prepare, search)
}
