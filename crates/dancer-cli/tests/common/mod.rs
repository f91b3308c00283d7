//! What the tests of the binary share: running `dancer` in a folder (with
//! a memory limit, with a signal), and the two verdicts every hostile case
//! ends in: a refusal (exit 2, saying where and what) or an answer (exit 0
//! or 1), never a panic or an abort.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

/// `dancer` as an `assert_cmd` command.
pub fn dancer() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("dancer").unwrap()
}

/// What `dancer ARGS` prints on standard output; it must succeed.
pub fn stdout_ok(args: &[&str]) -> String {
    let o = dancer().args(args).output().unwrap();
    assert!(o.status.success(), "{args:?}: {}", err(&o));
    String::from_utf8(o.stdout).unwrap()
}

/// `dancer ARGS` with `input` on standard input: it exits `code`; its
/// standard output and standard error.
pub fn exchange(args: &[&str], input: impl Into<Vec<u8>>, code: i32) -> (String, String) {
    let o = dancer()
        .args(args)
        .write_stdin(input.into())
        .output()
        .unwrap();
    let e = err(&o);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {e}");
    (String::from_utf8(o.stdout).unwrap(), e)
}

/// `dancer solve --count` of the problem `text`, on standard input.
pub fn solve_count(text: impl Into<Vec<u8>>) -> assert_cmd::assert::Assert {
    dancer()
        .args(["solve", "--count"])
        .write_stdin(text.into())
        .assert()
}

/// NDJSON: one JSON value a line.
pub fn records(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_dancer"))
}

/// Runs `dancer ARGS` in `dir` with at most `mem_mb` MiB of address space.
pub fn run_limited(dir: &Path, mem_mb: u64, args: &[&str]) -> Output {
    limited(dir, mem_mb, args, "").output().unwrap()
}

/// `dancer ARGS` in `dir` under at most `mem_mb` MiB of address space, by
/// `sh`, which `exec`s it (so the child's pid is dancer's), with `redirect`
/// (say `2> err.txt`) after it; standard output and error piped.
pub fn limited(dir: &Path, mem_mb: u64, args: &[&str], redirect: &str) -> Command {
    let quoted: Vec<String> = args
        .iter()
        .map(|a| format!("'{}'", a.replace('\'', "'\\''")))
        .collect();
    let script = format!(
        "ulimit -v {}; exec '{}' {} {redirect}",
        mem_mb * 1024,
        bin().display(),
        quoted.join(" ")
    );
    let mut sh = Command::new("sh");
    sh.arg("-c")
        .arg(script)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    sh
}

pub fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Runs `dancer ARGS` in `dir`, sends it `signal` after `ms`
/// milliseconds, and returns what it printed when it ended.
pub fn signalled(dir: &Path, args: &[&str], ms: u64, signal: libc::c_int) -> Output {
    let child = spawn(dir, args, Stdio::null());
    std::thread::sleep(Duration::from_millis(ms));
    // SAFETY: kill(2) on our child's pid with a valid signal number.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    assert_eq!(sent, 0);
    child.wait_with_output().unwrap()
}

/// `dancer ARGS` started in `dir` with `stdin` as its standard input, its
/// standard output and error piped.
pub fn spawn<I, A>(dir: &Path, args: I, stdin: Stdio) -> Child
where
    I: IntoIterator<Item = A>,
    A: AsRef<std::ffi::OsStr>,
{
    Command::new(bin())
        .args(args)
        .current_dir(dir)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for `child` to end, for at most `limit`; past it, kills it and
/// fails with `why`.
pub fn wait_within(child: &mut Child, limit: Duration, why: &str) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("{why}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// All that is left to read of a child's pipe, as text (empty for a pipe
/// that was not set up).
pub fn rest_of(pipe: Option<impl std::io::Read>) -> String {
    let mut text = String::new();
    if let Some(mut pipe) = pipe {
        pipe.read_to_string(&mut text).unwrap();
    }
    text
}

pub fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// A refusal: exit 2, an error message containing `says`, no panic.
#[track_caller]
pub fn refused(o: &Output, says: &str) {
    let e = err(o);
    assert_eq!(o.status.code(), Some(2), "exit code; stderr:\n{e}");
    assert!(!e.contains("panicked"), "{e}");
    assert!(e.contains(says), "expected {says:?} in:\n{e}");
}

/// Each `dancer ARGS` run in `dir` is a refusal saying `says` (as
/// [`refused`]), for every `(ARGS, says)` of `cases`.
#[track_caller]
pub fn all_refused(dir: &Path, cases: &[(&[&str], &str)]) {
    for &(args, says) in cases {
        let o = run(dir, args);
        let e = err(&o);
        assert_eq!(
            o.status.code(),
            Some(2),
            "{args:?}: exit code; stderr:\n{e}"
        );
        assert!(!e.contains("panicked"), "{args:?}: {e}");
        assert!(e.contains(says), "{args:?}: expected {says:?} in:\n{e}");
    }
}

/// An answer: exit 0 or 1, no panic.
#[track_caller]
pub fn answered(o: &Output) {
    let e = err(o);
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "exit {:?}: {e}",
        o.status.code()
    );
    assert!(!e.contains("panicked"), "{e}");
}

pub fn write(dir: &Path, name: &str, text: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::File::create(&p).unwrap().write_all(text).unwrap();
    p
}

/// `dancer gen queens N` written to `dir/name`.
pub fn queens_file(dir: &Path, name: &str, n: u32) -> PathBuf {
    let q = Command::new(bin())
        .args(["gen", "queens", &n.to_string()])
        .output()
        .unwrap();
    assert!(q.status.success(), "gen queens {n}");
    write(dir, name, &q.stdout)
}

/// Runs `dancer ARGS` in `dir` with `input` on its standard input.
pub fn run_stdin(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = spawn(dir, args, Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let o = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    o
}

/// Runs `dancer ARGS` in `dir`, killed after `secs` seconds if it has not
/// ended by then (a guard against a hang, far above what the work takes:
/// never a measure of speed); `None` when it had to be killed. Its output
/// is read as it comes (a full pipe would stop it).
pub fn run_within(dir: &Path, secs: u64, args: &[&str]) -> Option<Output> {
    use std::io::Read;
    let mut child = spawn(dir, args, Stdio::null());
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            v
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let end = Instant::now() + Duration::from_secs(secs);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (stdout, stderr) = (out.join().unwrap(), err.join().unwrap());
    status.map(|status| Output {
        status,
        stdout,
        stderr,
    })
}

/// Standard output as text.
pub fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}
