//! Solving in one call: choose an engine (or `auto`), a limit and a
//! cancellation flag, and send the solutions to a [`Sink`]; and the
//! shortcuts [`count`], [`first`], [`all`] and the [`solutions`] iterator,
//! which run dancing links ([`links_engine`]: `dlx`, or `dlxm` for
//! multiplicities) in Knuth's order, without the estimate that `auto`
//! makes. The engines themselves are behind [`crate::engines`].

use crate::engines::{links_engine, Engine, EngineError, EngineKind};
use crate::problem::{OptionId, Problem};
use crate::sink::{CollectSink, Flow, Sink};
use crate::stats::Stats;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// How to run a search.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// The engine; `Auto` (the default) lets [`crate::choose_engine`] pick.
    pub engine: EngineKind,
    /// Stop after this many solutions.
    pub limit: Option<u64>,
    /// Stop when this flag is set (looked at every
    /// [`CANCEL_INTERVAL`](crate::engines::CANCEL_INTERVAL) nodes).
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
/// Fails only if the engine asked for cannot take the problem (`Auto`
/// takes every problem).
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

/// Options for the shortcuts: dancing links for `problem`.
fn links(problem: &Problem) -> SolveOptions {
    SolveOptions {
        engine: links_engine(problem),
        ..Default::default()
    }
}

/// The number of solutions.
pub fn count(problem: &Problem) -> u64 {
    solve(problem, &links(problem), &mut |_: &[OptionId]| {
        Flow::Continue
    })
    .expect("dancing links take every problem")
    .stats
    .solutions
}

/// The first solution in Knuth's order, if any.
pub fn first(problem: &Problem) -> Option<Vec<OptionId>> {
    let mut sink = CollectSink::with_limit(1);
    solve(problem, &links(problem), &mut sink).expect("dancing links take every problem");
    sink.solutions.pop()
}

/// Every solution, in Knuth's order.
pub fn all(problem: &Problem) -> Vec<Vec<OptionId>> {
    let mut sink = CollectSink::new();
    solve(problem, &links(problem), &mut sink).expect("dancing links take every problem");
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

/// Iterates over the solutions of `problem` in Knuth's order.
pub fn solutions(problem: &Problem) -> Solutions<'_> {
    Solutions::new(problem, links_engine(problem)).expect("dancing links take every problem")
}
