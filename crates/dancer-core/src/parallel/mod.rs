//! Splitting a search into independent units, and running them on many
//! threads, in shards, and across restarts.
//!
//! # Units
//!
//! [`plan`] runs the search down to a *frontier* depth only, and lists, in
//! the order the sequential search meets them, the solutions found above the
//! frontier and the nodes at the frontier. Each frontier node is the root of
//! a subtree that an engine can search on its own after
//! [`Engine::descend`]ing to it. Together the units cover the tree exactly
//! once, so counts add up exactly, and so do nodes and updates (the part
//! above the frontier is counted once, in [`Plan::top`]). The depth grows
//! until there are enough units to keep every worker busy (a few dozen per
//! worker, so that uneven subtrees even out) and to make checkpoints and
//! progress fine-grained.
//!
//! # Running
//!
//! [`run`] (in `run.rs`) hands the units to `threads` workers; each worker
//! keeps one engine and takes the next unit from a shared counter as soon
//! as it is free, so a long subtree never holds up the others. Solutions
//! reach the [`Observer`] a block at a time as they are found, then each
//! unit's counters, either as they come or, when `ordered`, in the order
//! of the sequential search; between the workers and the observer nothing
//! grows with the number of solutions (`handon.rs`: the observer's pace
//! holds the workers up). The same units, dealt round-robin, make the
//! shards of a cluster run, and a checkpoint is the list of completed
//! units and their counters.
//!
//! Each unit also carries its share of the tree by Knuth's estimate (the
//! product of 1/branching over its path), which, with the position inside
//! the running subtrees, estimates the fraction of the search done.
//!
//! How many units to cut a search into is decided in one place,
//! [`unit_target`]; what shards and checkpoints save, and how shards are
//! dealt and added up, is `dancer_runs::search`'s.

use crate::engines::{Engine, EngineError, EngineKind, Event};
use crate::problem::{OptionId, Problem};
use crate::stats::Stats;
use crate::ValueError;
use serde::{Deserialize, Serialize};

mod handon;
mod observe;
mod run;

pub use handon::{BLOCK, HELD};
pub use observe::{Observer, Progress, RunConfig, SolutionBlock, UnitResult};
pub use run::{run, RunSummary};

/// One piece of a split search.
#[derive(Clone, Debug, PartialEq)]
pub enum Unit {
    /// A solution found above the frontier.
    Solution(Vec<OptionId>),
    /// The subtree below a frontier node: the options that lead to it, and
    /// its estimated share of the whole tree.
    Subtree { prefix: Vec<OptionId>, share: f64 },
}

/// A search cut into units.
#[derive(Clone, Debug)]
pub struct Plan {
    pub depth: usize,
    pub units: Vec<Unit>,
    /// Counters of the search above the frontier (solutions excluded: the
    /// units hold them).
    pub top: Stats,
}

impl Plan {
    /// Number of subtree units.
    pub fn subtrees(&self) -> usize {
        self.units
            .iter()
            .filter(|u| matches!(u, Unit::Subtree { .. }))
            .count()
    }
}

/// The deepest frontier [`plan_for`] looks at.
pub const MAX_DEPTH: usize = 24;

/// What a split search is for: it sets how many units to cut it into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// To run on threads.
    Threads,
    /// To run on threads, saving checkpoints: finer units, so that a
    /// checkpoint loses little.
    Checkpoints,
    /// To deal among this many shards (machines).
    Shards(usize),
}

/// The number of subtrees to aim for: a few dozen per worker (or shard),
/// so that uneven subtrees even out, and at least 256 (1,024 for
/// checkpoints and shards) for fine-grained progress and checkpoints.
/// Worker threads per core at most: more only share the same cores (and a
/// plan cut for them has more units than the search needs).
pub const THREADS_PER_CORE: usize = 4;

/// The most worker threads a search (or a batch) takes on this machine:
/// [`THREADS_PER_CORE`] per core. The command line refuses more; the
/// library's functions take at most this many whatever they are asked.
pub fn max_threads() -> usize {
    cores().saturating_mul(THREADS_PER_CORE)
}

/// The cores this process may use (`available_parallelism`, read once: it
/// reads the cgroup files each time it is asked).
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The rule for a number of threads a user asks for: from 1 to
/// [`max_threads`] (1 without asking how many cores there are), else
/// [`ValueError::NoThreads`] or [`ValueError::TooManyThreads`].
pub fn threads_allowed(threads: usize) -> Result<usize, ValueError> {
    match threads {
        0 => Err(ValueError::NoThreads),
        1 => Ok(1),
        n if n > max_threads() => Err(ValueError::TooManyThreads {
            threads: n,
            max: max_threads(),
            per_core: THREADS_PER_CORE,
            cores: cores(),
        }),
        n => Ok(n),
    }
}

/// `threads` as a search uses it: 1 to [`max_threads`].
pub fn threads_used(threads: usize) -> usize {
    if threads <= 1 {
        return 1;
    }
    threads.min(max_threads())
}

/// How many units a search is cut into: for threads, 64 a thread (at
/// least 256), so that the last units to finish are small; one thread
/// needs none, and gets one level of cuts (a Sudoku's tree, nearly a path,
/// was searched again at every depth down to [`MAX_DEPTH`] looking for
/// 256 subtrees: several times its whole search); checkpoints at least
/// 1,024, so that a checkpoint saves often.
///
/// Shards get [`UNITS_PER_SHARD`] units each (at least 4,096, at most
/// [`MAX_SHARD_UNITS`]): a shard cannot take work from another once the
/// units are dealt, so its share must even out by numbers alone. Dealt
/// round-robin, 64 units a shard left the slowest of 64 shards of the 6x10
/// pentominoes 1.44 times the mean (nodes); 256 a shard, 1.19, and 1.05 on
/// queens 15 (`tests/shard_balance.rs` holds both to 1.3). Dealing by
/// estimated sizes did worse: Knuth's estimate of a unit (the product of
/// its branchings) gave 1.37, the width a level further down 1.24.
pub fn unit_target(threads: usize, purpose: Purpose) -> usize {
    let threads = threads_used(threads);
    match purpose {
        Purpose::Threads if threads == 1 => 1,
        Purpose::Threads => threads.saturating_mul(64).max(256),
        Purpose::Checkpoints => threads.saturating_mul(64).max(1024),
        Purpose::Shards(n) => n
            .saturating_mul(UNITS_PER_SHARD)
            .clamp(4096, MAX_SHARD_UNITS),
    }
}

/// Units a shard is dealt (see [`unit_target`]).
pub const UNITS_PER_SHARD: usize = 256;

/// The most units a plan for shards aims at (2^20, about 64 MiB of
/// prefixes): the number of shards comes from the command line, and must
/// not size the plan beyond this (more shards than this share the units,
/// and some get none).
pub const MAX_SHARD_UNITS: usize = 1 << 20;

/// Cuts the search as [`unit_target`] says for `threads` workers and
/// `purpose`, with a frontier at most [`MAX_DEPTH`] deep.
pub fn plan_for(
    problem: &Problem,
    engine: EngineKind,
    threads: usize,
    purpose: Purpose,
) -> Result<Plan, EngineError> {
    plan(problem, engine, unit_target(threads, purpose), MAX_DEPTH)
}

/// Cuts the search at exactly `depth` options. `Auto` is resolved the same
/// way every time, so a plan and a run of one problem with `Auto` agree.
pub fn plan_at(problem: &Problem, engine: EngineKind, depth: usize) -> Result<Plan, EngineError> {
    let mut e = engine.build(problem)?;
    Ok(cut_at(&mut *e, depth, usize::MAX).expect("no bound on the units"))
}

/// [`plan_at`], unless the cut has more than `max_units` units: `None` as
/// soon as it does (a depth read from a checkpoint says how deep to cut,
/// and the units it names bound what the cut may hold).
pub fn plan_at_most(
    problem: &Problem,
    engine: EngineKind,
    depth: usize,
    max_units: usize,
) -> Result<Option<Plan>, EngineError> {
    let mut e = engine.build(problem)?;
    Ok(cut_at(&mut *e, depth, max_units))
}

/// The most units [`plan`] holds: a depth whose cut has more is not taken
/// (each level multiplies the units by the branching, and a target from
/// the command line must not make a cut that fills the memory).
pub const MAX_PLAN_UNITS: usize = 2 * MAX_SHARD_UNITS;

/// [`plan_at`] with an engine at its root; `None` once more than
/// `max_units` units are met.
fn cut_at(e: &mut dyn Engine, depth: usize, max_units: usize) -> Option<Plan> {
    e.set_frontier(Some(depth));
    let mut units = Vec::new();
    while let Some(ev) = e.next_event() {
        match ev {
            Event::Solution(s) => units.push(Unit::Solution(s.to_vec())),
            Event::Frontier(p, d) => {
                let share = d.iter().fold(1.0, |w, &k| w / k.max(1) as f64);
                units.push(Unit::Subtree {
                    prefix: p.to_vec(),
                    share,
                })
            }
            Event::Pause => {}
        }
        if units.len() > max_units {
            return None;
        }
    }
    let mut top = e.stats().clone();
    top.solutions = 0;
    Some(Plan { depth, units, top })
}

/// Cuts the search at the smallest depth (up to `max_depth`) that gives at
/// least `target` subtrees, or where the tree ends, or at the last depth
/// whose cut holds at most [`MAX_PLAN_UNITS`] units.
pub fn plan(
    problem: &Problem,
    engine: EngineKind,
    target: usize,
    max_depth: usize,
) -> Result<Plan, EngineError> {
    // `Auto` is decided once, and the engine built once, not at every
    // depth (a search of a few thousand nodes, a Sudoku, goes down to
    // `max_depth` before it has enough subtrees, and the builds took
    // longer than the search); reset, it cuts as a fresh one does (a test
    // says so)
    let mut e = engine.build(problem)?;
    let mut depth = 1;
    let mut last: Option<Plan> = None;
    loop {
        // depth 1 has at most one unit an option: always taken
        let bound = if depth == 1 {
            usize::MAX
        } else {
            MAX_PLAN_UNITS
        };
        let Some(p) = cut_at(&mut *e, depth, bound) else {
            return Ok(last.expect("depth 1 is never refused"));
        };
        let n = p.subtrees();
        if n >= target || n == 0 || depth >= max_depth {
            return Ok(p);
        }
        last = Some(p);
        depth += 1;
        e.reset();
    }
}

/// Why a run stopped before the end of its search.
///
/// Ordered by weight: when the parts of a search stopped for different
/// reasons (shards), the whole stopped for the greatest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stop {
    /// `limit` solutions were reported, as asked: the search was not
    /// finished, so a count is a lower bound.
    Limit,
    /// The cancel flag was set (Ctrl-C or another signal, in the command
    /// line): the counts are those of the part searched.
    Interrupted,
}

impl Stop {
    /// `"limit"` or `"interrupted"`, as in saved files and NDJSON.
    pub fn name(self) -> &'static str {
        match self {
            Stop::Limit => "limit",
            Stop::Interrupted => "interrupted",
        }
    }
}

/// How a search ended, for a summary: `complete`, `stopped at the limit:
/// incomplete`, `interrupted: incomplete`.
///
/// ```
/// use dancer_core::parallel::{ending, Stop};
/// assert_eq!(ending(Some(Stop::Limit)), "stopped at the limit: incomplete");
/// ```
pub fn ending(stopped: Option<Stop>) -> &'static str {
    match stopped {
        None => "complete",
        Some(Stop::Limit) => "stopped at the limit: incomplete",
        Some(Stop::Interrupted) => "interrupted: incomplete",
    }
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a search came to, from the solutions it found and why it
/// stopped: the one rule every front end's exit status follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchVerdict {
    /// At least one solution, also when a limit stopped the search (it
    /// found what was asked).
    Found,
    /// None, after a complete search.
    NoneFound,
    /// Interrupted, whatever it found: the result is partial, and must not
    /// be taken for a complete one.
    Interrupted,
}

impl SearchVerdict {
    /// The verdict on a search that found `solutions` and `stopped` early
    /// or not.
    pub fn of(solutions: u64, stopped: Option<Stop>) -> SearchVerdict {
        match stopped {
            Some(Stop::Interrupted) => SearchVerdict::Interrupted,
            _ if solutions > 0 => SearchVerdict::Found,
            _ => SearchVerdict::NoneFound,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_from_1_to_4_per_core() {
        assert_eq!(threads_allowed(0), Err(ValueError::NoThreads));
        assert_eq!(threads_allowed(1), Ok(1));
        assert_eq!(threads_allowed(max_threads()), Ok(max_threads()));
        let e = threads_allowed(max_threads() + 1).unwrap_err();
        let max = max_threads();
        let (per_core, cores) = (THREADS_PER_CORE, cores());
        let threads = max + 1;
        let too_many = ValueError::TooManyThreads {
            threads,
            max,
            per_core,
            cores,
        };
        assert_eq!(e, too_many);
    }

    #[test]
    fn the_verdict_on_a_search() {
        assert_eq!(SearchVerdict::of(3, None), SearchVerdict::Found);
        assert_eq!(SearchVerdict::of(0, None), SearchVerdict::NoneFound);
        // a limit reached found what was asked
        assert_eq!(
            SearchVerdict::of(1, Some(Stop::Limit)),
            SearchVerdict::Found
        );
        // an interruption is never taken for a complete answer
        for n in [0, 5] {
            assert_eq!(
                SearchVerdict::of(n, Some(Stop::Interrupted)),
                SearchVerdict::Interrupted
            );
        }
    }
}
