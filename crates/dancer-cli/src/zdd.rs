//! `dancer zdd`: reads a ZDD of solutions (written by `dancer solve
//! --count --memo --zdd FILE` or Knuth's DLX6; the format is
//! `dancer_core::zdd`'s) to count, list, or draw uniformly random
//! solutions. With `--problem` the solutions are printed as the problem's
//! option lines, each verified; with `--poly` as pictures of the puzzle.

use crate::args::JsonArg;
use crate::input::{read_file, read_problem, read_stdin, Format, MAX_TEXT, STDIN_NAME};
use crate::output::{Found, Out};
use anyhow::{anyhow, Result};
use clap::{Args, Subcommand};
use dancer_core::zdd::{verify_solution, work_budget as budget, Zdd, ZddError, ZddForm};
use dancer_core::{plural, Problem};
use dancer_formats::ndjson::ZddRecord;
use dancer_poly::model::{Cover, Model};
use dancer_sudoku::{cover::sudoku_grid, PuzzleError};
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
    let (ZddCommand::Count(CountArgs { file, .. })
    | ZddCommand::List(ListArgs { file, .. })
    | ZddCommand::Sample(SampleArgs { file, .. })) = &cmd;
    let (name, text) = match file == Path::new("-") {
        true => (STDIN_NAME.to_string(), read_stdin("a ZDD")?),
        false => (file.display().to_string(), read_file(file, MAX_TEXT)?),
    };
    let error = |e: ZddError| match e {
        ZddError::Text { .. } => anyhow!("{name}: not a ZDD: {e}"),
        e => anyhow!("{name}: {e}"),
    };
    let z = Zdd::parse_within(text.as_bytes(), budget()).map_err(error)?;
    let found = Found::of_search(u64::from(!z.is_empty()), None);
    match cmd {
        ZddCommand::Count(a) => {
            let count = match z.count(budget(), Some(&cancel)) {
                Err(ZddError::Cancelled) => {
                    eprintln!("{name}: interrupted before the count was done");
                    return Ok(Found::Interrupted);
                }
                r => r.map_err(error)?,
            };
            if a.json.json {
                let (solutions, nodes) = (count.clone(), z.nodes() as u64);
                out.record(&ZddRecord::Summary { solutions, nodes })?;
            } else {
                out.line(&count.to_string())?;
            }
            let nodes = plural(z.nodes(), "node", "nodes");
            eprintln!(
                "{name}: {}, {nodes}",
                plural(&count, "solution", "solutions")
            );
            Ok(found)
        }
        ZddCommand::List(a) => {
            let mut p = Printer::new(&a.show, &z)?;
            let w = z
                .list(a.limit, &cancel, |sol| p.print(out, sol))
                .map_err(error)??;
            // the whole count, when it can be had (it is not needed for the
            // list: a ZDD too large to count is still listed)
            let of = match (w.interrupted, z.count(budget(), Some(&cancel))) {
                (false, Ok(c)) => format!(" of {c}"),
                _ => String::new(),
            };
            let stop = if w.interrupted { " (interrupted)" } else { "" };
            let listed = plural(w.solutions, "solution", "solutions");
            eprintln!("{listed}{of} listed{stop}");
            Ok(if w.interrupted {
                Found::Interrupted
            } else {
                found
            })
        }
        ZddCommand::Sample(a) => {
            let mut p = Printer::new(&a.show, &z)?;
            let counted = match z.counted(budget(), Some(&cancel)) {
                Err(ZddError::Cancelled) => return Ok(Found::Interrupted),
                r => r.map_err(error)?,
            };
            let drawn = counted.draw(a.count, a.seed, &cancel, |sol| p.print(out, sol));
            let w = drawn.map_err(error)??;
            if w.interrupted {
                return Ok(Found::Interrupted);
            }
            let what = plural(w.solutions, "solution", "solutions");
            eprintln!("{what} drawn uniformly from {}", counted.count());
            Ok(found)
        }
    }
}

/// Prints solutions the way `--problem` / `--poly` / `--sudoku` / `--json`
/// ask (`dancer_core::zdd::ZddForm`), each checked against the problem.
struct Printer {
    form: ZddForm,
    problem: Option<Problem>,
    poly: Option<(Cover, Model)>,
    shown: u64,
}

impl Printer {
    fn new(show: &Show, z: &Zdd) -> Result<Printer> {
        let problem = match &show.problem {
            Some(f) => Some(read_problem(Some(f), None::<Format>)?.problem),
            None => None,
        };
        let poly = match &show.poly {
            Some(spec) => Some(Model::new(crate::poly::load(spec)?)?),
            None => None,
        };
        let poly = poly.map(|m| (m.cover(false), m));
        let given = problem.is_some() || poly.is_some();
        let form = ZddForm::of(show.json.json, show.sudoku, poly.is_some(), given);
        let p = Printer {
            form,
            problem,
            poly,
            shown: 0,
        };
        p.problem().map_or(Ok(()), |problem| z.fits(problem))?;
        Ok(p)
    }

    fn problem(&self) -> Option<&Problem> {
        (self.poly.as_ref().map(|(c, _)| &c.problem)).or(self.problem.as_ref())
    }

    fn print(&mut self, out: &mut Out, sol: &[usize]) -> Result<()> {
        self.shown += 1;
        let problem = self.problem();
        problem.map_or(Ok(()), |p| verify_solution(p, sol))?;
        if self.form.gap(self.shown) {
            out.line("")?;
        }
        match (self.form, &self.poly, problem) {
            (ZddForm::Record, ..) => out.record(&ZddRecord::Solution {
                options: sol.to_vec(),
            })?,
            (ZddForm::Line, _, Some(p)) => {
                out.line(&sudoku_grid(p, sol).map_err(words)?.to_line())?
            }
            (ZddForm::Picture, Some((c, m)), _) => out.text(&m.ascii(&c.placements(sol)))?,
            (form, ..) => out.text(&form.text(problem, sol))?,
        }
        Ok(())
    }
}

/// A solution that is no Sudoku's, in the command line's words.
fn words(e: PuzzleError) -> anyhow::Error {
    match e {
        PuzzleError::NotACell { .. } => {
            anyhow!("{e}: --sudoku takes the export of `dancer sudoku export`")
        }
        e => e.into(),
    }
}
