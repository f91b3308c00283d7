//! `dancer merge`: the result files of a sharded run put together, in
//! the command line's words. Reading them (their kind: a search's shards
//! or a Sudoku batch's parts) is `dancer_runs::GivenParts`'; the sums are
//! `dancer_runs::search::merge`'s (the counts added up) and
//! `dancer_runs::batch::merge`'s (the outputs in order of K: the batch's,
//! run whole). The exit code is a search's (`Found::of_search`: 130 when
//! a part was interrupted) or a batch's (`sudoku::common::found`).
//! `--missing` prints instead the parts to run again, for either kind, as
//! `sbatch --array` takes them.

use crate::args::JsonArg;
use crate::input::read_file as read;
use crate::output::{Found, Out};
use anyhow::{anyhow, bail, Result};
use clap::Args;
use dancer_core::parallel::Stop;
use dancer_formats::ndjson::SolveRecord;
use dancer_runs::batch::{self, PartFile, PartsMergeError};
use dancer_runs::parts::{PartsError, ToRerun};
use dancer_runs::search::{self, Saved};
use dancer_runs::GivenParts;
use std::path::PathBuf;

#[derive(Args)]
pub struct MergeArgs {
    /// Result files written by `dancer solve --shard K/N`, or part files
    /// written by `dancer sudoku solve|count|check --shard K/N` (printed in
    /// order: the output of the whole batch)
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print the parts to run again instead (missing, or stopped before
    /// the end), as the K values of an `sbatch --array` (`3-5,9`; nothing
    /// when every part is there and complete)
    #[arg(long, conflicts_with = "json")]
    pub missing: bool,
    #[command(flatten)]
    pub json: JsonArg,
}

pub fn run(args: MergeArgs, out: &mut Out) -> Result<Found> {
    let first = read(&args.files[0], batch::MAX_PART_BYTES)?;
    if args.json.json && dancer_runs::is_part(&first) {
        bail!("--json: the parts of a Sudoku batch print their output as it was made (run them with --json for NDJSON)");
    }
    match GivenParts::read(&args.files, first, read)? {
        GivenParts::Search(saved) => sum(&args, &saved, out),
        GivenParts::Sudoku(parts) => print_parts(&args, &parts, out),
    }
}

/// A search's shards: their count, or the parts to run again.
fn sum(args: &MergeArgs, saved: &[(String, Saved)], out: &mut Out) -> Result<Found> {
    if args.missing {
        return print_rerun(out, saved.len(), &search::to_rerun(saved)?);
    }
    let m = search::merge(saved)?;
    for (f, stopped) in &m.incomplete {
        let why = match stopped {
            Some(Stop::Limit) => ": stopped at its limit",
            Some(Stop::Interrupted) => ": interrupted",
            None => "",
        };
        eprintln!("warning: {f} is incomplete{why}");
    }
    if args.json.json {
        let mut record = SolveRecord::summary(&m.stats, m.complete, m.stopped);
        if let SolveRecord::Summary { solutions, .. } = &mut record {
            // exact at any size (a memoized count's parts)
            *solutions = m.solutions.clone();
        }
        out.record(&record)?;
    } else {
        out.line(&m.solutions.to_string())?;
    }
    eprintln!("{m}");
    Ok(Found::of_search(m.stats.solutions, m.stopped))
}

/// `--missing`: the parts to run again on standard output (nothing when
/// none is), and a line on standard error.
fn print_rerun(out: &mut Out, given: usize, r: &ToRerun) -> Result<Found> {
    let array = r.array();
    if !array.is_empty() {
        out.line(&array)?;
    }
    eprintln!("{}", r.summary(given));
    Ok(Found::Some)
}

/// A Sudoku batch's parts: their outputs in order, or the parts to run
/// again.
fn print_parts(args: &MergeArgs, parts: &[(String, PartFile)], out: &mut Out) -> Result<Found> {
    if args.missing {
        return print_rerun(out, parts.len(), &batch::to_rerun(parts)?);
    }
    let m = batch::merge(parts).map_err(|e| match e {
        // what to do about it, in the command line's words
        PartsMergeError::Parts(PartsError::Missing { n, .. }) => {
            anyhow!("{e} (run each with --shard K/{n})")
        }
        PartsMergeError::Parts(PartsError::Incomplete { n, .. }) => {
            anyhow!("{e} (finish each with --shard K/{n} --resume FILE)")
        }
        e => e.into(),
    })?;
    for &i in &m.order {
        out.text(&dancer_runs::reread(&args.files, i, &parts[i].1, read)?.output)?;
    }
    out.flush()?;
    let line = format!("{m}\n");
    let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
    Ok(crate::sudoku::common::found(&m.tally, m.command == "check"))
}
