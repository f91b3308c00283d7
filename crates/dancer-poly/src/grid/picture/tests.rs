//! Pictures read and written: hand-drawn pictures with the cells they
//! must give, refusals with their places, and write-then-read on random
//! pieces of every grid with text pictures.

use super::*;
use crate::grid::{enumerate, PolyGrid::*};
use proptest::prelude::*;
use std::sync::OnceLock;

fn sorted(mut v: Vec<Cell>) -> Vec<Cell> {
    v.sort_unstable();
    v
}

fn err(grid: PolyGrid, text: &str) -> PictureError {
    read(grid, text).expect_err("the picture is refused")
}

#[test]
fn squares_read_as_pieces_and_boards_always_did() {
    for text in ["#.\n##", " .x\n\tyé\n\n  z", "FF.\n.FF\n.F.", ""] {
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(read(Square, text).unwrap(), crate::pieces::picture(&rows));
        assert_eq!(
            read(Square, text).unwrap(),
            crate::puzzle::Board::picture(text).cells
        );
    }
    assert_eq!(
        read(Cube, "ab\n.c").unwrap(),
        vec![[0, 0, 0], [1, 0, 0], [1, 1, 0]]
    );
}

#[test]
fn the_hexagon_of_six_triangles() {
    let cells = read(Triangle, "xxx\nxxx").unwrap();
    let around = vec![
        [0, 0, 0],
        [0, 0, 1],
        [1, 0, 0],
        [0, 1, 1],
        [1, 1, 0],
        [1, 1, 1],
    ];
    assert_eq!(cells, around);
    // each triangle has a corner at P(1, 1)
    assert!(Triangle.is_connected(&cells));
    assert_eq!(
        Triangle.symmetries().len(),
        Triangle.orientations(&cells, &Triangle.symmetries()).len() * 12
    );
    assert_eq!(
        write(
            Triangle,
            &[
                ([4, 7, 0], 'A'),
                ([4, 7, 1], 'B'),
                ([5, 7, 0], 'C'),
                ([4, 8, 1], 'D'),
                ([5, 8, 0], 'E'),
                ([5, 8, 1], 'F')
            ]
        ),
        Some("ABC\nDEF\n".into())
    );
    // one column to the right turns every triangle over: another hexiamond
    let moved = read(Triangle, " xxx\n xxx").unwrap();
    assert_eq!(
        moved,
        vec![
            [0, 0, 1],
            [1, 0, 0],
            [1, 0, 1],
            [1, 1, 0],
            [1, 1, 1],
            [2, 1, 0]
        ]
    );
    assert_ne!(
        Triangle.canonical(&moved, false),
        Triangle.canonical(&cells, false)
    );
    // two columns: a translation
    let two = read(Triangle, "  xxx\n  xxx").unwrap();
    assert_eq!(Triangle.normalize(&two), Triangle.normalize(&cells));
}

#[test]
fn a_hexiamond() {
    // the chevron's cousin: a row of four with two below the middle
    //   ^v^v        [0,0,0] [0,0,1] [1,0,0] [1,0,1]
    //    ^v                 [1,1,0] [1,1,1]
    let cells = read(Triangle, "ABCD\n.EF").unwrap();
    assert_eq!(
        cells,
        vec![
            [0, 0, 0],
            [0, 0, 1],
            [1, 0, 0],
            [1, 0, 1],
            [1, 1, 0],
            [1, 1, 1]
        ]
    );
    assert!(Triangle.is_connected(&cells));
    assert!(enumerate(Triangle, 6, false).contains(&Triangle.canonical(&cells, false)));
    let marked: Vec<(Cell, char)> = read_marked(Triangle, "ABCD\n.EF").unwrap();
    assert_eq!(write(Triangle, &marked), Some("ABCD\n EF\n".into()));
    // a hole inside a line shows as '.'
    assert_eq!(
        write(Triangle, &[([0, 0, 0], 'a'), ([1, 0, 0], 'b')]),
        Some("a.b\n".into())
    );
}

#[test]
fn the_hexagon_of_seven_hexagons() {
    let text = " A B\nC D E\n F G";
    let cells = read(Hexagon, text).unwrap();
    assert_eq!(
        cells,
        vec![
            [0, 0, 0],
            [1, 0, 0],
            [0, 1, 0],
            [1, 1, 0],
            [2, 1, 0],
            [1, 2, 0],
            [2, 2, 0]
        ]
    );
    let mut ring = Hexagon.neighbours([1, 1, 0]);
    ring.push([1, 1, 0]);
    assert_eq!(sorted(cells), sorted(ring));
    let marked = read_marked(Hexagon, text).unwrap();
    assert_eq!(write(Hexagon, &marked), Some(format!("{text}\n")));
    // the whole picture one column to the right reads the same shape
    let moved = read(Hexagon, "  A B\n C D E\n  F G").unwrap();
    assert_eq!(
        Hexagon.normalize(&moved),
        Hexagon.normalize(&read(Hexagon, text).unwrap())
    );
    // without the middle: '.' where a hexagon could be
    let without: Vec<(Cell, char)> = marked.into_iter().filter(|&(_, ch)| ch != 'D').collect();
    assert_eq!(write(Hexagon, &without), Some(" A B\nC . E\n F G\n".into()));
}

#[test]
fn a_hexagon_out_of_step_is_refused_where_it_stands() {
    let e = err(Hexagon, " A B\nC DE");
    assert_eq!((e.line, e.column), (2, 4));
    assert!(e.what.contains("'E' is out of step"), "{e}");
    assert!(e.to_string().starts_with("line 2, column 4: "), "{e}");
    assert_eq!((err(Hexagon, "AB").line, err(Hexagon, "AB").column), (1, 2));
    // blanks anywhere are fine
    assert_eq!(read(Hexagon, ". A.").unwrap(), vec![[1, 0, 0]]);
}

#[test]
fn the_tetrastick_x() {
    let text = "  +\n  |\n+-+-+\n  |\n  +";
    let cells = read(Stick, text).unwrap();
    assert_eq!(cells, vec![[1, 0, 1], [0, 1, 0], [1, 1, 0], [1, 1, 1]]);
    assert!(Stick.is_connected(&cells));
    let marked = read_marked(Stick, text).unwrap();
    assert_eq!(write(Stick, &marked), Some(format!("{text}\n")));
}

#[test]
fn squares_of_sticks() {
    // one square: the tetrastick O
    let o = read(Stick, "+-+\n| |\n+-+").unwrap();
    assert_eq!(o, vec![[0, 0, 0], [0, 0, 1], [1, 0, 1], [0, 1, 0]]);
    // the twelve edges of a 2x2 square of squares
    let text = "+-+-+\n| | |\n+-+-+\n| | |\n+-+-+";
    let cells = read(Stick, text).unwrap();
    let mut expect = Vec::new();
    for j in 0..3 {
        for i in 0..2 {
            expect.push([i, j, 0]);
        }
    }
    for j in 0..2 {
        for i in 0..3 {
            expect.push([i, j, 1]);
        }
    }
    assert_eq!(sorted(cells), sorted(expect));
    let marked = read_marked(Stick, text).unwrap();
    assert_eq!(write(Stick, &marked), Some(format!("{text}\n")));
    // labels stand for edges; '.' and blanks are none
    let labelled = read(Stick, "+a+.+\nb\n+").unwrap();
    assert_eq!(labelled, vec![[0, 0, 0], [0, 0, 1]]);
}

#[test]
fn sticks_in_the_wrong_places_are_refused() {
    let e = err(Stick, "+-+\n|x|\n+-+");
    assert_eq!((e.line, e.column), (2, 2));
    assert!(e.what.contains("middle of a square"), "{e}");
    let e = err(Stick, "+-o");
    assert_eq!((e.line, e.column), (1, 3));
    assert!(e.what.contains("point"), "{e}");
}

#[test]
fn twigs_and_trigs_have_no_text_pictures() {
    for g in [Twig, Trig] {
        assert_eq!(write(g, &[([0, 0, 0], 'A')]), None);
        assert_eq!(write(g, &[]), None);
        let e = err(g, "A");
        assert!(e.what.contains("no text pictures"), "{e}");
        assert!(read(g, "").unwrap().is_empty());
    }
}

#[test]
fn cubes_print_their_layers_side_by_side() {
    let cells = [
        ([0, 0, 0], 'A'),
        ([1, 0, 0], 'A'),
        ([0, 1, 0], 'B'),
        ([0, 0, 1], 'C'),
        ([1, 1, 1], 'D'),
    ];
    assert_eq!(write(Cube, &cells), Some("AA   C.\nB.   .D\n".into()));
    assert_eq!(
        write(Square, &[([3, 2, 0], 'x'), ([5, 3, 0], 'y')]),
        Some("x..\n..y\n".into())
    );
    assert_eq!(write(Square, &[]), Some(String::new()));
}

/// The planar grids' pieces of 1 to 6 cells, free.
fn shapes(grid: PolyGrid) -> &'static [Vec<Cell>] {
    static CACHE: OnceLock<Vec<(PolyGrid, Vec<Vec<Cell>>)>> = OnceLock::new();
    let all = CACHE.get_or_init(|| {
        [Square, Triangle, Hexagon, Stick]
            .into_iter()
            .map(|g| (g, (1..=6).flat_map(|n| enumerate(g, n, false)).collect()))
            .collect()
    });
    &all.iter()
        .find(|(g, _)| *g == grid)
        .expect("a planar grid")
        .1
}

proptest! {
    /// Write then read gives the same cells with the same marks, moved by
    /// one lattice vector, for any piece in any position.
    #[test]
    fn write_then_read_moves_a_piece_only(
        g in 0usize..4,
        pick in any::<prop::sample::Index>(),
        turn in 0usize..12,
        dx in -30i32..30,
        dy in -30i32..30,
        marks in prop::collection::vec(prop::sample::select(&['A', 'b', '#', '7', '+', '|', 'é'][..]), 6),
    ) {
        let grid = [Square, Triangle, Hexagon, Stick][g];
        let piece = pick.get(shapes(grid));
        let symmetries = grid.symmetries();
        let t = &symmetries[turn % symmetries.len()];
        let cells: Vec<(Cell, char)> = piece
            .iter()
            .zip(&marks)
            .map(|(&c, &m)| (grid.translate(grid.apply(t, c), [dx, dy, 0]), m))
            .collect();
        let text = write(grid, &cells).unwrap();
        let back = read_marked(grid, &text).unwrap();
        prop_assert_eq!(back.len(), cells.len());
        let first = cells.iter().min().unwrap().0;
        let first_back = back.iter().min().unwrap().0;
        let by = [0, 1, 2].map(|k| first_back[k] - first[k]);
        prop_assert_eq!(by[2], 0);
        let mut moved: Vec<(Cell, char)> =
            cells.iter().map(|&(c, m)| (grid.translate(c, by), m)).collect();
        moved.sort_unstable();
        let mut back = back;
        back.sort_unstable();
        prop_assert_eq!(back, moved, "{}", text);
        // no trailing blanks, and the picture starts at the top left
        prop_assert!(text.lines().all(|l| !l.ends_with(' ')));
        prop_assert!(!text.starts_with('\n'));
    }
}
