//! Boards, piece lists and the puzzle file format.
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
//! holes = [[3, 3], [4, 3], [3, 4], [4, 4]]   # cells to leave out
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

use crate::geometry::{canonical, normalize, symmetries, Cell, Transform};
use crate::pieces;
use serde::Deserialize;
use std::collections::HashMap;
use std::fmt;

/// How many copies of a piece a solution uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Count {
    Exactly(u32),
    Between(u32, u32),
    /// Any number, including none.
    Any,
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Count::Exactly(k) => write!(f, "{k}"),
            Count::Between(a, b) => write!(f, "{a} to {b}"),
            Count::Any => write!(f, "any number"),
        }
    }
}

/// A piece type of a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub name: String,
    /// Normalised cells.
    pub cells: Vec<Cell>,
    pub count: Count,
    /// Rotations only (no turning over).
    pub one_sided: bool,
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
    pub fn rect(w: i32, h: i32) -> Self {
        Self::new(
            2,
            (0..h)
                .flat_map(|y| (0..w).map(move |x| [x, y, 0]))
                .collect(),
        )
    }
    pub fn cuboid(w: i32, h: i32, d: i32) -> Self {
        Self::new(
            3,
            (0..d)
                .flat_map(|z| (0..h).flat_map(move |y| (0..w).map(move |x| [x, y, z])))
                .collect(),
        )
    }
    /// A 2D board from a picture (`.` or space: no cell).
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
pub struct Puzzle {
    pub name: String,
    pub board: Board,
    pub pieces: Vec<Piece>,
}

/// What is wrong with a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    #[error("{at}: {message}")]
    File { at: String, message: String },
    #[error("piece {0} fits nowhere on the board")]
    FitsNowhere(String),
    #[error("the pieces cannot cover the board's {area} cells exactly: {why}")]
    Area { area: usize, why: String },
    #[error("the board has no cells")]
    EmptyBoard,
    #[error("piece {0} is not flat and cannot go on a flat board")]
    NotFlat(String),
    #[error("{0}")]
    Other(String),
}

impl Puzzle {
    /// The symmetry group used for a piece's orientations.
    pub fn piece_group(&self, p: &Piece) -> Vec<Transform> {
        let g = symmetries(self.board.dim);
        if p.one_sided {
            g.into_iter().filter(Transform::is_rotation).collect()
        } else {
            g
        }
    }

    /// Checks what can be checked before searching: pieces that fit
    /// nowhere, and areas that cannot add up.
    pub fn check(&self) -> Result<(), PuzzleError> {
        if self.board.is_empty() {
            return Err(PuzzleError::EmptyBoard);
        }
        for p in &self.pieces {
            if self.board.dim == 2 && p.cells.iter().any(|c| c[2] != 0) {
                return Err(PuzzleError::NotFlat(p.name.clone()));
            }
        }
        let area = self.board.len();
        // which totals can the pieces make? (bounded knapsack over areas)
        let mut can = vec![false; area + 1];
        can[0] = true;
        for p in &self.pieces {
            let s = p.cells.len();
            let (lo, hi) = match p.count {
                Count::Exactly(k) => (k as usize, k as usize),
                Count::Between(a, b) => (a as usize, b as usize),
                Count::Any => (0, area / s.max(1)),
            };
            let mut next = vec![false; area + 1];
            for (t, _) in can.iter().enumerate().filter(|(_, &c)| c) {
                for k in lo..=hi {
                    let u = t + k * s;
                    if u > area {
                        break;
                    }
                    next[u] = true;
                }
            }
            can = next;
        }
        if !can[area] {
            let desc: Vec<String> = self
                .pieces
                .iter()
                .map(|p| format!("{} x{} ({} cells)", p.name, p.count, p.cells.len()))
                .collect();
            return Err(PuzzleError::Area {
                area,
                why: format!("no choice of counts of {} adds up to it", desc.join(", ")),
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
    rect: Option<[i32; 2]>,
    #[serde(rename = "box")]
    cuboid: Option<[i32; 3]>,
    shape: Option<String>,
    layers: Option<Vec<String>>,
    #[serde(default)]
    holes: Vec<Vec<i32>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum CountDoc {
    Exactly(u32),
    Between([u32; 2]),
    Word(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceDoc {
    set: Option<String>,
    name: Option<String>,
    cells: Option<Vec<Vec<i32>>>,
    shape: Option<String>,
    count: Option<CountDoc>,
    one_sided: Option<bool>,
}

/// 1-based line and column of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

fn cell_of(v: &[i32], what: &str) -> Result<Cell, String> {
    match v.len() {
        2 => Ok([v[0], v[1], 0]),
        3 => Ok([v[0], v[1], v[2]]),
        n => Err(format!("{what}: a cell has 2 or 3 coordinates, not {n}")),
    }
}

/// Reads a puzzle file. `file` names it in messages.
pub fn parse(text: &str, file: &str) -> Result<Puzzle, PuzzleError> {
    let err = |offset: usize, message: String| {
        let (l, c) = line_col(text, offset);
        PuzzleError::File {
            at: format!("{file}:{l}:{c}"),
            message,
        }
    };
    let doc: FileDoc = toml::from_str(text).map_err(|e| {
        let off = e.span().map_or(0, |s| s.start);
        err(off, e.message().to_string())
    })?;
    let reflections = doc.reflections.unwrap_or(true);
    let bspan = doc.board.span().start;
    let b = doc.board.into_inner();
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
        return Err(err(
            bspan,
            "the board needs exactly one of rect, box, shape, layers".into(),
        ));
    }
    let mut board = if let Some([w, h]) = b.rect {
        if w <= 0 || h <= 0 || w * h > 100_000 {
            return Err(err(bspan, format!("bad rectangle {w}x{h}")));
        }
        Board::rect(w, h)
    } else if let Some([w, h, d]) = b.cuboid {
        if w <= 0 || h <= 0 || d <= 0 || w * h * d > 100_000 {
            return Err(err(bspan, format!("bad box {w}x{h}x{d}")));
        }
        Board::cuboid(w, h, d)
    } else if let Some(s) = &b.shape {
        Board::picture(s.trim_matches('\n'))
    } else {
        let l: Vec<String> = b
            .layers
            .unwrap()
            .iter()
            .map(|s| s.trim_matches('\n').to_string())
            .collect();
        Board::layers(&l)
    };
    if !b.holes.is_empty() {
        let mut holes = Vec::new();
        for h in &b.holes {
            let c = cell_of(h, "holes").map_err(|m| err(bspan, m))?;
            if board.index(&c).is_none() {
                return Err(err(bspan, format!("hole {h:?} is not a cell of the board")));
            }
            holes.push(c);
        }
        board = board.without(&holes);
    }
    let mut pieces = Vec::new();
    for sp in doc.pieces {
        let off = sp.span().start;
        let p = sp.into_inner();
        let count = match &p.count {
            None => Count::Exactly(1),
            Some(CountDoc::Exactly(k)) => Count::Exactly(*k),
            Some(CountDoc::Between([a, b])) if a <= b => {
                if a == b {
                    Count::Exactly(*a)
                } else {
                    Count::Between(*a, *b)
                }
            }
            Some(CountDoc::Between([a, b])) => {
                return Err(err(
                    off,
                    format!("count [{a}, {b}]: the first bound is larger"),
                ))
            }
            Some(CountDoc::Word(w)) if w == "any" => Count::Any,
            Some(CountDoc::Word(w)) => {
                return Err(err(
                    off,
                    format!("count {w:?}: expected a number, [min, max] or \"any\""),
                ))
            }
        };
        let one_sided = p.one_sided.unwrap_or(!reflections);
        let mut add = |name: String, cells: Vec<Cell>, dim3: bool| {
            let cells = normalize(&cells);
            let _ = dim3;
            pieces.push(Piece {
                name,
                cells,
                count,
                one_sided,
            });
        };
        match (&p.set, &p.name, &p.cells, &p.shape) {
            (Some(set), None, None, None) => {
                let shapes = pieces::set(set).ok_or_else(|| {
                    err(off, format!("unknown piece set {set:?} (known: {})", pieces::SETS.join(", ")))
                })?;
                for s in shapes {
                    add(s.name, s.cells, s.dim == 3);
                }
            }
            (None, Some(name), None, None) => {
                let s = pieces::piece(name).ok_or_else(|| err(off, format!("unknown piece {name:?}")))?;
                add(s.name, s.cells, s.dim == 3);
            }
            (None, Some(name), Some(cells), None) => {
                let mut v = Vec::new();
                for c in cells {
                    v.push(cell_of(c, name).map_err(|m| err(off, m))?);
                }
                if v.is_empty() || !crate::geometry::is_connected(&v) {
                    return Err(err(off, format!("piece {name:?}: cells empty or not connected")));
                }
                add(name.clone(), v, true);
            }
            (None, Some(name), None, Some(shape)) => {
                let v = pieces::picture(&shape.trim_matches('\n').lines().collect::<Vec<_>>());
                if v.is_empty() || !crate::geometry::is_connected(&v) {
                    return Err(err(off, format!("piece {name:?}: shape empty or not connected")));
                }
                add(name.clone(), v, false);
            }
            _ => {
                return Err(err(
                    off,
                    "a [[piece]] needs either set = \"...\", or name = \"...\" (with cells or shape for your own)"
                        .into(),
                ))
            }
        }
        if let Some(last) = pieces.last() {
            if board.dim == 2 && last.cells.iter().any(|c| c[2] != 0) {
                return Err(err(
                    off,
                    format!(
                        "piece {} is not flat and cannot go on a flat board",
                        last.name
                    ),
                ));
            }
        }
    }
    if pieces.is_empty() {
        return Err(err(0, "no pieces: add [[piece]] tables".into()));
    }
    let mut names: Vec<&str> = pieces.iter().map(|p| p.name.as_str()).collect();
    names.sort_unstable();
    for w in names.windows(2) {
        if w[0] == w[1] {
            return Err(err(
                0,
                format!("piece {:?} is listed twice; give a count instead", w[0]),
            ));
        }
    }
    let puzzle = Puzzle {
        name: doc.name.unwrap_or_else(|| file.to_string()),
        board,
        pieces,
    };
    puzzle.check()?;
    Ok(puzzle)
}

/// Canonical form of a piece under its own group (for matching pieces).
pub fn piece_key(p: &Piece, group: &[Transform]) -> Vec<Cell> {
    canonical(&p.cells, group)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn board_symmetries() {
        assert_eq!(Board::rect(10, 6).symmetries().len(), 4);
        assert_eq!(Board::rect(8, 8).symmetries().len(), 8);
        assert_eq!(Board::cuboid(3, 3, 3).symmetries().len(), 48);
        assert_eq!(Board::cuboid(2, 3, 4).symmetries().len(), 8);
        assert_eq!(Board::picture("#.\n##").symmetries().len(), 2);
    }
}
