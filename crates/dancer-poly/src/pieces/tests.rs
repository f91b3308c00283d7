//! The sets against the grids: sizes, distinct pieces, every piece of a
//! size, the mirror twins, the names; and the conversion from Polyform
//! Puzzler's coordinates.

use super::*;
use crate::geometry::{canonical, is_connected, normalize, symmetries, Transform};
use crate::grid::enumerate;
use dancer_formats::ndjson::PieceRecord;

/// Each set's size, and its chiral pieces (those Polyform Puzzler lists as
/// different from their mirror images; for solids, those with a mirror
/// twin under rotations), or how many there are.
const EXPECTED: &[(&str, usize, &str)] = &[
    ("monominoes", 1, ""),
    ("dominoes", 1, ""),
    ("trominoes", 2, ""),
    ("tetrominoes", 5, "S L"),
    ("pentominoes", 12, "F L N P Y Z"),
    ("hexominoes", 35, "25 of them"),
    ("soma", 7, "A B"),
    ("pentacubes", 29, "12 of them"),
    ("tetracubes", 8, "B4 A4"),
    ("solid-pentominoes", 12, ""),
    ("moniamonds", 1, ""),
    ("diamonds", 1, ""),
    ("triamonds", 1, ""),
    ("tetriamonds", 3, "I4"),
    ("pentiamonds", 4, "L5 P5"),
    ("hexiamonds", 12, "I6 P6 J6 H6 S6 G6 F6"),
    (
        "heptiamonds",
        24,
        "P7 E7 L7 H7 G7 T7 X7 Q7 R7 J7 F7 Y7 Z7 B7 A7 W7 U7 N7 S7",
    ),
    ("monohexes", 1, ""),
    ("dihexes", 1, ""),
    ("trihexes", 3, ""),
    ("tetrahexes", 7, "J4 P4 S4"),
    ("pentahexes", 22, "B5 F5 G5 H5 J5 N5 P5 Q5 R5 S5 T5"),
    ("monosticks", 1, ""),
    ("disticks", 2, ""),
    ("tristicks", 5, "L3 Z3"),
    ("tetrasticks", 16, "L Y N J H F Z R P"),
    ("monotwigs", 1, ""),
    ("ditwigs", 1, ""),
    ("tritwigs", 3, "S3"),
    ("tetratwigs", 4, "Y4 P4"),
    ("pentatwigs", 12, "H5 I5 L5 P5 R5 S5 W5"),
    ("monotrigs", 1, ""),
    ("ditrigs", 3, ""),
    ("tritrigs", 12, "J3 L3 P3 S3 T3 U3 Z3"),
];

#[test]
fn square_and_cube_sets_are_as_before() {
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
    let q = pentacubes()
        .iter()
        .filter(|s| s.name.starts_with('Q'))
        .count();
    assert_eq!(q, 17);
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
    assert_eq!(
        &SETS[..8],
        [
            "monominoes",
            "dominoes",
            "trominoes",
            "tetrominoes",
            "pentominoes",
            "hexominoes",
            "soma",
            "pentacubes"
        ]
    );
    for alias in [
        "pentomino",
        "triominoes",
        "tromino",
        "hexomino",
        "pentacube",
    ] {
        assert!(set(alias).is_some(), "{alias}");
    }
}

/// Whether a set's pieces are solids, distinct under rotations only.
fn solid(grid: PolyGrid) -> bool {
    grid.lattice_dim() == 3
}

#[test]
fn every_set_has_its_pieces_distinct_and_connected() {
    assert_eq!(SETS.len(), EXPECTED.len());
    for &(name, count, chiral) in EXPECTED {
        let grid = grid_of(name).unwrap();
        let shapes = set(name).unwrap();
        assert_eq!(shapes.len(), count, "{name}");
        let mut forms = Vec::new();
        for s in &shapes {
            assert!(
                s.cells.iter().all(|&c| grid.is_cell(c)),
                "{name}/{}",
                s.name
            );
            assert!(grid.is_connected(&s.cells), "{name}/{}", s.name);
            assert_eq!(s.dim as usize, grid.lattice_dim());
            forms.push(grid.canonical(&s.cells, solid(grid)));
        }
        forms.sort();
        forms.dedup();
        assert_eq!(forms.len(), count, "{name}: pieces not distinct");
        let names: Vec<&str> = shapes
            .iter()
            .filter(|s| is_chiral(grid, &s.cells))
            .map(|s| s.name.as_str())
            .collect();
        match chiral.strip_suffix(" of them") {
            Some(n) => assert_eq!(names.len().to_string(), n, "{name}"),
            None => assert_eq!(names.join(" "), chiral, "{name}: the chiral pieces"),
        }
    }
}

/// The sets named for a size, by grid and size.
fn families() -> Vec<(PolyGrid, usize, Vec<Shape>)> {
    NAMED
        .iter()
        .filter_map(|s| Some((s.grid, s.all_of?, (s.make)())))
        .collect()
}

fn forms(grid: PolyGrid, shapes: &[Shape], one_sided: bool) -> Vec<Vec<Cell>> {
    let mut v: Vec<_> = shapes
        .iter()
        .map(|s| grid.canonical(&s.cells, one_sided))
        .collect();
    v.sort();
    v
}

#[test]
fn the_sets_of_a_size_hold_every_piece_of_it() {
    let found = families();
    assert_eq!(found.len(), 32);
    for (grid, n, shapes) in found {
        let all = enumerate(grid, n, solid(grid));
        assert_eq!(
            forms(grid, &shapes, solid(grid)),
            all,
            "{} {n}",
            grid.name()
        );
        // and the one-sided set holds every one-sided piece
        let twins = one_sided(grid, &shapes);
        assert_eq!(forms(grid, &twins, true), enumerate(grid, n, true));
    }
}

#[test]
fn mirror_twins_are_named_lower_case() {
    let grid = PolyGrid::Triangle;
    let hex = set("hexiamonds").unwrap();
    let one = one_sided(grid, &hex);
    assert_eq!(one.len(), 19);
    let names: Vec<&str> = one.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(&names[..4], ["I6", "i6", "P6", "p6"]);
    let p = &one[2].cells;
    assert_eq!(one[3].cells, mirror_image(grid, p));
    assert_ne!(grid.canonical(p, true), grid.canonical(&one[3].cells, true));
    let pent = one_sided(PolyGrid::Square, &pentominoes());
    assert_eq!(pent.len(), 18);
    assert!(pent.iter().any(|s| s.name == "f"));
    // solids: the sets hold both of a pair already
    for name in ["tetracubes", "soma", "pentacubes", "solid-pentominoes"] {
        let shapes = set(name).unwrap();
        assert_eq!(one_sided(PolyGrid::Cube, &shapes), shapes, "{name}");
    }
    assert_eq!(twin_name("H01"), "h01");
}

#[test]
fn pieces_and_grids_by_name() {
    assert_eq!(grid_of("hexiamonds"), Some(PolyGrid::Triangle));
    assert_eq!(grid_of("hexiamond"), Some(PolyGrid::Triangle));
    assert_eq!(grid_of("pentahexes/Q5"), Some(PolyGrid::Hexagon));
    assert_eq!(grid_of("tetrasticks/W"), Some(PolyGrid::Stick));
    assert_eq!(grid_of("soma"), Some(PolyGrid::Cube));
    assert_eq!(grid_of("solid-pentominoes/X"), Some(PolyGrid::Cube));
    assert_eq!(grid_of("Y"), Some(PolyGrid::Square));
    assert_eq!(grid_of("pentacubes/Q03"), Some(PolyGrid::Cube));
    assert_eq!(grid_of("tritrigs/Q3"), None);
    assert_eq!(grid_of("nope"), None);
    assert!(set("pentahex").is_some() && set("solid-pentomino").is_some());
    assert!(set("pentominoe").is_none());
    let p6 = piece("hexiamonds/P6").unwrap();
    let twin = piece("hexiamonds/p6").unwrap();
    assert_eq!(twin.cells, mirror_image(PolyGrid::Triangle, &p6.cells));
    assert!(
        piece("pentominoes/x").is_none(),
        "X is its own mirror image"
    );
}

#[test]
fn shapes_are_named() {
    let sq = PolyGrid::Square;
    let f = piece("F").unwrap().cells;
    let f_mirror = mirror_image(sq, &f);
    assert_eq!(name_of(sq, &f, false).as_deref(), Some("pentominoes/F"));
    assert_eq!(
        name_of(sq, &f_mirror, false).as_deref(),
        Some("pentominoes/F")
    );
    assert_eq!(
        name_of(sq, &f_mirror, true).as_deref(),
        Some("pentominoes/f")
    );
    assert_eq!(name_of(sq, &f, true).as_deref(), Some("pentominoes/F"));
    // a turned piece keeps its name
    let turned = sq.image(&sq.rotations()[1], &f);
    assert_eq!(name_of(sq, &turned, true).as_deref(), Some("pentominoes/F"));
    let cube = PolyGrid::Cube;
    let a = piece("tetracubes/A4").unwrap().cells;
    let b = mirror_image(cube, &a);
    assert_eq!(name_of(cube, &a, false).as_deref(), Some("tetracubes/A4"));
    assert_eq!(name_of(cube, &b, false).as_deref(), Some("tetracubes/B4"));
    // the set of its size first: the L tetracube is also Soma's L
    let l = piece("soma/L").unwrap().cells;
    assert_eq!(name_of(cube, &l, false).as_deref(), Some("tetracubes/L4"));
    let v = piece("soma/V").unwrap().cells;
    assert_eq!(name_of(cube, &v, false).as_deref(), Some("soma/V"));
    let octomino = picture(&["########"]);
    assert_eq!(name_of(sq, &octomino, false), None);
    let tri = PolyGrid::Triangle;
    for s in set("heptiamonds").unwrap() {
        let name = format!("heptiamonds/{}", s.name);
        assert_eq!(name_of(tri, &s.cells, true), Some(name));
    }
}

/// The lattice points at the ends of a segment of the triangular lattice
/// (a trig, or the segment a twig crosses).
fn ends(cell: Cell) -> [(i32, i32); 2] {
    let [x, y, k] = cell;
    let (dx, dy) = [(1, 0), (0, 1), (1, 1)][k as usize];
    [(x, y), (x + dx, y + dy)]
}

/// Whether three twigs are the sides of one triangle: the edges of the
/// hexagonal grid meeting at the triangle's centre.
fn meet_at_a_corner(twigs: [Cell; 3]) -> bool {
    let mut points: Vec<(i32, i32)> = twigs.iter().flat_map(|&t| ends(t)).collect();
    points.sort();
    points.dedup();
    let neighbours = |a: Cell, b: Cell| PolyGrid::Twig.neighbours(a).contains(&b);
    let [a, b, c] = twigs;
    points.len() == 3 && neighbours(a, b) && neighbours(b, c) && neighbours(a, c)
}

#[test]
fn puzzler_twigs_meet_where_its_edges_do() {
    let twig = |x, y, z| from_puzzler(PolyGrid::Twig, [x, y, z]);
    for x in -3..=3 {
        for y in -3..=3 {
            // the three edges leaving hexagon (x, y)'s lower left corner
            assert!(meet_at_a_corner([
                twig(x, y, 0),
                twig(x, y, 1),
                twig(x, y, 2)
            ]));
            // the right end of the first: it is where the edge at 120
            // degrees of hexagon (x + 1, y - 1) ends, and where the one at
            // 240 degrees of (x + 1, y) starts
            let other = [twig(x, y, 0), twig(x + 1, y - 1, 1), twig(x + 1, y, 2)];
            assert!(meet_at_a_corner(other), "{x} {y}");
        }
    }
    // the bottom side of hexagon (0, 0) is the side it shares with
    // hexagon (0, -1), ours [0, 1]
    assert_eq!(twig(0, 0, 0), [0, 0, 1]);
    assert_eq!(ends(twig(0, 0, 0)), [(0, 0), (0, 1)]);
}

#[test]
fn puzzler_cells_keep_their_neighbours() {
    // its up-triangle (x, y, 0) borders the down-triangles (x, y, 1) on
    // the right, (x - 1, y, 1) on the left and (x, y - 1, 1) below
    let tri = |c| from_puzzler(PolyGrid::Triangle, c);
    let mut ours = PolyGrid::Triangle.neighbours(tri([2, 3, 0]));
    ours.sort();
    let mut theirs: Vec<Cell> = [[2, 3, 1], [1, 3, 1], [2, 2, 1]].map(tri).to_vec();
    theirs.sort();
    assert_eq!(ours, theirs);
    // its hexagon (x, y) borders (x +- 1, y), (x, y +- 1), (x - 1, y + 1)
    // and (x + 1, y - 1)
    let hex = |c| from_puzzler(PolyGrid::Hexagon, c);
    let mut ours = PolyGrid::Hexagon.neighbours(hex([1, 1, 0]));
    ours.sort();
    let around = [
        [2, 1, 0],
        [0, 1, 0],
        [1, 2, 0],
        [1, 0, 0],
        [0, 2, 0],
        [2, 0, 0],
    ];
    let mut theirs: Vec<Cell> = around.map(hex).to_vec();
    theirs.sort();
    assert_eq!(ours, theirs);
    // its horizontal stick (x, y, 0) ends at (x, y) and (x + 1, y), its
    // vertical (x, y, 1) at (x, y) and (x, y + 1): the two at (1, 0)
    let stick = |c| from_puzzler(PolyGrid::Stick, c);
    assert!(PolyGrid::Stick
        .neighbours(stick([0, 0, 0]))
        .contains(&stick([1, 0, 1])));
    assert_eq!(stick([1, 0, 1]), [1, -1, 1]);
    // its trig (x, y, 2) runs from (x, y) up and left to (x - 1, y + 1),
    // ours P(x, -y) to P(x - 1, -y - 1)
    let trig = from_puzzler(PolyGrid::Trig, [3, 2, 2]);
    assert_eq!(ends(trig), [(2, -3), (3, -2)]);
}

#[test]
fn lists_count_the_known_sequences() {
    use PolyGrid::{Cube, Hexagon, Square, Stick, Triangle};
    let counts = |grid, up_to, one_sided| -> Vec<usize> {
        (1..=up_to)
            .map(|n| list(grid, n, one_sided).unwrap().len())
            .collect()
    };
    let omino = [1, 1, 2, 5, 12, 35, 108, 369, 1285];
    assert_eq!(counts(Square, 9, false), omino);
    let iamond = [1, 1, 1, 3, 4, 12, 24, 66, 160, 448];
    assert_eq!(counts(Triangle, 10, false), iamond);
    assert_eq!(counts(Hexagon, 8, false), [1, 1, 3, 7, 22, 82, 333, 1448]);
    assert_eq!(counts(Stick, 7, false), [1, 2, 5, 16, 55, 222, 950]);
    assert_eq!(counts(Cube, 7, false), [1, 1, 2, 7, 23, 112, 607]);
    assert_eq!(counts(Cube, 7, true), [1, 1, 2, 8, 29, 166, 1023]);
}

#[test]
fn lists_name_their_pieces() {
    let free = records("omino-5", false).unwrap();
    assert_eq!(free.len(), 12);
    assert!(free.iter().all(|r| r.grid == "square" && r.size == 5));
    let named = |list: &[PieceRecord]| -> Vec<String> {
        let mut v: Vec<String> = list.iter().filter_map(|r| r.name.clone()).collect();
        v.sort();
        v
    };
    let letters = "F I L N P T U V W X Y Z".split(' ');
    let expect: Vec<String> = letters.map(|l| format!("pentominoes/{l}")).collect();
    assert_eq!(named(&free), expect);
    let x = free
        .iter()
        .find(|r| r.name.as_deref() == Some("pentominoes/X"));
    let x = x.unwrap();
    assert_eq!((x.symmetries, x.chiral), (8, false));
    assert_eq!(x.cells, [[0, 1], [1, 0], [1, 1], [1, 2], [2, 1]]);
    let one = records("omino-5", true).unwrap();
    assert_eq!(one.len(), 18);
    assert!(named(&one).contains(&"pentominoes/f".to_string()));
    assert_eq!(one.iter().map(|r| r.number).max(), Some(18));
    // the pieces of 8 squares have no names; those of triangles have a kind
    assert!(records("omino-8", false).unwrap()[0].name.is_none());
    let iamonds = records("iamond-6", true).unwrap();
    assert_eq!(iamonds.len(), 19);
    assert!(iamonds
        .iter()
        .all(|r| r.name.is_some() && r.cells[0].len() == 3));
    // a named set, with its twins
    let set = records("tetrahexes", true).unwrap();
    assert_eq!(set.len(), 10);
    assert_eq!(set[1].name.as_deref(), Some("tetrahexes/J4"));
    assert_eq!(set[2].name.as_deref(), Some("tetrahexes/j4"));
    assert_eq!(set[1].cells[0].len(), 2, "hexagons: [x, y]");
}

#[test]
fn lists_refuse_what_they_cannot_make() {
    let too_large = PiecesError::Size {
        spec: "omino-11".into(),
        grid: "square",
        size: 11,
        limit: 10,
    };
    assert_eq!(records("omino-11", false), Err(too_large));
    assert!(matches!(
        records("trig-0", false),
        Err(PiecesError::Size { .. })
    ));
    assert!(matches!(
        records("cube-9", true),
        Err(PiecesError::Size { limit: 8, .. })
    ));
    for bad in ["omino-x", "foo-5", "nope", "omino", "-5"] {
        let e = records(bad, false).unwrap_err();
        assert!(matches!(e, PiecesError::Unknown { .. }), "{bad}");
        assert!(e.to_string().contains("GRID-N"), "{e}");
    }
    let e = records("hex-11", false).unwrap_err().to_string();
    let says = "hex-11: pieces of 11 cells are not listed: from 1 to 10 on the hexagon grid";
    assert_eq!(e, says);
    // an N too large for any number says so, as written
    let huge = "sphere-99999999999999999999999";
    let e = records(huge, false).unwrap_err();
    assert!(
        matches!(
            e,
            PiecesError::Size {
                size: usize::MAX,
                limit: 6,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        format!("{huge}: pieces of 99999999999999999999999 cells are not listed: from 1 to 6 on the sphere grid")
    );
    assert!(list(PolyGrid::Trig, 8, false).is_err());
    assert_eq!(family_name(PolyGrid::Hexagon, 2), "polyhexes");
    assert_eq!(family_name(PolyGrid::Square, 1), "polyomino");
    assert_eq!(family_name(PolyGrid::Triangle, 3), "polyiamonds");
}
