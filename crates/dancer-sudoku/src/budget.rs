//! The budget of a long search: a deadline and a cancel flag, looked at
//! by the rater, the hints and the counts to two they start (a leaf
//! module: the solvers and the step engine both take it).

/// Why a search stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halt {
    /// Its time ran out.
    Timeout,
    /// It was asked to stop (Ctrl-C).
    Interrupted,
}

impl Halt {
    /// `timeout` or `interrupted`.
    pub fn name(self) -> &'static str {
        match self {
            Halt::Timeout => "timeout",
            Halt::Interrupted => "interrupted",
        }
    }
}

/// Limits on a rating or hint: a deadline, and a flag that another thread
/// (a Ctrl-C handler, a server's cancel button) sets to stop the search.
/// They are checked between steps and, in the forcing-chain searches (the
/// only long ones), before each assumption: a search stops within a few
/// milliseconds of either.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    deadline: Option<std::time::Instant>,
    cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Budget {
    /// No limit.
    pub fn unlimited() -> Self {
        Budget::default()
    }

    /// At most `d` from now (no limit if that is beyond the clock's range).
    pub fn timeout(d: std::time::Duration) -> Self {
        Budget {
            deadline: std::time::Instant::now().checked_add(d),
            cancel: None,
        }
    }

    /// At most `timeout` from now, or no limit for `None`.
    pub fn within(timeout: Option<std::time::Duration>) -> Self {
        timeout.map_or_else(Budget::unlimited, Budget::timeout)
    }

    /// Also stops once `flag` is set.
    pub fn with_cancel(mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) -> Self {
        self.cancel = Some(flag);
        self
    }

    /// `Some` once the search must stop: the flag first, then the clock.
    pub fn check(&self) -> Option<Halt> {
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
        {
            return Some(Halt::Interrupted);
        }
        match self.deadline {
            Some(d) if std::time::Instant::now() >= d => Some(Halt::Timeout),
            _ => None,
        }
    }
}
