//! Puzzles with more placements than the model takes are refused before
//! the placements are made: by their count, whatever their cells.

use dancer_poly::model::MAX_PLACEMENTS;
use dancer_poly::{Board, Copies, Model, Piece, PolyError, PolyPuzzle};

#[test]
fn ten_thousand_monominoes_of_their_own_are_refused_by_their_placements() {
    // 10,000 pieces of one cell on 10,000 cells: 100 million placements.
    // Once: 20 million of them made (1.26 GB) before a refusal by cells.
    let pieces: Vec<Piece> = (0..10_000)
        .map(|k| Piece::new(format!("m{k}"), &[[0, 0, 0]], Copies::Exactly(1)))
        .collect();
    let p = PolyPuzzle::new("monominoes", Board::rect(100, 100), pieces);
    let e = Model::new(p).err().expect("refused");
    assert!(matches!(e, PolyError::TooLarge { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        format!("the puzzle is too large: the pieces have more than {MAX_PLACEMENTS} placements (10000 pieces on a board of 10000 cells)")
    );
    // fewer are built
    let pieces: Vec<Piece> = (0..10)
        .map(|k| Piece::new(format!("m{k}"), &[[0, 0, 0]], Copies::Any))
        .collect();
    let m = Model::new(PolyPuzzle::new("ok", Board::rect(100, 100), pieces)).unwrap();
    assert_eq!(m.placements.len(), 100_000);
}
