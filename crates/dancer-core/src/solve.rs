//! One API over every engine: choose an engine, a limit and a cancellation
//! flag, and send the solutions to a [`Sink`].

use crate::dlx::Dlx;
use crate::problem::{OptionId, Problem};
use crate::sink::{CollectSink, Flow, Sink};
use crate::stats::Stats;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// What a search reports.
#[derive(Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// A solution: its options, in the order they were chosen.
    Solution(&'a [OptionId]),
    /// A node at the frontier depth (see [`Engine::set_frontier`]): the
    /// options chosen to reach it, and the number of branches the search
    /// had at each of those levels.
    Frontier(&'a [OptionId], &'a [u32]),
    /// The node budget set by [`Engine::set_pause`] is used up; call again
    /// to go on.
    Pause,
}

/// What one step of an engine's search ended with (crate-internal form of
/// [`Event`], without borrows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Solution,
    Frontier,
    Pause,
    End,
}

/// A prefix that the search would not produce.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DescendError {
    #[error("descend needs a fresh (or reset) engine")]
    NotAtRoot,
    #[error("option {option} cannot be chosen at level {level} of the search")]
    NotChosenHere { level: usize, option: OptionId },
}

/// What every engine offers: a resumable search that yields one event at a
/// time, and what it takes to split the search among threads, shards and
/// checkpoints.
pub trait Engine: Send {
    /// Searches on to the next solution; `None` when the tree is exhausted or
    /// the search was cancelled. Frontier and pause events are skipped.
    fn next_solution(&mut self) -> Option<&[OptionId]>;
    /// Searches on to the next event; `None` at the end.
    fn next_event(&mut self) -> Option<Event<'_>>;
    /// Counters so far.
    fn stats(&self) -> &Stats;
    /// Whether the whole tree (or subtree, after `descend`) has been explored.
    fn is_complete(&self) -> bool;
    /// Installs a flag that stops the search when set from another thread.
    fn set_cancel(&mut self, flag: Arc<AtomicBool>);
    /// Stop descending at `depth` options and report those nodes as
    /// [`Event::Frontier`] (they are not counted as nodes).
    fn set_frontier(&mut self, depth: Option<usize>);
    /// Report [`Event::Pause`] about every `nodes` nodes.
    fn set_pause(&mut self, nodes: Option<u64>);
    /// Back to the root, every list restored, counters cleared.
    fn reset(&mut self);
    /// Go down to the node that `prefix` (a frontier event's options)
    /// leads to; the search then covers only the subtree below it.
    fn descend(&mut self, prefix: &[OptionId]) -> Result<(), DescendError>;
    /// Estimated fraction of the (sub)tree explored, from the position in
    /// the tree.
    fn position(&self) -> f64;
}

impl Engine for Dlx<'_> {
    fn next_solution(&mut self) -> Option<&[OptionId]> {
        Dlx::next_solution(self)
    }
    fn next_event(&mut self) -> Option<Event<'_>> {
        Dlx::next_event(self)
    }
    fn stats(&self) -> &Stats {
        Dlx::stats(self)
    }
    fn is_complete(&self) -> bool {
        Dlx::is_complete(self)
    }
    fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        Dlx::set_cancel(self, flag)
    }
    fn set_frontier(&mut self, depth: Option<usize>) {
        Dlx::set_frontier(self, depth)
    }
    fn set_pause(&mut self, nodes: Option<u64>) {
        Dlx::set_pause(self, nodes)
    }
    fn reset(&mut self) {
        Dlx::reset(self)
    }
    fn descend(&mut self, prefix: &[OptionId]) -> Result<(), DescendError> {
        Dlx::descend(self, prefix)
    }
    fn position(&self) -> f64 {
        Dlx::position(self)
    }
}

/// The engines there are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EngineKind {
    /// Dancing links, step for step with Knuth's DLX1/DLX2 (and, for
    /// problems with multiplicities, [`crate::dlxm`]).
    #[default]
    Dlx,
    /// Bit masks, first uncovered item: for packings of up to 512 items.
    Bitset,
}

/// An engine that cannot take a problem.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    Bitset(#[from] crate::bitset::Unsupported),
    #[error(transparent)]
    Descend(#[from] DescendError),
}

/// Picks the engine likely to finish first, by problem shape: dancing
/// links for colours, multiplicities and more than 512 items; otherwise
/// whichever of dancing links and the bitset engine Knuth's estimate (a few
/// hundred random paths through each engine's tree) says is cheaper, with
/// costs per node and per update measured on this project's benchmarks.
pub fn choose_engine(problem: &Problem) -> EngineKind {
    let Ok((bn, bscan)) = crate::bitset::estimate(problem, 400, 0x9e3779b97f4a7c15) else {
        return EngineKind::Dlx;
    };
    let (dn, du) = Dlx::new(problem).estimate(400, 0x9e3779b97f4a7c15);
    // nanoseconds: a DLX node ~20 plus ~3.6 per update; a bitset node ~25
    // plus ~1 per option scanned
    let dlx = dn * 20.0 + du * 3.6;
    let bit = bn * 25.0 + bscan * 1.0;
    if bit < dlx {
        EngineKind::Bitset
    } else {
        EngineKind::Dlx
    }
}

impl EngineKind {
    /// Every engine, for tests that run a suite against all of them.
    pub const ALL: &'static [EngineKind] = &[EngineKind::Dlx, EngineKind::Bitset];

    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Dlx => "dlx",
            EngineKind::Bitset => "bitset",
        }
    }

    /// Whether this engine can solve `problem`.
    pub fn supports(self, problem: &Problem) -> bool {
        match self {
            EngineKind::Dlx => true,
            EngineKind::Bitset => crate::bitset::check(problem).is_ok(),
        }
    }

    /// Builds this engine for `problem`.
    pub fn build<'p>(self, problem: &'p Problem) -> Result<Box<dyn Engine + 'p>, EngineError> {
        Ok(match self {
            EngineKind::Dlx if problem.has_multiplicities() => {
                Box::new(crate::dlxm::Dlxm::new(problem))
            }
            EngineKind::Dlx => Box::new(Dlx::new(problem)),
            EngineKind::Bitset => crate::bitset::build(problem)?,
        })
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An engine name that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown engine {0:?} (known: dlx, bitset)")]
pub struct UnknownEngine(pub String);

impl FromStr for EngineKind {
    type Err = UnknownEngine;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "dlx" => Ok(EngineKind::Dlx),
            "bitset" => Ok(EngineKind::Bitset),
            _ => Err(UnknownEngine(s.to_string())),
        }
    }
}

/// How to run a search.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    pub engine: EngineKind,
    /// Stop after this many solutions.
    pub limit: Option<u64>,
    /// Stop when this flag is set (checked every 1024 nodes).
    pub cancel: Option<Arc<AtomicBool>>,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub stats: Stats,
    /// The whole tree was explored: `stats.solutions` is the exact count.
    pub complete: bool,
    /// Stopped by the cancellation flag.
    pub cancelled: bool,
}

/// Runs a search, sending each solution to `sink`, until the tree is
/// exhausted, the sink says stop, the limit is reached, or the flag is set.
/// Fails only if the chosen engine cannot take the problem.
pub fn solve<S: Sink + ?Sized>(
    problem: &Problem,
    opts: &SolveOptions,
    sink: &mut S,
) -> Result<Outcome, EngineError> {
    let start = Instant::now();
    let mut engine = opts.engine.build(problem)?;
    if let Some(flag) = &opts.cancel {
        engine.set_cancel(flag.clone());
    }
    let mut found = 0u64;
    let mut stopped = opts.limit == Some(0);
    while !stopped {
        let Some(sol) = engine.next_solution() else {
            break;
        };
        found += 1;
        if sink.solution(sol) == Flow::Stop || opts.limit.is_some_and(|l| found >= l) {
            stopped = true;
        }
    }
    let complete = engine.is_complete();
    let mut stats = engine.stats().clone();
    stats.elapsed = start.elapsed();
    Ok(Outcome {
        stats,
        complete,
        cancelled: !complete && !stopped,
    })
}

/// The number of solutions.
pub fn count(problem: &Problem) -> u64 {
    solve(
        problem,
        &SolveOptions::default(),
        &mut |_: &[OptionId]| Flow::Continue,
    )
    .expect("dlx takes every problem")
    .stats
    .solutions
}

/// The first solution, if any.
pub fn first(problem: &Problem) -> Option<Vec<OptionId>> {
    let mut sink = CollectSink::with_limit(1);
    solve(problem, &SolveOptions::default(), &mut sink).expect("dlx takes every problem");
    sink.solutions.pop()
}

/// Every solution.
pub fn all(problem: &Problem) -> Vec<Vec<OptionId>> {
    let mut sink = CollectSink::new();
    solve(problem, &SolveOptions::default(), &mut sink).expect("dlx takes every problem");
    sink.solutions
}

/// The solutions as an iterator, computed one at a time as it is advanced.
pub struct Solutions<'p> {
    engine: Box<dyn Engine + 'p>,
}

impl<'p> Solutions<'p> {
    pub fn new(problem: &'p Problem, engine: EngineKind) -> Result<Self, EngineError> {
        Ok(Solutions {
            engine: engine.build(problem)?,
        })
    }
    /// Counters so far.
    pub fn stats(&self) -> &Stats {
        self.engine.stats()
    }
}

impl Iterator for Solutions<'_> {
    type Item = Vec<OptionId>;
    fn next(&mut self) -> Option<Self::Item> {
        self.engine.next_solution().map(<[OptionId]>::to_vec)
    }
}

/// Iterates over the solutions of `problem` with the default engine.
pub fn solutions(problem: &Problem) -> Solutions<'_> {
    Solutions::new(problem, EngineKind::default()).expect("dlx takes every problem")
}
