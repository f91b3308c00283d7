//! `dancer.sudoku`: solve, count, check, rate, hint and generate Sudoku
//! puzzles, one at a time or in batches on every core (answers in input
//! order), over `dancer-sudoku`'s calls. A puzzle is a line of text as the
//! command line reads it (81 characters for 9x9, `.` or `0` for an empty
//! cell; other sizes by their length). The variants are keyword arguments,
//! as the command line's flags: `box="2x3"` (the boxes' shape), `jigsaw=`
//! (one region letter a cell), `diagonal=True` (X), `windoku=True`.
//!
//! | file | what |
//! |---|---|
//! | `mod.rs` | the rules of a call, solve, count, check, generate, batches |
//! | `steps.rs` | ratings, hints, the whole solution path (plain 9x9) |

mod steps;

use crate::errors::value_error;
use crate::wait::interruptible;
use dancer_sudoku::batch::RulesSpec;
use dancer_sudoku::generate::{self as gen, GenerateOptions, GivensSymmetry, RatingRange};
use dancer_sudoku::logic::Level;
use dancer_sudoku::{check_solution, Grid, Puzzle, Solver, SudokuEngine};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A plain puzzle (its size from its length).
fn puzzle(text: &str) -> PyResult<Puzzle> {
    Puzzle::parse_line(text, None).map_err(|e| PyValueError::new_err(format!("puzzle: {e}")))
}

/// The rules a call asks for, from its keyword arguments.
fn spec(
    boxes: Option<&str>,
    jigsaw: Option<&str>,
    diagonal: bool,
    windoku: bool,
) -> PyResult<RulesSpec> {
    RulesSpec::new(boxes, jigsaw, diagonal, windoku).map_err(value_error)
}

/// A puzzle under the rules of `spec`.
fn puzzle_under(spec: &RulesSpec, text: &str) -> PyResult<Puzzle> {
    spec.puzzle(text)
        .map_err(|e| PyValueError::new_err(format!("puzzle: {e}")))
}

/// Grids up to this size are solved on the calling thread (with the GIL
/// released): a 9x9 search takes well under a millisecond, less than
/// starting the worker thread an interruptible call needs; larger grids
/// may search long, and Ctrl-C must reach them.
const INLINE_SIZE: usize = 9;

fn solver(p: &Puzzle) -> Solver {
    Solver::new(&p.rules, SudokuEngine::Auto).expect("auto fits every rule")
}

/// The solution of a puzzle, as a line of the same form. Raises
/// `ValueError` when it has none; with several, the first found.
#[pyfunction]
#[pyo3(signature = (puzzle, *, r#box=None, jigsaw=None, diagonal=false, windoku=false))]
fn solve(
    py: Python<'_>,
    puzzle: &str,
    r#box: Option<&str>,
    jigsaw: Option<&str>,
    diagonal: bool,
    windoku: bool,
) -> PyResult<String> {
    let p = puzzle_under(&spec(r#box, jigsaw, diagonal, windoku)?, puzzle)?;
    let solved = if p.rules.size() <= INLINE_SIZE {
        py.detach(|| solver(&p).solve(&p.givens, 1, 1))
    } else {
        interruptible(py, |cancel| {
            solver(&p)
                .solve_cancellable(&p.givens, 1, 1, Some(&cancel))
                .0
        })?
    };
    match solved.solutions.first() {
        Some(g) => Ok(g.to_line()),
        None => Err(PyValueError::new_err("the puzzle has no solution")),
    }
}

/// The number of solutions, counted up to `limit` (all when None).
#[pyfunction]
#[pyo3(signature = (puzzle, limit=None, *, r#box=None, jigsaw=None, diagonal=false, windoku=false))]
fn count(
    py: Python<'_>,
    puzzle: &str,
    limit: Option<u64>,
    r#box: Option<&str>,
    jigsaw: Option<&str>,
    diagonal: bool,
    windoku: bool,
) -> PyResult<u64> {
    let p = puzzle_under(&spec(r#box, jigsaw, diagonal, windoku)?, puzzle)?;
    let limit = crate::errors::limit(limit)?.unwrap_or(u64::MAX);
    interruptible(py, |cancel| {
        solver(&p)
            .solve_cancellable(&p.givens, limit, 0, Some(&cancel))
            .0
            .count
    })
}

/// Checks an answer against the puzzle's givens and rules, independently
/// of the solvers: None, or `ValueError` saying what is wrong.
#[pyfunction]
#[pyo3(signature = (puzzle, solution, *, r#box=None, jigsaw=None, diagonal=false, windoku=false))]
fn check(
    puzzle: &str,
    solution: &str,
    r#box: Option<&str>,
    jigsaw: Option<&str>,
    diagonal: bool,
    windoku: bool,
) -> PyResult<()> {
    let p = puzzle_under(&spec(r#box, jigsaw, diagonal, windoku)?, puzzle)?;
    let g = Puzzle::parse_line(solution, Some(&p.rules))
        .map_err(|e| PyValueError::new_err(format!("solution: {e}")))?
        .givens;
    check_solution(&p, &g).map_err(value_error)
}

/// A new puzzle with one solution: of a `level` (easy, medium, hard,
/// expert, extreme: SE's ratings, plain 9x9 only; any when None), a
/// `symmetry` of its givens (none, rotate180, rotate90, mirror, diagonal),
/// `size` up to 16 (9 when None; a box shape or jigsaw map gives its
/// own), a variant, from `seed` (the same seed, the same puzzle).
/// `minimal`: no given can go (else, with a symmetry, no symmetric group
/// of givens can).
#[pyfunction]
#[pyo3(signature = (level=None, symmetry="rotate180", size=None, seed=None, *, minimal=true, r#box=None, jigsaw=None, diagonal=false, windoku=false))]
#[allow(clippy::too_many_arguments)]
fn generate(
    py: Python<'_>,
    level: Option<&str>,
    symmetry: &str,
    size: Option<usize>,
    seed: Option<u64>,
    minimal: bool,
    r#box: Option<&str>,
    jigsaw: Option<&str>,
    diagonal: bool,
    windoku: bool,
) -> PyResult<String> {
    let rules = spec(r#box, jigsaw, diagonal, windoku)?
        .rules(size)
        .map_err(value_error)?;
    if !(4..=16).contains(&rules.size()) {
        return Err(PyValueError::new_err(format!(
            "size {}: the generator makes puzzles of 4x4 to 16x16",
            rules.size()
        )));
    }
    let range = match level {
        None => None,
        Some(l) => {
            let level = Level::from_name(l).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "level {l:?}: one of easy, medium, hard, expert, extreme"
                ))
            })?;
            if !rules.is_standard_9x9() {
                return Err(PyValueError::new_err(
                    "levels are SE's ratings, for plain 9x9 puzzles: leave level out for another size or a variant",
                ));
            }
            Some(RatingRange::of_level(level))
        }
    };
    let symmetry: GivensSymmetry = symmetry.parse().map_err(PyValueError::new_err)?;
    if minimal && symmetry != GivensSymmetry::None && rules.size() > gen::MAX_MINIMAL_SYMMETRIC {
        return Err(PyValueError::new_err(format!(
            "a minimal {0}x{0} puzzle with a symmetry is too rare to look for: pass minimal=False",
            rules.size()
        )));
    }
    let opts = GenerateOptions {
        rules,
        symmetry,
        minimal,
        attempts: gen::ATTEMPTS,
    };
    // rules with no complete grid at all (a jigsaw map with the diagonal
    // rule, say) would leave the generator looking for one forever
    let empty = Grid::empty(opts.rules.size());
    let (grids, stopped) = interruptible(py, |cancel| {
        Solver::new(&opts.rules, SudokuEngine::Auto)
            .expect("auto fits every rule")
            .solve_cancellable(&empty, 1, 0, Some(&cancel))
    })?;
    if grids.count == 0 && !stopped {
        return Err(PyValueError::new_err(format!(
            "no grid follows these rules ({}): there is no puzzle to make",
            opts.rules.describe()
        )));
    }
    let seed = seed.unwrap_or_else(gen::clock_seed);
    let made = interruptible(py, |cancel| {
        let effort = gen::Effort::with_cancel(cancel);
        gen::generate_rated_with(&opts, seed, range, &effort)
    })?;
    match made {
        Some((p, _)) => Ok(p.givens.to_line()),
        None => Err(PyValueError::new_err("no puzzle was made")),
    }
}

/// Solves many puzzles on every core (`threads`: how many; all when
/// None): the solutions in input order, None for a puzzle with none.
#[pyfunction]
#[pyo3(signature = (puzzles, threads=None, *, r#box=None, jigsaw=None, diagonal=false, windoku=false))]
fn solve_batch<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    threads: Option<usize>,
    r#box: Option<&str>,
    jigsaw: Option<&str>,
    diagonal: bool,
    windoku: bool,
) -> PyResult<Bound<'py, PyList>> {
    let spec = spec(r#box, jigsaw, diagonal, windoku)?;
    let solved = batch(py, threads, &spec, &texts(py, puzzles)?, |p, cancel| {
        Some(
            solver(p)
                .solve_cancellable(&p.givens, 1, 1, Some(cancel))
                .0
                .solutions
                .first()?
                .to_line(),
        )
    })?;
    // made into Python strings a slice at a time, Ctrl-C heard between
    let list = PyList::empty(py);
    for chunk in solved.chunks(SIGNAL_EVERY) {
        py.check_signals()?;
        for s in chunk {
            list.append(s)?;
        }
    }
    Ok(list)
}

/// Counts the solutions of many puzzles on every core, each up to
/// `limit` (all when None), in input order.
#[pyfunction]
#[pyo3(signature = (puzzles, limit=None, threads=None, *, r#box=None, jigsaw=None, diagonal=false, windoku=false))]
#[allow(clippy::too_many_arguments)]
fn count_batch(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    limit: Option<u64>,
    threads: Option<usize>,
    r#box: Option<&str>,
    jigsaw: Option<&str>,
    diagonal: bool,
    windoku: bool,
) -> PyResult<Vec<u64>> {
    let spec = spec(r#box, jigsaw, diagonal, windoku)?;
    let limit = crate::errors::limit(limit)?.unwrap_or(u64::MAX);
    batch(py, threads, &spec, &texts(py, puzzles)?, |p, cancel| {
        solver(p)
            .solve_cancellable(&p.givens, limit, 0, Some(cancel))
            .0
            .count
    })
}

/// Rates many plain 9x9 puzzles on every core: the ratings in input
/// order.
#[pyfunction]
#[pyo3(signature = (puzzles, threads=None))]
fn rate_batch(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    threads: Option<usize>,
) -> PyResult<Vec<steps::Rating>> {
    let rated = batch(
        py,
        threads,
        &RulesSpec::default(),
        &texts(py, puzzles)?,
        steps::rate_one,
    )?;
    rated
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.map_err(|e| PyValueError::new_err(format!("puzzle {i}: {e}"))))
        .collect()
}

/// Items of a batch taken from Python (or made into Python values)
/// between two looks at the signals: a batch of millions takes a while
/// to read, and Ctrl-C must reach it then too.
const SIGNAL_EVERY: usize = 1 << 16;

/// The texts of a batch, in one buffer: a batch of millions is read (and
/// let go) without an allocation a puzzle.
struct Texts {
    buf: String,
    /// Where text `i` ends in `buf` (it starts where `i - 1` ends).
    ends: Vec<usize>,
}

impl Texts {
    fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.buf[start..self.ends[i]]
    }
}

/// The texts of a batch: any iterable of strings, read a slice at a time
/// with the signals looked at between slices.
fn texts(py: Python<'_>, puzzles: &Bound<'_, PyAny>) -> PyResult<Texts> {
    if puzzles.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyValueError::new_err(
            "puzzles: a list of puzzles, not one (a string)",
        ));
    }
    // `len` is the caller's word: a hint for the buffers, within reason
    let n = puzzles.len().unwrap_or(0).min(1 << 20);
    let mut out = Texts {
        buf: String::with_capacity(n * 81),
        ends: Vec::with_capacity(n),
    };
    for (i, item) in puzzles.try_iter()?.enumerate() {
        if i % SIGNAL_EVERY == SIGNAL_EVERY - 1 {
            py.check_signals()?;
        }
        let item = item?;
        let text = item
            .cast::<pyo3::types::PyString>()
            .map_err(|_| PyValueError::new_err(format!("puzzle {i}: not a string")))?
            .to_cow()?;
        out.buf.push_str(&text);
        out.ends.push(out.buf.len());
    }
    Ok(out)
}

/// `f` on each puzzle of `texts` (read under the rules of `spec`), on a
/// pool of `threads`, in input order; the first text that is not a
/// puzzle, by its place, is the error. The reading is part of the work:
/// on the pool, with the GIL released and Ctrl-C heard. Stopped, the
/// answers found so far are let go on a thread of their own: a million of
/// them take tens of milliseconds to free, which Ctrl-C should not wait
/// for.
fn batch<T: Send + 'static>(
    py: Python<'_>,
    threads: Option<usize>,
    spec: &RulesSpec,
    texts: &Texts,
    f: impl Fn(&Puzzle, &Arc<AtomicBool>) -> T + Sync + Send,
) -> PyResult<Vec<T>> {
    let threads = match threads {
        Some(t) => dancer_core::parallel::threads_allowed(t).map_err(value_error)?,
        None => dancer_core::parallel::cores(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(value_error)?;
    let out = interruptible(py, |cancel| {
        let out = pool.install(|| {
            (0..texts.ends.len())
                .into_par_iter()
                .map(|i| {
                    if cancel.load(Ordering::Relaxed) {
                        return None;
                    }
                    Some(spec.puzzle(texts.get(i)).map(|p| f(&p, &cancel)))
                })
                .collect::<Vec<_>>()
        });
        if cancel.load(Ordering::Relaxed) {
            std::thread::spawn(move || drop(out));
            return Vec::new();
        }
        out
    })?;
    out.into_iter()
        .enumerate()
        .map(|(i, r)| match r {
            None => Err(pyo3::exceptions::PyKeyboardInterrupt::new_err("stopped")),
            Some(Err(e)) => Err(PyValueError::new_err(format!("puzzle {i}: {e}"))),
            Some(Ok(v)) => Ok(v),
        })
        .collect()
}

/// The `dancer.sudoku` submodule.
pub fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "sudoku")?;
    m.add_function(wrap_pyfunction!(solve, &m)?)?;
    m.add_function(wrap_pyfunction!(count, &m)?)?;
    m.add_function(wrap_pyfunction!(check, &m)?)?;
    m.add_function(wrap_pyfunction!(steps::rate, &m)?)?;
    m.add_function(wrap_pyfunction!(steps::hint, &m)?)?;
    m.add_function(wrap_pyfunction!(steps::path, &m)?)?;
    m.add_function(wrap_pyfunction!(generate, &m)?)?;
    m.add_function(wrap_pyfunction!(solve_batch, &m)?)?;
    m.add_function(wrap_pyfunction!(count_batch, &m)?)?;
    m.add_function(wrap_pyfunction!(rate_batch, &m)?)?;
    m.add_class::<steps::Rating>()?;
    m.add_class::<steps::Hint>()?;
    m.add_class::<steps::Step>()?;
    Ok(m)
}
