//! The implication net of a grid (candidates on and off, weak and strong
//! links) and its breadth-first layers, which the chain searches here and
//! the forcing chains (`forcing/`) walk.

use crate::logic::board::*;
use crate::logic::step::{max_complexity_for, Step, Technique};
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
        digit_name(cand_digit(c))
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
    pub fn new(b: &MarkedGrid) -> Self {
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

    /// From the node "on" of candidate `c`: the nodes "off" of the other
    /// candidates of its cell (not in mode X).
    #[inline]
    pub(super) fn cell_mates(&self, c: usize, mode: Mode, f: &mut impl FnMut(usize)) {
        if mode != Mode::X {
            let (cell, di) = (c / 9, c % 9);
            let mut m = self.cands[cell] & !(1 << di);
            while m != 0 {
                let e = m.trailing_zeros() as usize;
                m &= m - 1;
                f((cell * 9 + e) * 2);
            }
        }
    }

    /// From the node "off" of candidate `c`: the node "on" of the other
    /// candidate of its cell, when the cell is bivalue (not in mode X).
    #[inline]
    pub(super) fn bivalue_mate(&self, c: usize, mode: Mode, f: &mut impl FnMut(usize)) {
        if mode != Mode::X {
            let o = self.biv[c];
            if o != NONE {
                f(o as usize * 2 + 1);
            }
        }
    }

    /// The nodes one link away from node `n`.
    #[inline]
    pub fn next(&self, n: usize, mode: Mode, f: &mut impl FnMut(usize)) {
        let c = n >> 1;
        let cell = c / 9;
        let di = c % 9;
        if n & 1 == 1 {
            self.cell_mates(c, mode, f);
            for &q in &PEERS[cell] {
                let q = q as usize;
                if self.cands[q] >> di & 1 == 1 {
                    f((q * 9 + di) * 2);
                }
            }
        } else {
            self.bivalue_mate(c, mode, f);
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
    pub(super) stamp: Vec<u32>,
    pub(super) gen: u32,
    pub(super) dist: Vec<u16>,
    pub(super) parent: Vec<u16>,
    pub(super) queue: Vec<u16>,
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

pub(super) fn chain_text(path: &[usize]) -> String {
    path.iter()
        .map(|&n| node_name(n))
        .collect::<Vec<_>>()
        .join(" -> ")
}

pub(super) fn describe_forcing(t: Technique, path: &[usize]) -> String {
    let target = *path.last().unwrap();
    format!(
        "{}: {} (assuming {} leads to its opposite), so {}",
        t.name(),
        chain_text(path),
        node_name(path[0]),
        verdict(target)
    )
}

/// What node `n` concludes, in words: its candidate placed ("r1c2 is 5")
/// or eliminated ("5 leaves r1c2").
pub(crate) fn verdict(n: usize) -> String {
    let c = n >> 1;
    if n & 1 == 1 {
        format!(
            "{} is {}",
            cell_name(cand_cell(c)),
            digit_name(cand_digit(c))
        )
    } else {
        format!(
            "{} leaves {}",
            digit_name(cand_digit(c)),
            cell_name(cand_cell(c))
        )
    }
}

/// A set of candidates.
pub(crate) type Set = [u64; 12];

#[inline]
pub(crate) fn set_has(s: &Set, c: usize) -> bool {
    s[c >> 6] >> (c & 63) & 1 == 1
}
#[inline]
pub(super) fn set_add(s: &mut Set, c: usize) {
    s[c >> 6] |= 1 << (c & 63);
}
#[inline]
pub(super) fn set_empty(s: &Set) -> bool {
    s.iter().all(|&w| w == 0)
}
/// The links of a mode as candidate sets, for breadth-first searches that
/// advance many starts together, one layer at a time.
pub(crate) struct Layers {
    /// For each candidate, the candidates its being on turns off.
    pub(super) weak: Vec<Set>,
    /// For each candidate, the candidates its being off turns on
    /// ([`NONE`]-padded).
    pub(super) strong: Vec<[u16; 4]>,
}

impl Layers {
    pub(crate) fn new(net: &Net, mode: Mode) -> Self {
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
    pub(super) fn strong_of(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        self.strong[c]
            .iter()
            .take_while(|&&o| o != NONE)
            .map(|&o| o as usize)
    }
}

/// The network and layers of the last board seen, per thread: the chain
/// searches of one step share them.
pub(super) struct Cache {
    pub(super) cands: [Digits; 81],
    pub(super) net: Rc<Net>,
    pub(super) layers: [Option<Rc<Layers>>; 3],
}

thread_local! {
    static CACHE: RefCell<Option<Cache>> = const { RefCell::new(None) };
}

pub(super) fn cached<R>(b: &MarkedGrid, f: impl FnOnce(&mut Cache) -> R) -> R {
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
pub(crate) fn net_of(b: &MarkedGrid) -> Rc<Net> {
    cached(b, |c| c.net.clone())
}

pub(super) fn layers_of(b: &MarkedGrid, mode: Mode) -> (Rc<Net>, Rc<Layers>) {
    cached(b, |c| {
        let i = mode as usize;
        if c.layers[i].is_none() {
            c.layers[i] = Some(Rc::new(Layers::new(&c.net, mode)));
        }
        (c.net.clone(), c.layers[i].clone().unwrap())
    })
}

/// One search of a lockstep breadth-first walk.
pub(crate) struct Walker {
    /// The starting node.
    pub(super) start: usize,
    /// Is the frontier made of "on" nodes?
    pub(crate) on: bool,
    pub(crate) frontier: Set,
    pub(super) seen_on: Set,
    pub(super) seen_off: Set,
    pub(super) alive: bool,
}

impl Walker {
    pub(crate) fn new(start: usize, blocked: Option<usize>) -> Self {
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

    /// Ends the walk.
    pub(super) fn stop(&mut self) {
        self.alive = false;
        self.frontier = [0; 12];
    }

    /// Advances one layer; false when nothing new was reached.
    pub(crate) fn step(&mut self, layers: &Layers) -> bool {
        let mut new = [0u64; 12];
        let mut any = 0u64;
        if self.on {
            for (wi, &word) in self.frontier.iter().enumerate() {
                let mut w = word;
                while w != 0 {
                    let s = &layers.weak[wi * 64 + w.trailing_zeros() as usize];
                    w &= w - 1;
                    for i in 0..12 {
                        new[i] |= s[i];
                    }
                }
            }
            for i in 0..12 {
                new[i] &= !self.seen_off[i];
                self.seen_off[i] |= new[i];
                any |= new[i];
            }
        } else {
            for (wi, &word) in self.frontier.iter().enumerate() {
                let mut w = word;
                while w != 0 {
                    let st = &layers.strong[wi * 64 + w.trailing_zeros() as usize];
                    w &= w - 1;
                    for &o in st {
                        if o == NONE {
                            break;
                        }
                        new[o as usize >> 6] |= 1 << (o & 63);
                    }
                }
            }
            for i in 0..12 {
                new[i] &= !self.seen_on[i];
                self.seen_on[i] |= new[i];
                any |= new[i];
            }
        }
        self.frontier = new;
        self.on = !self.on;
        self.alive = any != 0;
        self.alive
    }
}

/// The largest number of nodes for a chain of base `base` rated below `limit`.
pub(super) fn node_cap(base: f64, limit: f64) -> Option<usize> {
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
pub(crate) fn forcing_chain(b: &MarkedGrid, mode: Mode, t: Technique, limit: f64) -> Option<Step> {
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
