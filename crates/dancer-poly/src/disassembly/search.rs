//! The breadth-first search of one part, the way back to its start, and
//! the parts it falls into.

use super::analysis::{Analysis, Set};
use super::blocking::{Axis, Library, MixHasher};
use super::{DisassemblyError, Move, Separation};
use std::hash::Hasher;
use std::sync::atomic::{AtomicBool, Ordering};

/// How often (states looked at) the search reads the cancel flag.
const CANCEL_EVERY: usize = 256;

/// What every part's search shares: the pieces, the rules, the cache.
pub(super) struct Context<'a> {
    pub(super) axes: &'static [Axis],
    /// The assembly's pieces, as placed.
    pub(super) voxels: &'a [Vec<[i32; 3]>],
    /// Each piece's shape in the library and where its origin lies.
    pub(super) placed: Vec<(u32, [i32; 3])>,
    /// Per piece, or empty: none.
    pub(super) groups: &'a [u32],
    /// Per piece, or empty: all alike.
    pub(super) weights: &'a [i32],
    pub(super) library: &'a mut Library,
    /// State lists and analyses of finished parts, to be used again.
    pub(super) spare: &'a mut Spare,
    pub(super) cancel: Option<&'a AtomicBool>,
    pub(super) max_states: usize,
    /// States looked at so far, all parts together.
    pub(super) looked: usize,
}

/// How a state was reached: from `parent` by a slide of `amount` cells in
/// direction `dir`, piece 0 among the moving pieces or not (which tells
/// the moving pieces from the others, see [`States::moving`]).
#[derive(Clone, Copy)]
struct Node {
    parent: u32,
    amount: u32,
    dir: u8,
    zero_moves: bool,
}

/// The states of one search in the order found (which is the order they
/// are looked at: the queue is an index into this list), each stored as
/// the offsets of pieces `1..n` relative to piece 0, with a hash table
/// over them.
struct States {
    width: usize,
    cells: Vec<i16>,
    nodes: Vec<Node>,
    hashes: Vec<u32>,
    /// Open addressing: state number + 1, 0 for an empty slot.
    slots: Vec<u32>,
}

/// The state lists and analyses of parts whose search is over, kept for
/// the next (an assembly of few pieces is taken apart in microseconds, and
/// allocating them anew was a third of it).
#[derive(Default)]
pub(super) struct Spare {
    states: Vec<States>,
    analyses: Vec<Analysis>,
    buffers: Vec<Buffers>,
}

/// A part's search's own lists: the state being made, the offsets of the
/// state looked at, the pieces' shapes and origins.
#[derive(Default)]
struct Buffers {
    rel: Vec<i16>,
    at: Vec<[i32; 3]>,
    placed: Vec<(u32, [i32; 3])>,
}

impl std::fmt::Debug for Spare {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spare")
            .field("states", &self.states.len())
            .field("analyses", &self.analyses.len())
            .finish()
    }
}

impl Spare {
    /// At most this many of each are kept.
    const KEPT: usize = 16;

    fn states(&mut self, width: usize) -> States {
        match self.states.pop() {
            Some(mut s) => {
                s.reset(width);
                s
            }
            None => States::new(width),
        }
    }

    fn analysis(&mut self, n: usize, axes: usize) -> Analysis {
        match self.analyses.pop() {
            Some(mut a) => {
                a.reset(n, axes);
                a
            }
            None => Analysis::new(n, axes),
        }
    }

    fn keep_states(&mut self, s: States) {
        if self.states.len() < Self::KEPT {
            self.states.push(s);
        }
    }

    fn keep_analysis(&mut self, a: Analysis) {
        if self.analyses.len() < Self::KEPT {
            self.analyses.push(a);
        }
    }
}

fn hash_of(state: &[i16]) -> u32 {
    let mut h = MixHasher::default();
    for chunk in state.chunks(4) {
        let word = chunk
            .iter()
            .fold(0u64, |w, &c| (w << 16) | u64::from(c as u16));
        h.write_u64(word);
    }
    (h.finish() >> 32) as u32
}

impl States {
    fn new(width: usize) -> States {
        States {
            width,
            cells: Vec::new(),
            nodes: Vec::new(),
            hashes: Vec::new(),
            slots: vec![0; 64],
        }
    }

    /// Empty, for states of `width` numbers, keeping what was allocated.
    fn reset(&mut self, width: usize) {
        self.width = width;
        self.cells.clear();
        self.nodes.clear();
        self.hashes.clear();
        self.slots.clear();
        self.slots.resize(64, 0);
    }

    fn len(&self) -> usize {
        self.nodes.len()
    }

    fn get(&self, k: usize) -> &[i16] {
        &self.cells[k * self.width..(k + 1) * self.width]
    }

    /// Add `state` unless known; whether it was new.
    fn insert(&mut self, state: &[i16], node: Node) -> bool {
        let h = hash_of(state);
        let mask = self.slots.len() - 1;
        let mut at = h as usize & mask;
        while self.slots[at] != 0 {
            let k = (self.slots[at] - 1) as usize;
            if self.hashes[k] == h && self.get(k) == state {
                return false;
            }
            at = (at + 1) & mask;
        }
        let k = self.nodes.len();
        self.slots[at] = k as u32 + 1;
        self.cells.extend_from_slice(state);
        self.nodes.push(node);
        self.hashes.push(h);
        if 2 * self.nodes.len() > self.slots.len() {
            self.grow();
        }
        true
    }

    fn grow(&mut self) {
        let size = 2 * self.slots.len();
        self.slots = vec![0; size];
        for (k, &h) in self.hashes.iter().enumerate() {
            let mut at = h as usize & (size - 1);
            while self.slots[at] != 0 {
                at = (at + 1) & (size - 1);
            }
            self.slots[at] = k as u32 + 1;
        }
    }

    /// Whether piece `i` moved from state `node.parent` to state `k`.
    fn moving(&self, k: usize, i: usize) -> bool {
        let node = self.nodes[k];
        if i == 0 {
            return node.zero_moves;
        }
        let (from, to) = (self.get(node.parent as usize), self.get(k));
        let at = 3 * (i - 1);
        let still = from[at..at + 3] == to[at..at + 3];
        still == node.zero_moves
    }
}

fn all_of(n: usize) -> Set {
    if n == 128 {
        !0
    } else {
        (1 << n) - 1
    }
}

fn scaled(axis: &Axis, dir: usize, amount: u32) -> [i32; 3] {
    let sign = if dir & 1 == 1 { -1 } else { 1 };
    // amounts are blocking distances, within the bounds of coordinates
    let a = amount as i32 * sign;
    [axis.step[0] * a, axis.step[1] * a, axis.step[2] * a]
}

impl Context<'_> {
    /// BurrTools moves the lighter side: when the moving pieces weigh
    /// more (the heaviest of each side; `movementAnalysator_c::newNode`),
    /// the rest moves the other way.
    fn orient(&self, pieces: &[usize], set: Set, dir: usize) -> (Set, usize) {
        if self.weights.is_empty() {
            return (set, dir);
        }
        let (mut moving, mut still) = (0, 0);
        for (i, &p) in pieces.iter().enumerate() {
            let w = self.weights[p];
            if set >> i & 1 == 1 {
                moving = moving.max(w);
            } else {
                still = still.max(w);
            }
        }
        if still < moving {
            (all_of(pieces.len()) & !set, dir ^ 1)
        } else {
            (set, dir)
        }
    }

    fn check_cancel(&mut self) -> Result<(), DisassemblyError> {
        self.looked += 1;
        if self.looked % CANCEL_EVERY == 1 && self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Err(DisassemblyError::Cancelled);
        }
        Ok(())
    }

    /// Disassemble the part made of `pieces` (global numbers, in order)
    /// standing at `start` (offsets from the assembled position): the
    /// separation tree, or `None` when it does not come apart.
    pub(super) fn part(
        &mut self,
        pieces: &[usize],
        start: &[[i32; 3]],
    ) -> Result<Option<Separation>, DisassemblyError> {
        let n = pieces.len();
        let mut states = self.spare.states(3 * (n - 1));
        let mut buffers = self.spare.buffers.pop().unwrap_or_default();
        let (rel, at, placed) = (&mut buffers.rel, &mut buffers.at, &mut buffers.placed);
        rel.clear();
        rel.resize(3 * (n - 1), 0);
        at.clear();
        at.resize(n, [0; 3]);
        placed.clear();
        placed.extend(pieces.iter().map(|&p| self.placed[p]));
        for i in 1..n {
            for c in 0..3 {
                let d = start[i][c]
                    .checked_sub(start[0][c])
                    .ok_or(DisassemblyError::TooFar)?;
                rel[3 * (i - 1) + c] = narrow(d)?;
            }
        }
        let root = Node {
            parent: 0,
            amount: 0,
            dir: 0,
            zero_moves: false,
        };
        states.insert(rel, root);
        let mut analysis = self.spare.analysis(n, self.axes.len());
        let mut k = 0;
        while k < states.len() {
            self.check_cancel()?;
            let state = states.get(k);
            for i in 1..n {
                let s = &state[3 * (i - 1)..3 * i];
                at[i] = [i32::from(s[0]), i32::from(s[1]), i32::from(s[2])];
            }
            analysis.prepare(self.library, self.axes, placed, at);
            if let Some((set, dir)) = analysis.removal() {
                let (set, dir) = self.orient(pieces, set, dir);
                self.spare.keep_analysis(analysis);
                self.spare.buffers.push(buffers);
                return self.separate(pieces, start, states, k, set, dir);
            }
            let limit = self.max_states;
            let axes = self.axes;
            analysis.slides(limit, |set, amount, dir| {
                let (set, dir) = self.orient(pieces, set, dir);
                let v = scaled(&axes[dir >> 1], dir, amount);
                // piece 0 stays at the origin: when it moves, the others
                // move back
                let zero_moves = set & 1 == 1;
                for i in 1..n {
                    if (set >> i & 1 == 1) != zero_moves {
                        let sign = if zero_moves { -1 } else { 1 };
                        for c in 0..3 {
                            rel[3 * (i - 1) + c] = narrow(at[i][c] + sign * v[c])?;
                        }
                    } else {
                        for c in 0..3 {
                            rel[3 * (i - 1) + c] = at[i][c] as i16;
                        }
                    }
                }
                let node = Node {
                    parent: k as u32,
                    amount,
                    dir: dir as u8,
                    zero_moves,
                };
                if states.len() >= limit {
                    if states.insert(rel, node) {
                        return Err(DisassemblyError::TooManyStates { limit });
                    }
                } else {
                    states.insert(rel, node);
                }
                Ok(())
            })?;
            k += 1;
        }
        self.spare.keep_analysis(analysis);
        self.spare.keep_states(states);
        self.spare.buffers.push(buffers);
        Ok(None)
    }

    /// The way from the start to state `k`, the removal of `set` in
    /// direction `dir` from there, and the two parts.
    fn separate(
        &mut self,
        pieces: &[usize],
        start: &[[i32; 3]],
        states: States,
        k: usize,
        set: Set,
        dir: usize,
    ) -> Result<Option<Separation>, DisassemblyError> {
        let n = pieces.len();
        let mut path = vec![k];
        while *path.last().unwrap_or(&0) != 0 {
            let last = path[path.len() - 1];
            path.push(states.nodes[last].parent as usize);
        }
        path.reverse();
        // the part's states, one after the other in one list
        let mut offsets = Vec::with_capacity(path.len() + 1);
        offsets.push(start.to_vec());
        let mut moves = Vec::with_capacity(path.len());
        for &c in &path[1..] {
            let node = states.nodes[c];
            let dir = usize::from(node.dir);
            let axis = &self.axes[dir >> 1];
            let v = scaled(axis, dir, node.amount);
            let mut now = offsets[offsets.len() - 1].clone();
            let mut moving = Vec::new();
            for (i, at) in now.iter_mut().enumerate() {
                if states.moving(c, i) {
                    *at = add(*at, v)?;
                    moving.push(pieces[i]);
                }
            }
            offsets.push(now);
            moves.push(Move {
                pieces: moving,
                direction: scaled(axis, dir, 1),
                distance: node.amount,
                removes: false,
            });
        }
        self.spare.keep_states(states);
        let now = &offsets[offsets.len() - 1];
        let axis = &self.axes[dir >> 1];
        let clear = self.clearance(pieces, now, set, axis, dir);
        let v = scaled(axis, dir, clear);
        let mut last = now.clone();
        let (mut left, mut left_at, mut removed, mut removed_at) = (vec![], vec![], vec![], vec![]);
        for i in 0..n {
            if set >> i & 1 == 1 {
                last[i] = add(now[i], v)?;
                removed.push(pieces[i]);
                removed_at.push(now[i]);
            } else {
                left.push(pieces[i]);
                left_at.push(now[i]);
            }
        }
        offsets.push(last);
        moves.push(Move {
            pieces: removed.clone(),
            direction: scaled(axis, dir, 1),
            distance: clear,
            removes: true,
        });
        // BurrTools looks at the part left behind first, and at the
        // removed part only if that one came apart
        let Some(left_tree) = self.subpart(&left, &left_at)? else {
            return Ok(None);
        };
        let Some(removed_tree) = self.subpart(&removed, &removed_at)? else {
            return Ok(None);
        };
        Ok(Some(Separation {
            pieces: pieces.to_vec(),
            states: offsets,
            moves,
            left: left_tree.map(Box::new),
            removed: removed_tree.map(Box::new),
        }))
    }

    /// A part after a separation: done when it is one piece or its
    /// pieces share a group (`Some(None)`), else its own tree, or `None`
    /// when it does not come apart.
    #[allow(clippy::option_option)]
    fn subpart(
        &mut self,
        pieces: &[usize],
        at: &[[i32; 3]],
    ) -> Result<Option<Option<Separation>>, DisassemblyError> {
        if pieces.len() == 1 || self.one_group(pieces) {
            return Ok(Some(None));
        }
        Ok(self.part(pieces, at)?.map(Some))
    }

    fn one_group(&self, pieces: &[usize]) -> bool {
        let Some(&first) = pieces.first() else {
            return true;
        };
        let g = self.groups.get(first).copied().unwrap_or(0);
        g != 0
            && pieces
                .iter()
                .all(|&p| self.groups.get(p).copied().unwrap_or(0) == g)
    }

    /// Cells the removed pieces slide to lie wholly beyond the rest along
    /// the direction of removal (at least one).
    fn clearance(
        &self,
        pieces: &[usize],
        at: &[[i32; 3]],
        set: Set,
        axis: &Axis,
        dir: usize,
    ) -> u32 {
        let sign: i64 = if dir & 1 == 1 { -1 } else { 1 };
        let (mut lowest_moving, mut highest_still) = (i64::MAX, i64::MIN);
        for (i, &p) in pieces.iter().enumerate() {
            let off = i64::from(at[i][axis.along]);
            for v in &self.voxels[p] {
                let f = sign * (i64::from(v[axis.along]) + off);
                if set >> i & 1 == 1 {
                    lowest_moving = lowest_moving.min(f);
                } else {
                    highest_still = highest_still.max(f);
                }
            }
        }
        let gap = highest_still - lowest_moving;
        if gap < 0 {
            1
        } else {
            // within the bounds of coordinates and offsets
            (gap / i64::from(axis.gain) + 1) as u32
        }
    }
}

/// A piece's offset moved on; the pieces of a part may have drifted far
/// together over many moves.
fn add(a: [i32; 3], b: [i32; 3]) -> Result<[i32; 3], DisassemblyError> {
    let mut sum = [0; 3];
    for c in 0..3 {
        sum[c] = a[c].checked_add(b[c]).ok_or(DisassemblyError::TooFar)?;
    }
    Ok(sum)
}

/// An offset of one piece relative to another, as stored.
fn narrow(x: i32) -> Result<i16, DisassemblyError> {
    i16::try_from(x).map_err(|_| DisassemblyError::TooFar)
}
