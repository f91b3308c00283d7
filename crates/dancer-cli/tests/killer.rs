//! `dancer sudoku solve|count|check --killer`: killer puzzles a line at a
//! time, every answer checked by the killer checker
//! (`dancer_sudoku::killer::check_solution`), counts against brute force,
//! bad lines named with their line and what is wrong.

use assert_cmd::Command;
use dancer_sudoku::killer::{check_solution, KillerPuzzle};
use dancer_sudoku::{Grid, Puzzle};

fn dancer() -> Command {
    Command::cargo_bin("dancer").unwrap()
}

/// A solved 9x9 grid cut into cages of at most `most` cells (no digit
/// twice), with their sums: a line with at least that solution.
fn planted(seed: u64, most: usize) -> String {
    let solved =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let g: Vec<u8> = solved.bytes().map(|b| b - b'0').collect();
    let mut x = seed | 1;
    let mut below = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let mut cage = vec![usize::MAX; 81];
    let mut next = 0;
    for s in 0..81 {
        if cage[s] != usize::MAX {
            continue;
        }
        let size = 1 + below(most);
        let mut cells = vec![s];
        cage[s] = next;
        while cells.len() < size {
            let c = cells[below(cells.len())];
            let mut near = Vec::new();
            if c % 9 < 8 {
                near.push(c + 1);
            }
            if c / 9 < 8 {
                near.push(c + 9);
            }
            if c % 9 > 0 {
                near.push(c - 1);
            }
            near.retain(|&d| cage[d] == usize::MAX && cells.iter().all(|&e| g[e] != g[d]));
            if near.is_empty() {
                break;
            }
            let d = near[below(near.len())];
            cage[d] = next;
            cells.push(d);
        }
        next += 1;
    }
    let names: Vec<char> = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
        .chars()
        .collect();
    let map: String = cage.iter().map(|&k| names[k]).collect();
    let sums: Vec<String> = (0..next)
        .map(|k| {
            (0..81)
                .filter(|&c| cage[c] == k)
                .map(|c| u32::from(g[c]))
                .sum::<u32>()
                .to_string()
        })
        .collect();
    format!("{map} {}", sums.join(","))
}

#[test]
fn killer_batches_are_solved_counted_and_checked() {
    let lines: Vec<String> = (1..=12).map(|s| planted(s, 4)).collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("killers.txt");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let out = dancer()
        .args(["sudoku", "count", "--killer", "--threads", "2"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let counts: Vec<u64> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(counts.len(), 12);
    assert!(counts.iter().all(|&c| c >= 1), "each has its planted grid");
    let out = dancer()
        .args(["sudoku", "solve", "--killer", "--json", "--threads", "2"])
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let records: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 12);
    for ((r, line), &count) in records.iter().zip(&lines).zip(&counts) {
        let k = KillerPuzzle::parse(line, None).unwrap();
        // the record names the killer by its own line, cages and sums
        assert_eq!(r["puzzle"].as_str(), Some(k.to_line().as_str()), "{r}");
        // the solution of a unique one, two of several
        let sols: Vec<&serde_json::Value> = match r.get("solution") {
            Some(s) => vec![s],
            None => r["solutions"].as_array().unwrap().iter().collect(),
        };
        assert_eq!(sols.len() as u64, count.min(2), "{r}");
        for s in sols {
            let g: Grid = Puzzle::parse_line(s.as_str().unwrap(), None)
                .unwrap()
                .givens;
            check_solution(&k, &g).unwrap();
        }
        let status = r["status"].as_str().unwrap();
        assert_eq!(status == "unique", count == 1, "{r}");
    }
    let out = dancer()
        .args(["sudoku", "check", "--killer"])
        .arg(&file)
        .output()
        .unwrap();
    let verdicts = String::from_utf8(out.stdout).unwrap();
    let unique = verdicts.lines().filter(|l| *l == "unique").count();
    assert_eq!(unique, counts.iter().filter(|&&c| c == 1).count());
    assert_eq!(out.status.code(), Some(if unique == 12 { 0 } else { 1 }));
}

#[test]
fn every_4x4_grid_of_a_cage_per_row() {
    // four cages of a row each, adding up to 10: every 4x4 grid
    let out = dancer()
        .args([
            "sudoku",
            "count",
            "--killer",
            "aaaabbbbccccdddd 10,10,10,10",
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "288");
    // a given pins a digit: a quarter of them have a 1 in r1c1
    let out = dancer()
        .args([
            "sudoku",
            "count",
            "--killer",
            "aaaabbbbccccdddd 10,10,10,10 1...............",
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "72");
    // the JSON form: a cage of two cells adding up to 3 in row 1 (1 and 2)
    // and the rest of the row adding up to 7 (3 and 4): a quarter of 288
    // with 1 and 2 first, in either order, times 3 and 4 in either order
    let json = r#"{"size":4,"cages":[{"sum":3,"cells":["r1c1","r1c2"]},{"sum":7,"cells":["r1c3","r1c4"]}]}"#;
    let out = dancer()
        .args(["sudoku", "count", "--killer", json])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "48");
}

#[test]
fn bad_killer_lines_say_where_and_what() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.txt");
    let good = "aaaabbbbccccdddd 10,10,10,10";
    std::fs::write(
        &file,
        format!("{good}\n# a comment\naaaabbbbccccdddd 10,10,10\n{good}\n"),
    )
    .unwrap();
    let out = dancer()
        .args(["sudoku", "count", "--killer"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("bad.txt:3: invalid puzzle: the map has 4 cages but 3 sums are given"),
        "{err}"
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout.lines().count(),
        3,
        "the others are answered: {stdout}"
    );
    // what --killer does not go with
    for flags in [
        &["--layout", "grids"][..],
        &["--engine", "dlx"],
        &["--shard", "1/2"],
    ] {
        let out = dancer()
            .args(["sudoku", "solve", "--killer"])
            .args(flags)
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{flags:?}");
    }
}
