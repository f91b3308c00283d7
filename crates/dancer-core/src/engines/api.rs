//! The leaf every engine stands on: the [`Engine`] trait, the events of a
//! search, the typed refusal of a problem ([`EngineError`]) and the
//! constants all engines share. It imports no engine.

use super::kind::EngineKind;
use crate::problem::OptionId;
use crate::stats::Stats;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The marker of a branch that chooses no more options (at a
/// multiplicity's position, "no more"): in the option stacks of `dlxm` and
/// `bitmrv`.
pub const STOP: OptionId = usize::MAX;

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
