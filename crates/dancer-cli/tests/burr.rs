//! `dancer poly` on BurrTools files: problems listed and picked, counts
//! and disassemblies as BurrTools gives them, files written that read
//! back, bad files refused at their line with exit 2.

mod common;

use common::dancer;
use predicates::prelude::*;
use serde_json::Value;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../dancer-poly/tests/burr");

fn example(name: &str) -> String {
    format!("{DIR}/{name}.xmpuzzle")
}

#[test]
fn problems_are_listed_and_picked() {
    dancer()
        .args(["poly", "problems", &example("Prisgon")])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("1  Markus  9 pieces (9 copies) into Result1 (225 cells, 54 optional) on triangular prisms"))
        .stdout(predicate::str::contains("2  Philos"));
    let out = dancer()
        .args(["poly", "problems", "--json", &example("DemoMirrorParadox")])
        .output()
        .unwrap();
    let recs: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[1]["name"], "Another Example");
    assert_eq!(recs[1]["copies_min"], 3);
    for p in ["2", "Philos", "philos"] {
        dancer()
            .args([
                "poly",
                "solve",
                &example("Prisgon"),
                "--problem",
                p,
                "--unique",
                "--count",
            ])
            .assert()
            .code(0)
            .stdout("1\n")
            .stderr(predicate::str::starts_with("Philos:"));
    }
    dancer()
        .args([
            "poly",
            "solve",
            &example("Prisgon"),
            "--problem",
            "3",
            "--count",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no problem 3: the file has 2 problems",
        ));
    dancer()
        .args(["poly", "solve", "soma", "--problem", "1", "--count"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--problem is for BurrTools files"));
}

#[test]
fn counts_and_disassemblies_as_burrtools() {
    let out = dancer()
        .args([
            "poly",
            "solve",
            &example("PelikanBurr"),
            "--unique",
            "--disassemble",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let recs: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary = recs.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["unique"], 12);
    assert_eq!(summary["disassemblies"], 1);
    let apart: Vec<&Value> = recs
        .iter()
        .filter(|r| r["type"] == "solution" && r["disassembly"]["apart"] == true)
        .collect();
    assert_eq!(apart.len(), 1);
    assert_eq!(apart[0]["disassembly"]["level"], "98.2.4.2");
    assert_eq!(apart[0]["disassembly"]["moves"], 108);
    // the text says the moves
    dancer()
        .args([
            "poly",
            "solve",
            &example("CubeInCage"),
            "--unique",
            "--disassemble",
            "--limit",
            "96",
        ])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "comes apart, level 4.9.3 (16 moves):\n  1. Frame2#2 -x 1\n",
        ))
        .stdout(predicate::str::contains("does not come apart"))
        .stderr(predicate::str::contains("1 of the 96 classes come apart"));
    // the file's stored counts are said beside dancer's
    dancer()
        .args([
            "poly",
            "solve",
            &example("SolidSixPieceBurrs"),
            "--unique",
            "--count",
        ])
        .assert()
        .code(0)
        .stdout("588\n");
    // spheres are not taken apart
    dancer()
        .args([
            "poly",
            "solve",
            &example("BallRoom"),
            "--disassemble",
            "--count",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cubes and triangular prisms, not on the sphere grid",
        ));
}

#[test]
fn a_written_file_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("soma.xmpuzzle");
    let out = out.to_str().unwrap();
    dancer()
        .args(["poly", "export", "soma", "--xmpuzzle", out])
        .assert()
        .code(0);
    dancer()
        .args(["poly", "solve", out, "--unique", "--count"])
        .assert()
        .code(0)
        .stdout("240\n");
    // never over the puzzle it reads
    let src = dir.path().join("p.xmpuzzle");
    std::fs::copy(example("CubeInCage"), &src).unwrap();
    let src = src.to_str().unwrap();
    dancer()
        .args(["poly", "export", src, "--xmpuzzle", src])
        .assert()
        .code(2);
    assert_eq!(
        std::fs::read(src).unwrap(),
        std::fs::read(example("CubeInCage")).unwrap()
    );
    // a grid BurrTools does not have
    dancer()
        .args([
            "poly",
            "export",
            "pentomino-6x10",
            "--xmpuzzle",
            &format!("{}/x.xmpuzzle", dir.path().display()),
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("BurrTools has no grid of"));
}

#[test]
fn bad_files_are_refused_at_their_line() {
    let dir = tempfile::tempdir().unwrap();
    for (text, says) in [
        ("<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n<gridType type=\"9\"/>\n</puzzle>\n", ":3:1: unknown grid type 9"),
        ("<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n<shapes><voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">#</voxel></shapes>\n</puzzle>\n", ":3:9: the shape has 1 cells, its 2x1x1 box 2"),
        ("<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n<gridType type=\"3\"/>\n<shapes><voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel><voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel></shapes><problems><problem><shapes><shape id=\"1\"/></shapes><result id=\"0\"/></problem></problems>\n</puzzle>\n", ":4:9: cell 1 at [0, 0, 0] is no cell of the rhombic dodecahedra grid"),
        ("<?xml version=\"1.0\"?>\n<puzzle version=\"2\"><shapes>\n", "not well-formed XML"),
    ] {
        let f = dir.path().join("bad.xmpuzzle");
        std::fs::write(&f, text).unwrap();
        dancer()
            .args(["poly", "solve", f.to_str().unwrap(), "--count"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
    // gzip of nothing BurrTools wrote
    let f = dir.path().join("bad.xmpuzzle");
    std::fs::write(&f, [0x1f, 0x8b, 0, 0, 0]).unwrap();
    dancer()
        .args(["poly", "problems", f.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("gzip data is broken"));
}
