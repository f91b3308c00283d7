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
//! front narrower; see `Plan`). Then every primary item before the
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
//! Invariants, checked by `Plan::sanity` and, in tests, at every node of
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
//! cache. [`pays`] is `auto`'s rule for counting with memos: a bound
//! on the count's work (every state of the front), or where the bound
//! is near the engines' time, a trial of the count within a budget of
//! nodes (`choose.rs`).
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

mod choose;
mod plan;
mod search;
mod table;

pub use choose::{bound_nanos, choose, pays, CountWith};
use plan::Plan;
use search::{Part, Search, ZddOut};

use crate::count::Count;
use crate::problem::Problem;
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

impl MemoProgress {
    /// How far the count is after `secs`, in words, as a spinner shows it
    /// (within 80 columns at any size): `memo: 12.3M sub-problems, 4.57M
    /// hits, 812 MiB cached, 1.20M/s, 42 s`.
    pub fn message(&self, secs: f64) -> String {
        use crate::words::{duration, rate};
        let nodes = self.nodes.load(Ordering::Relaxed);
        let hits = self.hits.load(Ordering::Relaxed);
        let bytes = self.bytes.load(Ordering::Relaxed);
        format!(
            "memo: {} sub-problems, {} hits, {} MiB cached, {}/s, {}",
            rate(nodes as f64),
            rate(hits as f64),
            bytes >> 20,
            rate(nodes as f64 / secs.max(1e-9)),
            duration(secs)
        )
    }
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

/// Nanoseconds the counter takes at most per sub-problem it solves, and
/// per option it tries (measured on the domino boards and the 6x10
/// pentominoes, with room to spare): `choose.rs`'s model of its work.
pub(crate) const NANOS_PER_NODE: f64 = 1000.0;
pub(crate) const NANOS_PER_OPTION: f64 = 100.0;

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

impl MemoStats {
    /// The counter's work on the model of [`NANOS_PER_NODE`] and
    /// [`NANOS_PER_OPTION`]: what a trial's budget (`memo::choose`) is
    /// spent in.
    pub(crate) fn work_nanos(&self) -> f64 {
        self.nodes as f64 * NANOS_PER_NODE + self.options_tried as f64 * NANOS_PER_OPTION
    }
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
         count without memos"
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ProblemBuilder;

    /// The spinner's message fits 80 columns with its spinner, at the
    /// largest numbers it shows.
    #[test]
    fn the_progress_message_fits_80_columns() {
        let at = |nodes, hits, bytes, secs| {
            let p = MemoProgress::default();
            p.nodes.store(nodes, Ordering::Relaxed);
            p.hits.store(hits, Ordering::Relaxed);
            p.bytes.store(bytes, Ordering::Relaxed);
            p.message(secs)
        };
        let m = at(999_000_000_000, 999_000_000_000, u64::MAX >> 24, 9e8);
        assert!(m.chars().count() + 2 <= 80, "{m}");
        let m = at(50_400_000, 4_570_000, 812 << 20, 42.0);
        assert_eq!(
            m,
            "memo: 50.4M sub-problems, 4.57M hits, 812 MiB cached, 1.20M/s, 42 s"
        );
    }

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
