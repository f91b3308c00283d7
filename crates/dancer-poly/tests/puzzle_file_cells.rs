//! The cells of a puzzle file: each coordinate checked against the range
//! without arithmetic that could wrap, each cell with as many coordinates
//! as its grid's cells have, and every refusal at the cell's own line and
//! column, wherever cells are given (board cells, faces, holes, pieces).

use dancer_poly::grid::PolyGrid;
use dancer_poly::{parse, Model, PolyError};

/// The refusal of `text` as `f.toml`: `LINE:COL` and the message.
fn refusal(text: &str) -> (String, String) {
    let e = match parse(text, "f.toml").and_then(Model::new) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e,
    };
    let at = e.location().unwrap_or_else(|| panic!("no place: {e}"));
    assert!(matches!(e, PolyError::File { .. }), "{e:?}");
    (format!("{}:{}", at.line, at.col), e.message())
}

const DOMINO: &str = "[[piece]]\nname = \"D\"\ncells = [[0, 0], [1, 0]]\n";

#[test]
fn coordinates_at_the_ends_of_i64_are_out_of_range_wherever_they_are() {
    let min = i64::MIN;
    // once: i64::MIN.abs() wrapped to i64::MIN, passed the range check,
    // became 0, and this board [[0, 0], [1, 0]] had one solution
    let (at, m) = refusal(&format!("[board]\ncells = [[{min}, 0], [1, 0]]\n{DOMINO}"));
    assert_eq!(at, "2:10");
    assert_eq!(
        m,
        format!("cells: coordinate {min} is out of range (-100000 to 100000)")
    );
    let (at, m) = refusal(&format!(
        "[board]\nrect = [2, 1]\n[[piece]]\nname = \"D\"\ncells = [[0, 0], [{min}, 0]]\n"
    ));
    assert_eq!(at, "5:18");
    assert!(
        m.starts_with(&format!("piece \"D\": coordinate {min} is out of range")),
        "{m}"
    );
    let (at, m) = refusal(&format!(
        "[board]\nrect = [3, 1]\nholes = [[0, 0], [1, {min}]]\n{DOMINO}"
    ));
    assert_eq!(at, "3:18");
    assert!(
        m.starts_with(&format!("holes: coordinate {min} is out of range")),
        "{m}"
    );
    // the hexagon grid, and faces of the edge grids
    let (at, m) = refusal(&format!(
        "grid = \"hexagon\"\n[board]\ncells = [[0, 0], [{min}, 0]]\n{DOMINO}"
    ));
    assert_eq!(at, "3:18");
    assert!(m.contains("is out of range"), "{m}");
    let (at, m) = refusal(&format!(
        "grid = \"stick\"\n[board]\nfaces = [[{min}, 0]]\n{DOMINO}"
    ));
    assert_eq!(at, "3:10");
    assert!(
        m.starts_with(&format!("faces: coordinate {min} is out of range")),
        "{m}"
    );
    // the other end, and just past the range, alike
    for x in [i64::MAX, 100_001, -100_001] {
        let (at, m) = refusal(&format!("[board]\ncells = [[0, 0], [{x}, 0]]\n{DOMINO}"));
        assert_eq!(at, "2:18");
        assert!(
            m.contains(&format!("coordinate {x} is out of range")),
            "{m}"
        );
    }
    // in range: read as given
    let p = parse(
        &format!("[board]\ncells = [[-100000, 0], [-99999, 0]]\n{DOMINO}"),
        "f.toml",
    )
    .unwrap();
    assert_eq!(p.board.len(), 2);
}

/// Each grid's cells as files write them: how many coordinates, and in
/// words (as README's table of grids has them).
const ARITY: [(&str, usize, &str); 9] = [
    ("square", 2, "[x, y]"),
    ("cube", 3, "[x, y, z]"),
    ("stick", 3, "[x, y, k]"),
    ("triangle", 3, "[x, y, k]"),
    ("hexagon", 2, "[x, y]"),
    ("twig", 3, "[x, y, k]"),
    ("trig", 3, "[x, y, k]"),
    ("sphere", 3, "[x, y, z]"),
    ("prism", 3, "[x, y, z]"),
];

#[test]
fn every_grid_refuses_a_cell_of_the_wrong_arity_at_its_place() {
    assert_eq!(ARITY.len(), PolyGrid::ALL.len());
    for (grid, arity, form) in ARITY {
        assert!(PolyGrid::from_name(grid).is_some());
        let (wrong, right, n) = match arity {
            2 => ("[0, 0, 0]", "[0, 0]", 3),
            _ => ("[0, 0]", "[0, 0, 0]", 2),
        };
        let piece = format!("[[piece]]\nname = \"Q\"\ncells = [{right}]\ncount = \"any\"\n");
        let text = format!("grid = \"{grid}\"\n[board]\ncells = [{right}, {wrong}]\n{piece}");
        let (at, m) = refusal(&text);
        assert_eq!(at, format!("3:{}", 11 + right.len() + 1), "{grid}");
        assert_eq!(
            m,
            format!("cells: {wrong} has {n} coordinates; a cell of the {grid} grid has {arity} ({form})")
        );
        // and a piece's cells alike
        let text = format!(
            "grid = \"{grid}\"\n[board]\ncells = [{right}]\n[[piece]]\nname = \"Q\"\ncells = [{wrong}]\n"
        );
        let (at, m) = refusal(&text);
        assert_eq!(at, "6:10", "{grid}");
        assert!(
            m.starts_with(&format!("piece \"Q\": {wrong} has {n} coordinates")),
            "{m}"
        );
    }
    // the hexagon of the report: three coordinates, once read as two
    let (at, m) = refusal(&format!(
        "grid = \"hexagon\"\n[board]\ncells = [[0, 0, 0], [1, 0]]\n{DOMINO}"
    ));
    assert_eq!(at, "3:10");
    assert!(
        m.contains("a cell of the hexagon grid has 2 ([x, y])"),
        "{m}"
    );
}
