//! # The random numbers
//!
//! Every random number of the workspace is drawn here, through one
//! interface, [`Draw`]: a 64-bit word, a number below `n`, a shuffle.
//! New code draws from [`SplitMix64`] (Steele, Lea and Flood's; Vigna's
//! constants), small, fast, and the same words for the same seed on every
//! machine: `dancer zdd sample --seed` draws with it, and the Sudoku
//! canonical form's tests transform grids with it.
//!
//! Two older streams are kept, as generators of this module, because what
//! they drew is what users got and may have kept: Knuth's tree estimates
//! behind `auto` draw with [`XorShift64`] (the engine `auto` picks on a
//! close call would change with another stream), and the Sudoku
//! generator's puzzles of a given `--seed` come from [`XorShift64Star`].
//! Each is Marsaglia's xorshift; the star multiplies its output. The
//! tests' own generator (`dancer_testdata::Lcg`) implements [`Draw`] too.

/// What every generator gives: words, and from them a number below `n`
/// and a shuffle (the same for every generator, so that a stream is its
/// words and nothing else).
pub trait Draw {
    /// The next word.
    fn next_u64(&mut self) -> u64;

    /// A number below `n` (`n` at least 1), by the remainder: the bias is
    /// below `n / 2^64` for a generator of 64-bit words.
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Shuffles `v` (Fisher and Yates).
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// Marsaglia's xorshift64 (shifts 13, 7, 17), the stream of Knuth's
/// tree-size estimates; any seed (0 is made odd).
#[derive(Clone, Debug)]
pub struct XorShift64(u64);

impl XorShift64 {
    pub fn new(seed: u64) -> Self {
        XorShift64(seed | 1)
    }
}

impl Draw for XorShift64 {
    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Vigna's xorshift64* (shifts 12, 25, 27, then a multiply), the stream
/// of the Sudoku generator's `--seed`; the seed is spread by a multiply.
#[derive(Clone, Debug)]
pub struct XorShift64Star(u64);

impl XorShift64Star {
    pub fn new(seed: u64) -> Self {
        XorShift64Star(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
}

impl Draw for XorShift64Star {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Sebastiano Vigna's SplitMix64: a small, fast generator of uniformly
/// distributed 64-bit words, the same words for the same seed on every
/// machine (what `dancer zdd sample --seed` promises).
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }
}

impl Draw for SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first words of each stream for seed 1, as they were drawn before
    /// the generators came here: a changed stream changes what users got.
    const XORSHIFT64: [u64; 3] = [1082269761, 1152992998833853505, 11177516664432764457];
    const XORSHIFT64_STAR: [u64; 3] = [
        973819730272012410,
        6108091081255984487,
        12125365036566318712,
    ];
    const SPLITMIX64: [u64; 3] = [
        10451216379200822465,
        13757245211066428519,
        17911839290282890590,
    ];

    #[test]
    fn the_streams_are_what_users_got() {
        let words = |mut r: Box<dyn FnMut() -> u64>| [r(), r(), r()];
        let mut a = XorShift64::new(1);
        let mut b = XorShift64Star::new(1);
        let mut c = SplitMix64::new(1);
        assert_eq!(words(Box::new(move || a.next_u64())), XORSHIFT64);
        assert_eq!(words(Box::new(move || b.next_u64())), XORSHIFT64_STAR);
        assert_eq!(words(Box::new(move || c.next_u64())), SPLITMIX64);
    }

    #[test]
    fn below_and_shuffle_stay_in_range_and_keep_the_elements() {
        let mut r = SplitMix64::new(7);
        for n in 1..50 {
            assert!(r.below(n) < n);
        }
        let mut v: Vec<u32> = (0..100).collect();
        r.shuffle(&mut v);
        assert_ne!(v, (0..100).collect::<Vec<_>>());
        v.sort_unstable();
        assert_eq!(v, (0..100).collect::<Vec<_>>());
    }
}
