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
//! * **Nested, level 2** (SE's "+ Forcing Chains"): also every elimination
//!   of the static forcing chains of the assumed grid; **level 3** ("+
//!   Multiple Forcing Chains"): then also those of its static cell and
//!   region forcing chains; each level is tried only when the ones before
//!   have no step at all (`levels.rs`, `inner.rs`).
//! * **Nested, dynamic** (after level 3, where SE has its level 4): also
//!   contradictions found by dynamic chains inside the assumed grid.
//!
//! The complexity of a step is the number of nodes behind its conclusion in
//! every branch, summed over the branches, as in SE, plus the complexity of
//! the distinct inner chains among them (levels 2 and 3).
//!
//! ## Cost
//!
//! The hardest puzzles (SE 10 and above) need nested chains at many steps,
//! and a nested search runs the inner rule (every static chain, or every
//! static cell and region forcing chain, or a dynamic-plus chain from every
//! candidate) on every assumed grid of every branch: tens of thousands of
//! short searches per step. What keeps that well under a second a puzzle
//! (0.7 s median on the extreme calibration set), without changing a
//! single step found:
//!
//! * the scratch state keeps, as the propagation goes, each digit's cells
//!   and each unit's places, so the basic rules of the plus kinds work on
//!   bitboards, and it keeps [`Dirty`] places: a rule that concluded
//!   nothing somewhere is not tried there again until a candidate there
//!   goes (the unassumed grid's clean places are found once per net);
//! * the inner rules' answers are pure functions of the assumed grid, kept
//!   in tables per thread (`inner.rs`; `first_contradiction` in
//!   `levels.rs`);
//! * the inner rules first ask the closure of the assumed grid's static
//!   net (`closure.rs`: what every node reaches, from its strongly
//!   connected components) whether a start can reach its opposite, or a
//!   cell's or region's propagations can meet; nearly always they cannot,
//!   and no walk or propagation is run (this halved the time of the
//!   hardest puzzles); the walks that are left run on digit planes
//!   (`reach.rs`);
//! * a branch whose nested complexity alone reaches the best conclusion
//!   found so far is abandoned: nothing it could conclude would be chosen
//!   ([`Propagator::give_up`]).
//!
//! The searches check their [`Budget`] before each assumption.

mod closure;
mod inner;
mod levels;
mod propagate;
mod reach;

use levels::inner_complexity;
pub(crate) use propagate::Kind;
use propagate::{Branch, Propagator};

use super::board::*;
use super::chains::{cand, cand_cell, cand_digit, node, node_name, verdict, Net, NCAND, NONE};
use super::step::{Step, Technique};
use super::Budget;

/// A solution of the board's digits that its candidates allow, if it has
/// one (any one, when it has several).
fn any_solution(b: &MarkedGrid) -> Option<[u8; 81]> {
    let mut out = [[0u8; 81]; 1];
    let mut stats = crate::fast9::Fast9Stats::default();
    if crate::fast9::solve(b.values(), 1, &mut out, &mut stats) == 0 {
        return None;
    }
    let sol = out[0];
    (0..81)
        .all(|c| b.value(c) == sol[c] || b.has(c, sol[c]))
        .then_some(sol)
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
        (Kind::Level2, _) => NestedForcingChain,
        (Kind::Level3, _) => NestedMultipleForcingChain,
        (Kind::Nested, _) => NestedDynamicForcingChain,
    }
}

/// Finds the easiest forcing-chain step of `kind` rated below `limit`;
/// `None` also when the budget runs out (the caller checks it).
pub(crate) fn forcing(b: &MarkedGrid, kind: Kind, limit: f64, budget: &Budget) -> Option<Step> {
    forcing_filtered(b, kind, limit, None, budget)
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
    b: &MarkedGrid,
    kind: Kind,
    limit: f64,
    only: Option<Technique>,
    budget: &Budget,
) -> Option<Step> {
    let cap = complexity_cap(technique_for(kind, 0).se_rating(), limit)?;
    let net = super::chains::net_of(b);
    let net: &Net = &net;
    let mut s = Search::new(net, kind, cap, only);

    // A solution of the board: a branch that agrees with it cannot reach a
    // contradiction (every node a sound chain derives holds in it), so such
    // a branch is run only where its nodes are needed: the on-branch of a
    // solution candidate for a double forcing or a cell or digit forcing
    // (deferred until then), the off-branch of another candidate for a
    // double forcing only. The steps found are the same as with every
    // branch run in order; only the work differs.
    let solution = any_solution(b);
    if kind == Kind::Nested {
        s.prop.solution = solution;
    }
    let in_solution = |x: usize| solution.is_some_and(|s| s[cand_cell(x)] == cand_digit(x));
    let double_wanted = only.is_none_or(|o| o == technique_for(kind, 1));

    for x in 0..NCAND {
        if !net.has(x) {
            continue;
        }
        let cell = cand_cell(x);
        if net.cands[cell].count_ones() < 2 {
            continue;
        }
        if budget.check().is_some() {
            return None;
        }
        let true_x = in_solution(x);
        let false_x = solution.is_some() && !true_x;
        s.candidate(x, true_x, false_x, double_wanted);
    }
    if kind != Kind::Nishio {
        if only.is_none_or(|o| o == technique_for(kind, 2)) {
            s.cell_forcing();
        }
        if only.is_none_or(|o| o == technique_for(kind, 3)) {
            s.digit_forcing();
        }
    }
    let c = s.best.found?;
    Some(build_step(b, net, kind, c))
}

/// The state a forcing search shares from candidate to candidate: the
/// propagator, the branches kept, the scratch of the complexity counts
/// and the best conclusion so far.
struct Search<'a> {
    kind: Kind,
    net: &'a Net,
    prop: Propagator<'a>,
    stamp: Vec<u32>,
    gen: u32,
    best: Best,
    /// On branches of every candidate, kept for cell and digit forcing.
    on_branches: Vec<Option<Branch>>,
    /// The candidates whose on-branch is not run yet (solution
    /// candidates).
    deferred: Vec<bool>,
    off_branch: Branch,
    /// A branch not kept, for the next on-branch (its index table is
    /// large).
    spare: Option<Branch>,
}

impl<'a> Search<'a> {
    fn new(net: &'a Net, kind: Kind, cap: usize, only: Option<Technique>) -> Search<'a> {
        let prop = Propagator::new(net, kind);
        Search {
            kind,
            net,
            prop,
            stamp: Vec::new(),
            gen: 0,
            best: Best {
                found: None,
                bound: cap + 1,
                only,
            },
            on_branches: (0..NCAND).map(|_| None).collect(),
            deferred: vec![false; NCAND],
            off_branch: Branch::new(),
            spare: None,
        }
    }

    /// The on-branch of `x`, run on the spare branch when there is one.
    #[inline]
    fn run_on(&mut self, x: usize) -> Branch {
        let mut br = self.spare.take().unwrap_or_else(Branch::new);
        self.prop.give_up = self.best.bound;
        self.prop.run(node(x, true), &mut br);
        br
    }

    /// The branches of candidate `x` (`true_x`, `false_x`: whether it is
    /// in the solution, when there is one): contradictions and double
    /// forcing; its on-branch is kept for cell and digit forcing.
    fn candidate(&mut self, x: usize, true_x: bool, false_x: bool, double_wanted: bool) {
        let kind = self.kind;
        // An abandoned branch takes part in no conclusion (each would be
        // rated at or above the bound), as it would not after a full run.
        let mut on = None;
        if !true_x {
            let br = self.run_on(x);
            if !br.abandoned {
                consider_contradiction(
                    &br,
                    kind,
                    x,
                    true,
                    &mut self.stamp,
                    &mut self.gen,
                    &mut self.best,
                );
            }
            on = Some(br);
        }
        if kind == Kind::Nishio {
            return;
        }
        // the on-branch can still take part in a conclusion
        let on_open = |on: &Option<Branch>| {
            on.as_ref()
                .is_none_or(|br| !br.abandoned && br.conflict.is_none())
        };
        if false_x && !(on_open(&on) && double_wanted) {
            // the off-branch agrees with the solution: no contradiction,
            // and no double forcing without the on-branch
        } else {
            self.prop.give_up = self.best.bound;
            self.prop.run(node(x, false), &mut self.off_branch);
            if self.off_branch.abandoned {
                // nothing: see above
            } else if self.off_branch.conflict.is_some() {
                consider_contradiction(
                    &self.off_branch,
                    kind,
                    x,
                    false,
                    &mut self.stamp,
                    &mut self.gen,
                    &mut self.best,
                );
            } else if on_open(&on) && double_wanted {
                // a solution candidate: its on-branch runs now, with the
                // bound it had before the off-branch ran
                let on_br = match on.take() {
                    Some(br) => br,
                    None => self.run_on(x),
                };
                if !on_br.abandoned {
                    double_forcing(
                        &on_br,
                        &self.off_branch,
                        kind,
                        x,
                        &mut self.stamp,
                        &mut self.gen,
                        &mut self.best,
                    );
                }
                on = Some(on_br);
            }
        }
        match on {
            Some(br) if !br.abandoned && br.conflict.is_none() => self.on_branches[x] = Some(br),
            // SE's nested levels also take conclusions common to a branch
            // cut at its contradiction and the others
            Some(mut br) if !br.abandoned && matches!(kind, Kind::Level2 | Kind::Level3) => {
                br.cut_at_conflict();
                self.on_branches[x] = Some(br);
            }
            Some(br) => self.spare = Some(br),
            None => self.deferred[x] = true,
        }
    }

    /// Cell forcing: conclusions common to every candidate of a cell.
    fn cell_forcing(&mut self) {
        for cell in 0..81 {
            let m = self.net.cands[cell];
            if m.count_ones() < 2 {
                continue;
            }
            let xs: Vec<usize> = digits_of(m).map(|d| cand(cell, d)).collect();
            self.common(&xs, 2, None);
        }
    }

    /// Digit forcing: conclusions common to every place of a digit in a
    /// unit.
    fn digit_forcing(&mut self) {
        for u in 0..27 {
            for di in 0..9usize {
                let p = self.net.unit_pos[u][di];
                if p.count_ones() < 2 {
                    continue;
                }
                let xs: Vec<usize> = (0..9)
                    .filter(|&i| p >> i & 1 == 1)
                    .map(|i| UNITS[u][i] as usize * 9 + di)
                    .collect();
                self.common(&xs, 3, Some(u));
            }
        }
    }

    /// Conclusions common to the on-branches of `xs`, for the technique
    /// `which` of [`technique_for`], once every one of them is there.
    fn common(&mut self, xs: &[usize], which: u8, unit: Option<usize>) {
        if !ready(
            xs,
            &mut self.on_branches,
            &mut self.deferred,
            &mut self.prop,
            self.best.bound,
        ) {
            return;
        }
        common_conclusions(
            xs,
            &self.on_branches,
            technique_for(self.kind, which),
            unit,
            &mut self.stamp,
            &mut self.gen,
            &mut self.best,
        );
    }
}

/// Whether every candidate of `xs` has a usable on-branch, running the
/// deferred ones first (only when all the others are there: a group with a
/// missing branch concludes nothing).
fn ready(
    xs: &[usize],
    on_branches: &mut [Option<Branch>],
    deferred: &mut [bool],
    prop: &mut Propagator,
    bound: usize,
) -> bool {
    if xs.iter().any(|&x| on_branches[x].is_none() && !deferred[x]) {
        return false;
    }
    for &x in xs {
        if deferred[x] {
            deferred[x] = false;
            let mut br = Branch::new();
            prop.give_up = bound;
            prop.run(node(x, true), &mut br);
            if !br.abandoned && br.conflict.is_none() {
                on_branches[x] = Some(br);
            }
        }
    }
    xs.iter().all(|&x| on_branches[x].is_some())
}

/// A contradiction reached by the branch of `x` (on or off): the other
/// value of `x` is the conclusion.
fn consider_contradiction(
    br: &Branch,
    kind: Kind,
    x: usize,
    on: bool,
    stamp: &mut Vec<u32>,
    gen: &mut u32,
    best: &mut Best,
) {
    let Some((a, o)) = br.conflict else {
        return;
    };
    if br.min_ancestors(a as usize) + br.min_ancestors(o as usize) >= best.bound {
        return;
    }
    let cx = br.ancestors(a as usize, stamp, gen)
        + br.ancestors(o as usize, stamp, gen)
        + br.nested_extra
        + inner_complexity(&[(br, a as usize), (br, o as usize)]);
    best.consider(Conclusion {
        technique: technique_for(kind, 0),
        complexity: cx,
        target: node(x, !on),
        sources: vec![node(x, on)],
        contradiction: Some(br.nodes[a as usize] as usize >> 1),
        unit: None,
    });
}

/// Double forcing: nodes both branches of `x` imply.
fn double_forcing(
    on: &Branch,
    off: &Branch,
    kind: Kind,
    x: usize,
    stamp: &mut Vec<u32>,
    gen: &mut u32,
    best: &mut Best,
) {
    for (i, &n) in on.nodes.iter().enumerate().skip(1) {
        let n = n as usize;
        if n >> 1 == x {
            continue;
        }
        let j = off.index[n];
        if j == NONE {
            continue;
        }
        let extra = on.nested_extra + off.nested_extra;
        if on.min_ancestors(i) + off.min_ancestors(j as usize) + extra >= best.bound {
            continue;
        }
        let cx = on.ancestors(i, stamp, gen)
            + off.ancestors(j as usize, stamp, gen)
            + extra
            + inner_complexity(&[(on, i), (off, j as usize)]);
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
        let mut parts = Vec::with_capacity(xs.len());
        for (k, &x) in xs.iter().enumerate() {
            let br = branches[x].as_ref().unwrap();
            cx += br.ancestors(idx[k], stamp, gen) + br.nested_extra;
            parts.push((br, idx[k]));
        }
        cx += inner_complexity(&parts);
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

fn build_step(b: &MarkedGrid, net: &Net, kind: Kind, c: Conclusion) -> Step {
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
    let verdict = verdict(target);
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
                    digit_name(cand_digit(c.sources[0] >> 1)),
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

pub fn nishio(b: &MarkedGrid) -> Option<Step> {
    forcing(b, Kind::Nishio, f64::INFINITY, &Budget::unlimited())
}

macro_rules! only {
    ($name:ident, $kind:expr, $t:expr) => {
        pub fn $name(b: &MarkedGrid) -> Option<Step> {
            forcing_filtered(b, $kind, f64::INFINITY, Some($t), &Budget::unlimited())
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

pub fn dynamic_forcing_chain_plus(b: &MarkedGrid) -> Option<Step> {
    forcing(b, Kind::Plus, f64::INFINITY, &Budget::unlimited())
}
pub fn nested_forcing_chain(b: &MarkedGrid) -> Option<Step> {
    forcing(b, Kind::Level2, f64::INFINITY, &Budget::unlimited())
}
pub fn nested_multiple_forcing_chain(b: &MarkedGrid) -> Option<Step> {
    forcing(b, Kind::Level3, f64::INFINITY, &Budget::unlimited())
}
pub fn nested_dynamic_forcing_chain(b: &MarkedGrid) -> Option<Step> {
    forcing(b, Kind::Nested, f64::INFINITY, &Budget::unlimited())
}
