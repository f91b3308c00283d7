//! Shards are even: dealt as a sharded run deals them ([`Split::new`] with
//! a [`ShardSpec`]), the slowest of N shards has at most 1.3 times the mean
//! nodes, on the 6x10 pentominoes and on 15 queens, with N = 16 and 64.
//!
//! Nodes, not seconds: a machine-independent measure of each part's work
//! (the per-node cost of one engine on one problem is about the same in
//! every part). Each unit's nodes are measured once, by searching every
//! unit of the plan; each shard's load is then the sum over the units it
//! is dealt (plus the top of the tree, for shard 1), checked against the
//! shard's own run for one shard, and the loads add up to the whole.

use dancer_core::engines::EngineKind;
use dancer_core::parallel::{run, Observer, RunConfig, UnitResult};
use dancer_core::{classic, Problem};
use dancer_runs::search::{ShardSpec, Split, SplitOptions};
use std::sync::Mutex;

struct Nodes(Mutex<Vec<u64>>);

impl Observer for Nodes {
    fn unit(&self, r: &UnitResult) {
        self.0.lock().unwrap()[r.index] = r.stats.nodes;
    }
    fn wants_progress(&self) -> bool {
        false
    }
}

/// The nodes of each of `n` shards.
fn loads(p: &Problem, n: usize) -> Vec<u64> {
    let split = |k: usize| {
        Split::new(
            p,
            EngineKind::Auto,
            SplitOptions {
                threads: 1,
                shard: Some(ShardSpec { k, n }),
                checkpoints: false,
                resume: None,
            },
        )
        .unwrap()
    };
    let first = split(1);
    let units = first.plan.units.len();
    let every: Vec<usize> = (0..units).collect();
    let cfg = RunConfig {
        engine: first.engine,
        threads: 2,
        keep: false,
        ..Default::default()
    };
    let nodes = Nodes(Mutex::new(vec![0; units]));
    let whole = run(p, &first.plan, &every, &cfg, &nodes).unwrap();
    assert!(whole.complete);
    let nodes = nodes.0.into_inner().unwrap();
    let mut load = vec![0u64; n];
    for k in 1..=n {
        let spec = ShardSpec { k, n };
        load[k - 1] = (0..units)
            .filter(|&i| spec.takes(i))
            .map(|i| nodes[i])
            .sum();
    }
    load[0] += first.plan.top.nodes;
    // the dealing measured is the one a shard runs: shard 1 alone, as
    // `--shard 1/N` runs it, has the nodes added up for it here
    let alone = run(
        p,
        &first.plan,
        &first.selected,
        &cfg,
        &Nodes(Mutex::new(vec![0; units])),
    )
    .unwrap();
    assert_eq!(first.totals(&alone.stats).unwrap().nodes, load[0]);
    assert_eq!(
        load.iter().sum::<u64>(),
        whole.stats.nodes + first.plan.top.nodes
    );
    load
}

fn check(name: &str, p: &Problem) {
    for n in [16, 64] {
        let load = loads(p, n);
        let mean = load.iter().sum::<u64>() as f64 / n as f64;
        let max = *load.iter().max().unwrap() as f64;
        let min = *load.iter().min().unwrap() as f64;
        dancer_testdata::say(&format!(
            "{name}, {n} shards: nodes max/mean {:.3}, min/mean {:.3}",
            max / mean,
            min / mean
        ));
        assert!(
            max <= 1.3 * mean,
            "{name}, {n} shards: the slowest shard has {max} nodes, {:.3} times the mean {mean:.0}",
            max / mean
        );
    }
}

#[test]
fn pentominoes_6x10_shards_are_even() {
    let Some(path) = dancer_testdata::shared_file("dlx", "pent-6x10.dlx") else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let p = dancer_formats::dlx::read_str(&text, "pent-6x10.dlx")
        .unwrap()
        .problem;
    check("pent-6x10", &p);
}

#[test]
fn queens_15_shards_are_even() {
    check("queens-15", &classic::queens(15));
}
