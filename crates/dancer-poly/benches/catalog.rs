//! Criterion benchmarks: the built-in puzzles counted completely (total and
//! unique), single thread, with the engine `dancer poly solve` picks.
//! `cargo bench -p dancer-poly` (the Y cube alone takes a few minutes).

use criterion::{criterion_group, criterion_main, Criterion};
use dancer_core::EngineKind;
use dancer_poly::catalog;
use dancer_poly::model::{Model, Options};
use std::time::Duration;

fn count(m: &Model, engine: EngineKind) -> (u64, u64, u64) {
    let c = m
        .solve(
            &Options {
                engine,
                ..Default::default()
            },
            |_| true,
        )
        .unwrap();
    (c.total, c.unique, c.nodes)
}

fn bench(c: &mut Criterion) {
    for (name, samples, secs) in [
        ("soma", 20, 5),
        ("scott", 20, 5),
        ("pentomino-6x10", 10, 20),
        ("npent-5x5x5", 10, 30),
        ("ypent-5x5x5", 10, 150),
    ] {
        let m = Model::new(catalog::puzzle(name).unwrap()).unwrap();
        // the engine auto picks for the puzzle's exact cover problem
        let engine = EngineKind::Auto
            .resolve(&m.cover(true).problem)
            .expect("auto takes every problem");
        let (total, unique, nodes) = count(&m, engine);
        let k = &catalog::entry(name).unwrap().known;
        let known = (k.total.unwrap(), k.unique);
        assert_eq!((total, unique), known, "{name}");
        eprintln!("{name} [{engine}]: {total} solutions, {unique} unique, {nodes} nodes");
        let mut g = c.benchmark_group(name);
        g.sample_size(samples);
        g.measurement_time(Duration::from_secs(secs));
        g.bench_function(engine.name(), |b| b.iter(|| count(&m, engine)));
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
