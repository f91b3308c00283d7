//! What is said of killer lines that cannot be read: a map whose side has
//! no boxes, a map of a length no killer has (every accepted length
//! listed), and killer lines given to the plain batch commands without
//! `--killer`, split into shards or not: exit 2, saying where (the file
//! and line) and what.

mod common;

use common::{err, refused, run, write};

#[test]
fn a_killer_map_of_25_or_49_cells_says_its_side_has_no_boxes() {
    let dir = tempfile::tempdir().unwrap();
    for (n, cells) in [(5, 25), (7, 49)] {
        let line = format!("a{} 1\n", ".".repeat(cells - 1));
        write(dir.path(), "k.txt", line.as_bytes());
        let o = run(dir.path(), &["sudoku", "solve", "--killer", "k.txt"]);
        refused(
            &o,
            &format!(
                "k.txt:1: invalid puzzle: the map has {cells} cells, a {n}x{n} grid, which has no boxes ({n} is a prime)"
            ),
        );
        assert!(!err(&o).contains("not supported"), "{}", err(&o));
    }
}

#[test]
fn a_killer_map_of_a_wrong_length_lists_every_accepted_length() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "k.txt",
        format!("# x\na{} 1\n", ".".repeat(29)).as_bytes(),
    );
    let o = run(dir.path(), &["sudoku", "count", "--killer", "k.txt"]);
    refused(
        &o,
        "k.txt:2: invalid puzzle: the map has 30 cells: a killer's map has 16, 36, 64, 81, 100, 144, 196, 225 or 256 cells",
    );
}

#[test]
fn killer_lines_without_killer_say_to_give_it_sharded_or_not() {
    let dir = tempfile::tempdir().unwrap();
    let killers = "# killers\naabcdefcgefhgijj 3,4,4,3,7,3,5,2,2,7\naabbaabbccddccdd 10,10,10,10\n";
    write(dir.path(), "killers.txt", killers.as_bytes());
    let o = run(dir.path(), &["sudoku", "solve", "killers.txt"]);
    refused(
        &o,
        "killers.txt:2: a killer puzzle (MAP SUMS): give --killer to read killer puzzles",
    );
    assert!(
        o.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let o = run(
        dir.path(),
        &["sudoku", "solve", "killers.txt", "--shard", "2/2"],
    );
    refused(&o, "--shard: killers.txt:2 is a killer puzzle (MAP SUMS)");
    assert!(!err(&o).contains("grids over several lines"), "{}", err(&o));
    // with --killer, they are read as killers
    let o = run(dir.path(), &["sudoku", "count", "--killer", "killers.txt"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    // plain lines with a field after the puzzle stay plain puzzles
    let plain =
        "980760500700000090005009800570006080004000300000000005420007050050020000000100204 11\n";
    write(dir.path(), "plain.txt", plain.as_bytes());
    let o = run(dir.path(), &["sudoku", "count", "plain.txt"]);
    assert!(!err(&o).contains("killer"), "{}", err(&o));
}
