//! Hints: the easiest next step of a puzzle, as a player would take it,
//! in words, a nudge or the whole step, and as a record for programs. The
//! command line's `dancer sudoku hint`, the game of [`crate::play`] and the
//! web app all take their hints from here.
//!
//! Only a plain 9x9 puzzle with exactly one solution gets a hint: steps
//! that assume a unique solution (unique rectangles, BUG+1) could mislead
//! on the others, and the search for a step on a grid with many solutions
//! can be long.

use crate::logic::{self, Budget, Halted, MarkedGrid, Step};
use crate::puzzle::Puzzle;
use crate::rules::cell_name;
use crate::solve::{Solver, Status, SudokuEngine};
use dancer_formats::ndjson::{CellDigit, HintStatus, SudokuHintRecord};

/// How much a hint tells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HintLevel {
    /// Only the technique and where to look.
    Nudge,
    /// The whole step: cells, candidates, what to place or remove.
    #[default]
    Full,
}

impl HintLevel {
    /// Every name [`HintLevel::from_name`] takes.
    pub const NAMES: &'static [&'static str] = &["nudge", "full"];

    /// The level of a name: `nudge` or `full`.
    pub fn from_name(name: &str) -> Option<HintLevel> {
        match name {
            "nudge" => Some(HintLevel::Nudge),
            "full" => Some(HintLevel::Full),
            _ => None,
        }
    }
}

/// What a puzzle gives when asked for a hint.
#[derive(Clone, Debug, PartialEq)]
pub enum Hint {
    /// The next step.
    Step(Step),
    /// The puzzle has no solution: a digit is already wrong.
    NoSolution,
    /// The puzzle has more than one solution.
    NotUnique,
    /// The grid is full.
    Solved,
    /// No known technique makes progress.
    Stuck,
    /// The budget ran out before the step was found ([`hint_within`]).
    Stopped(Halted),
}

/// A puzzle that gets no hint at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HintError {
    #[error("hints are given for plain 9x9 puzzles; this one is {0}")]
    NotStandard(String),
    #[error("the puzzle is not consistent")]
    Inconsistent,
}

/// The hint for `puzzle` (its givens, with the player's entries filled in).
pub fn hint(puzzle: &Puzzle) -> Result<Hint, HintError> {
    hint_within(puzzle, &Budget::unlimited())
}

/// [`hint`] within a budget: [`Hint::Stopped`] when it runs out first.
pub fn hint_within(puzzle: &Puzzle, budget: &Budget) -> Result<Hint, HintError> {
    hint_after(puzzle, &[], budget)
}

/// [`hint_within`] on a grid from which the candidates `removed` (cell,
/// digit; cells 0-based) were already eliminated, as by the hints applied
/// before: the next step goes on from there. A removal in a filled cell,
/// or out of range, is ignored.
pub fn hint_after(
    puzzle: &Puzzle,
    removed: &[(usize, u8)],
    budget: &Budget,
) -> Result<Hint, HintError> {
    if !puzzle.rules.is_standard_9x9() {
        return Err(HintError::NotStandard(puzzle.rules.describe()));
    }
    let solved = Solver::new(&puzzle.rules, SudokuEngine::Auto)
        .expect("auto fits every rule")
        .solve(&puzzle.givens, 2, 1);
    match solved.status() {
        Status::None => return Ok(Hint::NoSolution),
        Status::Multiple => return Ok(Hint::NotUnique),
        Status::Unique => {}
    }
    let mut board = MarkedGrid::try_from_grid(&puzzle.givens).ok_or(HintError::Inconsistent)?;
    for &(c, d) in removed {
        if c < 81 && (1..=9).contains(&d) && board.value(c) == 0 {
            board.eliminate(c, d);
        }
    }
    if board.is_solved() {
        return Ok(Hint::Solved);
    }
    Ok(match logic::next_step_within(&board, budget) {
        Ok(Some(step)) => Hint::Step(step),
        Ok(None) => Hint::Stuck,
        Err(stopped) => Hint::Stopped(stopped),
    })
}

/// The step a hint gives on `board`: the one Sudoku Explainer would take
/// (see [`logic::next_step`]).
pub fn next_step(board: &MarkedGrid) -> Option<Step> {
    logic::next_step(board)
}

impl Hint {
    /// Whether the hint moves the player on (a step, or nothing left to do).
    pub fn found(&self) -> bool {
        matches!(self, Hint::Step(_) | Hint::Solved)
    }

    fn status(&self) -> HintStatus {
        match self {
            Hint::Step(_) => HintStatus::Hint,
            Hint::NoSolution => HintStatus::None,
            Hint::NotUnique => HintStatus::Multiple,
            Hint::Solved => HintStatus::Solved,
            Hint::Stuck => HintStatus::Stuck,
            Hint::Stopped(_) => HintStatus::Stopped,
        }
    }

    /// The hint in words, one or more lines, each ending in a newline:
    ///
    /// ```text
    /// Hidden Single (box): in box 4, 4 can only go in r6c2 (SE 1.2)
    ///   place 4 in r6c2
    /// ```
    pub fn text(&self, level: HintLevel) -> String {
        let step = match self {
            Hint::Step(s) => s,
            Hint::NoSolution => {
                return "This puzzle has no solution: a digit is already wrong.\n".into()
            }
            Hint::NotUnique => {
                return "This puzzle has more than one solution: no hint can lead to one answer.\n"
                    .into()
            }
            Hint::Solved => return "The grid is full: nothing left to do.\n".into(),
            Hint::Stuck => return "No logical step found.\n".into(),
            Hint::Stopped(s) => return format!("{}.\n", stopped_text(s)),
        };
        let mut out = String::new();
        match level {
            HintLevel::Nudge => {
                // where to look: the step's units, or else the boxes of
                // its cells (a naked single names no unit; its box does
                // not give the cell away)
                let mut boxes: Vec<usize> = step
                    .cells
                    .iter()
                    .filter(|&&c| c < 81)
                    .map(|&c| (c / 27) * 3 + (c % 9) / 3 + 1)
                    .collect();
                boxes.sort_unstable();
                boxes.dedup();
                let place = if !step.units.is_empty() {
                    format!(" Look at {}.", step.units.join(", "))
                } else if !boxes.is_empty() {
                    let names: Vec<String> = boxes.iter().map(|b| format!("box {b}")).collect();
                    format!(" Look at {}.", names.join(", "))
                } else {
                    String::new()
                };
                out.push_str(&format!(
                    "Try a {} (SE {:.1}).{place}\n",
                    step.technique.name(),
                    step.rating()
                ));
            }
            HintLevel::Full => {
                out.push_str(&format!("{} (SE {:.1})\n", step.description, step.rating()));
                for &(c, d) in &step.placements {
                    out.push_str(&format!("  place {d} in {}\n", cell_name(9, c)));
                }
                if !step.eliminations.is_empty() {
                    let e: Vec<String> = step
                        .eliminations
                        .iter()
                        .map(|&(c, d)| format!("{d} from {}", cell_name(9, c)))
                        .collect();
                    out.push_str(&format!("  remove {}\n", e.join(", ")));
                }
            }
        }
        out
    }

    /// The hint as a record (see [`SudokuHintRecord`]).
    pub fn record(&self, level: HintLevel) -> SudokuHintRecord {
        let status = self.status();
        let step = match self {
            Hint::Step(s) => s,
            Hint::NoSolution => {
                return SudokuHintRecord::NoStep {
                    status,
                    message: Some("the puzzle has no solution".into()),
                }
            }
            Hint::NotUnique => {
                return SudokuHintRecord::NoStep {
                    status,
                    message: Some("the puzzle has more than one solution".into()),
                }
            }
            Hint::Stopped(s) => {
                return SudokuHintRecord::NoStep {
                    status,
                    message: Some(stopped_text(s)),
                }
            }
            Hint::Solved | Hint::Stuck => {
                return SudokuHintRecord::NoStep {
                    status,
                    message: None,
                }
            }
        };
        let full = level == HintLevel::Full;
        let cell_digits = |v: &[(usize, u8)]| {
            v.iter()
                .map(|&(c, d)| CellDigit {
                    cell: cell_name(9, c),
                    digit: d,
                })
                .collect::<Vec<_>>()
        };
        SudokuHintRecord::Step {
            technique: step.technique.name().into(),
            rating: step.rating(),
            units: step.units.clone(),
            cells: full.then(|| step.cells.iter().map(|&c| cell_name(9, c)).collect()),
            digits: full.then(|| step.digits.clone()),
            placements: full.then(|| cell_digits(&step.placements)),
            eliminations: full.then(|| cell_digits(&step.eliminations)),
            cages: None,
            description: full.then(|| step.description.clone()),
            status,
        }
    }
}

/// Why a hint search stopped, and what it ruled out.
fn stopped_text(s: &Halted) -> String {
    let why = match s.why {
        logic::Halt::Timeout => "No hint within the time allowed",
        logic::Halt::Interrupted => "Interrupted",
    };
    format!(
        "{why}: the next step rates at least {:.1} (every easier technique was tried)",
        s.at_least
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_nudge_without_units_names_the_boxes() {
        let mut step = crate::logic::Step::new(crate::logic::Technique::NakedSingle);
        step.cells = vec![40];
        step.placements = vec![(40, 5)];
        let nudge = Hint::Step(step.clone()).text(HintLevel::Nudge);
        assert!(nudge.contains("Look at box 5."), "{nudge}");
        assert!(
            !nudge.contains("r5c5"),
            "the nudge does not give the cell away: {nudge}"
        );
        step.cells = vec![0, 80, 8];
        let nudge = Hint::Step(step).text(HintLevel::Nudge);
        assert!(nudge.contains("Look at box 1, box 3, box 9."), "{nudge}");
    }

    use super::*;

    #[test]
    fn hints_and_their_words() {
        let p = Puzzle::parse_line(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
            None,
        )
        .unwrap();
        let h = hint(&p).unwrap();
        assert!(h.found());
        let Hint::Step(step) = &h else {
            panic!("a step")
        };
        let full = h.text(HintLevel::Full);
        assert!(full.starts_with(&step.description), "{full}");
        assert!(full.contains("  place "), "{full}");
        let nudge = h.text(HintLevel::Nudge);
        assert!(nudge.starts_with("Try a "), "{nudge}");
        let r = serde_json::to_value(h.record(HintLevel::Nudge)).unwrap();
        assert_eq!(r["status"], "hint");
        assert!(r.get("cells").is_none());
        let r = serde_json::to_value(h.record(HintLevel::Full)).unwrap();
        assert!(r["placements"].is_array());
        let multi = Puzzle::parse_line(&".".repeat(81), None).unwrap();
        assert_eq!(hint(&multi).unwrap(), Hint::NotUnique);
        // removing candidates changes nothing on a solved-enough grid but
        // is taken into account: removing the step's own placement's
        // alternatives still gives a step
        let Hint::Step(s0) = hint_after(&p, &[(200, 3), (0, 0)], &Budget::unlimited()).unwrap()
        else {
            panic!("a step")
        };
        assert_eq!(&s0, step);
        let small = Puzzle::parse_line("1...............", None).unwrap();
        assert!(matches!(hint(&small), Err(HintError::NotStandard(_))));
    }
}
