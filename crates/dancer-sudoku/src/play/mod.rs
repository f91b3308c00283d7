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
//! in candidates follow every unit; hints are for plain 9x9). A game is of
//! a kind ([`GameKind`]): plain, or killer, whose cages are more units
//! (no digit twice) with sums, and whose hints are the killer techniques
//! (`killer.rs` holds what is the killer game's own), or gattai: several
//! overlapping grids on a canvas of `height x width` cells, the cells in
//! no grid dead (never played; `gattai.rs`). A saved game
//! comes back from a client that may have changed it: [`Game::load`]
//! checks every field (sizes, digits, marks, the solution against the rules
//! and the givens, every cell the history names), so no saved game can make
//! a later move fail.

mod gattai;
mod killer;

pub use killer::CageCombinations;

use crate::grid::{symbol, Grid};
use crate::killer::KillerPuzzle;
use crate::logic::{self, Step};
use crate::puzzle::Puzzle;
use crate::rules::{Regions, Rules};
use crate::solve::{Solver, Status};
use crate::SudokuEngine;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

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
    #[error("the search for the puzzle's solution was stopped")]
    Stopped,
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

/// What a game is played on, beside its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    /// The Sudoku's rules alone.
    Plain,
    /// Killer: cages with their sums.
    Killer,
    /// Gattai: overlapping grids on a canvas (samurai, twodoku, ...).
    Gattai,
}

/// A game in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    /// The cages of a killer game (its givens are the puzzle's).
    killer: Option<KillerPuzzle>,
    /// The shape of a gattai game (its grids' rules are `rules`).
    gattai: Option<crate::gattai::Shape>,
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
    /// A killer game's puzzle, as its line (`KillerPuzzle::to_line`);
    /// absent in plain games (and in every game saved before killers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    killer: Option<String>,
    /// A gattai game's shape, by its built-in name; its cells are the
    /// canvas's (`puzzle`, `givens`, ... one per canvas cell, dead ones
    /// empty). Absent in other games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    gattai: Option<String>,
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

    /// Every cell one of `cells` and live, its entry a digit (of a grid
    /// of side `n`) and its bits digits.
    fn valid(&self, n: usize, live: &[bool]) -> bool {
        let full = full_mask(n);
        match self {
            Change::Cell {
                cell,
                entry,
                marks,
                removed,
            } => {
                live.get(*cell) == Some(&true)
                    && (*entry as usize) <= n
                    && marks & !full == 0
                    && removed & !full == 0
            }
            Change::Group(v) => v.iter().all(|c| c.valid(n, live)),
        }
    }
}

/// The rows and columns of the boxes of `rules`: games are played on
/// grids with boxes.
fn boxes_of(rules: &Rules) -> Result<[usize; 2], PlayError> {
    match *rules.regions() {
        Regions::Boxes { rows, cols } => Ok([rows, cols]),
        _ => Err(PlayError::Unsupported(rules.describe())),
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
        Self::new_until(puzzle, None)
    }

    /// [`Game::new`], its search stopped ([`PlayError::Stopped`]) once
    /// `cancel` is set (a server's request gone or past its time).
    pub fn new_until(puzzle: &Puzzle, cancel: Option<Arc<AtomicBool>>) -> Result<Self, PlayError> {
        boxes_of(&puzzle.rules)?;
        let solver = Solver::new(&puzzle.rules, SudokuEngine::Auto).expect("auto fits every rule");
        let (s, stopped) = solver.solve_cancellable(&puzzle.givens, 2, 2, cancel.as_ref());
        match s.status() {
            _ if stopped && s.count < 2 => return Err(PlayError::Stopped),
            Status::None => return Err(PlayError::NoSolution),
            Status::Multiple => return Err(PlayError::NotUnique),
            Status::Unique => {}
        }
        Self::begin(puzzle, &s.solutions[0])
    }

    /// A game of `puzzle` (under rules with boxes) whose solution is
    /// `solution`, nothing played yet.
    fn begin(puzzle: &Puzzle, solution: &Grid) -> Result<Self, PlayError> {
        let [rows, cols] = boxes_of(&puzzle.rules)?;
        let n = puzzle.rules.size();
        Ok(Game {
            rules: puzzle.rules.clone(),
            killer: None,
            gattai: None,
            doc: Saved {
                puzzle: puzzle.to_line(),
                size: n,
                boxes: Some([rows, cols]),
                diagonal: puzzle.rules.is_diagonal(),
                windoku: puzzle.rules.is_windoku(),
                givens: puzzle.givens.cells().to_vec(),
                solution: solution.cells().to_vec(),
                entries: vec![0; n * n],
                marks: vec![0; n * n],
                removed: vec![0; n * n],
                history: Vec::new(),
                future: Vec::new(),
                killer: None,
                gattai: None,
            },
        })
    }

    /// The game's kind.
    pub fn kind(&self) -> GameKind {
        if self.killer.is_some() {
            GameKind::Killer
        } else if self.gattai.is_some() {
            GameKind::Gattai
        } else {
            GameKind::Plain
        }
    }

    /// The units no digit repeats in: the rules' units, and a killer's
    /// cages.
    fn unit_cells(&self) -> Vec<Vec<usize>> {
        if let Some(s) = &self.gattai {
            return s.units().into_iter().map(|(_, u)| u).collect();
        }
        let mut units: Vec<Vec<usize>> = self.rules.units().into_iter().map(|u| u.cells).collect();
        if let Some(k) = &self.killer {
            units.extend(k.cages.iter().map(|c| c.cells.clone()));
        }
        units
    }

    pub fn size(&self) -> usize {
        self.doc.size
    }

    /// The rules the game is played under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The cells of the board: the grid's, or a gattai's canvas's.
    pub fn cell_count(&self) -> usize {
        self.doc.givens.len()
    }

    /// Whether `cell` is on the board and played (a gattai's dead cells,
    /// in no grid, are not).
    pub fn is_live(&self, cell: usize) -> bool {
        match &self.gattai {
            Some(s) => cell < self.cell_count() && gattai::live_cell(s, cell),
            None => cell < self.cell_count(),
        }
    }

    /// A cell's name: `r3c4` (from 1).
    pub fn cell_name(&self, cell: usize) -> String {
        match &self.gattai {
            Some(s) => s.cell_name(cell),
            None => crate::rules::cell_name(self.doc.size, cell),
        }
    }

    fn check_cell(&self, cell: usize) -> Result<(), PlayError> {
        if !self.is_live(cell) {
            return Err(PlayError::NoSuchCell(cell));
        }
        if self.doc.givens[cell] != 0 {
            return Err(PlayError::Given(self.cell_name(cell)));
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

    /// The board as the player sees it, a digit a cell (0: empty or
    /// dead): givens and entries.
    pub fn values(&self) -> Vec<u8> {
        self.doc
            .givens
            .iter()
            .zip(&self.doc.entries)
            .map(|(&g, &e)| if g != 0 { g } else { e })
            .collect()
    }

    /// The grid as the player sees it: givens and entries. Not for
    /// gattai games, whose canvas is no square grid: see
    /// [`values`](Self::values).
    pub fn grid(&self) -> Grid {
        Grid::from_cells(self.doc.size, self.values())
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
    /// variant's diagonals or windows; in a killer game also only digits
    /// of its cage's combinations that still fit).
    pub fn candidates(&self) -> Vec<u32> {
        let g = self.values();
        let mut out = vec![0u32; g.len()];
        let full = full_mask(self.doc.size);
        for (c, o) in out.iter_mut().enumerate() {
            if g[c] == 0 && self.is_live(c) {
                *o = full;
            }
        }
        for u in self.unit_cells() {
            let mut used = 0u32;
            for &c in &u {
                if g[c] != 0 {
                    used |= 1 << (g[c] - 1);
                }
            }
            for &c in &u {
                out[c] &= !used;
            }
        }
        self.cage_candidates(&mut out);
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
        match self.hint_within(&logic::Budget::unlimited()) {
            Ok(step) => step,
            Err(_) => unreachable!("an unlimited budget never runs out"),
        }
    }

    /// [`Game::hint`] within a budget: `Err` when it ran out first.
    pub fn hint_within(&self, budget: &logic::Budget) -> Result<Option<Step>, logic::Halted> {
        if !self.rules.is_standard_9x9() || self.kind() != GameKind::Plain {
            return Ok(None);
        }
        let Some(mut board) = logic::MarkedGrid::try_from_grid(&self.grid()) else {
            return Ok(None);
        };
        for (c, &r) in self.doc.removed.iter().enumerate() {
            for d in 1..=9u8 {
                if r >> (d - 1) & 1 == 1 && board.value(c) == 0 {
                    board.eliminate(c, d);
                }
            }
        }
        logic::next_step_within(&board, budget)
    }

    /// Applies a step: its placements become entries, its eliminations
    /// remove pencil marks (one undo).
    pub fn apply(&mut self, step: &Step) {
        self.apply_moves(&step.placements, &step.eliminations);
    }

    /// Places digits and removes candidates (cell, digit) as one undo;
    /// a given, a cell out of range or a digit beyond the grid's is passed
    /// over.
    fn apply_moves(&mut self, placements: &[(usize, u8)], eliminations: &[(usize, u8)]) {
        let n = self.doc.size;
        let live: Vec<bool> = (0..self.cell_count()).map(|c| self.is_live(c)).collect();
        let ok = |c: usize, d: u8| live.get(c) == Some(&true) && (1..=n).contains(&(d as usize));
        let mut group = Vec::new();
        for &(c, d) in placements {
            if ok(c, d) && self.doc.givens[c] == 0 {
                group.push(self.snapshot(c));
                self.doc.entries[c] = d;
                self.doc.marks[c] = 0;
            }
        }
        for &(c, d) in eliminations {
            if ok(c, d) && self.doc.givens[c] == 0 {
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
        let g = self.values();
        let mut bad = vec![false; g.len()];
        for u in self.unit_cells() {
            for (i, &a) in u.iter().enumerate() {
                for &b in &u[i + 1..] {
                    if g[a] != 0 && g[a] == g[b] {
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
        (0..self.doc.entries.len())
            .all(|c| !self.is_live(c) || matches!(self.check(c), Check::Given | Check::Right))
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
        let frame = Frame::of(&d)?;
        let cells = frame.live.len();
        if d.removed.is_empty() {
            d.removed = vec![0; cells];
        }
        let full = full_mask(n);
        let lengths = [&d.givens, &d.solution, &d.entries]
            .iter()
            .all(|v| v.len() == cells)
            && d.marks.len() == cells
            && d.removed.len() == cells;
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
        if !frame.solution_ok(&d) {
            return Err(bad("inconsistent game (solution)"));
        }
        let killer = match &d.killer {
            None => None,
            Some(_) if frame.shape.is_some() => return Err(bad("a gattai with cages")),
            Some(line) => Some(killer::load_cages(
                line,
                &frame.rules,
                &d.givens,
                &d.solution,
            )?),
        };
        if let Some(s) = &frame.shape {
            gattai::check_saved(s, &d.givens, &d.solution)?;
        }
        if !d
            .history
            .iter()
            .chain(&d.future)
            .all(|c| c.valid(n, &frame.live))
        {
            return Err(bad("inconsistent game (history)"));
        }
        let saved: usize = d.history.iter().chain(&d.future).map(Change::cells).sum();
        if saved > 2 * MAX_SAVED_CELLS {
            return Err(bad("history too long"));
        }
        Ok(Game {
            rules: frame.rules,
            killer,
            gattai: frame.shape,
            doc: d,
        })
    }
}

/// What a saved game is played on: its rules, a gattai's shape, which
/// cells are live (one per cell of the board) and the units.
struct Frame {
    rules: Rules,
    shape: Option<crate::gattai::Shape>,
    live: Vec<bool>,
    units: Vec<Vec<usize>>,
}

impl Frame {
    /// The frame a saved game names (a gattai's: a built-in shape of the
    /// game's size).
    fn of(d: &Saved) -> Result<Frame, PlayError> {
        if let Some(name) = &d.gattai {
            let (shape, rules) = gattai::saved_shape(name, d.size)?;
            return Ok(Frame {
                rules,
                live: shape.live(),
                units: shape.units().into_iter().map(|(_, u)| u).collect(),
                shape: Some(shape),
            });
        }
        let rules = saved_rules(d).map_err(PlayError::Load)?;
        Ok(Frame {
            live: vec![true; d.size * d.size],
            units: rules.units().into_iter().map(|u| u.cells).collect(),
            rules,
            shape: None,
        })
    }

    /// The solution fills every live cell (and no dead one), keeps the
    /// givens, has every digit once in each unit, and no entry is over a
    /// given or on a dead cell.
    fn solution_ok(&self, d: &Saved) -> bool {
        let full = full_mask(d.size);
        let cells_ok = (0..self.live.len()).all(|c| {
            if !self.live[c] {
                return d.solution[c] == 0
                    && d.givens[c] == 0
                    && d.entries[c] == 0
                    && d.marks[c] == 0
                    && d.removed[c] == 0;
            }
            d.solution[c] != 0
                && (d.givens[c] == 0 || d.givens[c] == d.solution[c])
                && (d.givens[c] == 0 || d.entries[c] == 0)
        });
        cells_ok
            && self.units.iter().all(|u| {
                let seen = u.iter().fold(0u32, |m, &c| m | 1 << (d.solution[c] - 1));
                seen == full
            })
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
mod tests;
