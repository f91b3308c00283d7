//! Threads, checkpoints (killed with SIGKILL and resumed), shards and merge,
//! interrupts, progress lines.

use assert_cmd::Command;
use predicates::prelude::*;
use std::process::Stdio;
use std::time::Duration;

fn dancer() -> Command {
    Command::cargo_bin("dancer").unwrap()
}

/// `dancer solve --count --json --engine dlx`, before more flags.
const COUNT_JSON_DLX: [&str; 5] = ["solve", "--count", "--json", "--engine", "dlx"];

fn gen(args: &[&str]) -> Vec<u8> {
    let out = dancer().arg("gen").args(args).output().unwrap();
    assert!(out.status.success());
    out.stdout
}

fn summary(stdout: &[u8]) -> serde_json::Value {
    let text = String::from_utf8(stdout.to_vec()).unwrap();
    serde_json::from_str(text.lines().last().unwrap()).unwrap()
}

/// The summary of a run that succeeded (else its standard error).
fn success_summary(out: &std::process::Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    summary(&out.stdout)
}

/// `dancer solve --count --engine dlx --shard SHARD --shard-out OUT` of
/// `problem`, which must succeed.
fn solve_shard(shard: &str, out: &std::path::Path, problem: Vec<u8>) {
    dancer()
        .args([
            "solve",
            "--count",
            "--engine",
            "dlx",
            "--shard",
            shard,
            "--shard-out",
        ])
        .arg(out)
        .write_stdin(problem)
        .assert()
        .success();
}

/// `dancer merge PARTS`, refused with a message containing `says`.
fn merge_refused<P: AsRef<std::ffi::OsStr>>(parts: &[P], says: &str) {
    dancer()
        .arg("merge")
        .args(parts)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(says));
}

#[test]
fn threads_and_engines_agree_exactly() {
    let q = gen(&["queens", "10"]);
    for engine in ["dlx", "bitset", "auto"] {
        let mut first: Option<(u64, u64)> = None;
        for threads in ["1", "2", "3", "8"] {
            let out = dancer()
                .args([
                    "solve",
                    "--count",
                    "--json",
                    "--engine",
                    engine,
                    "--threads",
                    threads,
                ])
                .write_stdin(q.clone())
                .output()
                .unwrap();
            let s = summary(&out.stdout);
            assert_eq!(s["solutions"], 724, "{engine} {threads}");
            assert_eq!(s["complete"], true);
            let key = (s["nodes"].as_u64().unwrap(), s["updates"].as_u64().unwrap());
            if engine == "dlx" {
                assert_eq!(
                    key,
                    (11578, 198264),
                    "Knuth's figures with {threads} threads"
                );
            }
            assert_eq!(
                *first.get_or_insert(key),
                key,
                "{engine}: same work for every thread count"
            );
        }
    }
}

#[test]
fn ordered_output_is_the_sequential_order() {
    let q = gen(&["queens", "8"]);
    let one = dancer()
        .args(["solve", "--json", "--engine", "dlx", "--threads", "1"])
        .write_stdin(q.clone())
        .output()
        .unwrap();
    let many = dancer()
        .args([
            "solve",
            "--json",
            "--engine",
            "dlx",
            "--threads",
            "4",
            "--ordered",
        ])
        .write_stdin(q)
        .output()
        .unwrap();
    let strip = |b: &[u8]| -> Vec<String> {
        String::from_utf8(b.to_vec())
            .unwrap()
            .lines()
            .filter(|l| l.contains("\"solution\""))
            .map(String::from)
            .collect()
    };
    assert_eq!(strip(&one.stdout), strip(&many.stdout));
    assert_eq!(strip(&one.stdout).len(), 92);
}

#[test]
fn shards_merge_to_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let q = gen(&["queens", "10"]);
    let n = 3;
    let mut files = Vec::new();
    for k in 1..=n {
        let f = dir.path().join(format!("part{k}.json"));
        solve_shard(&format!("{k}/{n}"), &f, q.clone());
        files.push(f);
    }
    let out = dancer()
        .args(["merge", "--json"])
        .args(&files)
        .output()
        .unwrap();
    let s = success_summary(&out);
    assert_eq!(s["type"], "summary");
    assert_eq!(
        (
            s["solutions"].as_u64(),
            s["nodes"].as_u64(),
            s["updates"].as_u64()
        ),
        (Some(724), Some(11578), Some(198264))
    );
    assert_eq!(s["complete"], true);
    // a missing shard, a duplicate, a different problem: refused
    merge_refused(&files[..2], "missing shards of 3: 3");
    merge_refused(
        &[&files[0], &files[1], &files[2], &files[1]],
        "appears twice",
    );
    let other = dir.path().join("other.json");
    solve_shard("3/3", &other, gen(&["queens", "9"]));
    merge_refused(&[&files[0], &files[1], &other], "different problem");
    for shard in ["0/3", "4/3"] {
        dancer()
            .args(["solve", "--shard", shard])
            .write_stdin(q.clone())
            .assert()
            .code(2);
    }
}

/// A run killed with SIGKILL and resumed ends with the uninterrupted count
/// (and the same nodes and updates).
#[test]
fn checkpoint_survives_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let problem = dir.path().join("q.dlx");
    std::fs::write(&problem, gen(&["queens", "13"])).unwrap();
    let whole = dancer()
        .args(COUNT_JSON_DLX)
        .args(["--threads", "1"])
        .arg(&problem)
        .output()
        .unwrap();
    let whole = summary(&whole.stdout);
    let ck = dir.path().join("run.ck");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dancer"))
        .args([
            "solve",
            "--count",
            "--engine",
            "dlx",
            "--threads",
            "2",
            "--checkpoint-every",
            "0.02",
            "--checkpoint",
        ])
        .arg(&ck)
        .arg(&problem)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // kill it once a checkpoint exists (or it has finished)
    for _ in 0..200 {
        if ck.exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(30));
    let _ = child.kill(); // SIGKILL
    let _ = child.wait();
    assert!(ck.exists(), "a checkpoint was written");
    let out = dancer()
        .args(COUNT_JSON_DLX)
        .args(["--threads", "2", "--resume"])
        .arg(&ck)
        .arg(&problem)
        .output()
        .unwrap();
    let s = success_summary(&out);
    assert_eq!(s["solutions"], 73712);
    assert_eq!(s["solutions"], whole["solutions"]);
    assert_eq!(s["nodes"], whole["nodes"]);
    assert_eq!(s["updates"], whole["updates"]);
    assert_eq!(s["complete"], true);
    // resuming a finished checkpoint changes nothing
    let again = dancer()
        .args(COUNT_JSON_DLX)
        .arg("--resume")
        .arg(&ck)
        .arg(&problem)
        .output()
        .unwrap();
    assert_eq!(summary(&again.stdout)["solutions"], 73712);
    // a checkpoint of another problem, or another engine, is refused
    dancer()
        .args(["solve", "--count", "--engine", "dlx", "--resume"])
        .arg(&ck)
        .write_stdin(gen(&["queens", "12"]))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("different problem"));
    dancer()
        .args(["solve", "--count", "--engine", "bitset", "--resume"])
        .arg(&ck)
        .arg(&problem)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--engine dlx"));
}

#[test]
fn interrupt_prints_what_was_found() {
    let dir = tempfile::tempdir().unwrap();
    let problem = dir.path().join("q.dlx");
    std::fs::write(&problem, gen(&["queens", "16"])).unwrap();
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dancer"))
        .args([
            "solve",
            "--json",
            "--count",
            "--engine",
            "dlx",
            "--threads",
            "2",
        ])
        .arg(&problem)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let _ = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let out = child.wait_with_output().unwrap();
    let s = summary(&out.stdout);
    assert_eq!(s["complete"], false);
    assert!(s["solutions"].as_u64().unwrap() > 0);
    assert!(String::from_utf8_lossy(&out.stderr).contains("interrupted"));
}

#[test]
fn progress_as_json_lines() {
    // a search far longer than the two progress lines (one a second) read
    // here, whatever the machine's speed; then Ctrl-C
    use std::io::{BufRead, BufReader, Write};
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("queens-16.dlx");
    std::fs::File::create(&file)
        .unwrap()
        .write_all(&gen(&["queens", "16"]))
        .unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dancer"))
        .args(["solve", "--count", "--engine", "dlx", "--threads", "1"])
        .args(["--progress", "json"])
        .arg(&file)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut lines: Vec<serde_json::Value> = Vec::new();
    while lines.len() < 2 {
        let mut line = String::new();
        if err.read_line(&mut line).unwrap() == 0 {
            break;
        }
        if line.starts_with('{') {
            lines.push(serde_json::from_str(&line).unwrap());
        }
    }
    // SAFETY: kill(2) on our child's pid with a valid signal number.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(sent, 0, "SIGINT sent");
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "interrupted");
    assert_eq!(lines.len(), 2, "two progress lines came before the end");
    let mut last = 0.0;
    for l in &lines {
        assert_eq!(l["type"], "progress");
        let f = l["fraction"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&f));
        assert!(f + 1e-9 >= last, "the fraction does not go back");
        last = f;
    }
    assert!(lines[1]["nodes"].as_u64().unwrap() > lines[0]["nodes"].as_u64().unwrap());
}
