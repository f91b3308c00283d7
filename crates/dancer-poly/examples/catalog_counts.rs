//! Counts every built-in puzzle (or those named) and prints the figures.
use dancer_poly::{
    catalog,
    model::{Model, Options},
};
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let breaking = !args.iter().any(|a| a == "--no-symmetry");
    // --dlx, --dlxm or --bitset; auto by default
    let engine = args
        .iter()
        .filter_map(|a| a.strip_prefix("--"))
        .find_map(|a| a.parse::<dancer_core::EngineKind>().ok())
        .unwrap_or_default();
    for e in catalog::entries() {
        if args.iter().any(|a| !a.starts_with("--")) && !args.contains(&e.name) {
            continue;
        }
        let m = Model::new(catalog::puzzle(&e.name).unwrap()).unwrap();
        let t = Instant::now();
        let opts = Options {
            symmetry_breaking: breaking,
            engine,
            ..Default::default()
        };
        let c = match m.solve(&opts, |_| true) {
            Ok(c) => c,
            Err(err) => {
                println!("{:16} skipped: {err}", e.name);
                continue;
            }
        };
        println!(
            "{:16} total {:7} unique {:6} (known {:?}) nodes {:10} {:.3} s  |G|={}",
            e.name,
            c.total,
            c.unique,
            (e.known.total, e.known.unique),
            c.nodes,
            t.elapsed().as_secs_f64(),
            m.symmetries.len()
        );
    }
}
