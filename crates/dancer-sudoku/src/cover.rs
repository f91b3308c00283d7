//! Sudoku as exact cover, solved by the dancing-links engine.
//!
//! Items (all primary): one per empty cell (`r3c7`: the cell gets a digit)
//! and one per unit and digit that the givens leave open (`R3#5`: row 3 gets
//! a 5; `C` columns, `B` boxes, `G` jigsaw regions, `D` and `A` the two
//! diagonals, `W` windows). Options: one per empty cell and digit that no
//! given in the cell's units excludes, covering the cell and the cell's
//! units for that digit. The givens are thus chosen before the search, not
//! offered as options and pruned later.

use crate::grid::{symbol, Grid};
use crate::puzzle::Puzzle;
use crate::rules::HouseKind;
use dancer_core::{Dlx, Engine, Problem, ProblemBuilder};

/// A puzzle's exact cover problem and the meaning of its options.
pub struct SudokuCover {
    pub problem: Problem,
    /// Option `k` puts digit `choices[k].1` in cell `choices[k].0`.
    pub choices: Vec<(u16, u8)>,
}

fn unit_code(kind: HouseKind) -> String {
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
