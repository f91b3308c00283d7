//! The puzzle file format.
//!
//! # Coordinates
//!
//! A cell is `[x, y]` on a flat board, `[x, y, z]` in a box: on every
//! grid, exactly the coordinates of its cells ([`PolyGrid::arity`], at the
//! cell's line and column when not). The origin
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
//! about = "Dana Scott's 1958 problem"   # a line about it (optional)
//! grid = "square"               # the grid (default square): see below
//! reflections = true            # may pieces be turned over? (default true)
//! unique = "all"                # which symmetries --unique counts up to:
//!                               # "all" (default) or "rotations"
//! crossings = false             # edge grids: may pieces cross? (default false)
//!
//! [board]
//! rect = [8, 8]                 # width, height; or
//! # box = [3, 3, 3]             # width, height, depth; or
//! # shape = """                 # a picture: '.' or ' ' is no cell
//! # ########
//! # ###..###
//! # """
//! # layers = ["###\n###", "###\n###"]   # a 3D picture, z = 0 first
//! # parallelogram = [6, 6]      # triangles, hexagons (and their edges)
//! # hexagon = 4                 # side 4: triangles, hexagons (and edges)
//! # triangle = 5                # side 5: triangles, hexagons (and edges)
//! # cells = [[0, 0, 1], ...]    # a list of the grid's cells
//! # faces = [[0, 0], ...]       # edge grids: the edges of these faces
//! # border = false              # edge grids: leave out the outline
//! holes = [[3, 3], [4, 3], [3, 4], [4, 4]]   # cells [x, y] to leave out
//!
//! [[piece]]
//! set = "pentominoes"           # every piece of a named set
//! count = 1                     # each (default 1)
//!
//! [[piece]]
//! name = "O"                    # a piece by name, or your own:
//! cells = [[0, 0], [1, 0], [0, 1], [1, 1]]   # or shape = "##\n##"
//!                               # (in space: layers = ["##", "#."])
//! count = 2                     # or [0, 2] (between), or "any"
//! one_sided = false             # rotations only for this piece
//!
//! [known]                       # a published count (catalogue files)
//! unique = 65                   # up to the symmetries `unique` says
//! total = 520                   # optional
//! source = "Dana Scott, 1958"
//! slow = false                  # too slow for every test run
//! memo = false                  # the total is for the memoized counter
//! ```
//!
//! # Grids
//!
//! `grid` is one of `square` (the default, or `cube` when the board is a
//! `box` or `layers`), `cube`, `triangle` (polyiamonds), `hexagon`
//! (polyhexes), `stick` (polysticks: the edges of squares), `twig`
//! (polytwigs: the edges of hexagons), `trig` (polytrigs: the edges of
//! triangles), `sphere` (polyspheres) and `prism` (polyprisms), and the
//! coordinates of each are drawn in [`crate::grid`]'s modules. On squares,
//! cubes, triangles and hexagons a board is a picture, a list of cells or a
//! shape: `rect` (squares), `box` (cubes), `parallelogram`, `hexagon` and
//! `triangle` (triangles and hexagons). In space (cubes, spheres, prisms)
//! boards and pieces are drawn as `layers`, one picture a layer, `z = 0`
//! first: squares for cubes, [`crate::grid::sphere`]'s and
//! [`crate::grid::prism`]'s layer pictures for spheres and prisms. On
//! an edge grid a shape is a region of faces (squares for sticks, triangles
//! for trigs, hexagons for twigs; `faces` lists them) and the board is
//! their edges, outline included unless `border = false`; or `cells` lists
//! the edges. A board given as `cells` or `faces`, or of edges, is moved
//! so that its smallest `x`, `y` (and `z`) are 0 (holes are in those
//! coordinates). Named sets live on a grid (`hexiamonds` on
//! triangles, `tetrasticks` on sticks): a set of squares may also be laid
//! as flat solids in a box. `set = "one-sided-hexiamonds"` is the one-sided
//! set: every chiral piece and its mirror image as two pieces, neither
//! turned over.
//!
//! On `stick` and `trig` two pieces may not cross at a point unless
//! `crossings = true` ([`crate::grid::edges`] says how that is an exact
//! cover problem).
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

use super::shapes;
use super::{
    counted, Board, Copies, Known, Location, Piece, PolyError, PolyPuzzle, UniqueUnder,
    MAX_BOARD_CELLS, MAX_COORD,
};
use crate::grid::{edges, Cell, PolyGrid};
use crate::pieces;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDoc {
    name: Option<String>,
    about: Option<String>,
    grid: Option<toml::Spanned<String>>,
    reflections: Option<bool>,
    unique: Option<toml::Spanned<String>>,
    crossings: Option<bool>,
    board: toml::Spanned<BoardDoc>,
    #[serde(default, rename = "piece")]
    pieces: Vec<toml::Spanned<PieceDoc>>,
    known: Option<KnownDoc>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KnownDoc {
    unique: u64,
    total: Option<u64>,
    source: String,
    #[serde(default)]
    slow: bool,
    #[serde(default)]
    memo: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardDoc {
    rect: Option<[i64; 2]>,
    #[serde(rename = "box")]
    cuboid: Option<[i64; 3]>,
    parallelogram: Option<[i64; 2]>,
    hexagon: Option<i64>,
    triangle: Option<i64>,
    cells: Option<Vec<Given>>,
    faces: Option<Vec<Given>>,
    shape: Option<String>,
    layers: Option<Vec<String>>,
    border: Option<bool>,
    #[serde(default)]
    holes: Vec<Given>,
}

/// A cell as a file gives it: its coordinates, and where it is.
type Given = toml::Spanned<Vec<i64>>;

/// What is wrong with a part of a file, and where when it is known better
/// than the table it is in (a cell's own place).
struct Bad {
    at: Option<usize>,
    why: String,
}

impl From<String> for Bad {
    fn from(why: String) -> Bad {
        Bad { at: None, why }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceDoc {
    set: Option<String>,
    name: Option<String>,
    cells: Option<Vec<Given>>,
    shape: Option<String>,
    layers: Option<Vec<String>>,
    count: Option<toml::Spanned<toml::Value>>,
    one_sided: Option<bool>,
}

/// The longest side a shape may have: `6 n^2` triangles in a hexagon of
/// side `n`, with three edges each, stay within [`MAX_BOARD_CELLS`].
const MAX_SIDE: i64 = 120;

/// A side of a shape, checked.
fn side(n: i64, what: &str) -> Result<i32, String> {
    if !(1..=MAX_SIDE).contains(&n) {
        return Err(format!("bad {what} {n}: a side is 1 to {MAX_SIDE}"));
    }
    Ok(n as i32)
}

/// The cells of a picture on `grid`.
fn picture_cells(grid: PolyGrid, text: &str) -> Result<Vec<Cell>, String> {
    picture_fits(text)?;
    let text = text.trim_matches('\n');
    match grid {
        PolyGrid::Square | PolyGrid::Cube => Ok(pieces::picture(&text.lines().collect::<Vec<_>>())),
        PolyGrid::Twig | PolyGrid::Trig => Err(format!(
            "the {} grid has no text pictures: give cells (or faces)",
            grid.name()
        )),
        _ => crate::grid::picture::read(grid, text)
            .map_err(|e| format!("a picture with a fault at {e}")),
    }
}

/// A list of cells of `grid` from a file.
fn cell_list(list: &[Given], what: &str, grid: PolyGrid) -> Result<Vec<Cell>, Bad> {
    if list.len() > MAX_BOARD_CELLS {
        return Err(format!("{what}: more than {MAX_BOARD_CELLS} cells").into());
    }
    list.iter().map(|c| cell_of(c, what, grid)).collect()
}

impl BoardDoc {
    /// How many of the ways to give a board are given.
    fn ways(&self) -> usize {
        [
            self.rect.is_some(),
            self.cuboid.is_some(),
            self.parallelogram.is_some(),
            self.hexagon.is_some(),
            self.triangle.is_some(),
            self.cells.is_some(),
            self.faces.is_some(),
            self.shape.is_some(),
            self.layers.is_some(),
        ]
        .iter()
        .filter(|&&x| x)
        .count()
    }

    /// The board's cells before holes, by a shape's name.
    fn shaped(&self, grid: PolyGrid) -> Option<Result<Vec<Cell>, String>> {
        let border = self.border.unwrap_or(true);
        let two = |s: [i64; 2], what: &str| Ok::<_, String>((side(s[0], what)?, side(s[1], what)?));
        Some(if let Some(r) = self.rect {
            if grid == PolyGrid::Square {
                sized_board(&r).map(|b| b.cells)
            } else {
                two(r, "rect").and_then(|(w, h)| shapes::rect(grid, w, h, border))
            }
        } else if let Some(c) = self.cuboid {
            if grid == PolyGrid::Cube {
                sized_board(&c).map(|b| b.cells)
            } else {
                Err(format!(
                    "box is a board of cubes, not of the {} grid",
                    grid.name()
                ))
            }
        } else if let Some(p) = self.parallelogram {
            two(p, "parallelogram").and_then(|(w, h)| shapes::parallelogram(grid, w, h, border))
        } else if let Some(n) = self.hexagon {
            side(n, "hexagon").and_then(|n| shapes::hexagon(grid, n, border))
        } else if let Some(n) = self.triangle {
            side(n, "triangle").and_then(|n| shapes::triangle(grid, n, border))
        } else {
            return None;
        })
    }

    /// The board's cells before holes, on `grid`.
    fn cells(&self, grid: PolyGrid) -> Result<Vec<Cell>, Bad> {
        if self.border.is_some() && !grid.is_edge_grid() {
            return Err(
                format!("border is for the edge grids, not the {} grid", grid.name()).into(),
            );
        }
        if let Some(cells) = self.shaped(grid) {
            return Ok(cells?);
        }
        if let Some(list) = &self.cells {
            return Ok(grid.normalize(&cell_list(list, "cells", grid)?));
        }
        if let Some(list) = &self.faces {
            let Some(faces_of) = edges::face_grid(grid) else {
                return Err(
                    format!("faces is for the edge grids, not the {} grid", grid.name()).into(),
                );
            };
            let faces = cell_list(list, "faces", faces_of)?;
            if let Some(f) = faces.iter().find(|&&f| !faces_of.is_cell(f)) {
                return Err(
                    format!("face {f:?} is not a cell of the {} grid", faces_of.name()).into(),
                );
            }
            let edges = edges::edges_of(grid, &faces, self.border.unwrap_or(true));
            return Ok(grid.normalize(&edges));
        }
        if let Some(s) = &self.shape {
            if grid.dim() == 3 {
                return Err(String::from("a board in space is given as layers, not shape").into());
            }
            return Ok(picture_cells(grid, s).map_err(|m| format!("the board is {m}"))?);
        }
        let layers = self.layers.as_deref().unwrap_or_default();
        if grid.dim() != 3 {
            return Err(format!(
                "layers are for boards in space, not the {} grid",
                grid.name()
            )
            .into());
        }
        picture_fits(&layers.join("\n")).map_err(|m| format!("the board is {m}"))?;
        Ok(layer_cells(grid, layers)?)
    }

    /// The board it describes, its holes taken out, or what is wrong with
    /// it.
    fn board(self, grid: PolyGrid) -> Result<Board, Bad> {
        if self.ways() != 1 {
            return Err(String::from(
                "the board needs exactly one of rect, box, parallelogram, hexagon, triangle, cells, faces, shape, layers",
            )
            .into());
        }
        let mut board = Board::on(grid, self.cells(grid)?);
        if !self.holes.is_empty() {
            let mut holes = Vec::new();
            for h in &self.holes {
                let c = cell_of(h, "holes", grid)?;
                if board.index(&c).is_none() {
                    return Err(Bad {
                        at: Some(h.span().start),
                        why: format!("hole {:?} is not a cell of the board", h.get_ref()),
                    });
                }
                holes.push(c);
            }
            board = board.without(&holes);
        }
        Ok(board)
    }
}

/// Whether pieces of a named set's grid may go on a board of `grid`: the
/// same grid, or squares as flat solids in a box (and solids on squares,
/// which the check then refuses as not flat, saying so).
fn fits_grid(set: PolyGrid, grid: PolyGrid) -> bool {
    set == grid
        || matches!(
            (set, grid),
            (PolyGrid::Square, PolyGrid::Cube) | (PolyGrid::Cube, PolyGrid::Square)
        )
}

/// A piece as a file gives it: name, cells, and whether it is one-sided
/// whatever the file says (the pieces of a one-sided set).
type GivenPiece = (String, Vec<Cell>, bool);

impl PieceDoc {
    /// The pieces it gives (a set's, a known piece, or one of its own
    /// cells or shape), or what is wrong with it.
    fn shapes(&self, grid: PolyGrid) -> Result<Vec<GivenPiece>, Bad> {
        if let (None, Some(name), Some(cells), None, None) = (
            &self.set,
            &self.name,
            &self.cells,
            &self.shape,
            &self.layers,
        ) {
            let v = cell_list(cells, &format!("piece {name:?}"), grid)?;
            return Ok(own_piece(grid, name, v, "cells")?);
        }
        Ok(self.drawn(grid)?)
    }

    /// [`PieceDoc::shapes`] but a piece of its own cells: a set's, a
    /// known piece, or one of its own shape or layers.
    fn drawn(&self, grid: PolyGrid) -> Result<Vec<GivenPiece>, String> {
        let on_grid = |name: &str| -> Result<(), String> {
            match pieces::grid_of(name) {
                Some(g) if !fits_grid(g, grid) => Err(format!(
                    "{name:?} lives on the {} grid, not on the {} grid",
                    g.name(),
                    grid.name()
                )),
                _ => Ok(()),
            }
        };
        if let (None, Some(name), None, None, Some(layers)) = (
            &self.set,
            &self.name,
            &self.cells,
            &self.shape,
            &self.layers,
        ) {
            if grid.dim() != 3 {
                return Err(format!(
                    "piece {name:?}: layers are for pieces in space, not on the {} grid",
                    grid.name()
                ));
            }
            picture_fits(&layers.join("\n")).map_err(|m| format!("piece {name:?} is {m}"))?;
            let v = layer_cells(grid, layers).map_err(|m| format!("piece {name:?}: {m}"))?;
            return own_piece(grid, name, v, "layers");
        }
        if self.layers.is_some() {
            return Err("a [[piece]] drawn as layers has a name and no set, cells or shape".into());
        }
        match (&self.set, &self.name, &self.cells, &self.shape) {
            (Some(set), None, None, None) => {
                let (plain, twins) = match set.strip_prefix("one-sided-") {
                    Some(s) => (s, true),
                    None => (set.as_str(), false),
                };
                let shapes = pieces::set(plain).ok_or_else(|| {
                    format!("unknown piece set {set:?} (known: {})", pieces::SETS.join(", "))
                })?;
                on_grid(plain)?;
                let shapes = if twins {
                    pieces::one_sided(grid, &shapes)
                } else {
                    shapes
                };
                Ok(shapes.into_iter().map(|s| (s.name, s.cells, twins)).collect())
            }
            (None, Some(name), None, None) => {
                let s = pieces::piece(name).ok_or_else(|| format!("unknown piece {name:?}"))?;
                on_grid(name)?;
                Ok(vec![(s.name, s.cells, false)])
            }
            (None, Some(name), None, Some(shape)) => {
                let drawn_on = match grid {
                    PolyGrid::Cube => PolyGrid::Square,
                    g if g.dim() == 3 => {
                        return Err(format!(
                            "piece {name:?}: a piece in space is drawn as layers, or its cells listed"
                        ))
                    }
                    g => g,
                };
                let v = picture_cells(drawn_on, shape).map_err(|m| format!("piece {name:?}: {m}"))?;
                own_piece(grid, name, v, "shape")
            }
            _ => Err(
                "a [[piece]] needs either set = \"...\", or name = \"...\" (with cells or shape for your own)"
                    .into(),
            ),
        }
    }
}

/// The cells of a solid drawn as layer pictures, `z = 0` first: squares
/// for cubes, [`crate::grid::sphere::read_layer`]'s and
/// [`crate::grid::prism::read_layer`]'s pictures for spheres and prisms.
fn layer_cells(grid: PolyGrid, layers: &[String]) -> Result<Vec<Cell>, String> {
    let mut cells = Vec::new();
    for (z, l) in layers.iter().enumerate() {
        let l = l.trim_matches('\n');
        let fault = |e: crate::grid::picture::PictureError| {
            format!("layer {} is a picture with a fault at {e}", z + 1)
        };
        match grid {
            PolyGrid::Sphere => cells.extend(
                crate::grid::sphere::read_layer(l, z as i32)
                    .map_err(fault)?
                    .into_iter()
                    .map(|(c, _)| c),
            ),
            PolyGrid::Prism => cells.extend(
                crate::grid::prism::read_layer(l, z as i32)
                    .map_err(fault)?
                    .into_iter()
                    .map(|(c, _)| c),
            ),
            _ => cells.extend(
                picture_cells(PolyGrid::Square, l)?
                    .into_iter()
                    .map(|c| [c[0], c[1], z as i32]),
            ),
        }
    }
    Ok(cells)
}

/// A piece of the file's own: its cells must be cells of the grid, and
/// connected.
fn own_piece(
    grid: PolyGrid,
    name: &str,
    cells: Vec<Cell>,
    what: &str,
) -> Result<Vec<GivenPiece>, String> {
    if let Some(c) = cells.iter().find(|&&c| !grid.is_cell(c)) {
        return Err(format!(
            "piece {name:?}: {c:?} is not a cell of the {} grid",
            grid.name()
        ));
    }
    if cells.is_empty() || !grid.is_connected(&cells) {
        return Err(format!("piece {name:?}: {what} empty or not connected"));
    }
    Ok(vec![(name.to_string(), cells, false)])
}

/// The grid a file names; when it names none, cubes for a board in space
/// (`box`, `layers`), else squares.
fn grid_of(doc: &FileDoc) -> Result<PolyGrid, (usize, String)> {
    let Some(g) = &doc.grid else {
        let b = doc.board.get_ref();
        let solid = b.cuboid.is_some() || b.layers.is_some();
        return Ok(if solid {
            PolyGrid::Cube
        } else {
            PolyGrid::Square
        });
    };
    PolyGrid::from_name(g.get_ref()).ok_or_else(|| {
        let known: Vec<&str> = PolyGrid::ALL.iter().map(|g| g.name()).collect();
        (
            g.span().start,
            format!(
                "unknown grid {:?} (known: {})",
                g.get_ref(),
                known.join(", ")
            ),
        )
    })
}

/// The symmetries `--unique` counts up to, as a file says.
fn unique_of(doc: &FileDoc) -> Result<UniqueUnder, (usize, String)> {
    let Some(u) = &doc.unique else {
        return Ok(UniqueUnder::All);
    };
    match u.get_ref().as_str() {
        "all" => Ok(UniqueUnder::All),
        "rotations" => Ok(UniqueUnder::Rotations),
        other => Err((
            u.span().start,
            format!("unique = {other:?}: expected \"all\" or \"rotations\""),
        )),
    }
}

/// Where the lines of a text start, to say the line and column of a byte
/// offset without counting the lines before it each time (a file of
/// thousands of pieces has thousands of places).
struct Lines<'a> {
    text: &'a str,
    /// The byte offset of each line's start.
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        let newlines = text.match_indices('\n').map(|(i, _)| i + 1);
        Lines {
            text,
            starts: std::iter::once(0).chain(newlines).collect(),
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    fn line_col(&self, offset: usize) -> (usize, usize) {
        let text = self.text;
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset);
        let col = text[self.starts[line - 1]..offset].chars().count() + 1;
        (line, col)
    }
}

/// A cell of `grid` in a file: as many coordinates as the grid's cells
/// have ([`PolyGrid::arity`]), each at most [`MAX_COORD`] from 0; an
/// error at the cell's place.
fn cell_of(given: &Given, what: &str, grid: PolyGrid) -> Result<Cell, Bad> {
    let bad = |why: String| Bad {
        at: Some(given.span().start),
        why: format!("{what}: {why}"),
    };
    let v = given.get_ref();
    let range = -i64::from(MAX_COORD)..=i64::from(MAX_COORD);
    // compared as they are: no arithmetic that could wrap
    if let Some(x) = v.iter().find(|x| !range.contains(x)) {
        return Err(bad(format!(
            "coordinate {x} is out of range (-{MAX_COORD} to {MAX_COORD})"
        )));
    }
    if v.len() != grid.arity() {
        return Err(bad(format!(
            "{v:?} has {}; a cell of the {} grid has {} ({})",
            counted(v.len() as u64, "coordinate", "coordinates"),
            grid.name(),
            grid.arity(),
            grid.cell_form()
        )));
    }
    // in range, so the conversions are exact
    let c: Vec<i32> = v.iter().map(|&x| x as i32).collect();
    Ok([c[0], c[1], c.get(2).copied().unwrap_or(0)])
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

/// Names pieces of two sets that share a name by their set too: the I
/// tromino and the I tetromino of `set = "trominoes"` and `set =
/// "tetrominoes"` become `trominoes/I` and `tetrominoes/I` (as `name =
/// "trominoes/I"` finds them). A piece of a set that shares its name with
/// a piece the file names itself keeps it, so that the piece listed twice
/// is still an error.
fn qualify_set_names(pieces: &mut [Piece], from_set: &[Option<String>]) {
    let mut sets: std::collections::HashMap<String, Vec<&str>> = std::collections::HashMap::new();
    for (p, set) in pieces.iter().zip(from_set) {
        if let Some(set) = set {
            let of = sets.entry(p.name.clone()).or_default();
            if !of.contains(&set.as_str()) {
                of.push(set);
            }
        }
    }
    let shared: std::collections::HashSet<String> = sets
        .into_iter()
        .filter(|(_, of)| of.len() > 1)
        .map(|(name, _)| name)
        .collect();
    for (p, set) in pieces.iter_mut().zip(from_set) {
        if let Some(set) = set.as_deref().filter(|_| shared.contains(&p.name)) {
            let set = set.strip_prefix("one-sided-").unwrap_or(set);
            p.name = format!("{set}/{}", p.name);
        }
    }
}

/// Reads a puzzle file. `file` names it in messages (and is the puzzle's
/// name when the file gives none).
pub fn parse(text: &str, file: &str) -> Result<PolyPuzzle, PolyError> {
    let lines = Lines::new(text);
    let loc = |offset: usize| {
        let (line, col) = lines.line_col(offset);
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
    let grid = grid_of(&doc).map_err(|(at, m)| err(at, m))?;
    let unique_under = unique_of(&doc).map_err(|(at, m)| err(at, m))?;
    let reflections = doc.reflections.unwrap_or(true);
    let bspan = doc.board.span().start;
    let board =
        (doc.board.into_inner().board(grid)).map_err(|b| err(b.at.unwrap_or(bspan), b.why))?;
    let mut pieces = Vec::new();
    let mut from_set = Vec::new();
    for sp in doc.pieces {
        let off = sp.span().start;
        let p = sp.into_inner();
        let count = match &p.count {
            None => Copies::Exactly(1),
            Some(v) => count_of(v.get_ref()).map_err(|m| err(v.span().start, m))?,
        };
        let one_sided = p.one_sided.unwrap_or(!reflections);
        let shapes = p
            .shapes(grid)
            .map_err(|b| err(b.at.unwrap_or(off), b.why))?;
        for (name, cells, twin) in shapes {
            pieces.push(Piece {
                name,
                cells: grid.normalize(&cells),
                count,
                one_sided: one_sided || twin,
                at: Some(loc(off)),
            });
            from_set.push(p.set.clone());
        }
    }
    qualify_set_names(&mut pieces, &from_set);
    let puzzle = PolyPuzzle {
        name: doc.name.unwrap_or_else(|| file.to_string()),
        board,
        pieces,
        unique_under,
        crossings: doc.crossings.unwrap_or(false),
        about: doc.about,
        known: doc.known.map(|k| Known {
            unique: k.unique,
            total: k.total,
            source: k.source,
            slow: k.slow,
            memo: k.memo,
        }),
        board_at: Some(loc(bspan)),
        ..PolyPuzzle::new("", Board::on(PolyGrid::Square, Vec::new()), Vec::new())
    };
    puzzle.check()?;
    Ok(puzzle)
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
        let any = "[[piece]]\nname = \"Q\"\ncells = [[0, 0, 0]]\ncount = \"any\"\n";
        // the same on the grids of two coordinates
        let any2 = "[[piece]]\nname = \"Q\"\ncells = [[0, 0]]\ncount = \"any\"\n";
        let cases: Vec<(String, &str)> = vec![
            (format!("[board]\nrect = [65536, 65537]\n{piece}"), "at most 100000 cells"),
            (format!("[board]\nrect = [9223372036854775807, 2]\n{piece}"), "at most 100000 cells"),
            (format!("[board]\nrect = [-3, -4]\n{piece}"), "at least 1"),
            (format!("[board]\nrect = [0, 4]\n{piece}"), "at least 1"),
            (format!("[board]\nbox = [100, 100, 100]\n{piece}"), "at most 100000 cells"),
            (format!("[board]\nbox = [4611686018427387904, 4, 4]\n{piece}"), "at most 100000 cells"),
            (format!("[board]\nrect = [2, 2]\nholes = [[99999999999, 0]]\n{piece}"), "out of range"),
            (format!("[board]\nrect = [2, 2]\nholes = [[5, 5]]\n{piece}"), "not a cell of the board"),
            (format!("[board]\nrect = [2, 2]\nholes = [[1]]\n{piece}"), "[1] has 1 coordinate; a cell of the square grid has 2 ([x, y])"),
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
            // grids
            (format!("grid = \"pentagon\"\n[board]\nrect = [2, 2]\n{any}"), "unknown grid \"pentagon\" (known: square, cube"),
            (format!("grid = \"triangle\"\n[board]\nrect = [2, 2]\n{any}"), "rect is a board of squares"),
            (format!("grid = \"hexagon\"\n[board]\nbox = [2, 2, 2]\n{any}"), "box is a board of cubes"),
            (format!("[board]\nparallelogram = [2, 2]\n{any}"), "parallelogram is a board of triangles or hexagons"),
            (format!("grid = \"triangle\"\n[board]\nhexagon = 0\n{any}"), "a side is 1 to"),
            (format!("grid = \"triangle\"\n[board]\nhexagon = 9999999999\n{any}"), "a side is 1 to"),
            (format!("grid = \"triangle\"\n[board]\nparallelogram = [3, -1]\n{any}"), "a side is 1 to"),
            (format!("grid = \"triangle\"\n[board]\ncells = [[0, 0, 0], [0, 0, 7]]\n{any}"), "[0, 0, 7] is not a cell of the triangle grid"),
            (format!("grid = \"hexagon\"\n[board]\ncells = [[0, 0], [5, 5]]\n{any2}"), "not connected on the hexagon grid"),
            (format!("grid = \"triangle\"\n[board]\nhexagon = 2\nborder = false\n{any}"), "border is for the edge grids"),
            (format!("grid = \"square\"\n[board]\nfaces = [[0, 0]]\n{any}"), "faces is for the edge grids"),
            (format!("grid = \"trig\"\n[board]\nfaces = [[0, 0, 5]]\n{any}"), "face [0, 0, 5] is not a cell of the triangle grid"),
            (format!("grid = \"trig\"\n[board]\nshape = \"#\"\n{any}"), "no text pictures"),
            (format!("grid = \"hexagon\"\n[board]\nshape = \"# #\\n# #\"\n{any}"), "line 2, column 1"),
            (format!("grid = \"hexagon\"\n[board]\nlayers = [\"#\"]\n{any}"), "layers are for boards in space"),
            (format!("crossings = true\n[board]\nrect = [2, 2]\n{any2}"), "crossings are for the edge grids"),
            (format!("unique = \"mirrors\"\n[board]\nrect = [2, 2]\n{any}"), "expected \"all\" or \"rotations\""),
            ("grid = \"triangle\"\n[board]\nhexagon = 1\n[[piece]]\nname = \"Q\"\ncells = [[0, 0, 0], [0, 0, 2]]\n".into(), "[0, 0, 2] is not a cell of the triangle grid"),
            ("grid = \"triangle\"\n[board]\nhexagon = 1\n[[piece]]\nname = \"Q\"\ncells = [[0, 0, 0], [2, 0, 0]]\ncount = 3\n".into(), "empty or not connected"),
            ("grid = \"triangle\"\n[board]\nhexagon = 1\n[[piece]]\nset = \"pentominoes\"\n".into(), "lives on the square grid, not on the triangle grid"),
            ("grid = \"stick\"\n[board]\nrect = [1, 1]\n[[piece]]\nname = \"p.1.2\"\ncells = [[0, 0, 0]]\ncount = 4\n".into(), "crossing point"),
            ("[board]\nrect = [2, 1]\n[known]\nunique = -1\nsource = \"x\"\n[[piece]]\nname = \"D\"\ncells = [[0, 0], [1, 0]]\n".into(), ""),
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
    }
}
