//! Ratings of a text of puzzles, on threads.

use super::BatchError;
use super::Invalid;
use crate::logic::{self, Rating};
use crate::puzzle::{read_puzzles, Layout};
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
                        let mut budget = match opts.timeout {
                            Some(d) => logic::Budget::timeout(d),
                            None => logic::Budget::unlimited(),
                        };
                        budget = budget.with_cancel(opts.cancel.clone());
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
