//! Forcing chains: from an assumption, follow everything it implies.
//!
//! * **Nishio** (one digit, dynamic): a digit placed in a cell leads, on that
//!   digit alone, to a contradiction.
//! * **Static multiple chains**: implications one link at a time, on the
//!   links of the grid as it is: contradiction (an assumption implies a
//!   candidate both on and off), double (a candidate and its negation imply
//!   the same thing), cell (every candidate of a cell implies it) and digit
//!   forcing (every place of a digit in a unit implies it).
//! * **Dynamic**: the same, but an implication may rest on several earlier
//!   ones (a cell or unit left with one place by the assumptions so far).
//! * **Dynamic plus**: also locked candidates, pairs and X-Wings in the
//!   assumed grid.
//! * **Nested**: also contradictions found by dynamic chains inside the
//!   assumed grid.
//!
//! The complexity of a step is the number of nodes behind its conclusion in
//! every branch, summed over the branches, as in SE.

use super::board::*;
use super::chains::{cand, cand_cell, cand_digit, node, node_name, Net, NCAND, NNODE, NONE};
use super::step::{Step, Technique};

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

/// Scratch state of a propagation.
struct Scratch {
    /// Digits of each cell assumed off.
    cell_off: [Digits; 81],
    /// For each unit and digit index, places (along the unit) assumed off.
    unit_off: [[u16; 9]; 27],
    /// Cells with a digit assumed on.
    placed: [u8; 81],
    queue: Vec<u16>,
}

impl Scratch {
    fn new() -> Self {
        Scratch {
            cell_off: [0; 81],
            unit_off: [[0; 9]; 27],
            placed: [0; 81],
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
}

impl<'a> Propagator<'a> {
    pub fn new(net: &'a Net, kind: Kind) -> Self {
        Propagator {
            net,
            kind,
            sc: Scratch::new(),
        }
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
        self.sc.cell_off = [0; 81];
        self.sc.unit_off = [[0; 9]; 27];
        self.sc.placed = [0; 81];
        self.sc.queue.clear();
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
            if !more || br.conflict.is_some() {
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
            if left.count_ones() == 1 && self.sc.placed[cell] == 0 {
                let e = left.trailing_zeros() as usize;
                let mut ps: Vec<u16> = Vec::with_capacity(8);
                let mut m = net.cands[cell] & !left;
                while m != 0 {
                    let x = m.trailing_zeros() as usize;
                    m &= m - 1;
                    ps.push(br.index[(cell * 9 + x) * 2]);
                }
                if !self.derive(br, (cell * 9 + e) * 2 + 1, &ps) {
                    return false;
                }
            }
        }
        for k in 0..3 {
            let u = CELL_UNITS[cell][k] as usize;
            self.sc.unit_off[u][di] |= 1 << UNIT_INDEX[cell][k];
            let left = net.unit_pos[u][di] & !self.sc.unit_off[u][di];
            if left.count_ones() == 1 {
                let q = UNITS[u][left.trailing_zeros() as usize] as usize;
                if br.has(node(cand(q, di as u8 + 1), true)) {
                    continue;
                }
                let mut ps: Vec<u16> = Vec::with_capacity(8);
                let mut m = net.unit_pos[u][di] & !left;
                while m != 0 {
                    let x = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let qc = UNITS[u][x] as usize;
                    ps.push(br.index[(qc * 9 + di) * 2]);
                }
                if !self.derive(br, (q * 9 + di) * 2 + 1, &ps) {
                    return false;
                }
            }
        }
        true
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
    fn basic_rules(&mut self, br: &mut Branch) -> bool {
        let cands = self.assumed_cands(br);
        let placed = self.sc.placed;
        let mut found: Vec<(usize, Vec<u16>)> = Vec::new();
        // locked candidates
        for bx in 18..27 {
            for di in 0..9usize {
                let mut p: Cells = 0;
                let mut done = false;
                for &c in &UNITS[bx] {
                    let c = c as usize;
                    if placed[c] == di as u8 + 1 {
                        done = true;
                    }
                    if cands[c] >> di & 1 == 1 {
                        p |= 1u128 << c;
                    }
                }
                if done || p.count_ones() < 1 {
                    continue;
                }
                for line in 0..18 {
                    if p & !UNIT_MASK[line] == 0 {
                        let mut ps = Vec::new();
                        self.offs_in(br, UNIT_MASK[bx], 1 << di, &mut ps);
                        for c in cells_of(UNIT_MASK[line] & !UNIT_MASK[bx]) {
                            if cands[c] >> di & 1 == 1 {
                                found.push(((c * 9 + di) * 2, ps.clone()));
                            }
                        }
                    }
                }
            }
        }
        for line in 0..18 {
            for di in 0..9usize {
                let mut p: Cells = 0;
                for &c in &UNITS[line] {
                    if cands[c as usize] >> di & 1 == 1 {
                        p |= 1u128 << c;
                    }
                }
                if p.count_ones() < 2 {
                    continue;
                }
                for bx in 18..27 {
                    if p & !UNIT_MASK[bx] == 0 {
                        let mut ps = Vec::new();
                        self.offs_in(br, UNIT_MASK[line], 1 << di, &mut ps);
                        for c in cells_of(UNIT_MASK[bx] & !UNIT_MASK[line]) {
                            if cands[c] >> di & 1 == 1 {
                                found.push(((c * 9 + di) * 2, ps.clone()));
                            }
                        }
                    }
                }
            }
        }
        if found.is_empty() {
            // naked and hidden pairs
            for u in 0..27 {
                let cells: Vec<usize> = UNITS[u]
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| cands[c] != 0)
                    .collect();
                for i in 0..cells.len() {
                    if cands[cells[i]].count_ones() != 2 {
                        continue;
                    }
                    for &c2 in &cells[i + 1..] {
                        if cands[c2] != cands[cells[i]] {
                            continue;
                        }
                        let m = cands[c2];
                        let mut ps = Vec::new();
                        self.offs_in(br, (1u128 << cells[i]) | (1u128 << c2), ALL_DIGITS, &mut ps);
                        for &c in &cells {
                            if c != cells[i] && c != c2 && cands[c] & m != 0 {
                                for d in digits_of(cands[c] & m) {
                                    found.push(((c * 9 + d as usize - 1) * 2, ps.clone()));
                                }
                            }
                        }
                    }
                }
                // hidden pairs
                let mut pos = [0u128; 9];
                for &c in &cells {
                    for d in digits_of(cands[c]) {
                        pos[d as usize - 1] |= 1u128 << c;
                    }
                }
                for a in 0..9 {
                    if pos[a].count_ones() != 2 {
                        continue;
                    }
                    for bdi in a + 1..9 {
                        if pos[bdi] != pos[a] {
                            continue;
                        }
                        let keep: Digits = (1 << a) | (1 << bdi);
                        let mut ps = Vec::new();
                        self.offs_in(br, UNIT_MASK[u], keep, &mut ps);
                        for c in cells_of(pos[a]) {
                            for d in digits_of(cands[c] & !keep) {
                                found.push(((c * 9 + d as usize - 1) * 2, ps.clone()));
                            }
                        }
                    }
                }
                if !found.is_empty() {
                    break;
                }
            }
        }
        if found.is_empty() {
            // X-Wings
            'fish: for di in 0..9usize {
                for rows in [true, false] {
                    let mut masks = [0u16; 9];
                    for (l, mk) in masks.iter_mut().enumerate() {
                        for x in 0..9 {
                            let c = if rows { l * 9 + x } else { x * 9 + l };
                            if cands[c] >> di & 1 == 1 {
                                *mk |= 1 << x;
                            }
                        }
                    }
                    for l1 in 0..9 {
                        if masks[l1].count_ones() != 2 {
                            continue;
                        }
                        for l2 in l1 + 1..9 {
                            if masks[l2] != masks[l1] {
                                continue;
                            }
                            let u1 = if rows { l1 } else { 9 + l1 };
                            let u2 = if rows { l2 } else { 9 + l2 };
                            let mut ps = Vec::new();
                            self.offs_in(br, UNIT_MASK[u1] | UNIT_MASK[u2], 1 << di, &mut ps);
                            for x in 0..9 {
                                if masks[l1] >> x & 1 == 0 {
                                    continue;
                                }
                                for l in 0..9 {
                                    if l == l1 || l == l2 {
                                        continue;
                                    }
                                    let c = if rows { l * 9 + x } else { x * 9 + l };
                                    if cands[c] >> di & 1 == 1 {
                                        found.push(((c * 9 + di) * 2, ps.clone()));
                                    }
                                }
                            }
                            if !found.is_empty() {
                                break 'fish;
                            }
                        }
                    }
                }
            }
        }
        let mut any = false;
        for (n, ps) in found {
            if br.has(n) {
                continue;
            }
            any = true;
            if !self.derive(br, n, &ps) {
                return true;
            }
        }
        any
    }

    /// Tests each candidate of the assumed grid with a dynamic chain; the
    /// ones that lead to a contradiction are off.
    fn nested_rule(&mut self, br: &mut Branch) -> bool {
        let cands = self.assumed_cands(br);
        let mut placed = false;
        for c in 0..81 {
            if cands[c] != 0 && self.sc.placed[c] == 0 {
                placed = true;
            }
        }
        if !placed {
            return false;
        }
        let inner_net = Net::from_cands(&cands);
        let mut inner = Propagator::new(&inner_net, Kind::Plus);
        let mut ib = Branch::new();
        let mut stamp = Vec::new();
        let mut gen = 0;
        // justify by every off node of the branch in the affected area: the
        // assumed grid as a whole
        let all: Vec<u16> = (0..br.nodes.len() as u16).collect();
        for x in 0..NCAND {
            if !inner_net.has(x) {
                continue;
            }
            inner.run(node(x, true), &mut ib);
            if let Some((on, off)) = ib.conflict {
                let extra = ib.ancestors(on as usize, &mut stamp, &mut gen)
                    + ib.ancestors(off as usize, &mut stamp, &mut gen);
                br.nested_extra += extra;
                let ok = self.derive(br, node(x, false), &all);
                let _ = ok;
                return true;
            }
        }
        false
    }
}

/// A conclusion of several branches and its complexity.
struct Conclusion {
    technique: Technique,
    complexity: usize,
    /// The node concluded (on = place, off = eliminate).
    target: usize,
    /// The assumptions, one per branch.
    sources: Vec<usize>,
    /// The contradiction reached, for contradiction steps.
    contradiction: Option<usize>,
    /// A unit, for digit forcing.
    unit: Option<usize>,
}

fn technique_for(kind: Kind, which: u8) -> Technique {
    use Technique::*;
    match (kind, which) {
        (Kind::Nishio, _) => Nishio,
        (Kind::Static, 0) => ContradictionForcingChain,
        (Kind::Static, 1) => DoubleForcingChain,
        (Kind::Static, 2) => CellForcingChain,
        (Kind::Static, _) => DigitForcingChain,
        (Kind::Dynamic, 0) => DynamicContradictionForcingChain,
        (Kind::Dynamic, 1) => DynamicDoubleForcingChain,
        (Kind::Dynamic, 2) => DynamicCellForcingChain,
        (Kind::Dynamic, _) => DynamicDigitForcingChain,
        (Kind::Plus, _) => DynamicForcingChainPlus,
        (Kind::Nested, _) => NestedForcingChain,
    }
}

/// Finds the easiest forcing-chain step of `kind` rated below `limit`.
pub(crate) fn forcing(b: &Board, kind: Kind, limit: f64) -> Option<Step> {
    forcing_filtered(b, kind, limit, None)
}

/// The largest complexity rated below `limit` for a technique of base `base`.
fn complexity_cap(base: f64, limit: f64) -> Option<usize> {
    if base >= limit - 1e-9 {
        return None;
    }
    if limit.is_infinite() {
        return Some(usize::MAX / 4);
    }
    let mut k = 0u32;
    while base + 0.1 * ((k + 1) as f64) < limit - 1e-9 {
        k += 1;
    }
    Some(super::step::max_complexity_for(k))
}

/// The best conclusion so far, and the bound a new one must beat.
struct Best {
    found: Option<Conclusion>,
    /// A conclusion must have a complexity below this.
    bound: usize,
    only: Option<Technique>,
}

impl Best {
    fn consider(&mut self, c: Conclusion) {
        if self.only.is_some_and(|o| o != c.technique) {
            return;
        }
        if c.complexity < self.bound {
            self.bound = c.complexity;
            self.found = Some(c);
        }
    }
}

/// As [`forcing`], keeping only steps of technique `only` when given.
pub(crate) fn forcing_filtered(
    b: &Board,
    kind: Kind,
    limit: f64,
    only: Option<Technique>,
) -> Option<Step> {
    let cap = complexity_cap(technique_for(kind, 0).se_rating(), limit)?;
    let net = super::chains::net_of(b);
    let net: &Net = &net;
    let mut prop = Propagator::new(net, kind);
    let mut stamp: Vec<u32> = Vec::new();
    let mut gen = 0u32;
    let mut best = Best {
        found: None,
        bound: cap + 1,
        only,
    };

    // On branches of every candidate, kept for cell and digit forcing.
    let mut on_branches: Vec<Option<Branch>> = (0..NCAND).map(|_| None).collect();
    let mut off_branch = Branch::new();
    for x in 0..NCAND {
        if !net.has(x) {
            continue;
        }
        let cell = cand_cell(x);
        if net.cands[cell].count_ones() < 2 {
            continue;
        }
        let mut on = Branch::new();
        prop.run(node(x, true), &mut on);
        if let Some((a, o)) = on.conflict {
            if on.min_ancestors(a as usize) + on.min_ancestors(o as usize) < best.bound {
                let cx = on.ancestors(a as usize, &mut stamp, &mut gen)
                    + on.ancestors(o as usize, &mut stamp, &mut gen)
                    + on.nested_extra;
                best.consider(Conclusion {
                    technique: technique_for(kind, 0),
                    complexity: cx,
                    target: node(x, false),
                    sources: vec![node(x, true)],
                    contradiction: Some(on.nodes[a as usize] as usize >> 1),
                    unit: None,
                });
            }
        }
        if kind == Kind::Nishio {
            continue;
        }
        prop.run(node(x, false), &mut off_branch);
        if let Some((a, o)) = off_branch.conflict {
            if off_branch.min_ancestors(a as usize) + off_branch.min_ancestors(o as usize)
                < best.bound
            {
                let cx = off_branch.ancestors(a as usize, &mut stamp, &mut gen)
                    + off_branch.ancestors(o as usize, &mut stamp, &mut gen)
                    + off_branch.nested_extra;
                best.consider(Conclusion {
                    technique: technique_for(kind, 0),
                    complexity: cx,
                    target: node(x, true),
                    sources: vec![node(x, false)],
                    contradiction: Some(off_branch.nodes[a as usize] as usize >> 1),
                    unit: None,
                });
            }
        } else if on.conflict.is_none() && only.is_none_or(|o| o == technique_for(kind, 1)) {
            // double forcing: implied both ways
            for (i, &n) in on.nodes.iter().enumerate().skip(1) {
                let n = n as usize;
                if n >> 1 == x {
                    continue;
                }
                let j = off_branch.index[n];
                if j == NONE {
                    continue;
                }
                let extra = on.nested_extra + off_branch.nested_extra;
                if on.min_ancestors(i) + off_branch.min_ancestors(j as usize) + extra >= best.bound
                {
                    continue;
                }
                let cx = on.ancestors(i, &mut stamp, &mut gen)
                    + off_branch.ancestors(j as usize, &mut stamp, &mut gen)
                    + extra;
                best.consider(Conclusion {
                    technique: technique_for(kind, 1),
                    complexity: cx,
                    target: n,
                    sources: vec![node(x, true), node(x, false)],
                    contradiction: None,
                    unit: None,
                });
            }
        }
        if on.conflict.is_none() {
            on_branches[x] = Some(on);
        }
    }
    if kind != Kind::Nishio {
        // cell forcing
        if only.is_none_or(|o| o == technique_for(kind, 2)) {
            for cell in 0..81 {
                let m = net.cands[cell];
                if m.count_ones() < 2 {
                    continue;
                }
                let xs: Vec<usize> = digits_of(m).map(|d| cand(cell, d)).collect();
                if xs.iter().any(|&x| on_branches[x].is_none()) {
                    continue;
                }
                common_conclusions(
                    &xs,
                    &on_branches,
                    technique_for(kind, 2),
                    None,
                    &mut stamp,
                    &mut gen,
                    &mut best,
                );
            }
        }
        // digit forcing
        if only.is_none_or(|o| o == technique_for(kind, 3)) {
            for u in 0..27 {
                for di in 0..9usize {
                    let p = net.unit_pos[u][di];
                    if p.count_ones() < 2 {
                        continue;
                    }
                    let xs: Vec<usize> = (0..9)
                        .filter(|&i| p >> i & 1 == 1)
                        .map(|i| UNITS[u][i] as usize * 9 + di)
                        .collect();
                    if xs.iter().any(|&x| on_branches[x].is_none()) {
                        continue;
                    }
                    common_conclusions(
                        &xs,
                        &on_branches,
                        technique_for(kind, 3),
                        Some(u),
                        &mut stamp,
                        &mut gen,
                        &mut best,
                    );
                }
            }
        }
    }
    let c = best.found?;
    Some(build_step(b, net, kind, c))
}

/// Conclusions common to the on-branches of `xs`.
fn common_conclusions(
    xs: &[usize],
    branches: &[Option<Branch>],
    t: Technique,
    unit: Option<usize>,
    stamp: &mut Vec<u32>,
    gen: &mut u32,
    best: &mut Best,
) {
    let first = branches[xs[0]].as_ref().unwrap();
    let mut idx = Vec::with_capacity(xs.len());
    'nodes: for (i0, &n) in first.nodes.iter().enumerate().skip(1) {
        let n = n as usize;
        // the assumptions themselves are not conclusions
        if xs.contains(&(n >> 1)) {
            continue;
        }
        idx.clear();
        idx.push(i0);
        let mut lb = first.min_ancestors(i0) + first.nested_extra;
        for &x in &xs[1..] {
            let br = branches[x].as_ref().unwrap();
            let j = br.index[n];
            if j == NONE {
                continue 'nodes;
            }
            lb += br.min_ancestors(j as usize) + br.nested_extra;
            idx.push(j as usize);
        }
        if lb >= best.bound {
            continue;
        }
        let mut cx = 0;
        for (k, &x) in xs.iter().enumerate() {
            let br = branches[x].as_ref().unwrap();
            cx += br.ancestors(idx[k], stamp, gen) + br.nested_extra;
        }
        best.consider(Conclusion {
            technique: t,
            complexity: cx,
            target: n,
            sources: xs.iter().map(|&x| node(x, true)).collect(),
            contradiction: None,
            unit,
        });
    }
}

fn branch_text(br: &Branch, i: usize) -> String {
    let chain = br.chain(i);
    let mut s: Vec<String> = chain.iter().map(|&n| node_name(n)).collect();
    if s.len() > 24 {
        let tail = s.split_off(s.len() - 10);
        s.truncate(10);
        s.push("...".into());
        s.extend(tail);
    }
    s.join(", ")
}

fn build_step(b: &Board, net: &Net, kind: Kind, c: Conclusion) -> Step {
    let mut s = Step::new(c.technique);
    s.complexity = c.complexity;
    let target = c.target;
    let tc = target >> 1;
    if target & 1 == 1 {
        s.placements.push((cand_cell(tc), cand_digit(tc)));
    } else {
        s.eliminations.push((cand_cell(tc), cand_digit(tc)));
    }
    let mut cells: Vec<usize> = c.sources.iter().map(|&n| cand_cell(n >> 1)).collect();
    cells.push(cand_cell(tc));
    cells.sort_unstable();
    cells.dedup();
    s.cells = cells;
    let mut digits: Vec<u8> = c.sources.iter().map(|&n| cand_digit(n >> 1)).collect();
    digits.push(cand_digit(tc));
    digits.sort_unstable();
    digits.dedup();
    s.digits = digits;
    if let Some(u) = c.unit {
        s.units.push(unit_name(u));
    }
    // re-run the branches to explain them
    let mut prop = Propagator::new(net, kind);
    let mut br = Branch::new();
    let verdict = if target & 1 == 1 {
        format!("{} is {}", cell_name(cand_cell(tc)), cand_digit(tc))
    } else {
        format!("{} leaves {}", cand_digit(tc), cell_name(cand_cell(tc)))
    };
    let name = c.technique.name();
    s.description = match c.contradiction {
        Some(x) => {
            prop.run(c.sources[0], &mut br);
            let (a, o) = br.conflict.unwrap_or((0, 0));
            format!(
                "{}: assuming {} leads to {} both true ({}) and false ({}), so {}",
                name,
                node_name(c.sources[0]),
                node_name(node(x, true)),
                branch_text(&br, a as usize),
                branch_text(&br, o as usize),
                verdict
            )
        }
        None => {
            let mut parts = Vec::new();
            for &src in &c.sources {
                prop.run(src, &mut br);
                let i = br.index[target];
                let text = if i == NONE {
                    String::from("?")
                } else {
                    branch_text(&br, i as usize)
                };
                parts.push(format!("if {}: {}", node_name(src), text));
            }
            // The form is read from the conclusion itself, not from the
            // technique: the plus and nested kinds name all their forms alike.
            let double = c.sources.len() == 2 && c.sources[0] ^ 1 == c.sources[1];
            let what = match c.unit {
                _ if double => format!(
                    "{} implies {} whether it is true or not",
                    node_name(c.sources[0] | 1),
                    node_name(target)
                ),
                None => format!(
                    "every candidate of {} implies {}",
                    cell_name(cand_cell(c.sources[0] >> 1)),
                    node_name(target)
                ),
                Some(u) => format!(
                    "every place of {} in {} implies {}",
                    cand_digit(c.sources[0] >> 1),
                    unit_name(u),
                    node_name(target)
                ),
            };
            format!("{}: {} ({}), so {}", name, what, parts.join("; "), verdict)
        }
    };
    let _ = b;
    s
}

pub fn nishio(b: &Board) -> Option<Step> {
    forcing(b, Kind::Nishio, f64::INFINITY)
}

macro_rules! only {
    ($name:ident, $kind:expr, $t:expr) => {
        pub fn $name(b: &Board) -> Option<Step> {
            forcing_filtered(b, $kind, f64::INFINITY, Some($t))
        }
    };
}
only!(
    contradiction_forcing_chain,
    Kind::Static,
    Technique::ContradictionForcingChain
);
only!(
    double_forcing_chain,
    Kind::Static,
    Technique::DoubleForcingChain
);
only!(
    cell_forcing_chain,
    Kind::Static,
    Technique::CellForcingChain
);
only!(
    digit_forcing_chain,
    Kind::Static,
    Technique::DigitForcingChain
);
only!(
    dynamic_contradiction_forcing_chain,
    Kind::Dynamic,
    Technique::DynamicContradictionForcingChain
);
only!(
    dynamic_double_forcing_chain,
    Kind::Dynamic,
    Technique::DynamicDoubleForcingChain
);
only!(
    dynamic_cell_forcing_chain,
    Kind::Dynamic,
    Technique::DynamicCellForcingChain
);
only!(
    dynamic_digit_forcing_chain,
    Kind::Dynamic,
    Technique::DynamicDigitForcingChain
);

pub fn dynamic_forcing_chain_plus(b: &Board) -> Option<Step> {
    forcing(b, Kind::Plus, f64::INFINITY)
}
pub fn nested_forcing_chain(b: &Board) -> Option<Step> {
    forcing(b, Kind::Nested, f64::INFINITY)
}
