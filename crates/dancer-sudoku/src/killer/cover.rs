//! Killer Sudoku as exact cover with colours, after Knuth (TAOCP 7.2.2.1):
//! each cage is an item whose options are its digit combinations, and the
//! cells' digits meet them through coloured secondary items.
//!
//! Items, for a puzzle of side `n`:
//!
//! * primary: `rRcC` for every cell (it gets a digit), `R3#5`-style items
//!   for every unit and digit (row 3 gets a 5; `C` columns, `B` boxes,
//!   `G` jigsaw regions, `D` and `A` the diagonals, `W` windows), and
//!   `kK` for every cage `K` (from 1: its combination is chosen);
//! * secondary: `kK.d` for every cage and digit, coloured `1` when the
//!   cage's combination holds `d` and `0` when it does not; and `kK#d`,
//!   uncoloured: at most one cell of the cage holds `d`.
//!
//! Options: every cell and digit (one digit only for a given), covering
//! the cell, its units for the digit, and for a cell in cage `K` the items
//! `kK.d:1` and `kK#d`; and every combination of `|K|` different digits
//! that adds up to `K`'s sum (and holds its given digits), covering `kK`
//! and giving each `kK.d` its colour.
//!
//! Why it is exact: the combination chosen has `|K|` digits; each cell of
//! the cage gets one of them (`kK.d:1` agrees only with a combination that
//! holds `d`), no two the same (`kK#d`), so the cage's cells hold exactly
//! the combination, and add up to its sum. A cage is one item and a few
//! dozen options, where placing the combinations' permutations on the
//! cells would take up to 9! options for a cage of nine.

use super::KillerPuzzle;
use crate::grid::{symbol, Grid};
use crate::rules::HouseKind;
use dancer_core::{EngineKind, Flow, OptionId, Problem, ProblemBuilder, Sink, SolveOptions};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A killer puzzle's exact cover problem and the meaning of its options.
pub struct KillerCover {
    pub problem: Problem,
    /// Option `k` puts digit `choices[k].1` in cell `choices[k].0`, or
    /// (`None`) chooses a cage's combination.
    pub choices: Vec<Option<(u16, u8)>>,
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

/// Every set of `k` different digits from 1 to `n` adding up to `sum`
/// and holding every digit of `must` (bit d), as bit sets.
pub fn combinations(k: usize, n: usize, sum: u32, must: u32) -> Vec<u32> {
    fn go(from: u32, n: u32, k: usize, sum: u32, set: u32, out: &mut Vec<u32>) {
        if k == 0 {
            if sum == 0 {
                out.push(set);
            }
            return;
        }
        for d in from..=n {
            if d > sum {
                break;
            }
            go(d + 1, n, k - 1, sum - d, set | 1 << d, out);
        }
    }
    let mut out = Vec::new();
    go(1, n as u32, k, sum, 0, &mut out);
    out.retain(|&s| s & must == must);
    out
}

/// Builds the exact cover problem of a killer puzzle (see the module's
/// documentation).
pub fn to_exact_cover(k: &KillerPuzzle) -> KillerCover {
    let p = &k.puzzle;
    let n = k.size();
    let units = p.rules.units();
    let mut cell_units: Vec<Vec<usize>> = vec![Vec::new(); n * n];
    for (u, unit) in units.iter().enumerate() {
        for &c in &unit.cells {
            cell_units[c].push(u);
        }
    }
    let mut cage_of = vec![usize::MAX; n * n];
    for (i, cage) in k.cages.iter().enumerate() {
        for &c in &cage.cells {
            cage_of[c] = i;
        }
    }
    let mut b = ProblemBuilder::new();
    let fresh = "item names are made unique";
    for c in 0..n * n {
        b.primary(&format!("r{}c{}", c / n + 1, c % n + 1))
            .expect(fresh);
    }
    let codes: Vec<String> = units.iter().map(|u| unit_code(u.kind)).collect();
    for code in &codes {
        for d in 1..=n as u8 {
            b.primary(&format!("{code}#{}", symbol(d))).expect(fresh);
        }
    }
    for i in 0..k.cages.len() {
        b.primary(&format!("k{}", i + 1)).expect(fresh);
    }
    for i in 0..k.cages.len() {
        for d in 1..=n {
            b.secondary(&format!("k{}.{d}", i + 1)).expect(fresh);
            b.secondary(&format!("k{}#{d}", i + 1)).expect(fresh);
        }
    }
    let mut choices = Vec::new();
    for c in 0..n * n {
        let given = p.givens.get(c);
        for d in 1..=n as u8 {
            if given != 0 && given != d {
                continue;
            }
            let mut tokens = vec![format!("r{}c{}", c / n + 1, c % n + 1)];
            for &u in &cell_units[c] {
                tokens.push(format!("{}#{}", codes[u], symbol(d)));
            }
            if let Some(i) = Some(cage_of[c]).filter(|&i| i != usize::MAX) {
                tokens.push(format!("k{}.{d}:1", i + 1));
                tokens.push(format!("k{}#{d}", i + 1));
            }
            b.option(&tokens).expect("a valid option");
            choices.push(Some((c as u16, d)));
        }
    }
    for (i, cage) in k.cages.iter().enumerate() {
        let must = cage
            .cells
            .iter()
            .map(|&c| p.givens.get(c))
            .filter(|&d| d != 0)
            .fold(0u32, |m, d| m | 1 << d);
        for set in combinations(cage.cells.len(), n, cage.sum, must) {
            let mut tokens = vec![format!("k{}", i + 1)];
            for d in 1..=n {
                tokens.push(format!("k{}.{d}:{}", i + 1, set >> d & 1));
            }
            b.option(&tokens).expect("a valid option");
            choices.push(None);
        }
    }
    let problem = b.build().expect("a grid has cells: the problem has items");
    KillerCover { problem, choices }
}

impl KillerCover {
    /// The grid a solution (a set of options) stands for.
    pub fn grid(&self, n: usize, options: &[usize]) -> Grid {
        let mut g = Grid::empty(n);
        for &(c, d) in options.iter().filter_map(|&o| self.choices[o].as_ref()) {
            g.set(c as usize, d);
        }
        g
    }
}

/// What a search for a killer puzzle's solutions found.
#[derive(Clone, Debug)]
pub struct KillerSolved {
    /// Solutions found (at most the limit).
    pub count: u64,
    /// The first of them, up to `keep`.
    pub solutions: Vec<Grid>,
    /// The search's nodes.
    pub nodes: u64,
    /// The whole tree was searched.
    pub complete: bool,
}

/// Searches `k`'s solutions with the engine `auto` picks, up to `limit`
/// (counting on past `keep`, which are kept), until `cancel` is set.
pub fn solve(
    k: &KillerPuzzle,
    limit: Option<u64>,
    keep: usize,
    cancel: Option<Arc<AtomicBool>>,
) -> KillerSolved {
    let cover = to_exact_cover(k);
    let opts = SolveOptions {
        engine: EngineKind::Auto,
        limit,
        cancel,
    };
    let mut sink = Keep {
        keep,
        solutions: Vec::new(),
    };
    let outcome =
        dancer_core::solve(&cover.problem, &opts, &mut sink).expect("auto takes every problem");
    KillerSolved {
        count: outcome.stats.solutions,
        solutions: sink
            .solutions
            .iter()
            .map(|s| cover.grid(k.size(), s))
            .collect(),
        nodes: outcome.stats.nodes,
        complete: outcome.complete,
    }
}

/// Keeps the first `keep` solutions, and goes on.
struct Keep {
    keep: usize,
    solutions: Vec<Vec<OptionId>>,
}

impl Sink for Keep {
    fn solution(&mut self, options: &[OptionId]) -> Flow {
        if self.solutions.len() < self.keep {
            self.solutions.push(options.to_vec());
        }
        Flow::Continue
    }
}

/// The number of solutions of `k`, up to `limit`.
pub fn count(k: &KillerPuzzle, limit: Option<u64>) -> u64 {
    solve(k, limit, 0, None).count
}
