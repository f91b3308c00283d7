//! # dancer-sudoku
//!
//! Sudoku of every size from 4x4 to 25x25, with square or rectangular boxes
//! or jigsaw regions, and the diagonal and windoku variants.
//!
//! * [`Rules`], [`Grid`] and [`Puzzle`]: the model, parsing (one puzzle per
//!   line, or grids over several lines) and printing;
//! * [`cover`]: the reduction to exact cover, solved by dancing links;
//! * [`fast9`]: a bitboard solver for plain 9x9, the fastest path;
//! * [`generic`]: a propagating solver for every size and variant;
//! * [`Solver`]: one API over the three, and [`check_solution`], an
//!   independent check of any answer.
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

pub mod cover;
pub mod fast9;
pub mod generate;
pub mod generic;
pub mod grid;
pub mod logic;
pub mod play;
pub mod puzzle;
pub mod rules;
pub mod solve;

pub use grid::Grid;
pub use puzzle::{check_solution, read_puzzles, Entry, Layout, Puzzle, PuzzleError};
pub use rules::{Regions, Rules, RulesError};
pub use solve::{solve, Engine, EngineMismatch, Solved, Solver, Status};
