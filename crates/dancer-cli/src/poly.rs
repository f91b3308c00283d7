//! `dancer poly`: polyomino and polycube packing puzzles.

use crate::args::{EngineArg, JsonArg, ThreadsArg};
use crate::output::Found;
use crate::output::Out;
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use dancer_poly::model::{Model, Options};
use dancer_poly::render::{contact_sheet, png, svg, Style};
use dancer_poly::{catalog, pieces, Puzzle};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

#[derive(Subcommand)]
pub enum PolyCommand {
    /// List the built-in puzzles and their known counts
    List,
    /// Show the pieces of a set (pentominoes, tetrominoes, soma, pentacubes, ...)
    Pieces {
        /// Set name (default: list the sets)
        set: Option<String>,
    },
    /// Solve a puzzle file (TOML) or a built-in puzzle by name
    Solve(SolveArgs),
    /// Write a puzzle's exact cover problem in Knuth's DLX format
    Export {
        /// Puzzle file or built-in name
        puzzle: String,
        /// Without symmetry breaking
        #[arg(long)]
        no_symmetry_breaking: bool,
    },
}

#[derive(Args)]
pub struct SolveArgs {
    /// Puzzle file (TOML) or built-in name (see `dancer poly list`)
    pub puzzle: String,
    /// Count only: print the number of solutions (of unique ones with --unique)
    #[arg(long)]
    pub count: bool,
    /// One solution per class of solutions equal up to the board's symmetries
    #[arg(long)]
    pub unique: bool,
    /// Stop after N solutions (unique ones with --unique)
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    #[command(flatten)]
    pub json: JsonArg,
    /// Write each solution printed as an SVG picture into DIR
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    /// Write each solution printed as a PNG picture into DIR
    #[arg(long, value_name = "DIR")]
    pub png: Option<PathBuf>,
    /// Write a contact sheet of the solutions printed (up to 100) to FILE (.svg or .png)
    #[arg(long, value_name = "FILE")]
    pub sheet: Option<PathBuf>,
    #[command(flatten)]
    pub engine: EngineArg,
    /// Search everything and canonicalise each solution, instead of breaking
    /// symmetry before the search (slower; for checking)
    #[arg(long)]
    pub no_symmetry_breaking: bool,
    /// (Solutions come out in the same order whatever the number of threads.)
    #[command(flatten)]
    pub threads: ThreadsArg,
}

fn load(spec: &str) -> Result<Puzzle> {
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
    let text = std::fs::read_to_string(spec).with_context(|| format!("cannot read {spec}"))?;
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
                out.line(&format!("{} ({} cells):", s.name, s.cells.len()))?;
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
                "{}: {} placements{}",
                m.puzzle.name,
                cover.options.len(),
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

fn solve(args: SolveArgs, out: &mut Out) -> Result<Found> {
    let puzzle = load(&args.puzzle)?;
    let model = Model::new(puzzle)?;
    let threads = args.threads.get();
    for dir in [&args.svg, &args.png].into_iter().flatten() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let cancel = Arc::new(AtomicBool::new(false));
    {
        let c = cancel.clone();
        let _ = ctrlc::set_handler(move || c.store(true, Ordering::Relaxed));
    }
    let opts = Options {
        engine: args.engine.engine,
        symmetry_breaking: !args.no_symmetry_breaking,
        limit: args.limit,
        unique: args.unique,
        cancel: Some(cancel.clone()),
        threads,
    };
    let mut n = 0u64;
    let mut error: Option<anyhow::Error> = None;
    let mut sheet = Vec::new();
    let style = Style::default();
    let start = Instant::now();
    let counts = model.solve(&opts, |sol| {
        n += 1;
        let res = (|| -> Result<()> {
            if args.count {
                // no text; pictures below are still written when asked for
            } else if args.json.json {
                out.record(&model.solution_record(n, sol))?;
            } else {
                if n > 1 {
                    out.line("")?;
                }
                out.text(&model.ascii(sol))?;
            }
            let title = Some(format!("{} #{n}", model.puzzle.name));
            if args.svg.is_some()
                || args.png.is_some()
                || (args.sheet.is_some() && sheet.len() < 100)
            {
                let t = model.tiling(sol, title);
                let picture = svg(&t, &style);
                if let Some(dir) = &args.svg {
                    let f = dir.join(format!("solution-{n:05}.svg"));
                    std::fs::write(&f, &picture)
                        .with_context(|| format!("cannot write {}", f.display()))?;
                }
                if let Some(dir) = &args.png {
                    let f = dir.join(format!("solution-{n:05}.png"));
                    std::fs::write(&f, png(&picture)?)
                        .with_context(|| format!("cannot write {}", f.display()))?;
                }
                if args.sheet.is_some() && sheet.len() < 100 {
                    sheet.push(t);
                }
            }
            Ok(())
        })();
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
    if let Some(f) = &args.sheet {
        let picture = contact_sheet(&sheet, 5, &style);
        if f.extension().is_some_and(|e| e == "png") {
            std::fs::write(f, png(&picture)?)
                .with_context(|| format!("cannot write {}", f.display()))?;
        } else {
            std::fs::write(f, picture).with_context(|| format!("cannot write {}", f.display()))?;
        }
    }
    let how = if counts.complete {
        "complete"
    } else if cancel.load(Ordering::Relaxed) {
        "interrupted: incomplete"
    } else {
        "stopped at the limit: incomplete"
    };
    let plural = |k: u64| if k == 1 { "" } else { "s" };
    eprintln!(
        "{}: {} solution{}, {} unique up to the {} symmetries; {} nodes ({engine}, {threads} thread{}), {secs:.3} s ({how})",
        model.puzzle.name,
        counts.total,
        plural(counts.total),
        counts.unique,
        model.symmetries.len(),
        counts.nodes,
        plural(threads as u64),
        engine = counts.engine.unwrap_or(args.engine.engine),
    );
    Ok(if counts.total > 0 {
        Found::Some
    } else {
        Found::None
    })
}
