//! Writing a `.xmpuzzle` file: BurrTools' XML, gzipped as BurrTools writes
//! it. Shapes are written as voxel strings in their boxes (`_` empty, `#`
//! filled, `+` variable, a colour number after a coloured cell), problems
//! unsolved (`state="0"`): BurrTools finds its own assemblies.

use super::{BurrFile, BurrShape};
use crate::render::escape;
use std::fmt::Write as _;
use std::io::Write as _;

/// The file as gzipped XML.
pub fn write(file: &BurrFile) -> Vec<u8> {
    let xml = xml(file);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(xml.as_bytes()).expect("writing to memory");
    gz.finish().expect("writing to memory")
}

/// The file as XML text.
pub fn xml(file: &BurrFile) -> String {
    let mut s = String::from("<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n");
    let _ = writeln!(s, "  <gridType type=\"{}\"/>", file.grid.number());
    if file.colours.is_empty() {
        s.push_str("  <colors/>\n");
    } else {
        s.push_str("  <colors>\n");
        for [r, g, b] in &file.colours {
            let _ = writeln!(s, "    <color red=\"{r}\" green=\"{g}\" blue=\"{b}\"/>");
        }
        s.push_str("  </colors>\n");
    }
    s.push_str("  <shapes>\n");
    for shape in &file.shapes {
        shape_xml(&mut s, shape);
    }
    s.push_str("  </shapes>\n  <problems>\n");
    for p in &file.problems {
        let name = p
            .name
            .as_deref()
            .map(|n| format!(" name=\"{}\"", escape(n)));
        let holes = p.max_holes.map(|h| format!(" maxHoles=\"{h}\""));
        let _ = writeln!(
            s,
            "    <problem{} state=\"0\"{}>",
            name.unwrap_or_default(),
            holes.unwrap_or_default()
        );
        s.push_str("      <shapes>\n");
        for part in &p.parts {
            let count = if part.min == part.max {
                format!("count=\"{}\"", part.max)
            } else {
                format!("min=\"{}\" max=\"{}\"", part.min, part.max)
            };
            match part.groups.as_slice() {
                [] => {
                    let _ = writeln!(s, "        <shape id=\"{}\" {count}/>", part.shape);
                }
                [(g, k)] if *k == part.max => {
                    let _ = writeln!(
                        s,
                        "        <shape id=\"{}\" {count} group=\"{g}\"/>",
                        part.shape
                    );
                }
                groups => {
                    let _ = writeln!(s, "        <shape id=\"{}\" {count}>", part.shape);
                    for (g, k) in groups {
                        let _ = writeln!(s, "          <group group=\"{g}\" count=\"{k}\"/>");
                    }
                    s.push_str("        </shape>\n");
                }
            }
        }
        s.push_str("      </shapes>\n");
        let _ = writeln!(s, "      <result id=\"{}\"/>", p.result);
        if p.colour_pairs.is_empty() {
            s.push_str("      <bitmap/>\n");
        } else {
            s.push_str("      <bitmap>\n");
            for (a, b) in &p.colour_pairs {
                let _ = writeln!(s, "        <pair piece=\"{a}\" result=\"{b}\"/>");
            }
            s.push_str("      </bitmap>\n");
        }
        s.push_str("    </problem>\n");
    }
    s.push_str("  </problems>\n");
    if let Some(c) = &file.comment {
        let _ = writeln!(s, "  <comment>{}</comment>", escape(c));
    }
    s.push_str("</puzzle>\n");
    s
}

fn shape_xml(s: &mut String, shape: &BurrShape) {
    let [sx, sy, sz] = shape.size;
    let n = (sx * sy * sz).max(0) as usize;
    let mut cells: Vec<Option<(bool, u8)>> = vec![None; n];
    for v in &shape.voxels {
        let [x, y, z] = v.at;
        cells[(x + sx * (y + sy * z)) as usize] = Some((v.variable, v.colour));
    }
    let mut text = String::with_capacity(n);
    for c in cells {
        match c {
            None => text.push('_'),
            Some((variable, colour)) => {
                text.push(if variable { '+' } else { '#' });
                if colour > 0 {
                    let _ = write!(text, "{colour}");
                }
            }
        }
    }
    let name = shape
        .name
        .as_deref()
        .map(|n| format!(" name=\"{}\"", escape(n)));
    let weight = (shape.weight != 1).then(|| format!(" weight=\"{}\"", shape.weight));
    let [hx, hy, hz] = shape.hotspot;
    let hot = (shape.hotspot != [0; 3]).then(|| format!(" hx=\"{hx}\" hy=\"{hy}\" hz=\"{hz}\""));
    let _ = writeln!(
        s,
        "    <voxel x=\"{sx}\" y=\"{sy}\" z=\"{sz}\"{}{}{} type=\"0\">{text}</voxel>",
        weight.unwrap_or_default(),
        hot.unwrap_or_default(),
        name.unwrap_or_default()
    );
}
