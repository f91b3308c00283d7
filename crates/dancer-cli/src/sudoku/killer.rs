//! `dancer sudoku hint|rate|generate --killer`: killer puzzles' hints,
//! ratings and generation (all made by `dancer_sudoku::killer`; here are
//! the input, the words and the printing).

use super::variant::{self, lines, RateRun, StopClock};
use crate::output::{Found, Out};
use anyhow::{bail, Result};
use dancer_core::plural;
use dancer_formats::ndjson::SudokuGenerateRecord;
use dancer_sudoku::generate::{clock_seed, puzzle_seed};
use dancer_sudoku::hint::HintLevel;
use dancer_sudoku::killer::{self, is_killer_text, KillerLevel, KillerPuzzle};
use dancer_sudoku::logic::Level;
use dancer_sudoku::Rules;
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// The input: a killer puzzle given as the argument itself, else a file
/// or standard input.
fn input(arg: Option<&str>) -> Result<(String, String)> {
    variant::input(arg, is_killer_text)
}

/// `hint --killer`: the easiest next step of the (first) puzzle, within
/// `timeout` and Ctrl-C (the count of its solutions as well as the step).
pub fn hint(
    arg: &str,
    level: HintLevel,
    json: bool,
    timeout: Option<Duration>,
    out: &mut Out,
) -> Result<Found> {
    let (name, text) = input(Some(arg))?;
    let Some(&(line, first)) = lines(&text).first() else {
        bail!("{name}: no puzzle found");
    };
    let k = KillerPuzzle::parse(first, None).map_err(|e| anyhow::anyhow!("{name}:{line}: {e}"))?;
    let h = killer::hint_within(&k, &[], &variant::hint_budget(timeout));
    if json {
        out.record(&h.record(&k, level))?;
    } else {
        out.text(&h.text(&k, level))?;
    }
    Ok(variant::hint_found(&h))
}

/// `rate --killer`: each puzzle's rating on the killer scale, on all
/// cores, in input order, each within `timeout`.
pub fn rate(
    arg: Option<&str>,
    threads: usize,
    json: bool,
    timeout: Option<Duration>,
    out: &mut Out,
) -> Result<Found> {
    let (name, text) = input(arg)?;
    let run = RateRun {
        name: &name,
        text: &text,
        threads,
        json,
        timeout,
    };
    variant::rate_lines(&run, out, |l, budget| {
        KillerPuzzle::parse(l, None)
            .map(|k| killer::rate_unique_within(&k, budget))
            .map_err(|e| e.to_string())
    })
}

/// What `generate --killer` was asked for (from `generate`'s flags).
pub struct KillerRun {
    pub size: usize,
    pub count: u64,
    pub seed: Option<u64>,
    pub level: Option<Level>,
    pub threads: usize,
    pub timeout: Option<Duration>,
    pub json: bool,
}

/// `generate --killer`: `count` killers of `level` (medium unless told),
/// printed in order as lines or records.
pub fn generate(run: &KillerRun, out: &mut Out) -> Result<Found> {
    let (size, count, seed, json) = (run.size, run.count, run.seed, run.json);
    let (threads, timeout) = (run.threads, run.timeout);
    let level = match run.level {
        None => KillerLevel::Medium,
        Some(l) => KillerLevel::from_name(l.name()).ok_or_else(|| {
            anyhow::anyhow!(
                "--level {} is not a killer level (killer levels: easy, medium, hard, expert)",
                l.name()
            )
        })?,
    };
    if !(4..=16).contains(&size) {
        bail!("--size {size}: killer puzzles are from 4x4 to 16x16");
    }
    let rules = Rules::standard(size).map_err(|e| anyhow::anyhow!("--size {size}: {e}"))?;
    let seed = seed.unwrap_or_else(clock_seed);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let start = Instant::now();
    let stop = StopClock::start(timeout);
    let (mut made, mut missed) = (0u64, 0u64);
    // in blocks of a few per thread, printed as each block ends
    let mut i = 0;
    while i < count && !stop.stopped() {
        let block: Vec<u64> = (i..count.min(i + 2 * threads as u64)).collect();
        i += block.len() as u64;
        let got: Vec<Option<killer::KillerGenerated>> = pool.install(|| {
            block
                .par_iter()
                .map(|&j| {
                    killer::generate(
                        &rules,
                        level,
                        puzzle_seed(seed, j),
                        killer::TRIES,
                        Some(stop.flag()),
                    )
                })
                .collect()
        });
        for g in got {
            let Some(g) = g else {
                missed += 1;
                continue;
            };
            made += 1;
            let line = g.puzzle.to_line();
            if json {
                out.record(&SudokuGenerateRecord {
                    puzzle: line,
                    givens: g.puzzle.puzzle.givens.filled(),
                    rating: Some(g.rating),
                    level: Some(g.level.name().into()),
                    symmetry: "none".into(),
                    solution: Some(g.solution.to_line()),
                })?;
            } else {
                out.line(&line)?;
            }
        }
        out.flush()?;
    }
    eprintln!(
        "{} {} killer, {size}x{size}, in {:.2} s (seed {seed})",
        plural(made, "puzzle", "puzzles"),
        level.name(),
        start.elapsed().as_secs_f64()
    );
    if let Some(found) = variant::stopped_early(&stop, made, count, timeout) {
        return Ok(found);
    }
    if missed > 0 {
        eprintln!(
            "{missed} not made: no grid of {} tries gave a {} killer",
            killer::TRIES,
            level.name()
        );
        return Ok(Found::None);
    }
    Ok(Found::Some)
}
