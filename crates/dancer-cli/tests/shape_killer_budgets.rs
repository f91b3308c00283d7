//! `rate` and `hint` with `--shape` or `--killer` under one budget: the
//! check that a puzzle has one solution (a count to two) runs under the
//! same `--timeout` and the same Ctrl-C/SIGTERM as the steps, so that a
//! puzzle whose count is long ends at its timeout, reported as a rating
//! stopped early, and a signal ends it at once with exit 130.
//!
//! The long count: one 16x16 grid as a shape of its own, with line 14 of
//! the shared 16x16 set as its givens. Its count to two on the shape's
//! exact cover ran 158 to 216 s (release build) before the count had a
//! budget; a count stopped by its budget ends in milliseconds.

#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::Duration;

/// Line 14 of `data/sudoku/16x16_test20.txt`: unique.
const GRID16: &str = "2G.........8B.75..7....6.4...A..498.2...5A..1...5..1C9E.3B............D.B.5..3.......A...3.984..B7..5.1.....A....31...8....492.7.2C.......DA.6...6..42.8....5.91...........7.......7.D5.9C.3....1A.3B...2..5...4..48...7C..6.9.3..2...A.89.....6....94........2.";

/// What no run here may pass: far more than a budget of 2 s needs, far
/// less than the count without one took.
const GUARD: Duration = Duration::from_secs(60);

/// A shape file of one 16x16 grid, and a file of its puzzle.
fn one_grid_16(dir: &Path) -> (PathBuf, PathBuf) {
    let shape = common::write(dir, "one16.txt", b"size 16\ngrid 0 0\n");
    let puzzle = common::write(dir, "p14.txt", format!("{GRID16}\n").as_bytes());
    (shape, puzzle)
}

/// `dancer ARGS` run in `dir` to its end, for at most [`GUARD`]: its exit
/// code, standard output and standard error.
fn run_guarded(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let mut child = common::spawn(dir, args, Stdio::null());
    finish(&mut child, GUARD, "dancer ran past its --timeout by far")
}

/// `child`'s exit code, standard output and standard error, once it ends
/// within `within` (else the test fails, saying `why`).
fn finish(child: &mut Child, within: Duration, why: &str) -> (Option<i32>, String, String) {
    // read the pipes as they come, so that dancer never waits on them
    let out = child.stdout.take();
    let err = child.stderr.take();
    let out = std::thread::spawn(move || common::rest_of(out));
    let err = std::thread::spawn(move || common::rest_of(err));
    let status = common::wait_within(child, within, why);
    (status.code(), out.join().unwrap(), err.join().unwrap())
}

/// `dancer ARGS` in `dir`, sent SIGINT once it has run `ms` milliseconds:
/// what it ended with, within a few seconds of the signal.
fn interrupted(dir: &Path, args: &[&str], ms: u64) -> (Option<i32>, String, String) {
    let mut child = common::spawn(dir, args, Stdio::null());
    std::thread::sleep(Duration::from_millis(ms));
    // SAFETY: kill(2) on our child's pid with a valid signal number.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(sent, 0);
    finish(
        &mut child,
        Duration::from_secs(10),
        "dancer did not answer SIGINT within 10 s",
    )
}

#[test]
fn rate_shape_ends_at_its_timeout_in_the_uniqueness_check() {
    let dir = tempfile::tempdir().unwrap();
    let (shape, puzzle) = one_grid_16(dir.path());
    let args = [
        "sudoku",
        "rate",
        "--shape",
        shape.to_str().unwrap(),
        "--timeout",
        "2",
        puzzle.to_str().unwrap(),
    ];
    let (code, out, err) = run_guarded(dir.path(), &args);
    assert_eq!(code, Some(0), "{err}");
    // reported as a rating stopped by its timeout: a lower bound
    assert_eq!(out.trim(), "at least 0.0 (timeout after 0 steps)", "{err}");
    assert!(err.contains("1 rating stopped early"), "{err}");
    // the same as a record
    let mut json = args.to_vec();
    json.push("--json");
    let (code, out, err) = run_guarded(dir.path(), &json);
    assert_eq!(code, Some(0), "{err}");
    let r: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(r["stopped"], "timeout", "{out}");
    assert_eq!(r["at_least"], 0.0, "{out}");
}

#[test]
fn hint_shape_ends_at_its_timeout_in_the_uniqueness_check() {
    let dir = tempfile::tempdir().unwrap();
    let (shape, puzzle) = one_grid_16(dir.path());
    let shape = shape.to_str().unwrap();
    let puzzle = puzzle.to_str().unwrap();
    let args = ["sudoku", "hint", "--shape", shape, "--timeout", "2", puzzle];
    let (code, out, err) = run_guarded(dir.path(), &args);
    assert_eq!(code, Some(1), "no hint: exit 1; {err}");
    assert_eq!(out, "No hint within the time allowed.\n", "{err}");
    let json = [
        "sudoku",
        "hint",
        "--shape",
        shape,
        "--timeout",
        "2",
        "--json",
        puzzle,
    ];
    let (code, out, err) = run_guarded(dir.path(), &json);
    assert_eq!(code, Some(1), "{err}");
    let r: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(r["status"], "stopped", "{out}");
    assert_eq!(r["message"], "no hint within the time allowed", "{out}");
}

#[test]
fn rate_shape_answers_sigint_with_130_during_the_uniqueness_check() {
    let dir = tempfile::tempdir().unwrap();
    let (shape, puzzle) = one_grid_16(dir.path());
    let args = [
        "sudoku",
        "rate",
        "--shape",
        shape.to_str().unwrap(),
        "--timeout",
        "none",
        puzzle.to_str().unwrap(),
    ];
    let (code, out, err) = interrupted(dir.path(), &args, 1500);
    assert_eq!(code, Some(130), "{err}");
    assert_eq!(
        out.trim(),
        "at least 0.0 (interrupted after 0 steps)",
        "{err}"
    );
    assert!(err.contains("interrupted: 1 puzzle answered"), "{err}");
}

#[test]
fn hint_shape_answers_sigint_with_130_during_the_uniqueness_check() {
    let dir = tempfile::tempdir().unwrap();
    let (shape, puzzle) = one_grid_16(dir.path());
    let args = [
        "sudoku",
        "hint",
        "--shape",
        shape.to_str().unwrap(),
        "--timeout",
        "none",
        puzzle.to_str().unwrap(),
    ];
    let (code, out, err) = interrupted(dir.path(), &args, 1500);
    assert_eq!(code, Some(130), "{err}");
    assert_eq!(out, "Interrupted before a hint was found.\n", "{err}");
}

/// A 4x4 killer with more than one solution (a cage per box, each 10).
const KILLER_SEVERAL: &str = "aabbaabbccddccdd 10,10,10,10";

/// A 4x4 killer with one solution (made by `generate --killer --size 4
/// --seed 1 --level easy`).
const KILLER_UNIQUE: &str = "aabcdefcgefhgijj 3,4,4,3,7,3,5,2,2,7";

#[test]
fn hint_killer_ends_at_its_timeout() {
    let dir = tempfile::tempdir().unwrap();
    // a timeout too short for anything: the count is stopped before it
    // starts (before the budget reached it, a hint had no time limit)
    let (code, out, err) = run_guarded(
        dir.path(),
        &[
            "sudoku",
            "hint",
            "--killer",
            "--timeout",
            "0.000001",
            KILLER_UNIQUE,
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(out, "No hint within the time allowed.\n", "{err}");
    // with time, the step
    let (code, out, err) = run_guarded(dir.path(), &["sudoku", "hint", "--killer", KILLER_UNIQUE]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.starts_with("No hint"), "{out}");
}

#[test]
fn rate_killer_counts_within_its_timeout() {
    let dir = tempfile::tempdir().unwrap();
    // stopped before the count could tell that it has several solutions
    let (code, out, err) = run_guarded(
        dir.path(),
        &[
            "sudoku",
            "rate",
            "--killer",
            "--timeout",
            "0.000001",
            KILLER_SEVERAL,
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.trim(), "at least 0.0 (timeout after 0 steps)", "{err}");
    assert!(err.contains("1 rating stopped early"), "{err}");
    // with time, the count says so
    let (code, out, err) = run_guarded(dir.path(), &["sudoku", "rate", "--killer", KILLER_SEVERAL]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(out.trim(), "not unique", "{err}");
}
