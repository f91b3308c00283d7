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

use super::api::{DescendError, EngineError, Unsupported};
use super::control::{Control, Search, Step};
use super::kind::EngineKind;
use crate::problem::{OptionId, Problem};
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

/// The smallest value of `v` and the first place it is at. `v`'s length
/// is a multiple of 16.
#[inline(always)]
fn argmin(v: &[u16]) -> (u16, usize) {
    if v.len() <= 1 << 16 {
        // one pass over (value, place) keys: vectorises to unsigned
        // minimums of 8 or 16 keys at a time
        let key = v
            .iter()
            .enumerate()
            .map(|(i, &x)| (x as u32) << 16 | i as u32)
            .fold(u32::MAX, u32::min);
        return ((key >> 16) as u16, (key & 0xffff) as usize);
    }
    let m = v.iter().copied().fold(COVERED, u16::min);
    (m, v.iter().position(|&x| x == m).unwrap_or(0))
}

/// Clears from `live` the options of `kill` and counts them off the items
/// in `lens` (each option's `S` entries of `prims`, padding included: the
/// caller puts the padding's count back); returns Knuth's updates.
#[inline(always)]
fn kill_loop<const S: usize>(
    live: &mut [u64],
    kill: &[u64],
    lens: &mut [u16],
    prims: &[u16],
    cost: &[u32],
) -> u64 {
    let mut updates = 0u64;
    for (k, (lv, kl)) in live.iter_mut().zip(kill).enumerate() {
        let mut d = *lv & *kl;
        *lv &= !*kl;
        while d != 0 {
            let x = k * 64 + d.trailing_zeros() as usize;
            d &= d - 1;
            debug_assert!(x < cost.len() && (x + 1) * S <= prims.len());
            // SAFETY: a live bit is an option, x < cost.len() (bits past
            // the last option are never set: `check_invariants` checks
            // it), and `prims` holds S entries for each option, each below
            // lens.len() (items below np, padding npad - 1).
            unsafe {
                let row = prims.get_unchecked(x * S..x * S + S);
                for &j in row {
                    let c = lens.get_unchecked_mut(j as usize);
                    *c = c.wrapping_sub(1);
                }
                updates += *cost.get_unchecked(x) as u64;
            }
        }
    }
    updates
}

/// [`kill_loop`] for options of any length `s`.
#[inline(always)]
fn kill_loop_any(
    live: &mut [u64],
    kill: &[u64],
    lens: &mut [u16],
    prims: &[u16],
    cost: &[u32],
    s: usize,
) -> u64 {
    let mut updates = 0u64;
    for (k, (lv, kl)) in live.iter_mut().zip(kill).enumerate() {
        let mut d = *lv & *kl;
        *lv &= !*kl;
        while d != 0 {
            let x = k * 64 + d.trailing_zeros() as usize;
            d &= d - 1;
            for &j in &prims[x * s..x * s + s] {
                lens[j as usize] = lens[j as usize].wrapping_sub(1);
            }
            updates += cost[x] as u64;
        }
    }
    updates
}

/// With multiplicities, the number of branches of each open item:
/// `len + 1 - need` (0 when fewer options are left than it needs, `len + 1`
/// when it needs none: the options, and "no more"), [`COVERED`] for closed
/// items; the smallest and the first place of it.
#[inline(always)]
fn argmin_theta(lens: &[u16], need: &[u16], scratch: &mut [u16]) -> (u16, usize) {
    for ((t, &l), &n) in scratch.iter_mut().zip(lens).zip(need) {
        *t = if l == COVERED {
            COVERED
        } else {
            (l + 1).saturating_sub(n)
        };
    }
    argmin(scratch)
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
            n,
            w,
            np,
            npad,
            levels,
            stride,
        } = lay;
        let mult = problem.has_multiplicities();
        let ni = problem.n_items();
        // the engine's number of each primary item: ties are broken in
        // this order (see `tie_order`)
        let unrank = tie_order(problem, ties);
        let mut rank = vec![0u32; np];
        for (r, &i) in unrank.iter().enumerate() {
            rank[i as usize] = r as u32;
        }
        // the classes of (item, colour) pairs, numbered after the items
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
        let (lo, hi): (Vec<u32>, Vec<u32>) =
            unrank.iter().map(|&i| problem.bounds(i as usize)).unzip();
        let mut root_live = vec![0u64; w];
        for x in 0..n {
            root_live[x / 64] |= 1 << (x % 64);
        }
        let mut root_need = vec![0u16; npad];
        if mult {
            for i in 0..np {
                root_need[i] = lo[i].min(COVERED as u32) as u16;
            }
        }
        let first = levels.min(16);
        let mut e = BitMrv {
            problem,
            unrank,
            w,
            np,
            npad,
            mult,
            ids,
            classes,
            koff,
            kills,
            pn,
            stride,
            prims,
            cost,
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
            frames: vec![
                Frame {
                    item: 0,
                    mode: Mode::Close,
                    degree: 0,
                    tried: 0,
                    word: 0,
                    x: NONE,
                    stop_ok: false,
                };
                levels
            ],
            root_live,
            root_lens: lens,
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

    /// Level 0 back to the root's state.
    fn load_root(&mut self) {
        let (w, np, npad) = (self.w, self.np, self.npad);
        self.live[..w].copy_from_slice(&self.root_live);
        self.lens[..npad].copy_from_slice(&self.root_lens);
        if self.mult {
            self.need[..npad].copy_from_slice(&self.root_need);
            self.cnt[..np].fill(0);
        }
        self.level = 0;
        self.phase = Phase::Fresh;
    }

    /// The item to branch on in level `l`'s state: (branches, item);
    /// `COVERED` branches when every item is covered (a solution).
    #[inline(always)]
    fn choose(&mut self, l: usize) -> (u16, u32) {
        let npad = self.npad;
        let lens = &self.lens[l * npad..(l + 1) * npad];
        let (m, i) = if self.mult {
            let need = &self.need[l * npad..(l + 1) * npad];
            argmin_theta(lens, need, &mut self.theta)
        } else {
            argmin(lens)
        };
        (m, i as u32)
    }

    /// Copies level `l`'s state into level `l + 1`.
    #[inline(always)]
    fn push_state(&mut self, l: usize) {
        let (w, np, npad) = (self.w, self.np, self.npad);
        if (l + 2) * w > self.live.len() {
            self.grow(l + 2);
        }
        self.live.copy_within(l * w..(l + 1) * w, (l + 1) * w);
        self.lens
            .copy_within(l * npad..(l + 1) * npad, (l + 1) * npad);
        if self.mult {
            self.need
                .copy_within(l * npad..(l + 1) * npad, (l + 1) * npad);
            self.cnt.copy_within(l * np..(l + 1) * np, (l + 1) * np);
        }
    }

    /// Makes room for the state of `levels` levels (at least). The first
    /// time, room for every level the search can reach is reserved (up to
    /// [`LEVEL_RESERVE`] bytes), untouched: its pages are only faulted in
    /// as levels are used, and no level is copied as the search goes
    /// deeper (doubling copied each level once more and touched twice its
    /// pages: a 16x16 Sudoku's 172 levels of 1.6 KB were a tenth of its
    /// run). Beyond the reserve, the state doubles.
    #[cold]
    fn grow(&mut self, levels: usize) {
        let (w, np, npad) = (self.w, self.np, self.npad);
        let have = self.live.len() / w;
        let max = self.pend.len();
        let per_level = 16 * w + 2 * npad + if self.mult { 2 * npad + 4 * np } else { 0 };
        let reserve = max.min(LEVEL_RESERVE / per_level.max(1));
        if reserve > have && self.live.capacity() < reserve * w {
            self.live.reserve_exact(reserve * w - self.live.len());
            self.cand.reserve_exact(reserve * w - self.cand.len());
            self.lens.reserve_exact(reserve * npad - self.lens.len());
            if self.mult {
                self.need.reserve_exact(reserve * npad - self.need.len());
                self.cnt.reserve_exact(reserve * np - self.cnt.len());
            }
        }
        let want = if levels <= reserve {
            levels.max(have + 8).min(reserve)
        } else {
            levels.max(have * 2).min(max)
        };
        self.live.resize(want * w, 0);
        self.cand.resize(want * w, 0);
        self.lens.resize(want * npad, COVERED);
        if self.mult {
            self.need.resize(want * npad, 0);
            self.cnt.resize(want * np, 0);
        }
    }

    /// Rules out, in level `l`, the live options of the classes ORed into
    /// `self.kill`: clears them and counts them off their items. Returns
    /// the updates (Knuth's: the other entries of each option).
    #[inline(always)]
    fn apply_kill(&mut self, l: usize) -> u64 {
        let (w, npad, s) = (self.w, self.npad, self.stride);
        let live = &mut self.live[l * w..(l + 1) * w];
        let lens = &mut self.lens[l * npad..(l + 1) * npad];
        let prims = &self.prims[..self.ids.len() * s];
        let cost = &self.cost[..self.ids.len()];
        // the loop with the options' length known to the compiler, for
        // the usual lengths
        let updates = match s {
            1 => kill_loop::<1>(live, &self.kill, lens, prims, cost),
            2 => kill_loop::<2>(live, &self.kill, lens, prims, cost),
            3 => kill_loop::<3>(live, &self.kill, lens, prims, cost),
            4 => kill_loop::<4>(live, &self.kill, lens, prims, cost),
            5 => kill_loop::<5>(live, &self.kill, lens, prims, cost),
            6 => kill_loop::<6>(live, &self.kill, lens, prims, cost),
            7 => kill_loop::<7>(live, &self.kill, lens, prims, cost),
            8 => kill_loop::<8>(live, &self.kill, lens, prims, cost),
            _ => kill_loop_any(live, &self.kill, lens, prims, cost, s),
        };
        lens[npad - 1] = COVERED;
        updates
    }

    /// Takes option `x` out of level `l` (a branch already tried, or about
    /// to be, at a level of multiplicities).
    #[inline(always)]
    fn remove_one(&mut self, l: usize, x: usize) -> u64 {
        let (w, npad) = (self.w, self.npad);
        self.live[l * w + x / 64] &= !(1u64 << (x % 64));
        let lens = &mut self.lens[l * npad..(l + 1) * npad];
        let a = x * self.stride;
        for &j in &self.prims[a..a + self.pn[x] as usize] {
            lens[j as usize] = lens[j as usize].wrapping_sub(1);
        }
        self.cost[x] as u64
    }

    /// Covers item `i` in level `l` as Knuth does on choosing it: its
    /// options move from `live` to `cand`, and are counted off their other
    /// items. Returns the updates.
    #[inline(always)]
    fn close_item(&mut self, l: usize, i: usize) -> u64 {
        let w = self.w;
        let class = &self.classes[i * w..(i + 1) * w];
        let live = &self.live[l * w..(l + 1) * w];
        let cand = &mut self.cand[l * w..(l + 1) * w];
        for ((c, &lv), &cl) in cand.iter_mut().zip(live).zip(class) {
            *c = lv & cl;
        }
        self.kill.copy_from_slice(class);
        let u = 1 + self.apply_kill(l);
        self.lens[l * self.npad + i] = COVERED;
        u
    }

    /// Applies option `x` to level `l`'s state (already a copy of its
    /// parent's), the branch taken on item `item` (whose own class, if
    /// closed already, is skipped). Returns the updates.
    #[inline(always)]
    fn commit(&mut self, l: usize, x: usize, item: usize) -> u64 {
        let (w, np, npad) = (self.w, self.np, self.npad);
        let (ka, kb) = (self.koff[x] as usize, self.koff[x + 1] as usize);
        let mut updates = self.cost[x] as u64;
        self.kill.fill(0);
        for &c in &self.kills[ka..kb] {
            if c as usize == item {
                continue;
            }
            let class = &self.classes[c as usize * w..(c as usize + 1) * w];
            for (k, &v) in self.kill.iter_mut().zip(class) {
                *k |= v;
            }
        }
        let (pa, pb) = (x * self.stride, x * self.stride + self.pn[x] as usize);
        if !self.mult {
            updates += self.apply_kill(l);
            let lens = &mut self.lens[l * npad..(l + 1) * npad];
            for &j in &self.prims[pa..pb] {
                lens[j as usize] = COVERED;
            }
            return updates;
        }
        // multiplicities: an item is closed when its count reaches its most
        let mut closed = false;
        for p in pa..pb {
            let j = self.prims[p] as usize;
            let c = &mut self.cnt[l * np + j];
            *c += 1;
            let nd = &mut self.need[l * npad + j];
            *nd = nd.saturating_sub(1);
            if *c == self.hi[j] && self.lens[l * npad + j] != COVERED {
                closed = true;
                let class = &self.classes[j * w..(j + 1) * w];
                for (k, &v) in self.kill.iter_mut().zip(class) {
                    *k |= v;
                }
            }
        }
        updates += self.apply_kill(l);
        if closed {
            for p in pa..pb {
                let j = self.prims[p] as usize;
                if self.cnt[l * np + j] == self.hi[j] {
                    self.lens[l * npad + j] = COVERED;
                }
            }
        }
        updates
    }

    /// The next option of `cand[l]`, taken out of it.
    #[inline(always)]
    fn next_cand(&mut self, l: usize) -> Option<usize> {
        let w = self.w;
        let f = &mut self.frames[l];
        let cand = &mut self.cand[l * w..(l + 1) * w];
        let mut k = f.word as usize;
        while k < w {
            let c = cand[k];
            if c != 0 {
                cand[k] = c & (c - 1);
                f.word = k as u32;
                return Some(k * 64 + c.trailing_zeros() as usize);
            }
            k += 1;
        }
        f.word = w as u32;
        None
    }

    /// Sets up the frame of level `l` for item `i` with `theta` branches.
    /// Returns the updates.
    #[inline(always)]
    fn enter(&mut self, l: usize, i: usize, theta: u16) -> u64 {
        let w = self.w;
        let mut mode = Mode::Close;
        let mut stop_ok = false;
        if self.mult {
            let c = self.cnt[l * self.np + i];
            stop_ok = self.need[l * self.npad + i] == 0;
            if c + 1 < self.hi[i] {
                mode = Mode::Tweak;
            }
        }
        self.frames[l] = Frame {
            item: i as u32,
            mode,
            degree: theta as u32,
            tried: 0,
            word: 0,
            x: NONE,
            stop_ok,
        };
        match mode {
            Mode::Close => self.close_item(l, i),
            Mode::Tweak => {
                let class = &self.classes[i * w..(i + 1) * w];
                let live = &self.live[l * w..(l + 1) * w];
                let cand = &mut self.cand[l * w..(l + 1) * w];
                for ((c, &lv), &cl) in cand.iter_mut().zip(live).zip(class) {
                    *c = lv & cl;
                }
                0
            }
        }
    }

    /// Starts the next branch of level `l` into level `l + 1`: true when
    /// there was one. Adds the updates to `updates`.
    #[inline(always)]
    fn next_branch(&mut self, l: usize, updates: &mut u64) -> bool {
        let f = self.frames[l];
        let i = f.item as usize;
        if f.x == STOP_X {
            return false;
        }
        match f.mode {
            Mode::Close => {
                if let Some(x) = self.next_cand(l) {
                    self.frames[l].x = x as u32;
                    self.frames[l].tried += 1;
                    self.push_state(l);
                    *updates += self.commit(l + 1, x, i);
                    return true;
                }
            }
            Mode::Tweak => {
                let left = self.lens[l * self.npad + i];
                let need = self.need[l * self.npad + i];
                if left >= need.max(1) {
                    if let Some(x) = self.next_cand(l) {
                        *updates += self.remove_one(l, x);
                        self.frames[l].x = x as u32;
                        self.frames[l].tried += 1;
                        self.push_state(l);
                        *updates += self.commit(l + 1, x, usize::MAX);
                        return true;
                    }
                }
            }
        }
        if f.stop_ok {
            // no more options for i: close it as it stands
            self.frames[l].x = STOP_X;
            self.frames[l].tried += 1;
            self.push_state(l);
            self.lens[(l + 1) * self.npad + i] = COVERED;
            return true;
        }
        false
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn step_avx2(&mut self) -> Step {
        self.step_portable()
    }

    #[inline(always)]
    fn step_portable(&mut self) -> Step {
        let floor = self.ctl.floor;
        let mut nodes = self.ctl.stats.nodes;
        let mut updates = self.ctl.stats.updates;
        let frontier = self.ctl.frontier;
        let pause_at = self.ctl.pause_at;
        let cancel = self.ctl.cancel.clone();
        let mut level = self.level;
        let mut forward = match self.phase {
            Phase::Fresh => {
                level = floor;
                let (t, i) = self.choose(level);
                if t == COVERED {
                    // nothing left to cover: the empty (or prefix) solution
                    nodes += 1;
                    self.ctl.stats.profile[level] += 1;
                    self.ctl.stats.nodes = nodes;
                    self.level = level;
                    self.record(level);
                    self.ctl.solution.retain(|&o| o != STOP);
                    return Step::LastSolution;
                }
                self.pend[level] = (t, i);
                self.phase = Phase::Forward;
                let (w, npad) = (self.w, self.npad);
                self.floor_live
                    .copy_from_slice(&self.live[level * w..(level + 1) * w]);
                self.floor_lens
                    .copy_from_slice(&self.lens[level * npad..(level + 1) * npad]);
                true
            }
            Phase::Forward => true,
            Phase::Back => false,
        };
        let step = 'outer: loop {
            if forward {
                if level == frontier {
                    level -= 1;
                    self.phase = Phase::Back;
                    break Step::Frontier;
                }
                if nodes >= pause_at {
                    self.phase = Phase::Forward;
                    break Step::Pause;
                }
                nodes += 1;
                self.ctl.stats.profile[level] += 1;
                if Control::cancelled(&cancel, nodes) {
                    nodes -= 1;
                    self.ctl.stats.profile[level] -= 1;
                    self.phase = Phase::Forward;
                    break Step::Cancelled;
                }
                let (t, i) = self.pend[level];
                if t == 0 && !self.mult {
                    // Knuth covers the item even so
                    updates += 1;
                }
                if t == 0 {
                    self.frames[level].x = STOP_X;
                    self.frames[level].degree = 0;
                    self.frames[level].tried = 0;
                } else {
                    updates += self.enter(level, i as usize, t);
                }
            }
            // the next branch of `level`, or back up
            loop {
                if self.next_branch(level, &mut updates) {
                    break;
                }
                if level == floor {
                    // the floor's state as it was before it was entered
                    let (w, npad) = (self.w, self.npad);
                    self.live[level * w..(level + 1) * w].copy_from_slice(&self.floor_live);
                    self.lens[level * npad..(level + 1) * npad].copy_from_slice(&self.floor_lens);
                    self.phase = Phase::Fresh;
                    break 'outer Step::Done;
                }
                level -= 1;
            }
            let (t, i) = self.choose(level + 1);
            if t == COVERED {
                // a solution, counted as a node one level down
                nodes += 1;
                self.ctl.stats.profile[level + 1] += 1;
                self.phase = Phase::Back;
                break Step::Solution;
            }
            self.pend[level + 1] = (t, i);
            level += 1;
            forward = true;
        };
        self.level = level;
        self.ctl.stats.nodes = nodes;
        self.ctl.stats.updates = updates;
        if matches!(step, Step::Solution | Step::Frontier) {
            self.record(level + 1);
            if step == Step::Solution {
                self.ctl.solution.retain(|&o| o != STOP);
            }
        }
        step
    }

    /// Puts the options chosen at levels `0..top` into `solution`
    /// ([`STOP`] for "no more" branches; left out of solutions) with their
    /// levels' degrees.
    fn record(&mut self, top: usize) {
        let (ids, frames) = (&self.ids, &self.frames);
        let path = frames[..top].iter().map(|f| {
            let o = if f.x == STOP_X || f.x == NONE {
                STOP
            } else {
                ids[f.x as usize] as OptionId
            };
            (o, f.degree)
        });
        self.ctl.record(path);
    }

    /// Knuth's estimate of the size of this engine's search tree: `probes`
    /// random paths from the root, each node weighted by the product of
    /// the degrees above it. Call on a fresh or reset engine; it is left
    /// at the root.
    pub fn estimate(&mut self, probes: usize, seed: u64) -> Estimate {
        let mut next_rand = crate::stats::xorshift(seed);
        let mut tally = Tally::default();
        for _ in 0..probes.max(1) {
            self.load_root();
            let mut weight = 1.0f64;
            let mut l = 0;
            loop {
                tally.node(weight);
                let (t, i) = self.choose(l);
                if t == COVERED {
                    break;
                }
                if t == 0 {
                    tally.updates(weight * (!self.mult) as u8 as f64);
                    break;
                }
                let u = self.enter(l, i as usize, t);
                tally.updates(weight * u as f64);
                // the r-th branch: skip the r before it as the search
                // would (a level of multiplicities removes them)
                let d = t as u64;
                let r = next_rand() % d;
                let mut u = 0u64;
                for _ in 0..r {
                    if let Some(x) = self.next_cand(l) {
                        self.frames[l].tried += 1;
                        if self.frames[l].mode == Mode::Tweak {
                            u += self.remove_one(l, x);
                        }
                    }
                }
                if !self.next_branch(l, &mut u) {
                    break;
                }
                // every branch of this node costs about as much as this one
                tally.updates(weight * d as f64 * u as f64);
                weight *= d as f64;
                l += 1;
            }
            tally.end_probe();
            if tally.small_tree() {
                break;
            }
        }
        self.load_root();
        tally.finish()
    }

    /// The options chosen (not "no more" branches) at the levels whose
    /// state is applied below `top`, as the engine numbers them.
    fn chosen_below(&self, top: usize) -> Vec<usize> {
        self.frames[..top]
            .iter()
            .filter(|f| f.x != STOP_X && f.x != NONE)
            .map(|f| f.x as usize)
            .collect()
    }

    /// The deepest level whose state stands for the choices made.
    fn top(&self) -> usize {
        match self.phase {
            Phase::Fresh => self.ctl.floor,
            Phase::Forward => self.level,
            Phase::Back => self.level + 1,
        }
    }

    /// Checks the state of the deepest level against the problem and the
    /// choices above it, as the invariants of the module documentation say
    /// (Knuth's `sanity()`): which options are live, every count, every
    /// covered item. Looks at every option: for small problems, in tests.
    pub fn check_invariants(&self) -> Result<(), String> {
        let p = self.problem;
        let (w, np, npad) = (self.w, self.np, self.npad);
        let top = self.top();
        let chosen = self.chosen_below(top);
        // in the engine's numbering of primary items
        let mut rank = vec![0usize; np];
        for (r, &i) in self.unrank.iter().enumerate() {
            rank[i as usize] = r;
        }
        let eng = |i: usize| if i < np { rank[i] } else { i };
        let mut cnt = vec![0u32; np];
        let mut used: Vec<Option<u32>> = vec![None; p.n_items()];
        let mut bare = vec![false; p.n_items()];
        for &x in &chosen {
            for e in p.option(self.ids[x] as usize).entries() {
                if e.item < np {
                    cnt[rank[e.item]] += 1;
                } else if e.color == 0 {
                    bare[e.item] = true;
                } else {
                    used[e.item] = Some(e.color);
                }
            }
        }
        // items closed by a frame: covered (Close), or "no more" branches
        let mut closed = vec![false; np];
        for i in 0..np {
            closed[i] = cnt[i] >= self.hi[i];
        }
        for f in &self.frames[..top] {
            if f.x == STOP_X || f.mode == Mode::Close {
                closed[f.item as usize] = true;
            }
        }
        let live = &self.live[top * w..(top + 1) * w];
        let lens = &self.lens[top * npad..(top + 1) * npad];
        let mut want = vec![0u32; np];
        for x in 0..self.ids.len() {
            let o = self.ids[x] as usize;
            let ok = !chosen.contains(&x)
                && p.option(o).entries().all(|e| {
                    if e.item < np {
                        !closed[rank[e.item]]
                    } else if e.color == 0 {
                        !bare[e.item] && used[e.item].is_none()
                    } else {
                        !bare[e.item] && used[e.item].is_none_or(|c| c == e.color)
                    }
                })
                && self.frames[..top].iter().all(|f| {
                    // an earlier branch of a level of multiplicities on
                    // one of x's items removed x
                    f.mode != Mode::Tweak
                        || f.x == NONE
                        || !p.option(o).items().any(|i| eng(i) == f.item as usize)
                        || (f.x != STOP_X && x > f.x as usize)
                });
            let is = live[x / 64] >> (x % 64) & 1 == 1;
            if ok != is {
                return Err(format!(
                    "option {o} is {}live at level {top}, and should {}be",
                    if is { "" } else { "not " },
                    if ok { "" } else { "not " }
                ));
            }
            if ok {
                for i in p.option(o).items().filter(|&i| i < np) {
                    want[rank[i]] += 1;
                }
            }
        }
        for x in self.ids.len()..w * 64 {
            if live[x / 64] >> (x % 64) & 1 == 1 {
                return Err(format!("bit {x} past the last option is set"));
            }
        }
        for i in 0..np {
            let expect = if closed[i] { COVERED } else { want[i] as u16 };
            if lens[i] != expect {
                return Err(format!(
                    "item {} counts {} options at level {top}, not {expect}",
                    p.item_name(self.unrank[i] as usize),
                    lens[i]
                ));
            }
        }
        if lens[np..].iter().any(|&l| l != COVERED) {
            return Err("the padding of the counts is not COVERED".into());
        }
        if self.mult {
            if self.cnt[top * np..(top + 1) * np] != cnt[..] {
                return Err(format!("counts of chosen options {cnt:?} differ"));
            }
            for (i, (&lo, &c)) in self.lo.iter().zip(&cnt).enumerate() {
                let need = lo.saturating_sub(c).min(COVERED as u32) as u16;
                if self.need[top * npad + i] != need {
                    return Err(format!(
                        "item {} needs {need}",
                        p.item_name(self.unrank[i] as usize)
                    ));
                }
            }
        }
        Ok(())
    }
}

impl Search for BitMrv<'_> {
    fn control(&self) -> &Control {
        &self.ctl
    }

    fn control_mut(&mut self) -> &mut Control {
        &mut self.ctl
    }

    fn step(&mut self) -> Step {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: AVX2 was detected when the engine was built.
            return unsafe { self.step_avx2() };
        }
        self.step_portable()
    }

    fn rewind(&mut self) {
        self.load_root();
    }

    fn follow(&mut self, prefix: &[OptionId]) -> Result<bool, DescendError> {
        self.load_root();
        let mut scratch = 0u64;
        for (l, &o) in prefix.iter().enumerate() {
            let bad = DescendError::NotChosenHere {
                level: l,
                option: o,
            };
            let (t, i) = self.choose(l);
            if t == COVERED || t == 0 {
                self.load_root();
                return Err(bad);
            }
            self.enter(l, i as usize, t);
            let mut ok = false;
            while self.next_branch(l, &mut scratch) {
                let x = self.frames[l].x;
                let here = if x == STOP_X {
                    STOP
                } else {
                    self.ids[x as usize] as OptionId
                };
                if here == o {
                    ok = true;
                    break;
                }
            }
            if !ok {
                self.load_root();
                return Err(bad);
            }
        }
        let l = prefix.len();
        self.level = l;
        let (t, i) = self.choose(l);
        self.pend[l] = (t, i);
        // the floor's node is entered by the first step
        self.phase = Phase::Fresh;
        Ok(t == COVERED)
    }

    fn position(&self) -> f64 {
        let lim = match self.phase {
            Phase::Fresh => return 0.0,
            Phase::Back => self.level + 1,
            Phase::Forward => self.level,
        };
        let mut f = 0.0;
        let mut w = 1.0;
        for fr in &self.frames[self.ctl.floor..lim] {
            w /= fr.degree.max(1) as f64;
            f += fr.tried.saturating_sub(1) as f64 * w;
        }
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::Engine;

    fn parse(text: &str) -> Problem {
        let mut b = crate::ProblemBuilder::new();
        let mut lines = text.lines();
        let head = lines.next().unwrap();
        let (prim, sec) = head.split_once('|').unwrap_or((head, ""));
        for n in prim.split_whitespace() {
            b.primary(n).unwrap();
        }
        for n in sec.split_whitespace() {
            b.secondary(n).unwrap();
        }
        for l in lines {
            b.option(l.split_whitespace()).unwrap();
        }
        b.build().unwrap()
    }

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
