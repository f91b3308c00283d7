//! Sudoku Explainer's "Forcing Chains & Cycles"
//!
//! SE's first chaining producer looks at every candidate of every cell with
//! two candidates or more, assumed on, in three modes: X (one digit: unit
//! links only), Y (strong links only in bivalue cells, and only from
//! bivalue cells) and XY (every link). From each source it grows the
//! implications breadth first, alternately "on implies off" (weak links)
//! and "off implies on" (strong links), each node reached once, by its
//! first parent. That search yields:
//!
//! * cycles: an "on" node N at distance 2k >= 2, a weak neighbour M of N (M
//!   off, not on N's own path) whose strong link turns the source back on.
//!   The loop holds in both directions: in one, its "on" nodes are true,
//!   in the other its "off" nodes. A candidate outside the loop's cells that
//!   sees an "on" node and an "off" node of its digit is false (SE makes no
//!   other elimination: none inside the loop's cells). Complexity: the
//!   number of nodes of the loop;
//! * forcing chains (X and XY modes): the source on reaching itself off (the
//!   source is false), and, searched from the source off, reaching itself on
//!   (it is true). Complexity: the number of nodes, both ends counted.
//!
//! Difficulty: 6.5 for X- and Y-cycles, 6.6 for forcing X-chains, 7.0 for
//! XY cycles and chains, plus the length increment of the complexity. The
//! hints are sorted by difficulty (SE's floating-point value), then
//! complexity, then kind (X before Y before XY), then the order they were
//! found in (source candidate; a source's cycles before its chains); the
//! first one is taken.

use super::net::*;
use crate::logic::board::*;
use crate::logic::step::{max_complexity_for, Step, Technique};

/// The hint kinds of SE's first chaining producer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Bidirectional X-cycle (6.5).
    XCycle,
    /// Bidirectional Y-cycle (6.5).
    YCycle,
    /// Forcing X-chain (6.6).
    XChain,
    /// Bidirectional cycle with links of both kinds (7.0).
    XYCycle,
    /// Forcing chain with links of both kinds (7.0).
    XYChain,
}

impl Kind {
    fn base(self) -> f64 {
        match self {
            Kind::XCycle | Kind::YCycle => 6.5,
            Kind::XChain => 6.6,
            Kind::XYCycle | Kind::XYChain => 7.0,
        }
    }

    /// SE's order between hints of equal difficulty and complexity.
    fn sort_key(self) -> u8 {
        match self {
            Kind::XCycle | Kind::XChain => 2,
            Kind::YCycle => 3,
            Kind::XYCycle | Kind::XYChain => 4,
        }
    }

    fn mode(self) -> Mode {
        match self {
            Kind::XCycle | Kind::XChain => Mode::X,
            Kind::YCycle => Mode::Y,
            Kind::XYCycle | Kind::XYChain => Mode::XY,
        }
    }

    fn is_cycle(self) -> bool {
        matches!(self, Kind::XCycle | Kind::YCycle | Kind::XYCycle)
    }

    fn technique(self) -> Technique {
        match self {
            Kind::XCycle => Technique::XCycle,
            Kind::YCycle => Technique::YCycle,
            Kind::XChain => Technique::XChain,
            Kind::XYCycle => Technique::ContinuousLoop,
            Kind::XYChain => Technique::Aic,
        }
    }
}

/// SE's difficulty of a chain hint, computed as SE computes it (the length
/// increment added up tenth by tenth in floating point), so that hints sort
/// as in SE, near-ties included: 6.6 + 0.1 comes before 6.5 + 0.2.
pub(crate) fn se_difficulty(base: f64, complexity: usize) -> f64 {
    let length = complexity as i64 - 2;
    let mut ceil = 4i64;
    let mut added = 0.0;
    let mut odd = false;
    while length > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    base + added
}

/// A difficulty as a step's rating shows it.
fn rounded(d: f64) -> f64 {
    (d * 10.0).round() / 10.0
}

/// A hint of SE's producer.
struct Found {
    kind: Kind,
    complexity: usize,
    difficulty: f64,
    /// SE's order among hints equal otherwise: the source candidate, its
    /// cycles (0) before its chains from "on" (1) and from "off" (2), then
    /// the order the source's search met them in.
    order: (usize, u8, usize),
    /// The nodes from the source on; a cycle's source is not repeated at
    /// its end.
    nodes: Vec<usize>,
    eliminations: Vec<(usize, u8)>,
    placement: Option<(usize, u8)>,
}

impl Found {
    /// Does SE sort `self` before `o`?
    fn precedes(&self, o: &Found) -> bool {
        if self.difficulty != o.difficulty {
            return self.difficulty < o.difficulty;
        }
        if self.complexity != o.complexity {
            return self.complexity < o.complexity;
        }
        if self.kind.sort_key() != o.kind.sort_key() {
            return self.kind.sort_key() < o.kind.sort_key();
        }
        self.order < o.order
    }
}

fn offer(best: &mut Option<Found>, f: Found) {
    if best.as_ref().is_none_or(|b| f.precedes(b)) {
        *best = Some(f);
    }
}

/// The largest complexity of a hint of `kind` rated below `limit` that may
/// still come before `best` (below 4: none).
fn cap(kind: Kind, limit: f64, best: Option<&Found>) -> usize {
    let base = kind.base();
    let mut last = 0;
    for k in 0..64u32 {
        let hi = max_complexity_for(k);
        let d = se_difficulty(base, hi);
        if rounded(d) >= limit - 1e-9 {
            break;
        }
        if let Some(b) = best {
            if d > b.difficulty {
                break;
            }
            if d == b.difficulty {
                last = last.max(hi.min(b.complexity));
                break;
            }
        }
        last = hi;
        if hi > NNODE + 2 {
            break;
        }
    }
    last
}

/// The nodes one link away from `n`, in SE's order: on a node "on", the
/// cell's other candidates (not in mode X), then the digit's other places
/// in the box, in the row outside the box, in the column outside the box;
/// on a node "off", the cell's other candidate if it has two (not in mode
/// X), then the digit's other place in the box, row and column where it
/// has two (not in mode Y).
#[inline]
pub(crate) fn se_next(net: &Net, n: usize, mode: Mode, f: &mut impl FnMut(usize)) {
    let c = n >> 1;
    let cell = c / 9;
    let di = c % 9;
    if n & 1 == 1 {
        net.cell_mates(c, mode, f);
        let [row, col, bx] = CELL_UNITS[cell];
        let b = bx as usize;
        for &q in &UNITS[b] {
            let q = q as usize;
            if q != cell && net.cands[q] >> di & 1 == 1 {
                f((q * 9 + di) * 2);
            }
        }
        for u in [row, col] {
            for &q in &UNITS[u as usize] {
                let q = q as usize;
                if CELL_UNITS[q][2] as usize != b && net.cands[q] >> di & 1 == 1 {
                    f((q * 9 + di) * 2);
                }
            }
        }
    } else {
        net.bivalue_mate(c, mode, f);
        if mode != Mode::Y {
            for k in [2, 0, 1] {
                let o = net.conj[c][k];
                if o != NONE {
                    f(o as usize * 2 + 1);
                }
            }
        }
    }
}

const UNSEEN: u16 = u16::MAX;
const ROOT: u16 = u16::MAX - 1;

/// SE's breadth-first search from one node: each node kept with its first
/// parent, links taken in [`se_next`]'s order, grown a layer at a time.
struct Tree {
    parent: Vec<u16>,
    order: Vec<u16>,
    /// `order[starts[k]..starts[k + 1]]` is layer `k`.
    starts: Vec<u32>,
}

impl Tree {
    fn new(root: usize) -> Self {
        let mut parent = vec![UNSEEN; NNODE];
        parent[root] = ROOT;
        let mut order = Vec::with_capacity(NNODE);
        order.push(root as u16);
        Tree {
            parent,
            order,
            starts: vec![0, 1],
        }
    }

    /// Grows the search to `depth` links.
    fn extend(&mut self, net: &Net, mode: Mode, depth: usize) {
        while self.starts.len() - 2 < depth {
            let a = self.starts[self.starts.len() - 2] as usize;
            let b = self.starts[self.starts.len() - 1] as usize;
            for i in a..b {
                let n = self.order[i] as usize;
                let parent = &mut self.parent;
                let order = &mut self.order;
                se_next(net, n, mode, &mut |m| {
                    if parent[m] == UNSEEN {
                        parent[m] = n as u16;
                        order.push(m as u16);
                    }
                });
            }
            self.starts.push(self.order.len() as u32);
        }
    }

    fn layer(&self, k: usize) -> &[u16] {
        &self.order[self.starts[k] as usize..self.starts[k + 1] as usize]
    }

    /// `n` and its ancestors, up to the root.
    fn up(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        let mut x = n as u16;
        std::iter::from_fn(move || {
            if x == ROOT {
                return None;
            }
            let r = x as usize;
            x = self.parent[r];
            Some(r)
        })
    }

    /// The nodes from the root to `n`.
    fn path(&self, n: usize) -> Vec<usize> {
        let mut v: Vec<usize> = self.up(n).collect();
        v.reverse();
        v
    }
}

/// SE's eliminations of a cycle: the candidates outside the loop's cells
/// that see a node "on" and a node "off" of their digit (`pos`: the cells of
/// each digit index).
fn cycle_eliminations(pos: &[Cells; 9], nodes: impl Iterator<Item = usize>) -> Vec<(usize, u8)> {
    let mut cells: Cells = 0;
    let mut on = [0 as Cells; 9];
    let mut off = [0 as Cells; 9];
    for n in nodes {
        let c = n >> 1;
        let cell = c / 9;
        cells |= 1 << cell;
        if n & 1 == 1 {
            on[c % 9] |= PEER_MASK[cell];
        } else {
            off[c % 9] |= PEER_MASK[cell];
        }
    }
    let mut el = Vec::new();
    for di in 0..9 {
        let e = on[di] & off[di] & pos[di] & !cells;
        for cell in cells_of(e) {
            el.push((cell, di as u8 + 1));
        }
    }
    el.sort_unstable();
    el
}

/// What one mode's search works on.
#[derive(Clone, Copy)]
struct Ctx<'a> {
    net: &'a Net,
    layers: &'a Layers,
    /// The cells of each digit index.
    pos: &'a [Cells; 9],
    mode: Mode,
}

/// A cycle that removes something.
struct Cycle {
    /// From the source on; the source is not repeated at the end.
    nodes: Vec<usize>,
    eliminations: Vec<(usize, u8)>,
    /// The order the source's search met it in.
    index: usize,
}

/// The first productive cycle, in SE's order, closed at layer `t` of the
/// search `tree` from `source` on.
fn first_cycle(cx: &Ctx, tree: &Tree, source: usize, close: &Set, t: usize) -> Option<Cycle> {
    let Ctx {
        net,
        layers,
        pos,
        mode,
    } = *cx;
    let mut strong = [NONE as usize; 4];
    for (slot, m) in strong.iter_mut().zip(layers.strong_of(source)) {
        *slot = m;
    }
    let mut index = 0;
    for &n in tree.layer(t) {
        let n = n as usize;
        if !set_has(close, n >> 1) {
            continue;
        }
        let mut hit = None;
        se_next(net, n, mode, &mut |m| {
            if hit.is_some() || !strong.contains(&(m >> 1)) {
                return;
            }
            index += 1;
            if tree.up(n).any(|a| a == m) {
                return;
            }
            let el = cycle_eliminations(pos, tree.up(n).chain(std::iter::once(m)));
            if !el.is_empty() {
                hit = Some((m, el));
            }
        });
        if let Some((m, el)) = hit {
            let mut nodes = tree.path(n);
            nodes.push(m);
            return Some(Cycle {
                nodes,
                eliminations: el,
                index,
            });
        }
    }
    None
}

/// SE's search in one mode, for the cycles of kind `cyc` and the forcing
/// chains of kind `ch`: the first hint of each kind (the shortest, so the
/// easiest of the kind) is offered to `best` if rated below `limit`.
fn search_mode(
    cx: &Ctx,
    cyc: Option<Kind>,
    ch: Option<Kind>,
    limit: f64,
    best: &mut Option<Found>,
) {
    let Ctx {
        net, layers, mode, ..
    } = *cx;
    let cyc_cap = |best: &Option<Found>| cyc.map_or(0, |k| cap(k, limit, best.as_ref()));
    let ch_cap = |best: &Option<Found>| ch.map_or(0, |k| cap(k, limit, best.as_ref()));
    let mut cmax = cyc_cap(best);
    let mut hmax = ch_cap(best);
    if cmax < 4 && hmax < 4 {
        return;
    }
    let sources: Vec<usize> = (0..NCAND)
        .filter(|&c| {
            let k = net.cands[c / 9].count_ones();
            net.has(c) && k >= 2 && (mode != Mode::Y || k == 2)
        })
        .collect();
    let mut on_w: Vec<Walker> = sources
        .iter()
        .map(|&c| Walker::new(node(c, true), None))
        .collect();
    let mut off_w: Vec<Walker> = if hmax >= 4 {
        sources
            .iter()
            .map(|&c| Walker::new(node(c, false), None))
            .collect()
    } else {
        Vec::new()
    };
    // the "on" nodes next to an "off" node whose strong link turns the
    // source on: where a cycle can close
    let close: Vec<Set> = if cmax >= 4 {
        close_sets(layers, &sources)
    } else {
        Vec::new()
    };
    // from a source off, a chain starts with a strong link
    for (w, &c) in off_w.iter_mut().zip(&sources) {
        if layers.strong[c][0] == NONE {
            w.stop();
        }
    }
    let mut trees: Vec<Option<Tree>> = (0..sources.len()).map(|_| None).collect();
    let (mut cyc_on, mut ch_on) = (cmax >= 4, hmax >= 4);
    // without chains to look for, only the sources where a cycle can close
    let cycles_only = |on_w: &mut Vec<Walker>| {
        for (i, w) in on_w.iter_mut().enumerate() {
            if close.get(i).is_none_or(set_empty) {
                w.stop();
            }
        }
    };
    if !ch_on {
        cycles_only(&mut on_w);
    }
    let mut t = 0;
    loop {
        t += 1;
        cyc_on &= t + 2 <= cmax;
        if ch_on && t + 1 > hmax {
            ch_on = false;
            cycles_only(&mut on_w);
        }
        if !cyc_on && !ch_on {
            break;
        }
        let mut any = false;
        for w in on_w.iter_mut().filter(|w| w.alive) {
            any |= w.step(layers);
        }
        if ch_on {
            for w in off_w.iter_mut().filter(|w| w.alive) {
                any |= w.step(layers);
            }
        }
        if !any {
            break;
        }
        if ch_on && t % 2 == 1 {
            if let Some(f) = chain_found(cx, ch, &sources, &on_w, &off_w, t) {
                offer(best, f);
                ch_on = false;
                cycles_only(&mut on_w);
                cmax = cyc_cap(best);
            }
        }
        if cyc_on && t % 2 == 0 {
            if let Some(f) = cycle_found(cx, cyc, &sources, &on_w, &close, &mut trees, t) {
                offer(best, f);
                cyc_on = false;
                hmax = ch_cap(best);
            }
        }
    }
}

/// For each source, the "on" nodes next to an "off" node whose strong link
/// turns the source on: where a cycle can close.
fn close_sets(layers: &Layers, sources: &[usize]) -> Vec<Set> {
    sources
        .iter()
        .map(|&c| {
            let mut s = [0u64; 12];
            for m in layers.strong_of(c) {
                for k in 0..12 {
                    s[k] |= layers.weak[m][k];
                }
            }
            s
        })
        .collect()
}

/// The forcing chain of kind `ch` found at layer `t` (odd) of the walks
/// from the sources on (`on_w`) and off (`off_w`): the first source whose
/// walk meets its own other value.
fn chain_found(
    cx: &Ctx,
    ch: Option<Kind>,
    sources: &[usize],
    on_w: &[Walker],
    off_w: &[Walker],
    t: usize,
) -> Option<Found> {
    let hit = sources.iter().enumerate().find_map(|(i, &s)| {
        if set_has(&on_w[i].frontier, s) {
            Some((s, true))
        } else if set_has(&off_w[i].frontier, s) {
            Some((s, false))
        } else {
            None
        }
    });
    let (s, from_on) = hit?;
    let kind = ch.unwrap();
    let root = node(s, from_on);
    let mut tree = Tree::new(root);
    tree.extend(cx.net, cx.mode, t);
    debug_assert!(tree.parent[root ^ 1] != UNSEEN);
    let nodes = tree.path(root ^ 1);
    let cd = (cand_cell(s), cand_digit(s));
    Some(Found {
        kind,
        complexity: nodes.len(),
        difficulty: se_difficulty(kind.base(), nodes.len()),
        order: (s, if from_on { 1 } else { 2 }, 0),
        nodes,
        eliminations: if from_on { vec![cd] } else { Vec::new() },
        placement: (!from_on).then_some(cd),
    })
}

/// The cycle of kind `cyc` closed at layer `t` (even): the first source,
/// in order, whose walk reaches a node where its cycle can close (`close`)
/// and whose search tree (grown in `trees` as needed) closes a productive
/// one.
fn cycle_found(
    cx: &Ctx,
    cyc: Option<Kind>,
    sources: &[usize],
    on_w: &[Walker],
    close: &[Set],
    trees: &mut [Option<Tree>],
    t: usize,
) -> Option<Found> {
    let mut found = None;
    for (i, &s) in sources.iter().enumerate() {
        let f = &on_w[i].frontier;
        if !(0..12).any(|k| f[k] & close[i][k] != 0) {
            continue;
        }
        let tree = trees[i].get_or_insert_with(|| Tree::new(node(s, true)));
        tree.extend(cx.net, cx.mode, t);
        if let Some(cy) = first_cycle(cx, tree, s, &close[i], t) {
            found = Some((s, cy));
            break;
        }
    }
    let (s, cy) = found?;
    let kind = cyc.unwrap();
    Some(Found {
        kind,
        complexity: cy.nodes.len(),
        difficulty: se_difficulty(kind.base(), cy.nodes.len()),
        order: (s, 0, cy.index),
        nodes: cy.nodes,
        eliminations: cy.eliminations,
        placement: None,
    })
}

/// The first hint, in SE's order, among those of `kinds` rated below
/// `limit`.
fn search(b: &MarkedGrid, kinds: &[Kind], limit: f64) -> Option<Found> {
    let mut best = None;
    let mut pos: [Cells; 9] = [0; 9];
    for mode in [Mode::X, Mode::Y, Mode::XY] {
        let cyc = kinds
            .iter()
            .copied()
            .find(|k| k.is_cycle() && k.mode() == mode);
        let ch = kinds
            .iter()
            .copied()
            .find(|k| !k.is_cycle() && k.mode() == mode);
        if cyc.is_none() && ch.is_none() {
            continue;
        }
        let (net, layers) = layers_of(b, mode);
        if pos == [0; 9] {
            for (cell, &m) in net.cands.iter().enumerate() {
                for di in 0..9 {
                    if m >> di & 1 == 1 {
                        pos[di] |= 1 << cell;
                    }
                }
            }
        }
        let cx = Ctx {
            net: &net,
            layers: &layers,
            pos: &pos,
            mode,
        };
        search_mode(&cx, cyc, ch, limit, &mut best);
    }
    best
}

/// The step of a hint.
fn found_step(f: &Found, technique: Technique) -> Step {
    let mut s = Step::new(technique);
    s.complexity = f.complexity;
    s.eliminations = f.eliminations.clone();
    s.placements.extend(f.placement);
    let mut cells: Vec<usize> = f.nodes.iter().map(|&n| cand_cell(n >> 1)).collect();
    cells.sort_unstable();
    cells.dedup();
    s.cells = cells;
    let mut digits: Vec<u8> = f.nodes.iter().map(|&n| cand_digit(n >> 1)).collect();
    digits.sort_unstable();
    digits.dedup();
    s.digits = digits;
    s.description = if f.kind.is_cycle() {
        format!(
            "{}: {} -> {} loops back, so either all its \"on\" candidates are true or all its \
             \"off\" ones are: {} removed (each sees one of both with its digit)",
            technique.name(),
            chain_text(&f.nodes),
            node_name(f.nodes[0]),
            s.eliminations
                .iter()
                .map(|&(c, d)| format!("{}<>{}", cell_name(c), digit_name(d)))
                .collect::<Vec<_>>()
                .join(", ")
        )
    } else {
        describe_forcing(technique, &f.nodes)
    };
    s
}

/// The easiest hint of one kind, as a step.
fn kind_step(b: &MarkedGrid, kind: Kind) -> Option<Step> {
    let f = search(b, &[kind], f64::INFINITY)?;
    Some(found_step(&f, kind.technique()))
}

/// The shortest productive X-cycle (one digit), as SE finds them.
pub fn x_cycle(b: &MarkedGrid) -> Option<Step> {
    kind_step(b, Kind::XCycle)
}
/// The shortest productive Y-cycle (strong links in bivalue cells), as SE
/// finds them.
pub fn y_cycle(b: &MarkedGrid) -> Option<Step> {
    kind_step(b, Kind::YCycle)
}
/// The shortest productive cycle with links of both kinds, as SE finds them.
pub fn continuous_loop(b: &MarkedGrid) -> Option<Step> {
    kind_step(b, Kind::XYCycle)
}
/// The shortest forcing X-chain (one digit).
pub fn x_chain(b: &MarkedGrid) -> Option<Step> {
    kind_step(b, Kind::XChain)
}
/// The shortest forcing chain whose strong links are all bivalue cells (SE
/// finds it as a forcing chain of both kinds of links).
pub fn xy_chain(b: &MarkedGrid) -> Option<Step> {
    forcing_chain(b, Mode::Y, Technique::XYChain, f64::INFINITY)
}
/// The shortest forcing chain with links of both kinds.
pub fn aic(b: &MarkedGrid) -> Option<Step> {
    kind_step(b, Kind::XYChain)
}

/// The step Sudoku Explainer's first chaining producer ("Forcing Chains &
/// Cycles") has the solver take, rated below `limit`: its first hint in its
/// order (difficulty, complexity, kind, then the order found).
pub(crate) fn chain_producer(b: &MarkedGrid, limit: f64) -> Option<Step> {
    let f = search(
        b,
        &[
            Kind::XCycle,
            Kind::XChain,
            Kind::YCycle,
            Kind::XYCycle,
            Kind::XYChain,
        ],
        limit,
    )?;
    let mut t = f.kind.technique();
    // a chain of both kinds of links whose strong links are all bivalue
    // cells is an XY-chain (rated the same)
    if f.kind == Kind::XYChain
        && f.nodes
            .windows(2)
            .all(|w| w[0] & 1 == 1 || cand_cell(w[0] >> 1) == cand_cell(w[1] >> 1))
    {
        t = Technique::XYChain;
    }
    Some(found_step(&f, t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::length_increment;

    /// Boards of calibration puzzles at a step where SE's solver takes a
    /// hint of this producer: the puzzle, the candidates (9 symbols a cell,
    /// '.' for a missing one; a cell down to one digit that no peer has is
    /// placed), SE's rating of the hint.
    const CASES: [(&str, &str, f64); 7] = [
        (
            "460070000007009003309056800000008001006000900200700000002390604900600100000010029",
            "...4..........6...1......8.1......8.......7....3..........5............9.2.......1...5..8.1...5..........7..12.....8..2.....8.........9...4..........6.....3........3.......2...............9...4.........5.........6..........8.1..............7......5.7....345.7....345............9.....6..........8..2..........4..7..1........1.....78.1..4..78......6....2..5......3......12..5............9...4..7......5..8..2...............91......8.......7.....4.....1...5......3..........5..8......6...1...5.78.1...5.78..2.........3..............9....5.7.......6.......5..8....4.............9...45.78....45.........6....2.....8..2.4..7..1..........3..........5..8......6.....345..8...345........5..8.1...........45..........7...2...............9",
            6.6,
        ),
        (
            "073005890200180000800006000008007000001030600000800500000700004000063009034500780",
            "1....6.........7....3.......2..........4.........5...........8.........91....6....2..........4.6.......56...1...............8.........9..34.......3..67....3.5.7.........8.1..4....9....5...9..3............7.......6....2.4.....12.......1...5......34......2..............8......6.......5..........7..........91..4.....1.3.........4..7......5....1................9..3.......2.4..........6....2.4..7.........8...34..7.9.....6..9.....67.9.......8.1.........2.4.........5.....234..7...23...7......5....1....6....2...6..9......7...2......9.......8.123........3..6......4.....1.....7.........8..2....7.....4..........6.....3......12...........5............9.....6..9..3.........4.........5.....2......91..............7.........8..2...6...",
            6.8,
        ),
        (
            "500407001904030208003508700000156000000802000080040010201000504090010070000000000",
            "....5.....2...6..........8....4......2......9......7....3.....9..3..6..91................9......7.....4..........6.....3......1.........2...........5...........8.1....6...12.........3..........5.....2......9.......8.......7.....4..........6..9..34.......34......2......91............5.........6..........89.2.....89......7..1....6...1...5........56..9.......8.......7...2..........4.......3.....9..3.5...9......7.........8..2..5......3.....9...4.......3.....9.....6...1.........2..5.....2.........3..6...1..............7.......6.8...3.....9....5.........6.89...4.......34...8.........9....56....23......1...........45......3....8.......7...23..6.....34...8...3456.........7...23.....9.....6.8....45....1.........2...6.89.23.....9",
            7.0,
        ),
        (
            "004060800000000000008145200000906000010020090200584003006000300040070060100608009",
            "..3.5.7...23.5.7.....4......2....7.......6...........9.......8.1.3.5.7..1...5.7......567...2..567..1...............8...3.......2....7..........9...45.7.....4567....3..67.9......7.9.......8.1...........4.........5.....2.........3...7.......67....34.......3...78...3...7..........91.............6......45.....2.45.78..2..5.7.....4.6.8.1............5......3...7...2.........3...7.....4.6...........9...4...8..2............6..9......7.9....5...........8....4.....1....67..1.....7....3..........5.7......5..8......6......4.............912.........3......12..5.78.12..5.7......5..89...4......2......9.23............7..123......1...5.........6...12..5..8.1..........3...7...23...7.......6.......5...........8....4..7...2.4..7..........9",
            7.2,
        ),
        (
            "070084900000600008401930600700000560508000104049000007005018706800006000004790050",
            ".23............7.......6...12..5...........8....4.............9123......123.5............9....5.....23...........6....2....7..12....7...234.....1234............8....4............8.1................9..3.......2..5.........6.........7...2..5..........7..123.......23.............8....4.....1.......9....5.........6....23.....9....5.....23..6..........8..23...........67........7.91.........23.....9...4.....1....6......4.............9123.5.....2..56...123.5.....23.............8.......7...23.......23.....9....5.....234.....1...............8.......7...234....9.....6..........8.123.....9......7...2345.....2..5.........6....234.....1234....9123.....91....6...123..6......4...........7..........9.23.............8.....5....123......",
            7.3,
        ),
        (
            "000408000007000800080060090005000700300000001106040305060957030000020000020030060",
            ".2..5...91.3.5....123.....9...4.....1.....7.........8..2..56...1...5.7...23..67.......6...1.3.5..........7..123.5....1.......9123.5...9.......8.1...5.......4......2.45...........8.1234.....1.3.5.7.......6...1.3.5....12..5............9.23...7...2.....8....4....9....5....1.3..6...1......891.3..6..9......7...2.4..........6..9..3.........4..7.9.2.....8.....567........78.....56........6..9.2.4.....1........1..............7.9.....6....2....7.....4......2......9..3.............8.....5.......4...8......6...1..4...8.........9....5..........7..12.4.......3.......2.....8....45.7891.3.5....1.34...891....6.8..2.......1..4.6...1..45...91...5.7........789...45.789.2.......1..4...891......8...3......1..4.....1..45...9.....6.........789",
            7.4,
        ),
        (
            "000408000007000800080060090005000700300000001106040305060957030000020000020030060",
            ".2..56..91.3.5....123.....9...4.....1.....7.........8..2..56...1...5.7...23..67.....4.6...1.3.5..........7..123.5....1.......9123.5...9.......8.1...5.......4.6....2.45...........8.1234.....1.3.5.7.......6...1.3.5....12.45............9.234..7...2.....8....4....9....5....1.3..6...1......891.3..6..9......7...2.4..........6..9..3.........4..7.9.2.....8.....567........78.....56..9.....6..9.2.4.....1........1..............7.9.....6....2....7.....4......2......9..3.............8.....5.......4...8......6...1..4...8.........9....5..........7..12.4.......3.......2.4...8....45.7891.3.5....1.34...891....6.8..2.......1..4.6...1..45...91...5.7.....4..789...45.789.2.......1..4...891......8...3......1..4.....1..45...9.....6......4..789",
            7.3,
        ),
    ];

    fn board729(s: &str) -> MarkedGrid {
        let s = s.as_bytes();
        let mut cands = [0 as Digits; 81];
        for (c, m) in cands.iter_mut().enumerate() {
            for d in 0..9 {
                if s[c * 9 + d] != b'.' {
                    *m |= 1 << d;
                }
            }
        }
        let mut values = [0u8; 81];
        for c in 0..81 {
            if cands[c].count_ones() == 1 {
                let di = cands[c].trailing_zeros();
                if PEERS[c].iter().all(|&q| cands[q as usize] >> di & 1 == 0) {
                    values[c] = di as u8 + 1;
                }
            }
        }
        for c in 0..81 {
            if values[c] != 0 {
                cands[c] = 0;
            }
        }
        MarkedGrid::from_parts(values, cands)
    }

    fn solution(puzzle: &str) -> [u8; 81] {
        let p = crate::Puzzle::parse_line(&puzzle.replace('0', "."), None).unwrap();
        let s = crate::solve(&p, 2);
        assert_eq!(s.count, 1, "{puzzle}");
        s.solutions[0].cells().try_into().unwrap()
    }

    /// The step changes the board, only in ways the solution allows; a
    /// cycle removes nothing from its own cells (SE's rule).
    fn sound(b: &MarkedGrid, s: &Step, sol: &[u8; 81]) {
        assert!(s.is_productive(), "{s}");
        for &(c, d) in &s.eliminations {
            assert!(
                b.has(c, d),
                "{s}: r{}c{}<>{d} is no candidate",
                c / 9 + 1,
                c % 9 + 1
            );
            assert_ne!(sol[c], d, "{s}: removes the solution's digit");
        }
        for &(c, d) in &s.placements {
            assert_eq!(sol[c], d, "{s}: places a wrong digit");
        }
        if matches!(
            s.technique,
            Technique::XCycle | Technique::YCycle | Technique::ContinuousLoop
        ) {
            assert!(
                s.eliminations.iter().all(|(c, _)| !s.cells.contains(c)),
                "{s}"
            );
        }
        assert!(s.complexity >= 4, "{s}");
        assert_eq!(s.adjust, 0.0);
    }

    fn apply(b: &mut MarkedGrid, s: &Step) {
        for &(c, d) in &s.eliminations {
            b.eliminate(c, d);
        }
        for &(c, d) in &s.placements {
            b.place(c, d);
        }
    }

    #[test]
    fn ratings_are_se_s() {
        for (puzzle, cands, se) in CASES {
            let b = board729(cands);
            let sol = solution(puzzle);
            let s = chain_producer(&b, f64::INFINITY).expect(puzzle);
            assert_eq!(s.rating(), se, "{puzzle}: {s}");
            sound(&b, &s, &sol);
            // nothing easier, and the limit is respected
            assert!(chain_producer(&b, se).is_none(), "{puzzle}");
            let again = chain_producer(&b, se + 0.05).unwrap();
            assert_eq!(again, s);
        }
    }

    #[test]
    fn each_kind_is_sound_until_it_runs_dry() {
        type Find = fn(&MarkedGrid) -> Option<Step>;
        let finds: [(Find, Technique); 6] = [
            (x_cycle, Technique::XCycle),
            (y_cycle, Technique::YCycle),
            (x_chain, Technique::XChain),
            (xy_chain, Technique::XYChain),
            (continuous_loop, Technique::ContinuousLoop),
            (aic, Technique::Aic),
        ];
        let mut seen = [0usize; 6];
        for (puzzle, cands, _) in CASES {
            let sol = solution(puzzle);
            let start = board729(cands);
            let best = chain_producer(&start, f64::INFINITY).unwrap();
            for (k, &(find, t)) in finds.iter().enumerate() {
                let mut b = start.clone();
                if let Some(s) = find(&b) {
                    // the producer's step is the easiest of all
                    assert!(best.rating() <= s.rating(), "{puzzle}: {best} / {s}");
                }
                let mut rounds = 0;
                while let Some(s) = find(&b) {
                    assert_eq!(s.technique, t);
                    sound(&b, &s, &sol);
                    apply(&mut b, &s);
                    seen[k] += 1;
                    rounds += 1;
                    assert!(rounds < 300, "{t} never runs dry");
                }
            }
            // the producer, step after step
            let mut b = start.clone();
            for _ in 0..40 {
                let Some(s) = chain_producer(&b, f64::INFINITY) else {
                    break;
                };
                sound(&b, &s, &sol);
                apply(&mut b, &s);
            }
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }

    #[test]
    fn difficulty_is_se_s_floating_point_value() {
        // the rounded value is the base plus the length increment
        for base in [6.5, 6.6, 7.0] {
            for c in 4..400 {
                let d = se_difficulty(base, c);
                let want = base + length_increment(c);
                assert!((rounded(d) - rounded(want)).abs() < 1e-9, "{base} {c}");
            }
        }
        // SE sorts on the unrounded value: an X-chain of 8 nodes (6.6 +
        // 0.1) comes before an X-cycle of 10 (6.5 + 0.2), both 6.7
        assert!(se_difficulty(6.6, 8) < se_difficulty(6.5, 10));
        assert_eq!(
            rounded(se_difficulty(6.6, 8)),
            rounded(se_difficulty(6.5, 10))
        );
        // the caps follow: below 6.7, an X-cycle has at most 8 nodes
        assert_eq!(cap(Kind::XCycle, 6.7, None), 8);
        assert_eq!(cap(Kind::XYCycle, 7.0, None), 0);
    }
}
