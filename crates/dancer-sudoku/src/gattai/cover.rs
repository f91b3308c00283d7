//! Overlapping grids as exact cover, and new puzzles.
//!
//! Items (primary): every canvas cell in a grid (it gets a digit), and
//! every unit of every grid with every digit (a box two grids share is
//! one unit). Options: a cell and a digit, covering the cell and the
//! cell's units (in all its grids) for the digit; a given cell has its
//! digit's option only. A shared cell thus takes one digit that every grid
//! it is in agrees with.
//!
//! New puzzles: the options of a problem without givens are shuffled,
//! and the engine's first solution is a random complete canvas; givens are
//! then taken out one at a time, in random order, whenever the puzzle
//! stays unique, which leaves a minimal puzzle. Unique: singles fill the
//! canvas (quick, and most of the time early on), or else a count stopped
//! at 2.

use super::{GattaiPuzzle, Shape};
use crate::cover::{cancel_budget, search_within};
use crate::killer::{KillerBoard, KillerTechnique};
use crate::logic::{Budget, Halt};
use dancer_core::rng::{Draw, XorShift64Star};
use dancer_core::{OptionId, Problem, ProblemBuilder};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The problem of `shape` with `givens`, options in the order of `order`
/// (a permutation of cell-digit pairs, or none), without the option of the
/// cell-digit pair `without`, if any; and each option's cell and digit.
fn problem(
    shape: &Shape,
    givens: &[u8],
    order: Option<&[usize]>,
    without: Option<(usize, u8)>,
) -> (Problem, Vec<(usize, u8)>) {
    let n = shape.size;
    let units = shape.units();
    let cells = shape.cells();
    let mut b = ProblemBuilder::new();
    let mut cell_item = vec![usize::MAX; givens.len()];
    for &c in &cells {
        cell_item[c] = b.primary(&shape.cell_name(c)).expect("fresh names");
    }
    let mut of_cell: Vec<Vec<usize>> = vec![Vec::new(); givens.len()];
    let mut unit_item = Vec::with_capacity(units.len());
    for (u, (_, unit)) in units.iter().enumerate() {
        // the unit's items for digits 1..=n, one after the other
        let ids: Vec<usize> = (1..=n)
            .map(|d| b.primary(&format!("u{}#{d}", u + 1)).expect("fresh names"))
            .collect();
        debug_assert!(ids.windows(2).all(|w| w[1] == w[0] + 1));
        unit_item.push(ids[0]);
        for &c in unit {
            of_cell[c].push(u);
        }
    }
    let mut pairs: Vec<(usize, u8)> = cells
        .iter()
        .flat_map(|&c| (1..=n as u8).map(move |d| (c, d)))
        .filter(|&(c, d)| givens[c] == 0 || givens[c] == d)
        .collect();
    // after the order: `order` numbers the pairs of the full list
    let drop_pair = |pairs: &mut Vec<(usize, u8)>| {
        if let Some(w) = without {
            pairs.retain(|&p| p != w);
        }
    };
    if let Some(order) = order {
        let shuffled: Vec<(usize, u8)> = order
            .iter()
            .filter_map(|&i| pairs.get(i).copied())
            .collect();
        pairs = shuffled;
    }
    drop_pair(&mut pairs);
    for &(c, d) in &pairs {
        let items = std::iter::once(cell_item[c])
            .chain(of_cell[c].iter().map(|&u| unit_item[u] + d as usize - 1))
            .map(|i| (i, 0));
        b.option_ids(items).expect("a valid option");
    }
    (b.build().expect("a shape has cells"), pairs)
}

/// What a search for a puzzle's solutions found.
#[derive(Clone, Debug)]
pub struct GattaiSolved {
    /// Solutions found (at most the limit).
    pub count: u64,
    /// The first `keep` of them, a digit for every canvas cell.
    pub solutions: Vec<Vec<u8>>,
    /// The whole tree was searched.
    pub complete: bool,
    /// Why a budget stopped the search first, if it did (then `count` is
    /// a lower bound).
    pub stopped: Option<Halt>,
}

/// Solves `p` up to `limit` solutions, keeping `keep`, until `cancel`.
pub fn solve(
    p: &GattaiPuzzle,
    limit: Option<u64>,
    keep: usize,
    cancel: Option<Arc<AtomicBool>>,
) -> GattaiSolved {
    solve_within(p, limit, keep, &cancel_budget(cancel))
}

/// [`solve`] within `budget` (its deadline and its flag): what the
/// uniqueness checks of ratings and hints run under, with the budget of
/// the rating or hint.
pub fn solve_within(
    p: &GattaiPuzzle,
    limit: Option<u64>,
    keep: usize,
    budget: &Budget,
) -> GattaiSolved {
    solve_without(&p.shape, &p.givens, None, None, (limit, keep), budget)
}

fn solve_ordered(
    shape: &Shape,
    givens: &[u8],
    order: Option<&[usize]>,
    (limit, keep): (Option<u64>, usize),
    cancel: Option<Arc<AtomicBool>>,
) -> GattaiSolved {
    let budget = cancel_budget(cancel);
    solve_without(shape, givens, order, None, (limit, keep), &budget)
}

/// [`solve_ordered`] without the cell-digit pair `without`, within
/// `budget`.
fn solve_without(
    shape: &Shape,
    givens: &[u8],
    order: Option<&[usize]>,
    without: Option<(usize, u8)>,
    (limit, keep): (Option<u64>, usize),
    budget: &Budget,
) -> GattaiSolved {
    let (problem, pairs) = problem(shape, givens, order, without);
    let mut found: Vec<Vec<OptionId>> = Vec::new();
    let mut each = |options: &[OptionId]| {
        if found.len() < keep {
            found.push(options.to_vec());
        }
    };
    let s = search_within(&problem, limit, budget, &mut each);
    let solutions = found
        .iter()
        .map(|opts| {
            let mut v = givens.to_vec();
            for &o in opts {
                let (c, d) = pairs[o];
                v[c] = d;
            }
            v
        })
        .collect();
    GattaiSolved {
        count: s.count,
        solutions,
        complete: s.complete,
        stopped: s.stopped,
    }
}

/// The number of solutions of `p`, up to `limit`.
pub fn count(p: &GattaiPuzzle, limit: Option<u64>) -> u64 {
    solve(p, limit, 0, None).count
}

/// A puzzle made by [`generate`] and its solution.
#[derive(Clone, Debug)]
pub struct GattaiGenerated {
    pub puzzle: GattaiPuzzle,
    pub solution: Vec<u8>,
}

/// A minimal puzzle with one solution on `shape`, from `seed`; `None`
/// when `cancel` is set first, or when the shape has no complete canvas
/// at all (grids overlapping so that no digits fit: [`has_solution`]).
pub fn generate(
    shape: &Shape,
    seed: u64,
    cancel: Option<&Arc<AtomicBool>>,
) -> Option<GattaiGenerated> {
    let mut rng = XorShift64Star::new(seed);
    let empty = vec![0u8; shape.height * shape.width];
    let pairs = shape.cells().len() * shape.size;
    let mut order: Vec<usize> = (0..pairs).collect();
    rng.shuffle(&mut order);
    let full = solve_ordered(shape, &empty, Some(&order), (Some(1), 1), cancel.cloned());
    let solution = full.solutions.into_iter().next()?;
    let mut givens = solution.clone();
    let mut cells = shape.cells();
    rng.shuffle(&mut cells);
    let (live, units) = (shape.live(), shape.units());
    let budget = cancel_budget(cancel.cloned());
    for c in cells {
        if cancel.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return None;
        }
        let d = givens[c];
        givens[c] = 0;
        // singles that fill the canvas prove it unique at once; else count
        let (_, b) = crate::killer::path_from(
            KillerBoard::for_grids(shape.size, shape.width, &live, units.clone(), &givens),
            KillerTechnique::NakedSingle,
        );
        // else: the puzzle has the one solution with `d` at `c`; it stays
        // unique when no solution puts another digit there
        if !b.is_solved() {
            let other = solve_without(shape, &givens, None, Some((c, d)), (Some(1), 0), &budget);
            if other.count != 0 || !other.complete {
                givens[c] = d;
            }
        }
    }
    Some(GattaiGenerated {
        puzzle: GattaiPuzzle {
            shape: shape.clone(),
            givens,
        },
        solution,
    })
}

/// Whether the shape has a complete canvas at all (grids can overlap so
/// that no digits fit).
pub fn has_solution(shape: &Shape, cancel: Option<Arc<AtomicBool>>) -> bool {
    let empty = vec![0u8; shape.height * shape.width];
    solve_ordered(shape, &empty, None, (Some(1), 0), cancel).count == 1
}
