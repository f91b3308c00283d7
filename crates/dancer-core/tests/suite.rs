//! Problems with known answers, run against every engine.

mod common;

use common::engine_solutions;
use dancer_core::{
    count, first, gen, solutions, solve, verify, CollectSink, Dlx, EngineKind, Flow, OptionId,
    Problem, SolveOptions,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

fn parse(text: &str) -> Problem {
    dancer_formats::dlx::read_str(text, "test").unwrap().problem
}

const TOY: &str = "A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";
const TOYCOLOR: &str = "A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n";

fn count_with(p: &Problem, engine: EngineKind) -> u64 {
    if !engine.supports(p) {
        // an engine that cannot take the problem says so; the others answer
        assert!(engine.build(p).is_err());
        return count(p);
    }
    engine_solutions(p, engine).len() as u64
}

#[test]
fn toy_problems() {
    for &e in EngineKind::ALL {
        assert_eq!(engine_solutions(&parse(TOY), e), vec![vec![0, 3, 4]]);
        let tc = parse(TOYCOLOR);
        if e.supports(&tc) {
            assert_eq!(engine_solutions(&tc, e), vec![vec![1, 3]]);
        }
    }
}

/// OEIS A000170.
#[test]
fn queens_1_to_12() {
    let known = [1u64, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
    for &e in EngineKind::ALL {
        for (n, &k) in (1..=12).zip(&known) {
            assert_eq!(count_with(&gen::queens(n), e), k, "queens {n}, engine {e}");
        }
    }
}

/// Twice OEIS A014552 (each arrangement and its mirror image).
#[test]
fn langford_3_to_12() {
    let known = [2u64, 2, 0, 0, 52, 300, 0, 0, 35584, 216288];
    for &e in EngineKind::ALL {
        for (n, &k) in (3..=12).zip(&known) {
            assert_eq!(
                count_with(&gen::langford(n), e),
                k,
                "langford {n}, engine {e}"
            );
        }
    }
}

/// A coloured problem with a known count: place k queens-like tokens... here,
/// tile a 1xn strip with dominoes and monominoes where every tile writes its
/// "parity" colour on a shared secondary item: all tiles must agree, so the
/// answer is the number of tilings with only monominoes plus only dominoes.
#[test]
fn colours_force_agreement() {
    let n = 8;
    let mut b = dancer_core::ProblemBuilder::new();
    for i in 0..n {
        b.primary(&format!("c{i}")).unwrap();
    }
    b.secondary("kind").unwrap();
    for i in 0..n {
        b.option([format!("c{i}"), "kind:mono".to_string()])
            .unwrap();
        if i + 1 < n {
            b.option([
                format!("c{i}"),
                format!("c{}", i + 1),
                "kind:domino".to_string(),
            ])
            .unwrap();
        }
    }
    let p = b.build().unwrap();
    for &e in EngineKind::ALL {
        assert_eq!(count_with(&p, e), 2, "engine {e}");
    }
}

#[test]
fn api_count_first_all_iterator_agree() {
    let p = gen::queens(6);
    assert_eq!(count(&p), 4);
    let f = first(&p).unwrap();
    verify(&p, &f).unwrap();
    let all: Vec<Vec<OptionId>> = solutions(&p).collect();
    assert_eq!(all.len(), 4);
    assert_eq!(all[0], f);
    assert_eq!(dancer_core::all(&p), all);
    for s in &all {
        verify(&p, s).unwrap();
    }
}

#[test]
fn limit_stops_early_and_is_incomplete() {
    let p = gen::queens(8);
    let mut sink = CollectSink::new();
    let o = solve(
        &p,
        &SolveOptions {
            limit: Some(5),
            ..Default::default()
        },
        &mut sink,
    )
    .unwrap();
    assert_eq!(sink.solutions.len(), 5);
    assert_eq!(o.stats.solutions, 5);
    assert!(!o.complete && !o.cancelled);
    // the first five are the first five of the full enumeration
    assert_eq!(sink.solutions, dancer_core::all(&p)[..5].to_vec());
    // a limit above the count gives everything, complete
    let o = solve(
        &p,
        &SolveOptions {
            limit: Some(1000),
            ..Default::default()
        },
        &mut |_: &[OptionId]| Flow::Continue,
    )
    .unwrap();
    assert!(o.complete);
    assert_eq!(o.stats.solutions, 92);
}

#[test]
fn sink_can_stop() {
    let p = gen::queens(8);
    let mut seen = 0;
    let o = solve(&p, &SolveOptions::default(), &mut |_: &[OptionId]| {
        seen += 1;
        if seen == 3 {
            Flow::Stop
        } else {
            Flow::Continue
        }
    })
    .unwrap();
    assert_eq!(seen, 3);
    assert!(!o.complete);
}

#[test]
fn cancellation_from_another_thread() {
    // queens 14 takes long enough that the flag is seen mid-search.
    let p = gen::queens(14);
    let flag = Arc::new(AtomicBool::new(false));
    let f2 = flag.clone();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(20));
        f2.store(true, Ordering::Relaxed);
    });
    let o = solve(
        &p,
        &SolveOptions {
            cancel: Some(flag),
            ..Default::default()
        },
        &mut |_: &[OptionId]| Flow::Continue,
    )
    .unwrap();
    setter.join().unwrap();
    assert!(o.cancelled && !o.complete);
    assert!(o.stats.solutions < 365_596);
}

#[test]
fn cancelled_before_start_finds_nothing_more() {
    let p = gen::queens(10);
    let flag = Arc::new(AtomicBool::new(true));
    let o = solve(
        &p,
        &SolveOptions {
            cancel: Some(flag),
            ..Default::default()
        },
        &mut |_: &[OptionId]| Flow::Continue,
    )
    .unwrap();
    assert!(o.cancelled);
    // the flag is looked at every 1024 nodes
    assert!(o.stats.nodes <= 1024, "{}", o.stats.nodes);
}

#[test]
fn engine_restores_everything_and_can_be_reused() {
    let p = gen::queens(8);
    let mut d = Dlx::new(&p);
    let full: Vec<Vec<usize>> =
        std::iter::from_fn(|| d.next_solution().map(<[_]>::to_vec)).collect();
    let stats = d.stats().clone();
    assert_eq!(full.len(), 92);
    // stop half way, reset, and run again: identical solutions and counters
    d.reset();
    for _ in 0..40 {
        d.next_solution().unwrap();
    }
    d.reset();
    let again: Vec<Vec<usize>> =
        std::iter::from_fn(|| d.next_solution().map(<[_]>::to_vec)).collect();
    assert_eq!(again, full);
    assert_eq!(d.stats(), &stats);
    // after the end it stays at the end
    assert!(d.next_solution().is_none());
    assert!(d.is_complete());
}

#[test]
fn stats_profile_and_levels() {
    let p = gen::queens(8);
    let mut d = Dlx::new(&p);
    while d.next_solution().is_some() {}
    let s = d.stats();
    assert_eq!((s.solutions, s.nodes, s.updates), (92, 1049, 16680));
    assert_eq!(s.profile.iter().sum::<u64>(), s.nodes);
    assert_eq!(s.max_level(), 8);
    assert_eq!(
        s.profile_trimmed(),
        &[1, 8, 40, 120, 208, 228, 201, 151, 92]
    );
}

#[test]
fn no_solution_and_empty_cases() {
    // an item with no options
    let p = parse("A B\nA\n");
    for &e in EngineKind::ALL {
        assert_eq!(count_with(&p, e), 0);
    }
    // no options at all
    let p = parse("A\n");
    assert_eq!(count(&p), 0);
    // an option covering everything
    let p = parse("A B | X\nA B X\nA\n");
    assert_eq!(dancer_core::all(&p), vec![vec![0]]);
}

#[test]
fn dropped_options_are_never_chosen() {
    // option 1 has only secondary items; Knuth drops it
    let p = parse("A | X\nA\nX\n");
    assert!(!p.is_active(1));
    assert_eq!(dancer_core::all(&p), vec![vec![0]]);
    assert!(verify(&p, &[0, 1]).is_err());
}

#[test]
fn verify_rejects_non_solutions() {
    let p = parse(TOY);
    assert!(verify(&p, &[3, 0, 4]).is_ok());
    assert!(verify(&p, &[3, 0]).is_err()); // B uncovered
    assert!(verify(&p, &[3, 0, 4, 2]).is_err()); // B twice
    assert!(verify(&p, &[3, 0, 4, 4]).is_err()); // repeated option
    assert!(verify(&p, &[9]).is_err()); // no such option
    let p = parse(TOYCOLOR);
    assert!(verify(&p, &[1, 3]).is_ok());
    assert!(verify(&p, &[0, 4]).is_err()); // Y coloured 0 and 1
    let p = parse("A B | X\nA X\nB X\n");
    assert!(verify(&p, &[0, 1]).is_err()); // uncoloured X twice
}

/// Options longer than 255 entries take the engine's slow path for finding
/// an option's start; the answers must not change.
#[test]
fn very_long_options() {
    let n = 600;
    let mut b = dancer_core::ProblemBuilder::new();
    for i in 0..n {
        b.primary(&format!("i{i}")).unwrap();
    }
    // the whole row; the two halves; singletons for the first 300
    b.option((0..n).map(|i| format!("i{i}"))).unwrap();
    b.option((0..300).map(|i| format!("i{i}"))).unwrap();
    b.option((300..n).map(|i| format!("i{i}"))).unwrap();
    for i in 0..300 {
        b.option([format!("i{i}")]).unwrap();
    }
    let p = b.build().unwrap();
    for &e in EngineKind::ALL {
        // {whole}, {half, half}, {singletons, second half}
        assert_eq!(count_with(&p, e), 3, "engine {e}");
    }
}
