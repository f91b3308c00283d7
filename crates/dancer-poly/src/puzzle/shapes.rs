//! Boards by shape: rectangles, boxes, parallelograms, hexagons and
//! triangles on each grid, in the grid's coordinates ([`crate::grid`]).
//!
//! On an edge grid a shape is a region of faces (squares for sticks,
//! triangles for trigs, hexagons for twigs) and the board is its edges
//! ([`crate::grid::edges::edges_of`]), the outline included or not.
//!
//! The sizes are checked by the caller: a side is at least 1 and the
//! cells are at most [`super::MAX_BOARD_CELLS`] (every shape here has at
//! most `6 n^2` faces for a side `n`, and at most three edges a face).

use crate::grid::{edges, Cell, PolyGrid};

/// Hex distance between the lattice points `P(a)` and `P(b)` of the
/// triangular lattice (basis `e1`, `e2` 120 degrees apart).
fn distance(a: (i32, i32), b: (i32, i32)) -> i32 {
    let (dx, dy) = (a.0 - b.0, a.1 - b.1);
    dx.abs().max(dy.abs()).max((dx - dy).abs())
}

/// The corners of a triangle `[x, y, k]` (see [`crate::grid::tri`]).
fn corners(c: Cell) -> [(i32, i32); 3] {
    let [x, y, k] = c;
    if k == 0 {
        [(x, y), (x, y + 1), (x + 1, y + 1)]
    } else {
        [(x, y), (x + 1, y), (x + 1, y + 1)]
    }
}

/// The faces of a shape on a face grid, each of `filter`'s cells in the
/// square `0..size` (both kinds of triangle).
fn faces(grid: PolyGrid, size: i32, keep: impl Fn(Cell) -> bool) -> Vec<Cell> {
    let kinds: &[i32] = if grid == PolyGrid::Triangle {
        &[0, 1]
    } else {
        &[0]
    };
    let mut out = Vec::new();
    for y in 0..size {
        for x in 0..size {
            for &k in kinds {
                if keep([x, y, k]) {
                    out.push([x, y, k]);
                }
            }
        }
    }
    out
}

/// The grid a shape of `grid` is drawn on: the face grid for an edge grid.
fn face_grid(grid: PolyGrid) -> PolyGrid {
    edges::face_grid(grid).unwrap_or(grid)
}

/// The board's cells: the faces themselves, or their edges (moved so that
/// the smallest `x` and `y` are 0).
fn board_of(grid: PolyGrid, faces: Vec<Cell>, border: bool) -> Vec<Cell> {
    if grid.is_edge_grid() {
        grid.normalize(&edges::edges_of(grid, &faces, border))
    } else {
        faces
    }
}

/// The `w` by `h` rectangle of squares (or its edges, for sticks).
pub fn rect(grid: PolyGrid, w: i32, h: i32, border: bool) -> Result<Vec<Cell>, String> {
    if face_grid(grid) != PolyGrid::Square {
        return Err(format!(
            "rect is a board of squares (or sticks), not of the {} grid: try parallelogram, hexagon or triangle",
            grid.name()
        ));
    }
    let squares = (0..h)
        .flat_map(|y| (0..w).map(move |x| [x, y, 0]))
        .collect();
    Ok(board_of(grid, squares, border))
}

/// The `w` by `h` parallelogram of the triangular lattice: `h` rows of `w`
/// rhombi (two triangles each), or of `w` hexagons, each row half a cell
/// left of the one above; or its edges.
pub fn parallelogram(grid: PolyGrid, w: i32, h: i32, border: bool) -> Result<Vec<Cell>, String> {
    let f = face_grid(grid);
    if !matches!(f, PolyGrid::Triangle | PolyGrid::Hexagon) {
        return Err(format!(
            "parallelogram is a board of triangles or hexagons (or their edges), not of the {} grid",
            grid.name()
        ));
    }
    let kinds = if f == PolyGrid::Triangle { 2 } else { 1 };
    let faces = (0..h)
        .flat_map(|y| (0..w).flat_map(move |x| (0..kinds).map(move |k| [x, y, k])))
        .collect();
    Ok(board_of(grid, faces, border))
}

/// The regular hexagon of side `n`: `6 n^2` triangles or `3 n^2 - 3 n + 1`
/// hexagons; or its edges.
pub fn hexagon(grid: PolyGrid, n: i32, border: bool) -> Result<Vec<Cell>, String> {
    let faces = match face_grid(grid) {
        PolyGrid::Triangle => faces(PolyGrid::Triangle, 2 * n, |c| {
            corners(c).iter().all(|&p| distance(p, (n, n)) <= n)
        }),
        PolyGrid::Hexagon => faces(PolyGrid::Hexagon, 2 * n - 1, |[x, y, _]| {
            distance((x, y), (n - 1, n - 1)) < n
        }),
        _ => {
            return Err(format!(
                "hexagon is a board of triangles or hexagons (or their edges), not of the {} grid",
                grid.name()
            ))
        }
    };
    Ok(board_of(grid, faces, border))
}

/// The triangle of side `n`, pointing up: `n^2` triangles or `n (n + 1) / 2`
/// hexagons; or its edges.
pub fn triangle(grid: PolyGrid, n: i32, border: bool) -> Result<Vec<Cell>, String> {
    let faces = match face_grid(grid) {
        PolyGrid::Triangle => faces(PolyGrid::Triangle, n, |[x, y, k]| x + k <= y),
        PolyGrid::Hexagon => faces(PolyGrid::Hexagon, n, |[x, y, _]| x <= y),
        _ => {
            return Err(format!(
                "triangle is a board of triangles or hexagons (or their edges), not of the {} grid",
                grid.name()
            ))
        }
    };
    Ok(board_of(grid, faces, border))
}

#[cfg(test)]
mod tests {
    use super::*;
    use PolyGrid::*;

    #[test]
    fn sizes_of_the_shapes() {
        for n in 1..6 {
            assert_eq!(hexagon(Triangle, n, true).unwrap().len() as i32, 6 * n * n);
            assert_eq!(
                hexagon(Hexagon, n, true).unwrap().len() as i32,
                3 * n * n - 3 * n + 1
            );
            assert_eq!(triangle(Triangle, n, true).unwrap().len() as i32, n * n);
            assert_eq!(
                triangle(Hexagon, n, true).unwrap().len() as i32,
                n * (n + 1) / 2
            );
            // the triangle of side n has 3 n (n + 1) / 2 edges
            assert_eq!(
                triangle(Trig, n, true).unwrap().len() as i32,
                3 * n * (n + 1) / 2
            );
        }
        assert_eq!(parallelogram(Triangle, 6, 6, true).unwrap().len(), 72);
        // Polyform Puzzler: 42 edges in the side-2 hexagon of triangles, 60
        // in the 5x3 parallelogram of hexagons and in the triangle of 15
        // hexagons
        assert_eq!(hexagon(Trig, 2, true).unwrap().len(), 42);
        assert_eq!(parallelogram(Twig, 5, 3, true).unwrap().len(), 60);
        assert_eq!(triangle(Twig, 5, true).unwrap().len(), 60);
        assert_eq!(rect(Stick, 5, 5, true).unwrap().len(), 60);
        assert_eq!(rect(Stick, 6, 6, false).unwrap().len(), 60);
        assert!(rect(Triangle, 2, 2, true).is_err());
        assert!(hexagon(Square, 2, true).is_err());
    }

    #[test]
    fn shapes_are_connected_and_symmetric() {
        for (g, cells, order) in [
            (Triangle, hexagon(Triangle, 3, true).unwrap(), 12),
            (Hexagon, hexagon(Hexagon, 3, true).unwrap(), 12),
            (Triangle, triangle(Triangle, 4, true).unwrap(), 6),
            (Hexagon, triangle(Hexagon, 4, true).unwrap(), 6),
            (Trig, hexagon(Trig, 2, true).unwrap(), 12),
            (Twig, triangle(Twig, 3, true).unwrap(), 6),
            (Hexagon, parallelogram(Hexagon, 4, 7, true).unwrap(), 2),
            (Triangle, parallelogram(Triangle, 6, 6, true).unwrap(), 4),
        ] {
            assert!(g.is_connected(&cells), "{g:?}");
            let board = super::super::Board::on(g, cells);
            assert_eq!(board.symmetries().len(), order, "{g:?}");
        }
    }
}
