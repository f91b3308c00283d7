//! # Overlapping Sudoku ("gattai"): samurai, twodoku, the flower, ...
//!
//! A [`Shape`] places several grids of one size on a canvas, at row and
//! column offsets; where they overlap, a cell belongs to each grid and
//! keeps every grid's rules (its row, column and box in each). The
//! built-in shapes ([`Shape::BUILTIN`]) are the usual ones; a shape file
//! places grids of one's own:
//!
//! ```text
//! # twodoku: two 9x9 grids sharing a box
//! size 9
//! grid 0 0
//! grid 6 6
//! ```
//!
//! (`size` optional, 9 unless told, its boxes the usual ones; `grid ROW
//! COL` the top-left cell of each grid, from 0.)
//!
//! ## Puzzle lines
//!
//! One puzzle a line, in either form:
//!
//! * the grids one after the other, each as a plain puzzle line (`.` or
//!   `0` empty), in the shape's order (a shared cell given in each of its
//!   grids, the same);
//! * the canvas's cells that are in some grid, in reading order.
//!
//! Answers are written in the second form; `--pretty` draws the canvas.
//!
//! ## Invariants
//!
//! A [`GattaiPuzzle`] from [`GattaiPuzzle::parse`] has givens that break
//! no rule of any grid; [`check_solution`] checks an answer grid by grid,
//! sharing no code with the solver (`cover.rs`).

mod cover;

pub use cover::{
    count, generate, has_solution, solve, solve_within, GattaiGenerated, GattaiSolved,
};

use crate::killer::{KillerBoard, KillerHint, KillerRating, KillerStep, KillerTechnique};
use crate::logic::Budget;

use crate::grid::{digit, symbol};
use crate::rules::default_boxes;

/// Grids placed on a canvas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Its name (a built-in one's, or the file's).
    pub name: String,
    /// The side of every grid.
    pub size: usize,
    /// The boxes' rows and columns.
    pub boxes: (usize, usize),
    /// Each grid's top-left cell on the canvas (row, column).
    pub grids: Vec<(usize, usize)>,
    /// The canvas's rows and columns.
    pub height: usize,
    pub width: usize,
}

/// What is wrong with a shape or a puzzle line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GattaiError {
    #[error("unknown shape {0:?} (built in: twodoku, samurai, flower, sohei, butterfly, windmill; or a shape file)")]
    UnknownShape(String),
    #[error("line {line}: {what}")]
    ShapeLine { line: usize, what: String },
    #[error("the shape has no grid")]
    NoGrid,
    #[error("grid {grid} overlaps no other grid: solve it on its own")]
    Apart { grid: usize },
    #[error("grid {a} and grid {b} are at the same place")]
    SameGrid { a: usize, b: usize },
    #[error("the puzzle has {found} cells: this shape takes {grids} (its grids one after the other) or {cells} (its cells in reading order)")]
    Length {
        found: usize,
        grids: usize,
        cells: usize,
    },
    #[error("character {column}: {ch:?} is not a digit from 1 to {size}, . or 0")]
    BadChar {
        ch: char,
        column: usize,
        size: usize,
    },
    #[error("{cell} is given as {a} in grid {ga} and as {b} in grid {gb}")]
    Disagree {
        cell: String,
        a: u8,
        ga: usize,
        b: u8,
        gb: usize,
    },
    #[error("{cell} and {other} both hold {digit} in {unit}")]
    Clash {
        cell: String,
        other: String,
        digit: u8,
        unit: String,
    },
}

/// The most a shape may spread: grids of at most this offset.
pub const MAX_OFFSET: usize = 200;

/// The most grids a shape may have.
pub const MAX_GRIDS: usize = 64;

impl Shape {
    /// The built-in shapes' names.
    pub const BUILTIN: &'static [&'static str] = &[
        "twodoku",
        "samurai",
        "flower",
        "sohei",
        "butterfly",
        "windmill",
    ];

    /// A built-in shape of 9x9 grids: `twodoku` (two sharing a corner
    /// box), `samurai` (five: four corner grids each sharing a box with a
    /// centre one), `flower` (five: a centre one and four shifted a box
    /// up, left, right and down), `sohei` (four around an empty centre,
    /// sharing corner boxes), `butterfly` (four on a 12x12 canvas, shifted
    /// a box), `windmill` (five: a centre one and four sharing two boxes
    /// with it, turned like sails).
    pub fn builtin(name: &str) -> Option<Shape> {
        let grids: &[(usize, usize)] = match name {
            "twodoku" => &[(0, 0), (6, 6)],
            "samurai" => &[(0, 0), (0, 12), (6, 6), (12, 0), (12, 12)],
            "flower" => &[(0, 3), (3, 0), (3, 3), (3, 6), (6, 3)],
            "sohei" => &[(0, 6), (6, 0), (6, 12), (12, 6)],
            "butterfly" => &[(0, 0), (0, 3), (3, 0), (3, 3)],
            "windmill" => &[(0, 3), (3, 12), (6, 6), (9, 0), (12, 9)],
            _ => return None,
        };
        Some(Shape::new(name, 9, grids.to_vec()).expect("the built-in shapes are good"))
    }

    /// A shape from its parts, checked.
    pub fn new(name: &str, size: usize, grids: Vec<(usize, usize)>) -> Result<Shape, GattaiError> {
        if grids.is_empty() {
            return Err(GattaiError::NoGrid);
        }
        for (a, ga) in grids.iter().enumerate() {
            if let Some(b) = grids[a + 1..].iter().position(|gb| gb == ga) {
                return Err(GattaiError::SameGrid {
                    a: a + 1,
                    b: a + b + 2,
                });
            }
        }
        let boxes = default_boxes(size).ok_or_else(|| GattaiError::ShapeLine {
            line: 0,
            what: format!("size {size} has no usual boxes"),
        })?;
        let overlaps = |a: &(usize, usize), b: &(usize, usize)| {
            a.0.abs_diff(b.0) < size && a.1.abs_diff(b.1) < size
        };
        if let Some(a) = (0..grids.len()).find(|&a| {
            grids.len() > 1 && !(0..grids.len()).any(|b| b != a && overlaps(&grids[a], &grids[b]))
        }) {
            return Err(GattaiError::Apart { grid: a + 1 });
        }
        let height = grids.iter().map(|g| g.0).max().unwrap_or(0) + size;
        let width = grids.iter().map(|g| g.1).max().unwrap_or(0) + size;
        Ok(Shape {
            name: name.into(),
            size,
            boxes,
            grids,
            height,
            width,
        })
    }

    /// A built-in shape by name, or a shape file's text.
    pub fn parse(name: &str, text: &str) -> Result<Shape, GattaiError> {
        let mut size = 9;
        let mut grids = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let l = raw.split('#').next().unwrap_or("").trim();
            if l.is_empty() {
                continue;
            }
            let bad = |what: String| GattaiError::ShapeLine { line, what };
            let f: Vec<&str> = l.split_whitespace().collect();
            let num = |s: &str, most: usize| -> Result<usize, GattaiError> {
                s.parse::<usize>()
                    .ok()
                    .filter(|&x| x <= most)
                    .ok_or_else(|| bad(format!("{s:?} is not a whole number from 0 to {most}")))
            };
            match f.as_slice() {
                ["size", s] => {
                    size = num(s, 16)?;
                    if size < 4 || default_boxes(size).is_none_or(|(r, _)| r < 2) {
                        return Err(bad(format!(
                            "size {size}: grids from 4 to 16 with boxes (not a prime)"
                        )));
                    }
                }
                ["grid", r, c] => {
                    if grids.len() == MAX_GRIDS {
                        return Err(bad(format!("more than {MAX_GRIDS} grids")));
                    }
                    grids.push((num(r, MAX_OFFSET)?, num(c, MAX_OFFSET)?));
                }
                _ => return Err(bad(format!("{l:?}: expected `size N` or `grid ROW COL`"))),
            }
        }
        Shape::new(name, size, grids)
    }

    /// Cells of grid `g`, in its reading order, as canvas cells.
    pub fn grid_cells(&self, g: usize) -> Vec<usize> {
        let (r0, c0) = self.grids[g];
        (0..self.size * self.size)
            .map(|i| (r0 + i / self.size) * self.width + c0 + i % self.size)
            .collect()
    }

    /// Whether each canvas cell is in some grid.
    pub fn live(&self) -> Vec<bool> {
        let mut live = vec![false; self.height * self.width];
        for g in 0..self.grids.len() {
            for c in self.grid_cells(g) {
                live[c] = true;
            }
        }
        live
    }

    /// The canvas cells in some grid, in reading order.
    pub fn cells(&self) -> Vec<usize> {
        let live = self.live();
        (0..live.len()).filter(|&c| live[c]).collect()
    }

    /// Every unit of every grid (rows, columns, boxes), as (words, canvas
    /// cells), a unit two grids share (a box) once.
    pub fn units(&self) -> Vec<(String, Vec<usize>)> {
        let n = self.size;
        let (br, bc) = self.boxes;
        let mut out: Vec<(String, Vec<usize>)> = Vec::new();
        for g in 0..self.grids.len() {
            let cells = self.grid_cells(g);
            let at = |r: usize, c: usize| cells[r * n + c];
            for i in 0..n {
                let row = (0..n).map(|c| at(i, c)).collect();
                let col = (0..n).map(|r| at(r, i)).collect();
                let (r0, c0) = (i / (n / bc) * br, i % (n / bc) * bc);
                let mut bx: Vec<usize> = (0..n).map(|k| at(r0 + k / bc, c0 + k % bc)).collect();
                bx.sort_unstable();
                for (what, u) in [("row", row), ("column", col), ("box", bx)] {
                    if !out.iter().any(|(_, v)| *v == u) {
                        out.push((format!("grid {} {what} {}", g + 1, i + 1), u));
                    }
                }
            }
        }
        out
    }

    /// A canvas cell's name: `r13c7` (from 1).
    pub fn cell_name(&self, cell: usize) -> String {
        format!("r{}c{}", cell / self.width + 1, cell % self.width + 1)
    }
}

/// A puzzle on a shape: the givens of every canvas cell (0: empty, or not
/// in a grid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GattaiPuzzle {
    pub shape: Shape,
    pub givens: Vec<u8>,
}

impl GattaiPuzzle {
    /// Reads a puzzle line in either form (see the module's
    /// documentation), its givens checked against every grid's rules.
    pub fn parse(line: &str, shape: &Shape) -> Result<GattaiPuzzle, GattaiError> {
        let chars: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
        let n = shape.size;
        let cells = shape.cells();
        let per_grid = shape.grids.len() * n * n;
        let mut digits = Vec::with_capacity(chars.len());
        for (i, &ch) in chars.iter().enumerate() {
            match digit(ch).filter(|&d| d as usize <= n) {
                Some(d) => digits.push(d),
                None => {
                    return Err(GattaiError::BadChar {
                        ch,
                        column: i + 1,
                        size: n,
                    })
                }
            }
        }
        let mut givens = vec![0u8; shape.height * shape.width];
        if digits.len() == cells.len() {
            for (&c, &d) in cells.iter().zip(&digits) {
                givens[c] = d;
            }
        } else if digits.len() == per_grid {
            let mut from = vec![0usize; givens.len()];
            for g in 0..shape.grids.len() {
                for (i, c) in shape.grid_cells(g).into_iter().enumerate() {
                    let d = digits[g * n * n + i];
                    if d == 0 {
                        continue;
                    }
                    if givens[c] != 0 && givens[c] != d {
                        return Err(GattaiError::Disagree {
                            cell: shape.cell_name(c),
                            a: givens[c],
                            ga: from[c] + 1,
                            b: d,
                            gb: g + 1,
                        });
                    }
                    givens[c] = d;
                    from[c] = g;
                }
            }
        } else {
            return Err(GattaiError::Length {
                found: digits.len(),
                grids: per_grid,
                cells: cells.len(),
            });
        }
        for (words, unit) in shape.units() {
            for (i, &a) in unit.iter().enumerate() {
                if let Some(&b) = unit[i + 1..]
                    .iter()
                    .find(|&&b| givens[a] != 0 && givens[b] == givens[a])
                {
                    return Err(GattaiError::Clash {
                        cell: shape.cell_name(a),
                        other: shape.cell_name(b),
                        digit: givens[a],
                        unit: words,
                    });
                }
            }
        }
        Ok(GattaiPuzzle {
            shape: shape.clone(),
            givens,
        })
    }

    /// The puzzle (or a solution: `values` for every canvas cell) as a
    /// line: the shape's cells in reading order.
    pub fn line_of(shape: &Shape, values: &[u8]) -> String {
        shape.cells().iter().map(|&c| symbol(values[c])).collect()
    }

    /// Its givens as a line.
    pub fn to_line(&self) -> String {
        Self::line_of(&self.shape, &self.givens)
    }
}

/// The board of the steps (`crate::killer`'s, with no cages): every
/// grid's units, the givens placed.
pub fn board(p: &GattaiPuzzle) -> KillerBoard {
    let s = &p.shape;
    KillerBoard::for_grids(s.size, s.width, &s.live(), s.units(), &p.givens)
}

/// Every step from the givens on, across the grids (the Sudoku steps of
/// `crate::killer`: singles, locked candidates, subsets, contradictions),
/// and whether they fill the canvas.
pub fn path(p: &GattaiPuzzle) -> (Vec<KillerStep>, bool) {
    let (steps, b) = crate::killer::path_from(board(p), KillerTechnique::Contradiction);
    (steps, b.is_solved())
}

/// The puzzle rated by its hardest step, on the killer scale.
pub fn rate(p: &GattaiPuzzle) -> KillerRating {
    let (steps, solved) = path(p);
    crate::killer::rating_of(&steps, solved)
}

/// [`rate`] within `budget`: stopped early, the rating of the steps taken
/// (a lower bound) and why they stopped.
pub fn rate_within(p: &GattaiPuzzle, budget: &Budget) -> KillerRating {
    crate::killer::logic::rating_within(board(p), budget)
}

/// The puzzle rated when it has one solution (`None` when it has none or
/// several), all within `budget`: the count of solutions (on a large
/// shape it can take longer than the steps) as well as the steps. A
/// budget that runs out during the count gives the rating of no step,
/// stopped ([`KillerRating::stopped_before_steps`]).
pub fn rate_unique_within(p: &GattaiPuzzle, budget: &Budget) -> Option<KillerRating> {
    let found = solve_within(p, Some(2), 0, budget);
    match (found.count, found.stopped) {
        (0 | 1, Some(halt)) => Some(KillerRating::stopped_before_steps(halt)),
        (1, None) => Some(rate_within(p, budget)),
        _ => None,
    }
}

/// The easiest next step (the player's entries among the givens), after
/// the candidates `removed` (canvas cell, digit); no step when the puzzle
/// is not unique or has no solution.
pub fn hint(p: &GattaiPuzzle, removed: &[(usize, u8)]) -> KillerHint {
    hint_within(p, removed, &Budget::unlimited())
}

/// [`hint`] within `budget`: the count of solutions and the search for
/// the step both stop when it runs out ([`KillerHint::Stopped`]).
pub fn hint_within(p: &GattaiPuzzle, removed: &[(usize, u8)], budget: &Budget) -> KillerHint {
    let found = solve_within(p, Some(2), 0, budget);
    match (found.count, found.stopped) {
        (0 | 1, Some(halt)) => return KillerHint::Stopped(halt),
        (0, None) => return KillerHint::NoSolution,
        (1, None) => {}
        _ => return KillerHint::NotUnique,
    }
    hint_of_unique_within(p, removed, budget)
}

/// [`hint`] for a caller that already knows `p` has exactly one solution
/// (a game whose entries all agree with its unique solution): the same
/// step, without counting the solutions again (on a samurai the count
/// took most of a hint's time).
pub fn hint_of_unique(p: &GattaiPuzzle, removed: &[(usize, u8)]) -> KillerHint {
    hint_of_unique_within(p, removed, &Budget::unlimited())
}

/// [`hint_of_unique`] within `budget` ([`KillerHint::Stopped`] when it
/// runs out first).
pub fn hint_of_unique_within(
    p: &GattaiPuzzle,
    removed: &[(usize, u8)],
    budget: &Budget,
) -> KillerHint {
    let mut b = board(p);
    if b.is_solved() {
        return KillerHint::Solved;
    }
    for &(c, d) in removed.iter().filter(|&&(c, _)| c < p.givens.len()) {
        b.remove(c, d);
    }
    crate::killer::step_hint(&b, budget)
}

/// The canvas drawn: a row of text per canvas row, `.` for empty cells,
/// spaces where no grid is.
pub fn picture(shape: &Shape, values: &[u8]) -> String {
    let live = shape.live();
    let mut out = String::new();
    for r in 0..shape.height {
        let row: String = (0..shape.width)
            .map(|c| {
                let i = r * shape.width + c;
                if live[i] {
                    symbol(values[i])
                } else {
                    ' '
                }
            })
            .collect();
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

/// Checks `solution` (a digit for every canvas cell) against the puzzle,
/// grid by grid: every row, column and box of every grid holds each digit
/// once, and the givens are kept. Shares no code with the solver.
pub fn check_solution(p: &GattaiPuzzle, solution: &[u8]) -> Result<(), String> {
    let s = &p.shape;
    let n = s.size;
    if solution.len() != s.height * s.width {
        return Err(format!(
            "the answer has {} cells, the canvas {}",
            solution.len(),
            s.height * s.width
        ));
    }
    if let Some(c) = s
        .cells()
        .into_iter()
        .find(|&c| !(1..=n as u8).contains(&solution[c]))
    {
        return Err(format!(
            "{} holds {}, not a digit from 1 to {n}",
            s.cell_name(c),
            solution[c]
        ));
    }
    let (br, bc) = s.boxes;
    for g in 0..s.grids.len() {
        let (r0, c0) = s.grids[g];
        let at = |r: usize, c: usize| solution[(r0 + r) * s.width + c0 + c];
        for i in 0..n {
            let mut row = 0u32;
            let mut col = 0u32;
            let mut bx = 0u32;
            for k in 0..n {
                row |= 1 << at(i, k);
                col |= 1 << at(k, i);
                let (r, c) = ((i / (n / bc)) * br + k / bc, (i % (n / bc)) * bc + k % bc);
                bx |= 1 << at(r, c);
            }
            let all = ((1u32 << (n + 1)) - 1) & !1;
            for (what, m) in [("row", row), ("column", col), ("box", bx)] {
                if m != all {
                    return Err(format!(
                        "grid {} {what} {} does not hold every digit once",
                        g + 1,
                        i + 1
                    ));
                }
            }
        }
    }
    for (c, (&given, &d)) in p.givens.iter().zip(solution).enumerate() {
        if given != 0 && given != d {
            return Err(format!("{} is given {given}, answered {d}", s.cell_name(c)));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
