//! Ctrl-C (SIGINT), SIGTERM and SIGHUP: the handler of
//! `dancer_runs::signals`, installed once by `main` with the words and
//! exit code of this program (`dancer: interrupted`, 130).
//!
//! A command with a search to stop cleanly takes a [`cancel_flag`] and
//! hands it to the search; the first signal sets the flag, the search
//! stops at its next check, and the command prints what it found, flushes
//! it, and ends with [`Found::Interrupted`] (exit code 130). While no
//! command holds a flag the first signal ends the program at once with
//! 130; so does a second signal, always. `main` turns the result of a
//! command that ran on after a signal into [`Found::Interrupted`], so
//! that no command can end 0 or 1 after one ([`overrule`]).

use crate::output::{Found, EXIT_INTERRUPTED};
use dancer_runs::signals;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Installs the handler, once; later calls do nothing.
pub fn install() -> bool {
    signals::install(b"dancer: interrupted\n", EXIT_INTERRUPTED)
}

/// The flag that the next signal sets, for a search to watch; installs
/// the handler if it is not yet. Every call returns the same flag.
pub fn cancel_flag() -> Arc<AtomicBool> {
    install();
    signals::cancel_flag()
}

/// What a command found, as the exit code must say it: interrupted when a
/// signal came while it ran, whatever it found.
pub fn overrule(found: Found) -> Found {
    match found {
        Found::Some | Found::None if signals::received() => Found::Interrupted,
        f => f,
    }
}
