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

/// What `dancer zdd sample ARGS` in `dir` prints, with exit 0.
fn sampled(dir: &Path, args: &[&str]) -> String {
    let o = run(dir, &[&["zdd", "sample"][..], args].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    stdout(&o)
}

/// A new folder with a file `name` holding `text`: the folder, and the
/// file's name.
fn in_folder(name: &str, text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), name, text);
    (dir, f)
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
    let (dir, f) = in_folder("d16.dlx", &dominoes(16, 16));
    let d = dir.path();
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
    let (dir, f) = in_folder("d4.dlx", &dominoes(4, 4));
    let d = dir.path();
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
    ] {
        let o = run(d, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    // multiplicities are counted, as the engine counts them
    let o = run(d, &["solve", "--count", "--memo", &m]);
    assert_eq!(
        (o.status.code(), stdout(&o).as_str()),
        (Some(0), "2\n"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stdout(&run(d, &["solve", "--count", &m])), "2\n");
}

/// `--zdd FILE` writes the ZDD of every solution; `dancer zdd` counts it
/// as the search did, lists each solution once (checked against the
/// problem), draws verified random ones reproducibly from a seed, and
/// reads Knuth's DLX6 output too.
#[test]
fn zdds_round_trip_through_the_command_line() {
    let (dir, f) = in_folder("d4x5.dlx", &dominoes(4, 5));
    let d = dir.path();
    let o = run(d, &["solve", &f, "--count", "--memo", "--zdd", "d.zdd"]);
    assert_eq!(stdout(&o), "95\n", "{}", stderr(&o));
    assert!(stderr(&o).contains("wrote the ZDD of 95 solutions to d.zdd"));
    let o = run(d, &["zdd", "count", "d.zdd"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "95\n"));
    let o = run(d, &["zdd", "count", "d.zdd", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["type"], "summary");
    assert_eq!(v["solutions"], 95);
    // every solution once, as option lines, as the engines find them
    let o = run(d, &["zdd", "list", "d.zdd", "--problem", &f, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut listed: Vec<Vec<u64>> = stdout(&o)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(v["type"], "solution");
            let mut s: Vec<u64> = v["options"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect();
            s.sort_unstable();
            s
        })
        .collect();
    listed.sort();
    let mut engine: Vec<Vec<u64>> = stdout(&run(d, &["solve", &f, "--json"]))
        .lines()
        .filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let mut s: Vec<u64> = v["options"]
                .as_array()?
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect();
            s.sort_unstable();
            Some(s)
        })
        .collect();
    engine.sort();
    assert_eq!(listed.len(), 95);
    assert_eq!(listed, engine);
    let o = run(
        d,
        &["zdd", "list", "d.zdd", "--problem", &f, "--limit", "2"],
    );
    assert_eq!(stdout(&o).lines().filter(|l| l.is_empty()).count(), 1);
    // random solutions: verified, the same for the same seed
    let draw = |seed: &str| {
        sampled(
            d,
            &["d.zdd", "--problem", &f, "--count", "5", "--seed", seed],
        )
    };
    let a = draw("1");
    assert_eq!(a, draw("1"));
    assert_ne!(a, draw("2"));
    assert_eq!(a.split("\n\n").count(), 5);
    // random packings as pictures
    let o = run(
        d,
        &[
            "poly",
            "solve",
            "pentomino-3x20",
            "--count",
            "--memo",
            "--zdd",
            "p.zdd",
        ],
    );
    assert_eq!(stdout(&o), "8\n", "{}", stderr(&o));
    let pic = sampled(d, &["p.zdd", "--poly", "pentomino-3x20", "--seed", "3"]);
    assert_eq!(pic.lines().count(), 3, "{pic}");
    assert!(pic.lines().all(|l| l.len() == 20), "{pic}");
    // random Sudoku grids: the exact cover of an empty 4x4 grid, its 288
    // grids, drawn as grid lines that `sudoku check` finds complete and
    // valid
    let o = run(d, &["sudoku", "export", "................"]);
    let s4 = write(d, "s4.dlx", &stdout(&o));
    let o = run(d, &["solve", &s4, "--count", "--memo", "--zdd", "s4.zdd"]);
    assert_eq!(stdout(&o), "288\n", "{}", stderr(&o));
    let drawn = sampled(
        d,
        &[
            "s4.zdd",
            "--problem",
            &s4,
            "--sudoku",
            "--count",
            "6",
            "--seed",
            "4",
        ],
    );
    let grids = write(d, "grids.txt", &drawn);
    assert_eq!(drawn.lines().count(), 6);
    assert!(drawn.lines().all(|l| l.len() == 16 && !l.contains('.')));
    let o = run(d, &["sudoku", "check", &grids]);
    assert_eq!(stdout(&o), "unique\n".repeat(6), "{}", stderr(&o));
    let o = run(d, &["zdd", "sample", "d.zdd", "--problem", &f, "--sudoku"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a Sudoku cell"), "{}", stderr(&o));
    // Knuth's format as DLX6 writes it (options 1: A, 2: B, 3: A B)
    write(
        d,
        "knuth.zdd",
        "2: (~2?0:1)\n3: (~1?0:2)\n4: (~3?3:1)\n5: (~0?0:4)\n",
    );
    let k = write(d, "ab.dlx", "A B\nA\nB\nA B\n");
    let o = run(d, &["zdd", "list", "knuth.zdd", "--problem", &k]);
    assert_eq!(stdout(&o), "A B\n\nA\nB\n", "{}", stderr(&o));
}

#[test]
fn bad_zdds_are_refused_with_where_and_why() {
    let (dir, f) = in_folder("d2.dlx", &dominoes(2, 2));
    let d = dir.path();
    write(d, "cut.zdd", "2: (~1?0:1)\n3: (~2?0:7)\n");
    write(d, "loop.zdd", "2: (~1?0:3)\n3: (~2?0:2)\n");
    write(d, "far.zdd", "2: (~99?0:1)\n");
    for (args, says) in [
        (vec!["zdd", "count", "cut.zdd"], "cut.zdd: not a ZDD"),
        (
            vec!["zdd", "count", "cut.zdd"],
            "line 2, column 10: node 7 is not defined",
        ),
        (vec!["zdd", "count", "loop.zdd"], "cycle"),
        (vec!["zdd", "count", "nothere.zdd"], "nothere.zdd"),
        (
            vec!["zdd", "list", "far.zdd", "--problem", &f],
            "names option 99",
        ),
        (
            vec!["zdd", "sample", "far.zdd", "--count", "0"],
            "at least 1",
        ),
        (vec!["solve", &f, "--count", "--zdd", "x.zdd"], "--memo"),
        (
            vec!["solve", &f, "--count", "--memo", "--zdd", &f],
            "problem's own file",
        ),
    ] {
        let o = run(d, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    // a ZDD whose path is not a solution of the problem given
    write(d, "wrong.zdd", "2: (~1?0:1)\n");
    let o = run(d, &["zdd", "list", "wrong.zdd", "--problem", &f]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a solution"), "{}", stderr(&o));
}

/// Without `--memo`, `auto` counts with memos where that certainly pays
/// (a board: its stderr says so), and leaves the rest to the engines (a
/// small search, queens, a count with --verify).
#[test]
fn auto_counts_with_memos_where_it_pays() {
    let (dir, f) = in_folder("d8.dlx", &dominoes(8, 8));
    let d = dir.path();
    let o = run(d, &["solve", "--count", &f]);
    assert_eq!(stdout(&o), "12988816\n", "{}", stderr(&o));
    assert!(stderr(&o).starts_with("memo: "), "{}", stderr(&o));
    let q = write(d, "q8.dlx", &queens(8));
    let o = run(d, &["solve", "--count", &q]);
    assert_eq!(stdout(&o), "92\n");
    assert!(stderr(&o).contains("engine "), "{}", stderr(&o));
    let f4 = write(d, "d4.dlx", &dominoes(4, 4));
    let o = run(d, &["solve", "--count", &f4]);
    assert_eq!(stdout(&o), "36\n");
    assert!(stderr(&o).contains("engine "), "{}", stderr(&o));
    for flag in ["--verify", "--ordered"] {
        let o = run(d, &["solve", "--count", flag, &f]);
        assert!(stderr(&o).contains("engine "), "{flag}: {}", stderr(&o));
    }
}

/// `auto` counts the polyhexes of 1 to 4 cells in a 4x10 parallelogram
/// with memos, though its bound on the count is thousands of times the
/// engines' time: the bound is near enough that the count is tried, and
/// the trial finishes (`memo::choose`). The count is Polyform Puzzler's.
#[test]
fn auto_counts_the_polyhexes_in_4x10_with_memos() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = run(d, &["poly", "export", "polyhex-1234-4x10"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let f = write(d, "4x10.dlx", &stdout(&o));
    let o = run(d, &["solve", "--count", &f]);
    assert_eq!(stdout(&o), "3665348\n", "{}", stderr(&o));
    assert!(stderr(&o).starts_with("memo: "), "{}", stderr(&o));
}

/// `dancer poly solve --count` chooses memos as `dancer solve --count`
/// does: the polyhexes in 4x10 counted with them (every solution, the
/// total of the catalogue's count), the pentominoes in 6x10 searched; with
/// `--unique` the search counts classes, as always.
#[test]
fn poly_counts_choose_memos_as_solve_does() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = run(d, &["poly", "solve", "polyhex-1234-4x10", "--count"]);
    assert_eq!(stdout(&o), "7330696\n", "{}", stderr(&o));
    assert!(stderr(&o).starts_with("memo: "), "{}", stderr(&o));
    let o = run(d, &["poly", "solve", "pentomino-6x10", "--count"]);
    assert_eq!(stdout(&o), "9356\n", "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("pentomino-6x10: 9356 solutions, 2339 unique"),
        "{}",
        stderr(&o)
    );
    let o = run(d, &["poly", "solve", "tetrahex-4x7", "--count", "--unique"]);
    assert_eq!(stdout(&o), "9\n", "{}", stderr(&o));
}

/// `--memo --shard K/N` writes parts that `dancer merge` adds up exactly,
/// beyond 64 bits too, in text and JSON; a missing part is named.
#[test]
fn memoized_counts_in_shards_merge_exactly() {
    let (dir, f) = in_folder("d14.dlx", &dominoes(14, 14));
    let d = dir.path();
    let mut files = Vec::new();
    for k in 1..=3 {
        let out = format!("part{k}.json");
        let o = run(
            d,
            &[
                "solve",
                &f,
                "--count",
                "--memo",
                "--shard",
                &format!("{k}/3"),
                "--shard-out",
                &out,
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("shard {k}/3: ")),
            "{}",
            stderr(&o)
        );
        files.push(out);
    }
    let mut args = vec!["merge"];
    args.extend(files.iter().map(String::as_str));
    let o = run(d, &args);
    assert_eq!(stdout(&o), "112202208776036178000000\n", "{}", stderr(&o));
    args.push("--json");
    let o = run(d, &args);
    assert!(
        stdout(&o).contains(r#""solutions":112202208776036178000000,"#),
        "{}",
        stdout(&o)
    );
    let o = run(d, &["merge", &files[0], &files[2]]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("missing shards of 3: 2"),
        "{}",
        stderr(&o)
    );
    // a memoized part and an enumerated one are not parts of one search
    let q = write(d, "d4.dlx", &dominoes(4, 4));
    run(
        d,
        &[
            "solve",
            &q,
            "--count",
            "--memo",
            "--shard",
            "1/2",
            "--shard-out",
            "m1.json",
        ],
    );
    run(
        d,
        &[
            "solve",
            &q,
            "--count",
            "--shard",
            "2/2",
            "--shard-out",
            "e2.json",
        ],
    );
    let o = run(d, &["merge", "m1.json", "e2.json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("engine"), "{}", stderr(&o));
    // no ZDD of a part
    let o = run(
        d,
        &[
            "solve", &q, "--count", "--memo", "--shard", "1/2", "--zdd", "z",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
}

/// `dancer merge --missing` prints the parts to run again (missing, or
/// stopped before the end) in the form of `sbatch --array`, and nothing
/// once every part is there.
#[test]
fn merge_missing_names_the_parts_to_run_again() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let q = write(d, "q8.dlx", &queens(8));
    // part K of 7, written to pK.json
    let part = |k: usize| {
        let (shard, out) = (format!("{k}/7"), format!("p{k}.json"));
        let o = run(
            d,
            &[
                "solve",
                &q,
                "--count",
                "--shard",
                &shard,
                "--shard-out",
                &out,
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    };
    for k in [1, 2, 4, 7] {
        part(k);
    }
    let o = run(
        d,
        &[
            "merge",
            "--missing",
            "p1.json",
            "p2.json",
            "p4.json",
            "p7.json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "3,5-6\n");
    assert!(
        stderr(&o).contains("4 parts of 7: to run again: 3,5-6"),
        "{}",
        stderr(&o)
    );
    // the same parts, merged, are refused and named
    let o = run(d, &["merge", "p1.json", "p2.json", "p4.json", "p7.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("missing shards of 7: 3, 5, 6"),
        "{}",
        stderr(&o)
    );
    for k in [3, 5, 6] {
        part(k);
    }
    let all: Vec<String> = (1..=7).map(|k| format!("p{k}.json")).collect();
    let mut args = vec!["merge", "--missing"];
    args.extend(all.iter().map(String::as_str));
    let o = run(d, &args);
    assert_eq!(
        (o.status.code(), stdout(&o).as_str()),
        (Some(0), ""),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("none to run again"), "{}", stderr(&o));
    args.remove(1);
    assert_eq!(stdout(&run(d, &args)), "92\n");
}
