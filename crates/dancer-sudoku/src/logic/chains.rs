//! Alternating chains on candidates: X-chains and X-cycles (one digit),
//! XY-chains and Y-cycles (strong links in bivalue cells), and AICs and
//! continuous nice loops (strong links of both kinds).
//!
//! A *candidate* is `cell * 9 + digit - 1` (0..729); a *node* is a candidate
//! assumed on or off: `candidate * 2 + on`. A weak link lets "on" imply
//! "off" (two candidates of a cell, or one digit in two cells of a unit); a
//! strong link lets "off" imply "on" (a bivalue cell, or a unit with two
//! places for a digit). A chain that starts from a candidate on and reaches
//! the same candidate off proves it false (and off to on proves it true);
//! the shortest such chain is found breadth first. As in SE, the rating grows
//! with the number of nodes of the chain.

use super::board::*;
use super::step::{max_complexity_for, Step, Technique};

pub(crate) const NONE: u16 = u16::MAX;
pub(crate) const NCAND: usize = 729;
pub(crate) const NNODE: usize = 1458;

/// Which links a chain may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// One digit: unit links only.
    X,
    /// Strong links in bivalue cells only; weak links of both kinds.
    Y,
    /// Every link.
    XY,
}

#[inline]
pub(crate) fn cand(cell: usize, d: u8) -> usize {
    cell * 9 + d as usize - 1
}
#[inline]
pub(crate) fn cand_cell(c: usize) -> usize {
    c / 9
}
#[inline]
pub(crate) fn cand_digit(c: usize) -> u8 {
    (c % 9) as u8 + 1
}
#[inline]
pub(crate) fn node(c: usize, on: bool) -> usize {
    c * 2 + on as usize
}

/// `r3c5=7` or `r3c5<>7`.
pub(crate) fn node_name(n: usize) -> String {
    let c = n >> 1;
    format!(
        "{}{}{}",
        cell_name(cand_cell(c)),
        if n & 1 == 1 { "=" } else { "<>" },
        cand_digit(c)
    )
}

/// The links of a board.
pub(crate) struct Net {
    pub cands: [Digits; 81],
    /// For each candidate, the other place of its digit in its row, column
    /// and box when there are exactly two ([`NONE`] otherwise).
    pub conj: Vec<[u16; 3]>,
    /// For each candidate of a bivalue cell, the other candidate.
    pub biv: Vec<u16>,
    /// For each unit and digit index, the places (bits 0..9 along the unit).
    pub unit_pos: [[u16; 9]; 27],
}

impl Net {
    pub fn new(b: &Board) -> Self {
        let mut cands = [0; 81];
        for (c, m) in cands.iter_mut().enumerate() {
            *m = b.cands(c);
        }
        Self::from_cands(&cands)
    }

    pub fn from_cands(cands: &[Digits; 81]) -> Self {
        let mut net = Net {
            cands: *cands,
            conj: vec![[NONE; 3]; NCAND],
            biv: vec![NONE; NCAND],
            unit_pos: [[0; 9]; 27],
        };
        for u in 0..27 {
            for (i, &c) in UNITS[u].iter().enumerate() {
                let m = cands[c as usize];
                for di in 0..9 {
                    if m >> di & 1 == 1 {
                        net.unit_pos[u][di] |= 1 << i;
                    }
                }
            }
            let k = u / 9;
            for di in 0..9 {
                let p = net.unit_pos[u][di];
                if p.count_ones() == 2 {
                    let a = UNITS[u][p.trailing_zeros() as usize] as usize;
                    let b2 = UNITS[u][15 - p.leading_zeros() as usize] as usize;
                    net.conj[a * 9 + di][k] = (b2 * 9 + di) as u16;
                    net.conj[b2 * 9 + di][k] = (a * 9 + di) as u16;
                }
            }
        }
        for (c, &m) in cands.iter().enumerate() {
            if m.count_ones() == 2 {
                let a = m.trailing_zeros() as usize;
                let b2 = 15 - m.leading_zeros() as usize;
                net.biv[c * 9 + a] = (c * 9 + b2) as u16;
                net.biv[c * 9 + b2] = (c * 9 + a) as u16;
            }
        }
        net
    }

    #[inline]
    pub fn has(&self, c: usize) -> bool {
        self.cands[c / 9] >> (c % 9) & 1 == 1
    }

    /// The nodes one link away from node `n`.
    #[inline]
    pub fn next(&self, n: usize, mode: Mode, f: &mut impl FnMut(usize)) {
        let c = n >> 1;
        let cell = c / 9;
        let di = c % 9;
        if n & 1 == 1 {
            if mode != Mode::X {
                let mut m = self.cands[cell] & !(1 << di);
                while m != 0 {
                    let e = m.trailing_zeros() as usize;
                    m &= m - 1;
                    f((cell * 9 + e) * 2);
                }
            }
            for &q in &PEERS[cell] {
                let q = q as usize;
                if self.cands[q] >> di & 1 == 1 {
                    f((q * 9 + di) * 2);
                }
            }
        } else {
            if mode != Mode::X {
                let o = self.biv[c];
                if o != NONE {
                    f(o as usize * 2 + 1);
                }
            }
            if mode != Mode::Y {
                for &o in &self.conj[c] {
                    if o != NONE {
                        f(o as usize * 2 + 1);
                    }
                }
            }
        }
    }

    /// The strong partners of candidate `c` in a mode.
    pub fn strong(&self, c: usize, mode: Mode) -> Vec<usize> {
        let mut v = Vec::new();
        self.next(c * 2, mode, &mut |n| {
            let o = n >> 1;
            if !v.contains(&o) {
                v.push(o);
            }
        });
        v
    }
}

/// Breadth-first search over nodes, with reusable buffers.
pub(crate) struct Bfs {
    stamp: Vec<u32>,
    gen: u32,
    dist: Vec<u16>,
    parent: Vec<u16>,
    queue: Vec<u16>,
}

impl Bfs {
    pub fn new() -> Self {
        Bfs {
            stamp: vec![0; NNODE],
            gen: 0,
            dist: vec![0; NNODE],
            parent: vec![NONE; NNODE],
            queue: Vec::with_capacity(NNODE),
        }
    }

    /// Searches from `start` up to `max_dist` links, never entering candidate
    /// `blocked`; returns the first node for which `goal` holds, and whether
    /// the search was cut by the distance limit.
    pub fn run(
        &mut self,
        net: &Net,
        start: usize,
        mode: Mode,
        max_dist: usize,
        blocked: usize,
        goal: &impl Fn(usize) -> bool,
    ) -> (Option<usize>, bool) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.gen = 1;
        }
        let g = self.gen;
        self.queue.clear();
        self.stamp[start] = g;
        self.dist[start] = 0;
        self.parent[start] = NONE;
        self.queue.push(start as u16);
        let mut head = 0;
        let mut truncated = false;
        while head < self.queue.len() {
            let n = self.queue[head] as usize;
            head += 1;
            let dn = self.dist[n] as usize;
            if dn >= max_dist {
                truncated = true;
                continue;
            }
            let mut found = None;
            let stamp = &mut self.stamp;
            let dist = &mut self.dist;
            let parent = &mut self.parent;
            let queue = &mut self.queue;
            net.next(n, mode, &mut |m| {
                if found.is_some() || stamp[m] == g || m >> 1 == blocked {
                    return;
                }
                stamp[m] = g;
                dist[m] = (dn + 1) as u16;
                parent[m] = n as u16;
                queue.push(m as u16);
                if goal(m) {
                    found = Some(m);
                }
            });
            if found.is_some() {
                return (found, truncated);
            }
        }
        (None, truncated)
    }

    /// The nodes from the start to `n`.
    pub fn path(&self, n: usize) -> Vec<usize> {
        let mut v = vec![n];
        let mut x = n;
        while self.parent[x] != NONE {
            x = self.parent[x] as usize;
            v.push(x);
        }
        v.reverse();
        v
    }
}

fn chain_text(path: &[usize]) -> String {
    path.iter()
        .map(|&n| node_name(n))
        .collect::<Vec<_>>()
        .join(" -> ")
}

fn describe_forcing(t: Technique, path: &[usize]) -> String {
    let target = *path.last().unwrap();
    let c = target >> 1;
    let verdict = if target & 1 == 1 {
        format!(
            "so {} is {}",
            cell_name(cand_cell(c)),
            cand_digit(c)
        )
    } else {
        format!(
            "so {} leaves {}",
            cand_digit(c),
            cell_name(cand_cell(c))
        )
    };
    format!(
        "{}: {} (assuming {} leads to its opposite), {}",
        t.name(),
        chain_text(path),
        node_name(path[0]),
        verdict
    )
}

/// The shortest chain, in `mode`, from a candidate on to itself off (or off
/// to on), rated below `limit`.
pub(crate) fn forcing_chain(b: &Board, mode: Mode, t: Technique, limit: f64) -> Option<Step> {
    let net = Net::new(b);
    let mut bfs = Bfs::new();
    let base = t.se_rating();
    for k in 0.. {
        if base + 0.1 * k as f64 >= limit - 1e-9 {
            return None;
        }
        let max_nodes = max_complexity_for(k);
        let mut best: Option<Vec<usize>> = None;
        let mut truncated = false;
        for c in 0..NCAND {
            if !net.has(c) {
                continue;
            }
            for on in [true, false] {
                let start = node(c, on);
                let target = node(c, !on);
                let limit_nodes = best.as_ref().map_or(max_nodes, |p| p.len() - 1);
                if limit_nodes < 2 {
                    continue;
                }
                let (found, tr) = bfs.run(&net, start, mode, limit_nodes - 1, NONE as usize, &|n| {
                    n == target
                });
                truncated |= tr;
                if let Some(f) = found {
                    best = Some(bfs.path(f));
                }
            }
        }
        if let Some(path) = best {
            let mut s = Step::new(t);
            s.complexity = path.len();
            let target = *path.last().unwrap();
            let c = target >> 1;
            if target & 1 == 1 {
                s.placements.push((cand_cell(c), cand_digit(c)));
            } else {
                s.eliminations.push((cand_cell(c), cand_digit(c)));
            }
            let mut cells: Vec<usize> = path.iter().map(|&n| cand_cell(n >> 1)).collect();
            cells.sort_unstable();
            cells.dedup();
            s.cells = cells;
            let mut digits: Vec<u8> = path.iter().map(|&n| cand_digit(n >> 1)).collect();
            digits.sort_unstable();
            digits.dedup();
            s.digits = digits;
            s.description = describe_forcing(t, &path);
            return Some(s);
        }
        if !truncated {
            return None;
        }
    }
    None
}

/// The eliminations of a continuous loop (nodes alternating on/off, starting
/// on, the last node linking strongly back to the first).
fn loop_eliminations(net: &Net, lp: &[usize]) -> Vec<(usize, u8)> {
    let mut in_loop = vec![false; NCAND];
    for &n in lp {
        in_loop[n >> 1] = true;
    }
    let mut el = Vec::new();
    let mut i = 0;
    while i + 1 < lp.len() {
        let (u, v) = (lp[i] >> 1, lp[i + 1] >> 1);
        let (cu, cv) = (cand_cell(u), cand_cell(v));
        if cu == cv {
            let mut m = net.cands[cu];
            while m != 0 {
                let di = m.trailing_zeros() as usize;
                m &= m - 1;
                let x = cu * 9 + di;
                if !in_loop[x] {
                    el.push((cu, di as u8 + 1));
                }
            }
        } else {
            let d = cand_digit(u);
            for c in cells_of(PEER_MASK[cu] & PEER_MASK[cv]) {
                let x = cand(c, d);
                if net.has(x) && !in_loop[x] {
                    el.push((c, d));
                }
            }
        }
        i += 2;
    }
    el.sort_unstable();
    el.dedup();
    el
}

/// The shortest continuous loop, in `mode`, with eliminations, rated below
/// `limit`.
pub(crate) fn cycle(b: &Board, mode: Mode, t: Technique, limit: f64) -> Option<Step> {
    let net = Net::new(b);
    let mut bfs = Bfs::new();
    let base = t.se_rating();
    // strong links (b -> a): b off implies a on
    let mut links = Vec::new();
    for c in 0..NCAND {
        if net.has(c) {
            for a in net.strong(c, mode) {
                links.push((c, a));
            }
        }
    }
    for k in 0.. {
        if base + 0.1 * k as f64 >= limit - 1e-9 {
            return None;
        }
        let max_nodes = max_complexity_for(k);
        let mut best: Option<(Vec<usize>, Vec<(usize, u8)>)> = None;
        let mut truncated = false;
        for &(bc, a) in &links {
            let limit_nodes = best.as_ref().map_or(max_nodes, |p| p.0.len() - 1);
            if limit_nodes < 4 {
                continue;
            }
            let (bcell, bd) = (cand_cell(bc), cand_digit(bc));
            let goal = |n: usize| {
                if n & 1 == 0 || n >> 1 == a {
                    return false;
                }
                let k2 = n >> 1;
                let (kc, kd) = (cand_cell(k2), cand_digit(k2));
                if kd == bd {
                    kc != bcell && sees(kc, bcell)
                } else {
                    mode != Mode::X && kc == bcell
                }
            };
            // loop nodes: path to ON(k), then OFF(b)
            let (found, tr) = bfs.run(&net, node(a, true), mode, limit_nodes - 2, bc, &goal);
            truncated |= tr;
            if let Some(f) = found {
                let mut lp = bfs.path(f);
                lp.push(node(bc, false));
                if lp.len() < 4 {
                    continue;
                }
                let mut seen: Vec<usize> = lp.iter().map(|&n| n >> 1).collect();
                seen.sort_unstable();
                seen.dedup();
                if seen.len() != lp.len() {
                    continue;
                }
                let el = loop_eliminations(&net, &lp);
                if !el.is_empty() {
                    best = Some((lp, el));
                }
            }
        }
        if let Some((lp, el)) = best {
            let mut s = Step::new(t);
            s.complexity = lp.len();
            s.eliminations = el;
            let mut cells: Vec<usize> = lp.iter().map(|&n| cand_cell(n >> 1)).collect();
            cells.sort_unstable();
            cells.dedup();
            s.cells = cells;
            let mut digits: Vec<u8> = lp.iter().map(|&n| cand_digit(n >> 1)).collect();
            digits.sort_unstable();
            digits.dedup();
            s.digits = digits;
            s.description = format!(
                "{}: {} -> {} is a closed loop, so each of its weak links is strong too: {} \
                 removed",
                t.name(),
                chain_text(&lp),
                node_name(lp[0]),
                s.eliminations
                    .iter()
                    .map(|&(c, d)| format!("{}<>{}", cell_name(c), d))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            return Some(s);
        }
        if !truncated {
            return None;
        }
    }
    None
}

pub fn x_cycle(b: &Board) -> Option<Step> {
    cycle(b, Mode::X, Technique::XCycle, f64::INFINITY)
}
pub fn y_cycle(b: &Board) -> Option<Step> {
    cycle(b, Mode::Y, Technique::YCycle, f64::INFINITY)
}
pub fn continuous_loop(b: &Board) -> Option<Step> {
    cycle(b, Mode::XY, Technique::ContinuousLoop, f64::INFINITY)
}
pub fn x_chain(b: &Board) -> Option<Step> {
    forcing_chain(b, Mode::X, Technique::XChain, f64::INFINITY)
}
pub fn xy_chain(b: &Board) -> Option<Step> {
    forcing_chain(b, Mode::Y, Technique::XYChain, f64::INFINITY)
}
pub fn aic(b: &Board) -> Option<Step> {
    forcing_chain(b, Mode::XY, Technique::Aic, f64::INFINITY)
}
