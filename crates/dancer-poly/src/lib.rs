//! # dancer-poly
//!
//! Polyomino and polycube packing puzzles on the dancer exact cover engine:
//! pieces and their orientations ([`geometry`], [`pieces`]), boards and the
//! puzzle file format ([`puzzle`]), the exact cover problem, symmetry and the
//! search ([`model`]), built-in puzzles ([`catalog`]), pictures
//! ([`render`]), and what a front end's run decides besides the search:
//! the puzzle's source, the files it writes, what each solution prints as
//! ([`run`]), and the pictures of its solutions, numbered files and a
//! contact sheet ([`pictures`]).
//!
//! [`grid`] describes more grids than the square and cubic ones: triangles,
//! hexagons, and the edges of the square, hexagonal and triangular grids,
//! each with its symmetries, and enumerates the pieces on any of them (the
//! model does not use it yet).
//!
//! Coordinates everywhere (files, text, pictures, NDJSON) are `[x, y]` or
//! `[x, y, z]` with the origin at the top left cell, `y` growing downwards
//! and `z` from the first layer: see [`puzzle`].
//!
//! ```
//! use dancer_poly::{catalog, model::{Model, Options}};
//! let m = Model::new(catalog::puzzle("pentomino-3x20").unwrap()).unwrap();
//! let counts = m.solve(&Options::default(), |_| true).unwrap();
//! assert_eq!((counts.total, counts.unique), (8, 2));
//! ```

pub mod catalog;
pub mod geometry;
pub mod grid;
pub mod model;
pub mod pictures;
pub mod pieces;
pub mod puzzle;
pub mod render;
pub mod run;

pub use model::{Counts, Live, Model, Options};
pub use puzzle::{parse, Board, Copies, Piece, PolyError, PolyPuzzle};
