//! What the tests of the binary share: running `dancer` in a folder (with
//! a memory limit, with a signal), and the two verdicts every hostile case
//! ends in: a refusal (exit 2, saying where and what) or an answer (exit 0
//! or 1), never a panic or an abort.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_dancer"))
}

/// Runs `dancer ARGS` in `dir` with at most `mem_mb` MiB of address space.
pub fn run_limited(dir: &Path, mem_mb: u64, args: &[&str]) -> Output {
    let quoted: Vec<String> = args
        .iter()
        .map(|a| format!("'{}'", a.replace('\'', "'\\''")))
        .collect();
    let script = format!(
        "ulimit -v {}; exec '{}' {}",
        mem_mb * 1024,
        bin().display(),
        quoted.join(" ")
    );
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
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
    let child = Command::new(bin())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(ms));
    // SAFETY: kill(2) on our child's pid with a valid signal number.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    assert_eq!(sent, 0);
    child.wait_with_output().unwrap()
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

/// Runs `dancer ARGS` in `dir` with `input` on its standard input.
pub fn run_stdin(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(bin())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
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
    let mut child = Command::new(bin())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            v
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let end = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if std::time::Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
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
