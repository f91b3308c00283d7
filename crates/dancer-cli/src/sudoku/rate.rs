//! `dancer sudoku rate`: SE-scale ratings and levels, one line per puzzle.
//!
//! Each puzzle is rated within `--timeout` (60 s unless told): a puzzle that
//! takes longer gets the rating of the steps taken so far, as a lower bound
//! (`at least 10.6 extreme (timeout ...)`). Ctrl-C stops the same way: the
//! puzzles being rated print what they know, the others are not started.

use super::common::{read_input, BOX_HINT};
use crate::args::{parse_seconds, JsonArg, ThreadsArg};
use crate::output::{Found, Out};
use anyhow::Result;
use clap::Args;
use dancer_core::plural;
use dancer_sudoku::batch::{self, RateEvent, RateOptions};
use dancer_sudoku::logic::Rating;
use dancer_sudoku::{read_puzzles, records, Layout};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct RateArgs {
    /// Puzzle file, one per line; - or nothing for standard input; or a puzzle
    pub input: Option<String>,
    /// The most time one puzzle may take, in seconds, or `none`; a puzzle
    /// that takes longer is reported with the rating of the steps taken so
    /// far, as a lower bound ("at least ...")
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = parse_timeout)]
    pub timeout: Timeout,
    #[command(flatten)]
    pub json: JsonArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
}

/// `--timeout`: a number of seconds, or none.
#[derive(Clone, Copy, Debug)]
pub struct Timeout(pub Option<Duration>);

/// `--timeout SECONDS|none`.
pub fn parse_timeout(s: &str) -> Result<Timeout, String> {
    if s == "none" {
        return Ok(Timeout(None));
    }
    parse_seconds(s)
        .map(|x| Timeout(Some(Duration::from_secs_f64(x))))
        .map_err(|e| format!("{e} (or none)"))
}

/// A rating in words: `10.6 extreme`, or for one stopped early
/// `at least 10.6 extreme (timeout; hardest step so far: ...)`.
pub fn rating_text(r: &Rating) -> String {
    match r.stopped {
        None => format!("{:.1} {}", r.se, r.level.name()),
        Some(s) => {
            let so_far = match r.hardest {
                Some(t) => format!("hardest step so far: {} {:.1}", t.name(), r.se),
                None => "no step taken".to_string(),
            };
            format!(
                "at least {:.1} {} ({} after {} {}; {so_far})",
                r.at_least(),
                r.level.name(),
                s.why.name(),
                r.steps,
                if r.steps == 1 { "step" } else { "steps" },
            )
        }
    }
}

pub fn run(args: RateArgs, out: &mut Out) -> Result<Found> {
    let (name, text) = read_input(args.input.as_deref())?;
    let start = Instant::now();
    let cancel = crate::interrupt::cancel_flag();
    let total = read_puzzles(&text, None, Layout::Lines).len();
    let bar = progress_bar(total);
    let opts = RateOptions {
        threads: args.threads.get(),
        timeout: args.timeout.0,
        cancel: cancel.clone(),
    };
    let results = batch::rate(&text, &opts, &|event| match event {
        RateEvent::Step {
            steps,
            hardest,
            technique,
            ..
        } if total == 1 => bar.set_message(format!(
            "step {steps}, hardest so far {hardest:.1} ({})",
            technique.name()
        )),
        RateEvent::Step { .. } => {}
        RateEvent::Done { .. } => bar.inc(1),
    })?;
    bar.finish_and_clear();
    let mut invalid = 0;
    for (line, r) in &results {
        match r {
            Err(why) => {
                invalid += 1;
                eprintln!("{name}:{line}: invalid puzzle: {}", why.words(BOX_HINT));
            }
            Ok(None) => {
                invalid += 1;
                eprintln!("{name}:{line}: the puzzle has no unique solution; it is not rated");
            }
            Ok(Some(_)) => {}
        }
        if args.json.json {
            out.record(&records::rate_record(*line, r, BOX_HINT))?;
        } else {
            out.line(&match r {
                Err(why) => format!("invalid: {}", why.words(BOX_HINT)),
                Ok(None) => "not unique".to_string(),
                Ok(Some(rt)) => rating_text(rt),
            })?;
        }
    }
    out.flush()?;
    let stopped = results
        .iter()
        .filter(|(_, r)| matches!(r, Ok(Some(rt)) if rt.stopped.is_some()))
        .count();
    let secs = start.elapsed().as_secs_f64();
    if results.len() > 1 || stopped > 0 {
        eprintln!(
            "{} rated in {secs:.2} s ({:.0}/s){}",
            plural(results.len(), "puzzle", "puzzles"),
            results.len() as f64 / secs.max(1e-9),
            if stopped > 0 {
                format!(
                    "; {} stopped early (a lower bound: \"at least\")",
                    plural(stopped, "rating", "ratings")
                )
            } else {
                String::new()
            }
        );
    }
    if cancel.load(Ordering::Relaxed) {
        eprintln!(
            "interrupted: {} of {total} rated",
            plural(results.len(), "puzzle", "puzzles")
        );
        return Ok(Found::Interrupted);
    }
    // A rating stopped by --timeout is a result (a lower bound, said so),
    // as a search stopped by --limit is.
    Ok(if invalid > 0 {
        Found::Invalid
    } else {
        Found::Some
    })
}

/// On a terminal: for one puzzle, a line with the steps so far; for
/// several, a bar of puzzles rated. Elsewhere nothing.
fn progress_bar(total: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() || total == 0 {
        return ProgressBar::hidden();
    }
    let (bar, template) = if total == 1 {
        (
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
            "rating: {elapsed} {wide_msg}",
        )
    } else {
        let bar = crate::progress::batch_bar(ProgressDrawTarget::stderr(), total as u64, "puzzles");
        bar.enable_steady_tick(Duration::from_millis(200));
        return bar;
    };
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}
