//! Pictures of solutions: SVG (and PNG from the same drawing).
//!
//! [`svg`] draws one [`Tiling`], [`contact_sheet`] draws many in a grid and
//! [`png`] rasterises either with resvg. How a tiling is drawn depends on
//! its grid, one module each, chosen in one place (`panel`):
//!
//! * squares (`flat.rs`): one colour per piece type, with thick dark lines
//!   between different placements and around the board and its holes, and
//!   thin light lines between the cells of one placement;
//! * cubes (`solid.rs`): the layers `z = 0, 1, ...` side by side (each like
//!   a 2D tiling) and, when [`Style::isometric`] is set, an isometric view
//!   of the whole solid with `z` pointing up. The top faces in that view
//!   show the layers the same way round as the layer pictures (turned by
//!   45 degrees, not mirrored);
//! * triangles and hexagons (`faces.rs`): as squares are, with polygons,
//!   hexagons standing on a corner as `grid/tri.rs` places them;
//! * sticks, twigs and trigs (`edges.rs`): thick segments with round ends,
//!   one colour per piece type, on faint dots at the grid's points;
//! * spheres and prisms (`stacked.rs`): the layers side by side, spheres as
//!   shaded balls, prisms as the triangles of each layer.
//!
//! A piece type has one colour ([`Tiling::cells`] numbers it) in every
//! picture of every grid. `y` grows downwards, as everywhere in the crate.
//! The output is deterministic: the same input always gives the same bytes.

mod edges;
mod faces;
mod flat;
mod fonts;
mod solid;
mod stacked;

#[cfg(test)]
mod tests;

use std::fmt::Write as _;

use resvg::tiny_skia;
use resvg::usvg;
use resvg::usvg::fontdb;
use std::sync::Arc;

use crate::grid::PolyGrid;

/// What a picture shows: the cells of a filled board, each with the
/// placement that covers it and that placement's piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tiling {
    /// The grid the cells are cells of: [`PolyGrid::Square`] for
    /// polyominoes (z is always 0), [`PolyGrid::Cube`] for polycubes, ...
    pub grid: PolyGrid,
    /// Every covered cell: its coordinates (x, y, z) on the grid (see
    /// `grid/`: a triangle's or an edge's kind is its third), the number of the
    /// placement covering it (0-based, distinct per piece placed), and the
    /// index of the piece type in `pieces`.
    ///
    /// Board cells left empty on purpose (holes) are simply absent. The
    /// coordinates need not start at 0; the picture covers their bounding
    /// box. In pictures, x grows to the right and y downwards (row 0 on top).
    pub cells: Vec<([i32; 3], u32, u32)>,
    /// Piece type names (e.g. "F", "I", ... or "Y"), indexed by piece type.
    pub pieces: Vec<String>,
    /// An optional title, drawn above the picture.
    pub title: Option<String>,
}

impl Tiling {
    /// 2 for a plane grid, 3 for a solid one.
    pub fn dim(&self) -> u8 {
        self.grid.dim()
    }
}

/// How pictures are drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Style {
    /// Size of one cell in pixels: the side of a square (also the edge of
    /// a cube in the isometric view), the width of a hexagon; a triangle's
    /// side is one and a half cells, an edge of sticks, twigs or trigs two
    /// cells. Default 24.
    pub cell: f64,
    /// Draw piece names, each in one cell of its placement. Default true.
    pub labels: bool,
    /// For 3D tilings, add an isometric view of the whole solid beside or
    /// below the layers. Default true.
    pub isometric: bool,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            cell: 24.0,
            labels: true,
            isometric: true,
        }
    }
}

/// Why [`png`] failed.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The input is not an SVG that resvg can read.
    #[error("cannot read the SVG: {0}")]
    Svg(#[from] usvg::Error),
    /// The picture is empty, or larger than [`MAX_PIXELS`].
    #[error("cannot make a {width}x{height} pixel image (at most {MAX_PIXELS} pixels)")]
    Size {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// PNG encoding failed.
    #[error("cannot encode the PNG: {0}")]
    Encode(#[source] Box<dyn std::error::Error + Send + Sync>),
}

/// Draws one tiling as a standalone SVG document.
///
/// A 2D picture without a title is `cell * width + 2 * margin` by
/// `cell * height + 2 * margin` pixels, where the margin is half a cell
/// (at least 4 pixels) and width and height are those of the bounding box
/// of the cells.
pub fn svg(t: &Tiling, style: &Style) -> String {
    let m = Metrics::new(style);
    let p = panel(t, style, &m);
    document(p.w, p.h, &p.body)
}

/// Draws many tilings in one SVG document, `columns` per row (at least 1),
/// all at the same scale, each with its title if it has one.
pub fn contact_sheet(tilings: &[Tiling], columns: usize, style: &Style) -> String {
    let m = Metrics::new(style);
    let columns = columns.max(1);
    let panels: Vec<Panel> = tilings.iter().map(|t| panel(t, style, &m)).collect();
    if panels.is_empty() {
        let side = 2.0 * m.margin;
        return document(side, side, "");
    }
    let rows = panels.len().div_ceil(columns);
    let mut col_w = vec![0.0f64; columns.min(panels.len())];
    let mut row_h = vec![0.0f64; rows];
    for (i, p) in panels.iter().enumerate() {
        col_w[i % columns] = col_w[i % columns].max(p.w);
        row_h[i / columns] = row_h[i / columns].max(p.h);
    }
    let gap = m.margin;
    let mut body = String::new();
    for (i, p) in panels.iter().enumerate() {
        let (col, row) = (i % columns, i / columns);
        let x = col_w[..col].iter().sum::<f64>() + gap * col as f64 + (col_w[col] - p.w) / 2.0;
        let y = row_h[..row].iter().sum::<f64>() + gap * row as f64;
        push_group(&mut body, x, y, &p.body);
    }
    let w = col_w.iter().sum::<f64>() + gap * (col_w.len() - 1) as f64;
    let h = row_h.iter().sum::<f64>() + gap * (rows - 1) as f64;
    document(w, h, &body)
}

/// The most pixels (width times height) of a picture [`png`] makes: 64
/// megapixels, a quarter of a gigabyte to draw in.
pub const MAX_PIXELS: u64 = 1 << 26;

/// Rasterises an SVG (such as one made by [`svg`] or [`contact_sheet`])
/// into PNG bytes, one pixel per SVG unit. A picture of more than
/// [`MAX_PIXELS`] pixels is refused ([`RenderError::Size`]).
///
/// Text is drawn with a sans-serif font found in the usual system font
/// folders; on a machine without fonts the picture comes out without text.
pub fn png(svg: &str) -> Result<Vec<u8>, RenderError> {
    rasterise(svg, fonts::font_database())
}

fn rasterise(svg: &str, fonts: Arc<fontdb::Database>) -> Result<Vec<u8>, RenderError> {
    let family = fonts
        .faces()
        .next()
        .and_then(|f| f.families.first())
        .map(|(name, _)| name.clone());
    let mut opt = usvg::Options {
        fontdb: fonts,
        ..usvg::Options::default()
    };
    if let Some(family) = family {
        opt.font_family = family;
    }
    let tree = usvg::Tree::from_str(svg, &opt)?;
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(RenderError::Size { width, height });
    }
    let mut pixmap =
        tiny_skia::Pixmap::new(width, height).ok_or(RenderError::Size { width, height })?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| RenderError::Encode(Box::new(e)))
}

// ---------------------------------------------------------------------------
// Sizes, colours, numbers

/// Dark ink for borders and text.
const INK: &str = "#222222";
/// Font families named in the SVG.
const FONT: &str = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif";

/// Sizes derived from a [`Style`].
struct Metrics {
    cell: f64,
    margin: f64,
    border: f64,
    thin: f64,
    label_font: f64,
    caption_font: f64,
    title_font: f64,
    gap: f64,
}

impl Metrics {
    fn new(style: &Style) -> Metrics {
        let cell = if style.cell.is_finite() && style.cell > 0.0 {
            style.cell
        } else {
            24.0
        };
        Metrics {
            cell,
            margin: (cell * 0.5).max(4.0),
            border: (cell * 0.1).max(1.0),
            thin: (cell / 24.0).clamp(0.5, 2.0),
            label_font: cell * 0.5,
            caption_font: (cell * 0.5).max(9.0),
            title_font: (cell * 0.7).max(11.0),
            gap: cell,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Rgb(u8, u8, u8);

impl Rgb {
    fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// Moves `t` (0..1) of the way towards `other`.
    fn mix(self, other: Rgb, t: f64) -> Rgb {
        let f = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as u8;
        Rgb(f(self.0, other.0), f(self.1, other.1), f(self.2, other.2))
    }

    fn lighter(self, t: f64) -> Rgb {
        self.mix(Rgb(255, 255, 255), t)
    }

    fn darker(self, t: f64) -> Rgb {
        self.mix(Rgb(0, 0, 0), t)
    }

    /// Relative luminance, 0 (black) to 1 (white).
    fn luminance(self) -> f64 {
        let lin = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.040_45 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(self.0) + 0.7152 * lin(self.1) + 0.0722 * lin(self.2)
    }
}

/// Colours of the first piece types: light enough for dark labels, and
/// neighbours in the list far apart in hue.
const PALETTE: [Rgb; 12] = [
    Rgb(0xe8, 0x78, 0x7a), // coral
    Rgb(0x6f, 0xa8, 0xdc), // sky blue
    Rgb(0x8c, 0xc4, 0x74), // green
    Rgb(0xf5, 0xa9, 0x5c), // orange
    Rgb(0xa9, 0x8b, 0xd9), // violet
    Rgb(0xf4, 0xd3, 0x5e), // yellow
    Rgb(0x5f, 0xc4, 0xb5), // teal
    Rgb(0xe6, 0x93, 0xc3), // pink
    Rgb(0xbf, 0x9b, 0x7a), // tan
    Rgb(0x9f, 0xb4, 0xf0), // periwinkle
    Rgb(0xc3, 0xd9, 0x5b), // lime
    Rgb(0x8f, 0xa1, 0xad), // slate
];

/// The piece type number that pictures draw in a neutral grey, as no
/// piece: an empty board.
pub const BOARD_PIECE: u32 = u32::MAX;

/// The fill colour (`#rrggbb`) of piece type `piece` ([`Tiling::cells`]
/// numbers it) in every picture: what a page that draws its own views of
/// the same pieces colours them with, so that a piece looks the same in
/// all of them. Shaded faces (the isometric view) keep its hue.
pub fn piece_colour(piece: u32) -> String {
    piece_color(piece).hex()
}

/// The colour of a piece type: a fixed palette, then golden-angle hues.
fn piece_color(piece: u32) -> Rgb {
    if piece == BOARD_PIECE {
        return Rgb(0xd9, 0xd9, 0xd9);
    }
    if let Some(&c) = PALETTE.get(piece as usize) {
        return c;
    }
    let i = f64::from(piece - PALETTE.len() as u32);
    let hue = (i * 137.507_764 + 15.0) % 360.0;
    let light = [0.66, 0.56, 0.76][(piece % 3) as usize];
    let sat = [0.55, 0.5, 0.6][(piece / 3 % 3) as usize];
    hsl(hue, sat, light)
}

fn hsl(h: f64, s: f64, l: f64) -> Rgb {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let hp = h / 60.0;
    let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
    let (r, g, b) = match hp as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let f = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    Rgb(f(r), f(g), f(b))
}

/// A number with at most two decimals and no trailing zeros.
fn num(v: f64) -> String {
    let mut s = format!("{:.2}", (v * 100.0).round() / 100.0);
    if s.contains('.') {
        s.truncate(s.trim_end_matches('0').trim_end_matches('.').len());
    }
    if s == "-0" {
        s = "0".to_string();
    }
    s
}

/// Escapes text for XML content and attribute values (SVG here,
/// BurrTools' files in [`crate::burr`]); control characters XML cannot
/// hold become blanks.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn piece_name(pieces: &[String], piece: u32) -> String {
    pieces
        .get(piece as usize)
        .cloned()
        .unwrap_or_else(|| piece.to_string())
}

// ---------------------------------------------------------------------------
// Documents and panels

/// A picture fragment drawn in its own coordinates, from (0, 0) to (w, h).
struct Panel {
    w: f64,
    h: f64,
    body: String,
}

impl Panel {
    /// Nothing, no room.
    fn empty() -> Panel {
        Panel {
            w: 0.0,
            h: 0.0,
            body: String::new(),
        }
    }
}

/// (placement, piece type) of a covered cell.
type Cover = (u32, u32);

/// sin 60 degrees: the height of a row of triangles of side 1.
const SIN60: f64 = 0.866_025_403_784_438_6;

/// Where a plane grid's point in fine coordinates goes on the picture, in
/// units that `faces.rs` and `edges.rs` scale: for sticks the corner
/// `(x, y)` of the squares; for the triangular lattice's grids a third of
/// the lattice point `P(x, y) = x e1 + y e2` (`e1` right, `e2` down and to
/// the left, `grid/tri.rs`), one unit a step, and for twigs `sqrt 3` a
/// step so that a hexagon's side, a twig, is one unit as a trig is.
fn plane_xy(grid: PolyGrid, p: [i32; 2]) -> (f64, f64) {
    let [u, v] = p.map(f64::from);
    match grid {
        PolyGrid::Stick => (u, v),
        _ => {
            let scale = if grid == PolyGrid::Twig {
                2.0 * SIN60
            } else {
                1.0
            };
            let (x, y) = ((u - v / 2.0) / 3.0, v * SIN60 / 3.0);
            (x * scale, y * scale)
        }
    }
}

/// The smallest and largest picture coordinates (in cells) of the points.
fn bounds_xy(
    grid: PolyGrid,
    points: impl Iterator<Item = [i32; 2]>,
) -> Option<((f64, f64), (f64, f64))> {
    let mut acc: Option<((f64, f64), (f64, f64))> = None;
    for p in points {
        let (x, y) = plane_xy(grid, p);
        let (lo, hi) = acc.get_or_insert(((x, y), (x, y)));
        *lo = (lo.0.min(x), lo.1.min(y));
        *hi = (hi.0.max(x), hi.1.max(y));
    }
    acc
}

/// The point nearest the points' mean, the first one on a tie; where a
/// placement's label goes.
fn nearest(points: &[(f64, f64)]) -> (f64, f64) {
    let n = points.len() as f64;
    let cx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let cy = points.iter().map(|p| p.1).sum::<f64>() / n;
    let mut best = points.first().copied().unwrap_or_default();
    let mut best_d = f64::INFINITY;
    for &(x, y) in points {
        let d = (x - cx).powi(2) + (y - cy).powi(2);
        if d < best_d - 1e-9 {
            best = (x, y);
            best_d = d;
        }
    }
    best
}

/// A label centred on `at`: the piece's name in the labels' font, `size`
/// at most and smaller for a long name to fit in `room` pixels, white on a
/// dark piece colour. It goes in a `<g>` that sets the font at `size`.
fn label(out: &mut String, at: (f64, f64), name: &str, piece: u32, size: f64, room: f64) {
    let len = name.chars().count().max(1) as f64;
    let fit = size.min(room / (0.7 * len));
    let size_attr = if fit < size {
        format!(" font-size=\"{}\"", num(fit))
    } else {
        String::new()
    };
    let fill_attr = if piece_color(piece).luminance() < 0.3 {
        " fill=\"#ffffff\""
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\"{size_attr}{fill_attr}>{}</text>",
        num(at.0),
        num(at.1 + fit * 0.36),
        escape(name)
    );
}

/// The thin light lines between the cells of one placement, as one path
/// (nothing when `d` is empty).
fn thin_lines(out: &mut String, d: &str, m: &Metrics) {
    if d.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "<path class=\"grid\" fill=\"none\" stroke=\"#ffffff\" stroke-opacity=\"0.6\" \
         stroke-width=\"{}\" d=\"{d}\"/>",
        num(m.thin)
    );
}

fn document(w: f64, h: f64, body: &str) -> String {
    let w = num(w.ceil().max(1.0));
    let h = num(h.ceil().max(1.0));
    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"{FONT}\">"
    );
    let _ = writeln!(out, "<rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>");
    out.push_str(body);
    out.push_str("</svg>\n");
    out
}

fn push_group(out: &mut String, x: f64, y: f64, body: &str) {
    if body.is_empty() {
        return;
    }
    let _ = writeln!(out, "<g transform=\"translate({} {})\">", num(x), num(y));
    out.push_str(body);
    out.push_str("</g>\n");
}

/// One tiling with its margins and title.
fn panel(t: &Tiling, style: &Style, m: &Metrics) -> Panel {
    // the one place that knows which module draws which grid
    let content = match t.grid {
        PolyGrid::Square => flat::content_2d(t, style, m),
        // BurrTools' grids 3 and 4 drawn as their voxels
        PolyGrid::Cube | PolyGrid::Rhombic | PolyGrid::TetraOcta => solid::content_3d(t, style, m),
        PolyGrid::Triangle | PolyGrid::Hexagon => faces::content(t, style, m),
        PolyGrid::Stick | PolyGrid::Twig | PolyGrid::Trig => edges::content(t, style, m),
        PolyGrid::Sphere => stacked::spheres(t, style, m),
        PolyGrid::Prism => stacked::prisms(t, style, m),
    };
    let title = t.title.as_deref().filter(|s| !s.trim().is_empty());
    let title_w = title.map_or(0.0, |s| s.chars().count() as f64 * m.title_font * 0.62);
    let w = content.w.max(title_w) + 2.0 * m.margin;
    let mut body = String::new();
    let mut top = m.margin;
    if let Some(title) = title {
        let _ = writeln!(
            body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" \
             text-anchor=\"middle\" fill=\"{INK}\">{}</text>",
            num(w / 2.0),
            num(top + m.title_font * 0.9),
            num(m.title_font),
            escape(title)
        );
        top += m.title_font * 1.6;
    }
    push_group(&mut body, (w - content.w) / 2.0, top, &content.body);
    Panel {
        w,
        h: top + content.h + m.margin,
        body,
    }
}
