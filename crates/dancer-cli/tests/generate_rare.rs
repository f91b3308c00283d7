//! `dancer sudoku generate --rating` for ratings random generation rarely
//! or never reaches: said at once, from the generator's measured sample,
//! bounded by `--timeout` (60 s unless told), exit 1 when not all were
//! made.

use assert_cmd::Command;

fn generate(args: &[&str]) -> (Option<i32>, String, String) {
    let o = Command::cargo_bin("dancer")
        .unwrap()
        .args(["sudoku", "generate"])
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    (o.status.code(), String::from_utf8(o.stdout).unwrap(), err)
}

#[test]
fn ratings_never_seen_say_so_and_stop_at_the_timeout() {
    let (code, out, err) = generate(&["--rating", "11-12", "--seed", "1", "--timeout", "1"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(out.is_empty());
    let first = err.lines().next().unwrap();
    assert!(first.contains("practically never"), "{err}");
    assert!(first.contains("fewer than 1 in"), "{err}");
    assert!(first.contains("stopping after 1 s"), "{err}");
    assert!(
        err.contains("0 of 1 made: the time allowed (1 s, --timeout) ran out"),
        "{err}"
    );
    // the default is a minute, said before the search starts
    let bin = assert_cmd::cargo::cargo_bin("dancer");
    let mut child = std::process::Command::new(bin)
        .args(["sudoku", "generate", "--rating", "11-12", "--seed", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    let stderr = child.stderr.take().unwrap();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stderr), &mut first).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(first.contains("stopping after 60 s (--timeout)"), "{first}");
}

#[test]
fn rare_ratings_say_how_rare() {
    let (code, _, err) = generate(&["--rating", "9.0-9.5", "--seed", "1", "--timeout", "1"]);
    assert!(code == Some(0) || code == Some(1), "{err}");
    let first = err.lines().next().unwrap();
    assert!(
        first.contains("are rare:") && first.contains("about 1 in"),
        "{err}"
    );
    // common ones say nothing of it
    let (code, out, err) = generate(&["--level", "easy", "--seed", "1"]);
    assert_eq!(code, Some(0));
    assert_eq!(out.lines().count(), 1);
    assert!(!err.contains("rare"), "{err}");
}
