//! Polyominoes and polycubes.
//!
//! * `pentominoes`: the 12 with their usual letters F I L N P T U V W X Y Z;
//! * `tetrominoes`: I O T S L; `trominoes`: I V; `dominoes`: D; `monominoes`: O;
//! * `hexominoes`: the 35, named H01..H35 in a fixed order (by canonical
//!   form);
//! * `soma`: Piet Hein's 7 pieces V L T Z A B P (A and B are mirror images,
//!   so Soma pieces may only be rotated);
//! * `pentacubes`: the 29 pentacubes distinct under rotation: the 12 flat
//!   ones under their pentomino letters, and the 17 others named Q01..Q17
//!   (mirror pairs next to each other);
//! * `tetracubes`: the 8 distinct under rotation, I4 L4 T4 S4 O4 B4 A4 P4
//!   (A4 and B4 a mirror pair; the names of Polyform Puzzler);
//! * `solid-pentominoes`: the 12 pentominoes as flat solids, one cube
//!   thick, under their letters.
//!
//! The cells of a solid are `[x, y, z]`, `z` the layer (the cubic grid of
//! [`crate::grid::square`]).

use super::Shape;
use crate::geometry::{canonical, enumerate, symmetries, Cell, Transform};
use crate::grid::PolyGrid;

fn shape(name: &str, rows: &[&str]) -> Shape {
    Shape {
        name: name.to_string(),
        cells: super::picture(rows),
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

/// The tetracubes: see the module documentation.
pub(super) fn tetracubes() -> Vec<Shape> {
    const TETRACUBES: &[(&str, &[Cell])] = &[
        ("I4", &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]]),
        ("L4", &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0]]),
        ("T4", &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 0, 0]]),
        ("S4", &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]]),
        ("O4", &[[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 0]]),
        ("B4", &[[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0]]),
        ("A4", &[[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 1]]),
        ("P4", &[[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0]]),
    ];
    super::shapes(PolyGrid::Cube, TETRACUBES)
}

/// The pentominoes as solids one cube thick.
pub(super) fn solid_pentominoes() -> Vec<Shape> {
    let solid = |s: Shape| Shape { dim: 3, ..s };
    pentominoes().into_iter().map(solid).collect()
}
