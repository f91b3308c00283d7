//! The `bitmrv` engine: Knuth's branching rule (the item with the fewest
//! options left) on bitmaps instead of linked lists.
//!
//! # The idea
//!
//! Dancing links spend their time unlinking the options that a choice
//! rules out from the lists of their other items, one pointer pair at a
//! time, all over a large array of nodes. This engine keeps the same
//! information in a different shape:
//!
//! * the options still available, as one bitmap of `W` words (`live`);
//! * for every primary item, the number of those options that contain it
//!   (`lens`, 16 bits each, or the mark [`COVERED`]);
//! * for every item (and every colour of a secondary item), the bitmap of
//!   the options that a choice of it rules out (`classes`), built once.
//!
//! Choosing an option is then: OR together the classes of its entries
//! (`W` words each), AND the result with `live` to get the options it rules
//! out, clear them, and for each of them subtract one from the count of
//! each of its primary items, in a small array that stays in the cache.
//! Choosing the next item is the smallest count, found with vector
//! instructions over the whole array (covered items hold [`COVERED`], which
//! is never the smallest). Nothing is unlinked, so nothing has to be
//! relinked: each level of the search has its own copy of the state, and
//! backing up is going back to the previous copy.
//!
//! # The tree
//!
//! Knuth's rule: branch on the primary item with the fewest options, and
//! try its options in input order. Ties are broken in an order of the
//! items fixed at the start ([`Ties`]): by default the item that had the
//! fewest options in the problem as given comes first (the most
//! constrained one), then the problem's order. That one change makes
//! Sudoku as exact cover many times cheaper than with Knuth's ties (the
//! problem's order puts every cell before every constraint on a digit, and
//! the search then fills the grid row after row), and is within a few
//! percent either way elsewhere.
//!
//! With [`Ties::Knuth`] (the first in the problem's order, as DLX1 and
//! DLX2) the tree is Knuth's exactly: on problems without colours and
//! multiplicities the counters follow his definitions exactly too (a node
//! per option tried and per solution; an update per item covered and per
//! entry of an option ruled out, other than the entry of the item being
//! covered), so this engine reports the same `nodes` and `updates` as
//! `dlx`, and the tests check it on every problem of the suite and on
//! every shared file. With colours the nodes are `dlx`'s (the options
//! available at each node are the same), the updates are this engine's
//! own. With multiplicities it follows [`crate::engines::dlxm`]'s search (the same
//! branches: options of an item in increasing order, then "no more options
//! for this item"), with the same nodes.
//!
//! # Where it pays, and its limits
//!
//! Every node costs a few passes over `W` words and over the counts, so the
//! engine is fastest where the bitmaps are short and the work per node of
//! dancing links is large: polycube packings, Sudoku as exact cover,
//! coloured problems of a few thousand options. Its memory is one bit per
//! (class, option) pair plus two copies of the state per level; a problem
//! whose tables would pass [`MAX_BYTES`], or an item with more than
//! [`MAX_LEN`] options, is refused ([`Unsupported::TooLarge`]) and `auto`
//! uses `dlx` for it.
//!
//! # The state, per level `l`
//!
//! ```text
//! live[l]:  W words, bit x: option x (active options, in input order) is available
//! cand[l]:  W words, the options of the item branched on at l not yet tried
//! lens[l]:  npad u16, lens[i]: available options containing primary item i,
//!           COVERED once i is covered (or closed); padding COVERED
//! need[l]:  npad u16 (multiplicities): times i must still be covered (capped)
//! cnt[l]:   np u32 (multiplicities): chosen options containing i
//! ```
//!
//! On entering level `l` its slots hold the state after the choices above
//! it. Branching on item `i` (without multiplicities) covers it in place:
//! its options move from `live[l]` to `cand[l]` and the counts of their
//! other items go down, once for all the branches. Each branch copies level
//! `l` into level `l + 1` and applies its option there.
//!
//! With multiplicities, an item `i` that still takes more than one option
//! is branched on as in `dlxm`: each option `x` in turn is first removed
//! from level `l` (so that neither the later branches nor the subtree can
//! choose it again: options are chosen for an item in increasing order,
//! and every set of options is met once), then chosen in level `l + 1`;
//! when `i` needs no more options, a last branch closes it.
//!
//! # Invariants
//!
//! At the deepest level whose state is applied: an active option is in
//! `live` exactly when it is not chosen, is compatible with the chosen ones
//! (no covered or closed item, no other colour on a secondary item used
//! with a colour), and was not removed by an earlier branch of a level on
//! one of its items; `lens[i]` is the number of live options containing
//! `i` for every open primary item, [`COVERED`] otherwise; `cnt` and `need`
//! count the chosen options. [`BitMrv::check_invariants`] (Knuth's
//! `sanity()`) recomputes all of this from the problem; the tests run it
//! after every solution of small problems.

mod kernels;
mod search;

use super::api::{DescendError, EngineError, Unsupported};
use super::control::{Control, Search, Step};
use super::kind::EngineKind;
use crate::problem::{OptionId, OptionRef, Problem};
use crate::stats::{Estimate, Tally};

/// The count of a covered (or closed) item, and of the padding.
pub const COVERED: u16 = u16::MAX;

/// The most options an item may have (counts are 16 bits).
pub const MAX_LEN: usize = 0x7fff;

/// The most bytes of tables and state the engine builds; larger problems
/// are refused.
pub const MAX_BYTES: usize = 256 << 20;

/// In a frontier prefix of this engine, the branch "no more options for
/// the item" (multiplicities), as in `dlxm`: [`STOP`], the leaf's.
pub use super::api::STOP;

const NONE: u32 = u32::MAX;

/// How the item branched on at a level is handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// The item is covered by any one branch: its options are taken out of
    /// the level once, on entering it.
    Close,
    /// Multiplicities: the item may take more options after this one; each
    /// option is removed from the level before it is tried.
    Tweak,
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    item: u32,
    mode: Mode,
    /// The branches at this level when it was entered (Knuth's degree, for
    /// the estimate of progress), and how many were started.
    degree: u32,
    tried: u32,
    /// The word of `cand` where the next option is looked for.
    word: u32,
    /// The option being tried, [`NONE`], or `STOP_X` for the "no more" branch.
    x: u32,
    /// The "no more options" branch is allowed here (the item needs none).
    stop_ok: bool,
}

impl Frame {
    /// A level not entered yet.
    const EMPTY: Frame = Frame {
        item: 0,
        mode: Mode::Close,
        degree: 0,
        tried: 0,
        word: 0,
        x: NONE,
        stop_ok: false,
    };
}

const STOP_X: u32 = u32::MAX - 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// The node at the floor is still to be entered.
    Fresh,
    /// About to enter `level` (its state and its item are ready).
    Forward,
    /// A leaf was reported below `level`: try its next branch.
    Back,
}

/// How `bitmrv` breaks ties between items with equally few options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ties {
    /// The item that had the fewest options in the problem as given (the
    /// most constrained at the start), then the first in the problem's
    /// order. On Sudoku as exact cover this makes trees many times smaller
    /// than Knuth's rule does (the 20 hard 16x16 puzzles of the shared set:
    /// 47,084 nodes in all, against 191,563,021), and elsewhere it is
    /// within a few percent either way.
    #[default]
    Constrained,
    /// The first in the problem's order, as Knuth's DLX1 and DLX2: the
    /// same tree as [`crate::engines::dlx`], node for node (the tests check it).
    Knuth,
}

/// The engine's order of the primary items: ties go to the earlier one.
fn tie_order(problem: &Problem, ties: Ties) -> Vec<u32> {
    let np = problem.n_primary();
    let mut order: Vec<u32> = (0..np as u32).collect();
    if ties == Ties::Constrained {
        let mut count = vec![0u32; np];
        for (k, o) in problem.options().enumerate() {
            if problem.is_active(k) {
                for i in o.items().filter(|&i| i < np) {
                    count[i] += 1;
                }
            }
        }
        // stable: equal counts keep the problem's order
        order.sort_by_key(|&i| count[i as usize]);
    }
    order
}

/// The words of `bitmrv`'s bitmaps and the length of its row of counts
/// for `problem`, if it takes it (for `auto`'s cost model).
pub fn shape(problem: &Problem) -> Option<(usize, usize)> {
    Layout::of(problem).ok().map(|l| (l.w, l.npad))
}

/// Whether `bitmrv` takes `problem`, and if not, why.
pub fn check(problem: &Problem) -> Result<(), Unsupported> {
    Layout::of(problem).map(|_| ())
}

/// Sizes worked out before anything is allocated.
struct Layout {
    /// Active options.
    n: usize,
    w: usize,
    np: usize,
    npad: usize,
    levels: usize,
    /// The most primary items of an option.
    stride: usize,
}

impl Layout {
    fn of(problem: &Problem) -> Result<Layout, Unsupported> {
        let np = problem.n_primary();
        let mut n = 0usize;
        let mut per_item = vec![0usize; problem.n_items()];
        let mut pairs = 0usize;
        let mut stride = 1usize;
        let mut seen: rustc_hash::FxHashSet<(u32, u32)> = Default::default();
        for (k, opt) in problem.options().enumerate() {
            if !problem.is_active(k) {
                continue;
            }
            n += 1;
            stride = stride.max(opt.items().filter(|&i| i < np).count());
            for e in opt.entries() {
                per_item[e.item] += 1;
                if e.color != 0 && seen.insert((e.item as u32, e.color)) {
                    pairs += 1;
                }
            }
        }
        if np >= 1 << 16 {
            return Err(Unsupported::TooManyItems {
                items: np,
                max: (1 << 16) - 1,
            });
        }
        let longest = per_item[..np].iter().copied().max().unwrap_or(0);
        if longest > MAX_LEN {
            return Err(Unsupported::TooManyOptions {
                options: longest,
                max: MAX_LEN,
            });
        }
        let w = n.div_ceil(64).max(1);
        let npad = (np + 1).next_multiple_of(16);
        let levels = if problem.has_multiplicities() {
            // each level commits a different option or closes an item
            let commits = (0..np)
                .map(|i| problem.bounds(i).1 as usize)
                .fold(0usize, usize::saturating_add)
                .min(n);
            commits.saturating_add(np).saturating_add(2)
        } else {
            np + 2
        };
        let classes = problem.n_items().saturating_add(pairs);
        let per_level = w * 16 + npad * if problem.has_multiplicities() { 8 } else { 2 };
        let bytes = classes
            .saturating_mul(w * 8)
            .saturating_add(levels.saturating_mul(per_level))
            .saturating_add(problem.n_entries().saturating_mul(4))
            .saturating_add(n.saturating_mul(stride).saturating_mul(2));
        if bytes > MAX_BYTES {
            return Err(Unsupported::TooLarge {
                bytes,
                max: MAX_BYTES,
            });
        }
        Ok(Layout {
            n,
            w,
            np,
            npad,
            levels,
            stride,
        })
    }
}

/// The most bytes of level state reserved at once (see `BitMrv::grow`).
const LEVEL_RESERVE: usize = 32 << 20;

/// The engine over a borrowed [`Problem`].
pub struct BitMrv<'p> {
    problem: &'p Problem,
    w: usize,
    np: usize,
    npad: usize,
    mult: bool,
    /// Active option `x` (the engine's number) is `ids[x]`.
    ids: Vec<u32>,
    /// The engine numbers primary items in the order that breaks ties
    /// (see [`tie_order`]): its item `i` is the problem's `unrank[i]`.
    unrank: Vec<u32>,
    /// Class `c` is `classes[c * w..(c + 1) * w]`: class `i < n_items` is
    /// every option containing item `i`; the classes after are those of
    /// (secondary item, colour) pairs: the options with that item in
    /// another colour or without one.
    classes: Vec<u64>,
    /// Option `x`'s classes: `kills[koff[x]..koff[x + 1]]` (without
    /// multiplicities, one per entry; with them, the secondary entries
    /// only), and its `pn[x]` primary items, `prims[x * stride..]`, padded
    /// to `stride` with the last slot of the counts (padding, which
    /// `apply_kill` puts back to [`COVERED`]) so that the hot loop has a
    /// fixed trip count.
    koff: Vec<u32>,
    kills: Vec<u32>,
    pn: Vec<u32>,
    stride: usize,
    prims: Vec<u16>,
    /// Entries of option `x`, minus one: what ruling it out costs in
    /// Knuth's updates.
    cost: Vec<u32>,
    lo: Vec<u32>,
    hi: Vec<u32>,
    // state per level (see the module documentation)
    live: Vec<u64>,
    cand: Vec<u64>,
    lens: Vec<u16>,
    need: Vec<u16>,
    cnt: Vec<u32>,
    /// The item to branch on at each level and its number of branches,
    /// worked out when the level's state was made.
    pend: Vec<(u16, u32)>,
    frames: Vec<Frame>,
    /// The root's state, to go back to.
    root_live: Vec<u64>,
    root_lens: Vec<u16>,
    root_need: Vec<u16>,
    /// Scratch: the classes of one option ORed together; the branches of
    /// each item (multiplicities).
    kill: Vec<u64>,
    theta: Vec<u16>,

    /// The floor's state, put back when the search ends.
    floor_live: Vec<u64>,
    floor_lens: Vec<u16>,
    level: usize,
    phase: Phase,
    avx2: bool,
    ctl: Control,
}

/// Builds the engine for `problem`.
pub fn build(problem: &Problem) -> Result<Box<dyn crate::Engine + '_>, EngineError> {
    Ok(Box::new(BitMrv::new(problem)?))
}

impl<'p> BitMrv<'p> {
    /// Builds the tables for `problem`, or says why it is not taken; ties
    /// are broken as [`Ties::Constrained`] says.
    pub fn new(problem: &'p Problem) -> Result<Self, EngineError> {
        Self::with_ties(problem, Ties::Constrained)
    }

    /// As [`new`](Self::new), with ties broken as `ties` says.
    pub fn with_ties(problem: &'p Problem, ties: Ties) -> Result<Self, EngineError> {
        let lay = Layout::of(problem).map_err(|reason| EngineError::Unsupported {
            engine: EngineKind::BitMrv,
            reason,
        })?;
        let Layout {
            w,
            np,
            npad,
            levels,
            stride,
            ..
        } = lay;
        let mult = problem.has_multiplicities();
        // the engine's number of each primary item: ties are broken in
        // this order (see `tie_order`)
        let unrank = tie_order(problem, ties);
        let t = Tables::new(problem, &lay, &unrank, mult);
        let (lo, hi): (Vec<u32>, Vec<u32>) =
            unrank.iter().map(|&i| problem.bounds(i as usize)).unzip();
        let (root_live, root_need) = root_state(&lay, &lo, mult);
        let first = levels.min(16);
        let mut e = BitMrv {
            problem,
            unrank,
            w,
            np,
            npad,
            mult,
            ids: t.ids,
            classes: t.classes,
            koff: t.koff,
            kills: t.kills,
            pn: t.pn,
            stride,
            prims: t.prims,
            cost: t.cost,
            lo,
            hi,
            // the state of the levels the search reaches, grown as it
            // goes deeper (see `grow`)
            live: vec![0; first * w],
            cand: vec![0; first * w],
            lens: vec![COVERED; first * npad],
            need: if mult {
                vec![0; first * npad]
            } else {
                Vec::new()
            },
            cnt: if mult {
                vec![0; first * np]
            } else {
                Vec::new()
            },
            pend: vec![(0, 0); levels],
            frames: vec![Frame::EMPTY; levels],
            root_live,
            root_lens: t.lens,
            root_need,
            kill: vec![0; w],
            theta: vec![0; if mult { npad } else { 0 }],
            floor_live: vec![0; w],
            floor_lens: vec![0; npad],
            level: 0,
            phase: Phase::Fresh,
            avx2: crate::cpu::avx2(),
            ctl: Control::new(levels + 1),
        };
        e.load_root();
        Ok(e)
    }

    /// The problem this engine solves.
    pub fn problem(&self) -> &'p Problem {
        self.problem
    }
}

/// The tables of the active options, built once (the fields of the same
/// names in [`BitMrv`]), and the counts of the root.
struct Tables {
    ids: Vec<u32>,
    classes: Vec<u64>,
    koff: Vec<u32>,
    kills: Vec<u32>,
    pn: Vec<u32>,
    prims: Vec<u16>,
    cost: Vec<u32>,
    lens: Vec<u16>,
}

impl Tables {
    /// The tables of `problem` laid out as `lay` says, its primary items
    /// numbered in the order `unrank`.
    fn new(problem: &Problem, lay: &Layout, unrank: &[u32], mult: bool) -> Tables {
        let Layout {
            n,
            w,
            np,
            npad,
            stride,
            ..
        } = *lay;
        let ni = problem.n_items();
        let mut rank = vec![0u32; np];
        for (r, &i) in unrank.iter().enumerate() {
            rank[i as usize] = r as u32;
        }
        let (ids, opts, pair_class) = active_options(problem, n);
        let nclasses = ni + pair_class.len();
        let mut classes = vec![0u64; nclasses * w];
        // colours used on each secondary item, for the pair classes
        let mut colors_of: Vec<Vec<(u32, u32)>> = vec![Vec::new(); ni];
        for (&(j, c), &cl) in &pair_class {
            colors_of[j as usize].push((c, cl));
        }
        let mut koff = Vec::with_capacity(n + 1);
        let mut kills = Vec::new();
        let mut pn = Vec::with_capacity(n);
        let mut prims = Vec::with_capacity(n * stride);
        let mut cost = Vec::with_capacity(n);
        let mut lens = vec![COVERED; npad];
        lens[..np].fill(0);
        for (x, opt) in opts.into_iter().enumerate() {
            let (word, bit) = (x / 64, 1u64 << (x % 64));
            koff.push(kills.len() as u32);
            let start = prims.len();
            cost.push(opt.len() as u32 - 1);
            for e in opt.entries() {
                let i = if e.item < np {
                    rank[e.item] as usize
                } else {
                    e.item
                };
                classes[i * w + word] |= bit;
                // the pair classes of i's other colours rule this one out
                for &(c, cl) in &colors_of[e.item] {
                    if c != e.color {
                        classes[cl as usize * w + word] |= bit;
                    }
                }
                if i < np {
                    prims.push(i as u16);
                    lens[i] += 1;
                    if !mult {
                        kills.push(i as u32);
                    }
                } else if e.color != 0 {
                    kills.push(pair_class[&(e.item as u32, e.color)]);
                } else {
                    kills.push(i as u32);
                }
            }
            pn.push((prims.len() - start) as u32);
            prims.resize(start + stride, (npad - 1) as u16);
        }
        koff.push(kills.len() as u32);
        Tables {
            ids,
            classes,
            koff,
            kills,
            pn,
            prims,
            cost,
            lens,
        }
    }
}

/// The `n` active options of `problem` (their numbers and the options),
/// and the classes of (item, colour) pairs, numbered after the items.
#[allow(clippy::type_complexity)]
fn active_options(
    problem: &Problem,
    n: usize,
) -> (
    Vec<u32>,
    Vec<OptionRef<'_>>,
    rustc_hash::FxHashMap<(u32, u32), u32>,
) {
    let ni = problem.n_items();
    let mut pair_class: rustc_hash::FxHashMap<(u32, u32), u32> = Default::default();
    let mut ids = Vec::with_capacity(n);
    let mut opts = Vec::with_capacity(n);
    for (k, opt) in problem.options().enumerate() {
        if !problem.is_active(k) {
            continue;
        }
        opts.push(opt);
        for e in opt.entries() {
            if e.color != 0 {
                let next = (ni + pair_class.len()) as u32;
                pair_class.entry((e.item as u32, e.color)).or_insert(next);
            }
        }
        ids.push(k as u32);
    }
    (ids, opts, pair_class)
}

/// The root's live options (every active one) and, with multiplicities,
/// the times each primary item must be covered (`lo`, capped).
fn root_state(lay: &Layout, lo: &[u32], mult: bool) -> (Vec<u64>, Vec<u16>) {
    let mut root_live = vec![0u64; lay.w];
    for x in 0..lay.n {
        root_live[x / 64] |= 1 << (x % 64);
    }
    let mut root_need = vec![0u16; lay.npad];
    if mult {
        for i in 0..lay.np {
            root_need[i] = lo[i].min(COVERED as u32) as u16;
        }
    }
    (root_live, root_need)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::Engine;

    use crate::problem::from_test_text as parse;

    /// Every solution, checked, with the invariants after each.
    fn run(p: &Problem) -> (Vec<Vec<usize>>, u64, u64) {
        let mut e = BitMrv::with_ties(p, Ties::Knuth).unwrap();
        e.check_invariants().unwrap();
        let mut sols = Vec::new();
        while let Some(s) = e.next_solution() {
            let mut s = s.to_vec();
            crate::verify(p, &s).unwrap();
            s.sort();
            sols.push(s);
            e.check_invariants().unwrap();
        }
        assert!(e.is_complete());
        e.check_invariants().unwrap();
        (sols, e.stats().nodes, e.stats().updates)
    }

    #[test]
    fn toy_as_knuth_counts_it() {
        let p = parse("A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n");
        let (sols, nodes, updates) = run(&p);
        assert_eq!(sols, vec![vec![0, 3, 4]]);
        assert_eq!((nodes, updates), (6, 30));
    }

    #[test]
    fn colours() {
        let p = parse("A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n");
        let (sols, nodes, _) = run(&p);
        assert_eq!(sols, vec![vec![1, 3]]);
        assert_eq!(nodes, 4); // Knuth's DLX2
    }

    #[test]
    fn the_checker_can_fail() {
        let p = crate::classic::queens(6);
        let mut e = BitMrv::new(&p).unwrap();
        e.next_solution().unwrap();
        e.check_invariants().unwrap();
        let top = e.top();
        let w = e.w;
        e.live[top * w] ^= 1;
        assert!(e.check_invariants().is_err());
        e.live[top * w] ^= 1;
        e.lens[top * e.npad] = e.lens[top * e.npad].wrapping_add(1);
        assert!(e.check_invariants().is_err());
    }
}
