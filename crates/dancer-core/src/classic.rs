//! Classic exact cover problems, generated: the n queens, Langford pairs
//! and MacMahon's coloured squares (exact cover with colours), for
//! examples, tests and benchmarks (`dancer gen`).
//!
//! The n-queens problem is written exactly as the `queens-N.dlx` files that
//! accompany Knuth's programs are: rows and columns are primary items listed
//! from the middle outwards ("organ-pipe" order, which makes the search much
//! faster), the diagonals are secondary, and the two corner diagonals that
//! hold a single square are left out.

use crate::problem::{Problem, ProblemBuilder};

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
