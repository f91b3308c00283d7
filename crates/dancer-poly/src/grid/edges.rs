//! The edge grids' boards and crossings.
//!
//! An edge grid ([`PolyGrid::Stick`], [`PolyGrid::Twig`], [`PolyGrid::Trig`])
//! has the edges of a grid of faces as its cells: the squares, the hexagons
//! and the triangles. A board is most easily given as a region of faces: it
//! is then every edge of those faces ([`edges_of`]), or only the edges
//! inside the region, its outline left out.
//!
//! ## Crossings
//!
//! Two pieces on an edge grid may share a point without sharing an edge,
//! and then either touch (their paths through the point stay on their own
//! sides) or cross. A classic puzzle forbids crossing, and Knuth's way of
//! saying so in exact cover is a secondary item: every place where a
//! crossing could happen is an item that each piece passing there in the
//! way that could be crossed covers, so that two of them never do.
//!
//! * On the square grid a piece can only be crossed where it goes straight
//!   through a point (left and right, or up and down): then the other piece
//!   would have to go straight through the other way. One item per point,
//!   covered by every piece that goes straight through it. Pieces may touch
//!   at a point with two bends (an L against a turned L) or a T.
//! * On the triangular grid six edges meet at a point, in directions
//!   `0..6` counterclockwise. Two paths through a point cross when their
//!   legs interleave around it. One item per point and direction: a piece
//!   with legs `a` and `b` at a point two directions apart (120 degrees)
//!   covers the three directions from `a` to `b` the short way, three apart
//!   (straight through) the four from the smaller to the larger; legs one
//!   apart (60 degrees) cover nothing. Two paths then share an item exactly
//!   when they interleave (Polyform Puzzler's rule; checked against a
//!   brute-force test of interleaving in the tests).
//! * On the hexagonal grid three edges meet at a point: no two paths can
//!   cross, so there are no items.
//!
//! A crossing item is named by its point `(x, y)` (the lattice point of
//! [`super::tri`] or the square grid's corner) and, on the triangular
//! grid, its direction.

use super::{Cell, PolyGrid};
use std::collections::BTreeMap;

/// The grid whose faces' edges are this grid's cells, if it is an edge
/// grid: squares for sticks, triangles for trigs, hexagons for twigs.
pub fn face_grid(grid: PolyGrid) -> Option<PolyGrid> {
    match grid {
        PolyGrid::Stick => Some(PolyGrid::Square),
        PolyGrid::Trig => Some(PolyGrid::Triangle),
        PolyGrid::Twig => Some(PolyGrid::Hexagon),
        _ => None,
    }
}

/// The edges of one face of `face_grid(grid)`.
fn face_edges(grid: PolyGrid, f: Cell) -> Vec<Cell> {
    let [x, y, k] = f;
    match grid {
        PolyGrid::Stick => vec![[x, y, 0], [x, y + 1, 0], [x, y, 1], [x + 1, y, 1]],
        PolyGrid::Trig if k == 0 => vec![[x, y, 1], [x, y, 2], [x, y + 1, 0]],
        PolyGrid::Trig => vec![[x, y, 0], [x + 1, y, 1], [x, y, 2]],
        PolyGrid::Twig => vec![
            [x, y, 0],
            [x, y, 1],
            [x, y, 2],
            [x - 1, y, 0],
            [x, y - 1, 1],
            [x - 1, y - 1, 2],
        ],
        _ => Vec::new(),
    }
}

/// The edges of a region of faces: all of them (`border`), or only those
/// inside it (edges of two faces of the region), sorted.
pub fn edges_of(grid: PolyGrid, faces: &[Cell], border: bool) -> Vec<Cell> {
    let mut count: BTreeMap<Cell, u32> = BTreeMap::new();
    for &f in faces {
        for e in face_edges(grid, f) {
            *count.entry(e).or_default() += 1;
        }
    }
    count
        .into_iter()
        .filter(|&(_, n)| border || n >= 2)
        .map(|(e, _)| e)
        .collect()
}

/// A place where two pieces could cross: a point, and on the triangular
/// grid a direction at it (0 on the square grid).
pub type Crossing = [i32; 3];

/// The legs at each point: for every endpoint of an edge of `cells`, the
/// directions of the edges of `cells` leaving it.
fn legs(grid: PolyGrid, cells: &[Cell]) -> BTreeMap<(i32, i32), Vec<i32>> {
    let mut at: BTreeMap<(i32, i32), Vec<i32>> = BTreeMap::new();
    for &[x, y, k] in cells {
        // (start point, direction from it), (end point, direction from it)
        let ends = match (grid, k) {
            (PolyGrid::Stick, 0) => [((x, y), 0), ((x + 1, y), 2)],
            (PolyGrid::Stick, _) => [((x, y), 3), ((x, y + 1), 1)],
            // trig directions counterclockwise on the screen (y down):
            // 0 right, 1 up right (-e2), 2 up left (-e1-e2), 3 left,
            // 4 down left (e2), 5 down right (e1+e2)
            (_, 0) => [((x, y), 0), ((x + 1, y), 3)],
            (_, 1) => [((x, y), 4), ((x, y + 1), 1)],
            _ => [((x, y), 5), ((x + 1, y + 1), 2)],
        };
        for (p, d) in ends {
            at.entry(p).or_default().push(d);
        }
    }
    at
}

/// The crossing items a piece on the board covers, given its cells (edges),
/// sorted: see the module documentation. None on grids without crossings.
pub fn crossings(grid: PolyGrid, cells: &[Cell]) -> Vec<Crossing> {
    let mut out = Vec::new();
    match grid {
        PolyGrid::Stick => {
            for ((x, y), ds) in legs(grid, cells) {
                let has = |d| ds.contains(&d);
                if (has(0) && has(2)) || (has(1) && has(3)) {
                    out.push([x, y, 0]);
                }
            }
        }
        PolyGrid::Trig => {
            for ((x, y), ds) in legs(grid, cells) {
                let mut covered = [false; 6];
                for &a in &ds {
                    for &b in &ds {
                        for d in between(a, b) {
                            covered[d as usize] = true;
                        }
                    }
                }
                for (d, &c) in covered.iter().enumerate() {
                    if c {
                        out.push([x, y, d as i32]);
                    }
                }
            }
        }
        _ => {}
    }
    out
}

/// The directions a path with legs `a` and `b` (a < b matters not) covers
/// at a point of the triangular grid.
fn between(a: i32, b: i32) -> Vec<i32> {
    let (lo, hi) = (a.min(b), a.max(b));
    match hi - lo {
        2 => vec![lo, lo + 1, hi],
        3 => vec![lo, lo + 1, lo + 2, hi],
        4 => vec![hi, (hi + 1) % 6, lo],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_give_their_edges() {
        // a 5x5 square of squares: 60 edges, 40 inside
        let squares: Vec<Cell> = (0..5)
            .flat_map(|y| (0..5).map(move |x| [x, y, 0]))
            .collect();
        assert_eq!(edges_of(PolyGrid::Stick, &squares, true).len(), 60);
        assert_eq!(edges_of(PolyGrid::Stick, &squares, false).len(), 40);
        // a triangle parallelogram of m x n rhombi: 3mn + m + n edges
        let tri: Vec<Cell> = (0..2)
            .flat_map(|y| (0..5).flat_map(move |x| [[x, y, 0], [x, y, 1]]))
            .collect();
        assert_eq!(edges_of(PolyGrid::Trig, &tri, true).len(), 3 * 10 + 5 + 2);
        // the hexagon of 7 hexagons: 30 edges; one hexagon: 6
        let hex: Vec<Cell> = vec![
            [0, 0, 0],
            [1, 0, 0],
            [0, 1, 0],
            [1, 1, 0],
            [2, 1, 0],
            [1, 2, 0],
            [2, 2, 0],
        ];
        assert_eq!(edges_of(PolyGrid::Twig, &hex, true).len(), 30);
        assert_eq!(edges_of(PolyGrid::Twig, &hex[..1], true).len(), 6);
        // every edge of a face is a cell of the edge grid, and a face's
        // edges are connected
        for (g, faces) in [
            (PolyGrid::Stick, &squares),
            (PolyGrid::Trig, &tri),
            (PolyGrid::Twig, &hex),
        ] {
            for &f in faces.iter() {
                let e = face_edges(g, f);
                assert!(e.iter().all(|&c| g.is_cell(c)), "{g:?} {f:?}");
                assert!(g.is_connected(&e), "{g:?} {f:?}");
            }
        }
    }

    #[test]
    fn sticks_cross_only_straight_through() {
        let plus = [[0, 1, 0], [1, 1, 0], [1, 0, 1], [1, 1, 1]];
        // the X covers its centre
        assert_eq!(crossings(PolyGrid::Stick, &plus), vec![[1, 1, 0]]);
        // an L covers nothing; a straight bar its inner point
        assert!(crossings(PolyGrid::Stick, &[[0, 0, 0], [0, 0, 1]]).is_empty());
        assert_eq!(
            crossings(PolyGrid::Stick, &[[0, 0, 0], [1, 0, 0]]),
            vec![[1, 0, 0]]
        );
    }

    /// Two paths through a point cross exactly when their legs
    /// interleave, and exactly then share a crossing item.
    #[test]
    fn trig_items_meet_exactly_when_paths_interleave() {
        // the six edges at P(0, 0), by direction
        let edge = |d: i32| -> Cell {
            match d {
                0 => [0, 0, 0],
                1 => [0, -1, 1],
                2 => [-1, -1, 2],
                3 => [-1, 0, 0],
                4 => [0, 0, 1],
                _ => [0, 0, 2],
            }
        };
        let interleave = |a: (i32, i32), b: (i32, i32)| {
            let inside = |d: i32| {
                let (lo, hi) = (a.0.min(a.1), a.0.max(a.1));
                lo < d && d < hi
            };
            inside(b.0) != inside(b.1)
        };
        for a0 in 0..6 {
            for a1 in a0 + 1..6 {
                for b0 in 0..6 {
                    for b1 in b0 + 1..6 {
                        if [b0, b1].iter().any(|d| [a0, a1].contains(d)) {
                            continue;
                        }
                        let ca = crossings(PolyGrid::Trig, &[edge(a0), edge(a1)]);
                        let cb = crossings(PolyGrid::Trig, &[edge(b0), edge(b1)]);
                        let at_origin = |c: &Crossing| c[0] == 0 && c[1] == 0;
                        let share = ca.iter().filter(|c| at_origin(c)).any(|c| cb.contains(c));
                        assert_eq!(share, interleave((a0, a1), (b0, b1)), "{a0}{a1} {b0}{b1}");
                    }
                }
            }
        }
    }
}
