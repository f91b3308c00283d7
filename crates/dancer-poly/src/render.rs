//! Pictures of solutions: SVG (and PNG from the same drawing).
//!
//! [`svg`] draws one [`Tiling`], [`contact_sheet`] draws many in a grid and
//! [`png`] rasterises either with resvg.
//!
//! * 2D tilings are drawn as squares, one colour per piece type, with thick
//!   dark lines between different placements and around the board and its
//!   holes, and thin light lines between the cells of one placement.
//! * 3D tilings are drawn as their layers `z = 0, 1, ...` side by side (each
//!   like a 2D tiling) and, when [`Style::isometric`] is set, an isometric
//!   view of the whole solid with `z` pointing up. The top faces in that view
//!   show the layers the same way round as the layer pictures (turned by 45
//!   degrees, not mirrored).
//!
//! The output is deterministic: the same input always gives the same bytes.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use resvg::tiny_skia;
use resvg::usvg;
use resvg::usvg::fontdb;

/// What a picture shows: the cells of a filled board, each with the
/// placement that covers it and that placement's piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tiling {
    /// 2 for polyominoes (z is always 0), 3 for polycubes.
    pub dim: u8,
    /// Every covered cell: its coordinates (x, y, z), the number of the
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

/// How pictures are drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Style {
    /// Size of one cell in pixels (also the edge of a cube in the isometric
    /// view). Default 24.
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
    rasterise(svg, font_database())
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
// Fonts

/// The fonts used for text in PNGs, found once per process.
fn font_database() -> Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS.get_or_init(|| Arc::new(load_fonts())).clone()
}

/// Sans-serif families to look for, as file names without separators.
const PREFERRED_FONTS: [&str; 12] = [
    "dejavusans",
    "liberationsans",
    "arial",
    "helvetica",
    "helveticaneue",
    "notosans",
    "roboto",
    "opensans",
    "freesans",
    "verdana",
    "ubuntu",
    "cantarell",
];

/// Loads a regular and a bold face of the first preferred family found in
/// the system font folders (or, failing that, a few other fonts). resvg is
/// built without its `system-fonts` feature, so the folders are read here.
fn load_fonts() -> fontdb::Database {
    let mut db = fontdb::Database::new();
    let mut files = Vec::new();
    for dir in font_dirs() {
        collect_font_files(&dir, 0, &mut files);
    }
    files.sort();
    files.dedup();
    let stem = |p: &PathBuf| -> String {
        p.file_stem()
            .map(|s| s.to_string_lossy().to_lowercase())
            .unwrap_or_default()
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect()
    };
    let mut chosen: Vec<&PathBuf> = Vec::new();
    for family in PREFERRED_FONTS {
        let names = [
            family.to_string(),
            format!("{family}regular"),
            format!("{family}bold"),
            format!("{family}bd"),
        ];
        chosen = files.iter().filter(|p| names.contains(&stem(p))).collect();
        if !chosen.is_empty() {
            break;
        }
    }
    if chosen.is_empty() {
        let sans: Vec<&PathBuf> = files
            .iter()
            .filter(|p| {
                let s = stem(p);
                s.contains("sans") && !s.contains("mono")
            })
            .collect();
        chosen = if sans.is_empty() {
            files.iter().collect()
        } else {
            sans
        };
        chosen.truncate(4);
    }
    for path in chosen {
        let small = std::fs::metadata(path)
            .map(|md| md.len() <= 64 << 20)
            .unwrap_or(false);
        if let (true, Ok(data)) = (small, std::fs::read(path)) {
            db.load_font_data(data);
        }
    }
    let family = db
        .faces()
        .next()
        .and_then(|f| f.families.first())
        .map(|(name, _)| name.clone());
    if let Some(family) = family {
        db.set_sans_serif_family(family.clone());
        db.set_serif_family(family);
    }
    db
}

fn font_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = [
        "/usr/share/fonts",
        "/usr/local/share/fonts",
        "/usr/X11R6/lib/X11/fonts",
        "/System/Library/Fonts",
        "/Library/Fonts",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    if let Some(home) = std::env::var_os("HOME") {
        let home = PathBuf::from(home);
        dirs.push(home.join(".fonts"));
        dirs.push(home.join(".local/share/fonts"));
        dirs.push(home.join("Library/Fonts"));
    }
    if let Some(data) = std::env::var_os("XDG_DATA_HOME") {
        dirs.push(PathBuf::from(data).join("fonts"));
    }
    if let Some(windir) = std::env::var_os("WINDIR") {
        dirs.push(PathBuf::from(windir).join("Fonts"));
    }
    dirs
}

fn collect_font_files(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if depth < 5 {
                collect_font_files(&path, depth + 1, out);
            }
            continue;
        }
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        if matches!(ext.as_str(), "ttf" | "otf" | "ttc" | "otc") {
            out.push(path);
        }
    }
}

// ---------------------------------------------------------------------------
// Sizes, colours, numbers

/// Dark ink for borders and text.
const INK: &str = "#222222";
/// Font families named in the SVG.
const FONT: &str = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif";
/// cos 30 degrees: horizontal extent of a unit step in the isometric view.
const COS30: f64 = 0.866_025_403_784_438_6;

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

/// Escapes text for XML content and attribute values.
fn escape(s: &str) -> String {
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
    let content = if t.dim == 3 {
        content_3d(t, style, m)
    } else {
        content_2d(t, style, m)
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

// ---------------------------------------------------------------------------
// 2D: layers of square cells

/// (placement, piece type) of a covered cell.
type Cover = (u32, u32);

/// A grid of square cells, keyed by (x, y) with 0 <= x < w and 0 <= y < h.
struct Layer {
    w: i32,
    h: i32,
    cells: BTreeMap<(i32, i32), Cover>,
}

/// A unit edge of the cell grid: `(vertical, line, start)`. A horizontal
/// edge runs from (start, line) to (start + 1, line), a vertical one from
/// (line, start) to (line, start + 1).
type Edge = (bool, i32, i32);

/// A straight run of unit edges: `(vertical, line, from, to)`.
type Run = (bool, i32, i32, i32);

fn content_2d(t: &Tiling, style: &Style, m: &Metrics) -> Panel {
    let Some(([x0, y0], [x1, y1])) = bounds(t.cells.iter().map(|c| [c.0[0], c.0[1]])) else {
        return Panel {
            w: 0.0,
            h: 0.0,
            body: String::new(),
        };
    };
    let mut cells = BTreeMap::new();
    for &([x, y, _], placement, piece) in &t.cells {
        cells.entry((x - x0, y - y0)).or_insert((placement, piece));
    }
    let layer = Layer {
        w: x1 - x0 + 1,
        h: y1 - y0 + 1,
        cells,
    };
    let mut body = String::new();
    draw_layer(&mut body, &layer, &t.pieces, m, style.labels);
    Panel {
        w: f64::from(layer.w) * m.cell,
        h: f64::from(layer.h) * m.cell,
        body,
    }
}

/// Smallest and largest coordinates, per axis.
fn bounds<const N: usize>(points: impl Iterator<Item = [i32; N]>) -> Option<([i32; N], [i32; N])> {
    let mut acc: Option<([i32; N], [i32; N])> = None;
    for p in points {
        let (lo, hi) = acc.get_or_insert((p, p));
        for i in 0..N {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    }
    acc
}

/// The unit edges of a layer: (borders, inner). A border edge separates a
/// covered cell from a cell of another placement or from an uncovered cell;
/// an inner edge separates two cells of the same placement.
fn layer_edges(layer: &Layer) -> (BTreeSet<Edge>, BTreeSet<Edge>) {
    let mut border = BTreeSet::new();
    let mut inner = BTreeSet::new();
    for (&(x, y), &(placement, _)) in &layer.cells {
        let sides = [
            ((x, y - 1), (false, y, x)),
            ((x, y + 1), (false, y + 1, x)),
            ((x - 1, y), (true, x, y)),
            ((x + 1, y), (true, x + 1, y)),
        ];
        for (next, edge) in sides {
            match layer.cells.get(&next) {
                Some(&(other, _)) if other == placement => inner.insert(edge),
                _ => border.insert(edge),
            };
        }
    }
    (border, inner)
}

/// Joins collinear unit edges that touch into longer runs.
fn runs(edges: &BTreeSet<Edge>) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    for &(vertical, line, start) in edges {
        match out.last_mut() {
            Some(run) if run.0 == vertical && run.1 == line && run.3 == start => run.3 = start + 1,
            _ => out.push((vertical, line, start, start + 1)),
        }
    }
    out
}

fn runs_path(runs: &[Run], cell: f64) -> String {
    let mut d = String::new();
    for &(vertical, line, from, to) in runs {
        let (line, from, to) = (
            num(f64::from(line) * cell),
            num(f64::from(from) * cell),
            num(f64::from(to) * cell),
        );
        if vertical {
            let _ = write!(d, "M{line} {from}V{to}");
        } else {
            let _ = write!(d, "M{from} {line}H{to}");
        }
    }
    d
}

/// Draws a layer with its top left corner at (0, 0).
fn draw_layer(out: &mut String, layer: &Layer, pieces: &[String], m: &Metrics, labels: bool) {
    let c = m.cell;
    let cs = num(c);
    // Fills: one path per placement (and piece type).
    let mut groups: BTreeMap<Cover, Vec<(i32, i32)>> = BTreeMap::new();
    for (&xy, &cover) in &layer.cells {
        groups.entry(cover).or_default().push(xy);
    }
    for (&(_, piece), cells) in &groups {
        let mut d = String::new();
        for &(x, y) in cells {
            let _ = write!(
                d,
                "M{} {}h{cs}v{cs}h-{cs}z",
                num(f64::from(x) * c),
                num(f64::from(y) * c)
            );
        }
        let _ = writeln!(
            out,
            "<path fill=\"{}\" d=\"{d}\"/>",
            piece_color(piece).hex()
        );
    }
    // Lines: thin light ones inside placements, thick dark borders.
    let (border, inner) = layer_edges(layer);
    if !inner.is_empty() {
        let _ = writeln!(
            out,
            "<path class=\"grid\" fill=\"none\" stroke=\"#ffffff\" stroke-opacity=\"0.6\" \
             stroke-width=\"{}\" d=\"{}\"/>",
            num(m.thin),
            runs_path(&runs(&inner), c)
        );
    }
    if !border.is_empty() {
        let _ = writeln!(
            out,
            "<path class=\"borders\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"{}\" \
             stroke-linecap=\"round\" d=\"{}\"/>",
            num(m.border),
            runs_path(&runs(&border), c)
        );
    }
    if labels {
        draw_labels(out, layer, pieces, m);
    }
}

/// Writes each placement's piece name in its cell nearest the placement's
/// centroid.
fn draw_labels(out: &mut String, layer: &Layer, pieces: &[String], m: &Metrics) {
    let mut placements: BTreeMap<u32, (u32, Vec<(i32, i32)>)> = BTreeMap::new();
    for (&xy, &(placement, piece)) in &layer.cells {
        placements
            .entry(placement)
            .or_insert((piece, Vec::new()))
            .1
            .push(xy);
    }
    if placements.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "<g class=\"labels\" font-size=\"{}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{INK}\">",
        num(m.label_font)
    );
    for (piece, cells) in placements.values() {
        let n = cells.len() as f64;
        let cx = cells.iter().map(|&(x, _)| f64::from(x)).sum::<f64>() / n;
        let cy = cells.iter().map(|&(_, y)| f64::from(y)).sum::<f64>() / n;
        let mut best = cells[0];
        let mut best_d = f64::INFINITY;
        for &(x, y) in cells {
            let d = (f64::from(x) - cx).powi(2) + (f64::from(y) - cy).powi(2);
            if d < best_d - 1e-9 {
                best = (x, y);
                best_d = d;
            }
        }
        let name = piece_name(pieces, *piece);
        let len = name.chars().count().max(1) as f64;
        let size = m.label_font.min(m.cell * 0.9 / (0.7 * len));
        let size_attr = if size < m.label_font {
            format!(" font-size=\"{}\"", num(size))
        } else {
            String::new()
        };
        let fill_attr = if piece_color(*piece).luminance() < 0.3 {
            " fill=\"#ffffff\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\"{size_attr}{fill_attr}>{}</text>",
            num((f64::from(best.0) + 0.5) * m.cell),
            num((f64::from(best.1) + 0.5) * m.cell + size * 0.36),
            escape(&name)
        );
    }
    out.push_str("</g>\n");
}

// ---------------------------------------------------------------------------
// 3D: layers and an isometric view

fn content_3d(t: &Tiling, style: &Style, m: &Metrics) -> Panel {
    let Some((lo, hi)) = bounds(t.cells.iter().map(|c| c.0)) else {
        return Panel {
            w: 0.0,
            h: 0.0,
            body: String::new(),
        };
    };
    let size = [hi[0] - lo[0] + 1, hi[1] - lo[1] + 1, hi[2] - lo[2] + 1];
    let mut cubes: BTreeMap<[i32; 3], Cover> = BTreeMap::new();
    for &(p, placement, piece) in &t.cells {
        let q = [p[0] - lo[0], p[1] - lo[1], p[2] - lo[2]];
        cubes.entry(q).or_insert((placement, piece));
    }
    let c = m.cell;
    let gap = m.gap;
    let caption_h = m.caption_font * 1.5;
    let lw = f64::from(size[0]) * c;
    let lh = caption_h + f64::from(size[1]) * c;
    let depth = size[2] as usize;
    let columns = if depth <= 5 {
        depth
    } else {
        (depth as f64).sqrt().ceil() as usize
    };
    let rows = depth.div_ceil(columns);
    let bw = columns as f64 * lw + (columns - 1) as f64 * gap;
    let bh = rows as f64 * lh + (rows - 1) as f64 * gap;

    let mut layers = String::new();
    for z in 0..size[2] {
        let layer = Layer {
            w: size[0],
            h: size[1],
            cells: cubes
                .iter()
                .filter(|(p, _)| p[2] == z)
                .map(|(p, &cover)| ((p[0], p[1]), cover))
                .collect(),
        };
        let mut body = String::new();
        let _ = writeln!(
            body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"#555555\">z = {}</text>",
            num(lw / 2.0),
            num(m.caption_font),
            num(m.caption_font),
            z + lo[2]
        );
        let mut cells = String::new();
        draw_layer(&mut cells, &layer, &t.pieces, m, style.labels);
        push_group(&mut body, 0.0, caption_h, &cells);
        let i = z as usize;
        let x = (i % columns) as f64 * (lw + gap);
        let y = (i / columns) as f64 * (lh + gap);
        push_group(&mut layers, x, y, &body);
    }

    if !style.isometric {
        return Panel {
            w: bw,
            h: bh,
            body: layers,
        };
    }
    let iso = isometric(&cubes, size, m);
    // Beside or below, whichever gives the rounder picture.
    let beside = (bw + gap + iso.w, bh.max(iso.h));
    let below = (bw.max(iso.w), bh + gap + iso.h);
    let badness = |(w, h): (f64, f64)| (w / h / 1.6).ln().abs();
    let mut body = String::new();
    if badness(beside) <= badness(below) {
        push_group(&mut body, 0.0, (beside.1 - bh) / 2.0, &layers);
        push_group(&mut body, bw + gap, (beside.1 - iso.h) / 2.0, &iso.body);
        Panel {
            w: beside.0,
            h: beside.1,
            body,
        }
    } else {
        push_group(&mut body, (below.0 - bw) / 2.0, 0.0, &layers);
        push_group(&mut body, (below.0 - iso.w) / 2.0, bh + gap, &iso.body);
        Panel {
            w: below.0,
            h: below.1,
            body,
        }
    }
}

/// The isometric view: x goes down to the right, y down to the left, z up.
/// Visible faces are top (+z), left (+y) and right (+x).
fn isometric(cubes: &BTreeMap<[i32; 3], Cover>, size: [i32; 3], m: &Metrics) -> Panel {
    let s = m.cell;
    let pad = m.border;
    let [w, h, d] = size.map(f64::from);
    let project = |p: [i32; 3]| -> (f64, f64) {
        let [x, y, z] = p.map(f64::from);
        (
            pad + (h + x - y) * s * COS30,
            pad + (d - z) * s + (x + y) * s * 0.5,
        )
    };
    let at = |p: [i32; 3]| cubes.get(&p).map(|c| c.0);
    // Painter's algorithm: farther cubes (smaller x + y + z) first. Cubes
    // with equal sums never overlap on the picture.
    let mut order: Vec<(&[i32; 3], &Cover)> = cubes.iter().collect();
    order.sort_by_key(|(p, _)| (p[0] + p[1] + p[2], p[2], p[1], p[0]));

    let mut body = String::new();
    for (&p, &(placement, piece)) in order {
        let base = piece_color(piece);
        let mut edges = String::new();
        // (normal axis, shade)
        for (n, face) in [
            (2, base.lighter(0.22)),
            (1, base.darker(0.1)),
            (0, base.darker(0.28)),
        ] {
            let mut normal = [0; 3];
            normal[n] = 1;
            if at(add(p, normal)).is_some() {
                continue; // covered by the neighbour in front
            }
            let (t, u) = ((n + 1) % 3, (n + 2) % 3);
            let corner = |a: i32, b: i32| {
                let mut q = p;
                q[n] += 1;
                q[t] += a;
                q[u] += b;
                project(q)
            };
            let quad = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
            let mut dpath = String::new();
            for (i, (x, y)) in quad.iter().enumerate() {
                let _ = write!(
                    dpath,
                    "{}{} {}",
                    if i == 0 { "M" } else { "L" },
                    num(*x),
                    num(*y)
                );
            }
            dpath.push('Z');
            let _ = writeln!(
                body,
                "<path fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\" stroke-linejoin=\"round\" d=\"{dpath}\"/>",
                face.hex(),
                face.darker(0.3).hex(),
                num(m.thin * 0.75)
            );
            // The four edges of the face: towards -t, +t, -u, +u.
            for (axis, sign) in [(t, -1), (t, 1), (u, -1), (u, 1)] {
                let mut dir = [0; 3];
                dir[axis] = sign;
                let thick = match at(add(add(p, dir), normal)) {
                    // A concave crease against a cube beside and above.
                    Some(other) => other != placement,
                    None => match at(add(p, dir)) {
                        // The face goes on over the neighbour.
                        Some(other) => other != placement,
                        // A convex edge or the outline: empty space.
                        None => true,
                    },
                };
                if thick {
                    let k = i32::from(sign > 0);
                    let (a, b) = if axis == t {
                        (corner(k, 0), corner(k, 1))
                    } else {
                        (corner(0, k), corner(1, k))
                    };
                    let _ = write!(
                        edges,
                        "M{} {}L{} {}",
                        num(a.0),
                        num(a.1),
                        num(b.0),
                        num(b.1)
                    );
                }
            }
        }
        if !edges.is_empty() {
            let _ = writeln!(
                body,
                "<path fill=\"none\" stroke=\"{INK}\" stroke-width=\"{}\" stroke-linecap=\"round\" d=\"{edges}\"/>",
                num(m.border * 0.8)
            );
        }
    }
    Panel {
        w: (w + h) * s * COS30 + 2.0 * pad,
        h: (w + h) * s * 0.5 + d * s + 2.0 * pad,
        body,
    }
}

fn add(a: [i32; 3], b: [i32; 3]) -> [i32; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    fn tiling(dim: u8, cells: &[([i32; 3], u32, u32)], pieces: &[&str]) -> Tiling {
        Tiling {
            dim,
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
            dim,
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
        ];
        for (name, s) in pictures {
            std::fs::write(dir.join(format!("dancer-{name}.svg")), &s).unwrap();
            std::fs::write(dir.join(format!("dancer-{name}.png")), png(&s).unwrap()).unwrap();
        }
    }
}
