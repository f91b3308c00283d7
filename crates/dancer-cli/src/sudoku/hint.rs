//! `dancer sudoku hint`: the easiest next step, in words or as a record
//! (both made by `dancer_sudoku::hint`).

use super::common::read_one;
use crate::args::JsonArg;
use crate::output::Found;
use crate::output::Out;
use anyhow::Result;
use clap::{Args, ValueEnum};
use dancer_sudoku::hint::{hint, HintLevel};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LevelArg {
    /// Only the technique and where to look
    Nudge,
    /// The whole step: cells, candidates, what to place or remove
    Full,
}

#[derive(Args)]
pub struct HintArgs {
    /// The puzzle (81 characters, `.` or `0` for empty; the player's entries
    /// may be filled in), or a file holding it
    pub puzzle: String,
    /// How much to tell
    #[arg(long, value_enum, default_value = "full")]
    pub level: LevelArg,
    #[command(flatten)]
    pub json: JsonArg,
}

pub fn run(args: HintArgs, out: &mut Out) -> Result<Found> {
    let p = read_one(&args.puzzle)?;
    let level = match args.level {
        LevelArg::Nudge => HintLevel::Nudge,
        LevelArg::Full => HintLevel::Full,
    };
    let h = hint(&p)?;
    if args.json.json {
        out.record(&h.record(level))?;
    } else {
        out.text(&h.text(level))?;
    }
    Ok(if h.found() { Found::Some } else { Found::None })
}
