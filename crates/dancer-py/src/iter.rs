//! `SolutionIter`: solutions found on a worker thread ahead of the caller
//! (the engine's search for `Problem.solutions`, a ZDD's paths for
//! iterating a `Zdd`), handed out as the caller's own options; dropping
//! the iterator, or `close()`, stops the worker.
//!
//! The two threads share a bounded queue ([`Queue`]: a mutex, two
//! condition variables). The caller takes a waiting solution without
//! releasing the GIL or sleeping; only when the queue is empty does it
//! release the GIL and wait, in slices of [`crate::wait::SLICE`] with a
//! look at the signals between them. The worker wakes the caller only
//! when it waits, and waits itself only when [`AHEAD`] solutions are
//! queued. So a fast search costs a lock per solution, not a thread's
//! wake-up; and the caller looks at the signals at every solution too, so
//! that `list(p.solutions())` stops on Ctrl-C.

use crate::errors::value_error;
use dancer_core::{EngineKind, OptionId, Problem as Core};
use pyo3::prelude::*;
use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// Solutions found ahead of the caller, at most.
const AHEAD: usize = 1024;

#[derive(Default)]
struct State {
    items: VecDeque<Vec<OptionId>>,
    /// The worker has no more (or the caller stopped it).
    done: bool,
    /// The caller is gone or stopped: the worker's sends fail.
    closed: bool,
    /// The caller is asleep waiting for an item.
    waiting: bool,
    /// The worker ended by a panic (a bug): the listing is cut short, and
    /// the caller hears of it rather than taking the end for the last
    /// solution.
    failed: bool,
}

/// The queue between the worker and the caller.
#[derive(Default)]
struct Queue {
    state: Mutex<State>,
    /// Signalled when an item comes or the worker is done.
    filled: Condvar,
    /// Signalled when the caller takes an item or closes.
    emptied: Condvar,
}

impl Queue {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The worker's end of the queue.
pub struct Sender {
    queue: Arc<Queue>,
}

impl Sender {
    /// Queues a solution, waiting while [`AHEAD`] are queued; `Err` when
    /// the caller is gone (the worker should stop).
    pub fn send(&self, sol: Vec<OptionId>) -> Result<(), ()> {
        let mut s = self.queue.lock();
        while s.items.len() >= AHEAD && !s.closed {
            s = self
                .queue
                .emptied
                .wait(s)
                .unwrap_or_else(|e| e.into_inner());
        }
        if s.closed {
            return Err(());
        }
        s.items.push_back(sol);
        if s.waiting {
            self.queue.filled.notify_one();
        }
        Ok(())
    }
}

impl Drop for Sender {
    fn drop(&mut self) {
        self.queue.lock().done = true;
        self.queue.filled.notify_one();
    }
}

/// The solutions of a problem, found on a worker thread ahead of the
/// caller (see `Problem.solutions`).
#[pyclass(module = "dancer", name = "SolutionIter", frozen)]
pub struct SolutionIter {
    queue: Arc<Queue>,
    cancel: Arc<AtomicBool>,
    given: Vec<Py<PyAny>>,
}

impl SolutionIter {
    pub(crate) fn start(
        core: Arc<Core>,
        given: Vec<Py<PyAny>>,
        kind: EngineKind,
        limit: Option<u64>,
    ) -> PyResult<SolutionIter> {
        // an engine that cannot take the problem says so here
        drop(kind.build(&core).map_err(value_error)?);
        Ok(SolutionIter::producing(given, move |tx, cancel| {
            let Ok(mut engine) = kind.build(&core) else {
                return;
            };
            engine.set_cancel(cancel);
            let mut found = 0u64;
            while limit.is_none_or(|l| found < l) {
                let Some(sol) = engine.next_solution() else {
                    break;
                };
                if tx.send(sol.to_vec()).is_err() {
                    break; // the iterator was dropped
                }
                found += 1;
            }
        }))
    }

    /// An iterator over what `produce` sends (option numbers of
    /// solutions), on a thread of its own, ahead of the caller; `produce`
    /// stops when a send fails or the flag is set.
    pub fn producing(
        given: Vec<Py<PyAny>>,
        produce: impl FnOnce(&Sender, Arc<AtomicBool>) + Send + 'static,
    ) -> SolutionIter {
        let cancel = Arc::new(AtomicBool::new(false));
        let queue = Arc::new(Queue::default());
        let tx = Sender {
            queue: queue.clone(),
        };
        let flag = cancel.clone();
        std::thread::spawn(move || {
            let run = std::panic::AssertUnwindSafe(|| produce(&tx, flag));
            if std::panic::catch_unwind(run).is_err() {
                tx.queue.lock().failed = true;
            }
        });
        SolutionIter {
            queue,
            cancel,
            given,
        }
    }

    /// The next solution: one queued, or after a wait with the GIL
    /// released; None when the worker is done.
    fn take(&self, py: Python<'_>) -> PyResult<Option<Vec<OptionId>>> {
        loop {
            {
                let mut s = self.queue.lock();
                if let Some(sol) = s.items.pop_front() {
                    if s.items.len() + 1 == AHEAD {
                        self.queue.emptied.notify_one();
                    }
                    return Ok(Some(sol));
                }
                if s.failed {
                    return Err(pyo3::exceptions::PyRuntimeError::new_err(
                        "the search stopped on an internal error: the solutions listed are not all",
                    ));
                }
                if s.done || s.closed {
                    return Ok(None);
                }
            }
            py.detach(|| {
                let mut s = self.queue.lock();
                if s.items.is_empty() && !s.done && !s.closed {
                    s.waiting = true;
                    let (mut s, _) = (self.queue.filled)
                        .wait_timeout(s, crate::wait::SLICE)
                        .unwrap_or_else(|e| e.into_inner());
                    s.waiting = false;
                }
            });
            py.check_signals()?;
        }
    }
}

#[pymethods]
impl SolutionIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Vec<Py<PyAny>>>> {
        // a pending Ctrl-C stops a listing that never waits
        if let Err(e) = py.check_signals() {
            self.close();
            return Err(e);
        }
        match self.take(py) {
            Ok(Some(sol)) => Ok(Some(
                sol.iter().map(|&o| self.given[o].clone_ref(py)).collect(),
            )),
            Ok(None) => {
                self.close();
                Ok(None)
            }
            Err(e) => {
                self.close();
                Err(e)
            }
        }
    }

    /// Stops the search; the iterator ends.
    fn close(&self) {
        self.cancel
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let mut s = self.queue.lock();
        s.closed = true;
        s.items.clear();
        drop(s);
        self.queue.emptied.notify_all();
    }
}

impl Drop for SolutionIter {
    fn drop(&mut self) {
        self.close();
    }
}
