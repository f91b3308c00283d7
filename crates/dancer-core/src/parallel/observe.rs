//! What a run reports and how it is asked to run: the [`Observer`] and
//! what it is handed (a [`SolutionBlock`] of solutions, a [`UnitResult`]
//! at each unit's end, a [`Progress`] now and then), and the
//! [`RunConfig`]. The workers (`run.rs`) and the hand-on (`handon.rs`)
//! both speak in these; neither imports the other's types through here.

use crate::engines::EngineKind;
use crate::problem::OptionId;
use crate::stats::Stats;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Solutions in one flat block.
///
/// ```text
///   options: [ o o o | o o | o o o o | ... ]   every solution's options, one after the other
///   ends:    [ 3,      5,    9,        ... ]   where each solution ends in `options`
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolutionBlock {
    options: Vec<OptionId>,
    ends: Vec<usize>,
}

impl SolutionBlock {
    /// Adds a solution.
    pub fn push(&mut self, solution: &[OptionId]) {
        self.options.extend_from_slice(solution);
        self.ends.push(self.options.len());
    }

    /// Solutions in the block.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// What the block weighs against [`BLOCK`](super::BLOCK) and [`HELD`](super::HELD): its option
    /// numbers and its solutions (an empty solution weighs 1).
    pub fn weight(&self) -> usize {
        self.options.len() + self.ends.len()
    }

    /// The `i`th solution.
    pub fn get(&self, i: usize) -> &[OptionId] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.options[start..self.ends[i]]
    }

    /// The solutions in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[OptionId]> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Keeps the first `n` solutions.
    pub fn truncate(&mut self, n: usize) {
        if n < self.ends.len() {
            let end = if n == 0 { 0 } else { self.ends[n - 1] };
            self.ends.truncate(n);
            self.options.truncate(end);
        }
    }

    /// Empties the block, keeping its memory.
    pub fn clear(&mut self) {
        self.options.clear();
        self.ends.clear();
    }
}

/// What one unit gave.
#[derive(Clone, Debug)]
pub struct UnitResult {
    /// Index of the unit in the plan.
    pub index: usize,
    /// Its counters; `solutions` counts those handed on (cut at the
    /// limit).
    pub stats: Stats,
    /// Whether the unit was searched to the end (and every solution it
    /// found handed on).
    pub complete: bool,
}

/// A snapshot for progress reports.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Estimated fraction of the search done (0 to 1).
    pub fraction: f64,
    pub solutions: u64,
    pub nodes: u64,
    pub units_done: usize,
    pub units: usize,
    pub elapsed: Duration,
}

impl Progress {
    /// Nodes per second so far.
    pub fn nodes_per_second(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.nodes as f64 / secs
        } else {
            0.0
        }
    }

    /// Seconds left, if the fraction done so far goes on at the same pace;
    /// `None` before anything is done.
    pub fn eta_seconds(&self) -> Option<f64> {
        let secs = self.elapsed.as_secs_f64();
        let eta = secs * (1.0 - self.fraction) / self.fraction;
        (self.fraction > 0.0 && eta.is_finite()).then_some(eta)
    }
}

/// `92 solutions, 12.3M nodes/s, eta 42 s` (`eta ?` before anything is
/// done), as progress bars show it.
///
/// ```
/// use dancer_core::parallel::Progress;
/// use std::time::Duration;
/// let p = Progress { fraction: 0.0, solutions: 1, nodes: 791, units_done: 0, units: 4, elapsed: Duration::from_secs(1) };
/// assert_eq!(p.to_string(), "1 solution, 791 nodes/s, eta ?");
/// let p = Progress { fraction: 0.5, nodes: 12_345_678 * 61, elapsed: Duration::from_secs(61), ..p };
/// assert_eq!(p.to_string(), "1 solution, 12.3M nodes/s, eta 1m 01s");
/// ```
impl std::fmt::Display for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::words::{duration, plural, rate};
        let solutions = plural(self.solutions, "solution", "solutions");
        let eta = self.eta_seconds().map_or("?".into(), duration);
        let rate = rate(self.nodes_per_second());
        write!(f, "{solutions}, {rate} nodes/s, eta {eta}")
    }
}

/// Receives the results of a run. Calls are serialised (by the run's
/// hand-on, `parallel/handon.rs`): an observer that takes its time holds
/// the workers up, and nothing piles up between them.
pub trait Observer: Sync {
    /// Solutions of the unit `index`, when they are kept
    /// ([`RunConfig::keep`]): a block at a time, in the order of the
    /// sequential search when [`RunConfig::ordered`], each unit's before
    /// its [`unit`](Observer::unit), never past the limit.
    fn solutions(&self, index: usize, block: &SolutionBlock) {
        let _ = (index, block);
    }
    /// A unit is finished (or was stopped): its counters, after its
    /// solutions.
    fn unit(&self, r: &UnitResult);
    /// Called about every `tick` while the run goes on.
    fn progress(&self, _p: &Progress) {}
    /// Whether [`Observer::progress`] does anything: when it does not,
    /// no thread is started to call it (a search of a millisecond should
    /// not pay for one).
    fn wants_progress(&self) -> bool {
        true
    }
}

/// How to run.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub engine: EngineKind,
    pub threads: usize,
    /// Report units in the order of the sequential search.
    pub ordered: bool,
    /// Stop once this many solutions have been reported.
    pub limit: Option<u64>,
    pub cancel: Option<Arc<AtomicBool>>,
    /// Keep the solutions (else only count them).
    pub keep: bool,
    /// How often to call `Observer::progress`.
    pub tick: Duration,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            engine: EngineKind::Auto,
            threads: 1,
            ordered: false,
            limit: None,
            cancel: None,
            keep: true,
            tick: Duration::from_millis(250),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_keeps_its_solutions_flat() {
        let mut b = SolutionBlock::default();
        b.push(&[3, 1]);
        b.push(&[]);
        b.push(&[7, 8, 9]);
        assert_eq!(b.len(), 3);
        assert_eq!(b.weight(), 5 + 3);
        let all: Vec<&[OptionId]> = b.iter().collect();
        assert_eq!(all, vec![&[3, 1][..], &[][..], &[7, 8, 9][..]]);
        b.truncate(2);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![&[3, 1][..], &[][..]]);
        b.truncate(5);
        assert_eq!(b.len(), 2);
        b.truncate(0);
        assert!(b.is_empty() && b.weight() == 0);
    }
}
