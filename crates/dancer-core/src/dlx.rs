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
//! Everything lives in flat arrays of `u32` indices; there are no pointers,
//! no per-node allocation and no recursion.
//!
//! * The option entries are read in place from the problem's slot array:
//!   `[spacer 0, entries of option 0, spacer 1, entries of option 1, ...,
//!   spacer m]`. A slot holds its item number, or for a spacer the flag
//!   `SPACER` and the number of the option that follows. Node `i` of the
//!   engine *is* slot `i`; nodes `S..S+n` (with `S` the number of slots) are
//!   the list heads of the `n` items. Reading the items from the problem
//!   instead of copying them saves four bytes per entry.
//! * `links[i] = (up, down)` threads every node into the circular vertical
//!   list of its item, in input order. For a spacer, `up` is the first node
//!   of the option before it and `down` the last node of the option after it,
//!   as in Knuth's layout: walking right from any node of an option and
//!   following `up` at the spacer visits the whole option cyclically, and
//!   walking left and following `down` does the same backwards. Up and down
//!   sit together in 8 bytes, so one cache line holds eight of them.
//! * `len[c]` is the number of options still in item `c`'s list.
//! * `prev`/`next` thread the primary items that are still uncovered into
//!   a circular list with root `n`, in item order; choosing the branching
//!   item walks it, and the search has found a solution when it is empty.
//!   Secondary items have a list of their own (root `n + 1`) that nobody
//!   reads: it is there so that covering any item is the same code, without
//!   a primary-or-secondary test.
//! * `off[i]`, for uncoloured problems of up to four million slots, gives
//!   node `i`'s position in its option and the option's length, so that
//!   hiding an option is a counted loop over its nodes rather than a walk
//!   that stops at a spacer (see *Why this way*). Larger problems go without
//!   it (the *compact* layout) and walk the options as Knuth does.
//! * For coloured problems only, `color[i]` is a mutable copy of each
//!   entry's colour: positive for a colour, 0 for none, and -1 once the
//!   entry's item has been *purified* to that colour, which tells later
//!   covers to leave the node alone.
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
//! be reused.
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

use crate::problem::{OptionId, Problem, SPACER};
use crate::solve::{DescendError, Event, Step};
use crate::stats::Stats;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Problems with more slots than this do without the `off` array (two bytes
/// per slot) and walk options the way Knuth does: memory matters more there.
const OFF_LIMIT: usize = 1 << 22;

/// How often (in nodes, a power of two minus one as a mask) the search looks
/// at the cancellation flag.
const CANCEL_MASK: u64 = 0x3FF;

#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Link {
    up: u32,
    down: u32,
}

/// Where the search will continue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// About to enter `level` (at the start: `level == floor`).
    Forward,
    /// A leaf (a solution, or a node of the frontier) was just reported
    /// below `level`: continue with the next option at `level`.
    AfterLeaf,
    /// Stopped by cancellation before entering `level`.
    Cancelled,
    /// The whole tree (below the floor) has been explored.
    Done,
}

/// The dancing-links engine over a borrowed [`Problem`].
pub struct Dlx<'p> {
    problem: &'p Problem,
    /// The problem's slots: the item of each option node, or a spacer.
    slots: &'p [u32],
    /// Number of slots, also the node number of item 0's list head.
    base: u32,
    n_primary: u32,
    /// Number of items, also the root of the list of uncovered primary items.
    root: u32,
    links: Vec<Link>,
    len: Vec<u32>,
    /// prev/next of the item lists (see `new`).
    prev: Vec<u32>,
    next: Vec<u32>,
    color: Vec<i32>,
    colored: bool,
    /// For each node: its distance from the first node of its option in the
    /// low byte, the option's length in the high byte; `u16::MAX` for
    /// options of 256 entries or more (then found from the spacers). Empty in
    /// the compact layout and for coloured problems.
    off: Vec<u16>,
    // search state
    choice: Vec<u32>,
    /// Per level: the number of options of the item chosen there, when it
    /// was chosen, and how many of them have been tried before the current
    /// one (for the estimate of progress).
    degree: Vec<u32>,
    index: Vec<u32>,
    level: usize,
    /// The level the search started from: levels below it are a prefix
    /// given to [`descend`](Self::descend), not searched.
    floor: usize,
    /// Report the nodes at this depth as frontier events instead of
    /// searching below them (`usize::MAX`: never).
    frontier: usize,
    pause_every: u64,
    pause_at: u64,
    phase: Phase,
    solution: Vec<OptionId>,
    degrees: Vec<u32>,
    stats: Stats,
    cancel: Option<Arc<AtomicBool>>,
}

impl<'p> Dlx<'p> {
    /// Builds the lists for `problem`. Options without primary items are left
    /// out, as Knuth's programs leave them out.
    pub fn new(problem: &'p Problem) -> Self {
        Self::build(problem, problem.slots().len() <= OFF_LIMIT)
    }

    /// Like [`new`](Self::new), but always without the two-bytes-per-entry
    /// span table that speeds up uncoloured problems: the same search in
    /// less memory. `new` chooses this by itself for very large problems.
    pub fn new_compact(problem: &'p Problem) -> Self {
        Self::build(problem, false)
    }

    fn build(problem: &'p Problem, fast: bool) -> Self {
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
        // Walk the slots option by option: `sp` is spacer k, `end` spacer k+1.
        let mut off = Vec::new();
        let use_off = !problem.has_colors() && fast;
        if use_off {
            off = vec![0u16; s];
        }
        let mut sp = 0usize;
        for k in 0..problem.n_options() {
            let mut end = sp + 1;
            while slots[end] & SPACER == 0 {
                end += 1;
            }
            // Spacer k: up = first node of option k-1, down = last node of option k.
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
            if use_off {
                let n = end - sp - 1;
                for (i, o) in off[sp + 1..end].iter_mut().enumerate() {
                    *o = if n < 256 {
                        (i | n << 8) as u16
                    } else {
                        u16::MAX
                    };
                }
            }
            sp = end;
        }
        // Items in two circular lists: primary items with root `n`, secondary
        // items with root `n + 1`. Only the first is ever searched; the second
        // exists so that covering any item is the same branch-free code.
        let mut prev = vec![0u32; n + 2];
        let mut next = vec![0u32; n + 2];
        let mut ring = |members: std::ops::Range<usize>, root: usize| {
            let mut last = root;
            for c in members {
                next[last] = c as u32;
                prev[c] = last as u32;
                last = c;
            }
            next[last] = root as u32;
            prev[root] = last as u32;
        };
        ring(0..np, n);
        ring(np..n, n + 1);
        let colored = problem.has_colors();
        let color = if colored {
            problem.slot_colors().iter().map(|&c| c as i32).collect()
        } else {
            Vec::new()
        };
        Dlx {
            problem,
            slots,
            base,
            n_primary: np as u32,
            root: n as u32,
            links,
            len,
            prev,
            next,
            color,
            colored,
            off,
            choice: vec![0; np + 1],
            degree: vec![0; np + 1],
            index: vec![0; np + 1],
            level: 0,
            floor: 0,
            frontier: usize::MAX,
            pause_every: u64::MAX,
            pause_at: u64::MAX,
            phase: Phase::Forward,
            solution: Vec::with_capacity(np),
            degrees: Vec::new(),
            stats: Stats::new(np + 2),
            cancel: None,
        }
    }

    /// The problem this engine solves.
    pub fn problem(&self) -> &'p Problem {
        self.problem
    }

    /// Installs a flag that another thread may set to stop the search; it is
    /// looked at every 1024 nodes.
    pub fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = Some(flag);
    }

    /// Counters of the search so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Whether the whole search tree has been explored.
    pub fn is_complete(&self) -> bool {
        self.phase == Phase::Done
    }

    /// The frontier node's branching degrees (after a frontier event).
    pub fn degrees(&self) -> &[u32] {
        &self.degrees
    }

    /// Whether the search was stopped by the cancellation flag.
    pub fn is_cancelled(&self) -> bool {
        self.phase == Phase::Cancelled
    }

    fn step(&mut self) -> Step {
        if self.colored {
            self.search::<true, false>()
        } else if !self.off.is_empty() {
            self.search::<false, true>()
        } else {
            self.search::<false, false>()
        }
    }

    /// Searches on to the next solution and returns its options, in the order
    /// they were chosen (level 0 first). Returns `None` once the tree is
    /// exhausted or the search was cancelled.
    pub fn next_solution(&mut self) -> Option<&[OptionId]> {
        loop {
            match self.step() {
                Step::Solution => return Some(&self.solution),
                Step::End => return None,
                Step::Frontier | Step::Pause => {}
            }
        }
    }

    /// Searches on to the next event: a solution, a node of the frontier,
    /// or a pause; `None` at the end.
    pub fn next_event(&mut self) -> Option<Event<'_>> {
        match self.step() {
            Step::Solution => Some(Event::Solution(&self.solution)),
            Step::Frontier => Some(Event::Frontier(&self.solution, &self.degrees)),
            Step::Pause => Some(Event::Pause),
            Step::End => None,
        }
    }

    /// Report the nodes at `depth` (the number of options chosen) as
    /// frontier events, without searching below them.
    pub fn set_frontier(&mut self, depth: Option<usize>) {
        self.frontier = depth.unwrap_or(usize::MAX);
    }

    /// Pause (an event) about every `nodes` nodes.
    pub fn set_pause(&mut self, nodes: Option<u64>) {
        self.pause_every = nodes.unwrap_or(u64::MAX);
        self.pause_at = self.stats.nodes.saturating_add(self.pause_every);
    }

    /// Restores every list and clears the statistics, so that the search
    /// starts over from the root.
    pub fn reset(&mut self) {
        if self.colored {
            self.unwind::<true, false>()
        } else {
            self.unwind::<false, false>()
        }
        self.phase = Phase::Forward;
        self.level = 0;
        self.floor = 0;
        self.stats = Stats::new(self.n_primary as usize + 2);
        self.pause_at = self.pause_every;
    }

    fn unwind<const C: bool, const F: bool>(&mut self) {
        let top = match self.phase {
            Phase::Forward | Phase::Cancelled => self.level,
            Phase::AfterLeaf => self.level + 1,
            Phase::Done => self.floor,
        };
        for l in (0..top).rev() {
            let cur = self.choice[l];
            self.uncover_others::<C, F>(cur);
            let best = self.slots[cur as usize];
            self.uncover::<C, F>(best);
        }
    }

    /// Moves from the root to the node reached by choosing `prefix`, one
    /// option per level, as the search itself would (each option must hold
    /// the item the search branches on at its level); the search then
    /// explores only the subtree below. Call on a fresh or reset engine.
    /// Nodes and updates on the way down are not counted: they belong to
    /// whoever produced the prefix.
    pub fn descend(&mut self, prefix: &[OptionId]) -> Result<(), DescendError> {
        if self.level != 0 || self.phase != Phase::Forward || self.floor != 0 {
            return Err(DescendError::NotAtRoot);
        }
        let mut scratch = 0u64;
        for (l, &o) in prefix.iter().enumerate() {
            let fail = |me: &mut Self| {
                me.phase = Phase::Forward;
                me.level = l;
                me.reset();
            };
            if o >= self.problem.n_options() {
                fail(self);
                return Err(DescendError::NotChosenHere {
                    level: l,
                    option: o,
                });
            }
            let best = self.choose();
            if best == self.root {
                fail(self);
                return Err(DescendError::NotChosenHere {
                    level: l,
                    option: o,
                });
            }
            // the node of option o in best's list, if o is still there
            let start = self.problem.spacer(o) + 1;
            let mut node = None;
            let mut k = start;
            while self.slots[k] & SPACER == 0 {
                if self.slots[k] == best {
                    node = Some(k as u32);
                }
                k += 1;
            }
            let h = self.base + best;
            let mut idx = 0;
            let mut rr = self.link(h).down;
            while rr != h && Some(rr) != node {
                idx += 1;
                rr = self.link(rr).down;
            }
            let Some(node) = node.filter(|_| rr != h) else {
                fail(self);
                return Err(DescendError::NotChosenHere {
                    level: l,
                    option: o,
                });
            };
            self.degree[l] = self.len[best as usize];
            self.index[l] = idx;
            if self.colored {
                self.cover::<true, false>(best, &mut scratch);
            } else {
                self.cover::<false, false>(best, &mut scratch);
            }
            self.choice[l] = node;
            if self.colored {
                self.cover_others::<true, false>(node, &mut scratch);
            } else {
                self.cover_others::<false, false>(node, &mut scratch);
            }
            self.level = l + 1;
        }
        self.floor = prefix.len();
        self.level = self.floor;
        self.phase = Phase::Forward;
        if self.next[self.root as usize] == self.root {
            // the prefix is a whole solution: nothing below to search
            self.phase = Phase::Done;
        }
        Ok(())
    }

    /// Knuth's estimate of the size of the search tree: `probes` random
    /// paths from the root, each node weighted by the product of the
    /// branching degrees above it. Returns estimated (nodes, updates). Call
    /// on a fresh or reset engine; the engine is left as it was.
    pub fn estimate(&mut self, probes: usize, seed: u64) -> (f64, f64) {
        if self.colored {
            self.estimate_impl::<true, false>(probes, seed)
        } else if !self.off.is_empty() {
            self.estimate_impl::<false, true>(probes, seed)
        } else {
            self.estimate_impl::<false, false>(probes, seed)
        }
    }

    fn estimate_impl<const C: bool, const F: bool>(
        &mut self,
        probes: usize,
        seed: u64,
    ) -> (f64, f64) {
        let mut next_rand = crate::stats::xorshift(seed);
        let (mut nodes, mut updates) = (0.0f64, 0.0f64);
        let mut path: Vec<u32> = Vec::new();
        for _ in 0..probes.max(1) {
            let mut weight = 1.0f64;
            path.clear();
            loop {
                nodes += weight;
                if self.next[self.root as usize] == self.root {
                    break; // a solution
                }
                let best = self.choose();
                let d = self.len[best as usize];
                let mut u = 0u64;
                self.cover::<C, F>(best, &mut u);
                updates += weight * u as f64;
                if d == 0 {
                    self.uncover::<C, F>(best);
                    break;
                }
                let r = (next_rand() % d as u64) as usize;
                let mut x = self.link(self.base + best).down;
                for _ in 0..r {
                    x = self.link(x).down;
                }
                let mut u = 0u64;
                self.cover_others::<C, F>(x, &mut u);
                // every branch of this node costs about as much as this one
                updates += weight * d as f64 * u as f64;
                path.push(x);
                weight *= d as f64;
            }
            for &x in path.iter().rev() {
                self.uncover_others::<C, F>(x);
                let best = self.slot(x);
                self.uncover::<C, F>(best);
            }
        }
        let n = probes.max(1) as f64;
        (nodes / n, updates / n)
    }

    /// An estimate of the fraction of the (sub)tree explored so far, from
    /// the position in the tree (Knuth): each level's share is split evenly
    /// among its options.
    pub fn position(&self) -> f64 {
        if self.phase == Phase::Done {
            return 1.0;
        }
        let lim = match self.phase {
            Phase::AfterLeaf => self.level + 1,
            _ => self.level,
        };
        let mut f = 0.0;
        let mut w = 1.0;
        for l in self.floor..lim {
            w /= self.degree[l].max(1) as f64;
            f += self.index[l] as f64 * w;
        }
        f.min(1.0)
    }

    // ----- unchecked access, justified by the invariants of `new` -----
    //
    // Every link value is a node number below `links.len()`, every non-spacer
    // slot is an item number below `len.len()`, and `prev`/`next` hold numbers
    // up to `n_primary`. `new` establishes this and nothing writes other
    // values: all writes copy values read from the same arrays.

    #[inline(always)]
    fn link(&self, i: u32) -> Link {
        debug_assert!((i as usize) < self.links.len());
        unsafe { *self.links.get_unchecked(i as usize) }
    }
    #[inline(always)]
    fn set_down(&mut self, i: u32, v: u32) {
        debug_assert!((i as usize) < self.links.len());
        unsafe { self.links.get_unchecked_mut(i as usize).down = v }
    }
    #[inline(always)]
    fn set_up(&mut self, i: u32, v: u32) {
        debug_assert!((i as usize) < self.links.len());
        unsafe { self.links.get_unchecked_mut(i as usize).up = v }
    }
    #[inline(always)]
    fn slot(&self, i: u32) -> u32 {
        debug_assert!((i as usize) < self.slots.len());
        unsafe { *self.slots.get_unchecked(i as usize) }
    }
    #[inline(always)]
    fn len_mut(&mut self, c: u32) -> &mut u32 {
        debug_assert!((c as usize) < self.len.len());
        unsafe { self.len.get_unchecked_mut(c as usize) }
    }
    #[inline(always)]
    fn col(&self, i: u32) -> i32 {
        debug_assert!((i as usize) < self.color.len());
        unsafe { *self.color.get_unchecked(i as usize) }
    }
    #[inline(always)]
    fn set_col(&mut self, i: u32, v: i32) {
        debug_assert!((i as usize) < self.color.len());
        unsafe { *self.color.get_unchecked_mut(i as usize) = v }
    }

    /// The first node and one past the last node of the option that holds
    /// node `rr`.
    #[inline(always)]
    fn option_span(&self, rr: u32) -> (u32, u32) {
        let o = unsafe { *self.off.get_unchecked(rr as usize) };
        if o != u16::MAX {
            let start = rr - (o & 0xFF) as u32;
            (start, start + (o >> 8) as u32)
        } else {
            let mut s = rr;
            while self.slot(s - 1) & SPACER == 0 {
                s -= 1;
            }
            (s, self.link(s - 1).down + 1)
        }
    }

    /// Unlinks every node of option `rr` except `rr` itself (and, with
    /// colours, except purified nodes) from its item's list.
    #[inline(always)]
    fn hide<const C: bool, const F: bool>(&mut self, rr: u32, updates: &mut u64) {
        if !C && F {
            // Branch-free form: visit the whole option, and make the writes
            // for `rr` itself rewrite the values they find (`rr` is linked in
            // the list being walked, so `up.down == rr` and `down.up == rr`).
            let (start, end) = self.option_span(rr);
            for nn in start..end {
                let x = self.slot(nn);
                let l = self.link(nn);
                let me = nn == rr;
                let d = if me { rr } else { l.down };
                let u = if me { rr } else { l.up };
                self.set_down(l.up, d);
                self.set_up(l.down, u);
                *self.len_mut(x) -= (!me) as u32;
            }
            *updates += (end - start - 1) as u64;
            return;
        }
        let mut nn = rr + 1;
        while nn != rr {
            if C && self.col(nn) < 0 {
                nn += 1;
                continue;
            }
            let x = self.slot(nn);
            let l = self.link(nn);
            if x & SPACER != 0 {
                nn = l.up;
                continue;
            }
            self.set_down(l.up, l.down);
            self.set_up(l.down, l.up);
            *self.len_mut(x) -= 1;
            *updates += 1;
            nn += 1;
        }
    }

    /// Inverse of [`hide`](Self::hide), walking the option the other way.
    #[inline(always)]
    fn unhide<const C: bool, const F: bool>(&mut self, rr: u32) {
        if !C && F {
            // Within one option every node is in a different list, so the
            // order of relinking inside the option does not matter; relinking
            // `rr` itself rewrites the values its neighbours already hold.
            let (start, end) = self.option_span(rr);
            for nn in start..end {
                let x = self.slot(nn);
                let l = self.link(nn);
                self.set_down(l.up, nn);
                self.set_up(l.down, nn);
                *self.len_mut(x) += (nn != rr) as u32;
            }
            return;
        }
        let mut nn = rr - 1;
        while nn != rr {
            if C && self.col(nn) < 0 {
                nn -= 1;
                continue;
            }
            let x = self.slot(nn);
            let l = self.link(nn);
            if x & SPACER != 0 {
                nn = l.down;
                continue;
            }
            self.set_down(l.up, nn);
            self.set_up(l.down, nn);
            *self.len_mut(x) += 1;
            nn -= 1;
        }
    }

    /// Covers item `c`: takes it out of the list of items to cover (if
    /// primary) and hides every option that uses it.
    #[inline(always)]
    fn cover<const C: bool, const F: bool>(&mut self, c: u32, updates: &mut u64) {
        {
            let p = self.prev[c as usize];
            let n = self.next[c as usize];
            self.next[p as usize] = n;
            self.prev[n as usize] = p;
        }
        *updates += 1;
        let h = self.base + c;
        let mut rr = self.link(h).down;
        while rr != h {
            self.hide::<C, F>(rr, updates);
            rr = self.link(rr).down;
        }
    }

    #[inline(always)]
    fn uncover<const C: bool, const F: bool>(&mut self, c: u32) {
        let h = self.base + c;
        let mut rr = self.link(h).up;
        while rr != h {
            self.unhide::<C, F>(rr);
            rr = self.link(rr).up;
        }
        {
            let p = self.prev[c as usize];
            let n = self.next[c as usize];
            self.next[p as usize] = c;
            self.prev[n as usize] = c;
        }
    }

    /// Restricts the secondary item of node `p` to `p`'s colour: hides the
    /// options that give it another colour (or none), and marks the ones that
    /// agree as purified.
    #[inline(always)]
    fn purify(&mut self, p: u32, updates: &mut u64) {
        let c = self.slot(p);
        let x = self.col(p);
        let h = self.base + c;
        let mut rr = self.link(h).down;
        while rr != h {
            if self.col(rr) != x {
                self.hide::<true, false>(rr, updates);
            } else if rr != p {
                self.set_col(rr, -1);
            }
            rr = self.link(rr).down;
        }
    }

    #[inline(always)]
    fn unpurify(&mut self, p: u32) {
        let c = self.slot(p);
        let x = self.col(p);
        let h = self.base + c;
        let mut rr = self.link(h).up;
        while rr != h {
            if self.col(rr) < 0 {
                self.set_col(rr, x);
            } else if rr != p {
                self.unhide::<true, false>(rr);
            }
            rr = self.link(rr).up;
        }
    }

    /// Covers the items of option node `cur` other than the one it was
    /// chosen for, left to right cyclically.
    #[inline(always)]
    fn cover_others<const C: bool, const F: bool>(&mut self, cur: u32, updates: &mut u64) {
        let mut pp = cur + 1;
        while pp != cur {
            let x = self.slot(pp);
            if x & SPACER != 0 {
                pp = self.link(pp).up;
                continue;
            }
            if !C {
                self.cover::<C, F>(x, updates);
            } else {
                let k = self.col(pp);
                if k == 0 {
                    self.cover::<C, F>(x, updates);
                } else if k > 0 {
                    self.purify(pp, updates);
                }
            }
            pp += 1;
        }
    }

    #[inline(always)]
    fn uncover_others<const C: bool, const F: bool>(&mut self, cur: u32) {
        let mut pp = cur - 1;
        while pp != cur {
            let x = self.slot(pp);
            if x & SPACER != 0 {
                pp = self.link(pp).down;
                continue;
            }
            if !C {
                self.uncover::<C, F>(x);
            } else {
                let k = self.col(pp);
                if k == 0 {
                    self.uncover::<C, F>(x);
                } else if k > 0 {
                    self.unpurify(pp);
                }
            }
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
        let root = self.root;
        let mut key = u64::MAX;
        let mut k = self.next[root as usize];
        while k != root {
            let l = unsafe { *self.len.get_unchecked(k as usize) };
            key = key.min(((l as u64) << 32) | k as u64);
            if l == 0 {
                break;
            }
            k = unsafe { *self.next.get_unchecked(k as usize) };
        }
        key as u32
    }

    /// The option that node `nn` belongs to.
    fn option_of(&self, mut nn: u32) -> OptionId {
        while self.slots[nn as usize] & SPACER == 0 {
            nn += 1;
        }
        (self.slots[nn as usize] & !SPACER) as usize - 1
    }

    /// Runs the search until the next event.
    ///
    /// The loop is Knuth's, with his labels: *forward* enters a new level,
    /// *advance* tries the current option of a level, *backup* leaves a level
    /// whose options are exhausted, and *recover* undoes an option before
    /// trying the next one.
    fn search<const C: bool, const F: bool>(&mut self) -> Step {
        let mut level = self.level;
        let mut nodes = self.stats.nodes;
        let mut updates = self.stats.updates;
        let mut best: u32;
        let mut cur: u32;
        let root = self.root;
        let floor = self.floor;
        let frontier = self.frontier;
        let pause_at = self.pause_at;
        let cancel = self.cancel.clone();
        let mut forward = match self.phase {
            Phase::Done | Phase::Cancelled => return Step::End,
            Phase::Forward => true,
            Phase::AfterLeaf => false,
        };
        // After a leaf, `cur` is the option chosen at `level`.
        cur = self.choice[level];
        best = 0;
        if !forward {
            best = self.slot(cur);
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
                self.stats.profile[level] += 1;
                if nodes & CANCEL_MASK == 0 {
                    if let Some(flag) = &cancel {
                        if flag.load(Ordering::Relaxed) {
                            nodes -= 1;
                            self.stats.profile[level] -= 1;
                            self.phase = Phase::Cancelled;
                            break 'outer Step::End;
                        }
                    }
                }
                best = self.choose();
                self.degree[level] = unsafe { *self.len.get_unchecked(best as usize) };
                self.index[level] = 0;
                self.cover::<C, F>(best, &mut updates);
                cur = self.link(self.base + best).down;
            } else {
                // recover: undo option `cur` and move to the next one.
                self.uncover_others::<C, F>(cur);
                cur = self.link(cur).down;
                self.index[level] += 1;
            }
            // advance
            loop {
                if cur == self.base + best {
                    // backup
                    self.uncover::<C, F>(best);
                    if level == floor {
                        self.phase = Phase::Done;
                        break 'outer Step::End;
                    }
                    level -= 1;
                    cur = self.choice[level];
                    best = self.slot(cur);
                    self.uncover_others::<C, F>(cur);
                    cur = self.link(cur).down;
                    self.index[level] += 1;
                    continue;
                }
                self.choice[level] = cur;
                self.cover_others::<C, F>(cur, &mut updates);
                if self.next[root as usize] == root {
                    // A solution: Knuth counts it as a node one level down.
                    nodes += 1;
                    self.stats.profile[level + 1] += 1;
                    self.phase = Phase::AfterLeaf;
                    break 'outer Step::Solution;
                }
                level += 1;
                forward = true;
                continue 'outer;
            }
        };
        self.level = level;
        self.stats.nodes = nodes;
        self.stats.updates = updates;
        match step {
            Step::Solution | Step::Frontier => {
                if step == Step::Solution {
                    self.stats.solutions += 1;
                }
                self.solution.clear();
                self.degrees.clear();
                for l in 0..=level {
                    let o = self.option_of(self.choice[l]);
                    self.solution.push(o);
                    self.degrees.push(self.degree[l]);
                }
            }
            Step::Pause => self.pause_at = nodes.saturating_add(self.pause_every),
            Step::End => {}
        }
        step
    }
}
