//! The propagation of forcing chains: from an assumption, every
//! implication on the grid (one link at a time, or resting on several
//! earlier ones), the plus kinds' basic rules on bitboards, and the first
//! contradiction of an assumed grid for nested chains (kept per thread).
//! The searches that choose what to assume and which conclusion to take
//! are `mod.rs`'s.

use super::super::board::*;
use super::super::chains::{cand, cand_cell, cand_digit, node, Net, NCAND, NNODE, NONE};

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
    /// Dynamic plus, with dynamic contradictions inside.
    Nested,
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
    /// Extra complexity of nested deductions.
    pub nested_extra: usize,
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

    fn parents_of(&self, i: usize) -> &[u16] {
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

    /// The nodes behind node index `i`, in the order they were found.
    pub fn chain(&self, i: usize) -> Vec<usize> {
        let mut mark = vec![false; self.nodes.len()];
        let mut stack = vec![i];
        mark[i] = true;
        while let Some(x) = stack.pop() {
            for &p in self.parents_of(x) {
                if !mark[p as usize] {
                    mark[p as usize] = true;
                    stack.push(p as usize);
                }
            }
        }
        (0..self.nodes.len())
            .filter(|&k| mark[k])
            .map(|k| self.nodes[k] as usize)
            .collect()
    }
}

/// Conclusions of the basic rules: each node derived, with the nodes
/// (placements and eliminations of the assumed grid) that justify it.
type Found = Vec<(usize, Vec<u16>)>;

/// Where the basic rules of [`Propagator::basic_rules`] may conclude
/// something: a place is clean once its rule concluded nothing there, and
/// dirty again when a candidate in it goes (a rule's conclusions depend only
/// on the candidates of its place, and candidates only go).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Dirty {
    /// For each unit, the digits (indices) whose locked candidates are to
    /// be tried there: pointing in a box, claiming in a line.
    locked: [u16; 27],
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
struct Scratch {
    /// Digits of each cell assumed off.
    cell_off: [Digits; 81],
    /// For each unit and digit index, places (along the unit) assumed off.
    unit_off: [[u16; 9]; 27],
    /// Cells with a digit assumed on.
    placed: [u8; 81],
    /// For each digit index, the cells where it is still a candidate in the
    /// assumed grid (not placed, not assumed off).
    digit_cells: [Cells; 9],
    /// For each digit index, the cells where it is assumed on.
    placed_cells: [Cells; 9],
    /// For each unit, the places (bits 0..9 along it) of cells assumed on.
    placed_at: [u16; 27],
    /// Where the basic rules may conclude something.
    dirty: Dirty,
    /// The conclusions of the basic rules (kept for its allocation).
    found: Vec<(usize, Vec<u16>)>,
    queue: Vec<u16>,
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
    net: &'a Net,
    kind: Kind,
    sc: Scratch,
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
    /// A solution of the board (any one), for [`first_contradiction`]'s
    /// shortcut.
    pub solution: Option<[u8; 81]>,
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
        };
        if matches!(kind, Kind::Plus | Kind::Nested) {
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
    }

    /// The candidates of each cell in the assumed grid, from the scratch
    /// state (equal to [`Propagator::assumed_cands`] once every node of the
    /// branch is expanded).
    fn cands_now(&self) -> [Digits; 81] {
        let mut cands = [0; 81];
        for (c, m) in cands.iter_mut().enumerate() {
            if self.sc.placed[c] == 0 {
                *m = self.net.cands[c] & !self.sc.cell_off[c];
            }
        }
        cands
    }

    /// Derives node `n` from `parents`; false on a contradiction.
    fn derive(&mut self, br: &mut Branch, n: usize, parents: &[u16]) -> bool {
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
        self.sc.queue.push(n as u16);
        true
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
            let mut head = 0;
            while head < self.sc.queue.len() {
                let n = self.sc.queue[head] as usize;
                head += 1;
                if !self.expand(n, br) {
                    return;
                }
            }
            self.sc.queue.clear();
            let more = match self.kind {
                Kind::Plus => self.basic_rules(br),
                Kind::Nested => {
                    if self.basic_rules(br) {
                        true
                    } else {
                        self.nested_rule(br)
                    }
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
            for &q in &PEERS[cell] {
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
            for &o in &net.conj[c] {
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
        for k in 0..3 {
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
    fn assumed_cands(&self, br: &Branch) -> [Digits; 81] {
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
        self.collect_locked(br, &mut dirty, found);
        if all || found.is_empty() {
            self.collect_pairs(br, all, &mut dirty, found);
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
                        self.push_locked(br, bx, di, targets, found);
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
                        self.push_locked(br, line, di, targets, found);
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
    fn push_locked(&self, br: &Branch, u: usize, di: usize, targets: Cells, found: &mut Found) {
        let mut ps = Vec::new();
        self.offs_in(br, UNIT_MASK[u], 1 << di, &mut ps);
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
            } else if !all {
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
        for rows in [true, false] {
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
                                    self.offs_in(
                                        br,
                                        UNIT_MASK[u1] | UNIT_MASK[u2],
                                        1 << di,
                                        &mut ps,
                                    );
                                }
                                found.push(((c * 9 + di) * 2, ps.clone()));
                            }
                        }
                    }
                    if found.len() > before {
                        return;
                    }
                }
            }
        }
    }

    /// Tests each candidate of the assumed grid with a dynamic chain; the
    /// ones that lead to a contradiction are off.
    fn nested_rule(&mut self, br: &mut Branch) -> bool {
        let cands = self.assumed_cands(br);
        // A solution of the board that the assumed grid still allows (every
        // cell placed as in it, or with its digit as a candidate).
        let solution = self.solution.filter(|sol| {
            (0..81).all(|c| match (self.sc.placed[c], cands[c]) {
                (0, 0) => self.net.cands[c] == 0,
                (0, m) => m >> (sol[c] - 1) & 1 == 1,
                (d, _) => d == sol[c],
            })
        });
        let Some((x, extra)) = first_contradiction(&cands, solution.as_ref()) else {
            return false;
        };
        br.nested_extra += extra;
        if br.nested_extra.saturating_add(2) >= self.give_up {
            br.abandoned = true;
        }
        // justify by every node of the branch: the assumed grid as a whole
        let all: Vec<u16> = (0..br.nodes.len() as u16).collect();
        let ok = self.derive(br, node(x, false), &all);
        let _ = ok;
        true
    }
}

/// The first candidate (in index order) of a grid whose placement leads a
/// dynamic-plus chain to a contradiction, with the complexity of that
/// contradiction (the nodes behind its two ends); `None` if there is none.
///
/// A pure function of the grid, and the costly part of nested chains: the
/// branches of one search, and of the next steps, meet the same assumed
/// grids again and again (the two candidates of a bivalue cell give one
/// grid; a step changes little). So results are kept, per thread, in a
/// table that is emptied when it reaches [`MEMO_LIMIT`] grids.
///
/// `solution`, when given, is a solution of the grid: its candidates are
/// not tried, for none of them can lead a sound chain to a contradiction
/// (every node a chain from one derives holds in that solution). The answer
/// is the same with or without it, only quicker with.
fn first_contradiction(
    cands: &[Digits; 81],
    solution: Option<&[u8; 81]>,
) -> Option<(usize, usize)> {
    use std::cell::RefCell;
    use std::collections::HashMap;
    /// A grid, and its first contradiction: candidate and complexity.
    type Memo = HashMap<[Digits; 81], Option<(u16, u32)>>;
    thread_local! {
        static MEMO: RefCell<Memo> = RefCell::new(HashMap::new());
    }
    if let Some(hit) = MEMO.with(|m| m.borrow().get(cands).copied()) {
        return hit.map(|(x, e)| (x as usize, e as usize));
    }
    let found = first_contradiction_search(cands, solution);
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= MEMO_LIMIT {
            m.clear();
        }
        m.insert(*cands, found.map(|(x, e)| (x as u16, e as u32)));
    });
    found
}

/// The most grids [`first_contradiction`] remembers per thread (about 180
/// bytes each).
const MEMO_LIMIT: usize = 100_000;

fn first_contradiction_search(
    cands: &[Digits; 81],
    solution: Option<&[u8; 81]>,
) -> Option<(usize, usize)> {
    if cands.iter().all(|&m| m == 0) {
        return None;
    }
    let inner_net = Net::from_cands(cands);
    let mut inner = Propagator::new(&inner_net, Kind::Plus);
    let mut ib = Branch::new();
    let mut stamp = Vec::new();
    let mut gen = 0;
    for x in 0..NCAND {
        if !inner_net.has(x) || solution.is_some_and(|s| s[cand_cell(x)] == cand_digit(x)) {
            continue;
        }
        inner.run(node(x, true), &mut ib);
        if let Some((on, off)) = ib.conflict {
            let extra = ib.ancestors(on as usize, &mut stamp, &mut gen)
                + ib.ancestors(off as usize, &mut stamp, &mut gen);
            return Some((x, extra));
        }
    }
    None
}
