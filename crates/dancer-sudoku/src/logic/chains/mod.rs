//! Alternating chains on candidates, as Sudoku Explainer's first chaining
//! producer ("Forcing Chains & Cycles") finds and rates them: X-cycles and
//! forcing X-chains (one digit), Y-cycles (strong links in bivalue cells),
//! and cycles (continuous nice loops) and forcing chains (AICs) with links
//! of both kinds; see [`chain_producer`] and the notes above [`Kind`].
//!
//! A *candidate* is `cell * 9 + digit - 1` (0..729); a *node* is a candidate
//! assumed on or off: `candidate * 2 + on`. A weak link lets "on" imply
//! "off" (two candidates of a cell, or one digit in two cells of a unit); a
//! strong link lets "off" imply "on" (a bivalue cell, or a unit with two
//! places for a digit). A chain that starts from a candidate on and reaches
//! the same candidate off proves it false (and off to on proves it true); a
//! loop back to its start holds both ways. The searches run breadth first,
//! all starts together a layer at a time on candidate bitsets; the rating
//! grows with the number of nodes, as in SE.

mod cycles;
mod net;

pub use cycles::{aic, continuous_loop, x_chain, x_cycle, xy_chain, y_cycle};
pub(crate) use cycles::{chain_producer, se_difficulty, se_next};
pub(crate) use net::*;
