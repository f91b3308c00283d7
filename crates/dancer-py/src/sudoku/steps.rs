//! `dancer.sudoku`'s logic: ratings on Sudoku Explainer's scale, the next
//! hint and the whole solution path, as `dancer-sudoku`'s rating loop and
//! hints give them (plain 9x9 puzzles: the techniques and their ratings
//! are SE's, defined for that grid).

use super::puzzle;
use crate::errors::value_error;
use crate::wait::interruptible;
use dancer_sudoku::hint::{self as hints, Hint as CoreHint, HintLevel};
use dancer_sudoku::logic::{self, Budget};
use dancer_sudoku::Puzzle;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

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
            "Rating(rating={:.1}, hardest={}, level={:?}, steps={}, solved={})",
            self.rating,
            self.hardest
                .as_ref()
                .map_or("None".into(), |h| format!("{h:?}")),
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

/// The rating of a puzzle, each step shown to `watch`; `Err` says why
/// there is none (not plain 9x9, not one solution, stopped).
fn rate_watching(
    p: &Puzzle,
    cancel: &Arc<AtomicBool>,
    watch: impl FnMut(&logic::MarkedGrid, &logic::Step),
) -> Result<Rating, String> {
    let budget = Budget::unlimited().with_cancel(cancel.clone());
    match logic::rate_puzzle_within(p, &budget, watch)? {
        Some(r) if r.stopped.is_some() => Err("stopped".to_string()),
        Some(r) => Ok(rating_of(&r)),
        None => Err("the puzzle does not have exactly one solution".to_string()),
    }
}

pub(super) fn rate_one(p: &Puzzle, cancel: &Arc<AtomicBool>) -> Result<Rating, String> {
    rate_watching(p, cancel, |_, _| {})
}

/// The rating of a plain 9x9 puzzle as Sudoku Explainer gives it
/// (`.rating`, `.hardest`, `.level`, `.steps`, `.solved`). `ValueError`
/// for another grid or a puzzle without exactly one solution.
#[pyfunction]
pub(super) fn rate(py: Python<'_>, puzzle: &str) -> PyResult<Rating> {
    let p = self::puzzle(puzzle)?;
    let r = interruptible(py, |cancel| rate_one(&p, &cancel))?;
    r.map_err(PyValueError::new_err)
}

/// One step of a solution path: a technique applied, with what it places
/// and removes, the cells and units that justify it, and its words.
#[pyclass(module = "dancer.sudoku", name = "Step", frozen, get_all)]
pub struct Step {
    /// The technique, as SE names it (`Hidden Single`, `X-Wing`, ...).
    pub technique: String,
    /// The step's SE rating.
    pub rating: f64,
    /// A sentence a player can follow.
    pub text: String,
    /// `(cell, digit)` placed (cells 0-based, row by row).
    pub placements: Vec<(usize, u8)>,
    /// `(cell, digit)` candidates removed.
    pub eliminations: Vec<(usize, u8)>,
    /// The cells that justify the step.
    pub cells: Vec<usize>,
    /// The units involved, e.g. `row 3`, `box 5`.
    pub units: Vec<String>,
    /// The digits involved.
    pub digits: Vec<u32>,
}

#[pymethods]
impl Step {
    fn __repr__(&self) -> String {
        format!("Step({:?}, rating={:.1})", self.technique, self.rating)
    }
}

fn step_of(s: &logic::Step) -> Step {
    Step {
        technique: s.technique.name().to_string(),
        rating: s.rating(),
        text: s.description.clone(),
        placements: s.placements.clone(),
        eliminations: s.eliminations.clone(),
        cells: s.cells.clone(),
        units: s.units.clone(),
        digits: s.digits.iter().map(|&d| u32::from(d)).collect(),
    }
}

/// The whole solution path of a plain 9x9 puzzle with one solution: every
/// step the rating takes, in order (SE's choice at each point: the
/// easiest technique that makes progress). When logic cannot finish, the
/// path stops there (`rate(puzzle).solved` is then False).
#[pyfunction]
pub(super) fn path(py: Python<'_>, puzzle: &str) -> PyResult<Vec<Step>> {
    let p = self::puzzle(puzzle)?;
    let r = interruptible(py, |cancel| {
        let mut steps = Vec::new();
        rate_watching(&p, &cancel, |_, s| steps.push(step_of(s))).map(|_| steps)
    })?;
    r.map_err(PyValueError::new_err)
}

/// The next step a player can take, in words (`.text`, or `.nudge`: only
/// the technique and where to look), with its step (`.step`: None when
/// there is none, and `.status` says why).
#[pyclass(module = "dancer.sudoku", name = "Hint", frozen, get_all)]
pub struct Hint {
    /// `hint` (a step), `solved` (the grid is full), `stuck` (no known
    /// technique makes progress), `multiple` (more than one solution),
    /// `none` (no solution: a digit is wrong).
    pub status: String,
    /// The hint in full: the step, what it places and removes.
    pub text: String,
    /// Only the technique and where to look.
    pub nudge: String,
    /// The step, when there is one.
    pub step: Option<Py<Step>>,
    /// The step's technique (as `.step.technique`).
    pub technique: Option<String>,
    /// `(cell, digit)` placed by the step.
    pub placements: Vec<(usize, u8)>,
    /// `(cell, digit)` candidates the step removes.
    pub eliminations: Vec<(usize, u8)>,
}

#[pymethods]
impl Hint {
    fn __repr__(&self) -> String {
        let t = self
            .technique
            .as_ref()
            .map_or("None".into(), |h| format!("{h:?}"));
        format!("Hint({:?}, {t})", self.status)
    }
}

/// Candidates a player may have removed: not from a filled cell, and
/// never the digit of the puzzle's one solution (hints after that would
/// build on a wrong grid). For a plain 9x9 puzzle.
fn check_removed(py: Python<'_>, p: &Puzzle, removed: &[(usize, u8)]) -> PyResult<()> {
    let solved = py.detach(|| {
        dancer_sudoku::Solver::new(&p.rules, dancer_sudoku::SudokuEngine::Auto)
            .expect("auto fits every rule")
            .solve(&p.givens, 2, 1)
    });
    let name = |c: usize| dancer_sudoku::rules::cell_name(9, c);
    for &(c, d) in removed {
        if p.givens.get(c) != 0 {
            return Err(PyValueError::new_err(format!(
                "removed ({c}, {d}): {} is filled",
                name(c)
            )));
        }
        if solved.count == 1 && solved.solutions[0].get(c) == d {
            return Err(PyValueError::new_err(format!(
                "removed ({c}, {d}): {d} is the digit of {} in the solution",
                name(c)
            )));
        }
    }
    Ok(())
}

/// The next step for a plain 9x9 puzzle (the player's entries filled in),
/// after the candidates `removed` (`(cell, digit)`, as earlier hints
/// removed them) are gone.
#[pyfunction]
#[pyo3(signature = (puzzle, removed=None))]
pub(super) fn hint(py: Python<'_>, puzzle: &str, removed: Option<Vec<Vec<i64>>>) -> PyResult<Hint> {
    let p = self::puzzle(puzzle)?;
    let mut pairs = Vec::new();
    for r in removed.unwrap_or_default() {
        match r[..] {
            [c @ 0..=80, d @ 1..=9] => pairs.push((c as usize, d as u8)),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "removed {r:?}: pairs (cell, digit), cells 0 to 80, digits 1 to 9"
                )))
            }
        }
    }
    let removed = pairs;
    if !removed.is_empty() && p.rules.is_standard_9x9() {
        check_removed(py, &p, &removed)?;
    }
    let h = interruptible(py, |cancel| {
        hints::hint_after(&p, &removed, &Budget::unlimited().with_cancel(cancel))
    })?
    .map_err(value_error)?;
    let status = match &h {
        CoreHint::Step(_) => "hint",
        CoreHint::NoSolution => "none",
        CoreHint::NotUnique => "multiple",
        CoreHint::Solved => "solved",
        CoreHint::Stuck => "stuck",
        CoreHint::Stopped(_) => {
            return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err("stopped"))
        }
    };
    let step = match &h {
        CoreHint::Step(s) => Some(s),
        _ => None,
    };
    Ok(Hint {
        status: status.to_string(),
        text: h.text(HintLevel::Full),
        nudge: h.text(HintLevel::Nudge),
        technique: step.map(|s| s.technique.name().to_string()),
        placements: step.map_or_else(Vec::new, |s| s.placements.clone()),
        eliminations: step.map_or_else(Vec::new, |s| s.eliminations.clone()),
        step: step.map(|s| Py::new(py, step_of(s))).transpose()?,
    })
}
