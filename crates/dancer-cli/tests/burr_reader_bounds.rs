//! BurrTools files that are hostile by their size and shape: a gzip bomb
//! of XML elements is refused at its place, in bounded memory (run under
//! `ulimit -v` as it was reported, and under a tighter limit); a file of
//! many shapes reads within a generous guard against a hang; every gzip
//! member is read and bytes after them are refused; an empty `.xmpuzzle`
//! file says it is an empty BurrTools file.

mod common;

use common::{answered, err, refused, run, run_limited, spawn, wait_within, write};
use std::io::Write;
use std::process::Stdio;
use std::time::Duration;

/// The address space of the reported case, in MiB (`ulimit -v 4000000`).
const LIMIT_MB: u64 = 4_000_000 / 1024;

/// The address space the bomb is refused in now (it took 1.3 GB of
/// memory before, and aborted under `LIMIT_MB` three at a time).
const TIGHT_MB: u64 = 640;

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// A good file of cubes: a row of three and a cube used three times,
/// with `extra` before `</puzzle>` (at line 3).
fn good(extra: &str) -> String {
    format!(
        "<?xml version=\"1.0\"?>\n<puzzle version=\"2\"><gridType type=\"0\"/><colors/><shapes><voxel x=\"3\" y=\"1\" z=\"1\" type=\"0\">###</voxel><voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel></shapes><problems><problem><shapes><shape id=\"1\" count=\"3\"/></shapes><result id=\"0\"/><bitmap/></problem></problems>\n{extra}</puzzle>\n"
    )
}

/// The reported bomb: 64 MiB of `<a/>` in the comment (98 KB gzipped).
#[test]
fn a_gzip_bomb_of_elements_is_refused_at_its_place_in_bounded_memory() {
    let d = tempfile::tempdir().unwrap();
    let head = "<?xml version=\"1.0\"?>\n<puzzle version=\"2\"><comment>";
    let tail = "</comment></puzzle>\n";
    let n = ((64 << 20) - head.len() - tail.len()) / 4;
    let text = format!("{head}{}{tail}", "<a/>".repeat(n));
    let bomb = gzip(text.as_bytes());
    drop(text);
    assert!(bomb.len() < 200_000, "{} bytes", bomb.len());
    write(d.path(), "bomb.xmpuzzle", &bomb);
    // the declaration, its new line, <puzzle> and its attribute, <comment>:
    // 5 nodes; node 2,000,001 is <a/> number 1,999,996, at column 30 + 4k
    let at = format!(
        "bomb.xmpuzzle:2:{}: more than 2000000 XML nodes",
        30 + 4 * 1_999_995
    );
    for mb in [LIMIT_MB, TIGHT_MB] {
        for args in [
            &["poly", "problems", "bomb.xmpuzzle"][..],
            &["poly", "solve", "bomb.xmpuzzle", "--count"],
        ] {
            let o = run_limited(d.path(), mb, args);
            refused(&o, &at);
        }
    }
}

/// 100,000 shapes, the most a file may have (4.3 MB of XML, 19 KB
/// gzipped): the problems are listed and the puzzle solved within a
/// generous guard against a hang (40,000 took 55 s when each place was
/// found by a scan from the start of the file).
#[test]
fn a_hundred_thousand_shapes_are_read_within_a_minute() {
    let d = tempfile::tempdir().unwrap();
    let mut shapes = String::new();
    for _ in 2..100_000 {
        shapes += "<voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel>\n";
    }
    let text = good("").replace(
        "</shapes><problems>",
        &format!("\n{shapes}</shapes><problems>"),
    );
    write(d.path(), "many.xmpuzzle", &gzip(text.as_bytes()));
    for args in [
        &["poly", "problems", "many.xmpuzzle"][..],
        &["poly", "solve", "many.xmpuzzle", "--count"],
    ] {
        let mut child = spawn(d.path(), args, Stdio::null());
        let status = wait_within(&mut child, Duration::from_secs(60), "no answer in 60 s");
        let o = child.wait_with_output().unwrap();
        assert_eq!(status.code(), Some(0), "{args:?}: {}", err(&o));
    }
}

#[test]
fn every_gzip_member_is_read_and_nothing_may_follow() {
    let d = tempfile::tempdir().unwrap();
    let text = good("");
    let (a, b) = text.split_at(text.len() / 2);
    let mut two = gzip(a.as_bytes());
    two.extend(gzip(b.as_bytes()));
    write(d.path(), "two.xmpuzzle", &two);
    let o = run(d.path(), &["poly", "solve", "two.xmpuzzle", "--count"]);
    answered(&o);
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "1");
    let mut trailing = gzip(text.as_bytes());
    let end = trailing.len();
    trailing.extend_from_slice(b"trailing garbage");
    write(d.path(), "tail.xmpuzzle", &trailing);
    refused(
        &run(d.path(), &["poly", "solve", "tail.xmpuzzle", "--count"]),
        &format!(
            "tail.xmpuzzle:1:1: not a BurrTools file: 16 bytes after the gzip data (from byte {end})"
        ),
    );
}

#[test]
fn an_empty_xmpuzzle_file_is_an_empty_burrtools_file() {
    let d = tempfile::tempdir().unwrap();
    for (name, bytes, says) in [
        ("empty.xmpuzzle", &b""[..], "the file is empty"),
        (
            "blank.XMPUZZLE",
            b"  \n\n",
            "the file holds only white space",
        ),
    ] {
        write(d.path(), name, bytes);
        for args in [
            &["poly", "solve", name, "--count"][..],
            &["poly", "problems", name],
        ] {
            refused(
                &run(d.path(), args),
                &format!("{name}:1:1: not a BurrTools file: {says}"),
            );
        }
    }
}
