//! Property tests: every engine against a brute-force reference on random
//! small problems (secondary items and colours included), planted solutions,
//! and invariance under permuting items, options and entries.

mod common;

use common::{dlxm_solutions, engine_solutions, spec_strategy, spec_with_bounds, Spec};
use dancer_core::rng::Draw;
use dancer_core::{verify, EngineKind};
use dancer_testdata::Lcg;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// The engines find exactly the solutions that trying every subset finds.
    #[test]
    fn matches_brute_force(spec in spec_strategy(12, 0)) {
        every_engine_matches_brute_force(&spec)?;
    }

    /// Multiplicities (DLX3): items covered between lo and hi times.
    #[test]
    fn multiplicities_match_brute_force(spec in spec_with_bounds(11, 2)) {
        let p = spec.build();
        let expected = spec.brute_force();
        prop_assert_eq!(&dlxm_solutions(&p), &expected);
        prop_assert_eq!(&engine_solutions(&p, EngineKind::Auto.resolve(&p).unwrap()), &expected);
        prop_assert_eq!(&engine_solutions(&p, EngineKind::BitMrv), &expected);
        // dlx and bitset refuse multiplicities, and take the rest
        for engine in [EngineKind::Dlx, EngineKind::Bitset] {
            prop_assert_eq!(
                engine.check(&p).is_err(),
                p.has_multiplicities() || (engine == EngineKind::Bitset && p.has_colors()),
                "{}", engine
            );
        }
    }

    /// The multiplicity engine also solves plain problems, exactly.
    #[test]
    fn multiplicity_engine_on_plain_problems(spec in spec_strategy(12, 3)) {
        let p = spec.build();
        prop_assert_eq!(dlxm_solutions(&p), spec.brute_force());
    }

    /// The same with colours on secondary items.
    #[test]
    fn matches_brute_force_with_colours(spec in spec_strategy(12, 3)) {
        every_engine_matches_brute_force(&spec)?;
    }
}

/// Every engine that takes `spec`'s problem finds exactly the solutions
/// that trying every subset finds.
fn every_engine_matches_brute_force(spec: &Spec) -> Result<(), TestCaseError> {
    let p = spec.build();
    let expected = spec.brute_force();
    for &engine in EngineKind::ALL.iter().filter(|e| e.supports(&p)) {
        prop_assert_eq!(
            &engine_solutions(&p, engine),
            &expected,
            "engine {}",
            engine
        );
    }
    Ok(())
}

/// A problem with a planted solution: the primary items are split into
/// random groups (the planted options), secondary items are sprinkled over
/// them with colours that agree, and random noise options are added.
fn planted() -> impl Strategy<Value = (Spec, Vec<usize>)> {
    (2usize..=30, 0usize..=8, 0usize..=40, any::<u64>()).prop_map(
        |(primary, secondary, noise, seed)| {
            let mut rng = Lcg(seed | 1);
            let n = primary + secondary;
            // random partition of the primary items
            let mut items: Vec<usize> = (0..primary).collect();
            rng.shuffle(&mut items);
            let mut groups: Vec<Vec<(usize, u32)>> = Vec::new();
            let mut i = 0;
            while i < items.len() {
                let size = 1 + rng.below(4);
                groups.push(
                    items[i..(i + size).min(items.len())]
                        .iter()
                        .map(|&x| (x, 0))
                        .collect(),
                );
                i += size;
            }
            // secondary items: each used by no group, one group uncoloured, or
            // several groups with one colour
            for s in primary..n {
                match rng.below(3) {
                    0 => {}
                    1 => {
                        let g = rng.below(groups.len());
                        groups[g].push((s, 0));
                    }
                    _ => {
                        let c = 1 + rng.below(3) as u32;
                        for g in groups.iter_mut() {
                            if rng.below(2) == 0 {
                                g.push((s, c));
                            }
                        }
                    }
                }
            }
            let mut options: Vec<Vec<(usize, u32)>> = groups.clone();
            for _ in 0..noise {
                let len = 1 + rng.below(4);
                let mut opt: Vec<(usize, u32)> = Vec::new();
                for _ in 0..len {
                    let it = rng.below(n);
                    if opt.iter().all(|&(j, _)| j != it) {
                        let c = if it >= primary {
                            rng.below(4) as u32
                        } else {
                            0
                        };
                        opt.push((it, c));
                    }
                }
                options.push(opt);
            }
            // shuffle options, remembering where the planted ones went
            let mut order: Vec<usize> = (0..options.len()).collect();
            rng.shuffle(&mut order);
            let shuffled: Vec<_> = order.iter().map(|&k| options[k].clone()).collect();
            let mut plant: Vec<usize> = (0..groups.len())
                .map(|g| order.iter().position(|&k| k == g).unwrap())
                .collect();
            plant.sort();
            (
                Spec {
                    primary,
                    secondary,
                    options: shuffled,
                    bounds: Vec::new(),
                },
                plant,
            )
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The planted solution is always found, and every solution found checks.
    #[test]
    fn finds_planted_solution((spec, plant) in planted()) {
        let p = spec.build();
        verify(&p, &plant).expect("the planted solution is a solution");
        for &engine in EngineKind::ALL.iter().filter(|e| e.supports(&p)) {
            let sols = engine_solutions(&p, engine);
            prop_assert!(sols.contains(&plant), "engine {} missed the planted solution", engine);
            if spec.options.len() <= 16 {
                prop_assert_eq!(&sols, &spec.brute_force());
            }
        }
    }

    /// Renaming (permuting) items, reordering options and reordering the
    /// entries inside options changes nothing but the numbering.
    #[test]
    fn invariant_under_permutation((spec, _) in planted(), seed in any::<u64>()) {
        let mut rng = Lcg(seed | 1);
        let mut pp: Vec<usize> = (0..spec.primary).collect();
        let mut sp: Vec<usize> = (spec.primary..spec.primary + spec.secondary).collect();
        rng.shuffle(&mut pp);
        rng.shuffle(&mut sp);
        let item_map = |i: usize| if i < spec.primary { pp[i] } else { sp[i - spec.primary] };
        let mut order: Vec<usize> = (0..spec.options.len()).collect();
        rng.shuffle(&mut order);
        // new option j is old option order[j]
        let options: Vec<Vec<(usize, u32)>> = order
            .iter()
            .map(|&k| {
                let mut o: Vec<(usize, u32)> = spec.options[k].iter().map(|&(i, c)| (item_map(i), c)).collect();
                rng.shuffle(&mut o);
                o
            })
            .collect();
        let permuted = Spec { primary: spec.primary, secondary: spec.secondary, options, bounds: Vec::new() };
        let (p, q) = (spec.build(), permuted.build());
        for &engine in EngineKind::ALL.iter().filter(|e| e.supports(&p)) {
            let a = engine_solutions(&p, engine);
            let b = engine_solutions(&q, engine);
            prop_assert_eq!(a.len(), b.len());
            let mut mapped: Vec<Vec<usize>> = b
                .iter()
                .map(|s| {
                    let mut v: Vec<usize> = s.iter().map(|&j| order[j]).collect();
                    v.sort();
                    v
                })
                .collect();
            mapped.sort();
            prop_assert_eq!(a, mapped);
        }
    }
}
