//! What `auto` means, and the factory: the shape of a problem that `auto`
//! reads, the engines' estimated costs ([`auto_costs`]), [`choose_engine`],
//! and [`EngineKind::check`], [`EngineKind::resolve`] and
//! [`EngineKind::build`], which know every engine. Nothing imports this
//! module but the ones that choose or build an engine.

use super::api::{Engine, EngineError, Unsupported};
use super::kind::EngineKind;
use crate::problem::Problem;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The dancing-links engine for `problem`: `dlx` (Knuth's order, step for
/// step), or `dlxm` when the problem has multiplicities, which only it
/// takes. No estimate is made: what the library's shortcuts
/// ([`crate::count`](fn@crate::count), [`crate::first`], [`crate::all`],
/// [`crate::solutions`]) run, so that their answers come in Knuth's order,
/// at once.
pub fn links_engine(problem: &Problem) -> EngineKind {
    if problem.has_multiplicities() {
        EngineKind::Dlxm
    } else {
        EngineKind::Dlx
    }
}

/// What `auto` knows of a problem's shape before it searches: the words
/// of the bitset engine's masks and of `bitmrv`'s bitmaps, and `bitmrv`'s
/// row of counts (0 for an engine that does not take the problem).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProblemShape {
    pub bitset_words: f64,
    pub bitmrv_words: f64,
    pub bitmrv_counts: f64,
}

impl ProblemShape {
    /// What each feature of [`features`](Self::features) is, in order.
    pub const FEATURES: &'static str =
        "per node, per node and word, per node and 16 counts, per update";

    pub fn of(problem: &Problem) -> ProblemShape {
        let bitset_words = if super::bitset::check(problem).is_ok() {
            problem.n_items().div_ceil(64).next_power_of_two() as f64
        } else {
            0.0
        };
        let (bitmrv_words, bitmrv_counts) = super::bitmrv::shape(problem)
            .map_or((0.0, 0.0), |(w, npad)| (w as f64, npad as f64 / 16.0));
        ProblemShape {
            bitset_words,
            bitmrv_words,
            bitmrv_counts,
        }
    }

    /// The quantities whose sum, weighted by the engine's constants, is its
    /// time: nodes; nodes times the words an engine goes over at each node
    /// (the bitset engine's masks, `bitmrv`'s bitmaps); nodes times
    /// `bitmrv`'s counts (in rows of 16); updates.
    pub fn features(&self, engine: EngineKind, nodes: f64, updates: f64) -> Vec<f64> {
        let (words, counts) = match engine {
            EngineKind::Bitset => (self.bitset_words, 0.0),
            EngineKind::BitMrv => (self.bitmrv_words, self.bitmrv_counts),
            _ => (0.0, 0.0),
        };
        vec![nodes, nodes * words, nodes * counts, updates]
    }

    /// The predicted time of `engine` on a tree of `nodes` and `updates`,
    /// in nanoseconds of this project's build machine.
    pub fn nanos(&self, engine: EngineKind, nodes: f64, updates: f64) -> f64 {
        let c: &[f64; 4] = match engine {
            EngineKind::Bitset => &COST_BITSET,
            EngineKind::BitMrv => &COST_BITMRV,
            _ => &COST_DLX,
        };
        self.features(engine, nodes, updates)
            .iter()
            .zip(c)
            .map(|(x, c)| x * c)
            .sum()
    }
}

/// Nanoseconds per node, per node and word, per node and 16 counts, and per
/// update of each engine (see [`ProblemShape::features`]), fitted by
/// `cargo run --release -p dancer-core --example calibrate` on the problems
/// of CONTRIBUTING.md's table of families (least squares on relative errors; one
/// thread of this project's 2-core build machine). Only their ratios
/// matter.
const COST_BITSET: [f64; 4] = [11.0, 0.64, 0.0, 0.84];
const COST_BITMRV: [f64; 4] = [71.1, 2.42, 0.57, 0.62];
const COST_DLX: [f64; 4] = [83.1, 0.0, 0.0, 2.62];

/// The predicted nanoseconds of the bitset engine's set-up, mostly its
/// [`branching_order`](super::bitset::branching_order): a table of the
/// options shared by each pair of primary items (2 ns a pair) filled from
/// each option's pairs (3 ns a pair; the pairs are about the entries
/// squared over the options). A 9x9 Sudoku's 324 items cost about a
/// quarter of a millisecond, as long as its search with `bitmrv`.
pub fn bitset_setup_nanos(problem: &Problem) -> f64 {
    let np = problem.n_primary() as f64;
    let entries = problem.n_entries() as f64;
    let options = problem.n_options().max(1) as f64;
    2.0 * np * np + 3.0 * entries * entries / options
}

/// One engine that `auto` considered: the tree it estimated (Knuth's
/// random probes) and the time it predicts from it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Costed {
    pub engine: EngineKind,
    /// The estimate of the engine's tree.
    pub tree: crate::Estimate,
    /// Predicted nanoseconds (see [`ProblemShape::nanos`]).
    pub nanos: f64,
}

/// The seed of `auto`'s probes: the same choice on every run.
const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// Every engine `auto` weighs for `problem` with its predicted time; empty
/// when there is nothing to weigh (one engine only takes the problem).
///
/// Each engine's tree is estimated with Knuth's random probes: `bitmrv`'s
/// (whose estimate stands for `dlx` and `dlxm` too, the same rule with
/// other ties, as long as they look slower per node), the bitset engine's
/// (unless its set-up, [`bitset_setup_nanos`], twice, costs more than the
/// search `bitmrv` promises), and, when the linked engine looks twice as
/// fast on `bitmrv`'s tree (very long bitmaps), its own (on a large tree,
/// only if what it could save outweighs its probes). A small tree stops
/// its probes early (see [`crate::Estimate::probes`]). Probes are cheap but not free: 32 at
/// first, then four times as many while [`too_close`] cannot tell the two
/// best apart and the search looks at least 30 times longer than the next
/// round of probes would take (at most 2048 probes), both times on the
/// cost model's clock: the choice depends on the problem alone, never on
/// how busy the machine is.
pub fn auto_costs(problem: &Problem) -> Vec<Costed> {
    let shape = ProblemShape::of(problem);
    let mrv = super::bitmrv::check(problem).is_ok();
    let bitset = super::bitset::check(problem).is_ok();
    let linked = links_engine(problem);
    let costed = |engine, tree: crate::Estimate| Costed {
        engine,
        tree,
        nanos: shape.nanos(engine, tree.nodes, tree.updates),
    };
    let weigh = |probes: usize| -> Vec<Costed> {
        let mut out = Vec::new();
        if mrv {
            let mut m = super::bitmrv::BitMrv::new(problem).expect("checked above");
            out.push(costed(EngineKind::BitMrv, m.estimate(probes, SEED)));
        }
        // the bitset engine, unless its set-up (its branching order), paid
        // once to estimate it and again to run it, would cost more than
        // the search already predicted: then it cannot win
        let best = out.iter().map(|c| c.nanos).fold(f64::INFINITY, f64::min);
        if bitset && 2.0 * bitset_setup_nanos(problem) < best {
            if let Ok(est) = super::bitset::estimate(problem, probes, SEED) {
                out.push(costed(EngineKind::Bitset, est));
            }
        }
        // the linked engine, on bitmrv's tree first: its own tree is
        // estimated only if it could be the fastest
        let best = out.iter().map(|c| c.nanos).fold(f64::INFINITY, f64::min);
        let proxy = out
            .first()
            .filter(|c| c.engine == EngineKind::BitMrv)
            .map(|c| costed(linked, c.tree));
        // its own tree is probed (never trusted to bitmrv's: with Knuth's
        // ties a 16x16 Sudoku's tree can be thousands of times larger, and
        // a few probes can miss that) when it promises to be at least
        // twice as fast there, and, for a tree too large to stop its
        // probes early, only when what it could save is more than its
        // probes would cost (bitmrv's probe paths walked with the linked
        // engine's costs: a 16x16 Sudoku's probes took 2 ms to confirm a
        // gain of 1 ms). Of the twenty 16x16 Sudoku of the shared set,
        // `dlx` is at most a fifth faster than `bitmrv` on five, and 2 to
        // 50 times slower on eight.
        let small = out.first().is_some_and(|c| c.tree.probes < probes);
        let worth = |c: &Costed| {
            out.first().is_none_or(|m| {
                let per_node = m.tree.updates / m.tree.nodes.max(1.0);
                let probing = 2.0 * m.tree.walked as f64 * shape.nanos(linked, 1.0, per_node);
                best - c.nanos > probing
            })
        };
        if proxy.is_none_or(|c| 2.0 * c.nanos < best && (small || worth(&c))) {
            if let Some(est) = tree_of(problem, linked, probes) {
                out.push(costed(linked, est));
            }
        }
        out
    };
    if !mrv && !bitset {
        // the linked engine alone takes it
        return Vec::new();
    }
    let mut probes = PROBES_FIRST;
    loop {
        let costs = weigh(probes);
        // what this round cost, on the model's clock (the nodes the probes
        // walked, at each engine's cost per node), not the wall's: a busy
        // machine must not stop the probes sooner and change the choice.
        // The next round, with four times the probes, costs about four
        // times as much.
        let spent: f64 = costs
            .iter()
            .map(|c| {
                let per_node = c.tree.updates / c.tree.nodes.max(1.0);
                let walked = c.tree.walked as f64;
                shape.nanos(c.engine, walked, walked * per_node)
            })
            .sum();
        let mut by_time = costs.clone();
        by_time.sort_by(|a, b| a.nanos.total_cmp(&b.nanos));
        let unsure = by_time.len() >= 2 && too_close(&by_time[0], &by_time[1]);
        if !unsure || probes >= PROBES_MAX || by_time[0].nanos < 30.0 * 4.0 * spent {
            return costs;
        }
        probes *= 4;
    }
}

/// The engines of `costs` weighed again with `probes` probes each (the
/// same seed): a closer look where much hangs on them. Knuth's estimate
/// of a packing's tree has a long tail, and a few probes mostly miss it:
/// 32 probes put the bitset engine's tree of the polyhexes of 1 to 4
/// cells in a 4x10 parallelogram at 60 million nodes, 2,048 at 430
/// million, and it has 450 million. `memo::choose` uses it before it
/// tries a memoized count.
pub fn reweigh(problem: &Problem, costs: &[Costed], probes: usize) -> Vec<Costed> {
    let shape = ProblemShape::of(problem);
    costs
        .iter()
        .filter_map(|c| {
            let tree = tree_of(problem, c.engine, probes)?;
            Some(Costed {
                engine: c.engine,
                tree,
                nanos: shape.nanos(c.engine, tree.nodes, tree.updates),
            })
        })
        .collect()
}

/// `engine`'s tree of `problem` estimated with `probes` probes (the
/// seed fixed); the multiplicities' linked engine on bitmrv with Knuth's
/// ties, its branching order.
fn tree_of(problem: &Problem, engine: EngineKind, probes: usize) -> Option<crate::Estimate> {
    match engine {
        EngineKind::Bitset => super::bitset::estimate(problem, probes, SEED).ok(),
        EngineKind::BitMrv => super::bitmrv::BitMrv::new(problem)
            .ok()
            .map(|mut m| m.estimate(probes, SEED)),
        EngineKind::Dlx => super::dlx::Dlx::new(problem)
            .ok()
            .map(|mut d| d.estimate(probes, SEED)),
        _ => super::bitmrv::BitMrv::with_ties(problem, super::bitmrv::Ties::Knuth)
            .ok()
            .map(|mut m| m.estimate(probes, SEED)),
    }
}

/// `auto`'s probes of each engine's tree: a first round of this many
/// (fewer are not enough: Knuth's estimate has a long tail, and 8 probes
/// put the bitset engine's tree of Scott's pentomino problem at a
/// hundredth of its size, with an error that looked small)...
const PROBES_FIRST: usize = 32;
/// ... then four times as many a round, up to this many.
pub const PROBES_MAX: usize = 2048;

/// Whether the estimates cannot tell two engines apart: their predicted
/// times differ by less than twice the error of the estimates (relative
/// standard errors, added in quadrature, on a log scale).
pub fn too_close(a: &Costed, b: &Costed) -> bool {
    let (lo, hi) = if a.nanos <= b.nanos { (a, b) } else { (b, a) };
    let error = (lo.tree.error.powi(2) + hi.tree.error.powi(2)).sqrt();
    (hi.nanos / lo.nanos.max(1e-9)).ln() < 2.0 * error
}

/// Picks the engine likely to finish first: the cheapest of
/// [`auto_costs`] (`bitmrv` for multiplicities and colours unless its
/// tables would be too large, then `dlxm` or `dlx`), except that when the
/// estimates cannot tell the bitset engine from the cheapest
/// ([`too_close`]), the bitset engine: its nodes cost the least, and on the
/// close calls of the benchmark (packings with holes, whose estimates are
/// rough) it was the faster. Never returns [`EngineKind::Auto`], and always
/// an engine that takes the problem. The choice is the same on every run
/// (the probes have a fixed seed).
pub fn choose_engine(problem: &Problem) -> EngineKind {
    choose_from(problem, &auto_costs(problem))
}

/// [`choose_engine`]'s pick from costs already weighed ([`auto_costs`] of
/// the same problem), for a caller that weighed them for another reason
/// too (`memo::choose`).
pub fn choose_from(problem: &Problem, costs: &[Costed]) -> EngineKind {
    let Some(best) = costs.iter().min_by(|a, b| a.nanos.total_cmp(&b.nanos)) else {
        return links_engine(problem);
    };
    match costs.iter().find(|c| c.engine == EngineKind::Bitset) {
        Some(b) if too_close(b, best) => EngineKind::Bitset,
        _ => best.engine,
    }
}

/// The nodes a [`trial`] searches before it gives up: about what `auto`'s
/// first round of probes walks on a tree it cannot stop early
/// (`Tally::SMALL_WALK` in `stats.rs`).
pub const TRIAL_NODES: u64 = 256;

/// A search begun with `bitmrv` before any engine was weighed: see
/// [`trial`].
pub struct Trial<'p> {
    /// The engine, `bitmrv`, where the trial left it: at its end, or
    /// paused after [`TRIAL_NODES`] nodes, ready to go on.
    pub engine: Box<dyn Engine + 'p>,
    /// The solutions found so far, in the engine's order.
    pub solutions: Vec<Vec<crate::problem::OptionId>>,
    /// Whether the whole tree was searched.
    pub complete: bool,
}

/// `auto` for a tree that may be too small to weigh: `bitmrv` searches up
/// to [`TRIAL_NODES`] nodes before anything is estimated. A tree that ends
/// there is searched whole for less than `auto`'s probes of it would cost
/// (a BurrTools puzzle of a few hundred nodes: the probes took as long as
/// the search), and `bitmrv` is then the engine that ran; a larger tree is
/// weighed as always, and the trial goes on from where it paused when
/// `auto` picks `bitmrv`, so that little is lost. The outcome depends on
/// the problem alone. `None` when `bitmrv` does not take the problem.
pub fn trial(problem: &Problem, cancel: Option<Arc<AtomicBool>>) -> Option<Trial<'_>> {
    let mut engine = EngineKind::BitMrv.build(problem).ok()?;
    if let Some(flag) = cancel {
        engine.set_cancel(flag);
    }
    engine.set_pause(Some(TRIAL_NODES));
    let mut solutions = Vec::new();
    while let Some(event) = engine.next_event() {
        match event {
            super::api::Event::Solution(options) => solutions.push(options.to_vec()),
            super::api::Event::Pause => break,
            super::api::Event::Frontier(..) => {}
        }
    }
    engine.set_pause(None);
    let complete = engine.is_complete();
    Some(Trial {
        engine,
        solutions,
        complete,
    })
}

impl EngineKind {
    /// Whether this engine takes `problem`, and if not, why. `Auto` takes
    /// everything.
    pub fn check(self, problem: &Problem) -> Result<(), EngineError> {
        let reason = match self {
            EngineKind::Auto | EngineKind::Dlxm => None,
            EngineKind::Dlx => problem
                .has_multiplicities()
                .then_some(Unsupported::Multiplicities),
            EngineKind::Bitset => super::bitset::check(problem).err(),
            EngineKind::BitMrv => super::bitmrv::check(problem).err(),
        };
        match reason {
            None => Ok(()),
            Some(reason) => Err(EngineError::Unsupported {
                engine: self,
                reason,
            }),
        }
    }

    /// Whether this engine takes `problem`.
    pub fn supports(self, problem: &Problem) -> bool {
        self.check(problem).is_ok()
    }

    /// The engine that runs for `problem`: `Auto` becomes
    /// [`choose_engine`]'s pick; any other engine is itself, if it takes
    /// the problem.
    pub fn resolve(self, problem: &Problem) -> Result<EngineKind, EngineError> {
        match self {
            EngineKind::Auto => Ok(choose_engine(problem)),
            e => e.check(problem).map(|()| e),
        }
    }

    /// Builds this engine (for `Auto`, the one [`resolve`](Self::resolve)
    /// gives) for `problem`.
    pub fn build<'p>(self, problem: &'p Problem) -> Result<Box<dyn Engine + 'p>, EngineError> {
        Ok(match self.resolve(problem)? {
            EngineKind::Dlx => Box::new(super::dlx::Dlx::new(problem)?),
            EngineKind::Dlxm => Box::new(super::dlxm::Dlxm::new(problem)),
            EngineKind::Bitset => super::bitset::build(problem)?,
            EngineKind::BitMrv => super::bitmrv::build(problem)?,
            EngineKind::Auto => unreachable!("resolved above"),
        })
    }
}
