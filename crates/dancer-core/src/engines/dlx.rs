//! The dancing-links engine: Knuth's Algorithm X, and Algorithm C for colours.
//!
//! # What it computes
//!
//! Given a [`Problem`], the engine visits every way of choosing options so
//! that each primary item is covered exactly once and each secondary item at
//! most once (or, for coloured entries, only by options that agree on its
//! colour). It branches on the primary item with the fewest remaining options,
//! the leftmost one on ties, which is the rule of Knuth's programs DLX1 and
//! DLX2. It follows them step for step, so on the same input it reports the
//! same solutions, in the same order, with the same `nodes` and `updates`:
//! a node for every option tried plus one per solution, an update for every
//! item covered and every option entry unlinked from an item's list. That
//! equality is tested against the figures his programs print.
//!
//! # The data structure
//!
//! The lists are those of `links.rs`, shared with the multiplicity
//! engine: flat arrays of `u32` indices, nodes that *are* the problem's
//! slots, up and down links together in 8 bytes, item rings for the
//! primary and the secondary items, an `off` table of option spans for
//! uncoloured problems of up to four million slots (larger problems go
//! without it, the *compact* layout, and walk the options as Knuth does),
//! and a mutable copy of the colours for coloured problems. On top of them
//! this engine keeps, per level, the option node chosen (`choice`), the
//! number of options of the item branched on (`degree`) and how many of
//! them have been tried (`index`), for the estimate of progress.
//!
//! # Invariants
//!
//! At every level of the search, for every item `c` that is not covered,
//! `c`'s vertical list holds exactly the options that are still compatible
//! with the choices made so far, `len[c]` is its length, and every node of
//! such an option is linked in (except nodes whose item has been purified,
//! which stay where they were). Covering and uncovering are exact inverses
//! when done in reverse order, which the explicit stack of choices
//! guarantees; this is the "dancing" that lets unlinked nodes remember where
//! they belong. The search stops with every list restored, so an engine can
//! be reused. [`Dlx::check_invariants`] (Knuth's `sanity()`) checks all of
//! this against the problem itself, independently of the lists; the tests
//! run it after every solution of small problems.
//!
//! # Why this way
//!
//! The time goes into unlinking and relinking: 1.2 billion updates for the
//! 6x10 pentomino problem. Those loops touch only `links`, the slot array,
//! `len` and `off`, and index with `u32`.
//!
//! * Knuth's walk through an option ("go right until the spacer, then jump
//!   to the option's first node") ends at a different place every time,
//!   since it starts at a different node every time, so the processor
//!   mispredicts the loop's exit about once per option hidden. With `off`
//!   the loop visits the whole option, a trip count that repeats, and makes
//!   the node it starts from harmless instead of skipping it: that node is
//!   linked into the list being walked, so "unlinking" it with its own
//!   address as both neighbours rewrites the values already there. On the
//!   pentomino problem this took the search from 6.2 s to 4.6 s. Relinking
//!   can run in the same order as unlinking, because within one option every
//!   node sits in a different list.
//! * Up and down links sit together in 8 bytes, items in a separate array:
//!   tried against 12- and 16-byte nodes holding the item too (as Knuth's
//!   do), this was faster, and it lets the engine read the items straight
//!   from the problem. 16-bit links for small problems were slower still.
//! * Colours are compiled in only for problems that have them: `search` is
//!   instantiated for (colours, `off`) and the unused tests vanish.
//! * The branching rule is Knuth's so that his published counts check us
//!   exactly; engines that change the tree to go faster live beside this one.
//!
//! Memory: 8 bytes of links per entry plus the problem's own 4 (and 2 for
//! `off` below the limit), 12 more per option (spacer slot and links). A
//! 10-million-entry problem peaks at about 15 bytes per entry in all.

use super::api::{DescendError, EngineError, Unsupported};
use super::control::{Control, Search, State, Step};
use super::kind::EngineKind;
use super::links::Lists;
use super::record::{Detail, Recorder, TraceStep};
use crate::problem::{OptionId, Problem, SPACER};
use crate::stats::{Estimate, Tally};

/// Problems with more slots than this do without the `off` array (two bytes
/// per slot) and walk options the way Knuth does: memory matters more there.
const OFF_LIMIT: usize = 1 << 22;

/// Where the search will continue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// About to enter `level` (at the start: `level == floor`); also where a
    /// cancelled search stopped.
    Forward,
    /// A leaf (a solution, or a node of the frontier) was just reported
    /// below `level`: continue with the next option at `level`.
    AfterLeaf,
}

/// The dancing-links engine over a borrowed [`Problem`].
pub struct Dlx<'p> {
    problem: &'p Problem,
    lists: Lists<'p>,
    colored: bool,
    /// Per level: the option node chosen there.
    choice: Vec<u32>,
    /// Per level: the number of options of the item chosen there, when it
    /// was chosen, and how many of them have been tried before the current
    /// one (for the estimate of progress).
    degree: Vec<u32>,
    index: Vec<u32>,
    level: usize,
    phase: Phase,
    ctl: Control,
    /// With tracing on: where the steps go (`trace.rs`).
    trace: Option<Box<Recorder>>,
}

impl<'p> Dlx<'p> {
    /// Builds the lists for `problem`. Options without primary items are left
    /// out, as Knuth's programs leave them out. Refuses problems with
    /// multiplicities, which are [`crate::engines::dlxm`]'s.
    pub fn new(problem: &'p Problem) -> Result<Self, EngineError> {
        Self::build(problem, problem.slots().len() <= OFF_LIMIT)
    }

    /// Like [`new`](Self::new), but always without the two-bytes-per-entry
    /// span table that speeds up uncoloured problems: the same search in
    /// less memory. `new` chooses this by itself for very large problems.
    pub fn new_compact(problem: &'p Problem) -> Result<Self, EngineError> {
        Self::build(problem, false)
    }

    fn build(problem: &'p Problem, fast: bool) -> Result<Self, EngineError> {
        if problem.has_multiplicities() {
            return Err(EngineError::Unsupported {
                engine: EngineKind::Dlx,
                reason: Unsupported::Multiplicities,
            });
        }
        let np = problem.n_primary();
        Ok(Dlx {
            problem,
            lists: Lists::new(problem, fast),
            colored: problem.has_colors(),
            choice: vec![0; np + 1],
            degree: vec![0; np + 1],
            index: vec![0; np + 1],
            level: 0,
            phase: Phase::Forward,
            ctl: Control::new(np + 2),
            trace: None,
        })
    }

    /// Turns the step trace on (with the detail asked for) or off: from the
    /// next step on, every step is recorded, to be taken with
    /// [`take_trace`](Self::take_trace). See [`crate::engines::trace`].
    pub fn set_trace(&mut self, detail: Option<Detail>) {
        self.trace = detail.map(|detail| {
            Box::new(Recorder {
                steps: Vec::new(),
                detail,
            })
        });
    }

    /// Moves the steps recorded since the last call to the end of `to`.
    pub fn take_trace(&mut self, to: &mut Vec<TraceStep>) {
        if let Some(r) = &mut self.trace {
            to.append(&mut r.steps);
        }
    }

    /// The problem this engine solves.
    pub fn problem(&self) -> &'p Problem {
        self.problem
    }

    /// The number of levels whose choice is applied to the lists now.
    fn applied(&self) -> usize {
        match (self.ctl.state, self.phase) {
            (State::Done, _) => self.ctl.floor,
            (_, Phase::AfterLeaf) => self.level + 1,
            _ => self.level,
        }
    }

    fn unwind<const C: bool, const F: bool>(&mut self) {
        for l in (0..self.applied()).rev() {
            let cur = self.choice[l];
            self.uncover_others::<C, F>(cur);
            let best = self.lists.slot(cur);
            self.lists.uncover::<C, F>(best);
        }
        self.level = 0;
        self.phase = Phase::Forward;
    }

    /// Chooses `o` at level `l` on the way down a prefix: it must be in the
    /// list of the item the search branches on. Not counted.
    fn follow_one(&mut self, l: usize, o: OptionId) -> Result<(), DescendError> {
        let bad = DescendError::NotChosenHere {
            level: l,
            option: o,
        };
        if o >= self.problem.n_options() {
            return Err(bad);
        }
        let best = self.choose();
        if best == self.lists.root {
            return Err(bad);
        }
        // the node of option o in best's list, if o is still there
        let node = self
            .problem
            .option_slots(o)
            .find(|&k| self.lists.slots[k] == best)
            .map(|k| k as u32);
        let h = self.lists.base + best;
        let mut idx = 0;
        let mut rr = self.lists.link(h).down;
        while rr != h && Some(rr) != node {
            idx += 1;
            rr = self.lists.link(rr).down;
        }
        let Some(node) = node.filter(|_| rr != h) else {
            return Err(bad);
        };
        self.degree[l] = self.lists.len_of(best);
        self.index[l] = idx;
        let mut scratch = 0u64;
        if self.colored {
            self.lists.cover::<true, false>(best, &mut scratch);
        } else {
            self.lists.cover::<false, false>(best, &mut scratch);
        }
        self.choice[l] = node;
        if self.colored {
            self.cover_others::<true, false>(node, &mut scratch);
        } else {
            self.cover_others::<false, false>(node, &mut scratch);
        }
        self.level = l + 1;
        Ok(())
    }

    /// Knuth's estimate of the size of the search tree: `probes` random
    /// paths from the root, each node weighted by the product of the
    /// branching degrees above it. Call on a fresh or reset engine; the
    /// engine is left as it was.
    pub fn estimate(&mut self, probes: usize, seed: u64) -> Estimate {
        if self.colored {
            self.estimate_impl::<true, false>(probes, seed)
        } else if !self.lists.off.is_empty() {
            self.estimate_impl::<false, true>(probes, seed)
        } else {
            self.estimate_impl::<false, false>(probes, seed)
        }
    }

    fn estimate_impl<const C: bool, const F: bool>(
        &mut self,
        probes: usize,
        seed: u64,
    ) -> Estimate {
        let mut next_rand = crate::stats::xorshift(seed);
        let mut t = Tally::default();
        let mut path: Vec<u32> = Vec::new();
        let root = self.lists.root;
        for _ in 0..probes.max(1) {
            let mut weight = 1.0f64;
            path.clear();
            loop {
                t.node(weight);
                if self.lists.next_of(root) == root {
                    break; // a solution
                }
                let best = self.choose();
                let d = self.lists.len_of(best);
                let mut u = 0u64;
                self.lists.cover::<C, F>(best, &mut u);
                t.updates(weight * u as f64);
                if d == 0 {
                    self.lists.uncover::<C, F>(best);
                    break;
                }
                let r = (next_rand() % d as u64) as usize;
                let mut x = self.lists.link(self.lists.base + best).down;
                for _ in 0..r {
                    x = self.lists.link(x).down;
                }
                let mut u = 0u64;
                self.cover_others::<C, F>(x, &mut u);
                // every branch of this node costs about as much as this one
                t.updates(weight * d as f64 * u as f64);
                path.push(x);
                weight *= d as f64;
            }
            t.end_probe();
            for &x in path.iter().rev() {
                self.uncover_others::<C, F>(x);
                let best = self.lists.slot(x);
                self.lists.uncover::<C, F>(best);
            }
            if t.small_tree() {
                break;
            }
        }
        t.finish()
    }

    /// Covers the items of option node `cur` other than the one it was
    /// chosen for, left to right cyclically.
    #[inline(always)]
    fn cover_others<const C: bool, const F: bool>(&mut self, cur: u32, updates: &mut u64) {
        let mut pp = cur + 1;
        while pp != cur {
            let x = self.lists.slot(pp);
            if x & SPACER != 0 {
                pp = self.lists.link(pp).up;
                continue;
            }
            self.lists.cover_entry::<C, F>(pp, x, updates);
            pp += 1;
        }
    }

    #[inline(always)]
    fn uncover_others<const C: bool, const F: bool>(&mut self, cur: u32) {
        let mut pp = cur - 1;
        while pp != cur {
            let x = self.lists.slot(pp);
            if x & SPACER != 0 {
                pp = self.lists.link(pp).down;
                continue;
            }
            self.lists.uncover_entry::<C, F>(pp, x);
            pp -= 1;
        }
    }

    /// [`uncover_others`](Self::uncover_others), recorded when `T`.
    #[inline(always)]
    fn uncover_others_t<const C: bool, const F: bool, const T: bool>(
        &mut self,
        cur: u32,
        level: usize,
    ) {
        if T && self.trace.is_some() {
            self.uncover_others_traced::<C, F>(cur, level)
        } else {
            self.uncover_others::<C, F>(cur)
        }
    }

    /// [`cover_others`](Self::cover_others), each item's covering recorded.
    fn cover_others_traced<const C: bool, const F: bool>(
        &mut self,
        cur: u32,
        level: usize,
        updates: &mut u64,
    ) {
        let Some(rec) = &mut self.trace else {
            return self.cover_others::<C, F>(cur, updates);
        };
        let mut pp = cur + 1;
        while pp != cur {
            let x = self.lists.slot(pp);
            if x & SPACER != 0 {
                pp = self.lists.link(pp).up;
                continue;
            }
            rec.cover_entry::<C, F>(&mut self.lists, self.problem, level, pp, x, updates);
            pp += 1;
        }
    }

    /// [`uncover_others`](Self::uncover_others), each item's uncovering
    /// recorded.
    fn uncover_others_traced<const C: bool, const F: bool>(&mut self, cur: u32, level: usize) {
        let Some(rec) = &mut self.trace else {
            return self.uncover_others::<C, F>(cur);
        };
        let mut pp = cur - 1;
        while pp != cur {
            let x = self.lists.slot(pp);
            if x & SPACER != 0 {
                pp = self.lists.link(pp).down;
                continue;
            }
            rec.uncover_entry::<C, F>(&mut self.lists, self.problem, level, pp, x);
            pp -= 1;
        }
    }

    /// The leftmost uncovered primary item with the fewest options.
    ///
    /// The list is always in item order (relinking puts items back where
    /// they were), so "leftmost" is "smallest number": the minimum of
    /// `len << 32 | item` picks it without a data-dependent branch.
    #[inline(always)]
    fn choose(&self) -> u32 {
        let root = self.lists.root;
        let mut key = u64::MAX;
        let mut k = self.lists.next_of(root);
        while k != root {
            let l = self.lists.len_of(k);
            key = key.min(((l as u64) << 32) | k as u64);
            if l == 0 {
                break;
            }
            k = self.lists.next_of(k);
        }
        key as u32
    }

    /// Runs the search until the next event.
    ///
    /// The loop is Knuth's, with his labels: *forward* enters a new level,
    /// *advance* tries the current option of a level, *backup* leaves a level
    /// whose options are exhausted, and *recover* undoes an option before
    /// trying the next one.
    fn search<const C: bool, const F: bool, const T: bool>(&mut self) -> Step {
        let mut level = self.level;
        let mut nodes = self.ctl.stats.nodes;
        let mut updates = self.ctl.stats.updates;
        let mut best: u32;
        let mut cur: u32;
        let root = self.lists.root;
        let base = self.lists.base;
        let floor = self.ctl.floor;
        let frontier = self.ctl.frontier;
        let pause_at = self.ctl.pause_at;
        let cancel = self.ctl.cancel.clone();
        let mut forward = self.phase == Phase::Forward;
        // After a leaf, `cur` is the option chosen at `level`.
        cur = self.choice[level];
        best = 0;
        if !forward {
            best = self.lists.slot(cur);
        }
        let step = 'outer: loop {
            if forward {
                // forward: enter level `level`.
                if level == frontier {
                    level -= 1;
                    self.phase = Phase::AfterLeaf;
                    break 'outer Step::Frontier;
                }
                if nodes >= pause_at {
                    self.phase = Phase::Forward;
                    break 'outer Step::Pause;
                }
                nodes += 1;
                self.ctl.stats.profile[level] += 1;
                if Control::cancelled(&cancel, nodes) {
                    nodes -= 1;
                    self.ctl.stats.profile[level] -= 1;
                    self.phase = Phase::Forward;
                    break 'outer Step::Cancelled;
                }
                best = self.choose();
                self.degree[level] = self.lists.len_of(best);
                self.index[level] = 0;
                if let (true, Some(rec)) = (T, &mut self.trace) {
                    rec.choose(&self.lists, level, best);
                    rec.cover::<C, F>(&mut self.lists, self.problem, level, best, &mut updates);
                } else {
                    self.lists.cover::<C, F>(best, &mut updates);
                }
                cur = self.lists.link(base + best).down;
            } else {
                // recover: undo option `cur` and move to the next one.
                self.uncover_others_t::<C, F, T>(cur, level);
                cur = self.lists.link(cur).down;
                self.index[level] += 1;
            }
            // advance
            loop {
                if cur == base + best {
                    // backup
                    if let (true, Some(rec)) = (T, &mut self.trace) {
                        rec.backtrack(level, best);
                        rec.uncover::<C, F>(&mut self.lists, self.problem, level, best);
                    } else {
                        self.lists.uncover::<C, F>(best);
                    }
                    if level == floor {
                        break 'outer Step::Done;
                    }
                    level -= 1;
                    cur = self.choice[level];
                    best = self.lists.slot(cur);
                    self.uncover_others_t::<C, F, T>(cur, level);
                    cur = self.lists.link(cur).down;
                    self.index[level] += 1;
                    continue;
                }
                self.choice[level] = cur;
                if let (true, Some(rec)) = (T, &mut self.trace) {
                    rec.tried(&self.lists, self.problem, level, cur, self.index[level]);
                    self.cover_others_traced::<C, F>(cur, level, &mut updates);
                } else {
                    self.cover_others::<C, F>(cur, &mut updates);
                }
                if self.lists.next_of(root) == root {
                    if let (true, Some(rec)) = (T, &mut self.trace) {
                        rec.solution(self.problem, level, &self.choice);
                    }
                    // A solution: Knuth counts it as a node one level down.
                    nodes += 1;
                    self.ctl.stats.profile[level + 1] += 1;
                    self.phase = Phase::AfterLeaf;
                    break 'outer Step::Solution;
                }
                level += 1;
                forward = true;
                continue 'outer;
            }
        };
        self.level = level;
        self.ctl.stats.nodes = nodes;
        self.ctl.stats.updates = updates;
        if matches!(step, Step::Solution | Step::Frontier) {
            let problem = self.problem;
            let path = (0..=level).map(|l| {
                (
                    problem.option_at_slot(self.choice[l] as usize),
                    self.degree[l],
                )
            });
            self.ctl.record(path);
        }
        step
    }

    /// Checks the lists against the problem and the choices made so far,
    /// as Knuth's `sanity()` does: the structure of every list (see
    /// `links.rs`), and that every item not covered holds exactly
    /// the options still compatible with the choices, worked out from the
    /// problem alone. Cheap enough for small problems only (it looks at
    /// every option); the tests call it after every solution.
    pub fn check_invariants(&self) -> Result<(), String> {
        self.lists.check()?;
        let p = self.problem;
        let chosen: Vec<OptionId> = (0..self.applied())
            .map(|l| p.option_at_slot(self.choice[l] as usize))
            .collect();
        let (covered, purified) = Lists::used_by(p, &chosen);
        let open: Vec<u32> = (0..p.n_primary() as u32)
            .filter(|&i| !covered[i as usize])
            .collect();
        self.lists.check_open(&open)?;
        self.lists
            .check_live(p, &covered, &purified, |o| chosen.contains(&o))
    }
}

impl Search for Dlx<'_> {
    crate::engines::control::control_in_ctl!();

    fn step(&mut self) -> Step {
        match (self.colored, self.trace.is_some()) {
            (true, false) => self.search::<true, false, false>(),
            (true, true) => self.search::<true, false, true>(),
            (false, true) => self.search::<false, false, true>(),
            (false, false) if !self.lists.off.is_empty() => self.search::<false, true, false>(),
            (false, false) => self.search::<false, false, false>(),
        }
    }

    fn rewind(&mut self) {
        if self.colored {
            self.unwind::<true, false>()
        } else {
            self.unwind::<false, false>()
        }
    }

    fn follow(&mut self, prefix: &[OptionId]) -> Result<bool, DescendError> {
        for (l, &o) in prefix.iter().enumerate() {
            if let Err(e) = self.follow_one(l, o) {
                self.level = l;
                self.phase = Phase::Forward;
                self.rewind();
                return Err(e);
            }
        }
        self.level = prefix.len();
        self.phase = Phase::Forward;
        // a prefix that is a whole solution leaves nothing below to search
        Ok(self.lists.next_of(self.lists.root) == self.lists.root)
    }

    fn position(&self) -> f64 {
        let lim = match self.phase {
            Phase::AfterLeaf => self.level + 1,
            Phase::Forward => self.level,
        };
        let mut f = 0.0;
        let mut w = 1.0;
        for l in self.ctl.floor..lim {
            w /= self.degree[l].max(1) as f64;
            f += self.index[l] as f64 * w;
        }
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::Engine;
    use crate::problem::from_test_text as dancer_problem;

    /// The checker passes on a sound engine and catches a damaged one.
    #[test]
    fn invariants_hold_and_the_check_can_fail() {
        let p = crate::classic::queens(6);
        let mut d = Dlx::new(&p).unwrap();
        d.check_invariants().unwrap();
        // an option hidden that no choice excludes: the lists are sound,
        // but they hold the wrong options
        let open = d.lists.open_primaries()[0];
        let node = d.lists.list(open)[0];
        let mut u = 0;
        d.lists.hide::<false, false>(node, &mut u);
        let err = d.check_invariants().unwrap_err();
        assert!(err.contains("holds nodes"), "{err}");
        d.lists.unhide::<false, false>(node);
        d.check_invariants().unwrap();
        // an item taken out of the ring without being covered
        d.lists.unlink_item(open);
        assert!(d.check_invariants().is_err());
        d.lists.relink_item(open);
        d.check_invariants().unwrap();
        // at a solution: a wrong length
        d.next_solution().unwrap();
        d.check_invariants().unwrap();
        d.lists.len[0] += 1;
        assert!(d.check_invariants().is_err());
        d.lists.len[0] -= 1;
        d.check_invariants().unwrap();
        // to the end: everything restored
        while d.next_solution().is_some() {}
        d.check_invariants().unwrap();
        assert_eq!(d.stats().solutions, 4);
    }

    /// With colours: purified nodes are remembered and restored.
    #[test]
    fn invariants_with_colours() {
        let text = "A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n";
        let p = dancer_problem(text);
        let mut d = Dlx::new(&p).unwrap();
        while d.next_solution().is_some() {
            d.check_invariants().unwrap();
        }
        d.check_invariants().unwrap();
        d.lists.color[2] = -1;
        assert!(d.check_invariants().is_err());
    }
}
