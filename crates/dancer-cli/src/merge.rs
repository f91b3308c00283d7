//! `dancer merge`: puts the result files of a sharded run together. The
//! first file says which kind of run it was:
//!
//! * a search's shards (`dancer solve --shard K/N`): their counts are
//!   added up; the rules (same problem, engine, version and split, no
//!   duplicates, none missing) are `dancer_runs::search::merge`'s;
//! * a Sudoku batch's parts (`dancer sudoku solve|count|check --shard
//!   K/N`, format `dancer-sudoku-shard`): their outputs are printed in
//!   order of K, which is exactly what the batch prints run whole; the
//!   rules (parts of one input, command and flags, none twice, none
//!   missing, all complete) are `dancer_runs::batch::merge`'s. Each file
//!   is read twice, once to check them all and once to print its output,
//!   so that one part's output at a time is in memory.
//!
//! The exit code of a search follows the rule of a search
//! (`Found::of_search`) for the whole: a part that was interrupted makes
//! the sum an interrupted search's (130), since its count is partial;
//! parts stopped at their `--limit` leave it 0 or 1, the summary saying
//! "stopped at the limit". That of a Sudoku batch is the batch's
//! (`dancer_sudoku::batch::Tally::verdict`): 2 when a puzzle was invalid, else 0 when
//! every puzzle has a solution (for `check`: exactly one), else 1.
//!
//! `--missing` prints instead the parts to run again, for either kind, in
//! the form of `sbatch --array` (`dancer_runs::parts::ToRerun::array`).

use crate::args::JsonArg;
use crate::output::{ending_text, plural, Found, Out};
use anyhow::{bail, Context, Result};
use clap::Args;
use dancer_core::parallel::Stop;
use dancer_formats::ndjson::SolveRecord;
use dancer_runs::batch::{self as parts, PartFile, ReadError};
use dancer_runs::parts::{PartsError, ToRerun};
use dancer_runs::search::{self, Saved};
use std::path::{Path, PathBuf};

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
    // the first file says what kind of run this is; it is read with the
    // limit of a part file (a part's output may be large)
    let first = crate::input::read_file(&args.files[0], parts::MAX_PART_BYTES)?;
    if parts::format_of(&first).as_deref() == Some(parts::FORMAT) {
        return run_sudoku(&args, first, out);
    }
    if first.len() as u64 > crate::input::MAX_SMALL {
        bail!(
            "{}: more than {} MiB: larger than dancer reads whole",
            args.files[0].display(),
            crate::input::MAX_SMALL >> 20
        );
    }
    let mut saved: Vec<(String, Saved)> = Vec::new();
    let mut first = Some(first);
    for f in &args.files {
        let text = match first.take() {
            Some(t) => t,
            None => crate::input::read_file(f, crate::input::MAX_SMALL)?,
        };
        if parts::format_of(&text).as_deref() == Some(parts::FORMAT) {
            bail!(
                "{}: a Sudoku part file, and {} is a search's shard result: they do not merge",
                f.display(),
                args.files[0].display()
            );
        }
        let s = Saved::from_json(&text)
            .with_context(|| format!("{}: not a shard result to add up", f.display()))?;
        saved.push((f.display().to_string(), s));
    }
    if args.missing {
        let r = search::to_rerun(&saved)?;
        print_rerun(out, saved.len(), &r)?;
        return Ok(Found::Some);
    }
    let m = search::merge(&saved)?;
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
    let how = match (m.complete, m.stopped) {
        (true, _) => "complete",
        (false, Some(s)) => ending_text(Some(s)),
        (false, None) => "incomplete",
    };
    eprintln!(
        "{}: {}, {}, {}, {:.3} s of work ({how})",
        plural(m.shards, "shard", "shards"),
        plural(&m.solutions, "solution", "solutions"),
        plural(m.stats.nodes, "node", "nodes"),
        plural(m.stats.updates, "update", "updates"),
        m.seconds,
    );
    Ok(Found::of_search(m.stats.solutions, m.stopped))
}

/// `--missing`: the parts to run again on standard output (nothing when
/// none is), and a line on standard error.
fn print_rerun(out: &mut Out, given: usize, r: &ToRerun) -> Result<()> {
    let array = r.array();
    if !array.is_empty() {
        out.line(&array)?;
    }
    let incomplete: Vec<String> = r.incomplete.iter().map(|k| k.to_string()).collect();
    eprintln!(
        "{} of {}: {}{}",
        plural(given, "part", "parts"),
        r.n,
        if array.is_empty() {
            "none to run again".to_string()
        } else {
            format!("to run again: {array}")
        },
        if incomplete.is_empty() {
            String::new()
        } else {
            format!(" (incomplete: {})", incomplete.join(", "))
        }
    );
    Ok(())
}

/// Reads a Sudoku part file, checked whole; `first` names the first file
/// (which was one) in the message about a file of another kind.
fn read_part(f: &Path, first: &Path) -> Result<PartFile> {
    let text = crate::input::read_file(f, parts::MAX_PART_BYTES)?;
    match PartFile::from_json(&text) {
        Ok(p) => Ok(p),
        Err(ReadError::Format(found)) => bail!(
            "{}: not a Sudoku part file (format {found:?}), and {} is one: only the parts of one run merge",
            f.display(),
            first.display()
        ),
        Err(e) => Err(anyhow::Error::new(e).context(format!(
            "{}: cannot merge it",
            f.display()
        ))),
    }
}

/// The parts of a sharded Sudoku batch: their outputs in order, or with
/// `--missing` the parts to run again.
fn run_sudoku(args: &MergeArgs, first_text: String, out: &mut Out) -> Result<Found> {
    if args.json.json {
        bail!(
            "--json: the parts of a Sudoku batch print their output as it was made (run them with --json for NDJSON)"
        );
    }
    let first = &args.files[0];
    let mut headers: Vec<(String, PartFile)> = Vec::new();
    let mut first_text = Some(first_text);
    for f in &args.files {
        let mut p = match first_text.take() {
            Some(t) => PartFile::from_json(&t)
                .with_context(|| format!("{}: cannot merge it", f.display()))?,
            None => read_part(f, first)?,
        };
        // checked whole; what is kept until it is printed is its checksum
        p.output = String::new();
        headers.push((f.display().to_string(), p));
    }
    if args.missing {
        let r = parts::to_rerun(&headers)?;
        print_rerun(out, headers.len(), &r)?;
        return Ok(Found::Some);
    }
    let m = parts::merge(&headers).map_err(|e| match e {
        // what to do about it, in the command line's words
        parts::MergeError::Parts(PartsError::Missing { n, .. }) => {
            anyhow::anyhow!("{e} (run each with --shard K/{n})")
        }
        parts::MergeError::Parts(PartsError::Incomplete { n, .. }) => {
            anyhow::anyhow!("{e} (finish each with --shard K/{n} --resume FILE)")
        }
        e => e.into(),
    })?;
    for &i in &m.order {
        let f = &args.files[i];
        let p = read_part(f, first)?;
        if p.checksum != headers[i].1.checksum {
            bail!(
                "{}: the file changed while the parts were merged",
                f.display()
            );
        }
        out.text(&p.output)?;
    }
    out.flush()?;
    let t = &m.tally;
    let line = format!(
        "{} of `sudoku {}`: {}: {} unique, {} multiple, {} none, {} invalid; {:.3} s of work\n",
        plural(m.shards, "part", "parts"),
        m.command,
        plural(t.puzzles(), "puzzle", "puzzles"),
        t.unique,
        t.multiple,
        t.none,
        t.invalid,
        m.seconds
    );
    let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
    Ok(crate::sudoku::common::found(t, m.command == "check"))
}
