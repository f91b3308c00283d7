//! Every puzzle of the catalogue reproduces its published count: the
//! solutions up to the symmetries its file names, and all of them when the
//! total is published, each solution checked by the core's verifier
//! against the exact cover problem without symmetry breaking.
//!
//! The puzzles marked `slow` run with `--ignored`:
//! `cargo test -p dancer-poly --test catalogue -- --ignored`.

use dancer_poly::catalog::{self, CatalogEntry};
use dancer_poly::model::{Model, Options};

fn reproduce(e: &CatalogEntry) {
    let m = Model::new(catalog::puzzle(&e.name).unwrap()).unwrap();
    let cover = m.cover(false);
    let option_of: std::collections::HashMap<usize, usize> = cover
        .options
        .iter()
        .enumerate()
        .map(|(o, &(q, _))| (q as usize, o))
        .collect();
    let opts = Options {
        unique: true,
        threads: 2,
        ..Options::default()
    };
    let t = std::time::Instant::now();
    let counts = m
        .solve(&opts, |sol| {
            let options: Vec<usize> = sol.iter().map(|q| option_of[q]).collect();
            dancer_core::verify(&cover.problem, &options).expect("a solution");
            true
        })
        .unwrap();
    eprintln!(
        "{:32} {:>9} unique {:>10} in all, {:>12} nodes, {:.2} s",
        e.name,
        counts.unique,
        counts.total,
        counts.nodes,
        t.elapsed().as_secs_f64()
    );
    assert!(counts.complete, "{}", e.name);
    assert_eq!(
        counts.unique, e.known.unique,
        "{} ({})",
        e.name, e.known.source
    );
    if let Some(total) = e.known.total {
        assert_eq!(counts.total, total, "{}", e.name);
    }
}

#[test]
fn every_count_of_the_catalogue() {
    let quick: Vec<&CatalogEntry> = catalog::entries()
        .iter()
        .filter(|e| !e.known.slow)
        .collect();
    assert!(!quick.is_empty());
    for e in quick {
        reproduce(e);
    }
}

#[test]
#[ignore]
fn the_slow_counts_of_the_catalogue() {
    for e in catalog::entries().iter().filter(|e| e.known.slow) {
        reproduce(e);
    }
}

#[test]
fn at_least_sixty_puzzles_on_every_grid() {
    let entries = catalog::entries();
    assert!(entries.len() >= 60, "{} puzzles", entries.len());
    for grid in dancer_poly::grid::PolyGrid::ALL {
        assert!(
            entries.iter().any(|e| e.grid == grid),
            "no puzzle on the {} grid",
            grid.name()
        );
    }
}

/// The big totals, by the memoized counter (`dancer poly solve --count
/// --memo`): seconds where the search takes minutes. Every puzzle marked
/// `memo` is counted so in every run.
#[test]
fn the_big_totals_by_memos() {
    let mut counted = 0;
    for e in catalog::entries().iter().filter(|e| e.known.memo) {
        let total = e.known.total.expect("a memo count has its total");
        let m = Model::new(catalog::puzzle(&e.name).unwrap()).unwrap();
        let cover = m.cover(false);
        let t = std::time::Instant::now();
        match dancer_core::memo::count(&cover.problem, &dancer_core::memo::MemoOptions::default()) {
            Ok(r) => {
                eprintln!(
                    "{:32} {} in all by memos, {:.2} s",
                    e.name,
                    r.count,
                    t.elapsed().as_secs_f64()
                );
                assert!(r.complete);
                assert_eq!(r.count.to_string(), total.to_string(), "{}", e.name);
                counted += 1;
            }
            Err(err) => panic!("{}: {err}", e.name),
        }
    }
    assert!(counted >= 1, "no big total counted by memos");
}
