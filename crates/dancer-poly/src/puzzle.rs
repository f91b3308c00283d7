//! Boards, piece lists and the puzzle file format.
//!
//! # Coordinates
//!
//! A cell is `[x, y]` on a flat board, `[x, y, z]` in a box. The origin
//! `[0, 0]` is the **top left** cell: `x` counts columns from the left, `y`
//! counts rows **downwards** from the top, and `z` counts layers, `z = 0`
//! first. So `rect = [width, height]` is the cells `[x, y]` with
//! `0 <= x < width` and `0 <= y < height`; `box = [width, height, depth]`
//! adds `0 <= z < depth`; in a picture (`shape`, a layer of `layers`, a
//! piece's `shape`) the first line is `y = 0` and the first character of a
//! line is `x = 0`. Text output, pictures and the NDJSON records
//! (`dancer_formats::ndjson::PiecePlacement`) use the same coordinates: row
//! `y = 0` is printed on top, layers side by side from `z = 0` on the left.
//! A piece's own `cells` are only a shape: they are moved (and turned) to
//! every place where they fit, so their origin does not matter.
//!
//! # The file format
//!
//! A puzzle file is TOML:
//!
//! ```toml
//! name = "Scott's pentomino problem"
//! reflections = true            # may pieces be turned over? (default true)
//!
//! [board]
//! rect = [8, 8]                 # width, height; or
//! # box = [3, 3, 3]             # width, height, depth; or
//! # shape = """                 # a picture: '.' or ' ' is no cell
//! # ########
//! # ###..###
//! # """
//! # layers = ["###\n###", "###\n###"]   # a 3D picture, z = 0 first
//! holes = [[3, 3], [4, 3], [3, 4], [4, 4]]   # cells [x, y] to leave out
//!
//! [[piece]]
//! set = "pentominoes"           # every piece of a named set
//! count = 1                     # each (default 1)
//!
//! [[piece]]
//! name = "O"                    # a piece by name, or your own:
//! cells = [[0, 0], [1, 0], [0, 1], [1, 1]]   # or shape = "##\n##"
//! count = 2                     # or [0, 2] (between), or "any"
//! one_sided = false             # rotations only for this piece
//! ```
//!
//! Limits: a board has at most [`MAX_BOARD_CELLS`] cells, coordinates below
//! [`MAX_COORD`] and a bounding box of at most [`MAX_BOARD_BOX`] cells; a
//! piece's coordinates are at most [`MAX_COORD`] from 0. A piece name is what the exact cover problem calls
//! the piece's item: no blanks, `:` or `|`, and not of the form of a cell's
//! item (`3.4`, `3.4.0`).
//!
//! Every error in a file says where: `FILE:LINE:COL: message`, the place
//! of the `[board]` or `[[piece]]` declaration at fault (a [`Location`] as
//! `dancer_formats` reports it); puzzles built in code have no places, and
//! their errors say none.

use crate::geometry::{canonical, normalize, symmetries, Cell, Transform};
use crate::pieces;
pub use dancer_formats::Location;
use serde::Deserialize;
use std::collections::HashMap;
use std::fmt;

/// The most cells a board may have (a larger one is refused, not searched).
pub const MAX_BOARD_CELLS: usize = 100_000;

/// Coordinates of board cells are below this, and those of a piece's
/// `cells` at most this far from 0 either way.
pub const MAX_COORD: i32 = 100_000;

/// The bounding box of a board (width times height times depth) may have at
/// most this many cells, holes and all (it is what text output and pictures
/// draw).
pub const MAX_BOARD_BOX: i64 = 1_000_000;

/// How many copies of a piece a solution uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Copies {
    Exactly(u32),
    Between(u32, u32),
    /// Any number, including none.
    Any,
}

impl fmt::Display for Copies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Copies::Exactly(k) => write!(f, "{k}"),
            Copies::Between(a, b) => write!(f, "{a} to {b}"),
            Copies::Any => write!(f, "any number"),
        }
    }
}

/// A piece type of a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Its name (also the name of its item in the exact cover problem).
    pub name: String,
    /// Normalised cells.
    pub cells: Vec<Cell>,
    pub count: Copies,
    /// Rotations only (no turning over).
    pub one_sided: bool,
    /// Where the piece is declared (its `[[piece]]` table) in a puzzle file;
    /// None for pieces made in code. Errors about the piece say it.
    pub at: Option<Location>,
}

impl Piece {
    /// A piece made in code (no place in a file), used `count` times, that
    /// may be turned over.
    pub fn new(name: impl Into<String>, cells: &[Cell], count: Copies) -> Self {
        Piece {
            name: name.into(),
            cells: normalize(cells),
            count,
            one_sided: false,
            at: None,
        }
    }
}

/// The region to fill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub dim: u8,
    /// The cells, sorted by (z, y, x).
    pub cells: Vec<Cell>,
    index: HashMap<Cell, usize>,
}

impl Board {
    pub fn new(dim: u8, cells: Vec<Cell>) -> Self {
        let mut cells = cells;
        cells.sort_by_key(|c| (c[2], c[1], c[0]));
        cells.dedup();
        let index = cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        Board { dim, cells, index }
    }
    /// The `w` by `h` rectangle: cells `[x, y]` with `0 <= x < w`, `0 <= y <
    /// h` (y grows downwards).
    pub fn rect(w: i32, h: i32) -> Self {
        Self::new(
            2,
            (0..h)
                .flat_map(|y| (0..w).map(move |x| [x, y, 0]))
                .collect(),
        )
    }
    /// The `w` by `h` by `d` box: layers `z = 0 .. d` of `w` by `h`
    /// rectangles.
    pub fn cuboid(w: i32, h: i32, d: i32) -> Self {
        Self::new(
            3,
            (0..d)
                .flat_map(|z| (0..h).flat_map(move |y| (0..w).map(move |x| [x, y, z])))
                .collect(),
        )
    }
    /// A 2D board from a picture (`.` or space: no cell), the first line
    /// `y = 0`.
    pub fn picture(text: &str) -> Self {
        Self::new(2, pieces::picture(&text.lines().collect::<Vec<_>>()))
    }
    /// A 3D board from pictures of its layers, z = 0 first.
    pub fn layers(layers: &[String]) -> Self {
        let mut cells = Vec::new();
        for (z, l) in layers.iter().enumerate() {
            for c in pieces::picture(&l.lines().collect::<Vec<_>>()) {
                cells.push([c[0], c[1], z as i32]);
            }
        }
        Self::new(3, cells)
    }
    pub fn without(&self, holes: &[Cell]) -> Self {
        let holes: std::collections::HashSet<&Cell> = holes.iter().collect();
        Self::new(
            self.dim,
            self.cells
                .iter()
                .copied()
                .filter(|c| !holes.contains(c))
                .collect(),
        )
    }
    pub fn len(&self) -> usize {
        self.cells.len()
    }
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
    pub fn index(&self, c: &Cell) -> Option<usize> {
        self.index.get(c).copied()
    }
    /// Width, height, depth of the bounding box.
    pub fn extent(&self) -> [i32; 3] {
        let mut hi = [0; 3];
        for c in &self.cells {
            for k in 0..3 {
                hi[k] = hi[k].max(c[k] + 1);
            }
        }
        hi
    }
    /// The board's symmetries: for each symmetry of the grid that maps the
    /// board onto itself, the permutation of its cells.
    pub fn symmetries(&self) -> Vec<(Transform, Vec<usize>)> {
        let mut out = Vec::new();
        for t in symmetries(self.dim) {
            let moved: Vec<Cell> = self.cells.iter().map(|&c| t.apply(c)).collect();
            let mut lo = [i32::MAX; 3];
            for c in &moved {
                for k in 0..3 {
                    lo[k] = lo[k].min(c[k]);
                }
            }
            let mut base = [i32::MAX; 3];
            for c in &self.cells {
                for k in 0..3 {
                    base[k] = base[k].min(c[k]);
                }
            }
            let perm: Option<Vec<usize>> = moved
                .iter()
                .map(|c| {
                    self.index(&[
                        c[0] - lo[0] + base[0],
                        c[1] - lo[1] + base[1],
                        c[2] - lo[2] + base[2],
                    ])
                })
                .collect();
            if let Some(p) = perm {
                out.push((t, p));
            }
        }
        out
    }
}

/// A packing puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolyPuzzle {
    pub name: String,
    pub board: Board,
    pub pieces: Vec<Piece>,
    /// Where the board is declared (its `[board]` table) in a puzzle file;
    /// None for puzzles made in code.
    pub board_at: Option<Location>,
}

/// `1 cell`, `2 cells`: a count and its noun, singular for 1 (one rule for
/// every crate: [`dancer_core::plural`]).
pub use dancer_core::plural as counted;

/// `1 cell`, `2 cells`.
fn cells(n: &usize) -> String {
    counted(*n as u64, "cell", "cells")
}

/// What is wrong with a puzzle, or with what a run of it is asked to write
/// ([`PolyError::SheetName`]). Every variant says where, when the puzzle
/// came from a file ([`PolyError::location`]), apart from what
/// ([`PolyError::message`]); shown, it is `FILE:LINE:COL: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolyError {
    /// The file breaks a rule of the format: TOML syntax, an unknown key, a
    /// bad value.
    File { at: Location, message: String },
    /// A piece that must be used has no place on the board.
    FitsNowhere { piece: String, at: Option<Location> },
    /// No choice of the pieces' counts covers the board's area (`at`: the
    /// board).
    Area {
        area: usize,
        why: String,
        at: Option<Location>,
    },
    /// `at`: the board.
    EmptyBoard { at: Option<Location> },
    /// The board is too large, or has cells out of range (`at`: the board).
    BoardTooLarge { why: String, at: Option<Location> },
    /// A solid piece for a flat board.
    NotFlat { piece: String, at: Option<Location> },
    /// Two pieces of one name (`at`: the second; `first`: the first).
    Duplicate {
        piece: String,
        at: Option<Location>,
        first: Option<Location>,
    },
    /// A piece that cannot be: a bad name, no cells, cells out of range.
    BadPiece {
        piece: String,
        why: String,
        at: Option<Location>,
    },
    /// The exact cover problem would be too large to build.
    TooLarge { why: String },
    /// A contact sheet named neither `.svg` nor `.png` (the name says
    /// which picture it is: [`crate::pictures::PictureFormat::of_path`]).
    SheetName { path: std::path::PathBuf },
}

impl PolyError {
    /// Where in the puzzle file the error is, when the puzzle came from one.
    pub fn location(&self) -> Option<&Location> {
        match self {
            PolyError::File { at, .. } => Some(at),
            PolyError::FitsNowhere { at, .. }
            | PolyError::Area { at, .. }
            | PolyError::EmptyBoard { at }
            | PolyError::BoardTooLarge { at, .. }
            | PolyError::NotFlat { at, .. }
            | PolyError::Duplicate { at, .. }
            | PolyError::BadPiece { at, .. } => at.as_ref(),
            PolyError::TooLarge { .. } | PolyError::SheetName { .. } => None,
        }
    }

    /// What is wrong, without where.
    pub fn message(&self) -> String {
        match self {
            PolyError::File { message, .. } => message.clone(),
            PolyError::FitsNowhere { piece, .. } => {
                format!("piece {piece} fits nowhere on the board")
            }
            PolyError::Area { area, why, .. } => format!(
                "the pieces cannot cover the board's {} exactly: {why}",
                cells(area)
            ),
            PolyError::EmptyBoard { .. } => "the board has no cells".into(),
            PolyError::BoardTooLarge { why, .. } => format!("the board is too large: {why}"),
            PolyError::NotFlat { piece, .. } => {
                format!("piece {piece} is not flat and cannot go on a flat board")
            }
            PolyError::Duplicate { piece, first, .. } => format!(
                "piece {piece:?} is listed twice{}; give a count instead",
                first
                    .as_ref()
                    .map_or(String::new(), |f| format!(" (first at {f})"))
            ),
            PolyError::BadPiece { piece, why, .. } => format!("piece {piece:?}: {why}"),
            PolyError::TooLarge { why } => format!("the puzzle is too large: {why}"),
            PolyError::SheetName { .. } => {
                "a contact sheet is an SVG or a PNG picture: name the file .svg or .png".into()
            }
        }
    }
}

impl fmt::Display for PolyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location() {
            Some(at) => write!(f, "{at}: {}", self.message()),
            None => f.write_str(&self.message()),
        }
    }
}

impl std::error::Error for PolyError {}

/// Why a piece name cannot be used, if it cannot: it names the piece's item
/// in the exact cover problem (and in `dancer poly export`), beside the
/// cells' items `x.y` and `x.y.z`.
fn bad_name(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        return Some("a piece name cannot be empty");
    }
    if name.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Some("a piece name cannot contain blanks");
    }
    if name.contains(':') || name.contains('|') {
        return Some("a piece name cannot contain ':' or '|'");
    }
    let parts: Vec<&str> = name.split('.').collect();
    if (2..=3).contains(&parts.len())
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    {
        return Some("a piece name cannot look like a cell (x.y or x.y.z)");
    }
    None
}

/// Whether bounded counts `lo..=hi` of a piece of `size` cells, added to
/// totals `can` makes, can make each total up to `can.len() - 1`.
fn knapsack_step(can: &[bool], size: usize, lo: usize, hi: usize) -> Vec<bool> {
    let n = can.len();
    // prefix[u] = how many of can[u], can[u - size], can[u - 2 size], ... hold
    let mut prefix = vec![0u32; n];
    for u in 0..n {
        prefix[u] = u32::from(can[u]) + if u >= size { prefix[u - size] } else { 0 };
    }
    let mut next = vec![false; n];
    let lo_cells = lo.saturating_mul(size);
    let span = hi.saturating_add(1).saturating_mul(size);
    for (u, slot) in next.iter_mut().enumerate() {
        if u < lo_cells {
            continue;
        }
        // some k in lo..=hi with can[u - k size]
        let top = prefix[u - lo_cells];
        let below = if u >= span { prefix[u - span] } else { 0 };
        *slot = top > below;
    }
    next
}

impl PolyPuzzle {
    /// A puzzle made in code (no places in a file).
    pub fn new(name: impl Into<String>, board: Board, pieces: Vec<Piece>) -> Self {
        PolyPuzzle {
            name: name.into(),
            board,
            pieces,
            board_at: None,
        }
    }

    /// The symmetry group used for a piece's orientations.
    pub fn piece_group(&self, p: &Piece) -> Vec<Transform> {
        let g = symmetries(self.board.dim);
        if p.one_sided {
            g.into_iter().filter(Transform::is_rotation).collect()
        } else {
            g
        }
    }

    /// Checks what can be checked before searching: the board's size, the
    /// pieces' names and cells, pieces listed twice, solid pieces on a flat
    /// board, and areas that cannot add up. (Pieces that fit nowhere are
    /// found by [`crate::Model::new`].)
    pub fn check(&self) -> Result<(), PolyError> {
        let board_at = || self.board_at.clone();
        if self.board.is_empty() {
            return Err(PolyError::EmptyBoard { at: board_at() });
        }
        if self.board.len() > MAX_BOARD_CELLS {
            return Err(PolyError::BoardTooLarge {
                why: format!("{} (at most {MAX_BOARD_CELLS})", cells(&self.board.len())),
                at: board_at(),
            });
        }
        if let Some(c) = self
            .board
            .cells
            .iter()
            .find(|c| c.iter().any(|&v| !(0..MAX_COORD).contains(&v)))
        {
            return Err(PolyError::BoardTooLarge {
                why: format!("cell {c:?} is out of range (coordinates 0 to {MAX_COORD})"),
                at: board_at(),
            });
        }
        let [w, h, d] = self.board.extent();
        let volume = i64::from(w) * i64::from(h) * i64::from(d);
        if volume > MAX_BOARD_BOX {
            return Err(PolyError::BoardTooLarge {
                why: format!("its bounding box is {w}x{h}x{d} (at most {MAX_BOARD_BOX} cells)"),
                at: board_at(),
            });
        }
        let mut first: HashMap<&str, &Piece> = HashMap::new();
        for p in &self.pieces {
            let bad = |why: String| PolyError::BadPiece {
                piece: p.name.clone(),
                why,
                at: p.at.clone(),
            };
            if let Some(why) = bad_name(&p.name) {
                return Err(bad(why.into()));
            }
            if let Some(q) = first.insert(&p.name, p) {
                return Err(PolyError::Duplicate {
                    piece: p.name.clone(),
                    at: p.at.clone(),
                    first: q.at.clone(),
                });
            }
            if p.cells.is_empty() {
                return Err(bad("a piece needs at least one cell".into()));
            }
            if p.cells.len() > MAX_BOARD_CELLS
                || p.cells
                    .iter()
                    .any(|c| c.iter().any(|&v| !(-MAX_COORD..=MAX_COORD).contains(&v)))
            {
                return Err(bad(format!(
                    "too large: at most {MAX_BOARD_CELLS} cells, coordinates -{MAX_COORD} to {MAX_COORD}"
                )));
            }
            if self.board.dim == 2 && p.cells.iter().any(|c| c[2] != p.cells[0][2]) {
                return Err(PolyError::NotFlat {
                    piece: p.name.clone(),
                    at: p.at.clone(),
                });
            }
        }
        let area = self.board.len();
        // which totals can the pieces make? (bounded knapsack over areas)
        let mut can = vec![false; area + 1];
        can[0] = true;
        for p in &self.pieces {
            let s = p.cells.len();
            let (lo, hi) = match p.count {
                Copies::Exactly(k) => (k as usize, k as usize),
                Copies::Between(a, b) => (a as usize, b as usize),
                Copies::Any => (0, area / s),
            };
            can = knapsack_step(&can, s, lo, hi);
        }
        if !can[area] {
            let desc: Vec<String> = self
                .pieces
                .iter()
                .map(|p| format!("{} x{} ({})", p.name, p.count, cells(&p.cells.len())))
                .collect();
            return Err(PolyError::Area {
                area,
                why: format!("no choice of counts of {} adds up to it", desc.join(", ")),
                at: board_at(),
            });
        }
        Ok(())
    }
}

// ----- the file format -----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDoc {
    name: Option<String>,
    reflections: Option<bool>,
    board: toml::Spanned<BoardDoc>,
    #[serde(default, rename = "piece")]
    pieces: Vec<toml::Spanned<PieceDoc>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardDoc {
    rect: Option<[i64; 2]>,
    #[serde(rename = "box")]
    cuboid: Option<[i64; 3]>,
    shape: Option<String>,
    layers: Option<Vec<String>>,
    #[serde(default)]
    holes: Vec<Vec<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceDoc {
    set: Option<String>,
    name: Option<String>,
    cells: Option<Vec<Vec<i64>>>,
    shape: Option<String>,
    count: Option<toml::Spanned<toml::Value>>,
    one_sided: Option<bool>,
}

impl BoardDoc {
    /// The board it describes, its holes taken out, or what is wrong with
    /// it.
    fn board(self) -> Result<Board, String> {
        let b = self;
        let given = [
            b.rect.is_some(),
            b.cuboid.is_some(),
            b.shape.is_some(),
            b.layers.is_some(),
        ]
        .iter()
        .filter(|&&x| x)
        .count();
        if given != 1 {
            return Err("the board needs exactly one of rect, box, shape, layers".into());
        }
        let mut board = if let Some(r) = b.rect {
            sized_board(&r)?
        } else if let Some(c) = b.cuboid {
            sized_board(&c)?
        } else if let Some(s) = &b.shape {
            picture_fits(s).map_err(|m| format!("the board is {m}"))?;
            Board::picture(s.trim_matches('\n'))
        } else {
            let l: Vec<String> = b
                .layers
                .iter()
                .flatten()
                .map(|s| s.trim_matches('\n').to_string())
                .collect();
            picture_fits(&l.join("\n")).map_err(|m| format!("the board is {m}"))?;
            Board::layers(&l)
        };
        if !b.holes.is_empty() {
            let mut holes = Vec::new();
            for h in &b.holes {
                let c = cell_of(h, "holes")?;
                if board.index(&c).is_none() {
                    return Err(format!("hole {h:?} is not a cell of the board"));
                }
                holes.push(c);
            }
            board = board.without(&holes);
        }
        Ok(board)
    }
}

impl PieceDoc {
    /// The pieces it gives (a set's, a known piece, or one of its own
    /// cells or shape), each a name and cells, or what is wrong with it.
    fn shapes(&self) -> Result<Vec<(String, Vec<Cell>)>, String> {
        match (&self.set, &self.name, &self.cells, &self.shape) {
            (Some(set), None, None, None) => {
                let shapes = pieces::set(set).ok_or_else(|| {
                    format!("unknown piece set {set:?} (known: {})", pieces::SETS.join(", "))
                })?;
                Ok(shapes.into_iter().map(|s| (s.name, s.cells)).collect())
            }
            (None, Some(name), None, None) => {
                let s = pieces::piece(name).ok_or_else(|| format!("unknown piece {name:?}"))?;
                Ok(vec![(s.name, s.cells)])
            }
            (None, Some(name), Some(cells), None) => {
                let mut v = Vec::new();
                for c in cells {
                    v.push(cell_of(c, &format!("piece {name:?}"))?);
                }
                if v.is_empty() || !crate::geometry::is_connected(&v) {
                    return Err(format!("piece {name:?}: cells empty or not connected"));
                }
                Ok(vec![(name.clone(), v)])
            }
            (None, Some(name), None, Some(shape)) => {
                picture_fits(shape).map_err(|m| format!("piece {name:?}: {m}"))?;
                let v = pieces::picture(&shape.trim_matches('\n').lines().collect::<Vec<_>>());
                if v.is_empty() || !crate::geometry::is_connected(&v) {
                    return Err(format!("piece {name:?}: shape empty or not connected"));
                }
                Ok(vec![(name.clone(), v)])
            }
            _ => Err(
                "a [[piece]] needs either set = \"...\", or name = \"...\" (with cells or shape for your own)"
                    .into(),
            ),
        }
    }
}

/// 1-based line and column (in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// A cell of a file: 2 or 3 coordinates, each at most [`MAX_COORD`] from 0.
fn cell_of(v: &[i64], what: &str) -> Result<Cell, String> {
    if let Some(x) = v.iter().find(|x| x.abs() > i64::from(MAX_COORD)) {
        return Err(format!(
            "{what}: coordinate {x} is out of range (-{MAX_COORD} to {MAX_COORD})"
        ));
    }
    // in range, so the conversions are exact
    let c: Vec<i32> = v.iter().map(|&x| x as i32).collect();
    match c.len() {
        2 => Ok([c[0], c[1], 0]),
        3 => Ok([c[0], c[1], c[2]]),
        n => Err(format!("{what}: a cell has 2 or 3 coordinates, not {n}")),
    }
}

/// A piece's `count`: a number, `[least, most]` or `"any"`.
fn count_of(v: &toml::Value) -> Result<Copies, String> {
    let number = |v: &toml::Value| match v {
        toml::Value::Integer(k) => u32::try_from(*k).ok(),
        _ => None,
    };
    let bad = || {
        format!(
            "count {v}: expected a number from 0 to {}, [least, most] or \"any\"",
            u32::MAX
        )
    };
    match v {
        toml::Value::String(w) if w == "any" => Ok(Copies::Any),
        toml::Value::Array(a) if a.len() == 2 => {
            let (Some(lo), Some(hi)) = (number(&a[0]), number(&a[1])) else {
                return Err(bad());
            };
            match lo.cmp(&hi) {
                std::cmp::Ordering::Less => Ok(Copies::Between(lo, hi)),
                std::cmp::Ordering::Equal => Ok(Copies::Exactly(lo)),
                std::cmp::Ordering::Greater => {
                    Err(format!("count [{lo}, {hi}]: the first bound is larger"))
                }
            }
        }
        _ => number(v).map(Copies::Exactly).ok_or_else(bad),
    }
}

/// The board of a `rect` or `box` of these sides, if it is not too large.
fn sized_board(sides: &[i64]) -> Result<Board, String> {
    let what = if sides.len() == 2 { "rectangle" } else { "box" };
    let shown: Vec<String> = sides.iter().map(i64::to_string).collect();
    let shown = shown.join("x");
    if sides.iter().any(|&s| s <= 0) {
        return Err(format!("bad {what} {shown}: every side must be at least 1"));
    }
    let cells = sides
        .iter()
        .try_fold(1i64, |acc, &s| acc.checked_mul(s))
        .filter(|&n| n <= MAX_BOARD_CELLS as i64);
    if cells.is_none() {
        return Err(format!(
            "bad {what} {shown}: at most {MAX_BOARD_CELLS} cells"
        ));
    }
    // each side is at most MAX_BOARD_CELLS, so fits an i32
    let s: Vec<i32> = sides.iter().map(|&s| s as i32).collect();
    Ok(if s.len() == 2 {
        Board::rect(s[0], s[1])
    } else {
        Board::cuboid(s[0], s[1], s[2])
    })
}

/// Reads a puzzle file. `file` names it in messages (and is the puzzle's
/// name when the file gives none).
pub fn parse(text: &str, file: &str) -> Result<PolyPuzzle, PolyError> {
    let loc = |offset: usize| {
        let (line, col) = line_col(text, offset);
        Location {
            file: file.to_string(),
            line,
            col,
        }
    };
    let err = |offset: usize, message: String| PolyError::File {
        at: loc(offset),
        message,
    };
    let doc: FileDoc = toml::from_str(text).map_err(|e| {
        let off = e.span().map_or(0, |s| s.start);
        err(off, e.message().trim_end().to_string())
    })?;
    let reflections = doc.reflections.unwrap_or(true);
    let bspan = doc.board.span().start;
    let board = doc.board.into_inner().board().map_err(|m| err(bspan, m))?;
    let mut pieces = Vec::new();
    for sp in doc.pieces {
        let off = sp.span().start;
        let p = sp.into_inner();
        let count = match &p.count {
            None => Copies::Exactly(1),
            Some(v) => count_of(v.get_ref()).map_err(|m| err(v.span().start, m))?,
        };
        let one_sided = p.one_sided.unwrap_or(!reflections);
        for (name, cells) in p.shapes().map_err(|m| err(off, m))? {
            pieces.push(Piece {
                name,
                cells: normalize(&cells),
                count,
                one_sided,
                at: Some(loc(off)),
            });
        }
    }
    if pieces.is_empty() {
        return Err(err(0, "no pieces: add [[piece]] tables".into()));
    }
    let puzzle = PolyPuzzle {
        name: doc.name.unwrap_or_else(|| file.to_string()),
        board,
        pieces,
        board_at: Some(loc(bspan)),
    };
    puzzle.check()?;
    Ok(puzzle)
}

/// Whether a picture (`shape`, `layers`) has at most [`MAX_BOARD_CELLS`]
/// cells and lines of at most [`MAX_COORD`] characters, counted before
/// any cell is made: a picture too large is refused at the cost of reading
/// it, whatever it would take to build.
fn picture_fits(text: &str) -> Result<(), String> {
    let mut cells = 0usize;
    for line in text.lines() {
        if line.chars().count() > MAX_COORD as usize {
            return Err(format!(
                "too large: a line of more than {MAX_COORD} characters"
            ));
        }
        cells += line.chars().filter(|&c| c != '.' && c != ' ').count();
        if cells > MAX_BOARD_CELLS {
            return Err(format!("too large: more than {MAX_BOARD_CELLS} cells"));
        }
    }
    if text.lines().count() > MAX_COORD as usize {
        return Err(format!("too large: more than {MAX_COORD} lines"));
    }
    Ok(())
}

/// Canonical form of a piece under its own group (for matching pieces).
pub fn piece_key(p: &Piece, group: &[Transform]) -> Vec<Cell> {
    canonical(&p.cells, group)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_and_checks() {
        let text = r###"
name = "scott"
[board]
rect = [8, 8]
[[piece]]
set = "pentominoes"
[[piece]]
name = "O"
shape = "##\n##"
"###;
        let p = parse(text, "s.toml").unwrap();
        assert_eq!(p.board.len(), 64);
        assert_eq!(p.pieces.len(), 13);
        assert_eq!(p.name, "scott");
    }

    #[test]
    fn errors_have_lines() {
        let e = parse(
            "[board]\nrect = [3, 3]\n[[piece]]\nname = \"Q7\"\n",
            "f.toml",
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "f.toml:3:1: unknown piece \"Q7\"");
        let e = parse("[board]\nrect = [3, 3\n", "f.toml").unwrap_err();
        assert!(e.to_string().starts_with("f.toml:2:"), "{e}");
        let e = parse(
            "[board]\nrect = [5, 3]\n[[piece]]\nset = \"pentominoes\"\n",
            "f.toml",
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("cannot cover the board's 15 cells"),
            "{e}"
        );
        let e = parse(
            "[board]\nrect = [5, 1]\nbox = [1,1,1]\n[[piece]]\nname=\"I\"\n",
            "f.toml",
        )
        .unwrap_err();
        assert!(e.to_string().contains("exactly one of"), "{e}");
        let e = parse(
            "[board]\nrect = [5, 1]\n[[piece]]\nname=\"I\"\ncount=\"lots\"\n",
            "f.toml",
        )
        .unwrap_err();
        assert!(e.to_string().contains("expected a number"), "{e}");
        let e = parse(
            "[board]\nrect = [4, 4]\n[[piece]]\nset=\"soma\"\n",
            "f.toml",
        )
        .unwrap_err();
        assert!(e.to_string().contains("not flat"), "{e}");
    }

    /// The location an error gives, as `LINE:COL`.
    fn place(e: &PolyError) -> String {
        let at = e.location().unwrap_or_else(|| panic!("no location: {e}"));
        assert_eq!(at.file, "f.toml");
        assert!(e.to_string().starts_with(&format!("{at}: ")), "{e}");
        format!("{}:{}", at.line, at.col)
    }

    /// A file's puzzle through the model: parse errors and model errors.
    fn load(text: &str) -> Result<crate::Model, PolyError> {
        crate::Model::new(parse(text, "f.toml")?)
    }

    /// Errors found after reading (pieces that fit nowhere, areas, pieces
    /// listed twice, solids on flat boards, empty boards) say which
    /// declaration is at fault.
    #[test]
    fn checks_say_which_declaration() {
        let e = load("[board]\nrect = [3, 3]\n\n[[piece]]\nset = \"monominoes\"\ncount = \"any\"\n[[piece]]\nname = \"I\"\n").err().unwrap();
        assert!(
            matches!(&e, PolyError::FitsNowhere { piece, .. } if piece == "I"),
            "{e}"
        );
        assert_eq!(place(&e), "7:1");
        assert_eq!(
            e.to_string(),
            "f.toml:7:1: piece I fits nowhere on the board"
        );

        let e = load("name = \"n\"\n\n[board]\nrect = [5, 3]\n[[piece]]\nset = \"pentominoes\"\n")
            .err()
            .unwrap();
        assert!(matches!(e, PolyError::Area { area: 15, .. }), "{e}");
        assert_eq!(place(&e), "3:1");

        let e = load("[board]\nrect = [1, 1]\n[[piece]]\nname = \"D\"\ncells = [[0, 0], [1, 0]]\ncount = [0, 1]\n").err().unwrap();
        assert_eq!(
            e.to_string(),
            "f.toml:1:1: the pieces cannot cover the board's 1 cell exactly: no choice of counts of D x0 to 1 (2 cells) adds up to it"
        );

        let e = load("[board]\nrect = [5, 4]\n[[piece]]\nset = \"pentominoes\"\ncount = [0, 1]\n[[piece]]\nname = \"X\"\n").err().unwrap();
        assert!(
            matches!(&e, PolyError::Duplicate { piece, .. } if piece == "X"),
            "{e}"
        );
        assert_eq!(place(&e), "6:1");
        assert!(e.to_string().contains("(first at f.toml:3:1)"), "{e}");

        let e = load("[board]\nrect = [4, 4]\n[[piece]]\nname = \"O\"\ncount = 3\n[[piece]]\nname = \"V\"\nset = \"soma\"\n").err().unwrap();
        assert_eq!(place(&e), "6:1", "{e}");
        let e = load("[board]\nrect = [4, 4]\n\n[[piece]]\nset = \"soma\"\n")
            .err()
            .unwrap();
        assert!(matches!(e, PolyError::NotFlat { .. }), "{e}");
        assert_eq!(place(&e), "4:1");

        let e = load("[[piece]]\nname = \"O\"\n[board]\nshape = \"..\\n..\"\n")
            .err()
            .unwrap();
        assert!(matches!(e, PolyError::EmptyBoard { .. }), "{e}");
        assert_eq!(place(&e), "3:1");

        // an inline board table: its place is the table
        let e = load("board = { rect = [5, 3] }\n[[piece]]\nset = \"pentominoes\"\n")
            .err()
            .unwrap();
        assert_eq!(place(&e), "1:9", "{e}");
    }

    /// Hostile files: every one is an error that says where, never a panic
    /// (nor a huge allocation).
    #[test]
    fn hostile_files_are_errors_with_places() {
        let piece = "[[piece]]\nname = \"O\"\n";
        let cases: Vec<(String, &str)> = vec![
            (format!("[board]\nrect = [65536, 65537]\n{piece}"), "at most 100000 cells"),
            (format!("[board]\nrect = [9223372036854775807, 2]\n{piece}"), "at most 100000 cells"),
            (format!("[board]\nrect = [-3, -4]\n{piece}"), "at least 1"),
            (format!("[board]\nrect = [0, 4]\n{piece}"), "at least 1"),
            (format!("[board]\nbox = [100, 100, 100]\n{piece}"), "at most 100000 cells"),
            (format!("[board]\nbox = [4611686018427387904, 4, 4]\n{piece}"), "at most 100000 cells"),
            (format!("[board]\nrect = [2, 2]\nholes = [[99999999999, 0]]\n{piece}"), "out of range"),
            (format!("[board]\nrect = [2, 2]\nholes = [[5, 5]]\n{piece}"), "not a cell of the board"),
            (format!("[board]\nrect = [2, 2]\nholes = [[1]]\n{piece}"), "2 or 3 coordinates"),
            (format!("[board]\nshape = \"\"\n{piece}"), "no cells"),
            (format!("[board]\nlayers = []\n{piece}"), "no cells"),
            (format!("[board]\nshape = \"{}#\"\n{piece}", ".".repeat(2_000_000)), "too large"),
            (
                format!("[board]\nshape = \"#{}{}#\"\n{piece}", r"\n".repeat(999), ".".repeat(1999)),
                "bounding box is 2000x1000x1",
            ),
            ("[board]\nrect = [2, 1]\n[[piece]]\nname = \"Q\"\ncells = [[-2147483648, 0], [2147483647, 0]]\n".into(), "out of range"),
            ("[board]\nrect = [2, 1]\n[[piece]]\nname = \"Q\"\ncells = []\n".into(), "empty or not connected"),
            ("[board]\nrect = [2, 1]\n[[piece]]\nname = \"Q\"\ncells = [[0, 0], [5, 0]]\n".into(), "not connected"),
            ("[board]\nrect = [2, 1]\n[[piece]]\nname = \"0.1\"\ncells = [[0, 0], [1, 0]]\n".into(), "look like a cell"),
            ("[board]\nrect = [2, 1]\n[[piece]]\nname = \"a b\"\ncells = [[0, 0], [1, 0]]\n".into(), "blanks"),
            ("[board]\nrect = [2, 1]\n[[piece]]\nname = \"\"\ncells = [[0, 0], [1, 0]]\n".into(), "empty"),
            ("[board]\nrect = [4, 1]\n[[piece]]\nname = \"A|B\"\ncells = [[0, 0], [1, 0]]\ncount = 2\n".into(), "':' or '|'"),
            ("[board]\nrect = [4, 1]\n[[piece]]\nname = \"Q\"\ncells = [[0, 0], [1, 0]]\ncount = 4294967295\n".into(), "cannot cover"),
            ("[board]\nrect = [4, 1]\n[[piece]]\nname = \"Q\"\ncells = [[0, 0], [1, 0]]\ncount = [3, 1]\n".into(), "first bound is larger"),
            ("[board]\nrect = [4, 1]\n[[piece]]\nname = \"Q\"\ncells = [[0, 0], [1, 0]]\ncount = -1\n".into(), "count"),
            ("[board]\nrect = [4, 1]\n[[piece]]\nset = \"nope\"\n".into(), "unknown piece set"),
            ("[board]\nrect = [4, 1]\n[[piece]]\nset = \"dominoes\"\nname = \"D\"\n".into(), "needs either"),
            ("[board]\nrect = [4, 1]\n".into(), "no pieces"),
            ("".into(), "board"),
            ("\u{feff}[board]\n\u{e9}\u{e9} = 1\n".into(), ""),
            ("[board]\nrect = [2, 1]\nrect = [2, 1]\n".into(), ""),
            ("[board]\nrect = [2.5, 1]\n".into(), ""),
            ("[board]\nrect = [2, 1]\nwhat = 1\n".into(), "what"),
        ];
        for (text, says) in cases {
            let e = match load(&text) {
                Ok(_) => panic!("accepted: {text:.200}"),
                Err(e) => e,
            };
            let shown = e.to_string();
            assert!(shown.contains(says), "{shown} (for {text:.200})");
            assert!(e.location().is_some(), "no place: {shown}");
            assert!(shown.starts_with("f.toml:"), "{shown}");
        }
    }

    proptest! {
        /// Random boards, pieces, counts and coordinates: parsing and
        /// building the model never panic; what is accepted has a board
        /// within the limits.
        #[test]
        fn random_files_never_panic(
            rect in prop::array::uniform2(prop_oneof![-3i64..12, any::<i64>()]),
            cells in prop::collection::vec(prop::array::uniform2(prop_oneof![-2i64..4, any::<i64>()]), 0..5),
            count in prop_oneof![
                (0u32..4).prop_map(|k| k.to_string()),
                (0u32..4, 0u32..6).prop_map(|(a, b)| format!("[{a}, {b}]")),
                Just("\"any\"".to_string()),
                any::<u32>().prop_map(|k| k.to_string()),
            ],
            name in prop_oneof![Just("Q"), Just("O"), Just("1.2"), Just(""), Just("x y"), Just(".")],
            set in prop_oneof![Just("monominoes"), Just("dominoes"), Just("soma"), Just("pentacubes")],
        ) {
            let cells: Vec<String> = cells.iter().map(|c| format!("[{}, {}]", c[0], c[1])).collect();
            let text = format!(
                "[board]\nrect = [{}, {}]\n[[piece]]\nname = \"{name}\"\ncells = [{}]\ncount = {count}\n[[piece]]\nset = \"{set}\"\ncount = \"any\"\n",
                rect[0], rect[1], cells.join(", ")
            );
            match load(&text) {
                Ok(m) => prop_assert!(m.puzzle.board.len() <= MAX_BOARD_CELLS),
                Err(e) => prop_assert!(e.location().is_some(), "{}", e),
            }
        }

        /// The fast bounded knapsack against the plain one.
        #[test]
        fn knapsack_step_is_right(
            can in prop::collection::vec(any::<bool>(), 1..40),
            size in 1usize..6,
            lo in 0usize..5,
            extra in 0usize..5,
        ) {
            let hi = lo + extra;
            let fast = knapsack_step(&can, size, lo, hi);
            let mut plain = vec![false; can.len()];
            for (t, _) in can.iter().enumerate().filter(|(_, &c)| c) {
                for k in lo..=hi {
                    if t + k * size < can.len() {
                        plain[t + k * size] = true;
                    }
                }
            }
            prop_assert_eq!(fast, plain);
        }
    }

    /// A large board with pieces in any number is checked at once (the
    /// area check is linear in the area).
    #[test]
    fn large_boards_check_quickly() {
        let p = PolyPuzzle::new(
            "big",
            Board::rect(300, 300),
            vec![
                Piece::new("O", &[[0, 0, 0]], Copies::Any),
                Piece::new(
                    "I",
                    &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0], [4, 0, 0]],
                    Copies::Any,
                ),
            ],
        );
        let t = std::time::Instant::now();
        p.check().unwrap();
        assert!(t.elapsed().as_secs() < 5);
        // and pieces made in code are checked as those of files
        let mut q = p.clone();
        q.pieces[1].name = "O".into();
        assert!(matches!(
            q.check(),
            Err(PolyError::Duplicate { first: None, .. })
        ));
        q.pieces[1].name = "3.4".into();
        assert!(matches!(q.check(), Err(PolyError::BadPiece { .. })));
        q.pieces[1].name = "I".into();
        q.pieces[1].cells.clear();
        assert!(matches!(q.check(), Err(PolyError::BadPiece { .. })));
        let r = PolyPuzzle::new("neg", Board::new(2, vec![[-1, 0, 0]]), vec![]);
        assert!(matches!(r.check(), Err(PolyError::BoardTooLarge { .. })));
    }

    #[test]
    fn board_symmetries() {
        assert_eq!(Board::rect(10, 6).symmetries().len(), 4);
        assert_eq!(Board::rect(8, 8).symmetries().len(), 8);
        assert_eq!(Board::cuboid(3, 3, 3).symmetries().len(), 48);
        assert_eq!(Board::cuboid(2, 3, 4).symmetries().len(), 8);
        assert_eq!(Board::picture("#.\n##").symmetries().len(), 2);
    }
}
