//! `dancer sudoku generate|rate|hint --killer`: generated killers are
//! unique (counted by the exact cover), their solutions pass the
//! independent checker, their rating is the level asked for, and a hint's
//! step agrees with the solution.

use assert_cmd::Command;
use dancer_sudoku::killer::{check_solution, KillerPuzzle};
use dancer_sudoku::Grid;
use serde_json::Value;

fn dancer() -> Command {
    Command::cargo_bin("dancer").unwrap()
}

/// A grid from its line of digits.
fn grid(line: &str) -> Grid {
    let cells: Vec<u8> = line.trim().bytes().map(|b| b - b'0').collect();
    Grid::from_cells(9, cells)
}

fn stdout(args: &[&str], code: i32) -> String {
    let o = dancer().args(args).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(code),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn generated_killers_are_unique_checked_and_of_their_level() {
    for level in ["easy", "medium", "hard"] {
        let out = stdout(
            &[
                "sudoku", "generate", "--killer", "--level", level, "--count", "2", "--seed", "11",
                "--json",
            ],
            0,
        );
        let recs: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(recs.len(), 2);
        for r in &recs {
            assert_eq!(r["level"], level);
            let line = r["puzzle"].as_str().unwrap();
            let k = KillerPuzzle::parse(line, None).unwrap();
            let sol = grid(r["solution"].as_str().unwrap());
            check_solution(&k, &sol).unwrap();
            // unique, by the exact cover
            let count = stdout(&["sudoku", "count", "--killer", line], 0);
            assert_eq!(count.trim(), "1", "{line}");
            // solved to the same grid, checked independently
            let solved = stdout(&["sudoku", "solve", "--killer", line], 0);
            let g = grid(&solved);
            assert_eq!(g, sol);
            check_solution(&k, &g).unwrap();
            // rated at the level asked for
            let rated = stdout(&["sudoku", "rate", "--killer", line], 0);
            assert!(rated.trim().ends_with(level), "{rated}");
            // the hint's step agrees with the solution
            let h: Value =
                serde_json::from_str(&stdout(&["sudoku", "hint", "--killer", "--json", line], 0))
                    .unwrap();
            assert_eq!(h["status"], "hint");
            let cell = |v: &Value| {
                let name = v["cell"].as_str().unwrap();
                let (r, c) = name[1..].split_once('c').unwrap();
                (r.parse::<usize>().unwrap() - 1) * 9 + c.parse::<usize>().unwrap() - 1
            };
            for p in h["placements"].as_array().unwrap() {
                assert_eq!(sol.get(cell(p)) as u64, p["digit"].as_u64().unwrap());
            }
            for e in h["eliminations"].as_array().unwrap() {
                assert_ne!(sol.get(cell(e)) as u64, e["digit"].as_u64().unwrap());
            }
        }
    }
}

#[test]
fn killer_ratings_and_hints_in_words() {
    let line = stdout(
        &[
            "sudoku", "generate", "--killer", "--level", "hard", "--seed", "5",
        ],
        0,
    );
    let line = line.trim();
    let text = stdout(&["sudoku", "rate", "--killer", line], 0);
    assert!(text.trim().ends_with("hard"), "{text}");
    let full = stdout(&["sudoku", "hint", "--killer", line], 0);
    assert!(
        full.contains("  place ") || full.contains("  remove "),
        "{full}"
    );
    let nudge = stdout(&["sudoku", "hint", "--killer", "--level", "nudge", line], 0);
    assert!(nudge.starts_with("Try "), "{nudge}");
    assert!(!nudge.contains("  place"), "{nudge}");
    // a puzzle of two solutions: no hint, exit 1
    let two = "aabbaabbccddccdd 10,10,10,10";
    let none = stdout(&["sudoku", "hint", "--killer", two], 1);
    assert!(none.contains("more than one solution"), "{none}");
    let not = stdout(&["sudoku", "rate", "--killer", two], 2);
    assert_eq!(not.trim(), "not unique");
}

#[test]
fn killer_requests_that_cannot_be_say_why() {
    let o = dancer()
        .args(["sudoku", "generate", "--killer", "--level", "extreme"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("not a killer level"), "{err}");
    for size in ["1", "2", "25"] {
        let o = dancer()
            .args(["sudoku", "generate", "--killer", "--size", size])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "--size {size}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("from 4x4 to 16x16"), "{err}");
    }
    let o = dancer()
        .args(["sudoku", "generate", "--killer", "--rating", "3-4"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("k.txt");
    std::fs::write(&f, "# killers\naabbaabbccddccdd 10,10,10\n").unwrap();
    let o = dancer()
        .args(["sudoku", "rate", "--killer", f.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("k.txt:2:") && err.contains("4 cages but 3 sums"),
        "{err}"
    );
}

/// `--timeout` bounds `rate --killer` (each puzzle: a rating stopped early
/// is a lower bound, "at least", and the run still exits 0 as plain
/// ratings do) and `generate --killer` (exit 1, saying how many were made).
#[test]
fn timeout_bounds_killer_ratings_and_generation() {
    let made = stdout(
        &[
            "sudoku", "generate", "--killer", "--level", "hard", "--count", "2", "--seed", "5",
        ],
        0,
    );
    let file =
        std::env::temp_dir().join(format!("dancer-killer-timeout-{}.txt", std::process::id()));
    std::fs::write(&file, &made).unwrap();
    let path = file.to_str().unwrap();
    let o = dancer()
        .args([
            "sudoku",
            "rate",
            "--killer",
            "--timeout",
            "0.000001",
            "--json",
            path,
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let recs: Vec<Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r["stopped"], "timeout", "{r}");
        assert_eq!(r["solved"], false);
        assert!(r["at_least"].as_f64().unwrap() <= 3.8);
    }
    assert!(String::from_utf8_lossy(&o.stderr).contains("2 ratings stopped early"));
    // without the limit: rated in full, nothing stopped
    let full = stdout(&["sudoku", "rate", "--killer", "--json", path], 0);
    for l in full.lines() {
        let r: Value = serde_json::from_str(l).unwrap();
        assert_eq!(r["solved"], true, "{r}");
        assert!(r.get("stopped").is_none());
    }
    std::fs::remove_file(&file).unwrap();

    // expert killers take a second or more each: 40 cannot be made in one
    let o = dancer()
        .args([
            "sudoku",
            "generate",
            "--killer",
            "--level",
            "expert",
            "--count",
            "40",
            "--seed",
            "1",
            "--timeout",
            "1",
            "--threads",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let made = String::from_utf8(o.stdout).unwrap().lines().count();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(made < 40);
    assert!(
        err.contains(&format!(
            "{made} of 40 made: the time allowed (1 s, --timeout) ran out"
        )),
        "{err}"
    );
}
