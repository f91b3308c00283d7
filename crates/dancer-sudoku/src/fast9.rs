//! A specialised bitboard solver for standard 9x9 Sudoku.

/// Statistics of one solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fast9Stats {
    /// Number of guesses: alternatives tried at branch points.
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

const TRIADS: bool = true;

/// 3-bit groups: masks of their low bit, high two bits, top bit, low two bits.
const G_LO: u32 = 0o111111111;
const G_HI2: u32 = G_LO * 6;
const G_TOP: u32 = G_LO * 4;
const G_LO2: u32 = G_LO * 3;

/// 9-bit triad mask -> triads sharing a row or a box with one of its triads
/// (a triad itself only when it shares a row or box with another one).
const fn build_rowbox() -> [u16; 512] {
    let mut t = [0u16; 512];
    let mut v = 0;
    while v < 512 {
        let mut m = 0u16;
        let mut i = 0;
        while i < 9 {
            if v & (1 << i) != 0 {
                let mut j = 0;
                while j < 9 {
                    if j != i && (j / 3 == i / 3 || j % 3 == i % 3) {
                        m |= 1 << j;
                    }
                    j += 1;
                }
            }
            i += 1;
        }
        t[v] = m;
        v += 1;
    }
    t
}
static ROWBOX: [u16; 512] = build_rowbox();

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
        + POP9[(x >> 18) as usize] as u32
}

#[inline(always)]
fn tri(x: u32) -> u32 {
    TRI9[(x & 511) as usize] as u32
        | (TRI9[((x >> 9) & 511) as usize] as u32) << 3
        | (TRI9[(x >> 18) as usize] as u32) << 6
}

#[inline(always)]
fn row_singles(x: u32) -> u32 {
    SINGLE9[(x & 511) as usize] as u32
        | (SINGLE9[((x >> 9) & 511) as usize] as u32) << 9
        | (SINGLE9[(x >> 18) as usize] as u32) << 18
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

const fn build_col27() -> [u32; 9] {
    let mut t = [0u32; 9];
    let mut c = 0;
    while c < 9 {
        t[c] = 1 << c | 1 << (c + 9) | 1 << (c + 18);
        c += 1;
    }
    t
}
static COL27: [u32; 9] = build_col27();

/// The 9 digit-bands of band b in the dirty mask (bit d * 3 + b).
const BAND_BITS: u32 = 0o111111111;

#[derive(Clone, Copy)]
struct State {
    /// Candidates: m[d * 3 + b] is digit d's 27-bit mask in band b.
    m: [u32; 27],
    /// Value of m at its last band update.
    seen: [u32; 27],
    /// Per digit: allowed triads of `seen`, band b at bits 9b..9b+9.
    tr: [u32; 9],
    /// Per digit: column occupancy of `seen` in stack-major layout.
    co: [u32; 9],
    /// Cells whose digit is known and whose peers lost it, per band.
    solved: [u32; 3],
    /// Digit-bands (bit d * 3 + b) that may differ from `seen`.
    dirty: u32,
    /// Bands whose cells changed since the last naked-single check.
    ns_dirty: u32,
    /// Digits whose column occupancy changed since the last stack check.
    st_dirty: u32,
    /// Whether a triad occupancy changed since the last triad check.
    tr_dirty: bool,
}

impl State {
    fn new() -> State {
        State {
            m: [ALL27; 27],
            seen: [ALL27; 27],
            tr: [ALL27; 9],
            co: [ALL27; 9],
            solved: [0; 3],
            dirty: 0,
            ns_dirty: 7,
            st_dirty: 0,
            tr_dirty: false,
        }
    }

    /// Clears the columns `c9` of digit d in the bands other than b.
    #[inline(always)]
    fn clear_cols(&mut self, d: usize, b: usize, c9: u32) {
        let cs = !spread(c9);
        let base = d * 3;
        let (b1, b2) = match b {
            0 => (1, 2),
            1 => (0, 2),
            _ => (0, 1),
        };
        self.m[base + b1] &= cs;
        self.m[base + b2] &= cs;
        self.dirty |= (1 << (base + b1)) | (1 << (base + b2));
    }

    /// Places digit d in cell i of band b. False if d is no longer a candidate there.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, i: u32) -> bool {
        let bit = 1u32 << i;
        let k = d * 3 + b;
        if self.m[k] & bit == 0 {
            return false;
        }
        for e in 0..9 {
            self.m[e * 3 + b] &= !bit;
        }
        self.m[k] = (self.m[k] & !BAND_PEERS[i as usize]) | bit;
        self.solved[b] |= bit;
        self.dirty |= BAND_BITS << b;
        self.clear_cols(d, b, 1 << (i % 9));
        true
    }

    /// Band update of digit-band k: box-row permutations, row singles.
    #[inline(always)]
    fn band_update(&mut self, k: usize) -> Result<(), ()> {
        let (d, b) = (k / 3, k % 3);
        let mut x = self.m[k];
        let t = tri(x);
        let a = PERM[t as usize] as u32;
        if a == 0 {
            return Err(());
        }
        if a != t {
            x &= TRIEXP[a as usize];
            self.m[k] = x;
        }
        self.seen[k] = x;
        self.ns_dirty |= 1 << b;
        let tr = (self.tr[d] & !(511 << (9 * b))) | a << (9 * b);
        if tr != self.tr[d] {
            self.tr[d] = tr;
            self.tr_dirty = true;
        }
        let co = (self.co[d] & !to_stacks(511, b)) | to_stacks(cols(x), b);
        if co != self.co[d] {
            self.co[d] = co;
            self.st_dirty |= 1 << d;
        }
        let s = row_singles(x) & !self.solved[b];
        if s != 0 {
            self.solved[b] |= s;
            for e in 0..9 {
                self.m[e * 3 + b] &= !s;
            }
            self.m[k] = x;
            self.dirty |= BAND_BITS << b;
            self.clear_cols(d, b, cols(s));
        }
        Ok(())
    }

    /// Naked singles and empty cells of band b. Ok(true) if something changed.
    #[inline(always)]
    fn naked(&mut self, b: usize) -> Result<bool, ()> {
        let (mut once, mut twice) = (0u32, 0u32);
        for d in 0..9 {
            let x = self.m[d * 3 + b];
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
            let k = d * 3 + b;
            let mut s = self.m[k] & new;
            if s != 0 {
                let x0 = self.m[k];
                let mut x = x0;
                let c9 = cols(s);
                while s != 0 {
                    let i = s.trailing_zeros();
                    s &= s - 1;
                    x &= !BAND_PEERS[i as usize];
                }
                if x & new != x0 & new {
                    return Err(());
                }
                self.m[k] = x;
                self.dirty |= 1 << k;
                self.clear_cols(d, b, c9);
            }
        }
        Ok(true)
    }

    /// Box-column permutations of digit d. Ok(true) if something changed.
    #[inline(always)]
    fn stack_update(&mut self, d: usize) -> Result<bool, ()> {
        let co = self.co[d];
        let a0 = PERM[(co & 511) as usize] as u32;
        let a1 = PERM[((co >> 9) & 511) as usize] as u32;
        let a2 = PERM[(co >> 18) as usize] as u32;
        if a0 == 0 || a1 == 0 || a2 == 0 {
            return Err(());
        }
        let a = a0 | a1 << 9 | a2 << 18;
        if a == co {
            return Ok(false);
        }
        let base = d * 3;
        for b in 0..3 {
            self.m[base + b] &= spread(from_stacks(a, b));
        }
        self.dirty |= 7 << base;
        Ok(true)
    }

    /// Propagates to a fixpoint. Err on contradiction, Ok(true) when solved.
    fn propagate(&mut self) -> Result<bool, ()> {
        loop {
            while self.dirty != 0 {
                let k = self.dirty.trailing_zeros() as usize;
                self.dirty &= self.dirty - 1;
                if self.m[k] != self.seen[k] {
                    self.band_update(k)?;
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
                    progress |= self.stack_update(d)?;
                }
                if progress {
                    continue;
                }
            }
            if TRIADS && self.tr_dirty {
                self.tr_dirty = false;
                if self.triads()? {
                    continue;
                }
            }
            return Ok(self.solved[0] & self.solved[1] & self.solved[2] == ALL27);
        }
    }

    /// Triad reasoning: each box-row triad holds exactly 3 digits.
    /// Ok(true) if something changed.
    #[inline(always)]
    fn triads(&mut self) -> Result<bool, ()> {
        let (mut a, mut b, mut c) = (0u32, 0u32, 0u32);
        let (mut fa, mut fb, mut fc) = (0u32, 0u32, 0u32);
        let mut forced = [0u32; 9];
        for d in 0..9 {
            let t = self.tr[d];
            let c0 = a & t;
            a ^= t;
            let c1 = b & c0;
            b ^= c0;
            c |= c1;
            // Triads alone in their row (3-bit groups).
            let l1 = ((t << 1) & G_HI2) | ((t >> 2) & G_LO);
            let l2 = ((t << 2) & G_TOP) | ((t >> 1) & G_LO2);
            let f = t & !(l1 | l2);
            forced[d] = f;
            let c0 = fa & f;
            fa ^= f;
            let c1 = fb & c0;
            fb ^= c0;
            fc |= c1;
        }
        if !c & !(a & b) & ALL27 != 0 || fc != 0 {
            // A triad with fewer than 3 possible digits, or 4+ forced ones.
            return Err(());
        }
        let exact3 = a & b & !c;
        let full = fa & fb;
        let mut changed = false;
        for (d, &f) in forced.iter().enumerate() {
            let t = self.tr[d];
            let newf = exact3 & t & !f;
            let remove = full & t & !f;
            if newf | remove != 0 {
                changed = true;
                let allowed = t & !remove;
                for bb in 0..3 {
                    let sh = 9 * bb;
                    let nf = (newf >> sh) & 511;
                    let al = ((allowed >> sh) & 511) & !ROWBOX[nf as usize] as u32;
                    self.m[d * 3 + bb] &= TRIEXP[al as usize];
                }
                self.dirty |= 7 << (d * 3);
            }
        }
        Ok(changed)
    }

    /// Chooses a cell to branch on: (band, index, digit mask).
    fn choose(&self) -> (usize, u32, u32) {
        let mut bis = [0u32; 3];
        let mut best = (0usize, 0u32, 0u32);
        let mut best_n = 10;
        for b in 0..3 {
            let (mut once, mut twice, mut thrice) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.m[d * 3 + b];
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
        // The bivalue cell with the most unsolved peers.
        let un = [
            !self.solved[0] & ALL27,
            !self.solved[1] & ALL27,
            !self.solved[2] & ALL27,
        ];
        let mut bs = 0;
        for b in 0..3 {
            let mut u = bis[b];
            let (b1, b2) = match b {
                0 => (1, 2),
                1 => (0, 2),
                _ => (0, 1),
            };
            while u != 0 {
                let i = u.trailing_zeros();
                u &= u - 1;
                let c = i % 9;
                let z = ((un[b1] >> c) & 0x40201) | ((un[b2] >> c) & 0x40201) << 1;
                let z = (z | z >> 7 | z >> 14) & 63;
                let sc = pop27(un[b] & BAND_PEERS[i as usize]) + POP9[z as usize] as u32;
                if sc > bs {
                    bs = sc;
                    best = (b, i, 0);
                }
            }
        }
        (best.0, best.1, self.digits(best.0, best.1))
    }

    fn digits(&self, b: usize, i: u32) -> u32 {
        let mut ds = 0;
        for d in 0..9 {
            ds |= ((self.m[d * 3 + b] >> i) & 1) << d;
        }
        ds
    }

    fn write(&self, out: &mut [u8; 81]) {
        for d in 0..9 {
            for b in 0..3 {
                let mut x = self.m[d * 3 + b];
                while x != 0 {
                    let i = x.trailing_zeros() as usize;
                    x &= x - 1;
                    out[b * 27 + i] = d as u8 + 1;
                }
            }
        }
    }
}

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
    let mut s = State::new();
    for (c, &v) in cells.iter().enumerate() {
        if v > 9 {
            return 0;
        }
        if v != 0 && !s.place(v as usize - 1, c / 27, (c % 27) as u32) {
            return 0;
        }
    }
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
