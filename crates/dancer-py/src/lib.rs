//! # dancer for Python
//!
//! The Python module `dancer._dancer`, which the package `dancer`
//! (`python/dancer/`) re-exports: thin wrappers over the same library
//! calls as the command line and the web app, in Python's terms. Nothing
//! here solves anything itself.
//!
//! | file | what |
//! |---|---|
//! | `exact.rs` | `Problem`: an exact cover problem from Python values, Knuth's DLX text or a 0/1 matrix; `count`, `solutions`, `first`, `stats`, `verify` |
//! | `poly.rs` | `dancer.poly`: puzzles from the catalogue, TOML text or Python values (pictures, coordinates, a set's name); count, solutions (unique too), each with placements and a picture (SVG, PNG, Jupyter's `_repr_svg_`) |
//! | `sudoku/` | `dancer.sudoku`: solve, count, check, generate (variants as keyword arguments), batches on every core in input order; `steps.rs`: rate (SE's scale), hint, the whole solution path |
//! | `zdd.rs` | `Problem.zdd()`: the ZDD of every solution (made with memos), its count, its solutions, uniform samples from a seed |
//! | `shards.rs` | `Problem.shard(k, n)`: part of a search, the record `dancer solve --shard` writes; `merge`: the exact total |
//! | `iter.rs` | `Stream`: what a worker thread makes, a few ahead of the caller (solutions, steps); `SolutionIter` over it; dropped or closed, the worker stops |
//! | `trace.rs` | `Problem.steps` (the steps of dancing links, one at a time) and `Problem.trace` (a list of them, refused with `MemoryError` before it outgrows the process) |
//! | `wait.rs` | a long call runs on a worker thread with the GIL released, while the calling thread checks for signals (Ctrl-C raises `KeyboardInterrupt` within a tenth of a second) |
//! | `errors.rs` | the library's errors as Python exceptions: `ParseError` (a `ValueError` with `line` and `column`), bad values as `ValueError` |
//!
//! Invariants: every call that may take long releases the GIL and can be
//! interrupted; no Rust panic reaches the interpreter from bad input
//! (every value from Python is checked, errors are exceptions); an
//! iterator dropped half way stops its search.

use pyo3::prelude::*;

mod errors;
mod exact;
mod iter;
mod poly;
mod shards;
mod sudoku;
mod trace;
mod wait;
mod zdd;

/// dancer's native module; use it through the package `dancer`.
#[pymodule]
fn _dancer(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<exact::Problem>()?;
    m.add_class::<exact::Stats>()?;
    m.add_class::<iter::SolutionIter>()?;
    m.add_class::<trace::TraceSteps>()?;
    m.add_class::<zdd::Zdd>()?;
    m.add_class::<shards::Shard>()?;
    m.add_function(wrap_pyfunction!(shards::merge, m)?)?;
    m.add("ParseError", m.py().get_type::<errors::ParseError>())?;
    m.add("ENGINES", exact::ENGINES.to_vec())?;
    m.add_submodule(&sudoku::module(m.py())?)?;
    m.add_submodule(&poly::module(m.py())?)?;
    Ok(())
}
