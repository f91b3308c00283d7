//! `runner-dancer-fast9 FILE [--limit N]`: counts the solutions of every
//! puzzle of FILE (up to N, default 2) with `dancer_sudoku::fast9::solve` and
//! prints one JSON line. Parsing is done before the clock starts; the
//! solutions found in the timed loop are kept and checked afterwards (every
//! row, column and box a permutation of 1..=9, every given kept), and any
//! wrong one makes the runner exit with status 1.

#[path = "../../common.rs"]
mod common;

use dancer_sudoku::fast9::{solve, Fast9Stats};

const RUNNER: &str = "dancer-fast9";

/// Up to this many solutions per puzzle are kept for the check.
const KEEP: usize = 2;

fn main() {
    let args = common::parse_args("runner-dancer-fast9");
    let puzzles = common::read_puzzles(&args.file);
    let mut counts = vec![0u64; puzzles.len()];
    let mut sols = vec![[[0u8; 81]; KEEP]; puzzles.len()];
    let mut guesses = 0u64;

    let clock = common::Clock::start();
    for ((p, c), out) in puzzles.iter().zip(counts.iter_mut()).zip(sols.iter_mut()) {
        let mut st = Fast9Stats::default();
        *c = solve(std::hint::black_box(p), args.limit, out, &mut st);
        guesses += st.guesses;
    }
    let times = clock.stop();

    let mut tally = common::Tally::default();
    let mut bad = 0u64;
    for (n, ((p, &c), out)) in puzzles.iter().zip(&counts).zip(&sols).enumerate() {
        tally.add(c);
        if c > args.limit {
            eprintln!("puzzle {}: {c} solutions reported, over the limit", n + 1);
            bad += 1;
        }
        let kept = usize::try_from(c).unwrap_or(usize::MAX).min(KEEP);
        for (k, s) in out[..kept].iter().enumerate() {
            if let Err(e) = check(p, s) {
                eprintln!("puzzle {}: solution {} is wrong: {e}", n + 1, k + 1);
                bad += 1;
            }
        }
        if kept == 2 && out[0] == out[1] {
            eprintln!("puzzle {}: the same solution was reported twice", n + 1);
            bad += 1;
        }
    }
    if std::env::var_os("FAST9_GUESSES").is_some() {
        eprintln!("guesses: {guesses}");
    }
    common::print_json(RUNNER, &args.file, puzzles.len(), times, &tally);
    if bad != 0 {
        eprintln!("{bad} wrong solution(s)");
        std::process::exit(1);
    }
}

/// Checks a solution independently of the solver: digits 1..=9, every row,
/// column and box a permutation of 1..=9, and every given of `p` kept.
fn check(p: &[u8; 81], s: &[u8; 81]) -> Result<(), String> {
    for (i, (&g, &v)) in p.iter().zip(s).enumerate() {
        if !(1..=9).contains(&v) {
            return Err(format!("cell {i} holds {v}"));
        }
        if g != 0 && g != v {
            return Err(format!("cell {i} changes the given {g} to {v}"));
        }
    }
    for u in 0..9 {
        let (mut row, mut col, mut bx) = (0u16, 0u16, 0u16);
        for k in 0..9 {
            row |= 1 << s[u * 9 + k];
            col |= 1 << s[k * 9 + u];
            bx |= 1 << s[(u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3];
        }
        for (what, m) in [("row", row), ("column", col), ("box", bx)] {
            if m != 0b11_1111_1110 {
                return Err(format!("{what} {} is not a permutation of 1..9", u + 1));
            }
        }
    }
    Ok(())
}
