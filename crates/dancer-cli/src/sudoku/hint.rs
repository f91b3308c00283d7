//! `dancer sudoku hint`: the easiest next step, in words or as a record
//! (both made by `dancer_sudoku::hint`).

use super::common::read_one;
use super::rate::{parse_timeout, Timeout};
use crate::args::{JsonArg, Named};
use crate::output::{Found, Out};
use anyhow::Result;
use clap::Args;
use dancer_sudoku::hint::{hint_within, Hint, HintLevel};
use dancer_sudoku::logic::{Budget, Stop};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

#[derive(Args)]
pub struct HintArgs {
    /// The puzzle (81 characters, `.` or `0` for empty; the player's entries
    /// may be filled in), or a file holding it
    pub puzzle: String,
    /// How much to tell: nudge (only the technique and where to look) or
    /// full (the whole step: cells, candidates, what to place or remove)
    #[arg(long, default_value = "full", value_parser = Named::new(HintLevel::NAMES, |s| HintLevel::from_name(s).ok_or_else(|| format!("unknown hint level {s:?} (known: nudge, full)"))))]
    pub level: HintLevel,
    /// The most time the search may take, in seconds, or `none`; after it,
    /// the hint says how hard the next step is at least
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = parse_timeout)]
    pub timeout: Timeout,
    #[command(flatten)]
    pub json: JsonArg,
}

pub fn run(args: HintArgs, out: &mut Out) -> Result<Found> {
    let p = read_one(&args.puzzle)?;
    let level = args.level;
    let cancel = crate::interrupt::cancel_flag();
    let budget = match args.timeout.0 {
        Some(d) => Budget::timeout(d),
        None => Budget::unlimited(),
    }
    .with_cancel(cancel);
    // The search is quick but for the hardest puzzles: say so on a terminal.
    let spinner = if std::io::stderr().is_terminal() {
        let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        b.set_style(
            ProgressStyle::with_template("looking for the easiest step... {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        b.enable_steady_tick(Duration::from_millis(200));
        b
    } else {
        ProgressBar::hidden()
    };
    let h = hint_within(&p, &budget);
    spinner.finish_and_clear();
    let h = h?;
    if args.json.json {
        out.record(&h.record(level))?;
    } else {
        out.text(&h.text(level))?;
    }
    Ok(match h {
        Hint::Stopped(s) if s.why == Stop::Interrupted => Found::Interrupted,
        h if h.found() => Found::Some,
        _ => Found::None,
    })
}
