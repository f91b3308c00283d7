//! A puzzle as exact cover, its symmetries, and the search.
//!
//! # The exact cover problem
//!
//! Items: every board cell (primary), and for each piece type one primary
//! item, to be covered as many times as the piece is to be used: exactly
//! once, exactly `k` times, or between `a` and `b` times (multiplicities, as
//! in Knuth's DLX3); a secondary item for a piece used at most once (as
//! Knuth writes a piece that may be left out: the same solutions, and the
//! search never branches on it); none when any number may be used, or when
//! there is one piece type only (then the board's cells alone say when it
//! is full).
//! Options: every placement of every piece (each orientation its group
//! allows, at every position where it fits). Copies of a piece are never
//! numbered, so identical pieces are never told apart and nothing is
//! counted twice.
//!
//! # Symmetry
//!
//! The puzzle's symmetries are the board's symmetries that map the piece
//! set onto itself (a reflection maps a one-sided piece to its mirror
//! image, which must be a piece of the same count). Two ways to count up to
//! symmetry, cross-checked in the tests:
//!
//! * **canonical forms**: search everything; a solution is the
//!   representative of its class when no symmetry maps it to a smaller one
//!   (solutions compared as cell-by-cell labellings);
//! * **symmetry breaking**: restrict one piece's placements (as Knuth
//!   restricts the X pentomino) or the placements that cover one cell (as
//!   the corner piece of a cube) to one per orbit, so that every class still
//!   has a member in the smaller search; then keep a found solution only if
//!   no symmetry maps it to a smaller one that the restricted search could
//!   also have found. Each kept solution stands for `|G| / |stabiliser|`
//!   solutions, which gives the total without searching for it.
//!
//! # Files
//!
//! This file builds the model (placements, items, symmetries, the
//! restriction that breaks symmetry); the problem searched has the cells
//! that the same options cover as one item ([`Model::search_cover`]);
//! `classes.rs` tells classes apart; `prune.rs` removes placements that
//! fit in no solution (BurrTools files); `search.rs` runs the search on
//! one thread or many and counts; `output.rs` turns a solution into what
//! front ends print: records, text, pictures' input.

use crate::grid::{Cell, GridSymmetry};
use crate::puzzle::{counted, Copies, PolyError, PolyPuzzle, UniqueUnder};
use dancer_core::{EngineKind, Problem, ProblemBuilder};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

mod classes;
mod images;
mod output;
mod prune;
mod search;

use images::Images;

pub use output::colour_numbers;

/// A piece placed on the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Index of the piece type in the puzzle.
    pub piece: usize,
    /// Board cell indices, sorted.
    pub cells: Vec<usize>,
}

/// A symmetry of the puzzle.
#[derive(Clone, Debug)]
pub struct Symmetry {
    /// Board cell `i` goes to `perm[i]`.
    pub perm: Vec<usize>,
    /// The inverse of `perm`: board cell `j` comes from `inverse[j]`.
    pub inverse: Vec<usize>,
    /// Piece type `p` goes to `sigma[p]`.
    pub sigma: Vec<usize>,
    pub transform: GridSymmetry,
    /// Every cell and every piece type stays where it is.
    pub identity: bool,
}

/// What the symmetry breaking restricts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Restriction {
    /// The placements of this piece type (used exactly once).
    Piece(usize),
    /// The placements covering this board cell.
    Cell(usize),
}

/// How to search.
#[derive(Clone, Debug)]
pub struct Options {
    /// The engine; `Auto` (the default) is [`dancer_core::choose_engine`]'s
    /// pick for the exact cover problem. An engine that cannot take the
    /// problem (the bitset engine with pieces used several times, which
    /// make multiplicities) is refused, not replaced.
    pub engine: EngineKind,
    /// Break symmetry before the search (else canonicalise every solution).
    pub symmetry_breaking: bool,
    /// Stop after this many solutions reported to `emit`: exactly this many
    /// (fewer when there are fewer), one per class with `unique`. With
    /// symmetry breaking a class found is reported as its members one by
    /// one, and the search stops at the limit inside a class too. `Some(0)`
    /// reports nothing and does not search.
    pub limit: Option<u64>,
    /// Report only one solution per symmetry class.
    pub unique: bool,
    pub cancel: Option<Arc<AtomicBool>>,
    /// Worker threads (1: the plain sequential search). The solutions reach
    /// `emit` in the same order either way.
    pub threads: usize,
    /// Counters kept up to date as the search goes, for another thread to
    /// read (a web page's progress bar); sequential searches only.
    pub live: Option<Arc<Live>>,
}

/// How far a running search is, updated every [`Live::EVERY`] nodes: its
/// nodes so far and the estimated fraction of its tree explored (the
/// engine's [`dancer_core::Engine::position`]).
#[derive(Debug, Default)]
pub struct Live {
    nodes: AtomicU64,
    /// The fraction's bits (0: none yet).
    position: AtomicU64,
}

impl Live {
    /// Nodes between two updates.
    pub const EVERY: u64 = 1 << 12;

    /// Nodes so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The estimated fraction explored, 0.0 to 1.0.
    pub fn position(&self) -> f64 {
        f64::from_bits(self.position.load(Ordering::Relaxed))
    }

    fn set(&self, nodes: u64, position: f64) {
        self.nodes.store(nodes, Ordering::Relaxed);
        self.position
            .store(position.clamp(0.0, 1.0).to_bits(), Ordering::Relaxed);
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            engine: EngineKind::Auto,
            symmetry_breaking: true,
            limit: None,
            unique: false,
            cancel: None,
            threads: 1,
            live: None,
        }
    }
}

/// The result of a search.
///
/// When the search is complete, `total` and `unique` are the puzzle's
/// counts. When it stopped at a limit, they count what was found until then:
/// without `unique`, `total` is exactly the number of solutions reported;
/// with `unique`, `unique` is the number of classes reported and `total` the
/// solutions in them (or, without symmetry breaking, the solutions met).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// All solutions (see above when incomplete).
    pub total: u64,
    /// Solutions up to symmetry: classes of solutions that the puzzle's
    /// symmetries map onto each other.
    pub unique: u64,
    /// Search nodes (of the engine's tree).
    pub nodes: u64,
    pub complete: bool,
    /// The engine that ran.
    pub engine: Option<EngineKind>,
}

/// A puzzle ready to search.
pub struct Model {
    pub puzzle: PolyPuzzle,
    pub placements: Vec<Placement>,
    /// The images of the placements under the symmetries, found once.
    images: Images,
    pub symmetries: Vec<Symmetry>,
    /// Per piece: its item's bounds (least, most), or None when it has no
    /// item.
    copies: Vec<Option<(u32, u32)>>,
    /// The crossing items of an edge grid (see [`crate::grid::edges`]):
    /// the points (and directions) that two placements claim, by name.
    crossing_items: Vec<String>,
    /// Per placement, the crossing items it covers.
    crossings: Vec<Vec<u32>>,
}

/// How the optional cells of a puzzle are items of its exact cover
/// problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holes {
    /// The puzzle has none.
    None,
    /// Secondary items: any number may stay empty (no `max_holes`, or one
    /// that no choice of the pieces can break).
    Free,
    /// Primary items, each with an option that leaves it empty and covers
    /// the item `holes`, to be covered at most this many times (at least 1).
    Counted(u32),
    /// Primary items: none may stay empty.
    Filled,
}

/// The placement number of an option that leaves an optional cell empty
/// (when `max_holes` can bind): no placement.
pub const HOLE: u32 = u32::MAX;

/// An exact cover problem built from a model, with its restriction.
pub struct Cover {
    pub problem: Problem,
    /// Option -> (placement, 0).
    pub options: Vec<(u32, u32)>,
    pub restriction: Option<(Restriction, Vec<bool>)>,
}

/// The most board cells all placements together may cover (each placement
/// counting its cells): [`Model::new`] refuses a larger puzzle as too large
/// ([`PolyError::TooLarge`]) rather than run out of memory.
pub const MAX_PLACEMENT_CELLS: u64 = 20_000_000;
/// The most placements [`Model::new`] may find, whatever their cells: a
/// placement costs some 50 bytes before its cells, and the search a node
/// for its piece (10,000 monominoes of their own on 10,000 cells have
/// 100 million placements of one cell each).
pub const MAX_PLACEMENTS: u64 = 4_000_000;
/// The most cells [`Model::new`] may try in looking for placements
/// (orientations times board cells times piece cells, over the pieces): a
/// puzzle that needs more is refused as too large rather than take hours.
pub const MAX_PLACEMENT_WORK: u64 = 2_000_000_000;

impl Model {
    /// Checks the puzzle ([`PolyPuzzle::check`]) and finds every placement of
    /// every piece. Errors: those of the check, a piece that must be used
    /// but fits nowhere, a puzzle too large to build.
    pub fn new(puzzle: PolyPuzzle) -> Result<Self, PolyError> {
        puzzle.check()?;
        let board = &puzzle.board;
        let groups: Vec<Vec<Vec<(Cell, u8)>>> = (0..puzzle.pieces.len())
            .map(|pi| orientations(&puzzle, pi))
            .collect();
        let marks = puzzle.cell_marks();
        let work: u64 = puzzle
            .pieces
            .iter()
            .zip(&groups)
            .filter(|(p, _)| p.cells.len() <= board.len())
            .map(|(p, o)| o.len() as u64 * board.len() as u64 * p.cells.len() as u64)
            .sum();
        if work > MAX_PLACEMENT_WORK {
            return Err(PolyError::TooLarge {
                why: format!(
                    "finding the placements would try {work} cells (at most {MAX_PLACEMENT_WORK})"
                ),
            });
        }
        // what the placements could take at most; when that passes a
        // bound, they are counted first (nothing kept, the count stopped
        // at the bound), so that a puzzle too large is refused before its
        // placements fill the memory
        let (most_cells, most_placements) = (puzzle.pieces.iter().zip(&groups))
            .filter(|(p, _)| p.cells.len() <= board.len())
            .fold((0u64, 0u64), |(c, n), (p, o)| {
                let n_p = o.len() as u64 * board.len() as u64;
                (c + n_p * p.cells.len() as u64, n + n_p)
            });
        if most_cells > MAX_PLACEMENT_CELLS || most_placements > MAX_PLACEMENTS {
            find_placements(&puzzle, &groups, &marks, false)?;
        }
        let mut placements = find_placements(&puzzle, &groups, &marks, true)?;
        let required: Vec<bool> = marks.iter().map(|m| !m.1).collect();
        let keep = match puzzle.reduce {
            true => {
                let least: Vec<u32> = (puzzle.pieces.iter())
                    .map(|p| match p.count {
                        Copies::Exactly(k) | Copies::Between(k, _) => k,
                        Copies::Any => 0,
                    })
                    .collect();
                prune::useful(&placements, board.len(), &required, &least)
            }
            false => Vec::new(),
        };
        if keep.iter().any(|&k| !k) {
            let mut k = keep.iter();
            placements.retain(|_| *k.next().unwrap());
        }
        let symmetries = puzzle_symmetries(&puzzle, &groups);
        let (crossing_items, crossings) = crossing_items(&puzzle, &placements);
        let mut m = Model {
            puzzle,
            placements,
            images: Images::default(),
            symmetries,
            copies: Vec::new(),
            crossing_items,
            crossings,
        };
        m.copies = m.copy_items();
        Ok(m)
    }

    fn copy_items(&self) -> Vec<Option<(u32, u32)>> {
        if self.puzzle.pieces.len() == 1 && self.puzzle.optional.is_empty() {
            // One piece type: the board's area fixes the number of copies
            // (checked before), so no item is needed.
            return vec![None];
        }
        let area = self.puzzle.board.len();
        self.puzzle
            .pieces
            .iter()
            .map(|p| match p.count {
                Copies::Exactly(0) => Some((0, 0)),
                Copies::Exactly(k) => Some((k, k)),
                // no item when the board cannot take more than the most
                // (BurrTools' ranges such as 0 to 6 of each burr piece)
                Copies::Between(0, b) if b as usize * p.cells.len() >= area => None,
                Copies::Between(a, b) => Some((a, b)),
                Copies::Any => None,
            })
            .collect()
    }

    /// How the optional cells are items: see [`Holes`]. The number of
    /// holes is the board's area less the pieces' cells, so `max_holes`
    /// binds only when the fewest cells the pieces may cover leave more.
    fn holes(&self) -> Holes {
        let p = &self.puzzle;
        if p.optional.is_empty() {
            return Holes::None;
        }
        let Some(h) = p.max_holes else {
            return Holes::Free;
        };
        let least: u64 = p
            .pieces
            .iter()
            .map(|q| {
                let k = match q.count {
                    Copies::Exactly(k) | Copies::Between(k, _) => k,
                    Copies::Any => 0,
                };
                u64::from(k) * q.cells.len() as u64
            })
            .sum();
        let most_holes = (p.board.len() as u64)
            .saturating_sub(least)
            .min(p.optional.len() as u64);
        if most_holes <= u64::from(h) {
            Holes::Free
        } else if h == 0 {
            Holes::Filled
        } else {
            Holes::Counted(h)
        }
    }

    /// The best restriction: the one that leaves the fewest placements to
    /// try, relative to how many it had, and among those the one that
    /// leaves the fewest.
    pub fn choose_restriction(&self) -> Option<(Restriction, Vec<bool>)> {
        if self.symmetries.len() <= 1 {
            return None;
        }
        let mut best: Option<(f64, usize, Restriction, Vec<bool>)> = None;
        // whether a cut of `gain` leaving `reps` is better than the best
        let better = |best: &Option<(f64, usize, Restriction, Vec<bool>)>, gain: f64, reps| {
            best.as_ref().is_none_or(|b| {
                gain > b.0 * (1.0 + 1e-9) || (gain >= b.0 * (1.0 - 1e-9) && reps < b.1)
            })
        };
        let mut consider = |r: Restriction, group: Vec<usize>, members: Vec<usize>| {
            if members.is_empty() || group.len() <= 1 {
                return;
            }
            // an orbit has at most `group.len()` placements, so at least
            // this many are representatives: a restriction that could not
            // be better even then is not looked at
            let fewest = members.len().div_ceil(group.len());
            if !better(&best, members.len() as f64 / fewest as f64, fewest) {
                return;
            }
            let mut keep = vec![false; self.placements.len()];
            let mut reps = 0;
            for &q in &members {
                // q is a representative if no symmetry of the subgroup maps
                // it to a smaller placement
                let rep = group.iter().all(|&g| self.image_placement(g, q) >= q);
                if rep {
                    keep[q] = true;
                    reps += 1;
                }
            }
            // the largest cut of placements; among equal cuts, the piece or
            // cell with the fewest placements left (as Knuth restricts the
            // X pentomino, which has the fewest): it prunes the search
            // most, often several times more
            let gain = members.len() as f64 / reps as f64;
            if better(&best, gain, reps) {
                best = Some((gain, reps, r, keep));
            }
        };
        let all: Vec<usize> = (0..self.symmetries.len()).collect();
        // the placements of each piece, and those covering each cell
        let mut of_piece: Vec<Vec<usize>> = vec![Vec::new(); self.puzzle.pieces.len()];
        let mut covering: Vec<Vec<usize>> = vec![Vec::new(); self.puzzle.board.len()];
        for (q, pl) in self.placements.iter().enumerate() {
            of_piece[pl.piece].push(q);
            for &c in &pl.cells {
                covering[c].push(q);
            }
        }
        for (pi, p) in self.puzzle.pieces.iter().enumerate() {
            if p.count == Copies::Exactly(1) && self.symmetries.iter().all(|s| s.sigma[pi] == pi) {
                consider(
                    Restriction::Piece(pi),
                    all.clone(),
                    std::mem::take(&mut of_piece[pi]),
                );
            }
        }
        for (c, members) in covering.into_iter().enumerate() {
            let group: Vec<usize> = all
                .iter()
                .copied()
                .filter(|&g| self.symmetries[g].perm[c] == c)
                .collect();
            consider(Restriction::Cell(c), group, members);
        }
        best.map(|(_, _, r, k)| (r, k))
    }

    /// The symmetries `--unique` counts up to, in words: `the 4
    /// symmetries (2 rotations, 2 reflections)`, `the 2 symmetries
    /// (rotations)`, `the 8 symmetries (rotations only, as the puzzle
    /// asks)`, `the 1 symmetry (the identity)`.
    pub fn symmetry_words(&self) -> String {
        let n = self.symmetries.len();
        let rotations = self
            .symmetries
            .iter()
            .filter(|s| s.transform.is_rotation())
            .count();
        let which = if n == 1 {
            "the identity".to_string()
        } else if self.puzzle.unique_under == UniqueUnder::Rotations {
            "rotations only, as the puzzle asks".to_string()
        } else if rotations == n {
            "rotations".to_string()
        } else {
            format!(
                "{}, {}",
                dancer_core::plural(rotations, "rotation", "rotations"),
                dancer_core::plural(n - rotations, "reflection", "reflections")
            )
        };
        format!(
            "the {} ({which})",
            dancer_core::plural(n, "symmetry", "symmetries")
        )
    }

    /// The placement that symmetry `g` maps placement `q` to.
    pub fn image_placement(&self, g: usize, q: usize) -> usize {
        self.images.get(self, g, q)
    }

    /// The exact cover problem, with symmetry breaking or without: an item
    /// per board cell, named by the cell, as the puzzle is written out.
    pub fn cover(&self, symmetry_breaking: bool) -> Cover {
        self.cover_with(symmetry_breaking, false)
    }

    /// The exact cover problem to search: as [`Model::cover`], with the
    /// cells that the same options cover as one item. Such cells are one
    /// constraint written several times (a cell of a large piece on a fine
    /// grid often shares its options with dozens of others), and the
    /// engines' work at each node grows with the items. The options, and
    /// so the solutions, are those of [`Model::cover`], in the same order.
    pub fn search_cover(&self, symmetry_breaking: bool) -> Cover {
        self.cover_with(symmetry_breaking, true)
    }

    fn cover_with(&self, symmetry_breaking: bool, merge: bool) -> Cover {
        let restriction = if symmetry_breaking {
            self.choose_restriction()
        } else {
            None
        };
        let kept: Vec<bool> = (self.placements.iter().enumerate())
            .map(|(q, pl)| {
                let restricted = restriction.as_ref().is_some_and(|(r, keep)| {
                    !keep[q]
                        && match r {
                            Restriction::Piece(pi) => pl.piece == *pi,
                            Restriction::Cell(c) => pl.cells.binary_search(c).is_ok(),
                        }
                });
                !restricted && self.copies[pl.piece] != Some((0, 0))
            })
            .collect();
        let mut b = ProblemBuilder::new();
        let holes = self.holes();
        let marks = self.puzzle.cell_marks();
        let cell_name = |c: &Cell| {
            if self.puzzle.grid() == crate::grid::PolyGrid::Square {
                format!("{}.{}", c[0], c[1])
            } else {
                format!("{}.{}.{}", c[0], c[1], c[2])
            }
        };
        let secondary_cell = |i: usize| marks[i].1 && holes == Holes::Free;
        // the first cell of each cell's class (cells covered by the same
        // options, both primary or both secondary), or the cell itself
        let first = match merge {
            // (an optional cell with an option of its own that leaves it
            // empty is one of a kind)
            true => self.same_options(&kept, |i| {
                let own = matches!(holes, Holes::Counted(_)) && marks[i].1;
                (secondary_cell(i), if own { i } else { usize::MAX })
            }),
            false => (0..self.puzzle.board.len()).collect(),
        };
        let mut cell_item = vec![usize::MAX; self.puzzle.board.len()];
        for (i, c) in self.puzzle.board.cells.iter().enumerate() {
            if first[i] != i {
                cell_item[i] = cell_item[first[i]];
            } else if !secondary_cell(i) {
                cell_item[i] = b.primary(&cell_name(c)).expect("fresh");
            }
        }
        let mut piece_item = vec![usize::MAX; self.puzzle.pieces.len()];
        for (pi, p) in self.puzzle.pieces.iter().enumerate() {
            match self.copies[pi] {
                None | Some((_, 0)) | Some((0, 1)) => {}
                Some((1, 1)) => piece_item[pi] = b.primary(&p.name).expect("fresh"),
                Some((lo, hi)) => {
                    piece_item[pi] = b.primary_bounded(&p.name, lo, hi).expect("fresh")
                }
            }
        }
        let hole_item = match holes {
            Holes::Counted(h) => Some(b.primary_bounded("holes", 0, h).expect("fresh")),
            _ => None,
        };
        for (i, c) in self.puzzle.board.cells.iter().enumerate() {
            if first[i] != i {
                cell_item[i] = cell_item[first[i]];
            } else if secondary_cell(i) {
                cell_item[i] = b.secondary(&cell_name(c)).expect("fresh");
            }
        }
        // a piece used at most once is a secondary item, as Knuth writes
        // such pieces: the same solutions, and no search branches on it
        for (pi, p) in self.puzzle.pieces.iter().enumerate() {
            if self.copies[pi] == Some((0, 1)) {
                piece_item[pi] = b.secondary(&p.name).expect("fresh");
            }
        }
        let crossing_ids: Vec<usize> = self
            .crossing_items
            .iter()
            .map(|name| b.secondary(name).expect("fresh"))
            .collect();
        let mut options = Vec::new();
        for (q, pl) in self.placements.iter().enumerate() {
            if !kept[q] {
                continue; // restricted, or a piece not to be used
            }
            let mut entries: Vec<(usize, u32)> = (pl.cells.iter())
                .filter(|&&c| first[c] == c)
                .map(|&c| (cell_item[c], 0))
                .collect();
            if piece_item[pl.piece] != usize::MAX {
                entries.push((piece_item[pl.piece], 0));
            }
            entries.extend(
                self.crossings[q]
                    .iter()
                    .map(|&i| (crossing_ids[i as usize], 0)),
            );
            b.option_ids(entries).expect("valid");
            options.push((q as u32, 0));
        }
        // an optional cell left empty, counted against the holes allowed
        if let Some(h) = hole_item {
            for (i, m) in marks.iter().enumerate() {
                if m.1 {
                    b.option_ids([(cell_item[i], 0), (h, 0)]).expect("valid");
                    options.push((HOLE, 0));
                }
            }
        }
        Cover {
            problem: b.build().expect("has cells"),
            options,
            restriction,
        }
    }

    /// For each board cell, the first cell covered by exactly the same
    /// kept placements and of the same `kind`: the cells one item can
    /// stand for.
    fn same_options<K: Eq + std::hash::Hash>(
        &self,
        kept: &[bool],
        kind: impl Fn(usize) -> K,
    ) -> Vec<usize> {
        let n = self.puzzle.board.len();
        let mut covering: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (q, pl) in self.placements.iter().enumerate() {
            if kept[q] {
                pl.cells.iter().for_each(|&c| covering[c].push(q as u32));
            }
        }
        let mut seen: rustc_hash::FxHashMap<(K, &[u32]), usize> = Default::default();
        (0..n)
            .map(|i| *seen.entry((kind(i), &covering[i][..])).or_insert(i))
            .collect()
    }
}

/// The smallest and largest lattice coordinates ([`PolyGrid::site`]) of
/// some cells, on each axis.
fn site_box(
    grid: crate::grid::PolyGrid,
    cells: impl Iterator<Item = Cell>,
) -> ([i32; 3], [i32; 3]) {
    cells.fold(([i32::MAX; 3], [i32::MIN; 3]), |(lo, hi), c| {
        let s = grid.site(c);
        (
            [0, 1, 2].map(|k| lo[k].min(s[k])),
            [0, 1, 2].map(|k| hi[k].max(s[k])),
        )
    })
}

/// Every placement of every piece, by piece, orientation and board cell
/// (the first cell of the orientation put on it), cells sorted; with
/// `keep` false, none kept (the checks alone, on the counts). Errors: a
/// piece that must be used but fits nowhere, too many cells or
/// placements in all ([`MAX_PLACEMENT_CELLS`], [`MAX_PLACEMENTS`]).
fn find_placements(
    puzzle: &PolyPuzzle,
    groups: &[Vec<Vec<(Cell, u8)>>],
    marks: &[(u8, bool)],
    keep: bool,
) -> Result<Vec<Placement>, PolyError> {
    let board = &puzzle.board;
    let mut placements = Vec::new();
    let (mut covered, mut found) = (0u64, 0u64);
    let mut cells = Vec::new();
    for (pi, p) in puzzle.pieces.iter().enumerate() {
        let before = found;
        let orientations = if p.cells.len() <= board.len() {
            &groups[pi][..]
        } else {
            &[]
        };
        for o in orientations {
            let mut each = |cells: &[usize]| {
                covered += cells.len() as u64;
                found += 1;
                if covered > MAX_PLACEMENT_CELLS {
                    return Err(PolyError::TooLarge {
                        why: format!(
                            "the placements of the pieces cover more than {MAX_PLACEMENT_CELLS} cells"
                        ),
                    });
                }
                if found > MAX_PLACEMENTS {
                    return Err(PolyError::TooLarge {
                        why: format!(
                            "the pieces have more than {MAX_PLACEMENTS} placements ({} on a board of {})",
                            counted(puzzle.pieces.len() as u64, "piece", "pieces"),
                            counted(board.len() as u64, "cell", "cells"),
                        ),
                    });
                }
                if keep {
                    placements.push(Placement {
                        piece: pi,
                        cells: cells.to_vec(),
                    });
                }
                Ok(())
            };
            match board.table() {
                Some(table) => placed_by_table(puzzle, table, marks, o, &mut cells, &mut each)?,
                None => placed_by_lookup(puzzle, marks, o, &mut cells, &mut each)?,
            }
        }
        let needed = match p.count {
            Copies::Exactly(k) | Copies::Between(k, _) => k > 0,
            Copies::Any => false,
        };
        if found == before && needed {
            return Err(PolyError::FitsNowhere {
                piece: p.name.clone(),
                at: p.at.clone(),
            });
        }
    }
    Ok(placements)
}

/// The placements of one orientation `o` on a board with a cell table,
/// handed to `each` in the order of the board's cells. A translation that
/// moves `o[0]` onto board cell `b` (there is one when their kinds are the
/// same) moves every cell `c` to `c + (b - o[0])` in cell coordinates, on
/// every grid; so a cell's slot is its offset from `o[0]`'s slot, and the
/// cells, read in the order of their offsets, come out sorted.
fn placed_by_table(
    puzzle: &PolyPuzzle,
    (_, size, slots): ([i32; 3], [usize; 3], &[u32]),
    marks: &[(u8, bool)],
    o: &[(Cell, u8)],
    cells: &mut Vec<usize>,
    each: &mut impl FnMut(&[usize]) -> Result<(), PolyError>,
) -> Result<(), PolyError> {
    let grid = puzzle.grid();
    let colouring = puzzle.colouring.as_ref();
    let first = o[0].0;
    let kind = grid.kind(first);
    let linear = |d: [i64; 3]| d[0] + size[0] as i64 * (d[1] + size[1] as i64 * d[2]);
    let mut dlo = [0i64; 3];
    let mut dhi = [0i64; 3];
    let ds: Vec<[i64; 3]> = (o.iter())
        .map(|&(c, _)| [0, 1, 2].map(|a| i64::from(c[a]) - i64::from(first[a])))
        .collect();
    for d in &ds {
        (0..3).for_each(|a| (dlo[a], dhi[a]) = (dlo[a].min(d[a]), dhi[a].max(d[a])));
    }
    if (0..3).any(|a| dhi[a] - dlo[a] >= size[a] as i64) {
        return Ok(()); // larger than the board's box: fits nowhere
    }
    // each cell's slot from the first cell's slot and its colour, packed
    // to sort as one number: slot offset from the least, then the colour
    let least = linear(dlo);
    let mut packed: Vec<u64> = (ds.iter().zip(o))
        .map(|(&d, &(_, k))| ((linear(d) - least) as u64) << 8 | u64::from(k))
        .collect();
    packed.sort_unstable();
    let offsets: Vec<(i64, u8)> = (packed.iter())
        .map(|&w| ((w >> 8) as i64 + least, w as u8))
        .collect();
    // the anchors that keep the orientation inside the table's box, slot
    // by slot in the order of the board's cells (z, then y, then x)
    let range = |a: usize| -dlo[a]..size[a] as i64 - dhi[a];
    for z in range(2) {
        for y in range(1) {
            for x in range(0) {
                let base = linear([x, y, z]);
                let anchor = slots[base as usize];
                if anchor == u32::MAX || grid.kind(puzzle.board.cells[anchor as usize]) != kind {
                    continue;
                }
                debug_assert!(grid
                    .shift_between(first, puzzle.board.cells[anchor as usize])
                    .is_some());
                cells.clear();
                for &(off, k) in &offsets {
                    let i = slots[(base + off) as usize];
                    if i == u32::MAX || !colouring.is_none_or(|f| f.fits(k, marks[i as usize].0)) {
                        break;
                    }
                    cells.push(i as usize);
                }
                if cells.len() == o.len() {
                    debug_assert!(cells.is_sorted());
                    each(cells)?;
                }
            }
        }
    }
    Ok(())
}

/// [`placed_by_table`] on a board without a cell table: each cell looked
/// up.
fn placed_by_lookup(
    puzzle: &PolyPuzzle,
    marks: &[(u8, bool)],
    o: &[(Cell, u8)],
    cells: &mut Vec<usize>,
    each: &mut impl FnMut(&[usize]) -> Result<(), PolyError>,
) -> Result<(), PolyError> {
    let (board, grid) = (&puzzle.board, puzzle.grid());
    let colouring = puzzle.colouring.as_ref();
    let (blo, bhi) = site_box(grid, board.cells.iter().copied());
    let (olo, ohi) = site_box(grid, o.iter().map(|m| m.0));
    for &b in &board.cells {
        let Some(shift) = grid.shift_between(o[0].0, b) else {
            continue;
        };
        // the piece's box must lie in the board's (a large piece fits at
        // few of the board's cells)
        if (0..3).any(|k| olo[k] + shift[k] < blo[k] || ohi[k] + shift[k] > bhi[k]) {
            continue;
        }
        cells.clear();
        for &(c, k) in o {
            match board.index(&grid.translate(c, shift)) {
                Some(i) if colouring.is_none_or(|f| f.fits(k, marks[i].0)) => cells.push(i),
                _ => break,
            }
        }
        if cells.len() == o.len() {
            cells.sort_unstable();
            each(cells)?;
        }
    }
    Ok(())
}

/// A piece's distinct orientations, each cell with its colour, in its
/// group's order.
fn orientations(puzzle: &PolyPuzzle, pi: usize) -> Vec<Vec<(Cell, u8)>> {
    let grid = puzzle.grid();
    let cells = puzzle.coloured_cells(pi);
    let mut out: Vec<Vec<(Cell, u8)>> = Vec::new();
    for t in puzzle.piece_group(&puzzle.pieces[pi]) {
        let v = grid.coloured_image(&t, &cells);
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// The puzzle's symmetries (see the module documentation): those of the
/// board that map the piece set onto itself, the rotations among them only
/// when the puzzle counts up to rotations.
fn puzzle_symmetries(puzzle: &PolyPuzzle, orientations: &[Vec<Vec<(Cell, u8)>>]) -> Vec<Symmetry> {
    let grid = puzzle.grid();
    let marks = puzzle.cell_marks();
    // A piece's group is the rotations or every symmetry (see
    // PolyGrid::group_of). A symmetry in it maps the piece onto itself as
    // a piece; one outside it (a reflection of a piece that only turns)
    // maps it onto the piece whose orientations hold its image, the same
    // piece for every such symmetry: found once.
    let all = grid.symmetries().len();
    let every: Vec<bool> = (puzzle.pieces.iter())
        .map(|p| puzzle.piece_group(p).len() == all)
        .collect();
    let mut mirrored: Vec<Option<Option<usize>>> = vec![None; puzzle.pieces.len()];
    let sigma = |t: &GridSymmetry| -> Option<Vec<usize>> {
        if puzzle.unique_under == UniqueUnder::Rotations && !t.is_rotation() {
            return None;
        }
        let mut sigma = Vec::new();
        for (me, p) in puzzle.pieces.iter().enumerate() {
            if every[me] || t.is_rotation() {
                sigma.push(me);
                continue;
            }
            let q = *mirrored[me].get_or_insert_with(|| {
                let image = grid.coloured_image(t, &puzzle.coloured_cells(me));
                // the same count, one-sided or not, and the image among
                // its orientations; a piece maps to itself when it can
                // (identical pieces listed separately would otherwise both
                // map to the first)
                let fits = |q: usize| {
                    let other = &puzzle.pieces[q];
                    other.count == p.count
                        && other.one_sided == p.one_sided
                        && orientations[q].contains(&image)
                };
                if fits(me) {
                    Some(me)
                } else {
                    (0..puzzle.pieces.len()).find(|&q| fits(q))
                }
            });
            sigma.push(q?);
        }
        Some(sigma)
    };
    let mut out = Vec::new();
    // a symmetry keeps each cell's colour, and optional cells optional
    let alike = |i: usize, j: usize| marks[i] == marks[j];
    for (t, perm, sigma) in puzzle.board.symmetries_with(sigma, alike) {
        let mut inverse = vec![0; perm.len()];
        perm.iter().enumerate().for_each(|(i, &j)| inverse[j] = i);
        let identity = perm.iter().enumerate().all(|(i, &j)| i == j)
            && sigma.iter().enumerate().all(|(i, &j)| i == j);
        out.push(Symmetry {
            perm,
            inverse,
            sigma,
            transform: t,
            identity,
        });
    }
    out
}

/// The crossing items of a puzzle on an edge grid, by name, and for each
/// placement the ones it covers: only the items that two pieces' placements
/// claim (one that a single piece claims can never be contested).
fn crossing_items(puzzle: &PolyPuzzle, placements: &[Placement]) -> (Vec<String>, Vec<Vec<u32>>) {
    let grid = puzzle.grid();
    if puzzle.crossings || !grid.is_edge_grid() {
        return (Vec::new(), vec![Vec::new(); placements.len()]);
    }
    let board = &puzzle.board.cells;
    let claims: Vec<Vec<crate::grid::edges::Crossing>> = placements
        .iter()
        .map(|pl| {
            let cells: Vec<Cell> = pl.cells.iter().map(|&c| board[c]).collect();
            crate::grid::edges::crossings(grid, &cells)
        })
        .collect();
    // which pieces claim each point
    let mut by: std::collections::BTreeMap<crate::grid::edges::Crossing, Vec<usize>> =
        std::collections::BTreeMap::new();
    for (pl, cl) in placements.iter().zip(&claims) {
        for &c in cl {
            let pieces = by.entry(c).or_default();
            if !pieces.contains(&pl.piece) {
                pieces.push(pl.piece);
            }
        }
    }
    let contested = |pieces: &Vec<usize>| {
        pieces.len() > 1
            || pieces
                .iter()
                .any(|&p| puzzle.pieces[p].count != Copies::Exactly(1))
    };
    let mut ids = std::collections::BTreeMap::new();
    let mut names = Vec::new();
    for (c, pieces) in &by {
        if contested(pieces) {
            ids.insert(*c, names.len() as u32);
            names.push(if grid == crate::grid::PolyGrid::Trig {
                format!("p.{}.{}.{}", c[0], c[1], c[2])
            } else {
                format!("p.{}.{}", c[0], c[1])
            });
        }
    }
    let per = claims
        .iter()
        .map(|cl| cl.iter().filter_map(|c| ids.get(c).copied()).collect())
        .collect();
    (names, per)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use crate::puzzle::{Board, Piece};
    use std::collections::HashMap;

    fn model(name: &str) -> Model {
        Model::new(catalog::puzzle(name).unwrap()).unwrap()
    }

    /// Checks a solution (placements) with the core's independent verifier,
    /// against the exact cover problem without symmetry breaking (which has
    /// every placement, so also the images of a representative).
    struct Checker {
        problem: Problem,
        option_of: HashMap<usize, usize>,
    }

    impl Checker {
        fn new(m: &Model) -> Self {
            let cover = m.cover(false);
            let option_of = cover
                .options
                .iter()
                .enumerate()
                .map(|(o, &(q, _))| (q as usize, o))
                .collect();
            Checker {
                problem: cover.problem,
                option_of,
            }
        }

        fn check(&self, sol: &[usize]) {
            let options: Vec<usize> = sol.iter().map(|q| self.option_of[q]).collect();
            dancer_core::verify(&self.problem, &options).expect("a solution");
        }
    }

    /// Every solution emitted, checked, with the counts.
    fn emitted(m: &Model, opts: &Options) -> (Vec<Vec<usize>>, Counts) {
        let checker = Checker::new(m);
        let mut sols = Vec::new();
        let counts = m
            .solve(opts, |sol| {
                checker.check(sol);
                sols.push(sol.to_vec());
                true
            })
            .unwrap();
        (sols, counts)
    }

    /// The search's problem, with the cells that the same options cover
    /// as one item, has the solutions of the problem with an item a cell
    /// (the same option lists, each solution checked against the full
    /// problem), with and without symmetry breaking; on a fine grid's
    /// large pieces it has far fewer items.
    #[test]
    fn cells_merged_keep_the_solutions() {
        let hexsticks = crate::burr::read(
            include_bytes!("../../tests/burr/HexSticks.xmpuzzle"),
            "HexSticks",
        )
        .unwrap();
        let models = [
            model("pentomino-3x20"),
            model("soma"),
            Model::new(hexsticks.puzzle(0).unwrap()).unwrap(),
        ];
        for m in &models {
            for breaking in [false, true] {
                let (full, merged) = (m.cover_with(breaking, false), m.search_cover(breaking));
                assert_eq!(full.options, merged.options);
                let mut sols = dancer_core::all(&merged.problem);
                for s in &mut sols {
                    dancer_core::verify(&full.problem, s).expect("a solution");
                    s.sort_unstable();
                }
                let mut want = dancer_core::all(&full.problem);
                want.iter_mut().for_each(|s| s.sort_unstable());
                sols.sort();
                want.sort();
                assert!(!want.is_empty());
                assert_eq!(sols, want);
                assert!(merged.problem.n_items() <= full.problem.n_items());
            }
        }
        let (full, merged) = (models[2].cover(false), models[2].search_cover(false));
        assert!(
            merged.problem.n_items() * 3 < full.problem.n_items(),
            "{} of {}",
            merged.problem.n_items(),
            full.problem.n_items()
        );
    }

    /// A class's representative, as the labelling order says: the lazy
    /// walk of `classify` agrees with whole labellings compared, on every
    /// solution of puzzles with symmetries (identical pieces, holes).
    #[test]
    fn classify_agrees_with_whole_labellings() {
        fn labelling(m: &Model, sol: &[usize]) -> Vec<(u32, u32)> {
            let mut out = vec![(u32::MAX, u32::MAX); m.puzzle.board.len()];
            for &q in sol {
                let p = &m.placements[q];
                p.cells
                    .iter()
                    .for_each(|&c| out[c] = (p.piece as u32, p.cells[0] as u32));
            }
            out
        }
        let cage = crate::burr::read(
            include_bytes!("../../tests/burr/CubeInCage.xmpuzzle"),
            "CubeInCage",
        )
        .unwrap();
        let models = [
            ("pentomino-3x20", model("pentomino-3x20")),
            ("soma", model("soma")),
            ("CubeInCage", Model::new(cage.puzzle(0).unwrap()).unwrap()),
        ];
        for (name, m) in models {
            let cover = m.cover(false);
            let mut classes = 0;
            for s in dancer_core::all(&cover.problem) {
                let sol: Vec<usize> = s.iter().map(|&o| cover.options[o].0 as usize).collect();
                let mine = labelling(&m, &sol);
                let images: Vec<Vec<(u32, u32)>> = (0..m.symmetries.len())
                    .map(|g| {
                        let img: Vec<usize> =
                            sol.iter().map(|&q| m.image_placement(g, q)).collect();
                        labelling(&m, &img)
                    })
                    .collect();
                let rep = images.iter().all(|l| *l >= mine);
                let stab = images.iter().filter(|l| **l == mine).count() as u64;
                let (got_rep, size) = m.classify(&sol, None);
                assert_eq!(got_rep, rep, "{name}");
                assert_eq!(size, m.symmetries.len() as u64 / stab, "{name}");
                classes += u64::from(rep);
            }
            assert!(classes > 0, "{name}");
        }
    }

    /// `--limit N` is N solutions emitted (N classes with `unique`), with
    /// and without symmetry breaking, on one thread and on several, also
    /// when the limit falls inside a class of the symmetry-broken search;
    /// the counts say the same.
    #[test]
    fn the_limit_counts_solutions_not_classes() {
        for name in [
            "pentomino-3x20",
            "scott",
            "soma",
            "corner",
            "pentomino-6x10",
        ] {
            let m = model(name);
            let k = &catalog::entry(name).unwrap().known;
            let known = (k.total.unwrap(), k.unique);
            for breaking in [true, false] {
                if name == "pentomino-6x10" && !breaking {
                    continue; // slow, and nothing new
                }
                for unique in [false, true] {
                    let all = if unique { known.1 } else { known.0 };
                    for limit in [1, 2, 3, 7, 49, all] {
                        for threads in [1, 2] {
                            let opts = Options {
                                symmetry_breaking: breaking,
                                unique,
                                limit: Some(limit),
                                threads,
                                ..Options::default()
                            };
                            let (sols, c) = emitted(&m, &opts);
                            let what = format!(
                                "{name}: breaking {breaking}, unique {unique}, limit {limit}, {threads} threads"
                            );
                            assert_eq!(sols.len() as u64, limit.min(all), "{what}");
                            let reported = if unique { c.unique } else { c.total };
                            assert_eq!(reported, sols.len() as u64, "{what}: counts");
                            assert!(c.unique <= c.total, "{what}");
                            // no solution twice; with `unique`, no class twice
                            let mut seen = std::collections::HashSet::new();
                            for s in &sols {
                                let key = if unique {
                                    m.class_of(s).into_iter().min().unwrap()
                                } else {
                                    s.clone()
                                };
                                assert!(seen.insert(key), "{what}: repeated");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_limit_of_zero_reports_nothing() {
        let m = model("corner");
        let opts = Options {
            limit: Some(0),
            ..Options::default()
        };
        let (sols, c) = emitted(&m, &opts);
        assert!(sols.is_empty());
        assert_eq!((c.total, c.unique, c.complete), (0, 0, false));
    }

    /// Reads text output back: for each board cell, the piece name that
    /// its character stands for (through the legend, or as itself), and
    /// the character.
    fn read_ascii(m: &Model, text: &str) -> Vec<(char, String)> {
        let b = &m.puzzle.board;
        let [w, h, d] = b.extent();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() >= h as usize, "{text}");
        let mut legend: HashMap<char, String> = HashMap::new();
        for l in &lines[h as usize..] {
            for entry in l.split("  ") {
                let (chars, name) = entry.split_once(": ").expect("CHARS: NAME");
                for c in chars.chars() {
                    assert!(
                        legend.insert(c, name.to_string()).is_none(),
                        "{c} listed twice in {text}"
                    );
                }
            }
        }
        b.cells
            .iter()
            .map(|&[x, y, z]| {
                let line: Vec<char> = lines[y as usize].chars().collect();
                let col = (z * (w + 3) + x) as usize;
                assert!(d >= 1);
                let c = line[col];
                let name = legend.get(&c).cloned().unwrap_or_else(|| c.to_string());
                (c, name)
            })
            .collect()
    }

    /// Text output shows the true piece names: every cell's character
    /// stands for the piece covering it (as its name, or through the
    /// legend), the cells of one placement show one character, and
    /// different placements show different characters (neighbouring ones
    /// at least, when characters run out).
    fn check_ascii(m: &Model, sol: &[usize]) -> String {
        let text = m.ascii(sol);
        let read = read_ascii(m, &text);
        let mut owner = vec![usize::MAX; m.puzzle.board.len()];
        let mut glyph_of: Vec<Option<char>> = vec![None; sol.len()];
        for (k, &q) in sol.iter().enumerate() {
            let pl = &m.placements[q];
            for &c in &pl.cells {
                owner[c] = k;
                let (ch, name) = &read[c];
                assert_eq!(name, &m.puzzle.pieces[pl.piece].name, "cell {c} in\n{text}");
                assert_eq!(
                    *glyph_of[k].get_or_insert(*ch),
                    *ch,
                    "one placement, one character"
                );
                assert!(*ch != '.' && *ch != ' ');
            }
        }
        let b = &m.puzzle.board;
        for (i, &cell) in b.cells.iter().enumerate() {
            for axis in 0..3 {
                let mut n = cell;
                n[axis] += 1;
                if let Some(j) = b.index(&n) {
                    if owner[i] != owner[j] {
                        assert_ne!(read[i].0, read[j].0, "neighbours look alike in\n{text}");
                    }
                }
            }
        }
        text
    }

    fn first_solution(m: &Model) -> Vec<usize> {
        let opts = Options {
            limit: Some(1),
            ..Options::default()
        };
        let (sols, _) = emitted(m, &opts);
        sols.into_iter().next().expect("a solution")
    }

    #[test]
    fn text_output_names_the_pieces() {
        // one-letter names used once: the names, no legend
        let m = model("pentomino-6x10");
        let sol = first_solution(&m);
        let text = check_ascii(&m, &sol);
        assert_eq!(text.lines().count(), 6, "{text}");
        assert!(!text.contains(':'));
        // a solid: layers side by side
        let m = model("soma");
        let text = check_ascii(&m, &first_solution(&m));
        assert_eq!(text.lines().count(), 3, "{text}");
        // copies: the first shows the name, the others get characters of
        // their own that no piece is called, in the legend
        let m = model("corner");
        let text = check_ascii(&m, &first_solution(&m));
        assert_eq!(text.lines().last(), Some("VABC: V"), "{text}");
        // long names, and a name that is the mark of "no cell"
        let bar = |name: &str, n| Piece::new(name, &[[0, 0, 0], [1, 0, 0], [2, 0, 0]], n);
        let p = PolyPuzzle::new(
            "long names",
            Board::rect(3, 4),
            vec![
                bar("I3", Copies::Exactly(2)),
                bar(".", Copies::Exactly(1)),
                bar("A", Copies::Exactly(1)),
            ],
        );
        let m = Model::new(p).unwrap();
        let sol = first_solution(&m);
        let text = check_ascii(&m, &sol);
        let legend = text.lines().last().unwrap();
        assert!(legend.contains(": I3") && legend.contains(": ."), "{text}");
        assert!(!legend.contains(": A"), "A is shown as itself: {text}");
        // ten copies of one piece
        let y = crate::pieces::piece("Y").unwrap();
        let p = PolyPuzzle::new(
            "Y",
            Board::rect(10, 5),
            vec![Piece::new("Y", &y.cells, Copies::Exactly(10))],
        );
        let m = Model::new(p).unwrap();
        let text = check_ascii(&m, &first_solution(&m));
        assert!(text.ends_with("\nYABCDEFGHI: Y\n"), "{text}");
    }

    /// More placements than characters: copies share their piece's
    /// characters, never with a neighbour, and the legend still maps every
    /// character to its piece.
    #[test]
    fn text_output_when_characters_run_out() {
        let p = PolyPuzzle::new(
            "monominoes",
            Board::rect(25, 25),
            vec![
                Piece::new("O", &[[0, 0, 0]], Copies::Any),
                Piece::new("D", &[[0, 0, 0], [1, 0, 0]], Copies::Exactly(1)),
            ],
        );
        let m = Model::new(p).unwrap();
        let sol = first_solution(&m);
        assert_eq!(sol.len(), 624);
        check_ascii(&m, &sol);
    }

    #[test]
    fn colour_numbers_keep_types_and_tell_copies_apart() {
        assert_eq!(colour_numbers(&[0, 1, 2], 3), [0, 1, 2]);
        // one type placed four times: the placements in order (as before)
        assert_eq!(colour_numbers(&[0, 0, 0, 0], 1), [0, 1, 2, 3]);
        // the first copy keeps its type's colour, no copy takes another's
        assert_eq!(colour_numbers(&[0, 0, 2, 2], 3), [0, 3, 2, 4]);
    }
}
