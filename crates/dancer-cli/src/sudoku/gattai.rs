//! `dancer sudoku solve|count|check|generate --shape NAME|FILE`: overlapping
//! grids (samurai, twodoku, ...; `dancer_sudoku::gattai`), a puzzle a line,
//! on all cores, each answer checked grid by grid.

use super::variant::{self, lines, RateRun, StopClock};
use crate::output::{Found, Out};
use anyhow::{anyhow, Result};
use clap::Args;
use dancer_core::plural;
use dancer_formats::ndjson::{
    InvalidPuzzle, SudokuCheckRecord, SudokuCountRecord, SudokuGenerateRecord, SudokuSolveRecord,
    Verdict,
};
use dancer_sudoku::gattai::{self, GattaiPuzzle, Shape};
use dancer_sudoku::generate::{clock_seed, puzzle_seed};
use dancer_sudoku::records::BatchOutput;
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// `--shape`: overlapping grids.
#[derive(Args, Clone, Debug, Default)]
pub struct ShapeArg {
    /// Overlapping grids: samurai, twodoku, flower, sohei, butterfly,
    /// windmill, or a shape file (lines `size N` and `grid ROW COL`); each
    /// puzzle line is the grids one after the other, or the shape's cells
    /// in reading order
    #[arg(long, value_name = "NAME|FILE", conflicts_with_all = ["killer", "layout", "engine", "shard", "boxes", "jigsaw", "diagonal", "windoku"])]
    pub shape: Option<String>,
}

/// The most bytes of a shape file.
const MAX_SHAPE_FILE: u64 = 1 << 20;

/// A built-in shape by name, else a shape file.
pub fn shape_of(arg: &str) -> Result<Shape> {
    if let Some(s) = Shape::builtin(arg) {
        return Ok(s);
    }
    let path = Path::new(arg);
    if !path.exists() {
        return Err(anyhow!(
            "--shape {arg:?}: {}",
            gattai::GattaiError::UnknownShape(arg.into())
        ));
    }
    let text = crate::input::read_file(path, MAX_SHAPE_FILE)?;
    let name = path
        .file_stem()
        .map_or(arg.into(), |s| s.to_string_lossy().into_owned());
    Shape::parse(&name, &text).map_err(|e| anyhow!("{arg}: {e}"))
}

/// What one line came to.
enum Answer {
    Invalid(String),
    Solved(GattaiPuzzle, gattai::GattaiSolved),
}

/// Solves, counts or checks every line of the input on `threads` threads,
/// printing in input order.
pub fn batch(
    shape_arg: &str,
    input_arg: Option<&str>,
    output: BatchOutput,
    threads: usize,
    json: bool,
    out: &mut Out,
) -> Result<Found> {
    let shape = shape_of(shape_arg)?;
    let (name, text) = input(input_arg)?;
    let cancel = crate::interrupt::cancel_flag();
    let (limit, keep) = match output {
        BatchOutput::Solve { .. } => (2, 2),
        BatchOutput::Count { limit } => (limit, 0),
        BatchOutput::Check { .. } => (2, 0),
    };
    let lines = lines(&text);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let start = Instant::now();
    let answers: Vec<Option<Answer>> = pool.install(|| {
        lines
            .par_iter()
            .map(|&(_, l)| {
                if cancel.load(Ordering::Relaxed) {
                    return None;
                }
                Some(match GattaiPuzzle::parse(l, &shape) {
                    Err(e) => Answer::Invalid(e.to_string()),
                    Ok(p) => {
                        let s = gattai::solve(&p, Some(limit), keep, Some(cancel.clone()));
                        Answer::Solved(p, s)
                    }
                })
            })
            .collect()
    });
    let (mut unique, mut multiple, mut none, mut bad, mut done) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut buf = String::new();
    for (&(line, _), a) in lines.iter().zip(&answers) {
        let Some(a) = a else { continue };
        match a {
            Answer::Invalid(why) => {
                bad += 1;
                eprintln!("{name}:{line}: invalid puzzle: {why}");
                if json {
                    push(&InvalidPuzzle::new(line, why.clone()), &mut buf);
                } else {
                    buf.push_str(&format!("invalid: {why}\n"));
                }
            }
            Answer::Solved(p, s) if !s.complete && s.count < limit => {
                // interrupted in the middle of this one: not reported
                let _ = p;
            }
            Answer::Solved(p, s) => {
                done += 1;
                for sol in &s.solutions {
                    gattai::check_solution(p, sol)
                        .map_err(|e| anyhow!("{name}:{line}: the solver's answer is wrong: {e}"))?;
                }
                let status = match s.count {
                    0 => Verdict::None,
                    1 => Verdict::Unique,
                    _ => Verdict::Multiple,
                };
                match status {
                    Verdict::Unique => unique += 1,
                    Verdict::None => none += 1,
                    _ => multiple += 1,
                }
                answer(line, p, s, status, output, json, &mut buf);
            }
        }
    }
    out.text(&buf)?;
    out.flush()?;
    eprintln!(
        "{} in {:.3} s ({}): {unique} unique, {multiple} multiple, {none} none, {bad} invalid",
        plural(done + bad, "puzzle", "puzzles"),
        start.elapsed().as_secs_f64(),
        shape.name
    );
    if cancel.load(Ordering::Relaxed) {
        eprintln!(
            "interrupted: {} answered",
            plural(done, "puzzle", "puzzles")
        );
        return Ok(Found::Interrupted);
    }
    // as plain batches: every puzzle with a solution (check: exactly one)
    let answered = if matches!(output, BatchOutput::Check { .. }) {
        multiple == 0 && none == 0
    } else {
        none == 0
    };
    Ok(if bad > 0 {
        Found::Invalid
    } else if answered {
        Found::Some
    } else {
        Found::None
    })
}

fn push<T: serde::Serialize>(r: &T, buf: &mut String) {
    buf.push_str(&serde_json::to_string(r).expect("plain data serialises"));
    buf.push('\n');
}

/// One puzzle's answer, as `output` says, in text or as a record.
fn answer(
    line: usize,
    p: &GattaiPuzzle,
    s: &gattai::GattaiSolved,
    status: Verdict,
    output: BatchOutput,
    json: bool,
    buf: &mut String,
) {
    let shape = &p.shape;
    let line_of = |v: &Vec<u8>| GattaiPuzzle::line_of(shape, v);
    match (output, json) {
        (BatchOutput::Solve { .. }, true) => push(
            &SudokuSolveRecord::Solved {
                line,
                puzzle: p.to_line(),
                status,
                solution: (status == Verdict::Unique).then(|| line_of(&s.solutions[0])),
                solutions: (status == Verdict::Multiple)
                    .then(|| s.solutions.iter().map(line_of).collect()),
            },
            buf,
        ),
        (BatchOutput::Count { limit }, true) => push(
            &SudokuCountRecord::Counted {
                line,
                count: s.count,
                complete: s.count < limit,
                effort: 0,
            },
            buf,
        ),
        (BatchOutput::Check { .. }, true) => {
            push(&SudokuCheckRecord::Checked { line, status }, buf)
        }
        (BatchOutput::Solve { pretty }, false) => match status {
            Verdict::Unique if pretty => {
                buf.push_str(&gattai::picture(shape, &s.solutions[0]));
                buf.push('\n');
            }
            Verdict::Unique => {
                buf.push_str(&line_of(&s.solutions[0]));
                buf.push('\n');
            }
            Verdict::Multiple => buf.push_str("multiple\n"),
            _ => buf.push_str("none\n"),
        },
        (BatchOutput::Count { .. }, false) => buf.push_str(&format!("{}\n", s.count)),
        (BatchOutput::Check { pretty }, false) => {
            if pretty {
                buf.push_str(&gattai::picture(shape, &p.givens));
            }
            let words = match status {
                Verdict::Unique => "unique",
                Verdict::Multiple => "multiple",
                _ => "none",
            };
            buf.push_str(words);
            buf.push('\n');
        }
    }
}

/// What `generate --shape` was asked for (from `generate`'s flags).
pub struct GattaiRun {
    /// `--size`, if given: it must be the shape's.
    pub size: Option<usize>,
    pub count: u64,
    pub seed: Option<u64>,
    pub threads: usize,
    pub json: bool,
    pub pretty: bool,
    pub timeout: Option<Duration>,
}

/// `generate --shape`: `count` minimal puzzles with one solution on the
/// shape, in order, each checked.
pub fn generate(shape_arg: &str, run: &GattaiRun, out: &mut Out) -> Result<Found> {
    let shape = shape_of(shape_arg)?;
    if let Some(size) = run.size.filter(|&n| n != shape.size) {
        let n = shape.size;
        return Err(if Shape::builtin(shape_arg).is_some() {
            anyhow!(
                "--size {size}: {shape_arg} is a built-in shape of {n}x{n} grids; a shape file (`size N`, then a `grid ROW COL` line a grid) makes one of other sizes"
            )
        } else {
            anyhow!(
                "--size {size}: the shape file {shape_arg} is of {n}x{n} grids (its `size` line); leave --size out, or change the file"
            )
        });
    }
    let (count, seed, threads) = (run.count, run.seed, run.threads);
    let (json, pretty, timeout) = (run.json, run.pretty, run.timeout);
    let seed = seed.unwrap_or_else(clock_seed);
    let stop = StopClock::start(timeout);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let start = Instant::now();
    let mut made = 0u64;
    let mut i = 0;
    while i < count && !stop.stopped() {
        let block: Vec<u64> = (i..count.min(i + threads as u64)).collect();
        i += block.len() as u64;
        let got: Vec<Option<gattai::GattaiGenerated>> = pool.install(|| {
            block
                .par_iter()
                .map(|&j| gattai::generate(&shape, puzzle_seed(seed, j), Some(stop.flag())))
                .collect()
        });
        if got.iter().any(Option::is_none) && !stop.stopped() {
            // not cancelled: the shape has no complete canvas
            eprintln!(
                "{shape_arg}: the shape has no solution: its grids overlap so that no digits fit"
            );
            return Ok(Found::None);
        }
        let mut buf = String::new();
        for g in got.into_iter().flatten() {
            gattai::check_solution(&g.puzzle, &g.solution)
                .map_err(|e| anyhow!("a generated puzzle's solution is wrong: {e}"))?;
            made += 1;
            if json {
                push(
                    &SudokuGenerateRecord {
                        puzzle: g.puzzle.to_line(),
                        givens: g.puzzle.givens.iter().filter(|&&d| d != 0).count(),
                        rating: None,
                        level: None,
                        symmetry: "none".into(),
                        solution: Some(GattaiPuzzle::line_of(&shape, &g.solution)),
                    },
                    &mut buf,
                );
            } else if pretty {
                buf.push_str(&gattai::picture(&shape, &g.puzzle.givens));
                buf.push('\n');
            } else {
                buf.push_str(&g.puzzle.to_line());
                buf.push('\n');
            }
        }
        out.text(&buf)?;
        out.flush()?;
    }
    eprintln!(
        "{} ({}) in {:.2} s, seed {seed}",
        plural(made, "puzzle", "puzzles"),
        shape.name,
        start.elapsed().as_secs_f64()
    );
    if let Some(found) = variant::stopped_early(&stop, made, count, timeout) {
        return Ok(found);
    }
    Ok(Found::Some)
}

/// `hint --shape`: the easiest next step of the (first) puzzle, across
/// its grids, within `timeout` and Ctrl-C (the count of its solutions as
/// well as the step).
pub fn hint(
    shape_arg: &str,
    arg: &str,
    level: dancer_sudoku::hint::HintLevel,
    json: bool,
    timeout: Option<Duration>,
    out: &mut Out,
) -> Result<Found> {
    let shape = shape_of(shape_arg)?;
    let (name, text) = input(Some(arg))?;
    let Some((line, first)) = lines(&text).first().copied() else {
        return Err(anyhow!("{name}: no puzzle found"));
    };
    let p = GattaiPuzzle::parse(first, &shape).map_err(|e| anyhow!("{name}:{line}: {e}"))?;
    let h = gattai::hint_within(&p, &[], &variant::hint_budget(timeout));
    let cell = |c: usize| shape.cell_name(c);
    let cage = |i: usize| i.to_string();
    if json {
        out.record(&h.record_with(level, &cell, &cage))?;
    } else {
        out.text(&h.text_with(level, &cell, &cage))?;
    }
    Ok(variant::hint_found(&h))
}

/// `rate --shape`: every puzzle rated by its hardest step across the
/// grids, on the killer scale, each within `timeout`.
pub fn rate(
    shape_arg: &str,
    arg: Option<&str>,
    threads: usize,
    json: bool,
    timeout: Option<Duration>,
    out: &mut Out,
) -> Result<Found> {
    let shape = shape_of(shape_arg)?;
    let (name, text) = input(arg)?;
    let run = RateRun {
        name: &name,
        text: &text,
        threads,
        json,
        timeout,
    };
    variant::rate_lines(&run, out, |l, budget| {
        GattaiPuzzle::parse(l, &shape)
            .map_err(|e| e.to_string())
            .map(|p| gattai::rate_unique_within(&p, budget))
    })
}

/// The input: a puzzle line given as the argument itself, else a file or
/// standard input.
fn input(arg: Option<&str>) -> Result<(String, String)> {
    variant::input(arg, |a| {
        a.len() > 16 && a.chars().all(|c| c.is_ascii_alphanumeric() || c == '.')
    })
}
