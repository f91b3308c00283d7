//! `dancer solve --count --memo` and `dancer poly solve --count --memo`:
//! counts that agree with the engines' and with known answers, exact far
//! beyond 64 bits in text and in JSON, and clear refusals (exit 2).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_dancer"))
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// The domino tilings of an m x n board in DLX format.
fn dominoes(m: usize, n: usize) -> String {
    let cell = |r: usize, c: usize| format!("{r}_{c}");
    let mut s = String::new();
    let items: Vec<String> = (0..m)
        .flat_map(|r| (0..n).map(move |c| (r, c)))
        .map(|(r, c)| cell(r, c))
        .collect();
    s.push_str(&items.join(" "));
    s.push('\n');
    for r in 0..m {
        for c in 0..n {
            if c + 1 < n {
                s.push_str(&format!("{} {}\n", cell(r, c), cell(r, c + 1)));
            }
            if r + 1 < m {
                s.push_str(&format!("{} {}\n", cell(r, c), cell(r + 1, c)));
            }
        }
    }
    s
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    std::fs::write(dir.join(name), text).unwrap();
    name.to_string()
}

#[test]
fn counts_like_the_engines_and_known_answers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (m, n, want) in [
        (8, 8, "12988816"),
        (12, 12, "53060477521960000"),
        (3, 3, "0"),
    ] {
        let f = write(d, &format!("d{m}x{n}.dlx"), &dominoes(m, n));
        let o = run(d, &["solve", "--count", "--memo", &f]);
        assert_eq!(stdout(&o), format!("{want}\n"), "{}", stderr(&o));
        assert_eq!(o.status.code(), Some(if want == "0" { 1 } else { 0 }));
        assert!(
            stderr(&o).starts_with(&format!("memo: {want} solutions, ")),
            "{}",
            stderr(&o)
        );
    }
    // the same count as enumeration, on a problem with secondary items
    let f = write(d, "q8.dlx", &queens(8));
    let memo = run(d, &["solve", "--count", "--memo", "--stats", &f]);
    let plain = run(d, &["solve", "--count", &f]);
    assert_eq!(stdout(&memo), "92\n");
    assert_eq!(stdout(&memo), stdout(&plain));
    assert!(
        stderr(&memo).contains("frontier of at most"),
        "{}",
        stderr(&memo)
    );
}

/// The n queens in DLX format: rows and columns primary, diagonals
/// secondary.
fn queens(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!("r{i} c{i} "));
    }
    s.push('|');
    for d in 0..2 * n - 1 {
        s.push_str(&format!(" a{d} b{d}"));
    }
    s.push('\n');
    for r in 0..n {
        for c in 0..n {
            s.push_str(&format!("r{r} c{c} a{} b{}\n", r + c, r + n - 1 - c));
        }
    }
    s
}

#[test]
fn counts_beyond_64_bits_are_exact_in_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let f = write(d, "d16.dlx", &dominoes(16, 16));
    let want = "2444888770250892795802079170816";
    let o = run(d, &["solve", "--count", "--memo", &f]);
    assert_eq!(stdout(&o), format!("{want}\n"));
    let o = run(d, &["solve", "--count", "--memo", "--json", &f]);
    let line = stdout(&o);
    assert!(
        line.starts_with(&format!("{{\"type\":\"summary\",\"solutions\":{want},")),
        "a plain JSON integer: {line}"
    );
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["complete"], true);
    assert!(v["memo"]["hits"].as_u64().unwrap() > 0);
    assert!(v["memo"]["peak_bytes"].as_u64().unwrap() > 0);
    // a cap below what the count needs (26 MiB) drops memos, and the
    // count is the same
    let o = run(
        d,
        &["solve", "--count", "--memo", "--memo-memory", "16M", &f],
    );
    assert_eq!(stdout(&o), format!("{want}\n"), "{}", stderr(&o));
}

#[test]
fn polyform_boards_with_pieces_used_any_number_of_times() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let f = write(
        d,
        "dom.toml",
        "name = \"dominoes\"\n[board]\nrect = [8, 8]\n[[piece]]\nname = \"D\"\nshape = \"##\"\ncount = \"any\"\n",
    );
    let o = run(d, &["poly", "solve", &f, "--count", "--memo"]);
    assert_eq!(stdout(&o), "12988816\n", "{}", stderr(&o));
    // a catalogue puzzle: every solution, symmetric ones included
    let o = run(d, &["poly", "solve", "pentomino-3x20", "--count", "--memo"]);
    let plain = run(d, &["poly", "solve", "pentomino-3x20", "--count"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&plain));
    let o = run(d, &["poly", "solve", &f, "--count", "--memo", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["solutions"], 12988816);
    assert!(v["unique"].is_null());
}

#[test]
fn refusals_say_why_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let f = write(d, "d4.dlx", &dominoes(4, 4));
    let m = write(d, "mult.dlx", "1:2|a b\na\na b\n");
    for (args, says) in [
        (vec!["solve", "--memo", &f], "--count"),
        (
            vec!["solve", "--count", "--memo", "--engine", "dlx", &f],
            "leave out --engine",
        ),
        (
            vec!["solve", "--count", "--memo", "--limit", "3", &f],
            "cannot be used",
        ),
        (
            vec!["solve", "--count", "--memo", "--memo-memory", "lots", &f],
            "not a size",
        ),
        (
            vec!["solve", "--count", "--memo", "--memo-memory", "3X", &f],
            "unknown unit",
        ),
        (
            vec![
                "solve",
                "--count",
                "--memo",
                "--memo-memory",
                "99999999999T",
                &f,
            ],
            "too large",
        ),
        (vec!["solve", "--count", "--memo", &m], "multiplicities"),
    ] {
        let o = run(d, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}
