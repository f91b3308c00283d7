//! `dancer poly`: counts, output forms, pictures, bad files.

mod common;

use common::{all_refused, dancer, records, solve_count, stdout_ok};
use dancer_poly::model::Model;
use predicates::prelude::*;
use serde_json::Value;
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

fn file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(".toml").tempfile().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

#[test]
fn catalogue_counts() {
    dancer()
        .args(["poly", "list"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("ypent-5x5x5"));
    let scott_dlx = [
        "scott",
        "--count",
        "--unique",
        "--no-symmetry-breaking",
        "--engine",
        "dlx",
    ];
    for (args, code, count) in [
        (&["pentomino-3x20", "--count"][..], 0, "8\n"),
        (&["pentomino-3x20", "--count", "--unique"], 0, "2\n"),
        (&["soma", "--count"], 0, "11520\n"),
        (&["scott", "--count", "--unique"], 0, "65\n"),
        (&scott_dlx, 0, "65\n"),
        (&["tetromino-4x5", "--count"], 1, "0\n"),
    ] {
        dancer()
            .args(["poly", "solve"])
            .args(args)
            .assert()
            .code(code)
            .stdout(count);
    }
}

#[test]
fn ascii_and_json() {
    let out = dancer()
        .args(["poly", "solve", "pentomino-3x20", "--unique"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let blocks: Vec<&str> = text.split("\n\n").collect();
    assert_eq!(blocks.len(), 2);
    for b in blocks {
        let lines: Vec<&str> = b.trim_end().lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines.iter().all(|l| l.len() == 20));
        let mut letters: Vec<char> = b.chars().filter(|c| c.is_ascii_alphabetic()).collect();
        letters.sort();
        letters.dedup();
        assert_eq!(letters.len(), 12, "every pentomino appears");
    }
    let out = dancer()
        .args([
            "poly", "solve", "soma", "--json", "--unique", "--limit", "2",
        ])
        .output()
        .unwrap();
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["type"], "solution");
    let cells: usize = lines[0]["placements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["cells"].as_array().unwrap().len())
        .sum();
    assert_eq!(cells, 27);
    assert_eq!(lines[2]["type"], "summary");
    assert_eq!(lines[2]["unique"], 2);
    assert_eq!(lines[2]["complete"], false);
}

/// `dancer poly solve pentomino-3x20 --unique --count FLAGS` drawing its
/// two solutions in `dir` as SVG pictures (in `svg/`), PNG pictures (in
/// `png/`) and a contact sheet (`sheet`): the output, and the three paths.
fn draw_pentominoes(
    dir: &std::path::Path,
    flags: &[&str],
    sheet: &str,
) -> (std::process::Output, [std::path::PathBuf; 3]) {
    let [svg, png, sheet] = ["svg", "png", sheet].map(|name| dir.join(name));
    let out = dancer()
        .args(["poly", "solve", "pentomino-3x20", "--unique", "--count"])
        .args(flags)
        .arg("--svg")
        .arg(&svg)
        .arg("--png")
        .arg(&png)
        .arg("--sheet")
        .arg(&sheet)
        .output()
        .unwrap();
    (out, [svg, png, sheet])
}

#[test]
fn pictures() {
    let dir = tempfile::tempdir().unwrap();
    let (out, [svg, png, sheet]) = draw_pentominoes(dir.path(), &[], "sheet.svg");
    assert_eq!(out.status.code(), Some(0));
    let s = std::fs::read_to_string(svg.join("solution-00001.svg")).unwrap();
    assert!(s.starts_with("<svg") || s.starts_with("<?xml"));
    assert!(s.trim_end().ends_with("</svg>"));
    let p = std::fs::read(png.join("solution-00002.png")).unwrap();
    assert_eq!(&p[..8], b"\x89PNG\r\n\x1a\n");
    assert!(std::fs::read_to_string(&sheet)
        .unwrap()
        .contains("pentomino-3x20 #2"));
}

#[test]
fn puzzle_files() {
    let f = file("name = \"strip\"\n[board]\nrect = [6, 2]\n[[piece]]\nset = \"dominoes\"\ncount = \"any\"\n[[piece]]\nname = \"trominoes/V\"\ncount = [0, 4]\n");
    dancer()
        .args(["poly", "solve", "--count"])
        .arg(f.path())
        .assert()
        .code(0)
        .stdout("53\n");
    let dlx = stdout_ok(&["poly", "export", f.path().to_str().unwrap()]);
    assert!(dlx.starts_with("| strip"));
    // the exported problem (symmetry broken) solves with the generic solver
    solve_count(dlx).code(0);
}

/// `dancer poly solve FILE` of a file with `text`, refused with `says`
/// in the message.
fn refused_file(text: &str, says: &str) {
    let f = file(text);
    dancer()
        .args(["poly", "solve"])
        .arg(f.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(says));
}

#[test]
fn bad_files_say_where() {
    refused_file(
        "[board]\nrect = [5, 5]\n[[piece]]\nname = \"Q9\"\n",
        ":3:1: unknown piece \"Q9\"",
    );
    refused_file(
        "[board]\nrect = [5, 3]\n[[piece]]\nset = \"pentominoes\"\n",
        ":1:1: the pieces cannot cover the board's 15 cells",
    );
    refused_file("[board]\nrect = [3, 3]\n[[piece]]\nset = \"monominoes\"\ncount = \"any\"\n\n[[piece]]\nname = \"I\"\n", ":7:1: piece I fits nowhere");
    // a piece listed twice: the second, and where the first is
    let f = file("[board]\nrect = [5, 4]\n[[piece]]\nset = \"pentominoes\"\ncount = [0, 1]\n[[piece]]\nname = \"X\"\n");
    let path = f.path().display().to_string();
    dancer()
        .args(["poly", "solve"])
        .arg(f.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{path}:6:1: piece \"X\" is listed twice (first at {path}:3:1)"
        )));
    refused_file("[board\nrect = [3, 3]\n", ":1:");
    all_refused(
        Path::new("."),
        &[(
            &["poly", "solve", "no-such-puzzle"],
            "not a built-in puzzle",
        )],
    );
    dancer()
        .args(["poly", "solve", "soma", "--engine", "nope"])
        .assert()
        .code(2);
}

// ----- helpers: read solutions back, check them -----

/// The output of a `dancer poly` command: exit code, stdout, stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = dancer().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Checks a `--json` solution record of a puzzle with the core's verifier
/// (on the puzzle's exact cover problem without symmetry breaking, which
/// holds every placement), and returns each cell's piece name.
fn check_record(m: &Model, rec: &Value) -> HashMap<[i64; 3], String> {
    assert_eq!(rec["type"], "solution");
    let cover = m.cover(false);
    let option_of: HashMap<usize, usize> = cover
        .options
        .iter()
        .enumerate()
        .map(|(o, &(q, _))| (q as usize, o))
        .collect();
    let mut options = Vec::new();
    let mut names = HashMap::new();
    for pl in rec["placements"].as_array().unwrap() {
        let piece = pl["piece"].as_str().unwrap();
        let mut cells: Vec<usize> = Vec::new();
        for c in pl["cells"].as_array().unwrap() {
            let v: Vec<i64> = c
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_i64().unwrap())
                .collect();
            let cell = [v[0], v[1], v.get(2).copied().unwrap_or(0)];
            let at = [cell[0] as i32, cell[1] as i32, cell[2] as i32];
            cells.push(m.puzzle.board.index(&at).expect("a board cell"));
            assert!(
                names.insert(cell, piece.to_string()).is_none(),
                "cell twice"
            );
        }
        cells.sort_unstable();
        let q = m
            .placements
            .iter()
            .position(|p| p.cells == cells && m.puzzle.pieces[p.piece].name == piece)
            .unwrap_or_else(|| panic!("{piece} {cells:?} is no placement"));
        options.push(option_of[&q]);
    }
    dancer_core::verify(&cover.problem, &options).expect("a solution");
    names
}

/// Reads a text solution (grid and legend) back: each cell's piece name.
fn read_text(m: &Model, block: &str) -> HashMap<[i64; 3], String> {
    let [w, h, _] = m.puzzle.board.extent();
    let lines: Vec<&str> = block.lines().collect();
    let mut legend = HashMap::new();
    for l in &lines[h as usize..] {
        for entry in l.split("  ") {
            let (chars, name) = entry.split_once(": ").unwrap();
            for c in chars.chars() {
                legend.insert(c, name.to_string());
            }
        }
    }
    let mut out = HashMap::new();
    for &[x, y, z] in &m.puzzle.board.cells {
        let c = lines[y as usize]
            .chars()
            .nth((z * (w + 3) + x) as usize)
            .unwrap();
        let name = legend.get(&c).cloned().unwrap_or_else(|| c.to_string());
        out.insert([i64::from(x), i64::from(y), i64::from(z)], name);
    }
    out
}

fn catalogue_model(name: &str) -> Model {
    Model::new(dancer_poly::catalog::puzzle(name).unwrap()).unwrap()
}

/// The solutions printed as text, one block each.
fn blocks(stdout: &str) -> Vec<&str> {
    if stdout.is_empty() {
        return Vec::new();
    }
    stdout.split("\n\n").collect()
}

// ----- --limit -----

/// `--limit N` prints, counts and writes exactly N solutions (N classes
/// with --unique), in text, with --count and with --json, also where the
/// symmetry-broken search finds whole classes at a time.
#[test]
fn the_limit_is_solutions_printed() {
    for (name, limit) in [
        ("pentomino-6x10", 1),
        ("pentomino-6x10", 3),
        ("soma", 1),
        ("soma", 50),
        ("scott", 1),
        ("scott", 9),
    ] {
        let m = catalogue_model(name);
        let n = limit.to_string();
        for unique in [false, true] {
            let mut args = vec!["poly", "solve", name, "--limit", &n, "--threads", "2"];
            if unique {
                args.push("--unique");
            }
            let what = args.join(" ");
            // text
            let (code, out, err) = run(&args);
            assert_eq!(code, 0, "{what}: {err}");
            assert_eq!(blocks(&out).len(), limit, "{what}");
            assert!(
                err.contains("(stopped at the limit: incomplete)"),
                "{what}: {err}"
            );
            // --count
            let mut a = args.clone();
            a.push("--count");
            let (code, out, _) = run(&a);
            assert_eq!((code, out), (0, format!("{limit}\n")), "{what} --count");
            // --json: N solutions, each checked, and a summary that agrees
            let mut a = args.clone();
            a.push("--json");
            let (code, out, _) = run(&a);
            assert_eq!(code, 0);
            let recs = records(&out);
            assert_eq!(recs.len(), limit + 1, "{what} --json");
            for (i, r) in recs[..limit].iter().enumerate() {
                assert_eq!(r["number"], i + 1);
                check_record(&m, r);
            }
            let summary = &recs[limit];
            assert_eq!(summary["type"], "summary");
            assert_eq!(summary["complete"], false);
            let key = if unique { "unique" } else { "solutions" };
            assert_eq!(summary[key], limit, "{what} --json summary");
        }
    }
    // a limit above the count is the count, complete
    let (code, out, _) = run(&[
        "poly",
        "solve",
        "pentomino-3x20",
        "--limit",
        "100",
        "--count",
        "--threads",
        "1",
    ]);
    assert_eq!((code, out.as_str()), (0, "8\n"));
    for bad in ["0", "-1", "x", ""] {
        dancer()
            .args(["poly", "solve", "corner", &format!("--limit={bad}")])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--limit"));
    }
}

// ----- piece names in text -----

/// The text shows the true piece names: read back through the legend, it
/// says the same piece for every cell as the JSON of the same run, for
/// pieces used once, copies, long names and solids.
#[test]
fn text_shows_piece_names() {
    let copies = "name = \"copies\"\n[board]\nrect = [6, 2]\n[[piece]]\nname = \"bar\"\ncells = [[0, 0], [1, 0], [2, 0]]\ncount = [1, 4]\n[[piece]]\nset = \"dominoes\"\ncount = \"any\"\n";
    let f = file(copies);
    let fpath = f.path().to_str().unwrap().to_string();
    for (spec, model) in [
        ("pentomino-3x20", catalogue_model("pentomino-3x20")),
        ("pentomino-6x10", catalogue_model("pentomino-6x10")),
        ("soma", catalogue_model("soma")),
        ("corner", catalogue_model("corner")),
        (
            fpath.as_str(),
            Model::new(dancer_poly::parse(copies, "copies").unwrap()).unwrap(),
        ),
    ] {
        let base = ["poly", "solve", spec, "--limit", "5", "--threads", "1"];
        let (code, text, err) = run(&base);
        assert_eq!(code, 0, "{spec}: {err}");
        let mut json_args = base.to_vec();
        json_args.push("--json");
        let (_, json, _) = run(&json_args);
        let recs = records(&json);
        let grids = blocks(&text);
        assert_eq!(grids.len(), 5.min(recs.len() - 1), "{spec}");
        for (grid, rec) in grids.iter().zip(&recs) {
            let from_json = check_record(&model, rec);
            let from_text = read_text(&model, grid);
            assert_eq!(
                from_text, from_json,
                "{spec}: the text says other pieces:\n{grid}"
            );
        }
    }
    // the bug this guards against: an I in the grid must be the I piece
    let (_, text, _) = run(&[
        "poly",
        "solve",
        "pentomino-3x20",
        "--limit",
        "1",
        "--threads",
        "1",
    ]);
    assert_eq!(text.matches('I').count(), 5);
    assert!(
        !text.contains(':'),
        "no legend for one-letter names used once"
    );
    // copies: a legend
    let (_, text, _) = run(&["poly", "solve", "corner", "--threads", "1"]);
    assert!(text.ends_with("VABC: V\n"), "{text}");
}

// ----- standard input -----

#[test]
fn solve_reads_standard_input() {
    let puzzle = "name = \"strip\"\n[board]\nrect = [6, 2]\n[[piece]]\nset = \"dominoes\"\ncount = \"any\"\n[[piece]]\nname = \"trominoes/V\"\ncount = [0, 4]\n";
    dancer()
        .args(["poly", "solve", "-", "--count", "--threads", "1"])
        .write_stdin(puzzle)
        .assert()
        .code(0)
        .stdout("53\n")
        // not a terminal: nothing said about waiting
        .stderr(predicate::str::contains("standard input").not())
        .stderr(predicate::str::starts_with("strip: 53 solutions"));
    // its solutions check out
    let out = dancer()
        .args([
            "poly",
            "solve",
            "-",
            "--json",
            "--limit",
            "3",
            "--threads",
            "1",
        ])
        .write_stdin(puzzle)
        .output()
        .unwrap();
    let m = Model::new(dancer_poly::parse(puzzle, "x").unwrap()).unwrap();
    let recs = records(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(recs.len(), 4);
    for r in &recs[..3] {
        check_record(&m, r);
    }
    // errors say <stdin> and where
    dancer()
        .args(["poly", "solve", "-"])
        .write_stdin("[board]\nrect = [3, 3]\n[[piece]]\nname = \"Q9\"\n")
        .assert()
        .code(2)
        .stderr("dancer: error: <stdin>:3:1: unknown piece \"Q9\"\n");
    for (input, says) in [
        (&b""[..], "<stdin>:1:1: missing field `board`"),
        (&[0xff, 0xfe, 0x00], "<stdin>:1:1: invalid UTF-8"),
    ] {
        dancer()
            .args(["poly", "solve", "-"])
            .write_stdin(input)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
    // export too
    dancer()
        .args(["poly", "export", "-"])
        .write_stdin(puzzle)
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("| strip:"));
}

// ----- messages -----

/// No `1 solutions`, `1 symmetries`, `1 nodes`, `1 cells`, ... anywhere.
#[test]
fn counts_of_one_are_singular() {
    let plural = regex::Regex::new(
        r"(^|[^0-9.])1 (SVG |PNG )?(solutions|symmetries|nodes|threads|cells|placements|pictures|pieces|copies)\b",
    )
    .unwrap();
    // an L tetromino board: one piece, one placement, one solution, no
    // symmetry but the identity
    let f = file("[board]\nshape = \"###\\n#..\"\n[[piece]]\nname = \"tetrominoes/L\"\n");
    let path = f.path().display().to_string();
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("svg").display().to_string();
    let sheet = dir.path().join("sheet.svg").display().to_string();
    let runs: Vec<Vec<&str>> = vec![
        vec![
            "poly",
            "solve",
            &path,
            "--threads",
            "1",
            "--svg",
            &svg,
            "--sheet",
            &sheet,
        ],
        vec!["poly", "solve", &path, "--count", "--threads", "1"],
        vec!["poly", "solve", &path, "--json", "--threads", "1"],
        vec!["poly", "pieces", "monominoes"],
        vec!["poly", "export", &path],
        vec!["poly", "solve", "corner", "--limit", "1", "--threads", "1"],
    ];
    for a in &runs {
        let (code, out, err) = run(a);
        assert_eq!(code, 0, "{a:?}: {err}");
        for line in out.lines().chain(err.lines()) {
            assert!(!plural.is_match(line), "{line:?} from {a:?}");
        }
    }
    let (_, _, err) = run(&runs[0]);
    assert!(
        err.contains("1 solution, 1 unique up to the 1 symmetry (the identity);")
            && err.contains("1 thread)"),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "wrote 1 SVG picture to {svg} (solution-00001.svg)"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!("wrote a contact sheet of 1 solution to {sheet}")),
        "{err}"
    );
    let (_, out, _) = run(&runs[3]);
    assert!(out.starts_with("O (1 cell):"), "{out}");
    let (_, out, _) = run(&runs[4]);
    assert!(out.contains(": 1 placement\n"), "{out}");
}

/// Pictures: stderr says how many files went where, and the folder holds
/// exactly those.
#[test]
fn pictures_say_where_and_how_many() {
    let dir = tempfile::tempdir().unwrap();
    let (out, [svg, png, sheet]) = draw_pentominoes(dir.path(), &["--threads", "1"], "sheet.png");
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(&format!(
            "wrote 2 SVG pictures to {} (solution-00001.svg to solution-00002.svg)",
            svg.display()
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "wrote 2 PNG pictures to {} (solution-00001.png to solution-00002.png)",
            png.display()
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "wrote a contact sheet of 2 solutions to {}",
            sheet.display()
        )),
        "{err}"
    );
    for d in [&svg, &png] {
        assert_eq!(std::fs::read_dir(d).unwrap().count(), 2);
    }
    assert_eq!(&std::fs::read(&sheet).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
}

/// The width of a PNG, from its header.
fn png_width(bytes: &[u8]) -> u32 {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    u32::from_be_bytes(bytes[16..20].try_into().unwrap())
}

/// `--size` is the cell size in pixels: twice the size, twice the width;
/// bad sizes are clear errors (exit 2), as is a size without pictures.
#[test]
fn size_sets_the_cell_size() {
    let dir = tempfile::tempdir().unwrap();
    let mut widths = Vec::new();
    // the width of the first solution's picture, drawn with `size`
    let drawn = |name: &str, size: &[&str]| {
        let png = dir.path().join(name);
        dancer()
            .args(["poly", "solve", "pentomino-3x20", "--limit", "1"])
            .args(["--count", "--threads", "1"])
            .args(size)
            .arg("--png")
            .arg(&png)
            .assert()
            .code(0);
        png_width(&std::fs::read(png.join("solution-00001.png")).unwrap())
    };
    for size in ["12", "24", "48"] {
        widths.push(drawn(size, &["--size", size]));
    }
    // 20 cells and a margin of half a cell each side
    assert_eq!(widths, vec![12 * 21, 24 * 21, 48 * 21]);
    // the default is 24
    assert_eq!(drawn("default", &[]), 24 * 21);
    for bad in [
        "0",
        "3",
        "257",
        "-5",
        "1e3",
        "abc",
        "99999999999999999999999",
    ] {
        let png = dir.path().join(format!("bad{bad}"));
        dancer()
            .args(["poly", "solve", "corner", &format!("--size={bad}"), "--png"])
            .arg(&png)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--size"))
            .stderr(predicate::str::contains("from 4 to 256"));
        assert!(!png.exists(), "nothing written for --size {bad}");
    }
    dancer()
        .args(["poly", "solve", "corner", "--size", "30"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--svg").or(predicate::str::contains("--png")));
    // a contact sheet too large to draw is an error, not a crash
    let sheet = dir.path().join("huge.png");
    let huge = [
        "poly",
        "solve",
        "pentomino-6x10",
        "--limit",
        "100",
        "--count",
        "--threads",
        "1",
        "--size",
        "256",
        "--sheet",
        sheet.to_str().unwrap(),
    ];
    all_refused(dir.path(), &[(&huge, "pixel image")]);
}

// ----- hostile files -----

#[test]
fn hostile_files_are_clear_errors() {
    for (text, says) in [
        ("[board]\nrect = [65536, 65537]\n[[piece]]\nname = \"O\"\n", ":1:1: bad rectangle 65536x65537"),
        ("[board]\nrect = [2, 1]\n[[piece]]\nname = \"Q\"\ncells = [[-2147483648, 0], [2147483647, 0]]\n", ":5:10: piece \"Q\": coordinate -2147483648 is out of range"),
        ("[board]\nrect = [4, 1]\n[[piece]]\nname = \"A|B\"\ncells = [[0, 0], [1, 0]]\ncount = 2\n", ":3:1: piece \"A|B\""),
        ("[board]\nrect = [4, 1]\n[[piece]]\nname = \"1.0\"\ncells = [[0, 0], [1, 0]]\ncount = 2\n", ":3:1: piece \"1.0\""),
        ("[board]\nrect = [4, 1]\n[[piece]]\nname = \"D\"\ncells = [[0, 0], [1, 0]]\ncount = -2\n", ":6:9: count -2"),
    ] {
        let f = file(text);
        for cmd in ["solve", "export"] {
            dancer()
                .args(["poly", cmd])
                .arg(f.path())
                .assert()
                .code(2)
                .stderr(predicate::str::contains(says))
                .stderr(predicate::str::contains("panicked").not());
        }
    }
}

// ----- documentation -----

/// The help of `poly solve` says where the origin is and which way y goes,
/// and documents every field of the NDJSON records; `poly export` and
/// `poly pieces` say the same of their coordinates.
#[test]
fn help_documents_coordinates_and_records() {
    let (_, help, _) = run(&["poly", "solve", "--help"]);
    for needle in [
        "top left",
        "downwards",
        "rect = [width, height]",
        "- for standard input",
        "--size <PIXELS>",
        "\"type\":\"solution\"",
        "\"type\":\"summary\"",
        "PolyRecord",
        "PiecePlacement",
    ] {
        assert!(help.contains(needle), "{needle:?} not in:\n{help}");
    }
    for field in [
        "number",
        "placements",
        "piece",
        "cells",
        "solutions",
        "unique",
        "nodes",
        "complete",
        "seconds",
        "symmetries",
    ] {
        assert!(
            help.contains(&format!(" {field}: ")),
            "field {field} not explained:\n{help}"
        );
    }
    let (_, help, _) = run(&["poly", "export", "--help"]);
    assert!(help.contains("x.y") && help.contains("top left"), "{help}");
    let (_, help, _) = run(&["poly", "pieces", "--help"]);
    assert!(help.contains("y = 0 on top"), "{help}");
}
