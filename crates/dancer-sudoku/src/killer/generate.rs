//! Killer puzzles made to a level.
//!
//! A random complete grid is cut into cages of one cell each (a puzzle
//! that gives itself away). Neighbouring cages are then joined, in random
//! order, as long as the joined cage repeats no digit, stays within the
//! level's largest cage, and the puzzle is still solved to the end by the
//! techniques of the level ([`rate_up_to`]). Since every technique is
//! sound (none assumes a unique solution), a puzzle the steps solve has
//! exactly one solution; the tests count them with the exact cover
//! anyway. When no join is left the puzzle is rated: it is kept if its
//! level is the one asked for, else the next grid is tried.

use super::logic::{rate, rate_up_to, KillerLevel, KillerTechnique};
use super::{Cage, KillerPuzzle};
use crate::generate::random_solution;
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::rules::{cell_name, Rules};
use dancer_core::rng::{Draw, XorShift64Star};
use std::sync::atomic::{AtomicBool, Ordering};

/// A killer made by [`generate`], with its solution and rating.
#[derive(Clone, Debug)]
pub struct KillerGenerated {
    pub puzzle: KillerPuzzle,
    pub solution: Grid,
    /// Its rating on the killer scale ([`super::rate`]).
    pub rating: f64,
    pub level: KillerLevel,
    /// The grids tried before this one.
    pub tries: u64,
}

/// The hardest technique a level allows.
fn hardest(level: KillerLevel) -> KillerTechnique {
    match level {
        KillerLevel::Easy => KillerTechnique::CageCombinations,
        KillerLevel::Medium => KillerTechnique::InnieOutie,
        KillerLevel::Hard => KillerTechnique::CageSplitting,
        KillerLevel::Expert => KillerTechnique::Contradiction,
    }
}

/// The largest cage a level makes (on 9x9; scaled by the side).
fn largest(level: KillerLevel, n: usize) -> usize {
    let base = match level {
        KillerLevel::Easy => 3,
        KillerLevel::Medium => 4,
        KillerLevel::Hard => 5,
        KillerLevel::Expert => 6,
    };
    (base * n).div_ceil(9).clamp(2, n.max(2))
}

/// How many grids a front end lets [`generate`] try for one puzzle before
/// it says none was made: one bound for the command line and the web.
pub const TRIES: u64 = 200;

/// A killer puzzle of `level` under `rules`, from `seed`; `None` when
/// `cancel` is set first or `tries` grids gave none of the level
/// ([`TRIES`] is the front ends' choice).
pub fn generate(
    rules: &Rules,
    level: KillerLevel,
    seed: u64,
    tries: u64,
    cancel: Option<&AtomicBool>,
) -> Option<KillerGenerated> {
    let mut rng = XorShift64Star::new(seed);
    for t in 0..tries {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return None;
        }
        let solution = random_solution(rules, &mut rng);
        let Some(puzzle) = carve(rules, &solution, level, &mut rng, cancel) else {
            continue;
        };
        let r = rate_up_to(&puzzle, hardest(level));
        if r.solved && r.level == Some(level) {
            return Some(KillerGenerated {
                puzzle,
                solution,
                rating: r.rating,
                level,
                tries: t,
            });
        }
    }
    None
}

/// Joins cages of `solution` while the level's techniques still solve it.
fn carve(
    rules: &Rules,
    solution: &Grid,
    level: KillerLevel,
    rng: &mut XorShift64Star,
    cancel: Option<&AtomicBool>,
) -> Option<KillerPuzzle> {
    let n = rules.size();
    let most = largest(level, n);
    let mut owner: Vec<usize> = (0..n * n).collect();
    let mut cages: Vec<Vec<usize>> = (0..n * n).map(|c| vec![c]).collect();
    let mut pairs: Vec<(usize, usize)> = (0..n * n)
        .flat_map(|c| {
            let right = (c % n + 1 < n).then_some((c, c + 1));
            let down = (c / n + 1 < n).then_some((c, c + n));
            right.into_iter().chain(down)
        })
        .collect();
    rng.shuffle(&mut pairs);
    let mut best = make(rules, solution, &cages);
    loop {
        let mut joined = false;
        for &(a, b) in &pairs {
            if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                return None;
            }
            let (ka, kb) = (owner[a], owner[b]);
            if ka == kb || cages[ka].len() + cages[kb].len() > most {
                continue;
            }
            let digits = |k: usize| cages[k].iter().fold(0u32, |m, &c| m | 1 << solution.get(c));
            if digits(ka) & digits(kb) != 0 {
                continue;
            }
            let mut trial = cages.clone();
            let moved = std::mem::take(&mut trial[kb]);
            trial[ka].extend(moved);
            let p = make(rules, solution, &trial);
            let solved = match level {
                // the faster check first: what the hard steps solve is unique
                KillerLevel::Expert => {
                    rate_up_to(&p, KillerTechnique::CageSplitting).solved || rate(&p).solved
                }
                _ => rate_up_to(&p, hardest(level)).solved,
            };
            if solved {
                for &c in &trial[ka] {
                    owner[c] = ka;
                }
                cages = trial;
                best = p;
                joined = true;
            }
        }
        if !joined {
            return Some(best);
        }
    }
}

/// The puzzle of these cages (empty ones skipped) on `solution`, no
/// givens.
fn make(rules: &Rules, solution: &Grid, cages: &[Vec<usize>]) -> KillerPuzzle {
    let n = rules.size();
    let mut list: Vec<Cage> = cages
        .iter()
        .filter(|c| !c.is_empty())
        .map(|cells| {
            let mut cells = cells.clone();
            cells.sort_unstable();
            Cage {
                name: String::new(),
                sum: cells.iter().map(|&c| solution.get(c) as u32).sum(),
                cells,
            }
        })
        .collect();
    list.sort_by_key(|c| c.cells[0]);
    for (i, c) in list.iter_mut().enumerate() {
        c.name = cage_name(i).map_or_else(|| (i + 1).to_string(), String::from);
    }
    KillerPuzzle {
        puzzle: Puzzle {
            rules: rules.clone(),
            givens: Grid::empty(n),
        },
        cages: list,
    }
}

/// The map character of the `i`th cage: a-z, A-Z, 0-9.
fn cage_name(i: usize) -> Option<char> {
    const NAMES: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    NAMES.get(i).map(|&b| b as char)
}

impl KillerPuzzle {
    /// The puzzle as a line: `MAP SUMS [GIVENS]` when its cages fit in 62
    /// characters, else the JSON form. [`KillerPuzzle::parse`] reads
    /// either back to the same cages, sums and givens.
    pub fn to_line(&self) -> String {
        let n = self.size();
        let mut order: Vec<usize> = (0..self.cages.len()).collect();
        order.sort_by_key(|&i| self.cages[i].cells[0]);
        let givens = (self.puzzle.givens.filled() > 0).then(|| self.puzzle.givens.to_line());
        if self.cages.len() <= 62 {
            let mut map = vec!['.'; n * n];
            for (k, &i) in order.iter().enumerate() {
                let ch = cage_name(k).expect("at most 62 cages");
                for &c in &self.cages[i].cells {
                    map[c] = ch;
                }
            }
            let sums: Vec<String> = order
                .iter()
                .map(|&i| self.cages[i].sum.to_string())
                .collect();
            let mut line = format!("{} {}", map.iter().collect::<String>(), sums.join(","));
            if let Some(g) = givens {
                line.push(' ');
                line.push_str(&g);
            }
            return line;
        }
        let cages: Vec<serde_json::Value> = order
            .iter()
            .map(|&i| {
                let c = &self.cages[i];
                serde_json::json!({
                    "sum": c.sum,
                    "cells": c.cells.iter().map(|&x| cell_name(n, x)).collect::<Vec<_>>(),
                })
            })
            .collect();
        let mut v = serde_json::json!({ "size": n, "cages": cages });
        if let Some(g) = givens {
            v["givens"] = serde_json::Value::String(g);
        }
        v.to_string()
    }
}
