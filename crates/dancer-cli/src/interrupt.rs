//! Ctrl-C (SIGINT), SIGTERM and SIGHUP: one handler for the whole program,
//! installed once, and the one place that knows whether a signal came.
//!
//! A command with a search to stop cleanly takes a [`cancel_flag`] and
//! hands it to the search (`RunConfig::cancel`); the first signal sets
//! the flag, the search stops at its next check, and the command
//! prints what it found, flushes it, and ends with [`Found::Interrupted`]
//! (exit code 130). While no command holds a flag (reading the input,
//! writing a generated problem) there is nothing to stop cleanly, and the
//! first signal ends the program at once with 130; so does a second
//! signal, always, for a search that does not stop.
//!
//! `main` installs the handler before running a command, and turns the
//! result of a command that ran on after a signal into
//! [`Found::Interrupted`], so that no command can end 0 or 1 after one.
//!
//! On Unix the handler is a plain signal handler (no thread to start: a
//! thread was a tenth of a millisecond of every run): it counts the
//! signal, sets the one cancel flag with an atomic store, or writes its
//! line with `write(2)` and ends with `_exit(130)`, which are all
//! async-signal-safe. A signal that the process was started ignoring
//! (`nohup` ignores SIGHUP) stays ignored.

use crate::output::{Found, EXIT_INTERRUPTED};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// Signals received so far.
static SIGNALS: AtomicUsize = AtomicUsize::new(0);
/// The cancel flag that a signal sets, once one was handed out (null
/// before: then a signal ends the program). It points into [`flag`]'s
/// `Arc`, which lives as long as the program.
static ARMED: AtomicPtr<AtomicBool> = AtomicPtr::new(std::ptr::null_mut());

/// The one cancel flag of the program (one command runs per process).
fn flag() -> &'static Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| Arc::new(AtomicBool::new(false)))
}

/// Installs the handler, once; later calls do nothing. Returns whether it
/// is installed.
pub fn install() -> bool {
    static INSTALLED: OnceLock<bool> = OnceLock::new();
    *INSTALLED.get_or_init(sys::install)
}

/// What a signal does: the first, while a search holds the flag, sets it;
/// any other ends the program with 130. Only atomics here (it runs in the
/// signal's context on Unix).
fn on_signal() -> bool {
    let n = SIGNALS.fetch_add(1, Ordering::SeqCst) + 1;
    let armed = ARMED.load(Ordering::SeqCst);
    if n > 1 || armed.is_null() {
        return false;
    }
    // SAFETY: `ARMED` is null or points into `flag()`'s `Arc`, which is
    // never dropped (a static holds it)
    unsafe { (*armed).store(true, Ordering::SeqCst) };
    true
}

#[cfg(unix)]
mod sys {
    use super::EXIT_INTERRUPTED;

    extern "C" fn handler(_signal: libc::c_int) {
        if !super::on_signal() {
            const LINE: &[u8] = b"dancer: interrupted\n";
            // SAFETY: write(2) and _exit(2) are async-signal-safe; LINE
            // is a valid buffer of its length
            unsafe {
                libc::write(2, LINE.as_ptr().cast(), LINE.len());
                libc::_exit(EXIT_INTERRUPTED.into());
            }
        }
    }

    pub fn install() -> bool {
        let mut ok = true;
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: sigaction is called with valid, zero-initialised
            // structures; the handler above only does async-signal-safe
            // things
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, std::ptr::null(), &mut old) != 0 {
                    ok = false;
                    continue;
                }
                if old.sa_sigaction == libc::SIG_IGN {
                    continue;
                }
                let mut new: libc::sigaction = std::mem::zeroed();
                new.sa_sigaction = handler as extern "C" fn(libc::c_int) as libc::sighandler_t;
                new.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut new.sa_mask);
                ok &= libc::sigaction(signal, &new, std::ptr::null_mut()) == 0;
            }
        }
        ok
    }
}

#[cfg(not(unix))]
mod sys {
    pub fn install() -> bool {
        ctrlc::set_handler(|| {
            if !super::on_signal() {
                eprintln!("dancer: interrupted");
                std::process::exit(super::EXIT_INTERRUPTED.into());
            }
        })
        .is_ok()
    }
}

/// The flag that the next signal sets, for a search to watch; installs
/// the handler if it is not yet. Every call returns the same flag.
pub fn cancel_flag() -> Arc<AtomicBool> {
    install();
    let flag = flag();
    ARMED.store(Arc::as_ptr(flag).cast_mut(), Ordering::SeqCst);
    flag.clone()
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
