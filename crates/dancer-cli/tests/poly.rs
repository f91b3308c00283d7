//! `dancer poly`: counts, output forms, pictures, bad files.

use assert_cmd::Command;
use predicates::prelude::*;
use std::io::Write;

fn dancer() -> Command {
    Command::cargo_bin("dancer").unwrap()
}

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
    dancer()
        .args(["poly", "solve", "pentomino-3x20", "--count"])
        .assert()
        .code(0)
        .stdout("8\n");
    dancer()
        .args(["poly", "solve", "pentomino-3x20", "--count", "--unique"])
        .assert()
        .code(0)
        .stdout("2\n");
    dancer()
        .args(["poly", "solve", "soma", "--count"])
        .assert()
        .code(0)
        .stdout("11520\n");
    dancer()
        .args(["poly", "solve", "scott", "--count", "--unique"])
        .assert()
        .code(0)
        .stdout("65\n");
    dancer()
        .args([
            "poly",
            "solve",
            "scott",
            "--count",
            "--unique",
            "--no-symmetry-breaking",
            "--engine",
            "dlx",
        ])
        .assert()
        .code(0)
        .stdout("65\n");
    dancer()
        .args(["poly", "solve", "tetromino-4x5", "--count"])
        .assert()
        .code(1)
        .stdout("0\n");
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

#[test]
fn pictures() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("svg");
    let png = dir.path().join("png");
    let sheet = dir.path().join("sheet.svg");
    dancer()
        .args([
            "poly",
            "solve",
            "pentomino-3x20",
            "--unique",
            "--count",
            "--svg",
        ])
        .arg(&svg)
        .arg("--png")
        .arg(&png)
        .arg("--sheet")
        .arg(&sheet)
        .assert()
        .code(0);
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
    let out = dancer()
        .args(["poly", "export"])
        .arg(f.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let dlx = String::from_utf8(out.stdout).unwrap();
    assert!(dlx.starts_with("| strip"));
    // the exported problem (symmetry broken) solves with the generic solver
    dancer()
        .args(["solve", "--count"])
        .write_stdin(dlx)
        .assert()
        .code(0);
}

#[test]
fn bad_files_say_where() {
    let f = file("[board]\nrect = [5, 5]\n[[piece]]\nname = \"Q9\"\n");
    dancer()
        .args(["poly", "solve"])
        .arg(f.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(":3:1: unknown piece \"Q9\""));
    let f = file("[board]\nrect = [5, 3]\n[[piece]]\nset = \"pentominoes\"\n");
    dancer()
        .args(["poly", "solve"])
        .arg(f.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot cover the board's 15 cells",
        ));
    let f = file("[board]\nrect = [3, 3]\n[[piece]]\nname = \"I\"\n[[piece]]\nset = \"monominoes\"\ncount = \"any\"\n");
    dancer()
        .args(["poly", "solve"])
        .arg(f.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("piece I fits nowhere"));
    let f = file("[board\nrect = [3, 3]\n");
    dancer()
        .args(["poly", "solve"])
        .arg(f.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(":1:"));
    dancer()
        .args(["poly", "solve", "no-such-puzzle"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a built-in puzzle"));
    dancer()
        .args(["poly", "solve", "soma", "--engine", "nope"])
        .assert()
        .code(2);
}
