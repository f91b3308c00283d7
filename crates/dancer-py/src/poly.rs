//! `dancer.poly`: polyform puzzles from the built-in catalogue, a TOML
//! text (the format of `dancer poly solve FILE`) or Python values (a board
//! and pieces as pictures or cell coordinates), solved and counted by
//! `dancer-poly`'s model; each solution with its placements and its
//! picture (SVG text, PNG bytes, and `_repr_svg_` so that Jupyter draws
//! it).

use crate::errors::value_error;
use crate::iter::Stream;
use crate::wait::interruptible;
use dancer_formats::ndjson::PolyRecord;
use dancer_poly::geometry::Cell;
use dancer_poly::grid::PolyGrid;
use dancer_poly::model::{Model, Options};
use dancer_poly::puzzle::{MAX_BOARD_CELLS, MAX_COORD};
use dancer_poly::render::{self, Style, Tiling};
use dancer_poly::{catalog, pieces, Board, Copies, Piece, PolyPuzzle};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyMapping, PyString};
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
    /// The number of solutions and of classes of them, counted to the end.
    fn counted(&self, py: Python<'_>, unique: bool) -> PyResult<(u64, u64)> {
        let model = self.model.clone();
        let out = interruptible(py, move |cancel| {
            let opts = Options {
                unique,
                cancel: Some(cancel.clone()),
                ..Options::default()
            };
            let counts = model.solve(&opts, |_| true).map_err(|e| e.to_string())?;
            if !counts.complete {
                return Err("stopped".to_string());
            }
            Ok((counts.total, counts.unique))
        })?;
        out.map_err(PyValueError::new_err)
    }
}

/// A solution of `model` (its placements) with its placements' cells, as
/// the command line's records give them, and its picture.
fn solution_of(model: &Model, sol: &[usize]) -> Solution {
    let placements = match model.solution_record(1, sol) {
        PolyRecord::Solution { placements, .. } => {
            placements.into_iter().map(|p| (p.piece, p.cells)).collect()
        }
        _ => unreachable!("a solution's record"),
    };
    Solution {
        placements,
        tiling: model.tiling(sol, None),
    }
}

/// The solutions of a puzzle, found on a worker thread a few ahead of the
/// caller (see `Puzzle.solutions`): the search waits while they are not
/// taken, and stops when the iterator is dropped or closed.
#[pyclass(module = "dancer.poly", name = "PuzzleSolutions", frozen)]
pub struct PuzzleSolutions {
    stream: Stream<Result<Vec<usize>, String>>,
    model: Arc<Model>,
}

#[pymethods]
impl PuzzleSolutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Solution>> {
        match self.stream.next(py)? {
            Some(Ok(sol)) => Ok(Some(solution_of(&self.model, &sol))),
            Some(Err(e)) => {
                self.stream.close();
                Err(PyValueError::new_err(e))
            }
            None => Ok(None),
        }
    }

    /// Stops the search; the iterator ends.
    fn close(&self) {
        self.stream.close();
    }
}

/// A picture's cells (`.` or space: no cell; any other character a cell;
/// the first line `y = 0`), after its size is checked.
fn picture(text: &str, what: &str) -> PyResult<Vec<Cell>> {
    let lines: Vec<&str> = text.lines().collect();
    let cells: usize = lines
        .iter()
        .map(|l| l.chars().filter(|&c| c != '.' && c != ' ').count())
        .sum();
    if lines.len() > MAX_COORD as usize
        || lines.iter().any(|l| l.chars().count() > MAX_COORD as usize)
        || cells > MAX_BOARD_CELLS
    {
        return Err(PyValueError::new_err(format!(
            "{what}: too large (at most {MAX_BOARD_CELLS} cells, lines of at most {MAX_COORD})"
        )));
    }
    Ok(pieces::picture(&lines))
}

/// Cells given as coordinates: each 2 or 3 integers within
/// [`MAX_COORD`] of 0, at most [`MAX_BOARD_CELLS`] of them.
fn coordinates(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Cell>> {
    let bad = |why: String| PyValueError::new_err(format!("{what}: {why}"));
    let mut out = Vec::new();
    for (i, item) in value.try_iter()?.enumerate() {
        if i >= MAX_BOARD_CELLS {
            return Err(bad(format!("more than {MAX_BOARD_CELLS} cells")));
        }
        let item = item?;
        if item.is_instance_of::<PyBytes>() || item.is_instance_of::<PyString>() {
            return Err(bad(format!("cell {i} is text, not a sequence of integers")));
        }
        let v: Vec<i64> = item.extract().map_err(|_| {
            // integers past 64 bits are integers too: out of range
            match item.extract::<Vec<Bound<'_, pyo3::types::PyInt>>>() {
                Ok(_) => bad(format!(
                    "cell {i}: a coordinate is out of range (-{MAX_COORD} to {MAX_COORD})"
                )),
                Err(_) => bad(format!("cell {i} is not a sequence of integers")),
            }
        })?;
        if let Some(x) = v
            .iter()
            .find(|x| x.unsigned_abs() > u64::from(MAX_COORD.unsigned_abs()))
        {
            return Err(bad(format!(
                "cell {i}: coordinate {x} is out of range (-{MAX_COORD} to {MAX_COORD})"
            )));
        }
        // in range, so the conversions are exact
        out.push(match v[..] {
            [x, y] => [x as i32, y as i32, 0],
            [x, y, z] => [x as i32, y as i32, z as i32],
            _ => {
                return Err(bad(format!(
                    "cell {i} has {} coordinates, not 2 or 3",
                    v.len()
                )))
            }
        });
    }
    Ok(out)
}

/// A shape: a picture (text) or cell coordinates.
fn shape(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Cell>> {
    match value.cast::<PyString>() {
        Ok(s) => picture(&s.to_cow()?, what),
        Err(_) => coordinates(value, what),
    }
}

/// A piece's copies: a number, `(least, most)` or `"any"`.
fn copies(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Copies> {
    let bad = || {
        PyValueError::new_err(format!(
            "copies of {name}: a number, (least, most) or \"any\""
        ))
    };
    if let Ok(s) = value.extract::<String>() {
        return if s == "any" {
            Ok(Copies::Any)
        } else {
            Err(bad())
        };
    }
    if let Ok(k) = value.extract::<u32>() {
        return Ok(Copies::Exactly(k));
    }
    let (a, b): (u32, u32) = value.extract().map_err(|_| bad())?;
    match a.cmp(&b) {
        std::cmp::Ordering::Less => Ok(Copies::Between(a, b)),
        std::cmp::Ordering::Equal => Ok(Copies::Exactly(a)),
        std::cmp::Ordering::Greater => Err(bad()),
    }
}

/// The grid a board given as `board` is on, when `grid` names none: a
/// picture is of squares, pictures of layers of cubes, coordinates of
/// squares (two) or cubes (three).
fn grid_for(grid: Option<&str>, board: &Bound<'_, PyAny>) -> PyResult<PolyGrid> {
    if let Some(g) = grid {
        return PolyGrid::from_name(g).ok_or_else(|| {
            let known: Vec<&str> = PolyGrid::ALL.iter().map(|g| g.name()).collect();
            PyValueError::new_err(format!("unknown grid {g:?} (known: {})", known.join(", ")))
        });
    }
    if board.cast::<PyString>().is_ok() {
        return Ok(PolyGrid::Square);
    }
    let first = board.try_iter()?.next().transpose()?;
    Ok(match first {
        Some(f) if f.cast::<PyString>().is_ok() => PolyGrid::Cube,
        Some(f) if f.len().ok() == Some(3) => PolyGrid::Cube,
        _ => PolyGrid::Square,
    })
}

/// The board's cells: a picture, pictures of layers (z = 0 first), or
/// coordinates.
fn board_cells(board: &Bound<'_, PyAny>) -> PyResult<Vec<Cell>> {
    if let Ok(s) = board.cast::<PyString>() {
        return picture(&s.to_cow()?, "board");
    }
    let layers: Result<Vec<String>, _> = board.extract::<Vec<String>>();
    match layers {
        Ok(layers) if !layers.is_empty() => {
            let mut cells = Vec::new();
            for (z, l) in layers.iter().enumerate() {
                for c in picture(l, &format!("board layer {z}"))? {
                    cells.push([c[0], c[1], z as i32]);
                    if cells.len() > MAX_BOARD_CELLS {
                        return Err(PyValueError::new_err(format!(
                            "board: more than {MAX_BOARD_CELLS} cells"
                        )));
                    }
                }
            }
            Ok(cells)
        }
        _ => coordinates(board, "board"),
    }
}

/// The pieces: a named set, or a mapping of names to shapes.
fn pieces_of(
    grid: PolyGrid,
    given: &Bound<'_, PyAny>,
    copies_of: Option<&Bound<'_, PyMapping>>,
) -> PyResult<Vec<Piece>> {
    let mut out: Vec<(String, Vec<Cell>)> = Vec::new();
    if let Ok(set) = given.cast::<PyString>() {
        let set = set.to_cow()?;
        let set: &str = &set;
        let shapes = pieces::set(set)
            .ok_or_else(|| PyValueError::new_err(format!("no piece set {set:?}")))?;
        let on = pieces::grid_of(set).unwrap_or(grid);
        if on != grid {
            return Err(PyValueError::new_err(format!(
                "the {set} are pieces of the {} grid, the board is on the {} grid",
                on.name(),
                grid.name()
            )));
        }
        out.extend(shapes.into_iter().map(|s| (s.name, s.cells)));
    } else {
        let map = given.cast::<PyMapping>().map_err(|_| {
            PyValueError::new_err("pieces: a set's name or a mapping of names to shapes")
        })?;
        for item in map.items()?.try_iter()? {
            let (name, cells): (String, Bound<'_, PyAny>) = item?.extract()?;
            let cells = shape(&cells, &format!("piece {name}"))?;
            out.push((name, cells));
        }
    }
    let mut pieces = Vec::with_capacity(out.len());
    for (name, cells) in out {
        let count = match copies_of.map(|m| m.get_item(&name)).transpose() {
            Ok(Some(v)) => copies(&v, &name)?,
            Ok(None) => Copies::Exactly(1),
            // not in the mapping: one copy; any other error is the caller's
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyKeyError>(given.py()) => {
                Copies::Exactly(1)
            }
            Err(e) => return Err(e),
        };
        pieces.push(Piece::on(grid, name, &cells, count));
    }
    if let Some(m) = copies_of {
        for key in m.keys()?.try_iter()? {
            let key: String = key?.extract()?;
            if !pieces.iter().any(|p| p.name == key) {
                return Err(PyValueError::new_err(format!(
                    "copies of {key}: no such piece"
                )));
            }
        }
    }
    Ok(pieces)
}

#[pymethods]
impl Puzzle {
    /// A puzzle from Python values. `board`: a picture (text: `.` or a
    /// space is no cell, any other character a cell, the first line y =
    /// 0), pictures of layers (a list of texts: a box of cubes), or cell
    /// coordinates (pairs, or triples on grids of three). `pieces`: a set's
    /// name (`"pentominoes"`) or a mapping of names to shapes (pictures or
    /// coordinates). `grid`: the grid's name (`square`, `triangle`,
    /// `hexagon`, `cube`, ...; from the board when None). `copies`: how
    /// many of a piece (a number, `(least, most)` or `"any"`; 1 when not
    /// given). `one_sided`: pieces may not be turned over.
    #[new]
    #[pyo3(signature = (board, pieces, *, grid=None, copies=None, one_sided=false, name="puzzle"))]
    fn new(
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        pieces: &Bound<'_, PyAny>,
        grid: Option<&str>,
        copies: Option<&Bound<'_, PyMapping>>,
        one_sided: bool,
        name: &str,
    ) -> PyResult<Puzzle> {
        // an iterator is read once: taken into a list before anything
        // looks at it
        let board = if board.is_instance_of::<PyString>() {
            board.clone()
        } else {
            let items = board.try_iter()?.collect::<PyResult<Vec<_>>>()?;
            pyo3::types::PyList::new(py, items)?.into_any()
        };
        let board = &board;
        let grid = grid_for(grid, board)?;
        let cells = board_cells(board)?;
        if let Some(c) = cells
            .iter()
            .find(|c| c.iter().any(|&v| !(0..=MAX_COORD).contains(&v)))
        {
            return Err(PyValueError::new_err(format!(
                "board: cell {c:?} is out of range (a board's coordinates are 0 to {MAX_COORD})"
            )));
        }
        if let Some(c) = cells.iter().find(|&&c| !grid.is_cell(c)) {
            let shown = if grid.dim() == 2 && c[2] != 0 {
                c.to_vec()
            } else {
                grid.record_cell(*c)
            };
            return Err(PyValueError::new_err(format!(
                "board: {shown:?} is not a cell of the {} grid",
                grid.name()
            )));
        }
        let mut pieces = pieces_of(grid, pieces, copies)?;
        for p in &mut pieces {
            p.one_sided = one_sided;
        }
        let puzzle = PolyPuzzle::new(name, Board::on(grid, cells), pieces);
        puzzle_of(py, puzzle)
    }

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
        let (total, classes) = self.counted(py, unique)?;
        Ok(if unique { classes } else { total })
    }

    /// The solutions (at most `limit`; `unique`: one of each class), each
    /// with its placements and picture, one at a time as the search finds
    /// them (a lazy iterator: `list(...)` for a list). Dropping the
    /// iterator stops the search.
    #[pyo3(signature = (limit=None, unique=false))]
    fn solutions(&self, limit: Option<u64>, unique: bool) -> PyResult<PuzzleSolutions> {
        let limit = crate::errors::limit(limit)?;
        let model = self.model.clone();
        let stream = Stream::producing(move |tx, cancel| {
            let opts = Options {
                unique,
                limit,
                cancel: Some(cancel),
                ..Options::default()
            };
            let ran = model.solve(&opts, |sol| tx.send(Ok(sol.to_vec())).is_ok());
            if let Err(e) = ran {
                let _ = tx.send(Err(e.to_string()));
            }
        });
        Ok(PuzzleSolutions {
            stream,
            model: self.model.clone(),
        })
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
    m.add_class::<PuzzleSolutions>()?;
    m.add_function(wrap_pyfunction!(catalogue, &m)?)?;
    Ok(m)
}
