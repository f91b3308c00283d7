//! Whether a burr puzzle's assembly comes apart, and how: the
//! disassembler of BurrTools, written again, with the same answers (whether
//! an assembly comes apart, the moves of each step, the level such as
//! `98.2.4.2` for Stewart Coffin's Pelikan burr).
//!
//! # The state
//!
//! The pieces keep their orientation; a state is where each piece stands,
//! as its offset from its place in the assembly. Only the pieces' places
//! relative to each other matter (sliding all of them together is no
//! move), so the search stores a state as the offsets of pieces `1..n`
//! relative to piece 0, sixteen bits a number, and compares and hashes
//! those.
//!
//! # The moves
//!
//! A move slides a set of pieces along one direction of the grid, by one
//! or more whole cells at once; sliding by 3 cells is one move, as it is
//! in BurrTools. Cubes have the directions `±x`, `±y`, `±z`; triangular
//! prisms, in BurrTools' voxel coordinates (`x` counts half-triangles
//! along a row, `y` grows upwards, a prism points up when `x + y` is even),
//! have `±(0, 0, 1)` (up a layer), `±(2, 0, 0)` (along the row) and
//! `±(1, 1, 0)`, `±(-1, 1, 0)` (the slanting rows), a one-cell step each.
//! A piece is blocked by another when a cell its step needs is the
//! other's: the cell it moves into, and on prisms the triangle it passes
//! over on the way (`blocking.rs`). Which sets move, and in which order
//! they are tried, follow BurrTools' movement analysis (`analysis.rs`): a
//! piece pushes the pieces in its way, a set of at most half the pieces
//! slides, two slides of the same distance in one direction merge. A set
//! that slides for ever is removed: the part falls in two, the pieces
//! removed and the pieces left. Of a move's two sides the one with the
//! heaviest piece stays and the other moves the opposite way
//! ([`Assembly::weights`], BurrTools' shape weights), which decides which
//! pieces a removal takes away.
//!
//! Directions are numbered as BurrTools numbers them, `2 axis + sign`
//! (axes in the order above, the positive sense first), and pieces in the
//! order of [`Assembly::pieces`]; the order matters, since it decides which
//! of several shortest ways is found, and so the parts and the level.
//!
//! # The search
//!
//! Breadth first from the assembled state (`search.rs`), each state's
//! moves looked at in order: the first removal found ends the search of
//! the part. Breadth first, because that finds the fewest moves to the
//! first separation, which is what a puzzle's level counts, and because
//! it is BurrTools' search: a depth-first or best-first search would find
//! other (longer, or equally short but other) ways and other levels. Then
//! each part of more than one piece is disassembled the same way from where
//! it stands, the part left behind first, unless all its pieces belong to
//! one group ([`Assembly::groups`]); when a part does not come apart the
//! whole assembly does not (BurrTools tries no other first separation).
//!
//! BurrTools keeps only the last three levels of visited states; moves are
//! reversible (a set's slide back is the rest's slide on, and every slide
//! is found, `analysis.rs`), so the states a move reaches lie on the
//! level before, the same level or the next, and three levels tell the
//! same new states, in the same order, as all levels do. This search keeps
//! all of them, so that the way back to the start is at hand; a state
//! costs about `6 n + 20` bytes for `n` pieces.
//!
//! The distances pieces slide past each other are worked out from their
//! voxels once per pair of shapes and relative place and kept: a
//! [`Disassembler`] keeps them from one assembly to the next, as BurrTools
//! keeps its movement cache for a whole problem.
//!
//! Not covered: a piece in several groups (BurrTools then counts the
//! pieces of each group a part may hold); levels longer than the 200
//! characters BurrTools' text has room for are written whole.
//!
//! # Invariants
//!
//! * A state's offsets fit in 16 bits relative to piece 0 (else
//!   [`DisassemblyError::TooFar`]); a search holds at most `max_states`
//!   states (else [`DisassemblyError::TooManyStates`]); the cache of
//!   blocking distances is bounded and starts again when full.
//! * Every move of a tree slides pieces that do not overlap each other at
//!   any cell of the way, and a removal's pieces end beyond the rest along
//!   its direction; the tests check every tree they make so
//!   (`check.rs`, which shares no code with the search).
//! * A separation's first state is where its pieces stood when its parent
//!   removed them, or the assembly (all zero) for the root.

mod analysis;
mod blocking;
#[cfg(test)]
mod check;
mod search;
#[cfg(test)]
mod tests;

use blocking::{Library, CUBES, PRISMS};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

/// The grids whose assemblies can be disassembled (BurrTools' grid types 0
/// and 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveGrid {
    /// Cubes (grid type 0).
    Cubes,
    /// Triangular prisms (grid type 1), in BurrTools' voxel coordinates.
    Prisms,
}

/// An assembly to take apart: every placed piece's voxels where the
/// assembly puts them, in BurrTools' voxel coordinates.
#[derive(Debug, Clone, Copy)]
pub struct Assembly<'a> {
    /// The grid.
    pub grid: MoveGrid,
    /// Each placed piece's voxels, in the order BurrTools numbers the
    /// placed pieces (the order decides which shortest way is found).
    pub pieces: &'a [Vec<[i32; 3]>],
    /// Per piece its group, 0 for none; a part whose pieces all share one
    /// nonzero group need not come apart. Empty: no groups.
    pub groups: &'a [u32],
    /// Per piece its weight (BurrTools' shape weight, 1 by default): of
    /// a move's two sides, the one holding the heaviest piece stays put
    /// (on a tie, the side the analysis found moves). Empty: all alike.
    pub weights: &'a [i32],
    /// Per piece a name for its voxels as placed, or empty: none. Pieces
    /// of this or any later assembly given the same key must have the
    /// same voxels (a solver's placement numbers); the disassembler then
    /// looks each placed shape up once, not once an assembly.
    pub keys: &'a [u64],
}

/// How an assembly comes apart: the tree of separations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disassembly {
    /// The first separation, from the assembled state.
    pub root: Separation,
}

/// One part's moves until it falls in two, and how each of the two comes
/// apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Separation {
    /// The part's pieces (indices into [`Assembly::pieces`], in order).
    pub pieces: Vec<usize>,
    /// Each piece's offset from its place in the assembly, one list per
    /// state: the part's first state, then one after each move (the last
    /// after the removal, the removed pieces clear of the rest).
    pub states: Vec<Vec<[i32; 3]>>,
    /// The moves; the last one removes.
    pub moves: Vec<Move>,
    /// How the pieces left behind come apart; `None` when they are one
    /// piece or one group.
    pub left: Option<Box<Separation>>,
    /// How the removed pieces come apart; `None` when they are one piece
    /// or one group.
    pub removed: Option<Box<Separation>>,
}

/// A set of pieces sliding along one direction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    /// The moving pieces (indices into [`Assembly::pieces`], in order).
    pub pieces: Vec<usize>,
    /// A one-cell step of the direction, in voxel coordinates (prisms
    /// along the row: `[±2, 0, 0]`).
    pub direction: [i32; 3],
    /// How many steps; for a removal, enough to take the pieces clear of
    /// the rest (they could go on for ever).
    pub distance: u32,
    /// Whether this move separates the part.
    pub removes: bool,
}

impl Move {
    /// The whole slide, `distance` steps of `direction`.
    pub fn by(&self) -> [i32; 3] {
        let d = i32::try_from(self.distance).unwrap_or(i32::MAX);
        self.direction.map(|c| c.saturating_mul(d))
    }
}

/// Why an assembly could not be looked at.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DisassemblyError {
    /// Fewer than two pieces: nothing to take apart (BurrTools counts such
    /// an assembly a solution without a disassembly).
    #[error(
        "an assembly of {} has nothing to take apart",
        dancer_core::plural(pieces, "piece", "pieces")
    )]
    TooFewPieces {
        /// The pieces given.
        pieces: usize,
    },
    /// More pieces than the disassembler handles.
    #[error("{pieces} pieces are more than the {limit} the disassembler handles")]
    TooManyPieces {
        /// The pieces given.
        pieces: usize,
        /// The most it handles.
        limit: usize,
    },
    /// Groups or weights given, but not one per piece.
    #[error("{what} given for {given} pieces, but the assembly has {pieces}")]
    NotPerPiece {
        /// `"groups"` or `"weights"`.
        what: &'static str,
        /// How many were given.
        given: usize,
        /// How many pieces there are.
        pieces: usize,
    },
    /// A piece without voxels.
    #[error("piece {piece} has no voxels")]
    EmptyPiece {
        /// Its index.
        piece: usize,
    },
    /// A voxel beyond the coordinates the disassembler handles.
    #[error("piece {piece} has a voxel beyond +-{limit}")]
    OutOfRange {
        /// Its index.
        piece: usize,
        /// The bound on every coordinate.
        limit: i32,
    },
    /// Two pieces share a voxel.
    #[error("pieces {first} and {second} share the voxel {at:?}")]
    Overlap {
        /// The first piece's index.
        first: usize,
        /// The second's.
        second: usize,
        /// The voxel.
        at: [i32; 3],
    },
    /// A move took a piece further from another than states hold.
    #[error("pieces slide more than 32767 cells apart")]
    TooFar,
    /// One search met more states than allowed.
    #[error("the disassembly met more than {limit} states in one search")]
    TooManyStates {
        /// The bound given.
        limit: usize,
    },
    /// The cancel flag was raised.
    #[error("cancelled")]
    Cancelled,
}

/// The most pieces an assembly may have (a set of pieces is 128 bits).
pub const MAX_PIECES: usize = 128;

/// The bound on every voxel coordinate (either sign).
pub const MAX_COORDINATE: i32 = 1 << 16;

/// A bound on the states of one search: some four million, a few hundred
/// megabytes for a dozen pieces (the examples BurrTools ships need a few
/// thousand).
pub const DEFAULT_MAX_STATES: usize = 1 << 22;

impl Disassembly {
    /// The level as BurrTools writes it: the moves of the first
    /// separation, then `.` and the level of the part left behind and `.`
    /// and the level of the removed part, each only when some separation
    /// within it takes more than one move (`separation_c::movesText2`).
    pub fn level(&self) -> String {
        let mut text = String::new();
        level_into(&self.root, &mut text);
        text
    }

    /// All moves of all separations, removals included.
    pub fn moves(&self) -> usize {
        count_moves(&self.root)
    }
}

fn count_moves(s: &Separation) -> usize {
    s.moves.len()
        + s.left.as_deref().map_or(0, count_moves)
        + s.removed.as_deref().map_or(0, count_moves)
}

fn multi_moves(s: &Separation) -> bool {
    s.moves.len() > 1
        || s.left.as_deref().is_some_and(multi_moves)
        || s.removed.as_deref().is_some_and(multi_moves)
}

fn level_into(s: &Separation, text: &mut String) {
    text.push_str(&s.moves.len().to_string());
    for part in [&s.left, &s.removed].into_iter().flatten() {
        if multi_moves(part) {
            text.push('.');
            level_into(part, text);
        }
    }
}

/// Take an assembly apart as BurrTools does: `None` when it does not come
/// apart. `cancel`, when raised, stops the search; `max_states` bounds the
/// states of each part's search (see [`DEFAULT_MAX_STATES`]). To take
/// several assemblies of one puzzle apart, a [`Disassembler`] keeps what it
/// learns about their pieces from one to the next.
///
/// ```
/// use dancer_poly::disassembly::{disassemble, Assembly, MoveGrid};
/// let pieces = vec![vec![[0, 0, 0]], vec![[1, 0, 0]]];
/// let a = Assembly { grid: MoveGrid::Cubes, pieces: &pieces, groups: &[], weights: &[], keys: &[] };
/// let d = disassemble(&a, None, 1000).unwrap().unwrap();
/// assert_eq!(d.level(), "1");
/// ```
pub fn disassemble(
    a: &Assembly,
    cancel: Option<&AtomicBool>,
    max_states: usize,
) -> Result<Option<Disassembly>, DisassemblyError> {
    Disassembler::new().disassemble(a, cancel, max_states)
}

/// The voxels of the pieces, counted once each, or the first overlap
/// (in the order of the voxels) as an error.
fn overlap(pieces: &[Vec<[i32; 3]>]) -> Result<usize, DisassemblyError> {
    let mut cells: Vec<([i32; 3], usize)> = (pieces.iter().enumerate())
        .flat_map(|(piece, voxels)| voxels.iter().map(move |&v| (v, piece)))
        .collect();
    cells.sort_unstable();
    cells.dedup();
    if let Some(w) = cells.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(DisassemblyError::Overlap {
            first: w[0].1,
            second: w[1].1,
            at: w[0].0,
        });
    }
    Ok(cells.len())
}

/// Takes assemblies apart, keeping the pieces' shapes and the distances
/// they slide past each other (by shape and relative place) from one
/// assembly to the next, as BurrTools keeps its movement cache for a
/// problem: the assemblies of one puzzle share their pieces. What it
/// keeps is bounded; it starts again when full.
#[derive(Debug)]
pub struct Disassembler {
    grid: Option<MoveGrid>,
    library: Library,
    /// A bit per cell of the assembly's box, to find overlaps; clear
    /// between calls.
    seen: Vec<u64>,
    /// The searches' lists, kept from one part and assembly to the next.
    spare: search::Spare,
    /// The shapes of pieces by their [`Assembly::keys`], while the
    /// library keeps them (its [`Library::generation`]).
    keyed: HashMap<u64, (u32, [i32; 3]), blocking::Mix>,
    keyed_generation: u64,
}

impl std::fmt::Debug for Library {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Library({} shapes)", self.shapes.len())
    }
}

impl Default for Disassembler {
    fn default() -> Self {
        Disassembler::new()
    }
}

impl Disassembler {
    /// A disassembler that knows no pieces yet.
    pub fn new() -> Disassembler {
        Disassembler {
            grid: None,
            library: Library::new(),
            seen: Vec::new(),
            spare: search::Spare::default(),
            keyed: HashMap::default(),
            keyed_generation: 0,
        }
    }

    /// The number of voxels of the pieces when no voxel comes twice and
    /// their box (from `lo` to `hi`) is small enough to mark its cells;
    /// None otherwise (see [`overlap`]).
    fn overlap_free(
        &mut self,
        pieces: &[Vec<[i32; 3]>],
        lo: [i32; 3],
        hi: [i32; 3],
    ) -> Option<usize> {
        const MOST_CELLS: i64 = 1 << 24;
        let size: Vec<i64> = (0..3).map(|c| i64::from(hi[c] - lo[c]) + 1).collect();
        if size[0] * size[1] * size[2] > MOST_CELLS {
            return None;
        }
        let words = (size[0] * size[1] * size[2]) as usize / 64 + 1;
        if self.seen.len() < words {
            self.seen.resize(words, 0);
        }
        let at = |v: &[i32; 3]| {
            let i = (i64::from(v[0] - lo[0]) * size[1] + i64::from(v[1] - lo[1])) * size[2]
                + i64::from(v[2] - lo[2]);
            (i as usize / 64, 1u64 << (i % 64))
        };
        // a voxel met twice (an overlap, or one listed twice in a piece)
        // is left to the exact test
        let mut again = false;
        for v in pieces.iter().flatten() {
            let (w, bit) = at(v);
            again |= self.seen[w] & bit != 0;
            self.seen[w] |= bit;
        }
        for v in pieces.iter().flatten() {
            self.seen[at(v).0] = 0;
        }
        (!again).then(|| pieces.iter().map(Vec::len).sum())
    }

    /// Take an assembly apart: see [`disassemble`].
    pub fn disassemble(
        &mut self,
        a: &Assembly,
        cancel: Option<&AtomicBool>,
        max_states: usize,
    ) -> Result<Option<Disassembly>, DisassemblyError> {
        let n = a.pieces.len();
        if n < 2 {
            return Err(DisassemblyError::TooFewPieces { pieces: n });
        }
        if n > MAX_PIECES {
            return Err(DisassemblyError::TooManyPieces {
                pieces: n,
                limit: MAX_PIECES,
            });
        }
        for (what, given) in [("groups", a.groups.len()), ("weights", a.weights.len())] {
            if given != 0 && given != n {
                return Err(DisassemblyError::NotPerPiece {
                    what,
                    given,
                    pieces: n,
                });
            }
        }
        let (mut lo, mut hi) = ([i32::MAX; 3], [i32::MIN; 3]);
        for (piece, voxels) in a.pieces.iter().enumerate() {
            if voxels.is_empty() {
                return Err(DisassemblyError::EmptyPiece { piece });
            }
            for &v in voxels {
                // unsigned: i32::MIN's abs() would wrap (or panic)
                if v.iter()
                    .any(|c| c.unsigned_abs() > MAX_COORDINATE.unsigned_abs())
                {
                    return Err(DisassemblyError::OutOfRange {
                        piece,
                        limit: MAX_COORDINATE,
                    });
                }
                for c in 0..3 {
                    (lo[c], hi[c]) = (lo[c].min(v[c]), hi[c].max(v[c]));
                }
            }
        }
        let total = match self.overlap_free(a.pieces, lo, hi) {
            Some(total) => total,
            None => overlap(a.pieces)?,
        };
        if self.grid != Some(a.grid) {
            self.library.clear();
            self.grid = Some(a.grid);
        }
        let (axes, prisms): (&'static [blocking::Axis], bool) = match a.grid {
            MoveGrid::Cubes => (&CUBES, false),
            MoveGrid::Prisms => (&PRISMS, true),
        };
        self.library.make_room(n, total);
        if a.keys.len() != n {
            self.keyed.clear();
        } else if self.keyed_generation != self.library.generation() {
            self.keyed.clear();
            self.keyed_generation = self.library.generation();
        }
        let (library, keyed) = (&mut self.library, &mut self.keyed);
        let placed = (a.pieces.iter().enumerate())
            .map(|(i, v)| match a.keys.get(i) {
                Some(&k) => *keyed
                    .entry(k)
                    .or_insert_with(|| library.shape_of(v, axes, prisms)),
                None => library.shape_of(v, axes, prisms),
            })
            .collect();
        let mut context = search::Context {
            axes,
            voxels: a.pieces,
            placed,
            groups: a.groups,
            weights: a.weights,
            library: &mut self.library,
            spare: &mut self.spare,
            cancel,
            max_states: max_states.clamp(1, u32::MAX as usize),
            looked: 0,
        };
        let pieces: Vec<usize> = (0..n).collect();
        let start = vec![[0; 3]; n];
        let r = context.part(&pieces, &start)?;
        Ok(r.map(|root| Disassembly { root }))
    }
}
