//! A specialised bitboard solver for standard 9x9 Sudoku.
//!
//! # Design
//!
//! The state is a set of candidate bitboards, one per digit and band (a band
//! is three rows; 27 bits, bit `row_in_band * 9 + column`), 27 words in all,
//! plus a mask of the cells already placed. It is about 300 bytes and is
//! copied by value at each branch point: no allocation during the search.
//!
//! Propagation runs to a fixpoint, cheapest rules first:
//!
//! * **Band update** of one digit-band, whenever it changed since its last
//!   update (a fully unrolled sweep over the 27 digit-bands, with constant
//!   indices): the digit must occupy one *triad* (the three cells of a row
//!   inside a box) per row and per box of the band, i.e. a 3x3 permutation
//!   of triads. A table maps the 9-bit triad occupancy to the union of the
//!   permutations that fit, which removes every triad outside it: pointing
//!   and claiming (box/row locked candidates) and more. A row left with a
//!   single cell places the digit there (hidden singles in rows, and in boxes,
//!   which the permutation filter turns into row singles): the cell leaves
//!   the other digits and its column leaves the digit's two other bands.
//! * **Naked singles** and empty cells, per changed band, by counting over
//!   the nine digit boards bit-parallel (`once` / `twice` accumulators).
//! * **Stack update** of a digit whose column occupancy changed: the same
//!   permutation table on columns x boxes of each stack gives the column/box
//!   interactions (and hidden singles in columns, which it turns into box and
//!   then row singles).
//!
//! A contradiction (no permutation left, a cell without candidate) ends the
//! branch as soon as it is seen. The search branches on a cell with two
//! candidates, chosen as the one with the most unsolved peers (this halves
//! the tree on hard puzzles compared to taking the first one; late in the
//! search, with few cells left, the first one is taken), else on a cell
//! with the fewest candidates.
//!
//! A triad rule (a triad holding only three possible digits locks them, a
//! triad holding three forced digits excludes the others) cut the tree by a
//! few percent but cost more than it saved, so it is not included.

/// Statistics of one solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fast9Stats {
    /// Number of guesses: every alternative tried at a branch point counts
    /// one (a branch on a cell with two candidates counts two once both
    /// are tried).
    pub guesses: u64,
}

const ALL27: u32 = (1 << 27) - 1;

/// 9-bit row of a band -> its 3-bit triad occupancy.
const fn build_tri9() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut v = 0;
    while v < 512 {
        let mut r = 0u8;
        if v & 7 != 0 {
            r |= 1;
        }
        if v & 0o70 != 0 {
            r |= 2;
        }
        if v & 0o700 != 0 {
            r |= 4;
        }
        t[v] = r;
        v += 1;
    }
    t
}
static TRI9: [u8; 512] = build_tri9();

/// 9-bit row -> the row itself if it has exactly one bit, else 0.
const fn build_single9() -> [u16; 512] {
    let mut t = [0u16; 512];
    let mut v = 0;
    while v < 512 {
        if (v as u32).count_ones() == 1 {
            t[v] = v as u16;
        }
        v += 1;
    }
    t
}
static SINGLE9: [u16; 512] = build_single9();

/// Triad occupancy (bit r*3+k: row r, box k of a band) -> union of the
/// permutations (one triad per row and per box) that fit inside it.
const fn build_perm() -> [u16; 512] {
    const P: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u16; 512];
    let mut v = 0;
    while v < 512 {
        let mut acc = 0u16;
        let mut p = 0;
        while p < 6 {
            let m = (1u16 << P[p][0]) | (1u16 << (3 + P[p][1])) | (1u16 << (6 + P[p][2]));
            if (v as u16) & m == m {
                acc |= m;
            }
            p += 1;
        }
        t[v] = acc;
        v += 1;
    }
    t
}
static PERM: [u16; 512] = build_perm();

/// 9-bit triad mask -> 27-bit cell mask.
const fn build_triexp() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        let mut m = 0u32;
        let mut k = 0;
        while k < 9 {
            if v & (1 << k) != 0 {
                m |= 7 << ((k / 3) * 9 + (k % 3) * 3);
            }
            k += 1;
        }
        t[v] = m;
        v += 1;
    }
    t
}
static TRIEXP: [u32; 512] = build_triexp();

/// Cell i of a band (0..27) -> its peers inside the band (row, box, column).
const fn build_band_peers() -> [u32; 27] {
    let mut t = [0u32; 27];
    let mut i = 0;
    while i < 27 {
        let (r, c) = (i / 9, i % 9);
        let mut m = 0u32;
        let mut j = 0;
        while j < 27 {
            let (r2, c2) = (j / 9, j % 9);
            if j != i && (r2 == r || c2 == c || c2 / 3 == c / 3) {
                m |= 1 << j;
            }
            j += 1;
        }
        t[i] = m;
        i += 1;
    }
    t
}
static BAND_PEERS: [u32; 27] = build_band_peers();

/// Below this many unsolved cells, branch on the first bivalue cell found.
const FEW_UNSOLVED: u32 = 30;

/// Number of set bits of a 9-bit value.
const fn build_pop9() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut v = 0;
    while v < 512 {
        t[v] = (v as u32).count_ones() as u8;
        v += 1;
    }
    t
}
static POP9: [u8; 512] = build_pop9();

#[inline(always)]
fn pop27(x: u32) -> u32 {
    POP9[(x & 511) as usize] as u32
        + POP9[((x >> 9) & 511) as usize] as u32
        + POP9[((x >> 18) & 511) as usize] as u32
}

#[inline(always)]
fn tri(x: u32) -> u32 {
    TRI9[(x & 511) as usize] as u32
        | (TRI9[((x >> 9) & 511) as usize] as u32) << 3
        | (TRI9[((x >> 18) & 511) as usize] as u32) << 6
}

#[inline(always)]
fn row_singles(x: u32) -> u32 {
    SINGLE9[(x & 511) as usize] as u32
        | (SINGLE9[((x >> 9) & 511) as usize] as u32) << 9
        | (SINGLE9[((x >> 18) & 511) as usize] as u32) << 18
}

#[inline(always)]
fn spread(c9: u32) -> u32 {
    c9 | c9 << 9 | c9 << 18
}

#[inline(always)]
fn cols(x: u32) -> u32 {
    (x | x >> 9 | x >> 18) & 511
}

/// 9-bit column mask of band b -> stack-major layout (stack s at bits
/// 9s + 3b .. 9s + 3b + 3).
#[inline(always)]
fn to_stacks(c9: u32, b: usize) -> u32 {
    ((c9 & 7) | (c9 & 0o70) << 6 | (c9 & 0o700) << 12) << (3 * b)
}

/// Inverse of `to_stacks`: band b's 9-bit column mask.
#[inline(always)]
fn from_stacks(st: u32, b: usize) -> u32 {
    let y = st >> (3 * b);
    (y & 7) | (y >> 6) & 0o70 | (y >> 12) & 0o700
}

#[derive(Clone, Copy)]
struct State {
    /// Candidates: m[b * 9 + d] is digit d's 27-bit mask in band b.
    m: [u32; 27],
    /// Value of each digit-band at its last update.
    seen: [u32; 27],
    /// Column occupancy (9 bits) of each digit-band at its last update.
    col: [u16; 27],
    /// Cells whose digit is known and whose peers lost it, per band.
    solved: [u32; 3],
    /// Digits whose column occupancy changed since the last stack check.
    st_dirty: u32,
    /// Bands whose cells changed since the last naked-single check.
    ns_dirty: u32,
}

/// The other two bands of band b.
#[inline(always)]
const fn others(b: usize) -> (usize, usize) {
    match b {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    }
}

macro_rules! sweep {
    ($s:ident, $any:ident; $($k:literal)*) => {
        $( $any |= $s.band_update::<$k>()?; )*
    };
}

impl State {
    fn new() -> State {
        State {
            m: [ALL27; 27],
            seen: [ALL27; 27],
            col: [511; 27],
            solved: [0; 3],
            st_dirty: 0,
            ns_dirty: 7,
        }
    }

    /// The state with every given placed and its peers cleared; None when a
    /// byte is over 9 or two givens clash.
    fn from_givens(cells: &[u8; 81]) -> Option<State> {
        // g[v] (bit 0 unused): the cells given digit v, per band.
        let mut g = [[0u32; 3]; 10];
        let mut units = [0u16; 27]; // rows, columns, boxes: digits seen
        for (b, band) in cells.chunks_exact(27).enumerate() {
            for (i, &v) in band.iter().enumerate() {
                if v == 0 {
                    continue;
                }
                if v > 9 {
                    return None;
                }
                let (r, c) = (b * 3 + i / 9, i % 9);
                let bit = 1u16 << v;
                let (ur, uc, ub) = (r, 9 + c, 18 + b * 3 + c / 3);
                if (units[ur] | units[uc] | units[ub]) & bit != 0 {
                    return None;
                }
                units[ur] |= bit;
                units[uc] |= bit;
                units[ub] |= bit;
                g[v as usize][b] |= 1 << i;
            }
        }
        let mut s = State::new();
        let mut given = [0u32; 3];
        for (d, gd) in g[1..].iter().enumerate() {
            let c9 = cols(gd[0]) | cols(gd[1]) | cols(gd[2]);
            for b in 0..3 {
                let x = gd[b];
                // rows and boxes holding a given d, columns holding one anywhere
                let t = tri(x);
                let rows = TRIEXP[((t & 7 != 0) as usize * 7)
                    | ((t & 0o70 != 0) as usize * 0o70)
                    | ((t & 0o700 != 0) as usize * 0o700)];
                let bx = (t | t >> 3 | t >> 6) & 7;
                let boxes = TRIEXP[(bx | bx << 3 | bx << 6) as usize];
                s.m[b * 9 + d] = (ALL27 & !(rows | boxes | spread(c9))) | x;
                given[b] |= x;
            }
        }
        for b in 0..3 {
            for (d, gd) in g[1..].iter().enumerate() {
                s.m[b * 9 + d] &= !given[b] | gd[b];
            }
        }
        s.solved = given;
        s.st_dirty = 511;
        Some(s)
    }

    /// Clears the columns `c9` of digit d in the bands other than b.
    #[inline(always)]
    fn clear_cols(&mut self, d: usize, b: usize, c9: u32) {
        let cs = !spread(c9);
        let (b1, b2) = others(b);
        self.m[b1 * 9 + d] &= cs;
        self.m[b2 * 9 + d] &= cs;
    }

    /// Places digit d in cell i of band b. False if d is no longer a candidate there.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, i: u32) -> bool {
        let bit = 1u32 << i;
        let k = b * 9 + d;
        let x = self.m[k];
        if x & bit == 0 {
            return false;
        }
        for y in &mut self.m[b * 9..b * 9 + 9] {
            *y &= !bit;
        }
        self.m[k] = (x & !BAND_PEERS[i as usize]) | bit;
        self.solved[b] |= bit;
        self.clear_cols(d, b, 1 << (i % 9));
        true
    }

    /// Band update of digit-band K (= b * 9 + d) if it changed: box-row
    /// permutations, row singles. Ok(true) if it changed.
    #[inline(always)]
    fn band_update<const K: usize>(&mut self) -> Result<bool, ()> {
        let mut x = self.m[K];
        if x == self.seen[K] {
            return Ok(false);
        }
        let (d, b) = (K % 9, K / 9);
        let t = tri(x);
        let a = PERM[t as usize] as u32;
        if a == 0 {
            return Err(());
        }
        x &= TRIEXP[a as usize];
        self.m[K] = x;
        self.seen[K] = x;
        self.ns_dirty |= 1 << b;
        let c = cols(x);
        self.st_dirty |= ((c != self.col[K] as u32) as u32) << d;
        self.col[K] = c as u16;
        let s = row_singles(x) & !self.solved[b];
        if s != 0 {
            self.solved[b] |= s;
            for e in 0..9 {
                if e != d {
                    self.m[b * 9 + e] &= !s;
                }
            }
            self.clear_cols(d, b, cols(s));
        }
        Ok(true)
    }

    /// Naked singles and empty cells of band b. Ok(true) if something changed.
    #[inline(always)]
    fn naked(&mut self, b: usize) -> Result<bool, ()> {
        let (mut once, mut twice) = (0u32, 0u32);
        for &x in &self.m[b * 9..b * 9 + 9] {
            twice |= once & x;
            once |= x;
        }
        if once != ALL27 {
            return Err(());
        }
        let new = once & !twice & !self.solved[b];
        if new == 0 {
            return Ok(false);
        }
        self.solved[b] |= new;
        for d in 0..9 {
            let k = b * 9 + d;
            let mut s = self.m[k] & new;
            if s != 0 {
                let x0 = self.m[k];
                let mut x = x0;
                let c9 = cols(s);
                while s != 0 {
                    let i = s.trailing_zeros();
                    s &= s - 1;
                    x &= !BAND_PEERS[(i & 31) as usize % 27];
                }
                if x & new != x0 & new {
                    return Err(());
                }
                self.m[k] = x;
                self.clear_cols(d, b, c9);
            }
        }
        Ok(true)
    }

    /// Box-column permutations of digit d. Ok(true) if something changed.
    #[inline(always)]
    fn stack_update(&mut self, d: usize) -> Result<bool, ()> {
        let co = to_stacks(self.col[d] as u32, 0)
            | to_stacks(self.col[9 + d] as u32, 1)
            | to_stacks(self.col[18 + d] as u32, 2);
        let a0 = PERM[(co & 511) as usize] as u32;
        let a1 = PERM[((co >> 9) & 511) as usize] as u32;
        let a2 = PERM[((co >> 18) & 511) as usize] as u32;
        if a0 == 0 || a1 == 0 || a2 == 0 {
            return Err(());
        }
        let a = a0 | a1 << 9 | a2 << 18;
        if a == co {
            return Ok(false);
        }
        for b in 0..3 {
            self.m[b * 9 + d] &= spread(from_stacks(a, b));
        }
        Ok(true)
    }

    /// Propagates to a fixpoint. Err on contradiction, Ok(true) when solved.
    #[inline(always)]
    fn propagate(&mut self) -> Result<bool, ()> {
        loop {
            loop {
                let mut any = false;
                sweep!(self, any; 0 9 18 1 10 19 2 11 20 3 12 21 4 13 22 5 14 23 6 15 24 7 16 25 8 17 26);
                if !any {
                    break;
                }
            }
            if self.ns_dirty != 0 {
                let mut progress = false;
                for b in 0..3 {
                    if self.ns_dirty & (1 << b) != 0 {
                        progress |= self.naked(b)?;
                    }
                }
                self.ns_dirty = 0;
                if progress {
                    continue;
                }
            }
            if self.st_dirty != 0 {
                let mut progress = false;
                let mut sd = self.st_dirty;
                self.st_dirty = 0;
                while sd != 0 {
                    let d = sd.trailing_zeros() as usize;
                    sd &= sd - 1;
                    progress |= self.stack_update(d % 9)?;
                }
                if progress {
                    continue;
                }
            }
            return Ok(self.solved[0] & self.solved[1] & self.solved[2] == ALL27);
        }
    }

    /// Chooses a cell to branch on: (band, index, digit mask).
    fn choose(&self) -> (usize, u32, u32) {
        let mut bis = [0u32; 3];
        let mut best = (0usize, 0u32, 0u32);
        let mut best_n = 10;
        for b in 0..3 {
            let (mut once, mut twice, mut thrice) = (0u32, 0u32, 0u32);
            for &x in &self.m[b * 9..b * 9 + 9] {
                thrice |= twice & x;
                twice |= once & x;
                once |= x;
            }
            bis[b] = twice & !thrice;
            if bis != [0; 3] {
                continue;
            }
            let mut u = twice;
            while u != 0 {
                let i = u.trailing_zeros();
                u &= u - 1;
                let ds = self.digits(b, i);
                let n = ds.count_ones();
                if n < best_n {
                    best_n = n;
                    best = (b, i, ds);
                }
            }
        }
        if bis == [0; 3] {
            return best;
        }
        let un = [
            !self.solved[0] & ALL27,
            !self.solved[1] & ALL27,
            !self.solved[2] & ALL27,
        ];
        if pop27(un[0]) + pop27(un[1]) + pop27(un[2]) < FEW_UNSOLVED {
            // Late in the search the choice matters little: the first one.
            let b = if bis[0] != 0 {
                0
            } else if bis[1] != 0 {
                1
            } else {
                2
            };
            let i = bis[b].trailing_zeros();
            return (b, i, self.digits(b, i));
        }
        // The bivalue cell with the most unsolved peers.
        let mut bs = 0;
        for b in 0..3 {
            let mut u = bis[b];
            let (b1, b2) = others(b);
            while u != 0 {
                let i = u.trailing_zeros();
                u &= u - 1;
                let c = i % 9;
                let z = ((un[b1] >> c) & 0x40201) | ((un[b2] >> c) & 0x40201) << 1;
                let z = (z | z >> 7 | z >> 14) & 63;
                let sc = pop27(un[b] & BAND_PEERS[i as usize]) + POP9[z as usize] as u32;
                if sc >= bs {
                    bs = sc;
                    best = (b, i, 0);
                }
            }
        }
        (best.0, best.1, self.digits(best.0, best.1))
    }

    /// The candidate digits (bit d) of cell i of band b.
    fn digits(&self, b: usize, i: u32) -> u32 {
        let mut ds = 0;
        for d in 0..9 {
            ds |= ((self.m[b * 9 + d] >> i) & 1) << d;
        }
        ds
    }

    /// Writes a solved state as row-major digits 1..=9.
    fn write(&self, out: &mut [u8; 81]) {
        for d in 0..9 {
            for b in 0..3 {
                let mut x = self.m[b * 9 + d];
                while x != 0 {
                    let i = x.trailing_zeros() as usize;
                    x &= x - 1;
                    out[b * 27 + i] = d as u8 + 1;
                }
            }
        }
    }
}

/// The depth-first search: each recursion level places at least one more
/// cell, so the depth is at most 81.
struct Search<'a> {
    limit: u64,
    count: u64,
    out: &'a mut [[u8; 81]],
    guesses: u64,
}

impl Search<'_> {
    fn run(&mut self, mut s: State) {
        loop {
            let Ok(done) = s.propagate() else {
                return;
            };
            if done {
                if let Some(o) = self.out.get_mut(self.count as usize) {
                    s.write(o);
                }
                self.count += 1;
                return;
            }
            let (b, i, mut ds) = s.choose();
            if ds == 0 {
                return;
            }
            loop {
                let d = ds.trailing_zeros() as usize;
                ds &= ds - 1;
                self.guesses += 1;
                if ds == 0 {
                    if !s.place(d, b, i) {
                        return;
                    }
                    break;
                }
                let mut c = s;
                if c.place(d, b, i) {
                    self.run(c);
                    if self.count >= self.limit {
                        return;
                    }
                }
            }
        }
    }
}

/// Solves a standard 9x9 Sudoku. `cells` is row-major, 0 = empty, 1..=9 = given.
/// Searches until `limit` solutions have been found or the search space is exhausted.
/// Writes the first solutions found into `out` (as many as fit; `out` may be empty),
/// each row-major with digits 1..=9. Returns the number of solutions found (<= limit).
/// Givens that conflict with each other (two equal digits in a row, column or box)
/// simply give 0 solutions; any byte > 9 in `cells` also gives 0 solutions. Never panics.
pub fn solve(cells: &[u8; 81], limit: u64, out: &mut [[u8; 81]], stats: &mut Fast9Stats) -> u64 {
    *stats = Fast9Stats::default();
    if limit == 0 {
        return 0;
    }
    let Some(s) = State::from_givens(cells) else {
        return 0;
    };
    let mut search = Search {
        limit,
        count: 0,
        out,
        guesses: 0,
    };
    search.run(s);
    stats.guesses = search.guesses;
    search.count
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> [u8; 81] {
        let b = s.as_bytes();
        assert!(b.len() >= 81, "short puzzle line: {s:?}");
        let mut p = [0u8; 81];
        for (d, &c) in p.iter_mut().zip(&b[..81]) {
            *d = match c {
                b'1'..=b'9' => c - b'0',
                b'.' | b'0' => 0,
                _ => panic!("bad character {c} in {s:?}"),
            };
        }
        p
    }

    /// Independent check: digits 1..=9, givens kept, every row, column and
    /// box a permutation of 1..=9.
    fn check(p: &[u8; 81], s: &[u8; 81]) -> Result<(), String> {
        for i in 0..81 {
            if !(1..=9).contains(&s[i]) {
                return Err(format!("cell {i} holds {}", s[i]));
            }
            if p[i] != 0 && p[i] != s[i] {
                return Err(format!("cell {i}: given {} became {}", p[i], s[i]));
            }
        }
        for u in 0..9 {
            let (mut row, mut col, mut bx) = (0u16, 0u16, 0u16);
            for k in 0..9 {
                row |= 1 << s[u * 9 + k];
                col |= 1 << s[k * 9 + u];
                bx |= 1 << s[(u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3];
            }
            if row != 0x3fe || col != 0x3fe || bx != 0x3fe {
                return Err(format!("unit {u} is not a permutation"));
            }
        }
        Ok(())
    }

    /// Independent brute force: backtracking on the empty cell with the
    /// fewest candidates (row/column/box masks), counting up to `limit`.
    fn brute_count(p: &[u8; 81], limit: u64) -> u64 {
        fn rec(
            g: &mut [u8; 81],
            rows: &mut [u16; 9],
            cols: &mut [u16; 9],
            boxes: &mut [u16; 9],
            limit: u64,
            n: &mut u64,
        ) {
            let mut best = None;
            let mut best_k = 10;
            for (i, _) in g.iter().enumerate().filter(|&(_, &v)| v == 0) {
                let (r, c) = (i / 9, i % 9);
                let used = rows[r] | cols[c] | boxes[r / 3 * 3 + c / 3];
                let k = (!used & 0x3fe).count_ones();
                if k < best_k {
                    best_k = k;
                    best = Some((i, used));
                    if k == 0 {
                        return;
                    }
                }
            }
            let Some((i, used)) = best else {
                *n += 1;
                return;
            };
            let (r, c) = (i / 9, i % 9);
            let b = r / 3 * 3 + c / 3;
            for v in 1..=9u8 {
                let m = 1u16 << v;
                if used & m == 0 {
                    g[i] = v;
                    rows[r] |= m;
                    cols[c] |= m;
                    boxes[b] |= m;
                    rec(g, rows, cols, boxes, limit, n);
                    g[i] = 0;
                    rows[r] &= !m;
                    cols[c] &= !m;
                    boxes[b] &= !m;
                    if *n >= limit {
                        return;
                    }
                }
            }
        }
        let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
        let mut g = *p;
        for (i, &v) in p.iter().enumerate() {
            if v > 9 {
                return 0;
            }
            if v != 0 {
                let (r, c) = (i / 9, i % 9);
                let b = r / 3 * 3 + c / 3;
                let m = 1u16 << v;
                if (rows[r] | cols[c] | boxes[b]) & m != 0 {
                    return 0;
                }
                rows[r] |= m;
                cols[c] |= m;
                boxes[b] |= m;
            }
        }
        let mut n = 0;
        rec(&mut g, &mut rows, &mut cols, &mut boxes, limit, &mut n);
        n
    }

    /// Solves with `limit`, checks every solution kept and that they differ.
    fn solve_checked(p: &[u8; 81], limit: u64, keep: usize) -> (u64, Vec<[u8; 81]>) {
        let mut out = vec![[0u8; 81]; keep];
        let mut st = Fast9Stats::default();
        let n = solve(p, limit, &mut out, &mut st);
        assert!(n <= limit);
        out.truncate(keep.min(n as usize));
        for s in &out {
            check(p, s).unwrap();
        }
        for (a, x) in out.iter().enumerate() {
            for y in &out[a + 1..] {
                assert_ne!(x, y, "the same solution twice");
            }
        }
        (n, out)
    }

    const INKALA: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    const INKALA_SOLUTION: &str =
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

    #[test]
    fn inkala_is_unique() {
        let p = parse(INKALA);
        let (n, sols) = solve_checked(&p, 2, 2);
        assert_eq!(n, 1);
        assert_eq!(sols[0], parse(INKALA_SOLUTION));
        assert_eq!(brute_count(&p, 2), 1);
    }

    #[test]
    fn known_puzzles_are_unique() {
        for line in [
            // easy (the `sudoku` crate's documentation example)
            "...2...633....54.1..1..398........9....538....3........263..5..5.37....847...1...",
            // 17 clues
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
            // hard classics (magictour top1465)
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
            "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
            // among the hardest known (SE 11+)
            "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
            // already solved
            INKALA_SOLUTION,
        ] {
            let p = parse(line);
            let (n, _) = solve_checked(&p, 2, 2);
            assert_eq!(n, 1, "{line}");
            assert_eq!(brute_count(&p, 2), 1, "{line}");
        }
    }

    #[test]
    fn conflicting_or_invalid_givens_have_no_solution() {
        let mut out = [[0u8; 81]; 2];
        let mut st = Fast9Stats::default();
        let base = parse(INKALA);
        // Two equal digits in a row, in a column, in a box (not sharing a row or column).
        let mut row = base;
        row[1] = 8;
        let mut col = base;
        col[9 * 5] = 8;
        let mut bx = base;
        bx[10] = 8;
        let mut far = [0u8; 81];
        far[0] = 5;
        far[80] = 5; // no conflict: different row, column and box
        far[8] = 5; // conflicts with cell 0 (row)
        let mut big = base;
        big[3] = 10;
        let mut huge = [0u8; 81];
        huge[40] = 255;
        for p in [row, col, bx, far, big, huge] {
            assert_eq!(solve(&p, 2, &mut out, &mut st), 0);
            assert_eq!(solve(&p, u64::MAX, &mut out, &mut st), 0);
        }
        // limit 0 finds nothing
        assert_eq!(solve(&base, 0, &mut out, &mut st), 0);
    }

    #[test]
    fn no_solution_without_conflicting_givens() {
        for line in [
            // Inkala with one given changed: no two givens clash, no solution.
            "1..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
            "8..........36......7..9.2...5...7.......427.....1...3...1....68..85...1..9....4..",
            // a cell left without candidates: row 1..8, and 9 in its column
            "12345678........................................................................9",
        ] {
            let p = parse(line);
            let mut out = [[0u8; 81]; 2];
            let mut st = Fast9Stats::default();
            assert_eq!(solve(&p, u64::MAX, &mut out, &mut st), 0, "{line}");
            assert_eq!(brute_count(&p, 2), 0, "{line}");
        }
    }

    #[test]
    fn deadly_rectangle_has_two_solutions() {
        // The Inkala solution with a rectangle a b / b a removed (two rows of
        // a band, two columns in different boxes).
        let line =
            "81.75.64994.68.175675491283154237896369845721287169534521974368438526917796318452";
        let p = parse(line);
        let (n, sols) = solve_checked(&p, 2, 2);
        assert_eq!(n, 2);
        assert_eq!(sols.len(), 2);
        assert!(sols.contains(&parse(INKALA_SOLUTION)));
        let (n, _) = solve_checked(&p, u64::MAX, 5);
        assert_eq!(n, 2);
        assert_eq!(brute_count(&p, 100), 2);
    }

    #[test]
    fn larger_counts_match_brute_force() {
        let sol = parse(INKALA_SOLUTION);
        // Cells removed from a solved grid; the counts were also computed
        // by a separate program.
        let rows = |r: std::ops::Range<usize>| -> Vec<usize> {
            r.flat_map(|r| (0..9).map(move |c| r * 9 + c)).collect()
        };
        let cols = |c: std::ops::Range<usize>| -> Vec<usize> {
            (0..9)
                .flat_map(|r| c.clone().map(move |c| r * 9 + c))
                .collect()
        };
        let boxes = |bs: &[usize]| -> Vec<usize> {
            bs.iter()
                .flat_map(|&b| (0..9).map(move |k| (b / 3 * 3 + k / 3) * 9 + b % 3 * 3 + k % 3))
                .collect()
        };
        let mut cases = Vec::new();
        for (cells, count) in [
            (rows(0..3), 264),
            (rows(0..4), 1488),
            (cols(0..3), 276),
            (cols(0..4), 1944),
            (boxes(&[0, 4, 8, 1]), 14),
        ] {
            let mut p = sol;
            for i in cells {
                p[i] = 0;
            }
            cases.push((p, count));
        }
        for (p, count) in cases {
            let expect = brute_count(&p, u64::MAX);
            assert_eq!(expect, count);
            let (n, _) = solve_checked(&p, u64::MAX, 50);
            assert_eq!(n, expect);
            // and stopping at a limit below the count
            let (n, _) = solve_checked(&p, expect - 1, 3);
            assert_eq!(n, expect - 1);
        }
    }

    #[test]
    fn limit_and_small_out_buffer() {
        let empty = [0u8; 81];
        let (n, sols) = solve_checked(&empty, 1000, 1000);
        assert_eq!(n, 1000);
        assert_eq!(sols.len(), 1000);
        // out shorter than the count: only the first are written
        let mut out = [[0u8; 81]; 1];
        let mut st = Fast9Stats::default();
        assert_eq!(solve(&empty, 7, &mut out, &mut st), 7);
        check(&empty, &out[0]).unwrap();
        assert!(st.guesses > 0);
        // out empty
        assert_eq!(solve(&empty, 3, &mut [], &mut st), 3);
    }

    #[test]
    fn random_holes_match_brute_force() {
        // Remove random cells from (relabelled) known solutions and compare
        // solution counts, up to 1000, with the brute force.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize
        };
        let base = parse(INKALA_SOLUTION);
        for round in 0..300 {
            // relabel digits with a random permutation
            let mut perm = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
            for i in (1..9).rev() {
                perm.swap(i, next() % (i + 1));
            }
            let mut p = base.map(|v| perm[v as usize - 1]);
            let holes = 30 + round % 35;
            for _ in 0..holes {
                p[next() % 81] = 0;
            }
            let expect = brute_count(&p, 1000);
            let (n, _) = solve_checked(&p, 1000, 4);
            assert_eq!(n, expect, "round {round}");
            // a random extra given may make it contradictory
            let mut q = p;
            q[next() % 81] = (next() % 9) as u8 + 1;
            let expect = brute_count(&q, 1000);
            let (n, _) = solve_checked(&q, 1000, 2);
            assert_eq!(n, expect, "round {round} (extra given)");
        }
    }

    #[test]
    fn random_inputs_never_panic_and_match_brute_force() {
        // Sparse random givens, sometimes bytes over 9: any result must agree
        // with the brute force (0 for invalid input), up to a limit of 3.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as usize
        };
        for round in 0..400 {
            let mut p = [0u8; 81];
            for _ in 0..next() % 14 {
                let v = if round % 10 == 0 {
                    next() % 256
                } else {
                    1 + next() % 9
                };
                p[next() % 81] = v as u8;
            }
            let expect = brute_count(&p, 3);
            let (n, _) = solve_checked(&p, 3, 3);
            assert_eq!(n, expect, "round {round}: {p:?}");
        }
    }

    fn shared_dir() -> Option<std::path::PathBuf> {
        let dir = std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/data/sudoku"
        ));
        if dir.is_dir() {
            Some(dir.to_path_buf())
        } else {
            eprintln!(
                "SKIPPED: {} is absent (the shared puzzle sets live beside the checkout)",
                dir.display()
            );
            None
        }
    }

    fn shared_sample(file: &str, expect: u64) {
        let Some(dir) = shared_dir() else { return };
        let path = dir.join(file);
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("SKIPPED: cannot read {}", path.display());
            return;
        };
        let mut seen = 0;
        for line in text
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .take(500)
        {
            let p = parse(line);
            let (n, _) = solve_checked(&p, 2, 2);
            assert_eq!(n, expect, "{file}: {line}");
            seen += 1;
        }
        assert_eq!(seen, 500, "{file}: fewer than 500 puzzles");
    }

    #[test]
    fn shared_17_clue_sample() {
        shared_sample("17_clue.txt", 1);
    }

    #[test]
    fn shared_top1465_sample() {
        shared_sample("magictour_top1465.txt", 1);
    }

    #[test]
    fn shared_forum_hardest_sample() {
        shared_sample("forum_hardest_1905_11plus.txt", 1);
    }

    #[test]
    fn shared_serg_sample() {
        shared_sample("serg_benchmark.txt", 2);
    }
}
