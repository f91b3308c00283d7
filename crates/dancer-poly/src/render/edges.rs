//! Sticks, twigs and trigs: a tiling of the edges of a grid, each piece a
//! run of thick coloured segments with round ends, on faint dots at the
//! points where edges meet.
//!
//! An edge is its two ends in the grid's fine coordinates ([`ends`]):
//! corners of the squares for sticks, three times the lattice coordinates
//! of `grid/tri.rs` for trigs (the lattice's points) and twigs (the
//! centres of triangles, the corners of the hexagons), put onto the
//! picture by [`super::plane_xy`] so that every edge is one cell long.
//! Each placement is drawn twice, dark and a little wider first, then in
//! its piece's colour: where two placements meet at a point, the later
//! one's dark rim parts them. Placements are drawn in their order, so the
//! picture is the same every time. A placement's label sits on a disc in
//! its colour at the middle of its edge nearest the placement's centre.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::faces::Fine;
use super::{
    bounds_xy, label, nearest, num, piece_color, piece_name, plane_xy, Metrics, Panel, Style,
};
use super::{Cover, Tiling, INK};
use crate::grid::{Cell, PolyGrid};

/// An edge's two ends in fine coordinates.
pub(super) fn ends(grid: PolyGrid, cell: Cell) -> [Fine; 2] {
    let [x, y, k] = cell;
    let (fx, fy) = (3 * x, 3 * y);
    match (grid, k) {
        (PolyGrid::Stick, 0) => [[x, y], [x + 1, y]],
        (PolyGrid::Stick, _) => [[x, y], [x, y + 1]],
        // the two triangles' centres beside the lattice segment k
        (PolyGrid::Twig, 0) => [[fx + 1, fy - 1], [fx + 2, fy + 1]],
        (PolyGrid::Twig, 1) => [[fx - 1, fy + 1], [fx + 1, fy + 2]],
        (PolyGrid::Twig, _) => [[fx + 1, fy + 2], [fx + 2, fy + 1]],
        // the lattice segment from P(x, y) along v_k
        (_, 0) => [[fx, fy], [fx + 3, fy]],
        (_, 1) => [[fx, fy], [fx, fy + 3]],
        _ => [[fx, fy], [fx + 3, fy + 3]],
    }
}

/// The tiling of edges, with its top left corner at (0, 0).
pub(super) fn content(t: &Tiling, style: &Style, m: &Metrics) -> Panel {
    let grid = t.grid;
    let mut cells: BTreeMap<Cell, Cover> = BTreeMap::new();
    for &(c, placement, piece) in &t.cells {
        cells.entry(c).or_insert((placement, piece));
    }
    // per placement: its piece and its edges, in the cells' order
    let mut placements: BTreeMap<u32, (u32, Vec<[Fine; 2]>)> = BTreeMap::new();
    for (&c, &(placement, piece)) in &cells {
        let entry = placements.entry(placement).or_insert((piece, Vec::new()));
        entry.1.push(ends(grid, c));
    }
    let points: BTreeSet<Fine> = placements
        .values()
        .flat_map(|p| p.1.iter().flatten().copied())
        .collect();
    let Some((lo, hi)) = bounds_xy(grid, points.iter().copied()) else {
        return Panel::empty();
    };
    let width = m.cell * 0.24;
    let rim = m.border * 0.5;
    let pad = width / 2.0 + rim;
    let at = |p: Fine| {
        let (x, y) = plane_xy(grid, p);
        ((x - lo.0) * m.cell + pad, (y - lo.1) * m.cell + pad)
    };
    let mut body = String::new();
    let _ = writeln!(body, "<g class=\"points\" fill=\"#c8c8c8\">");
    for &p in &points {
        let (x, y) = at(p);
        let r = num((m.cell * 0.06).max(1.0));
        let _ = writeln!(
            body,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{r}\"/>",
            num(x),
            num(y)
        );
    }
    body.push_str("</g>\n");
    for (piece, edges) in placements.values() {
        let mut d = String::new();
        for &[a, b] in edges {
            let ((ax, ay), (bx, by)) = (at(a), at(b));
            let _ = write!(d, "M{} {}L{} {}", num(ax), num(ay), num(bx), num(by));
        }
        for (class, colour, w) in [
            ("rim", INK.to_string(), width + 2.0 * rim),
            ("edges", piece_color(*piece).hex(), width),
        ] {
            let _ = writeln!(
                body,
                "<path class=\"{class}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{}\" \
                 stroke-linecap=\"round\" stroke-linejoin=\"round\" d=\"{d}\"/>",
                num(w)
            );
        }
    }
    joints(&mut body, &placements, &at, m);
    if style.labels {
        labels(&mut body, t, &placements, &at, m);
    }
    Panel {
        w: (hi.0 - lo.0) * m.cell + 2.0 * pad,
        h: (hi.1 - lo.1) * m.cell + 2.0 * pad,
        body,
    }
}

/// Light dots where two edges of one placement meet, so that a piece's
/// unit edges can be counted as a polyomino's cells can.
fn joints(
    out: &mut String,
    placements: &BTreeMap<u32, (u32, Vec<[Fine; 2]>)>,
    at: &dyn Fn(Fine) -> (f64, f64),
    m: &Metrics,
) {
    let mut joints = BTreeSet::new();
    for (_, edges) in placements.values() {
        let mut seen = BTreeSet::new();
        for &p in edges.iter().flatten() {
            if !seen.insert(p) {
                joints.insert(p);
            }
        }
    }
    if joints.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "<g class=\"joints\" fill=\"#ffffff\" fill-opacity=\"0.7\">"
    );
    let r = num((m.cell * 0.045).max(0.75));
    for p in joints {
        let (x, y) = at(p);
        let _ = writeln!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{r}\"/>",
            num(x),
            num(y)
        );
    }
    out.push_str("</g>\n");
}

/// Each placement's piece name on a disc of its colour, at the middle of
/// its edge nearest the placement's centre.
fn labels(
    out: &mut String,
    t: &Tiling,
    placements: &BTreeMap<u32, (u32, Vec<[Fine; 2]>)>,
    at: &dyn Fn(Fine) -> (f64, f64),
    m: &Metrics,
) {
    let radius = m.cell * 0.28;
    let size = m.label_font * 0.8;
    let _ = writeln!(
        out,
        "<g class=\"labels\" font-size=\"{}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{INK}\">",
        num(size)
    );
    for (piece, edges) in placements.values() {
        let middles: Vec<(f64, f64)> = edges
            .iter()
            .map(|&[a, b]| {
                let ((ax, ay), (bx, by)) = (at(a), at(b));
                ((ax + bx) / 2.0, (ay + by) / 2.0)
            })
            .collect();
        let best = nearest(&middles);
        let _ = writeln!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{INK}\" stroke-width=\"{}\"/>",
            num(best.0),
            num(best.1),
            num(radius),
            piece_color(*piece).hex(),
            num(m.thin)
        );
        label(
            out,
            best,
            &piece_name(&t.pieces, *piece),
            *piece,
            size,
            radius * 1.8,
        );
    }
    out.push_str("</g>\n");
}
