//! Puzzle generation: a random full grid, then givens taken away while the
//! puzzle keeps exactly one solution.
//!
//! Cells are removed in symmetric groups (the orbits of the requested
//! symmetry), in random order, each removal kept only if the puzzle stays
//! unique (checked by the fastest exact engine for the size). The result is
//! *minimal* (no single given can be removed without a second solution
//! appearing) unless asked otherwise; with a symmetry, a puzzle whose
//! removable given would break the symmetry is dropped and another tried.
//! A rating filter (for levels) is applied by the caller's `accept`.
//! Everything is reproducible from the seed. A run of many puzzles is
//! made on threads, in order, a block at a time ([`generate_blocks`]),
//! handed to the caller's printing as each block is done.

use crate::batch::BatchError;
use crate::grid::Grid;
use crate::logic::{self, Level, Rating};
use crate::puzzle::Puzzle;
use crate::rules::Rules;
use crate::solve::{Solver, SudokuEngine};
use dancer_core::rng::{Draw, XorShift64Star};

mod rarity;
pub use rarity::{Rarity, CANDIDATES_PER_SECOND, COUNTS, SAMPLE, SAMPLE_SEEDS};
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// The symmetry of the pattern of givens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GivensSymmetry {
    None,
    /// Half-turn: cell (r, c) and (n-1-r, n-1-c).
    Rotate180,
    /// Quarter-turn: the four rotations of a cell.
    Rotate90,
    /// Left-right mirror.
    Mirror,
    /// Reflection in the main diagonal.
    Diagonal,
}

impl FromStr for GivensSymmetry {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "none" => GivensSymmetry::None,
            "rotate180" => GivensSymmetry::Rotate180,
            "rotate90" => GivensSymmetry::Rotate90,
            "mirror" => GivensSymmetry::Mirror,
            "diagonal" => GivensSymmetry::Diagonal,
            _ => {
                return Err(format!(
                    "unknown symmetry {s:?} (none, rotate180, rotate90, mirror, diagonal)"
                ))
            }
        })
    }
}

impl fmt::Display for GivensSymmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl GivensSymmetry {
    /// Every name [`FromStr`] takes.
    pub const NAMES: &'static [&'static str] =
        &["none", "rotate180", "rotate90", "mirror", "diagonal"];

    /// Every symmetry.
    pub const ALL: [GivensSymmetry; 5] = [
        GivensSymmetry::None,
        GivensSymmetry::Rotate180,
        GivensSymmetry::Rotate90,
        GivensSymmetry::Mirror,
        GivensSymmetry::Diagonal,
    ];

    /// The symmetry's name, as [`FromStr`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            GivensSymmetry::None => "none",
            GivensSymmetry::Rotate180 => "rotate180",
            GivensSymmetry::Rotate90 => "rotate90",
            GivensSymmetry::Mirror => "mirror",
            GivensSymmetry::Diagonal => "diagonal",
        }
    }

    /// The cells a cell goes with (itself included), sorted, deduplicated.
    pub fn orbit(self, n: usize, cell: usize) -> Vec<usize> {
        let (r, c) = (cell / n, cell % n);
        let m = n - 1;
        let mut v = vec![(r, c)];
        match self {
            GivensSymmetry::None => {}
            GivensSymmetry::Rotate180 => v.push((m - r, m - c)),
            GivensSymmetry::Rotate90 => {
                v.push((c, m - r));
                v.push((m - r, m - c));
                v.push((m - c, r));
            }
            GivensSymmetry::Mirror => v.push((r, m - c)),
            GivensSymmetry::Diagonal => v.push((c, r)),
        }
        let mut cells: Vec<usize> = v.into_iter().map(|(r, c)| r * n + c).collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// Whether the givens of `g` have this symmetry.
    pub fn holds(self, g: &Grid) -> bool {
        let n = g.size();
        (0..n * n).all(|c| {
            let filled = g.get(c) != 0;
            self.orbit(n, c)
                .into_iter()
                .all(|d| (g.get(d) != 0) == filled)
        })
    }
}

/// A random complete grid for `rules`, by randomised backtracking (the
/// cell with the fewest candidates first, digits in random order).
pub fn random_solution(rules: &Rules, rng: &mut XorShift64Star) -> Grid {
    let n = rules.size();
    let units: Vec<Vec<usize>> = rules.units().into_iter().map(|u| u.cells).collect();
    let mut peers = vec![Vec::new(); n * n];
    for u in &units {
        for &a in u {
            for &b in u {
                if a != b && !peers[a].contains(&b) {
                    peers[a].push(b);
                }
            }
        }
    }
    let full: u32 = if n >= 32 { u32::MAX } else { (1 << n) - 1 };
    let mut vals = vec![0u8; n * n];
    fn fill(
        vals: &mut [u8],
        peers: &[Vec<usize>],
        full: u32,
        rng: &mut XorShift64Star,
        budget: &mut u64,
    ) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let mut best = None;
        let mut best_k = u32::MAX;
        for c in 0..vals.len() {
            if vals[c] != 0 {
                continue;
            }
            let mut used = 0u32;
            for &p in &peers[c] {
                if vals[p] != 0 {
                    used |= 1 << (vals[p] - 1);
                }
            }
            let k = (full & !used).count_ones();
            if k < best_k {
                best_k = k;
                best = Some((c, full & !used));
                if k <= 1 {
                    break;
                }
            }
        }
        let Some((c, cand)) = best else { return true };
        let mut digits: Vec<u8> = (0..32)
            .filter(|d| cand >> d & 1 == 1)
            .map(|d| d as u8 + 1)
            .collect();
        rng.shuffle(&mut digits);
        for d in digits {
            vals[c] = d;
            if fill(vals, peers, full, rng, budget) {
                return true;
            }
        }
        vals[c] = 0;
        false
    }
    loop {
        vals.iter_mut().for_each(|v| *v = 0);
        let mut budget = 200_000;
        if fill(&mut vals, &peers, full, rng, &mut budget) {
            return Grid::from_cells(n, vals);
        }
    }
}

/// How to generate.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    pub rules: Rules,
    pub symmetry: GivensSymmetry,
    /// Remove givens until none can go (else stop at the first pass).
    pub minimal: bool,
    /// Give up on a grid after this many tries to reach an accepted puzzle.
    pub attempts: usize,
}

/// Generates one puzzle with exactly one solution, accepted by `accept`
/// (e.g. a rating in the wanted range). Returns None after
/// `opts.attempts` rejected puzzles.
pub fn generate(
    opts: &GenerateOptions,
    seed: u64,
    accept: impl FnMut(&Puzzle) -> bool,
) -> Option<Puzzle> {
    generate_until(opts, seed, accept, &|| false)
}

/// [`generate`], giving up (`None`) as soon as `stop` says so (checked
/// before each candidate grid and each group of givens taken away).
pub fn generate_until(
    opts: &GenerateOptions,
    seed: u64,
    mut accept: impl FnMut(&Puzzle) -> bool,
    stop: &dyn Fn() -> bool,
) -> Option<Puzzle> {
    let rules = &opts.rules;
    let n = rules.size();
    let solver = Solver::new(rules, SudokuEngine::Auto).expect("auto fits every rule");
    let mut rng = XorShift64Star::new(seed);
    let unique = |g: &Grid| solver.solve(g, 2, 0).count == 1;
    for _ in 0..opts.attempts.max(1) {
        if stop() {
            return None;
        }
        let sol = random_solution(rules, &mut rng);
        let mut g = sol.clone();
        // orbits in random order
        let mut orbits: Vec<Vec<usize>> = Vec::new();
        let mut seen = vec![false; n * n];
        for c in 0..n * n {
            if !seen[c] {
                let o = opts.symmetry.orbit(n, c);
                for &d in &o {
                    seen[d] = true;
                }
                orbits.push(o);
            }
        }
        rng.shuffle(&mut orbits);
        for o in &orbits {
            // (a 16x16 candidate takes a fifth of a second: looked at
            // between its uniqueness checks too)
            if stop() {
                return None;
            }
            let keep: Vec<u8> = o.iter().map(|&c| g.get(c)).collect();
            for &c in o {
                g.set(c, 0);
            }
            if !unique(&g) {
                for (&c, &d) in o.iter().zip(&keep) {
                    g.set(c, d);
                }
            }
        }
        if opts.minimal && !is_minimal(&g, &unique) {
            continue; // a single given could go, but not its symmetric partners
        }
        let p = Puzzle::new(rules.clone(), g).expect("givens of a solution");
        if accept(&p) {
            return Some(p);
        }
    }
    None
}

/// The sizes of grid the generator makes.
pub const SIZES: [usize; 3] = [4, 9, 16];

/// The largest size for which a minimal puzzle with a symmetry is looked
/// for. Cells are taken away by symmetric groups; a puzzle none of whose
/// groups can go may still have a single given that could (removing it
/// would break the symmetry): then it is not minimal, and another grid is
/// tried. On 9x9 about one candidate in 40 is minimal (rotate180); on
/// 16x16 none of 300 was, for each symmetry (at 25 to 55 ms a candidate),
/// so a request for one would search for hours: it is refused
/// ([`RequestError::RareMinimal`]), and a puzzle minimal within its
/// symmetry (`minimal: false`: one pass over the groups, none of which can
/// then go) is what there is.
pub const MAX_MINIMAL_SYMMETRIC: usize = 9;

/// Candidate grids tried for one puzzle before giving up: what bounds the
/// search for a puzzle of a rating that is rare (a few minutes of work at
/// a few milliseconds a grid; the hardest levels need tens).
pub const ATTEMPTS: usize = 100_000;

/// The highest SE rating of any known puzzle (11.9, the hardest of the
/// forum's lists): a range that starts above it is refused at once.
pub const MAX_RATING: f64 = 11.9;

/// Ratings from here up are rare for this generator (well under one grid
/// in a thousand): the command line says that the search may be long.
pub const RARE_RATING: f64 = 9.0;

/// What to generate, as asked (by the command line or the web app).
#[derive(Clone, Debug)]
pub struct Request {
    /// 4, 9 or 16 (see [`SIZES`]).
    pub size: usize,
    pub symmetry: GivensSymmetry,
    /// Minimal puzzles: no given can be removed.
    pub minimal: bool,
    /// SE ratings wanted (9x9 only).
    pub range: Option<RatingRange>,
}

/// A request that cannot be met.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RequestError {
    /// A size not of [`SIZES`].
    #[error("the size must be 4, 9 or 16, not {0}")]
    Size(usize),
    #[error("levels and ratings are for 9x9 puzzles")]
    RatedSize,
    /// A minimal puzzle (no given can go) with a symmetry, of a size where
    /// such puzzles are too rare to look for.
    #[error(
        "a minimal {size}x{size} puzzle with a symmetry is too rare to look for (none in 300 candidate grids of each symmetry): ask for one that is minimal within its symmetry (no symmetric group of givens can go)"
    )]
    RareMinimal { size: usize },
    /// Puzzles not made: no candidate met the request within [`ATTEMPTS`]
    /// candidate grids each ([`Generated::all_made`]); how many, the
    /// ratings wanted, the candidates tried in all and the hardest rating
    /// among them.
    #[error("{}", unmet_words(*failed, *range, *tries, *best))]
    Unmet {
        failed: u64,
        range: Option<RatingRange>,
        tries: u64,
        best: Option<f64>,
    },
}

/// [`RequestError::Unmet`] in words.
fn unmet_words(failed: u64, range: Option<RatingRange>, tries: u64, best: Option<f64>) -> String {
    let wanted = range.map_or(String::new(), |r| {
        format!(" rated {:.1}-{:.1}", r.min, r.max)
    });
    let best = best.map_or(String::new(), |x| {
        format!("; the hardest candidate rated SE {x:.1}")
    });
    format!(
        "{} could not be made: no puzzle{wanted} was found in {ATTEMPTS} candidate grids each ({tries} tried in all{best})",
        dancer_core::plural(failed, "puzzle", "puzzles"),
    )
}

impl Request {
    /// The generator's options for the request, or why it cannot be met.
    pub fn options(&self) -> Result<GenerateOptions, RequestError> {
        if !SIZES.contains(&self.size) {
            return Err(RequestError::Size(self.size));
        }
        if self.range.is_some() && self.size != 9 {
            return Err(RequestError::RatedSize);
        }
        if self.minimal
            && self.symmetry != GivensSymmetry::None
            && self.size > MAX_MINIMAL_SYMMETRIC
        {
            return Err(RequestError::RareMinimal { size: self.size });
        }
        Ok(GenerateOptions {
            rules: Rules::standard(self.size).expect("a size of SIZES"),
            symmetry: self.symmetry,
            minimal: self.minimal,
            attempts: ATTEMPTS,
        })
    }
}

/// A seed for a run that was given none: from the clock.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}

/// The seed of puzzle `i` of a batch made from `seed`: each puzzle has its
/// own stream of random numbers, so that a batch is the same whatever the
/// number of threads, and puzzle `i` the same whatever the batch's size.
pub fn puzzle_seed(seed: u64, i: u64) -> u64 {
    seed.wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// A range of SE ratings, `A-B` (e.g. `3.0-4.5`), both ends included.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingRange {
    pub min: f64,
    pub max: f64,
}

impl RatingRange {
    /// The ratings of a level (see [`Level::range`]).
    pub fn of_level(level: Level) -> Self {
        let (min, max) = level.range();
        RatingRange { min, max }
    }

    /// Whether puzzles of these ratings are rare (from [`RARE_RATING`]
    /// up): each may take up to [`ATTEMPTS`] candidate grids, minutes.
    pub fn is_rare(&self) -> bool {
        self.min >= RARE_RATING
    }
}

/// A rating range that cannot be: the text given, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("rating range {text:?}: {problem}")]
pub struct RangeError {
    pub text: String,
    pub problem: RangeProblem,
}

/// What is wrong with a rating range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RangeProblem {
    #[error("expected A-B, e.g. 3.0-4.5")]
    Form,
    /// The lower bound is not a number: why.
    #[error("bad lower bound: {0}")]
    Lower(String),
    /// The upper bound is not a number: why.
    #[error("bad upper bound: {0}")]
    Upper(String),
    #[error("the lower bound is above the upper")]
    Reversed,
    #[error("no puzzle rates below 1.0")]
    TooLow,
    #[error("no puzzle is known to rate above {MAX_RATING}")]
    TooHigh,
}

impl FromStr for RatingRange {
    type Err = RangeError;
    fn from_str(s: &str) -> Result<Self, RangeError> {
        let bad = |problem| RangeError {
            text: s.into(),
            problem,
        };
        let (a, b) = s.split_once('-').ok_or_else(|| bad(RangeProblem::Form))?;
        let min: f64 = a
            .trim()
            .parse()
            .map_err(|e: std::num::ParseFloatError| bad(RangeProblem::Lower(e.to_string())))?;
        let max: f64 = b
            .trim()
            .parse()
            .map_err(|e: std::num::ParseFloatError| bad(RangeProblem::Upper(e.to_string())))?;
        if min.is_nan() {
            return Err(bad(RangeProblem::Lower("not a number".into())));
        }
        if max.is_nan() {
            return Err(bad(RangeProblem::Upper("not a number".into())));
        }
        if min > max {
            return Err(bad(RangeProblem::Reversed));
        }
        if max < 1.0 {
            // the easiest step, a full house, rates 1.0: nothing could be found
            return Err(bad(RangeProblem::TooLow));
        }
        if min > MAX_RATING || min.is_infinite() {
            return Err(bad(RangeProblem::TooHigh));
        }
        Ok(RatingRange { min, max })
    }
}

/// Generates one puzzle (see [`generate`]) whose SE rating is in `range`,
/// when given: a candidate is first rated with a cap at the top of the
/// range ([`logic::rate_at_most`]), which drops a too-hard one early and
/// cheaply, then rated in full, which is the rating returned. Without a
/// range, no rating is made (`None`).
pub fn generate_rated(
    opts: &GenerateOptions,
    seed: u64,
    range: Option<RatingRange>,
) -> Option<(Puzzle, Option<Rating>)> {
    generate_rated_with(opts, seed, range, &Effort::default())
}

/// How far a search for puzzles has got (shared by the threads of a
/// batch, read by a progress line), and whether to give up.
#[derive(Debug, Default)]
pub struct Effort {
    tries: AtomicU64,
    /// The highest rating seen, as bits (0: none).
    best: AtomicU64,
    /// Set to give up (a signal, or a client that left).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Give up from this moment on.
    pub deadline: Option<std::time::Instant>,
}

impl Effort {
    /// An effort that gives up when `cancel` is set.
    pub fn with_cancel(cancel: Arc<AtomicBool>) -> Self {
        Effort {
            cancel: Some(cancel),
            ..Effort::default()
        }
    }

    /// Candidate puzzles tried so far.
    pub fn tries(&self) -> u64 {
        self.tries.load(Ordering::Relaxed)
    }

    /// The highest SE rating among the candidates rated so far.
    pub fn best(&self) -> Option<f64> {
        match self.best.load(Ordering::Relaxed) {
            0 => None,
            b => Some(f64::from_bits(b)),
        }
    }

    /// How far the search is, in words: `412 candidates tried, hardest
    /// seen SE 7.2`.
    pub fn message(&self) -> String {
        let best = (self.best()).map_or(String::new(), |x| format!(", hardest seen SE {x:.1}"));
        format!("{} candidates tried{best}", self.tries())
    }

    /// An effort that gives up when `cancel` is set or at `deadline`.
    pub fn until(cancel: Arc<AtomicBool>, deadline: std::time::Instant) -> Self {
        Effort {
            cancel: Some(cancel),
            deadline: Some(deadline),
            ..Effort::default()
        }
    }

    /// Whether to give up.
    pub fn stopped(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
            || self
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
    }

    fn saw(&self, se: f64) {
        // ratings are positive, so their bits order as they do
        self.best.fetch_max(se.to_bits(), Ordering::Relaxed);
    }
}

/// [`generate_rated`], counting its candidates in `effort` and giving up
/// when it says so.
pub fn generate_rated_with(
    opts: &GenerateOptions,
    seed: u64,
    range: Option<RatingRange>,
    effort: &Effort,
) -> Option<(Puzzle, Option<Rating>)> {
    let mut rating = None;
    let accept = |p: &Puzzle| match range {
        None => {
            effort.tries.fetch_add(1, Ordering::Relaxed);
            true
        }
        Some(RatingRange { min: a, max: b }) => {
            effort.tries.fetch_add(1, Ordering::Relaxed);
            // too hard: given up early; too easy: cheap anyway
            let Some(r) = logic::rate_at_most(&p.givens, b) else {
                return false;
            };
            effort.saw(r.se);
            if r.se < a - 1e-9 {
                return false;
            }
            // the rating kept is the full one
            let r = logic::rate(&p.givens);
            let ok = r.solved && r.se >= a - 1e-9 && r.se <= b + 1e-9;
            rating = Some(r);
            ok
        }
    };
    let p = generate_until(opts, seed, accept, &|| effort.stopped())?;
    Some((p, rating))
}

/// What [`generate_batch`] made of one puzzle: the puzzle and its rating
/// (when a range asked for one), or `None` when no puzzle met the
/// settings within the attempts.
pub type Made = Option<(Puzzle, Option<Rating>)>;

/// Generates `count` puzzles with [`generate_rated`], puzzle `i` from
/// [`puzzle_seed`]`(seed, i)`, on `threads` threads, in order; `tick` is
/// called as each one is done (for progress).
pub fn generate_batch(
    opts: &GenerateOptions,
    seed: u64,
    count: usize,
    range: Option<RatingRange>,
    threads: usize,
    tick: impl Fn() + Sync,
) -> Result<Vec<Made>, rayon::ThreadPoolBuildError> {
    generate_range(
        opts,
        seed,
        0..count as u64,
        range,
        threads,
        &Effort::default(),
        tick,
    )
}

/// Puzzles `ids` of a run (puzzle `i` from [`puzzle_seed`]`(seed, i)`, so
/// that a run cut into consecutive ranges makes the same puzzles as one
/// [`generate_batch`]), on `threads` threads, in order, counted in
/// `effort`; `tick` is called as each one is done. A puzzle given up on
/// (`effort` stopped) is `None`.
pub fn generate_range(
    opts: &GenerateOptions,
    seed: u64,
    ids: std::ops::Range<u64>,
    range: Option<RatingRange>,
    threads: usize,
    effort: &Effort,
    tick: impl Fn() + Sync,
) -> Result<Vec<Made>, rayon::ThreadPoolBuildError> {
    use rayon::prelude::*;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(dancer_core::parallel::threads_used(threads))
        .build()?;
    Ok(pool.install(|| {
        ids.into_par_iter()
            .map(|i| {
                let made = generate_rated_with(opts, puzzle_seed(seed, i), range, effort);
                tick();
                made
            })
            .collect()
    }))
}

/// Puzzles made at a time by [`generate_blocks`]: each block is handed
/// on as soon as it is done, so that memory stays small and output flows
/// whatever the count.
pub const BLOCK: u64 = 256;

/// What [`generate_blocks`] made: puzzles, and puzzles not made (no
/// candidate met the settings within [`ATTEMPTS`], or the effort stopped).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Generated {
    pub made: u64,
    pub failed: u64,
}

impl Generated {
    /// What a run that made these in `secs` on `threads` from `seed` did,
    /// in words: `10 puzzles in 0.52 s (52.0 ms each, 2 threads), seed 7`.
    pub fn summary(&self, secs: f64, threads: usize, seed: u64) -> String {
        let each = match self.made {
            0 => String::new(),
            n => format!("{:.1} ms each, ", secs * 1000.0 / n as f64),
        };
        format!(
            "{} in {secs:.2} s ({each}{}), seed {seed}",
            dancer_core::plural(self.made, "puzzle", "puzzles"),
            dancer_core::plural(threads, "thread", "threads"),
        )
    }

    /// Whether every puzzle was made (with `range`, the ratings wanted,
    /// and `effort`, what the run tried); else [`RequestError::Unmet`].
    pub fn all_made(
        &self,
        range: Option<RatingRange>,
        effort: &Effort,
    ) -> Result<(), RequestError> {
        match self.failed {
            0 => Ok(()),
            failed => Err(RequestError::Unmet {
                failed,
                range,
                tries: effort.tries(),
                best: effort.best(),
            }),
        }
    }
}

/// Puzzles `0..count` of a run, as [`generate_range`] makes them, a block
/// of [`BLOCK`] at a time: each block goes to `each`, in order, as soon as
/// it is done; no block starts once `effort` says to stop, and the first
/// error of `each` ([`BatchError::Output`]) stops the run there.
#[allow(clippy::too_many_arguments)]
pub fn generate_blocks(
    opts: &GenerateOptions,
    seed: u64,
    count: u64,
    range: Option<RatingRange>,
    threads: usize,
    effort: &Effort,
    tick: impl Fn() + Sync,
    mut each: impl FnMut(&[Made]) -> std::io::Result<()>,
) -> Result<Generated, BatchError> {
    let mut g = Generated::default();
    let mut next: u64 = 0;
    while next < count && !effort.stopped() {
        let end = next.saturating_add(BLOCK).min(count);
        let made = generate_range(opts, seed, next..end, range, threads, effort, &tick)?;
        next = end;
        let n = made.iter().filter(|m| m.is_some()).count() as u64;
        g.made += n;
        g.failed += made.len() as u64 - n;
        each(&made).map_err(BatchError::Output)?;
    }
    Ok(g)
}

/// Whether no given of `g` can be removed with the puzzle staying unique.
pub fn is_minimal(g: &Grid, unique: &impl Fn(&Grid) -> bool) -> bool {
    let mut t = g.clone();
    for c in 0..g.cells().len() {
        let d = g.get(c);
        if d == 0 {
            continue;
        }
        t.set(c, 0);
        let u = unique(&t);
        t.set(c, d);
        if u {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The level ranges are what `Level::of` says, tenth by tenth.
    #[test]
    fn level_ranges() {
        for l in Level::ALL {
            let (a, b) = l.range();
            for k in 0..=120 {
                let x = k as f64 / 10.0;
                let inside = x >= a - 1e-9 && x <= b + 1e-9;
                assert_eq!(Level::of(x) == l, inside, "{} at {x}", l.name());
            }
        }
        assert_eq!(
            "3.0-4.5".parse::<RatingRange>(),
            Ok(RatingRange { min: 3.0, max: 4.5 })
        );
        assert!(matches!(
            "0-0.5".parse::<RatingRange>(),
            Err(RangeError {
                problem: RangeProblem::TooLow,
                ..
            })
        ));
        assert!(matches!(
            "5-4".parse::<RatingRange>(),
            Err(RangeError {
                problem: RangeProblem::Reversed,
                ..
            })
        ));
        // the library's words name no flag of any front end
        for bad in ["3", "x-4", "3-y", "5-4", "0-0.5", "12-13"] {
            let e = bad.parse::<RatingRange>().unwrap_err();
            assert!(
                e.to_string().starts_with("rating range ") && !e.to_string().contains("--"),
                "{e}"
            );
        }
        assert_eq!(
            RequestError::Size(5).to_string(),
            "the size must be 4, 9 or 16, not 5"
        );
        assert_eq!(puzzle_seed(7, 0), 7);
        assert_ne!(puzzle_seed(7, 1), puzzle_seed(7, 2));
    }

    /// Blocks come in order, the puzzles of one run whatever the number
    /// of threads, counted; an error of the output stops the run at its
    /// block; a stopped effort starts no block.
    #[test]
    fn runs_in_blocks() {
        let opts = Request {
            size: 4,
            symmetry: GivensSymmetry::None,
            minimal: true,
            range: None,
        }
        .options()
        .unwrap();
        let run = |count, threads, effort: &Effort| {
            let mut blocks = Vec::new();
            let g = generate_blocks(
                &opts,
                5,
                count,
                None,
                threads,
                effort,
                || {},
                |b| {
                    blocks.push(b.iter().map(|m| m.as_ref().unwrap().0.to_line()).collect());
                    Ok(())
                },
            )
            .unwrap();
            (g, blocks)
        };
        let (g, blocks): (_, Vec<Vec<String>>) = run(BLOCK + 3, 2, &Effort::default());
        assert_eq!(
            g,
            Generated {
                made: BLOCK + 3,
                failed: 0
            }
        );
        assert_eq!(
            blocks.iter().map(Vec::len).collect::<Vec<_>>(),
            [BLOCK as usize, 3]
        );
        assert_eq!(run(BLOCK + 3, 1, &Effort::default()).1, blocks);
        let first = generate_range(&opts, 5, 0..1, None, 1, &Effort::default(), || {}).unwrap();
        assert_eq!(first[0].as_ref().unwrap().0.to_line(), blocks[0][0]);
        let mut calls = 0;
        let e = generate_blocks(
            &opts,
            5,
            BLOCK * 2,
            None,
            1,
            &Effort::default(),
            || {},
            |_| {
                calls += 1;
                Err(std::io::Error::other("closed"))
            },
        );
        assert!(matches!(e, Err(BatchError::Output(_))) && calls == 1);
        let stopped = Effort::with_cancel(Arc::new(AtomicBool::new(true)));
        assert_eq!(run(10, 1, &stopped), (Generated::default(), vec![]));
        // every puzzle made, or how many were not, and how hard it tried
        assert_eq!(g.all_made(None, &Effort::default()), Ok(()));
        let short = Generated { made: 1, failed: 2 };
        let e = short.all_made(Some(RatingRange { min: 9.0, max: 9.5 }), &Effort::default());
        assert_eq!(
            e.unwrap_err().to_string(),
            format!("2 puzzles could not be made: no puzzle rated 9.0-9.5 was found in {ATTEMPTS} candidate grids each (0 tried in all)")
        );
    }

    /// A stopped effort (its flag set, or its deadline passed) gives up at
    /// once, before a candidate grid; a minimal 16x16 puzzle with a symmetry
    /// is refused, and one minimal within its symmetry is made.
    #[test]
    fn searches_stop_when_told_and_rare_requests_are_refused() {
        let opts = Request {
            size: 16,
            symmetry: GivensSymmetry::Rotate180,
            minimal: false,
            range: None,
        }
        .options()
        .unwrap();
        let set = Arc::new(AtomicBool::new(true));
        let e = Effort::until(
            set,
            std::time::Instant::now() + std::time::Duration::from_secs(3600),
        );
        assert!(generate_rated_with(&opts, 1, None, &e).is_none());
        assert_eq!(e.tries(), 0);
        let clear = Arc::new(AtomicBool::new(false));
        let past = Effort::until(clear.clone(), std::time::Instant::now());
        assert!(generate_rated_with(&opts, 1, None, &past).is_none());
        let open = Effort::until(
            clear,
            std::time::Instant::now() + std::time::Duration::from_secs(3600),
        );
        let (p, _) = generate_rated_with(&opts, 1, None, &open).expect("a puzzle");
        assert!(GivensSymmetry::Rotate180.holds(&p.givens));
        for symmetry in [
            GivensSymmetry::Rotate180,
            GivensSymmetry::Rotate90,
            GivensSymmetry::Mirror,
            GivensSymmetry::Diagonal,
        ] {
            let r = Request {
                size: 16,
                symmetry,
                minimal: true,
                range: None,
            };
            assert_eq!(
                r.options().unwrap_err(),
                RequestError::RareMinimal { size: 16 }
            );
        }
        // NaN bounds are said to be no number
        assert!(matches!(
            "NaN-NaN".parse::<RatingRange>(),
            Err(RangeError {
                problem: RangeProblem::Lower(_),
                ..
            })
        ));
        assert!(matches!(
            "1-NaN".parse::<RatingRange>(),
            Err(RangeError {
                problem: RangeProblem::Upper(_),
                ..
            })
        ));
    }

    #[test]
    fn orbits() {
        assert_eq!(GivensSymmetry::Rotate180.orbit(9, 0), vec![0, 80]);
        assert_eq!(GivensSymmetry::Rotate180.orbit(9, 40), vec![40]);
        assert_eq!(GivensSymmetry::Rotate90.orbit(9, 0), vec![0, 8, 72, 80]);
        assert_eq!(GivensSymmetry::Mirror.orbit(9, 10), vec![10, 16]);
        assert_eq!(GivensSymmetry::Diagonal.orbit(9, 1), vec![1, 9]);
    }

    #[test]
    fn generated_puzzles_are_unique_minimal_and_symmetric() {
        for (size, sym, minimal) in [
            (9, GivensSymmetry::None, true),
            (9, GivensSymmetry::Rotate180, true),
            (9, GivensSymmetry::Mirror, true),
            (9, GivensSymmetry::Diagonal, true),
            (9, GivensSymmetry::Rotate90, false),
            (4, GivensSymmetry::Rotate180, false),
            (16, GivensSymmetry::Rotate180, false),
        ] {
            let rules = Rules::standard(size).unwrap();
            let opts = GenerateOptions {
                rules: rules.clone(),
                symmetry: sym,
                minimal,
                attempts: 20_000,
            };
            let solver = Solver::new(&rules, SudokuEngine::Dlx).unwrap();
            let unique = |g: &Grid| solver.solve(g, 2, 0).count == 1;
            for seed in 0..2 {
                let p = generate(&opts, seed, |_| true).unwrap_or_else(|| panic!("{size} {sym}"));
                assert!(unique(&p.givens), "unique");
                assert!(sym.holds(&p.givens), "{sym}");
                if minimal {
                    assert!(is_minimal(&p.givens, &unique), "minimal");
                } else {
                    // no symmetric group of givens can go
                    let n = size;
                    for c in 0..n * n {
                        if p.givens.get(c) == 0 {
                            continue;
                        }
                        let mut t = p.givens.clone();
                        for d in sym.orbit(n, c) {
                            t.set(d, 0);
                        }
                        assert!(!unique(&t), "orbit of {c} removable");
                    }
                }
                // reproducible
                assert_eq!(generate(&opts, seed, |_| true).unwrap(), p);
            }
        }
    }
}
