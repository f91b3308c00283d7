//! Triangles and hexagons: a tiling of the faces of the triangular lattice
//! or of its hexagons, drawn as polygons.
//!
//! Every corner is a point of the lattice in *fine* coordinates, three
//! times the lattice coordinates of `grid/tri.rs` (so that a triangle's
//! centre and a hexagon's corners are integer points too), and goes onto
//! the picture through [`super::plane_xy`]: a triangle's side is one and
//! a half cells ([`TRIANGLE`]), a hexagon's width (the step between two
//! centres) one cell. Each face
//! is its corners in order, clockwise on the picture, and for each side
//! the cell across it ([`outline`]); the sides shared with a cell of the
//! same placement are the thin light lines, all others (another placement,
//! a hole, the outside) the thick dark borders, each side once. Fills are
//! one path per placement, and labels go in the cell nearest the
//! placement's centre, as for squares.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::{
    bounds_xy, label, nearest, num, piece_color, piece_name, plane_xy, Cover, Metrics, Panel,
};
use super::{Style, Tiling, INK};
use crate::grid::{Cell, PolyGrid};

/// A point in fine coordinates: three times the lattice coordinates.
pub(super) type Fine = [i32; 2];

/// A face's corners, clockwise on the picture, and the cell across each
/// side: side `i` runs from corner `i` to corner `i + 1` (the last one
/// back to the first).
pub(super) fn outline(grid: PolyGrid, cell: Cell) -> (Vec<Fine>, Vec<Cell>) {
    let [x, y, k] = cell;
    let (fx, fy) = (3 * x, 3 * y);
    match (grid, k) {
        // up: the top, the lower right, the lower left corner
        (PolyGrid::Triangle, 0) => (
            vec![[fx, fy], [fx + 3, fy + 3], [fx, fy + 3]],
            vec![[x, y, 1], [x, y + 1, 1], [x - 1, y, 1]],
        ),
        // down: the upper left, the upper right, the bottom corner
        (PolyGrid::Triangle, _) => (
            vec![[fx, fy], [fx + 3, fy], [fx + 3, fy + 3]],
            vec![[x, y - 1, 0], [x + 1, y, 0], [x, y, 0]],
        ),
        // a hexagon on its corner: from the top corner clockwise
        _ => (
            [[-1, -2], [1, -1], [2, 1], [1, 2], [-1, 1], [-2, -1]]
                .iter()
                .map(|d| [fx + d[0], fy + d[1]])
                .collect(),
            vec![
                [x, y - 1, k],
                [x + 1, y, k],
                [x + 1, y + 1, k],
                [x, y + 1, k],
                [x - 1, y, k],
                [x - 1, y - 1, k],
            ],
        ),
    }
}

/// How many cells ([`super::Style::cell`]) long a triangle's side is: one
/// and a half, so that a triangle has about the area of a square cell (a
/// hexagon, one cell wide, has 0.87 of it).
const TRIANGLE: f64 = 1.5;

/// How many cells one step of [`plane_xy`] is on `grid`.
fn cells_a_step(grid: PolyGrid) -> f64 {
    if grid == PolyGrid::Triangle {
        TRIANGLE
    } else {
        1.0
    }
}

/// A side as its two ends, the smaller first: the same from either face.
fn side_of(a: Fine, b: Fine) -> (Fine, Fine) {
    (a.min(b), a.max(b))
}

/// The smallest and largest picture coordinates of the corners of the
/// cells: the frame of their picture.
pub(super) type Frame = Option<((f64, f64), (f64, f64))>;

/// The frame of `cells`' picture on `grid`.
pub(super) fn frame(grid: PolyGrid, cells: &[Cell]) -> Frame {
    bounds_xy(grid, cells.iter().flat_map(|&c| outline(grid, c).0))
}

/// The tiling of triangles or hexagons, with its top left corner at (0, 0).
pub(super) fn content(t: &Tiling, style: &Style, m: &Metrics) -> Panel {
    let cells: Vec<Cell> = t.cells.iter().map(|c| c.0).collect();
    content_in(t, style, m, frame(t.grid, &cells))
}

/// The tiling drawn in `frame` (one that holds it): the frame's top left
/// corner at (0, 0).
pub(super) fn content_in(t: &Tiling, style: &Style, m: &Metrics, frame: Frame) -> Panel {
    let grid = t.grid;
    let mut cells: BTreeMap<Cell, Cover> = BTreeMap::new();
    for &(c, placement, piece) in &t.cells {
        cells.entry(c).or_insert((placement, piece));
    }
    let shapes: BTreeMap<Cell, (Vec<Fine>, Vec<Cell>)> =
        cells.keys().map(|&c| (c, outline(grid, c))).collect();
    let Some((lo, hi)) = frame else {
        return Panel::empty();
    };
    let unit = m.cell * cells_a_step(grid);
    let at = |p: Fine| {
        let (x, y) = plane_xy(grid, p);
        ((x - lo.0) * unit, (y - lo.1) * unit)
    };
    let mut body = String::new();
    // fills: one path per placement
    let mut groups: BTreeMap<Cover, String> = BTreeMap::new();
    for (c, (corners, _)) in &shapes {
        let d = groups.entry(cells[c]).or_default();
        for (i, &p) in corners.iter().enumerate() {
            let (x, y) = at(p);
            let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { "L" }, num(x), num(y));
        }
        d.push('Z');
    }
    for (&(_, piece), d) in &groups {
        let _ = writeln!(
            body,
            "<path fill=\"{}\" d=\"{d}\"/>",
            piece_color(piece).hex()
        );
    }
    // sides: thin inside a placement, thick borders elsewhere
    let mut border = BTreeSet::new();
    let mut inner = BTreeSet::new();
    for (c, (corners, across)) in &shapes {
        for (i, n) in across.iter().enumerate() {
            let s = side_of(corners[i], corners[(i + 1) % corners.len()]);
            match cells.get(n) {
                Some(other) if other.0 == cells[c].0 => inner.insert(s),
                _ => border.insert(s),
            };
        }
    }
    let sides_path = |set: &BTreeSet<(Fine, Fine)>| {
        let mut d = String::new();
        for &(a, b) in set {
            let ((ax, ay), (bx, by)) = (at(a), at(b));
            let _ = write!(d, "M{} {}L{} {}", num(ax), num(ay), num(bx), num(by));
        }
        d
    };
    super::thin_lines(&mut body, &sides_path(&inner), m);
    let _ = writeln!(
        body,
        "<path class=\"borders\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"{}\" \
         stroke-linecap=\"round\" stroke-linejoin=\"round\" d=\"{}\"/>",
        num(m.border),
        sides_path(&border)
    );
    if style.labels {
        labels(&mut body, t, &cells, &at, m);
    }
    Panel {
        w: (hi.0 - lo.0) * unit,
        h: (hi.1 - lo.1) * unit,
        body,
    }
}

/// Each placement's piece name, in its cell nearest the placement's
/// centre (the first such cell in the cells' order on a tie).
fn labels(
    out: &mut String,
    t: &Tiling,
    cells: &BTreeMap<Cell, Cover>,
    at: &dyn Fn(Fine) -> (f64, f64),
    m: &Metrics,
) {
    let centre = |c: Cell| {
        let corners = outline(t.grid, c).0;
        let n = corners.len() as f64;
        let ps: Vec<(f64, f64)> = corners.into_iter().map(at).collect();
        (
            ps.iter().map(|p| p.0).sum::<f64>() / n,
            ps.iter().map(|p| p.1).sum::<f64>() / n,
        )
    };
    let mut placements: BTreeMap<u32, (u32, Vec<(f64, f64)>)> = BTreeMap::new();
    for (&c, &(placement, piece)) in cells {
        let entry = placements.entry(placement).or_insert((piece, Vec::new()));
        entry.1.push(centre(c));
    }
    // the room a label has: the width of the circle inside a cell
    let (size, room) = match t.grid {
        PolyGrid::Triangle => (m.label_font, m.cell * TRIANGLE * 0.55),
        _ => (m.label_font, m.cell * 0.9),
    };
    let _ = writeln!(
        out,
        "<g class=\"labels\" font-size=\"{}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{INK}\">",
        num(size)
    );
    for (piece, centres) in placements.values() {
        let at = nearest(centres);
        label(out, at, &piece_name(&t.pieces, *piece), *piece, size, room);
    }
    out.push_str("</g>\n");
}
