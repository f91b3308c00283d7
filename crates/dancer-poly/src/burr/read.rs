//! Reading a `.xmpuzzle` file: gunzip (when gzipped: every member, and
//! nothing after them), decode (UTF-8, or Latin-1 as BurrTools' byte-wise
//! parser reads older files), measure the XML in one pass ([`measure`]:
//! its nodes, the depth of its elements, the attributes of each; a file
//! past a cap of [`ReadLimits`] is refused at the node that passes it,
//! before any tree is built), parse it (no DTD, so no entities to blow up;
//! no namespaces), then walk the elements, each checked where it stands:
//! an unknown element or attribute, a number out of range, a shape of the
//! wrong length are errors at their line and column, never skipped.
//!
//! Reading is linear in the file: every place (line, column) is found in
//! a table of the text made once ([`Places`]), and duplicates are looked
//! up in sets, never by a scan of what came before.

use super::{BurrFile, BurrFound, BurrGrid, BurrPart, BurrProblem, BurrShape, BurrVoxel};
use crate::puzzle::{counted, Location, PolyError, MAX_BOARD_CELLS};
use roxmltree::{Document, Node};
use std::borrow::Cow;
use std::io::Read;

/// The most bytes a file may have, unpacked (a larger one is refused,
/// which also stops a gzip bomb).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The most XML nodes (elements, attributes, texts, comments, processing
/// instructions) a file may have: about 70 bytes each once parsed, so
/// that a file's tree takes at most some 150 MB. A file of the most
/// shapes (100,000) and a problem using each has about 1,000,000.
pub const MAX_XML_NODES: usize = 2_000_000;

/// The deepest elements may nest (the root is at depth 1). BurrTools'
/// deepest are the separations of a stored solution, a level a step of
/// taking the puzzle apart.
pub const MAX_XML_DEPTH: usize = 256;

/// The most attributes an element may have (BurrTools' elements have at
/// most 9).
pub const MAX_XML_ATTRIBUTES: usize = 32;

/// How large a file's XML [`read_with`] takes: past any of these, the
/// file is refused at the node that passes it, before it is parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadLimits {
    /// The most nodes: elements, attributes, texts, comments, processing
    /// instructions.
    pub nodes: usize,
    /// The deepest elements may nest (the root is at depth 1).
    pub depth: usize,
    /// The most attributes of one element.
    pub attributes: usize,
}

impl Default for ReadLimits {
    /// [`MAX_XML_NODES`], [`MAX_XML_DEPTH`], [`MAX_XML_ATTRIBUTES`].
    fn default() -> Self {
        ReadLimits {
            nodes: MAX_XML_NODES,
            depth: MAX_XML_DEPTH,
            attributes: MAX_XML_ATTRIBUTES,
        }
    }
}

/// The most shapes, problems and parts a file may have.
const MAX_ITEMS: usize = 100_000;

/// The largest side of a shape's box.
const MAX_SIDE: i64 = 1000;

/// The most copies of a part.
const MAX_COUNT: i64 = 100_000;

/// Reads a file's bytes; `file` names it in errors. The XML's size is
/// capped by [`ReadLimits::default`].
pub fn read(bytes: &[u8], file: &str) -> Result<BurrFile, PolyError> {
    read_with(bytes, file, &ReadLimits::default())
}

/// [`read`] with other caps on the XML's size.
pub fn read_with(bytes: &[u8], file: &str, limits: &ReadLimits) -> Result<BurrFile, PolyError> {
    let at_start = Location {
        file: file.to_string(),
        line: 1,
        col: 1,
    };
    let fail = |message: String| PolyError::File {
        at: at_start.clone(),
        message,
    };
    let gzipped = bytes.starts_with(&[0x1f, 0x8b]);
    let raw: Cow<[u8]> = if gzipped {
        Cow::Owned(gunzip(bytes).map_err(fail)?)
    } else {
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(fail(format!(
                "the file is larger than {} MiB",
                MAX_FILE_BYTES >> 20
            )));
        }
        Cow::Borrowed(bytes)
    };
    let text: Cow<str> = match raw {
        Cow::Borrowed(b) => match std::str::from_utf8(b) {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => Cow::Owned(latin1(b)),
        },
        Cow::Owned(b) => match String::from_utf8(b) {
            Ok(s) => Cow::Owned(s),
            Err(e) => Cow::Owned(latin1(e.as_bytes())),
        },
    };
    let body = text.trim_start_matches('\u{feff}').trim_start();
    if body.is_empty() {
        return Err(fail(if text.is_empty() {
            "not a BurrTools file: the file is empty".into()
        } else {
            "not a BurrTools file: the file holds only white space".into()
        }));
    }
    if !body.starts_with('<') {
        return Err(fail(
            "not a BurrTools file: neither gzip nor XML (.xmpuzzle files are gzipped XML)".into(),
        ));
    }
    let at = |pos: usize| {
        let (line, col) = Places::new(&text).line_col(pos);
        Location {
            file: file.to_string(),
            line,
            col,
        }
    };
    if let Err((pos, message)) = measure(&text, limits) {
        return Err(PolyError::File {
            at: at(pos),
            message,
        });
    }
    let options = roxmltree::ParsingOptions {
        // a second guard: `measure` counts every node the parser makes
        // but its root (the document)
        nodes_limit: u32::try_from(limits.nodes.saturating_add(1)).unwrap_or(u32::MAX),
        ..roxmltree::ParsingOptions::default()
    };
    let doc = Document::parse_with_options(&text, options).map_err(|e| {
        let message = match e {
            roxmltree::Error::NodesLimitReached => nodes_message(limits),
            ref e => format!("not well-formed XML: {e}"),
        };
        let p = e.pos();
        PolyError::File {
            at: Location {
                file: file.to_string(),
                line: p.row as usize,
                col: p.col as usize,
            },
            message,
        }
    })?;
    let places = Places::new(&text);
    Reader {
        doc: &doc,
        places: &places,
        file,
    }
    .puzzle()
}

/// Latin-1 bytes as text.
fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| b as char).collect()
}

/// Every member of gzip data, one after the other (as `gzip -d` reads
/// `cat a.gz b.gz`), at most [`MAX_FILE_BYTES`] in all; bytes after the
/// last member that begin no other are refused.
fn gunzip(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        if !rest.starts_with(&[0x1f, 0x8b]) {
            return Err(format!(
                "not a BurrTools file: {} after the gzip data (from byte {})",
                counted(rest.len() as u64, "byte", "bytes"),
                bytes.len() - rest.len()
            ));
        }
        let room = MAX_FILE_BYTES - out.len() as u64;
        let mut gz = flate2::bufread::GzDecoder::new(rest);
        (&mut gz)
            .take(room + 1)
            .read_to_end(&mut out)
            .map_err(|e| format!("not a BurrTools file: the gzip data is broken ({e})"))?;
        if out.len() as u64 > MAX_FILE_BYTES {
            return Err(format!(
                "the file unpacks to more than {} MiB",
                MAX_FILE_BYTES >> 20
            ));
        }
        rest = gz.into_inner();
    }
    Ok(out)
}

/// An element of more attributes than `limits` allow; `tag` its bytes
/// after the `<`.
fn attributes_message(tag: &[u8], limits: &ReadLimits) -> String {
    let name: String = String::from_utf8_lossy(&tag[..tag.len().min(64)])
        .chars()
        .take_while(|c| !c.is_whitespace() && !matches!(c, '/' | '>' | '='))
        .collect();
    format!(
        "<{name}> has more than {} attributes: dancer reads no such BurrTools file",
        limits.attributes
    )
}

fn nodes_message(limits: &ReadLimits) -> String {
    format!(
        "more than {} XML nodes (elements, attributes, texts) by here: dancer reads no larger BurrTools file",
        limits.nodes
    )
}

/// Measures XML in one pass, building nothing: the nodes the parser
/// would make (elements, attributes, texts, comments, processing
/// instructions), the depth of each element and the attributes of each.
/// The first node past a cap of `limits` is an error: its byte offset and
/// the message. Namespace declarations are refused (BurrTools writes
/// none, and each would copy those of its ancestors). The counts are
/// those of well-formed XML; where the text is not, it is left to the
/// parser to say so (which stops at the first fault, and has the nodes
/// cap too).
pub(super) fn measure(text: &str, limits: &ReadLimits) -> Result<(), (usize, String)> {
    let b = text.as_bytes();
    // the offset just past `end` searched from `from` (the text's end
    // when it is not there: the parser will say what is missing)
    let past = |from: usize, end: &str| {
        text[from..]
            .find(end)
            .map_or(b.len(), |k| from + k + end.len())
    };
    let mut nodes = 0usize;
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let rest = &b[i..];
        if rest[0] != b'<' {
            i = text[i..].find('<').map_or(b.len(), |k| i + k);
            nodes += 1;
        } else if rest.starts_with(b"<!--") {
            i = past(i + 4, "-->");
            nodes += 1;
        } else if rest.starts_with(b"<![CDATA[") {
            i = past(i + 9, "]]>");
            nodes += 1;
        } else if rest.starts_with(b"<?") {
            i = past(i + 2, "?>");
            nodes += 1;
        } else if rest.starts_with(b"<!") {
            // a DTD, which the parser refuses
            return Ok(());
        } else if rest.starts_with(b"</") {
            depth = depth.saturating_sub(1);
            i = past(i + 2, ">");
        } else {
            // a start tag: its attributes are its `=` outside quotes, each
            // named by the last word before it
            let mut quote = 0u8;
            let mut attributes = 0usize;
            let mut word = (i + 1, i + 1);
            let mut in_word = false;
            let mut empty = false;
            let mut j = i + 1;
            while j < b.len() {
                let c = b[j];
                if quote != 0 {
                    if c == quote {
                        quote = 0;
                    }
                } else if c == b'"' || c == b'\'' {
                    quote = c;
                    in_word = false;
                } else if c == b'=' {
                    in_word = false;
                    attributes += 1;
                    if attributes > limits.attributes {
                        return Err((start, attributes_message(&b[i + 1..], limits)));
                    }
                    let name = &b[word.0..word.1];
                    if name == b"xmlns" || name.starts_with(b"xmlns:") {
                        return Err((
                            start,
                            "an XML namespace declaration (xmlns): BurrTools files have none"
                                .into(),
                        ));
                    }
                } else if c == b'>' {
                    empty = b[j - 1] == b'/';
                    j += 1;
                    break;
                } else if c == b'<' {
                    // no tag ends here: the parser says so
                    break;
                } else if c.is_ascii_whitespace() {
                    in_word = false;
                } else {
                    if !in_word {
                        word.0 = j;
                        in_word = true;
                    }
                    word.1 = j + 1;
                }
                j += 1;
            }
            i = j;
            nodes += 1 + attributes;
            if depth + 1 > limits.depth {
                return Err((
                    start,
                    format!(
                        "elements nested more than {} deep: dancer reads no such BurrTools file",
                        limits.depth
                    ),
                ));
            }
            if !empty {
                depth += 1;
            }
        }
        if nodes > limits.nodes {
            return Err((start, nodes_message(limits)));
        }
    }
    Ok(())
}

/// Lines and columns of byte offsets in a text, as the XML parser counts
/// them (lines from 1 after each `\n`, columns in characters from 1),
/// each found in logarithmic time from a table made in one pass: the
/// newlines and characters before each block of [`BLOCK`] bytes.
pub(super) struct Places<'t> {
    bytes: &'t [u8],
    /// The newlines before block `k`.
    newlines: Vec<u32>,
    /// The characters before block `k`.
    chars: Vec<u32>,
}

/// The bytes of a block of [`Places`]' table: at most this many are
/// counted for a place.
const BLOCK: usize = 128;

impl<'t> Places<'t> {
    /// The table of `text` (at most 4 GiB, as every text read is).
    pub(super) fn new(text: &'t str) -> Places<'t> {
        let bytes = text.as_bytes();
        let blocks = bytes.len() / BLOCK + 1;
        let mut newlines = Vec::with_capacity(blocks);
        let mut chars = Vec::with_capacity(blocks);
        let (mut n, mut c) = (0u32, 0u32);
        for k in 0..blocks {
            newlines.push(n);
            chars.push(c);
            let block = &bytes[k * BLOCK..((k + 1) * BLOCK).min(bytes.len())];
            n = n.wrapping_add(block.iter().filter(|&&b| b == b'\n').count() as u32);
            c = c.wrapping_add(block.iter().filter(|&&b| !is_continuation(b)).count() as u32);
        }
        Places {
            bytes,
            newlines,
            chars,
        }
    }

    fn newlines_before(&self, pos: usize) -> u32 {
        let k = pos / BLOCK;
        let n = self.bytes[k * BLOCK..pos].iter().filter(|&&b| b == b'\n');
        self.newlines[k].wrapping_add(n.count() as u32)
    }

    fn chars_before(&self, pos: usize) -> u32 {
        let k = pos / BLOCK;
        let c = self.bytes[k * BLOCK..pos]
            .iter()
            .filter(|&&b| !is_continuation(b));
        self.chars[k].wrapping_add(c.count() as u32)
    }

    /// The offset just after newline number `n` (from 1).
    fn after_newline(&self, n: u32) -> usize {
        // the last block with fewer newlines before it holds it
        let k = self.newlines.partition_point(|&m| m < n) - 1;
        let mut seen = self.newlines[k];
        for (j, &b) in self.bytes[k * BLOCK..].iter().enumerate() {
            if b == b'\n' {
                seen += 1;
                if seen == n {
                    return k * BLOCK + j + 1;
                }
            }
        }
        self.bytes.len()
    }

    /// The line and column (from 1) of byte offset `pos` (the text's end
    /// past it).
    pub(super) fn line_col(&self, pos: usize) -> (usize, usize) {
        let pos = pos.min(self.bytes.len());
        let row = self.newlines_before(pos);
        let start = if row == 0 { 0 } else { self.after_newline(row) };
        let col = self.chars_before(pos) - self.chars_before(start) + 1;
        (row as usize + 1, col as usize)
    }
}

/// A byte inside a UTF-8 character, not its first.
fn is_continuation(b: u8) -> bool {
    b & 0xc0 == 0x80
}

struct Reader<'a, 'i> {
    doc: &'a Document<'i>,
    places: &'a Places<'i>,
    file: &'a str,
}

type Res<T> = Result<T, PolyError>;

impl<'a, 'i> Reader<'a, 'i> {
    fn at(&self, n: Node) -> Location {
        let (line, col) = self.places.line_col(n.range().start);
        Location {
            file: self.file.to_string(),
            line,
            col,
        }
    }

    fn err<T>(&self, n: Node, message: String) -> Res<T> {
        Err(PolyError::File {
            at: self.at(n),
            message,
        })
    }

    /// Refuses attributes other than `known`.
    fn attrs(&self, n: Node, known: &[&str]) -> Res<()> {
        for a in n.attributes() {
            if !known.contains(&a.name()) {
                return self.err(
                    n,
                    format!(
                        "<{}> has an attribute {:?} that dancer does not know",
                        n.tag_name().name(),
                        a.name()
                    ),
                );
            }
        }
        Ok(())
    }

    /// The element children, refusing text other than white space and
    /// elements not in `known`.
    fn children(&self, n: Node<'a, 'i>, known: &[&str]) -> Res<Vec<Node<'a, 'i>>> {
        let mut out = Vec::new();
        for c in n.children() {
            if c.is_element() {
                if !known.contains(&c.tag_name().name()) {
                    return self.err(
                        c,
                        format!(
                            "unknown element <{}> in <{}>",
                            c.tag_name().name(),
                            n.tag_name().name()
                        ),
                    );
                }
                out.push(c);
            } else if c.is_text() && !c.text().unwrap_or("").trim().is_empty() {
                return self.err(c, format!("unexpected text in <{}>", n.tag_name().name()));
            }
        }
        Ok(out)
    }

    /// A whole-number attribute in `lo..=hi`, or None when absent.
    fn num(&self, n: Node, name: &str, lo: i64, hi: i64) -> Res<Option<i64>> {
        let Some(v) = n.attribute(name) else {
            return Ok(None);
        };
        match v.trim().parse::<i64>() {
            Ok(k) if (lo..=hi).contains(&k) => Ok(Some(k)),
            Ok(k) => self.err(
                n,
                format!(
                    "<{}> {name}=\"{k}\" is out of range ({lo} to {hi})",
                    n.tag_name().name()
                ),
            ),
            Err(_) => self.err(
                n,
                format!(
                    "<{}> {name}=\"{v}\" is not a whole number",
                    n.tag_name().name()
                ),
            ),
        }
    }

    fn need(&self, n: Node, name: &str, lo: i64, hi: i64) -> Res<i64> {
        match self.num(n, name, lo, hi)? {
            Some(k) => Ok(k),
            None => self.err(
                n,
                format!("<{}> needs the attribute {name}", n.tag_name().name()),
            ),
        }
    }

    fn puzzle(&self) -> Res<BurrFile> {
        let root = self.doc.root_element();
        if root.tag_name().name() != "puzzle" {
            return self.err(
                root,
                format!(
                    "not a BurrTools puzzle: the root element is <{}>, not <puzzle>",
                    root.tag_name().name()
                ),
            );
        }
        self.attrs(root, &["version"])?;
        match root.attribute("version") {
            Some("1") | Some("2") => {}
            Some(v) => {
                return self.err(
                    root,
                    format!("puzzle version {v:?}: dancer reads versions 1 and 2"),
                )
            }
            None => return self.err(root, "<puzzle> needs the attribute version".into()),
        }
        let kids = self.children(
            root,
            &["gridType", "colors", "shapes", "problems", "comment"],
        )?;
        let mut grid = None;
        let mut grid_at = self.at(root);
        let mut colours = Vec::new();
        let mut shapes = None;
        let mut problems = Vec::new();
        let mut comment = None;
        for c in kids {
            match c.tag_name().name() {
                "gridType" => {
                    if grid.is_some() || shapes.is_some() {
                        return self.err(c, "<gridType> must come once, before <shapes>".into());
                    }
                    self.attrs(c, &["type"])?;
                    self.children(c, &[])?;
                    let t = self.need(c, "type", i64::MIN, i64::MAX)?;
                    grid_at = self.at(c);
                    grid = Some(BurrGrid::of_number(t).map_or_else(
                        || self.err(c, format!("unknown grid type {t} (BurrTools has 0 to 4)")),
                        Ok,
                    )?);
                }
                "colors" => colours = self.colours(c)?,
                "shapes" => {
                    let g = *grid.get_or_insert(BurrGrid::Cubes);
                    shapes = Some(self.shapes(c, g, colours.len())?);
                }
                "problems" => {
                    let Some(s) = &shapes else {
                        return self.err(c, "<problems> before <shapes>".into());
                    };
                    problems = self.problems(c, s)?;
                }
                _ => {
                    self.attrs(c, &["popup"])?;
                    // text only (its pieces around XML comments joined)
                    let mut text = String::new();
                    for t in c.children() {
                        if t.is_element() {
                            return self.err(
                                t,
                                format!("unknown element <{}> in <comment>", t.tag_name().name()),
                            );
                        }
                        text += t.text().unwrap_or("");
                    }
                    comment = Some(text);
                }
            }
        }
        let Some(shapes) = shapes else {
            return self.err(root, "the puzzle has no <shapes>".into());
        };
        Ok(BurrFile {
            file: self.file.to_string(),
            grid: grid.unwrap_or(BurrGrid::Cubes),
            grid_at,
            colours,
            shapes,
            problems,
            comment,
        })
    }

    fn colours(&self, n: Node) -> Res<Vec<[u8; 3]>> {
        self.attrs(n, &[])?;
        let mut out = Vec::new();
        for c in self.children(n, &["color"])? {
            self.attrs(c, &["red", "green", "blue"])?;
            self.children(c, &[])?;
            if out.len() >= 63 {
                return self.err(c, "more than 63 colours (BurrTools' most)".into());
            }
            let mut rgb = [0u8; 3];
            for (k, name) in ["red", "green", "blue"].iter().enumerate() {
                rgb[k] = self.need(c, name, 0, 255)? as u8;
            }
            out.push(rgb);
        }
        Ok(out)
    }

    fn shapes(&self, n: Node, grid: BurrGrid, colours: usize) -> Res<Vec<BurrShape>> {
        self.attrs(n, &[])?;
        let mut out = Vec::new();
        for c in self.children(n, &["voxel"])? {
            if out.len() >= MAX_ITEMS {
                return self.err(c, format!("more than {MAX_ITEMS} shapes"));
            }
            out.push(self.shape(c, grid, colours)?);
        }
        Ok(out)
    }

    fn shape(&self, n: Node, grid: BurrGrid, colours: usize) -> Res<BurrShape> {
        self.attrs(
            n,
            &["x", "y", "z", "type", "name", "weight", "hx", "hy", "hz"],
        )?;
        if let Some(c) = n.children().find(|c| c.is_element()) {
            return self.err(
                c,
                format!("unknown element <{}> in <voxel>", c.tag_name().name()),
            );
        }
        let size = ["x", "y", "z"].map(|k| self.need(n, k, 0, MAX_SIDE));
        let size = [size[0].clone()?, size[1].clone()?, size[2].clone()?];
        let t = self.need(n, "type", i64::MIN, i64::MAX)?;
        let volume = size[0] * size[1] * size[2];
        if volume > MAX_BOARD_CELLS as i64 * 10 {
            return self.err(
                n,
                format!(
                    "the shape's box {}x{}x{} is too large",
                    size[0], size[1], size[2]
                ),
            );
        }
        let text = n.text().unwrap_or("");
        if t != 0 && !text.is_empty() {
            return self.err(n, format!("voxel type {t}: dancer reads type 0"));
        }
        let mut voxels = Vec::new();
        let mut idx: i64 = 0;
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let ch = chars[i];
            i += 1;
            let state = match ch {
                '_' => None,
                '#' => Some(false),
                '+' => Some(true),
                _ => {
                    return self.err(
                        n,
                        format!("the shape's character {} is {ch:?}, not _, # or + (with a colour number after it)", idx + 1),
                    )
                }
            };
            let mut colour: i64 = 0;
            let mut digits = 0;
            while i < chars.len() && chars[i].is_ascii_digit() {
                colour = colour * 10 + chars[i].to_digit(10).unwrap() as i64;
                digits += 1;
                i += 1;
                if colour > 63 {
                    return self.err(n, format!("cell {} has a colour above 63", idx + 1));
                }
            }
            if digits > 0 && colour as usize > colours {
                return self.err(
                    n,
                    format!(
                        "cell {} has colour {colour}, but the file has {}",
                        idx + 1,
                        crate::puzzle::counted(colours as u64, "colour", "colours")
                    ),
                );
            }
            if idx >= volume {
                return self.err(
                    n,
                    format!(
                        "the shape has more than the {volume} cells of its {}x{}x{} box",
                        size[0], size[1], size[2]
                    ),
                );
            }
            if let Some(variable) = state {
                let at = [
                    (idx % size[0]) as i32,
                    (idx / size[0] % size[1]) as i32,
                    (idx / (size[0] * size[1])) as i32,
                ];
                if grid == BurrGrid::Spheres && (at[0] + at[1] + at[2]) % 2 != 0 {
                    return self.err(n, format!("cell {} at {at:?} is not a sphere of the sphere grid (x + y + z must be even)", idx + 1));
                }
                if let Some(g) = grid
                    .poly_grid()
                    .filter(|_| matches!(grid, BurrGrid::Rhombic | BurrGrid::TetraOcta))
                {
                    if !g.is_cell(at) {
                        return self.err(
                            n,
                            format!(
                                "cell {} at {at:?} is no cell of the {} grid",
                                idx + 1,
                                grid.name()
                            ),
                        );
                    }
                }
                voxels.push(BurrVoxel {
                    at,
                    variable,
                    colour: colour as u8,
                });
            }
            idx += 1;
        }
        if idx != volume && !text.is_empty() {
            return self.err(
                n,
                format!(
                    "the shape has {idx} cells, its {}x{}x{} box {volume}",
                    size[0], size[1], size[2]
                ),
            );
        }
        let hot = ["hx", "hy", "hz"].map(|k| self.num(n, k, -MAX_SIDE, MAX_SIDE));
        let mut hotspot = [0; 3];
        for (k, h) in hot.into_iter().enumerate() {
            hotspot[k] = h?.unwrap_or(0) as i32;
        }
        Ok(BurrShape {
            name: n.attribute("name").map(str::to_string),
            size: size.map(|s| s as i32),
            voxels,
            weight: self
                .num(n, "weight", i32::MIN as i64, i32::MAX as i64)?
                .unwrap_or(1) as i32,
            hotspot,
            at: self.at(n),
        })
    }

    fn problems(&self, n: Node, shapes: &[BurrShape]) -> Res<Vec<BurrProblem>> {
        self.attrs(n, &[])?;
        let mut out = Vec::new();
        for c in self.children(n, &["problem"])? {
            if out.len() >= MAX_ITEMS {
                return self.err(c, format!("more than {MAX_ITEMS} problems"));
            }
            out.push(self.problem(c, shapes)?);
        }
        Ok(out)
    }

    fn problem(&self, n: Node, shapes: &[BurrShape]) -> Res<BurrProblem> {
        self.attrs(
            n,
            &[
                "name",
                "state",
                "assemblies",
                "solutions",
                "time",
                "maxHoles",
            ],
        )?;
        let state = self.num(n, "state", 0, 2)?.unwrap_or(0);
        let big = i64::MAX;
        let found = match state {
            0 => None,
            _ => Some(BurrFound {
                assemblies: self.num(n, "assemblies", 0, big)?.unwrap_or(0) as u64,
                solutions: self.num(n, "solutions", 0, big)?.map(|k| k as u64),
                seconds: self.num(n, "time", 0, big)?.map(|k| k as u64),
            }),
        };
        let max_holes = self
            .num(n, "maxHoles", 0, u32::MAX as i64)?
            .map(|k| k as u32);
        let mut parts = None;
        let mut result = None;
        let mut pairs = Vec::new();
        let mut kept = 0;
        for c in self.children(n, &["shapes", "result", "bitmap", "solutions", "assembler"])? {
            match c.tag_name().name() {
                "shapes" => parts = Some(self.parts(c, shapes)?),
                "result" => {
                    self.attrs(c, &["id"])?;
                    self.children(c, &[])?;
                    let id = self.need(c, "id", 0, i64::MAX)?;
                    if id as usize >= shapes.len() {
                        return self.err(c, format!("result shape {id} does not exist (the file has {} shapes, numbered from 0)", shapes.len()));
                    }
                    result = Some(id as usize);
                }
                "bitmap" => pairs = self.pairs(c)?,
                "solutions" => kept = self.solutions(c)?,
                _ => {
                    // a paused search's state: nothing of the problem
                    self.attrs(c, &["version"])?;
                }
            }
        }
        let Some(result) = result else {
            return self.err(n, "the problem has no <result>".into());
        };
        let parts = parts.unwrap_or_default();
        if parts.iter().any(|p| p.shape == result) {
            return self.err(n, "the result shape is also a piece".into());
        }
        Ok(BurrProblem {
            name: n.attribute("name").map(str::to_string),
            parts,
            result,
            max_holes,
            colour_pairs: pairs,
            found,
            kept,
            at: self.at(n),
        })
    }

    fn parts(&self, n: Node, shapes: &[BurrShape]) -> Res<Vec<BurrPart>> {
        self.attrs(n, &[])?;
        let mut out: Vec<BurrPart> = Vec::new();
        let mut listed = rustc_hash::FxHashSet::default();
        for c in self.children(n, &["shape"])? {
            self.attrs(c, &["id", "count", "min", "max", "group"])?;
            let id = self.need(c, "id", 0, i64::MAX)?;
            if id as usize >= shapes.len() {
                return self.err(
                    c,
                    format!(
                        "shape {id} does not exist (the file has {} shapes, numbered from 0)",
                        shapes.len()
                    ),
                );
            }
            if !listed.insert(id) {
                return self.err(c, format!("shape {id} is listed twice"));
            }
            let count = self.num(c, "count", 0, MAX_COUNT)?;
            let (min, max) = match (
                count,
                self.num(c, "min", 0, MAX_COUNT)?,
                self.num(c, "max", 0, MAX_COUNT)?,
            ) {
                (Some(k), None, None) => (k, k),
                (None, Some(a), Some(b)) if a <= b => (a, b),
                (None, Some(a), Some(b)) => {
                    return self.err(c, format!("min {a} is above max {b}"))
                }
                (None, None, None) => (1, 1),
                _ => return self.err(c, "give count, or both min and max".into()),
            };
            let mut groups = Vec::new();
            if let Some(g) = self.num(c, "group", 0, u32::MAX as i64)? {
                if g > 0 {
                    groups.push((g as u32, max as u32));
                }
            }
            for s in self.children(c, &["group"])? {
                self.attrs(s, &["group", "count"])?;
                let g = self.need(s, "group", 0, u32::MAX as i64)?;
                let k = self.need(s, "count", 0, MAX_COUNT)?;
                if g > 0 && k > 0 {
                    groups.push((g as u32, k as u32));
                }
            }
            if groups.iter().map(|g| g.1 as i64).sum::<i64>() > max {
                return self.err(c, format!("its groups hold more than its {max} copies"));
            }
            out.push(BurrPart {
                shape: id as usize,
                min: min as u32,
                max: max as u32,
                groups,
                at: self.at(c),
            });
        }
        Ok(out)
    }

    fn pairs(&self, n: Node) -> Res<Vec<(u8, u8)>> {
        self.attrs(n, &[])?;
        let mut out = Vec::new();
        let mut seen = [[false; 64]; 64];
        for c in self.children(n, &["pair"])? {
            self.attrs(c, &["piece", "result"])?;
            self.children(c, &[])?;
            let p = self.need(c, "piece", 0, 63)? as u8;
            let r = self.need(c, "result", 0, 63)? as u8;
            if !std::mem::replace(&mut seen[p as usize][r as usize], true) {
                out.push((p, r));
            }
        }
        Ok(out)
    }

    /// The solutions a file keeps: their elements are checked to be
    /// BurrTools' own, and counted; dancer finds its own.
    fn solutions(&self, n: Node) -> Res<usize> {
        self.attrs(n, &[])?;
        let kids = self.children(n, &["solution"])?;
        for s in &kids {
            self.attrs(*s, &["asmNum", "solNum"])?;
            self.known_tree(*s)?;
        }
        Ok(kids.len())
    }

    fn known_tree(&self, n: Node) -> Res<()> {
        const KNOWN: &[&str] = &[
            "assembly",
            "separation",
            "separationInfo",
            "pieces",
            "state",
            "dx",
            "dy",
            "dz",
        ];
        for d in n.descendants().filter(|d| d.is_element() && *d != n) {
            if !KNOWN.contains(&d.tag_name().name()) {
                return self.err(
                    d,
                    format!("unknown element <{}> in a solution", d.tag_name().name()),
                );
            }
        }
        Ok(())
    }
}
