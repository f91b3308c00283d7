//! Criterion benchmarks: BurrTools' example designs (as dancer writes them,
//! in `tests/burr/`), each problem read from its file's bytes, set up and
//! its assemblies counted up to BurrTools' symmetries, single thread: the
//! in-process side of the README's table against BurrTools' own library
//! (`cargo bench -p dancer-poly --bench burr`).

use criterion::{criterion_group, criterion_main, Criterion};
use dancer_poly::model::{Model, Options};
use std::time::Duration;

/// Reads problem `problem` (from 1) of `bytes` and counts its assemblies.
fn assemblies(bytes: &[u8], problem: usize) -> u64 {
    let spec = problem.to_string();
    let (_, _, puzzle) = dancer_poly::burr::load(bytes, "bench", Some(&spec)).unwrap();
    let m = Model::new(puzzle).unwrap();
    let opts = Options {
        unique: true,
        threads: 1,
        ..Default::default()
    };
    m.solve(&opts, |_| true).unwrap().unique
}

fn bench(c: &mut Criterion) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/burr");
    for (name, problem, want) in [
        ("AlPackino", 1, 1),
        ("PelikanBurr", 1, 12),
        ("DraculasDentalDesaster", 1, 84),
        ("CubeInCage", 1, 96),
        ("DemoPieceGenerator", 1, 928),
        ("DemoMirrorParadox", 1, 1),
        ("DemoMirrorParadox", 2, 1),
        ("Bermuda", 1, 1),
        ("Prisgon", 1, 1),
        ("Prisgon", 2, 1),
        ("BallRoom", 3, 3),
        ("HexSticks", 1, 33),
        ("PiecesOfEight", 3, 43),
        ("12PieceSeparation", 1, 1),
        ("FourPieceTetrahedron", 1, 1),
    ] {
        let bytes = std::fs::read(format!("{dir}/{name}.xmpuzzle")).unwrap();
        assert_eq!(assemblies(&bytes, problem), want, "{name} {problem}");
        let mut g = c.benchmark_group("burr");
        g.sample_size(20).measurement_time(Duration::from_secs(2));
        g.bench_function(format!("{name}-{problem}"), |b| {
            b.iter(|| assemblies(&bytes, problem))
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
