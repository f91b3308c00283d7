//! Text pictures of cells: how a board or a piece is drawn in a puzzle
//! file and how a solution is printed, one convention per grid.
//!
//! A picture is lines of characters; line `l` and column `c` count from 0
//! (characters, not bytes). A *blank*, `.` or a space, is no cell; any
//! other character marks a cell, and is kept as its mark
//! ([`read_marked`]): a piece's letter in a printed solution, a label.
//!
//! * **square**: the character at column `c` of line `l` is the square
//!   `[c, l, 0]`. Every character but a blank is a cell, exactly as the
//!   square pictures of puzzle files always read.
//! * **triangle**: one character per triangle, half a triangle wide, so
//!   that a row of triangles reads up, down, up, ... The character at
//!   column `c` of line `l` is the triangle `[x, l, k]` with `2x + k = c +
//!   l`: up where `c + l` is even, down where it is odd. The six triangles
//!   around a point are a block of three by two:
//!
//!   ```text
//!   ABC      A = [0,0,0] up     B = [0,0,1] down   C = [1,0,0] up
//!   DEF      D = [0,1,1] down   E = [1,1,0] up     F = [1,1,1] down
//!   ```
//!
//!   Moving a picture one column right or left turns each triangle over
//!   (another shape); two columns is a translation.
//! * **hexagon**: the hexagon `[x, l, 0]` is at column `c = 2x - l` of
//!   line `l` (moved by any one number of columns for the whole picture):
//!   the cells of a line are two columns apart with a blank between them,
//!   and each line is shifted half a hexagon, one column, from the one
//!   above. Reading, `x = (c + l) div 2`, and every cell's `c + l` must
//!   have the parity of the first cell's, else the picture is refused:
//!
//!   ```text
//!    A B       A = [0,0]  B = [1,0]
//!   C D E      C = [0,1]  D = [1,1]  E = [2,1]
//!    F G       F = [1,2]  G = [2,2]   (the hexagon of 7 around D)
//!   ```
//! * **stick**: the lines alternate between points and vertical edges.
//!   An even line `2j` holds the points of row `j` at even columns (`+`,
//!   or a blank) and its horizontal edges at odd columns: column `2i + 1`
//!   is the edge `[i, j, 0]`. An odd line `2j + 1` holds the vertical
//!   edges at even columns: column `2i` is `[i, j, 1]`. An edge is drawn
//!   with `-` or `|` or a label; the middles of squares (odd line, odd
//!   column) stay blank:
//!
//!   ```text
//!   +-+-+      [0,0,0] [1,0,0]
//!   |   |      [0,0,1] [2,0,1]
//!   +-+-+      [0,1,0] [1,1,0]
//!   ```
//! * **twig, trig**: no text pictures (their edges do not sit on a grid of
//!   characters that reads well); cell lists and SVG only.
//! * **cube**: a layer at a time, each a square picture; [`read`] reads one
//!   layer as `z = 0`, [`write()`] prints the layers side by side, `z = 0`
//!   first, three spaces apart, as solutions are printed.
//!
//! [`write()`] prints cells so that [`read`] gives them back translated by
//! one lattice vector, with their marks: the smallest lattice coordinates
//! go to the top left (for triangles, at the column of the right parity).
//! Blanks inside a line's run of cells are `.` where a cell could be, so
//! that holes show; everything else is spaces, and lines have no trailing
//! spaces. Square pictures fill their bounding box with `.`, as today's
//! text output does.

use super::{Cell, PolyGrid};
use std::collections::BTreeMap;

pub use super::layers::{is_blank, PictureError};

/// The cells of a picture on `grid`, in reading order (see the module
/// documentation for each grid's convention).
pub fn read(grid: PolyGrid, text: &str) -> Result<Vec<Cell>, PictureError> {
    Ok(read_marked(grid, text)?
        .into_iter()
        .map(|(c, _)| c)
        .collect())
}

/// The cells of a picture on `grid` with the character each is drawn
/// with, in reading order.
pub fn read_marked(grid: PolyGrid, text: &str) -> Result<Vec<(Cell, char)>, PictureError> {
    let layer = match grid {
        PolyGrid::Sphere => Some(super::sphere::read_layer(text, 0)),
        PolyGrid::Prism => Some(super::prism::read_layer(text, 0)),
        _ => None,
    };
    if let Some(cells) = layer {
        return cells;
    }
    let mut out = Vec::new();
    // hexagons: the parity of the first cell's column plus line
    let mut step: Option<usize> = None;
    for (l, line) in text.lines().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            let at = |what: String| PictureError {
                line: l + 1,
                column: c + 1,
                what,
            };
            let (x, y) = (c as i32, l as i32);
            let cell = match grid {
                PolyGrid::Square | PolyGrid::Cube => (!is_blank(ch)).then_some([x, y, 0]),
                PolyGrid::Triangle => {
                    (!is_blank(ch)).then_some([(x + y).div_euclid(2), y, (x + y).rem_euclid(2)])
                }
                PolyGrid::Hexagon if is_blank(ch) => None,
                PolyGrid::Hexagon => {
                    let first = *step.get_or_insert((c + l) % 2);
                    if (c + l) % 2 != first {
                        return Err(at(format!(
                            "{ch:?} is out of step with the first hexagon: the hexagons \
                             of a line are two columns apart, each line one column \
                             to the side of the line above"
                        )));
                    }
                    Some([(x + y).div_euclid(2), y, 0])
                }
                PolyGrid::Stick => stick_cell(l, c, ch).map_err(at)?,
                PolyGrid::Twig | PolyGrid::Trig | PolyGrid::Rhombic | PolyGrid::TetraOcta => {
                    return Err(at(format!(
                        "the {} grid has no text pictures: give its cells as a list",
                        grid.name()
                    )))
                }
                // read a layer at a time above
                PolyGrid::Sphere | PolyGrid::Prism => unreachable!("layers are read apart"),
            };
            if let Some(cell) = cell {
                out.push((cell, ch));
            }
        }
    }
    Ok(out)
}

/// The edge at column `c` of line `l` of a stick picture, if `ch` draws
/// one; what is wrong when `ch` stands where no edge can be.
fn stick_cell(l: usize, c: usize, ch: char) -> Result<Option<Cell>, String> {
    let (i, j) = ((c / 2) as i32, (l / 2) as i32);
    match (l % 2, c % 2) {
        (0, 1) => Ok((!is_blank(ch)).then_some([i, j, 0])),
        (1, 0) => Ok((!is_blank(ch)).then_some([i, j, 1])),
        (0, _) if is_blank(ch) || ch == '+' => Ok(None),
        (0, _) => Err(format!(
            "{ch:?} stands on a point of the grid (even line, even column): \
             a point is '+' or blank, edges lie between points"
        )),
        _ if is_blank(ch) => Ok(None),
        _ => Err(format!(
            "{ch:?} stands in the middle of a square (odd line, odd column): \
             a stick picture draws edges only, '-' between two '+' on a line, \
             '|' under a '+'"
        )),
    }
}

/// A picture of the cells, each drawn with its character, that [`read`]
/// reads back (translated); `None` for a grid without text pictures (twig,
/// trig). A cell given twice shows its first character. Each line ends
/// with a newline; no cells, no lines.
pub fn write(grid: PolyGrid, cells: &[(Cell, char)]) -> Option<String> {
    if cells.is_empty() {
        return match grid {
            PolyGrid::Twig | PolyGrid::Trig | PolyGrid::Rhombic | PolyGrid::TetraOcta => None,
            _ => Some(String::new()),
        };
    }
    match grid {
        PolyGrid::Square | PolyGrid::Cube => Some(write_squares(cells)),
        PolyGrid::Triangle => Some(write_spots(cells, triangle_spot, true)),
        PolyGrid::Hexagon => Some(write_spots(cells, hexagon_spot, false)),
        PolyGrid::Stick => Some(write_sticks(cells)),
        PolyGrid::Twig | PolyGrid::Trig | PolyGrid::Rhombic | PolyGrid::TetraOcta => None,
        PolyGrid::Sphere => Some(side_by_side(&super::sphere::write_layers(cells))),
        PolyGrid::Prism => Some(side_by_side(&super::prism::write_layers(cells))),
    }
}

/// Layer pictures side by side, `z = 0` on the left, three spaces apart,
/// as solids are printed; each line ends with a newline.
fn side_by_side(layers: &[String]) -> String {
    let rows: Vec<Vec<&str>> = layers.iter().map(|l| l.lines().collect()).collect();
    let widths: Vec<usize> = rows
        .iter()
        .map(|r| r.iter().map(|l| l.chars().count()).max().unwrap_or(0))
        .collect();
    let height = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = String::new();
    for y in 0..height {
        let mut line = String::new();
        for (z, r) in rows.iter().enumerate() {
            if z > 0 {
                line.push_str("   ");
            }
            let part = r.get(y).copied().unwrap_or("");
            line.push_str(part);
            let pad = widths[z] - part.chars().count();
            line.extend(std::iter::repeat_n(' ', pad));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Squares (and cubes, layer by layer): the bounding box, `.` where no
/// cell is, the layers side by side three spaces apart.
fn write_squares(cells: &[(Cell, char)]) -> String {
    let (lo, hi) = cells
        .iter()
        .fold((cells[0].0, cells[0].0), |(lo, hi), (c, _)| {
            (
                [0, 1, 2].map(|k| lo[k].min(c[k])),
                [0, 1, 2].map(|k| hi[k].max(c[k])),
            )
        });
    let mut at: BTreeMap<Cell, char> = BTreeMap::new();
    for &(c, ch) in cells {
        at.entry(c).or_insert(ch);
    }
    let mut out = String::new();
    for y in lo[1]..=hi[1] {
        let mut line = String::new();
        for z in lo[2]..=hi[2] {
            if z > lo[2] {
                line.push_str("   ");
            }
            for x in lo[0]..=hi[0] {
                line.push(at.get(&[x, y, z]).copied().unwrap_or('.'));
            }
        }
        out.push_str(line.trim_end_matches(' '));
        out.push('\n');
    }
    out
}

/// Where a triangle goes: (line, column) before the picture is moved to
/// the top left; moving by an even number of columns keeps the kind.
fn triangle_spot(c: Cell) -> (i32, i32) {
    (c[1], 2 * c[0] + c[2] - c[1])
}

/// Where a hexagon goes: (line, column) before the picture is moved.
fn hexagon_spot(c: Cell) -> (i32, i32) {
    (c[1], 2 * c[0] - c[1])
}

/// Triangles (`triangles` true) and hexagons: each cell at its spot, the
/// picture moved to the top left, for triangles by an even number of
/// columns past the lines moved (column plus line keeps its parity, the
/// triangle's kind). `.` marks the free spots between a line's first and
/// last cell where a cell of the grid could be: every column for
/// triangles, every other one for hexagons.
fn write_spots(cells: &[(Cell, char)], spot: fn(Cell) -> (i32, i32), triangles: bool) -> String {
    let spots: Vec<((i32, i32), char)> = cells.iter().map(|&(c, ch)| (spot(c), ch)).collect();
    let top = spots.iter().map(|s| s.0 .0).min().unwrap_or(0);
    let left = spots.iter().map(|s| s.0 .1).min().unwrap_or(0);
    let (shift, pitch) = if triangles {
        (left - (left - top).rem_euclid(2), 1)
    } else {
        (left, 2)
    };
    let mut rows: BTreeMap<i32, BTreeMap<i32, char>> = BTreeMap::new();
    for ((l, c), ch) in spots {
        rows.entry(l - top)
            .or_default()
            .entry(c - shift)
            .or_insert(ch);
    }
    let bottom = rows.keys().next_back().copied().unwrap_or(0);
    let mut out = String::new();
    for l in 0..=bottom {
        if let Some(row) = rows.get(&l) {
            let first = *row.keys().next().unwrap_or(&0);
            let last = *row.keys().next_back().unwrap_or(&0);
            let mut line = " ".repeat(first as usize);
            for c in first..=last {
                line.push(match row.get(&c) {
                    Some(&ch) => ch,
                    None if (c - first) % pitch == 0 => '.',
                    None => ' ',
                });
            }
            out.push_str(&line);
        }
        out.push('\n');
    }
    out
}

/// Sticks: each edge at its place, `+` at the ends of edges, blanks
/// elsewhere.
fn write_sticks(cells: &[(Cell, char)]) -> String {
    let i0 = cells.iter().map(|(c, _)| c[0]).min().unwrap_or(0);
    let j0 = cells.iter().map(|(c, _)| c[1]).min().unwrap_or(0);
    let mut at: BTreeMap<(i32, i32), char> = BTreeMap::new();
    for &([x, y, k], ch) in cells {
        let (i, j) = (x - i0, y - j0);
        let (middle, ends) = if k == 0 {
            ((2 * j, 2 * i + 1), [(2 * j, 2 * i), (2 * j, 2 * i + 2)])
        } else {
            ((2 * j + 1, 2 * i), [(2 * j, 2 * i), (2 * j + 2, 2 * i)])
        };
        at.entry(middle).or_insert(ch);
        for end in ends {
            at.insert(end, '+');
        }
    }
    let bottom = at.keys().map(|&(l, _)| l).max().unwrap_or(0);
    let mut out = String::new();
    for l in 0..=bottom {
        let mut column = 0;
        for (&(_, c), &ch) in at.range((l, 0)..(l + 1, 0)) {
            out.extend(std::iter::repeat_n(' ', (c - column) as usize));
            out.push(ch);
            column = c + 1;
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests;
