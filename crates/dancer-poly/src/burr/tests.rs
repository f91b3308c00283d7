//! The reader's errors, each at its line; the meaning of variable cells,
//! `maxHoles`, colours and ranges, checked against brute force on small
//! problems.

use super::*;
use crate::model::{Model, Options};

/// A file of cubes with these shapes (voxel elements) and this problem.
fn cubes(shapes: &str, problem: &str) -> String {
    format!(
        "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n<gridType type=\"0\"/>\n<colors/>\n<shapes>\n{shapes}</shapes>\n<problems>\n{problem}</problems>\n</puzzle>\n"
    )
}

fn error(text: &[u8]) -> (usize, String) {
    match read(text, "t.xmpuzzle").and_then(|f| f.puzzle(0)) {
        Ok(_) => panic!("accepted: {}", String::from_utf8_lossy(text)),
        Err(e) => {
            let at = e.location().expect("a place").clone();
            assert_eq!(at.file, "t.xmpuzzle");
            (at.line, e.message())
        }
    }
}

const LINE: &str = "<voxel x=\"3\" y=\"1\" z=\"1\" type=\"0\">###</voxel>\n<voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel>\n";
const PROBLEM: &str = "<problem><shapes><shape id=\"1\" count=\"3\"/></shapes><result id=\"0\"/><bitmap/></problem>\n";

#[test]
fn a_good_file_reads() {
    let f = read(cubes(LINE, PROBLEM).as_bytes(), "t").unwrap();
    let p = f.puzzle(0).unwrap();
    assert_eq!(p.board.len(), 3);
    assert_eq!(p.pieces[0].count, crate::Copies::Exactly(3));
    // gzipped too
    let back = read(&write(&f), "t").unwrap().puzzle(0).unwrap();
    assert_eq!(back.board, p.board);
    assert_eq!(back.pieces[0].cells, p.pieces[0].cells);
    assert_eq!(back.pieces[0].count, p.pieces[0].count);
}

#[test]
fn bad_files_are_errors_at_their_line() {
    let cases: Vec<(Vec<u8>, usize, &str)> = vec![
        (b"hello".to_vec(), 1, "neither gzip nor XML"),
        (vec![0x1f, 0x8b, 8, 0, 1, 2, 3], 1, "gzip data is broken"),
        (b"<puzzle version=\"2\"><shapes>".to_vec(), 1, "not well-formed XML"),
        (b"<burr/>".to_vec(), 1, "root element is <burr>"),
        (cubes(LINE, PROBLEM).replace("version=\"2\"", "version=\"3\"").into_bytes(), 2, "version"),
        (cubes(LINE, PROBLEM).replace("type=\"0\"/>", "type=\"7\"/>").into_bytes(), 3, "unknown grid type 7"),
        (cubes(LINE, PROBLEM).replace("type=\"0\"/>", "type=\"3\"/>").into_bytes(), 6, "no cell of the rhombic dodecahedra grid"),
        (cubes(LINE, PROBLEM).replace("type=\"0\"/>", "type=\"4\"/>").into_bytes(), 6, "no cell of the tetrahedra-octahedra grid"),
        (cubes(LINE, PROBLEM).replace(">###<", ">####<").into_bytes(), 6, "more than the 3 cells"),
        (cubes(LINE, PROBLEM).replace(">###<", ">##<").into_bytes(), 6, "has 2 cells"),
        (cubes(LINE, PROBLEM).replace(">###<", ">#x#<").into_bytes(), 6, "'x'"),
        (cubes(LINE, PROBLEM).replace(">###<", ">#2##<").into_bytes(), 6, "colour 2"),
        (cubes(LINE, PROBLEM).replace("id=\"1\" count", "id=\"9\" count").into_bytes(), 10, "shape 9 does not exist"),
        (cubes(LINE, PROBLEM).replace("count=\"3\"", "count=\"999999999\"").into_bytes(), 10, "out of range"),
        (cubes(LINE, PROBLEM).replace("count=\"3\"", "count=\"-1\"").into_bytes(), 10, "out of range"),
        (cubes(LINE, PROBLEM).replace("count=\"3\"", "min=\"3\" max=\"2\"").into_bytes(), 10, "min 3 is above max 2"),
        (cubes(LINE, PROBLEM).replace("count=\"3\"", "count=\"4\"").into_bytes(), 10, "cannot cover"),
        (cubes(LINE, PROBLEM).replace("<problem>", "<problem maxHoles=\"5\">").into_bytes(), 10, "maxHoles 5 is larger"),
        (cubes(LINE, PROBLEM).replace("<bitmap/>", "<bitmap/><extra/>").into_bytes(), 10, "unknown element <extra>"),
        (cubes(LINE, PROBLEM).replace("<result id", "<result colour=\"1\" id").into_bytes(), 10, "attribute \"colour\""),
        (cubes(LINE, PROBLEM).replace("id=\"0\"", "id=\"7\"").into_bytes(), 10, "result shape 7 does not exist"),
        (cubes(LINE, PROBLEM).replace("x=\"3\"", "x=\"abc\"").into_bytes(), 6, "not a whole number"),
        (cubes(LINE, PROBLEM).replace("x=\"3\"", "x=\"100000\"").into_bytes(), 6, "out of range"),
        (cubes(LINE, PROBLEM).replace("<result id=\"0\"/>", "").into_bytes(), 10, "no <result>"),
        (cubes("<voxel x=\"3\" y=\"1\" z=\"1\" type=\"0\">___</voxel>\n<voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel>\n", PROBLEM).into_bytes(), 10, "has no cells"),
        (b"<!DOCTYPE p [<!ENTITY a \"aaaa\">]><puzzle version=\"2\"/>".to_vec(), 1, "not well-formed XML"),
    ];
    for (text, line, words) in cases {
        let (at, message) = error(&text);
        assert!(message.contains(words), "{message:?} should say {words:?}");
        assert_eq!(at, line, "{message}");
    }
}

#[test]
fn a_file_too_large_unpacked_is_refused() {
    let big = vec![b' '; (MAX_FILE_BYTES + 10) as usize];
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, &big).unwrap();
    let (_, m) = error(&gz.finish().unwrap());
    assert!(m.contains("unpacks to more than"), "{m}");
}

/// Latin-1 text (older BurrTools files' comments) is read as Latin-1.
#[test]
fn latin1_comments_are_read() {
    let mut text = cubes(LINE, PROBLEM).into_bytes();
    let end = text.len() - "</puzzle>\n".len();
    text.splice(end..end, b"<comment>G\xf6tz</comment>".iter().copied());
    let f = read(&text, "t").unwrap();
    assert_eq!(f.comment.as_deref(), Some("Götz"));
}

#[test]
fn problems_are_named_or_numbered() {
    let two = format!(
        "{}{}",
        PROBLEM.replace("<problem>", "<problem name=\"Alpha\">"),
        PROBLEM
    );
    let f = read(cubes(LINE, &two).as_bytes(), "t").unwrap();
    assert_eq!(f.problem_index(None), Ok(0));
    assert_eq!(f.problem_index(Some("2")), Ok(1));
    assert_eq!(f.problem_index(Some("alpha")), Ok(0));
    assert_eq!(f.problem_index(Some("problem 2")), Ok(1));
    assert!(f
        .problem_index(Some("3"))
        .unwrap_err()
        .contains("has 2 problems"));
    assert!(f
        .problem_index(Some("beta"))
        .unwrap_err()
        .contains("\"Alpha\", \"problem 2\""));
}

/// Solutions up to symmetry and in all.
fn counts(text: &str) -> (u64, u64) {
    let p = read(text.as_bytes(), "t").unwrap().puzzle(0).unwrap();
    let c = Model::new(p)
        .unwrap()
        .solve(
            &Options {
                unique: true,
                ..Options::default()
            },
            |_| true,
        )
        .unwrap();
    (c.unique, c.total)
}

/// A row of three variable cells and monocubes used 0 to 3 times: every
/// set of filled cells is an assembly (8 in all, 6 up to the row's turn),
/// less those that leave more holes than `maxHoles` allows.
#[test]
fn variable_cells_and_max_holes() {
    let shapes = "<voxel x=\"3\" y=\"1\" z=\"1\" type=\"0\">+++</voxel>\n<voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel>\n";
    let problem = |holes: &str, range: &str| {
        format!("<problem{holes}><shapes><shape id=\"1\" {range}/></shapes><result id=\"0\"/><bitmap/></problem>\n")
    };
    // brute force: subsets of the row with at least 3 - h cells filled,
    // up to reversal
    let brute = |h: usize, lo: usize| {
        let mut all = 0;
        let mut classes = std::collections::BTreeSet::new();
        for mask in 0u32..8 {
            let filled = mask.count_ones() as usize;
            if 3 - filled <= h && filled >= lo {
                all += 1;
                let rev = (mask & 1) << 2 | (mask & 2) | (mask >> 2 & 1);
                classes.insert(mask.min(rev));
            }
        }
        (classes.len() as u64, all)
    };
    for h in 0..=3 {
        let text = cubes(
            shapes,
            &problem(&format!(" maxHoles=\"{h}\""), "min=\"1\" max=\"3\""),
        );
        assert_eq!(counts(&text), brute(h, 1), "maxHoles {h}");
    }
    assert_eq!(
        counts(&cubes(shapes, &problem("", "min=\"1\" max=\"3\""))),
        brute(3, 1)
    );
    // exactly two monocubes: 3 placements of the hole, 2 up to the turn
    assert_eq!(counts(&cubes(shapes, &problem("", "count=\"2\""))), (2, 3));
    // nothing must be covered: refused, not a panic
    let (_, m) = error(cubes(shapes, &problem("", "min=\"0\" max=\"3\"")).as_bytes());
    assert!(m.contains("nothing to solve"), "{m}");
}

/// Colours: a row of four cells, blue red blue blue (colours 2 1 2 2), a
/// domino red-blue and two blue monocubes; a piece's colour may sit on a
/// result's colour when the problem pairs them (a colourless cell would
/// fit any).
#[test]
fn colour_constraints_restrict_placements() {
    let text = |pairs: &str| {
        format!(
            "<?xml version=\"1.0\"?>\n<puzzle version=\"2\"><gridType type=\"0\"/><colors><color red=\"255\" green=\"0\" blue=\"0\"/><color red=\"0\" green=\"0\" blue=\"255\"/></colors><shapes>\
             <voxel x=\"4\" y=\"1\" z=\"1\" type=\"0\">#2#1#2#2</voxel><voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">#1#2</voxel><voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#2</voxel>\
             </shapes><problems><problem><shapes><shape id=\"1\" count=\"1\"/><shape id=\"2\" count=\"2\"/></shapes><result id=\"0\"/><bitmap>{pairs}</bitmap></problem></problems></puzzle>"
        )
    };
    // red on red and blue on blue only: the domino's red end on cell 1,
    // its blue end on 0 or 2: two placements, the monocubes fill the rest
    let p = "<pair piece=\"0\" result=\"0\"/><pair piece=\"1\" result=\"1\"/>";
    assert_eq!(counts(&text(p)).1, 2);
    // blue may sit on red too: the domino anywhere its red end is on red
    let p2 = format!("{p}<pair piece=\"1\" result=\"0\"/>");
    assert_eq!(counts(&text(&p2)).1, 2);
    // red may sit on blue too, but cell 1 (red) takes only the domino's
    // red end still
    let p3 = format!("{p}<pair piece=\"0\" result=\"1\"/>");
    assert_eq!(counts(&text(&p3)).1, 2);
    // every pair: the domino anywhere, either way round (6), the
    // monocubes in the two cells left
    let p4 = format!("{p2}<pair piece=\"0\" result=\"1\"/>");
    assert_eq!(counts(&text(&p4)).1, 6);
    // no pairs: colours never meet and nothing is colourless: the domino
    // fits nowhere, which is said
    let p = read(text("").as_bytes(), "t").unwrap().puzzle(0).unwrap();
    assert!(matches!(
        Model::new(p),
        Err(crate::PolyError::FitsNowhere { .. })
    ));
}

/// A number is the problem of that number, also when another problem is
/// named so (that one then found by `also_named`, and taken by its own
/// number); a number past the last problem is a name.
#[test]
fn a_number_is_the_problem_of_that_number() {
    let named = |n: &str| PROBLEM.replace("<problem>", &format!("<problem name=\"{n}\">"));
    let three = format!("{}{}{}", named("Alpha"), named("1"), named("3"));
    let f = read(cubes(LINE, &three).as_bytes(), "t").unwrap();
    // once: the problem named "1", the second
    assert_eq!(f.problem_index(Some("1")), Ok(0));
    assert_eq!(f.also_named("1"), Some(1));
    assert_eq!(f.problem_index(Some("2")), Ok(1));
    assert_eq!(f.also_named("2"), None);
    // named as its own number: no other
    assert_eq!(f.problem_index(Some("3")), Ok(2));
    assert_eq!(f.also_named("3"), None);
    assert_eq!(f.also_named("Alpha"), None);
    let two = format!("{}{}", named("Alpha"), named("7"));
    let f = read(cubes(LINE, &two).as_bytes(), "t").unwrap();
    assert_eq!(f.problem_index(Some("7")), Ok(1));
    assert!(f
        .problem_index(Some("8"))
        .unwrap_err()
        .contains("no problem 8: the file has 2 problems"));
}

/// The table of places gives every offset the line and column the XML
/// parser gives it (its own count scans the text from the start), on
/// lines of every length, in ASCII and not.
#[test]
fn places_are_where_the_parser_says() {
    use proptest::prelude::*;
    let text = prop::collection::vec(
        prop_oneof![
            Just("\n".to_string()),
            Just("é".to_string()),
            Just("字".to_string()),
            Just("𝄞".to_string()),
            "[a-z<>]{1,300}",
        ],
        0..60,
    )
    .prop_map(|parts| parts.concat());
    proptest!(|(text in text)| {
        let places = read::Places::new(&text);
        for (pos, _) in text.char_indices().chain([(text.len(), ' ')]) {
            // as roxmltree counts: lines after each \n, columns in characters
            let before = &text[..pos];
            let row = before.matches('\n').count() + 1;
            let col = before.rsplit('\n').next().unwrap().chars().count() + 1;
            prop_assert_eq!(places.line_col(pos), (row, col), "at {}", pos);
        }
    });
}

/// Past each cap, at the node that passes it; at the cap, read.
#[test]
fn the_caps_are_exact() {
    let text = cubes(LINE, PROBLEM);
    let exact = |limits: &ReadLimits| read_with(text.as_bytes(), "t", limits);
    let all = ReadLimits {
        nodes: usize::MAX,
        depth: usize::MAX,
        attributes: usize::MAX,
    };
    // the file's own measure: the least caps that read it
    let least = |f: fn(&mut ReadLimits, usize)| {
        (0..10_000)
            .find(|&k| {
                let mut l = all;
                f(&mut l, k);
                exact(&l).is_ok()
            })
            .unwrap()
    };
    let nodes = least(|l, k| l.nodes = k);
    let depth = least(|l, k| l.depth = k);
    let attributes = least(|l, k| l.attributes = k);
    // <puzzle> <problems> <problem> <shapes> <shape>; <voxel>'s 4
    assert_eq!((depth, attributes), (5, 4));
    // the declaration, 12 elements, 13 attributes, 2 shapes' texts and 12
    // new lines
    assert_eq!(nodes, 1 + 12 + 13 + 2 + 12);
    for (limits, says, line, col) in [
        // the new line after </puzzle>
        (
            ReadLimits { nodes: 39, ..all },
            "more than 39 XML nodes",
            12,
            10,
        ),
        // the first <shape>
        (
            ReadLimits { depth: 4, ..all },
            "nested more than 4 deep",
            10,
            18,
        ),
        // the first <voxel>
        (
            ReadLimits {
                attributes: 3,
                ..all
            },
            "<voxel> has more than 3 attributes",
            6,
            1,
        ),
    ] {
        let e = exact(&limits).unwrap_err();
        assert!(e.message().contains(says), "{}", e.message());
        let at = e.location().unwrap();
        assert_eq!((at.line, at.col), (line, col), "{says}");
    }
}
