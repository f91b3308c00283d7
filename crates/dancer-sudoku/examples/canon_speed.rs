//! How fast the canonical form of a 9x9 grid is ([`dancer_sudoku::canon`]).
//!
//! ```text
//! cargo run --release -p dancer-sudoku --example canon_speed -- \
//!     ../shared/data/sudoku/17_clue.txt [PASSES] [--shuffle]
//! ```
//!
//! The file holds one puzzle a line: its first 81 characters, digits with
//! `.` or `0` for empty (other lines are skipped). `--shuffle` replaces each
//! puzzle by a random transform of it first (a list may be stored in a
//! canonical form already, which flatters the search). Every puzzle is put
//! in canonical form, PASSES times (5 unless told); it prints the puzzles per
//! second and microseconds per puzzle of the median pass, and the slowest
//! puzzle (by its fastest time over the passes).

use dancer_sudoku::canon::{canonical, GridTransform};
use std::time::Instant;

fn parse(line: &str) -> Option<[u8; 81]> {
    let b = line.as_bytes();
    if b.len() < 81 {
        return None;
    }
    let mut g = [0u8; 81];
    for i in 0..81 {
        g[i] = match b[i] {
            b'.' | b'0' => 0,
            c @ b'1'..=b'9' => c - b'0',
            _ => return None,
        };
    }
    Some(g)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let shuffle = args.iter().any(|a| a == "--shuffle");
    let mut rest = args.iter().filter(|a| *a != "--shuffle");
    let Some(path) = rest.next() else {
        eprintln!("usage: canon_speed FILE [PASSES] [--shuffle]");
        std::process::exit(2);
    };
    let passes: usize = rest.next().and_then(|s| s.parse().ok()).unwrap_or(5);
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    });
    let mut grids: Vec<[u8; 81]> = text.lines().filter_map(parse).collect();
    if shuffle {
        for (i, g) in grids.iter_mut().enumerate() {
            *g = GridTransform::random(i as u64).apply(g);
        }
    }
    if grids.is_empty() {
        eprintln!("{path}: no puzzles");
        std::process::exit(1);
    }
    let mut times = Vec::with_capacity(passes);
    let mut check = 0u64;
    // Each puzzle's fastest time over the passes (what is left of it after
    // interrupts and the like).
    let mut each = vec![f64::INFINITY; grids.len()];
    for _ in 0..passes.max(1) {
        let start = Instant::now();
        for (i, g) in grids.iter().enumerate() {
            let one = Instant::now();
            let (form, t) = canonical(g);
            each[i] = each[i].min(one.elapsed().as_secs_f64());
            check = check.wrapping_add(form[80] as u64 + t.cell(0) as u64);
        }
        times.push(start.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let slowest = each.iter().enumerate().fold(
        (0.0f64, 0usize),
        |m, (i, &s)| if s > m.0 { (s, i) } else { m },
    );
    println!(
        "{path}{}: {} puzzles, median of {} passes {:.3} s: {:.0} puzzles/s, {:.2} us/puzzle \
         (slowest: line {}, {:.1} us; checksum {check})",
        if shuffle { " (shuffled)" } else { "" },
        grids.len(),
        times.len(),
        median,
        grids.len() as f64 / median,
        median * 1e6 / grids.len() as f64,
        slowest.1 + 1,
        slowest.0 * 1e6,
    );
}
