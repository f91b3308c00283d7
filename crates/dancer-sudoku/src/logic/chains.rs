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
use std::cell::RefCell;
use std::rc::Rc;

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
        format!("so {} is {}", cell_name(cand_cell(c)), cand_digit(c))
    } else {
        format!("so {} leaves {}", cand_digit(c), cell_name(cand_cell(c)))
    };
    format!(
        "{}: {} (assuming {} leads to its opposite), {}",
        t.name(),
        chain_text(path),
        node_name(path[0]),
        verdict
    )
}

/// A set of candidates.
type Set = [u64; 12];

#[inline]
fn set_has(s: &Set, c: usize) -> bool {
    s[c >> 6] >> (c & 63) & 1 == 1
}
#[inline]
fn set_add(s: &mut Set, c: usize) {
    s[c >> 6] |= 1 << (c & 63);
}
#[inline]
fn set_empty(s: &Set) -> bool {
    s.iter().all(|&w| w == 0)
}
#[inline]
fn set_iter(s: &Set) -> impl Iterator<Item = usize> + '_ {
    s.iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            if w == 0 {
                None
            } else {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(i * 64 + b)
            }
        })
    })
}

/// The links of a mode as candidate sets, for breadth-first searches that
/// advance many starts together, one layer at a time.
pub(crate) struct Layers {
    /// For each candidate, the candidates its being on turns off.
    weak: Vec<Set>,
    /// For each candidate, the candidates its being off turns on
    /// ([`NONE`]-padded).
    strong: Vec<[u16; 4]>,
}

impl Layers {
    fn new(net: &Net, mode: Mode) -> Self {
        let mut weak = vec![[0u64; 12]; NCAND];
        let mut strong = vec![[NONE; 4]; NCAND];
        for c in 0..NCAND {
            if !net.has(c) {
                continue;
            }
            net.next(node(c, true), mode, &mut |n| set_add(&mut weak[c], n >> 1));
            let st = &mut strong[c];
            net.next(node(c, false), mode, &mut |n| {
                let o = (n >> 1) as u16;
                if let Some(slot) = st.iter_mut().find(|x| **x == NONE || **x == o) {
                    *slot = o;
                }
            });
        }
        Layers { weak, strong }
    }

    #[inline]
    fn strong_of(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        self.strong[c]
            .iter()
            .take_while(|&&o| o != NONE)
            .map(|&o| o as usize)
    }
}

/// The network and layers of the last board seen, per thread: the chain
/// searches of one step share them.
struct Cache {
    cands: [Digits; 81],
    net: Rc<Net>,
    layers: [Option<Rc<Layers>>; 3],
}

thread_local! {
    static CACHE: RefCell<Option<Cache>> = const { RefCell::new(None) };
}

fn cached<R>(b: &Board, f: impl FnOnce(&mut Cache) -> R) -> R {
    CACHE.with(|cell| {
        let mut slot = cell.borrow_mut();
        let fresh = match slot.as_ref() {
            Some(c) => c.cands != *b.all_cands(),
            None => true,
        };
        if fresh {
            *slot = Some(Cache {
                cands: *b.all_cands(),
                net: Rc::new(Net::new(b)),
                layers: [None, None, None],
            });
        }
        f(slot.as_mut().unwrap())
    })
}

/// The network of a board (shared with the other searches of the same board).
pub(crate) fn net_of(b: &Board) -> Rc<Net> {
    cached(b, |c| c.net.clone())
}

fn layers_of(b: &Board, mode: Mode) -> (Rc<Net>, Rc<Layers>) {
    cached(b, |c| {
        let i = mode as usize;
        if c.layers[i].is_none() {
            c.layers[i] = Some(Rc::new(Layers::new(&c.net, mode)));
        }
        (c.net.clone(), c.layers[i].clone().unwrap())
    })
}

/// One search of a lockstep breadth-first walk.
struct Walker {
    /// The starting node.
    start: usize,
    /// Is the frontier made of "on" nodes?
    on: bool,
    frontier: Set,
    seen_on: Set,
    seen_off: Set,
    alive: bool,
}

impl Walker {
    fn new(start: usize, blocked: Option<usize>) -> Self {
        let mut w = Walker {
            start,
            on: start & 1 == 1,
            frontier: [0; 12],
            seen_on: [0; 12],
            seen_off: [0; 12],
            alive: true,
        };
        set_add(&mut w.frontier, start >> 1);
        if w.on {
            set_add(&mut w.seen_on, start >> 1);
        } else {
            set_add(&mut w.seen_off, start >> 1);
        }
        if let Some(b) = blocked {
            set_add(&mut w.seen_on, b);
            set_add(&mut w.seen_off, b);
        }
        w
    }

    /// Advances one layer; false when nothing new was reached.
    fn step(&mut self, layers: &Layers) -> bool {
        let mut new = [0u64; 12];
        if self.on {
            for c in set_iter(&self.frontier) {
                let w = &layers.weak[c];
                for i in 0..12 {
                    new[i] |= w[i];
                }
            }
            for i in 0..12 {
                new[i] &= !self.seen_off[i];
                self.seen_off[i] |= new[i];
            }
        } else {
            for c in set_iter(&self.frontier) {
                for o in layers.strong_of(c) {
                    set_add(&mut new, o);
                }
            }
            for i in 0..12 {
                new[i] &= !self.seen_on[i];
                self.seen_on[i] |= new[i];
            }
        }
        self.frontier = new;
        self.on = !self.on;
        self.alive = !set_empty(&new);
        self.alive
    }
}

/// The largest number of nodes for a chain of base `base` rated below `limit`.
fn node_cap(base: f64, limit: f64) -> Option<usize> {
    if base >= limit - 1e-9 {
        return None;
    }
    if limit.is_infinite() {
        return Some(NNODE + 2);
    }
    let mut k = 0u32;
    while base + 0.1 * ((k + 1) as f64) < limit - 1e-9 {
        k += 1;
    }
    Some(max_complexity_for(k))
}

/// The shortest chain, in `mode`, from a candidate on to itself off (or off
/// to on), rated below `limit`.
pub(crate) fn forcing_chain(b: &Board, mode: Mode, t: Technique, limit: f64) -> Option<Step> {
    let cap = node_cap(t.se_rating(), limit)?;
    let (net, layers) = layers_of(b, mode);
    let mut walkers: Vec<Walker> = Vec::new();
    for c in 0..NCAND {
        if net.has(c) {
            walkers.push(Walker::new(node(c, true), None));
            walkers.push(Walker::new(node(c, false), None));
        }
    }
    let mut found = None;
    'layers: for layer in 1..cap {
        let mut any = false;
        for (i, w) in walkers.iter_mut().enumerate() {
            if !w.alive {
                continue;
            }
            if !w.step(&layers) {
                continue;
            }
            any = true;
            // the start's opposite reached?
            let c = w.start >> 1;
            let target_on = w.start & 1 == 0;
            if w.on == target_on && set_has(&w.frontier, c) {
                found = Some((i, layer));
                break 'layers;
            }
        }
        if !any {
            break;
        }
    }
    let (i, layer) = found?;
    let start = walkers[i].start;
    let target = start ^ 1;
    let mut bfs = Bfs::new();
    let (f, _) = bfs.run(&net, start, mode, layer, NONE as usize, &|n| n == target);
    let path = bfs.path(f?);
    let mut s = Step::new(t);
    s.complexity = path.len();
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
    Some(s)
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
/// `limit`. Each strong link `b -> a` (b off implies a on) is tried: the
/// shortest alternating path from `a` on to a candidate that sees `b`, with
/// `b` itself left out, closes a loop.
pub(crate) fn cycle(b: &Board, mode: Mode, t: Technique, limit: f64) -> Option<Step> {
    let cap = node_cap(t.se_rating(), limit)?;
    let (net, layers) = layers_of(b, mode);
    let mut links = Vec::new();
    let mut walkers: Vec<Walker> = Vec::new();
    for c in 0..NCAND {
        if net.has(c) {
            for a in layers.strong_of(c) {
                links.push((c, a));
                walkers.push(Walker::new(node(a, true), Some(c)));
            }
        }
    }
    let mut bfs = Bfs::new();
    // loop nodes: the path to the last "on" node, then b off
    for layer in 1..cap.saturating_sub(1) {
        let mut any = false;
        // (the chain's nodes, the eliminations it makes)
        #[allow(clippy::type_complexity)]
        let mut best: Option<(Vec<usize>, Vec<(usize, u8)>)> = None;
        for (i, w) in walkers.iter_mut().enumerate() {
            if !w.alive {
                continue;
            }
            if !w.step(&layers) {
                continue;
            }
            any = true;
            if !w.on || layer < 2 {
                continue;
            }
            let (bc, a) = links[i];
            let mut goal = layers.weak[bc];
            goal[a >> 6] &= !(1u64 << (a & 63));
            if !(0..12).any(|k| goal[k] & w.frontier[k] != 0) {
                continue;
            }
            // the first loop found for this link decides it
            w.alive = false;
            if best.is_some() {
                continue;
            }
            let (bcell, bd) = (cand_cell(bc), cand_digit(bc));
            let goal_fn = |n: usize| {
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
            let (f, _) = bfs.run(&net, node(a, true), mode, layer, bc, &goal_fn);
            let Some(f) = f else { continue };
            let mut lp = bfs.path(f);
            lp.push(node(bc, false));
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
        if !any {
            break;
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
