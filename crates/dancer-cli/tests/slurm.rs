//! `dancer slurm` on a real Slurm (`.ci/slurm-up` brings up a one-node
//! cluster on this machine; CI runs it before the tests): job arrays whose
//! merged results equal one local run, tasks cancelled (`scancel
//! --signal=KILL`, `scancel`) or killed outright and resubmitted, a
//! missing part refused by the merge, a Sudoku batch split over 4 tasks.
//!
//! Without a Slurm to submit to, each test says SKIPPED (with the reason)
//! and passes; with `CI` set it fails instead, so that CI never passes
//! these checks without running them.
//!
//! The tests share the one node: they take turns (a lock), so that one
//! test's array does not wait behind another's.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

static NODE: Mutex<()> = Mutex::new(());

/// Whether a Slurm is up with an idle node (after a few seconds of
/// asking); a skip (or, on CI, a failure) with the reason when not.
fn slurm_up() -> bool {
    let why = match Command::new("sinfo").args(["-h", "-o", "%t"]).output() {
        Err(e) => format!("sinfo cannot run ({e}): no Slurm on this machine"),
        Ok(o) => {
            let state = String::from_utf8_lossy(&o.stdout).trim().to_string();
            if o.status.success()
                && ["idle", "mix", "alloc"]
                    .iter()
                    .any(|s| state.starts_with(s))
            {
                return true;
            }
            format!(
                "sinfo says {:?} {}: no Slurm node up (run .ci/slurm-up as root)",
                state,
                String::from_utf8_lossy(&o.stderr).trim()
            )
        }
    };
    if dancer_testdata::on_ci() {
        panic!("{why}, and CI is set: .ci/run brings Slurm up before the tests");
    }
    dancer_testdata::say(&format!("SKIPPED: {why}"));
    false
}

fn dancer_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dancer"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn ok(o: Output, what: &str) -> String {
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{what}: exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// The node, this test's turn on it, and a fresh folder `name` (see
/// [`scratch`]); `None` (a skip) where no Slurm is up.
fn on_the_node(name: &str) -> Option<(MutexGuard<'static, ()>, PathBuf)> {
    let node = NODE.lock().unwrap_or_else(|e| e.into_inner());
    if !slurm_up() {
        return None;
    }
    Some((node, scratch(name)))
}

/// `PROGRAM ARGS` (a Slurm command, or pkill), which must succeed.
fn succeeds(program: &str, args: &[&str]) {
    let status = Command::new(program).args(args).status().unwrap();
    assert!(status.success(), "{program} {args:?}: {status}");
}

/// `dancer gen queens N` written to `d/qN.dlx`: the file's name.
fn queens_file(d: &Path, n: &str) -> String {
    let file = format!("q{n}.dlx");
    std::fs::write(
        d.join(&file),
        ok(dancer_in(d, &["gen", "queens", n]), "gen"),
    )
    .unwrap();
    file
}

/// Waits (at most two minutes) for task `k` of `array` to save a
/// checkpoint in `run`: the task's id.
fn checkpointed_task(run: &Path, array: u64, k: u32) -> String {
    wait_for_file(
        &run.join(format!("checkpoints/{k}.json")),
        Duration::from_secs(120),
    );
    format!("{array}_{k}")
}

/// Asserts that tasks 1 to `tasks` of `array` completed.
fn tasks_completed(array: u64, tasks: u32) {
    for k in 1..=tasks {
        assert_eq!(state(&format!("{array}_{k}")), "COMPLETED", "task {k}");
    }
}

/// A fresh folder for a test, where slurmd (this machine, root) can write.
fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("slurm")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `dancer slurm ... --submit --json` in `dir`: the job ids.
fn submit(dir: &Path, args: &[&str]) -> (Option<u64>, u64) {
    let mut all = vec!["slurm", "--submit", "--json"];
    all.extend_from_slice(args);
    let out = ok(dancer_in(dir, &all), "dancer slurm");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["type"], "slurm", "{out}");
    (v["array_job"].as_u64(), v["merge_job"].as_u64().unwrap())
}

/// The jobs (and array tasks) of `ids` still in the queue.
fn queued(ids: &[u64]) -> Vec<String> {
    let list: Vec<String> = ids.iter().map(|i| i.to_string()).collect();
    let o = Command::new("squeue")
        .args(["-h", "-o", "%i %T %r", "-j", &list.join(",")])
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// Waits until none of `ids` is queued or running (at most `limit`).
fn wait_gone(ids: &[u64], limit: Duration) {
    let start = Instant::now();
    loop {
        let q = queued(ids);
        if q.is_empty() {
            return;
        }
        if q.iter().any(|l| l.contains("DependencyNeverSatisfied")) {
            panic!("a merge will never run: {q:?}");
        }
        assert!(start.elapsed() < limit, "jobs {ids:?} still queued: {q:?}");
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// `scontrol show job ID`'s JobState (of a finished job too: kept
/// MinJobAge seconds).
fn state(id: &str) -> String {
    let o = Command::new("scontrol")
        .args(["show", "job", id])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    text.split_whitespace()
        .find_map(|w| w.strip_prefix("JobState="))
        .unwrap_or("UNKNOWN")
        .to_string()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn wait_for_file(path: &Path, limit: Duration) {
    let start = Instant::now();
    while !path.exists() {
        assert!(
            start.elapsed() < limit,
            "{} did not appear in {limit:?}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn queens_13_in_4_tasks_equals_one_local_run() {
    let Some((_node, d)) = on_the_node("queens13") else {
        return;
    };
    queens_file(&d, "13");
    let local = ok(
        dancer_in(
            &d,
            &["solve", "q13.dlx", "--count", "--engine", "dlx", "--json"],
        ),
        "local",
    );
    let (array, merge) = submit(
        &d,
        &[
            "--tasks", "4", "--dir", "run", "--time", "10:00", "--mem", "500M", "--", "solve",
            "q13.dlx", "--count", "--engine", "dlx", "--json",
        ],
    );
    let array = array.expect("an array was submitted");
    wait_gone(&[array, merge], Duration::from_secs(300));
    tasks_completed(array, 4);
    assert_eq!(state(&merge.to_string()), "COMPLETED");
    let run = d.join("run");
    let merged: serde_json::Value =
        serde_json::from_str(read(&run.join("result.txt")).trim()).unwrap();
    let whole: serde_json::Value = serde_json::from_str(local.lines().last().unwrap()).unwrap();
    assert_eq!(merged["solutions"], 73712);
    // Knuth's tree split in 4: the same solutions, nodes and updates
    for f in ["solutions", "nodes", "updates", "complete"] {
        assert_eq!(merged[f], whole[f], "{f}");
    }
    // a missing part: the merge says which, exit 2
    let parts: Vec<String> = [1, 2, 4]
        .iter()
        .map(|k| run.join(format!("parts/{k}.json")).display().to_string())
        .collect();
    let mut args = vec!["merge"];
    args.extend(parts.iter().map(String::as_str));
    let o = dancer_in(&d, &args);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains('3') && err.contains("missing"), "{err}");
    let mut args = vec!["merge", "--missing"];
    args.extend(parts.iter().map(String::as_str));
    assert_eq!(ok(dancer_in(&d, &args), "merge --missing").trim(), "3");
    // the merge job's own command, with part 3 gone: exit 2, naming it
    std::fs::rename(run.join("parts/3.json"), d.join("3.json")).unwrap();
    let o = Command::new("bash")
        .arg(run.join("merge.sbatch"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("parts/3.json"), "{stderr}");
}

#[test]
fn a_catalogue_polyform_in_4_tasks_equals_one_local_run() {
    let Some((_node, d)) = on_the_node("poly") else {
        return;
    };
    let local = ok(
        dancer_in(&d, &["poly", "solve", "pentomino-5x12", "--count"]),
        "local",
    );
    assert_eq!(local.trim(), "4040");
    let (array, merge) = submit(
        &d,
        &[
            "--tasks",
            "4",
            "--dir",
            "run",
            "--",
            "poly",
            "solve",
            "pentomino-5x12",
            "--count",
        ],
    );
    wait_gone(&[array.unwrap(), merge], Duration::from_secs(300));
    assert_eq!(state(&merge.to_string()), "COMPLETED");
    assert_eq!(read(&d.join("run/result.txt")).trim(), local.trim());
}

/// `dancer slurm` of `n` queens in `tasks` parts with Knuth's dlx, a
/// checkpoint every `every` seconds, into `d/run`: the job ids, and the
/// run's folder.
fn queens_run(d: &Path, n: &str, tasks: &str, every: &str) -> (u64, u64, PathBuf) {
    let file = queens_file(d, n);
    let (array, merge) = submit(
        d,
        &[
            "--tasks",
            tasks,
            "--dir",
            "run",
            "--",
            "solve",
            &file,
            "--count",
            "--engine",
            "dlx",
            "--checkpoint-every",
            every,
        ],
    );
    (array.expect("an array was submitted"), merge, d.join("run"))
}

#[test]
fn tasks_killed_or_stopped_and_resubmitted_merge_exactly() {
    let Some((_node, d)) = on_the_node("killed") else {
        return;
    };
    // about 10 s of Knuth's search a task, a checkpoint every half second
    let (array, merge, run) = queens_run(&d, "16", "4", "0.5");
    // task 2: `scancel --signal=KILL` once it has saved a checkpoint
    // (Slurm cancels the task: SIGTERM, then SIGKILL after KillWait)
    let task2 = checkpointed_task(&run, array, 2);
    succeeds("scancel", &["--signal=KILL", &task2]);
    // task 3: its dancer killed outright, as a node failure would (no
    // signal to catch, nothing written but the checkpoints before)
    let task3 = checkpointed_task(&run, array, 3);
    succeeds("pkill", &["-KILL", "-f", "--", "--shard 3/4"]);
    // task 4: stopped as at its time limit (`scancel`: SIGTERM to every
    // process of the task)
    let task4 = checkpointed_task(&run, array, 4);
    succeeds("scancel", &[&task4]);
    // task 1 runs to the end; the merge never runs (afterok)
    wait_gone(&[array], Duration::from_secs(300));
    assert_eq!(state(&format!("{array}_1")), "COMPLETED");
    for t in [&task2, &task3, &task4] {
        assert_ne!(state(t), "COMPLETED", "{t}");
    }
    assert!(
        !run.join("parts/3.json").exists(),
        "a task killed outright writes no part"
    );
    // the signalled ones wrote a partial part and a last checkpoint
    for k in [2, 4] {
        let part: serde_json::Value =
            serde_json::from_str(&read(&run.join(format!("parts/{k}.json")))).unwrap();
        assert_eq!(part["complete"], false, "part {k}");
        assert_eq!(part["stopped"], "interrupted", "part {k}");
    }
    assert!(!run.join("result.txt").exists());
    // `--wait` says the merge will never run, and which parts to run again
    let o = dancer_in(&d, &["slurm", "--wait", "run"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("parts to run again: 2-4"), "{err}");
    // resubmitted: 2, 3 and 4 go on from their checkpoints
    let o = dancer_in(&d, &["slurm", "--resubmit", "run", "--json"]);
    let out = ok(o, "resubmit");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["array"], "2-4", "{out}");
    wait_gone(
        &[
            v["array_job"].as_u64().unwrap(),
            v["merge_job"].as_u64().unwrap(),
        ],
        Duration::from_secs(300),
    );
    assert!(queued(&[merge]).is_empty(), "the old merge was cancelled");
    assert_eq!(read(&run.join("result.txt")).trim(), "14772512");
    // each task ran twice, the second time from its checkpoint: two
    // summaries in its log (a killed run writes none)
    for (k, runs) in [(2, 2), (3, 1), (4, 2)] {
        let log = read(&run.join(format!("logs/{k}.err")));
        assert_eq!(
            log.matches("engine dlx:").count(),
            runs,
            "task {k}'s log:\n{log}"
        );
    }
}

/// The guide's Slurm recipe (docs/long-runs.md: the block after "## On a
/// Slurm cluster"),
/// line by line as written, with this dancer first on PATH: every line
/// ends 0, and each `--wait` prints the count of 13 queens.
#[test]
fn the_readme_recipe_runs_as_written() {
    let Some((_node, d)) = on_the_node("readme") else {
        return;
    };
    let guide = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/long-runs.md"));
    let section = guide
        .split("## On a Slurm cluster")
        .nth(1)
        .expect("the guide has a Slurm section");
    let block: Vec<&str> = section
        .split("```sh")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("with a recipe")
        .lines()
        .map(|l| match l.find("  #") {
            Some(i) => l[..i].trim(),
            None => l.trim(),
        })
        .filter(|l| !l.is_empty())
        .collect();
    assert!(block
        .iter()
        .any(|l| l.starts_with("dancer slurm") && l.contains("--submit")));
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_dancer"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut waits = 0;
    for line in block {
        let o = Command::new("sh")
            .arg("-c")
            .arg(line)
            .current_dir(&d)
            .env("PATH", &path)
            .output()
            .unwrap();
        let out = ok(o, line);
        if line.contains("--wait") {
            assert_eq!(out.trim(), "73712", "{line}");
            waits += 1;
        }
    }
    assert_eq!(waits, 2);
}

/// A Sudoku batch of 10,000 puzzles over 4 tasks: the merged output is
/// byte for byte that of one local run, in input order (with a comment
/// and two invalid lines among them: their answers are in the output, and
/// the parts that meet them still end well for the merge).
#[test]
fn a_sudoku_batch_of_10000_in_4_tasks_equals_one_local_run() {
    let Some(src) = dancer_testdata::shared_file("sudoku", "17_clue.txt") else {
        return;
    };
    let Some((_node, d)) = on_the_node("sudoku") else {
        return;
    };
    let text = read(&src);
    let mut lines: Vec<&str> = text.lines().take(10_000).collect();
    assert_eq!(lines.len(), 10_000);
    lines[1234] = "123";
    lines[7777] =
        "11.......................................................................1.......";
    lines.insert(5000, "# a comment");
    std::fs::write(d.join("puzzles.txt"), lines.join("\n") + "\n").unwrap();
    for cmd in ["solve", "check"] {
        let o = dancer_in(&d, &["sudoku", cmd, "puzzles.txt"]);
        assert_eq!(o.status.code(), Some(2), "invalid puzzles: exit 2");
        let local = String::from_utf8(o.stdout).unwrap();
        assert_eq!(local.lines().count(), 10_000);
        assert_eq!(local.matches("invalid: ").count(), 2);
        let dir = format!("run-{cmd}");
        let (array, merge) = submit(
            &d,
            &[
                "--tasks",
                "4",
                "--dir",
                &dir,
                "--",
                "sudoku",
                cmd,
                "puzzles.txt",
            ],
        );
        let array = array.unwrap();
        wait_gone(&[array, merge], Duration::from_secs(300));
        tasks_completed(array, 4);
        let merged = read(&d.join(&dir).join("result.txt"));
        assert!(
            merged == local,
            "sudoku {cmd}: the merged output differs from one local run"
        );
        // and `--wait` prints it too
        let waited = ok(dancer_in(&d, &["slurm", "--wait", &dir]), "wait");
        assert!(waited == local);
    }
}

/// A task requeued by Slurm (`scontrol requeue`, as after a node failure:
/// the array's `--requeue`) runs again by itself, goes on from its
/// checkpoint, and the merge runs as if nothing happened. (Slurm holds a
/// requeued job about two minutes before it may start again.)
#[test]
fn a_requeued_task_goes_on_from_its_checkpoint() {
    let Some((_node, d)) = on_the_node("requeued") else {
        return;
    };
    let (array, merge, run) = queens_run(&d, "15", "2", "0.2");
    succeeds("scontrol", &["requeue", &checkpointed_task(&run, array, 1)]);
    wait_gone(&[array, merge], Duration::from_secs(400));
    assert_eq!(state(&merge.to_string()), "COMPLETED");
    assert_eq!(read(&run.join("result.txt")).trim(), "2279184");
    // two runs of task 1, the second with only the units left
    let log = read(&run.join("logs/1.err"));
    let units: Vec<usize> = log
        .lines()
        .filter_map(|l| l.strip_prefix("shard 1 of 2: "))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(units.len(), 2, "{log}");
    assert!(units[1] < units[0], "the second run went on: {log}");
}

/// Without a Slurm too: bad values and commands are refused (exit 2,
/// saying what) before anything is written.
#[test]
fn bad_values_and_commands_are_refused_before_anything_is_written() {
    let d = scratch("refused");
    queens_file(&d, "6");
    // refused, saying `says`, and nothing written
    let refused = |all: &[&str], says: &str| {
        let o = dancer_in(&d, all);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{all:?}: {err}");
        assert!(err.contains(says), "{all:?}: {err}");
        assert!(!d.join("run").exists(), "{all:?}: nothing written");
    };
    for (args, says) in [
        (vec!["--tasks", "0"], "--tasks 0"),
        (vec!["--tasks", "100001"], "--tasks 100001"),
        (vec!["--tasks", "2", "--time", "1h"], "--time"),
        (vec!["--tasks", "2", "--mem", "4GB"], "--mem"),
        (vec!["--tasks", "2", "--partition", "a b"], "--partition"),
        (
            vec!["--tasks", "2", "--cpus-per-task", "0"],
            "--cpus-per-task",
        ),
        (vec!["--tasks", "2", "--name", "x$(id)"], "--name"),
    ] {
        let mut all = vec!["slurm"];
        all.extend(&args);
        all.extend(["--dir", "run", "--", "solve", "q6.dlx", "--count"]);
        refused(&all, says);
    }
    for (cmd, says) in [
        (vec!["solve", "q6.dlx"], "--count"),
        (vec!["solve", "-", "--count"], "standard input"),
        (vec!["solve", "nope.dlx", "--count"], "no such file"),
        (
            vec!["solve", "q6.dlx", "--count", "--shard", "1/2"],
            "--shard",
        ),
        (vec!["gen", "queens", "8"], "dancer slurm runs"),
        (
            vec!["poly", "solve", "scott", "--count", "--unique"],
            "--unique",
        ),
    ] {
        let mut all = vec!["slurm", "--tasks", "2", "--dir", "run", "--"];
        all.extend(&cmd);
        refused(&all, says);
    }
}
