//! Pictures checked: snapshots of the squares and cubes as they were
//! drawn before the other grids came (`golden/`), well-formed SVG that
//! usvg reads, colours, borders, sizes and pixels of PNGs, and the parts
//! each grid draws.

use super::flat::{layer_edges, Layer};
use super::*;
use crate::grid::PolyGrid;
use std::collections::{BTreeMap, BTreeSet};

/// Squares in the plane, cubes in space.
fn square_grid(dim: u8) -> PolyGrid {
    if dim == 3 {
        PolyGrid::Cube
    } else {
        PolyGrid::Square
    }
}

fn tiling(dim: u8, cells: &[([i32; 3], u32, u32)], pieces: &[&str]) -> Tiling {
    Tiling {
        grid: square_grid(dim),
        cells: cells.to_vec(),
        pieces: pieces.iter().map(|s| s.to_string()).collect(),
        title: None,
    }
}

/// A 3x2 board of two L-trominoes:
/// ```text
/// A A B
/// A B B
/// ```
fn two_l() -> Tiling {
    tiling(
        2,
        &[
            ([0, 0, 0], 0, 0),
            ([1, 0, 0], 0, 0),
            ([0, 1, 0], 0, 0),
            ([2, 0, 0], 1, 0),
            ([2, 1, 0], 1, 0),
            ([1, 1, 0], 1, 0),
        ],
        &["L"],
    )
}

/// A 3x3 ring (the centre is a hole) of two L-tetrominoes of different
/// types:
/// ```text
/// A A A
/// B . A
/// B B B
/// ```
fn ring() -> Tiling {
    tiling(
        2,
        &[
            ([0, 0, 0], 0, 0),
            ([1, 0, 0], 0, 0),
            ([2, 0, 0], 0, 0),
            ([2, 1, 0], 0, 0),
            ([0, 1, 0], 1, 1),
            ([0, 2, 0], 1, 1),
            ([1, 2, 0], 1, 1),
            ([2, 2, 0], 1, 1),
        ],
        &["L", "J"],
    )
}

/// A 2x2x2 cube of four dominoes of four types.
fn cube() -> Tiling {
    tiling(
        3,
        &[
            ([0, 0, 0], 0, 0),
            ([1, 0, 0], 0, 0),
            ([0, 1, 0], 1, 1),
            ([1, 1, 0], 1, 1),
            ([0, 0, 1], 2, 2),
            ([0, 1, 1], 2, 2),
            ([1, 0, 1], 3, 3),
            ([1, 1, 1], 3, 3),
        ],
        &["A", "B", "C", "D"],
    )
}

/// Reads a tiling from rows of letters, one string per layer (rows
/// separated by '/'); each letter is a piece type and a placement.
fn from_letters(dim: u8, layers: &[&str]) -> Tiling {
    let mut names: Vec<String> = Vec::new();
    let mut cells = Vec::new();
    for (z, layer) in layers.iter().enumerate() {
        for (y, row) in layer.split('/').enumerate() {
            for (x, ch) in row.chars().enumerate() {
                if ch == '.' {
                    continue;
                }
                let name = ch.to_string();
                let i = match names.iter().position(|n| *n == name) {
                    Some(i) => i,
                    None => {
                        names.push(name);
                        names.len() - 1
                    }
                };
                cells.push(([x as i32, y as i32, z as i32], i as u32, i as u32));
            }
        }
    }
    Tiling {
        grid: square_grid(dim),
        cells,
        pieces: names,
        title: None,
    }
}

fn pentominoes() -> Tiling {
    let mut t = from_letters(
        2,
        &["FIIIIILLLL/FFFNWWTTTL/YFNNXWWTZZ/YYNXXXWTZV/YUNUXPPZZV/YUUUPPPVVV"],
    );
    t.title = Some("Pentominoes 6x10".to_string());
    t
}

fn soma() -> Tiling {
    let mut t = from_letters(3, &["VLZ/BBP/BPP", "VLZ/VAZ/BAP", "TLL/TTZ/TAA"]);
    t.title = Some("Soma cube".to_string());
    t
}

/// A small well-formedness check: balanced tags, quoted attributes,
/// no stray '<' or '&'.
fn check_xml(s: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find('<') {
        let text = &rest[..i];
        check_text(text);
        let j = rest[i..].find('>').expect("unclosed tag") + i;
        let tag = &rest[i + 1..j];
        rest = &rest[j + 1..];
        if tag.starts_with('?') {
            assert!(tag.ends_with('?'));
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name), "mismatched </{name}>");
            continue;
        }
        let self_closing = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let name = tag.split_whitespace().next().expect("tag name");
        assert!(
            name.chars().all(|c| c.is_ascii_alphanumeric()),
            "tag {name}"
        );
        // Attributes: name="value" pairs.
        let mut attrs = tag[name.len()..].trim();
        while !attrs.is_empty() {
            let eq = attrs.find("=\"").expect("attribute without =\"");
            let key = &attrs[..eq];
            assert!(key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == ':'));
            let end = attrs[eq + 2..].find('"').expect("unterminated value") + eq + 2;
            check_text(&attrs[eq + 2..end]);
            attrs = attrs[end + 1..].trim_start();
        }
        if !self_closing {
            stack.push(name.to_string());
        }
    }
    check_text(rest);
    assert!(stack.is_empty(), "unclosed {stack:?}");
}

fn check_text(text: &str) {
    assert!(!text.contains('<') && !text.contains('>'));
    let mut parts = text.split('&');
    parts.next();
    for part in parts {
        let ok = ["amp;", "lt;", "gt;", "quot;", "apos;"]
            .iter()
            .any(|e| part.starts_with(e));
        assert!(ok, "stray & in {text:?}");
    }
}

fn parse_with_usvg(svg: &str) -> usvg::Tree {
    usvg::Tree::from_str(svg, &usvg::Options::default()).expect("usvg parses the SVG")
}

/// The `d` attributes of the elements with the given class.
fn class_paths<'a>(svg: &'a str, class: &str) -> Vec<&'a str> {
    let marker = format!("class=\"{class}\"");
    svg.lines()
        .filter(|l| l.contains(&marker))
        .map(|l| {
            let i = l.find(" d=\"").unwrap() + 4;
            &l[i..i + l[i..].find('"').unwrap()]
        })
        .collect()
}

/// Fill colours of the cell paths (not of the isometric faces).
fn fills(svg: &str) -> Vec<&str> {
    svg.lines()
        .filter(|l| l.starts_with("<path fill=\"#") && !l.contains("stroke"))
        .map(|l| &l[12..19])
        .collect()
}

/// What main drew before the other grids came, for the tilings and styles
/// of [`golden_cases`] (`sheet-default` left out for its size).
const GOLDEN: [(&str, &str); 15] = [
    ("two-l-default", include_str!("golden/two-l-default.svg")),
    ("ring-default", include_str!("golden/ring-default.svg")),
    ("cube-default", include_str!("golden/cube-default.svg")),
    (
        "ring-titled-default",
        include_str!("golden/ring-titled-default.svg"),
    ),
    (
        "pentominoes-default",
        include_str!("golden/pentominoes-default.svg"),
    ),
    ("soma-default", include_str!("golden/soma-default.svg")),
    ("tower-default", include_str!("golden/tower-default.svg")),
    ("two-l-small", include_str!("golden/two-l-small.svg")),
    ("ring-small", include_str!("golden/ring-small.svg")),
    ("cube-small", include_str!("golden/cube-small.svg")),
    (
        "ring-titled-small",
        include_str!("golden/ring-titled-small.svg"),
    ),
    (
        "pentominoes-small",
        include_str!("golden/pentominoes-small.svg"),
    ),
    ("soma-small", include_str!("golden/soma-small.svg")),
    ("tower-small", include_str!("golden/tower-small.svg")),
    ("sheet-small", include_str!("golden/sheet-small.svg")),
];

/// The squares and cubes of the tests above, in two styles, one by one
/// and on a contact sheet: (name, SVG).
fn golden_cases() -> Vec<(String, String)> {
    let mut titled = ring();
    titled.title = Some("A <ring> & \"hole\"".to_string());
    let tower = from_letters(
        3,
        &[
            "AB/CD", "AB/CD", "EF/GH", "EF/GH", "IJ/KK", "LJ/MM", "LN/OO", "PP/QQ",
        ],
    );
    let all = [
        ("two-l", two_l()),
        ("ring", ring()),
        ("cube", cube()),
        ("ring-titled", titled),
        ("pentominoes", pentominoes()),
        ("soma", soma()),
        ("tower", tower),
    ];
    let small = Style {
        cell: 10.5,
        labels: false,
        isometric: false,
    };
    let mut out = Vec::new();
    for (style_name, style) in [("default", Style::default()), ("small", small)] {
        for (name, t) in &all {
            out.push((format!("{name}-{style_name}"), svg(t, &style)));
        }
        let tilings: Vec<Tiling> = all.iter().map(|(_, t)| t.clone()).collect();
        out.push((
            format!("sheet-{style_name}"),
            contact_sheet(&tilings, 3, &style),
        ));
    }
    out
}

#[test]
fn squares_and_cubes_draw_byte_for_byte_as_before() {
    let cases = golden_cases();
    for (name, expected) in GOLDEN {
        let (_, got) = cases.iter().find(|(n, _)| n == name).expect("a case");
        assert!(
            got == expected,
            "{name} differs from golden/{name}.svg:\n{got}"
        );
    }
}

#[test]
fn render_snapshot_two_l() {
    let expected = r##"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="96" height="72" viewBox="0 0 96 72" font-family="DejaVu Sans, Verdana, Arial, Helvetica, sans-serif">
<rect width="96" height="72" fill="#ffffff"/>
<g transform="translate(12 12)">
<path fill="#e8787a" d="M0 0h24v24h-24zM0 24h24v24h-24zM24 0h24v24h-24z"/>
<path fill="#e8787a" d="M24 24h24v24h-24zM48 0h24v24h-24zM48 24h24v24h-24z"/>
<path class="grid" fill="none" stroke="#ffffff" stroke-opacity="0.6" stroke-width="1" d="M0 24H24M48 24H72M24 0V24M48 24V48"/>
<path class="borders" fill="none" stroke="#222222" stroke-width="2.4" stroke-linecap="round" d="M0 0H72M24 24H48M0 48H72M0 0V48M24 24V48M48 0V24M72 0V48"/>
<g class="labels" font-size="12" font-weight="bold" text-anchor="middle" fill="#222222">
<text x="12" y="16.32">L</text>
<text x="60" y="40.32">L</text>
</g>
</g>
</svg>
"##;
    assert_eq!(svg(&two_l(), &Style::default()), expected);
}

#[test]
fn render_svgs_are_well_formed() {
    let mut titled = ring();
    titled.title = Some("A <ring> & \"hole\"".to_string());
    let all = [two_l(), ring(), cube(), titled, pentominoes(), soma()];
    for style in [
        Style::default(),
        Style {
            cell: 10.5,
            labels: false,
            isometric: false,
        },
    ] {
        for t in &all {
            let s = svg(t, &style);
            check_xml(&s);
            parse_with_usvg(&s);
        }
        let sheet = contact_sheet(&all, 3, &style);
        check_xml(&sheet);
        parse_with_usvg(&sheet);
    }
    let empty = contact_sheet(&[], 2, &Style::default());
    check_xml(&empty);
    parse_with_usvg(&empty);
    let nothing = tiling(2, &[], &[]);
    parse_with_usvg(&svg(&nothing, &Style::default()));
}

#[test]
fn render_is_deterministic() {
    let a = contact_sheet(&[pentominoes(), soma()], 2, &Style::default());
    let b = contact_sheet(&[pentominoes(), soma()], 2, &Style::default());
    assert_eq!(a, b);
}

#[test]
fn render_colours_follow_piece_types() {
    // Both placements of the two-L board are one type: one colour.
    let s = svg(&two_l(), &Style::default());
    let f = fills(&s);
    assert_eq!(f.len(), 2);
    assert_eq!(f[0], f[1]);
    // Two types in the ring: two colours.
    let s = svg(&ring(), &Style::default());
    let f = fills(&s);
    assert_eq!(f.len(), 2);
    assert_ne!(f[0], f[1]);
    // Four types in the cube: four distinct colours, the same in each
    // layer and the same as in other pictures.
    let s = svg(&cube(), &Style::default());
    let f: BTreeSet<&str> = fills(&s).into_iter().collect();
    assert_eq!(f.len(), 4);
    assert!(f.contains(piece_color(0).hex().as_str()));
    assert!(f.contains(piece_color(1).hex().as_str()));
    // Colours of many types are all distinct.
    let colours: BTreeSet<Rgb> = (0..200).map(piece_color).collect();
    assert_eq!(colours.len(), 200);
}

#[test]
fn render_borders_two_l() {
    // By hand: the outline is 3 + 3 + 2 + 2 = 10 unit edges; between
    // the two pieces there are 3 (x = 1 in row 1, x = 2 in row 0, and
    // y = 1 under column 1). In runs: 4 sides of the outline and the
    // 3 inner edges, none of them collinear neighbours.
    let t = two_l();
    let layer = Layer {
        w: 3,
        h: 2,
        cells: t
            .cells
            .iter()
            .map(|&(p, a, b)| ((p[0], p[1]), (a, b)))
            .collect(),
    };
    let (border, inner) = layer_edges(&layer);
    assert_eq!(border.len(), 13);
    assert_eq!(inner.len(), 4);
    let s = svg(&t, &Style::default());
    let paths = class_paths(&s, "borders");
    assert_eq!(paths.len(), 1);
    assert_eq!(paths[0].matches('M').count(), 7);
    let grid = class_paths(&s, "grid");
    assert_eq!(grid[0].matches('M').count(), 4);
}

#[test]
fn render_borders_around_holes() {
    // Outline 12, hole 4, between the two pieces 2.
    let s = svg(&ring(), &Style::default());
    let paths = class_paths(&s, "borders");
    let d = paths[0];
    let unit: usize = d
        .split('M')
        .skip(1)
        .map(|seg| {
            let nums: Vec<f64> = seg
                .split([' ', 'H', 'V'])
                .map(|n| n.parse().unwrap())
                .collect();
            let (a, b) = if seg.contains('H') {
                (nums[0], nums[2])
            } else {
                (nums[1], nums[2])
            };
            ((b - a) / 24.0).round() as usize
        })
        .sum();
    assert_eq!(unit, 18);
    // The hole has no fill: 8 cells drawn.
    assert_eq!(s.matches("h24v24h-24z").count(), 8);
}

#[test]
fn render_3d_layers_and_isometric() {
    let s = svg(&cube(), &Style::default());
    assert!(s.contains(">z = 0</text>") && s.contains(">z = 1</text>"));
    assert_eq!(class_paths(&s, "borders").len(), 2);
    // Isometric faces: each cube shows the faces not hidden by a
    // neighbour: 4 top + 4 left + 4 right.
    let faces = s.lines().filter(|l| l.contains("stroke-linejoin")).count();
    assert_eq!(faces, 12);
    let flat = svg(
        &cube(),
        &Style {
            isometric: false,
            ..Style::default()
        },
    );
    assert!(!flat.contains("stroke-linejoin"));
}

#[test]
fn render_png_size_and_pixels() {
    let style = Style::default();
    let bytes = png(&svg(&two_l(), &style)).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let pixmap = tiny_skia::Pixmap::decode_png(&bytes).unwrap();
    // 3x2 cells of 24 px and a margin of 12 px all round.
    assert_eq!(
        (pixmap.width(), pixmap.height()),
        (3 * 24 + 24, 2 * 24 + 24)
    );
    // Cell (1, 0) has no label: its centre is the piece colour.
    let px = pixmap.pixel(12 + 24 + 12, 12 + 12).unwrap().demultiply();
    let c = piece_color(0);
    assert_eq!((px.red(), px.green(), px.blue()), (c.0, c.1, c.2));
    // The margin is white.
    let px = pixmap.pixel(2, 2).unwrap().demultiply();
    assert_eq!(
        (px.red(), px.green(), px.blue(), px.alpha()),
        (255, 255, 255, 255)
    );
    // The border between the pieces (x = 2 * 24 in row 0) is dark.
    let px = pixmap.pixel(12 + 48, 12 + 12).unwrap().demultiply();
    assert!(px.red() < 80);
}

#[test]
fn render_png_without_fonts() {
    let mut t = two_l();
    t.title = Some("No fonts".to_string());
    let bytes = rasterise(
        &svg(&t, &Style::default()),
        Arc::new(fontdb::Database::new()),
    )
    .unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn render_png_rejects_bad_svg() {
    assert!(matches!(png("<svg"), Err(RenderError::Svg(_))));
}

/// A picture over the pixel bound is refused with its size, before
/// anything is allocated for it.
#[test]
fn render_png_refuses_huge_pictures() {
    let huge = document(20_000.0, 20_000.0, "");
    match png(&huge) {
        Err(e @ RenderError::Size { width, height }) => {
            assert_eq!((width, height), (20_000, 20_000));
            assert!(e.to_string().contains("at most 67108864 pixels"), "{e}");
        }
        other => panic!("expected a size error, got {other:?}"),
    }
    // the largest cells the command line allows still fit for one
    // pentomino solution
    let style = Style {
        cell: 256.0,
        ..Style::default()
    };
    let bytes = png(&svg(&two_l(), &style)).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn render_numbers() {
    assert_eq!(num(24.0), "24");
    assert_eq!(num(20.784_609), "20.78");
    assert_eq!(num(0.5), "0.5");
    assert_eq!(num(-0.001), "0");
    assert_eq!(num(-1.25), "-1.25");
}

/// Writes demo pictures (`dancer-*.svg` and `.png`) to the temporary
/// folder: `cargo test -p dancer-poly render_demo -- --ignored`, with
/// `DEMO_CELL=48` in the environment for larger cells.
#[test]
#[ignore]
fn render_demo_pictures() {
    let dir = std::env::temp_dir();
    let cell = std::env::var("DEMO_CELL")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24.0);
    let style = Style {
        cell,
        ..Style::default()
    };
    let mut ring = ring();
    ring.title = Some("Ring".to_string());
    let pictures = [
        ("pentominoes", svg(&pentominoes(), &style)),
        ("soma", svg(&soma(), &style)),
        ("two-l", svg(&two_l(), &style)),
        ("ring", svg(&ring, &style)),
        ("cube", svg(&cube(), &style)),
        (
            "tower",
            svg(
                &from_letters(
                    3,
                    &[
                        "AB/CD", "AB/CD", "EF/GH", "EF/GH", "IJ/KK", "LJ/MM", "LN/OO", "PP/QQ",
                    ],
                ),
                &style,
            ),
        ),
        (
            "sheet",
            contact_sheet(&[pentominoes(), soma(), ring, two_l(), cube()], 3, &style),
        ),
        ("grids", contact_sheet(&other_grids(), 3, &style)),
        ("catalogue", contact_sheet(&catalogue_firsts(), 3, &style)),
    ];
    for (name, s) in pictures {
        std::fs::write(dir.join(format!("dancer-{name}.svg")), &s).unwrap();
        std::fs::write(dir.join(format!("dancer-{name}.png")), png(&s).unwrap()).unwrap();
    }
}

// ---------------------------------------------------------------------------
// The other grids

use crate::grid::picture::read_marked;
use crate::grid::{kinds, Cell};

/// A tiling from a picture on its grid: each letter a placement and a
/// piece type of its own, in the order the letters first appear.
fn drawn(grid: PolyGrid, text: &str) -> Tiling {
    let cells: Vec<(Cell, char)> = read_marked(grid, text).unwrap();
    from_cells(grid, &cells)
}

fn from_cells(grid: PolyGrid, cells: &[(Cell, char)]) -> Tiling {
    let mut names: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for &(c, ch) in cells {
        let name = ch.to_string();
        let i = names.iter().position(|n| *n == name).unwrap_or_else(|| {
            names.push(name);
            names.len() - 1
        });
        out.push((c, i as u32, i as u32));
    }
    Tiling {
        grid,
        cells: out,
        pieces: names,
        title: Some(format!("{} tiling", grid.name())),
    }
}

/// Three hexiamonds in a 3 by 2 parallelogram... and a bit: 18 triangles.
const TRIANGLES: &str = "AAABBBCC\n AAABBCCCC";
/// Three polyhexes around a ring: 4 + 4 + 4 hexagons.
const HEXAGONS: &str = " A A B\nC A B B\n C C B C";
/// Three tetrasticks on a 3 by 1 row of squares and more.
const STICKS: &str = "+A+A+B+\nA   B C\n+C+C+B+\n      C\n      +";

/// Two tritrigs and a pentatrig, by hand: cells of the triangular grid's
/// edges.
fn trigs() -> Tiling {
    let a = [[0, 0, 0], [1, 0, 0], [2, 0, 1]];
    let b = [[0, 0, 1], [0, 0, 2], [1, 0, 1]];
    let c = [[0, 1, 0], [1, 1, 0], [1, 0, 2], [2, 0, 0], [2, 1, 1]];
    let mut cells = Vec::new();
    for (piece, ch) in [(&a[..], 'A'), (&b[..], 'B'), (&c[..], 'C')] {
        cells.extend(piece.iter().map(|&x| (x, ch)));
    }
    from_cells(PolyGrid::Trig, &cells)
}

/// The six twigs around a hexagon and the tritwig Y at a corner of it.
fn twigs() -> Tiling {
    // the sides of hexagon P(0, 0): segments from it to its six neighbours
    let ring = [
        [0, 0, 0],
        [-1, 0, 0],
        [0, 0, 1],
        [0, -1, 1],
        [0, 0, 2],
        [-1, -1, 2],
    ];
    let tail = [[1, 0, 1], [1, 0, 2], [1, 1, 0]];
    let mut cells: Vec<(Cell, char)> = ring.iter().map(|&c| (c, 'O')).collect();
    cells.extend(tail.iter().map(|&c| (c, 'Y')));
    from_cells(PolyGrid::Twig, &cells)
}

fn other_grids() -> Vec<Tiling> {
    vec![
        drawn(PolyGrid::Triangle, TRIANGLES),
        drawn(PolyGrid::Hexagon, HEXAGONS),
        drawn(PolyGrid::Stick, STICKS),
        twigs(),
        trigs(),
    ]
}

/// The `d` of each line holding `marker`, in order.
fn paths_with<'a>(svg: &'a str, marker: &str) -> Vec<&'a str> {
    svg.lines()
        .filter(|l| l.contains(marker) && l.contains(" d=\""))
        .map(|l| {
            let i = l.find(" d=\"").unwrap() + 4;
            &l[i..i + l[i..].find('"').unwrap()]
        })
        .collect()
}

/// How many cells each placement has, in placement order.
fn sizes(t: &Tiling) -> Vec<usize> {
    let mut n: BTreeMap<u32, usize> = BTreeMap::new();
    for c in &t.cells {
        *n.entry(c.1).or_default() += 1;
    }
    n.into_values().collect()
}

#[test]
fn faces_have_their_sides_on_the_grid() {
    for grid in [PolyGrid::Triangle, PolyGrid::Hexagon] {
        for kind in kinds(grid) {
            for by in [[0, 0, 0], [3, -2, 0], [-5, 7, 0]] {
                let c = grid.translate(kind, by);
                let (corners, across) = faces::outline(grid, c);
                assert_eq!(corners.len(), across.len());
                let mut a = across.clone();
                a.sort_unstable();
                let mut n = grid.neighbours(c);
                n.sort_unstable();
                assert_eq!(a, n, "{} {c:?}", grid.name());
                // each side is the neighbour's side too, and one cell long
                // for triangles; neighbours' centres are one cell apart
                for (i, &m) in across.iter().enumerate() {
                    let s = [corners[i], corners[(i + 1) % corners.len()]];
                    let (mc, ma) = faces::outline(grid, m);
                    let j = ma.iter().position(|&x| x == c).unwrap();
                    let t = [mc[(j + 1) % mc.len()], mc[j]];
                    assert_eq!(s, t, "{} {c:?} {m:?}", grid.name());
                }
                let (a, b) = (plane_xy(grid, corners[0]), plane_xy(grid, corners[1]));
                let len = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
                let want = if grid == PolyGrid::Triangle {
                    1.0
                } else {
                    1.0 / 3f64.sqrt()
                };
                assert!((len - want).abs() < 1e-12, "{} side {len}", grid.name());
            }
        }
    }
    // hexagons [0, 0] and [1, 0] one cell apart
    let h = plane_xy(PolyGrid::Hexagon, [3, 0]);
    assert!((h.0 - 1.0).abs() < 1e-12 && h.1.abs() < 1e-12);
}

#[test]
fn edges_meet_where_the_grid_says_and_are_one_cell_long() {
    for grid in [PolyGrid::Stick, PolyGrid::Twig, PolyGrid::Trig] {
        for kind in kinds(grid) {
            let c = grid.translate(kind, [2, -3, 0]);
            let [a, b] = edges::ends(grid, c);
            let (pa, pb) = (plane_xy(grid, a), plane_xy(grid, b));
            let len = ((pa.0 - pb.0).powi(2) + (pa.1 - pb.1).powi(2)).sqrt();
            assert!((len - 1.0).abs() < 1e-12, "{} {c:?} {len}", grid.name());
            // its midpoint is the grid's point for it, halved
            let p = grid.embed(c);
            let mid = [a[0] + b[0], a[1] + b[1]];
            let scale = if grid == PolyGrid::Stick { 1 } else { 3 };
            assert_eq!(mid, [p[0] * scale, p[1] * scale], "{c:?}");
            let near = grid.neighbours(c);
            for dx in -2..=2 {
                for dy in -2..=2 {
                    for other in kinds(grid) {
                        let o = grid.translate(other, [2 + dx, -3 + dy, 0]);
                        if o == c {
                            continue;
                        }
                        let shared = edges::ends(grid, o)
                            .iter()
                            .filter(|e| [a, b].contains(e))
                            .count();
                        let want = usize::from(near.contains(&o));
                        assert_eq!(shared, want, "{} {c:?} {o:?}", grid.name());
                    }
                }
            }
        }
    }
}

#[test]
fn faces_draw_a_polygon_per_cell_and_borders_between_placements() {
    for (grid, text, corners) in [
        (PolyGrid::Triangle, TRIANGLES, 3),
        (PolyGrid::Hexagon, HEXAGONS, 6),
    ] {
        let t = drawn(grid, text);
        let s = svg(&t, &Style::default());
        let fills: Vec<&str> = s
            .lines()
            .filter(|l| l.starts_with("<path fill=\"#"))
            .collect();
        let each: Vec<usize> = fills.iter().map(|l| l.matches('Z').count()).collect();
        assert_eq!(each, sizes(&t), "{}", grid.name());
        for l in &fills {
            assert_eq!(
                l.matches('L').count(),
                l.matches('Z').count() * (corners - 1)
            );
        }
        assert_eq!(class_paths(&s, "borders").len(), 1);
        assert_eq!(
            s.matches("<text ").count(),
            3 + 1,
            "three labels and a title"
        );
    }
    // one placement: the hexagon of six triangles has 6 sides out, 6 in
    let t = drawn(PolyGrid::Triangle, "xxx\nxxx");
    let s = svg(&t, &Style::default());
    assert_eq!(class_paths(&s, "borders")[0].matches('M').count(), 6);
    assert_eq!(class_paths(&s, "grid")[0].matches('M').count(), 6);
    // seven hexagons: 18 sides out, 12 in; in two placements 6 more out
    let t = drawn(PolyGrid::Hexagon, " x x\nx x x\n x x");
    let s = svg(&t, &Style::default());
    assert_eq!(class_paths(&s, "borders")[0].matches('M').count(), 18);
    assert_eq!(class_paths(&s, "grid")[0].matches('M').count(), 12);
    let t = drawn(PolyGrid::Hexagon, " x x\nx o x\n x x");
    let s = svg(&t, &Style::default());
    assert_eq!(class_paths(&s, "borders")[0].matches('M').count(), 24);
    assert_eq!(class_paths(&s, "grid")[0].matches('M').count(), 6);
}

/// The points where two edges of one placement meet.
fn joints(t: &Tiling) -> usize {
    let mut ends: BTreeMap<([i32; 2], u32), usize> = BTreeMap::new();
    for &(c, placement, _) in &t.cells {
        for e in edges::ends(t.grid, c) {
            *ends.entry((e, placement)).or_default() += 1;
        }
    }
    let points: BTreeSet<[i32; 2]> = ends
        .iter()
        .filter(|(_, &n)| n > 1)
        .map(|((p, _), _)| *p)
        .collect();
    points.len()
}

#[test]
fn edges_draw_a_segment_per_edge_on_the_points() {
    for t in [drawn(PolyGrid::Stick, STICKS), twigs(), trigs()] {
        let s = svg(&t, &Style::default());
        let each: Vec<usize> = paths_with(&s, "class=\"edges\"")
            .iter()
            .map(|d| d.matches('M').count())
            .collect();
        assert_eq!(each, sizes(&t), "{}", t.grid.name());
        let rims: Vec<usize> = paths_with(&s, "class=\"rim\"")
            .iter()
            .map(|d| d.matches('M').count())
            .collect();
        assert_eq!(rims, each);
        let points: BTreeSet<[i32; 2]> = t
            .cells
            .iter()
            .flat_map(|c| edges::ends(t.grid, c.0))
            .collect();
        let below = s.split("class=\"joints\"").next().unwrap();
        let dots = below.lines().filter(|l| l.starts_with("<circle")).count();
        assert_eq!(dots, points.len(), "{}", t.grid.name());
        // a label on a disc for each placement
        assert_eq!(
            s.matches("<circle cx=\"").count() - dots - joints(&t),
            sizes(&t).len()
        );
    }
    // the X: four sticks at one point, five points
    let t = drawn(PolyGrid::Stick, "  +\n  x\n+x+x+\n  x\n  +");
    let s = svg(&t, &Style::default());
    assert_eq!(paths_with(&s, "class=\"edges\"")[0].matches('M').count(), 4);
    assert_eq!(joints(&t), 1);
    assert_eq!(s.matches("<circle cx").count(), 5 + 1 + 1);
}

#[test]
fn other_grids_are_well_formed_deterministic_and_rasterise() {
    let all = other_grids();
    for style in [
        Style::default(),
        Style {
            cell: 10.5,
            labels: false,
            isometric: false,
        },
    ] {
        for t in &all {
            let s = svg(t, &style);
            check_xml(&s);
            let tree = parse_with_usvg(&s);
            assert!(tree.size().width() > 10.0 && tree.size().height() > 10.0);
            // the same tiling in another order draws the same bytes
            let mut turned = t.clone();
            turned.cells.reverse();
            assert_eq!(svg(&turned, &style), s, "{}", t.grid.name());
            let bytes = png(&s).unwrap();
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        }
        let sheet = contact_sheet(&all, 3, &style);
        check_xml(&sheet);
        parse_with_usvg(&sheet);
    }
}

#[test]
fn other_grids_show_their_colours_in_the_png() {
    // without labels the middle of each hexagon is its piece's colour
    let mut t = drawn(PolyGrid::Hexagon, "x x");
    t.title = None;
    let style = Style {
        labels: false,
        ..Style::default()
    };
    let bytes = png(&svg(&t, &style)).unwrap();
    let pixmap = tiny_skia::Pixmap::decode_png(&bytes).unwrap();
    // two hexagons side by side: 2 cells wide, 2 / sqrt 3 high, margins 12
    assert_eq!(pixmap.width(), 2 * 24 + 24);
    assert_eq!(
        pixmap.height(),
        (2.0 * 24.0 / 3f64.sqrt() + 24.0).ceil() as u32
    );
    let c = piece_color(0);
    for x in [12 + 12, 12 + 36] {
        let px = pixmap.pixel(x, pixmap.height() / 2).unwrap().demultiply();
        assert_eq!((px.red(), px.green(), px.blue()), (c.0, c.1, c.2));
    }
    // sticks: the middle of the edge is the piece's colour
    let mut t = drawn(PolyGrid::Stick, "+-+");
    t.title = None;
    let bytes = png(&svg(&t, &style)).unwrap();
    let pixmap = tiny_skia::Pixmap::decode_png(&bytes).unwrap();
    let px = pixmap
        .pixel(pixmap.width() / 2, pixmap.height() / 2)
        .unwrap()
        .demultiply();
    assert_eq!((px.red(), px.green(), px.blue()), (c.0, c.1, c.2));
}

/// The first solution of the smallest quick puzzle of the catalogue on
/// each grid but the squares and cubes, drawn as a run draws it.
fn catalogue_firsts() -> Vec<Tiling> {
    use crate::model::{Model, Options};
    let mut out = Vec::new();
    for grid in PolyGrid::ALL {
        if matches!(grid, PolyGrid::Square | PolyGrid::Cube) {
            continue;
        }
        let entries = crate::catalog::entries()
            .iter()
            .filter(|e| e.grid == grid && !e.known.slow);
        let smallest = entries
            .filter_map(|e| Some((crate::catalog::puzzle(&e.name)?, e)))
            .min_by_key(|(p, e)| (p.board.cells.len(), e.name.clone()));
        let Some((puzzle, _)) = smallest else {
            continue;
        };
        let m = Model::new(puzzle).unwrap();
        let mut first = None;
        m.solve(&Options::default(), |s| {
            first = Some(s.to_vec());
            false
        })
        .unwrap();
        if let Some(s) = first {
            out.push(m.tiling(&s, Some(m.puzzle.name.clone())));
        }
    }
    out
}

#[test]
fn a_catalogue_solution_on_each_grid_draws_every_cell() {
    let firsts = catalogue_firsts();
    let grids: Vec<PolyGrid> = firsts.iter().map(|t| t.grid).collect();
    // every grid but squares and cubes has a quick puzzle in the catalogue
    let others: Vec<PolyGrid> = PolyGrid::ALL
        .into_iter()
        .filter(|g| !matches!(g, PolyGrid::Square | PolyGrid::Cube))
        .collect();
    assert_eq!(grids, others);
    assert_eq!(grids.len(), 7);
    for t in &firsts {
        let s = svg(t, &Style::default());
        parse_with_usvg(&s);
        let drawn: usize = if t.grid.is_edge_grid() {
            paths_with(&s, "class=\"edges\"")
                .iter()
                .map(|d| d.matches('M').count())
                .sum()
        } else if t.grid == PolyGrid::Sphere {
            s.matches("<circle class=\"ball\"").count()
        } else {
            s.lines()
                .filter(|l| l.starts_with("<path fill=\"#"))
                .map(|l| l.matches('Z').count())
                .sum()
        };
        assert_eq!(drawn, t.cells.len(), "{}", t.grid.name());
        // a label for each placement in each layer it has cells in, a
        // caption for each layer of a solid, and the title
        let layer = |c: &[i32; 3]| match t.grid {
            PolyGrid::Prism => c[2].div_euclid(2),
            PolyGrid::Sphere => c[2],
            _ => 0,
        };
        let labels: BTreeSet<(u32, i32)> = t.cells.iter().map(|c| (c.1, layer(&c.0))).collect();
        let layers: BTreeSet<i32> = t.cells.iter().map(|c| layer(&c.0)).collect();
        let captions = if t.dim() == 3 { layers.len() } else { 0 };
        assert_eq!(
            s.matches("<text ").count(),
            labels.len() + captions + 1,
            "{}",
            t.grid.name()
        );
        assert!(png(&s).unwrap().starts_with(b"\x89PNG"));
    }
}
