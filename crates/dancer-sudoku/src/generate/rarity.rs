//! How often the generator makes a puzzle of each SE rating: a measured
//! sample, so that a request for rare ratings can say at once what it may
//! expect.
//!
//! The sample: 9x9 puzzles made by [`super::generate`] with no range and
//! no symmetry, minimal (as `dancer sudoku generate` makes them), each
//! rated in full; [`SAMPLE`] puzzles in all, counted by rating in tenths
//! ([`COUNTS`]). Made with `dancer sudoku generate --count N --rating
//! 1.0-12 --json --threads 1 --seed S` (seeds in [`SAMPLE_SEEDS`]: 20,000
//! puzzles from seed 1, 150,000 from each of seeds 2 and 3), which rates
//! every candidate and keeps it. The runs of seeds 2 and 3, side by side
//! on a 2-core machine, measured the speed: [`CANDIDATES_PER_SECOND`]
//! candidates a second on one thread. The hardest puzzle of the sample
//! rated 9.2; 592 rated 9.0 to 9.5, none higher.
//!
//! A range the sample never reached gets an upper bound, the rule of
//! three: with none in `n`, the share is below `3/n` at 95% confidence.

use super::RatingRange;

/// Puzzles in the sample.
pub const SAMPLE: u64 = SAMPLE_TOTAL;

/// The seeds of the sample's runs.
pub const SAMPLE_SEEDS: &[u64] = &[1, 2, 3];

/// Candidates rated a second on one thread, in the sample's runs.
pub const CANDIDATES_PER_SECOND: f64 = CANDIDATES_PER_SECOND_MEASURED;

/// Puzzles in the sample (the sum of [`COUNTS`]).
const SAMPLE_TOTAL: u64 = 320000;

/// Candidates a second on one thread, measured.
const CANDIDATES_PER_SECOND_MEASURED: f64 = 379.0;

/// (rating in tenths, puzzles of the sample so rated), by rating.
pub const COUNTS: &[(u16, u64)] = &[
    (12, 4979),
    (15, 73059),
    (17, 4575),
    (20, 64213),
    (23, 11029),
    (25, 3443),
    (26, 19508),
    (28, 5262),
    (30, 4065),
    (32, 723),
    (34, 2601),
    (36, 588),
    (38, 73),
    (40, 19743),
    (41, 2598),
    (42, 13989),
    (43, 4537),
    (44, 2225),
    (45, 5213),
    (46, 392),
    (47, 38),
    (48, 1),
    (50, 53),
    (52, 8),
    (54, 585),
    (55, 6467),
    (56, 7161),
    (57, 1493),
    (58, 2),
    (59, 2),
    (60, 2),
    (61, 1),
    (62, 78),
    (63, 2171),
    (64, 3127),
    (66, 311),
    (67, 574),
    (68, 1178),
    (69, 442),
    (70, 286),
    (71, 16531),
    (72, 21041),
    (73, 6106),
    (74, 302),
    (75, 76),
    (77, 92),
    (78, 209),
    (79, 92),
    (80, 24),
    (81, 3),
    (82, 386),
    (83, 4139),
    (84, 2428),
    (85, 702),
    (86, 41),
    (87, 10),
    (88, 61),
    (89, 370),
    (90, 492),
    (91, 90),
    (92, 10),
];

/// How often the generator makes a puzzle of a range of ratings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rarity {
    /// Puzzles of the sample in the range.
    pub hits: u64,
    /// Puzzles in the sample.
    pub sample: u64,
}

impl Rarity {
    /// The share of candidates expected in the range: measured, or (none
    /// in the sample) its upper bound `3/sample`.
    pub fn share(&self) -> f64 {
        if self.hits == 0 {
            3.0 / self.sample as f64
        } else {
            self.hits as f64 / self.sample as f64
        }
    }

    /// Whether the sample never reached the range: random generation
    /// practically never does.
    pub fn never_seen(&self) -> bool {
        self.hits == 0
    }

    /// Candidates expected per puzzle of the range (at least that many when
    /// [`Rarity::never_seen`]).
    pub fn candidates_per_puzzle(&self) -> f64 {
        1.0 / self.share()
    }

    /// Seconds a puzzle of the range is expected to take on `threads`
    /// threads at the sample's speed (at least that when never seen).
    pub fn seconds_per_puzzle(&self, threads: usize) -> f64 {
        self.candidates_per_puzzle() / (CANDIDATES_PER_SECOND * threads.max(1) as f64)
    }
}

impl RatingRange {
    /// How often the generator makes a puzzle of these ratings, from the
    /// sample.
    pub fn rarity(&self) -> Rarity {
        let hits = COUNTS
            .iter()
            .filter(|&&(tenths, _)| {
                let r = f64::from(tenths) / 10.0;
                r >= self.min - 1e-9 && r <= self.max + 1e-9
            })
            .map(|&(_, n)| n)
            .sum();
        Rarity {
            hits,
            sample: SAMPLE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_adds_up_and_bounds_the_unseen() {
        let all: u64 = COUNTS.iter().map(|&(_, n)| n).sum();
        assert_eq!(all, SAMPLE);
        assert!(COUNTS.windows(2).all(|w| w[0].0 < w[1].0), "by rating");
        let every = RatingRange {
            min: 1.0,
            max: 12.0,
        };
        assert_eq!(every.rarity().hits, SAMPLE);
        let top = RatingRange {
            min: 11.0,
            max: 12.0,
        };
        let r = top.rarity();
        assert!(r.never_seen());
        assert!((r.share() - 3.0 / SAMPLE as f64).abs() < 1e-15);
        assert!(r.seconds_per_puzzle(2) < r.seconds_per_puzzle(1));
        let easy = RatingRange { min: 1.0, max: 1.5 }.rarity();
        assert!(!easy.never_seen() && easy.share() > 0.1, "{easy:?}");
    }
}
