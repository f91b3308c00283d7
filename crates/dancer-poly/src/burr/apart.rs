//! Taking a puzzle's solutions apart (`--disassemble`): each solution's
//! pieces in BurrTools' voxel coordinates, in BurrTools' order (by piece,
//! in the problem's order), with the problem's piece groups and shape
//! weights, handed to [`crate::disassembly`]; its tree turned into the
//! moves a front end prints, in the puzzle's own coordinates.

use super::{BurrFile, BurrGrid};
use crate::disassembly::{
    Assembly, Disassembler, Disassembly, DisassemblyError, MoveGrid, Separation,
};
use crate::grid::PolyGrid;
use crate::model::Model;
use crate::puzzle::PolyError;
use dancer_formats::ndjson::{DisassemblyRecord, MoveRecord};
use std::sync::atomic::AtomicBool;

/// The most states one disassembly may visit: past it the solution is
/// not taken apart ([`Undecided::States`]), and the run goes on. Fewer
/// for many pieces: a state takes about `6 n + 20` bytes for `n` pieces,
/// and all of them together at most [`MAX_STATE_BYTES`].
pub const MAX_STATES: usize = 1 << 22;

/// The most memory the states of one disassembly may take.
pub const MAX_STATE_BYTES: usize = 512 << 20;

/// Takes the solutions of one puzzle apart, keeping what it learns about
/// the pieces from one to the next.
#[derive(Debug)]
pub struct TakeApart {
    grid: BurrGrid,
    moves: MoveGrid,
    /// Per piece type: its weight, and its groups as (group, copies).
    weights: Vec<i32>,
    groups: Vec<Vec<(u32, u32)>>,
    engine: Disassembler,
    /// The voxels of the placements met so far, sorted.
    voxels: std::collections::HashMap<usize, Vec<[i32; 3]>>,
    /// The pieces of the assembly being taken apart (their lists kept
    /// from one assembly to the next).
    pieces: Vec<Vec<[i32; 3]>>,
    /// The most states one disassembly may visit (before the bound on
    /// their bytes, [`MAX_STATE_BYTES`]).
    max_states: usize,
}

/// A solution taken apart: its disassembly, if it comes apart; when it
/// could not be told, why not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Apart {
    /// How it comes apart; `None` when it does not, or when that is not
    /// known ([`Apart::undecided`]).
    pub disassembly: Option<Disassembly>,
    /// Why it is not known whether the solution comes apart.
    pub undecided: Option<Undecided>,
}

/// Why a solution was not taken apart: the search stopped before it could
/// tell (a run goes on past [`Undecided::States`], and ends after
/// [`Undecided::Interrupted`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Undecided {
    /// The run's cancel flag was raised while it was being taken apart.
    Interrupted,
    /// Its disassembly met more states than it may visit.
    States {
        /// The bound it passed.
        limit: usize,
    },
}

impl Undecided {
    /// As a record says it.
    pub fn record(self) -> dancer_formats::ndjson::Undecided {
        match self {
            Undecided::Interrupted => dancer_formats::ndjson::Undecided::Interrupted,
            Undecided::States { .. } => dancer_formats::ndjson::Undecided::States,
        }
    }
}

impl std::fmt::Display for Undecided {
    /// `interrupted`, `past 4,194,304 states`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Undecided::Interrupted => write!(f, "interrupted"),
            Undecided::States { limit } => write!(
                f,
                "its search passed {}",
                crate::puzzle::counted(*limit as u64, "state", "states")
            ),
        }
    }
}

impl TakeApart {
    /// For `model`'s puzzle; `burr`: the BurrTools file and problem it
    /// came from, whose weights and groups count. Errors: a grid BurrTools
    /// does not take apart (only cubes and triangular prisms).
    pub fn new(model: &Model, burr: Option<(&BurrFile, usize)>) -> Result<TakeApart, PolyError> {
        let grid = model.puzzle.grid();
        let (bg, moves) = match grid {
            PolyGrid::Cube => (BurrGrid::Cubes, MoveGrid::Cubes),
            PolyGrid::Prism => (BurrGrid::Prisms, MoveGrid::Prisms),
            g => {
                return Err(PolyError::BadBoard {
                    why: format!(
                        "BurrTools takes puzzles apart on cubes and triangular prisms, not on the {} grid",
                        g.name()
                    ),
                    at: model.puzzle.board_at.clone(),
                })
            }
        };
        let n = model.puzzle.pieces.len();
        let (weights, groups) = match burr {
            Some((f, i)) => {
                let p = &f.problems[i];
                (
                    p.parts.iter().map(|q| f.shapes[q.shape].weight).collect(),
                    p.parts.iter().map(|q| q.groups.clone()).collect(),
                )
            }
            None => (vec![1; n], vec![Vec::new(); n]),
        };
        Ok(TakeApart {
            grid: bg,
            moves,
            weights,
            groups,
            voxels: Default::default(),
            pieces: Vec::new(),
            engine: Disassembler::new(),
            max_states: MAX_STATES,
        })
    }

    /// At most `states` states for each disassembly, 1 to [`MAX_STATES`]
    /// (and still at most [`MAX_STATE_BYTES`] of them); a solution whose
    /// disassembly needs more is not taken apart ([`Undecided::States`]).
    pub fn with_max_states(mut self, states: usize) -> TakeApart {
        self.max_states = states.clamp(1, MAX_STATES);
        self
    }

    /// The most states a disassembly of `pieces` pieces may visit: the
    /// bound asked ([`TakeApart::with_max_states`]), and
    /// [`MAX_STATE_BYTES`] of states at most.
    pub fn max_states(&self, pieces: usize) -> usize {
        (self.max_states).min(MAX_STATE_BYTES / (6 * pieces + 20))
    }

    /// Whether and how solution `sol` (placements, as the search gives
    /// them) comes apart, or why that is not known: interrupted (`cancel`
    /// raised), or past the states a disassembly may visit
    /// ([`TakeApart::max_states`]), both [`Apart::undecided`]. Errors: an
    /// assembly the disassembler does not take (too many pieces, pieces
    /// that slide too far apart).
    pub fn take_apart(
        &mut self,
        model: &Model,
        sol: &[usize],
        cancel: Option<&AtomicBool>,
    ) -> Result<Apart, PolyError> {
        let board = &model.puzzle.board;
        let mut order: Vec<usize> = sol.to_vec();
        order.sort_by_key(|&q| model.placements[q].piece);
        // each placement's voxels, sorted, as the disassembler keeps
        // shapes (the same placements come back in many assemblies)
        let mut pieces = std::mem::take(&mut self.pieces);
        pieces.resize_with(order.len(), Vec::new);
        for (piece, &q) in pieces.iter_mut().zip(&order) {
            let voxels = self.voxels.entry(q).or_insert_with(|| {
                let mut v: Vec<[i32; 3]> = (model.placements[q].cells.iter())
                    .map(|&c| self.grid.voxel(board.cells[c]))
                    .collect();
                v.sort_unstable();
                v
            });
            piece.clone_from(voxels);
        }
        let types: Vec<usize> = order.iter().map(|&q| model.placements[q].piece).collect();
        let groups = self.instance_groups(&types);
        let weights: Vec<i32> = types.iter().map(|&t| self.weights[t]).collect();
        let keys: Vec<u64> = order.iter().map(|&q| q as u64).collect();
        let a = Assembly {
            grid: self.moves,
            pieces: &pieces,
            groups: &groups,
            weights: &weights,
            keys: &keys,
        };
        let states = self.max_states(pieces.len());
        let d = self.engine.disassemble(&a, cancel, states);
        self.pieces = pieces;
        let undecided = |why| {
            Ok(Apart {
                disassembly: None,
                undecided: Some(why),
            })
        };
        let d = match d {
            Ok(d) => d,
            // BurrTools counts no assembly of fewer than two pieces
            Err(DisassemblyError::TooFewPieces { .. }) => None,
            Err(DisassemblyError::Cancelled) => return undecided(Undecided::Interrupted),
            Err(DisassemblyError::TooManyStates { limit }) => {
                return undecided(Undecided::States { limit })
            }
            Err(e) => {
                return Err(PolyError::TooLarge {
                    why: format!("taking a solution apart: {e}"),
                })
            }
        };
        // back to the solution's order
        let disassembly = d.map(|mut d| {
            renumber(&mut d.root, &order, sol);
            d
        });
        Ok(Apart {
            disassembly,
            undecided: None,
        })
    }

    /// Each placed piece's group: the copies of a piece type fill its
    /// groups in order, the rest in none.
    fn instance_groups(&self, types: &[usize]) -> Vec<u32> {
        let mut used = vec![0u32; self.groups.len()];
        types
            .iter()
            .map(|&t| {
                let k = used[t];
                used[t] += 1;
                let mut seen = 0;
                for &(g, n) in &self.groups[t] {
                    seen += n;
                    if k < seen {
                        return g;
                    }
                }
                0
            })
            .collect()
    }

    /// A slide of `by` voxels as a translation of the puzzle's cells.
    fn shift(&self, from: [i32; 3], by: [i32; 3]) -> Vec<i32> {
        let to = [0, 1, 2].map(|k| from[k].saturating_add(by[k]));
        let grid = match self.grid {
            BurrGrid::Prisms => PolyGrid::Prism,
            _ => PolyGrid::Cube,
        };
        match (self.grid.cell(from), self.grid.cell(to)) {
            (Some(a), Some(b)) => grid
                .shift_between(a, b)
                .map_or_else(|| by.to_vec(), |s| s.to_vec()),
            _ => by.to_vec(),
        }
    }

    /// The moves in the order played, each with its pieces as positions in
    /// `sol`, and the translation in the puzzle's coordinates.
    pub fn steps(&self, model: &Model, sol: &[usize], d: &Disassembly) -> Vec<MoveRecord> {
        let mut out = Vec::new();
        let board = &model.puzzle.board;
        let walk = |s: &Separation, out: &mut Vec<MoveRecord>| {
            for m in &s.moves {
                let first = model.placements[sol[m.pieces[0]]].cells[0];
                let from = self.grid.voxel(board.cells[first]);
                out.push(MoveRecord {
                    pieces: m.pieces.clone(),
                    by: self.shift(from, m.by()),
                    removes: m.removes,
                });
            }
        };
        let mut stack: Vec<&Separation> = vec![&d.root];
        while let Some(s) = stack.pop() {
            walk(s, &mut out);
            // the part left behind first, then the part taken away
            stack.extend(s.removed.as_deref());
            stack.extend(s.left.as_deref());
        }
        out
    }

    /// The record of a solution taken apart.
    pub fn record(&self, model: &Model, sol: &[usize], apart: &Apart) -> DisassemblyRecord {
        match &apart.disassembly {
            None => DisassemblyRecord {
                apart: false,
                level: None,
                moves: 0,
                steps: Vec::new(),
                undecided: apart.undecided.map(Undecided::record),
            },
            Some(d) => DisassemblyRecord {
                apart: true,
                level: Some(d.level()),
                moves: d.moves(),
                steps: self.steps(model, sol, d),
                undecided: None,
            },
        }
    }

    /// The moves in words, a line each after a head line: `comes apart,
    /// level 2.1 (3 moves):` and `  1. B +z 1`, `  3. A out -x`; or
    /// `does not come apart`, or `not taken apart: interrupted`.
    pub fn text(&self, model: &Model, sol: &[usize], apart: &Apart) -> String {
        let Some(d) = &apart.disassembly else {
            return match apart.undecided {
                Some(why) => format!("not taken apart: {why}\n"),
                None => "does not come apart\n".into(),
            };
        };
        let names = instance_names(model, sol);
        let mut s = format!(
            "comes apart, level {} ({}):\n",
            d.level(),
            crate::puzzle::counted(d.moves() as u64, "move", "moves")
        );
        for (k, m) in self.steps(model, sol, d).iter().enumerate() {
            let who: Vec<&str> = m.pieces.iter().map(|&p| names[p].as_str()).collect();
            let how = if m.removes {
                format!("out {}", direction(&m.by))
            } else {
                format!("{} {}", direction(&m.by), length(&m.by))
            };
            s += &format!("  {}. {} {how}\n", k + 1, who.join(" "));
        }
        s
    }
}

/// Puts a tree's piece numbers (positions in `order`) back as positions in
/// `sol`.
fn renumber(s: &mut Separation, order: &[usize], sol: &[usize]) {
    let pos = |k: usize| {
        sol.iter()
            .position(|&q| q == order[k])
            .expect("a placement of the solution")
    };
    s.pieces.iter_mut().for_each(|p| *p = pos(*p));
    for m in &mut s.moves {
        m.pieces.iter_mut().for_each(|p| *p = pos(*p));
    }
    for c in [&mut s.left, &mut s.removed].into_iter().flatten() {
        renumber(c, order, sol);
    }
}

/// The pieces of a solution by name, copies of one piece numbered: `A`,
/// `Y#1`, `Y#2`.
pub fn instance_names(model: &Model, sol: &[usize]) -> Vec<String> {
    let types: Vec<usize> = sol.iter().map(|&q| model.placements[q].piece).collect();
    let mut seen = vec![0; model.puzzle.pieces.len()];
    types
        .iter()
        .map(|&t| {
            let name = &model.puzzle.pieces[t].name;
            seen[t] += 1;
            if types.iter().filter(|&&u| u == t).count() > 1 {
                format!("{name}#{}", seen[t])
            } else {
                name.clone()
            }
        })
        .collect()
}

/// A translation's direction in words: `+x`, `-y`, `+z` along an axis,
/// else the vector.
fn direction(by: &[i32]) -> String {
    let nonzero: Vec<usize> = (0..by.len()).filter(|&k| by[k] != 0).collect();
    match nonzero.as_slice() {
        [k] => format!(
            "{}{}",
            if by[*k] > 0 { '+' } else { '-' },
            ["x", "y", "z"][*k]
        ),
        _ => {
            let g = by.iter().fold(0, |g, &v| gcd(g, v.unsigned_abs() as i64));
            let unit: Vec<String> = by
                .iter()
                .map(|&v| (v as i64 / g.max(1)).to_string())
                .collect();
            format!("({})", unit.join(", "))
        }
    }
}

/// How many steps of its direction a translation is.
fn length(by: &[i32]) -> i64 {
    by.iter().fold(0, |g, &v| gcd(g, v.unsigned_abs() as i64))
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
