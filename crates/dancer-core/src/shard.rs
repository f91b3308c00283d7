//! Shards and checkpoints: the saved state of a split search, and the rules
//! that make the parts of a search add up to the whole.
//!
//! A search split into units (see [`crate::parallel`]) can be run in parts:
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
//!   its counters to those.
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
//!   "shard": 2, "shards": 16,           // shards: this part and how many
//!   "solutions": 1234, "nodes": 56789, "updates": 987654,
//!   "profile": [1, 10, 50],             // nodes per level
//!   "complete": true,                   // all of this part is searched
//!   "stopped": "limit",                 // when not complete and the run ended early:
//!                                       // "limit" or "interrupted" (else left out)
//!   "seconds": 12.5                     // of search, all runs together
//! }
//! ```

use crate::engine::{EngineError, EngineKind};
use crate::parallel::{self, Plan, Purpose, Stop, UnitResult};
use crate::plural;
use crate::problem::Problem;
use crate::stats::Stats;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// The `format` of a checkpoint.
pub const CHECKPOINT: &str = "dancer-checkpoint";
/// The `format` of a shard's result.
pub const SHARD: &str = "dancer-shard";

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
    pub solutions: u64,
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
}

impl Saved {
    /// Reads a record; what it is (checkpoint or shard) is for the caller
    /// to check with [`Saved::expect_format`].
    pub fn from_json(text: &str) -> Result<Saved, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The record as a JSON document (pretty, as it is saved).
    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec_pretty(self).expect("plain data serialises")
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

    /// Its counters.
    pub fn stats(&self) -> Stats {
        Stats {
            solutions: self.solutions,
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
    #[error("the checkpoint was made with --engine {theirs}, not {ours}")]
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
    #[error("the checkpoint's list of completed units is damaged")]
    Damaged,
    #[error("the checkpoint's depth {0} is not a depth dancer cuts at (1 to {max})", max = parallel::MAX_DEPTH)]
    Depth(usize),
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
        let engine = engine.resolve(problem)?;
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
            Some(s) => parallel::plan_at(problem, engine, s.depth)?,
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
    pub fn totals(&self, run: &Stats) -> Stats {
        let mut stats = Stats::default();
        if self.shard.is_none_or(|s| s.counts_top()) {
            stats.merge(&self.plan.top);
        }
        stats.merge(run);
        stats.merge(&self.resumed);
        stats
    }

    /// The checkpoint of this run as it starts, to be kept up to date with
    /// [`Checkpoint::record`] and saved about every `every`.
    pub fn checkpoint(&self, every: Duration) -> Checkpoint {
        Checkpoint {
            template: self.record(CHECKPOINT),
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
        s.solutions = totals.solutions;
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
            solutions: 0,
            nodes: 0,
            updates: 0,
            profile: Vec::new(),
            complete: false,
            stopped: None,
            seconds: self.resumed_seconds,
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
        s.solutions = self.stats.solutions;
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
    #[error("shard result without a shard count")]
    NoCount,
    #[error("shard result without a shard number")]
    NoNumber,
    /// Two files disagree on `what`: `first` (the first file named) has
    /// `first_value`, `other` has `other_value`; the message names both in
    /// that order.
    #[error("{first} and {other}: different {what} ({first_value} and {other_value})")]
    Different {
        first: String,
        other: String,
        what: &'static str,
        first_value: String,
        other_value: String,
    },
    #[error("{first} and {other}: different splits of the search")]
    Split { first: String, other: String },
    #[error("{file}: shard {k} of {n} is out of range")]
    OutOfRange { file: String, k: usize, n: usize },
    #[error("shard {k} of {n} appears twice: {a} and {b}")]
    Twice {
        k: usize,
        n: usize,
        a: String,
        b: String,
    },
    /// The shards missing (their numbers K, 1-based; the first
    /// [`MAX_LISTED`] of them).
    #[error("missing shards of {n}: {}", missing.iter().map(|k| k.to_string()).collect::<Vec<_>>().join(", "))]
    Missing { n: usize, missing: Vec<usize> },
}

/// At most this many missing shards are named.
pub const MAX_LISTED: usize = 1000;

/// The sum of a sharded search's parts.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// Counters of the whole search (`elapsed`: the parts' seconds added).
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
/// splits, duplicates and missing parts.
pub fn merge(parts: &[(String, Saved)]) -> Result<Merged, MergeError> {
    for (f, s) in parts {
        s.expect_format(SHARD)
            .map_err(|e| MergeError::Saved(f.clone(), e))?;
    }
    let Some((f0, first)) = parts.first() else {
        return Err(MergeError::NoCount);
    };
    let n = first.shards.ok_or(MergeError::NoCount)?;
    for (f, s) in parts {
        for (what, first_value, other_value) in [
            ("version", &first.version, &s.version),
            ("problem", &first.fingerprint, &s.fingerprint),
            ("engine", &first.engine, &s.engine),
        ] {
            if first_value != other_value {
                return Err(MergeError::Different {
                    first: f0.clone(),
                    other: f.clone(),
                    what,
                    first_value: first_value.clone(),
                    other_value: other_value.clone(),
                });
            }
        }
        if s.shards != Some(n) || s.depth != first.depth || s.units != first.units {
            return Err(MergeError::Split {
                first: f0.clone(),
                other: f.clone(),
            });
        }
    }
    let mut by_number: std::collections::BTreeMap<usize, &String> = Default::default();
    for (f, s) in parts {
        let k = s.shard.ok_or(MergeError::NoNumber)?;
        if k == 0 || k > n {
            return Err(MergeError::OutOfRange {
                file: f.clone(),
                k,
                n,
            });
        }
        if let Some(other) = by_number.insert(k, f) {
            return Err(MergeError::Twice {
                k,
                n,
                a: other.clone(),
                b: f.clone(),
            });
        }
    }
    let missing: Vec<usize> = (1..=n)
        .filter(|k| !by_number.contains_key(k))
        .take(MAX_LISTED)
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing { n, missing });
    }
    let mut stats = Stats::default();
    let mut seconds = 0.0;
    let mut incomplete = Vec::new();
    for (f, s) in parts {
        if !s.complete {
            incomplete.push((f.clone(), s.stopped));
        }
        stats.merge(&s.stats());
        seconds += s.seconds;
    }
    stats.elapsed = Duration::try_from_secs_f64(seconds).unwrap_or_default();
    Ok(Merged {
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
    use super::*;
    use crate::parallel::{run, Observer, RunConfig};
    use crate::{classic, EngineKind};

    struct Quiet;
    impl Observer for Quiet {
        fn unit(&self, _: &UnitResult) {}
    }

    /// Runs shard `spec` of queens 8 (or the whole search) and returns its
    /// result record.
    fn shard_of(spec: Option<ShardSpec>) -> (Split, Stats) {
        let p = classic::queens(8);
        let split = Split::new(
            &p,
            EngineKind::Dlx,
            SplitOptions {
                threads: 1,
                shard: spec,
                ..Default::default()
            },
        )
        .unwrap();
        let cfg = RunConfig {
            engine: split.engine,
            keep: false,
            ..Default::default()
        };
        let s = run(&p, &split.plan, &split.selected, &cfg, &Quiet).unwrap();
        let totals = split.totals(&s.stats);
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
        // missing, twice, of another problem, not a shard
        assert_eq!(
            merge(&parts[..2]),
            Err(MergeError::Missing {
                n: 3,
                missing: vec![3]
            })
        );
        let mut twice = parts.clone();
        twice[2] = parts[1].clone();
        assert!(matches!(merge(&twice), Err(MergeError::Twice { k: 2, .. })));
        let mut other = parts.clone();
        other[1].1.fingerprint = "0000000000000000".into();
        assert!(matches!(
            merge(&other),
            Err(MergeError::Different {
                what: "problem",
                ..
            })
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
    fn checkpoints_resume_exactly() {
        let p = classic::queens(8);
        let opts = SplitOptions {
            threads: 1,
            checkpoints: true,
            ..Default::default()
        };
        let split = Split::new(&p, EngineKind::Dlx, opts.clone()).unwrap();
        let mut cp = split.checkpoint(Duration::from_secs(3600));
        // search every other unit, as if stopped half way
        let half: Vec<usize> = split.selected.iter().copied().step_by(2).collect();
        struct Record<'a>(std::sync::Mutex<&'a mut Checkpoint>);
        impl Observer for Record<'_> {
            fn unit(&self, r: &UnitResult) {
                // not due within the hour
                assert!(!self.0.lock().unwrap().record(r));
            }
        }
        let cfg = RunConfig {
            engine: EngineKind::Dlx,
            keep: false,
            ..Default::default()
        };
        run(
            &p,
            &split.plan,
            &half,
            &cfg,
            &Record(std::sync::Mutex::new(&mut cp)),
        )
        .unwrap();
        let saved = cp.saved(false, None, 1.0);
        assert_eq!(saved.format, CHECKPOINT);
        // resumed: the other units, and the totals of the whole search
        let again = Split::new(
            &p,
            EngineKind::Dlx,
            SplitOptions {
                resume: Some(saved.clone()),
                ..opts.clone()
            },
        )
        .unwrap();
        assert_eq!(again.selected.len(), split.selected.len() - half.len());
        let s = run(&p, &again.plan, &again.selected, &cfg, &Quiet).unwrap();
        let totals = again.totals(&s.stats);
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
        let mut b = crate::ProblemBuilder::new();
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
        let ms = Split::new(&m, EngineKind::Auto, mopts.clone()).unwrap();
        assert_eq!(ms.engine, EngineKind::Dlxm);
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
        assert!(again.is_ok());
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
