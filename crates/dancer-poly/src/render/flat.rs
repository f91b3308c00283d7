//! Squares: a 2D tiling, and each layer of a 3D one, as a grid of square
//! cells.
//!
//! A [`Layer`] is the covered cells of a `w` by `h` box keyed by `(x, y)`
//! from 0. Each cell is filled with its piece's colour, one path per
//! placement; the unit edges between cells are sorted into borders (a
//! covered cell beside another placement or beside nothing) and inner
//! edges (two cells of one placement), and each kind is drawn as one path
//! of straight runs, thick and dark or thin and light. Labels go in the
//! cell nearest each placement's centroid.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::{
    label, nearest, num, piece_color, piece_name, Cover, Metrics, Panel, Style, Tiling, INK,
};

/// A grid of square cells, keyed by (x, y) with 0 <= x < w and 0 <= y < h.
pub(super) struct Layer {
    pub(super) w: i32,
    pub(super) h: i32,
    pub(super) cells: BTreeMap<(i32, i32), Cover>,
}

/// A unit edge of the cell grid: `(vertical, line, start)`. A horizontal
/// edge runs from (start, line) to (start + 1, line), a vertical one from
/// (line, start) to (line, start + 1).
type Edge = (bool, i32, i32);

/// A straight run of unit edges: `(vertical, line, from, to)`.
type Run = (bool, i32, i32, i32);

pub(super) fn content_2d(t: &Tiling, style: &Style, m: &Metrics) -> Panel {
    let Some(([x0, y0], [x1, y1])) = bounds(t.cells.iter().map(|c| [c.0[0], c.0[1]])) else {
        return Panel::empty();
    };
    let mut cells = BTreeMap::new();
    for &([x, y, _], placement, piece) in &t.cells {
        cells.entry((x - x0, y - y0)).or_insert((placement, piece));
    }
    let layer = Layer {
        w: x1 - x0 + 1,
        h: y1 - y0 + 1,
        cells,
    };
    let mut body = String::new();
    draw_layer(&mut body, &layer, &t.pieces, m, style.labels);
    Panel {
        w: f64::from(layer.w) * m.cell,
        h: f64::from(layer.h) * m.cell,
        body,
    }
}

/// Smallest and largest coordinates, per axis.
pub(super) fn bounds<const N: usize>(
    points: impl Iterator<Item = [i32; N]>,
) -> Option<([i32; N], [i32; N])> {
    let mut acc: Option<([i32; N], [i32; N])> = None;
    for p in points {
        let (lo, hi) = acc.get_or_insert((p, p));
        for i in 0..N {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    }
    acc
}

/// The unit edges of a layer: (borders, inner). A border edge separates a
/// covered cell from a cell of another placement or from an uncovered cell;
/// an inner edge separates two cells of the same placement.
pub(super) fn layer_edges(layer: &Layer) -> (BTreeSet<Edge>, BTreeSet<Edge>) {
    let mut border = BTreeSet::new();
    let mut inner = BTreeSet::new();
    for (&(x, y), &(placement, _)) in &layer.cells {
        let sides = [
            ((x, y - 1), (false, y, x)),
            ((x, y + 1), (false, y + 1, x)),
            ((x - 1, y), (true, x, y)),
            ((x + 1, y), (true, x + 1, y)),
        ];
        for (next, edge) in sides {
            match layer.cells.get(&next) {
                Some(&(other, _)) if other == placement => inner.insert(edge),
                _ => border.insert(edge),
            };
        }
    }
    (border, inner)
}

/// Joins collinear unit edges that touch into longer runs.
fn runs(edges: &BTreeSet<Edge>) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    for &(vertical, line, start) in edges {
        match out.last_mut() {
            Some(run) if run.0 == vertical && run.1 == line && run.3 == start => run.3 = start + 1,
            _ => out.push((vertical, line, start, start + 1)),
        }
    }
    out
}

fn runs_path(runs: &[Run], cell: f64) -> String {
    let mut d = String::new();
    for &(vertical, line, from, to) in runs {
        let (line, from, to) = (
            num(f64::from(line) * cell),
            num(f64::from(from) * cell),
            num(f64::from(to) * cell),
        );
        if vertical {
            let _ = write!(d, "M{line} {from}V{to}");
        } else {
            let _ = write!(d, "M{from} {line}H{to}");
        }
    }
    d
}

/// Draws a layer with its top left corner at (0, 0).
pub(super) fn draw_layer(
    out: &mut String,
    layer: &Layer,
    pieces: &[String],
    m: &Metrics,
    labels: bool,
) {
    let c = m.cell;
    let cs = num(c);
    // Fills: one path per placement (and piece type).
    let mut groups: BTreeMap<Cover, Vec<(i32, i32)>> = BTreeMap::new();
    for (&xy, &cover) in &layer.cells {
        groups.entry(cover).or_default().push(xy);
    }
    for (&(_, piece), cells) in &groups {
        let mut d = String::new();
        for &(x, y) in cells {
            let _ = write!(
                d,
                "M{} {}h{cs}v{cs}h-{cs}z",
                num(f64::from(x) * c),
                num(f64::from(y) * c)
            );
        }
        let _ = writeln!(
            out,
            "<path fill=\"{}\" d=\"{d}\"/>",
            piece_color(piece).hex()
        );
    }
    // Lines: thin light ones inside placements, thick dark borders.
    let (border, inner) = layer_edges(layer);
    if !inner.is_empty() {
        super::thin_lines(out, &runs_path(&runs(&inner), c), m);
    }
    if !border.is_empty() {
        let _ = writeln!(
            out,
            "<path class=\"borders\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"{}\" \
             stroke-linecap=\"round\" d=\"{}\"/>",
            num(m.border),
            runs_path(&runs(&border), c)
        );
    }
    if labels {
        draw_labels(out, layer, pieces, m);
    }
}

/// Writes each placement's piece name in its cell nearest the placement's
/// centroid.
fn draw_labels(out: &mut String, layer: &Layer, pieces: &[String], m: &Metrics) {
    let mut placements: BTreeMap<u32, (u32, Vec<(i32, i32)>)> = BTreeMap::new();
    for (&xy, &(placement, piece)) in &layer.cells {
        placements
            .entry(placement)
            .or_insert((piece, Vec::new()))
            .1
            .push(xy);
    }
    if placements.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "<g class=\"labels\" font-size=\"{}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{INK}\">",
        num(m.label_font)
    );
    for (piece, cells) in placements.values() {
        let points: Vec<(f64, f64)> = cells
            .iter()
            .map(|&(x, y)| (f64::from(x), f64::from(y)))
            .collect();
        let (x, y) = nearest(&points);
        let at = ((x + 0.5) * m.cell, (y + 0.5) * m.cell);
        let name = piece_name(pieces, *piece);
        label(out, at, &name, *piece, m.label_font, m.cell * 0.9);
    }
    out.push_str("</g>\n");
}
