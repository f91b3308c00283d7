//! # Killer Sudoku
//!
//! A killer Sudoku is a Sudoku whose grid is also cut into *cages*: groups
//! of cells whose digits add up to the cage's sum, no digit twice in a
//! cage. It often has no givens at all.
//!
//! ## The line format
//!
//! One puzzle a line, `MAP SUMS [GIVENS]`, separated by white space:
//!
//! * `MAP`: one character per cell in reading order (81 for 9x9), letters
//!   or digits; the cells of a cage share their character, and a cage's
//!   cells must be connected (side by side). A character may not stand
//!   for two cages. `.` marks a cell in no cage.
//! * `SUMS`: the cage sums, separated by commas, in the order in which
//!   the cages' first cells come in reading order.
//! * `GIVENS` (optional): the givens as a plain puzzle line (`.` or `0`
//!   for an empty cell).
//!
//! For example, a 4x4 killer: `aabbaabbccddccdd 10,10,10,10` (a cage per
//! box).
//!
//! The JSON form, a line too: `{"size":4,"cages":[{"sum":3,"cells":["r1c1",
//! "r1c2"]},...],"givens":"1..."}` (`size` 9 unless given or told by the
//! givens; `givens` optional; cells in no cage left out). Its cages are
//! named by their numbers from 1.
//!
//! ## Invariants
//!
//! A [`KillerPuzzle`] that [`KillerPuzzle::parse`] returns has: a grid
//! side the rules take; cages that partition the cells they cover, each
//! connected, of at most `size` cells, with a sum that `size`-distinct
//! digits can make; givens that break no Sudoku rule, repeat no digit in a
//! cage and leave each cage's sum reachable. [`check_solution`] checks an
//! answer against all of it, sharing no code with the solver.

mod cover;
pub(crate) mod error;
mod generate;
mod hint;
pub(crate) mod logic;

pub use cover::{
    combinations, count, placements, solve, solve_with, solve_within, to_exact_cover,
    to_exact_cover_with, KillerCover, KillerModel, KillerSolved, PLACED_MOST,
};
pub use error::KillerError;
pub use generate::{generate, KillerGenerated, TRIES};
pub(crate) use hint::step_hint;
pub use hint::{
    hint, hint_within, rate_record, rate_text, rate_unique, rate_unique_within, KillerHint,
};
pub use logic::{
    next_step, next_step_within, path, path_from, path_up_to, path_within, presolve, rate,
    rate_up_to, rate_within, rating_of, KillerBoard, KillerLevel, KillerRating, KillerStep,
    KillerTechnique, OUTSIDE,
};

use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::rules::{cell_name, Rules};

/// A cage: its cells (in reading order) and their sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cage {
    /// Its name: the character of the map that named it, or its number
    /// from 1 in the JSON form.
    pub name: String,
    pub cells: Vec<usize>,
    pub sum: u32,
}

/// A killer Sudoku: the Sudoku's rules and givens, and its cages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KillerPuzzle {
    pub puzzle: Puzzle,
    pub cages: Vec<Cage>,
}

/// Whether a command-line argument that is not a file is a killer puzzle
/// given as itself: a map of 16 letters, digits or `.` or more, then sums
/// (digits and commas), then maybe givens; or the JSON form.
pub fn is_killer_text(arg: &str) -> bool {
    if arg.trim_start().starts_with('{') {
        return true; // the JSON form
    }
    let f: Vec<&str> = arg.split_whitespace().collect();
    (2..=3).contains(&f.len())
        && f[0].chars().count() >= 16
        && f[0].chars().all(|c| c.is_ascii_alphanumeric() || c == '.')
        && f[1].chars().all(|c| c.is_ascii_digit() || c == ',')
}

/// The least and the most that `k` different digits from 1 to `n` add up
/// to.
pub fn sum_range(k: usize, n: usize) -> (u32, u32) {
    let (k, n) = (k as u32, n as u32);
    (k * (k + 1) / 2, k * (2 * n - k + 1) / 2)
}

impl KillerPuzzle {
    /// Reads a puzzle line, `MAP SUMS [GIVENS]`, under the standard rules
    /// of its size (square boxes, or 2x3 for 6x6 and so on), or under
    /// `rules` when given (a variant: diagonal, windoku, jigsaw).
    pub fn parse(line: &str, rules: Option<&Rules>) -> Result<KillerPuzzle, KillerError> {
        if line.trim_start().starts_with('{') {
            return Self::from_json(line, rules);
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if !(2..=3).contains(&fields.len()) {
            return Err(KillerError::Fields(fields.len()));
        }
        let map: Vec<char> = fields[0].chars().collect();
        let n = (map.len() as f64).sqrt().round() as usize;
        if n * n != map.len() || !(4..=16).contains(&n) {
            return Err(KillerError::MapLength { found: map.len() });
        }
        if rules.is_none() && !error::plain_sizes().contains(&n) {
            return Err(KillerError::NoBoxes {
                cells: map.len(),
                size: n,
            });
        }
        let cages = cages_of(&map, n)?;
        let sums: Vec<&str> = fields[1].split(',').collect();
        if sums.len() != cages.len() {
            return Err(KillerError::SumsCount {
                cages: cages.len(),
                sums: sums.len(),
            });
        }
        let mut summed = Vec::with_capacity(cages.len());
        for (i, ((name, cells), text)) in cages.into_iter().zip(sums).enumerate() {
            let sum: u32 = text.trim().parse().map_err(|_| KillerError::BadSum {
                index: i + 1,
                text: text.to_string(),
            })?;
            summed.push((name, cells, sum));
        }
        build(n, rules, summed, fields.get(2).copied())
    }

    /// Reads the JSON form of a puzzle, one object:
    /// `{"size":9,"cages":[{"sum":3,"cells":["r1c1","r1c2"]},...],"givens":"..."}`
    /// (`size`: 9 unless given, or the givens' size; `givens` optional).
    /// The cages are named by their numbers from 1, in the order given.
    pub fn from_json(text: &str, rules: Option<&Rules>) -> Result<KillerPuzzle, KillerError> {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct CageJson {
            sum: u32,
            cells: Vec<String>,
        }
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct KillerJson {
            size: Option<usize>,
            cages: Vec<CageJson>,
            givens: Option<String>,
        }
        let j: KillerJson =
            serde_json::from_str(text).map_err(|e| KillerError::Json(e.to_string()))?;
        let from_givens = j.givens.as_ref().map(|g| {
            let cells = g.trim().chars().count();
            (cells as f64).sqrt().round() as usize
        });
        let n = j
            .size
            .or(from_givens)
            .or(rules.map(Rules::size))
            .unwrap_or(9);
        if !(4..=16).contains(&n) {
            return Err(KillerError::Json(format!(
                "size {n}: killer puzzles are {}",
                error::sizes_words()
            )));
        }
        if rules.is_none() && !error::plain_sizes().contains(&n) {
            return Err(KillerError::Json(format!(
                "size {n}: a {n}x{n} grid has no boxes ({n} is a prime): killer puzzles are {}",
                error::sizes_words()
            )));
        }
        let mut owner = vec![0usize; n * n];
        let mut summed = Vec::with_capacity(j.cages.len());
        for (k, cage) in j.cages.into_iter().enumerate() {
            let name = (k + 1).to_string();
            let mut cells = Vec::with_capacity(cage.cells.len());
            for c in &cage.cells {
                let cell = parse_cell(c, n).ok_or_else(|| {
                    KillerError::Json(format!(
                        "cage {name}: {c:?} is not a cell of a {n}x{n} grid (r1c1 to r{n}c{n})"
                    ))
                })?;
                if owner[cell] != 0 {
                    return Err(KillerError::Json(format!(
                        "{c} is in cage {} and cage {name}",
                        owner[cell]
                    )));
                }
                owner[cell] = k + 1;
                cells.push(cell);
            }
            if cells.is_empty() {
                return Err(KillerError::Json(format!("cage {name} has no cells")));
            }
            cells.sort_unstable();
            check_cage(&name, &cells, n)?;
            summed.push((name, cells, cage.sum));
        }
        build(n, rules, summed, j.givens.as_deref())
    }

    /// The grid's side.
    pub fn size(&self) -> usize {
        self.puzzle.rules.size()
    }
}

/// A cell named `rRcC` (from 1) on an `n`x`n` grid.
fn parse_cell(name: &str, n: usize) -> Option<usize> {
    let (r, c) = name.trim().strip_prefix('r')?.split_once('c')?;
    let (r, c): (usize, usize) = (r.parse().ok()?, c.parse().ok()?);
    ((1..=n).contains(&r) && (1..=n).contains(&c)).then(|| (r - 1) * n + (c - 1))
}

/// A puzzle of side `n` from its cages (name, cells, sum) and givens,
/// under `rules` or the standard ones of the size: the sums checked, the
/// givens read and fitted to the cages.
fn build(
    n: usize,
    rules: Option<&Rules>,
    cages: Vec<(String, Vec<usize>, u32)>,
    givens: Option<&str>,
) -> Result<KillerPuzzle, KillerError> {
    let rules = match rules {
        Some(r) if r.size() == n => r.clone(),
        Some(r) => {
            return Err(KillerError::Rules(format!(
                "the cages are of a {n}x{n} grid, the rules of a {0}x{0} one",
                r.size()
            )))
        }
        None => Rules::standard(n).map_err(|e| KillerError::Rules(e.to_string()))?,
    };
    let mut out = Vec::with_capacity(cages.len());
    for (name, cells, sum) in cages {
        let (least, most) = sum_range(cells.len(), n);
        if sum < least || sum > most {
            return Err(KillerError::ImpossibleSum {
                name,
                first: cell_name(n, cells[0]),
                sum,
                cells: cells.len(),
                size: n,
                least,
                most,
            });
        }
        out.push(Cage { name, cells, sum });
    }
    let puzzle = match givens {
        None => Puzzle {
            rules,
            givens: Grid::empty(n),
        },
        Some(g) => {
            Puzzle::parse_line(g, Some(&rules)).map_err(|e| KillerError::Givens(e.to_string()))?
        }
    };
    for cage in &out {
        givens_fit(cage, &puzzle.givens, n)?;
    }
    Ok(KillerPuzzle { puzzle, cages: out })
}

/// The cages of a map: each character's cells, in the order of their
/// first cells, checked connected and small enough.
fn cages_of(map: &[char], n: usize) -> Result<Vec<(String, Vec<usize>)>, KillerError> {
    let mut order: Vec<char> = Vec::new();
    let mut cells: Vec<Vec<usize>> = Vec::new();
    for (c, &ch) in map.iter().enumerate() {
        if ch == '.' {
            continue;
        }
        if !ch.is_ascii_alphanumeric() {
            return Err(KillerError::BadCageName { ch, column: c + 1 });
        }
        match order.iter().position(|&o| o == ch) {
            Some(k) => cells[k].push(c),
            None => {
                order.push(ch);
                cells.push(vec![c]);
            }
        }
    }
    let named: Vec<(String, Vec<usize>)> = order.into_iter().map(String::from).zip(cells).collect();
    for (name, cage) in &named {
        check_cage(name, cage, n)?;
    }
    Ok(named)
}

/// A cage's cells are at most `n` and joined side by side.
fn check_cage(name: &str, cage: &[usize], n: usize) -> Result<(), KillerError> {
    {
        if cage.len() > n {
            return Err(KillerError::CageTooBig {
                name: name.into(),
                cells: cage.len(),
                size: n,
            });
        }
        // joined through the cage: flood from its first cell
        let mut seen = vec![cage[0]];
        let mut i = 0;
        while i < seen.len() {
            let c = seen[i];
            i += 1;
            for &d in cage.iter() {
                let near = (c / n == d / n && c.abs_diff(d) == 1) || c.abs_diff(d) == n;
                if near && !seen.contains(&d) {
                    seen.push(d);
                }
            }
        }
        if let Some(&lost) = cage.iter().find(|c| !seen.contains(c)) {
            return Err(KillerError::Disconnected {
                name: name.into(),
                a: cell_name(n, cage[0]),
                b: cell_name(n, lost),
            });
        }
    }
    Ok(())
}

/// The givens in `cage` repeat no digit and leave its sum reachable with
/// the cells left.
fn givens_fit(cage: &Cage, givens: &Grid, n: usize) -> Result<(), KillerError> {
    let mut used = 0u32;
    let mut total = 0u32;
    for &c in &cage.cells {
        let d = givens.get(c);
        if d == 0 {
            continue;
        }
        if used >> d & 1 == 1 {
            return Err(KillerError::GivenTwice {
                name: cage.name.clone(),
                digit: d,
            });
        }
        used |= 1 << d;
        total += u32::from(d);
    }
    // the least and the most the free cells can add, from the digits left
    let free: Vec<u32> = (1..=n as u32).filter(|d| used >> d & 1 == 0).collect();
    let k = cage.cells.len() - used.count_ones() as usize;
    let least: u32 = free.iter().take(k).sum();
    let most: u32 = free.iter().rev().take(k).sum();
    if total + least > cage.sum || total + most < cage.sum {
        return Err(KillerError::GivensPastSum {
            name: cage.name.clone(),
            first: cell_name(n, cage.cells[0]),
            sum: cage.sum,
        });
    }
    Ok(())
}

/// Checks an answer to a killer puzzle, sharing nothing with the solver:
/// the Sudoku's rules and givens ([`crate::check_solution`]), then every
/// cage: its sum, and no digit twice in it.
pub fn check_solution(k: &KillerPuzzle, solution: &Grid) -> Result<(), String> {
    crate::check_solution(&k.puzzle, solution)?;
    let n = k.size();
    for cage in &k.cages {
        let mut seen = 0u64;
        let mut sum = 0u32;
        for &c in &cage.cells {
            let d = solution.get(c);
            if seen >> d & 1 == 1 {
                return Err(format!(
                    "cage {:?} ({}) holds two {}s",
                    cage.name,
                    cell_name(n, cage.cells[0]),
                    d
                ));
            }
            seen |= 1 << d;
            sum += u32::from(d);
        }
        if sum != cage.sum {
            return Err(format!(
                "cage {:?} ({}) adds up to {sum}, not {}",
                cage.name,
                cell_name(n, cage.cells[0]),
                cage.sum
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
