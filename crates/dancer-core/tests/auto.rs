//! `auto`: which engine it picks for each family of problems, measured
//! ones (the table of the README and `examples/calibrate.rs`), and the
//! generators of the families: MacMahon's coloured squares against a count
//! that shares no code with the engines.

use dancer_core::engines::bitmrv::{BitMrv, Ties};
use dancer_core::engines::{auto_costs, too_close};
use dancer_core::{choose_engine, classic, verify, Engine, EngineKind, Problem, ProblemBuilder};

fn count(p: &Problem, engine: EngineKind) -> u64 {
    let mut e = engine.build(p).unwrap();
    let mut n = 0;
    while let Some(s) = e.next_solution() {
        verify(p, s).unwrap();
        n += 1;
    }
    assert!(e.is_complete());
    n
}

/// Where one engine is measured to be the fastest by far, auto picks it;
/// the choice is the same every time.
#[test]
fn auto_picks_the_engine_of_each_family() {
    // queens and Langford pairs: the bitset engine (its order is the
    // classic row by row search; 1.4x to 1.8x bitmrv)
    for p in [classic::queens(11), classic::langford(11)] {
        assert_eq!(choose_engine(&p), EngineKind::Bitset);
        assert_eq!(choose_engine(&p), choose_engine(&p));
    }
    // colours and multiplicities: bitmrv, the bitset engine does not take
    // them and dlx/dlxm are slower per node
    let m = classic::macmahon(3, 3, 8).unwrap();
    assert_eq!(choose_engine(&m), EngineKind::BitMrv);
    let mut b = ProblemBuilder::new();
    b.primary_bounded("a", 2, 3).unwrap();
    b.primary("b").unwrap();
    for opt in [&["a"][..], &["a", "b"], &["a"], &["b"]] {
        b.option(opt.iter().copied()).unwrap();
    }
    let mp = b.build().unwrap();
    assert_eq!(choose_engine(&mp), EngineKind::BitMrv);
    // what auto weighed says why: every engine it names takes the problem
    for p in [&classic::queens(9), &m, &mp] {
        let costs = auto_costs(p);
        assert!(costs.iter().all(|c| c.engine.supports(p) && c.nanos > 0.0));
    }
}

/// Problems bitmrv refuses (tables too large) go to the linked engines.
#[test]
fn too_large_for_bitmrv_goes_to_dancing_links() {
    // 70,000 items of one option each (and one more): 70,000 x 1,094
    // words of bitmaps, more than bitmrv builds
    let n = 70_000;
    let mut b = ProblemBuilder::new();
    for i in 0..n {
        b.primary(&format!("i{i}")).unwrap();
    }
    for i in 0..n {
        b.option_ids([(i, 0)]).unwrap();
    }
    let p = b.build().unwrap();
    let why = EngineKind::BitMrv.check(&p).unwrap_err();
    assert!(why.to_string().contains("bitmrv"), "{why}");
    assert_eq!(choose_engine(&p), EngineKind::Dlx);
    assert_eq!(count(&p, EngineKind::Auto), 1);
}

/// The estimates' errors decide what is too close to call.
#[test]
fn too_close_follows_the_errors() {
    let est = |nodes: f64, error: f64| dancer_core::Estimate {
        nodes,
        updates: nodes,
        error,
        probes: 100,
        walked: 1000,
    };
    let c = |e, nanos, error| dancer_core::engines::Costed {
        engine: e,
        tree: est(1.0, error),
        nanos,
    };
    // twice as fast, with estimates within 5%: told apart
    assert!(!too_close(
        &c(EngineKind::Bitset, 1.0, 0.05),
        &c(EngineKind::BitMrv, 2.0, 0.05)
    ));
    // the same with rough estimates (50%): not
    assert!(too_close(
        &c(EngineKind::Bitset, 1.0, 0.5),
        &c(EngineKind::BitMrv, 2.0, 0.5)
    ));
}

/// Knuth's estimate, on trees whose estimates are tight (Langford pairs),
/// is close to the tree searched, for bitmrv and the bitset engine.
#[test]
fn estimates_are_near_the_trees() {
    let p = classic::langford(9);
    let mut m = BitMrv::new(&p).unwrap();
    let est = m.estimate(2000, 7);
    // the estimate within 20% of the nodes `e` searches
    let near = |estimate: f64, e: &mut dyn Engine| {
        while e.next_solution().is_some() {}
        let nodes = e.stats().nodes as f64;
        assert!(
            (0.8..1.25).contains(&(estimate / nodes)),
            "{estimate} against {nodes}"
        );
    };
    near(est.nodes, &mut BitMrv::new(&p).unwrap());
    assert!(est.error > 0.0 && est.error < 0.1, "{}", est.error);
    let b = dancer_core::engines::bitset::estimate(&p, 2000, 7).unwrap();
    near(b.nodes, &mut *EngineKind::Bitset.build(&p).unwrap());
    // and an estimate leaves the engine at the root: the search after it
    // is the whole search
    let mut m = BitMrv::with_ties(&p, Ties::Knuth).unwrap();
    m.estimate(10, 1);
    let mut d = dancer_core::Dlx::new(&p).unwrap();
    while d.next_solution().is_some() {}
    let mut n = 0;
    while m.next_solution().is_some() {
        n += 1;
    }
    assert_eq!((n, m.stats().nodes), (d.stats().solutions, d.stats().nodes));
}

/// MacMahon's squares: 6, 24 and 70 of them. The 24 on the 4x6 board
/// with two squares placed (the all-`a` one in the top left corner, the
/// all-`c` one on the cell below and right of it): every engine that takes
/// colours finds the same 452 solutions, each checked by `verify`. (The
/// whole board has 106,624: Knuth's DLX2 counts as many.) Colours against
/// a brute force that shares no code with the engines: the property tests
/// of `differential.rs`.
#[test]
fn macmahon_squares() {
    for (colours, squares) in [(2, 6), (3, 24), (4, 70)] {
        assert!(classic::macmahon(colours, 1, squares).is_some());
        assert!(classic::macmahon(colours, 1, squares + 1).is_none());
    }
    assert!(classic::macmahon(5, 1, 1).is_none());
    // two colours: the square with no `a` edge cannot touch the border,
    // and every cell of a 2x3 board does
    let p = classic::macmahon(2, 2, 3).unwrap();
    assert_eq!(count(&p, EngineKind::Auto), 0);
    let full = classic::macmahon(3, 4, 6).unwrap();
    assert_eq!(full.option_text(0), "0.0 p0 h1.0:a v0.1:a");
    let mut b = ProblemBuilder::new();
    for i in 0..full.n_items() {
        let name = full.item_name(i);
        if full.is_primary(i) {
            b.primary(name).unwrap();
        } else {
            b.secondary(name).unwrap();
        }
    }
    for k in 0..full.n_options() {
        let text = full.option_text(k);
        let words: Vec<&str> = text.split(' ').collect();
        let fixed = |sq: &str, cell: &str| words.contains(&sq) && !words.contains(&cell);
        if fixed("p0", "0.0") || fixed("p23", "1.1") {
            continue;
        }
        b.option(words).unwrap();
    }
    let p = b.build().unwrap();
    let mut all = Vec::new();
    for e in [
        EngineKind::Dlx,
        EngineKind::Dlxm,
        EngineKind::BitMrv,
        EngineKind::Auto,
    ] {
        let mut eng = e.build(&p).unwrap();
        let mut sols = Vec::new();
        while let Some(s) = eng.next_solution() {
            verify(&p, s).unwrap();
            let mut s = s.to_vec();
            s.sort();
            sols.push(s);
        }
        sols.sort();
        assert_eq!(sols.len(), 452, "{e}");
        all.push(sols);
    }
    assert!(all.windows(2).all(|w| w[0] == w[1]));
    assert!(!EngineKind::Bitset.supports(&p));
}

/// All solutions of `engine` from where it is, checked.
fn rest(p: &Problem, e: &mut dyn Engine) -> Vec<Vec<dancer_core::OptionId>> {
    let mut out = Vec::new();
    while let Some(s) = e.next_solution() {
        verify(p, s).unwrap();
        out.push(s.to_vec());
    }
    assert!(e.is_complete());
    out
}

/// A trial (`auto`'s first look at a tree small enough to search whole):
/// a tree of at most `TRIAL_NODES` nodes ends in it, with bitmrv's
/// solutions in bitmrv's order and its node count; a larger one pauses
/// there, and going on from the pause gives the rest, so that the trial's
/// solutions and the rest are bitmrv's whole run.
#[test]
fn a_trial_is_bitmrv_cut_at_its_node_budget() {
    use dancer_core::engines::{trial, TRIAL_NODES};
    for p in [
        classic::queens(4),
        classic::queens(6),
        classic::langford(7),
        classic::queens(8),
        classic::langford(8),
    ] {
        let mut whole = EngineKind::BitMrv.build(&p).unwrap();
        let all = rest(&p, &mut *whole);
        let nodes = whole.stats().nodes;
        let mut t = trial(&p, None).expect("bitmrv takes it");
        assert_eq!(t.complete, nodes <= TRIAL_NODES, "{nodes} nodes");
        let mut found = t.solutions.clone();
        if t.complete {
            assert_eq!(t.engine.stats().nodes, nodes);
        } else {
            assert!(t.engine.stats().nodes <= TRIAL_NODES + 1);
            found.extend(rest(&p, &mut *t.engine));
        }
        assert_eq!(found, all);
        assert_eq!(t.engine.stats().nodes, nodes);
    }
    // both kinds were seen: 4 queens end in the trial, 8 queens do not
    assert!(trial(&classic::queens(4), None).unwrap().complete);
    assert!(!trial(&classic::queens(8), None).unwrap().complete);
}
