//! The canonical form of 9x9 grids ([`dancer_sudoku::canon`]): the same
//! form for every transform of a grid, and a transform that reproduces it,
//! on random grids (proptest) and on the 17-clue puzzles of `../shared`
//! (skipped when absent).

use dancer_sudoku::canon::{canonical, GridTransform};
use proptest::prelude::*;
use std::io::BufRead;

/// A grid of `givens` (cell, value) pairs on an empty grid; later pairs on
/// the same cell win.
fn grid_of(givens: &[(usize, u8)]) -> [u8; 81] {
    let mut g = [0u8; 81];
    for &(c, v) in givens {
        g[c] = v;
    }
    g
}

/// Checks the form of `g` and of its image under `t`.
fn same_form(g: &[u8; 81], t: &GridTransform) -> Result<(), TestCaseError> {
    let (form, tg) = canonical(g);
    prop_assert_eq!(tg.apply(g), form);
    let h = t.apply(g);
    let (form_h, th) = canonical(&h);
    prop_assert_eq!(th.apply(&h), form_h);
    prop_assert_eq!(form_h, form);
    // The transforms compose: g -> h -> form is g -> form.
    prop_assert_eq!(t.then(&th).apply(g), form);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Sparse grids, values from all nine digits (like puzzles, but not
    /// necessarily valid).
    #[test]
    fn canon_sparse_grids(
        givens in prop::collection::vec((0usize..81, 1u8..=9), 0..30),
        seed in any::<u64>(),
    ) {
        same_form(&grid_of(&givens), &GridTransform::random(seed))?;
    }

    /// Dense grids of few digits: many equal rows, columns and stacks, and
    /// large automorphism groups.
    #[test]
    fn canon_dense_grids_of_few_digits(
        givens in prop::collection::vec((0usize..81, 1u8..=3), 0..120),
        seed in any::<u64>(),
    ) {
        same_form(&grid_of(&givens), &GridTransform::random(seed))?;
    }

    /// Any 81 values.
    #[test]
    fn canon_any_grid(
        cells in prop::collection::vec(0u8..=9, 81),
        seed in any::<u64>(),
    ) {
        let g: [u8; 81] = cells.try_into().unwrap();
        same_form(&g, &GridTransform::random(seed))?;
    }
}

/// The first 2,000 puzzles of the 17-clue list, each under a random
/// transform.
#[test]
fn canon_17_clue_file() {
    let Some(path) = dancer_testdata::shared_file("sudoku", "17_clue.txt") else {
        return;
    };
    let file = std::fs::File::open(&path).unwrap();
    let mut n = 0;
    for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.unwrap();
        let b = line.as_bytes();
        if b.len() < 81 {
            continue;
        }
        let mut g = [0u8; 81];
        for (c, v) in g.iter_mut().enumerate() {
            *v = match b[c] {
                b'1'..=b'9' => b[c] - b'0',
                _ => 0,
            };
        }
        let (form, t) = canonical(&g);
        assert_eq!(t.apply(&g), form, "line {}", i + 1);
        let h = GridTransform::random(i as u64).apply(&g);
        let (form_h, th) = canonical(&h);
        assert_eq!(th.apply(&h), form_h, "line {}", i + 1);
        assert_eq!(form_h, form, "line {}: {line}", i + 1);
        // 17 givens stay 17.
        assert_eq!(
            form.iter().filter(|&&v| v != 0).count(),
            17,
            "line {}",
            i + 1
        );
        n += 1;
        if n == 2000 {
            break;
        }
    }
    assert_eq!(n, 2000, "{} holds fewer than 2,000 puzzles", path.display());
}
