//! `dancer sudoku`: solve, count, check and export Sudoku puzzles, one or
//! millions at a time.

use crate::Found;
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use dancer_sudoku::{
    check_solution, read_puzzles, Engine, Entry, Grid, Layout, Puzzle, Rules, Solved, Solver,
    Status,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde_json::json;
use std::collections::HashMap;
use std::io::{IsTerminal, Read, Write};
use std::time::Instant;

#[derive(Subcommand)]
pub enum SudokuCommand {
    /// Solve: one line per puzzle: the solution, or none / multiple / invalid: REASON
    Solve(SolveArgs),
    /// Count solutions: one number per puzzle
    Count(CountArgs),
    /// Check: unique / multiple / none / invalid per puzzle; exit 0 only if all are unique
    Check(CommonArgs),
    /// Write a puzzle's exact cover problem in Knuth's DLX format
    Export(CommonArgs),
    /// The easiest next step, as a player would take it
    Hint(crate::play::HintArgs),
    /// Rate puzzles on the Sukaku Explainer (SE) scale, with a level name
    Rate(crate::play::RateArgs),
    /// Generate puzzles with one solution, minimal, of a symmetry and level
    Generate(crate::play::GenerateArgs),
}

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
    /// NDJSON: one object per puzzle
    #[arg(long)]
    pub json: bool,
    /// Solve this many puzzles at once (default: all cores)
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Engine: auto, fast9 (plain 9x9), logic (any), dlx (exact cover)
    #[arg(long, default_value = "auto")]
    pub engine: Engine,
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum LayoutArg {
    /// One puzzle per line
    Lines,
    /// Grids over several lines, separated by blank lines
    Grids,
}

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Print grids with box lines, for people
    #[arg(long)]
    pub pretty: bool,
}

#[derive(Args)]
pub struct CountArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Stop counting at N (default: count all)
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
}

/// The rules asked for on the command line; `None` size means "from each puzzle".
struct RulesSpec {
    fixed: Option<Rules>,
    diagonal: bool,
    windoku: bool,
}

fn parse_box(s: &str) -> Result<(usize, usize)> {
    let (r, c) = s
        .split_once(['x', 'X'])
        .with_context(|| format!("--box {s:?}: expected ROWSxCOLS, e.g. 2x3"))?;
    let r: usize = r
        .trim()
        .parse()
        .with_context(|| format!("--box {s:?}: bad number of rows"))?;
    let c: usize = c
        .trim()
        .parse()
        .with_context(|| format!("--box {s:?}: bad number of columns"))?;
    Ok((r, c))
}

impl RulesSpec {
    fn new(a: &CommonArgs) -> Result<Self> {
        let mut fixed = None;
        if let Some(b) = &a.boxes {
            let (r, c) = parse_box(b)?;
            fixed = Some(Rules::boxed(r * c, r, c)?);
        }
        if let Some(j) = &a.jigsaw {
            if fixed.is_some() {
                bail!("--box and --jigsaw cannot be used together");
            }
            let map = if std::path::Path::new(j).is_file() {
                std::fs::read_to_string(j).with_context(|| format!("cannot read {j}"))?
            } else {
                j.clone()
            };
            let map: String = map
                .lines()
                .filter(|l| !l.trim_start().starts_with('#'))
                .collect::<Vec<_>>()
                .join("\n");
            let cells = map.chars().filter(|c| !c.is_whitespace()).count();
            let n = (cells as f64).sqrt().round() as usize;
            fixed = Some(Rules::jigsaw(n, &map).context("--jigsaw")?);
        }
        Ok(RulesSpec {
            fixed,
            diagonal: a.diagonal,
            windoku: a.windoku,
        })
    }

    /// Applies the variants to rules of the right size.
    fn finish(&self, mut rules: Rules) -> Result<Rules, dancer_sudoku::RulesError> {
        if self.diagonal {
            rules = rules.with_diagonal();
        }
        if self.windoku {
            rules = rules.with_windoku()?;
        }
        Ok(rules)
    }

    /// Reads the puzzles of `text`, lines numbered from `first_line`.
    fn read(&self, text: &str, layout: Layout, first_line: usize) -> Vec<Entry> {
        let fixed = self.fixed.as_ref().map(|r| self.finish(r.clone()));
        if let Some(Err(e)) = &fixed {
            return vec![Entry {
                line: first_line,
                puzzle: Err(e.clone().into()),
            }];
        }
        let fixed = fixed.map(|r| r.unwrap());
        let mut entries = read_puzzles(text, fixed.as_ref(), layout);
        for e in &mut entries {
            e.line += first_line - 1;
            if fixed.is_none() && (self.diagonal || self.windoku) {
                if let Ok(p) = &e.puzzle {
                    e.puzzle = self
                        .finish(p.rules.clone())
                        .map_err(Into::into)
                        .and_then(|r| Puzzle::new(r, p.givens.clone()));
                }
            }
        }
        entries
    }
}

/// Where the puzzles come from, and the text: standard input for `None` or
/// `-`, a file, or a puzzle given as the argument itself.
pub(crate) fn read_input(input: Option<&str>) -> Result<(String, String)> {
    match input {
        None | Some("-") => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .context("cannot read standard input")?;
            Ok(("<stdin>".into(), s))
        }
        Some(path) if std::path::Path::new(path).exists() => {
            let s = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
            Ok((path.to_string(), s))
        }
        Some(text) => {
            // Not a file: a puzzle given on the command line.
            let t = text.trim();
            if t.len() >= 16
                && !t.contains('/')
                && t.chars()
                    .all(|c| dancer_sudoku::grid::digit(c).is_some() || c.is_whitespace())
            {
                Ok(("<argument>".into(), t.to_string()))
            } else {
                bail!("cannot open {text}: no such file (and it is not a puzzle either)")
            }
        }
    }
}

/// What one puzzle gave.
enum Outcome {
    Invalid(String),
    Solved(Puzzle, Solved),
}

struct Tally {
    unique: u64,
    multiple: u64,
    none: u64,
    invalid: u64,
}

fn layout(a: &CommonArgs) -> Layout {
    match a.layout {
        None => Layout::Auto,
        Some(LayoutArg::Lines) => Layout::Lines,
        Some(LayoutArg::Grids) => Layout::Grids,
    }
}

/// Splits `text` into pieces of about `lines` lines, with the number of
/// the first line of each.
fn chunks(text: &str, lines: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut first = 1;
    let mut count = 0;
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            count += 1;
            if count == lines {
                out.push((first, &text[start..=i]));
                start = i + 1;
                first += count;
                count = 0;
            }
        }
    }
    if start < text.len() {
        out.push((first, &text[start..]));
    }
    out
}

/// Reads, solves (in parallel, output in input order) and reports.
/// `render` turns one puzzle's outcome into its output line(s).
fn run_batch(
    a: &CommonArgs,
    limit: u64,
    keep: usize,
    mut render: impl FnMut(usize, &Outcome, &mut String),
) -> Result<Tally> {
    let spec = RulesSpec::new(a)?;
    let (name, text) = read_input(a.input.as_deref())?;
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start threads")?;
    let lay = layout(a);
    let grids = match lay {
        Layout::Grids => true,
        Layout::Lines => false,
        Layout::Auto => {
            // decide on the whole text once, then cut it if it is lines
            let probe: String = text.lines().take(64).collect::<Vec<_>>().join("\n");
            !read_puzzles(&probe, None, Layout::Auto).is_empty()
                && dancer_sudoku::puzzle::looks_like_grids(&probe)
        }
    };
    let pieces = if grids {
        vec![(1, text.as_str())]
    } else {
        chunks(&text, 8192)
    };
    let total_lines = text.lines().count() as u64;
    let bar = if std::io::stderr().is_terminal() && total_lines > 2000 {
        let b = ProgressBar::with_draw_target(Some(total_lines), ProgressDrawTarget::stderr());
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} lines {per_sec} eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    let mut solvers: HashMap<Rules, Solver> = HashMap::new();
    let mut tally = Tally {
        unique: 0,
        multiple: 0,
        none: 0,
        invalid: 0,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let start = Instant::now();
    let mut n = 0u64;
    let mut buf = String::new();
    for (first, piece) in pieces {
        let entries = spec.read(
            piece,
            if grids { Layout::Grids } else { Layout::Lines },
            first,
        );
        for e in &entries {
            if let Ok(p) = &e.puzzle {
                if !solvers.contains_key(&p.rules) {
                    let s = Solver::new(&p.rules, a.engine)?;
                    solvers.insert(p.rules.clone(), s);
                }
            }
        }
        let results: Vec<(usize, Outcome)> = pool.install(|| {
            entries
                .into_par_iter()
                .map(|e| {
                    let o = match e.puzzle {
                        Err(err) => Outcome::Invalid(err.to_string()),
                        Ok(p) => {
                            let s = solvers[&p.rules].solve(&p.givens, limit, keep);
                            for g in &s.solutions {
                                if let Err(why) = check_solution(&p, g) {
                                    // An engine bug: never print a wrong answer.
                                    return (
                                        e.line,
                                        Outcome::Invalid(format!(
                                            "internal error, wrong solution: {why}"
                                        )),
                                    );
                                }
                            }
                            Outcome::Solved(p, s)
                        }
                    };
                    (e.line, o)
                })
                .collect()
        });
        for (line, o) in &results {
            n += 1;
            match o {
                Outcome::Invalid(why) => {
                    tally.invalid += 1;
                    eprintln!("{name}:{line}: invalid puzzle: {why}");
                }
                Outcome::Solved(_, s) => match s.status() {
                    Status::Unique => tally.unique += 1,
                    Status::Multiple => tally.multiple += 1,
                    Status::None => tally.none += 1,
                },
            }
            buf.clear();
            render(*line, o, &mut buf);
            if let Err(e) = out.write_all(buf.as_bytes()) {
                if e.kind() == std::io::ErrorKind::BrokenPipe {
                    return Ok(tally);
                }
                bail!("cannot write the output: {e}");
            }
        }
        bar.set_position(first as u64 + piece.lines().count() as u64 - 1);
    }
    bar.finish_and_clear();
    if let Err(e) = out.flush() {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            bail!("cannot write the output: {e}");
        }
    }
    let secs = start.elapsed().as_secs_f64();
    if n > 1 || a.threads.is_some() {
        eprintln!(
            "{n} puzzles in {secs:.3} s: {:.0} puzzles/s ({threads} thread{}); {} unique, {} multiple, {} none, {} invalid",
            n as f64 / secs.max(1e-9),
            if threads == 1 { "" } else { "s" },
            tally.unique,
            tally.multiple,
            tally.none,
            tally.invalid
        );
    }
    Ok(tally)
}

fn found(t: &Tally, all_unique: bool) -> Found {
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

pub fn run(cmd: SudokuCommand) -> Result<Found> {
    match cmd {
        SudokuCommand::Solve(args) => {
            let a = &args.common;
            let json = a.json;
            let pretty = args.pretty;
            let t = run_batch(a, 2, 2, |line, o, buf| {
                render_solve(line, o, json, pretty, buf)
            })?;
            Ok(found(&t, false))
        }
        SudokuCommand::Count(args) => {
            let a = &args.common;
            let json = a.json;
            let limit = args.limit.unwrap_or(u64::MAX);
            if limit == 0 {
                bail!("--limit must be at least 1");
            }
            let t = run_batch(a, limit, 0, |line, o, buf| match o {
                Outcome::Invalid(why) => push_invalid(line, why, json, buf),
                Outcome::Solved(_, s) => {
                    if json {
                        buf.push_str(
                            &json!({"line": line, "count": s.count, "complete": s.count < limit, "effort": s.effort})
                                .to_string(),
                        );
                    } else {
                        buf.push_str(&s.count.to_string());
                    }
                    buf.push('\n');
                }
            })?;
            Ok(found(&t, false))
        }
        SudokuCommand::Check(a) => {
            let json = a.json;
            let t = run_batch(&a, 2, 0, |line, o, buf| match o {
                Outcome::Invalid(why) => push_invalid(line, why, json, buf),
                Outcome::Solved(_, s) => {
                    if json {
                        buf.push_str(
                            &json!({"line": line, "status": s.status().to_string()}).to_string(),
                        );
                    } else {
                        buf.push_str(&s.status().to_string());
                    }
                    buf.push('\n');
                }
            })?;
            Ok(found(&t, true))
        }
        SudokuCommand::Export(a) => export(&a),
        SudokuCommand::Hint(a) => crate::play::hint(a),
        SudokuCommand::Rate(a) => crate::play::rate(a),
        SudokuCommand::Generate(a) => crate::play::generate_cmd(a),
    }
}

fn push_invalid(line: usize, why: &str, json: bool, buf: &mut String) {
    if json {
        buf.push_str(&json!({"line": line, "status": "invalid", "error": why}).to_string());
    } else {
        buf.push_str("invalid: ");
        buf.push_str(why);
    }
    buf.push('\n');
}

fn render_solve(line: usize, o: &Outcome, json: bool, pretty: bool, buf: &mut String) {
    let (p, s) = match o {
        Outcome::Invalid(why) => return push_invalid(line, why, json, buf),
        Outcome::Solved(p, s) => (p, s),
    };
    let status = s.status();
    if json {
        let mut v = json!({"line": line, "puzzle": p.to_line(), "status": status.to_string()});
        match status {
            Status::Unique => v["solution"] = json!(s.solutions[0].to_line()),
            Status::Multiple => {
                v["solutions"] = json!(s.solutions.iter().map(Grid::to_line).collect::<Vec<_>>())
            }
            Status::None => {}
        }
        buf.push_str(&v.to_string());
        buf.push('\n');
        return;
    }
    match (status, pretty) {
        (Status::Unique, false) => buf.push_str(&s.solutions[0].to_line()),
        (Status::Unique, true) => {
            buf.push_str(&s.solutions[0].pretty(&p.rules));
        }
        (Status::Multiple, false) => buf.push_str("multiple"),
        (Status::Multiple, true) => {
            buf.push_str("multiple; two of the solutions:\n");
            for g in &s.solutions {
                buf.push_str(&g.pretty(&p.rules));
                buf.push('\n');
            }
        }
        (Status::None, _) => buf.push_str("none"),
    }
    if !pretty || status == Status::None || status == Status::Unique {
        buf.push('\n');
    }
}

fn export(a: &CommonArgs) -> Result<Found> {
    let spec = RulesSpec::new(a)?;
    let (name, text) = read_input(a.input.as_deref())?;
    let entries = spec.read(&text, layout(a), 1);
    let Some(e) = entries.into_iter().next() else {
        bail!("{name}: no puzzle found");
    };
    let p = e
        .puzzle
        .map_err(|err| anyhow::anyhow!("{name}:{}: invalid puzzle: {err}", e.line))?;
    let cover = dancer_sudoku::cover::to_exact_cover(&p);
    let stdout = std::io::stdout();
    let comment = format!("sudoku {}: {}", p.rules.describe(), p.to_line());
    match dancer_formats::dlx::write(&cover.problem, stdout.lock(), Some(&comment)) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        r => r?,
    }
    Ok(Found::Some)
}
