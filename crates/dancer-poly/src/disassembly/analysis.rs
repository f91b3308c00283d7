//! The moves from one state, in BurrTools' order (its
//! `movementAnalysator_c::find`).
//!
//! For a state, [`Analysis::prepare`] fills the matrix of blocking
//! distances: `free(d, i, j)`, how many cells piece `i` slides in
//! direction `d` while `j` stays put. Directions are numbered `2 axis +
//! sign` (`sign` 1 for the negative sense), and `free(-axis, i, j)` is
//! `free(+axis, j, i)`: `i` sliding back past `j` is `j` sliding on past `i`.
//!
//! A slide of piece `p` by `s` cells in direction `d` pushes every piece
//! that is in the way (`free(d, i, j) < s` for a piece `i` already moving),
//! and those push on: the moving set is the closure
//! ([`Analysis::closure`]). BurrTools gives up on a closure once it holds
//! more than its limit; the set is the same whichever order the pushes are
//! found in, so the limit is a bound on the closure's size. (BurrTools
//! first closes the matrix under shortest paths, Bill Cutler's second
//! step; a closure over the closed matrix is the closure over the direct
//! one, since a path shorter than `s` has every step shorter than `s`, so
//! this module skips it.)
//!
//! The moves, in order:
//!
//! 1. removals ([`Analysis::removal`]): for each direction, for each
//!    piece, the closure of an unbounded slide; first one that is a single
//!    piece, then, if none, one of at most half the pieces. The first found
//!    ends the search, so only it matters;
//! 2. slides ([`Analysis::slides`]): for each direction, for each piece,
//!    by 1, 2, ... cells while the closure has at most half the pieces;
//!    each new (set, distance) of the direction is a move, and is then
//!    merged with every move of the direction found before it, newest
//!    first (itself included, which gives nothing): two moves of the same
//!    distance make the move of their union, when the union is neither of
//!    them nor every piece and is new to the direction. Merges are how a
//!    move of two independent groups at once is found (such a union may
//!    hold more than half the pieces).
//!
//! Every slide of any set that meets no other piece on its way is found
//! this way, as its set or, the other way, as the rest: a slide of a set
//! `T` is one of `T`'s complement the other way, one of the two has at
//! most half the pieces, and it is the union of its members' closures, each
//! at most as large. The search is therefore a breadth-first search over
//! every slide of every set, which the tests check against one that tries
//! every set.

use super::blocking::{Axis, Library, PairDistances, FREE, MAX_AXES};
use super::DisassemblyError;
use std::collections::HashSet;

/// Slides up to this many cells keep their pushes for the other pieces of
/// the direction.
const KEPT_STEPS: usize = 32;

/// A set of the pieces of one part, by their place in it.
pub(super) type Set = u128;

/// The matrix of one state and the moves found in one direction.
pub(super) struct Analysis {
    n: usize,
    dirs: usize,
    /// `free[(d * n + i) * n + j]`
    free: Vec<u32>,
    /// The moves of the current direction in the order found, and the same
    /// as a set (BurrTools' `nodes`).
    found: Vec<(Set, u32)>,
    known: HashSet<(Set, u32), super::blocking::Mix>,
    /// Per slide distance, each piece's pushes (kept between states).
    scratch: Vec<Vec<Set>>,
    /// Per pair `i < j` (at `i * n + j`), the last place of `j` relative
    /// to `i` looked up and its distances: states near each other in the
    /// queue share most pairs' places, and this spares the library's
    /// table (`None`: not yet).
    last: Vec<Option<([i32; 3], PairDistances)>>,
}

impl Analysis {
    pub(super) fn new(n: usize, axes: usize) -> Analysis {
        let dirs = 2 * axes;
        Analysis {
            n,
            dirs,
            free: vec![0; dirs * n * n],
            found: Vec::new(),
            known: HashSet::default(),
            scratch: vec![Vec::new()],
            last: vec![None; n * n],
        }
    }

    /// The analysis of a part of `n` pieces as [`Analysis::new`] makes it,
    /// keeping what was allocated.
    pub(super) fn reset(&mut self, n: usize, axes: usize) {
        let dirs = 2 * axes;
        self.n = n;
        self.dirs = dirs;
        self.free.clear();
        self.free.resize(dirs * n * n, 0);
        self.found.clear();
        self.known.clear();
        // the pushes are made afresh before use: their lists are kept
        if self.scratch.is_empty() {
            self.scratch.push(Vec::new());
        }
        self.last.clear();
        self.last.resize(n * n, None);
    }

    /// Fill the matrix for the pieces `placed` (shape, origin) standing at
    /// the offsets `at`.
    pub(super) fn prepare(
        &mut self,
        library: &mut Library,
        axes: &[Axis],
        placed: &[(u32, [i32; 3])],
        at: &[[i32; 3]],
    ) {
        let n = self.n;
        for i in 0..n {
            let (a, oa) = placed[i];
            let pa = [oa[0] + at[i][0], oa[1] + at[i][1], oa[2] + at[i][2]];
            for j in i + 1..n {
                let (b, ob) = placed[j];
                let shift = [
                    ob[0] + at[j][0] - pa[0],
                    ob[1] + at[j][1] - pa[1],
                    ob[2] + at[j][2] - pa[2],
                ];
                let d = match self.last[i * n + j] {
                    Some((at, d)) if at == shift => d,
                    _ => {
                        let d = library.distances(axes, a, b, shift);
                        self.last[i * n + j] = Some((shift, d));
                        d
                    }
                };
                for k in 0..axes.len() {
                    let (ij, ji) = (d[k], d[MAX_AXES + k]);
                    let plus = 2 * k * n * n;
                    let minus = (2 * k + 1) * n * n;
                    self.free[plus + i * n + j] = ij;
                    self.free[plus + j * n + i] = ji;
                    self.free[minus + i * n + j] = ji;
                    self.free[minus + j * n + i] = ij;
                }
            }
        }
    }

    /// For direction `d`, the pieces each piece pushes when it slides
    /// `step` cells ([`FREE`]: without end): `j` when `free(d, i, j) <
    /// step`.
    fn pushes(&self, d: usize, step: u32, into: &mut Vec<Set>) {
        let n = self.n;
        into.clear();
        let rows = self.free[d * n * n..(d + 1) * n * n].chunks_exact(n);
        if n <= 64 {
            // the same in half the width, for the many small puzzles
            into.extend(rows.enumerate().map(|(i, row)| {
                let mut small = 0u64;
                for (j, &f) in row.iter().enumerate() {
                    small |= u64::from(f < step) << j;
                }
                Set::from(small & !(1 << i))
            }));
        } else {
            into.extend(rows.enumerate().map(|(i, row)| {
                let mut mask: Set = 0;
                for (j, &f) in row.iter().enumerate() {
                    mask |= Set::from(f < step) << j;
                }
                mask & !(1 << i)
            }));
        }
    }

    /// The pieces a slide of piece `p` moves, each piece pushing those of
    /// `pushes`, or `None` when more than `limit`. The members are counted
    /// as their pushes are taken, and the count stops the closure as soon
    /// as it passes the limit (no population count: the build targets
    /// processors without the instruction, and this is the innermost loop
    /// of the search).
    fn closure(pushes: &[Set], p: usize, limit: u32) -> Option<Set> {
        if pushes.len() <= 64 {
            // the same in half the width, for the many small puzzles
            let mut set = 1u64 << p;
            let mut todo = set;
            let mut size = 0;
            while todo != 0 {
                let mut reached = 0u64;
                while todo != 0 {
                    // the set only grows: once too large, it stays so
                    size += 1;
                    if size > limit {
                        return None;
                    }
                    reached |= pushes[todo.trailing_zeros() as usize] as u64;
                    todo &= todo - 1;
                }
                todo = reached & !set;
                set |= todo;
            }
            return Some(Set::from(set));
        }
        let mut set: Set = 1 << p;
        let mut todo = set;
        let mut size = 0;
        while todo != 0 {
            let mut reached: Set = 0;
            while todo != 0 {
                size += 1;
                if size > limit {
                    return None;
                }
                reached |= pushes[todo.trailing_zeros() as usize];
                todo &= todo - 1;
            }
            todo = reached & !set;
            set |= todo;
        }
        Some(set)
    }

    /// The first removal in BurrTools' order: the set and its direction.
    pub(super) fn removal(&mut self) -> Option<(Set, usize)> {
        let half = (self.n / 2) as u32;
        let mut first_group = None;
        let mut pushes = std::mem::take(&mut self.scratch);
        for d in 0..self.dirs {
            self.pushes(d, FREE, &mut pushes[0]);
            for p in 0..self.n {
                if let Some(set) = Analysis::closure(&pushes[0], p, half) {
                    if set & (set - 1) == 0 {
                        self.scratch = pushes;
                        return Some((set, d));
                    }
                    first_group.get_or_insert((set, d));
                }
            }
        }
        self.scratch = pushes;
        first_group
    }

    /// Add a move to those of the direction; whether it was new. (Few
    /// moves are looked up in the list, many in a table.)
    fn learn(&mut self, set: Set, step: u32) -> bool {
        const SHORT: usize = 16;
        if self.found.len() < SHORT {
            if self.found.contains(&(set, step)) {
                return false;
            }
        } else {
            if self.known.is_empty() {
                self.known.extend(self.found.iter().copied());
            }
            if !self.known.insert((set, step)) {
                return false;
            }
        }
        self.found.push((set, step));
        true
    }

    /// Every slide in BurrTools' order, each handed to `emit` as (set,
    /// distance, direction); at most `limit` moves found in one direction.
    /// Call only when [`Analysis::removal`] found none (else a slide may
    /// have no end).
    pub(super) fn slides(
        &mut self,
        limit: usize,
        mut emit: impl FnMut(Set, u32, usize) -> Result<(), DisassemblyError>,
    ) -> Result<(), DisassemblyError> {
        let half = (self.n / 2) as u32;
        let all: Set = if self.n == 128 { !0 } else { (1 << self.n) - 1 };
        // pushes[s - 1]: the pushes of a slide by s cells, as far as needed
        let mut pushes = std::mem::take(&mut self.scratch);
        for d in 0..self.dirs {
            self.found.clear();
            self.known.clear();
            let mut ready = 0;
            for p in 0..self.n {
                let mut step = 1;
                loop {
                    // the pushes of short slides are kept for the other
                    // pieces; a long slide's are made afresh
                    let s = (step as usize).min(KEPT_STEPS + 1);
                    while ready < s {
                        if pushes.len() <= ready {
                            pushes.push(Vec::new());
                        }
                        self.pushes(d, ready as u32 + 1, &mut pushes[ready]);
                        ready += 1;
                    }
                    if s > KEPT_STEPS {
                        self.pushes(d, step, &mut pushes[KEPT_STEPS]);
                        ready = KEPT_STEPS;
                    }
                    let Some(set) = Analysis::closure(&pushes[s - 1], p, half) else {
                        break;
                    };
                    if self.learn(set, step) {
                        emit(set, step, d)?;
                        // merge with the moves found so far, newest first
                        // (those the merges add wait for the next move)
                        let newest = self.found.len() - 1;
                        for k in (0..newest).rev() {
                            let (other, amount) = self.found[k];
                            if amount != step {
                                continue;
                            }
                            let union = set | other;
                            if union == set || union == other || union == all {
                                continue;
                            }
                            if self.learn(union, step) {
                                emit(union, step, d)?;
                            }
                        }
                        if self.found.len() > limit {
                            self.scratch = pushes;
                            return Err(DisassemblyError::TooManyStates { limit });
                        }
                    }
                    step += 1;
                }
            }
        }
        self.scratch = pushes;
        Ok(())
    }
}
