//! The killer steps: sound against brute force (no step loses a solution,
//! on every 4x4 grid), replayed on generated puzzles against their one
//! solution, the board's invariants checked after every step.

use super::*;
use crate::killer::tests::{all_4x4, line_of, random_map, Lcg};
use crate::killer::{check_solution, count, generate};
use crate::rules::Rules;

/// The board's invariants (see the module's documentation).
fn check(b: &KillerBoard) {
    for c in 0..b.n * b.n {
        let v = b.values[c];
        if v != 0 {
            assert_eq!(b.cand[c], 1 << v, "a filled cell's candidates");
            for &p in &b.peers[c] {
                if b.values[p] == 0 {
                    assert_eq!(b.cand[p] >> v & 1, 0, "{c}'s peer {p} keeps {v}");
                }
            }
        }
        assert_eq!(b.cand[c] & !(((1u32 << (b.n + 1)) - 1) & !1), 0);
    }
}

/// Every solution of the puzzle keeps its digits among the candidates
/// after every step (so no step is unsound), on random 4x4 killers checked
/// against all 288 grids; the steps' placements are digits every solution
/// has.
#[test]
fn no_step_loses_a_solution_on_4x4() {
    let grids = all_4x4();
    let mut rng = Lcg(7);
    let mut seen = std::collections::BTreeSet::new();
    let mut solved = 0;
    for round in 0..300 {
        let g = &grids[rng.below(grids.len())];
        let map = random_map(4, 2 + round % 3, g, &mut rng);
        let k = KillerPuzzle::parse(&line_of(&map, g, None), None).unwrap();
        let sols: Vec<&Vec<u8>> = grids
            .iter()
            .filter(|s| check_solution(&k, &Grid::from_cells(4, s.to_vec())).is_ok())
            .collect();
        assert!(!sols.is_empty());
        let mut b = KillerBoard::new(&k);
        while let Some(step) = next_step(&b) {
            seen.insert(step.technique);
            for &(c, d) in &step.placements {
                assert!(
                    sols.iter().all(|s| s[c] == d),
                    "{:?} placed {d} in {c}: {}",
                    step.technique,
                    step.description
                );
            }
            b.apply(&step);
            check(&b);
            for s in &sols {
                for c in 0..16 {
                    assert_eq!(
                        b.cand[c] >> s[c] & 1,
                        1,
                        "{:?} lost a solution: {}",
                        step.technique,
                        step.description
                    );
                }
            }
            if b.is_solved() {
                break;
            }
        }
        if b.is_solved() {
            solved += 1;
            assert_eq!(
                sols.len(),
                1,
                "the steps solved a puzzle of several solutions"
            );
        }
    }
    assert!(solved > 100, "only {solved} of 300 solved");
    for t in [
        KillerTechnique::CageLastCell,
        KillerTechnique::CageCombinations,
        KillerTechnique::CageUnit,
    ] {
        assert!(seen.contains(&t), "{t:?} never taken: {seen:?}");
    }
}

/// Steps replayed: placements are the solution's digits, eliminations
/// never the solution's, and the board ends as the solution.
fn replay(k: &KillerPuzzle, solution: &Grid) -> KillerRating {
    let steps = path(k);
    let mut b = KillerBoard::new(k);
    for s in &steps {
        assert!(!s.description.is_empty());
        assert!(!s.placements.is_empty() || !s.eliminations.is_empty());
        for &(c, d) in &s.placements {
            assert_eq!(solution.get(c), d, "{}", s.description);
        }
        for &(c, d) in &s.eliminations {
            assert_ne!(solution.get(c), d, "{}", s.description);
            assert_eq!(
                b.cand[c] >> d & 1,
                1,
                "removes what is gone: {}",
                s.description
            );
        }
        b.apply(s);
        check(&b);
    }
    assert_eq!(b.grid(), *solution);
    let r = rate(k);
    assert_eq!(r.steps, steps.len());
    r
}

#[test]
fn generated_puzzles_have_their_level_and_one_solution() {
    let rules = Rules::standard(9).unwrap();
    for (level, seed) in [
        (KillerLevel::Easy, 1),
        (KillerLevel::Medium, 2),
        (KillerLevel::Hard, 3),
    ] {
        let g = generate(&rules, level, seed, 50, None).expect("a puzzle of the level");
        assert_eq!(g.level, level);
        let k = &g.puzzle;
        check_solution(k, &g.solution).unwrap();
        assert_eq!(count(k, Some(2)), 1, "{}", k.to_line());
        let r = replay(k, &g.solution);
        assert!(r.solved);
        assert_eq!(r.level, Some(level));
        assert_eq!(r.rating, g.rating);
        assert!(r.rating <= level.most());
        // the line reads back to the same puzzle
        let back = KillerPuzzle::parse(&k.to_line(), None).unwrap();
        assert_eq!(back.cages.len(), k.cages.len());
        assert_eq!(count(&back, Some(2)), 1);
    }
}

#[test]
fn small_grids_generate_too() {
    for (rules, level) in [
        (Rules::standard(4).unwrap(), KillerLevel::Easy),
        (Rules::standard(6).unwrap(), KillerLevel::Medium),
    ] {
        let g = generate(&rules, level, 5, 200, None).expect("a puzzle");
        assert_eq!(count(&g.puzzle, Some(2)), 1);
        replay(&g.puzzle, &g.solution);
    }
}

#[test]
fn levels_and_ratings_agree() {
    for &t in KillerTechnique::ALL {
        let l = KillerLevel::of_rating(t.rating());
        assert!(t.rating() <= l.most());
        assert_eq!(KillerLevel::from_name(l.name()), Some(l));
    }
    let ratings: Vec<f64> = KillerTechnique::ALL.iter().map(|t| t.rating()).collect();
    assert!(
        ratings.windows(2).all(|w| w[0] <= w[1]),
        "ALL is easiest first"
    );
}

/// Every technique, tried on every board along the paths of generated
/// 9x9 puzzles, is sound there (its placements are the solution's, its
/// eliminations not), and each one finds a step somewhere.
#[test]
fn every_technique_is_sound_and_finds_steps() {
    let rules = Rules::standard(9).unwrap();
    let mut found = std::collections::BTreeMap::new();
    for seed in 0..6 {
        let level = [KillerLevel::Hard, KillerLevel::Expert][seed % 2];
        let g = generate(&rules, level, seed as u64, 50, None).expect("a puzzle");
        replay(&g.puzzle, &g.solution);
        let mut b = KillerBoard::new(&g.puzzle);
        for step in path(&g.puzzle) {
            for &t in KillerTechnique::ALL {
                let Some(s) = find(&b, t, KillerTechnique::CageCombinations) else {
                    continue;
                };
                *found.entry(t).or_insert(0) += 1;
                assert_eq!(s.technique, t);
                for &(c, d) in &s.placements {
                    assert_eq!(g.solution.get(c), d, "{t:?}: {}", s.description);
                }
                for &(c, d) in &s.eliminations {
                    assert_ne!(g.solution.get(c), d, "{t:?}: {}", s.description);
                }
            }
            b.apply(&step);
        }
    }
    for &t in KillerTechnique::ALL {
        assert!(found.contains_key(&t), "{t:?} never found: {found:?}");
    }
}

/// A budget that is never reached changes nothing; one already spent stops
/// before the first step, and a cancel flag set stops as an interruption.
#[test]
fn rating_within_a_budget() {
    use crate::logic::{Budget, Halt};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let rules = Rules::standard(9).unwrap();
    let g = generate(&rules, KillerLevel::Medium, 7, 50, None).expect("a puzzle");
    let k = &g.puzzle;
    let full = rate(k);
    assert!(full.solved && full.stopped.is_none());
    assert_eq!(rate_within(k, &Budget::unlimited()), full);
    let spent = rate_within(k, &Budget::timeout(std::time::Duration::ZERO));
    assert_eq!(spent.stopped, Some(Halt::Timeout));
    assert!(!spent.solved);
    assert_eq!(spent.steps, 0);
    let flag = Arc::new(AtomicBool::new(true));
    let cancelled = rate_within(k, &Budget::unlimited().with_cancel(flag));
    assert_eq!(cancelled.stopped, Some(Halt::Interrupted));
    assert!(cancelled.rating <= full.rating);
}
