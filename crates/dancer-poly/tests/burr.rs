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
/// options (rotations and mirror images removed as its rule says), and the
/// count the file stores where it differs.
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
        "AlPackino",
        "BallRoom",
        "Bermuda",
        "CubeInCage",
        "DemoMirrorParadox",
        "DemoPieceGenerator",
        "DraculasDentalDesaster",
        "PelikanBurr",
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
