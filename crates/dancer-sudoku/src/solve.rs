//! One solving API over the engines.

use crate::fast9;
use crate::grid::Grid;
use crate::propagate::{PropagateStats, Propagator};
use crate::puzzle::Puzzle;
use crate::rules::Rules;
use std::fmt;
use std::str::FromStr;

/// Which engine solves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SudokuEngine {
    /// The fastest for the rules: `fast9` for plain 9x9, else `logic`.
    #[default]
    Auto,
    /// Bitboard solver for plain 9x9 only.
    Fast9,
    /// The propagating solver of [`crate::propagate`], for any rules.
    Logic,
    /// The exact cover reduction on the dancing-links engine.
    Dlx,
}

impl SudokuEngine {
    pub const ALL: &'static [SudokuEngine] = &[
        SudokuEngine::Auto,
        SudokuEngine::Fast9,
        SudokuEngine::Logic,
        SudokuEngine::Dlx,
    ];
    /// Every name [`FromStr`] takes.
    pub const NAMES: &'static [&'static str] = &["auto", "fast9", "logic", "dlx"];
    pub fn name(self) -> &'static str {
        match self {
            SudokuEngine::Auto => "auto",
            SudokuEngine::Fast9 => "fast9",
            SudokuEngine::Logic => "logic",
            SudokuEngine::Dlx => "dlx",
        }
    }
}

impl fmt::Display for SudokuEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SudokuEngine {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(SudokuEngine::Auto),
            "fast9" => Ok(SudokuEngine::Fast9),
            "logic" => Ok(SudokuEngine::Logic),
            "dlx" => Ok(SudokuEngine::Dlx),
            _ => Err(format!(
                "unknown engine {s:?} (known: auto, fast9, logic, dlx)"
            )),
        }
    }
}

/// The solutions kept of a puzzle.
pub type Grids = smallvec::SmallVec<[Grid; 2]>;

/// How many solutions a puzzle has, as far as it was counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Solutions found, at most the limit.
    pub count: u64,
    /// The first solutions found (as many as asked to keep): two in place
    /// (a batch keeps at most two of each puzzle, and the allocation was a
    /// tenth of its time beside the solver's), more on the heap.
    pub solutions: Grids,
    /// Search effort: guesses for fast9 and logic, nodes for dlx.
    pub effort: u64,
}

/// The verdict on a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    None,
    Unique,
    Multiple,
}

impl Solved {
    pub fn status(&self) -> Status {
        match self.count {
            0 => Status::None,
            1 => Status::Unique,
            _ => Status::Multiple,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::None => "none",
            Status::Unique => "unique",
            Status::Multiple => "multiple",
        })
    }
}

/// Solves puzzles of one set of rules; build once, share across threads.
pub struct Solver {
    rules: Rules,
    engine: SudokuEngine,
    propagator: Option<Propagator>,
}

/// The engine cannot handle these rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("engine fast9 solves plain 9x9 Sudoku only, not {0}")]
pub struct EngineMismatch(pub String);

impl Solver {
    pub fn new(rules: &Rules, engine: SudokuEngine) -> Result<Self, EngineMismatch> {
        let engine = match engine {
            SudokuEngine::Auto if rules.is_standard_9x9() => SudokuEngine::Fast9,
            SudokuEngine::Auto => SudokuEngine::Logic,
            SudokuEngine::Fast9 if !rules.is_standard_9x9() => {
                return Err(EngineMismatch(rules.describe()))
            }
            e => e,
        };
        Ok(Solver {
            rules: rules.clone(),
            engine,
            propagator: (engine == SudokuEngine::Logic).then(|| Propagator::new(rules)),
        })
    }

    /// The engine that actually runs.
    pub fn engine(&self) -> SudokuEngine {
        self.engine
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Counts the solutions of `givens` up to `limit`, keeping the first `keep`.
    pub fn solve(&self, givens: &Grid, limit: u64, keep: usize) -> Solved {
        self.solve_cancellable(givens, limit, keep, None).0
    }

    /// [`solve`](Self::solve), stopped when `cancel` is set (every engine
    /// looks at it now and then: a count of many solutions, or a long
    /// search, ends soon after): `true` then, and the count is only a
    /// lower bound.
    pub fn solve_cancellable(
        &self,
        givens: &Grid,
        limit: u64,
        keep: usize,
        cancel: Option<&std::sync::Arc<std::sync::atomic::AtomicBool>>,
    ) -> (Solved, bool) {
        match self.engine {
            SudokuEngine::Fast9 => {
                let cells: [u8; 81] = givens.cells().try_into().expect("9x9");
                let mut buf = vec![[0u8; 81]; keep.min(limit as usize)];
                let mut st = fast9::Fast9Stats::default();
                let count = fast9::solve_cancellable(
                    &cells,
                    limit,
                    &mut buf,
                    &mut st,
                    cancel.map(|c| &**c),
                );
                buf.truncate(count.min(buf.len() as u64) as usize);
                let solved = Solved {
                    count,
                    solutions: buf
                        .into_iter()
                        .map(|c| Grid::from_cells(9, c.to_vec()))
                        .collect(),
                    effort: st.guesses,
                };
                (solved, st.cancelled)
            }
            SudokuEngine::Logic => {
                let mut st = PropagateStats::default();
                let g = self.propagator.as_ref().expect("built for logic");
                let (count, solutions) =
                    g.solve_cancellable(givens, limit, keep, &mut st, cancel.map(|c| &**c));
                let solved = Solved {
                    count,
                    solutions: Grids::from_vec(solutions),
                    effort: st.guesses,
                };
                (solved, st.cancelled)
            }
            SudokuEngine::Dlx => {
                let p = Puzzle {
                    rules: self.rules.clone(),
                    givens: givens.clone(),
                };
                let (count, solutions, nodes, cancelled) =
                    crate::cover::solve_dlx_cancellable(&p, limit, keep, cancel);
                let solved = Solved {
                    count,
                    solutions: Grids::from_vec(solutions),
                    effort: nodes,
                };
                (solved, cancelled)
            }
            SudokuEngine::Auto => unreachable!("resolved in new"),
        }
    }
}

/// Solves one puzzle with the default engine: up to `limit` solutions, the
/// first two kept.
pub fn solve(puzzle: &Puzzle, limit: u64) -> Solved {
    Solver::new(&puzzle.rules, SudokuEngine::Auto)
        .expect("auto fits every rule")
        .solve(&puzzle.givens, limit, 2)
}
