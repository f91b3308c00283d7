//! Cubes: a 3D tiling as its layers `z = 0, 1, ...` (each drawn as
//! [`super::flat`] draws squares, with a caption), in a row or a block of
//! rows, and, when [`Style::isometric`] is set, an isometric view of the
//! whole solid beside or below them, whichever gives the rounder picture.
//! The isometric view paints cubes far to near and draws only the faces no
//! neighbour hides, with thick edges where placements meet or the solid
//! ends.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::flat::{bounds, draw_layer, Layer};
use super::{num, piece_color, push_group, Cover, Metrics, Panel, Style, Tiling, INK};

/// cos 30 degrees: horizontal extent of a unit step in the isometric view.
const COS30: f64 = 0.866_025_403_784_438_6;

pub(super) fn content_3d(t: &Tiling, style: &Style, m: &Metrics) -> Panel {
    let Some((lo, hi)) = bounds(t.cells.iter().map(|c| c.0)) else {
        return Panel::empty();
    };
    let size = [hi[0] - lo[0] + 1, hi[1] - lo[1] + 1, hi[2] - lo[2] + 1];
    let mut cubes: BTreeMap<[i32; 3], Cover> = BTreeMap::new();
    for &(p, placement, piece) in &t.cells {
        let q = [p[0] - lo[0], p[1] - lo[1], p[2] - lo[2]];
        cubes.entry(q).or_insert((placement, piece));
    }
    let c = m.cell;
    let gap = m.gap;
    let caption_h = m.caption_font * 1.5;
    let lw = f64::from(size[0]) * c;
    let lh = caption_h + f64::from(size[1]) * c;
    let depth = size[2] as usize;
    let columns = if depth <= 5 {
        depth
    } else {
        (depth as f64).sqrt().ceil() as usize
    };
    let rows = depth.div_ceil(columns);
    let bw = columns as f64 * lw + (columns - 1) as f64 * gap;
    let bh = rows as f64 * lh + (rows - 1) as f64 * gap;

    let mut layers = String::new();
    for z in 0..size[2] {
        let layer = Layer {
            w: size[0],
            h: size[1],
            cells: cubes
                .iter()
                .filter(|(p, _)| p[2] == z)
                .map(|(p, &cover)| ((p[0], p[1]), cover))
                .collect(),
        };
        let mut body = String::new();
        let _ = writeln!(
            body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"#555555\">z = {}</text>",
            num(lw / 2.0),
            num(m.caption_font),
            num(m.caption_font),
            z + lo[2]
        );
        let mut cells = String::new();
        draw_layer(&mut cells, &layer, &t.pieces, m, style.labels);
        push_group(&mut body, 0.0, caption_h, &cells);
        let i = z as usize;
        let x = (i % columns) as f64 * (lw + gap);
        let y = (i / columns) as f64 * (lh + gap);
        push_group(&mut layers, x, y, &body);
    }

    if !style.isometric {
        return Panel {
            w: bw,
            h: bh,
            body: layers,
        };
    }
    let iso = isometric(&cubes, size, m);
    // Beside or below, whichever gives the rounder picture.
    let beside = (bw + gap + iso.w, bh.max(iso.h));
    let below = (bw.max(iso.w), bh + gap + iso.h);
    let badness = |(w, h): (f64, f64)| (w / h / 1.6).ln().abs();
    let mut body = String::new();
    if badness(beside) <= badness(below) {
        push_group(&mut body, 0.0, (beside.1 - bh) / 2.0, &layers);
        push_group(&mut body, bw + gap, (beside.1 - iso.h) / 2.0, &iso.body);
        Panel {
            w: beside.0,
            h: beside.1,
            body,
        }
    } else {
        push_group(&mut body, (below.0 - bw) / 2.0, 0.0, &layers);
        push_group(&mut body, (below.0 - iso.w) / 2.0, bh + gap, &iso.body);
        Panel {
            w: below.0,
            h: below.1,
            body,
        }
    }
}

/// The isometric view: x goes down to the right, y down to the left, z up.
/// Visible faces are top (+z), left (+y) and right (+x).
fn isometric(cubes: &BTreeMap<[i32; 3], Cover>, size: [i32; 3], m: &Metrics) -> Panel {
    let s = m.cell;
    let pad = m.border;
    let [w, h, d] = size.map(f64::from);
    let project = |p: [i32; 3]| -> (f64, f64) {
        let [x, y, z] = p.map(f64::from);
        (
            pad + (h + x - y) * s * COS30,
            pad + (d - z) * s + (x + y) * s * 0.5,
        )
    };
    let at = |p: [i32; 3]| cubes.get(&p).map(|c| c.0);
    // Painter's algorithm: farther cubes (smaller x + y + z) first. Cubes
    // with equal sums never overlap on the picture.
    let mut order: Vec<(&[i32; 3], &Cover)> = cubes.iter().collect();
    order.sort_by_key(|(p, _)| (p[0] + p[1] + p[2], p[2], p[1], p[0]));

    let mut body = String::new();
    for (&p, &(placement, piece)) in order {
        let base = piece_color(piece);
        let mut edges = String::new();
        // (normal axis, shade)
        for (n, face) in [
            (2, base.lighter(0.22)),
            (1, base.darker(0.1)),
            (0, base.darker(0.28)),
        ] {
            let mut normal = [0; 3];
            normal[n] = 1;
            if at(add(p, normal)).is_some() {
                continue; // covered by the neighbour in front
            }
            let (t, u) = ((n + 1) % 3, (n + 2) % 3);
            let corner = |a: i32, b: i32| {
                let mut q = p;
                q[n] += 1;
                q[t] += a;
                q[u] += b;
                project(q)
            };
            let quad = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
            let mut dpath = String::new();
            for (i, (x, y)) in quad.iter().enumerate() {
                let _ = write!(
                    dpath,
                    "{}{} {}",
                    if i == 0 { "M" } else { "L" },
                    num(*x),
                    num(*y)
                );
            }
            dpath.push('Z');
            let _ = writeln!(
                body,
                "<path fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\" stroke-linejoin=\"round\" d=\"{dpath}\"/>",
                face.hex(),
                face.darker(0.3).hex(),
                num(m.thin * 0.75)
            );
            // The four edges of the face: towards -t, +t, -u, +u.
            for (axis, sign) in [(t, -1), (t, 1), (u, -1), (u, 1)] {
                let mut dir = [0; 3];
                dir[axis] = sign;
                let thick = match at(add(add(p, dir), normal)) {
                    // A concave crease against a cube beside and above.
                    Some(other) => other != placement,
                    None => match at(add(p, dir)) {
                        // The face goes on over the neighbour.
                        Some(other) => other != placement,
                        // A convex edge or the outline: empty space.
                        None => true,
                    },
                };
                if thick {
                    let k = i32::from(sign > 0);
                    let (a, b) = if axis == t {
                        (corner(k, 0), corner(k, 1))
                    } else {
                        (corner(0, k), corner(1, k))
                    };
                    let _ = write!(
                        edges,
                        "M{} {}L{} {}",
                        num(a.0),
                        num(a.1),
                        num(b.0),
                        num(b.1)
                    );
                }
            }
        }
        if !edges.is_empty() {
            let _ = writeln!(
                body,
                "<path fill=\"none\" stroke=\"{INK}\" stroke-width=\"{}\" stroke-linecap=\"round\" d=\"{edges}\"/>",
                num(m.border * 0.8)
            );
        }
    }
    Panel {
        w: (w + h) * s * COS30 + 2.0 * pad,
        h: (w + h) * s * 0.5 + d * s + 2.0 * pad,
        body,
    }
}

fn add(a: [i32; 3], b: [i32; 3]) -> [i32; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
