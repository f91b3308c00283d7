//! Classic exact cover problems, generated: the n queens and Langford
//! pairs, for examples, tests and benchmarks (`dancer gen`).
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
