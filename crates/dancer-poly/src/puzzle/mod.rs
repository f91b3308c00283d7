//! Boards, pieces and puzzles: what a puzzle is, and the checks that need
//! no search.
//!
//! A [`PolyPuzzle`] is a [`Board`] (cells of one [`PolyGrid`]) and the
//! [`Piece`]s to fill it with, each used a number of times ([`Copies`]).
//! Cells, pieces and boards are in the grid's coordinates
//! ([`crate::grid`]; on squares `[x, y]` from the top left, y downwards).
//! Puzzles are made in code or read from the puzzle file format
//! ([`file`]). Every error says where, when the puzzle came from a file
//! ([`PolyError::location`]).

mod file;
mod shapes;

pub use file::parse;

use crate::grid::{Cell, GridSymmetry, PolyGrid};
pub use dancer_formats::Location;
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
            cells: crate::geometry::normalize(cells),
            count,
            one_sided: false,
            at: None,
        }
    }

    /// A piece of `grid` made in code, as [`Piece::new`] makes one of
    /// squares or cubes.
    pub fn on(grid: PolyGrid, name: impl Into<String>, cells: &[Cell], count: Copies) -> Self {
        Piece {
            cells: grid.normalize(cells),
            ..Piece::new(name, &[], count)
        }
    }
}

/// The region to fill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The grid its cells are cells of.
    pub grid: PolyGrid,
    /// 2 on the grids of the plane, 3 in space (the grid's
    /// [`PolyGrid::dim`]).
    pub dim: u8,
    /// The cells, sorted by (z, y, x).
    pub cells: Vec<Cell>,
    index: CellIndex,
}

/// A board's cell numbers by cell: a table over the cells' bounding box
/// when it is not much larger than the board (a lookup is then an index,
/// which finding placements does millions of times), else a hash map.
#[derive(Clone, Debug, PartialEq, Eq)]
enum CellIndex {
    Table {
        lo: [i32; 3],
        size: [usize; 3],
        slots: Vec<u32>,
    },
    Map(HashMap<Cell, usize>),
}

impl CellIndex {
    fn new(cells: &[Cell]) -> CellIndex {
        let lo = cells
            .iter()
            .fold([i32::MAX; 3], |lo, c| [0, 1, 2].map(|k| lo[k].min(c[k])));
        let hi = cells
            .iter()
            .fold([i32::MIN; 3], |hi, c| [0, 1, 2].map(|k| hi[k].max(c[k])));
        let size = [0, 1, 2].map(|k| (i64::from(hi[k]) - i64::from(lo[k]) + 1).max(0) as u64);
        let volume = size.iter().try_fold(1u64, |v, &s| v.checked_mul(s));
        match volume {
            Some(v)
                if !cells.is_empty()
                    && v <= (16 * cells.len() as u64).max(4096)
                    && v < u64::from(u32::MAX) =>
            {
                let size = size.map(|s| s as usize);
                let mut slots = vec![u32::MAX; v as usize];
                let mut t = CellIndex::Table {
                    lo,
                    size,
                    slots: Vec::new(),
                };
                for (i, c) in cells.iter().enumerate() {
                    let at = t.slot(c).expect("inside the box");
                    slots[at] = i as u32;
                }
                if let CellIndex::Table { slots: s, .. } = &mut t {
                    *s = slots;
                }
                t
            }
            _ => CellIndex::Map(cells.iter().enumerate().map(|(i, &c)| (c, i)).collect()),
        }
    }

    fn slot(&self, c: &Cell) -> Option<usize> {
        let CellIndex::Table { lo, size, .. } = self else {
            return None;
        };
        let mut at = 0usize;
        for k in (0..3).rev() {
            let d = i64::from(c[k]) - i64::from(lo[k]);
            if d < 0 || d as usize >= size[k] {
                return None;
            }
            at = at * size[k] + d as usize;
        }
        Some(at)
    }

    fn get(&self, c: &Cell) -> Option<usize> {
        match self {
            CellIndex::Table { slots, .. } => {
                let i = slots[self.slot(c)?];
                (i != u32::MAX).then_some(i as usize)
            }
            CellIndex::Map(m) => m.get(c).copied(),
        }
    }
}

impl Board {
    /// A board of squares (`dim` 2) or cubes (`dim` 3).
    pub fn new(dim: u8, cells: Vec<Cell>) -> Self {
        let grid = if dim == 2 {
            PolyGrid::Square
        } else {
            PolyGrid::Cube
        };
        Self::on(grid, cells)
    }

    /// A board of these cells of `grid`.
    pub fn on(grid: PolyGrid, cells: Vec<Cell>) -> Self {
        let mut cells = cells;
        cells.sort_by_key(|c| (c[2], c[1], c[0]));
        cells.dedup();
        let index = CellIndex::new(&cells);
        Board {
            grid,
            dim: grid.dim(),
            cells,
            index,
        }
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
        Self::new(2, crate::pieces::picture(&text.lines().collect::<Vec<_>>()))
    }
    /// A 3D board from pictures of its layers, z = 0 first.
    pub fn layers(layers: &[String]) -> Self {
        let mut cells = Vec::new();
        for (z, l) in layers.iter().enumerate() {
            for c in crate::pieces::picture(&l.lines().collect::<Vec<_>>()) {
                cells.push([c[0], c[1], z as i32]);
            }
        }
        Self::new(3, cells)
    }
    pub fn without(&self, holes: &[Cell]) -> Self {
        let holes: std::collections::HashSet<&Cell> = holes.iter().collect();
        Self::on(
            self.grid,
            self.cells
                .iter()
                .copied()
                .filter(|c| !holes.contains(c))
                .collect(),
        )
    }
    /// The board's cell table, when it has one (see `CellIndex`): the
    /// smallest coordinates, the box's size on each axis, and each slot's
    /// cell number (`u32::MAX`: no cell), slot `x + w (y + h z)` counted
    /// from the smallest corner. Slots rise with the cells' order, so cells
    /// read in slot order come out sorted.
    pub fn table(&self) -> Option<([i32; 3], [usize; 3], &[u32])> {
        match &self.index {
            CellIndex::Table { lo, size, slots } => Some((*lo, *size, slots)),
            CellIndex::Map(_) => None,
        }
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
    pub fn index(&self, c: &Cell) -> Option<usize> {
        self.index.get(c)
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
    /// board onto itself (after a translation), the permutation of its
    /// cells, in the order of [`PolyGrid::symmetries`].
    pub fn symmetries(&self) -> Vec<(GridSymmetry, Vec<usize>)> {
        (self.symmetries_with(|_| Some(()), |_, _| true).into_iter())
            .map(|(t, perm, ())| (t, perm))
            .collect()
    }

    /// [`Board::symmetries`], only those for which `what` says something,
    /// with what it says, and that map each cell `i` to a cell `j` with
    /// `alike(i, j)`; `what` is asked first, so that a symmetry it turns
    /// down costs no moving of cells, and the moving stops at the first
    /// cell that is not `alike` its image.
    pub fn symmetries_with<T>(
        &self,
        mut what: impl FnMut(&GridSymmetry) -> Option<T>,
        alike: impl Fn(usize, usize) -> bool,
    ) -> Vec<(GridSymmetry, Vec<usize>, T)> {
        let grid = self.grid;
        let Some(&anchor) = self.cells.iter().min() else {
            return Vec::new();
        };
        // the extent of the board's points on each axis, which a symmetry
        // mapping the board onto itself keeps (most symmetries of a board
        // that is no cube fail here, before its cells are moved)
        fn extent(points: impl Iterator<Item = [i32; 3]>) -> [i64; 3] {
            let (lo, hi) = points.fold(([i32::MAX; 3], [i32::MIN; 3]), |(lo, hi), p| {
                (
                    [0, 1, 2].map(|k| lo[k].min(p[k])),
                    [0, 1, 2].map(|k| hi[k].max(p[k])),
                )
            });
            [0, 1, 2].map(|k| i64::from(hi[k]) - i64::from(lo[k]))
        }
        let points: Vec<[i32; 3]> = self.cells.iter().map(|&c| grid.embed(c)).collect();
        let size = extent(points.iter().copied());
        let mut out = Vec::new();
        for t in grid.symmetries() {
            let Some(said) = what(&t) else {
                continue;
            };
            if extent(points.iter().map(|&p| t.apply(p))) != size {
                continue;
            }
            let moved: Vec<Cell> = self.cells.iter().map(|&c| grid.apply(&t, c)).collect();
            // the smallest cell of the image must go to the smallest cell
            let Some(by) = grid.shift_between(*moved.iter().min().unwrap(), anchor) else {
                continue;
            };
            let perm: Option<Vec<usize>> = (moved.iter().enumerate())
                .map(|(i, &c)| self.index(&grid.translate(c, by)).filter(|&j| alike(i, j)))
                .collect();
            if let Some(p) = perm {
                out.push((t, p, said));
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
    /// The symmetries that `--unique` counts up to.
    pub unique_under: UniqueUnder,
    /// On an edge grid, whether two pieces may cross at a point (see
    /// [`crate::grid::edges`]); no crossing by default.
    pub crossings: bool,
    /// A line about the puzzle, if its file gives one.
    pub about: Option<String>,
    /// The count published for the puzzle (catalogue files).
    pub known: Option<Known>,
    /// Where the board is declared (its `[board]` table) in a puzzle file;
    /// None for puzzles made in code.
    pub board_at: Option<Location>,
    /// Board cells that may stay empty (BurrTools' variable cells): the
    /// pieces cover every other cell exactly once, these at most once.
    pub optional: Vec<Cell>,
    /// At most this many optional cells may stay empty (none: any number).
    pub max_holes: Option<u32>,
    /// Colours on cells, and which may meet ([`Colouring`]).
    pub colouring: Option<Colouring>,
    /// Whether the board's cells and each piece's must be connected
    /// (BurrTools' shapes need not be).
    pub connected: bool,
    /// Whether placements that can be in no solution are removed before
    /// the search (BurrTools' "reduce placements"; on for its files).
    pub reduce: bool,
}

/// Colours on the board's cells and on the pieces' cells, and which may
/// meet (BurrTools' colour constraints): a piece's cell of colour `p` may
/// cover a board cell of colour `b` when either has no colour (0) or `(p,
/// b)` is one of the [`Colouring::fits`]. Colours take part in the
/// symmetries too: a symmetry of the board keeps every cell's colour, and
/// two pieces are the same piece only with the same colours.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Colouring {
    /// The board's coloured cells.
    pub board: Vec<(Cell, u8)>,
    /// Per piece (in the puzzle's order), its coloured cells, in the
    /// piece's coordinates ([`Piece::cells`]).
    pub pieces: Vec<Vec<(Cell, u8)>>,
    /// The pairs (piece colour, board colour), colours from 1, that may meet.
    pub fits: Vec<(u8, u8)>,
}

impl Colouring {
    /// Whether a piece cell of colour `piece` may cover a board cell of
    /// colour `board`.
    pub fn fits(&self, piece: u8, board: u8) -> bool {
        piece == 0 || board == 0 || self.fits.contains(&(piece, board))
    }
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
    /// The board is not a board of its grid: cells that are not cells of
    /// it, or not connected (`at`: the board).
    BadBoard { why: String, at: Option<Location> },
    /// A solid piece for a flat board.
    NotFlat { piece: String, at: Option<Location> },
    /// No pieces at all (`at`: the board).
    NoPieces { at: Option<Location> },
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
            | PolyError::BadBoard { at, .. }
            | PolyError::NotFlat { at, .. }
            | PolyError::NoPieces { at }
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
            PolyError::BadBoard { why, .. } => format!("bad board: {why}"),
            PolyError::NotFlat { piece, .. } => {
                format!("piece {piece} is not flat and cannot go on a flat board")
            }
            PolyError::NoPieces { .. } => "no pieces given: a puzzle needs at least one".into(),
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

/// A name from a file as a line of text shows it: control characters (a
/// newline that would start a line of its own, an escape sequence) and
/// the characters that break or turn lines (U+2028, U+2029, the
/// bidirectional overrides) written as escapes (`\n`, `\u{1b}`), the rest
/// as it is. Records need none of this: JSON escapes them.
pub fn printable(name: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| {
        c.is_control()
            || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !name.chars().any(bad) {
        return std::borrow::Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(name.len() + 8);
    for c in name.chars() {
        if bad(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

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
    if parts.len() >= 3
        && parts[0] == "p"
        && parts[1..]
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    {
        return Some("a piece name cannot look like a crossing point (p.x.y)");
    }
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
            unique_under: UniqueUnder::All,
            crossings: false,
            about: None,
            known: None,
            board_at: None,
            optional: Vec::new(),
            max_holes: None,
            colouring: None,
            connected: true,
            reduce: false,
        }
    }

    /// The grid of the puzzle (its board's).
    pub fn grid(&self) -> PolyGrid {
        self.board.grid
    }

    /// A piece's cells, each with its colour (0: none).
    pub fn coloured_cells(&self, piece: usize) -> Vec<(Cell, u8)> {
        let p = &self.pieces[piece];
        let col = self.colouring.as_ref().and_then(|c| c.pieces.get(piece));
        let mut out: Vec<(Cell, u8)> = p.cells.iter().map(|&c| (c, 0)).collect();
        if let Some(cs) = col.filter(|cs| !cs.is_empty()) {
            // each cell's colour: the first given for it
            let mut sorted: Vec<(Cell, u8)> = cs.clone();
            sorted.sort_by_key(|m| m.0);
            sorted.dedup_by_key(|m| m.0);
            for m in &mut out {
                if let Ok(i) = sorted.binary_search_by_key(&m.0, |s| s.0) {
                    m.1 = sorted[i].1;
                }
            }
        }
        out
    }

    /// Each board cell's colour (0: none) and whether it is optional, by
    /// the board's cell index.
    pub fn cell_marks(&self) -> Vec<(u8, bool)> {
        let mut out = vec![(0u8, false); self.board.len()];
        for c in &self.optional {
            if let Some(i) = self.board.index(c) {
                out[i].1 = true;
            }
        }
        for &(c, k) in self.colouring.iter().flat_map(|c| &c.board) {
            if let Some(i) = self.board.index(&c) {
                out[i].0 = k;
            }
        }
        out
    }

    /// The symmetry group used for a piece's orientations
    /// ([`PolyGrid::group_of`]: a flat piece of spheres turns over in space
    /// even when one-sided).
    pub fn piece_group(&self, p: &Piece) -> Vec<GridSymmetry> {
        self.board.grid.group_of(&p.cells, p.one_sided)
    }

    /// Checks what can be checked before searching: the board's size, the
    /// pieces' names and cells, pieces listed twice, solid pieces on a flat
    /// board, and areas that cannot add up. (Pieces that fit nowhere are
    /// found by [`crate::Model::new`].)
    pub fn check(&self) -> Result<(), PolyError> {
        self.check_board()?;
        let board_at = || self.board_at.clone();
        if self.pieces.is_empty() {
            return Err(PolyError::NoPieces { at: board_at() });
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
            if self.board.grid == PolyGrid::Square && p.cells.iter().any(|c| c[2] != p.cells[0][2])
            {
                return Err(PolyError::NotFlat {
                    piece: p.name.clone(),
                    at: p.at.clone(),
                });
            }
            let grid = self.board.grid;
            if let Some(c) = p.cells.iter().find(|&&c| !grid.is_cell(c)) {
                return Err(bad(format!(
                    "{c:?} is not a cell of the {} grid",
                    grid.name()
                )));
            }
            if self.connected && !grid.is_connected(&p.cells) {
                return Err(bad(format!(
                    "its cells are not connected on the {} grid",
                    grid.name()
                )));
            }
        }
        self.check_extras()?;
        let area = self.board.len();
        // the pieces cover every cell but the optional ones, and all
        // optional ones but at most max_holes
        let optional = self.optional.len();
        let holes = self
            .max_holes
            .map_or(optional, |h| optional.min(h as usize));
        let least = area - holes;
        // which totals can the pieces make? (bounded knapsack over areas,
        // a step per size of piece: the copies of the pieces of one size
        // add up to any number from the sum of the least to the sum of
        // the most, so that thousands of pieces of a few sizes cost a
        // few steps)
        let mut by_size: std::collections::BTreeMap<usize, (usize, usize)> = Default::default();
        for p in &self.pieces {
            let s = p.cells.len();
            let (lo, hi) = match p.count {
                Copies::Exactly(k) => (k as usize, k as usize),
                Copies::Between(a, b) => (a as usize, b as usize),
                Copies::Any => (0, area / s),
            };
            let sum = by_size.entry(s).or_default();
            // more copies than the board holds all cover too much alike
            let most = area / s + 1;
            *sum = (
                sum.0.saturating_add(lo).min(most),
                sum.1.saturating_add(hi).min(most),
            );
        }
        let mut can = vec![false; area + 1];
        can[0] = true;
        for (&s, &(lo, hi)) in &by_size {
            can = knapsack_step(&can, s, lo, hi);
        }
        if !can[least..].iter().any(|&c| c) {
            const SHOWN: usize = 12;
            let mut desc: Vec<String> = (self.pieces.iter().take(SHOWN))
                .map(|p| format!("{} x{} ({})", p.name, p.count, cells(&p.cells.len())))
                .collect();
            if self.pieces.len() > SHOWN {
                desc.push(format!("and {} more", self.pieces.len() - SHOWN));
            }
            return Err(PolyError::Area {
                area,
                why: format!("no choice of counts of {} adds up to it", desc.join(", ")),
                at: board_at(),
            });
        }
        Ok(())
    }

    /// The optional cells and colours' part of [`PolyPuzzle::check`]:
    /// cells of the board and of the pieces they are given for.
    fn check_extras(&self) -> Result<(), PolyError> {
        let board_at = || self.board_at.clone();
        let bad_board = |why: String| PolyError::BadBoard {
            why,
            at: board_at(),
        };
        if let Some(c) = self.optional.iter().find(|c| self.board.index(c).is_none()) {
            return Err(bad_board(format!(
                "optional cell {c:?} is not a cell of the board"
            )));
        }
        let must =
            |p: &Piece| matches!(p.count, Copies::Exactly(k) | Copies::Between(k, _) if k > 0);
        if self.optional.len() == self.board.len() && !self.pieces.iter().any(must) {
            return Err(bad_board(
                "every cell may stay empty and no piece must be used: nothing to solve".into(),
            ));
        }
        if let Some(h) = self.max_holes {
            if h as usize > self.board.len() {
                return Err(bad_board(format!(
                    "at most {h} holes, but the board has only {}",
                    cells(&self.board.len())
                )));
            }
        }
        let Some(col) = &self.colouring else {
            return Ok(());
        };
        if let Some((c, _)) = col
            .board
            .iter()
            .find(|(c, k)| *k == 0 || self.board.index(c).is_none())
        {
            return Err(bad_board(format!(
                "coloured cell {c:?} is not a cell of the board, or has colour 0"
            )));
        }
        if col.pieces.len() != self.pieces.len() {
            return Err(bad_board(format!(
                "colours are given for {} pieces, the puzzle has {}",
                col.pieces.len(),
                self.pieces.len()
            )));
        }
        for (p, cs) in self.pieces.iter().zip(&col.pieces) {
            let mut cells = p.cells.clone();
            cells.sort_unstable();
            let outside = |c: &Cell| cells.binary_search(c).is_err();
            if let Some((c, _)) = cs.iter().find(|(c, k)| *k == 0 || outside(c)) {
                return Err(PolyError::BadPiece {
                    piece: p.name.clone(),
                    why: format!("coloured cell {c:?} is not a cell of the piece, or has colour 0"),
                    at: p.at.clone(),
                });
            }
        }
        Ok(())
    }

    /// The board's part of [`PolyPuzzle::check`]: not empty, not too
    /// large, in range, cells of its grid, connected.
    fn check_board(&self) -> Result<(), PolyError> {
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
            .find(|c| c.iter().any(|&v| !(0..=MAX_COORD).contains(&v)))
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
        let grid = self.board.grid;
        if let Some(c) = self.board.cells.iter().find(|&&c| !grid.is_cell(c)) {
            return Err(PolyError::BadBoard {
                why: format!("{c:?} is not a cell of the {} grid", grid.name()),
                at: board_at(),
            });
        }
        if self.connected && !grid.is_connected(&self.board.cells) {
            return Err(PolyError::BadBoard {
                why: format!("its cells are not connected on the {} grid", grid.name()),
                at: board_at(),
            });
        }
        if self.crossings && !grid.is_edge_grid() {
            return Err(PolyError::BadBoard {
                why: format!(
                    "crossings are for the edge grids, not the {} grid",
                    grid.name()
                ),
                at: board_at(),
            });
        }
        Ok(())
    }
}

/// Which of a puzzle's symmetries `--unique` counts up to: those that map
/// the board and the set of pieces onto themselves, all of them or the
/// rotations among them. Authors differ: a set whose mirror images are
/// pieces of it too (Soma, the tetracubes, one-sided sets) is counted up to
/// rotations and reflections by some (Soma's 240) and up to rotations only
/// by others (Polyform Puzzler's 1,390 for the tetracubes in a 2x4x4 box,
/// twice the 695 up to both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum UniqueUnder {
    /// Rotations and reflections (the default).
    #[default]
    All,
    /// Rotations only.
    Rotations,
}

impl UniqueUnder {
    /// The word a puzzle file uses: `all`, `rotations`.
    pub fn name(self) -> &'static str {
        match self {
            UniqueUnder::All => "all",
            UniqueUnder::Rotations => "rotations",
        }
    }
}

/// A published count of a puzzle, from its catalogue file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    /// Solutions up to the puzzle's symmetries ([`UniqueUnder`]).
    pub unique: u64,
    /// All solutions, if published.
    pub total: Option<u64>,
    /// Where the count was published.
    pub source: String,
    /// Too slow to reproduce in every test run.
    pub slow: bool,
    /// The total is the memoized counter's to reproduce (`dancer poly solve
    /// --count --memo`: seconds where the search takes minutes).
    pub memo: bool,
}

/// Canonical form of a piece under `group` (for matching pieces).
pub fn piece_key(grid: PolyGrid, p: &Piece, group: &[GridSymmetry]) -> Vec<Cell> {
    grid.canonical_under(&p.cells, group)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
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

    /// A name with a newline, a carriage return, an escape or a
    /// right-to-left override prints on one line, those written as
    /// escapes; any other name as it is.
    #[test]
    fn names_print_on_one_line() {
        assert_eq!(printable("Pelikan burr #2"), "Pelikan burr #2");
        assert!(matches!(printable("Größe"), std::borrow::Cow::Borrowed(_)));
        assert_eq!(
            printable("A\n2  Forged\r\u{1b}[2J\u{202e}x\u{2028}"),
            "A\\n2  Forged\\r\\u{1b}[2J\\u{202e}x\\u{2028}"
        );
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
