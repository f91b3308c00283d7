//! Polyform puzzle files: `dancer_poly::parse(text, "fuzz.toml")` on any
//! text, then the model and the search on small boards.
//!
//! * An error says where in the file (a place inside the text), except a
//!   puzzle too large to build, which has no place.
//! * A puzzle read passes its own check, and its board and pieces have
//!   places in the file.
//! * On a board of at most `MAX_CELLS` cells, `Model::new` either refuses
//!   it with a located error, or finds placements that each cover board
//!   cells in the shape of their piece (some orientation its group allows).
//! * The search, with a limit, with and without symmetry breaking, with
//!   and without `unique`, on `auto`, `dlxm` and `bitset` (which may
//!   refuse with a typed error): every solution reported covers every
//!   board cell exactly once and uses each piece as often as its count
//!   says, none is reported twice, and the counts agree with each other
//!   and with the exact cover problem solved directly (within a budget).
#![no_main]

use dancer_core::{EngineError, EngineKind};
use dancer_fuzz::{check_location, run_engine, MAX_INPUT, MAX_SOLUTIONS};
use dancer_poly::{Copies, Model, Options, PolyError};
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeSet;

/// Boards with more cells than this are read, not searched.
const MAX_CELLS: usize = 40;
/// The limit of every search ...
const LIMIT: u64 = 64;
/// ... but that of `unique` without symmetry breaking, which meets every
/// member of a class (up to 48 for a cube) to report the class once.
const UNIQUE_LIMIT: u64 = 4;
/// `unique` without symmetry breaking is searched only for puzzles of at
/// most this many symmetries (a flat board's 8 at most): on a box (48) it
/// may meet thousands of solutions before the first classes' smallest
/// members, seconds of work per input.
const MAX_UNIQUE_SYMMETRIES: usize = 8;

fn check_error(text: &[u8], e: &PolyError) {
    match e.location() {
        Some(at) => check_location(text, at, "puzzle error"),
        None => assert!(
            matches!(e, PolyError::TooLarge { .. }),
            "an error without a place in the file: {e}"
        ),
    }
}

/// Every placement covers distinct board cells, in its piece's shape.
fn check_placements(m: &Model) {
    let board = &m.puzzle.board;
    for (q, pl) in m.placements.iter().enumerate() {
        let piece = &m.puzzle.pieces[pl.piece];
        assert!(
            pl.cells.windows(2).all(|w| w[0] < w[1]),
            "placement {q}: cells not sorted and distinct: {:?}",
            pl.cells
        );
        assert!(
            pl.cells.iter().all(|&c| c < board.len()),
            "placement {q}: off the board"
        );
        let coords: Vec<_> = pl.cells.iter().map(|&c| board.cells[c]).collect();
        let group = m.puzzle.piece_group(piece);
        let grid = m.puzzle.grid();
        assert_eq!(
            grid.canonical_under(&coords, &group),
            grid.canonical_under(&piece.cells, &group),
            "placement {q} of piece {} is not its shape: {coords:?}",
            piece.name
        );
    }
}

/// A solution covers every board cell once and uses each piece as often
/// as its count allows.
fn check_solution(m: &Model, sol: &[usize]) {
    let board = &m.puzzle.board;
    let mut covered = vec![0u32; board.len()];
    let mut used = vec![0u64; m.puzzle.pieces.len()];
    for &q in sol {
        let pl = m
            .placements
            .get(q)
            .unwrap_or_else(|| panic!("solution {sol:?}: no placement {q}"));
        used[pl.piece] += 1;
        for &c in &pl.cells {
            covered[c] += 1;
        }
    }
    for (c, &k) in covered.iter().enumerate() {
        assert_eq!(
            k, 1,
            "solution {sol:?}: board cell {:?} covered {k} times",
            board.cells[c]
        );
    }
    for (p, &k) in m.puzzle.pieces.iter().zip(&used) {
        let ok = match p.count {
            Copies::Exactly(n) => k == u64::from(n),
            Copies::Between(a, b) => (u64::from(a)..=u64::from(b)).contains(&k),
            Copies::Any => true,
        };
        assert!(
            ok,
            "solution {sol:?}: piece {} used {k} times, count {}",
            p.name, p.count
        );
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let puzzle = match dancer_poly::parse(text, "fuzz.toml") {
        Err(e) => return check_error(data, &e),
        Ok(p) => p,
    };
    assert_eq!(puzzle.check(), Ok(()), "a puzzle read fails its own check");
    let at = puzzle.board_at.as_ref().expect("the board has a place");
    check_location(data, at, "the board");
    for p in &puzzle.pieces {
        check_location(data, p.at.as_ref().expect("a piece has a place"), "a piece");
    }
    if puzzle.board.len() > MAX_CELLS {
        return;
    }
    let m = match Model::new(puzzle) {
        Err(e) => return check_error(data, &e),
        Ok(m) => m,
    };
    check_placements(&m);
    // the exact cover problem, solved directly: every solution of the
    // puzzle, when the tree is small enough
    let cover = m.cover(false);
    let raw = run_engine(&cover.problem, EngineKind::Dlxm).expect("dlxm takes every problem");
    if !raw.complete && (raw.solutions.len() as u64) < MAX_SOLUTIONS {
        return; // a tree too large to search here
    }
    let all: BTreeSet<Vec<usize>> = raw
        .solutions
        .iter()
        .map(|s| {
            let mut v: Vec<usize> = s.iter().map(|&o| cover.options[o].0 as usize).collect();
            v.sort_unstable();
            v
        })
        .collect();
    for s in &all {
        check_solution(&m, s);
    }
    let total = raw.complete.then_some(all.len() as u64);
    let mut uniques = Vec::new();
    for (engine, symmetry_breaking, unique) in [
        (EngineKind::Auto, false, false),
        (EngineKind::Auto, true, false),
        (EngineKind::Auto, false, true),
        (EngineKind::Dlxm, true, true),
        (EngineKind::Bitset, true, false),
        (EngineKind::BitMrv, true, false),
    ] {
        if unique && !symmetry_breaking && m.symmetries.len() > MAX_UNIQUE_SYMMETRIES {
            // it meets thousands of solutions per class reported on a cube
            continue;
        }
        let what = format!("{engine}, symmetry breaking {symmetry_breaking}, unique {unique}");
        let limit = if unique && !symmetry_breaking {
            UNIQUE_LIMIT
        } else {
            LIMIT
        };
        let opts = Options {
            engine,
            symmetry_breaking,
            limit: Some(limit),
            unique,
            ..Options::default()
        };
        let mut found: Vec<Vec<usize>> = Vec::new();
        let counts = match m.solve(&opts, |sol| {
            check_solution(&m, sol);
            let mut v = sol.to_vec();
            v.sort_unstable();
            found.push(v);
            true
        }) {
            Ok(c) => c,
            Err(e @ EngineError::Unsupported { .. }) => {
                // the bitset engine refuses multiplicities and large
                // boards, bitmrv boards too large for its tables
                assert!(
                    matches!(engine, EngineKind::Bitset | EngineKind::BitMrv),
                    "{what}: refused: {e}"
                );
                continue;
            }
            Err(e) => panic!("{what}: {e}"),
        };
        let distinct: BTreeSet<&Vec<usize>> = found.iter().collect();
        assert_eq!(
            distinct.len(),
            found.len(),
            "{what}: a solution reported twice"
        );
        if raw.complete {
            for s in &found {
                assert!(
                    all.contains(s),
                    "{what}: {s:?} is not a solution of the cover"
                );
            }
        }
        let reported = if unique { counts.unique } else { counts.total };
        assert_eq!(
            reported,
            found.len() as u64,
            "{what}: counts and reports differ"
        );
        assert!(reported <= limit, "{what}: past the limit");
        match total {
            Some(t) if t < limit || (unique && counts.complete) => {
                assert!(counts.complete, "{what}: incomplete below the limit");
                assert_eq!(
                    counts.total, t,
                    "{what}: another total than the cover's {t}"
                );
                if !unique {
                    let set: BTreeSet<Vec<usize>> = found.into_iter().collect();
                    assert!(set == all, "{what}: other solutions than the cover's");
                }
            }
            _ if !unique => {
                // at least `limit` solutions: exactly `limit` reported
                assert_eq!(counts.total, limit, "{what}: stopped short of the limit");
                assert!(!counts.complete, "{what}: complete at the limit");
            }
            _ => {}
        }
        if counts.complete {
            uniques.push((what, counts.unique));
        }
    }
    if let Some((first, u)) = uniques.first() {
        for (what, v) in &uniques {
            assert_eq!(
                u, v,
                "{first} and {what} disagree on the solutions up to symmetry"
            );
        }
    }
});
