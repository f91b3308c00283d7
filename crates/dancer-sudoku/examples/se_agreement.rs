//! How closely `dancer sudoku rate` agrees with Sudoku Explainer.
//!
//! ```text
//! cargo run --release -p dancer-sudoku --example se_agreement -- \
//!     ../shared/data/sudoku/se_rated_17clue_calibration.txt \
//!     ../shared/data/sudoku/se_rated_calibration.txt [--threads N] [--show K]
//! ```
//!
//! Each file holds lines `id puzzle SE` (puzzle: 81 characters, `0` or `.`
//! empty). For each file and for all of them together it prints the share
//! of puzzles rated identically, within 0.2, at the same level, the
//! Spearman rank correlation, and puzzles rated per second (of wall time,
//! on `--threads` threads, 1 unless told). `--show K` lists K disagreements
//! of each file with the technique of our hardest step, `--out FILE` writes
//! every puzzle's `id puzzle SE ours technique` (for a closer look at them).
//! `--trace PUZZLE` prints our steps for one puzzle, rating and words, to
//! compare with serate's `--after='%r %s'`. `--positions FILE` prints, for
//! each technique, the first position of the file's solving paths where
//! it is the step taken, as `tests/logic.rs` writes positions (digits, and
//! the candidates removed beyond those the digits rule out).

use dancer_sudoku::logic::{rate, Level};
use dancer_sudoku::Puzzle;
use rayon::prelude::*;
use std::io::Write;
use std::time::Instant;

struct PuzzleLine {
    id: String,
    puzzle: String,
    se: f64,
}

struct Rated {
    ours: f64,
    hardest: String,
}

fn read(path: &str) -> Vec<PuzzleLine> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("se_agreement: {path}: {e}");
        std::process::exit(2)
    });
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let se = f.get(2).and_then(|s| s.parse().ok());
            match (f.len(), se) {
                (3, Some(se)) => PuzzleLine {
                    id: f[0].to_string(),
                    puzzle: f[1].to_string(),
                    se,
                },
                _ => {
                    eprintln!("se_agreement: {path}:{}: expected `id puzzle SE`", i + 1);
                    std::process::exit(2)
                }
            }
        })
        .collect()
}

fn ranks(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            r[k] = mean;
        }
        i = j + 1;
    }
    r
}

fn spearman(a: &[f64], b: &[f64]) -> f64 {
    let (ra, rb) = (ranks(a), ranks(b));
    let n = ra.len() as f64;
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let mut cov = 0.0;
    let (mut va, mut vb) = (0.0, 0.0);
    for (x, y) in ra.iter().zip(&rb) {
        cov += (x - ma) * (y - mb);
        va += (x - ma) * (x - ma);
        vb += (y - mb) * (y - mb);
    }
    cov / (va * vb).sqrt()
}

fn report(name: &str, entries: &[&PuzzleLine], rated: &[&Rated], seconds: Option<f64>) {
    let n = entries.len() as f64;
    let share = |f: &dyn Fn(f64, f64) -> bool| {
        100.0
            * entries
                .iter()
                .zip(rated)
                .filter(|(e, r)| f(e.se, r.ours))
                .count() as f64
            / n
    };
    let same = share(&|a, b| (a - b).abs() < 0.05);
    let near = share(&|a, b| (a - b).abs() < 0.25);
    let level = share(&|a, b| Level::of(a) == Level::of(b));
    let se: Vec<f64> = entries.iter().map(|e| e.se).collect();
    let ours: Vec<f64> = rated.iter().map(|r| r.ours).collect();
    let rho = spearman(&ours, &se);
    print!(
        "{name}: {} puzzles, identical {same:.1}%, within 0.2 {near:.1}%, same level {level:.1}%, Spearman {rho:.4}",
        entries.len()
    );
    match seconds {
        Some(s) => println!(", {:.0} puzzles/s ({s:.1} s)", n / s),
        None => println!(),
    }
}

fn main() {
    let mut files = Vec::new();
    let mut threads = 1usize;
    let mut show = 0usize;
    let mut out: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |what: &str| {
            args.next().unwrap_or_else(|| {
                eprintln!("se_agreement: {what} needs a value");
                std::process::exit(2)
            })
        };
        match a.as_str() {
            "--threads" => threads = value("--threads").parse().unwrap_or(1).max(1),
            "--show" => show = value("--show").parse().unwrap_or(0),
            "--out" => out = Some(value("--out")),
            "--positions" => {
                positions(&value("--positions"));
                return;
            }
            "--trace" => {
                let line = value("--trace").replace('0', ".");
                let p = Puzzle::parse_line(&line, None).unwrap_or_else(|e| {
                    eprintln!("se_agreement: {e}");
                    std::process::exit(2)
                });
                let r = dancer_sudoku::logic::rate_with(&p.givens, |_, s| {
                    println!("{:.1} {}", s.rating(), s.description)
                });
                println!("rating {:.1} solved {}", r.se, r.solved);
                return;
            }
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        eprintln!("usage: se_agreement FILE... [--threads N] [--show K] [--out FILE]");
        std::process::exit(2);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let mut all_e: Vec<PuzzleLine> = Vec::new();
    let mut all_r: Vec<Rated> = Vec::new();
    let mut total = 0.0;
    let mut sink = out.map(|p| std::io::BufWriter::new(std::fs::File::create(p).unwrap()));
    for f in &files {
        let entries = read(f);
        let start = Instant::now();
        let rated: Vec<Rated> = pool.install(|| {
            entries
                .par_iter()
                .map(|e| {
                    let p = Puzzle::parse_line(&e.puzzle.replace('0', "."), None)
                        .unwrap_or_else(|err| panic!("{}: {err}", e.id));
                    let r = rate(&p.givens);
                    Rated {
                        ours: if r.solved { r.se } else { f64::NAN },
                        hardest: r.hardest.map_or("-".into(), |t| t.name().to_string()),
                    }
                })
                .collect()
        });
        let seconds = start.elapsed().as_secs_f64();
        total += seconds;
        let name = std::path::Path::new(f)
            .file_name()
            .map_or(f.clone(), |n| n.to_string_lossy().into_owned());
        report(
            &name,
            &entries.iter().collect::<Vec<_>>(),
            &rated.iter().collect::<Vec<_>>(),
            Some(seconds),
        );
        let mut wrong: Vec<(&PuzzleLine, &Rated)> = entries
            .iter()
            .zip(&rated)
            .filter(|(e, r)| (e.se - r.ours).abs() >= 0.05 || r.ours.is_nan())
            .collect();
        wrong.sort_by(|a, b| {
            (a.1.ours - a.0.se)
                .abs()
                .total_cmp(&(b.1.ours - b.0.se).abs())
        });
        for (e, r) in wrong.iter().rev().take(show) {
            println!(
                "  {} {} SE {:.1} ours {:.1} ({})",
                e.id, e.puzzle, e.se, r.ours, r.hardest
            );
        }
        if let Some(s) = sink.as_mut() {
            for (e, r) in entries.iter().zip(&rated) {
                writeln!(
                    s,
                    "{} {} {:.1} {:.1} {}",
                    e.id, e.puzzle, e.se, r.ours, r.hardest
                )
                .unwrap();
            }
        }
        all_e.extend(entries);
        all_r.extend(rated);
    }
    if files.len() > 1 {
        report(
            "together",
            &all_e.iter().collect::<Vec<_>>(),
            &all_r.iter().collect::<Vec<_>>(),
            Some(total),
        );
    }
}

/// The first position of each technique in the solving paths of a file.
fn positions(path: &str) {
    use dancer_sudoku::logic::{MarkedGrid, Technique};
    let mut seen = std::collections::BTreeSet::new();
    for e in read(path) {
        let p = Puzzle::parse_line(&e.puzzle.replace('0', "."), None).unwrap();
        dancer_sudoku::logic::rate_with(&p.givens, |b: &MarkedGrid, s| {
            if !seen.insert(s.technique) {
                return;
            }
            let plain = MarkedGrid::from_grid(&b.to_grid());
            let mut removed = Vec::new();
            for c in 0..81 {
                let gone = plain.cands(c) & !b.cands(c);
                if gone != 0 {
                    let ds: String = (1..=9u8)
                        .filter(|d| gone & 1 << (d - 1) != 0)
                        .map(|d| char::from(b'0' + d))
                        .collect();
                    removed.push(format!("r{}c{}-{ds}", c / 9 + 1, c % 9 + 1));
                }
            }
            println!(
                "    // calibration {}\n    (T::{:?}, \"{}\", \"{}\"),",
                e.id,
                s.technique,
                b.to_line(),
                removed.join(" ")
            );
        });
    }
    let missing: Vec<String> = Technique::ALL
        .iter()
        .filter(|t| !seen.contains(t))
        .map(|t| format!("{t:?}"))
        .collect();
    eprintln!("not taken: {}", missing.join(" "));
}
