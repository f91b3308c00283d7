//! Killer hints and ratings as the command line, the game and the web app
//! give them: [`hint`] (the easiest next step of a puzzle, after the
//! candidates a player removed) and [`rate_unique`], each also as the
//! records of `dancer_formats::ndjson` that plain puzzles use.

use super::logic::{
    next_step_within, rate_within, KillerBoard, KillerLevel, KillerRating, KillerStep,
};
use super::{solve_within, KillerPuzzle};
use crate::hint::HintLevel;
use crate::logic::{Budget, Halt};
use crate::rules::cell_name;
use dancer_formats::ndjson::{CellDigit, HintStatus, SudokuHintRecord, SudokuRateRecord, Verdict};

/// What a killer puzzle gives when asked for a hint.
#[derive(Clone, Debug, PartialEq)]
pub enum KillerHint {
    /// The next step.
    Step(KillerStep),
    /// The puzzle has no solution: a digit is already wrong.
    NoSolution,
    /// The puzzle has more than one solution.
    NotUnique,
    /// The grid is full.
    Solved,
    /// No technique makes progress.
    Stuck,
    /// The budget ran out (its time, or its flag was set) before the
    /// hint was found.
    Stopped(Halt),
}

/// The hint for `k` (its givens, with the player's entries filled in),
/// the candidates `removed` (cell, digit) taken out first.
pub fn hint(k: &KillerPuzzle, removed: &[(usize, u8)]) -> KillerHint {
    hint_within(k, removed, &Budget::unlimited())
}

/// [`hint`] within `budget`: the check that the puzzle has one solution
/// and the search for the step both stop when it runs out
/// ([`KillerHint::Stopped`]).
pub fn hint_within(k: &KillerPuzzle, removed: &[(usize, u8)], budget: &Budget) -> KillerHint {
    let found = solve_within(k, Some(2), 0, budget);
    match (found.count, found.stopped) {
        (0 | 1, Some(halt)) => return KillerHint::Stopped(halt),
        (0, None) => return KillerHint::NoSolution,
        (1, None) => {}
        _ => return KillerHint::NotUnique,
    }
    let mut b = KillerBoard::new(k);
    if b.is_solved() {
        return KillerHint::Solved;
    }
    for &(c, d) in removed.iter().filter(|&&(c, _)| c < k.size() * k.size()) {
        b.remove(c, d);
    }
    step_hint(&b, budget)
}

/// The hint of the next step from `b` within `budget`.
pub(crate) fn step_hint(b: &KillerBoard, budget: &Budget) -> KillerHint {
    match next_step_within(b, budget) {
        Ok(Some(step)) => KillerHint::Step(step),
        Ok(None) => KillerHint::Stuck,
        Err(halt) => KillerHint::Stopped(halt),
    }
}

impl KillerHint {
    /// Whether a step was found.
    pub fn found(&self) -> bool {
        matches!(self, KillerHint::Step(_))
    }

    fn status(&self) -> HintStatus {
        match self {
            KillerHint::Step(_) => HintStatus::Hint,
            KillerHint::NoSolution => HintStatus::None,
            KillerHint::NotUnique => HintStatus::Multiple,
            KillerHint::Solved => HintStatus::Solved,
            KillerHint::Stuck => HintStatus::Stuck,
            KillerHint::Stopped(_) => HintStatus::Stopped,
        }
    }

    fn message(&self) -> Option<&'static str> {
        match self {
            KillerHint::Step(_) => None,
            KillerHint::NoSolution => Some("the puzzle has no solution"),
            KillerHint::NotUnique => Some("the puzzle has more than one solution"),
            KillerHint::Solved => Some("the grid is full"),
            KillerHint::Stuck => Some("no technique makes progress"),
            KillerHint::Stopped(Halt::Timeout) => Some("no hint within the time allowed"),
            KillerHint::Stopped(Halt::Interrupted) => Some("interrupted before a hint was found"),
        }
    }

    /// The hint in words: a nudge (the technique and where to look) or the
    /// whole step, with what to place and remove.
    pub fn text(&self, k: &KillerPuzzle, level: HintLevel) -> String {
        let n = k.size();
        self.text_with(level, &|c| cell_name(n, c), &|i| k.cages[i].name.clone())
    }

    /// [`KillerHint::text`] with cells and cages named by `cell` and
    /// `cage` (overlapping grids name cells on their canvas).
    pub fn text_with(
        &self,
        level: HintLevel,
        cell: &dyn Fn(usize) -> String,
        cage: &dyn Fn(usize) -> String,
    ) -> String {
        let KillerHint::Step(s) = self else {
            let m = self.message().unwrap_or_default();
            let mut t = m[..1].to_uppercase() + &m[1..];
            t.push_str(".\n");
            return t;
        };
        match level {
            HintLevel::Nudge => {
                let mut look: Vec<String> = s
                    .cages
                    .iter()
                    .map(|&i| format!("cage {}", cage(i)))
                    .collect();
                look.extend(s.units.iter().cloned());
                if look.is_empty() {
                    look.push("the cells with the fewest candidates".into());
                }
                format!(
                    "Try {} ({:.1}). Look at {}.\n",
                    s.technique.name().to_lowercase(),
                    s.rating,
                    look.join(", ")
                )
            }
            HintLevel::Full => {
                let mut out = format!(
                    "{}: {} ({:.1})\n",
                    s.technique.name(),
                    s.description,
                    s.rating
                );
                for &(c, d) in &s.placements {
                    out.push_str(&format!("  place {d} in {}\n", cell(c)));
                }
                if !s.eliminations.is_empty() {
                    let e: Vec<String> = s
                        .eliminations
                        .iter()
                        .map(|&(c, d)| format!("{d} from {}", cell(c)))
                        .collect();
                    out.push_str(&format!("  remove {}\n", e.join(", ")));
                }
                out
            }
        }
    }

    /// The hint as the record plain hints use, with the cages named.
    pub fn record(&self, k: &KillerPuzzle, level: HintLevel) -> SudokuHintRecord {
        let n = k.size();
        self.record_with(level, &|c| cell_name(n, c), &|i| k.cages[i].name.clone())
    }

    /// [`KillerHint::record`] with cells and cages named by `cell` and
    /// `cage`.
    pub fn record_with(
        &self,
        level: HintLevel,
        cell: &dyn Fn(usize) -> String,
        cage: &dyn Fn(usize) -> String,
    ) -> SudokuHintRecord {
        let status = self.status();
        let KillerHint::Step(s) = self else {
            return SudokuHintRecord::NoStep {
                status,
                message: self
                    .message()
                    .filter(|_| status != HintStatus::Solved && status != HintStatus::Stuck)
                    .map(String::from),
            };
        };
        let full = level == HintLevel::Full;
        let cell_digits = |v: &[(usize, u8)]| {
            v.iter()
                .map(|&(c, d)| CellDigit {
                    cell: cell(c),
                    digit: d,
                })
                .collect::<Vec<_>>()
        };
        let mut digits: Vec<u8> = s
            .placements
            .iter()
            .chain(&s.eliminations)
            .map(|&(_, d)| d)
            .collect();
        digits.sort_unstable();
        digits.dedup();
        SudokuHintRecord::Step {
            technique: s.technique.name().into(),
            rating: s.rating,
            units: s.units.clone(),
            cells: full.then(|| s.cells.iter().map(|&c| cell(c)).collect()),
            digits: full.then_some(digits),
            placements: full.then(|| cell_digits(&s.placements)),
            eliminations: full.then(|| cell_digits(&s.eliminations)),
            cages: full.then(|| s.cages.iter().map(|&i| cage(i)).collect()),
            description: full.then(|| s.description.clone()),
            status,
        }
    }
}

/// A killer puzzle rated: `None` when it has no unique solution.
pub fn rate_unique(k: &KillerPuzzle) -> Option<KillerRating> {
    rate_unique_within(k, &Budget::unlimited())
}

/// [`rate_unique`] within `budget`, the count of solutions as well as
/// the steps: a budget that runs out during the count gives the rating
/// of no step, stopped ([`KillerRating::stopped_before_steps`]).
pub fn rate_unique_within(k: &KillerPuzzle, budget: &Budget) -> Option<KillerRating> {
    let found = solve_within(k, Some(2), 0, budget);
    match (found.count, found.stopped) {
        (0 | 1, Some(halt)) => Some(KillerRating::stopped_before_steps(halt)),
        (1, None) => Some(rate_within(k, budget)),
        _ => None,
    }
}

/// The rating in words: `3.8 hard` or, where the techniques stop short,
/// `at least 4.4 expert (the techniques stop after 52 steps)`.
pub fn rate_text(r: Option<&KillerRating>) -> String {
    match r {
        None => "not unique".into(),
        Some(r) if r.solved => format!("{:.1} {}", r.rating, r.level.map_or("", KillerLevel::name)),
        Some(KillerRating {
            stopped: Some(halt),
            rating,
            steps,
            ..
        }) => format!("at least {rating:.1} ({} after {steps} steps)", halt.name()),
        Some(r) => format!(
            "at least {:.1} expert (the techniques stop after {} steps)",
            r.rating, r.steps
        ),
    }
}

/// The rating as the record plain ratings use (`line` 1-based).
pub fn rate_record(line: usize, r: Option<&KillerRating>) -> SudokuRateRecord {
    match r {
        None => SudokuRateRecord::NotRated {
            line,
            status: Verdict::NotUnique,
        },
        Some(r) => SudokuRateRecord::Rated {
            line,
            rating: r.rating,
            // stopped early: the level of the steps taken; where the
            // techniques stop short, beyond them all
            level: match (r.level, r.stopped) {
                (Some(l), _) => l,
                (None, Some(_)) => KillerLevel::of_rating(r.rating),
                (None, None) => KillerLevel::Expert,
            }
            .name()
            .into(),
            hardest: r.hardest.map(|t| t.name().into()),
            steps: r.steps,
            solved: r.solved,
            stopped: r.stopped.map(|h| h.name().into()),
            at_least: r.stopped.map(|_| r.rating),
        },
    }
}
