//! Dancing links with multiplicities: primary items covered between `lo`
//! and `hi` times (Knuth's DLX3 input, `lo:hi|name`), with secondary items
//! and colours as in [`crate::dlx`].
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

use crate::problem::{OptionId, Problem, SPACER};
use crate::solve::{DescendError, Engine, Event, Step};
use crate::stats::Stats;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

const NONE: u32 = u32::MAX;
const CANCEL_MASK: u64 = 0x3FF;

#[derive(Clone, Copy, Debug, Default)]
struct Link {
    up: u32,
    down: u32,
}

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
    /// About to enter a level.
    Forward,
    /// A leaf was reported (or a dead end met): return into the top frame.
    Back,
    Done,
    Cancelled,
}

/// In a frontier prefix of this engine, the branch "no more options for
/// the item" (multiplicities).
pub const STOP: OptionId = usize::MAX;

/// The engine for problems with multiplicities (it also solves plain ones).
pub struct Dlxm<'p> {
    slots: &'p [u32],
    base: u32,
    n_primary: u32,
    links: Vec<Link>,
    len: Vec<u32>,
    prev: Vec<u32>,
    next: Vec<u32>,
    lo: Vec<u32>,
    hi: Vec<u32>,
    count: Vec<u32>,
    color: Vec<i32>,
    colored: bool,
    frames: Vec<Frame>,
    tweaked: Vec<u32>,
    phase: Phase,
    floor: usize,
    frontier: usize,
    pause_every: u64,
    pause_at: u64,
    solution: Vec<OptionId>,
    degrees: Vec<u32>,
    stats: Stats,
    cancel: Option<Arc<AtomicBool>>,
    problem: &'p Problem,
}

impl<'p> Dlxm<'p> {
    pub fn new(problem: &'p Problem) -> Self {
        let slots = problem.slots();
        let n = problem.n_items();
        let np = problem.n_primary();
        let s = slots.len();
        let base = s as u32;
        let mut links = vec![Link::default(); s + n];
        let mut len = vec![0u32; n];
        for c in 0..n {
            let h = base + c as u32;
            links[h as usize] = Link { up: h, down: h };
        }
        let mut sp = 0usize;
        for k in 0..problem.n_options() {
            let mut end = sp + 1;
            while slots[end] & SPACER == 0 {
                end += 1;
            }
            links[sp].down = (end - 1) as u32;
            links[end].up = (sp + 1) as u32;
            if problem.is_active(k) {
                for nn in sp + 1..end {
                    let c = slots[nn] as usize;
                    let h = s + c;
                    let last = links[h].up;
                    links[nn] = Link {
                        up: last,
                        down: h as u32,
                    };
                    links[last as usize].down = nn as u32;
                    links[h].up = nn as u32;
                    len[c] += 1;
                }
            }
            sp = end;
        }
        // active primary items: a circular list with root np
        let mut prev = vec![0u32; np + 1];
        let mut next = vec![0u32; np + 1];
        for c in 0..=np {
            prev[c] = if c == 0 { np as u32 } else { c as u32 - 1 };
            next[c] = if c == np { 0 } else { c as u32 + 1 };
        }
        let (lo, hi): (Vec<u32>, Vec<u32>) = (0..np).map(|i| problem.bounds(i)).unzip();
        let colored = problem.has_colors();
        let color = if colored {
            problem.slot_colors().iter().map(|&c| c as i32).collect()
        } else {
            Vec::new()
        };
        let depth: usize = hi.iter().map(|&h| h as usize).sum::<usize>() + np + 1;
        Dlxm {
            slots,
            base,
            n_primary: np as u32,
            links,
            len,
            prev,
            next,
            lo,
            hi,
            count: vec![0; np],
            color,
            colored,
            frames: Vec::with_capacity(depth),
            tweaked: Vec::new(),
            phase: Phase::Forward,
            floor: 0,
            frontier: usize::MAX,
            pause_every: u64::MAX,
            pause_at: u64::MAX,
            solution: Vec::new(),
            degrees: Vec::new(),
            stats: Stats::new(depth + 1),
            cancel: None,
            problem,
        }
    }

    fn col(&self, i: u32) -> i32 {
        if self.colored {
            self.color[i as usize]
        } else {
            0
        }
    }

    /// Unlinks the nodes of option `rr` other than `rr` (and purified ones).
    fn hide(&mut self, rr: u32) {
        let mut nn = rr + 1;
        while nn != rr {
            if self.col(nn) < 0 {
                nn += 1;
                continue;
            }
            let x = self.slots[nn as usize];
            let l = self.links[nn as usize];
            if x & SPACER != 0 {
                nn = l.up;
                continue;
            }
            self.links[l.up as usize].down = l.down;
            self.links[l.down as usize].up = l.up;
            self.len[x as usize] -= 1;
            self.stats.updates += 1;
            nn += 1;
        }
    }

    fn unhide(&mut self, rr: u32) {
        let mut nn = rr - 1;
        while nn != rr {
            if self.col(nn) < 0 {
                nn -= 1;
                continue;
            }
            let x = self.slots[nn as usize];
            let l = self.links[nn as usize];
            if x & SPACER != 0 {
                nn = l.down;
                continue;
            }
            self.links[l.up as usize].down = nn;
            self.links[l.down as usize].up = nn;
            self.len[x as usize] += 1;
            nn -= 1;
        }
    }

    /// Covers item `c`: out of the active list (if primary), every option
    /// in its list hidden.
    fn cover(&mut self, c: u32) {
        if c < self.n_primary {
            let (p, n) = (self.prev[c as usize], self.next[c as usize]);
            self.next[p as usize] = n;
            self.prev[n as usize] = p;
        }
        self.stats.updates += 1;
        let h = self.base + c;
        let mut rr = self.links[h as usize].down;
        while rr != h {
            self.hide(rr);
            rr = self.links[rr as usize].down;
        }
    }

    fn uncover(&mut self, c: u32) {
        let h = self.base + c;
        let mut rr = self.links[h as usize].up;
        while rr != h {
            self.unhide(rr);
            rr = self.links[rr as usize].up;
        }
        if c < self.n_primary {
            let (p, n) = (self.prev[c as usize], self.next[c as usize]);
            self.next[p as usize] = c;
            self.prev[n as usize] = c;
        }
    }

    fn purify(&mut self, p: u32) {
        let c = self.slots[p as usize];
        let x = self.col(p);
        let h = self.base + c;
        let mut rr = self.links[h as usize].down;
        while rr != h {
            if self.col(rr) != x {
                self.hide(rr);
            } else if rr != p {
                self.color[rr as usize] = -1;
            }
            rr = self.links[rr as usize].down;
        }
    }

    fn unpurify(&mut self, p: u32) {
        let c = self.slots[p as usize];
        let x = self.col(p);
        let h = self.base + c;
        let mut rr = self.links[h as usize].up;
        while rr != h {
            if self.col(rr) < 0 {
                self.color[rr as usize] = x;
            } else if rr != p {
                self.unhide(rr);
            }
            rr = self.links[rr as usize].up;
        }
    }

    /// The nodes of option `x`, starting with `x` itself, cyclically.
    fn option_nodes(&self, x: u32, out: &mut Vec<u32>) {
        out.clear();
        out.push(x);
        let mut p = x + 1;
        while p != x {
            if self.slots[p as usize] & SPACER != 0 {
                p = self.links[p as usize].up;
                continue;
            }
            out.push(p);
            p += 1;
        }
    }

    /// Counts option `x` (already tweaked) for each of its items.
    fn commit(&mut self, x: u32, nodes: &mut Vec<u32>) {
        self.option_nodes(x, nodes);
        for &p in nodes.iter() {
            let j = self.slots[p as usize];
            if j < self.n_primary {
                self.count[j as usize] += 1;
                if self.count[j as usize] == self.hi[j as usize] {
                    self.cover(j);
                }
            } else {
                let k = self.col(p);
                if k == 0 {
                    self.cover(j);
                } else if k > 0 {
                    self.purify(p);
                }
            }
        }
    }

    fn uncommit(&mut self, x: u32, nodes: &mut Vec<u32>) {
        self.option_nodes(x, nodes);
        for &p in nodes.iter().rev() {
            let j = self.slots[p as usize];
            if j < self.n_primary {
                if self.count[j as usize] == self.hi[j as usize] {
                    self.uncover(j);
                }
                self.count[j as usize] -= 1;
            } else {
                let k = self.col(p);
                if k == 0 {
                    self.uncover(j);
                } else if k > 0 {
                    self.unpurify(p);
                }
            }
        }
    }

    /// The active item with the fewest branches, and that number.
    fn choose(&self) -> (u32, u32) {
        let root = self.n_primary;
        let mut best = root;
        let mut t = u32::MAX;
        let mut k = self.next[root as usize];
        while k != root {
            let need = self.lo[k as usize].saturating_sub(self.count[k as usize]);
            let len = self.len[k as usize];
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
            k = self.next[k as usize];
        }
        (best, t)
    }

    fn option_of(&self, mut nn: u32) -> OptionId {
        while self.slots[nn as usize] & SPACER == 0 {
            nn += 1;
        }
        (self.slots[nn as usize] & !SPACER) as usize - 1
    }

    /// Tries the next branch of the top frame: the front option of its
    /// item's list, or "no more options". Returns false when the frame has
    /// no branch left.
    fn next_branch(&mut self, nodes_buf: &mut Vec<u32>) -> bool {
        let f = *self.frames.last().unwrap();
        let i = f.item;
        let head = self.base + i;
        let x = self.links[head as usize].down;
        let need = self.lo[i as usize].saturating_sub(self.count[i as usize]);
        if !f.stopped && x != head && self.len[i as usize] >= need.max(1) {
            self.tweak(i, x);
            let top = self.frames.last_mut().unwrap();
            top.x = x;
            top.tried += 1;
            self.commit(x, nodes_buf);
            return true;
        }
        if !f.stopped && need == 0 {
            let (p, n) = (self.prev[i as usize], self.next[i as usize]);
            self.next[p as usize] = n;
            self.prev[n as usize] = p;
            let top = self.frames.last_mut().unwrap();
            top.stopped = true;
            top.tried += 1;
            return true;
        }
        false
    }

    /// Takes option `x` (the front of item `i`'s list) out of the list and
    /// hides it everywhere else.
    fn tweak(&mut self, i: u32, x: u32) {
        let head = self.base + i;
        self.hide(x);
        let d = self.links[x as usize].down;
        self.links[head as usize].down = d;
        self.links[d as usize].up = head;
        self.len[i as usize] -= 1;
        self.tweaked.push(x);
    }

    /// Leaves the top frame: restores what its branches took away.
    fn pop_frame(&mut self, nodes_buf: &mut Vec<u32>) {
        let f = self.frames.pop().unwrap();
        let i = f.item;
        let head = self.base + i;
        if f.x != NONE {
            self.uncommit(f.x, nodes_buf);
        }
        if f.stopped {
            let (p, n) = (self.prev[i as usize], self.next[i as usize]);
            self.next[p as usize] = i;
            self.prev[n as usize] = i;
        }
        while self.tweaked.len() as u32 > f.mark {
            let x = self.tweaked.pop().unwrap();
            let d = self.links[x as usize].down;
            self.links[head as usize].down = x;
            self.links[d as usize].up = x;
            self.len[i as usize] += 1;
            self.unhide(x);
        }
    }

    fn record(&mut self) {
        self.solution.clear();
        self.degrees.clear();
        for k in 0..self.frames.len() {
            let f = self.frames[k];
            let o = if f.x != NONE {
                self.option_of(f.x)
            } else {
                STOP
            };
            self.solution.push(o);
            self.degrees.push(f.theta);
        }
    }

    fn step(&mut self) -> Step {
        let mut nodes_buf = Vec::new();
        let mut forward = match self.phase {
            Phase::Done | Phase::Cancelled => return Step::End,
            Phase::Forward => true,
            Phase::Back => false,
        };
        loop {
            if forward {
                let depth = self.frames.len();
                if depth == self.frontier {
                    self.record();
                    self.phase = Phase::Back;
                    return Step::Frontier;
                }
                if self.stats.nodes >= self.pause_at {
                    self.pause_at = self.stats.nodes.saturating_add(self.pause_every);
                    self.phase = Phase::Forward;
                    return Step::Pause;
                }
                self.stats.nodes += 1;
                self.stats.profile[depth] += 1;
                if self.stats.nodes & CANCEL_MASK == 0 {
                    if let Some(f) = &self.cancel {
                        if f.load(Ordering::Relaxed) {
                            self.stats.nodes -= 1;
                            self.stats.profile[depth] -= 1;
                            self.phase = Phase::Cancelled;
                            return Step::End;
                        }
                    }
                }
                if self.next[self.n_primary as usize] == self.n_primary {
                    self.stats.solutions += 1;
                    self.record();
                    self.solution.retain(|&o| o != STOP);
                    self.phase = Phase::Back;
                    return Step::Solution;
                }
                let (i, theta) = self.choose();
                if theta > 0 {
                    self.frames.push(Frame {
                        item: i,
                        theta,
                        tried: 0,
                        mark: self.tweaked.len() as u32,
                        x: NONE,
                        stopped: false,
                    });
                    if self.next_branch(&mut nodes_buf) {
                        continue;
                    }
                    self.pop_frame(&mut nodes_buf);
                }
                // a dead end: back into the parent
            }
            // back into the top frame from its child: undo its branch, try the next
            loop {
                if self.frames.len() <= self.floor {
                    self.phase = Phase::Done;
                    return Step::End;
                }
                let top = self.frames.last_mut().unwrap();
                let x = top.x;
                if x != NONE {
                    top.x = NONE;
                    self.uncommit(x, &mut nodes_buf);
                }
                if self.next_branch(&mut nodes_buf) {
                    break;
                }
                self.pop_frame(&mut nodes_buf);
            }
            forward = true;
        }
    }

    fn unwind(&mut self) {
        let mut buf = Vec::new();
        while !self.frames.is_empty() {
            self.pop_frame(&mut buf);
        }
    }

    /// Follows `prefix` (frontier options, [`STOP`] for "no more options")
    /// from the root, as the search would.
    fn descend_to(&mut self, prefix: &[OptionId]) -> Result<(), DescendError> {
        if !self.frames.is_empty() || self.phase != Phase::Forward {
            return Err(DescendError::NotAtRoot);
        }
        let mut buf = Vec::new();
        for (l, &o) in prefix.iter().enumerate() {
            let bad = DescendError::NotChosenHere {
                level: l,
                option: o,
            };
            let (i, theta) = self.choose();
            if theta == 0 || i == self.n_primary {
                self.unwind();
                return Err(bad);
            }
            self.frames.push(Frame {
                item: i,
                theta,
                tried: 0,
                mark: self.tweaked.len() as u32,
                x: NONE,
                stopped: false,
            });
            let head = self.base + i;
            // skip (tweak) the branches before o, then take o
            let mut ok = false;
            loop {
                let x = self.links[head as usize].down;
                let want = if o == STOP {
                    x == head
                } else {
                    x != head && o < self.problem.n_options() && self.option_of(x) == o
                };
                if want {
                    ok = if o == STOP {
                        self.next_branch(&mut buf) && self.frames.last().unwrap().stopped
                    } else {
                        self.next_branch(&mut buf) && self.frames.last().unwrap().x == x
                    };
                    break;
                }
                if x == head {
                    break;
                }
                // the search would have tried x first: skip it the same way
                self.tweak(i, x);
                self.frames.last_mut().unwrap().tried += 1;
            }
            if !ok {
                self.unwind();
                return Err(bad);
            }
        }
        self.floor = prefix.len();
        // the way down was counted by whoever produced the prefix
        self.stats.updates = 0;
        Ok(())
    }
}

impl Engine for Dlxm<'_> {
    fn next_solution(&mut self) -> Option<&[OptionId]> {
        loop {
            match self.step() {
                Step::Solution => return Some(&self.solution),
                Step::End => return None,
                Step::Frontier | Step::Pause => {}
            }
        }
    }
    fn next_event(&mut self) -> Option<Event<'_>> {
        match self.step() {
            Step::Solution => Some(Event::Solution(&self.solution)),
            Step::Frontier => Some(Event::Frontier(&self.solution, &self.degrees)),
            Step::Pause => Some(Event::Pause),
            Step::End => None,
        }
    }
    fn stats(&self) -> &Stats {
        &self.stats
    }
    fn is_complete(&self) -> bool {
        self.phase == Phase::Done
    }
    fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = Some(flag);
    }
    fn set_frontier(&mut self, depth: Option<usize>) {
        self.frontier = depth.unwrap_or(usize::MAX);
    }
    fn set_pause(&mut self, nodes: Option<u64>) {
        self.pause_every = nodes.unwrap_or(u64::MAX);
        self.pause_at = self.stats.nodes.saturating_add(self.pause_every);
    }
    fn reset(&mut self) {
        self.unwind();
        self.phase = Phase::Forward;
        self.floor = 0;
        let levels = self.stats.profile.len();
        self.stats = Stats::new(levels);
        self.pause_at = self.pause_every;
    }
    fn descend(&mut self, prefix: &[OptionId]) -> Result<(), DescendError> {
        self.descend_to(prefix)
    }
    fn position(&self) -> f64 {
        if self.phase == Phase::Done {
            return 1.0;
        }
        let mut f = 0.0;
        let mut w = 1.0;
        for fr in &self.frames[self.floor.min(self.frames.len())..] {
            w /= fr.theta.max(1) as f64;
            f += fr.tried.saturating_sub(1) as f64 * w;
        }
        f.min(1.0)
    }
}
