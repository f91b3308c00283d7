//! Benchmark runner for the `dancing-links` crate.
//!
//! The crate describes a problem through its `ExactCover` trait: a list of
//! possibilities (options), a list of constraints (items), a predicate
//! `satisfies(option, item)`, and `is_optional(item)`, which is exactly a
//! secondary item; so nothing is emulated. `Solver::new` asks `satisfies`
//! about every (option, item) pair to build its grid; that is timed as the
//! build. The solver is an iterator that yields each solution as a fresh
//! `Vec`; there is no counting entry point, so the search counts the
//! iterator.

use dancing_links::{ExactCover, Solver};
use runner_common::{Measurement, Problem};
use std::process::ExitCode;
use std::time::Instant;

/// The problem as the crate sees it: options and items are numbers.
struct Cover {
    options: Vec<usize>,
    items: Vec<usize>,
    n_primary: usize,
    /// The items of each option, sorted, for `satisfies`.
    option_items: Vec<Vec<usize>>,
}

impl ExactCover for Cover {
    type Possibility = usize;
    type Constraint = usize;

    fn satisfies(&self, option: &usize, item: &usize) -> bool {
        self.option_items[*option].binary_search(item).is_ok()
    }

    fn is_optional(&self, item: &usize) -> bool {
        *item >= self.n_primary
    }

    fn possibilities(&self) -> &[usize] {
        &self.options
    }

    fn constraints(&self) -> &[usize] {
        &self.items
    }
}

fn prepare(p: &Problem) -> Result<Cover, String> {
    Ok(Cover {
        options: (0..p.options.len()).collect(),
        items: (0..p.n_items()).collect(),
        n_primary: p.n_primary(),
        option_items: p
            .options
            .iter()
            .map(|o| {
                let mut o = o.clone();
                o.sort_unstable();
                o
            })
            .collect(),
    })
}

fn search(cover: &Cover) -> Measurement {
    let start = Instant::now();
    let mut solver = Solver::new(cover);
    let build = start.elapsed();

    let start = Instant::now();
    let solutions = solver.by_ref().count() as u64;
    let search = start.elapsed();
    drop(solver); // freeing the grid is not part of the search

    Measurement {
        solutions,
        build,
        search,
        nodes: None,
        updates: None,
    }
}

fn main() -> ExitCode {
    runner_common::main("dancing-links-crate", false, prepare, search)
}
