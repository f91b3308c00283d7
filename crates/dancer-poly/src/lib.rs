//! # dancer-poly
//!
//! Polyform packing puzzles on the dancer exact cover engine, on every grid
//! puzzle designers use ([`grid`]: squares, cubes, triangles, hexagons, and
//! the edges of squares, hexagons and triangles): named pieces
//! ([`pieces`]), boards and the
//! puzzle file format ([`puzzle`]), the exact cover problem, symmetry and the
//! search ([`model`]), built-in puzzles ([`catalog`]), pictures
//! ([`render`]), how a burr puzzle's assembly comes apart, as BurrTools
//! takes it apart ([`disassembly`]), and what a front end's run decides
//! besides the search: the puzzle's source, the files it writes, what each solution prints as
//! ([`run`]), and the pictures of its solutions, numbered files and a
//! contact sheet ([`pictures`]).
//!
//! Coordinates everywhere (files, text, pictures, NDJSON) are those of the
//! puzzle's grid, `y` growing downwards: on squares `[x, y]` with the origin
//! at the top left cell, in a box `[x, y, z]` with `z` from the first
//! layer; see [`grid`] and [`puzzle`]. ([`geometry`] keeps the square and
//! cubic grids' symmetries for the tests' independent references;
//! [`disassembly`] takes BurrTools' voxel coordinates, as its files have
//! them.)
//!
//! ```
//! use dancer_poly::{catalog, model::{Model, Options}};
//! let m = Model::new(catalog::puzzle("pentomino-3x20").unwrap()).unwrap();
//! let counts = m.solve(&Options::default(), |_| true).unwrap();
//! assert_eq!((counts.total, counts.unique), (8, 2));
//! ```

pub mod burr;
pub mod catalog;
pub mod disassembly;
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
