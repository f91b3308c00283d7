//! Problems with known answers, run against every engine.
//!
//! As in regex-automata's test runner: one suite of problems, every engine
//! on every problem; an engine that cannot take a problem says why (a typed
//! refusal), and the refusals are counted by engine and reason, printed
//! with the results and compared with the refusals expected, so that an
//! engine can neither fail silently nor start skipping what it used to run.

mod common;

use common::engine_solutions;
use dancer_core::{
    classic, count, first, solutions, solve, verify, CollectSink, Dlx, Engine, EngineError,
    EngineKind, Flow, OptionId, Outcome, Problem, SolveOptions,
};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

fn parse(text: &str) -> Problem {
    dancer_formats::dlx::read_str(text, "test").unwrap().problem
}

const TOY: &str = "A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";
const TOYCOLOR: &str = "A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n";

/// A problem with a known number of solutions (and, for some, the
/// solutions themselves, as sorted option lists).
struct Case {
    name: String,
    problem: Problem,
    count: u64,
    solutions: Option<Vec<Vec<OptionId>>>,
}

fn case(name: impl Into<String>, problem: Problem, count: u64) -> Case {
    Case {
        name: name.into(),
        problem,
        count,
        solutions: None,
    }
}

/// A 1xn strip tiled with monominoes and dominoes, every tile writing its
/// kind as a colour on one shared secondary item: all tiles must agree, so
/// the answer is 2 (all monominoes, or all dominoes, for n even).
fn colours_force_agreement(n: usize) -> Problem {
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
    b.build().unwrap()
}

/// Options longer than 255 entries take the DLX engine's slow path for
/// finding an option's start, and 600 items are more than the bitset
/// engine takes: the whole row; the two halves; singletons for the first
/// 300. Solutions: {whole}, {half, half}, {singletons, second half}.
fn very_long_options() -> Problem {
    let n = 600;
    let mut b = dancer_core::ProblemBuilder::new();
    for i in 0..n {
        b.primary(&format!("i{i}")).unwrap();
    }
    b.option((0..n).map(|i| format!("i{i}"))).unwrap();
    b.option((0..300).map(|i| format!("i{i}"))).unwrap();
    b.option((300..n).map(|i| format!("i{i}"))).unwrap();
    for i in 0..300 {
        b.option([format!("i{i}")]).unwrap();
    }
    b.build().unwrap()
}

/// A 2xn board tiled by dominoes, every domino also covering the item
/// `d`, which must be covered exactly n times (DLX3's `n|d`): the tilings
/// of the board, Fibonacci(n + 1) of them.
fn dominoes_counted(n: usize, bounds: &str) -> Problem {
    let mut text = format!("{bounds}|d");
    for r in 0..2 {
        for c in 0..n {
            text.push_str(&format!(" {r}.{c}"));
        }
    }
    text.push('\n');
    for c in 0..n {
        text.push_str(&format!("d 0.{c} 1.{c}\n"));
        if c + 1 < n {
            for r in 0..2 {
                text.push_str(&format!("d {r}.{c} {r}.{}\n", c + 1));
            }
        }
    }
    parse(&text)
}

fn cases() -> Vec<Case> {
    let mut v = vec![
        Case {
            solutions: Some(vec![vec![0, 3, 4]]),
            ..case("toy", parse(TOY), 1)
        },
        Case {
            solutions: Some(vec![vec![1, 3]]),
            ..case("toycolor", parse(TOYCOLOR), 1)
        },
        case("colours force agreement", colours_force_agreement(8), 2),
        case("an item with no options", parse("A B\nA\n"), 0),
        case("no options at all", parse("A\n"), 0),
        Case {
            solutions: Some(vec![vec![0]]),
            ..case(
                "an option covering everything",
                parse("A B | X\nA B X\nA\n"),
                1,
            )
        },
        Case {
            solutions: Some(vec![vec![0]]),
            ..case("an option without primary items", parse("A | X\nA\nX\n"), 1)
        },
        case("very long options", very_long_options(), 3),
        case("2x8 dominoes, exactly 8", dominoes_counted(8, "8"), 34),
        // 2, 3 or 4 dominoes of a 2x8 board: none can tile it
        case("2x8 dominoes, 2 to 4", dominoes_counted(8, "2:4"), 0),
        // between 1 and 5 on a 2x5 board: exactly 5 are needed
        case("2x5 dominoes, 1 to 5", dominoes_counted(5, "1:5"), 8),
    ];
    // OEIS A000170
    let queens = [1u64, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
    for (n, &k) in (1..=12).zip(&queens) {
        v.push(case(format!("queens {n}"), classic::queens(n), k));
    }
    // twice OEIS A014552 (each arrangement and its mirror image)
    let langford = [2u64, 2, 0, 0, 52, 300, 0, 0, 35584, 216288];
    for (n, &k) in (3..=12).zip(&langford) {
        v.push(case(format!("langford {n}"), classic::langford(n), k));
    }
    v
}

/// The refusals expected: (engine, reason) -> how many problems.
fn expected_skips() -> BTreeMap<(EngineKind, &'static str), usize> {
    BTreeMap::from([
        ((EngineKind::Dlx, "multiplicities"), 3),
        ((EngineKind::Bitset, "colours"), 2),
        ((EngineKind::Bitset, "multiplicities"), 3),
        ((EngineKind::Bitset, "too many items"), 1),
    ])
}

#[test]
fn every_engine_on_every_problem() {
    let cases = cases();
    let mut runs: BTreeMap<EngineKind, usize> = BTreeMap::new();
    let mut skips: BTreeMap<(EngineKind, &'static str), usize> = BTreeMap::new();
    for c in &cases {
        let mut reference: Option<(EngineKind, Vec<Vec<OptionId>>)> = None;
        for &e in EngineKind::ALL {
            match e.check(&c.problem) {
                Ok(()) => {}
                Err(EngineError::Unsupported { engine, reason }) => {
                    assert_eq!(engine, e);
                    assert!(e.build(&c.problem).is_err(), "{e} refuses but builds");
                    *skips.entry((e, reason.name())).or_default() += 1;
                    continue;
                }
                Err(other) => panic!("{}: {e}: {other}", c.name),
            }
            let sols = engine_solutions(&c.problem, e);
            assert_eq!(sols.len() as u64, c.count, "{}: {e}", c.name);
            if let Some(want) = &c.solutions {
                assert_eq!(&sols, want, "{}: {e}", c.name);
            }
            match &reference {
                Some((r, want)) => assert_eq!(&sols, want, "{}: {e} and {r} differ", c.name),
                None => reference = Some((e, sols)),
            }
            *runs.entry(e).or_default() += 1;
        }
        assert!(reference.is_some(), "{}: no engine took it", c.name);
        // auto always takes the problem, and agrees
        assert_eq!(count(&c.problem), c.count, "{}: auto", c.name);
    }
    let ran: Vec<String> = runs.iter().map(|(e, n)| format!("{e} {n}")).collect();
    let skipped: Vec<String> = skips
        .iter()
        .map(|((e, why), n)| format!("{e} ({why}) {n}"))
        .collect();
    dancer_testdata::say(&format!(
        "suite: {} problems x {} engines; ran: {}; skipped: {}",
        cases.len(),
        EngineKind::ALL.len(),
        ran.join(", "),
        skipped.join(", ")
    ));
    assert_eq!(
        skips,
        expected_skips(),
        "the engines refused other problems than expected"
    );
}

/// An engine built directly refuses what it cannot solve, with the reason.
#[test]
fn engines_refuse_with_a_typed_error() {
    let m = dominoes_counted(4, "4");
    assert!(matches!(
        Dlx::new(&m),
        Err(EngineError::Unsupported {
            engine: EngineKind::Dlx,
            reason: dancer_core::Unsupported::Multiplicities
        })
    ));
    assert!(EngineKind::Dlx.build(&m).is_err());
    assert!(EngineKind::Bitset.build(&parse(TOYCOLOR)).is_err());
    let err = EngineKind::Bitset
        .build(&very_long_options())
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "the bitset engine takes at most 512 items, not 600"
    );
    // auto picks an engine that takes each of them
    for p in [m, parse(TOYCOLOR), very_long_options()] {
        let e = EngineKind::Auto.resolve(&p).unwrap();
        assert_ne!(e, EngineKind::Auto);
        assert!(e.supports(&p));
    }
}

#[test]
fn api_count_first_all_iterator_agree() {
    let p = classic::queens(6);
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
    let p = classic::queens(8);
    let mut sink = CollectSink::new();
    // (the shortcut `all` runs dlx; `solve`'s default is auto)
    let o = solve(
        &p,
        &SolveOptions {
            engine: EngineKind::Dlx,
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
    let p = classic::queens(8);
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

/// Every solution of `p` (none kept), until `flag` is set.
fn solve_until_cancelled(p: &Problem, flag: Arc<AtomicBool>) -> Outcome {
    solve(
        p,
        &SolveOptions {
            cancel: Some(flag),
            ..Default::default()
        },
        &mut |_: &[OptionId]| Flow::Continue,
    )
    .unwrap()
}

#[test]
fn cancellation_from_another_thread() {
    // queens 14 takes long enough that the flag is seen mid-search.
    let p = classic::queens(14);
    let flag = Arc::new(AtomicBool::new(false));
    let f2 = flag.clone();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(20));
        f2.store(true, Ordering::Relaxed);
    });
    let o = solve_until_cancelled(&p, flag);
    setter.join().unwrap();
    assert!(o.cancelled && !o.complete);
    assert!(o.stats.solutions < 365_596);
}

#[test]
fn cancelled_before_start_finds_nothing_more() {
    let p = classic::queens(10);
    let flag = Arc::new(AtomicBool::new(true));
    let o = solve_until_cancelled(&p, flag);
    assert!(o.cancelled);
    // the flag is looked at every 1024 nodes
    assert!(o.stats.nodes <= 1024, "{}", o.stats.nodes);
}

#[test]
fn engine_restores_everything_and_can_be_reused() {
    let p = classic::queens(8);
    let mut d = Dlx::new(&p).unwrap();
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
    let p = classic::queens(8);
    let mut d = Dlx::new(&p).unwrap();
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
                                           // option 1 has only secondary items; Knuth drops it
    let p = parse("A | X\nA\nX\n");
    assert!(!p.is_active(1));
    assert!(verify(&p, &[0, 1]).is_err());
}
