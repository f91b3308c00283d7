//! # The hand-on: from the workers to the observer, in bounded memory
//!
//! Workers find solutions; the [`Observer`] takes them a block at a time
//! ([`Observer::solutions`]), then each unit's end ([`Observer::unit`]),
//! under one lock, so its calls are serialised. Nothing between the two
//! grows with the number of solutions: an observer that takes its time (a
//! full pipe, a Python loop, a disassembler) holds the workers up instead
//! of letting them pile solutions up.
//!
//! - **Blocks.** A worker collects its unit's solutions in a
//!   [`SolutionBlock`] (flat: every option number in one vector, and where
//!   each solution ends), and hands the block on when it weighs
//!   [`BLOCK`] (option numbers and solutions together), and at the unit's
//!   end. A block is handed on under the lock, so a worker whose observer
//!   blocks waits, and so do the others at their next block.
//! - **Order.** Unordered, a full block is handed on at once. Ordered, the
//!   *head* is the first selected unit not yet handed on in full: the
//!   worker searching it hands its blocks on at once; any other worker
//!   keeps its blocks, and keeps units that end before the head's waiting,
//!   within one budget for all of them ([`HELD`]); when it is spent, a
//!   worker waits until its unit is the head, or the run stops, and a
//!   worker does not start a unit while it is spent. When the head's unit
//!   ends, the units after it that have ended are handed on in turn.
//! - **The limit** is counted where solutions are handed on: the block
//!   where it falls is cut there, and the run stops; every worker sees it
//!   at its next solution or pause.
//!
//! Why the ordered run never deadlocks: the worker of the head never waits
//! for the budget, and the head always has a worker or has ended. Units
//! are taken from one counter in order, so every unit before the
//! counter's position is some worker's, or has ended; a worker waiting
//! for the budget holds a unit after the head. A wait also ends every
//! [`WAKE`] to look at the cancel flag, which a signal handler sets
//! without waking anyone.
//!
//! Memory: at most [`HELD`] held back for order, and [`BLOCK`] more for
//! each worker's block in hand (the budget is taken a block at a time).

use super::observe::{Observer, RunConfig, SolutionBlock, UnitResult};
use crate::stats::Stats;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// The weight of a block a worker hands on (or takes from the budget) at
/// once.
pub const BLOCK: usize = 1 << 12;

/// The weight of the solutions held back for order, at most (about 8 MiB
/// of option numbers), beyond a block in each worker's hands.
pub const HELD: usize = 1 << 20;

/// How often a worker waiting for its turn looks at the cancel flag.
pub const WAKE: Duration = Duration::from_millis(20);

/// A unit that ended before its turn, with what it found.
struct Ended {
    result: UnitResult,
    block: SolutionBlock,
    /// Its solutions handed on while it was the head.
    handed: u64,
}

/// What has been handed on, under the lock.
struct Reporter {
    /// Ordered: the position in `selected` of the head.
    next: usize,
    /// Ordered: units ended ahead of the head, by position.
    waiting: BTreeMap<usize, Ended>,
    /// Ordered: the weight held back (in `waiting`, and taken from the
    /// budget by the workers for their blocks).
    held: usize,
    /// Solutions handed on.
    emitted: u64,
    stats: Stats,
    complete: bool,
}

/// A worker's unit in hand: its position, its plan index, its block, and
/// what of it is handed on or counted in the budget.
pub(super) struct InHand {
    pub k: usize,
    pub index: usize,
    pub block: SolutionBlock,
    /// Weight of `block` counted in the budget (ordered, not the head).
    pub reserved: usize,
    /// Solutions of this unit handed on so far.
    pub handed: u64,
}

impl InHand {
    pub fn new(k: usize, index: usize) -> InHand {
        InHand {
            k,
            index,
            block: SolutionBlock::default(),
            reserved: 0,
            handed: 0,
        }
    }

    /// Whether the block is due to be handed on (or its weight taken from
    /// the budget).
    pub fn due(&self) -> bool {
        self.block.weight() - self.reserved >= BLOCK
    }
}

/// How a run's results reach the observer (see the module's prose).
pub(super) struct HandOn<'a> {
    cfg: &'a RunConfig,
    observer: &'a dyn Observer,
    rep: Mutex<Reporter>,
    /// Signalled when the head moves, the budget is freed, or the run stops.
    turn: Condvar,
    /// The run stops: the limit was reached, or a worker failed.
    pub stop: AtomicBool,
}

/// What the hand-on came to when the run is over.
pub(super) struct HandedOn {
    pub emitted: u64,
    pub stats: Stats,
    /// Every unit handed on was complete.
    pub complete: bool,
    /// Ordered: the head reached the end of the selection.
    pub next: usize,
}

impl<'a> HandOn<'a> {
    pub fn new(cfg: &'a RunConfig, observer: &'a dyn Observer) -> HandOn<'a> {
        HandOn {
            cfg,
            observer,
            rep: Mutex::new(Reporter {
                next: 0,
                waiting: BTreeMap::new(),
                held: 0,
                emitted: 0,
                stats: Stats::default(),
                complete: true,
            }),
            turn: Condvar::new(),
            stop: AtomicBool::new(false),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Reporter> {
        self.rep.lock().expect("no thread panics holding it")
    }

    /// Whether the run is to stop: the limit, a failure, the cancel flag.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || (self.cfg.cancel.as_ref()).is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Stops the run and wakes every waiting worker.
    pub fn halt(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.turn.notify_all();
    }

    /// Before a worker starts the unit at position `k`: waits while the
    /// budget is spent and `k` is not the head (ordered). False when the
    /// run stops.
    pub fn may_start(&self, k: usize) -> bool {
        if !self.cfg.ordered || !self.cfg.keep {
            return !self.stopped();
        }
        let mut rep = self.lock();
        loop {
            if self.stopped() {
                return false;
            }
            if rep.next == k || rep.held < HELD {
                return true;
            }
            rep = self.wait(rep);
        }
    }

    fn wait<'g>(&self, rep: MutexGuard<'g, Reporter>) -> MutexGuard<'g, Reporter> {
        let (rep, _) = (self.turn.wait_timeout(rep, WAKE)).expect("no thread panics holding it");
        rep
    }

    /// A worker's block is due ([`InHand::due`]): handed on now
    /// (unordered, or the head's), or kept within the budget (waiting
    /// while it is spent). False when the run is to stop.
    pub fn block_due(&self, unit: &mut InHand) -> bool {
        let mut rep = self.lock();
        loop {
            if self.stopped() {
                return false;
            }
            if !self.cfg.ordered || rep.next == unit.k {
                let freed = std::mem::take(&mut unit.reserved);
                rep.held -= freed;
                unit.handed += self.hand_block(&mut rep, unit.index, &mut unit.block);
                if freed > 0 {
                    self.turn.notify_all();
                }
                return !self.stopped();
            }
            let more = unit.block.weight() - unit.reserved;
            if rep.held + more <= HELD || rep.held == 0 {
                rep.held += more;
                unit.reserved += more;
                return true;
            }
            rep = self.wait(rep);
        }
    }

    /// A unit has ended (complete or not): handed on with its last block
    /// when its turn has come, else kept until then. Ordered, a unit
    /// that gave nothing before the limit was reached is not handed on.
    pub fn unit_ended(&self, mut unit: InHand, result: UnitResult) {
        let mut rep = self.lock();
        if !self.cfg.ordered {
            self.hand_unit(&mut rep, result, &mut unit.block, unit.handed);
            return;
        }
        rep.held += unit.block.weight() - unit.reserved;
        let ended = Ended {
            result,
            block: unit.block,
            handed: unit.handed,
        };
        rep.waiting.insert(unit.k, ended);
        // this unit and those after it that ended before their turn
        loop {
            let next = rep.next;
            let Some(mut ended) = rep.waiting.remove(&next) else {
                break;
            };
            rep.next += 1;
            rep.held -= ended.block.weight();
            let past = self.cfg.limit.is_some_and(|l| rep.emitted >= l) && ended.handed == 0;
            if !past {
                let handed = ended.handed;
                self.hand_unit(&mut rep, ended.result, &mut ended.block, handed);
            }
        }
        self.turn.notify_all();
    }

    /// Hands a block on, cut where the limit falls; its solutions handed
    /// on. The block is left empty.
    fn hand_block(&self, rep: &mut Reporter, index: usize, block: &mut SolutionBlock) -> u64 {
        if let Some(l) = self.cfg.limit {
            let room = l.saturating_sub(rep.emitted);
            block.truncate(usize::try_from(room).unwrap_or(usize::MAX));
        }
        let n = block.len() as u64;
        if n > 0 {
            self.observer.solutions(index, block);
        }
        rep.emitted += n;
        block.clear();
        if self.cfg.limit.is_some_and(|l| rep.emitted >= l) {
            self.halt();
        }
        n
    }

    /// Hands a unit's end on: its last block (kept solutions), its
    /// counters with the solutions it gave (cut at the limit).
    fn hand_unit(
        &self,
        rep: &mut Reporter,
        mut result: UnitResult,
        block: &mut SolutionBlock,
        handed: u64,
    ) {
        let found = result.stats.solutions;
        let given = if self.cfg.keep {
            handed + self.hand_block(rep, result.index, block)
        } else {
            let room = (self.cfg.limit).map_or(found, |l| l.saturating_sub(rep.emitted));
            let n = found.min(room);
            rep.emitted += n;
            if self.cfg.limit.is_some_and(|l| rep.emitted >= l) {
                self.halt();
            }
            n
        };
        if given < found {
            result.complete = false;
        }
        result.stats.solutions = given;
        rep.stats.merge(&result.stats);
        if !result.complete {
            rep.complete = false;
        }
        self.observer.unit(&result);
    }

    /// What was handed on, once the workers are done.
    pub fn finish(self) -> HandedOn {
        let rep = self.rep.into_inner().expect("no thread panics holding it");
        HandedOn {
            emitted: rep.emitted,
            stats: rep.stats,
            complete: rep.complete,
            next: rep.next,
        }
    }
}
