//! Split searches add up: every engine, every frontier depth, every thread
//! count gives the sequential search's solutions, and (for counts of work)
//! its nodes and updates.

mod common;

use common::{spec_strategy, spec_with_bounds};
use dancer_core::parallel::{plan, plan_at, run, Observer, RunConfig, Stop, Unit, UnitResult};
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

struct Collect(Mutex<Vec<UnitResult>>);
impl Observer for Collect {
    fn unit(&self, r: &UnitResult) {
        self.0.lock().unwrap().push(r.clone());
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
    let obs = Collect(Mutex::new(Vec::new()));
    let cfg = RunConfig {
        engine,
        threads,
        ordered,
        limit,
        ..Default::default()
    };
    let sum = run(p, &pl, &all, &cfg, &obs).unwrap();
    let units = obs.0.into_inner().unwrap();
    let sols: Vec<Vec<OptionId>> = units.iter().flat_map(|u| u.solutions.clone()).collect();
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
        run(&p, &pl, &all, &cfg, &Collect(Mutex::new(Vec::new()))).unwrap()
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
