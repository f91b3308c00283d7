//! `dancer sudoku solve|count|check|generate|hint|rate --shape`: samurai,
//! twodoku and shapes of one's own; generated puzzles unique, answers
//! checked grid by grid by an independent checker here, bad shapes and
//! lines named with what is wrong.

use assert_cmd::Command;
use serde_json::Value;

fn dancer() -> Command {
    Command::cargo_bin("dancer").unwrap()
}

fn run(args: &[&str], code: i32) -> (String, String) {
    let o = dancer().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
    (String::from_utf8(o.stdout).unwrap(), err)
}

/// The samurai's grids' top-left cells on its 21x21 canvas.
const SAMURAI: [(usize, usize); 5] = [(0, 0), (0, 12), (6, 6), (12, 0), (12, 12)];

/// A samurai answer (its 369 cells in reading order) put on the canvas,
/// each grid checked: rows, columns and boxes hold 1-9 once; and the
/// givens kept. Written here, apart from the library.
fn check_samurai(puzzle: &str, answer: &str) {
    let mut live = [[false; 21]; 21];
    for &(r0, c0) in &SAMURAI {
        for r in 0..9 {
            for c in 0..9 {
                live[r0 + r][c0 + c] = true;
            }
        }
    }
    let mut canvas = [[0u8; 21]; 21];
    let mut given = [[0u8; 21]; 21];
    let (mut a, mut p) = (answer.bytes(), puzzle.bytes());
    for r in 0..21 {
        for c in 0..21 {
            if live[r][c] {
                canvas[r][c] = a.next().unwrap() - b'0';
                let g = p.next().unwrap();
                given[r][c] = if g == b'.' { 0 } else { g - b'0' };
            }
        }
    }
    assert!(a.next().is_none(), "369 cells");
    for &(r0, c0) in &SAMURAI {
        for i in 0..9 {
            let row: u32 = (0..9).map(|k| 1 << canvas[r0 + i][c0 + k]).sum();
            let col: u32 = (0..9).map(|k| 1 << canvas[r0 + k][c0 + i]).sum();
            let bx: u32 = (0..9)
                .map(|k| 1 << canvas[r0 + i / 3 * 3 + k / 3][c0 + i % 3 * 3 + k % 3])
                .sum();
            for m in [row, col, bx] {
                assert_eq!(m, 0b11_1111_1110, "grid at {r0},{c0}, unit {i}");
            }
        }
    }
    for r in 0..21 {
        for c in 0..21 {
            assert!(given[r][c] == 0 || given[r][c] == canvas[r][c]);
        }
    }
}

#[test]
fn samurai_puzzles_are_made_unique_solved_and_checked() {
    let (out, _) = run(
        &[
            "sudoku", "generate", "--shape", "samurai", "--count", "2", "--seed", "3", "--json",
        ],
        0,
    );
    assert_eq!(out.lines().count(), 2);
    for l in out.lines() {
        let r: Value = serde_json::from_str(l).unwrap();
        let puzzle = r["puzzle"].as_str().unwrap();
        assert_eq!(puzzle.len(), 369);
        check_samurai(puzzle, r["solution"].as_str().unwrap());
        let (count, _) = run(&["sudoku", "count", "--shape", "samurai", puzzle], 0);
        assert_eq!(count.trim(), "1");
        let (solved, _) = run(&["sudoku", "solve", "--shape", "samurai", puzzle], 0);
        assert_eq!(solved.trim(), r["solution"].as_str().unwrap());
        check_samurai(puzzle, solved.trim());
        let (checked, _) = run(&["sudoku", "check", "--shape", "samurai", puzzle], 0);
        assert_eq!(checked.trim(), "unique");
        // a hint agrees with the solution
        let (h, _) = run(
            &["sudoku", "hint", "--shape", "samurai", "--json", puzzle],
            0,
        );
        let h: Value = serde_json::from_str(&h).unwrap();
        let sol = r["solution"].as_str().unwrap().as_bytes();
        let cells: Vec<(usize, usize)> = (0..21)
            .flat_map(|r| (0..21).map(move |c| (r, c)))
            .filter(|&(r, c)| {
                SAMURAI
                    .iter()
                    .any(|&(r0, c0)| r >= r0 && r < r0 + 9 && c >= c0 && c < c0 + 9)
            })
            .collect();
        let digit_at = |name: &str| {
            let (r, c) = name[1..].split_once('c').unwrap();
            let rc = (
                r.parse::<usize>().unwrap() - 1,
                c.parse::<usize>().unwrap() - 1,
            );
            sol[cells.iter().position(|&x| x == rc).unwrap()] - b'0'
        };
        for p in h["placements"].as_array().unwrap() {
            assert_eq!(
                digit_at(p["cell"].as_str().unwrap()) as u64,
                p["digit"].as_u64().unwrap()
            );
        }
        for e in h["eliminations"].as_array().unwrap() {
            assert_ne!(
                digit_at(e["cell"].as_str().unwrap()) as u64,
                e["digit"].as_u64().unwrap()
            );
        }
        let (rated, _) = run(&["sudoku", "rate", "--shape", "samurai", puzzle], 0);
        assert!(!rated.trim().is_empty());
    }
    // the empty samurai has many solutions
    let (two, _) = run(
        &[
            "sudoku",
            "count",
            "--shape",
            "samurai",
            "--limit",
            "2",
            &".".repeat(369),
        ],
        0,
    );
    assert_eq!(two.trim(), "2");
}

#[test]
fn a_shape_file_of_ones_own() {
    let dir = tempfile::tempdir().unwrap();
    let shape = dir.path().join("pair.txt");
    std::fs::write(
        &shape,
        "# two 4x4 grids sharing a box\nsize 4\ngrid 0 0\ngrid 2 2\n",
    )
    .unwrap();
    let s = shape.to_str().unwrap();
    let (out, _) = run(
        &[
            "sudoku", "generate", "--shape", s, "--seed", "1", "--count", "3",
        ],
        0,
    );
    for l in out.lines() {
        assert_eq!(l.len(), 28);
        let (c, _) = run(&["sudoku", "count", "--shape", s, l], 0);
        assert_eq!(c.trim(), "1");
    }
    // the pretty picture leaves the corners empty
    let first = out.lines().next().unwrap();
    let (pic, _) = run(&["sudoku", "solve", "--shape", s, "--pretty", first], 0);
    let rows: Vec<&str> = pic.lines().take(6).collect();
    assert_eq!(rows[0].len(), 4);
    assert!(rows[5].starts_with("  "), "{pic}");
}

#[test]
fn bad_shapes_and_lines_say_where_and_what() {
    let (_, err) = run(&["sudoku", "count", "--shape", "octopus", "1"], 2);
    assert!(err.contains("unknown shape \"octopus\""), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let shape = dir.path().join("bad.txt");
    std::fs::write(&shape, "grid 0 0\ngrid 0 huge\n").unwrap();
    let (_, err) = run(
        &["sudoku", "count", "--shape", shape.to_str().unwrap(), "1"],
        2,
    );
    assert!(err.contains("bad.txt: line 2:"), "{err}");
    let puzzles = dir.path().join("p.txt");
    std::fs::write(&puzzles, format!("{}\n123\n", ".".repeat(153))).unwrap();
    let (out, err) = run(
        &[
            "sudoku",
            "count",
            "--shape",
            "twodoku",
            "--limit",
            "1",
            puzzles.to_str().unwrap(),
        ],
        2,
    );
    assert!(
        err.contains("p.txt:2: invalid puzzle: the puzzle has 3 cells"),
        "{err}"
    );
    assert_eq!(out.lines().next(), Some("1"));
    let (_, err) = run(
        &["sudoku", "count", "--shape", "samurai", "--killer", "x"],
        2,
    );
    assert!(err.contains("cannot be used with"), "{err}");
}

/// `generate --shape --timeout`: a windmill takes about 12 s here, so one
/// second makes none: exit 1, saying so. `rate --shape --timeout` gives
/// lower bounds.
#[test]
fn timeout_bounds_shape_generation_and_ratings() {
    let (out, err) = run(
        &[
            "sudoku",
            "generate",
            "--shape",
            "windmill",
            "--seed",
            "1",
            "--timeout",
            "1",
        ],
        1,
    );
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("0 of 1 made: the time allowed (1 s, --timeout) ran out"),
        "{err}"
    );
    let (made, _) = run(
        &[
            "sudoku", "generate", "--shape", "twodoku", "--count", "2", "--seed", "3",
        ],
        0,
    );
    let lines: Vec<&str> = made.lines().collect();
    assert_eq!(lines.len(), 2);
    for l in lines {
        let (at_least, err) = run(
            &[
                "sudoku",
                "rate",
                "--shape",
                "twodoku",
                "--timeout",
                "0.000001",
                l,
            ],
            0,
        );
        assert!(at_least.starts_with("at least "), "{at_least}");
        assert!(at_least.contains("(timeout after "), "{at_least}");
        assert!(err.contains("1 rating stopped early"), "{err}");
        let (full, _) = run(&["sudoku", "rate", "--shape", "twodoku", l], 0);
        assert!(!full.starts_with("at least"), "{full}");
    }
}

/// `generate --shape --size`: the shape gives the grids' size; a `--size`
/// that is not the shape's is refused (exit 2, saying why), never ignored;
/// the shape's own is taken.
#[test]
fn generate_shape_refuses_a_size_that_is_not_the_shapes() {
    let (out, err) = run(
        &[
            "sudoku", "generate", "--shape", "twodoku", "--size", "16", "--seed", "1",
        ],
        2,
    );
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("--size 16: twodoku is a built-in shape of 9x9 grids"),
        "{err}"
    );
    let dir = tempfile::tempdir().unwrap();
    let shape = dir.path().join("pair.txt");
    std::fs::write(&shape, "size 4\ngrid 0 0\ngrid 2 2\n").unwrap();
    let s = shape.to_str().unwrap();
    let (_, err) = run(
        &[
            "sudoku", "generate", "--shape", s, "--size", "9", "--seed", "1",
        ],
        2,
    );
    assert!(
        err.contains("--size 9: the shape file") && err.contains("is of 4x4 grids"),
        "{err}"
    );
    let (out, _) = run(
        &[
            "sudoku", "generate", "--shape", s, "--size", "4", "--seed", "1",
        ],
        0,
    );
    assert_eq!(out.trim().len(), 28, "{out}");
    let (out, _) = run(
        &[
            "sudoku", "generate", "--shape", "twodoku", "--size", "9", "--seed", "1",
        ],
        0,
    );
    assert_eq!(out.trim().len(), 153, "{out}");
}
