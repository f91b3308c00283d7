//! `dancer poly`: polyomino and polycube packing puzzles.

use crate::Found;
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use dancer_core::EngineKind;
use dancer_poly::model::{Model, Options};
use dancer_poly::render::{contact_sheet, png, svg, Style};
use dancer_poly::{catalog, pieces, Puzzle};
use serde_json::json;
use std::io::Write;
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
    /// NDJSON: each solution with its placements, then a summary line
    #[arg(long)]
    pub json: bool,
    /// Write each solution printed as an SVG picture into DIR
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    /// Write each solution printed as a PNG picture into DIR
    #[arg(long, value_name = "DIR")]
    pub png: Option<PathBuf>,
    /// Write a contact sheet of the solutions printed (up to 100) to FILE (.svg or .png)
    #[arg(long, value_name = "FILE")]
    pub sheet: Option<PathBuf>,
    /// Engine: auto (bitset for flat puzzles, dlx for solids), dlx, bitset
    #[arg(long, default_value = "auto")]
    pub engine: String,
    /// Search everything and canonicalise each solution, instead of breaking
    /// symmetry before the search (slower; for checking)
    #[arg(long)]
    pub no_symmetry_breaking: bool,
    /// Worker threads (default: all cores); solutions come out in the same
    /// order whatever the number
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
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

fn engine_for(name: &str, puzzle: &Puzzle) -> Result<EngineKind> {
    Ok(match name {
        "auto" => {
            if puzzle.board.dim == 2 {
                EngineKind::Bitset
            } else {
                EngineKind::Dlx
            }
        }
        other => other
            .parse()
            .map_err(|e: dancer_core::UnknownEngine| anyhow::anyhow!("{e}"))?,
    })
}

pub fn run(cmd: PolyCommand) -> Result<Found> {
    match cmd {
        PolyCommand::List => {
            for e in catalog::CATALOG {
                println!(
                    "{:16} {:>7} total {:>6} unique  {}",
                    e.name, e.known.0, e.known.1, e.about
                );
            }
            Ok(Found::Some)
        }
        PolyCommand::Pieces { set } => {
            let Some(set) = set else {
                println!("{}", pieces::SETS.join("\n"));
                return Ok(Found::Some);
            };
            let shapes = pieces::set(&set).with_context(|| {
                format!("unknown set {set:?} (known: {})", pieces::SETS.join(", "))
            })?;
            for s in shapes {
                println!("{} ({} cells):", s.name, s.cells.len());
                let cells = dancer_poly::geometry::normalize(&s.cells);
                let ext = cells.iter().fold([0; 3], |m, c| {
                    [m[0].max(c[0] + 1), m[1].max(c[1] + 1), m[2].max(c[2] + 1)]
                });
                for y in 0..ext[1] {
                    let mut line = String::from("  ");
                    for z in 0..ext[2] {
                        if z > 0 {
                            line.push_str("   ");
                        }
                        for x in 0..ext[0] {
                            line.push(if cells.contains(&[x, y, z]) { '#' } else { '.' });
                        }
                    }
                    println!("{line}");
                }
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
            let stdout = std::io::stdout();
            match dancer_formats::dlx::write(&cover.problem, stdout.lock(), Some(&comment)) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                r => r?,
            }
            Ok(Found::Some)
        }
        PolyCommand::Solve(args) => solve(args),
    }
}

fn solve(args: SolveArgs) -> Result<Found> {
    let puzzle = load(&args.puzzle)?;
    let engine = engine_for(&args.engine, &puzzle)?;
    let model = Model::new(puzzle)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    for dir in [&args.svg, &args.png].into_iter().flatten() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let cancel = Arc::new(AtomicBool::new(false));
    {
        let c = cancel.clone();
        let _ = ctrlc::set_handler(move || c.store(true, Ordering::Relaxed));
    }
    let opts = Options {
        engine,
        symmetry_breaking: !args.no_symmetry_breaking,
        limit: args.limit,
        unique: args.unique,
        cancel: Some(cancel.clone()),
        threads,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
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
            } else if args.json {
                let placements: Vec<_> = sol
                    .iter()
                    .map(|&q| {
                        let pl = &model.placements[q];
                        let cells: Vec<Vec<i32>> = pl
                            .cells
                            .iter()
                            .map(|&c| {
                                let c = model.puzzle.board.cells[c];
                                if model.puzzle.board.dim == 2 {
                                    vec![c[0], c[1]]
                                } else {
                                    c.to_vec()
                                }
                            })
                            .collect();
                        json!({"piece": model.puzzle.pieces[pl.piece].name, "cells": cells})
                    })
                    .collect();
                writeln!(
                    out,
                    "{}",
                    json!({"type": "solution", "number": n, "placements": placements})
                )?;
            } else {
                if n > 1 {
                    writeln!(out)?;
                }
                write!(out, "{}", model.ascii(sol))?;
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
                let broken = e
                    .downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe);
                if !broken {
                    error = Some(e);
                }
                false
            }
        }
    })?;
    if let Some(e) = error {
        return Err(e);
    }
    let secs = start.elapsed().as_secs_f64();
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"type": "summary", "solutions": counts.total, "unique": counts.unique,
                   "nodes": counts.nodes, "complete": counts.complete, "seconds": secs,
                   "symmetries": model.symmetries.len()})
        )
        .ok();
    } else if args.count {
        let k = if args.unique {
            counts.unique
        } else {
            counts.total
        };
        writeln!(out, "{k}").ok();
    }
    out.flush().ok();
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
        engine = counts.engine.unwrap_or(engine),
    );
    Ok(if counts.total > 0 {
        Found::Some
    } else {
        Found::None
    })
}
