//! `SolutionIter`: solutions found on a worker thread a few ahead of the
//! caller (the engine's search for `Problem.solutions`, a ZDD's paths for
//! iterating a `Zdd`), handed out as the caller's own options; dropping
//! the iterator, or `close()`, stops the worker.

use crate::errors::value_error;
use dancer_core::{EngineKind, OptionId, Problem as Core};
use pyo3::prelude::*;
use std::sync::atomic::AtomicBool;
use std::sync::{mpsc, Arc, Mutex};

/// The solutions of a problem, found on a worker thread a few ahead of
/// the caller (see `Problem.solutions`).
#[pyclass(module = "dancer", name = "SolutionIter", frozen)]
pub struct SolutionIter {
    /// None once the search is over or stopped.
    rx: Mutex<Option<mpsc::Receiver<Vec<OptionId>>>>,
    cancel: Arc<AtomicBool>,
    given: Vec<Py<PyAny>>,
}

/// Solutions found ahead of the caller, at most.
const AHEAD: usize = 16;

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
    /// solutions), on a thread of its own, a few ahead of the caller;
    /// `produce` stops when its channel closes or the flag is set.
    pub fn producing(
        given: Vec<Py<PyAny>>,
        produce: impl FnOnce(&mpsc::SyncSender<Vec<OptionId>>, Arc<AtomicBool>) + Send + 'static,
    ) -> SolutionIter {
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::sync_channel(AHEAD);
        let flag = cancel.clone();
        std::thread::spawn(move || produce(&tx, flag));
        SolutionIter {
            rx: Mutex::new(Some(rx)),
            cancel,
            given,
        }
    }
}

#[pymethods]
impl SolutionIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Vec<Py<PyAny>>>> {
        loop {
            let got = py.detach(|| {
                let rx = self.rx.lock().unwrap_or_else(|e| e.into_inner());
                rx.as_ref().map(|rx| rx.recv_timeout(crate::wait::SLICE))
            });
            match got {
                None | Some(Err(mpsc::RecvTimeoutError::Disconnected)) => {
                    self.close();
                    return Ok(None);
                }
                Some(Ok(sol)) => {
                    return Ok(Some(
                        sol.iter().map(|&o| self.given[o].clone_ref(py)).collect(),
                    ))
                }
                Some(Err(mpsc::RecvTimeoutError::Timeout)) => {
                    if let Err(e) = py.check_signals() {
                        self.close();
                        return Err(e);
                    }
                }
            }
        }
    }

    /// Stops the search; the iterator ends.
    fn close(&self) {
        self.cancel
            .store(true, std::sync::atomic::Ordering::Relaxed);
        *self.rx.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

impl Drop for SolutionIter {
    fn drop(&mut self) {
        self.close();
    }
}
