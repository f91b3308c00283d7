//! The BurrTools reader is bounded by its input: a file whose XML has more
//! nodes, deeper nesting or more attributes on an element than the reader
//! takes is refused where it passes the cap, before a tree is built; a file
//! of many shapes reads in time linear in its size; every gzip member is
//! read and nothing may follow them; an empty file says so.

use dancer_poly::burr;
use std::io::Write;
use std::time::Duration;

/// A file of cubes with these shapes (voxel elements), this problem and
/// `extra` just before `</puzzle>`: the shapes at line 6, the problem at
/// line 9 and `extra` at line 11 when the shapes are one line.
fn cubes(shapes: &str, problem: &str, extra: &str) -> String {
    format!(
        "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n<gridType type=\"0\"/>\n<colors/>\n<shapes>\n{shapes}\n</shapes>\n<problems>\n{problem}\n</problems>\n{extra}\n</puzzle>\n"
    )
}

const SHAPES: &str = "<voxel x=\"3\" y=\"1\" z=\"1\" type=\"0\">###</voxel><voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel>";
const PROBLEM: &str =
    "<problem><shapes><shape id=\"1\" count=\"3\"/></shapes><result id=\"0\"/><bitmap/></problem>";

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// The error's line, column and message; the file must be refused.
fn refused(bytes: &[u8]) -> (usize, usize, String) {
    match burr::read(bytes, "t.xmpuzzle") {
        Ok(_) => panic!("accepted"),
        Err(e) => {
            let at = e.location().expect("a place").clone();
            assert_eq!(at.file, "t.xmpuzzle");
            (at.line, at.col, e.message())
        }
    }
}

/// Runs `f` on a thread and waits for it at most `secs` seconds (a
/// generous guard against a hang, not a measure of speed).
fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(secs))
        .unwrap_or_else(|_| panic!("no answer within {secs} s"))
}

#[test]
fn a_comment_of_millions_of_elements_is_refused_at_the_node_past_the_cap() {
    // 2,000,001 empty elements in the comment of a good file (8 MB): the
    // cap is passed inside the comment's line
    let extra = format!("<comment>{}</comment>", "<a/>".repeat(2_000_001));
    let text = cubes(SHAPES, PROBLEM, &extra);
    let (line, col, message) = refused(text.as_bytes());
    assert!(message.contains("more than 2000000 XML nodes"), "{message}");
    assert_eq!(line, 11, "{message}");
    // at an <a/> of the comment: the comment starts the line, each <a/> is
    // 4 columns wide
    assert!(col > 10 && (col - 10) % 4 == 0, "column {col}: {message}");
    // the same gzipped (as the reported bomb is): the same place
    assert_eq!(refused(&gzip(text.as_bytes())), (line, col, message));
}

#[test]
fn an_element_in_the_comment_is_refused_at_its_place() {
    let text = cubes(SHAPES, PROBLEM, "<comment popup=\"1\">a\n<b/></comment>");
    let (line, col, message) = refused(text.as_bytes());
    assert_eq!((line, col), (12, 1), "{message}");
    assert!(
        message.contains("unknown element <b> in <comment>"),
        "{message}"
    );
}

#[test]
fn elements_nested_past_the_cap_are_refused_at_the_deepest() {
    // stored solutions of BurrTools' own elements, nested 300 deep
    let deep = |n: usize| {
        format!(
            "<problem><shapes><shape id=\"1\" count=\"3\"/></shapes><result id=\"0\"/><bitmap/><solutions><solution>\n{}{}</solution></solutions></problem>",
            "<separation>".repeat(n),
            "</separation>".repeat(n)
        )
    };
    // puzzle, problems, problem, solutions, solution: 5 levels; 251 more
    // are 256, which reads
    let ok = cubes(SHAPES, &deep(251), "");
    let f = burr::read(ok.as_bytes(), "t.xmpuzzle").unwrap();
    assert_eq!(f.problems[0].kept, 1);
    let text = cubes(SHAPES, &deep(300), "");
    let (line, col, message) = refused(text.as_bytes());
    assert!(message.contains("nested more than 256 deep"), "{message}");
    // the 257th element: the 252nd <separation> of line 10
    assert_eq!((line, col), (10, 251 * 12 + 1), "{message}");
}

#[test]
fn an_element_with_too_many_attributes_is_refused_at_its_place() {
    let attrs: String = (0..1000).map(|k| format!(" a{k}=\"1\"")).collect();
    let text = cubes(SHAPES, PROBLEM, &format!("<comment{attrs}>hi</comment>"));
    let (line, col, message) = refused(text.as_bytes());
    assert_eq!((line, col), (11, 1), "{message}");
    assert!(
        message.contains("<comment> has more than 32 attributes"),
        "{message}"
    );
}

#[test]
fn namespaces_are_refused() {
    for declaration in [
        " xmlns:b=\"urn:b\"",
        " xmlns = 'urn:a'",
        " a=\"1\"xmlns=\"\"",
    ] {
        let text = cubes(SHAPES, PROBLEM, "").replace(
            "<puzzle version=\"2\">",
            &format!("<puzzle version=\"2\"{declaration}>"),
        );
        let (line, col, message) = refused(text.as_bytes());
        assert_eq!((line, col), (2, 1), "{message}");
        assert!(message.contains("namespace"), "{message}");
    }
    // in a value, it is a value
    let text = cubes(
        &SHAPES.replace("type=\"0\">#<", "type=\"0\" name=\"xmlns=x\">#<"),
        PROBLEM,
        "",
    );
    let f = burr::read(text.as_bytes(), "t.xmpuzzle").unwrap();
    assert_eq!(f.shapes[1].name.as_deref(), Some("xmlns=x"));
}

/// 100,000 one-voxel shapes (the most a file may have, 4.3 MB, 19 KB
/// gzipped), all of them pieces of one problem: read within a generous
/// guard (quadratic, this took hours; linear, well under a second).
#[test]
fn a_hundred_thousand_shapes_read_within_a_minute() {
    let n = 99_999;
    let mut shapes = String::from("<voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">##</voxel>\n");
    let mut parts = String::new();
    for k in 1..=n {
        shapes += "<voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel>\n";
        parts += &format!("<shape id=\"{k}\" min=\"0\" max=\"1\"/>");
    }
    let problem = format!("<problem><shapes>{parts}</shapes><result id=\"0\"/><bitmap/></problem>");
    let bytes = gzip(cubes(&shapes, &problem, "").as_bytes());
    let f = within(60, move || burr::read(&bytes, "t.xmpuzzle").unwrap());
    assert_eq!(f.shapes.len(), n + 1);
    assert_eq!(f.problems[0].parts.len(), n);
    // every shape at its own line, column 1
    let last = &f.shapes[n].at;
    assert_eq!((last.line, last.col), (6 + n, 1));
    // a shape listed twice is found still
    let twice = cubes(
        &shapes,
        &problem.replace("<shape id=\"5\" ", "<shape id=\"3\" "),
        "",
    );
    let (line, _, message) = within(60, move || refused(twice.as_bytes()));
    // the problem's line: after the shapes, a blank line, </shapes> and
    // <problems>
    assert_eq!(line, 6 + n + 4, "{message}");
    assert!(message.contains("shape 3 is listed twice"), "{message}");
}

#[test]
fn every_gzip_member_is_read() {
    // two members, as `cat a.gz b.gz` makes: the file is both
    let text = cubes(SHAPES, PROBLEM, "");
    let (a, b) = text.split_at(text.len() / 2);
    let mut two = gzip(a.as_bytes());
    two.extend(gzip(b.as_bytes()));
    let f = burr::read(&two, "t.xmpuzzle").unwrap();
    assert_eq!(f.shapes.len(), 2);
    assert_eq!(f.problems.len(), 1);
}

#[test]
fn bytes_after_the_gzip_data_are_refused() {
    let text = cubes(SHAPES, PROBLEM, "");
    let good = gzip(text.as_bytes());
    for tail in [&b"garbage"[..], b"\0\0\0\0", b"\x1f"] {
        let mut bytes = good.clone();
        bytes.extend_from_slice(tail);
        let (line, col, message) = refused(&bytes);
        assert_eq!((line, col), (1, 1), "{message}");
        let bytes = if tail.len() == 1 { "byte" } else { "bytes" };
        let says = format!(
            "{} {bytes} after the gzip data (from byte {})",
            tail.len(),
            good.len()
        );
        assert!(message.contains(&says), "{message}");
    }
}

#[test]
fn an_empty_or_blank_file_says_so() {
    for (bytes, says) in [
        (Vec::new(), "the file is empty"),
        (b" \n\t\n".to_vec(), "holds only white space"),
        (gzip(b""), "the file is empty"),
        (gzip(b"\n\n"), "holds only white space"),
    ] {
        let (line, col, message) = refused(&bytes);
        assert_eq!((line, col), (1, 1), "{message}");
        assert!(message.contains("not a BurrTools file"), "{message}");
        assert!(message.contains(says), "{message}");
    }
}
