//! `dancer sudoku hint`: the easiest next step, in words or as a record
//! (both made by `dancer_sudoku::hint`).

use super::common::read_one;
use crate::args::{JsonArg, Named};
use crate::output::{Found, Out};
use anyhow::Result;
use clap::Args;
use dancer_sudoku::hint::{hint, HintLevel};

#[derive(Args)]
pub struct HintArgs {
    /// The puzzle (81 characters, `.` or `0` for empty; the player's entries
    /// may be filled in), or a file holding it
    pub puzzle: String,
    /// How much to tell: nudge (only the technique and where to look) or
    /// full (the whole step: cells, candidates, what to place or remove)
    #[arg(long, default_value = "full", value_parser = Named::new(HintLevel::NAMES, |s| HintLevel::from_name(s).ok_or_else(|| format!("unknown hint level {s:?} (known: nudge, full)"))))]
    pub level: HintLevel,
    #[command(flatten)]
    pub json: JsonArg,
}

pub fn run(args: HintArgs, out: &mut Out) -> Result<Found> {
    let p = read_one(&args.puzzle)?;
    let level = args.level;
    let h = hint(&p)?;
    if args.json.json {
        out.record(&h.record(level))?;
    } else {
        out.text(&h.text(level))?;
    }
    Ok(if h.found() { Found::Some } else { Found::None })
}
