//! Play support: a game in progress, with pencil marks, hints, undo, a
//! check of the player's entries against the solution, and save/restore as
//! a small JSON document (for the web page to come).

use crate::grid::{symbol, Grid};
use crate::logic::{self, Step};
use crate::puzzle::Puzzle;
use crate::solve::{solve, Status};
use serde::{Deserialize, Serialize};

/// What a player's entry is, against the puzzle's solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Check {
    /// The cell is empty.
    Empty,
    /// A given: not the player's to change.
    Given,
    /// The entry is the solution's digit.
    Right,
    /// The entry differs from the solution's digit.
    Wrong,
}

/// Why a move is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("the puzzle has no solution")]
    NoSolution,
    #[error("the puzzle has more than one solution")]
    NotUnique,
    #[error("cell {0} does not exist")]
    NoSuchCell(usize),
    #[error("{0} is not a digit of this grid")]
    BadDigit(u8),
    #[error("{0} is a given")]
    Given(String),
    #[error("not a saved game: {0}")]
    Load(String),
}

/// One undoable change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Change {
    /// A cell's entry, marks and removed candidates before the change.
    Cell {
        cell: usize,
        entry: u8,
        marks: u32,
        removed: u32,
    },
    /// Several at once (a hint applied, marks filled in).
    Group(Vec<Change>),
}

/// A game in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// The puzzle, as one line.
    puzzle: String,
    size: usize,
    givens: Vec<u8>,
    solution: Vec<u8>,
    /// The player's entries (0: empty; givens are not repeated here).
    entries: Vec<u8>,
    /// Pencil marks, one bit per digit (bit d-1).
    marks: Vec<u32>,
    /// Candidates removed by the hints applied (bit d-1), so that the next
    /// hint goes on from there.
    #[serde(default)]
    removed: Vec<u32>,
    history: Vec<Change>,
}

impl Game {
    /// Starts a game; the puzzle must have exactly one solution.
    pub fn new(puzzle: &Puzzle) -> Result<Self, PlayError> {
        let s = solve(puzzle, 2);
        match s.status() {
            Status::None => return Err(PlayError::NoSolution),
            Status::Multiple => return Err(PlayError::NotUnique),
            Status::Unique => {}
        }
        let n = puzzle.rules.size();
        Ok(Game {
            puzzle: puzzle.to_line(),
            size: n,
            givens: puzzle.givens.cells().to_vec(),
            solution: s.solutions[0].cells().to_vec(),
            entries: vec![0; n * n],
            marks: vec![0; n * n],
            removed: vec![0; n * n],
            history: Vec::new(),
        })
    }

    pub fn size(&self) -> usize {
        self.size
    }

    fn check_cell(&self, cell: usize) -> Result<(), PlayError> {
        if cell >= self.size * self.size {
            return Err(PlayError::NoSuchCell(cell));
        }
        if self.givens[cell] != 0 {
            return Err(PlayError::Given(crate::rules::cell_name(self.size, cell)));
        }
        Ok(())
    }

    fn snapshot(&self, cell: usize) -> Change {
        Change::Cell {
            cell,
            entry: self.entries[cell],
            marks: self.marks[cell],
            removed: self.removed[cell],
        }
    }

    /// The grid as the player sees it: givens and entries.
    pub fn grid(&self) -> Grid {
        let cells = self
            .givens
            .iter()
            .zip(&self.entries)
            .map(|(&g, &e)| if g != 0 { g } else { e })
            .collect();
        Grid::from_cells(self.size, cells)
    }

    /// Puts `digit` in `cell` (0 clears it) and says whether it is right.
    pub fn set(&mut self, cell: usize, digit: u8) -> Result<Check, PlayError> {
        self.check_cell(cell)?;
        if digit as usize > self.size {
            return Err(PlayError::BadDigit(digit));
        }
        self.history.push(self.snapshot(cell));
        self.entries[cell] = digit;
        Ok(self.check(cell))
    }

    /// Toggles pencil mark `digit` in `cell`.
    pub fn toggle_mark(&mut self, cell: usize, digit: u8) -> Result<(), PlayError> {
        self.check_cell(cell)?;
        if digit == 0 || digit as usize > self.size {
            return Err(PlayError::BadDigit(digit));
        }
        self.history.push(self.snapshot(cell));
        self.marks[cell] ^= 1 << (digit - 1);
        Ok(())
    }

    /// The pencil marks of a cell.
    pub fn marks(&self, cell: usize) -> Vec<u8> {
        (1..=self.size as u8)
            .filter(|d| self.marks[cell] >> (d - 1) & 1 == 1)
            .collect()
    }

    /// The candidates of every empty cell from the grid as it stands
    /// (digits not yet in the cell's row, column or box).
    pub fn candidates(&self) -> Vec<u32> {
        let rules = crate::rules::Rules::standard(self.size).expect("sizes come from puzzles");
        let g = self.grid();
        let mut out = vec![0u32; self.size * self.size];
        let full = (1u32 << self.size) - 1;
        for (c, o) in out.iter_mut().enumerate() {
            if g.get(c) != 0 {
                continue;
            }
            *o = full;
        }
        for u in rules.units() {
            let mut used = 0u32;
            for &c in &u.cells {
                if g.get(c) != 0 {
                    used |= 1 << (g.get(c) - 1);
                }
            }
            for &c in &u.cells {
                out[c] &= !used;
            }
        }
        out
    }

    /// Fills every empty cell's pencil marks with its candidates (one undo).
    pub fn fill_marks(&mut self) {
        let cand = self.candidates();
        let mut group = Vec::new();
        for (c, &m) in cand.iter().enumerate() {
            if self.givens[c] == 0 && self.entries[c] == 0 && self.marks[c] != m {
                group.push(self.snapshot(c));
                self.marks[c] = m;
            }
        }
        if !group.is_empty() {
            self.history.push(Change::Group(group));
        }
    }

    /// The easiest next logical step from the grid as it stands (9x9), with
    /// the player's pencil marks ignored.
    pub fn hint(&self) -> Option<Step> {
        if self.size != 9 {
            return None;
        }
        let mut board = logic::Board::try_from_grid(&self.grid())?;
        for (c, &r) in self.removed.iter().enumerate() {
            for d in 1..=9u8 {
                if r >> (d - 1) & 1 == 1 && board.value(c) == 0 {
                    board.eliminate(c, d);
                }
            }
        }
        crate::hint::next_step(&board)
    }

    /// Applies a step: its placements become entries, its eliminations
    /// remove pencil marks (one undo).
    pub fn apply(&mut self, step: &Step) {
        let mut group = Vec::new();
        for &(c, d) in &step.placements {
            if c < self.entries.len() && self.givens[c] == 0 {
                group.push(self.snapshot(c));
                self.entries[c] = d;
                self.marks[c] = 0;
            }
        }
        for &(c, d) in &step.eliminations {
            if c < self.marks.len() && self.givens[c] == 0 {
                group.push(self.snapshot(c));
                self.marks[c] &= !(1 << (d - 1));
                self.removed[c] |= 1 << (d - 1);
            }
        }
        if !group.is_empty() {
            self.history.push(Change::Group(group));
        }
    }

    /// Undoes the last change; false when there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        fn revert(g: &mut Game, ch: Change) {
            match ch {
                Change::Cell {
                    cell,
                    entry,
                    marks,
                    removed,
                } => {
                    g.entries[cell] = entry;
                    g.marks[cell] = marks;
                    g.removed[cell] = removed;
                }
                Change::Group(v) => {
                    for ch in v.into_iter().rev() {
                        revert(g, ch);
                    }
                }
            }
        }
        match self.history.pop() {
            Some(ch) => {
                revert(self, ch);
                true
            }
            None => false,
        }
    }

    /// The player's entry in `cell`, against the solution.
    pub fn check(&self, cell: usize) -> Check {
        if self.givens[cell] != 0 {
            Check::Given
        } else if self.entries[cell] == 0 {
            Check::Empty
        } else if self.entries[cell] == self.solution[cell] {
            Check::Right
        } else {
            Check::Wrong
        }
    }

    /// The cells whose entries are wrong.
    pub fn mistakes(&self) -> Vec<usize> {
        (0..self.entries.len())
            .filter(|&c| self.check(c) == Check::Wrong)
            .collect()
    }

    /// Every cell filled, and rightly.
    pub fn is_solved(&self) -> bool {
        (0..self.entries.len()).all(|c| matches!(self.check(c), Check::Given | Check::Right))
    }

    /// The game as a small JSON document.
    pub fn save(&self) -> String {
        serde_json::to_string(self).expect("serialisable")
    }

    /// A game saved by [`save`](Self::save); checked for consistency.
    pub fn load(json: &str) -> Result<Self, PlayError> {
        let mut g: Game = serde_json::from_str(json).map_err(|e| PlayError::Load(e.to_string()))?;
        let n = g.size;
        if g.removed.is_empty() {
            g.removed = vec![0; n * n];
        }
        let ok = (4..=25).contains(&n)
            && [&g.givens, &g.solution, &g.entries]
                .iter()
                .all(|v| v.len() == n * n)
            && g.marks.len() == n * n
            && g.removed.len() == n * n
            && g.givens
                .iter()
                .chain(&g.solution)
                .chain(&g.entries)
                .all(|&d| d as usize <= n)
            && g.puzzle == g.givens.iter().map(|&d| symbol(d)).collect::<String>();
        if !ok {
            return Err(PlayError::Load("inconsistent game".into()));
        }
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn a_game() {
        let p = Puzzle::parse_line(P, None).unwrap();
        let mut g = Game::new(&p).unwrap();
        assert_eq!(g.set(0, 1), Err(PlayError::Given("r1c1".into())));
        let sol = g.solution.clone();
        assert_eq!(g.set(1, sol[1]).unwrap(), Check::Right);
        let wrong = if sol[2] == 9 { 8 } else { 9 };
        assert_eq!(g.set(2, wrong).unwrap(), Check::Wrong);
        assert_eq!(g.mistakes(), vec![2]);
        assert!(g.undo());
        assert_eq!(g.check(2), Check::Empty);
        g.toggle_mark(3, 5).unwrap();
        assert_eq!(g.marks(3), vec![5]);
        g.fill_marks();
        assert!(!g.marks(3).is_empty());
        assert!(g.undo()); // the fill
        assert_eq!(g.marks(3), vec![5]);
        // hints lead to the solution
        let mut steps = 0;
        while let Some(step) = g.hint() {
            g.apply(&step);
            assert!(g.mistakes().is_empty(), "a hint made a mistake");
            steps += 1;
            if g.is_solved() || steps > 500 {
                break;
            }
        }
        assert!(g.is_solved());
        // save and restore
        let saved = g.save();
        let back = Game::load(&saved).unwrap();
        assert_eq!(back, g);
        assert!(Game::load("{}").is_err());
        assert!(Game::load(&saved.replace("\"size\":9", "\"size\":4")).is_err());
    }

    #[test]
    fn refuses_bad_puzzles() {
        let none = Puzzle::parse_line(
            "12345678.........9...............................................................",
            None,
        )
        .unwrap();
        assert_eq!(Game::new(&none), Err(PlayError::NoSolution));
        let multi = Puzzle::parse_line(&".".repeat(81), None).unwrap();
        assert_eq!(Game::new(&multi), Err(PlayError::NotUnique));
    }
}
