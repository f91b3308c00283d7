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
}

impl Unsupported {
    /// A short name of the reason, for tables of skips.
    pub fn name(self) -> &'static str {
        match self {
            Unsupported::Colors => "colours",
            Unsupported::Multiplicities => "multiplicities",
            Unsupported::TooManyItems { .. } => "too many items",
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
    }
}

/// The dancing-links engine for `problem`: `dlx` (Knuth's order, step for
/// step), or `dlxm` when the problem has multiplicities, which only it
/// takes. No estimate is made: what the library's shortcuts
/// ([`crate::count`], [`crate::first`], [`crate::all`],
/// [`crate::solutions`]) run, so that their answers come in Knuth's order,
/// at once.
pub fn links_engine(problem: &Problem) -> EngineKind {
    if problem.has_multiplicities() {
        EngineKind::Dlxm
    } else {
        EngineKind::Dlx
    }
}

/// Picks the engine likely to finish first, by problem shape: `dlxm` for
/// multiplicities, `dlx` for colours and for more than 512 items; otherwise
/// whichever of `dlx` and `bitset` Knuth's estimate (a few hundred random
/// paths through each engine's tree) says is cheaper, with costs per node
/// and per update measured on this project's benchmarks. Never returns
/// [`EngineKind::Auto`], and always an engine that takes the problem.
pub fn choose_engine(problem: &Problem) -> EngineKind {
    if problem.has_multiplicities() {
        return links_engine(problem);
    }
    let Ok((bn, bscan)) = crate::bitset::estimate(problem, 400, 0x9e3779b97f4a7c15) else {
        return EngineKind::Dlx;
    };
    let Ok(mut dlx) = crate::dlx::Dlx::new(problem) else {
        return EngineKind::Dlxm;
    };
    let (dn, du) = dlx.estimate(400, 0x9e3779b97f4a7c15);
    // nanoseconds: a DLX node ~20 plus ~3.6 per update; a bitset node ~25
    // plus ~1 per option scanned
    let dlx = dn * 20.0 + du * 3.6;
    let bit = bn * 25.0 + bscan * 1.0;
    if bit < dlx {
        EngineKind::Bitset
    } else {
        EngineKind::Dlx
    }
}

impl EngineKind {
    /// Every engine (not `Auto`), for tests that run a suite against all
    /// of them.
    pub const ALL: &'static [EngineKind] = &[EngineKind::Dlx, EngineKind::Dlxm, EngineKind::Bitset];

    /// Every name [`FromStr`] takes, `auto` first.
    pub const NAMES: &'static [&'static str] = &["auto", "dlx", "dlxm", "bitset"];

    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Auto => "auto",
            EngineKind::Dlx => "dlx",
            EngineKind::Dlxm => "dlxm",
            EngineKind::Bitset => "bitset",
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
#[error("unknown engine {0:?} (known: auto, dlx, dlxm, bitset)")]
pub struct UnknownEngine(pub String);

impl FromStr for EngineKind {
    type Err = UnknownEngine;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(EngineKind::Auto),
            "dlx" => Ok(EngineKind::Dlx),
            "dlxm" => Ok(EngineKind::Dlxm),
            "bitset" => Ok(EngineKind::Bitset),
            _ => Err(UnknownEngine(s.to_string())),
        }
    }
}
