//! # One run plan
//!
//! A search run is asked for in many words (an engine or `auto`, memos or
//! not, a limit, threads, a checkpoint to resume, a shard, a checkpoint
//! cadence) and decided here, once, into a [`RunPlan`]: as ripgrep turns
//! its flags into one resolved struct before anything runs. Every front
//! end fills a [`RunOptions`] from its own words (flags, JSON fields,
//! Python arguments) and gets back the same decisions:
//!
//! - a count with memos ([`RunPlan::Memo`]) when memos are asked for, or
//!   when `auto` counts and the counter certainly pays
//!   ([`dancer_core::memo::choose`]: the engines' costs are weighed once,
//!   for both questions);
//! - otherwise a split search ([`RunPlan::Search`]) with one concrete
//!   engine: the one asked for, `auto`'s pick, or, resuming with `auto`,
//!   the engine that saved the checkpoint ([`Saved::engine_for`]). The
//!   engine is resolved here and nowhere after: the split and the workers
//!   only check that it takes the problem.
//!
//! [`SearchRun::run`] then runs the plan: the units on threads
//! ([`dancer_core::parallel::run`]), each finished unit handed to the
//! front end's [`RunHooks`], the checkpoint kept and handed out to be
//! saved at its cadence and once more at the end, the counters added up
//! with the top of the tree and the units of a resumed run, and a shard's
//! result record made. The library decides; the hooks print and write.

use crate::search::{Checkpoint, Saved, ShardSpec, Split, SplitError, SplitOptions};
use dancer_core::memo::CountWith;
use dancer_core::parallel::{self, Observer, Progress, RunConfig, SolutionBlock, Stop, UnitResult};
use dancer_core::{EngineError, EngineKind, Problem, Stats, VerifyError};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What a search run is asked to do, in the front end's terms resolved
/// to values (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// The engine asked for (`Auto`: chosen here).
    pub engine: EngineKind,
    /// Only the number of solutions is wanted (no solution is printed).
    pub count: bool,
    /// Count with memos, whatever `auto` would do.
    pub memo: bool,
    /// The most memory the memos may take, in bytes (`None`: the default,
    /// [`dancer_core::memo::default_memory`]).
    pub memo_memory: Option<u64>,
    /// Stop after this many solutions.
    pub limit: Option<u64>,
    /// Worker threads.
    pub threads: usize,
    /// Solutions in the order of the sequential search.
    pub ordered: bool,
    /// Every solution is to be checked (so kept, even when counting).
    pub verify: bool,
    /// Go on from this checkpoint.
    pub resume: Option<Saved>,
    /// Run only this part of the search.
    pub shard: Option<ShardSpec>,
    /// Save checkpoints about this often (`None`: no checkpoints).
    pub checkpoint_every: Option<Duration>,
    /// Set from outside to stop the run (a signal, a closed page).
    pub cancel: Option<Arc<AtomicBool>>,
    /// How often the hooks hear of the progress.
    pub tick: Duration,
}

/// Why a run cannot be planned as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// Memos were asked for with an engine: the counter has its own
    /// search.
    #[error("the memoizing counter has its own search: it takes no engine ({0} asked for)")]
    MemoWithEngine(EngineKind),
    /// Memos were asked for something the counter does not do.
    #[error("the memoizing counter only counts: {0}")]
    MemoCannot(&'static str),
    /// The memos' cap is more than this process can get: the memos take
    /// up to about twice their cap.
    #[error("a memo cap of {asked} bytes is more than half of the {left} bytes this process can still get")]
    MemoMemory { asked: u64, left: u64 },
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Split(#[from] SplitError),
}

/// A run, decided.
pub enum RunPlan {
    /// Count with memos (one thread; a part of the count when sharded).
    Memo(MemoRun),
    /// A split search with one engine.
    Search(Box<SearchRun>),
}

/// A memoized count, decided: run it with [`dancer_core::memo::count`]
/// (or `count_to_zdd`) and [`MemoRun::options`].
#[derive(Clone, Debug)]
pub struct MemoRun {
    /// The cap of the memos, in bytes.
    pub memory: u64,
    /// The part (K, N) to count, when sharded.
    pub part: Option<(usize, usize)>,
    /// Whether the memos were asked for (`false`: `auto` chose them).
    pub asked: bool,
    cancel: Option<Arc<AtomicBool>>,
}

impl MemoRun {
    /// The counter's options for this run, with `progress` to watch it.
    pub fn options(
        &self,
        progress: Option<Arc<dancer_core::memo::MemoProgress>>,
    ) -> dancer_core::memo::MemoOptions {
        dancer_core::memo::MemoOptions {
            memory: usize::try_from(self.memory).unwrap_or(usize::MAX),
            cancel: self.cancel.clone(),
            check: false,
            progress,
            part: self.part,
        }
    }
}

/// A split search, decided: the engine, the units, the workers' settings
/// and the checkpoint cadence.
pub struct SearchRun {
    /// The engine, resolved (never `Auto`).
    pub engine: EngineKind,
    /// The plan of units and those this run searches.
    pub split: Split,
    /// The workers' settings.
    pub config: RunConfig,
    /// Checkpoints about this often, when saved.
    pub checkpoint_every: Option<Duration>,
    /// Every solution is checked against the problem
    /// ([`dancer_core::verify`]), not the engine, before it is handed out.
    pub verify: bool,
}

impl RunOptions {
    /// Whether `auto` may count with memos: a count with nothing the
    /// counter does not take (a limit, checkpoints, shards, ordered or
    /// verified solutions).
    fn auto_may_memo(&self) -> bool {
        self.count
            && self.engine == EngineKind::Auto
            && self.limit.is_none()
            && self.checkpoint_every.is_none()
            && self.resume.is_none()
            && self.shard.is_none()
            && !self.ordered
            && !self.verify
    }

    /// Decides the run of `problem` (see the module documentation).
    pub fn plan(self, problem: &Problem) -> Result<RunPlan, PlanError> {
        if self.memo {
            return self.memo_run(true).map(RunPlan::Memo);
        }
        let mut chosen = None;
        if self.auto_may_memo() {
            // a trial of the count runs with the memory and the cancel
            // flag the count would have
            let trial = dancer_core::memo::MemoOptions {
                memory: usize::try_from(memo_memory(self.memo_memory)?).unwrap_or(usize::MAX),
                cancel: self.cancel.clone(),
                ..Default::default()
            };
            match dancer_core::memo::choose(problem, &trial) {
                CountWith::Memo => return self.memo_run(false).map(RunPlan::Memo),
                CountWith::Engine(e) => chosen = Some(e),
            }
        }
        // a resumed run with `auto` goes on with the checkpoint's engine
        let engine = match (&self.resume, self.engine, chosen) {
            (Some(saved), EngineKind::Auto, _) => saved.engine_for(problem),
            (_, _, Some(e)) => e,
            (_, asked, None) => asked.resolve(problem)?,
        };
        let config = RunConfig {
            engine,
            threads: self.threads,
            ordered: self.ordered,
            limit: self.limit,
            cancel: self.cancel.clone(),
            keep: !self.count || self.verify,
            tick: self.tick,
        };
        let split = Split::new(
            problem,
            engine,
            SplitOptions {
                threads: self.threads,
                shard: self.shard,
                checkpoints: self.checkpoint_every.is_some() || self.resume.is_some(),
                resume: self.resume,
            },
        )?;
        Ok(RunPlan::Search(Box::new(SearchRun {
            engine,
            split,
            config,
            checkpoint_every: self.checkpoint_every,
            verify: self.verify,
        })))
    }

    fn memo_run(&self, asked: bool) -> Result<MemoRun, PlanError> {
        if asked && self.engine != EngineKind::Auto {
            return Err(PlanError::MemoWithEngine(self.engine));
        }
        for (no, what) in [
            (self.count, "it finds no solutions to show"),
            (self.limit.is_none(), "it takes no limit"),
            (self.checkpoint_every.is_none(), "it saves no checkpoints"),
            (self.resume.is_none(), "it resumes no checkpoint"),
            (!self.ordered, "it lists no solutions in order"),
            (!self.verify, "it finds no solutions to verify"),
        ] {
            if !no {
                return Err(PlanError::MemoCannot(what));
            }
        }
        Ok(MemoRun {
            memory: memo_memory(self.memo_memory)?,
            part: self.shard.map(|s| (s.k, s.n)),
            asked,
            cancel: self.cancel.clone(),
        })
    }
}

/// The memos' cap as asked: refused when twice it is more than this
/// process can get under its address-space (`ulimit -v`) or cgroup limit
/// (the cache would grow until the process is aborted or killed: a cache
/// of long counts takes up to about twice its cap in the process).
fn memo_memory(asked: Option<u64>) -> Result<u64, PlanError> {
    let Some(m) = asked else {
        return Ok(dancer_core::memo::default_memory() as u64);
    };
    let limits = dancer_core::memory::Limits::read();
    let hard = [limits.address_space_left, limits.cgroup_left]
        .into_iter()
        .flatten()
        .min();
    match hard.filter(|&left| m.saturating_mul(2) > left) {
        Some(left) => Err(PlanError::MemoMemory { asked: m, left }),
        None => Ok(m),
    }
}

/// What a front end does with a running search: it prints, it draws, it
/// writes files; the run decides when.
pub trait RunHooks: Sync {
    /// Solutions of the unit `index`, a block at a time, as they are
    /// found (in the order asked for, never past the limit), when they
    /// are kept: the run waits while this runs, so that nothing piles up.
    fn solutions(&self, index: usize, block: &SolutionBlock) {
        let _ = (index, block);
    }
    /// A unit is finished (or was stopped): its counters, after its
    /// solutions.
    fn unit(&self, r: &UnitResult);
    /// Where the run is, about every tick.
    fn progress(&self, _p: &Progress) {}
    /// Whether [`progress`](Self::progress) does anything (when it does
    /// not, no thread is started to call it).
    fn wants_progress(&self) -> bool {
        false
    }
    /// A checkpoint to save now: what the units handed to
    /// [`unit`](Self::unit) so far found (they must be on their way
    /// before the checkpoint is written).
    fn save(&self, _checkpoint: &Saved) {}
}

/// How a search run ended.
pub struct SearchOutcome {
    /// The counters of the whole search (or shard): the top of the tree
    /// once, the units run now and those run before a resume; `elapsed`
    /// is this run's.
    pub stats: Stats,
    /// Every unit was searched to its end.
    pub complete: bool,
    /// Why it ended early.
    pub stopped: Option<Stop>,
    /// This shard's result record, when the run is a shard.
    pub shard: Option<Saved>,
    /// Solutions verified, when asked for.
    pub verified: Option<u64>,
    /// The first solution that failed verification (an engine's bug), and
    /// why; it was handed out all the same.
    pub invalid: Option<(Vec<usize>, VerifyError)>,
}

/// What verification found as units came in.
#[derive(Default)]
struct Verified {
    count: u64,
    invalid: Option<(Vec<usize>, VerifyError)>,
}

/// Hands units to the front end, and the checkpoint when it is due.
struct Saving<'h> {
    hooks: &'h dyn RunHooks,
    /// The problem, when its solutions are verified.
    verify: Option<&'h Problem>,
    verified: Mutex<Verified>,
    checkpoint: Option<Mutex<Checkpoint>>,
    start: Instant,
}

impl Saving<'_> {
    fn save(&self, complete: bool, stopped: Option<Stop>) {
        if let Some(cp) = &self.checkpoint {
            let mut cp = cp.lock().expect("no thread panics holding it");
            let saved = cp.saved(complete, stopped, self.start.elapsed().as_secs_f64());
            self.hooks.save(&saved);
        }
    }
}

impl Observer for Saving<'_> {
    fn solutions(&self, index: usize, block: &SolutionBlock) {
        if let Some(problem) = self.verify {
            let (mut ok, mut bad) = (0, None);
            for sol in block.iter() {
                match dancer_core::verify(problem, sol) {
                    Ok(()) => ok += 1,
                    Err(e) => _ = bad.get_or_insert((sol.to_vec(), e)),
                }
            }
            let mut v = self.verified.lock().expect("no thread panics holding it");
            v.count += ok;
            if v.invalid.is_none() {
                v.invalid = bad;
            }
        }
        self.hooks.solutions(index, block);
    }

    fn unit(&self, r: &UnitResult) {
        self.hooks.unit(r);
        if let Some(cp) = &self.checkpoint {
            let mut cp = cp.lock().expect("no thread panics holding it");
            if cp.record(r) {
                let saved = cp.saved(false, None, self.start.elapsed().as_secs_f64());
                self.hooks.save(&saved);
            }
        }
    }

    fn progress(&self, p: &Progress) {
        self.hooks.progress(p);
    }

    fn wants_progress(&self) -> bool {
        self.hooks.wants_progress()
    }
}

/// The counters' sum does not fit: refused, never wrapped.
pub use crate::search::CountOverflow;

/// Why a search run failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Overflow(#[from] CountOverflow),
}

impl SearchRun {
    /// Runs the search of `problem` (the problem it was planned for),
    /// handing units and checkpoints to `hooks`.
    pub fn run(&self, problem: &Problem, hooks: &dyn RunHooks) -> Result<SearchOutcome, RunError> {
        let start = Instant::now();
        let saving = Saving {
            hooks,
            verify: self.verify.then_some(problem),
            verified: Mutex::default(),
            checkpoint: self
                .checkpoint_every
                .map(|every| Mutex::new(self.split.checkpoint(every))),
            start,
        };
        let summary = parallel::run(
            problem,
            &self.split.plan,
            &self.split.selected,
            &self.config,
            &saving,
        )?;
        let elapsed = start.elapsed();
        let stopped = summary.stopped();
        let mut stats = self.split.totals(&summary.stats)?;
        stats.elapsed = elapsed;
        // a final checkpoint: complete, interrupted, or stopped at the limit
        saving.save(summary.complete, stopped);
        let shard = self.split.shard.map(|_| {
            self.split
                .shard_result(&stats, stopped, elapsed.as_secs_f64())
        });
        let verified = saving.verified.into_inner().expect("the run is over");
        Ok(SearchOutcome {
            stats,
            complete: summary.complete,
            stopped,
            shard,
            verified: self.verify.then_some(verified.count),
            invalid: verified.invalid,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dancer_core::classic::queens;

    fn search(plan: RunPlan) -> SearchRun {
        match plan {
            RunPlan::Search(s) => *s,
            RunPlan::Memo(_) => panic!("a search was expected"),
        }
    }

    /// Collects what a run hands out.
    #[derive(Default)]
    struct Collect {
        solutions: Mutex<Vec<Vec<usize>>>,
        saved: Mutex<Vec<Saved>>,
    }

    impl RunHooks for Collect {
        fn solutions(&self, _index: usize, block: &SolutionBlock) {
            let mut all = self.solutions.lock().unwrap();
            all.extend(block.iter().map(|s| s.to_vec()));
        }
        fn unit(&self, _r: &UnitResult) {}
        fn save(&self, checkpoint: &Saved) {
            self.saved.lock().unwrap().push(checkpoint.clone());
        }
    }

    /// The memos are refused with an engine or with what they cannot do,
    /// taken for a count with nothing else asked, and capped as asked.
    #[test]
    fn memos_are_planned_or_refused() {
        let p = queens(6);
        let count = RunOptions {
            count: true,
            memo: true,
            threads: 1,
            ..Default::default()
        };
        let with_engine = RunOptions {
            engine: EngineKind::Dlx,
            ..count.clone()
        };
        assert_eq!(
            with_engine.plan(&p).err(),
            Some(PlanError::MemoWithEngine(EngineKind::Dlx))
        );
        let with_limit = RunOptions {
            limit: Some(3),
            ..count.clone()
        };
        assert!(matches!(with_limit.plan(&p), Err(PlanError::MemoCannot(_))));
        let capped = RunOptions {
            memo_memory: Some(1 << 20),
            shard: Some(ShardSpec { k: 2, n: 3 }),
            ..count
        };
        match capped.plan(&p) {
            Ok(RunPlan::Memo(m)) => {
                assert_eq!((m.memory, m.part, m.asked), (1 << 20, Some((2, 3)), true));
                let r = dancer_core::memo::count(&p, &m.options(None)).unwrap();
                assert!(r.complete);
            }
            _ => panic!("a memoized count was expected"),
        }
    }

    /// A search plan has a concrete engine; run, it finds every solution
    /// (each verified), and a checkpointed run hands out a final, complete
    /// checkpoint that resumes to nothing left; a resumed run with `auto`
    /// goes on with the checkpoint's engine.
    #[test]
    fn a_planned_search_runs_saves_and_resumes() {
        let p = queens(7);
        let asked = RunOptions {
            threads: 2,
            checkpoint_every: Some(Duration::from_secs(3600)),
            ..Default::default()
        };
        let run = search(asked.clone().plan(&p).unwrap());
        assert_ne!(run.engine, EngineKind::Auto);
        let hooks = Collect::default();
        let ran = run.run(&p, &hooks).unwrap();
        assert!(ran.complete && ran.stopped.is_none() && ran.shard.is_none());
        let solutions = hooks.solutions.into_inner().unwrap();
        assert_eq!((ran.stats.solutions, solutions.len()), (40, 40));
        for s in &solutions {
            dancer_core::verify(&p, s).unwrap();
        }
        let saved = hooks.saved.into_inner().unwrap();
        let last = saved.last().expect("a final checkpoint");
        assert!(last.complete);
        let resumed = RunOptions {
            engine: EngineKind::Auto,
            resume: Some(last.clone()),
            ..asked
        };
        let again = search(resumed.plan(&p).unwrap());
        assert_eq!(again.engine.name(), last.engine);
        assert!(again.split.selected.is_empty(), "nothing left to search");
        let ran = again.run(&p, &Collect::default()).unwrap();
        assert_eq!(ran.stats.solutions, 40, "the counts of the run resumed");
    }

    /// A shard's run makes its result record; the shards of a search add
    /// up to the whole.
    #[test]
    fn shards_of_a_planned_search_add_up() {
        let p = queens(8);
        let mut total = 0;
        for k in 1..=3 {
            let asked = RunOptions {
                engine: EngineKind::Dlx,
                count: true,
                threads: 1,
                shard: Some(ShardSpec { k, n: 3 }),
                ..Default::default()
            };
            let ran = search(asked.plan(&p).unwrap())
                .run(&p, &Collect::default())
                .unwrap();
            let shard = ran.shard.expect("a shard result");
            assert_eq!(shard.shard, Some(k));
            total += ran.stats.solutions;
        }
        assert_eq!(total, 92);
    }
}
