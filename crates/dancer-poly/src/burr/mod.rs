//! BurrTools' puzzle files (`.xmpuzzle`): read, write, and turn into
//! dancer puzzles and back.
//!
//! BurrTools keeps a design as a gzipped XML file: the grid
//! (`<gridType type=N>`: 0 cubes, 1 triangular prisms, 2 packed spheres, 3
//! rhombic dodecahedra, 4 tetra-octa), a palette of colours, the shapes
//! (`<voxel x= y= z=>` with one character a cell: `_` empty, `#` filled, `+`
//! variable, each optionally followed by a colour number) and the problems:
//! which shapes are pieces and how many times each is used (`count`, or a
//! range `min`..`max`), which shape is the result, at most how many
//! variable cells may stay empty (`maxHoles`), which piece colours may sit
//! on which result colours, the piece groups that may stay together when
//! the puzzle is taken apart, and what BurrTools found (assemblies,
//! solutions, time, the solutions it kept).
//!
//! # Data
//!
//! [`BurrFile`] is the file as it stands, in BurrTools' own coordinates
//! and numbers (shapes and colours by index, voxels in their shape's box:
//! index `x + sx * (y + sy * z)`); [`read`] checks everything it keeps, and
//! refuses what it does not understand at the element's line, so that no
//! problem is ever silently changed. [`BurrFile::puzzle`] turns one problem
//! into a [`PolyPuzzle`](crate::PolyPuzzle) on the matching grid ([`crate::grid::prism`] and
//! [`crate::grid::sphere`] say how voxels map to cells): the result's `#`
//! cells are the board, its `+` cells the board's optional cells, each
//! problem shape a piece turned by rotations only (BurrTools never turns a
//! piece over), used as many times as the problem says. [`from_puzzle`]
//! goes the other way, and [`write()`] writes a file, gzipped, that
//! [`read`] reads back to the same puzzle.
//!
//! Invariants of a [`BurrFile`] that [`read`] makes sure of: every shape
//! index of a problem names a shape; every voxel is inside its box, a cell
//! of the grid (spheres: `x + y + z` even), and its colour is at most the
//! palette's length; `min <= max` for every part; a part's groups add up to
//! at most its `max`.

mod apart;
mod convert;
mod read;
mod write;

#[cfg(test)]
mod tests;

pub use apart::{instance_names, Apart, TakeApart, Undecided, MAX_STATES, MAX_STATE_BYTES};
pub use convert::from_puzzle;
pub use read::{
    read, read_with, ReadLimits, MAX_FILE_BYTES, MAX_XML_ATTRIBUTES, MAX_XML_DEPTH, MAX_XML_NODES,
};
pub use write::{write, xml};

use crate::puzzle::{Location, PolyError};

/// BurrTools' grids, by the number of `<gridType type=N>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BurrGrid {
    /// 0: cubes.
    Cubes,
    /// 1: triangular prisms.
    Prisms,
    /// 2: packed spheres (face-centred cubic).
    Spheres,
    /// 3: rhombic dodecahedra, cut into rhombic tetrahedra.
    Rhombic,
    /// 4: tetrahedra and octahedra.
    TetraOcta,
}

impl BurrGrid {
    /// The grid of `<gridType type=N>`.
    pub fn of_number(n: i64) -> Option<BurrGrid> {
        Some(match n {
            0 => BurrGrid::Cubes,
            1 => BurrGrid::Prisms,
            2 => BurrGrid::Spheres,
            3 => BurrGrid::Rhombic,
            4 => BurrGrid::TetraOcta,
            _ => return None,
        })
    }

    /// Its number in the file.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// Its name in words (BurrTools' own).
    pub fn name(self) -> &'static str {
        match self {
            BurrGrid::Cubes => "cubes",
            BurrGrid::Prisms => "triangular prisms",
            BurrGrid::Spheres => "spheres",
            BurrGrid::Rhombic => "rhombic dodecahedra",
            BurrGrid::TetraOcta => "tetrahedra-octahedra",
        }
    }

    /// Whether BurrTools takes assemblies apart on this grid (cubes and
    /// prisms only).
    pub fn disassembles(self) -> bool {
        matches!(self, BurrGrid::Cubes | BurrGrid::Prisms)
    }
}

/// One filled or variable cell of a shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BurrVoxel {
    /// Its place in the shape's box.
    pub at: [i32; 3],
    /// `+`: may stay empty (meaningful in a result shape).
    pub variable: bool,
    /// 0: no colour; else the palette's colour number (from 1).
    pub colour: u8,
}

/// A shape of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BurrShape {
    /// Its name, when it has one.
    pub name: Option<String>,
    /// Its box: `x`, `y`, `z`.
    pub size: [i32; 3],
    /// Its filled and variable cells, in the file's order.
    pub voxels: Vec<BurrVoxel>,
    /// `weight` (1 when not given).
    pub weight: i32,
    /// The hotspot (`hx`, `hy`, `hz`).
    pub hotspot: [i32; 3],
    /// Where its `<voxel>` element is.
    pub at: Location,
}

/// A piece of a problem: a shape used between `min` and `max` times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BurrPart {
    /// The shape's index.
    pub shape: usize,
    pub min: u32,
    pub max: u32,
    /// (group, count): copies that belong to a group (groups from 1; those
    /// of one group may stay together when the puzzle comes apart).
    pub groups: Vec<(u32, u32)>,
    /// Where its `<shape>` element is.
    pub at: Location,
}

/// What BurrTools found for a problem, as the file says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BurrFound {
    /// `assemblies`.
    pub assemblies: u64,
    /// `solutions`, when given.
    pub solutions: Option<u64>,
    /// `time` in seconds, when given.
    pub seconds: Option<u64>,
}

/// A problem of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BurrProblem {
    pub name: Option<String>,
    pub parts: Vec<BurrPart>,
    /// The result shape's index.
    pub result: usize,
    /// At most this many variable cells of the result stay empty.
    pub max_holes: Option<u32>,
    /// The (piece colour, result colour) pairs allowed, as the file has
    /// them: palette indices from 0 (colour `k` of a voxel is index `k -
    /// 1`; a voxel without colour fits any).
    pub colour_pairs: Vec<(u8, u8)>,
    /// What BurrTools found, when the problem was solved (`state` 2) or
    /// is being solved (1).
    pub found: Option<BurrFound>,
    /// The number of solutions the file keeps.
    pub kept: usize,
    /// Where its `<problem>` element is.
    pub at: Location,
}

impl BurrProblem {
    /// Its name, or `problem N` (N from 1) when it has none.
    pub fn title(&self, n: usize) -> String {
        match &self.name {
            Some(s) if !s.trim().is_empty() => s.clone(),
            _ => format!("problem {}", n + 1),
        }
    }
}

/// A BurrTools file: see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BurrFile {
    /// The file's name, for errors.
    pub file: String,
    pub grid: BurrGrid,
    /// Where its `<gridType>` is (the root element when it has none).
    pub grid_at: Location,
    /// The palette: colour `k` (from 1) is `colours[k - 1]`, as red,
    /// green, blue.
    pub colours: Vec<[u8; 3]>,
    pub shapes: Vec<BurrShape>,
    pub problems: Vec<BurrProblem>,
    /// The comment, when there is one.
    pub comment: Option<String>,
}

impl BurrFile {
    /// The problem a user names: a number from 1, or a name (exactly as
    /// written, else ignoring case); `None` names the first. A number is
    /// the problem of that number whenever there is one, also when another
    /// problem is named so ([`BurrFile::also_named`] finds it; that one is
    /// named by its own number); a number past the last problem is a name.
    pub fn problem_index(&self, spec: Option<&str>) -> Result<usize, String> {
        let n = self.problems.len();
        if n == 0 {
            return Err("the file has no problem".into());
        }
        let Some(spec) = spec else { return Ok(0) };
        let titles: Vec<String> = (0..n).map(|i| self.problems[i].title(i)).collect();
        if let Some(i) = self.numbered(spec) {
            return Ok(i);
        }
        if let Some(i) = titles.iter().position(|t| t == spec) {
            return Ok(i);
        }
        if let Ok(k) = spec.trim().parse::<u64>() {
            return Err(format!(
                "no problem {k}: the file has {}, numbered from 1",
                crate::puzzle::counted(n as u64, "problem", "problems")
            ));
        }
        if let Some(i) = titles.iter().position(|t| t.eq_ignore_ascii_case(spec)) {
            return Ok(i);
        }
        Err(format!(
            "no problem named {spec:?}: the file's problems are {}",
            titles
                .iter()
                .map(|t| format!("{t:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }

    /// The problem `spec` names by its number, when it is a number from 1
    /// to the number of problems.
    fn numbered(&self, spec: &str) -> Option<usize> {
        let k = usize::try_from(spec.trim().parse::<u64>().ok()?).ok()?;
        (1..=self.problems.len()).contains(&k).then(|| k - 1)
    }

    /// When `spec` chose a problem by its number
    /// ([`BurrFile::problem_index`]): another problem whose name is `spec`,
    /// which it did not choose (to be named by its own number).
    pub fn also_named(&self, spec: &str) -> Option<usize> {
        let chosen = self.numbered(spec)?;
        (0..self.problems.len())
            .find(|&i| i != chosen && self.problems[i].name.as_deref() == Some(spec))
    }
}

/// Whether bytes look like a BurrTools file rather than a puzzle file
/// (TOML): gzipped, or XML.
pub fn is_burr_file(bytes: &[u8]) -> bool {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        return true;
    }
    let start = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    start.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'<')
}

/// Whether a file's name says it is a BurrTools file (`.xmpuzzle`, in any
/// case): such a file is read as one whatever it holds (an empty one is
/// an empty BurrTools file, not a puzzle file).
pub fn is_burr_name(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xmpuzzle"))
}

/// A BurrTools file's problem as a puzzle: the file, the problem's index
/// and the puzzle. `problem` names it as [`BurrFile::problem_index`] reads
/// it (the first when `None`).
pub fn load(
    bytes: &[u8],
    file: &str,
    problem: Option<&str>,
) -> Result<(BurrFile, usize, crate::PolyPuzzle), PolyError> {
    let f = read(bytes, file)?;
    let index = f
        .problem_index(problem)
        .map_err(|message| PolyError::File {
            at: Location {
                file: file.to_string(),
                line: 1,
                col: 1,
            },
            message,
        })?;
    let puzzle = f.puzzle(index)?;
    Ok((f, index, puzzle))
}

impl BurrFile {
    /// A record for each problem (`dancer poly problems`).
    pub fn problem_records(&self) -> Vec<dancer_formats::ndjson::BurrProblemRecord> {
        let shape_name = |i: usize| match &self.shapes[i].name {
            Some(n) if !n.trim().is_empty() => n.clone(),
            _ => format!("S{}", i + 1),
        };
        (self.problems.iter().enumerate())
            .map(|(i, p)| {
                let result = &self.shapes[p.result];
                dancer_formats::ndjson::BurrProblemRecord {
                    number: i + 1,
                    name: p.title(i),
                    grid: self.grid.name().to_string(),
                    pieces: p.parts.len(),
                    copies_min: p.parts.iter().map(|q| u64::from(q.min)).sum(),
                    copies_max: p.parts.iter().map(|q| u64::from(q.max)).sum(),
                    result: shape_name(p.result),
                    cells: result.voxels.len(),
                    optional: result.voxels.iter().filter(|v| v.variable).count(),
                    assemblies: p.found.map(|f| f.assemblies),
                    solutions: p.found.and_then(|f| f.solutions),
                }
            })
            .collect()
    }
}
