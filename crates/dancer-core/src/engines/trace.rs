//! # A search, step by step
//!
//! For people learning the algorithm: the dancing-links engine ([`Dlx`])
//! can report every step it takes, as it takes it, in the words of Knuth's
//! lectures: *choose* the item to branch on (the leftmost of those with the
//! fewest options), *cover* it (take it out of the ring of items) and
//! *hide* each of its options (unlink the option's other nodes from their
//! items' lists), *try* option k of n, report a *solution*, *backtrack*
//! when an item's options are all tried, and *unhide* and *uncover* on the
//! way back, in exactly the reverse order. With colours, covering a
//! secondary item through a coloured entry is a *purify* (hide the options
//! that give it another colour) and its inverse an *unpurify*.
//!
//! The steps come from the engine itself: its search loop (`dlx.rs`) is
//! compiled a second time with tracing on (a constant generic parameter, so
//! the untraced search is the same machine code as before), and the
//! covering walks below call the very moves of `links.rs` that the search
//! makes, recording between them. So the trace cannot disagree with the
//! search: the options tried are the engine's nodes (every node but the
//! root is one option tried), and the updates are its updates.
//!
//! Each record that changes links carries the *links* of the nodes it
//! touched, after the step: the four pointers (left, right, up, down) of
//! the nodes unlinked and of their neighbours. An unlinked node keeps its
//! own pointers while its neighbours skip it, which is what lets the
//! inverse step put it back. Node numbers are those of `links.rs`: the
//! option nodes are the problem's slots (spacers between options), the
//! head of item `i` is node `heads + i`, and the ring of primary items has
//! its root at `heads + items` (that of the secondary items at
//! `heads + items + 1`). An option's nodes sit side by side, so their
//! left and right are fixed (cyclic within the option): only up and down
//! dance, as in Knuth's DLX1; an item's head dances left and right.
//!
//! [`trace`] runs a problem traced, handing each step to the caller, up to
//! a number of steps; [`Detail::Moves`] leaves out the covering, hiding and
//! their inverses (what a picture of pieces on a board needs).
//!
//! [`Dlx`]: crate::engines::dlx::Dlx

use super::api::{Engine, EngineError, Event};
use super::dlx::Dlx;
pub use super::record::{Action, Detail, NodeLinks, TraceStep};
use crate::problem::Problem;
use crate::stats::Stats;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What a traced run asks for.
#[derive(Clone, Debug, Default)]
pub struct TraceOptions {
    pub detail: Detail,
    /// The most steps reported; the search stops at the step after.
    pub limit: Option<u64>,
    /// Stops the search from outside (a signal).
    pub cancel: Option<Arc<AtomicBool>>,
}

/// Why a traced run ended before the end of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceStop {
    /// The limit of steps was reached.
    Limit,
    /// The cancellation flag was set.
    Cancelled,
    /// The caller's function answered `false`.
    Caller,
}

/// How a traced run ended.
#[derive(Clone, Debug)]
pub struct Traced {
    /// The steps reported.
    pub steps: u64,
    /// The solutions reported.
    pub solutions: u64,
    /// The statistics of the search: the engine's, or for a trace cut at
    /// its limit or by the caller those of the steps reported (nodes,
    /// profile, solutions; updates with [`Detail::Full`], else the
    /// engine's, which may have gone on to the end of the node).
    pub stats: Stats,
    /// `None`: the whole tree was searched.
    pub stopped: Option<TraceStop>,
    /// Where a run cut at its limit or by the caller stopped: the nodes
    /// its reported steps entered (the root and one per option tried), and
    /// the level of the last step reported.
    pub at: Option<(u64, usize)>,
}

/// The counters of the steps reported: the root and one node per option
/// tried (by level), the solutions, and with the full detail the updates
/// (an item covered, and a node unlinked by a hide).
struct Counted {
    stats: Stats,
    level: usize,
}

impl Default for Counted {
    fn default() -> Self {
        Counted {
            stats: Stats {
                solutions: 0,
                nodes: 1,
                updates: 0,
                profile: vec![1],
                elapsed: Default::default(),
            },
            level: 0,
        }
    }
}

impl Counted {
    fn add(&mut self, s: &TraceStep) {
        self.level = s.level;
        let st = &mut self.stats;
        match &s.action {
            Action::Try { .. } => {
                st.nodes += 1;
                if st.profile.len() < s.level + 2 {
                    st.profile.resize(s.level + 2, 0);
                }
                st.profile[s.level + 1] += 1;
            }
            Action::Solution { .. } => st.solutions += 1,
            Action::Cover { .. } => st.updates += 1,
            // a node unlinked and its two neighbours
            Action::Hide { links, .. } => st.updates += links.len() as u64 / 3,
            _ => {}
        }
    }
}

/// Runs the dancing-links engine on `problem` with tracing on, handing each
/// step to `step` as it is taken (`false` stops the run). Stops after
/// `options.limit` steps. The engine refuses what it refuses (multiplicities).
pub fn trace<F>(
    problem: &Problem,
    options: &TraceOptions,
    mut step: F,
) -> Result<Traced, EngineError>
where
    F: FnMut(&TraceStep) -> bool,
{
    let mut dlx = Dlx::new(problem)?;
    dlx.set_trace(Some(options.detail));
    if let Some(c) = &options.cancel {
        dlx.set_cancel(c.clone());
    }
    // a pause at every node hands over its steps: the buffer stays small
    dlx.set_pause(Some(1));
    let limit = options.limit.unwrap_or(u64::MAX);
    let mut done = 0u64;
    let mut stopped = None;
    let mut at = None;
    // the counters of the steps reported, for a trace cut before the end
    // (the engine may have gone on to the end of the node)
    let mut counted = Counted::default();
    let mut buf = Vec::new();
    loop {
        let event = dlx.next_event().map(|e| matches!(e, Event::Solution(_)));
        dlx.take_trace(&mut buf);
        for s in &buf {
            if done == limit {
                stopped = Some(TraceStop::Limit);
                break;
            }
            // a step handed over is reported, even if the caller stops
            // after it (at a solution asked for, say)
            let go = step(s);
            done += 1;
            counted.add(s);
            if !go {
                stopped = Some(TraceStop::Caller);
                break;
            }
        }
        buf.clear();
        if stopped.is_some() || event.is_none() {
            break;
        }
        // the engine looks at the flag every few thousand nodes; a trace
        // pauses at every node, and looks at every pause
        let flag = options.cancel.as_deref();
        if flag.is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed)) {
            stopped = Some(TraceStop::Cancelled);
            break;
        }
    }
    if stopped.is_none() && dlx.is_cancelled() {
        stopped = Some(TraceStop::Cancelled);
    }
    let mut stats = dlx.stats().clone();
    let solutions = counted.stats.solutions;
    if matches!(stopped, Some(TraceStop::Limit | TraceStop::Caller)) {
        at = Some((counted.stats.nodes, counted.level));
        let updates = match options.detail {
            Detail::Full => counted.stats.updates,
            // not told by the moves: the engine's own
            Detail::Moves => stats.updates,
        };
        stats = Stats {
            updates,
            elapsed: stats.elapsed,
            ..counted.stats
        };
    }
    Ok(Traced {
        steps: done,
        solutions,
        stats,
        stopped,
        at,
    })
}
