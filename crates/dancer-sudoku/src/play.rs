//! Play support: a game in progress, with pencil marks, hints, undo and
//! redo, a check of the player's entries against the solution, reveal,
//! and save/restore as a small JSON document (the web app's page keeps
//! that document and sends it back with each move).
//!
//! Every change is one entry of the history (a hint applied, marks filled
//! in or cleared, a whole grid revealed: one entry each), so that undo
//! takes back what the player did in one go; undo moves it to the redo
//! list, and any new change empties that list. The history is bounded
//! ([`MAX_SAVED_CELLS`] cells saved in all, the oldest changes forgotten
//! first), so that a saved game stays small however long it is played.
//!
//! A game is played under its puzzle's rules: any size with rectangular
//! boxes, with the diagonal and windoku variants (conflicts and the filled
//! in candidates follow every unit; hints are for plain 9x9). A saved game
//! comes back from a client that may have changed it: [`Game::load`]
//! checks every field (sizes, digits, marks, the solution against the rules
//! and the givens, every cell the history names), so no saved game can make
//! a later move fail.

use crate::grid::{symbol, Grid};
use crate::logic::{self, Step};
use crate::puzzle::Puzzle;
use crate::rules::{Regions, Rules};
use crate::solve::{solve, Status};
use serde::{Deserialize, Serialize};

/// The most cells the history (undo and redo together) saves; beyond it
/// the oldest changes are forgotten. About 60 bytes each in a saved game.
pub const MAX_SAVED_CELLS: usize = 8192;

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
    #[error("games are played on grids with boxes, not on {0}")]
    Unsupported(String),
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    doc: Saved,
}

/// A game as it is saved: the puzzle, its rules, the player's grid and the
/// history. [`Game::load`] checks it all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Saved {
    /// The puzzle, as one line.
    puzzle: String,
    size: usize,
    /// Box rows and columns (absent in games saved before variants: the
    /// size's usual boxes).
    #[serde(default, rename = "box", skip_serializing_if = "Option::is_none")]
    boxes: Option<[usize; 2]>,
    #[serde(default)]
    diagonal: bool,
    #[serde(default)]
    windoku: bool,
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
    /// Changes undone, the last undone last (for redo).
    #[serde(default)]
    future: Vec<Change>,
}

/// The rules a saved game names.
fn saved_rules(d: &Saved) -> Result<Rules, String> {
    let [rows, cols] = match d.boxes {
        Some(b) => b,
        None => {
            let (r, c) = crate::rules::default_boxes(d.size)
                .ok_or_else(|| format!("no boxes for size {}", d.size))?;
            [r, c]
        }
    };
    let mut rules = Rules::boxed(d.size, rows, cols).map_err(|e| e.to_string())?;
    if d.diagonal {
        rules = rules.with_diagonal();
    }
    if d.windoku {
        rules = rules.with_windoku().map_err(|e| e.to_string())?;
    }
    Ok(rules)
}

impl Change {
    /// Cells saved.
    fn cells(&self) -> usize {
        match self {
            Change::Cell { .. } => 1,
            Change::Group(v) => v.iter().map(Change::cells).sum(),
        }
    }

    /// Every cell in range, its entry a digit and its bits digits.
    fn valid(&self, n: usize) -> bool {
        let full = full_mask(n);
        match self {
            Change::Cell {
                cell,
                entry,
                marks,
                removed,
            } => {
                *cell < n * n
                    && (*entry as usize) <= n
                    && marks & !full == 0
                    && removed & !full == 0
            }
            Change::Group(v) => v.iter().all(|c| c.valid(n)),
        }
    }
}

/// One bit for each digit of a grid of side `n` (at most 25).
fn full_mask(n: usize) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

impl Game {
    /// Starts a game; the puzzle must have exactly one solution.
    pub fn new(puzzle: &Puzzle) -> Result<Self, PlayError> {
        let Regions::Boxes { rows, cols } = *puzzle.rules.regions() else {
            return Err(PlayError::Unsupported(puzzle.rules.describe()));
        };
        let s = solve(puzzle, 2);
        match s.status() {
            Status::None => return Err(PlayError::NoSolution),
            Status::Multiple => return Err(PlayError::NotUnique),
            Status::Unique => {}
        }
        let n = puzzle.rules.size();
        Ok(Game {
            rules: puzzle.rules.clone(),
            doc: Saved {
                puzzle: puzzle.to_line(),
                size: n,
                boxes: Some([rows, cols]),
                diagonal: puzzle.rules.is_diagonal(),
                windoku: puzzle.rules.is_windoku(),
                givens: puzzle.givens.cells().to_vec(),
                solution: s.solutions[0].cells().to_vec(),
                entries: vec![0; n * n],
                marks: vec![0; n * n],
                removed: vec![0; n * n],
                history: Vec::new(),
                future: Vec::new(),
            },
        })
    }

    pub fn size(&self) -> usize {
        self.doc.size
    }

    /// The rules the game is played under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    fn check_cell(&self, cell: usize) -> Result<(), PlayError> {
        if cell >= self.doc.size * self.doc.size {
            return Err(PlayError::NoSuchCell(cell));
        }
        if self.doc.givens[cell] != 0 {
            return Err(PlayError::Given(crate::rules::cell_name(
                self.doc.size,
                cell,
            )));
        }
        Ok(())
    }

    fn snapshot(&self, cell: usize) -> Change {
        Change::Cell {
            cell,
            entry: self.doc.entries[cell],
            marks: self.doc.marks[cell],
            removed: self.doc.removed[cell],
        }
    }

    /// The grid as the player sees it: givens and entries.
    pub fn grid(&self) -> Grid {
        let cells = self
            .doc
            .givens
            .iter()
            .zip(&self.doc.entries)
            .map(|(&g, &e)| if g != 0 { g } else { e })
            .collect();
        Grid::from_cells(self.doc.size, cells)
    }

    /// Puts `digit` in `cell` (0 clears it) and says whether it is right.
    pub fn set(&mut self, cell: usize, digit: u8) -> Result<Check, PlayError> {
        self.check_cell(cell)?;
        if digit as usize > self.doc.size {
            return Err(PlayError::BadDigit(digit));
        }
        self.record(self.snapshot(cell));
        self.doc.entries[cell] = digit;
        Ok(self.check(cell))
    }

    /// Toggles pencil mark `digit` in `cell`.
    pub fn toggle_mark(&mut self, cell: usize, digit: u8) -> Result<(), PlayError> {
        self.check_cell(cell)?;
        if digit == 0 || digit as usize > self.doc.size {
            return Err(PlayError::BadDigit(digit));
        }
        self.record(self.snapshot(cell));
        self.doc.marks[cell] ^= 1 << (digit - 1);
        Ok(())
    }

    /// The pencil marks of a cell.
    pub fn marks(&self, cell: usize) -> Vec<u8> {
        (1..=self.doc.size as u8)
            .filter(|d| self.doc.marks[cell] >> (d - 1) & 1 == 1)
            .collect()
    }

    /// The candidates of every empty cell from the grid as it stands
    /// (digits not yet in any unit of the cell: row, column, box, and the
    /// variant's diagonals or windows).
    pub fn candidates(&self) -> Vec<u32> {
        let rules = &self.rules;
        let g = self.grid();
        let mut out = vec![0u32; self.doc.size * self.doc.size];
        let full = full_mask(self.doc.size);
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
            if self.doc.givens[c] == 0 && self.doc.entries[c] == 0 && self.doc.marks[c] != m {
                group.push(self.snapshot(c));
                self.doc.marks[c] = m;
            }
        }
        if !group.is_empty() {
            self.record(Change::Group(group));
        }
    }

    /// The easiest next logical step from the grid as it stands (plain
    /// 9x9 only), with the player's pencil marks ignored.
    pub fn hint(&self) -> Option<Step> {
        if !self.rules.is_standard_9x9() {
            return None;
        }
        let mut board = logic::MarkedGrid::try_from_grid(&self.grid())?;
        for (c, &r) in self.doc.removed.iter().enumerate() {
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
            if c < self.doc.entries.len() && self.doc.givens[c] == 0 {
                group.push(self.snapshot(c));
                self.doc.entries[c] = d;
                self.doc.marks[c] = 0;
            }
        }
        for &(c, d) in &step.eliminations {
            if c < self.doc.marks.len() && self.doc.givens[c] == 0 {
                group.push(self.snapshot(c));
                self.doc.marks[c] &= !(1 << (d - 1));
                self.doc.removed[c] |= 1 << (d - 1);
            }
        }
        if !group.is_empty() {
            self.record(Change::Group(group));
        }
    }

    /// Records a new change: it can be undone, and nothing can be redone.
    /// The oldest changes go beyond [`MAX_SAVED_CELLS`] (the newest one
    /// always stays).
    fn record(&mut self, ch: Change) {
        self.doc.history.push(ch);
        self.doc.future.clear();
        let mut saved: usize = self.doc.history.iter().map(Change::cells).sum();
        let mut drop = 0;
        while saved > MAX_SAVED_CELLS && drop + 1 < self.doc.history.len() {
            saved -= self.doc.history[drop].cells();
            drop += 1;
        }
        self.doc.history.drain(..drop);
    }

    /// The cells of `ch` as they are now, in the same shape (what puts them
    /// back after `ch` is reverted).
    fn capture(&self, ch: &Change) -> Change {
        match ch {
            Change::Cell { cell, .. } => self.snapshot(*cell),
            Change::Group(v) => Change::Group(v.iter().map(|c| self.capture(c)).collect()),
        }
    }

    /// Puts back the cells that `ch` saved (the last saved first wins: a
    /// group is reverted from its end).
    fn revert(&mut self, ch: Change) {
        match ch {
            Change::Cell {
                cell,
                entry,
                marks,
                removed,
            } => {
                self.doc.entries[cell] = entry;
                self.doc.marks[cell] = marks;
                self.doc.removed[cell] = removed;
            }
            Change::Group(v) => {
                for ch in v.into_iter().rev() {
                    self.revert(ch);
                }
            }
        }
    }

    /// Undoes the last change; false when there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        self.replay(true)
    }

    /// Redoes the last change undone; false when there is none.
    pub fn redo(&mut self) -> bool {
        self.replay(false)
    }

    /// Takes the last change off the history (`back`: undo) or off the redo
    /// list, reverts its cells, and files what they held on the other list,
    /// in reverse order of the reverting.
    fn replay(&mut self, back: bool) -> bool {
        let from = if back {
            &mut self.doc.history
        } else {
            &mut self.doc.future
        };
        let Some(ch) = from.pop() else {
            return false;
        };
        let now = self.capture(&ch);
        self.revert(ch);
        let to = if back {
            &mut self.doc.future
        } else {
            &mut self.doc.history
        };
        to.push(reversed(now));
        true
    }

    pub fn can_undo(&self) -> bool {
        !self.doc.history.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.doc.future.is_empty()
    }

    /// Clears every pencil mark (one undo).
    pub fn clear_marks(&mut self) {
        let group: Vec<Change> = (0..self.doc.marks.len())
            .filter(|&c| self.doc.marks[c] != 0)
            .map(|c| self.snapshot(c))
            .collect();
        if group.is_empty() {
            return;
        }
        self.doc.marks.iter_mut().for_each(|m| *m = 0);
        self.record(Change::Group(group));
    }

    /// Puts the solution's digit in `cell` (a given stays as it is).
    pub fn reveal(&mut self, cell: usize) -> Result<(), PlayError> {
        self.check_cell(cell)?;
        let d = self.doc.solution[cell];
        self.set(cell, d).map(|_| ())
    }

    /// Fills the whole grid with the solution (one undo).
    pub fn reveal_all(&mut self) {
        let mut group = Vec::new();
        for c in 0..self.doc.entries.len() {
            if self.doc.givens[c] == 0 && self.doc.entries[c] != self.doc.solution[c] {
                group.push(self.snapshot(c));
                self.doc.entries[c] = self.doc.solution[c];
                self.doc.marks[c] = 0;
            }
        }
        if !group.is_empty() {
            self.record(Change::Group(group));
        }
    }

    /// The puzzle, as one line.
    pub fn puzzle(&self) -> &str {
        &self.doc.puzzle
    }

    /// The given of a cell (0: none).
    pub fn given(&self, cell: usize) -> u8 {
        self.doc.givens[cell]
    }

    /// The cells whose digit repeats in one of their row, column or box
    /// (the grid's own rule, not a check against the solution).
    pub fn conflicts(&self) -> Vec<usize> {
        let rules = &self.rules;
        let g = self.grid();
        let mut bad = vec![false; self.doc.size * self.doc.size];
        for u in rules.units() {
            for (i, &a) in u.cells.iter().enumerate() {
                for &b in &u.cells[i + 1..] {
                    if g.get(a) != 0 && g.get(a) == g.get(b) {
                        bad[a] = true;
                        bad[b] = true;
                    }
                }
            }
        }
        (0..bad.len()).filter(|&c| bad[c]).collect()
    }

    /// The player's entry in `cell`, against the solution.
    pub fn check(&self, cell: usize) -> Check {
        if self.doc.givens[cell] != 0 {
            Check::Given
        } else if self.doc.entries[cell] == 0 {
            Check::Empty
        } else if self.doc.entries[cell] == self.doc.solution[cell] {
            Check::Right
        } else {
            Check::Wrong
        }
    }

    /// The cells whose entries are wrong.
    pub fn mistakes(&self) -> Vec<usize> {
        (0..self.doc.entries.len())
            .filter(|&c| self.check(c) == Check::Wrong)
            .collect()
    }

    /// Every cell filled, and rightly.
    pub fn is_solved(&self) -> bool {
        (0..self.doc.entries.len()).all(|c| matches!(self.check(c), Check::Given | Check::Right))
    }

    /// The game as a small JSON document.
    pub fn save(&self) -> String {
        serde_json::to_string(&self.doc).expect("serialisable")
    }

    /// A game saved by [`save`](Self::save), checked field by field (it may
    /// come from anywhere): the rules, every length, digit and mark, the
    /// solution (a full grid that keeps the rules and the givens), entries
    /// only where there is no given, and every cell of the history.
    pub fn load(json: &str) -> Result<Self, PlayError> {
        let bad = |why: &str| PlayError::Load(why.to_string());
        let mut d: Saved =
            serde_json::from_str(json).map_err(|e| PlayError::Load(e.to_string()))?;
        let n = d.size;
        if !(1..=25).contains(&n) {
            return Err(bad("size out of range"));
        }
        let rules = saved_rules(&d).map_err(PlayError::Load)?;
        if d.removed.is_empty() {
            d.removed = vec![0; n * n];
        }
        let full = full_mask(n);
        let lengths = [&d.givens, &d.solution, &d.entries]
            .iter()
            .all(|v| v.len() == n * n)
            && d.marks.len() == n * n
            && d.removed.len() == n * n;
        if !lengths {
            return Err(bad("inconsistent game (lengths)"));
        }
        let digits = d
            .givens
            .iter()
            .chain(&d.solution)
            .chain(&d.entries)
            .all(|&x| x as usize <= n)
            && d.marks.iter().chain(&d.removed).all(|m| m & !full == 0);
        if !digits {
            return Err(bad("inconsistent game (digits)"));
        }
        if d.puzzle != d.givens.iter().map(|&x| symbol(x)).collect::<String>() {
            return Err(bad("inconsistent game (puzzle)"));
        }
        let solution_ok = (0..n * n).all(|c| {
            d.solution[c] != 0
                && (d.givens[c] == 0 || d.givens[c] == d.solution[c])
                && (d.givens[c] == 0 || d.entries[c] == 0)
        }) && rules.units().iter().all(|u| {
            let seen = u
                .cells
                .iter()
                .fold(0u32, |m, &c| m | 1 << (d.solution[c] - 1));
            seen == full
        });
        if !solution_ok {
            return Err(bad("inconsistent game (solution)"));
        }
        if !d.history.iter().chain(&d.future).all(|c| c.valid(n)) {
            return Err(bad("inconsistent game (history)"));
        }
        let saved: usize = d.history.iter().chain(&d.future).map(Change::cells).sum();
        if saved > 2 * MAX_SAVED_CELLS {
            return Err(bad("history too long"));
        }
        Ok(Game { rules, doc: d })
    }
}

/// A change whose cells are put back in the other order: what undoing a
/// reverted change must put back last goes first.
fn reversed(ch: Change) -> Change {
    match ch {
        Change::Group(mut v) => {
            v.reverse();
            Change::Group(v.into_iter().map(reversed).collect())
        }
        c => c,
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
        let sol = g.doc.solution.clone();
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
    fn undo_redo_marks_reveal() {
        let p = Puzzle::parse_line(P, None).unwrap();
        let mut g = Game::new(&p).unwrap();
        let start = g.clone();
        assert!(!g.can_undo() && !g.can_redo());
        g.set(1, 3).unwrap();
        g.set(1, 5).unwrap();
        g.toggle_mark(2, 4).unwrap();
        g.fill_marks();
        let filled = g.clone();
        assert!(g.undo());
        assert!(g.undo());
        assert_eq!(g.marks(2), Vec::<u8>::new());
        assert_eq!(g.grid().get(1), 5);
        assert!(g.can_redo());
        assert!(g.redo());
        assert!(g.redo());
        assert_eq!(g.grid(), filled.grid());
        assert_eq!(g.doc.marks, filled.doc.marks);
        assert!(!g.redo());
        // all the way back, and forward again
        while g.undo() {}
        assert_eq!(g.grid(), start.grid());
        assert_eq!(g.doc.marks, start.doc.marks);
        while g.redo() {}
        assert_eq!(g.doc.marks, filled.doc.marks);
        // a new change forgets the redo list
        g.undo();
        g.set(3, 1).unwrap();
        assert!(!g.can_redo());
        g.clear_marks();
        assert!((0..81).all(|c| g.marks(c).is_empty()));
        g.undo();
        assert!(!g.marks(2).is_empty());
        // conflicts: two 5s in row 1
        let mut h = Game::new(&p).unwrap();
        let r1: Vec<usize> = (1..9).filter(|&c| h.given(c) == 0).collect();
        h.set(r1[0], 5).unwrap();
        h.set(r1[1], 5).unwrap();
        assert!(h.conflicts().contains(&r1[0]) && h.conflicts().contains(&r1[1]));
        // reveal
        h.reveal(r1[0]).unwrap();
        assert_eq!(h.check(r1[0]), Check::Right);
        assert!(h.reveal(0).is_err());
        h.reveal_all();
        assert!(h.is_solved());
        assert!(h.undo());
        assert!(!h.is_solved());
        // the redo list survives a save
        h.undo();
        let back = Game::load(&h.save()).unwrap();
        assert!(back.can_redo());
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

    fn generated(rules: Rules) -> Puzzle {
        let opts = crate::generate::GenerateOptions {
            rules,
            symmetry: crate::generate::GivensSymmetry::None,
            minimal: true,
            attempts: 200,
        };
        (1..)
            .find_map(|seed| crate::generate::generate_rated(&opts, seed, None))
            .expect("a puzzle")
            .0
    }

    #[test]
    fn variants_follow_every_unit() {
        let rules = Rules::standard(9).unwrap().with_diagonal();
        let p = generated(rules.clone());
        let mut g = Game::new(&p).unwrap();
        assert_eq!(g.rules(), &rules);
        // two equal digits on the main diagonal, in different rows, columns
        // and boxes: a conflict only under the diagonal rule
        let diag: Vec<usize> = (0..9)
            .map(|i| i * 10)
            .filter(|&c| g.given(c) == 0)
            .collect();
        let (a, b) = diag
            .iter()
            .flat_map(|&a| diag.iter().map(move |&b| (a, b)))
            .find(|&(a, b)| a / 9 / 3 != b / 9 / 3)
            .expect("two empty diagonal cells in different boxes");
        let d = g.doc.solution[a];
        g.set(a, d).unwrap();
        g.set(b, d).unwrap();
        // (the cells of the main diagonal share no row or column)
        assert!(g.conflicts().contains(&a) && g.conflicts().contains(&b));
        g.undo();
        // candidates leave out what the diagonal holds
        g.fill_marks();
        let on_diag: Vec<u8> = (0..9)
            .map(|i| g.grid().get(i * 10))
            .filter(|&x| x != 0)
            .collect();
        for &c in &diag {
            if g.grid().get(c) == 0 {
                assert!(g.marks(c).iter().all(|m| !on_diag.contains(m)), "{c}");
            }
        }
        // hints are for plain 9x9; the rules survive a save
        assert!(g.hint().is_none());
        let back = Game::load(&g.save()).unwrap();
        assert_eq!(back, g);
        assert!(back.rules().is_diagonal());
        // windoku: a window's digits leave the candidates of its cells
        let w = Rules::standard(9).unwrap().with_windoku().unwrap();
        let mut g = Game::new(&generated(w)).unwrap();
        g.fill_marks();
        let window: Vec<usize> = (1..4)
            .flat_map(|r| (1..4).map(move |c| r * 9 + c))
            .collect();
        let held: Vec<u8> = window
            .iter()
            .map(|&c| g.grid().get(c))
            .filter(|&x| x != 0)
            .collect();
        for &c in &window {
            assert!(g.marks(c).iter().all(|m| !held.contains(m)));
        }
        assert!(Game::load(&g.save()).unwrap().rules().is_windoku());
        // 6x6 with its 2x3 boxes, and a jigsaw refused
        let six = Game::new(&generated(Rules::standard(6).unwrap())).unwrap();
        assert!(six.save().contains("\"box\":[2,3]"));
        let j = Rules::jigsaw(4, "AABBAABBCCDDCCDD").unwrap();
        let jp = Puzzle {
            rules: j,
            givens: crate::grid::Grid::empty(4),
        };
        assert!(matches!(Game::new(&jp), Err(PlayError::Unsupported(_))));
    }

    #[test]
    fn forged_saves_are_refused() {
        let p = Puzzle::parse_line(P, None).unwrap();
        let mut g = Game::new(&p).unwrap();
        g.set(1, 3).unwrap();
        g.fill_marks();
        let saved = g.save();
        let v: serde_json::Value = serde_json::from_str(&saved).unwrap();
        let forge = |f: &dyn Fn(&mut serde_json::Value)| {
            let mut w = v.clone();
            f(&mut w);
            Game::load(&w.to_string())
        };
        assert!(forge(&|_| {}).is_ok());
        type Forge = Box<dyn Fn(&mut serde_json::Value)>;
        let bad: Vec<(&str, Forge)> = vec![
            ("size 5 has no boxes", Box::new(|w| w["size"] = 5.into())),
            ("size 0", Box::new(|w| w["size"] = 0.into())),
            ("huge size", Box::new(|w| w["size"] = u64::MAX.into())),
            (
                "boxes that do not tile",
                Box::new(|w| w["box"] = serde_json::json!([2, 4])),
            ),
            (
                "windoku on 6",
                Box::new(|w| {
                    w["windoku"] = true.into();
                    w["size"] = 6.into();
                }),
            ),
            (
                "a digit too large",
                Box::new(|w| w["entries"][5] = 10.into()),
            ),
            (
                "a mark beyond the digits",
                Box::new(|w| w["marks"][5] = (1u32 << 9).into()),
            ),
            (
                "a short grid",
                Box::new(|w| {
                    w["marks"].as_array_mut().unwrap().pop();
                }),
            ),
            (
                "a wrong solution",
                Box::new(|w| {
                    let a = w["solution"][1].clone();
                    w["solution"][1] = w["solution"][2].clone();
                    w["solution"][2] = a;
                }),
            ),
            (
                "an empty solution cell",
                Box::new(|w| w["solution"][1] = 0.into()),
            ),
            (
                "an entry over a given",
                Box::new(|w| w["entries"][0] = 4.into()),
            ),
            (
                "a history cell out of range",
                Box::new(|w| {
                    w["history"][0]["Cell"]["cell"] = 81.into();
                }),
            ),
            (
                "a history mark beyond the digits",
                Box::new(|w| {
                    w["history"][0]["Cell"]["marks"] = u32::MAX.into();
                }),
            ),
            (
                "another puzzle line",
                Box::new(|w| w["puzzle"] = ".".repeat(81).into()),
            ),
        ];
        for (what, f) in &bad {
            assert!(
                matches!(forge(f.as_ref()), Err(PlayError::Load(_))),
                "{what}"
            );
        }
        // a history cell out of range would panic on undo were it let in
        assert!(forge(&|w| w["history"][0]["Cell"]["cell"] = 80.into()).is_ok());
    }

    #[test]
    fn the_history_is_bounded() {
        let p = Puzzle::parse_line(P, None).unwrap();
        let mut g = Game::new(&p).unwrap();
        let empty = (0..81).find(|&c| g.given(c) == 0).unwrap();
        for i in 0..(MAX_SAVED_CELLS + 100) {
            g.toggle_mark(empty, (i % 9) as u8 + 1).unwrap();
        }
        let saved: usize = g.doc.history.iter().map(Change::cells).sum();
        assert!(saved <= MAX_SAVED_CELLS);
        assert!(Game::load(&g.save()).is_ok());
        // the newest changes are kept: undo takes back the last toggle
        let before = g.marks(empty);
        assert!(g.undo());
        assert_ne!(g.marks(empty), before);
        // a group larger than the bound stays, alone
        g.fill_marks();
        assert!(g.can_undo());
    }
}
