//! The control layer that every engine shares.
//!
//! An engine is two things: a *search step*, its own loop over its own
//! data structure (cover, choose, uncover), which runs until something
//! happens; and everything around it, which is the same for every engine:
//! where to stop (a frontier depth, a node budget, a cancellation flag),
//! the statistics, the solution or frontier node just reached, whether the
//! search is over, and how to go back to the root or down to a given node.
//!
//! The second part lives here, once: [`Control`] holds that state, the
//! small [`Search`] trait is what an engine implements, and the one
//! implementation of [`Engine`] (for every `Search`) turns steps into
//! events. The search step checks the limits in its own loop (`dlx` and
//! `bitset` copy them, and their counters, into locals first), so the split
//! costs nothing in the hot loop; it writes back its counters and, at a
//! solution or a frontier node, the options chosen.
//!
//! # What a step promises
//!
//! * It is only called while the search is running (not after it ended,
//!   was cancelled, and not twice after `Done`).
//! * It counts nodes and updates in `control.stats` (Knuth's definitions,
//!   for the engine's own tree) and nodes per level in `stats.profile`;
//!   solutions are counted here, from the steps that report one.
//! * It returns [`Step::Pause`] when `stats.nodes` reaches `pause_at`,
//!   [`Step::Frontier`] on entering a node at depth `frontier`,
//!   [`Step::Cancelled`] when [`Control::cancelled`] says so, and fills
//!   `solution` and `degrees` (with [`Control::record`]) before reporting a
//!   solution or a frontier node.

use super::api::{DescendError, Engine, Event, CANCEL_INTERVAL};
use crate::problem::OptionId;
use crate::stats::Stats;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What one call of a search step ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A solution; its options are in `Control::solution`.
    Solution,
    /// A solution, and nothing is left to search (the node the search
    /// started from was a solution).
    LastSolution,
    /// A node at the frontier depth; the options leading to it are in
    /// `Control::solution`, the branching degrees in `Control::degrees`.
    Frontier,
    /// The node budget is used up.
    Pause,
    /// The whole (sub)tree has been explored.
    Done,
    /// The cancellation flag was seen.
    Cancelled,
}

/// Where the search as a whole stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    Running,
    Done,
    Cancelled,
}

/// The state every engine shares (see the module documentation).
pub(crate) struct Control {
    /// Report the nodes at this depth (options chosen) as frontier events
    /// instead of searching below them; `usize::MAX`: never.
    pub frontier: usize,
    /// Pause every this many nodes (`u64::MAX`: never), next when
    /// `stats.nodes` reaches `pause_at`.
    pub pause_every: u64,
    pub pause_at: u64,
    pub cancel: Option<Arc<AtomicBool>>,
    /// Levels below the floor are a prefix given to `descend`: the search
    /// covers the subtree below it and ends there.
    pub floor: usize,
    pub stats: Stats,
    /// Length of `stats.profile` (levels the search can reach, plus one).
    levels: usize,
    /// The options of the last solution or frontier node.
    pub solution: Vec<OptionId>,
    /// The branching degrees along the last frontier node's path.
    pub degrees: Vec<u32>,
    pub state: State,
    /// A step has run since the engine was built or reset.
    started: bool,
}

impl Control {
    /// For a search that can reach `levels - 1` levels.
    pub fn new(levels: usize) -> Self {
        Control {
            frontier: usize::MAX,
            pause_every: u64::MAX,
            pause_at: u64::MAX,
            cancel: None,
            floor: 0,
            stats: Stats::new(levels),
            levels,
            solution: Vec::new(),
            degrees: Vec::new(),
            state: State::Running,
            started: false,
        }
    }

    /// Whether the search is to stop, looked at once every
    /// [`CANCEL_INTERVAL`] nodes: `nodes` is the count so far.
    #[inline(always)]
    pub fn cancelled(cancel: &Option<Arc<AtomicBool>>, nodes: u64) -> bool {
        nodes % CANCEL_INTERVAL == 0 && cancel.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Sets the solution (or frontier path) just reached: its options and
    /// the branching degree at each level.
    #[inline]
    pub fn record(&mut self, path: impl Iterator<Item = (OptionId, u32)>) {
        self.solution.clear();
        self.degrees.clear();
        for (o, d) in path {
            self.solution.push(o);
            self.degrees.push(d);
        }
    }

    fn restart(&mut self) {
        self.state = State::Running;
        self.started = false;
        self.floor = 0;
        self.stats = Stats::new(self.levels);
        self.pause_at = self.pause_every;
    }
}

/// What an engine implements to get [`Engine`]: its search step and the
/// moves that only it knows how to make on its data structure.
/// The two accessors of [`Search`] for an engine that keeps its
/// [`Control`] in its field `ctl` (every engine does).
macro_rules! control_in_ctl {
    () => {
        fn control(&self) -> &crate::engines::control::Control {
            &self.ctl
        }
        fn control_mut(&mut self) -> &mut crate::engines::control::Control {
            &mut self.ctl
        }
    };
}
pub(crate) use control_in_ctl;

pub(crate) trait Search: Send {
    fn control(&self) -> &Control;
    fn control_mut(&mut self) -> &mut Control;
    /// Searches on until the next event (see the module documentation).
    fn step(&mut self) -> Step;
    /// Undoes every choice, those of a descended prefix too: the data
    /// structure is as it was built.
    fn rewind(&mut self);
    /// From the root, where nothing has been searched yet, chooses the
    /// options of `prefix` one per level as the search would. On an error
    /// the engine is back at the root. Returns true when the node reached
    /// has nothing below it to search (the search is then over at once).
    fn follow(&mut self, prefix: &[OptionId]) -> Result<bool, DescendError>;
    /// The estimated fraction of the (sub)tree explored, while running.
    fn position(&self) -> f64;
}

/// Runs one step and keeps the books.
#[inline]
fn advance<S: Search>(s: &mut S) -> Step {
    let c = s.control_mut();
    match c.state {
        State::Done => return Step::Done,
        State::Cancelled => return Step::Cancelled,
        State::Running => c.started = true,
    }
    let step = s.step();
    let c = s.control_mut();
    match step {
        Step::Solution => c.stats.solutions += 1,
        Step::LastSolution => {
            c.stats.solutions += 1;
            c.state = State::Done;
        }
        Step::Pause => c.pause_at = c.stats.nodes.saturating_add(c.pause_every),
        Step::Done => c.state = State::Done,
        Step::Cancelled => c.state = State::Cancelled,
        Step::Frontier => {}
    }
    step
}

impl<S: Search> Engine for S {
    fn next_solution(&mut self) -> Option<&[OptionId]> {
        loop {
            match advance(self) {
                Step::Solution | Step::LastSolution => return Some(&self.control().solution),
                Step::Done | Step::Cancelled => return None,
                Step::Frontier | Step::Pause => {}
            }
        }
    }

    fn next_event(&mut self) -> Option<Event<'_>> {
        match advance(self) {
            Step::Solution | Step::LastSolution => Some(Event::Solution(&self.control().solution)),
            Step::Frontier => {
                let c = self.control();
                Some(Event::Frontier(&c.solution, &c.degrees))
            }
            Step::Pause => Some(Event::Pause),
            Step::Done | Step::Cancelled => None,
        }
    }

    fn stats(&self) -> &Stats {
        &self.control().stats
    }

    fn is_complete(&self) -> bool {
        self.control().state == State::Done
    }

    fn is_cancelled(&self) -> bool {
        self.control().state == State::Cancelled
    }

    fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.control_mut().cancel = Some(flag);
    }

    fn set_frontier(&mut self, depth: Option<usize>) {
        self.control_mut().frontier = depth.unwrap_or(usize::MAX);
    }

    fn set_pause(&mut self, nodes: Option<u64>) {
        let c = self.control_mut();
        c.pause_every = nodes.unwrap_or(u64::MAX);
        c.pause_at = c.stats.nodes.saturating_add(c.pause_every);
    }

    fn reset(&mut self) {
        self.rewind();
        self.control_mut().restart();
    }

    fn descend(&mut self, prefix: &[OptionId]) -> Result<(), DescendError> {
        let c = self.control();
        if c.started || c.floor != 0 || c.state != State::Running {
            return Err(DescendError::NotAtRoot);
        }
        let exhausted = self.follow(prefix)?;
        let c = self.control_mut();
        c.floor = prefix.len();
        if exhausted {
            c.state = State::Done;
        }
        Ok(())
    }

    fn position(&self) -> f64 {
        match self.control().state {
            State::Done => 1.0,
            _ => Search::position(self).min(1.0),
        }
    }
}
