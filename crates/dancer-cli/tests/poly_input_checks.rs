//! `dancer poly` on hostile input: coordinates that once wrapped into a
//! silent wrong answer, cells with the wrong number of coordinates, a FIFO
//! where a picture goes, a problem number that is also a problem's name,
//! names that would forge lines, and pieces by the thousand. Every case is
//! an answer or a refusal (exit 2) saying where and what, never a hang.

#![cfg(unix)]

mod common;

use common::{err, refused, run, wait_within, write};
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn a_coordinate_at_the_end_of_i64_is_refused_at_its_place() {
    let d = tempfile::tempdir().unwrap();
    let domino = "[[piece]]\nname = \"D\"\ncells = [[0, 0], [1, 0]]\n";
    // once: abs() wrapped, the coordinate passed as in range, became 0,
    // and the board [[0, 0], [1, 0]] had "1 solution"
    write(
        d.path(),
        "b.toml",
        format!("[board]\ncells = [[-9223372036854775808, 0], [1, 0]]\n{domino}").as_bytes(),
    );
    refused(
        &run(d.path(), &["poly", "solve", "b.toml"]),
        "b.toml:2:10: cells: coordinate -9223372036854775808 is out of range (-100000 to 100000)",
    );
    // a piece's cells, and the holes, at the cell's own line and column
    write(
        d.path(),
        "p.toml",
        b"[board]\nrect = [2, 1]\n[[piece]]\nname = \"D\"\ncells = [[0, 0],\n  [-9223372036854775808, 0]]\n",
    );
    refused(
        &run(d.path(), &["poly", "solve", "p.toml"]),
        "p.toml:6:3: piece \"D\": coordinate -9223372036854775808 is out of range",
    );
    write(
        d.path(),
        "h.toml",
        format!("[board]\nrect = [3, 1]\nholes = [[2, -9223372036854775808]]\n{domino}").as_bytes(),
    );
    refused(
        &run(d.path(), &["poly", "solve", "h.toml"]),
        "h.toml:3:10: holes: coordinate -9223372036854775808 is out of range",
    );
}

#[test]
fn a_cell_with_the_wrong_number_of_coordinates_is_refused_at_its_place() {
    let d = tempfile::tempdir().unwrap();
    // once: the third coordinate of a hexagon's cell was taken as 0
    write(
        d.path(),
        "x.toml",
        b"grid = \"hexagon\"\n[board]\ncells = [[0, 0], [1, 0, 0]]\n[[piece]]\nname = \"D\"\ncells = [[0, 0], [1, 0]]\n",
    );
    refused(
        &run(d.path(), &["poly", "solve", "x.toml"]),
        "x.toml:3:18: cells: [1, 0, 0] has 3 coordinates; a cell of the hexagon grid has 2 ([x, y])",
    );
    // and a triangle's cell needs its third
    write(
        d.path(),
        "t.toml",
        b"grid = \"triangle\"\n[board]\nhexagon = 1\n[[piece]]\nname = \"T\"\ncells = [[0, 0]]\ncount = \"any\"\n",
    );
    refused(
        &run(d.path(), &["poly", "solve", "t.toml"]),
        "t.toml:6:10: piece \"T\": [0, 0] has 2 coordinates; a cell of the triangle grid has 3 ([x, y, k])",
    );
}

#[test]
fn a_fifo_in_the_pictures_folder_is_refused_not_waited_on() {
    let d = tempfile::tempdir().unwrap();
    let pics = d.path().join("pics");
    std::fs::create_dir(&pics).unwrap();
    let fifo = pics.join("solution-00001.png");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    // once: blocked for ever in opening the FIFO, deaf to the first Ctrl-C
    let mut child = common::spawn(
        d.path(),
        [
            "poly",
            "solve",
            "pentomino-3x20",
            "--png",
            "pics",
            "--limit",
            "1",
        ],
        Stdio::null(),
    );
    let status = wait_within(
        &mut child,
        Duration::from_secs(60),
        "dancer waited on the FIFO",
    );
    let e = common::rest_of(child.stderr.take());
    assert_eq!(status.code(), Some(2), "{e}");
    assert!(e.contains("pics/solution-00001.png"), "{e}");
    assert!(e.contains("is a FIFO, not a regular file"), "{e}");
    assert!(!e.contains("panicked"), "{e}");
}

/// A BurrTools file of problems named `names` (each three cubes of one
/// kind in a row of three).
fn burr_file(names: &[&str]) -> String {
    let problems: String = names
        .iter()
        .map(|n| format!("<problem name=\"{n}\"><shapes><shape id=\"1\" count=\"3\"/></shapes><result id=\"0\"/><bitmap/></problem>\n"))
        .collect();
    format!(
        "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n<gridType type=\"0\"/>\n<colors/>\n<shapes>\n\
         <voxel x=\"3\" y=\"1\" z=\"1\" type=\"0\">###</voxel>\n<voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel>\n\
         </shapes>\n<problems>\n{problems}</problems>\n</puzzle>\n"
    )
}

#[test]
fn a_problem_number_is_the_problem_of_that_number_and_a_name_like_it_is_said() {
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        "t.xmpuzzle",
        burr_file(&["Alpha", "1", "Gamma"]).as_bytes(),
    );
    // once: problem 2, named "1", without a word
    let o = run(
        d.path(),
        &["poly", "solve", "t.xmpuzzle", "--problem", "1", "--count"],
    );
    let e = err(&o);
    assert_eq!(o.status.code(), Some(0), "{e}");
    assert!(e.contains("\nAlpha: 1 solution"), "{e}");
    assert!(
        e.contains("note: --problem 1 is problem 1 (\"Alpha\"), by its number; problem 2 is named \"1\": --problem 2 takes that one"),
        "{e}"
    );
    // that one by its number; no note where no other problem is named so
    for (spec, name) in [("2", "1:"), ("Gamma", "Gamma:"), ("3", "Gamma:")] {
        let o = run(
            d.path(),
            &["poly", "solve", "t.xmpuzzle", "--problem", spec, "--count"],
        );
        let e = err(&o);
        assert_eq!(o.status.code(), Some(0), "{e}");
        assert!(e.starts_with(name), "{spec}: {e}");
        assert!(!e.contains("note:"), "{spec}: {e}");
    }
    // a number past the last problem is a name, when one has it
    write(
        d.path(),
        "u.xmpuzzle",
        burr_file(&["Alpha", "7"]).as_bytes(),
    );
    let o = run(
        d.path(),
        &["poly", "solve", "u.xmpuzzle", "--problem", "7", "--count"],
    );
    assert!(err(&o).starts_with("7:"), "{}", err(&o));
    refused(
        &run(
            d.path(),
            &["poly", "solve", "u.xmpuzzle", "--problem", "8", "--count"],
        ),
        "no problem 8: the file has 2 problems",
    );
}

#[test]
fn problem_names_are_listed_one_line_each() {
    let d = tempfile::tempdir().unwrap();
    // a newline, a carriage return and a right-to-left override in a
    // name: once printed raw, a line of its own
    write(
        d.path(),
        "t.xmpuzzle",
        burr_file(&["A&#10;2  Forged  9 pieces", "B&#13;&#8238;C"]).as_bytes(),
    );
    let o = run(d.path(), &["poly", "problems", "t.xmpuzzle"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("1  A\\n2  Forged  9 pieces  1 piece"),
        "{out}"
    );
    assert!(lines[1].starts_with("2  B\\r\\u{202e}C  1 piece"), "{out}");
    assert!(!out.contains(['\r', '\u{202e}']), "{out}");
    // as records, the names as they are (JSON escapes them)
    let o = run(d.path(), &["poly", "problems", "--json", "t.xmpuzzle"]);
    let r = common::records(&String::from_utf8(o.stdout).unwrap());
    assert_eq!(r[0]["name"], "A\n2  Forged  9 pieces");
    // and a run's summary says the name on one line too
    let o = run(d.path(), &["poly", "solve", "t.xmpuzzle", "--count"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        err(&o).starts_with("A\\n2  Forged  9 pieces: 1 solution"),
        "{}",
        err(&o)
    );
}

#[test]
fn ten_thousand_pieces_of_their_own_are_refused_early_in_little_memory() {
    let d = tempfile::tempdir().unwrap();
    let mut text = String::from("[board]\nrect = [100, 100]\n");
    for k in 0..10_000 {
        text += &format!("[[piece]]\nname = \"m{k}\"\ncells = [[0, 0]]\n");
    }
    write(d.path(), "m.toml", text.as_bytes());
    // once: 7 s and 1.26 GB of placements before a refusal (a line and
    // column found by counting the lines before it, 10,000 times; then 20
    // million placements of one cell made, then refused)
    let script = format!(
        "ulimit -v {}; exec '{}' poly solve m.toml",
        1024 * 1024,
        common::bin().display()
    );
    let mut child = Command::new("sh")
        .args(["-c", &script])
        .current_dir(d.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait_within(
        &mut child,
        Duration::from_secs(120),
        "not refused within two minutes",
    );
    let e = common::rest_of(child.stderr.take());
    assert_eq!(status.code(), Some(2), "{e}");
    assert!(
        e.contains("the puzzle is too large: the pieces have more than 4000000 placements (10000 pieces on a board of 10000 cells)"),
        "{e}"
    );
}
