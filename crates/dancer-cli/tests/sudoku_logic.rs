//! `dancer sudoku hint`, `rate` and `generate`: output, JSON fields, exit
//! codes (0 found, 1 none, 2 error), and bad input (a clear error, never a
//! panic). Answers are checked with `dancer sudoku solve` and `count`, the
//! exact engines, not with the logic that made them.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;
use std::time::Duration;

/// Singles only.
const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// Its first step removes candidates (pointing), it places nothing.
const POINTING: &str =
    "..5792834248653197..7814652.86541.2.4.296758..592384.6..34852..5241793688.1326.45";
const NONE: &str =
    "12345678.........9...............................................................";
/// Two solutions: the 2s and 3s of r1c3, r1c6, r2c3, r2c6 can be swapped.
const TWO: &str =
    "81.75.64994.68.175675491283154237896369845721287169534521974368438526917796318452";
/// From the calibration set, with their Sudoku Explainer ratings.
const RATED: &[(&str, f64)] = &[
    (
        ".1.7.....4.6.2....9.21.5....48.9....6.1...5.7....5.84....5.37.2....7.9.6.....6.5.",
        5.4,
    ),
    (
        "...1..53.6....3...1..52.....5..3.8.9..28.97..9.1.5..4.....95..4...2....3.17..6...",
        6.6,
    ),
    (
        "7.....6...18..3..7..2.8......94....6.4..9..2.1....87......4.9..8..5..13...4.....8",
        8.9,
    ),
];

fn dancer() -> Command {
    let mut c = Command::cargo_bin("dancer").unwrap();
    c.timeout(Duration::from_secs(120));
    c
}

fn stdout(args: &[&str], code: i32) -> String {
    let out = dancer().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    String::from_utf8(out.stdout).unwrap()
}

/// The solution, by the exact solver.
fn solution(puzzle: &str) -> Vec<u8> {
    let s = stdout(&["sudoku", "solve", puzzle], 0);
    s.trim().bytes().map(|b| b - b'0').collect()
}

/// `r3c7` to a cell index.
fn cell(name: &str) -> usize {
    let b = name.as_bytes();
    assert!(b.len() == 4 && b[0] == b'r' && b[2] == b'c', "{name}");
    (b[1] - b'1') as usize * 9 + (b[3] - b'1') as usize
}

/// The level of an SE rating, as documented.
fn level(se: f64) -> &'static str {
    match se {
        x if x <= 2.3 + 1e-9 => "easy",
        x if x <= 3.4 + 1e-9 => "medium",
        x if x <= 4.6 + 1e-9 => "hard",
        x if x <= 6.9 + 1e-9 => "expert",
        _ => "extreme",
    }
}

/// The command exits with 2 and an error saying `message`, not a panic.
fn fails(args: &[&str], message: &str) {
    dancer()
        .args(args)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(message))
        .stderr(predicate::str::contains("error"))
        .stderr(predicate::str::contains("panicked").not());
}

// ------------------------------------------------------------------- hint

#[test]
fn hint_full_and_nudge() {
    let sol = solution(EASY);
    let full = stdout(&["sudoku", "hint", EASY], 0);
    let lines: Vec<&str> = full.lines().collect();
    assert!(
        predicate::str::is_match(r" \(SE [0-9]+\.[0-9]\)$")
            .unwrap()
            .eval(lines[0]),
        "{full}"
    );
    // a single: one digit placed, and the right one
    assert_eq!(lines.len(), 2, "{full}");
    let p: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(p[0], "place", "{full}");
    assert_eq!(p[2], "in");
    let d: u8 = p[1].parse().unwrap();
    assert_eq!(sol[cell(p[3])], d, "{full}");

    let nudge = stdout(&["sudoku", "hint", "--level", "nudge", EASY], 0);
    assert!(nudge.starts_with("Try a "), "{nudge}");
    assert!(nudge.contains("(SE "), "{nudge}");
    assert!(nudge.contains("Look at "), "{nudge}");
    // a nudge gives nothing away
    assert!(!nudge.contains("place") && !nudge.contains(p[3]), "{nudge}");
    assert_eq!(nudge.lines().count(), 1);
}

#[test]
fn hint_json() {
    let sol = solution(EASY);
    let v: Value = serde_json::from_str(&stdout(&["sudoku", "hint", "--json", EASY], 0)).unwrap();
    assert_eq!(v["status"], "hint");
    let technique = v["technique"].as_str().unwrap();
    assert!(v["rating"].as_f64().unwrap() >= 1.0);
    assert!(!v["units"].as_array().unwrap().is_empty());
    assert!(!v["cells"].as_array().unwrap().is_empty());
    assert!(!v["digits"].as_array().unwrap().is_empty());
    let description = v["description"].as_str().unwrap();
    let short = technique.split(" (").next().unwrap().to_lowercase();
    assert!(description.to_lowercase().contains(&short), "{v}");
    let placements = v["placements"].as_array().unwrap();
    assert_eq!(placements.len(), 1, "{v}");
    for p in placements {
        let c = cell(p["cell"].as_str().unwrap());
        assert_eq!(p["digit"].as_u64().unwrap() as u8, sol[c], "{v}");
    }
    assert!(v["eliminations"].as_array().unwrap().is_empty());

    // the nudge: the technique, its rating and where to look, no more
    let n: Value = serde_json::from_str(&stdout(
        &["sudoku", "hint", "--json", "--level", "nudge", EASY],
        0,
    ))
    .unwrap();
    assert_eq!(n["status"], "hint");
    assert_eq!(n["technique"], v["technique"]);
    assert_eq!(n["rating"], v["rating"]);
    assert_eq!(n["units"], v["units"]);
    for hidden in [
        "cells",
        "digits",
        "placements",
        "eliminations",
        "description",
    ] {
        assert!(n.get(hidden).is_none(), "{hidden} in a nudge: {n}");
    }
}

#[test]
fn hint_that_removes_candidates() {
    let sol = solution(POINTING);
    let text = stdout(&["sudoku", "hint", POINTING], 0);
    let remove = text
        .lines()
        .find_map(|l| l.strip_prefix("  remove "))
        .unwrap_or_else(|| panic!("{text}"));
    for item in remove.split(", ") {
        // "6 from r1c4"
        let w: Vec<&str> = item.split_whitespace().collect();
        assert_eq!(w[1], "from", "{item}");
        let d: u8 = w[0].parse().unwrap();
        assert_ne!(sol[cell(w[2])], d, "{item} removes the solution");
    }
    let v: Value =
        serde_json::from_str(&stdout(&["sudoku", "hint", "--json", POINTING], 0)).unwrap();
    let el = v["eliminations"].as_array().unwrap();
    assert_eq!(el.len(), remove.split(", ").count());
    for e in el {
        let c = cell(e["cell"].as_str().unwrap());
        assert_ne!(e["digit"].as_u64().unwrap() as u8, sol[c]);
    }
}

#[test]
fn hint_exit_codes() {
    // a full grid: nothing to do, but nothing wrong
    let full: String = solution(EASY).iter().map(|d| (b'0' + d) as char).collect();
    assert!(stdout(&["sudoku", "hint", &full], 0).contains("full"));
    let v: Value = serde_json::from_str(&stdout(&["sudoku", "hint", "--json", &full], 0)).unwrap();
    assert_eq!(v["status"], "solved");
    // no solution
    assert!(stdout(&["sudoku", "hint", NONE], 1).contains("no solution"));
    let v: Value = serde_json::from_str(&stdout(&["sudoku", "hint", "--json", NONE], 1)).unwrap();
    assert_eq!(v["status"], "none");
    // two solutions: no hint, said at once
    dancer()
        .args(["sudoku", "hint", TWO])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("more than one solution"));
    let v: Value = serde_json::from_str(&stdout(&["sudoku", "hint", "--json", TWO], 1)).unwrap();
    assert_eq!(v["status"], "multiple");
    // the empty grid too, without a long search
    let empty = ".".repeat(81);
    let v: Value = serde_json::from_str(&stdout(&["sudoku", "hint", "--json", &empty], 1)).unwrap();
    assert_eq!(v["status"], "multiple");
    // from a file
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("p.txt");
    std::fs::write(&f, format!("# a puzzle\n{EASY}\n")).unwrap();
    assert_eq!(
        stdout(&["sudoku", "hint", f.to_str().unwrap()], 0),
        stdout(&["sudoku", "hint", EASY], 0)
    );
}

#[test]
fn hint_bad_input() {
    fails(&["sudoku", "hint", "123"], "no such file");
    fails(&["sudoku", "hint", "no/such/file.txt"], "no such file");
    fails(&["sudoku", "hint", &EASY[1..]], "wrong length: 80 cells");
    let two_ones = format!("11{}", &".".repeat(79));
    fails(&["sudoku", "hint", &two_ones], "two 1s in row 1");
    fails(&["sudoku", "hint", &".".repeat(16)], "9x9");
    fails(&["sudoku", "hint", "--level", "all", EASY], "--level");
    dancer().args(["sudoku", "hint"]).assert().code(2);
}

// ------------------------------------------------------------------- rate

#[test]
fn rate_text_and_json_agree() {
    let input: String = RATED.iter().map(|(p, _)| format!("{p}\n")).collect();
    let input = format!("{EASY}\n{input}");
    let text = dancer()
        .args(["sudoku", "rate", "--threads", "2"])
        .write_stdin(input.clone())
        .assert()
        .code(0)
        .stderr(predicate::str::contains("4 puzzles rated in"))
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(text).unwrap();
    let json = dancer()
        .args(["sudoku", "rate", "--json", "-"])
        .write_stdin(input)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let json: Vec<Value> = String::from_utf8(json)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(json.len(), 4);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    for (i, (l, v)) in lines.iter().zip(&json).enumerate() {
        assert_eq!(v["line"], i + 1);
        let r = v["rating"].as_f64().unwrap();
        let lv = v["level"].as_str().unwrap();
        assert_eq!(lv, level(r), "{v}");
        assert_eq!(*l, format!("{r:.1} {lv}"));
        assert_eq!(v["solved"], true);
        assert!(v["steps"].as_u64().unwrap() > 0);
        assert!(v["hardest"].is_string());
    }
    // singles only: easy
    assert_eq!(json[0]["level"], "easy");
    // near Sudoku Explainer's own ratings
    for ((_, se), v) in RATED.iter().zip(&json[1..]) {
        let r = v["rating"].as_f64().unwrap();
        assert!((r - se).abs() <= 0.3 + 1e-9, "ours {r}, SE {se}");
    }
}

#[test]
fn rate_bad_lines() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("set.txt");
    std::fs::write(
        &f,
        format!("# three puzzles\n{EASY}\n{}\n{TWO}\n", &EASY[2..]),
    )
    .unwrap();
    let name = f.to_str().unwrap();
    dancer()
        .args(["sudoku", "rate", name])
        .assert()
        .code(2)
        .stdout(
            predicate::str::is_match(
                "^[0-9.]+ easy\ninvalid: wrong length: 79 cells.*\nnot unique\n$",
            )
            .unwrap(),
        )
        .stderr(predicate::str::contains(format!(
            "{name}:3: invalid puzzle: wrong length"
        )))
        .stderr(predicate::str::contains(format!(
            "{name}:4: the puzzle has no unique solution"
        )));
    let out = stdout(&["sudoku", "rate", "--json", name], 2);
    let v: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v[0]["line"], 2);
    assert_eq!(v[0]["level"], "easy");
    assert_eq!(v[1]["line"], 3);
    assert_eq!(v[1]["status"], "invalid");
    assert!(v[1]["error"].as_str().unwrap().contains("79 cells"));
    assert_eq!(v[2]["line"], 4);
    assert_eq!(v[2]["status"], "not unique");
    assert!(v[2].get("rating").is_none());
}

#[test]
fn rate_bad_input() {
    fails(&["sudoku", "rate", "no/such/file.txt"], "no such file");
    fails(&["sudoku", "rate", "--threads", "x", EASY], "--threads");
    // not 9x9
    dancer()
        .args(["sudoku", "rate", &".".repeat(16)])
        .assert()
        .code(2)
        .stdout("invalid: ratings are for plain 9x9, not 4x4\n");
    // an empty grid has many solutions: refused (checked first, not rated)
    dancer()
        .args(["sudoku", "rate", &".".repeat(81)])
        .assert()
        .code(2)
        .stdout("not unique\n");
}

// --------------------------------------------------------------- generate

fn puzzles(args: &[&str]) -> Vec<String> {
    stdout(args, 0).lines().map(String::from).collect()
}

/// `dancer sudoku count` of each puzzle.
fn counts(ps: &[String]) -> Vec<String> {
    let out = dancer()
        .args(["sudoku", "count", "--limit", "2"])
        .write_stdin(ps.join("\n"))
        .output()
        .unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

fn rotate180(p: &str) -> bool {
    let b = p.as_bytes();
    let n = b.len();
    (0..n).all(|i| (b[i] == b'.') == (b[n - 1 - i] == b'.'))
}

fn mirror(p: &str, size: usize) -> bool {
    let b = p.as_bytes();
    (0..size * size).all(|i| {
        let (r, c) = (i / size, i % size);
        (b[i] == b'.') == (b[r * size + size - 1 - c] == b'.')
    })
}

#[test]
fn generate_count_seed_and_uniqueness() {
    let args = ["sudoku", "generate", "--count", "3", "--seed", "1"];
    let a = puzzles(&args);
    assert_eq!(a.len(), 3);
    for p in &a {
        assert_eq!(p.len(), 81, "{p}");
        assert!(
            p.chars().all(|c| c == '.' || ('1'..='9').contains(&c)),
            "{p}"
        );
    }
    // reproducible, whatever the threads
    assert_eq!(puzzles(&args), a);
    let mut one = args.to_vec();
    one.extend(["--threads", "1"]);
    assert_eq!(puzzles(&one), a);
    // another seed, other puzzles
    let b = puzzles(&["sudoku", "generate", "--count", "3", "--seed", "2"]);
    assert!(a.iter().all(|p| !b.contains(p)));
    // each has exactly one solution
    assert_eq!(counts(&a), vec!["1"; 3]);
    // and is minimal: no given can go
    for p in &a {
        let stripped: Vec<String> = (0..81)
            .filter(|&i| &p[i..i + 1] != ".")
            .map(|i| format!("{}.{}", &p[..i], &p[i + 1..]))
            .collect();
        assert!(
            counts(&stripped).iter().all(|c| c == "2"),
            "{p} is not minimal"
        );
    }
}

#[test]
fn generate_symmetry_and_size() {
    // `sudoku generate --seed 7 --count N` with more flags
    let generated = |n: &str, flags: &[&str]| {
        let mut args = vec!["sudoku", "generate", "--count", n, "--seed", "7"];
        args.extend(flags);
        puzzles(&args)
    };
    let r = generated("3", &["--symmetry", "rotate180"]);
    assert!(r.iter().all(|p| rotate180(p)), "{r:?}");
    assert_eq!(counts(&r), vec!["1"; 3]);
    let m = generated("2", &["--symmetry", "mirror"]);
    assert!(m.iter().all(|p| mirror(p, 9)), "{m:?}");
    let small = generated("3", &["--size", "4", "--symmetry", "mirror"]);
    for p in &small {
        assert_eq!(p.len(), 16);
        assert!(mirror(p, 4), "{p}");
    }
    assert_eq!(counts(&small), vec!["1"; 3]);
}

#[test]
fn generate_level_json() {
    let out = stdout(
        &[
            "sudoku",
            "generate",
            "--count",
            "2",
            "--seed",
            "5",
            "--level",
            "hard",
            "--json",
            "--symmetry",
            "rotate180",
        ],
        0,
    );
    let v: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v.len(), 2);
    for g in &v {
        let p = g["puzzle"].as_str().unwrap();
        let r = g["rating"].as_f64().unwrap();
        assert!(r > 3.4 && r <= 4.6 + 1e-9, "{g}");
        assert_eq!(g["level"], "hard");
        assert_eq!(g["symmetry"], "rotate180");
        assert!(rotate180(p));
        assert_eq!(
            g["givens"].as_u64().unwrap() as usize,
            p.chars().filter(|&c| c != '.').count()
        );
        // the solution is the exact solver's
        let sol: String = solution(p).iter().map(|d| (b'0' + d) as char).collect();
        assert_eq!(g["solution"], sol.as_str());
        // rated again on its own, the same
        let rv: Value = serde_json::from_str(&stdout(&["sudoku", "rate", "--json", p], 0)).unwrap();
        assert_eq!(rv["rating"].as_f64().unwrap(), r);
        assert_eq!(rv["level"], "hard");
    }
    // a rating range
    let out = stdout(
        &[
            "sudoku", "generate", "--count", "2", "--seed", "5", "--rating", "2.6-3.4", "--json",
        ],
        0,
    );
    for l in out.lines() {
        let g: Value = serde_json::from_str(l).unwrap();
        let r = g["rating"].as_f64().unwrap();
        assert!((2.6 - 1e-9..=3.4 + 1e-9).contains(&r), "{g}");
    }
}

#[test]
fn generate_bad_flags() {
    let g = |extra: &[&str]| {
        let mut v = vec!["sudoku", "generate", "--seed", "1"];
        v.extend_from_slice(extra);
        v.iter().map(|s| s.to_string()).collect::<Vec<String>>()
    };
    let run = |extra: &[&str], msg: &str| {
        let a = g(extra);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        fails(&a, msg);
    };
    run(&["--rating", "5"], "expected A-B");
    run(&["--rating", "5-3"], "lower bound is above the upper");
    run(&["--rating", "x-3"], "bad lower bound");
    run(&["--rating", "3-"], "bad upper bound");
    run(&["--rating", "0-0.5"], "no puzzle rates below 1.0");
    run(
        &["--level", "hard", "--rating", "3-4"],
        "cannot be used with",
    );
    run(&["--level", "impossible"], "--level");
    run(&["--symmetry", "spiral"], "unknown symmetry");
    run(&["--size", "5"], "--size must be 4, 9 or 16");
    run(&["--size", "4", "--level", "easy"], "9x9");
    run(&["--count", "many"], "--count");
}

/// Puzzles of forum_hardest_1905_11plus (SE 11+ by Sudoku Explainer):
/// nested forcing chains from the first step.
const HARDEST: [&str; 3] = [
    "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
    "98.7..6..75..4......3..8.7.8....9.5..3.2..1.....4....6.7...4.3....8..4......1...2",
    "98.7..6..7.5....9..43.....78..2....6..7.1..2......48..3..9...6.....5.3.......1..9",
];

/// `rate --timeout`: a rating that takes longer is reported as a lower
/// bound, with why and the hardest step so far; exit 0 (a result, as with
/// `--limit`).
#[test]
fn rate_reports_a_lower_bound_after_its_timeout() {
    let out = stdout(&["sudoku", "rate", "--timeout", "0.02", HARDEST[0]], 0);
    assert!(out.starts_with("at least "), "{out}");
    assert!(out.contains("(timeout after "), "{out}");
    let out = stdout(
        &["sudoku", "rate", "--timeout", "0.02", "--json", HARDEST[0]],
        0,
    );
    let r: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(r["stopped"], "timeout", "{r}");
    assert_eq!(r["solved"], false, "{r}");
    let at_least = r["at_least"].as_f64().unwrap();
    assert!(at_least >= r["rating"].as_f64().unwrap(), "{r}");
    assert_eq!(r["level"], level(at_least), "{r}");
    // finished ratings carry neither field
    let out = stdout(&["sudoku", "rate", "--json", EASY], 0);
    let r: Value = serde_json::from_str(out.trim()).unwrap();
    assert!(
        r.get("stopped").is_none() && r.get("at_least").is_none(),
        "{r}"
    );
    fails(&["sudoku", "rate", "--timeout", "0", EASY], "--timeout");
    fails(&["sudoku", "rate", "--timeout", "soon", EASY], "--timeout");
}

/// `hint --timeout`: no hint in time says how hard the next step is at
/// least; exit 1 (no hint).
#[test]
fn hint_says_how_hard_the_step_is_after_its_timeout() {
    let out = stdout(
        &["sudoku", "hint", "--timeout", "0.01", "--json", HARDEST[0]],
        1,
    );
    let r: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(r["status"], "stopped", "{r}");
    assert!(r["message"].as_str().unwrap().contains("at least"), "{r}");
    let out = stdout(&["sudoku", "hint", "--timeout", "0.01", HARDEST[0]], 1);
    assert!(out.starts_with("No hint within the time allowed"), "{out}");
}

/// Ctrl-C during `rate`: the puzzles rated are printed, the one being rated
/// prints what it knows, the others are not started, and the exit code is
/// 130.
#[cfg(unix)]
#[test]
fn rate_prints_its_partial_result_on_ctrl_c() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hard.txt");
    // thirty of the hardest: more than a second and a half's work
    std::fs::write(&file, vec![HARDEST.join("\n"); 10].join("\n")).unwrap();
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dancer"))
        .args(["sudoku", "rate", "--timeout", "none", "--threads", "1"])
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{text}{err}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(!lines.is_empty() && lines.len() < 30, "{text}");
    let (last, rated) = lines.split_last().unwrap();
    assert!(
        last.starts_with("at least ") && last.contains("interrupted"),
        "{text}"
    );
    for l in rated {
        assert!(
            l.ends_with(" extreme") && !l.starts_with("at least"),
            "{text}"
        );
    }
    assert!(err.contains("interrupted: "), "{err}");
}

/// `export --json` writes the JSON problem `dancer solve` reads, with the
/// one solution the puzzle has.
#[test]
fn export_json_is_a_problem_solve_reads() {
    let dir = tempfile::tempdir().unwrap();
    let json = stdout(&["sudoku", "export", "--json", EASY], 0);
    let v: Value = serde_json::from_str(json.trim()).expect("one JSON document");
    assert!(
        v["primary"].as_array().is_some_and(|a| !a.is_empty()),
        "{v}"
    );
    assert!(
        v["options"].as_array().is_some_and(|a| !a.is_empty()),
        "{v}"
    );
    let file = dir.path().join("p.json");
    std::fs::write(&file, &json).unwrap();
    let out = stdout(&["solve", "--count", "--verify", file.to_str().unwrap()], 0);
    assert_eq!(out.trim(), "1", "{out}");
    let dlx = stdout(&["sudoku", "export", EASY], 0);
    assert!(!dlx.trim_start().starts_with('{'), "{dlx}");
}
