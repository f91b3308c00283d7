//! The web app's end-to-end tests in a real browser: starts the real binary
//! (`dancer serve --port 0`), runs the Playwright suite of
//! `crates/dancer-web/e2e/` against it in Debian's headless Chromium, then
//! stops the server with SIGINT and checks that it ends cleanly (exit 0).
//!
//! Needs Node.js, the suite's packages (`npm ci` in that folder) and
//! Chromium (`/usr/bin/chromium`, or `$CHROMIUM`). Without them the test
//! says SKIPPED and passes on a developer's machine, and fails on CI (where
//! `.ci/run` installs them), so that it never passes without running.
//! Screenshots go to `crates/dancer-web/e2e/screenshots/`.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn e2e_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../dancer-web/e2e")
}

/// What the suite needs and is missing, if anything.
fn missing() -> Option<String> {
    let chromium = std::env::var_os("CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    if !chromium.is_file() {
        return Some(format!(
            "no Chromium at {} (apt-get install chromium)",
            chromium.display()
        ));
    }
    if Command::new("node")
        .arg("--version")
        .output()
        .map_or(true, |o| !o.status.success())
    {
        return Some("no Node.js (node) on the PATH".into());
    }
    let cli = e2e_dir().join("node_modules/@playwright/test/cli.js");
    if !cli.is_file() {
        return Some(format!(
            "Playwright is not installed (npm ci in {})",
            e2e_dir().display()
        ));
    }
    None
}

#[test]
fn the_web_app_in_a_real_browser() {
    if let Some(why) = missing() {
        if dancer_testdata::on_ci() {
            panic!("the browser tests cannot run on CI: {why}");
        }
        dancer_testdata::say(&format!("SKIPPED: the browser tests: {why}"));
        return;
    }
    let mut server = Command::new(env!("CARGO_BIN_EXE_dancer"))
        .args(["serve", "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dancer serve starts");
    // the first line on stderr says where it serves
    let mut err = BufReader::new(server.stderr.take().expect("piped"));
    let mut line = String::new();
    err.read_line(&mut line).expect("a line from dancer serve");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    // keep reading stderr so that the server never blocks on it
    let rest = std::thread::spawn(move || {
        let mut all = String::new();
        for l in err.lines().map_while(Result::ok) {
            all.push_str(&l);
            all.push('\n');
        }
        all
    });
    let started = Instant::now();
    let status = Command::new("node")
        .arg("node_modules/@playwright/test/cli.js")
        .arg("test")
        .current_dir(e2e_dir())
        .env("DANCER_URL", &url)
        .env("CI", if dancer_testdata::on_ci() { "true" } else { "" })
        .status()
        .expect("Playwright runs");
    dancer_testdata::say(&format!(
        "browser tests: {} in {:.0} s",
        if status.success() { "passed" } else { "FAILED" },
        started.elapsed().as_secs_f64()
    ));
    // a clean stop on Ctrl-C: exit 0, within a few seconds
    // SAFETY: kill(2) on the child's own pid, with a valid signal number.
    let sent = unsafe { libc::kill(server.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(sent, 0, "SIGINT sent");
    let deadline = Instant::now() + Duration::from_secs(10);
    let code = loop {
        if let Some(s) = server.try_wait().expect("wait") {
            break s;
        }
        if Instant::now() > deadline {
            let _ = server.kill();
            let said = rest.join().unwrap_or_default();
            panic!("dancer serve did not stop within 10 s of SIGINT; it said:\n{said}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let said = rest.join().unwrap_or_default();
    assert!(status.success(), "the browser tests failed (see above; screenshots of failures in crates/dancer-web/e2e/test-results/)");
    assert_eq!(
        code.code(),
        Some(0),
        "dancer serve exits 0 after SIGINT; it said:\n{said}"
    );
    assert!(
        said.contains("dancer: stopped"),
        "it says it stopped:\n{said}"
    );
}
