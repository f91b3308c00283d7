//! Sudoku as exact cover, solved by the dancing-links engine.
//!
//! Items (all primary): one per empty cell (`r3c7`: the cell gets a digit)
//! and one per unit and digit that the givens leave open (`R3#5`: row 3 gets
//! a 5; `C` columns, `B` boxes, `G` jigsaw regions, `D` and `A` the two
//! diagonals, `W` windows). Options: one per empty cell and digit that no
//! given in the cell's units excludes, covering the cell and the cell's
//! units for that digit. The givens are thus chosen before the search, not
//! offered as options and pruned later.

use crate::budget::{Budget, Halt};
use crate::grid::{symbol, Grid};
use crate::puzzle::{Puzzle, PuzzleError};
use crate::rules::HouseKind;
use dancer_core::{Dlx, Engine, EngineKind, OptionId, Problem, ProblemBuilder, Watcher};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A puzzle's exact cover problem and the meaning of its options.
pub struct SudokuCover {
    pub problem: Problem,
    /// Option `k` puts digit `choices[k].1` in cell `choices[k].0`.
    pub choices: Vec<(u16, u8)>,
}

/// The short name of a unit in item names (`R3`, `C7`, `B1`, `D`, ...).
pub(crate) fn unit_code(kind: HouseKind) -> String {
    match kind {
        HouseKind::Row(r) => format!("R{}", r + 1),
        HouseKind::Column(c) => format!("C{}", c + 1),
        HouseKind::Box(b) => format!("B{}", b + 1),
        HouseKind::Region(g) => format!("G{}", g + 1),
        HouseKind::Diagonal => "D".into(),
        HouseKind::AntiDiagonal => "A".into(),
        HouseKind::Window(w) => format!("W{}", w + 1),
    }
}

/// Builds the exact cover problem of a puzzle.
pub fn to_exact_cover(puzzle: &Puzzle) -> SudokuCover {
    let rules = &puzzle.rules;
    let g = &puzzle.givens;
    let n = rules.size();
    let units = rules.units();
    let mut cell_units: Vec<Vec<usize>> = vec![Vec::new(); n * n];
    // placed[u] = digits already in unit u (bit d)
    let mut placed = vec![0u64; units.len()];
    for (u, unit) in units.iter().enumerate() {
        for &c in &unit.cells {
            cell_units[c].push(u);
            placed[u] |= 1 << g.get(c);
        }
    }
    let mut b = ProblemBuilder::new();
    let mut cell_item = vec![usize::MAX; n * n];
    for (c, item) in cell_item.iter_mut().enumerate() {
        if g.get(c) == 0 {
            *item = b
                .primary(&format!("r{}c{}", c / n + 1, c % n + 1))
                .expect("fresh names");
        }
    }
    // unit_item[u * (n+1) + d]
    let mut unit_item = vec![usize::MAX; units.len() * (n + 1)];
    for (u, unit) in units.iter().enumerate() {
        for d in 1..=n as u8 {
            if placed[u] >> d & 1 == 0 {
                unit_item[u * (n + 1) + d as usize] = b
                    .primary(&format!("{}#{}", unit_code(unit.kind), symbol(d)))
                    .expect("fresh names");
            }
        }
    }
    let mut choices = Vec::new();
    for c in 0..n * n {
        if g.get(c) != 0 {
            continue;
        }
        for d in 1..=n as u8 {
            if cell_units[c].iter().any(|&u| placed[u] >> d & 1 == 1) {
                continue;
            }
            let mut entries = vec![(cell_item[c], 0)];
            for &u in &cell_units[c] {
                entries.push((unit_item[u * (n + 1) + d as usize], 0));
            }
            b.option_ids(entries).expect("valid option");
            choices.push((c as u16, d));
        }
    }
    let problem = match b.build() {
        Ok(p) => p,
        // A full grid: no primary items. Give the problem one item covered by
        // one option, so that the (single) solution is the givens.
        Err(_) => {
            let mut b = ProblemBuilder::new();
            b.primary("done").expect("fresh");
            b.option(["done"]).expect("valid");
            choices.push((u16::MAX, 0));
            b.build().expect("valid")
        }
    };
    SudokuCover { problem, choices }
}

impl SudokuCover {
    /// The grid a solution (a set of options) stands for.
    pub fn grid(&self, puzzle: &Puzzle, options: &[usize]) -> Grid {
        let mut g = puzzle.givens.clone();
        for &o in options {
            let (c, d) = self.choices[o];
            if c != u16::MAX {
                g.set(c as usize, d);
            }
        }
        g
    }
}

/// A solution of a Sudoku's exact cover as written out (`dancer sudoku
/// export`, of any puzzle), read back from its options' names alone: each
/// option names its cell as an item `rRcC` and its digit in its row's item
/// `R<row>#<digit>`.
/// The grid is as large as the largest row, column or digit; cells no
/// option names are empty (a puzzle's givens have no options). Errors:
/// an option without a cell and a digit ([`PuzzleError::NotACell`]), or no
/// grid at all, or one past 25x25 ([`PuzzleError::NotAGrid`]).
pub fn sudoku_grid(problem: &Problem, sol: &[usize]) -> Result<Grid, PuzzleError> {
    let mut placed: Vec<(usize, usize, u8)> = Vec::new();
    for &k in sol {
        let text = problem.option_text(k);
        let mut cell = None;
        let mut digit = None;
        for tok in text.split_whitespace() {
            if let Some((r, c)) = tok.strip_prefix('r').and_then(|t| t.split_once('c')) {
                if let (Ok(r), Ok(c)) = (r.parse::<usize>(), c.parse::<usize>()) {
                    cell = Some((r, c));
                }
            } else if let Some((_, d)) = tok.strip_prefix('R').and_then(|t| t.split_once('#')) {
                digit = d.parse::<u8>().ok();
            }
        }
        match (cell, digit) {
            (Some((r, c)), Some(d)) if r >= 1 && c >= 1 && d >= 1 => placed.push((r, c, d)),
            _ => return Err(PuzzleError::NotACell { option: k, text }),
        }
    }
    let n = placed.iter().map(|&(r, c, _)| r.max(c)).max().unwrap_or(0);
    if n == 0 || n > 25 || placed.iter().any(|&(_, _, d)| usize::from(d) > n) {
        return Err(PuzzleError::NotAGrid {
            cells: placed.len(),
            side: n,
        });
    }
    let mut cells = vec![0u8; n * n];
    for (r, c, d) in placed {
        cells[(r - 1) * n + (c - 1)] = d;
    }
    Ok(Grid::from_cells(n, cells))
}

/// Counts the solutions of `puzzle` with dancing links, up to `limit`,
/// keeping the first `keep`. Returns (count, solutions, nodes).
pub fn solve_dlx(puzzle: &Puzzle, limit: u64, keep: usize) -> (u64, Vec<Grid>, u64) {
    let (count, kept, nodes, _) = solve_dlx_cancellable(puzzle, limit, keep, None);
    (count, kept, nodes)
}

/// [`solve_dlx`], stopped when `cancel` is set (the engine looks at it
/// every [`dancer_core::CANCEL_INTERVAL`] nodes): the last value says
/// whether it was, and then the count is a lower bound.
pub fn solve_dlx_cancellable(
    puzzle: &Puzzle,
    limit: u64,
    keep: usize,
    cancel: Option<&std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> (u64, Vec<Grid>, u64, bool) {
    let cover = to_exact_cover(puzzle);
    // Sudoku as exact cover has no multiplicities: dlx takes it
    let mut dlx = Dlx::new(&cover.problem).expect("no multiplicities");
    if let Some(c) = cancel {
        dlx.set_cancel(c.clone());
    }
    let mut count = 0;
    let mut kept = Vec::new();
    while count < limit {
        let Some(sol) = dlx.next_solution() else {
            break;
        };
        count += 1;
        if kept.len() < keep {
            kept.push(cover.grid(puzzle, sol));
        }
    }
    (count, kept, dlx.stats().nodes, dlx.is_cancelled())
}

/// How a search of [`search_within`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    /// Solutions found (at most the limit).
    pub count: u64,
    /// The search's nodes.
    pub nodes: u64,
    /// The whole tree was searched: `count` is every solution.
    pub complete: bool,
    /// Why the budget stopped the search first, if it did: then `count`
    /// is a lower bound.
    pub stopped: Option<Halt>,
}

/// The nodes between two looks at a [`search_within`]'s budget: a
/// thousand nodes of the largest covers dancer makes (a 16x16 grid, a
/// samurai) take about a millisecond, and a look at the clock costs tens
/// of nanoseconds.
pub const BUDGET_NODES: u64 = 1024;

/// Searches `problem` with the engine `auto` picks, handing each solution
/// to `each`, until `limit` solutions, the end of the tree, or `budget`:
/// its deadline and cancel flag are looked at before the search and every
/// [`BUDGET_NODES`] nodes, so that a count to two (the uniqueness check
/// of a rating or a hint) ends with the rating's budget, within a few
/// milliseconds of its deadline or flag, never long after.
pub fn search_within(
    problem: &Problem,
    limit: Option<u64>,
    budget: &Budget,
    each: &mut dyn FnMut(&[OptionId]),
) -> Searched {
    let stopped_now = |halt| Searched {
        count: 0,
        nodes: 0,
        complete: false,
        stopped: Some(halt),
    };
    if let Some(halt) = budget.check() {
        return stopped_now(halt);
    }
    if limit == Some(0) {
        return Searched {
            count: 0,
            nodes: 0,
            complete: false,
            stopped: None,
        };
    }
    let mut engine = EngineKind::Auto
        .build(problem)
        .expect("auto takes every problem");
    // auto's probes took their time: the budget may be spent already
    if let Some(halt) = budget.check() {
        return stopped_now(halt);
    }
    struct Within<'a> {
        limit: Option<u64>,
        count: u64,
        budget: &'a Budget,
        each: &'a mut dyn FnMut(&[OptionId]),
        stopped: Option<Halt>,
    }
    impl Watcher for Within<'_> {
        fn solution(&mut self, options: &[OptionId]) -> bool {
            (self.each)(options);
            self.count += 1;
            self.limit.is_none_or(|l| self.count < l)
        }
        fn progress(&mut self, _nodes: u64, _fraction: f64) -> bool {
            self.stopped = self.budget.check();
            self.stopped.is_none()
        }
    }
    let mut w = Within {
        limit,
        count: 0,
        budget,
        each,
        stopped: None,
    };
    let watched = dancer_core::watch(&mut *engine, Some(BUDGET_NODES), &mut w);
    Searched {
        count: w.count,
        nodes: engine.stats().nodes,
        complete: watched.complete,
        stopped: w.stopped,
    }
}

/// The budget of a search that only a flag stops (none: nothing does).
pub fn cancel_budget(cancel: Option<Arc<AtomicBool>>) -> Budget {
    cancel.map_or_else(Budget::unlimited, |f| Budget::unlimited().with_cancel(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solution_read_back_is_the_grid_it_stands_for() {
        for line in ["................", "1..2............"] {
            let p = Puzzle::parse_line(line, None).unwrap();
            let cover = to_exact_cover(&p);
            let mut dlx = Dlx::new(&cover.problem).unwrap();
            let sol = dlx.next_solution().unwrap().to_vec();
            let mut want = cover.grid(&p, &sol);
            // the givens have no options: read back, their cells are empty
            for (c, &d) in p.givens.cells().iter().enumerate() {
                if d != 0 {
                    want.set(c, 0);
                }
            }
            assert_eq!(sudoku_grid(&cover.problem, &sol), Ok(want));
        }
    }

    #[test]
    fn options_that_are_not_cells_and_digits_are_refused() {
        let problem = |options: &[&str]| {
            let mut b = ProblemBuilder::new();
            let mut items: Vec<&str> = options.iter().flat_map(|o| o.split(' ')).collect();
            items.sort();
            items.dedup();
            for i in items {
                b.primary(i).unwrap();
            }
            for o in options {
                b.option(o.split(' ')).unwrap();
            }
            b.build().unwrap()
        };
        let p = problem(&["r1c1 R1#1", "x y"]);
        assert_eq!(
            sudoku_grid(&p, &[0, 1]),
            Err(PuzzleError::NotACell {
                option: 1,
                text: "x y".into()
            })
        );
        let p = problem(&["r30c1 R30#1"]);
        assert_eq!(
            sudoku_grid(&p, &[0]),
            Err(PuzzleError::NotAGrid { cells: 1, side: 30 })
        );
        let p = problem(&["r1c1 R1#2"]);
        assert_eq!(
            sudoku_grid(&p, &[0]),
            Err(PuzzleError::NotAGrid { cells: 1, side: 1 })
        );
        assert_eq!(
            sudoku_grid(&p, &[]),
            Err(PuzzleError::NotAGrid { cells: 0, side: 0 })
        );
    }
}
