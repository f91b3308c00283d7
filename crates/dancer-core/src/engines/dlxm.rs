//! Dancing links with multiplicities: primary items covered between `lo`
//! and `hi` times (Knuth's DLX3 input, `lo:hi|name`), with secondary items
//! and colours as in [`crate::engines::dlx`].
//!
//! # The search
//!
//! Each primary item `i` has a counter `c[i]` of the chosen options that
//! contain it; it stays in the list of *active* items until it is covered
//! `hi` times or the search decides to use it no more. The search branches
//! on an active item and, one branch each, tries the options in its list
//! *in list order*, then (when `c[i]` has reached `lo`) the branch "no more
//! options for `i`". Before an option `x` is tried it is *tweaked*: taken out
//! of `i`'s list and hidden from every other list, so that neither this
//! branch (deeper down, when it branches on `i` again) nor the later
//! siblings can choose it again. Options are thus chosen for an item in
//! increasing order, and every set of options is visited once, whatever
//! order its items are branched in. (This is the idea of Knuth's Algorithm
//! M; the code is this crate's own.)
//!
//! When `c[i]` reaches `hi`, `i` is covered as in Algorithm X: removed from
//! the active list and every option still in its list hidden. A solution is
//! visited when no item is active. The item branched on is the one with the
//! fewest branches: `len - need + 1` when it still needs `need > 0` options
//! (only the first `len - need + 1` options can start a long enough
//! increasing run), `len + 1` when it needs none; leftmost on ties.
//!
//! The tweaked options of a level are kept on one stack shared by all
//! levels, so that they can be restored in the reverse order of their
//! removal, as dancing links require.
//!
//! # The data structure
//!
//! The lists are those of `links.rs`, shared with [`crate::engines::dlx`]
//! (without its `off` table: options are walked as Knuth does), and the
//! moves on them are the same code. On top of them: per primary item its
//! bounds `lo`, `hi` and its counter `count`; a stack of frames, one per
//! level (the item branched on, the option being tried or the "no more"
//! branch, the height of the tweak stack when the level was entered); and
//! the tweak stack.
//!
//! # Invariants
//!
//! Between events, for the options committed by the frames (one per frame
//! that is not on its "no more" branch):
//!
//! * `count[i]` is the number of committed options that contain primary
//!   item `i`, and `i` is in the ring of items to branch on exactly when
//!   `count[i] < hi[i]` and no frame has taken its "no more" branch on it;
//! * an item is covered (out of its ring, every option of its list hidden)
//!   when it is primary with `count == hi`, or secondary and used without a
//!   colour by a committed option; a secondary item used with a colour is
//!   purified to that colour;
//! * every item that is neither covered nor purified holds in its list
//!   exactly the options that are active, neither committed nor on the
//!   tweak stack, and compatible with the committed ones (no covered item,
//!   the purified colours), in input order, `len` long.
//!
//! [`Dlxm::check_invariants`] checks all of this against the problem
//! itself; the tests run it after every solution of small problems.

use super::api::DescendError;
use super::control::{Control, Search, Step};
use super::links::Lists;
use crate::problem::{OptionId, Problem, SPACER};

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Frame {
    item: u32,
    /// Number of branches at this level when it was entered, and how many
    /// have been started (for the estimate of progress).
    theta: u32,
    tried: u32,
    /// Height of the tweak stack when the level was entered.
    mark: u32,
    /// The option being tried (tweaked and committed), or NONE.
    x: u32,
    /// The "no more options" branch is being explored.
    stopped: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// About to enter a level (also where a cancelled search stopped).
    Forward,
    /// A leaf was reported (or a dead end met): return into the top frame.
    Back,
}

/// In a frontier prefix of this engine, the branch "no more options for
/// the item" (multiplicities): [`STOP`], the leaf's.
pub use super::api::STOP;

/// The engine for problems with multiplicities (it also solves plain ones).
pub struct Dlxm<'p> {
    problem: &'p Problem,
    lists: Lists<'p>,
    lo: Vec<u32>,
    hi: Vec<u32>,
    count: Vec<u32>,
    colored: bool,
    frames: Vec<Frame>,
    tweaked: Vec<u32>,
    phase: Phase,
    /// Scratch: the nodes of one option.
    nodes: Vec<u32>,
    ctl: Control,
}

impl<'p> Dlxm<'p> {
    /// Builds the lists for `problem`; takes every problem.
    pub fn new(problem: &'p Problem) -> Self {
        let np = problem.n_primary();
        let (lo, hi): (Vec<u32>, Vec<u32>) = (0..np).map(|i| problem.bounds(i)).unzip();
        // Each level commits a different option or closes an item, so the
        // depth is bounded by both; the bounds alone may be huge.
        let active = (0..problem.n_options())
            .filter(|&k| problem.is_active(k))
            .count();
        let commits: usize = hi
            .iter()
            .map(|&h| h as usize)
            .fold(0usize, usize::saturating_add)
            .min(active);
        let depth = commits + np + 1;
        Dlxm {
            problem,
            lists: Lists::new(problem, false),
            lo,
            hi,
            count: vec![0; np],
            colored: problem.has_colors(),
            frames: Vec::with_capacity(depth),
            tweaked: Vec::new(),
            phase: Phase::Forward,
            nodes: Vec::new(),
            ctl: Control::new(depth + 1),
        }
    }

    fn n_primary(&self) -> u32 {
        self.count.len() as u32
    }

    /// The nodes of option `x`, starting with `x` itself, cyclically, into
    /// `self.nodes`.
    fn option_nodes(&mut self, x: u32) {
        self.nodes.clear();
        self.nodes.push(x);
        let mut p = x + 1;
        while p != x {
            if self.lists.slot(p) & SPACER != 0 {
                p = self.lists.link(p).up;
                continue;
            }
            self.nodes.push(p);
            p += 1;
        }
    }

    /// Counts option `x` (already tweaked) for each of its items.
    fn commit<const C: bool>(&mut self, x: u32) {
        self.option_nodes(x);
        for k in 0..self.nodes.len() {
            let p = self.nodes[k];
            let j = self.lists.slot(p);
            if j < self.n_primary() {
                self.count[j as usize] += 1;
                if self.count[j as usize] == self.hi[j as usize] {
                    self.lists.cover::<C, false>(j, &mut self.ctl.stats.updates);
                }
            } else {
                self.lists
                    .cover_entry::<C, false>(p, j, &mut self.ctl.stats.updates);
            }
        }
    }

    fn uncommit<const C: bool>(&mut self, x: u32) {
        self.option_nodes(x);
        for k in (0..self.nodes.len()).rev() {
            let p = self.nodes[k];
            let j = self.lists.slot(p);
            if j < self.n_primary() {
                if self.count[j as usize] == self.hi[j as usize] {
                    self.lists.uncover::<C, false>(j);
                }
                self.count[j as usize] -= 1;
            } else {
                self.lists.uncover_entry::<C, false>(p, j);
            }
        }
    }

    /// The active item with the fewest branches, and that number.
    fn choose(&self) -> (u32, u32) {
        let root = self.lists.root;
        let mut best = root;
        let mut t = u32::MAX;
        let mut k = self.lists.next_of(root);
        while k != root {
            let need = self.lo[k as usize].saturating_sub(self.count[k as usize]);
            let len = self.lists.len_of(k);
            let theta = if need > 0 {
                if len >= need {
                    len - need + 1
                } else {
                    0
                }
            } else {
                len + 1
            };
            if theta < t {
                t = theta;
                best = k;
                if t == 0 {
                    break;
                }
            }
            k = self.lists.next_of(k);
        }
        (best, t)
    }

    /// Tries the next branch of the top frame: the front option of its
    /// item's list, or "no more options". Returns false when the frame has
    /// no branch left.
    fn next_branch<const C: bool>(&mut self) -> bool {
        let f = *self.frames.last().expect("a frame");
        let i = f.item;
        let head = self.lists.base + i;
        let x = self.lists.link(head).down;
        let need = self.lo[i as usize].saturating_sub(self.count[i as usize]);
        if !f.stopped && x != head && self.lists.len_of(i) >= need.max(1) {
            self.tweak::<C>(i, x);
            let top = self.frames.last_mut().expect("a frame");
            top.x = x;
            top.tried += 1;
            self.commit::<C>(x);
            return true;
        }
        if !f.stopped && need == 0 {
            self.lists.unlink_item(i);
            let top = self.frames.last_mut().expect("a frame");
            top.stopped = true;
            top.tried += 1;
            return true;
        }
        false
    }

    /// Takes option `x` (the front of item `i`'s list) out of the list and
    /// hides it everywhere else.
    fn tweak<const C: bool>(&mut self, i: u32, x: u32) {
        let head = self.lists.base + i;
        self.lists.hide::<C, false>(x, &mut self.ctl.stats.updates);
        let d = self.lists.link(x).down;
        self.lists.set_down(head, d);
        self.lists.set_up(d, head);
        *self.lists.len_mut(i) -= 1;
        self.tweaked.push(x);
    }

    /// Leaves the top frame: restores what its branches took away.
    fn pop_frame<const C: bool>(&mut self) {
        let f = self.frames.pop().expect("a frame");
        let i = f.item;
        let head = self.lists.base + i;
        if f.x != NONE {
            self.uncommit::<C>(f.x);
        }
        if f.stopped {
            self.lists.relink_item(i);
        }
        while self.tweaked.len() as u32 > f.mark {
            let x = self.tweaked.pop().expect("above the mark");
            let d = self.lists.link(x).down;
            self.lists.set_down(head, x);
            self.lists.set_up(d, x);
            *self.lists.len_mut(i) += 1;
            self.lists.unhide::<C, false>(x);
        }
    }

    /// The options of the frames (and [`STOP`] for "no more" branches),
    /// with their branching degrees.
    fn record(&mut self) {
        let problem = self.problem;
        let path = self.frames.iter().map(|f| {
            let o = if f.x != NONE {
                problem.option_at_slot(f.x as usize)
            } else {
                STOP
            };
            (o, f.theta)
        });
        self.ctl.record(path);
    }

    fn push_frame(&mut self, item: u32, theta: u32) {
        self.frames.push(Frame {
            item,
            theta,
            tried: 0,
            mark: self.tweaked.len() as u32,
            x: NONE,
            stopped: false,
        });
    }

    fn search<const C: bool>(&mut self) -> Step {
        let mut forward = self.phase == Phase::Forward;
        let root = self.lists.root;
        loop {
            if forward {
                let depth = self.frames.len();
                if depth == self.ctl.frontier {
                    self.record();
                    self.phase = Phase::Back;
                    return Step::Frontier;
                }
                if self.ctl.stats.nodes >= self.ctl.pause_at {
                    self.phase = Phase::Forward;
                    return Step::Pause;
                }
                self.ctl.stats.nodes += 1;
                self.ctl.stats.profile[depth] += 1;
                if Control::cancelled(&self.ctl.cancel, self.ctl.stats.nodes) {
                    self.ctl.stats.nodes -= 1;
                    self.ctl.stats.profile[depth] -= 1;
                    self.phase = Phase::Forward;
                    return Step::Cancelled;
                }
                if self.lists.next_of(root) == root {
                    self.record();
                    self.ctl.solution.retain(|&o| o != STOP);
                    self.phase = Phase::Back;
                    return Step::Solution;
                }
                let (i, theta) = self.choose();
                if theta > 0 {
                    self.push_frame(i, theta);
                    if self.next_branch::<C>() {
                        continue;
                    }
                    self.pop_frame::<C>();
                }
                // a dead end: back into the parent
            }
            // back into the top frame from its child: undo its branch, try the next
            loop {
                if self.frames.len() <= self.ctl.floor {
                    return Step::Done;
                }
                let top = self.frames.last_mut().expect("above the floor");
                let x = top.x;
                if x != NONE {
                    top.x = NONE;
                    self.uncommit::<C>(x);
                }
                if self.next_branch::<C>() {
                    break;
                }
                self.pop_frame::<C>();
            }
            forward = true;
        }
    }

    fn unwind(&mut self) {
        while !self.frames.is_empty() {
            if self.colored {
                self.pop_frame::<true>();
            } else {
                self.pop_frame::<false>();
            }
        }
        self.phase = Phase::Forward;
    }

    /// Follows `prefix` (frontier options, [`STOP`] for "no more options")
    /// from the root, as the search would.
    fn follow_prefix<const C: bool>(&mut self, prefix: &[OptionId]) -> Result<(), DescendError> {
        for (l, &o) in prefix.iter().enumerate() {
            let bad = DescendError::NotChosenHere {
                level: l,
                option: o,
            };
            let (i, theta) = self.choose();
            if theta == 0 || i == self.lists.root {
                return Err(bad);
            }
            self.push_frame(i, theta);
            let head = self.lists.base + i;
            // skip (tweak) the branches before o, then take o
            let mut ok = false;
            loop {
                let x = self.lists.link(head).down;
                let want = if o == STOP {
                    x == head
                } else {
                    x != head
                        && o < self.problem.n_options()
                        && self.problem.option_at_slot(x as usize) == o
                };
                if want {
                    let took = self.next_branch::<C>();
                    let top = self.frames.last().expect("pushed");
                    ok = took && if o == STOP { top.stopped } else { top.x == x };
                    break;
                }
                if x == head {
                    break;
                }
                // the search would have tried x first: skip it the same way
                self.tweak::<C>(i, x);
                self.frames.last_mut().expect("pushed").tried += 1;
            }
            if !ok {
                return Err(bad);
            }
        }
        Ok(())
    }

    /// Checks the lists, the counters and the ring of items against the
    /// problem and the committed options, as the invariants above say (and
    /// as Knuth's `sanity()` does). Looks at every option: for small
    /// problems, in tests.
    pub fn check_invariants(&self) -> Result<(), String> {
        self.lists.check()?;
        let p = self.problem;
        let np = p.n_primary();
        let committed: Vec<OptionId> = self
            .frames
            .iter()
            .filter(|f| f.x != NONE)
            .map(|f| p.option_at_slot(f.x as usize))
            .collect();
        let tweaked: Vec<OptionId> = self
            .tweaked
            .iter()
            .map(|&x| p.option_at_slot(x as usize))
            .collect();
        let (mut covered, purified) = Lists::used_by(p, &committed);
        let mut count = vec![0u32; np];
        for &o in &committed {
            for i in p.option(o).items().filter(|&i| i < np) {
                count[i] += 1;
            }
        }
        if count != self.count {
            return Err(format!("counts {:?}, not {count:?}", self.count));
        }
        // a primary item is covered when its count reaches its most
        for i in 0..np {
            covered[i] = count[i] == self.hi[i];
        }
        let stopped: Vec<u32> = self
            .frames
            .iter()
            .filter(|f| f.stopped)
            .map(|f| f.item)
            .collect();
        let open: Vec<u32> = (0..np as u32)
            .filter(|&i| !covered[i as usize] && !stopped.contains(&i))
            .collect();
        self.lists.check_open(&open)?;
        self.lists.check_live(p, &covered, &purified, |o| {
            committed.contains(&o) || tweaked.contains(&o)
        })
    }
}

impl Search for Dlxm<'_> {
    crate::engines::control::control_in_ctl!();

    fn step(&mut self) -> Step {
        if self.colored {
            self.search::<true>()
        } else {
            self.search::<false>()
        }
    }

    fn rewind(&mut self) {
        self.unwind();
    }

    fn follow(&mut self, prefix: &[OptionId]) -> Result<bool, DescendError> {
        let r = if self.colored {
            self.follow_prefix::<true>(prefix)
        } else {
            self.follow_prefix::<false>(prefix)
        };
        if let Err(e) = r {
            self.unwind();
            // nothing of the way down is counted, on either path
            self.ctl.stats.updates = 0;
            return Err(e);
        }
        // the way down was counted by whoever produced the prefix
        self.ctl.stats.updates = 0;
        Ok(false)
    }

    fn position(&self) -> f64 {
        let mut f = 0.0;
        let mut w = 1.0;
        for fr in &self.frames[self.ctl.floor.min(self.frames.len())..] {
            w /= fr.theta.max(1) as f64;
            f += fr.tried.saturating_sub(1) as f64 * w;
        }
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::Engine;

    /// The checker passes along a search with multiplicities and catches a
    /// damaged engine.
    #[test]
    fn invariants_hold_and_the_check_can_fail() {
        // a 2x4 board of dominoes, every domino also covering `d`, 4 times
        let mut b = crate::ProblemBuilder::new();
        b.primary_bounded("d", 4, 4).unwrap();
        for r in 0..2 {
            for c in 0..4 {
                b.primary(&format!("{r}{c}")).unwrap();
            }
        }
        for c in 0..4 {
            b.option(["d".to_string(), format!("0{c}"), format!("1{c}")])
                .unwrap();
            if c < 3 {
                for r in 0..2 {
                    b.option(["d".to_string(), format!("{r}{c}"), format!("{r}{}", c + 1)])
                        .unwrap();
                }
            }
        }
        let p = b.build().unwrap();
        let mut e = Dlxm::new(&p);
        e.check_invariants().unwrap();
        let mut n = 0;
        while e.next_solution().is_some() {
            e.check_invariants().unwrap();
            n += 1;
        }
        assert_eq!(n, 5);
        e.check_invariants().unwrap();
        e.count[0] += 1;
        assert!(e.check_invariants().is_err());
        e.count[0] -= 1;
        e.lists.len[1] += 1;
        assert!(e.check_invariants().is_err());
        e.lists.len[1] -= 1;
        let node = e.lists.list(1)[0];
        let mut u = 0;
        e.lists.hide::<false, false>(node, &mut u);
        assert!(e.check_invariants().is_err());
    }
}
