//! The sizes of a killer's map: the error for a map of the wrong length
//! lists every length a map may have, the same as those read (derived
//! from the rule, not written by hand), and a square map whose side has no
//! boxes (a prime) says so rather than that its size is out of range.

use dancer_sudoku::killer::{KillerError, KillerPuzzle};

/// A map of `n`x`n` cells with one cage of one cell (sum 1) and the rest
/// in no cage.
fn map_of_side(n: usize) -> String {
    format!("a{} 1", ".".repeat(n * n - 1))
}

/// The lengths that the error for a map of `cells` cells lists.
fn listed(cells: usize) -> Vec<usize> {
    let line = format!("a{} 1", ".".repeat(cells - 1));
    let e = KillerPuzzle::parse(&line, None).unwrap_err();
    assert!(matches!(e, KillerError::MapLength { .. }), "{e:?}");
    let words = e.to_string();
    let list = words
        .split_once("a killer's map has ")
        .and_then(|(_, rest)| rest.split_once(" cells ("))
        .unwrap_or_else(|| panic!("no list in {words:?}"))
        .0;
    list.replace(" or ", ", ")
        .split(", ")
        .map(|n| n.parse().unwrap_or_else(|_| panic!("{n:?} in {words:?}")))
        .collect()
}

#[test]
fn the_map_length_error_lists_every_length_that_is_read() {
    let read: Vec<usize> = (1..=20)
        .filter(|&n| KillerPuzzle::parse(&map_of_side(n), None).is_ok())
        .map(|n| n * n)
        .collect();
    assert_eq!(read, [16, 36, 64, 81, 100, 144, 196, 225, 256]);
    for cells in [2, 30, 80, 99, 289] {
        assert_eq!(listed(cells), read, "{cells} cells");
    }
}

#[test]
fn a_map_with_a_prime_side_says_it_has_no_boxes() {
    for (n, cells) in [(5, 25), (7, 49), (11, 121), (13, 169)] {
        let e = KillerPuzzle::parse(&map_of_side(n), None).unwrap_err();
        assert_eq!(e, KillerError::NoBoxes { cells, size: n });
        let words = e.to_string();
        assert!(
            words.starts_with(&format!(
                "the map has {cells} cells, a {n}x{n} grid, which has no boxes ({n} is a prime)"
            )),
            "{words}"
        );
        assert!(!words.contains("not supported"), "{words}");
        // the JSON form says it of its size
        let json = format!(r#"{{"size":{n},"cages":[]}}"#);
        let words = KillerPuzzle::parse(&json, None).unwrap_err().to_string();
        assert!(
            words.contains(&format!("size {n}: a {n}x{n} grid has no boxes")),
            "{words}"
        );
    }
}
