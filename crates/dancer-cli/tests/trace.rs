//! `dancer solve --trace`: the steps of the dancing-links search.
//!
//! * Against Knuth's DLX1 and DLX2: on every problem of `tests/knuth/`, the `Level`
//!   and `L` lines are those his programs printed at their verbose level (recorded
//!   there), and the nodes and updates their last line gave.
//! * `--json`: one record per step, a solution record after each solution
//!   step (checked by the independent checker), the options tried equal to
//!   the nodes less the root, hides and unhides in pairs, and the summary.
//! * `--trace-limit`: exactly that many steps, and the summary says where
//!   it stopped; a signal stops a trace with exit 130.
//! * What it refuses: another engine, multiplicities, `--count`.

use assert_cmd::Command;
use dancer_formats::ndjson::SolveRecord;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

fn dancer() -> Command {
    Command::cargo_bin("dancer").unwrap()
}

fn knuth_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/knuth")
}

fn problems() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(knuth_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "dlx"))
        .collect();
    v.sort();
    assert!(v.len() >= 5, "the recorded problems are there");
    v
}

/// A figure of DLX1's last line: `Altogether 1 solution, ..., 29 updates,
/// ..., 6 nodes, ...`.
fn figure(line: &str, what: &str) -> u64 {
    let at = line.find(&format!(" {what}")).unwrap();
    let head = &line[..at];
    head[head.rfind(' ').unwrap() + 1..].parse().unwrap()
}

#[test]
fn the_choices_and_tries_are_knuths_line_for_line() {
    for path in problems() {
        let recorded = std::fs::read_to_string(path.with_extension("txt")).unwrap();
        let mut want: Vec<&str> = recorded.lines().collect();
        let last = want.pop().unwrap();
        assert!(last.starts_with("Altogether"), "{last}");
        let out = dancer()
            .arg("solve")
            .arg("--trace")
            .arg(&path)
            .output()
            .unwrap();
        let code = out.status.code().unwrap();
        assert!(code == 0 || code == 1, "{}: exit {code}", path.display());
        let stdout = String::from_utf8(out.stdout).unwrap();
        let ours: Vec<&str> = stdout
            .lines()
            .filter(|l| l.starts_with("Level ") || (l.starts_with('L') && l.ends_with(')')))
            .collect();
        assert_eq!(ours, want, "{}", path.display());
        let stderr = String::from_utf8(out.stderr).unwrap();
        let nodes = figure(last, "nodes");
        let updates = figure(last, "updates");
        assert!(
            stderr.contains(&format!(" {nodes} nodes ({} options tried)", nodes - 1)),
            "{}: {stderr} against {last}",
            path.display()
        );
        assert!(stderr.contains(&format!(" {updates} updates")), "{stderr}");
        // the other steps are printed too, in pairs
        let count = |prefix: &str| stdout.lines().filter(|l| l.starts_with(prefix)).count();
        assert_eq!(count("  cover "), count("  uncover "), "{}", path.display());
        assert_eq!(
            count("    hide "),
            count("    unhide "),
            "{}",
            path.display()
        );
        assert!(count("  cover ") > 0);
    }
}

/// The records of a traced run.
fn json_run(path: &Path, extra: &[&str]) -> (Vec<SolveRecord>, i32) {
    let out = dancer()
        .args(["solve", "--trace", "--json"])
        .args(extra)
        .arg(path)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let records = text
        .lines()
        .map(|l| serde_json::from_str::<SolveRecord>(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    (records, out.status.code().unwrap())
}

#[test]
fn json_records_step_by_step() {
    for path in problems() {
        let text = std::fs::read_to_string(&path).unwrap();
        let problem = dancer_formats::dlx::read_str(&text, "p.dlx")
            .unwrap()
            .problem;
        let (records, _) = json_run(&path, &[]);
        let (mut tries, mut hides, mut unhides, mut solutions) = (0u64, 0, 0, 0u64);
        let mut last_solution_step = None;
        for (i, r) in records.iter().enumerate() {
            match r {
                SolveRecord::Step(s) => {
                    assert_eq!(s.step as usize, i + 1 - solutions as usize);
                    match s.action.as_str() {
                        "try" => {
                            tries += 1;
                            let (k, n) = (s.k.unwrap(), s.n.unwrap());
                            assert!(1 <= k && k <= n, "{s:?}");
                        }
                        "hide" => hides += 1,
                        "unhide" => unhides += 1,
                        "solution" => last_solution_step = Some(s.options.clone().unwrap()),
                        _ => {}
                    }
                }
                SolveRecord::Solution { options } => {
                    // right after its step, and a solution indeed
                    assert_eq!(last_solution_step.take().as_ref(), Some(options));
                    dancer_core::verify(&problem, options).unwrap();
                    solutions += 1;
                }
                SolveRecord::Summary {
                    solutions: n,
                    nodes,
                    complete,
                    trace,
                    ..
                } => {
                    assert_eq!(i + 1, records.len(), "the summary comes last");
                    assert_eq!(n.to_u64(), Some(solutions));
                    assert_eq!(*nodes, tries + 1, "{}", path.display());
                    assert!(complete);
                    let trace = trace.as_ref().unwrap();
                    assert_eq!(trace.steps as usize, records.len() - 1 - solutions as usize);
                    assert!(!trace.at_limit && trace.node.is_none());
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(hides, unhides, "{}", path.display());
        assert!(last_solution_step.is_none());
    }
}

#[test]
fn a_trace_stops_at_its_limit_and_says_where() {
    let path = knuth_dir().join("queens6.dlx");
    let out = dancer()
        .args(["solve", "--trace", "--trace-limit", "40"])
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 40);
    let stderr = String::from_utf8(out.stderr).unwrap();
    let tries = stdout
        .lines()
        .filter(|l| l.ends_with(')') && l.starts_with('L') && !l.starts_with("Level"))
        .count();
    assert!(
        stderr.contains(&format!("{} nodes", tries + 1))
            && stderr.contains("the trace stopped at its limit, in node"),
        "{stderr}"
    );
    // no solution among the first 40 steps of the 6 queens, but the trace
    // asked for was printed: 0, as a --limit reached (1 says "none" of a
    // complete search only)
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let (records, _) = json_run(&path, &["--trace-limit", "40"]);
    assert_eq!(records.len(), 41);
    match records.last().unwrap() {
        SolveRecord::Summary {
            complete,
            stopped,
            trace,
            ..
        } => {
            assert!(!complete);
            assert_eq!(*stopped, Some(dancer_core::parallel::Stop::Limit));
            let t = trace.as_ref().unwrap();
            assert!(t.at_limit);
            assert_eq!(t.steps, 40);
            assert_eq!(t.node, Some(tries as u64 + 1));
            assert!(t.level.is_some());
        }
        other => panic!("{other:?}"),
    }
}

/// `--limit 1` stops at the first solution, and counts it.
#[test]
fn the_solution_a_limit_stops_at_is_counted() {
    let toy = knuth_dir().join("toy.dlx");
    let out = dancer()
        .args(["solve", "--trace", "--limit", "1", "--stats"])
        .arg(&toy)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("1 solution, "), "{err}");
    assert!(err.contains("nodes per level:"), "{err}");
    let (records, code) = json_run(&toy, &["--limit", "1", "--stats"]);
    assert_eq!(code, 0);
    let steps = records.len() - 2; // the solution's record and the summary
    match records.last().unwrap() {
        SolveRecord::Summary {
            solutions,
            nodes,
            updates,
            profile,
            trace,
            ..
        } => {
            assert_eq!(solutions.to_u64(), Some(1));
            let t = trace.as_ref().unwrap();
            assert_eq!(t.steps as usize, steps, "the solution's step is counted");
            // the counters of the steps printed: the toy's first solution
            // is at its last node, before the search backs up
            assert_eq!(*nodes, 6);
            assert_eq!(profile.as_ref().unwrap().iter().sum::<u64>(), 6);
            assert!(
                *updates > 0 && *updates < 30,
                "{updates}: not the whole search's"
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_solution_limit_stops_a_trace_at_that_solution() {
    let path = knuth_dir().join("queens6.dlx");
    let (records, code) = json_run(&path, &["--limit", "2"]);
    assert_eq!(code, 0);
    let sols = records
        .iter()
        .filter(|r| matches!(r, SolveRecord::Solution { .. }))
        .count();
    assert_eq!(sols, 2);
    assert!(matches!(
        records[records.len() - 2],
        SolveRecord::Solution { .. }
    ));
}

#[test]
fn what_a_trace_refuses() {
    let toy = knuth_dir().join("toy.dlx");
    let out = dancer()
        .args(["solve", "--trace", "--engine", "bitset"])
        .arg(&toy)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--trace follows the dlx engine"), "{err}");
    let out = dancer()
        .args(["solve", "--trace", "--count"])
        .arg(&toy)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let dir = tempfile::tempdir().unwrap();
    let multi = dir.path().join("m.dlx");
    std::fs::write(&multi, "2:2|a b\na\na b\nb\n").unwrap();
    let out = dancer()
        .args(["solve", "--trace"])
        .arg(&multi)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("m.dlx: --trace follows Knuth's dancing links, which take no multiplicities"),
        "{err}"
    );
    for flags in [
        &["--threads", "2"][..],
        &["--progress", "json"],
        &["--zdd", "z.zdd"],
        &["--shard-out", "s.json"],
        &["--checkpoint-every", "3"],
    ] {
        let out = dancer()
            .args(["solve", "--trace"])
            .args(flags)
            .arg(&toy)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{flags:?} is refused, not ignored"
        );
    }
    let out = dancer()
        .args(["solve", "--trace-limit", "3"])
        .arg(&toy)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "--trace-limit needs --trace");
}

/// Ctrl-C stops a long trace: exit 130, the steps so far printed whole.
#[cfg(unix)]
#[test]
fn a_signal_stops_a_trace() {
    let q = dancer().args(["gen", "queens", "16"]).output().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("q.dlx");
    std::fs::write(&path, &q.stdout).unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dancer"))
        .args(["solve", "--trace", "--json"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert!(first.contains("\"type\":\"step\""), "{first}");
    let ok = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let start = Instant::now();
    let mut rest = String::new();
    let mut line = String::new();
    while out.read_line(&mut line).unwrap() > 0 {
        rest.push_str(&line);
        line.clear();
        assert!(start.elapsed() < Duration::from_secs(60), "it stopped");
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let last = rest.lines().last().unwrap();
    let summary: SolveRecord = serde_json::from_str(last).unwrap();
    match summary {
        SolveRecord::Summary { stopped, .. } => {
            assert_eq!(stopped, Some(dancer_core::parallel::Stop::Interrupted))
        }
        other => panic!("{other:?}"),
    }
}
