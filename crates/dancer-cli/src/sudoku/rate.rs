//! `dancer sudoku rate`: SE-scale ratings and levels, one line per puzzle.

use super::common::read_input;
use crate::args::{JsonArg, ThreadsArg};
use crate::output::Found;
use crate::output::Out;
use anyhow::Result;
use clap::Args;
use dancer_sudoku::{batch, records};
use std::time::Instant;

#[derive(Args)]
pub struct RateArgs {
    /// Puzzle file, one per line; - or nothing for standard input; or a puzzle
    pub input: Option<String>,
    #[command(flatten)]
    pub json: JsonArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
}

pub fn run(args: RateArgs, out: &mut Out) -> Result<Found> {
    let (name, text) = read_input(args.input.as_deref())?;
    let start = Instant::now();
    let results = batch::rate(&text, args.threads.get())?;
    let mut invalid = 0;
    for (line, r) in &results {
        match r {
            Err(why) => {
                invalid += 1;
                eprintln!("{name}:{line}: invalid puzzle: {why}");
            }
            Ok(None) => {
                invalid += 1;
                eprintln!("{name}:{line}: the puzzle has no unique solution; it is not rated");
            }
            Ok(Some(_)) => {}
        }
        if args.json.json {
            out.record(&records::rate_record(*line, r))?;
        } else {
            out.line(&match r {
                Err(why) => format!("invalid: {why}"),
                Ok(None) => "not unique".to_string(),
                Ok(Some(rt)) => format!("{:.1} {}", rt.se, rt.level.name()),
            })?;
        }
    }
    out.flush()?;
    if results.len() > 1 {
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "{} puzzles rated in {secs:.2} s ({:.0}/s)",
            results.len(),
            results.len() as f64 / secs.max(1e-9)
        );
    }
    Ok(if invalid > 0 {
        Found::Invalid
    } else {
        Found::Some
    })
}
