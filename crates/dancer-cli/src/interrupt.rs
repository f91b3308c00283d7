//! Ctrl-C (SIGINT), SIGTERM and SIGHUP: one handler for the whole program,
//! installed once, and the one place that knows whether a signal came.
//!
//! A command with a search to stop cleanly takes a [`cancel_flag`] and
//! hands it to the search (`RunConfig::cancel`); the first signal sets
//! every such flag, the search stops at its next check, and the command
//! prints what it found, flushes it, and ends with [`Found::Interrupted`]
//! (exit code 130). While no command holds a flag (reading the input,
//! writing a generated problem) there is nothing to stop cleanly, and the
//! first signal ends the program at once with 130; so does a second
//! signal, always, for a search that does not stop.
//!
//! `main` installs the handler before running a command, and turns the
//! result of a command that ran on after a signal into
//! [`Found::Interrupted`], so that no command can end 0 or 1 after one.

use crate::output::{Found, EXIT_INTERRUPTED};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Signals received so far.
static SIGNALS: AtomicUsize = AtomicUsize::new(0);
/// The flags of the searches to stop.
static FLAGS: Mutex<Vec<Arc<AtomicBool>>> = Mutex::new(Vec::new());

/// Installs the handler, once; later calls do nothing. Returns whether it
/// is installed (it is not when some other handler was set first: then a
/// signal ends the program as it would without one).
pub fn install() -> bool {
    static INSTALLED: OnceLock<bool> = OnceLock::new();
    *INSTALLED.get_or_init(|| ctrlc::set_handler(on_signal).is_ok())
}

/// Runs on the handler's own thread (not in the signal's context), so it
/// may lock and print.
fn on_signal() {
    let n = SIGNALS.fetch_add(1, Ordering::SeqCst) + 1;
    let flags = FLAGS.lock().unwrap_or_else(|e| e.into_inner());
    if n > 1 || flags.is_empty() {
        eprintln!("dancer: interrupted");
        std::process::exit(EXIT_INTERRUPTED.into());
    }
    for f in flags.iter() {
        f.store(true, Ordering::SeqCst);
    }
}

/// A flag that the next signal sets, for a search to watch; installs the
/// handler if it is not yet.
pub fn cancel_flag() -> Arc<AtomicBool> {
    install();
    let flag = Arc::new(AtomicBool::new(false));
    FLAGS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(flag.clone());
    flag
}

/// Whether a signal has come.
pub fn received() -> bool {
    SIGNALS.load(Ordering::SeqCst) > 0
}

/// What a command found, as the exit code must say it: interrupted when a
/// signal came while it ran, whatever it found.
pub fn overrule(found: Found) -> Found {
    match found {
        Found::Some | Found::None if received() => Found::Interrupted,
        f => f,
    }
}
