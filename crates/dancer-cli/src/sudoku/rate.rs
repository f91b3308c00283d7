//! `dancer sudoku rate`: SE-scale ratings and levels, one line per puzzle.
//!
//! Each puzzle is rated within `--timeout` (60 s unless told): a puzzle that
//! takes longer gets the rating of the steps taken so far, as a lower bound
//! (`at least 10.6 extreme (timeout ...)`). Ctrl-C stops the same way: the
//! puzzles being rated print what they know, the others are not started
//! (`dancer_sudoku::batch::rate`, `RateCounts`, `records::rate_text`).

use super::common::{found_of, read_input, BOX_HINT};
use crate::args::{parse_seconds, JsonArg, ThreadsArg};
use crate::output::{Found, Out};
use anyhow::Result;
use clap::Args;
use dancer_core::plural;
use dancer_sudoku::batch::{self, BatchVerdict, RateCounts, RateEvent, RateOptions};
use dancer_sudoku::{read_puzzles, records, Layout};
use indicatif::ProgressBar;
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
    /// Killer Sudoku: each line is MAP SUMS [GIVENS] (or the JSON form),
    /// rated on dancer's killer scale (1.0 to 5.0: easy, medium, hard,
    /// expert)
    #[arg(long, conflicts_with = "shape")]
    pub killer: bool,
    /// Overlapping grids (samurai, twodoku, flower, sohei, butterfly,
    /// windmill, or a shape file), rated across the grids on the killer
    /// scale
    #[arg(long, value_name = "NAME|FILE")]
    pub shape: Option<String>,
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

pub fn run(args: RateArgs, out: &mut Out) -> Result<Found> {
    if let Some(shape) = &args.shape {
        let (threads, json) = (args.threads.get(), args.json.json);
        let input = args.input.as_deref();
        return super::gattai::rate(shape, input, threads, json, args.timeout.0, out);
    }
    if args.killer {
        let threads = args.threads.get();
        let (input, json) = (args.input.as_deref(), args.json.json);
        return super::killer::rate(input, threads, json, args.timeout.0, out);
    }
    let (name, text) = read_input(args.input.as_deref())?;
    let start = Instant::now();
    let cancel = crate::interrupt::cancel_flag();
    let total = read_puzzles(&text, None, Layout::Lines).len();
    let bar = match total {
        0 => ProgressBar::hidden(),
        1 => crate::progress::terminal_bar(None, "rating: {elapsed} {wide_msg}"),
        n => crate::progress::puzzles_bar(|| Some(n as u64)),
    };
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
    for (line, r) in &results {
        match r {
            Err(why) => eprintln!("{name}:{line}: invalid puzzle: {}", why.words(BOX_HINT)),
            Ok(None) => {
                eprintln!("{name}:{line}: the puzzle has no unique solution; it is not rated")
            }
            Ok(Some(_)) => {}
        }
        if args.json.json {
            out.record(&records::rate_record(*line, r, BOX_HINT))?;
        } else {
            out.line(&records::rate_text(r, BOX_HINT))?;
        }
    }
    out.flush()?;
    let c = RateCounts::of(&results);
    if c.answered > 1 || c.stopped > 0 {
        eprintln!("{}", c.summary(start.elapsed().as_secs_f64()));
    }
    let verdict = c.verdict(cancel.load(Ordering::Relaxed));
    if verdict == BatchVerdict::Stopped {
        let n = plural(c.answered, "puzzle", "puzzles");
        eprintln!("interrupted: {n} of {total} rated");
    }
    Ok(found_of(verdict))
}
