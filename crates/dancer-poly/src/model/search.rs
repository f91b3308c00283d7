//! The search: one thread, or the first levels shared out among threads,
//! each solution classified and counted as [`Options`] asks.

use super::{Counts, Cover, Live, Model, Options};
use dancer_core::{Engine, EngineError, EngineKind, OptionId, Watcher};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Blocks of solutions (each of at most [`dancer_core::parallel::BLOCK`]
/// option numbers) found by the workers ahead of the thread that takes
/// them, at most.
const AHEAD: usize = 4;

impl Model {
    /// Searches, sending each solution (as placements) to `emit`, which
    /// returns false to stop.
    pub fn solve(
        &self,
        opts: &Options,
        emit: impl FnMut(&[usize]) -> bool,
    ) -> Result<Counts, dancer_core::EngineError> {
        let cover = self.search_cover(opts.symmetry_breaking);
        if opts.limit == Some(0) || opts.threads > 1 {
            let kind = opts.engine.resolve(&cover.problem)?;
            if opts.limit == Some(0) {
                // nothing to report: no search
                return Ok(Counts {
                    engine: Some(kind),
                    ..Counts::default()
                });
            }
            return self.solve_threads(opts, &cover, kind, emit);
        }
        let (kind, mut engine, early) = start(opts, &cover)?;
        /// Each solution classified, counted and emitted; the live view
        /// told where the search is at each pause.
        struct Taker<'m, 'o, F> {
            model: &'m Model,
            opts: &'o Options,
            cover: &'o Cover,
            sol: Vec<usize>,
            counts: Counts,
            emit: F,
        }
        impl<F: FnMut(&[usize]) -> bool> dancer_core::Watcher for Taker<'_, '_, F> {
            fn solution(&mut self, options: &[dancer_core::OptionId]) -> bool {
                let (opts, cover) = (self.opts, self.cover);
                !self.model.take(
                    opts,
                    cover,
                    options,
                    &mut self.sol,
                    &mut self.counts,
                    &mut self.emit,
                )
            }
            fn progress(&mut self, nodes: u64, fraction: f64) -> bool {
                if let Some(l) = &self.opts.live {
                    l.set(nodes, fraction);
                }
                true
            }
        }
        let mut taker = Taker {
            model: self,
            opts,
            cover: &cover,
            sol: Vec::new(),
            counts: Counts::default(),
            emit,
        };
        let every = opts.live.is_some().then_some(Live::EVERY);
        // the solutions of a trial first (see `start`), then the rest
        let replayed = early.iter().all(|o| taker.solution(o));
        let watched = match replayed {
            true => dancer_core::watch(&mut *engine, every, &mut taker),
            false => dancer_core::Watched {
                complete: false,
                stopped: true,
            },
        };
        let mut counts = taker.counts;
        if let Some(l) = &opts.live {
            l.set(
                engine.stats().nodes,
                if engine.is_complete() {
                    1.0
                } else {
                    engine.position()
                },
            );
        }
        counts.nodes = engine.stats().nodes;
        counts.engine = Some(kind);
        counts.complete = watched.complete;
        Ok(counts)
    }

    /// The search on `opts.threads` workers: the tree is cut into units
    /// (see `dancer_core::parallel`), their solutions come back in the
    /// sequential order, through a queue of [`AHEAD`] blocks that holds
    /// the workers up while it is full, and are classified and emitted
    /// here, on the calling thread. Once `emit` or the limit stops the
    /// search, the queue is closed and the workers stop at their next
    /// solution or pause.
    fn solve_threads(
        &self,
        opts: &Options,
        cover: &Cover,
        kind: EngineKind,
        mut emit: impl FnMut(&[usize]) -> bool,
    ) -> Result<Counts, dancer_core::EngineError> {
        use dancer_core::parallel::UnitResult;
        use dancer_core::parallel::{self, Observer, Progress, RunConfig, SolutionBlock};
        use std::sync::atomic::Ordering;
        use std::sync::mpsc;
        use std::sync::Mutex;

        /// Sends the solutions to the thread that emits them, and passes
        /// the caller's cancellation on to the run.
        struct Forward<'a> {
            tx: Mutex<Option<mpsc::SyncSender<SolutionBlock>>>,
            user: Option<&'a AtomicBool>,
            halt: &'a AtomicBool,
        }
        impl Observer for Forward<'_> {
            fn solutions(&self, _index: usize, block: &SolutionBlock) {
                let mut tx = self.tx.lock().unwrap();
                // the receiver hangs up once it wants no more: stop
                if tx.as_ref().is_some_and(|t| t.send(block.clone()).is_err()) {
                    *tx = None;
                    self.halt.store(true, Ordering::Relaxed);
                }
            }
            fn unit(&self, _r: &UnitResult) {}
            fn progress(&self, _p: &Progress) {
                if self.user.is_some_and(|u| u.load(Ordering::Relaxed)) {
                    self.halt.store(true, Ordering::Relaxed);
                }
            }
        }

        let plan = parallel::plan_for(
            &cover.problem,
            kind,
            opts.threads,
            parallel::Purpose::Threads,
        )?;
        let selected: Vec<usize> = (0..plan.units.len()).collect();
        let halt = Arc::new(AtomicBool::new(false));
        let cfg = RunConfig {
            engine: kind,
            threads: opts.threads,
            ordered: true,
            limit: None,
            cancel: Some(halt.clone()),
            keep: true,
            tick: std::time::Duration::from_millis(100),
        };
        let (tx, rx) = mpsc::sync_channel(AHEAD);
        let observer = Forward {
            tx: Mutex::new(Some(tx)),
            user: opts.cancel.as_deref(),
            halt: &halt,
        };
        let mut counts = Counts::default();
        let mut stopped = false;
        let mut sol: Vec<usize> = Vec::new();
        let summary = std::thread::scope(|scope| {
            let run = scope.spawn(|| {
                let r = parallel::run(&cover.problem, &plan, &selected, &cfg, &observer);
                // ends the receiving loop below
                drop(observer);
                r
            });
            'blocks: for block in &rx {
                for options in block.iter() {
                    if self.take(opts, cover, options, &mut sol, &mut counts, &mut emit) {
                        stopped = true;
                        halt.store(true, Ordering::Relaxed);
                        break 'blocks;
                    }
                }
            }
            // a worker blocked on a full queue fails its send and stops
            drop(rx);
            run.join().expect("the search thread does not panic")
        })?;
        counts.nodes = plan.top.nodes + summary.stats.nodes;
        counts.engine = Some(kind);
        counts.complete = !stopped && summary.complete;
        Ok(counts)
    }

    /// Classifies one solution of the cover (its options), counts it and
    /// emits it (or its class, one member at a time). True when the search
    /// is to stop: `emit` said so, or the limit is reached.
    fn take(
        &self,
        opts: &Options,
        cover: &Cover,
        options: &[dancer_core::OptionId],
        sol: &mut Vec<usize>,
        counts: &mut Counts,
        emit: &mut impl FnMut(&[usize]) -> bool,
    ) -> bool {
        let restriction = cover.restriction.as_ref();
        let limit = opts.limit.unwrap_or(u64::MAX);
        sol.clear();
        sol.extend(
            (options.iter().map(|&o| cover.options[o].0))
                .filter(|&q| q != super::HOLE)
                .map(|q| q as usize),
        );
        sol.sort_unstable();
        let (rep, size) = self.classify(sol, restriction);
        if restriction.is_some() {
            // the restricted search finds each class once, by its
            // representative
            if !rep {
                return false;
            }
            counts.unique += 1;
            if opts.unique {
                counts.total += size;
                return !emit(sol) || counts.unique >= limit;
            }
            for img in self.class_of(sol) {
                counts.total += 1;
                if !emit(&img) || counts.total >= limit {
                    return true;
                }
            }
            false
        } else {
            counts.total += 1;
            if rep {
                counts.unique += 1;
            }
            if opts.unique {
                rep && (!emit(sol) || counts.unique >= limit)
            } else {
                !emit(sol) || counts.total >= limit
            }
        }
    }
}

/// A sequential search's engine, with the solutions it has found already:
/// with `auto` and no limit, `bitmrv` tries the tree first
/// ([`dancer_core::engines::trial`]; a BurrTools puzzle's tree of a few
/// hundred nodes is searched in the time `auto` would take to weigh it),
/// and goes on when it ran the whole tree or when `auto` picks it; else
/// the engine `opts` asks for, from the start. (With a limit there is no
/// trial: the search stops at the limit's solution, and its node count
/// says so.)
#[allow(clippy::type_complexity)]
fn start<'c>(
    opts: &Options,
    cover: &'c Cover,
) -> Result<(EngineKind, Box<dyn Engine + 'c>, Vec<Vec<OptionId>>), EngineError> {
    let problem = &cover.problem;
    let trial = match opts.engine == EngineKind::Auto && opts.limit.is_none() {
        true => dancer_core::engines::trial(problem, opts.cancel.clone()),
        false => None,
    };
    let kind = match &trial {
        Some(t) if t.complete => EngineKind::BitMrv,
        _ => opts.engine.resolve(problem)?,
    };
    if let Some(t) = trial.filter(|_| kind == EngineKind::BitMrv) {
        return Ok((kind, t.engine, t.solutions));
    }
    let mut engine = kind.build(problem)?;
    if let Some(c) = &opts.cancel {
        engine.set_cancel(c.clone());
    }
    Ok((kind, engine, Vec::new()))
}
