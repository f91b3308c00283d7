//! Named pieces and piece sets on every grid, and every piece of a size.
//!
//! A *set* is a list of named pieces on one grid ([`grid_of`]), its cells in
//! that grid's coordinates ([`crate::grid`]). The names are the ones
//! puzzlers use (those of Polyform Puzzler, David Goodger's collection, for
//! the grids past squares and cubes):
//!
//! | grid | sets |
//! |---|---|
//! | square | `monominoes`, `dominoes`, `trominoes`, `tetrominoes`, `pentominoes`, `hexominoes` |
//! | cube | `soma`, `pentacubes`, `tetracubes`, `solid-pentominoes` |
//! | triangle | `moniamonds`, `diamonds`, `triamonds`, `tetriamonds`, `pentiamonds`, `hexiamonds`, `heptiamonds` |
//! | hexagon | `monohexes`, `dihexes`, `trihexes`, `tetrahexes`, `pentahexes` |
//! | stick | `monosticks`, `disticks`, `tristicks`, `tetrasticks` |
//! | twig | `monotwigs`, `ditwigs`, `tritwigs`, `tetratwigs`, `pentatwigs` |
//! | trig | `monotrigs`, `ditrigs`, `tritrigs` |
//!
//! Each module lists its sets' pieces: `square.rs` the polyominoes and
//! polycubes, `tri.rs` the polyiamonds and polyhexes, `edges.rs` the
//! polysticks, polytwigs and polytrigs (with the conversion from Polyform
//! Puzzler's coordinates, [`from_puzzler`]).
//!
//! ## Free, one-sided, and solids
//!
//! A set in the plane holds *free* pieces: no two equal under a rotation or
//! a reflection. [`one_sided`] adds the mirror twin of each chiral piece,
//! named as the piece with its first letter lower-cased (`P6` -> `p6`, `F`
//! -> `f`), for puzzles whose pieces may not be turned over. A solid cannot
//! be reflected by moving it, so a set of solids holds pieces distinct
//! under rotations, mirror pairs both in it (the tetracubes `A4` and `B4`,
//! Soma's `A` and `B`): [`one_sided`] adds to them only a twin that is
//! missing.
//!
//! The sets named for a size (`pentominoes`, `hexiamonds`, `tetrasticks`,
//! `pentacubes`, ...) hold every piece of that size: the tests check each
//! against [`crate::grid::enumerate`]. [`name_of`] finds a shape's name,
//! and [`list`] lists every piece of a size on a grid, named where a set
//! names it (`dancer poly pieces omino-8`).
//!
//! A single piece is found by `set/NAME` ([`piece`]): `hexiamonds/P6`,
//! `pentacubes/N`; a bare name is looked up in the square and cubic sets,
//! as before the other grids came.

mod edges;
mod list;
mod square;
mod tri;

#[cfg(test)]
mod tests;

pub use edges::from_puzzler;
pub use list::{family_name, list, parse_family, records, size_limit, PiecesError, FAMILIES};
pub use square::{
    dominoes, hexominoes, monominoes, pentacubes, pentominoes, soma, tetrominoes, trominoes,
};

use crate::geometry::Cell;
use crate::grid::{GridSymmetry, PolyGrid};

/// A piece: its name and cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub name: String,
    pub cells: Vec<Cell>,
    /// 2 for pieces in the plane (polyominoes, polyiamonds, ...), 3 for
    /// solids (polycubes): the grid's [`PolyGrid::lattice_dim`].
    pub dim: u8,
}

impl Shape {
    /// A piece of `grid` named `name`, its cells as given.
    pub fn on(grid: PolyGrid, name: &str, cells: &[Cell]) -> Shape {
        Shape {
            name: name.to_string(),
            cells: cells.to_vec(),
            dim: grid.lattice_dim() as u8,
        }
    }

    /// The piece drawn in text, one line per row (y), `#` for a cell and
    /// `.` for none; the layers of a solid (z) side by side, three spaces
    /// apart. Each line starts with `indent` and ends with a newline. For
    /// polyominoes and polycubes only: a cell's third coordinate is read as
    /// its layer.
    pub fn drawing(&self, indent: &str) -> String {
        let cells = crate::geometry::normalize(&self.cells);
        let ext = cells.iter().fold([0; 3], |m, c| {
            [m[0].max(c[0] + 1), m[1].max(c[1] + 1), m[2].max(c[2] + 1)]
        });
        let mut out = String::new();
        for y in 0..ext[1] {
            out.push_str(indent);
            for z in 0..ext[2] {
                if z > 0 {
                    out.push_str("   ");
                }
                for x in 0..ext[0] {
                    out.push(if cells.contains(&[x, y, z]) { '#' } else { '.' });
                }
            }
            out.push('\n');
        }
        out
    }
}

/// Parses a small picture of squares: `#` (or any letter) is a cell, `.`
/// or space is not; rows top to bottom are y = 0, 1, ...
pub fn picture(rows: &[&str]) -> Vec<Cell> {
    let mut v = Vec::new();
    for (y, r) in rows.iter().enumerate() {
        for (x, c) in r.chars().enumerate() {
            if c != '.' && c != ' ' {
                v.push([x as i32, y as i32, 0]);
            }
        }
    }
    v
}

/// A named set: its name, its grid, the size of all its pieces when it
/// holds every piece of that size, and its pieces.
struct Named {
    name: &'static str,
    grid: PolyGrid,
    all_of: Option<usize>,
    make: fn() -> Vec<Shape>,
}

const fn named(
    name: &'static str,
    grid: PolyGrid,
    all_of: Option<usize>,
    make: fn() -> Vec<Shape>,
) -> Named {
    Named {
        name,
        grid,
        all_of,
        make,
    }
}

use PolyGrid::{Cube, Hexagon, Square, Stick, Triangle, Trig, Twig};

/// Every named set, in the order of [`SETS`].
const NAMED: [Named; 34] = [
    named("monominoes", Square, Some(1), monominoes),
    named("dominoes", Square, Some(2), dominoes),
    named("trominoes", Square, Some(3), trominoes),
    named("tetrominoes", Square, Some(4), tetrominoes),
    named("pentominoes", Square, Some(5), pentominoes),
    named("hexominoes", Square, Some(6), hexominoes),
    named("soma", Cube, None, soma),
    named("pentacubes", Cube, Some(5), pentacubes),
    named("tetracubes", Cube, Some(4), square::tetracubes),
    named("solid-pentominoes", Cube, None, square::solid_pentominoes),
    named("moniamonds", Triangle, Some(1), tri::moniamonds),
    named("diamonds", Triangle, Some(2), tri::diamonds),
    named("triamonds", Triangle, Some(3), tri::triamonds),
    named("tetriamonds", Triangle, Some(4), tri::tetriamonds),
    named("pentiamonds", Triangle, Some(5), tri::pentiamonds),
    named("hexiamonds", Triangle, Some(6), tri::hexiamonds),
    named("heptiamonds", Triangle, Some(7), tri::heptiamonds),
    named("monohexes", Hexagon, Some(1), tri::monohexes),
    named("dihexes", Hexagon, Some(2), tri::dihexes),
    named("trihexes", Hexagon, Some(3), tri::trihexes),
    named("tetrahexes", Hexagon, Some(4), tri::tetrahexes),
    named("pentahexes", Hexagon, Some(5), tri::pentahexes),
    named("monosticks", Stick, Some(1), edges::monosticks),
    named("disticks", Stick, Some(2), edges::disticks),
    named("tristicks", Stick, Some(3), edges::tristicks),
    named("tetrasticks", Stick, Some(4), edges::tetrasticks),
    named("monotwigs", Twig, Some(1), edges::monotwigs),
    named("ditwigs", Twig, Some(2), edges::ditwigs),
    named("tritwigs", Twig, Some(3), edges::tritwigs),
    named("tetratwigs", Twig, Some(4), edges::tetratwigs),
    named("pentatwigs", Twig, Some(5), edges::pentatwigs),
    named("monotrigs", Trig, Some(1), edges::monotrigs),
    named("ditrigs", Trig, Some(2), edges::ditrigs),
    named("tritrigs", Trig, Some(3), edges::tritrigs),
];

/// Names of the sets: the square and cubic ones first (as before the other
/// grids came), then by grid as in the table of the module documentation.
pub const SETS: &[&str] = &{
    let mut names = [""; NAMED.len()];
    let mut i = 0;
    while i < NAMED.len() {
        names[i] = NAMED[i].name;
        i += 1;
    }
    names
};

/// The singular a set also answers to: `pentomino`, `pentahex`,
/// `hexiamond`, `solid-pentomino`.
fn singular(name: &str) -> Option<&str> {
    let stem = name.strip_suffix("es");
    match stem {
        Some(s) if s.ends_with('o') || s.ends_with('x') => stem,
        _ => name.strip_suffix('s'),
    }
}

/// The set `name` names: its name, its singular, or `triominoes`.
fn lookup(name: &str) -> Option<&'static Named> {
    let name = if name == "triominoes" {
        "trominoes"
    } else {
        name
    };
    NAMED
        .iter()
        .find(|s| s.name == name || singular(s.name) == Some(name))
}

/// The pieces of a named set (see the module documentation), by its name or
/// singular (`pentomino`, `hexiamond`).
pub fn set(name: &str) -> Option<Vec<Shape>> {
    lookup(name).map(|s| (s.make)())
}

/// The sets a bare piece name is looked up in, in this order.
const BARE: [&str; 6] = [
    "pentominoes",
    "tetrominoes",
    "trominoes",
    "soma",
    "pentacubes",
    "hexominoes",
];

/// A piece and the set it was found in: `set/NAME` (`NAME` may be a
/// one-sided twin, `pentominoes/f`), or a bare name in the sets of
/// [`BARE`].
fn find(name: &str) -> Option<(&'static Named, Shape)> {
    if let Some((s, n)) = name.split_once('/') {
        let set = lookup(s)?;
        let shapes = one_sided(set.grid, &(set.make)());
        return Some((set, shapes.into_iter().find(|p| p.name == n)?));
    }
    BARE.iter().find_map(|s| {
        let set = lookup(s)?;
        let shape = (set.make)().into_iter().find(|p| p.name == name)?;
        Some((set, shape))
    })
}

/// Finds one piece: `set/NAME` (`hexiamonds/P6`, or a one-sided twin as
/// [`one_sided`] names it, `pentominoes/f`), or a bare name looked up in
/// the pentominoes, then tetrominoes, trominoes, soma, pentacubes,
/// hexominoes.
pub fn piece(name: &str) -> Option<Shape> {
    find(name).map(|(_, shape)| shape)
}

/// The grid a named set, or a piece named as [`piece`] finds it, lives on.
pub fn grid_of(name: &str) -> Option<PolyGrid> {
    match lookup(name) {
        Some(set) => Some(set.grid),
        None => find(name).map(|(set, _)| set.grid),
    }
}

/// The pieces of a set as [`Shape`]s of `grid`.
fn shapes(grid: PolyGrid, table: &[(&str, &[Cell])]) -> Vec<Shape> {
    let shape = |&(name, cells): &(&str, &[Cell])| Shape::on(grid, name, cells);
    table.iter().map(shape).collect()
}

/// The reflection that makes a piece's mirror image: left to right, where
/// the grid has that symmetry.
fn mirror(grid: PolyGrid) -> GridSymmetry {
    let all = grid.symmetries();
    let left_right = [
        GridSymmetry::plane(-1, 0, 0, 1),
        GridSymmetry::plane(-1, 1, 0, 1),
    ];
    let found = left_right.into_iter().find(|t| all.contains(t));
    found
        .or_else(|| all.iter().copied().find(|t| !t.is_rotation()))
        .expect("every grid has reflections")
}

/// The mirror image of a shape, normalised.
pub fn mirror_image(grid: PolyGrid, cells: &[Cell]) -> Vec<Cell> {
    grid.image(&mirror(grid), cells)
}

/// Whether a piece differs from its mirror image (no rotation maps one
/// onto the other).
pub fn is_chiral(grid: PolyGrid, cells: &[Cell]) -> bool {
    grid.canonical(cells, true) != grid.canonical(&mirror_image(grid, cells), true)
}

/// The name of a piece's mirror twin: its first letter lower-cased.
fn twin_name(name: &str) -> String {
    let mut chars = name.chars();
    let first = chars.next().map(|c| c.to_lowercase().to_string());
    first.unwrap_or_default() + chars.as_str()
}

/// Each shape, then its mirror twin when it is chiral and the set does not
/// hold the twin already (up to rotations); a twin is flagged `true`.
fn with_twins(grid: PolyGrid, shapes: &[Shape]) -> Vec<(Shape, bool)> {
    let form = |cells: &[Cell]| grid.canonical(cells, true);
    let forms: Vec<Vec<Cell>> = shapes.iter().map(|s| form(&s.cells)).collect();
    let mut out = Vec::new();
    for (s, own) in shapes.iter().zip(&forms) {
        out.push((s.clone(), false));
        let cells = mirror_image(grid, &s.cells);
        let twin = form(&cells);
        if twin != *own && !forms.contains(&twin) {
            let name = twin_name(&s.name);
            out.push((
                Shape {
                    name,
                    cells,
                    dim: s.dim,
                },
                true,
            ));
        }
    }
    out
}

/// The one-sided set of `shapes`: each piece, then the mirror twin of each
/// chiral one (named with its first letter lower-cased: `P6` -> `p6`),
/// unless the set holds that twin already, as sets of solids do.
pub fn one_sided(grid: PolyGrid, shapes: &[Shape]) -> Vec<Shape> {
    with_twins(grid, shapes)
        .into_iter()
        .map(|(s, _)| s)
        .collect()
}

/// The names of the pieces of one size on one grid, to look shapes up.
struct Names {
    grid: PolyGrid,
    /// Canonical form under rotations, name (`set/NAME`), and the name of
    /// the piece it is the twin of, for a twin.
    known: Vec<(Vec<Cell>, String, Option<String>)>,
}

impl Names {
    /// The pieces of `size` cells of the sets on `grid`: the set of all of
    /// them first, then the others in the order of [`SETS`].
    fn new(grid: PolyGrid, size: usize) -> Names {
        let mut sets: Vec<&Named> = NAMED.iter().filter(|s| s.grid == grid).collect();
        sets.sort_by_key(|s| s.all_of != Some(size));
        let mut known = Vec::new();
        for set in sets {
            let mut base = String::new();
            for (shape, twin) in with_twins(grid, &(set.make)()) {
                let name = format!("{}/{}", set.name, shape.name);
                if !twin {
                    base.clone_from(&name);
                }
                if shape.cells.len() == size {
                    let form = grid.canonical(&shape.cells, true);
                    known.push((form, name, twin.then(|| base.clone())));
                }
            }
        }
        Names { grid, known }
    }

    /// The name of a shape of this size (see [`name_of`]).
    fn of(&self, cells: &[Cell], one_sided: bool) -> Option<String> {
        let form = self.grid.canonical(cells, true);
        let (_, name, twin_of) = self.known.iter().find(|k| k.0 == form)?;
        match twin_of {
            Some(base) if !one_sided => Some(base.clone()),
            _ => Some(name.clone()),
        }
    }
}

/// The name of a shape on `grid` (`set/NAME`, as [`piece`] finds it), if a
/// set names it, looked up in the set of all pieces of its size first:
/// `pentominoes/F`. A mirror image is named as its twin when `one_sided`
/// (`pentominoes/f`), as the piece otherwise (`pentominoes/F`).
pub fn name_of(grid: PolyGrid, cells: &[Cell], one_sided: bool) -> Option<String> {
    Names::new(grid, cells.len()).of(cells, one_sided)
}
