//! The memoizing counter (`dancer_core::memo`) against references that
//! share no code with it: brute force on random small problems (secondary
//! items and colours included, with its invariants checked at every node),
//! a transfer-matrix count of tilings by dominoes and polyominoes, known
//! answers (OEIS A099390), and exact counts beyond 128 bits. The ZDDs it
//! writes are read back: the same solutions as brute force, each verified,
//! and uniformly random ones (a chi-square test).

mod common;

use common::{spec_strategy, spec_with_bounds, Spec};
use dancer_core::memo::{self, MemoOptions};
use dancer_core::zdd::Zdd;
use dancer_core::{verify, Count, Problem, ProblemBuilder};
use num_bigint::BigUint;
use proptest::prelude::*;
use std::collections::HashMap;
use std::ops::ControlFlow;

fn checked(p: &Problem, memory: usize) -> Count {
    let r = memo::count(
        p,
        &MemoOptions {
            memory,
            check: true,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(r.complete);
    r.count
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// The count of every random problem is the number of subsets of
    /// options that are solutions, with a generous cache and with one so
    /// small that it evicts all the time.
    #[test]
    fn counts_match_brute_force(spec in spec_strategy(14, 3)) {
        let p = spec.build();
        let want = Count::from(spec.brute_force().len() as u64);
        prop_assert_eq!(checked(&p, 1 << 30), want.clone());
        prop_assert_eq!(checked(&p, 0), want);
    }

    /// With multiplicities (primary items covered between u and v times,
    /// u possibly 0), colours and secondary items: the same count as brute
    /// force, and a ZDD of exactly the same solutions, with a generous
    /// cache and a tiny one.
    #[test]
    fn multiplicities_match_brute_force(spec in spec_with_bounds(12, 2)) {
        let p = spec.build();
        let want = sorted_solutions(spec.brute_force());
        prop_assert_eq!(checked(&p, 0), Count::from(want.len() as u64));
        let (count, z, _) = zdd_of(&p, 1 << 30);
        prop_assert_eq!(&count, &Count::from(want.len() as u64));
        prop_assert_eq!(zdd_solutions(&p, &z), want);
    }

    /// Renaming the items and reordering the options changes no count
    /// (the branching order, and so the tree, may change).
    #[test]
    fn counts_survive_permutations(spec in spec_strategy(14, 2), seed in any::<u64>()) {
        let p = spec.build();
        let q = permuted(&spec, seed).build();
        prop_assert_eq!(checked(&p, 1 << 30), checked(&q, 1 << 30));
    }
}

/// `spec` with its primary items, its secondary items and its options each
/// in a shuffled order (a small xorshift generator from `seed`).
fn permuted(spec: &Spec, seed: u64) -> Spec {
    let mut x = seed | 1;
    let mut next = move |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let mut shuffle = |v: &mut Vec<usize>| {
        for i in (1..v.len()).rev() {
            let j = next(i + 1);
            v.swap(i, j);
        }
    };
    let mut prim: Vec<usize> = (0..spec.primary).collect();
    let mut sec: Vec<usize> = (0..spec.secondary).map(|i| spec.primary + i).collect();
    shuffle(&mut prim);
    shuffle(&mut sec);
    let rename: Vec<usize> = prim.into_iter().chain(sec).collect();
    let mut order: Vec<usize> = (0..spec.options.len()).collect();
    shuffle(&mut order);
    Spec {
        primary: spec.primary,
        secondary: spec.secondary,
        options: order
            .iter()
            .map(|&k| {
                spec.options[k]
                    .iter()
                    .map(|&(i, c)| (rename[i], c))
                    .collect()
            })
            .collect(),
        bounds: Vec::new(),
    }
}

/// The tilings of an m x n board by copies of `shapes` (each a list of
/// (row, column) cells; every rotation and reflection allowed), as an
/// exact cover problem: one primary item per cell, one option per
/// placement.
fn tilings(m: usize, n: usize, shapes: &[Vec<(i32, i32)>]) -> Problem {
    let mut b = ProblemBuilder::new();
    for r in 0..m {
        for c in 0..n {
            b.primary(&format!("{r},{c}")).unwrap();
        }
    }
    for cells in placements(m, n, shapes) {
        b.option(cells.iter().map(|&(r, c)| format!("{r},{c}")))
            .unwrap();
    }
    b.build().unwrap()
}

/// Every placement of the shapes on an m x n board: its cells, sorted,
/// each placement once.
fn placements(m: usize, n: usize, shapes: &[Vec<(i32, i32)>]) -> Vec<Vec<(usize, usize)>> {
    let mut out: Vec<Vec<(usize, usize)>> = Vec::new();
    for shape in shapes {
        for t in 0..8 {
            let cells: Vec<(i32, i32)> = shape
                .iter()
                .map(|&(r, c)| {
                    let (r, c) = if t & 4 == 0 { (r, c) } else { (c, r) };
                    (
                        if t & 1 == 0 { r } else { -r },
                        if t & 2 == 0 { c } else { -c },
                    )
                })
                .collect();
            for dr in -4..m as i32 + 4 {
                for dc in -4..n as i32 + 4 {
                    let mut placed: Vec<(usize, usize)> = Vec::new();
                    for &(r, c) in &cells {
                        let (r, c) = (r + dr, c + dc);
                        if r < 0 || c < 0 || r >= m as i32 || c >= n as i32 {
                            placed.clear();
                            break;
                        }
                        placed.push((r as usize, c as usize));
                    }
                    if placed.len() == cells.len() {
                        placed.sort();
                        if !out.contains(&placed) {
                            out.push(placed);
                        }
                    }
                }
            }
        }
    }
    out
}

/// The number of tilings by a transfer matrix over columns: the state is
/// which cells of the next few columns are filled; column by column, the
/// empty cells of the current column are filled, top to bottom, by
/// placements whose first cell (in column-major order) is that cell.
fn transfer_count(m: usize, n: usize, shapes: &[Vec<(i32, i32)>]) -> BigUint {
    let all = placements(m, n, shapes);
    // placements by first cell (column-major), as (column, bits by column
    // offset) with bit r of word d for cell (r, c + d)
    let mut by_first: HashMap<(usize, usize), Vec<Vec<u32>>> = HashMap::new();
    let width = all
        .iter()
        .map(|p| {
            p.iter().map(|&(_, c)| c).max().unwrap() - p.iter().map(|&(_, c)| c).min().unwrap() + 1
        })
        .max()
        .unwrap_or(1);
    for p in &all {
        let &(r0, c0) = p.iter().min_by_key(|&&(r, c)| (c, r)).unwrap();
        let mut cols = vec![0u32; width];
        for &(r, c) in p {
            cols[c - c0] |= 1 << r;
        }
        by_first.entry((r0, c0)).or_default().push(cols);
    }
    let full = (1u32 << m) - 1;
    // states: the filled cells of columns c .. c + width
    let mut states: HashMap<Vec<u32>, BigUint> = HashMap::new();
    states.insert(vec![0; width], BigUint::from(1u32));
    for c in 0..n {
        // fill column c completely, cell by cell
        let mut done: HashMap<Vec<u32>, BigUint> = HashMap::new();
        let mut stack: Vec<(Vec<u32>, BigUint)> = states.into_iter().collect();
        while let Some((cols, ways)) = stack.pop() {
            if cols[0] == full {
                *done.entry(cols).or_default() += ways;
                continue;
            }
            let r = (!cols[0]).trailing_zeros() as usize;
            for p in by_first.get(&(r, c)).into_iter().flatten() {
                if p.iter().zip(&cols).all(|(a, b)| a & b == 0) {
                    let next: Vec<u32> = cols.iter().zip(p).map(|(a, b)| a | b).collect();
                    stack.push((next, ways.clone()));
                }
            }
        }
        // move one column on
        states = HashMap::new();
        for (cols, ways) in done {
            let mut next = cols[1..].to_vec();
            next.push(0);
            *states.entry(next).or_default() += ways;
        }
    }
    states.remove(&vec![0; width]).unwrap_or_default()
}

/// A piece: its cells as (row, column).
type Shape = Vec<(i32, i32)>;

fn domino() -> Vec<Shape> {
    vec![vec![(0, 0), (0, 1)]]
}

#[test]
fn domino_tilings_match_the_transfer_matrix() {
    for m in 1..=6 {
        for n in 1..=9 {
            let want = transfer_count(m, n, &domino());
            assert_eq!(
                checked(&tilings(m, n, &domino()), 1 << 26).to_biguint(),
                want,
                "{m}x{n}"
            );
        }
    }
}

#[test]
fn tromino_and_tetromino_tilings_match_the_transfer_matrix() {
    let l3 = vec![(0, 0), (1, 0), (1, 1)];
    let i3 = vec![(0, 0), (0, 1), (0, 2)];
    let tetrominoes = vec![
        vec![(0, 0), (0, 1), (0, 2), (0, 3)],
        vec![(0, 0), (0, 1), (1, 0), (1, 1)],
        vec![(0, 0), (0, 1), (0, 2), (1, 1)],
        vec![(0, 0), (1, 0), (2, 0), (2, 1)],
        vec![(0, 0), (0, 1), (1, 1), (1, 2)],
    ];
    let cases: Vec<(usize, usize, Vec<Shape>)> = vec![
        (2, 9, vec![l3.clone()]),
        (3, 8, vec![l3.clone()]),
        (4, 6, vec![l3.clone()]),
        (3, 10, vec![l3.clone(), i3.clone()]),
        (5, 6, vec![l3, i3]),
        (4, 8, tetrominoes.clone()),
        (4, 5, tetrominoes),
    ];
    for (m, n, shapes) in cases {
        let want = transfer_count(m, n, &shapes);
        assert!(want > BigUint::from(1u32), "{m}x{n}: a case with choices");
        assert_eq!(
            checked(&tilings(m, n, &shapes), 1 << 26).to_biguint(),
            want,
            "{m}x{n}"
        );
    }
}

#[test]
fn known_domino_counts() {
    // OEIS A099390 / A004003
    for (m, n, want) in [
        (8, 8, "12988816"),
        (10, 10, "258584046368"),
        (12, 12, "53060477521960000"),
        (16, 16, "2444888770250892795802079170816"),
    ] {
        let r = memo::count(&tilings(m, n, &domino()), &MemoOptions::default()).unwrap();
        assert!(r.complete);
        assert_eq!(r.count.to_string(), want, "{m}x{n}");
    }
}

/// The 2 x n strip has Fibonacci(n + 1) domino tilings: beyond 128 bits
/// for n = 200, counted exactly, also through a cache that evicts.
#[test]
fn counts_beyond_128_bits_are_exact() {
    let n = 200;
    let (mut a, mut b) = (BigUint::from(1u32), BigUint::from(1u32));
    for _ in 0..n {
        let c = &a + &b;
        a = b;
        b = c;
    }
    // a = Fibonacci(n + 1)
    assert!(a.bits() > 128);
    let p = tilings(2, n, &domino());
    assert_eq!(checked(&p, 1 << 26).to_biguint(), a);
    assert_eq!(checked(&p, 0).to_biguint(), a);
}

/// A small xorshift generator of 64-bit words.
fn words(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed | 1;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// Solutions with their options sorted, in order: to compare sets of them.
fn sorted_solutions(mut all: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    for s in &mut all {
        s.sort_unstable();
    }
    all.sort();
    all
}

/// Every solution a ZDD holds, each verified, as [`sorted_solutions`].
fn zdd_solutions(p: &Problem, z: &Zdd) -> Vec<Vec<usize>> {
    let mut got = Vec::new();
    z.for_each::<()>(|s| {
        verify(p, s).unwrap();
        got.push(s.to_vec());
        ControlFlow::Continue(())
    })
    .unwrap();
    sorted_solutions(got)
}

/// The ZDD the counter writes, read back.
fn zdd_of(p: &Problem, memory: usize) -> (Count, Zdd, Vec<u8>) {
    let mut text = Vec::new();
    let r = memo::count_to_zdd(
        p,
        &MemoOptions {
            memory,
            check: true,
            ..Default::default()
        },
        &mut text,
    )
    .unwrap();
    assert!(r.complete);
    let z = Zdd::parse(&text).unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&text)));
    (r.count, z, text)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The ZDD holds exactly the solutions brute force finds, each once
    /// and each verified; its count is the counter's; random draws are
    /// solutions. With a cache that evicts, too (the ZDD then repeats
    /// nodes but holds the same solutions).
    #[test]
    fn zdds_hold_exactly_the_solutions(spec in spec_strategy(14, 3), seed in any::<u64>()) {
        let p = spec.build();
        let want = sorted_solutions(spec.brute_force());
        for memory in [1 << 30, 0] {
            let (count, z, _) = zdd_of(&p, memory);
            prop_assert_eq!(&count, &Count::from(want.len() as u64));
            prop_assert_eq!(&z.count(u64::MAX, None).unwrap(), &count);
            prop_assert_eq!(&zdd_solutions(&p, &z), &want);
            let z = z.counted(u64::MAX, None).unwrap();
            let mut next = words(seed);
            for _ in 0..4 {
                match z.sample(&mut next).unwrap() {
                    Some(s) => {
                        verify(&p, &s).unwrap();
                        let mut s = s.to_vec();
                        s.sort_unstable();
                        prop_assert!(want.contains(&s));
                    }
                    None => prop_assert!(want.is_empty()),
                }
            }
        }
    }
}

/// Random tilings of the 4 x 4 board by dominoes (36 of them), drawn from
/// the ZDD: each verified, and the frequencies pass a chi-square test of
/// uniformity (35 degrees of freedom; 66.6 is the 0.1% critical value, so
/// a fair sampler with this fixed seed passes, and a sampler off by even a
/// few percent on one tiling would not over 36,000 draws).
#[test]
fn random_tilings_are_uniform() {
    let p = tilings(4, 4, &domino());
    let (count, z, _) = zdd_of(&p, 1 << 30);
    assert_eq!(count, Count::from(36u64));
    let z = z.counted(u64::MAX, None).unwrap();
    let mut freq: HashMap<Vec<usize>, u64> = HashMap::new();
    let mut next = words(2026);
    let draws = 36_000u64;
    for _ in 0..draws {
        let mut s = z.sample(&mut next).unwrap().unwrap();
        verify(&p, &s).unwrap();
        s.sort_unstable();
        *freq.entry(s).or_default() += 1;
    }
    assert_eq!(freq.len(), 36, "every tiling drawn");
    let expected = draws as f64 / 36.0;
    let chi2: f64 = freq
        .values()
        .map(|&o| (o as f64 - expected).powi(2) / expected)
        .sum();
    assert!(
        chi2 < 66.6,
        "chi-square {chi2:.1} over 35 degrees of freedom"
    );
    // and numbering solutions gives each exactly once
    let mut all: Vec<Vec<usize>> = (0..36u64)
        .map(|r| {
            let mut s = z.solution(&Count::from(r)).unwrap().unwrap();
            s.sort_unstable();
            s
        })
        .collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 36);
}

/// The 16 x 16 domino ZDD: its count read back is the exact count.
#[test]
fn the_16x16_zdd_counts_back() {
    let p = tilings(16, 16, &domino());
    let (count, z, _) = zdd_of(&p, 1 << 30);
    assert_eq!(count.to_string(), "2444888770250892795802079170816");
    assert_eq!(z.count(u64::MAX, None).unwrap(), count);
    let z = z.counted(u64::MAX, None).unwrap();
    let s = z.sample(words(5)).unwrap().unwrap();
    verify(&p, &s).unwrap();
    assert_eq!(s.len(), 128);
}

fn part_count(p: &Problem, part: Option<(usize, usize)>, memory: usize) -> memo::MemoOutcome {
    let r = memo::count(
        p,
        &MemoOptions {
            memory,
            check: true,
            part,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(r.complete);
    r
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The parts of a count (any number of them) add up to the whole,
    /// multiplicities and colours included, and every part splits alike.
    #[test]
    fn parts_add_up_to_the_whole(spec in spec_with_bounds(12, 2), n in 1usize..=6) {
        let p = spec.build();
        let whole = checked(&p, 1 << 30);
        let mut sum = Count::ZERO;
        let mut split = None;
        for k in 1..=n {
            let r = part_count(&p, Some((k, n)), if k % 2 == 0 { 0 } else { 1 << 30 });
            prop_assert!(split.is_none() || split == r.split, "{:?} {:?}", split, r.split);
            split = r.split;
            sum += &r.count;
        }
        prop_assert_eq!(sum, whole);
    }
}

/// A board counted in 5 parts gives the known count, beyond 128 bits (the
/// parts' records are `dancer-runs`' to save and merge: its tests).
#[test]
fn parts_of_a_big_count() {
    let p = tilings(2, 200, &domino());
    let whole = checked(&p, 1 << 26);
    let mut sum = Count::ZERO;
    for k in 1..=5 {
        sum += &part_count(&p, Some((k, 5)), 1 << 26).count;
    }
    assert_eq!(sum, whole);
    assert!(whole.bits() > 128);
    let board = tilings(12, 12, &domino());
    let mut sum = Count::ZERO;
    for k in 1..=16 {
        sum += &part_count(&board, Some((k, 16)), 1 << 26).count;
    }
    assert_eq!(sum.to_string(), "53060477521960000");
}

/// Counts the shared DLX file `name` with memos (a cache of `memory`
/// bytes), or says why not (`shared/` absent: skipped, with a message).
fn shared_count(name: &str, memory: usize) -> Option<Count> {
    let path = dancer_testdata::shared_file("dlx", name)?;
    let text = std::fs::read_to_string(&path).unwrap();
    let p = dancer_formats::dlx::read_str(&text, name).unwrap().problem;
    let r = memo::count(
        &p,
        &MemoOptions {
            memory,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(r.complete);
    Some(r.count)
}

/// The shared DLX file `name` (where there) counts `want` with memos (a
/// cache of `memory` bytes).
fn counts_as_the_engines(name: &str, want: u64, memory: usize) {
    if let Some(c) = shared_count(name, memory) {
        assert_eq!(c, Count::from(want), "{name}");
    }
}

/// The shared DLX files give the counts the engines give (and Knuth's
/// programs: `shared/README.md`), colours and secondary items included,
/// with a cache small enough to evict on the larger ones.
#[test]
fn shared_files_count_as_the_engines() {
    for (name, want) in [
        ("toy.dlx", 1u64),
        ("toycolor.dlx", 1),
        ("queens-8.dlx", 92),
        ("queens-10.dlx", 724),
        ("queens-12.dlx", 14_200),
        ("langford-11.dlx", 35_584),
        ("langford-11-sym.dlx", 17_792),
    ] {
        counts_as_the_engines(name, want, 16 << 20);
    }
}

/// The larger shared files (seconds and hundreds of MB each): left to
/// `cargo test --release -- --ignored`, as the other 6x10 tests.
#[test]
#[ignore]
fn large_shared_files_count_as_the_engines() {
    for (name, want) in [
        ("queens-13.dlx", 73_712u64),
        ("pent-6x10-sym.dlx", 2_339),
        ("pent-6x10.dlx", 9_356),
        ("sudoku-inkala.dlx", 1),
    ] {
        counts_as_the_engines(name, want, 4 << 30);
    }
}

#[test]
fn a_part_that_is_not_one_is_refused() {
    let p = tilings(2, 4, &domino());
    for part in [(0, 3), (4, 3), (1, 0)] {
        let r = memo::count(
            &p,
            &MemoOptions {
                part: Some(part),
                ..Default::default()
            },
        );
        assert_eq!(
            r,
            Err(memo::MemoError::Part {
                k: part.0,
                n: part.1
            })
        );
    }
}
