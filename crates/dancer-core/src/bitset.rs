//! The bitset engine: Algorithm X on machine words, for problems whose items
//! fit in at most 512 bits (pentominoes: 72 items; the 5x5x5 cubes: 125).
//!
//! # The idea
//!
//! Each option is a bit mask of its items, and the state of the search is a
//! single mask: the items covered so far. An option is still available
//! exactly when its mask does not meet that state, so nothing is ever
//! unlinked or relinked: trying an option is one OR, undoing it is popping a
//! stack, and testing one is one AND per word.
//!
//! The engine branches on the *first* uncovered primary item, in the
//! problem's item order, rather than on the one with the fewest options.
//! That makes the choice free and allows a second saving: since every
//! primary item before the chosen one is covered, an option that can cover
//! it has no primary item before it, so only the options whose first
//! primary item *is* the chosen one need testing (they are grouped by it).
//! For packing problems whose items are the cells in scanning order, this
//! is the classic "fill the first empty cell" search, and it is many times
//! faster per node than dancing links, with trees of comparable size. For
//! problems where the item order is a poor guide (n queens, exact covers
//! built without care for the order) the tree can be much larger than with
//! Knuth's rule; `EngineKind::Auto` (see [`crate::solve`]) only picks this
//! engine for problems that look like packings.
//!
//! Secondary items take part in the masks (an option meeting a covered
//! secondary item is unavailable) but are never chosen. Colours are not
//! supported here.
//!
//! # Counters
//!
//! `nodes` follows Knuth's definition (one per option tried, plus one per
//! solution), for this engine's own tree; `updates` counts the items covered
//! by the options tried (a word OR stands for that many unlinkings).

use crate::problem::{OptionId, Problem};
use crate::solve::Engine;
use crate::stats::Stats;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Largest number of items (primary plus secondary) the engine takes.
pub const MAX_ITEMS: usize = 512;

const CANCEL_MASK: u64 = 0xFFF;

/// Why the bitset engine cannot take a problem.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unsupported {
    #[error("the bitset engine does not support colours")]
    Colors,
    #[error("the bitset engine takes at most {MAX_ITEMS} items, not {0}")]
    TooManyItems(usize),
}

/// Whether the bitset engine can solve `problem`.
pub fn check(problem: &Problem) -> Result<(), Unsupported> {
    if problem.has_colors() {
        return Err(Unsupported::Colors);
    }
    if problem.n_items() > MAX_ITEMS {
        return Err(Unsupported::TooManyItems(problem.n_items()));
    }
    Ok(())
}

/// Builds the engine for `problem`, with the smallest word count that fits.
pub fn build(problem: &Problem) -> Result<Box<dyn Engine + '_>, Unsupported> {
    check(problem)?;
    Ok(match problem.n_items() {
        0..=64 => Box::new(Bitset::<1>::new(problem)),
        65..=128 => Box::new(Bitset::<2>::new(problem)),
        129..=256 => Box::new(Bitset::<4>::new(problem)),
        _ => Box::new(Bitset::<8>::new(problem)),
    })
}

type Mask<const W: usize> = [u64; W];

#[inline(always)]
fn meets<const W: usize>(a: &Mask<W>, b: &Mask<W>) -> bool {
    let mut m = 0;
    for k in 0..W {
        m |= a[k] & b[k];
    }
    m != 0
}

/// The order in which the first-uncovered-item rule meets the primary
/// items. Not the problem's own order, which may be poor (Knuth's 6x10
/// pentomino file lists the cells along the long side): the engine grows a
/// region greedily, starting from the item with the fewest options and
/// taking next the item that shares the most options with the items taken
/// so far (ties: the fewest options, then the first in the problem). On
/// packings this fills the board along a short front, the order that keeps
/// "the first empty cell" most constrained; and items such as "piece X is
/// placed", which share few options with any single cell, come last and
/// are never branched on.
pub fn branching_order(problem: &Problem) -> Vec<usize> {
    let np = problem.n_primary();
    let mut count = vec![0u64; np];
    let mut share = vec![0u32; np * np];
    let mut prim = Vec::new();
    for k in 0..problem.n_options() {
        if !problem.is_active(k) {
            continue;
        }
        prim.clear();
        prim.extend(problem.option(k).items().filter(|&i| i < np));
        for &a in &prim {
            count[a] += 1;
            for &b in &prim {
                if a != b {
                    share[a * np + b] += 1;
                }
            }
        }
    }
    // Locality: the largest share of an item's options that it has with
    // one other item. High for cells (most placements that cover a cell
    // cover its neighbour too), low for "piece X is placed" (no cell is in
    // more than a few of its placements). Cell-like items go first.
    let locality: Vec<f64> = (0..np)
        .map(|i| {
            let m = (0..np).map(|j| share[i * np + j]).max().unwrap_or(0);
            if count[i] == 0 {
                1.0
            } else {
                m as f64 / count[i] as f64
            }
        })
        .collect();
    let top = locality.iter().cloned().fold(0.0, f64::max);
    let cell_like: Vec<bool> = locality.iter().map(|&l| l >= 0.5 * top).collect();
    let mut taken = vec![false; np];
    let mut score = vec![0u64; np];
    let mut order = Vec::with_capacity(np);
    for _ in 0..np {
        let mut best = usize::MAX;
        for i in 0..np {
            if taken[i] {
                continue;
            }
            // the share of i's options that meet the region, as a fraction
            let frac = |i: usize| score[i] as f64 / count[i].max(1) as f64;
            let better = best == usize::MAX
                || (
                    cell_like[i],
                    frac(i),
                    std::cmp::Reverse(count[i]),
                    std::cmp::Reverse(i),
                ) > (
                    cell_like[best],
                    frac(best),
                    std::cmp::Reverse(count[best]),
                    std::cmp::Reverse(best),
                );
            if better {
                best = i;
            }
        }
        taken[best] = true;
        order.push(best);
        for i in 0..np {
            score[i] += share[best * np + i] as u64;
        }
    }
    order
}

/// The engine, for masks of `W` words.
pub struct Bitset<'p, const W: usize> {
    _problem: std::marker::PhantomData<&'p Problem>,
    /// The active options grouped by their first primary item (in the
    /// branching order): those of item `i` are `start[i]..start[i+1]`. Each
    /// group is scanned front to back, so the masks sit together, with the
    /// option numbers and sizes in parallel arrays.
    start: Vec<u32>,
    masks: Vec<Mask<W>>,
    ids: Vec<u32>,
    sizes: Vec<u32>,
    /// All primary items.
    primary: Mask<W>,
    // search state: at level l, `covered[l]` is the state before the choice,
    // `item[l]` the item chosen and `pos[l]` the index (in `masks`) of the
    // option being tried.
    covered: Vec<Mask<W>>,
    item: Vec<u32>,
    pos: Vec<u32>,
    level: usize,
    started: bool,
    done: bool,
    cancelled: bool,
    solution: Vec<OptionId>,
    stats: Stats,
    cancel: Option<Arc<AtomicBool>>,
}

impl<'p, const W: usize> Bitset<'p, W> {
    /// Panics if the problem does not fit: use [`build`] to check first.
    pub fn new(problem: &'p Problem) -> Self {
        assert!(problem.n_items() <= 64 * W && !problem.has_colors());
        let n = problem.n_items();
        let np = problem.n_primary();
        // pos_of[i]: the bit of item i; primary items take bits 0..np in
        // the branching order, secondary items the bits after.
        let order = branching_order(problem);
        let mut pos_of = vec![0usize; n];
        for (k, &i) in order.iter().enumerate() {
            pos_of[i] = k;
        }
        for (i, p) in pos_of.iter_mut().enumerate().skip(np) {
            *p = i;
        }
        let mut groups: Vec<Vec<(Mask<W>, u32, u32)>> = vec![Vec::new(); np];
        for k in 0..problem.n_options() {
            if !problem.is_active(k) {
                continue;
            }
            let mut m = [0u64; W];
            let mut lo = usize::MAX;
            for i in problem.option(k).items() {
                let b = pos_of[i];
                m[b / 64] |= 1 << (b % 64);
                if i < np {
                    lo = lo.min(b);
                }
            }
            groups[lo].push((m, k as u32, problem.option(k).len() as u32));
        }
        let mut start = Vec::with_capacity(np + 1);
        let mut masks = Vec::new();
        let mut ids = Vec::new();
        let mut sizes = Vec::new();
        for g in groups {
            start.push(masks.len() as u32);
            for (m, k, z) in g {
                masks.push(m);
                ids.push(k);
                sizes.push(z);
            }
        }
        start.push(masks.len() as u32);
        let mut primary = [0u64; W];
        for i in 0..np {
            primary[i / 64] |= 1 << (i % 64);
        }
        Bitset {
            _problem: std::marker::PhantomData,
            start,
            masks,
            ids,
            sizes,
            primary,
            covered: vec![[0; W]; np + 1],
            item: vec![0; np + 1],
            pos: vec![0; np + 1],
            level: 0,
            started: false,
            done: false,
            cancelled: false,
            solution: Vec::with_capacity(np),
            stats: Stats::new(np + 2),
            cancel: None,
        }
    }

    /// The first uncovered primary item, if any.
    #[inline(always)]
    fn first_open(&self, covered: &Mask<W>) -> Option<usize> {
        for (k, c) in covered.iter().enumerate() {
            let open = self.primary[k] & !c;
            if open != 0 {
                return Some(k * 64 + open.trailing_zeros() as usize);
            }
        }
        None
    }

    fn search(&mut self) -> bool {
        if self.done || self.cancelled {
            return false;
        }
        let mut level = self.level;
        let mut nodes = self.stats.nodes;
        let mut updates = self.stats.updates;
        let cancel = self.cancel.clone();
        // `resume`: continue with the next option at `level`.
        let mut resume = if !self.started {
            self.started = true;
            // the root: choose an item
            nodes += 1;
            self.stats.profile[0] += 1;
            match self.first_open(&self.covered[0]) {
                None => {
                    // no primary items to cover at all: the empty solution
                    self.done = true;
                    self.stats.solutions += 1;
                    self.solution.clear();
                    self.stats.nodes = nodes;
                    return true;
                }
                Some(i) => {
                    self.item[0] = i as u32;
                    self.pos[0] = self.start[i];
                }
            }
            false
        } else {
            true
        };
        let found = loop {
            let i = self.item[level] as usize;
            let end = self.start[i + 1] as usize;
            let mut p = self.pos[level] as usize + resume as usize;
            resume = false;
            let cov = self.covered[level];
            while p < end && meets(&self.masks[p], &cov) {
                p += 1;
            }
            if p == end {
                // backup
                if level == 0 {
                    self.done = true;
                    break false;
                }
                level -= 1;
                resume = true;
                continue;
            }
            self.pos[level] = p as u32;
            let m = self.masks[p];
            updates += self.sizes[p] as u64;
            let mut next = cov;
            for k in 0..W {
                next[k] |= m[k];
            }
            nodes += 1;
            match self.first_open(&next) {
                None => {
                    // a solution (counted as a node one level down)
                    self.stats.profile[level + 1] += 1;
                    break true;
                }
                Some(j) => {
                    level += 1;
                    self.stats.profile[level] += 1;
                    self.covered[level] = next;
                    self.item[level] = j as u32;
                    self.pos[level] = self.start[j];
                    if nodes & CANCEL_MASK == 0 {
                        if let Some(flag) = &cancel {
                            if flag.load(Ordering::Relaxed) {
                                self.cancelled = true;
                                break false;
                            }
                        }
                    }
                }
            }
        };
        self.level = level;
        self.stats.nodes = nodes;
        self.stats.updates = updates;
        if found {
            self.stats.solutions += 1;
            self.solution.clear();
            for l in 0..=level {
                self.solution.push(self.ids[self.pos[l] as usize] as usize);
            }
        }
        found
    }
}

impl<const W: usize> Engine for Bitset<'_, W> {
    fn next_solution(&mut self) -> Option<&[OptionId]> {
        if self.search() {
            Some(&self.solution)
        } else {
            None
        }
    }
    fn stats(&self) -> &Stats {
        &self.stats
    }
    fn is_complete(&self) -> bool {
        self.done
    }
    fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = Some(flag);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ProblemBuilder;

    #[test]
    fn toy() {
        let mut b = ProblemBuilder::new();
        for n in ["A", "B", "C", "D", "E"] {
            b.primary(n).unwrap();
        }
        for n in ["F", "G"] {
            b.secondary(n).unwrap();
        }
        for o in ["C E F", "A D G", "B C F", "A D", "B G", "D E G"] {
            b.option(o.split(' ')).unwrap();
        }
        let p = b.build().unwrap();
        let mut e = build(&p).unwrap();
        let mut sols = Vec::new();
        while let Some(s) = e.next_solution() {
            let mut s = s.to_vec();
            s.sort();
            sols.push(s);
        }
        assert_eq!(sols, vec![vec![0, 3, 4]]);
        assert!(e.is_complete());
    }
}
