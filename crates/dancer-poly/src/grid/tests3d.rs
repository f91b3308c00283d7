//! The sphere and prism grids: counts against the published sequence and
//! against a brute force that shares no code with [`enumerate`], the
//! BurrTools coordinates, and the layer pictures.

use super::PolyGrid::{Prism, Sphere};
use super::*;
use std::collections::{BTreeSet, HashSet};

fn counts(grid: PolyGrid, up_to: usize, one_sided: bool) -> Vec<usize> {
    (1..=up_to)
        .map(|n| enumerate(grid, n, one_sided).len())
        .collect()
}

/// The pieces of `n` spheres counted by their contacts (pairs of
/// neighbours), from `n - 1`.
fn by_contacts(n: usize) -> Vec<usize> {
    let mut out = Vec::new();
    for p in enumerate(Sphere, n, false) {
        let pairs: usize = p
            .iter()
            .map(|&c| {
                Sphere
                    .neighbours(c)
                    .iter()
                    .filter(|m| p.contains(m))
                    .count()
            })
            .sum();
        let c = pairs / 2 + 1 - n;
        out.resize(out.len().max(c + 1), 0);
        out[c] += 1;
    }
    out
}

#[test]
fn polyspheres() {
    // OEIS A300812 (R. J. Mathar): T(n, c), the clusters of n spheres on
    // the f.c.c. lattice with c contacts, connected by contacts, free under
    // the 48 symmetries of the octahedral group and translations; the
    // rows from c = n - 1, their sums 1, 1, 4, 20, 131, 1211, 12734
    let rows: [&[usize]; 7] = [
        &[1],
        &[1],
        &[3, 1],
        &[13, 4, 2, 1],
        &[75, 35, 16, 3, 2],
        &[557, 384, 184, 54, 24, 5, 2, 1],
        &[4808, 4230, 2354, 834, 355, 104, 37, 9, 2, 1],
    ];
    for (n, row) in (1..).zip(rows) {
        assert_eq!(by_contacts(n), row, "{n} spheres");
    }
}

#[test]
fn polyspheres_one_sided() {
    // the brute force's values (below): 5 of the 20 tetraspheres are
    // chiral; flat pieces turn over (the 120-degree trisphere would count
    // twice under the lattice's 24 rotations alone)
    assert_eq!(counts(Sphere, 6, true), [1, 1, 4, 25, 210, 2209]);
    assert_eq!(counts(Sphere, 5, true), brute_counts(&SphereBrute, 5, true));
}

#[test]
fn polyprisms() {
    // no published sequence found: the brute force below agrees
    assert_eq!(counts(Prism, 7, false), [1, 2, 3, 11, 30, 137, 606]);
    assert_eq!(counts(Prism, 7, true), [1, 2, 3, 13, 43, 221, 1095]);
    assert_eq!(counts(Prism, 6, false), brute_counts(&PrismBrute, 6, false));
    assert_eq!(counts(Prism, 6, true), brute_counts(&PrismBrute, 6, true));
}

#[test]
fn flat_polyprisms_are_polyiamonds() {
    // OEIS A000577: the pieces lying in one layer, free or one-sided (a
    // flat piece turns over in space)
    for one_sided in [false, true] {
        let flat: Vec<usize> = (1..=7)
            .map(|n| {
                let pieces = enumerate(Prism, n, one_sided);
                pieces.iter().filter(|p| p.iter().all(|c| c[2] < 2)).count()
            })
            .collect();
        assert_eq!(flat, [1, 1, 1, 3, 4, 12, 24]);
    }
}

#[test]
fn polyspheres_agree_with_the_brute_force() {
    assert_eq!(
        counts(Sphere, 6, false),
        brute_counts(&SphereBrute, 6, false)
    );
}

#[test]
fn orientations_add_up_to_the_fixed_pieces() {
    // each free piece in each of its orientations is a piece up to
    // translation, once
    for (grid, n) in [(Sphere, 5), (Prism, 5)] {
        let all = grid.symmetries();
        let oriented: usize = enumerate(grid, n, false)
            .iter()
            .map(|p| grid.orientations(p, &all).len())
            .sum();
        let fixed = match grid {
            Sphere => fixed_pieces(&SphereBrute, n).len(),
            _ => fixed_pieces(&PrismBrute, n).len(),
        };
        assert_eq!(oriented, fixed, "{}", grid.name());
    }
}

/// Symmetries as functions, each with whether it is a rotation.
type Moves<C> = Vec<(bool, Box<dyn Fn(C) -> C>)>;

/// A grid for the brute force, in coordinates of its own: cells as
/// vectors, the steps to neighbours, every symmetry as a function with its
/// handedness, and a normal form under translations.
trait Brute {
    type C: Copy + Ord + std::hash::Hash;
    fn origins(&self) -> Vec<Self::C>;
    fn neighbours(&self, c: Self::C) -> Vec<Self::C>;
    /// `(proper, image)` for each of the grid's symmetries.
    fn symmetries(&self) -> Moves<Self::C>;
    /// The shape translated so that its least cell is at a fixed place.
    fn normal(&self, cells: &BTreeSet<Self::C>) -> Vec<Self::C>;
    /// Whether a one-sided piece may turn over anyway (flat spheres).
    fn turns_over(&self, cells: &[Self::C]) -> bool;
}

/// Every piece of `n` cells up to translation, grown a cell at a time.
fn fixed_pieces<B: Brute>(b: &B, n: usize) -> HashSet<Vec<B::C>> {
    let mut level: HashSet<Vec<B::C>> = b
        .origins()
        .into_iter()
        .map(|c| b.normal(&BTreeSet::from([c])))
        .collect();
    for _ in 1..n {
        let mut next = HashSet::new();
        for shape in &level {
            for &c in shape {
                for m in b.neighbours(c) {
                    let mut grown: BTreeSet<B::C> = shape.iter().copied().collect();
                    if grown.insert(m) {
                        next.insert(b.normal(&grown));
                    }
                }
            }
        }
        level = next;
    }
    level
}

/// The number of pieces of 1 to `up_to` cells up to the symmetries
/// (proper ones only when `one_sided`, unless the piece turns over).
fn brute_counts<B: Brute>(b: &B, up_to: usize, one_sided: bool) -> Vec<usize> {
    let syms = b.symmetries();
    (1..=up_to)
        .map(|n| {
            let classes: HashSet<Vec<B::C>> = fixed_pieces(b, n)
                .iter()
                .map(|p| {
                    let all = !one_sided || b.turns_over(p);
                    syms.iter()
                        .filter(|(proper, _)| all || *proper)
                        .map(|(_, f)| b.normal(&p.iter().map(|&c| f(c)).collect()))
                        .min()
                        .unwrap()
                })
                .collect();
            classes.len()
        })
        .collect()
}

/// Spheres as the even points of `Z^3`; the symmetries as the 6
/// permutations of the axes times the 8 sign changes.
struct SphereBrute;

impl Brute for SphereBrute {
    type C = [i32; 3];
    fn origins(&self) -> Vec<[i32; 3]> {
        vec![[0, 0, 0]]
    }
    fn neighbours(&self, c: [i32; 3]) -> Vec<[i32; 3]> {
        let mut out = Vec::new();
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            for (si, sj) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                let mut m = c;
                m[i] += si;
                m[j] += sj;
                out.push(m);
            }
        }
        out
    }
    fn symmetries(&self) -> Moves<[i32; 3]> {
        let perms = [
            ([0, 1, 2], 1),
            ([1, 2, 0], 1),
            ([2, 0, 1], 1),
            ([1, 0, 2], -1),
            ([0, 2, 1], -1),
            ([2, 1, 0], -1),
        ];
        let mut out: Moves<[i32; 3]> = Vec::new();
        for (p, parity) in perms {
            for signs in 0..8 {
                let s = [0, 1, 2].map(|k| if signs >> k & 1 == 1 { -1 } else { 1 });
                let proper = parity * s[0] * s[1] * s[2] == 1;
                out.push((proper, Box::new(move |c| [0, 1, 2].map(|k| s[k] * c[p[k]]))));
            }
        }
        out
    }
    fn normal(&self, cells: &BTreeSet<[i32; 3]>) -> Vec<[i32; 3]> {
        let o = *cells.first().unwrap();
        cells
            .iter()
            .map(|c| [0, 1, 2].map(|k| c[k] - o[k]))
            .collect()
    }
    fn turns_over(&self, cells: &[[i32; 3]]) -> bool {
        // flat: every triple of steps from the first sphere is dependent
        let o = cells[0];
        let d: Vec<[i64; 3]> = cells
            .iter()
            .map(|c| [0, 1, 2].map(|k| (c[k] - o[k]) as i64))
            .collect();
        d.iter().all(|a| {
            d.iter().all(|b| {
                d.iter().all(|c| {
                    a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                        + a[2] * (b[0] * c[1] - b[1] * c[0])
                        == 0
                })
            })
        })
    }
}

/// Prisms as `[i, j, l, z]`: a triangle is named by the three families of
/// lines of the triangle grid, `i + j + l` -1 for one kind and -2 for the
/// other; the plane's 12 symmetries are the permutations of `(i, j, l)`
/// and the half turn `i -> -i - 1` (each with `z` kept or turned over).
struct PrismBrute;

impl Brute for PrismBrute {
    type C = [i32; 4];
    fn origins(&self) -> Vec<[i32; 4]> {
        vec![[0, 0, -1, 0], [0, 0, -2, 0]]
    }
    fn neighbours(&self, c: [i32; 4]) -> Vec<[i32; 4]> {
        let step = if c[0] + c[1] + c[2] == -1 { -1 } else { 1 };
        let mut out = Vec::new();
        for k in 0..3 {
            let mut m = c;
            m[k] += step;
            out.push(m);
        }
        out.push([c[0], c[1], c[2], c[3] - 1]);
        out.push([c[0], c[1], c[2], c[3] + 1]);
        out
    }
    fn symmetries(&self) -> Moves<[i32; 4]> {
        let perms = [
            ([0, 1, 2], 1),
            ([1, 2, 0], 1),
            ([2, 0, 1], 1),
            ([1, 0, 2], -1),
            ([0, 2, 1], -1),
            ([2, 1, 0], -1),
        ];
        let mut out: Moves<[i32; 4]> = Vec::new();
        for (p, parity) in perms {
            for half in [false, true] {
                for flip in [1, -1] {
                    let f = move |c: [i32; 4]| {
                        let t = [c[p[0]], c[p[1]], c[p[2]]];
                        let t = if half { t.map(|v| -v - 1) } else { t };
                        [t[0], t[1], t[2], flip * c[3]]
                    };
                    out.push((parity * flip == 1, Box::new(f)));
                }
            }
        }
        out
    }
    fn normal(&self, cells: &BTreeSet<[i32; 4]>) -> Vec<[i32; 4]> {
        let o = *cells.first().unwrap();
        let s = o[0] + o[1] + o[2];
        let t = [-o[0], -o[1], s - o[2], -o[3]];
        cells
            .iter()
            .map(|c| [0, 1, 2, 3].map(|k| c[k] + t[k]))
            .collect()
    }
    fn turns_over(&self, _: &[[i32; 4]]) -> bool {
        false
    }
}

#[test]
fn lattice_vectors_and_kinds() {
    // a prism's third coordinate is 2z + k
    assert_eq!(Prism.translate([1, 2, 3], [1, 1, 1]), [2, 3, 5]);
    assert_eq!(
        (Prism.site([1, 2, 3]), Prism.kind([1, 2, 3])),
        ([1, 2, 1], 1)
    );
    assert_eq!(Prism.shift_between([0, 0, 1], [2, 3, 5]), Some([2, 3, 2]));
    assert_eq!(Prism.shift_between([0, 0, 0], [0, 0, 1]), None);
    assert_eq!(
        Prism.normalize(&[[5, 5, 7], [5, 5, 5]]),
        [[0, 0, 1], [0, 0, 3]]
    );
    assert_eq!(kinds(Prism), [[0, 0, 0], [0, 0, 1]]);
    assert!(Prism.is_cell([0, 0, -3]));
    // spheres: even sums only, and translations by even sums
    assert!(!Sphere.is_cell([1, 0, 0]));
    assert_eq!(kinds(Sphere), [[0, 0, 0]]);
    assert_eq!(Sphere.shift_between([0, 0, 0], [1, 2, 3]), Some([1, 2, 3]));
    assert_eq!(
        Sphere.normalize(&[[2, 1, 1], [3, 2, 1]]),
        [[0, 0, 0], [1, 1, 0]]
    );
    assert_eq!(
        Sphere.normalize(&[[1, 2, 1], [2, 1, 1]]),
        [[1, 1, 0], [2, 0, 0]]
    );
    for grid in [Sphere, Prism] {
        for p in enumerate(grid, 4, false) {
            assert!(p.iter().all(|&c| grid.is_cell(c)), "{p:?}");
            assert!(p.iter().flatten().all(|&v| v >= 0), "{p:?}");
        }
    }
}

#[test]
fn flat_spheres_turn_over() {
    // the 120-degree chain in the plane x + y + z = 0, and its mirror image
    let bent = vec![[0, 0, 0], [1, -1, 0], [2, -1, -1]];
    let mirror = Sphere.image(&Sphere.symmetries()[24], &bent);
    assert!(Sphere.turns_over(&bent));
    assert_eq!(Sphere.group_of(&bent, true).len(), 48);
    assert_eq!(
        Sphere.canonical(&bent, true),
        Sphere.canonical(&mirror, true)
    );
    let rotations = Sphere.rotations();
    assert_ne!(
        Sphere.canonical_under(&bent, &rotations),
        Sphere.canonical_under(&mirror, &rotations)
    );
    // a chain of four turning out of the plane is chiral
    let twisted = vec![[0, 0, 0], [1, 1, 0], [2, 1, 1], [2, 2, 2]];
    let mirror = Sphere.image(&Sphere.symmetries()[24], &twisted);
    assert!(!Sphere.turns_over(&twisted));
    assert_eq!(Sphere.group_of(&twisted, true).len(), 24);
    assert_ne!(
        Sphere.canonical(&twisted, true),
        Sphere.canonical(&mirror, true)
    );
    assert!(!Prism.turns_over(&[[0, 0, 0]]));
}

#[test]
fn burrtools_prisms() {
    // BurrTools' prism voxel (x, y, z): centre (1/2 + x/2, y h + h/3 or
    // 2h/3, z), h = sqrt(3)/2, pointing up when x + y is even, y upwards;
    // ours at the same place, up to one translation
    let h = 0.75f64.sqrt();
    let ours = |c: Cell| {
        let ([x, y, _], k) = prism::site_and_kind(c);
        let (x, y, k) = (x as f64, y as f64, k as f64);
        (x - y / 2.0 + k / 2.0, -h * (y + (2.0 - k) / 3.0))
    };
    for x in -4..4 {
        for y in -4..4 {
            let c = prism::from_burrtools([x, y, 3]);
            assert_eq!(prism::to_burrtools(c), [x, y, 3]);
            assert_eq!(Prism.kind(c), (x + y).rem_euclid(2));
            assert_eq!(prism::triangle_and_layer(c).1, 3);
            let odd = (x + y).rem_euclid(2) == 1;
            let bt = (
                0.5 + 0.5 * x as f64,
                y as f64 * h + h / if odd { 1.5 } else { 3.0 },
            );
            let (ox, oy) = ours(c);
            assert!((bt.0 - ox - 0.5).abs() < 1e-9 && (bt.1 - oy - h).abs() < 1e-9);
            // BurrTools' face neighbours: x +- 1, z +- 1, and y - 1 below
            // an up-triangle, y + 1 above a down-triangle
            let t = if odd { -1 } else { 1 };
            let bt_next = [
                [x - 1, y, 3],
                [x + 1, y, 3],
                [x, y - t, 3],
                [x, y, 2],
                [x, y, 4],
            ];
            let mut theirs: Vec<Cell> = bt_next.iter().map(|&v| prism::from_burrtools(v)).collect();
            let mut mine = Prism.neighbours(c);
            theirs.sort_unstable();
            mine.sort_unstable();
            assert_eq!(theirs, mine);
        }
    }
}

#[test]
fn burrtools_spheres() {
    assert_eq!(sphere::from_burrtools([1, 0, 0]), None);
    for v in [[0, 0, 0], [1, 2, 3], [-2, 1, 3]] {
        let c = sphere::from_burrtools(v).unwrap();
        assert_eq!(sphere::to_burrtools(c), v);
        // a layer is seen the same way round: y turned over
        assert_eq!(c, [v[0], -v[1], v[2]]);
    }
}

const PYRAMID: [&str; 3] = [
    ". A .\n B C\nD E F\n G H\n. I .",
    " . .\n. J .\n K L\n. M .\n . .",
    ". . .\n . .\n. N .\n . .\n. . .",
];

fn read_all(grid: PolyGrid, layers: &[String]) -> Result<Vec<(Cell, char)>, picture::PictureError> {
    let mut out = Vec::new();
    for (z, text) in layers.iter().enumerate() {
        out.extend(match grid {
            Sphere => sphere::read_layer(text, z as i32)?,
            _ => prism::read_layer(text, z as i32)?,
        });
    }
    out.sort_unstable();
    Ok(out)
}

#[test]
fn the_square_pyramid_of_spheres() {
    let layers: Vec<String> = PYRAMID.iter().map(|s| s.to_string()).collect();
    let cells = read_all(Sphere, &layers).unwrap();
    assert_eq!(cells.len(), 14);
    assert!(cells.contains(&([2, 2, 2], 'N')) && cells.contains(&([2, 0, 0], 'A')));
    let shape: Vec<Cell> = cells.iter().map(|c| c.0).collect();
    assert!(Sphere.is_connected(&shape));
    // N touches J K L M
    let top = Sphere.neighbours([2, 2, 2]);
    assert_eq!(cells.iter().filter(|c| top.contains(&c.0)).count(), 4);
    assert_eq!(sphere::write_layers(&cells), layers);
}

#[test]
fn the_hexagon_of_prisms() {
    let layers = vec![String::new(), "ABC\nDEF".to_string()];
    let cells = read_all(Prism, &layers).unwrap();
    let expect = [
        ([0, 0, 2], 'A'),
        ([0, 0, 3], 'B'),
        ([0, 1, 3], 'D'),
        ([1, 0, 2], 'C'),
        ([1, 1, 2], 'E'),
        ([1, 1, 3], 'F'),
    ];
    assert_eq!(cells, expect);
    let shape: Vec<Cell> = cells.iter().map(|c| c.0).collect();
    assert_eq!(Prism.orientations(&shape, &Prism.symmetries()).len(), 1);
    // a written layer fills its box: layer 0 has no cells
    assert_eq!(prism::write_layers(&cells), ["...\n...", "ABC\nDEF"]);
}

#[test]
fn layer_pictures_read_back() {
    let labels = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for grid in [Sphere, Prism] {
        for (i, piece) in enumerate(grid, 5, false).iter().enumerate() {
            // also moved to negative coordinates, and written from there
            let by = if grid == Sphere {
                [-3, -1, -2]
            } else {
                [-1, -3, -2]
            };
            for cells in [
                piece.clone(),
                piece.iter().map(|&c| grid.translate(c, by)).collect(),
            ] {
                let marked: Vec<(Cell, char)> = cells
                    .iter()
                    .zip(labels.chars().skip(i % 20))
                    .map(|(&c, l)| (c, l))
                    .collect();
                let (layers, shift) = match grid {
                    Sphere => (
                        sphere::write_layers(&marked),
                        sphere::layer_shift(cells.iter().copied()),
                    ),
                    _ => (
                        prism::write_layers(&marked),
                        prism::layer_shift(cells.iter().copied()),
                    ),
                };
                let mut moved: Vec<(Cell, char)> = marked
                    .iter()
                    .map(|&(c, l)| (grid.translate(c, shift), l))
                    .collect();
                moved.sort_unstable();
                assert_eq!(read_all(grid, &layers).unwrap(), moved, "{layers:?}");
                if cells == *piece {
                    assert!(grid == Prism || shift == [0, 0, 0]);
                }
            }
        }
    }
}

#[test]
fn layer_errors_say_where() {
    let e = sphere::read_layer("A . B\n.DC", 0).unwrap_err();
    assert_eq!((e.line, e.column), (2, 3));
    assert_eq!(
        e.to_string(),
        "line 2, column 3: `C` is no cell: a sphere's column, line and layer add up to an even number"
    );
    assert_eq!(sphere::read_layer(" A", 1).unwrap(), [([1, 0, 1], 'A')]);
    assert_eq!(sphere::read_layer("A", 1).unwrap_err().column, 1);
    let e = prism::read_layer("AB\n \tC", 0).unwrap_err();
    assert_eq!((e.line, e.column), (2, 2));
    assert!(e.what.contains("tab"));
    assert_eq!(prism::read_layer(". .\n\n", 4).unwrap(), []);
}
