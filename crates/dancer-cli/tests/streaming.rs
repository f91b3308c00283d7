//! Solutions stream: between the engines' threads and standard output
//! nothing grows with the number of solutions. A reader that takes its
//! time holds the search up; one that goes away (`| head`) ends it at
//! once; `--limit` stops every worker; a signal ends a listing that
//! writes into a slow pipe within moments, with what it printed. Each
//! case runs under `ulimit -v 4000000` (about 3.8 GiB of address space)
//! and reads the process's peak resident memory (`VmHWM`) while it is
//! held up, which must stay far below it: flat, whatever the count.

#![cfg(unix)]

mod common;

use common::{wait_within, write};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// The address space of the cases, in KiB (`ulimit -v 4000000`).
const ULIMIT_KB: u64 = 4_000_000;

/// What a listing may hold at its peak, in KiB: the binary, its threads'
/// stacks, the problem and the hand-on's blocks, with room to spare; the
/// listings that kept a unit's solutions passed 3.5 GB.
const FLAT_KB: u64 = 160 * 1024;

/// `n` items, each in two options of its own (450 bytes for 40): 2^n
/// solutions.
fn doubles(dir: &Path, n: usize) -> PathBuf {
    let items: Vec<String> = (0..n).map(|i| format!("i{i}")).collect();
    let mut text = items.join(" ");
    text.push('\n');
    for i in &items {
        text.push_str(&format!("{i}\n{i}\n"));
    }
    write(dir, &format!("doubles-{n}.dlx"), text.as_bytes())
}

/// `dancer ARGS` in `dir` under the address-space limit, standard output
/// piped (and read by the caller), standard error to a file.
fn spawn_limited(dir: &Path, args: &[&str]) -> Child {
    let mut sh = common::limited(dir, ULIMIT_KB / 1024, args, "2> stderr.txt");
    sh.stderr(Stdio::null()).spawn().unwrap()
}

/// Reads `first` bytes, leaves the child held up for `pause`, reads `then`
/// bytes more (none: it only waits) and leaves it held up again: its peak
/// memory at both pauses stays under [`FLAT_KB`] and grows by less than
/// `growth_kb`. Then the reader goes away: a closed pipe ends the run
/// quietly, within seconds.
fn held_up_flat(child: &mut Child, first: usize, then: usize, pause: Duration, growth_kb: u64) {
    read_bytes(child, first);
    std::thread::sleep(pause);
    let before = peak_kb(child);
    read_bytes(child, then);
    std::thread::sleep(pause);
    let after = peak_kb(child);
    assert!(
        before < FLAT_KB && after < FLAT_KB,
        "peaks {before} and {after} KiB"
    );
    assert!(
        after < before + growth_kb,
        "grew from {before} to {after} KiB"
    );
    drop(child.stdout.take());
    let start = Instant::now();
    let status = wait_within(
        child,
        Duration::from_secs(30),
        "a closed pipe did not end it",
    );
    assert_eq!(status.code(), Some(0));
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
}

/// The peak resident memory of a running process, in KiB.
fn peak_kb(child: &Child) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Reads `n` bytes of the child's output.
fn read_bytes(child: &mut Child, n: usize) {
    let mut buf = vec![0u8; n];
    child.stdout.as_mut().unwrap().read_exact(&mut buf).unwrap();
}

/// Reads what the child prints until it ends, for at most a minute.
fn drain(child: &mut Child) -> String {
    let mut out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = out.read_to_end(&mut text);
        text
    });
    let status = wait_within(child, Duration::from_secs(60), "the run did not end");
    let text = reader.join().unwrap();
    assert!(status.code().is_some(), "ended by a signal: {status:?}");
    String::from_utf8(text).unwrap()
}

/// A listing of 2^40 solutions, read slowly by a reader that stops for a
/// while twice: its peak memory stays flat while it is held up, on one
/// thread or two, in any order; closing the pipe ends it at once with 0.
#[test]
fn a_listing_held_up_by_its_reader_keeps_flat_memory() {
    let d = tempfile::tempdir().unwrap();
    doubles(d.path(), 40);
    for extra in [
        &["--threads", "1"][..],
        &["--threads", "2"],
        &["--threads", "2", "--ordered"],
    ] {
        let mut args = vec!["solve", "doubles-40.dlx"];
        args.extend(extra);
        let mut child = spawn_limited(d.path(), &args);
        held_up_flat(
            &mut child,
            1 << 20,
            24 << 20,
            Duration::from_millis(1500),
            32 * 1024,
        );
    }
}

/// `dancer solve q20.dlx | head -2`: the first solutions come out at once,
/// and the run ends as the reader leaves (it kept every solution of a
/// unit, and was stopped by the memory limit, with nothing printed).
#[test]
fn the_first_solutions_of_a_huge_listing_come_at_once() {
    let d = tempfile::tempdir().unwrap();
    let q = common::run(d.path(), &["gen", "queens", "20"]);
    write(d.path(), "q20.dlx", &q.stdout);
    for threads in ["1", "2"] {
        let mut child = spawn_limited(d.path(), &["solve", "q20.dlx", "--threads", threads]);
        // two solutions of 20 queens: 20 lines each, and a blank between
        let mut out = child.stdout.take().unwrap();
        let mut text = Vec::new();
        let mut buf = [0u8; 4096];
        while text.iter().filter(|&&b| b == b'\n').count() < 41 {
            let n = out.read(&mut buf).unwrap();
            assert!(n > 0, "the output ended early");
            text.extend_from_slice(&buf[..n]);
        }
        drop(out);
        let status = wait_within(
            &mut child,
            Duration::from_secs(30),
            "head -2 did not end it",
        );
        assert_eq!(status.code(), Some(0));
        let text = String::from_utf8(text).unwrap();
        let first: Vec<&str> = text.lines().take(20).collect();
        assert_eq!(first.len(), 20);
        assert!(first.iter().all(|l| l.starts_with('r')), "{first:?}");
    }
}

/// A SIGTERM while the listing waits on a slow reader ends it within
/// moments with 130 and the interrupted summary, the solutions printed
/// before it intact (it went on writing what it had piled up, 2.4 GB,
/// for 30 s).
#[test]
fn a_signal_ends_a_listing_into_a_slow_pipe_at_once() {
    let d = tempfile::tempdir().unwrap();
    doubles(d.path(), 40);
    let mut child = spawn_limited(
        d.path(),
        &["solve", "doubles-40.dlx", "--threads", "2", "--stats"],
    );
    read_bytes(&mut child, 4 << 20);
    std::thread::sleep(Duration::from_millis(500));
    // SAFETY: kill(2) on our child's pid with a valid signal number.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    assert_eq!(sent, 0);
    let start = Instant::now();
    let rest = drain(&mut child);
    let took = start.elapsed();
    assert!(took < Duration::from_secs(10), "{took:?} after the signal");
    assert!(
        rest.len() < 64 << 20,
        "{} bytes after the signal",
        rest.len()
    );
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let stderr = std::fs::read_to_string(d.path().join("stderr.txt")).unwrap();
    assert!(stderr.contains("interrupted"), "{stderr}");
    // every solution printed is whole: 40 lines, then a blank
    let whole = rest.rfind("\n\n").map_or("", |k| &rest[..k]);
    for sol in whole.split("\n\n").skip(1) {
        assert_eq!(sol.lines().count(), 40, "{sol:?}");
    }
}

/// `--stats` with the output in a file: the solutions up to the limit,
/// then the statistics (the listing ran out of memory, and the file was
/// left empty).
#[test]
fn a_limited_listing_into_a_file_is_written_whole() {
    let d = tempfile::tempdir().unwrap();
    doubles(d.path(), 40);
    let args = [
        "solve",
        "doubles-40.dlx",
        "--threads",
        "2",
        "--limit",
        "100000",
        "--stats",
    ];
    let mut sh = common::limited(d.path(), ULIMIT_KB / 1024, &args, "> out.txt 2> err.txt");
    let status = sh.status().unwrap();
    assert_eq!(status.code(), Some(0));
    let out = std::fs::read_to_string(d.path().join("out.txt")).unwrap();
    assert_eq!(out.split("\n\n").count(), 100_000);
    let err = std::fs::read_to_string(d.path().join("err.txt")).unwrap();
    assert!(
        err.contains("100000 solutions") || err.contains("100,000 solutions"),
        "{err}"
    );
    assert!(err.contains("stopped at the limit"), "{err}");
}

/// 10x10 dominoes, on two threads: `--limit 1` stops every worker at once
/// (they ran on, holding what they found, to 3.76 GB), and a JSON listing
/// that nobody reads holds the workers up in flat memory (aborted after
/// 12 s).
#[test]
fn polyform_workers_stop_at_the_limit_and_wait_for_their_reader() {
    let d = tempfile::tempdir().unwrap();
    let toml = "name = \"dominoes\"\n[board]\nrect = [10, 10]\n\n[[piece]]\nname = \"D\"\nshape = \"##\"\ncount = \"any\"\n";
    write(d.path(), "dominoes.toml", toml.as_bytes());
    let mut child = spawn_limited(
        d.path(),
        &[
            "poly",
            "solve",
            "dominoes.toml",
            "--threads",
            "2",
            "--limit",
            "1",
        ],
    );
    let out = drain(&mut child);
    assert_eq!(child.wait().unwrap().code(), Some(0));
    assert!(!out.is_empty());
    let mut child = spawn_limited(
        d.path(),
        &["poly", "solve", "dominoes.toml", "--threads", "2", "--json"],
    );
    held_up_flat(&mut child, 1 << 16, 0, Duration::from_secs(3), 16 * 1024);
}
