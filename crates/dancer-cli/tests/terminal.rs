//! Standard input on a terminal: dancer says it is waiting for the problem
//! (and how to end it) before it blocks, and Ctrl-C while it waits ends it
//! with 130. Run on a pseudo-terminal.

#![cfg(target_os = "linux")]

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

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
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("dancer did not end");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
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
