//! A solution as front ends show it: an NDJSON record, text (a character
//! per placement with its legend), a picture's input ([`Tiling`]).

use super::{Counts, Model};
use crate::grid::Cell;
use crate::render::Tiling;
use dancer_formats::ndjson::{PiecePlacement, PolyRecord};

impl Model {
    /// A solution as an NDJSON record: each placement's piece and cells
    /// (as [`crate::grid::PolyGrid::record_cell`] writes them). `number` is 1-based.
    pub fn solution_record(&self, number: u64, sol: &[usize]) -> PolyRecord {
        let board = &self.puzzle.board;
        let placements = sol
            .iter()
            .map(|&q| {
                let pl = &self.placements[q];
                let cells = pl
                    .cells
                    .iter()
                    .map(|&c| board.grid.record_cell(board.cells[c]))
                    .collect();
                PiecePlacement {
                    piece: self.puzzle.pieces[pl.piece].name.clone(),
                    cells,
                }
            })
            .collect();
        PolyRecord::Solution {
            number,
            placements,
            disassembly: None,
        }
    }

    /// The summary record of a search that gave `counts` in `seconds`.
    pub fn summary_record(&self, counts: &Counts, seconds: f64) -> PolyRecord {
        PolyRecord::Summary {
            solutions: counts.total.into(),
            unique: Some(counts.unique),
            nodes: counts.nodes,
            complete: counts.complete,
            seconds,
            symmetries: self.symmetries.len(),
            disassemblies: None,
            undecided: None,
        }
    }

    /// A solution as a picture's input. Pieces are coloured by type, so
    /// that a piece looks the same in every solution; when a type is used
    /// more than once (25 Y pentacubes), its further copies get colours of
    /// their own, so that the copies can be told apart ([`colour_numbers`]).
    pub fn tiling(&self, sol: &[usize], title: Option<String>) -> Tiling {
        let types: Vec<usize> = sol.iter().map(|&q| self.placements[q].piece).collect();
        let colours = colour_numbers(&types, self.puzzle.pieces.len());
        let mut names: Vec<String> = self.puzzle.pieces.iter().map(|p| p.name.clone()).collect();
        let mut cells = Vec::new();
        for (k, &q) in sol.iter().enumerate() {
            let p = &self.placements[q];
            if colours[k] as usize >= names.len() {
                names.push(self.puzzle.pieces[p.piece].name.clone());
            }
            for &c in &p.cells {
                cells.push((self.puzzle.board.cells[c], k as u32, colours[k]));
            }
        }
        cells.sort();
        Tiling {
            grid: self.puzzle.grid(),
            cells,
            pieces: names,
            title,
        }
    }

    /// A solution as text: one character per cell, `.` for a cell of the
    /// bounding box that is not on the board; row `y = 0` on top, `x = 0` on
    /// the left; the layers of a solid side by side, `z = 0` first, three
    /// spaces apart. Each line ends with a newline.
    ///
    /// A piece whose name is one character, placed once, shows as its name.
    /// Every other placement (a longer name such as `H01`, the second and
    /// later copies of a piece) gets a character of its own that names no
    /// piece of the puzzle, and a legend under the grid says what those
    /// characters are, one entry per piece: `YABC: Y` (the four copies of
    /// `Y` are drawn `Y`, `A`, `B` and `C`), `D: H01`. A character that the
    /// legend does not list is the piece of that name. Characters run out
    /// only with hundreds of placements: then copies of a piece share its
    /// characters (never with a neighbouring copy where it can be helped).
    pub fn ascii(&self, sol: &[usize]) -> String {
        let b = &self.puzzle.board;
        let glyphs = Glyphs::new(self, sol);
        let grid = self.puzzle.grid();
        if !matches!(
            grid,
            crate::grid::PolyGrid::Square | crate::grid::PolyGrid::Cube
        ) {
            return self.other_grid_text(sol, &glyphs);
        }
        let [w, h, d] = b.extent();
        let mut at = vec![' '; (w * h * d) as usize];
        for (k, &q) in sol.iter().enumerate() {
            for &c in &self.placements[q].cells {
                let [x, y, z] = b.cells[c];
                at[((z * h + y) * w + x) as usize] = glyphs.of[k];
            }
        }
        let mut out = String::new();
        for y in 0..h {
            let mut line = String::new();
            for z in 0..d {
                if z > 0 {
                    line.push_str("   ");
                }
                for x in 0..w {
                    let i = ((z * h + y) * w + x) as usize;
                    let inside = b.index(&[x, y, z]).is_some();
                    line.push(if inside { at[i] } else { '.' });
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        let width = ((w * d + 3 * (d - 1)) as usize).max(72);
        out.push_str(&glyphs.legend_lines(self, width));
        out
    }

    /// A solution on a grid other than squares and cubes: its picture
    /// ([`crate::grid::picture::write`]), or on grids without text pictures
    /// each placement's cells; then the legend.
    fn other_grid_text(&self, sol: &[usize], glyphs: &Glyphs) -> String {
        let b = &self.puzzle.board;
        let grid = self.puzzle.grid();
        let marked: Vec<(Cell, char)> = sol
            .iter()
            .enumerate()
            .flat_map(|(k, &q)| {
                self.placements[q]
                    .cells
                    .iter()
                    .map(move |&c| (b.cells[c], glyphs.of[k]))
            })
            .collect();
        let mut out = match crate::grid::picture::write(grid, &marked) {
            Some(picture) => picture,
            None => sol
                .iter()
                .enumerate()
                .map(|(k, &q)| {
                    let cells: Vec<String> = self.placements[q]
                        .cells
                        .iter()
                        .map(|&c| {
                            let [x, y, z] = b.cells[c];
                            format!("{x}.{y}.{z}")
                        })
                        .collect();
                    format!("{} {}\n", glyphs.of[k], cells.join(" "))
                })
                .collect(),
        };
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&glyphs.legend_lines(self, 72));
        out
    }
}

impl Glyphs {
    /// The legend (`F: F  I: I ...`), wrapped at `width` columns, each line
    /// ending with a newline.
    fn legend_lines(&self, model: &Model, width: usize) -> String {
        let glyphs = self;
        let mut out = String::new();
        let mut line = String::new();
        for (piece, chars) in glyphs.legend(model) {
            let entry = format!("{chars}: {piece}");
            if !line.is_empty() && line.chars().count() + 2 + entry.chars().count() > width {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push_str("  ");
            }
            line.push_str(&entry);
        }
        if !line.is_empty() {
            out.push_str(&line);
            out.push('\n');
        }
        out
    }
}

/// Whether `c` takes one column of a terminal and cannot be mistaken for
/// the text output's own marks (`.` for no cell, `:` in the legend).
fn narrow_glyph(c: char) -> bool {
    c != '.'
        && c != ':'
        && (c.is_ascii_graphic()
            || (c.is_alphabetic()
                && matches!(c, '\u{c0}'..='\u{24f}' | '\u{370}'..='\u{3ff}' | '\u{400}'..='\u{4ff}')))
}

/// The characters handed out to placements in text output, in order:
/// letters, digits, marks, then letters of other alphabets.
fn glyph_pool() -> impl Iterator<Item = char> {
    ('A'..='Z')
        .chain('a'..='z')
        .chain('0'..='9')
        .chain("+*#@%&$=~^!?<>/()[]{}-_;,'\"`|\\".chars())
        .chain(('\u{c0}'..='\u{24f}').chain('\u{370}'..='\u{4ff}'))
        .filter(|&c| narrow_glyph(c))
}

/// The characters of one solution's placements in text output.
struct Glyphs {
    /// Per placement of the solution (in its order).
    of: Vec<char>,
    /// Per piece type: the characters its placements show, in order.
    chars: Vec<Vec<char>>,
    /// Per piece type: its name, when that is one character to show.
    own: Vec<Option<char>>,
}

impl Glyphs {
    fn new(m: &Model, sol: &[usize]) -> Glyphs {
        let pieces = &m.puzzle.pieces;
        let own: Vec<Option<char>> = pieces
            .iter()
            .map(|p| {
                let mut it = p.name.chars();
                match (it.next(), it.next()) {
                    (Some(c), None) if narrow_glyph(c) => Some(c),
                    _ => None,
                }
            })
            .collect();
        // a character that names a piece stands for that piece only
        let reserved: std::collections::HashSet<char> = own.iter().flatten().copied().collect();
        let mut pool = glyph_pool().filter(|c| !reserved.contains(c));
        let mut chars: Vec<Vec<char>> = vec![Vec::new(); pieces.len()];
        let mut of: Vec<char> = Vec::with_capacity(sol.len());
        let mut owner: Vec<usize> = Vec::new();
        for (k, &q) in sol.iter().enumerate() {
            let p = m.placements[q].piece;
            let ch = match own[p] {
                Some(c) if chars[p].is_empty() => c,
                _ => match pool.next() {
                    Some(c) => c,
                    None => {
                        // out of characters: one of the piece's own that no
                        // neighbour shows
                        if owner.is_empty() {
                            owner = vec![usize::MAX; m.puzzle.board.len()];
                            for (k2, &q2) in sol.iter().enumerate() {
                                for &c in &m.placements[q2].cells {
                                    owner[c] = k2;
                                }
                            }
                        }
                        let near = Self::neighbours(m, q, k, &owner);
                        let mine = chars[p].clone();
                        mine.iter()
                            .copied()
                            .find(|c| !near.iter().any(|&k2| k2 < k && of[k2] == *c))
                            .or(mine.first().copied())
                            .unwrap_or('?')
                    }
                },
            };
            if !chars[p].contains(&ch) {
                chars[p].push(ch);
            }
            of.push(ch);
        }
        Glyphs { of, chars, own }
    }

    /// The placements of the solution (by their number) next to placement
    /// `q`, the `k`-th.
    fn neighbours(m: &Model, q: usize, k: usize, owner: &[usize]) -> Vec<usize> {
        let b = &m.puzzle.board;
        let mut near = Vec::new();
        for &c in &m.placements[q].cells {
            let cell = b.cells[c];
            for axis in 0..3 {
                for step in [-1, 1] {
                    let mut n = cell;
                    n[axis] += step;
                    if let Some(i) = b.index(&n) {
                        let k2 = owner[i];
                        if k2 != k && k2 != usize::MAX && !near.contains(&k2) {
                            near.push(k2);
                        }
                    }
                }
            }
        }
        near
    }

    /// The legend: (piece name, its characters) for each piece placed that
    /// is not simply shown as its one-character name, in the puzzle's order.
    fn legend(&self, m: &Model) -> Vec<(String, String)> {
        m.puzzle
            .pieces
            .iter()
            .enumerate()
            .filter(|&(p, _)| {
                !self.chars[p].is_empty() && (self.own[p].is_none() || self.chars[p].len() > 1)
            })
            .map(|(p, piece)| (piece.name.clone(), self.chars[p].iter().collect()))
            .collect()
    }
}

/// The colour number ([`Tiling::cells`]' piece type) of each placement of
/// a solution, from each placement's piece type (`types`, in the order of
/// the placements) among `n_types`: a type's first placement has the type's
/// own number, the colour a picture of the pieces gives it, so that a piece
/// looks the same in every solution and beside them; each further copy of a
/// type has a number of its own from `n_types` on, so that copies are told
/// apart and none takes the colour of another type. (A puzzle whose one
/// type is placed many times, 25 Y pentacubes, numbers its placements in
/// order.)
pub fn colour_numbers(types: &[usize], n_types: usize) -> Vec<u32> {
    let mut seen = vec![false; n_types];
    let mut next = n_types as u32;
    types
        .iter()
        .map(|&t| {
            if t < n_types && !std::mem::replace(&mut seen[t], true) {
                t as u32
            } else {
                next += 1;
                next - 1
            }
        })
        .collect()
}
