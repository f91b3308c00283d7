//! `dancer sudoku hint`: the easiest next step, in words or as a record
//! (both made by `dancer_sudoku::hint`).

use super::common::{read_input, read_one};
use super::rate::{parse_timeout, Timeout};
use crate::args::{JsonArg, Named};
use crate::output::{Found, Out};
use anyhow::Result;
use clap::Args;
use dancer_sudoku::hint::{hint_within, Hint, HintLevel};
use dancer_sudoku::logic::{Budget, Halt};
use dancer_sudoku::Layout;

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
    /// the hint says how hard the next step is at least (with --killer or
    /// --shape, whose check that the puzzle has one solution it bounds too:
    /// that no hint came in time)
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = parse_timeout)]
    pub timeout: Timeout,
    /// Killer Sudoku: the puzzle is MAP SUMS [GIVENS] (see `dancer sudoku
    /// solve --help`), or its JSON form; the hint is a killer step
    #[arg(long, conflicts_with = "shape")]
    pub killer: bool,
    /// Overlapping grids (samurai, twodoku, flower, sohei, butterfly,
    /// windmill, or a shape file): the hint is a step across the grids
    #[arg(long, value_name = "NAME|FILE")]
    pub shape: Option<String>,
    #[command(flatten)]
    pub json: JsonArg,
}

pub fn run(args: HintArgs, out: &mut Out) -> Result<Found> {
    if let Some(shape) = &args.shape {
        let (level, json, timeout) = (args.level, args.json.json, args.timeout.0);
        return super::gattai::hint(shape, &args.puzzle, level, json, timeout, out);
    }
    if args.killer {
        let (level, json, timeout) = (args.level, args.json.json, args.timeout.0);
        return super::killer::hint(&args.puzzle, level, json, timeout, out);
    }
    let (name, text) = read_input(Some(&args.puzzle))?;
    let p = read_one(&name, &text, &Default::default(), Layout::Auto, false)?;
    let level = args.level;
    let cancel = crate::interrupt::cancel_flag();
    let budget = Budget::within(args.timeout.0).with_cancel(cancel);
    // The search is quick but for the hardest puzzles: say so on a terminal.
    let spinner = crate::progress::terminal_bar(None, "looking for the easiest step... {elapsed}");
    let h = hint_within(&p, &budget);
    spinner.finish_and_clear();
    let h = h?;
    if args.json.json {
        out.record(&h.record(level))?;
    } else {
        out.text(&h.text(level))?;
    }
    Ok(match h {
        Hint::Stopped(s) if s.why == Halt::Interrupted => Found::Interrupted,
        h if h.found() => Found::Some,
        _ => Found::None,
    })
}
