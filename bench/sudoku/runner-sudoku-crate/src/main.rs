//! `runner-sudoku-crate FILE [--limit N]`: counts the solutions of every puzzle
//! of FILE (up to N, default 2) with the `sudoku` crate's public API
//! (`Sudoku::from_bytes`, `Sudoku::solutions_count_up_to`) and prints one JSON
//! line. Parsing is done before the clock starts.

#[path = "../../common.rs"]
mod common;

use sudoku::Sudoku;

const RUNNER: &str = "sudoku-crate";

fn main() {
    let args = common::parse_args("runner-sudoku-crate");
    let puzzles: Vec<Sudoku> = common::read_puzzles(&args.file)
        .into_iter()
        .map(|p| Sudoku::from_bytes(p).expect("digits are 0..=9"))
        .collect();
    let limit = usize::try_from(args.limit).unwrap_or(usize::MAX);
    let mut counts = Vec::with_capacity(puzzles.len());

    let clock = common::Clock::start();
    for s in &puzzles {
        counts.push(std::hint::black_box(*s).solutions_count_up_to(limit));
    }
    let times = clock.stop();

    let mut tally = common::Tally::default();
    for &c in &counts {
        tally.add(c as u64);
    }
    common::print_json(RUNNER, &args.file, puzzles.len(), times, &tally);
}
