//! What the Sudoku subcommands share: the input and rules flags, reading
//! the input (a file, standard input, or a puzzle given as the argument),
//! and the batch run with its progress bar and summary line.

use crate::args::{JsonArg, Named, ThreadsArg};
use crate::output::Found;
use crate::output::Out;
use anyhow::{bail, Result};
use clap::Args;
use dancer_sudoku::batch::{self, Batch, BatchError, Outcome, RulesSpec, Tally};
use dancer_sudoku::{read_puzzles, Engine, Layout, Puzzle};
use indicatif::{ProgressBar, ProgressDrawTarget};
use std::io::IsTerminal;
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
    #[arg(long, default_value = "auto", value_parser = Named::new(Engine::NAMES, |s| s.parse::<Engine>()))]
    pub engine: Engine,
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
        let map = match &self.jigsaw {
            Some(j) if std::path::Path::new(j).is_file() => Some(crate::input::read_file(
                std::path::Path::new(j),
                crate::input::MAX_SMALL,
            )?),
            j => j.clone(),
        };
        Ok(RulesSpec::new(
            self.boxes.as_deref(),
            map.as_deref(),
            self.diagonal,
            self.windoku,
        )?)
    }
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
    e.puzzle
        .map_err(|err| anyhow::anyhow!("{name}:{}: invalid puzzle: {err}", e.line))
}

/// Reads, solves (in parallel, output in input order) and reports: each
/// puzzle's outcome goes through `render` (on the worker threads) to
/// standard output, invalid ones
/// are also named on standard error, and a summary line ends the run.
pub fn run_batch(
    a: &CommonArgs,
    limit: u64,
    keep: usize,
    out: &mut Out,
    render: impl Fn(usize, &Outcome, &mut String) + Sync,
) -> Result<Tally> {
    let spec = a.spec()?;
    let (name, text) = read_input(a.input.as_deref())?;
    let threads = a.threads.get();
    let bar = batch_bar(&text);
    let cancel = crate::interrupt::cancel_flag();
    let b = Batch {
        spec,
        engine: a.engine,
        layout: a.layout(),
        limit,
        keep,
        threads,
        cancel: Some(cancel.clone()),
    };
    let start = Instant::now();
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
            &b,
            &text,
            render,
            |a: batch::Answers| {
                for (line, o, _) in a.outcomes {
                    if let Outcome::Invalid(why) = o {
                        eprintln!("{name}:{line}: invalid puzzle: {why}");
                    }
                }
                out.text(a.text)
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
    out.flush()?;
    let n = tally.puzzles();
    if tally.stopped {
        eprintln!(
            "interrupted: {} answered, in input order",
            dancer_core::plural(n, "puzzle", "puzzles")
        );
    }
    let secs = start.elapsed().as_secs_f64();
    if n > 1 || a.threads.given() {
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
    Ok(tally)
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

/// The exit code of a batch: 2 if any input was invalid; else 0 when every
/// puzzle has a solution (with `all_unique`: exactly one).
pub fn found(t: &Tally, all_unique: bool) -> Found {
    if t.invalid > 0 {
        Found::Invalid
    } else if all_unique {
        if t.multiple == 0 && t.none == 0 {
            Found::Some
        } else {
            Found::None
        }
    } else if t.none == 0 {
        Found::Some
    } else {
        Found::None
    }
}

/// An invalid puzzle's line.
pub fn push_invalid(why: &str, buf: &mut String) {
    buf.push_str("invalid: ");
    buf.push_str(why);
    buf.push('\n');
}

/// A record as one line.
pub fn push_record<T: serde::Serialize>(r: &T, buf: &mut String) {
    buf.push_str(&serde_json::to_string(r).expect("plain data serialises"));
    buf.push('\n');
}
