//! Standard input on a terminal: dancer says it is waiting for the problem
//! (and how to end it) before it blocks, and Ctrl-C while it waits ends it
//! with 130. Run on a pseudo-terminal.

#![cfg(target_os = "linux")]

mod common;

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A pseudo-terminal: (the controller's side, the terminal's side).
fn pty() -> (File, File) {
    // SAFETY: posix_openpt takes flags and returns a new descriptor or -1.
    let master = unsafe { libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY) };
    assert!(
        master >= 0,
        "posix_openpt: {}",
        std::io::Error::last_os_error()
    );
    // SAFETY: `master` is a descriptor just opened, owned by nothing else.
    let master = unsafe { OwnedFd::from_raw_fd(master) };
    use std::os::fd::AsRawFd;
    let fd = master.as_raw_fd();
    let mut name = [0 as libc::c_char; 128];
    // SAFETY: `fd` is an open pseudo-terminal controller; `name` is a
    // writable buffer of the length given.
    unsafe {
        assert_eq!(libc::grantpt(fd), 0, "grantpt");
        assert_eq!(libc::unlockpt(fd), 0, "unlockpt");
        assert_eq!(libc::ptsname_r(fd, name.as_mut_ptr(), name.len()), 0);
    }
    // SAFETY: ptsname_r wrote a NUL-terminated path into `name`.
    let path = unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) }
        .to_str()
        .unwrap()
        .to_string();
    let terminal = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&path)
        .unwrap();
    (File::from(master), terminal)
}

/// `dancer ARGS` reading the terminal's side of a new pseudo-terminal.
fn on_terminal(args: &[&str]) -> (Child, File, BufReader<std::process::ChildStderr>) {
    let (master, terminal) = pty();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("dancer"))
        .args(args)
        .stdin(Stdio::from(terminal))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    (child, master, stderr)
}

fn wait(child: &mut Child) -> std::process::ExitStatus {
    common::wait_within(child, Duration::from_secs(30), "dancer did not end")
}

#[test]
fn says_it_reads_the_terminal_then_reads_it() {
    let (mut child, mut master, mut stderr) = on_terminal(&["solve", "--threads", "1"]);
    let mut notice = String::new();
    stderr.read_line(&mut notice).unwrap();
    assert_eq!(
        notice,
        "dancer: reading the problem (DLX) from standard input... (Ctrl-D to end)\n"
    );
    // a problem typed, then Ctrl-D at the start of a line
    master.write_all(b"A B\nA\nB\nA B\n\x04").unwrap();
    let status = wait(&mut child);
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    assert_eq!(status.code(), Some(0), "{rest}");
    assert_eq!(out, "A\nB\n\nA B\n");
    assert!(rest.contains("2 solutions"), "{rest}");
}

#[test]
fn ctrl_c_while_it_waits_ends_it_with_130() {
    let (mut child, _master, mut stderr) = on_terminal(&["solve", "--count"]);
    let mut notice = String::new();
    stderr.read_line(&mut notice).unwrap();
    assert!(
        notice.starts_with("dancer: reading the problem"),
        "{notice}"
    );
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let status = wait(&mut child);
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    assert_eq!(status.code(), Some(130), "{rest}");
    assert_eq!(rest, "dancer: interrupted\n");
}

/// Not on a terminal: not a word (scripts and pipes see only the results).
#[test]
fn no_notice_from_a_pipe() {
    let out = assert_cmd::Command::cargo_bin("dancer")
        .unwrap()
        .args(["solve", "--count"])
        .write_stdin("A\nA\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("reading"));
}

/// `dancer ARGS` with standard error on a new pseudo-terminal: its exit
/// code, standard output, and what it drew on the terminal.
fn drawn_on_terminal(args: &[&str]) -> (Option<i32>, String, String) {
    let (mut master, terminal) = pty();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("dancer"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(terminal))
        .spawn()
        .unwrap();
    // the terminal's side closes when dancer ends: then the read fails
    let reader = std::thread::spawn(move || {
        let mut all = Vec::new();
        let mut chunk = [0u8; 4096];
        while let Ok(n) = master.read(&mut chunk) {
            if n == 0 {
                break;
            }
            all.extend_from_slice(&chunk[..n]);
        }
        all
    });
    let mut stdout = child.stdout.take().unwrap();
    let output = std::thread::spawn(move || {
        let mut out = String::new();
        stdout.read_to_string(&mut out).unwrap();
        out
    });
    let status = wait(&mut child);
    let out = output.join().unwrap();
    let drawn = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    (status.code(), out, drawn)
}

/// The first puzzle of forum_hardest_1905_11plus: nested forcing chains at
/// once, a second or so to rate.
const HARDEST: &str =
    "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";

/// On a terminal, `sudoku rate` of one puzzle shows its steps so far, and
/// `hint` that it is looking; every line within 80 columns.
#[test]
fn rating_and_hints_show_progress_on_a_terminal() {
    let (code, out, drawn) = drawn_on_terminal(&["sudoku", "rate", "--timeout", "1.5", HARDEST]);
    assert_eq!(code, Some(0), "{drawn}");
    // stopped, a lower bound; else the rating (SE's 11.0 here, 10 or more
    // on a machine that rates it before the time is up)
    let rated = out
        .split_whitespace()
        .next()
        .and_then(|w| w.parse::<f64>().ok());
    assert!(
        out.starts_with("at least ") || rated.is_some_and(|r| r >= 10.0),
        "{out}"
    );
    assert!(drawn.contains("rating: "), "{drawn:?}");
    let (_, _, drawn) = drawn_on_terminal(&["sudoku", "hint", "--timeout", "0.5", HARDEST]);
    assert!(drawn.contains("looking for the easiest step"), "{drawn:?}");
    for line in drawn.split(['\r', '\n']) {
        assert!(line.chars().count() <= 80 + 8, "{line:?}"); // + escape codes
    }
}

/// On a terminal, a batch of more than 100 puzzles shows a bar from the
/// start, with plain numbers (`puzzles/s`, no decimals).
#[test]
fn sudoku_batches_show_a_bar_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("many.txt");
    let easy =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
    std::fs::write(&file, easy.repeat(3000)).unwrap();
    let (code, out, drawn) = drawn_on_terminal(&[
        "sudoku",
        "solve",
        "--engine",
        "dlx",
        "--threads",
        "1",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{drawn}");
    assert_eq!(out.lines().count(), 3000);
    assert!(drawn.contains("/3000 puzzles"), "{drawn:?}");
    let rate = regex::Regex::new(r"[0-9.]+[kM]? puzzles/s").unwrap();
    for m in rate.find_iter(&drawn) {
        assert!(
            !m.as_str().contains('.') || m.as_str().contains(['k', 'M']),
            "{}",
            m.as_str()
        );
    }
}
