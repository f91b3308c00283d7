//! The inner rules of the nested kinds, which a branch's propagation tries
//! once the implications and the basic rules are exhausted, and the nested
//! part of a conclusion's complexity.
//!
//! * Levels 2 and 3 (SE's "Dynamic Forcing Chains (+ Forcing Chains)" and
//!   "(+ Multiple Forcing Chains)"): the first inner rule with a usable hint
//!   (static forcing chains, then, at level 3, static cell and region
//!   forcing chains; see `inner.rs`) gives all its hints at once: every
//!   candidate they remove becomes an off node. Its parents are the rule
//!   parents: the candidates gone in the branch at the places whose strong
//!   links the hint uses (a hint using none would hold in the unassumed
//!   grid, and is not used). The node is tagged with the hint's key and
//!   complexity ([`Branch::nest`]).
//! * [`Kind::Nested`], tried after level 3: the first candidate whose
//!   placement leads a dynamic-plus chain to a contradiction in the assumed
//!   grid, justified by the whole branch, its complexity added to the
//!   branch ([`Branch::nested_extra`]).
//!
//! A conclusion's complexity is its flat part (the nodes behind it in each
//! branch) plus, for levels 2 and 3, the complexities of the distinct inner
//! chains among those nodes, each counted once over all the branches
//! ([`inner_complexity`]).

use super::super::board::*;
use super::super::chains::{cand_cell, cand_digit, node, Net, NCAND};
use super::inner::{chain_hints, multiple_hints, Place};
use super::propagate::{Branch, Dirty, Found, Kind, Propagator};

impl Branch {
    /// The indices of the nodes behind node index `i` (itself included).
    pub(super) fn chain_indices(&self, i: usize) -> Vec<usize> {
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
        (0..self.nodes.len()).filter(|&k| mark[k]).collect()
    }

    /// The nodes behind node index `i`, in the order they were found.
    pub fn chain(&self, i: usize) -> Vec<usize> {
        self.chain_indices(i)
            .into_iter()
            .map(|k| self.nodes[k] as usize)
            .collect()
    }

    /// Adds to `out` the inner chains (key, complexity) behind node index
    /// `i`.
    fn nested_keys(&self, i: usize, out: &mut Vec<(u64, u32)>) {
        if !self.tagged {
            return;
        }
        out.extend(
            self.chain_indices(i)
                .into_iter()
                .map(|k| self.nest[k])
                .filter(|t| t.0 != 0),
        );
    }
}

/// The complexity of the distinct inner chains behind the nodes `parts`
/// (branch, node index), each counted once.
pub(super) fn inner_complexity(parts: &[(&Branch, usize)]) -> usize {
    if parts.iter().all(|(b, _)| !b.tagged) {
        return 0;
    }
    let mut keys = Vec::new();
    for &(b, i) in parts {
        b.nested_keys(i, &mut keys);
    }
    keys.sort_unstable();
    keys.dedup_by_key(|k| k.0);
    keys.iter().map(|k| k.1 as usize).sum()
}

impl Propagator<'_> {
    /// The nested kinds' inner rule; true if something new was derived.
    pub(super) fn inner_rule(&mut self, br: &mut Branch) -> bool {
        match self.kind {
            Kind::Level2 => self.apply_inner(br, false),
            Kind::Level3 => self.apply_inner(br, false) || self.apply_inner(br, true),
            Kind::Nested => self.nested_rule(br),
            _ => false,
        }
    }

    /// Locked candidates in SE's scan order (the nested levels): the pairs
    /// of unit kinds box-column, box-row, column-box, row-box, each digit
    /// by digit and unit by unit, so that a candidate two hints remove
    /// keeps the first one's parents, as in SE. The places tried and the
    /// conclusions are those of [`Propagator::collect_locked`].
    pub(super) fn collect_locked_se(&self, br: &Branch, dirty: &mut Dirty, found: &mut Found) {
        let dm = self.sc.digit_cells;
        let mut fired = [0u16; 27];
        // unit kinds as the first unit of each: rows 0, columns 9, boxes 18
        for (k1, k2) in [(18, 9), (18, 0), (9, 18), (0, 18)] {
            for di in 0..9 {
                for u in k1..k1 + 9 {
                    if dirty.locked[u] >> di & 1 == 0 {
                        continue;
                    }
                    let p = dm[di] & UNIT_MASK[u];
                    // a box needs a place and no placement of the digit; a
                    // line, two places or more
                    let usable = if k1 == 18 {
                        p != 0 && self.sc.placed_cells[di] & UNIT_MASK[u] == 0
                    } else {
                        p.count_ones() >= 2
                    };
                    if !usable {
                        continue;
                    }
                    let c0 = p.trailing_zeros() as usize;
                    let cover = match k2 {
                        0 => row_of(c0),
                        9 => 9 + col_of(c0),
                        _ => 18 + box_of(c0),
                    };
                    let targets = UNIT_MASK[cover] & !UNIT_MASK[u] & dm[di];
                    if p & !UNIT_MASK[cover] != 0 || targets == 0 {
                        continue;
                    }
                    fired[u] |= 1 << di;
                    self.push_locked(br, u, cover, di, targets, found);
                }
            }
        }
        for (d, f) in dirty.locked.iter_mut().zip(fired) {
            *d &= f;
        }
    }

    /// The candidates gone in the branch at `place` (as node indices).
    fn gone_at(&self, br: &Branch, now: &[Digits; 81], place: Place, out: &mut Vec<u16>) {
        let mut push = |cell: usize, di: usize| {
            let i = br.index[(cell * 9 + di) * 2];
            if i != super::super::chains::NONE {
                out.push(i);
            }
        };
        match place {
            Place::Cell(c) => {
                let c = c as usize;
                if self.sc.placed[c] == 0 {
                    let mut m = self.net.cands[c] & !now[c];
                    while m != 0 {
                        push(c, m.trailing_zeros() as usize);
                        m &= m - 1;
                    }
                }
            }
            Place::Unit(u, di) => {
                let (u, di) = (u as usize, di as usize);
                for (k, &c) in UNITS[u].iter().enumerate() {
                    let c = c as usize;
                    if self.net.unit_pos[u][di] >> k & 1 == 1 && now[c] >> di & 1 == 0 {
                        push(c, di);
                    }
                }
            }
        }
    }

    /// Applies every hint of one inner rule (static chains, or with
    /// `multiple` static cell and region forcing chains) that rests on the
    /// branch; true if one does.
    fn apply_inner(&mut self, br: &mut Branch, multiple: bool) -> bool {
        let now = self.cands_now();
        let hints = if multiple {
            multiple_hints(&now)
        } else {
            chain_hints(&now)
        };
        let mut any = false;
        let mut ps = Vec::new();
        for h in hints.iter() {
            ps.clear();
            for &p in &h.places {
                self.gone_at(br, &now, p, &mut ps);
            }
            if ps.is_empty() {
                continue;
            }
            ps.sort_unstable();
            ps.dedup();
            any = true;
            for &e in &h.elims {
                let n = e as usize * 2;
                if br.has(n) {
                    continue;
                }
                let ok = self.derive(br, n, &ps);
                let i = br.index[n] as usize;
                br.nest[i] = (h.key, h.complexity);
                br.tagged = true;
                if !ok {
                    return true;
                }
            }
        }
        any
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
