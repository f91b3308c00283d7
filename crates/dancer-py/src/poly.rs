//! `dancer.poly`: polyform puzzles from the built-in catalogue or a TOML
//! text (the format of `dancer poly solve FILE`), solved and counted by
//! `dancer-poly`'s model; each solution with its placements and its
//! picture (SVG text, PNG bytes, and `_repr_svg_` so that Jupyter draws
//! it).

use crate::errors::value_error;
use crate::wait::interruptible;
use dancer_poly::model::{Model, Options};
use dancer_poly::render::{self, Style, Tiling};
use dancer_poly::{catalog, PolyPuzzle};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::Arc;

/// A polyform puzzle: pieces to place on a board.
#[pyclass(module = "dancer.poly", name = "Puzzle", frozen)]
pub struct Puzzle {
    model: Arc<Model>,
}

/// A solution: its placements and its picture.
#[pyclass(module = "dancer.poly", name = "Solution", frozen)]
pub struct Solution {
    /// `(piece, cells)` for each piece placed, cells as lists of
    /// coordinates on the puzzle's grid.
    #[pyo3(get)]
    placements: Vec<(String, Vec<Vec<i32>>)>,
    tiling: Tiling,
}

fn puzzle_of(py: Python<'_>, p: PolyPuzzle) -> PyResult<Puzzle> {
    let model = interruptible(py, move |_| Model::new(p))?.map_err(value_error)?;
    Ok(Puzzle {
        model: Arc::new(model),
    })
}

impl Puzzle {
    fn run(
        &self,
        py: Python<'_>,
        limit: Option<u64>,
        unique: bool,
        keep: bool,
    ) -> PyResult<(u64, u64, Vec<Vec<usize>>)> {
        let model = self.model.clone();
        let out = interruptible(py, move |cancel| {
            let opts = Options {
                unique,
                limit,
                cancel: Some(cancel.clone()),
                ..Options::default()
            };
            let mut kept = Vec::new();
            let counts = model
                .solve(&opts, |sol| {
                    if keep {
                        kept.push(sol.to_vec());
                    }
                    true
                })
                .map_err(|e| e.to_string())?;
            if !counts.complete && limit.is_none() {
                return Err("stopped".to_string());
            }
            Ok((counts.total, counts.unique, kept))
        })?;
        out.map_err(PyValueError::new_err)
    }
}

#[pymethods]
impl Puzzle {
    /// A puzzle of the built-in catalogue, by name (`catalogue()` lists
    /// them).
    #[staticmethod]
    fn catalogue(py: Python<'_>, name: &str) -> PyResult<Puzzle> {
        let p = catalog::puzzle(name)
            .ok_or_else(|| PyValueError::new_err(format!("no puzzle {name:?} in the catalogue")))?;
        puzzle_of(py, p)
    }

    /// A puzzle from the text of a TOML puzzle file.
    #[staticmethod]
    fn from_toml(py: Python<'_>, text: &str) -> PyResult<Puzzle> {
        let p = dancer_poly::parse(text, "<text>").map_err(value_error)?;
        puzzle_of(py, p)
    }

    /// The number of solutions (`unique`: up to the puzzle's symmetries).
    #[pyo3(signature = (unique=false))]
    fn count(&self, py: Python<'_>, unique: bool) -> PyResult<u64> {
        let (total, classes, _) = self.run(py, None, unique, false)?;
        Ok(if unique { classes } else { total })
    }

    /// The solutions (at most `limit`; `unique`: one of each class), each
    /// with its placements and picture.
    #[pyo3(signature = (limit=None, unique=false))]
    fn solutions(
        &self,
        py: Python<'_>,
        limit: Option<u64>,
        unique: bool,
    ) -> PyResult<Vec<Solution>> {
        let (_, _, kept) = self.run(py, limit, unique, true)?;
        Ok(kept
            .iter()
            .map(|sol| {
                let placements = sol
                    .iter()
                    .map(|&q| {
                        let pl = &self.model.placements[q];
                        let board = &self.model.puzzle.board;
                        let cells = pl
                            .cells
                            .iter()
                            .map(|&c| board.grid.record_cell(board.cells[c]))
                            .collect();
                        (self.model.puzzle.pieces[pl.piece].name.clone(), cells)
                    })
                    .collect();
                Solution {
                    placements,
                    tiling: self.model.tiling(sol, None),
                }
            })
            .collect())
    }

    /// The puzzle's grid (`square`, `cube`, `triangle`, ...).
    #[getter]
    fn grid(&self) -> &'static str {
        self.model.puzzle.grid().name()
    }

    fn __repr__(&self) -> String {
        format!(
            "Puzzle({} pieces on {} cells, {} grid)",
            self.model.puzzle.pieces.len(),
            self.model.puzzle.board.len(),
            self.model.puzzle.grid().name()
        )
    }
}

#[pymethods]
impl Solution {
    /// The picture as SVG text (`cell`: pixels a cell; `labels`: piece
    /// names on the pieces).
    #[pyo3(signature = (cell=24.0, labels=true))]
    fn svg(&self, cell: f64, labels: bool) -> PyResult<String> {
        if !(cell.is_finite() && (1.0..=512.0).contains(&cell)) {
            return Err(PyValueError::new_err(format!(
                "cell {cell}: from 1 to 512 pixels"
            )));
        }
        let style = Style {
            cell,
            labels,
            ..Style::default()
        };
        Ok(render::svg(&self.tiling, &style))
    }

    /// The picture as PNG bytes.
    #[pyo3(signature = (cell=24.0, labels=true))]
    fn png<'py>(&self, py: Python<'py>, cell: f64, labels: bool) -> PyResult<Bound<'py, PyBytes>> {
        let svg = self.svg(cell, labels)?;
        let bytes = py.detach(|| render::png(&svg)).map_err(value_error)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Jupyter draws a solution with this.
    fn _repr_svg_(&self) -> PyResult<String> {
        self.svg(24.0, true)
    }

    fn __repr__(&self) -> String {
        let names: Vec<&str> = self.placements.iter().map(|(n, _)| n.as_str()).collect();
        format!("Solution({})", names.join(" "))
    }
}

/// The names of the catalogue's puzzles.
#[pyfunction]
fn catalogue() -> Vec<String> {
    catalog::entries().iter().map(|e| e.name.clone()).collect()
}

/// The `dancer.poly` submodule.
pub fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "poly")?;
    m.add_class::<Puzzle>()?;
    m.add_class::<Solution>()?;
    m.add_function(wrap_pyfunction!(catalogue, &m)?)?;
    Ok(m)
}
