//! The pool of a batch on several threads: workers take units of lines in
//! turn, solve them (`Context`), and hand them on in input order through
//! one [`HandOn`], at most `window` units ahead of the output; the calling
//! thread of a batch on one thread does without it (`mod.rs`).

use super::{Answers, BatchError, Context, LineOutcome, Solved_, Tally, Unit};
use std::collections::HashMap;
use std::sync::atomic::Ordering;

/// The workers of a batch on several threads and what they share: the
/// units not taken yet, those done and not handed on yet, and the hand-on.
pub(super) struct Pool<'p, 't, R, E> {
    ctx: &'p Context<'p, R>,
    slots: Vec<std::sync::Mutex<Option<Unit<'t>>>>,
    /// The next unit to take.
    next: std::sync::atomic::AtomicUsize,
    ready: std::sync::Mutex<Ready>,
    /// Told when a unit is handed on, or the batch stops.
    moved: std::sync::Condvar,
    hand: std::sync::Mutex<&'p mut HandOn<E>>,
    /// Set to stop the workers.
    halt: &'p std::sync::atomic::AtomicBool,
    /// A worker does not start a unit this many units or more ahead of
    /// the last handed on.
    window: usize,
}

impl<'p, 't, R, E> Pool<'p, 't, R, E>
where
    R: Fn(usize, &LineOutcome, &mut String) + Sync,
    E: FnMut(Answers) -> std::io::Result<()> + Send,
{
    pub(super) fn new(
        ctx: &'p Context<'p, R>,
        units: Vec<Unit<'t>>,
        halt: &'p std::sync::atomic::AtomicBool,
        hand: &'p mut HandOn<E>,
        window: usize,
    ) -> Self {
        Pool {
            ctx,
            slots: units
                .into_iter()
                .map(|u| std::sync::Mutex::new(Some(u)))
                .collect(),
            next: std::sync::atomic::AtomicUsize::new(0),
            ready: std::sync::Mutex::new(Ready {
                stored: HashMap::new(),
                emitted: 0,
            }),
            moved: std::sync::Condvar::new(),
            hand: std::sync::Mutex::new(hand),
            halt,
            window,
        }
    }

    /// Runs every unit on `threads` workers: this thread is one of them,
    /// `threads - 1` more are started (a batch of a few thousand puzzles
    /// takes a few milliseconds, and a pool's start was a tenth of it);
    /// one that cannot be started leaves its share to the others.
    pub(super) fn run(self, threads: usize) {
        std::thread::scope(|scope| {
            for _ in 1..threads {
                if std::thread::Builder::new()
                    .spawn_scoped(scope, || self.work())
                    .is_err()
                {
                    break;
                }
            }
            self.work();
        });
        // the workers still at a unit stop at their next puzzle
        self.halt.store(true, Ordering::Relaxed);
    }

    /// Stops the workers.
    fn stop(&self) {
        self.halt.store(true, Ordering::Relaxed);
        // a worker waiting for the window looks again
        let _guard = self.ready.lock().unwrap();
        self.moved.notify_all();
    }

    /// Hands on every stored unit that comes next, while this worker holds
    /// the lock; looks again after letting it go, so that a unit stored
    /// meanwhile by a worker that found the lock taken is not left behind.
    fn hand_on(&self) {
        loop {
            let Ok(mut h) = self.hand.try_lock() else {
                return;
            };
            loop {
                if self.halt.load(Ordering::Relaxed) {
                    // stopped: nothing after the stop is handed on
                    return;
                }
                let r = {
                    let mut g = self.ready.lock().unwrap();
                    let at = g.emitted;
                    match g.stored.remove(&at) {
                        Some(r) => r,
                        None => break,
                    }
                };
                let go_on = h.emit(&r);
                drop(r);
                {
                    let mut g = self.ready.lock().unwrap();
                    g.emitted += 1;
                    self.moved.notify_all();
                }
                if !go_on {
                    drop(h);
                    self.stop();
                    return;
                }
            }
            drop(h);
            let g = self.ready.lock().unwrap();
            if self.halt.load(Ordering::Relaxed) || !g.stored.contains_key(&g.emitted) {
                return;
            }
        }
    }

    /// A worker: takes the units in turn, within the window, and hands
    /// them on.
    fn work(&self) {
        let n = self.slots.len();
        loop {
            let k = self.next.fetch_add(1, Ordering::Relaxed);
            if k >= n || self.halt.load(Ordering::Relaxed) {
                return;
            }
            {
                let mut g = self.ready.lock().unwrap();
                while k >= g.emitted + self.window && !self.halt.load(Ordering::Relaxed) {
                    g = self.moved.wait(g).unwrap();
                }
            }
            if self.halt.load(Ordering::Relaxed) {
                return;
            }
            let unit = self.slots[k]
                .lock()
                .unwrap()
                .take()
                .expect("each unit is taken once");
            let r = self.ctx.work(unit);
            self.ready.lock().unwrap().stored.insert(k, r);
            self.hand_on();
        }
    }
}

/// Units done and not yet handed on, by number, and how many were.
struct Ready {
    stored: HashMap<usize, Solved_>,
    emitted: usize,
}

/// Hands units on, in order: the caller's `each`, the tally, and why the
/// batch stopped (`Err(None)`: cancelled, or a unit left out).
pub(super) struct HandOn<E> {
    pub(super) each: E,
    pub(super) tally: Tally,
    pub(super) result: Result<(), Option<BatchError>>,
}

impl<E: FnMut(Answers) -> std::io::Result<()>> HandOn<E> {
    /// Hands a unit's answers on; whether to go on.
    pub(super) fn emit(&mut self, r: &Solved_) -> bool {
        for (_, o, _) in &r.outcomes {
            self.tally.add(o);
        }
        let answers = Answers {
            outcomes: &r.outcomes,
            text: &r.text,
        };
        if let Err(e) = (self.each)(answers) {
            self.result = Err(Some(BatchError::Output(e)));
            return false;
        }
        // an engine that cannot take a puzzle stops the batch there,
        // after the answers before it
        if let Some(e) = &r.error {
            self.result = Err(Some(e.clone().into()));
            return false;
        }
        // what comes after a puzzle left out is left out too: the output
        // stays in input order, with no gap
        if r.stopped {
            self.result = Err(None);
            return false;
        }
        true
    }
}
