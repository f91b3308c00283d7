//! A specialised solver for standard 9x9 Sudoku.
//!
//! The exact cover engine solves every Sudoku, but a 9x9 grid is small
//! enough that a bit-parallel solver with strong propagation is several
//! times faster. This one is written from the published ideas of the fast
//! band solvers (one bit per candidate, one word per digit and band, the
//! "band rule" for triads), not from their code.
//!
//! ## The state
//!
//! For each digit d (0..9) and band b (0..3, three rows each), one 32-bit
//! word holds the cells of the band that may still take d: bit `10 r + c` for
//! row r (0..3) of the band and column c (0..9); bit `10 r + 9` is a guard
//! and always 0. Two digits share one register of eight 32-bit lanes
//! (`[band0, band1, band2, pad, band0, band1, band2, pad]`); five registers
//! hold the nine digits (the last half is empty). `Lanes` abstracts the
//! register so that one generic search compiles three times: AVX2 (256-bit,
//! selected at run time when the CPU has it), SSE2 (two 128-bit halves) and
//! plain arrays (any CPU, and the reference in tests).
//!
//! Invariants: a placed cell keeps exactly its digit; no state word has a
//! guard or pad bit set; a cell with no digit or a digit with no place in a
//! unit is a contradiction, found by `propagate`.
//!
//! ## Propagation
//!
//! `singles` finds naked singles (cells with one candidate, by counting
//! bits across digits with add/xor carries) and hidden singles in rows, and
//! removes the placed digits from their peers. `perms` applies the band
//! rule: in a band a digit occupies one triad (row-in-box) per row and per
//! box, so a triad survives only if it lies on a permutation compatible with
//! the occupancy; this subsumes hidden singles in boxes and locked candidates
//! (pointing and claiming). The same rule runs on stacks (columns x bands).
//! Both repeat until nothing changes.
//!
//! ## Search
//!
//! When propagation stalls, `choose` picks a cell with two candidates
//! (the one with the most unsolved peers; late in the search simply the
//! first), else the cell with the fewest, and `run` tries each digit on a
//! copy of the state (the state is 160 bytes; copying beats undoing). The
//! last alternative needs no copy: the others were already excluded. The
//! depth is at most 81, so recursion is bounded. Solving stops at `limit`
//! solutions, which is how uniqueness is checked (limit 2).

#![allow(clippy::needless_range_loop)] // bands and rows are walked by index

/// Statistics of one solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fast9Stats {
    /// Number of guesses: every alternative tried at a branch point counts
    /// one (a branch on a cell with two candidates counts two once both
    /// are tried).
    pub guesses: u64,
    /// The cancel flag stopped the search ([`solve_cancellable`]): the
    /// count is a lower bound, not the answer.
    pub cancelled: bool,
}

/// Solutions between two looks at a cancel flag: a count of many
/// solutions (an empty grid has 6.7e21) can be stopped; a search with
/// few is over in microseconds anyway.
const CANCEL_EVERY: u64 = 1 << 12;

/// Bit 0 of each row of a band word (rows are 10 bits apart).
const L: u32 = 1 | 1 << 10 | 1 << 20;
/// The guard bit above each row (always 0 in a state).
const G: u32 = L << 9;
/// Every cell of a band.
const ALL: u32 = 511 * L;
/// Triad base bits: the first cell of each row-in-box.
const TB: u32 = 0o111 * L;
/// Triad bases of boxes 0 and 1, of box 2, of boxes 1 and 2.
const K01: u32 = 0o11 * L;
const K2: u32 = 0o100 * L;

/// Lane pattern of a register: the three bands of two digits, and a pad lane
/// after each (always 0).
const VALID: [u32; 8] = [ALL, ALL, ALL, 0, ALL, ALL, ALL, 0];

/// Eight 32-bit lanes: two digits of the state, each as its three band words
/// and a pad lane. The operations are lane-wise except `rot1`/`rot2` (rotate
/// the bands within each digit: lane i of a group takes lane i+1 / i+2 mod 3,
/// the pad lane stays) and `swap` (exchange the two digits).
trait Lanes: Copy {
    fn from_array(a: [u32; 8]) -> Self;
    fn to_array(self) -> [u32; 8];
    fn splat(x: u32) -> Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn xor(self, o: Self) -> Self;
    /// `self & !o`
    fn andnot(self, o: Self) -> Self;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn shl<const N: i32>(self) -> Self;
    fn shr<const N: i32>(self) -> Self;
    fn rot1(self) -> Self;
    fn rot2(self) -> Self;
    fn swap(self) -> Self;
    /// Every lane 0.
    fn is_zero(self) -> bool;
    /// Bit i set when lane i is 0.
    fn zero_lanes(self) -> u32;
    /// The search below state `s`, compiled for this lane type.
    fn search(ctx: &mut Search, s: &[Self; 5]);
    /// The givens of a puzzle (see [`givens_portable`]).
    #[inline(always)]
    fn givens(cells: &[u8; 81]) -> Option<([Self; 5], Self)> {
        let (g, e) = givens_portable(cells)?;
        Some((g.map(Self::from_array), Self::from_array(e)))
    }
    /// Writes a solved state as row-major digits 1..=9.
    #[inline(always)]
    fn write(s: &[Self; 5], out: &mut [u8; 81]) {
        write_portable(&s.map(Self::to_array), out)
    }
}

/// Portable lanes (plain arrays; compilers turn them into SSE2 or NEON).
#[derive(Clone, Copy)]
struct Portable([u32; 8]);

impl Portable {
    #[inline(always)]
    fn map2(self, o: Self, f: impl Fn(u32, u32) -> u32) -> Self {
        let mut r = [0u32; 8];
        for i in 0..8 {
            r[i] = f(self.0[i], o.0[i]);
        }
        Portable(r)
    }
}

impl Lanes for Portable {
    #[inline(always)]
    fn from_array(a: [u32; 8]) -> Self {
        Portable(a)
    }
    #[inline(always)]
    fn to_array(self) -> [u32; 8] {
        self.0
    }
    #[inline(always)]
    fn splat(x: u32) -> Self {
        Portable([x; 8])
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self.map2(o, |a, b| a & b)
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self.map2(o, |a, b| a | b)
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        self.map2(o, |a, b| a ^ b)
    }
    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        self.map2(o, |a, b| a & !b)
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self.map2(o, |a, b| a.wrapping_add(b))
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        self.map2(o, |a, b| a.wrapping_sub(b))
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> Self {
        self.map2(self, |a, _| a << N)
    }
    #[inline(always)]
    fn shr<const N: i32>(self) -> Self {
        self.map2(self, |a, _| a >> N)
    }
    #[inline(always)]
    fn rot1(self) -> Self {
        let a = self.0;
        Portable([a[1], a[2], a[0], a[3], a[5], a[6], a[4], a[7]])
    }
    #[inline(always)]
    fn rot2(self) -> Self {
        let a = self.0;
        Portable([a[2], a[0], a[1], a[3], a[6], a[4], a[5], a[7]])
    }
    #[inline(always)]
    fn swap(self) -> Self {
        let a = self.0;
        Portable([a[4], a[5], a[6], a[7], a[0], a[1], a[2], a[3]])
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self.0.iter().fold(0, |a, &b| a | b) == 0
    }
    #[inline(always)]
    fn zero_lanes(self) -> u32 {
        let mut m = 0;
        for i in 0..8 {
            m |= ((self.0[i] == 0) as u32) << i;
        }
        m
    }
    fn search(ctx: &mut Search, s: &[Self; 5]) {
        run(ctx, s)
    }
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    //! The lanes in two SSE2 registers: the fallback on x86-64 CPUs without
    //! AVX2.
    //!
    //! Safety: SSE2 is part of the x86-64 baseline (every x86-64 CPU has it
    //! and the target enables it), so its instructions are always available.

    use super::{Lanes, Search};
    use core::arch::x86_64::*;

    #[derive(Clone, Copy)]
    pub(super) struct Sse2([__m128i; 2]);

    impl Sse2 {
        #[inline(always)]
        fn map(self, f: impl Fn(__m128i) -> __m128i) -> Self {
            Sse2([f(self.0[0]), f(self.0[1])])
        }
        #[inline(always)]
        fn map2(self, o: Self, f: impl Fn(__m128i, __m128i) -> __m128i) -> Self {
            Sse2([f(self.0[0], o.0[0]), f(self.0[1], o.0[1])])
        }
    }

    // SAFETY (every `unsafe` block below): SSE2 is always available on
    // x86-64 (module note); loads and stores stay inside the arrays given.
    impl Lanes for Sse2 {
        #[inline(always)]
        fn from_array(a: [u32; 8]) -> Self {
            let p = a.as_ptr();
            // SAFETY: SSE2 is part of x86-64; the loads read the 32 bytes of `a`.
            unsafe { Sse2([_mm_loadu_si128(p.cast()), _mm_loadu_si128(p.add(4).cast())]) }
        }
        #[inline(always)]
        fn to_array(self) -> [u32; 8] {
            let mut a = [0u32; 8];
            let p = a.as_mut_ptr();
            // SAFETY: SSE2 is part of x86-64; the stores write the 32 bytes of `a`.
            unsafe {
                _mm_storeu_si128(p.cast(), self.0[0]);
                _mm_storeu_si128(p.add(4).cast(), self.0[1]);
            }
            a
        }
        #[inline(always)]
        fn splat(x: u32) -> Self {
            // SAFETY: SSE2 is part of x86-64.
            let v = unsafe { _mm_set1_epi32(x as i32) };
            Sse2([v, v])
        }
        #[inline(always)]
        fn and(self, o: Self) -> Self {
            // SAFETY: SSE2 is part of x86-64.
            self.map2(o, |a, b| unsafe { _mm_and_si128(a, b) })
        }
        #[inline(always)]
        fn or(self, o: Self) -> Self {
            // SAFETY: SSE2 is part of x86-64.
            self.map2(o, |a, b| unsafe { _mm_or_si128(a, b) })
        }
        #[inline(always)]
        fn xor(self, o: Self) -> Self {
            // SAFETY: SSE2 is part of x86-64.
            self.map2(o, |a, b| unsafe { _mm_xor_si128(a, b) })
        }
        #[inline(always)]
        fn andnot(self, o: Self) -> Self {
            // SAFETY: SSE2 is part of x86-64.
            self.map2(o, |a, b| unsafe { _mm_andnot_si128(b, a) })
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            // SAFETY: SSE2 is part of x86-64.
            self.map2(o, |a, b| unsafe { _mm_add_epi32(a, b) })
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            // SAFETY: SSE2 is part of x86-64.
            self.map2(o, |a, b| unsafe { _mm_sub_epi32(a, b) })
        }
        #[inline(always)]
        fn shl<const N: i32>(self) -> Self {
            // SAFETY: SSE2 is part of x86-64.
            self.map(|a| unsafe { _mm_slli_epi32::<N>(a) })
        }
        #[inline(always)]
        fn shr<const N: i32>(self) -> Self {
            // SAFETY: SSE2 is part of x86-64.
            self.map(|a| unsafe { _mm_srli_epi32::<N>(a) })
        }
        #[inline(always)]
        fn rot1(self) -> Self {
            // SAFETY: SSE2 is part of x86-64.
            self.map(|a| unsafe { _mm_shuffle_epi32::<0b11_00_10_01>(a) })
        }
        #[inline(always)]
        fn rot2(self) -> Self {
            // SAFETY: SSE2 is part of x86-64.
            self.map(|a| unsafe { _mm_shuffle_epi32::<0b11_01_00_10>(a) })
        }
        #[inline(always)]
        fn swap(self) -> Self {
            Sse2([self.0[1], self.0[0]])
        }
        #[inline(always)]
        fn is_zero(self) -> bool {
            // SAFETY: SSE2 is part of x86-64.
            unsafe {
                let o = _mm_or_si128(self.0[0], self.0[1]);
                _mm_movemask_epi8(_mm_cmpeq_epi32(o, _mm_setzero_si128())) == 0xffff
            }
        }
        #[inline(always)]
        fn zero_lanes(self) -> u32 {
            // SAFETY: SSE2 is part of x86-64.
            unsafe {
                let z = _mm_setzero_si128();
                let lo = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(self.0[0], z)));
                let hi = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(self.0[1], z)));
                (lo | hi << 4) as u32
            }
        }
        fn search(ctx: &mut Search, s: &[Self; 5]) {
            super::run(ctx, s)
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    //! The same lanes in one AVX2 register.
    //!
    //! Safety: a value of [`Avx2`] is only ever created by code that runs
    //! after `dancer_core::cpu::avx2_popcnt_bmi()` returned true (the entry
    //! point [`solve`] below, reached only from there), so every AVX2
    //! instruction these methods execute is supported by the CPU.

    use super::{Lanes, Search};
    use core::arch::x86_64::*;

    #[derive(Clone, Copy)]
    pub(super) struct Avx2(__m256i);

    impl Lanes for Avx2 {
        #[inline(always)]
        fn from_array(a: [u32; 8]) -> Self {
            // SAFETY: AVX2 is available (module invariant); the load reads
            // the 32 bytes of `a`.
            unsafe { Avx2(_mm256_loadu_si256(a.as_ptr().cast())) }
        }
        #[inline(always)]
        fn to_array(self) -> [u32; 8] {
            let mut a = [0u32; 8];
            // SAFETY: as above; the store writes the 32 bytes of `a`.
            unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), self.0) };
            a
        }
        #[inline(always)]
        fn splat(x: u32) -> Self {
            // SAFETY (here and below): AVX2 is available (module invariant).
            // SAFETY: AVX2 is available (module invariant).
            unsafe { Avx2(_mm256_set1_epi32(x as i32)) }
        }
        #[inline(always)]
        fn and(self, o: Self) -> Self {
            // SAFETY: AVX2 is available (module invariant).
            unsafe { Avx2(_mm256_and_si256(self.0, o.0)) }
        }
        #[inline(always)]
        fn or(self, o: Self) -> Self {
            // SAFETY: AVX2 is available (module invariant).
            unsafe { Avx2(_mm256_or_si256(self.0, o.0)) }
        }
        #[inline(always)]
        fn xor(self, o: Self) -> Self {
            // SAFETY: AVX2 is available (module invariant).
            unsafe { Avx2(_mm256_xor_si256(self.0, o.0)) }
        }
        #[inline(always)]
        fn andnot(self, o: Self) -> Self {
            // SAFETY: AVX2 is available (module invariant).
            unsafe { Avx2(_mm256_andnot_si256(o.0, self.0)) }
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            // SAFETY: AVX2 is available (module invariant).
            unsafe { Avx2(_mm256_add_epi32(self.0, o.0)) }
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            // SAFETY: AVX2 is available (module invariant).
            unsafe { Avx2(_mm256_sub_epi32(self.0, o.0)) }
        }
        #[inline(always)]
        fn shl<const N: i32>(self) -> Self {
            // SAFETY: AVX2 is available (module invariant).
            unsafe { Avx2(_mm256_slli_epi32::<N>(self.0)) }
        }
        #[inline(always)]
        fn shr<const N: i32>(self) -> Self {
            // SAFETY: AVX2 is available (module invariant).
            unsafe { Avx2(_mm256_srli_epi32::<N>(self.0)) }
        }
        #[inline(always)]
        fn rot1(self) -> Self {
            // lanes (1, 2, 0, 3) of each half
            // SAFETY: AVX2 is available (module invariant).
            unsafe { Avx2(_mm256_shuffle_epi32::<0b11_00_10_01>(self.0)) }
        }
        #[inline(always)]
        fn rot2(self) -> Self {
            // lanes (2, 0, 1, 3) of each half
            // SAFETY: AVX2 is available (module invariant).
            unsafe { Avx2(_mm256_shuffle_epi32::<0b11_01_00_10>(self.0)) }
        }
        #[inline(always)]
        fn swap(self) -> Self {
            // SAFETY: AVX2 is available (module invariant).
            unsafe { Avx2(_mm256_permute4x64_epi64::<0b01_00_11_10>(self.0)) }
        }
        #[inline(always)]
        fn is_zero(self) -> bool {
            // SAFETY: AVX2 is available (module invariant).
            unsafe { _mm256_testz_si256(self.0, self.0) != 0 }
        }
        #[inline(always)]
        fn zero_lanes(self) -> u32 {
            // SAFETY: AVX2 is available (module invariant).
            unsafe {
                let z = _mm256_cmpeq_epi32(self.0, _mm256_setzero_si256());
                _mm256_movemask_ps(_mm256_castsi256_ps(z)) as u32
            }
        }
        fn search(ctx: &mut Search, s: &[Self; 5]) {
            // SAFETY: Avx2 values exist only once AVX2 was detected.
            unsafe { run_avx2(ctx, s) }
        }
        #[inline(always)]
        fn givens(cells: &[u8; 81]) -> Option<([Self; 5], Self)> {
            let mut buf = [0u8; 96];
            buf[..81].copy_from_slice(cells);
            let mut g = [[0u32; 8]; 5];
            let mut e = [0u32; 8];
            for b in 0..3 {
                // SAFETY: AVX2 is available (module invariant); the load
                // reads bytes 27 b .. 27 b + 32 of `buf` (96 bytes).
                unsafe {
                    let v = _mm256_loadu_si256(buf.as_ptr().add(27 * b).cast());
                    let nine = _mm256_set1_epi8(9);
                    let ok = _mm256_cmpeq_epi8(_mm256_max_epu8(v, nine), nine);
                    if !_mm256_movemask_epi8(ok) & 0x7ff_ffff != 0 {
                        return None;
                    }
                    let cells_of = |d: i8| -> u32 {
                        let x = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(d));
                        super::expand(_mm256_movemask_epi8(x) as u32 & 0x7ff_ffff)
                    };
                    e[b] = cells_of(0);
                    e[4 + b] = e[b];
                    for d in 0..9 {
                        g[d / 2][(d % 2) * 4 + b] = cells_of(d as i8 + 1);
                    }
                }
            }
            Some((g.map(Self::from_array), Self::from_array(e)))
        }
        #[inline(always)]
        fn write(s: &[Self; 5], out: &mut [u8; 81]) {
            let w = s.map(Self::to_array);
            let mut buf = [0u8; 96];
            // SAFETY: AVX2 is available (module invariant); the stores write
            // bytes 27 b .. 27 b + 32 of `buf` (96 bytes).
            unsafe {
                // byte k of the expansion tests bit k % 8 of byte k / 8
                let sel = _mm256_setr_epi8(
                    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3,
                    3, 3, 3, 3, 3, 3,
                );
                let bits = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
                for b in 0..3 {
                    let mut acc = _mm256_setzero_si256();
                    for d in 0..9 {
                        let m = super::compact(super::word(&w, d, b));
                        let v = _mm256_shuffle_epi8(_mm256_set1_epi32(m as i32), sel);
                        let e = _mm256_cmpeq_epi8(_mm256_and_si256(v, bits), bits);
                        let dv = _mm256_set1_epi8(d as i8 + 1);
                        acc = _mm256_or_si256(acc, _mm256_and_si256(e, dv));
                    }
                    _mm256_storeu_si256(buf.as_mut_ptr().add(27 * b).cast(), acc);
                }
            }
            out.copy_from_slice(&buf[..81]);
        }
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
    unsafe fn run_avx2(ctx: &mut Search, s: &[Avx2; 5]) {
        super::run(ctx, s)
    }

    /// The whole solve with AVX2 lanes.
    ///
    /// # Safety
    /// The CPU must support AVX2, POPCNT, BMI1 and BMI2.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
    pub(super) unsafe fn solve(cells: &[u8; 81], ctx: &mut Search) {
        super::start::<Avx2>(cells, ctx)
    }
}

/// Naked and hidden singles: finds the cells whose digit is known (the
/// only candidate of the cell, or the only place of the digit in its row)
/// and clears the rest of their row and the other digits of the cell.
/// Returns the naked-single mask of the state it started from and the
/// contradictions found (nonzero lanes).
#[inline(always)]
fn singles<V: Lanes>(r: &mut [V; 5]) -> (V, V) {
    let sp = V::splat;
    // Cells with one candidate (n) and with none (err).
    let mut o = r[0];
    let mut t = r[0].xor(r[0]);
    for &x in &r[1..] {
        t = t.or(o.and(x));
        o = o.or(x);
    }
    let (o2, t2) = (o.swap(), t.swap());
    t = t.or(t2).or(o.and(o2));
    o = o.or(o2);
    let mut err = o.xor(V::from_array(VALID));
    let n = o.andnot(t);

    // Forced cells of each digit: naked singles and hidden singles in rows.
    let mut f = [n; 5];
    let mut fo = n.xor(n);
    let mut ft = fo;
    for (k, &x) in r.iter().enumerate() {
        let nz = x.add(sp(511 * L)).and(sp(G));
        let m = x.and(x.or(sp(G)).sub(sp(L)));
        let ge2 = m.add(sp(511 * L)).and(sp(G));
        let s = nz.andnot(ge2);
        let rs = x.and(s.sub(s.shr::<9>()));
        let fk = x.and(n).or(rs);
        f[k] = fk;
        ft = ft.or(fo.and(fk));
        fo = fo.or(fk);
        // two forced cells in a row
        err = err.or(fk.and(fk.or(sp(G)).sub(sp(L))));
    }
    let (fo2, ft2) = (fo.swap(), ft.swap());
    ft = ft.or(ft2).or(fo.and(fo2));
    fo = fo.or(fo2);
    err = err.or(ft);

    for (x, &fk) in r.iter_mut().zip(&f) {
        // the rest of each forced cell's row and the other digits of the
        // cell (the band rule then clears its box, the stack rule its column)
        let nzf = fk.add(sp(511 * L)).and(sp(G));
        let fill = nzf.sub(nzf.shr::<9>());
        *x = x.andnot(fill.or(fo).xor(fk));
    }
    (n, err)
}

/// The band rule (the digit takes one triad, a row of a box, per row and
/// per box of a band: keep the triads that lie on such a permutation inside
/// the occupancy) and the same stack rule on columns x bands. True if a
/// digit-band lost all its candidates.
#[inline(always)]
fn perms<V: Lanes>(r: &mut [V; 5]) -> bool {
    for x in r.iter_mut() {
        // triad occupancy at the triad base bits (other bits: junk that the
        // masks of rot_k and the ANDs below remove)
        let t = x.or(x.shr::<1>()).or(x.shr::<2>());
        let kt = rot_k(t);
        let rt = rot_r(t);
        let z = t.and(rot_r(kt)).or(kt.and(rt));
        let a = t.and(rot_r(rot_k(z)));
        *x = x.and(a.or(a.shl::<1>()).or(a.shl::<2>()));
    }
    for x in r.iter_mut() {
        // column occupancy in bits 0..9 (junk above, removed as in the band rule)
        let c = x.or(x.shr::<10>()).or(x.shr::<20>());
        let j = rot_j(c);
        let z = c.and(j.rot1()).or(j.and(c.rot1()));
        let a = c.and(rot_j(z).rot1());
        *x = x.and(a.or(a.shl::<10>()).or(a.shl::<20>()));
    }
    let zl = r[0].zero_lanes()
        | r[1].zero_lanes()
        | r[2].zero_lanes()
        | r[3].zero_lanes()
        | (r[4].zero_lanes() & 0x0f);
    zl & 0x77 != 0
}

/// Whether two states differ.
#[inline(always)]
fn differ<V: Lanes>(a: &[V; 5], b: &[V; 5]) -> bool {
    let mut d = a[0].xor(b[0]);
    for k in 1..5 {
        d = d.or(a[k].xor(b[k]));
    }
    !d.is_zero()
}

/// Triads: (r, k) takes (r, k + 1).
#[inline(always)]
fn rot_k<V: Lanes>(t: V) -> V {
    t.shr::<3>()
        .and(V::splat(K01))
        .or(t.shl::<6>().and(V::splat(K2)))
}

/// Triads: row r takes row r + 1.
#[inline(always)]
fn rot_r<V: Lanes>(t: V) -> V {
    t.shr::<10>().or(t.shl::<20>())
}

/// Columns (9 bits): column j of a stack takes column j + 1.
#[inline(always)]
fn rot_j<V: Lanes>(c: V) -> V {
    c.shr::<1>()
        .and(V::splat(0o333))
        .or(c.shl::<2>().and(V::splat(0o444)))
}

/// Propagates to a fixpoint. Err on contradiction, Ok(true) when solved.
#[inline(always)]
fn propagate<V: Lanes>(r: &mut [V; 5]) -> Result<bool, ()> {
    loop {
        let s0 = *r;
        let (n, err) = singles(r);
        if !err.is_zero() || perms(r) {
            return Err(());
        }
        if !differ(r, &s0) {
            return Ok(n.xor(V::from_array(VALID)).is_zero());
        }
    }
}

/// Word of digit d, band b in the array form of a state.
#[inline(always)]
fn word(w: &[[u32; 8]; 5], d: usize, b: usize) -> u32 {
    w[d / 2][(d % 2) * 4 + b]
}

/// Below this many unsolved cells, branch on the first bivalue cell found.
const FEW_UNSOLVED: u32 = 30;

/// Cell i of a band word (bit 10 r + c) -> its peers inside the band (row,
/// box and so column), itself excluded.
static BAND_PEERS: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut i = 0;
    while i < 30 {
        let (r, c) = (i / 10, i % 10);
        let mut m = 0u32;
        let mut j = 0;
        while j < 30 {
            let (r2, c2) = (j / 10, j % 10);
            if c < 9 && c2 < 9 && j != i && (r2 == r || c2 / 3 == c / 3) {
                m |= 1 << j;
            }
            j += 1;
        }
        t[i] = m;
        i += 1;
    }
    t
};

/// The candidate digits (bit d) of cell i of band b.
#[inline(always)]
fn digits(w: &[[u32; 8]; 5], b: usize, i: u32) -> u32 {
    let mut ds = 0;
    for d in 0..9 {
        ds |= ((word(w, d, b) >> i) & 1) << d;
    }
    ds
}

/// Chooses a cell to branch on: (band, bit, digit mask). A cell with two
/// candidates, the one with the most unsolved peers (late in the search,
/// with few cells left, the first one), else one with the fewest.
#[inline(always)]
fn choose<V: Lanes>(s: &[V; 5]) -> (usize, u32, u32) {
    // o, t, h: cells with at least one, two, three candidates
    let mut o = s[0];
    let mut t = o.xor(o);
    let mut h = t;
    for &x in &s[1..] {
        h = h.or(t.and(x));
        t = t.or(o.and(x));
        o = o.or(x);
    }
    let (o2, t2, h2) = (o.swap(), t.swap(), h.swap());
    h = h.or(h2).or(t.and(o2)).or(o.and(t2));
    t = t.or(t2).or(o.and(o2));
    let un = t.to_array();
    let bv = t.andnot(h).to_array();
    let w = s.map(V::to_array);
    let mut bis = (bv[0] as u128) | (bv[1] as u128) << 32 | (bv[2] as u128) << 64;
    if bis == 0 {
        let mut best = (0usize, 0u32, 0u32);
        let mut best_n = 10;
        for (b, &ub) in un[..3].iter().enumerate() {
            let mut u = ub;
            while u != 0 {
                let i = u.trailing_zeros();
                u &= u - 1;
                let ds = digits(&w, b, i);
                let n = ds.count_ones();
                if n < best_n {
                    best_n = n;
                    best = (b, i, ds);
                }
            }
        }
        return best;
    }
    let nun = un[0].count_ones() + un[1].count_ones() + un[2].count_ones();
    let mut best = bis.trailing_zeros();
    if nun >= FEW_UNSOLVED {
        let mut bs = 0;
        while bis != 0 {
            let p = bis.trailing_zeros();
            bis &= bis - 1;
            let (b, i) = ((p / 32) as usize, p % 32);
            let c = i % 10;
            let (b1, b2) = ((b + 1) % 3, (b + 2) % 3);
            let col = ((un[b1] >> c) & L) | ((un[b2] >> c) & L) << 1;
            let sc = (un[b] & BAND_PEERS[i as usize]).count_ones() + col.count_ones();
            if sc >= bs {
                bs = sc;
                best = p;
            }
        }
    }
    let (b, i) = ((best / 32) as usize, best % 32);
    (b, i, digits(&w, b, i))
}

/// Search context: the depth-first search places at least one more cell at
/// each recursion level, so the depth is at most 81.
struct Search<'a> {
    limit: u64,
    count: u64,
    out: &'a mut [[u8; 81]],
    guesses: u64,
    /// Looked at every [`CANCEL_EVERY`] solutions; once set, `limit`
    /// drops to the count, which ends the search.
    cancel: Option<&'a std::sync::atomic::AtomicBool>,
    cancelled: bool,
}

impl Search<'_> {
    /// At a solution: stops the search when the cancel flag is set.
    #[cold]
    fn look_at_cancel(&mut self) {
        if self
            .cancel
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
        {
            self.cancelled = true;
            self.limit = self.count;
        }
    }
}

/// Band word (bit 10 r + c) -> 27 bits (bit 9 r + c).
#[inline(always)]
fn compact(x: u32) -> u32 {
    (x & 0x1ff) | (x >> 1) & (0x1ff << 9) | (x >> 2) & (0x1ff << 18)
}

/// 27 bits (bit 9 r + c) -> band word (bit 10 r + c).
#[inline(always)]
fn expand(x: u32) -> u32 {
    (x & 0x1ff) | (x & (0x1ff << 9)) << 1 | (x & (0x1ff << 18)) << 2
}

/// Writes a solved state (in array form) as row-major digits 1..=9.
fn write_portable(w: &[[u32; 8]; 5], out: &mut [u8; 81]) {
    for d in 0..9 {
        for b in 0..3 {
            let mut x = compact(word(w, d, b));
            while x != 0 {
                let i = x.trailing_zeros() as usize;
                x &= x - 1;
                if let Some(o) = out.get_mut(b * 27 + i) {
                    *o = d as u8 + 1;
                }
            }
        }
    }
}

/// The givens of a puzzle, in array form: the cells given each digit, and
/// the empty cells (in the lanes of every digit). None if a byte is over 9.
fn givens_portable(cells: &[u8; 81]) -> Option<([[u32; 8]; 5], [u32; 8])> {
    let mut g = [[0u32; 3]; 10];
    for (b, band) in cells.chunks_exact(27).enumerate() {
        for (i, &v) in band.iter().enumerate() {
            *g.get_mut(v as usize)?.get_mut(b)? |= 1 << i;
        }
    }
    let mut w = [[0u32; 8]; 5];
    let mut e = [0u32; 8];
    for b in 0..3 {
        for d in 0..9 {
            w[d / 2][(d % 2) * 4 + b] = expand(g[d + 1][b]);
        }
        e[b] = expand(g[0][b]);
        e[4 + b] = e[b];
    }
    Some((w, e))
}

/// The initial state: the empty cells keep every digit but those of the
/// givens among their peers (row, box, column); each given keeps its digit.
#[inline(always)]
fn initial<V: Lanes>(g: &[V; 5], empty: V) -> [V; 5] {
    let sp = V::splat;
    let mut s = *g;
    for (k, (x, &gk)) in s.iter_mut().zip(g).enumerate() {
        let e = if k == 4 {
            empty.and(V::from_array(HALF[0]))
        } else {
            empty
        };
        let nz = gk.add(sp(511 * L)).and(sp(G));
        let rows = nz.sub(nz.shr::<9>());
        let t = gk.or(gk.shr::<1>()).or(gk.shr::<2>()).and(sp(TB));
        let bx = t.or(t.shr::<10>()).or(t.shr::<20>()).and(sp(0o111));
        let bx = bx.or(bx.shl::<10>()).or(bx.shl::<20>());
        let boxes = bx.or(bx.shl::<1>()).or(bx.shl::<2>());
        let c = gk.or(gk.shr::<10>()).or(gk.shr::<20>()).and(sp(511));
        let c = c.or(c.rot1()).or(c.rot2());
        let cols = c.or(c.shl::<10>()).or(c.shl::<20>());
        *x = e.andnot(rows.or(boxes).or(cols)).or(gk);
    }
    s
}

/// HALF[h]: all ones in the lanes of digit half h.
static HALF: [[u32; 8]; 2] = [[!0, !0, !0, !0, 0, 0, 0, 0], [0, 0, 0, 0, !0, !0, !0, !0]];

/// PEERS[b][i]: the peers of cell i of band b, in the lanes of the three
/// bands of a digit (both halves): row and box in band b, the column in the
/// other two.
static PEERS: [[[u32; 8]; 32]; 3] = {
    let mut t = [[[0u32; 8]; 32]; 3];
    let mut b = 0;
    while b < 3 {
        let mut i = 0;
        while i < 30 {
            if i % 10 < 9 {
                let mut b2 = 0;
                while b2 < 3 {
                    let m = if b2 == b {
                        BAND_PEERS[i]
                    } else {
                        L << (i % 10)
                    };
                    t[b][i][b2] = m;
                    t[b][i][4 + b2] = m;
                    b2 += 1;
                }
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// LANE[j]: all ones in lane j, zeros elsewhere.
static LANE: [[u32; 8]; 8] = {
    let mut t = [[0u32; 8]; 8];
    let mut j = 0;
    while j < 8 {
        t[j][j] = !0;
        j += 1;
    }
    t
};

/// BAND[b]: all ones in the lanes of band b (both digits), zeros elsewhere.
static BAND: [[u32; 8]; 3] = {
    let mut t = [[0u32; 8]; 3];
    let mut b = 0;
    while b < 3 {
        t[b][b] = !0;
        t[b][4 + b] = !0;
        b += 1;
    }
    t
};

#[inline(always)]
fn run<V: Lanes>(ctx: &mut Search, s0: &[V; 5]) {
    let mut s = *s0;
    loop {
        let Ok(done) = propagate(&mut s) else {
            return;
        };
        if done {
            if let Some(o) = ctx.out.get_mut(ctx.count as usize) {
                V::write(&s, o);
            }
            ctx.count += 1;
            if ctx.count % CANCEL_EVERY == 0 {
                ctx.look_at_cancel();
            }
            return;
        }
        let (b, i, mut ds) = choose(&s);
        if ds & ds.wrapping_sub(1) == 0 {
            // not a cell with two candidates or more (cannot happen)
            return;
        }
        let bit = V::splat(1 << i);
        let cell = bit.and(V::from_array(BAND[b]));
        let peers = V::from_array(PEERS[b][i as usize]);
        loop {
            let d = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            ctx.guesses += 1;
            let one = bit.and(V::from_array(LANE[(d % 2) * 4 + b]));
            let pd = peers.and(V::from_array(HALF[d % 2]));
            if ds == 0 {
                // the last candidate: the others were cleared already
                s[d / 2] = s[d / 2].andnot(pd);
                break;
            }
            let mut c = s;
            for x in c.iter_mut() {
                *x = x.andnot(cell);
            }
            c[d / 2] = c[d / 2].andnot(pd).or(one);
            V::search(ctx, &c);
            if ctx.count >= ctx.limit {
                return;
            }
            s[d / 2] = s[d / 2].andnot(one);
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
    solve_with(cells, limit, out, stats, Path::Best, None)
}

/// [`solve`], stopped when `cancel` is set (looked at every 4,096
/// solutions): then `stats.cancelled` says so, and the count returned is
/// only those found before.
pub fn solve_cancellable(
    cells: &[u8; 81],
    limit: u64,
    out: &mut [[u8; 81]],
    stats: &mut Fast9Stats,
    cancel: Option<&std::sync::atomic::AtomicBool>,
) -> u64 {
    solve_with(cells, limit, out, stats, Path::Best, cancel)
}

/// The whole search with lanes V.
#[inline(always)]
fn start<V: Lanes>(cells: &[u8; 81], ctx: &mut Search) {
    if let Some((g, empty)) = V::givens(cells) {
        V::search(ctx, &initial(&g, empty));
    }
}

/// Which lanes to run on (the others are compared with `Best` in tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))]
enum Path {
    /// The fastest the CPU supports (AVX2, else SSE2 on x86-64, else plain).
    Best,
    /// SSE2 on x86-64, plain arrays elsewhere.
    Sse2,
    /// Plain arrays.
    Portable,
}

fn solve_with(
    cells: &[u8; 81],
    limit: u64,
    out: &mut [[u8; 81]],
    stats: &mut Fast9Stats,
    path: Path,
    cancel: Option<&std::sync::atomic::AtomicBool>,
) -> u64 {
    *stats = Fast9Stats::default();
    if limit == 0 {
        return 0;
    }
    let mut ctx = Search {
        limit,
        count: 0,
        out,
        guesses: 0,
        cancel,
        cancelled: false,
    };
    match path {
        #[cfg(target_arch = "x86_64")]
        Path::Best if dancer_core::cpu::avx2_popcnt_bmi() => {
            // SAFETY: the features were just detected.
            unsafe { avx2::solve(cells, &mut ctx) }
        }
        #[cfg(target_arch = "x86_64")]
        Path::Best | Path::Sse2 => start::<sse2::Sse2>(cells, &mut ctx),
        _ => start::<Portable>(cells, &mut ctx),
    }
    stats.guesses = ctx.guesses;
    stats.cancelled = ctx.cancelled;
    ctx.count
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

    /// `solve`, and the SSE2 and plain lanes too: all must give the same
    /// count, the same statistics and write the same solutions.
    fn solve_both(p: &[u8; 81], limit: u64, out: &mut [[u8; 81]], st: &mut Fast9Stats) -> u64 {
        let n = solve(p, limit, out, st);
        for path in [Path::Sse2, Path::Portable] {
            let mut out2 = vec![[0u8; 81]; out.len()];
            let mut st2 = Fast9Stats::default();
            let n2 = solve_with(p, limit, &mut out2, &mut st2, path, None);
            assert_eq!(n, n2, "{path:?}: another count");
            assert_eq!(*st, st2, "{path:?}: other statistics");
            let written = out.len().min(n as usize);
            assert_eq!(out[..written], out2[..written], "{path:?}: other solutions");
        }
        n
    }

    /// Solves with `limit` (both lane types), checks every solution kept and
    /// that they differ.
    fn solve_checked(p: &[u8; 81], limit: u64, keep: usize) -> (u64, Vec<[u8; 81]>) {
        let mut out = vec![[0u8; 81]; keep];
        let mut st = Fast9Stats::default();
        let n = solve_both(p, limit, &mut out, &mut st);
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
            assert_eq!(solve_both(&p, 2, &mut out, &mut st), 0);
            assert_eq!(solve_both(&p, u64::MAX, &mut out, &mut st), 0);
        }
        // limit 0 finds nothing
        assert_eq!(solve_both(&base, 0, &mut out, &mut st), 0);
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
            assert_eq!(solve_both(&p, u64::MAX, &mut out, &mut st), 0, "{line}");
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
        assert_eq!(solve_both(&empty, 7, &mut out, &mut st), 7);
        check(&empty, &out[0]).unwrap();
        assert!(st.guesses > 0);
        // out empty
        assert_eq!(solve_both(&empty, 3, &mut [], &mut st), 3);
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

    fn shared_sample(file: &str, expect: u64) {
        let Some(path) = dancer_testdata::shared_file("sudoku", file) else {
            return;
        };
        let text = std::fs::read_to_string(&path).unwrap();
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
