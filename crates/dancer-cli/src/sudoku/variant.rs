//! What the killer (`--killer`) and overlapping-grid (`--shape`) commands
//! share: the input (a puzzle given as the argument itself, else a file or
//! standard input), its puzzle lines, the rating loop of `rate`, the
//! budget of `hint` and what a hint exits with, and the clock that stops
//! `generate` at `--timeout`.
//!
//! Both kinds are rated on the killer scale (`dancer_sudoku::killer`'s
//! steps), so one loop prints both: in input order, on all cores, a line
//! that is no puzzle or has no unique solution said on standard error and
//! counted (exit 2, as plain `rate`), a puzzle whose steps ran past
//! `--timeout` printed with the rating of the steps taken ("at least").

use super::common::read_input;
use crate::output::{Found, Out};
use anyhow::Result;
use dancer_core::plural;
use dancer_formats::ndjson::InvalidPuzzle;
use dancer_sudoku::killer::{rate_record, rate_text, KillerHint, KillerRating};
use dancer_sudoku::logic::{Budget, Halt};
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The input: `arg` itself when it is no file and `is_puzzle` takes it,
/// else the file it names, or standard input.
pub fn input(arg: Option<&str>, is_puzzle: impl Fn(&str) -> bool) -> Result<(String, String)> {
    match arg {
        Some(a) if !Path::new(a).exists() && is_puzzle(a) => {
            Ok(("<argument>".into(), a.to_string()))
        }
        a => read_input(a),
    }
}

/// The puzzle lines of `text` (blank lines and `#` comments skipped), with
/// their line numbers.
pub fn lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// A line rated: its rating (none when it has no unique solution), or why
/// it is no puzzle.
pub type Rated = Result<Option<KillerRating>, String>;

/// How `rate --killer|--shape` runs: the input's name and text, threads,
/// JSON or words, and each puzzle's time.
pub struct RateRun<'a> {
    pub name: &'a str,
    pub text: &'a str,
    pub threads: usize,
    pub json: bool,
    pub timeout: Option<Duration>,
}

/// Rates every line with `rate_one` (given the line and its budget), on
/// `threads` cores, and prints the ratings in input order. Exit 2 when a
/// line was not rated, 130 when Ctrl-C stopped the run.
pub fn rate_lines(
    run: &RateRun<'_>,
    out: &mut Out,
    rate_one: impl Fn(&str, &Budget) -> Rated + Sync,
) -> Result<Found> {
    let cancel = crate::interrupt::cancel_flag();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run.threads)
        .build()?;
    let results: Vec<(usize, Option<Rated>)> = pool.install(|| {
        lines(run.text)
            .par_iter()
            .map(|&(line, l)| {
                if cancel.load(Ordering::Relaxed) {
                    return (line, None);
                }
                let budget = Budget::within(run.timeout).with_cancel(cancel.clone());
                (line, Some(rate_one(l, &budget)))
            })
            .collect()
    });
    let (mut unrated, mut answered, mut early) = (0, 0, 0);
    for (line, r) in &results {
        let Some(r) = r else { continue };
        answered += 1;
        match r {
            Err(why) => {
                unrated += 1;
                eprintln!("{}:{line}: invalid puzzle: {why}", run.name);
                if run.json {
                    out.record(&InvalidPuzzle::new(*line, why.clone()))?;
                } else {
                    out.line(&format!("invalid: {why}"))?;
                }
            }
            Ok(r) => {
                early += usize::from(r.as_ref().is_some_and(|r| r.stopped.is_some()));
                if r.is_none() {
                    unrated += 1;
                    eprintln!(
                        "{}:{line}: the puzzle has no unique solution; it is not rated",
                        run.name
                    );
                }
                if run.json {
                    out.record(&rate_record(*line, r.as_ref()))?;
                } else {
                    out.line(&rate_text(r.as_ref()))?;
                }
            }
        }
    }
    out.flush()?;
    if early > 0 {
        eprintln!(
            "{} stopped early (a lower bound: \"at least\")",
            plural(early, "rating", "ratings")
        );
    }
    if cancel.load(Ordering::Relaxed) {
        eprintln!(
            "interrupted: {} answered",
            plural(answered, "puzzle", "puzzles")
        );
        return Ok(Found::Interrupted);
    }
    // as plain ratings: a line not rated (invalid, or not unique) is exit 2
    Ok(if unrated > 0 {
        Found::Invalid
    } else {
        Found::Some
    })
}

/// The budget of a `hint --killer|--shape`: `--timeout` and Ctrl-C.
pub fn hint_budget(timeout: Option<Duration>) -> Budget {
    Budget::within(timeout).with_cancel(crate::interrupt::cancel_flag())
}

/// What a killer or gattai hint comes to: a step found (exit 0), stopped
/// by Ctrl-C (130), or none (1: no step, not unique, out of time).
pub fn hint_found(h: &KillerHint) -> Found {
    match h {
        KillerHint::Stopped(Halt::Interrupted) => Found::Interrupted,
        h if h.found() => Found::Some,
        _ => Found::None,
    }
}

/// The flag a generator watches: set by Ctrl-C (the program's cancel flag)
/// or, with a limit, when the limit runs out (then [`StopClock::timed_out`]).
/// A thread looks at both every 10 ms; it ends when the clock is dropped.
pub struct StopClock {
    flag: Arc<AtomicBool>,
    timed_out: Arc<AtomicBool>,
    done: Arc<AtomicBool>,
    watcher: Option<std::thread::JoinHandle<()>>,
}

impl StopClock {
    /// A clock that stops at Ctrl-C, and after `limit` if one is given.
    pub fn start(limit: Option<Duration>) -> StopClock {
        let cancel = crate::interrupt::cancel_flag();
        let Some(deadline) = limit.and_then(|d| Instant::now().checked_add(d)) else {
            let (timed_out, done) = Default::default();
            return StopClock {
                flag: cancel,
                timed_out,
                done,
                watcher: None,
            };
        };
        let flag = Arc::new(AtomicBool::new(false));
        let timed_out = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let (f, t, d) = (flag.clone(), timed_out.clone(), done.clone());
        let watcher = std::thread::spawn(move || {
            while !d.load(Ordering::Relaxed) {
                if cancel.load(Ordering::Relaxed) {
                    f.store(true, Ordering::Relaxed);
                    return;
                }
                if Instant::now() >= deadline {
                    t.store(true, Ordering::Relaxed);
                    f.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        });
        StopClock {
            flag,
            timed_out,
            done,
            watcher: Some(watcher),
        }
    }

    /// The flag to hand to the generator.
    pub fn flag(&self) -> &Arc<AtomicBool> {
        &self.flag
    }

    /// Set: stop now.
    pub fn stopped(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// The limit ran out (not Ctrl-C).
    pub fn timed_out(&self) -> bool {
        self.timed_out.load(Ordering::Relaxed)
    }
}

impl Drop for StopClock {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(w) = self.watcher.take() {
            let _ = w.join();
        }
    }
}

/// What a generator stopped by `stop` says and exits with: 130 after
/// Ctrl-C, 1 when `--timeout` ran out first; `None` when it was not
/// stopped.
pub fn stopped_early(
    stop: &StopClock,
    made: u64,
    count: u64,
    timeout: Option<Duration>,
) -> Option<Found> {
    if stop.timed_out() && made < count {
        let secs = timeout.map_or(0.0, |d| d.as_secs_f64());
        eprintln!("{made} of {count} made: the time allowed ({secs:.0} s, --timeout) ran out");
        return Some(Found::None);
    }
    if stop.stopped() && !stop.timed_out() {
        eprintln!("interrupted: {made} of {count} made");
        return Some(Found::Interrupted);
    }
    None
}
