//! The batch commands, `dancer sudoku solve`, `count` and `check`: a line
//! per puzzle, in input order (`dancer_sudoku::records::BatchOutput`),
//! run on threads (`dancer_sudoku::batch::run_watched`); or, with `--shard
//! K/N`, part K of a batch file into its part file (`dancer_runs::batch`:
//! the part file started or resumed, the part run and its record saved
//! every `--checkpoint-every` seconds, at its end or on a signal), which
//! `dancer merge` puts back together. Here: flags, bar and messages.

use super::common::{batch_error, found, CommonArgs, BOX_HINT};
use crate::output::{Found, Out};
use anyhow::{bail, Context, Result};
use clap::Args;
use dancer_core::plural;
use dancer_formats::out_file::{same_file, OutFile, OutKind};
use dancer_runs::batch::{self as part, PartFile, PartRun, PartSettings};
use dancer_runs::search::ShardSpec;
use dancer_sudoku::batch::{self, Answers, Batch, LineOutcome, Tally};
use dancer_sudoku::killer::is_killer_text;
use dancer_sudoku::records::BatchOutput;
use dancer_sudoku::Layout;
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Args)]
#[command(after_long_help = SHARDS_HELP)]
pub struct SolveArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    #[command(flatten)]
    pub killer: KillerArg,
    #[command(flatten)]
    pub shape: super::gattai::ShapeArg,
    /// Print grids with box lines, for people
    #[arg(long)]
    pub pretty: bool,
    #[command(flatten)]
    pub shard: ShardArgs,
}

#[derive(Args)]
#[command(after_long_help = SHARDS_HELP)]
pub struct CountArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    #[command(flatten)]
    pub killer: KillerArg,
    #[command(flatten)]
    pub shape: super::gattai::ShapeArg,
    /// Stop counting at N (default: count all)
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    #[command(flatten)]
    pub shard: ShardArgs,
}

/// `--killer`: the lines are killer puzzles.
#[derive(Args, Clone, Copy, Debug)]
pub struct KillerArg {
    /// Killer Sudoku: each line is MAP SUMS [GIVENS]: MAP one letter or
    /// digit per cell, a cage's cells sharing theirs (. for none); SUMS the
    /// cage sums, comma-separated, in the order of the cages' first cells;
    /// GIVENS an optional puzzle line
    #[arg(long, conflicts_with_all = ["layout", "engine", "shard"])]
    pub killer: bool,
}

/// `check` takes the flags of `solve`, its `--pretty` said as
/// [`CHECK_PRETTY`].
pub type CheckArgs = SolveArgs;

/// What `--pretty` does for `check`.
pub const CHECK_PRETTY: &str = "Print each puzzle as a grid with box lines above its verdict";

/// What `--help` of the batch commands says of shards, after the flags.
pub const SHARDS_HELP: &str = include_str!("../../help/sudoku-shards.txt").trim_ascii_end();

/// `--shard K/N` and its company, for the batch commands.
#[derive(Args, Clone, Debug)]
pub struct ShardArgs {
    /// Run only part K of N (1-based) of a batch file, its lines cut into N
    /// even ranges, and write its answers to a part file for `dancer merge`
    /// instead of standard output (files of one puzzle per line only)
    #[arg(long, value_name = "K/N", value_parser = |s: &str| s.parse::<ShardSpec>().map_err(|e| e.to_string()))]
    pub shard: Option<ShardSpec>,
    /// Where the part file goes (default: the --resume file, else
    /// shard-K-of-N.json); rewritten while the part runs, and at its end or
    /// on a signal (exit 130)
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub shard_out: Option<PathBuf>,
    /// Go on from the part file of a part that was stopped (same file,
    /// flags and --shard): only the lines it has not answered run; a
    /// complete one is left as it is
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub resume: Option<PathBuf>,
    /// Seconds between rewrites of the part file while the part runs
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = crate::args::parse_seconds, requires = "shard")]
    pub checkpoint_every: f64,
}

pub fn solve(a: SolveArgs, out: &mut Out) -> Result<Found> {
    let output = BatchOutput::Solve { pretty: a.pretty };
    if let Some(s) = &a.shape.shape {
        return shaped(s, &a.common, output, out);
    }
    run(&a.common, a.killer, &a.shard, output, out)
}

pub fn count(a: CountArgs, out: &mut Out) -> Result<Found> {
    let limit = a.limit.unwrap_or(u64::MAX);
    if limit == 0 {
        bail!("--limit must be at least 1");
    }
    if let Some(s) = &a.shape.shape {
        return shaped(s, &a.common, BatchOutput::Count { limit }, out);
    }
    run(
        &a.common,
        a.killer,
        &a.shard,
        BatchOutput::Count { limit },
        out,
    )
}

/// `--shape`: overlapping grids, a line at a time.
fn shaped(shape: &str, a: &CommonArgs, output: BatchOutput, out: &mut Out) -> Result<Found> {
    let (threads, json) = (a.threads.get(), a.json.json);
    super::gattai::batch(shape, a.input.as_deref(), output, threads, json, out)
}

pub fn check(a: CheckArgs, out: &mut Out) -> Result<Found> {
    let output = BatchOutput::Check { pretty: a.pretty };
    if let Some(s) = &a.shape.shape {
        return shaped(s, &a.common, output, out);
    }
    run(&a.common, a.killer, &a.shard, output, out)
}

/// Reads, solves and reports: what `output` prints of each puzzle goes
/// to standard output (with `--shard`, to the part file), invalid puzzles
/// are also named on standard error, and a summary line ends the run.
fn run(
    a: &CommonArgs,
    k: KillerArg,
    sa: &ShardArgs,
    output: BatchOutput,
    out: &mut Out,
) -> Result<Found> {
    let b = Batch {
        spec: a.spec()?.with_killer(k.killer),
        engine: a.engine,
        layout: a.layout(),
        limit: output.limit(),
        keep: output.keep(),
        threads: a.threads.get(),
        first_line: 1,
        cancel: Some(crate::interrupt::cancel_flag()),
    };
    let json = a.json.json;
    let render =
        |line, o: &LineOutcome, buf: &mut String| output.push(line, o, json, BOX_HINT, buf);
    if let Some(s) = sa.shard {
        return run_part(a, sa, s, output, &b, render);
    }
    let (name, text) = match a.input.as_deref() {
        // a killer puzzle given as the argument itself
        Some(arg) if k.killer && !Path::new(arg).exists() && is_killer_text(arg) => {
            ("<argument>".to_string(), arg.to_string())
        }
        input => super::common::read_input(input)?,
    };
    if let Some(line) = batch::killer_line(&text).filter(|_| !k.killer) {
        bail!("{name}:{line}: a killer puzzle (MAP SUMS): give --killer to read killer puzzles");
    }
    let (start, bar) = (Instant::now(), bar(&text));
    let tick = |n| bar.set_position(n);
    let each = |ans: Answers| report(&name, &ans).and_then(|()| out.text(ans.text));
    let ticks = (!bar.is_hidden()).then_some(&tick as &(dyn Fn(u64) + Sync));
    let tally = batch::run_watched(&b, &text, render, each, ticks).map_err(batch_error)?;
    bar.finish_and_clear();
    out.flush()?;
    if tally.stopped {
        let n = plural(tally.puzzles(), "puzzle", "puzzles");
        eprintln!("interrupted: {n} answered, in input order");
    }
    summary(&tally, start.elapsed(), b.threads, a.threads.given());
    Ok(found(&tally, output.all_unique()))
}

/// On a terminal, for a file of more than 100 puzzles, one a line, a bar
/// of puzzles solved.
fn bar(text: &str) -> ProgressBar {
    let many = |n: &u64| *n > 100 && !batch::is_grid_text(text, Layout::Auto);
    crate::progress::puzzles_bar(|| Some(batch::puzzle_lines(text)).filter(many))
}

/// Names a unit's invalid puzzles on standard error.
fn report(name: &str, a: &Answers) -> std::io::Result<()> {
    for (line, o, _) in a.outcomes {
        if let LineOutcome::Invalid(why) = o {
            eprintln!("{name}:{line}: invalid puzzle: {}", why.words(BOX_HINT));
        }
    }
    Ok(())
}

/// The summary line of a batch on standard error (for more than one
/// puzzle, or when `--threads` was given), in one write: standard error
/// is not buffered.
fn summary(t: &Tally, elapsed: Duration, threads: usize, threads_given: bool) {
    if t.puzzles() > 1 || threads_given {
        let line = format!("{}\n", t.summary(elapsed.as_secs_f64(), threads));
        let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
    }
}

/// Part `s` of a batch file, run as `b` says: from the part file resumed,
/// or from its start, into its part file.
fn run_part(
    a: &CommonArgs,
    sa: &ShardArgs,
    s: ShardSpec,
    output: BatchOutput,
    b: &Batch,
    render: impl Fn(usize, &LineOutcome, &mut String) + Sync,
) -> Result<Found> {
    let (out_path, out_file) = part_files(a, sa, s)?;
    let (name, text) = super::common::read_input(a.input.as_deref())?;
    if let Some(line) = batch::killer_line(&text) {
        bail!(
            "--shard: {name}:{line} is a killer puzzle (MAP SUMS): killer files are read with --killer, which runs them whole, not in shards"
        );
    }
    if batch::is_grid_text(&text, a.layout()) {
        bail!(
            "--shard: {name} holds grids over several lines: only files of one puzzle per line are split into shards"
        );
    }
    let jigsaw = a.jigsaw_map()?;
    let settings = PartSettings {
        boxes: a.boxes.as_deref(),
        jigsaw: jigsaw.as_deref(),
        diagonal: a.diagonal,
        windoku: a.windoku,
        layout: a.layout(),
        json: a.json.json,
        engine: a.engine,
        output,
    };
    let resume = sa.resume.as_deref();
    let saved = resume.map(|f| crate::input::read_file(f, part::MAX_PART_BYTES));
    let from = resume.map_or(String::new(), |f| f.display().to_string());
    let p = PartFile::start(&text, &name, &settings, s, saved.transpose()?.as_deref())
        .with_context(|| format!("{from}: cannot resume from it"))?;
    if let Some(path) = resume.filter(|_| p.complete) {
        eprintln!("{from}: {p} is complete: nothing to do");
        if !same_file(path, &out_path) {
            write_part(&out_file, &p)?;
        }
        return Ok(Found::Some);
    }
    let mut run = PartRun::new(p, Duration::from_secs_f64(sa.checkpoint_every));
    let (start, bar) = (Instant::now(), bar(run.rest(&text)));
    let tick = |n| bar.set_position(n);
    let ticks = (!bar.is_hidden()).then_some(&tick as &(dyn Fn(u64) + Sync));
    let save = |p: &PartFile| {
        write_part(&out_file, p).map_err(|e| std::io::Error::other(format!("{e:#}")))
    };
    let report = |ans: &Answers| report(&name, ans);
    let tally = run
        .run(b, &text, render, report, save, ticks)
        .map_err(batch_error)?;
    bar.finish_and_clear();
    summary(&tally, start.elapsed(), b.threads, a.threads.given());
    let (p, file) = (run.part(), out_path.display());
    if tally.stopped {
        eprintln!(
            "interrupted: {p} saved to {file}, to go on from line {}: run it again with --resume {file}",
            p.next
        );
        return Ok(Found::Interrupted);
    }
    let n = plural(p.tally().puzzles(), "puzzle", "puzzles");
    eprintln!("{p} complete: {n} in {file}");
    Ok(found(&p.tally(), output.all_unique()))
}

/// The part file a part writes ([`part::part_path`]), checked with the
/// file it resumes against the batch file it reads: never the input, only
/// regular files (read back to resume and merge). The batch must be a
/// file, named: what is split is its lines.
fn part_files(a: &CommonArgs, sa: &ShardArgs, s: ShardSpec) -> Result<(PathBuf, OutFile)> {
    let input = match a.input.as_deref() {
        None | Some("-") => bail!("--shard: standard input cannot be split into shards: give the batch file"),
        Some(f) if !Path::new(f).is_file() => bail!(
            "--shard: {f:?} is not a file: only a batch file (one puzzle per line) is split into shards"
        ),
        Some(f) => Path::new(f),
    };
    let out_path = part::part_path(sa.shard_out.as_deref(), sa.resume.as_deref(), s);
    let inputs = [(input, "the batch file")];
    if let Some(r) = &sa.resume {
        OutFile::new(r, OutKind::State, &inputs).context("--resume")?;
    }
    let out_file = OutFile::new(&out_path, OutKind::State, &inputs).context("--shard-out")?;
    Ok((out_path, out_file))
}

/// Writes a part file, whole or not at all ([`OutFile::write`]).
fn write_part(file: &OutFile, p: &PartFile) -> Result<()> {
    file.write(&p.to_json())
        .context("cannot write the part file")
}
