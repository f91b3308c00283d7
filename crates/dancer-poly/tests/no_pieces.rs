//! A puzzle without pieces: the library says so itself, in the same words
//! wherever the puzzle comes from (made in code, as the Python package
//! makes it, or read from a file), never a sum of counts of nothing.

use dancer_poly::{parse, Board, Model, PolyPuzzle};

#[test]
fn a_puzzle_without_pieces_says_so_wherever_it_comes_from() {
    // once: "no choice of counts of  adds up to it"
    let e = Model::new(PolyPuzzle::new("p", Board::rect(1, 1), Vec::new()))
        .err()
        .expect("refused");
    assert_eq!(e.location(), None);
    assert_eq!(
        e.to_string(),
        "no pieces given: a puzzle needs at least one"
    );
    // a file: the same words, at the board
    let e = parse("name = \"n\"\n[board]\nrect = [2, 2]\n", "f.toml").unwrap_err();
    assert_eq!(
        e.to_string(),
        "f.toml:2:1: no pieces given: a puzzle needs at least one"
    );
}
