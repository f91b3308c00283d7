//! `dancer poly`: polyomino and polycube packing puzzles.

use crate::args::{EngineArg, JsonArg, ThreadsArg};
use crate::output::{Found, Out};
use anyhow::{bail, Context, Result};
use clap::{ArgGroup, Args, Subcommand};
use dancer_core::words::plural;
use dancer_core::EngineKind;
use dancer_formats::out_file::{OutFile, OutKind, OutSet};
use dancer_poly::burr::{self, BurrFile};
use dancer_poly::grid::{picture, PolyGrid};
use dancer_poly::model::{Model, Options};
use dancer_poly::pictures::{Drawing, PictureFormat, Pictures, CELL_SIZES};
use dancer_poly::puzzle::printable;
use dancer_poly::run::{PuzzleSource, ShowAs, Shown, SolveRun};
use dancer_poly::{catalog, pieces, PolyError, PolyPuzzle};
use dancer_runs::plan::{MemoRun, RunOptions, RunPlan};
use std::path::{Path, PathBuf};

/// `dancer poly solve --help`: the output, the coordinates and the records.
const SOLVE_HELP: &str = include_str!("../help/poly-solve.txt").trim_ascii_end();

/// `dancer poly export --help`.
const EXPORT_HELP: &str = include_str!("../help/poly-export.txt").trim_ascii_end();

/// `dancer poly pieces --help`.
const PIECES_HELP: &str = include_str!("../help/poly-pieces.txt").trim_ascii_end();

#[derive(Subcommand)]
pub enum PolyCommand {
    /// List the built-in puzzles and their known counts
    List,
    /// Show the pieces of a set (pentominoes, hexiamonds, tetrasticks, soma,
    /// ...) or every piece of N cells on a grid (omino-8, iamond-7, hex-6,
    /// stick-5, cube-6)
    #[command(long_about = PIECES_HELP)]
    Pieces {
        /// A set's name, or GRID-N: every piece of N cells, GRID one of omino,
        /// iamond, hex, stick, twig, trig, cube, sphere, prism (default: list
        /// the sets)
        set: Option<String>,
        /// Tell mirror images apart: a set with the mirror twin of each chiral
        /// piece (named lower-case: p6 for P6), or GRID-N up to rotations only
        #[arg(long, requires = "set")]
        one_sided: bool,
        #[command(flatten)]
        json: JsonArg,
    },
    /// List the problems of a BurrTools file (.xmpuzzle): number, name,
    /// pieces, result, and what BurrTools found when it solved them
    Problems {
        /// The BurrTools file (.xmpuzzle, gzipped or plain XML)
        file: String,
        #[command(flatten)]
        json: JsonArg,
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
        /// Write the puzzle as a BurrTools file (.xmpuzzle, gzipped XML) to
        /// FILE instead: cubes, triangular prisms and spheres
        #[arg(long, value_name = "FILE", conflicts_with = "no_symmetry_breaking")]
        xmpuzzle: Option<PathBuf>,
        /// Which problem of a BurrTools file (.xmpuzzle) to export: its
        /// number from 1, or its name (a number is the problem of that
        /// number, as with `poly solve --problem`)
        #[arg(long, value_name = "N|NAME")]
        problem: Option<String>,
    },
}

#[derive(Args)]
#[command(group(ArgGroup::new("pictures").multiple(true).args(["svg", "png", "sheet"])))]
pub struct SolveArgs {
    /// Puzzle file (TOML), - for standard input, or built-in name (see `dancer poly list`)
    pub puzzle: String,
    /// Which problem of a BurrTools file (.xmpuzzle): its number from 1,
    /// or its name (default: the first; `dancer poly problems FILE` lists
    /// them). A number is the problem of that number, also when another
    /// problem is named so (dancer says so; that one is taken by its own
    /// number)
    #[arg(long, value_name = "N|NAME")]
    pub problem: Option<String>,
    /// Take each solution apart by BurrTools' rules (cubes and triangular
    /// prisms): its moves and level after it, and how many come apart in
    /// the summary (with --unique: BurrTools' count of solutions)
    #[arg(long)]
    pub disassemble: bool,
    /// With --disassemble: the most states one solution's disassembly may
    /// visit, from 1 to 4194304 (the default; fewer for many pieces: 512
    /// MiB of states at most). A solution past it is printed as not taken
    /// apart, the run goes on, and it ends with exit code 2
    #[arg(long, value_name = "N", requires = "disassemble", value_parser = parse_states)]
    pub max_states: Option<usize>,
    /// Count only: print the number of solutions (of unique ones with --unique)
    #[arg(long)]
    pub count: bool,
    /// One solution per class of solutions equal up to the board's symmetries
    #[arg(long)]
    pub unique: bool,
    /// Stop after N solutions: exactly N printed, counted or written (N
    /// classes with --unique); at least 1
    #[arg(long, value_name = "N", value_parser = crate::args::parse_limit)]
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

/// `--max-states`: 1 to [`burr::MAX_STATES`].
fn parse_states(s: &str) -> Result<usize, String> {
    let most = burr::MAX_STATES;
    let bad = format!("must be a number of states from 1 to {most}");
    match s.parse::<u64>() {
        Ok(n) => (usize::try_from(n).ok())
            .filter(|n| (1..=most).contains(n))
            .ok_or(bad),
        Err(e) => Err(format!("{bad}: not a whole number: {e}")),
    }
}

/// `--size`: whole pixels in [`CELL_SIZES`].
fn parse_size(s: &str) -> Result<u32, String> {
    let (lo, hi) = (CELL_SIZES.start(), CELL_SIZES.end());
    let bad = format!("must be a cell size in whole pixels from {lo} to {hi}");
    match s.parse::<u64>() {
        Ok(n) => (u32::try_from(n).ok())
            .filter(|n| CELL_SIZES.contains(n))
            .ok_or(bad),
        Err(e) => Err(format!("{bad}: not a whole number: {e}")),
    }
}

/// The puzzle: standard input for `-`, a built-in one by name, else a file.
pub fn load(spec: &str) -> Result<PolyPuzzle> {
    Ok(load_problem(spec, None)?.puzzle)
}

/// A puzzle, and the BurrTools file it is a problem of, if it is one.
pub struct Loaded {
    pub puzzle: PolyPuzzle,
    /// The file and the problem's index.
    pub burr: Option<(BurrFile, usize)>,
}

/// The puzzle as [`load`] reads it; from a BurrTools file, its problem
/// `problem` (the first by default). `--problem` is refused for a puzzle
/// that is no BurrTools file.
pub fn load_problem(spec: &str, problem: Option<&str>) -> Result<Loaded> {
    let name = if spec == "-" { "<stdin>" } else { spec };
    let text = match PuzzleSource::of(spec) {
        PuzzleSource::BuiltIn(p) => {
            if problem.is_some() {
                bail!("--problem is for BurrTools files (.xmpuzzle); {spec} is a built-in puzzle")
            }
            return Ok(Loaded {
                puzzle: *p,
                burr: None,
            });
        }
        PuzzleSource::Stdin => crate::input::read_stdin("the puzzle")?,
        PuzzleSource::File(f) if !f.exists() => {
            bail!("{spec}: no such file, and not a built-in puzzle (see `dancer poly list`)")
        }
        PuzzleSource::File(f) => {
            let bytes = crate::input::read_bytes(f, burr::MAX_FILE_BYTES)?;
            if burr::is_burr_file(&bytes) || burr::is_burr_name(f) {
                return load_burr(&bytes, name, problem);
            }
            crate::input::read_file(f, crate::input::MAX_SMALL)?
        }
    };
    if burr::is_burr_file(text.as_bytes()) {
        return load_burr(text.as_bytes(), name, problem);
    }
    if problem.is_some() {
        bail!("--problem is for BurrTools files (.xmpuzzle); {spec} is a puzzle file")
    }
    Ok(Loaded {
        puzzle: dancer_poly::parse(&text, name)?,
        burr: None,
    })
}

/// A BurrTools file's problem (`--problem`, the first by default); a note
/// when `--problem N` took problem N though another is named N.
fn load_burr(bytes: &[u8], name: &str, problem: Option<&str>) -> Result<Loaded> {
    let (file, index, puzzle) = burr::load(bytes, name, problem)?;
    if let Some((spec, other)) = problem.and_then(|p| Some((p, file.also_named(p)?))) {
        eprintln!(
            "dancer: note: --problem {spec} is problem {} ({:?}), by its number; problem {} is named {spec:?}: --problem {} takes that one",
            index + 1,
            file.problems[index].title(index),
            other + 1,
            other + 1
        );
    }
    Ok(Loaded {
        puzzle,
        burr: Some((file, index)),
    })
}

pub fn run(cmd: PolyCommand, out: &mut Out) -> Result<Found> {
    match cmd {
        PolyCommand::List => {
            for line in catalog::listing() {
                out.line(&line)?;
            }
        }
        PolyCommand::Pieces { set: None, .. } => out.line(&pieces::SETS.join("\n"))?,
        PolyCommand::Pieces {
            set: Some(spec),
            one_sided,
            json,
        } => show_pieces(&spec, one_sided, json.json, out)?,
        PolyCommand::Export {
            puzzle,
            xmpuzzle: Some(path),
            problem,
            ..
        } => {
            let source = PuzzleSource::of(&puzzle);
            let file = OutSet::new(source.inputs())
                .add(&path, OutKind::Product, "the BurrTools file")
                .context("--xmpuzzle")?;
            let p = load_problem(&puzzle, problem.as_deref())?.puzzle;
            file.write(&burr::write(&burr::from_puzzle(&p)?))?;
            eprintln!("{}: wrote {}", p.name, path.display());
        }
        PolyCommand::Export {
            puzzle,
            no_symmetry_breaking,
            problem,
            ..
        } => {
            let m = Model::new(load_problem(&puzzle, problem.as_deref())?.puzzle)?;
            let cover = m.cover(!no_symmetry_breaking);
            let placements = plural(cover.options.len(), "placement", "placements");
            let broken = cover
                .restriction
                .as_ref()
                .map_or("", |_| ", symmetry broken");
            let comment = format!("{}: {placements}{broken}", m.puzzle.name);
            dancer_formats::dlx::write(&cover.problem, &mut *out, Some(&comment))?;
        }
        PolyCommand::Problems { file, json } => show_problems(&file, json.json, out)?,
        PolyCommand::Solve(args) => return solve(args, out),
    }
    Ok(Found::Some)
}

/// What a BurrTools file says its BurrTools found for the problem, if it
/// was solved: counts depend on the version and options that wrote them.
fn stored_counts(file: &BurrFile, index: usize) -> Option<String> {
    let found = file.problems[index].found?;
    let mut s = format!(
        "(the file says BurrTools found {}",
        plural(found.assemblies as usize, "assembly", "assemblies")
    );
    if let Some(k) = found.solutions {
        s += &format!(
            " and {} that come apart",
            plural(k as usize, "solution", "solutions")
        );
    }
    Some(s + ", with the version and options that wrote it)")
}

/// `poly problems FILE`: a line (or record) for each problem of a
/// BurrTools file.
fn show_problems(spec: &str, json: bool, out: &mut Out) -> Result<()> {
    let bytes = match spec {
        "-" => crate::input::read_stdin("the BurrTools file")?.into_bytes(),
        f => crate::input::read_bytes(Path::new(f), burr::MAX_FILE_BYTES)?,
    };
    let name = if spec == "-" { "<stdin>" } else { spec };
    let file = burr::read(&bytes, name)?;
    for r in file.problem_records() {
        if json {
            out.record(&r)?;
        } else {
            out.line(&burr_problem_line(&r))?;
        }
    }
    Ok(())
}

/// A problem's line: `1  Pelikan  7 pieces (8 copies) into Result (6,000
/// cells, 216 optional); BurrTools found 12 assemblies, 1 solution`; a
/// name's control characters escaped (`A\nB`), so that it stays one line.
fn burr_problem_line(r: &dancer_formats::ndjson::BurrProblemRecord) -> String {
    let copies = if r.copies_min == r.copies_max {
        plural(r.copies_max as usize, "copy", "copies")
    } else {
        format!("{} to {} copies", r.copies_min, r.copies_max)
    };
    // names as written, but the characters that would break the line
    let mut line = format!(
        "{}  {}  {} ({copies}) into {} ({}{}) on {}",
        r.number,
        printable(&r.name),
        plural(r.pieces, "piece", "pieces"),
        printable(&r.result),
        plural(r.cells, "cell", "cells"),
        match r.optional {
            0 => String::new(),
            k => format!(", {k} optional"),
        },
        r.grid
    );
    if let Some(a) = r.assemblies {
        line += &format!(
            "; BurrTools found {}",
            plural(a as usize, "assembly", "assemblies")
        );
        if let Some(s) = r.solutions {
            line += &format!(", {}", plural(s as usize, "solution", "solutions"));
        }
    }
    line
}

/// `poly pieces SPEC`: a set's pieces, or every piece of a size, as records
/// or as pictures (cell lists on the grids without text pictures); a size
/// ends with a line saying how many.
fn show_pieces(spec: &str, one_sided: bool, json: bool, out: &mut Out) -> Result<()> {
    let records = pieces::records(spec, one_sided)?;
    if json {
        for r in &records {
            out.record(r)?;
        }
        return Ok(());
    }
    // every piece of a size, or a set's (a set's name wins)
    let size = match pieces::set(spec) {
        Some(_) => None,
        None => pieces::parse_family(spec).and_then(Result::ok),
    };
    for r in &records {
        let name = r.name.as_deref().unwrap_or("");
        let heading = match size {
            Some(_) => format!("{}. {name}", r.number).trim_end().to_string(),
            // a set's piece by its own name, as before: `F (5 cells):`
            None => {
                let own = name.split_once('/').map_or(name, |(_, n)| n);
                format!("{own} ({}):", plural(r.size, "cell", "cells"))
            }
        };
        out.line(&heading)?;
        out.text(&piece_picture(r))?;
    }
    if let Some((grid, n)) = size {
        let kind = if one_sided { "one-sided" } else { "free" };
        let family = pieces::family_name(grid, records.len());
        let cells = plural(n, "cell", "cells");
        out.line(&format!("{} {kind} {family} of {cells}", records.len()))?;
    }
    Ok(())
}

/// A piece drawn in text, each line indented by two spaces (edges `-` and
/// `|` on the stick grid); its cells as a list where its grid has no
/// text pictures.
fn piece_picture(r: &dancer_formats::ndjson::PieceRecord) -> String {
    let grid = PolyGrid::from_name(&r.grid).expect("a record names its grid");
    let mark = |c: &Vec<i32>| {
        let cell = [c[0], c[1], c.get(2).copied().unwrap_or(0)];
        let edge = grid == PolyGrid::Stick;
        (
            cell,
            if !edge {
                '#'
            } else if cell[2] == 0 {
                '-'
            } else {
                '|'
            },
        )
    };
    let marked: Vec<_> = r.cells.iter().map(mark).collect();
    let text = picture::write(grid, &marked).unwrap_or_else(|| {
        let list: Vec<String> = r.cells.iter().map(|c| format!("{c:?}")).collect();
        format!("{}\n", list.join(" "))
    });
    text.lines().map(|l| format!("  {l}\n")).collect()
}

/// The contact sheet and the ZDD `poly solve` writes, checked before it
/// starts (`dancer_formats::out_file::OutSet`): never the puzzle's file,
/// never one another; a sheet is named `.svg` or `.png`.
fn outputs(args: &SolveArgs, source: &PuzzleSource) -> Result<[Option<OutFile>; 2]> {
    let sheet = args.sheet.as_deref();
    if let Some(path) = sheet.filter(|p| PictureFormat::of_path(p).is_none()) {
        let e = PolyError::SheetName {
            path: path.to_path_buf(),
        };
        bail!("--sheet {}: {e}", path.display());
    }
    let mut set = OutSet::new(source.inputs());
    let mut add = |path: Option<&Path>, what, flag| {
        let added = path.map(|p| set.add(p, OutKind::Product, what).context(flag));
        added.transpose()
    };
    let sheet = add(sheet, "the contact sheet", "--sheet")?;
    Ok([sheet, add(args.zdd.as_deref(), "the ZDD", "--zdd")?])
}

/// A picture's bytes (a PNG rasterised).
fn bytes(d: &Drawing) -> Result<std::borrow::Cow<'_, [u8]>> {
    d.bytes()
        .with_context(|| format!("cannot draw {}", d.file.display()))
}

/// Writes a solution's picture, unless it is one of the run's inputs, or
/// anything but a regular file (a FIFO there would block the run for
/// ever: dancer named it, the user did not).
fn write(d: &Drawing, inputs: &[(&Path, &str)]) -> Result<()> {
    let file = OutFile::new(&d.file, OutKind::Named, inputs)?;
    Ok(file.write(&bytes(d)?)?)
}

fn solve(args: SolveArgs, out: &mut Out) -> Result<Found> {
    let source = PuzzleSource::of(&args.puzzle);
    let [sheet, zdd] = outputs(&args, &source)?;
    let loaded = load_problem(&args.puzzle, args.problem.as_deref())?;
    let stored = loaded.burr.as_ref().and_then(|(f, i)| stored_counts(f, *i));
    let model = Model::new(loaded.puzzle)?;
    if let Some(memo) = memo_plan(&args, &model)? {
        return solve_memo(&args, zdd.as_ref(), &model, &memo, out);
    }
    for dir in [&args.svg, &args.png].into_iter().flatten() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let (svg, png, threads) = (args.svg.as_deref(), args.png.as_deref(), args.threads.get());
    let mut run = SolveRun {
        options: Options {
            engine: args.engine.engine,
            symmetry_breaking: !args.no_symmetry_breaking,
            limit: args.limit,
            unique: args.unique,
            cancel: Some(crate::interrupt::cancel_flag()),
            threads,
            live: None,
        },
        show: ShowAs::of(args.count, args.json.json),
        pictures: Pictures::new(svg, png, args.sheet.is_some(), args.size),
        take_apart: match args.disassemble {
            true => {
                let burr = loaded.burr.as_ref().map(|(f, i)| (f, *i));
                let t = burr::TakeApart::new(&model, burr)?;
                Some(match args.max_states {
                    Some(n) => t.with_max_states(n),
                    None => t,
                })
            }
            false => None,
        },
    };
    let inputs = source.inputs();
    let end = run.run(&model, |shown, drawings| -> Result<()> {
        match shown {
            Some(Shown::Record(r)) => out.record(&r)?,
            Some(Shown::Text(t)) => out.text(&t)?,
            None => {}
        }
        drawings.iter().try_for_each(|d| write(d, &inputs))
    })?;
    if args.json.json {
        out.record(&end.record(&model))?;
    } else if args.count {
        out.line(&end.count.to_string())?;
    }
    out.flush()?;
    if let Some(f) = &sheet {
        f.write(&bytes(&run.pictures.sheet(f.path()))?)?;
    }
    eprintln!("{}", end.summary(&model, threads, args.engine.engine));
    if let Some(apart) = end.apart_summary(args.unique) {
        eprintln!("{apart}");
    }
    if let Some(note) = stored {
        eprintln!("{note}");
    }
    for note in run.pictures.notes(args.sheet.as_deref(), end.reported) {
        eprintln!("{note}");
    }
    if end.cancelled {
        return Ok(Found::Interrupted);
    }
    if !end.past_cap.is_empty() {
        // everything found is printed, but what was asked is not all known
        let one = end.past_cap.len() == 1;
        let (its, it) = if one {
            ("its disassembly", "it")
        } else {
            ("their disassemblies", "they")
        };
        let cap = match args.max_states {
            Some(n) => format!("the {n} states of --max-states"),
            None => format!(
                "the {} states one may visit (fewer for many pieces)",
                burr::MAX_STATES
            ),
        };
        bail!(
            "{} {} not taken apart: {its} passed {cap}, so whether {it} come{} apart is unknown",
            past_cap_words(&end.past_cap),
            if one { "was" } else { "were" },
            if one { "s" } else { "" }
        );
    }
    Ok(Found::of_search(end.counts.total, end.stopped))
}

/// The solutions past the state cap, by number: `solution 3`, `solutions
/// 3, 7 and 9`, the first ten of more (`solutions 1, 2, ... and 4 more`).
fn past_cap_words(numbers: &[u64]) -> String {
    const SHOWN: usize = 10;
    let shown: Vec<String> = numbers.iter().take(SHOWN).map(u64::to_string).collect();
    match numbers.len() {
        1 => format!("solution {}", shown[0]),
        n if n <= SHOWN => format!(
            "solutions {} and {}",
            shown[..n - 1].join(", "),
            shown[n - 1]
        ),
        n => format!("solutions {} and {} more", shown.join(", "), n - SHOWN),
    }
}

/// Whether the solutions are counted with memos, and how: asked for
/// (`--memo`), or chosen as `dancer solve --count` chooses them, when a
/// plain count of every solution is asked (no `--unique`, `--limit`,
/// pictures or engine) and the count pays (`memo::choose`, on the cover
/// without symmetry breaking, the one the memos count).
fn memo_plan(args: &SolveArgs, model: &Model) -> Result<Option<MemoRun>> {
    let plain = args.count
        && !args.unique
        && args.limit.is_none()
        && args.svg.is_none()
        && args.png.is_none()
        && args.sheet.is_none()
        && args.engine.engine == EngineKind::Auto;
    if !args.memo && !plain {
        return Ok(None);
    }
    let asked = RunOptions {
        engine: args.engine.engine,
        count: true,
        memo: args.memo,
        memo_memory: args.memo_memory,
        cancel: Some(crate::interrupt::cancel_flag()),
        ..Default::default()
    };
    let planned = asked.plan(&model.cover(false).problem);
    Ok(
        match planned.map_err(|e| crate::solve::plan_error(e, None))? {
            RunPlan::Memo(memo) => Some(memo),
            RunPlan::Search(_) => None,
        },
    )
}

/// `poly solve --count` with memos: every solution counted (symmetric ones
/// included: no symmetry breaking), through the one run plan.
fn solve_memo(
    args: &SolveArgs,
    zdd: Option<&OutFile>,
    model: &Model,
    memo: &MemoRun,
    out: &mut Out,
) -> Result<Found> {
    let cover = model.cover(false);
    let r = crate::solve::memo_count(&cover.problem, memo, zdd, true)?;
    if args.json.json {
        out.record(&model.memo_record(&r))?;
    } else {
        out.line(&r.count.to_string())?;
    }
    out.flush()?;
    eprintln!("{}", memo.summary(&r, None));
    Ok(crate::solve::memo_found(&r))
}
