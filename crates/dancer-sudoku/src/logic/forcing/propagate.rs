//! The propagation of forcing chains: from an assumption, every
//! implication on the grid (one link at a time, or resting on several
//! earlier ones) and the plus kinds' basic rules on bitboards. The nested
//! kinds' inner rules, tried when those are exhausted, are `levels.rs`'s;
//! the searches that choose what to assume and which conclusion to take
//! are `mod.rs`'s.

use super::super::board::*;
use super::super::chains::{cand, node, Net, NNODE, NONE};

/// How implications are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// One link at a time, on the links of the grid as it is.
    Static,
    /// One digit only, dynamic.
    Nishio,
    /// Several premises at once.
    Dynamic,
    /// Dynamic, with locked candidates, pairs and X-Wings.
    Plus,
    /// SE's nested level 2: dynamic plus, with every elimination of the
    /// static forcing chains of the assumed grid inside.
    Level2,
    /// SE's nested level 3: level 2, then static cell and region forcing
    /// chains of the assumed grid inside.
    Level3,
    /// Dynamic plus, with dynamic contradictions inside (tried after level
    /// 3, in the place of SE's level 4).
    Nested,
}

impl Kind {
    /// Do the basic rules (locked candidates, pairs, X-Wings) run inside?
    pub fn plus(self) -> bool {
        matches!(
            self,
            Kind::Plus | Kind::Level2 | Kind::Level3 | Kind::Nested
        )
    }
}

/// The implications of one assumption.
pub(crate) struct Branch {
    /// Nodes in the order they were found.
    pub nodes: Vec<u16>,
    /// Offsets of each node's parents in `parents` (len = nodes + 1).
    pstart: Vec<u32>,
    /// Parents, as indices into `nodes`.
    parents: Vec<u16>,
    /// Nodes on the longest path from an assumption to each node (a lower
    /// bound of its ancestors).
    depth: Vec<u16>,
    /// For each node (0..1458), its index in `nodes` or [`NONE`].
    pub index: Vec<u16>,
    /// The two nodes (on, off) of a candidate implied both ways.
    pub conflict: Option<(u16, u16)>,
    /// Extra complexity of nested deductions ([`Kind::Nested`]).
    pub nested_extra: usize,
    /// For each node, the inner chain that derived it (levels 2 and 3): a
    /// key naming the chain, 0 for none, and the chain's own complexity.
    pub(super) nest: Vec<(u64, u32)>,
    /// Whether some node has an inner chain.
    pub(super) tagged: bool,
    /// Whether the propagation stopped early because every conclusion the
    /// branch could take part in would be too complex (see
    /// [`Propagator::give_up`]); the branch is then incomplete and useless.
    pub abandoned: bool,
}

impl Branch {
    pub fn new() -> Self {
        Branch {
            nodes: Vec::with_capacity(256),
            pstart: Vec::with_capacity(257),
            parents: Vec::with_capacity(512),
            depth: Vec::with_capacity(256),
            index: vec![NONE; NNODE],
            conflict: None,
            nested_extra: 0,
            nest: Vec::with_capacity(256),
            tagged: false,
            abandoned: false,
        }
    }

    fn reset(&mut self) {
        for &n in &self.nodes {
            self.index[n as usize] = NONE;
        }
        self.nodes.clear();
        self.pstart.clear();
        self.pstart.push(0);
        self.parents.clear();
        self.depth.clear();
        self.conflict = None;
        self.nested_extra = 0;
        self.nest.clear();
        self.tagged = false;
        self.abandoned = false;
    }

    #[inline]
    pub fn has(&self, n: usize) -> bool {
        self.index[n] != NONE
    }

    /// Adds node `n` with parents (node ids); returns its index.
    fn add(&mut self, n: usize, parents: &[u16]) -> u16 {
        let i = self.nodes.len() as u16;
        self.nodes.push(n as u16);
        let d = parents
            .iter()
            .map(|&p| self.depth[p as usize])
            .max()
            .unwrap_or(0);
        self.depth.push(d + 1);
        self.nest.push((0, 0));
        self.parents.extend_from_slice(parents);
        self.pstart.push(self.parents.len() as u32);
        self.index[n] = i;
        i
    }

    /// A lower bound of [`Branch::ancestors`].
    #[inline]
    pub fn min_ancestors(&self, i: usize) -> usize {
        self.depth[i] as usize
    }

    pub(super) fn parents_of(&self, i: usize) -> &[u16] {
        &self.parents[self.pstart[i] as usize..self.pstart[i + 1] as usize]
    }

    /// Number of nodes behind node index `i` (itself included).
    pub fn ancestors(&self, i: usize, stamp: &mut Vec<u32>, gen: &mut u32) -> usize {
        if stamp.len() < self.nodes.len() {
            stamp.resize(self.nodes.len(), 0);
        }
        *gen = gen.wrapping_add(1);
        if *gen == 0 {
            stamp.iter_mut().for_each(|s| *s = 0);
            *gen = 1;
        }
        let g = *gen;
        let mut stack = vec![i as u16];
        stamp[i] = g;
        let mut n = 0;
        while let Some(x) = stack.pop() {
            n += 1;
            for &p in self.parents_of(x as usize) {
                if stamp[p as usize] != g {
                    stamp[p as usize] = g;
                    stack.push(p);
                }
            }
        }
        n
    }

    /// Forgets the node that met its opposite (the last one), keeping the
    /// nodes before it: the branch as SE keeps it, cut at its contradiction.
    pub(super) fn cut_at_conflict(&mut self) {
        if self.conflict.take().is_some() {
            let n = self.nodes.pop().unwrap() as usize;
            self.index[n] = NONE;
            self.pstart.pop();
            self.parents.truncate(*self.pstart.last().unwrap() as usize);
            self.depth.pop();
            self.nest.pop();
        }
    }
}

/// Conclusions of the basic rules: each node derived, with the nodes
/// (placements and eliminations of the assumed grid) that justify it.
pub(super) type Found = Vec<(usize, Vec<u16>)>;

/// Where the basic rules of [`Propagator::basic_rules`] may conclude
/// something: a place is clean once its rule concluded nothing there, and
/// dirty again when a candidate in it goes (a rule's conclusions depend only
/// on the candidates of its place, and candidates only go).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Dirty {
    /// For each unit, the digits (indices) whose locked candidates are to
    /// be tried there: pointing in a box, claiming in a line.
    pub(super) locked: [u16; 27],
    /// Units where naked and hidden pairs are to be tried.
    pairs: u32,
    /// Digits (indices) where X-Wings are to be tried.
    fish: u16,
}

impl Dirty {
    const ALL: Dirty = Dirty {
        locked: [0x1ff; 27],
        pairs: (1 << 27) - 1,
        fish: 0x1ff,
    };

    /// Candidates `digits` of `cell` went.
    #[inline]
    fn touch(&mut self, cell: usize, digits: Digits) {
        let units = CELL_UNIT_BITS[cell];
        for &u in &CELL_UNITS[cell] {
            self.locked[u as usize] |= digits;
        }
        self.pairs |= units;
        self.fish |= digits;
    }
}

/// For each cell, its three units as bits.
const fn make_cell_unit_bits() -> [u32; 81] {
    let mut t = [0u32; 81];
    let mut c = 0;
    while c < 81 {
        let r = c / 9;
        let col = c % 9;
        t[c] = (1 << r) | (1 << (9 + col)) | (1 << (18 + (r / 3) * 3 + col / 3));
        c += 1;
    }
    t
}
static CELL_UNIT_BITS: [u32; 81] = make_cell_unit_bits();

/// `x` has exactly one bit set.
#[inline]
fn one(x: u128) -> bool {
    x != 0 && x & (x - 1) == 0
}

/// `x` has exactly two bits set.
#[inline]
fn two(x: u128) -> bool {
    let y = x & x.wrapping_sub(1);
    y != 0 && y & (y - 1) == 0
}

/// `x` has exactly two bits set.
#[inline]
fn two16(x: u16) -> bool {
    let y = x & x.wrapping_sub(1);
    y != 0 && y & (y - 1) == 0
}

/// `x` has two bits set or more.
#[inline]
fn several(x: u128) -> bool {
    x & x.wrapping_sub(1) != 0
}

/// Scratch state of a propagation.
pub(super) struct Scratch {
    /// Digits of each cell assumed off.
    cell_off: [Digits; 81],
    /// For each unit and digit index, places (along the unit) assumed off.
    unit_off: [[u16; 9]; 27],
    /// Cells with a digit assumed on.
    pub(super) placed: [u8; 81],
    /// For each digit index, the cells where it is still a candidate in the
    /// assumed grid (not placed, not assumed off).
    pub(super) digit_cells: [Cells; 9],
    /// For each digit index, the cells where it is assumed on.
    pub(super) placed_cells: [Cells; 9],
    /// For each unit, the places (bits 0..9 along it) of cells assumed on.
    placed_at: [u16; 27],
    /// Where the basic rules may conclude something.
    dirty: Dirty,
    /// The conclusions of the basic rules (kept for its allocation).
    found: Vec<(usize, Vec<u16>)>,
    queue: Vec<u16>,
    /// The off nodes to expand, when "on" nodes go first (SE's order).
    queue_off: Vec<u16>,
}

impl Scratch {
    fn new() -> Self {
        Scratch {
            cell_off: [0; 81],
            unit_off: [[0; 9]; 27],
            placed: [0; 81],
            digit_cells: [0; 9],
            placed_cells: [0; 9],
            placed_at: [0; 27],
            dirty: Dirty::ALL,
            found: Vec::new(),
            queue: Vec::with_capacity(NNODE),
            queue_off: Vec::with_capacity(NNODE),
        }
    }
}

/// The position of a cell along each of its units.
const fn make_unit_index() -> [[u8; 3]; 81] {
    let mut t = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let r = c / 9;
        let col = c % 9;
        t[c] = [col as u8, r as u8, ((r % 3) * 3 + col % 3) as u8];
        c += 1;
    }
    t
}
static UNIT_INDEX: [[u8; 3]; 81] = make_unit_index();

/// Everything `start` implies under `kind`; stops at the first contradiction.
pub(crate) struct Propagator<'a> {
    pub(super) net: &'a Net,
    pub(super) kind: Kind,
    pub(super) sc: Scratch,
    /// A branch is abandoned once its nested complexity reaches this: every
    /// conclusion counts the branch's `nested_extra` plus at least two nodes
    /// (a contradiction's two nodes; a node of this branch and one of
    /// another), so none of them could be simpler than the best found so far
    /// (the caller sets this to that bound before each run).
    pub give_up: usize,
    /// For each digit index, the cells where the net has it.
    digit_cells: [Cells; 9],
    /// Where the basic rules may conclude something in the net itself.
    base_dirty: Dirty,
    /// A solution of the board (any one), for `levels.rs`'s `first_contradiction`
    /// shortcut.
    pub solution: Option<[u8; 81]>,
    /// SE's order (the nested levels): "on" nodes expanded before "off"
    /// ones, a cell's peers box first, then the rest of its row and column,
    /// units box, row, column; else one queue, peers and units in index
    /// order (what the ratings below the nested levels rest on).
    pub se_order: bool,
    /// SE's basic rules (the nested levels): locked candidates justified by
    /// the places gone outside the cover unit only; every hidden pair (if
    /// none, every naked pair) of the grid, not those of the first unit.
    pub se_rules: bool,
}

impl<'a> Propagator<'a> {
    pub fn new(net: &'a Net, kind: Kind) -> Self {
        let mut digit_cells = [0; 9];
        for (c, &m) in net.cands.iter().enumerate() {
            let mut m = m;
            while m != 0 {
                digit_cells[m.trailing_zeros() as usize] |= 1u128 << c;
                m &= m - 1;
            }
        }
        let mut p = Propagator {
            net,
            kind,
            sc: Scratch::new(),
            give_up: usize::MAX,
            digit_cells,
            base_dirty: Dirty::ALL,
            solution: None,
            se_order: matches!(kind, Kind::Level2 | Kind::Level3),
            se_rules: matches!(kind, Kind::Level2 | Kind::Level3),
        };
        if kind.plus() {
            p.reset();
            let mut found = Vec::new();
            p.collect(&Branch::new(), true, &mut found);
            p.base_dirty = p.sc.dirty;
        }
        p
    }

    /// The scratch state of an empty branch.
    fn reset(&mut self) {
        self.sc.cell_off = [0; 81];
        self.sc.unit_off = [[0; 9]; 27];
        self.sc.placed = [0; 81];
        self.sc.digit_cells = self.digit_cells;
        self.sc.placed_cells = [0; 9];
        self.sc.placed_at = [0; 27];
        self.sc.dirty = self.base_dirty;
        self.sc.queue.clear();
        self.sc.queue_off.clear();
    }

    /// The candidates of each cell in the assumed grid, from the scratch
    /// state (equal to [`Propagator::assumed_cands`] once every node of the
    /// branch is expanded).
    pub(super) fn cands_now(&self) -> [Digits; 81] {
        let mut cands = [0; 81];
        for (c, m) in cands.iter_mut().enumerate() {
            if self.sc.placed[c] == 0 {
                *m = self.net.cands[c] & !self.sc.cell_off[c];
            }
        }
        cands
    }

    /// Derives node `n` from `parents`; false on a contradiction.
    pub(super) fn derive(&mut self, br: &mut Branch, n: usize, parents: &[u16]) -> bool {
        if br.has(n) {
            return true;
        }
        let i = br.add(n, parents);
        let opp = n ^ 1;
        if br.has(opp) {
            let o = br.index[opp];
            br.conflict = Some(if n & 1 == 1 { (i, o) } else { (o, i) });
            return false;
        }
        if self.se_order && n & 1 == 0 {
            self.sc.queue_off.push(n as u16);
        } else {
            self.sc.queue.push(n as u16);
        }
        true
    }

    /// The order of a cell's units (indices into [`CELL_UNITS`]) when
    /// deriving from an "off" node.
    #[inline]
    fn unit_order(&self) -> [usize; 3] {
        if self.se_order {
            [2, 0, 1]
        } else {
            [0, 1, 2]
        }
    }

    pub fn run(&mut self, start: usize, br: &mut Branch) {
        self.run_from(&[start], br)
    }

    /// Propagates from several starting nodes (all assumed together).
    pub fn run_from(&mut self, starts: &[usize], br: &mut Branch) {
        br.reset();
        self.reset();
        for &s in starts {
            if !self.derive(br, s, &[]) {
                return;
            }
        }
        loop {
            let (mut head, mut head_off) = (0, 0);
            loop {
                let n = if head < self.sc.queue.len() {
                    head += 1;
                    self.sc.queue[head - 1]
                } else if head_off < self.sc.queue_off.len() {
                    head_off += 1;
                    self.sc.queue_off[head_off - 1]
                } else {
                    break;
                };
                if !self.expand(n as usize, br) {
                    return;
                }
            }
            self.sc.queue.clear();
            self.sc.queue_off.clear();
            let more = match self.kind {
                Kind::Plus => self.basic_rules(br),
                Kind::Level2 | Kind::Level3 | Kind::Nested => {
                    self.basic_rules(br) || self.inner_rule(br)
                }
                _ => false,
            };
            if !more || br.conflict.is_some() || br.abandoned {
                return;
            }
        }
    }

    fn expand(&mut self, n: usize, br: &mut Branch) -> bool {
        let net = self.net;
        let c = n >> 1;
        let cell = c / 9;
        let di = c % 9;
        let me = br.index[n];
        if n & 1 == 1 {
            self.sc.placed[cell] = di as u8 + 1;
            for d in self.sc.digit_cells.iter_mut() {
                *d &= !(1u128 << cell);
            }
            self.sc.placed_cells[di] |= 1u128 << cell;
            for k in 0..3 {
                self.sc.placed_at[CELL_UNITS[cell][k] as usize] |= 1 << UNIT_INDEX[cell][k];
            }
            self.sc.dirty.touch(cell, net.cands[cell]);
            if self.kind != Kind::Nishio {
                let mut m = net.cands[cell] & !(1 << di);
                while m != 0 {
                    let e = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if !self.derive(br, (cell * 9 + e) * 2, &[me]) {
                        return false;
                    }
                }
            }
            let peers = if self.se_order {
                &SE_PEERS[cell]
            } else {
                &PEERS[cell]
            };
            for &q in peers {
                let q = q as usize;
                if net.cands[q] >> di & 1 == 1 && !self.derive(br, (q * 9 + di) * 2, &[me]) {
                    return false;
                }
            }
            return true;
        }
        // off
        self.sc.digit_cells[di] &= !(1u128 << cell);
        self.sc.dirty.touch(cell, 1 << di);
        if self.kind == Kind::Static {
            let o = net.biv[c];
            if o != NONE && !self.derive(br, o as usize * 2 + 1, &[me]) {
                return false;
            }
            for k in self.unit_order() {
                let o = net.conj[c][k];
                if o != NONE && !self.derive(br, o as usize * 2 + 1, &[me]) {
                    return false;
                }
            }
            return true;
        }
        self.sc.cell_off[cell] |= 1 << di;
        if self.kind != Kind::Nishio {
            let left = net.cands[cell] & !self.sc.cell_off[cell];
            if one(left as u128) && self.sc.placed[cell] == 0 {
                let e = left.trailing_zeros() as usize;
                let mut ps = [0u16; 9];
                let mut k = 0;
                let mut m = net.cands[cell] & !left;
                while m != 0 {
                    let x = m.trailing_zeros() as usize;
                    m &= m - 1;
                    ps[k] = br.index[(cell * 9 + x) * 2];
                    k += 1;
                }
                if !self.derive(br, (cell * 9 + e) * 2 + 1, &ps[..k]) {
                    return false;
                }
            }
        }
        for k in self.unit_order() {
            let u = CELL_UNITS[cell][k] as usize;
            self.sc.unit_off[u][di] |= 1 << UNIT_INDEX[cell][k];
            let left = net.unit_pos[u][di] & !self.sc.unit_off[u][di];
            if one(left as u128) {
                let q = UNITS[u][left.trailing_zeros() as usize] as usize;
                if br.has(node(cand(q, di as u8 + 1), true)) {
                    continue;
                }
                let mut ps = [0u16; 9];
                let mut k = 0;
                let mut m = net.unit_pos[u][di] & !left;
                while m != 0 {
                    let x = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let qc = UNITS[u][x] as usize;
                    ps[k] = br.index[(qc * 9 + di) * 2];
                    k += 1;
                }
                if !self.derive(br, (q * 9 + di) * 2 + 1, &ps[..k]) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether the scratch state's candidates, per cell and per digit, are
    /// those of the assumed grid: the invariant [`Propagator::basic_rules`]
    /// rests on.
    fn scratch_matches(&self, br: &Branch) -> bool {
        let cands = self.assumed_cands(br);
        let mut per_digit = [0u128; 9];
        for (c, &m) in cands.iter().enumerate() {
            for d in digits_of(m) {
                per_digit[d as usize - 1] |= 1u128 << c;
            }
        }
        let along_units = (0..27).all(|u| {
            (0..9).all(|di| {
                let mut local = 0u16;
                for (i, &c) in UNITS[u].iter().enumerate() {
                    if per_digit[di] >> c & 1 == 1 {
                        local |= 1 << i;
                    }
                }
                local == self.net.unit_pos[u][di] & !self.sc.unit_off[u][di] & !self.sc.placed_at[u]
            })
        });
        cands == self.cands_now() && per_digit == self.sc.digit_cells && along_units
    }

    /// The candidates of the assumed grid.
    pub(super) fn assumed_cands(&self, br: &Branch) -> [Digits; 81] {
        let mut cands = self.net.cands;
        for &n in &br.nodes {
            let n = n as usize;
            let c = n >> 1;
            let cell = c / 9;
            if n & 1 == 1 {
                cands[cell] = 0;
            } else {
                cands[cell] &= !(1 << (c % 9));
            }
        }
        cands
    }

    /// The off nodes (as indices) of digit index `di` in `cells`, among the
    /// original candidates.
    fn offs_in(&self, br: &Branch, cells: Cells, digits: Digits, out: &mut Vec<u16>) {
        for c in cells_of(cells) {
            let mut m = self.net.cands[c] & digits;
            while m != 0 {
                let x = m.trailing_zeros() as usize;
                m &= m - 1;
                let i = br.index[(c * 9 + x) * 2];
                if i != NONE {
                    out.push(i);
                }
                let j = br.index[(c * 9 + x) * 2 + 1];
                if j != NONE {
                    out.push(j);
                }
            }
        }
        // placed cells in those cells also justify
        out.sort_unstable();
        out.dedup();
    }

    /// Locked candidates, naked and hidden pairs, X-Wings in the assumed
    /// grid; true if something new was derived.
    ///
    /// Works on the per-digit cell sets of the scratch state, which
    /// [`Propagator::expand`] keeps equal to the assumed grid (every node of
    /// the branch is expanded when this runs). The rules are tried, and
    /// their conclusions listed, in a fixed order: locked candidates (box
    /// then line), then pairs unit by unit up to the first unit with one,
    /// then X-Wings up to the first; a rating depends on that order.
    fn basic_rules(&mut self, br: &mut Branch) -> bool {
        debug_assert!(self.scratch_matches(br));
        let mut found = std::mem::take(&mut self.sc.found);
        found.clear();
        self.collect(br, false, &mut found);
        let mut any = false;
        let mut ok = true;
        for (n, ps) in found.drain(..) {
            if !ok || br.has(n) {
                continue;
            }
            any = true;
            ok = self.derive(br, n, &ps);
        }
        self.sc.found = found;
        any
    }

    /// The conclusions of the basic rules, in [`Propagator::basic_rules`]'s
    /// order. A rule is only tried where the grid changed since it last
    /// concluded nothing (the sets of [`Dirty`]); a rule that concludes
    /// nothing leaves its place clean. With `all`, every rule is tried
    /// (no stop after the first family that concludes): how the clean
    /// places of the unassumed grid are found.
    fn collect(&mut self, br: &Branch, all: bool, found: &mut Found) {
        let mut dirty = self.sc.dirty;
        if self.se_rules && !all {
            self.collect_locked_se(br, &mut dirty, found);
        } else {
            self.collect_locked(br, &mut dirty, found);
        }
        if all || found.is_empty() {
            if self.se_rules && !all {
                self.collect_pairs_se(br, &mut dirty, found);
            } else {
                self.collect_pairs(br, all, &mut dirty, found);
            }
        }
        if all || found.is_empty() {
            self.collect_fish(br, all, &mut dirty, found);
        }
        self.sc.dirty = dirty;
    }

    /// Locked candidates: a digit of a box confined to one line, then a
    /// digit of a line confined to one box.
    #[inline]
    fn collect_locked(&self, br: &Branch, dirty: &mut Dirty, found: &mut Found) {
        let dm = self.sc.digit_cells;
        for bx in 18..27 {
            let mut todo = dirty.locked[bx];
            while todo != 0 {
                let di = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                let before = found.len();
                let p = dm[di] & UNIT_MASK[bx];
                if self.sc.placed_cells[di] & UNIT_MASK[bx] == 0 && p != 0 {
                    let c0 = p.trailing_zeros() as usize;
                    for line in [row_of(c0), 9 + col_of(c0)] {
                        if p & !UNIT_MASK[line] != 0 {
                            continue;
                        }
                        let targets = UNIT_MASK[line] & !UNIT_MASK[bx] & dm[di];
                        if targets == 0 {
                            continue;
                        }
                        self.push_locked(br, bx, line, di, targets, found);
                    }
                }
                if found.len() == before {
                    dirty.locked[bx] &= !(1 << di);
                }
            }
        }
        // ... and a digit of a line confined to one box
        for line in 0..18 {
            let mut todo = dirty.locked[line];
            while todo != 0 {
                let di = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                let p = dm[di] & UNIT_MASK[line];
                let mut fired = false;
                if several(p) {
                    let bx = 18 + box_of(p.trailing_zeros() as usize);
                    let targets = UNIT_MASK[bx] & !UNIT_MASK[line] & dm[di];
                    if p & !UNIT_MASK[bx] == 0 && targets != 0 {
                        fired = true;
                        self.push_locked(br, line, bx, di, targets, found);
                    }
                }
                if !fired {
                    dirty.locked[line] &= !(1 << di);
                }
            }
        }
    }

    /// Digit index `di`, locked in unit `u`, leaves the cells `targets`:
    /// each conclusion justified by the digit's places in `u` assumed off.
    #[inline]
    pub(super) fn push_locked(
        &self,
        br: &Branch,
        u: usize,
        cover: usize,
        di: usize,
        targets: Cells,
        found: &mut Found,
    ) {
        let mut ps = Vec::new();
        let base = if self.se_rules {
            UNIT_MASK[u] & !UNIT_MASK[cover]
        } else {
            UNIT_MASK[u]
        };
        self.offs_in(br, base, 1 << di, &mut ps);
        for c in cells_of(targets) {
            found.push(((c * 9 + di) * 2, ps.clone()));
        }
    }

    /// Naked and hidden pairs, unit by unit; without `all`, up to the
    /// first unit with one.
    #[inline]
    fn collect_pairs(&self, br: &Branch, all: bool, dirty: &mut Dirty, found: &mut Found) {
        let mut todo = dirty.pairs;
        while todo != 0 {
            let u = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let before = found.len();
            // the unit's open cells and their candidates, and each
            // digit's places along the unit (bits 0..9)
            let mut cells = [0usize; 9];
            let mut cc = [0 as Digits; 9];
            let mut k = 0;
            let mut open_at: u16 = 0;
            for (i, &c) in UNITS[u].iter().enumerate() {
                let c = c as usize;
                if self.sc.placed[c] == 0 {
                    let m = self.net.cands[c] & !self.sc.cell_off[c];
                    if m != 0 {
                        cells[k] = c;
                        cc[k] = m;
                        k += 1;
                        open_at |= 1 << i;
                    }
                }
            }
            self.naked_pairs(br, &cells[..k], &cc[..k], found);
            self.hidden_pairs(br, u, open_at, found);
            if found.len() == before {
                dirty.pairs &= !(1 << u);
            } else if !all {
                break;
            }
        }
    }

    /// SE's pairs: every hidden pair (units box, column, row), or if there
    /// is none every naked pair.
    fn collect_pairs_se(&self, br: &Branch, dirty: &mut Dirty, found: &mut Found) {
        let mut naked = Vec::new();
        for u in (18..27).chain(9..18).chain(0..9) {
            if dirty.pairs >> u & 1 == 0 {
                continue;
            }
            let (before, nb) = (found.len(), naked.len());
            let mut cells = [0usize; 9];
            let mut cc = [0 as Digits; 9];
            let mut k = 0;
            let mut open_at: u16 = 0;
            for (i, &c) in UNITS[u].iter().enumerate() {
                let c = c as usize;
                let m = self.net.cands[c] & !self.sc.cell_off[c];
                if self.sc.placed[c] == 0 && m != 0 {
                    cells[k] = c;
                    cc[k] = m;
                    k += 1;
                    open_at |= 1 << i;
                }
            }
            self.hidden_pairs(br, u, open_at, found);
            self.naked_pairs(br, &cells[..k], &cc[..k], &mut naked);
            if found.len() == before && naked.len() == nb {
                dirty.pairs &= !(1 << u);
            }
        }
        if found.is_empty() {
            found.append(&mut naked);
        }
    }

    /// Naked pairs among a unit's open `cells` with candidates `cc`.
    #[inline]
    fn naked_pairs(&self, br: &Branch, cells: &[usize], cc: &[Digits], found: &mut Found) {
        let k = cells.len();
        for i in 0..k {
            let m = cc[i];
            if !two16(m) {
                continue;
            }
            for j in i + 1..k {
                if cc[j] != m {
                    continue;
                }
                let c2 = cells[j];
                let mut ps = Vec::new();
                for (l, &c) in cells.iter().enumerate() {
                    if l != i && l != j && cc[l] & m != 0 {
                        if ps.is_empty() {
                            self.offs_in(
                                br,
                                (1u128 << cells[i]) | (1u128 << c2),
                                ALL_DIGITS,
                                &mut ps,
                            );
                        }
                        for d in digits_of(cc[l] & m) {
                            found.push(((c * 9 + d as usize - 1) * 2, ps.clone()));
                        }
                    }
                }
            }
        }
    }

    /// Hidden pairs of unit `u`, whose open cells are `open_at` (bits
    /// along the unit).
    #[inline]
    fn hidden_pairs(&self, br: &Branch, u: usize, open_at: u16, found: &mut Found) {
        let mut pos = [0u16; 9];
        for (d, p) in pos.iter_mut().enumerate() {
            *p = self.net.unit_pos[u][d] & !self.sc.unit_off[u][d] & open_at;
        }
        for a in 0..9 {
            if !two16(pos[a]) {
                continue;
            }
            for bdi in a + 1..9 {
                if pos[bdi] != pos[a] {
                    continue;
                }
                let keep: Digits = (1 << a) | (1 << bdi);
                let mut ps = Vec::new();
                let mut m = pos[a];
                while m != 0 {
                    let c = UNITS[u][m.trailing_zeros() as usize] as usize;
                    m &= m - 1;
                    let cm = self.net.cands[c] & !self.sc.cell_off[c];
                    for d in digits_of(cm & !keep) {
                        if ps.is_empty() {
                            self.offs_in(br, UNIT_MASK[u], keep, &mut ps);
                        }
                        found.push(((c * 9 + d as usize - 1) * 2, ps.clone()));
                    }
                }
            }
        }
    }

    /// X-Wings, digit by digit; without `all`, up to the first digit with
    /// one.
    #[inline]
    fn collect_fish(&self, br: &Branch, all: bool, dirty: &mut Dirty, found: &mut Found) {
        for di in 0..9usize {
            if dirty.fish >> di & 1 == 0 {
                continue;
            }
            let before = found.len();
            self.x_wing(br, di, found);
            if found.len() == before {
                dirty.fish &= !(1 << di);
            } else if !all && !self.se_rules {
                break;
            }
        }
    }

    /// The first X-Wing of digit index `di` (rows, then columns), if any.
    #[inline]
    fn x_wing(&self, br: &Branch, di: usize, found: &mut Found) {
        let dm = self.sc.digit_cells;
        let before = found.len();
        // the digit's places along each row and column
        let mut by_row = [0u16; 9];
        let mut by_col = [0u16; 9];
        for l in 0..9 {
            by_row[l] = self.net.unit_pos[l][di] & !self.sc.unit_off[l][di] & !self.sc.placed_at[l];
            by_col[l] = self.net.unit_pos[9 + l][di]
                & !self.sc.unit_off[9 + l][di]
                & !self.sc.placed_at[9 + l];
        }
        let bases = if self.se_rules {
            [false, true]
        } else {
            [true, false]
        };
        for rows in bases {
            let masks = if rows { by_row } else { by_col };
            for l1 in 0..9 {
                if !two(masks[l1] as u128) {
                    continue;
                }
                for l2 in l1 + 1..9 {
                    if masks[l2] != masks[l1] {
                        continue;
                    }
                    let u1 = if rows { l1 } else { 9 + l1 };
                    let u2 = if rows { l2 } else { 9 + l2 };
                    let mut ps = Vec::new();
                    for x in 0..9 {
                        if masks[l1] >> x & 1 == 0 {
                            continue;
                        }
                        for l in 0..9 {
                            if l == l1 || l == l2 {
                                continue;
                            }
                            let c = if rows { l * 9 + x } else { x * 9 + l };
                            if dm[di] >> c & 1 == 1 {
                                if ps.is_empty() {
                                    let base = self.fish_base(u1, u2, masks[l1], rows);
                                    self.offs_in(br, base, 1 << di, &mut ps);
                                }
                                found.push(((c * 9 + di) * 2, ps.clone()));
                            }
                        }
                    }
                    if found.len() > before && !self.se_rules {
                        return;
                    }
                }
            }
        }
    }

    /// The cells whose candidates gone justify an X-Wing on the lines `u1`
    /// and `u2` with places `at` (bits along them): the two lines, outside
    /// the two cover lines with SE's rules.
    fn fish_base(&self, u1: usize, u2: usize, at: u16, rows: bool) -> Cells {
        let mut base = UNIT_MASK[u1] | UNIT_MASK[u2];
        if self.se_rules {
            for x in (0..9).filter(|&x| at >> x & 1 == 1) {
                base &= !UNIT_MASK[if rows { 9 + x } else { x }];
            }
        }
        base
    }
}
