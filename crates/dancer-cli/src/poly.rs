//! `dancer poly`: polyomino and polycube packing puzzles.

use crate::args::{EngineArg, JsonArg, ThreadsArg};
use crate::output::Found;
use crate::output::Out;
use anyhow::{bail, Context, Result};
use clap::{ArgGroup, Args, Subcommand};
use dancer_formats::out_file::{OutFile, OutKind};
use dancer_poly::model::{Model, Options};
use dancer_poly::puzzle::counted;
use dancer_poly::render::{contact_sheet, png, svg, Style, Tiling};
use dancer_poly::{catalog, pieces, Puzzle};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// `dancer poly solve --help`: the output, the coordinates and the records.
const SOLVE_HELP: &str = "\
Solve a puzzle file (TOML), a puzzle on standard input (-), or a built-in
puzzle by name (see `dancer poly list`).

Each solution is printed as text: one character per board cell, rows from
y = 0 at the top, the layers of a solid side by side (z = 0 on the left), '.'
where the board has no cell. A piece with a one-character name placed once
shows as its name; other placements (longer names such as H01, the copies of
a piece) get characters of their own, listed in a legend under the grid:
`YAB: Y` says that Y, A and B are copies of the piece Y. A character the
legend does not list is the piece of that name. Solutions are separated by a
blank line. A summary goes to standard error.

Coordinates (puzzle files and --json): a cell is [x, y], or [x, y, z] in a
box. The origin [0, 0] is the top left cell: x grows to the right, y
downwards (row y = 0 is the top row), z from the first layer (z = 0) on.
`rect = [width, height]` is the cells with 0 <= x < width, 0 <= y < height;
`box = [width, height, depth]` adds 0 <= z < depth; in a picture (`shape`,
`layers`) the first line is y = 0 and its first character x = 0.

--json prints NDJSON, one record per line:

  {\"type\":\"solution\",\"number\":1,\"placements\":[{\"piece\":\"F\",\"cells\":[[1,0],[2,0],...]},...]}
    One per solution printed.
      number: 1, 2, 3, ... in the order printed (also the number in the
        --svg and --png file names).
      placements: one per piece placed (each copy), by piece in the
        puzzle's order, each with
        piece: the piece's name (its true name, whatever the text shows);
        cells: the board cells it covers, [x, y] or [x, y, z], sorted by z,
          then y, then x.
  {\"type\":\"summary\",\"solutions\":8,\"unique\":2,\"nodes\":38728,\"complete\":true,
   \"seconds\":0.01,\"symmetries\":4}
    The last record, always there.
      solutions: solutions found; all of them when complete. When the
        search stopped at --limit N: exactly the N printed, or with
        --unique all the solutions of the N classes printed.
      unique: classes of solutions up to the puzzle's symmetries.
      nodes: nodes of the engine's search tree.
      complete: the whole tree was searched (false after --limit or
        Ctrl-C).
      seconds: wall-clock time of the search.
      symmetries: the rotations and reflections of the board that map the
        puzzle onto itself, the identity included.

The records are typed in the dancer-formats crate (dancer_formats::ndjson:
PolyRecord, PiecePlacement).

Exit codes: 0 when a solution was found, 1 when none, 2 on any error.";

/// `dancer poly export --help`.
const EXPORT_HELP: &str = "\
Write a puzzle's exact cover problem in Knuth's DLX format (for `dancer
solve` or Knuth's programs).

Items: one primary item per board cell, named x.y (x.y.z in a box; the
origin is the top left cell, y grows downwards, z from the first layer), and
one per piece type with a count, named as the piece (u:v|NAME, with DLX3's
multiplicities, unless it is used exactly once; none for pieces in \"any\"
number or used 0 times, nor when there is only one piece type). Options:
every placement of every piece, its cells and its piece.
By default one piece, or the pieces covering one cell, is restricted to one
placement per symmetry class, as `dancer poly solve` searches; a solution
of the exported problem then stands for a whole class.";

/// `dancer poly pieces --help`.
const PIECES_HELP: &str = "\
Show the pieces of a set (pentominoes, tetrominoes, soma, pentacubes, ...),
each drawn with '#' for a cell and '.' for none, row y = 0 on top, the layers
of a solid side by side (z = 0 on the left). Without a set: list the sets.";

#[derive(Subcommand)]
pub enum PolyCommand {
    /// List the built-in puzzles and their known counts
    List,
    /// Show the pieces of a set (pentominoes, tetrominoes, soma, pentacubes, ...)
    #[command(long_about = PIECES_HELP)]
    Pieces {
        /// Set name (default: list the sets)
        set: Option<String>,
    },
    /// Solve a puzzle file (TOML), standard input (-) or a built-in puzzle
    #[command(long_about = SOLVE_HELP)]
    Solve(SolveArgs),
    /// Write a puzzle's exact cover problem in Knuth's DLX format
    #[command(long_about = EXPORT_HELP)]
    Export {
        /// Puzzle file (TOML), - for standard input, or built-in name
        puzzle: String,
        /// Without symmetry breaking
        #[arg(long)]
        no_symmetry_breaking: bool,
    },
}

/// The smallest and largest `--size`.
const SIZES: std::ops::RangeInclusive<u32> = 4..=256;

#[derive(Args)]
#[command(group(ArgGroup::new("pictures").multiple(true).args(["svg", "png", "sheet"])))]
pub struct SolveArgs {
    /// Puzzle file (TOML), - for standard input, or built-in name (see `dancer poly list`)
    pub puzzle: String,
    /// Count only: print the number of solutions (of unique ones with --unique)
    #[arg(long)]
    pub count: bool,
    /// One solution per class of solutions equal up to the board's symmetries
    #[arg(long)]
    pub unique: bool,
    /// Stop after N solutions: exactly N printed, counted or written (N
    /// classes with --unique); at least 1
    #[arg(long, value_name = "N", value_parser = parse_limit)]
    pub limit: Option<u64>,
    #[command(flatten)]
    pub json: JsonArg,
    /// Write each solution printed as an SVG picture into DIR (solution-00001.svg, ...)
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    /// Write each solution printed as a PNG picture into DIR (solution-00001.png, ...)
    #[arg(long, value_name = "DIR")]
    pub png: Option<PathBuf>,
    /// Write a contact sheet of the solutions printed (up to 100) to FILE (.svg or .png)
    #[arg(long, value_name = "FILE")]
    pub sheet: Option<PathBuf>,
    /// Cell size of the pictures (--png, --svg, --sheet) in pixels: the side
    /// of one square (of one cube's edge for solids); default 24, from 4 to
    /// 256. A picture of more than 64 megapixels is refused
    #[arg(long, value_name = "PIXELS", requires = "pictures", value_parser = parse_size)]
    pub size: Option<u32>,
    #[command(flatten)]
    pub engine: EngineArg,
    /// Search everything and canonicalise each solution, instead of breaking
    /// symmetry before the search (slower; for checking)
    #[arg(long)]
    pub no_symmetry_breaking: bool,
    /// (Solutions come out in the same order whatever the number of threads.)
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// With --count: count every solution with memos of the sub-problems
    /// met, without visiting each (see `dancer solve --memo`): for boards
    /// tiled by pieces used any number of times. One thread; not with
    /// --unique, --limit or pictures
    #[arg(long, requires = "count", conflicts_with_all = ["unique", "limit", "pictures", "no_symmetry_breaking"])]
    pub memo: bool,
    /// The most memory the memos take (2GiB, 512M; default: a quarter of
    /// the machine's memory, at most a quarter of what this process may
    /// still get under ulimit -v and its cgroup)
    #[arg(long, value_name = "SIZE", requires = "memo", value_parser = crate::args::parse_size)]
    pub memo_memory: Option<u64>,
    /// With --memo: also write the ZDD of all the solutions to FILE, for
    /// `dancer zdd sample FILE --poly PUZZLE` (random packings) and `list`
    #[arg(long, value_name = "FILE", requires = "memo")]
    pub zdd: Option<PathBuf>,
}

/// `--limit`: a whole number, at least 1.
fn parse_limit(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("not a whole number: {e}")),
    }
}

/// `--size`: whole pixels in [`SIZES`].
fn parse_size(s: &str) -> Result<u32, String> {
    let bad = || {
        format!(
            "must be a cell size in whole pixels from {} to {}",
            SIZES.start(),
            SIZES.end()
        )
    };
    match s.parse::<u64>() {
        Ok(n) if n >= u64::from(*SIZES.start()) && n <= u64::from(*SIZES.end()) => Ok(n as u32),
        Ok(_) => Err(bad()),
        Err(e) => Err(format!("{}: not a whole number: {e}", bad())),
    }
}

/// The puzzle: standard input for `-`, a built-in one by name, else a file.
pub fn load(spec: &str) -> Result<Puzzle> {
    if spec == "-" {
        let text = crate::input::read_stdin("the puzzle")?;
        return Ok(dancer_poly::parse(&text, "<stdin>")?);
    }
    if let Some(p) = catalog::puzzle(spec) {
        return Ok(p);
    }
    if !Path::new(spec).exists() {
        let names: Vec<&str> = catalog::CATALOG.iter().map(|e| e.name).collect();
        bail!(
            "{spec}: no such file, and not a built-in puzzle (built in: {})",
            names.join(", ")
        );
    }
    let text = crate::input::read_file(Path::new(spec), crate::input::MAX_SMALL)?;
    Ok(dancer_poly::parse(&text, spec)?)
}

pub fn run(cmd: PolyCommand, out: &mut Out) -> Result<Found> {
    match cmd {
        PolyCommand::List => {
            for e in catalog::CATALOG {
                out.line(&format!(
                    "{:16} {:>7} total {:>6} unique  {}",
                    e.name, e.known.0, e.known.1, e.about
                ))?;
            }
            Ok(Found::Some)
        }
        PolyCommand::Pieces { set } => {
            let Some(set) = set else {
                out.line(&pieces::SETS.join("\n"))?;
                return Ok(Found::Some);
            };
            let shapes = pieces::set(&set).with_context(|| {
                format!("unknown set {set:?} (known: {})", pieces::SETS.join(", "))
            })?;
            for s in shapes {
                out.line(&format!(
                    "{} ({}):",
                    s.name,
                    counted(s.cells.len() as u64, "cell", "cells")
                ))?;
                out.text(&s.drawing("  "))?;
            }
            Ok(Found::Some)
        }
        PolyCommand::Export {
            puzzle,
            no_symmetry_breaking,
        } => {
            let p = load(&puzzle)?;
            let m = Model::new(p)?;
            let cover = m.cover(!no_symmetry_breaking);
            let comment = format!(
                "{}: {}{}",
                m.puzzle.name,
                counted(cover.options.len() as u64, "placement", "placements"),
                if cover.restriction.is_some() {
                    ", symmetry broken"
                } else {
                    ""
                }
            );
            dancer_formats::dlx::write(&cover.problem, &mut *out, Some(&comment))?;
            Ok(Found::Some)
        }
        PolyCommand::Solve(args) => solve(args, out),
    }
}

/// Pictures written into one folder, for the note on standard error.
struct Written {
    kind: &'static str,
    dir: PathBuf,
    files: u64,
}

impl Written {
    fn new(kind: &'static str, dir: &Path) -> Self {
        Written {
            kind,
            dir: dir.to_path_buf(),
            files: 0,
        }
    }

    /// The file for solution `n`, counted as written.
    fn file(&mut self, n: u64) -> PathBuf {
        self.files += 1;
        self.dir
            .join(format!("solution-{n:05}.{}", self.kind.to_lowercase()))
    }

    /// `wrote 2 PNG pictures to pics (solution-00001.png to solution-00002.png)`.
    fn note(&self) -> String {
        let ext = self.kind.to_lowercase();
        let files = match self.files {
            0 => String::new(),
            1 => format!(" (solution-00001.{ext})"),
            n => format!(" (solution-00001.{ext} to solution-{n:05}.{ext})"),
        };
        format!(
            "wrote {} to {}{files}",
            counted(
                self.files,
                &format!("{} picture", self.kind),
                &format!("{} pictures", self.kind)
            ),
            self.dir.display()
        )
    }
}

/// The files `poly solve` writes, checked before it starts
/// (`dancer_formats::out_file`): never the puzzle's file, never one another; a
/// contact sheet named `.svg` or `.png`.
struct Outputs {
    sheet: Option<OutFile>,
    zdd: Option<OutFile>,
}

impl Outputs {
    fn new(args: &SolveArgs) -> Result<Outputs> {
        let mut inputs: Vec<(&Path, &str)> = Vec::new();
        if let Some(f) = puzzle_file(&args.puzzle) {
            inputs.push((f, "the puzzle"));
        }
        let sheet = match &args.sheet {
            Some(f) => {
                if sheet_format(f).is_none() {
                    bail!(
                        "--sheet {}: a contact sheet is an SVG or a PNG picture: name the file .svg or .png",
                        f.display()
                    );
                }
                Some(OutFile::new(f, OutKind::Product, &inputs).context("--sheet")?)
            }
            None => None,
        };
        if let Some(o) = &sheet {
            inputs.push((o.path(), "the contact sheet"));
        }
        let zdd = match &args.zdd {
            Some(f) => Some(OutFile::new(f, OutKind::Product, &inputs).context("--zdd")?),
            None => None,
        };
        Ok(Outputs { sheet, zdd })
    }
}

/// The puzzle's file, when the puzzle is read from one (not standard
/// input, not a built-in name).
fn puzzle_file(spec: &str) -> Option<&Path> {
    (spec != "-" && catalog::puzzle(spec).is_none()).then(|| Path::new(spec))
}

/// Whether a contact sheet is a PNG (`Some(true)`) or an SVG
/// (`Some(false)`) picture, by its file's extension.
fn sheet_format(f: &Path) -> Option<bool> {
    let ext = f.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "png" => Some(true),
        "svg" => Some(false),
        _ => None,
    }
}

fn solve(args: SolveArgs, out: &mut Out) -> Result<Found> {
    let outputs = Outputs::new(&args)?;
    let puzzle = load(&args.puzzle)?;
    let model = Model::new(puzzle)?;
    if args.memo {
        return solve_memo(&args, &outputs, &model, out);
    }
    let threads = args.threads.get();
    let cancel = crate::interrupt::cancel_flag();
    let opts = Options {
        engine: args.engine.engine,
        symmetry_breaking: !args.no_symmetry_breaking,
        limit: args.limit,
        unique: args.unique,
        cancel: Some(cancel.clone()),
        threads,
        live: None,
    };
    let mut pictures = Pictures::new(&args)?;
    let mut n = 0u64;
    let mut error: Option<anyhow::Error> = None;
    let start = Instant::now();
    let counts = model.solve(&opts, |sol| {
        n += 1;
        let res = print_solution(&args, &model, out, n, sol)
            .and_then(|()| pictures.add(&args, &model, n, sol));
        match res {
            Ok(()) => true,
            Err(e) => {
                error = Some(e);
                false
            }
        }
    })?;
    if let Some(e) = error {
        return Err(e);
    }
    let secs = start.elapsed().as_secs_f64();
    if args.json.json {
        out.record(&model.summary_record(&counts, secs))?;
    } else if args.count {
        let k = if args.unique {
            counts.unique
        } else {
            counts.total
        };
        out.line(&k.to_string())?;
    }
    out.flush()?;
    if let Some(f) = &outputs.sheet {
        pictures.write_sheet(f)?;
    }
    let how = if counts.complete {
        "complete"
    } else if cancel.load(Ordering::Relaxed) {
        "interrupted: incomplete"
    } else {
        "stopped at the limit: incomplete"
    };
    eprintln!(
        "{}: {}, {} unique up to the {}; {} ({engine}, {}), {secs:.3} s ({how})",
        model.puzzle.name,
        counted(counts.total, "solution", "solutions"),
        counts.unique,
        counted(model.symmetries.len() as u64, "symmetry", "symmetries"),
        counted(counts.nodes, "node", "nodes"),
        counted(threads as u64, "thread", "threads"),
        engine = counts.engine.unwrap_or(args.engine.engine),
    );
    pictures.notes(&args, n);
    Ok(if cancel.load(Ordering::Relaxed) {
        Found::Interrupted
    } else if counts.total > 0 {
        Found::Some
    } else {
        Found::None
    })
}

/// `poly solve --memo`: every solution counted with memos (symmetric ones
/// included: no symmetry breaking), through the one run plan.
fn solve_memo(args: &SolveArgs, outputs: &Outputs, model: &Model, out: &mut Out) -> Result<Found> {
    let cover = model.cover(false);
    let asked = dancer_runs::plan::RunOptions {
        engine: args.engine.engine,
        count: true,
        memo: true,
        memo_memory: args.memo_memory,
        cancel: Some(crate::interrupt::cancel_flag()),
        ..Default::default()
    };
    let planned = asked.plan(&cover.problem);
    let memo = match planned.map_err(|e| crate::solve::plan_error(e, None))? {
        dancer_runs::plan::RunPlan::Memo(memo) => memo,
        dancer_runs::plan::RunPlan::Search(_) => unreachable!("memos were asked for"),
    };
    let r = crate::solve::memo_count(&cover.problem, &memo, outputs.zdd.as_ref(), true)?;
    if args.json.json {
        out.record(&dancer_formats::ndjson::PolyRecord::Summary {
            solutions: r.count.clone(),
            unique: None,
            nodes: r.stats.nodes,
            complete: r.complete,
            seconds: r.stats.elapsed.as_secs_f64(),
            symmetries: model.symmetries.len(),
        })?;
    } else {
        out.line(&r.count.to_string())?;
    }
    out.flush()?;
    crate::solve::memo_summary(&r, None, memo.memory);
    Ok(crate::solve::memo_found(&r))
}

/// Solution `n` on standard output: as text, as an NDJSON record, or
/// nothing when counting.
fn print_solution(
    args: &SolveArgs,
    model: &Model,
    out: &mut Out,
    n: u64,
    sol: &[usize],
) -> Result<()> {
    if args.count {
        // no text; pictures are still written when asked for
    } else if args.json.json {
        out.record(&model.solution_record(n, sol))?;
    } else {
        if n > 1 {
            out.line("")?;
        }
        out.text(&model.ascii(sol))?;
    }
    Ok(())
}

/// The pictures `poly solve` draws: one file a solution in `--svg` and
/// `--png` folders, and the first 100 solutions for a contact sheet.
struct Pictures {
    svgs: Option<Written>,
    pngs: Option<Written>,
    sheet: Option<Vec<Tiling>>,
    style: Style,
}

/// At most this many solutions go on a contact sheet.
const SHEET_MAX: usize = 100;

impl Pictures {
    /// The folders made, nothing drawn yet.
    fn new(args: &SolveArgs) -> Result<Pictures> {
        for dir in [&args.svg, &args.png].into_iter().flatten() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        Ok(Pictures {
            svgs: args.svg.as_deref().map(|d| Written::new("SVG", d)),
            pngs: args.png.as_deref().map(|d| Written::new("PNG", d)),
            sheet: args.sheet.as_ref().map(|_| Vec::new()),
            style: Style {
                cell: f64::from(args.size.unwrap_or(24)),
                ..Style::default()
            },
        })
    }

    /// Draws solution `n` where asked.
    fn add(&mut self, args: &SolveArgs, model: &Model, n: u64, sol: &[usize]) -> Result<()> {
        let on_sheet = self.sheet.as_ref().is_some_and(|s| s.len() < SHEET_MAX);
        if self.svgs.is_none() && self.pngs.is_none() && !on_sheet {
            return Ok(());
        }
        let t = model.tiling(sol, Some(format!("{} #{n}", model.puzzle.name)));
        let picture = svg(&t, &self.style);
        let inputs: Vec<(&Path, &str)> = puzzle_file(&args.puzzle)
            .map(|f| (f, "the puzzle"))
            .into_iter()
            .collect();
        if let Some(w) = &mut self.svgs {
            let f = w.file(n);
            OutFile::new(&f, OutKind::Product, &inputs)?.write(picture.as_bytes())?;
        }
        if let Some(w) = &mut self.pngs {
            let f = w.file(n);
            let bytes = png(&picture).with_context(|| format!("cannot draw {}", f.display()))?;
            OutFile::new(&f, OutKind::Product, &inputs)?.write(&bytes)?;
        }
        if let Some(sheet) = self.sheet.as_mut().filter(|_| on_sheet) {
            sheet.push(t);
        }
        Ok(())
    }

    /// Writes the contact sheet to `f` (an SVG or a PNG picture, by its
    /// name).
    fn write_sheet(&self, f: &OutFile) -> Result<()> {
        let picture = contact_sheet(self.sheet.as_deref().unwrap_or_default(), 5, &self.style);
        if sheet_format(f.path()) == Some(true) {
            let bytes =
                png(&picture).with_context(|| format!("cannot draw {}", f.path().display()))?;
            f.write(&bytes)?;
        } else {
            f.write(picture.as_bytes())?;
        }
        Ok(())
    }

    /// What was written, on standard error, after `n` solutions.
    fn notes(&self, args: &SolveArgs, n: u64) {
        for w in [&self.svgs, &self.pngs].into_iter().flatten() {
            eprintln!("{}", w.note());
        }
        if let (Some(f), Some(sheet)) = (&args.sheet, &self.sheet) {
            let of = if n > sheet.len() as u64 {
                format!("the first {} of {n} solutions", sheet.len())
            } else {
                counted(n, "solution", "solutions")
            };
            eprintln!("wrote a contact sheet of {of} to {}", f.display());
        }
    }
}
