//! Triangular prisms: layers of the triangle grid stacked (polyprisms),
//! BurrTools' prism grid.
//!
//! ## Cells
//!
//! Every layer `z` is a copy of the triangle grid of [`super::tri`], one
//! unit high: the prism over triangle `[x, y, k]` in layer `z` (`k = 0` up,
//! `1` down) is the cell `[x, y, 2z + k]`. A cell has four numbers, the
//! triangle's three and the layer, and `[i32; 3]` room for three; the
//! triangle's `x` and `y` are lattice coordinates, so the layer goes with
//! the kind, which takes one bit. Hence layer 0 holds exactly the cells of
//! the triangle grid, a polyiamond is a flat polyprism as it stands, and a
//! cell's layer and kind are `w div 2` and `w mod 2` of its third
//! coordinate `w` ([`site_and_kind`]). The lattice is three-dimensional
//! ([`PolyGrid::lattice_dim`](super::PolyGrid::lattice_dim) 3): a
//! translation by `[dx, dy, dz]` takes `[x, y, w]` to `[x + dx, y + dy, w +
//! 2 dz]`, and two cells are translates when their `w` have one parity.
//!
//! A prism has five neighbours: the three triangles beside it in its layer
//! (across a square side) and the prisms above and below (across a
//! triangle), `w + 2` and `w - 2`. Its point is its triangle's (the
//! centroid times 3) with the layer as third coordinate.
//!
//! ## Layer pictures
//!
//! A layer is drawn as a triangle picture: the character at column `c` of
//! line `y` is the triangle `[x, y, k]` with `2x + k = c + y`, an up-triangle
//! where `c + y` is even, so that a line reads up, down, up, ... from its
//! first column or down, up, ... and the character under an up-triangle is
//! the down-triangle across its base. Every position is a triangle. The
//! hexagon of six triangles about `P(1, 1)` of [`super::tri`] in layer 0:
//!
//! ```text
//!   picture     the cells                  drawn
//!                                           ________
//!    ABC        A [0, 0, 0]  B [0, 0, 1]     /\      /\
//!    DEF        C [1, 0, 0]  D [0, 1, 1]    /  \  B /  \
//!               E [1, 1, 0]  F [1, 1, 1]   /  A \  /  C \
//!                                         /______\/______\
//!                                         \      /\      /
//!                                          \  D /  \  F /
//!                                           \  /  E \  /
//!                                            \/______\/
//! ```
//!
//! The same six one layer up are `[x, y, w + 2]`, the picture of layer 1.
//!
//! ## Symmetries
//!
//! The 24 symmetries of the stack: the triangle grid's 12 about the lattice
//! point `P(0, 0)` (6 turns by 60 degrees, 6 mirrors), each keeping the
//! layers or turning them over (`z` to `-z`, about the middle of layer 0).
//! The 12 rotations are the 6 turns keeping the layers and the 6 mirrors
//! turning them over (a half turn about a horizontal line).
//!
//! ## BurrTools
//!
//! BurrTools numbers the triangles of a row one by one: voxel `(x, y, z)`
//! is the prism in row `y` (growing upwards in its grid editor), `x`
//! half-triangles from the left, pointing up when `x + y` is even. That is
//! the character at column `x` of line `-y` of layer `z` in the pictures
//! here: prism `[X, -y, 2z + k]` with `k = (x + y) mod 2` and `2X + k = x -
//! y` ([`from_burrtools`], [`to_burrtools`]). Its centre is the same, up to
//! a translation and turning `y` over (a reflection, which changes no
//! count). A BurrTools box of height `h` can take line `h - 1 - y` instead
//! of `-y`: that is the lattice translation by `h - 1` lines, `X` staying.

use super::layers::{self, PictureError};
use super::tri::{hex_group, triangle_at, triangle_neighbours, triangle_point};
use super::{generate, Cell, GridSymmetry, Point};

/// A cell's lattice coordinates `[x, y, z]` and kind (0 up, 1 down).
pub fn site_and_kind(cell: Cell) -> ([i32; 3], i32) {
    let [x, y, w] = cell;
    ([x, y, w.div_euclid(2)], w.rem_euclid(2))
}

/// The prism over triangle `[x, y, k]` in layer `z`.
pub fn prism(triangle: Cell, z: i32) -> Cell {
    [triangle[0], triangle[1], 2 * z + triangle[2]]
}

/// A prism's triangle and layer: the inverse of [`prism`].
pub fn triangle_and_layer(cell: Cell) -> (Cell, i32) {
    let ([x, y, z], k) = site_and_kind(cell);
    ([x, y, k], z)
}

pub(super) fn site(cell: Cell) -> [i32; 3] {
    site_and_kind(cell).0
}

/// `cell` moved by the lattice vector `by` (`by[2]` layers).
pub(super) fn translate(cell: Cell, by: [i32; 3]) -> Cell {
    [cell[0] + by[0], cell[1] + by[1], cell[2] + 2 * by[2]]
}

/// The 24 symmetries: the triangle grid's, with and without `z -> -z`.
pub(super) fn prism_group() -> Vec<GridSymmetry> {
    let mut gens = hex_group();
    gens.push(GridSymmetry {
        m: [[1, 0, 0], [0, 1, 0], [0, 0, -1]],
    });
    generate(&gens)
}

/// A prism's five neighbours: three in its layer, one above, one below.
pub(super) fn neighbours(cell: Cell) -> Vec<Cell> {
    let (t, z) = triangle_and_layer(cell);
    let mut out: Vec<Cell> = triangle_neighbours(t)
        .into_iter()
        .map(|n| prism(n, z))
        .collect();
    out.extend([translate(cell, [0, 0, -1]), translate(cell, [0, 0, 1])]);
    out
}

/// A prism's point: its triangle's, with the layer.
pub(super) fn point(cell: Cell) -> Point {
    let (t, z) = triangle_and_layer(cell);
    let [px, py, _] = triangle_point(t);
    [px, py, z]
}

/// The prism whose point is `p`.
pub(super) fn prism_at(p: Point) -> Option<Cell> {
    triangle_at([p[0], p[1], 0]).map(|t| prism(t, p[2]))
}

/// The prism of BurrTools voxel `(x, y, z)` (see the module documentation).
pub fn from_burrtools(v: [i32; 3]) -> Cell {
    let [x, y, z] = v;
    at_position([x, -y, z])
}

/// The BurrTools voxel of a prism: the inverse of [`from_burrtools`].
pub fn to_burrtools(cell: Cell) -> [i32; 3] {
    let [c, y, z] = position(cell);
    [c, -y, z]
}

/// The prism at column `c` of line `y` of layer `z`'s picture.
fn at_position(p: [i32; 3]) -> Cell {
    let [c, y, z] = p;
    let s = c + y;
    prism([s.div_euclid(2), y, s.rem_euclid(2)], z)
}

/// Where a prism stands in the pictures: `[column, line, layer]`.
fn position(cell: Cell) -> [i32; 3] {
    let ([x, y, z], k) = site_and_kind(cell);
    [2 * x + k - y, y, z]
}

/// The prisms of layer `z`'s picture, each with its character (see the
/// module documentation); an error says where a tab stands.
pub fn read_layer(text: &str, z: i32) -> Result<Vec<(Cell, char)>, PictureError> {
    layers::read(text, z, |p| Some(at_position(p)), "")
}

/// The pictures of the layers of labelled prisms, `z = 0` first, which
/// [`read_layer`] reads back as the prisms moved by [`layer_shift`] (by
/// nothing when no column, line or layer is negative). A label is any
/// character but a blank, a tab or a line break.
pub fn write_layers(cells: &[(Cell, char)]) -> Vec<String> {
    let by = layer_shift(cells.iter().map(|(c, _)| *c));
    let marks: Vec<([i32; 3], char)> = cells
        .iter()
        .map(|&(c, ch)| (position(translate(c, by)), ch))
        .collect();
    layers::write(&marks, |_| '.')
}

/// The lattice vector [`write_layers`] moves prisms by: the least that
/// takes every layer, line and column to 0 or more.
pub fn layer_shift(cells: impl Iterator<Item = Cell> + Clone) -> [i32; 3] {
    let lo = |f: &dyn Fn(Cell) -> i32| cells.clone().map(f).min().unwrap_or(0).min(0);
    let (dy, dz) = (-lo(&|c| c[1]), -lo(&|c| site(c)[2]));
    // moving down a line moves a column left; one x is two columns
    let dc = -lo(&|c| position(c)[0] - dy);
    [(dc + 1) / 2, dy, dz]
}
