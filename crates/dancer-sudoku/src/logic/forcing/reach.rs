//! How far a candidate's static chains reach, digit plane by digit plane:
//! the test at the heart of level 2's inner rule (`inner.rs`), which asks,
//! for every candidate of an assumed grid, on and off, in modes X and XY,
//! whether a chain leads it to its own opposite, and in how many links.
//!
//! Tens of thousands of assumed grids are searched a puzzle, each from a
//! few hundred starts, and almost no start gets there, so the walk is
//! what costs. It is breadth first, the frontier of one polarity at a
//! time, as [`Walker`](super::super::chains::Walker) walks candidate sets;
//! here a set is one [`Cells`] bitboard per digit (a digit plane), so that
//! the links are bitboard operations on the grid's own masks and nothing
//! is built per grid but the planes below:
//!
//! ```text
//! on -> off   a digit's peers:        PEER_MASK[x] & cells[d], x in the frontier of d
//!             its cell's other digits: (frontier of the other digits) & cells[d]   (XY)
//! off -> on   a unit's two places:    pair (a, b) of d: a in the frontier gives b
//!             a bivalue cell:         frontier of d & bivalue cells {d, e} gives e  (XY)
//! ```
//!
//! In mode X a chain never leaves its digit's plane, so its walk keeps one
//! bitboard a polarity. The number of links found is the breadth-first
//! distance from the start node to its opposite, which is all the caller
//! takes from it: the chain itself is then grown by `inner::path_to` in
//! SE's link order. Invariant, checked by a test: the distance is the one
//! a [`Walker`](super::super::chains::Walker) on the grid's
//! [`Layers`](super::super::chains::Layers) finds, for every start.

use super::super::board::*;

/// The digit planes of a grid and its strong links.
pub(super) struct Planes {
    /// For each digit index, the cells where it is a candidate.
    cells: [Cells; 9],
    /// The pairs of places of a digit alone in a unit, as (a, b), those of
    /// digit index `d` at `pairs[pair_start[d]..pair_start[d + 1]]` (a pair
    /// in two units is there twice, which does no harm).
    pairs: Vec<(u8, u8)>,
    pair_start: [usize; 10],
    /// Bivalue cells by their digits: (d, e, cells), both ways round.
    biv: Vec<(u8, u8, Cells)>,
}

impl Planes {
    pub(super) fn new(cands: &[Digits; 81]) -> Self {
        let mut cells = [0 as Cells; 9];
        for (c, &m) in cands.iter().enumerate() {
            for d in digits_of(m) {
                cells[d as usize - 1] |= 1 << c;
            }
        }
        let mut pairs = Vec::with_capacity(64);
        let mut pair_start = [0; 10];
        for (di, &plane) in cells.iter().enumerate() {
            for mask in &UNIT_MASK {
                let p = plane & mask;
                if p.count_ones() == 2 {
                    let a = p.trailing_zeros() as u8;
                    let b = (127 - p.leading_zeros()) as u8;
                    pairs.push((a, b));
                }
            }
            pair_start[di + 1] = pairs.len();
        }
        let mut by_pair = [[0 as Cells; 9]; 9];
        for (c, &m) in cands.iter().enumerate() {
            if m.count_ones() == 2 {
                let d = m.trailing_zeros() as usize;
                let e = 15 - m.leading_zeros() as usize;
                by_pair[d][e] |= 1 << c;
            }
        }
        let mut biv = Vec::new();
        for d in 0..9 {
            for e in d + 1..9 {
                let m = by_pair[d][e];
                if m != 0 {
                    biv.push((d as u8, e as u8, m));
                    biv.push((e as u8, d as u8, m));
                }
            }
        }
        Planes {
            cells,
            pairs,
            pair_start,
            biv,
        }
    }

    /// The on-places that the off-places `from` of digit index `d` give by
    /// its units' strong links.
    #[inline]
    fn conjugates(&self, d: usize, from: Cells) -> Cells {
        let mut out = 0;
        for &(a, b) in &self.pairs[self.pair_start[d]..self.pair_start[d + 1]] {
            out |= (from >> a & 1) << b | (from >> b & 1) << a;
        }
        out
    }

    /// The off-places of digit index `d` that the on-places `from` of the
    /// same digit see.
    #[inline]
    fn peers(&self, d: usize, mut from: Cells) -> Cells {
        let mut out = 0;
        while from != 0 {
            out |= PEER_MASK[from.trailing_zeros() as usize];
            from &= from - 1;
        }
        out & self.cells[d]
    }

    /// Mode X: the number of links from candidate (`cell`, digit index
    /// `d`), on or off, to its opposite, if a chain gets there.
    pub(super) fn reach_x(&self, cell: usize, d: usize, on: bool) -> Option<usize> {
        let me: Cells = 1 << cell;
        let (mut seen_on, mut seen_off) = if on { (me, 0) } else { (0, me) };
        let mut frontier = me;
        let mut now_on = on;
        let mut t = 0;
        loop {
            let new = if now_on {
                let n = self.peers(d, frontier) & !seen_off;
                seen_off |= n;
                n
            } else {
                let n = self.conjugates(d, frontier) & !seen_on;
                seen_on |= n;
                n
            };
            now_on = !now_on;
            t += 1;
            if new == 0 {
                return None;
            }
            if now_on != on && new & me != 0 {
                return Some(t);
            }
            frontier = new;
        }
    }

    /// Mode XY: as [`Planes::reach_x`], on every plane.
    pub(super) fn reach_xy(&self, cell: usize, d: usize, on: bool) -> Option<usize> {
        let me: Cells = 1 << cell;
        let mut seen_on = [0 as Cells; 9];
        let mut seen_off = [0 as Cells; 9];
        let mut frontier = [0 as Cells; 9];
        frontier[d] = me;
        if on {
            seen_on[d] = me;
        } else {
            seen_off[d] = me;
        }
        let mut now_on = on;
        let mut t = 0;
        loop {
            let mut new = [0 as Cells; 9];
            if now_on {
                // the frontier of the digits before and after each digit
                let mut after = [0 as Cells; 10];
                for e in (0..9).rev() {
                    after[e] = after[e + 1] | frontier[e];
                }
                let mut before = 0;
                for e in 0..9 {
                    let mates = (before | after[e + 1]) & self.cells[e];
                    new[e] = (self.peers(e, frontier[e]) | mates) & !seen_off[e];
                    seen_off[e] |= new[e];
                    before |= frontier[e];
                }
            } else {
                for (e, n) in new.iter_mut().enumerate() {
                    if frontier[e] != 0 {
                        *n = self.conjugates(e, frontier[e]);
                    }
                }
                for &(e, f, m) in &self.biv {
                    new[f as usize] |= frontier[e as usize] & m;
                }
                for (n, s) in new.iter_mut().zip(seen_on.iter_mut()) {
                    *n &= !*s;
                    *s |= *n;
                }
            }
            now_on = !now_on;
            t += 1;
            if new.iter().all(|&n| n == 0) {
                return None;
            }
            if now_on != on && new[d] & me != 0 {
                return Some(t);
            }
            frontier = new;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::chains::{node, Layers, Mode, Net, NCAND};
    use super::*;

    /// The distance of the lockstep walker on the net's layers.
    fn walker_reach(layers: &Layers, start: usize) -> Option<usize> {
        use super::super::super::chains::{set_has, Walker};
        let c = start >> 1;
        let mut w = Walker::new(start, None);
        let mut t = 0;
        while w.step(layers) {
            t += 1;
            if w.on != (start & 1 == 1) && set_has(&w.frontier, c) {
                return Some(t);
            }
        }
        None
    }

    /// Every start of a few assumed-looking grids (a puzzle's candidates
    /// with some taken out at random) reaches its opposite in as many
    /// links on the planes as on the layers, in both modes.
    #[test]
    fn planes_reach_as_far_as_the_layers() {
        let lines = [
            "980760500700000090005009800570006080004000300000000005420007050050020000000100204",
            "000000001001002030040050600000007800080506000407080000000900020070060400300000009",
            "...1.5...14....67..8...24...63.7..1.9.......3.1..9.52...72...8..26....35...4.9...",
        ];
        let mut seed = 7u64;
        let mut reached = 0;
        for line in lines {
            let b = MarkedGrid::from_line(line).unwrap();
            for round in 0..6 {
                let mut cands = *b.all_cands();
                for m in cands.iter_mut() {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    if m.count_ones() > 2 && round > 0 && (seed >> 33) % 4 == 0 {
                        *m &= !(1 << ((seed >> 40) % 9));
                    }
                }
                let net = Net::from_cands(&cands);
                let planes = Planes::new(&cands);
                for (mode, x) in [(Mode::X, true), (Mode::XY, false)] {
                    let layers = Layers::new(&net, mode);
                    for c in 0..NCAND {
                        if !net.has(c) {
                            continue;
                        }
                        for on in [true, false] {
                            let want = walker_reach(&layers, node(c, on));
                            let got = if x {
                                planes.reach_x(c / 9, c % 9, on)
                            } else {
                                planes.reach_xy(c / 9, c % 9, on)
                            };
                            assert_eq!(got, want, "{line} round {round} {mode:?} {c} {on}");
                            reached += got.is_some() as usize;
                        }
                    }
                }
            }
        }
        assert!(reached > 50, "too few starts reach: {reached}");
    }
}
