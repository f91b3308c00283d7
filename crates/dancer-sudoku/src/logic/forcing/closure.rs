//! What every node of a grid's static implication net reaches, all at
//! once: a filter that spares the inner rules of the nested levels
//! (`inner.rs`) almost all of their walks.
//!
//! The static net (mode XY: an on node turns off its cell's other
//! candidates and its digit's peers; an off node turns on its bivalue
//! mate and its unit's other place) is a directed graph on the live nodes
//! of the grid. Level 2's inner rule asks, for each of a few hundred
//! starts, whether a chain leads the start to its opposite; level 3's asks
//! whether the propagations from every candidate of a cell (or every place
//! of a digit in a unit) have a node in common. Nearly every answer is no,
//! and a walk or a propagation per start was what a nested search spent
//! its time on.
//!
//! Here the graph's strongly connected components are found once
//! (Tarjan's algorithm, kept iterative), and each gets the set of live
//! nodes it reaches, built from its successors' sets: Tarjan emits a
//! component only after every component it reaches, so one pass in
//! emission order fills them. A node reaches exactly the set of its
//! component.
//!
//! Invariants: `comp` numbers components in emission order (successors
//! first); `sets[k]` is the reach of component `k` (its own nodes
//! included), over compact node indices (`index`). A test checks
//! [`Closure::reaches`] against a breadth-first walk for every pair of
//! starts and ends of some grids.
//!
//! The answers are used as filters only: a static propagation stops at
//! its first contradiction, so it may hold fewer nodes than the closure,
//! never more; where the closure says yes, the caller still walks.

use super::super::board::*;
use super::super::chains::{Net, NCAND, NNODE, NONE};

/// The reach of every live node of a grid's static net.
pub(super) struct Closure {
    /// Compact index of each node (0..1458), [`NONE`] when not live.
    index: Vec<u16>,
    /// The component of each compact node.
    comp: Vec<u16>,
    /// Words per set.
    words: usize,
    /// The reach of each component, `words` words each.
    sets: Vec<u64>,
}

impl Closure {
    pub(super) fn new(net: &Net) -> Self {
        let mut index = vec![NONE; NNODE];
        let mut nodes = Vec::with_capacity(512);
        for c in 0..NCAND {
            if net.has(c) {
                for n in [c * 2, c * 2 + 1] {
                    index[n] = nodes.len() as u16;
                    nodes.push(n as u16);
                }
            }
        }
        let (start, edges) = adjacency(net, &index, &nodes);
        let (comp, order) = components(&start, &edges);
        let count = comp.iter().map(|&k| k as usize + 1).max().unwrap_or(0);
        let words = nodes.len().div_ceil(64).max(1);
        let mut sets = vec![0u64; count * words];
        let mut merged = vec![u16::MAX; count];
        for &v in &order {
            let v = v as usize;
            let k = comp[v] as usize;
            sets[k * words + v / 64] |= 1 << (v % 64);
            for &w in &edges[start[v] as usize..start[v + 1] as usize] {
                let j = comp[w as usize] as usize;
                if j == k || merged[j] == k as u16 {
                    continue;
                }
                merged[j] = k as u16;
                // j < k: emitted before, its set is whole
                let (done, rest) = sets.split_at_mut(k * words);
                for (a, b) in rest[..words].iter_mut().zip(&done[j * words..]) {
                    *a |= *b;
                }
            }
        }
        Closure {
            index,
            comp,
            words,
            sets,
        }
    }

    fn set_of(&self, n: usize) -> Option<&[u64]> {
        let v = self.index[n];
        (v != NONE).then(|| {
            let k = self.comp[v as usize] as usize;
            &self.sets[k * self.words..(k + 1) * self.words]
        })
    }

    /// Does a chain of static links lead node `from` to node `to`?
    pub(super) fn reaches(&self, from: usize, to: usize) -> bool {
        match (self.set_of(from), self.index[to]) {
            (Some(s), v) if v != NONE => s[v as usize / 64] >> (v % 64) & 1 == 1,
            _ => false,
        }
    }

    /// Could the propagations from the on nodes of candidates `xs` have a
    /// node in common, other than the nodes of `xs`' own candidates?
    pub(super) fn may_meet(&self, xs: &[usize]) -> bool {
        let mut acc = vec![u64::MAX; self.words];
        for &x in xs {
            let Some(s) = self.set_of(x * 2 + 1) else {
                return false;
            };
            for (a, b) in acc.iter_mut().zip(s) {
                *a &= *b;
            }
        }
        for &x in xs {
            for n in [x * 2, x * 2 + 1] {
                let v = self.index[n] as usize;
                acc[v / 64] &= !(1 << (v % 64));
            }
        }
        acc.iter().any(|&w| w != 0)
    }
}

/// The static links between live nodes, as compact indices: the links of
/// node `v` are `edges[start[v]..start[v + 1]]`.
fn adjacency(net: &Net, index: &[u16], nodes: &[u16]) -> (Vec<u32>, Vec<u16>) {
    let mut start = Vec::with_capacity(nodes.len() + 1);
    let mut edges = Vec::with_capacity(nodes.len() * 8);
    start.push(0);
    let mut planes = [0 as Cells; 9];
    for (cell, &m) in net.cands.iter().enumerate() {
        for d in digits_of(m) {
            planes[d as usize - 1] |= 1 << cell;
        }
    }
    for &n in nodes {
        let n = n as usize;
        let c = n >> 1;
        let (cell, di) = (c / 9, c % 9);
        if n & 1 == 1 {
            let mut m = net.cands[cell] & !(1 << di);
            while m != 0 {
                let e = m.trailing_zeros() as usize;
                m &= m - 1;
                edges.push(index[(cell * 9 + e) * 2]);
            }
            let mut peers = PEER_MASK[cell] & planes[di];
            while peers != 0 {
                let q = peers.trailing_zeros() as usize;
                peers &= peers - 1;
                edges.push(index[(q * 9 + di) * 2]);
            }
        } else {
            let o = net.biv[c];
            if o != NONE {
                edges.push(index[o as usize * 2 + 1]);
            }
            for &o in &net.conj[c] {
                if o != NONE {
                    edges.push(index[o as usize * 2 + 1]);
                }
            }
        }
        start.push(edges.len() as u32);
    }
    (start, edges)
}

/// Tarjan's strongly connected components, iterative: the component of
/// each node, numbered in the order they are completed (a component after
/// every component it reaches), and the nodes in that order.
fn components(start: &[u32], edges: &[u16]) -> (Vec<u16>, Vec<u16>) {
    const UNSEEN: u16 = u16::MAX;
    let n = start.len() - 1;
    let mut order = vec![UNSEEN; n];
    let mut low = vec![0u16; n];
    let mut comp = vec![UNSEEN; n];
    let mut done = Vec::with_capacity(n);
    let mut stack: Vec<u16> = Vec::with_capacity(n);
    // (node, next edge position)
    let mut calls: Vec<(u16, u32)> = Vec::with_capacity(n);
    let (mut next, mut count) = (0u16, 0u16);
    for root in 0..n {
        if order[root] != UNSEEN {
            continue;
        }
        order[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root as u16);
        calls.push((root as u16, start[root]));
        while let Some(top) = calls.last_mut() {
            let v = top.0 as usize;
            if top.1 < start[v + 1] {
                let w = edges[top.1 as usize] as usize;
                top.1 += 1;
                if order[w] == UNSEEN {
                    order[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w as u16);
                    calls.push((w as u16, start[w]));
                } else if comp[w] == UNSEEN {
                    // on the stack
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(p, _)) = calls.last() {
                let p = p as usize;
                low[p] = low[p].min(low[v]);
            }
            if low[v] == order[v] {
                loop {
                    let w = stack.pop().unwrap() as usize;
                    comp[w] = count;
                    done.push(w as u16);
                    if w == v {
                        break;
                    }
                }
                count += 1;
            }
        }
    }
    (comp, done)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every node reached by a breadth-first walk of the static net, from
    /// `from`.
    fn walk(net: &Net, from: usize) -> Vec<bool> {
        use super::super::super::chains::Mode;
        let mut seen = vec![false; NNODE];
        seen[from] = true;
        let mut queue = vec![from];
        while let Some(n) = queue.pop() {
            net.next(n, Mode::XY, &mut |m| {
                if !seen[m] {
                    seen[m] = true;
                    queue.push(m);
                }
            });
        }
        seen
    }

    #[test]
    fn the_closure_is_what_a_walk_reaches() {
        let lines = [
            "980760500700000090005009800570006080004000300000000005420007050050020000000100204",
            "...1.5...14....67..8...24...63.7..1.9.......3.1..9.52...72...8..26....35...4.9...",
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        ];
        let mut yes = 0;
        for line in lines {
            let b = MarkedGrid::from_line(line).unwrap();
            let net = Net::new(&b);
            let clo = Closure::new(&net);
            for c in 0..NCAND {
                if !net.has(c) {
                    continue;
                }
                for from in [c * 2, c * 2 + 1] {
                    let seen = walk(&net, from);
                    for (to, &s) in seen.iter().enumerate() {
                        assert_eq!(clo.reaches(from, to), s, "{line}: {from} -> {to}");
                        yes += s as usize;
                    }
                }
            }
        }
        assert!(yes > 1000, "{yes}");
    }
}
