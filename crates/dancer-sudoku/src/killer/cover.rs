//! Killer Sudoku as exact cover with colours, after Knuth (TAOCP 7.2.2.1).
//!
//! Two models, chosen cage by cage ([`KillerModel`]):
//!
//! * **placed** (Knuth's): each way of putting one of the cage's digit
//!   combinations on its cells is one option, covering the cage's item
//!   `kK`, each of its cells `rRcC`, and each cell's units for its digit
//!   (`R3#5`: row 3 gets a 5; `C` columns, `B` boxes, `G` jigsaw regions,
//!   `D` and `A` the diagonals, `W` windows). The cells of such a cage have
//!   no options of their own. Placements that contradict a given (in the
//!   cell, or in one of its units) are left out.
//! * **combinations**: the cage `kK` is an item with one option per digit
//!   combination, giving colour `1` to the secondary item `kK.d` when the
//!   combination holds `d` and `0` when not. Every cell of the cage has an
//!   option per digit covering the cell, its units for the digit, `kK.d:1`
//!   and the uncoloured secondary `kK#d` (at most one cell of the cage holds
//!   `d`).
//!
//! The default, [`KillerModel::Mixed`], first narrows every cell's digits
//! by the logical steps up to cage splitting (`super::logic::presolve`:
//! sound, so no solution is lost and counts stay exact), then places each
//! cage that has at most [`PLACED_MOST`] placements on those digits; larger
//! ones (long cages with many combinations) keep the combinations, which
//! take a few dozen options where placing them could take 9! for a cage of
//! nine. Cells in no cage have the plain Sudoku options.
//!
//! Why it is exact. Placed: an option puts distinct digits adding up to
//! the sum on the cage's cells, and covers them as a cell option would.
//! Combinations: the combination chosen has `|K|` digits; each cell of the
//! cage gets one of them (`kK.d:1` agrees only with a combination that
//! holds `d`), no two the same (`kK#d`), so the cells hold exactly the
//! combination and add up to the sum.
//!
//! Why placing is faster: a placement covers the cells and their units at
//! once, so the search's "fewest options" choice sees through the cage: a
//! unit's digit that only one placement of a cage can give is forced. On
//! two 9x9 killers of 21 cages and no givens, proving uniqueness, the
//! combination model took 6.8 s and 22.5 s, the placed one 0.06 s and
//! 0.3 s (see the tests and the bench harness).

use super::KillerPuzzle;
use crate::cover::unit_code;
use crate::cover::{cancel_budget, search_within};
use crate::grid::{symbol, Grid};
use crate::logic::{Budget, Halt};
use dancer_core::{OptionId, Problem, ProblemBuilder};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// At most this many placements, a cage is placed (see the module's
/// documentation).
pub const PLACED_MOST: usize = 2000;

/// How the cages become options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KillerModel {
    /// The cells' digits narrowed by the logic first; cages of at most
    /// [`PLACED_MOST`] placements placed, the rest by their combinations.
    #[default]
    Mixed,
    /// As `Mixed`, without the logic first (kept to measure against).
    Placed,
    /// Every cage by its combinations (the first model, kept to measure
    /// against).
    Combinations,
}

/// A killer puzzle's exact cover problem and the meaning of its options.
pub struct KillerCover {
    pub problem: Problem,
    /// Option `k` puts the digits `choices[k]` (cell, digit) in their
    /// cells: one for a cell's option, a cage's for a placement, none for
    /// a combination.
    pub choices: Vec<Vec<(u16, u8)>>,
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

/// Every way to give the cells (whose allowed digits are `allowed[i]`, bit
/// d) distinct digits of `set`, as digit lists in the cells' order; `None`
/// once there are more than `most`.
pub fn placements(set: u32, allowed: &[u32], most: usize) -> Option<Vec<Vec<u8>>> {
    fn go(
        i: usize,
        left: u32,
        allowed: &[u32],
        cur: &mut Vec<u8>,
        out: &mut Vec<Vec<u8>>,
        most: usize,
    ) -> bool {
        if i == allowed.len() {
            out.push(cur.clone());
            return out.len() <= most;
        }
        let mut m = left & allowed[i];
        while m != 0 {
            let d = m.trailing_zeros();
            m &= m - 1;
            cur.push(d as u8);
            let ok = go(i + 1, left & !(1 << d), allowed, cur, out, most);
            cur.pop();
            if !ok {
                return false;
            }
        }
        true
    }
    let mut out = Vec::new();
    go(0, set, allowed, &mut Vec::new(), &mut out, most).then_some(out)
}

/// Builds the exact cover problem of a killer puzzle with the default
/// model (see the module's documentation).
pub fn to_exact_cover(k: &KillerPuzzle) -> KillerCover {
    to_exact_cover_with(k, KillerModel::Mixed)
}

/// Builds the exact cover problem of a killer puzzle with `model`.
pub fn to_exact_cover_with(k: &KillerPuzzle, model: KillerModel) -> KillerCover {
    let p = &k.puzzle;
    let n = k.size();
    let units = p.rules.units();
    let mut cell_units: Vec<Vec<usize>> = vec![Vec::new(); n * n];
    let mut in_unit = vec![0u32; units.len()]; // the givens' digits
    for (u, unit) in units.iter().enumerate() {
        for &c in &unit.cells {
            cell_units[c].push(u);
            in_unit[u] |= 1 << p.givens.get(c) & !1;
        }
    }
    // allowed[c]: the digits no given rules out (the mixed model: that
    // the steps of the logic leave)
    let full = ((1u32 << (n + 1)) - 1) & !1;
    let mut allowed: Vec<u32> = (0..n * n)
        .map(|c| match p.givens.get(c) {
            0 => cell_units[c].iter().fold(full, |m, &u| m & !in_unit[u]),
            d => 1 << d,
        })
        .collect();
    if model == KillerModel::Mixed {
        for (a, m) in allowed.iter_mut().zip(super::logic::presolve(k)) {
            *a &= m;
        }
    }
    let codes: Vec<String> = units.iter().map(|u| unit_code(u.kind)).collect();
    let cell_tokens = |c: usize, d: u8, out: &mut Vec<String>| {
        out.push(format!("r{}c{}", c / n + 1, c % n + 1));
        for &u in &cell_units[c] {
            out.push(format!("{}#{}", codes[u], symbol(d)));
        }
    };
    // Each cage: its combinations, and its placements if it is placed.
    let mut cage_of = vec![usize::MAX; n * n];
    let mut plans = Vec::new();
    for (i, cage) in k.cages.iter().enumerate() {
        for &c in &cage.cells {
            cage_of[c] = i;
        }
        let must = cage
            .cells
            .iter()
            .map(|&c| p.givens.get(c))
            .filter(|&d| d != 0)
            .fold(0u32, |m, d| m | 1 << d);
        let sets = combinations(cage.cells.len(), n, cage.sum, must);
        let cell_allowed: Vec<u32> = cage.cells.iter().map(|&c| allowed[c]).collect();
        let placed = match model {
            KillerModel::Combinations => None,
            KillerModel::Mixed | KillerModel::Placed => {
                let mut all = Vec::new();
                let mut fits = true;
                for &set in &sets {
                    match placements(set, &cell_allowed, PLACED_MOST - all.len()) {
                        Some(ps) => all.extend(ps),
                        None => {
                            fits = false;
                            break;
                        }
                    }
                }
                fits.then_some(all)
            }
        };
        plans.push((sets, placed));
    }
    let mut b = ProblemBuilder::new();
    let fresh = "item names are made unique";
    for c in 0..n * n {
        b.primary(&format!("r{}c{}", c / n + 1, c % n + 1))
            .expect(fresh);
    }
    for code in &codes {
        for d in 1..=n as u8 {
            b.primary(&format!("{code}#{}", symbol(d))).expect(fresh);
        }
    }
    for i in 0..k.cages.len() {
        b.primary(&format!("k{}", i + 1)).expect(fresh);
    }
    for (i, (_, placed)) in plans.iter().enumerate() {
        if placed.is_none() {
            for d in 1..=n {
                b.secondary(&format!("k{}.{d}", i + 1)).expect(fresh);
                b.secondary(&format!("k{}#{d}", i + 1)).expect(fresh);
            }
        }
    }
    let mut choices = Vec::new();
    let mut tokens = Vec::new();
    for c in 0..n * n {
        let cage = Some(cage_of[c]).filter(|&i| i != usize::MAX);
        if cage.is_some_and(|i| plans[i].1.is_some()) {
            continue; // its cage's placements fill it
        }
        for d in 1..=n as u8 {
            if allowed[c] >> d & 1 == 0 {
                continue;
            }
            tokens.clear();
            cell_tokens(c, d, &mut tokens);
            if let Some(i) = cage {
                tokens.push(format!("k{}.{d}:1", i + 1));
                tokens.push(format!("k{}#{d}", i + 1));
            }
            b.option(&tokens).expect("a valid option");
            choices.push(vec![(c as u16, d)]);
        }
    }
    for (i, (sets, placed)) in plans.iter().enumerate() {
        let cells = &k.cages[i].cells;
        match placed {
            Some(all) => {
                for digits in all {
                    tokens.clear();
                    tokens.push(format!("k{}", i + 1));
                    for (&c, &d) in cells.iter().zip(digits) {
                        cell_tokens(c, d, &mut tokens);
                    }
                    b.option(&tokens).expect("a valid option");
                    choices.push(
                        cells
                            .iter()
                            .map(|&c| c as u16)
                            .zip(digits.iter().copied())
                            .collect(),
                    );
                }
            }
            None => {
                for &set in sets {
                    tokens.clear();
                    tokens.push(format!("k{}", i + 1));
                    for d in 1..=n {
                        tokens.push(format!("k{}.{d}:{}", i + 1, set >> d & 1));
                    }
                    b.option(&tokens).expect("a valid option");
                    choices.push(Vec::new());
                }
            }
        }
    }
    let problem = b.build().expect("a grid has cells: the problem has items");
    KillerCover { problem, choices }
}

impl KillerCover {
    /// The grid a solution (a set of options) stands for.
    pub fn grid(&self, n: usize, options: &[usize]) -> Grid {
        let mut g = Grid::empty(n);
        for &(c, d) in options.iter().flat_map(|&o| &self.choices[o]) {
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
    /// Why a budget stopped the search first, if it did (then `count` is
    /// a lower bound).
    pub stopped: Option<Halt>,
}

/// Searches `k`'s solutions with the engine `auto` picks, up to `limit`
/// (counting on past `keep`, which are kept), until `cancel` is set.
pub fn solve(
    k: &KillerPuzzle,
    limit: Option<u64>,
    keep: usize,
    cancel: Option<Arc<AtomicBool>>,
) -> KillerSolved {
    solve_with(k, KillerModel::Mixed, limit, keep, cancel)
}

/// [`solve`] within `budget` (its deadline and its flag): what the
/// uniqueness checks of ratings and hints run under, with the budget of
/// the rating or hint.
pub fn solve_within(
    k: &KillerPuzzle,
    limit: Option<u64>,
    keep: usize,
    budget: &Budget,
) -> KillerSolved {
    solve_model_within(k, KillerModel::Mixed, (limit, keep), budget)
}

/// [`solve`] with the cages made into options by `model`.
pub fn solve_with(
    k: &KillerPuzzle,
    model: KillerModel,
    limit: Option<u64>,
    keep: usize,
    cancel: Option<Arc<AtomicBool>>,
) -> KillerSolved {
    solve_model_within(k, model, (limit, keep), &cancel_budget(cancel))
}

fn solve_model_within(
    k: &KillerPuzzle,
    model: KillerModel,
    (limit, keep): (Option<u64>, usize),
    budget: &Budget,
) -> KillerSolved {
    let cover = to_exact_cover_with(k, model);
    let mut kept: Vec<Vec<OptionId>> = Vec::new();
    let mut each = |options: &[OptionId]| {
        if kept.len() < keep {
            kept.push(options.to_vec());
        }
    };
    let s = search_within(&cover.problem, limit, budget, &mut each);
    KillerSolved {
        count: s.count,
        solutions: kept.iter().map(|o| cover.grid(k.size(), o)).collect(),
        nodes: s.nodes,
        complete: s.complete,
        stopped: s.stopped,
    }
}

/// The number of solutions of `k`, up to `limit`.
pub fn count(k: &KillerPuzzle, limit: Option<u64>) -> u64 {
    solve(k, limit, 0, None).count
}
