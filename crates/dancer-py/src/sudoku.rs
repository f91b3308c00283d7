//! `dancer.sudoku`: solve, count, check, rate, hint and generate Sudoku
//! puzzles, one at a time or in batches on every core (answers in input
//! order), over `dancer-sudoku`'s calls. A puzzle is a line of text as the
//! command line reads it (81 characters for 9x9, `.` or `0` for an empty
//! cell; other sizes by their length).

use crate::errors::value_error;
use crate::wait::interruptible;
use dancer_sudoku::generate::{self as gen, GenerateOptions, GivensSymmetry, RatingRange};
use dancer_sudoku::hint::{self as hints, Hint as CoreHint, HintLevel};
use dancer_sudoku::logic::{self, Budget, Level};
use dancer_sudoku::{check_solution, Puzzle, Rules, Solver, SudokuEngine};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

fn puzzle(text: &str) -> PyResult<Puzzle> {
    Puzzle::parse_line(text, None).map_err(|e| PyValueError::new_err(format!("puzzle: {e}")))
}

fn solver(p: &Puzzle) -> Solver {
    Solver::new(&p.rules, SudokuEngine::Auto).expect("auto fits every rule")
}

/// The solution of a puzzle, as a line of the same form. Raises
/// `ValueError` when it has none; with several, the first found.
#[pyfunction]
fn solve(py: Python<'_>, puzzle: &str) -> PyResult<String> {
    let p = self::puzzle(puzzle)?;
    let solved = interruptible(py, |_| solver(&p).solve(&p.givens, 1, 1))?;
    match solved.solutions.first() {
        Some(g) => Ok(g.to_line()),
        None => Err(PyValueError::new_err("the puzzle has no solution")),
    }
}

/// The number of solutions, counted up to `limit` (all when None).
#[pyfunction]
#[pyo3(signature = (puzzle, limit=None))]
fn count(py: Python<'_>, puzzle: &str, limit: Option<u64>) -> PyResult<u64> {
    let p = self::puzzle(puzzle)?;
    let limit = limit.unwrap_or(u64::MAX);
    interruptible(py, |_| solver(&p).solve(&p.givens, limit, 0).count)
}

/// Checks an answer against the puzzle's givens and rules, independently
/// of the solvers: None, or `ValueError` saying what is wrong.
#[pyfunction]
fn check(puzzle: &str, solution: &str) -> PyResult<()> {
    let p = self::puzzle(puzzle)?;
    let g = Puzzle::parse_line(solution, Some(&p.rules))
        .map_err(|e| PyValueError::new_err(format!("solution: {e}")))?
        .givens;
    check_solution(&p, &g).map_err(value_error)
}

/// A puzzle's rating on Sudoku Explainer's scale.
#[pyclass(module = "dancer.sudoku", name = "Rating", frozen, get_all)]
pub struct Rating {
    /// SE's rating: that of the hardest step (0.0 when logic could not
    /// solve it).
    pub rating: f64,
    /// The technique of the hardest step.
    pub hardest: Option<String>,
    /// The level: easy, medium, hard, expert, extreme.
    pub level: String,
    /// Steps taken.
    pub steps: usize,
    /// Whether logic solved the puzzle.
    pub solved: bool,
}

#[pymethods]
impl Rating {
    fn __repr__(&self) -> String {
        format!(
            "Rating(rating={:.1}, hardest={:?}, level={:?}, steps={}, solved={})",
            self.rating,
            self.hardest,
            self.level,
            self.steps,
            if self.solved { "True" } else { "False" }
        )
    }
}

fn rating_of(r: &logic::Rating) -> Rating {
    Rating {
        rating: (r.se * 10.0).round() / 10.0,
        hardest: r.hardest.map(|t| t.name().to_string()),
        level: r.level.name().to_string(),
        steps: r.steps,
        solved: r.solved,
    }
}

fn rate_one(p: &Puzzle, cancel: &Arc<AtomicBool>) -> Result<Rating, String> {
    let budget = Budget::unlimited().with_cancel(cancel.clone());
    match logic::rate_puzzle_within(p, &budget, |_, _| {})? {
        Some(r) if r.stopped.is_some() => Err("stopped".to_string()),
        Some(r) => Ok(rating_of(&r)),
        None => Err("ratings are given for plain 9x9 puzzles".to_string()),
    }
}

/// The rating of a puzzle as Sudoku Explainer gives it (`.rating`,
/// `.hardest`, `.level`).
#[pyfunction]
fn rate(py: Python<'_>, puzzle: &str) -> PyResult<Rating> {
    let p = self::puzzle(puzzle)?;
    let r = interruptible(py, |cancel| rate_one(&p, &cancel))?;
    r.map_err(PyValueError::new_err)
}

/// The next step a player can take, in words (`.text`), with its
/// technique and the cells it places a digit in (0-based, row by row).
#[pyclass(module = "dancer.sudoku", name = "Hint", frozen, get_all)]
pub struct Hint {
    pub text: String,
    pub technique: Option<String>,
    /// `(cell, digit)` placed by the step.
    pub placements: Vec<(usize, u8)>,
    /// `(cell, digit)` candidates the step removes.
    pub eliminations: Vec<(usize, u8)>,
}

/// The next step (as a hint gives it) for a plain 9x9 puzzle.
#[pyfunction]
fn hint(py: Python<'_>, puzzle: &str) -> PyResult<Hint> {
    let p = self::puzzle(puzzle)?;
    let h = interruptible(py, |cancel| {
        hints::hint_within(&p, &Budget::unlimited().with_cancel(cancel))
    })?
    .map_err(value_error)?;
    let (technique, placements, eliminations) = match &h {
        CoreHint::Step(s) => (
            Some(s.technique.name().to_string()),
            s.placements.clone(),
            s.eliminations.clone(),
        ),
        _ => (None, Vec::new(), Vec::new()),
    };
    Ok(Hint {
        text: h.text(HintLevel::Full),
        technique,
        placements,
        eliminations,
    })
}

/// A new puzzle with one solution: of a `level` (easy, medium, hard,
/// expert, extreme; any when None), a `symmetry` of its givens (none,
/// rotate180, rotate90, mirror, diagonal), `size` 9 (or 4, 16, 25 without a
/// level), from `seed` (the same seed, the same puzzle).
#[pyfunction]
#[pyo3(signature = (level=None, symmetry="rotate180", size=9, seed=None))]
fn generate(
    py: Python<'_>,
    level: Option<&str>,
    symmetry: &str,
    size: usize,
    seed: Option<u64>,
) -> PyResult<String> {
    let range = match level {
        None => None,
        Some(l) => Some(RatingRange::of_level(Level::from_name(l).ok_or_else(
            || {
                PyValueError::new_err(format!(
                    "level {l:?}: one of easy, medium, hard, expert, extreme"
                ))
            },
        )?)),
    };
    if range.is_some() && size != 9 {
        return Err(PyValueError::new_err("levels are for 9x9 puzzles"));
    }
    let symmetry: GivensSymmetry = symmetry.parse().map_err(PyValueError::new_err)?;
    let rules = Rules::standard(size).map_err(value_error)?;
    let opts = GenerateOptions {
        rules,
        symmetry,
        minimal: true,
        attempts: gen::ATTEMPTS,
    };
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
#[pyo3(signature = (puzzles, threads=None))]
fn solve_batch(
    py: Python<'_>,
    puzzles: Vec<String>,
    threads: Option<usize>,
) -> PyResult<Vec<Option<String>>> {
    let parsed = parse_all(&puzzles)?;
    batch(py, threads, parsed, |p, _| {
        Some(
            solver(p)
                .solve(&p.givens, 1, 1)
                .solutions
                .first()?
                .to_line(),
        )
    })
}

/// Rates many puzzles on every core: the ratings in input order.
#[pyfunction]
#[pyo3(signature = (puzzles, threads=None))]
fn rate_batch(
    py: Python<'_>,
    puzzles: Vec<String>,
    threads: Option<usize>,
) -> PyResult<Vec<Rating>> {
    let parsed = parse_all(&puzzles)?;
    let rated = batch(py, threads, parsed, rate_one)?;
    rated
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.map_err(|e| PyValueError::new_err(format!("puzzle {i}: {e}"))))
        .collect()
}

/// The puzzles of a batch, or the first that is not one, by its place.
fn parse_all(puzzles: &[String]) -> PyResult<Vec<Puzzle>> {
    (puzzles.iter().enumerate())
        .map(|(i, t)| {
            Puzzle::parse_line(t, None)
                .map_err(|e| PyValueError::new_err(format!("puzzle {i}: {e}")))
        })
        .collect()
}

/// `f` on each puzzle, on a pool of `threads`, in input order.
fn batch<T: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    puzzles: Vec<Puzzle>,
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
        pool.install(|| {
            puzzles
                .par_iter()
                .map(|p| (!cancel.load(Ordering::Relaxed)).then(|| f(p, &cancel)))
                .collect::<Vec<Option<T>>>()
        })
    })?;
    out.into_iter()
        .map(|r| r.ok_or_else(|| pyo3::exceptions::PyKeyboardInterrupt::new_err("stopped")))
        .collect()
}

/// The `dancer.sudoku` submodule.
pub fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "sudoku")?;
    m.add_function(wrap_pyfunction!(solve, &m)?)?;
    m.add_function(wrap_pyfunction!(count, &m)?)?;
    m.add_function(wrap_pyfunction!(check, &m)?)?;
    m.add_function(wrap_pyfunction!(rate, &m)?)?;
    m.add_function(wrap_pyfunction!(hint, &m)?)?;
    m.add_function(wrap_pyfunction!(generate, &m)?)?;
    m.add_function(wrap_pyfunction!(solve_batch, &m)?)?;
    m.add_function(wrap_pyfunction!(rate_batch, &m)?)?;
    m.add_class::<Rating>()?;
    m.add_class::<Hint>()?;
    Ok(m)
}
