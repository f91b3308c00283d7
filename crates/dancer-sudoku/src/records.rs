//! The NDJSON records of Sudoku results (their types, documented, are
//! [`dancer_formats::ndjson`]'s), made from this crate's results, so that
//! the command line and the web app print the same. An invalid puzzle's
//! `error` is in the front end's words: each passes its `box_hint`, how to
//! give a box shape (see [`crate::PuzzleError::words`]).

use crate::batch::{Outcome, RateResult};
use crate::generate::Symmetry;
use crate::grid::Grid;
use crate::logic::{self, Rating};
use crate::puzzle::Puzzle;
use crate::solve::Status;
use dancer_formats::ndjson::{
    InvalidPuzzle, SudokuCheckRecord, SudokuCountRecord, SudokuGenerateRecord, SudokuRateRecord,
    SudokuSolveRecord, Verdict,
};

/// The verdict of a count.
pub fn verdict(status: Status) -> Verdict {
    match status {
        Status::Unique => Verdict::Unique,
        Status::Multiple => Verdict::Multiple,
        Status::None => Verdict::None,
    }
}

/// `sudoku solve`: the puzzle, its verdict, its solution (unique) or two
/// of them (multiple).
pub fn solve_record(line: usize, o: &Outcome, box_hint: &str) -> SudokuSolveRecord {
    let (p, s) = match o {
        Outcome::Invalid(why) => {
            return SudokuSolveRecord::Invalid(InvalidPuzzle::new(line, why.words(box_hint)))
        }
        Outcome::Solved(p, s) => (p, s),
    };
    let status = s.status();
    SudokuSolveRecord::Solved {
        line,
        puzzle: p.to_line(),
        status: verdict(status),
        solution: (status == Status::Unique).then(|| s.solutions[0].to_line()),
        solutions: (status == Status::Multiple)
            .then(|| s.solutions.iter().map(Grid::to_line).collect()),
    }
}

/// `sudoku count`: the count up to `limit`, whether it is complete, and
/// the effort.
pub fn count_record(line: usize, o: &Outcome, limit: u64, box_hint: &str) -> SudokuCountRecord {
    match o {
        Outcome::Invalid(why) => {
            SudokuCountRecord::Invalid(InvalidPuzzle::new(line, why.words(box_hint)))
        }
        Outcome::Solved(_, s) => SudokuCountRecord::Counted {
            line,
            count: s.count,
            complete: s.count < limit,
            effort: s.effort,
        },
    }
}

/// `sudoku check`: the verdict.
pub fn check_record(line: usize, o: &Outcome, box_hint: &str) -> SudokuCheckRecord {
    match o {
        Outcome::Invalid(why) => {
            SudokuCheckRecord::Invalid(InvalidPuzzle::new(line, why.words(box_hint)))
        }
        Outcome::Solved(_, s) => SudokuCheckRecord::Checked {
            line,
            status: verdict(s.status()),
        },
    }
}

/// `sudoku rate`: the rating and level, or why there is none.
pub fn rate_record(line: usize, r: &RateResult, box_hint: &str) -> SudokuRateRecord {
    match r {
        Err(why) => SudokuRateRecord::Invalid(InvalidPuzzle::new(line, why.words(box_hint))),
        Ok(None) => SudokuRateRecord::NotRated {
            line,
            status: Verdict::NotUnique,
        },
        Ok(Some(rt)) => SudokuRateRecord::Rated {
            line,
            rating: rt.se,
            level: rt.level.name().into(),
            hardest: rt.hardest.map(|t| t.name().into()),
            steps: rt.steps,
            solved: rt.solved,
            stopped: rt.stopped.map(|s| s.why.name().into()),
            at_least: rt.stopped.map(|_| round1(rt.at_least())),
        },
    }
}

/// A rating to one decimal, as SE gives them.
fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// `sudoku generate`: the puzzle, its rating and level (9x9: rated now
/// when `rating` is not given), its symmetry and its solution.
pub fn generate_record(
    p: &Puzzle,
    rating: Option<&Rating>,
    symmetry: Symmetry,
) -> SudokuGenerateRecord {
    let r = match rating {
        Some(r) => Some(r.clone()),
        None if p.rules.is_standard_9x9() => Some(logic::rate(&p.givens)),
        None => None,
    };
    let sol = crate::solve(p, 2);
    SudokuGenerateRecord {
        puzzle: p.to_line(),
        givens: p.givens.filled(),
        rating: r.as_ref().map(|r| r.se),
        level: r.as_ref().map(|r| r.level.name().into()),
        symmetry: symmetry.to_string(),
        solution: sol.solutions.first().map(Grid::to_line),
    }
}
