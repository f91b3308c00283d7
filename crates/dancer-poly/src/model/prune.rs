//! Placements that can be in no solution, removed before the search (as
//! BurrTools' "reduce placements" does).
//!
//! A placement is useless when, once it is on the board, some cell that
//! must be covered has no placement left that fits beside it, or some
//! piece that must be used has none (another of its own, when it must be
//! used twice or more): no solution can hold it. Removing one can make
//! others useless, so the rule runs to its fixed point. The fixed point is
//! the largest set of placements in which every placement leaves every
//! required cell coverable; it does not depend on the order of the
//! removals, so a symmetry of the puzzle, which maps the placements onto
//! themselves, maps the pruned set onto itself too (the symmetry breaking
//! and the classes need exactly that).
//!
//! First, by counting alone ([`strike_forced`]): a placement that is the
//! only one left for a required cell or a needed piece is forced, and
//! every placement that meets it goes (a frame that never moves strikes
//! most placements of most BurrTools puzzles here: Prisgon, 2,494 of
//! them, keeps 445). Then the rest runs to the fixed point.
//!
//! The test runs on bitmaps over the placements: `meets[r]`, the
//! placements that share a cell with `r` (itself included). A placement
//! has no partner for cell `c` exactly when it meets every kept placement
//! covering `c`: the AND of their `meets`, less those covering `c`, and
//! only kept placements can be struck. Cells covered by the same
//! placements (most cells of a large piece) make one test. The tests run
//! in passes, each test again only when one of its placements went, and
//! in a pass those with the fewest kept placements first: a cell that one
//! placement alone can cover (a piece that never moves, a frame's corner)
//! strikes every placement that meets it at once, after which the other
//! tests AND few rows. An AND stops when no word is left that is not zero,
//! and a `meets` row is made only when first used, so most of the
//! placements squared bits are never made; a puzzle left with more than
//! [`MAX_PRUNED`] placements after the forced ones is searched with those
//! strikes alone (its rows could take 32 MiB), which is always correct.

use super::Placement;

/// The most placements pruned (their bitmaps take 32 MiB).
pub const MAX_PRUNED: usize = 16_384;

/// Which placements are kept: `keep[q]`. `required[c]`: cell `c` must be
/// covered; `least[p]`: piece `p` must be placed at least that often (a
/// placement of another piece must leave room for one of its placements,
/// and one of a piece needed twice or more for another of its own).
pub fn useful(
    placements: &[Placement],
    cells: usize,
    required: &[bool],
    least: &[u32],
) -> Vec<bool> {
    let mut keep = vec![true; placements.len()];
    strike_forced(placements, cells, required, least, &mut keep);
    let alive: Vec<usize> = (0..keep.len()).filter(|&q| keep[q]).collect();
    if alive.is_empty() || alive.len() > MAX_PRUNED {
        return keep;
    }
    let those: Vec<&Placement> = alive.iter().map(|&q| &placements[q]).collect();
    let theirs = fixed_point(&those, cells, required, least);
    for (&q, k) in alive.iter().zip(theirs) {
        keep[q] = k;
    }
    keep
}

/// The most rounds of [`strike_forced`] (each a pass over every cell of
/// every placement kept): a long chain of forced placements is left to
/// [`fixed_point`].
const FORCED_ROUNDS: usize = 8;

/// Strikes the placements that meet a forced one, by counting alone: a
/// placement is forced when it is the only one kept that covers a
/// required cell, or the only one kept of a piece that must be used. Any
/// other placement sharing a cell with it leaves that cell, or that
/// piece, without a placement, and so is struck by the rule of
/// [`useful`] too (two forced placements that meet strike each other):
/// only a shortcut to part of the same fixed point. A piece that never
/// moves (a frame, a box) makes most placements of most puzzles go here,
/// before the bitmaps of [`fixed_point`] are made for them.
fn strike_forced(
    placements: &[Placement],
    cells: usize,
    required: &[bool],
    least: &[u32],
    keep: &mut [bool],
) {
    // per cell and per piece: how many kept placements cover it or are
    // of it, and the last of them
    let mut on_cell = vec![(0u32, 0usize); cells];
    let mut of_piece = vec![(0u32, 0usize); least.len()];
    // per cell: how many forced placements cover it, and one of them
    let mut held = vec![(0u32, 0usize); cells];
    let mut forced = Vec::new();
    for _ in 0..FORCED_ROUNDS {
        on_cell.fill((0, 0));
        of_piece.fill((0, 0));
        for (q, p) in placements.iter().enumerate().filter(|&(q, _)| keep[q]) {
            for &c in &p.cells {
                on_cell[c] = (on_cell[c].0 + 1, q);
            }
            of_piece[p.piece] = (of_piece[p.piece].0 + 1, q);
        }
        forced.clear();
        let by_cell = (on_cell.iter().zip(required)).filter(|((k, _), &r)| r && *k == 1);
        forced.extend(by_cell.map(|((_, q), _)| *q));
        let by_piece = (of_piece.iter().zip(least)).filter(|((k, _), &l)| l > 0 && *k == 1);
        forced.extend(by_piece.map(|((_, q), _)| *q));
        if forced.is_empty() {
            return;
        }
        forced.sort_unstable();
        forced.dedup();
        held.fill((0, 0));
        for &f in &forced {
            for &c in &placements[f].cells {
                held[c] = (held[c].0 + 1, f);
            }
        }
        let mut struck = false;
        for (q, p) in placements.iter().enumerate() {
            if keep[q]
                && p.cells
                    .iter()
                    .any(|&c| held[c].0 > 1 || held[c].0 == 1 && held[c].1 != q)
            {
                keep[q] = false;
                struck = true;
            }
        }
        if !struck {
            return;
        }
    }
}

/// The fixed point of [`useful`]'s rule on `placements`, by the bitmaps
/// described at the top.
fn fixed_point(
    placements: &[&Placement],
    cells: usize,
    required: &[bool],
    least: &[u32],
) -> Vec<bool> {
    let n = placements.len();
    let mut keep = vec![true; n];
    let words = n.div_ceil(64);
    let covering = Lists::new(cells, placements.iter().map(|p| p.cells.iter().copied()));
    let of_piece = Lists::new(
        least.len(),
        placements.iter().map(|p| [p.piece].into_iter()),
    );
    // cells covered by the same placements are one test: a class per set
    // of placements, required when one of its cells is
    let mut class_of: rustc_hash::FxHashMap<&[u32], usize> = Default::default();
    let mut classes: Vec<(&[u32], bool)> = Vec::new();
    let mut cell_class = vec![0; cells];
    for (c, k) in cell_class.iter_mut().enumerate() {
        let qs = covering.get(c);
        *k = *class_of.entry(qs).or_insert_with(|| {
            classes.push((qs, false));
            classes.len() - 1
        });
        classes[*k].1 |= required[c];
    }
    // each placement's classes, each once
    let mut seen = vec![usize::MAX; classes.len()];
    let mut classes_of = Lists {
        start: Vec::with_capacity(n + 1),
        items: Vec::with_capacity(covering.items.len()),
    };
    for (r, p) in placements.iter().enumerate() {
        classes_of.start.push(classes_of.items.len() as u32);
        let mine = (p.cells.iter().map(|&c| cell_class[c]))
            .filter(|&k| std::mem::replace(&mut seen[k], r) != r);
        classes_of.items.extend(mine.map(|k| k as u32));
    }
    classes_of.start.push(classes_of.items.len() as u32);
    // the tests: a required class's (`t = k`), a needed piece's (`t =
    // classes + p`); each with its placements, and those it spares (a
    // placement covering the class; one of the piece when it is used
    // once, which needs no other of its own)
    let k_all = classes.len();
    let needed = |t: usize| match t.checked_sub(k_all) {
        None => classes[t].1,
        Some(p) => least[p] > 0,
    };
    let group = |t: usize| match t.checked_sub(k_all) {
        None => classes[t].0,
        Some(p) => of_piece.get(p),
    };
    let spares = |t: usize| t < k_all || least[t - k_all] == 1;
    let tests = k_all + least.len();
    let mut left: Vec<usize> = (0..tests).map(|t| group(t).len()).collect();
    let mut queued: Vec<bool> = (0..tests).map(needed).collect();
    let mut queue: Vec<usize> = Vec::new();
    // on[k]: the placements covering class k; meets[r]: those sharing a
    // cell with r (itself included), the OR of its classes' `on`
    let mut on = Rows::new(classes.len(), words);
    let mut meets = Rows::new(n, words);
    // the kept placements as bits
    let mut kept = vec![!0u64; words];
    if n % 64 != 0 {
        kept[words - 1] = (1 << (n % 64)) - 1;
    }
    let mut blocked = vec![0u64; words];
    let mut live: Vec<usize> = Vec::with_capacity(words);
    loop {
        queue.clear();
        queue.extend((0..tests).filter(|&t| queued[t]));
        if queue.is_empty() {
            return keep;
        }
        queue.sort_by_key(|&t| left[t]);
        for &t in &queue {
            queued[t] = false;
            // the kept placements that meet every kept one of the group,
            // less those it spares: the AND of the `meets` rows over the
            // words not yet zero, stopping when none is left
            blocked.copy_from_slice(&kept);
            if spares(t) {
                group(t)
                    .iter()
                    .for_each(|&q| blocked[q as usize / 64] &= !(1 << (q % 64)));
            }
            live.clear();
            live.extend((0..words).filter(|&w| blocked[w] != 0));
            for &r in group(t).iter().filter(|&&r| keep[r as usize]) {
                let r = r as usize;
                let m = meets.row(r, |row| {
                    for k in classes_of.get(r).iter().map(|&k| k as usize) {
                        let o = on.row(k, |o| {
                            (classes[k].0.iter()).for_each(|&q| o[q as usize / 64] |= 1 << (q % 64))
                        });
                        row.iter_mut().zip(o).for_each(|(m, o)| *m |= o);
                    }
                });
                live.retain(|&w| {
                    blocked[w] &= m[w];
                    blocked[w] != 0
                });
                if live.is_empty() {
                    break;
                }
            }
            for &w in &live {
                let mut b = blocked[w];
                while b != 0 {
                    let q = w * 64 + b.trailing_zeros() as usize;
                    b &= b - 1;
                    keep[q] = false;
                    kept[w] &= !(1 << (q % 64));
                    let again = classes_of.get(q).iter().map(|&k| k as usize);
                    for u in again.chain([k_all + placements[q].piece]) {
                        left[u] -= 1;
                        queued[u] |= needed(u);
                    }
                }
            }
        }
    }
}

/// Lists of numbers in one array: list `i` is `items[start[i]..start[i +
/// 1]]`.
struct Lists {
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    /// `lists` lists, holding `q` in list `i` for each `i` that the `q`th
    /// entry of `of` yields, in the order of `q`.
    fn new<I: Iterator<Item = usize>>(lists: usize, of: impl Iterator<Item = I> + Clone) -> Lists {
        let mut start = vec![0u32; lists + 1];
        of.clone().flatten().for_each(|i| start[i + 1] += 1);
        for i in 0..lists {
            start[i + 1] += start[i];
        }
        let mut at = start.clone();
        let mut items = vec![0; start[lists] as usize];
        for (q, is) in of.enumerate() {
            for i in is {
                items[at[i] as usize] = q as u32;
                at[i] += 1;
            }
        }
        Lists { start, items }
    }

    fn get(&self, i: usize) -> &[u32] {
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// Rows of bits over the placements, each made when first asked for and
/// kept: row `i` at `bits[at[i] * words..]`, in the order they were made.
/// The zeros are asked for at once (a large block of them comes from the
/// system untouched, so only the pages of rows made are ever written, and
/// no row is copied as the rows grow); most rows of a large puzzle are
/// never made.
struct Rows {
    bits: Vec<u64>,
    at: Vec<u32>,
    made: usize,
    words: usize,
}

impl Rows {
    fn new(rows: usize, words: usize) -> Rows {
        Rows {
            bits: vec![0; rows * words],
            at: vec![u32::MAX; rows],
            made: 0,
            words,
        }
    }

    /// Row `i`, made by `make` from zeros if it is not made yet.
    fn row(&mut self, i: usize, make: impl FnOnce(&mut [u64])) -> &[u64] {
        let w = self.words;
        if self.at[i] == u32::MAX {
            self.at[i] = self.made as u32;
            self.made += 1;
            let at = self.at[i] as usize * w;
            make(&mut self.bits[at..at + w]);
        }
        let at = self.at[i] as usize * w;
        &self.bits[at..at + w]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pl(cells: &[usize]) -> Placement {
        Placement {
            piece: 0,
            cells: cells.to_vec(),
        }
    }

    /// A domino on the middle of a 1x4 strip leaves the end cells
    /// uncoverable; the end dominoes stay.
    #[test]
    fn a_placement_that_strands_a_cell_goes() {
        let p = [pl(&[0, 1]), pl(&[1, 2]), pl(&[2, 3])];
        assert_eq!(useful(&p, 4, &[true; 4], &[0]), vec![true, false, true]);
        // with both end cells optional the middle one may stay
        assert_eq!(
            useful(&p, 4, &[false, true, true, false], &[0]),
            vec![true, true, true]
        );
    }

    /// Against brute force: a placement is kept exactly when it is in a
    /// fixed point; every placement of every exact cover stays.
    #[test]
    fn every_solution_survives() {
        // 2x3 board, cells 0..6 row by row; dominoes and an L tromino
        let p = [
            pl(&[0, 1]),
            pl(&[1, 2]),
            pl(&[3, 4]),
            pl(&[4, 5]),
            pl(&[0, 3]),
            pl(&[1, 4]),
            pl(&[2, 5]),
            pl(&[0, 1, 3]),
        ];
        let keep = useful(&p, 6, &[true; 6], &[0]);
        // every exact cover's placements are kept
        for mask in 0u32..(1 << p.len()) {
            let mut seen = [0; 6];
            for (q, pq) in p.iter().enumerate() {
                if mask >> q & 1 == 1 {
                    pq.cells.iter().for_each(|&c| seen[c] += 1);
                }
            }
            if seen.iter().all(|&k| k == 1) {
                for (q, &k) in keep.iter().enumerate() {
                    assert!(mask >> q & 1 == 0 || k, "{q} of {mask:b}");
                }
            }
        }
        // the L tromino leaves 2, 4, 5, covered by [2, 5] and [4, 5]...
        // which overlap, but each cell alone has a placement: kept
        assert!(keep[7]);
    }

    /// A piece that must be used: a placement of another piece that
    /// overlaps all of its placements goes.
    #[test]
    fn a_placement_that_leaves_no_room_for_a_needed_piece_goes() {
        let mut p = vec![pl(&[0, 1]), pl(&[2, 3]), pl(&[1, 2])];
        p[2].piece = 1; // piece 1 must be used once, on [1, 2] only
        let keep = useful(&p, 4, &[false; 4], &[0, 1]);
        assert_eq!(keep, vec![false, false, true]);
        // used at least twice: a placement needs another one of its own
        let q = [pl(&[0, 1]), pl(&[1, 2]), pl(&[2, 3])];
        assert_eq!(useful(&q, 4, &[false; 4], &[2]), vec![true, false, true]);
    }

    /// The forced placements' shortcut reaches the fixed point of the
    /// bitmaps alone: random strips of cells with pieces of 1 to 3 cells,
    /// some pieces with a single placement (a frame's), some cells
    /// optional, pieces needed 0 to 2 times.
    #[test]
    fn forced_strikes_reach_the_same_fixed_point() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |k: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % k) as usize
        };
        let mut forced = 0;
        for _ in 0..2000 {
            let cells = 3 + next(10);
            let pieces = 1 + next(4);
            let mut p = Vec::new();
            for piece in 0..pieces {
                let len = 1 + next(3);
                // a piece placed once (a frame), or wherever it fits
                let starts: Vec<usize> = match next(3) {
                    0 => vec![next((cells - len + 1) as u64)],
                    _ => (0..=cells.saturating_sub(len))
                        .filter(|_| next(4) != 0)
                        .collect(),
                };
                for s in starts.into_iter().filter(|&s| s + len <= cells) {
                    p.push(Placement {
                        piece,
                        cells: (s..s + len).collect(),
                    });
                }
            }
            let required: Vec<bool> = (0..cells).map(|_| next(5) != 0).collect();
            let least: Vec<u32> = (0..pieces).map(|_| next(3) as u32).collect();
            let all: Vec<&Placement> = p.iter().collect();
            let mut keep = vec![true; p.len()];
            strike_forced(&p, cells, &required, &least, &mut keep);
            forced += keep.iter().any(|&k| !k) as usize;
            let want = if p.is_empty() {
                Vec::new()
            } else {
                fixed_point(&all, cells, &required, &least)
            };
            assert_eq!(useful(&p, cells, &required, &least), want, "{p:?}");
        }
        // the shortcut did strike in many of them
        assert!(forced > 200, "{forced}");
    }
}
