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
//! Knuth's rule; [`crate::engines::choose_engine`] (what `auto` means) only
//! picks this engine where Knuth's estimate of both trees says it pays.
//!
//! # Testing options a block at a time
//!
//! Nearly all the time goes into testing the chosen item's options against
//! the state. On entering a node the engine tests a whole block of up to 64
//! of them at once and keeps the answer as a bitmap of the options that
//! fit (`fits`); the children are then the set bits, taken in order with
//! `trailing_zeros`. The test is branch-free, and the masks are also kept
//! word by word (all options' first words together, and so on), so that
//! with AVX2 (detected at run time) four options take one AND, one compare
//! and one `movemask` per word; without it a plain loop does the same.
//! Every option of a node is tested exactly once either way, so the tree
//! and the counters do not depend on it. (Grouping the options further by
//! piece, to skip the pieces already placed, tests fewer options but costs
//! more in branches than it saves; so did checking for items left with no
//! option.)
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

use super::api::{DescendError, Engine, EngineError, Unsupported};
use super::control::{Control, Search, Step};
use super::kind::EngineKind;
use crate::problem::{OptionId, Problem};
use crate::stats::{Estimate, Tally};

/// Largest number of items (primary plus secondary) the engine takes.
pub const MAX_ITEMS: usize = 512;

/// Options tested together: one bit each in a `u64`.
const BLOCK: usize = 64;

/// [`Bitset::block_fits`] with AVX2: four options per instruction.
///
/// # Safety
/// The CPU must have AVX2; `cols` must hold W columns of `stride` words
/// with `base + len + 3 < stride`, and `len <= 64`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn fits_avx2<const W: usize>(
    cols: &[u64],
    stride: usize,
    base: usize,
    len: usize,
    cov: &Mask<W>,
) -> u64 {
    use std::arch::x86_64::*;
    debug_assert!(len <= BLOCK && base + len + 3 < stride && cols.len() >= W * stride);
    let zero = _mm256_setzero_si256();
    let mut bits = 0u64;
    let mut j = 0;
    while j < len {
        let mut acc = zero;
        for (k, &c) in cov.iter().enumerate() {
            let at = k * stride + base + j;
            debug_assert!(at + 4 <= cols.len());
            // SAFETY: the four words at `at` are inside column k (the
            // caller's promise: base + len + 3 < stride, j < len), and
            // unaligned loads are allowed.
            let v = unsafe { _mm256_loadu_si256(cols.as_ptr().add(at).cast()) };
            acc = _mm256_or_si256(acc, _mm256_and_si256(v, _mm256_set1_epi64x(c as i64)));
        }
        let z = _mm256_cmpeq_epi64(acc, zero);
        bits |= (_mm256_movemask_pd(_mm256_castsi256_pd(z)) as u64) << j;
        j += 4;
    }
    bits
}

/// Whether the bitset engine can solve `problem`, and if not, why.
pub fn check(problem: &Problem) -> Result<(), Unsupported> {
    if problem.has_colors() {
        return Err(Unsupported::Colors);
    }
    if problem.has_multiplicities() {
        return Err(Unsupported::Multiplicities);
    }
    if problem.n_items() > MAX_ITEMS {
        return Err(Unsupported::TooManyItems {
            items: problem.n_items(),
            max: MAX_ITEMS,
        });
    }
    Ok(())
}

/// Knuth's estimate of the bitset engine's tree for `problem`.
pub fn estimate(problem: &Problem, probes: usize, seed: u64) -> Result<Estimate, Unsupported> {
    check(problem)?;
    Ok(match problem.n_items() {
        0..=64 => Bitset::<1>::new(problem).estimate(probes, seed),
        65..=128 => Bitset::<2>::new(problem).estimate(probes, seed),
        129..=256 => Bitset::<4>::new(problem).estimate(probes, seed),
        _ => Bitset::<8>::new(problem).estimate(probes, seed),
    })
}

/// Builds the engine for `problem`, with the smallest word count that fits.
pub fn build(problem: &Problem) -> Result<Box<dyn Engine + '_>, EngineError> {
    check(problem).map_err(|reason| EngineError::Unsupported {
        engine: EngineKind::Bitset,
        reason,
    })?;
    Ok(match problem.n_items() {
        0..=64 => Box::new(Bitset::<1>::new(problem)),
        65..=128 => Box::new(Bitset::<2>::new(problem)),
        129..=256 => Box::new(Bitset::<4>::new(problem)),
        _ => Box::new(Bitset::<8>::new(problem)),
    })
}

type Mask<const W: usize> = [u64; W];

#[inline(always)]
fn or_into<const W: usize>(a: &mut Mask<W>, b: &Mask<W>) {
    for (x, y) in a.iter_mut().zip(b) {
        *x |= y;
    }
}

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
    // whether item i goes before item b: cell-like first, then the larger
    // share of its options that meet the region (score / count, compared
    // exactly by cross-multiplying), then fewer options; on a full tie the
    // earlier item (the scan below goes up and keeps the first best)
    let better = |i: usize, b: usize, score: &[u64]| -> bool {
        if cell_like[i] != cell_like[b] {
            return cell_like[i];
        }
        let fi = u128::from(score[i]) * u128::from(count[b].max(1));
        let fb = u128::from(score[b]) * u128::from(count[i].max(1));
        fi > fb || (fi == fb && count[i] < count[b])
    };
    for _ in 0..np {
        let mut best = usize::MAX;
        for (i, &t) in taken.iter().enumerate() {
            if !t && (best == usize::MAX || better(i, best, &score)) {
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
    /// The same masks word by word (word k of option p at `cols[k * stride
    /// + p]`), so that a block of options is tested with a few vector
    /// instructions; `stride` leaves room for reads past the last option.
    cols: Vec<u64>,
    stride: usize,
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
    /// The block of options under test at each level (its first option)
    /// and which of them still fit and are untried (bit j: option
    /// `block[l] + j`).
    block: Vec<u32>,
    fits: Vec<u64>,
    level: usize,
    /// Whether the CPU has AVX2 (the block test then uses it).
    avx2: bool,
    phase: Phase,
    ctl: Control,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// The node at the floor is still to be entered.
    Fresh,
    /// Trying the options at `level` given by `block` and `fits`.
    Scanning,
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
        let stride = masks.len() + BLOCK;
        let mut cols = vec![0u64; W * stride];
        for (p, m) in masks.iter().enumerate() {
            for (k, &x) in m.iter().enumerate() {
                cols[k * stride + p] = x;
            }
        }
        let mut primary = [0u64; W];
        for i in 0..np {
            primary[i / 64] |= 1 << (i % 64);
        }
        Bitset {
            _problem: std::marker::PhantomData,
            start,
            masks,
            cols,
            stride,
            ids,
            sizes,
            primary,
            covered: vec![[0; W]; np + 1],
            item: vec![0; np + 1],
            pos: vec![0; np + 1],
            block: vec![0; np + 1],
            fits: vec![0; np + 1],
            level: 0,
            avx2: crate::cpu::avx2(),
            phase: Phase::Fresh,
            ctl: Control::new(np + 2),
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

    /// The options of the block starting at `base` (at most [`BLOCK`], up
    /// to `end`) that do not meet `cov`, as a bitmap.
    #[inline(always)]
    fn block_fits<const AVX2: bool>(&self, base: usize, end: usize, cov: &Mask<W>) -> u64 {
        let len = (end - base).min(BLOCK);
        let all = if len == BLOCK { !0 } else { (1u64 << len) - 1 };
        #[cfg(target_arch = "x86_64")]
        if AVX2 {
            // SAFETY: AVX2 is available (checked when the engine was
            // built); the reads stay below `base + len + 3 < stride` in
            // each word's column, and `cols` holds W columns.
            return unsafe { fits_avx2(&self.cols, self.stride, base, len, cov) } & all;
        }
        let mut bits = 0u64;
        for j in 0..len {
            let mut m = 0;
            for (k, c) in cov.iter().enumerate() {
                m |= self.cols[k * self.stride + base + j] & c;
            }
            bits |= ((m == 0) as u64) << j;
        }
        bits
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn step_avx2(&mut self) -> Step {
        self.step_with::<true>()
    }

    #[inline(always)]
    fn step_with<const AVX2: bool>(&mut self) -> Step {
        let floor = self.ctl.floor;
        match self.phase {
            Phase::Fresh => {
                // enter the node at the floor
                self.ctl.stats.nodes += 1;
                self.ctl.stats.profile[floor] += 1;
                self.level = floor;
                match self.first_open(&self.covered[floor]) {
                    None => {
                        // nothing left to cover: the empty (or prefix) solution
                        self.record(floor as isize - 1);
                        return Step::LastSolution;
                    }
                    Some(i) => {
                        let f = floor;
                        self.item[f] = i as u32;
                        let a = self.start[i] as usize;
                        self.block[f] = a as u32;
                        self.fits[f] = self.block_fits::<AVX2>(
                            a,
                            self.start[i + 1] as usize,
                            &self.covered[f],
                        );
                        self.phase = Phase::Scanning;
                    }
                }
            }
            Phase::Scanning => {}
        }
        let mut level = self.level;
        let mut block = self.block[level] as usize;
        let mut fits = self.fits[level];
        let mut nodes = self.ctl.stats.nodes;
        let mut updates = self.ctl.stats.updates;
        let frontier = self.ctl.frontier;
        let pause_at = self.ctl.pause_at;
        let cancel = self.ctl.cancel.clone();
        let step = loop {
            if fits == 0 {
                let end = self.start[self.item[level] as usize + 1] as usize;
                if block + BLOCK < end {
                    // the next block of this item's options
                    block += BLOCK;
                    fits = self.block_fits::<AVX2>(block, end, &self.covered[level]);
                    continue;
                }
                // backup
                if level == floor {
                    break Step::Done;
                }
                level -= 1;
                block = self.block[level] as usize;
                fits = self.fits[level];
                continue;
            }
            let p = block + fits.trailing_zeros() as usize;
            fits &= fits - 1;
            self.pos[level] = p as u32;
            let mut next = self.covered[level];
            or_into(&mut next, &self.masks[p]);
            match self.first_open(&next) {
                None => {
                    // a solution (counted as a node one level down)
                    nodes += 1;
                    updates += self.sizes[p] as u64;
                    self.ctl.stats.profile[level + 1] += 1;
                    break Step::Solution;
                }
                Some(_) if level + 1 == frontier => {
                    // the node below is the root of a unit, counted there;
                    // covering its items is counted here, as in the full search
                    updates += self.sizes[p] as u64;
                    break Step::Frontier;
                }
                Some(j) => {
                    nodes += 1;
                    updates += self.sizes[p] as u64;
                    self.block[level] = block as u32;
                    self.fits[level] = fits;
                    level += 1;
                    self.ctl.stats.profile[level] += 1;
                    self.covered[level] = next;
                    self.item[level] = j as u32;
                    block = self.start[j] as usize;
                    fits = self.block_fits::<AVX2>(block, self.start[j + 1] as usize, &next);
                    if Control::cancelled(&cancel, nodes) {
                        break Step::Cancelled;
                    }
                    if nodes >= pause_at {
                        break Step::Pause;
                    }
                }
            }
        };
        self.ctl.stats.nodes = nodes;
        self.ctl.stats.updates = updates;
        self.block[level] = block as u32;
        self.fits[level] = fits;
        self.level = level;
        if matches!(step, Step::Solution | Step::Frontier) {
            self.record(level as isize);
        }
        step
    }

    /// Knuth's estimate of the size of this engine's search tree: `probes`
    /// random paths.
    pub fn estimate(&self, probes: usize, seed: u64) -> Estimate {
        let mut next_rand = crate::stats::xorshift(seed);
        let mut t = Tally::default();
        let mut ok: Vec<usize> = Vec::new();
        for _ in 0..probes.max(1) {
            let mut weight = 1.0f64;
            let mut cov = [0u64; W];
            loop {
                t.node(weight);
                let Some(i) = self.first_open(&cov) else {
                    break;
                };
                let (a, b) = (self.start[i] as usize, self.start[i + 1] as usize);
                ok.clear();
                ok.extend((a..b).filter(|&p| !meets(&self.masks[p], &cov)));
                if ok.is_empty() {
                    break;
                }
                let p = ok[(next_rand() % ok.len() as u64) as usize];
                or_into(&mut cov, &self.masks[p]);
                weight *= ok.len() as f64;
                // every branch covers about as many items as this one
                t.updates(weight * self.sizes[p] as f64);
            }
            t.end_probe();
            if t.small_tree() {
                break;
            }
        }
        t.finish()
    }

    /// Puts the options chosen at levels 0..=top (and their groups' sizes)
    /// into `solution` and `degrees`.
    fn record(&mut self, top: isize) {
        let (ids, pos, item, start) = (&self.ids, &self.pos, &self.item, &self.start);
        let path = (0..top + 1).map(|l| {
            let l = l as usize;
            let i = item[l] as usize;
            (ids[pos[l] as usize] as usize, start[i + 1] - start[i])
        });
        self.ctl.record(path);
    }
}

impl<const W: usize> Search for Bitset<'_, W> {
    crate::engines::control::control_in_ctl!();

    fn step(&mut self) -> Step {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: AVX2 was detected when the engine was built.
            return unsafe { self.step_avx2() };
        }
        self.step_with::<false>()
    }

    fn rewind(&mut self) {
        self.phase = Phase::Fresh;
        self.level = 0;
        self.covered[0] = [0; W];
    }

    fn follow(&mut self, prefix: &[OptionId]) -> Result<bool, DescendError> {
        for (l, &o) in prefix.iter().enumerate() {
            let bad = DescendError::NotChosenHere {
                level: l,
                option: o,
            };
            let Some(i) = self.first_open(&self.covered[l]) else {
                return Err(bad);
            };
            let (a, b) = (self.start[i] as usize, self.start[i + 1] as usize);
            let Some(p) = (a..b).find(|&p| self.ids[p] as usize == o) else {
                return Err(bad);
            };
            if meets(&self.masks[p], &self.covered[l]) {
                return Err(bad);
            }
            self.item[l] = i as u32;
            self.pos[l] = p as u32;
            let mut next = self.covered[l];
            or_into(&mut next, &self.masks[p]);
            self.covered[l + 1] = next;
        }
        self.level = prefix.len();
        Ok(false)
    }

    fn position(&self) -> f64 {
        if self.phase != Phase::Scanning {
            return 0.0;
        }
        let mut f = 0.0;
        let mut w = 1.0;
        for l in self.ctl.floor..=self.level {
            let i = self.item[l] as usize;
            let (a, b) = (self.start[i], self.start[i + 1]);
            // the options before the next one to try
            let at = if l == self.level {
                let f = self.fits[l];
                if f == 0 {
                    (self.block[l] + BLOCK as u32).min(b)
                } else {
                    self.block[l] + f.trailing_zeros()
                }
            } else {
                self.pos[l]
            };
            w /= (b - a).max(1) as f64;
            f += at.saturating_sub(a) as f64 * w;
        }
        f
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

    /// Every solution of `e` (sorted option lists, in the order found) and
    /// its node and update counts.
    fn run<const W: usize>(mut e: Bitset<'_, W>) -> (Vec<Vec<usize>>, u64, u64) {
        let mut sols = Vec::new();
        while let Some(s) = e.next_solution() {
            let mut s = s.to_vec();
            s.sort();
            sols.push(s);
        }
        assert!(e.is_complete());
        (sols, e.ctl.stats.nodes, e.ctl.stats.updates)
    }

    /// The portable block test and the AVX2 one (when the CPU has it) give
    /// the same tree, with groups longer than one block (queens) and masks
    /// of one, two and four words.
    #[test]
    fn block_tests_agree() {
        let problems = [
            crate::classic::queens(8),
            crate::classic::langford(7),
            crate::classic::queens(20),
            crate::classic::langford(16),
            crate::classic::queens(33),
        ];
        for (n, p) in problems.iter().enumerate() {
            let limit = if n >= 2 { 50 } else { usize::MAX };
            let both = |avx2: bool| -> (Vec<Vec<usize>>, u64, u64) {
                macro_rules! go {
                    ($w:literal) => {{
                        let mut e = Bitset::<$w>::new(p);
                        e.avx2 = avx2 && e.avx2;
                        let mut sols = Vec::new();
                        while let Some(s) = e.next_solution() {
                            let mut s = s.to_vec();
                            s.sort();
                            sols.push(s);
                            if sols.len() == limit {
                                break;
                            }
                        }
                        (sols, e.ctl.stats.nodes, e.ctl.stats.updates)
                    }};
                }
                match p.n_items() {
                    0..=64 => go!(1),
                    65..=128 => go!(2),
                    _ => go!(4),
                }
            };
            let (a, b) = (both(true), both(false));
            assert!(!a.0.is_empty());
            for s in &a.0 {
                crate::verify(p, s).unwrap();
            }
            assert_eq!(a, b, "problem {n}");
        }
        // groups longer than one block: A and B each take one of 100
        // secondary items, not the same one: 100 * 99 solutions
        let mut b = ProblemBuilder::new();
        b.primary("A").unwrap();
        b.primary("B").unwrap();
        for i in 0..100 {
            b.secondary(&format!("s{i}")).unwrap();
        }
        for i in 0..100 {
            b.option(["A".to_string(), format!("s{i}")]).unwrap();
            b.option(["B".to_string(), format!("s{i}")]).unwrap();
        }
        let p = b.build().unwrap();
        for avx2 in [true, false] {
            let mut e = Bitset::<2>::new(&p);
            e.avx2 = avx2 && e.avx2;
            let (sols, nodes, _) = run(e);
            assert_eq!(sols.len(), 9900);
            assert_eq!(nodes, 1 + 100 + 9900);
            for s in &sols {
                crate::verify(&p, s).unwrap();
            }
        }
        // and the whole count of 8 queens with the portable test
        let p = crate::classic::queens(8);
        let mut e = Bitset::<1>::new(&p);
        e.avx2 = false;
        assert_eq!(run(e).0.len(), 92);
    }
}
