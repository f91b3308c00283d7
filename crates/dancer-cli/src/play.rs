//! `dancer sudoku hint`, `rate` and `generate`: Sudoku as people play it.

use crate::Found;
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use dancer_sudoku::generate::{generate, Options as GenOptions, Symmetry};
use dancer_sudoku::logic::{self, Level, Step};
use dancer_sudoku::{read_puzzles, Grid, Layout, Puzzle, Rules, Solver, Status};
use rayon::prelude::*;
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::time::Instant;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HintLevel {
    /// Only the technique and where to look
    Nudge,
    /// The whole step: cells, candidates, what to place or remove
    Full,
}

#[derive(Args)]
pub struct HintArgs {
    /// The puzzle (81 characters, `.` or `0` for empty; the player's entries
    /// may be filled in), or a file holding it
    pub puzzle: String,
    /// How much to tell
    #[arg(long, value_enum, default_value = "full")]
    pub level: HintLevel,
    /// Print the hint as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct RateArgs {
    /// Puzzle file, one per line; - or nothing for standard input; or a puzzle
    pub input: Option<String>,
    /// NDJSON: one object per puzzle with `rating` (SE scale) and `level`
    #[arg(long)]
    pub json: bool,
    /// Rate this many puzzles at once (default: all cores)
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LevelArg {
    Easy,
    Medium,
    Hard,
    Expert,
    Extreme,
}

impl LevelArg {
    fn level(self) -> Level {
        match self {
            LevelArg::Easy => Level::Easy,
            LevelArg::Medium => Level::Medium,
            LevelArg::Hard => Level::Hard,
            LevelArg::Expert => Level::Expert,
            LevelArg::Extreme => Level::Extreme,
        }
    }
}

#[derive(Args)]
pub struct GenerateArgs {
    /// How many puzzles
    #[arg(long, default_value = "1")]
    pub count: usize,
    /// Difficulty level (9x9)
    #[arg(long, value_enum, conflicts_with = "rating")]
    pub level: Option<LevelArg>,
    /// SE rating range A-B, e.g. 3.0-4.5 (9x9)
    #[arg(long, value_name = "A-B")]
    pub rating: Option<String>,
    /// Symmetry of the givens: none, rotate180, rotate90, mirror, diagonal
    #[arg(long, default_value = "none")]
    pub symmetry: String,
    /// Grid size: 4, 9 or 16
    #[arg(long, default_value = "9")]
    pub size: usize,
    /// Random seed (the same seed and flags give the same puzzles)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Do not insist that no given can be removed
    #[arg(long)]
    pub not_minimal: bool,
    /// Generate this many puzzles at once (default: all cores); output order is kept
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Print NDJSON: the puzzle with its rating, level and solution
    #[arg(long)]
    pub json: bool,
}

fn cell(c: usize) -> String {
    format!("r{}c{}", c / 9 + 1, c % 9 + 1)
}

fn read_one(input: &str) -> Result<(String, Puzzle)> {
    let (name, text) = crate::sudoku::read_input(Some(input))?;
    let entries = read_puzzles(&text, None, Layout::Auto);
    let Some(e) = entries.into_iter().next() else {
        bail!("{name}: no puzzle found");
    };
    let p = e
        .puzzle
        .map_err(|err| anyhow::anyhow!("{name}:{}: invalid puzzle: {err}", e.line))?;
    Ok((name, p))
}

fn step_json(step: &Step, level: HintLevel) -> serde_json::Value {
    let mut v = json!({
        "technique": step.technique.name(),
        "rating": step.rating(),
        "units": step.units,
    });
    if level == HintLevel::Full {
        v["cells"] = json!(step.cells.iter().map(|&c| cell(c)).collect::<Vec<_>>());
        v["digits"] = json!(step.digits);
        v["placements"] = json!(step
            .placements
            .iter()
            .map(|&(c, d)| json!({"cell": cell(c), "digit": d}))
            .collect::<Vec<_>>());
        v["eliminations"] = json!(step
            .eliminations
            .iter()
            .map(|&(c, d)| json!({"cell": cell(c), "digit": d}))
            .collect::<Vec<_>>());
        v["description"] = json!(step.description);
    }
    v
}

pub fn hint(args: HintArgs) -> Result<Found> {
    let (_, p) = read_one(&args.puzzle)?;
    if !p.rules.is_standard_9x9() {
        bail!(
            "hints are given for plain 9x9 puzzles; this one is {}",
            p.rules.describe()
        );
    }
    let s = Solver::new(&p.rules, dancer_sudoku::Engine::Auto)?.solve(&p.givens, 2, 1);
    match s.status() {
        Status::None => {
            if args.json {
                println!(
                    "{}",
                    json!({"status": "none", "message": "the puzzle has no solution"})
                );
            } else {
                println!("This puzzle has no solution: a digit is already wrong.");
            }
            return Ok(Found::None);
        }
        Status::Multiple => {
            // Steps that assume a unique solution (unique rectangles, BUG+1)
            // could mislead here, and the search for a step can be long:
            // say so instead of hinting.
            if args.json {
                println!(
                    "{}",
                    json!({"status": "multiple", "message": "the puzzle has more than one solution"})
                );
            } else {
                println!("This puzzle has more than one solution: no hint can lead to one answer.");
            }
            return Ok(Found::None);
        }
        Status::Unique => {}
    }
    let board = logic::Board::try_from_grid(&p.givens).context("the puzzle is not consistent")?;
    if board.is_solved() {
        if args.json {
            println!("{}", json!({"status": "solved"}));
        } else {
            println!("The grid is full: nothing left to do.");
        }
        return Ok(Found::Some);
    }
    let Some(step) = logic::next_step(&board) else {
        if args.json {
            println!("{}", json!({"status": "stuck"}));
        } else {
            println!("No logical step found.");
        }
        return Ok(Found::None);
    };
    if args.json {
        let mut v = step_json(&step, args.level);
        v["status"] = json!("hint");
        println!("{v}");
    } else {
        match args.level {
            HintLevel::Nudge => {
                let place = if step.units.is_empty() {
                    String::new()
                } else {
                    format!(" Look at {}.", step.units.join(", "))
                };
                println!(
                    "Try a {} (SE {:.1}).{place}",
                    step.technique.name(),
                    step.rating()
                );
            }
            HintLevel::Full => {
                println!("{} (SE {:.1})", step.description, step.rating());
                for &(c, d) in &step.placements {
                    println!("  place {d} in {}", cell(c));
                }
                if !step.eliminations.is_empty() {
                    let e: Vec<String> = step
                        .eliminations
                        .iter()
                        .map(|&(c, d)| format!("{d} from {}", cell(c)))
                        .collect();
                    println!("  remove {}", e.join(", "));
                }
            }
        }
    }
    Ok(Found::Some)
}

pub fn rate(args: RateArgs) -> Result<Found> {
    let (name, text) = crate::sudoku::read_input(args.input.as_deref())?;
    let entries = read_puzzles(&text, None, Layout::Lines);
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()?;
    let start = Instant::now();
    let results: Vec<(usize, RateResult)> = pool.install(|| {
        entries
            .into_par_iter()
            .map(|e| {
                let r = match e.puzzle {
                    Err(err) => Err(err.to_string()),
                    Ok(p) if !p.rules.is_standard_9x9() => Err(format!(
                        "ratings are for plain 9x9, not {}",
                        p.rules.describe()
                    )),
                    Ok(p) => {
                        // only a unique puzzle is rated: logic on a grid with
                        // many solutions can search for a very long time
                        let unique = dancer_sudoku::solve(&p, 2).count == 1;
                        Ok(unique.then(|| logic::rate(&p.givens)))
                    }
                };
                (e.line, r)
            })
            .collect()
    });
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut invalid = 0;
    for (line, r) in &results {
        let text = match r {
            Err(why) => {
                invalid += 1;
                eprintln!("{name}:{line}: invalid puzzle: {why}");
                if args.json {
                    json!({"line": line, "status": "invalid", "error": why}).to_string()
                } else {
                    format!("invalid: {why}")
                }
            }
            Ok(None) => {
                invalid += 1;
                eprintln!("{name}:{line}: the puzzle has no unique solution; it is not rated");
                if args.json {
                    json!({"line": line, "status": "not unique"}).to_string()
                } else {
                    "not unique".to_string()
                }
            }
            Ok(Some(rt)) => {
                let level = level_name(rt.level);
                if args.json {
                    json!({"line": line, "rating": rt.se, "level": level,
                           "hardest": rt.hardest.map(|t| t.name()), "steps": rt.steps, "solved": rt.solved})
                    .to_string()
                } else {
                    format!("{:.1} {level}", rt.se)
                }
            }
        };
        if writeln!(out, "{text}").is_err() {
            break;
        }
    }
    out.flush().ok();
    if results.len() > 1 {
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "{} puzzles rated in {secs:.2} s ({:.0}/s)",
            results.len(),
            results.len() as f64 / secs.max(1e-9)
        );
    }
    Ok(if invalid > 0 {
        Found::Invalid
    } else {
        Found::Some
    })
}

fn level_name(l: Level) -> &'static str {
    match l {
        Level::Easy => "easy",
        Level::Medium => "medium",
        Level::Hard => "hard",
        Level::Expert => "expert",
        Level::Extreme => "extreme",
    }
}

/// A puzzle's rating (`None` when it has no unique solution), or why it
/// could not be rated.
type RateResult = Result<Option<logic::Rating>, String>;

fn parse_range(s: &str) -> Result<(f64, f64)> {
    let (a, b) = s
        .split_once('-')
        .with_context(|| format!("--rating {s:?}: expected A-B, e.g. 3.0-4.5"))?;
    let a: f64 = a
        .trim()
        .parse()
        .with_context(|| format!("--rating {s:?}: bad lower bound"))?;
    let b: f64 = b
        .trim()
        .parse()
        .with_context(|| format!("--rating {s:?}: bad upper bound"))?;
    if a.is_nan() || b.is_nan() || a > b {
        bail!("--rating {s:?}: the lower bound is above the upper");
    }
    if b < 1.0 {
        // the easiest step, a full house, rates 1.0: nothing could be found
        bail!("--rating {s:?}: no puzzle rates below 1.0");
    }
    Ok((a, b))
}

pub fn generate_cmd(args: GenerateArgs) -> Result<Found> {
    let symmetry: Symmetry = args
        .symmetry
        .parse()
        .map_err(|e: String| anyhow::anyhow!(e))?;
    if ![4, 9, 16].contains(&args.size) {
        bail!("--size must be 4, 9 or 16, not {}", args.size);
    }
    let rules = Rules::standard(args.size)?;
    let range = match (&args.rating, args.level) {
        (Some(r), _) => Some(parse_range(r)?),
        (None, Some(l)) => {
            let l = l.level();
            // the SE interval of a level (see `Level::of`)
            let probe: Vec<f64> = (0..=120)
                .map(|k| k as f64 / 10.0)
                .filter(|&x| Level::of(x) == l)
                .collect();
            Some((probe[0], *probe.last().unwrap()))
        }
        (None, None) => None,
    };
    if range.is_some() && args.size != 9 {
        bail!("levels and ratings are for 9x9 puzzles");
    }
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let opts = GenOptions {
        rules: rules.clone(),
        symmetry,
        minimal: !args.not_minimal,
        attempts: 2_000_000,
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()?;
    let start = Instant::now();
    let bar = (std::io::stderr().is_terminal() && args.count > 1).then(|| {
        let b = indicatif::ProgressBar::new(args.count as u64);
        b.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        b
    });
    let made: Vec<Option<(Puzzle, Option<logic::Rating>)>> = pool.install(|| {
        (0..args.count)
            .into_par_iter()
            .map(|i| {
                // each puzzle has its own stream of random numbers
                let s = seed.wrapping_add((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                let mut rating = None;
                let p = generate(&opts, s, |p| match range {
                    None => true,
                    Some((a, b)) => {
                        // too hard: given up early; too easy: cheap anyway
                        let Some(r) = logic::rate_at_most(&p.givens, b) else {
                            return false;
                        };
                        if r.se < a - 1e-9 {
                            return false;
                        }
                        // the rating printed is the full one
                        let r = logic::rate(&p.givens);
                        let ok = r.solved && r.se >= a - 1e-9 && r.se <= b + 1e-9;
                        rating = Some(r);
                        ok
                    }
                });
                if let Some(b) = &bar {
                    b.inc(1);
                }
                p.map(|p| (p, rating))
            })
            .collect()
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut failed = 0;
    for m in &made {
        let Some((p, rating)) = m else {
            failed += 1;
            continue;
        };
        if args.json {
            let r = match rating {
                Some(r) => Some(r.clone()),
                None if args.size == 9 => Some(logic::rate(&p.givens)),
                None => None,
            };
            let sol = dancer_sudoku::solve(p, 2);
            let v = json!({
                "puzzle": p.to_line(),
                "givens": p.givens.filled(),
                "rating": r.as_ref().map(|r| r.se),
                "level": r.as_ref().map(|r| level_name(r.level)),
                "symmetry": symmetry.to_string(),
                "solution": sol.solutions.first().map(Grid::to_line),
            });
            writeln!(out, "{v}").ok();
        } else {
            writeln!(out, "{}", p.to_line()).ok();
        }
    }
    out.flush().ok();
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{} puzzles in {secs:.2} s ({:.1} ms each, {threads} thread{}), seed {seed}",
        made.len() - failed,
        secs * 1000.0 / (made.len() - failed).max(1) as f64,
        if threads == 1 { "" } else { "s" }
    );
    if failed > 0 {
        bail!("{failed} puzzles could not be made with these settings");
    }
    Ok(Found::Some)
}
