//! The BurrTools reader's size and shape: a `.xmpuzzle` file's XML
//! generated from the input's bytes (many shapes, many parts, stored
//! solutions nested deep, comments of many elements or deep ones, elements
//! with many attributes), read by `dancer_poly::burr::read_with` with the
//! default caps or small ones the input picks.
//!
//! * An error names the file and a place inside the text.
//! * A file past a cap (nodes, depth, attributes of an element, counted on
//!   the file parsed without caps) is refused with a cap's message; a file
//!   within them is never refused for one. A refusal for depth or
//!   attributes points at the `<` of an element.
//! * A file read is within every cap, and has the shapes and problems
//!   written, each shape at the line and column where its `<voxel>` is.
//!
//! A file of up to 20,000 shapes and 20,000 parts is read in milliseconds,
//! so that a reader quadratic in them again runs past libFuzzer's timeout.
#![no_main]

use dancer_fuzz::check_location;
use dancer_poly::burr::{self, ReadLimits};
use dancer_poly::PolyError;
use libfuzzer_sys::fuzz_target;

/// The most shapes, and the most parts, a generated file has.
const MAX_SHAPES: usize = 20_000;

/// The input's bytes, one at a time (zeros past its end).
struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    fn done(&self) -> bool {
        self.at >= self.data.len()
    }
}

const SHAPES: &[&str] = &[
    "<voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel>",
    "<voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">##</voxel>",
    "<voxel x=\"2\" y=\"2\" z=\"1\" type=\"0\">#+_#</voxel>",
    // a colour: wrong when the file has none
    "<voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#1</voxel>",
    "<voxel x=\"3\" y=\"1\" z=\"1\" type=\"0\" name=\"s\" weight=\"2\">###</voxel>",
    // a wrong character
    "<voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">#x</voxel>",
];

/// A generated file, and what the generator knows of it.
#[derive(Default)]
struct File {
    grid: u8,
    colours: usize,
    /// Each shape, and whether it starts a line.
    shapes: Vec<(&'static str, bool)>,
    /// Each problem: its parts (shape ids), its result, the depth of its
    /// stored solution's separations.
    problems: Vec<(Vec<usize>, usize, usize)>,
    /// The comment's content.
    comment: String,
}

impl File {
    fn generate(b: &mut Bytes) -> File {
        let mut f = File {
            grid: b.byte() % 6,
            ..File::default()
        };
        let mut lines = true;
        while !b.done() {
            match b.byte() % 8 {
                0 => {
                    let n = 1 + b.byte() as usize * 16;
                    let shape = SHAPES[b.byte() as usize % SHAPES.len()];
                    for k in 0..n.min(MAX_SHAPES - f.shapes.len()) {
                        f.shapes.push((shape, lines || k == 0));
                    }
                }
                1 => {
                    let k = b.byte();
                    let parts = if k >= 200 {
                        // every shape but the first
                        (1..f.shapes.len().min(MAX_SHAPES)).collect()
                    } else {
                        (0..k % 8)
                            .map(|_| b.byte() as usize % (f.shapes.len() + 1))
                            .collect()
                    };
                    let result = b.byte() as usize % (f.shapes.len() + 1);
                    f.problems.push((parts, result, 0));
                }
                2 => {
                    let depth = b.byte() as usize * 3;
                    match f.problems.last_mut() {
                        Some(p) => p.2 = depth,
                        None => f.problems.push((vec![1], 0, depth)),
                    }
                }
                3 => f.comment += &"<a/>".repeat(b.byte() as usize * 32),
                4 => {
                    let d = b.byte() as usize * 3;
                    f.comment += &format!("{}{}", "<a>".repeat(d), "</a>".repeat(d));
                }
                5 => {
                    let n = b.byte() as usize % 64;
                    let attrs: String = (0..n).map(|k| format!(" a{k}=\"{k}\"")).collect();
                    f.comment += &format!("<b{attrs}/>");
                }
                6 => lines = !lines,
                _ => f.colours = b.byte() as usize % 4,
            }
        }
        f
    }

    /// The XML, and the byte offset of each shape's `<voxel>`.
    fn xml(&self) -> (String, Vec<usize>) {
        let mut s = format!(
            "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n<gridType type=\"{}\"/>\n<colors>",
            self.grid
        );
        for k in 0..self.colours {
            s += &format!("<color red=\"{k}\" green=\"0\" blue=\"255\"/>");
        }
        s += "</colors>\n<shapes>";
        let mut at = Vec::with_capacity(self.shapes.len());
        for &(shape, line) in &self.shapes {
            if line {
                s.push('\n');
            }
            at.push(s.len());
            s += shape;
        }
        s += "\n</shapes>\n<problems>\n";
        for (parts, result, depth) in &self.problems {
            s += "<problem><shapes>";
            for id in parts {
                s += &format!("<shape id=\"{id}\" min=\"0\" max=\"1\"/>");
            }
            s += &format!("</shapes><result id=\"{result}\"/><bitmap/>");
            if *depth > 0 {
                s += &format!(
                    "<solutions><solution>{}{}</solution></solutions>",
                    "<separation>".repeat(*depth),
                    "</separation>".repeat(*depth)
                );
            }
            s += "</problem>\n";
        }
        s += "</problems>\n";
        if !self.comment.is_empty() {
            s += &format!("<comment>{}</comment>\n", self.comment);
        }
        s += "</puzzle>\n";
        (s, at)
    }
}

/// The file's measure as the parser without caps has it: nodes (but the
/// declaration and the new lines outside the root, 3 more that the
/// reader counts), the deepest element, the most attributes of one.
fn measure(text: &str) -> (usize, usize, usize) {
    let doc = roxmltree::Document::parse(text).expect("the generated XML is well-formed");
    let (mut nodes, mut depth, mut attributes) = (0, 0, 0);
    for n in doc.root().descendants().skip(1) {
        nodes += 1 + n.attributes().len();
        if n.is_element() {
            depth = depth.max(n.ancestors().filter(|a| a.is_element()).count());
            attributes = attributes.max(n.attributes().len());
        }
    }
    (nodes, depth, attributes)
}

/// The line and column (from 1, columns in characters) of each of the
/// byte offsets `at`, which grow: the text walked once, so that 20,000
/// shapes are checked in linear time (the reader is held to that too).
fn line_cols(text: &str, at: &[usize]) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(at.len());
    let (mut line, mut col, mut from) = (1, 1, 0);
    for &pos in at {
        for c in text[from..pos].chars() {
            if c == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
        }
        from = pos;
        out.push((line, col));
    }
    out
}

/// The byte offset of a line and column (from 1).
fn offset(text: &str, line: usize, col: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum();
    start
        + text[start..]
            .chars()
            .take(col - 1)
            .map(char::len_utf8)
            .sum::<usize>()
}

/// Which cap a message says was passed.
fn cap_of(message: &str) -> Option<&'static str> {
    if message.contains("XML nodes (elements, attributes, texts)") {
        Some("nodes")
    } else if message.contains("elements nested more than") {
        Some("depth")
    } else if message.contains("attributes: dancer reads no such") {
        Some("attributes")
    } else {
        None
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() > dancer_fuzz::MAX_INPUT || data.is_empty() {
        return;
    }
    let mut b = Bytes { data, at: 1 };
    let limits = match data[0] % 4 {
        0 => ReadLimits::default(),
        k => ReadLimits {
            nodes: 8 + data[0] as usize * k as usize * 16,
            depth: 2 + (data[0] / 4) as usize % 40,
            attributes: (data[0] / 8) as usize % 12,
        },
    };
    let file = File::generate(&mut b);
    let (text, shape_at) = file.xml();
    let (nodes, depth, attributes) = measure(&text);
    let past = nodes + 3 > limits.nodes || depth > limits.depth || attributes > limits.attributes;
    let read = burr::read_with(text.as_bytes(), "fuzz.xmpuzzle", &limits);
    match read {
        Err(e) => {
            let message = e.message();
            let Some(at) = e.location() else {
                panic!("an error without a place: {e:?}")
            };
            assert_eq!(at.file, "fuzz.xmpuzzle", "{e:?}");
            check_location(text.as_bytes(), at, "BurrTools error");
            match cap_of(&message) {
                Some(cap) => {
                    assert!(
                        past,
                        "refused for {cap} within the caps {limits:?}: {nodes} nodes, depth {depth}, {attributes} attributes: {message}"
                    );
                    if cap != "nodes" {
                        let pos = offset(&text, at.line, at.col);
                        assert_eq!(
                            text.as_bytes().get(pos),
                            Some(&b'<'),
                            "{cap} refused at {at}, not at an element"
                        );
                    }
                }
                // a file past a cap is refused for it, before anything else
                None => assert!(
                    !past,
                    "past a cap of {limits:?} ({nodes} nodes, depth {depth}, {attributes} attributes) but refused for: {message}"
                ),
            }
            assert!(!matches!(e, PolyError::TooLarge { .. }));
        }
        Ok(f) => {
            assert!(
                !past,
                "read past a cap of {limits:?}: {nodes} nodes, depth {depth}, {attributes} attributes"
            );
            assert_eq!(f.shapes.len(), file.shapes.len());
            assert_eq!(f.problems.len(), file.problems.len());
            for (s, place) in f.shapes.iter().zip(line_cols(&text, &shape_at)) {
                assert_eq!((s.at.line, s.at.col), place, "{:?}", s.at);
                for v in &s.voxels {
                    for k in 0..3 {
                        assert!(
                            (0..s.size[k]).contains(&v.at[k]),
                            "{v:?} outside {:?}",
                            s.size
                        );
                    }
                }
            }
            for (p, (parts, result, depth)) in f.problems.iter().zip(&file.problems) {
                assert_eq!(p.result, *result);
                assert_eq!(p.parts.len(), parts.len());
                assert_eq!(p.kept, usize::from(*depth > 0));
            }
        }
    }
});
