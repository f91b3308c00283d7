//! The canonical form of a 9x9 Sudoku grid, so that equivalent puzzles get
//! one rating.
//!
//! ## The group
//!
//! Two 9x9 grids are equivalent when one becomes the other by
//!
//! * transposition (rows become columns), or not;
//! * a permutation of the three bands (groups of three rows), and of the
//!   three rows inside each band;
//! * a permutation of the three stacks (groups of three columns), and of the
//!   three columns inside each stack;
//! * a relabelling of the nine digits (empty cells stay empty).
//!
//! That is 2 * 6^4 * 6^4 = 3,359,232 geometric transforms times 9! digit
//! permutations; a [`GridTransform`] is one element: where each cell goes and
//! what each digit becomes.
//!
//! ## The canonical form
//!
//! The canonical form is the *minlex* image: read a grid row by row as 81
//! values, empty = 0, and take the lexicographically smallest image over the
//! whole group. For one geometric transform the best relabelling is the one
//! that numbers the digits 1, 2, 3, ... in order of first appearance, so the
//! minimum runs over the geometric transforms only, each with that
//! relabelling. Two grids have the same form exactly when they are
//! equivalent: the form is an image of the grid, and equivalent grids have
//! the same set of images. Any 81 values 0..=9 work: puzzles, partial and
//! full grids, also grids that break the rules of Sudoku. Values above 9 are
//! the caller's error: debug builds panic, release builds read them as
//! empty (and the returned transform then does not reproduce the form).
//!
//! ## The algorithm
//!
//! The form is built one row at a time. Before row `k` the search holds the
//! *candidates*: sets of transforms that all give the smallest possible rows
//! `0..k`. A candidate (`Cand` below) is
//!
//! * the orientation (transposed or not) and the original rows placed so far
//!   (which fixes the bands used and, in the middle of a band, the band);
//! * the digit labels given so far;
//! * the column freedom left, as an ordered partition of the nine columns
//!   that respects the stacks: the stacks in result order, where adjacent
//!   stacks may be *tied* (still interchangeable as wholes), and inside each
//!   stack its columns in result order, where adjacent columns may be tied
//!   (in one *cell*, still interchangeable). Tied columns have equal values
//!   in every placed row, tied stacks equal values in corresponding columns,
//!   so every column order the partition allows gives the same rows `0..k`
//!   with the same labels.
//!
//! Row `k` tries, for every candidate, every row that may come next (any
//! row of an unused band when `k` starts a band, else the rest of the
//! current band), and finds the smallest images of that row the candidate's
//! column freedom allows, by a depth-first search over its stacks and cells
//! from left to right:
//!
//! * at a stack position with tied stacks left, it branches on which of
//!   them comes there, once per distinct content (the values of the row in
//!   each cell, as multisets). Once a stack is placed, a twin of it (same
//!   content) left in the tie comes next: the twin then shows exactly what
//!   the first showed, all its digits labelled, while any other stack shows
//!   at least as much (first-appearance numbering is the smallest injective
//!   labelling), and strictly more unless it is a twin too;
//! * a cell's smallest arrangement is known: its empty columns, then its
//!   labelled digits by label, then its new digits, the most frequent first
//!   (`x x y` shows `L L L+1`, smaller than `L L+1 L+1`); equal digits stay
//!   together. Only distinct new digits of equal count tie (in a cell of at
//!   most three: two or three digits seen once), and every order of them is
//!   a branch: they show the same values but get different labels.
//!
//! Columns of a cell with the same value, and twin stacks, stay tied in the
//! refined candidate, so no branch is ever needed for them; every other
//! difference of order is either decided by the values or branched on. The
//! search prunes as soon as a cell shows more than the best row found so far
//! (for this `k`, over all candidates); a smaller row replaces the
//! candidates collected. So after row `k` the candidates are exactly the
//! transforms that reach the smallest rows `0..k+1` (as sets: all the
//! column orders a partition allows), and after row 8 any of them gives the
//! form, with the returned transform.
//!
//! Three shortcuts leave the result alone. A row with `z` empty cells shows
//! at most `z` leading zeros, so it is not searched when the best row so far
//! has more. Rows are tried fewest givens first, so that a good best row
//! comes early. A candidate with every column in place (no tie) needs no
//! search, only the values. Candidates that reach the same state by placing
//! the same rows in another order (empty rows, rows equal up to their ties)
//! have the same future and are merged (sorted by a packed key, duplicates
//! dropped), which keeps the empty grid and grids of few givens small.
//!
//! ## Cost
//!
//! Nothing is allocated but the two candidate lists, and their size is
//! bounded by the group: one search branches at most 6 * 6^3 = 1296 ways (a
//! row of nine new digits on a free candidate, where the stack order and
//! each stack's column order decide the labels), and the candidates after a
//! row are disjoint sets of transforms. A puzzle with few givens starts
//! with empty or sparse rows, which hardly branch, so it keeps a handful of
//! candidates; the `canon_speed` example measures a few microseconds a
//! puzzle on the 17-clue list and on hard puzzles (a few tens at worst, when
//! new digits share a cell in the first rows: `123` in one cell and `456`
//! in another keep 36 label orders until a later row tells them apart).
//! Full grids are the dearest: every row and column of a valid grid shows
//! `123456789`, so 18 * 1296 = 23,328 candidates try row 1: under a
//! millisecond. The empty grid and a grid with one given merge down to a
//! few dozen candidates a row (tens of microseconds).

#![allow(clippy::needless_range_loop)] // rows, columns and positions are walked by index

use dancer_core::rng::{Draw, SplitMix64};

/// A transform of the 9x9 Sudoku group: where each cell goes and what each
/// digit becomes.
///
/// ```text
/// cell:  [u8; 81]  cell[i] = the cell (0..81, row-major) that cell i goes to
/// digit: [u8; 10]  digit[d] = the digit that d becomes; digit[0] = 0
/// ```
///
/// Both are permutations, and `cell` is one of the 3,359,232 geometric
/// transforms (the constructors keep that so).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridTransform {
    cell: [u8; 81],
    digit: [u8; 10],
}

impl Default for GridTransform {
    fn default() -> Self {
        GridTransform::identity()
    }
}

impl GridTransform {
    /// The transform that changes nothing.
    pub fn identity() -> Self {
        let mut cell = [0u8; 81];
        for (i, c) in cell.iter_mut().enumerate() {
            *c = i as u8;
        }
        let mut digit = [0u8; 10];
        for (d, x) in digit.iter_mut().enumerate() {
            *x = d as u8;
        }
        GridTransform { cell, digit }
    }

    /// The image of cell `c` (0..81, row-major). Panics if `c >= 81`.
    pub fn cell(&self, c: usize) -> usize {
        self.cell[c] as usize
    }

    /// The image of digit `d` (1..=9; 0 stays 0; values above 9 are left as
    /// they are).
    pub fn digit(&self, d: u8) -> u8 {
        self.digit.get(d as usize).copied().unwrap_or(d)
    }

    /// The inverse transform: `t.then(&t.inverse())` is the identity.
    pub fn inverse(&self) -> GridTransform {
        let mut inv = GridTransform::identity();
        for i in 0..81 {
            inv.cell[self.cell[i] as usize] = i as u8;
        }
        for d in 0..10 {
            inv.digit[self.digit[d] as usize] = d as u8;
        }
        inv
    }

    /// `self` then `other`: `a.then(&b).apply(g) == b.apply(&a.apply(g))`.
    pub fn then(&self, other: &GridTransform) -> GridTransform {
        let mut t = GridTransform::identity();
        for i in 0..81 {
            t.cell[i] = other.cell[self.cell[i] as usize];
        }
        for d in 0..10 {
            t.digit[d] = other.digit[self.digit[d] as usize];
        }
        t
    }

    /// Applies it to a grid of 81 cells: `out[self.cell(i)] =
    /// self.digit(g[i])`.
    pub fn apply(&self, g: &[u8; 81]) -> [u8; 81] {
        let mut out = [0u8; 81];
        for i in 0..81 {
            out[self.cell[i] as usize] = self.digit(g[i]);
        }
        out
    }

    /// A random transform from a seed, for tests: transposed or not, random
    /// band, row, stack and column permutations and a random digit
    /// permutation, so that every element of the group can come out. The
    /// generator is splitmix64; the same seed gives the same transform.
    pub fn random(seed: u64) -> GridTransform {
        let mut rng = SplitMix64::new(seed);
        let transpose = rng.next_u64() & 1 == 1;
        let rows = line_perm(&mut rng);
        let cols = line_perm(&mut rng);
        let mut t = GridTransform::identity();
        for r in 0..9 {
            for c in 0..9 {
                let (r1, c1) = if transpose { (c, r) } else { (r, c) };
                t.cell[r * 9 + c] = rows[r1] * 9 + cols[c1];
            }
        }
        // Fisher-Yates on the digits 1..=9.
        for i in (2..=9).rev() {
            let j = 1 + (rng.next_u64() % i as u64) as usize;
            t.digit.swap(i, j);
        }
        t
    }

    /// Whether it maps rows to columns (and columns to rows); `false` when
    /// it maps rows to rows.
    pub fn is_transposed(&self) -> bool {
        // Cells 0 and 1 share row 0; their images share a row exactly when
        // rows go to rows.
        self.cell[0] / 9 != self.cell[1] / 9
    }
}

/// One of the six permutations of 0..3.
fn perm3(rng: &mut SplitMix64) -> [u8; 3] {
    ORDERS3[(rng.next_u64() % 6) as usize].map(|i| i as u8)
}

/// A permutation of 0..9 that keeps groups of three together (bands or
/// stacks): `p[line]` is where the line goes.
fn line_perm(rng: &mut SplitMix64) -> [u8; 9] {
    let outer = perm3(rng);
    let mut p = [0u8; 9];
    for b in 0..3 {
        let inner = perm3(rng);
        for i in 0..3 {
            p[b * 3 + i] = outer[b] * 3 + inner[i];
        }
    }
    p
}

/// The bits of [`Cand::tie`] that tie positions inside stacks: bit `p` ties
/// position `p` to `p + 1`, for `p % 3 != 2`.
const CELL_TIES: u16 = 0b011_011_011;
/// The bit of [`Cand::tie`] that ties stack position `s` (0 or 1) to `s + 1`.
const fn stack_tie(s: usize) -> u16 {
    1 << (9 + s)
}

/// A candidate: the transforms that share an orientation, the rows placed,
/// the labels given and an ordered partition of the columns (see the module
/// documentation). Rows `0..k` of every one of them are the smallest.
///
/// ```text
/// rows:  [u8; 9]   rows[i] = original row (of the oriented grid) at result row i < k
/// used:  u16       bit r: original row r placed
/// col:   [u8; 9]   col[p] = original column at result position p, in partition order
/// tie:   u16       bits 0..9:  bit p (p % 3 != 2): positions p, p+1 in one cell
///                  bits 9, 10: stack positions 0-1, 1-2 tied
/// label: [u8; 10]  label[d] = the label of digit d, 0 if not given yet
/// next:  u8        the next label to give
/// t:     u8        1 if transposed
/// key:   u128      everything that decides the future, packed (filled in
///                  just before merging; the order of `rows` is left out):
///   bit 0        t
///   bits 1..10   used
///   bits 10..21  tie
///   bits 21..57  col, 4 bits a position
///   bits 57..93  label[1..10], 4 bits a digit
/// ```
#[derive(Clone, Copy)]
struct Cand {
    key: u128,
    rows: [u8; 9],
    col: [u8; 9],
    label: [u8; 10],
    used: u16,
    tie: u16,
    next: u8,
    t: u8,
}

impl Cand {
    fn pack(&mut self) {
        let mut key = self.t as u128 | (self.used as u128) << 1 | (self.tie as u128) << 10;
        for p in 0..9 {
            key |= (self.col[p] as u128) << (21 + 4 * p);
        }
        for d in 1..10 {
            key |= (self.label[d] as u128) << (57 + 4 * (d - 1));
        }
        self.key = key;
    }
}

/// The state of one search for the smallest image of one row.
///
/// ```text
/// row:    the values shown at result positions 0..pos
/// chosen: the original column at each result position
/// label:  the labels, with those this row gave so far
/// placed: the old stack position placed at each result stack position
/// slots:  bit s: old stack position s placed
/// tie:    cell ties of the refined candidate so far (bits as in `Cand::tie`)
/// next:   the next label to give
/// lt:     the prefix is already smaller than the best row
/// ```
#[derive(Clone, Copy)]
struct Partial {
    row: [u8; 9],
    chosen: [u8; 9],
    label: [u8; 10],
    placed: [u8; 3],
    slots: u8,
    tie: u16,
    next: u8,
    lt: bool,
}

/// What one row `k` of the search keeps across candidates: the smallest row
/// so far, its leading zeros, a count of its changes, and the candidates
/// that reach it.
struct Step {
    best: [u8; 9],
    lead: u8,
    changes: u32,
    out: Vec<Cand>,
}

impl Step {
    /// Starts row `k`: no best row yet.
    fn start(&mut self) {
        self.best = [u8::MAX; 9];
        self.lead = 0;
        self.out.clear();
    }

    /// Records a candidate whose row is `row`: smaller than the best (`lt`)
    /// or equal to it.
    fn record(&mut self, c: Cand, row: &[u8; 9], lt: bool) {
        if lt {
            self.best = *row;
            self.lead = row.iter().take_while(|&&v| v == 0).count() as u8;
            self.changes += 1;
            self.out.clear();
        }
        self.out.push(c);
    }
}

/// A row on a candidate whose columns are all in place (no tie): no choice,
/// just the values.
fn fixed_row(base: &Cand, vals: &[u8; 9], row: u8, k: usize, step: &mut Step) {
    let mut label = base.label;
    let mut next = base.next;
    let mut out = [0u8; 9];
    let mut lt = false;
    for pos in 0..9 {
        let d = vals[base.col[pos] as usize];
        let v = render(d, &label, next);
        if !lt {
            if v > step.best[pos] {
                return;
            }
            lt = v < step.best[pos];
        }
        if v == next && d != 0 {
            label[d as usize] = v;
            next += 1;
        }
        out[pos] = v;
    }
    let mut c = *base;
    c.rows[k] = row;
    c.used |= 1 << row;
    c.label = label;
    c.next = next;
    step.record(c, &out, lt);
}

/// One candidate and one original row to place next.
struct RowSearch<'a> {
    base: &'a Cand,
    /// Values of the row by original column.
    vals: [u8; 9],
    /// Per old stack position in a tie: the values of its columns, sorted
    /// inside each cell (equal signatures: interchangeable stacks).
    sig: [[u8; 3]; 3],
    row: u8,
    k: usize,
}

/// The value a digit shows: 0 for empty, its label, or the next label.
#[inline]
fn render(d: u8, label: &[u8; 10], next: u8) -> u8 {
    if d == 0 {
        0
    } else if label[d as usize] != 0 {
        label[d as usize]
    } else {
        next
    }
}

/// The orders of 2 and 3 things.
const ORDERS2: [[usize; 3]; 2] = [[0, 1, 2], [1, 0, 2]];
const ORDERS3: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

impl RowSearch<'_> {
    fn new(base: &Cand, vals: [u8; 9], row: u8, k: usize) -> RowSearch<'_> {
        let mut sig = [[0u8; 3]; 3];
        if base.tie & (stack_tie(0) | stack_tie(1)) != 0 {
            for s in 0..3 {
                let mut v = [0u8; 3];
                for i in 0..3 {
                    v[i] = vals[base.col[3 * s + i] as usize];
                }
                let t0 = base.tie & (1 << (3 * s)) != 0;
                let t1 = base.tie & (1 << (3 * s + 1)) != 0;
                if t0 && v[0] > v[1] {
                    v.swap(0, 1);
                }
                if t1 && v[1] > v[2] {
                    v.swap(1, 2);
                }
                if t0 && v[0] > v[1] {
                    v.swap(0, 1);
                }
                sig[s] = v;
            }
        }
        RowSearch {
            base,
            vals,
            sig,
            row,
            k,
        }
    }

    fn run(&self, step: &mut Step) {
        let p = Partial {
            row: [0; 9],
            chosen: [0; 9],
            label: self.base.label,
            placed: [0, 1, 2],
            slots: 0,
            tie: 0,
            next: self.base.next,
            lt: false,
        };
        self.stack(step, 0, p);
    }

    /// At the start of result stack position `s`: picks the old stack
    /// position to place there.
    fn stack(&self, step: &mut Step, s: usize, mut p: Partial) {
        if s == 3 {
            self.finish(step, &p);
            return;
        }
        let tie = self.base.tie;
        let mut lo = s;
        while lo > 0 && tie & stack_tie(lo - 1) != 0 {
            lo -= 1;
        }
        let mut hi = s;
        while hi < 2 && tie & stack_tie(hi) != 0 {
            hi += 1;
        }
        if lo == hi {
            p.placed[s] = s as u8;
            p.slots |= 1 << s;
            self.enter(step, s, p);
            return;
        }
        // A twin of the stack just placed comes next.
        if s > lo {
            let prev = self.sig[p.placed[s - 1] as usize];
            for ss in lo..=hi {
                if p.slots & (1 << ss) == 0 && self.sig[ss] == prev {
                    p.placed[s] = ss as u8;
                    p.slots |= 1 << ss;
                    self.enter(step, s, p);
                    return;
                }
            }
        }
        for ss in lo..=hi {
            if p.slots & (1 << ss) != 0 {
                continue;
            }
            if (lo..ss).any(|o| p.slots & (1 << o) == 0 && self.sig[o] == self.sig[ss]) {
                continue; // the same as an earlier choice
            }
            let mut q = p;
            q.placed[s] = ss as u8;
            q.slots |= 1 << ss;
            let changes = step.changes;
            self.enter(step, s, q);
            if step.changes != changes {
                // The new best row shares this prefix.
                p.lt = false;
            }
        }
    }

    /// Enters the stack placed at result stack position `s`. Empty in this
    /// row, it shows three zeros whatever its order, and keeps its cells.
    fn enter(&self, step: &mut Step, s: usize, mut p: Partial) {
        let base = 3 * p.placed[s] as usize;
        let cols = [
            self.base.col[base],
            self.base.col[base + 1],
            self.base.col[base + 2],
        ];
        if cols.iter().any(|&c| self.vals[c as usize] != 0) {
            self.cell(step, s, 0, p);
            return;
        }
        if !p.lt && step.best[3 * s..3 * s + 3].iter().any(|&w| w != 0) {
            p.lt = true;
        }
        p.chosen[3 * s..3 * s + 3].copy_from_slice(&cols);
        p.tie |= ((self.base.tie >> base) & 0b11) << (3 * s);
        if s < 2 {
            self.stack(step, s + 1, p);
        } else {
            self.finish(step, &p);
        }
    }

    /// The cell that starts at offset `a` of the stack placed at result
    /// stack position `s`: its smallest arrangement is its empty columns,
    /// then its labelled digits by label, then its new digits, the most
    /// frequent first (in a cell of at most three, only distinct new digits
    /// tie, and they are branched on).
    fn cell(&self, step: &mut Step, s: usize, a: usize, p: Partial) {
        let base = 3 * p.placed[s] as usize;
        let tie = self.base.tie;
        let mut b = a;
        while b < 2 && tie & (1 << (base + b)) != 0 {
            b += 1;
        }
        let m = b - a + 1;
        let pos0 = 3 * s + a;
        // Sort keys: 0 empty, the label, or 16 + (3 - count) * 16 + digit
        // for a new digit (most frequent first, equal digits together).
        let mut cols = [0u8; 3];
        let mut digs = [0u8; 3];
        let mut keys = [0u8; 3];
        for i in 0..m {
            let c = self.base.col[base + a + i];
            cols[i] = c;
            digs[i] = self.vals[c as usize];
        }
        let mut new = 0;
        for i in 0..m {
            let d = digs[i];
            keys[i] = if d == 0 {
                0
            } else if p.label[d as usize] != 0 {
                p.label[d as usize]
            } else {
                new += 1;
                let count = digs[..m].iter().filter(|&&e| e == d).count() as u8;
                16 + (3 - count) * 16 + d
            };
        }
        // Insertion sort of at most three, stable.
        let mut ord = [0usize, 1, 2];
        for i in 1..m {
            let mut j = i;
            while j > 0 && keys[ord[j - 1]] > keys[ord[j]] {
                ord.swap(j - 1, j);
                j -= 1;
            }
        }
        // The values shown, compared with the best row.
        let mut block = [0u8; 3];
        let mut next = p.next;
        let mut prev_key = 0u8;
        for i in 0..m {
            let k = keys[ord[i]];
            block[i] = if k < 16 {
                k
            } else {
                if i > 0 && k == prev_key {
                    next - 1
                } else {
                    next += 1;
                    next - 1
                }
            };
            prev_key = k;
        }
        let mut lt = p.lt;
        if !lt {
            for i in 0..m {
                let (v, w) = (block[i], step.best[pos0 + i]);
                if v != w {
                    if v > w {
                        return;
                    }
                    lt = true;
                    break;
                }
            }
        }
        // Distinct new digits (two or three, all the new ones) tie: every
        // order of them is a smallest arrangement.
        let distinct_new = new >= 2 && keys[ord[m - new]] >= 16 + 2 * 16;
        let orders: &[[usize; 3]] = match (distinct_new, new) {
            (true, 2) => &ORDERS2,
            (true, 3) => &ORDERS3,
            _ => &ORDERS3[..1],
        };
        let first_new = m - new;
        for o in orders {
            let mut n = p;
            n.lt = lt;
            for i in 0..m {
                let j = if i >= first_new && distinct_new {
                    ord[first_new + o[i - first_new]]
                } else {
                    ord[i]
                };
                let d = digs[j];
                n.row[pos0 + i] = block[i];
                n.chosen[pos0 + i] = cols[j];
                if d != 0 && n.label[d as usize] == 0 {
                    n.label[d as usize] = block[i];
                }
                if i > 0 && digs[j] == self.vals[n.chosen[pos0 + i - 1] as usize] {
                    n.tie |= 1 << (pos0 + i - 1);
                }
            }
            n.next = next;
            let changes = step.changes;
            if b < 2 {
                self.cell(step, s, b + 1, n);
            } else if s < 2 {
                self.stack(step, s + 1, n);
            } else {
                self.finish(step, &n);
            }
            if step.changes != changes {
                lt = false;
            }
        }
    }

    /// A smallest image of the row within the candidate: records the refined
    /// candidate.
    fn finish(&self, step: &mut Step, p: &Partial) {
        let old = self.base;
        let mut tie = p.tie;
        for s in 0..2 {
            if old.tie & stack_tie(s) != 0
                && self.sig[p.placed[s] as usize] == self.sig[p.placed[s + 1] as usize]
            {
                tie |= stack_tie(s);
            }
        }
        let mut c = *old;
        c.rows[self.k] = self.row;
        c.used |= 1 << self.row;
        c.col = p.chosen;
        c.tie = tie;
        c.label = p.label;
        c.next = p.next;
        step.record(c, &p.row, p.lt);
    }
}

/// The canonical form of a 9x9 grid and a transform that takes the grid to
/// it: `t.apply(g) == canon`. Two grids get the same canonical form exactly
/// when one is a transform of the other. Works for any 81 cells with values
/// 0..=9 (puzzles, partial and full grids; it need not be a valid Sudoku);
/// values above 9 are the caller's error (see the module documentation).
///
/// The form is the lexicographically smallest image, empty = 0, digits
/// numbered in order of first appearance.
pub fn canonical(g: &[u8; 81]) -> ([u8; 81], GridTransform) {
    debug_assert!(g.iter().all(|&v| v <= 9), "grid values must be 0..=9");
    // Both orientations, by rows.
    let mut grids = [[[0u8; 9]; 9]; 2];
    for r in 0..9 {
        for c in 0..9 {
            let v = g[r * 9 + c];
            let v = if v > 9 { 0 } else { v };
            grids[0][r][c] = v;
            grids[1][c][r] = v;
        }
    }
    // Rows are tried fewest givens first: the best row tends to come early,
    // and the rest are cut off sooner.
    let mut order = [[0u8, 1, 2, 3, 4, 5, 6, 7, 8]; 2];
    let mut empties = [[0u8; 9]; 2];
    for t in 0..2 {
        empties[t] = grids[t].map(|row| row.iter().filter(|&&v| v == 0).count() as u8);
        order[t].sort_by_key(|&r| 9 - empties[t][r as usize]);
    }
    let mut cur: Vec<Cand> = Vec::with_capacity(16);
    for t in 0..2u8 {
        let c = Cand {
            key: 0,
            rows: [0; 9],
            col: [0, 1, 2, 3, 4, 5, 6, 7, 8],
            label: [0; 10],
            used: 0,
            tie: CELL_TIES | stack_tie(0) | stack_tie(1),
            next: 1,
            t,
        };
        cur.push(c);
    }
    let mut step = Step {
        best: [u8::MAX; 9],
        lead: 0,
        changes: 0,
        out: Vec::with_capacity(16),
    };
    let mut form = [0u8; 81];
    for k in 0..9 {
        step.start();
        for cand in &cur {
            let rows: u16 = if k % 3 == 0 {
                let mut m = 0u16;
                for b in 0..3 {
                    if cand.used & (0b111 << (3 * b)) == 0 {
                        m |= 0b111 << (3 * b);
                    }
                }
                m
            } else {
                let b = cand.rows[k - 1] / 3;
                (0b111 << (3 * b)) & !cand.used
            };
            let t = cand.t as usize;
            for &r in &order[t] {
                // A row shows at most as many leading zeros as it has empty
                // cells: too few, and it cannot reach the best row.
                if rows & (1 << r) == 0 || empties[t][r as usize] < step.lead {
                    continue;
                }
                let vals = &grids[t][r as usize];
                if cand.tie == 0 {
                    fixed_row(cand, vals, r, k, &mut step);
                } else {
                    RowSearch::new(cand, *vals, r, k).run(&mut step);
                }
            }
        }
        form[9 * k..9 * k + 9].copy_from_slice(&step.best);
        // Row 0 cannot repeat a state (each comes from its own orientation
        // and row); later rows merge the states reached twice.
        if k > 0 && step.out.len() > 1 {
            for c in step.out.iter_mut() {
                c.pack();
            }
            step.out.sort_unstable_by_key(|c| c.key);
            step.out.dedup_by_key(|c| c.key);
        }
        std::mem::swap(&mut cur, &mut step.out);
    }
    let c = &cur[0];
    let mut t = GridTransform::identity();
    for i in 0..9 {
        for j in 0..9 {
            let (r, col) = (c.rows[i] as usize, c.col[j] as usize);
            let orig = if c.t == 0 { r * 9 + col } else { col * 9 + r };
            t.cell[orig] = (i * 9 + j) as u8;
        }
    }
    // Digits given labels keep them; the absent ones take the rest in order.
    let mut next = c.next;
    for d in 1..10 {
        t.digit[d] = if c.label[d] != 0 {
            c.label[d]
        } else {
            next += 1;
            next - 1
        };
    }
    (form, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Test grids, 81 characters, `.` empty.
    const GRIDS: &[&str] = &[
        // 17-clue puzzles (lines 1, 2, 1000, 27656 and 49158 of 17_clue.txt)
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
        ".................1.....2.3......3.2...4....5...6.1.....3......6.7..8...952.7.....",
        ".................1..2.34...............1.5.6...78..2.......94.8.5.......16..7....",
        "..............1..2.34....5.......6.1....3.....7.8........4..39...6......2.1..7...",
        "........1.....2.34.56..........4.5....4.1.....7....8.....6....2...8..9..4........",
        // hard puzzles (lines 1, 700 and 1096 of magictour_top1465.txt)
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        "..3.5.4..7...6.....5.8...6.5....3..4.1..7..8.2..4....7.4...8.5.....4...9..6.1.2..",
        "7.....3..1...5.9..4..6....1.....98..264.........7...5.6....8.....2.6..9..3..4...2",
        // the empty grid, one given
        ".................................................................................",
        "........................................5........................................",
        // full grids: an ordinary one, and one of many automorphisms
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        "123456789456789123789123456231564897564897231897231564312645978645978312978312645",
        // not Sudoku: repeated digits in rows, columns and boxes
        "11.......11.......2.........1....1.....2......3..3.....1.....1.9.......9........9",
    ];

    fn parse(s: &str) -> [u8; 81] {
        let mut g = [0u8; 81];
        for (i, c) in s.bytes().enumerate() {
            g[i] = if c == b'.' { 0 } else { c - b'0' };
        }
        g
    }

    /// A random grid: each cell given with probability `given` (in 1/256),
    /// its value one of `1..=digits`.
    fn random_grid(seed: u64, given: u64, digits: u64) -> [u8; 81] {
        let mut rng = SplitMix64::new(seed);
        let mut g = [0u8; 81];
        for v in g.iter_mut() {
            let x = rng.next_u64();
            if x & 255 < given {
                *v = 1 + ((x >> 8) % digits) as u8;
            }
        }
        g
    }

    /// The minlex form by brute force: every one of the 3,359,232 geometric
    /// transforms, each with its first-appearance labelling.
    fn brute(g: &[u8; 81]) -> [u8; 81] {
        const P: [[usize; 3]; 6] = [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ];
        let mut orders = Vec::with_capacity(1296);
        for o in P {
            for a in P {
                for b in P {
                    for c in P {
                        let inner = [a, b, c];
                        let mut x = [0usize; 9];
                        for i in 0..9 {
                            x[i] = 3 * o[i / 3] + inner[i / 3][i % 3];
                        }
                        orders.push(x);
                    }
                }
            }
        }
        let mut best = [u8::MAX; 81];
        let mut cur = [0u8; 81];
        for t in 0..2 {
            let at = |r: usize, c: usize| if t == 0 { g[r * 9 + c] } else { g[c * 9 + r] };
            for rows in &orders {
                'cols: for cols in &orders {
                    let mut label = [0u8; 10];
                    let mut next = 1;
                    let mut lt = false;
                    for i in 0..81 {
                        let d = at(rows[i / 9], cols[i % 9]);
                        let v = if d == 0 {
                            0
                        } else {
                            if label[d as usize] == 0 {
                                label[d as usize] = next;
                                next += 1;
                            }
                            label[d as usize]
                        };
                        if !lt {
                            if v > best[i] {
                                continue 'cols;
                            }
                            lt = v < best[i];
                        }
                        cur[i] = v;
                    }
                    if lt {
                        best = cur;
                    }
                }
            }
        }
        best
    }

    /// `canonical` of `g`, checked to be reproduced by its transform.
    fn canon(g: &[u8; 81]) -> [u8; 81] {
        let (form, t) = canonical(g);
        assert_eq!(t.apply(g), form, "the transform does not give the form");
        form
    }

    #[test]
    fn canon_transform_laws() {
        let g = parse(GRIDS[0]);
        let id = GridTransform::identity();
        assert_eq!(id.apply(&g), g);
        assert!(!id.is_transposed());
        let mut transposed = 0;
        for seed in 0..200u64 {
            let a = GridTransform::random(seed);
            let b = GridTransform::random(seed ^ 0xABCD_EF01);
            let c = GridTransform::random(seed.wrapping_mul(31) + 7);
            assert_eq!(a.then(&a.inverse()), id);
            assert_eq!(a.inverse().then(&a), id);
            assert_eq!(a.inverse().inverse(), a);
            assert_eq!(id.then(&a), a);
            assert_eq!(a.then(&id), a);
            assert_eq!(a.then(&b).apply(&g), b.apply(&a.apply(&g)));
            assert_eq!(a.then(&b).then(&c), a.then(&b.then(&c)));
            assert_eq!(a.inverse().apply(&a.apply(&g)), g);
            assert_eq!(a.then(&b).inverse(), b.inverse().then(&a.inverse()));
            assert_eq!(a.digit(0), 0);
            assert_eq!(a.is_transposed(), a.inverse().is_transposed());
            assert_eq!(
                a.then(&b).is_transposed(),
                a.is_transposed() != b.is_transposed()
            );
            transposed += a.is_transposed() as usize;
        }
        assert!(
            (50..150).contains(&transposed),
            "{transposed} of 200 transposed"
        );
    }

    /// Random transforms are elements of the group: lines go to lines,
    /// boxes to boxes, bands to bands or stacks; and every choice comes out.
    #[test]
    fn canon_random_transforms_are_in_the_group() {
        let mut first_rows = 0u16;
        let mut first_digits = 0u16;
        for seed in 0..500u64 {
            let t = GridTransform::random(seed);
            let tr = t.is_transposed();
            for r in 0..9 {
                let img: Vec<usize> = (0..9).map(|c| t.cell(r * 9 + c)).collect();
                if tr {
                    assert!(img.iter().all(|&x| x % 9 == img[0] % 9));
                } else {
                    assert!(img.iter().all(|&x| x / 9 == img[0] / 9));
                }
            }
            for b in 0..9 {
                let cells: Vec<usize> = (0..9)
                    .map(|i| t.cell((b / 3 * 3 + i / 3) * 9 + b % 3 * 3 + i % 3))
                    .collect();
                let bx = |x: usize| x / 27 * 3 + x % 9 / 3;
                assert!(cells.iter().all(|&x| bx(x) == bx(cells[0])));
            }
            let mut seen = [false; 81];
            for c in 0..81 {
                assert!(!seen[t.cell(c)]);
                seen[t.cell(c)] = true;
            }
            let mut ds = 0u16;
            for d in 1..=9 {
                ds |= 1 << t.digit(d);
            }
            assert_eq!(ds, 0b11_1111_1110);
            first_rows |= 1 << (t.cell(0) / 9);
            first_rows |= 1 << (t.cell(0) % 9);
            first_digits |= 1 << t.digit(1);
        }
        assert_eq!(first_rows, 0x1FF);
        assert_eq!(first_digits, 0b11_1111_1110);
    }

    #[test]
    fn canon_same_form_for_every_transform() {
        for s in GRIDS {
            let g = parse(s);
            let form = canon(&g);
            assert_eq!(canon(&form), form, "{s}: the form is not a fixed point");
            for seed in 0..60u64 {
                let t = GridTransform::random(seed);
                assert_eq!(canon(&t.apply(&g)), form, "{s}, seed {seed}");
            }
        }
    }

    #[test]
    fn canon_forms_of_known_grids() {
        assert_eq!(canon(&[0; 81]), [0; 81]);
        let mut one = [0u8; 81];
        one[80] = 1;
        assert_eq!(canon(&parse(GRIDS[9])), one);
        // The 17-clue file is in minlex form already.
        for s in &GRIDS[..5] {
            assert_eq!(canon(&parse(s)), parse(s), "{s}");
        }
        // Values above 9 are read as empty in release builds.
        if !cfg!(debug_assertions) {
            let mut g = parse(GRIDS[0]);
            g[0] = 12;
            assert_eq!(canonical(&g).0, canon(&parse(GRIDS[0])));
        }
    }

    #[test]
    fn canon_different_grids_differ() {
        let forms: Vec<[u8; 81]> = GRIDS.iter().map(|s| canon(&parse(s))).collect();
        for i in 0..forms.len() {
            for j in 0..i {
                assert_ne!(forms[i], forms[j], "{} and {}", GRIDS[i], GRIDS[j]);
            }
        }
        // One given moved to another cell of its row.
        let g = parse(GRIDS[5]);
        let mut h = g;
        h.swap(0, 1);
        assert_ne!(canon(&g), canon(&h));
    }

    /// The grid of many automorphisms (`GRIDS[11]`) with only the digits
    /// of `keep` (bit d: digit d kept).
    fn symmetric_part(keep: u16) -> [u8; 81] {
        parse(GRIDS[11]).map(|v| if keep & (1 << v) != 0 { v } else { 0 })
    }

    /// Against the brute force on the test grids and a few random ones
    /// (about a second with the workspace's optimised test profile).
    #[test]
    fn canon_matches_brute_force() {
        for s in [GRIDS[0], GRIDS[5], GRIDS[9], GRIDS[11], GRIDS[12]] {
            let g = parse(s);
            assert_eq!(canon(&g), brute(&g), "{s}");
        }
        for (seed, given, digits) in [(1, 60, 9), (2, 200, 3), (3, 250, 9)] {
            let g = random_grid(seed, given, digits);
            assert_eq!(canon(&g), brute(&g), "{g:?}");
        }
        let g = GridTransform::random(5).apply(&symmetric_part(0b1110));
        assert_eq!(canon(&g), brute(&g), "{g:?}");
    }

    /// The 17-clue list stores its puzzles in another canonical form: the
    /// pattern of givens smallest first, then the digits. Mostly that is
    /// the minlex form too, but not always; line 3769 has a smaller image
    /// (row 2 `..1.34...` where the list has `..3..4...`: a smaller digit
    /// first, though one more given).
    #[test]
    fn canon_is_minlex_by_value_not_by_pattern() {
        let g = parse(
            "................12..3..4...........5....4.36.78..1.........5..4.1...3....2.....8.",
        );
        let form = canon(&g);
        assert!(form < g);
        assert_eq!(form[..27], parse("................12..1.34...")[..27]);
        assert_eq!(form, brute(&g));
    }

    /// The brute force on many random grids of every density and few or
    /// many digits (repeated digits, equal columns and stacks: many ties).
    #[test]
    #[ignore = "about a minute: 3.4 million transforms for each of 366 grids"]
    fn canon_matches_brute_force_many() {
        let mut n = 0;
        for seed in 0..300u64 {
            let given = [8, 30, 60, 100, 160, 230, 256][seed as usize % 7];
            let digits = [1, 2, 3, 9][(seed / 7) as usize % 4];
            let g = random_grid(seed, given, digits);
            assert_eq!(canon(&g), brute(&g), "seed {seed}: {g:?}");
            n += 1;
        }
        for s in GRIDS {
            let g = parse(s);
            assert_eq!(canon(&g), brute(&g), "{s}");
            n += 1;
        }
        for seed in 0..40u64 {
            let keep = (SplitMix64::new(seed).next_u64() & 0b11_1111_1110) as u16;
            let g = GridTransform::random(seed).apply(&symmetric_part(keep));
            assert_eq!(canon(&g), brute(&g), "seed {seed}: {g:?}");
            n += 1;
        }
        assert!(n > 340);
    }
}
