//! The engines behind one API: the [`Engine`] trait, the names of the
//! engines ([`EngineKind`]), the typed refusal of a problem an engine cannot
//! take ([`EngineError`]), and [`choose_engine`], the one place that decides
//! which engine `auto` means for a problem.
//!
//! | engine | module | takes | branches on |
//! |---|---|---|---|
//! | `dlx` | [`crate::dlx`] | everything but multiplicities | Knuth's rule: the leftmost item with the fewest options (his DLX1/DLX2, step for step) |
//! | `dlxm` | [`crate::dlxm`] | everything | the item with the fewest branches (multiplicities, his DLX3's input) |
//! | `bitset` | [`crate::bitset`] | no colours, no multiplicities, at most 512 items | the first uncovered item, in an order the engine works out |
//! | `bitmrv` | [`crate::bitmrv`] | everything up to 65,535 options an item and 256 MiB of tables | Knuth's rule on bitmaps of live options; ties to the item with the fewest options at the start (`Ties::Knuth`: DLX1's, same nodes and updates) |
//!
//! `auto` ([`choose_engine`]) weighs the engines that take a problem by
//! time, not by tree size: each tree is estimated with Knuth's random
//! probes ([`auto_costs`]), and each engine's cost per node, per word of
//! its masks, per update (constants fitted by the `calibrate` example)
//! turns the tree into nanoseconds; the cheapest wins, and two too close to
//! tell apart go to the bitset engine. Weighing costs time too, and `auto`
//! spends it only where it can pay: a small tree (a Sudoku's, nearly a
//! path) stops its probes once they have walked a quarter of it, the
//! linked engine's own tree is probed on a large tree only when what it
//! promises to save outweighs its probes, and the bitset engine is not
//! weighed when its set-up alone would take longer than the search
//! `bitmrv` promises. No engine is chosen on another engine's tree.
//!
//! Every engine implements [`Engine`] the same way: its own search step
//! (the loop that covers, uncovers and chooses) under one control layer
//! (`control.rs`: frontier, pauses, cancellation, statistics, the current
//! solution), so that splitting a search into units, checkpoints and
//! progress work alike on all of them.

use crate::problem::{OptionId, Problem};
use crate::stats::Stats;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// How often every engine looks at its cancellation flag: once every this
/// many nodes. A relaxed atomic load costs about a nanosecond and a node at
/// least ten, so looking more often would cost nothing measurable either;
/// 1024 nodes take well under a millisecond on every engine, which is how
/// quickly Ctrl-C is obeyed.
pub const CANCEL_INTERVAL: u64 = 1024;

/// What a search reports.
#[derive(Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// A solution: its options, in the order they were chosen.
    Solution(&'a [OptionId]),
    /// A node at the frontier depth (see [`Engine::set_frontier`]): the
    /// options chosen to reach it, and the number of branches the search
    /// had at each of those levels.
    Frontier(&'a [OptionId], &'a [u32]),
    /// The node budget set by [`Engine::set_pause`] is used up; call again
    /// to go on.
    Pause,
}

/// A prefix that the search would not produce.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DescendError {
    #[error("descend needs a fresh (or reset) engine")]
    NotAtRoot,
    #[error("option {option} cannot be chosen at level {level} of the search")]
    NotChosenHere { level: usize, option: OptionId },
}

/// What every engine offers: a resumable search that yields one event at a
/// time, and what it takes to split the search among threads, shards and
/// checkpoints.
pub trait Engine: Send {
    /// Searches on to the next solution; `None` when the tree is exhausted or
    /// the search was cancelled. Frontier and pause events are skipped.
    fn next_solution(&mut self) -> Option<&[OptionId]>;
    /// Searches on to the next event; `None` at the end.
    fn next_event(&mut self) -> Option<Event<'_>>;
    /// Counters so far.
    fn stats(&self) -> &Stats;
    /// Whether the whole tree (or subtree, after `descend`) has been explored.
    fn is_complete(&self) -> bool;
    /// Whether the search was stopped by the cancellation flag.
    fn is_cancelled(&self) -> bool;
    /// Installs a flag that stops the search when set from another thread;
    /// it is looked at every [`CANCEL_INTERVAL`] nodes.
    fn set_cancel(&mut self, flag: Arc<AtomicBool>);
    /// Stop descending at `depth` options and report those nodes as
    /// [`Event::Frontier`] (they are not counted as nodes).
    fn set_frontier(&mut self, depth: Option<usize>);
    /// Report [`Event::Pause`] about every `nodes` nodes.
    fn set_pause(&mut self, nodes: Option<u64>);
    /// Back to the root, every list restored, counters cleared.
    fn reset(&mut self);
    /// Go down to the node that `prefix` (a frontier event's options)
    /// leads to; the search then covers only the subtree below it. Call on
    /// a fresh or reset engine. Nodes and updates on the way down are not
    /// counted: they belong to whoever produced the prefix.
    fn descend(&mut self, prefix: &[OptionId]) -> Result<(), DescendError>;
    /// Estimated fraction of the (sub)tree explored, from the position in
    /// the tree (Knuth: each level's share is split evenly among its
    /// branches).
    fn position(&self) -> f64;
}

/// The engines there are, and `Auto`, which stands for the one
/// [`choose_engine`] picks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EngineKind {
    /// Whichever engine [`choose_engine`] picks for the problem.
    #[default]
    Auto,
    /// Dancing links, step for step with Knuth's DLX1/DLX2: [`crate::dlx`].
    Dlx,
    /// Dancing links with multiplicities (Knuth's DLX3 input):
    /// [`crate::dlxm`]. Takes every problem.
    Dlxm,
    /// Bit masks, first uncovered item: for packings of up to 512 items,
    /// [`crate::bitset`].
    Bitset,
    /// Bitmaps of options, Knuth's branching rule (the item with the
    /// fewest options): [`crate::bitmrv`]. Takes everything but very large
    /// problems.
    BitMrv,
}

/// Why an engine cannot take a problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unsupported {
    /// The problem has colours.
    Colors,
    /// Some primary item is to be covered other than exactly once.
    Multiplicities,
    /// More items than the engine takes.
    TooManyItems { items: usize, max: usize },
    /// An item with more options than the engine counts.
    TooManyOptions { options: usize, max: usize },
    /// Tables larger than the engine builds, in bytes.
    TooLarge { bytes: usize, max: usize },
}

impl Unsupported {
    /// A short name of the reason, for tables of skips.
    pub fn name(self) -> &'static str {
        match self {
            Unsupported::Colors => "colours",
            Unsupported::Multiplicities => "multiplicities",
            Unsupported::TooManyItems { .. } => "too many items",
            Unsupported::TooManyOptions { .. } => "too many options",
            Unsupported::TooLarge { .. } => "too large",
        }
    }
}

/// An engine that cannot take a problem, or a unit of a split search that
/// it could not reach.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// `engine` refuses the problem, for `reason`.
    #[error("{}", unsupported_message(*engine, *reason))]
    Unsupported {
        engine: EngineKind,
        reason: Unsupported,
    },
    #[error(transparent)]
    Descend(#[from] DescendError),
}

fn unsupported_message(engine: EngineKind, reason: Unsupported) -> String {
    match reason {
        Unsupported::Colors => format!("the {engine} engine does not support colours"),
        Unsupported::Multiplicities => {
            format!("the {engine} engine does not support multiplicities (dlxm does)")
        }
        Unsupported::TooManyItems { items, max } => {
            format!(
                "the {engine} engine takes at most {}, not {items}",
                crate::plural(max, "item", "items")
            )
        }
        Unsupported::TooManyOptions { options, max } => format!(
            "the {engine} engine takes items of at most {}, not {options}",
            crate::plural(max, "option", "options")
        ),
        Unsupported::TooLarge { bytes, max } => format!(
            "the {engine} engine builds tables of at most {} MiB, and this problem needs {} MiB",
            max >> 20,
            bytes.div_ceil(1 << 20)
        ),
    }
}

/// The dancing-links engine for `problem`: `dlx` (Knuth's order, step for
/// step), or `dlxm` when the problem has multiplicities, which only it
/// takes. No estimate is made: what the library's shortcuts
/// ([`crate::count`](fn@crate::count), [`crate::first`], [`crate::all`],
/// [`crate::solutions`]) run, so that their answers come in Knuth's order,
/// at once.
pub fn links_engine(problem: &Problem) -> EngineKind {
    if problem.has_multiplicities() {
        EngineKind::Dlxm
    } else {
        EngineKind::Dlx
    }
}

/// What `auto` knows of a problem's shape before it searches: the words
/// of the bitset engine's masks and of `bitmrv`'s bitmaps, and `bitmrv`'s
/// row of counts (0 for an engine that does not take the problem).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    pub bitset_words: f64,
    pub bitmrv_words: f64,
    pub bitmrv_counts: f64,
}

impl Shape {
    /// What each feature of [`features`](Self::features) is, in order.
    pub const FEATURES: &'static str =
        "per node, per node and word, per node and 16 counts, per update";

    pub fn of(problem: &Problem) -> Shape {
        let bitset_words = if crate::bitset::check(problem).is_ok() {
            problem.n_items().div_ceil(64).next_power_of_two() as f64
        } else {
            0.0
        };
        let (bitmrv_words, bitmrv_counts) = crate::bitmrv::shape(problem)
            .map_or((0.0, 0.0), |(w, npad)| (w as f64, npad as f64 / 16.0));
        Shape {
            bitset_words,
            bitmrv_words,
            bitmrv_counts,
        }
    }

    /// The quantities whose sum, weighted by the engine's constants, is its
    /// time: nodes; nodes times the words an engine goes over at each node
    /// (the bitset engine's masks, `bitmrv`'s bitmaps); nodes times
    /// `bitmrv`'s counts (in rows of 16); updates.
    pub fn features(&self, engine: EngineKind, nodes: f64, updates: f64) -> Vec<f64> {
        let (words, counts) = match engine {
            EngineKind::Bitset => (self.bitset_words, 0.0),
            EngineKind::BitMrv => (self.bitmrv_words, self.bitmrv_counts),
            _ => (0.0, 0.0),
        };
        vec![nodes, nodes * words, nodes * counts, updates]
    }

    /// The predicted time of `engine` on a tree of `nodes` and `updates`,
    /// in nanoseconds of this project's build machine.
    pub fn nanos(&self, engine: EngineKind, nodes: f64, updates: f64) -> f64 {
        let c: &[f64; 4] = match engine {
            EngineKind::Bitset => &COST_BITSET,
            EngineKind::BitMrv => &COST_BITMRV,
            _ => &COST_DLX,
        };
        self.features(engine, nodes, updates)
            .iter()
            .zip(c)
            .map(|(x, c)| x * c)
            .sum()
    }
}

/// Nanoseconds per node, per node and word, per node and 16 counts, and per
/// update of each engine (see [`Shape::features`]), fitted by
/// `cargo run --release -p dancer-core --example calibrate` on the problems
/// of the README's table of engines (least squares on relative errors; one
/// thread of this project's 2-core build machine). Only their ratios
/// matter.
const COST_BITSET: [f64; 4] = [11.0, 0.64, 0.0, 0.84];
const COST_BITMRV: [f64; 4] = [71.1, 2.42, 0.57, 0.62];
const COST_DLX: [f64; 4] = [83.1, 0.0, 0.0, 2.62];

/// The predicted nanoseconds of the bitset engine's set-up, mostly its
/// [`branching_order`](crate::bitset::branching_order): a table of the
/// options shared by each pair of primary items (2 ns a pair) filled from
/// each option's pairs (3 ns a pair; the pairs are about the entries
/// squared over the options). A 9x9 Sudoku's 324 items cost about a
/// quarter of a millisecond, as long as its search with `bitmrv`.
pub fn bitset_setup_nanos(problem: &Problem) -> f64 {
    let np = problem.n_primary() as f64;
    let entries = problem.n_entries() as f64;
    let options = problem.n_options().max(1) as f64;
    2.0 * np * np + 3.0 * entries * entries / options
}

/// One engine that `auto` considered: the tree it estimated (Knuth's
/// random probes) and the time it predicts from it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Costed {
    pub engine: EngineKind,
    /// The estimate of the engine's tree.
    pub tree: crate::Estimate,
    /// Predicted nanoseconds (see [`Shape::nanos`]).
    pub nanos: f64,
}

/// The seed of `auto`'s probes: the same choice on every run.
const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// Every engine `auto` weighs for `problem` with its predicted time; empty
/// when there is nothing to weigh (one engine only takes the problem).
///
/// Each engine's tree is estimated with Knuth's random probes: `bitmrv`'s
/// (whose estimate stands for `dlx` and `dlxm` too, the same rule with
/// other ties, as long as they look slower per node), the bitset engine's
/// (unless its set-up, [`bitset_setup_nanos`], twice, costs more than the
/// search `bitmrv` promises), and, when the linked engine looks twice as
/// fast on `bitmrv`'s tree (very long bitmaps), its own (on a large tree,
/// only if what it could save outweighs its probes). A small tree stops
/// its probes early (see [`crate::Estimate::probes`]). Probes are cheap but not free: 32 at
/// first, then four times as many while [`too_close`] cannot tell the two
/// best apart and the search looks at least 30 times longer than the next
/// round of probes would take (at most 2048 probes).
pub fn auto_costs(problem: &Problem) -> Vec<Costed> {
    let shape = Shape::of(problem);
    let mrv = crate::bitmrv::check(problem).is_ok();
    let bitset = crate::bitset::check(problem).is_ok();
    let linked = links_engine(problem);
    let costed = |engine, tree: crate::Estimate| Costed {
        engine,
        tree,
        nanos: shape.nanos(engine, tree.nodes, tree.updates),
    };
    let weigh = |probes: usize| -> Vec<Costed> {
        let mut out = Vec::new();
        if mrv {
            let mut m = crate::bitmrv::BitMrv::new(problem).expect("checked above");
            out.push(costed(EngineKind::BitMrv, m.estimate(probes, SEED)));
        }
        // the bitset engine, unless its set-up (its branching order), paid
        // once to estimate it and again to run it, would cost more than
        // the search already predicted: then it cannot win
        let best = out.iter().map(|c| c.nanos).fold(f64::INFINITY, f64::min);
        if bitset && 2.0 * bitset_setup_nanos(problem) < best {
            if let Ok(est) = crate::bitset::estimate(problem, probes, SEED) {
                out.push(costed(EngineKind::Bitset, est));
            }
        }
        // the linked engine, on bitmrv's tree first: its own tree is
        // estimated only if it could be the fastest
        let best = out.iter().map(|c| c.nanos).fold(f64::INFINITY, f64::min);
        let proxy = out
            .first()
            .filter(|c| c.engine == EngineKind::BitMrv)
            .map(|c| costed(linked, c.tree));
        // its own tree is probed (never trusted to bitmrv's: with Knuth's
        // ties a 16x16 Sudoku's tree can be thousands of times larger, and
        // a few probes can miss that) when it promises to be at least
        // twice as fast there, and, for a tree too large to stop its
        // probes early, only when what it could save is more than its
        // probes would cost (bitmrv's probe paths walked with the linked
        // engine's costs: a 16x16 Sudoku's probes took 2 ms to confirm a
        // gain of 1 ms). Of the twenty 16x16 Sudoku of the shared set,
        // `dlx` is at most a fifth faster than `bitmrv` on five, and 2 to
        // 50 times slower on eight.
        let small = out.first().is_some_and(|c| c.tree.probes < probes);
        let worth = |c: &Costed| {
            out.first().is_none_or(|m| {
                let per_node = m.tree.updates / m.tree.nodes.max(1.0);
                let probing = 2.0 * m.tree.walked as f64 * shape.nanos(linked, 1.0, per_node);
                best - c.nanos > probing
            })
        };
        if proxy.is_none_or(|c| 2.0 * c.nanos < best && (small || worth(&c))) {
            let own = match linked {
                EngineKind::Dlx => crate::dlx::Dlx::new(problem)
                    .ok()
                    .map(|mut d| d.estimate(probes, SEED)),
                _ => crate::bitmrv::BitMrv::with_ties(problem, crate::bitmrv::Ties::Knuth)
                    .ok()
                    .map(|mut m| m.estimate(probes, SEED)),
            };
            if let Some(est) = own {
                out.push(costed(linked, est));
            }
        }
        out
    };
    if !mrv && !bitset {
        // the linked engine alone takes it
        return Vec::new();
    }
    let mut probes = PROBES_FIRST;
    loop {
        let start = std::time::Instant::now();
        let costs = weigh(probes);
        // what this round took: the next one, with four times the probes,
        // takes about four times as long
        let spent = start.elapsed().as_secs_f64() * 1e9;
        let mut by_time = costs.clone();
        by_time.sort_by(|a, b| a.nanos.total_cmp(&b.nanos));
        let unsure = by_time.len() >= 2 && too_close(&by_time[0], &by_time[1]);
        if !unsure || probes >= PROBES_MAX || by_time[0].nanos < 30.0 * 4.0 * spent {
            return costs;
        }
        probes *= 4;
    }
}

/// `auto`'s probes of each engine's tree: a first round of this many
/// (fewer are not enough: Knuth's estimate has a long tail, and 8 probes
/// put the bitset engine's tree of Scott's pentomino problem at a
/// hundredth of its size, with an error that looked small)...
const PROBES_FIRST: usize = 32;
/// ... then four times as many a round, up to this many.
const PROBES_MAX: usize = 2048;

/// Whether the estimates cannot tell two engines apart: their predicted
/// times differ by less than twice the error of the estimates (relative
/// standard errors, added in quadrature, on a log scale).
pub fn too_close(a: &Costed, b: &Costed) -> bool {
    let (lo, hi) = if a.nanos <= b.nanos { (a, b) } else { (b, a) };
    let error = (lo.tree.error.powi(2) + hi.tree.error.powi(2)).sqrt();
    (hi.nanos / lo.nanos.max(1e-9)).ln() < 2.0 * error
}

/// Picks the engine likely to finish first: the cheapest of
/// [`auto_costs`] (`bitmrv` for multiplicities and colours unless its
/// tables would be too large, then `dlxm` or `dlx`), except that when the
/// estimates cannot tell the bitset engine from the cheapest
/// ([`too_close`]), the bitset engine: its nodes cost the least, and on the
/// close calls of the benchmark (packings with holes, whose estimates are
/// rough) it was the faster. Never returns [`EngineKind::Auto`], and always
/// an engine that takes the problem. The choice is the same on every run
/// (the probes have a fixed seed).
pub fn choose_engine(problem: &Problem) -> EngineKind {
    choose_from(problem, &auto_costs(problem))
}

/// [`choose_engine`]'s pick from costs already weighed ([`auto_costs`] of
/// the same problem), for a caller that weighed them for another reason
/// too (`memo::choose`).
pub fn choose_from(problem: &Problem, costs: &[Costed]) -> EngineKind {
    let Some(best) = costs.iter().min_by(|a, b| a.nanos.total_cmp(&b.nanos)) else {
        return links_engine(problem);
    };
    match costs.iter().find(|c| c.engine == EngineKind::Bitset) {
        Some(b) if too_close(b, best) => EngineKind::Bitset,
        _ => best.engine,
    }
}

impl EngineKind {
    /// Every engine (not `Auto`), for tests that run a suite against all
    /// of them.
    pub const ALL: &'static [EngineKind] = &[
        EngineKind::Dlx,
        EngineKind::Dlxm,
        EngineKind::Bitset,
        EngineKind::BitMrv,
    ];

    /// Every name [`FromStr`] takes, `auto` first.
    pub const NAMES: &'static [&'static str] = &["auto", "dlx", "dlxm", "bitset", "bitmrv"];

    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Auto => "auto",
            EngineKind::Dlx => "dlx",
            EngineKind::Dlxm => "dlxm",
            EngineKind::Bitset => "bitset",
            EngineKind::BitMrv => "bitmrv",
        }
    }

    /// Whether this engine takes `problem`, and if not, why. `Auto` takes
    /// everything.
    pub fn check(self, problem: &Problem) -> Result<(), EngineError> {
        let reason = match self {
            EngineKind::Auto | EngineKind::Dlxm => None,
            EngineKind::Dlx => problem
                .has_multiplicities()
                .then_some(Unsupported::Multiplicities),
            EngineKind::Bitset => crate::bitset::check(problem).err(),
            EngineKind::BitMrv => crate::bitmrv::check(problem).err(),
        };
        match reason {
            None => Ok(()),
            Some(reason) => Err(EngineError::Unsupported {
                engine: self,
                reason,
            }),
        }
    }

    /// Whether this engine takes `problem`.
    pub fn supports(self, problem: &Problem) -> bool {
        self.check(problem).is_ok()
    }

    /// The engine that runs for `problem`: `Auto` becomes
    /// [`choose_engine`]'s pick; any other engine is itself, if it takes
    /// the problem.
    pub fn resolve(self, problem: &Problem) -> Result<EngineKind, EngineError> {
        match self {
            EngineKind::Auto => Ok(choose_engine(problem)),
            e => e.check(problem).map(|()| e),
        }
    }

    /// Builds this engine (for `Auto`, the one [`resolve`](Self::resolve)
    /// gives) for `problem`.
    pub fn build<'p>(self, problem: &'p Problem) -> Result<Box<dyn Engine + 'p>, EngineError> {
        Ok(match self.resolve(problem)? {
            EngineKind::Dlx => Box::new(crate::dlx::Dlx::new(problem)?),
            EngineKind::Dlxm => Box::new(crate::dlxm::Dlxm::new(problem)),
            EngineKind::Bitset => crate::bitset::build(problem)?,
            EngineKind::BitMrv => crate::bitmrv::build(problem)?,
            EngineKind::Auto => unreachable!("resolved above"),
        })
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An engine name that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown engine {0:?} (known: auto, dlx, dlxm, bitset, bitmrv)")]
pub struct UnknownEngine(pub String);

impl FromStr for EngineKind {
    type Err = UnknownEngine;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(EngineKind::Auto),
            "dlx" => Ok(EngineKind::Dlx),
            "dlxm" => Ok(EngineKind::Dlxm),
            "bitset" => Ok(EngineKind::Bitset),
            "bitmrv" => Ok(EngineKind::BitMrv),
            _ => Err(UnknownEngine(s.to_string())),
        }
    }
}
