//! Split searches add up: every engine, every frontier depth, every thread
//! count gives the sequential search's solutions, and (for counts of work)
//! its nodes and updates.

mod common;

use common::{spec_strategy, spec_with_bounds};
use dancer_core::parallel::{
    plan, plan_at, run, Observer, Progress, RunConfig, SolutionBlock, Stop, Unit, UnitResult,
    BLOCK, HELD,
};
use dancer_core::{classic, verify, EngineKind, OptionId, Problem};
use proptest::prelude::*;
use std::sync::Mutex;

fn sequential(p: &Problem, engine: EngineKind) -> (Vec<Vec<OptionId>>, u64, u64) {
    let mut e = engine.build(p).unwrap();
    let mut sols = Vec::new();
    while let Some(s) = e.next_solution() {
        sols.push(s.to_vec());
    }
    (sols, e.stats().nodes, e.stats().updates)
}

/// Searches every unit of a plan one after the other, in plan order.
fn by_units(p: &Problem, engine: EngineKind, depth: usize) -> (Vec<Vec<OptionId>>, u64, u64) {
    let pl = plan_at(p, engine, depth).unwrap();
    let mut sols = Vec::new();
    let (mut nodes, mut updates) = (pl.top.nodes, pl.top.updates);
    let mut e = engine.build(p).unwrap();
    for u in &pl.units {
        match u {
            Unit::Solution(s) => sols.push(s.clone()),
            Unit::Subtree { prefix, share } => {
                assert!(*share > 0.0 && *share <= 1.0);
                e.reset();
                e.descend(prefix).unwrap();
                // (the multiplicity engine's prefixes may hold "no more
                // options" branches, which solutions do not list)
                let chosen: Vec<OptionId> = prefix
                    .iter()
                    .copied()
                    .filter(|&o| o != dancer_core::engines::dlxm::STOP)
                    .collect();
                while let Some(s) = e.next_solution() {
                    assert_eq!(
                        &s[..chosen.len()],
                        &chosen[..],
                        "solutions extend their prefix"
                    );
                    sols.push(s.to_vec());
                }
                assert!(e.is_complete());
                nodes += e.stats().nodes;
                updates += e.stats().updates;
            }
        }
    }
    (sols, nodes, updates)
}

fn engines(p: &Problem) -> Vec<EngineKind> {
    EngineKind::ALL
        .iter()
        .copied()
        .filter(|e| e.supports(p))
        .collect()
}

#[test]
fn units_in_order_are_the_sequential_search() {
    for p in [
        classic::queens(6),
        classic::queens(8),
        classic::langford(7),
        classic::langford(8),
    ] {
        for engine in engines(&p) {
            let seq = sequential(&p, engine);
            for depth in 1..=4 {
                // same solutions in the same order, same nodes and updates
                assert_eq!(by_units(&p, engine, depth), seq, "{engine} depth {depth}");
            }
        }
    }
}

/// What a run handed on, in the order it came: blocks of solutions and
/// units' ends.
#[derive(Default)]
struct Collect(Mutex<Vec<Handed>>);

enum Handed {
    Solutions(usize, Vec<Vec<OptionId>>),
    Unit(UnitResult),
}

impl Observer for Collect {
    fn solutions(&self, index: usize, block: &SolutionBlock) {
        let sols = block.iter().map(<[_]>::to_vec).collect();
        self.0.lock().unwrap().push(Handed::Solutions(index, sols));
    }
    fn unit(&self, r: &UnitResult) {
        self.0.lock().unwrap().push(Handed::Unit(r.clone()));
    }
}

impl Collect {
    /// The solutions handed on, after checking that each unit's come
    /// before its end, once, and (ordered) units in plan order, each
    /// unit's solutions together: `unit` counts what it handed on.
    fn solutions(self, ordered: bool) -> Vec<Vec<OptionId>> {
        let mut all = Vec::new();
        let mut ended = std::collections::BTreeSet::new();
        let mut of_unit: std::collections::HashMap<usize, u64> = Default::default();
        let mut last: Option<usize> = None;
        for h in self.0.into_inner().unwrap() {
            match h {
                Handed::Solutions(i, sols) => {
                    assert!(!sols.is_empty(), "no empty block");
                    assert!(!ended.contains(&i), "unit {i}: solutions after its end");
                    if ordered {
                        assert!(last.is_none_or(|l| l <= i), "unit {i} after {last:?}");
                        last = Some(i);
                    }
                    *of_unit.entry(i).or_default() += sols.len() as u64;
                    all.extend(sols);
                }
                Handed::Unit(r) => {
                    assert!(ended.insert(r.index), "unit {} ended twice", r.index);
                    let handed = of_unit.get(&r.index).copied().unwrap_or(0);
                    assert_eq!(r.stats.solutions, handed, "unit {}", r.index);
                    if ordered {
                        assert!(last.is_none_or(|l| l <= r.index));
                        last = Some(r.index);
                    }
                }
            }
        }
        all
    }
}

fn parallel(
    p: &Problem,
    engine: EngineKind,
    threads: usize,
    ordered: bool,
    limit: Option<u64>,
) -> (Vec<Vec<OptionId>>, u64, bool) {
    let pl = plan(p, engine, 64, 20).unwrap();
    let all: Vec<usize> = (0..pl.units.len()).collect();
    let obs = Collect::default();
    let cfg = RunConfig {
        engine,
        threads,
        ordered,
        limit,
        ..Default::default()
    };
    let sum = run(p, &pl, &all, &cfg, &obs).unwrap();
    let sols = obs.solutions(ordered);
    assert_eq!(sols.len() as u64, sum.solutions);
    if sum.complete {
        assert_eq!(
            sum.stats.nodes + pl.top.nodes,
            sequential(p, engine).1,
            "nodes add up"
        );
    }
    (sols, sum.solutions, sum.complete)
}

#[test]
fn a_plan_cuts_as_a_fresh_engine_does() {
    // `plan` reuses one engine, reset, from depth to depth: what it gives
    // is what a fresh engine cut at the depth it stopped at gives
    let problems = [
        classic::queens(6),
        classic::queens(8),
        classic::langford(8),
        classic::macmahon(2, 2, 3).expect("a 2x3 board of 2 colours"),
    ];
    for p in problems {
        for engine in engines(&p) {
            for target in [2, 16, 256] {
                let a = dancer_core::parallel::plan(&p, engine, target, 24).unwrap();
                let b = plan_at(&p, engine, a.depth).unwrap();
                assert_eq!(a.units, b.units, "{engine}, target {target}");
                assert_eq!(a.top.nodes, b.top.nodes, "{engine}, target {target}");
                assert_eq!(a.top.updates, b.top.updates, "{engine}, target {target}");
            }
        }
    }
}

#[test]
fn threads_give_the_same_solutions() {
    let p = classic::queens(9);
    for engine in engines(&p) {
        let (seq, _, _) = sequential(&p, engine);
        for threads in [1, 2, 3, 4] {
            let (mut sols, n, complete) = parallel(&p, engine, threads, false, None);
            assert!(complete);
            assert_eq!(n, 352);
            sols.sort();
            let mut s2 = seq.clone();
            s2.sort();
            assert_eq!(sols, s2, "{engine}, {threads} threads");
            // ordered: exactly the sequential order
            let (ord, _, _) = parallel(&p, engine, threads, true, None);
            assert_eq!(ord, seq, "{engine}, {threads} threads, ordered");
        }
    }
}

#[test]
fn limits_in_parallel() {
    let p = classic::queens(8);
    for engine in engines(&p) {
        let (seq, _, _) = sequential(&p, engine);
        for threads in [1, 2, 4] {
            let (sols, n, complete) = parallel(&p, engine, threads, false, Some(10));
            assert_eq!((sols.len(), n, complete), (10, 10, false));
            for s in &sols {
                assert!(seq.contains(s));
            }
            let (ord, _, _) = parallel(&p, engine, threads, true, Some(10));
            assert_eq!(
                ord,
                seq[..10].to_vec(),
                "ordered with a limit: the first ten"
            );
        }
    }
}

#[test]
fn bad_prefixes_are_refused() {
    let p = classic::queens(6);
    for engine in engines(&p) {
        let mut e = engine.build(&p).unwrap();
        // option 0 (r0 c0) is not an option of the item the search starts with
        let first_item_opts = plan_at(&p, engine, 1).unwrap();
        let firsts: Vec<usize> = first_item_opts
            .units
            .iter()
            .filter_map(|u| match u {
                Unit::Subtree { prefix, .. } => Some(prefix[0]),
                _ => None,
            })
            .collect();
        let outsider = (0..p.n_options()).find(|o| !firsts.contains(o)).unwrap();
        assert!(e.descend(&[outsider]).is_err(), "{engine}");
        // and the engine is still usable from the root
        e.reset();
        let mut n = 0;
        while e.next_solution().is_some() {
            n += 1;
        }
        assert_eq!(n, 4);
    }
}

/// A prefix that goes wrong below its first level leaves the engine at the
/// root, as it was: a good prefix can be followed next, without a reset,
/// and gives what a fresh engine gives.
#[test]
fn a_prefix_wrong_deeper_down_leaves_the_engine_at_the_root() {
    let p = classic::queens(8);
    for engine in engines(&p) {
        let pl = plan_at(&p, engine, 2).unwrap();
        let prefixes: Vec<&Vec<OptionId>> = pl
            .units
            .iter()
            .filter_map(|u| match u {
                Unit::Subtree { prefix, .. } => Some(prefix),
                _ => None,
            })
            .collect();
        let good = prefixes[prefixes.len() / 2];
        // its first option, then an option that is not a branch there
        let seconds: Vec<usize> = prefixes
            .iter()
            .filter(|q| q[0] == good[0])
            .map(|q| q[1])
            .collect();
        let wrong = (0..p.n_options()).find(|o| !seconds.contains(o)).unwrap();
        let mut e = engine.build(&p).unwrap();
        assert!(e.descend(&[good[0], wrong]).is_err(), "{engine}");
        assert_eq!(
            e.stats().updates,
            0,
            "{engine}: the way down is not counted"
        );
        e.descend(good).unwrap();
        let mut fresh = engine.build(&p).unwrap();
        fresh.descend(good).unwrap();
        loop {
            let (a, b) = (
                e.next_solution().map(<[_]>::to_vec),
                fresh.next_solution().map(<[_]>::to_vec),
            );
            assert_eq!(a, b, "{engine}");
            if a.is_none() {
                break;
            }
        }
        assert_eq!(e.stats(), fresh.stats(), "{engine}");
        assert!(e.is_complete());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Random problems (secondary items, colours, multiplicities), every
    /// engine, several depths: the units are the sequential search.
    #[test]
    fn random_problems_split_exactly(spec in spec_strategy(12, 2), depth in 1usize..4) {
        let p = spec.build();
        for engine in engines(&p) {
            prop_assert_eq!(by_units(&p, engine, depth), sequential(&p, engine));
        }
    }

    #[test]
    fn random_multiplicities_split_exactly(spec in spec_with_bounds(10, 2), depth in 1usize..4) {
        let p = spec.build();
        let seq = sequential(&p, EngineKind::Dlxm);
        prop_assert_eq!(by_units(&p, EngineKind::Dlxm, depth), seq.clone());
        let seq = sequential(&p, EngineKind::BitMrv);
        prop_assert_eq!(by_units(&p, EngineKind::BitMrv, depth), seq.clone());
        for s in &seq.0 {
            verify(&p, s).unwrap();
        }
    }
}

/// A run says why it ended early: the limit, or the cancel flag.
#[test]
fn a_run_says_why_it_stopped() {
    let p = classic::queens(8);
    let pl = plan(&p, EngineKind::Dlx, 2, 20).unwrap();
    let all: Vec<usize> = (0..pl.units.len()).collect();
    let run_with = |limit: Option<u64>, cancel: bool| {
        let cfg = RunConfig {
            engine: EngineKind::Dlx,
            threads: 2,
            limit,
            cancel: Some(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(
                cancel,
            ))),
            keep: false,
            ..Default::default()
        };
        run(&p, &pl, &all, &cfg, &Collect::default()).unwrap()
    };
    let whole = run_with(None, false);
    assert_eq!((whole.complete, whole.stopped()), (true, None));
    // a limit above the count is never reached
    assert_eq!(run_with(Some(1000), false).stopped(), None);
    let limited = run_with(Some(3), false);
    assert_eq!(
        (limited.solutions, limited.stopped()),
        (3, Some(Stop::Limit))
    );
    let cancelled = run_with(None, true);
    assert_eq!(cancelled.stopped(), Some(Stop::Interrupted));
    // both: the interruption is what the caller must hear about
    assert_eq!(run_with(Some(3), true).stopped(), Some(Stop::Interrupted));
    assert_eq!(Stop::Limit.to_string(), "limit");
    assert_eq!(
        serde_json::to_string(&Stop::Interrupted).unwrap(),
        r#""interrupted""#
    );
}

/// `n` items, each in two options of its own: 2^n solutions, found about
/// one a node (a search that lists as fast as an engine can).
fn doubles(n: usize) -> Problem {
    let mut b = dancer_core::ProblemBuilder::new();
    let names: Vec<String> = (0..n).map(|i| format!("i{i}")).collect();
    for name in &names {
        b.primary(name).unwrap();
    }
    for name in &names {
        b.option([name]).unwrap();
        b.option([name]).unwrap();
    }
    b.build().unwrap()
}

/// Many blocks in each unit (2^16 solutions, 256 units of 256 or one of
/// all): every thread count, ordered or not, with and without a limit
/// that falls inside a block, gives the sequential search's solutions
/// (ordered: in its order; the limit's: its first ones), each unit's
/// solutions before its end.
#[test]
fn solutions_stream_in_blocks_and_add_up() {
    let p = doubles(16);
    let engine = EngineKind::Dlx;
    let (seq, _, _) = sequential(&p, engine);
    assert_eq!(seq.len(), 1 << 16);
    for threads in [1, 2, 3] {
        for ordered in [false, true] {
            let (mut sols, n, complete) = parallel(&p, engine, threads, ordered, None);
            assert!(complete && n == 1 << 16);
            if ordered {
                assert_eq!(sols, seq, "{threads} threads, ordered");
            }
            sols.sort();
            let mut all = seq.clone();
            all.sort();
            assert_eq!(sols, all, "{threads} threads");
            let limit = 3 * BLOCK as u64 / 17 + 5;
            let (sols, n, complete) = parallel(&p, engine, threads, ordered, Some(limit));
            assert_eq!((sols.len() as u64, n, complete), (limit, limit, false));
            if ordered {
                assert_eq!(sols, seq[..limit as usize], "{threads} threads, limited");
            }
        }
    }
}

/// An observer that takes its time holds the workers up: solutions found
/// and not yet handed on stay within the hand-on's bound (what is held
/// back for order, and a block in each worker's hands), whatever the
/// count, ordered or not. (Before, each unit's solutions were kept until
/// the unit ended: 2^30 of them could not be.)
#[test]
fn a_slow_observer_holds_the_workers_up() {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::Arc;
    struct Slow {
        handed: AtomicU64,
        gap: AtomicU64,
        cancel: Arc<AtomicBool>,
    }
    impl Observer for Slow {
        fn solutions(&self, _index: usize, block: &SolutionBlock) {
            std::thread::sleep(std::time::Duration::from_millis(2));
            let n = self.handed.fetch_add(block.len() as u64, Ordering::SeqCst);
            if n > 200_000 {
                self.cancel.store(true, Ordering::SeqCst);
            }
        }
        fn unit(&self, _r: &UnitResult) {}
        fn progress(&self, p: &Progress) {
            let gap = p
                .solutions
                .saturating_sub(self.handed.load(Ordering::SeqCst));
            self.gap.fetch_max(gap, Ordering::SeqCst);
        }
    }
    let n = 30;
    let p = doubles(n);
    let pl = plan(&p, EngineKind::Dlx, 64, 20).unwrap();
    let all: Vec<usize> = (0..pl.units.len()).collect();
    for ordered in [false, true] {
        let threads = 3;
        let cancel = Arc::new(AtomicBool::new(false));
        let slow = Slow {
            handed: AtomicU64::new(0),
            gap: AtomicU64::new(0),
            cancel: cancel.clone(),
        };
        let cfg = RunConfig {
            engine: EngineKind::Dlx,
            threads,
            ordered,
            cancel: Some(cancel),
            tick: std::time::Duration::from_millis(1),
            ..Default::default()
        };
        let sum = run(&p, &pl, &all, &cfg, &slow).unwrap();
        assert_eq!(sum.stopped(), Some(Stop::Interrupted));
        // each solution weighs n + 1 (its options and itself)
        let bound = ((HELD + (threads + 1) * BLOCK) / (n + 1)) as u64;
        let gap = slow.gap.load(Ordering::SeqCst);
        assert!(
            gap <= bound,
            "ordered {ordered}: {gap} found ahead of the observer, bound {bound}"
        );
        assert!(sum.solutions > 200_000 && sum.solutions < 200_000 + bound);
    }
}
