//! Uniqueness techniques, found and rated as Sudoku Explainer (SE) does:
//! unique rectangles and loops (types 1 to 4) and the bivalue universal
//! grave (BUG, types 1 to 4). They assume the puzzle has a single solution.
//!
//! Both families are searched whole, as SE's two producers do: every
//! pattern of the board, then the step SE would take among them.
//!
//! * Unique loops. From each cell of exactly two candidates `a`/`b`, a walk
//!   through cells holding both digits, each step along a box, row or column
//!   of another kind than the step before, closing after 4 or more cells. A
//!   loop counts when every unit it touches holds exactly two of its cells,
//!   one at an even and one at an odd place of the walk: then `a` and `b`
//!   could swap along it. Cells with more candidates ("extra cells") are
//!   allowed two at most, or any number when they share one single extra
//!   digit. One extra cell: type 1. All extra digits one digit: type 2. Two
//!   extra cells with several extra digits: type 3 (a naked or a hidden set
//!   in a unit they share). Two extra cells: also type 4 (one of the two
//!   digits locked in a unit they share). SE rates 4.5, +0.1 for a loop of 6
//!   cells, +0.2 for 8, +0.5 for 10 or more; a naked set of type 3 adds 0.1
//!   per digit past the first, a hidden set 0.1 per cell past the first (the
//!   extra cells left aside). Of all, SE takes the easiest; among equal
//!   ratings the lowest type, then the first found. Steps that remove
//!   nothing are dropped.
//! * BUG. The extra candidates are found unit by unit: a digit with neither
//!   zero nor two places in a unit, exactly one of which has three or more
//!   candidates, is extra there. Without the extra candidates every empty
//!   cell must be left with two and every digit with zero or two places in
//!   every unit. One extra cell: type 1 (5.6). One extra digit in several
//!   cells: type 2 (5.7), and with two cells sharing a unit type 4 (5.7).
//!   Several digits: type 4 with two cells sharing a unit, then type 3 (5.7,
//!   +0.1 per digit of the naked set past the first). SE takes the first it
//!   makes, in this order.

use super::board::*;
use super::step::{Step, Technique};

/// SE's units of a cell in the order it visits them: box, row, column.
fn se_units(c: usize) -> [usize; 3] {
    let u = CELL_UNITS[c];
    [u[2] as usize, u[0] as usize, u[1] as usize]
}

/// The units of the grid in SE's order: boxes, rows, columns.
fn se_unit_order() -> impl Iterator<Item = usize> {
    (18..27).chain(0..18)
}

/// The masks of `n` bits with `k` of them set, increasing (none when `n` is
/// 0): the order in which SE walks its combinations.
fn subsets(n: u32, k: u32) -> impl Iterator<Item = u32> {
    let end = 1u32 << n;
    let mut next = if n == 0 || k > n {
        end
    } else {
        (1u32 << k) - 1
    };
    std::iter::from_fn(move || {
        if next >= end {
            return None;
        }
        let m = next;
        next = if m == 0 {
            end
        } else {
            // the next larger number with as many bits set
            let low = m & m.wrapping_neg();
            let ripple = m + low;
            ripple | (((m ^ ripple) >> 2) / low)
        };
        Some(m)
    })
}

/// The set bits of a small mask, ascending.
fn bits_of(m: u32) -> impl Iterator<Item = usize> {
    (0..32).filter(move |&i| m >> i & 1 == 1)
}

/// Candidates to remove, `(cell, digit)`.
type Elims = Vec<(usize, u8)>;

fn cells_mask(cells: &[usize]) -> Cells {
    cells.iter().fold(0, |m, &c| m | 1u128 << c)
}

/// `r1c2-3 r4c5-6`.
fn elims_name(el: &[(usize, u8)]) -> String {
    let v: Vec<String> = el
        .iter()
        .map(|&(c, d)| format!("{}-{}", cell_name(c), digit_name(d)))
        .collect();
    v.join(" ")
}

/// `3`, `3 or 5`, `3, 5 or 7`.
fn digits_or(mask: Digits) -> String {
    let mut v: Vec<u8> = digits_of(mask).map(digit_name).collect();
    v.sort_unstable();
    let v: Vec<String> = v.iter().map(|d| d.to_string()).collect();
    match v.len() {
        0 | 1 => v.concat(),
        n => format!("{} or {}", v[..n - 1].join(", "), v[n - 1]),
    }
}

// ------------------------------------------------------------ unique loops

/// What makes a unique loop's step, beyond the loop.
#[derive(Clone, Debug)]
enum LoopKind {
    /// Type 1: the one extra cell.
    One { cell: usize },
    /// Type 2: the extra cells and their common extra digit.
    Two { cells: Vec<usize>, digit: u8 },
    /// Type 3 with a naked set in `unit`: the extra cells `c1`, `c2` (their
    /// extra digits `extra`), the other cells of the set and its digits.
    Naked {
        c1: usize,
        c2: usize,
        extra: Digits,
        unit: usize,
        others: Cells,
        set: Digits,
    },
    /// Type 3 with a hidden set in `unit`: the extra cells `c1`, `c2`
    /// (their extra digits `extra`), the cells of the set but `c1`, and its
    /// digits.
    Hidden {
        c1: usize,
        c2: usize,
        extra: Digits,
        unit: usize,
        cells: Cells,
        set: Digits,
    },
    /// Type 4: the extra cells, the unit where `lock` has no other place,
    /// and the digit they lose.
    Four {
        c1: usize,
        c2: usize,
        unit: usize,
        lock: u8,
        gone: u8,
    },
}

/// One of SE's unique loop hints.
#[derive(Clone, Debug)]
struct LoopHint {
    /// The loop, in the order of the walk.
    cells: Vec<usize>,
    v1: u8,
    v2: u8,
    kind: LoopKind,
    eliminations: Vec<(usize, u8)>,
    /// SE's rating, summed as SE does (its sort compares these doubles).
    difficulty: f64,
}

impl LoopHint {
    fn ty(&self) -> u8 {
        match self.kind {
            LoopKind::One { .. } => 1,
            LoopKind::Two { .. } => 2,
            LoopKind::Naked { .. } | LoopKind::Hidden { .. } => 3,
            LoopKind::Four { .. } => 4,
        }
    }

    fn technique(&self) -> Technique {
        use Technique::*;
        match (self.ty(), self.cells.len() == 4) {
            (1, true) => UniqueRectangle1,
            (2, true) => UniqueRectangle2,
            (3, true) => UniqueRectangle3,
            (4, true) => UniqueRectangle4,
            (1, false) => UniqueLoop1,
            (2, false) => UniqueLoop2,
            (3, false) => UniqueLoop3,
            _ => UniqueLoop4,
        }
    }

    /// What tells SE's hints apart: the kind, the cells of the loop in any
    /// order and, for type 3, the set.
    fn key(&self) -> (u8, Cells, usize, Digits, Cells) {
        let cells = cells_mask(&self.cells);
        match self.kind {
            LoopKind::Naked {
                unit, others, set, ..
            } => (30, cells, unit, set, others),
            LoopKind::Hidden {
                unit,
                cells: hidden,
                set,
                ..
            } => (31, cells, unit, set, hidden),
            _ => (self.ty(), cells, 0, 0, 0),
        }
    }

    fn to_step(&self) -> Step {
        let t = self.technique();
        let mut s = Step::new(t);
        s.adjust = self.difficulty - t.se_rating();
        s.cells = self.cells.clone();
        s.digits = vec![self.v1, self.v2];
        s.eliminations = self.eliminations.clone();
        s.eliminations.sort_unstable();
        // the digits as the player has them (the search may run on a
        // relabelled board)
        let (a, b) = {
            let (x, y) = (digit_name(self.v1), digit_name(self.v2));
            (x.min(y), x.max(y))
        };
        let n = self.cells.len();
        let ty = self.ty();
        let what = if n == 4 {
            format!("Unique rectangle type {ty}")
        } else {
            format!("Unique loop type {ty}")
        };
        let shape = if n == 4 {
            String::new()
        } else {
            format!(" (a loop of {n} cells)")
        };
        let pattern = format!(
            "{}{shape} on {a}/{b}: every unit it touches holds two of its cells, so were they all \
             {a}/{b}, the two digits could swap along it and the puzzle would have two solutions",
            cells_name(self.cells.iter().copied()),
        );
        let el = elims_name(&s.eliminations);
        s.description = match &self.kind {
            LoopKind::One { cell } => format!(
                "{what}: {pattern}; {} alone can break it, so it is neither {a} nor {b}",
                cell_name(*cell)
            ),
            LoopKind::Two { cells, digit } => {
                s.digits.push(*digit);
                let digit = digit_name(*digit);
                format!(
                    "{what}: {pattern}; only {} can break it, all with {digit}, so one of \
                     them is {digit} and {digit} leaves the cells that see them all ({el})",
                    cells_name(cells.iter().copied()),
                )
            }
            LoopKind::Naked {
                c1,
                c2,
                extra,
                unit,
                others,
                set,
            } => {
                s.units.push(unit_name(*unit));
                format!(
                    "{what}: {pattern}; so {} or {} is {}: in {} the two act as one \
                     cell of {}, which with {} makes a naked set of {}, and those digits leave \
                     the unit's other cells ({el})",
                    cell_name(*c1),
                    cell_name(*c2),
                    digits_or(*extra),
                    unit_name(*unit),
                    digits_name(*extra),
                    cells_name(cells_of(*others)),
                    digits_name(*set),
                )
            }
            LoopKind::Hidden {
                c1,
                c2,
                extra,
                unit,
                cells,
                set,
            } => {
                s.units.push(unit_name(*unit));
                let hidden = cells_name(cells_of(*cells));
                format!(
                    "{what}: {pattern}; so {} or {} is {}. In {}, {} have no place but \
                     {}, {} and {}: whichever of {} and {} is {a} or {b}, the other is not, \
                     and {} are left to {}, which hold nothing else ({el})",
                    cell_name(*c1),
                    cell_name(*c2),
                    digits_or(*extra),
                    unit_name(*unit),
                    digits_name(*set),
                    cell_name(*c1),
                    cell_name(*c2),
                    hidden,
                    cell_name(*c1),
                    cell_name(*c2),
                    digits_name(*set),
                    hidden,
                )
            }
            LoopKind::Four {
                c1,
                c2,
                unit,
                lock,
                gone,
            } => {
                s.units.push(unit_name(*unit));
                let (lock, gone) = (digit_name(*lock), digit_name(*gone));
                format!(
                    "{what}: {pattern}; in {}, {lock} has no place but {} and {}, so \
                     one of them is {lock}; were either {gone}, both would be {a}/{b}, so \
                     {gone} leaves them",
                    unit_name(*unit),
                    cell_name(*c1),
                    cell_name(*c2),
                )
            }
        };
        s
    }
}

/// SE's rating of a loop of `n` cells (doubles added in SE's order, so that
/// ratings that look equal compare as in SE).
fn loop_difficulty(n: usize) -> f64 {
    let mut r = 4.5;
    if n >= 10 {
        r += 0.3;
    }
    if n >= 8 {
        r += 0.2;
    } else if n >= 6 {
        r += 0.1;
    }
    r
}

/// SE's loop search: walks from each bivalue cell in turn.
///
/// SE keeps every closed walk and then drops those that are no loop (a unit
/// with one cell of the walk, or two at places of the same parity); such a
/// walk can never become a loop once it has gone wrong, so it is cut at
/// once here, which keeps the search small. A loop found again (from
/// another cell, or along other units) makes the same hints as the first
/// time, so it is kept once. The loops come out in SE's order.
struct LoopWalk<'a> {
    b: &'a MarkedGrid,
    pair: Digits,
    /// The cells holding both digits of the pair.
    pool: Cells,
    path: Vec<usize>,
    in_path: Cells,
    /// Per unit: bit 0 if it holds a cell at an even place, bit 1 odd.
    parity: [u8; 27],
    /// Units holding one cell of the walk.
    open: u32,
    /// The loops found, in order, and their cells.
    loops: Vec<Vec<usize>>,
    found: std::collections::HashSet<Cells>,
    /// Cells stepped on so far, against [`MAX_STEPS`].
    steps: usize,
}

/// A bound on the loop search of one board. The boards met rating real
/// puzzles stay far below (under 50,000 steps in all on the calibration
/// sets); boards made up with many cells of the same two candidates could
/// make it run for ages.
const MAX_STEPS: usize = 1 << 20;

impl LoopWalk<'_> {
    fn fits(&self, c: usize) -> bool {
        let p = 1u8 << (self.path.len() & 1);
        se_units(c).iter().all(|&u| self.parity[u] & p == 0)
    }

    fn push(&mut self, c: usize) {
        let p = 1u8 << (self.path.len() & 1);
        for u in se_units(c) {
            if self.parity[u] == 0 {
                self.open += 1;
            } else {
                self.open -= 1;
            }
            self.parity[u] |= p;
        }
        self.path.push(c);
        self.in_path |= 1u128 << c;
    }

    fn pop(&mut self) {
        let c = self.path.pop().expect("a cell to take back");
        self.in_path &= !(1u128 << c);
        let p = 1u8 << (self.path.len() & 1);
        for u in se_units(c) {
            self.parity[u] &= !p;
            if self.parity[u] == 0 {
                self.open -= 1;
            } else {
                self.open += 1;
            }
        }
    }

    /// Goes on from the last cell of the walk, reached along a unit of kind
    /// `last` (0 box, 1 row, 2 column, 3 none), with `free` cells of extra
    /// digits still allowed and `extra` the extra digits so far.
    fn walk(&mut self, free: i32, extra: Digits, last: usize) {
        let cell = *self.path.last().expect("a walk");
        for (kind, u) in se_units(cell).into_iter().enumerate() {
            if kind == last {
                continue;
            }
            let start = self.path[0];
            let next = UNIT_MASK[u] & (self.pool & !self.in_path | 1u128 << start);
            for n in cells_of(next) {
                if n == start {
                    if self.path.len() >= 4 && self.open == 0 && self.found.insert(self.in_path) {
                        self.loops.push(self.path.clone());
                    }
                    continue;
                }
                let p = self.b.cands(n);
                let more = extra | (p & !self.pair);
                let two = count(p) == 2;
                if (two || count(more) == 1 || free > 0) && self.fits(n) && self.steps < MAX_STEPS {
                    self.steps += 1;
                    self.push(n);
                    self.walk(free - i32::from(!two), more, kind);
                    self.pop();
                }
            }
        }
    }
}

/// Every productive hint of SE's unique loops producer, in the order SE
/// finds them (duplicates left out).
fn loop_hints(b: &MarkedGrid) -> Vec<LoopHint> {
    let mut out: Vec<LoopHint> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut add = |h: LoopHint, out: &mut Vec<LoopHint>| {
        if !h.eliminations.is_empty() && seen.insert(h.key()) {
            out.push(h);
        }
    };
    let mut w = LoopWalk {
        b,
        pair: 0,
        pool: 0,
        path: Vec::new(),
        in_path: 0,
        parity: [0; 27],
        open: 0,
        loops: Vec::new(),
        found: std::collections::HashSet::new(),
        steps: 0,
    };
    for start in 0..81 {
        let pair = b.cands(start);
        if count(pair) != 2 {
            continue;
        }
        if w.pair != pair {
            w.pair = pair;
            w.pool = (0..81)
                .filter(|&c| b.cands(c) & pair == pair)
                .fold(0, |m, c| m | 1u128 << c);
        }
        w.push(start);
        w.walk(2, 0, 3);
        w.pop();
        let mut ds = digits_of(pair);
        let (v1, v2) = (ds.next().unwrap_or(0), ds.next().unwrap_or(0));
        for lp in std::mem::take(&mut w.loops) {
            let extra_cells: Vec<usize> = lp
                .iter()
                .copied()
                .filter(|&c| count(b.cands(c)) > 2)
                .collect();
            let base = loop_difficulty(lp.len());
            let hint = |kind: LoopKind, eliminations: Vec<(usize, u8)>, difficulty: f64| LoopHint {
                cells: lp.clone(),
                v1,
                v2,
                kind,
                eliminations,
                difficulty,
            };
            match extra_cells.len() {
                0 => {} // a deadly pattern: not the puzzle of a single solution
                1 => {
                    let c = extra_cells[0];
                    let h = hint(LoopKind::One { cell: c }, vec![(c, v1), (c, v2)], base);
                    add(h, &mut out);
                }
                n => {
                    let extra = extra_cells.iter().fold(0, |m, &c| m | b.cands(c)) & !pair;
                    if n > 2 || count(extra) == 1 {
                        let d = digits_of(b.cands(extra_cells[0]) & !pair)
                            .next()
                            .unwrap_or(0);
                        let targets = common_peers(cells_mask(&extra_cells));
                        let el: Vec<(usize, u8)> = cells_of(targets)
                            .filter(|&c| b.has(c, d))
                            .map(|c| (c, d))
                            .collect();
                        let kind = LoopKind::Two {
                            cells: extra_cells.clone(),
                            digit: d,
                        };
                        add(hint(kind, el, base), &mut out);
                    } else {
                        for (kind, el, diff) in type3(b, extra_cells[0], extra_cells[1], pair, base)
                        {
                            add(hint(kind, el, diff), &mut out);
                        }
                    }
                    if n == 2 {
                        if let Some((kind, el)) = type4(b, extra_cells[0], extra_cells[1], v1, v2) {
                            add(hint(kind, el, base), &mut out);
                        }
                    }
                }
            }
        }
    }
    out
}

/// SE's type 3 hints of a loop on `pair` with extra cells `c1`, `c2`, in
/// SE's order: by size of the set, then unit (box, row, column), naked sets
/// before hidden ones.
fn type3(
    b: &MarkedGrid,
    c1: usize,
    c2: usize,
    pair: Digits,
    base: f64,
) -> Vec<(LoopKind, Elims, f64)> {
    let mut v = Vec::new();
    let extra = (b.cands(c1) | b.cands(c2)) & !pair;
    let both = extra & b.cands(c1) & b.cands(c2);
    let (u1, u2) = (se_units(c1), se_units(c2));
    let rest: Vec<u8> = digits_of(ALL_DIGITS & !pair & !extra).collect();
    for degree in 2..=7u32 {
        for kind in 0..3 {
            if u1[kind] != u2[kind] {
                continue;
            }
            let unit = u1[kind];
            let cells = &UNITS[unit];
            let empty = cells.iter().filter(|&&c| b.value(c as usize) == 0).count() as u32;
            let i1 = cells.iter().position(|&c| c as usize == c1).unwrap_or(0);
            let i2 = cells.iter().position(|&c| c as usize == c2).unwrap_or(0);
            // Naked: the two extra cells act as one cell of the extra digits.
            if degree * 2 <= empty && degree >= count(extra) {
                for m in subsets(9, degree) {
                    if m >> i1 & 1 == 0 || m >> i2 & 1 == 1 {
                        continue;
                    }
                    let mut union = extra;
                    // SE also wants each extra digit in both extra cells or
                    // in one of the other cells
                    let mut with_both = both;
                    let mut others: Cells = 0;
                    let mut ok = true;
                    for i in bits_of(m).filter(|&i| i != i1) {
                        let c = cells[i] as usize;
                        let p = b.cands(c);
                        ok &= count(p) > 1;
                        union |= p;
                        with_both |= p;
                        others |= 1u128 << c;
                    }
                    if !ok || count(with_both) != degree || count(union) != degree {
                        continue;
                    }
                    let el: Vec<(usize, u8)> = cells
                        .iter()
                        .map(|&c| c as usize)
                        .filter(|&c| c != c1 && c != c2 && others >> c & 1 == 0)
                        .flat_map(|c| digits_of(b.cands(c) & union).map(move |d| (c, d)))
                        .collect();
                    let kind = LoopKind::Naked {
                        c1,
                        c2,
                        extra,
                        unit,
                        others,
                        set: union,
                    };
                    v.push((kind, el, base + (degree - 1) as f64 * 0.1));
                }
            }
            // Hidden: leaving c2 aside, the two digits and others confined.
            if degree * 2 < empty && degree as usize - 2 <= rest.len() {
                let positions = |d: u8| -> u32 {
                    let mut m = 0u32;
                    for (i, &c) in cells.iter().enumerate() {
                        if i != i2 && b.has(c as usize, d) {
                            m |= 1 << i;
                        }
                    }
                    m
                };
                for m in subsets(rest.len() as u32, degree - 2) {
                    let set = bits_of(m).fold(pair, |s, i| s | bit(rest[i]));
                    let mut union = 0u32;
                    let mut ok = true;
                    for d in digits_of(set) {
                        let p = positions(d);
                        ok &= p != 0;
                        union |= p;
                    }
                    if !ok || union.count_ones() != degree {
                        continue;
                    }
                    let hidden: Cells = bits_of(union & !(1 << i1) & !(1 << i2))
                        .fold(0, |h, i| h | 1u128 << cells[i]);
                    let el: Vec<(usize, u8)> = cells_of(hidden)
                        .flat_map(|c| digits_of(b.cands(c) & !set).map(move |d| (c, d)))
                        .collect();
                    let size = hidden.count_ones() as f64;
                    let kind = LoopKind::Hidden {
                        c1,
                        c2,
                        extra,
                        unit,
                        cells: hidden,
                        set,
                    };
                    v.push((kind, el, base + (size - 1.0) * 0.1));
                }
            }
        }
    }
    v
}

/// SE's type 4 hint of a loop on `v1`/`v2` with extra cells `c1`, `c2`: one
/// of the digits has no other place in a unit they share (`v1` first; the
/// last such unit, as SE names it).
fn type4(b: &MarkedGrid, c1: usize, c2: usize, v1: u8, v2: u8) -> Option<(LoopKind, Elims)> {
    let (u1, u2) = (se_units(c1), se_units(c2));
    let (mut r1, mut r2) = (None, None);
    for kind in 0..3 {
        if u1[kind] != u2[kind] {
            continue;
        }
        let unit = u1[kind];
        let others = UNIT_MASK[unit] & !(1u128 << c1) & !(1u128 << c2);
        if !open_in(b, others, v1) {
            r1 = Some(unit);
        }
        if !open_in(b, others, v2) {
            r2 = Some(unit);
        }
    }
    let (unit, lock, gone) = match (r1, r2) {
        (Some(u), _) => (u, v1, v2),
        (None, Some(u)) => (u, v2, v1),
        _ => return None,
    };
    let kind = LoopKind::Four {
        c1,
        c2,
        unit,
        lock,
        gone,
    };
    Some((kind, vec![(c1, gone), (c2, gone)]))
}

/// Does `d` have a place among the cells of `set`?
fn open_in(b: &MarkedGrid, set: Cells, d: u8) -> bool {
    cells_of(set).any(|c| b.has(c, d))
}

/// SE's hints, easiest first: by rating, then type, then as found (a stable
/// sort, as SE's).
fn sorted_loop_hints(b: &MarkedGrid) -> Vec<LoopHint> {
    let mut v = loop_hints(b);
    v.sort_by(|x, y| {
        x.difficulty
            .total_cmp(&y.difficulty)
            .then(x.ty().cmp(&y.ty()))
    });
    v
}

/// The first of SE's sorted unique loop hints that `keep` accepts.
fn first_loop_step(b: &MarkedGrid, keep: impl Fn(&LoopHint) -> bool) -> Option<Step> {
    sorted_loop_hints(b)
        .iter()
        .find(|h| keep(h))
        .map(LoopHint::to_step)
}

/// The easiest unique rectangle (a loop of 4 cells) of the given type (1 to
/// 4), as SE would take it.
pub fn unique_rectangle(b: &MarkedGrid, ty: u8) -> Option<Step> {
    first_loop_step(b, |h| h.cells.len() == 4 && h.ty() == ty)
}

/// Unique rectangle type 1: one corner has more candidates than the two
/// digits; it cannot be either.
pub fn unique_rectangle_1(b: &MarkedGrid) -> Option<Step> {
    unique_rectangle(b, 1)
}

/// Unique rectangle type 2: the extra corners share one extra digit, which
/// leaves the cells seeing them all.
pub fn unique_rectangle_2(b: &MarkedGrid) -> Option<Step> {
    unique_rectangle(b, 2)
}

/// Unique rectangle type 3: the two extra corners, as one cell, make a
/// naked or hidden set in a unit they share.
pub fn unique_rectangle_3(b: &MarkedGrid) -> Option<Step> {
    unique_rectangle(b, 3)
}

/// Unique rectangle type 4: one of the two digits has no other place in a
/// unit of the two extra corners; the other digit leaves them.
pub fn unique_rectangle_4(b: &MarkedGrid) -> Option<Step> {
    unique_rectangle(b, 4)
}

fn unique_loop(b: &MarkedGrid, ty: u8) -> Option<Step> {
    first_loop_step(b, |h| h.cells.len() > 4 && h.ty() == ty)
}

/// Unique loop (6 cells or more) type 1: one cell of the loop has more
/// candidates than the two digits; it cannot be either.
pub fn unique_loop_1(b: &MarkedGrid) -> Option<Step> {
    unique_loop(b, 1)
}

/// Unique loop type 2: the extra cells share one extra digit, which leaves
/// the cells seeing them all.
pub fn unique_loop_2(b: &MarkedGrid) -> Option<Step> {
    unique_loop(b, 2)
}

/// Unique loop type 3: the two extra cells, as one cell, make a naked or
/// hidden set in a unit they share.
pub fn unique_loop_3(b: &MarkedGrid) -> Option<Step> {
    unique_loop(b, 3)
}

/// Unique loop type 4: one of the two digits has no other place in a unit
/// of the two extra cells; the other digit leaves them.
pub fn unique_loop_4(b: &MarkedGrid) -> Option<Step> {
    unique_loop(b, 4)
}

/// The step of Sudoku Explainer's "unique loops" producer: the easiest of
/// its unique rectangles and loops, types 1 to 4.
pub(crate) fn unique_loops(b: &MarkedGrid) -> Option<Step> {
    first_loop_step(b, |_| true)
}

// --------------------------------------------------------------------- BUG

/// The extra candidates of a BUG, as SE finds them.
struct Bug {
    /// The cells with extra candidates, in the order found.
    cells: Vec<usize>,
    /// The extra digits of each cell.
    extra: [Digits; 81],
    /// Every extra digit (of the cells found one by one).
    all: Digits,
    /// The cells that see every BUG cell (none of them), when there are any.
    common: Cells,
}

/// SE's BUG analysis: `None` when the board is no BUG with extra
/// candidates, or when SE would give up on it.
fn bug_scan(b: &MarkedGrid) -> Option<Bug> {
    let mut rest = *b.all_cands();
    let mut bug = Bug {
        cells: Vec::new(),
        extra: [0; 81],
        all: 0,
        common: 0,
    };
    let mut common: Option<Cells> = None;
    // SE's second look: one digit extra in several cells of a unit
    let mut extra_cells: Option<Cells> = None;
    let mut only_digit = 0u8;
    let mut one_digit = true;
    // adds an extra candidate; false when SE gives up
    let mut found = |bug: &mut Bug, rest: &mut [Digits; 81], c: usize, d: u8, all: bool| {
        if !bug.cells.contains(&c) {
            bug.cells.push(c);
        }
        bug.extra[c] |= bit(d);
        if all {
            bug.all |= bit(d);
        }
        rest[c] &= !bit(d);
        let m = common.map_or(PEER_MASK[c], |m| m & PEER_MASK[c]) & !cells_mask(&bug.cells);
        common = Some(m);
        bug.common = m;
        !(bug.cells.len() > 1 && count(bug.all) > 1 && m == 0)
    };
    for u in se_unit_order() {
        for d in 1..=9u8 {
            let n = UNITS[u].iter().filter(|&&c| b.has(c as usize, d)).count();
            if n == 0 || n == 2 {
                continue;
            }
            let fat: Vec<usize> = UNITS[u]
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| b.has(c, d) && count(b.cands(c)) >= 3)
                .collect();
            match &mut extra_cells {
                None => {
                    extra_cells = Some(cells_mask(&fat));
                    only_digit = d;
                }
                Some(m) if one_digit => {
                    if only_digit == d {
                        *m |= cells_mask(&fat);
                    } else {
                        one_digit = false;
                    }
                }
                _ => {}
            }
            if fat.len() == 1 && !found(&mut bug, &mut rest, fat[0], d, true) {
                return None;
            }
            if fat.is_empty() {
                // a digit three times in a unit, no cell to blame
                return None;
            }
        }
    }
    if let (true, Some(m)) = (one_digit, extra_cells) {
        if m.count_ones() as usize > bug.cells.len() {
            for c in cells_of(m & !cells_mask(&bug.cells)) {
                bug.extra[c] = 0;
                if !found(&mut bug, &mut rest, c, only_digit, false) {
                    return None;
                }
            }
        }
    }
    // without the extra candidates: a BUG
    for c in 0..81 {
        if b.value(c) == 0 && count(rest[c]) != 2 {
            return None;
        }
    }
    for u in 0..27 {
        for d in 1..=9u8 {
            let n = UNITS[u]
                .iter()
                .filter(|&&c| rest[c as usize] & bit(d) != 0)
                .count();
            if n != 0 && n != 2 {
                return None;
            }
        }
    }
    Some(bug)
}

/// The start of every BUG description.
fn bug_intro(bug: &Bug) -> String {
    let v: Vec<String> = bug
        .cells
        .iter()
        .map(|&c| format!("{} from {}", digits_name(bug.extra[c]), cell_name(c)))
        .collect();
    format!(
        "without {}, every empty cell would have two candidates and every digit two places \
         in each unit it is open in: a bivalue universal grave, which has no single solution",
        v.join(", ")
    )
}

/// SE's BUG hints, in the order it makes them (it takes the first).
fn bug_steps(b: &MarkedGrid) -> Vec<Step> {
    let mut v = Vec::new();
    let Some(bug) = bug_scan(b) else {
        return v;
    };
    let cells = &bug.cells;
    if cells.len() == 1 {
        let c = cells[0];
        let mut s = Step::new(Technique::BugPlusOne);
        s.cells.push(c);
        s.digits = digits_of(bug.all).collect();
        s.eliminations = digits_of(b.cands(c) & !bug.all).map(|d| (c, d)).collect();
        s.description = format!(
            "BUG+1: {}; so {} is {}, and loses {}",
            bug_intro(&bug),
            cell_name(c),
            digits_or(bug.all),
            digits_name(b.cands(c) & !bug.all)
        );
        if !s.eliminations.is_empty() {
            v.push(s);
        }
    } else if count(bug.all) == 1 {
        if bug.common != 0 {
            let d = digits_of(bug.all).next().unwrap_or(0);
            let el: Vec<(usize, u8)> = cells_of(bug.common)
                .filter(|&c| b.has(c, d))
                .map(|c| (c, d))
                .collect();
            if !el.is_empty() {
                let n = digit_name(d);
                let mut s = Step::new(Technique::BugType2);
                s.cells = cells.clone();
                s.digits = vec![d];
                s.description = format!(
                    "BUG type 2: {}; so one of {} is {n}, and {n} leaves the cells that see \
                     them all ({})",
                    bug_intro(&bug),
                    cells_name(cells.iter().copied()),
                    elims_name(&el)
                );
                s.eliminations = el;
                v.push(s);
            }
        }
        if cells.len() == 2 {
            v.extend(bug_type4_steps(b, &bug));
        }
    } else if bug.common != 0 {
        if cells.len() == 2 {
            v.extend(bug_type4_steps(b, &bug));
        }
        v.extend(bug_type3_steps(b, &bug));
    }
    v
}

/// SE's BUG type 4: two BUG cells in a unit, with one other digit in
/// common; it has two places in the unit, these two, so one of them holds
/// it and the other its extra digit.
fn bug_type4_steps(b: &MarkedGrid, bug: &Bug) -> Vec<Step> {
    let mut v = Vec::new();
    let (c1, c2) = (bug.cells[0], bug.cells[1]);
    let common = b.cands(c1) & b.cands(c2) & !bug.all;
    if count(common) != 1 {
        return v;
    }
    let d = digits_of(common).next().unwrap_or(0);
    let (u1, u2) = (se_units(c1), se_units(c2));
    for kind in 0..3 {
        if u1[kind] != u2[kind] {
            continue;
        }
        let unit = u1[kind];
        let mut el = Vec::new();
        for c in [c1, c2] {
            for e in digits_of(b.cands(c) & !bug.extra[c] & !bit(d)) {
                el.push((c, e));
            }
        }
        let n = digit_name(d);
        let mut s = Step::new(Technique::BugType4);
        s.cells = vec![c1, c2];
        s.units.push(unit_name(unit));
        s.digits = digits_of(bug.all | bit(d)).collect();
        s.description = format!(
            "BUG type 4: {}; so {} is {} or {} is {}. Then the other is {n}, its only other \
             place in {}: each holds its extra digit or {n}, and {} go",
            bug_intro(bug),
            cell_name(c1),
            digits_or(bug.extra[c1]),
            cell_name(c2),
            digits_or(bug.extra[c2]),
            unit_name(unit),
            elims_name(&el)
        );
        s.eliminations = el;
        v.push(s);
    }
    v
}

/// SE's BUG type 3: the BUG cells share a unit, where one of them (holding
/// one of the extra digits) and other cells seeing them all make a naked
/// set.
fn bug_type3_steps(b: &MarkedGrid, bug: &Bug) -> Vec<Step> {
    let mut v = Vec::new();
    for degree in 2..=6u32 {
        for kind in 0..3 {
            let unit = se_units(bug.cells[0])[kind];
            if bug.cells.iter().any(|&c| se_units(c)[kind] != unit) {
                continue;
            }
            let region: Vec<usize> = cells_of(bug.common & UNIT_MASK[unit]).collect();
            if region.len() < degree as usize {
                continue;
            }
            for m in subsets(region.len() as u32, degree - 1) {
                let naked: Vec<usize> = bits_of(m).map(|i| region[i]).collect();
                let others = naked.iter().fold(0, |u, &c| u | b.cands(c));
                if count(others) != degree
                    || naked.iter().any(|&c| count(b.cands(c)) <= 1)
                    || count(bug.all) <= 1
                    || count(others | bug.all) != degree
                {
                    continue;
                }
                let set = others | bug.all;
                let el: Vec<(usize, u8)> = region
                    .iter()
                    .copied()
                    .filter(|c| !naked.contains(c))
                    .flat_map(|c| digits_of(b.cands(c) & set).map(move |d| (c, d)))
                    .collect();
                if el.is_empty() {
                    continue;
                }
                let mut s = Step::new(Technique::BugType3);
                s.adjust = (degree - 1) as f64 * 0.1;
                s.cells = bug.cells.clone();
                s.cells.extend(&naked);
                s.units.push(unit_name(unit));
                s.digits = digits_of(set).collect();
                s.description = format!(
                    "BUG type 3: {}; so one of {} is {}: in {} they act as one cell of those \
                     digits, which with {} makes a naked set of {}, and those digits leave the \
                     unit's other cells ({})",
                    bug_intro(bug),
                    cells_name(bug.cells.iter().copied()),
                    digits_or(bug.all),
                    unit_name(unit),
                    cells_name(naked.iter().copied()),
                    digits_name(set),
                    elims_name(&el)
                );
                s.eliminations = el;
                v.push(s);
            }
        }
    }
    v
}

/// BUG+1 (SE's BUG type 1): one cell has extra candidates; it must hold one
/// of them, and loses the other candidates.
pub fn bug_plus_one(b: &MarkedGrid) -> Option<Step> {
    bug_steps(b)
        .into_iter()
        .find(|s| s.technique == Technique::BugPlusOne)
}

/// BUG type 2: the extra candidates are one digit, in several cells; it
/// leaves the cells seeing them all.
pub fn bug_type_2(b: &MarkedGrid) -> Option<Step> {
    bug_steps(b)
        .into_iter()
        .find(|s| s.technique == Technique::BugType2)
}

/// BUG type 3: the BUG cells, as one cell of their extra digits, make a
/// naked set in a unit they share.
pub fn bug_type_3(b: &MarkedGrid) -> Option<Step> {
    bug_steps(b)
        .into_iter()
        .filter(|s| s.technique == Technique::BugType3)
        .min_by(|x, y| x.rating().total_cmp(&y.rating()))
}

/// BUG type 4: two BUG cells in a unit share a digit that has no other
/// place there; each holds it or its extra digit.
pub fn bug_type_4(b: &MarkedGrid) -> Option<Step> {
    bug_steps(b)
        .into_iter()
        .find(|s| s.technique == Technique::BugType4)
}

/// The step of Sudoku Explainer's "bivalue universal grave" producer
/// (types 1 to 4): the first it makes.
pub(crate) fn bugs(b: &MarkedGrid) -> Option<Step> {
    bug_steps(b).into_iter().find(|s| s.is_productive())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `r4c7` as a cell number.
    fn cell_of(name: &str) -> usize {
        let b = name.as_bytes();
        (b[1] - b'1') as usize * 9 + (b[3] - b'1') as usize
    }

    /// A board: its digits and the candidates removed beyond those the
    /// digits rule out (`r4c7-159`).
    fn position(values: &str, removed: &str) -> MarkedGrid {
        let mut b = MarkedGrid::from_line(values).expect("81 symbols");
        for tok in removed.split_whitespace() {
            let (cell, digits) = tok.split_once('-').expect("r4c7-159");
            for ch in digits.chars() {
                let d = ch.to_digit(10).expect("a digit") as u8;
                assert!(b.eliminate(cell_of(cell), d), "{tok}");
            }
        }
        b
    }

    /// The only solution of a puzzle.
    fn solution(puzzle: &str) -> Vec<u8> {
        let p = crate::Puzzle::parse_line(puzzle, None).expect("a puzzle");
        let s = crate::solve(&p, 2);
        assert_eq!(s.count, 1, "{puzzle} must have one solution");
        s.solutions[0].cells().to_vec()
    }

    /// `r1c2-3 r4c5-6`, sorted.
    fn elims_of(s: &Step) -> String {
        let mut v: Vec<String> = s
            .eliminations
            .iter()
            .map(|&(c, d)| format!("{}-{}", cell_name(c), d))
            .collect();
        v.sort();
        v.join(" ")
    }

    /// A position met on SE's solving path of `puzzle` (written out from its
    /// pencil marks), where SE's step is `want`, rated `rating`, removing
    /// `elims`: `find` and the producer both give that step, and it is sound.
    #[allow(clippy::too_many_arguments)]
    fn se_step(
        puzzle: &str,
        values: &str,
        removed: &str,
        find: fn(&MarkedGrid) -> Option<Step>,
        producer: fn(&MarkedGrid) -> Option<Step>,
        want: Technique,
        rating: f64,
        elims: &str,
    ) -> Step {
        let b = position(values, removed);
        let sol = solution(puzzle);
        for c in 0..81 {
            let v = b.value(c);
            assert!(
                v == sol[c] || v == 0 && b.has(c, sol[c]),
                "the position is wrong"
            );
        }
        let s = find(&b).unwrap_or_else(|| panic!("no {want}\n{b}"));
        assert_eq!(s.technique, want, "{}", s.description);
        assert!((s.rating() - rating).abs() < 1e-9, "rated {}", s.rating());
        assert_eq!(elims_of(&s), elims, "{}", s.description);
        for &(c, d) in &s.eliminations {
            assert!(b.has(c, d) && sol[c] != d, "{} removes {d} from {c}", want);
        }
        assert!(s.placements.is_empty());
        assert!(!s.cells.is_empty() && !s.digits.is_empty() && !s.description.is_empty());
        let p = producer(&b).expect("the producer's step");
        assert_eq!((p.technique, elims_of(&p)), (want, elims.to_string()));
        assert!((p.rating() - rating).abs() < 1e-9);
        s
    }

    #[test]
    fn unique_rectangle_type_1() {
        // calibration: Unique Rectangle type 1: r2c8,r2c9,r5c9,r5c8 on 5, 9
        let s = se_step(
            "500000047800100600090045000009020080003604200020070400000260010004009002250000003",
            "5.2..6.478471326...9.745.284.9.2.78.7836.42...25.7.43.9.826.514..4..98.225.4..9.3",
            "",
            unique_rectangle_1,
            unique_loops,
            Technique::UniqueRectangle1,
            4.5,
            "r5c9-5 r5c9-9",
        );
        assert_eq!(s.cells.len(), 4);
        // The solver searches a relabelled, moved board; the step and its
        // words come back as the player has the board.
        let b = position(
            "5.2..6.478471326...9.745.284.9.2.78.7836.42...25.7.43.9.826.514..4..98.225.4..9.3",
            "",
        );
        let n = crate::logic::next_step(&b).expect("a step");
        assert_eq!(n.technique, Technique::UniqueRectangle1);
        assert_eq!(elims_of(&n), "r5c9-5 r5c9-9");
        assert!(n.description.contains("on 5/9"), "{}", n.description);
        assert!(n.description.contains("r5c9 alone"), "{}", n.description);
    }

    #[test]
    fn unique_rectangle_type_2() {
        // Unique Rectangle type 2: r2c3,r1c3,r1c5,r2c5 on 4, 8 (4.5, not
        // the 4.6 of our base rating)
        se_step(
            "500000096000009003000070050016950800042000370005027610020010000400600000830000001",
            "57.....9616.5.972329..76.58716953842942.6.37538542761962..1...44516....783.....61",
            "",
            unique_rectangle_2,
            unique_loops,
            Technique::UniqueRectangle2,
            4.5,
            "r1c4-3",
        );
    }

    #[test]
    fn unique_rectangle_type_3_hidden_pair() {
        // Unique Rectangle type 3: r7c2,r8c2,r8c9,r7c9 on 3, 5, a hidden
        // pair: 4.5
        let s = se_step(
            "047000350005000700380000014500060001000701000009040500000608000002409100600020008",
            ".4718635..15..4786386....145739628414287516..1698435..7.4618...8.24.916.691.2.4.8",
            "",
            unique_rectangle_3,
            unique_loops,
            Technique::UniqueRectangle3,
            4.5,
            "r5c9-9",
        );
        assert!(
            s.description.contains("hold nothing else"),
            "{}",
            s.description
        );
    }

    #[test]
    fn unique_rectangle_type_3_naked_sets() {
        // Unique Rectangle type 3: r1c1,r2c1,r2c7,r1c7 on 4, 9: 4.6
        se_step(
            "006052000003600020705000000809200003050010090100007802000000509070004200000820300",
            "..6.52.3...36...25725......869245..3257318.9.134967852642...5893785942..5918263..",
            "",
            unique_rectangle_3,
            unique_loops,
            Technique::UniqueRectangle3,
            4.6,
            "r3c7-1",
        );
        // Unique Rectangle type 3: r5c5,r5c6,r3c6,r3c5 on 1, 7: 4.7
        se_step(
            "000030250090000060000600809007820300509000406006095700702003000080000070014050000",
            "....3.25..9.5..16....6..8.91478263955293..4868364957..7.2..3....8.2...7..1475....",
            "r1c6-47",
            unique_rectangle_3,
            unique_loops,
            Technique::UniqueRectangle3,
            4.7,
            "r3c3-3",
        );
    }

    #[test]
    fn unique_rectangle_type_4() {
        // Unique Rectangle type 4: r5c4,r5c6,r8c6,r8c4 on 5, 8
        se_step(
            "007050090000090005060701000892600004300000007500009128000902010600070000040060500",
            "..7.5.691....967.59657.1...892617354314.2.967576..912875.9.2.166...7.....4..6.57.",
            "",
            unique_rectangle_4,
            unique_loops,
            Technique::UniqueRectangle4,
            4.5,
            "r8c4-8 r8c6-8",
        );
    }

    #[test]
    fn unique_loops_of_6_to_10_cells() {
        // Unique Loop 6 type 1: r1c2,r1c7,r2c7,r2c3,r8c3,r8c2 on 2, 5
        let s = se_step(
            "906040000400300000017050009060008000074601950000500060800060720000004003000020805",
            "9.6.47...48.319.76317.56..956.4.8...2746319581.85.2.6.8...6572.7...846.36.17238.5",
            "r8c2-9 r8c3-9",
            unique_loop_1,
            unique_loops,
            Technique::UniqueLoop1,
            4.6,
            "r1c7-2 r1c7-5",
        );
        assert_eq!(s.cells.len(), 6);
        // Unique Loop 6 type 2: r2c7,r2c8,r6c8,r6c9,r8c9,r8c7 on 2, 3
        se_step(
            "034000500080704001000800007002000065000030000690000700200009000800105090001000650",
            "734...586589764..1126853947312....654...36.1969....7..2..6.917.86.1.5.9.9.13..65.",
            "r4c5-4 r6c5-4 r6c9-8",
            unique_loop_2,
            unique_loops,
            Technique::UniqueLoop2,
            4.6,
            "r7c9-4 r9c9-4",
        );
        // Unique Loop 6 type 3: r4c6,r6c6,r6c3,r5c3,r5c7,r4c7 on 8, 9
        se_step(
            "090034050800005007004007100462000000100000003000000462006900500900700004040280090",
            ".9..34.5.8...95.47..4.271.946237..151..462.73...51.462..694.5..9..75...4.4.28.79.",
            "r1c7-8 r8c3-3 r8c7-28",
            unique_loop_3,
            unique_loops,
            Technique::UniqueLoop3,
            4.6,
            "r8c3-1",
        );
        // Unique Loop 6 type 4: r4c2,r4c4,r5c4,r5c3,r9c3,r9c2 on 1, 7
        se_step(
            "120605098000090000006807500004000900200080005908000106650000041000000000000352000",
            "12.645.98..529361..9681752.5.4.3698226..8943593852417665.978.41...461.5....352.6.",
            "r8c3-3 r8c7-3",
            unique_loop_4,
            unique_loops,
            Technique::UniqueLoop4,
            4.6,
            "r9c2-7 r9c3-7",
        );
        // Unique Loop 8 type 1: r1c5,r1c6,r6c6,r6c7,r4c7,r4c4,r9c4,r9c5 on 7, 9
        se_step(
            "042000500000000072000326800200054006000080000300210004004538000970000000006000410",
            ".42...5......45.727..32684.2...54..64..683...36.21...4124538...97.461...5.6..241.",
            "r1c4-79 r1c8-9 r1c9-9 r2c2-8 r2c3-8 r2c4-9 r2c7-3 r6c3-79 r6c8-9 r8c8-8 r9c9-79",
            unique_loop_1,
            unique_loops,
            Technique::UniqueLoop1,
            4.7,
            "r4c7-7 r4c7-9",
        );
        // Unique Loop 10 type 2: r1c5,r1c7,r2c7,r2c2,r3c2,r3c4,r6c4,r6c6,
        // r8c6,r8c5 on 3, 4: 5.0
        let s = se_step(
            "020107050000080000106090802000906000064000930800000007000060000051000280200509004",
            "9281.7.56...682.911.6.958.2...976..87648219358...5...74..2685136517..289283519..4",
            "r6c2-3 r6c7-4 r6c8-4",
            unique_loop_2,
            unique_loops,
            Technique::UniqueLoop2,
            5.0,
            "r2c3-7",
        );
        assert_eq!(s.cells.len(), 10);
    }

    #[test]
    fn bug_type_1() {
        // BUG type 1: r5c3 (SE removes the other candidates: 5.6)
        let s = se_step(
            "650000020008107036020000000000700809000030000906008000000000010310504900070000064",
            "65..93.2.498127536.236.5.9.23.7.68.9.8..3.6.2946258173864.7..15312564987579....64",
            "",
            bug_plus_one,
            bugs,
            Technique::BugPlusOne,
            5.6,
            "r5c3-5 r5c3-7",
        );
        assert_eq!(s.cells, vec![cell_of("r5c3")]);
    }

    #[test]
    fn bug_type_2() {
        // BUG type 2: r9c1,r8c4,r8c6 on 6
        se_step(
            "800000000000010900000753048508030097006070800170060204320985000004020000000000001",
            "81..9.7.24.7.1.96...2753148548.3.6972.6.7.81.17..6.2.4321985476..4.2..89.8..4..21",
            "",
            super::bug_type_2,
            bugs,
            Technique::BugType2,
            5.7,
            "r8c1-6 r8c2-6 r9c4-6 r9c6-6",
        );
    }

    #[test]
    fn bug_type_3() {
        // BUG type 3: r3c3,r3c8 on 4, 7, with a naked pair: 5.8
        se_step(
            "100902003000000000000805000070020030005000200001567400049000670000709000010346020",
            "1..9728.38..6.4..2...8.5...97..2853..85.932.72315674893492.167....7.93...1.34692.",
            "r1c8-6 r2c8-1 r3c1-6 r3c2-6 r3c3-46 r3c8-1 r3c9-1 r8c2-5 r8c3-6 r8c8-5 r8c9-58",
            super::bug_type_3,
            bugs,
            Technique::BugType3,
            5.8,
            "r3c7-7 r3c9-4",
        );
        // BUG type 3: r3c6,r3c8 on 6, 7, 9, with a naked triple: 5.9
        se_step(
            "502000608003902500000000000030207010050000020400000009060519080090000060301080902",
            "542371698.839.25.1.1....2...382.741515.....2642.1..8.9264519.8.895723164371.8.952",
            "r3c1-6 r3c3-7 r3c4-4 r3c5-6 r3c6-4 r5c5-4 r6c5-6",
            super::bug_type_3,
            bugs,
            Technique::BugType3,
            5.9,
            "r3c4-6 r3c9-7",
        );
    }

    #[test]
    fn bug_type_4() {
        // BUG type 4: r3c4,r3c7 on 7
        se_step(
            "000000004807030190000000060008240503000050000103068200090000000024070609600000000",
            "..6..9..4847632195..9....6.96824751347215398615396824779..26.3.32487165968.39....",
            "r1c7-7",
            super::bug_type_4,
            bugs,
            Technique::BugType4,
            5.7,
            "r3c4-4 r3c7-3",
        );
    }

    #[test]
    fn a_rectangle_needs_two_boxes() {
        // Three corners 1/2 and the fourth 1/2/3 on two boxes: the fourth is
        // 3. On four boxes the digits could not swap: no unique rectangle.
        let open = |marks: &[(&str, Digits)]| {
            let mut cands = [ALL_DIGITS; 81];
            for &(c, m) in marks {
                cands[cell_of(c)] = m;
            }
            MarkedGrid::from_parts([0; 81], cands)
        };
        let b = open(&[("r1c1", 3), ("r1c2", 3), ("r4c1", 3), ("r4c2", 7)]);
        let s = unique_rectangle_1(&b).expect("a unique rectangle");
        assert_eq!(elims_of(&s), "r4c2-1 r4c2-2");
        assert!((s.rating() - 4.5).abs() < 1e-9);
        let b = open(&[("r1c1", 3), ("r1c4", 3), ("r4c1", 3), ("r4c4", 7)]);
        assert!(unique_loops(&b).filter(|s| s.cells.len() == 4).is_none());
    }

    #[test]
    fn subsets_come_in_increasing_order() {
        let v: Vec<u32> = subsets(5, 3).collect();
        assert_eq!(v.len(), 10);
        assert!(v.windows(2).all(|w| w[0] < w[1]));
        assert!(v.iter().all(|m| m.count_ones() == 3 && *m < 32));
        assert_eq!(subsets(4, 0).collect::<Vec<_>>(), vec![0]);
        assert_eq!(subsets(0, 0).count(), 0);
        assert_eq!(subsets(3, 3).collect::<Vec<_>>(), vec![7]);
    }

    /// A board from SE's 729-character pencil marks (a lone candidate is a
    /// value).
    fn from_marks(m: &str) -> MarkedGrid {
        let m = m.as_bytes();
        let mut values = [0u8; 81];
        let mut cands = [0 as Digits; 81];
        for c in 0..81 {
            for d in 1..=9u8 {
                if m[c * 9 + d as usize - 1] == b'0' + d {
                    cands[c] |= bit(d);
                }
            }
            if count(cands[c]) == 1 {
                values[c] = cands[c].trailing_zeros() as u8 + 1;
            }
        }
        MarkedGrid::from_parts(values, cands)
    }

    /// Compares both producers with SE on the boards of SE's own solving
    /// paths. `UL_CASES` names a file of lines `kind<TAB>marks<TAB>rating
    /// <TAB>eliminations<TAB>SE's step`: `kind` UL or BUG for a board where
    /// SE's step is of that producer (its eliminations the difference with
    /// the next board), AFTER_UL or AFTER_BUG where SE's step comes from a
    /// later producer (so this one must find nothing); `marks` is serate's
    /// `--before='%m'`.
    #[test]
    #[ignore = "needs a file of SE's boards (UL_CASES)"]
    fn agrees_with_se_on_its_boards() {
        let path = std::env::var("UL_CASES").unwrap_or_default();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let (mut ok, mut bad) = (0, 0);
        for line in text.lines() {
            let f: Vec<&str> = line.split('\t').collect();
            let (kind, marks, rating, elims, name) = (f[0], f[1], f[2], f[3], f[4]);
            let b = from_marks(marks);
            let got = match kind {
                "UL" | "AFTER_UL" => unique_loops(&b),
                _ => bugs(&b),
            };
            let mine = got
                .as_ref()
                .map(|s| (format!("{:.1}", s.rating()), elims_of(s)));
            let want =
                (!kind.starts_with("AFTER")).then(|| (rating.to_string(), elims.to_string()));
            if mine == want {
                ok += 1;
            } else {
                bad += 1;
                if bad <= 40 {
                    eprintln!(
                        "{kind} {marks}\n  SE  : {rating} {name} [{elims}]\n  ours: {:?}",
                        got.map(|s| s.to_string())
                    );
                }
            }
        }
        eprintln!("{ok} agree, {bad} differ");
        assert_eq!(bad, 0);
    }
}
