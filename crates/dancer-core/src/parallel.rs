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
//! [`run`] hands the units to `threads` workers (the calling thread and
//! `threads - 1` scoped threads); each worker keeps one engine and takes
//! the next unit from a shared counter as soon as it is free, so a long subtree never holds up the others. Results reach
//! the [`Observer`] one unit at a time, either as units complete or, when
//! `ordered`, in the order of the sequential search (held back until every
//! earlier unit is in). The same units, dealt round-robin, make the shards
//! of a cluster run, and a checkpoint is the list of completed units and
//! their counters.
//!
//! Each unit also carries its share of the tree by Knuth's estimate (the
//! product of 1/branching over its path), which, with the position inside
//! the running subtrees, estimates the fraction of the search done.
//!
//! How many units to cut a search into is decided in one place,
//! [`unit_target`]; what shards and checkpoints save, and how shards are
//! dealt and added up, is `dancer_runs::search`'s.

use crate::engines::{DescendError, Engine, EngineError, EngineKind, Event};
use crate::problem::{OptionId, Problem};
use crate::stats::Stats;
use crate::ValueError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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

/// What one unit gave.
#[derive(Clone, Debug)]
pub struct UnitResult {
    /// Index of the unit in the plan.
    pub index: usize,
    pub stats: Stats,
    /// Its solutions, when asked to keep them (truncated at the limit).
    pub solutions: Vec<Vec<OptionId>>,
    /// Whether the unit was searched to the end.
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

/// Receives the results of a run. Calls are serialised.
pub trait Observer: Sync {
    /// A unit is finished (or was stopped): its counters, and its
    /// solutions when they are kept (cut short where the limit falls).
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
    stop: AtomicBool,
    reported: Mutex<Reporter>,
    found: AtomicU64,
    nodes: AtomicU64,
    /// Per worker: (share of the unit it runs, fraction of that unit done).
    running: Mutex<Vec<(f64, f64)>>,
    done_share: Mutex<f64>,
    units_done: AtomicUsize,
}

struct Reporter {
    /// Next position in `selected` to report, when ordered.
    next: usize,
    waiting: BTreeMap<usize, UnitResult>,
    emitted: u64,
    stats: Stats,
    complete: bool,
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
        stop: AtomicBool::new(false),
        reported: Mutex::new(Reporter {
            next: 0,
            waiting: BTreeMap::new(),
            emitted: 0,
            stats: Stats::default(),
            complete: true,
        }),
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
            if let Err(e) = worker(problem, engine, w, shared, cfg, observer) {
                shared.stop.store(true, Ordering::Relaxed);
                *failure.lock().unwrap() = Some(e);
            }
        };
        std::thread::scope(|workers| {
            for w in 1..threads_used(threads) {
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
    let stopped = shared.stop.load(Ordering::Relaxed);
    let rep = shared.reported.into_inner().unwrap();
    let cancelled = cfg
        .cancel
        .as_ref()
        .is_some_and(|c| c.load(Ordering::Relaxed));
    let delivered_all = !cfg.ordered || rep.next == selected.len();
    Ok(RunSummary {
        stats: rep.stats,
        solutions: rep.emitted,
        complete: rep.complete
            && delivered_all
            && units_done == selected.len()
            && !stopped
            && !cancelled,
        cancelled,
    })
}

/// A unit's search, watched: its solutions kept (when asked) and counted
/// against the limit, its nodes and position shared at each pause, stopped
/// when the run stops.
struct UnitWatcher<'s, 'p, 'r> {
    shared: &'s Shared<'p>,
    cfg: &'s RunConfig,
    w: usize,
    share: f64,
    solutions: &'r mut Vec<Vec<OptionId>>,
    last_nodes: u64,
}

impl crate::engines::Watcher for UnitWatcher<'_, '_, '_> {
    fn solution(&mut self, s: &[OptionId]) -> bool {
        let n = self.shared.found.fetch_add(1, Ordering::Relaxed) + 1;
        if self.cfg.keep {
            self.solutions.push(s.to_vec());
        }
        if !self.cfg.ordered && self.cfg.limit.is_some_and(|l| n >= l) {
            self.shared.stop.store(true, Ordering::Relaxed);
            return false;
        }
        true
    }

    fn progress(&mut self, nodes: u64, fraction: f64) -> bool {
        self.shared
            .nodes
            .fetch_add(nodes - self.last_nodes, Ordering::Relaxed);
        self.last_nodes = nodes;
        self.shared.running.lock().unwrap()[self.w] = (self.share, fraction);
        !self.shared.stop.load(Ordering::Relaxed)
    }
}

fn worker(
    problem: &Problem,
    engine: EngineKind,
    w: usize,
    shared: &Shared<'_>,
    cfg: &RunConfig,
    observer: &dyn Observer,
) -> Result<(), DescendError> {
    let mut built: Option<Box<dyn Engine + '_>> = None;
    const PAUSE: u64 = 1 << 14;
    loop {
        if shared.stop.load(Ordering::Relaxed)
            || cfg
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Ok(());
        }
        let k = shared.next.fetch_add(1, Ordering::Relaxed);
        if k >= shared.selected.len() {
            return Ok(());
        }
        let index = shared.selected[k];
        let mut result = UnitResult {
            index,
            stats: Stats::default(),
            solutions: Vec::new(),
            complete: true,
        };
        match &shared.plan.units[index] {
            Unit::Solution(s) => {
                result.stats.solutions = 1;
                shared.found.fetch_add(1, Ordering::Relaxed);
                if cfg.keep {
                    result.solutions.push(s.clone());
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
                let mut unit = UnitWatcher {
                    shared,
                    cfg,
                    w,
                    share: *share,
                    solutions: &mut result.solutions,
                    last_nodes: 0,
                };
                let watched = crate::engines::watch(&mut **e, Some(PAUSE), &mut unit);
                let last_nodes = unit.last_nodes;
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
        report(shared, cfg, observer, k, result);
    }
}

/// Hands a unit's result to the observer, in order when asked, cutting at
/// the limit.
fn report(
    shared: &Shared<'_>,
    cfg: &RunConfig,
    observer: &dyn Observer,
    k: usize,
    result: UnitResult,
) {
    let mut rep = shared.reported.lock().unwrap();
    let deliver = |rep: &mut Reporter, mut r: UnitResult| {
        if let Some(l) = cfg.limit {
            let room = l.saturating_sub(rep.emitted);
            if r.stats.solutions > room {
                r.stats.solutions = room;
                r.solutions.truncate(room as usize);
                r.complete = false;
            }
            if rep.emitted + r.stats.solutions >= l {
                shared.stop.store(true, Ordering::Relaxed);
            }
        }
        rep.emitted += r.stats.solutions;
        rep.stats.merge(&r.stats);
        if !r.complete {
            rep.complete = false;
        }
        observer.unit(&r);
    };
    if !cfg.ordered {
        deliver(&mut rep, result);
        return;
    }
    rep.waiting.insert(k, result);
    loop {
        let next = rep.next;
        let Some(r) = rep.waiting.remove(&next) else {
            break;
        };
        rep.next += 1;
        if shared.stop.load(Ordering::Relaxed) && cfg.limit.is_some_and(|l| rep.emitted >= l) {
            continue;
        }
        deliver(&mut rep, r);
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
