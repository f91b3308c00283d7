//! `dancer poly pieces`: every piece of a size on each grid, counted
//! against the known sequences (OEIS), the named sets, the records, the
//! limits.

mod common;

use common::dancer;
use serde_json::Value;

/// The output of a command: exit code, stdout, stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = dancer().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// How many pieces `poly pieces SPEC` says it printed, in its last line
/// (`12 free polyominoes of 5 cells`), checked against the pieces'
/// headings and the `--json` records.
fn count(spec: &str, one_sided: bool) -> usize {
    let mut args = vec!["poly", "pieces", spec];
    if one_sided {
        args.push("--one-sided");
    }
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{spec}: {err}");
    let last = out.lines().last().unwrap();
    let kind = if one_sided { "one-sided" } else { "free" };
    let (n, rest) = last.split_once(' ').unwrap();
    assert!(rest.starts_with(kind), "{last}");
    let n: usize = n.parse().unwrap();
    let headings = out.lines().filter(|l| !l.starts_with(' ')).count();
    assert_eq!(headings, n + 1, "{spec}: a heading per piece");
    n
}

/// The counts of `GRID-1` to `GRID-N`.
fn counts(grid: &str, up_to: usize, one_sided: bool) -> Vec<usize> {
    (1..=up_to)
        .map(|n| count(&format!("{grid}-{n}"), one_sided))
        .collect()
}

#[test]
fn every_piece_of_a_size_counts_as_known() {
    // OEIS A000105, A000577, A000228, A019988, A038119 and A000162
    let omino = [1, 1, 2, 5, 12, 35, 108, 369, 1285];
    assert_eq!(counts("omino", 9, false), omino);
    let iamond = [1, 1, 1, 3, 4, 12, 24, 66, 160, 448];
    assert_eq!(counts("iamond", 10, false), iamond);
    assert_eq!(counts("hex", 8, false), [1, 1, 3, 7, 22, 82, 333, 1448]);
    assert_eq!(counts("stick", 7, false), [1, 2, 5, 16, 55, 222, 950]);
    assert_eq!(counts("cube", 7, false), [1, 1, 2, 7, 23, 112, 607]);
    assert_eq!(counts("cube", 7, true), [1, 1, 2, 8, 29, 166, 1023]);
    // one-sided polyominoes, A000988
    assert_eq!(counts("omino", 6, true), [1, 1, 2, 7, 18, 60]);
    assert_eq!(counts("twig", 5, false), [1, 1, 3, 4, 12]);
    assert_eq!(counts("trig", 3, false), [1, 3, 12]);
    // spheres: 4 of 3 (the angles 60, 90, 120 and 180 degrees at the middle
    // one), then as the grid's enumeration counts them; prisms likewise
    assert_eq!(counts("sphere", 5, false), [1, 1, 4, 20, 131]);
    assert_eq!(counts("prism", 6, false), [1, 2, 3, 11, 30, 137]);
}

/// The NDJSON records of a command.
fn records(args: &[&str]) -> Vec<Value> {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    let line = |l: &str| serde_json::from_str(l).unwrap();
    out.lines().map(line).collect()
}

#[test]
fn records_name_the_pieces() {
    let recs = records(&["poly", "pieces", "iamond-6", "--json"]);
    assert_eq!(recs.len(), 12);
    for (i, r) in recs.iter().enumerate() {
        assert_eq!(r["type"], "piece");
        assert_eq!(r["number"], i + 1);
        assert_eq!(
            (r["grid"].as_str(), r["size"].as_u64()),
            (Some("triangle"), Some(6))
        );
        assert!(r["name"].as_str().unwrap().starts_with("hexiamonds/"));
        assert_eq!(r["cells"].as_array().unwrap().len(), 6);
        assert!(r["symmetries"].as_u64().unwrap() >= 1);
        assert!(r["chiral"].is_boolean());
    }
    let chiral = recs.iter().filter(|r| r["chiral"] == true).count();
    assert_eq!(chiral, 7, "I6 P6 J6 H6 S6 G6 F6");
    let one = records(&["poly", "pieces", "iamond-6", "--json", "--one-sided"]);
    assert_eq!(one.len(), 19);
    assert!(one.iter().any(|r| r["name"] == "hexiamonds/p6"));
    // no names past the sets: the pieces of 8 squares
    let octo = records(&["poly", "pieces", "omino-8", "--json"]);
    assert!(octo.iter().all(|r| r.get("name").is_none()));
    assert_eq!(octo[0]["cells"][0].as_array().unwrap().len(), 2);
    // a set, with its twins
    let set = records(&["poly", "pieces", "tetrasticks", "--json", "--one-sided"]);
    assert_eq!(set.len(), 25);
    assert_eq!(set[0]["name"], "tetrasticks/I");
    assert_eq!(
        set[0]["cells"],
        serde_json::json!([[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]])
    );
}

#[test]
fn text_shows_names_and_pictures() {
    let (_, out, _) = run(&["poly", "pieces", "omino-5"]);
    assert!(
        out.contains("pentominoes/X\n  .#.\n  ###\n  .#.\n"),
        "{out}"
    );
    assert!(out.ends_with("\n12 free polyominoes of 5 cells\n"), "{out}");
    let (_, out, _) = run(&["poly", "pieces", "omino-1"]);
    assert_eq!(out, "1. monominoes/O\n  #\n1 free polyomino of 1 cell\n");
    let (_, out, _) = run(&["poly", "pieces", "stick-1"]);
    assert_eq!(out, "1. monosticks/I1\n  +-+\n1 free polystick of 1 cell\n");
    // twigs and trigs: no text pictures, their cells
    let (_, out, _) = run(&["poly", "pieces", "twig-2"]);
    assert!(out.contains("ditwigs/L2\n  [0, 0, "), "{out}");
    // a set as before, with its twins on demand
    let (_, out, _) = run(&["poly", "pieces", "pentominoes", "--one-sided"]);
    assert!(
        out.starts_with("F (5 cells):\n  .##\n  ##.\n  .#.\nf (5 cells):\n  ##.\n"),
        "{out}"
    );
    assert_eq!(
        out.lines().filter(|l| l.ends_with("(5 cells):")).count(),
        18
    );
    let (_, out, _) = run(&["poly", "pieces", "hexiamonds"]);
    assert_eq!(
        out.lines().filter(|l| l.ends_with("(6 cells):")).count(),
        12
    );
}

#[test]
fn sizes_past_the_limit_are_refused() {
    for (spec, says) in [
        ("omino-11", "from 1 to 10 on the square grid"),
        ("cube-9", "from 1 to 8 on the cube grid"),
        ("trig-8", "from 1 to 7 on the trig grid"),
        ("hex-0", "from 1 to 10 on the hexagon grid"),
        ("sphere-7", "from 1 to 6 on the sphere grid"),
    ] {
        let (code, out, err) = run(&["poly", "pieces", spec]);
        assert_eq!(code, 2, "{spec}");
        assert!(out.is_empty() && err.contains(says), "{spec}: {err}");
    }
    let (code, _, err) = run(&["poly", "pieces", "ogre-5"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("GRID-N") && err.contains("omino, iamond, hex"),
        "{err}"
    );
}

#[test]
fn help_documents_the_records_and_limits() {
    let (_, help, _) = run(&["poly", "pieces", "--help"]);
    for needle in [
        "GRID-N",
        "--one-sided",
        "PieceRecord",
        "y = 0 on top",
        "at most 10",
    ] {
        assert!(help.contains(needle), "{needle:?} not in:\n{help}");
    }
    for field in [
        "number",
        "grid",
        "size",
        "name",
        "cells",
        "symmetries",
        "chiral",
    ] {
        assert!(
            help.contains(&format!(" {field}: ")),
            "field {field}:\n{help}"
        );
    }
}
