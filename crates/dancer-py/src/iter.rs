//! `SolutionIter`: solutions found on a worker thread ahead of the caller
//! (the engine's search for `Problem.solutions`, a ZDD's paths for
//! iterating a `Zdd`, its random draws for `Zdd.samples`), handed out as
//! the caller's own options; dropping the iterator, or `close()`, stops
//! the worker. [`Stream`] is what it is made of, and what the other
//! iterators (`dancer.poly`'s solutions, a trace's steps) are made of too.
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

/// Items (solutions, steps) made ahead of the caller, at most.
const AHEAD: usize = 1024;

struct State<T> {
    items: VecDeque<T>,
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
struct Queue<T> {
    state: Mutex<State<T>>,
    /// Signalled when an item comes or the worker is done.
    filled: Condvar,
    /// Signalled when the caller takes an item or closes.
    emptied: Condvar,
}

impl<T> Queue<T> {
    fn new() -> Queue<T> {
        Queue {
            state: Mutex::new(State {
                items: VecDeque::new(),
                done: false,
                closed: false,
                waiting: false,
                failed: false,
            }),
            filled: Condvar::new(),
            emptied: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<T>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The worker's end of the queue.
pub struct Sender<T = Vec<OptionId>> {
    queue: Arc<Queue<T>>,
}

impl<T> Sender<T> {
    /// Queues an item, waiting while [`AHEAD`] are queued; `Err` when
    /// the caller is gone (the worker should stop).
    pub fn send(&self, item: T) -> Result<(), ()> {
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
        s.items.push_back(item);
        if s.waiting {
            self.queue.filled.notify_one();
        }
        Ok(())
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        self.queue.lock().done = true;
        self.queue.filled.notify_one();
    }
}

/// Items made on a worker thread ahead of the caller, at most [`AHEAD`]:
/// what the iterators of this crate share.
pub struct Stream<T> {
    queue: Arc<Queue<T>>,
    cancel: Arc<AtomicBool>,
}

impl<T: Send + 'static> Stream<T> {
    /// What `produce` sends, made on a thread of its own, ahead of the
    /// caller; `produce` stops when a send fails or the flag is set.
    pub fn producing(produce: impl FnOnce(&Sender<T>, Arc<AtomicBool>) + Send + 'static) -> Self {
        let cancel = Arc::new(AtomicBool::new(false));
        let queue = Arc::new(Queue::new());
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
        Stream { queue, cancel }
    }

    /// The next item: one queued, or after a wait with the GIL released;
    /// None when the worker is done. A pending signal (Ctrl-C) raises, and
    /// the stream is closed when it ends or raises.
    pub fn next(&self, py: Python<'_>) -> PyResult<Option<T>> {
        // a pending Ctrl-C stops a listing that never waits
        let taken = py.check_signals().and_then(|()| self.take(py));
        if !matches!(taken, Ok(Some(_))) {
            self.close();
        }
        taken
    }

    fn take(&self, py: Python<'_>) -> PyResult<Option<T>> {
        loop {
            {
                let mut s = self.queue.lock();
                if let Some(item) = s.items.pop_front() {
                    if s.items.len() + 1 == AHEAD {
                        self.queue.emptied.notify_one();
                    }
                    return Ok(Some(item));
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

impl<T> Stream<T> {
    /// Stops the worker; the stream ends.
    pub fn close(&self) {
        self.cancel
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let mut s = self.queue.lock();
        s.closed = true;
        s.items.clear();
        drop(s);
        self.queue.emptied.notify_all();
    }
}

impl<T> Drop for Stream<T> {
    fn drop(&mut self) {
        self.close();
    }
}

/// The solutions of a problem, found on a worker thread ahead of the
/// caller (see `Problem.solutions`).
#[pyclass(module = "dancer", name = "SolutionIter", frozen)]
pub struct SolutionIter {
    stream: Stream<Vec<OptionId>>,
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
        SolutionIter {
            stream: Stream::producing(produce),
            given,
        }
    }
}

impl SolutionIter {
    /// Every solution left, as a list (the caller's options).
    pub fn collect(&self, py: Python<'_>) -> PyResult<Vec<Vec<Py<PyAny>>>> {
        let mut all = Vec::new();
        while let Some(sol) = self.__next__(py)? {
            all.push(sol);
        }
        Ok(all)
    }
}

#[pymethods]
impl SolutionIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Vec<Py<PyAny>>>> {
        let sol = self.stream.next(py)?;
        Ok(sol.map(|sol| sol.iter().map(|&o| self.given[o].clone_ref(py)).collect()))
    }

    /// Stops the search; the iterator ends.
    fn close(&self) {
        self.stream.close();
    }
}
