//! The plan of a count: the branching order (the problem's own, or one
//! grown from the item with the fewest options, whichever keeps the front
//! narrower), each item's first and last positions, the frontier of every
//! position and the options' masks, built once from the problem.

use super::{MemoError, EXCLUSIVE};
use crate::problem::Problem;

/// Everything the search reads, built once from the problem.
pub(super) struct Plan {
    /// Primary items.
    pub(super) np: usize,
    /// Words of the state.
    pub(super) words: usize,
    /// The primary item at each position.
    pub(super) order: Vec<u32>,
    /// Each item's bit: word and mask.
    pub(super) bit: Vec<(u32, u64)>,
    /// Options by position: those at `p` are `at[p]..at[p + 1]` (indices
    /// into the per-option arrays below).
    pub(super) at: Vec<u32>,
    /// Per option: its masks are `masks[mask_at[k]..mask_at[k + 1]]`.
    pub(super) mask_at: Vec<u32>,
    pub(super) masks: Vec<(u32, u64)>,
    /// Per option: its coloured entries (coloured slot, colour or
    /// [`EXCLUSIVE`]) are `cents[cent_at[k]..cent_at[k + 1]]`.
    pub(super) cent_at: Vec<u32>,
    pub(super) cents: Vec<(u32, u32)>,
    /// Per option: the slots of its items with multiplicities are
    /// `ments[ment_at[k]..ment_at[k + 1]]`.
    pub(super) ment_at: Vec<u32>,
    pub(super) ments: Vec<u32>,
    /// The problem's option number of each option here.
    pub(super) option_id: Vec<u32>,
    /// The item of each slot: a coloured secondary item (its value a
    /// colour) or a primary item with a multiplicity (its value how many
    /// options chosen cover it).
    pub(super) colored: Vec<u32>,
    /// The most times each slot's item may be covered (0 for a colour).
    pub(super) slot_max: Vec<u32>,
    /// The slot of the item at each position (`u32::MAX`: exactly once),
    /// and the least times it must be covered.
    pub(super) pos_slot: Vec<u32>,
    pub(super) pos_min: Vec<u32>,
    /// Frontier of each position: masks `fw[fw_at[p]..fw_at[p + 1]]`,
    /// coloured slots `fc[fc_at[p]..fc_at[p + 1]]`.
    pub(super) fw_at: Vec<u32>,
    pub(super) fw: Vec<(u32, u64)>,
    pub(super) fc_at: Vec<u32>,
    pub(super) fc: Vec<u32>,
    /// Frontier of a multiplicity's position entered again after an
    /// option chosen there (also the items with `first(x) = p`); empty at
    /// other positions.
    pub(super) gw_at: Vec<u32>,
    pub(super) gw: Vec<(u32, u64)>,
    pub(super) gc_at: Vec<u32>,
    pub(super) gc: Vec<u32>,
    /// `first(x)` of each item (`np` for an item in no option).
    pub(super) first: Vec<u32>,
    pub(super) width: usize,
    pub(super) own_order: bool,
}

/// Most frontier words a plan builds, over all positions together.
pub(super) const MAX_FRONTIER_WORDS: usize = 1 << 24;

impl Plan {
    /// The plan of `problem`, or why the counter cannot take it.
    pub fn new(problem: &Problem, memory: usize) -> Result<Plan, MemoError> {
        let np = problem.n_primary();
        let n = problem.n_items();
        // the order with the narrowest frontier: the problem's own (on a
        // tie), grown greedily, or breadth first
        let (order, own_order) = best_order(problem);
        let layout = Layout::new(problem, &order);
        let bit = layout.bits();
        let words = n.div_ceil(64).max(1);
        let (slot, colored, slot_max) = layout.slots(problem);
        let pos_slot: Vec<u32> = order.iter().map(|&i| slot[i as usize]).collect();
        let pos_min: Vec<u32> = order
            .iter()
            .map(|&i| problem.bounds(i as usize).0)
            .collect();
        let options = OptionTables::new(problem, &layout, &bit, &slot);
        let f = Frontiers::new(&layout, &bit, &slot, &pos_slot, words, memory)?;
        Ok(Plan {
            np,
            words,
            order,
            bit,
            at: options.at,
            mask_at: options.mask_at,
            masks: options.masks,
            cent_at: options.cent_at,
            cents: options.cents,
            ment_at: options.ment_at,
            ments: options.ments,
            option_id: options.option_id,
            colored,
            slot_max,
            pos_slot,
            pos_min,
            fw_at: f.fw_at,
            fw: f.fw,
            fc_at: f.fc_at,
            fc: f.fc,
            gw_at: f.gw_at,
            gw: f.gw,
            gc_at: f.gc_at,
            gc: f.gc,
            first: layout.first,
            width: f.width,
            own_order,
        })
    }

    /// The frontier of position `p`: its masks and its slots; `again`
    /// when the position is entered again after an option chosen there.
    #[inline]
    pub(super) fn frontier(&self, p: usize, again: bool) -> (&[(u32, u64)], &[u32]) {
        if again {
            (
                &self.gw[self.gw_at[p] as usize..self.gw_at[p + 1] as usize],
                &self.gc[self.gc_at[p] as usize..self.gc_at[p + 1] as usize],
            )
        } else {
            (
                &self.fw[self.fw_at[p] as usize..self.fw_at[p + 1] as usize],
                &self.fc[self.fc_at[p] as usize..self.fc_at[p + 1] as usize],
            )
        }
    }

    /// Checks the plan against its definition (Knuth's `sanity()`, for
    /// tests): panics on the first broken invariant.
    pub fn sanity(&self, problem: &Problem) {
        let np = self.np;
        let mut pos = vec![usize::MAX; np];
        for (p, &i) in self.order.iter().enumerate() {
            assert_eq!(pos[i as usize], usize::MAX, "item {i} twice in the order");
            pos[i as usize] = p;
        }
        let n = problem.n_items();
        let mut first = vec![np; n];
        let mut last = vec![0usize; n];
        for p in 0..np {
            for k in self.at[p] as usize..self.at[p + 1] as usize {
                let o = problem.option(self.option_id[k] as usize);
                let min = o.items().filter(|&i| i < np).map(|i| pos[i]).min();
                assert_eq!(
                    min,
                    Some(p),
                    "option {} at the wrong position",
                    self.option_id[k]
                );
                let mut want = vec![0u64; self.words];
                for e in o.entries() {
                    first[e.item] = first[e.item].min(p);
                    last[e.item] = last[e.item].max(p);
                    if !self.colored.contains(&(e.item as u32)) {
                        let (w, b) = self.bit[e.item];
                        want[w as usize] |= b;
                    } else {
                        let s = self.colored.iter().position(|&x| x == e.item as u32);
                        let s = s.expect("a slot") as u32;
                        let ms =
                            &self.ments[self.ment_at[k] as usize..self.ment_at[k + 1] as usize];
                        assert_eq!(
                            ms.contains(&s),
                            problem.bounds(e.item) != (1, 1) && e.item < np,
                            "multiplicity slots of option {}",
                            self.option_id[k]
                        );
                    }
                }
                let mut got = vec![0u64; self.words];
                for &(w, m) in &self.masks[self.mask_at[k] as usize..self.mask_at[k + 1] as usize] {
                    assert_eq!(got[w as usize] & m, 0, "a word twice in an option's masks");
                    got[w as usize] |= m;
                }
                assert_eq!(got, want, "masks of option {}", self.option_id[k]);
            }
        }
        for x in 0..n {
            assert_eq!(self.first[x] as usize, first[x], "first({x})");
        }
        for (i, &q) in pos.iter().enumerate() {
            last[i] = last[i].max(q);
        }
        for p in 0..np {
            let mut want = vec![0u64; self.words];
            for x in 0..n {
                if first[x] < p && p <= last[x] {
                    let (w, b) = self.bit[x];
                    want[w as usize] |= b;
                }
            }
            let mut got = vec![0u64; self.words];
            for &(w, m) in &self.fw[self.fw_at[p] as usize..self.fw_at[p + 1] as usize] {
                got[w as usize] |= m;
            }
            assert_eq!(got, want, "frontier of position {p}");
        }
        let active = (0..problem.n_options())
            .filter(|&k| problem.is_active(k))
            .count();
        assert_eq!(self.option_id.len(), active, "every active option once");
    }
}

/// Where the items sit once the order is fixed: each active option's
/// position, `first(x)` and `last(x)` of each item, and which items carry
/// a colour or a multiplicity.
struct Layout {
    /// `first(x)` of each item (`np` for an item in no option).
    first: Vec<u32>,
    /// `last(x)` of each item.
    last: Vec<u32>,
    /// Items with a colour in some option.
    colored_item: Vec<bool>,
    /// Primary items with bounds other than exactly once.
    mult_item: Vec<bool>,
    /// The active options at each position.
    by_pos: Vec<Vec<u32>>,
}

impl Layout {
    fn new(problem: &Problem, order: &[u32]) -> Layout {
        let np = problem.n_primary();
        let n = problem.n_items();
        let mut pos = vec![u32::MAX; np];
        for (p, &i) in order.iter().enumerate() {
            pos[i as usize] = p as u32;
        }
        // each active option's position, and first/last of each item
        let mut first = vec![np as u32; n];
        let mut last = vec![0u32; n];
        let mut colored_item = vec![false; n];
        // primary items with bounds other than exactly once
        let mult_item: Vec<bool> = (0..n)
            .map(|x| x < np && problem.bounds(x) != (1, 1))
            .collect();
        let mut by_pos: Vec<Vec<u32>> = vec![Vec::new(); np];
        for k in 0..problem.n_options() {
            if !problem.is_active(k) {
                continue;
            }
            let o = problem.option(k);
            let p = o
                .items()
                .filter(|&i| i < np)
                .map(|i| pos[i])
                .min()
                .expect("an active option has a primary item");
            by_pos[p as usize].push(k as u32);
            for e in o.entries() {
                first[e.item] = first[e.item].min(p);
                last[e.item] = last[e.item].max(p);
                if e.color != 0 {
                    colored_item[e.item] = true;
                }
            }
        }
        // a primary item's state matters up to its own position (until
        // then, uncovered, it still has to be covered), however early the
        // last option that contains it
        for (i, &q) in pos.iter().enumerate() {
            last[i] = last[i].max(q);
        }
        Layout {
            first,
            last,
            colored_item,
            mult_item,
            by_pos,
        }
    }

    /// Each item's bit (word and mask), numbered by `first(x)`, then by
    /// item.
    fn bits(&self) -> Vec<(u32, u64)> {
        let n = self.first.len();
        let mut byfirst: Vec<u32> = (0..n as u32).collect();
        byfirst.sort_by_key(|&x| (self.first[x as usize], x));
        let mut bit = vec![(0u32, 0u64); n];
        for (b, &x) in byfirst.iter().enumerate() {
            bit[x as usize] = ((b / 64) as u32, 1u64 << (b % 64));
        }
        bit
    }

    /// The slot of each item (`u32::MAX`: none), the item of each slot and
    /// the most times each slot's item may be covered (0 for a colour).
    fn slots(&self, problem: &Problem) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
        let n = self.first.len();
        let mut slot = vec![u32::MAX; n];
        let mut colored = Vec::new();
        let mut slot_max = Vec::new();
        for x in 0..n {
            if self.colored_item[x] || self.mult_item[x] {
                slot[x] = colored.len() as u32;
                colored.push(x as u32);
                slot_max.push(if self.mult_item[x] {
                    problem.bounds(x).1
                } else {
                    0
                });
            }
        }
        (slot, colored, slot_max)
    }
}

/// The options grouped by position, and per option its masks, coloured
/// entries and multiplicity slots (the fields of the same names in
/// [`Plan`]).
#[derive(Default)]
struct OptionTables {
    at: Vec<u32>,
    mask_at: Vec<u32>,
    masks: Vec<(u32, u64)>,
    cent_at: Vec<u32>,
    cents: Vec<(u32, u32)>,
    ment_at: Vec<u32>,
    ments: Vec<u32>,
    option_id: Vec<u32>,
}

impl OptionTables {
    fn new(problem: &Problem, layout: &Layout, bit: &[(u32, u64)], slot: &[u32]) -> OptionTables {
        let mut t = OptionTables::default();
        // each table of ranges starts at 0
        for at in [&mut t.at, &mut t.mask_at, &mut t.cent_at, &mut t.ment_at] {
            at.push(0);
        }
        for ks in &layout.by_pos {
            for &k in ks {
                let o = problem.option(k as usize);
                let mut m: Vec<(u32, u64)> = Vec::new();
                for e in o.entries() {
                    if layout.colored_item[e.item] {
                        let c = if e.color == 0 { EXCLUSIVE } else { e.color };
                        t.cents.push((slot[e.item], c));
                    } else if layout.mult_item[e.item] {
                        t.ments.push(slot[e.item]);
                    } else {
                        let (w, b) = bit[e.item];
                        match m.iter_mut().find(|(mw, _)| *mw == w) {
                            Some((_, mb)) => *mb |= b,
                            None => m.push((w, b)),
                        }
                    }
                }
                m.sort_unstable();
                t.masks.extend(m);
                t.mask_at.push(t.masks.len() as u32);
                t.cent_at.push(t.cents.len() as u32);
                t.ment_at.push(t.ments.len() as u32);
                t.option_id.push(k);
            }
            t.at.push(t.option_id.len() as u32);
        }
        t
    }
}

/// The frontier of every position, and of every multiplicity's position
/// entered again (the fields of the same names in [`Plan`]), and the
/// widest of them.
#[derive(Default)]
struct Frontiers {
    fw_at: Vec<u32>,
    fw: Vec<(u32, u64)>,
    fc_at: Vec<u32>,
    fc: Vec<u32>,
    gw_at: Vec<u32>,
    gw: Vec<(u32, u64)>,
    gc_at: Vec<u32>,
    gc: Vec<u32>,
    width: usize,
}

impl Frontiers {
    fn new(
        layout: &Layout,
        bit: &[(u32, u64)],
        slot: &[u32],
        pos_slot: &[u32],
        words: usize,
        memory: usize,
    ) -> Result<Frontiers, MemoError> {
        let np = layout.by_pos.len();
        let n = layout.first.len();
        let (first, last) = (&layout.first, &layout.last);
        // frontiers: x is in the frontier of p when first(x) < p <= last(x)
        let mut enter: Vec<Vec<u32>> = vec![Vec::new(); np + 1];
        let mut leave: Vec<Vec<u32>> = vec![Vec::new(); np + 2];
        for x in 0..n {
            if (first[x] as usize) < np && last[x] > first[x] {
                enter[first[x] as usize + 1].push(x as u32);
                leave[last[x] as usize + 1].push(x as u32);
            }
        }
        let mut cur = vec![0u64; words];
        let mut curc: Vec<u32> = Vec::new();
        let mut f = Frontiers::default();
        // each table of ranges starts at 0
        for at in [&mut f.fw_at, &mut f.fc_at, &mut f.gw_at, &mut f.gc_at] {
            at.push(0);
        }
        // the items whose first position is p, by position (their bits
        // are consecutive)
        let mut first_at: Vec<Vec<u32>> = vec![Vec::new(); np];
        for x in 0..n {
            if (first[x] as usize) < np {
                first_at[first[x] as usize].push(x as u32);
            }
        }
        let mut size = 0usize;
        let budget = MAX_FRONTIER_WORDS.min(memory / 16).max(1 << 16);
        for p in 0..np {
            for &x in &enter[p] {
                let (w, b) = bit[x as usize];
                cur[w as usize] |= b;
                size += 1;
                if slot[x as usize] != u32::MAX {
                    curc.push(slot[x as usize]);
                }
            }
            for &x in &leave[p] {
                let (w, b) = bit[x as usize];
                cur[w as usize] &= !b;
                size -= 1;
                if slot[x as usize] != u32::MAX {
                    curc.retain(|&s| s != slot[x as usize]);
                }
            }
            f.width = f.width.max(size);
            push_words(&mut f.fw, &cur);
            curc.sort_unstable();
            f.fc.extend_from_slice(&curc);
            if pos_slot[p] != u32::MAX {
                f.again(&cur, &curc, &first_at[p], bit, slot, size);
            }
            f.gw_at.push(f.gw.len() as u32);
            f.gc_at.push(f.gc.len() as u32);
            if f.fw.len() + f.fc.len() + f.gw.len() + f.gc.len() > budget {
                if budget < MAX_FRONTIER_WORDS {
                    // the tables, not one position, outgrow the memory
                    return Err(MemoError::Frontier {
                        positions: np,
                        cap: memory,
                    });
                }
                return Err(MemoError::TooWide { width: f.width });
            }
            f.fw_at.push(f.fw.len() as u32);
            f.fc_at.push(f.fc.len() as u32);
        }
        Ok(f)
    }

    /// A multiplicity's position is entered again after each option
    /// chosen there: then the items those options may have covered
    /// (`first_here`, those with first(x) = p) are part of the state too.
    fn again(
        &mut self,
        cur: &[u64],
        curc: &[u32],
        first_here: &[u32],
        bit: &[(u32, u64)],
        slot: &[u32],
        size: usize,
    ) {
        let mut g = cur.to_vec();
        let mut gcs = curc.to_vec();
        for &x in first_here {
            let (w, b) = bit[x as usize];
            g[w as usize] |= b;
            if slot[x as usize] != u32::MAX && !gcs.contains(&slot[x as usize]) {
                gcs.push(slot[x as usize]);
            }
        }
        self.width = self.width.max(size + first_here.len());
        push_words(&mut self.gw, &g);
        gcs.sort_unstable();
        self.gc.extend_from_slice(&gcs);
    }
}

/// Appends the nonzero words of `cur` with their indices.
fn push_words(out: &mut Vec<(u32, u64)>, cur: &[u64]) {
    for (w, &m) in cur.iter().enumerate() {
        if m != 0 {
            out.push((w as u32, m));
        }
    }
}

/// `first(x)` and `last(x)` of every item (see the module's prose) when
/// the primary items are met in `order` (`u32::MAX` and 0 for an item in
/// no option), and how many options sit at each position.
pub(super) fn spans(problem: &Problem, order: &[u32]) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let np = problem.n_primary();
    let n = problem.n_items();
    let mut pos = vec![0u32; np];
    for (p, &i) in order.iter().enumerate() {
        pos[i as usize] = p as u32;
    }
    let mut first = vec![u32::MAX; n];
    let mut last = vec![0u32; n];
    let mut at = vec![0u32; np];
    for o in problem.options() {
        let Some(p) = o.items().filter(|&i| i < np).map(|i| pos[i]).min() else {
            continue;
        };
        at[p as usize] += 1;
        for x in o.items() {
            first[x] = first[x].min(p);
            last[x] = last[x].max(p);
        }
    }
    for (i, &q) in pos.iter().enumerate() {
        last[i] = last[i].max(q);
    }
    (first, last, at)
}

/// The order the counter branches in: the narrowest of the problem's own,
/// grown greedily, or breadth first (on a tie the problem's own); and
/// whether it is the problem's own.
pub(super) fn best_order(problem: &Problem) -> (Vec<u32>, bool) {
    let np = problem.n_primary();
    let own: Vec<u32> = (0..np as u32).collect();
    let mut best = (frontier_size(problem, &own), own, true);
    if let Some(shares) = Shares::new(problem) {
        for o in [shares.grown(), shares.breadth_first()] {
            let size = frontier_size(problem, &o);
            if size < best.0 {
                best = (size, o, false);
            }
        }
    }
    (best.1, best.2)
}

/// The most frontier items at one position, and their sum over the
/// positions, when the primary items are met in `order`.
pub(super) fn frontier_size(problem: &Problem, order: &[u32]) -> (usize, usize) {
    let np = problem.n_primary();
    let n = problem.n_items();
    let (first, last, _) = spans(problem, order);
    let mut delta = vec![0i64; np + 2];
    for x in 0..n {
        if first[x] != u32::MAX && last[x] > first[x] {
            delta[first[x] as usize + 1] += 1;
            delta[last[x] as usize + 1] -= 1;
        }
    }
    let (mut cur, mut max, mut sum) = (0i64, 0usize, 0usize);
    for d in delta.iter().take(np + 1) {
        cur += d;
        max = max.max(cur as usize);
        sum += cur as usize;
    }
    (max, sum)
}

/// Most pairs of primary items in options that the grown orders look at.
pub(super) const MAX_GROW_PAIRS: u64 = 1 << 27;

/// Which primary items share options: what the grown orders are grown
/// from.
pub(super) struct Shares {
    /// Options containing each primary item (indices into `prims`).
    pub(super) of: Vec<Vec<u32>>,
    /// The primary items of each active option.
    pub(super) prims: Vec<Vec<u32>>,
    /// Options of each primary item.
    pub(super) count: Vec<u32>,
    /// Cell-like items (see [`crate::engines::bitset::branching_order`]): the
    /// largest share of an item's options that it has with one other item
    /// is at least half the largest such share of any item. Squares of a
    /// board are; "piece X is placed" is not, and goes last.
    pub(super) cell_like: Vec<bool>,
}

impl Shares {
    /// `None` when the options are too long to look at every pair.
    pub(super) fn new(problem: &Problem) -> Option<Shares> {
        let np = problem.n_primary();
        let mut pairs = 0u64;
        let mut of: Vec<Vec<u32>> = vec![Vec::new(); np];
        let mut prims: Vec<Vec<u32>> = Vec::new();
        for o in problem.options() {
            let ps: Vec<u32> = o.items().filter(|&i| i < np).map(|i| i as u32).collect();
            if ps.is_empty() {
                continue;
            }
            pairs += (ps.len() as u64).pow(2);
            if pairs > MAX_GROW_PAIRS {
                return None;
            }
            for &i in &ps {
                of[i as usize].push(prims.len() as u32);
            }
            prims.push(ps);
        }
        let count: Vec<u32> = of.iter().map(|v| v.len() as u32).collect();
        let mut shared = vec![0u32; np];
        let mut touched = Vec::new();
        let locality: Vec<f64> = (0..np)
            .map(|i| {
                for &k in &of[i] {
                    for &j in &prims[k as usize] {
                        if j as usize != i {
                            if shared[j as usize] == 0 {
                                touched.push(j);
                            }
                            shared[j as usize] += 1;
                        }
                    }
                }
                let m = touched
                    .iter()
                    .map(|&j| shared[j as usize])
                    .max()
                    .unwrap_or(0);
                for j in touched.drain(..) {
                    shared[j as usize] = 0;
                }
                if count[i] == 0 {
                    1.0
                } else {
                    f64::from(m) / f64::from(count[i])
                }
            })
            .collect();
        let top = locality.iter().cloned().fold(0.0, f64::max);
        let cell_like = locality.iter().map(|&l| l >= 0.5 * top).collect();
        Some(Shares {
            of,
            prims,
            count,
            cell_like,
        })
    }

    /// The items sharing an option with `i`, each once, into `out`.
    pub(super) fn neighbours(&self, i: u32, seen: &mut [bool], out: &mut Vec<u32>) {
        out.clear();
        for &k in &self.of[i as usize] {
            for &j in &self.prims[k as usize] {
                if j != i && !seen[j as usize] {
                    seen[j as usize] = true;
                    out.push(j);
                }
            }
        }
        for &j in out.iter() {
            seen[j as usize] = false;
        }
    }

    /// Cell-like items first, in `cells`' order, then the others in the
    /// problem's order.
    pub(super) fn finish(&self, cells: Vec<u32>) -> Vec<u32> {
        let mut order = cells;
        order.extend((0..self.count.len() as u32).filter(|&i| !self.cell_like[i as usize]));
        order
    }

    /// Grown from the cell-like item with the fewest options, taking next
    /// the one that shares the most options with those taken (ties: the
    /// fewest options, then the first); a new start, the same way, when
    /// those taken share no option with the rest.
    pub(super) fn grown(&self) -> Vec<u32> {
        use std::cmp::Reverse;
        let np = self.count.len();
        let mut starts: Vec<u32> = (0..np as u32)
            .filter(|&i| self.cell_like[i as usize])
            .collect();
        starts.sort_by_key(|&i| (self.count[i as usize], i));
        let mut next_start = 0;
        let mut taken: Vec<bool> = self.cell_like.iter().map(|&c| !c).collect();
        let mut score = vec![0u64; np];
        let mut heap = std::collections::BinaryHeap::new();
        let mut cells = Vec::with_capacity(starts.len());
        while cells.len() < starts.len() {
            let mut pick = None;
            while let Some((s, _, Reverse(i))) = heap.pop() {
                if !taken[i as usize] && score[i as usize] == s {
                    pick = Some(i);
                    break;
                }
            }
            let i = pick.unwrap_or_else(|| {
                while taken[starts[next_start] as usize] {
                    next_start += 1;
                }
                starts[next_start]
            });
            taken[i as usize] = true;
            cells.push(i);
            for &k in &self.of[i as usize] {
                for &j in &self.prims[k as usize] {
                    if !taken[j as usize] {
                        score[j as usize] += 1;
                        heap.push((
                            score[j as usize],
                            Reverse(self.count[j as usize]),
                            Reverse(j),
                        ));
                    }
                }
            }
        }
        self.finish(cells)
    }

    /// Cuthill and McKee's order of the cell-like items: breadth first
    /// from an end of the longest path found (two searches from the item
    /// with the fewest options), each item's new neighbours by their
    /// numbers of options. On a board it sweeps along the short side.
    pub(super) fn breadth_first(&self) -> Vec<u32> {
        let np = self.count.len();
        let cells: Vec<u32> = (0..np as u32)
            .filter(|&i| self.cell_like[i as usize])
            .collect();
        let mut starts = cells.clone();
        starts.sort_by_key(|&i| (self.count[i as usize], i));
        let mut seen = vec![false; np];
        let mut mark = vec![false; np];
        let mut order = Vec::with_capacity(cells.len());
        let mut nb = Vec::new();
        let mut next_start = 0;
        while order.len() < cells.len() {
            while seen[starts[next_start] as usize] {
                next_start += 1;
            }
            // an end of a long path: the last item of a search, twice
            let mut root = starts[next_start];
            for _ in 0..2 {
                let far = self.bfs(root, &seen, &mut mark, &mut nb);
                root = far;
            }
            let from = order.len();
            seen[root as usize] = true;
            order.push(root);
            let mut head = from;
            while head < order.len() {
                let i = order[head];
                head += 1;
                self.neighbours(i, &mut mark, &mut nb);
                nb.retain(|&j| self.cell_like[j as usize] && !seen[j as usize]);
                nb.sort_by_key(|&j| (self.count[j as usize], j));
                for &j in &nb {
                    seen[j as usize] = true;
                    order.push(j);
                }
            }
        }
        self.finish(order)
    }

    /// The last cell-like item (fewest options among the last level) of a
    /// breadth-first search from `root` over items not yet `done`.
    pub(super) fn bfs(
        &self,
        root: u32,
        done: &[bool],
        mark: &mut [bool],
        nb: &mut Vec<u32>,
    ) -> u32 {
        let np = self.count.len();
        let mut seen = vec![false; np];
        seen[root as usize] = true;
        let mut level = vec![root];
        loop {
            let mut next = Vec::new();
            for &i in &level {
                self.neighbours(i, mark, nb);
                for &j in nb.iter() {
                    if self.cell_like[j as usize] && !done[j as usize] && !seen[j as usize] {
                        seen[j as usize] = true;
                        next.push(j);
                    }
                }
            }
            if next.is_empty() {
                return *level
                    .iter()
                    .min_by_key(|&&i| (self.count[i as usize], i))
                    .expect("a level has an item");
            }
            level = next;
        }
    }
}
