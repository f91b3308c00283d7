//! The rules of a Sudoku: its size, its regions (boxes or jigsaw pieces) and
//! the extra units of the variants.
//!
//! A *unit* is a set of `size` cells that must hold every digit exactly once:
//! rows, columns, regions, and for the variants the two main diagonals
//! ("X" Sudoku) or the four extra 3x3 windows (windoku, also called hyper).

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

/// How the grid is cut into regions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Regions {
    /// Rectangular boxes of `rows` x `cols` cells (`rows * cols == size`).
    Boxes { rows: usize, cols: usize },
    /// Irregular regions: the region number (0-based) of every cell, row-major.
    Jigsaw(Vec<u8>),
}

/// The rules of a Sudoku.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    size: usize,
    regions: Regions,
    diagonal: bool,
    windoku: bool,
}

/// Why a set of rules cannot be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error("size {0} is not supported (1 to 25 cells per side)")]
    BadSize(usize),
    /// A side with no box shape: a prime above 3 (only a jigsaw map makes
    /// its regions).
    #[error(
        "a {0}x{0} grid has no boxes ({0} is a prime): only a jigsaw map can make its regions"
    )]
    NoBoxes(usize),
    #[error("boxes of {rows}x{cols} cannot tile a {size}x{size} grid")]
    BadBoxes {
        size: usize,
        rows: usize,
        cols: usize,
    },
    #[error("a jigsaw map needs {expected} cells, not {found}")]
    JigsawLength { expected: usize, found: usize },
    #[error("jigsaw region {name:?} has {found} cells, not {expected}")]
    JigsawRegionSize {
        name: char,
        found: usize,
        expected: usize,
    },
    #[error("jigsaw map has {found} regions, not {expected}")]
    JigsawRegionCount { found: usize, expected: usize },
    #[error("jigsaw region {0:?} is not connected")]
    JigsawDisconnected(char),
    #[error("windoku (hyper) needs a 9x9 grid")]
    WindokuSize,
    /// A size asked for that is not the size of the box shape or jigsaw
    /// map given with it.
    #[error("size {size} does not match the regions given, of a {shape}x{shape} grid")]
    SizeMismatch { size: usize, shape: usize },
}

/// What kind of unit, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HouseKind {
    Row(usize),
    Column(usize),
    Box(usize),
    Region(usize),
    Diagonal,
    AntiDiagonal,
    Window(usize),
}

impl fmt::Display for HouseKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            HouseKind::Row(r) => write!(f, "row {}", r + 1),
            HouseKind::Column(c) => write!(f, "column {}", c + 1),
            HouseKind::Box(b) => write!(f, "box {}", b + 1),
            HouseKind::Region(g) => write!(f, "region {}", region_name(g)),
            HouseKind::Diagonal => write!(f, "the main diagonal"),
            HouseKind::AntiDiagonal => write!(f, "the anti-diagonal"),
            HouseKind::Window(w) => write!(f, "window {}", w + 1),
        }
    }
}

/// The letter naming jigsaw region `g` (A, B, ...).
pub fn region_name(g: usize) -> char {
    (b'A' + g as u8) as char
}

/// A unit: its kind and its cells (row-major indices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct House {
    pub kind: HouseKind,
    pub cells: Vec<usize>,
}

/// The usual box shape for a side of `size` cells: square when `size` is a
/// square, else the most nearly square rectangle with fewer rows than
/// columns (2x3 for 6, 2x4 for 8, 3x4 for 12). None for primes above 3,
/// where only a jigsaw can make regions.
pub fn default_boxes(size: usize) -> Option<(usize, usize)> {
    let mut best = None;
    for r in 1..=size {
        if size % r == 0 && r <= size / r && (r > 1 || size == 1) {
            best = Some((r, size / r));
        }
    }
    best
}

impl Rules {
    /// Standard rules: `size` x `size` with its usual boxes.
    pub fn standard(size: usize) -> Result<Self, RulesError> {
        if size == 0 || size > 25 {
            return Err(RulesError::BadSize(size));
        }
        let (rows, cols) = default_boxes(size).ok_or(RulesError::NoBoxes(size))?;
        Self::boxed(size, rows, cols)
    }

    /// Rules with boxes of `rows` x `cols`.
    pub fn boxed(size: usize, rows: usize, cols: usize) -> Result<Self, RulesError> {
        if size == 0 || size > 25 {
            return Err(RulesError::BadSize(size));
        }
        if rows == 0 || cols == 0 || rows * cols != size {
            return Err(RulesError::BadBoxes { size, rows, cols });
        }
        Ok(Rules {
            size,
            regions: Regions::Boxes { rows, cols },
            diagonal: false,
            windoku: false,
        })
    }

    /// Jigsaw rules: `map` gives the region of every cell, as letters (or
    /// any symbols: each distinct character is a region), row-major,
    /// whitespace ignored.
    pub fn jigsaw(size: usize, map: &str) -> Result<Self, RulesError> {
        if size == 0 || size > 25 {
            return Err(RulesError::BadSize(size));
        }
        let chars: Vec<char> = map.chars().filter(|c| !c.is_whitespace()).collect();
        if chars.len() != size * size {
            return Err(RulesError::JigsawLength {
                expected: size * size,
                found: chars.len(),
            });
        }
        let mut names: Vec<char> = chars.clone();
        names.sort_unstable();
        names.dedup();
        if names.len() != size {
            return Err(RulesError::JigsawRegionCount {
                found: names.len(),
                expected: size,
            });
        }
        let regions: Vec<u8> = chars
            .iter()
            .map(|c| names.binary_search(c).unwrap() as u8)
            .collect();
        for (g, &name) in names.iter().enumerate() {
            let cells: Vec<usize> = (0..size * size)
                .filter(|&i| regions[i] as usize == g)
                .collect();
            if cells.len() != size {
                return Err(RulesError::JigsawRegionSize {
                    name,
                    found: cells.len(),
                    expected: size,
                });
            }
            // connectivity (4-neighbours)
            let mut seen = vec![false; size * size];
            let mut stack = vec![cells[0]];
            seen[cells[0]] = true;
            let mut reached = 0;
            while let Some(i) = stack.pop() {
                reached += 1;
                let (r, c) = (i / size, i % size);
                let mut push = |j: usize| {
                    if regions[j] as usize == g && !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                };
                if r > 0 {
                    push(i - size);
                }
                if r + 1 < size {
                    push(i + size);
                }
                if c > 0 {
                    push(i - 1);
                }
                if c + 1 < size {
                    push(i + 1);
                }
            }
            if reached != size {
                return Err(RulesError::JigsawDisconnected(name));
            }
        }
        Ok(Rules {
            size,
            regions: Regions::Jigsaw(regions),
            diagonal: false,
            windoku: false,
        })
    }

    /// Adds the diagonal ("X") rule: each main diagonal holds every digit once.
    pub fn with_diagonal(mut self) -> Self {
        self.diagonal = true;
        self
    }

    /// Adds the windoku (hyper) rule: four extra 3x3 windows, 9x9 only.
    pub fn with_windoku(mut self) -> Result<Self, RulesError> {
        if self.size != 9 {
            return Err(RulesError::WindokuSize);
        }
        self.windoku = true;
        Ok(self)
    }

    pub fn size(&self) -> usize {
        self.size
    }
    pub fn n_cells(&self) -> usize {
        self.size * self.size
    }
    pub fn regions(&self) -> &Regions {
        &self.regions
    }
    pub fn is_diagonal(&self) -> bool {
        self.diagonal
    }
    pub fn is_windoku(&self) -> bool {
        self.windoku
    }

    /// Plain 9x9 with 3x3 boxes and no variant.
    pub fn is_standard_9x9(&self) -> bool {
        self.size == 9
            && self.regions == Regions::Boxes { rows: 3, cols: 3 }
            && !self.diagonal
            && !self.windoku
    }

    /// The region (box or jigsaw piece) of a cell.
    pub fn region_of(&self, cell: usize) -> usize {
        match &self.regions {
            Regions::Boxes { rows, cols } => {
                let (r, c) = (cell / self.size, cell % self.size);
                (r / rows) * (self.size / cols) + c / cols
            }
            Regions::Jigsaw(map) => map[cell] as usize,
        }
    }

    /// [`Rules::units`], made once per thread for the rules asked last: a
    /// batch checks every puzzle and every answer under the same rules,
    /// and making the units each time cost more than solving a 9x9.
    pub fn shared_units(&self) -> Rc<[House]> {
        thread_local! {
            static LAST: RefCell<Option<(Rules, Rc<[House]>)>> = const { RefCell::new(None) };
        }
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            match &*last {
                Some((rules, units)) if rules == self => units.clone(),
                _ => {
                    let units: Rc<[House]> = self.units().into();
                    *last = Some((self.clone(), units.clone()));
                    units
                }
            }
        })
    }

    /// Every unit, rows first, then columns, regions, diagonals, windows.
    pub fn units(&self) -> Vec<House> {
        let n = self.size;
        let mut units = Vec::new();
        for r in 0..n {
            units.push(House {
                kind: HouseKind::Row(r),
                cells: (0..n).map(|c| r * n + c).collect(),
            });
        }
        for c in 0..n {
            units.push(House {
                kind: HouseKind::Column(c),
                cells: (0..n).map(|r| r * n + c).collect(),
            });
        }
        // the regions, in one pass over the cells (each in order)
        let mut regions: Vec<Vec<usize>> = vec![Vec::with_capacity(n); n];
        for i in 0..n * n {
            regions[self.region_of(i)].push(i);
        }
        for (g, cells) in regions.into_iter().enumerate() {
            let kind = match self.regions {
                Regions::Boxes { .. } => HouseKind::Box(g),
                Regions::Jigsaw(_) => HouseKind::Region(g),
            };
            units.push(House { kind, cells });
        }
        if self.diagonal {
            units.push(House {
                kind: HouseKind::Diagonal,
                cells: (0..n).map(|i| i * n + i).collect(),
            });
            units.push(House {
                kind: HouseKind::AntiDiagonal,
                cells: (0..n).map(|i| i * n + (n - 1 - i)).collect(),
            });
        }
        if self.windoku {
            for (w, (r0, c0)) in [(1, 1), (1, 5), (5, 1), (5, 5)].into_iter().enumerate() {
                let mut cells = Vec::new();
                for r in r0..r0 + 3 {
                    for c in c0..c0 + 3 {
                        cells.push(r * n + c);
                    }
                }
                units.push(House {
                    kind: HouseKind::Window(w),
                    cells,
                });
            }
        }
        units
    }

    /// A short description: "9x9", "6x6 (2x3 boxes)", "9x9 jigsaw, diagonal".
    pub fn describe(&self) -> String {
        let mut s = format!("{0}x{0}", self.size);
        match &self.regions {
            Regions::Boxes { rows, cols } => {
                if rows != cols {
                    s.push_str(&format!(" ({rows}x{cols} boxes)"));
                }
            }
            Regions::Jigsaw(_) => s.push_str(" jigsaw"),
        }
        if self.diagonal {
            s.push_str(", diagonal");
        }
        if self.windoku {
            s.push_str(", windoku");
        }
        s
    }
}

/// A cell's name for messages: `r3c7` (1-based).
pub fn cell_name(size: usize, cell: usize) -> String {
    format!("r{}c{}", cell / size + 1, cell % size + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_and_units() {
        let r = Rules::standard(9).unwrap();
        assert!(r.is_standard_9x9());
        assert_eq!(r.units().len(), 27);
        assert_eq!(r.region_of(80), 8);
        assert_eq!(r.region_of(30), 4);
        let r = Rules::standard(6).unwrap();
        assert_eq!(r.regions(), &Regions::Boxes { rows: 2, cols: 3 });
        assert_eq!(r.region_of(3), 1);
        assert_eq!(r.region_of(6 * 2), 2);
        assert_eq!(default_boxes(12), Some((3, 4)));
        assert_eq!(default_boxes(16), Some((4, 4)));
        assert_eq!(default_boxes(7), None);
        assert!(Rules::boxed(9, 2, 4).is_err());
        let r = Rules::standard(9)
            .unwrap()
            .with_diagonal()
            .with_windoku()
            .unwrap();
        assert_eq!(r.units().len(), 27 + 2 + 4);
        for u in r.units() {
            assert_eq!(u.cells.len(), 9, "{}", u.kind);
        }
        assert!(Rules::standard(4).unwrap().with_windoku().is_err());
    }

    /// The units made once per thread are those of the rules asked, when
    /// the rules change from one call to the next; each region's cells are
    /// those `region_of` says, in order.
    #[test]
    fn shared_units_follow_the_rules() {
        let all = [
            Rules::standard(9).unwrap(),
            Rules::standard(6).unwrap(),
            Rules::boxed(6, 3, 2).unwrap(),
            Rules::standard(9).unwrap().with_diagonal(),
            Rules::standard(9).unwrap().with_windoku().unwrap(),
            Rules::jigsaw(4, "AABB AABB CCDD CCDD").unwrap(),
            Rules::jigsaw(4, "AAAB ABBB CCCD CDDD").unwrap(),
            Rules::standard(25).unwrap(),
        ];
        for _ in 0..2 {
            for r in all.iter().chain(all.iter().rev()) {
                let units = r.shared_units();
                assert_eq!(&units[..], &r.units()[..], "{}", r.describe());
                let n = r.size();
                for (g, u) in units[2 * n..3 * n].iter().enumerate() {
                    let want: Vec<usize> = (0..n * n).filter(|&i| r.region_of(i) == g).collect();
                    assert_eq!(u.cells, want, "{}: region {g}", r.describe());
                }
            }
        }
    }

    #[test]
    fn jigsaw_checks() {
        let map = "AABB AABB CCDD CCDD";
        let r = Rules::jigsaw(4, map).unwrap();
        assert_eq!(r.region_of(0), 0);
        assert_eq!(r.region_of(15), 3);
        assert!(matches!(
            Rules::jigsaw(4, "AAAB AABB CCDD CCDD"),
            Err(RulesError::JigsawRegionSize { name: 'A', .. })
        ));
        assert!(matches!(
            Rules::jigsaw(4, "ABAB BABA CCDD CCDD"),
            Err(RulesError::JigsawDisconnected('A'))
        ));
        assert!(matches!(
            Rules::jigsaw(4, "AABB"),
            Err(RulesError::JigsawLength { .. })
        ));
    }
}
