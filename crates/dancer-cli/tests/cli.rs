//! The `dancer` command line: output, NDJSON, exit codes, bad input.

mod common;

use common::{all_refused, dancer, exchange, records, solve_count, stdout_ok};
use predicates::prelude::*;
use std::io::Write;
use std::path::Path;

const TOY: &str = "| A simple example\nA B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";
const TOYCOLOR: &str = "A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n";

fn file(text: &str, suffix: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(suffix).tempfile().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

/// What `dancer ARGS` with `input` prints on standard output, with exit 0.
fn stdout_of(args: &[&str], input: impl Into<Vec<u8>>) -> String {
    exchange(args, input, 0).0
}

/// `dancer ARGS` with `input`: exit `code`, exactly `stdout` on standard
/// output, and `says` in the summary on standard error.
fn solved(args: &[&str], input: impl Into<Vec<u8>>, code: i32, stdout: &'static str, says: &str) {
    dancer()
        .args(args)
        .write_stdin(input.into())
        .assert()
        .code(code)
        .stdout(stdout)
        .stderr(predicate::str::contains(says));
}

/// `dancer ARGS` with `input` refused (exit 2), with `says` in the message.
fn refused(args: &[&str], input: impl Into<Vec<u8>>, says: &str) {
    dancer()
        .args(args)
        .write_stdin(input.into())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(says));
}

/// A generated problem's lines, the title line left out.
fn body_lines(b: &[u8]) -> Vec<String> {
    String::from_utf8(b.to_vec())
        .unwrap()
        .lines()
        .skip(1)
        .map(String::from)
        .collect()
}

#[test]
fn solve_prints_option_lines_and_summary() {
    solved(
        &["solve", "--engine", "dlx", "-"],
        TOY,
        0,
        "A D\nC E F\nB G\n",
        "1 solution, 6 nodes, 30 updates",
    );
}

#[test]
fn blank_line_between_solutions() {
    assert_eq!(stdout_of(&["solve"], "A B\nA\nB\nA B\n"), "A\nB\n\nA B\n");
}

#[test]
fn solve_reads_a_file() {
    let f = file(TOY, ".dlx");
    dancer()
        .args(["solve", "--engine", "dlx", f.path().to_str().unwrap()])
        .assert()
        .code(0)
        .stdout("A D\nC E F\nB G\n");
}

#[test]
fn json_is_ndjson_with_summary_last() {
    // dlx: Knuth's DLX2 counts 4 nodes and 14 updates for this problem
    let lines = records(&stdout_of(
        &["solve", "--json", "--engine", "dlx"],
        TOYCOLOR,
    ));
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["type"], "solution");
    assert_eq!(lines[0]["options"], serde_json::json!([1, 3]));
    let s = &lines[1];
    assert_eq!(s["type"], "summary");
    assert_eq!(s["solutions"], 1);
    assert_eq!(s["nodes"], 4);
    assert_eq!(s["updates"], 14);
    assert_eq!(s["complete"], true);
    assert!(s["seconds"].as_f64().unwrap() >= 0.0);
}

#[test]
fn count_prints_no_solutions() {
    let q = dancer().args(["gen", "queens", "8"]).output().unwrap();
    assert!(q.status.success());
    solved(
        &["solve", "--count", "--engine", "dlx"],
        q.stdout.clone(),
        0,
        "92\n",
        "92 solutions, 1049 nodes, 16680 updates",
    );
    let text = stdout_of(&["solve", "--count", "--json"], q.stdout);
    assert_eq!(text.lines().count(), 1, "{text}");
    let s: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(s["solutions"], 92);
}

#[test]
fn limit_marks_incomplete() {
    let q = dancer().args(["gen", "queens", "8"]).output().unwrap();
    let lines = records(&stdout_of(&["solve", "--json", "--limit", "3"], q.stdout));
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[3]["solutions"], 3);
    assert_eq!(lines[3]["complete"], false);
}

#[test]
fn stats_shows_profile() {
    let q = dancer().args(["gen", "queens", "8"]).output().unwrap();
    dancer()
        .args(["solve", "--count", "--stats", "--engine", "dlx"])
        .write_stdin(q.stdout.clone())
        .assert()
        .code(0)
        .stderr(predicate::str::contains("maximum level 8"))
        .stderr(predicate::str::contains("nodes per level"));
    let out = dancer()
        .args(["solve", "--count", "--stats", "--json", "--engine", "dlx"])
        .write_stdin(q.stdout)
        .output()
        .unwrap();
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["max_level"], 8);
    assert_eq!(
        s["profile"],
        serde_json::json!([1, 8, 40, 120, 208, 228, 201, 151, 92])
    );
}

#[test]
fn no_solution_exits_1() {
    let (out, _) = exchange(&["solve", "--json"], "A B\nA\n", 1);
    assert!(out.contains(r#""solutions":0"#), "{out}");
}

#[test]
fn engine_flag() {
    dancer()
        .args(["solve", "--engine", "dlx"])
        .write_stdin(TOY)
        .assert()
        .code(0);
    refused(&["solve", "--engine", "nope"], TOY, "unknown engine");
}

#[test]
fn bad_flags_exit_2() {
    for args in [
        &["solve", "--bogus"][..],
        &["solve", "--limit", "x"],
        &["frobnicate"],
        &["gen", "queens", "0"],
    ] {
        dancer().args(args).assert().code(2);
    }
    all_refused(
        Path::new("."),
        &[
            (&["gen", "macmahon", "5x5"][..], "one cell per square"),
            (&["gen", "macmahon", "--colours", "7"], "2, 3 or 4"),
        ],
    );
}

/// MacMahon's squares, generated and solved: the 3x8 board has none.
#[test]
fn gen_macmahon_solves() {
    let g = dancer().args(["gen", "macmahon", "3x8"]).output().unwrap();
    assert!(g.status.success());
    let text = String::from_utf8(g.stdout).unwrap();
    assert!(text.lines().nth(1).unwrap().contains("p23 | h1.0"));
    solved(
        &["solve", "--count", "-"],
        text,
        1,
        "0\n",
        "engine bitmrv: 0 solutions",
    );
}

#[test]
fn bad_input_says_file_line_column() {
    let f = file("A B | X\nA X\nB Q\n", ".dlx");
    let path = f.path().to_str().unwrap().to_string();
    dancer()
        .args(["solve", &path])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{path}:3:3: unknown item \"Q\""
        )));
    for (input, says) in [
        (
            "A B\nA B A\n",
            "<stdin>:2:5: item \"A\" appears twice in this option",
        ),
        (
            "A B | X\nA:red X\n",
            "<stdin>:2:1: colour given for primary item \"A\"",
        ),
        ("A A\n", "<stdin>:1:3: duplicate item name \"A\""),
        ("A 3:2|B\nA B\n", "<stdin>:1:3:"),
    ] {
        refused(&["solve"], input, says);
    }
    refused(&["solve"], "A 3:2|B\nA B\n", "impossible");
    dancer()
        .args(["solve", "/no/such/file.dlx"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/no/such/file.dlx"));
    dancer().args(["solve"]).write_stdin("").assert().code(2);
    refused(
        &["solve"],
        &b"A B\nA \xff\n"[..],
        "<stdin>:2:3: invalid UTF-8",
    );
}

#[test]
fn dropped_option_warns_with_line() {
    dancer()
        .args(["solve"])
        .write_stdin(TOYCOLOR)
        .assert()
        .code(0)
        .stderr(predicate::str::contains(
            "<stdin>:4:1: warning: option has no primary items",
        ));
}

#[test]
fn json_problem_input() {
    let f = file(
        r#"{"primary":["A","B"],"secondary":["X"],"options":[["A","X:1"],["B","X:1"],["A","B"]]}"#,
        ".json",
    );
    dancer()
        .args(["solve", "--count", f.path().to_str().unwrap()])
        .assert()
        .code(0)
        .stdout("2\n");
    refused(
        &["solve", "--format", "json"],
        r#"{"primary":["A"],"options":[["B"]]}"#,
        "options[0][0]: unknown item \"B\"",
    );
}

#[test]
fn gen_matches_knuths_files_and_counts() {
    let text = stdout_ok(&["gen", "langford", "4"]);
    assert!(text.starts_with("| Langford pairs n=4"));
    assert!(text.contains("\n1 2 3 4 s1 s2 s3 s4 s5 s6 s7 s8\n1 s1 s3\n"));
    solve_count(text).code(0).stdout("2\n");
    let text = stdout_ok(&["gen", "queens", "8"]);
    let mut lines = text.lines().skip(1);
    assert_eq!(
        lines.next(),
        Some("r4 c4 r3 c3 r5 c5 r2 c2 r6 c6 r1 c1 r7 c7 r0 c0 | a1 b1 a2 b2 a3 b3 a4 b4 a5 b5 a6 b6 a7 b7 a8 b8 a9 b9 aa ba ab bb ac bc ad bd")
    );
    assert_eq!(lines.next(), Some("r0 c0 b7"));
    // The same as Knuth's queens files in shared/, line for line, when present.
    let Some(shared) = dancer_testdata::shared_dir("dlx") else {
        return;
    };
    for n in [8, 10, 12, 13] {
        let ours = dancer()
            .args(["gen", "queens", &n.to_string()])
            .output()
            .unwrap()
            .stdout;
        let theirs = std::fs::read(shared.join(format!("queens-{n}.dlx"))).unwrap();
        assert_eq!(body_lines(&ours), body_lines(&theirs), "queens {n}");
    }
    let ours = dancer()
        .args(["gen", "langford", "11"])
        .output()
        .unwrap()
        .stdout;
    let theirs = std::fs::read(shared.join("langford-11.dlx")).unwrap();
    assert_eq!(body_lines(&ours), body_lines(&theirs), "langford 11");
}

#[test]
fn verify_flag_checks_every_solution() {
    let q = dancer().args(["gen", "queens", "6"]).output().unwrap();
    dancer()
        .args(["solve", "--verify", "--count"])
        .write_stdin(q.stdout)
        .assert()
        .code(0)
        .stdout("4\n");
}

#[test]
fn example_runs() {
    dancer()
        .args(["example"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "8 queens, engine dlx: 92 solutions (all verified), 1049 nodes, 16680 updates",
        ))
        .stdout(predicate::str::contains(
            "engine dlx: 1 solution, 6 nodes, 30 updates",
        ));
}

#[test]
fn broken_pipe_is_not_an_error() {
    // `dancer solve | head -1`: the reader goes away; dancer must not panic.
    let q = dancer().args(["gen", "queens", "10"]).output().unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dancer"))
        .args(["solve"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&q.stdout).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    assert!(out.status.code().is_some());
}

#[test]
fn multiplicities_dlx3() {
    // A twice, B once or twice: {A}+{A B}, {A B}+{A B'}...
    solved(
        &["solve", "--engine", "dlxm"],
        "2|A 1:2|B\nA\nA B\nA B\n",
        0,
        "A\nA B\n\nA\nA B\n\nA B\nA B\n",
        "3 solutions",
    );
    // auto (bitmrv) finds the same three, in its own order (and each
    // solution's options in the order it chose them)
    let (out, err) = exchange(&["solve"], "2|A 1:2|B\nA\nA B\nA B\n", 0);
    assert!(err.contains("engine bitmrv: 3 solutions"), "{err}");
    let mut sols: Vec<Vec<String>> = out
        .split("\n\n")
        .map(|s| {
            let mut o: Vec<String> = s.lines().map(str::to_string).collect();
            o.sort();
            o
        })
        .collect();
    sols.sort();
    assert_eq!(
        sols,
        [vec!["A", "A B"], vec!["A", "A B"], vec!["A B", "A B"]]
    );
    refused(
        &["solve", "--engine", "bitset"],
        "2|A\nA\nA\n",
        "does not support multiplicities",
    );
}

/// No message of the general commands says `1 units`: every count goes
/// through one plural rule. Checked on every recorded golden output of
/// theirs (the cases of `single_*` count one of everything).
#[test]
fn counts_of_one_are_singular() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/expected");
    let plural_of_one = regex::Regex::new(
        r"(^|[^0-9.,])1 (solutions|nodes|updates|units|threads|shards|items|options|entries|pages|times)\b",
    )
    .unwrap();
    let mut seen = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        // the sudoku and poly commands have their own messages
        if name.starts_with("sudoku") || name.starts_with("poly") || path.is_dir() {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        if let Some(m) = plural_of_one.find(&text) {
            panic!("{name}: {:?}", m.as_str());
        }
        seen += 1;
    }
    assert!(seen > 100, "only {seen} files read");
    let single = std::fs::read_to_string(dir.join("single_shard.stderr")).unwrap();
    assert!(
        single.contains("1 solution, 2 nodes, 1 update,"),
        "{single}"
    );
    assert!(single.contains("1 thread, 1 unit at depth"), "{single}");
    assert!(
        single.contains("1 item (1 primary), 1 option, 1 entry"),
        "{single}"
    );
    let merged = std::fs::read_to_string(dir.join("single_merge.stderr")).unwrap();
    assert!(merged.starts_with("1 shard: 1 solution,"), "{merged}");
}

#[test]
fn json_on_standard_input_says_line_and_column() {
    let (_, err) = exchange(
        &["solve", "--format", "json"],
        "{\n  \"primary\": [\"A\"],\n  \"options\": [[\"A\"], [\"B\"]]\n}\n",
        2,
    );
    assert_eq!(
        err,
        "dancer: error: <stdin>:3:23: options[1][0]: unknown item \"B\"\n"
    );
    dancer()
        .args(["solve", "--format", "json"])
        .write_stdin("{\"primary\": [\"A\"],\n \"options\": [[\"A\"], [\"A\" \"B\"]]}")
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("dancer: error: <stdin>:2:"))
        .stderr(predicate::str::contains(" at line ").not());
    // and no location anywhere is line or column 0
    let bad = [
        ("dlx", ""),
        ("dlx", "\n"),
        ("dlx", "| c\n"),
        ("dlx", "A B\nA C\n"),
        ("json", ""),
        ("json", "\n"),
        ("json", "{"),
        ("json", "{}\n"),
        ("json", r#"{"primary":[],"options":[]}"#),
    ];
    let loc = regex::Regex::new(r"<stdin>:[1-9][0-9]*:[1-9][0-9]*: ").unwrap();
    for (format, input) in bad {
        let out = dancer()
            .args(["solve", "--format", format])
            .write_stdin(input)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("<stdin>:"), "{format} {input:?}: {err}");
        assert!(
            !err.contains(":0:") && !err.contains(":0 "),
            "{format} {input:?}: {err}"
        );
        assert!(loc.is_match(&err), "{format} {input:?}: {err}");
    }
}

#[test]
fn limit_zero_is_refused() {
    refused(&["solve", "--limit", "0"], TOY, "must be at least 1");
}

#[test]
fn help_lists_the_exit_codes() {
    let out = dancer().arg("--help").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8(out.stdout).unwrap();
    let codes = &help[help.find("Exit codes:").expect("an exit code section")..];
    for code in ["0", "1", "2", "130"] {
        assert!(codes.contains(&format!("\n  {code} ")), "{codes}");
    }
    for line in help.lines() {
        assert!(line.chars().count() <= 100, "{line:?}");
    }
    // the guide says the same
    let guide =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/cli.md")).unwrap();
    let section = &guide[guide.find("# Exit codes").expect("an Exit codes section")..];
    for code in ["0", "1", "2", "130"] {
        assert!(
            section.contains(&format!("| {code} |")),
            "docs/cli.md: no row for {code}"
        );
    }
}
