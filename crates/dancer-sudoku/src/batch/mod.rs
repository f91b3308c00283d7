//! Batches of puzzles, as the command line and the web app run them.
//!
//! * [`RulesSpec`]: the rules asked for (a box shape, a jigsaw map, the
//!   diagonal and windoku variants), applied to each puzzle of a text;
//!   without a box shape or map, each puzzle's size (and so its boxes) is
//!   inferred from its number of cells.
//! * Input sniffing: where an input argument points ([`source`]: standard
//!   input, a file, a puzzle given as itself), whether a text holds a
//!   puzzle at all ([`has_puzzle`]), and whether it holds grids over
//!   several lines or one puzzle per line ([`is_grid_text`]).
//! * [`run`], [`run_rendered`] and [`run_watched`] (with a progress
//!   callback): the batch itself. The text is cut into
//!   units of at most `UNIT_LINES` lines; each unit is read, solved,
//!   checked and rendered by one worker thread, and the units are handed
//!   on in input order as they come back, at most 16 per thread ahead
//!   of the output (fewer held a hard unit's neighbours back), so that millions of puzzles stream through in little
//!   memory. On one thread there is no pool: the calling thread does it
//!   all. Every answer is checked against the rules and the givens before
//!   it is handed on: an engine's wrong answer becomes an invalid outcome,
//!   never output.
//! * The 9x9 lane (`lane9`): a line of 81 plain symbols goes straight to
//!   `fast9` and to checks with bit masks, with none of the general
//!   structures built; its outcomes are the general path's (a property
//!   test compares them). It is why `dancer sudoku solve` keeps most of
//!   `fast9`'s speed: the README's benchmark table has the figures.
//! * [`rate`]: ratings of a text of puzzles, on threads, and what they
//!   come to ([`RateCounts`]).

pub(crate) mod lane9;
mod pool;
mod rate;
mod spec;

pub use rate::{rate, RateCounts, RateEvent, RateOptions, RateResult};
pub use spec::*;

use crate::killer::KillerPuzzle;
use crate::puzzle::{check_solution, Layout, Puzzle, PuzzleError, PuzzleLine};
use crate::rules::{Rules, RulesError};
use crate::solve::{EngineMismatch, Solved, Solver, Status, SudokuEngine};
use dancer_core::plural;
use pool::{HandOn, Pool};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// What one puzzle of a batch gave.
#[derive(Clone, Debug)]
// a batch's outcomes are Solved but for bad lines: the two grids in place
// save an allocation a puzzle (Invalid, rare, is the small one)
#[allow(clippy::large_enum_variant)]
pub enum LineOutcome {
    /// It could not be read (or, never expected, an engine answered
    /// wrongly): why.
    Invalid(Invalid),
    /// Its solutions, as far as they were counted.
    Solved(Puzzle, Solved),
    /// A killer puzzle's solutions, as far as they were counted (the
    /// killer kept whole: its line is the puzzle's, not its givens').
    Killer(Box<KillerPuzzle>, Solved),
}

impl LineOutcome {
    /// The puzzle (a killer's Sudoku part) and its solutions; `None` for
    /// a line that could not be read.
    pub fn solved(&self) -> Option<(&Puzzle, &Solved)> {
        match self {
            LineOutcome::Invalid(_) => None,
            LineOutcome::Solved(p, s) => Some((p, s)),
            LineOutcome::Killer(k, s) => Some((&k.puzzle, s)),
        }
    }
}

/// Why a puzzle of a batch has no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    /// It could not be read, or breaks its rules.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// An engine answered wrongly (never expected: an engine bug): why
    /// the answer is wrong.
    #[error("internal error, wrong solution: {0}")]
    WrongSolution(String),
    /// It cannot be rated: why (see [`crate::logic::rate_puzzle`]).
    #[error("{0}")]
    Unrated(String),
}

impl Invalid {
    /// Why, in a front end's words: `box_hint` says how to give a box
    /// shape (see [`PuzzleError::words`]).
    pub fn words(&self, box_hint: &str) -> String {
        match self {
            Invalid::Puzzle(e) => e.words(box_hint),
            e => e.to_string(),
        }
    }
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
    pub fn add(&mut self, o: &LineOutcome) {
        match o.solved() {
            None => self.invalid += 1,
            Some((_, s)) => match s.status() {
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

    /// What a batch of this tally did in `secs` on `threads`, in words:
    /// `1000 puzzles in 0.123 s: 8130 puzzles/s (2 threads); 998 unique, 1
    /// multiple, 1 none, 0 invalid`.
    pub fn summary(&self, secs: f64, threads: usize) -> String {
        let n = self.puzzles();
        let (u, m, none, i) = (self.unique, self.multiple, self.none, self.invalid);
        format!(
            "{} in {secs:.3} s: {:.0} puzzles/s ({}); {u} unique, {m} multiple, {none} none, {i} invalid",
            plural(n, "puzzle", "puzzles"),
            n as f64 / secs.max(1e-9),
            plural(threads, "thread", "threads"),
        )
    }

    /// What the tally says of the batch as a whole (the rule of its exit
    /// code, for a batch run whole or put together from its parts):
    /// stopped; else invalid when a puzzle was; else answered when every
    /// puzzle has a solution (with `all_unique`: exactly one).
    pub fn verdict(&self, all_unique: bool) -> BatchVerdict {
        let answered = if all_unique {
            self.multiple == 0 && self.none == 0
        } else {
            self.none == 0
        };
        if self.stopped {
            BatchVerdict::Stopped
        } else if self.invalid > 0 {
            BatchVerdict::Invalid
        } else if answered {
            BatchVerdict::Answered
        } else {
            BatchVerdict::Unanswered
        }
    }
}

/// What a batch's [`Tally`] says of it as a whole ([`Tally::verdict`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchVerdict {
    /// Stopped before its end.
    Stopped,
    /// A puzzle was invalid.
    Invalid,
    /// Every puzzle has a solution (exactly one, when asked).
    Answered,
    /// Some puzzle has none (or several, when one was asked for).
    Unanswered,
}

/// How to run a batch.
#[derive(Clone, Debug)]
pub struct Batch {
    pub spec: RulesSpec,
    pub engine: SudokuEngine,
    pub layout: Layout,
    /// Count each puzzle's solutions up to this many.
    pub limit: u64,
    /// Keep this many solutions of each puzzle.
    pub keep: usize,
    pub threads: usize,
    /// The number of the text's first line (1 for a whole file): lines
    /// are numbered from it, in outcomes and messages, so that a slice of
    /// a file (a part's, see `dancer_runs::batch`) numbers its lines as the
    /// whole file does.
    pub first_line: usize,
    /// Set to stop (a signal): the puzzles answered so far are handed on,
    /// in order, and [`Tally::stopped`] says that the rest were not.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// Why a batch cannot run, or stopped.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error(transparent)]
    Engine(#[from] EngineMismatch),
    #[error("cannot start threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// Handing an outcome on failed (a closed pipe, a full disk).
    #[error(transparent)]
    Output(std::io::Error),
    /// An input argument that is neither a file nor a puzzle
    /// ([`source`]): the argument.
    #[error("cannot open {0}: no such file (and it is not a puzzle either)")]
    NoSuchInput(String),
    /// An empty input ([`has_puzzle`]).
    #[error("no puzzle found: the input is empty")]
    Empty,
    /// An input of blank lines and comments only ([`has_puzzle`]).
    #[error("no puzzle found: the input has only blank lines and comments")]
    OnlyComments,
    /// The puzzles answered are more than 64 bits count (a part file
    /// forged to be near the end of them: see `dancer_runs::batch`).
    #[error("more puzzles than 64 bits count")]
    Count,
}

/// Lines (or puzzles, for grids) per unit of work of a worker thread:
/// large enough that handing units out costs nothing measurable, small
/// enough that two threads share a piece evenly.
const UNIT_LINES: usize = 128;

/// The lines (or puzzles) of a unit for a batch of `lines()` on
/// `threads`: `UNIT_LINES`, or fewer for a small batch, so that each
/// thread has at least 64 units to take (a few hard puzzles in one unit
/// would otherwise leave the other threads idle at the end: 1,465 hard
/// puzzles in units of 45 gave two threads 1.49 times one thread's
/// throughput, in units of 11 1.56). `lines` is
/// only asked for on more than one thread.
fn unit_lines(lines: impl FnOnce() -> usize, threads: usize) -> usize {
    if threads <= 1 {
        return UNIT_LINES;
    }
    (lines() / (64 * threads)).clamp(8, UNIT_LINES)
}

/// Solves every puzzle of `text` as `batch` says, handing each outcome to
/// `each` with the line where its puzzle starts, in input order, and
/// adding to `done` as puzzles are solved (from the worker threads, as it
/// happens: a progress bar reads it when it likes). Stops at the first
/// error of `each`.
pub fn run(
    batch: &Batch,
    text: &str,
    mut each: impl FnMut(usize, &LineOutcome) -> std::io::Result<()> + Send,
    done: &std::sync::atomic::AtomicU64,
) -> Result<Tally, BatchError> {
    run_rendered(
        batch,
        text,
        |_, _, _| {},
        |a: Answers| {
            for (line, o, _) in a.outcomes {
                each(*line, o)?;
            }
            Ok(())
        },
        done,
    )
}

/// [`run_rendered`], with `progress` (when given) told the puzzles solved
/// so far ten times a second, from a thread of its own, while the batch
/// runs, and once more with them all at its end (a progress bar's
/// position): the workers only add to a counter,
/// so that the batch runs as fast with a bar as without.
pub fn run_watched<R>(
    batch: &Batch,
    text: &str,
    render: R,
    each: impl FnMut(Answers) -> std::io::Result<()> + Send,
    progress: Option<&(dyn Fn(u64) + Sync)>,
) -> Result<Tally, BatchError>
where
    R: Fn(usize, &LineOutcome, &mut String) + Sync,
{
    let done = std::sync::atomic::AtomicU64::new(0);
    let finished = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        if let Some(progress) = progress {
            scope.spawn(|| loop {
                // read before the count, so that the last call, made once
                // the batch is over, tells the whole count (and there is
                // one however soon the batch ends)
                let over = finished.load(Ordering::SeqCst);
                progress(done.load(Ordering::SeqCst));
                if over {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(100));
            });
        }
        let r = run_rendered(batch, text, render, each, &done);
        finished.store(true, Ordering::SeqCst);
        r
    })
}

/// The answers to a unit of a batch, handed on in input order: each
/// outcome with the line where its puzzle starts and the end of its
/// rendered text in `text` (the texts one after the other).
#[derive(Clone, Copy, Debug)]
pub struct Answers<'a> {
    pub outcomes: &'a [(usize, LineOutcome, usize)],
    pub text: &'a str,
}

/// [`run`], with each outcome also rendered by `render` (its line, the
/// outcome, the text to append to) on the worker threads, so that turning
/// answers into text runs in parallel too; `each` then gets the answers a
/// unit at a time, with their text, in input order.
///
/// Reading, solving, checking and rendering all happen on the workers, a
/// unit of at most `UNIT_LINES` lines at a time; so does handing the
/// answers on: a worker that has finished a unit stores it, and whichever
/// worker holds the hand-on lock passes on every stored unit that comes
/// next in input order (the others go back to work instead of waiting for
/// the lock). No thread but the workers runs (the calling thread is one
/// of them), so `threads` workers use `threads` cores. A worker does not
/// start a unit more than `4 x threads` units ahead of the last handed
/// on, so what waits stays small. Plain
/// 9x9 lines (81 symbols `1`-`9`, `.` or `0`) with the `auto` or `fast9`
/// engine take a lane of their own (`lane9`) that reads, checks and
/// solves them without building the general structures; its outcomes are
/// the same as the general path's, which any other line takes.
pub fn run_rendered<'t, R>(
    batch: &Batch,
    text: &'t str,
    render: R,
    each: impl FnMut(Answers) -> std::io::Result<()> + Send,
    done: &std::sync::atomic::AtomicU64,
) -> Result<Tally, BatchError>
where
    R: Fn(usize, &LineOutcome, &mut String) + Sync,
{
    // killer puzzles are one a line, and take their own path
    let killer = batch.spec.killer;
    let grids = !killer && is_grid_text(text, batch.layout);
    let reader = Reader::new(&batch.spec);
    let lane9 = !killer
        && reader.plain_9x9()
        && matches!(batch.engine, SudokuEngine::Auto | SudokuEngine::Fast9);
    let solvers = Solvers {
        engine: batch.engine,
        built: std::sync::Mutex::new(HashMap::new()),
    };
    // set to stop the workers: the batch was cancelled, or it stops here
    // (an error, an output that failed)
    let halt = std::sync::atomic::AtomicBool::new(false);
    let cancelled = || {
        halt.load(Ordering::Relaxed)
            || batch
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
    };
    let threads = dancer_core::parallel::threads_used(batch.threads);
    let first_line = batch.first_line.max(1);
    let (unit, units): (usize, Vec<Unit<'t>>) =
        cut_units(&reader, text, grids, threads, first_line);
    let ctx = Context {
        reader: &reader,
        solvers: &solvers,
        lane9,
        unit,
        limit: batch.limit,
        keep: batch.keep,
        render: &render,
        done,
        cancelled: &cancelled,
        cancel: batch.cancel.as_ref(),
    };
    let mut hand = HandOn {
        each,
        tally: Tally::default(),
        result: Ok(()),
    };
    if threads <= 1 {
        // one thread: this one, with no pool to hand units to and back;
        // lines are cut into units as they are read (no pass over the
        // text to find where units end)
        let mut rest = Lines::new(text);
        while !grids && !rest.done() {
            if !hand.emit(&ctx.lines(first_line, &mut rest, unit)) {
                break;
            }
        }
        for u in units {
            if !hand.emit(&ctx.work(u)) {
                break;
            }
        }
    } else {
        Pool::new(&ctx, units, &halt, &mut hand, 16 * threads).run(threads);
    }
    let HandOn {
        mut tally, result, ..
    } = hand;
    match result {
        Ok(()) => Ok(tally),
        Err(None) => {
            tally.stopped = true;
            Ok(tally)
        }
        Err(Some(e)) => Err(e),
    }
}

/// The unit size of a batch of `text` on `threads`, and its units: the
/// puzzles of a text of grids, read; lines of text cut for the pool; none
/// on one thread (lines are cut as they are read then).
fn cut_units<'t>(
    reader: &Reader,
    text: &'t str,
    grids: bool,
    threads: usize,
    first_line: usize,
) -> (usize, Vec<Unit<'t>>) {
    if grids {
        let entries = reader.read_grids(text, first_line);
        let unit = unit_lines(|| entries.len(), threads);
        let mut units = Vec::new();
        let mut it = entries.into_iter().peekable();
        while it.peek().is_some() {
            units.push(Unit::Entries(it.by_ref().take(unit).collect()));
        }
        (unit, units)
    } else if threads <= 1 {
        // cut as they are read, below
        (UNIT_LINES, Vec::new())
    } else {
        let unit = unit_lines(
            || dancer_core::cpu::find_bytes(b'\n', text.as_bytes()).count(),
            threads,
        );
        let units = chunks(text, unit)
            .into_iter()
            .map(|(first, t)| Unit::Lines(first + first_line - 1, t))
            .collect();
        (unit, units)
    }
}

/// The lines of a text, as [`str::lines`] cuts them (at `\n`, a `\r`
/// before it dropped, no empty line after a last `\n`), found with
/// [`dancer_core::cpu::find_byte`] (a batch's lines are short and many), with a shortcut for the
/// usual line of a batch of 9x9 puzzles: 81 symbols and a line break, read
/// as a puzzle at once (`lane9`) instead of being searched for its end
/// first.
struct Lines<'t> {
    text: &'t str,
    at: usize,
    /// Lines given so far.
    read: usize,
}

impl<'t> Lines<'t> {
    fn new(text: &'t str) -> Self {
        Lines {
            text,
            at: 0,
            read: 0,
        }
    }

    /// Whether every line was given.
    fn done(&self) -> bool {
        self.at >= self.text.len()
    }

    /// The next line, and its cells when `lane9` is set and it is 81 plain
    /// symbols followed by `\n` or `\r\n`.
    #[inline]
    fn next(&mut self, lane9: bool) -> Option<(&'t str, Option<[u8; 81]>)> {
        let bytes = self.text.as_bytes();
        let at = self.at;
        if at >= bytes.len() {
            return None;
        }
        if lane9 && at + 81 < bytes.len() {
            let end = at + 81;
            let eol = match bytes[end] {
                b'\n' => Some(1),
                b'\r' if bytes.get(end + 1) == Some(&b'\n') => Some(2),
                _ => None,
            };
            if let Some(eol) = eol {
                let row: &[u8; 81] = bytes[at..end].try_into().expect("81 bytes");
                if let Some(cells) = lane9::parse_row(row) {
                    self.at = end + eol;
                    self.read += 1;
                    // the 81 bytes are ASCII: a char boundary on each side
                    return Some((&self.text[at..end], Some(cells)));
                }
            }
        }
        self.read += 1;
        let line = match dancer_core::cpu::find_byte(b'\n', &bytes[at..]) {
            Some(k) => {
                self.at = at + k + 1;
                let line = &self.text[at..at + k];
                line.strip_suffix('\r').unwrap_or(line)
            }
            None => {
                self.at = bytes.len();
                &self.text[at..]
            }
        };
        Some((line, None))
    }
}

/// A unit of work: lines of text (the number of the first, the text), or
/// puzzles already read (from grids).
enum Unit<'t> {
    Lines(usize, &'t str),
    Entries(Vec<PuzzleLine>),
}

/// What a unit gave: each outcome with its line and the end of its
/// rendered text in `text`; `stopped` when the batch was cancelled before
/// the unit's end, `error` when a puzzle's rules were not the engine's.
#[derive(Debug)]
struct Solved_ {
    outcomes: Vec<(usize, LineOutcome, usize)>,
    text: String,
    stopped: bool,
    /// The engine could not take the puzzle after the last outcome.
    error: Option<EngineMismatch>,
}

impl Solved_ {
    /// Room for a unit of `unit` puzzles (a 9x9 answer is 82 bytes).
    fn new(unit: usize) -> Self {
        Solved_ {
            outcomes: Vec::with_capacity(unit),
            text: String::with_capacity(unit * 83),
            stopped: false,
            error: None,
        }
    }
}

/// What every unit of a batch needs.
struct Context<'a, R> {
    reader: &'a Reader,
    solvers: &'a Solvers,
    lane9: bool,
    /// The most lines (or puzzles) of a unit.
    unit: usize,
    limit: u64,
    keep: usize,
    render: &'a R,
    done: &'a std::sync::atomic::AtomicU64,
    cancelled: &'a (dyn Fn() -> bool + Sync),
    /// The batch's cancel flag, handed to the engines: a puzzle with many
    /// solutions to count, or a long search, stops when it is set.
    cancel: Option<&'a std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl<R: Fn(usize, &LineOutcome, &mut String) + Sync> Context<'_, R> {
    fn work(&self, unit: Unit) -> Solved_ {
        match unit {
            Unit::Lines(first, text) => self.lines(first, &mut Lines::new(text), usize::MAX),
            Unit::Entries(entries) => {
                let mut out = Solved_::new(self.unit);
                let mut last: Option<Arc<Solver>> = None;
                for e in entries {
                    if (self.cancelled)() {
                        out.stopped = true;
                        break;
                    }
                    let no = e.line;
                    let r = self.solve(e, &mut last);
                    if !self.answer(&mut out, no, r) {
                        break;
                    }
                }
                self.done
                    .fetch_add(out.outcomes.len() as u64, Ordering::Relaxed);
                out
            }
        }
    }

    /// The next `max` lines of `rest` at most (`first`: the number of its
    /// first line), read, solved, checked and rendered.
    fn lines(&self, first: usize, rest: &mut Lines, max: usize) -> Solved_ {
        let mut out = Solved_::new(self.unit);
        let mut last: Option<Arc<Solver>> = None;
        let end = rest.read.saturating_add(max);
        while rest.read < end {
            let Some((line, cells)) = rest.next(self.lane9) else {
                break;
            };
            let no = first + rest.read - 1;
            // a plain 9x9 line (found without looking at it twice) goes to
            // the lane; any other line, not blank or a comment, to the
            // general path
            let cells = cells.or_else(|| self.lane9.then(|| lane9::parse(line)).flatten());
            if cells.is_none() && (crate::puzzle::is_comment(line) || line.trim().is_empty()) {
                continue;
            }
            if (self.cancelled)() {
                out.stopped = true;
                break;
            }
            if let Some(cells) = cells {
                let rules = &self.reader.rules9;
                let before = (out.outcomes.len(), out.text.len());
                if lane9::solve_into(
                    rules,
                    cells,
                    self.limit,
                    self.keep,
                    no,
                    &mut out.outcomes,
                    self.cancel,
                ) {
                    if (self.cancelled)() {
                        // stopped inside the puzzle (or just after it):
                        // not answered, its count may be short
                        out.outcomes.truncate(before.0);
                        out.text.truncate(before.1);
                        out.stopped = true;
                        break;
                    }
                    let (_, o, end) = out.outcomes.last_mut().expect("pushed");
                    (self.render)(no, o, &mut out.text);
                    *end = out.text.len();
                    continue;
                }
            }
            let r = match self.reader.spec.killer {
                true => Ok(self.killer(line)),
                false => self.solve(self.reader.read_line(line, no), &mut last),
            };
            if !self.answer(&mut out, no, r) {
                break;
            }
        }
        self.done
            .fetch_add(out.outcomes.len() as u64, Ordering::Relaxed);
        out
    }

    /// Adds the answer to a puzzle on the general path (`no`: its line);
    /// whether to go on: not when the batch was cancelled meanwhile or the
    /// engine could not take the puzzle.
    fn answer(&self, out: &mut Solved_, no: usize, r: Result<LineOutcome, EngineMismatch>) -> bool {
        match r {
            // stopped inside the puzzle (or just after it): not answered,
            // its count may be short
            Ok(_) if (self.cancelled)() => {
                out.stopped = true;
                false
            }
            Ok(o) => {
                self.push(out, no, o);
                true
            }
            Err(e) => {
                out.error = Some(e);
                false
            }
        }
    }

    /// An outcome and its text.
    fn push(&self, out: &mut Solved_, line: usize, o: LineOutcome) {
        (self.render)(line, &o, &mut out.text);
        out.outcomes.push((line, o, out.text.len()));
    }

    /// A killer puzzle's line, read, solved with its cages as exact cover
    /// ([`crate::killer`]), and its answers checked by the killer checker.
    fn killer(&self, line: &str) -> LineOutcome {
        let k = match self.reader.spec.killer_puzzle(line) {
            Ok(k) => k,
            Err(e) => return LineOutcome::Invalid(e.into()),
        };
        let cancel = self.cancel.cloned();
        let s = crate::killer::solve(&k, Some(self.limit), self.keep, cancel);
        for g in &s.solutions {
            if let Err(why) = crate::killer::check_solution(&k, g) {
                return LineOutcome::Invalid(Invalid::WrongSolution(why));
            }
        }
        let solved = Solved {
            count: s.count,
            solutions: s.solutions.into_iter().collect(),
            effort: s.nodes,
        };
        LineOutcome::Killer(Box::new(k), solved)
    }

    /// A puzzle on the general path, with the solver of its rules (the
    /// last one used, when the rules are the same).
    fn solve(
        &self,
        e: PuzzleLine,
        last: &mut Option<Arc<Solver>>,
    ) -> Result<LineOutcome, EngineMismatch> {
        let Ok(p) = &e.puzzle else {
            return Ok(solve_entry(None, e, self.limit, self.keep, None));
        };
        let s = match last {
            Some(s) if s.rules() == &p.rules => s.clone(),
            _ => {
                let s = self.solvers.get(&p.rules)?;
                *last = Some(s.clone());
                s
            }
        };
        Ok(solve_entry(Some(&s), e, self.limit, self.keep, self.cancel))
    }
}

/// The solvers of a batch, one per set of rules met, built when first
/// needed and shared by the threads.
struct Solvers {
    engine: SudokuEngine,
    built: std::sync::Mutex<HashMap<Rules, Arc<Solver>>>,
}

impl Solvers {
    fn get(&self, rules: &Rules) -> Result<Arc<Solver>, EngineMismatch> {
        let mut built = self.built.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = built.get(rules) {
            return Ok(s.clone());
        }
        let s = Arc::new(Solver::new(rules, self.engine)?);
        built.insert(rules.clone(), s.clone());
        Ok(s)
    }
}

/// Reads puzzles as a [`RulesSpec`] says, its fixed rules (with the
/// variants) made once.
struct Reader {
    spec: RulesSpec,
    fixed: Option<Result<Rules, RulesError>>,
    rules9: Rules,
}

impl Reader {
    fn new(spec: &RulesSpec) -> Self {
        Reader {
            spec: spec.clone(),
            fixed: spec.fixed.as_ref().map(|r| spec.finish(r.clone())),
            rules9: Rules::standard(9).expect("9x9 rules"),
        }
    }

    /// Whether a line of 81 symbols is a plain 9x9 puzzle under these
    /// rules.
    fn plain_9x9(&self) -> bool {
        match &self.fixed {
            Some(Ok(r)) => r.is_standard_9x9(),
            Some(Err(_)) => false,
            None => !self.spec.diagonal && !self.spec.windoku,
        }
    }

    /// The puzzle of one line (not blank, not a comment), numbered `no`.
    fn read_line(&self, line: &str, no: usize) -> PuzzleLine {
        let puzzle = match &self.fixed {
            Some(Err(e)) => Err(e.clone().into()),
            Some(Ok(r)) => Puzzle::parse_line(line, Some(r)),
            None => Puzzle::parse_line(line, None).and_then(|p| {
                if self.spec.diagonal || self.spec.windoku {
                    let rules = self.spec.finish(p.rules.clone())?;
                    Puzzle::new(rules, p.givens)
                } else {
                    Ok(p)
                }
            }),
        };
        PuzzleLine { line: no, puzzle }
    }

    /// The puzzles of a text of grids, lines numbered from `first_line`.
    fn read_grids(&self, text: &str, first_line: usize) -> Vec<PuzzleLine> {
        self.spec.read(text, Layout::Grids, first_line)
    }
}

/// One puzzle solved as a batch solves each of its puzzles (the answer
/// checked against the rules and the givens), without a thread pool: for
/// a server answering one puzzle per request. With `cancel` set
/// meanwhile, the search stops and its count may be short: the caller
/// looks at the flag and drops the outcome.
pub fn solve_one(
    entry: PuzzleLine,
    engine: SudokuEngine,
    limit: u64,
    keep: usize,
    cancel: Option<&std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> Result<LineOutcome, EngineMismatch> {
    let solver = match &entry.puzzle {
        Ok(p) => Some(Solver::new(&p.rules, engine)?),
        Err(_) => None,
    };
    Ok(solve_entry(solver.as_ref(), entry, limit, keep, cancel))
}

/// A puzzle read on the general path, solved by `solver` (made for its
/// rules; `None` only when the puzzle could not be read), the answers
/// checked.
/// With `cancel` set meanwhile, the count may be short: the caller looks
/// at the flag and drops the outcome.
fn solve_entry(
    solver: Option<&Solver>,
    e: PuzzleLine,
    limit: u64,
    keep: usize,
    cancel: Option<&std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> LineOutcome {
    match (e.puzzle, solver) {
        (Err(err), _) => LineOutcome::Invalid(err.into()),
        (Ok(_), None) => unreachable!("a solver is made for every puzzle read"),
        (Ok(p), Some(solver)) => {
            let (s, _) = solver.solve_cancellable(&p.givens, limit, keep, cancel);
            checked(p, s)
        }
    }
}

/// The outcome of a solved puzzle, once every answer is checked against
/// its rules and givens ([`check_solution`], which shares no code with
/// the solvers).
fn checked(p: Puzzle, s: Solved) -> LineOutcome {
    for g in &s.solutions {
        if let Err(why) = check_solution(&p, g) {
            // An engine bug: never print a wrong answer.
            return LineOutcome::Invalid(Invalid::WrongSolution(why));
        }
    }
    LineOutcome::Solved(p, s)
}

#[cfg(test)]
mod tests;
