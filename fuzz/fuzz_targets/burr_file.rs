//! BurrTools files: `dancer_poly::burr::read(bytes, "fuzz.xmpuzzle")` on
//! any bytes (plain XML, or gzip when they start with its magic), then
//! each problem as a puzzle, the model and a bounded search.
//!
//! * An error names the file and a line and column from 1 (in the text,
//!   unpacked when gzipped: inside it when the input is plain text).
//! * A file read is written back (`burr::write`) and reads again as the
//!   same shapes and problems, and the same puzzles.
//! * Each problem is a puzzle that passes its own check, or a located
//!   error; a puzzle of at most `MAX_CELLS` cells builds (or is refused
//!   with an error) and each solution of a search with a limit covers
//!   every required cell once and every optional cell at most once, leaves
//!   at most `maxHoles` holes, and uses each piece within its range.
#![no_main]

use dancer_fuzz::check_location;
use dancer_poly::burr;
use dancer_poly::{Copies, Model, Options, PolyError};
use libfuzzer_sys::fuzz_target;

/// Puzzles with more cells than this are read, not searched.
const MAX_CELLS: usize = 40;
const LIMIT: u64 = 32;

fn check_error(data: &[u8], e: &PolyError) {
    match e.location() {
        Some(at) => {
            assert_eq!(at.file, "fuzz.xmpuzzle", "{e:?}");
            assert!(at.line >= 1 && at.col >= 1, "{e:?}");
            if !data.starts_with(&[0x1f, 0x8b]) && std::str::from_utf8(data).is_ok() {
                check_location(data, at, "BurrTools error");
            }
        }
        None => assert!(
            matches!(e, PolyError::TooLarge { .. }),
            "an error without a place: {e:?}"
        ),
    }
}

fn check_solution(m: &Model, sol: &[usize]) {
    let p = &m.puzzle;
    let mut covered = vec![0u32; p.board.len()];
    let mut used = vec![0u64; p.pieces.len()];
    for &q in sol {
        let pl = &m.placements[q];
        used[pl.piece] += 1;
        for &c in &pl.cells {
            covered[c] += 1;
        }
    }
    let marks = p.cell_marks();
    let mut holes = 0;
    for (c, &k) in covered.iter().enumerate() {
        if marks[c].1 {
            assert!(k <= 1, "optional cell covered {k} times");
            holes += usize::from(k == 0);
        } else {
            assert_eq!(k, 1, "cell {:?} covered {k} times", p.board.cells[c]);
        }
    }
    if let Some(h) = p.max_holes {
        assert!(holes <= h as usize, "{holes} holes, at most {h}");
    }
    for (piece, &k) in p.pieces.iter().zip(&used) {
        let ok = match piece.count {
            Copies::Exactly(n) => k == u64::from(n),
            Copies::Between(a, b) => (u64::from(a)..=u64::from(b)).contains(&k),
            Copies::Any => true,
        };
        assert!(
            ok,
            "piece {} used {k} times, count {}",
            piece.name, piece.count
        );
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() > dancer_fuzz::MAX_INPUT {
        return;
    }
    let file = match burr::read(data, "fuzz.xmpuzzle") {
        Err(e) => return check_error(data, &e),
        Ok(f) => f,
    };
    let again = burr::read(&burr::write(&file), "fuzz.xmpuzzle").expect("a written file reads");
    assert_eq!(again.grid, file.grid);
    assert_eq!(again.colours, file.colours);
    assert_eq!(again.shapes.len(), file.shapes.len());
    for (a, b) in again.shapes.iter().zip(&file.shapes) {
        assert_eq!((&a.voxels, a.size, a.weight), (&b.voxels, b.size, b.weight));
    }
    assert_eq!(again.problems.len(), file.problems.len());
    for i in 0..file.problems.len().min(4) {
        let puzzle = match file.puzzle(i) {
            Err(e) => {
                check_error(data, &e);
                assert!(
                    again.puzzle(i).is_err(),
                    "read back, problem {i} is no error"
                );
                continue;
            }
            Ok(p) => p,
        };
        assert_eq!(puzzle.check(), Ok(()));
        let back = again.puzzle(i).expect("read back, the same puzzle");
        assert_eq!(
            (&back.board, &back.optional, &back.colouring),
            (&puzzle.board, &puzzle.optional, &puzzle.colouring)
        );
        if puzzle.board.len() > MAX_CELLS {
            continue;
        }
        let m = match Model::new(puzzle) {
            Err(e) => {
                check_error(data, &e);
                continue;
            }
            Ok(m) => m,
        };
        for unique in [false, true] {
            let opts = Options {
                limit: Some(LIMIT),
                unique,
                ..Options::default()
            };
            let counts = m
                .solve(&opts, |sol| {
                    check_solution(&m, sol);
                    true
                })
                .expect("auto takes every puzzle");
            assert!(counts.unique <= counts.total);
        }
    }
});
