//! The gattai game: what a [`Game`] of kind [`GameKind::Gattai`] adds to
//! the plain one.
//!
//! A gattai game is played on a [`Shape`]'s canvas (`height x width`
//! cells): its board has a cell for every canvas cell, those in no grid
//! dead (never given, entered, marked or hinted; [`Game::is_live`]). The
//! units are every grid's rows, columns and boxes (conflicts and the
//! filled-in candidates follow them), the solution is found by the gattai
//! exact cover ([`crate::gattai::solve`]), and the hints are
//! [`crate::gattai::hint`]'s (the Sudoku steps across the grids) from the
//! board as it stands, after the candidates the hints applied so far
//! removed.
//!
//! The saved game names its shape by its built-in name only (a shape file
//! is not taken from a client: its size is bounded by the built-in ones,
//! 21x21 at most); [`saved_shape`] and [`check_saved`] check it on load,
//! the givens read back with every check of [`GattaiPuzzle::parse`] and
//! the solution checked by [`crate::gattai::check_solution`].

use super::{Game, GameKind, PlayError};
use crate::gattai::{self, GattaiPuzzle, Shape};
use crate::grid::Grid;
use crate::killer::KillerHint;
use crate::logic::Budget;
use crate::puzzle::Puzzle;
use crate::rules::Rules;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

impl Game {
    /// Starts a gattai game; the puzzle must have exactly one solution and
    /// be on a built-in shape (the saved game names it).
    pub fn new_gattai(p: &GattaiPuzzle) -> Result<Self, PlayError> {
        Self::new_gattai_until(p, None)
    }

    /// [`Game::new_gattai`], its search stopped ([`PlayError::Stopped`])
    /// once `cancel` is set (a server's request gone or past its time).
    pub fn new_gattai_until(
        p: &GattaiPuzzle,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Result<Self, PlayError> {
        let shape = &p.shape;
        if Shape::builtin(&shape.name).as_ref() != Some(shape) {
            return Err(PlayError::Unsupported(format!(
                "the shape {:?} (games are played on the built-in shapes)",
                shape.name
            )));
        }
        let found = gattai::solve(p, Some(2), 1, cancel);
        match found.count {
            _ if found.count < 2 && !found.complete => return Err(PlayError::Stopped),
            0 => return Err(PlayError::NoSolution),
            1 => {}
            _ => return Err(PlayError::NotUnique),
        }
        Self::begin_gattai(p, &found.solutions[0])
    }

    /// A gattai game of a puzzle the generator made: its solution is
    /// the generator's (checked by [`gattai::check_solution`], not searched
    /// for again; the generator made the puzzle unique).
    pub fn new_gattai_generated(made: &gattai::GattaiGenerated) -> Result<Self, PlayError> {
        let p = &made.puzzle;
        if Shape::builtin(&p.shape.name).as_ref() != Some(&p.shape) {
            return Err(PlayError::Unsupported(format!(
                "the shape {:?}",
                p.shape.name
            )));
        }
        gattai::check_solution(p, &made.solution).map_err(|_| PlayError::NoSolution)?;
        Self::begin_gattai(p, &made.solution)
    }

    /// A gattai game of `p` whose solution is `solution` (a digit for
    /// every canvas cell, 0 on the dead ones), nothing played yet.
    fn begin_gattai(p: &GattaiPuzzle, solution: &[u8]) -> Result<Self, PlayError> {
        let shape = &p.shape;
        let (_, rules) = saved_shape(&shape.name, shape.size)?;
        // a plain game's frame, then the canvas's cells
        let empty = Grid::empty(shape.size);
        let grid = Puzzle {
            rules,
            givens: empty.clone(),
        };
        let mut g = Game::begin(&grid, &empty)?;
        let cells = shape.height * shape.width;
        let live = shape.live();
        g.doc.givens = p.givens.clone();
        g.doc.solution = (0..cells)
            .map(|c| if live[c] { solution[c] } else { 0 })
            .collect();
        g.doc.puzzle = p.givens.iter().map(|&d| crate::grid::symbol(d)).collect();
        g.doc.entries = vec![0; cells];
        g.doc.marks = vec![0; cells];
        g.doc.removed = vec![0; cells];
        g.doc.gattai = Some(shape.name.clone());
        g.gattai = Some(shape.clone());
        Ok(g)
    }

    /// A gattai game's shape (`None` for other kinds).
    pub fn shape(&self) -> Option<&Shape> {
        self.gattai.as_ref()
    }

    /// A gattai game's puzzle, its givens as they were (`None` for other
    /// kinds).
    pub fn gattai_puzzle(&self) -> Option<GattaiPuzzle> {
        let shape = self.gattai.clone()?;
        Some(GattaiPuzzle {
            shape,
            givens: self.doc.givens.clone(),
        })
    }

    /// The next step across the grids from the board as it stands (`None`
    /// for other kinds); apply it with [`Game::apply_killer`]. A wrong
    /// entry gives [`KillerHint::NoSolution`].
    pub fn gattai_hint(&self) -> Option<KillerHint> {
        self.gattai_hint_within(&Budget::unlimited())
    }

    /// [`Game::gattai_hint`] within `budget` (a server's request gone or
    /// past its time; [`KillerHint::Stopped`] when it runs out first).
    pub fn gattai_hint_within(&self, budget: &Budget) -> Option<KillerHint> {
        let mut now = self.gattai_puzzle()?;
        if !self.mistakes().is_empty() {
            return Some(KillerHint::NoSolution);
        }
        now.givens = self.values();
        let n = self.doc.size;
        // only what the solution allows: a forged save cannot break the board
        let removed: Vec<(usize, u8)> = (0..now.givens.len())
            .filter(|&c| now.givens[c] == 0 && self.is_live(c))
            .flat_map(|c| {
                let (r, s) = (self.doc.removed[c], self.doc.solution[c]);
                (1..=n as u8)
                    .filter(move |&d| d != s && r >> (d - 1) & 1 == 1)
                    .map(move |d| (c, d))
            })
            .collect();
        // no mistakes: the givens and entries agree with the game's
        // solution, which was unique for the givens alone
        Some(gattai::hint_of_unique_within(&now, &removed, budget))
    }
}

/// Whether `cell` of the canvas of `s` is in one of its grids.
pub(super) fn live_cell(s: &Shape, cell: usize) -> bool {
    let (r, c) = (cell / s.width, cell % s.width);
    s.grids
        .iter()
        .any(|&(r0, c0)| (r0..r0 + s.size).contains(&r) && (c0..c0 + s.size).contains(&c))
}

/// The built-in shape a saved game names, and its grids' rules; refused
/// unless it is built in and of the game's size.
pub(super) fn saved_shape(name: &str, size: usize) -> Result<(Shape, Rules), PlayError> {
    let bad = |why: String| PlayError::Load(format!("inconsistent game (gattai: {why})"));
    let shape = Shape::builtin(name).ok_or_else(|| {
        let shown: String = name.chars().take(40).collect();
        bad(format!("no built-in shape {shown:?}"))
    })?;
    if shape.size != size {
        return Err(bad(format!("its grids are not {size}x{size}")));
    }
    let (br, bc) = shape.boxes;
    let rules = Rules::boxed(size, br, bc).map_err(|e| bad(e.to_string()))?;
    Ok((shape, rules))
}

/// The givens of a saved gattai game read back as a puzzle (no digit
/// twice in a unit), and the saved solution checked against it.
pub(super) fn check_saved(s: &Shape, givens: &[u8], solution: &[u8]) -> Result<(), PlayError> {
    let bad = |why: String| PlayError::Load(format!("inconsistent game (gattai: {why})"));
    let line = GattaiPuzzle::line_of(s, givens);
    let p = GattaiPuzzle::parse(&line, s).map_err(|e| bad(e.to_string()))?;
    gattai::check_solution(&p, solution).map_err(|e| bad(format!("the solution: {e}")))
}

impl GameKind {
    /// The kind's name in the web app's API: `plain`, `killer` or
    /// `gattai`.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Plain => "plain",
            GameKind::Killer => "killer",
            GameKind::Gattai => "gattai",
        }
    }
}

#[cfg(test)]
mod tests;
