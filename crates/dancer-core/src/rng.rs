//! # The random numbers
//!
//! One generator for the workspace: [`SplitMix64`] (Steele, Lea and
//! Flood's; Vigna's constants), small, fast, and the same words for the
//! same seed on every machine. `dancer zdd sample --seed` draws with it,
//! and the Sudoku canonical form's tests transform grids with it.
//!
//! Two older streams are kept where they are, because what they drew is
//! what users got and may have kept: Knuth's tree estimates behind `auto`
//! draw with xorshift64 (`stats.rs`: the engine `auto` picks on a close
//! call would change with another stream), and the Sudoku generator's
//! puzzles of a given `--seed` come from its xorshift64* (`generate.rs`).
//! New code draws from [`SplitMix64`].

/// Sebastiano Vigna's SplitMix64: a small, fast generator of uniformly
/// distributed 64-bit words, the same words for the same seed on every
/// machine (what `dancer zdd sample --seed` promises).
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
