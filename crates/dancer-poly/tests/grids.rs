//! Puzzles on every grid, with pieces from `grid::enumerate`, against
//! published counts (Polyform Puzzler's docstrings, see the catalogue).

use dancer_poly::grid::{enumerate, PolyGrid};
use dancer_poly::model::{Model, Options};
use dancer_poly::puzzle::{parse, Copies, Piece, PolyPuzzle};

/// Every free piece of `n` cells of `grid`, named by number.
fn all(grid: PolyGrid, n: usize) -> Vec<Piece> {
    enumerate(grid, n, false)
        .iter()
        .enumerate()
        .map(|(i, cells)| Piece::on(grid, format!("P{n}_{i}"), cells, Copies::Exactly(1)))
        .collect()
}

fn counts(p: PolyPuzzle) -> (u64, u64) {
    let m = Model::new(p).unwrap();
    let opts = Options {
        unique: true,
        ..Options::default()
    };
    let c = m.solve(&opts, |_| true).unwrap();
    assert!(c.complete);
    (c.total, c.unique)
}

fn file(text: &str, pieces: Vec<Piece>) -> PolyPuzzle {
    // the board from a file (with a dummy piece), the pieces from code
    let mut p = parse(text, "t.toml").unwrap();
    p.pieces = pieces;
    p.check().unwrap();
    p
}

#[test]
fn tetrahexes_in_a_4x7_parallelogram() {
    let p = file(
        "grid = \"hexagon\"\n[board]\nparallelogram = [7, 4]\n[[piece]]\nname = \"Q\"\ncells = [[0, 0]]\ncount = \"any\"\n",
        all(PolyGrid::Hexagon, 4),
    );
    assert_eq!(counts(p), (18, 9));
}

#[test]
fn hexiamonds_in_a_6x6_rhombus() {
    let p = file(
        "grid = \"triangle\"\n[board]\nparallelogram = [6, 6]\n[[piece]]\nname = \"Q\"\ncells = [[0, 0, 0]]\ncount = \"any\"\n",
        all(PolyGrid::Triangle, 6),
    );
    assert_eq!(counts(p).1, 156);
}

#[test]
fn pentatwigs_in_a_triangle() {
    let p = file(
        "grid = \"twig\"\n[board]\ntriangle = 5\n[[piece]]\nname = \"Q\"\ncells = [[0, 0, 0]]\ncount = \"any\"\n",
        all(PolyGrid::Twig, 5),
    );
    assert_eq!(counts(p).1, 56);
}

/// About two minutes: every piece may be left out here, the catalogue's
/// file leaves out only one of the five that can be. `cargo test -p
/// dancer-poly --test grids -- --ignored`.
#[test]
#[ignore]
fn tetrasticks_on_a_5x5_grid() {
    // all sixteen at most once fill the 60 edges with fifteen (parity
    // leaves out one of H J L N Y); no two crossing
    let mut pieces = all(PolyGrid::Stick, 4);
    assert_eq!(pieces.len(), 16);
    for pc in pieces.iter_mut() {
        pc.count = Copies::Between(0, 1);
    }
    let p = file(
        "grid = \"stick\"\n[board]\nrect = [5, 5]\n[[piece]]\nname = \"Q\"\ncells = [[0, 0, 0]]\ncount = \"any\"\n",
        pieces,
    );
    assert_eq!(counts(p).1, 1795);
}

/// Pictures on the triangle and hexagon grids read as the design says, and
/// a bad one is an error that says where.
#[test]
fn pictures_of_boards_and_pieces() {
    // the hexagon of six triangles (up where column + line is even), and
    // the 7-cell hexagon of hexagons
    let p = parse(
        "grid = \"triangle\"\n[board]\nshape = \"\"\"\n###\n###\n\"\"\"\n[[piece]]\nname = \"T\"\nshape = \"#\"\ncount = 6\n",
        "t.toml",
    )
    .unwrap();
    assert_eq!(p.board.len(), 6);
    assert_eq!(p.board.symmetries().len(), 12);
    assert_eq!(counts(p), (1, 1));
    let p = parse(
        "grid = \"hexagon\"\n[board]\nshape = \"\"\"\n # #\n# # #\n # #\n\"\"\"\n[[piece]]\nname = \"H\"\nshape = \"#\"\ncount = 7\n",
        "t.toml",
    )
    .unwrap();
    assert_eq!(p.board.len(), 7);
    assert_eq!(p.board.symmetries().len(), 12);
    let e = parse(
        "grid = \"hexagon\"\n[board]\nshape = \"\"\"\n# #\n# #\n\"\"\"\n[[piece]]\nname = \"H\"\nshape = \"#\"\ncount = 4\n",
        "t.toml",
    )
    .unwrap_err();
    assert!(e.to_string().starts_with("t.toml:2:1: "), "{e}");
    assert!(e.to_string().contains("line 2, column 1"), "{e}");
}

/// The perfect matchings of a board's cells by its grid's neighbours, by
/// brute force: the tilings by dominoes, independent of the model.
fn matchings(grid: PolyGrid, cells: &[dancer_poly::grid::Cell]) -> u64 {
    fn rec(grid: PolyGrid, left: &mut Vec<dancer_poly::grid::Cell>) -> u64 {
        let Some(first) = left.pop() else {
            return 1;
        };
        let mut n = 0;
        for m in grid.neighbours(first) {
            if let Some(i) = left.iter().position(|&c| c == m) {
                let taken = left.remove(i);
                n += rec(grid, left);
                left.insert(i, taken);
            }
        }
        left.push(first);
        n
    }
    rec(grid, &mut cells.to_vec())
}

/// Dominoes on packed spheres and on prisms, against brute force: the
/// tetrahedron of 4 spheres (3 ways), the square pyramid of 9 + 4 + 1 (as
/// layers), and the hexagonal prism of 12 triangular prisms (with flat and
/// upright dominoes, which no rotation turns into each other: flat ones
/// alone tile it in 2 x 2 ways).
#[test]
fn dominoes_on_spheres_and_prisms() {
    let cases = [
        (
            "grid = \"sphere\"\n[board]\ncells = [[0, 0, 0], [1, 1, 0], [1, 0, 1], [0, 1, 1]]\n",
            "[[0, 0, 0], [1, 1, 0]]",
            Some(3),
        ),
        (
            "grid = \"sphere\"\n[board]\nlayers = [\". A .\\n B C\\nD E F\\n G H\\n. I .\", \" . .\\n. J .\\n K L\\n. M .\", \". . .\\n . .\\n. N .\"]\n",
            "[[0, 0, 0], [1, 1, 0]]",
            None,
        ),
        (
            "grid = \"prism\"\n[board]\nlayers = [\"###\\n###\", \"###\\n###\"]\n",
            // two triangles side by side, and two stacked: every pair of
            // neighbours is one or the other
            "[[0, 0, 0], [0, 0, 1]]\ncount = \"any\"\n[[piece]]\nname = \"V\"\ncells = [[0, 0, 0], [0, 0, 2]]",
            None,
        ),
    ];
    for (board, domino, known) in cases {
        let text = format!("{board}[[piece]]\nname = \"D\"\ncells = {domino}\ncount = \"any\"\n");
        let p = parse(&text, "t.toml").unwrap_or_else(|e| panic!("{e}\n{text}"));
        let grid = p.grid();
        let brute = matchings(grid, &p.board.cells);
        if let Some(k) = known {
            assert_eq!(brute, k);
        }
        assert!(brute > 0, "{text}");
        assert_eq!(counts(p).0, brute, "{text}");
    }
}

/// Pieces in space drawn as layer pictures: the same shapes as their cell
/// lists (BallRoom's hooked piece on spheres, a piece of four prisms, a
/// Soma piece on cubes), and layers where they do not belong refused with
/// the piece's name.
#[test]
fn pieces_in_space_drawn_as_layers() {
    // a file whose board is the piece's own cells, and one piece
    let text = |grid: &str, cells: &str, piece: &str| {
        format!("grid = \"{grid}\"\n[board]\ncells = {cells}\n[[piece]]\n{piece}\n")
    };
    let cases = [
        // spheres: three in a row and one above
        (
            "sphere",
            "[[0, 0, 0], [1, -2, 1], [1, -1, 0], [2, -2, 0]]",
            "layers = [\"\"\"\n. #\n #\n# .\n\"\"\", \"\"\"\n #\n\"\"\"]",
        ),
        // prisms: three triangles and the prism above the first
        (
            "prism",
            "[[0, 0, 0], [0, 0, 1], [1, 0, 0], [0, 0, 2]]",
            "layers = [\"###\", \"#\"]",
        ),
        // cubes: three in an L and one above the corner
        (
            "cube",
            "[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]",
            "layers = [\"##\\n#.\", \"#.\"]",
        ),
    ];
    for (grid, cells, layers) in cases {
        let drawn = text(grid, cells, &format!("name = \"A\"\n{layers}"));
        let listed = text(grid, cells, &format!("name = \"A\"\ncells = {cells}"));
        let shape = |t: &str| {
            let p = parse(t, "t.toml").unwrap_or_else(|e| panic!("{e}\n{t}"));
            let mut c = p.grid().normalize(&p.pieces[0].cells);
            c.sort_unstable();
            c
        };
        assert_eq!(shape(&drawn), shape(&listed), "{drawn}");
        assert_eq!(shape(&drawn).len(), 4, "{drawn}");
    }
    let bad = [
        (
            "triangle",
            "name = \"T\"\nlayers = [\"#\"]",
            "piece \"T\": layers are for pieces in space, not on the triangle grid",
        ),
        (
            "sphere",
            "name = \"s\"\nlayers = [\"##\"]",
            "piece \"s\": layer 1 is a picture with a fault",
        ),
        (
            "prism",
            "name = \"p\"\nlayers = [\"#\", \"\", \"#\"]",
            "piece \"p\": layers empty or not connected",
        ),
        (
            "cube",
            "set = \"tetracubes\"\nlayers = [\"#\"]",
            "drawn as layers has a name and no set",
        ),
    ];
    for (grid, piece, want) in bad {
        let t = text(grid, "[[0, 0, 0]]", piece);
        let e = parse(&t, "t.toml").unwrap_err().to_string();
        assert!(e.starts_with("t.toml:4:1: "), "{e}");
        assert!(e.contains(want), "{e}");
    }
}

/// The sphere and prism problems of `bench/poly/` (timed against Knuth's
/// programs by `bench/knuth.py`) read, and count what DLX1 and SSXC1 count
/// on them: every solution, no symmetry broken.
#[test]
fn the_bench_problems_on_spheres_and_prisms() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/poly");
    let all = |name: &str| {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let m = Model::new(parse(&text, name).unwrap()).unwrap();
        let opts = Options {
            symmetry_breaking: false,
            ..Options::default()
        };
        let c = m.solve(&opts, |_| true).unwrap();
        assert!(c.complete, "{name}");
        c.total
    };
    assert_eq!(all("tetraspheres-tetrahedron-4.toml"), 27_588);
    assert_eq!(all("pentaspheres-pyramid-5.toml"), 0);
    assert_eq!(all("tetraprisms-2x2x5.toml"), 128);
    // any number of each trisphere: 30,810,572 tilings, counted with memos
    // by `dancer poly solve --count` (tests/memo.rs of the CLI checks a
    // board of that kind); here the file reads and its pieces are the 4
    let text = std::fs::read_to_string(dir.join("trispheres-pyramid-4.toml")).unwrap();
    let p = parse(&text, "trispheres-pyramid-4.toml").unwrap();
    assert_eq!((p.board.len(), p.pieces.len()), (30, 4));
}
