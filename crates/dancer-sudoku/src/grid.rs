//! Grids: cells holding digits `1..=size` or 0 for empty, their symbols and
//! their printing.
//!
//! Symbols: `1`-`9` for 1 to 9, then `A`-`P` for 10 to 25 (so a 16x16 grid
//! uses `1-9A-G`); `.` or `0` for an empty cell. Lower-case letters are
//! accepted on input.

use crate::rules::{Regions, Rules};
use std::fmt;

/// The symbol of digit `d` (1..=25); `.` for 0.
pub fn symbol(d: u8) -> char {
    match d {
        0 => '.',
        1..=9 => (b'0' + d) as char,
        _ => (b'A' + d - 10) as char,
    }
}

/// The digit a symbol stands for: `Some(0)` for empty, `None` if it is not a
/// symbol at all. Whether the digit fits the grid's size is for the caller.
pub fn digit(c: char) -> Option<u8> {
    match c {
        '.' | '0' => Some(0),
        '1'..='9' => Some(c as u8 - b'0'),
        'A'..='P' => Some(c as u8 - b'A' + 10),
        'a'..='p' => Some(c as u8 - b'a' + 10),
        _ => None,
    }
}

/// A grid of `size` x `size` cells, row-major, 0 for empty.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    size: usize,
    cells: Cells,
}

/// The cells of a grid: up to 9x9 in place (a batch of 9x9 puzzles makes
/// two grids a puzzle, and the allocations were a tenth of its time),
/// larger ones on the heap.
#[derive(Clone)]
enum Cells {
    /// The first `len` bytes.
    Inline {
        len: u8,
        cells: [u8; 81],
    },
    Heap(Vec<u8>),
}

impl Cells {
    fn new(cells: Vec<u8>) -> Self {
        if cells.len() <= 81 {
            let mut a = [0u8; 81];
            a[..cells.len()].copy_from_slice(&cells);
            Cells::Inline {
                len: cells.len() as u8,
                cells: a,
            }
        } else {
            Cells::Heap(cells)
        }
    }
}

impl std::ops::Deref for Cells {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Cells::Inline { len, cells } => &cells[..*len as usize],
            Cells::Heap(v) => v,
        }
    }
}

impl std::ops::DerefMut for Cells {
    fn deref_mut(&mut self) -> &mut [u8] {
        match self {
            Cells::Inline { len, cells } => &mut cells[..*len as usize],
            Cells::Heap(v) => v,
        }
    }
}

impl PartialEq for Cells {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Cells {}

impl std::hash::Hash for Cells {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (**self).hash(state)
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_line())
    }
}

impl Grid {
    /// An empty grid.
    pub fn empty(size: usize) -> Self {
        Grid {
            size,
            cells: Cells::new(vec![0; size * size]),
        }
    }
    /// A grid from its cells (row-major, 0 for empty). Panics if the length
    /// is not a square or a digit is out of range: check input first.
    pub fn from_cells(size: usize, cells: Vec<u8>) -> Self {
        assert_eq!(
            cells.len(),
            size * size,
            "grid of {size}x{size} needs {} cells",
            size * size
        );
        assert!(
            cells.iter().all(|&d| d as usize <= size),
            "digit out of range"
        );
        Grid {
            size,
            cells: Cells::new(cells),
        }
    }
    /// A 9x9 grid from cells known to be digits 0 to 9 (the caller has
    /// checked every one): [`from_cells`](Self::from_cells) without the
    /// check, and without an allocation.
    pub(crate) fn from_checked_9x9(cells: [u8; 81]) -> Self {
        debug_assert!(cells.iter().all(|&d| d <= 9));
        Grid {
            size: 9,
            cells: Cells::Inline { len: 81, cells },
        }
    }
    pub fn size(&self) -> usize {
        self.size
    }
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }
    pub fn set(&mut self, cell: usize, d: u8) {
        assert!(d as usize <= self.size);
        self.cells[cell] = d;
    }
    /// Number of filled cells.
    pub fn filled(&self) -> usize {
        self.cells.iter().filter(|&&d| d != 0).count()
    }
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&d| d != 0)
    }
    /// One line of symbols, `.` for empty.
    pub fn to_line(&self) -> String {
        let mut s = String::with_capacity(self.cells.len());
        self.push_line(&mut s);
        s
    }
    /// Appends [`to_line`](Self::to_line) to `out`.
    pub fn push_line(&self, out: &mut String) {
        // every symbol is ASCII: one byte a cell, 128 at a time (a 9x9
        // grid at once), [`symbol`] without branches so that it runs on
        // vectors
        let mut buf = [0u8; 128];
        for part in self.cells.chunks(128) {
            for (b, &d) in buf.iter_mut().zip(part) {
                let base = if d > 9 { b'A' - 10 } else { b'0' };
                *b = if d == 0 { b'.' } else { base.wrapping_add(d) };
            }
            out.push_str(std::str::from_utf8(&buf[..part.len()]).expect("ASCII symbols"));
        }
    }
    /// A picture with box (or region) separators, for people.
    pub fn pretty(&self, rules: &Rules) -> String {
        let n = self.size;
        let (br, bc) = match rules.regions() {
            Regions::Boxes { rows, cols } => (*rows, *cols),
            Regions::Jigsaw(_) => (n, n),
        };
        let mut out = String::new();
        for r in 0..n {
            let mut line = String::new();
            for c in 0..n {
                if c > 0 {
                    line.push(' ');
                    if c % bc == 0 {
                        line.push_str("| ");
                    }
                }
                line.push(symbol(self.cells[r * n + c]));
            }
            if r > 0 && r % br == 0 {
                let rule: String = line
                    .chars()
                    .map(|ch| if ch == '|' { '+' } else { '-' })
                    .collect();
                out.push_str(&rule);
                out.push('\n');
            }
            out.push_str(&line);
            out.push('\n');
        }
        if let Regions::Jigsaw(map) = rules.regions() {
            out.push_str("regions:\n");
            for r in 0..n {
                let line: Vec<String> = (0..n)
                    .map(|c| crate::rules::region_name(map[r * n + c] as usize).to_string())
                    .collect();
                out.push_str(&line.join(" "));
                out.push('\n');
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_the_symbols() {
        // every symbol, in a grid larger than a chunk of push_line
        let cells: Vec<u8> = (0..625).map(|k| (k % 26) as u8).collect();
        let g = Grid::from_cells(25, cells.clone());
        let mut line = String::from(">");
        g.push_line(&mut line);
        let want: String = std::iter::once('>')
            .chain(cells.iter().map(|&d| symbol(d)))
            .collect();
        assert_eq!(line, want);
    }

    #[test]
    fn symbols_round_trip() {
        for d in 0..=25u8 {
            assert_eq!(digit(symbol(d)), Some(d));
        }
        assert_eq!(digit('g'), Some(16));
        assert_eq!(digit('x'), None);
        assert_eq!(digit('Q'), None);
    }

    #[test]
    fn pretty_has_box_lines() {
        let rules = Rules::standard(4).unwrap();
        let g = Grid::from_cells(4, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]);
        assert_eq!(
            g.pretty(&rules),
            "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n"
        );
        assert_eq!(g.to_line(), "1234341221434321");
    }
}
