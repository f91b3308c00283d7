//! Exit codes of runs that did not finish: a signal makes a search stop,
//! print what it found, and exit 130, so that a script can tell a partial
//! count from a complete one; a `--limit` that was reached exits 0 (the
//! solutions asked for were found), with the summary saying the count is a
//! lower bound.

#![cfg(unix)]

mod common;

use assert_cmd::Command;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

fn dancer() -> Command {
    Command::cargo_bin("dancer").unwrap()
}

/// 20 queens: 39 billion solutions, far more than a test can count.
fn long_problem() -> tempfile::NamedTempFile {
    let q = dancer().args(["gen", "queens", "20"]).output().unwrap();
    assert!(q.status.success());
    let f = tempfile::Builder::new().suffix(".dlx").tempfile().unwrap();
    std::fs::write(f.path(), &q.stdout).unwrap();
    f
}

fn kill(child: &Child, signal: &str) {
    let ok = std::process::Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success(), "kill -{signal} failed");
}

/// Waits for `path` to exist (a file a run writes once it is under way),
/// for at most a minute; `why` is the failure's message.
fn wait_for(path: &std::path::Path, why: &str) {
    wait_until(|| path.exists(), why);
}

/// Waits until `done()`, for at most a minute; `why` is the failure's
/// message.
fn wait_until(done: impl Fn() -> bool, why: &str) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(60), "{why}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Waits for `child` to end, for at most a minute.
fn wait(child: &mut Child) -> std::process::ExitStatus {
    common::wait_within(
        child,
        Duration::from_secs(60),
        "dancer did not stop within a minute of the signal",
    )
}

/// `dancer ARGS` started, its standard output and error piped.
fn start<I, A>(args: I) -> Child
where
    I: IntoIterator<Item = A>,
    A: AsRef<std::ffi::OsStr>,
{
    common::spawn(std::path::Path::new("."), args, Stdio::null())
}

/// Waits for `child` (as [`wait`]): its exit status, standard output and
/// standard error (empty where it was not piped).
fn finish(child: &mut Child) -> (std::process::ExitStatus, String, String) {
    let status = wait(child);
    let out = common::rest_of(child.stdout.take());
    (status, out, common::rest_of(child.stderr.take()))
}

/// What an interrupted `dancer solve ARGS` printed: (exit code, standard
/// output, standard error). The signal is sent once the search runs (its
/// first progress record is out).
fn interrupt(args: &[&str], signal: &str) -> (Option<i32>, String, String) {
    let problem = long_problem();
    let mut all: Vec<&std::ffi::OsStr> = vec!["solve".as_ref()];
    all.extend(args.iter().map(std::ffi::OsStr::new));
    all.extend(["--progress", "json", "--threads", "2"].map(std::ffi::OsStr::new));
    all.push(problem.path().as_os_str());
    let mut child = start(all);
    // standard output is read as it comes, so that dancer never waits on it
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = String::new();
        stdout.read_to_string(&mut out).unwrap();
        out
    });
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut err = String::new();
    loop {
        let mut line = String::new();
        let n = stderr.read_line(&mut line).unwrap();
        assert!(n > 0, "dancer ended before its search ran: {err}");
        err.push_str(&line);
        if line.starts_with(r#"{"type":"progress""#) {
            break;
        }
    }
    kill(&child, signal);
    let status = wait(&mut child);
    stderr.read_to_string(&mut err).unwrap();
    (status.code(), reader.join().unwrap(), err)
}

#[test]
fn ctrl_c_prints_the_partial_count_and_exits_130() {
    let (code, out, err) = interrupt(&["--count"], "INT");
    assert_eq!(code, Some(130), "{err}");
    // the partial count, flushed: one line, a number
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out:?}");
    let count: u64 = lines[0].parse().expect("a count");
    assert!(err.contains(&format!("{count} solution")), "{err}");
    assert!(err.contains("(interrupted: incomplete)"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn sigterm_stops_the_same_way_and_the_json_summary_says_so() {
    let (code, out, err) = interrupt(&["--count", "--json"], "TERM");
    assert_eq!(code, Some(130), "{err}");
    let s: serde_json::Value = serde_json::from_str(out.trim()).expect("one summary record");
    assert_eq!(s["type"], "summary");
    assert_eq!(s["complete"], false);
    assert_eq!(s["stopped"], "interrupted");
    assert!(s["solutions"].as_u64().is_some());
    assert!(err.contains("(interrupted: incomplete)"), "{err}");
}

#[test]
fn an_interrupted_run_prints_its_solutions_and_saves_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck.json");
    let ck_arg = ck.to_str().unwrap();
    let (code, out, err) = interrupt(&["--checkpoint", ck_arg], "INT");
    assert_eq!(code, Some(130), "{err}");
    // the solutions found: whole, 20 option lines each, a blank line between
    assert!(out.ends_with('\n'), "{out:?}");
    for sol in out.trim_end().split("\n\n") {
        assert_eq!(sol.lines().count(), 20, "{sol:?}");
    }
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&ck).unwrap()).unwrap();
    assert_eq!(saved["complete"], false);
    assert_eq!(saved["stopped"], "interrupted");
}

/// The JSON summary of a run that exited 0.
fn success_summary(out: &std::process::Output) -> serde_json::Value {
    assert_eq!(out.status.code(), Some(0));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_limit_reached_is_a_success_with_a_partial_count() {
    let problem = long_problem();
    let path = problem.path().to_str().unwrap();
    let out = dancer()
        .args(["solve", "--count", "--limit", "7", "--threads", "2", path])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "7\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("7 solutions"), "{err}");
    assert!(err.contains("(stopped at the limit: incomplete)"), "{err}");
    let out = dancer()
        .args(["solve", "--count", "--json", "--limit", "1", path])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let s = success_summary(&out);
    assert_eq!(
        (s["solutions"].as_u64(), &s["stopped"]),
        (Some(1), &"limit".into())
    );
    // a limit above the count is never reached: complete, no "stopped"
    let out = dancer()
        .args(["solve", "--count", "--json", "--limit", "1000"])
        .write_stdin(
            dancer()
                .args(["gen", "queens", "6"])
                .output()
                .unwrap()
                .stdout,
        )
        .output()
        .unwrap();
    let s = success_summary(&out);
    assert_eq!(
        (s["solutions"].as_u64(), &s["complete"]),
        (Some(4), &true.into())
    );
    assert!(s.get("stopped").is_none());
}

/// A merge of parts of which one was interrupted is an interrupted
/// search's: 130, and says which part.
#[test]
fn merging_an_interrupted_part_exits_130() {
    let dir = tempfile::tempdir().unwrap();
    let q = dancer()
        .args(["gen", "queens", "8"])
        .output()
        .unwrap()
        .stdout;
    let problem = dir.path().join("q8.dlx");
    std::fs::write(&problem, q).unwrap();
    let mut parts = Vec::new();
    for k in 1..=2 {
        let part = dir.path().join(format!("part{k}.json"));
        dancer()
            .args(["solve", "--count", "--threads", "1"])
            .arg("--shard")
            .arg(format!("{k}/2"))
            .arg("--shard-out")
            .arg(&part)
            .arg(&problem)
            .assert()
            .code(0);
        parts.push(part);
    }
    dancer()
        .arg("merge")
        .args(&parts)
        .assert()
        .code(0)
        .stdout("92\n");
    // part 2 as an interrupted run leaves it (written again by the
    // library, with its checksum: an edit by hand would be refused)
    let text = std::fs::read_to_string(&parts[1]).unwrap();
    let mut saved = dancer_runs::search::Saved::from_json(&text).unwrap();
    saved.complete = false;
    saved.stopped = Some(dancer_core::parallel::Stop::Interrupted);
    std::fs::write(&parts[1], saved.to_json()).unwrap();
    let out = dancer()
        .arg("merge")
        .arg("--json")
        .args(&parts)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(130));
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (&s["complete"], &s["stopped"]),
        (&false.into(), &"interrupted".into())
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("part2.json is incomplete: interrupted"),
        "{err}"
    );
}

/// A command with nothing partial to print (writing a generated problem)
/// ends at once on a signal, with the same 130.
#[test]
fn a_signal_ends_any_other_command_with_130() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dancer"))
        .args(["gen", "queens", "1000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // once it writes, its handler is in place
    let mut first = [0u8; 1024];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    kill(&child, "TERM");
    let (status, _, err) = finish(&mut child);
    assert_eq!(status.code(), Some(130), "{err}");
    assert_eq!(err, "dancer: interrupted\n");
}

/// A signal the run was started ignoring (`nohup` ignores SIGHUP) stays
/// ignored: the search goes on through it, and stops on Ctrl-C.
#[test]
fn an_ignored_hangup_stays_ignored() {
    use std::os::unix::process::CommandExt;
    let problem = long_problem();
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("dancer"));
    cmd.args(["solve", "--count", "--progress", "json", "--threads", "1"])
        .arg(problem.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // SAFETY: signal(2) is async-signal-safe, as pre_exec asks
    unsafe {
        cmd.pre_exec(|| {
            libc::signal(libc::SIGHUP, libc::SIG_IGN);
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.starts_with(r#"{"type":"progress""#) {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "ended early");
    }
    kill(&child, "HUP");
    // still searching: a second progress record comes after the hangup
    line.clear();
    while !line.starts_with(r#"{"type":"progress""#) {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "ended on SIGHUP");
    }
    assert!(child.try_wait().unwrap().is_none());
    kill(&child, "INT");
    let status = wait(&mut child);
    let mut err = String::new();
    stderr.read_to_string(&mut err).unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("(interrupted: incomplete)"), "{err}");
}

/// A memoized count stopped by SIGTERM prints what it counted so far (a
/// lower bound: the summary says interrupted) and exits 130, leaving no
/// ZDD behind (neither the file nor its temporary).
#[test]
fn a_memoized_count_stops_on_a_signal() {
    let dir = tempfile::tempdir().unwrap();
    let toml = common::write(
        dir.path(),
        "d.toml",
        b"name = \"d\"\n[board]\nrect = [22, 22]\n[[piece]]\nname = \"D\"\nshape = \"##\"\ncount = \"any\"\n",
    );
    let exported = dancer()
        .args(["poly", "export", "--no-symmetry-breaking"])
        .arg(&toml)
        .output()
        .unwrap();
    let problem = dir.path().join("d.dlx");
    std::fs::write(&problem, &exported.stdout).unwrap();
    let zdd = dir.path().join("d.zdd");
    let mut child = start([
        "solve".as_ref(),
        "--count".as_ref(),
        "--memo".as_ref(),
        "--json".as_ref(),
        "--zdd".as_ref(),
        zdd.as_os_str(),
        problem.as_os_str(),
    ]);
    // the count of the 22x22 board takes tens of seconds; its ZDD's
    // temporary file (`.d.zdd.dancer-PID-N.tmp`, beside it) is made once
    // the count holds the cancel flag
    let temporary = || {
        std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .find(|n| n.starts_with(".d.zdd.dancer-") && n.ends_with(".tmp"))
    };
    wait_until(|| temporary().is_some(), "the count did not start");
    std::thread::sleep(Duration::from_millis(300));
    kill(&child, "TERM");
    let (status, out, err) = finish(&mut child);
    assert_eq!(status.code(), Some(130), "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["complete"], false, "{out}");
    assert_eq!(v["stopped"], "interrupted", "{out}");
    assert!(err.contains("(interrupted: incomplete)"), "{err}");
    assert!(!zdd.exists() && temporary().is_none());
}

/// A shard with its own checkpoint, stopped by SIGTERM (what Slurm sends
/// at a time limit or `scancel`), resumes from its checkpoint and ends with
/// the same part: merged with the other parts it gives the whole count.
#[test]
fn a_killed_shard_resumes_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let q = dancer().args(["gen", "queens", "15"]).output().unwrap();
    std::fs::write(d.join("q.dlx"), &q.stdout).unwrap();
    let solve = |args: &[&str]| {
        dancer()
            .current_dir(d)
            .args(["solve", "q.dlx", "--count", "--threads", "1"])
            .args(args)
            .output()
            .unwrap()
    };
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dancer"))
        .current_dir(d)
        .args([
            "solve",
            "q.dlx",
            "--count",
            "--threads",
            "1",
            "--shard",
            "2/3",
        ])
        .args([
            "--checkpoint",
            "c2.json",
            "--checkpoint-every",
            "0.05",
            "--shard-out",
            "p2.json",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(&d.join("c2.json"), "no checkpoint written");
    kill(&child, "TERM");
    let (status, _, err) = finish(&mut child);
    if status.code() == Some(0) {
        // the part finished before the signal: nothing to resume here
        eprintln!("the shard ended before the signal: {err}");
    } else {
        assert_eq!(status.code(), Some(130), "{err}");
        let part = std::fs::read_to_string(d.join("p2.json")).unwrap();
        assert!(part.contains("\"complete\": false"), "{part}");
        let o = dancer()
            .current_dir(d)
            .args(["merge", "--missing", "p2.json"])
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&o.stdout), "1-3\n");
    }
    let o = solve(&[
        "--shard",
        "2/3",
        "--resume",
        "c2.json",
        "--shard-out",
        "p2.json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for k in [1, 3] {
        let o = solve(&[
            "--shard",
            &format!("{k}/3"),
            "--shard-out",
            &format!("p{k}.json"),
        ]);
        assert_eq!(o.status.code(), Some(0));
    }
    let o = dancer()
        .current_dir(d)
        .args(["merge", "p1.json", "p2.json", "p3.json"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "2279184\n",
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // the checkpoint is the shard's own
    let o = solve(&["--resume", "c2.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("the checkpoint is of shard 2/3"));
}

/// A Sudoku count of a puzzle with more solutions than any run can count
/// (the empty grid: 6.7e21; an empty 16x16 on the general path) stops on
/// the first signal, inside the puzzle: the puzzles answered before it are
/// printed, it is not (its count would be short), and the exit is 130.
/// A batch part saves the same and says where to go on.
#[test]
fn a_sudoku_count_of_endless_solutions_stops_on_a_signal() {
    let dir = tempfile::tempdir().unwrap();
    let easy = "530070000600195000098000060800060003400803001700020006060000280000419005000080079";
    let empty9 = ".".repeat(81);
    let empty16 = ".".repeat(256);
    for (engine, endless) in [("auto", &empty9), ("dlx", &empty9), ("auto", &empty16)] {
        let f = dir.path().join("p.txt");
        std::fs::write(&f, format!("{easy}\n{easy}\n{endless}\n{easy}\n")).unwrap();
        let part = dir.path().join("part.json");
        let _ = std::fs::remove_file(&part);
        for shard in [false, true] {
            let mut args = vec![
                "sudoku".to_string(),
                "count".into(),
                f.display().to_string(),
                "--engine".into(),
                engine.into(),
                "--threads".into(),
                "1".into(),
            ];
            if shard {
                args.extend(["--shard", "1/1", "--shard-out"].map(String::from));
                args.push(part.display().to_string());
            }
            let mut child = start(&args);
            std::thread::sleep(Duration::from_millis(700));
            assert!(
                child.try_wait().unwrap().is_none(),
                "{args:?}: still counting"
            );
            kill(&child, "TERM");
            let (status, out, err) = finish(&mut child);
            assert_eq!(status.code(), Some(130), "{args:?}: {err}");
            assert!(!err.contains("panicked"), "{err}");
            if shard {
                assert_eq!(out, "", "a part prints nothing");
                let p: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(&part).unwrap()).unwrap();
                assert_eq!(p["complete"], false);
                assert_eq!(p["stopped"], "interrupted");
                assert_eq!(p["next"], 3, "goes on from the endless puzzle: {p}");
                assert_eq!(p["output"], "1\n1\n");
            } else {
                assert_eq!(out, "1\n1\n", "{engine}: the two puzzles before it");
            }
        }
    }
}

/// A signal while `auto` tries a memoized count (before it knows whether
/// the count pays, `memo::choose`) stops the run as any other: the trial
/// holds the run's cancel flag, and the run exits 130 with its summary.
#[test]
fn a_signal_while_auto_tries_the_count_stops_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let exported = dancer()
        .args(["poly", "export", "polyhex-1234-5x8"])
        .output()
        .unwrap();
    assert!(exported.status.success());
    let problem = dir.path().join("5x8.dlx");
    std::fs::write(&problem, &exported.stdout).unwrap();
    let started = Instant::now();
    let mut child = start(["solve".as_ref(), "--count".as_ref(), problem.as_os_str()]);
    // the probes take a fraction of a second, the trial seconds (tens
    // unoptimised); the signal comes in the trial or the count after it
    std::thread::sleep(Duration::from_millis(1500));
    kill(&child, "INT");
    let (status, out, err) = finish(&mut child);
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("(interrupted: incomplete)"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.lines().count() <= 1, "{out}");
    // a count of the whole takes far longer than the test waited
    assert!(started.elapsed() < Duration::from_secs(60));
}
