//! Hostile input, at the binary: every way found to crash `dancer`, make it
//! allocate by a number instead of by its input, or print a wrong count
//! from a file it trusted, each a case here. The rule every case checks:
//! the exit code is 0, 1, 2 or 130 (never a panic's 101 or an abort's 134),
//! a refusal says where and what, and nothing panics. Memory is bounded
//! with `ulimit -v` where a case once took gigabytes.

mod common;

use common::{
    all_refused, answered, err, queens_file, refused, run, run_limited, signalled, spawn, write,
};
use std::process::Stdio;

#[test]
fn multiplicities_do_not_size_memory() {
    let d = tempfile::tempdir().unwrap();
    // once 51 GB (an abort) and 2.3 GB for files of a few bytes
    write(d.path(), "a.dlx", b"2147483647|a\na\n");
    write(d.path(), "b.dlx", b"100000000|a b\na b\na\n");
    write(d.path(), "c.dlx", b"1:4294967295|a | x\na x\na\n");
    for f in ["a.dlx", "b.dlx", "c.dlx"] {
        answered(&run_limited(
            d.path(),
            1024,
            &["solve", "--threads", "1", f],
        ));
        answered(&run_limited(
            d.path(),
            1024,
            &["solve", "--count", "--engine", "dlxm", "--threads", "1", f],
        ));
    }
    // a multiplicity too large for its type, or of the wrong shape: said so
    write(d.path(), "d.dlx", b"4294967296|a\na\n");
    refused(&run(d.path(), &["solve", "d.dlx"]), "d.dlx:1:1:");
    write(d.path(), "e.dlx", b"1:2:3|a\na\n");
    refused(
        &run(d.path(), &["solve", "e.dlx"]),
        "a multiplicity is u:v or v",
    );
}

#[test]
fn boards_too_large_are_refused_before_they_are_built() {
    let d = tempfile::tempdir().unwrap();
    let piece = "\n[[piece]]\nset = \"pentominoes\"\n";
    let cases = [
        ("[board]\nrect = [65536, 65537]", "at most"),
        ("[board]\nrect = [2147483647, 2]", "at most"),
        ("[board]\nbox = [65536, 65536, 2]", "at most"),
        ("[board]\nrect = [-5, 3]", "rect"),
    ];
    for (i, (board, says)) in cases.iter().enumerate() {
        let f = format!("b{i}.toml");
        write(d.path(), &f, format!("{board}{piece}").as_bytes());
        let o = run_limited(d.path(), 1024, &["poly", "solve", &f]);
        refused(&o, says);
        assert!(err(&o).contains(&format!("{f}:")), "located: {}", err(&o));
    }
    // a 2000x2000 picture once grew past 2.3 GB before it was refused
    let row = "#".repeat(2000);
    let shape = vec![row.as_str(); 2000].join("\n");
    write(
        d.path(),
        "s.toml",
        format!("[board]\nshape = \"\"\"\n{shape}\n\"\"\"{piece}").as_bytes(),
    );
    refused(
        &run_limited(d.path(), 512, &["poly", "solve", "s.toml"]),
        "the board is too large",
    );
    let layers = format!(
        "[board]\nlayers = [\"{}\"]{piece}",
        vec![row.as_str(); 2000].join("\\n")
    );
    write(d.path(), "l.toml", layers.as_bytes());
    refused(
        &run_limited(d.path(), 512, &["poly", "solve", "l.toml"]),
        "the board is too large",
    );
    // piece cells at the ends of i32 once wrapped into a "connected" piece
    write(
        d.path(),
        "p.toml",
        b"[board]\nrect = [2, 1]\n[[piece]]\nname = \"Q\"\ncells = [[-2147483648, 0], [2147483647, 0]]\n",
    );
    refused(&run(d.path(), &["poly", "solve", "p.toml"]), "out of range");
}

#[test]
fn sudoku_box_sizes_that_wrap() {
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        "g.txt",
        format!("{}\n", ".".repeat(256)).as_bytes(),
    );
    // once: wrapped, and an empty 16x16 grid was "none"
    all_refused(
        d.path(),
        &[
            (
                &[
                    "sudoku",
                    "solve",
                    "--box",
                    "1152921504606846977x16",
                    "g.txt",
                ][..],
                "--box",
            ),
            (
                &["sudoku", "count", "--box", "4294967297x4294967297", "g.txt"],
                "--box",
            ),
        ],
    );
}

#[test]
fn thread_counts_are_capped() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "toy.dlx", b"A B C\nA B\nC\nA\nB C\n");
    for n in ["18446744073709551615", "5000", "0", "-1", "x"] {
        let flag = format!("--threads={n}");
        let o = run(d.path(), &["solve", &flag, "toy.dlx"]);
        refused(&o, "--threads");
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let max = (4 * cores).to_string();
    answered(&run(d.path(), &["solve", "--threads", &max, "toy.dlx"]));
    let over = (4 * cores + 1).to_string();
    refused(
        &run(d.path(), &["solve", "--threads", &over, "toy.dlx"]),
        "at most",
    );
    for cmd in [
        &["sudoku", "solve"][..],
        &["sudoku", "generate"],
        &["poly", "solve", "scott"],
    ] {
        let mut args = cmd.to_vec();
        args.extend(["--threads", "18446744073709551615"]);
        refused(&run(d.path(), &args), "--threads");
    }
}

#[test]
fn generate_streams_and_bounds_its_search() {
    let d = tempfile::tempdir().unwrap();
    // once a panic (capacity overflow), and every puzzle held until the end:
    // the first lines come at once, and the run is stopped after them
    let mut child = spawn(
        d.path(),
        [
            "sudoku",
            "generate",
            "--count",
            "18446744073709551615",
            "--seed",
            "1",
            "--threads",
            "1",
        ],
        Stdio::null(),
    );
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut lines = 0;
    use std::io::BufRead;
    let mut line = String::new();
    while lines < 300 && out.read_line(&mut line).unwrap() > 0 {
        assert_eq!(line.trim().len(), 81, "{line}");
        lines += 1;
        line.clear();
    }
    assert_eq!(lines, 300, "puzzles stream out");
    // SAFETY: kill(2) on our child's pid with a valid signal number.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(sent, 0);
    drop(out);
    let status = child.wait().unwrap();
    assert!(matches!(status.code(), Some(130 | 0)), "{status:?}");
    // ratings no puzzle has: refused at once; a count of 0: refused
    all_refused(
        d.path(),
        &[
            (
                &["sudoku", "generate", "--rating", "12-13"][..],
                "no puzzle is known to rate above",
            ),
            (&["sudoku", "generate", "--rating", "inf-inf"], "--rating"),
            (&["sudoku", "generate", "--rating", "NaN-2"], "--rating"),
            (&["sudoku", "generate", "--count", "0"], "--count"),
        ],
    );
}

#[test]
fn endless_and_huge_inputs_are_read_within_bounds() {
    let d = tempfile::tempdir().unwrap();
    // no line breaks at all: once read whole (an abort on /dev/zero)
    for args in [
        &["solve", "/dev/zero"][..],
        &["solve", "--format", "json", "/dev/zero"],
        &["sudoku", "solve", "/dev/zero"],
        &["poly", "solve", "/dev/zero"],
    ] {
        let o = run_limited(d.path(), 1536, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
        assert!(!err(&o).contains("panicked"), "{}", err(&o));
    }
    refused(
        &run_limited(d.path(), 1536, &["solve", "/dev/zero"]),
        "/dev/zero:1:1: the line is longer than",
    );
    refused(
        &run_limited(d.path(), 1536, &["solve", "--format", "json", "/dev/zero"]),
        "expected a JSON object",
    );
}

/// `solve --count --threads 1 --checkpoint CHECKPOINT PROBLEM`.
fn counted_with_checkpoint<'a>(checkpoint: &'a str, problem: &'a str) -> [&'a str; 7] {
    [
        "solve",
        "--count",
        "--threads",
        "1",
        "--checkpoint",
        checkpoint,
        problem,
    ]
}

#[test]
fn checkpoint_flags_and_files() {
    let d = tempfile::tempdir().unwrap();
    queens_file(d.path(), "q.dlx", 9);
    for every in ["0", "NaN", "inf", "-1", "1e300"] {
        let flag = format!("--checkpoint-every={every}");
        let o = run(
            d.path(),
            &["solve", "--checkpoint", "cp.json", &flag, "q.dlx"],
        );
        refused(&o, "--checkpoint-every");
    }
    // the problem's own file is never overwritten
    let before = std::fs::read(d.path().join("q.dlx")).unwrap();
    all_refused(
        d.path(),
        &[
            (
                &["solve", "--checkpoint", "q.dlx", "q.dlx"][..],
                "the problem's own file",
            ),
            (
                &["solve", "--checkpoint", "./q.dlx", "q.dlx"],
                "the problem's own file",
            ),
            (
                &["solve", "--shard", "1/2", "--shard-out", "q.dlx", "q.dlx"],
                "the problem's own file",
            ),
        ],
    );
    assert_eq!(std::fs::read(d.path().join("q.dlx")).unwrap(), before);
    // a checkpoint and shard results read back: edits and forged fields
    answered(&run(d.path(), &counted_with_checkpoint("cp.json", "q.dlx")));
    for (shard, out) in [("1/2", "s1.json"), ("2/2", "s2.json")] {
        answered(&run(
            d.path(),
            &[
                "solve",
                "--count",
                "--shard",
                shard,
                "--shard-out",
                out,
                "q.dlx",
            ],
        ));
    }
    let merged = run(d.path(), &["merge", "s1.json", "s2.json"]);
    answered(&merged);
    assert_eq!(String::from_utf8_lossy(&merged.stdout).trim(), "352");
    let edit = |file: &str, key: &str, value: &str, to: &str| {
        let text = std::fs::read_to_string(d.path().join(file)).unwrap();
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v[key] = serde_json::from_str(value).unwrap();
        write(d.path(), to, v.to_string().as_bytes());
    };
    for (key, value) in [
        ("depth", "0"),
        ("depth", "99"),
        ("seconds", "-5"),
        ("seconds", "1e300"),
        ("solutions", "18446744073709551615"),
        ("complete", "false"),
    ] {
        edit("s1.json", key, value, "f.json");
        refused(
            &run(d.path(), &["merge", "f.json", "s2.json"]),
            "the checksum does not match",
        );
        edit("cp.json", key, value, "fc.json");
        refused(
            &run(
                d.path(),
                &["solve", "--count", "--resume", "fc.json", "q.dlx"],
            ),
            "the checksum does not match",
        );
    }
    // a map of completed units all ones, once believed (the partial count
    // printed as complete): a checkpoint of a run cut short, edited
    queens_file(d.path(), "q16.dlx", 16);
    let o = signalled(
        d.path(),
        &counted_with_checkpoint("part.json", "q16.dlx"),
        600,
        libc::SIGINT,
    );
    assert_eq!(o.status.code(), Some(130));
    let text = std::fs::read_to_string(d.path().join("part.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let n = v["done"].as_str().unwrap().len();
    v["done"] = "f".repeat(n).into();
    // the checkpoint `v` saved as `name`, resumed
    let resumed = |name: &str, v: &serde_json::Value| {
        write(d.path(), name, v.to_string().as_bytes());
        run(d.path(), &["solve", "--count", "--resume", name, "q16.dlx"])
    };
    refused(&resumed("ones.json", &v), "checksum");
    // no checksum at all (made by hand)
    v.as_object_mut().unwrap().remove("checksum");
    refused(&resumed("bare.json", &v), "no checksum");
    // the untouched files still work
    let again = run(
        d.path(),
        &["solve", "--count", "--resume", "cp.json", "q.dlx"],
    );
    answered(&again);
    assert_eq!(String::from_utf8_lossy(&again.stdout).trim(), "352");
}

#[test]
fn one_rule_for_limit_zero() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "toy.dlx", b"A B\nA\nB\n");
    write(
        d.path(),
        "p.txt",
        format!("{}\n", ".".repeat(81)).as_bytes(),
    );
    all_refused(
        d.path(),
        &[
            (&["solve", "--limit", "0", "toy.dlx"][..], "--limit"),
            (&["sudoku", "count", "--limit", "0", "p.txt"], "--limit"),
            (&["poly", "solve", "scott", "--limit", "0"], "--limit"),
        ],
    );
}

#[test]
fn messages_say_what_and_where() {
    let d = tempfile::tempdir().unwrap();
    // serde's names for the reader's types never reach the user
    write(d.path(), "a.json", b"[]");
    let o = run(d.path(), &["solve", "a.json"]);
    refused(&o, "a.json:1:1:");
    assert!(!err(&o).contains("ProblemDoc"), "{}", err(&o));
    write(
        d.path(),
        "b.json",
        b"{\"primary\": [\"a\"],\n \"options\": [[\"a\"]], \"x\": 1}",
    );
    refused(&run(d.path(), &["solve", "b.json"]), "b.json:2:");
    write(
        d.path(),
        "c.json",
        b"{\"primary\": [\"a\"], \"options\": [[\"b\"]]}",
    );
    refused(
        &run(d.path(), &["solve", "c.json"]),
        "options[0][0]: unknown item \"b\"",
    );
    // a UTF-8 byte order mark is not part of the first item's name
    write(d.path(), "bom.dlx", b"\xef\xbb\xbfA B\nA B\n");
    answered(&run(d.path(), &["solve", "bom.dlx"]));
    write(
        d.path(),
        "bom.json",
        b"\xef\xbb\xbf{\"primary\": [\"a\"], \"options\": [[\"a\"]]}",
    );
    answered(&run(d.path(), &["solve", "bom.json"]));
    write(
        d.path(),
        "bom.txt",
        format!(
            "\u{feff}{}\n",
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
        )
        .as_bytes(),
    );
    answered(&run(d.path(), &["sudoku", "solve", "bom.txt"]));
    // an empty Sudoku file: the same error for every subcommand
    write(d.path(), "empty.txt", b"");
    write(d.path(), "comments.txt", b"# nothing\n\n");
    for sub in ["solve", "count", "check", "rate", "hint", "export"] {
        all_refused(
            d.path(),
            &[
                (
                    &["sudoku", sub, "empty.txt"][..],
                    "empty.txt: no puzzle found: the input is empty",
                ),
                (&["sudoku", sub, "comments.txt"], "no puzzle found"),
            ],
        );
    }
    // invalid UTF-8 is located
    write(d.path(), "bad.txt", b"12\n\xff\xfe\n");
    refused(
        &run(d.path(), &["sudoku", "solve", "bad.txt"]),
        "bad.txt:2:1: invalid UTF-8",
    );
}

#[test]
fn sigterm_is_ctrl_c() {
    let d = tempfile::tempdir().unwrap();
    queens_file(d.path(), "q.dlx", 16);
    let out = signalled(
        d.path(),
        &[
            "solve",
            "--count",
            "--json",
            "--threads",
            "1",
            "--checkpoint",
            "cp.json",
            "q.dlx",
        ],
        800,
        libc::SIGTERM,
    );
    assert_eq!(out.status.code(), Some(130), "{}", err(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(last["type"], "summary");
    assert_eq!(last["stopped"], "interrupted");
    assert!(err(&out).contains("interrupted"));
    // the last checkpoint was written and reads back
    let resumed = run(
        d.path(),
        &[
            "solve",
            "--count",
            "--threads",
            "1",
            "--limit",
            "1",
            "--resume",
            "cp.json",
            "q.dlx",
        ],
    );
    answered(&resumed);
}

#[test]
fn sudoku_batches_print_what_they_have_on_ctrl_c() {
    let d = tempfile::tempdir().unwrap();
    let hard =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    write(d.path(), "many.txt", hard.repeat(200_000).as_bytes());
    for sub in ["solve", "count", "check"] {
        let out = signalled(
            d.path(),
            &[
                "sudoku",
                sub,
                "--engine",
                "dlx",
                "--threads",
                "1",
                "many.txt",
            ],
            700,
            libc::SIGINT,
        );
        assert_eq!(out.status.code(), Some(130), "{sub}: {}", err(&out));
        let lines = String::from_utf8_lossy(&out.stdout).lines().count();
        assert!(
            lines > 0 && lines < 200_000,
            "{sub}: {lines} answers printed"
        );
        let e = err(&out);
        assert!(
            e.contains(&format!(
                "interrupted: {lines} puzzles answered, in input order"
            )),
            "{sub}: {e}"
        );
    }
}
