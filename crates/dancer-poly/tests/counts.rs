//! Counts of polyform puzzles: the catalogue's known answers, the two ways
//! of counting up to symmetry against each other, both engines, and an
//! independent brute-force counter for piece counts.

use dancer_core::{EngineError, EngineKind};
use dancer_poly::geometry::{orientations, Cell};
use dancer_poly::model::{Model, Options};
use dancer_poly::{catalog, Board, Copies, Piece, PolyPuzzle};

fn run(m: &Model, engine: EngineKind, breaking: bool) -> (u64, u64) {
    let opts = Options {
        engine,
        symmetry_breaking: breaking,
        ..Default::default()
    };
    let mut seen = 0u64;
    let c = m
        .solve(&opts, |sol| {
            // every solution reported is an exact tiling
            let mut covered = vec![0u32; m.puzzle.board.len()];
            for &q in sol {
                for &cell in &m.placements[q].cells {
                    covered[cell] += 1;
                }
            }
            assert!(covered.iter().all(|&k| k == 1), "not a tiling");
            seen += 1;
            true
        })
        .unwrap();
    assert!(c.complete);
    assert_eq!(seen, c.total, "every solution is reported once");
    (c.total, c.unique)
}

/// Every way agrees: every engine that takes the puzzle's problem, with and
/// without symmetry breaking. An engine that cannot take it (pieces used
/// several times make multiplicities, which only dlxm takes) refuses with
/// a typed error, and is counted out, not replaced.
fn all_ways(m: &Model) -> (u64, u64) {
    let mut first: Option<((u64, u64), String)> = None;
    let mut ran = 0;
    for &engine in EngineKind::ALL {
        for breaking in [true, false] {
            let cover = m.cover(breaking);
            if engine.check(&cover.problem).is_err() {
                let opts = Options {
                    engine,
                    symmetry_breaking: breaking,
                    ..Default::default()
                };
                let refused = m.solve(&opts, |_| true).unwrap_err();
                assert!(
                    matches!(refused, EngineError::Unsupported { .. }),
                    "{}: {engine}: {refused}",
                    m.puzzle.name
                );
                continue;
            }
            let r = run(m, engine, breaking);
            let way = format!("{engine}, symmetry breaking {breaking}");
            match &first {
                None => first = Some((r, way)),
                Some((a, w)) => assert_eq!(r, *a, "{}: {way} against {w}", m.puzzle.name),
            }
            ran += 1;
        }
    }
    // dlxm and bitmrv take everything; without copies of pieces every
    // engine does
    let all = !m.cover(true).problem.has_multiplicities();
    assert_eq!(ran, if all { 8 } else { 4 }, "{}: ways", m.puzzle.name);
    first.expect("ways ran").0
}

#[test]
fn catalogue_quick_ones() {
    for name in [
        "pentomino-3x20",
        "pentomino-4x15",
        "scott",
        "soma",
        "corner",
        "tetromino-4x5",
    ] {
        let k = &catalog::entry(name).unwrap().known;
        let m = Model::new(catalog::puzzle(name).unwrap()).unwrap();
        assert_eq!(all_ways(&m), (k.total.unwrap(), k.unique), "{name}");
    }
}

#[test]
fn catalogue_bigger_ones() {
    for name in ["pentomino-6x10", "pentomino-5x12"] {
        let k = &catalog::entry(name).unwrap().known;
        let m = Model::new(catalog::puzzle(name).unwrap()).unwrap();
        assert_eq!(
            run(&m, EngineKind::Bitset, true),
            (k.total.unwrap(), k.unique),
            "{name}"
        );
    }
    // the engine auto picks for it (its cover has no multiplicities: 25
    // copies of one piece need no piece item)
    let m = Model::new(catalog::puzzle("npent-5x5x5").unwrap()).unwrap();
    assert_eq!(
        EngineKind::Auto.resolve(&m.cover(true).problem),
        Ok(EngineKind::BitMrv)
    );
    assert_eq!(run(&m, EngineKind::BitMrv, true), (192, 4));
}

/// The Y cube: about 10 s. `cargo test --release -p dancer-poly -- --ignored`.
#[test]
#[ignore]
fn catalogue_ypent() {
    let m = Model::new(catalog::puzzle("ypent-5x5x5").unwrap()).unwrap();
    assert_eq!(run(&m, EngineKind::Dlx, true), (60672, 1264));
}

#[test]
fn symmetry_groups() {
    let size = |name: &str| {
        Model::new(catalog::puzzle(name).unwrap())
            .unwrap()
            .symmetries
            .len()
    };
    assert_eq!(size("pentomino-6x10"), 4);
    assert_eq!(size("scott"), 8);
    assert_eq!(size("soma"), 48); // reflections swap the mirror pieces A and B
    assert_eq!(size("npent-5x5x5"), 48);
    assert_eq!(size("corner"), 2);
}

// ----- an independent brute-force counter -----

/// Counts tilings by filling the first empty cell (in (z, y, x) order) with
/// every orientation of every piece that still may be used, the piece's own
/// first cell on it; at the end, checks the counts. Each tiling (a set of
/// placements, identical pieces not told apart) is found once.
fn brute(p: &PolyPuzzle) -> u64 {
    brute_tilings(p).len() as u64
}

/// The number of classes of tilings under the board's symmetries (all
/// pieces free, so a symmetry only moves cells).
fn brute_unique(p: &PolyPuzzle) -> u64 {
    let syms = p.board.symmetries();
    let mut classes = std::collections::BTreeSet::new();
    for t in brute_tilings(p) {
        let mut best: Option<Vec<(usize, Vec<usize>)>> = None;
        for (_, perm) in &syms {
            let mut img: Vec<(usize, Vec<usize>)> = t
                .iter()
                .map(|(pi, cells)| {
                    let mut c: Vec<usize> = cells.iter().map(|&x| perm[x]).collect();
                    c.sort();
                    (*pi, c)
                })
                .collect();
            img.sort();
            if best.as_ref().is_none_or(|b| img < *b) {
                best = Some(img);
            }
        }
        classes.insert(best.unwrap());
    }
    classes.len() as u64
}

fn brute_tilings(p: &PolyPuzzle) -> Vec<Vec<(usize, Vec<usize>)>> {
    let cells: Vec<Cell> = p.board.cells.clone();
    let orients: Vec<Vec<Vec<Cell>>> = p
        .pieces
        .iter()
        .map(|pc| {
            // the square and cubic grids' own symmetries, independent of
            // the grid module the model uses
            let group: Vec<_> = dancer_poly::geometry::symmetries(p.board.dim)
                .into_iter()
                .filter(|t| !pc.one_sided || t.is_rotation())
                .collect();
            orientations(&pc.cells, &group)
        })
        .collect();
    let mut filled = vec![false; cells.len()];
    let mut used = vec![0u32; p.pieces.len()];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    #[allow(clippy::too_many_arguments)]
    fn rec(
        p: &PolyPuzzle,
        orients: &[Vec<Vec<Cell>>],
        cells: &[Cell],
        filled: &mut Vec<bool>,
        used: &mut Vec<u32>,
        stack: &mut Vec<(usize, Vec<usize>)>,
        out: &mut Vec<Vec<(usize, Vec<usize>)>>,
    ) {
        let Some(first) = filled.iter().position(|&f| !f) else {
            let ok = p
                .pieces
                .iter()
                .zip(used.iter())
                .all(|(pc, &u)| match pc.count {
                    Copies::Exactly(k) => u == k,
                    Copies::Between(a, b) => a <= u && u <= b,
                    Copies::Any => true,
                });
            if ok {
                out.push(stack.clone());
            }
            return;
        };
        let at = cells[first];
        for (pi, pc) in p.pieces.iter().enumerate() {
            let cap = match pc.count {
                Copies::Exactly(k) => k,
                Copies::Between(_, b) => b,
                Copies::Any => u32::MAX,
            };
            if used[pi] >= cap {
                continue;
            }
            for o in &orients[pi] {
                // the orientation's first cell in (z, y, x) order goes on `at`
                let lead = *o.iter().min_by_key(|c| (c[2], c[1], c[0])).unwrap();
                let shift = [at[0] - lead[0], at[1] - lead[1], at[2] - lead[2]];
                let idx: Option<Vec<usize>> = o
                    .iter()
                    .map(|c| {
                        p.board
                            .index(&[c[0] + shift[0], c[1] + shift[1], c[2] + shift[2]])
                    })
                    .collect();
                let Some(idx) = idx else { continue };
                if idx.iter().any(|&i| filled[i]) {
                    continue;
                }
                for &i in &idx {
                    filled[i] = true;
                }
                used[pi] += 1;
                let mut sorted = idx.clone();
                sorted.sort();
                stack.push((pi, sorted));
                rec(p, orients, cells, filled, used, stack, out);
                stack.pop();
                used[pi] -= 1;
                for &i in &idx {
                    filled[i] = false;
                }
            }
        }
    }
    rec(
        p,
        &orients,
        &cells,
        &mut filled,
        &mut used,
        &mut stack,
        &mut out,
    );
    out
}

fn piece(name: &str, rows: &[&str], count: Copies) -> Piece {
    Piece::new(name, &dancer_poly::pieces::picture(rows), count)
}

#[test]
fn copies_ranges_and_any_against_brute_force() {
    let l = |c| piece("L", &["###", "#.."], c);
    let t = |c| piece("T", &["###", ".#."], c);
    let o = |c| piece("O", &["##", "##"], c);
    let i = |c| piece("I", &["####"], c);
    let d = |c| piece("D", &["##"], c);
    let v = |c| piece("V", &["##", "#."], c);
    let x = Copies::Exactly;
    let puzzles = vec![
        (
            "2L 2T O in 5x4",
            Board::rect(5, 4),
            vec![l(x(2)), t(x(2)), o(x(1))],
        ),
        (
            "2L 2I 2O in 6x4",
            Board::rect(6, 4),
            vec![l(x(2)), i(x(2)), o(x(2))],
        ),
        ("4L in 4x4", Board::rect(4, 4), vec![l(x(4))]),
        (
            "dominoes and V, ranges, 3x4",
            Board::rect(4, 3),
            vec![d(Copies::Between(0, 6)), v(Copies::Between(0, 4))],
        ),
        (
            "dominoes and V, any, 2x6",
            Board::rect(6, 2),
            vec![d(Copies::Any), v(Copies::Any)],
        ),
        (
            "V 2..3 and D 0..3, 3x4 with a hole",
            Board::rect(4, 3).without(&[[0, 0, 0]]),
            vec![v(Copies::Between(2, 3)), d(Copies::Between(0, 3))],
        ),
    ];
    for (name, board, pieces) in puzzles {
        let p = PolyPuzzle::new(name, board, pieces);
        let expect = brute(&p);
        let expect_unique = brute_unique(&p);
        let m = Model::new(p).unwrap();
        let (total, unique) = all_ways(&m);
        assert_eq!(total, expect, "{name}");
        assert_eq!(unique, expect_unique, "{name}: unique");
        assert!(
            unique <= total && unique > 0,
            "{name}: the test needs puzzles with solutions"
        );
        eprintln!("{name}: {total} total, {unique} unique");
    }
}

#[test]
fn solids_against_brute_force() {
    let tri = |c| Piece::new("L3", &[[0, 0, 0], [1, 0, 0], [0, 1, 0]], c);
    let bar = |c| Piece::new("I2", &[[0, 0, 0], [0, 0, 1]], c);
    let p = PolyPuzzle::new(
        "2x2x3",
        Board::cuboid(2, 2, 3),
        vec![tri(Copies::Between(0, 4)), bar(Copies::Any)],
    );
    let expect = brute(&p);
    let m = Model::new(p).unwrap();
    assert_eq!(all_ways(&m).0, expect);
    assert!(expect > 0);
}

#[test]
fn errors_before_searching() {
    // a piece that fits nowhere
    let pieces = vec![
        piece("I", &["#####"], Copies::Exactly(1)),
        piece("O", &["#"], Copies::Any),
    ];
    let p = PolyPuzzle::new("t", Board::rect(3, 3), pieces);
    // made in code: no place to say
    assert!(matches!(
        Model::new(p),
        Err(dancer_poly::PolyError::FitsNowhere { piece, at: None }) if piece == "I"
    ));
    // areas that cannot add up
    let p = PolyPuzzle::new(
        "t",
        Board::rect(3, 3),
        vec![piece("D", &["##"], Copies::Any)],
    );
    assert!(matches!(
        Model::new(p),
        Err(dancer_poly::PolyError::Area { area: 9, .. })
    ));
}

/// Every solution emitted, in order, with the counts.
fn emitted(m: &Model, opts: &Options) -> (Vec<Vec<usize>>, dancer_poly::model::Counts) {
    let mut sols = Vec::new();
    let c = m
        .solve(opts, |sol| {
            sols.push(sol.to_vec());
            true
        })
        .unwrap();
    (sols, c)
}

/// Threads change nothing: the same solutions in the same order, the same
/// counts and nodes, with and without symmetry breaking, unique or not, and
/// the limit stops at the same solution.
#[test]
fn threads_give_the_same_solutions_in_the_same_order() {
    for name in ["scott", "soma", "pentomino-5x12", "corner"] {
        let m = Model::new(catalog::puzzle(name).unwrap()).unwrap();
        for (breaking, unique, limit) in [
            (true, false, None),
            (false, false, None),
            (true, true, None),
            (true, false, Some(7)),
            (false, true, Some(3)),
        ] {
            let base = Options {
                engine: if m.puzzle.board.dim == 2 {
                    EngineKind::Bitset
                } else {
                    EngineKind::Dlx
                },
                symmetry_breaking: breaking,
                unique,
                limit,
                ..Default::default()
            };
            let (one, c1) = emitted(&m, &base);
            assert!(!one.is_empty());
            for threads in [2, 3] {
                let (many, cn) = emitted(
                    &m,
                    &Options {
                        threads,
                        ..base.clone()
                    },
                );
                let what = format!("{name}, {threads} threads, {breaking} {unique} {limit:?}");
                assert_eq!(many, one, "{what}: other solutions or order");
                assert_eq!(
                    (cn.total, cn.unique, cn.complete),
                    (c1.total, c1.unique, c1.complete),
                    "{what}"
                );
                if limit.is_none() {
                    assert_eq!(cn.nodes, c1.nodes, "{what}: nodes");
                }
            }
        }
    }
}
