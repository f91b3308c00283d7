//! # dancer-sudoku
//!
//! Sudoku of every size from 4x4 to 25x25, with square or rectangular boxes
//! or jigsaw regions, and the diagonal and windoku variants.
//!
//! The modules in `code` are private: what they offer is re-exported
//! here, at the crate's root.
//!
//! | module | what |
//! |---|---|
//! | [`rules`] | [`Rules`]: the size, the boxes or jigsaw regions, the diagonal and windoku variants |
//! | [`grid`] | [`Grid`]: the cells, parsing and printing |
//! | `puzzle` | [`Puzzle`]: a grid of givens under its rules, read one a line or over several lines ([`read_puzzles`]), checked; [`check_solution`], an independent check of any answer |
//! | [`cover`] | the reduction to exact cover, solved by dancing links |
//! | [`fast9`] | a bitboard solver for plain 9x9, the fastest path |
//! | [`propagate`] | a propagating solver for every size and variant (the engine called `logic` on the command line) |
//! | `solve` | [`Solver`]: one API over the three; [`solve()`] |
//! | [`batch`] | batches of puzzles as the command line runs them (the rules asked for, input sniffing: where an argument points, whether a text holds a puzzle; the run on threads in input order, with a progress callback; ratings and what they come to) |
//! | [`logic`] | the human-style solver: techniques, steps, ratings on the Sudoku Explainer scale, levels |
//! | [`hint`] | the next step in words |
//! | [`killer`] | killer Sudoku: cages and their sums, read a line at a time, as exact cover with colours, an independent check |
//! | [`generate`] | new puzzles with one solution, of a symmetry and level, made a block at a time on threads |
//! | [`play`] | a game in progress |
//! | [`records`] | the NDJSON records of all of these, and what a batch prints of each puzzle ([`records::BatchOutput`]: its record or its text) |
//! | [`canon`] | the canonical (minlex) form of a 9x9 grid, and its transform |
//!
//! Batches split into parts that run apart (part files, checked when read
//! back, merged in order) are `dancer-runs`'.
//!
//! ```
//! use dancer_sudoku::{Puzzle, solve, check_solution, Status};
//! let p = Puzzle::parse_line(
//!     "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
//!     None,
//! ).unwrap();
//! let s = solve(&p, 2);
//! assert_eq!(s.status(), Status::Unique);
//! check_solution(&p, &s.solutions[0]).unwrap();
//! ```

pub mod batch;
mod budget;
pub mod canon;
pub mod cover;
pub mod fast9;
pub mod gattai;
pub mod generate;
pub mod grid;
pub mod hint;
pub mod killer;
pub mod logic;
pub mod play;
pub mod propagate;
mod puzzle;
pub mod records;
pub mod rules;
mod solve;

pub use grid::Grid;
pub use puzzle::{check_solution, read_puzzles, Expected, Layout, Puzzle, PuzzleError, PuzzleLine};
pub use rules::{Regions, Rules, RulesError};
pub use solve::{solve, EngineMismatch, Grids, Solved, Solver, Status, SudokuEngine};
