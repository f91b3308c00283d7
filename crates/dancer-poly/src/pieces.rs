//! Named pieces and piece sets.
//!
//! * `pentominoes`: the 12 with their usual letters F I L N P T U V W X Y Z;
//! * `tetrominoes`: I O T S L; `trominoes`: I V; `dominoes`: D; `monominoes`: O;
//! * `hexominoes`: the 35, named H01..H35 in a fixed order (by canonical
//!   form);
//! * `soma`: Piet Hein's 7 pieces V L T Z A B P (A and B are mirror images,
//!   so Soma pieces may only be rotated);
//! * `pentacubes`: the 29 pentacubes distinct under rotation: the 12 flat
//!   ones under their pentomino letters, and the 17 others named Q01..Q17
//!   (mirror pairs next to each other).
//!
//! A single piece of a set is found by name, e.g. `Y` (the Y pentomino) or
//! `pentacubes/N`.

use crate::geometry::{canonical, enumerate, symmetries, Cell, Transform};

/// A piece: its name and cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub name: String,
    pub cells: Vec<Cell>,
    /// 2 for polyominoes, 3 for polycubes.
    pub dim: u8,
}

impl Shape {
    /// The piece drawn in text, one line per row (y), `#` for a cell and
    /// `.` for none; the layers of a solid (z) side by side, three spaces
    /// apart. Each line starts with `indent` and ends with a newline.
    pub fn drawing(&self, indent: &str) -> String {
        let cells = crate::geometry::normalize(&self.cells);
        let ext = cells.iter().fold([0; 3], |m, c| {
            [m[0].max(c[0] + 1), m[1].max(c[1] + 1), m[2].max(c[2] + 1)]
        });
        let mut out = String::new();
        for y in 0..ext[1] {
            out.push_str(indent);
            for z in 0..ext[2] {
                if z > 0 {
                    out.push_str("   ");
                }
                for x in 0..ext[0] {
                    out.push(if cells.contains(&[x, y, z]) { '#' } else { '.' });
                }
            }
            out.push('\n');
        }
        out
    }
}

/// Parses a small picture: `#` (or any letter) is a cell, `.` or space is
/// not; rows top to bottom are y = 0, 1, ...
pub fn picture(rows: &[&str]) -> Vec<Cell> {
    let mut v = Vec::new();
    for (y, r) in rows.iter().enumerate() {
        for (x, c) in r.chars().enumerate() {
            if c != '.' && c != ' ' {
                v.push([x as i32, y as i32, 0]);
            }
        }
    }
    v
}

fn shape(name: &str, rows: &[&str]) -> Shape {
    Shape {
        name: name.to_string(),
        cells: picture(rows),
        dim: 2,
    }
}

pub fn pentominoes() -> Vec<Shape> {
    vec![
        shape("F", &[".##", "##.", ".#."]),
        shape("I", &["#####"]),
        shape("L", &["####", "#..."]),
        shape("N", &["##..", ".###"]),
        shape("P", &["##", "##", "#."]),
        shape("T", &["###", ".#.", ".#."]),
        shape("U", &["#.#", "###"]),
        shape("V", &["#..", "#..", "###"]),
        shape("W", &["#..", "##.", ".##"]),
        shape("X", &[".#.", "###", ".#."]),
        shape("Y", &["####", ".#.."]),
        shape("Z", &["##.", ".#.", ".##"]),
    ]
}

pub fn tetrominoes() -> Vec<Shape> {
    vec![
        shape("I", &["####"]),
        shape("O", &["##", "##"]),
        shape("T", &["###", ".#."]),
        shape("S", &[".##", "##."]),
        shape("L", &["###", "#.."]),
    ]
}

pub fn trominoes() -> Vec<Shape> {
    vec![shape("I", &["###"]), shape("V", &["##", "#."])]
}

pub fn dominoes() -> Vec<Shape> {
    vec![shape("D", &["##"])]
}

pub fn monominoes() -> Vec<Shape> {
    vec![shape("O", &["#"])]
}

pub fn hexominoes() -> Vec<Shape> {
    enumerate(6, 2, &symmetries(2))
        .into_iter()
        .enumerate()
        .map(|(i, cells)| Shape {
            name: format!("H{:02}", i + 1),
            cells,
            dim: 2,
        })
        .collect()
}

fn cube(name: &str, cells: &[[i32; 3]]) -> Shape {
    Shape {
        name: name.to_string(),
        cells: cells.to_vec(),
        dim: 3,
    }
}

pub fn soma() -> Vec<Shape> {
    vec![
        cube("V", &[[0, 0, 0], [1, 0, 0], [0, 1, 0]]),
        cube("L", &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]]),
        cube("T", &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0]]),
        cube("Z", &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]]),
        cube("A", &[[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 0, 1]]),
        cube("B", &[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 1]]),
        cube("P", &[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]),
    ]
}

pub fn pentacubes() -> Vec<Shape> {
    let g3 = symmetries(3);
    let rot: Vec<Transform> = g3.iter().copied().filter(Transform::is_rotation).collect();
    let flat: Vec<(String, Vec<Cell>)> = pentominoes()
        .into_iter()
        .map(|s| (s.name, canonical(&s.cells, &rot)))
        .collect();
    let mut named = Vec::new();
    let mut others = Vec::new();
    for cells in enumerate(5, 3, &rot) {
        match flat.iter().find(|(_, f)| *f == cells) {
            Some((n, _)) => named.push(cube(n, &cells)),
            None => others.push(cells),
        }
    }
    // order the non-flat ones so that mirror images sit together
    let mirror = Transform {
        perm: [0, 1, 2],
        sign: [-1, 1, 1],
    };
    let mut ordered: Vec<Vec<Cell>> = Vec::new();
    others.sort();
    for c in &others {
        if ordered.contains(c) {
            continue;
        }
        ordered.push(c.clone());
        let m = canonical(
            &c.iter().map(|&p| mirror.apply(p)).collect::<Vec<_>>(),
            &rot,
        );
        if m != *c && others.contains(&m) && !ordered.contains(&m) {
            ordered.push(m);
        }
    }
    named.sort_by_key(|s| "FILNPTUVWXYZ".find(&s.name).unwrap_or(99));
    for (i, cells) in ordered.into_iter().enumerate() {
        named.push(cube(&format!("Q{:02}", i + 1), &cells));
    }
    named
}

/// The named sets, as (name, pieces).
pub fn set(name: &str) -> Option<Vec<Shape>> {
    Some(match name {
        "pentominoes" | "pentomino" => pentominoes(),
        "tetrominoes" | "tetromino" => tetrominoes(),
        "trominoes" | "tromino" | "triominoes" => trominoes(),
        "dominoes" | "domino" => dominoes(),
        "monominoes" | "monomino" => monominoes(),
        "hexominoes" | "hexomino" => hexominoes(),
        "soma" => soma(),
        "pentacubes" | "pentacube" => pentacubes(),
        _ => return None,
    })
}

/// Names of the sets.
pub const SETS: &[&str] = &[
    "monominoes",
    "dominoes",
    "trominoes",
    "tetrominoes",
    "pentominoes",
    "hexominoes",
    "soma",
    "pentacubes",
];

/// The grid a named set or piece (`set/NAME`, or a bare name as
/// [`piece`] finds it) lives on.
pub fn grid_of(name: &str) -> Option<crate::grid::PolyGrid> {
    use crate::grid::PolyGrid;
    let shape = match name.split_once('/') {
        Some(_) => piece(name)?,
        None => match set(name) {
            Some(shapes) => shapes.into_iter().next()?,
            None => piece(name)?,
        },
    };
    Some(if shape.dim == 3 {
        PolyGrid::Cube
    } else {
        PolyGrid::Square
    })
}

/// The one-sided set of free pieces: each piece, and after it its mirror
/// image when that is no rotation of a piece of the set, named with its
/// first letter lower-cased (P -> p). Every piece then goes unturned.
pub fn one_sided(grid: crate::grid::PolyGrid, shapes: Vec<Shape>) -> Vec<Shape> {
    let rotations = grid.rotations();
    let Some(mirror) = grid.symmetries().into_iter().find(|t| !t.is_rotation()) else {
        return shapes;
    };
    let mut seen: Vec<Vec<Cell>> = shapes
        .iter()
        .map(|s| grid.canonical_under(&s.cells, &rotations))
        .collect();
    let mut out = Vec::new();
    for s in shapes {
        let image = grid.image(&mirror, &s.cells);
        let key = grid.canonical_under(&image, &rotations);
        let twin = (!seen.contains(&key)).then(|| {
            let mut name = s.name.clone();
            if let Some(first) = name.chars().next() {
                name.replace_range(..first.len_utf8(), &first.to_lowercase().to_string());
            }
            Shape {
                name,
                cells: image,
                dim: s.dim,
            }
        });
        seen.push(key);
        out.push(s);
        out.extend(twin);
    }
    out
}

/// Finds one piece: `set/NAME`, or a bare name looked up in the
/// pentominoes, then tetrominoes, trominoes, soma, pentacubes, hexominoes.
pub fn piece(name: &str) -> Option<Shape> {
    if let Some((s, n)) = name.split_once('/') {
        return set(s)?.into_iter().find(|p| p.name == n);
    }
    for s in [
        "pentominoes",
        "tetrominoes",
        "trominoes",
        "soma",
        "pentacubes",
        "hexominoes",
    ] {
        if let Some(p) = set(s).unwrap().into_iter().find(|p| p.name == name) {
            return Some(p);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{is_connected, normalize};

    #[test]
    fn sets_are_right() {
        let g2 = symmetries(2);
        let p = pentominoes();
        assert_eq!(p.len(), 12);
        let mut forms: Vec<_> = p.iter().map(|s| canonical(&s.cells, &g2)).collect();
        forms.sort();
        forms.dedup();
        assert_eq!(forms.len(), 12, "12 distinct pentominoes");
        assert!(p
            .iter()
            .all(|s| s.cells.len() == 5 && is_connected(&s.cells)));
        assert_eq!(tetrominoes().len(), 5);
        assert_eq!(hexominoes().len(), 35);
        assert_eq!(pentacubes().len(), 29);
        assert_eq!(
            pentacubes()
                .iter()
                .filter(|s| s.name.starts_with('Q'))
                .count(),
            17
        );
        let s = soma();
        assert_eq!(s.iter().map(|p| p.cells.len()).sum::<usize>(), 27);
        // A and B are mirror images, not rotations of each other
        let g3 = symmetries(3);
        let rot: Vec<_> = g3.iter().copied().filter(Transform::is_rotation).collect();
        assert_ne!(canonical(&s[4].cells, &rot), canonical(&s[5].cells, &rot));
        assert_eq!(canonical(&s[4].cells, &g3), canonical(&s[5].cells, &g3));
        assert_eq!(piece("X").unwrap().cells.len(), 5);
        assert_eq!(piece("soma/A").unwrap().dim, 3);
        assert_eq!(piece("pentacubes/N").unwrap().dim, 3);
        assert!(piece("nope").is_none());
        assert_eq!(normalize(&piece("I").unwrap().cells).len(), 5);
    }
}
