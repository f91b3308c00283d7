//! The NDJSON records of Sudoku results (their types, documented, are
//! [`dancer_formats::ndjson`]'s), made from this crate's results, so that
//! the command line and the web app print the same; and what a batch
//! prints of each puzzle ([`BatchOutput`]: that record, or its line of
//! text), rendered on the batch's worker threads. An invalid puzzle's
//! `error` is in the front end's words: each passes its `box_hint`, how to
//! give a box shape (see [`crate::PuzzleError::words`]).

use crate::batch::{LineOutcome, RateResult};
use crate::generate::GivensSymmetry;
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
pub fn solve_record(line: usize, o: &LineOutcome, box_hint: &str) -> SudokuSolveRecord {
    let (s, puzzle) = match o {
        LineOutcome::Invalid(why) => {
            return SudokuSolveRecord::Invalid(InvalidPuzzle::new(line, why.words(box_hint)))
        }
        LineOutcome::Solved(p, s) => (s, p.to_line()),
        // the killer's own line, cages and all
        LineOutcome::Killer(k, s) => (s, k.to_line()),
    };
    let status = s.status();
    SudokuSolveRecord::Solved {
        line,
        puzzle,
        status: verdict(status),
        solution: (status == Status::Unique).then(|| s.solutions[0].to_line()),
        solutions: (status == Status::Multiple)
            .then(|| s.solutions.iter().map(Grid::to_line).collect()),
    }
}

/// `sudoku count`: the count up to `limit`, whether it is complete, and
/// the effort.
pub fn count_record(line: usize, o: &LineOutcome, limit: u64, box_hint: &str) -> SudokuCountRecord {
    match o {
        LineOutcome::Invalid(why) => {
            SudokuCountRecord::Invalid(InvalidPuzzle::new(line, why.words(box_hint)))
        }
        LineOutcome::Solved(_, s) | LineOutcome::Killer(_, s) => SudokuCountRecord::Counted {
            line,
            count: s.count,
            complete: s.count < limit,
            effort: s.effort,
        },
    }
}

/// `sudoku check`: the verdict.
pub fn check_record(line: usize, o: &LineOutcome, box_hint: &str) -> SudokuCheckRecord {
    match o {
        LineOutcome::Invalid(why) => {
            SudokuCheckRecord::Invalid(InvalidPuzzle::new(line, why.words(box_hint)))
        }
        LineOutcome::Solved(_, s) | LineOutcome::Killer(_, s) => SudokuCheckRecord::Checked {
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

/// `sudoku rate`'s line of text: the rating and level (`10.6 extreme`), a
/// lower bound for one stopped early (`at least 10.6 extreme (timeout
/// after 12 steps; hardest step so far: ...)`), `not unique`, or
/// `invalid: WHY`.
pub fn rate_text(r: &RateResult, box_hint: &str) -> String {
    let r = match r {
        Err(why) => return format!("invalid: {}", why.words(box_hint)),
        Ok(None) => return "not unique".into(),
        Ok(Some(r)) => r,
    };
    let Some(s) = r.stopped else {
        return format!("{:.1} {}", r.se, r.level.name());
    };
    let so_far = match r.hardest {
        Some(t) => format!("hardest step so far: {} {:.1}", t.name(), r.se),
        None => "no step taken".to_string(),
    };
    format!(
        "at least {:.1} {} ({} after {} {}; {so_far})",
        r.at_least(),
        r.level.name(),
        s.why.name(),
        r.steps,
        if r.steps == 1 { "step" } else { "steps" },
    )
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
    symmetry: GivensSymmetry,
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

/// `sudoku generate`'s line of a puzzle: its record with `json`, else
/// its grid with box lines with `pretty`, else its line of givens.
pub fn push_generated(
    p: &Puzzle,
    rating: Option<&Rating>,
    symmetry: GivensSymmetry,
    json: bool,
    pretty: bool,
    buf: &mut String,
) {
    if json {
        push_record(&generate_record(p, rating, symmetry), buf);
    } else if pretty {
        buf.push_str(&p.givens.pretty(&p.rules));
        buf.push('\n');
    } else {
        p.givens.push_line(buf);
        buf.push('\n');
    }
}

/// What a batch prints of each puzzle, by command: its record (one line
/// of NDJSON), or its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchOutput {
    /// The solution, `multiple`, `none` or `invalid: WHY`; `pretty`:
    /// grids with box lines (two of a puzzle's solutions when it has
    /// several, after a line that says so).
    Solve { pretty: bool },
    /// The number of solutions, up to `limit`.
    Count { limit: u64 },
    /// The verdict: `unique`, `multiple`, `none`; `pretty`: below the
    /// puzzle's grid, a blank line after it.
    Check { pretty: bool },
}

impl BatchOutput {
    /// The command's name (of its part files: `dancer_runs::batch`).
    pub fn command(&self) -> &'static str {
        match self {
            BatchOutput::Solve { .. } => "solve",
            BatchOutput::Count { .. } => "count",
            BatchOutput::Check { .. } => "check",
        }
    }

    /// The solutions to count of each puzzle ([`Batch::limit`]).
    ///
    /// [`Batch::limit`]: crate::batch::Batch
    pub fn limit(&self) -> u64 {
        match self {
            BatchOutput::Count { limit } => *limit,
            _ => 2,
        }
    }

    /// The solutions to keep of each puzzle (what is printed of them).
    pub fn keep(&self) -> usize {
        match self {
            BatchOutput::Solve { .. } => 2,
            _ => 0,
        }
    }

    /// Whether the batch is answered only when every puzzle has exactly
    /// one solution ([`Tally::verdict`](crate::batch::Tally::verdict)).
    pub fn all_unique(&self) -> bool {
        matches!(self, BatchOutput::Check { .. })
    }

    /// Appends what puzzle `line`'s outcome prints to `buf`: its record
    /// with `json`, else its text; each ends with a line break.
    pub fn push(&self, line: usize, o: &LineOutcome, json: bool, box_hint: &str, buf: &mut String) {
        match (*self, json) {
            (BatchOutput::Solve { .. }, true) => push_record(&solve_record(line, o, box_hint), buf),
            (BatchOutput::Count { limit }, true) => {
                push_record(&count_record(line, o, limit, box_hint), buf)
            }
            (BatchOutput::Check { .. }, true) => push_record(&check_record(line, o, box_hint), buf),
            (_, false) => self.push_text(o, box_hint, buf),
        }
    }

    /// An outcome's text.
    fn push_text(&self, o: &LineOutcome, box_hint: &str, buf: &mut String) {
        let (p, s) = match o {
            LineOutcome::Invalid(why) => {
                buf.push_str("invalid: ");
                buf.push_str(&why.words(box_hint));
                return buf.push('\n');
            }
            LineOutcome::Solved(p, s) => (p, s),
            LineOutcome::Killer(k, s) => (&k.puzzle, s),
        };
        let status = s.status();
        match (*self, status) {
            (BatchOutput::Solve { pretty: false }, Status::Unique) => s.solutions[0].push_line(buf),
            (BatchOutput::Solve { pretty: true }, Status::Unique) => {
                buf.push_str(&s.solutions[0].pretty(&p.rules))
            }
            (BatchOutput::Solve { pretty: false }, Status::Multiple) => buf.push_str("multiple"),
            (BatchOutput::Solve { pretty: true }, Status::Multiple) => {
                buf.push_str("multiple; two of the solutions:\n");
                for g in &s.solutions {
                    buf.push_str(&g.pretty(&p.rules));
                    buf.push('\n');
                }
                return;
            }
            (BatchOutput::Solve { .. }, Status::None) => buf.push_str("none"),
            (BatchOutput::Count { .. }, _) => buf.push_str(&s.count.to_string()),
            (BatchOutput::Check { pretty }, _) => {
                if pretty {
                    buf.push_str(&p.givens.pretty(&p.rules));
                }
                buf.push_str(&status.to_string());
                if pretty {
                    buf.push('\n');
                }
            }
        }
        buf.push('\n');
    }
}

/// A record as one line.
fn push_record<T: serde::Serialize>(r: &T, buf: &mut String) {
    buf.push_str(&serde_json::to_string(r).expect("plain data serialises"));
    buf.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{run, Batch, Invalid, RulesSpec};
    use crate::logic::Level;
    use crate::SudokuEngine;

    /// The outcomes of a batch of 4x4 puzzles: unique, multiple, none (two
    /// 1s in a row are not read: a puzzle with no solution must be well
    /// formed), invalid.
    fn outcomes() -> Vec<LineOutcome> {
        let text = "12343412214343.1\n................\n12..34..........\n12\n";
        let b = Batch {
            spec: RulesSpec::default(),
            engine: SudokuEngine::Auto,
            layout: crate::Layout::Lines,
            limit: 2,
            keep: 2,
            threads: 1,
            first_line: 1,
            cancel: None,
        };
        let mut all = Vec::new();
        let each = |_, o: &LineOutcome| {
            all.push(o.clone());
            Ok(())
        };
        run(&b, text, each, &Default::default()).unwrap();
        all
    }

    fn printed(out: BatchOutput, json: bool) -> Vec<String> {
        let mut lines = Vec::new();
        for (i, o) in outcomes().iter().enumerate() {
            let mut buf = String::new();
            out.push(i + 1, o, json, "HINT", &mut buf);
            assert!(buf.ends_with('\n'), "{buf:?}");
            lines.push(buf);
        }
        lines
    }

    /// Each command prints each outcome as its text, or its record as one
    /// line of NDJSON; and asks the batch for what it prints.
    #[test]
    fn batch_outputs() {
        let solve = printed(BatchOutput::Solve { pretty: false }, false);
        assert_eq!(solve[0], "1234341221434321\n");
        assert_eq!(solve[1], "multiple\n");
        assert!(solve[3].starts_with("invalid: ") && solve[3].contains("HINT"));
        let pretty = printed(BatchOutput::Solve { pretty: true }, false);
        assert!(pretty[1].starts_with("multiple; two of the solutions:\n"));
        assert_eq!(
            pretty[1].matches("+").count(),
            2 * pretty[0].matches("+").count()
        );
        assert_eq!(
            printed(BatchOutput::Count { limit: 2 }, false)[..2],
            ["1\n", "2\n"]
        );
        let check = printed(BatchOutput::Check { pretty: false }, false);
        assert_eq!(check[..2], ["unique\n", "multiple\n"]);
        let check = printed(BatchOutput::Check { pretty: true }, false);
        assert!(check[0].ends_with("\nunique\n\n"), "{:?}", check[0]);
        for out in [
            BatchOutput::Solve { pretty: true },
            BatchOutput::Count { limit: 2 },
            BatchOutput::Check { pretty: false },
        ] {
            for (i, line) in printed(out, true).iter().enumerate() {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                assert_eq!(v["line"], i + 1, "{line}");
                assert_eq!(line.matches('\n').count(), 1);
            }
        }
        let c = BatchOutput::Count { limit: 7 };
        assert_eq!(
            (c.command(), c.limit(), c.keep(), c.all_unique()),
            ("count", 7, 0, false)
        );
        let s = BatchOutput::Solve { pretty: false };
        assert_eq!(
            (s.command(), s.limit(), s.keep(), s.all_unique()),
            ("solve", 2, 2, false)
        );
        let k = BatchOutput::Check { pretty: true };
        assert_eq!(
            (k.command(), k.limit(), k.keep(), k.all_unique()),
            ("check", 2, 0, true)
        );
    }

    /// A rating's line: the rating and level, a lower bound, or why there
    /// is none.
    #[test]
    fn rate_texts() {
        let mut r = Rating {
            se: 7.2,
            hardest: Some(logic::Technique::ALL[0]),
            steps: 1,
            solved: true,
            level: Level::of(7.2),
            stopped: None,
        };
        assert_eq!(
            rate_text(&Ok(Some(r.clone())), ""),
            format!("7.2 {}", r.level.name())
        );
        r.stopped = Some(logic::Halted {
            why: logic::Halt::Timeout,
            at_least: 8.0,
        });
        let t = rate_text(&Ok(Some(r.clone())), "");
        let hardest = r.hardest.unwrap().name();
        let level = r.level.name();
        let want = format!(
            "at least 8.0 {level} (timeout after 1 step; hardest step so far: {hardest} 7.2)"
        );
        assert_eq!(t, want);
        r.hardest = None;
        r.steps = 0;
        let t = rate_text(&Ok(Some(r)), "");
        assert!(t.ends_with("(timeout after 0 steps; no step taken)"), "{t}");
        assert_eq!(rate_text(&Ok(None), ""), "not unique");
        let e = Invalid::Unrated("why".into());
        assert_eq!(rate_text(&Err(e), ""), "invalid: why");
    }
}
