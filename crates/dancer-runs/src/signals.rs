//! Ctrl-C (SIGINT), SIGTERM and SIGHUP: one handler for the whole
//! process, installed once, and the one place that knows whether a signal
//! came. Long runs stop on a signal without losing what they found: this
//! is how.
//!
//! A run to stop cleanly takes the [`cancel_flag`] (its
//! `RunConfig::cancel`, `RunOptions::cancel`); the first signal sets the
//! flag, the search stops at its next check, and the front end keeps what
//! it found. While no run holds the flag (reading the input, writing a
//! generated problem) there is nothing to stop cleanly, and the first
//! signal ends the process at once; so does a second signal, always, for
//! a search that does not stop. Ending, the handler writes the line it
//! was given to standard error and exits with the code it was given (a
//! front end's words and exit code, not this library's).
//!
//! On Unix the handler is a plain signal handler (no thread to start: a
//! thread was a tenth of a millisecond of every run): it counts the
//! signal, sets the one cancel flag with an atomic store, or writes its
//! line with `write(2)` and ends with `_exit(2)`, which are all
//! async-signal-safe. A signal that the process was started ignoring
//! (`nohup` ignores SIGHUP) stays ignored.

use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// Signals received so far.
static SIGNALS: AtomicUsize = AtomicUsize::new(0);
/// The cancel flag that a signal sets, once one was handed out (null
/// before: then a signal ends the process). It points into [`flag`]'s
/// `Arc`, which lives as long as the process.
static ARMED: AtomicPtr<AtomicBool> = AtomicPtr::new(std::ptr::null_mut());
/// What the handler writes, and the exit code, when it ends the process.
static LAST_WORDS: OnceLock<&'static [u8]> = OnceLock::new();
static EXIT_CODE: AtomicU8 = AtomicU8::new(130);

/// The one cancel flag of the process (one run per process).
fn flag() -> &'static Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| Arc::new(AtomicBool::new(false)))
}

/// Installs the handler, once: ending the process, it writes `line` to
/// standard error and exits with `code`. Later calls do nothing (the
/// first line and code stay). Returns whether it is installed.
pub fn install(line: &'static [u8], code: u8) -> bool {
    static INSTALLED: OnceLock<bool> = OnceLock::new();
    *INSTALLED.get_or_init(|| {
        let _ = LAST_WORDS.set(line);
        EXIT_CODE.store(code, Ordering::SeqCst);
        sys::install()
    })
}

/// What a signal does: the first, while a run holds the flag, sets it;
/// any other ends the process. Only atomics here (it runs in the
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

/// The line and code to end with (set before the handler is installed).
fn last_words() -> (&'static [u8], u8) {
    let line = LAST_WORDS.get().copied().unwrap_or(b"interrupted\n");
    (line, EXIT_CODE.load(Ordering::SeqCst))
}

#[cfg(unix)]
mod sys {
    extern "C" fn handler(_signal: libc::c_int) {
        if !super::on_signal() {
            let (line, code) = super::last_words();
            // SAFETY: write(2) and _exit(2) are async-signal-safe; `line`
            // is a valid buffer of its length
            unsafe {
                libc::write(2, line.as_ptr().cast(), line.len());
                libc::_exit(code.into());
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
                let (line, code) = super::last_words();
                use std::io::Write;
                let _ = std::io::stderr().write_all(line);
                std::process::exit(code.into());
            }
        })
        .is_ok()
    }
}

/// The flag that the next signal sets, for a run to watch. Every call
/// returns the same flag; the handler must be installed ([`install`]) for
/// a signal to set it.
pub fn cancel_flag() -> Arc<AtomicBool> {
    let flag = flag();
    ARMED.store(Arc::as_ptr(flag).cast_mut(), Ordering::SeqCst);
    flag.clone()
}

/// Whether a signal has come.
pub fn received() -> bool {
    SIGNALS.load(Ordering::SeqCst) > 0
}
