//! The candidate grid: values, 9-bit candidate masks, the 27 units and the
//! peers of every cell.
//!
//! Cells are numbered 0..81 row-major; digits are 1..=9 and a candidate mask
//! holds digit `d` in bit `d - 1`. Units are numbered 0..27: rows 0..9,
//! columns 9..18, boxes 18..27.

use crate::canon::GridTransform;
use crate::grid::Grid;
use std::fmt;

/// A set of digits: bit `d - 1` for digit `d`.
pub type Digits = u16;
/// A set of cells: bit `c` for cell `c`.
pub type Cells = u128;

/// Every digit.
pub const ALL_DIGITS: Digits = 0x1ff;

/// The bit of digit `d` (1..=9).
#[inline]
pub const fn bit(d: u8) -> Digits {
    1 << (d - 1)
}

/// The digits of a mask, ascending.
#[inline]
pub fn digits_of(mask: Digits) -> impl Iterator<Item = u8> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let d = m.trailing_zeros() as u8 + 1;
            m &= m - 1;
            Some(d)
        }
    })
}

/// The cells of a cell set, ascending.
#[inline]
pub fn cells_of(set: Cells) -> impl Iterator<Item = usize> {
    let mut m = set;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(c)
        }
    })
}

/// Number of digits in a mask.
#[inline]
pub fn count(mask: Digits) -> u32 {
    mask.count_ones()
}

const fn make_units() -> [[u8; 9]; 27] {
    let mut u = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            u[i][j] = (i * 9 + j) as u8;
            u[9 + i][j] = (j * 9 + i) as u8;
            let br = (i / 3) * 3;
            let bc = (i % 3) * 3;
            u[18 + i][j] = ((br + j / 3) * 9 + bc + j % 3) as u8;
            j += 1;
        }
        i += 1;
    }
    u
}

/// The cells of every unit: rows, then columns, then boxes.
pub static UNITS: [[u8; 9]; 27] = make_units();

const fn make_cell_units() -> [[u8; 3]; 81] {
    let mut cu = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let r = c / 9;
        let col = c % 9;
        cu[c] = [r as u8, (9 + col) as u8, (18 + (r / 3) * 3 + col / 3) as u8];
        c += 1;
    }
    cu
}

/// The row, column and box unit of every cell.
pub static CELL_UNITS: [[u8; 3]; 81] = make_cell_units();

const fn make_unit_masks() -> [Cells; 27] {
    let mut m = [0u128; 27];
    let mut u = 0;
    while u < 27 {
        let mut j = 0;
        while j < 9 {
            m[u] |= 1u128 << UNITS[u][j];
            j += 1;
        }
        u += 1;
    }
    m
}

/// The cells of every unit as a set.
pub static UNIT_MASK: [Cells; 27] = make_unit_masks();

const fn make_peer_masks() -> [Cells; 81] {
    let mut m = [0u128; 81];
    let mut c = 0;
    while c < 81 {
        let mut k = 0;
        while k < 3 {
            m[c] |= UNIT_MASK[CELL_UNITS[c][k] as usize];
            k += 1;
        }
        m[c] &= !(1u128 << c);
        c += 1;
    }
    m
}

/// The 20 peers of every cell as a set.
pub static PEER_MASK: [Cells; 81] = make_peer_masks();

const fn make_peers() -> [[u8; 20]; 81] {
    let mut p = [[0u8; 20]; 81];
    let mut c = 0;
    while c < 81 {
        let mut n = 0;
        let mut o = 0;
        while o < 81 {
            if (PEER_MASK[c] >> o) & 1 == 1 {
                p[c][n] = o as u8;
                n += 1;
            }
            o += 1;
        }
        c += 1;
    }
    p
}

/// The 20 peers of every cell.
pub static PEERS: [[u8; 20]; 81] = make_peers();

/// Each cell's peers in SE's order: its box, then its row and its column
/// outside the box.
const fn make_se_peers() -> [[u8; 20]; 81] {
    let mut t = [[0u8; 20]; 81];
    let mut c = 0;
    while c < 81 {
        let (r, col) = (c / 9, c % 9);
        let (br, bc) = (r / 3 * 3, col / 3 * 3);
        let mut k = 0;
        let mut i = 0;
        while i < 9 {
            let q = (br + i / 3) * 9 + bc + i % 3;
            if q != c {
                t[c][k] = q as u8;
                k += 1;
            }
            i += 1;
        }
        let mut x = 0;
        while x < 9 {
            if x / 3 * 3 != bc {
                t[c][k] = (r * 9 + x) as u8;
                k += 1;
            }
            x += 1;
        }
        let mut y = 0;
        while y < 9 {
            if y / 3 * 3 != br {
                t[c][k] = (y * 9 + col) as u8;
                k += 1;
            }
            y += 1;
        }
        c += 1;
    }
    t
}
pub static SE_PEERS: [[u8; 20]; 81] = make_se_peers();

/// All 81 cells.
pub const ALL_CELLS: Cells = (1u128 << 81) - 1;

/// Row of a cell (0..9).
#[inline]
pub const fn row_of(c: usize) -> usize {
    c / 9
}
/// Column of a cell (0..9).
#[inline]
pub const fn col_of(c: usize) -> usize {
    c % 9
}
/// Box of a cell (0..9).
#[inline]
pub const fn box_of(c: usize) -> usize {
    (c / 27) * 3 + (c % 9) / 3
}

/// Do two distinct cells share a unit?
#[inline]
pub fn sees(a: usize, b: usize) -> bool {
    (PEER_MASK[a] >> b) & 1 == 1
}

/// The cells that see every cell of `set` (the cells of `set` excluded).
#[inline]
pub fn common_peers(set: Cells) -> Cells {
    let mut m = ALL_CELLS;
    for c in cells_of(set) {
        m &= PEER_MASK[c];
    }
    m & !set
}

thread_local! {
    /// While a search runs on a puzzle's canonical form (see
    /// [`crate::canon`]), the transform back to the puzzle as the player
    /// has it: the names in the steps' words are the player's.
    static NAMES: std::cell::Cell<Option<GridTransform>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with the names of cells, units and digits taken through `back`
/// (the transform from the board searched to the board the player sees),
/// then restores the names as they were.
pub(crate) fn with_names<R>(back: Option<GridTransform>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<GridTransform>);
    impl Drop for Restore {
        fn drop(&mut self) {
            NAMES.with(|n| n.set(self.0));
        }
    }
    let _restore = Restore(NAMES.with(|n| n.replace(back)));
    f()
}

/// The transform back to the player's board while a search runs on a
/// canonical form (see [`with_names`]).
pub(crate) fn names() -> Option<GridTransform> {
    NAMES.with(|n| n.get())
}

/// The cell the player knows as `c`.
pub(crate) fn named_cell(c: usize) -> usize {
    NAMES.with(|n| n.get()).map_or(c, |t| t.cell(c))
}

/// The digit the player knows as `d`: what a step's words print for a
/// digit (`{}` of a bare digit would print the searched board's label).
pub fn digit_name(d: u8) -> u8 {
    NAMES.with(|n| n.get()).map_or(d, |t| t.digit(d))
}

/// `r3c7`, 1-based.
pub fn cell_name(c: usize) -> String {
    let c = named_cell(c);
    format!("r{}c{}", c / 9 + 1, c % 9 + 1)
}

/// `r3c7,r4c1`.
pub fn cells_name(cells: impl IntoIterator<Item = usize>) -> String {
    let v: Vec<String> = cells.into_iter().map(cell_name).collect();
    v.join(",")
}

/// The unit that unit `u` (0..27: rows, columns, boxes) becomes under `t`.
pub fn unit_image(t: &GridTransform, u: usize) -> usize {
    let a = t.cell(UNITS[u][0] as usize);
    let b = t.cell(UNITS[u][8] as usize);
    if a / 9 == b / 9 {
        a / 9
    } else if a % 9 == b % 9 {
        9 + a % 9
    } else {
        18 + a / 27 * 3 + a % 9 / 3
    }
}

/// The unit the player knows as `u` (0..27: rows, columns, boxes).
pub(crate) fn named_unit(u: usize) -> usize {
    NAMES.with(|n| n.get()).map_or(u, |t| unit_image(&t, u))
}

/// `row 3`, `column 5`, `box 7` (1-based).
pub fn unit_name(u: usize) -> String {
    let u = named_unit(u);
    match u {
        0..=8 => format!("row {}", u + 1),
        9..=17 => format!("column {}", u - 8),
        _ => format!("box {}", u - 17),
    }
}

/// `1/5/9`.
pub fn digits_name(mask: Digits) -> String {
    let mut v: Vec<u8> = digits_of(mask).map(digit_name).collect();
    v.sort_unstable();
    let v: Vec<String> = v.iter().map(|d| d.to_string()).collect();
    v.join("/")
}

/// A 9x9 grid with pencil marks.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct MarkedGrid {
    values: [u8; 81],
    cands: [Digits; 81],
}

impl fmt::Debug for MarkedGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MarkedGrid({})", self.to_line())
    }
}

impl fmt::Display for MarkedGrid {
    /// The candidate grid, one row per line, each cell padded to the widest.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cell_text = |c: usize| -> String {
            if self.values[c] != 0 {
                self.values[c].to_string()
            } else {
                digits_of(self.cands[c])
                    .map(|d| (b'0' + d) as char)
                    .collect()
            }
        };
        let width = (0..81).map(|c| cell_text(c).len()).max().unwrap_or(1);
        for r in 0..9 {
            if r > 0 && r % 3 == 0 {
                writeln!(f, "{}", "-".repeat(9 * (width + 1) + 4))?;
            }
            for col in 0..9 {
                if col > 0 && col % 3 == 0 {
                    write!(f, "| ")?;
                }
                write!(f, "{:<w$} ", cell_text(r * 9 + col), w = width)?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl MarkedGrid {
    /// An empty board: every cell open to every digit.
    pub fn empty() -> Self {
        MarkedGrid {
            values: [0; 81],
            cands: [ALL_DIGITS; 81],
        }
    }

    /// The board of a 9x9 grid: its digits placed, the candidates of the other
    /// cells computed from them. `None` if the grid is not 9x9.
    pub fn try_from_grid(grid: &Grid) -> Option<Self> {
        if grid.size() != 9 {
            return None;
        }
        let mut b = MarkedGrid::empty();
        for c in 0..81 {
            let d = grid.get(c);
            if d != 0 {
                b.place(c, d);
            }
        }
        Some(b)
    }

    /// The board of a 9x9 grid. Panics if the grid is not 9x9.
    pub fn from_grid(grid: &Grid) -> Self {
        Self::try_from_grid(grid).expect("the logical solver handles 9x9 grids only")
    }

    /// A board from 81 symbols (`1`-`9`, `.` or `0` for empty). `None` if the
    /// line is not 81 such symbols.
    pub fn from_line(line: &str) -> Option<Self> {
        let t = line.trim();
        if t.chars().count() != 81 {
            return None;
        }
        let mut b = MarkedGrid::empty();
        for (c, ch) in t.chars().enumerate() {
            match ch {
                '1'..='9' => b.place(c, ch as u8 - b'0'),
                '.' | '0' => {}
                _ => return None,
            }
        }
        Some(b)
    }

    /// A board from explicit values and candidates (for positions set up by
    /// hand, e.g. in tests). A cell with a value has no candidates.
    pub fn from_parts(values: [u8; 81], cands: [Digits; 81]) -> Self {
        let mut b = MarkedGrid { values, cands };
        for c in 0..81 {
            if b.values[c] != 0 {
                b.cands[c] = 0;
            } else {
                b.cands[c] &= ALL_DIGITS;
            }
        }
        b
    }

    /// The board `t` makes of this one: values and candidates moved and
    /// relabelled.
    pub fn transformed(&self, t: &GridTransform) -> MarkedGrid {
        let mut b = MarkedGrid {
            values: [0; 81],
            cands: [0; 81],
        };
        for c in 0..81 {
            let to = t.cell(c);
            b.values[to] = t.digit(self.values[c]);
            b.cands[to] = digits_of(self.cands[c]).fold(0, |m, d| m | bit(t.digit(d)));
        }
        b
    }

    /// The digit in a cell, 0 if empty.
    #[inline]
    pub fn value(&self, c: usize) -> u8 {
        self.values[c]
    }
    /// The candidates of a cell (0 for a filled cell).
    #[inline]
    pub fn cands(&self, c: usize) -> Digits {
        self.cands[c]
    }
    /// Is `d` a candidate of cell `c`?
    #[inline]
    pub fn has(&self, c: usize, d: u8) -> bool {
        self.cands[c] & bit(d) != 0
    }
    /// Every value (0 for empty).
    pub fn values(&self) -> &[u8; 81] {
        &self.values
    }
    /// Every candidate mask.
    pub fn all_cands(&self) -> &[Digits; 81] {
        &self.cands
    }
    /// The cells where `d` is a candidate.
    pub fn positions(&self, d: u8) -> Cells {
        let b = bit(d);
        let mut m = 0u128;
        for c in 0..81 {
            if self.cands[c] & b != 0 {
                m |= 1u128 << c;
            }
        }
        m
    }
    /// For every digit `d`, the cells where it is a candidate (`[d]`; `[0]`
    /// is empty): one pass over the grid, for searches that look at many
    /// digits and units.
    pub fn all_positions(&self) -> [Cells; 10] {
        let mut m = [0u128; 10];
        for c in 0..81 {
            let mut k = self.cands[c];
            while k != 0 {
                let d = k.trailing_zeros() as usize + 1;
                m[d] |= 1u128 << c;
                k &= k - 1;
            }
        }
        m
    }
    /// The cells of unit `u` where `d` is a candidate.
    pub fn unit_positions(&self, u: usize, d: u8) -> Cells {
        let b = bit(d);
        let mut m = 0u128;
        for &c in &UNITS[u] {
            if self.cands[c as usize] & b != 0 {
                m |= 1u128 << c;
            }
        }
        m
    }
    /// The empty cells.
    pub fn empty_cells(&self) -> Cells {
        let mut m = 0u128;
        for c in 0..81 {
            if self.values[c] == 0 {
                m |= 1u128 << c;
            }
        }
        m
    }

    /// Puts `d` in cell `c` and removes `d` from the candidates of its peers.
    pub fn place(&mut self, c: usize, d: u8) {
        self.values[c] = d;
        self.cands[c] = 0;
        let b = !bit(d);
        for &p in &PEERS[c] {
            self.cands[p as usize] &= b;
        }
    }

    /// Removes candidate `d` from cell `c`; true if it was there.
    pub fn eliminate(&mut self, c: usize, d: u8) -> bool {
        let had = self.cands[c] & bit(d) != 0;
        self.cands[c] &= !bit(d);
        had
    }

    /// Every cell filled.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Number of empty cells.
    pub fn unsolved(&self) -> usize {
        self.values.iter().filter(|&&v| v == 0).count()
    }

    /// No empty cell without candidates, no digit without a place in a unit,
    /// no digit twice in a unit.
    pub fn is_consistent(&self) -> bool {
        for c in 0..81 {
            if self.values[c] == 0 && self.cands[c] == 0 {
                return false;
            }
        }
        for unit in &UNITS {
            let mut seen: Digits = 0;
            let mut open: Digits = 0;
            for &c in unit {
                let v = self.values[c as usize];
                if v != 0 {
                    if seen & bit(v) != 0 {
                        return false;
                    }
                    seen |= bit(v);
                } else {
                    open |= self.cands[c as usize];
                }
            }
            if (seen | open) != ALL_DIGITS {
                return false;
            }
        }
        true
    }

    /// The values as a grid (0 for empty).
    pub fn to_grid(&self) -> Grid {
        Grid::from_cells(9, self.values.to_vec())
    }

    /// The values as 81 symbols, `.` for empty.
    pub fn to_line(&self) -> String {
        self.values
            .iter()
            .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
            .collect()
    }
}
