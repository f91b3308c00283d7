//! Killer Sudoku solved as a player does: one step at a time, each step
//! one technique, in words and in cells, rated on a scale of its own.
//!
//! ## The board
//!
//! [`KillerBoard`] holds, for every cell, its digit (0 when empty) and its
//! candidates (bit `d` for digit `d`, bits 1 to `n`). Invariants, kept by
//! [`KillerBoard::apply`] and checked by `check` in the tests:
//!
//! * a filled cell's candidates are its digit alone;
//! * no empty cell holds a candidate that a filled peer has (peers: the
//!   cells of its units and of its cage);
//! * candidates are only ever removed, and only by steps whose reasoning
//!   holds for every solution, so the solution's digit is never removed
//!   from a puzzle that has one.
//!
//! ## Techniques and their ratings
//!
//! [`KillerTechnique`] lists them with their ratings, from 1.0 (the last
//! cell of a unit or a cage) to 5.0 (a candidate that, tried, leads to a
//! contradiction by the easy steps). [`next_step`] takes the easiest
//! technique that makes progress; [`rate`] solves by always doing so and
//! rates the puzzle by its hardest step, with a [`KillerLevel`] from it.
//!
//! The killer techniques are those players use:
//!
//! * *cage combinations*: the digit combinations of a cage that fit its
//!   cells' candidates; a candidate in no such placement goes;
//! * *cage and unit*: a digit a cage must hold whose candidates in the cage
//!   lie in one unit is removed from the rest of that unit, and a digit a
//!   unit can only get in one cage is removed from the cage's cells outside
//!   the unit;
//! * *the rule of 45*: a unit's digits add up to 45 (on 9x9; `n(n+1)/2`);
//!   so do those of a band of 2 to 4 rows or columns, times their number.
//!   Taking away the cages wholly inside leaves the *innies*, whose sum is
//!   then known; the cages reaching out of it leave the *outies*. One innie
//!   or outie is placed at once;
//! * *hidden cages*: innies or outies of up to six cells are a cage of
//!   their own, whose combinations are taken as a cage's (digits distinct
//!   only where cells see each other);
//! * *cage splitting*: when a cage holds all the innies (or outies) of a
//!   unit, it splits in two parts of known sums, and the part across the
//!   border is a hidden cage too.
//!
//! Beside them the Sudoku ones: singles, locked candidates, naked and
//! hidden pairs and triples (in units, and naked ones in cages).

mod basic;
mod sums;

use super::KillerPuzzle;
use crate::grid::{symbol, Grid};
use crate::logic::{Budget, Halt};
use crate::rules::cell_name;
use std::fmt;

/// A solving technique of killer Sudoku.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KillerTechnique {
    /// The last empty cell of a unit.
    FullHouse,
    /// The last empty cell of a cage: the sum less the others' digits.
    CageLastCell,
    /// The only place for a digit in a unit.
    HiddenSingle,
    /// The only candidate of a cell.
    NakedSingle,
    /// A candidate that no combination of its cage fitting the candidates
    /// puts there.
    CageCombinations,
    /// A digit's candidates in a unit confined to another unit.
    LockedCandidates,
    /// A digit a cage must hold confined to one unit, or a unit's digit
    /// confined to one cage.
    CageUnit,
    /// The rule of 45 leaves one cell inside (or outside) a set of units:
    /// its digit is known.
    InnieOutie,
    NakedPair,
    HiddenPair,
    /// The innies or outies of a set of units taken as a cage.
    HiddenCage,
    NakedTriple,
    HiddenTriple,
    /// A cage holding all the innies or outies of a set of units splits in
    /// two parts of known sums.
    CageSplitting,
    /// A candidate of a cell of two that, tried, leads by singles and cage
    /// combinations to a contradiction.
    Contradiction,
}

impl KillerTechnique {
    /// Every technique, easiest first: the order [`next_step`] tries them.
    pub const ALL: &'static [KillerTechnique] = &[
        KillerTechnique::FullHouse,
        KillerTechnique::CageLastCell,
        KillerTechnique::HiddenSingle,
        KillerTechnique::NakedSingle,
        KillerTechnique::CageCombinations,
        KillerTechnique::LockedCandidates,
        KillerTechnique::CageUnit,
        KillerTechnique::InnieOutie,
        KillerTechnique::NakedPair,
        KillerTechnique::HiddenPair,
        KillerTechnique::HiddenCage,
        KillerTechnique::NakedTriple,
        KillerTechnique::HiddenTriple,
        KillerTechnique::CageSplitting,
        KillerTechnique::Contradiction,
    ];

    /// Its rating on dancer's killer scale (1.0 to 5.0).
    pub fn rating(self) -> f64 {
        use KillerTechnique::*;
        match self {
            FullHouse | CageLastCell => 1.0,
            HiddenSingle => 1.5,
            NakedSingle => 2.0,
            CageCombinations => 2.5,
            LockedCandidates => 2.8,
            CageUnit => 3.0,
            InnieOutie => 3.2,
            NakedPair => 3.4,
            HiddenPair => 3.6,
            HiddenCage => 3.8,
            NakedTriple => 4.0,
            HiddenTriple => 4.2,
            CageSplitting => 4.4,
            Contradiction => 5.0,
        }
    }

    /// Its name in words.
    pub fn name(self) -> &'static str {
        use KillerTechnique::*;
        match self {
            FullHouse => "Full house",
            CageLastCell => "Last cell of a cage",
            HiddenSingle => "Hidden single",
            NakedSingle => "Naked single",
            CageCombinations => "Cage combinations",
            LockedCandidates => "Locked candidates",
            CageUnit => "Cage and unit",
            InnieOutie => "Rule of 45 (innie or outie)",
            NakedPair => "Naked pair",
            HiddenPair => "Hidden pair",
            HiddenCage => "Hidden cage",
            NakedTriple => "Naked triple",
            HiddenTriple => "Hidden triple",
            CageSplitting => "Cage splitting",
            Contradiction => "Contradiction",
        }
    }
}

impl fmt::Display for KillerTechnique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How hard a killer puzzle is, from its hardest step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KillerLevel {
    /// Singles and cage combinations (up to 2.5).
    Easy,
    /// Locked candidates, cages and units, innies and outies (up to 3.2).
    Medium,
    /// Subsets, hidden cages, cage splitting (up to 4.4).
    Hard,
    /// Needs contradictions (5.0).
    Expert,
}

impl KillerLevel {
    /// Every level, easiest first.
    pub const ALL: &'static [KillerLevel] = &[
        KillerLevel::Easy,
        KillerLevel::Medium,
        KillerLevel::Hard,
        KillerLevel::Expert,
    ];

    /// The level of a rating.
    pub fn of_rating(rating: f64) -> KillerLevel {
        if rating <= 2.5 {
            KillerLevel::Easy
        } else if rating <= 3.2 {
            KillerLevel::Medium
        } else if rating <= 4.4 {
            KillerLevel::Hard
        } else {
            KillerLevel::Expert
        }
    }

    /// Its name: easy, medium, hard, expert.
    pub fn name(self) -> &'static str {
        match self {
            KillerLevel::Easy => "easy",
            KillerLevel::Medium => "medium",
            KillerLevel::Hard => "hard",
            KillerLevel::Expert => "expert",
        }
    }

    /// The level a name stands for.
    pub fn from_name(name: &str) -> Option<KillerLevel> {
        KillerLevel::ALL.iter().copied().find(|l| l.name() == name)
    }

    /// The highest rating of the level.
    pub fn most(self) -> f64 {
        match self {
            KillerLevel::Easy => 2.5,
            KillerLevel::Medium => 3.2,
            KillerLevel::Hard => 4.4,
            KillerLevel::Expert => 5.0,
        }
    }
}

/// One step: what it places and removes, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct KillerStep {
    pub technique: KillerTechnique,
    /// Its rating ([`KillerTechnique::rating`]).
    pub rating: f64,
    /// The reasoning, in words.
    pub description: String,
    /// (cell, digit): digits placed.
    pub placements: Vec<(usize, u8)>,
    /// (cell, digit): candidates removed.
    pub eliminations: Vec<(usize, u8)>,
    /// The cells the reasoning looks at (to draw).
    pub cells: Vec<usize>,
    /// The cages it uses, by index into the puzzle's cages.
    pub cages: Vec<usize>,
    /// The units it uses, in words (`row 3`, `rows 1-2`, `box 5`).
    pub units: Vec<String>,
}

/// The value of a canvas cell in no grid, on the board of overlapping
/// grids: it counts as filled, and has no candidates.
pub const OUTSIDE: u8 = u8::MAX;

/// A unit: its words (`row 3`, `grid 2 box 5`) and its cells.
#[derive(Clone, Debug)]
struct Unit {
    words: String,
    cells: Vec<usize>,
}

/// A killer puzzle's grid with its candidates (see the module's
/// documentation for its invariants).
#[derive(Clone, Debug)]
pub struct KillerBoard {
    /// The digits are 1 to `n`.
    n: usize,
    /// The canvas's width, for cells' names (`n` but for overlapping
    /// grids).
    width: usize,
    values: Vec<u8>,
    cand: Vec<u32>,
    /// The units of the rules (of every grid, for overlapping grids).
    units: Vec<Unit>,
    cages: Vec<(Vec<usize>, u32, String)>,
    cage_of: Vec<usize>,
    /// Every cell's peers: its units' cells and its cage's, itself not.
    peers: Vec<Vec<usize>>,
    /// The sets of units the rule of 45 looks at: words, cells, total.
    areas: Vec<(String, Vec<usize>, u32)>,
}

impl KillerBoard {
    /// The board of a puzzle's givens, with every candidate no given
    /// rules out.
    pub fn new(k: &KillerPuzzle) -> KillerBoard {
        let n = k.size();
        let units = k.puzzle.rules.units();
        let mut cage_of = vec![usize::MAX; n * n];
        for (i, cage) in k.cages.iter().enumerate() {
            for &c in &cage.cells {
                cage_of[c] = i;
            }
        }
        let mut peers: Vec<Vec<usize>> = vec![Vec::new(); n * n];
        let groups = units
            .iter()
            .map(|u| &u.cells)
            .chain(k.cages.iter().map(|c| &c.cells));
        for cells in groups {
            for &a in cells {
                for &b in cells {
                    if a != b {
                        peers[a].push(b);
                    }
                }
            }
        }
        for p in &mut peers {
            p.sort_unstable();
            p.dedup();
        }
        let total = (n * (n + 1) / 2) as u32;
        let mut areas: Vec<(String, Vec<usize>, u32)> = units
            .iter()
            .map(|u| (u.kind.to_string(), u.cells.clone(), total))
            .collect();
        let units: Vec<Unit> = units
            .into_iter()
            .map(|u| Unit {
                words: u.kind.to_string(),
                cells: u.cells,
            })
            .collect();
        for len in 2..=4.min(n - 1) {
            for first in 0..=n - len {
                let (a, b) = (first + 1, first + len);
                let rows = (first * n..(first + len) * n).collect();
                areas.push((format!("rows {a}-{b}"), rows, total * len as u32));
                let mut cols: Vec<usize> = (0..n * n)
                    .filter(|c| (first..first + len).contains(&(c % n)))
                    .collect();
                cols.sort_unstable();
                areas.push((format!("columns {a}-{b}"), cols, total * len as u32));
            }
        }
        let full = ((1u32 << (n + 1)) - 1) & !1;
        let mut b = KillerBoard {
            n,
            width: n,
            values: vec![0; n * n],
            cand: vec![full; n * n],
            units,
            cages: k
                .cages
                .iter()
                .map(|c| (c.cells.clone(), c.sum, c.name.clone()))
                .collect(),
            cage_of,
            peers,
            areas,
        };
        for c in 0..n * n {
            let d = k.puzzle.givens.get(c);
            if d != 0 {
                b.place(c, d);
            }
        }
        b
    }

    /// The grid's side.
    pub fn size(&self) -> usize {
        self.n
    }

    /// The digit of `cell` (0 when empty).
    pub fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }

    /// The candidates of `cell` (bit `d` for digit `d`).
    pub fn candidates(&self, cell: usize) -> u32 {
        self.cand[cell]
    }

    /// The grid of the digits placed.
    pub fn grid(&self) -> Grid {
        Grid::from_cells(self.n, self.values.clone())
    }

    /// Whether every cell is filled.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Puts `d` in `cell` and takes it from the candidates of its peers.
    pub fn place(&mut self, cell: usize, d: u8) {
        self.values[cell] = d;
        self.cand[cell] = 1 << d;
        for i in 0..self.peers[cell].len() {
            let p = self.peers[cell][i];
            if self.values[p] == 0 {
                self.cand[p] &= !(1 << d);
            }
        }
    }

    /// Removes candidate `d` of an empty `cell` (a player's pencil mark
    /// taken out); a filled cell keeps its digit.
    pub fn remove(&mut self, cell: usize, d: u8) {
        if self.values[cell] == 0 && (1..=self.n as u8).contains(&d) {
            self.cand[cell] &= !(1 << d);
        }
    }

    /// Does what `step` says: its placements, then its eliminations.
    pub fn apply(&mut self, step: &KillerStep) {
        for &(c, d) in &step.placements {
            self.place(c, d);
        }
        for &(c, d) in &step.eliminations {
            self.remove(c, d);
        }
    }

    /// Whether an empty cell has no candidate left, or a unit has a digit
    /// nowhere to go: the board holds no solution.
    pub fn is_broken(&self) -> bool {
        if (0..self.values.len()).any(|c| self.values[c] == 0 && self.cand[c] == 0) {
            return true;
        }
        self.units.iter().any(|u| {
            let m = u.cells.iter().fold(0u32, |m, &c| m | self.cand[c]);
            m.count_ones() < self.n as u32
        })
    }

    /// Whether cells `a` and `b` share a unit or a cage.
    fn sees(&self, a: usize, b: usize) -> bool {
        self.peers[a].binary_search(&b).is_ok()
    }

    fn name(&self, cell: usize) -> String {
        cell_name(self.width, cell)
    }

    /// The board of overlapping grids (no cages): digits 1 to `n`, a
    /// canvas `width` wide of `live.len()` cells, those not `live` (in no
    /// grid) standing as filled with [`OUTSIDE`] and no candidates; the
    /// units as (words, cells); `givens` a digit (or 0) per cell.
    pub(crate) fn for_grids(
        n: usize,
        width: usize,
        live: &[bool],
        units: Vec<(String, Vec<usize>)>,
        givens: &[u8],
    ) -> KillerBoard {
        let cells = live.len();
        let mut peers: Vec<Vec<usize>> = vec![Vec::new(); cells];
        for (_, u) in &units {
            for &a in u {
                peers[a].extend(u.iter().copied().filter(|&b| b != a));
            }
        }
        for p in &mut peers {
            p.sort_unstable();
            p.dedup();
        }
        let full = ((1u32 << (n + 1)) - 1) & !1;
        let mut b = KillerBoard {
            n,
            width,
            values: live.iter().map(|&l| if l { 0 } else { OUTSIDE }).collect(),
            cand: live.iter().map(|&l| if l { full } else { 0 }).collect(),
            units: units
                .into_iter()
                .map(|(words, cells)| Unit { words, cells })
                .collect(),
            cages: Vec::new(),
            cage_of: vec![usize::MAX; cells],
            peers,
            areas: Vec::new(),
        };
        for (c, &d) in givens.iter().enumerate() {
            if d != 0 && live[c] {
                b.place(c, d);
            }
        }
        b
    }

    /// Every cell's digit (0 when empty; [`OUTSIDE`] for a cell in no
    /// grid).
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    fn cage_words(&self, i: usize) -> String {
        let (cells, sum, name) = &self.cages[i];
        format!(
            "cage {name} ({}, sum {sum})",
            if cells.len() == 1 {
                self.name(cells[0])
            } else {
                format!("{} cells from {}", cells.len(), self.name(cells[0]))
            }
        )
    }

    fn empty(&self, cells: &[usize]) -> Vec<usize> {
        cells
            .iter()
            .copied()
            .filter(|&c| self.values[c] == 0)
            .collect()
    }

    fn filled_sum(&self, cells: &[usize]) -> u32 {
        cells.iter().map(|&c| self.values[c] as u32).sum()
    }
}

/// Digits of a bit set in words: `1, 2 and 9`.
fn digits_words(m: u32) -> String {
    let ds: Vec<String> = (1..32)
        .filter(|d| m >> d & 1 == 1)
        .map(|d| symbol(d as u8).to_string())
        .collect();
    match ds.len() {
        0 => String::new(),
        1 => ds[0].clone(),
        k => format!("{} and {}", ds[..k - 1].join(", "), ds[k - 1]),
    }
}

/// The step the easiest technique that makes progress gives, if any.
pub fn next_step(b: &KillerBoard) -> Option<KillerStep> {
    KillerTechnique::ALL
        .iter()
        .find_map(|&t| find(b, t, KillerTechnique::CageCombinations))
}

/// [`next_step`] within `budget`, looked at before each technique is
/// tried: the step, none (no technique makes progress), or why the
/// search stopped first.
pub fn next_step_within(b: &KillerBoard, budget: &Budget) -> Result<Option<KillerStep>, Halt> {
    for &t in KillerTechnique::ALL {
        if let Some(halt) = budget.check() {
            return Err(halt);
        }
        if let Some(step) = find(b, t, KillerTechnique::CageCombinations) {
            return Ok(Some(step));
        }
    }
    Ok(None)
}

/// The first step of `technique` on the board; a contradiction tries
/// candidates with techniques up to `inner` rated.
fn find(b: &KillerBoard, technique: KillerTechnique, inner: KillerTechnique) -> Option<KillerStep> {
    use KillerTechnique::*;
    match technique {
        FullHouse => basic::full_house(b),
        CageLastCell => sums::cage_last_cell(b),
        HiddenSingle => basic::hidden_single(b),
        NakedSingle => basic::naked_single(b),
        CageCombinations => sums::cage_combinations(b),
        LockedCandidates => basic::locked_candidates(b),
        CageUnit => sums::cage_unit(b),
        InnieOutie | HiddenCage | CageSplitting => sums::rule_of_45(b, technique),
        NakedPair => basic::naked_subset(b, 2),
        HiddenPair => basic::hidden_subset(b, 2),
        NakedTriple => basic::naked_subset(b, 3),
        HiddenTriple => basic::hidden_subset(b, 3),
        Contradiction => basic::contradiction(b, inner),
    }
}

/// A puzzle's rating: how far the steps got and the hardest of them.
#[derive(Clone, Debug, PartialEq)]
pub struct KillerRating {
    /// Every cell was filled.
    pub solved: bool,
    /// The highest step rating (0 when no step was needed).
    pub rating: f64,
    /// The level of the rating, when solved.
    pub level: Option<KillerLevel>,
    /// The hardest technique used.
    pub hardest: Option<KillerTechnique>,
    /// How many steps.
    pub steps: usize,
    /// Why the steps stopped before their end (a [`Budget`] ran out), if
    /// they did: then `rating` is that of the steps taken, a lower bound.
    pub stopped: Option<Halt>,
}

impl KillerRating {
    /// The rating of a puzzle whose budget ran out before its first step
    /// (in the check that it has one solution): no step taken, a lower
    /// bound of 0, and why.
    pub fn stopped_before_steps(why: Halt) -> KillerRating {
        KillerRating {
            stopped: Some(why),
            ..rating_of(&[], false)
        }
    }
}

/// Every step from the givens to the end (or to where no technique goes
/// on).
pub fn path(k: &KillerPuzzle) -> Vec<KillerStep> {
    path_up_to(k, KillerTechnique::Contradiction)
}

/// The steps, with techniques rated at most as `most` is.
pub fn path_up_to(k: &KillerPuzzle, most: KillerTechnique) -> Vec<KillerStep> {
    path_from(KillerBoard::new(k), most).0
}

/// The steps from `b`, with techniques rated at most as `most` is, and
/// the board they leave.
pub fn path_from(b: KillerBoard, most: KillerTechnique) -> (Vec<KillerStep>, KillerBoard) {
    let (steps, b, _) = path_within(b, most, &Budget::unlimited());
    (steps, b)
}

/// [`path_from`] within `budget`, checked before each step: the steps
/// taken, the board they leave, and why they stopped early, if they did.
pub fn path_within(
    mut b: KillerBoard,
    most: KillerTechnique,
    budget: &Budget,
) -> (Vec<KillerStep>, KillerBoard, Option<Halt>) {
    let mut out = Vec::new();
    while !b.is_solved() && !b.is_broken() {
        if let Some(halt) = budget.check() {
            return (out, b, Some(halt));
        }
        let step = KillerTechnique::ALL
            .iter()
            .filter(|t| t.rating() <= most.rating())
            .find_map(|&t| find(&b, t, KillerTechnique::CageCombinations));
        let Some(step) = step else { break };
        b.apply(&step);
        out.push(step);
    }
    (out, b, None)
}

/// The rating of a path (`solved`: it fills the grid).
pub fn rating_of(steps: &[KillerStep], solved: bool) -> KillerRating {
    let hardest = steps
        .iter()
        .max_by(|a, b| a.rating.total_cmp(&b.rating))
        .map(|s| s.technique);
    let rating = hardest.map_or(0.0, KillerTechnique::rating);
    KillerRating {
        solved,
        rating,
        level: solved.then(|| KillerLevel::of_rating(rating)),
        hardest,
        steps: steps.len(),
        stopped: None,
    }
}

/// The candidates of every cell (bit `d` for digit `d`) left by the steps
/// up to cage splitting: a sound narrowing (no solution is lost) that the
/// exact cover model starts from.
pub fn presolve(k: &KillerPuzzle) -> Vec<u32> {
    let mut b = KillerBoard::new(k);
    for step in path_up_to(k, KillerTechnique::CageSplitting) {
        b.apply(&step);
    }
    b.cand
}

/// Solves by steps and rates by the hardest.
pub fn rate(k: &KillerPuzzle) -> KillerRating {
    rate_up_to(k, KillerTechnique::Contradiction)
}

/// [`rate`] with the techniques rated at most as `most` is.
pub fn rate_up_to(k: &KillerPuzzle, most: KillerTechnique) -> KillerRating {
    let (steps, b) = path_from(KillerBoard::new(k), most);
    rating_of(&steps, b.is_solved())
}

/// [`rate`] within `budget`: stopped early, the rating of the steps taken
/// (a lower bound) and why they stopped.
pub fn rate_within(k: &KillerPuzzle, budget: &Budget) -> KillerRating {
    rating_within(KillerBoard::new(k), budget)
}

/// The rating of the steps from `b`, within `budget`.
pub(crate) fn rating_within(b: KillerBoard, budget: &Budget) -> KillerRating {
    let (steps, b, stopped) = path_within(b, KillerTechnique::Contradiction, budget);
    KillerRating {
        stopped,
        ..rating_of(&steps, b.is_solved())
    }
}

#[cfg(test)]
mod tests;
