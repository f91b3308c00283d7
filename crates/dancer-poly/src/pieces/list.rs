//! Lists of pieces as records: a named set, or every piece of a size on a
//! grid (`dancer poly pieces hexiamonds`, `dancer poly pieces iamond-7`).
//!
//! A size is written `GRID-N`, `GRID` the ending of the pieces' name
//! ([`FAMILIES`]: `omino`, `iamond`, `hex`, `stick`, `twig`, `trig`, `cube`,
//! `sphere`, `prism`)
//! and `N` the cells. The pieces come from [`crate::grid::enumerate`], each
//! in canonical form, named where a set names it ([`super::name_of`]). The
//! work grows about fourfold with each cell, so each grid has a largest
//! size ([`size_limit`]), about the most listed in a second:
//!
//! | grid | at most | free pieces of that size | one-sided |
//! |---|---|---|---|
//! | `omino` (square) | 10 | 4,655 | 9,189 |
//! | `iamond` (triangle) | 12 | 3,334 | 6,588 |
//! | `hex` (hexagon) | 10 | 30,490 | 60,639 |
//! | `stick` (square edges) | 9 | 19,591 | 38,980 |
//! | `twig` (hexagon edges) | 10 | 1,859 | 3,681 |
//! | `trig` (triangle edges) | 7 | 19,074 | 37,936 |
//! | `cube` | 8 | 3,811 | 6,922 |
//! | `sphere` (packed spheres) | 6 | 1,211 | 2,209 |
//! | `prism` (triangular prisms) | 7 | 606 | 1,095 |
//!
//! Free pieces are distinct up to rotations and reflections; one-sided ones
//! up to rotations only (mirror images told apart). For solids that is the
//! same as for the plane: free polycubes count a piece and its mirror image
//! once, one-sided ones twice.

use super::{is_chiral, lookup, one_sided, Names, Shape};
use crate::geometry::Cell;
use crate::grid::{enumerate, PolyGrid};
use dancer_formats::ndjson::PieceRecord;

/// The grids of `GRID-N`, by the ending of their pieces' name.
pub const FAMILIES: &[(&str, PolyGrid)] = &[
    ("omino", PolyGrid::Square),
    ("iamond", PolyGrid::Triangle),
    ("hex", PolyGrid::Hexagon),
    ("stick", PolyGrid::Stick),
    ("twig", PolyGrid::Twig),
    ("trig", PolyGrid::Trig),
    ("cube", PolyGrid::Cube),
    ("sphere", PolyGrid::Sphere),
    ("prism", PolyGrid::Prism),
];

/// What a list of pieces could not be made of.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PiecesError {
    /// Neither a named set nor `GRID-N`.
    #[error("unknown piece set {name:?} ({})", known())]
    Unknown { name: String },
    /// `GRID-N` with `N` 0 or past the grid's [`size_limit`] (`size` is
    /// `usize::MAX` for an `N` too large to read).
    #[error("{spec}: pieces of {} cells are not listed: from 1 to {limit} on the {grid} grid", spec.rsplit('-').next().unwrap_or_default())]
    Size {
        spec: String,
        grid: &'static str,
        size: usize,
        limit: usize,
    },
}

/// What [`PiecesError::Unknown`] says is known.
fn known() -> String {
    let grids: Vec<&str> = FAMILIES.iter().map(|f| f.0).collect();
    let (sets, grids) = (super::SETS.join(", "), grids.join(", "));
    format!("known: {sets}; or GRID-N for every piece of N cells, GRID one of {grids}")
}

/// The largest size listed on `grid` (see the module documentation).
pub fn size_limit(grid: PolyGrid) -> usize {
    match grid {
        PolyGrid::Square | PolyGrid::Hexagon | PolyGrid::Twig => 10,
        PolyGrid::Triangle => 12,
        PolyGrid::Stick => 9,
        PolyGrid::Trig => 7,
        PolyGrid::Cube => 8,
        PolyGrid::Prism => 7,
        PolyGrid::Sphere => 6,
        // not listed: BurrTools' files only
        PolyGrid::Rhombic | PolyGrid::TetraOcta => 0,
    }
}

/// The plural name of the pieces of a grid, `polyominoes`; the singular
/// for one (`polyomino`).
pub fn family_name(grid: PolyGrid, count: usize) -> String {
    let word = family_word(grid);
    match (count, word.ends_with('o') || word.ends_with('x')) {
        (1, _) => format!("poly{word}"),
        (_, true) => format!("poly{word}es"),
        (_, false) => format!("poly{word}s"),
    }
}

/// `GRID-N` read: the grid and `N`, when `spec` is of that form; `N`
/// checked against [`size_limit`].
pub fn parse_family(spec: &str) -> Option<Result<(PolyGrid, usize), PiecesError>> {
    let (word, n) = spec.rsplit_once('-')?;
    let &(_, grid) = FAMILIES.iter().find(|f| f.0 == word)?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let size: usize = n.parse().unwrap_or(usize::MAX);
    let limit = size_limit(grid);
    Some(if (1..=limit).contains(&size) {
        Ok((grid, size))
    } else {
        Err(too_large(spec, grid, size))
    })
}

/// The error for `spec`, `size` cells on `grid`, past its limit.
fn too_large(spec: &str, grid: PolyGrid, size: usize) -> PiecesError {
    PiecesError::Size {
        spec: spec.to_string(),
        grid: grid.name(),
        size,
        limit: size_limit(grid),
    }
}

/// A piece's record, numbered from 1.
fn record(grid: PolyGrid, index: usize, cells: &[Cell], name: Option<String>) -> PieceRecord {
    let all = grid.symmetries();
    let orientations = grid.orientations(cells, &all).len();
    PieceRecord {
        number: index + 1,
        grid: grid.name().to_string(),
        size: cells.len(),
        name,
        cells: cells.iter().map(|&c| grid.record_cell(c)).collect(),
        symmetries: all.len() / orientations,
        chiral: is_chiral(grid, cells),
    }
}

/// Every piece of `size` cells on `grid` (free, or one-sided), in
/// canonical form, sorted, named where a set names it (the one-sided name
/// of a mirror twin when `one_sided`). `size` from 1 to [`size_limit`]:
/// larger is refused, as the work would be.
pub fn list(grid: PolyGrid, size: usize, one_sided: bool) -> Result<Vec<PieceRecord>, PiecesError> {
    if !(1..=size_limit(grid)).contains(&size) {
        let spec = format!("{}-{size}", family_word(grid));
        return Err(too_large(&spec, grid, size));
    }
    let names = Names::new(grid, size);
    let pieces = enumerate(grid, size, one_sided);
    let named =
        |(i, cells): (usize, &Vec<Cell>)| record(grid, i, cells, names.of(cells, one_sided));
    Ok(pieces.iter().enumerate().map(named).collect())
}

/// The `GRID` word of a grid.
fn family_word(grid: PolyGrid) -> &'static str {
    let found = FAMILIES.iter().find(|f| f.1 == grid);
    found.map_or(grid.name(), |f| f.0)
}

/// The pieces of a named set, with their mirror twins when `one_sided`
/// ([`one_sided`]), as the set draws them.
fn set_list(name: &str, one_sided_too: bool) -> Option<Vec<PieceRecord>> {
    let set = lookup(name)?;
    let mut shapes: Vec<Shape> = (set.make)();
    if one_sided_too {
        shapes = one_sided(set.grid, &shapes);
    }
    let record = |(i, s): (usize, &Shape)| {
        let name = format!("{}/{}", set.name, s.name);
        record(set.grid, i, &s.cells, Some(name))
    };
    Some(shapes.iter().enumerate().map(record).collect())
}

/// `dancer poly pieces SPEC`: the pieces of a named set (`pentominoes`,
/// `hexiamonds`), or every piece of a size (`omino-8`: see the module
/// documentation), one-sided or not.
pub fn records(spec: &str, one_sided: bool) -> Result<Vec<PieceRecord>, PiecesError> {
    if let Some(list) = set_list(spec, one_sided) {
        return Ok(list);
    }
    match parse_family(spec) {
        Some(parsed) => {
            let (grid, size) = parsed?;
            list(grid, size, one_sided)
        }
        None => Err(PiecesError::Unknown {
            name: spec.to_string(),
        }),
    }
}
