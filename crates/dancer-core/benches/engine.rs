//! Criterion benchmarks of the engines on classic problems. Each benchmark
//! also prints its machine-independent figures (solutions, nodes, updates),
//! which are the same on every machine.
//!
//! queens-12 and langford-11 are generated (identical to Knuth's files);
//! pent-6x10-sym is read from `../shared/data/dlx/` and skipped, with a
//! message, when that directory is absent.

use criterion::{criterion_group, criterion_main, Criterion};
use dancer_core::{classic, EngineKind, Problem};
use std::time::Duration;

fn shared(name: &str) -> Option<Problem> {
    let path = dancer_testdata::shared_file("dlx", name)?;
    let text = std::fs::read_to_string(&path).unwrap();
    Some(dancer_formats::dlx::read_str(&text, name).unwrap().problem)
}

fn count(p: &Problem, engine: EngineKind) -> (u64, u64, u64) {
    let mut e = engine.build(p).expect("engine takes the problem");
    while e.next_solution().is_some() {}
    let s = e.stats();
    (s.solutions, s.nodes, s.updates)
}

fn bench(c: &mut Criterion) {
    let mut problems: Vec<(&str, Problem, usize)> = vec![
        ("queens-12", classic::queens(12), 20),
        ("langford-11", classic::langford(11), 20),
    ];
    if let Some(p) = shared("pent-6x10-sym.dlx") {
        problems.push(("pent-6x10-sym", p, 10));
    }
    for (name, p, samples) in &problems {
        let mut g = c.benchmark_group(*name);
        g.sample_size(*samples);
        g.measurement_time(Duration::from_secs(if *samples == 10 { 20 } else { 10 }));
        for &engine in EngineKind::ALL.iter().filter(|e| e.supports(p)) {
            let (sols, nodes, updates) = count(p, engine);
            eprintln!("{name} [{engine}]: {sols} solutions, {nodes} nodes, {updates} updates");
            g.bench_function(engine.name(), |b| b.iter(|| count(p, engine)));
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
