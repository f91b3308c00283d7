//! The square grid, its edges, and the cubic grid.
//!
//! ## Square: polyominoes
//!
//! A cell `[x, y, 0]` is the unit square with top left corner at `(x, y)`,
//! `y` growing downwards as everywhere in the crate. Its point is `[x, y,
//! 0]` itself (the symmetries turn about the centre of square `[0, 0, 0]`,
//! which is as good as any point: [`normalize`](super::PolyGrid::normalize) takes the
//! translation away). Neighbours share a side: four of them.
//!
//! ```text
//!        x=0   x=1   x=2
//!      +-----+-----+-----+
//! y=0  | 0,0 | 1,0 | 2,0 |
//!      +-----+-----+-----+
//! y=1  | 0,1 | 1,1 | 2,1 |
//!      +-----+-----+-----+
//! ```
//!
//! The symmetries are the 8 signed permutations of `x, y`: 4 rotations,
//! 4 reflections.
//!
//! ## Cube: polycubes
//!
//! A cell `[x, y, z]` is the unit cube at `(x, y, z)`, `z` the layer; six
//! neighbours, and the 48 signed permutations of the axes (24 rotations).
//!
//! ## Stick: polysticks
//!
//! A cell is a unit edge of the square grid: `[x, y, 0]` the horizontal
//! edge from corner `(x, y)` to `(x + 1, y)`, `[x, y, 1]` the vertical edge
//! from `(x, y)` down to `(x, y + 1)`. Its point is its midpoint doubled,
//! `[2x + 1, 2y, 0]` or `[2x, 2y + 1, 0]`, so the kind is the parity and
//! the symmetries turn about the corner `(0, 0)`: the same 8 matrices as
//! the square's. Two edges are neighbours when they share an endpoint: six
//! of them (three at each end).
//!
//! ```text
//!   (0,0)  [0,0,0]  (1,0)  [1,0,0]  (2,0)
//!     +-------------+-------------+
//!     |             |
//!  [0,0,1]       [1,0,1]
//!     |             |
//!     +-------------+
//!   (0,1)  [0,1,0]  (1,1)
//! ```

use super::{generate, Cell, GridSymmetry, Point};

/// The 8 symmetries of the square lattice about the origin, in the order
/// of [`signed_permutation_order`].
pub(super) fn square_group() -> Vec<GridSymmetry> {
    signed_permutation_order(generate(&[
        GridSymmetry::plane(0, -1, 1, 0),
        GridSymmetry::plane(0, 1, 1, 0),
    ]))
}

/// A group of signed permutation matrices listed identity first, rotations
/// before reflections, and within each part by the permutation of the axes
/// and then the signs: the order in which squares and cubes have always
/// been turned, which fixes the order of a piece's orientations, hence of
/// the options of the exact cover problem and of the solutions found.
fn signed_permutation_order(mut group: Vec<GridSymmetry>) -> Vec<GridSymmetry> {
    let key = |t: &GridSymmetry| {
        let mut perm = [0usize; 3];
        let mut sign = [0i32; 3];
        for (i, row) in t.m.iter().enumerate() {
            let j = row.iter().position(|&v| v != 0).unwrap_or(i);
            perm[i] = j;
            sign[i] = row[j];
        }
        (!t.is_rotation(), *t != GridSymmetry::IDENTITY, perm, sign)
    };
    group.sort_by_key(key);
    group
}

/// The cells one step away along `axes` of the lattice coordinates.
pub(super) fn steps(cell: Cell, axes: usize) -> Vec<Cell> {
    let mut out = Vec::with_capacity(2 * axes);
    for k in 0..axes {
        for d in [-1, 1] {
            let mut n = cell;
            n[k] += d;
            out.push(n);
        }
    }
    out
}

/// The 48 symmetries of the cubic lattice about the origin, in the order
/// of [`signed_permutation_order`].
pub(super) fn cube_group() -> Vec<GridSymmetry> {
    let quarter_z = GridSymmetry::plane(0, -1, 1, 0);
    let quarter_x = GridSymmetry {
        m: [[1, 0, 0], [0, 0, -1], [0, 1, 0]],
    };
    let mirror_x = GridSymmetry::plane(-1, 0, 0, 1);
    signed_permutation_order(generate(&[quarter_z, quarter_x, mirror_x]))
}

/// The edges meeting at corner `(x, y)`.
fn edges_at(x: i32, y: i32) -> [Cell; 4] {
    [[x, y, 0], [x - 1, y, 0], [x, y, 1], [x, y - 1, 1]]
}

/// The two endpoints of an edge.
fn ends(cell: Cell) -> [(i32, i32); 2] {
    let [x, y, k] = cell;
    if k == 0 {
        [(x, y), (x + 1, y)]
    } else {
        [(x, y), (x, y + 1)]
    }
}

/// A stick's neighbours: the edges sharing one of its endpoints.
pub(super) fn stick_neighbours(cell: Cell) -> Vec<Cell> {
    let ends = ends(cell);
    ends.iter()
        .flat_map(|&(x, y)| edges_at(x, y))
        .filter(|&e| e != cell)
        .collect()
}

/// A stick's point: its midpoint doubled.
pub(super) fn stick_point(cell: Cell) -> Point {
    let [x, y, k] = cell;
    match k {
        0 => [2 * x + 1, 2 * y, 0],
        1 => [2 * x, 2 * y + 1, 0],
        _ => [2 * x, 2 * y, k],
    }
}

/// The stick whose doubled midpoint is `p`.
pub(super) fn stick_at(p: Point) -> Option<Cell> {
    let [x, y, z] = p;
    match (x.rem_euclid(2), y.rem_euclid(2), z) {
        (1, 0, 0) => Some([(x - 1) / 2, y / 2, 0]),
        (0, 1, 0) => Some([x / 2, (y - 1) / 2, 1]),
        _ => None,
    }
}
