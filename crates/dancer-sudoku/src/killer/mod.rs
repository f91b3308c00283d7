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
//! For example, a 4x4 killer: `aabbcdbbcdeeffee 3,12,7,4,8,6` (the boxes
//! are 2x2).
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

pub use cover::{combinations, count, solve, to_exact_cover, KillerCover, KillerSolved};

use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::rules::{cell_name, Rules};

/// A cage: its cells (in reading order) and their sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cage {
    /// The character of the map that named it.
    pub name: char,
    pub cells: Vec<usize>,
    pub sum: u32,
}

/// A killer Sudoku: the Sudoku's rules and givens, and its cages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KillerPuzzle {
    pub puzzle: Puzzle,
    pub cages: Vec<Cage>,
}

/// What is wrong with a killer puzzle's line. Columns are 1-based
/// characters of the line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KillerError {
    #[error("a killer puzzle is MAP SUMS [GIVENS]; this line has {0} fields")]
    Fields(usize),
    #[error(
        "the map has {found} cells: a square grid of a size from 4 to 16 has 16, 36, 81, 144, ..."
    )]
    MapLength { found: usize },
    #[error("map column {column}: {ch:?} cannot name a cage (letters and digits, or . for none)")]
    BadCageName { ch: char, column: usize },
    #[error("cage {name:?} is in two pieces ({a} and {b} are not joined through the cage)")]
    Disconnected { name: char, a: String, b: String },
    #[error("cage {name:?} has {cells} cells: at most {size} fit without a digit twice")]
    CageTooBig {
        name: char,
        cells: usize,
        size: usize,
    },
    #[error("the map has {cages} cages but {sums} sums are given")]
    SumsCount { cages: usize, sums: usize },
    #[error("sum {index} ({text:?}) is not a whole number")]
    BadSum { index: usize, text: String },
    #[error("cage {name:?} ({first}) has sum {sum}, which {cells} different digits from 1 to {size} cannot make (from {least} to {most})")]
    ImpossibleSum {
        name: char,
        first: String,
        sum: u32,
        cells: usize,
        size: usize,
        least: u32,
        most: u32,
    },
    #[error("the givens: {0}")]
    Givens(String),
    #[error("cage {name:?} holds two {digit}s among its givens")]
    GivenTwice { name: char, digit: u8 },
    #[error("cage {name:?} ({first}): its givens cannot be completed to its sum {sum}")]
    GivensPastSum { name: char, first: String, sum: u32 },
    #[error("{0}")]
    Rules(String),
}

/// Whether a command-line argument that is not a file is a killer puzzle
/// given as itself: a map of 16 letters, digits or `.` or more, then sums
/// (digits and commas), then maybe givens.
pub fn is_killer_text(arg: &str) -> bool {
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
        let fields: Vec<&str> = line.split_whitespace().collect();
        if !(2..=3).contains(&fields.len()) {
            return Err(KillerError::Fields(fields.len()));
        }
        let map: Vec<char> = fields[0].chars().collect();
        let n = (map.len() as f64).sqrt().round() as usize;
        if n * n != map.len() || !(4..=16).contains(&n) {
            return Err(KillerError::MapLength { found: map.len() });
        }
        let rules = match rules {
            Some(r) if r.size() == n => r.clone(),
            Some(r) => {
                return Err(KillerError::Rules(format!(
                    "the map is of a {n}x{n} grid, the rules of a {0}x{0} one",
                    r.size()
                )))
            }
            None => Rules::standard(n).map_err(|e| KillerError::Rules(e.to_string()))?,
        };
        let cages = cages_of(&map, n)?;
        let sums: Vec<&str> = fields[1].split(',').collect();
        if sums.len() != cages.len() {
            return Err(KillerError::SumsCount {
                cages: cages.len(),
                sums: sums.len(),
            });
        }
        let mut out = Vec::with_capacity(cages.len());
        for (i, ((name, cells), text)) in cages.into_iter().zip(sums).enumerate() {
            let sum: u32 = text.trim().parse().map_err(|_| KillerError::BadSum {
                index: i + 1,
                text: text.to_string(),
            })?;
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
        let puzzle = match fields.get(2) {
            None => Puzzle {
                rules,
                givens: Grid::empty(n),
            },
            Some(g) => Puzzle::parse_line(g, Some(&rules))
                .map_err(|e| KillerError::Givens(e.to_string()))?,
        };
        for cage in &out {
            givens_fit(cage, &puzzle.givens, n)?;
        }
        Ok(KillerPuzzle { puzzle, cages: out })
    }

    /// The grid's side.
    pub fn size(&self) -> usize {
        self.puzzle.rules.size()
    }
}

/// The cages of a map: each character's cells, in the order of their
/// first cells, checked connected and small enough.
fn cages_of(map: &[char], n: usize) -> Result<Vec<(char, Vec<usize>)>, KillerError> {
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
    for (&name, cage) in order.iter().zip(&cells) {
        if cage.len() > n {
            return Err(KillerError::CageTooBig {
                name,
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
            for &d in cage {
                let near = (c / n == d / n && c.abs_diff(d) == 1) || c.abs_diff(d) == n;
                if near && !seen.contains(&d) {
                    seen.push(d);
                }
            }
        }
        if let Some(&lost) = cage.iter().find(|c| !seen.contains(c)) {
            return Err(KillerError::Disconnected {
                name,
                a: cell_name(n, cage[0]),
                b: cell_name(n, lost),
            });
        }
    }
    Ok(order.into_iter().zip(cells).collect())
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
                name: cage.name,
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
            name: cage.name,
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
