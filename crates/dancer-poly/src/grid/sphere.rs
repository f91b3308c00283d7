//! Packed spheres: the face-centred cubic lattice of ball-pyramid puzzles
//! (polyspheres), as BurrTools' sphere grid has it.
//!
//! ## Cells
//!
//! A cell `[x, y, z]` is the sphere centred on the point `(x, y, z)` of
//! `Z^3` with `x + y + z` even, spheres of diameter `sqrt 2`: each touches
//! the 12 spheres one step `(+-1, +-1, 0)` away in some order of the axes,
//! its neighbours. The even points are the face-centred cubic lattice: the
//! corners and the face centres of cubes of side 2. A cell is its own
//! point. Its lattice vectors are the even ones too, so a translation must
//! move by an even sum: [`PolyGrid::normalize`](super::PolyGrid::normalize)
//! puts a shape's least `y` and `z` at 0 and its least `x` at 0, or at 1
//! where 0 would take an odd step.
//!
//! ## Layers
//!
//! Layer `z` is a square grid of spheres turned by 45 degrees: in its
//! picture the character at column `x` of line `y` is the sphere `[x, y,
//! z]`, so a line has a sphere at every other column, each line and each
//! layer shifted by one from the last, and touching spheres of a layer
//! stand diagonally. A blank (space or `.`) where `x + y + z` is odd is
//! fine, anything else there an error. A sphere sits in the hollow of four
//! spheres of the layer below: `[1, 0, 1]` on `[0, 0, 0]`, `[2, 0, 0]`,
//! `[1, 1, 0]` and `[1, -1, 0]`. Three layers of a square pyramid (9 + 4 +
//! 1 spheres; `.` marks a place for a sphere, left empty):
//!
//! ```text
//!      x 01234     01234     01234
//!    y 0 . A .      . .      . . .
//!      1  B C      . J .      . .
//!      2 D E F      K L      . N .
//!      3  G H      . M .      . .
//!      4 . I .      . .      . . .
//!        z = 0     z = 1     z = 2
//! ```
//!
//! (`N` at `[2, 2, 2]` rests on `J K L M`, each of those on four of the
//! nine below.) That is how [`write_layers`] writes them.
//!
//! ## Symmetries
//!
//! The 48 signed permutations of the axes (24 rotations), about the sphere
//! at the origin: the cube's group, the whole point group of the lattice.
//! One thing more holds for spheres, whose every rotation is a symmetry of
//! the ball: a piece lying flat in a plane (its centres coplanar) may be
//! turned over in space, a half turn about a line of its plane. In the
//! square planes (`z` constant, say) that half turn is a rotation of the
//! lattice anyway; in the triangular planes (normal `(1, 1, 1)` and the
//! like) it is not, yet it takes the flat piece onto lattice points: the
//! piece's image under a reflection of the lattice, which a one-sided
//! rotation group would miss. So a flat piece moves by all 48 even when
//! one-sided ([`PolyGrid::group_of`](super::PolyGrid::group_of)), and a
//! piece that is not flat spans the lattice with its steps (any three
//! independent steps of length `sqrt 2` do: their determinant is even and
//! at most `2 sqrt 2` in size, so 2), which every rotation taking it to
//! lattice points must keep: a lattice rotation. (BurrTools lists 120
//! rotations for its sphere grid: the lattice's 24, and 96 with thirds in
//! their matrices, which take such flat pieces onto lattice points.)
//!
//! ## BurrTools
//!
//! A BurrTools sphere voxel `(x, y, z)` (a sphere when `x + y + z` is even)
//! is the sphere `[x, -y, z]` here: BurrTools' `y` grows upwards in its
//! grid editor, and its layer `z` seen there reads as the picture of layer
//! `z` here ([`from_burrtools`], [`to_burrtools`]). Turning `y` over is a
//! reflection, which changes no count; `-y` keeps the sum's parity, where
//! `height - 1 - y` would not for an even height.

use super::layers::{self, PictureError};
use super::Cell;

/// The 12 steps to a sphere's neighbours.
const STEPS: [[i32; 3]; 12] = [
    [1, 1, 0],
    [1, -1, 0],
    [-1, 1, 0],
    [-1, -1, 0],
    [1, 0, 1],
    [1, 0, -1],
    [-1, 0, 1],
    [-1, 0, -1],
    [0, 1, 1],
    [0, 1, -1],
    [0, -1, 1],
    [0, -1, -1],
];

/// Whether `[x, y, z]` is a sphere: its sum is even.
fn is_sphere(p: [i32; 3]) -> bool {
    (p[0] + p[1] + p[2]).rem_euclid(2) == 0
}

/// A sphere's 12 neighbours.
pub(super) fn neighbours(cell: Cell) -> Vec<Cell> {
    STEPS
        .iter()
        .map(|d| [cell[0] + d[0], cell[1] + d[1], cell[2] + d[2]])
        .collect()
}

/// The sphere centred on `p`, if any.
pub(super) fn sphere_at(p: [i32; 3]) -> Option<Cell> {
    is_sphere(p).then_some(p)
}

/// Whether the centres lie in one plane (fewer than four always do).
pub(super) fn is_flat(cells: &[Cell]) -> bool {
    let Some(&o) = cells.first() else {
        return true;
    };
    let d = |c: &Cell| [c[0] - o[0], c[1] - o[1], c[2] - o[2]];
    let cross = |a: [i32; 3], b: [i32; 3]| {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    };
    let normal = cells.iter().find_map(|a| {
        cells.iter().find_map(|b| {
            let n = cross(d(a), d(b));
            (n != [0, 0, 0]).then_some(n)
        })
    });
    let Some(n) = normal else {
        return true; // on a line
    };
    cells.iter().all(|c| {
        let v = d(c);
        n[0] * v[0] + n[1] * v[1] + n[2] * v[2] == 0
    })
}

/// The sphere of BurrTools voxel `(x, y, z)`, if it is one (see the module
/// documentation).
pub fn from_burrtools(v: [i32; 3]) -> Option<Cell> {
    sphere_at([v[0], -v[1], v[2]])
}

/// The BurrTools voxel of a sphere: the inverse of [`from_burrtools`].
pub fn to_burrtools(cell: Cell) -> [i32; 3] {
    [cell[0], -cell[1], cell[2]]
}

/// The spheres of layer `z`'s picture, each with its character (see the
/// module documentation); an error says where a character stands that is
/// no sphere.
pub fn read_layer(text: &str, z: i32) -> Result<Vec<(Cell, char)>, PictureError> {
    layers::read(
        text,
        z,
        sphere_at,
        "a sphere's column, line and layer add up to an even number",
    )
}

/// The pictures of the layers of labelled spheres, `z = 0` first, which
/// [`read_layer`] reads back as the spheres moved by [`layer_shift`] (by
/// nothing when no coordinate is negative). A label is any character but
/// a blank, a tab or a line break.
pub fn write_layers(cells: &[(Cell, char)]) -> Vec<String> {
    let by = layer_shift(cells.iter().map(|(c, _)| *c));
    let marks: Vec<(Cell, char)> = cells
        .iter()
        .map(|&(c, ch)| ([c[0] + by[0], c[1] + by[1], c[2] + by[2]], ch))
        .collect();
    layers::write(&marks, |p| if is_sphere(p) { '.' } else { ' ' })
}

/// The lattice vector [`write_layers`] moves spheres by: the least that
/// takes each coordinate to 0 or more, with an even sum.
pub fn layer_shift(cells: impl Iterator<Item = Cell>) -> [i32; 3] {
    let lo = cells.fold([0; 3], |m, c| [0, 1, 2].map(|k| m[k].min(c[k])));
    let mut by = lo.map(|v| -v);
    if (by[0] + by[1] + by[2]) % 2 != 0 {
        by[0] += 1;
    }
    by
}
