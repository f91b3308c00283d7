//! When `auto` counts with memos: a bound on the memoized count's time,
//! weighed against the fastest engine's estimate.

use super::plan::{best_order, spans};
use crate::problem::Problem;
use rustc_hash::FxHashSet;

/// Nanoseconds the counter takes at most per sub-problem it solves, and
/// per option it tries (measured on the domino boards and the 6x10
/// pentominoes, with room to spare).
pub(super) const NANOS_PER_NODE: f64 = 1000.0;
pub(super) const NANOS_PER_OPTION: f64 = 100.0;

/// A bound on the nanoseconds a memoized count of `problem` takes, with
/// the order the plan (`plan.rs`) would choose: at each position at most as many
/// sub-problems as its frontier has states (two per plain item, one more
/// than its colours for a coloured one, `v + 1` for a multiplicity), each
/// trying the options there. Far above the truth on most problems (few
/// states are reachable); below it, memoized counting certainly pays.
/// `None` when the problem is too large to look at cheaply.
pub fn bound_nanos(problem: &Problem) -> Option<f64> {
    let np = problem.n_primary();
    let n = problem.n_items();
    if problem.n_entries() > 1 << 20 || np == 0 {
        return None;
    }
    // bits of state per item
    let mut colours: Vec<FxHashSet<u32>> = Vec::new();
    let mut slot = vec![u32::MAX; n];
    for o in problem.options() {
        for e in o.entries() {
            if e.color != 0 {
                if slot[e.item] == u32::MAX {
                    slot[e.item] = colours.len() as u32;
                    colours.push(FxHashSet::default());
                }
                colours[slot[e.item] as usize].insert(e.color);
            }
        }
    }
    let bits: Vec<f64> = (0..n)
        .map(|x| {
            if slot[x] != u32::MAX {
                (colours[slot[x] as usize].len() as f64 + 2.0).log2()
            } else if x < np {
                (f64::from(problem.bounds(x).1) + 1.0).log2()
            } else {
                1.0
            }
        })
        .collect();
    let (order, _) = best_order(problem);
    let (first, last, at) = spans(problem, &order);
    let mut delta = vec![0f64; np + 2];
    for x in 0..n {
        if first[x] != u32::MAX && last[x] > first[x] {
            delta[first[x] as usize + 1] += bits[x];
            delta[last[x] as usize + 1] -= bits[x];
        }
    }
    let mut cur = 0f64;
    let mut total = 0f64;
    for p in 0..np {
        cur += delta[p];
        let states = cur.max(0.0).exp2();
        total += states * (NANOS_PER_NODE + NANOS_PER_OPTION * f64::from(at[p]));
    }
    Some(total)
}

/// How `auto` counts a problem: with memos, or with an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountWith {
    Memo,
    Engine(crate::EngineKind),
}

/// How `auto` should count `problem` (see [`pays`]), and with which engine
/// when not with memos: the engines' costs are weighed once, for both
/// questions (what [`crate::choose_engine`] would pick).
pub fn choose(problem: &Problem) -> CountWith {
    let costs = crate::engines::auto_costs(problem);
    let best = costs.iter().map(|c| c.nanos).fold(f64::INFINITY, f64::min);
    // the bound (the counter's orders) is worked out only for a search
    // long enough for it to matter
    if best > MEMO_FROM_NANOS && bound_nanos(problem).is_some_and(|b| b < best) {
        return CountWith::Memo;
    }
    CountWith::Engine(crate::engines::choose_from(problem, &costs))
}

/// `auto` counts with memos only where the engines are predicted to take
/// longer than this (20 ms): a shorter count gains little, and working out
/// the bound takes up to a millisecond (a 16x16 Sudoku's 4,096 options).
pub(super) const MEMO_FROM_NANOS: f64 = 2e7;

/// Whether `auto` should count `problem` with memos: when the bound on
/// the memoized count ([`bound_nanos`]) is below the time the fastest
/// engine is predicted to take to visit every solution
/// ([`crate::engines::auto_costs`]), and that is more than 20 ms (a small
/// search is left to the engines, whose nodes and updates are Knuth's).
pub fn pays(problem: &Problem) -> bool {
    choose(problem) == CountWith::Memo
}
