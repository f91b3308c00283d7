//! The triangular lattice's grids: triangles, hexagons, and the edges of
//! both.
//!
//! All four share one lattice: the point `P(x, y) = x e1 + y e2` where `e1`
//! is a unit step right and `e2` a unit step down and to the left (120
//! degrees from `e1`; `y` grows downwards as everywhere in the crate). In
//! that basis the turn by 60 degrees about `P(0, 0)` is the integer matrix
//! `(x, y) -> (x - y, x)` and the mirror swapping `e1` and `e2` is
//! `(x, y) -> (y, x)`: they generate the 12 symmetries (6 rotations) that
//! every grid here uses, on points chosen so that the origin is a centre
//! of 6-fold symmetry of the grid.
//!
//! ## Triangle: polyiamonds
//!
//! The lattice points are the triangles' corners. The rhombus with top
//! corners `P(x, y)`, `P(x + 1, y)` holds two triangles: `[x, y, 0]`, the
//! up-triangle `P(x, y) P(x, y + 1) P(x + 1, y + 1)`, and `[x, y, 1]`, the
//! down-triangle `P(x, y) P(x + 1, y) P(x + 1, y + 1)`. A row `y` reads
//! up, down, up, down as `x` grows, each row half a triangle left of the
//! one above. A translation adds to `x, y` and keeps the third coordinate,
//! so it maps up-triangles to up-triangles. The point of a triangle is its
//! centroid times 3: `[3x + 1, 3y + 2, 0]` up, `[3x + 2, 3y + 1, 0]` down.
//!
//! ```text
//!     P(0,0) ________ P(1,0)
//!          /\        /\
//!         /  \ 0,0,1/  \
//!        /    \    /    \
//!       /0,0,0 \  /1,0,0 \
//!      /________\/________\
//!   P(0,1)    P(1,1)     P(2,1)
//! ```
//!
//! An up-triangle `[x, y, 0]` borders the down-triangles `[x - 1, y, 1]`
//! (left), `[x, y, 1]` (right) and `[x, y + 1, 1]` (below).
//!
//! ## Hexagon: polyhexes
//!
//! Axial coordinates: the hexagon `[x, y, 0]` is centred on `P(x, y)`,
//! which is its point. Hexagons stand on a corner; a row `y` runs left to
//! right, each row half a hexagon left of the one above. The six
//! neighbours are `(x +- 1, y)` in the row, `(x - 1, y - 1)` above left,
//! `(x, y - 1)` above right, `(x, y + 1)` below left and `(x + 1, y + 1)`
//! below right.
//!
//! ```text
//!      / \ / \ / \
//!     |0,0|1,0|2,0|
//!    / \ / \ / \ /
//!   |0,1|1,1|2,1|
//!    \ / \ / \ /
//! ```
//!
//! ## Twig and Trig: polytwigs and polytrigs
//!
//! Both take as cells the segments between neighbouring lattice points:
//! `[x, y, k]` joins `P(x, y)` to `P(x, y) + v_k` with `v_0 = e1` (right),
//! `v_1 = e2` (down left), `v_2 = e1 + e2` (down right); its point is its
//! midpoint doubled, `[2x + 1, 2y, 0]`, `[2x, 2y + 1, 0]`, `[2x + 1,
//! 2y + 1, 0]`, so the kind is the parity.
//!
//! For [`Trig`](super::PolyGrid::Trig) the segment is itself an edge of the triangle grid; two
//! are neighbours when they share an endpoint (ten of them: five more at
//! each end). For [`Twig`](super::PolyGrid::Twig) the segment names the edge of the hexagonal grid
//! that crosses it, the side shared by hexagons `P(x, y)` and `P(x, y) +
//! v_k` (so twigs and [`Hexagon`](super::PolyGrid::Hexagon) agree on coordinates). A hexagonal
//! edge's endpoints are the centres of the two triangles beside the
//! segment, so two twigs are neighbours when their segments are sides of
//! one triangle (four of them).

use super::{generate, Cell, GridSymmetry, Point};

/// The 12 symmetries of the triangular lattice about `P(0, 0)`.
pub(super) fn hex_group() -> Vec<GridSymmetry> {
    generate(&[
        GridSymmetry::plane(1, -1, 1, 0),
        GridSymmetry::plane(0, 1, 1, 0),
    ])
}

/// The steps to a lattice point's six nearest neighbours.
const STEPS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)];

/// `v_0, v_1, v_2`: the segment directions.
const V: [(i32, i32); 3] = [(1, 0), (0, 1), (1, 1)];

/// A triangle's neighbours: the three triangles across its sides.
pub(super) fn triangle_neighbours(cell: Cell) -> Vec<Cell> {
    let [x, y, k] = cell;
    if k == 0 {
        vec![[x - 1, y, 1], [x, y, 1], [x, y + 1, 1]]
    } else {
        vec![[x, y, 0], [x + 1, y, 0], [x, y - 1, 0]]
    }
}

/// A triangle's point: its centroid times 3.
pub(super) fn triangle_point(cell: Cell) -> Point {
    let [x, y, k] = cell;
    match k {
        0 => [3 * x + 1, 3 * y + 2, 0],
        1 => [3 * x + 2, 3 * y + 1, 0],
        _ => [3 * x, 3 * y, k],
    }
}

/// The triangle whose point is `p`.
pub(super) fn triangle_at(p: Point) -> Option<Cell> {
    let [x, y, z] = p;
    let (qx, qy) = (x.div_euclid(3), y.div_euclid(3));
    match (x.rem_euclid(3), y.rem_euclid(3), z) {
        (1, 2, 0) => Some([qx, qy, 0]),
        (2, 1, 0) => Some([qx, qy, 1]),
        _ => None,
    }
}

/// A hexagon's six neighbours.
pub(super) fn hexagon_neighbours(cell: Cell) -> Vec<Cell> {
    let [x, y, k] = cell;
    STEPS.iter().map(|&(dx, dy)| [x + dx, y + dy, k]).collect()
}

/// The doubled midpoint of segment `[x, y, k]` (an impossible point for a
/// kind past 2).
pub(super) fn segment_point(cell: Cell) -> Point {
    let [x, y, k] = cell;
    match V.get(k as usize) {
        Some(&(dx, dy)) if k >= 0 => [2 * x + dx, 2 * y + dy, 0],
        _ => [2 * x, 2 * y, k],
    }
}

/// The segment whose doubled midpoint is `p`.
pub(super) fn segment_at(p: Point) -> Option<Cell> {
    let [x, y, z] = p;
    let k = match (x.rem_euclid(2), y.rem_euclid(2), z) {
        (1, 0, 0) => 0,
        (0, 1, 0) => 1,
        (1, 1, 0) => 2,
        _ => return None,
    };
    let (dx, dy) = V[k];
    Some([(x - dx) / 2, (y - dy) / 2, k as i32])
}

/// The six segments at lattice point `(x, y)`.
fn segments_at(x: i32, y: i32) -> impl Iterator<Item = Cell> {
    (0..3).flat_map(move |k| {
        let (dx, dy) = V[k as usize];
        [[x, y, k], [x - dx, y - dy, k]]
    })
}

/// A trig's neighbours: the segments sharing one of its endpoints.
pub(super) fn trig_neighbours(cell: Cell) -> Vec<Cell> {
    let [x, y, k] = cell;
    let (dx, dy) = V[k as usize];
    segments_at(x, y)
        .chain(segments_at(x + dx, y + dy))
        .filter(|&s| s != cell)
        .collect()
}

/// The three sides of up-triangle (`down` false) or down-triangle
/// `(x, y)`, as segments.
fn sides(x: i32, y: i32, down: bool) -> [Cell; 3] {
    if down {
        [[x, y, 0], [x, y, 2], [x + 1, y, 1]]
    } else {
        [[x, y, 1], [x, y, 2], [x, y + 1, 0]]
    }
}

/// The two triangles beside a segment.
fn beside(cell: Cell) -> [(i32, i32, bool); 2] {
    let [x, y, k] = cell;
    match k {
        0 => [(x, y, true), (x, y - 1, false)],
        1 => [(x, y, false), (x - 1, y, true)],
        _ => [(x, y, false), (x, y, true)],
    }
}

/// A twig's neighbours: the other sides of the two triangles beside its
/// segment.
pub(super) fn twig_neighbours(cell: Cell) -> Vec<Cell> {
    beside(cell)
        .iter()
        .flat_map(|&(x, y, down)| sides(x, y, down))
        .filter(|&s| s != cell)
        .collect()
}
