//! Helpers shared by the engine tests: random problems as plain data, a
//! brute-force reference solver that shares no code with the engines, and
//! the engines' solution sets in a comparable form.
#![allow(dead_code)]

use dancer_core::{verify, Engine, EngineKind, Problem, ProblemBuilder};
use proptest::prelude::*;

/// A problem as plain data: `options[k]` lists `(item, colour)` pairs, colour
/// 0 for none; items `0..primary` are primary.
#[derive(Clone, Debug)]
pub struct Spec {
    pub primary: usize,
    pub secondary: usize,
    pub options: Vec<Vec<(usize, u32)>>,
    /// (least, most) per primary item; empty for exactly once.
    pub bounds: Vec<(u32, u32)>,
}

impl Spec {
    pub fn build(&self) -> Problem {
        let mut b = ProblemBuilder::new();
        for i in 0..self.primary {
            match self.bounds.get(i) {
                Some(&(lo, hi)) => b.primary_bounded(&format!("p{i}"), lo, hi).unwrap(),
                None => b.primary(&format!("p{i}")).unwrap(),
            };
        }
        for i in 0..self.secondary {
            b.secondary(&format!("s{i}")).unwrap();
        }
        let max_color = self
            .options
            .iter()
            .flatten()
            .map(|&(_, c)| c)
            .max()
            .unwrap_or(0);
        for c in 1..=max_color {
            assert_eq!(b.color(&format!("k{c}")).unwrap(), c);
        }
        for opt in &self.options {
            b.option_ids(opt.iter().copied()).unwrap();
        }
        b.build().unwrap()
    }

    fn is_solution(&self, chosen: &[usize]) -> bool {
        let n = self.primary + self.secondary;
        let mut count = vec![0usize; n];
        let mut color = vec![None::<u32>; n];
        let mut plain = vec![false; n];
        for &k in chosen {
            if !self.options[k].iter().any(|&(i, _)| i < self.primary) {
                return false;
            }
            for &(i, c) in &self.options[k] {
                count[i] += 1;
                if c == 0 {
                    plain[i] = true;
                } else {
                    match color[i] {
                        None => color[i] = Some(c),
                        Some(d) if d != c => return false,
                        _ => {}
                    }
                }
            }
        }
        (0..self.primary).all(|i| {
            let (lo, hi) = self.bounds.get(i).copied().unwrap_or((1, 1));
            lo as usize <= count[i] && count[i] <= hi as usize
        }) && (self.primary..n).all(|i| count[i] <= 1 || (!plain[i] && color[i].is_some()))
    }

    /// Every solution, by trying every subset of options. Each solution is
    /// sorted, and the list is sorted.
    pub fn brute_force(&self) -> Vec<Vec<usize>> {
        let m = self.options.len();
        assert!(m <= 20, "brute force over {m} options is too slow");
        let mut out = Vec::new();
        for mask in 0u32..(1 << m) {
            let chosen: Vec<usize> = (0..m).filter(|k| mask >> k & 1 == 1).collect();
            if self.is_solution(&chosen) {
                out.push(chosen);
            }
        }
        out.sort();
        out
    }
}

/// Whether to run the engines' invariant checkers after solution number
/// `k` (0-based): after each of the first hundred and then now and then,
/// since a check looks at every option.
fn check_now(k: usize) -> bool {
    k < 100 || k % 997 == 0
}

/// Runs `a` and `b` side by side: the same solutions in the same order
/// (`differ` says which pair differs otherwise); `check(a, b, k)` after
/// solution number `k` where [`check_now`].
fn in_step<A: Engine, B: Engine + ?Sized>(
    a: &mut A,
    b: &mut B,
    differ: &str,
    mut check: impl FnMut(&A, &B, usize),
) {
    let mut k = 0;
    loop {
        let x = a.next_solution().map(<[usize]>::to_vec);
        let y = b.next_solution().map(<[usize]>::to_vec);
        assert_eq!(x, y, "{differ}");
        if x.is_none() {
            break;
        }
        if check_now(k) {
            check(a, b, k);
        }
        k += 1;
    }
}

/// Runs `e` (the engine `name`) to the end, with its invariant checker
/// `check` after solutions (where [`check_now`]) and at the end.
fn checked_run<E: Engine>(e: &mut E, name: &str, check: impl Fn(&E) -> Result<(), String>) {
    let mut k = 0;
    while e.next_solution().is_some() {
        if check_now(k) {
            check(e).unwrap_or_else(|err| panic!("{name} after solution {k}: {err}"));
        }
        k += 1;
    }
    check(e).unwrap_or_else(|err| panic!("{name} at the end: {err}"));
}

/// Every solution found by `engine`, each checked by `verify`, each sorted,
/// the list sorted. For the linked engines, their invariant checkers
/// (Knuth's `sanity()`) run after solutions and at the end; for the DLX
/// engine, its compact layout is checked to find the same solutions with
/// the same counters.
pub fn engine_solutions(p: &Problem, engine: EngineKind) -> Vec<Vec<usize>> {
    assert!(engine.supports(p), "{engine} cannot take this problem");
    match engine {
        EngineKind::Dlx => {
            let mut a = dancer_core::Dlx::new(p).unwrap();
            let mut b = dancer_core::Dlx::new_compact(p).unwrap();
            in_step(&mut a, &mut b, "compact layout differs", |a, b, k| {
                a.check_invariants()
                    .unwrap_or_else(|e| panic!("dlx after solution {k}: {e}"));
                b.check_invariants()
                    .unwrap_or_else(|e| panic!("dlx (compact) after solution {k}: {e}"));
            });
            assert_eq!(a.stats(), b.stats());
            a.check_invariants()
                .unwrap_or_else(|e| panic!("dlx at the end: {e}"));
        }
        EngineKind::Dlxm => {
            let mut e = dancer_core::Dlxm::new(p);
            checked_run(&mut e, "dlxm", dancer_core::Dlxm::check_invariants);
        }
        EngineKind::BitMrv => {
            use dancer_core::engines::bitmrv::{BitMrv, Ties};
            // With Knuth's ties, the tree of dlx (dlxm with
            // multiplicities): the same solutions in the same order, the
            // same nodes, and without colours the same updates too.
            let mut a = BitMrv::with_ties(p, Ties::Knuth).unwrap();
            let mut r: Box<dyn Engine> = if p.has_multiplicities() {
                Box::new(dancer_core::Dlxm::new(p))
            } else {
                Box::new(dancer_core::Dlx::new(p).unwrap())
            };
            in_step(
                &mut a,
                &mut *r,
                "bitmrv with Knuth's ties and its reference differ",
                |a, _, k| {
                    a.check_invariants()
                        .unwrap_or_else(|e| panic!("bitmrv after solution {k}: {e}"));
                },
            );
            a.check_invariants()
                .unwrap_or_else(|e| panic!("bitmrv at the end: {e}"));
            assert_eq!(a.stats().nodes, r.stats().nodes, "bitmrv's nodes");
            assert_eq!(
                a.stats().profile_trimmed(),
                r.stats().profile_trimmed(),
                "bitmrv's nodes per level"
            );
            if !p.has_colors() && !p.has_multiplicities() {
                assert_eq!(a.stats().updates, r.stats().updates, "bitmrv's updates");
            }
            // and the engine as built, with its own ties
            let mut e = BitMrv::new(p).unwrap();
            checked_run(&mut e, "bitmrv", BitMrv::check_invariants);
        }
        _ => {}
    }
    let mut e = engine.build(p).unwrap();
    let mut out = Vec::new();
    while let Some(sol) = e.next_solution() {
        if let Err(err) = verify(p, sol) {
            panic!("{engine}: invalid solution {sol:?}: {err}");
        }
        let mut s = sol.to_vec();
        s.sort();
        out.push(s);
    }
    assert!(e.is_complete());
    assert_eq!(e.stats().solutions, out.len() as u64);
    out.sort();
    out
}

/// Random small problems: up to `max_options` options over a few primary and
/// secondary items, with up to `colors` colours on secondary entries.
pub fn spec_strategy(max_options: usize, colors: u32) -> impl Strategy<Value = Spec> {
    (1usize..=6, 0usize..=4).prop_flat_map(move |(primary, secondary)| {
        let n = primary + secondary;
        let entry = (0..n, 0..=colors);
        let option = proptest::collection::vec(entry, 1..=4).prop_map(move |v| {
            let mut seen = vec![false; n];
            v.into_iter()
                .filter(|&(i, _)| !std::mem::replace(&mut seen[i], true))
                .map(|(i, c)| (i, if i < primary { 0 } else { c }))
                .collect::<Vec<_>>()
        });
        proptest::collection::vec(option, 0..=max_options).prop_map(move |options| Spec {
            primary,
            secondary,
            options,
            bounds: Vec::new(),
        })
    })
}

/// Random small problems with multiplicities on the primary items.
pub fn spec_with_bounds(max_options: usize, colors: u32) -> impl Strategy<Value = Spec> {
    (
        spec_strategy(max_options, colors),
        proptest::collection::vec((0u32..=2, 0u32..=2), 6),
    )
        .prop_map(|(mut spec, raw)| {
            spec.bounds = raw
                .into_iter()
                .take(spec.primary)
                .map(|(lo, extra)| (lo, (lo + extra).max(1)))
                .collect();
            spec
        })
}

/// Every solution found by the multiplicity engine run directly (also on
/// problems without multiplicities), checked and sorted like
/// [`engine_solutions`], with its invariants checked along the way, and
/// no solution reported twice.
pub fn dlxm_solutions(p: &Problem) -> Vec<Vec<usize>> {
    let mut out = engine_solutions(p, EngineKind::Dlxm);
    let n = out.len();
    out.dedup();
    assert_eq!(out.len(), n, "dlxm reported a solution twice");
    out
}
