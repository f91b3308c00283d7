//! Batches of puzzles, as the command line and the web app run them.
//!
//! * [`RulesSpec`]: the rules asked for (a box shape, a jigsaw map, the
//!   diagonal and windoku variants), applied to each puzzle of a text;
//!   without a box shape or map, each puzzle's size (and so its boxes) is
//!   inferred from its number of cells.
//! * Input sniffing: whether a command-line argument is a puzzle rather
//!   than a file ([`is_puzzle_text`]), and whether a text holds grids over
//!   several lines or one puzzle per line ([`is_grid_text`]).
//! * [`run`]: the batch itself. The text is cut into pieces of a few
//!   thousand lines; each piece is read, its puzzles solved on a pool of
//!   threads, and the outcomes handed on in input order, so that millions
//!   of puzzles stream through in little memory. Every answer is checked
//!   against the rules and the givens before it is handed on: an engine's
//!   wrong answer becomes an invalid outcome, never output.
//! * [`rate`]: ratings of a text of puzzles, on threads.

use crate::logic::{self, Rating};
use crate::puzzle::{check_solution, looks_like_grids, read_puzzles, Entry, Layout, Puzzle};
use crate::rules::{Rules, RulesError};
use crate::solve::{Engine, EngineMismatch, Solved, Solver, Status};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::Ordering;

/// The rules asked for; without a fixed shape, each puzzle's size decides.
#[derive(Clone, Debug, Default)]
pub struct RulesSpec {
    fixed: Option<Rules>,
    diagonal: bool,
    windoku: bool,
}

/// Rules asked for that cannot be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("--box {0:?}: expected ROWSxCOLS, e.g. 2x3")]
    BoxForm(String),
    #[error("--box {0:?}: bad number of rows: {1}")]
    BoxRows(String, String),
    #[error("--box {0:?}: bad number of columns: {1}")]
    BoxColumns(String, String),
    #[error("--box {0:?}: boxes that large cannot be")]
    BoxTooLarge(String),
    #[error("--box and --jigsaw cannot be used together")]
    BoxAndJigsaw,
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error("--jigsaw: {0}")]
    Jigsaw(RulesError),
}

/// A box shape `ROWSxCOLS`, e.g. `2x3`.
pub fn parse_box(s: &str) -> Result<(usize, usize), SpecError> {
    let (r, c) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| SpecError::BoxForm(s.into()))?;
    let r: usize = r
        .trim()
        .parse()
        .map_err(|e: std::num::ParseIntError| SpecError::BoxRows(s.into(), e.to_string()))?;
    let c: usize = c
        .trim()
        .parse()
        .map_err(|e: std::num::ParseIntError| SpecError::BoxColumns(s.into(), e.to_string()))?;
    Ok((r, c))
}

impl RulesSpec {
    /// The rules of `--box` (`ROWSxCOLS`), `--jigsaw` (a map: one region
    /// letter per cell, row-major; whitespace and `#` comment lines are
    /// skipped; the size is the square root of its number of cells) and
    /// the variants.
    pub fn new(
        boxes: Option<&str>,
        jigsaw: Option<&str>,
        diagonal: bool,
        windoku: bool,
    ) -> Result<Self, SpecError> {
        let mut fixed = None;
        if let Some(b) = boxes {
            let (r, c) = parse_box(b)?;
            let size = r
                .checked_mul(c)
                .ok_or_else(|| SpecError::BoxTooLarge(b.into()))?;
            fixed = Some(Rules::boxed(size, r, c)?);
        }
        if let Some(map) = jigsaw {
            if fixed.is_some() {
                return Err(SpecError::BoxAndJigsaw);
            }
            let map: String = map
                .lines()
                .filter(|l| !l.trim_start().starts_with('#'))
                .collect::<Vec<_>>()
                .join("\n");
            let cells = map.chars().filter(|c| !c.is_whitespace()).count();
            let n = (cells as f64).sqrt().round() as usize;
            fixed = Some(Rules::jigsaw(n, &map).map_err(SpecError::Jigsaw)?);
        }
        Ok(RulesSpec {
            fixed,
            diagonal,
            windoku,
        })
    }

    /// Applies the variants to rules of the right size.
    pub fn finish(&self, mut rules: Rules) -> Result<Rules, RulesError> {
        if self.diagonal {
            rules = rules.with_diagonal();
        }
        if self.windoku {
            rules = rules.with_windoku()?;
        }
        Ok(rules)
    }

    /// Reads the puzzles of `text`, lines numbered from `first_line`.
    pub fn read(&self, text: &str, layout: Layout, first_line: usize) -> Vec<Entry> {
        let fixed = self.fixed.as_ref().map(|r| self.finish(r.clone()));
        if let Some(Err(e)) = &fixed {
            return vec![Entry {
                line: first_line,
                puzzle: Err(e.clone().into()),
            }];
        }
        let fixed = fixed.map(|r| r.expect("checked above"));
        let mut entries = read_puzzles(text, fixed.as_ref(), layout);
        for e in &mut entries {
            e.line += first_line - 1;
            if fixed.is_none() && (self.diagonal || self.windoku) {
                if let Ok(p) = &e.puzzle {
                    e.puzzle = self
                        .finish(p.rules.clone())
                        .map_err(Into::into)
                        .and_then(|r| Puzzle::new(r, p.givens.clone()));
                }
            }
        }
        entries
    }
}

/// Whether a command-line argument that is not a file is a puzzle given
/// as itself: 16 characters or more, all digits, symbols, `.` or spaces.
pub fn is_puzzle_text(arg: &str) -> bool {
    let t = arg.trim();
    t.len() >= 16
        && !t.contains('/')
        && t.chars()
            .all(|c| crate::grid::digit(c).is_some() || c.is_whitespace())
}

/// Whether `text` holds grids over several lines (else one puzzle per
/// line), decided once from its first lines.
pub fn is_grid_text(text: &str, layout: Layout) -> bool {
    match layout {
        Layout::Grids => true,
        Layout::Lines => false,
        Layout::Auto => {
            let probe: String = text.lines().take(64).collect::<Vec<_>>().join("\n");
            !read_puzzles(&probe, None, Layout::Auto).is_empty() && looks_like_grids(&probe)
        }
    }
}

/// Splits `text` into pieces of about `lines` lines, with the number of
/// the first line of each.
pub fn chunks(text: &str, lines: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut first = 1;
    let mut count = 0;
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            count += 1;
            if count == lines {
                out.push((first, &text[start..=i]));
                start = i + 1;
                first += count;
                count = 0;
            }
        }
    }
    if start < text.len() {
        out.push((first, &text[start..]));
    }
    out
}

/// What one puzzle of a batch gave.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// It could not be read (or, never expected, an engine answered
    /// wrongly): why.
    Invalid(String),
    /// Its solutions, as far as they were counted.
    Solved(Puzzle, Solved),
}

/// How many puzzles of a batch were which.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub unique: u64,
    pub multiple: u64,
    pub none: u64,
    pub invalid: u64,
    /// The batch was stopped ([`Batch::cancel`]) before its end.
    pub stopped: bool,
}

impl Tally {
    /// Counts an outcome in.
    pub fn add(&mut self, o: &Outcome) {
        match o {
            Outcome::Invalid(_) => self.invalid += 1,
            Outcome::Solved(_, s) => match s.status() {
                Status::Unique => self.unique += 1,
                Status::Multiple => self.multiple += 1,
                Status::None => self.none += 1,
            },
        }
    }

    /// Puzzles in all.
    pub fn puzzles(&self) -> u64 {
        self.unique + self.multiple + self.none + self.invalid
    }
}

/// How to run a batch.
#[derive(Clone, Debug)]
pub struct Batch {
    pub spec: RulesSpec,
    pub engine: Engine,
    pub layout: Layout,
    /// Count each puzzle's solutions up to this many.
    pub limit: u64,
    /// Keep this many solutions of each puzzle.
    pub keep: usize,
    pub threads: usize,
    /// Set to stop (a signal): the puzzles answered so far are handed on,
    /// in order, and [`Tally::stopped`] says that the rest were not.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// Why a batch stopped.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error(transparent)]
    Engine(#[from] EngineMismatch),
    #[error("cannot start threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// Handing an outcome on failed (a closed pipe, a full disk).
    #[error(transparent)]
    Output(std::io::Error),
}

/// Lines per piece of a batch.
const PIECE_LINES: usize = 8192;

/// Solves every puzzle of `text` as `batch` says, handing each outcome to
/// `each` with the line where its puzzle starts, in input order, and
/// adding one to `done` as each puzzle is solved (from the worker threads,
/// as it happens: a progress bar reads it when it likes). Stops at the
/// first error of `each`.
pub fn run(
    batch: &Batch,
    text: &str,
    mut each: impl FnMut(usize, &Outcome) -> std::io::Result<()>,
    done: &std::sync::atomic::AtomicU64,
) -> Result<Tally, BatchError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(dancer_core::parallel::threads_used(batch.threads))
        .build()?;
    let grids = is_grid_text(text, batch.layout);
    let pieces = if grids {
        vec![(1, text)]
    } else {
        chunks(text, PIECE_LINES)
    };
    let layout = if grids { Layout::Grids } else { Layout::Lines };
    let mut solvers: HashMap<Rules, Solver> = HashMap::new();
    let mut tally = Tally::default();
    for (first, piece) in pieces {
        let entries = batch.spec.read(piece, layout, first);
        for e in &entries {
            if let Ok(p) = &e.puzzle {
                if !solvers.contains_key(&p.rules) {
                    let s = Solver::new(&p.rules, batch.engine)?;
                    solvers.insert(p.rules.clone(), s);
                }
            }
        }
        let cancelled = || {
            batch
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
        };
        if cancelled() {
            tally.stopped = true;
            break;
        }
        // a puzzle not started when the batch was stopped is `None`
        let results: Vec<(usize, Option<Outcome>)> = pool.install(|| {
            entries
                .into_par_iter()
                .map(|e| {
                    let line = e.line;
                    if cancelled() {
                        return (line, None);
                    }
                    let o = solve_entry(&solvers, e, batch.limit, batch.keep);
                    done.fetch_add(1, Ordering::Relaxed);
                    (line, Some(o))
                })
                .collect()
        });
        for (line, o) in &results {
            let Some(o) = o else {
                // what comes after a puzzle left out is left out too:
                // the output stays in input order, with no gap
                tally.stopped = true;
                return Ok(tally);
            };
            tally.add(o);
            each(*line, o).map_err(BatchError::Output)?;
        }
    }
    Ok(tally)
}

/// One puzzle solved as a batch solves each of its puzzles (the answer
/// checked against the rules and the givens), without a thread pool: for
/// a server answering one puzzle per request.
pub fn solve_one(
    entry: Entry,
    engine: Engine,
    limit: u64,
    keep: usize,
) -> Result<Outcome, EngineMismatch> {
    let mut solvers = HashMap::new();
    if let Ok(p) = &entry.puzzle {
        solvers.insert(p.rules.clone(), Solver::new(&p.rules, engine)?);
    }
    Ok(solve_entry(&solvers, entry, limit, keep))
}

fn solve_entry(solvers: &HashMap<Rules, Solver>, e: Entry, limit: u64, keep: usize) -> Outcome {
    match e.puzzle {
        Err(err) => Outcome::Invalid(err.to_string()),
        Ok(p) => {
            let s = solvers[&p.rules].solve(&p.givens, limit, keep);
            for g in &s.solutions {
                if let Err(why) = check_solution(&p, g) {
                    // An engine bug: never print a wrong answer.
                    return Outcome::Invalid(format!("internal error, wrong solution: {why}"));
                }
            }
            Outcome::Solved(p, s)
        }
    }
}

/// A puzzle's rating, `None` when it has no unique solution, or why it
/// could not be rated.
pub type RateResult = Result<Option<Rating>, String>;

/// Rates every puzzle of `text` (one per line), with the line of each, in
/// input order (see [`logic::rate_puzzle`]); each within the options'
/// timeout. After a cancel, only the puzzles started before it are there.
pub fn rate(
    text: &str,
    opts: &RateOptions,
    progress: &(dyn Fn(RateEvent) + Sync),
) -> Result<Vec<(usize, RateResult)>, BatchError> {
    let entries = read_puzzles(text, None, Layout::Lines);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(dancer_core::parallel::threads_used(opts.threads))
        .build()?;
    let results: Vec<Option<(usize, RateResult)>> = pool.install(|| {
        entries
            .into_par_iter()
            .map(|e| {
                if opts.cancel.load(Ordering::Relaxed) {
                    return None;
                }
                let line = e.line;
                let r = match e.puzzle {
                    Err(err) => Err(err.to_string()),
                    Ok(p) => {
                        let mut budget = match opts.timeout {
                            Some(d) => logic::Budget::timeout(d),
                            None => logic::Budget::unlimited(),
                        };
                        budget = budget.with_cancel(opts.cancel.clone());
                        let mut steps = 0;
                        let mut hardest = 0.0f64;
                        logic::rate_puzzle_within(&p, &budget, |_, step| {
                            steps += 1;
                            hardest = hardest.max(step.rating());
                            progress(RateEvent::Step {
                                line,
                                steps,
                                hardest,
                                technique: step.technique,
                            });
                        })
                    }
                };
                progress(RateEvent::Done { line });
                Some((line, r))
            })
            .collect()
    });
    Ok(results.into_iter().flatten().collect())
}

/// How [`rate`] runs.
#[derive(Clone, Debug)]
pub struct RateOptions {
    /// Worker threads.
    pub threads: usize,
    /// The most time one puzzle may take; its rating is then a lower bound
    /// ([`Rating::stopped`](logic::Rating::stopped)).
    pub timeout: Option<std::time::Duration>,
    /// Set (by a Ctrl-C handler) to stop: the puzzles being rated stop with
    /// what they know, the others are not started.
    pub cancel: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// What [`rate`] tells as it goes, from its worker threads.
#[derive(Clone, Copy, Debug)]
pub enum RateEvent {
    /// A step was taken in the puzzle of `line`.
    Step {
        line: usize,
        steps: usize,
        /// The hardest rating so far.
        hardest: f64,
        /// The technique of this step.
        technique: logic::Technique,
    },
    /// The puzzle of `line` is done (rated, stopped, or not rated).
    Done { line: usize },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffing_and_chunks() {
        assert!(is_puzzle_text(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
        ));
        assert!(!is_puzzle_text("puzzles.txt"));
        assert!(!is_puzzle_text("../data/1234567890123456"));
        assert!(is_grid_text("12 34\n34 12\n\n21 43\n43 21\n", Layout::Auto));
        assert!(!is_grid_text("1234341221434321\n", Layout::Auto));
        let text = "a\nb\nc\nd\ne";
        assert_eq!(
            chunks(text, 2),
            vec![(1, "a\nb\n"), (3, "c\nd\n"), (5, "e")]
        );
    }

    #[test]
    fn specs() {
        assert_eq!(parse_box("2x3"), Ok((2, 3)));
        assert!(matches!(parse_box("2-3"), Err(SpecError::BoxForm(_))));
        assert!(matches!(
            RulesSpec::new(Some("1152921504606846977x16"), None, false, false),
            Err(SpecError::BoxTooLarge(_))
        ));
        assert!(matches!(
            RulesSpec::new(Some("2x2"), Some("AABBAABBCCDDCCDD"), false, false),
            Err(SpecError::BoxAndJigsaw)
        ));
        let spec =
            RulesSpec::new(None, Some("# map\nAABB\nAABB\nCCDD\nCCDD\n"), false, false).unwrap();
        let e = spec.read("1...\n....\n....\n...4\n", Layout::Grids, 1);
        assert_eq!(e.len(), 1);
        assert!(e[0].puzzle.is_ok());
    }

    /// A batch: outcomes in input order, checked, tallied; an error of the
    /// output stops it.
    #[test]
    fn a_batch() {
        let text = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n\
                    11...............................................................................\n\
                    .................................................................................\n\
                    1...............\n";
        let batch = Batch {
            spec: RulesSpec::default(),
            engine: Engine::Auto,
            layout: Layout::Auto,
            limit: 2,
            keep: 2,
            threads: 2,
            cancel: None,
        };
        let mut lines = Vec::new();
        let done = std::sync::atomic::AtomicU64::new(0);
        let tally = run(
            &batch,
            text,
            |line, o| {
                if let Outcome::Solved(p, s) = o {
                    for g in &s.solutions {
                        check_solution(p, g).unwrap();
                    }
                }
                lines.push(line);
                Ok(())
            },
            &done,
        )
        .unwrap();
        assert_eq!(lines, vec![1, 2, 3, 4]);
        assert_eq!(done.load(Ordering::Relaxed), 4);
        assert_eq!(
            tally,
            Tally {
                unique: 1,
                multiple: 2,
                none: 0,
                invalid: 1,
                stopped: false,
            }
        );
        let err = run(
            &batch,
            text,
            |_, _| Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe)),
            &std::sync::atomic::AtomicU64::new(0),
        )
        .unwrap_err();
        assert!(matches!(err, BatchError::Output(_)));
    }
}
