//! Sharded searches give the same result whatever the split: the same
//! counts, nodes and updates for N = 1, 2, 7 and 64 parts and any thread
//! count per part as one unsplit run, with `--engine dlx` (Knuth's tree)
//! and `auto`.

use std::path::Path;
use std::process::Command;

fn dancer(dir: &Path, args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_dancer"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    // 0: found, 1: none (a part may hold no solution)
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// The summary's solutions, nodes and updates.
fn counts(summary: &str) -> (u64, u64, u64) {
    let v: serde_json::Value = serde_json::from_str(summary.lines().last().unwrap()).unwrap();
    assert_eq!(v["type"], "summary");
    assert_eq!(v["complete"], true, "{summary}");
    let n = |f: &str| v[f].as_u64().unwrap();
    (n("solutions"), n("nodes"), n("updates"))
}

#[test]
fn the_same_counts_nodes_and_updates_whatever_the_split() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("q10.dlx"), dancer(d, &["gen", "queens", "10"])).unwrap();
    std::fs::write(
        d.join("p.dlx"),
        dancer(d, &["poly", "export", "pentomino-3x20"]),
    )
    .unwrap();
    for (file, engine) in [("q10.dlx", "dlx"), ("q10.dlx", "auto"), ("p.dlx", "auto")] {
        let whole = counts(&dancer(
            d,
            &[
                "solve",
                file,
                "--count",
                "--json",
                "--engine",
                engine,
                "--threads",
                "1",
            ],
        ));
        for n in [1usize, 2, 7, 64] {
            for threads in ["1", "2"] {
                let mut parts = Vec::new();
                for k in 1..=n {
                    let out = format!("{file}-{engine}-{n}-{threads}-{k}.json");
                    dancer(
                        d,
                        &[
                            "solve",
                            file,
                            "--count",
                            "--engine",
                            engine,
                            "--threads",
                            threads,
                            "--shard",
                            &format!("{k}/{n}"),
                            "--shard-out",
                            &out,
                        ],
                    );
                    parts.push(out);
                }
                let mut args = vec!["merge", "--json"];
                args.extend(parts.iter().map(String::as_str));
                assert_eq!(
                    counts(&dancer(d, &args)),
                    whole,
                    "{file} --engine {engine}, {n} parts, {threads} threads"
                );
            }
        }
    }
}
