//! When `auto` counts with memos: a bound on the memoized count's time,
//! weighed against the fastest engine's estimate.

use super::plan::{best_order, spans};
use crate::problem::Problem;
use rustc_hash::FxHashSet;

use super::{NANOS_PER_NODE, NANOS_PER_OPTION};

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
///
/// With memos when the engines are predicted to take more than 20 ms and
/// either
///
/// - the bound ([`bound_nanos`]) is below the fastest engine's estimate:
///   the count certainly pays; or
/// - the bound is within `TRIAL_GATE` (2^11) of that estimate weighed
///   again with 2,048 probes ([`crate::engines::reweigh`]), and the count
///   itself, tried with a budget of a quarter of it (`TRIAL_SHARE`; its
///   work measured on the cost model, never by the clock), finishes.
///
/// The bound counts every state of the front, and on packings most are
/// never met: the polyhexes of 1 to 4 cells in a 4x10 parallelogram have
/// a front of 27 items (12 pieces and 15 cells), a bound of 4,400 s and a
/// count of 475,429 sub-problems (0.4 s), while the engines search 450
/// million nodes (6.4 s; 32 probes said 60 million, 0.9 s). What is met
/// cannot be told without meeting it, so the count is tried where the
/// bound comes near: a trial that fails costs at most a quarter of the
/// engines' time, one that finishes is the count again (a ZDD, progress
/// and the memory asked for are the real run's). The gate keeps the trial
/// off the families the engines win, whose bounds are thousands of times
/// their time or more (Langford pairs 3,300 and more, queens and
/// pentomino boards millions; the polyhexes that go to memos 300 to
/// 1,000). The trial runs with `trial`'s memory and cancel flag, those of
/// the run to come: a run stopped (Ctrl-C) while its count is tried stops
/// the trial too, and then goes to an engine that stops at once.
pub fn choose(problem: &Problem, trial: &super::MemoOptions) -> CountWith {
    let costs = crate::engines::auto_costs(problem);
    let best = fastest(&costs);
    // the bound (the counter's orders) is worked out only for a search
    // long enough for it to matter
    if best > MEMO_FROM_NANOS {
        if let Some(bound) = bound_nanos(problem) {
            if bound < best || near(problem, &costs, bound, trial) {
                return CountWith::Memo;
            }
        }
    }
    CountWith::Engine(crate::engines::choose_from(problem, &costs))
}

/// The least predicted time of `costs`.
fn fastest(costs: &[crate::engines::Costed]) -> f64 {
    costs.iter().map(|c| c.nanos).fold(f64::INFINITY, f64::min)
}

/// Whether the bound is near enough the engines' time, weighed again, for
/// the count to be tried, and the trial finishes within its budget.
fn near(
    problem: &Problem,
    costs: &[crate::engines::Costed],
    bound: f64,
    trial: &super::MemoOptions,
) -> bool {
    // a bound more than 2^16 times the first estimate is not weighed
    // again: 2,048 probes have never raised a packing's estimate that much
    if bound > TRIAL_GATE * 32.0 * fastest(costs) {
        return false;
    }
    let best = fastest(&crate::engines::reweigh(
        problem,
        costs,
        crate::engines::PROBES_MAX,
    ));
    if !(best > MEMO_FROM_NANOS && bound < TRIAL_GATE * best) {
        return false;
    }
    let Ok(plan) = super::plan::Plan::new(problem, trial.memory) else {
        return false;
    };
    let opts = super::MemoOptions {
        memory: trial.memory,
        cancel: trial.cancel.clone(),
        ..Default::default()
    };
    let mut search = super::search::Search::new(&plan, &opts, None);
    search.budget_nanos = best / TRIAL_SHARE;
    search.run();
    !search.cancelled
}

/// How near the engines' time the bound must be for the count to be
/// tried (see [`choose`]).
pub const TRIAL_GATE: f64 = 2048.0;

/// The trial's budget is the engines' predicted time over this.
pub const TRIAL_SHARE: f64 = 4.0;

/// `auto` counts with memos only where the engines are predicted to take
/// longer than this (20 ms): a shorter count gains little, and working out
/// the bound takes up to a millisecond (a 16x16 Sudoku's 4,096 options).
pub(super) const MEMO_FROM_NANOS: f64 = 2e7;

/// Whether `auto` should count `problem` with memos ([`choose`]): when
/// the engines are predicted to take more than 20 ms (a small search is
/// left to the engines, whose nodes and updates are Knuth's) and the
/// bound on the memoized count ([`bound_nanos`]) is below that, or near
/// it and a trial of the count finishes within a quarter of it.
pub fn pays(problem: &Problem) -> bool {
    let trial = super::MemoOptions {
        memory: super::default_memory(),
        ..Default::default()
    };
    choose(problem, &trial) == CountWith::Memo
}
