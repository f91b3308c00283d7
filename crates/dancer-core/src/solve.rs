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

/// What every engine offers: a resumable search that yields one solution at
/// a time.
pub trait Engine {
    /// Searches on to the next solution; `None` when the tree is exhausted or
    /// the search was cancelled.
    fn next_solution(&mut self) -> Option<&[OptionId]>;
    /// Counters so far.
    fn stats(&self) -> &Stats;
    /// Whether the whole tree has been explored.
    fn is_complete(&self) -> bool;
    /// Installs a flag that stops the search when set from another thread.
    fn set_cancel(&mut self, flag: Arc<AtomicBool>);
}

impl Engine for Dlx<'_> {
    fn next_solution(&mut self) -> Option<&[OptionId]> {
        Dlx::next_solution(self)
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
}

/// The engines there are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EngineKind {
    /// Dancing links, step for step with Knuth's DLX1/DLX2.
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
