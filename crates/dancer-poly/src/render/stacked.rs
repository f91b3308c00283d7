//! Spheres and prisms: a solid drawn as its layers side by side, each with
//! its caption, as cubes' layers are (`solid.rs` lays them out with
//! [`arrange`] too).
//!
//! * Prisms: layer `z` holds the cells `[x, y, 2z + k]`, the triangles
//!   `[x, y, k]` of one copy of the triangle grid (`grid/prism.rs`), drawn
//!   as `faces.rs` draws triangles. Every layer is framed by the corners of
//!   all the layers, so that a prism sits at the same place in each
//!   picture as the one above it.
//! * Spheres: layer `z` holds the spheres `[x, y, z]` with `x + y + z`
//!   even (`grid/sphere.rs`), a square grid turned by 45 degrees. Each is a
//!   circle in its piece's colour, shaded as a ball lit from the upper
//!   left; two touching spheres of one placement in a layer are joined by
//!   a bar of the piece's darker colour, so that a piece reads as one. One
//!   step of a coordinate is [`SPHERE_STEP`] cells; touching spheres stand
//!   diagonally, `sqrt 2` steps apart, so a sphere's radius is `sqrt 2 / 2`
//!   steps.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{
    faces, label, nearest, num, piece_color, piece_name, push_group, Cover, Metrics, Panel, Style,
    Tiling, INK,
};
use crate::grid::PolyGrid;

/// One layer's picture and the `z` its caption names.
pub(super) struct Layer {
    pub(super) z: i32,
    pub(super) panel: Panel,
}

/// Lays out layers of one width and height in a row (up to five) or in a
/// block of rows about as wide as high, each under its caption `z = ...`.
/// `w` and `h` are a layer's size without its caption.
pub(super) fn arrange(layers: Vec<Layer>, w: f64, h: f64, m: &Metrics) -> Panel {
    let gap = m.gap;
    let caption_h = m.caption_font * 1.5;
    let lh = caption_h + h;
    let depth = layers.len().max(1);
    let columns = if depth <= 5 {
        depth
    } else {
        (depth as f64).sqrt().ceil() as usize
    };
    let rows = depth.div_ceil(columns);
    let mut out = String::new();
    for (i, layer) in layers.into_iter().enumerate() {
        let mut body = String::new();
        let _ = writeln!(
            body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"#555555\">z = {}</text>",
            num(w / 2.0),
            num(m.caption_font),
            num(m.caption_font),
            layer.z
        );
        push_group(&mut body, 0.0, caption_h, &layer.panel.body);
        let x = (i % columns) as f64 * (w + gap);
        let y = (i / columns) as f64 * (lh + gap);
        push_group(&mut out, x, y, &body);
    }
    Panel {
        w: columns as f64 * w + (columns - 1) as f64 * gap,
        h: rows as f64 * lh + (rows - 1) as f64 * gap,
        body: out,
    }
}

/// Prisms: each layer's triangles, all layers in one frame.
pub(super) fn prisms(t: &Tiling, style: &Style, m: &Metrics) -> Panel {
    let mut by_layer: BTreeMap<i32, Vec<([i32; 3], u32, u32)>> = BTreeMap::new();
    for &([x, y, w], placement, piece) in &t.cells {
        by_layer.entry(w.div_euclid(2)).or_default().push((
            [x, y, w.rem_euclid(2)],
            placement,
            piece,
        ));
    }
    let (Some(&first), Some(&last)) = (by_layer.keys().next(), by_layer.keys().next_back()) else {
        return Panel::empty();
    };
    let every: Vec<[i32; 3]> = by_layer.values().flatten().map(|c| c.0).collect();
    let frame = faces::frame(PolyGrid::Triangle, &every);
    let mut layers = Vec::new();
    let (mut w, mut h) = (0.0, 0.0);
    for z in first..=last {
        let layer = Tiling {
            grid: PolyGrid::Triangle,
            cells: by_layer.remove(&z).unwrap_or_default(),
            pieces: t.pieces.clone(),
            title: None,
        };
        let panel = faces::content_in(&layer, style, m, frame);
        (w, h) = (panel.w, panel.h);
        layers.push(Layer { z, panel });
    }
    arrange(layers, w, h, m)
}

/// One step of a sphere's coordinate, in cells.
const SPHERE_STEP: f64 = 0.75;

/// Spheres: each layer's balls, all layers in one frame.
pub(super) fn spheres(t: &Tiling, style: &Style, m: &Metrics) -> Panel {
    let mut balls: BTreeMap<[i32; 3], Cover> = BTreeMap::new();
    for &(p, placement, piece) in &t.cells {
        balls.entry(p).or_insert((placement, piece));
    }
    let Some(lo) = corner(balls.keys(), i32::min) else {
        return Panel::empty();
    };
    let hi = corner(balls.keys(), i32::max).unwrap_or(lo);
    let step = m.cell * SPHERE_STEP;
    let r = step * std::f64::consts::FRAC_1_SQRT_2;
    let w = f64::from(hi[0] - lo[0]) * step + 2.0 * r;
    let h = f64::from(hi[1] - lo[1]) * step + 2.0 * r;
    let at = |p: [i32; 3]| {
        (
            r + f64::from(p[0] - lo[0]) * step,
            r + f64::from(p[1] - lo[1]) * step,
        )
    };
    let layers = (lo[2]..=hi[2])
        .map(|z| {
            let here: BTreeMap<[i32; 3], Cover> = balls
                .iter()
                .filter(|(p, _)| p[2] == z)
                .map(|(&p, &c)| (p, c))
                .collect();
            Layer {
                z,
                panel: Panel {
                    w,
                    h,
                    body: sphere_layer(t, &here, &at, r, style, m),
                },
            }
        })
        .collect();
    arrange(layers, w, h, m)
}

/// The least (or greatest) of each coordinate.
fn corner<'a>(
    points: impl Iterator<Item = &'a [i32; 3]>,
    pick: fn(i32, i32) -> i32,
) -> Option<[i32; 3]> {
    points.fold(None, |acc, p| {
        Some(match acc {
            None => *p,
            Some(a) => [pick(a[0], p[0]), pick(a[1], p[1]), pick(a[2], p[2])],
        })
    })
}

/// The balls of one layer: bars within placements, then the balls with
/// their shading, then the labels.
fn sphere_layer(
    t: &Tiling,
    here: &BTreeMap<[i32; 3], Cover>,
    at: &dyn Fn([i32; 3]) -> (f64, f64),
    r: f64,
    style: &Style,
    m: &Metrics,
) -> String {
    let mut out = String::new();
    if here.is_empty() {
        return out;
    }
    let _ = writeln!(
        out,
        "<defs><radialGradient id=\"ball\" cx=\"0.35\" cy=\"0.3\" r=\"0.75\">\
         <stop offset=\"0\" stop-color=\"#ffffff\" stop-opacity=\"0.75\"/>\
         <stop offset=\"0.45\" stop-color=\"#ffffff\" stop-opacity=\"0\"/>\
         <stop offset=\"1\" stop-color=\"#000000\" stop-opacity=\"0.3\"/>\
         </radialGradient></defs>"
    );
    // bars: to the two touching spheres to the right, once each
    for (&p, &(placement, piece)) in here {
        for q in [[p[0] + 1, p[1] - 1, p[2]], [p[0] + 1, p[1] + 1, p[2]]] {
            if here.get(&q).is_some_and(|c| c.0 == placement) {
                let ((ax, ay), (bx, by)) = (at(p), at(q));
                let _ = writeln!(
                    out,
                    "<path class=\"bond\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"round\" d=\"M{} {}L{} {}\"/>",
                    piece_color(piece).darker(0.35).hex(),
                    num(r * 0.8),
                    num(ax),
                    num(ay),
                    num(bx),
                    num(by)
                );
            }
        }
    }
    for (&p, &(_, piece)) in here {
        let (x, y) = at(p);
        let (cx, cy, rr) = (num(x), num(y), num(r * 0.92));
        let _ = writeln!(
            out,
            "<circle class=\"ball\" cx=\"{cx}\" cy=\"{cy}\" r=\"{rr}\" fill=\"{}\" stroke=\"{INK}\" stroke-width=\"{}\"/>\
             <circle cx=\"{cx}\" cy=\"{cy}\" r=\"{rr}\" fill=\"url(#ball)\"/>",
            piece_color(piece).hex(),
            num(m.thin)
        );
    }
    if style.labels {
        let mut placements: BTreeMap<u32, (u32, Vec<(f64, f64)>)> = BTreeMap::new();
        for (&p, &(placement, piece)) in here {
            placements
                .entry(placement)
                .or_insert((piece, Vec::new()))
                .1
                .push(at(p));
        }
        let _ = writeln!(
            out,
            "<g class=\"labels\" font-size=\"{}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{INK}\">",
            num(m.label_font)
        );
        for (piece, centres) in placements.values() {
            let name = piece_name(&t.pieces, *piece);
            label(
                &mut out,
                nearest(centres),
                &name,
                *piece,
                m.label_font,
                r * 1.6,
            );
        }
        out.push_str("</g>\n");
    }
    out
}
