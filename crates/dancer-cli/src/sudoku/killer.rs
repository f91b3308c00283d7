//! `dancer sudoku hint|rate|generate --killer`: killer puzzles' hints,
//! ratings and generation (all made by `dancer_sudoku::killer`; here are
//! the input, the words and the printing).

use super::common::read_input;
use crate::output::{Found, Out};
use anyhow::{bail, Result};
use dancer_core::plural;
use dancer_formats::ndjson::{InvalidPuzzle, SudokuGenerateRecord};
use dancer_sudoku::generate::{clock_seed, puzzle_seed};
use dancer_sudoku::hint::HintLevel;
use dancer_sudoku::killer::{self, is_killer_text, KillerLevel, KillerPuzzle};
use dancer_sudoku::logic::Level;
use dancer_sudoku::Rules;
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The input: a killer puzzle given as the argument itself, else a file
/// or standard input.
fn input(arg: Option<&str>) -> Result<(String, String)> {
    match arg {
        Some(a) if !Path::new(a).exists() && is_killer_text(a) => {
            Ok(("<argument>".into(), a.to_string()))
        }
        a => read_input(a),
    }
}

/// The puzzle lines of `text` (blank lines and `#` comments skipped), with
/// their line numbers.
fn lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// `hint --killer`: the easiest next step of the (first) puzzle.
pub fn hint(arg: &str, level: HintLevel, json: bool, out: &mut Out) -> Result<Found> {
    let (name, text) = input(Some(arg))?;
    let Some(&(line, first)) = lines(&text).first() else {
        bail!("{name}: no puzzle found");
    };
    let k = KillerPuzzle::parse(first, None).map_err(|e| anyhow::anyhow!("{name}:{line}: {e}"))?;
    let h = killer::hint(&k, &[]);
    if json {
        out.record(&h.record(&k, level))?;
    } else {
        out.text(&h.text(&k, level))?;
    }
    Ok(if h.found() { Found::Some } else { Found::None })
}

/// A line rated: its rating (none when not unique), or why it is no
/// puzzle.
type Rated = Result<Option<killer::KillerRating>, String>;

/// `rate --killer`: each puzzle's rating on the killer scale, on all
/// cores, in input order.
pub fn rate(arg: Option<&str>, threads: usize, json: bool, out: &mut Out) -> Result<Found> {
    let (name, text) = input(arg)?;
    let cancel = crate::interrupt::cancel_flag();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let results: Vec<(usize, Option<Rated>)> = pool.install(|| {
        lines(&text)
            .par_iter()
            .map(|&(line, l)| {
                if cancel.load(Ordering::Relaxed) {
                    return (line, None);
                }
                let r = KillerPuzzle::parse(l, None)
                    .map(|k| killer::rate_unique(&k))
                    .map_err(|e| e.to_string());
                (line, Some(r))
            })
            .collect()
    });
    let (mut unrated, mut stopped) = (0, false);
    for (line, r) in &results {
        match r {
            None => stopped = true,
            Some(Err(why)) => {
                unrated += 1;
                eprintln!("{name}:{line}: invalid killer puzzle: {why}");
                if json {
                    out.record(&InvalidPuzzle::new(*line, why.clone()))?;
                } else {
                    out.line(&format!("invalid: {why}"))?;
                }
            }
            Some(Ok(r)) => {
                if r.is_none() {
                    unrated += 1;
                    eprintln!("{name}:{line}: the puzzle has no unique solution; it is not rated");
                }
                if json {
                    out.record(&killer::rate_record(*line, r.as_ref()))?;
                } else {
                    out.line(&killer::rate_text(r.as_ref()))?;
                }
            }
        }
    }
    out.flush()?;
    if stopped {
        eprintln!(
            "interrupted: {} answered",
            plural(
                results.len() - results.iter().filter(|r| r.1.is_none()).count(),
                "puzzle",
                "puzzles"
            )
        );
        return Ok(Found::Interrupted);
    }
    // as plain ratings: a line not rated (invalid, or not unique) is exit 2
    Ok(if unrated > 0 {
        Found::Invalid
    } else {
        Found::Some
    })
}

/// The grids a killer of a level may try before giving up.
const KILLER_TRIES: u64 = 200;

/// `generate --killer`: `count` killers of `level` (medium unless told),
/// printed in order as lines or records.
pub fn generate(
    level: Option<Level>,
    size: usize,
    count: u64,
    seed: Option<u64>,
    threads: usize,
    json: bool,
    out: &mut Out,
) -> Result<Found> {
    let level = match level {
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
    let cancel = crate::interrupt::cancel_flag();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let start = Instant::now();
    let (mut made, mut missed) = (0u64, 0u64);
    // in blocks of a few per thread, printed as each block ends
    let mut i = 0;
    while i < count && !cancel.load(Ordering::Relaxed) {
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
                        KILLER_TRIES,
                        Some(&cancel),
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
    if cancel.load(Ordering::Relaxed) {
        eprintln!("interrupted: {made} of {count} made");
        return Ok(Found::Interrupted);
    }
    if missed > 0 {
        eprintln!(
            "{missed} not made: no grid of {KILLER_TRIES} tries gave a {} killer",
            level.name()
        );
        return Ok(Found::None);
    }
    Ok(Found::Some)
}
