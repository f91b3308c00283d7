//! `dancer sudoku`: output per puzzle, NDJSON, exit codes, bad input.

mod common;

use common::{dancer, records, solve_count, stdout_ok};
use predicates::prelude::*;

const P: &str = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const S: &str = "812753649943682175675491283154237896369845721287169534521974368438526917796318452";
const MULTI: &str =
    "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
const NONE: &str =
    "12345678.........9...............................................................";

/// `dancer ARGS`, with `input` on standard input where there is one.
fn dancer_with(args: &[&str], input: Option<String>) -> assert_cmd::assert::Assert {
    let mut cmd = dancer();
    cmd.args(args);
    if let Some(input) = input {
        cmd.write_stdin(input);
    }
    cmd.assert()
}

/// `dancer ARGS` (with `input` on standard input, if any): exit `code`,
/// and exactly `stdout` on standard output.
fn prints(args: &[&str], input: Option<String>, code: i32, stdout: &str) {
    dancer_with(args, input)
        .code(code)
        .stdout(stdout.to_string());
}

#[test]
fn solve_one_line_per_puzzle_in_order() {
    let input = format!("# comment\n{P}\n{MULTI}\n{NONE}\n{}\n{P}\n", &P[1..]);
    dancer()
        .args(["sudoku", "solve", "--threads", "2"])
        .write_stdin(input)
        .assert()
        .code(2)
        .stdout(format!(
            "{S}\nmultiple\nnone\ninvalid: wrong length: 80 cells, expected 81 (9x9), or 16, 36, 64, 100, 144, 256, 400 or 625; use --box RxC for other shapes\n{S}\n"
        ))
        .stderr(predicate::str::contains("<stdin>:5: invalid puzzle: wrong length: 80 cells"))
        .stderr(predicate::str::contains("5 puzzles in"));
}

#[test]
fn solve_json() {
    let out = dancer()
        .args(["sudoku", "solve", "--json"])
        .write_stdin(format!("{P}\n{MULTI}\n{NONE}\n88{}\n", &P[2..]))
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    let v = records(&String::from_utf8(out).unwrap());
    assert_eq!(v.len(), 4);
    assert_eq!(v[0]["status"], "unique");
    assert_eq!(v[0]["solution"], S);
    assert_eq!(v[0]["line"], 1);
    assert_eq!(v[1]["status"], "multiple");
    assert_eq!(v[1]["solutions"].as_array().unwrap().len(), 2);
    assert_ne!(v[1]["solutions"][0], v[1]["solutions"][1]);
    assert_eq!(v[2]["status"], "none");
    assert_eq!(v[3]["status"], "invalid");
    assert_eq!(v[3]["error"], "two 8s in row 1: r1c1 and r1c2");
}

#[test]
fn exit_codes() {
    let solved = format!("{S}\n");
    for (args, code, stdout) in [
        (["sudoku", "solve", P], 0, solved.as_str()),
        (["sudoku", "solve", NONE], 1, "none\n"),
        (["sudoku", "solve", MULTI], 0, "multiple\n"),
        (["sudoku", "check", P], 0, "unique\n"),
        (["sudoku", "check", MULTI], 1, "multiple\n"),
        (["sudoku", "check", NONE], 1, "none\n"),
    ] {
        prints(&args, None, code, stdout);
    }
    for (args, input) in [
        (&["sudoku", "solve", "no-such-file.txt"][..], None),
        (&["sudoku", "solve", "--box", "2x"], Some(P.to_string())),
        (&["sudoku", "solve", "--engine", "nope", P], None),
    ] {
        dancer_with(args, input).code(2);
    }
    dancer()
        .args(["sudoku", "solve", "--engine", "fast9", "--box", "2x3"])
        .write_stdin(".".repeat(36))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("fast9 solves plain 9x9"));
}

#[test]
fn count_with_limit() {
    prints(
        &["sudoku", "count"],
        Some(format!("{P}\n{NONE}\n{}\n", ".".repeat(16))),
        1,
        "1\n0\n288\n",
    );
    prints(
        &["sudoku", "count", "--limit", "10"],
        Some(format!("{MULTI}\n{}\n", ".".repeat(16))),
        0,
        "10\n10\n",
    );
    let out = dancer()
        .args(["sudoku", "count", "--limit", "10", "--json"])
        .write_stdin(".".repeat(16))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["count"], 10);
    assert_eq!(v["complete"], false);
}

#[test]
fn grid_input_and_pretty() {
    let grid = "8 . . | . . . | . . .\n. . 3 | 6 . . | . . .\n. 7 . | . 9 . | 2 . .\n------+-------+------\n. 5 . | . . 7 | . . .\n. . . | . 4 5 | 7 . .\n. . . | 1 . . | . 3 .\n------+-------+------\n. . 1 | . . . | . 6 8\n. . 8 | 5 . . | . 1 .\n. 9 . | . . . | 4 . .\n";
    prints(
        &["sudoku", "solve"],
        Some(grid.to_string()),
        0,
        &format!("{S}\n"),
    );
    dancer()
        .args(["sudoku", "solve", "--pretty", P])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("8 1 2 | 7 5 3 | 6 4 9\n"))
        .stdout(predicate::str::contains("------+-------+------"));
}

#[test]
fn sizes_and_variants() {
    // 4x4 and 6x6 (2x3 boxes, the default) and 3x2 boxes by flag
    dancer()
        .args(["sudoku", "count"])
        .write_stdin("1.3.....2..1.4..\n")
        .assert()
        .stdout(predicate::str::is_match("^[0-9]+\n$").unwrap());
    prints(
        &["sudoku", "count", "--limit", "3", "--box", "3x2"],
        Some(".".repeat(36)),
        0,
        "3\n",
    );
    // diagonal: a full grid that breaks the diagonal rule has no solution
    dancer()
        .args(["sudoku", "check", "-x", S])
        .assert()
        .code(2)
        .stdout(predicate::str::starts_with("invalid: two"));
    for rule in ["-x", "--windoku"] {
        prints(
            &["sudoku", "count", "--limit", "5", rule],
            Some(".".repeat(81)),
            0,
            "5\n",
        );
    }
    // jigsaw map on the command line
    let map = "AABB AABB CCDD CCDD";
    prints(
        &["sudoku", "count", "--jigsaw", map],
        Some(".".repeat(16)),
        0,
        "288\n",
    );
    dancer()
        .args(["sudoku", "count", "--jigsaw", "AAAB AABB CCDD CCDD"])
        .write_stdin(".".repeat(16))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("jigsaw region 'A' has 5 cells"));
    dancer()
        .args(["sudoku", "count", "--windoku", "--box", "2x2"])
        .write_stdin(".".repeat(16))
        .assert()
        .code(2);
}

#[test]
fn engines_agree_on_the_command_line() {
    for e in ["auto", "fast9", "logic", "dlx"] {
        prints(
            &["sudoku", "solve", "--engine", e],
            Some(format!("{P}\n{MULTI}\n{NONE}\n")),
            1,
            &format!("{S}\nmultiple\nnone\n"),
        );
    }
}

#[test]
fn export_is_dlx() {
    let text = stdout_ok(&["sudoku", "export", P]);
    assert!(text.starts_with("| sudoku 9x9:"));
    solve_count(text).code(0).stdout("1\n");
}
