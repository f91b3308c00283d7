//! Polysticks, polytwigs and polytrigs, named as Polyform Puzzler names
//! them, and the conversion from its coordinates to ours.
//!
//! * stick: `monosticks` I1; `disticks` I2 V2; `tristicks` I3 L3 T3 Z3 U3;
//!   `tetrasticks` I L Y V T X U N J H F Z R W P O;
//! * twig: `monotwigs` I1; `ditwigs` L2; `tritwigs` Y3 S3 C3; `tetratwigs`
//!   Y4 W4 P4 C4; `pentatwigs` C5 H5 I5 L5 P5 R5 S5 T5 U5 W5 X5 Y5;
//! * trig: `monotrigs` I1; `ditrigs` I2 L2 V2; `tritrigs` C3 E3 I3 J3 L3 O3
//!   P3 S3 T3 U3 Y3 Z3.
//!
//! Each piece is drawn as Polyform Puzzler draws it, converted by
//! [`from_puzzler`], then moved so that the smallest `x` and `y` are 0.
//!
//! ## From Polyform Puzzler's coordinates
//!
//! Its `y` grows upwards, ours downwards; the shapes are the same on the
//! page. Its lattice point `(x, y)` of the triangular grid is `x` steps
//! right and `y` steps up at 60 degrees; ours `P(x, -y)` is the same point
//! (`P(x, y) = x e1 + y e2`, `e2` down and left: [`crate::grid::tri`]).
//! From that:
//!
//! * square `(x, y)`, cube `(x, y, z)`: the same coordinates (the layers of
//!   a solid as they come; a solid's mirror image is another piece only
//!   under rotations, and its sets hold both);
//! * triangle `(x, y, z)` -> `[x, -y - 1, z]`; hexagon `(x, y)` -> `[x,
//!   -y, 0]`;
//! * stick `(x, y, 0)`, from `(x, y)` to `(x + 1, y)` -> `[x, -y, 0]`;
//!   `(x, y, 1)`, up to `(x, y + 1)` -> `[x, -y - 1, 1]`;
//! * trig `(x, y, z)`, from point `(x, y)` at 0, 60, 120 degrees for `z` =
//!   0, 1, 2 -> `[x, -y, 0]`, `[x, -y - 1, 1]`, `[x - 1, -y - 1, 2]`;
//! * twig `(x, y, z)`: the edge of the hexagonal grid from the lower left
//!   corner of hexagon `(x, y)` at 0, 120, 240 degrees for `z` = 0, 1, 2.
//!   Its hexagons stand on a side, ours on a corner: the two are the same
//!   after a turn by 30 degrees clockwise, hexagon `(x, y)` ours `[x, -y]`.
//!   Turned, the corner is the hexagon's lower left corner and the edges
//!   leave it at -30, 90 and 210 degrees: the first is the hexagon's lower
//!   left side, shared with hexagon `(x, y - 1)`, the twig `[x, -y, 1]`
//!   crossing from `P(x, -y)` to `P(x, -y + 1)`; the second its left side,
//!   shared with hexagon `(x - 1, y)`, twig `[x - 1, -y, 0]`; the third
//!   the edge between hexagons `(x - 1, y)` and `(x, y - 1)`, twig `[x - 1,
//!   -y, 2]`. The three edges at a corner are the sides of one triangle
//!   of the lattice, as three twigs at a point must be (checked in the
//!   tests, with the three at the other end of each edge).

// The tables list one piece a line (`rustfmt::skip`: it would give each
// cell a line of its own).

use super::Shape;
use crate::geometry::Cell;
use crate::grid::PolyGrid;

/// A cell in Polyform Puzzler's coordinates (`[x, y]` padded with a 0 in
/// the plane, `[x, y, z]` for a kind or a layer) as a cell of ours on
/// `grid`: see the module documentation.
pub fn from_puzzler(grid: PolyGrid, cell: [i32; 3]) -> Cell {
    let [x, y, z] = cell;
    match grid {
        PolyGrid::Triangle => [x, -y - 1, z],
        PolyGrid::Hexagon => [x, -y, 0],
        PolyGrid::Stick if z == 1 => [x, -y - 1, 1],
        PolyGrid::Stick => [x, -y, z],
        PolyGrid::Trig => match z {
            0 => [x, -y, 0],
            1 => [x, -y - 1, 1],
            _ => [x - 1, -y - 1, z],
        },
        PolyGrid::Twig => match z {
            0 => [x, -y, 1],
            1 => [x - 1, -y, 0],
            _ => [x - 1, -y, z],
        },
        _ => cell,
    }
}

/// The monostick: one edge.
pub(super) fn monosticks() -> Vec<Shape> {
    super::shapes(PolyGrid::Stick, MONOSTICKS)
}

#[rustfmt::skip]
const MONOSTICKS: &[(&str, &[Cell])] = &[
    ("I1", &[[0, 0, 0]]),
];

/// The 2 disticks.
pub(super) fn disticks() -> Vec<Shape> {
    super::shapes(PolyGrid::Stick, DISTICKS)
}

#[rustfmt::skip]
const DISTICKS: &[(&str, &[Cell])] = &[
    ("I2", &[[0, 0, 0], [1, 0, 0]]),
    ("V2", &[[0, 0, 1], [0, 1, 0]]),
];

/// The 5 tristicks.
pub(super) fn tristicks() -> Vec<Shape> {
    super::shapes(PolyGrid::Stick, TRISTICKS)
}

#[rustfmt::skip]
const TRISTICKS: &[(&str, &[Cell])] = &[
    ("I3", &[[0, 0, 0], [1, 0, 0], [2, 0, 0]]),
    ("L3", &[[0, 1, 0], [1, 1, 0], [2, 0, 1]]),
    ("T3", &[[0, 1, 0], [1, 0, 1], [1, 1, 0]]),
    ("Z3", &[[0, 0, 0], [1, 0, 1], [1, 1, 0]]),
    ("U3", &[[0, 0, 1], [0, 1, 0], [1, 0, 1]]),
];

/// The 16 tetrasticks.
pub(super) fn tetrasticks() -> Vec<Shape> {
    super::shapes(PolyGrid::Stick, TETRASTICKS)
}

#[rustfmt::skip]
const TETRASTICKS: &[(&str, &[Cell])] = &[
    ("I", &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]]),
    ("L", &[[0, 1, 0], [1, 1, 0], [2, 1, 0], [3, 0, 1]]),
    ("Y", &[[0, 1, 0], [1, 1, 0], [2, 0, 1], [2, 1, 0]]),
    ("V", &[[0, 2, 0], [1, 2, 0], [2, 0, 1], [2, 1, 1]]),
    ("T", &[[0, 2, 0], [1, 0, 1], [1, 1, 1], [1, 2, 0]]),
    ("X", &[[0, 1, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1]]),
    ("U", &[[0, 0, 1], [0, 1, 0], [1, 1, 0], [2, 0, 1]]),
    ("N", &[[0, 1, 0], [1, 1, 0], [2, 0, 0], [2, 0, 1]]),
    ("J", &[[0, 1, 0], [1, 0, 0], [1, 1, 0], [2, 0, 1]]),
    ("H", &[[0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]]),
    ("F", &[[0, 0, 1], [0, 1, 0], [1, 0, 1], [1, 1, 0]]),
    ("Z", &[[0, 1, 0], [0, 1, 1], [1, 1, 0], [2, 0, 1]]),
    ("R", &[[0, 1, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]]),
    ("W", &[[0, 2, 0], [1, 1, 0], [1, 1, 1], [2, 0, 1]]),
    ("P", &[[0, 0, 0], [0, 0, 1], [1, 0, 1], [1, 1, 0]]),
    ("O", &[[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 1]]),
];

/// The monotwig: one edge.
pub(super) fn monotwigs() -> Vec<Shape> {
    super::shapes(PolyGrid::Twig, MONOTWIGS)
}

#[rustfmt::skip]
const MONOTWIGS: &[(&str, &[Cell])] = &[
    ("I1", &[[0, 0, 1]]),
];

/// The ditwig.
pub(super) fn ditwigs() -> Vec<Shape> {
    super::shapes(PolyGrid::Twig, DITWIGS)
}

#[rustfmt::skip]
const DITWIGS: &[(&str, &[Cell])] = &[
    ("L2", &[[0, 0, 0], [1, 0, 1]]),
];

/// The 3 tritwigs.
pub(super) fn tritwigs() -> Vec<Shape> {
    super::shapes(PolyGrid::Twig, TRITWIGS)
}

#[rustfmt::skip]
const TRITWIGS: &[(&str, &[Cell])] = &[
    ("Y3", &[[0, 0, 0], [0, 0, 2], [1, 0, 1]]),
    ("S3", &[[0, 0, 1], [0, 1, 0], [1, 1, 1]]),
    ("C3", &[[0, 0, 2], [0, 1, 0], [1, 1, 1]]),
];

/// The 4 tetratwigs.
pub(super) fn tetratwigs() -> Vec<Shape> {
    super::shapes(PolyGrid::Twig, TETRATWIGS)
}

#[rustfmt::skip]
const TETRATWIGS: &[(&str, &[Cell])] = &[
    ("Y4", &[[0, 0, 1], [0, 1, 0], [0, 1, 2], [1, 1, 1]]),
    ("W4", &[[0, 0, 0], [1, 0, 1], [1, 1, 0], [2, 1, 1]]),
    ("P4", &[[0, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 2]]),
    ("C4", &[[0, 0, 2], [0, 1, 0], [1, 1, 1], [1, 1, 2]]),
];

/// The 12 pentatwigs.
pub(super) fn pentatwigs() -> Vec<Shape> {
    super::shapes(PolyGrid::Twig, PENTATWIGS)
}

#[rustfmt::skip]
const PENTATWIGS: &[(&str, &[Cell])] = &[
    ("C5", &[[0, 0, 2], [0, 1, 0], [1, 1, 0], [1, 1, 1], [1, 1, 2]]),
    ("H5", &[[0, 0, 2], [0, 1, 0], [0, 1, 2], [1, 1, 1], [1, 2, 0]]),
    ("I5", &[[0, 0, 0], [1, 0, 1], [1, 1, 0], [2, 1, 1], [2, 2, 0]]),
    ("L5", &[[0, 0, 0], [0, 0, 2], [1, 0, 1], [1, 1, 0], [2, 1, 1]]),
    ("P5", &[[0, 0, 2], [0, 1, 0], [1, 0, 1], [1, 1, 0], [2, 1, 1]]),
    ("R5", &[[0, 0, 0], [0, 0, 2], [1, 0, 1], [1, 1, 0], [1, 1, 2]]),
    ("S5", &[[0, 0, 2], [1, 0, 1], [1, 1, 0], [2, 1, 1], [2, 1, 2]]),
    ("T5", &[[0, 0, 1], [0, 1, 0], [0, 1, 2], [1, 1, 1], [1, 2, 0]]),
    ("U5", &[[0, 0, 1], [0, 0, 2], [1, 0, 1], [1, 1, 0], [2, 1, 1]]),
    ("W5", &[[0, 0, 0], [1, 0, 1], [1, 1, 0], [2, 1, 1], [2, 1, 2]]),
    ("X5", &[[0, 0, 0], [0, 0, 2], [1, 0, 1], [1, 0, 2], [1, 1, 0]]),
    ("Y5", &[[0, 0, 0], [0, 0, 2], [0, 1, 0], [1, 0, 1], [1, 1, 0]]),
];

/// The monotrig: one edge.
pub(super) fn monotrigs() -> Vec<Shape> {
    super::shapes(PolyGrid::Trig, MONOTRIGS)
}

#[rustfmt::skip]
const MONOTRIGS: &[(&str, &[Cell])] = &[
    ("I1", &[[0, 0, 0]]),
];

/// The 3 ditrigs.
pub(super) fn ditrigs() -> Vec<Shape> {
    super::shapes(PolyGrid::Trig, DITRIGS)
}

#[rustfmt::skip]
const DITRIGS: &[(&str, &[Cell])] = &[
    ("I2", &[[0, 0, 0], [1, 0, 0]]),
    ("L2", &[[0, 1, 0], [1, 0, 1]]),
    ("V2", &[[0, 0, 2], [0, 1, 0]]),
];

/// The 12 tritrigs.
pub(super) fn tritrigs() -> Vec<Shape> {
    super::shapes(PolyGrid::Trig, TRITRIGS)
}

#[rustfmt::skip]
const TRITRIGS: &[(&str, &[Cell])] = &[
    ("C3", &[[0, 0, 2], [0, 2, 0], [1, 1, 1]]),
    ("E3", &[[0, 0, 2], [0, 1, 0], [1, 0, 1]]),
    ("I3", &[[0, 0, 0], [1, 0, 0], [2, 0, 0]]),
    ("J3", &[[0, 1, 0], [1, 0, 2], [1, 1, 0]]),
    ("L3", &[[0, 1, 0], [1, 1, 0], [2, 0, 1]]),
    ("O3", &[[0, 0, 1], [0, 0, 2], [0, 1, 0]]),
    ("P3", &[[0, 1, 0], [1, 0, 1], [1, 0, 2]]),
    ("S3", &[[0, 1, 0], [1, 0, 0], [1, 0, 1]]),
    ("T3", &[[0, 1, 0], [1, 0, 1], [1, 1, 0]]),
    ("U3", &[[0, 0, 0], [0, 1, 0], [1, 0, 1]]),
    ("Y3", &[[0, 1, 0], [1, 0, 1], [1, 1, 2]]),
    ("Z3", &[[0, 0, 0], [0, 0, 2], [0, 1, 0]]),
];
