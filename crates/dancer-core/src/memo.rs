//! # Counting with memos
//!
//! The engines count by visiting every solution; this module counts
//! without visiting them, by remembering the count of every sub-problem it
//! has solved (the idea of Nishino, Yasuda, Minato and Nagata's "Dancing
//! with decision diagrams", AAAI 2017, which Knuth's DLX6 extends to
//! colours and multiplicities). A sub-problem is what is left to cover:
//! two partial solutions that cover the same items leave the same
//! sub-problem, with the same number of completions, whichever options
//! they chose.
//!
//! ## Branching order and the frontier
//!
//! How often sub-problems meet depends on the branching order. Knuth's
//! rule (the item with the fewest options) jumps about the board, and two
//! partial solutions rarely leave the same set of items (DLX6 on the 6x10
//! pentominoes: 13 s and 5 GB). Here the search always branches on the
//! *first* uncovered primary item of a fixed order, the order that fills
//! a board along a short front (the problem's own order, or one grown
//! greedily from the item with the fewest options, whichever keeps the
//! front narrower; see [`Plan`]). Then every primary item before the
//! chosen one is covered, and an option can only be chosen at the
//! position of its first primary item (its *position*). So at position
//! `p` the state of an item `x` matters only if some option at a position
//! before `p` could have covered it and it still matters at `p` or after:
//! `first(x) < p <= last(x)`, where `first(x)` is the least position of
//! the options containing `x`, and `last(x)` the greatest, or for a
//! primary item its own position if that is later (uncovered, it must
//! still be covered; covered, it may not be again). Those items are the
//! *frontier* of `p`; every other item is either certainly uncovered
//! (`first(x) >= p`) or of no further interest. The memo key of
//! a sub-problem is `p` and the state of its frontier: for the domino
//! tilings of an n x n board, one row's worth of bits.
//!
//! ## The state
//!
//! One bit per item (primary or secondary) says whether it is covered;
//! bits are numbered by `first(x)`, so that the frontier of `p` sits in a
//! few consecutive words and its key is those words masked. A secondary
//! item with colours also has its colour in `colors` (0 while uncovered;
//! [`EXCLUSIVE`] when an option without a colour covers it): an option
//! that gives it colour `c` fits when it is uncovered or already `c`.
//! Choosing an option ORs its masks into the state and sets the colours it
//! brings; undoing it clears them again (an option's masks never meet the
//! state when it is chosen, so XOR-free undo is exact).
//!
//! ```text
//! key of a sub-problem at position p (u64 words):
//!   [ p | state & frontier mask, word by word | colours of the frontier's
//!     coloured items, two u32 to a word ]
//! ```
//!
//! ## The cache
//!
//! Counts are exact ([`Count`]: `u128`, then arbitrary precision). The
//! cache is an open-addressing table of keys (in one arena) and counts,
//! each with the number of nodes its sub-problem took (to a power of
//! two). When the next entry would take the table over the memory cap,
//! the cheaper half of the entries is dropped first, in place: recounting
//! a sub-problem near the end of the board costs little, one near its
//! start may cost most of the search, so those stay. Memory stays within
//! the cap whatever the problem and the counts stay exact (a dropped
//! sub-problem is counted again if it comes back); a cap far below what
//! the problem needs makes the count slow, never wrong.
//!
//! Invariants, checked by [`Plan::sanity`] and, in tests, at every node of
//! the search: all primary items before `p` are covered; no item with
//! `first(x) >= p` is; each option's masks contain exactly its items'
//! bits; the frontier masks are exactly the items with
//! `first(x) < p <= last(x)` (with a primary item's `last` at least its
//! own position).
//!
//! ## Parts, progress, what it does not do
//!
//! A count can be cut into parts ([`MemoOptions::part`], [`MemoSplit`]):
//! the sub-problems a few levels down are numbered in the order of the
//! search and dealt round-robin, and above them nothing is cached (the
//! counts there are partial), so every part walks the same top of the
//! tree and numbers the units alike. [`MemoProgress`] lets another thread
//! show how far it is. One thread: threads with caches of their own would
//! solve the same sub-problems again, and one shared cache would be
//! locked at every node. No checkpoints: the state of a count is its
//! cache. [`pays`] is `auto`'s rule for counting with memos.
//!
//! ## Multiplicities
//!
//! A primary item that may be covered between `u` and `v` times (Knuth's
//! `u:v|name`) has a slot like a colour, whose value is how many chosen
//! options cover it; its bit says "covered `v` times" (no option with it
//! fits then). At its position `p` the search chooses the *set* of options
//! at `p` that cover it again, in increasing order: after choosing option
//! `k` it enters position `p` again with the options after `k` (a
//! sub-problem whose key also holds `k` and the items with `first(x) =
//! p`, which the options chosen at `p` may have covered), and once the
//! item is covered `u` times, the sub-problem that chooses nothing more
//! at `p` counts too (it goes on at `p + 1`). Each set of options is met
//! on exactly one path, so each solution is counted once.

#![allow(clippy::needless_range_loop)] // items are walked by number, several arrays at once

use crate::count::Count;
use crate::problem::Problem;
use num_bigint::BigUint;
use rustc_hash::{FxHashMap, FxHashSet};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The colour of a coloured secondary item covered by an option that gives
/// it no colour: no other option may cover it then.
pub const EXCLUSIVE: u32 = u32::MAX;

/// Smallest cache the counter works with (1 MiB); a smaller cap is raised
/// to it.
pub const MIN_MEMORY: usize = 1 << 20;

/// The cache's size when none is asked for: a quarter of the machine's
/// memory, but at most a quarter of what this process can still get under
/// its address-space and cgroup limits and the machine's available memory
/// ([`crate::memory::Limits`]: the cache's counts of thousands of digits
/// were measured at up to twice the cap in the process); 1 GiB where
/// nothing can be read.
pub fn default_memory() -> usize {
    let bytes = crate::memory::Limits::read().cache_size(0.25, 0.25, MIN_MEMORY as u64, 1 << 30);
    usize::try_from(bytes).unwrap_or(usize::MAX)
}

/// How the counter runs.
#[derive(Clone, Debug)]
pub struct MemoOptions {
    /// The most bytes the cache may take (both generations). Beyond it,
    /// entries are evicted and the search goes on.
    pub memory: usize,
    /// A flag that stops the count when set (looked at every 1,024 nodes).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Check the invariants at every node (for tests: slow).
    pub check: bool,
    /// Where the count reports how far it is (every 1,024 sub-problems),
    /// for a progress display on another thread.
    pub progress: Option<Arc<MemoProgress>>,
    /// Count only part `K` of `N` (1-based) of the sub-problems a few
    /// levels down (see [`MemoSplit`]): the parts' counts add up to the
    /// whole. Not with a ZDD.
    pub part: Option<(usize, usize)>,
}

impl Default for MemoOptions {
    fn default() -> Self {
        MemoOptions {
            memory: 1 << 30,
            cancel: None,
            check: false,
            progress: None,
            part: None,
        }
    }
}

/// How far a count is, for another thread to show: sub-problems solved,
/// cache hits and the cache's bytes, updated every 1,024 sub-problems.
/// (A memoized count has no estimate of the fraction done: later
/// branches are answered more and more by the cache.)
#[derive(Debug, Default)]
pub struct MemoProgress {
    pub nodes: AtomicU64,
    pub hits: AtomicU64,
    pub bytes: AtomicU64,
}

/// How a count in parts was split: the sub-problems `depth` levels down
/// (and the leaves above them), numbered in the order of the search, are
/// the `units`; part `K` of `N` counts the units numbered `K - 1` modulo
/// `N`. Above that depth nothing is cached (the counts there are partial),
/// so every part walks the same top of the tree and numbers the units
/// alike. The depth is the least that gives at least eight units a part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoSplit {
    pub depth: usize,
    pub units: u64,
}

/// The deepest split looked for.
const MAX_SPLIT_DEPTH: usize = 24;

/// What the counter did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemoStats {
    /// Sub-problems solved by branching (not answered by the cache).
    pub nodes: u64,
    /// Options tried (each one that fits is a child of a node).
    pub options_tried: u64,
    /// Sub-problems answered by the cache.
    pub hits: u64,
    /// Entries stored in the cache over the whole count.
    pub stored: u64,
    /// Entries in the cache at the end.
    pub entries: u64,
    /// Entries dropped to stay within the memory cap.
    pub evicted: u64,
    /// Most bytes the cache held at once.
    pub peak_bytes: u64,
    /// The widest frontier: the most items whose state a key holds.
    pub width: usize,
    /// Whether the problem's own item order was used (else a grown one).
    pub own_order: bool,
    /// ZDD nodes written (0 without a ZDD; the root's dummy node not
    /// counted).
    pub zdd_nodes: u64,
    /// Wall-clock time of the count.
    pub elapsed: Duration,
}

/// The result of a count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoOutcome {
    /// The number of solutions (a lower bound when not `complete`:
    /// only the sub-problems finished before the stop).
    pub count: Count,
    /// Whether the count ran to the end (not cancelled).
    pub complete: bool,
    pub stats: MemoStats,
    /// With [`MemoOptions::part`]: the split.
    pub split: Option<MemoSplit>,
}

/// A problem the counter does not take.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MemoError {
    #[error(
        "the problem's frontier is too wide for memoized counting ({width} items at one position): \
         count without --memo"
    )]
    TooWide { width: usize },
    /// The frontiers of every position, together, take more than a
    /// sixteenth of the memory cap.
    #[error(
        "the frontiers of the problem's {positions} positions take more than a sixteenth of the memory cap ({} MiB): count with more memory, or without memos",
        cap >> 20
    )]
    Frontier { positions: usize, cap: usize },
    /// The ZDD could not be written.
    #[error("cannot write the ZDD: {0}")]
    Write(String),
    /// [`MemoOptions::part`] is not a part.
    #[error("part {k} of {n} is not a part (1 <= K <= N)")]
    Part { k: usize, n: usize },
    /// The counts being added up on the way down (one a level, each as
    /// long as its sub-problem's count) took more than the memory cap by
    /// themselves, with no cache at all: the count cannot be made within
    /// it.
    #[error(
        "the partial counts of the sub-problems being added up take {} MiB, more than the memory cap of {} MiB: this count needs more memory",
        needed >> 20,
        cap >> 20
    )]
    Memory { needed: usize, cap: usize },
}

/// Counts the solutions of `problem` with memos (see the module's prose).
pub fn count(problem: &Problem, opts: &MemoOptions) -> Result<MemoOutcome, MemoError> {
    run(problem, opts, None)
}

/// Counts the solutions of `problem` with memos and writes the ZDD of all
/// of them to `out`, in the text format of [`crate::zdd`]: one node per
/// line, each after the nodes it points to, the root (Knuth's dummy node
/// on variable 0) last. A sub-problem met again points to its node, so the
/// ZDD has at most one chain of nodes per sub-problem the count solved
/// (more only if the cache had to drop some).
pub fn count_to_zdd(
    problem: &Problem,
    opts: &MemoOptions,
    out: &mut dyn Write,
) -> Result<MemoOutcome, MemoError> {
    let whole = MemoOptions {
        part: None,
        ..opts.clone()
    };
    run(problem, &whole, Some(out))
}

fn run(
    problem: &Problem,
    opts: &MemoOptions,
    zdd: Option<&mut dyn Write>,
) -> Result<MemoOutcome, MemoError> {
    let start = Instant::now();
    let plan = Plan::new(problem, opts.memory)?;
    if opts.check {
        plan.sanity(problem);
    }
    let mut split = None;
    if let Some((k, n)) = opts.part {
        if k == 0 || k > n {
            return Err(MemoError::Part { k, n });
        }
        // the least depth with eight units a part (each probe walks the
        // top of the tree only)
        let mut best = MemoSplit { depth: 1, units: 0 };
        for depth in 1..=MAX_SPLIT_DEPTH {
            let mut probe = Search::new(&plan, opts, None);
            probe.part = Some(Part {
                depth,
                k: 0,
                n: 1,
                probe: true,
            });
            probe.run();
            if probe.cancelled {
                break;
            }
            let units = probe.units;
            let grew = units > best.units;
            if grew {
                best = MemoSplit { depth, units };
            }
            if !grew || units >= (n as u64).saturating_mul(8) {
                break;
            }
        }
        split = Some(best);
    }
    let mut s = Search::new(&plan, opts, zdd.map(ZddOut::new));
    if let (Some((k, n)), Some(sp)) = (opts.part, split) {
        s.part = Some(Part {
            depth: sp.depth,
            k: k as u64 - 1,
            n: n as u64,
            probe: false,
        });
    }
    let (count, root) = s.run();
    if let Some(needed) = s.overflow {
        return Err(MemoError::Memory {
            needed,
            cap: s.cache.cap,
        });
    }
    if let Some(z) = &mut s.zdd {
        z.root(root);
        if let Some(e) = z.error.take() {
            return Err(MemoError::Write(e.to_string()));
        }
        s.stats.zdd_nodes = z.next - 3; // the dummy root not counted
    }
    let complete = !s.cancelled;
    let mut stats = s.stats;
    stats.entries = s.cache.len() as u64;
    stats.width = plan.width;
    stats.own_order = plan.own_order;
    stats.elapsed = start.elapsed();
    Ok(MemoOutcome {
        count,
        complete,
        stats,
        split,
    })
}

/// Everything the search reads, built once from the problem.
pub struct Plan {
    /// Primary items.
    np: usize,
    /// Words of the state.
    words: usize,
    /// The primary item at each position.
    order: Vec<u32>,
    /// Each item's bit: word and mask.
    bit: Vec<(u32, u64)>,
    /// Options by position: those at `p` are `at[p]..at[p + 1]` (indices
    /// into the per-option arrays below).
    at: Vec<u32>,
    /// Per option: its masks are `masks[mask_at[k]..mask_at[k + 1]]`.
    mask_at: Vec<u32>,
    masks: Vec<(u32, u64)>,
    /// Per option: its coloured entries (coloured slot, colour or
    /// [`EXCLUSIVE`]) are `cents[cent_at[k]..cent_at[k + 1]]`.
    cent_at: Vec<u32>,
    cents: Vec<(u32, u32)>,
    /// Per option: the slots of its items with multiplicities are
    /// `ments[ment_at[k]..ment_at[k + 1]]`.
    ment_at: Vec<u32>,
    ments: Vec<u32>,
    /// The problem's option number of each option here.
    option_id: Vec<u32>,
    /// The item of each slot: a coloured secondary item (its value a
    /// colour) or a primary item with a multiplicity (its value how many
    /// options chosen cover it).
    colored: Vec<u32>,
    /// The most times each slot's item may be covered (0 for a colour).
    slot_max: Vec<u32>,
    /// The slot of the item at each position (`u32::MAX`: exactly once),
    /// and the least times it must be covered.
    pos_slot: Vec<u32>,
    pos_min: Vec<u32>,
    /// Frontier of each position: masks `fw[fw_at[p]..fw_at[p + 1]]`,
    /// coloured slots `fc[fc_at[p]..fc_at[p + 1]]`.
    fw_at: Vec<u32>,
    fw: Vec<(u32, u64)>,
    fc_at: Vec<u32>,
    fc: Vec<u32>,
    /// Frontier of a multiplicity's position entered again after an
    /// option chosen there (also the items with `first(x) = p`); empty at
    /// other positions.
    gw_at: Vec<u32>,
    gw: Vec<(u32, u64)>,
    gc_at: Vec<u32>,
    gc: Vec<u32>,
    /// `first(x)` of each item (`np` for an item in no option).
    first: Vec<u32>,
    width: usize,
    own_order: bool,
}

/// Most frontier words a plan builds, over all positions together.
const MAX_FRONTIER_WORDS: usize = 1 << 24;

impl Plan {
    /// The plan of `problem`, or why the counter cannot take it.
    pub fn new(problem: &Problem, memory: usize) -> Result<Plan, MemoError> {
        let np = problem.n_primary();
        let n = problem.n_items();
        // the order with the narrowest frontier: the problem's own (on a
        // tie), grown greedily, or breadth first
        let (order, own_order) = best_order(problem);
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
        // bits numbered by first(x), then by item
        let mut byfirst: Vec<u32> = (0..n as u32).collect();
        byfirst.sort_by_key(|&x| (first[x as usize], x));
        let mut bit = vec![(0u32, 0u64); n];
        for (b, &x) in byfirst.iter().enumerate() {
            bit[x as usize] = ((b / 64) as u32, 1u64 << (b % 64));
        }
        let words = n.div_ceil(64).max(1);
        let mut slot = vec![u32::MAX; n];
        let mut colored = Vec::new();
        let mut slot_max = Vec::new();
        for x in 0..n {
            if colored_item[x] || mult_item[x] {
                slot[x] = colored.len() as u32;
                colored.push(x as u32);
                slot_max.push(if mult_item[x] { problem.bounds(x).1 } else { 0 });
            }
        }
        let pos_slot: Vec<u32> = order.iter().map(|&i| slot[i as usize]).collect();
        let pos_min: Vec<u32> = order
            .iter()
            .map(|&i| problem.bounds(i as usize).0)
            .collect();
        // options, grouped by position
        let mut at = vec![0u32];
        let (mut mask_at, mut masks) = (vec![0u32], Vec::new());
        let (mut cent_at, mut cents) = (vec![0u32], Vec::new());
        let (mut ment_at, mut ments) = (vec![0u32], Vec::new());
        let mut option_id = Vec::new();
        for ks in &by_pos {
            for &k in ks {
                let o = problem.option(k as usize);
                let mut m: Vec<(u32, u64)> = Vec::new();
                for e in o.entries() {
                    if colored_item[e.item] {
                        let c = if e.color == 0 { EXCLUSIVE } else { e.color };
                        cents.push((slot[e.item], c));
                    } else if mult_item[e.item] {
                        ments.push(slot[e.item]);
                    } else {
                        let (w, b) = bit[e.item];
                        match m.iter_mut().find(|(mw, _)| *mw == w) {
                            Some((_, mb)) => *mb |= b,
                            None => m.push((w, b)),
                        }
                    }
                }
                m.sort_unstable();
                masks.extend(m);
                mask_at.push(masks.len() as u32);
                cent_at.push(cents.len() as u32);
                ment_at.push(ments.len() as u32);
                option_id.push(k);
            }
            at.push(option_id.len() as u32);
        }
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
        let (mut fw_at, mut fw) = (vec![0u32], Vec::new());
        let (mut fc_at, mut fc) = (vec![0u32], Vec::new());
        let (mut gw_at, mut gw) = (vec![0u32], Vec::new());
        let (mut gc_at, mut gc) = (vec![0u32], Vec::new());
        // the items whose first position is p, by position (their bits
        // are consecutive)
        let mut first_at: Vec<Vec<u32>> = vec![Vec::new(); np];
        for x in 0..n {
            if (first[x] as usize) < np {
                first_at[first[x] as usize].push(x as u32);
            }
        }
        let mut width = 0usize;
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
            width = width.max(size);
            for (w, &m) in cur.iter().enumerate() {
                if m != 0 {
                    fw.push((w as u32, m));
                }
            }
            curc.sort_unstable();
            fc.extend_from_slice(&curc);
            if pos_slot[p] != u32::MAX {
                // a multiplicity's position is entered again after each
                // option chosen there: then the items those options may
                // have covered (first(x) = p) are part of the state too
                let mut g = cur.clone();
                let mut gcs = curc.clone();
                for &x in &first_at[p] {
                    let (w, b) = bit[x as usize];
                    g[w as usize] |= b;
                    if slot[x as usize] != u32::MAX && !gcs.contains(&slot[x as usize]) {
                        gcs.push(slot[x as usize]);
                    }
                }
                width = width.max(size + first_at[p].len());
                for (w, &m) in g.iter().enumerate() {
                    if m != 0 {
                        gw.push((w as u32, m));
                    }
                }
                gcs.sort_unstable();
                gc.extend_from_slice(&gcs);
            }
            gw_at.push(gw.len() as u32);
            gc_at.push(gc.len() as u32);
            if fw.len() + fc.len() + gw.len() + gc.len() > budget {
                if budget < MAX_FRONTIER_WORDS {
                    // the tables, not one position, outgrow the memory
                    return Err(MemoError::Frontier {
                        positions: np,
                        cap: memory,
                    });
                }
                return Err(MemoError::TooWide { width });
            }
            fw_at.push(fw.len() as u32);
            fc_at.push(fc.len() as u32);
        }
        Ok(Plan {
            np,
            words,
            order,
            bit,
            at,
            mask_at,
            masks,
            cent_at,
            cents,
            ment_at,
            ments,
            option_id,
            colored,
            slot_max,
            pos_slot,
            pos_min,
            fw_at,
            fw,
            fc_at,
            fc,
            gw_at,
            gw,
            gc_at,
            gc,
            first,
            width,
            own_order,
        })
    }

    /// The frontier of position `p`: its masks and its slots; `again`
    /// when the position is entered again after an option chosen there.
    #[inline]
    fn frontier(&self, p: usize, again: bool) -> (&[(u32, u64)], &[u32]) {
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

/// `first(x)` and `last(x)` of every item (see the module's prose) when
/// the primary items are met in `order` (`u32::MAX` and 0 for an item in
/// no option), and how many options sit at each position.
fn spans(problem: &Problem, order: &[u32]) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
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

/// Nanoseconds the counter takes at most per sub-problem it solves, and
/// per option it tries (measured on the domino boards and the 6x10
/// pentominoes, with room to spare).
const NANOS_PER_NODE: f64 = 1000.0;
const NANOS_PER_OPTION: f64 = 100.0;

/// A bound on the nanoseconds a memoized count of `problem` takes, with
/// the order [`Plan`] would choose: at each position at most as many
/// sub-problems as its frontier has states (two per plain item, one more
/// than its colours for a coloured one, `v + 1` for a multiplicity), each
/// trying the options there. Far above the truth on most problems (few
/// states are reachable); below it, memoized counting certainly pays.
/// `None` when the problem is too large to look at cheaply.
pub fn bound_nanos(problem: &Problem) -> Option<f64> {
    let np = problem.n_primary();
    let n = problem.n_items();
    if problem.n_entries() > 1 << 20 || np == 0 {
        return None;
    }
    // bits of state per item
    let mut colours: Vec<FxHashSet<u32>> = Vec::new();
    let mut slot = vec![u32::MAX; n];
    for o in problem.options() {
        for e in o.entries() {
            if e.color != 0 {
                if slot[e.item] == u32::MAX {
                    slot[e.item] = colours.len() as u32;
                    colours.push(FxHashSet::default());
                }
                colours[slot[e.item] as usize].insert(e.color);
            }
        }
    }
    let bits: Vec<f64> = (0..n)
        .map(|x| {
            if slot[x] != u32::MAX {
                (colours[slot[x] as usize].len() as f64 + 2.0).log2()
            } else if x < np {
                (f64::from(problem.bounds(x).1) + 1.0).log2()
            } else {
                1.0
            }
        })
        .collect();
    let (order, _) = best_order(problem);
    let (first, last, at) = spans(problem, &order);
    let mut delta = vec![0f64; np + 2];
    for x in 0..n {
        if first[x] != u32::MAX && last[x] > first[x] {
            delta[first[x] as usize + 1] += bits[x];
            delta[last[x] as usize + 1] -= bits[x];
        }
    }
    let mut cur = 0f64;
    let mut total = 0f64;
    for p in 0..np {
        cur += delta[p];
        let states = cur.max(0.0).exp2();
        total += states * (NANOS_PER_NODE + NANOS_PER_OPTION * f64::from(at[p]));
    }
    Some(total)
}

/// How `auto` counts a problem: with memos, or with an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountWith {
    Memo,
    Engine(crate::EngineKind),
}

/// How `auto` should count `problem` (see [`pays`]), and with which engine
/// when not with memos: the engines' costs are weighed once, for both
/// questions (what [`crate::choose_engine`] would pick).
pub fn choose(problem: &Problem) -> CountWith {
    let costs = crate::engines::auto_costs(problem);
    let best = costs.iter().map(|c| c.nanos).fold(f64::INFINITY, f64::min);
    // the bound (the counter's orders) is worked out only for a search
    // long enough for it to matter
    if best > MEMO_FROM_NANOS && bound_nanos(problem).is_some_and(|b| b < best) {
        return CountWith::Memo;
    }
    CountWith::Engine(crate::engines::choose_from(problem, &costs))
}

/// `auto` counts with memos only where the engines are predicted to take
/// longer than this (20 ms): a shorter count gains little, and working out
/// the bound takes up to a millisecond (a 16x16 Sudoku's 4,096 options).
const MEMO_FROM_NANOS: f64 = 2e7;

/// Whether `auto` should count `problem` with memos: when the bound on
/// the memoized count ([`bound_nanos`]) is below the time the fastest
/// engine is predicted to take to visit every solution
/// ([`crate::engines::auto_costs`]), and that is more than 20 ms (a small
/// search is left to the engines, whose nodes and updates are Knuth's).
pub fn pays(problem: &Problem) -> bool {
    choose(problem) == CountWith::Memo
}

/// The order the counter branches in: the narrowest of the problem's own,
/// grown greedily, or breadth first (on a tie the problem's own); and
/// whether it is the problem's own.
fn best_order(problem: &Problem) -> (Vec<u32>, bool) {
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
fn frontier_size(problem: &Problem, order: &[u32]) -> (usize, usize) {
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
const MAX_GROW_PAIRS: u64 = 1 << 27;

/// Which primary items share options: what the grown orders are grown
/// from.
struct Shares {
    /// Options containing each primary item (indices into `prims`).
    of: Vec<Vec<u32>>,
    /// The primary items of each active option.
    prims: Vec<Vec<u32>>,
    /// Options of each primary item.
    count: Vec<u32>,
    /// Cell-like items (see [`crate::engines::bitset::branching_order`]): the
    /// largest share of an item's options that it has with one other item
    /// is at least half the largest such share of any item. Squares of a
    /// board are; "piece X is placed" is not, and goes last.
    cell_like: Vec<bool>,
}

impl Shares {
    /// `None` when the options are too long to look at every pair.
    fn new(problem: &Problem) -> Option<Shares> {
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
    fn neighbours(&self, i: u32, seen: &mut [bool], out: &mut Vec<u32>) {
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
    fn finish(&self, cells: Vec<u32>) -> Vec<u32> {
        let mut order = cells;
        order.extend((0..self.count.len() as u32).filter(|&i| !self.cell_like[i as usize]));
        order
    }

    /// Grown from the cell-like item with the fewest options, taking next
    /// the one that shares the most options with those taken (ties: the
    /// fewest options, then the first); a new start, the same way, when
    /// those taken share no option with the rest.
    fn grown(&self) -> Vec<u32> {
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
    fn breadth_first(&self) -> Vec<u32> {
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
    fn bfs(&self, root: u32, done: &[bool], mark: &mut [bool], nb: &mut Vec<u32>) -> u32 {
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

/// The marker of a frame with no option applied.
const NONE: u32 = u32::MAX;

/// A sub-problem being solved: its position, the next option to try, the
/// count so far, where its key is on the key stack, and the option now
/// applied (with where its colour changes start on the undo stack).
struct Frame {
    p: u32,
    next: u32,
    end: u32,
    sum: Count,
    key_at: u32,
    hash: u64,
    applied: u32,
    cundo_at: u32,
    /// `stats.nodes` when the frame was entered: what its sub-problem
    /// cost is the difference at its end.
    nodes_at: u64,
    /// With a ZDD: the node of the options tried so far (0: none yet).
    z: u64,
    /// At a multiplicity's position already covered its least times: the
    /// sub-problem that chooses no more options there is still to count.
    stop: bool,
}

/// The ZDD being written: nodes numbered from 2 (0 is the empty family,
/// 1 the family of the empty set), each line written when its node is
/// made, after its children.
struct ZddOut<'w> {
    out: &'w mut dyn Write,
    next: u64,
    error: Option<std::io::Error>,
}

impl<'w> ZddOut<'w> {
    fn new(out: &'w mut dyn Write) -> Self {
        ZddOut {
            out,
            next: 2,
            error: None,
        }
    }

    /// A new node: the solutions of `lo`, and those of `hi` with option
    /// `var` (1-based).
    fn node(&mut self, var: u64, lo: u64, hi: u64) -> u64 {
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
    fn root(&mut self, root: u64) {
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
struct Part {
    depth: usize,
    k: u64,
    n: u64,
    probe: bool,
}

struct Search<'a, 'w> {
    plan: &'a Plan,
    zdd: Option<ZddOut<'w>>,
    part: Option<Part>,
    /// Units numbered so far.
    units: u64,
    state: Vec<u64>,
    colors: Vec<u32>,
    /// Coloured slots whose colour the applied options set, to clear.
    cundo: Vec<u32>,
    /// The keys of the frames, one after the other.
    keys: Vec<u64>,
    frames: Vec<Frame>,
    cache: Cache,
    stats: MemoStats,
    cancel: Option<Arc<AtomicBool>>,
    progress: Option<Arc<MemoProgress>>,
    cancelled: bool,
    check: bool,
    /// Bytes the frames' sums take beyond their place in the frame (the
    /// digits of counts above 128 bits): the cache gets the cap less
    /// these.
    held: usize,
    /// Set (with `cancelled`) when `held` alone passed the cap.
    overflow: Option<usize>,
}

impl<'a, 'w> Search<'a, 'w> {
    fn new(plan: &'a Plan, opts: &MemoOptions, zdd: Option<ZddOut<'w>>) -> Self {
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
        }
    }

    #[inline]
    fn covered(&self, (w, b): (u32, u64)) -> bool {
        self.state[w as usize] & b != 0
    }

    /// Whether option `k` fits the state.
    #[inline]
    fn fits(&self, k: usize) -> bool {
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

    fn apply(&mut self, k: usize) {
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

    fn undo(&mut self, k: usize, cundo_at: usize) {
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
    fn enter(&mut self, from: usize, from_again: u32) -> Option<(Count, u64)> {
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
    fn check_state(&self, p: usize, again: bool) {
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
    fn run(&mut self) -> (Count, u64) {
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
    fn unit_below(&self, top: usize) -> bool {
        self.part.is_some_and(|s| top + 1 == s.depth)
    }

    /// Numbers a unit: whether it is this part's (always, without parts;
    /// never in a probe).
    #[inline]
    fn numbered_mine(&mut self) -> bool {
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
    fn leaf(&mut self, top: usize, c: Count, z: u64) {
        if self.part.is_some_and(|s| top + 1 < s.depth) && !self.numbered_mine() {
            return;
        }
        self.child(c, z);
    }

    /// Adds the count of the sub-problem left by the top frame's applied
    /// option, and with a ZDD, chains a node for that option.
    #[inline]
    fn child(&mut self, c: Count, z: u64) {
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

/// A hash of a key's words.
#[inline]
fn hash_words(words: &[u64]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = 0u64;
    for &w in words {
        h = (h.rotate_left(23) ^ w).wrapping_mul(K);
    }
    h ^ h >> 29
}

/// The cache (see the module's prose): one table within the cap. When an
/// insertion would take it over, the cheaper half of the entries (by the
/// nodes their sub-problems took) is dropped in place first.
struct Cache {
    table: Table,
    cap: usize,
}

impl Cache {
    fn new(cap: usize) -> Self {
        Cache {
            table: Table::default(),
            cap,
        }
    }

    fn len(&self) -> usize {
        self.table.len()
    }

    fn get(&self, key: &[u64], hash: u64) -> Option<(Count, u64)> {
        self.table.get(key, hash)
    }

    /// Stores a count and its ZDD node (0 without a ZDD).
    fn insert(
        &mut self,
        key: &[u64],
        hash: u64,
        (c, z): (&Count, u64),
        cost: u64,
        stats: &mut MemoStats,
        held: usize,
    ) {
        let cap = self.cap.saturating_sub(held);
        if self.table.bytes_after(key.len(), c, z) > cap && self.table.len() > 0 {
            stats.evicted += self.table.drop_cheap_half() as u64;
        }
        self.table.insert(key, hash, c, z, cost);
        stats.stored += 1;
        stats.peak_bytes = stats.peak_bytes.max(self.table.bytes() as u64);
    }
}

/// The table: open addressing over entry numbers, keys in one arena.
///
/// ```text
/// slot (u64):  [ high 32 bits of the hash | entry number + 1 ]   (0: empty)
/// entry e:     keys[key_at[e] .. key_at[e + 1]], vals[e], cost[e],
///              zdd[e] (only while a ZDD is written)
/// ```
///
/// A probe compares the hash bits in the slot before it looks at a key, so
/// a miss (most lookups: the sub-problem is new) reads the slots only.
#[derive(Default)]
struct Table {
    /// A power of two long, at most half full.
    slots: Vec<u64>,
    key_at: Vec<u32>,
    keys: Vec<u64>,
    /// Counts below `u128::MAX`; `u128::MAX` says "in `big`".
    vals: Vec<u128>,
    /// log2 of 1 + the nodes each entry's sub-problem took.
    cost: Vec<u8>,
    /// The ZDD node of each entry, when a ZDD is written (else empty).
    zdd: Vec<u64>,
    big: FxHashMap<u32, BigUint>,
    big_bytes: usize,
}

/// The capacity a vector of capacity `cap` and length `len` has after
/// `add` more (doubling, as `Vec` grows).
fn grown(cap: usize, len: usize, add: usize) -> usize {
    if len + add <= cap {
        cap
    } else {
        (cap * 2).max(len + add).max(4)
    }
}

impl Table {
    fn len(&self) -> usize {
        self.key_at.len()
    }

    fn bytes(&self) -> usize {
        self.slots.capacity() * 8
            + self.key_at.capacity() * 4
            + self.keys.capacity() * 8
            + self.vals.capacity() * 16
            + self.cost.capacity()
            + self.zdd.capacity() * 8
            + self.big_bytes
    }

    /// [`bytes`](Self::bytes) after inserting a key of `key_len` words,
    /// count `c` and ZDD node `z`.
    fn bytes_after(&self, key_len: usize, c: &Count, z: u64) -> usize {
        let n = self.len();
        let slots = if (n + 1) * 2 > self.slots.len() {
            (self.slots.len() * 2).max(1024)
        } else {
            self.slots.len()
        };
        let big = if c.to_u128().is_some_and(|v| v != u128::MAX) {
            0
        } else {
            big_size(c)
        };
        slots * 8
            + grown(self.key_at.capacity(), n, 1) * 4
            + grown(self.keys.capacity(), self.keys.len(), key_len) * 8
            + grown(self.vals.capacity(), n, 1) * 16
            + grown(self.cost.capacity(), n, 1)
            + if z == 0 {
                self.zdd.capacity() * 8
            } else {
                grown(self.zdd.capacity(), n, 1) * 8
            }
            + self.big_bytes
            + big
    }

    fn get(&self, key: &[u64], hash: u64) -> Option<(Count, u64)> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let tag = hash & !0xffff_ffff;
        let mut s = (hash as usize) & mask;
        loop {
            let v = self.slots[s];
            if v == 0 {
                return None;
            }
            if v & !0xffff_ffff == tag {
                let e = (v as u32 - 1) as usize;
                let at = self.key_at[e] as usize;
                // same first word (the position): same length
                if self.keys[at] == key[0] && self.keys[at..at + key.len()] == *key {
                    let c = match self.vals[e] {
                        u128::MAX => Count::from(self.big[&(e as u32)].clone()),
                        v => Count::from(v),
                    };
                    return Some((c, self.zdd.get(e).copied().unwrap_or(0)));
                }
            }
            s = (s + 1) & mask;
        }
    }

    fn insert(&mut self, key: &[u64], hash: u64, c: &Count, z: u64, cost: u64) {
        if (self.len() + 1) * 2 > self.slots.len() {
            let n = (self.slots.len() * 2).max(1024);
            self.rehash(n);
        }
        let e = self.len();
        assert!(
            e + 2 < u32::MAX as usize && self.keys.len() + key.len() < u32::MAX as usize,
            "the cache's own limits: the memory cap keeps it far below"
        );
        self.key_at.push(self.keys.len() as u32);
        self.keys.extend_from_slice(key);
        self.cost.push((64 - cost.leading_zeros()) as u8);
        if z != 0 {
            // a count of 0 has no node: keep the arrays in step
            self.zdd.resize(e, 0);
            self.zdd.push(z);
        }
        match c.to_u128() {
            Some(v) if v != u128::MAX => self.vals.push(v),
            _ => {
                self.vals.push(u128::MAX);
                self.big_bytes += big_size(c);
                self.big.insert(e as u32, c.to_biguint());
            }
        }
        self.place(hash, e);
    }

    fn place(&mut self, hash: u64, e: usize) {
        let mask = self.slots.len() - 1;
        let mut s = (hash as usize) & mask;
        while self.slots[s] != 0 {
            s = (s + 1) & mask;
        }
        self.slots[s] = (hash & !0xffff_ffff) | (e as u64 + 1);
    }

    /// The end of entry `e`'s key: where the next one begins.
    fn key_end(&self, e: usize) -> usize {
        self.key_at
            .get(e + 1)
            .map_or(self.keys.len(), |&a| a as usize)
    }

    /// Slots anew, `n` of them, for the entries there are.
    fn rehash(&mut self, n: usize) {
        self.slots.clear();
        self.slots.resize(n, 0);
        for e in 0..self.len() {
            let at = self.key_at[e] as usize;
            let h = hash_words(&self.keys[at..self.key_end(e)]);
            self.place(h, e);
        }
    }

    /// Drops the entries whose sub-problems were cheapest, about half of
    /// them (all those below a cost, by powers of two), compacting the
    /// rest in place; how many were dropped. Recounting a cheap
    /// sub-problem costs little, and the expensive ones stay.
    fn drop_cheap_half(&mut self) -> usize {
        let n = self.len();
        let mut hist = [0usize; 66];
        for &c in &self.cost {
            hist[c as usize] += 1;
        }
        // the least cost kept: below it at most half the entries
        let (mut below, mut keep_from) = (0usize, 0usize);
        for (c, &h) in hist.iter().enumerate() {
            if (below + h) * 2 > n {
                keep_from = if below == 0 { c + 1 } else { c };
                break;
            }
            below += h;
        }
        let mut big = std::mem::take(&mut self.big);
        self.big_bytes = 0;
        let (mut w, mut wk) = (0usize, 0usize);
        for e in 0..n {
            let (at, end) = (self.key_at[e] as usize, self.key_end(e));
            if (self.cost[e] as usize) < keep_from {
                big.remove(&(e as u32));
                continue;
            }
            self.keys.copy_within(at..end, wk);
            self.key_at[w] = wk as u32;
            wk += end - at;
            self.vals[w] = self.vals[e];
            self.cost[w] = self.cost[e];
            if w < self.zdd.len() {
                self.zdd[w] = self.zdd.get(e).copied().unwrap_or(0);
            }
            if let Some(b) = big.remove(&(e as u32)) {
                self.big_bytes += big_size(&Count::from(b.clone()));
                self.big.insert(w as u32, b);
            }
            w += 1;
        }
        self.key_at.truncate(w);
        self.keys.truncate(wk);
        self.vals.truncate(w);
        self.cost.truncate(w);
        self.zdd.truncate(w);
        let slots = self.slots.len();
        self.rehash(slots);
        n - w
    }
}

/// Bytes a count beyond `u128` takes in a table (roughly).
fn big_size(c: &Count) -> usize {
    64 + c.bits() as usize / 8
}

/// Bytes a frame's sum takes beyond the frame: the digits of a count
/// above 128 bits (0 below).
fn held_size(c: &Count) -> usize {
    if c.to_u128().is_some() {
        0
    } else {
        big_size(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ProblemBuilder;

    fn dominoes(m: usize, n: usize) -> Problem {
        let mut b = ProblemBuilder::new();
        for r in 0..m {
            for c in 0..n {
                b.primary(&format!("{r}_{c}")).unwrap();
            }
        }
        for r in 0..m {
            for c in 0..n {
                if c + 1 < n {
                    b.option([format!("{r}_{c}"), format!("{r}_{}", c + 1)])
                        .unwrap();
                }
                if r + 1 < m {
                    b.option([format!("{r}_{c}"), format!("{}_{c}", r + 1)])
                        .unwrap();
                }
            }
        }
        b.build().unwrap()
    }

    fn checked(p: &Problem) -> MemoOutcome {
        count(
            p,
            &MemoOptions {
                check: true,
                ..Default::default()
            },
        )
        .unwrap()
    }

    #[test]
    fn domino_tilings_of_small_boards() {
        // OEIS A099390
        for (m, n, want) in [
            (2, 2, 2u64),
            (2, 3, 3),
            (3, 4, 11),
            (4, 4, 36),
            (4, 5, 95),
            (6, 6, 6728),
            (3, 3, 0),
        ] {
            let r = checked(&dominoes(m, n));
            assert!(r.complete);
            assert_eq!(r.count, Count::from(want), "{m}x{n}");
        }
    }

    #[test]
    fn a_tiny_cap_evicts_and_stays_exact() {
        let p = dominoes(8, 8);
        let r = count(
            &p,
            &MemoOptions {
                memory: 0,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(r.count, Count::from(12_988_816u64));
        let big = count(&p, &MemoOptions::default()).unwrap();
        assert_eq!(big.count, r.count);
        assert_eq!(big.stats.evicted, 0);
        assert!(
            r.stats.peak_bytes <= MIN_MEMORY as u64 + (1 << 16),
            "{:?}",
            r.stats
        );
    }

    #[test]
    fn multiplicities() {
        // a: once or twice, b: exactly once; options 0: a, 1: a b, 2: a:
        // {1}, {0, 1}, {1, 2} ({0, 1, 2} covers a three times)
        let mut b = ProblemBuilder::new();
        b.primary_bounded("a", 1, 2).unwrap();
        b.primary("b").unwrap();
        b.option(["a"]).unwrap();
        b.option(["a", "b"]).unwrap();
        b.option(["a"]).unwrap();
        let p = b.build().unwrap();
        assert_eq!(checked(&p).count, Count::from(3u64));
        // c: zero to three times, alone: every subset of three options
        let mut b = ProblemBuilder::new();
        b.primary_bounded("c", 0, 3).unwrap();
        for _ in 0..3 {
            b.option(["c"]).unwrap();
        }
        assert_eq!(checked(&b.build().unwrap()).count, Count::from(8u64));
    }
}
