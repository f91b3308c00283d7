//! Ratings of a text of puzzles, on threads ([`rate`]), and what they
//! come to ([`RateCounts`]: the figures of a summary and the verdict of
//! the run, the rule of its exit code).

use super::{BatchError, BatchVerdict, Invalid};
use crate::logic::{self, Rating};
use crate::puzzle::{read_puzzles, Layout};
use dancer_core::plural;
use rayon::prelude::*;
use std::sync::atomic::Ordering;

/// A puzzle's rating, `None` when it has no unique solution, or why it
/// could not be rated.
pub type RateResult = Result<Option<Rating>, Invalid>;

/// Rates every puzzle of `text` (one per line), with the line of each, in
/// input order (see [`logic::rate_puzzle`]); each within the options'
/// timeout. After a cancel, only the puzzles started before it are there.
pub fn rate(
    text: &str,
    opts: &RateOptions,
    progress: &(dyn Fn(RateEvent) + Sync),
) -> Result<Vec<(usize, RateResult)>, BatchError> {
    let entries = read_puzzles(text, None, Layout::Lines);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(dancer_core::parallel::threads_used(opts.threads))
        .build()?;
    let results: Vec<Option<(usize, RateResult)>> = pool.install(|| {
        entries
            .into_par_iter()
            .map(|e| {
                if opts.cancel.load(Ordering::Relaxed) {
                    return None;
                }
                let line = e.line;
                let r = match e.puzzle {
                    Err(err) => Err(err.into()),
                    Ok(p) => {
                        let budget =
                            logic::Budget::within(opts.timeout).with_cancel(opts.cancel.clone());
                        let mut steps = 0;
                        let mut hardest = 0.0f64;
                        logic::rate_puzzle_within(&p, &budget, |_, step| {
                            steps += 1;
                            hardest = hardest.max(step.rating());
                            progress(RateEvent::Step {
                                line,
                                steps,
                                hardest,
                                technique: step.technique,
                            });
                        })
                        .map_err(Invalid::Unrated)
                    }
                };
                progress(RateEvent::Done { line });
                Some((line, r))
            })
            .collect()
    });
    Ok(results.into_iter().flatten().collect())
}

/// How [`rate`] runs.
#[derive(Clone, Debug)]
pub struct RateOptions {
    /// Worker threads.
    pub threads: usize,
    /// The most time one puzzle may take; its rating is then a lower bound
    /// ([`Rating::stopped`](logic::Rating::stopped)).
    pub timeout: Option<std::time::Duration>,
    /// Set (by a Ctrl-C handler) to stop: the puzzles being rated stop with
    /// what they know, the others are not started.
    pub cancel: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// What [`rate`] tells as it goes, from its worker threads.
#[derive(Clone, Copy, Debug)]
pub enum RateEvent {
    /// A step was taken in the puzzle of `line`.
    Step {
        line: usize,
        steps: usize,
        /// The hardest rating so far.
        hardest: f64,
        /// The technique of this step.
        technique: logic::Technique,
    },
    /// The puzzle of `line` is done (rated, stopped, or not rated).
    Done { line: usize },
}

/// What the ratings of a batch come to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RateCounts {
    /// Puzzles answered: rated, or not.
    pub answered: usize,
    /// Puzzles not rated: invalid, or without a unique solution.
    pub unrated: usize,
    /// Ratings stopped early (by the timeout or a cancel): lower bounds.
    pub stopped: usize,
}

impl RateCounts {
    /// What a rating of these counts did in `secs`, in words: `12 puzzles
    /// rated in 3.40 s (4/s)`, and how many ratings stopped early.
    pub fn summary(&self, secs: f64) -> String {
        let early = match self.stopped {
            0 => String::new(),
            n => format!(
                "; {} stopped early (a lower bound: \"at least\")",
                plural(n, "rating", "ratings")
            ),
        };
        format!(
            "{} rated in {secs:.2} s ({:.0}/s){early}",
            plural(self.answered, "puzzle", "puzzles"),
            self.answered as f64 / secs.max(1e-9),
        )
    }

    /// The counts of `results` (as [`rate`] gives them).
    pub fn of(results: &[(usize, RateResult)]) -> Self {
        let mut c = RateCounts {
            answered: results.len(),
            ..RateCounts::default()
        };
        for (_, r) in results {
            match r {
                Err(_) | Ok(None) => c.unrated += 1,
                Ok(Some(rt)) if rt.stopped.is_some() => c.stopped += 1,
                Ok(Some(_)) => {}
            }
        }
        c
    }

    /// What the run comes to (the rule of its exit code): stopped when it
    /// was `cancelled`; else invalid when a puzzle was not rated; else
    /// answered. A rating stopped by the timeout is an answer (a lower
    /// bound, said so), as a count stopped by a limit is.
    pub fn verdict(&self, cancelled: bool) -> BatchVerdict {
        if cancelled {
            BatchVerdict::Stopped
        } else if self.unrated > 0 {
            BatchVerdict::Invalid
        } else {
            BatchVerdict::Answered
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    const EASY: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn rated(text: &str, timeout: Option<std::time::Duration>) -> Vec<(usize, RateResult)> {
        let opts = RateOptions {
            threads: 2,
            timeout,
            cancel: Arc::new(AtomicBool::new(false)),
        };
        rate(text, &opts, &|_| {}).unwrap()
    }

    /// Each puzzle is counted once: rated, not rated (invalid, or not
    /// unique), stopped early; and the verdict follows the exit rule.
    #[test]
    fn counts_and_verdicts() {
        let text = format!("{EASY}\n12\n{}\n", ".".repeat(81));
        let r = rated(&text, None);
        let c = RateCounts::of(&r);
        assert_eq!(
            c,
            RateCounts {
                answered: 3,
                unrated: 2,
                stopped: 0
            }
        );
        assert_eq!(c.verdict(false), BatchVerdict::Invalid);
        assert_eq!(c.verdict(true), BatchVerdict::Stopped);
        let c = RateCounts::of(&rated(EASY, None));
        assert_eq!(c.unrated, 0);
        assert_eq!(c.verdict(false), BatchVerdict::Answered);
        // a rating out of time is a lower bound, and still an answer
        let c = RateCounts::of(&rated(EASY, Some(std::time::Duration::ZERO)));
        assert_eq!((c.answered, c.unrated, c.stopped), (1, 0, 1));
        assert_eq!(c.verdict(false), BatchVerdict::Answered);
    }
}
