//! The budget of a rating or a hint (`logic::Budget`: a deadline and a
//! cancel flag) reaches the check that the puzzle has one solution, a
//! count to two on the exact cover, for killers and overlapping grids
//! alike, and in the game's hints: a set flag stops it before its first
//! node, a deadline in the middle of a long count, each with a typed
//! outcome (`stopped`, `KillerHint::Stopped`, a rating stopped before
//! its steps).

use dancer_sudoku::cover::search_within;
use dancer_sudoku::gattai::{self, GattaiPuzzle, Shape};
use dancer_sudoku::killer::{self, KillerHint, KillerPuzzle};
use dancer_sudoku::logic::{Budget, Halt};
use dancer_sudoku::play::Game;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A budget whose flag is already set (a Ctrl-C, a request gone).
fn cancelled() -> Budget {
    Budget::unlimited().with_cancel(Arc::new(AtomicBool::new(true)))
}

/// A 4x4 killer with more than one solution (a cage per box).
const KILLER_SEVERAL: &str = "aabbaabbccddccdd 10,10,10,10";

/// A 4x4 killer with one solution.
const KILLER_UNIQUE: &str = "aabcdefcgefhgijj 3,4,4,3,7,3,5,2,2,7";

/// Line 14 of the shared 16x16 set (unique), as one grid of a shape of
/// its own: its count to two on the shape's cover runs for minutes.
const GRID16: &str = "2G.........8B.75..7....6.4...A..498.2...5A..1...5..1C9E.3B............D.B.5..3.......A...3.984..B7..5.1.....A....31...8....492.7.2C.......DA.6...6..42.8....5.91...........7.......7.D5.9C.3....1A.3B...2..5...4..48...7C..6.9.3..2...A.89.....6....94........2.";

fn one_grid_16() -> GattaiPuzzle {
    let shape = Shape::parse("one16", "size 16\ngrid 0 0\n").unwrap();
    GattaiPuzzle::parse(GRID16, &shape).unwrap()
}

/// What no bounded call here may pass: far more than its budget, far
/// less than the count without one.
const GUARD: Duration = Duration::from_secs(60);

#[test]
fn a_set_flag_stops_a_killer_count_before_its_first_node() {
    let k = KillerPuzzle::parse(KILLER_SEVERAL, None).unwrap();
    let s = killer::solve_within(&k, Some(2), 1, &cancelled());
    assert_eq!(s.stopped, Some(Halt::Interrupted));
    assert_eq!((s.count, s.nodes, s.complete), (0, 0, false));
    assert!(s.solutions.is_empty());
    // unbounded, it has two
    let s = killer::solve_within(&k, Some(2), 0, &Budget::unlimited());
    assert_eq!((s.count, s.stopped), (2, None));
}

#[test]
fn a_killer_rating_under_a_set_flag_stops_in_its_uniqueness_check() {
    // several solutions: the count, stopped, cannot tell; the rating says
    // it stopped before any step (before the budget reached the count, it
    // counted to two whatever the flag, and said "not unique")
    let k = KillerPuzzle::parse(KILLER_SEVERAL, None).unwrap();
    let r = killer::rate_unique_within(&k, &cancelled()).expect("a rating, stopped");
    assert_eq!(r.stopped, Some(Halt::Interrupted));
    assert_eq!((r.steps, r.rating, r.solved), (0, 0.0, false));
    assert_eq!(killer::rate_unique_within(&k, &Budget::unlimited()), None);
    let u = KillerPuzzle::parse(KILLER_UNIQUE, None).unwrap();
    let full = killer::rate_unique_within(&u, &Budget::unlimited()).unwrap();
    assert!(full.solved && full.stopped.is_none(), "{full:?}");
}

#[test]
fn a_killer_hint_under_a_set_flag_says_it_stopped() {
    let k = KillerPuzzle::parse(KILLER_UNIQUE, None).unwrap();
    assert_eq!(
        killer::hint_within(&k, &[], &cancelled()),
        KillerHint::Stopped(Halt::Interrupted)
    );
    let past = Budget::timeout(Duration::ZERO);
    assert_eq!(
        killer::hint_within(&k, &[], &past),
        KillerHint::Stopped(Halt::Timeout)
    );
    assert!(killer::hint_within(&k, &[], &Budget::unlimited()).found());
    // the game's hint takes the budget through the same call
    let g = Game::new_killer(&k).unwrap();
    assert_eq!(
        g.killer_hint_within(&cancelled()),
        Some(KillerHint::Stopped(Halt::Interrupted))
    );
    assert!(g.killer_hint().is_some_and(|h| h.found()));
}

#[test]
fn a_deadline_stops_a_long_shape_count_in_the_middle() {
    let p = one_grid_16();
    let start = Instant::now();
    let s = gattai::solve_within(&p, Some(2), 0, &Budget::timeout(Duration::from_millis(300)));
    assert!(start.elapsed() < GUARD, "{:?}", start.elapsed());
    assert_eq!(s.stopped, Some(Halt::Timeout));
    assert!(s.count < 2 && !s.complete, "{s:?}");
}

#[test]
fn a_shape_rating_and_hint_take_their_budget_into_the_uniqueness_check() {
    let p = one_grid_16();
    let start = Instant::now();
    let r = gattai::rate_unique_within(&p, &Budget::timeout(Duration::from_millis(300)))
        .expect("a rating, stopped");
    assert!(start.elapsed() < GUARD, "{:?}", start.elapsed());
    assert_eq!(r.stopped, Some(Halt::Timeout));
    assert_eq!((r.steps, r.rating), (0, 0.0));
    let start = Instant::now();
    let h = gattai::hint_within(&p, &[], &Budget::timeout(Duration::from_millis(300)));
    assert!(start.elapsed() < GUARD, "{:?}", start.elapsed());
    assert_eq!(h, KillerHint::Stopped(Halt::Timeout));
    assert_eq!(
        gattai::hint_within(&p, &[], &cancelled()),
        KillerHint::Stopped(Halt::Interrupted)
    );
}

#[test]
fn a_gattai_games_hint_takes_its_budget() {
    let twodoku = Shape::builtin("twodoku").unwrap();
    let made = gattai::generate(&twodoku, 3, None).unwrap();
    let g = Game::new_gattai_generated(&made).unwrap();
    assert_eq!(
        g.gattai_hint_within(&cancelled()),
        Some(KillerHint::Stopped(Halt::Interrupted))
    );
    assert!(g.gattai_hint().is_some_and(|h| h.found()));
}

#[test]
fn the_shared_search_looks_at_its_budget_before_its_first_node() {
    let p = KillerPuzzle::parse(KILLER_SEVERAL, None).unwrap();
    let cover = killer::to_exact_cover(&p);
    let mut seen = 0;
    let s = search_within(&cover.problem, None, &cancelled(), &mut |_| seen += 1);
    assert_eq!((s.count, s.nodes, seen), (0, 0, 0));
    assert_eq!(s.stopped, Some(Halt::Interrupted));
    let s = search_within(&cover.problem, None, &Budget::unlimited(), &mut |_| {
        seen += 1
    });
    assert!(s.complete && s.stopped.is_none());
    assert_eq!(s.count, seen);
    assert!(s.count >= 2);
}
