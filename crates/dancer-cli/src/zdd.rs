//! `dancer zdd`: reads a ZDD of solutions (written by `dancer solve
//! --count --memo --zdd FILE` or Knuth's DLX6; the format is
//! `dancer_core::zdd`'s) to count, list, or draw uniformly random
//! solutions. With `--problem` the solutions are printed as the problem's
//! option lines, each verified; with `--poly` as pictures of the puzzle.

use crate::args::JsonArg;
use crate::input::{read_problem, Format};
use crate::output::{plural, Found, Out};
use anyhow::{bail, Result};
use clap::{Args, Subcommand};
use dancer_core::rng::{Draw, SplitMix64};
use dancer_core::zdd::{Zdd, ZddError};
use dancer_core::{verify, Problem};
use dancer_formats::ndjson::ZddRecord;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub enum ZddCommand {
    /// Print the number of solutions the ZDD holds
    Count(CountArgs),
    /// Print the solutions the ZDD holds
    List(ListArgs),
    /// Print uniformly random solutions (each with exactly the same probability)
    Sample(SampleArgs),
}

#[derive(Args)]
pub struct CountArgs {
    /// The ZDD file (Knuth's text format, as `dancer solve --zdd` and DLX6
    /// write it; - for standard input)
    pub file: PathBuf,
    #[command(flatten)]
    pub json: JsonArg,
}

/// What the solutions are printed as.
#[derive(Args)]
pub struct Show {
    /// The problem the ZDD was made from (DLX or JSON): solutions are
    /// printed as its option lines, each checked
    #[arg(long, value_name = "FILE", conflicts_with = "poly")]
    pub problem: Option<String>,
    /// The polyform puzzle (file or built-in name) the ZDD was made from
    /// with `dancer poly solve --count --memo --zdd`: solutions are printed
    /// as pictures, each checked
    #[arg(long, value_name = "PUZZLE")]
    pub poly: Option<String>,
    /// With --problem, a Sudoku's exact cover (`dancer sudoku export`, of
    /// an empty grid for random grids): each solution printed as its grid,
    /// one line
    #[arg(long, requires = "problem")]
    pub sudoku: bool,
    #[command(flatten)]
    pub json: JsonArg,
}

#[derive(Args)]
pub struct ListArgs {
    /// The ZDD file (- for standard input)
    pub file: PathBuf,
    /// Stop after N solutions
    #[arg(long, value_name = "N", value_parser = crate::args::parse_limit)]
    pub limit: Option<u64>,
    #[command(flatten)]
    pub show: Show,
}

#[derive(Args)]
pub struct SampleArgs {
    /// The ZDD file (- for standard input)
    pub file: PathBuf,
    /// How many solutions to draw (independently: one may come twice)
    #[arg(long, value_name = "N", default_value = "1", value_parser = crate::args::parse_limit)]
    pub count: u64,
    /// Seed of the random numbers: the same seed draws the same solutions
    #[arg(long, value_name = "N", default_value = "1")]
    pub seed: u64,
    #[command(flatten)]
    pub show: Show,
}

pub fn run(cmd: ZddCommand, out: &mut Out) -> Result<Found> {
    let cancel = crate::interrupt::cancel_flag();
    match cmd {
        ZddCommand::Count(a) => {
            let z = read_zdd(&a.file)?;
            let count = match z.count(budget(), Some(&cancel)) {
                Err(ZddError::Cancelled) => {
                    eprintln!("{}: interrupted before the count was done", name(&a.file));
                    return Ok(Found::Interrupted);
                }
                r => r.map_err(|e| zdd_error(&a.file, e))?,
            };
            if a.json.json {
                out.record(&ZddRecord::Summary {
                    solutions: count.clone(),
                    nodes: z.nodes() as u64,
                })?;
            } else {
                out.line(&count.to_string())?;
            }
            eprintln!(
                "{}: {}, {}",
                name(&a.file),
                plural(&count, "solution", "solutions"),
                plural(z.nodes(), "node", "nodes")
            );
            Ok(found(count.is_zero()))
        }
        ZddCommand::List(a) => {
            let z = read_zdd(&a.file)?;
            let mut p = Printer::new(&a.show, &z)?;
            let limit = a.limit.unwrap_or(u64::MAX);
            let mut n = 0u64;
            let mut interrupted = false;
            let r = z
                .for_each(|sol| {
                    if cancel.load(std::sync::atomic::Ordering::Relaxed) {
                        interrupted = true;
                        return ControlFlow::Break(Ok(()));
                    }
                    n += 1;
                    if let Err(e) = p.print(out, sol) {
                        return ControlFlow::Break(Err(e));
                    }
                    if n >= limit {
                        return ControlFlow::Break(Ok(()));
                    }
                    ControlFlow::Continue(())
                })
                .map_err(|e| zdd_error(&a.file, e))?;
            if let Some(Err(e)) = r {
                return Err(e);
            }
            // the whole count, when it can be had (it is not needed for the
            // list: a ZDD too large to count is still listed)
            let of = match (interrupted, z.count(budget(), Some(&cancel))) {
                (false, Ok(c)) => format!(" of {c}"),
                _ => String::new(),
            };
            eprintln!(
                "{}{of} listed{}",
                plural(n, "solution", "solutions"),
                if interrupted { " (interrupted)" } else { "" }
            );
            Ok(if interrupted {
                Found::Interrupted
            } else {
                found(z.is_empty())
            })
        }
        ZddCommand::Sample(a) => {
            let z = read_zdd(&a.file)?;
            let mut p = Printer::new(&a.show, &z)?;
            let counted = match z.counted(budget(), Some(&cancel)) {
                Err(ZddError::Cancelled) => return Ok(Found::Interrupted),
                r => r.map_err(|e| zdd_error(&a.file, e))?,
            };
            let mut rng = SplitMix64::new(a.seed);
            let mut drawn = 0u64;
            for _ in 0..a.count {
                if cancel.load(std::sync::atomic::Ordering::Relaxed) {
                    return Ok(Found::Interrupted);
                }
                match counted
                    .sample(|| rng.next_u64())
                    .map_err(|e| zdd_error(&a.file, e))?
                {
                    Some(sol) => p.print(out, &sol)?,
                    None => break,
                }
                drawn += 1;
            }
            eprintln!(
                "{} drawn uniformly from {}",
                plural(drawn, "solution", "solutions"),
                counted.count()
            );
            Ok(found(z.is_empty()))
        }
    }
}

fn found(empty: bool) -> Found {
    if empty {
        Found::None
    } else {
        Found::Some
    }
}

/// The memory a ZDD's work may take: nine tenths of what this process can
/// still get under its limits (`dancer_core::memory`), all of it where
/// they are unknown.
fn budget() -> u64 {
    dancer_core::memory::Limits::read()
        .headroom()
        .map_or(u64::MAX, |h| h / 10 * 9)
}

/// The file's name in messages (`<stdin>` for `-`).
fn name(path: &Path) -> String {
    if path == Path::new("-") {
        crate::input::STDIN_NAME.to_string()
    } else {
        path.display().to_string()
    }
}

fn zdd_error(path: &Path, e: ZddError) -> anyhow::Error {
    match e {
        ZddError::Text { .. } => anyhow::anyhow!("{}: not a ZDD: {e}", name(path)),
        e => anyhow::anyhow!("{}: {e}", name(path)),
    }
}

/// Reads a ZDD file (`-`: standard input).
fn read_zdd(path: &Path) -> Result<Zdd> {
    let text = if path == Path::new("-") {
        crate::input::read_stdin("a ZDD")?
    } else {
        crate::input::read_file(path, crate::input::MAX_TEXT)?
    };
    Zdd::parse_within(text.as_bytes(), budget()).map_err(|e| zdd_error(path, e))
}

/// Prints solutions the way `--problem` / `--poly` / `--json` ask.
struct Printer {
    json: bool,
    sudoku: bool,
    problem: Option<Problem>,
    poly: Option<(dancer_poly::Model, Vec<(u32, u32)>)>,
    first: bool,
}

impl Printer {
    fn new(show: &Show, z: &Zdd) -> Result<Printer> {
        let mut problem = None;
        let mut poly = None;
        if let Some(f) = &show.problem {
            problem = Some(read_problem(Some(f), None::<Format>)?.problem);
        }
        if let Some(spec) = &show.poly {
            let model = dancer_poly::Model::new(crate::poly::load(spec)?)?;
            let cover = model.cover(false);
            problem = Some(cover.problem);
            poly = Some((model, cover.options));
        }
        if let Some(p) = &problem {
            if z.max_var() as usize > p.n_options() {
                bail!(
                    "the ZDD names option {} but the problem has {}: not the ZDD of this problem",
                    z.max_var(),
                    plural(p.n_options(), "option", "options")
                );
            }
        }
        Ok(Printer {
            json: show.json.json,
            sudoku: show.sudoku,
            problem,
            poly,
            first: true,
        })
    }

    fn print(&mut self, out: &mut Out, sol: &[usize]) -> Result<()> {
        if let Some(p) = &self.problem {
            verify(p, sol).map_err(|e| {
                anyhow::anyhow!(
                    "the ZDD holds a set of options {sol:?} that is not a solution: {e}"
                )
            })?;
        }
        if self.json {
            out.record(&ZddRecord::Solution {
                options: sol.to_vec(),
            })?;
            return Ok(());
        }
        if let (true, Some(p)) = (self.sudoku, &self.problem) {
            return Ok(out.line(&sudoku_grid(p, sol)?)?);
        }
        if !self.first && self.problem.is_some() {
            out.line("")?;
        }
        self.first = false;
        match (&self.poly, &self.problem) {
            (Some((model, options)), _) => {
                let placements: Vec<usize> = sol.iter().map(|&k| options[k].0 as usize).collect();
                out.text(&model.ascii(&placements))?;
            }
            (None, Some(p)) => {
                for &k in sol {
                    out.line(&p.option_text(k))?;
                }
            }
            (None, None) => {
                let words: Vec<String> = sol.iter().map(|k| k.to_string()).collect();
                out.line(&words.join(" "))?;
            }
        }
        Ok(())
    }
}

/// A solution of a Sudoku's exact cover (`dancer sudoku export`: each
/// option names its cell `rRcC` and its digit in `R<row>#<digit>`) as the
/// grid's line.
fn sudoku_grid(p: &Problem, sol: &[usize]) -> Result<String> {
    let mut placed: Vec<(usize, usize, u8)> = Vec::new();
    for &k in sol {
        let text = p.option_text(k);
        let mut cell = None;
        let mut digit = None;
        for tok in text.split_whitespace() {
            if let Some((r, c)) = tok.strip_prefix('r').and_then(|t| t.split_once('c')) {
                if let (Ok(r), Ok(c)) = (r.parse::<usize>(), c.parse::<usize>()) {
                    cell = Some((r, c));
                }
            } else if let Some((_, d)) = tok.strip_prefix('R').and_then(|t| t.split_once('#')) {
                digit = d.parse::<u8>().ok();
            }
        }
        match (cell, digit) {
            (Some((r, c)), Some(d)) if r >= 1 && c >= 1 && d >= 1 => placed.push((r, c, d)),
            _ => bail!("option {k} ({text}) is not a Sudoku cell and digit: --sudoku takes the export of `dancer sudoku export`"),
        }
    }
    let n = placed.iter().map(|&(r, c, _)| r.max(c)).max().unwrap_or(0);
    if n == 0 || n > 25 || placed.iter().any(|&(_, _, d)| usize::from(d) > n) {
        bail!(
            "not a Sudoku's solution: {} cells placed for a grid of side {n}",
            placed.len()
        );
    }
    let mut cells = vec![0u8; n * n];
    for (r, c, d) in placed {
        cells[(r - 1) * n + (c - 1)] = d;
    }
    Ok(dancer_sudoku::Grid::from_cells(n, cells).to_line())
}
