//! BurrTools files: the examples' problems give BurrTools' counts, files
//! read back to what was written, and bad files are errors at their line.
//!
//! The files under `tests/burr/` hold the designs of BurrTools' example
//! files (`examples/*.xmpuzzle` of burr-tools/burr-tools), re-written by
//! dancer's own writer (shapes, problems, names, colours and groups; no
//! comments, no stored solutions): `write_fixtures` below made them, with
//! `DANCER_BURRTOOLS_EXAMPLES` naming a folder of BurrTools' files.

use dancer_poly::burr::{self, BurrFile};
use dancer_poly::model::{Model, Options};
use std::collections::HashMap;
use std::path::Path;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/burr");

fn fixture(name: &str) -> BurrFile {
    let path = Path::new(FIXTURES).join(format!("{name}.xmpuzzle"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    burr::read(&bytes, name).unwrap()
}

/// The unique count (assemblies as BurrTools counts them) and the total,
/// every solution checked by the core's verifier.
fn count(file: &BurrFile, problem: usize) -> (u64, u64) {
    let m = Model::new(file.puzzle(problem).unwrap()).unwrap();
    let cover = m.cover(false);
    let option_of: HashMap<usize, usize> = (cover.options.iter().enumerate())
        .map(|(o, &(q, _))| (q as usize, o))
        .collect();
    let opts = Options {
        unique: true,
        threads: 2,
        ..Options::default()
    };
    let counts = m
        .solve(&opts, |sol| {
            let options: Vec<usize> = sol.iter().map(|q| option_of[q]).collect();
            dancer_core::verify(&cover.problem, &options).expect("a solution");
            true
        })
        .unwrap();
    assert!(counts.complete);
    (counts.unique, counts.total)
}

/// Assemblies as BurrTools HEAD (b72a71d) counts them, `burrTxt` without
/// options (rotations and mirror images removed as its rule says), on
/// every problem of every example file (BrokenSticks' second, whose piece
/// fits nowhere, is refused by both), and the count the file stores where
/// it differs.
const ASSEMBLIES: &[(&str, usize, u64)] = &[
    ("AlPackino", 0, 1),
    ("BallRoom", 0, 2),
    ("BallRoom", 1, 1),
    ("BallRoom", 2, 3),
    ("Bermuda", 0, 1),
    ("CubeInCage", 0, 96),
    ("DraculasDentalDesaster", 0, 84),
    ("PelikanBurr", 0, 12),
    ("Prisgon", 0, 1),
    ("Prisgon", 1, 1),
    // the file stores 1063, found with mirror images kept
    ("SolidSixPieceBurrs", 0, 588),
    // rhombic dodecahedra (grid 3) and tetrahedra-octahedra (grid 4)
    ("12PieceSeparation", 0, 1),
    ("AugmentedSecondStellation", 0, 2),
    ("BrokenSticks", 0, 2),
    ("DiagonalCube", 0, 2),
    ("FourPieceTetrahedron", 0, 1),
    ("HexSticks", 0, 33),
    ("PermutatedThirdStellation", 0, 2),
    ("PiecesOfEight", 0, 6),
    ("PiecesOfEight", 1, 4),
    ("PiecesOfEight", 2, 43),
    ("PiecesOfEight", 3, 12),
    ("PiecesOfEight", 4, 20),
    ("PiecesOfEight", 5, 12),
];

#[test]
fn the_examples_give_burrtools_counts() {
    for &(name, problem, want) in ASSEMBLIES {
        let f = fixture(name);
        let (unique, total) = count(&f, problem);
        eprintln!(
            "{name} problem {}: {unique} assemblies ({total} in all)",
            problem + 1
        );
        assert_eq!(unique, want, "{name} problem {}", problem + 1);
    }
}

/// Written and read back: the same file, and the same puzzles.
#[test]
fn files_read_back_to_what_was_written() {
    for name in [
        "AlPackino",
        "BallRoom",
        "Bermuda",
        "CubeInCage",
        "DemoMirrorParadox",
        "DraculasDentalDesaster",
        "FourPieceTetrahedron",
        "PiecesOfEight",
        "Prisgon",
    ] {
        let f = fixture(name);
        let again = burr::read(&burr::write(&f), name).unwrap();
        assert_eq!(again.grid, f.grid);
        assert_eq!(again.colours, f.colours);
        assert_eq!(again.shapes.len(), f.shapes.len());
        for (a, b) in again.shapes.iter().zip(&f.shapes) {
            assert_eq!(
                (&a.name, a.size, &a.voxels, a.weight),
                (&b.name, b.size, &b.voxels, b.weight)
            );
        }
        assert_eq!(again.problems.len(), f.problems.len());
        for (i, (a, b)) in again.problems.iter().zip(&f.problems).enumerate() {
            assert_eq!(
                (&a.name, a.result, a.max_holes, &a.colour_pairs),
                (&b.name, b.result, b.max_holes, &b.colour_pairs)
            );
            let parts = |p: &burr::BurrProblem| -> Vec<_> {
                p.parts
                    .iter()
                    .map(|q| (q.shape, q.min, q.max, q.groups.clone()))
                    .collect()
            };
            assert_eq!(parts(a), parts(b));
            assert_eq!(
                again.puzzle(i).unwrap(),
                f.puzzle(i).unwrap(),
                "{name} problem {}",
                i + 1
            );
        }
    }
}

/// A dancer puzzle written as a BurrTools file reads back to the same
/// puzzle (up to the names of board and pieces' places) with the same
/// count.
#[test]
fn dancer_puzzles_move_both_ways() {
    for name in [
        "soma",
        "tetracube-2x4x4",
        "ballroom-pyramid",
        "ballroom-cube",
        "bermuda",
        "diabolical-cube",
    ] {
        let p = dancer_poly::catalog::puzzle(name).unwrap();
        let file = burr::from_puzzle(&p);
        let file = match file {
            Ok(f) => f,
            Err(e) => panic!("{name}: {}", e.message()),
        };
        let back = burr::read(&burr::write(&file), name)
            .unwrap()
            .puzzle(0)
            .unwrap();
        let grid = p.grid();
        let norm = |cells: &[dancer_poly::grid::Cell]| grid.normalize(cells);
        assert_eq!(norm(&back.board.cells), norm(&p.board.cells), "{name}");
        assert_eq!(back.pieces.len(), p.pieces.len());
        for (a, b) in back.pieces.iter().zip(&p.pieces) {
            assert_eq!(a.name, b.name);
            assert_eq!(a.count, b.count);
            let group = grid.rotations();
            assert_eq!(
                grid.canonical_under(&a.cells, &group),
                grid.canonical_under(&b.cells, &group),
                "{name} {}",
                a.name
            );
        }
        let solve = |p| {
            let m = Model::new(p).unwrap();
            m.solve(
                &Options {
                    unique: true,
                    threads: 2,
                    ..Options::default()
                },
                |_| true,
            )
            .unwrap()
        };
        // BurrTools' files cannot say "up to rotations only"
        let all = p.unique_under == dancer_poly::puzzle::UniqueUnder::All;
        let (a, b) = (solve(back), solve(p));
        assert_eq!(a.total, b.total, "{name}");
        assert!(
            !all || a.unique == b.unique,
            "{name}: {} against {}",
            a.unique,
            b.unique
        );
    }
}

/// Makes the fixtures from BurrTools' own example files:
/// `DANCER_BURRTOOLS_EXAMPLES=DIR cargo test -p dancer-poly --test burr -- --ignored write_fixtures`.
#[test]
#[ignore]
fn write_fixtures() {
    let Ok(dir) = std::env::var("DANCER_BURRTOOLS_EXAMPLES") else {
        eprintln!("skipped: DANCER_BURRTOOLS_EXAMPLES names no folder");
        return;
    };
    for name in [
        "12PieceSeparation",
        "AlPackino",
        "AugmentedSecondStellation",
        "BallRoom",
        "Bermuda",
        "BrokenSticks",
        "CubeInCage",
        "DemoMirrorParadox",
        "DemoPieceGenerator",
        "DiagonalCube",
        "DraculasDentalDesaster",
        "FourPieceTetrahedron",
        "HexSticks",
        "PelikanBurr",
        "PermutatedThirdStellation",
        "PiecesOfEight",
        "Prisgon",
        "SolidSixPieceBurrs",
    ] {
        let bytes = std::fs::read(Path::new(&dir).join(format!("{name}.xmpuzzle"))).unwrap();
        let mut f = burr::read(&bytes, name).unwrap();
        f.comment = None;
        std::fs::write(
            Path::new(FIXTURES).join(format!("{name}.xmpuzzle")),
            burr::write(&f),
        )
        .unwrap();
    }
}

/// Levels of the assemblies that come apart, as BurrTools' `burrTxt -d`
/// prints them (HEAD b72a71d), and how many come apart.
const DISASSEMBLIES: &[(&str, usize, u64, &[&str])] = &[
    ("AlPackino", 0, 1, &["1.1.1.1.1.2.1.3.1.2.1.2"]),
    ("Bermuda", 0, 1, &["1"]),
    ("CubeInCage", 0, 1, &["4.9.3"]),
    ("DemoMirrorParadox", 0, 1, &["1"]),
    ("DemoMirrorParadox", 1, 1, &["1"]),
    ("DemoPieceGenerator", 0, 927, &[]),
    ("DraculasDentalDesaster", 0, 1, &["3.5.16.6.4"]),
    ("PelikanBurr", 0, 1, &["98.2.4.2"]),
    ("Prisgon", 0, 1, &["9.6.4.2.2.2.1.2"]),
    ("Prisgon", 1, 1, &["9.5.1.1.2.2.2"]),
    ("SolidSixPieceBurrs", 0, 179, &[]),
];

/// Replays a disassembly's moves on the solution's cells, one cell of a
/// slide at a time: no two pieces of one part ever overlap, a removal
/// leaves nothing of the rest in its way, and at the end every part is one
/// piece or one group.
fn replay(m: &Model, sol: &[usize], d: &dancer_formats::ndjson::DisassemblyRecord, groups: &[u32]) {
    let grid = m.puzzle.grid();
    let board = &m.puzzle.board;
    let mut at: Vec<Vec<dancer_poly::grid::Cell>> = sol
        .iter()
        .map(|&q| {
            m.placements[q]
                .cells
                .iter()
                .map(|&c| board.cells[c])
                .collect()
        })
        .collect();
    let mut part = vec![0usize; sol.len()];
    let mut parts = 1;
    let gcd = |a: i32, b: i32| {
        let (mut a, mut b) = (a.abs(), b.abs());
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    for (k, s) in d.steps.iter().enumerate() {
        let n = s.by.iter().fold(0, |g, &v| gcd(g, v));
        let unit = [0, 1, 2].map(|i| s.by[i] / n);
        let here = part[s.pieces[0]];
        assert!(
            s.pieces.iter().all(|&p| part[p] == here),
            "step {k}: pieces of two parts"
        );
        let still: std::collections::HashSet<_> = (0..sol.len())
            .filter(|p| part[*p] == here && !s.pieces.contains(p))
            .flat_map(|p| at[p].iter().copied())
            .collect();
        // a removal slides on until nothing of the rest can be in its way
        let steps = if s.removes { n + 64 } else { n };
        for _ in 0..steps {
            for &p in &s.pieces {
                at[p] = at[p].iter().map(|&c| grid.translate(c, unit)).collect();
                assert!(
                    at[p].iter().all(|c| !still.contains(c)),
                    "step {k}: piece {p} runs into another"
                );
            }
        }
        if s.removes {
            for &p in &s.pieces {
                part[p] = parts;
            }
            parts += 1;
        }
    }
    for p in 0..parts {
        let members: Vec<usize> = (0..sol.len()).filter(|&q| part[q] == p).collect();
        let one_group = members
            .iter()
            .all(|&q| groups[q] != 0 && groups[q] == groups[members[0]]);
        assert!(
            members.len() <= 1 || one_group,
            "part {members:?} is still together"
        );
    }
    assert_eq!(d.moves, d.steps.len());
}

#[test]
fn the_examples_come_apart_as_in_burrtools() {
    for &(name, problem, apart, levels) in DISASSEMBLIES {
        let f = fixture(name);
        let m = Model::new(f.puzzle(problem).unwrap()).unwrap();
        let mut t = burr::TakeApart::new(&m, Some((&f, problem))).unwrap();
        let (mut found, mut seen) = (0, Vec::new());
        let opts = Options {
            unique: true,
            threads: 1,
            ..Options::default()
        };
        m.solve(&opts, |sol| {
            let a = t.take_apart(&m, sol, None).unwrap();
            if let Some(d) = &a.disassembly {
                found += 1;
                seen.push(d.level());
                // groups of the placed pieces, as the problem gives them
                let types: Vec<usize> = sol.iter().map(|&q| m.placements[q].piece).collect();
                let groups: Vec<u32> = types
                    .iter()
                    .map(|&ty| {
                        f.problems[problem].parts[ty]
                            .groups
                            .first()
                            .map_or(0, |g| g.0)
                    })
                    .collect();
                replay(&m, sol, &t.record(&m, sol, &a), &groups);
            }
            true
        })
        .unwrap();
        assert_eq!(found, apart, "{name} problem {}", problem + 1);
        if !levels.is_empty() {
            assert_eq!(seen, levels, "{name} problem {}", problem + 1);
        }
    }
}

/// A problem of BurrTools' grids 3 and 4 as a dancer puzzle, written back
/// as a file of its own (shapes moved by whole blocks), counts the same.
#[test]
fn rhombic_and_tetra_octa_puzzles_move_both_ways() {
    for (name, problem) in [
        ("PiecesOfEight", 2),
        ("FourPieceTetrahedron", 0),
        ("DiagonalCube", 0),
    ] {
        let p = fixture(name).puzzle(problem).unwrap();
        let again = burr::read(&burr::write(&burr::from_puzzle(&p).unwrap()), name)
            .unwrap()
            .puzzle(0)
            .unwrap();
        let solve = |p| {
            let m = Model::new(p).unwrap();
            m.solve(
                &Options {
                    unique: true,
                    threads: 2,
                    ..Options::default()
                },
                |_| true,
            )
            .unwrap()
        };
        let (a, b) = (solve(again), solve(p));
        assert_eq!((a.unique, a.total), (b.unique, b.total), "{name}");
    }
}
