//! The search: sub-problems entered and left on an explicit stack, each
//! looked up in the cache first, counted and stored when done; the ZDD
//! written as it goes; a count in parts numbering its units.

use super::plan::Plan;
use super::table::{hash_words, held_size, Cache};
use super::{MemoOptions, MemoProgress, MemoStats, EXCLUSIVE, MIN_MEMORY};
use crate::count::Count;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The marker of a frame with no option applied.
pub(super) const NONE: u32 = u32::MAX;

/// A sub-problem being solved: its position, the next option to try, the
/// count so far, where its key is on the key stack, and the option now
/// applied (with where its colour changes start on the undo stack).
pub(super) struct Frame {
    pub(super) p: u32,
    pub(super) next: u32,
    pub(super) end: u32,
    pub(super) sum: Count,
    pub(super) key_at: u32,
    pub(super) hash: u64,
    pub(super) applied: u32,
    pub(super) cundo_at: u32,
    /// `stats.nodes` when the frame was entered: what its sub-problem
    /// cost is the difference at its end.
    pub(super) nodes_at: u64,
    /// With a ZDD: the node of the options tried so far (0: none yet).
    pub(super) z: u64,
    /// At a multiplicity's position already covered its least times: the
    /// sub-problem that chooses no more options there is still to count.
    pub(super) stop: bool,
}

/// The ZDD being written: nodes numbered from 2 (0 is the empty family,
/// 1 the family of the empty set), each line written when its node is
/// made, after its children.
pub(super) struct ZddOut<'w> {
    pub(super) out: &'w mut dyn Write,
    pub(super) next: u64,
    pub(super) error: Option<std::io::Error>,
}

impl<'w> ZddOut<'w> {
    pub(super) fn new(out: &'w mut dyn Write) -> Self {
        ZddOut {
            out,
            next: 2,
            error: None,
        }
    }

    /// A new node: the solutions of `lo`, and those of `hi` with option
    /// `var` (1-based).
    pub(super) fn node(&mut self, var: u64, lo: u64, hi: u64) -> u64 {
        let id = self.next;
        self.next += 1;
        if self.error.is_none() {
            if let Err(e) = writeln!(self.out, "{id:x}: (~{var}?{lo:x}:{hi:x})") {
                self.error = Some(e);
            }
        }
        id
    }

    /// Knuth's dummy root, last: variable 0, its HI the real root.
    pub(super) fn root(&mut self, root: u64) {
        self.node(0, 0, root);
        if self.error.is_none() {
            if let Err(e) = self.out.flush() {
                self.error = Some(e);
            }
        }
    }
}

/// A count of one part (see [`MemoSplit`]): frames at stack index below
/// `depth` neither read nor fill the cache; the children of those at
/// `depth - 1`, and the leaves above, are the units; unit `u` is this
/// part's when `u % n == k`. A probe only numbers the units.
#[derive(Clone, Copy)]
pub(super) struct Part {
    pub(super) depth: usize,
    pub(super) k: u64,
    pub(super) n: u64,
    pub(super) probe: bool,
}

pub(super) struct Search<'a, 'w> {
    pub(super) plan: &'a Plan,
    pub(super) zdd: Option<ZddOut<'w>>,
    pub(super) part: Option<Part>,
    /// Units numbered so far.
    pub(super) units: u64,
    pub(super) state: Vec<u64>,
    pub(super) colors: Vec<u32>,
    /// Coloured slots whose colour the applied options set, to clear.
    pub(super) cundo: Vec<u32>,
    /// The keys of the frames, one after the other.
    pub(super) keys: Vec<u64>,
    pub(super) frames: Vec<Frame>,
    pub(super) cache: Cache,
    pub(super) stats: MemoStats,
    pub(super) cancel: Option<Arc<AtomicBool>>,
    pub(super) progress: Option<Arc<MemoProgress>>,
    pub(super) cancelled: bool,
    pub(super) check: bool,
    /// Bytes the frames' sums take beyond their place in the frame (the
    /// digits of counts above 128 bits): the cache gets the cap less
    /// these.
    pub(super) held: usize,
    /// Set (with `cancelled`) when `held` alone passed the cap.
    pub(super) overflow: Option<usize>,
    /// Stop (with `cancelled`) once the count's work, on the model of
    /// `MemoStats::work_nanos` (nanoseconds per sub-problem and per option tried),
    /// passes this: `auto`'s trial of the count (infinite otherwise).
    pub(super) budget_nanos: f64,
}

impl<'a, 'w> Search<'a, 'w> {
    pub(super) fn new(plan: &'a Plan, opts: &MemoOptions, zdd: Option<ZddOut<'w>>) -> Self {
        Search {
            plan,
            zdd,
            part: None,
            units: 0,
            state: vec![0; plan.words],
            colors: vec![0; plan.colored.len()],
            cundo: Vec::new(),
            keys: Vec::new(),
            frames: Vec::new(),
            cache: Cache::new(opts.memory.max(MIN_MEMORY)),
            stats: MemoStats::default(),
            cancel: opts.cancel.clone(),
            progress: opts.progress.clone(),
            cancelled: false,
            check: opts.check,
            held: 0,
            overflow: None,
            budget_nanos: f64::INFINITY,
        }
    }

    #[inline]
    pub(super) fn covered(&self, (w, b): (u32, u64)) -> bool {
        self.state[w as usize] & b != 0
    }

    /// Whether option `k` fits the state.
    #[inline]
    pub(super) fn fits(&self, k: usize) -> bool {
        let plan = self.plan;
        for &(w, m) in &plan.masks[plan.mask_at[k] as usize..plan.mask_at[k + 1] as usize] {
            if self.state[w as usize] & m != 0 {
                return false;
            }
        }
        for &(s, c) in &plan.cents[plan.cent_at[k] as usize..plan.cent_at[k + 1] as usize] {
            let now = self.colors[s as usize];
            if now != 0 && (now != c || c == EXCLUSIVE) {
                return false;
            }
        }
        for &s in &plan.ments[plan.ment_at[k] as usize..plan.ment_at[k + 1] as usize] {
            if self.colors[s as usize] >= plan.slot_max[s as usize] {
                return false;
            }
        }
        true
    }

    pub(super) fn apply(&mut self, k: usize) {
        let plan = self.plan;
        for &(w, m) in &plan.masks[plan.mask_at[k] as usize..plan.mask_at[k + 1] as usize] {
            self.state[w as usize] |= m;
        }
        for &(s, c) in &plan.cents[plan.cent_at[k] as usize..plan.cent_at[k + 1] as usize] {
            if self.colors[s as usize] == 0 {
                self.colors[s as usize] = c;
                let (w, b) = plan.bit[plan.colored[s as usize] as usize];
                self.state[w as usize] |= b;
                self.cundo.push(s);
            }
        }
        // a multiplicity's bit says "covered its most times"
        for &s in &plan.ments[plan.ment_at[k] as usize..plan.ment_at[k + 1] as usize] {
            self.colors[s as usize] += 1;
            if self.colors[s as usize] == plan.slot_max[s as usize] {
                let (w, b) = plan.bit[plan.colored[s as usize] as usize];
                self.state[w as usize] |= b;
            }
        }
    }

    pub(super) fn undo(&mut self, k: usize, cundo_at: usize) {
        let plan = self.plan;
        for &(w, m) in &plan.masks[plan.mask_at[k] as usize..plan.mask_at[k + 1] as usize] {
            self.state[w as usize] &= !m;
        }
        for s in self.cundo.drain(cundo_at..) {
            self.colors[s as usize] = 0;
            let (w, b) = plan.bit[plan.colored[s as usize] as usize];
            self.state[w as usize] &= !b;
        }
        for &s in &plan.ments[plan.ment_at[k] as usize..plan.ment_at[k + 1] as usize] {
            self.colors[s as usize] -= 1;
            let (w, b) = plan.bit[plan.colored[s as usize] as usize];
            self.state[w as usize] &= !b;
        }
    }

    /// Enters the sub-problem left by the state: at position `from`
    /// with the options from `again` on, if `from` is a multiplicity's
    /// position not yet covered its most times (`again` is then the option
    /// after the one just chosen there); else at the first uncovered
    /// position from `from` on. Its count and ZDD node when known at once
    /// (all covered: 1; in the cache), else a new frame.
    pub(super) fn enter(&mut self, from: usize, from_again: u32) -> Option<(Count, u64)> {
        let plan = self.plan;
        let mut p = from;
        let again = from_again != NONE
            && p < plan.np
            && plan.pos_slot[p] != NONE
            && !self.covered(plan.bit[plan.order[p] as usize])
            && from_again > plan.at[p];
        if !again {
            while p < plan.np && self.covered(plan.bit[plan.order[p] as usize]) {
                p += 1;
            }
            if p == plan.np {
                return Some((Count::ONE, 1));
            }
        }
        if self.check {
            self.check_state(p, again);
        }
        let key_at = self.keys.len();
        let next = if again { from_again } else { plan.at[p] };
        self.keys
            .push(p as u64 | u64::from(next - plan.at[p]) << 32);
        let (fw, fc) = plan.frontier(p, again);
        for &(w, m) in fw {
            self.keys.push(self.state[w as usize] & m);
        }
        for pair in fc.chunks(2) {
            let lo = u64::from(self.colors[pair[0] as usize]);
            let hi = pair
                .get(1)
                .map_or(0, |&s| u64::from(self.colors[s as usize]));
            self.keys.push(lo | hi << 32);
        }
        debug_assert_eq!(
            self.keys.len() - key_at,
            1 + fw.len() + fc.len().div_ceil(2)
        );
        let hash = hash_words(&self.keys[key_at..]);
        let cached = self.part.is_none_or(|s| self.frames.len() >= s.depth);
        if let Some(c) = cached
            .then(|| self.cache.get(&self.keys[key_at..], hash))
            .flatten()
        {
            self.stats.hits += 1;
            self.keys.truncate(key_at);
            return Some(c);
        }
        self.stats.nodes += 1;
        if self.stats.nodes % 1024 == 0 {
            if let Some(c) = &self.cancel {
                if c.load(Ordering::Relaxed) {
                    self.cancelled = true;
                }
            }
            if self.stats.work_nanos() > self.budget_nanos {
                self.cancelled = true;
            }
            if let Some(pr) = &self.progress {
                pr.nodes.store(self.stats.nodes, Ordering::Relaxed);
                pr.hits.store(self.stats.hits, Ordering::Relaxed);
                pr.bytes
                    .store(self.cache.table.bytes() as u64, Ordering::Relaxed);
            }
        }
        let slot = plan.pos_slot[p];
        let stop = slot != NONE && self.colors[slot as usize] >= plan.pos_min[p];
        self.frames.push(Frame {
            p: p as u32,
            next,
            end: plan.at[p + 1],
            sum: Count::ZERO,
            key_at: key_at as u32,
            hash,
            applied: NONE,
            cundo_at: 0,
            nodes_at: self.stats.nodes,
            z: 0,
            stop,
        });
        None
    }

    /// The invariants of a node at position `p` (see the module's prose;
    /// `again`: entered again after an option chosen at `p`).
    pub(super) fn check_state(&self, p: usize, again: bool) {
        let plan = self.plan;
        for q in 0..p {
            match plan.pos_slot[q] {
                NONE => assert!(
                    self.covered(plan.bit[plan.order[q] as usize]),
                    "position {q} uncovered before {p}"
                ),
                s => assert!(
                    self.colors[s as usize] >= plan.pos_min[q],
                    "position {q} covered too few times before {p}"
                ),
            }
        }
        for (s, &x) in plan.colored.iter().enumerate() {
            if plan.slot_max[s] > 0 {
                let full = self.colors[s] == plan.slot_max[s];
                assert!(
                    self.colors[s] <= plan.slot_max[s],
                    "item {x} covered too often"
                );
                assert_eq!(
                    self.covered(plan.bit[x as usize]),
                    full,
                    "the bit of item {x}"
                );
            }
        }
        for (x, &f) in plan.first.iter().enumerate() {
            if f as usize > p || (f as usize == p && !again) {
                assert!(
                    !self.covered(plan.bit[x]),
                    "item {x} covered before its first position"
                );
                if let Some(s) = plan.colored.iter().position(|&y| y as usize == x) {
                    assert_eq!(
                        self.colors[s], 0,
                        "item {x} counted before its first position"
                    );
                }
            }
        }
    }

    /// The count, and the root of the ZDD (when one is written).
    pub(super) fn run(&mut self) -> (Count, u64) {
        if let Some(c) = self.enter(0, NONE) {
            // the only unit: part 1's
            return if self.numbered_mine() {
                c
            } else {
                (Count::ZERO, 0)
            };
        }
        loop {
            let top = self.frames.len() - 1;
            let f = &mut self.frames[top];
            let (applied, cundo_at) = (f.applied, f.cundo_at);
            f.applied = NONE;
            if applied != NONE {
                self.undo(applied as usize, cundo_at as usize);
            }
            let f = &mut self.frames[top];
            let p = f.p;
            if f.stop && !self.cancelled {
                // first the sub-problem that chooses no more options at p
                // (the base of the ZDD's chain of this frame)
                f.stop = false;
                if self.unit_below(top) && !self.numbered_mine() {
                    continue;
                }
                if let Some((c, z)) = self.enter(p as usize + 1, NONE) {
                    self.leaf(top, c, z);
                }
                continue;
            }
            let (mut k, end) = (f.next, f.end);
            let stop = self.cancelled;
            while !stop && k < end && !self.fits(k as usize) {
                k += 1;
            }
            if !stop && k < end && self.unit_below(top) && !self.numbered_mine() {
                self.frames[top].next = k + 1;
                continue;
            }
            if stop || k == end {
                let f = self.frames.pop().expect("a frame");
                self.held -= held_size(&f.sum);
                if !stop && self.part.is_none_or(|s| top >= s.depth) {
                    let key_at = f.key_at as usize;
                    let cost = self.stats.nodes - f.nodes_at;
                    self.cache.insert(
                        &self.keys[key_at..],
                        f.hash,
                        (&f.sum, f.z),
                        cost,
                        &mut self.stats,
                        self.held,
                    );
                }
                self.keys.truncate(f.key_at as usize);
                if self.frames.is_empty() {
                    return (f.sum, f.z);
                }
                self.child(f.sum, f.z);
                continue;
            }
            let cundo_at = self.cundo.len() as u32;
            self.apply(k as usize);
            self.stats.options_tried += 1;
            let f = &mut self.frames[top];
            f.next = k + 1;
            f.applied = k;
            f.cundo_at = cundo_at;
            if let Some((c, z)) = self.enter(p as usize, k + 1) {
                self.leaf(top, c, z);
            }
        }
    }

    /// Whether the children of the frame at stack index `top` are units.
    #[inline]
    pub(super) fn unit_below(&self, top: usize) -> bool {
        self.part.is_some_and(|s| top + 1 == s.depth)
    }

    /// Numbers a unit: whether it is this part's (always, without parts;
    /// never in a probe).
    #[inline]
    pub(super) fn numbered_mine(&mut self) -> bool {
        let Some(s) = self.part else {
            return true;
        };
        let u = self.units;
        self.units += 1;
        !s.probe && u % s.n == s.k
    }

    /// A child of the frame at `top` known at once: above the units'
    /// depth it is a unit of its own (counted only by its part).
    #[inline]
    pub(super) fn leaf(&mut self, top: usize, c: Count, z: u64) {
        if self.part.is_some_and(|s| top + 1 < s.depth) && !self.numbered_mine() {
            return;
        }
        self.child(c, z);
    }

    /// Adds the count of the sub-problem left by the top frame's applied
    /// option, and with a ZDD, chains a node for that option.
    #[inline]
    pub(super) fn child(&mut self, c: Count, z: u64) {
        let f = self.frames.last_mut().expect("a frame");
        if let Some(out) = &mut self.zdd {
            if f.applied == NONE {
                // the sub-problem choosing nothing more here: the chain's base
                f.z = z;
            } else if z != 0 {
                let var = u64::from(self.plan.option_id[f.applied as usize]) + 1;
                f.z = out.node(var, f.z, z);
            }
        }
        let before = held_size(&f.sum);
        f.sum += &c;
        self.held += held_size(&f.sum) - before;
        if self.held > self.cache.cap {
            self.overflow = Some(self.held);
            self.cancelled = true;
        }
    }
}
