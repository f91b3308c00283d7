//! Calibrates the cost model of `--engine auto` ([`dancer_core::choose_engine`]).
//!
//! ```text
//! cargo run --release -p dancer-core --example calibrate -- [--repeat K] [--limit N] FILE.dlx[@N]...
//! ```
//!
//! For each problem (Knuth's DLX format) and each of the engines `auto`
//! chooses among (`bitset`, `bitmrv`, `dlx`), it counts every solution (up
//! to `N`, for problems too large to finish; `FILE@N` for one file) `K`
//! times (default 3) and takes the median time, with the engine's nodes
//! and updates; then it fits, by least squares on relative errors, the
//! nanoseconds per node and per update of each engine's model (the
//! features are those of [`dancer_core::engines::ProblemShape`]), and prints them
//! as the table of constants in `engine.rs`, with each problem's measured
//! and predicted times and the engine `auto` picks. Run it on an idle
//! machine: the constants are machine-dependent, only their ratios matter.

use dancer_core::engines::{auto_costs, ProblemShape};
use dancer_core::{EngineKind, Problem};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

struct Row {
    name: String,
    engine: EngineKind,
    seconds: f64,
    /// From the tree searched.
    features: Vec<f64>,
    /// From Knuth's estimate of the tree (256 probes), for searches run to
    /// the end: what `auto` sees.
    estimated: Option<Vec<f64>>,
}

/// The engine's estimate of its tree, with `probes` probes.
fn estimate(p: &Problem, e: EngineKind, probes: usize) -> (f64, f64) {
    let seed = 0x9e37_79b9_7f4a_7c15;
    let t = match e {
        EngineKind::Bitset => dancer_core::engines::bitset::estimate(p, probes, seed).unwrap(),
        EngineKind::BitMrv => dancer_core::engines::bitmrv::BitMrv::new(p)
            .unwrap()
            .estimate(probes, seed),
        _ => dancer_core::Dlx::new(p).unwrap().estimate(probes, seed),
    };
    (t.nodes, t.updates)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The median time of `repeat` counts, with the nodes and updates; `None`
/// when a run takes more than `cap` seconds (it is stopped).
fn run(p: &Problem, e: EngineKind, repeat: usize, cap: f64, limit: u64) -> Option<(f64, u64, u64)> {
    let mut times = Vec::new();
    let mut stats = (0, 0);
    for _ in 0..repeat {
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        let done = Arc::new(AtomicBool::new(false));
        let d = done.clone();
        let timer = std::thread::spawn(move || {
            let t = Instant::now();
            while !d.load(Ordering::Relaxed) && t.elapsed().as_secs_f64() < cap {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            f.store(true, Ordering::Relaxed);
        });
        let t = Instant::now();
        let mut eng = e.build(p).expect("supported");
        eng.set_cancel(flag);
        let mut found = 0;
        while found < limit && eng.next_solution().is_some() {
            found += 1;
        }
        times.push(t.elapsed().as_secs_f64());
        done.store(true, Ordering::Relaxed);
        timer.join().unwrap();
        if eng.is_cancelled() {
            return None;
        }
        stats = (eng.stats().nodes, eng.stats().updates);
    }
    Some((median(times), stats.0, stats.1))
}

/// Least squares on relative errors: minimises the sum of
/// `((x . c) / t - 1)^2` by the normal equations; features that are zero
/// on every row get 0.
fn fit(rows: &[(Vec<f64>, f64)]) -> Vec<f64> {
    let k = rows[0].0.len();
    let used: Vec<usize> = (0..k)
        .filter(|&i| rows.iter().any(|(x, _)| x[i] != 0.0))
        .collect();
    let m = used.len();
    let mut a = vec![vec![0.0f64; m + 1]; m];
    for (x, t) in rows {
        let xs: Vec<f64> = used.iter().map(|&i| x[i] / t).collect();
        for (row, &xi) in a.iter_mut().zip(&xs) {
            for (cell, &xj) in row.iter_mut().zip(&xs) {
                *cell += xi * xj;
            }
            row[m] += xi;
        }
    }
    // Gauss-Jordan elimination with partial pivoting
    for c in 0..m {
        let piv = (c..m)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap();
        a.swap(c, piv);
        let d = a[c][c];
        let pivot = a[c].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != c && d != 0.0 {
                let f = row[c] / d;
                for (x, &p) in row.iter_mut().zip(&pivot).skip(c) {
                    *x -= f * p;
                }
            }
        }
    }
    let mut out = vec![0.0; k];
    for (n, &i) in used.iter().enumerate() {
        out[i] = if a[n][n] == 0.0 {
            0.0
        } else {
            a[n][m] / a[n][n]
        };
    }
    out
}

/// Fits and prints each engine's constants, then the measured and
/// predicted time of every run.
fn constants(rows: &[Row]) {
    for estimated in [false, true] {
        println!(
            "| engine | constants (ns) fitted on {}: {} |",
            if estimated {
                "the estimated trees (256 probes)"
            } else {
                "the trees searched"
            },
            ProblemShape::FEATURES
        );
        println!("|---|---|");
        let pick = |r: &Row| -> Option<Vec<f64>> {
            if estimated {
                r.estimated.clone()
            } else {
                Some(r.features.clone())
            }
        };
        let mut consts = Vec::new();
        for e in [EngineKind::Bitset, EngineKind::BitMrv, EngineKind::Dlx] {
            let data: Vec<(Vec<f64>, f64)> = rows
                .iter()
                .filter(|r| r.engine == e && r.seconds > 0.02)
                .filter_map(|r| Some((pick(r)?, r.seconds * 1e9)))
                .collect();
            if data.len() < data.first().map_or(1, |d| d.0.len()) {
                continue;
            }
            let c = fit(&data);
            println!("| {e} | {c:.3?} |");
            consts.push((e, c));
        }
        println!();
        println!("| problem | engine | measured s | predicted s |");
        println!("|---|---|---:|---:|");
        for r in rows {
            let Some((_, c)) = consts.iter().find(|(e, _)| *e == r.engine) else {
                continue;
            };
            let Some(x) = pick(r) else {
                continue;
            };
            let pred: f64 = x.iter().zip(c).map(|(x, c)| x * c).sum::<f64>() / 1e9;
            println!(
                "| {} | {} | {:.4} | {:.4} |",
                r.name, r.engine, r.seconds, pred
            );
        }
        println!();
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut repeat = 3;
    let mut limit = u64::MAX;
    loop {
        match args.first().map(String::as_str) {
            Some("--repeat") => repeat = args[1].parse().expect("--repeat K"),
            Some("--limit") => limit = args[1].parse().expect("--limit N"),
            _ => break,
        }
        args.drain(..2);
    }
    let mut rows: Vec<Row> = Vec::new();
    let picks_only = args.first().map(String::as_str) == Some("--picks");
    if picks_only {
        args.remove(0);
    }
    for arg in args.iter().filter(|_| !picks_only) {
        // FILE@N: count at most N solutions of this one
        let (path, limit) = match arg.rsplit_once('@') {
            Some((f, n)) => (f, n.parse().expect("FILE@N")),
            None => (arg.as_str(), limit),
        };
        let text = std::fs::read_to_string(path).expect("readable");
        let p = dancer_formats::dlx::read_str(&text, path)
            .expect("a DLX file")
            .problem;
        let name = std::path::Path::new(path)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .to_string();
        let shape = ProblemShape::of(&p);
        for e in [EngineKind::Bitset, EngineKind::BitMrv, EngineKind::Dlx] {
            if !e.supports(&p) {
                continue;
            }
            let Some((secs, nodes, updates)) = run(&p, e, repeat, 20.0, limit) else {
                eprintln!("{name} {e}: more than 20 s, left out");
                continue;
            };
            eprintln!("{name} {e}: {secs:.4} s, {nodes} nodes, {updates} updates");
            rows.push(Row {
                name: name.clone(),
                engine: e,
                seconds: secs,
                features: shape.features(e, nodes as f64, updates as f64),
                estimated: (limit == u64::MAX).then(|| {
                    let (n, u) = estimate(&p, e, 256);
                    shape.features(e, n, u)
                }),
            });
        }
    }
    if !picks_only {
        constants(&rows);
    }
    // the whole trees of the files counted to the end
    println!("| problem | what auto estimates (engine: seconds) | auto picks | fastest measured |");
    println!("|---|---|---|---|");
    for arg in args.iter().filter(|a| !a.contains('@')) {
        let path = arg.as_str();
        let text = std::fs::read_to_string(path).unwrap();
        let p = dancer_formats::dlx::read_str(&text, path).unwrap().problem;
        let name = std::path::Path::new(path)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .to_string();
        let t = Instant::now();
        let costs = auto_costs(&p);
        let took = t.elapsed().as_secs_f64();
        let pick = dancer_core::choose_engine(&p);
        let best = rows
            .iter()
            .filter(|r| r.name == name)
            .min_by(|a, b| a.seconds.total_cmp(&b.seconds))
            .map(|r| r.engine);
        let est: Vec<String> = costs
            .iter()
            .map(|c| {
                format!(
                    "{}: {:.4} ±{:.0}%",
                    c.engine,
                    c.nanos / 1e9,
                    100.0 * c.tree.error
                )
            })
            .collect();
        println!(
            "| {name} | {} (in {took:.4} s) | {pick} | {} |",
            est.join(", "),
            best.map_or("-".into(), |b| b.to_string())
        );
    }
}
