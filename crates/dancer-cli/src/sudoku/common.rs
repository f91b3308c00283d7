//! What the Sudoku subcommands share: the input and rules flags, reading
//! the input (a file, standard input, or a puzzle given as the argument),
//! and the batch run with its progress bar and summary line.
//!
//! A batch file may also run in parts (`--shard K/N`, the batch commands'
//! [`ShardArgs`]): part K of its lines (`dancer_runs::batch` splits them
//! and owns the part file) runs as the whole batch would, numbering its
//! lines as the whole file does, and what it would print goes into the part
//! file instead of standard output, which is rewritten every
//! `--checkpoint-every` seconds while it runs and once more at its end or
//! on a signal (exit 130: `--resume` goes on from it). `dancer merge`
//! prints the parts' outputs in order: the whole run's standard output,
//! byte for byte.

use crate::args::{JsonArg, Named, ThreadsArg};
use crate::output::Found;
use crate::output::Out;
use anyhow::{bail, Context, Result};
use clap::Args;
use dancer_formats::out_file::{OutFile, OutKind};
use dancer_runs::batch::{self as part, PartFile};
use dancer_runs::search::ShardSpec;
use dancer_sudoku::batch::{
    self, Batch, BatchError, BatchVerdict, Invalid, Outcome, RulesSpec, SpecError, Tally,
};
use dancer_sudoku::{read_puzzles, Layout, Puzzle, SudokuEngine};
use indicatif::{ProgressBar, ProgressDrawTarget};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

#[derive(Args, Clone)]
pub struct CommonArgs {
    /// Puzzle file (one per line, or grids over several lines); - or nothing
    /// for standard input; or a puzzle itself, as one line
    pub input: Option<String>,
    /// Box shape ROWSxCOLS, e.g. 2x3 for 6x6 (default: inferred from the size)
    #[arg(long = "box", value_name = "RxC")]
    pub boxes: Option<String>,
    /// Jigsaw regions: one letter per cell (row-major), or a file holding them
    #[arg(long, value_name = "MAP|FILE")]
    pub jigsaw: Option<String>,
    /// Diagonal (X) Sudoku: each main diagonal holds every digit once
    #[arg(long, short = 'x')]
    pub diagonal: bool,
    /// Windoku (hyper): four extra 3x3 windows (9x9 only)
    #[arg(long, alias = "hyper")]
    pub windoku: bool,
    /// How puzzles are written (default: guessed)
    #[arg(long, value_enum)]
    pub layout: Option<LayoutArg>,
    #[command(flatten)]
    pub json: JsonArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Engine: auto, fast9 (plain 9x9), logic (any), dlx (exact cover)
    #[arg(long, default_value = "auto", value_parser = Named::new(SudokuEngine::NAMES, |s| s.parse::<SudokuEngine>()))]
    pub engine: SudokuEngine,
}

/// How the command line says to give the box shape of a grid whose size
/// has no usual boxes, after a puzzle of such a length
/// ([`dancer_sudoku::PuzzleError::words`]).
pub const BOX_HINT: &str = "use --box RxC for other shapes";

/// Rules that cannot be, in the command line's words: its flags `--box`
/// and `--jigsaw`.
pub fn spec_error(e: SpecError) -> anyhow::Error {
    match e {
        SpecError::Box { text, problem } => anyhow::anyhow!("--box {text:?}: {problem}"),
        SpecError::BoxAndJigsaw => anyhow::anyhow!("--box and --jigsaw cannot be used together"),
        SpecError::Jigsaw(e) => anyhow::anyhow!("--jigsaw: {e}"),
        SpecError::Rules(e) => e.into(),
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum LayoutArg {
    /// One puzzle per line
    Lines,
    /// Grids over several lines, separated by blank lines
    Grids,
}

impl CommonArgs {
    pub fn layout(&self) -> Layout {
        match self.layout {
            None => Layout::Auto,
            Some(LayoutArg::Lines) => Layout::Lines,
            Some(LayoutArg::Grids) => Layout::Grids,
        }
    }

    /// The rules asked for; a `--jigsaw` naming a file is read here.
    pub fn spec(&self) -> Result<RulesSpec> {
        let map = self.jigsaw_map()?;
        RulesSpec::new(
            self.boxes.as_deref(),
            map.as_deref(),
            self.diagonal,
            self.windoku,
        )
        .map_err(spec_error)
    }

    /// The jigsaw map: `--jigsaw` itself, or the file it names.
    fn jigsaw_map(&self) -> Result<Option<String>> {
        Ok(match &self.jigsaw {
            Some(j) if Path::new(j).is_file() => Some(crate::input::read_file(
                Path::new(j),
                crate::input::MAX_SMALL,
            )?),
            j => j.clone(),
        })
    }

    /// These flags as they change the output (for the fingerprint of a
    /// sharded run): every one but the input and `--threads`, the jigsaw
    /// map by its content.
    fn output_flags(&self) -> Result<Vec<(&'static str, String)>> {
        let layout = match self.layout {
            None => "auto",
            Some(LayoutArg::Lines) => "lines",
            Some(LayoutArg::Grids) => "grids",
        };
        Ok(vec![
            ("box", self.boxes.clone().unwrap_or_default()),
            ("jigsaw", self.jigsaw_map()?.unwrap_or_default()),
            ("diagonal", self.diagonal.to_string()),
            ("windoku", self.windoku.to_string()),
            ("layout", layout.into()),
            ("json", self.json.json.to_string()),
            ("engine", self.engine.name().into()),
        ])
    }
}

/// What `--help` of the batch commands says of shards, after the flags.
pub const SHARDS_HELP: &str = "\
Shards: a batch file too large for one machine runs in parts, one job each
(a Slurm array task, say): `--shard K/N` answers the K-th of N even ranges of
its lines and writes them to a part file, not to standard output; then
`dancer merge PARTS...` prints exactly what the command prints run whole.
A part stopped by a signal saves what it answered (exit 130), and so does a
running part every --checkpoint-every seconds; `--resume PART` goes on from
it. `dancer merge --missing PARTS...` lists the parts to run again.
  dancer sudoku solve big.txt --shard 3/16 --shard-out parts/3.json
  dancer merge parts/*.json > answers.txt";

/// `--shard K/N` and its company, for the batch commands (`solve`,
/// `count`, `check`).
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

/// A batch command: what its runs are, for exit codes and the part files
/// of its shards.
pub struct Job<'a> {
    /// `solve`, `count` or `check`.
    pub command: &'static str,
    /// Its own flags that change the output (`--pretty`, `--limit`), with
    /// their values.
    pub flags: Vec<(&'static str, String)>,
    pub shard: &'a ShardArgs,
    /// Exit 0 only when every puzzle has exactly one solution (`check`).
    pub all_unique: bool,
}

/// Where the puzzles come from, and the text: standard input for `None` or
/// `-`, a file, or a puzzle given as the argument itself. Input with no
/// puzzle at all (empty, or only blank lines and `#` comments) is an
/// error, the same for every subcommand: there is nothing to answer.
pub fn read_input(input: Option<&str>) -> Result<(String, String)> {
    let (name, text) = read_source(input)?;
    let blank = |l: &str| l.trim().is_empty() || l.trim_start().starts_with('#');
    if text.lines().all(blank) {
        let why = if text.trim().is_empty() {
            "the input is empty"
        } else {
            "the input has only blank lines and comments"
        };
        bail!("{name}: no puzzle found: {why}");
    }
    Ok((name, text))
}

fn read_source(input: Option<&str>) -> Result<(String, String)> {
    match input {
        None | Some("-") => Ok((
            crate::input::STDIN_NAME.into(),
            crate::input::read_stdin("puzzles")?,
        )),
        Some(path) if std::path::Path::new(path).exists() => {
            let s = crate::input::read_file(std::path::Path::new(path), crate::input::MAX_TEXT)?;
            Ok((path.to_string(), s))
        }
        Some(text) if batch::is_puzzle_text(text) || looks_like_a_puzzle(text) => {
            Ok(("<argument>".into(), text.trim().into()))
        }
        Some(text) => bail!("cannot open {text}: no such file (and it is not a puzzle either)"),
    }
}

/// An argument meant as a puzzle, though not a valid one: long, no path
/// separator, and mostly puzzle symbols (so that its error says what is
/// wrong with the puzzle, not that no such file exists).
fn looks_like_a_puzzle(text: &str) -> bool {
    let t = text.trim();
    let n = t.chars().count();
    let symbols = t
        .chars()
        .filter(|&c| c == '.' || c == '0' || c.is_ascii_alphanumeric())
        .count();
    n >= 16 && !t.contains('/') && !t.contains('\\') && symbols * 10 >= n * 9 && {
        let digits = t
            .chars()
            .filter(|c| c.is_ascii_digit() || *c == '.')
            .count();
        digits * 10 >= n * 8
    }
}

/// The first puzzle of the input (a file, or a puzzle given as itself).
pub fn read_one(input: &str) -> Result<Puzzle> {
    let (name, text) = read_input(Some(input))?;
    let Some(e) = read_puzzles(&text, None, Layout::Auto).into_iter().next() else {
        bail!("{name}: no puzzle found");
    };
    e.puzzle.map_err(|err| {
        anyhow::anyhow!("{name}:{}: invalid puzzle: {}", e.line, err.words(BOX_HINT))
    })
}

/// Reads, solves (in parallel, output in input order) and reports: each
/// puzzle's outcome goes through `render` (on the worker threads) to
/// standard output (or, with `--shard`, to the part file: see the module
/// documentation), invalid ones are also named on standard error, and a
/// summary line ends the run. What the run found, for the exit code.
pub fn run_batch(
    a: &CommonArgs,
    job: &Job,
    limit: u64,
    keep: usize,
    out: &mut Out,
    render: impl Fn(usize, &Outcome, &mut String) + Sync,
) -> Result<Found> {
    let spec = a.spec()?;
    if let Some(s) = job.shard.shard {
        return run_shard(a, job, s, spec, limit, keep, render);
    }
    let (name, text) = read_input(a.input.as_deref())?;
    let threads = a.threads.get();
    let b = Batch {
        spec,
        engine: a.engine,
        layout: a.layout(),
        limit,
        keep,
        threads,
        first_line: 1,
        cancel: Some(crate::interrupt::cancel_flag()),
    };
    let start = Instant::now();
    let tally = solve_text(&b, &name, &text, render, |text, _| out.text(text))?;
    out.flush()?;
    if tally.stopped {
        eprintln!(
            "interrupted: {} answered, in input order",
            dancer_core::plural(tally.puzzles(), "puzzle", "puzzles")
        );
    }
    summary(&tally, start.elapsed(), threads, a.threads.given());
    Ok(found(&tally, job.all_unique))
}

/// Runs batch `b` on `text` (from `name`, for messages), with its progress
/// bar: each unit's answers, in input order, go to `each` (their text, and
/// the outcomes with their lines); invalid puzzles are named on standard
/// error.
fn solve_text(
    b: &Batch,
    name: &str,
    text: &str,
    render: impl Fn(usize, &Outcome, &mut String) + Sync,
    mut each: impl FnMut(&str, &[(usize, Outcome, usize)]) -> std::io::Result<()> + Send,
) -> Result<Tally> {
    let bar = batch_bar(text);
    let done = AtomicU64::new(0);
    let finished = AtomicBool::new(false);
    let tally = std::thread::scope(|scope| {
        if !bar.is_hidden() {
            // the bar follows the workers' count, ten times a second
            scope.spawn(|| {
                while !finished.load(Ordering::Relaxed) {
                    bar.set_position(done.load(Ordering::Relaxed));
                    std::thread::sleep(Duration::from_millis(100));
                }
            });
        }
        // rendered on the worker threads; written here, in input order
        let r = batch::run_rendered(
            b,
            text,
            render,
            |a: batch::Answers| {
                for (line, o, _) in a.outcomes {
                    if let Outcome::Invalid(why) = o {
                        eprintln!("{name}:{line}: invalid puzzle: {}", why.words(BOX_HINT));
                    }
                }
                each(a.text, a.outcomes)
            },
            &done,
        );
        finished.store(true, Ordering::Relaxed);
        r
    })
    .map_err(|e| match e {
        BatchError::Output(io) => anyhow::Error::from(io),
        e => e.into(),
    })?;
    bar.finish_and_clear();
    Ok(tally)
}

/// The summary line of a batch on standard error (for more than one
/// puzzle, or when `--threads` was given).
fn summary(tally: &Tally, elapsed: Duration, threads: usize, threads_given: bool) {
    let n = tally.puzzles();
    let secs = elapsed.as_secs_f64();
    if n > 1 || threads_given {
        // one write: standard error is not buffered
        let line = format!(
            "{n} puzzle{} in {secs:.3} s: {:.0} puzzles/s ({threads} thread{}); {} unique, {} multiple, {} none, {} invalid\n",
            if n == 1 { "" } else { "s" },
            n as f64 / secs.max(1e-9),
            if threads == 1 { "" } else { "s" },
            tally.unique,
            tally.multiple,
            tally.none,
            tally.invalid
        );
        let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
    }
}

/// Part `s` of a batch file (see the module documentation): run from the
/// part file resumed, or from its start, into its part file.
fn run_shard(
    a: &CommonArgs,
    job: &Job,
    s: ShardSpec,
    spec: RulesSpec,
    limit: u64,
    keep: usize,
    render: impl Fn(usize, &Outcome, &mut String) + Sync,
) -> Result<Found> {
    let sa = job.shard;
    let (out_path, out_file) = part_files(a, sa, s)?;
    let (name, text) = read_input(a.input.as_deref())?;
    if batch::is_grid_text(&text, a.layout()) {
        bail!(
            "--shard: {name} holds grids over several lines: only files of one puzzle per line are split into shards"
        );
    }
    let mut flags = a.output_flags()?;
    flags.extend(job.flags.iter().cloned());
    let flags: Vec<(&str, &str)> = flags.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let fingerprint = part::fingerprint(&text, job.command, &flags);
    let lines = part::count_lines(&text);
    let p = match &sa.resume {
        None => PartFile::new(&fingerprint, job.command, s, lines),
        Some(path) => {
            let p = read_part(path)?;
            p.resumes(&name, job.command, s, &fingerprint, lines)
                .with_context(|| format!("{}: cannot resume from it", path.display()))?;
            if p.complete {
                eprintln!(
                    "{}: part {s} ({}) is complete: nothing to do",
                    path.display(),
                    lines_text(&p)
                );
                if !dancer_formats::out_file::same_file(path, &out_path) {
                    write_part(&out_file, &p)?;
                }
                return Ok(Found::Some);
            }
            p
        }
    };
    let mut run = part::PartRun::new(p, Duration::from_secs_f64(sa.checkpoint_every));
    let (next, end) = run.lines();
    let threads = a.threads.get();
    let b = Batch {
        spec,
        engine: a.engine,
        // one puzzle a line, as the whole file was found to be (a part's
        // own first lines are not looked at again)
        layout: Layout::Lines,
        limit,
        keep,
        threads,
        first_line: next,
        cancel: Some(crate::interrupt::cancel_flag()),
    };
    let slice = &text[part::line_bytes(&text, next, end)];
    let start = Instant::now();
    let result = solve_text(&b, &name, slice, render, |text, outcomes| {
        let mut t = Tally::default();
        for (_, o, _) in outcomes {
            t.add(o);
        }
        let last = outcomes.last().map(|(line, _, _)| *line);
        let due = run
            .answered(&t, text, last)
            .ok_or_else(|| std::io::Error::other("more puzzles than 64 bits count"))?;
        if due {
            write_part(&out_file, run.part())
                .map_err(|e| std::io::Error::other(format!("{e:#}")))?;
        }
        Ok(())
    });
    let tally = match result {
        Ok(t) => t,
        Err(e) => {
            // what was answered before the error is kept (the error
            // may be the part file's own: then nothing is)
            let _ = write_part(&out_file, run.close());
            return Err(e);
        }
    };
    let p = run.finish(tally.stopped);
    write_part(&out_file, p)?;
    summary(&tally, start.elapsed(), threads, a.threads.given());
    Ok(part_said(p, s, &out_path, tally.stopped, job.all_unique))
}

/// What became of part `s`, saved to `out_path`, on standard error; the
/// exit code.
fn part_said(
    p: &PartFile,
    s: ShardSpec,
    out_path: &Path,
    stopped: bool,
    all_unique: bool,
) -> Found {
    let file = out_path.display();
    if stopped {
        eprintln!(
            "interrupted: part {s} ({}) saved to {file}, to go on from line {}: run it again with --resume {file}",
            lines_text(p),
            p.next
        );
        return Found::Interrupted;
    }
    eprintln!(
        "part {s} ({}) complete: {} in {file}",
        lines_text(p),
        dancer_core::plural(p.tally().puzzles(), "puzzle", "puzzles")
    );
    found(&p.tally(), all_unique)
}

/// The part file a part writes (`--shard-out`, else the `--resume` file,
/// else `shard-K-of-N.json`), checked with the file it resumes against
/// the batch file it reads: never the input, only regular files (read
/// back to resume and merge). The batch must be a file, named: what is
/// split is its lines.
fn part_files(a: &CommonArgs, sa: &ShardArgs, s: ShardSpec) -> Result<(PathBuf, OutFile)> {
    let input = match a.input.as_deref() {
        None | Some("-") => bail!("--shard: standard input cannot be split into shards: give the batch file"),
        Some(f) if !Path::new(f).is_file() => bail!(
            "--shard: {f:?} is not a file: only a batch file (one puzzle per line) is split into shards"
        ),
        Some(f) => Path::new(f),
    };
    let out_path = sa
        .shard_out
        .clone()
        .or_else(|| sa.resume.clone())
        .unwrap_or_else(|| PathBuf::from(format!("shard-{}-of-{}.json", s.k, s.n)));
    let inputs = [(input, "the batch file")];
    if let Some(r) = &sa.resume {
        OutFile::new(r, OutKind::State, &inputs).context("--resume")?;
    }
    let out_file = OutFile::new(&out_path, OutKind::State, &inputs).context("--shard-out")?;
    Ok((out_path, out_file))
}

/// `lines 2501 to 5000 of 10000` (or `no line of 3`).
fn lines_text(p: &PartFile) -> String {
    if p.first == p.end {
        format!("no line of {}", p.lines)
    } else {
        format!("lines {} to {} of {}", p.first, p.end - 1, p.lines)
    }
}

/// Reads a part file, checked whole (`PartFile::from_json`).
fn read_part(path: &Path) -> Result<PartFile> {
    let text = crate::input::read_file(path, part::MAX_PART_BYTES)?;
    PartFile::from_json(&text).with_context(|| format!("{}: cannot resume from it", path.display()))
}

/// Writes a part file, whole or not at all ([`OutFile::write`]).
fn write_part(file: &OutFile, p: &PartFile) -> Result<()> {
    file.write(&p.to_json())
        .context("cannot write the part file")
}

/// On a terminal, for a file of more than 100 puzzles, a bar of puzzles
/// solved ([`crate::progress::batch_bar`]: within 80 columns, plain
/// numbers), drawn at once and moved as each puzzle is done.
fn batch_bar(text: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let puzzles = text
        .lines()
        .filter(|l| {
            let l = l.trim();
            !l.is_empty() && !l.starts_with('#')
        })
        .count() as u64;
    if puzzles <= 100 || batch::is_grid_text(text, Layout::Auto) {
        return ProgressBar::hidden();
    }
    let b = crate::progress::batch_bar(ProgressDrawTarget::stderr(), puzzles, "puzzles");
    b.enable_steady_tick(Duration::from_millis(200));
    b
}

/// The exit code of a batch, from its tally ([`Tally::verdict`]): 130
/// if a signal stopped it; 2 if any input was invalid; else 0 when every
/// puzzle has a solution (with `all_unique`: exactly one). (`dancer
/// merge` gives the parts of a sharded batch the same.)
pub fn found(t: &Tally, all_unique: bool) -> Found {
    match t.verdict(all_unique) {
        BatchVerdict::Stopped => Found::Interrupted,
        BatchVerdict::Invalid => Found::Invalid,
        BatchVerdict::Answered => Found::Some,
        BatchVerdict::Unanswered => Found::None,
    }
}

/// An invalid puzzle's line.
pub fn push_invalid(why: &Invalid, buf: &mut String) {
    buf.push_str("invalid: ");
    buf.push_str(&why.words(BOX_HINT));
    buf.push('\n');
}

/// A record as one line.
pub fn push_record<T: serde::Serialize>(r: &T, buf: &mut String) {
    buf.push_str(&serde_json::to_string(r).expect("plain data serialises"));
    buf.push('\n');
}
