//! # Running a split search on threads
//!
//! [`run`] hands the units of a [`Plan`] to `threads` workers (the calling
//! thread and `threads - 1` scoped threads); each worker keeps one engine
//! and takes the next unit from a shared counter as soon as it is free, so
//! a long subtree never holds up the others. What the workers find reaches
//! the [`Observer`] through the hand-on ([`super::handon`]): solutions a
//! block at a time while a unit runs, then the unit's counters, in the
//! order of the sequential search when asked, in bounded memory, cut at
//! the limit. A ticker thread reports progress every `tick`.

use super::handon::{HandOn, InHand};
use super::observe::{Observer, Progress, RunConfig, UnitResult};
use super::{Plan, Stop, Unit};
use crate::engines::{DescendError, Engine, EngineError, EngineKind};
use crate::problem::{OptionId, Problem};
use crate::stats::Stats;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// How a run ended.
#[derive(Clone, Debug)]
pub struct RunSummary {
    /// Counters of the units run (the plan's top part not included).
    pub stats: Stats,
    /// Solutions reported (at most the limit).
    pub solutions: u64,
    /// Every selected unit was searched to the end.
    pub complete: bool,
    /// The cancel flag was set when the run ended.
    pub cancelled: bool,
}

impl RunSummary {
    /// Why the run stopped early: `None` when it is complete; else
    /// [`Stop::Interrupted`] when the cancel flag was set, and otherwise
    /// [`Stop::Limit`] (the only other way a run ends early).
    pub fn stopped(&self) -> Option<Stop> {
        if self.complete {
            None
        } else if self.cancelled {
            Some(Stop::Interrupted)
        } else {
            Some(Stop::Limit)
        }
    }
}

struct Shared<'a> {
    plan: &'a Plan,
    selected: &'a [usize],
    next: AtomicUsize,
    handon: HandOn<'a>,
    found: AtomicU64,
    nodes: AtomicU64,
    /// Per worker: (share of the unit it runs, fraction of that unit done).
    running: Mutex<Vec<(f64, f64)>>,
    done_share: Mutex<f64>,
    units_done: AtomicUsize,
}

/// Runs the units `selected` (indices into `plan.units`) and reports them.
pub fn run(
    problem: &Problem,
    plan: &Plan,
    selected: &[usize],
    cfg: &RunConfig,
    observer: &dyn Observer,
) -> Result<RunSummary, EngineError> {
    // the engine once for all workers, and a refusal before any thread starts
    let engine = cfg.engine.resolve(problem)?;
    let threads = cfg.threads.max(1);
    let shared = Shared {
        plan,
        selected,
        next: AtomicUsize::new(0),
        handon: HandOn::new(cfg, observer),
        found: AtomicU64::new(0),
        nodes: AtomicU64::new(0),
        running: Mutex::new(vec![(0.0, 0.0); threads]),
        done_share: Mutex::new(0.0),
        units_done: AtomicUsize::new(0),
    };
    let total_share: f64 = selected
        .iter()
        .map(|&i| match &plan.units[i] {
            Unit::Subtree { share, .. } => *share,
            Unit::Solution(_) => 0.0,
        })
        .sum::<f64>()
        .max(f64::MIN_POSITIVE);
    let start = Instant::now();
    let failure: Mutex<Option<DescendError>> = Mutex::new(None);
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        // the ticker: reports progress every `tick` until the run ends
        let shared = &shared;
        let ticker = move || {
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(cfg.tick) {
                let running: f64 = shared
                    .running
                    .lock()
                    .unwrap()
                    .iter()
                    .map(|(s, f)| s * f)
                    .sum();
                let done = *shared.done_share.lock().unwrap();
                observer.progress(&Progress {
                    fraction: ((done + running) / total_share).clamp(0.0, 1.0),
                    solutions: shared.found.load(Ordering::Relaxed),
                    nodes: shared.nodes.load(Ordering::Relaxed),
                    units_done: shared.units_done.load(Ordering::Relaxed),
                    units: selected.len(),
                    elapsed: start.elapsed(),
                });
            }
        };
        if observer.wants_progress() {
            scope.spawn(ticker);
        }
        // the workers: this thread and `threads - 1` more (no pool to
        // start: a search of a millisecond took longer to set one up); a
        // worker that cannot be started leaves its units to the others
        let failure = &failure;
        let work = move |w: usize| {
            if let Err(e) = worker(problem, engine, w, shared, cfg) {
                *failure.lock().unwrap() = Some(e);
                shared.handon.halt();
            }
        };
        std::thread::scope(|workers| {
            for w in 1..super::threads_used(threads) {
                if std::thread::Builder::new()
                    .spawn_scoped(workers, move || work(w))
                    .is_err()
                {
                    break;
                }
            }
            work(0);
        });
        drop(tx);
    });
    if let Some(e) = failure.into_inner().unwrap() {
        return Err(EngineError::Descend(e));
    }
    let units_done = shared.units_done.load(Ordering::Relaxed);
    let stopped = shared.handon.stop.load(Ordering::Relaxed);
    let handed = shared.handon.finish();
    let cancelled = cfg
        .cancel
        .as_ref()
        .is_some_and(|c| c.load(Ordering::Relaxed));
    let delivered_all = !cfg.ordered || handed.next == selected.len();
    Ok(RunSummary {
        stats: handed.stats,
        solutions: handed.emitted,
        complete: handed.complete
            && delivered_all
            && units_done == selected.len()
            && !stopped
            && !cancelled,
        cancelled,
    })
}

/// A unit's search, watched: its solutions collected in its block and
/// handed on when the block is due (see [`super::handon`]), counted
/// against the limit, its nodes and position shared at each pause,
/// stopped when the run stops.
struct UnitWatcher<'s, 'p, 'u> {
    shared: &'s Shared<'p>,
    cfg: &'s RunConfig,
    w: usize,
    share: f64,
    unit: &'u mut InHand,
    last_nodes: u64,
}

impl crate::engines::Watcher for UnitWatcher<'_, '_, '_> {
    fn solution(&mut self, s: &[OptionId]) -> bool {
        let n = self.shared.found.fetch_add(1, Ordering::Relaxed) + 1;
        if self.cfg.keep {
            self.unit.block.push(s);
            if self.unit.due() && !self.shared.handon.block_due(self.unit) {
                return false;
            }
        }
        if !self.cfg.ordered && self.cfg.limit.is_some_and(|l| n >= l) {
            // every solution found is in a block, handed on as its unit
            // ends: the limit's are among them
            self.shared.handon.halt();
            return false;
        }
        !self.shared.handon.stopped()
    }

    fn progress(&mut self, nodes: u64, fraction: f64) -> bool {
        self.shared
            .nodes
            .fetch_add(nodes - self.last_nodes, Ordering::Relaxed);
        self.last_nodes = nodes;
        self.shared.running.lock().unwrap()[self.w] = (self.share, fraction);
        !self.shared.handon.stopped()
    }
}

fn worker(
    problem: &Problem,
    engine: EngineKind,
    w: usize,
    shared: &Shared<'_>,
    cfg: &RunConfig,
) -> Result<(), DescendError> {
    let mut built: Option<Box<dyn Engine + '_>> = None;
    const PAUSE: u64 = 1 << 14;
    loop {
        if shared.handon.stopped() {
            return Ok(());
        }
        let k = shared.next.fetch_add(1, Ordering::Relaxed);
        if k >= shared.selected.len() || !shared.handon.may_start(k) {
            return Ok(());
        }
        let index = shared.selected[k];
        let mut unit = InHand::new(k, index);
        let mut result = UnitResult {
            index,
            stats: Stats::default(),
            complete: true,
        };
        match &shared.plan.units[index] {
            Unit::Solution(s) => {
                result.stats.solutions = 1;
                shared.found.fetch_add(1, Ordering::Relaxed);
                if cfg.keep {
                    unit.block.push(s);
                }
            }
            Unit::Subtree { prefix, share } => {
                let e = built.get_or_insert_with(|| {
                    let mut e = engine.build(problem).expect("resolved for this problem");
                    if let Some(c) = &cfg.cancel {
                        e.set_cancel(c.clone());
                    }
                    e
                });
                e.reset();
                e.descend(prefix)?;
                let mut watcher = UnitWatcher {
                    shared,
                    cfg,
                    w,
                    share: *share,
                    unit: &mut unit,
                    last_nodes: 0,
                };
                let watched = crate::engines::watch(&mut **e, Some(PAUSE), &mut watcher);
                let last_nodes = watcher.last_nodes;
                result.complete = watched.complete;
                let nodes = e.stats().nodes;
                shared
                    .nodes
                    .fetch_add(nodes - last_nodes, Ordering::Relaxed);
                result.stats = e.stats().clone();
                shared.running.lock().unwrap()[w] = (0.0, 0.0);
                if result.complete {
                    *shared.done_share.lock().unwrap() += share;
                }
            }
        }
        shared.units_done.fetch_add(1, Ordering::Relaxed);
        shared.handon.unit_ended(unit, result);
    }
}
