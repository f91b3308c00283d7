//! Classic exact cover problems, generated: the n queens, Langford pairs
//! and MacMahon's coloured squares (exact cover with colours), for
//! examples, tests and benchmarks (`dancer gen`).
//!
//! The n-queens problem is written exactly as the `queens-N.dlx` files that
//! accompany Knuth's programs are: rows and columns are primary items listed
//! from the middle outwards ("organ-pipe" order, which makes the search much
//! faster), the diagonals are secondary, and the two corner diagonals that
//! hold a single square are left out.
//!
//! What a front end may ask for is checked here too, with a [`ValueError`]
//! for what is refused: [`queens_within`] and [`langford_within`] (the
//! sizes that fit in memory and time), [`macmahon_board`] (a board
//! written `ROWSxCOLS`); [`queens_board`] reads a solution of [`queens`]
//! back as a board.

use crate::problem::{OptionId, Problem, ProblemBuilder};
use crate::ValueError;

/// The largest board [`queens_within`] makes.
pub const MAX_QUEENS: usize = 4096;

/// The largest `n` [`langford_within`] takes.
pub const MAX_LANGFORD: usize = 10_000;

/// The colours [`macmahon_board`] takes: 2 (6 squares), 3 (MacMahon's
/// 24), 4 (70); one colour makes a single square.
pub const MACMAHON_COLOURS: std::ops::RangeInclusive<usize> = 2..=4;

/// A coordinate as a short name: one base-36 digit when every coordinate of
/// the problem fits in one, else decimal.
fn code(x: usize, one_digit: bool) -> String {
    if one_digit {
        std::char::from_digit(x as u32, 36).unwrap().to_string()
    } else {
        x.to_string()
    }
}

/// The n-queens problem: place `n` queens on an `n`x`n` board, no two in a
/// row, column or diagonal. Rows `rI` and columns `cJ` are primary; diagonals
/// `aK` (I+J = K) and `bK` (J-I+n-1 = K) are secondary. Solutions: OEIS A000170.
pub fn queens(n: usize) -> Problem {
    assert!(n >= 1, "queens needs n >= 1");
    let one = 2 * n < 37;
    let mut b = ProblemBuilder::new();
    let mut order = vec![n / 2];
    for d in 1..n {
        if n / 2 >= d {
            order.push(n / 2 - d);
        }
        if n / 2 + d < n {
            order.push(n / 2 + d);
        }
    }
    for &i in &order {
        b.primary(&format!("r{}", code(i, one))).unwrap();
        b.primary(&format!("c{}", code(i, one))).unwrap();
    }
    for k in 1..(2 * n).saturating_sub(2) {
        b.secondary(&format!("a{}", code(k, one))).unwrap();
        b.secondary(&format!("b{}", code(k, one))).unwrap();
    }
    for i in 0..n {
        for j in 0..n {
            let mut opt = vec![format!("r{}", code(i, one)), format!("c{}", code(j, one))];
            let a = i + j;
            let d = j + n - 1 - i;
            if a > 0 && a < 2 * n - 2 {
                opt.push(format!("a{}", code(a, one)));
            }
            if d > 0 && d < 2 * n - 2 {
                opt.push(format!("b{}", code(d, one)));
            }
            b.option(&opt).unwrap();
        }
    }
    b.build().unwrap()
}

/// [`queens`] for `n` from 1 to [`MAX_QUEENS`], else
/// [`ValueError::ProblemSize`].
pub fn queens_within(n: usize) -> Result<Problem, ValueError> {
    within("queens", n, MAX_QUEENS).map(queens)
}

/// [`langford`] for `n` from 1 to [`MAX_LANGFORD`], else
/// [`ValueError::ProblemSize`].
pub fn langford_within(n: usize) -> Result<Problem, ValueError> {
    within("langford", n, MAX_LANGFORD).map(langford)
}

/// `n`, when it is 1 to `max`.
fn within(problem: &'static str, n: usize, max: usize) -> Result<usize, ValueError> {
    if n == 0 || n > max {
        return Err(ValueError::ProblemSize { problem, n, max });
    }
    Ok(n)
}

/// Where the queens of `solution`, a solution of [`queens`]`(n)`, stand:
/// `n` rows of `n` cells, `true` under a queen.
pub fn queens_board(problem: &Problem, solution: &[OptionId]) -> Vec<Vec<bool>> {
    let n = problem.n_primary() / 2;
    let radix = if 2 * n < 37 { 36 } else { 10 };
    let mut board = vec![vec![false; n]; n];
    for &o in solution {
        let (mut r, mut c) = (0, 0);
        for item in problem.option(o).items() {
            let name = problem.item_name(item);
            let v = usize::from_str_radix(&name[1..], radix).unwrap_or(0);
            match &name[..1] {
                "r" => r = v,
                "c" => c = v,
                _ => {}
            }
        }
        board[r][c] = true;
    }
    board
}

/// Langford pairs: arrange two copies of each of 1..=n in 2n slots so that
/// the copies of k have k numbers between them. Items `1..n` and slots
/// `s1..s2n`, all primary. Solutions: twice OEIS A014552 (each arrangement
/// and its reversal).
pub fn langford(n: usize) -> Problem {
    assert!(n >= 1, "langford needs n >= 1");
    let mut b = ProblemBuilder::new();
    for k in 1..=n {
        b.primary(&k.to_string()).unwrap();
    }
    for s in 1..=2 * n {
        b.primary(&format!("s{s}")).unwrap();
    }
    for k in 1..=n {
        let mut i = 1;
        while i + k < 2 * n {
            b.option([k.to_string(), format!("s{i}"), format!("s{}", i + k + 1)])
                .unwrap();
            i += 1;
        }
    }
    b.build().unwrap()
}

/// A MacMahon puzzle as a front end asks for it ([`macmahon_board`]).
#[derive(Clone, Debug)]
pub struct MacMahon {
    /// The exact cover problem ([`macmahon`]).
    pub problem: Problem,
    /// How many squares there are.
    pub squares: usize,
    /// The board's rows.
    pub rows: usize,
    /// The board's columns.
    pub cols: usize,
}

/// How many squares `colours` colours make (each colouring of the edges
/// up to rotation): 6 with 2, 24 with 3, 70 with 4.
fn squares(colours: usize) -> usize {
    let c = colours;
    (c.pow(4) + c * c + 2 * c) / 4
}

/// [`macmahon`] on the board `board`, written `ROWSxCOLS` (`4x6`), with
/// `colours` in [`MACMAHON_COLOURS`]: else [`ValueError::Colours`], or
/// [`ValueError::Board`] when the board is not so written or has not one
/// cell per square.
pub fn macmahon_board(colours: usize, board: &str) -> Result<MacMahon, ValueError> {
    if !MACMAHON_COLOURS.contains(&colours) {
        return Err(ValueError::Colours { colours });
    }
    let squares = squares(colours);
    let dims = (board.split_once('x'))
        .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)));
    let made = dims.and_then(|(rows, cols)| Some((macmahon(colours, rows, cols)?, rows, cols)));
    let (problem, rows, cols) = made.ok_or_else(|| ValueError::Board {
        board: board.to_string(),
        colours,
        squares,
    })?;
    Ok(MacMahon {
        problem,
        squares,
        rows,
        cols,
    })
}

/// MacMahon's coloured squares: every square whose four edges are coloured
/// with `colours` colours, one of each up to rotation (with three colours,
/// his 24 squares; with two, 6), laid out on a `rows` x `cols` board with
/// as many cells so that edges that touch have the same colour and the
/// border is all colour `a`. Turning a square is allowed, reflecting it is
/// not. `None` when the board does not have one cell per square.
///
/// An exact cover problem with colours: the cells `X.Y` and the squares
/// `pK` are primary; each edge between two cells is a secondary item
/// (`hX.Y`: the edge on the left of cell X.Y; `vX.Y`: the edge above it)
/// that the two squares on either side colour, so that they must agree.
/// Options: every square, turned every way that gives a different square,
/// on every cell where its edges on the border are colour `a`.
pub fn macmahon(colours: usize, rows: usize, cols: usize) -> Option<Problem> {
    const NAMES: [&str; 4] = ["a", "b", "c", "d"];
    if !(1..=NAMES.len()).contains(&colours) {
        return None;
    }
    let c = colours;
    // the squares: edges (top, right, bottom, left), the least of their
    // rotations
    let rot = |e: [usize; 4], r: usize| {
        [
            e[(4 - r) % 4],
            e[(5 - r) % 4],
            e[(6 - r) % 4],
            e[(7 - r) % 4],
        ]
    };
    let mut squares: Vec<[usize; 4]> = Vec::new();
    for code in 0..c.pow(4) {
        let e = [
            code % c,
            code / c % c,
            code / (c * c) % c,
            code / (c * c * c),
        ];
        if (1..4).all(|r| rot(e, r) >= e) {
            squares.push(e);
        }
    }
    if rows.checked_mul(cols) != Some(squares.len()) {
        return None;
    }
    let mut b = ProblemBuilder::new();
    for y in 0..rows {
        for x in 0..cols {
            b.primary(&format!("{x}.{y}")).unwrap();
        }
    }
    for k in 0..squares.len() {
        b.primary(&format!("p{k}")).unwrap();
    }
    for y in 0..rows {
        for x in 0..cols {
            if x > 0 {
                b.secondary(&format!("h{x}.{y}")).unwrap();
            }
            if y > 0 {
                b.secondary(&format!("v{x}.{y}")).unwrap();
            }
        }
    }
    for (k, &sq) in squares.iter().enumerate() {
        let mut turns: Vec<[usize; 4]> = (0..4).map(|r| rot(sq, r)).collect();
        turns.sort();
        turns.dedup();
        for y in 0..rows {
            for x in 0..cols {
                for &[top, right, bottom, left] in &turns {
                    let border = (y == 0 && top != 0)
                        || (x + 1 == cols && right != 0)
                        || (y + 1 == rows && bottom != 0)
                        || (x == 0 && left != 0);
                    if border {
                        continue;
                    }
                    let mut opt = vec![format!("{x}.{y}"), format!("p{k}")];
                    if y > 0 {
                        opt.push(format!("v{x}.{y}:{}", NAMES[top]));
                    }
                    if x + 1 < cols {
                        opt.push(format!("h{}.{y}:{}", x + 1, NAMES[right]));
                    }
                    if y + 1 < rows {
                        opt.push(format!("v{x}.{}:{}", y + 1, NAMES[bottom]));
                    }
                    if x > 0 {
                        opt.push(format!("h{x}.{y}:{}", NAMES[left]));
                    }
                    b.option(&opt).unwrap();
                }
            }
        }
    }
    Some(b.build().unwrap())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_boards_are_checked() {
        assert_eq!(queens_within(8).unwrap().n_options(), 64);
        let too_many = ValueError::ProblemSize {
            problem: "queens",
            n: 4097,
            max: MAX_QUEENS,
        };
        assert_eq!(queens_within(4097).unwrap_err(), too_many);
        assert!(matches!(
            langford_within(0),
            Err(ValueError::ProblemSize {
                n: 0,
                max: 10_000,
                ..
            })
        ));
        assert_eq!(
            macmahon_board(5, "4x6").unwrap_err(),
            ValueError::Colours { colours: 5 }
        );
        for bad in ["5x5", "4by6", "x6", "4x"] {
            let board = bad.to_string();
            let e = ValueError::Board {
                board,
                colours: 3,
                squares: 24,
            };
            assert_eq!(macmahon_board(3, bad).unwrap_err(), e);
        }
        let m = macmahon_board(2, "2x3").unwrap();
        assert_eq!((m.squares, m.rows, m.cols), (6, 2, 3));
        assert_eq!(macmahon_board(4, "7x10").unwrap().squares, 70);
    }

    #[test]
    fn a_solution_of_queens_is_a_board() {
        for n in [1, 5, 8, 19] {
            let p = queens(n);
            let first = crate::first(&p).expect("a solution");
            let board = queens_board(&p, &first);
            assert_eq!(board.len(), n);
            for i in 0..n {
                assert_eq!(board[i].iter().filter(|&&q| q).count(), 1);
                assert_eq!(board.iter().filter(|row| row[i]).count(), 1);
            }
        }
    }
}
