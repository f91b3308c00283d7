//! Long calls: the work runs on a worker thread, with the GIL released,
//! while the calling thread waits in slices of [`SLICE`] and checks for
//! signals between them. A signal's handler raising (Ctrl-C's
//! `KeyboardInterrupt`) sets the cancel flag the work watches, and the
//! exception is raised once the worker has stopped; the engines look at
//! the flag every few thousand nodes, so that is within a tenth of a
//! second.

use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

/// How long the calling thread waits between looks at the signals.
pub const SLICE: Duration = Duration::from_millis(20);

/// Runs `work` (given the cancel flag) on a worker thread with the GIL
/// released; a pending signal whose handler raises stops it and raises.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(Arc<AtomicBool>) -> T + Send,
) -> PyResult<T> {
    let cancel = Arc::new(AtomicBool::new(false));
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel();
        let flag = cancel.clone();
        s.spawn(move || {
            // the receiver waits until the work is over
            let _ = tx.send(work(flag));
        });
        // a receiver is not shared between threads: the waits take it in
        // turn (only this thread waits)
        let rx = std::sync::Mutex::new(rx);
        let wait = |timeout: Option<Duration>| {
            let rx = rx.lock().unwrap_or_else(|e| e.into_inner());
            match timeout {
                Some(t) => rx.recv_timeout(t),
                None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
            }
        };
        loop {
            match py.detach(|| wait(Some(SLICE))) {
                Ok(v) => return Ok(v),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        cancel.store(true, Ordering::Relaxed);
                        // the worker sees the flag and ends; its result is
                        // of no use now
                        let _ = py.detach(|| wait(None));
                        return Err(e);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(pyo3::exceptions::PyRuntimeError::new_err(
                        "the search stopped without an answer",
                    ))
                }
            }
        }
    })
}
