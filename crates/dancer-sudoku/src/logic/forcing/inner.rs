//! The inner rules of Sudoku Explainer's nested forcing chains, as pure
//! functions of an assumed grid (a branch's grid once its propagation is
//! stuck): every hint of SE's static chain producers in that grid.
//!
//! * [`chain_hints`] (level 2): forcing X-chains and forcing chains of both
//!   kinds of links, from every candidate of a cell with two candidates or
//!   more, on (reaching itself off: it goes) and off (reaching itself on: the
//!   cell's other candidates go); each the shortest, found breadth first as
//!   SE grows them (links in [`se_next`]'s order, each node by its first
//!   parent), once the walk on digit planes (`reach.rs`) has found that it
//!   gets there. Cycles are not searched: the candidates a cycle removes are
//!   removed by a forcing chain too (a longer one).
//! * [`multiple_hints`] (level 3): static cell forcing chains (cells with
//!   three candidates or more) and region forcing chains (a digit's places
//!   in a unit, from the unit's first place when that cell has three
//!   candidates or more), as SE's static multiple chains: no contradiction
//!   or double forcing forms.
//!
//! An [`InnerHint`] keeps what its caller needs: the candidates it removes,
//! the places whose strong links it uses (a cell left with two candidates, a
//! unit left with two places of a digit), from which the caller takes the
//! candidates gone in the branch that made the hint possible (SE's rule
//! parents), a key naming the chain and its complexity (its nodes, summed
//! over the branches of a cell or region forcing). Hints come in SE's order:
//! difficulty, complexity, form, then the order found; the first hint that
//! removes a candidate is the one that counts for it.
//!
//! Both searches are pure functions of the grid, and the nested searches
//! meet the same assumed grids again and again, so their answers are kept
//! per thread (emptied at [`MEMO_LIMIT`] grids).

use super::super::board::*;
use super::super::chains::{cand, node, se_difficulty, se_next, Mode, Net, NCAND, NNODE, NONE};
use super::closure::Closure;
use super::propagate::{Branch, Kind, Propagator};
use super::reach::Planes;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// A place whose strong link a hint rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Place {
    /// A cell with two candidates.
    Cell(u8),
    /// A unit and a digit index with two places there (or the digit's
    /// places of a region forcing chain).
    Unit(u8, u8),
}

/// One hint of an inner rule.
pub(super) struct InnerHint {
    /// Candidates it removes.
    pub elims: Vec<u16>,
    /// Places whose strong links (or whose assumptions) it uses.
    pub places: Vec<Place>,
    /// Names the chain (never 0).
    pub key: u64,
    /// Its own complexity.
    pub complexity: u32,
}

/// A hint with SE's sort key.
struct Ranked {
    difficulty: f64,
    complexity: usize,
    form: u8,
    hint: InnerHint,
}

/// The most grids each memo keeps per thread.
const MEMO_LIMIT: usize = 4_000;

type Memo = HashMap<[Digits; 81], Rc<Vec<InnerHint>>>;

thread_local! {
    static CHAINS: RefCell<Memo> = RefCell::new(HashMap::new());
    static MULTIPLE: RefCell<Memo> = RefCell::new(HashMap::new());
}

fn memo(
    table: &'static std::thread::LocalKey<RefCell<Memo>>,
    cands: &[Digits; 81],
    f: impl FnOnce() -> Vec<InnerHint>,
) -> Rc<Vec<InnerHint>> {
    // the multiple rule follows the player's order (see `search_multiple`):
    // results found under another transform back are not this board's
    thread_local! {
        static NAMES_SEEN: std::cell::Cell<Option<Option<crate::canon::GridTransform>>> =
            const { std::cell::Cell::new(None) };
    }
    let now = names();
    if NAMES_SEEN.with(|n| n.get()) != Some(now) {
        NAMES_SEEN.with(|n| n.set(Some(now)));
        CHAINS.with(|m| m.borrow_mut().clear());
        MULTIPLE.with(|m| m.borrow_mut().clear());
    }
    if let Some(hit) = table.with(|m| m.borrow().get(cands).cloned()) {
        return hit;
    }
    let v = Rc::new(f());
    table.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= MEMO_LIMIT {
            m.clear();
        }
        m.insert(*cands, v.clone());
    });
    v
}

/// Level 2's inner rule: the static forcing chains of the grid.
pub(super) fn chain_hints(cands: &[Digits; 81]) -> Rc<Vec<InnerHint>> {
    memo(&CHAINS, cands, || search_chains(cands))
}

/// Level 3's inner rule: the static cell and region forcing chains.
pub(super) fn multiple_hints(cands: &[Digits; 81]) -> Rc<Vec<InnerHint>> {
    memo(&MULTIPLE, cands, || search_multiple(cands))
}

fn key_of(parts: impl Hash) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    parts.hash(&mut h);
    h.finish() | 1
}

/// SE's order, then the hints alone.
fn in_order(mut v: Vec<Ranked>) -> Vec<InnerHint> {
    v.sort_by(|a, b| {
        a.difficulty
            .total_cmp(&b.difficulty)
            .then(a.complexity.cmp(&b.complexity))
            .then(a.form.cmp(&b.form))
    });
    v.into_iter().map(|r| r.hint).collect()
}

/// The cell's candidates but `c`.
fn others(cands: &[Digits; 81], c: usize) -> Vec<u16> {
    let cell = c / 9;
    digits_of(cands[cell] & !(1 << (c % 9)))
        .map(|d| cand(cell, d) as u16)
        .collect()
}

/// A grid's net and the closure of its static links.
type Shared = Rc<(Net, Closure)>;

/// The net of a grid and its closure, shared by the two inner rules
/// (level 3 asks both of the same grid): those of the last grid, per
/// thread.
fn net_of(cands: &[Digits; 81]) -> Shared {
    thread_local! {
        static LAST: RefCell<Option<([Digits; 81], Shared)>> = const { RefCell::new(None) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        match last.as_ref() {
            Some((k, v)) if k == cands => v.clone(),
            _ => {
                let net = Net::from_cands(cands);
                let closure = Closure::new(&net);
                let v = Rc::new((net, closure));
                *last = Some((*cands, v.clone()));
                v
            }
        }
    })
}

fn search_chains(cands: &[Digits; 81]) -> Vec<InnerHint> {
    let shared = net_of(cands);
    let (net, closure) = (&shared.0, &shared.1);
    let planes = Planes::new(cands);
    let mut found = Vec::new();
    for (mode, base, form) in [(Mode::X, 6.6, 2u8), (Mode::XY, 7.0, 4)] {
        for c in 0..NCAND {
            if !net.has(c) || cands[c / 9].count_ones() < 2 {
                continue;
            }
            for on in [true, false] {
                let start = node(c, on);
                // mode X's links are some of the static net's
                if !closure.reaches(start, start ^ 1) {
                    continue;
                }
                let depth = match mode {
                    Mode::X => planes.reach_x(c / 9, c % 9, on),
                    _ => planes.reach_xy(c / 9, c % 9, on),
                };
                let Some(depth) = depth else {
                    continue;
                };
                let path = path_to(net, mode, start, depth);
                let elims = if on { vec![c as u16] } else { others(cands, c) };
                if elims.is_empty() {
                    continue;
                }
                let places = path_places(net, &path);
                let cx = path.len();
                found.push(Ranked {
                    difficulty: se_difficulty(base, cx),
                    complexity: cx,
                    form,
                    hint: InnerHint {
                        elims,
                        places,
                        key: key_of((form, &path)),
                        complexity: cx as u32,
                    },
                });
            }
        }
    }
    in_order(found)
}

/// SE's chain from `start` to its other value, `depth` links long: breadth
/// first, each node by its first parent.
fn path_to(net: &Net, mode: Mode, start: usize, depth: usize) -> Vec<usize> {
    let target = start ^ 1;
    let mut parent = vec![NONE; NNODE];
    parent[start] = start as u16;
    let mut layer = vec![start];
    for _ in 0..depth {
        let mut next = Vec::new();
        for &n in &layer {
            se_next(net, n, mode, &mut |m| {
                if parent[m] == NONE {
                    parent[m] = n as u16;
                    next.push(m);
                }
            });
        }
        if parent[target] != NONE {
            break;
        }
        layer = next;
    }
    let mut path = vec![target];
    let mut x = target;
    while x != start && parent[x] != NONE {
        x = parent[x] as usize;
        path.push(x);
    }
    path.reverse();
    path
}

/// The place of the strong link by which the off node `p` turns the on
/// node `n` on: the cell when they share it, else the first unit (box, row,
/// column) where the digit has just their two places.
fn link_place(net: &Net, p: usize, n: usize) -> Option<Place> {
    let (pc, nc) = ((p >> 1) / 9, (n >> 1) / 9);
    if pc == nc {
        return Some(Place::Cell(pc as u8));
    }
    let di = (n >> 1) % 9;
    let [row, col, bx] = CELL_UNITS[nc];
    [bx, row, col]
        .into_iter()
        .find(|&u| CELL_UNITS[pc].contains(&u) && net.unit_pos[u as usize][di].count_ones() == 2)
        .map(|u| Place::Unit(u, di as u8))
}

/// The places of the strong links of a chain.
fn path_places(net: &Net, path: &[usize]) -> Vec<Place> {
    path.windows(2)
        .filter(|w| w[1] & 1 == 1)
        .filter_map(|w| link_place(net, w[0], w[1]))
        .collect()
}

fn search_multiple(cands: &[Digits; 81]) -> Vec<InnerHint> {
    let shared = net_of(cands);
    let (net, closure) = (&shared.0, &shared.1);
    let mut prop = Propagator::new(net, Kind::Static);
    prop.se_order = true;
    let mut s = Multiple {
        cands,
        net,
        prop,
        branches: (0..NCAND).map(|_| None).collect(),
        stamp: Vec::new(),
        gen: 0,
        found: Vec::new(),
    };
    // SE's order is the player's: cells row by row, digits 1 to 9, a
    // cell's regions block, row, column, a region's places in cell order;
    // a region is met from its first place only (when that cell has 3 or
    // more candidates), so the order decides which regions are tried
    let names = names();
    let player_cell = |c: usize| names.map_or(c, |t| t.cell(c));
    let player_digit = |d: u8| names.map_or(d, |t| t.digit(d));
    let mut cells = [0usize; 81];
    for c in 0..81 {
        cells[player_cell(c)] = c;
    }
    let transposed = names.is_some_and(|t| t.is_transposed());
    for cell in cells {
        let m = cands[cell];
        if m.count_ones() < 3 {
            continue;
        }
        let mut ds: Vec<u8> = digits_of(m).collect();
        ds.sort_by_key(|&d| player_digit(d));
        for &d in &ds {
            let di = d as usize - 1;
            let [row, col, bx] = CELL_UNITS[cell];
            let kinds = if transposed {
                [bx, col, row]
            } else {
                [bx, row, col]
            };
            for u in kinds {
                let u = u as usize;
                let p = net.unit_pos[u][di];
                if p.count_ones() < 2 {
                    continue;
                }
                let mut xs: Vec<usize> = (0..9)
                    .filter(|&i| p >> i & 1 == 1)
                    .map(|i| UNITS[u][i] as usize)
                    .collect();
                xs.sort_by_key(|&c| player_cell(c));
                if xs[0] != cell {
                    continue;
                }
                for x in xs.iter_mut() {
                    *x = *x * 9 + di;
                }
                if closure.may_meet(&xs) {
                    s.common(&xs, Place::Unit(u as u8, di as u8), 6);
                }
            }
        }
        let xs: Vec<usize> = ds.iter().map(|&d| cand(cell, d)).collect();
        if closure.may_meet(&xs) {
            s.common(&xs, Place::Cell(cell as u8), 5);
        }
    }
    in_order(s.found)
}

/// The state of a static multiple chains search.
struct Multiple<'a> {
    cands: &'a [Digits; 81],
    net: &'a Net,
    prop: Propagator<'a>,
    /// The static propagation from each candidate on, once run.
    branches: Vec<Option<Branch>>,
    stamp: Vec<u32>,
    gen: u32,
    found: Vec<Ranked>,
}

impl Multiple<'_> {
    fn branch(&mut self, x: usize) {
        if self.branches[x].is_none() {
            let mut br = Branch::new();
            self.prop.run(node(x, true), &mut br);
            self.branches[x] = Some(br);
        }
    }

    /// The hints common to the propagations from `xs` on (the candidates of
    /// a cell, or a digit's places in a unit: `source`), of form `form`.
    fn common(&mut self, xs: &[usize], source: Place, form: u8) {
        for &x in xs {
            self.branch(x);
        }
        let first = self.branches[xs[0]].as_ref().unwrap();
        let mut idx = Vec::with_capacity(xs.len());
        for (i0, &n) in first.nodes.iter().enumerate().skip(1) {
            let n = n as usize;
            if xs.contains(&(n >> 1)) {
                continue;
            }
            idx.clear();
            idx.push(i0);
            for &x in &xs[1..] {
                let j = self.branches[x].as_ref().unwrap().index[n];
                if j == NONE {
                    break;
                }
                idx.push(j as usize);
            }
            if idx.len() < xs.len() {
                continue;
            }
            let elims = if n & 1 == 1 {
                others(self.cands, n >> 1)
            } else {
                vec![(n >> 1) as u16]
            };
            if elims.is_empty() {
                continue;
            }
            let mut cx = 0;
            let mut places = vec![source];
            for (k, &x) in xs.iter().enumerate() {
                let br = self.branches[x].as_ref().unwrap();
                cx += br.ancestors(idx[k], &mut self.stamp, &mut self.gen);
                for i in br.chain_indices(idx[k]) {
                    let m = br.nodes[i] as usize;
                    if m & 1 == 1 {
                        if let Some(&p) = br.parents_of(i).first() {
                            let pn = br.nodes[p as usize] as usize;
                            places.extend(link_place(self.net, pn, m));
                        }
                    }
                }
            }
            places.sort_unstable_by_key(|p| match *p {
                Place::Cell(c) => (0, c, 0),
                Place::Unit(u, d) => (1, u, d),
            });
            places.dedup();
            self.found.push(Ranked {
                difficulty: se_difficulty(8.0, cx),
                complexity: cx,
                form,
                hint: InnerHint {
                    elims,
                    places,
                    key: key_of((form, n, xs)),
                    complexity: cx as u32,
                },
            });
        }
    }
}
