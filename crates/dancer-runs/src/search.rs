//! Shards and checkpoints: the saved state of a split search, and the rules
//! that make the parts of a search add up to the whole.
//!
//! A search split into units (see [`dancer_core::parallel`]) can be run in parts:
//! on several machines (*shards*, each running the units dealt to it), or
//! across restarts (*checkpoints*, the units completed so far). Both save
//! the same record, [`Saved`], as a small JSON document; this module owns
//! its format, checks every file read back, and adds shards up
//! ([`merge`]). Reading and writing the files is the caller's (the command
//! line writes each file to a temporary name, flushes it, then renames it).
//!
//! # The rules
//!
//! * A problem is known by its [`fingerprint`] (items, bounds, options,
//!   colours); a file made for another problem, another engine or another
//!   version of dancer is refused.
//! * The units of a plan are dealt round-robin: shard `K` of `N` (1-based)
//!   runs the units whose index `i` has `i % N == K - 1`
//!   ([`ShardSpec::takes`]), the same on every machine, since the plan is.
//! * The part of the tree above the frontier (the nodes and updates spent
//!   cutting the plan) is counted once, by shard 1
//!   ([`ShardSpec::counts_top`]), and by every unsplit or resumed run.
//! * A checkpoint lists its completed units as a bitmap, in hex digits of
//!   four units each (unit `4j + b` is bit `b` of digit `j`), with the
//!   counters of those units; a resumed run searches the others and adds
//!   its counters to those. A shard's checkpoint also says which shard
//!   (`shard`, `shards`): it resumes only that shard, and is complete when
//!   the shard's units are done.
//! * Counts (`solutions`) are exact at any size: an enumeration's at most
//!   [`MAX_SAVED_COUNT`], a memoized count's parts (engine `"memo"`) any
//!   JSON integer; [`merge`] adds them exactly.
//!
//! # The record
//!
//! ```json
//! {
//!   "format": "dancer-checkpoint",      // or "dancer-shard"
//!   "version": "0.1.0",                 // of dancer
//!   "fingerprint": "4bd1c0a4c1b9f0e2",  // of the problem, 16 hex digits
//!   "engine": "dlx",                    // the engine that ran
//!   "depth": 3,                         // the plan's frontier depth
//!   "units": 1304,                      // the plan's units
//!   "done": "ff3f...",                  // checkpoints: the completed units
//!   "shard": 2, "shards": 16,           // shards (and their checkpoints): this part and how many
//!   "solutions": 1234, "nodes": 56789, "updates": 987654,
//!   "profile": [1, 10, 50],             // nodes per level
//!   "complete": true,                   // all of this part is searched
//!   "stopped": "limit",                 // when not complete and the run ended early:
//!                                       // "limit" or "interrupted" (else left out)
//!   "seconds": 12.5,                    // of search, all runs together
//!   "checksum": "9f86d081884c7d65"      // of all the rest (below)
//! }
//! ```
//!
//! # Files read back are checked
//!
//! A file may have been damaged, edited, or made by hand, and nothing read
//! from it may make a count wrong or the program fail, so
//! [`Saved::from_json`] checks it whole before anything uses it:
//!
//! * the `checksum`: 16 hex digits of a 64-bit FNV-1a hash of the record's
//!   compact JSON without the checksum (fields in the order above); a file
//!   whose checksum is missing or does not match is refused;
//! * every field in range and consistent with the others: `depth` 1 to
//!   [`parallel::MAX_DEPTH`], `units` any number (0 for a search that ends
//!   above the cut) and `done` exactly
//!   `units` bits long, `shard` and `shards` both or neither with
//!   `1 <= shard <= shards`, counts at most [`MAX_SAVED_COUNT`], the nodes
//!   per level adding up to `nodes`, `seconds` finite, not negative, at
//!   most [`MAX_SAVED_SECONDS`], a complete record with every unit done and
//!   no `stopped`.
//!
//! Counts read back are then added with checked arithmetic ([`merge`],
//! [`Split::totals`]): a sum that does not fit in 64 bits is an error,
//! never a wrapped total.

use crate::parts::{Differs, Field, Numbered, PartHeader, PartsError, ToRerun};
use dancer_core::engines::{EngineError, EngineKind};
use dancer_core::parallel::{self, Plan, Purpose, Stop, UnitResult};
use dancer_core::plural;
use dancer_core::Count;
use dancer_core::Problem;
use dancer_core::Stats;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// The `format` of a checkpoint.
pub const CHECKPOINT: &str = "dancer-checkpoint";
/// The `format` of a shard's result.
pub const SHARD: &str = "dancer-shard";

/// The largest count a saved file may hold (2^63): far beyond any search
/// that can run (2^63 nodes is centuries of work), and leaving room to add
/// a run's own counts without overflow.
pub const MAX_SAVED_COUNT: u64 = 1 << 63;

/// The most seconds of search a saved file may hold (about 31 years).
pub const MAX_SAVED_SECONDS: f64 = 1e9;

/// The engine name of a memoized count's shard results
/// ([`Saved::memo_shard`]).
pub const MEMO: &str = "memo";

/// The version of dancer written into saved files.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// A 64-bit fingerprint of a problem (items, bounds, options, colours), to
/// tell checkpoints and shard results of different problems apart.
pub fn fingerprint(problem: &Problem) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    let mut eat = |x: u64| {
        for b in x.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x100000001b3);
        }
    };
    eat(problem.n_items() as u64);
    eat(problem.n_primary() as u64);
    for i in 0..problem.n_items() {
        for b in problem.item_name(i).bytes() {
            eat(b as u64);
        }
        let (lo, hi) = problem.bounds(i);
        eat(((lo as u64) << 32) | hi as u64);
    }
    eat(problem.n_options() as u64);
    for k in 0..problem.n_options() {
        eat(u64::MAX);
        for e in problem.option(k).entries() {
            eat(e.item as u64);
            if e.color != 0 {
                for b in problem.color_name(e.color).bytes() {
                    eat(b as u64 | 0x100);
                }
            }
        }
    }
    h
}

/// The fingerprint as it is written: 16 hex digits.
pub fn fingerprint_hex(problem: &Problem) -> String {
    format!("{:016x}", fingerprint(problem))
}

/// Part `k` of `n` (1-based) of a sharded search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardSpec {
    pub k: usize,
    pub n: usize,
}

impl ShardSpec {
    /// Whether unit `unit` of the plan is this shard's (round-robin).
    pub fn takes(self, unit: usize) -> bool {
        unit % self.n == self.k - 1
    }

    /// Whether this shard counts the part of the tree above the frontier:
    /// shard 1 does, so that the parts add up to the whole.
    pub fn counts_top(self) -> bool {
        self.k == 1
    }

    /// How many of `units` (numbered from 0, dealt round-robin) this shard
    /// takes: those numbered `k - 1`, `k - 1 + n`, ... (no sum that can
    /// wrap, whatever `n` is).
    pub fn units_of(self, units: u64) -> u64 {
        let (k, n) = (self.k as u64, self.n as u64);
        if units < k {
            0
        } else {
            (units - k) / n + 1
        }
    }
}

impl fmt::Display for ShardSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// A shard given as something other than `K/N` with `1 <= K <= N`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardSpecError {
    #[error("expected K/N, e.g. 3/16")]
    Form,
    #[error("bad K")]
    K,
    #[error("bad N")]
    N,
    #[error("shards are numbered 1 to N (N at least 1)")]
    Range,
}

impl FromStr for ShardSpec {
    type Err = ShardSpecError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (k, n) = s.split_once('/').ok_or(ShardSpecError::Form)?;
        let k: usize = k.trim().parse().map_err(|_| ShardSpecError::K)?;
        let n: usize = n.trim().parse().map_err(|_| ShardSpecError::N)?;
        if n == 0 || k == 0 || k > n {
            return Err(ShardSpecError::Range);
        }
        Ok(ShardSpec { k, n })
    }
}

/// A checkpoint, or a shard's result: what a later run needs to go on or
/// to add up (see the module documentation for the fields).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Saved {
    pub format: String,
    pub version: String,
    pub fingerprint: String,
    pub engine: String,
    pub depth: usize,
    pub units: usize,
    /// Checkpoints: the completed units, as a hex bitmap.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub done: String,
    /// Shards: this part and the number of parts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shards: Option<usize>,
    /// Exact at any size (a JSON integer of any length): an enumeration's
    /// count is at most [`MAX_SAVED_COUNT`], a memoized count's
    /// (`engine` `"memo"`) is not bounded.
    #[serde(deserialize_with = "dancer_core::count::deserialize_exact")]
    pub solutions: Count,
    pub nodes: u64,
    pub updates: u64,
    #[serde(default)]
    pub profile: Vec<u64>,
    pub complete: bool,
    /// Why the run that saved it ended early: left out when it is
    /// complete, and in a checkpoint saved while the run goes on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Stop>,
    pub seconds: f64,
    /// Of the rest of the record (see the module documentation); made by
    /// [`Saved::to_json`], checked by [`Saved::from_json`].
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub checksum: String,
}

/// A saved file that cannot be read back: not JSON of a record, damaged,
/// or a field out of range.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    #[error("no checksum: not a file this dancer wrote (made by hand, or by an older dancer)")]
    NoChecksum,
    #[error("the checksum does not match: the file was changed or damaged since it was written")]
    Checksum,
    #[error("{field}: {why}")]
    Field { field: &'static str, why: String },
}

/// The checksum of a record (its `checksum` field left out).
fn checksum_of(s: &Saved) -> String {
    let mut bare = s.clone();
    bare.checksum.clear();
    checksum(&bare)
}

/// The checksum of saved files (checkpoints, shard results, Sudoku batch
/// parts): 16 hex digits of the 64-bit FNV-1a hash of `record`'s compact
/// JSON (the caller leaves the checksum field itself out).
pub fn checksum<T: Serialize>(record: &T) -> String {
    let text = serde_json::to_vec(record).expect("plain data serialises");
    let mut h: u64 = 0xcbf29ce484222325;
    for b in text {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    format!("{h:016x}")
}

impl Saved {
    /// The engine to go on with when a run resumes with `auto`: the one
    /// that saved this (checkpoints made before `dlxm` had its own name say
    /// `dlx` for problems with multiplicities), if it takes `problem`; else
    /// what `auto` picks ([`Split::new`] then refuses the checkpoint if the
    /// names differ).
    pub fn engine_for(&self, problem: &Problem) -> EngineKind {
        let named = match self.engine.parse::<EngineKind>() {
            Ok(EngineKind::Dlx) if problem.has_multiplicities() => Some(EngineKind::Dlxm),
            Ok(EngineKind::Auto) | Err(_) => None,
            Ok(e) => Some(e),
        };
        named
            .filter(|e| e.supports(problem))
            .unwrap_or_else(|| dancer_core::choose_engine(problem))
    }

    /// Reads a record and checks it whole (see the module documentation):
    /// its checksum, and every field in range and consistent with the
    /// others. What it is (checkpoint or shard) is for the caller to check
    /// with [`Saved::expect_format`].
    pub fn from_json(text: &str) -> Result<Saved, ReadError> {
        let mut s: Saved = serde_json::from_str(text)?;
        if s.checksum.is_empty() {
            return Err(ReadError::NoChecksum);
        }
        if s.checksum != checksum_of(&s) {
            return Err(ReadError::Checksum);
        }
        s.validate()?;
        // the checksum is the file's, not the record's
        s.checksum.clear();
        Ok(s)
    }

    /// Every field in range, and consistent with the others.
    pub fn validate(&self) -> Result<(), ReadError> {
        let bad = |field: &'static str, why: String| Err(ReadError::Field { field, why });
        if self.depth == 0 || self.depth > parallel::MAX_DEPTH {
            return bad(
                "depth",
                format!(
                    "{} is not a depth dancer cuts at (1 to {})",
                    self.depth,
                    parallel::MAX_DEPTH
                ),
            );
        }
        // (0 units: a search that ends above the cut, a problem with no
        // solution among them: its parts are empty and complete)
        if !self.done.is_empty() && parse_bitmap(&self.done, self.units).is_none() {
            return bad("done", format!("not a list of {} units", self.units));
        }
        match (self.shard, self.shards) {
            (None, None) => {}
            (Some(k), Some(n)) if k >= 1 && k <= n => {}
            (k, n) => return bad("shard", format!("shard {k:?} of {n:?} is not a part")),
        }
        if self.engine != MEMO && self.solutions.to_u64().is_none_or(|v| v > MAX_SAVED_COUNT) {
            return bad(
                "solutions",
                format!("{} is more than {MAX_SAVED_COUNT}", self.solutions),
            );
        }
        for (field, x) in [("nodes", self.nodes), ("updates", self.updates)] {
            if x > MAX_SAVED_COUNT {
                return bad(field, format!("{x} is more than {MAX_SAVED_COUNT}"));
            }
        }
        if !self.profile.is_empty() {
            let sum = self
                .profile
                .iter()
                .try_fold(0u64, |a, &b| a.checked_add(b))
                .filter(|&t| t <= MAX_SAVED_COUNT);
            if sum != Some(self.nodes) {
                return bad(
                    "profile",
                    format!(
                        "the nodes per level do not add up to the {} nodes",
                        self.nodes
                    ),
                );
            }
        }
        if !(self.seconds.is_finite() && (0.0..=MAX_SAVED_SECONDS).contains(&self.seconds)) {
            return bad(
                "seconds",
                format!(
                    "{} is not a time of search (0 to {MAX_SAVED_SECONDS})",
                    self.seconds
                ),
            );
        }
        if self.complete {
            if self.stopped.is_some() {
                return bad("stopped", "a complete record did not stop early".into());
            }
            // a shard's checkpoint: every unit of the shard
            let part = match (self.shard, self.shards) {
                (Some(k), Some(n)) => Some(ShardSpec { k, n }),
                _ => None,
            };
            let all = parse_bitmap(&self.done, self.units).is_some_and(|d| {
                d.iter()
                    .enumerate()
                    .all(|(i, &x)| x || part.is_some_and(|s| !s.takes(i)))
            });
            if !self.done.is_empty() && !all {
                return bad("done", "a complete checkpoint has every unit done".into());
            }
        }
        Ok(())
    }

    /// The record as a JSON document (pretty, as it is saved), with its
    /// checksum.
    pub fn to_json(&self) -> Vec<u8> {
        let mut s = self.clone();
        s.checksum = checksum_of(&s);
        serde_json::to_vec_pretty(&s).expect("plain data serialises")
    }

    /// The shard result of part `k` of `n` of a memoized count of
    /// `problem` (see [`dancer_core::memo::MemoSplit`]): its count, exact at any
    /// size, the sub-problems it solved as its nodes and the options it
    /// tried as its updates (as in `--json`'s summary of a memoized count).
    pub fn memo_shard(
        problem: &Problem,
        (k, n): (usize, usize),
        r: &dancer_core::memo::MemoOutcome,
    ) -> Saved {
        let split = r
            .split
            .unwrap_or(dancer_core::memo::MemoSplit { depth: 1, units: 1 });
        Saved {
            format: SHARD.into(),
            version: version().into(),
            fingerprint: fingerprint_hex(problem),
            engine: MEMO.into(),
            depth: split.depth,
            units: usize::try_from(split.units).unwrap_or(usize::MAX),
            done: String::new(),
            shard: Some(k),
            shards: Some(n),
            solutions: r.count.clone(),
            nodes: r.stats.nodes,
            updates: r.stats.options_tried,
            profile: Vec::new(),
            complete: r.complete,
            stopped: (!r.complete).then_some(Stop::Interrupted),
            seconds: r.stats.elapsed.as_secs_f64(),
            checksum: String::new(),
        }
    }

    /// Refuses a record of another format.
    pub fn expect_format(&self, format: &str) -> Result<(), SavedError> {
        if self.format != format {
            return Err(SavedError::Format {
                what: if format == CHECKPOINT {
                    "checkpoint"
                } else {
                    "shard result"
                },
                found: self.format.clone(),
            });
        }
        Ok(())
    }

    /// Its counters (the count saturated at `u64::MAX`: see
    /// [`solutions`](Self::solutions) for the exact one).
    pub fn stats(&self) -> Stats {
        Stats {
            solutions: self.solutions.to_u64().unwrap_or(u64::MAX),
            nodes: self.nodes,
            updates: self.updates,
            profile: self.profile.clone(),
            elapsed: Duration::ZERO,
        }
    }
}

/// A saved file that does not fit the run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SavedError {
    #[error("not a dancer {what} (format {found:?})")]
    Format { what: &'static str, found: String },
    #[error("checkpoint of dancer {theirs}, this is dancer {ours}")]
    Version { theirs: String, ours: String },
    #[error("the checkpoint is of a different problem")]
    Problem,
    /// The checkpoint's search was made by engine `theirs`, this run's by
    /// `ours` (engines' names).
    #[error("the checkpoint was made with engine {theirs}, not {ours}")]
    Engine { theirs: String, ours: String },
}

/// A checkpoint that does not fit the plan it is resumed on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResumeError {
    #[error(
        "the checkpoint has {}, this problem {ours}: not the same search",
        plural(theirs, "unit", "units")
    )]
    Units { theirs: usize, ours: usize },
    /// The cut at the checkpoint's depth has more units than it says (the
    /// cut stops there).
    #[error(
        "the checkpoint has {}, this problem more at depth {depth}: not the same search",
        plural(theirs, "unit", "units")
    )]
    MoreUnits { theirs: usize, depth: usize },
    #[error("the checkpoint's list of completed units is damaged")]
    Damaged,
    #[error("the checkpoint's depth {0} is not a depth dancer cuts at (1 to {max})", max = parallel::MAX_DEPTH)]
    Depth(usize),
    /// A shard's checkpoint resumed as another shard, or as the whole
    /// search (or the other way round).
    #[error("the checkpoint is of {}, this run {}", part(.theirs), part(.ours))]
    Shard {
        theirs: Option<ShardSpec>,
        ours: Option<ShardSpec>,
    },
}

fn part(s: &Option<ShardSpec>) -> String {
    match s {
        Some(s) => format!("shard {}/{}", s.k, s.n),
        None => "the whole search".into(),
    }
}

/// Units as a hex bitmap (see the module documentation).
pub fn hex_bitmap(bits: &[bool]) -> String {
    bits.chunks(4)
        .map(|c| {
            let v = c
                .iter()
                .enumerate()
                .fold(0u8, |v, (i, &b)| v | ((b as u8) << i));
            char::from_digit(v as u32, 16).expect("below 16")
        })
        .collect()
}

/// The bitmap of `n` units written by [`hex_bitmap`]; `None` when it is
/// not hex or too short.
pub fn parse_bitmap(s: &str, n: usize) -> Option<Vec<bool>> {
    let mut v = Vec::with_capacity(n.min(s.len().saturating_mul(4)));
    for ch in s.chars() {
        let d = ch.to_digit(16)?;
        for i in 0..4 {
            v.push(d >> i & 1 == 1);
        }
    }
    if v.len() < n {
        return None;
    }
    v.truncate(n);
    Some(v)
}

/// How a run is split.
#[derive(Clone, Debug, Default)]
pub struct SplitOptions {
    /// Worker threads on this machine.
    pub threads: usize,
    /// Run only this part.
    pub shard: Option<ShardSpec>,
    /// Save checkpoints (finer units).
    pub checkpoints: bool,
    /// Go on from this checkpoint.
    pub resume: Option<Saved>,
}

/// Why a run cannot be split as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SplitError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Saved(#[from] SavedError),
    #[error(transparent)]
    Resume(#[from] ResumeError),
}

/// A search split for this run: the plan, the units this run searches,
/// and what a resumed checkpoint brings.
pub struct Split {
    pub plan: Plan,
    /// Indices into `plan.units` of the units to search now.
    pub selected: Vec<usize>,
    pub shard: Option<ShardSpec>,
    pub engine: EngineKind,
    pub fingerprint: String,
    /// Units completed before (from the checkpoint resumed), and their
    /// counters and seconds.
    done: Vec<bool>,
    resumed: Stats,
    resumed_seconds: f64,
}

impl Split {
    /// Cuts (or, resuming, re-cuts at the checkpoint's depth) the search of
    /// `problem` with `engine`, which must be a concrete engine that takes
    /// the problem (see [`EngineKind::resolve`]), and selects the units
    /// this run searches.
    pub fn new(
        problem: &Problem,
        engine: EngineKind,
        opts: SplitOptions,
    ) -> Result<Split, SplitError> {
        let engine = match (&opts.resume, engine) {
            (Some(s), EngineKind::Auto) => s.engine_for(problem),
            _ => engine.resolve(problem)?,
        };
        let fingerprint = fingerprint_hex(problem);
        if let Some(s) = &opts.resume {
            s.expect_format(CHECKPOINT)?;
            if s.version != version() {
                return Err(SavedError::Version {
                    theirs: s.version.clone(),
                    ours: version().to_string(),
                }
                .into());
            }
            if s.fingerprint != fingerprint {
                return Err(SavedError::Problem.into());
            }
            // (checkpoints made before `dlxm` had its own name say `dlx`
            // for problems with multiplicities: the same search)
            let renamed =
                s.engine == "dlx" && engine == EngineKind::Dlxm && problem.has_multiplicities();
            if s.engine != engine.name() && !renamed {
                return Err(SavedError::Engine {
                    theirs: s.engine.clone(),
                    ours: engine.name().to_string(),
                }
                .into());
            }
        }
        let plan = match &opts.resume {
            Some(s) if s.depth == 0 || s.depth > parallel::MAX_DEPTH => {
                return Err(ResumeError::Depth(s.depth).into())
            }
            // the checkpoint's units bound the cut (its depth could ask
            // for a cut of the whole tree)
            Some(s) => parallel::plan_at_most(problem, engine, s.depth, s.units)?.ok_or(
                ResumeError::MoreUnits {
                    theirs: s.units,
                    depth: s.depth,
                },
            )?,
            None => {
                let purpose = match opts.shard {
                    Some(s) => Purpose::Shards(s.n),
                    None if opts.checkpoints => Purpose::Checkpoints,
                    None => Purpose::Threads,
                };
                parallel::plan_for(problem, engine, opts.threads, purpose)?
            }
        };
        let units = plan.units.len();
        let mut done = vec![false; units];
        let mut resumed = Stats::default();
        let mut resumed_seconds = 0.0;
        if let Some(s) = &opts.resume {
            if s.units != units {
                return Err(ResumeError::Units {
                    theirs: s.units,
                    ours: units,
                }
                .into());
            }
            let theirs = match (s.shard, s.shards) {
                (Some(k), Some(n)) => Some(ShardSpec { k, n }),
                _ => None,
            };
            if theirs != opts.shard {
                return Err(ResumeError::Shard {
                    theirs,
                    ours: opts.shard,
                }
                .into());
            }
            done = parse_bitmap(&s.done, s.units).ok_or(ResumeError::Damaged)?;
            resumed = s.stats();
            resumed_seconds = s.seconds;
        }
        let selected = (0..units)
            .filter(|&i| !done[i])
            .filter(|&i| opts.shard.is_none_or(|s| s.takes(i)))
            .collect();
        Ok(Split {
            plan,
            selected,
            shard: opts.shard,
            engine,
            fingerprint,
            done,
            resumed,
            resumed_seconds,
        })
    }

    /// The counters of this run's part of the search: the top of the tree
    /// (when this part counts it), the units searched now (`run`), and
    /// those searched before a resume.
    pub fn totals(&self, run: &Stats) -> Result<Stats, CountOverflow> {
        let mut stats = Stats::default();
        if self.shard.is_none_or(|s| s.counts_top()) {
            stats.checked_merge(&self.plan.top).ok_or(CountOverflow)?;
        }
        stats.checked_merge(run).ok_or(CountOverflow)?;
        stats.checked_merge(&self.resumed).ok_or(CountOverflow)?;
        Ok(stats)
    }

    /// The checkpoint of this run as it starts, to be kept up to date with
    /// [`Checkpoint::record`] and saved about every `every`.
    pub fn checkpoint(&self, every: Duration) -> Checkpoint {
        let mut template = self.record(CHECKPOINT);
        // a shard's checkpoint says which shard: only it resumes it
        template.shard = self.shard.map(|s| s.k);
        template.shards = self.shard.map(|s| s.n);
        Checkpoint {
            template,
            done: self.done.clone(),
            stats: self.resumed.clone(),
            every,
            last_save: Instant::now(),
        }
    }

    /// This shard's result, with the counters of [`totals`](Self::totals);
    /// complete unless the run `stopped` early.
    pub fn shard_result(&self, totals: &Stats, stopped: Option<Stop>, seconds: f64) -> Saved {
        let mut s = self.record(SHARD);
        s.shard = self.shard.map(|s| s.k);
        s.shards = self.shard.map(|s| s.n);
        s.solutions = Count::from(totals.solutions);
        s.nodes = totals.nodes;
        s.updates = totals.updates;
        s.profile = totals.profile_trimmed().to_vec();
        s.complete = stopped.is_none();
        s.stopped = stopped;
        s.seconds = seconds;
        s
    }

    fn record(&self, format: &str) -> Saved {
        Saved {
            format: format.into(),
            version: version().into(),
            fingerprint: self.fingerprint.clone(),
            engine: self.engine.name().into(),
            depth: self.plan.depth,
            units: self.plan.units.len(),
            done: String::new(),
            shard: None,
            shards: None,
            solutions: Count::ZERO,
            nodes: 0,
            updates: 0,
            profile: Vec::new(),
            complete: false,
            stopped: None,
            seconds: self.resumed_seconds,
            checksum: String::new(),
        }
    }
}

/// A checkpoint being kept: the completed units and their counters, and
/// when it is time to save them.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    template: Saved,
    done: Vec<bool>,
    stats: Stats,
    every: Duration,
    last_save: Instant,
}

impl Checkpoint {
    /// Counts a unit in, if it was searched to the end (a unit cut short
    /// is searched again after a resume). Returns whether a save is due:
    /// a unit was counted in, and `every` has passed since the last save.
    pub fn record(&mut self, r: &UnitResult) -> bool {
        if !r.complete {
            return false;
        }
        self.done[r.index] = true;
        self.stats.merge(&r.stats);
        self.last_save.elapsed() >= self.every
    }

    /// The record to save now: `complete` when the whole run is,
    /// `stopped` when the run ended early (`None` while it goes on), and
    /// `seconds` of search in this run (added to those of the runs before).
    pub fn saved(&mut self, complete: bool, stopped: Option<Stop>, seconds: f64) -> Saved {
        debug_assert!(
            !(complete && stopped.is_some()),
            "a complete run did not stop early"
        );
        self.last_save = Instant::now();
        let mut s = self.template.clone();
        s.done = hex_bitmap(&self.done);
        s.solutions = Count::from(self.stats.solutions);
        s.nodes = self.stats.nodes;
        s.updates = self.stats.updates;
        s.profile = self.stats.profile_trimmed().to_vec();
        s.complete = complete;
        s.stopped = stopped;
        s.seconds += seconds;
        s
    }
}

/// Shards that do not add up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    #[error("{0}: {1}")]
    Saved(String, SavedError),
    #[error("{0}: {1}")]
    Invalid(String, String),
    #[error(transparent)]
    Parts(#[from] PartsError),
    #[error(transparent)]
    Overflow(#[from] CountOverflow),
}

/// Counts whose sum does not fit in 64 bits: refused, never wrapped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the counts add up to more than 64 bits can hold (a damaged or forged file?)")]
pub struct CountOverflow;

/// The sum of a sharded search's parts.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The count of the whole search, exact at any size.
    pub solutions: Count,
    /// Counters of the whole search (`elapsed`: the parts' seconds added;
    /// `solutions` saturated at `u64::MAX`: the exact count is
    /// [`solutions`](Self::solutions)).
    pub stats: Stats,
    /// Every part was complete.
    pub complete: bool,
    /// Why the sum is incomplete, when the parts say: the greatest of
    /// their [`Stop`]s (one interrupted part makes the sum interrupted).
    /// `None` when complete, or when no incomplete part says why (a file
    /// of an older dancer).
    pub stopped: Option<Stop>,
    /// How many parts.
    pub shards: usize,
    /// Seconds of search of all parts together.
    pub seconds: f64,
    /// The parts that are incomplete: their names, and why each stopped
    /// when it says.
    pub incomplete: Vec<(String, Option<Stop>)>,
}

/// Adds up the results of a sharded search, given as (name, record) pairs
/// (the name, usually the file, is for messages). Refuses records that are
/// not shard results, parts of different problems, engines, versions or
/// splits, duplicates and missing parts ([`crate::parts`]).
pub fn merge(parts: &[(String, Saved)]) -> Result<Merged, MergeError> {
    let numbered = shards(parts)?;
    numbered.all_there::<Saved>()?;
    sum(parts, numbered.n)
}

/// The parts of a sharded search to run again (see [`ToRerun`]), after
/// the checks of [`merge`] but the missing parts: records that are not
/// shard results, parts of different problems, engines, versions or
/// splits, duplicates and invalid records are refused.
pub fn to_rerun(parts: &[(String, Saved)]) -> Result<ToRerun, MergeError> {
    let numbered = shards(parts)?;
    for (f, s) in parts {
        s.validate()
            .map_err(|e| MergeError::Invalid(f.clone(), e.to_string()))?;
    }
    Ok(numbered.to_rerun(parts))
}

/// The shard results among `parts`, numbered ([`crate::parts::numbered`]).
fn shards(parts: &[(String, Saved)]) -> Result<Numbered, MergeError> {
    for (f, s) in parts {
        s.expect_format(SHARD)
            .map_err(|e| MergeError::Saved(f.clone(), e))?;
    }
    Ok(crate::parts::numbered(parts)?)
}

/// The shards of one search: the same version, problem, engine and split.
impl PartHeader for Saved {
    const NOUN: &'static str = "shard";

    fn number(&self) -> Option<usize> {
        self.shard
    }

    fn of(&self) -> Option<usize> {
        self.shards
    }

    fn complete(&self) -> bool {
        self.complete
    }

    fn differs(&self, first: &Self) -> Option<Differs> {
        const VERSION: Field = Field::named("version");
        const PROBLEM: Field = Field::named("problem");
        const ENGINE: Field = Field::named("engine");
        for (field, a, b) in [
            (&VERSION, &first.version, &self.version),
            (&PROBLEM, &first.fingerprint, &self.fingerprint),
            (&ENGINE, &first.engine, &self.engine),
        ] {
            if a != b {
                return Some(Differs::Field {
                    field,
                    first: a.clone(),
                    other: b.clone(),
                });
            }
        }
        (self.shards != first.shards || self.depth != first.depth || self.units != first.units)
            .then_some(Differs::Split)
    }
}

/// Adds up parts that passed [`shards`], none missing.
fn sum(parts: &[(String, Saved)], n: usize) -> Result<Merged, MergeError> {
    let mut stats = Stats::default();
    let mut solutions = Count::ZERO;
    let mut seconds = 0.0;
    let mut incomplete = Vec::new();
    for (f, s) in parts {
        s.validate()
            .map_err(|e| MergeError::Invalid(f.clone(), e.to_string()))?;
        if !s.complete {
            incomplete.push((f.clone(), s.stopped));
        }
        solutions += &s.solutions;
        let mut part = s.stats();
        part.solutions = 0;
        stats.checked_merge(&part).ok_or(CountOverflow)?;
        seconds += s.seconds;
    }
    stats.solutions = solutions.to_u64().unwrap_or(u64::MAX);
    stats.elapsed = Duration::try_from_secs_f64(seconds).unwrap_or_default();
    Ok(Merged {
        solutions,
        stats,
        complete: incomplete.is_empty(),
        stopped: incomplete.iter().filter_map(|(_, s)| *s).max(),
        shards: n,
        seconds,
        incomplete,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_units_of_a_shard_never_wrap() {
        let of = |k, n, units| ShardSpec { k, n }.units_of(units);
        assert_eq!(of(1, usize::MAX, 1), 1);
        assert_eq!(of(2, usize::MAX, 1), 0);
        assert_eq!(of(3, 4, 10), 2); // 2 and 6
        assert_eq!(of(2, 4, 10), 3); // 1, 5 and 9
        assert_eq!(of(1, 2, 0), 0);
        assert_eq!(of(1, 1, u64::MAX), u64::MAX);
        // what `takes` says, unit by unit
        for (k, n) in [(1, 1), (2, 3), (3, 3), (4, 7)] {
            let s = ShardSpec { k, n };
            for units in 0..20u64 {
                let taken = (0..units as usize).filter(|&u| s.takes(u)).count() as u64;
                assert_eq!(s.units_of(units), taken, "{k}/{n} of {units}");
            }
        }
    }

    use super::*;

    /// The split of `p` with `dlx` as `opts` asks.
    fn dlx_split(p: &Problem, opts: SplitOptions) -> Split {
        Split::new(p, EngineKind::Dlx, opts).unwrap()
    }

    /// The split of `p` with `dlx` as `opts` asks, its checkpoint, and
    /// every other unit of it searched (recorded in the checkpoint), as if
    /// the run had stopped half way.
    fn run_half(p: &Problem, opts: &SplitOptions) -> (Split, Vec<usize>, Checkpoint) {
        let split = Split::new(p, EngineKind::Dlx, opts.clone()).unwrap();
        let mut cp = split.checkpoint(Duration::from_secs(3600));
        let half: Vec<usize> = split.selected.iter().copied().step_by(2).collect();
        let cfg = RunConfig {
            engine: EngineKind::Dlx,
            keep: false,
            ..Default::default()
        };
        run(
            p,
            &split.plan,
            &half,
            &cfg,
            &Record(std::sync::Mutex::new(&mut cp)),
        )
        .unwrap();
        (split, half, cp)
    }

    /// The split of `p` with `dlx` that goes on from `saved` (otherwise as
    /// `opts` asks).
    fn resumed(p: &Problem, saved: &Saved, opts: &SplitOptions) -> Split {
        Split::new(
            p,
            EngineKind::Dlx,
            SplitOptions {
                resume: Some(saved.clone()),
                ..opts.clone()
            },
        )
        .unwrap()
    }
    use dancer_core::parallel::{run, Observer, RunConfig};
    use dancer_core::{classic, EngineKind};

    struct Quiet;
    impl Observer for Quiet {
        fn unit(&self, _: &UnitResult) {}
    }

    /// Records each unit into a checkpoint (saved within the hour: never
    /// due in a test).
    struct Record<'a>(std::sync::Mutex<&'a mut Checkpoint>);
    impl Observer for Record<'_> {
        fn unit(&self, r: &UnitResult) {
            assert!(!self.0.lock().unwrap().record(r), "not due within the hour");
        }
    }

    /// Runs shard `spec` of queens 8 (or the whole search) and returns its
    /// result record.
    fn shard_of(spec: Option<ShardSpec>) -> (Split, Stats) {
        let p = classic::queens(8);
        let split = dlx_split(
            &p,
            SplitOptions {
                threads: 1,
                shard: spec,
                ..Default::default()
            },
        );
        let cfg = RunConfig {
            engine: split.engine,
            keep: false,
            ..Default::default()
        };
        let s = run(&p, &split.plan, &split.selected, &cfg, &Quiet).unwrap();
        let totals = split.totals(&s.stats).unwrap();
        (split, totals)
    }

    #[test]
    fn shard_specs() {
        assert_eq!("3/16".parse(), Ok(ShardSpec { k: 3, n: 16 }));
        assert_eq!("0/3".parse::<ShardSpec>(), Err(ShardSpecError::Range));
        assert_eq!("4/3".parse::<ShardSpec>(), Err(ShardSpecError::Range));
        assert_eq!("3".parse::<ShardSpec>(), Err(ShardSpecError::Form));
        let s = ShardSpec { k: 2, n: 3 };
        assert!(s.takes(1) && s.takes(4) && !s.takes(0) && !s.takes(2));
        assert!(!s.counts_top() && ShardSpec { k: 1, n: 3 }.counts_top());
        let bits = vec![true, false, false, true, true, true, false];
        let hex = hex_bitmap(&bits);
        assert_eq!(hex, "93");
        assert_eq!(parse_bitmap(&hex, bits.len()), Some(bits));
        assert_eq!(parse_bitmap("9", 7), None);
        assert_eq!(parse_bitmap("9z", 7), None);
    }

    /// A record's file with `f` applied to its JSON: `rechecksum` writes a
    /// matching checksum (a forged file), else the old one stays (an edit).
    fn forged(r: &Saved, rechecksum: bool, f: impl Fn(&mut serde_json::Value)) -> String {
        let mut v: serde_json::Value = serde_json::from_slice(&r.to_json()).unwrap();
        f(&mut v);
        if rechecksum {
            let mut back: Saved = serde_json::from_value(v).unwrap();
            back.checksum.clear();
            String::from_utf8(back.to_json()).unwrap()
        } else {
            v.to_string()
        }
    }

    proptest::proptest! {
        /// Every record dancer writes reads back equal, with its checksum
        /// matching: times included, whose decimal form must parse back to
        /// the same f64 (a resumed run's checkpoint once failed here).
        #[test]
        fn every_saved_record_reads_back(
            seconds in 0.0f64..=MAX_SAVED_SECONDS,
            bits in 0u64..(1 << 52),
            solutions in 0u64..=MAX_SAVED_COUNT,
            complete in proptest::bool::ANY,
        ) {
            let (split, totals) = shard_of(Some(ShardSpec { k: 2, n: 3 }));
            let mut r = split.shard_result(&totals, None, seconds);
            r.solutions = Count::from(solutions);
            r.complete = complete;
            // a time of arbitrary low bits, as a clock gives
            r.seconds = f64::from_bits(seconds.to_bits() ^ (bits & 0xffff_ffff))
                .clamp(0.0, MAX_SAVED_SECONDS);
            let text = String::from_utf8(r.to_json()).unwrap();
            let back = Saved::from_json(&text).map_err(|e| e.to_string());
            proptest::prop_assert_eq!(back, Ok(r));
        }
    }

    #[test]
    fn files_read_back_are_checked_whole() {
        use serde_json::json;
        let (split, totals) = shard_of(Some(ShardSpec { k: 2, n: 3 }));
        let r = split.shard_result(&totals, None, 0.5);
        let text = String::from_utf8(r.to_json()).unwrap();
        assert!(text.contains("\"checksum\""));
        assert_eq!(Saved::from_json(&text).unwrap(), r);
        // an edit, even one that keeps the record well formed, is seen
        for edit in [
            forged(&r, false, |v| v["solutions"] = json!(1)),
            forged(&r, false, |v| v["complete"] = json!(false)),
            forged(&r, false, |v| v["checksum"] = json!("0000000000000000")),
        ] {
            assert!(
                matches!(Saved::from_json(&edit), Err(ReadError::Checksum)),
                "{edit}"
            );
        }
        let none = forged(&r, false, |v| {
            v.as_object_mut().unwrap().remove("checksum");
        });
        assert!(matches!(
            Saved::from_json(&none),
            Err(ReadError::NoChecksum)
        ));
        // a forged file with a right checksum: every field still checked
        type Forge = Box<dyn Fn(&mut serde_json::Value)>;
        let cases: Vec<(&str, Forge)> = vec![
            ("depth", Box::new(|v| v["depth"] = json!(0))),
            ("depth", Box::new(|v| v["depth"] = json!(99))),
            ("shard", Box::new(|v| v["shard"] = json!(4))),
            (
                "shard",
                Box::new(|v| {
                    v.as_object_mut().unwrap().remove("shards");
                }),
            ),
            ("solutions", Box::new(|v| v["solutions"] = json!(u64::MAX))),
            ("nodes", Box::new(|v| v["nodes"] = json!(u64::MAX))),
            ("profile", Box::new(|v| v["profile"] = json!([1]))),
            ("profile", Box::new(|v| v["profile"] = json!([u64::MAX, 2]))),
            ("seconds", Box::new(|v| v["seconds"] = json!(-5.0))),
            ("seconds", Box::new(|v| v["seconds"] = json!(1e300))),
            ("stopped", Box::new(|v| v["stopped"] = json!("limit"))),
        ];
        for (field, f) in &cases {
            let text = forged(&r, true, f);
            match Saved::from_json(&text) {
                Err(ReadError::Field { field: got, .. }) => assert_eq!(got, *field, "{text}"),
                other => panic!("{field}: {other:?}\n{text}"),
            }
        }
        // a checkpoint's map of completed units: its length, and complete
        // means every unit done
        let p = classic::queens(8);
        let split = dlx_split(
            &p,
            SplitOptions {
                threads: 1,
                checkpoints: true,
                ..Default::default()
            },
        );
        let mut cp = split.checkpoint(Duration::from_secs(3600));
        let c = cp.saved(false, None, 0.1);
        assert!(Saved::from_json(std::str::from_utf8(&c.to_json()).unwrap()).is_ok());
        let short = forged(&c, true, |v| v["done"] = json!("f"));
        assert!(matches!(
            Saved::from_json(&short),
            Err(ReadError::Field { field: "done", .. })
        ));
        let done_not = forged(&c, true, |v| v["complete"] = json!(true));
        assert!(matches!(
            Saved::from_json(&done_not),
            Err(ReadError::Field { field: "done", .. })
        ));
    }

    #[test]
    fn merged_counts_never_wrap() {
        let mut parts = Vec::new();
        for k in 1..=2 {
            let (split, totals) = shard_of(Some(ShardSpec { k, n: 2 }));
            parts.push((format!("part{k}"), split.shard_result(&totals, None, 0.5)));
        }
        // two counts that pass the checks alone and not within 64 bits
        // together: added exactly
        for (_, p) in &mut parts {
            p.solutions = Count::from(MAX_SAVED_COUNT);
        }
        let m = merge(&parts).unwrap();
        assert_eq!(m.solutions, Count::from(1u128 << 64));
        assert_eq!(m.stats.solutions, u64::MAX, "saturated, never wrapped");
        // nodes that pass alone but not together are refused
        for (_, p) in &mut parts {
            p.solutions = Count::ONE;
            p.nodes = MAX_SAVED_COUNT;
            p.profile.clear();
        }
        assert_eq!(merge(&parts), Err(MergeError::Overflow(CountOverflow)));
        // and a record that merge is handed directly is checked too
        parts[0].1.nodes = 1;
        parts[0].1.solutions = Count::from(u64::MAX);
        assert!(matches!(merge(&parts), Err(MergeError::Invalid(..))));
        // a memoized count's parts hold any count
        for (_, p) in &mut parts {
            p.engine = MEMO.into();
            p.nodes = 1;
            p.solutions = "123456789012345678901234567890123456789012345"
                .parse()
                .unwrap();
        }
        let m = merge(&parts).unwrap();
        assert_eq!(
            m.solutions.to_string(),
            "246913578024691357802469135780246913578024690"
        );
        let mut st = Stats {
            solutions: u64::MAX - 1,
            ..Stats::default()
        };
        let before = st.clone();
        assert_eq!(
            st.checked_merge(&Stats {
                solutions: 2,
                ..Stats::default()
            }),
            None
        );
        assert_eq!(st, before, "left as it was");
    }

    /// The shards of a search add up to the whole search, exactly, and
    /// merge refuses what does not add up.
    #[test]
    fn shards_add_up_and_merge_checks_them() {
        let (_, whole) = shard_of(None);
        assert_eq!(whole.solutions, 92);
        let mut parts = Vec::new();
        for k in 1..=3 {
            let (split, totals) = shard_of(Some(ShardSpec { k, n: 3 }));
            let r = split.shard_result(&totals, None, 0.5);
            // the record survives being written and read
            let back = Saved::from_json(std::str::from_utf8(&r.to_json()).unwrap()).unwrap();
            assert_eq!(back, r);
            parts.push((format!("part{k}"), r));
        }
        let m = merge(&parts).unwrap();
        assert_eq!(
            (m.stats.solutions, m.stats.nodes, m.stats.updates),
            (whole.solutions, whole.nodes, whole.updates)
        );
        assert!(m.complete && m.incomplete.is_empty());
        assert_eq!(m.shards, 3);
        assert!((m.seconds - 1.5).abs() < 1e-9);
        // what to run again: missing parts, and parts that did not finish
        let rerun = to_rerun(&parts).unwrap();
        assert_eq!(
            (rerun.n, rerun.array(), rerun.incomplete.len()),
            (3, String::new(), 0)
        );
        let rerun = to_rerun(&parts[..2]).unwrap();
        assert_eq!(rerun.array(), "3");
        let rerun = to_rerun(&parts[1..2]).unwrap();
        assert_eq!(rerun.array(), "1,3");
        let mut cut = parts.clone();
        cut[1].1.complete = false;
        cut[1].1.stopped = Some(Stop::Interrupted);
        let rerun = to_rerun(&cut[..2]).unwrap();
        assert_eq!(
            (rerun.array(), rerun.incomplete.clone()),
            ("2-3".to_string(), vec![2])
        );
        // missing, twice, of another problem, not a shard
        assert_eq!(
            merge(&parts[..2]),
            Err(MergeError::Parts(PartsError::Missing {
                noun: "shard",
                n: 3,
                missing: vec![3]
            }))
        );
        let mut twice = parts.clone();
        twice[2] = parts[1].clone();
        assert!(matches!(
            merge(&twice),
            Err(MergeError::Parts(PartsError::Twice { k: 2, .. }))
        ));
        let mut other = parts.clone();
        other[1].1.fingerprint = "0000000000000000".into();
        assert!(matches!(
            merge(&other),
            Err(MergeError::Parts(PartsError::Different {
                field: Field {
                    what: "problem",
                    ..
                },
                ..
            }))
        ));
        // the message names the files and their values in the same order
        let fp = parts[0].1.fingerprint.clone();
        assert_eq!(
            merge(&other).unwrap_err().to_string(),
            format!("part1 and part2: different problem ({fp} and 0000000000000000)")
        );
        let mut engines = parts.clone();
        engines[0].1.engine = "bitset".into();
        assert_eq!(
            merge(&engines).unwrap_err().to_string(),
            "part1 and part2: different engine (bitset and dlx)"
        );
        let mut wrong = parts.clone();
        wrong[0].1.format = CHECKPOINT.into();
        assert!(matches!(merge(&wrong), Err(MergeError::Saved(..))));
        // an incomplete part makes the sum incomplete
        let mut cut = parts.clone();
        cut[2].1.complete = false;
        let m = merge(&cut).unwrap();
        assert!(!m.complete);
        assert_eq!(m.incomplete, vec![("part3".to_string(), None)]);
        assert_eq!(m.stopped, None);
        // and says why: an interrupted part outweighs a limited one
        cut[2].1.stopped = Some(Stop::Limit);
        assert_eq!(merge(&cut).unwrap().stopped, Some(Stop::Limit));
        cut[0].1.complete = false;
        cut[0].1.stopped = Some(Stop::Interrupted);
        let m = merge(&cut).unwrap();
        assert_eq!(m.stopped, Some(Stop::Interrupted));
        assert_eq!(
            m.incomplete,
            vec![
                ("part1".to_string(), Some(Stop::Interrupted)),
                ("part3".to_string(), Some(Stop::Limit))
            ]
        );
        // `stopped` is written only when there is one, and read back
        assert!(!String::from_utf8(parts[0].1.to_json())
            .unwrap()
            .contains("stopped"));
        let text = String::from_utf8(cut[0].1.to_json()).unwrap();
        assert!(text.contains(r#""stopped": "interrupted""#), "{text}");
        assert_eq!(Saved::from_json(&text).unwrap(), cut[0].1);
    }

    /// A checkpoint resumes only the same search, and a resumed run ends
    /// with the counts of an uninterrupted one.
    #[test]
    fn shards_checkpoint_and_resume_exactly() {
        let p = classic::queens(8);
        let cfg = RunConfig {
            engine: EngineKind::Dlx,
            keep: false,
            ..Default::default()
        };
        let n = 3;
        let mut parts = Vec::new();
        for k in 1..=n {
            let spec = ShardSpec { k, n };
            let opts = SplitOptions {
                threads: 1,
                shard: Some(spec),
                checkpoints: true,
                ..Default::default()
            };
            // half of the shard's units, as if the task were killed
            let (split, half, mut cp) = run_half(&p, &opts);
            let saved = cp.saved(false, Some(Stop::Interrupted), 0.5);
            assert_eq!((saved.shard, saved.shards), (Some(k), Some(n)));
            let text = String::from_utf8(saved.to_json()).unwrap();
            let saved = Saved::from_json(&text).unwrap();
            // resumed as the same shard: the rest of its units
            let again = resumed(&p, &saved, &opts);
            assert_eq!(again.selected.len(), split.selected.len() - half.len());
            assert!(again.selected.iter().all(|&u| spec.takes(u)));
            let mut cp = again.checkpoint(Duration::from_secs(3600));
            let s = run(
                &p,
                &again.plan,
                &again.selected,
                &cfg,
                &Record(std::sync::Mutex::new(&mut cp)),
            )
            .unwrap();
            let totals = again.totals(&s.stats).unwrap();
            // its last checkpoint is complete, and valid
            let last = cp.saved(true, None, 0.5);
            last.validate().unwrap();
            parts.push((format!("part {k}"), again.shard_result(&totals, None, 1.0)));
            // refused as another shard or as the whole search
            for other in [Some(ShardSpec { k: k % n + 1, n }), None] {
                let e = Split::new(
                    &p,
                    EngineKind::Dlx,
                    SplitOptions {
                        resume: Some(saved.clone()),
                        shard: other,
                        ..opts.clone()
                    },
                )
                .err()
                .unwrap();
                assert!(
                    matches!(e, SplitError::Resume(ResumeError::Shard { .. })),
                    "{e}"
                );
            }
        }
        // the parts, each killed and resumed, add up to the whole search
        let m = merge(&parts).unwrap();
        let (_, whole) = shard_of(None);
        assert_eq!(
            (m.stats.solutions, m.stats.nodes, m.stats.updates),
            (whole.solutions, whole.nodes, whole.updates)
        );
    }

    #[test]
    fn parts_to_rerun_up_to_the_largest_n() {
        assert_eq!(ToRerun::new(6, vec![1, 2, 4], vec![]).array(), "3,5-6");
        assert_eq!(ToRerun::new(3, vec![1, 2, 3], vec![]).array(), "");
        assert_eq!(ToRerun::new(3, vec![], vec![]).array(), "1-3");
        let m = usize::MAX;
        assert_eq!(
            ToRerun::new(m, vec![1], vec![]).ranges,
            vec![(2, m)],
            "no overflow past usize::MAX"
        );
        assert_eq!(ToRerun::new(m, vec![m], vec![]).ranges, vec![(1, m - 1)]);
        assert_eq!(ToRerun::new(m, vec![1, m], vec![]).ranges, vec![(2, m - 1)]);
    }

    /// Memo shards with counts beyond 128 bits read back exactly and merge
    /// to the exact sum; the messages count their units in the singular.
    #[test]
    fn memo_shards_of_big_counts() {
        let mut b = dancer_core::ProblemBuilder::new();
        b.primary("a").unwrap();
        b.option(["a"]).unwrap();
        let p = b.build().unwrap();
        let big: Count = format!("3{}", "0".repeat(60)).parse().unwrap();
        let mut parts = Vec::new();
        for k in 1..=3 {
            let r = dancer_core::memo::MemoOutcome {
                count: big.clone(),
                complete: true,
                stats: dancer_core::memo::MemoStats::default(),
                split: Some(dancer_core::memo::MemoSplit { depth: 1, units: 3 }),
            };
            let saved = Saved::memo_shard(&p, (k, 3), &r);
            let text = String::from_utf8(saved.to_json()).unwrap();
            let back = Saved::from_json(&text).unwrap();
            assert_eq!(back.solutions, big);
            parts.push((format!("part {k}"), back));
        }
        let m = merge(&parts).unwrap();
        assert_eq!(m.solutions.to_string(), format!("9{}", "0".repeat(60)));
        assert!(ResumeError::Units { theirs: 1, ours: 1 }
            .to_string()
            .starts_with("the checkpoint has 1 unit,"));
    }

    /// A search that ends above the cut (here a problem with no solution)
    /// has no units: its shard results merge, their parts to run again are
    /// none, and its checkpoint resumes.
    #[test]
    fn a_split_of_no_units_merges_and_resumes() {
        // item c is in no option: the search ends at its root
        let mut b = dancer_core::ProblemBuilder::new();
        for x in ["a", "b", "c"] {
            b.primary(x).unwrap();
        }
        b.option(["a", "b"]).unwrap();
        b.option(["a"]).unwrap();
        let p = b.build().unwrap();
        let cfg = RunConfig {
            engine: EngineKind::Dlx,
            keep: false,
            ..Default::default()
        };
        let mut parts = Vec::new();
        for k in 1..=2 {
            let spec = ShardSpec { k, n: 2 };
            let split = dlx_split(
                &p,
                SplitOptions {
                    threads: 1,
                    shard: Some(spec),
                    ..Default::default()
                },
            );
            assert_eq!(split.plan.units.len(), 0);
            let s = run(&p, &split.plan, &split.selected, &cfg, &Quiet).unwrap();
            let totals = split.totals(&s.stats).unwrap();
            let r = split.shard_result(&totals, None, 0.0);
            let text = String::from_utf8(r.to_json()).unwrap();
            parts.push((format!("{k}.json"), Saved::from_json(&text).unwrap()));
        }
        let m = merge(&parts).unwrap();
        assert!(m.complete && m.solutions.is_zero());
        assert!(to_rerun(&parts).unwrap().ranges.is_empty());
        let opts = SplitOptions {
            threads: 1,
            checkpoints: true,
            ..Default::default()
        };
        let split = Split::new(&p, EngineKind::Dlx, opts.clone()).unwrap();
        let saved = split
            .checkpoint(Duration::from_secs(3600))
            .saved(true, None, 0.0);
        let text = String::from_utf8(saved.to_json()).unwrap();
        let saved = Saved::from_json(&text).unwrap();
        let again = dlx_split(
            &p,
            SplitOptions {
                resume: Some(saved),
                ..opts
            },
        );
        assert!(again.selected.is_empty());
    }

    #[test]
    fn checkpoints_resume_exactly() {
        let p = classic::queens(8);
        let opts = SplitOptions {
            threads: 1,
            checkpoints: true,
            ..Default::default()
        };
        // search every other unit, as if stopped half way
        let (split, half, mut cp) = run_half(&p, &opts);
        let cfg = RunConfig {
            engine: EngineKind::Dlx,
            keep: false,
            ..Default::default()
        };
        let saved = cp.saved(false, None, 1.0);
        assert_eq!(saved.format, CHECKPOINT);
        // resumed: the other units, and the totals of the whole search
        let again = resumed(&p, &saved, &opts);
        assert_eq!(again.selected.len(), split.selected.len() - half.len());
        let s = run(&p, &again.plan, &again.selected, &cfg, &Quiet).unwrap();
        let totals = again.totals(&s.stats).unwrap();
        let (_, whole) = shard_of(None);
        assert_eq!(
            (totals.solutions, totals.nodes, totals.updates),
            (whole.solutions, whole.nodes, whole.updates)
        );
        // refused: another engine, another problem, a damaged or hostile file
        let resume = |s: Saved, engine: EngineKind, p: &Problem| {
            Split::new(
                p,
                engine,
                SplitOptions {
                    resume: Some(s),
                    ..opts.clone()
                },
            )
            .err()
        };
        assert!(matches!(
            resume(saved.clone(), EngineKind::Dlxm, &p),
            Some(SplitError::Saved(SavedError::Engine { .. }))
        ));
        assert!(matches!(
            resume(saved.clone(), EngineKind::Dlx, &classic::queens(7)),
            Some(SplitError::Saved(SavedError::Problem))
        ));
        // a checkpoint of a problem with multiplicities made when `dlxm`
        // was called `dlx` still resumes
        let mut b = dancer_core::ProblemBuilder::new();
        b.primary_bounded("a", 2, 2).unwrap();
        for _ in 0..3 {
            b.option(["a"]).unwrap();
        }
        let m = b.build().unwrap();
        let mopts = SplitOptions {
            threads: 1,
            checkpoints: true,
            ..Default::default()
        };
        let ms = Split::new(&m, EngineKind::Dlxm, mopts.clone()).unwrap();
        let mut old = ms
            .checkpoint(Duration::from_secs(1))
            .saved(false, None, 0.0);
        old.engine = "dlx".into();
        let again = Split::new(
            &m,
            EngineKind::Auto,
            SplitOptions {
                resume: Some(old),
                ..mopts
            },
        );
        assert_eq!(again.map(|s| s.engine), Ok(EngineKind::Dlxm));
        let mut bad = saved.clone();
        bad.done = "zz".into();
        assert!(matches!(
            resume(bad, EngineKind::Dlx, &p),
            Some(SplitError::Resume(ResumeError::Damaged))
        ));
        let mut bad = saved.clone();
        bad.depth = 0;
        assert!(matches!(
            resume(bad, EngineKind::Dlx, &p),
            Some(SplitError::Resume(ResumeError::Depth(0)))
        ));
        // a cut with more units than the checkpoint names is stopped
        // there (a hostile depth could ask for a cut of the whole tree)
        let mut bad = saved.clone();
        bad.units = 3;
        let e = resume(bad, EngineKind::Dlx, &p).unwrap();
        assert!(
            matches!(
                e,
                SplitError::Resume(ResumeError::MoreUnits { theirs: 3, .. })
            ),
            "{e}"
        );
        assert!(
            e.to_string()
                .contains("has 3 units, this problem more at depth"),
            "{e}"
        );
        let mut bad = saved;
        bad.units += 1;
        let e = resume(bad, EngineKind::Dlx, &p).unwrap();
        assert!(matches!(e, SplitError::Resume(ResumeError::Units { .. })));
        assert!(e.to_string().contains(" units, this problem "), "{e}");
        assert_eq!(
            ResumeError::Units { theirs: 1, ours: 2 }.to_string(),
            "the checkpoint has 1 unit, this problem 2: not the same search"
        );
    }
}
